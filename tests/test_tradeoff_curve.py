"""The f-DP trade-off curve and Gaussian-DP ``mu`` (:mod:`relations.measures._tradeoff`).

Curves are derived by hand in the docstrings, or by a second method: the Lagrangian dual of the
Neyman-Pearson linear program, ``T(P, R)(a) = max_{l >= 0} 1 - l a - sum_y max(0, R_y - l P_y)``, whose
maximum over ``l`` is at ``l = 0`` or at a likelihood ratio ``R_y / P_y`` (the objective is concave and
piecewise linear in ``l``).  ``mu`` is checked against mpmath at 60 digits.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from relations.measures._tradeoff import gdp_mu, gdp_mu_pairs, pair_curve, tradeoff_curve
from relations.model import Mechanism


@pytest.fixture(autouse=True, scope="module")
def _precision():
    """60 digits for every test here, whatever other modules set at import (mpmath's precision is global)."""
    with mpmath.workdps(60):
        yield


def probit(p) -> mpmath.mpf:
    """Phi^-1(p) = sqrt(2) erfinv(2p - 1), by mpmath."""
    return mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(p.numerator) / p.denominator - 1)


def dual(P, R, a: F) -> F:
    """T(P, R)(a) by the dual of the Neyman-Pearson LP (module docstring), exactly."""
    lambdas = [F(0)] + [r / p for p, r in zip(P, R) if p > 0]
    return max(1 - lam * a - sum((max(F(0), r - lam * p) for p, r in zip(P, R)), F(0)) for lam in lambdas)


def points(curve) -> list[tuple[str, str]]:
    return [(str(p.alpha), str(p.beta)) for p in curve.breakpoints]


def check_mu(result, expected: mpmath.mpf) -> None:
    """The enclosure holds mpmath's value, is at most 2^-100 wide, and the float is mpmath's, rounded."""
    lo, hi = result.value.enclose(100)
    near = F(mpmath.nstr(expected, 55))  # within 1e-54 of the value
    assert lo - F(1, 10 ** 50) <= near <= hi + F(1, 10 ** 50)
    assert hi - lo <= F(1, 2 ** 100)
    assert float(result.value) == float(expected)


@pytest.mark.parametrize("t", [F(3), F(7, 2), F(11, 10), F(40)])
def test_randomized_response_is_f_eps_0(t):
    """eps-RR with e^eps = t, rows (t, 1)/(1 + t) and (1, t)/(1 + t).  By hand: rejecting the output where the
    alternative is t times likelier costs alpha = 1/(1 + t) and leaves beta = 1 - t/(1 + t) = 1/(1 + t), so the
    breakpoints are (0, 1), (1/(1+t), 1/(1+t)), (1, 0): the curve f_{eps,0}(a) = max(0, 1 - t a, (1 - a)/t) of
    Dong et al. (2022, eq. 2.5); mu = Phi^-1(t/(1+t)) - Phi^-1(1/(1+t)) = 2 Phi^-1(t/(1+t))."""
    s = 1 + t
    mech = Mechanism.local([[t / s, 1 / s], [1 / s, t / s]])
    c = tradeoff_curve(mech)
    assert [(p.alpha, p.beta) for p in c.breakpoints] == [(0, 1), (1 / s, 1 / s), (1, 0)]
    for k in range(0, 41):
        a = F(k, 40)
        assert c(a) == max(F(0), 1 - t * a, (1 - a) / t)
    assert c.minimum == ((0, 1), (1 / s, 1 / s), (1, 0))
    check_mu(c.mu, 2 * probit(t / s))
    assert c.breakpoints[1].reject in ((0,), (1,))


def test_three_outputs_by_hand():
    """Rows P = (1/2, 1/3, 1/6), R = (1/6, 1/3, 1/2).  Testing P against R: the ratios R/P are 1/3, 1, 3;
    rejecting output 2, then 1, then 0 gives (1/6, 1/2), (1/2, 1/6), (1, 0).  The reverse order gives the same
    points.  mu: Phi^-1(5/6) - Phi^-1(1/2) = Phi^-1(1/2) - Phi^-1(1/6) = Phi^-1(5/6)."""
    mech = Mechanism.local([["1/2", "1/3", "1/6"], ["1/6", "1/3", "1/2"]])
    c = tradeoff_curve(mech)
    assert points(c) == [("0", "1"), ("1/6", "1/2"), ("1/2", "1/6"), ("1", "0")]
    assert [p.reject for p in c.breakpoints[1:3]] in ([(2,), (1, 2)], [(0,), (0, 1)])
    check_mu(c.mu, probit(F(5, 6)))


