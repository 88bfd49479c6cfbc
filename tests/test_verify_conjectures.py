"""``relations verify --conjectures FILE``: a user's own relations verified with the catalogue.

The refuting witness is re-measured here and the conjecture evaluated in floats with room to spare,
independently of the tool's exact decision.
"""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

import relations

# about writes and tables, not proofs: verify skips its Coq check here (tests/test_coq_proofs.py covers it)
pytestmark = pytest.mark.usefixtures("no_coq_checks")

FILE = {"conjectures": [
    {"id": "mi_dp", "statement": "eps_m <= eps_d"},
    {"id": "quarter", "statement": "eps_m <= 0.25 * eps_d", "setting": "local"},
    {"id": "thm4", "statement": "eps_i <= eps_d + sigma_min", "setting": "local"},
]}


def _verify(tmp_path, *args):
    return run_cli("verify", "--quick", *args, cwd=tmp_path, timeout=900)  # in this process (tests/conftest.py)


def test_conjectures_are_decided_and_written(tmp_path):
    (tmp_path / "mine.json").write_text(json.dumps(FILE), encoding="utf-8")
    run = _verify(tmp_path, "--conjectures", "mine.json", "--no-catalogue", "--out", "ev", "--json")
    assert run.returncode == 1, run.stderr  # one of the user's conjectures is refuted
    out = json.loads(run.stdout)
    by_id = {c["id"]: c for c in out["conjectures"]}
    assert out["relations"] == []
    assert by_id["mi_dp"]["verdict"] == "proved"
    for cid in ("quarter", "thm4"):
        row = by_id[cid]
        assert row["verdict"] == "refuted"
        witness = relations.load(str(tmp_path / "ev" / row["witness_file"]))
        m = relations.measure(witness)
        eps_i, eps_d, eps_m, sigma = (float(m.eps_i.value), float(m.eps_d.value), float(m.eps_m.value),
                                      float(m.sigma_min.value))
        if cid == "quarter":
            assert eps_m > 0.25 * eps_d * (1 + 1e-6)
        else:
            assert eps_i > eps_d + sigma + 1e-6
    written = json.loads((tmp_path / "ev" / "conjectures.json").read_text(encoding="utf-8"))
    assert [c["id"] for c in written] == ["mi_dp", "quarter", "thm4"]
    assert not (tmp_path / "ev" / "verdicts.json").exists()  # --no-catalogue leaves the catalogue's evidence alone


def test_with_the_catalogue_and_file_policy(tmp_path):
    (tmp_path / "mine.json").write_text(json.dumps({"conjectures": FILE["conjectures"][:1]}), encoding="utf-8")
    run = _verify(tmp_path, "--conjectures", "mine.json", "--only", "zheng2025.thm3", "--out", "ev", "--format", "csv")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[1].startswith("zheng2025.thm3,") and lines[2].startswith("conjecture.mi_dp,")
    assert (tmp_path / "ev" / "verdicts.json").exists() and (tmp_path / "ev" / "conjectures.json").exists()
    # a conjectures.json the tool did not write is never replaced without --force
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "conjectures.json").write_text("mine\n", encoding="utf-8")
    run = _verify(tmp_path, "--conjectures", "mine.json", "--no-catalogue", "--out", "other")
    assert run.returncode == 2 and "conjectures.json" in run.stderr and "Traceback" not in run.stderr
    assert (tmp_path / "other" / "conjectures.json").read_text(encoding="utf-8") == "mine\n"


def test_conjectures_end_with_a_tally(tmp_path):
    """The last line counts the verdicts written to conjectures.json and names the folder, in 100 columns."""
    (tmp_path / "mine.json").write_text(json.dumps({"conjectures": FILE["conjectures"][1:]}), encoding="utf-8")
    run = _verify(tmp_path, "--conjectures", "mine.json", "--no-catalogue", "--out", "ev")
    assert run.returncode == 1, run.stderr  # refuted conjectures
    written = json.loads((tmp_path / "ev" / "conjectures.json").read_text(encoding="utf-8"))
    refuted = sum(c["verdict"] == "refuted" for c in written)
    assert refuted == len(written) == 2  # both are false (the witnesses are re-measured in the test above)
    lines = run.stdout.splitlines()
    assert lines[-1] == f"2 conjectures: {refuted} refuted; evidence in ev"
    assert max(map(len, lines)) <= 100


def test_bad_conjecture_file_is_one_line(tmp_path):
    (tmp_path / "bad.json").write_text('{"conjectures": [{"id": "x", "statement": "eps_m <="}]}', encoding="utf-8")
    run = _verify(tmp_path, "--conjectures", "bad.json", "--no-catalogue", "--out", "ev")
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "ev").exists()
