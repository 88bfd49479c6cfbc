"""The composition theorems as claims on repeated mechanisms (issue 45, item 4), against independent values.

Every bound is written out here from its published formula (Kairouz-Oh-Viswanath's sum for
binary randomized response, advanced composition, Renyi and zCDP additivity with their
conversions) with Fractions or mpmath; every conclusion is compared with the composed mechanism
expanded by hand into its ``m^k`` output sequences and measured as one mechanism.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction as F

import mpmath
import pytest
from conftest import run_cli
from test_composition import expanded_by_hand, krr, random_mechanism, same

from relations import Mechanism, check
from relations.catalogue._composition import (
    COMPOSITION_RELATIONS,
    CompositionRelation,
    CompositionRule,
    get_composition,
)
from relations.checking._composition import check_composition, composition_bound
from relations.kinds import Status
from relations.measures._notions import notion_result

DELTA = F(1, 100000)


def kov_profile(k: int, r: F) -> tuple[F, F]:
    """``delta(1)`` of ``k`` uses of binary RR with ratio ``r`` as ``A - B e``: the sum over ``i`` uses answering
    against ``x`` of ``C(k, i) (r^(k-i) - e r^i) / (1 + r)^k`` where ``(k - 2i) ln r > 1``."""
    a = b = F(0)
    for i in range(k + 1):
        if (k - 2 * i) * math.log(r) > 1 + 1e-9:  # never near 1 for the r used here
            a += math.comb(k, i) * r ** (k - i)
            b += math.comb(k, i) * r ** i
    return a / (1 + r) ** k, b / (1 + r) ** k


def kov_delta_at(k: int, r: F, t: F) -> F:
    """``delta(ln t)`` of ``k`` uses of binary RR with ratio ``r``, written out."""
    return sum((math.comb(k, i) * max(F(0), r ** (k - i) - t * r ** i) for i in range(k + 1)), F(0)) / (1 + r) ** k


@pytest.mark.parametrize("k,r", [(3, F(3)), (5, F(2)), (8, F(3, 2))])
def test_kov_profile_bound_is_the_closed_form(k, r):
    comp = krr(4, r).repeated(k)
    _, bound = composition_bound(get_composition("kov2017.repeat_profile"), comp)
    a, b = kov_profile(k, r * 1)  # 4-RR with ratio r is ln(r)-DP: the bound is binary RR's with the same ratio
    with mpmath.workdps(60):
        want = mpmath.mpf(a.numerator) / a.denominator - mpmath.mpf(b.numerator) / b.denominator * mpmath.e
        lo, hi = bound.enclose(150)
        assert mpmath.mpf(lo.numerator) / lo.denominator <= want + mpmath.mpf(10) ** -40
        assert want - mpmath.mpf(10) ** -40 <= mpmath.mpf(hi.numerator) / hi.denominator
        assert hi - lo < F(1, 10**30)


@pytest.mark.parametrize("k,r", [(3, F(3)), (6, F(2))])
def test_kov_eps_delta_bound_is_the_least_eps(k, r):
    comp = krr(3, r).repeated(k)
    _, bound = composition_bound(get_composition("kov2017.repeat_eps_delta"), comp)
    t = bound.log.ratio  # ln of an exact rational
    assert kov_delta_at(k, r, t) <= DELTA < kov_delta_at(k, r, t * (1 - F(1, 10**12)))


def test_advanced_rdp_zcdp_bounds_written_out():
    r, k = F(3), 7
    comp = krr(2, r).repeated(k)
    premise, adv = composition_bound(get_composition("drv2010.advanced"), comp)
    assert str(premise) == "ln(3)"
    with mpmath.workdps(50):
        eps = mpmath.log(3)
        want = eps * mpmath.sqrt(2 * k * mpmath.log(100000)) + k * eps * (mpmath.e ** eps - 1)
        lo, hi = adv.enclose(120)
        assert mpmath.mpf(lo.numerator) / lo.denominator <= want <= mpmath.mpf(hi.numerator) / hi.denominator
    # renyi(2) of binary RR with ratio 3: ln(sum P^2 / R) = ln((9/16)/(1/4) + (1/16)/(3/4)) = ln(7/3)
    total, rdp = composition_bound(get_composition("mironov2017.rdp_repeat"), comp)
    assert total.log.ratio == F(7, 3) ** k and rdp.log.ratio == F(7, 3) ** k / DELTA
    _, cks = composition_bound(get_composition("cks2020.rdp_repeat"), comp)
    assert cks.log.ratio == F(7, 3) ** k / (4 * DELTA)
    # rho of binary RR is its KL divergence (the supremum of renyi(alpha)/alpha is at alpha -> 1): ln(3)/2
    rho_k, zcdp = composition_bound(get_composition("bs2016.zcdp_repeat"), comp)
    with mpmath.workdps(50):
        rk = k * mpmath.log(3) / 2
        want = rk + 2 * mpmath.sqrt(rk * mpmath.log(100000))
        lo, hi = zcdp.enclose(120)
        assert mpmath.mpf(lo.numerator) / lo.denominator <= want <= mpmath.mpf(hi.numerator) / hi.denominator
        lo, hi = rho_k.enclose(120)
        assert mpmath.mpf(lo.numerator) / lo.denominator <= rk <= mpmath.mpf(hi.numerator) / hi.denominator


@pytest.mark.parametrize("seed", [1, 2])
def test_conclusions_match_brute_force_expansion(seed):
    mech = random_mechanism(seed, 3, 3)
    comp = mech.repeated(3)
    brute = expanded_by_hand([(mech, 3)])
    for o in check_composition(comp):
        assert o.status == Status.HOLDS, (o.relation.id, o.note)
        assert same(o.conclusion, notion_result(brute, o.relation.conclusion).value), o.relation.id


def test_heterogeneous_parts_use_the_largest_eps_and_the_sum_of_renyi():
    a, b = krr(2, F(3)), krr(2, F(2))
    from relations import compose

    comp = compose(a, b, counts=[2, 3])
    premise, _ = composition_bound(get_composition("drv2010.advanced"), comp)
    assert str(premise) == "ln(3)"
    total, rdp = composition_bound(get_composition("mironov2017.rdp_repeat"), comp)
    # renyi(2) of binary RR with ratio 2: ln((4/9)/(1/3) + (1/9)/(2/3)) = ln(3/2)
    assert total.log.ratio == F(7, 3) ** 2 * F(3, 2) ** 3
    brute = expanded_by_hand([(a, 2), (b, 3)])
    for o in check_composition(comp):
        assert o.status == Status.HOLDS, o.relation.id
        assert same(o.conclusion, notion_result(brute, o.relation.conclusion).value)


def test_optimal_composition_is_attained_by_binary_randomized_response():
    for o in check_composition(krr(2, F(3)).repeated(4))[:2]:
        assert o.status == Status.HOLDS and o.slack == 0, o.relation.id


def test_a_wrong_bound_fails_with_a_witness():
    """The check can fail: RDP additivity with no conversion term (``+ ln(1)``) is not a bound on eps_delta."""
    wrong = CompositionRelation("test.rdp_no_term", "wrong", "wrong", "renyi(2)", f"eps_delta({DELTA})", "test",
                                CompositionRule.RDP, F(1))
    (o,) = check_composition(krr(2, F(3)).repeated(2), [wrong])
    assert o.status == Status.FAILS and o.holds is False and o.witness is not None
    # written out: 2 ln(7/3) = ln(49/9) < eps_delta(10^-5) of two uses, which is near 2 ln 3 = ln 9
    assert o.bound.log.ratio == F(49, 9) and o.conclusion.log.ratio > F(49, 9)


def test_infinite_premise_holds_vacuously():
    comp = Mechanism.local([[1, 0], [F(1, 2), F(1, 2)]]).repeated(2)
    out = check_composition(comp)
    assert all(o.status == Status.HOLDS for o in out)
    # eps_d = inf (the first output only x = 0 gives); renyi(2) and rho of the pair (x = 1, x' = 0) are infinite too
    assert all("vacuously" in o.note and o.premise.infinite > 0 for o in out)


def test_api_check_of_a_composition():
    rr = krr(2, F(3))
    small = check(rr.repeated(3), ["eps_d <= ln(27)"])
    assert small.uses is not None and small.outcomes and small.claims[0].holds is True
    assert [o.relation.id for o in small.composition] == [r.id for r in COMPOSITION_RELATIONS]
    # 300 ln 3 = 329.58...; the profile at 10^-5 is above 1 nat
    big = check(krr(4, F(3)).repeated(300), ["eps_d <= 330", "eps_d <= 329", f"eps_delta({DELTA}) <= 1"])
    assert big.outcomes == () and [c.holds for c in big.claims] == [True, False, False]
    assert all(o.status == Status.HOLDS for o in big.composition)
    assert "composition theorems" in repr(big)


def test_cli_check_of_a_repeat_file(tmp_path):
    path = tmp_path / "rr.json"
    path.write_text(json.dumps({"setting": "local", "prior": "uniform", "repeat": 300,
                                "channel": [["1/2", "1/6", "1/6", "1/6"], ["1/6", "1/2", "1/6", "1/6"],
                                            ["1/6", "1/6", "1/2", "1/6"], ["1/6", "1/6", "1/6", "1/2"]]}))
    proc = run_cli("check", str(path), "--json", "--claim", "delta(1) <= 1")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["composition"]["uses"] == 300 and out["composition"]["measures_of"] == "one use"
    assert [r["status"] for r in out["composition_relations"]] == ["holds"] * len(COMPOSITION_RELATIONS)
    table = run_cli("check", str(path))
    assert table.returncode == 0 and "composition theorems: 300 uses" in table.stdout
