"""Logarithms of rationals, exactly: :class:`LogRatio` keeps ``q`` of ``ln(q)``.

The budgets ``eps_d``, ``eps_i`` and ``sigma_min`` are logarithms of rationals (or
infinities).  Keeping the rational makes every comparison an exact rational
comparison (``ln a <= ln b`` iff ``a <= b``), never a float comparison with a
tolerance; :func:`log_of` gives the float value to a few ulp without overflow.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from relations.numbers._enclosure import nearest_of_ball, rational
from relations.numbers._text import fraction_text

__all__ = ["log_of", "LogRatio", "MAX_POWER_BITS", "power_bits", "power_or_none"]


def log_of(q: Fraction) -> float:
    """``ln(q)`` as a float for a positive rational: the nearest double (correctly rounded), without overflow.

    A ball of ``ln(q)`` (python-flint's ``arb``) at rising precision until both of its ends round to
    the same double (:func:`~relations.numbers._enclosure.nearest_double`); ``ln(q)`` is
    irrational for rational ``q != 1`` (Hermite-Lindemann), so it is never halfway between two
    doubles and the loop ends.  ``log(numerator) - log(denominator)`` would lose all relative
    accuracy for ``q`` close to 1 (``ln(1 + 1e-20)`` came out as ``0.0``).

    Examples
    --------
    ``math.log(13 / 7)`` rounds ``13/7`` first and is one ulp off:

    >>> log_of(Fraction(13, 7)), math.log(13 / 7), log_of(Fraction(10**20 + 1, 10**20))
    (0.6190392084062234, 0.6190392084062235, 1e-20)
    """
    if q == 1:
        return 0.0
    from flint import arb, ctx

    saved = ctx.prec
    try:
        for prec in (80, 160, 640, 4096):
            ctx.prec = prec
            value = nearest_of_ball(arb(rational(q)).log())
            if value is not None:
                return value
    finally:
        ctx.prec = saved
    # not reached: ln(q) is irrational, so a fine enough ball rounds to one double
    return math.log1p(float(q - 1)) if Fraction(1, 2) < q < 2 else math.log(q.numerator) - math.log(q.denominator)



@dataclass(frozen=True, order=False)
class LogRatio:
    """The exact number ``ln(q)`` for a rational ``q >= 0``, or an infinity.

    Attributes
    ----------
    ratio : Fraction or None
        ``q``; ``None`` for an infinity.
    sign : int
        ``+1`` for ``+inf``, ``-1`` for ``-inf`` (``q = 0``), ``0`` for a finite value.

    Notes
    -----
    Comparisons are exact: ``ln`` is increasing, so ``ln(a) <= ln(b)`` iff ``a <= b``.
    Sums are ``ln(a) + ln(b) = ln(ab)``; ``+inf + -inf`` raises ``ValueError``.

    Examples
    --------
    >>> from fractions import Fraction
    >>> a = LogRatio.of(Fraction(3))
    >>> str(a + LogRatio.of(Fraction(1, 2))), str(-a), a > LogRatio.of(Fraction(2))
    ('ln(3/2)', 'ln(1/3)', True)
    >>> round(float(a), 12), str(LogRatio.of(Fraction(0)))
    (1.098612288668, '-inf')
    """

    ratio: Fraction | None
    sign: int = 0

    @staticmethod
    def of(q: Fraction) -> LogRatio:
        """``ln(q)``; ``q == 0`` gives ``-inf``."""
        if q < 0:
            raise ValueError("logarithm of a negative number")
        return LogRatio(None, -1) if q == 0 else LogRatio(Fraction(q), 0)

    @staticmethod
    def inf() -> LogRatio:
        return LogRatio(None, 1)

    @staticmethod
    def neg_inf() -> LogRatio:
        return LogRatio(None, -1)

    @property
    def is_finite(self) -> bool:
        return self.sign == 0

    def _key(self):
        return (self.sign, self.ratio if self.sign == 0 else Fraction(0))

    def __lt__(self, other: LogRatio) -> bool:
        return self._key() < other._key()

    def __le__(self, other: LogRatio) -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: LogRatio) -> bool:
        return self._key() > other._key()

    def __ge__(self, other: LogRatio) -> bool:
        return self._key() >= other._key()

    def __neg__(self) -> LogRatio:
        if self.sign:
            return LogRatio(None, -self.sign)
        assert self.ratio is not None  # finite
        return LogRatio(1 / self.ratio, 0)

    def __add__(self, other: LogRatio) -> LogRatio:
        """``ln(a) + ln(b) = ln(ab)``; ``+inf + -inf`` is undefined."""
        if self.sign and other.sign and self.sign != other.sign:
            raise ValueError("inf - inf is undefined")
        if self.sign or other.sign:
            return LogRatio(None, self.sign or other.sign)
        assert self.ratio is not None and other.ratio is not None  # finite
        return LogRatio(self.ratio * other.ratio, 0)

    def __sub__(self, other: LogRatio) -> LogRatio:
        return self + (-other)

    def __float__(self) -> float:
        if self.sign:
            return math.inf * self.sign
        assert self.ratio is not None  # finite
        return log_of(self.ratio)

    @property
    def value(self) -> float:
        """The float nearest the exact value (correctly rounded, :func:`log_of`)."""
        return float(self)

    def __str__(self) -> str:
        if self.sign:
            return "inf" if self.sign > 0 else "-inf"
        if self.ratio == 1:
            return "0"
        assert self.ratio is not None  # finite
        return f"ln({fraction_text(self.ratio)})"



#: Largest size, in bits of numerator plus denominator, of a power ``q^n`` kept as an exact rational
#: (``ln(q^n)``): beyond it (``3^n`` for ``n`` above about 660000) an exact ``n ln(q)`` is carried
#: as a linear form in logarithms instead (:func:`relations.numbers._reals.log_times`).
MAX_POWER_BITS = 2**20


def power_bits(q: Fraction, n: int) -> int:
    """An upper bound on the bits of numerator and denominator of ``q^|n|``.

    Examples
    --------
    >>> power_bits(Fraction(3, 2), 10)  # 3^10 / 2^10: 16 + 11 bits, bounded by 10 * (2 + 2)
    40
    """
    return abs(n) * (q.numerator.bit_length() + q.denominator.bit_length())


def power_or_none(q: Fraction, n: int) -> LogRatio | None:
    """``ln(q^n)`` exactly, or ``None`` when ``q^n`` would exceed :data:`MAX_POWER_BITS`.

    Examples
    --------
    >>> str(power_or_none(Fraction(3), 4)), power_or_none(Fraction(3), 10**9)
    ('ln(81)', None)
    """
    if power_bits(q, n) > MAX_POWER_BITS:
        return None
    return LogRatio.of(q**n)
