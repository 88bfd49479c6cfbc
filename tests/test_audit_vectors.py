"""Arrays of independent draws on the white-box route, kept factorised (relations.audit._vectors).

Expected budgets are derived by hand.  Unary encoding with q = 1 / (e^eps + 1) and the user's bit 1 with
probability 1/2 (OUE): eps_d = ln((1/2)/q) + ln((1 - q)/(1/2)) = ln((e^eps + 1)/2 * 2 e^eps/(e^eps + 1)) = eps.
The pure-ldp 1.1.2 bug (the user's bit drawn like the others, then set to 1 with probability 1/2) gives
coordinate probabilities (1 + q)/2 for the user's bit: eps_d = ln((1 + q)/(2q) * 2) = ln(1 + 1/q) = ln(e^eps + 2).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from relations.audit import audit
from relations.audit._enumerate import NotEnumerable
from relations.audit._exact import enumerate_channel
from relations.audit._vectors import merge_products

EPS = 1.0
Q = 1 / (math.exp(EPS) + 1)


def oue(x, rng, d=64):
    bits = (rng.random(d) < Q).astype(int)
    bits[x] = 1 if rng.random() < 0.5 else 0
    return bits


def oue_bug(x, rng, d=64):
    bits = (rng.random(d) < Q).astype(int)
    if rng.random() < 0.5:
        bits[x] = 1
    return bits


def sue(x, rng, d=64):
    p = math.exp(EPS / 2) / (math.exp(EPS / 2) + 1)
    thresholds = np.full(d, 1 - p)
    thresholds[x] = p
    return np.where(rng.random(d) < thresholds, 1, 0)


def test_unary_encoding_over_64_is_exact_by_factorising():
    report = audit(oue, domain=list(range(64)), eps=str(EPS))  # 2^64 outputs: only the factorised route can
    assert report.route == "white-box (factorised)" and report.verdict == "consistent" and report.bits == 64
    q = Fraction(Q)  # the binary value the code uses: eps_d = ln((1/2)/q * (1 - q)/(1/2)) = ln((1 - q)/q)
    assert report.eps_d_exact == f"ln({(1 - q) / q})"


def test_the_unary_encoding_bug_is_violated_with_its_exact_budget():
    report = audit(oue_bug, domain=list(range(16)), eps=str(EPS))
    assert report.verdict == "violated"
    q = Fraction(Q)
    assert report.eps_d_exact == f"ln({(1 + q) / q})"  # ln(e^eps + 2) for the exact q
    assert math.isclose(math.log(float((1 + q) / q)), math.log(math.e + 2), rel_tol=1e-12)


def test_threshold_vectors_and_where():
    """SUE: bit x is 1 with probability p = e^(eps/2)/(e^(eps/2)+1), the others with 1 - p; two coordinates
    differ between x and x', each contributing ln(p/(1 - p)): eps_d = 2 ln(p/(1 - p)) = eps."""
    report = audit(sue, domain=list(range(32)), eps=str(EPS))
    assert report.verdict == "consistent" and report.bits == 64
    p = Fraction(math.exp(EPS / 2) / (math.exp(EPS / 2) + 1))
    one_minus = Fraction(1 - math.exp(EPS / 2) / (math.exp(EPS / 2) + 1))  # the code's 1 - p, in floats
    assert report.eps_d_exact == f"ln({(p / one_minus) * ((1 - one_minus) / (1 - p))})"


def test_binomial_bits_equal_comparisons():
    """Past the path limit (2^40 > 10^6 element-by-element paths) binomial(1, p, size) is kept factorised, like
    the comparison of uniforms; a small array stays element by element, where the code may do anything."""
    e1 = enumerate_channel(lambda x, rng: rng.binomial(1, Fraction(1, 3), size=40) if x else
                           (rng.random(40) < Fraction(1, 3)).astype(int), [0, 1])
    assert e1.factorised.rows[0] == e1.factorised.rows[1] == tuple([Fraction(1, 3)] * 40)
    small = enumerate_channel(lambda x, rng: tuple(rng.integers(0, 2, size=3) ^ 1), [0])
    assert small.factorised is None and small.rows == [[Fraction(1, 8)] * 8]


