"""A refuted relation's evidence shows its witness mechanism, never a lemma variable as a channel entry.

The evidence used to read "z3 refuted the lemma at ... Q[x][y] = 161/128": a model of the lemma's
negation (reals, one above 1) printed as if it were a mechanism's entry. Now it shows the witness as its
file gives it (prior, rows) and the quantities that refute the relation on it; a lemma model, when shown,
is labelled as the lemma's variables under their own names. The values are recomputed here by hand from
the witness files (Fractions: ratios of ``p(x) Q[x][y]`` over neighbour pairs, ``0/0`` skipped).
"""

from __future__ import annotations

import itertools
import json
import math
import re
from fractions import Fraction
from pathlib import Path

import pytest

from relations.catalogue import get
from relations.pipeline._verify import Effort, verify_relation

ROOT = Path(__file__).resolve().parents[1]
PROOFS = ROOT / "proofs"
VERDICTS = json.loads((PROOFS / "verdicts.json").read_text(encoding="utf-8"))
REFUTED = [v for v in VERDICTS if v["verdict"] == "refuted"]
#: "name[...][...] = value" or "p(x) = value": a mechanism's entry named with a value.
ENTRY = re.compile(r"\b[QpW]\s*(\[[^\]]*\]|\([^)]*\))+\s*=")


@pytest.mark.parametrize("entry", REFUTED, ids=[v["id"] for v in REFUTED])
def test_evidence_shows_the_witness_and_no_lemma_variable_as_an_entry(entry):
    evidence = entry["evidence"]
    assert not ENTRY.search(evidence), evidence
    if "refuted the lemma" in evidence:
        assert "the lemma's variables (reals, not a mechanism's entries): p = " in evidence
    witness = json.loads((PROOFS / entry["witness_file"]).read_text(encoding="utf-8"))
    prior, channel = witness["prior"], witness["channel"]
    shown_prior = prior if isinstance(prior, str) else "(" + ", ".join(prior) + ")"
    assert f"has prior {shown_prior}," in evidence
    if isinstance(channel, dict):
        rows = "[" + ", ".join("[" + ", ".join(r) + "]" for r in channel["product"]) + "]"
        assert f"each record through {rows}" in evidence
    else:
        rows = "[" + ", ".join("[" + ", ".join(r) + "]" for r in channel) + "]"
        assert f"rows {rows}" in evidence


def _neighbours(witness) -> list[tuple[int, int]]:
    if witness["setting"] == "local":
        n = len(witness["prior"])
        return [(i, j) for i in range(n) for j in range(n) if i != j]
    k, r = len(witness["domain"]), witness["records"]
    datasets = list(itertools.product(range(k), repeat=r))  # row order of the file: lexicographic
    return [(i, j) for i, a in enumerate(datasets) for j, b in enumerate(datasets)
            if sum(u != v for u, v in zip(a, b)) == 1]


def _max_ratio(pairs) -> Fraction:
    return max((a / b for a, b in pairs if b > 0), default=Fraction(1))


@pytest.mark.parametrize("rid", ["zheng2025.thm2", "zheng2025.thm4"])
def test_identifiability_witness_values_by_hand(rid):
    """eps_i, eps_d, sigma_min of the witness file, by hand, are those the evidence states."""
    entry = next(v for v in VERDICTS if v["id"] == rid)
    witness = json.loads((PROOFS / entry["witness_file"]).read_text(encoding="utf-8"))
    p = [Fraction(x) for x in witness["prior"]]
    q = [[Fraction(x) for x in row] for row in witness["channel"]]
    pairs = _neighbours(witness)
    outputs = range(len(q[0]))
    eps_i = _max_ratio((p[i] * q[i][y], p[j] * q[j][y]) for i, j in pairs for y in outputs)
    eps_d = _max_ratio((q[i][y], q[j][y]) for i, j in pairs for y in outputs)
    sigma = min(p[i] / p[j] for i, j in pairs)  # every prior here is positive

    def ln(r: Fraction) -> str:
        return "0" if r == 1 else f"ln({r})"

    evidence = entry["evidence"]
    assert f"eps_d = {ln(eps_d)}, sigma_min = {ln(sigma)}, eps_i = {ln(eps_i)} > " in evidence
    assert eps_i > eps_d * sigma  # the refutation itself: eps_i > eps_d + sigma_min, in ratios


