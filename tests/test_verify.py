"""Tests of the explorers and of ``relations verify``.

Deliberately false claims are defined here (a ratio claim with the wrong sign
of a constant, MI claims with too small a factor); each engine must find a
counterexample that the exact checker confirms.  True claims must survive a
bounded search.  Verdicts of the paper's theorems are never asserted: the
tests check that whatever ``verify`` reports is backed by evidence that
re-checks.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from conftest import run_cli

import relations
from relations.catalogue import CATALOGUE, Linear, Relation, get
from relations.checking import evaluate, values
from relations.pipeline._verify import Effort, verify_relation
from relations.proofs import _smt as smt
from relations.proofs._coq import COQ_ONLY, COQ_PROOFS, check_theorem
from relations.proofs._derive import derive, lemma_facts
from relations.search import DenseFamily, search_dense, search_rr
from relations.search._witnesses import mi_witness


@pytest.fixture(autouse=True)
def _mp_precision():
    """This module's mpmath precision, restored afterwards (no leaking into other modules)."""
    with mpmath.workdps(50):
        yield


QUICK = Effort.of(True)


def rel(id_, setting, premise, conclusion, bound) -> Relation:
    return Relation(id_, id_, "test claim", setting, premise, conclusion, "implication", "test", bound)


# Deliberately false: the sign of sigma_min flipped (ID -> DP with + sigma_min).
WRONG_SIGN = rel("test.wrong_sign", "local", "eps_i", "eps_d", Linear(1, 1))
# Deliberately false: a ratio claim with a constant too small (eps_i <= eps_d, ignoring the prior).
NO_PRIOR = rel("test.no_prior", "local", "eps_d", "eps_i", Linear(1))
# Deliberately false: MI with too small a factor, locally (I <= eps_d / 10) and centrally (I <= eps_d, not r eps_d).
MI_TENTH = rel("test.mi_tenth", "local", "eps_d", "eps_m", Linear(Fraction(1, 10)))
MI_CENTRAL = rel("test.mi_central", "central", "eps_d", "eps_m", Linear(1))
# True claims (with hand proofs): DP -> ID with the prior's skew; local I <= eps_d.
TRUE_RATIO = rel("test.true_ratio", "local", "eps_d", "eps_i", Linear(1, -1))
TRUE_MI = rel("test.true_mi", "local", "eps_d", "eps_m", Linear(1))


def mpf(v) -> mpmath.mpf:
    v = Fraction(v)
    return mpmath.mpf(v.numerator) / v.denominator


def fails_exactly(relation: Relation, mech) -> bool:
    return evaluate(relation, values(mech)).status == "fails"


def independent_failure(relation: Relation, mech) -> bool:
    """Re-derive the failure of a local linear relation from brute force in Fractions / mpmath."""
    p, q = mech.prior.exact, mech.channel.exact
    n, m = len(p), len(q[0])

    def max_ratio(num):
        best = None  # a Fraction, or "inf"
        for x in range(n):
            for xp in range(n):
                if x == xp:
                    continue
                for y in range(m):
                    a, b = num(x, y), num(xp, y)
                    if a == 0 and b == 0:
                        continue
                    r = "inf" if b == 0 else a / b
                    if best is None or r == "inf" or (best != "inf" and r > best):
                        best = r
        return best

    d = max_ratio(lambda x, y: q[x][y])
    i = max_ratio(lambda x, y: p[x] * q[x][y])
    s = min(p[x] / p[xp] for x in range(n) for xp in range(n) if x != xp and p[xp] > 0)
    py = [sum(p[x] * q[x][y] for x in range(n)) for y in range(m)]
    mi = mpmath.fsum(mpf(p[x] * q[x][y]) * mpmath.log(mpf(q[x][y]) / mpf(py[y]))
                     for x in range(n) for y in range(m) if p[x] * q[x][y] > 0)
    ln = lambda v: mpmath.inf if v == "inf" else mpmath.log(mpf(v))  # noqa: E731
    val = {"eps_d": ln(d), "eps_i": ln(i), "eps_m": mi}
    b = relation.bound
    if val[relation.premise] == mpmath.inf:
        return False
    bound = mpf(b.ca) * val[relation.premise]
    if b.cs:
        bound += b.cs * ln(s)
    return val[relation.conclusion] > bound


