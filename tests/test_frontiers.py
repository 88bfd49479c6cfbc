"""Known frontiers (relations.pipeline._frontiers) against independent computations.

* the closed form ``c - 1 - ln c`` against a numerical maximum over theta of the Bernoulli KL
  (scipy) and against mpmath at 50 digits (the certified enclosure must contain it);
* the subset-selection identity ``I = D(Bern(theta t / (theta t + 1 - theta)) || Bern(theta))``
  against the tool's certified ``I`` of the mechanism;
* the upper bound: random full-support local mechanisms never exceed ``F(eps_d)``;
* the suprema of ``F / bound`` at the ends, evaluated numerically here;
* verify's JSON carries the frontier for the relations that have one.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
from hypothesis import HealthCheck, given, settings

from relations import measure
from relations.catalogue import BY_ID, get
from relations.mechanisms._local import krr, product, subset_selection
from relations.pipeline._frontiers import (
    bernoulli_kl,
    frontier_for,
    local_mi_sup,
    local_mi_sup_float,
    maximiser,
)
from relations.search.strategies import local_mechanisms

ROOT = Path(__file__).resolve().parents[1]


def _kl_max(eps: float) -> tuple[float, float]:
    """max over theta of D(Bern(theta e^eps / s) || Bern(theta)), s = theta e^eps + 1 - theta, by scipy."""
    # imported by the tests that use it, not at collection (0.8 s of CPU in each xdist worker)
    from scipy.optimize import minimize_scalar

    def neg(theta):
        p = theta * math.exp(eps) / (theta * math.exp(eps) + 1 - theta)
        return -(p * math.log(p / theta) + (1 - p) * math.log((1 - p) / (1 - theta)))
    res = minimize_scalar(neg, bounds=(1e-12, 1 - 1e-12), method="bounded", options={"xatol": 1e-12})
    return -res.fun, res.x


@pytest.mark.parametrize("eps", [0.05, 0.5, 1.0, math.log(3), 4.0, 8.0])
def test_closed_form_is_the_maximum_over_theta(eps):
    best, theta = _kl_max(eps)
    assert local_mi_sup_float(eps) == pytest.approx(best, rel=1e-9, abs=1e-13)
    assert maximiser(eps) == pytest.approx(theta, rel=1e-4)


@pytest.mark.parametrize("ratio", [Fraction(3, 2), Fraction(3), Fraction(10), Fraction(1000)])
def test_certified_enclosure_contains_mpmath(ratio):
    mpmath.mp.dps = 50
    eps = mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)
    c = eps / (1 - mpmath.exp(-eps))
    value = c - 1 - mpmath.log(c)
    lo, hi = local_mi_sup(ratio)
    assert mpmath.mpf(lo.numerator) / lo.denominator <= value <= mpmath.mpf(hi.numerator) / hi.denominator
    assert hi - lo < Fraction(1, 10**30)


@pytest.mark.parametrize("k,s,ratio", [(5, 2, Fraction(3)), (6, 2, Fraction(3)), (7, 1, Fraction(10)),
                                       (8, 3, Fraction(5, 2))])
def test_subset_selection_identity(k, s, ratio):
    theta, t = s / k, float(ratio)
    expected = bernoulli_kl(theta * t / (theta * t + 1 - theta), theta)
    enc = measure(subset_selection(k, s, ratio)).eps_m.enclosure
    assert float(enc.lower) - 1e-12 <= expected <= float(enc.upper) + 1e-12
    assert expected < local_mi_sup_float(math.log(t))  # a fixed k stays strictly below the frontier


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(local_mechanisms(max_inputs=5, max_outputs=5, zeros=False))
def test_no_local_mechanism_exceeds_the_frontier(mech):
    res = measure(mech)
    eps = res.eps_d.value
    assert float(res.eps_m.enclosure.lower) <= local_mi_sup_float(eps) + 1e-12


def test_suprema_of_the_ratio_match_the_ends():
    eps_big, eps_small = 1e5, 1e-4
    sharp = frontier_for(get("relations.thm11_sharp"), quick=True)
    assert sharp.sup_ratio == 1.0 and not sharp.attained
    assert 0.99 < local_mi_sup_float(eps_big) / eps_big < 1
    kl = frontier_for(get("drv2010.kl"), quick=True)
    assert kl.sup_ratio == pytest.approx(local_mi_sup_float(eps_small) / (eps_small * math.expm1(eps_small)), rel=1e-3)
    paper = frontier_for(get("zheng2025.thm11"), quick=True)
    assert paper.sup_ratio == pytest.approx(0.5)


def test_attained_frontiers_are_equalities():
    group = frontier_for(get("dworkroth2014.group"))
    assert group.attained
    m = product(krr(3, 2), records=3)
    res = measure(m)
    from relations.measures._api import eps_all
    assert eps_all(m).value == pytest.approx(3 * res.eps_d.value)
    assert frontier_for(get("zheng2025.thm3")).attained
    assert frontier_for(get("zheng2025.eq18")).attained


def test_verdicts_carry_the_frontier():
    verdicts = {v["id"]: v for v in json.loads((ROOT / "proofs" / "verdicts.json").read_text())}
    for rid in ("relations.thm11_sharp", "relations.thm7_sharp", "cuffyu2016.density", "drv2010.kl"):
        f = verdicts[rid]["frontier"]
        assert f is not None and f["points"]
        for p in f["points"]:
            ratio = Fraction(p["eps"][3:-1])
            assert p["best_found"] <= local_mi_sup_float(math.log(ratio)) + 1e-12
            assert p["share_of_frontier"] > 0.99
    for rid, v in verdicts.items():
        if v["verdict"] == "refuted":
            assert v["frontier"] is None
        if BY_ID[rid].kind == "non-implication":
            assert v["frontier"] is None


def test_the_written_leading_terms_are_sympys_limits():
    """The frontier's leading terms at 0 and infinity are written as constants (verify does not pay sympy's
    limits each run); sympy's limits find the same expressions, and they are leading terms: the ratio of
    ``F(eps) = c - 1 - ln c`` to each, evaluated by mpmath, tends to 1 at its end."""
    from relations.pipeline._frontiers import _derived_leading_terms, _leading_terms

    assert _derived_leading_terms() == _leading_terms()

    def f(x):
        c = x / (1 - mpmath.exp(-x))
        return c - 1 - mpmath.log(c)

    with mpmath.workdps(60):
        assert abs(f(mpmath.mpf("1e-8")) / (mpmath.mpf("1e-8") ** 2 / 8) - 1) < 1e-6
        assert abs(f(mpmath.mpf("1e8")) / mpmath.mpf("1e8") - 1) < 1e-6
