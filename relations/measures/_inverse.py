"""The least ``eps`` with ``delta(eps) <= level`` from certified enclosures of ``delta(eps)``: a bracket, never a float.

``delta(eps)`` is non-increasing in ``eps``, so one certified enclosure ``[d_lo, d_hi]`` of ``delta(x)`` at a
rational ``x`` decides a side: ``d_hi <= level`` proves ``eps_delta(level) <= x``, ``d_lo > level`` proves
``eps_delta(level) > x``, and an enclosure holding ``level`` decides nothing.  :func:`least_eps` keeps the
bracket ``[lo, hi]`` these decisions prove and chooses the next point by the secant of ``ln delta`` through
the last two enclosures' midpoints (the profile of many uses is smooth there, so a few steps reach the
enclosures' own precision), by bisection when the secant leaves the bracket or stalls, and, once an
enclosure holds ``level``, by bisection between that point and the bracket's ends.  It stops at a width of
``relative`` times ``hi`` or after ``max_evaluations`` enclosures (a count, not a time: the result does not
depend on the machine's load).  The floats only choose where to evaluate; every end of the bracket is an
exact rational proved by an enclosure (or the ends given).

:func:`guide_eps` is such a float choice for one neighbour pair used many times: ``delta(eps)`` of the losses
rounded to a grid and convolved by FFT, solved in floats.  It is never a result.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from relations.measures._halves import loss_atoms

__all__ = ["Bracket", "least_eps", "guide_eps", "largest_loss"]

#: Default width of :func:`least_eps`'s bracket, relative to its upper end.
RELATIVE = Fraction(1, 10**9)
#: Default number of enclosures :func:`least_eps` evaluates at most.
MAX_EVALUATIONS = 40


@dataclass(frozen=True)
class Bracket:
    """``lo <= eps_delta(level) <= hi``, proved (:func:`least_eps`).

    Attributes
    ----------
    lo, hi : Fraction
        The ends: ``lo`` is the start given or a point where ``delta`` is proved above ``level`` (then
        ``eps_delta > lo``); ``hi`` the end given or a point where ``delta`` is proved at most ``level``.
    evaluations : int
        The enclosures of ``delta`` evaluated.
    """

    lo: Fraction
    hi: Fraction
    evaluations: int

    @property
    def width(self) -> Fraction:
        return self.hi - self.lo


def least_eps(evaluate: Callable[[Fraction], tuple[Fraction, Fraction]], level: Fraction, *, lo: Fraction,
              hi: Fraction, guess: float | None = None, relative: Fraction = RELATIVE,
              max_evaluations: int = MAX_EVALUATIONS) -> Bracket:
    """A proved bracket of the least ``eps`` in ``[lo, hi]`` with ``delta(eps) <= level``.

    Parameters
    ----------
    evaluate : callable
        ``evaluate(x)`` for a rational ``x >= 0``: a certified enclosure ``(d_lo, d_hi)`` of ``delta(x)``, a
        non-increasing function of ``x``.
    level : Fraction
        ``delta``, in ``(0, 1]``.
    lo, hi : Fraction
        Known ends: ``eps_delta(level) >= lo`` and ``delta(hi) <= level``.
    guess : float, optional
        Where to evaluate first (:func:`guide_eps`).
    relative : Fraction, optional
        Stop when ``hi - lo <= relative * hi`` (default ``1e-9``).
    max_evaluations : int, optional
        Stop after this many enclosures (default :data:`MAX_EVALUATIONS`).

    Returns
    -------
    Bracket

    Examples
    --------
    ``delta(x) = e^-x`` enclosed to ``1e-15``: ``eps_delta(1/10) = ln 10 = 2.302585092994...``, bracketed to
    ``1e-9`` relative in a few evaluations (the secant of ``ln delta``, a line here):

    >>> def evaluate(x):
    ...     d = Fraction(math.exp(-x))
    ...     return d * (1 - Fraction(1, 10**15)), d * (1 + Fraction(1, 10**15))
    >>> b = least_eps(evaluate, Fraction(1, 10), lo=Fraction(0), hi=Fraction(10))
    >>> b.lo < Fraction(math.log(10)) <= b.hi, b.width <= b.hi / 10**9, b.evaluations <= 8
    (True, True, True)
    """
    a, b = Fraction(lo), Fraction(hi)
    points: list[tuple[float, float]] = []  # (x, ln(midpoint / level)) of each decided or undecided enclosure
    undecided: list[Fraction] = []
    steps: list[float] = []
    count = 0
    x = _inside(guess, a, b) if guess is not None else None
    if guess is not None and guess <= a:  # at the start itself first: delta(lo) <= level makes lo the value
        x = a
    elif x is None:
        x = (a + b) / 2
    log_level = math.log(level.numerator) - math.log(level.denominator)
    while count < max_evaluations and b - a > relative * b:
        d_lo, d_hi = evaluate(x)
        count += 1
        if d_hi <= level:
            b = x
        elif d_lo > level:
            a = x
        else:
            undecided.append(x)
        mid = (d_lo + d_hi) / 2
        if mid > 0:
            points.append((float(x), math.log(mid.numerator) - math.log(mid.denominator) - log_level))
        if b - a <= relative * b:
            break
        x = _next(a, b, x, points, undecided, steps, relative)
    return Bracket(a, b, count)


def _inside(value: float | None, a: Fraction, b: Fraction) -> Fraction | None:
    """``value`` as a rational strictly inside ``(a, b)``, or None."""
    if value is None or not math.isfinite(value):
        return None
    x = Fraction(value)
    return x if a < x < b else None


def _next(a: Fraction, b: Fraction, last: Fraction, points: list[tuple[float, float]], undecided: list[Fraction],
          steps: list[float], relative: Fraction) -> Fraction:
    """The next point of :func:`least_eps` (see there)."""
    width = relative * b
    live = [u for u in undecided if a < u < b]
    if live:  # the enclosures hold `level` near these points: step out of them, further at each miss
        u_lo, u_hi = min(live), max(live)
        step = width * Fraction(2, 5) * 4 ** (len(live) - 1)
        if u_lo - a >= b - u_hi:
            return max(u_lo - step, (a + u_lo) / 2)
        return min(u_hi + step, (u_hi + b) / 2)
    if len(points) == 1:  # a second point near the first, on the side the first points to, for the secant
        step = max(abs(last), Fraction(1)) / 1000
        return min(last + step, (last + b) / 2) if last == a else max(last - step, (a + last) / 2)
    estimate = None
    if len(points) >= 2:
        (x0, g0), (x1, g1) = points[-2], points[-1]
        if g1 != g0 and x1 != x0:
            estimate = x1 - g1 * (x1 - x0) / (g1 - g0)
    x = _inside(estimate, a, b)
    if x is None or len(steps) >= 6:  # outside the bracket, or not closing in: bisect once
        steps.clear()
        return (a + b) / 2
    if abs(x - last) <= width / 4:  # converged: step just past it, on the side still open
        if b - x > width / 2:
            return min(x + width * Fraction(2, 5), (x + b) / 2)
        return max(x - width * Fraction(2, 5), (a + x) / 2)
    steps.append(float(abs(x - last)))
    return x


def largest_loss(parts: list[tuple[tuple, tuple, int]]) -> Fraction:
    """A rational at least the largest finite composed loss of one pair (``sum_i n_i max_y ln(P_y / R_y)``), and
    at least ``0``: there ``delta`` is the mass of the infinite losses.

    Examples
    --------
    >>> F = Fraction
    >>> x = largest_loss([((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4)), 2)])
    >>> abs(float(x) - 2 * math.log(3)) < 1e-15
    True
    """
    from relations.numbers._enclosure import ball, interval, working_precision

    with working_precision(128):
        total = ball(Fraction(0))
        for p, r, n in parts:
            _, atoms = loss_atoms(p, r)
            if atoms:
                total += ball(Fraction(n)) * ball(max(atoms)).log()
        return max(Fraction(0), interval(total)[1])


#: Grid points of :func:`guide_eps`'s convolution.
GUIDE_POINTS = 1 << 14


def guide_eps(parts: list[tuple[tuple, tuple, int]], level: Fraction) -> float | None:
    """A float estimate of one pair's ``eps_delta(level)``, to start :func:`least_eps`: never a result.

    Each use's losses are rounded to a grid of :data:`GUIDE_POINTS` points over the composed range, the
    ``P``-masses convolved by FFT (each part's transform raised to its number of uses), and
    ``delta(eps) = sum P(L) (1 - e^(eps - L))_+`` solved by bisection in floats.  None when the infinite losses
    alone exceed ``level``.

    Examples
    --------
    Binary randomized response with ratio 3, twice: ``eps_delta(3/8) = ln 3``:

    >>> F = Fraction
    >>> abs(guide_eps([((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4)), 2)], F(3, 8)) - math.log(3)) < 1e-3
    True
    """
    uses = []
    finite = 1.0
    for p, r, n in parts:
        inf_mass, atoms = loss_atoms(p, r)
        finite *= (1 - float(inf_mass)) ** n
        if atoms:
            uses.append(([math.log(x) for x in atoms], [float(a) for a, _ in atoms.values()], n))
    rest = float(level) - (1 - finite)
    if rest < 0:
        return None
    span = sum(n * (max(ls) - min(ls)) for ls, _, n in uses)
    if not uses or span <= 0:
        return max(0.0, sum(n * max(ls) for ls, _, n in uses))
    h = span / (GUIDE_POINTS - 1)
    kernels = []
    offset, length = 0.0, 1
    for ls, ps, n in uses:
        low = min(ls)
        index = [round((value - low) / h) for value in ls]
        kernels.append((index, ps, n))
        offset += n * low
        length += n * max(index)
    size = 1 << (length - 1).bit_length()  # the whole composed support: no wrap-around
    spectrum = np.ones(size // 2 + 1, dtype=complex)
    for index, ps, n in kernels:
        kernel = np.zeros(size)
        np.add.at(kernel, index, ps)
        spectrum *= np.fft.rfft(kernel) ** n
    masses = np.clip(np.fft.irfft(spectrum, size), 0.0, None)
    losses = offset + h * np.arange(size)
    keep = masses > 0
    masses, losses = masses[keep], losses[keep]

    def delta(eps: float) -> float:
        above = losses > eps
        return float(np.sum(masses[above] * -np.expm1(eps - losses[above])))

    lo, hi = 0.0, float(losses.max()) if len(losses) else 0.0
    if delta(lo) <= rest:
        return 0.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if delta(mid) <= rest:
            hi = mid
        else:
            lo = mid
    return hi