# --------------------------------------------------------------------------- engines on false claims


@pytest.mark.parametrize("false_claim", [WRONG_SIGN, NO_PRIOR])
def test_smt_bounded_search_finds_ratio_counterexample(false_claim):
    res = smt.bounded_search(false_claim, smt.Shape("local", 2, 2))
    assert res.status == "sat"
    mech = relations.from_dict({"setting": "local", "prior": [str(v) for v in res.prior],
                                "channel": [[str(v) for v in r] for r in res.channel]})
    assert fails_exactly(false_claim, mech)
    assert independent_failure(false_claim, mech)


@pytest.mark.parametrize("false_claim", [WRONG_SIGN, NO_PRIOR, MI_TENTH])
def test_hypothesis_engine_finds_counterexample(false_claim):
    from relations.pipeline._verify import _hypothesis_search

    mech = _hypothesis_search(false_claim, "local", Effort(hypothesis_examples=300))
    assert mech is not None
    assert fails_exactly(false_claim, mech)
    assert independent_failure(false_claim, mech)


@pytest.mark.parametrize("false_claim", [WRONG_SIGN, MI_TENTH])
def test_optimiser_finds_counterexample(false_claim):
    found = search_dense(false_claim, DenseFamily(2, 2), 4, np.random.default_rng(1))
    assert found.best_violation > 0
    confirmed = [m for m in found.candidates if fails_exactly(false_claim, m)]
    assert confirmed and independent_failure(false_claim, confirmed[0])


@pytest.mark.parametrize(("k", "guess"), [(2, 2.0), (16, 7.0)])  # refined by grids; by a golden-section search
@pytest.mark.parametrize("around", [(0.4, 0.6), (1.2, 0.8)])
def test_k_rr_refinement_finds_the_maximiser(k, guess, around):
    """search_rr's refinement (_refine) finds the largest violation of I <= eps_d / 5 on k-RR with a uniform
    prior in a bracket around it: I = ln k - H(row), the row (t, 1, ..., 1) / (t + k - 1), eps_d = ln t,
    maximised in x = ln t here with mpmath (the derivative's root), to 1e-6 in x (the refinement's tolerance)."""
    from relations.search._optimiser import _refine

    claim = rel("test.mi_fifth", "local", "eps_d", "eps_m", Linear(Fraction(1, 5)))

    def excess(x):
        t = mpmath.e**x
        top, rest = t / (t + k - 1), 1 / (t + k - 1)
        return mpmath.log(k) + top * mpmath.log(top) + (k - 1) * rest * mpmath.log(rest) - x / 5

    top = mpmath.findroot(lambda x: mpmath.diff(excess, x), guess)
    assert mpmath.diff(excess, top, 2) < 0  # a maximum
    x, v = _refine(claim, k, 1, 0.0, False, float(top) - around[0], float(top) + around[1])
    assert abs(x - top) < 1e-6
    assert abs(v - excess(top)) < 1e-12


def test_structured_family_finds_central_mi_counterexample():
    found = search_rr(MI_CENTRAL, central=True, quick=True)
    confirmed = [m for m in found.candidates if fails_exactly(MI_CENTRAL, m)]
    assert confirmed
    mech = confirmed[0]
    # Independent check on the product form: I = r * I_local (computed here with mpmath), eps_d = eps_d(W).
    w = mech.channel.local.exact
    k, r = len(w), mech.channel.records
    i_local = mpmath.fsum(mpf(w[x][y]) / k * mpmath.log(mpf(w[x][y] * k / sum(w[z][y] for z in range(k))))
                          for x in range(k) for y in range(k))
    eps = max(mpmath.log(mpf(w[x][y] / w[xp][y])) for x in range(k) for xp in range(k) for y in range(k))
    assert r * i_local > eps


def test_verify_refutes_false_claims_with_rechecking_witnesses():
    for false_claim in (WRONG_SIGN, NO_PRIOR, MI_TENTH, MI_CENTRAL):
        v = verify_relation(false_claim, QUICK)
        assert v.verdict == "refuted", false_claim.id
        assert fails_exactly(false_claim, v.witness)