def test_reading_a_bit_branches_and_agrees_with_element_by_element():
    """Code that looks at its bits is enumerated path by path: the same channel as small scalar draws."""
    def looks(x, rng):
        bits = rng.random(3) < Fraction(1, 4)
        return int(bits[0]) + int(bits[1]) + (x if bits[2] else 0)

    def scalar(x, rng):
        b = [rng.random() < Fraction(1, 4) for _ in range(3)]
        return int(b[0]) + int(b[1]) + (x if b[2] else 0)

    a, b = enumerate_channel(looks, [0, 1]), enumerate_channel(scalar, [0, 1])
    assert dict(zip(a.outputs, a.rows[1])) == dict(zip(b.outputs, b.rows[1]))


def test_a_mixture_that_does_not_factorise_is_refused():
    def coupled(x, rng):  # all bits 1 or all bits 0 together: not independent
        bits = (rng.random(10) < 0).astype(int)
        if rng.random() < 0.5:
            for i in range(10):
                bits[i] = 1
        return bits

    with pytest.raises(NotEnumerable, match="does not factorise"):
        enumerate_channel(coupled, [0, 1])
    assert merge_products([(Fraction(1, 2), (Fraction(1), Fraction(0))),
                           (Fraction(1, 2), (Fraction(0), Fraction(1)))]) is None


def test_float_thresholds_never_violate_a_correct_unary_encoding():
    for eps in (0.5, 2.0, 5.0):
        q = 1 / (math.exp(eps) + 1)

        def enc(x, rng, q=q):
            bits = (rng.random(8) < q).astype(int)
            bits[x] = 1 if rng.random() < 0.5 else 0
            return bits
        assert audit(enc, domain=list(range(8)), eps=str(eps)).verdict == "consistent", eps


def test_sums_of_bits_and_fair_integer_bits():
    """The count of ones among three fair bits is Binomial(3, 1/2): 1/8, 3/8, 3/8, 1/8 (by hand); integers(0, 2,
    size=40) are 40 fair bits, one path."""
    e = enumerate_channel(lambda x, rng: int((rng.random(3) < Fraction(1, 2)).sum()), [0])
    assert dict(zip(e.outputs, e.rows[0])) == {0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(3, 8),
                                               3: Fraction(1, 8)}
    bits = enumerate_channel(lambda x, rng: rng.integers(0, 2, size=40), [0])
    assert bits.runs == 1 and bits.factorised.rows[0] == tuple([Fraction(1, 2)] * 40)

    def shifted_count(x, rng):  # the count of 10 coins (p = 1/10) plus the input: output 0 is impossible for x = 1
        return int((rng.random(10) < Fraction(1, 10)).sum()) + x

    report = audit(shifted_count, domain=[0, 1], eps="5")
    assert report.verdict == "violated" and str(report.measures.eps_d.exact) == "inf"
    row0 = dict(zip(report.mechanism.outputs, report.mechanism.channel.exact[0]))
    assert row0["0"] == Fraction(9, 10) ** 10  # P(no coin) = (9/10)^10


def test_arithmetic_on_an_array_of_uniforms_is_refused_then_sampled():
    def scaled(x, rng):
        return (int((rng.random(3) * 4)[0]) + x) % 2

    with pytest.raises(NotEnumerable, match="arithmetic on an array"):
        enumerate_channel(scaled, [0, 1])
    with pytest.raises(NotEnumerable, match="log"):
        enumerate_channel(lambda x, rng: float(np.log(rng.random(2))[0]), [0, 1])
    report = audit(scaled, domain=[0, 1], eps="1", samples=4000)
    assert report.route == "black-box" and "arithmetic on an array" in report.route_reason


