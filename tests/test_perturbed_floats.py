"""No verdict is decided by a float: the same verdicts with every float of an exact real moved one ulp.

``tests/perturbed_verify.py`` (``ulp-up`` / ``ulp-down``) moves every inexact conversion of an exact
real to a float (``float(Fraction)``, ``float(ln 3)``, a sympy number, ``display_float``, ...) by one
ulp up, then down, in a fresh process, and decides the cases below.  Floats may steer a search; a
verdict that differs between the two directions was decided by a float (issue 41: ``float(ln 3)``
rounds up past ``1.0986122886681097``, and ``delta(ln(3)) <= delta(1.0986122886681097)`` was proved).
Before the fix of the prover's side conditions the quick test below fails: ``ulp-up`` gives ``proved``
and ``ulp-down`` ``not proved`` for both conjectures at the boundary.

The expected statuses of the claims are derived by hand: ``ln 3 = 1.09861228866810969139...`` and
``ln 10 = 2.30258509299404568401...`` (digits from any table, or ``mpmath``), so
``1.0986122886681096 < ln 3 < 1.0986122886681097`` and ``2.3025850929940456 < ln 10 < 2.3025850929940458``;
binary randomized response with ratio 4 (rows ``(4/5, 1/5)``, ``(1/5, 4/5)``) has
``delta(eps) = (4 - e^eps) / 5`` for ``e^eps <= 4``: ``delta(ln 3) = 1/5`` and ``delta(r) < 1/5`` for
``r > ln 3``.

The quick test runs in the default suite (two processes at once, the prover only: a few seconds each);
the slow one (``-m slow``) decides the 25 conjectures of ``benchmarks/bench_conjectures.py`` and the
boundary conjectures with the whole search.  ``.ci/run`` also runs ``relations verify --quick`` both ways
and compares the catalogue's verdicts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests" / "perturbed_verify.py"

LN3_ABOVE, LN3_BELOW = "1.0986122886681097", "1.0986122886681096"  # ln 3 = 1.09861228866810969139...
LN10_ABOVE, LN10_BELOW = "2.3025850929940458", "2.3025850929940456"  # ln 10 = 2.30258509299404568401...

#: Conjectures at exact boundaries, with what mathematics says (``false``: a counterexample is known).
BOUNDARY = (
    (f"delta(ln(3)) <= delta({LN3_ABOVE})", "local", "false"),  # binary RR with ratio 4 refutes it
    (f"delta(ln(10)) <= delta({LN10_ABOVE})", "central", "false"),  # binary RR with ratio 11 on one edge
    (f"delta({LN3_ABOVE}) <= delta(ln(3))", "local", "true"),  # delta decreases in its argument
    (f"delta({LN3_BELOW}) >= delta(ln(3))", "local", "true"),
    (f"delta(ln(3)) <= delta({LN3_BELOW})", "local", "true"),
    (f"delta(ln(10)) <= delta({LN10_BELOW})", "central", "true"),
)

#: Claims at exact boundaries: (mechanism, claims, expected statuses by hand).
CLAIMS = (
    (["krr", 3, "3"], [f"eps_d <= {LN3_ABOVE}", "eps_d <= 1.0986122886681098", f"eps_d <= {LN3_BELOW}",
                       "eps_d <= ln(3)", "eps_d < ln(3)", f"eps_d > {LN3_BELOW}"],
     ["holds", "holds", "fails", "holds", "fails", "holds"]),
    (["randomized_response", "3"], [f"eps_d <= {LN3_ABOVE}", f"eps_d >= {LN3_ABOVE}"], ["holds", "fails"]),
    (["randomized_response", "4"], ["delta(ln(3)) <= 1/5", "delta(ln(3)) >= 1/5", f"delta({LN3_ABOVE}) < 1/5",
                                    f"delta({LN3_BELOW}) > 1/5"], ["holds", "holds", "holds", "holds"]),
    (["randomized_response", "10"], [f"eps_d <= {LN10_ABOVE}", f"eps_d <= {LN10_BELOW}"], ["holds", "fails"]),
)


def _run(direction: str, cases: list[dict], tmp_path: Path) -> subprocess.Popen:
    path = tmp_path / f"cases-{direction}.json"
    path.write_text(json.dumps(cases), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT), RELATIONS_NO_FORK="1")
    return subprocess.Popen([sys.executable, str(RUNNER), direction, "--verdicts", str(path)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _both(cases: list[dict], tmp_path: Path) -> tuple[list, list]:
    """The verdicts with the floats one ulp up and one ulp down (the two processes run at once)."""
    procs = {d: _run(d, cases, tmp_path) for d in ("ulp-up", "ulp-down")}
    out = {}
    for d, p in procs.items():
        stdout, stderr = p.communicate()
        assert p.returncode == 0, stderr[-2000:]
        out[d] = json.loads(stdout.strip().splitlines()[-1])
    return out["ulp-up"], out["ulp-down"]


def _claim_cases() -> list[dict]:
    return [{"mechanism": m, "claims": c} for m, c, _ in CLAIMS]


def _check_claims(results: list) -> None:
    for (mech, claims, expected), got in zip(CLAIMS, results):
        assert got["claims"] == expected, (mech, claims, got["claims"])


def test_verdicts_do_not_move_with_the_floats(tmp_path):
    """The prover on the boundary conjectures, and the claims and the catalogue on boundary mechanisms."""
    cases = [{"prove": t, "setting": s} for t, s, _ in BOUNDARY] + _claim_cases()
    up, down = _both(cases, tmp_path)
    assert up == down, [(c, a, b) for c, a, b in zip(cases, up, down) if a != b]
    for (text, setting, expected), verdict in zip(BOUNDARY, up):
        if expected == "false":
            assert verdict == "not proved", (text, setting)
    _check_claims(up[len(BOUNDARY):])


@pytest.mark.slow
def test_conjecture_verdicts_do_not_move_with_the_floats(tmp_path):
    """The 25 benchmark conjectures and the boundary conjectures, with the whole search (full effort)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_conjectures import CONJECTURES
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    rows = [(t, s, e) for t, s, e, _ in CONJECTURES] + list(BOUNDARY)
    cases = [{"conjecture": t, "setting": s, "quick": False} for t, s, _ in rows] + _claim_cases()
    up, down = _both(cases, tmp_path)
    assert up == down, [(c, a, b) for c, a, b in zip(cases, up, down) if a != b]
    for (text, setting, expected), verdict in zip(rows, up):
        assert verdict != ("proved" if expected == "false" else "refuted"), (text, setting, verdict)
    _check_claims(up[len(rows):])