# --------------------------------------------------------------------------- true claims survive


@pytest.mark.parametrize("shape", [smt.Shape("local", 2, 2), smt.Shape("local", 3, 3),
                                   smt.Shape("local", 4, 2)])
def test_true_ratio_claim_has_no_bounded_counterexample(shape):
    assert smt.bounded_search(TRUE_RATIO, shape).status == "unsat"


def test_true_claims_survive_search():
    from relations.pipeline._verify import _hypothesis_search

    for true_claim in (TRUE_RATIO, TRUE_MI):
        assert _hypothesis_search(true_claim, "local", QUICK) is None
        found = search_dense(true_claim, DenseFamily(3, 3), 2, np.random.default_rng(2), 150)
        assert not any(fails_exactly(true_claim, m) for m in found.candidates)
        assert found.best_violation <= 1e-9
    v = verify_relation(TRUE_RATIO, QUICK)
    assert v.verdict in ("proved", "holds-bounded")
    # TRUE_MI has no lemma of its own; it may only be 'proved' through a z3 derivation from proved relations.
    v = verify_relation(TRUE_MI, QUICK)
    assert v.verdict == ("proved" if derive(TRUE_MI) is not None else "unrefuted")


def test_derivation_accepts_consequences_and_rejects_false_claims():
    assert derive(TRUE_MI) is not None  # I <= eps_all (density lemma) and eps_all <= 1 * eps_d locally (group)
    for false_claim in (MI_TENTH, MI_CENTRAL, WRONG_SIGN, NO_PRIOR):
        assert derive(false_claim) is None
    # Without the density fact nothing about eps_m follows.
    facts = tuple(r for r in lemma_facts() if r.conclusion != "eps_m")
    assert derive(TRUE_MI, facts) is None


# --------------------------------------------------------------------------- the z3 proof path


def test_proof_path_rejects_false_lemmas_and_accepts_true_ones():
    for false_claim in (WRONG_SIGN, NO_PRIOR):
        lemma = smt.lemma_for(false_claim)
        assert lemma is not None
        assert smt.prove(lemma).status == "refuted"
    assert smt.prove(smt.lemma_for(TRUE_RATIO)).status == "proved"
    assert smt.lemma_for(TRUE_MI) is None  # no lemma shape for MI: never 'proved' by this path


def test_bounded_search_scales_with_diameter_in_central_shapes():
    # eps_all <= 1 * eps_d is false on D^2 (pairs at distance 2); with the diameter factor it holds.
    short = rel("test.group_short", "central", "eps_d", "eps_all", Linear(1))
    assert smt.bounded_search(short, smt.Shape("central", 4, 2, 2, 2)).status == "sat"
    right = rel("test.group", "central", "eps_d", "eps_all", Linear(1, 0, True))
    assert smt.bounded_search(right, smt.Shape("central", 4, 2, 2, 2)).status == "unsat"


# --------------------------------------------------------------------------- non-implication witnesses


@pytest.mark.parametrize("setting", ["local", "central"])
@pytest.mark.parametrize("eps_m", [Fraction(1, 10), Fraction(1, 1000)])
def test_mi_witness_for_any_eps_m(setting, eps_m):
    mech = mi_witness(setting, eps_m)
    m = relations.measure(mech)
    assert m.eps_m.enclosure.upper <= eps_m
    assert m.eps_d.value == math.inf and m.eps_i.value == math.inf
    # The MI of the paper's construction is the binary entropy of beta (computed here independently).
    beta = mech.prior.exact[0]
    h = -(mpf(beta) * mpmath.log(mpf(beta)) + mpf(1 - beta) * mpmath.log(mpf(1 - beta)))
    assert m.eps_m.enclosure.lower <= Fraction(str(mpmath.nstr(h, 45))) + Fraction(1, 10**40)
    assert m.eps_m.enclosure.upper >= Fraction(str(mpmath.nstr(h, 45))) - Fraction(1, 10**40)


