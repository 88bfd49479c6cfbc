"""Results are unchanged by refactoring: every output of ``tests/golden/record.py`` is recomputed
and must equal the recorded one (the record was made before the package was reorganised).

Exact fields (verdicts, exact forms such as ``ln(13/7)``, enclosures as text, labels, witnesses) are
compared exactly; float fields within :data:`FLOAT_REL` relative (and :data:`FLOAT_ABS` absolute), so that
a record made on one machine holds on another whose floats differ in the last bits.  No label in the
outputs is chosen by floats (``docs/claims-and-verdicts.md``, "Ties and float noise"), so labels are exact
fields."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))
import record  # noqa: E402

EXPECTED = json.loads(record.EXPECTED.read_text(encoding="utf-8"))


#: The stated tolerance of float fields: relative, and absolute near zero.
FLOAT_REL, FLOAT_ABS = 1e-9, 1e-12


def _floats_apart(value, path="", floats=None):
    """``(value with every float replaced by "<float>", {path: float})``."""
    floats = {} if floats is None else floats
    if isinstance(value, dict):
        return {k: _floats_apart(v, f"{path}/{k}", floats)[0] for k, v in value.items()}, floats
    if isinstance(value, list):
        return [_floats_apart(v, f"{path}/{i}", floats)[0] for i, v in enumerate(value)], floats
    if isinstance(value, float):
        floats[path] = value
        return "<float>", floats
    return value, floats


def assert_same(got, want):
    """Exact fields equal, float fields within the stated tolerance."""
    got_exact, got_floats = _floats_apart(got)
    want_exact, want_floats = _floats_apart(want)
    assert got_exact == want_exact
    for key, value in want_floats.items():
        assert got_floats[key] == pytest.approx(value, rel=FLOAT_REL, abs=FLOAT_ABS, nan_ok=True), key


def test_assert_same_can_fail():
    assert_same({"a": [1.0, "x"]}, {"a": [1.0 + 1e-12, "x"]})
    with pytest.raises(AssertionError):
        assert_same({"a": [1.0, "x"]}, {"a": [1.0 + 1e-6, "x"]})
    with pytest.raises(AssertionError):
        assert_same({"a": [1.0, "x"]}, {"a": [1.0, "y"]})


def _normal(value):
    """JSON round trip: tuples become lists, as in the stored record."""
    return json.loads(json.dumps(value, sort_keys=True))


def _without_additions(value):
    """Drop what was added to the outputs after the record: ``rounding`` (None for exact
    input), each claim's ``status`` (which must agree with ``holds``), each relation's proved
    ``scope`` (a dict with its name and text) and the catalogue's composition theorems (``kind``
    ``"composition"`` with a ``rule``, listed after the relations)."""
    if isinstance(value, dict):
        if "status" in value and "claim" in value:
            assert value["status"] == {True: "holds", False: "fails", None: "undecided"}[value["holds"]]
        return {k: _without_additions(v) for k, v in value.items()
                if not (k == "rounding" and v is None) and not (k == "status" and "claim" in value)
                and not (k == "scope" and isinstance(v, dict) and set(v) == {"name", "text"})}
    if isinstance(value, list):
        return [_without_additions(v) for v in value
                if not (isinstance(v, dict) and v.get("kind") == "composition" and "rule" in v)]
    return value


def _values(value, path=""):
    """Every float ``value`` field, by its path (for float-mode records)."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            out.update(_values(v, f"{path}/{k}"))
        return out
    if isinstance(value, list):
        out = {}
        for i, v in enumerate(value):
            out.update(_values(v, f"{path}/{i}"))
        return out
    return {path: value} if path.endswith("/value") and isinstance(value, float) else {}


@pytest.mark.parametrize("path", record.inputs(), ids=lambda p: p.name)
def test_measure_and_check_unchanged(path):
    rel = str(path.relative_to(record.ROOT))
    measured = _without_additions(_normal(record.run("measure", str(path), "--json")))
    args = ["check", str(path), "--json"]
    for c in record.CLAIMS:
        args += ["--claim", c]
    checked = _without_additions(_normal(record.run(*args)))
    if path.suffix == ".npz":
        # recorded in float mode; small float arrays are now taken exactly (their binary
        # values), so the values agree to float accuracy and the exact forms are new
        assert measured[1]["mode"] == "exact" and EXPECTED[f"measure {rel}"][1]["mode"] == "float"
        for new, old in ((measured, EXPECTED[f"measure {rel}"]), (checked, EXPECTED[f"check {rel}"])):
            assert new[0] == old[0]  # exit status
            got, want = _values(new), _values(old)
            assert got.keys() == want.keys()
            for key in want:
                assert got[key] == pytest.approx(want[key], rel=1e-9, abs=1e-12), key
        return
    assert_same(measured, EXPECTED[f"measure {rel}"])
    assert_same(checked, EXPECTED[f"check {rel}"])


def test_catalogue_and_witnesses_unchanged():
    assert_same(_without_additions(_normal(record.run("catalogue", "--json"))), EXPECTED["catalogue"])
    assert _normal(record._text("witness", "zheng2025.thm12", "--eps-m", "1/1000")) == EXPECTED["witness thm12"]
    assert _normal(record._text("witness", "zheng2025.thm6", "--full-support", "100")) == EXPECTED["witness thm6 full"]


def test_verify_quick_unchanged(verify_quick):
    """The run of ``verify --quick --json`` the session shares (tests/conftest.py), with what
    :func:`record.record_verify` removes (timings, the output folder) removed."""
    code, data, _ = verify_quick
    data = copy.deepcopy(data)
    data.pop("out", None)
    for rel in data["relations"]:
        rel.pop("seconds", None)
    assert_same(_normal((code, data)), _normal(EXPECTED["verify --quick"]))
