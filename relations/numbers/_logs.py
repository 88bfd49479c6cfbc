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

from relations.numbers._text import fraction_text

__all__ = ["log_of", "LogRatio", "MAX_POWER_BITS", "power_bits", "power_or_none"]


def log_of(q: Fraction) -> float:
    """``ln(q)`` as a float for a positive rational, within a few ulp, without overflow for huge terms.

    ``log(numerator) - log(denominator)`` alone loses all relative accuracy when
    ``q`` is close to 1 with large terms (``ln(1 + 1e-20)`` came out as ``0.0``),
    so ``q`` near 1 goes through ``log1p`` of the exact ``q - 1``, and ``q`` in
    the normal float range through the correctly rounded ``float(q)``.
    """
    if Fraction(1, 2) < q < 2:
        return math.log1p(float(q - 1))
    f = float(q) if Fraction(1, 2**1000) < q < 2**1000 else 0.0
    if f:
        return math.log(f)
    return math.log(q.numerator) - math.log(q.denominator)



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
        """The float nearest (to a few ulp) to the exact value."""
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
