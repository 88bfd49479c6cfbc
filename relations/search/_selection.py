"""Choosing the best of several candidates: floats screen, exact values decide.

A search scores its candidates in floats, and the last bits of a float score depend on the machine:
the summation order, numpy's SIMD kernels (``NPY_DISABLE_CPU_FEATURES``), the BLAS threads.  So a
choice between candidates (the best family of a frontier point, the family that gives a relation's
tightness) is never made on float scores alone:

1. **Screen.**  Candidates whose float score lies more than :data:`SCREEN_WINDOW` (relative) below
   the best float score are dropped.  Float errors are far below the window (about ``1e-13`` for the
   budgets and ``I(X;Y)``, and below ``1e-8`` for zCDP's float ``rho``), so the best candidate is
   never dropped, and whether a candidate near the edge of the window is kept cannot change the
   choice: it is certified below the best one.
2. **Decide.**  Every candidate kept is evaluated as a certified enclosure of its exact value (ball
   arithmetic, about :data:`BITS` bits).  The best is the one with the largest lower end; every candidate
   whose enclosure overlaps the best one's ties with it: exactly equal values always do, and so do values
   closer than about ``2^-BITS``, which no search statistic can tell apart.
3. **Tie.**  Among tied candidates the smallest ``key`` wins: a total order given by the search,
   simplest mechanism first (fewest channel entries, then the family's name, then its parameters).

The chosen candidate's value is reported from its enclosure, never from its float score
(:func:`significant`).  The same candidates thus give the same choice and the same digits on every
machine.  This is the rule stated in ``docs/claims-and-verdicts.md`` ("Ties and float noise").

Examples
--------
Two candidates whose float scores differ only by rounding, and whose exact values are equal: the
smaller key wins, whatever the floats say.

>>> from fractions import Fraction
>>> third = Fraction(1, 3)
>>> cands = [Candidate(0.33333333333333337, ("b",), "b", lambda: third),
...          Candidate(0.3333333333333333, ("a",), "a", lambda: third),
...          Candidate(0.25, ("0",), "far below", lambda: Fraction(1, 4))]
>>> best = select_max(cands, lambda value, bits: (value, value))
>>> best.candidate.label, best.lower == third
('a', True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from relations.notions import view

__all__ = ["SCREEN_WINDOW", "BITS", "SIGNIFICANT_DIGITS", "FLOAT_ERRORS", "Candidate", "Chosen", "select_max", "screen_window",
           "significant", "ratio_enclosure"]

#: Relative width of the float screen: candidates this far below the best float score are dropped.  Float
#: ratios ``conclusion / bound`` of the budgets, ``I(X;Y)`` and the divergences are good to about ``1e-10``
#: (bounds are at least ``1e-6``); notions with larger float errors widen it (:data:`FLOAT_ERRORS`).
SCREEN_WINDOW = 1e-7

#: Notions whose float values are known to be less accurate, with a relative error they stay below:
#: zCDP's ``rho`` (a maximum over orders by a scalar search, measured 2.6e-9 against mpmath) and Renyi
#: divergences of whole orders (cancellation, measured 8.9e-5).
FLOAT_ERRORS = view(lambda row: row.float_error > 0, value=lambda row: row.float_error)

#: Precision (bits) of the certified evaluation of each candidate kept; overlapping enclosures are a tie.
BITS = 64

#: Significant digits of a search figure (a tightness) reported from a certified value.
SIGNIFICANT_DIGITS = 9


@dataclass(frozen=True)
class Candidate:
    """One candidate of a search.

    Attributes
    ----------
    screen : float
        Its float score (larger is better); ``nan`` or infinite scores are never chosen.
    key : tuple
        Its place in the tie order (smaller wins a tie): simplest first.
    label : str
        What is reported when it is chosen (a family's description).
    build : callable
        Returns the exact object that ``certify`` (of :func:`select_max`) evaluates; :meth:`exact` calls it
        once.
    """

    screen: float
    key: tuple
    label: str
    build: Callable[[], object]
    _built: list = field(default_factory=list, compare=False, repr=False)

    def exact(self) -> object:
        """The exact object, built on first use and kept (a filter and the choice both read it).

        Examples
        --------
        >>> calls = []
        >>> c = Candidate(1.0, (), "x", lambda: calls.append(1) or "built")
        >>> c.exact(), c.exact(), len(calls)
        ('built', 'built', 1)
        """
        if not self._built:
            self._built.append(self.build())
        return self._built[0]


@dataclass(frozen=True)
class Chosen:
    """The candidate :func:`select_max` chose, with the certified enclosure of its value."""

    candidate: Candidate
    lower: Fraction
    upper: Fraction

    @property
    def label(self) -> str:
        return self.candidate.label

    def value(self, digits: int = SIGNIFICANT_DIGITS) -> float:
        """The certified lower end rounded to ``digits`` significant digits (:func:`significant`).

        The lower end, not the midpoint: a wide enclosure (a costly notion that stopped short of its
        precision) must not report more than the candidate is known to reach."""
        return significant(self.lower, digits)


# certify(exact, bits): an enclosure of the value of a candidate from its exact object (whatever candidates build)
Certify = Callable[[Any, int], tuple[Fraction, Fraction] | None]


def select_max(candidates: Iterable[Candidate], certify: Certify, *, window: float = SCREEN_WINDOW,
               ceiling: Fraction | None = None) -> Chosen | None:
    """The best candidate by certified value: floats screen, enclosures decide, ``key`` breaks ties.

    Parameters
    ----------
    candidates : iterable of Candidate
    certify : callable
        ``certify(obj, bits)`` with ``obj = candidate.exact()``: an enclosure
        ``(lower, upper)`` of the exact value at about ``bits`` bits, or ``None`` when it has none (the
        candidate is then dropped).  It must be deterministic: ball arithmetic, never floats.
    window : float, optional
        The relative width of the float screen (:data:`SCREEN_WINDOW`); it must exceed the relative
        error of the float scores.
    ceiling : Fraction, optional
        A proved upper bound on every candidate's value (a relation's ratio ``conclusion / bound`` is at
        most 1 where it is proved).  The candidates are then certified in key order only until the result
        is settled: once the simplest candidate not certified below the others reaches the ceiling, no
        later one can beat or precede it.  The choice is the same as without it.

    Returns
    -------
    Chosen or None
        ``None`` when no candidate has a finite score and an enclosure.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> c = [Candidate(0.5, (1,), "x", lambda: F(1, 2)), Candidate(0.75, (2,), "y", lambda: F(3, 4))]
    >>> select_max(c, lambda v, bits=64: (v, v)).label
    'y'
    >>> select_max([], lambda v, bits=64: (v, v)) is None
    True

    With a ceiling of 1, the simplest candidate that reaches it settles the choice:

    >>> c = [Candidate(1.0, (1,), "simple", lambda: F(1)), Candidate(1.0, (2,), "never built", lambda: 1 / 0)]
    >>> select_max(c, lambda v, bits=64: (v, v), ceiling=F(1)).label
    'simple'
    """
    finite = [c for c in candidates if isinstance(c.screen, (int, float)) and math.isfinite(c.screen)]
    if not finite:
        return None
    top = max(c.screen for c in finite)
    edge = top - window * max(1.0, abs(top))
    enclosed: list[tuple[Candidate, tuple[Fraction, Fraction]]] = []
    best_lower: Fraction | None = None
    for c in sorted((c for c in finite if c.screen >= edge), key=lambda c: c.key):
        enc = certify(c.exact(), BITS)
        if enc is None:
            continue
        enclosed.append((c, enc))
        best_lower = enc[0] if best_lower is None else max(best_lower, enc[0])
        if ceiling is not None:  # settled: the simplest live candidate reaches the ceiling
            live = next(e for e in enclosed if e[1][1] >= best_lower)
            if live[1][1] >= ceiling:
                return Chosen(live[0], *live[1])
    if best_lower is None:
        return None
    chosen, (lo, hi) = next(e for e in enclosed if e[1][1] >= best_lower)  # enclosed is in key order
    return Chosen(chosen, lo, hi)


def screen_window(notions: Iterable[str]) -> float:
    """The screen's width for scores computed from ``notions``: :data:`SCREEN_WINDOW`, or ten times the
    largest float error of :data:`FLOAT_ERRORS` among them.

    Examples
    --------
    >>> screen_window(["eps_d", "eps_m"]), screen_window(["eps_d", "renyi(2)"])
    (1e-07, 0.001)
    """
    errors = [FLOAT_ERRORS.get(str(n).split("(")[0].strip(), 0.0) for n in notions]
    return max([SCREEN_WINDOW] + [10 * e for e in errors])


def significant(x: Fraction, digits: int = SIGNIFICANT_DIGITS) -> float:
    """The rational ``x`` rounded (half up) to ``digits`` significant decimal digits, as a float.

    Exact rational arithmetic: the same enclosure gives the same float on every machine.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> significant(F(1)), significant(F(2, 3), 6), significant(F(-12345678), 6)
    (1.0, 0.666667, -12345700.0)
    >>> significant(F(0))
    0.0
    """
    y = Fraction(x)
    if y == 0:
        return 0.0
    sign, y = (-1 if y < 0 else 1), abs(y)
    exponent = math.floor(math.log10(y))  # adjusted exactly below
    while Fraction(10) ** exponent > y:
        exponent -= 1
    while Fraction(10) ** (exponent + 1) <= y:
        exponent += 1
    scale = Fraction(10) ** (digits - 1 - exponent)
    n = y * scale
    rounded = math.floor(n + Fraction(1, 2))  # half up, exactly
    return sign * float(Fraction(rounded) / scale)


def ratio_enclosure(conclusion, bound, bits: int) -> tuple[Fraction, Fraction] | None:
    """An enclosure of ``conclusion / bound`` from enclosures of both (reals with ``enclose(bits)``),
    or ``None`` unless both are finite and the bound's enclosure is positive.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> from relations.numbers._reals import Rational
    >>> ratio_enclosure(Rational(F(1)), Rational(F(4)), 64)
    (Fraction(1, 4), Fraction(1, 4))
    >>> ratio_enclosure(Rational(F(1)), Rational(F(0)), 64) is None
    True
    """
    if (conclusion is None or bound is None or getattr(conclusion, "infinite", False)
            or getattr(bound, "infinite", False)):  # defaults False: mypy types each `or` operand as bool
        return None
    c_lo, c_hi = conclusion.enclose(bits)
    b_lo, b_hi = bound.enclose(bits)
    if b_lo <= 0:
        return None
    ends = [c_lo / b_lo, c_lo / b_hi, c_hi / b_lo, c_hi / b_hi]
    return min(ends), max(ends)
