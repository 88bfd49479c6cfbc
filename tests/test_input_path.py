"""One input path (docs/mechanism-files.md, "Reading files"): every mechanism file is read once, bounded, from a
path, ``-``, ``/dev/stdin``, a FIFO or a process substitution; the content decides the format; limits are
refused with one line.

Each case runs the command line as a user would (``python -m relations.cli measure FILE``): bad input exits 2
with exactly one line on stderr and no traceback; legal input succeeds with the same result whichever way the
file is handed in.  A file named by its path is read in this process (tests/conftest.py's ``run_cli``: the same
entry point, exit status and output); standard input, ``/dev/stdin``, a FIFO, a process substitution and
``/dev/zero`` (endless: a child process is what a timeout can end) are handed to a child process.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import numpy as np
import pytest
from conftest import EXAMPLES, ROOT, cli_command, run_cli
from numpy.lib import format as npy

import relations

EXAMPLE = EXAMPLES / "paper_example.json"
BASE = {"setting": "local", "prior": ["1/2", "1/2"], "channel": [["1/2", "1/2"], ["1/4", "3/4"]]}


def run(*args: str, stdin=None, env: dict | None = None, timeout: float = 600,
        process: bool = False) -> subprocess.CompletedProcess:
    """The command line: in this process unless given a standard input or ``process``."""
    full_env = {k: v for k, v in os.environ.items() if k != "RELATIONS_MAX_INPUT_BYTES"} | (env or {})
    if stdin is None and not process:
        return run_cli(*args, env=full_env, cwd=ROOT)
    return subprocess.run(cli_command(*args), stdin=stdin if stdin is not None else subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=full_env)


def assert_one_line_error(proc: subprocess.CompletedProcess, *tokens: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and proc.stderr.endswith("\n"), proc.stderr[-2000:]
    for token in tokens:
        assert token in lines[0], (token, lines[0])
    return lines[0]


def measured(proc: subprocess.CompletedProcess) -> dict:
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stderr == ""
    return json.loads(proc.stdout)


def save_npz(path: Path, compressed: bool = False, **arrays) -> Path:
    (np.savez_compressed if compressed else np.savez)(path, **arrays)
    return path


def npy_member(header: dict, data: bytes = b"") -> bytes:
    buf = io.BytesIO()
    npy.write_array_header_1_0(buf, header)
    return buf.getvalue() + data


def write_zip(path: Path, members: dict[str, bytes], compression=zipfile.ZIP_STORED) -> Path:
    with zipfile.ZipFile(path, "w", compression=compression) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


@pytest.fixture(scope="module")
def expected():
    return measured(run("measure", str(EXAMPLE), "--json"))


@pytest.fixture
def npz_file(tmp_path):
    return save_npz(tmp_path / "rr.npz", prior=np.array([0.5, 0.5]), channel=np.array([[0.75, 0.25], [0.25, 0.75]]))


# --------------------------------------------------------------------------- read once, from anything


def test_dash_reads_stdin(expected, npz_file):
    with open(EXAMPLE, "rb") as fh:
        assert measured(run("measure", "-", "--json", stdin=fh)) == expected
    with open(npz_file, "rb") as fh:
        assert measured(run("measure", "-", "--json", stdin=fh)) == measured(run("measure", str(npz_file), "--json"))


def test_check_reads_stdin():
    with open(EXAMPLE, "rb") as fh:
        out = measured(run("check", "-", "--json", stdin=fh))
    assert out["measures"]


def test_dev_stdin(expected):
    with open(EXAMPLE, "rb") as fh:
        assert measured(run("measure", "/dev/stdin", "--json", stdin=fh)) == expected


def test_dev_stdin_from_a_pipe(expected):
    """``cat FILE | relations measure /dev/stdin``: a pipe cannot be opened twice or rewound."""
    cat = subprocess.Popen(["cat", str(EXAMPLE)], stdout=subprocess.PIPE)
    try:
        assert measured(run("measure", "/dev/stdin", "--json", stdin=cat.stdout)) == expected
    finally:
        cat.stdout.close()
        cat.wait()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for <(...)")
@pytest.mark.parametrize("which", ["json", "npz"])
def test_process_substitution(expected, npz_file, which):
    path = EXAMPLE if which == "json" else npz_file
    proc = subprocess.run(["bash", "-c", 'exec "$0" -m relations.cli measure <(cat "$1") --json', sys.executable,
                           str(path)], capture_output=True, text=True, timeout=60, cwd=ROOT)
    out = measured(proc)
    if which == "json":
        assert out == expected
    else:
        assert out == measured(run("measure", str(npz_file), "--json"))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize("which", ["json", "npz"])
def test_fifo(tmp_path, expected, npz_file, which):
    """A named pipe is opened once and read to its end: no hang, no second open."""
    source = EXAMPLE if which == "json" else npz_file
    fifo = tmp_path / f"pipe.{which}"
    os.mkfifo(fifo)
    failures = []

    def writer():
        try:
            with open(fifo, "wb") as fh:  # blocks until the command opens the pipe
                fh.write(source.read_bytes())
        except OSError as exc:  # pragma: no cover - shows in the assertion below
            failures.append(exc)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    proc = run("measure", str(fifo), "--json", timeout=60)
    thread.join(timeout=10)
    assert not failures and not thread.is_alive()
    out = measured(proc)
    assert out == (expected if which == "json" else measured(run("measure", str(npz_file), "--json")))


def test_empty_stdin():
    assert_one_line_error(run("measure", "-", process=True), "<stdin>", "JSON")


# --------------------------------------------------------------------------- bounded reads


def test_dev_zero_is_refused_promptly():
    proc = run("measure", "/dev/zero", process=True)  # endless: only the read limit can end it (run's timeout guards a hang)
    assert_one_line_error(proc, "/dev/zero", "64 MiB", "RELATIONS_MAX_INPUT_BYTES")


def test_dev_zero_on_stdin_with_a_small_limit():
    with open("/dev/zero", "rb") as fh:
        proc = run("measure", "-", stdin=fh, env={"RELATIONS_MAX_INPUT_BYTES": "1000"})
    assert_one_line_error(proc, "<stdin>", "1000 bytes", "RELATIONS_MAX_INPUT_BYTES")


def test_huge_json_file_is_refused_before_reading(tmp_path):
    """A 175 MB JSON matrix used to take minutes and > 5 GB: now it is refused from its size (a sparse file)."""
    path = tmp_path / "huge.json"
    with open(path, "wb") as fh:
        fh.write(b'{"setting": "local", "prior": "uniform", "channel": [[')
        fh.truncate(175 * 10**6)
    assert_one_line_error(run("measure", str(path)), "huge.json", "64 MiB", "RELATIONS_MAX_INPUT_BYTES")


def test_limit_variable_lowers_and_raises_the_limit(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(BASE))
    size = path.stat().st_size
    assert_one_line_error(run("measure", str(path), env={"RELATIONS_MAX_INPUT_BYTES": str(size - 1)}),
                          f"{size - 1} bytes", "RELATIONS_MAX_INPUT_BYTES")
    measured(run("measure", str(path), "--json", env={"RELATIONS_MAX_INPUT_BYTES": str(size)}))


@pytest.mark.parametrize("value", ["lots", "-5", "0", "1e9"])
def test_bad_limit_variable(value):
    assert_one_line_error(run("measure", str(EXAMPLE), env={"RELATIONS_MAX_INPUT_BYTES": value}),
                          "RELATIONS_MAX_INPUT_BYTES")


def test_too_many_json_values_are_refused_before_parsing(tmp_path):
    path = tmp_path / "many.json"
    from relations.io._reading import MAX_JSON_VALUES as n
    path.write_text('{"setting": "local", "prior": "uniform", "channel": [[' + "0," * n + "1]]}")
    assert_one_line_error(run("measure", str(path)), "many.json", f"{n} JSON values")


def test_too_many_entries_are_refused_before_any_number_is_parsed():
    from relations.model import MAX_DENSE_ENTRIES

    row = ["0"] * 2049  # 2048 x 2049 > 2**22; every row is the same list, so this is cheap
    with pytest.raises(relations.InputError, match=f"key 'channel': 4196352 entries, .*{MAX_DENSE_ENTRIES}"):
        relations.from_dict({"setting": "local", "prior": "uniform", "channel": [row] * 2048})


# --------------------------------------------------------------------------- .npz, member by member


def test_npz_compressed_fortran_and_big_endian_load(tmp_path, npz_file):
    reference = measured(run("measure", str(npz_file), "--json"))
    q = np.array([[0.75, 0.25], [0.25, 0.75]])
    for name, compressed, channel in [("c.npz", True, q), ("f.npz", False, np.asfortranarray(q)),
                                      ("b.npz", False, q.astype(">f8"))]:
        path = save_npz(tmp_path / name, compressed, prior=np.array([0.5, 0.5]), channel=channel)
        assert measured(run("measure", str(path), "--json")) == reference, name
    asymmetric = np.asfortranarray([[0.5, 0.5], [0.125, 0.875]])
    loaded = relations.load(save_npz(tmp_path / "a.npz", prior=np.array([0.5, 0.5]), channel=asymmetric))
    assert loaded.channel.array.tolist() == asymmetric.tolist()


def test_npz_header_with_a_huge_shape(tmp_path):
    """The header declares 10^12 x 10^6 floats: refused from the header, never allocated."""
    channel = npy_member({"descr": "<f8", "fortran_order": False, "shape": (10**12, 10**6)}, b"\0" * 64)
    prior = npy_member({"descr": "<f8", "fortran_order": False, "shape": (2,)}, np.array([0.5, 0.5]).tobytes())
    path = write_zip(tmp_path / "huge_shape.npz", {"prior.npy": prior, "channel.npy": channel})
    assert_one_line_error(run("measure", str(path)), "huge_shape.npz", "channel", "limit", "RELATIONS_MAX_INPUT_BYTES")


def test_npz_zip_bomb(tmp_path):
    """64 MiB of zeros deflated to a few KiB: refused from the member's declared size."""
    rows = 2**22
    channel = npy_member({"descr": "<f8", "fortran_order": False, "shape": (rows, 2)}, bytes(rows * 16))
    prior = npy_member({"descr": "<f8", "fortran_order": False, "shape": (1,)}, np.array([1.0]).tobytes())
    path = write_zip(tmp_path / "bomb.npz", {"prior.npy": prior, "channel.npy": channel}, zipfile.ZIP_DEFLATED)
    assert path.stat().st_size < 2**20
    assert_one_line_error(run("measure", str(path), env={"RELATIONS_MAX_INPUT_BYTES": str(2**20)}),
                          "bomb.npz", "1 MiB", "RELATIONS_MAX_INPUT_BYTES")