def test_rappor_where_with_arrays_of_bits_and_values():
    """RAPPOR's permanent randomized response: keep the one-hot truth with probability 1 - f, else a fair bit.
    P(1 | truth 1) = 1 - f/2 and P(1 | truth 0) = f/2, two coordinates differ between inputs:
    eps_d = 2 ln((1 - f/2)/(f/2)) = 2 ln((2 - f)/f), which is eps for f = 2/(e^(eps/2) + 1) (by hand)."""
    eps = 2.0
    f = 2 / (math.exp(eps / 2) + 1)

    def rappor(x, rng):
        truth = np.zeros(48, dtype=int)
        truth[x] = 1
        keep = rng.random(48) < 1 - f
        return np.where(keep, truth, rng.binomial(1, 0.5, size=48))

    report = audit(rappor, domain=[0, 1, 2], eps=str(eps))
    assert report.route == "white-box (factorised)" and report.verdict == "consistent" and report.bits == 48
    keep = 1 - Fraction(f)  # the code's float 1 - f, at its binary value
    p1, p0 = keep + (1 - keep) / 2, (1 - keep) / 2
    assert report.eps_d_exact == f"ln({(p1 / p0) * ((1 - p0) / (1 - p1))})"
    with pytest.raises(NotEnumerable, match="numpy's where on an array of 30 random bits"):
        enumerate_channel(lambda x, rng: np.where(rng.random(30) < 0.5, 2, 0), [0])


def test_flips_keep_bits_factorised():
    """~bits, 1 - bits and np.logical_not are bijections of the output: unary encoding with q = 1/4 and the
    user's bit at 1/2 keeps eps_d = ln((1/2)/(1/4)) + ln((3/4)/(1/2)) = ln 3 at d = 64, factorised."""
    import numpy as np

    def written(flip):
        def mech(x, rng):
            bits = rng.random(size=64) < 0.25
            bits[x] = rng.random() < 0.5
            return flip(bits)
        return mech

    for flip in (lambda b: ~b, lambda b: 1 - b.astype(int), np.logical_not, lambda b: b == 0):
        report = audit(written(flip), domain=[0, 1, 2, 3], eps="ln(3)")
        assert report.route == "white-box (factorised)" and report.eps_d_exact == "ln(3)"


def test_other_operations_read_small_vectors_one_by_one():
    """np.where with k-ary branches (3 reports, each the truth with probability 1/2 else uniform on 4 values:
    P(x) = 5/8, P(other) = 1/8, so eps_d = 3 ln 5 = ln 125) and np.flatnonzero (a bijection of 4 bits: ln 3)
    are answered exactly by reading the bits; 64 bits read one by one are refused with the reason."""
    import numpy as np

    def kary(x, rng):
        noise = rng.integers(0, 4, size=3)
        keep = rng.random(size=3) < 0.5
        return tuple(int(v) for v in np.where(keep, x, noise))

    def support(x, rng):
        bits = rng.random(size=4) < 0.25
        bits[x] = rng.random() < 0.5
        return tuple(int(i) for i in np.flatnonzero(bits))

    assert str(audit(kary, domain=[0, 1, 2, 3], eps="ln(125)").measures.eps_d.exact) == "ln(125)"
    assert str(audit(support, domain=[0, 1, 2, 3], eps="ln(3)").measures.eps_d.exact) == "ln(3)"

    def wide(x, rng):
        return tuple(int(i) for i in np.flatnonzero(rng.random(size=64) < 0.25))

    with pytest.raises(NotEnumerable, match="64 random bits"):
        audit(wide, domain=[0, 1])


def test_tolist_stays_factorised_and_long_iteration_is_refused_at_once():
    """SUE over d = 40 returned as bits.tolist(): 40 independent bits, p = e^(1/2) / (1 + e^(1/2)) for the
    user's bit and 1 - p for the others, so eps_d = 2 ln(p / (1 - p)) = 1 (by hand; within rounding).  It was
    read bit by bit, 10^6 paths, then sampled (141 s, inconclusive).  Iterating over 40 random bits is refused
    at once."""
    def sue(x, rng):
        p = math.exp(0.5) / (1 + math.exp(0.5))
        bits = rng.random(40) < 1 - p
        bits[x] = rng.random() < p
        return bits.tolist()

    report = audit(sue, domain=[0, 1, 2], eps="1")
    assert report.route == "white-box (factorised)" and report.verdict == "consistent" and report.bits == 40
    assert abs(report.eps_d_value - 1) < 1e-9
    with pytest.raises(NotEnumerable, match="iterating over an array of 40 random bits"):  # not "more than N paths"
        enumerate_channel(lambda x, rng: tuple(int(b) for b in rng.random(40) < 0.5), [0])
