"""Certified enclosures: intervals of exact rationals, and the arb working precision.

An :class:`Enclosure` ``[lower, upper]`` of exact dyadic rationals is guaranteed to
contain a real number (``I(X;Y)``, ``H(X)``, ...).  Ball arithmetic comes from
python-flint's ``arb``; :func:`working_precision` is the one place that sets its
precision, :func:`ball`, :func:`rational` and :func:`interval` convert to and from it.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable

__all__ = ["DEFAULT_BITS", "Enclosure", "sum_enclosures", "working_precision", "ball", "rational", "interval"]

DEFAULT_BITS = 100  # width below 2**-100 ~ 7.9e-31 < 1e-30



@dataclass(frozen=True)
class Enclosure:
    """A closed interval ``[lower, upper]`` of exact rationals containing a real number."""

    lower: Fraction
    upper: Fraction

    @property
    def width(self) -> Fraction:
        return self.upper - self.lower

    @property
    def midpoint(self) -> float:
        return float((self.lower + self.upper) / 2)

    def contains(self, value: Fraction | float) -> bool:
        v = Fraction(value)
        return self.lower <= v <= self.upper

    def __add__(self, other: "Enclosure") -> "Enclosure":
        return Enclosure(self.lower + other.lower, self.upper + other.upper)

    def scaled(self, factor: int) -> "Enclosure":
        """``factor`` times the enclosed number (``factor >= 0``)."""
        return Enclosure(self.lower * factor, self.upper * factor)

    def decimal(self, digits: int | None = None) -> tuple[str, str]:
        """``(lower, upper)`` as decimal strings rounded outward to ``digits`` places."""
        if digits is None:
            w = self.width
            # log10 of numerator and denominator apart: float(w) underflows to 0 below 1e-308 (--bits > 1020)
            digits = 6 if w == 0 else max(6, min(400, 3 - math.floor(math.log10(w.numerator) - math.log10(w.denominator)))) if w < 1 else 6
        scale = 10 ** digits
        lo = math.floor(self.lower * scale)
        hi = math.ceil(self.upper * scale)
        return _fixed(lo, digits), _fixed(hi, digits)



def _fixed(n: int, digits: int) -> str:
    sign = "-" if n < 0 else ""
    s = str(abs(n)).rjust(digits + 1, "0")
    return f"{sign}{s[:-digits]}.{s[-digits:]}" if digits else f"{sign}{s}"



def _to_fraction(ball) -> Fraction:
    """The exact dyadic value of an exact ``arb`` (radius zero)."""
    man, exp = ball.mid().man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2 ** (-exp))



def sum_enclosures(parts: Iterable[tuple[Enclosure, int]]) -> Enclosure:
    """``sum_i c_i e_i`` for enclosures ``e_i`` with multiplicities ``c_i``."""
    total = Enclosure(Fraction(0), Fraction(0))
    for e, count in parts:
        total = total + e.scaled(count)
    return total


@contextmanager
def working_precision(bits: int):
    """Run a block with python-flint's ``arb`` working precision at ``bits``, restored afterwards.

    Examples
    --------
    >>> from flint import arb, ctx
    >>> before = ctx.prec
    >>> with working_precision(200):
    ...     lo, hi = interval(arb(2).log())
    >>> ctx.prec == before, float(hi - lo) < 2.0**-190
    (True, True)
    """
    from flint import ctx

    saved = ctx.prec
    ctx.prec = bits
    try:
        yield
    finally:
        ctx.prec = saved


def ball(q: Fraction):
    """The rational ``q`` as an ``arb`` ball at the working precision (it contains ``q``)."""
    from flint import arb

    return arb(rational(q))


def rational(q: Fraction):
    """The rational ``q`` as python-flint's exact ``fmpq`` (multiplying a ball by it rounds once)."""
    from flint import fmpq

    return fmpq(q.numerator, q.denominator)


def interval(x) -> tuple[Fraction, Fraction]:
    """The ball ``x`` as an interval ``(lower, upper)`` of exact dyadic rationals."""
    return _to_fraction(x.lower()), _to_fraction(x.upper())
