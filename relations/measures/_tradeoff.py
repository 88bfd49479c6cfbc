"""The f-DP trade-off curve of a finite mechanism, exactly, and the smallest Gaussian-DP ``mu`` it dominates.

Testing the null ``P = Q[x]`` against the alternative ``R = Q[x']`` with a rejection rule ``phi``
has type I error ``alpha = E_P[phi]`` and type II error ``beta = 1 - E_R[phi]``; the trade-off
function is ``T(P, R)(alpha) = inf {beta_phi : alpha_phi <= alpha}`` (Dong, Roth, Su 2022, Def. 2.1).
For distributions on a finite set it is exact and piecewise linear (Neyman-Pearson): order the
outputs by the likelihood ratio ``R_y / P_y``, largest first (``P_y = 0 < R_y`` is ``+inf``), and
reject them one group of equal ratios at a time; the cumulative sums ``(sum P, 1 - sum R)`` are the
breakpoints, rational when the rows are (:func:`pair_curve`).  Each breakpoint is attained by a
deterministic test (reject the groups taken so far); points between two are attained by randomising
on the next group.

A mechanism is ``f``-DP when ``T(Q[x], Q[x']) >= f`` for every ordered neighbour pair (Dong et al.,
Def. 2.3).  Two curves are reported (:func:`tradeoff_curve`):

* ``f``, **the trade-off function of the mechanism**: the largest trade-off function below every pair's
  curve.  A trade-off function is convex (Dong et al., Prop. 2.2), so this is the greatest convex
  minorant of the pointwise minimum; it is the lower convex hull of all the pairs' breakpoints (each
  pair's curve lies in the hull of its own breakpoints), so its vertices are pairs' breakpoints, each
  attained by one pair's deterministic test.  The neighbour relations here are symmetric and both
  orders of every pair are taken: with ``T(Q, P) = T(P, Q)^{-1}`` the region above ``f`` is symmetric
  about ``beta = alpha``, so ``f`` is already symmetric (``f = f^{-1}``), as Dong et al. (Prop. 2.4)
  arrange by symmetrisation.
* **the pointwise minimum** ``min_{x ~ x'} T(Q[x], Q[x'])(alpha)``: the least type II error an adversary
  achieves at level ``alpha`` against one pair it picks.  It can be non-convex (no randomisation
  across pairs), so it is not itself a trade-off function; its breakpoints (crossings included) are
  rational too.

Gaussian DP: ``mu``-GDP is ``f >= G_mu`` with ``G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu)`` (Dong et al.,
Def. 2.6).  ``G_mu`` is convex, so ``f >= G_mu`` on a segment of ``f`` iff it holds at its ends, and at a
breakpoint ``(a, b)`` with ``0 < a, b < 1`` it reads ``mu >= Phi^{-1}(1 - a) - Phi^{-1}(b)``.  Hence the
smallest ``mu`` (:func:`gdp_mu`) is ``max(0, max_i Phi^{-1}(1 - a_i) - Phi^{-1}(b_i))`` over the vertices
of ``f`` (equally over every pair's breakpoints: ``G_mu <= f`` iff ``G_mu`` is below every pair's curve),
and ``+inf`` when ``f(0) < 1`` (``G_mu(0) = 1``: some ``Q[x']`` puts mass where ``Q[x]`` has none) or when
``f(a) = 0`` at some ``a < 1`` (``G_mu > 0`` on ``[0, 1)``).  With
``Phi^{-1}(s) = -sqrt(2) erfcinv(2 s)`` each term is ``sqrt(2) (erfcinv(2 a) + erfcinv(2 b))``, enclosed
in arb ball arithmetic (python-flint's certified ``erfcinv``); the maximum of enclosures encloses the
maximum, and the float shown is the correctly rounded value of the enclosure.

Product forms reduce to the local channel's rows (:mod:`relations.measures._pairs`): the other records'
factors are the same on both sides, so the likelihood ratio, and with it the curve, is the differing
record's.

References
----------
.. [1] J. Dong, A. Roth, W. J. Su. Gaussian Differential Privacy. J. R. Stat. Soc. B 84(1), 2022.
   doi:10.1111/rssb.12454
.. [2] J. Neyman, E. S. Pearson. On the Problem of the Most Efficient Tests of Statistical
   Hypotheses. Phil. Trans. R. Soc. A 231, 1933. doi:10.1098/rsta.1933.0009

Examples
--------
Binary randomized response with ratio 3 (rows ``(3/4, 1/4)`` and ``(1/4, 3/4)``): rejecting the output
``1`` first costs ``alpha = 1/4`` and leaves ``beta = 1/4``:

>>> from relations.mechanisms import randomized_response
>>> c = tradeoff_curve(randomized_response(3))
>>> [(str(p.alpha), str(p.beta)) for p in c.breakpoints]
[('0', '1'), ('1/4', '1/4'), ('1', '0')]
>>> str(c.mu.value), float(c.mu.value)  # 2 Phi^-1(3/4)
('Phi^-1(1 - 1/4) - Phi^-1(1/4)', 1.3489795003921634)
"""

