"""The numeric mode (issue 29, item 5): exact, float or the documented rule (``auto``), chosen by the caller
and stated by every output; nothing switches silently at a size (``docs/semantics.md``, "Numeric mode").

The expected values are derived here, not by the package: the channel ``bumped(n)`` has ``1/512`` in
every entry plus ``1/2`` on its "diagonal" (column ``x mod 256``), so every entry is a binary fraction,
every row sums to exactly 1, and under the uniform prior ``eps_d = eps_i = ln((1/2 + 1/512) / (1/512))
= ln(257)`` whatever the number of rows (two rows differ in the diagonal column)."""

from __future__ import annotations

import json
import math
import os
import zipfile

import numpy as np
import pytest
from conftest import run_cli

import relations
from relations import InputError, Mechanism, NumericMode, check, load, measure
from relations.model._floats import MAX_EXACT_FLOAT_ENTRIES, MAX_EXACT_MODE_ENTRIES, numeric_mode

LN_257 = math.log(257)


def bumped(n: int) -> np.ndarray:
    """``n x 256``: ``1/512`` everywhere, ``1/2`` more in column ``x mod 256`` of row ``x``."""
    q = np.full((n, 256), 1 / 512)
    q[np.arange(n), np.arange(n) % 256] += 1 / 2
    return q


def save(path, channel, **extra):
    np.savez(path, prior=np.full(channel.shape[0], 1 / channel.shape[0]), channel=channel, **extra)
    return str(path)


def test_the_channel_is_what_the_docstring_says():
    q = bumped(257)
    assert q.sum(axis=1).tolist() == [1.0] * 257 and set(q.ravel().tolist()) == {1 / 512, 1 / 2 + 1 / 512}
    assert (1 / 2 + 1 / 512) / (1 / 512) == 257


def test_the_enum_is_the_one_vocabulary():
    assert [str(m) for m in NumericMode] == ["auto", "exact", "float"]
    assert relations.NumericMode is NumericMode and numeric_mode(" EXACT ") is NumericMode.EXACT
    with pytest.raises(InputError, match="expected auto, exact or float, got 'fast'"):
        numeric_mode("fast")
    with pytest.raises(InputError, match="expected auto, exact or float"):
        measure(Mechanism.local([["1", "0"], ["0", "1"]]), mode="certified")


# ------------------------------------------------------------------ the rule (auto) at its boundary

def test_auto_boundary_256_by_256_exact_257_by_256_float():
    """256 x 256 = 65536 = MAX_EXACT_FLOAT_ENTRIES entries is exact; one row more is float mode, and says why."""
    assert 256 * 256 == MAX_EXACT_FLOAT_ENTRIES
    small, big = Mechanism.local(bumped(256)), Mechanism.local(bumped(257))
    assert small.exact and small.mode_rule == "auto: a float array of at most 65536 entries"
    assert not big.exact and big.mode_rule == "auto: a float array of more than 65536 entries"
    at, past = measure(small), measure(big)
    assert at.exact and str(at.eps_d.exact) == "ln(257)" and str(at.eps_i.exact) == "ln(257)"
    assert not past.exact and past.eps_d.exact is None and past.eps_m.enclosure is None
    assert past.eps_d.value == pytest.approx(LN_257, rel=1e-12)


def test_auto_boundary_on_the_command_line(tmp_path):
    for rows, mode, why in ((256, "exact", "at most"), (257, "float", "more than")):
        path = save(tmp_path / f"q{rows}.npz", bumped(rows))
        out = json.loads(run_cli("measure", path, "--json").stdout)
        assert out["mode"] == mode
        assert out["eps_d"]["exact"] == ("ln(257)" if mode == "exact" else None)
        assert float(out["eps_d"]["value"]) == pytest.approx(LN_257, rel=1e-12)
        table = _table("measure", path)
        assert f"mode {mode}" in table and f"auto: a float array of {why} 65536 entries" in table


