"""Certified float arithmetic: the vectorised logarithm against mpmath, the float-certified ``I(X;Y)``
against mpmath (a second method at 60 digits), and large float arrays taken exactly (ScaledRows)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from bruteforce import fraction_of, mi_mpmath
from hypothesis import example, given, settings
from hypothesis import strategies as st

from relations import Mechanism, measure
from relations.checking._quantities import _mi_real
from relations.measures._certified_floats import mutual_information_floats
from relations.measures._dense import FLOAT_CERTIFIED_ENTRIES, width_bits
from relations.model import Channel, Prior
from relations.model._floats import exact_float_rows
from relations.model._scaled import SCALED_ENTRIES, ScaledRows, exact_row_sums
from relations.numbers import Rational, compare
from relations.numbers._floatlog import LOG_ERROR, UNIT, certified_log

TINY = float(np.finfo(np.float64).tiny)
NORMAL = st.floats(min_value=TINY, max_value=float(np.finfo(np.float64).max), allow_nan=False, allow_infinity=False)


def log_bounds(x: float) -> tuple[Fraction, Fraction]:
    """``ln x`` to 120 digits, as an interval of width about 1e-118 (mpmath, a second method)."""
    with mpmath.workdps(120):
        v = mpmath.log(mpmath.mpf(x))
        eps = mpmath.mpf(10) ** -110 * (1 + abs(v))
        return fraction_of(v - eps), fraction_of(v + eps)


@settings(max_examples=300)
@given(st.lists(NORMAL, min_size=1, max_size=50))
@example([TINY, float(np.finfo(np.float64).max), 1.0, 2.0, 0.5, math.nextafter(1, 0), math.nextafter(1, 2),
          math.nextafter(2, 0), 1 + 1023 / 1024, 1 + 1 / 1024, math.nextafter(1 + 1 / 1024, 0)])
def test_certified_log_is_within_its_bound(xs):
    got = certified_log(np.array(xs))
    a, b = LOG_ERROR
    for x, l in zip(xs, got.tolist()):  # noqa: E741
        lo, hi = log_bounds(x)
        err = max(abs(Fraction(l) - lo), abs(Fraction(l) - hi))
        assert err <= a * abs(Fraction(l)) + b, (x, l)


@pytest.mark.parametrize("bad", [0.0, -1.0, 5e-324, math.inf, math.nan])
def test_certified_log_refuses_what_it_cannot_bound(bad):
    with pytest.raises(ValueError):
        certified_log(np.array([0.5, bad]))


def weights(draw, n, zeros=True):
    w = draw(st.lists(st.integers(0 if zeros else 1, 30), min_size=n, max_size=n).filter(any))
    return [Fraction(v, sum(w)) for v in w]


@st.composite
def exact_mechanisms(draw):
    n, m = draw(st.integers(2, 6)), draw(st.integers(1, 6))
    return weights(draw, n), [weights(draw, m) for _ in range(n)]


@settings(max_examples=150)
@given(exact_mechanisms())
@example(([Fraction(1, 2)] * 2, [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]))
@example(([Fraction(1, 3)] * 3, [[Fraction(1, 3)] * 3] * 2 + [[Fraction(1), Fraction(0), Fraction(0)]]))
def test_float_certified_mi_contains_the_mpmath_value(mech):
    prior, rows = mech
    p = np.array([float(v) for v in prior])
    q = np.array([[float(v) for v in row] for row in rows])
    e = mutual_information_floats(p, q, rho_p=UNIT, rho_q=UNIT)
    live = [tuple(r) for px, r in zip(prior, rows) if px]
    if all(r == live[0] for r in live):
        assert e is None  # perhaps I = 0 exactly: left to the exact tie-breaker
        return
    with mpmath.workdps(60):
        ref = mi_mpmath(prior, rows, 60)
        lo, hi = fraction_of(ref - mpmath.mpf(10) ** -50), fraction_of(ref + mpmath.mpf(10) ** -50)
    assert e is not None
    assert e.lower <= max(lo, Fraction(0)) and hi <= e.upper
    assert e.width <= Fraction(1, 2**40)


@st.composite
def extreme_mechanisms(draw):
    """Exact mechanisms whose entries lie hundreds of binary orders apart (2^-500, 10^-150, 1 - 2^-52):
    the float copies are correctly rounded, and zero exactly where the exact entries are."""
    scale = st.sampled_from([Fraction(1), Fraction(1, 2**40), Fraction(1, 2**500), Fraction(1, 10**150), Fraction(0)])

    def dist(k):
        w = draw(st.lists(st.tuples(scale, st.integers(1, 1000)), min_size=k, max_size=k)
                 .filter(lambda ws: any(a for a, _ in ws)))
        total = sum(a * b for a, b in w)
        return [a * b / total for a, b in w]

    n, m = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    return dist(n), [dist(m) for _ in range(n)]


@settings(max_examples=80, deadline=None)
@given(extreme_mechanisms())
def test_float_certified_mi_contains_the_value_across_magnitudes(mech):
    """Where it answers, the enclosure contains I(X;Y) computed by mpmath at 400 digits from the exact
    entries (2^-500 * 2^-500 is below 10^-300: such products need the digits)."""
    prior, rows = mech
    p = np.array([float(v) for v in prior])
    q = np.array([[float(v) for v in row] for row in rows])
    e = mutual_information_floats(p, q, rho_p=UNIT, rho_q=UNIT)
    if e is None:
        return
    with mpmath.workdps(400):
        ref = mi_mpmath(prior, rows, 400)
        lo, hi = fraction_of(ref - mpmath.mpf(10) ** -380), fraction_of(ref + mpmath.mpf(10) ** -380)
    assert e.lower <= max(lo, Fraction(0)) and hi <= e.upper


def test_float_certified_mi_declines_subnormal_entries():
    q = np.array([[1 - 2.0**-53, 2.0**-1074 * 3], [0.5, 0.5]])
    assert mutual_information_floats(np.array([0.5, 0.5]), q, rho_p=UNIT, rho_q=UNIT) is None


def test_float_certified_mi_declines_products_that_underflow():
    """p(x) = Q[x][y] = 2^-600 are normal floats, but their product 2^-1200 rounds to 0: that term of
    I(X;Y) would be lost from the error analysis, so the method declines (the caller uses balls)."""
    a = 2.0**-600
    q = np.array([[a, 1 - a], [0.5, 0.5]])
    assert q[0, 0] * a == 0.0
    assert mutual_information_floats(np.array([a, 1 - a]), q, rho_p=UNIT, rho_q=UNIT) is None


@settings(max_examples=100)
@given(st.lists(st.lists(st.one_of(st.floats(0, 1e300), st.just(0.0), st.floats(0, 1e-300)), min_size=1,
                         max_size=6), min_size=1, max_size=5).filter(lambda rows: len({len(r) for r in rows}) == 1))
def test_exact_row_sums_are_the_fraction_sums(rows):
    a = np.array(rows, dtype=np.float64)
    assert exact_row_sums(a) == [sum(map(Fraction, row)) for row in rows]


def random_channel(rng, n, m):
    q = rng.random((n, m)) ** 4
    q[rng.random((n, m)) < 0.05] = 0.0
    q[:, 0] += 1e-3
    return q / q.sum(axis=1, keepdims=True)


def test_scaled_rows_are_the_exact_rows_and_their_floats_within_two_roundings():
    rng = np.random.default_rng(7)
    a = random_channel(rng, 40, 30)
    rows_exact, _, _ = exact_float_rows(a, "channel")
    scaled = ScaledRows(a, exact_row_sums(a))
    assert scaled == tuple(tuple(r) for r in rows_exact)
    assert [scaled.entry(x, y) for x, y in [(0, 0), (39, 29), (7, 3)]] == [rows_exact[x][y] for x, y in
                                                                           [(0, 0), (39, 29), (7, 3)]]
    floats = scaled.floats()
    for row, frow in zip(rows_exact, floats.tolist()):
        for v, f in zip(row, frow):
            assert abs(Fraction(f) - v) <= ScaledRows.float_error * v
    ranks, values = scaled.ranks()
    assert values == sorted(set(v for row in rows_exact for v in row))
    assert all(values[ranks[x, y]] == rows_exact[x][y] for x in range(40) for y in range(30))


@pytest.mark.parametrize("n", [128, pytest.param(512, marks=pytest.mark.slow)])
def test_a_large_float_channel_taken_exactly_measures_as_the_fraction_reading(n, monkeypatch):
    """Above SCALED_ENTRIES the channel keeps its floats; ratios are the same exact numbers as when every
    entry is a Fraction, and eps_m's float-certified enclosure contains the ball-arithmetic one.  At the
    real thresholds (512 x 512, 4 s of CPU: the slow tier) and, by default, at 128 x 128 with both
    thresholds lowered to its size (the same paths; the reference's ball arithmetic costs n^2)."""
    from relations.measures import _dense
    from relations.model import _distributions

    if n * n < max(SCALED_ENTRIES, FLOAT_CERTIFIED_ENTRIES):
        monkeypatch.setattr(_distributions, "SCALED_ENTRIES", n * n)
        monkeypatch.setattr(_dense, "FLOAT_CERTIFIED_ENTRIES", n * n)
    assert n * n >= max(_distributions.SCALED_ENTRIES, _dense.FLOAT_CERTIFIED_ENTRIES)
    rng = np.random.default_rng(11)
    a = random_channel(rng, n, n)
    prior = rng.random(n) + 0.01
    prior /= prior.sum()
    fast = Mechanism.local(Channel.of(a, exact=True), prior=Prior.of(prior, exact=True))
    assert isinstance(fast.channel.exact, ScaledRows)
    rows, rho, floats = exact_float_rows(a, "channel")
    slow = Mechanism.local(Channel.from_exact(rows, rho, floats=(floats, a != 0)), prior=Prior.of(prior, exact=True))
    got, ref = measure(fast), measure(slow, bits=80)
    for name in ("eps_d", "eps_i", "sigma_min"):
        assert getattr(got, name).exact == getattr(ref, name).exact
    e, r = got.eps_m.enclosure, ref.eps_m.enclosure
    assert e.lower <= r.lower and r.upper <= e.upper
    assert got.eps_m.bits == width_bits(e) >= 40 and e.width <= Fraction(1, 2**got.eps_m.bits)
    # a comparison the float-certified enclosure cannot decide is refined by ball arithmetic
    just_above = Rational(r.upper + Fraction(1, 10**25))
    assert e.lower < just_above.value < e.upper
    real = _mi_real(fast, got)
    assert real.display_bits == got.eps_m.bits  # outputs show the enclosure already computed
    assert real.enclose(real.display_bits) == (e.lower, e.upper)
    assert compare(real, just_above) == -1


def test_width_bits():
    from relations.numbers._enclosure import Enclosure

    for w, b in [(Fraction(1, 2**44), 44), (Fraction(3, 2**45), 43), (Fraction(1, 3), 1), (Fraction(2), 0)]:
        assert width_bits(Enclosure(Fraction(0), w)) == b
