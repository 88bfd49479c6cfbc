"""The compiled float kernels (numba) against their numpy twins and against independent values.

Float ``eps_m`` agrees to float rounding both ways; the extrema of ``eps_d`` and the exact row sums are
the same numbers both ways (max, min and exact integers round nothing).  The size threshold and the
break-even rule of :mod:`relations.numbers._kernels` are lowered here so that small arrays use the kernels.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from relations.measures._dense import Joint
from relations.measures._information import mutual_information_float
from relations.measures._ratios import scan_float
from relations.model import Channel, Mechanism, Prior
from relations.model._floats import FLOAT_TOLERANCE
from relations.model._neighbours import LocalInputs
from relations.model._scaled import _compiled_row_sums, checked_scaled_rows, exact_row_sums
from relations.numbers import _kernels

numba = pytest.importorskip("numba")


@pytest.fixture
def kernels(monkeypatch):
    """The compiled kernels for every size (``choice`` switched per test with :func:`use`)."""
    monkeypatch.setattr(_kernels, "KERNEL_ENTRIES", 0)
    monkeypatch.setenv(_kernels.ENVIRONMENT, "compiled")
    module = _kernels.compiled()
    assert module is not None
    return module


def use(monkeypatch, how: str) -> None:
    monkeypatch.setenv(_kernels.ENVIRONMENT, how)


def channel(rng, n: int, m: int, zeros: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    q = rng.random((n, m)) ** 3
    q[rng.random((n, m)) < zeros] = 0.0
    q[:, 0] += 1e-3
    q /= q.sum(axis=1, keepdims=True)
    p = rng.random(n)
    p /= p.sum()
    return p, q


def test_the_logarithm_is_within_a_few_units_in_the_last_place(kernels):
    rng = np.random.default_rng(7)
    root = math.sqrt(0.5)  # the reduction's edges: mantissas below sqrt(1/2) move up a binade
    edges = [np.finfo(float).tiny, 1.0, 2.0, 0.5, 1e308, np.finfo(float).max, root, math.nextafter(root, 0),
             math.nextafter(root, 1), 2 * root, math.nextafter(2 * root, 2)]
    x = np.concatenate([rng.random(20000) * 10.0 ** rng.integers(-300, 300, 20000),
                        1 + (rng.random(20000) - 0.5) * 1e-3, edges])
    out = np.empty_like(x)
    kernels.log_floats(x, out)
    exact = np.log(x)  # numpy's log: within an ulp of ln
    assert np.all(np.abs(out - exact) <= 4 * np.spacing(np.abs(exact)) + 1e-300)
    assert out[x == 1.0].tolist() == [0.0]  # ln 1


@pytest.mark.parametrize("shape", [(1, 1), (3, 7), (5, 1), (9, 130), (64, 64), (257, 33)])
def test_float_eps_m_is_the_same_both_ways(kernels, monkeypatch, shape):
    rng = np.random.default_rng(sum(shape))
    p, q = channel(rng, *shape)
    if shape[1] > 2:
        q[0, 1] += q[0, -1]
        q[0, -1] = 0.0  # a zero
    fast = mutual_information_float(p, q)
    use(monkeypatch, "numpy")
    slow = mutual_information_float(p, q)
    # both are sums of about n m terms of size up to |ln q|: agreement to 1e-13 of the entropy scale
    scale = 1 + abs(float(np.sum(p[:, None] * q * np.log(np.where(q > 0, q, 1)))))
    assert abs(fast - slow) <= 1e-13 * scale
    py = p @ q
    with np.errstate(divide="ignore", invalid="ignore"):
        independent = float(np.sum(np.where(q > 0, p[:, None] * q * np.log(np.where(q > 0, q, 1) / py), 0.0)))
    assert fast == pytest.approx(max(independent, 0.0), rel=1e-10, abs=1e-13)


def test_float_eps_m_counts_subnormal_entries_as_zero(kernels, monkeypatch):
    q = np.array([[1 - 5e-324, 5e-324], [0.5, 0.5]])
    p = np.array([0.5, 0.5])
    fast = mutual_information_float(p, q)
    use(monkeypatch, "numpy")
    assert fast == pytest.approx(mutual_information_float(p, q), abs=1e-300)


@pytest.mark.parametrize("shape", [(2, 1), (7, 5), (100, 37), (333, 64)])
def test_float_eps_d_and_eps_i_are_the_same_numbers_both_ways(kernels, monkeypatch, shape):
    rng = np.random.default_rng(shape[0])
    p, q = channel(rng, *shape, zeros=0.02)
    space = LocalInputs(tuple(map(str, range(shape[0]))))
    prior, chan = Prior.of(p, exact=False), Channel.of(q, exact=False)
    fast = scan_float([chan.array, Joint(prior, chan)], space)
    use(monkeypatch, "numpy")
    slow = scan_float([chan.array, Joint(prior, chan)], space)
    assert fast == slow
    # by hand: the largest ratio of a column's extremes
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = q.max(axis=0) / q.min(axis=0)
    assert fast[0][0] == math.log(np.nanmax(ratio))


def test_exact_row_sums_are_the_fraction_sums(kernels, monkeypatch):
    rng = np.random.default_rng(3)
    a = rng.random((13, 9003))
    a[:, :5] *= 1e-300
    a[:, 5:9] = 5e-324 * rng.integers(0, 1000, (a.shape[0], 4))  # subnormals
    a[rng.random(a.shape) < 0.1] = 0.0
    a[7] = 0.0
    a[8, 0] = 1e300
    a[9] = 1.0
    a[10] = 0.0
    a[10, 3] = 5e-324
    a[11] = 0.0
    a[11, -1] = 2.0**-1022
    fast = exact_row_sums(a)
    assert fast == [fraction_sum(row) for row in a]
    use(monkeypatch, "numpy")
    assert exact_row_sums(a) == fast
    counts, least, bad = _compiled_row_sums(kernels, a)
    assert (least, bad) == (0, False)
    assert _compiled_row_sums(kernels, np.array([[0.5, 0.25], [0.0, 1.0]]))[1:] == (1021, False)


@pytest.mark.parametrize("bad", [-1.0, -0.0, math.inf, math.nan])
def test_the_row_sum_kernel_flags_what_validation_refuses(kernels, bad):
    a = np.full((3, 9), 1 / 9)
    a[1, 4] = bad
    assert _compiled_row_sums(kernels, a)[2] is True
    assert checked_scaled_rows(a, Fraction(FLOAT_TOLERANCE)) is None


#: Every finite float is an integer over a power of two of at most this: ``n / d = n (UNIT // d) / UNIT``.
UNIT = 1 << 1074


def fraction_sum(row) -> Fraction:
    """The exact sum of a row of floats, by hand: their exact ratios (``float.as_integer_ratio``) over the common
    denominator ``2^1074``, the numerators added as integers (five times faster than adding Fractions)."""
    return Fraction(sum(n * (UNIT // d) for n, d in map(float.as_integer_ratio, row.tolist())), UNIT)


def test_the_one_read_kernel_sums_exactly_and_rounds_each_sum_correctly(kernels):
    """:func:`scaled_rows` against Python's exact sums and correctly rounded ``float(Fraction)``: ties of the
    rounding both ways, a bit far below the tie, spans of 63 binades (kept) and 64 (left to the slow kernel),
    subnormals, a zero row, and long rows of full mantissas (carries between the counters)."""
    from relations.model._scaled import _LEFT, _UNIT

    rng = np.random.default_rng(46)
    m = 4099
    a = np.zeros((17, m))
    a[0, :2] = [1.0, 2.0**-53]  # a tie, 1 even: 1
    a[1, :2] = [1 + 2.0**-52, 2.0**-53]  # a tie, odd: up
    a[2, :3] = [1.0, 2.0**-53, 2.0**-60]  # above the tie by a bit 7 places below: up
    a[3, :3] = [1.0, 2.0**-54, 2.0**-54]  # a tie made of two halves
    a[4, :2] = [1.0, 2.0**-63]  # 63 binades apart: kept
    a[5, :2] = [1.0, 2.0**-64]  # 64 binades apart: left
    a[6, :3] = [2.0**-1010, 5e-324, 3 * 5e-324]  # subnormals beside a small normal: kept
    a[7, :2] = [0.5, 5e-324]  # a subnormal beside 1/2: left
    # a[8] stays zero: left
    a[9] = 1 - 2.0**-53  # full mantissas, 4099 of them
    a[10] = rng.random(m)
    a[11] = rng.uniform(1, 2, m) * 2.0 ** rng.integers(-40, 20, m)  # 60 binades
    a[12] = a[11] / a[11].sum()
    a[13, :3] = [1.0 - 2.0**-53, 2.0**-55, 2.0**-64]  # below the tie: down, to the float below 1
    a[14, ::2] = 2.0**-40 * (1 + rng.integers(0, 2**52, (m + 1) // 2) * 2.0**-52)
    a[15, :4] = [1.5, 2.0**-52, 2.0**-53, 2.0**-53]  # 1.5 + 2^-51: a float, no rounding
    a[16, :4] = [1.0, 1.0, 2.0**-52, 2.0**-63]  # a tie at 2 decided by a bit below the leading 64: up
    words, shifts = np.zeros((17, 3), dtype=np.uint64), np.zeros(17, dtype=np.int64)
    sums, out = np.zeros(17), np.zeros_like(a)
    least, bad = kernels.scaled_rows(_kernels.read_only(a), words, shifts, sums, out)  # as the tool passes it
    assert (int(least), bad) == (0, False)
    left = {x for x in range(17) if shifts[x] == _LEFT}
    assert left == {5, 7, 8}
    for x in sorted(set(range(17)) - left):
        exact = fraction_sum(a[x])
        t = int.from_bytes(words[x].tobytes(), "little")
        k = int(shifts[x])
        assert Fraction(t << k if k >= 0 else t, _UNIT if k >= 0 else _UNIT << -k) == exact, x
        if exact >= Fraction(2) ** -1022:  # the float copy's rows: sums in the normal range
            assert sums[x] == float(exact), x
            assert np.array_equal(out[x], a[x] / float(exact)), x
    assert sums[[0, 1, 2, 3, 13, 15, 16]].tolist() == [1.0, 1 + 2.0**-51, 1 + 2.0**-52, 1.0, 1 - 2.0**-53, 1.5 + 2.0**-51,
                                                2 + 2.0**-51]
    # the slow kernel sums the rows this one leaves
    counts = _compiled_row_sums(kernels, np.ascontiguousarray(a[[5, 7, 8]]))[0]
    assert [Fraction(t, _UNIT) for t in counts] == [fraction_sum(a[x]) for x in (5, 7, 8)]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_one_read_kernel_against_fractions_on_any_rows(data):
    """Rows of floats a few binades to 70 binades apart (subnormals and zeros among them): the rows the kernel
    keeps have the Fraction sum, its correctly rounded float and the correctly rounded quotients; it leaves
    exactly the zero rows and those whose positive entries lie more than 63 binades apart."""
    from relations.model._scaled import _LEFT, _UNIT
    from relations.numbers import _compiled

    top = data.draw(st.integers(1, 2046), label="largest biased exponent")
    n, m = data.draw(st.integers(1, 4)), data.draw(st.integers(1, 9))
    entry = st.one_of(st.just((0, -1)), st.tuples(st.integers(0, 2**52 - 1), st.integers(0, 70)))
    drawn = data.draw(st.lists(entry, min_size=n * m, max_size=n * m))
    bits = [0 if down < 0 else (max(top - down, 0) << 52) | mantissa for mantissa, down in drawn]
    a = np.array(bits, dtype=np.int64).view(np.float64).reshape(n, m)
    words, shifts = np.zeros((n, 3), dtype=np.uint64), np.zeros(n, dtype=np.int64)
    sums, out = np.zeros(n), np.zeros_like(a)
    least, bad = _compiled.scaled_rows(_kernels.read_only(a), words, shifts, sums, out)
    positive = [int(b) >> 52 for b in bits if b > 0]
    assert (int(least), bad) == (min(positive, default=2047), False)
    for x in range(n):
        exponents = [max(int(b) >> 52, 1) for b in a[x].view(np.int64).tolist() if b > 0]
        assert (shifts[x] == _LEFT) == (not exponents or max(exponents) - min(exponents) > 63)
        if shifts[x] == _LEFT:
            continue
        exact = fraction_sum(a[x])
        t, k = int.from_bytes(words[x].tobytes(), "little"), int(shifts[x])
        assert Fraction(t << k if k >= 0 else t, _UNIT if k >= 0 else _UNIT << -k) == exact
        if Fraction(2) ** -1022 <= exact < Fraction(2) ** 1023:  # a normal float: correctly rounded
            assert sums[x] == float(exact)
            with np.errstate(under="ignore"):
                assert np.array_equal(out[x], a[x] / float(exact))


def test_a_float_matrix_taken_exactly_is_the_same_channel_both_ways(kernels, monkeypatch):
    from relations.model._scaled import SCALED_ENTRIES

    rng = np.random.default_rng(11)
    n = 2 * int(math.isqrt(SCALED_ENTRIES // 4)) + 1  # at least SCALED_ENTRIES entries, odd sizes
    _, q = channel(rng, n, n + 3)
    q[2, 6] += q[2, 5]
    q[2, 5] = 2.0**-1060  # a subnormal: not reliable
    q[4, 7] += q[4, 8]
    q[4, 8] = 2.0**-300  # a row whose positive entries span more than 64 binades: the slow kernel's
    fast = Channel.of(q, exact=True)
    use(monkeypatch, "numpy")
    slow = Channel.of(q, exact=True)
    assert fast.exact == slow.exact and fast.exact.sums == slow.exact.sums
    assert (fast.rounding, fast.reliable) == (slow.rounding, slow.reliable)
    assert fast.reliable is False
    assert np.array_equal(fast.array, slow.array)
    sums = [fraction_sum(row) for row in q]  # by hand, once (265,000 entries)
    assert list(fast.exact.sums) == sums
    assert np.array_equal(fast.array, q / np.array([float(s) for s in sums])[:, None])


def test_rows_near_the_tolerance_take_the_validating_path(kernels):
    from relations.errors import InputError

    a = np.full((512, 512), 1 / 512)
    a[1, 0] += FLOAT_TOLERANCE * 0.999  # inside the tolerance, farther than m 2^-51 from its edge
    assert checked_scaled_rows(a, Fraction(FLOAT_TOLERANCE)) is not None
    a[1, 0] = 1 / 512 + FLOAT_TOLERANCE * (1 - 1e-5)  # inside, but within m 2^-51 of the edge: validated as before
    assert checked_scaled_rows(a, Fraction(FLOAT_TOLERANCE)) is None
    assert Channel.of(a, exact=True).exact.sums[1] == fraction_sum(a[1])
    a[1, 0] = 1 / 512 + FLOAT_TOLERANCE * (1 + 1e-6)  # outside: the usual message, from the usual path
    assert checked_scaled_rows(a, Fraction(FLOAT_TOLERANCE)) is None
    with pytest.raises(InputError, match=r"channel\[1\]: entries sum to"):
        Channel.of(a, exact=True)


def test_certified_eps_d_from_floats_is_the_same_both_ways(kernels, monkeypatch):
    from relations.measures import eps_d
    from relations.model._scaled import SCALED_ENTRIES

    rng = np.random.default_rng(5)
    n = int(math.isqrt(SCALED_ENTRIES)) + 2
    _, q = channel(rng, n, n, zeros=0.0)
    space = LocalInputs(tuple(map(str, range(n))))

    def measured():
        mech = Mechanism("local", Prior.of(np.full(n, 1 / n), exact=True), Channel.of(q, exact=True), space,
                         tuple(map(str, range(n))), exact=True)
        return eps_d(mech)

    fast = measured()
    use(monkeypatch, "numpy")
    slow = measured()
    assert (fast.exact, fast.witness) == (slow.exact, slow.witness)
    # by hand: the witness's ratio, from the exact rows (each row over its exact sum)
    w = fast.witness
    sums = [fraction_sum(q[x]) for x in (w.x, w.x_prime)]
    assert fast.exact.ratio == (Fraction(q[w.x, w.y]) / sums[0]) / (Fraction(q[w.x_prime, w.y]) / sums[1])


def test_certified_eps_d_from_floats_finds_a_maximum_the_floats_rank_below_another(kernels, monkeypatch):
    """Row sums past the float's last place: column 0's exact ratio is the largest, but the float copy (each row
    over its rounded sum) puts column 1 at or above it; the certified answer is the maximum of the exact
    ratios, computed here with Fractions over every column, both ways."""
    from relations.measures import eps_d
    from relations.model import _distributions

    monkeypatch.setattr(_distributions, "SCALED_ENTRIES", 1)  # the large-matrix path on a 5 x 4 matrix
    c = 2.0**-40
    tail = [2.0**-53 + 2.0**-64, 2.0**-53 - 2.0**-64, 2.0**-62, 0.0, 0.0]  # row sums 1 + c + tail
    main = np.array([[3, 2, 11], [1, 2, 13], [2, 3, 11], [2, 1, 13], [2, 2, 12]]) / 16
    q = np.column_stack([main, [c + t for t in tail]])
    q.setflags(write=False)
    assert all(fraction_sum(row) == 1 + Fraction(c) + Fraction(t) for row, t in zip(q, tail))
    n = q.shape[0]
    space = LocalInputs(tuple(map(str, range(n))))

    def certified():
        chan = Channel.of(q, exact=True)
        mech = Mechanism("local", Prior.of(np.full(n, 1 / n), exact=True), chan, space,
                         tuple(map(str, range(q.shape[1]))), exact=True)
        return chan, eps_d(mech)

    chan, fast = certified()
    assert type(chan.exact).__name__ == "ScaledRows"
    sums = [fraction_sum(row) for row in q]
    exact = [[Fraction(v) / s for v in row.tolist()] for row, s in zip(q, sums)]
    columns = [max(col) / min(col) for col in zip(*exact)]
    assert columns[0] > columns[1] == max(columns[1:])
    floats = chan.array.max(axis=0) / chan.array.min(axis=0)
    assert floats[1] >= floats[0]  # the floats alone would answer column 1
    assert fast.exact.ratio == columns[0]
    w = fast.witness
    assert (w.y, exact[w.x][w.y] / exact[w.x_prime][w.y]) == (0, columns[0])
    use(monkeypatch, "numpy")
    _, slow = certified()
    assert (slow.exact, slow.witness) == (fast.exact, fast.witness)


def test_the_choice_of_kernels(monkeypatch):
    assert _kernels.compiled(16) is None  # below the size
    monkeypatch.setenv(_kernels.ENVIRONMENT, "numpy")
    assert _kernels.compiled() is None
    monkeypatch.setenv(_kernels.ENVIRONMENT, "whatever")
    assert _kernels.choice() == "auto"
    monkeypatch.setenv(_kernels.ENVIRONMENT, " Compiled ")
    assert _kernels.choice() == "compiled" and _kernels.compiled(_kernels.KERNEL_ENTRIES) is not None


def test_auto_waits_for_the_break_even(monkeypatch):
    import sys

    monkeypatch.delenv(_kernels.ENVIRONMENT, raising=False)
    monkeypatch.setattr(_kernels, "_LOADED", [])
    monkeypatch.setattr(_kernels, "_SAVED", [0.0])
    monkeypatch.delitem(sys.modules, "numba", raising=False)
    big = _kernels.KERNEL_ENTRIES
    per_pass = big * 4.0 * 1e-9
    passes = math.ceil(_kernels.LOAD_SECONDS / per_pass)
    got = [_kernels.compiled(big, saving=4.0) for _ in range(passes)]
    assert all(g is None for g in got[:-1]) and got[-1] is not None