def _table(*args: str) -> str:
    """The table output of a command in a wide terminal, whitespace folded (the title on one line)."""
    env = dict(os.environ, COLUMNS="400")
    proc = run_cli(*args, env=env)  # in this process (tests/conftest.py)
    assert proc.returncode in (0, 1), proc.stderr
    return " ".join(proc.stdout.split())


# ------------------------------------------------------------------ mode exact

def test_mode_exact_on_a_large_float_array_is_refused_up_front(tmp_path):
    """4097 x 4096 > MAX_EXACT_MODE_ENTRIES: exit 2, one line naming --mode float.  The rows are all zero,
    so an error about their sums would mean the arrays were validated first: the size is checked before."""
    assert 4097 * 4096 > MAX_EXACT_MODE_ENTRIES >= 4096 * 4096
    path = tmp_path / "huge.npz"
    np.savez_compressed(path, prior=np.full(4097, 1 / 4097), channel=np.zeros((4097, 4096)))
    for command in ("measure", "check"):
        proc = run_cli(command, str(path), "--mode", "exact")
        assert proc.returncode == 2 and proc.stdout == ""
        lines = proc.stderr.splitlines()
        assert len(lines) == 1 and "--mode float" in lines[0] and "16781312" in lines[0], proc.stderr
        assert "sum" not in lines[0]
    # the file's own mode array asking for exact is refused the same way, never switched to floats (added to the
    # archive as np.savez_compressed writes a member: compressing the 128 MiB channel again cost 0.5 s of CPU)
    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as archive, \
            archive.open("mode.npy", "w", force_zip64=True) as member:
        np.lib.format.write_array(member, np.array("exact"))
    assert np.load(path)["mode"] == np.array("exact")
    proc = run_cli("measure", str(path))
    assert proc.returncode == 2 and "--mode float" in proc.stderr


def test_mode_exact_refused_up_front_in_the_api():
    """A broadcast view: 4097 x 4096 entries in 32 KiB; refused before it is validated or copied."""
    view = np.broadcast_to(np.zeros(4096), (4097, 4096))
    with pytest.raises(InputError, match=r"channel: 16781312 float entries.*--mode float"):
        Mechanism.local(view, mode="exact")


def test_mode_exact_on_a_small_float_array_equals_auto(tmp_path):
    path = save(tmp_path / "rr.npz", np.array([[0.75, 0.25], [0.25, 0.75]]))
    for args in (("measure", path, "--json"), ("check", path, "--json", "--claim", "eps_d<=ln(3)")):
        auto, exact = run_cli(*args), run_cli(*args, "--mode", "exact")
        assert auto.returncode == exact.returncode == 0, auto.stderr + exact.stderr
        assert auto.stdout == exact.stdout
    out = json.loads(exact.stdout)
    assert out["mode"] == "exact" and out["claims"][0]["status"] == "holds"
    measured = json.loads(run_cli("measure", path, "--json", "--mode", "exact").stdout)
    assert measured["eps_d"]["exact"] == "ln(3)"  # 3/4 over 1/4, exactly
    assert "chosen by the caller" in _table("measure", path, "--mode", "exact")


def test_mode_exact_takes_a_float_mode_mechanism_exactly():
    big = Mechanism.local(bumped(257))
    taken = measure(big, mode="exact")
    assert taken.exact and str(taken.eps_d.exact) == "ln(257)" and str(taken.eps_i.exact) == "ln(257)"
    assert taken.mechanism.mode_rule == "chosen by the caller"
    built = Mechanism.local(bumped(257), mode="exact")
    assert built.exact and built.channel.exact[0] == taken.mechanism.channel.exact[0]
    assert built.prior.exact == taken.mechanism.prior.exact == (relations.Prior.uniform(257).exact)
    assert str(measure(built).eps_m.enclosure.lower) == str(taken.eps_m.enclosure.lower)


# ------------------------------------------------------------------ mode float

