"""The privacy profile ``delta(eps)`` and its inverse, the smallest ``eps`` for a given ``delta``, exactly.

For neighbours ``x ~ x'`` (both orders) the hockey-stick divergence is

    ``f_{x,x'}(t) = sum_y max(0, Q[x][y] - t Q[x'][y])``,  ``t = e^eps``,

and the mechanism is ``(eps, delta)``-DP iff ``delta >= delta(eps) = max f_{x,x'}(e^eps)``
(Balle, Barthe, Gaboardi 2018).  Each ``f`` is convex, piecewise linear and nonincreasing in
``t``, with breakpoints at the ratios ``Q[x][y] / Q[x'][y]``.  Hence:

* :func:`delta` at ``eps = ln(t)`` with ``t`` rational is an exact rational; at a rational
  ``eps != 0`` it is ``A - B e^eps`` for the exact rationals ``A``, ``B`` of the outputs where
  ``Q[x][y] > e^eps Q[x'][y]`` (decided exactly: ``ln`` of a rational ``!= 1`` is never a
  nonzero rational), a certified enclosure (``B = 0`` gives the rational ``A``);
* :func:`eps_delta`, the smallest ``eps >= 0`` with ``delta(eps) <= delta``, solves
  ``f(t) = delta`` on the linear piece that holds it: ``t = (A - delta) / B`` is rational,
  so ``eps = ln(t)`` exactly; it is ``0`` when ``delta >= delta(0)`` and ``inf`` when
  ``delta`` is below the mass some ``Q[x]`` puts where ``Q[x']`` is zero.

Product forms reduce to the local channel ``W`` (:mod:`relations.measures._pairs`): for
neighbours differing in record ``j`` the other records' factors sum to 1.  Float mode works on
the float64 arrays and reports the float as a :class:`~relations.numbers.Rational`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import cast

import numpy as np

from relations.errors import InputError
from relations.measures._pairs import NotionResult, divergence_pairs, float_rows, lift, row_pairs
from relations.model._mechanism import Mechanism
from relations.numbers._logs import LogRatio
from relations.numbers._reals import Log, Rational, Real, compare, exp_affine, exp_affine_sign

__all__ = ["tv", "delta", "eps_delta", "exp_argument", "hockey_stick_time"]


def exp_argument(eps: Real | Fraction | int) -> tuple[Fraction | None, Fraction | None]:
    """``eps`` as ``(t, None)`` when ``t = e^eps`` is rational, or ``(None, q)`` for a rational ``eps = q != 0``.

    Raises
    ------
    InputError
        If ``eps`` is negative, infinite or neither rational nor the logarithm of a rational.

    Examples
    --------
    >>> from relations.numbers import Log, LogRatio
    >>> exp_argument(Fraction(0)), exp_argument(Log(LogRatio.of(Fraction(3)))), exp_argument(Fraction(1, 2))
    ((Fraction(1, 1), None), (Fraction(3, 1), None), (None, Fraction(1, 2)))
    """
    if isinstance(eps, (int, Fraction)) and not isinstance(eps, bool):
        eps = Rational(Fraction(eps))
    if isinstance(eps, Rational):
        if eps.value < 0:
            raise InputError(f"delta(eps) needs eps >= 0, got {eps.value}")
        return (Fraction(1), None) if eps.value == 0 else (None, eps.value)
    if isinstance(eps, Log) and eps.log.is_finite:
        assert eps.log.ratio is not None  # finite
        if eps.log.ratio < 1:
            raise InputError(f"delta(eps) needs eps >= 0, got {eps}")
        return eps.log.ratio, None
    raise InputError(f"delta(eps) needs a finite eps that is rational or ln(rational), got {eps}")


def _above(a: Fraction, b: Fraction, q: Fraction, cache: dict) -> bool:
    """``a > e^q b`` exactly (``q != 0`` rational)."""
    if a == 0:
        return False
    if b == 0:
        return True
    r = a / b
    if r not in cache:
        side = compare(Log(LogRatio.of(r)), Rational(q))
        assert side is not None  # never a tie: ln r is not a nonzero rational
        cache[r] = side > 0
    return cache[r]


def _float_profile(mech: Mechanism, t: float) -> tuple[float, int | None]:
    """Float mode: ``max f(t)`` over the ordered pairs and the index of a maximising pair."""
    a, pairs = float_rows(mech)
    best, at = 0.0, None
    for c0 in range(0, len(pairs), 4096):
        chunk = pairs[c0:c0 + 4096]
        vals = np.maximum(a[chunk[:, 0]] - t * a[chunk[:, 1]], 0.0).sum(axis=1)
        i = int(np.argmax(vals))
        if at is None or vals[i] > best:
            best, at = float(vals[i]), c0 + i
    return best, at


def delta(mech: Mechanism, eps: Real | Fraction | int, *, name: str | None = None) -> NotionResult:
    """The privacy profile ``delta(eps) = max_{x ~ x'} sum_y max(0, Q[x][y] - e^eps Q[x'][y])``.

    Parameters
    ----------
    mech : Mechanism
        Any mechanism (dense, graph, product; exact or float mode).
    eps : Real, Fraction or int
        ``eps >= 0``: a :class:`~relations.numbers.Rational` or ``ln(t)`` as a
        :class:`~relations.numbers.Log`.
    name : str, optional
        The name of the result (default ``"delta(eps)"`` with ``eps`` written out).

    Returns
    -------
    NotionResult
        An exact :class:`~relations.numbers.Rational` when ``e^eps`` is rational, else a
        certified enclosure; the witness is a maximising pair ``(x, x')``.

    Raises
    ------
    InputError
        For a negative, infinite or irrational ``eps`` other than ``ln(rational)``.

    References
    ----------
    .. [1] Balle, Barthe, Gaboardi. Privacy Amplification by Subsampling: Tight Analyses via
       Couplings and Divergences. NeurIPS 2018 (the privacy profile).
    .. [2] Dwork, Roth. The Algorithmic Foundations of Differential Privacy, 2014, Definition 2.4.
       doi:10.1561/0400000042

    Examples
    --------
    Binary randomized response with ratio 3 (rows ``(3/4, 1/4)``): ``delta(0) = 3/4 - 1/4``,
    ``delta(ln 2) = 3/4 - 2/4``, and ``delta(ln 3) = 0``:

    >>> from relations.numbers import Log, LogRatio
    >>> from relations.mechanisms import randomized_response
    >>> rr = randomized_response(3)
    >>> [str(delta(rr, Log(LogRatio.of(Fraction(t)))).value) for t in (1, 2, 3)]
    ['1/2', '1/4', '0']
    >>> r = delta(rr, Fraction(1, 2))
    >>> str(r.value), round(float(r.value), 6), r.witness
    ('3/4 - 1/4 e^(1/2)', 0.33782, Witness(x=0, x_prime=1, y=None))
    """
    t, q = exp_argument(eps)
    name = name or f"delta({eps})"
    if not mech.exact:
        tf = float(t) if t is not None else math.exp(float(cast(Fraction, q)))
        value, row = _float_profile(mech, tf)
        if row is None:
            return NotionResult(name, Rational(Fraction(0)))
        x, xp = float_rows(mech)[1][row].tolist()
        return NotionResult(name, Rational(Fraction(value)), lift(mech, x, xp))
    distinct, done = divergence_pairs(mech, name)
    if done:
        return done
    if t is not None:
        best, at = None, None
        for pair in distinct:
            v = sum((max(Fraction(0), a - t * b) for a, b in zip(pair.p, pair.q)), Fraction(0))
            if best is None or v > best:
                best, at = v, pair
        assert best is not None and at is not None  # distinct is not empty
        return NotionResult(name, Rational(best), at.witness)
    assert q is not None  # t is None
    cache: dict = {}
    top = None
    for pair in distinct:
        inside = [(a, b) for a, b in zip(pair.p, pair.q) if _above(a, b, q, cache)]
        A, B = sum((a for a, _ in inside), Fraction(0)), sum((b for _, b in inside), Fraction(0))
        if top is None or exp_affine_sign(A - top[0], B - top[1], q) > 0:
            top = (A, B, pair)
    assert top is not None  # distinct is not empty
    return NotionResult(name, exp_affine(top[0], top[1], q), top[2].witness)


def hockey_stick_time(p, q, level) -> Fraction | float | None:
    """The smallest ``t >= 1`` with ``sum_y max(0, p_y - t q_y) <= level``; None when there is none.

    Exact for Fractions (the solution of ``A - t B = level`` on its linear piece), and the same
    formula in floats for floats.

    Examples
    --------
    >>> F = Fraction
    >>> hockey_stick_time([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)], F(1, 4))
    Fraction(2, 1)
    >>> hockey_stick_time([F(1), F(0)], [F(0), F(1)], F(1, 2)) is None
    True
    """
    zero = 0 * level
    a0 = sum((a for a, b in zip(p, q) if b == 0), zero)
    if a0 > level:
        return None
    items = sorted(((a / b, a, b) for a, b in zip(p, q) if a and b), key=lambda it: it[0], reverse=True)
    above = [it for it in items if it[0] > 1]
    f1 = a0 + sum((a - b for _, a, b in above), zero)
    if f1 <= level:
        return 1 + zero
    A, B, i = a0, zero, 0
    points = sorted({it[0] for it in above}, reverse=True) + [1 + zero]
    for point in points:
        while i < len(items) and items[i][0] > point:
            A, B, i = A + items[i][1], B + items[i][2], i + 1
        if A - point * B > level:
            return (A - level) / B
    raise AssertionError("unreachable: f(1) > level")  # pragma: no cover


def tv(mech: Mechanism, *, name: str = "tv") -> NotionResult:
    """The largest total variation distance between neighbours' rows: ``delta(0)``.

    ``tv = max over neighbours x ~ x' of sum_y max(0, Q[x][y] - Q[x'][y])``, exactly (a rational).

    Parameters as for :func:`delta`.

    Returns
    -------
    NotionResult
        With the pair that attains it.

    References
    ----------
    .. [1] Balle, Barthe, Gaboardi. Privacy Amplification by Subsampling. NeurIPS 2018.

    Examples
    --------
    >>> from relations.model import Mechanism
    >>> r = tv(Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]]))
    >>> str(r.value), r.name
    ('1/2', 'tv')
    """
    return delta(mech, 0, name=name)



def delta_level(level: int | Fraction) -> Fraction:
    """The ``delta`` of ``eps_delta(delta)`` as an exact rational in ``[0, 1]``; anything else is an InputError."""
    if isinstance(level, bool) or not isinstance(level, (int, Fraction)):
        raise InputError(f"eps_delta(delta) needs a rational delta, got {level!r}")
    level = Fraction(level)
    if not 0 <= level <= 1:
        raise InputError(f"eps_delta(delta) needs 0 <= delta <= 1, got {level}")
    return level


def eps_delta(mech: Mechanism, level: Fraction | int, *, name: str | None = None) -> NotionResult:
    """The smallest ``eps >= 0`` with ``delta(eps) <= level``: ``ln`` of an exact rational, or ``inf``.

    Parameters
    ----------
    mech : Mechanism
        Any mechanism (dense, graph, product; exact or float mode).
    level : Fraction or int
        ``delta`` in ``[0, 1]``.
    name : str, optional
        The name of the result.

    Returns
    -------
    NotionResult
        A :class:`~relations.numbers.Log` (``0`` when ``level >= delta(0)``, ``inf`` when no
        ``eps`` suffices); the witness is a maximising pair.

    Raises
    ------
    InputError
        If ``level`` is not a rational in ``[0, 1]``.

    References
    ----------
    .. [1] Balle, Barthe, Gaboardi. Privacy Amplification by Subsampling: Tight Analyses via
       Couplings and Divergences. NeurIPS 2018.

    Examples
    --------
    Binary randomized response with ratio 3: ``delta(ln t) = 3/4 - t/4``, so ``delta = 1/4``
    needs ``t = 2``; pure DP (``delta = 0``) needs ``ln 3 = eps_d``:

    >>> from relations.mechanisms import randomized_response
    >>> rr = randomized_response(3)
    >>> [str(eps_delta(rr, d).value) for d in (Fraction(1, 4), 0, Fraction(1, 2))]
    ['ln(2)', 'ln(3)', '0']
    """
    level = delta_level(level)
    name = name or f"eps_delta({level})"
    if not mech.exact:
        return _float_eps_delta(mech, float(level), name)
    distinct, same = row_pairs(mech)
    best, at = Fraction(1), (same.witness if same else None)
    for pair in distinct:
        t = cast("Fraction | None", hockey_stick_time(pair.p, pair.q, level))  # exact rows: a Fraction
        if t is None:
            return NotionResult(name, Log(LogRatio.inf()), pair.witness)
        if t > best or at is None:
            best, at = max(best, t), pair.witness
    return NotionResult(name, Log(LogRatio.of(best)), at)


def _float_eps_delta(mech: Mechanism, level: float, name: str) -> NotionResult:
    """Float mode: bisection on ``ln t`` over the vectorised profile (60 halvings)."""
    a, pairs = float_rows(mech)
    if len(pairs) == 0:
        return NotionResult(name, Rational(Fraction(0)))
    limit = np.where(a[pairs[:, 1]] == 0, a[pairs[:, 0]], 0.0).sum(axis=1)
    if float(limit.max()) > level:
        x, xp = pairs[int(np.argmax(limit))].tolist()
        return NotionResult(name, Log(LogRatio.inf()), lift(mech, x, xp))
    if _float_profile(mech, 1.0)[0] <= level:
        return NotionResult(name, Rational(Fraction(0)), None)
    lo, hi = 0.0, 1.0
    while _float_profile(mech, math.exp(hi))[0] > level and hi < 700:
        lo, hi = hi, 2 * hi
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _float_profile(mech, math.exp(mid))[0] > level else (lo, mid)
    _, at = _float_profile(mech, math.exp(lo))
    x, xp = pairs[at].tolist()
    return NotionResult(name, Rational(Fraction(hi)), lift(mech, x, xp))