from __future__ import annotations

import functools
import math
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from relations.measures._pairs import NotionResult, Pair, float_rows, lift, row_pairs
from relations.measures._results import Witness
from relations.model._mechanism import Mechanism
from relations.numbers._enclosure import ball, display_float, interval, rational, working_precision
from relations.numbers._reals import ArbExpr, Rational, inf

__all__ = ["Breakpoint", "TradeoffCurve", "pair_curve", "lower_hull", "pointwise_minimum", "tradeoff_curve",
           "gdp_mu", "gdp_mu_pairs", "mu_term_enclosure", "MAX_MINIMUM_WORK"]

#: The pointwise minimum is computed when (curves x grid points) is at most this (else ``None``).
MAX_MINIMUM_WORK = 1_000_000

#: The widest arb precision tried when separating ``mu`` candidates or rounding its float.
_MAX_PREC = 1 << 14


@dataclass(frozen=True)
class Breakpoint:
    """A vertex ``(alpha, beta)`` of a trade-off curve and a test that attains it.

    Attributes
    ----------
    alpha, beta : Fraction
        Type I and type II errors (floats in float mode).
    pair : Witness or None
        The neighbour pair ``(x, x')``: null ``Q[x]``, alternative ``Q[x']`` (None: no pair, the curve ``1 - alpha``).
    reject : tuple of int
        The outputs the deterministic Neyman-Pearson test rejects on (columns of the pair's rows; for a
        product form, outputs of the differing record's local channel).
    """

    alpha: Any
    beta: Any
    pair: Witness | None = None
    reject: tuple[int, ...] = ()


@dataclass(frozen=True)
class TradeoffCurve:
    """The f-DP trade-off curve of a mechanism (module docstring).

    Attributes
    ----------
    breakpoints : tuple of Breakpoint
        The vertices of ``f``, the greatest convex minorant of the pairs' curves, from ``alpha = 0`` to
        ``(1, 0)``; ``f`` is linear between them.
    minimum : tuple of (alpha, beta) or None
        The breakpoints of the pointwise minimum over ordered pairs (crossings included), or None when not
        computed (``pointwise=False``, or more work than :data:`MAX_MINIMUM_WORK`).
    mu : NotionResult
        The smallest Gaussian-DP ``mu`` (:func:`gdp_mu`).
    pairs : int
        The ordered neighbour pairs with different rows, one per multiset of column pairs.
    exact : bool
        False in float mode.
    """

    breakpoints: tuple[Breakpoint, ...]
    minimum: tuple[tuple[Any, Any], ...] | None
    mu: NotionResult
    pairs: int
    exact: bool = True

    def __call__(self, alpha: Fraction | int) -> Fraction:
        """``f(alpha)``, exactly (linear between breakpoints).

        Examples
        --------
        >>> from relations.mechanisms import randomized_response
        >>> tradeoff_curve(randomized_response(3))(Fraction(1, 8))
        Fraction(5, 8)
        """
        return _evaluate([(p.alpha, p.beta) for p in self.breakpoints], Fraction(alpha))


