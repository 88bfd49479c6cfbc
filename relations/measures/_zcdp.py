"""Zero-concentrated differential privacy: ``rho = sup_{alpha > 1} renyi(alpha) / alpha``, certified.

``rho``, the smallest ``rho`` of ``rho``-zCDP (Bun and
Steinke 2016).  It is ``inf`` when two neighbours' supports differ, else ``max`` over pairs of
``sup f``, ``f(alpha) = D_alpha / alpha``, enclosed by branch and bound over ``alpha``:
``D_alpha`` is nondecreasing in ``alpha`` (van Erven and Harremoes 2014), so on ``[a, b]``
``f <= D_b / a``, and the mean-value form ``f(m) + f'([a, b]) [-r, r]`` (``f'`` in ball
arithmetic) is tighter near a maximum; ``f -> KL`` as ``alpha -> 1`` (so ``rho >= KL``), and near
``1`` Taylor's theorem bounds ``D_{1+b} = KL + b V / 2`` with ``V`` the variance of ``ln(P/R)``
under the tilted ``P e^(t ln(P/R))``, ``t`` in ``[0, b]`` (enclosed in ball arithmetic);
``f <= D_inf / B`` beyond ``B``.
Only pairs whose upper bound ``min(eps^2/2, D_inf)`` (``eps = max |ln(P/R)|``; Bun and Steinke,
Prop. 3.3) reaches the largest ``KL`` are searched.

Product forms reduce to ``W`` (:mod:`relations.measures._pairs`).  Float mode runs the branch and
bound at 40 bits on the binary values of the candidate pairs and reports the midpoint as a
:class:`~relations.numbers.Rational`.
"""

from __future__ import annotations

import heapq
import math
from fractions import Fraction

import numpy as np

from relations.measures._pairs import NotionResult, Pair, float_rows, lift, row_pairs
from relations.measures._renyi import _float_divergences, _is_zero, _max_expr, _mismatch, max_kl_sign
from relations.model._mechanism import Mechanism
from relations.numbers._enclosure import ball, display_float, interval, rational, working_precision
from relations.numbers._reals import Rational, inf

__all__ = ["rho", "rho_pair", "rho_is_kl"]


def rho_pair(p, q, bits: int) -> tuple[Fraction, Fraction]:
    """An enclosure of ``sup_{alpha > 1} D_alpha(P || R) / alpha`` for rows with equal supports, ``P != R``.

    The branch and bound of the module docstring; the working effort grows with ``bits`` (at most
    256), aiming at width ``2**-bits``, and the enclosure is returned as it is when the effort is
    spent.

    Parameters
    ----------
    p, q : sequence of Fraction
        The rows ``P`` and ``R``.
    bits : int
        Target width ``2**-bits``.

    Returns
    -------
    tuple of Fraction
        ``(lower, upper)``.

    Examples
    --------
    >>> F = Fraction
    >>> lo, hi = rho_pair([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)], 30)
    >>> hi - lo <= F(1, 2**30), round(float(lo), 9)
    (True, 0.549306144)
    """
    from flint import arb

    effort = min(bits, 256)
    target = Fraction(1, 2**effort)
    with working_precision(2 * effort + 80):
        terms = [(rational(a), ball(a / b).log()) for a, b in zip(p, q) if a]

        def sums(am1, derivative=0):
            s, s1, s2 = arb(0), arb(0), arb(0)
            for a, lg in terms:
                e = a * (am1 * lg).exp()
                s += e
                if derivative:
                    s1 += e * lg
                    s2 += e * lg * lg
            return s, s1, s2

        def f_at(alpha: Fraction):
            am1 = arb(rational(alpha - 1))
            return sums(am1)[0].log() / (arb(rational(alpha)) * am1)

        def d_upper(alpha: Fraction) -> Fraction:
            am1 = arb(rational(alpha - 1))
            return interval(sums(am1)[0].log() / am1)[1]

        def bounds(a: Fraction, b: Fraction) -> tuple[Fraction, Fraction]:
            m = (a + b) / 2
            fm = f_at(m)
            best = d_upper(b) / a  # D nondecreasing in alpha
            # Taylor: D_{1+beta} = KL + beta V(xi) / 2, V the variance of ln(P/R) tilted by xi in [0, beta]
            s, s1, s2 = sums(arb(0).union(arb(rational(b - 1))), 1)
            v = s2 / s - (s1 / s) ** 2
            if v.is_finite():
                c = interval(v)[1] / 2
                best = min(best, max((kl_hi + beta * c) / (1 + beta) for beta in (a - 1, b - 1)))
            if a > 1:  # mean-value form with f' in ball arithmetic
                al = arb(rational(a)).union(arb(rational(b)))
                s, s1, _ = sums(al - 1, 1)
                h = al * (al - 1)
                fp = (s1 / s * h - s.log() * (2 * al - 1)) / (h * h)
                r = arb(rational(-(b - a) / 2)).union(arb(rational((b - a) / 2)))
                u2 = fm + fp * r
                if u2.is_finite():
                    best = min(best, interval(u2)[1])
            return interval(fm)[0], best

        lower, kl_hi = interval(sum((a * lg for a, lg in terms), arb(0)))
        dinf = interval(ball(max(a / b for a, b in zip(p, q) if a)).log())[1]
        cap = Fraction(2 ** (effort + 8))
        big = min(cap, max(Fraction(2), Fraction(math.ceil(dinf / lower)) + 1)) if lower > 0 else cap
        tail = dinf / big
        lo0, up0 = bounds(Fraction(1), big)
        lower = max(lower, lo0)
        heap = [(-up0, Fraction(1), big)]
        budget = 60 + 12 * effort
        while heap and budget > 0:
            up, a, b = -heap[0][0], heap[0][1], heap[0][2]
            if up - lower <= target:
                break
            heapq.heappop(heap)
            if up < lower:
                continue
            if a == 1:
                mid = 1 + (b - 1) / 8
            elif b - 1 > 4 * (a - 1):
                e = (math.log2(a - 1) + math.log2(b - 1)) / 2
                mid = 1 + Fraction(2) ** round(e)
                mid = mid if a < mid < b else (a + b) / 2
            else:
                mid = (a + b) / 2
            for c, d in ((a, mid), (mid, b)):
                lo_c, up_c = bounds(c, d)
                budget -= 1
                lower = max(lower, lo_c)
                if up_c >= lower:
                    heapq.heappush(heap, (-up_c, c, d))
        upper = max([lower, tail] + [-u for u, _, _ in heap])
    return lower, upper