def test_a_fresh_refutation_renders_the_same_way():
    """verify (quick) on Theorem 4: the witness's prior and rows, and the lemma's model under its names."""
    v = verify_relation(get("zheng2025.thm4"), Effort.of(True))
    assert str(v.verdict) == "refuted"
    prior = "(" + ", ".join(str(x) for x in v.witness.prior.exact) + ")"
    rows = "[" + ", ".join("[" + ", ".join(str(x) for x in row) + "]" for row in v.witness.channel.exact) + "]"
    assert f"has prior {prior}, rows {rows}:" in v.evidence
    assert not ENTRY.search(v.evidence)
    assert "the lemma's variables (reals, not a mechanism's entries): p = " in v.evidence


@pytest.mark.usefixtures("no_coq_checks")
def test_a_degenerate_witness_comes_with_a_full_support_one_in_the_evidence(tmp_path, cli):
    """verify (quick) refutes Theorem 4 with an edge case (identical rows); its evidence also names the smallest
    witness of full support, distinct rows and finite values: in ``verdicts.json`` (``degenerate``,
    ``full_witness_file``, ``full_recheck``), as ``witnesses/zheng2025.thm4.full.json``, in the evidence sentence
    and in the table.  Re-checked here by hand in Fractions from the file: eps_i, eps_d, sigma_min, and the claim
    eps_i <= eps_d + sigma_min fails (in ratios: e^eps_i > e^eps_d e^sigma_min)."""
    out = cli("verify", "--quick", "--only", "zheng2025.thm4", "--out", str(tmp_path))
    assert out.returncode == 0, out.stderr  # a refuted catalogue relation is a finding, not a failure
    assert "witnesses/zheng2025.thm4.full.json" in out.stdout and "edge case" in out.stdout
    entry = next(v for v in json.loads((tmp_path / "verdicts.json").read_text(encoding="utf-8"))
                 if v["id"] == "zheng2025.thm4")
    assert entry["verdict"] == "refuted" and entry["degenerate"]
    main = json.loads((tmp_path / entry["witness_file"]).read_text(encoding="utf-8"))
    q0 = [[Fraction(x) for x in row] for row in main["channel"]]
    p0 = [Fraction(x) for x in main["prior"]]
    assert 0 in p0 or len({tuple(r) for r in q0}) < len(q0)  # the smallest is an edge case, as it says
    assert entry["full_witness_file"] == "witnesses/zheng2025.thm4.full.json"
    witness = json.loads((tmp_path / entry["full_witness_file"]).read_text(encoding="utf-8"))
    p = [Fraction(x) for x in witness["prior"]]
    q = [[Fraction(x) for x in row] for row in witness["channel"]]
    assert witness["setting"] == "local" and all(x > 0 for x in p) and all(x > 0 for row in q for x in row)
    assert len({tuple(r) for r in q}) == len(q)  # full support, distinct rows, positive entries: finite values
    pairs, outputs = _neighbours(witness), range(len(q[0]))
    eps_i = _max_ratio((p[i] * q[i][y], p[j] * q[j][y]) for i, j in pairs for y in outputs)
    eps_d = _max_ratio((q[i][y], q[j][y]) for i, j in pairs for y in outputs)
    sigma = min(p[i] / p[j] for i, j in pairs)
    assert eps_i > eps_d * sigma  # Theorem 4 fails on it
    recheck = entry["full_recheck"]
    assert recheck["status"] == "fails"
    assert recheck["conclusion"] == pytest.approx(math.log(eps_i))
    assert recheck["bound"] == pytest.approx(math.log(eps_d * sigma))

    def ln(r: Fraction) -> str:
        return "0" if r == 1 else f"ln({r})"

    rows = "[" + ", ".join("[" + ", ".join(str(x) for x in row) + "]" for row in q) + "]"
    assert (f"the smallest of full support, distinct rows and finite values found, re-checked exactly: the witness "
            f"(local, 2 inputs) has prior ({', '.join(map(str, p))}), rows {rows}: eps_d = {ln(eps_d)}, "
            f"sigma_min = {ln(sigma)}, eps_i = {ln(eps_i)} > ") in entry["evidence"]
