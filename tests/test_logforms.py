"""Exact signs of linear forms in logarithms, and the ties they decide in ``check``.

The reference for a form ``sum c_i ln q_i`` is independent of the coprime basis:
with ``D`` the common denominator of the ``c_i``, its sign is the sign of
``prod q_i^(D c_i) - 1``, an exact rational computation.
"""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from relations import Mechanism, check
from relations.catalogue import BY_ID
from relations.kinds import Status
from relations.mechanisms import randomized_response
from relations.numbers import coprime_basis, log_form_sign

POSITIVE = st.fractions(min_value=Fraction(1, 50), max_value=50, max_denominator=60)
COEFF = st.fractions(min_value=-6, max_value=6, max_denominator=6)


def reference_sign(form) -> int:
    d = 1
    for c, _ in form:
        d = d * Fraction(c).denominator // math.gcd(d, Fraction(c).denominator)
    product = Fraction(1)
    for c, q in form:
        product *= Fraction(q) ** int(c * d)
    return (product > 1) - (product < 1)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 10**6), max_size=8))
def test_coprime_basis_is_pairwise_coprime_and_spans(numbers):
    basis = coprime_basis(numbers)
    assert all(b > 1 for b in basis)
    assert all(math.gcd(a, b) == 1 for i, a in enumerate(basis) for b in basis[i + 1:])
    for n in numbers:
        for b in basis:
            while n % b == 0:
                n //= b
        assert n == 1


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(COEFF, POSITIVE), max_size=6))
def test_sign_matches_the_rational_reference(form):
    assert log_form_sign(form) == reference_sign(form)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(COEFF, POSITIVE), min_size=1, max_size=5), st.integers(2, 6))
def test_rewritten_forms_are_equal(form, k):
    # ln(q^k) = k ln q: the same number written twice, so the difference is exactly 0.
    powered = [(c / k, q**k) for c, q in form]
    difference = list(form) + [(-c, q) for c, q in powered]
    assert log_form_sign(difference) == 0


@settings(max_examples=25, deadline=None)
@given(st.fractions(min_value=Fraction(11, 10), max_value=40, max_denominator=20))
def test_binary_randomized_response_attains_kl_tanh_exactly(ratio):
    # By hand: D(Q[0] || Q[1]) = (t - 1)/(t + 1) ln t = eps tanh(eps/2) at eps = ln t, a tie.
    outcome = next(o for o in check(randomized_response(ratio), relations=[BY_ID["relations.kl_tanh"]]).outcomes)
    assert outcome.status == Status.HOLDS, outcome.note
    assert outcome.slack == 0.0


def test_the_tie_is_decided_for_datasets_too():
    third = Fraction(1, 3)
    mech = Mechanism.product([[2 * third, third], [third, 2 * third]], records=2)
    outcome = next(o for o in check(mech, relations=[BY_ID["relations.kl_tanh"]]).outcomes)
    assert outcome.status == Status.HOLDS, outcome.note


def test_a_nonbinary_channel_is_strictly_inside():
    # 3-RR with ratio 2: D = (1/2) ln 2 + (1/4) ln(1/2) = (1/4) ln 2 < (1/3) ln 2 = eps tanh(eps/2).
    mech = Mechanism.local([["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/4", "1/4", "1/2"]])
    outcome = next(o for o in check(mech, relations=[BY_ID["relations.kl_tanh"]]).outcomes)
    assert outcome.status == Status.HOLDS
    assert abs(outcome.slack - math.log(2) / 12) < 1e-12


@settings(max_examples=15, deadline=None)
@given(st.fractions(min_value=Fraction(11, 10), max_value=40, max_denominator=20))
def test_binary_randomized_response_attains_the_zcdp_constant(ratio):
    # rho of binary RR is its KL (the supremum is the limit alpha -> 1), which equals eps tanh(eps/2).
    outcome = next(o for o in check(randomized_response(ratio),
                                    relations=[BY_ID["relations.dp_zcdp_tanh"]]).outcomes)
    assert outcome.status == Status.HOLDS, outcome.note
    assert outcome.slack == 0.0


def test_rho_above_kl_is_not_taken_for_kl():
    # P = (1/2, 1/2), R = (99/100, 1/100): V/2 > KL, so D_alpha/alpha rises past alpha = 1 and rho > KL.
    from relations.measures._zcdp import rho_is_kl, rho_pair

    p, q = [Fraction(1, 2), Fraction(1, 2)], [Fraction(99, 100), Fraction(1, 100)]
    kl = 0.5 * math.log(0.5 / 0.99) + 0.5 * math.log(50)
    assert not rho_is_kl(p, q)
    assert float(rho_pair(p, q, 30)[0]) > kl + 1e-3


def test_profile_tie_is_decided():
    # delta(1) of binary RR with ratio 3 is (3 - e)/4, exactly the bound (e^eps - e)/(1 + e^eps).
    outcome = next(o for o in check(randomized_response(3), relations=[BY_ID["kov2017.dp_profile"]]).outcomes)
    assert outcome.status == Status.HOLDS, outcome.note
    assert abs(float(outcome.conclusion) - (3 - math.e) / 4) < 1e-12
