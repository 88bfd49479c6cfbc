"""Theorems about the notions, checked with hypothesis on random exact local mechanisms.

Each property is a theorem: maximal leakage >= min-entropy leakage >= 0 (Issa, Wagner, Kamath 2020);
delta(eps) nonincreasing in eps; eps_delta inverts the profile; rho <= eps_d^2 / 2 (Bun and Steinke 2016,
Prop. 3.3); kl <= rho (the limit of D_alpha / alpha at alpha -> 1); kl <= eps_d tanh(eps_d / 2);
renyi nondecreasing in alpha and renyi(2) <= eps_d.
"""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
from hypothesis import given, settings
from hypothesis import strategies as st

from relations import Mechanism
from relations.measures import measure
from relations.measures._notions import notion_value
from relations.numbers import Log, LogRatio, compare


@st.composite
def local_mechanisms(draw, positive=False):
    n = draw(st.integers(2, 3))
    m = draw(st.integers(2, 3))
    low = 1 if positive else 0
    rows = []
    for _ in range(n):
        w = [draw(st.integers(low, 6)) for _ in range(m)]
        if sum(w) == 0:
            w[0] = 1
        rows.append([F(v, sum(w)) for v in w])
    pw = [draw(st.integers(1, 5)) for _ in range(n)]
    return Mechanism.local(rows, prior=[F(v, sum(pw)) for v in pw])


def hi(real, bits=64):
    return real.enclose(bits)[1]


def lo(real, bits=64):
    return real.enclose(bits)[0]


@settings(max_examples=40, deadline=None)
@given(local_mechanisms())
def test_leakages_ordered(mech):
    ml, me = notion_value(mech, "maximal_leakage"), notion_value(mech, "min_entropy_leakage")
    assert compare(ml, me) >= 0 and me.log.ratio >= 1


@settings(max_examples=40, deadline=None)
@given(local_mechanisms(), st.integers(1, 20), st.integers(1, 20))
def test_profile_nonincreasing_and_inverted(mech, a, b):
    t1, t2 = F(min(a, b), 4) + 1, F(max(a, b), 4) + 1
    d1 = notion_value(mech, "delta", Log(LogRatio.of(t1))).value
    d2 = notion_value(mech, "delta", Log(LogRatio.of(t2))).value
    assert d1 >= d2 >= 0
    e = notion_value(mech, "eps_delta", d1)  # the smallest eps with delta(eps) <= d1 is at most ln(t1)
    assert e.log.sign == 0 and e.log.ratio <= t1
    assert notion_value(mech, "delta", e).value <= d1


@settings(max_examples=25, deadline=None)
@given(local_mechanisms(positive=True))
def test_zcdp_and_kl_bounds(mech):
    eps = measure(mech).eps_d.exact.ratio
    e = mpmath.log(mpmath.mpf(eps.numerator) / eps.denominator)
    rho, kl = notion_value(mech, "rho"), notion_value(mech, "kl")
    if not hasattr(rho, "enclose"):  # every pair identical: both are exactly 0
        return
    assert mpmath.mpf(lo(rho).numerator) / lo(rho).denominator <= e**2 / 2 + mpmath.mpf(10) ** -15
    assert lo(kl) <= hi(rho)
    assert mpmath.mpf(lo(kl).numerator) / lo(kl).denominator <= e * mpmath.tanh(e / 2) + mpmath.mpf(10) ** -15
    r2, r3 = notion_value(mech, "renyi(2)"), notion_value(mech, "renyi(3)")
    assert compare(r2, Log(LogRatio.of(eps))) <= 0 and lo(r2) <= hi(r3) and lo(kl) <= hi(r2)
