"""optimize: the exact LP vertex, certified by an exact dual, against closed forms and independent checks."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from relations.measures._dense import eps_d, eps_i
from relations.numbers._logs import LogRatio
from relations.tradeoffs._certify import certify
from relations.tradeoffs._optimal import _lp, optimal_dp, optimal_id


@pytest.mark.parametrize("k, t", [(2, 3), (3, 2), (5, 4), (8, 3), (16, 7), (32, 2)])
def test_uniform_prior_hamming_optimum_is_krr(k, t):
    """Kairouz, Oh and Viswanath (2016): under a uniform prior and Hamming loss, k-RR with ratio t is
    optimal among t-LDP mechanisms; its distortion is (k-1)/(t+k-1)."""
    o = optimal_dp([Fraction(1, k)] * k, f"ln({t})")
    assert o.certified and o.mixing == 0
    assert o.distortion == Fraction(k - 1, t + k - 1)
    assert eps_d(o.mechanism).exact <= LogRatio.of(Fraction(t))


def test_skewed_priors_certified_and_within_budget():
    rng = random.Random(3)
    certified = 0
    for _ in range(12):
        k = rng.randint(2, 6)
        w = [rng.randint(1, 9) for _ in range(k)]
        prior = [Fraction(v, sum(w)) for v in w]
        t = rng.choice([2, 3, 5, Fraction(3, 2)])
        for notion, solve, measure in (("dp", optimal_dp, eps_d), ("id", optimal_id, eps_i)):
            if notion == "id" and max(prior) / min(prior) > t:
                continue
            o = solve(prior, f"ln({t})")
            assert measure(o.mechanism).exact <= LogRatio.of(Fraction(t))
            # the float LP optimum and the exact distortion agree; certified ones equal it to rounding
            assert abs(float(o.distortion) - o.value) < 1e-7
            certified += o.certified
    assert certified >= 10


def test_the_certificate_does_not_trust_the_solver():
    """HiGHS's duals and solution are hints: a wrong dual is re-derived exactly from the vertex (the
    same certified answer) or refused, never passed on; the exact checker refuses wrong duals; a
    primal that is not optimal has no certificate."""
    from relations.tradeoffs._certify import _dual_ok

    _, _, (a, low, d) = _lp(np.array([0.5, 0.5]), 1 - np.eye(2), 3.0, False, duals=True)
    hamming = [[Fraction(0), Fraction(1)], [Fraction(1), Fraction(0)]]
    half = [Fraction(1, 2)] * 2
    good = certify(half, hamming, Fraction(3), False, (a, low, d))
    assert good is not None and good[1] == Fraction(1, 4)  # by hand: binary RR at ratio 3, (k-1)/(t+k-1)
    for wrong in (a * 1.5, a + np.array([0.1, -0.1])):
        assert certify(half, hamming, Fraction(3), False, (wrong, low, d)) in (None, good)
    # C = p L = [[0, 1/2], [1/2, 0]] as integers over 2; the optimal dual is a = (1/8, 1/8)
    cost = np.array([[0, 1], [1, 0]], dtype=object)
    assert _dual_ok([Fraction(1, 8)] * 2, cost, 2, Fraction(3))
    # column 0 has sum R + 2 min(R, 0) = 1/8 - 3/8 < 0, and 10/40 - 18/40 < 0
    assert not _dual_ok([Fraction(3, 16)] * 2, cost, 2, Fraction(3))
    assert not _dual_ok([Fraction(9, 40), Fraction(1, 40)], cost, 2, Fraction(3))
    # a primal that is not optimal: the uniform channel (distortion 1/2 > 1/4) has no matching dual
    assert certify(half, hamming, Fraction(3), False, (a, np.full(2, 0.5), np.zeros((2, 2)))) is None
    # a primal that breaks a row sum: refused, or its vertex recovered exactly
    assert certify(half, hamming, Fraction(3), False, (a, low * 1.01, d)) in (None, good)


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 13), st.integers(1, 9), st.sampled_from([Fraction(5, 4), Fraction(3, 2), 2, 3, 7, 1000]))
def test_tiny_priors_are_certified(digits, a, t):
    """A binary prior (p, 1 - p) with p = a 10^-digits and Hamming loss: the vertices of the 2x2
    t-LDP polytope are the two constant channels and the two randomized responses (by hand), so the
    optimum is min(p, 1 - p, 1/(1 + t)). Certified exactly, however far apart the prior's entries."""
    p = Fraction(a, 10**digits)
    o = optimal_dp([p, 1 - p], f"ln({t})")
    assert o.certified and o.mixing == 0
    assert o.distortion == min(p, 1 - p, Fraction(1, 1 + Fraction(t)))
    assert eps_d(o.mechanism).exact <= LogRatio.of(Fraction(t))