def rho(mech: Mechanism, *, name: str = "rho") -> NotionResult:
    """Zero-concentrated DP: the smallest ``rho`` with ``D_alpha <= rho alpha`` for every ``alpha > 1``.

    Parameters
    ----------
    mech : Mechanism
        Any mechanism (dense, graph, product; exact or float mode).
    name : str, optional
        The name of the result.

    Returns
    -------
    NotionResult
        A certified enclosure (branch and bound, module docstring), ``inf`` when two
        neighbours' supports differ, ``0`` when every neighbour pair has equal rows.

    References
    ----------
    .. [1] Bun, Steinke. Concentrated Differential Privacy: Simplifications, Extensions, and
       Lower Bounds. TCC 2016, LNCS 9985, pp. 635-658. doi:10.1007/978-3-662-53641-4_24

    Examples
    --------
    Binary randomized response with ratio 3 is ``ln 3``-DP, so ``rho <= (ln 3)^2 / 2 = 0.6035``;
    the supremum is the limit ``KL = (1/2) ln 3`` at ``alpha -> 1``:

    >>> from relations.mechanisms import randomized_response
    >>> lo, hi = rho(randomized_response(3)).value.enclose(40)
    >>> float(lo), hi - lo < Fraction(1, 2**40)
    (0.5493061443340549, True)
    """
    if not mech.exact:
        return _float_rho(mech, name)
    distinct, same = row_pairs(mech)
    if not distinct:
        return NotionResult(name, Rational(Fraction(0)), same.witness if same else None)
    for pair in distinct:
        if _mismatch(pair):
            return NotionResult(name, inf(), pair.witness)
    keep = _candidates(distinct)

    def pair_fn(pair: Pair):
        return lambda bits: rho_pair(pair.p, pair.q, bits)

    def tie(other):
        if _is_zero(other):
            return 1
        # rho = max KL over the searched pairs when each pair's supremum is its limit at alpha -> 1
        return max_kl_sign(keep, other) if all(rho_is_kl(p.p, p.q) for p in keep) else None

    expr, at = _max_expr("rho", [pair_fn(p) for p in keep], tie)
    return NotionResult(name, expr, keep[at].witness)