def test_npz_member_longer_than_its_header_says(tmp_path):
    channel = npy_member({"descr": "<f8", "fortran_order": False, "shape": (1, 1)}, b"\0\0\0\0\0\0\xf0?" + bytes(10**7))
    prior = npy_member({"descr": "<f8", "fortran_order": False, "shape": (1,)}, np.array([1.0]).tobytes())
    path = write_zip(tmp_path / "long.npz", {"prior.npy": prior, "channel.npy": channel}, zipfile.ZIP_DEFLATED)
    assert_one_line_error(run("measure", str(path)), "long.npz", "channel", "extra bytes")


@pytest.mark.parametrize("case,tokens", [
    ("object", ("channel", "pickled data is never loaded")),
    ("unknown", ("unknown member 'labels.npy'", "prior, channel")),
    ("not_npy", ("unknown member 'notes.txt'",)),
    ("structured", ("channel", "not supported")),
    ("bad_header", ("channel", "not a readable .npy array")),
    ("bzip2", ("prior", "compression method 12")),
])
def test_npz_bad_members(tmp_path, case, tokens):
    p, q = np.array([0.5, 0.5]), np.array([[0.5, 0.5], [0.25, 0.75]])
    path = tmp_path / f"{case}.npz"
    if case == "object":
        np.savez(path, prior=p, channel=q.astype(object))
    elif case == "unknown":
        save_npz(path, prior=p, channel=q, labels=np.array(["a", "b"]))
    elif case == "not_npy":
        write_zip(path, {"notes.txt": b"hello"})
    elif case == "structured":
        save_npz(path, prior=p, channel=np.zeros(2, dtype=[("a", "<f8"), ("b", "<f8")]))
    elif case == "bad_header":
        write_zip(path, {"prior.npy": npy_member({"descr": "<f8", "fortran_order": False, "shape": (2,)}, p.tobytes()),
                         "channel.npy": b"\x93NUMPY\x01\x00\x10\x00{'descr': 'O8'}  \n"})
    else:
        write_zip(path, {"prior.npy": npy_member({"descr": "<f8", "fortran_order": False, "shape": (2,)}, p.tobytes()),
                         "channel.npy": npy_member({"descr": "<f8", "fortran_order": False, "shape": (2, 2)},
                                                   q.tobytes())}, zipfile.ZIP_BZIP2)
    assert_one_line_error(run("measure", str(path)), f"{case}.npz", *tokens)


