"""Rational numbers from text, and rationals as text, without ever evaluating anything.

``"0.65"`` is exactly ``13/20``, ``"1e-3"`` is ``1/1000``, ``"13/20"`` is ``13/20``;
exponents and digit runs have documented limits (:data:`MAX_EXPONENT`,
:data:`MAX_DIGITS`).  Only ASCII is accepted: other digits (``"٠.٥"``, fullwidth
``"０.５"``), which Python's ``int`` and ``Fraction`` would read, are an error.  Python
floats are taken at their exact binary value.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from relations.errors import InputError

__all__ = ["NumberLiteral", "RationalLike", "MAX_EXPONENT", "MAX_DIGITS", "parse_rational", "parse_rational_list", "whole_number", "fraction_text", "short_text", "json_repr"]

_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE]([+-]?[0-9]+))?")



_FRACTION = re.compile(r"[+-]?[0-9]+/[0-9]+")



#: Largest decimal exponent accepted in input text (guards against "1e-999999999").
MAX_EXPONENT = 4000



#: Most digits accepted in one run of digits (Python refuses int(text) beyond 4300 digits).
MAX_DIGITS = 4000



#: What a user may write for an exact number: a Fraction, an int, a float (its exact binary value) or text.
RationalLike = Fraction | int | float | str


class NumberLiteral(str):
    """A number written without quotes in a data file (a JSON number such as ``0.7310585786300049``).

    Its value is the decimal it spells, exactly; but such numbers are usually floats
    printed by a program, so a distribution written with them is treated as a rounding
    (:mod:`relations.model._floats`).  Quoted text (``"0.65"``, ``"13/20"``) is exact.
    """


def parse_rational(value: object, where: str) -> Fraction:
    """Parse one number given as text or a JSON literal into an exact rational.

    Parameters
    ----------
    value : str, int, Fraction or float
        Decimal text (``"0.65"``, ``"1e-3"``), fraction text (``"13/20"``), an ``int``,
        a :class:`~fractions.Fraction`, or a finite ``float`` (its exact binary value).
    where : str
        How the user named the value, for the error message.

    Returns
    -------
    Fraction
        The value, exactly.

    Raises
    ------
    InputError
        For booleans, ``nan``, ``inf``, expressions, non-ASCII characters (digits of other
        scripts), too many digits or too large an exponent; the message names ``where``.

    Examples
    --------
    >>> parse_rational("0.65", "prior[0]"), parse_rational("1e-3", "x"), parse_rational(0.5, "x")
    (Fraction(13, 20), Fraction(1, 1000), Fraction(1, 2))
    >>> parse_rational("2**10", "prior[0]")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: prior[0]: '2**10' is not a number (use decimal or fraction text such as 0.65 or 13/20)
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
    if not value.isascii():
        raise InputError(f"{where}: {json_repr(value)} is not a number (it has non-ASCII characters; write "
                         "digits as 0-9)")
    text = value
    if text != text.strip():
        raise InputError(f"{where}: {json_repr(value)} is not a number (spaces around it; write the number alone, "
                         "e.g. \"0.65\")")
    if any(len(run) > MAX_DIGITS for run in re.findall(r"[0-9]+", text)):
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



def whole_number(text: str, where: str) -> int:
    """An integer written in ASCII digits (an optional sign), at most :data:`MAX_DIGITS` of them: a JSON
    integer literal (``json.loads(..., parse_int=...)``) or an option's value; anything else is one line.

    Examples
    --------
    >>> whole_number("-12", "x")
    -12
    >>> whole_number("9" * 5000, "sweep spec")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: sweep spec: an integer of 5000 digits, more than 4000
    """
    digits = text[1:] if text[:1] in "+-" else text
    if not (digits.isascii() and digits.isdigit()):
        raise InputError(f"{where}: expected an integer, got {json_repr(text)}")
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise InputError(f"{where}: an integer of {len(digits.lstrip('0'))} digits, more than {MAX_DIGITS}")
    return int(text)


def parse_rational_list(text: str, where: str) -> list[Fraction]:
    """Parse comma-separated rationals (a command-line option such as ``--prior 1/2,1/4,1/4``).

    Examples
    --------
    >>> parse_rational_list("1/2, 0.25,1/4", "--prior")
    [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)]
    """
    return [parse_rational(v.strip(), f"{where}[{i}]") for i, v in enumerate(text.split(","))]


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
    """Decimal text of ``n``, also beyond Python's int-to-text digit limit: FLINT's conversion (no limit, and
    subquadratic where ``str`` and repeated division are quadratic) above 500 digits."""
    if -_BIG < n < _BIG:
        return str(n)
    import flint  # a dependency (the enclosures' arb); loaded only for the rare huge integer

    return str(flint.fmpz(n))


_BIG = 10**500



def json_repr(value: object) -> str:
    """Short representation of a JSON value for error messages."""
    text = "null" if value is None else ("true" if value is True else "false" if value is False else repr(value))
    return text if len(text) <= 40 else text[:37] + "..."

