"""The largest squared Hellinger distance between neighbours' rows, certified.

For neighbours ``x ~ x'`` with rows ``P = Q[x]`` and ``R = Q[x']``:

``hellinger = max H^2(P, R)``, ``H^2(P, R) = 1 - sum_y sqrt(P_y R_y) = (1/2) sum_y (sqrt P_y - sqrt R_y)^2``,

in ``[0, 1]``: ``0`` for equal rows, ``1`` for disjoint supports.  This is the *squared* distance with the
factor ``1/2`` (Le Cam's convention); some authors call its square root ``H`` the Hellinger distance, or omit
the ``1/2``.  It is symmetric, so both orders of a pair give the same value; ``renyi(1/2) = -2 ln(1 - H^2)``
pair by pair (the Bhattacharyya coefficient ``sum_y sqrt(P_y R_y)``), and ``H^2 <= tv <= sqrt(1 - (1 - H^2)^2)``
(``docs/notion-inequalities.md``).

Exactly: when every ``P_y R_y`` is the square of a rational the value is rational; otherwise it is irrational
(a sum of square roots of positive rationals is rational only when each root is, Besicovitch 1940), and an
enclosure at any precision.  Product forms reduce to ``W``'s rows (:mod:`relations.measures._pairs`: the
unchanged records' Bhattacharyya coefficient is 1).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from relations.measures._pairs import NotionResult, Pair, divergence_pairs, float_rows, lift, max_expr
from relations.model._mechanism import Mechanism
from relations.numbers._enclosure import ball, interval, working_precision
from relations.numbers._reals import Rational

__all__ = ["bhattacharyya", "bhattacharyya_squared", "hellinger", "hellinger_float"]


def hellinger_float(A: np.ndarray, C: np.ndarray) -> np.ndarray:
    """``(1/2) sum_y (sqrt A_y - sqrt C_y)^2`` over the last axis, in float64 (no cancellation near ``A = C``).

    Examples
    --------
    >>> import numpy as np
    >>> hellinger_float(np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]])).tolist()
    [1.0]
    """
    d = np.sqrt(np.maximum(A, 0.0)) - np.sqrt(np.maximum(C, 0.0))
    return np.minimum(1.0, 0.5 * (d * d).sum(axis=-1))


def _root(q: Fraction) -> Fraction | None:
    """``sqrt(q)`` when it is rational, else None."""
    a, b = math.isqrt(q.numerator), math.isqrt(q.denominator)
    return Fraction(a, b) if a * a == q.numerator and b * b == q.denominator else None


def bhattacharyya(pair: Pair) -> Fraction | None:
    """The Bhattacharyya coefficient ``sum_y sqrt(P_y R_y)`` of exact rows when it is rational, else None.

    It is rational exactly when every ``P_y R_y`` is the square of a rational (Besicovitch 1940).

    Examples
    --------
    >>> from relations.measures._results import Witness
    >>> F = Fraction
    >>> bhattacharyya(Pair((F(1, 2), F(1, 2)), (F(1, 8), F(7, 8)), Witness(0, 1))) is None
    True
    >>> bhattacharyya(Pair((F(1), F(0)), (F(1, 4), F(3, 4)), Witness(0, 1)))
    Fraction(1, 2)
    """
    total = Fraction(0)
    for a, b in zip(pair.p, pair.q):
        if a and b:
            r = _root(a * b)
            if r is None:
                return None
            total += r
    return total


def bhattacharyya_squared(pair: Pair) -> Fraction | None:
    """``BC^2`` for the Bhattacharyya coefficient ``BC = sum_y sqrt(P_y R_y)`` of exact rows when it is rational,
    else None.

    Square roots of positive rationals ``a``, ``b`` are linearly dependent over the rationals exactly when
    ``a b`` is a square; so ``BC = K sqrt(t_0)`` with ``K`` rational when every ``t_y / t_0`` is a square
    (``t_y = P_y R_y``), and ``BC^2 = K^2 t_0``.  Otherwise ``BC`` is a rational combination of two or more
    linearly independent square roots (Besicovitch 1940), and ``BC^2`` is irrational.

    Examples
    --------
    Binary randomized response with ratio 3: ``BC = 2 sqrt(3/16)``, irrational, ``BC^2 = 3/4``:

    >>> from relations.measures._results import Witness
    >>> F = Fraction
    >>> bhattacharyya_squared(Pair((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4)), Witness(0, 1)))
    Fraction(3, 4)
    """
    terms = [a * b for a, b in zip(pair.p, pair.q) if a and b]
    if not terms:
        return Fraction(0)
    k = Fraction(0)
    for t in terms:
        r = _root(t / terms[0])
        if r is None:
            return None
        k += r
    return k * k * terms[0]


def _exact(pair: Pair) -> Fraction | None:
    c = bhattacharyya(pair)
    return None if c is None else 1 - c


def _enclosure(pair: Pair):
    def enclose(bits: int) -> tuple[Fraction, Fraction]:
        with working_precision(bits + 40):
            s = ball(Fraction(0))
            for a, b in zip(pair.p, pair.q):
                if a and b:
                    s += ball(a * b).sqrt()
            lo, hi = interval(1 - s)
        return max(lo, Fraction(0)), min(hi, Fraction(1))
    return enclose


def hellinger(mech: Mechanism, *, name: str = "hellinger") -> NotionResult:
    """The largest squared Hellinger distance ``1 - sum_y sqrt(Q[x][y] Q[x'][y])`` over neighbours.

    Parameters as for :func:`relations.measures._renyi.renyi`.

    Returns
    -------
    NotionResult
        A :class:`~relations.numbers.Rational` when every pair's value is rational, an enclosure otherwise
        (rational pairs enclosed by a point); ``0`` without distinct neighbour rows.

    References
    ----------
    .. [1] Hellinger. Neue Begruendung der Theorie quadratischer Formen von unendlichvielen Veraenderlichen.
       J. reine angew. Math. 136, 1909.
    .. [2] Le Cam, Yang. Asymptotics in Statistics: Some Basic Concepts, 2nd ed. Springer 2000, Section 2.2.

    Examples
    --------
    Rows ``(1, 0)`` and ``(1/4, 3/4)``: ``1 - sqrt(1/4) = 1/2``, rational; rows ``(1/2, 1/2)`` and
    ``(1/8, 7/8)``: ``1 - sqrt(1/16) - sqrt(7/16) = 3/4 - sqrt(7)/4``, irrational, enclosed:

    >>> from relations.model import Mechanism
    >>> str(hellinger(Mechanism.local([["1", "0"], ["1/4", "3/4"]])).value)
    '1/2'
    >>> lo, hi = hellinger(Mechanism.local([["1/2", "1/2"], ["1/8", "7/8"]])).value.enclose(60)
    >>> round(float(lo), 12), round(float(hi), 12), round(3 / 4 - math.sqrt(7) / 4, 12)
    (0.088562172234, 0.088562172234, 0.088562172234)
    """
    if not mech.exact:
        a, pairs = float_rows(mech)
        if len(pairs) == 0:
            return NotionResult(name, Rational(Fraction(0)))
        vals = hellinger_float(a[pairs[:, 0]], a[pairs[:, 1]])
        i = int(np.argmax(vals))
        return NotionResult(name, Rational(Fraction(float(vals[i]))), lift(mech, *pairs[i].tolist()))
    distinct, done = divergence_pairs(mech, name)
    if done:
        return done
    exact = [_exact(p) for p in distinct]
    if all(v is not None for v in exact):
        values = [v for v in exact if v is not None]
        i = max(range(len(values)), key=values.__getitem__)
        return NotionResult(name, Rational(values[i]), distinct[i].witness)
    fns = [(lambda bits, v=v: (v, v)) if v is not None else _enclosure(p) for p, v in zip(distinct, exact)]
    expr, at = max_expr("H^2", fns, None)
    return NotionResult(name, expr, distinct[at].witness)