def rho_is_kl(p, q, *, bits: int = 96, max_boxes: int = 4000) -> bool:
    """Whether ``sup_{alpha > 1} D_alpha(P || R) / alpha`` is certified to be ``KL = D(P || R)``.

    With ``K(beta) = ln sum_y P_y (P_y/R_y)^beta``, ``D_{1+beta} = K(beta)/beta = KL + beta V(xi)/2``
    for some ``xi`` in ``[0, beta]`` (``V`` the variance of ``ln(P/R)`` under the tilted ``P``), so
    ``f(1 + beta) = D_{1+beta}/(1 + beta) < KL`` on ``(0, b]`` as soon as ``sup V/2 < KL`` there;
    beyond ``1 + b`` a branch and bound shows ``f < KL`` (``f <= D_inf/alpha`` past
    ``D_inf/KL``).  Then the supremum is the limit ``KL`` at ``alpha -> 1``, not attained.  False
    means "not certified" (a pair whose supremum is attained above ``1``, or the effort spent).

    Parameters
    ----------
    p, q : sequence of Fraction
        Rows with equal supports, ``P != R``.
    bits : int, optional
        Working precision.
    max_boxes : int, optional
        Most intervals of ``alpha`` examined.

    Returns
    -------
    bool

    Examples
    --------
    Binary randomized response: ``V/2 = (3/8)(ln 3)^2 < KL = (1/2) ln 3`` at ratio 3:

    >>> F = Fraction
    >>> rho_is_kl([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)])
    True
    """
    from flint import arb

    with working_precision(bits):
        terms = [(rational(a), ball(a / b).log()) for a, b in zip(p, q) if a]

        def sums(beta):
            s = s1 = s2 = arb(0)
            for a, lg in terms:
                e = a * (beta * lg).exp()
                s, s1, s2 = s + e, s1 + e * lg, s2 + e * lg * lg
            return s, s1, s2

        def half_variance(top: Fraction):
            s, s1, s2 = sums(arb(0).union(arb(rational(top))))
            v = s2 / s - (s1 / s) ** 2
            return interval(v)[1] / 2 if v.is_finite() else None

        kl_lo = interval(sum((a * lg for a, lg in terms), arb(0)))[0]
        if kl_lo <= 0:
            return False
        b = Fraction(1, 4)
        while (c := half_variance(b)) is None or c >= kl_lo:
            b /= 2
            if b < Fraction(1, 2**20):
                return False
        dinf = interval(ball(max(a / b_ for a, b_ in zip(p, q) if a)).log())[1]
        big = Fraction(math.floor(dinf / kl_lo) + 2)  # f(alpha) <= D_inf / alpha < KL beyond it
        stack, boxes = [(1 + b, big)], 0
        while stack:
            lo, hi = stack.pop()
            d_hi = interval(sums(arb(rational(hi - 1)))[0].log() / arb(rational(hi - 1)))[1]
            if d_hi / lo < kl_lo:  # D_alpha is nondecreasing in alpha
                continue
            boxes += 1
            if boxes > max_boxes:
                return False
            mid = (lo + hi) / 2
            stack += [(lo, mid), (mid, hi)]
    return True


def _candidates(distinct: list[Pair]) -> list[Pair]:
    """The pairs whose upper bound ``min(eps^2/2, D_inf)`` reaches the largest ``KL`` lower bound."""
    lows, ups = [], []
    with working_precision(80):
        for pair in distinct:
            logs = [ball(a / b).log() for a, b in zip(pair.p, pair.q) if a and b]
            lows.append(interval(sum((rational(a) * ball(a / b).log() for a, b in zip(pair.p, pair.q) if a),
                                     ball(Fraction(0))))[0])
            eps = max(max(abs(interval(lg)[0]), abs(interval(lg)[1])) for lg in logs)
            dinf = max(interval(lg)[1] for lg in logs)
            ups.append(min(eps * eps / 2, dinf) * (1 + Fraction(1, 2**40)))
    best = max(lows)
    return [pair for pair, up in zip(distinct, ups) if up >= best]


def _float_rho(mech: Mechanism, name: str) -> NotionResult:
    """Float mode: the branch and bound at 40 bits on the binary values of the candidate pairs."""
    vals, pairs = _float_divergences(mech, None)
    if len(pairs) == 0:
        return NotionResult(name, Rational(Fraction(0)))
    if np.isinf(vals).any():
        i = int(np.argmax(vals))
        return NotionResult(name, inf(), lift(mech, *pairs[i].tolist()))
    a, _ = float_rows(mech)
    with np.errstate(divide="ignore", invalid="ignore"):
        lr = np.log(a[pairs[:, 0]] / a[pairs[:, 1]])
        lr = np.where(np.isfinite(lr), lr, 0.0)
    up = np.minimum(np.abs(lr).max(axis=1) ** 2 / 2, lr.max(axis=1))
    chosen = pairs[up >= vals.max() * (1 - 1e-6)]
    distinct, same = row_pairs(mech, pairs=chosen)
    if not distinct:
        return NotionResult(name, Rational(Fraction(0)), same.witness if same else None)
    best = max(((rho_pair([Fraction(v) for v in p.p], [Fraction(v) for v in p.q], 40), p) for p in distinct),
               key=lambda t: t[0][1])
    (lo, hi), pair = best
    return NotionResult(name, Rational(Fraction(display_float((lo + hi) / 2))), pair.witness)
