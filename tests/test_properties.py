"""Property tests: the fast (vectorised, float-screened) measures against brute force, and invariances.

The brute force (tests/bruteforce.py) enumerates every ordered neighbour pair
and output in Fractions; it shares no code with the package.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
from bruteforce import (
    assert_contains,
    assert_contains_float,
    brute_all,
    edges_dict,
    hamming_dict,
    hamming_pairs,
    local_dict,
    local_pairs,
    mi_mpmath,
    mi_numpy,
    overlap,
    permute,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_strategies import channels, check_budget, distributions, edge_cases, examples, hamming_cases, local_cases

import relations

RATIOS = ("eps_d", "eps_i", "sigma_min")


def check_against_bruteforce(mech, prior, channel, pairs):
    m = relations.measure(mech)
    brute = brute_all(prior, channel, pairs)
    for key in RATIOS:
        check_budget(getattr(m, key), brute[key])
    return m


# --------------------------------------------------------------------------- brute force


@settings(max_examples=examples(60))
@given(hamming_cases())
def test_hamming_matches_bruteforce(case):
    k, r, prior, channel = case
    check_against_bruteforce(relations.from_dict(hamming_dict(prior, channel, k, r)), prior, channel,
                             hamming_pairs(k, r))


@settings(max_examples=examples(40))
@given(hamming_cases(tiny=True))
def test_hamming_with_subnormal_entries_matches_bruteforce(case):
    """Entries that underflow (or whose products underflow) in float64 force the exact fallback."""
    k, r, prior, channel = case
    check_against_bruteforce(relations.from_dict(hamming_dict(prior, channel, k, r)), prior, channel,
                             hamming_pairs(k, r))


@settings(max_examples=examples(50))
@given(edge_cases(tiny=False) | edge_cases(tiny=True))
def test_edge_list_matches_bruteforce(case):
    prior, channel, edges = case
    check_against_bruteforce(relations.from_dict(edges_dict(prior, channel, edges)), prior, channel, edges)


@settings(max_examples=examples(50))
@given(local_cases(tiny=False) | local_cases(tiny=True))
def test_local_matches_bruteforce(case):
    prior, channel = case
    check_against_bruteforce(relations.from_dict(local_dict(prior, channel)), prior, channel,
                             local_pairs(len(prior)))


@settings(max_examples=examples(30))
@given(st.data())
def test_hamming_with_single_record_equals_local(data):
    """``D^1`` is the local setting over ``D``: every two distinct values are neighbours."""
    k = data.draw(st.integers(2, 5))
    m = data.draw(st.integers(1, 4))
    prior, channel = data.draw(distributions(k)), data.draw(channels(k, m))
    central = relations.measure(relations.from_dict(hamming_dict(prior, channel, k, 1)))
    local = relations.measure(relations.from_dict(local_dict(prior, channel)))
    for key in RATIOS:
        assert getattr(central, key).exact == getattr(local, key).exact


def test_single_value_domain_has_no_neighbours():
    """k = 1: D^r is a single dataset; nothing to compare, every budget 0 with no witness."""
    for r in (1, 3):
        m = relations.measure(relations.from_dict(hamming_dict([Fraction(1)], [[Fraction(1, 3), Fraction(2, 3)]], 1, r)))
        for key in RATIOS:
            check_budget(getattr(m, key), (None, set()))
        assert m.eps_m.enclosure.lower == m.eps_m.enclosure.upper == 0


# --------------------------------------------------------------------------- invariances


def exact_values(m):
    return tuple(getattr(m, key).exact for key in RATIOS)


@settings(max_examples=examples(40))
@given(st.data())
def test_local_relabelling_invariant(data):
    prior, channel = data.draw(local_cases(nmin=2, nmax=5, mmax=4))
    n, mm = len(prior), len(channel[0])
    rows = data.draw(st.permutations(range(n)))
    cols = data.draw(st.permutations(range(mm)))
    p2 = permute(prior, rows)
    q2 = [permute(channel[i], cols) for i in rows]
    a = relations.measure(relations.from_dict(local_dict(prior, channel)))
    b = relations.measure(relations.from_dict(local_dict(p2, q2)))
    assert exact_values(a) == exact_values(b)
    assert overlap(a.eps_m.enclosure, b.eps_m.enclosure)
    # the relabelled witness is the image of an attaining triple: its ratio is the same value
    w = b.eps_d.witness
    if w is not None and a.eps_d.exact.is_finite:
        assert q2[w.x][w.y] / q2[w.x_prime][w.y] == a.eps_d.exact.ratio


@settings(max_examples=examples(40))
@given(st.data())
def test_central_output_permutation_invariant(data):
    if data.draw(st.booleans()):
        k, r, prior, channel = data.draw(hamming_cases())
        build = lambda q: hamming_dict(prior, q, k, r)  # noqa: E731
    else:
        prior, channel, edges = data.draw(edge_cases())
        build = lambda q: edges_dict(prior, q, edges)  # noqa: E731
    cols = data.draw(st.permutations(range(len(channel[0]))))
    a = relations.measure(relations.from_dict(build(channel)))
    b = relations.measure(relations.from_dict(build([permute(row, cols) for row in channel])))
    assert exact_values(a) == exact_values(b)
    assert overlap(a.eps_m.enclosure, b.eps_m.enclosure)


@settings(max_examples=examples(30))
@given(st.data())
def test_central_domain_relabelling_invariant(data):
    """Permuting the domain values (the same way in every record) permutes the datasets of ``D^r``
    by an automorphism of the Hamming graph: nothing changes."""
    k, r, prior, channel = data.draw(hamming_cases())
    sigma = data.draw(st.permutations(range(k)))
    n = k**r

    def image(i):  # dataset i with every record d replaced by sigma[d]
        out = 0
        for j in range(r - 1, -1, -1):
            d = (i // k**(r - 1 - j)) % k
            out += sigma[d] * k**(r - 1 - j)
        return out

    inv = [0] * n
    for i in range(n):
        inv[image(i)] = i
    a = relations.measure(relations.from_dict(hamming_dict(prior, channel, k, r)))
    b = relations.measure(relations.from_dict(hamming_dict(permute(prior, inv), permute(channel, inv), k, r)))
    assert exact_values(a) == exact_values(b)


def split_column(channel, c, t):
    """Replace column ``c`` by the two proportional columns ``t * col`` and ``(1 - t) * col``."""
    return [row[:c] + [t * row[c], (1 - t) * row[c]] + row[c + 1:] for row in channel]


@settings(max_examples=examples(40))
@given(st.data())
def test_merging_proportional_columns_keeps_eps_d(data):
    kind = data.draw(st.sampled_from(["local", "hamming", "edges"]))
    if kind == "local":
        prior, channel = data.draw(local_cases(nmin=2))
        build = lambda q: local_dict(prior, q)  # noqa: E731
    elif kind == "hamming":
        k, r, prior, channel = data.draw(hamming_cases(mmax=3))
        build = lambda q: hamming_dict(prior, q, k, r)  # noqa: E731
    else:
        prior, channel, edges = data.draw(edge_cases())
        build = lambda q: edges_dict(prior, q, edges)  # noqa: E731
    c = data.draw(st.integers(0, len(channel[0]) - 1))
    t = Fraction(data.draw(st.integers(1, 99)), 100)
    merged = relations.measure(relations.from_dict(build(channel)))
    split = relations.measure(relations.from_dict(build(split_column(channel, c, t))))
    assert merged.eps_d.exact == split.eps_d.exact
    # the same ratios appear, so eps_i too; Y -> merged Y loses no information about X here
    assert merged.eps_i.exact == split.eps_i.exact
    assert overlap(merged.eps_m.enclosure, split.eps_m.enclosure)


@settings(max_examples=examples(50))
@given(st.data())
def test_sigma_min_nonpositive_and_zero_iff_flat_prior(data):
    kind = data.draw(st.sampled_from(["local", "hamming", "edges"]))
    if kind == "local":
        prior, channel = data.draw(local_cases())
        mech, pairs = relations.from_dict(local_dict(prior, channel)), local_pairs(len(prior))
    elif kind == "hamming":
        k, r, prior, channel = data.draw(hamming_cases())
        mech, pairs = relations.from_dict(hamming_dict(prior, channel, k, r)), hamming_pairs(k, r)
    else:
        prior, channel, edges = data.draw(edge_cases())
        mech, pairs = relations.from_dict(edges_dict(prior, channel, edges)), edges
    s = relations.measure(mech).sigma_min
    assert s.value <= 0
    assert s.exact <= relations.LogRatio.of(Fraction(1))
    flat = all(prior[i] == prior[j] for i, j in pairs)
    assert (s.exact.is_finite and s.exact.ratio == 1) == flat


@settings(max_examples=examples(30))
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, 4)))
       .flatmap(lambda nm: channels(1, nm[1]).map(lambda row: (nm[0], row[0]))))
def test_uniform_prior_keyword(case):
    n, row = case
    rows = [row] * n
    data = local_dict([Fraction(1, n)] * n, rows)
    explicit = relations.measure(relations.from_dict(data))
    data["prior"] = "uniform"
    uniform = relations.measure(relations.from_dict(data))
    assert exact_values(explicit) == exact_values(uniform)
    # identical rows: the output says nothing about the input
    assert explicit.eps_d.exact.ratio == 1 and explicit.eps_m.enclosure.lower == 0
    assert explicit.eps_m.enclosure.upper < Fraction(1, 10**30)


# --------------------------------------------------------------------------- mutual information


def check_mi(m, prior, channel):
    enc = m.eps_m.enclosure
    assert enc is not None and enc.lower <= enc.upper
    assert enc.width <= Fraction(1, 2**100) < Fraction(1, 10**30)
    assert_contains_float(enc, mi_numpy(prior, channel))
    assert_contains(enc, mi_mpmath(prior, channel, dps=50))
    assert math.isclose(m.eps_m.value, float(enc.lower), rel_tol=1e-14, abs_tol=1e-15)  # value: the midpoint


@settings(max_examples=examples(40))
@given(local_cases(mmax=5))
def test_eps_m_local_enclosure(case):
    prior, channel = case
    check_mi(relations.measure(relations.from_dict(local_dict(prior, channel))), prior, channel)


@settings(max_examples=examples(30))
@given(hamming_cases(kmax=3, rmax=2))
def test_eps_m_central_enclosure(case):
    k, r, prior, channel = case
    check_mi(relations.measure(relations.from_dict(hamming_dict(prior, channel, k, r))), prior, channel)


@settings(max_examples=examples(20))
@given(local_cases(tiny=True, nmin=2, nmax=4, mmax=3))
def test_eps_m_with_tiny_entries_overlaps_interval_arithmetic(case):
    """With entries far below the float range the mutual information can be astronomically small;
    compare with a certified mpmath interval computation (which must overlap) and the float value."""
    prior, channel = case
    m = relations.measure(relations.from_dict(local_dict(prior, channel)))
    enc = m.eps_m.enclosure
    assert_contains_float(enc, mi_numpy(prior, channel))
    iv = mpmath.iv
    py = [sum(prior[x] * channel[x][y] for x in range(len(prior))) for y in range(len(channel[0]))]
    saved, iv.dps = iv.dps, 50
    try:
        total = iv.mpf(0)
        for x, px in enumerate(prior):
            for y, q in enumerate(channel[x]):
                pxy = px * q
                if pxy:
                    ratio = pxy / (px * py[y])
                    total += (iv.mpf(pxy.numerator) / pxy.denominator) * iv.log(
                        iv.mpf(ratio.numerator) / ratio.denominator)
        lo, hi = (Fraction((-1) ** sign * man) * Fraction(2) ** exp for sign, man, exp, _ in total._mpi_)
    finally:
        iv.dps = saved
    assert lo <= hi
    assert enc.lower <= hi and lo <= enc.upper, (float(enc.lower), float(lo), float(hi), float(enc.upper))


def test_eps_m_bits_option_controls_width():
    prior, channel = [Fraction(1, 3), Fraction(2, 3)], [[Fraction(1, 7), Fraction(6, 7)], [Fraction(5, 11), Fraction(6, 11)]]
    mech = relations.from_dict(local_dict(prior, channel))
    truth = mi_mpmath(prior, channel, dps=400)
    for bits in (10, 100, 1100):
        enc = relations.measure(mech, bits=bits).eps_m.enclosure
        assert enc.width <= Fraction(1, 2**bits)
        with mpmath.workdps(400):
            assert_contains(enc, truth)
    assert math.isclose(relations.measure(mech).eps_m.value, float(truth), rel_tol=1e-14)


def test_exact_sum_is_the_sum_of_the_fractions():
    import random

    from relations.numbers._sums import exact_sum

    rng = random.Random(5)
    for size in [0, 1, 2, 3, 40] * 60:
        values = [Fraction(rng.randint(-10**20, 10**20), rng.choice([1, 2, 3, 60, 2**70, rng.randint(1, 10**6)]))
                  if rng.random() < 0.8 else rng.randint(-10**30, 10**30) for _ in range(size)]
        total = exact_sum(values)
        assert type(total) is Fraction and total == sum(values, Fraction(0))


@given(st.integers(0, 6000), st.integers(1, 9), st.booleans())
def test_huge_integers_as_text_are_their_decimal_digits(digits, lead, negative):
    """Against :class:`decimal.Decimal`'s text (exact for an int, with no digit limit), around the 500 digits
    where the conversion changes."""
    from decimal import Decimal

    from relations.numbers._text import fraction_text

    n = (lead * 10**digits + 7 * digits) * (-1 if negative else 1)
    assert fraction_text(Fraction(n)) == str(Decimal(n))
    q = Fraction(n, 3 * 10**digits + 1)
    assert fraction_text(q) == f"{Decimal(q.numerator)}/{Decimal(q.denominator)}"


def test_ratio_comparisons_by_magnitude_are_the_exact_comparisons():
    """The exact scans compare long fractions by their binary orders of magnitude first; against ``>`` on
    fractions from zero to 2^+-300, and near powers of two where the orders of magnitude differ by one or two."""
    import random

    from relations.measures._ratios import _above, extremes

    rng = random.Random(11)
    edges = [Fraction(2**k + d, 2**j) for k in (0, 1, 5, 64) for j in (0, 3, 70) for d in (-1, 0, 1) if 2**k + d >= 0]
    for _ in range(5000):
        a, b = (Fraction(rng.randint(0, 2**rng.randint(0, 300)), rng.randint(1, 2**rng.randint(0, 300)))
                if rng.random() < 0.7 else rng.choice(edges) for _ in range(2))
        assert _above(a, b) == (a > b), (a, b)
    for _ in range(1000):
        values = [rng.choice(edges) * rng.choice([1, Fraction(1, 3**40)]) for _ in range(rng.randint(1, 9))]
        assert extremes(values) == (values.index(max(values)), values.index(min(values)))