def test_the_pointwise_minimum_is_not_convex_and_f_is_its_hull():
    """Rows P = (1/2, 1/2), R = (3/4, 1/4).  T(P, R): reject output 0 (ratio 3/2) first: (1/2, 1/4);
    T(R, P): reject output 1 (ratio 2) first: (1/4, 1/2).  Their minimum follows T(R, P) from (0, 1) to its
    vertex, then its second piece 1/2 - (2/3)(a - 1/4) until it meets T(P, R)'s first piece 1 - 3a/2 at
    a = 2/5 (beta = 2/5), then T(P, R): slopes -2, -2/3, -3/2, -1/2, not convex.  The f of f-DP is the hull:
    (0, 1), (1/4, 1/2), (1/2, 1/4), (1, 0); mu = Phi^-1(3/4) - Phi^-1(1/2) = Phi^-1(3/4)."""
    mech = Mechanism.local([["1/2", "1/2"], ["3/4", "1/4"]])
    c = tradeoff_curve(mech)
    assert points(c) == [("0", "1"), ("1/4", "1/2"), ("1/2", "1/4"), ("1", "0")]
    assert c.minimum == ((0, 1), (F(1, 4), F(1, 2)), (F(2, 5), F(2, 5)), (F(1, 2), F(1, 4)), (1, 0))
    check_mu(c.mu, probit(F(3, 4)))


def test_disjoint_supports_and_identical_rows():
    """Disjoint rows: rejecting the alternative's support costs alpha = 0 and leaves beta = 0, so f = 0 and no
    finite mu (G_mu(0) = 1).  A row outside the other's support only in part: f(0) = 1 - 1/2 < 1, mu = inf.  A
    curve reaching 0 before alpha = 1 (the reverse order): mu = inf too.  Identical rows: f = 1 - alpha, mu = 0."""
    apart = tradeoff_curve(Mechanism.local([["1", "0"], ["0", "1"]]))
    assert points(apart) == [("0", "0"), ("1", "0")] and str(apart.mu.value) == "inf"
    half = tradeoff_curve(Mechanism.local([["1", "0"], ["1/2", "1/2"]]))
    assert half(0) == F(1, 2) and str(half.mu.value) == "inf"
    assert math.isinf(float(gdp_mu(Mechanism.local([["1", "0"], ["1/2", "1/2"]])).value))
    same = tradeoff_curve(Mechanism.local([["1/3", "2/3"], ["1/3", "2/3"]]))
    assert points(same) == [("0", "1"), ("1", "0")] and str(same.mu.value) == "0"
    assert same.minimum == ((0, 1), (1, 0))


def test_product_form_has_its_local_channels_curve():
    """r records through one channel: neighbours differ in one record and the other factors cancel in the
    likelihood ratio, so the curve is the local channel's (a second method: the dense D^2 mechanism)."""
    from relations.mechanisms import product, randomized_response

    local = tradeoff_curve(randomized_response(3))
    prod = tradeoff_curve(product(randomized_response(3), 3))
    dense = tradeoff_curve(Mechanism.central(
        [[a * b for a in (F(3, 4), F(1, 4)) for b in (F(3, 4), F(1, 4))],
         [a * b for a in (F(3, 4), F(1, 4)) for b in (F(1, 4), F(3, 4))],
         [a * b for a in (F(1, 4), F(3, 4)) for b in (F(3, 4), F(1, 4))],
         [a * b for a in (F(1, 4), F(3, 4)) for b in (F(1, 4), F(3, 4))]], records=2))
    assert points(local) == points(prod) == points(dense)


def test_float_mode_agrees():
    mech = Mechanism.local(np.array([[0.75, 0.25], [0.25, 0.75]]), mode="float")
    r = gdp_mu(mech)
    assert not mech.exact and abs(float(r.value) - float(2 * probit(F(3, 4)))) < 1e-12


def test_the_notion_everywhere():
    """gdp_mu as a notion: measure, claims, the float screen, a refuted conjecture.  Binary RR with ratio 2 has
    mu = 2 Phi^-1(2/3) = 0.8615 > ln 2 = eps_d, so 'gdp_mu <= eps_d' is false (Dong et al.: eps-DP gives mu about
    1.25 eps for small eps)."""
    from relations.checking import check
    from relations.measures._notion_floats import notion_float
    from relations.measures._notions import notion_result
    from relations.pipeline import conjecture

    rr = Mechanism.local([["2/3", "1/3"], ["1/3", "2/3"]])
    mu = 2 * probit(F(2, 3))
    check_mu(notion_result(rr, "gdp_mu"), mu)
    assert abs(notion_float(rr, "gdp_mu") - float(mu)) < 1e-12
    assert [c.holds for c in check(rr, claims=["gdp_mu <= 0.8616", "gdp_mu <= 0.8614"]).claims] == [True, False]
    refuted = conjecture("gdp_mu <= eps_d", quick=True)
    assert refuted.verdict == "refuted" and refuted.decision.lhs > refuted.decision.rhs


_ENTRY = st.integers(min_value=0, max_value=4)


@st.composite
def mechanisms(draw):
    n, m = draw(st.integers(2, 3)), draw(st.integers(2, 4))
    rows = []
    for _ in range(n):
        w = draw(st.lists(_ENTRY, min_size=m, max_size=m).filter(lambda v: sum(v) > 0))
        rows.append([F(x, sum(w)) for x in w])
    return rows