# --------------------------------------------------------------------------- JSON


@pytest.mark.parametrize("text,tokens", [
    ('{"setting": "local", "prior": ["1"], "channel": [["1"]], "prior": ["1"]}', ("'prior'", "top-level object")),
    ('{"setting": "central", "domain": ["a"], "records": 1, "prior": "uniform", '
     '"channel": {"product": [["1"]], "product": [["1"]]}}', ("'product'", "'channel'")),
    ('{"setting": "local", "prior": [{"p": 1, "p": 2}], "channel": [["1"]]}', ("'p'", "'prior[0]'")),
])
def test_duplicate_keys(tmp_path, text, tokens):
    path = tmp_path / "dup.json"
    path.write_text(text)
    assert_one_line_error(run("measure", str(path)), "dup.json", "appears twice", *tokens)


@pytest.mark.parametrize("number", ["\u0660.\u0665", "\uff10.\uff15", "\uff11/\uff12", "\u0967/\u0968", "0.\u0665",
                                    "\u00a00.5"])
def test_non_ascii_digits(tmp_path, number):
    """Python's int, Decimal and Fraction read digits of every script; a mechanism file may not."""
    path = tmp_path / "digits.json"
    path.write_text(json.dumps({"setting": "local", "prior": [number, "1/2"], "channel": [["1"], ["1"]]}),
                    encoding="utf-8")
    assert_one_line_error(run("measure", str(path)), "digits.json", "prior[0]", "ASCII")