@pytest.mark.parametrize("setting", ["local", "central"])
def test_full_support_witness_has_large_finite_eps_d(setting):
    mech = mi_witness(setting, Fraction(1, 100), Fraction(1000))
    assert all(v > 0 for row in (mech.channel.local.exact if mech.is_product else mech.channel.exact) for v in row)
    m = relations.measure(mech)
    assert m.eps_m.enclosure.upper <= Fraction(1, 100)
    assert math.log(1000) <= m.eps_d.value < math.inf


# --------------------------------------------------------------------------- verify's own evidence re-checks


@pytest.fixture(scope="module")
def decided(verify_quick) -> dict[str, dict]:
    """The verdicts of the session's ``verify --quick --json`` of the catalogue (tests/conftest.py), by id."""
    code, data, _ = verify_quick
    assert code in (0, 1) and [r["id"] for r in data["relations"]] == [r.id for r in CATALOGUE]
    return {r["id"]: r for r in data["relations"]}


@pytest.fixture(scope="module")
def rechecked(verify_quick) -> dict[str, tuple[int, str]]:
    """Every witness file of that run re-checked by ``relations check FILE --json`` (in this process: the
    command reads the file, and nothing of the run that wrote it), by relation id: exit status and output."""
    _, data, folder = verify_quick
    files = {r["id"]: str(folder / r["witness_file"]) for r in data["relations"] if r["witness_file"]}
    assert files
    found = {rid: run_cli("check", path, "--json") for rid, path in files.items()}
    return {rid: (out.returncode, out.stdout if out.returncode in (0, 1) else out.stderr) for rid, out in found.items()}


@pytest.mark.parametrize("relation", CATALOGUE, ids=lambda r: r.id)
def test_every_verdict_is_backed_by_evidence(relation, decided, rechecked):
    """Each verdict of ``verify --quick --json`` (the command's own run, shared by the session) re-checks: its
    witness by the exact checker and by ``relations check`` on its file, a proof by its prover again."""
    v = decided[relation.id]
    witness = None if v["witness"] is None else relations.from_dict(v["witness"])
    assert v["verdict"] in ("refuted", "proved", "holds-bounded", "unrefuted")
    if v["verdict"] == "refuted":
        assert witness is not None and fails_exactly(relation, witness)
    if v["verdict"] == "proved":
        if relation.kind == "non-implication":
            assert evaluate(relation, values(witness)).status == "witness"
        else:
            lemma = smt.lemma_for(relation)
            if lemma is not None:
                assert smt.prove(lemma).status == "proved"
            elif relation.id in COQ_ONLY:  # the Coq theorem compiled, with its statement, in this process
                assert check_theorem(COQ_PROOFS[relation.id]).status == "checked" and v["coq"] in v["evidence"]
            else:
                assert derive(relation) is not None
    if v["verdict"] == "holds-bounded":
        assert v["bounded"] and all(smt.bounded_search(relation, _shape(s)).status == "unsat"
                                    for s in v["bounded"][:1])
    if v["verdict"] == "unrefuted":
        assert v["searched"]  # a record of what was searched
    if v["verdict"] != "refuted" and v["tightness"] is not None:
        assert v["tightness"] <= 1 + 1e-9  # a standing relation cannot have conclusion > bound anywhere found
    assert (witness is not None) == (relation.id in rechecked)
    if witness is not None:
        code, text = rechecked[relation.id]
        assert code == 0, text
        status = {r["id"]: r["status"] for r in json.loads(text)["relations"]}
        assert status[relation.id] == ("fails" if v["verdict"] == "refuted" else "witness")


#: One relation of each kind of verdict and route: refuted (a witness), proved by z3, proved by Coq only,
#: a non-implication proved by its witness family, unrefuted.
_ALONE = ("zheng2025.thm4", "zheng2025.thm3", "zheng2025.eq17", "zheng2025.thm12", "iwk2020.mel_ml")
#: What only the command adds to a verdict: its files in the evidence folder, and the time it took.
_COMMAND_ONLY = ("witness_file", "proof_file", "family_file", "full_witness_file", "seconds")


@pytest.mark.parametrize("rid", [*_ALONE, *(pytest.param(r.id, marks=pytest.mark.slow)
                                           for r in CATALOGUE if r.id not in _ALONE)])