def pair_curve(p: Sequence, q: Sequence) -> list[tuple[Any, Any, tuple[int, ...]]]:
    """The breakpoints of ``T(P, R)``: the Neyman-Pearson tests of the null ``p`` against ``q``.

    Parameters
    ----------
    p, q : sequence
        Two rows (Fractions, or floats), each summing to 1.

    Returns
    -------
    list of (alpha, beta, reject)
        From ``(0, T(0))`` to ``(1, 0)``, ``alpha`` strictly increasing, one point per group of outputs of equal
        likelihood ratio ``q_y / p_y``; ``reject`` the outputs rejected so far.  ``T(0) = 1 - q(p = 0)``.

    Examples
    --------
    >>> F = Fraction
    >>> [(str(a), str(b), r) for a, b, r in pair_curve([F(1, 2), F(1, 2), F(0)], [F(1, 4), F(1, 4), F(1, 2)])]
    [('0', '1/2', (2,)), ('1', '0', (0, 1, 2))]
    """
    zero = 0 * p[0]
    top = [y for y, (a, b) in enumerate(zip(p, q)) if a == 0 and b != 0]  # ratio +inf
    finite = sorted(((q[y] / p[y], y) for y in range(len(p)) if p[y] != 0), key=lambda t: t[0], reverse=True)
    groups: list[list[int]] = [top] if top else []
    for i, (r, y) in enumerate(finite):  # equal ratios are adjacent: one group (no hashing: fmpq hashes slowly)
        if i and r == finite[i - 1][0]:
            groups[-1].append(y)
        else:
            groups.append([y])
    out: list[tuple[Any, Any, tuple[int, ...]]] = [] if top else [(zero, zero + 1, ())]
    a, b, reject = zero, zero + 1, []
    for cols in groups:
        a, b = a + sum((p[y] for y in cols), zero), b - sum((q[y] for y in cols), zero)
        reject.extend(cols)
        out.append((a, b, tuple(sorted(reject))))
    if isinstance(zero, float):  # the float sums end near (1, 0); the curve ends there
        last = out[-1]
        out[-1] = (1.0, 0.0, last[2])
    return out


def _cross(o, a, b) -> Any:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def lower_hull(points: Sequence[tuple]) -> list[tuple]:
    """The vertices of the lower convex hull of ``points`` (tuples whose first two entries are ``x, y``), left
    to right, collinear points dropped (Andrew's monotone chain, exact for Fractions).

    Examples
    --------
    >>> F = Fraction
    >>> [p[:2] for p in lower_hull([(F(0), F(1)), (F(1, 2), F(1, 2)), (F(1, 4), F(1, 4)), (F(1), F(0))])]
    [(Fraction(0, 1), Fraction(1, 1)), (Fraction(1, 4), Fraction(1, 4)), (Fraction(1, 1), Fraction(0, 1))]
    """
    hull: list[tuple] = []
    for pt in sorted(points, key=lambda t: (t[0], t[1])):
        while len(hull) >= 2 and _cross(hull[-2], hull[-1], pt) <= 0:
            hull.pop()
        if hull and hull[-1][0] == pt[0]:
            continue  # the same alpha, a higher beta: not on the lower hull
        hull.append(pt)
    return hull


def _evaluate(curve: Sequence[tuple], x: Any) -> Any:
    """A piecewise linear curve (points with strictly increasing first entries) at ``x`` in its range."""
    xs = [c[0] for c in curve]
    i = bisect_right(xs, x) - 1
    if i >= len(curve) - 1:
        return curve[-1][1]
    (x0, y0), (x1, y1) = curve[i][:2], curve[i + 1][:2]
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


def _on_grid(curve: Sequence[tuple], grid: Sequence) -> list:
    """A piecewise linear curve at every point of the sorted ``grid`` (within its range), in one sweep."""
    out, i = [], 0
    for x in grid:
        while i < len(curve) - 2 and curve[i + 1][0] <= x:
            i += 1
        (x0, y0), (x1, y1) = curve[i][:2], curve[i + 1][:2]
        out.append(y0 if x == x0 else y1 if x == x1 else y0 + (y1 - y0) * (x - x0) / (x1 - x0))
    return out


