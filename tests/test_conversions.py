"""The conversion relations (relations.catalogue._conversions): their bounds in every form, their
exact evaluation on mechanisms whose values are computed independently here (mpmath, by hand),
the local frontiers against numerical maximisation (scipy) and the extremal mechanisms, and
the refutation of the conversions that fail."""

from __future__ import annotations

import math
import struct
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from relations import Mechanism
from relations.catalogue import CATALOGUE, get
from relations.catalogue._conversions import CONVERSIONS, DELTA, is_notion
from relations.catalogue._formulas import KINDS, Formula
from relations.checking._checker import evaluate
from relations.checking._quantities import values
from relations.kinds import Status
from relations.measures._divergences import pair_value, rho_pair
from relations.measures._notion_floats import leakages, notion_float
from relations.mechanisms._local import krr, product
from relations.numbers import Log, LogRatio
from relations.numbers._reals import Rational, compare
from relations.pipeline._conversion_frontiers import (
    conversion_frontier,
    eps_delta_sup,
    frontier_float,
    kl_sup,
    ml_sup,
    profile_sup,
)

IDS = [c["id"] for c in CONVERSIONS]
EPS = [0.1, 0.5, 1.0, 2.0, 4.0]
RATIOS = [Fraction(2), Fraction(3), Fraction(10)]


def _rr(t: Fraction) -> Mechanism:
    return Mechanism.local([[t / (1 + t), 1 / (1 + t)], [1 / (1 + t), t / (1 + t)]])


# ------------------------------------------------------------------ catalogue


def test_conversions_are_catalogued_with_references():
    ids = {r.id for r in CATALOGUE}
    assert set(IDS) <= ids and len(IDS) == 21
    for rid in IDS:
        r = get(rid)
        assert r.kind == "implication" and r.bound is not None
        assert "this project" in r.source or "doi:" in r.source or "arXiv:" in r.source, rid
        assert r.corrects is None or r.corrects in ids
    assert get("iwk2020.ml_ldp").setting == "local" and get("relations.ml_dp_central").setting == "central"
    assert get("bs2016.dp_zcdp").symbols == "rho <= eps_d^2/2"
    assert get("cks2020.rdp_dp").symbols == "eps_delta(1/100000) <= renyi(2) + ln(25000)"
    assert get("iwk2020.mel_ml").symbols == "min_entropy_leakage <= maximal_leakage"


def test_notion_names():
    for name in ("rho", "kl", "renyi(2)", "delta(1/2)", "eps_delta(1/1000)", "maximal_leakage"):
        assert is_notion(name)
    for name in ("eps_d", "renyi()", "renyi(2", "foo"):
        assert not is_notion(name)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_formula_forms_agree_and_increase(kind):
    import sympy as sp

    f = Formula(kind, DELTA if kind in ("dp_eps_delta", "zcdp") else Fraction(1) if kind == "profile"
                else Fraction(25000) if kind == "shift" else Fraction(0))
    a = sp.Symbol("a", positive=True)
    prev = -math.inf
    for q in (Fraction(11, 10), Fraction(2), Fraction(3), Fraction(10), Fraction(1000)):
        x = Log(LogRatio.of(q))
        v = f.exact(x, None, 1)
        lo, hi = v.enclose(128)
        fl = f.float(float(x), 0.0, 1)
        assert lo <= hi and abs(float(lo) - fl) <= 1e-12 * max(1, abs(fl))
        assert float(f.sympy(a).subs(a, sp.log(sp.Rational(q.numerator, q.denominator)))) == pytest.approx(fl, rel=1e-12,
                                                                                                         abs=1e-15)
        assert fl >= prev
        prev = fl


def test_shift_and_eps_delta_bounds_are_exact_logs():
    three = Log(LogRatio.of(Fraction(3)))
    assert str(Formula("shift", Fraction(25000)).exact(three, None, 1)) == "ln(75000)"
    assert str(Formula("dp_eps_delta", DELTA).exact(three, None, 1)) == "ln(74999/25000)"


# ------------------------------------------------------------------ exact checks on mechanisms


def _kl(P, Q):
    return sum(p * mpmath.log(p / q) for p, q in zip(P, Q) if p)


def _renyi(a, P, Q):
    return mpmath.log(sum(mpmath.mpf(p) ** a * mpmath.mpf(q) ** (1 - a) for p, q in zip(P, Q))) / (a - 1)