def test_a_relation_verified_alone_gets_the_verdict_of_the_whole_run(rid, decided):
    """The command's batched run (``verify_all``) gives each relation the verdict, evidence and witness that
    :func:`verify_relation` gives it alone: a few relations here, every one with ``-m slow``."""
    from relations.io._reports import verdict_json

    alone = verdict_json(verify_relation(get(rid), QUICK))
    assert json.loads(json.dumps({k: x for k, x in alone.items() if k not in _COMMAND_ONLY})) == \
        {k: x for k, x in decided[rid].items() if k not in _COMMAND_ONLY}


def _shape(text: str) -> smt.Shape:
    for shapes in (smt.Shape("local", n, m) for n in (2, 3, 4) for m in (2, 3)), \
            (smt.Shape("central", 4, m, 2, 2) for m in (2, 3)):
        for s in shapes:
            if str(s) == text:
                return s
    raise AssertionError(text)


def test_verify_cli_is_deterministic_and_writes_evidence(tmp_path):
    """Two runs, the first in this process and the second in a new one (another interpreter, another hash
    seed, no state of this process), give the same JSON and byte-identical folders."""
    args = ["verify", "--quick", "--json", "--only", "zheng2025.thm4", "--only", "zheng2025.thm12", "--out"]
    runs = []
    for i in range(2):
        out = run_cli(*args, str(tmp_path / f"run{i}"), process=i == 1)
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        assert data.pop("out") == str(tmp_path / f"run{i}")
        for item in data["relations"]:
            item.pop("seconds")
            for key in ("witness_file", "proof_file", "family_file"):  # relative to the folder
                assert item[key] is None or (tmp_path / f"run{i}" / item[key]).is_file()
        runs.append(data)
    assert runs[0] == runs[1]
    assert (tmp_path / "run0" / "verdicts.json").exists()
    assert (tmp_path / "run0" / "families" / "zheng2025.thm12.py").exists()
    assert {r["id"] for r in runs[0]["relations"]} == {"zheng2025.thm4", "zheng2025.thm12"}
    # the two folders are byte-identical: no absolute path, no timing
    files = sorted(p.relative_to(tmp_path / "run0") for p in (tmp_path / "run0").rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "run1") for p in (tmp_path / "run1").rglob("*") if p.is_file())
    for name in files:
        assert (tmp_path / "run0" / name).read_bytes() == (tmp_path / "run1" / name).read_bytes(), name
    # a moved folder still re-checks: its witness, named relative to the folder
    moved = tmp_path / "elsewhere"
    (tmp_path / "run0").rename(moved)
    verdicts = json.loads((moved / "verdicts.json").read_text())
    witness = next(v["witness_file"] for v in verdicts if v["id"] == "zheng2025.thm4")
    out = run_cli("check", str(moved / witness), "--json")
    assert out.returncode == 0, out.stderr
    assert any(o["id"] == "zheng2025.thm4" and o["status"] == "fails" for o in json.loads(out.stdout)["relations"])


def test_verify_cli_rejects_unknown_id():
    out = run_cli("verify", "--only", "nope")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_paper_theorem_thm9_needs_more_than_two_records():
    # Hand argument: for D^2, I <= eps_all <= 2 eps_d, so no D^2 mechanism can refute thm9; any refuting
    # witness verify reports must therefore have r >= 3.
    v = verify_relation(get("zheng2025.thm9"), QUICK)
    if v.verdict == "refuted":
        assert v.witness.inputs.records >= 3


def _key(m):
    return str(m.setting), getattr(m.channel, "exact", None), getattr(m.prior, "exact", None), repr(m.inputs)