def pointwise_minimum(curves: Sequence[Sequence[tuple]]) -> list[tuple[Any, Any]]:
    """The breakpoints of ``min_i T_i`` for piecewise linear curves on ``[0, 1]`` (crossings included).

    Between consecutive breakpoints of all curves every curve is linear; there the minimum is concave, and
    is followed from the left end by switching, at the first crossing, to the line of smallest slope.

    Parameters
    ----------
    curves : sequence of sequence of tuple
        Each ``[(alpha, beta, ...), ...]`` from ``alpha = 0`` to ``1``, ``alpha`` strictly increasing.

    Returns
    -------
    list of (alpha, beta)
        Collinear points dropped.

    Examples
    --------
    Two crossing lines ``1 - 2 a`` (then 0) and ``1/2 - a/2``: they cross at ``a = 1/3``.

    >>> F = Fraction
    >>> pointwise_minimum([[(F(0), F(1)), (F(1, 2), F(0)), (F(1), F(0))], [(F(0), F(1, 2)), (F(1), F(0))]])
    [(Fraction(0, 1), Fraction(1, 2)), (Fraction(1, 3), Fraction(1, 3)), (Fraction(1, 2), Fraction(0, 1)), (Fraction(1, 1), Fraction(0, 1))]
    """
    grid = sorted({c[0] for curve in curves for c in curve})
    values = [_on_grid(c, grid) for c in curves]  # values[i][k] = curve i at grid[k]
    out: list[tuple[Any, Any]] = []
    for k, (x0, x1) in enumerate(zip(grid, grid[1:])):
        v0 = [v[k] for v in values]
        v1 = [v[k + 1] for v in values]
        slope = [(b - a) / (x1 - x0) for a, b in zip(v0, v1)]
        cur = min(range(len(curves)), key=lambda i: (v0[i], slope[i]))
        x = x0
        out.append((x0, v0[cur]))
        while True:
            best = None
            for j in range(len(curves)):
                if slope[j] < slope[cur]:
                    xc = x0 + (v0[j] - v0[cur]) / (slope[cur] - slope[j])
                    if x < xc < x1 and (best is None or (xc, slope[j]) < best[:2]):
                        best = (xc, slope[j], j)
            if best is None:
                break
            x, cur = best[0], best[2]
            out.append((x, v0[cur] + slope[cur] * (x - x0)))
    out.append((grid[-1], min(c[-1][1] for c in curves)))
    kept: list[tuple[Any, Any]] = []
    for pt in out:
        if kept and kept[-1][0] == pt[0]:
            continue
        while len(kept) >= 2 and _cross(kept[-2], kept[-1], pt) == 0:
            kept.pop()
        kept.append(pt)
    return kept


def mu_term_enclosure(a: Fraction, b: Fraction, prec: int) -> tuple[Fraction, Fraction]:
    """An enclosure of ``Phi^{-1}(1 - a) - Phi^{-1}(b) = sqrt(2) (erfcinv(2 a) + erfcinv(2 b))`` (``0 < a, b < 1``)
    in arb ball arithmetic at ``prec`` bits.

    Examples
    --------
    >>> lo, hi = mu_term_enclosure(Fraction(1, 2), Fraction(1, 2), 64)  # Phi^-1(1/2) - Phi^-1(1/2)
    >>> lo <= 0 <= hi
    True

    ``b`` within ``2^-300`` of 1: ``-Phi^-1(1 - t) = Phi^-1(t)``, about ``-20.2`` at ``t = 2^-300``
    (``2 b`` rounds to the pole ``erfcinv(2)`` at 64 bits; its mirror ``2 t`` does not):

    >>> t = Fraction(1, 2**300)
    >>> lo, hi = mu_term_enclosure(Fraction(1, 2), 1 - t, 64)
    >>> mlo, mhi = mu_term_enclosure(Fraction(1, 2), t, 64)
    >>> (float(lo), float(hi)) == (-float(mhi), -float(mlo)), -20.3 < float(lo) < -20.1
    (True, True)
    """
    from flint import arb

    def erfcinv2(x: Fraction):  # erfcinv(2 x); near 2 (2 x rounded up to the pole 2) by erfcinv(2 - y) = -erfcinv(y)
        direct = ball(2 * x).erfcinv()
        return direct if direct.is_finite() or x <= Fraction(1, 2) else -ball(2 * (1 - x)).erfcinv()

    with working_precision(prec):
        return interval((erfcinv2(a) + erfcinv2(b)) * arb(2).sqrt())


def _mu_enclosure(terms: Sequence[tuple[Fraction, Fraction]], bits: int) -> tuple[Fraction, Fraction]:
    """``[max lo_i, max hi_i]``, an enclosure of ``max_i mu_i`` of width at most ``2^-bits`` (the precision rises
    until it is)."""
    prec = bits + 32
    while True:
        ends = [mu_term_enclosure(a, b, prec) for a, b in terms]
        lo, hi = max(e[0] for e in ends), max(e[1] for e in ends)
        if hi - lo <= Fraction(1, 2 ** bits) or prec >= 4 * _MAX_PREC:
            return lo, hi
        prec *= 2