def _independent(rows, prior):
    """kl, renyi(2), rho, delta(1), eps_delta(DELTA), maximal and min-entropy leakage of a local mechanism, by
    mpmath (rho: the maximum of renyi(a)/a over a fine grid of orders and the limit kl)."""
    mpmath.mp.dps = 40
    rows = [[mpmath.mpf(Fraction(v).numerator) / Fraction(v).denominator for v in r] for r in rows]
    p = [mpmath.mpf(Fraction(v).numerator) / Fraction(v).denominator for v in prior]
    pairs = [(rows[i], rows[j]) for i in range(len(rows)) for j in range(len(rows)) if i != j]
    grid = [1 + mpmath.mpf(10) ** (k / 8) for k in range(-40, 24)]
    e1 = mpmath.e

    def eps_delta(P, Q):
        f = lambda e: sum(max(0, a - mpmath.exp(e) * b) for a, b in zip(P, Q)) - DELTA  # noqa: E731
        if f(0) <= 0:
            return mpmath.mpf(0)
        return mpmath.findroot(f, (0, max(mpmath.log(a / b) for a, b in zip(P, Q))), solver="bisect")

    m = len(rows[0])
    return {
        "kl": max(_kl(P, Q) for P, Q in pairs),
        "renyi(2)": max(_renyi(2, P, Q) for P, Q in pairs),
        "rho": max(max(_kl(P, Q), max(_renyi(a, P, Q) / a for a in grid)) for P, Q in pairs),
        "delta(1)": max(sum(max(0, a - e1 * b) for a, b in zip(P, Q)) for P, Q in pairs),
        f"eps_delta({DELTA})": max(eps_delta(P, Q) for P, Q in pairs),
        "maximal_leakage": mpmath.log(sum(max(r[y] for r in rows) for y in range(m))),
        "min_entropy_leakage": mpmath.log(sum(max(p[x] * rows[x][y] for x in range(len(rows))) for y in range(m))
                                          / max(p)),
    }


MECHS = [
    ([["3/4", "1/4"], ["1/4", "3/4"]], ["1/2", "1/2"]),
    ([["1/2", "1/3", "1/6"], ["1/6", "1/2", "1/3"], ["1/3", "1/6", "1/2"]], ["1/2", "1/4", "1/4"]),
    ([["3/5", "1/5", "1/5"], ["1/5", "3/5", "1/5"], ["1/5", "1/5", "3/5"]], ["1/3", "1/3", "1/3"]),
    ([["9/10", "1/10"], ["1/2", "1/2"], ["1/5", "4/5"]], ["1/5", "3/10", "1/2"]),
]


@pytest.mark.parametrize("case", range(len(MECHS)))
def test_values_agree_with_independent_computation(case):
    rows, prior = MECHS[case]
    vals = values(Mechanism.local(rows, prior=prior))
    ref = _independent(rows, prior)
    for name, want in ref.items():
        got = vals.reals[name]
        tol = 1e-6 if name in ("rho", f"eps_delta({DELTA})") else 1e-12  # rho by a grid here
        assert float(got) == pytest.approx(float(want), rel=tol, abs=1e-12), name


@pytest.mark.parametrize("case", range(len(MECHS)))
def test_relations_on_mechanisms(case):
    """Each conversion evaluated exactly agrees with the independent values against the float bound."""
    rows, prior = MECHS[case]
    vals = values(Mechanism.local(rows, prior=prior))
    ref = _independent(rows, prior)
    for rid in IDS:
        r = get(rid)
        o = evaluate(r, vals)
        if r.setting == "central":
            assert o.status == Status.NOT_APPLICABLE
            continue
        prem = float(vals.reals[r.premise]) if r.premise not in ref else float(ref[r.premise])
        bound = r.bound.float(prem, 0.0, 1)
        conc = float(ref[r.conclusion]) if r.conclusion in ref else float(vals.reals[r.conclusion])
        if conc < bound - 1e-9:
            assert o.status == Status.HOLDS, (rid, o)
        else:  # equality (binary RR attains the tight bounds): holds or undecided, never fails
            assert conc <= bound + 1e-9 and o.status in (Status.HOLDS, Status.UNDECIDED), (rid, o)


