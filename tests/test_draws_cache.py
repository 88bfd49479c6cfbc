"""The stored hypothesis draws of relations.search._screening: a run reads the mechanisms the previous run of
the same code drew (the same ones, entry for entry), and never trusts a file that does not check."""

from __future__ import annotations

import pytest

from relations.search import _screening as screening


@pytest.fixture()
def cache(monkeypatch, tmp_path):
    monkeypatch.setenv("RELATIONS_CACHE_DIR", str(tmp_path))
    return tmp_path


def _entries(mechs):
    return [m.to_dict() for m in mechs]


def test_stored_draws_are_the_drawn_mechanisms(cache):
    path = screening._draws_path("central", 12)
    assert path is not None and path.parent == cache / "draws" and not path.exists()
    drawn = screening._draw("central", 12)  # hypothesis's engine
    assert screening.generated.__wrapped__("central", 12) is not None and path.exists()  # draws and stores
    stored = screening._stored_draws(path)
    assert stored is not None and stored is not drawn
    assert _entries(stored) == _entries(drawn) and len(drawn) == 12
    assert _entries(screening.generated.__wrapped__("central", 12)) == _entries(drawn)  # read back


@pytest.mark.parametrize("damage", ["payload", "header", "name", "foreign"])
def test_a_file_that_does_not_check_is_removed_and_drawn_again(cache, damage):
    import hashlib
    import pickle

    path = screening._draws_path("local", 5)
    screening.generated.__wrapped__("local", 5)
    data = path.read_bytes()
    header, payload = data.split(b"\n", 1)
    if damage == "payload":
        data = header + b"\n" + payload[:-1] + bytes([payload[-1] ^ 1])
    elif damage == "header":
        data = header[:-1] + (b"0" if header[-1:] != b"0" else b"1") + b"\n" + payload
    elif damage == "name":  # a file of another key (other code) put in its place
        data = header.replace(b"local-5-", b"local-6-") + b"\n" + payload
    else:  # it checks, but holds something other than mechanisms
        foreign = pickle.dumps(("not", "mechanisms"))
        data = f"{path.name} {hashlib.sha256(foreign).hexdigest()}\n".encode() + foreign
    path.write_bytes(data)
    assert screening._stored_draws(path) is None and not path.exists()
    again = screening.generated.__wrapped__("local", 5)
    assert _entries(again) == _entries(screening._draw("local", 5)) and path.exists()


def test_the_key_names_the_code():
    digest = screening._code_digest()
    assert digest is not None and len(digest) == 64
    path = screening._draws_path("local", 7)
    assert path is None or path.name == f"local-7-{digest}.pickle"


def test_a_file_that_would_run_code_is_read_as_data(cache, tmp_path):
    """A stored file whose hash checks but which names a callable outside a mechanism's value objects (here
    ``os.system``) is refused before anything is looked up or called: the file is removed and drawn again."""
    import hashlib
    import os
    import pickle

    marker = tmp_path / "ran"

    class Run:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    path = screening._draws_path("local", 5)
    screening.generated.__wrapped__("local", 5)
    hostile = pickle.dumps((Run(),))
    path.write_bytes(f"{path.name} {hashlib.sha256(hostile).hexdigest()}\n".encode() + hostile)
    assert screening._stored_draws(path) is None and not path.exists()
    assert not marker.exists()