def test_mode_float_on_a_small_array_gives_float_mode(tmp_path):
    path = save(tmp_path / "rr.npz", np.array([[0.75, 0.25], [0.25, 0.75]]))
    out = json.loads(run_cli("measure", path, "--json", "--mode", "float").stdout)
    assert out["mode"] == "float" and out["eps_d"]["exact"] is None and out["eps_m"]["enclosure"] is None
    assert float(out["eps_d"]["value"]) == pytest.approx(math.log(3), rel=1e-12)
    mi = math.log(2) - (-(0.75 * math.log(0.75) + 0.25 * math.log(0.25)))  # I = H(Y) - H(Y|X), H(Y) = ln 2
    assert float(out["eps_m"]["value"]) == pytest.approx(mi, rel=1e-12)
    title = _table("measure", path, "--mode", "float")
    assert "mode float, approximate (chosen by the caller" in title
    checked = json.loads(run_cli("check", path, "--json", "--mode", "float", "--claim", "eps_d<=ln(3)").stdout)
    assert checked["mode"] == "float" and checked["claims"][0]["holds"] is True


def test_mode_float_on_exact_input(tmp_path):
    """A JSON file (exact) in float mode; the API the same."""
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"setting": "local", "prior": ["19/20", "1/20"],
                                "channel": [["13/20", "7/20"], ["7/20", "13/20"]]}))
    out = json.loads(run_cli("measure", str(path), "--json", "--mode", "float").stdout)
    assert out["mode"] == "float" and float(out["eps_d"]["value"]) == pytest.approx(math.log(13 / 7), rel=1e-12)
    auto = run_cli("measure", str(path), "--json")
    assert json.loads(auto.stdout)["mode"] == "exact"
    assert run_cli("measure", str(path), "--json", "--mode", "exact").stdout == auto.stdout
    m = load(path)
    floats = measure(m, mode="float")
    assert not floats.exact and floats.eps_i.value == pytest.approx(math.log(13 / 7 * 19), rel=1e-12)
    report = check(m, ["eps_d <= ln(13/7)"], mode="float")
    assert report.values.approximate and report.claims[0].holds is True
    assert measure(m).exact and check(m, mode=NumericMode.FLOAT).values.approximate


def test_mode_float_product_form():
    w = np.array([[0.75, 0.25], [0.25, 0.75]])
    m = Mechanism.product(w, records=1000, mode="float")
    assert not m.exact and m.is_product and m.mode_rule == "chosen by the caller"
    res = measure(m)
    assert not res.exact and res.eps_d.value == pytest.approx(math.log(3), rel=1e-12)
    again = measure(m, mode="exact")
    assert again.exact and str(again.eps_d.exact) == "ln(3)"


# ------------------------------------------------------------------ the file's mode array, and bad values

def test_explicit_mode_wins_over_the_files_mode_array(tmp_path):
    path = save(tmp_path / "f.npz", np.array([[0.75, 0.25], [0.25, 0.75]]), mode=np.array("float"))
    assert load(path).mode_rule == "the file's mode array" and not load(path).exact
    assert load(path, mode="exact").exact and load(path, mode="exact").mode_rule == "chosen by the caller"
    assert json.loads(run_cli("measure", path, "--json", "--mode", "exact").stdout)["mode"] == "exact"
    assert "the file's mode array" in _table("measure", path)


def test_a_bad_mode_is_one_line_exit_2(tmp_path):
    path = save(tmp_path / "rr.npz", np.array([[0.75, 0.25], [0.25, 0.75]]))
    for command in ("measure", "check"):
        proc = run_cli(command, path, "--mode", "certified")
        assert proc.returncode == 2 and proc.stdout == ""
        assert len(proc.stderr.splitlines()) == 1 and "'auto', 'exact', 'float'" in proc.stderr
    assert "auto, exact, float" in " ".join(run_cli("measure", "--help").stdout.split())
