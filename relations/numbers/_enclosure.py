"""Certified enclosures: intervals of exact rationals, and the arb working precision.

An :class:`Enclosure` ``[lower, upper]`` of exact dyadic rationals is guaranteed to
contain a real number (``I(X;Y)``, ``H(X)``, ...).  Ball arithmetic comes from
python-flint's ``arb``; :func:`working_precision` is the one place that sets its
precision, :func:`ball`, :func:`rational` and :func:`interval` convert to and from it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["display_float", "nearest_double", "nearest_of_ball", "ROUNDING_RUNGS", "certified_text", "DEFAULT_BITS", "Enclosure", "sum_enclosures", "working_precision", "ball", "rational", "interval"]

DEFAULT_BITS = 100  # width below 2**-100 ~ 7.9e-31 < 1e-30

#: Ends of an enclosure at least this large are written in scientific notation by :meth:`Enclosure.decimal`.
SCIENTIFIC_FROM = 10**40


def display_float(q: Fraction) -> float:
    """The float nearest ``q``, or ``+-inf`` beyond the float range (for display only, never raises).

    ``float(Fraction)`` raises ``OverflowError`` above about ``1.8e308``; budgets and bounds of a
    product mechanism with many records (``e^1000``, ``1000 (e^1000 - 1)``) are that large, so every
    float *shown* of an exact number goes through here, while comparisons stay exact.

    Parameters
    ----------
    q : Fraction
        Any rational.

    Returns
    -------
    float

    Examples
    --------
    >>> display_float(Fraction(3, 4)), display_float(Fraction(3) ** 1000), display_float(-Fraction(10) ** 400)
    (0.75, inf, -inf)
    """
    try:
        return float(q)
    except OverflowError:
        return math.inf if q > 0 else -math.inf



#: Widths ``2**-bits`` tried in turn by :func:`nearest_double` (the rungs of
#: :data:`relations.numbers._reals.LADDER` from 64 bits, so that a cached enclosure serves both).
ROUNDING_RUNGS = (64, 128, 256, 512, 1024, 2048, 4096)


def nearest_double(enclose, *, rungs: tuple[int, ...] = ROUNDING_RUNGS) -> float | None:
    """The float nearest a real known through enclosures (correctly rounded), or ``None``.

    Rounding to nearest is nondecreasing, so when both ends of an enclosure round to the same
    double, so does every number between them, the real included: that double is the real's
    correctly rounded value.  ``enclose(bits)`` is asked at each of ``rungs`` in turn until its ends
    agree; ``None`` when they never do (a real exactly halfway between two doubles, which only a
    rational can be, or an enclosure that stops narrowing).  This is the one rule by which every
    float the tool reports of a certified number is made.

    Parameters
    ----------
    enclose : callable
        ``enclose(bits) -> (lower, upper)``, exact rationals containing the real, narrower as
        ``bits`` grows.
    rungs : tuple of int, optional
        The precisions tried.

    Returns
    -------
    float or None

    Examples
    --------
    ``ln 2`` from ball arithmetic; and ``1/3``, whose 64-bit enclosures already agree:

    >>> import math
    >>> def ln2(bits):
    ...     with working_precision(bits + 8):
    ...         return interval(ball(Fraction(2)).log())
    >>> nearest_double(ln2) == math.log(2)
    True
    >>> nearest_double(lambda bits: (Fraction(1, 3) - Fraction(1, 2**bits), Fraction(1, 3)))
    0.3333333333333333
    >>> nearest_double(lambda bits: (Fraction(0), Fraction(1))) is None
    True
    """
    previous = None
    for bits in rungs:
        lo, hi = enclose(bits)
        a, b = display_float(lo), display_float(hi)
        if a == b:
            return a
        if (lo, hi) == previous:
            return None  # no narrower enclosure to be had
        previous = (lo, hi)
    return None


def nearest_of_ball(x) -> float | None:
    """The float nearest every point of the ``arb`` ball ``x``, or ``None`` when the ball straddles a
    rounding boundary (halfway between two doubles) or leaves the float range.

    The boundaries around the candidate ``g`` (the ball's midpoint rounded) are the midpoints with
    its neighbours, exact in ball arithmetic at 64 bits or more; ``arb``'s comparisons are certain.
    Needs the working precision at 64 bits at least.

    Examples
    --------
    >>> from flint import arb
    >>> with working_precision(80):
    ...     nearest_of_ball(arb(2).log()), nearest_of_ball(arb(1).union(arb(2)))
    (0.6931471805599453, None)
    """
    from flint import arb

    g = float(x.mid())
    if not math.isfinite(g):
        return None
    below, above = math.nextafter(g, -math.inf), math.nextafter(g, math.inf)
    if not (math.isfinite(below) and math.isfinite(above)):
        return None
    return g if x > (arb(below) + g) / 2 and x < (arb(above) + g) / 2 else None


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
        return display_float((self.lower + self.upper) / 2)

    @property
    def nearest(self) -> float | None:
        """The float nearest the enclosed number when the enclosure determines it (both ends round to
        it), else ``None``.

        Examples
        --------
        >>> Enclosure(Fraction(1, 3), Fraction(1, 3) + Fraction(1, 2**80)).nearest
        0.3333333333333333
        >>> Enclosure(Fraction(1, 3), Fraction(1, 3) + Fraction(1, 2**40)).nearest is None
        True
        """
        a, b = display_float(self.lower), display_float(self.upper)
        return a if a == b else None

    def contains(self, value: Fraction | float) -> bool:
        v = Fraction(value)
        return self.lower <= v <= self.upper

    def __add__(self, other: Enclosure) -> Enclosure:
        return Enclosure(self.lower + other.lower, self.upper + other.upper)

    def scaled(self, factor: int) -> Enclosure:
        """``factor`` times the enclosed number (``factor >= 0``)."""
        return Enclosure(self.lower * factor, self.upper * factor)

    def decimal(self, digits: int | None = None) -> tuple[str, str]:
        """``(lower, upper)`` as decimal strings rounded outward to ``digits`` places.

        An end of magnitude at least ``10^40`` (a bound such as ``eps (e^eps - 1)`` at ``eps = 1000``)
        is written in scientific notation with 20 significant digits, still rounded outward.

        Examples
        --------
        >>> Enclosure(Fraction(1, 3), Fraction(2, 3)).decimal(3)
        ('0.333', '0.667')
        >>> Enclosure(Fraction(10) ** 500 / 3, Fraction(10) ** 500 / 3).decimal()
        ('3.3333333333333333333e+499', '3.3333333333333333334e+499')
        """
        if digits is None:
            w = self.width
            # log10 of numerator and denominator apart: float(w) underflows to 0 below 1e-308 (--bits > 1020)
            digits = 6 if w == 0 else max(6, min(400, 3 - math.floor(math.log10(w.numerator) - math.log10(w.denominator)))) if w < 1 else 6
        scale = 10 ** digits
        lo = _scientific(self.lower, math.floor) if abs(self.lower) >= SCIENTIFIC_FROM else None
        hi = _scientific(self.upper, math.ceil) if abs(self.upper) >= SCIENTIFIC_FROM else None
        lo = lo or _fixed(math.floor(self.lower * scale), digits)
        return lo, hi or _fixed(math.ceil(self.upper * scale), digits)


def _scientific(x: Fraction, rounding, significant: int = 20) -> str:
    """``x`` (``|x| >= 1``) in scientific notation, ``significant`` digits, rounded by ``rounding`` (floor/ceil)."""
    a = abs(x)
    e = math.floor(math.log10(a.numerator) - math.log10(a.denominator))
    while Fraction(10) ** e > a:
        e -= 1
    while Fraction(10) ** (e + 1) <= a:
        e += 1
    shift = e - significant + 1
    m = rounding(x / Fraction(10) ** shift)
    text = str(abs(m))
    exponent = shift + len(text) - 1
    return f"{'-' if m < 0 else ''}{text[0]}.{text[1:]}e{exponent:+d}"



def certified_text(lower: Fraction, upper: Fraction, *, digits: int = 12) -> str:
    """The digits of a number in ``[lower, upper]`` that the enclosure certifies, then ``…``.

    Both ends are truncated to the same significant digits (at most ``digits``); the
    longest common truncation is printed, so every digit shown is correct.  A point
    enclosure is printed in full (up to ``digits``).  Nonnegative enclosures only.

    Examples
    --------
    >>> certified_text(Fraction(1308120359411369, 10**16), Fraction(1308120359411371, 10**16))
    '0.130812035941…'
    >>> certified_text(Fraction(12345, 10**34), Fraction(12346, 10**34), digits=12)
    '1.234…e-30'
    >>> certified_text(Fraction(1, 2), Fraction(1, 2))
    '0.5'
    >>> certified_text(Fraction(0), Fraction(1, 10**40))
    '[0, 1e-40]'
    """
    if lower == upper:
        return f"{display_float(lower):.{digits}g}"
    if lower <= 0:
        return f"[0, {display_float(upper):.3g}]"
    exponent = math.floor(math.log10(lower.numerator) - math.log10(lower.denominator))
    while Fraction(10) ** exponent > lower:
        exponent -= 1
    while Fraction(10) ** (exponent + 1) <= lower:
        exponent += 1
    best = None
    for d in range(1, digits + 1):
        scale = Fraction(10) ** (d - 1 - exponent)
        a, b = math.floor(lower * scale), math.floor(upper * scale)
        if a != b:
            break
        best = (a, d)
    if best is None:
        return f"[{display_float(lower):.3g}, {display_float(upper):.3g}]"
    mantissa, d = best
    text = str(mantissa)
    if -5 <= exponent < 0:
        body = "0." + "0" * (-exponent - 1) + text
    elif 0 <= exponent < d:
        body = text[:exponent + 1] + ("." + text[exponent + 1:] if d > exponent + 1 else "")
    else:
        body = text[0] + ("." + text[1:] if d > 1 else "")
        return f"{body}…e{exponent:+03d}".replace("e+0", "e+").replace("e-0", "e-")
    return body + "…"


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


_FMPQ = None


def rational(q: Fraction):
    """The rational ``q`` as python-flint's exact ``fmpq`` (multiplying a ball by it rounds once)."""
    global _FMPQ
    if _FMPQ is None:  # imported on first use (only exact measurement needs flint), then kept
        from flint import fmpq

        _FMPQ = fmpq
    return _FMPQ(q.numerator, q.denominator)


def interval(x) -> tuple[Fraction, Fraction]:
    """The ball ``x`` as an interval ``(lower, upper)`` of exact dyadic rationals."""
    return _to_fraction(x.lower()), _to_fraction(x.upper())