def test_an_undecided_side_condition_leaves_the_fact_out_and_says_so(monkeypatch):
    """A rational within ``1e-1300`` of ``ln 3`` (mpmath, 1400 digits): the enclosures of the finest rung
    (4096 bits, about 1233 digits) cannot separate it from ``ln 3``, so ``delta_monotone`` is instantiated
    in neither order, and the fact lists what it left out.  (A notion's argument is at most 1000
    characters long, so such a rational never comes from a conjecture's text: this is the helper's own
    guarantee, tested through the instances' argument lookup.)"""
    from fractions import Fraction

    import mpmath

    import relations.proofs._facts as facts_module
    from relations.numbers import Log, LogRatio, Rational
    from relations.proofs._facts import BY_ID, side

    with mpmath.workdps(1400):
        near = Rational(Fraction(mpmath.nstr(mpmath.log(3), 1320, min_fixed=-1, max_fixed=2)))
    ln3 = Log(LogRatio.of(Fraction(3)))
    assert side(ln3, "<", near) is None and side(near, "<", ln3) is None
    assert side(ln3, "<", Rational(Fraction("1.0986122886681097"))) is True
    arguments = {"delta(ln(3))": ("delta", "ln(3)", ln3), "delta(near)": ("delta", "near", near)}
    monkeypatch.setattr(facts_module, "_argument", arguments.get)
    fact = BY_ID["delta_monotone"]
    assert fact.instances(list(arguments), "local") == []
    assert sorted(fact.undecided(list(arguments), "local")) == [
        "delta_monotone: EPS = ln(3), EPS2 = near", "delta_monotone: EPS = near, EPS2 = ln(3)"]