def test_json_named_npz_is_read_as_json(tmp_path, expected):
    path = tmp_path / "actually_json.npz"
    path.write_bytes(EXAMPLE.read_bytes())
    assert measured(run("measure", str(path), "--json")) == expected
    with pytest.raises(relations.InputError, match="not an .npz archive \\(it looks like JSON\\)"):
        relations.io._npz.load_npz(path)


def test_neither_npz_nor_json(tmp_path):
    path = tmp_path / "garbage.npz"
    path.write_bytes(b"hello, world")
    assert_one_line_error(run("measure", str(path)), "garbage.npz", "not an .npz archive")


def test_a_file_is_opened_once(tmp_path, monkeypatch):
    """In process: ``load`` opens the path exactly once, whatever the format."""
    import builtins

    opened = []
    real_open = builtins.open

    def counting_open(file, *args, **kwargs):
        opened.append(os.fspath(file))
        return real_open(file, *args, **kwargs)

    path = tmp_path / "rr.npz"
    save_npz(path, prior=np.array([0.5, 0.5]), channel=np.eye(2))
    monkeypatch.setattr(builtins, "open", counting_open)
    relations.load(EXAMPLE)
    relations.load(path)
    assert opened.count(str(EXAMPLE)) == 1 and opened.count(str(path)) == 1
