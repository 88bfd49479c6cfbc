"""A robustness fuzzer: mutated mechanism files, random claims and random command lines.

Run in-process through :func:`relations.cli.main` (fast), each example asserts: no traceback
(any exception other than SystemExit fails the test), exit status 0, 1 or 2 only, a status-2
error is exactly one line on stderr, and nothing in the working directory changes except
the output folder the command was told to use.  ``python -m pytest -m slow tests/test_fuzz.py``
runs many more examples.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relations.cli import main

VALID = [
    {"setting": "local", "prior": ["19/20", "1/20"], "channel": [["13/20", "7/20"], ["7/20", "13/20"]]},
    {"setting": "central", "records": 2, "domain": ["a", "b"],
     "channel": [["1/2", "1/2"], ["1/4", "3/4"], ["3/4", "1/4"], ["1/2", "1/2"]]},
    {"setting": "central", "channel": [["3/4", "1/4"], ["1/4", "3/4"], ["1/2", "1/2"]],
     "neighbours": [[0, 1], [1, 2]], "prior": ["1/2", "1/2", "0"]},
    {"setting": "central", "records": 3, "channel": {"product": [["3/4", "1/4"], ["1/4", "3/4"]]}},
    {"setting": "local", "channel": {"mechanism": "krr", "k": 3, "ratio": "2"}},
]

JSON_ATOMS = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                       st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
                       st.sampled_from(["1/2", "0", "-1", "1e400", "nan", "inf", "ln(2)", "0x10", "١/٢", "3/0",
                                        "local", "central", "uniform", "krr", "product", "1" * 50]))
JSON = st.recursive(JSON_ATOMS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                    max_leaves=12)


@st.composite
def mutated(draw):
    """A valid mechanism with one value replaced, one key dropped or added, at any depth."""
    doc = copy.deepcopy(draw(st.sampled_from(VALID)))
    node = doc
    for _ in range(draw(st.integers(0, 3))):
        keys = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
        if not keys:
            break
        k = draw(st.sampled_from(keys))
        if not isinstance(node[k], (dict, list)):
            break
        node = node[k]
    keys = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
    action = draw(st.sampled_from(["replace", "drop", "add"]))
    if keys and action == "replace":
        node[draw(st.sampled_from(keys))] = draw(JSON)
    elif keys and action == "drop":
        k = draw(st.sampled_from(keys))
        del node[k]
    elif isinstance(node, dict):
        node[draw(st.sampled_from(["prior", "records", "neighbours", "domain", "outputs", "extra"]))] = draw(JSON)
    return doc


def snapshot(folder: Path, skip: str | None = None) -> dict[str, str]:
    out = {}
    for root, _, files in os.walk(folder):
        if skip and Path(root).resolve().is_relative_to((folder / skip).resolve()):
            continue
        for f in files:
            p = Path(root) / f
            out[str(p.relative_to(folder))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def run(argv, capsys) -> tuple[int, str]:
    capsys.readouterr()
    try:
        main([str(a) for a in argv])
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    err = capsys.readouterr().err
    assert code in (0, 1, 2), (argv, code, err)
    if code == 2:
        assert err.count("\n") == 1 and err.startswith("relations: error:"), (argv, err)
    assert "Traceback" not in err
    return code, err


FUZZ = settings(max_examples=120, deadline=None, database=None, derandomize=True,
                suppress_health_check=list(HealthCheck))


@FUZZ
@given(doc=mutated(), claim=st.sampled_from(["eps_d <= 1", "eps_m < 1/10", "sigma_min >= -ln(3)"]))
def test_mutated_mechanism_files(tmp_path_factory, capsys, doc, claim):
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "m.json"
    path.write_text(json.dumps(doc))
    before = snapshot(folder)
    run(["measure", path], capsys)
    run(["check", path, "--claim", claim, "--json"], capsys)
    assert snapshot(folder) == before


@FUZZ
@given(raw=st.binary(max_size=200), suffix=st.sampled_from([".json", ".npz", ""]))
def test_arbitrary_bytes(tmp_path_factory, capsys, raw, suffix):
    folder = tmp_path_factory.mktemp("bytes")
    path = folder / f"m{suffix}"
    path.write_bytes(raw)
    run(["measure", path], capsys)


@FUZZ
@given(claim=st.one_of(st.text(max_size=40), st.builds(lambda a, b, c: f"{a}{b}{c}",
                                                        st.sampled_from(["eps_d", "eps_m", "sigma_min", "eps_x", ""]),
                                                        st.sampled_from(["<=", "<", ">=", ">", "=", "=<", " "]),
                                                        st.text(alphabet="0123456789./eln()- +", max_size=20))))
def test_random_claims(tmp_path_factory, capsys, claim):
    folder = tmp_path_factory.mktemp("claims")
    path = folder / "m.json"
    path.write_text(json.dumps(VALID[0]))
    run(["check", path, "--claim", claim], capsys)


WORDS = ["measure", "check", "catalogue", "mechanisms", "witness", "symbolic", "--json", "--claim", "--bits",
         "--eps-m", "--full-support", "--k", "--piecewise", "zheng2025.thm12", "zheng2025.thm4", "krr", "rr-prior",
         "paper6", "1/10", "0", "-1", "1e400", "3", "100000", "eps_d <= 1", "--help", "--version", "--nope", "M", ""]


@FUZZ
@given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=6))
def test_random_command_lines(tmp_path_factory, capsys, monkeypatch, words):
    folder = tmp_path_factory.mktemp("cmd")
    (folder / "M").write_text(json.dumps(VALID[1]))
    monkeypatch.chdir(folder)
    before = snapshot(folder)
    run(words, capsys)
    assert snapshot(folder) == before


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(doc=mutated())
def test_mutated_mechanism_files_long(tmp_path_factory, capsys, doc):
    folder = tmp_path_factory.mktemp("fuzzlong")
    path = folder / "m.json"
    path.write_text(json.dumps(doc))
    run(["check", path, "--claim", "eps_d <= 1"], capsys)
