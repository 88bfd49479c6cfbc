"""optimize: the exact LP vertex, certified by an exact dual, against closed forms and independent checks."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from relations.measures.dense import eps_d, eps_i
from relations.numbers.logs import LogRatio
from relations.tradeoffs.certify import certify
from relations.tradeoffs.optimal import _lp, optimal_dp, optimal_id


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


def test_a_wrong_dual_is_not_a_certificate():
    _, _, (a, low, d) = _lp(np.array([0.5, 0.5]), 1 - np.eye(2), 3.0, False, duals=True)
    hamming = [[Fraction(0), Fraction(1)], [Fraction(1), Fraction(0)]]
    half = [Fraction(1, 2)] * 2
    assert certify(half, hamming, Fraction(3), False, (a, low, d)) is not None
    assert certify(half, hamming, Fraction(3), False, (a * 1.5, low, d)) is None  # wrong objective
    # the same objective, but not dual feasible: column 0 has sum R + 2 min(R, 0) = -0.2 < 0
    assert certify(half, hamming, Fraction(3), False, (a + np.array([0.1, -0.1]), low, d)) is None
    # a primal that is not optimal: the uniform channel (distortion 1/2 > 1/4) has no matching dual
    assert certify(half, hamming, Fraction(3), False, (a, np.full(2, 0.5), np.zeros((2, 2)))) is None
    # nor is a primal that breaks a row sum
    assert certify(half, hamming, Fraction(3), False, (a, low * 1.01, d)) is None


@pytest.mark.parametrize("k, t", [(64, 3), (128, 5), (200, 2)])
def test_large_uniform_priors_certify_krr(k, t):
    o = optimal_dp([Fraction(1, k)] * k, f"ln({t})")
    assert o.certified and o.distortion == Fraction(k - 1, t + k - 1)
    q = o.mechanism.channel.exact
    assert all(q[x][x] == Fraction(t, t + k - 1) for x in range(k))


def test_an_irrational_ratio_is_not_certified():
    o = optimal_dp(["1/2", "1/2"], "1")  # e^1 is irrational: the rounded, budget-checked mechanism
    assert not o.certified