@settings(max_examples=60, deadline=None)
@given(mechanisms())
def test_properties_against_the_dual(rows):
    """f is convex, non-increasing, below 1 - a, symmetric (f = f^-1), equal to the pointwise minimum at its
    vertices and below it elsewhere; each vertex is attained by its pair's Neyman-Pearson test; the pointwise minimum agrees with the
    dual formula at its breakpoints and between them; mu from f's vertices is the largest of the pairs' mu
    (a second method, in floats)."""
    mech = Mechanism.local(rows)
    c = tradeoff_curve(mech)
    pairs = [(x, y) for x in range(len(rows)) for y in range(len(rows)) if rows[x] != rows[y]]
    g = (lambda a: min(dual(rows[x], rows[y], a) for x, y in pairs)) if pairs else (lambda a: 1 - a)
    pts = c.breakpoints
    assert pts[0].alpha == 0 and (pts[-1].alpha, pts[-1].beta) == (1, 0)
    slopes = [(q.beta - p.beta) / (q.alpha - p.alpha) for p, q in zip(pts, pts[1:])]
    assert all(s <= 0 for s in slopes) and slopes == sorted(slopes) and len(set(slopes)) == len(slopes)
    for p in pts:
        assert p.beta <= 1 - p.alpha and p.beta == g(p.alpha)
        if pts[0].beta == 1 and all(q.beta > 0 for q in pts[:-1]):
            assert c(p.beta) == p.alpha  # symmetric (both orders of every pair): the graph mirrors in beta = alpha
        if p.pair is not None and p.reject:
            P, R = rows[p.pair.x], rows[p.pair.x_prime]
            assert sum(P[y] for y in p.reject) == p.alpha and 1 - sum(R[y] for y in p.reject) == p.beta
    grid = sorted({a for a, _ in c.minimum} | {F(k, 24) for k in range(25)})
    for a in grid:
        assert c(a) <= g(a)
    for (a0, b0), (a1, b1) in zip(c.minimum, c.minimum[1:]):
        assert g(a0) == b0 and g((a0 + a1) / 2) == (b0 + b1) / 2
    if pairs:
        A = np.array([[float(v) for v in rows[x]] for x, _ in pairs])
        C = np.array([[float(v) for v in rows[y]] for _, y in pairs])
        floats = float(gdp_mu_pairs(A, C).max())
        exact = float(c.mu.value)
        assert (math.isinf(floats) and math.isinf(exact)) or abs(floats - exact) <= 1e-9 * max(1.0, exact)
        for x, y in pairs:  # each pair's own curve is convex and ends at (1, 0)
            curve = pair_curve(rows[x], rows[y])
            assert (curve[-1][0], curve[-1][1]) == (1, 0)


def test_cli_tradeoff_json_plot_and_refusals(cli, tmp_path):
    """``measure --tradeoff``: the breakpoints of the non-convex example by hand (above), exact and as floats;
    ``--plot`` writes a PNG and refuses to replace it without ``--force``; misuse is one line and exit 2."""
    import json

    src = tmp_path / "m.json"
    src.write_text(json.dumps({"setting": "local", "prior": ["1/2", "1/2"],
                               "channel": [["1/2", "1/2"], ["3/4", "1/4"]]}))
    png = tmp_path / "curve.png"
    r = cli("measure", str(src), "--tradeoff", "--json", "--plot", str(png))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert [(p["alpha"], p["beta"]) for p in out["tradeoff"]] == [("0", "1"), ("1/4", "1/2"), ("1/2", "1/4"),
                                                                  ("1", "0")]
    assert [p["beta_float"] for p in out["tradeoff"]] == [1.0, 0.5, 0.25, 0.0]
    assert [(p["alpha"], p["beta"]) for p in out["pointwise_minimum"]][2] == ("2/5", "2/5")
    assert out["gdp_mu"]["value"] == float(probit(F(3, 4)))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    again = cli("measure", str(src), "--tradeoff", "--plot", str(png))
    assert again.returncode == 2 and "exists; use --force" in again.stderr
    assert cli("measure", str(src), "--tradeoff", "--plot", str(png), "--force").returncode == 0
    fine = json.loads(cli("measure", str(src), "--tradeoff", "--json", "--bits", "200").stdout)["gdp_mu"]["enclosure"]
    lo, hi = F(fine[0]), F(fine[1])
    assert hi - lo <= F(1, 2 ** 199) and lo <= F(mpmath.nstr(probit(F(3, 4)), 55)) + F(1, 10 ** 50) \
        and F(mpmath.nstr(probit(F(3, 4)), 55)) - F(1, 10 ** 50) <= hi  # mpmath at 60 digits: inside
    table = cli("measure", str(src), "--tradeoff")
    assert table.returncode == 0 and "1/4" in table.stdout and "Q[x]" in table.stdout
    for args, said in ((("--plot", str(tmp_path / "a.png")), "add --tradeoff"),
                       (("--tradeoff", "--format", "csv"), "a table or JSON"),
                       (("--tradeoff", "--notion", "rho"), "drop --notion"),
                       (("--tradeoff", "--plot", str(tmp_path / "a.gif")), ".png, .pdf or .svg")):
        bad = cli("measure", str(src), *args)
        assert bad.returncode == 2 and said in bad.stderr and "Traceback" not in bad.stderr