def test_rr_equalities():
    """Binary RR attains the KL, profile, zCDP and eps_delta frontiers: the ties are decided exactly."""
    vals = values(_rr(Fraction(3)))
    assert str(evaluate(get("kov2017.dp_eps_delta"), vals).status) == "holds"
    assert str(vals.reals[f"eps_delta({DELTA})"]) == "ln(74999/25000)"
    lo, hi = kl_sup(Fraction(3))
    klv = vals.reals["kl"].enclose(128)
    assert klv[0] <= hi and lo <= klv[1]
    for o in (evaluate(get("relations.kl_tanh"), vals), evaluate(get("kov2017.dp_profile"), vals),
              evaluate(get("relations.dp_zcdp_tanh"), vals)):
        # a genuine tie, decided exactly (linear forms in logs; a + b e^1 with rational a, b; rho = kl certified)
        assert o.status == Status.HOLDS and o.slack == 0.0


def test_tv_and_pinsker_on_binary_rr():
    """Binary RR with ratio t: tv = (t - 1)/(t + 1) by hand (the rows differ by that in each column), which
    equals tanh(ln(t)/2): kov2017.dp_tv is a tie, decided exactly (the bound is the rational (t-1)/(t+1)).
    Pinsker: kl = ((t - 1)/(t + 1)) ln t (by hand), and tv <= sqrt(kl/2) strictly for t > 1."""
    for t in (Fraction(2), Fraction(3), Fraction(13, 7)):
        vals = values(_rr(t))
        assert vals.reals["tv"] == Rational((t - 1) / (t + 1))
        assert Formula("profile", Fraction(0)).exact(Log(LogRatio.of(t)), None, 1) == Rational((t - 1) / (t + 1))
        o = evaluate(get("kov2017.dp_tv"), vals)
        assert o.status == Status.HOLDS and o.slack == 0.0
        kl = (t - 1) / (t + 1) * math.log(t)
        assert float(get("pinsker.tv_kl").bound.float(kl, 0.0, 1)) == pytest.approx(math.sqrt(kl / 2), rel=1e-15)
        assert evaluate(get("pinsker.tv_kl"), vals).status == Status.HOLDS


def test_tanh_half_candidate_is_refuted_by_binary_rr():
    """rho <= eps tanh(eps/2)/2 (a candidate 'tight' zCDP conversion) is false: binary RR has rho >= kl =
    eps tanh(eps/2), twice the candidate, decided exactly."""
    for t in RATIOS:
        rho = values(_rr(t)).reals["rho"]
        lo, hi = kl_sup(t)
        assert compare(rho, Rational(hi / 2)) == 1
        assert compare(rho, Rational(lo - Fraction(1, 10**20))) == 1


def test_ml_central_refuted_with_exact_witness():
    """The local bound maximal_leakage <= eps_d fails on datasets; ml <= eps_all and mel <= ml hold there."""
    mech = product(krr(8, 3), records=3)
    vals = values(mech)
    o = evaluate(get("relations.ml_dp_central"), vals)
    assert o.status == Status.FAILS
    # independently: r ln(k t/(t + k - 1)) = 3 ln(24/10) against eps_d = ln 3
    assert float(o.conclusion) == pytest.approx(3 * math.log(24 / 10), rel=1e-12)
    assert str(vals.reals["maximal_leakage"]) == "ln(1728/125)" and str(vals.reals["eps_d"]) == "ln(3)"
    assert evaluate(get("relations.ml_all_pairs"), vals).status == Status.HOLDS
    assert evaluate(get("iwk2020.mel_ml"), vals).status == Status.HOLDS


def test_verify_refutes_ml_central():
    from relations.pipeline._verify import Effort, verify_relation

    v = verify_relation(get("relations.ml_dp_central"), Effort.of(True))
    assert str(v.verdict) == "refuted"
    assert evaluate(get("relations.ml_dp_central"), values(v.witness)).status == Status.FAILS


# ------------------------------------------------------------------ frontiers


