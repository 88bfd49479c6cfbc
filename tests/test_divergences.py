"""The one float implementation of the divergence notions (relations.measures._divergences) against
their definitions evaluated in mpmath at 50 digits, and the two callers (the one-mechanism screen
``notion_float`` and the batch ``dense_values``) against each other: they share the code, so they
must agree to the last bit."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from bruteforce import golden_max, renyi_float
from hypothesis import given, settings
from hypothesis import strategies as st

from relations import Mechanism
from relations.measures._batch import dense_values, ordered_pairs
from relations.measures._divergences import divergence, pair_value, parse, rho_pair
from relations.measures._notion_floats import notion_float


def _row(draw, m, zeros):
    w = draw(st.lists(st.integers(0 if zeros else 1, 20), min_size=m, max_size=m).filter(lambda v: sum(v) > 0))
    return np.array(w, dtype=float) / sum(w)


@st.composite
def row_pairs(draw, zeros=True):
    m = draw(st.integers(2, 5))
    return _row(draw, m, zeros), _row(draw, m, zeros)


def _mp(P, Q):
    """The rows in mpmath, normalised exactly (float rows sum to 1 only up to rounding, and D_a near
    a = 1 divides that rounding by a - 1)."""
    P, Q = [mpmath.mpf(float(v)) for v in P], [mpmath.mpf(float(v)) for v in Q]
    return [v / sum(P) for v in P], [v / sum(Q) for v in Q]


@mpmath.workdps(50)
def ref_kl(P, Q):
    P, Q = _mp(P, Q)
    if any(p > 0 and q == 0 for p, q in zip(P, Q)):
        return math.inf
    return float(sum(p * mpmath.log(p / q) for p, q in zip(P, Q) if p > 0))


@mpmath.workdps(50)
def ref_renyi(a, P, Q):
    P, Q = _mp(P, Q)
    if any(p > 0 and q == 0 for p, q in zip(P, Q)):
        return math.inf
    a = mpmath.mpf(a)
    return float(mpmath.log(sum(p ** a * q ** (1 - a) for p, q in zip(P, Q) if p > 0)) / (a - 1))


@mpmath.workdps(50)
def ref_delta(e, P, Q):
    P, Q = _mp(P, Q)
    return float(sum(max(0, p - mpmath.exp(e) * q) for p, q in zip(P, Q)))


@mpmath.workdps(50)
def ref_eps_delta(d, P, Q):
    """Bisection on the (decreasing) privacy profile, in mpmath: 100 halvings of [0, 60], to within
    5e-29 (the test asks for 1e-10)."""
    P, Q = _mp(P, Q)
    prof = lambda e: sum(max(0, p - mpmath.exp(e) * q) for p, q in zip(P, Q))  # noqa: E731
    if prof(0) <= d:
        return 0.0
    if prof(mpmath.mpf(60)) > d:
        return math.inf
    lo, hi = mpmath.mpf(0), mpmath.mpf(60)
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if prof(mid) <= d else (mid, hi)
    return float(hi)


def _close(got, ref, rel=1e-9, abs_=1e-12):
    if math.isinf(ref):
        return math.isinf(got)
    return abs(got - ref) <= max(rel * abs(ref), abs_)


@settings(max_examples=150, deadline=None)
@given(row_pairs())
def test_pair_divergences_match_their_definitions(pq):
    P, Q = pq
    assert _close(pair_value("kl", P, Q), ref_kl(P, Q))
    for a in (1.5, 2, 7):
        assert _close(pair_value(f"renyi({a})", P, Q), ref_renyi(a, P, Q), rel=1e-8)
    for e in (0, 0.5, 2):
        assert _close(pair_value(f"delta({e})", P, Q), ref_delta(e, P, Q))
    for d in ("1/10", "1/1000"):
        assert _close(pair_value(f"eps_delta({d})", P, Q), ref_eps_delta(mpmath.mpf(1) * mpmath.fraction(*map(int, d.split("/"))), P, Q),
                      rel=1e-8, abs_=1e-10)


def ref_rho(P, Q):
    """sup over a > 1 of D_a / a (and the KL limit at a -> 1) on a log grid of a - 1 from 1e-5 to 1e4 (400
    points), with golden-section refinement in ln(a - 1) around its best point: the grid is ranked in floats
    (:func:`bruteforce.renyi_float`), the seven grid points around its float maximum and every value returned are
    evaluated in mpmath at 50 digits (:func:`ref_renyi`), and the refinement starts around the best of those
    seven.  (The whole grid in mpmath gave the same values to 1e-15 relative on this test's examples, for
    ten times the CPU.)"""
    ts = np.linspace(math.log(1e-5), math.log(1e4), 400)
    return max(ref_kl(P, Q), golden_max(lambda t: ref_renyi(1 + math.exp(t), P, Q) / (1 + math.exp(t)), ts,
                                        renyi_float(P, Q, np.exp(ts)) / (1 + np.exp(ts)),
                                        g=(math.sqrt(5) - 1) / 2, steps=60))


@settings(max_examples=60, deadline=None)
@given(row_pairs(zeros=False))
def test_rho_is_the_sup_of_renyi_over_a(pq):
    """rho is D_a / a at orders the grid reaches: never above the sup (up to rounding), and within
    1e-7 of it relative (measured: 3e-9 at worst; the grid is refined twice around its maximiser and a
    parabolic step finishes; the searches steer by it and
    the exact checker decides)."""
    P, Q = pq
    got, ref = rho_pair(P, Q), ref_rho(P, Q)
    assert got <= ref * (1 + 1e-9) + 1e-15
    assert got >= ref * (1 - 1e-7) - 1e-15


def test_divergence_is_per_pair_and_rejects_unknown_names():
    A = np.array([[0.5, 0.5], [1.0, 0.0]])
    C = np.array([[0.25, 0.75], [0.5, 0.5]])
    got = divergence("kl", A, C)
    assert got.shape == (2,)
    assert got[0] == pytest.approx(ref_kl(A[0], C[0]), rel=1e-12) and got[1] == pytest.approx(math.log(2), rel=1e-12)
    assert math.isinf(divergence("kl", C[::-1], A[::-1])[0])  # (0.5, 0.5) against (1, 0): mass where C has none
    with pytest.raises(KeyError):
        divergence("not_a_notion", A, C)
    assert parse("renyi(3/2)") == ("renyi", 1.5)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(2, 4), st.data())
def test_the_screen_and_the_batch_agree_bit_for_bit(n, m, data):
    rows = [_row(data.draw, m, True) for _ in range(n)]
    q = np.array(rows)
    mech = Mechanism.local(q)
    pairs = ordered_pairs((i, j) for i in range(n) for j in range(i + 1, n))
    names = ("kl", "rho", "renyi(2)", "delta(1/2)", "eps_delta(1/100)")
    batch = dense_values(q[None], np.full((1, n), 1 / n), pairs, names)
    for name in names:
        assert notion_float(mech, name) == float(batch[name][0]), name


@pytest.mark.parametrize("m", [1, 2, 3, 5, 7, 8, 9, 16])
def test_renyi_orders_sum_the_outputs_as_numpy_does(m):
    """The grid of orders of rho, evaluated one output at a time below 8 outputs, gives the bits that
    numpy's reductions over the outputs give (written here with ``sum(axis=-1)``, one order at a time), for
    both branches (near order 1 and the log-sum-exp) and zeros in the rows."""
    from relations.measures._divergences import _log_ratio, _renyi_orders, _renyi_parts

    rng = np.random.default_rng(m)
    A, C = rng.dirichlet(np.full(m, 0.7), size=(40, 3)), rng.dirichlet(np.full(m, 0.7), size=(40, 3))
    if m > 1:  # zeros in some rows
        A[::4, :, 0] = 0.0
        A /= A.sum(axis=-1, keepdims=True)
    support = A > 0
    lr, parts = _renyi_parts(A, np.where(C > 0, _log_ratio(A, C), 0.0), support)
    orders = 1 + np.broadcast_to(np.logspace(-5, 3, 29), (40, 3, 29))
    got = _renyi_orders(orders, lr, parts)
    for g in range(orders.shape[-1]):
        a = orders[..., g]
        t = (a[..., None] - 1) * lr
        with np.errstate(all="ignore"):
            M = np.where(support, np.log(np.where(support, A, 1.0)) + t, -np.inf)
            top = M.max(axis=-1)
            far = top + np.log(np.exp(M - top[..., None]).sum(axis=-1))
            near = np.log1p((np.where(support, A, 0.0) * np.expm1(np.where(support, t, 0.0))).sum(axis=-1))
        small = (a - 1) * np.abs(lr).max(axis=-1) < 0.5
        want = np.maximum(0.0, np.where(small, near, far) / (a - 1))
        assert np.array_equal(got[..., g], want), g


@pytest.mark.parametrize("m", [2, 3, 6])  # padded: below 8 outputs, summed left to right
def test_rho_of_full_support_pairs_takes_the_masked_bits(m):
    """Pairs with every entry on the support skip the masks (``_renyi_parts``, ``pair_kernel``); the same pairs
    with a zero output appended on both rows go through them, and a zero output adds nothing (a ``-inf`` term to
    the log-sum-exp, ``0`` to the sum near order 1, appended last): the same bits either way."""
    rng = np.random.default_rng(m)
    A, C = rng.dirichlet(np.full(m, 0.7), size=(30, 4)), rng.dirichlet(np.full(m, 0.7), size=(30, 4))
    pad = np.zeros((30, 4, 1))
    for name in ("rho", "kl", "renyi(2)"):
        full = divergence(name, A, C)
        masked = divergence(name, np.concatenate([A, pad], axis=-1), np.concatenate([C, pad], axis=-1))
        assert np.array_equal(full, masked), name


@pytest.mark.parametrize("m", [2, 3, 5, 9])
def test_rho_for_max_keeps_the_maximum_bits(m):
    """``rho_for_max`` leaves out pairs whose bound (``max ln(A/C)``, or ``eps^2/2`` when both rows are positive
    everywhere) lies below the largest KL divergence of their mechanism: the maximum over each mechanism's pairs is
    the one of every pair's ``rho``, bit for bit, with zeros in some rows, and pairs are left out."""
    from relations.measures._divergences import pair_kernel, rho_for_max

    rng = np.random.default_rng(10 + m)
    # mechanisms of 8 pairs each, some pairs far apart and some close: many pairs cannot be the largest
    spread = rng.choice([0.3, 3.0, 30.0], size=(50, 8, 1))
    A, C = rng.dirichlet(np.full(m, 1.0), size=(50, 8)) * spread, rng.dirichlet(np.full(m, 1.0), size=(50, 8)) * spread
    A, C = A + 1.0, C + 1.0  # close to uniform, more or less by spread
    A[::5, :, 0] = 0.0  # zeros in some rows (one-sided bounds there)
    A, C = A / A.sum(axis=-1, keepdims=True), C / C.sum(axis=-1, keepdims=True)
    every, pruned = pair_kernel("rho", None, A, C, {}), rho_for_max(A, C, {})
    assert np.isneginf(pruned).any() and np.isfinite(pruned.max(axis=-1)).all()
    assert every.max(axis=-1).tobytes() == pruned.max(axis=-1).tobytes()
    kept = ~np.isneginf(pruned)
    assert pruned[kept].tobytes() == every[kept].tobytes()  # the pairs computed: their own bits
    # each pair left out is within its bound (reached when A has a zero: then D_a = max ln(A/C) at every order)
    top = np.where(A > 0, np.log(np.where(A > 0, A, 1.0) / C), -np.inf).max(axis=-1)
    assert (every[~kept] <= top[~kept] * (1 + 1e-12)).all()
    # rows that do not sum to 1 are not bounded: every pair is computed
    assert not np.isneginf(rho_for_max(1.5 * A, C, {})).any()