def test_hypothesis_examples_are_drawn_once_and_match_hypothesis_own_search():
    """The cached examples are those hypothesis draws for any relation (derandomized, outcome-independent
    until a hit): recording them through a second, independent find() gives the same list, and a relation
    refuted by one of them is refuted by hypothesis's own search from the same first example."""
    from hypothesis import find
    from hypothesis.errors import NoSuchExample

    from relations.search._screening import _no_local_constants, _settings, generated, hypothesis_search, refutes
    from relations.search.strategies import mechanisms

    cached = generated("local", 30)
    seen = []

    def record(m):
        seen.append(m)
        return False

    with pytest.raises(NoSuchExample), _no_local_constants():  # as the tool draws (see the next test)
        find(mechanisms("local"), record, settings=_settings(30))
    assert [_key(m) for m in seen] == [_key(m) for m in cached] and len(cached) == 30
    rel = get("zheng2025.thm4")
    first = next(i for i, m in enumerate(cached) if refutes(rel)(m))
    direct = []

    def until_hit(m):
        direct.append(m)
        return refutes(rel)(m)

    with _no_local_constants():
        find(mechanisms("local"), until_hit, settings=_settings(30))
    assert [_key(m) for m in direct[: first + 1]] == [_key(m) for m in cached[: first + 1]]
    assert hypothesis_search(rel, "local", Effort(hypothesis_examples=30)) is not None