def _pairs(eps, m, rng, starts=4):
    """Numerical sup over pairs (P, Q) on m outputs with |ln P/Q| <= eps of each objective."""
    # imported by the tests that use it, not at collection (0.8 s of CPU in each xdist worker)
    from scipy.optimize import minimize

    def split(z):
        q = np.exp(z[:m] - z[:m].max())
        q /= q.sum()
        r = np.exp(eps * np.clip(z[m:], -1, 1))  # the extreme ratios are reachable
        p = q * r
        p /= p.sum()
        return p, q

    def feasible(p, q):
        with np.errstate(all="ignore"):
            return bool(np.all(q > 0)) and np.max(np.abs(np.log(p / q))) <= eps + 1e-12

    out = {}
    for name in ("kl", "delta(1)", f"eps_delta({DELTA})"):
        best = 0.0
        for _ in range(starts):
            def neg(z):
                p, q = split(z)
                return -pair_value(name, p, q) if feasible(p, q) else 0.0  # noqa: B023
            res = minimize(neg, rng.normal(size=2 * m) * 2, method="Nelder-Mead", options={"maxiter": 600})
            best = max(best, -res.fun)
        out[name] = best
    return out


@pytest.mark.parametrize("eps", [0.5, pytest.param(1.5, marks=pytest.mark.slow),  # the same search at each eps:
                                 pytest.param(3.0, marks=pytest.mark.slow)])  # one in the default run
def test_pair_frontiers_against_numerical_maximisation(eps):
    rng = np.random.default_rng(int(eps * 10))
    for m in (2, 3):
        found = _pairs(eps, m, rng)
        for name, sup in found.items():
            closed = frontier_float(name, eps)
            assert sup <= closed + 1e-7, (name, m)  # attained by binary RR: test_certified_frontiers_...


@pytest.mark.parametrize("eps", EPS)
def test_rho_frontier_against_grid_over_binary_pairs(eps):
    """rho of every binary eps-DP pair (a grid over both distributions) stays below eps tanh(eps/2); RR attains it."""
    e = math.exp(eps)
    bound = frontier_float("rho", eps)
    best = 0.0
    for q in np.linspace(0.01, 0.99, 41):
        lo, hi = max(q / e, 1 - (1 - q) * e), min(q * e, 1 - (1 - q) / e)
        for p in np.linspace(lo, hi, 9):
            best = max(best, rho_pair(np.array([p, 1 - p]), np.array([q, 1 - q])))
    assert best <= bound * (1 + 1e-9)
    assert rho_pair(np.array([e, 1]) / (1 + e), np.array([1, e]) / (1 + e)) == pytest.approx(bound, rel=1e-9)


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("eps", [0.5, 1.0, 2.5])
def test_ml_frontier_against_numerical_maximisation(k, eps):
    from scipy.optimize import minimize

    rng = np.random.default_rng(k)
    m = k + 1

    def neg(z):
        W = np.exp(eps * np.tanh(z.reshape(k, m)))  # column ratios within e^eps: rows normalised below
        W /= W.sum(axis=1, keepdims=True)
        if np.max(np.log(W.max(axis=0) / W.min(axis=0))) > eps + 1e-12:
            return 0.0
        return -leakages(np.full(k, 1 / k), W)["maximal_leakage"]

    best = max(-minimize(neg, rng.normal(size=k * m) * 3, method="Nelder-Mead",
                         options={"maxiter": 4000}).fun for _ in range(4))
    closed = frontier_float("maximal_leakage", eps, k=k)
    assert best <= closed + 1e-9
    assert notion_float(krr(k, Fraction(math.exp(eps)).limit_denominator(10**9)), "maximal_leakage") == pytest.approx(
        closed, rel=1e-6)


@pytest.mark.parametrize("t", RATIOS)
def test_certified_frontiers_enclose_the_extremal_mechanisms(t):
    vals = values(_rr(t))
    for name, (lo, hi) in (("kl", kl_sup(t)), ("delta(1)", profile_sup(t, Fraction(1))),
                           (f"eps_delta({DELTA})", eps_delta_sup(t, DELTA))):
        assert hi - lo < Fraction(1, 10**30)
        a, b = vals.reals[name].enclose(128)
        assert a <= hi and lo <= b, name
    for k in (2, 3, 5):
        lo, hi = ml_sup(t, k)
        v = values(krr(k, t)).reals["maximal_leakage"]
        a, b = v.enclose(128)
        assert a <= hi and lo <= b
    assert float(ml_sup(t, 10**6)[0]) == pytest.approx(math.log(t), rel=1e-4)


