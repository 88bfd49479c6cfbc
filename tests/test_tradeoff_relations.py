"""The relations of ``docs/notion-inequalities-tradeoff.md`` between ``gdp_mu`` and the other notions, checked on
random exact mechanisms: the tool's certified values against bounds computed by mpmath at 40 digits.

Each check can fail: the bounds are the documents' right sides, evaluated independently of the tool's
``gdp_mu`` code (mpmath's ``erfinv`` and ``ncdf``), and relation 2's tightness (Dong, Roth, Su, Cor. 2.13) is
checked too: just below ``gdp_mu`` the bound fails at the ``eps`` where ``G_mu`` touches the curve.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from relations.measures import measure, tradeoff_curve
from relations.measures._notions import notion_value
from relations.model import Mechanism
from relations.numbers._reals import ArbExpr


@pytest.fixture(autouse=True, scope="module")
def _precision():
    """40 digits for every test here, whatever other modules set at import (mpmath's precision is global)."""
    with mpmath.workdps(40):
        yield
SLACK = 1e-12


def lower(x) -> float:
    """A float at most the real ``x`` (the lower end of a certified enclosure), ``inf`` for an infinity."""
    if math.isinf(float(x)):
        return float(x)
    if isinstance(x, ArbExpr):
        return float(mpmath.mpf(x.enclose(64)[0].numerator) / x.enclose(64)[0].denominator)
    return float(x)


def delta_mu(mu: float, eps: float) -> float:
    """Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Dong et al., Cor. 2.13), by mpmath."""
    if mu == 0:
        return 0.0
    if math.isinf(mu):
        return 1.0
    m, e = mpmath.mpf(mu), mpmath.mpf(eps)
    return float(mpmath.ncdf(-e / m + m / 2) - mpmath.exp(e) * mpmath.ncdf(-e / m - m / 2))


def relation_1_bound(q: F | None) -> float:
    """2 Phi^-1(q / (1 + q)) for e^eps_d = q (inf for eps_d = inf)."""
    if q is None:
        return math.inf
    p = mpmath.mpf(q.numerator) / (q.numerator + q.denominator)
    return float(2 * mpmath.sqrt(2) * mpmath.erfinv(2 * p - 1))


@st.composite
def mechanisms(draw):
    n, m = draw(st.integers(2, 3)), draw(st.integers(2, 4))
    rows = []
    for _ in range(n):
        w = draw(st.lists(st.integers(0, 5), min_size=m, max_size=m).filter(lambda v: sum(v) > 0))
        rows.append([F(x, sum(w)) for x in w])
    return Mechanism.local(rows)


@settings(max_examples=40, deadline=None)
@given(mechanisms())
def test_relations_1_to_6(mech):
    curve = tradeoff_curve(mech, pointwise=False)
    mu_value = curve.mu.value
    mu = float(mu_value)
    mu_hi = mu if not isinstance(mu_value, ArbExpr) else float(mu_value.enclose(64)[1]) * (1 + 1e-15)
    eps_d = measure(mech).eps_d.exact
    q = eps_d.ratio  # e^eps_d, None when infinite
    # 5: gdp_mu = inf iff eps_d = inf
    assert math.isinf(mu) == (q is None)
    # 1: gdp_mu <= 2 Phi^-1(e^eps_d / (1 + e^eps_d))
    assert mu <= relation_1_bound(q) * (1 + SLACK) + SLACK
    # 2 and 3: delta(EPS) <= delta_mu(EPS); tv = delta(0)
    for eps in (F(0), F(1, 4), F(1), F(3)):
        assert lower(notion_value(mech, "delta", eps)) <= delta_mu(mu_hi, float(eps)) + SLACK
    assert lower(notion_value(mech, "tv")) <= delta_mu(mu_hi, 0.0) + SLACK
    # 4: renyi(ALPHA) <= ALPHA mu^2 / 2, kl and rho <= mu^2 / 2, chi2 <= e^(mu^2) - 1
    half = mu_hi * mu_hi / 2
    for name, bound in (("kl", half), ("rho", half), ("renyi(2)", 2 * half), ("renyi(3/2)", 1.5 * half),
                        ("chi2", math.inf if 2 * half > 700 else math.expm1(2 * half))):
        assert lower(notion_value(mech, name)) <= bound * (1 + SLACK) + SLACK, name
    # 6: f >= f_{eps_d, 0} and f >= f_{eps, delta(eps)} at e^eps = 2, exactly at every vertex
    for point in curve.breakpoints:
        a, b = point.alpha, point.beta
        if q is not None:
            assert b >= max(F(0), 1 - q * a, (1 - a) / q)
        d = notion_value(mech, "delta", _ln(2)).value
        assert b >= max(F(0), 1 - d - 2 * a, (1 - d - a) / 2)


def _ln(t: int):
    from relations.numbers import Log, LogRatio

    return Log(LogRatio.of(F(t)))


def test_relations_1_and_3_are_equalities_on_randomized_response():
    """Binary RR with ratio t: f = f_{ln t, 0}, so relation 1 holds with equality, and tv = (t - 1)/(t + 1) =
    2 Phi(mu/2) - 1 (relation 3)."""
    for t in (F(2), F(3), F(9, 4)):
        s = 1 + t
        mech = Mechanism.local([[t / s, 1 / s], [1 / s, t / s]])
        mu = float(notion_value(mech, "gdp_mu"))
        assert mu == relation_1_bound(t)
        assert abs(delta_mu(mu, 0.0) - float((t - 1) / (t + 1))) < 1e-15


def test_relation_2_is_tight():
    """Dong et al., Cor. 2.13: gdp_mu is the least mu with delta(eps) <= delta_mu(eps) for all eps >= 0.  Where
    G_mu touches f at a vertex (a, b), its slope is -e^eps* with eps* = mu z - mu^2/2, z = Phi^-1(1 - a); at a
    rational eps near eps*, delta(eps) exceeds delta_mu'(eps) for mu' = mu (1 - 10^-4)."""
    for rows in ([["3/4", "1/4"], ["1/4", "3/4"]], [["1/2", "1/2"], ["3/4", "1/4"]],
                 [["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/8", "1/8", "3/4"]]):
        mech = Mechanism.local(rows)
        c = tradeoff_curve(mech, pointwise=False)
        mu = float(c.mu.value)
        best = None
        for p in c.breakpoints:
            if 0 < p.alpha < 1 and 0 < p.beta < 1:
                z = mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpmath.mpf(p.alpha.numerator) / p.alpha.denominator)
                term = z - mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(p.beta.numerator) / p.beta.denominator - 1)
                eps_star = mu * z - mu * mu / 2
                if abs(float(term) - mu) < 1e-9 and eps_star >= 0:
                    best = eps_star
        assert best is not None
        eps = F(mpmath.nstr(best, 20))
        d = float(notion_value(mech, "delta", eps))
        assert abs(d - delta_mu(mu, float(eps))) < 1e-9  # touching
        assert d > delta_mu(mu * (1 - 1e-4), float(eps))  # a smaller mu fails relation 2