def _nearest_float(enclose) -> float:
    """The float nearest the number ``enclose(bits)`` contains: ``float`` of both ends agree (rounding is monotone)."""
    bits = 64
    while True:
        lo, hi = enclose(bits)
        if display_float(lo) == display_float(hi) or bits >= _MAX_PREC:
            return display_float((lo + hi) / 2)
        bits *= 2


def _candidates(vertices: Sequence[Breakpoint]) -> list[Breakpoint]:
    """The vertices whose term ``Phi^{-1}(1 - a) - Phi^{-1}(b)`` may be the largest: all interior vertices below
    the diagonal, narrowed by enclosures (one of each unordered ``{a, b}``, whose terms are equal)."""
    seen: dict[frozenset, Breakpoint] = {}
    for v in vertices:
        if 0 < v.alpha < 1 and 0 < v.beta and v.alpha + v.beta < 1:
            seen.setdefault(frozenset((v.alpha, v.beta)), v)
    cands = list(seen.values())
    prec = 128
    while len(cands) > 1 and prec <= _MAX_PREC:
        ends = [mu_term_enclosure(v.alpha, v.beta, prec) for v in cands]
        top = max(e[0] for e in ends)
        cands = [v for v, e in zip(cands, ends) if e[1] >= top]
        prec *= 4
    return cands


def _mu_result(vertices: Sequence[Breakpoint], name: str, fallback: Witness | None, bits: int = 100) -> NotionResult:
    """:func:`gdp_mu` from the vertices of ``f`` (exact)."""
    first = vertices[0]
    if first.beta < 1:
        return NotionResult(name, inf(), first.pair, "f(0) < 1: an output one row has and its neighbour lacks")
    for v in vertices:
        if v.beta == 0 and v.alpha < 1:
            return NotionResult(name, inf(), v.pair, f"f({v.alpha}) = 0 below alpha = 1")
    cands = _candidates(vertices)
    if not cands:
        return NotionResult(name, Rational(Fraction(0)), fallback, "f(alpha) = 1 - alpha")
    terms = [(v.alpha, v.beta) for v in cands]
    text = " = ".join(f"Phi^-1(1 - {a}) - Phi^-1({b})" for a, b in terms)

    def enclose(bits: int) -> tuple[Fraction, Fraction]:
        return _mu_enclosure(terms, bits)

    value = ArbExpr(text, 0.0, enclose)
    value = ArbExpr(text, _nearest_float(value.enclose), enclose, display_bits=bits)
    at = cands[0]
    return NotionResult(name, value, at.pair, f"at the breakpoint ({at.alpha}, {at.beta}), rejecting outputs "
                        f"{list(at.reject)}")