def test_frontier_fields():
    f = conversion_frontier(get("bs2016.dp_zcdp"), quick=True)
    assert f.sup_ratio == 1.0 and not f.attained
    assert conversion_frontier(get("mironov2017.rdp_dp")) is None
    assert conversion_frontier(get("relations.ml_dp_central")) is None
    f = conversion_frontier(get("iwk2020.ml_ldp"), quick=True)
    assert f.points and f.points[0].json()["notion"] == "maximal_leakage"
    assert 0.9 < f.points[-1].json()["share_of_frontier"] < 1.0


# ------------------------------------------------------------------ figure


def test_figure_data_against_independent_values():
    from relations.figures import FIGURES
    from relations.figures._conversions import conversion_frontiers_data

    assert "conversion_frontiers" in FIGURES
    d = conversion_frontiers_data(points=8)
    for i, e in enumerate(d["eps"]):
        t = mpmath.e ** e
        assert d["panels"]["kl"]["frontier"]["values"][i] == pytest.approx(float(e * (t - 1) / (t + 1)), rel=1e-12)
        assert d["panels"]["maximal_leakage"]["k"]["4"][i] == pytest.approx(float(mpmath.log(4 * t / (t + 3))), rel=1e-12)
        for key, panel in d["panels"].items():
            f = panel["frontier"]["values"][i]
            assert all(b["values"][i] >= f - 1e-9 for b in panel["bounds"] + panel.get("at_rr", [])), key
            if panel["rr"]:
                assert panel["rr"][i] == pytest.approx(f, rel=1e-5, abs=1e-9), key  # RR's ratio is e^eps rounded


def test_zero_frontier_points_are_skipped():
    """delta(1) under ln(2)-LDP is 0 (e^1 > 2): no reference point there, and the JSON is well defined."""
    f = conversion_frontier(get("kov2017.dp_profile"))
    assert [p.json()["eps"] for p in f.points] == ["ln(3)", "ln(10)"]
    assert all(p["share_of_frontier"] == pytest.approx(1.0) for p in f.json()["points"])


def test_float_rho_and_kl_keep_relative_accuracy_near_zero():
    """The float screen's rho and kl of binary RR at tiny eps against mpmath on the same float rows
    (the log-sum-exp lost 1e-6 of rho at eps = 1e-4, which made a tightness read above 1)."""
    import mpmath
    import numpy as np

    from relations.measures._divergences import pair_value, rho_pair

    with mpmath.workdps(50):
        for eps in (1e-6, 1e-4, 1e-2):
            t = math.exp(eps)
            P = np.array([t / (1 + t), 1 / (1 + t)])
            Q = P[::-1].copy()
            kl = float(sum(mpmath.mpf(float(p)) * mpmath.log(mpmath.mpf(float(p)) / mpmath.mpf(float(q)))
                           for p, q in zip(P, Q)))
            assert abs(pair_value("kl", P, Q) / kl - 1) < 1e-8
            assert abs(rho_pair(P, Q) / kl - 1) < 1e-8  # binary RR: rho is its KL


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_formula_floats_are_its_floats_entry_for_entry(kind):
    """Formula.floats (the searches' array form) gives the floats of Formula.float point by point, to the bit
    (the sign of a zero and NaN included), on random, tiny, huge and edge premises."""
    rng = np.random.default_rng(7)
    xs = np.concatenate([rng.exponential(2, 2000), rng.normal(0, 3, 500), 10 ** rng.uniform(-300, 300, 500),
                         [0.0, -0.0, np.inf, -np.inf, np.nan, 1e308, 5e-324, 699.9, 700.0, 710.0]])
    for c in (Fraction(1, 100000), Fraction(1, 3), Fraction(1), Fraction(7, 2)):
        f = Formula(kind, c)
        try:
            point = [f.float(x, 0.0, None) for x in xs.tolist()]
        except ValueError:  # a parameter outside the formula's domain (math domain error)
            continue
        got = f.floats(xs).tolist()
        assert [struct.pack("<d", x) for x in got] == [struct.pack("<d", x) for x in point]
    small = np.array([0.0, 0.5, 3.0])  # premises where float takes no log1p(-c): no domain error at c = 1
    assert Formula(kind, Fraction(1)).floats(small).tolist() == [Formula(kind, Fraction(1)).float(x, 0.0, None)
                                                               for x in small.tolist()]