def test_the_draws_do_not_depend_on_the_modules_loaded(tmp_path, monkeypatch):
    """hypothesis mixes into its draws the constants of the "local" modules loaded in the process (outside
    site-packages: this package run from a checkout, a user's own modules): the tool's draws must not see them,
    or the evidence would depend on the installation and on what was imported before (a wheel and a checkout
    gave different evidence).  A module full of integer constants, loaded between two draws, changes nothing."""
    import importlib
    import sys

    from relations.search import _screening

    before = [_key(m) for m in _screening._draw("local", 30)]
    (tmp_path / "lots_of_constants.py").write_text(
        "VALUES = (" + ", ".join(str(7 * i + 3) for i in range(400)) + ")\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("lots_of_constants")
    try:
        after = [_key(m) for m in _screening._draw("local", 30)]
    finally:
        sys.modules.pop("lots_of_constants", None)
    assert after == before


TALLY_IDS = ("zheng2025.thm4", "zheng2025.thm3", "zheng2025.thm12", "iwk2020.mel_ml")


def _verify_cli(*args, columns: str | None = None):
    import os

    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    if columns is not None:
        env["COLUMNS"] = columns
    return run_cli("verify", "--quick", *[a for i in TALLY_IDS for a in ("--only", i)], *args, env=env)


def _counted(rows) -> str:
    """The tally of ``rows`` (dicts with a "verdict"), written out here by hand from their verdicts."""
    order = ["proved", "refuted", "holds-bounded", "unrefuted"]
    found = [r["verdict"] for r in rows]
    assert set(found) <= set(order)
    return ", ".join(f"{found.count(name)} {name}" for name in sorted(set(found), key=order.index))


@pytest.mark.usefixtures("no_coq_checks")  # a table test: verify skips its Coq check
@pytest.mark.parametrize("columns", [pytest.param("100", marks=pytest.mark.slow), None,  # one verify run each:
                                     pytest.param("200", marks=pytest.mark.slow)])    # a pipe by default
def test_verify_ends_with_a_tally_and_fits_100_columns(tmp_path, columns):
    """The last line counts the verdicts of verdicts.json and names the folder; no line is over 100 columns,
    whether COLUMNS says 100, nothing (a pipe) or 200."""
    folder = str(tmp_path / "e")
    out = _verify_cli("--out", folder, columns=columns)
    assert out.returncode == 0, out.stderr
    rows = json.loads((tmp_path / "e" / "verdicts.json").read_text(encoding="utf-8"))
    assert sorted(r["id"] for r in rows) == sorted(TALLY_IDS)
    lines = out.stdout.splitlines()
    line = f"{len(rows)} relations: {_counted(rows)}; evidence in {folder}"
    if len(line) <= 100:
        assert lines[-1] == line
    else:  # a long folder (pytest's) goes on a line of its own, whole
        assert lines[-2:] == [line[: line.index(" evidence in")], f"evidence in {folder}"]
    assert max(len(line) for line in lines) <= 100
    header = next(line for line in lines if "verdict" in line)
    assert "id / statement" in header and "tightness" not in header  # the compact table
    assert "witnesses/zheng2025.thm4.json" in out.stdout  # the refuting witness's file, relative to the folder


@pytest.mark.usefixtures("no_coq_checks")  # a table test: verify skips its Coq check
def test_verify_wide_is_the_full_table(tmp_path):
    out = _verify_cli("--out", str(tmp_path / "e"), "--wide")
    assert out.returncode == 0, out.stderr
    header = next(line for line in out.stdout.splitlines() if "verdict" in line)
    assert all(col in header for col in ("id", "statement", "verdict", "evidence", "tightness"))
    assert max(len(line) for line in out.stdout.splitlines()) > 100  # 140 columns when piped
    assert "best found" in out.stdout  # the tightness column's content


def test_verify_table_in_a_wide_terminal_keeps_100_columns(tmp_path):
    """A console of 200 columns: the compact table is 100 wide at most; --wide uses the 200."""
    import io

    from rich.console import Console

    from relations.app import run_verify
    from relations.catalogue import get

    widths = {}
    for wide in (False, True):
        buffer = io.StringIO()
        console = Console(file=buffer, width=200, force_terminal=True, color_system=None)
        assert run_verify([get("zheng2025.thm4")], out=str(tmp_path / f"e{wide}"), quick=True, console=console,
                          wide=wide) == 0
        widths[wide] = max(len(line) for line in buffer.getvalue().splitlines())
    assert widths[False] <= 100 < widths[True] <= 200


def test_tally_counts_conjectures_and_breaks_only_before_the_folder():
    from types import SimpleNamespace as V

    from relations.io._tables import tally

    rows = [{"verdict": "refuted"}, {"verdict": "proved"}, {"verdict": "refuted"}]
    assert tally([V(verdict="unrefuted")], conjectures=rows, folder="ev") == (
        "1 relation: 1 unrefuted; 3 conjectures: " + _counted(rows) + "; evidence in ev")
    assert tally([], conjectures=rows) == "3 conjectures: " + _counted(rows)


def test_relations_of_one_statement_share_their_k_rr_search():
    """verify_all searches the k-RR families once per statement: zheng2025.thm3 (local) and suntay2020.thm1xiv
    (both settings) both state eps_d <= eps_i - sigma_min, and the second gets the first's search, which is
    what its own search finds."""
    from relations.pipeline._verify import _Search

    first, second = get("zheng2025.thm3"), get("suntay2020.thm1xiv")
    assert (first.premise, first.conclusion, first.bound) == (second.premise, second.conclusion, second.bound)
    kept: dict = {}
    found = _Search(first, Effort.of(True), 2025, rr=kept)._rr(False)
    assert _Search(second, Effort.of(True), 2025, rr=kept)._rr(False) is found
    own = search_rr(second, central=False, quick=True)
    assert [m.to_dict() for m in own.candidates] == [m.to_dict() for m in found.candidates]
    assert (own.best_ratio, own.ratio_family, own.searched) == (found.best_ratio, found.ratio_family, found.searched)
    assert [c.screen for c in own.ratio_candidates] == [c.screen for c in found.ratio_candidates]


def test_the_tightness_screen_keeps_the_choice_of_every_admissible_candidate():
    """_within_screen (admissibility checked only near the best admissible float score) gives select_max the same
    choice as every admissible candidate does, on random candidates with ties, NaNs and inadmissible ones; the
    choice is recomputed here by brute force over the admissible ones (the second method)."""
    from relations.pipeline._tightness import _within_screen
    from relations.search._selection import Candidate, select_max

    rng = np.random.default_rng(3)
    for _ in range(300):
        n = int(rng.integers(1, 12))
        scores = rng.choice([0.5, 0.9, 0.95, 1.0, 1.0 - 1e-9, float("nan"), float("inf")], size=n).tolist()
        exact = [Fraction(int(rng.integers(1, 100)), 100) for _ in range(n)]
        ok = rng.random(n) < 0.7
        cands = [Candidate(s, (i,), str(i), lambda v=v: v) for i, (s, v) in enumerate(zip(scores, exact))]

        def admissible(c, ok=ok):
            return bool(ok[int(c.label)])

        def certify(v, bits):
            return (v, v)

        every = [c for c in cands if ok[int(c.label)]]
        want = select_max(every, certify, window=0.1)
        got = select_max(_within_screen(cands, admissible, 0.1), certify, window=0.1)
        assert (want is None) == (got is None)
        if want is not None:
            assert (want.label, want.lower) == (got.label, got.lower)