@pytest.mark.parametrize("prior, t", [
    ([Fraction(1, 10**6), Fraction(1, 2), Fraction(499999, 10**6)], 10**6),
    ([Fraction(1, 10**7), Fraction(1, 10**7), Fraction(1, 2), Fraction(4999998, 10**7)], Fraction(5, 4)),
    ([Fraction(1, 10**8), Fraction(1, 10**6), Fraction(1, 10**4), Fraction(1, 100), Fraction(98989899, 10**8)], 2)])
def test_skewed_priors_far_apart_are_certified(prior, t):
    """Priors whose entries span many orders of magnitude: the vertex is solved exactly from its active
    constraints; the budget is re-measured exactly and the distortion agrees with HiGHS's float optimum."""
    from relations.tradeoffs._utility import expected_distortion

    for notion, solve, measure in (("dp", optimal_dp, eps_d), ("id", optimal_id, eps_i)):
        if notion == "id" and max(prior) / min(prior) > t:
            continue
        o = solve(prior, f"ln({t})")
        assert o.certified, notion
        assert measure(o.mechanism).exact <= LogRatio.of(Fraction(t))
        assert expected_distortion(o.mechanism, "hamming") == o.distortion
        assert abs(float(o.distortion) - o.value) <= 1e-9 * max(o.value, 1e-300) + 1e-15


@pytest.mark.parametrize("k, t", [(64, 3), (128, 5), (200, 2)])
def test_large_uniform_priors_certify_krr(k, t):
    o = optimal_dp([Fraction(1, k)] * k, f"ln({t})")
    assert o.certified and o.distortion == Fraction(k - 1, t + k - 1)
    q = o.mechanism.channel.exact
    assert all(q[x][x] == Fraction(t, t + k - 1) for x in range(k))


def test_an_irrational_ratio_is_not_certified():
    o = optimal_dp(["1/2", "1/2"], "1")  # e^1 is irrational: the rounded, budget-checked mechanism
    assert not o.certified


@pytest.mark.parametrize("scale", ["1", "1/1000000", "1/100000000"])
def test_the_optimum_does_not_depend_on_the_loss_scale(scale):
    """HiGHS's dual tolerance is absolute: with losses near 1e-8 an unnormalised objective stopped at a
    vertex 3x worse than the optimum (review of ed1cac2).  The optimum of c L is c times that of L."""
    prior = [Fraction(7, 11), Fraction(2, 11), Fraction(2, 11)]
    base = [[4, 2, 3], [1, 1, 0], [0, 4, 1]]
    ref = optimal_dp(prior, "ln(4)", loss=base)
    assert ref.certified
    c = Fraction(scale)
    o = optimal_dp(prior, "ln(4)", loss=[[str(v * c) for v in row] for row in base])
    # certified too: the duals are rationalised in units of the largest |p(x) L[x][y]|
    assert o.certified and o.distortion == ref.distortion * c
    assert eps_d(o.mechanism).exact <= LogRatio.of(Fraction(4))


def test_a_ratio_below_one_after_the_safety_margin_is_refused():
    """eps = 5e-10 (t'' = t(1 - 2^-30) < 1): every column is clamped constant, so the built mechanism's
    ratio is max/min of w(x)/s_x, the prior's own ratio; above t it must be refused, not returned."""
    import math

    from relations.tradeoffs._certify import within_budget
    from relations.tradeoffs._inputs import budget_of, prior_of
    from relations.tradeoffs._optimal import _rational_below

    d = Fraction(249875, 10**15) / 2
    prior = prior_of([Fraction(1, 2) + d, Fraction(1, 2) - d], "id")
    bound, e = budget_of("5e-10", "id", prior)
    t = _rational_below(bound, e)
    assert t < max(prior) / min(prior) and t * (1 - Fraction(1, 1 << 30)) < 1
    _, _, sol = _lp(np.array([float(v) for v in prior]), 1 - np.eye(2), math.exp(e), True, duals=True)
    hamming = [[Fraction(0), Fraction(1)], [Fraction(1), Fraction(0)]]
    assert within_budget(prior, hamming, t, True, sol) is None
    o = optimal_id(prior, "5e-10")
    from relations.checking import check

    assert check(o.mechanism, ["eps_i<=5e-10"]).claims[0].holds is True


@pytest.mark.parametrize("eps", ["12", "16"])
def test_identifiability_at_large_budgets_is_built_not_mixed(eps):
    o = optimal_id(["1/6", "1/3", "1/2"], eps)
    assert o.mixing == 0
    from relations.checking import check

    assert check(o.mechanism, [f"eps_i<={eps}"]).claims[0].holds is True
