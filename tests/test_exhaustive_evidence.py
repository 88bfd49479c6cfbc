"""verify --exhaustive DIR: a finished bounded-exhaustive sweep becomes evidence (or a refutation)."""

from __future__ import annotations

import json
import os
from fractions import Fraction

import pytest

pytest.importorskip("pyarrow")

from conftest import run_cli  # noqa: E402

from relations import check, load  # noqa: E402
from relations.app._sweep import run_sweep  # noqa: E402
from relations.errors import InputError  # noqa: E402
from relations.io._sweep_evidence import read_family_evidence  # noqa: E402

# about writes and tables, not proofs: verify skips its Coq check here (tests/test_coq_proofs.py covers it)
pytestmark = pytest.mark.usefixtures("no_coq_checks")

FAMILY = {"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 2},
          "relations": ["zheng2025.thm4", "relations.thm4_corrected", "zheng2025.thm1"]}


def _members() -> int:
    values = {Fraction(a, b) for b in (1, 2) for a in range(b + 1)}  # 0, 1/2, 1: a prior and two rows
    return len(values) ** 3


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep") / "family"
    run_sweep(FAMILY, out=str(out), chunk_size=5, workers=0)
    return out


def test_the_evidence_per_relation(swept):
    found = read_family_evidence(str(swept))
    assert sorted(found) == sorted(FAMILY["relations"])
    (corrected,) = found["relations.thm4_corrected"]
    assert corrected.holds and corrected.mechanisms == _members() and corrected.counterexample is None
    (thm4,) = found["zheng2025.thm4"]
    assert not thm4.holds and "first counterexample" in thm4.outcome
    outcomes = {o.relation.id: str(o.status) for o in check(thm4.counterexample).outcomes}
    assert outcomes["zheng2025.thm4"] == "fails"
    (central,) = found["zheng2025.thm1"]  # a central relation on local mechanisms: no evidence
    assert not central.holds and central.counterexample is None


def test_verify_uses_it(swept, tmp_path):
    out = tmp_path / "ev"
    res = run_cli("verify", "--quick", "--only", "zheng2025.thm4", "--only", "relations.thm4_corrected",
                  "--exhaustive", str(swept), "--out", str(out), "--json", timeout=300)
    assert res.returncode == 0, res.stderr
    got = {v["id"]: v for v in json.loads(res.stdout)["relations"]}
    thm4 = got["zheng2025.thm4"]
    assert thm4["verdict"] == "refuted" and "bounded-exhaustive sweep" in thm4["evidence"]
    witness = load(os.path.join(out, "witnesses", "zheng2025.thm4.json"))
    assert {o.relation.id: str(o.status) for o in check(witness).outcomes}["zheng2025.thm4"] == "fails"
    corrected = got["relations.thm4_corrected"]
    assert corrected["verdict"] == "proved"
    assert any(b.startswith("every 2 x 2 mechanism with denominators <= 2: holds (" + str(_members()))
               for b in corrected["bounded"])


def test_unfinished_grid_or_edited_sweeps_are_refused(swept, tmp_path):
    import shutil

    partial = tmp_path / "partial"
    shutil.copytree(swept, partial)
    os.unlink(partial / "chunks" / "00001.parquet")
    with pytest.raises(InputError, match=f"{_members() - 5} of {_members()} points are done"):
        read_family_evidence(str(partial))
    edited = tmp_path / "edited"
    shutil.copytree(swept, edited)
    meta = json.loads((edited / "sweep.json").read_text())
    meta["spec"]["relations"] = ["zheng2025.thm3"]
    (edited / "sweep.json").write_text(json.dumps(meta))
    with pytest.raises(InputError, match="was edited"):
        read_family_evidence(str(edited))
    grid = tmp_path / "grid"
    run_sweep({"mechanism": "krr", "k": [2], "ratio": ["2"], "relations": ["zheng2025.thm3"]}, out=str(grid),
              workers=0)
    with pytest.raises(InputError, match="grid sweep"):
        read_family_evidence(str(grid))
    res = run_cli("verify", "--quick", "--only", "zheng2025.thm3", "--exhaustive", str(tmp_path / "nothing"),
                  "--out", str(tmp_path / "ev"))
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "not the folder of a relations sweep" in res.stderr
    assert not (tmp_path / "ev").exists()
