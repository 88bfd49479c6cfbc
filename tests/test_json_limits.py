"""Every JSON the tool reads: nesting refused from its shape, limits checked before values are built, and
``MemoryError`` as one line (issue 43 items 4 and 5)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from fractions import Fraction

import pytest
from conftest import ROOT, cli_command, run_cli

import relations
from relations import _json
from relations.errors import InputError
from relations.model import MAX_DENSE_ENTRIES
from relations.model._neighbours import MAX_EDGES

DEEP = "[" * 50000 + "]" * 50000


def one_line(res) -> None:
    assert res.returncode == 2, (res.returncode, res.stderr[-2000:])
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("relations: error:"), res.stderr[-2000:]
    assert "Traceback" not in res.stderr


def test_shape_counts_by_structure():
    text = '{"k\\"ey": [1, "a,]\\\\", {"x": [2, [3]]}], "e": [], "s": "[[[", "n": -1.5e3}'
    got = _json.shape(text)
    assert got.depth == 5  # { [ { [ [ by hand
    assert got.leaves == 6  # 1, "a,]\\", 2, 3, "[[[" and -1.5e3 by hand (keys are not values)
    assert got.members == {'k"ey': _json.Member(4, 3), "e": _json.Member(0, 0), "s": _json.Member(1, 0),
                           "n": _json.Member(1, 0)}
    parsed = json.loads(text)
    assert len(parsed['k"ey']) == 3 and parsed["s"] == "[[["


@pytest.mark.parametrize("text", ["[]", "{}", '{"a": {"b": [[1, 2], [3]]}}', '[1, [2, [3, [4]]]]', '"x"', "3"])
def test_shape_depth_matches_the_parsed_value(text):
    def depth(v):
        if isinstance(v, dict):
            return 1 + max((depth(x) for x in v.values()), default=0)
        if isinstance(v, list):
            return 1 + max((depth(x) for x in v), default=0)
        return 0

    assert _json.shape(text).depth == depth(json.loads(text))


def test_deep_json_is_one_line_in_every_reader(tmp_path):
    from relations.io._conjecture_files import parse_conjecture_file
    from relations.io._outputs import OutputDir
    from relations.io._reading import load_loss_matrix
    from relations.sweeps._spec import parse_spec_text

    deep_object = '{"a": ' + DEEP + "}"
    with pytest.raises(InputError, match="nested 50001 levels deep"):
        relations.loads(deep_object)
    with pytest.raises(InputError, match="nested 50000 levels deep"):
        parse_conjecture_file(DEEP, where="c.json", setting="local")
    with pytest.raises(InputError, match="nested"):
        parse_spec_text('{"mechanism": ' + DEEP + "}")
    loss = tmp_path / "loss.json"
    loss.write_text(DEEP)
    with pytest.raises(InputError, match="nested"):
        load_loss_matrix(str(loss))
    (tmp_path / ".relations-output.json").write_text(deep_object)  # a manifest made deep: taken as not the tool's
    out = OutputDir(str(tmp_path / ""))
    assert not out.owned(".relations-output.json")
    out.close()


def test_deep_json_files_on_the_command_line(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    for args in (["measure", deep], ["conjecture", "--file", deep, "--quick"], ["sweep", deep, "--out", tmp_path / "s"],
                 ["figures", "--verdicts", deep, "--out", tmp_path / "f"]):
        res = run_cli(*map(str, args))  # in this process (tests/conftest.py)
        if args[0] == "figures":  # a verdicts file that is not one: its own line
            assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr[-2000:]
            continue
        one_line(res)


def _no_fraction(monkeypatch):
    """Building any Fraction from the file fails the test: the limit must be met from the structure."""
    import relations.io._reading as reading

    def refuse(*args, **kwargs):
        raise AssertionError("a value was built before the limit was checked")

    monkeypatch.setattr(reading, "from_dict", refuse)
    monkeypatch.setattr(reading, "_Number", refuse)
    monkeypatch.setattr(reading, "_Float", refuse)


def test_a_channel_beyond_the_limit_is_refused_before_any_value(monkeypatch):
    n = MAX_DENSE_ENTRIES + 1
    text = '{"setting": "local", "prior": ["1"], "channel": [[' + ",".join(["0"] * n) + "]]}"
    _no_fraction(monkeypatch)
    with pytest.raises(InputError, match=f"{n} entries, more than the limit of {MAX_DENSE_ENTRIES}"):
        relations.loads(text)


def test_neighbour_pairs_beyond_the_limit_are_refused_before_any_value(monkeypatch):
    n = MAX_EDGES + 1
    text = ('{"setting": "central", "prior": "uniform", "channel": [["1"], ["1"]], "neighbours": ['
            + ",".join(["[0, 1]"] * n) + "]}")
    _no_fraction(monkeypatch)
    with pytest.raises(InputError, match=f"{n} pairs, more than the limit of {MAX_EDGES}"):
        relations.loads(text)


def test_within_the_limits_the_same_files_still_load():
    m = relations.loads('{"setting": "central", "prior": "uniform", "channel": [["1"], ["1"]], '
                        '"neighbours": [[0, 1]], "comment": "[[[{{{,,,\\"]"}')
    assert m.channel.exact == ((Fraction(1),), (Fraction(1),))


def _limit_memory(mib: int):
    def preexec():
        resource.setrlimit(resource.RLIMIT_AS, (mib * 2**20, mib * 2**20))
    return preexec


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as on Linux")
def test_memory_error_while_reading_is_one_line(tmp_path):
    path = tmp_path / "m.json"
    # within every documented limit (at the limit of dense entries): checked, then read until memory runs out.  With
    # 2**20 entries the reading fitted in 300 MiB here, and the error came from the measures after it (the table
    # printed, 5 s of CPU)
    n = MAX_DENSE_ENTRIES
    path.write_text('{"setting": "local", "prior": ["1"], "channel": [[' + ",".join(["0"] * (n - 1)) + ",1]]}")
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    res = subprocess.run(cli_command("measure", str(path)), capture_output=True, text=True, cwd=ROOT, env=env,
                         preexec_fn=_limit_memory(300), timeout=300)
    one_line(res)
    assert "not enough memory for reading" in res.stderr and "limit: 300 MiB of address space" in res.stderr
    assert res.stdout == ""


def test_memory_error_while_computing_is_one_line(monkeypatch, capsys):
    from relations import cli
    from relations.io import _reading

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(_reading, "from_dict", exhausted)
    with pytest.raises(SystemExit) as stop:
        cli.main(["measure", str(ROOT / "relations" / "data" / "examples" / "paper_example.json")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("relations: error: not enough memory for relations measure")


def test_the_docs_state_the_depth_limit():
    table = (ROOT / "docs" / "mechanism-files.md").read_text(encoding="utf-8")
    assert f"nesting of arrays and objects in any JSON file the tool reads | {_json.MAX_JSON_DEPTH} levels" in table
