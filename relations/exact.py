"""Exact arithmetic: rational probabilities and logarithms of rationals.

Probabilities are :class:`fractions.Fraction` values parsed from text without
ever evaluating it (SPEC section 3): ``"0.65"`` is exactly ``13/20``,
``"1e-3"`` is ``1/1000``.  The budgets ``eps_d``, ``eps_i`` and ``sigma_min``
are logarithms of such rationals, represented by :class:`LogRatio`, which
keeps the rational ``q`` of ``ln(q)`` (or an infinity) so that comparisons are
exact rational comparisons, never float comparisons with a tolerance.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from .errors import InputError

_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?")
_FRACTION = re.compile(r"[+-]?\d+/\d+")
#: Largest decimal exponent accepted in input text (guards against "1e-999999999").
MAX_EXPONENT = 4000
#: Most digits accepted in one run of digits (Python refuses int(text) beyond 4300 digits).
MAX_DIGITS = 4000


def parse_rational(value: object, where: str) -> Fraction:
    """Parse one number given as text or a JSON literal into an exact rational.

    Accepted: decimal text (``"0.65"``, ``"1e-3"``), fraction text
    (``"13/20"``), Python ``int`` and :class:`~fractions.Fraction` (what the
    JSON loader hands over for number literals).  Floats are taken at their
    exact binary value only when they come from numeric (``.npz``) input; they
    never reach this function from a JSON file.  Anything else — booleans,
    ``nan``, ``inf``, expressions — is an :class:`InputError` naming ``where``.
    """
    if isinstance(value, bool) or value is None:
        raise InputError(f"{where}: {json_repr(value)} is not a number")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InputError(f"{where}: {value!r} is not a finite number")
        return Fraction(value)
    if not isinstance(value, str):
        raise InputError(f"{where}: {json_repr(value)} is not a number")
    text = value.strip()
    if any(len(run) > MAX_DIGITS for run in re.findall(r"\d+", text)):
        raise InputError(f"{where}: {json_repr(value)} has more than {MAX_DIGITS} digits")
    match = _DECIMAL.fullmatch(text)
    if match:
        exponent = match.group(1)
        if exponent is not None and abs(int(exponent)) > MAX_EXPONENT:
            raise InputError(f"{where}: exponent of {value!r} is out of range (|e| <= {MAX_EXPONENT})")
        return Fraction(text)
    if _FRACTION.fullmatch(text):
        num, den = text.split("/")
        if int(den) == 0:
            raise InputError(f"{where}: {value!r} divides by zero")
        return Fraction(int(num), int(den))
    raise InputError(f"{where}: {value!r} is not a number (use decimal or fraction text such as 0.65 or 13/20)")


def fraction_text(q: Fraction) -> str:
    """``str(q)`` exactly, also for rationals beyond Python's int-to-text digit limit."""
    if q.denominator == 1:
        return _int_text(q.numerator)
    return f"{_int_text(q.numerator)}/{_int_text(q.denominator)}"


def short_text(q: Fraction, limit: int = 60) -> str:
    """``q`` as text for a message: exact when short, else an approximation."""
    text = fraction_text(q)
    if len(text) <= limit:
        return text
    try:
        return f"about {float(q):.17g}"
    except OverflowError:
        return "about 10^" + str(len(_int_text(q.numerator)) - len(_int_text(q.denominator)))


def _int_text(n: int) -> str:
    """Decimal text of ``n`` in chunks of 500 digits (below any allowed int_max_str_digits)."""
    if n < 0:
        return "-" + _int_text(-n)
    base = 10**500
    if n < base:
        return str(n)
    chunks = []
    while n:
        n, rest = divmod(n, base)
        chunks.append(rest)
    return str(chunks[-1]) + "".join(str(c).zfill(500) for c in reversed(chunks[:-1]))


def json_repr(value: object) -> str:
    """Short representation of a JSON value for error messages."""
    text = "null" if value is None else ("true" if value is True else "false" if value is False else repr(value))
    return text if len(text) <= 40 else text[:37] + "..."


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
    """The exact number ``ln(q)`` for a rational ``q >= 0``, or ``+inf``.

    ``ratio`` is ``q`` (a :class:`Fraction`), or ``None`` for an infinity;
    ``sign`` is ``+1`` for ``+inf``, ``-1`` for ``-inf`` (``q = 0``) and
    ``0`` for a finite value.  Two values compare exactly: ``ln`` is
    increasing, so ``ln(a) <= ln(b)`` iff ``a <= b``.
    """

    ratio: Fraction | None
    sign: int = 0

    @staticmethod
    def of(q: Fraction) -> "LogRatio":
        """``ln(q)``; ``q == 0`` gives ``-inf``."""
        if q < 0:
            raise ValueError("logarithm of a negative number")
        return LogRatio(None, -1) if q == 0 else LogRatio(Fraction(q), 0)

    @staticmethod
    def inf() -> "LogRatio":
        return LogRatio(None, 1)

    @staticmethod
    def neg_inf() -> "LogRatio":
        return LogRatio(None, -1)

    @property
    def is_finite(self) -> bool:
        return self.sign == 0

    def _key(self):
        return (self.sign, self.ratio if self.sign == 0 else Fraction(0))

    def __lt__(self, other: "LogRatio") -> bool:
        return self._key() < other._key()

    def __le__(self, other: "LogRatio") -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: "LogRatio") -> bool:
        return self._key() > other._key()

    def __ge__(self, other: "LogRatio") -> bool:
        return self._key() >= other._key()

    def __neg__(self) -> "LogRatio":
        if self.sign:
            return LogRatio(None, -self.sign)
        return LogRatio(1 / self.ratio, 0)

    def __add__(self, other: "LogRatio") -> "LogRatio":
        """``ln(a) + ln(b) = ln(ab)``; ``+inf + -inf`` is undefined."""
        if self.sign and other.sign and self.sign != other.sign:
            raise ValueError("inf - inf is undefined")
        if self.sign or other.sign:
            return LogRatio(None, self.sign or other.sign)
        return LogRatio(self.ratio * other.ratio, 0)

    def __sub__(self, other: "LogRatio") -> "LogRatio":
        return self + (-other)

    def __float__(self) -> float:
        if self.sign:
            return math.inf * self.sign
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
        return f"ln({fraction_text(self.ratio)})"