def gdp_mu_pairs(A: np.ndarray, C: np.ndarray) -> np.ndarray:
    """The smallest Gaussian-DP ``mu`` of every pair of rows ``(A[..., :], C[..., :])``, in floats (the searches).

    The breakpoints of ``T(A, C)`` by sorted likelihood ratios; each tail sum (``1 - alpha``, ``beta``) is summed
    from its own end, so exact zeros stay zeros; ``mu = max(0, max Phi^{-1}(1 - alpha) - Phi^{-1}(beta))`` over
    breakpoints inside the square, ``inf`` when ``T(0) < 1`` or ``T`` reaches 0 before ``alpha = 1``.  ``mu`` is
    symmetric in the pair (the curve of ``(C, A)`` is the inverse of ``(A, C)``'s), so one order suffices.

    Parameters
    ----------
    A, C : numpy.ndarray
        Rows of the same shape ``(..., m)``, float64.

    Returns
    -------
    numpy.ndarray
        Shape ``A.shape[:-1]``.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[0.75, 0.25], [0.5, 0.5], [1.0, 0.0]])
    >>> gdp_mu_pairs(A, np.array([[0.25, 0.75], [0.5, 0.5], [0.5, 0.5]])).round(6).tolist()  # 2 Phi^-1(3/4), 0, inf
    [1.34898, 0.0, inf]
    """
    from relations.numbers._batched import gathered

    A, C = np.asarray(A, dtype=float), np.asarray(C, dtype=float)
    reached = A > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        key = np.where(reached, C / np.where(reached, A, 1.0), np.where(C > 0, np.inf, -1.0))
    order = np.argsort(-key, axis=-1, kind="stable")
    ac = np.stack([gathered(A, order), gathered(C, order)])  # both rows sorted (np.take_along_axis, faster)
    heads = np.cumsum(ac, axis=-1)
    # the sums after position k: 1 - alpha_k and beta_k
    tails = np.maximum(np.flip(np.cumsum(np.flip(ac, -1), axis=-1), -1) - ac, 0.0)
    head_pos, tail_pos = heads > 0, tails > 0  # (of A's and C's at once)
    broken = (((heads[0] == 0) & head_pos[1]) | ((tails[1] == 0) & tail_pos[0])).any(axis=-1)
    inside = head_pos[0] & head_pos[1] & tail_pos[0] & tail_pos[1]
    terms = np.zeros(inside.shape)
    z = _probit(tails[:, inside].reshape(-1))  # A's tails, then C's
    terms[inside] = z[:z.size // 2] - z[z.size // 2:]
    return np.where(broken, np.inf, np.maximum(0.0, terms.max(axis=-1, initial=0.0)))


def _probit(p: np.ndarray) -> np.ndarray:
    """``Phi^{-1}(p)`` entrywise for ``0 <= p <= 1`` (``-inf`` at 0, ``inf`` at 1): the standard library's
    :meth:`statistics.NormalDist.inv_cdf` (Wichura's algorithm AS 241, about 1e-16 relative), one entry at a time.
    The searches' few thousand points cost less so than importing ``scipy.special`` (about 0.2 s of CPU).

    Examples
    --------
    >>> _probit(np.array([0.0, 0.5, 0.975, 1.0])).round(6).tolist()
    [-inf, 0.0, 1.959964, inf]
    """
    p = np.asarray(p, dtype=float)
    out = np.where(p >= 1.0, np.inf, -np.inf)
    inside = (p > 0.0) & (p < 1.0)
    if inside.any():
        out[inside] = np.fromiter(map(_inv_cdf(), p[inside].tolist()), float)
    return out


@functools.cache
def _inv_cdf() -> Callable[[float], float]:
    """:meth:`statistics.NormalDist.inv_cdf` of the standard normal."""
    import statistics

    return statistics.NormalDist().inv_cdf


def _float_mu(mech: Mechanism, name: str) -> NotionResult:
    """Float mode: :func:`gdp_mu_pairs` over the ordered pairs."""
    a, pairs = float_rows(mech)
    if len(pairs) == 0:
        return NotionResult(name, Rational(Fraction(0)))
    vals = gdp_mu_pairs(a[pairs[:, 0]], a[pairs[:, 1]])
    i = int(np.argmax(vals))
    x, xp = pairs[i].tolist()
    v = float(vals[i])
    return NotionResult(name, inf() if math.isinf(v) else Rational(Fraction(v)), lift(mech, x, xp))


def _curves(mech: Mechanism) -> tuple[list[Pair], list[list[tuple]], Witness | None]:
    """The distinct pairs and their curves: exact rows in python-flint's ``fmpq`` (exact rationals, about ten
    times faster than ``Fraction`` here; :func:`_fraction` converts back), float rows in floats."""
    distinct, same = row_pairs(mech)
    if mech.exact:
        rows: dict[int, list] = {}  # by the row tuple's id: row_pairs passes the mechanism's own row tuples, which
        # stay alive (in ``distinct``) while the ids are used, so one conversion per row

        def q(row: tuple) -> list:
            if id(row) not in rows:
                rows[id(row)] = [rational(v) for v in row]
            return rows[id(row)]

        curves = [pair_curve(q(p.p), q(p.q)) for p in distinct]
    else:
        curves = [pair_curve(list(p.p), list(p.q)) for p in distinct]
    return distinct, curves, (same.witness if same else None)


def _fraction(x: Any) -> Any:
    """An ``fmpq`` as a ``Fraction`` (floats and Fractions unchanged)."""
    return x if isinstance(x, (float, Fraction)) else Fraction(int(x.p), int(x.q))


def tradeoff_curve(mech: Mechanism, *, pointwise: bool = True, bits: int = 100) -> TradeoffCurve:
    """The f-DP trade-off curve of a mechanism: the exact piecewise linear ``f``, the pointwise minimum and ``mu``.

    Parameters
    ----------
    mech : Mechanism
        Any mechanism (dense, graph, product; exact, or float mode with float breakpoints).
    pointwise : bool, optional
        Also compute the pointwise minimum over the pairs (skipped beyond :data:`MAX_MINIMUM_WORK`).
    bits : int, optional
        The width of the ``mu`` enclosure that outputs show, at most ``2^-bits`` (100 by default).

    Returns
    -------
    TradeoffCurve

    References
    ----------
    .. [1] J. Dong, A. Roth, W. J. Su. Gaussian Differential Privacy. J. R. Stat. Soc. B 84(1), 2022.
       doi:10.1111/rssb.12454

    Examples
    --------
    Identical rows cannot be told apart: ``f(alpha) = 1 - alpha`` and ``mu = 0``; disjoint rows are told apart
    surely: ``f = 0`` and no finite ``mu``:

    >>> from relations.model import Mechanism
    >>> same = tradeoff_curve(Mechanism.local([["1/2", "1/2"], ["1/2", "1/2"]]))
    >>> [(str(p.alpha), str(p.beta)) for p in same.breakpoints], str(same.mu.value)
    ([('0', '1'), ('1', '0')], '0')
    >>> apart = tradeoff_curve(Mechanism.local([["1", "0"], ["0", "1"]]))
    >>> [(str(p.alpha), str(p.beta)) for p in apart.breakpoints], str(apart.mu.value)
    ([('0', '0'), ('1', '0')], 'inf')
    """
    distinct, curves, same = _curves(mech)
    one = 0 * curves[0][0][0] + 1 if curves else Fraction(1)
    hull: list[tuple] = [(one - one, one, None, ()), (one, one - one, None, ())]  # 1 - alpha: every curve is below
    for pair, curve in zip(distinct, curves):  # the hull of a union is the hull of the parts' hulls: in batches
        hull.extend((a, b, pair.witness, r) for a, b, r in curve)
        if len(hull) > 1 << 17:
            hull = lower_hull(hull)
    hull = lower_hull(hull)
    vertices = tuple(Breakpoint(_fraction(a), _fraction(b), w if w is not None else same, r) for a, b, w, r in hull)
    minimum: tuple[tuple[Any, Any], ...] | None = None
    if pointwise:
        if not curves:
            minimum = ((Fraction(0), Fraction(1)), (Fraction(1), Fraction(0)))
        elif len(curves) * len({c[0] for curve in curves for c in curve}) <= MAX_MINIMUM_WORK:
            minimum = tuple((_fraction(a), _fraction(b)) for a, b in pointwise_minimum(curves))
    name = "gdp_mu"
    mu = _mu_result(vertices, name, same, bits) if mech.exact else _float_mu(mech, name)
    return TradeoffCurve(vertices, minimum, mu, len(distinct), mech.exact)


def gdp_mu(mech: Mechanism, *, name: str = "gdp_mu") -> NotionResult:
    """The smallest ``mu`` such that the mechanism is ``mu``-Gaussian DP: ``f >= G_mu`` (module docstring).

    Parameters
    ----------
    mech : Mechanism
        Any mechanism.
    name : str, optional
        The name of the result.

    Returns
    -------
    NotionResult
        ``0`` (rational) when every neighbour pair has equal rows; ``inf`` when ``f(0) < 1`` or ``f`` reaches 0
        before ``alpha = 1``; else a certified enclosure (its float correctly rounded), with the pair whose
        Neyman-Pearson test attains the binding breakpoint.  Float mode: floats.

    References
    ----------
    .. [1] J. Dong, A. Roth, W. J. Su. Gaussian Differential Privacy. J. R. Stat. Soc. B 84(1), 2022,
       Def. 2.6 and Cor. 2.13. doi:10.1111/rssb.12454

    Examples
    --------
    Binary randomized response with ratio 3: ``mu = Phi^-1(3/4) - Phi^-1(1/4) = 2 Phi^-1(3/4)``:

    >>> from relations.mechanisms import randomized_response
    >>> r = gdp_mu(randomized_response(3))
    >>> float(r.value), r.witness
    (1.3489795003921634, Witness(x=0, x_prime=1, y=None))
    """
    if not mech.exact:
        return _float_mu(mech, name)
    mu = tradeoff_curve(mech, pointwise=False).mu
    return NotionResult(name, mu.value, mu.witness, mu.detail)
