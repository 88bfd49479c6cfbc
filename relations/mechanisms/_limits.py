"""Limits of the exact named mechanisms, checked before anything is built.

An exact channel costs memory and time in proportion to the number of its entries and
to the size of their numerators and denominators: a truncated geometric on ``n`` values
has entries ``t^-(n-1)``, ``n^2`` of them, so ``n = 4096`` with ``t = 2`` would need
gigabytes before the first comparison.  Every constructor of
:mod:`relations.mechanisms._local` and :mod:`relations.mechanisms._ranges` estimates both
from its parameters (an upper estimate, in closed form) and refuses, with an
:class:`~relations.errors.InputError` naming the parameters, a channel beyond

* :data:`MAX_ENTRIES` entries,
* :data:`MAX_ENTRY_BITS` bits in its largest entry (numerator and denominator together),
* :data:`MAX_TOTAL_BITS` bits in all its entries together,
* :data:`MAX_ENTRIES` neighbour pairs times outputs (a central mechanism's budgets compare
  the two rows of every neighbour pair, output by output);

and a rational parameter (``ratio``, ``base``, ``beta``) with more than
:data:`MAX_PARAMETER_DIGITS` digits in its numerator or denominator.  Within these limits
``relations check`` of any named mechanism takes a few seconds and well under 1 GB
(``docs/mechanism-files.md``, *Limits of named mechanisms*).

Examples
--------
>>> from fractions import Fraction
>>> ratio(Fraction(3)), bits(Fraction(3, 4))
(Fraction(3, 1), 5)
>>> ratio("1/2")
Traceback (most recent call last):
...
relations.errors.InputError: mechanism parameter 'ratio': must be at least 1 (it is e^eps), got 1/2
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

from relations.errors import InputError
from relations.numbers._text import RationalLike, parse_rational, short_text

__all__ = ["MAX_ENTRIES", "MAX_ENTRY_BITS", "MAX_TOTAL_BITS", "MAX_PARAMETER_DIGITS", "bits", "exact",
           "ratio", "square_root", "whole", "power_bits", "check_digits", "check_size",
           "check_pairs"]

#: Most entries of an exact named channel (``krr`` up to ``k = 512``, ``oue`` up to ``k = 14``).
MAX_ENTRIES = 1 << 18

#: Most bits of one entry of an exact named channel (numerator and denominator together, about 9900 digits).
MAX_ENTRY_BITS = 1 << 15

#: Most bits of all the entries of an exact named channel together (2 MiB of integers).
MAX_TOTAL_BITS = 1 << 24

#: Most decimal digits of the numerator, and of the denominator, of a rational parameter.
MAX_PARAMETER_DIGITS = 1000

_DIGIT_BOUND = 10**MAX_PARAMETER_DIGITS


def exact(v: RationalLike, name: str = "ratio") -> Fraction:
    """``v`` as an exact rational, its size checked (:func:`check_digits`).

    Parameters
    ----------
    v : Fraction, int, float or str
        A number, or decimal or fraction text.
    name : str, optional
        The parameter's name, for messages.

    Returns
    -------
    Fraction
    """
    q = parse_rational(v, f"mechanism parameter '{name}'")
    check_digits(q, name)
    return q


def check_digits(q: Fraction, name: str) -> None:
    """Refuse a rational whose numerator or denominator has more than :data:`MAX_PARAMETER_DIGITS` digits.

    Parameters
    ----------
    q : Fraction
        The parsed parameter.
    name : str
        The parameter's name, for the message.

    Raises
    ------
    InputError
        Naming ``name`` and the limit.

    Examples
    --------
    >>> check_digits(Fraction(10) ** 1000, "ratio")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: mechanism parameter 'ratio': its numerator has more than 1000 digits (the limit \
for a rational parameter; 1e999 is the largest power of ten)
    """
    for part, value in (("numerator", abs(q.numerator)), ("denominator", q.denominator)):
        if value >= _DIGIT_BOUND:
            raise InputError(f"mechanism parameter '{name}': its {part} has more than {MAX_PARAMETER_DIGITS} digits "
                             f"(the limit for a rational parameter; 1e{MAX_PARAMETER_DIGITS - 1} is the largest "
                             "power of ten)")


def ratio(t: RationalLike, name: str = "ratio") -> Fraction:
    """A ratio ``t = e^eps`` (or the exponential mechanism's ``base``): exact, at least 1, of bounded size.

    Parameters
    ----------
    t : Fraction, int, float or str
        The ratio.
    name : str, optional
        The parameter's name, for messages.

    Returns
    -------
    Fraction
        ``t`` exactly.

    Raises
    ------
    InputError
        If ``t`` is not a number, is below 1 or is too long (:func:`check_digits`).
    """
    q = exact(t, name)
    if q < 1:
        raise InputError(f"mechanism parameter '{name}': must be at least 1 (it is e^eps), got {short_text(q)}")
    return q


def square_root(t: Fraction) -> Fraction:
    """``sqrt(t)`` for SUE's ``ratio`` when it is rational, else an error naming ``ratio``.

    Examples
    --------
    >>> square_root(Fraction(9, 4))
    Fraction(3, 2)
    """
    n, d = math.isqrt(t.numerator), math.isqrt(t.denominator)
    if n * n != t.numerator or d * d != t.denominator:
        raise InputError("mechanism parameter 'ratio': SUE needs e^(eps/2) rational, and the ratio is not the "
                         "square of a rational")
    return Fraction(n, d)


def whole(v: int, name: str, lowest: int) -> int:
    """A whole-number parameter of a constructor, at least ``lowest`` (``True`` is not a number here).

    Parameters
    ----------
    v : int
        The value (any integral type, e.g. ``numpy.int64``).
    name : str
        The parameter's name, for messages.
    lowest : int
        The least value allowed.

    Returns
    -------
    int
        ``v``.

    Raises
    ------
    InputError
        If ``v`` is not an ``int`` or is below ``lowest``.

    Examples
    --------
    >>> whole(1, "k", 2)
    Traceback (most recent call last):
    ...
    relations.errors.InputError: mechanism parameter 'k': must be at least 2, got 1
    """
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise InputError(f"mechanism parameter '{name}': expected a whole number, got {v!r}")
    if v < lowest:
        raise InputError(f"mechanism parameter '{name}': must be at least {lowest}, got {v}")
    return int(v)


def bits(q: Fraction) -> int:
    """Bits of the numerator and denominator of ``q`` together, the size that the limits bound.

    Examples
    --------
    >>> bits(Fraction(-5, 8))
    7
    """
    return abs(q.numerator).bit_length() + q.denominator.bit_length()


def power_bits(t: Fraction) -> float:
    """Bits that each power of ``t`` adds to an entry: ``log2`` of its numerator and denominator.

    ``t^d = p^d / q^d`` has about ``d * power_bits(t)`` bits (``1`` per power for ``t = 2``).

    Examples
    --------
    >>> power_bits(Fraction(2)), power_bits(Fraction(1))
    (1.0, 0.0)
    """
    return math.log2(abs(t.numerator)) + math.log2(t.denominator) if t else 0.0


def check_size(what: str, given: str, entries: int, entry_bits: float, total_bits: float) -> None:
    """Refuse a channel beyond :data:`MAX_ENTRIES`, :data:`MAX_ENTRY_BITS` or :data:`MAX_TOTAL_BITS`.

    Parameters
    ----------
    what : str
        The mechanism's name as a file gives it (``"krr"``).
    given : str
        The parameters that decide the size, as the user wrote them (``"k = 4096"``).
    entries : int
        The number of channel entries.
    entry_bits : int or float
        An estimate of the bits of the largest entry.
    total_bits : int or float
        An estimate of the bits of all entries together.

    Raises
    ------
    InputError
        One line naming the mechanism, the parameters and the limit.

    Examples
    --------
    >>> check_size("krr", "k = 4096", 4096 * 4096, 10, 10 * 4096 * 4096)
    Traceback (most recent call last):
    ...
    relations.errors.InputError: mechanism 'krr' with k = 4096: 16777216 channel entries, more than the limit of \
262144 for an exact named mechanism (docs/mechanism-files.md, Limits of named mechanisms)
    """
    entry_bits, total_bits = math.ceil(entry_bits), math.ceil(total_bits)
    where = "for an exact named mechanism (docs/mechanism-files.md, Limits of named mechanisms)"
    if entries > MAX_ENTRIES:
        raise InputError(f"mechanism '{what}' with {given}: {entries} channel entries, more than the limit of "
                         f"{MAX_ENTRIES} {where}")
    grow = "; entries grow with the size and with the digits of the ratio"
    if entry_bits > MAX_ENTRY_BITS:
        raise InputError(f"mechanism '{what}' with {given}: entries of up to about {entry_bits} bits, more than the "
                         f"limit of {MAX_ENTRY_BITS} {where}{grow}")
    if total_bits > MAX_TOTAL_BITS:
        raise InputError(f"mechanism '{what}' with {given}: about {total_bits} bits of exact entries in all, more "
                         f"than the limit of {MAX_TOTAL_BITS} {where}{grow}")


def check_pairs(what: str, given: str, pairs: int, outputs: int) -> None:
    """Refuse a central channel whose neighbour pairs times outputs exceed :data:`MAX_ENTRIES`.

    Parameters
    ----------
    what : str
        The mechanism's name as a file gives it.
    given : str
        The parameters that decide the count, as the user wrote them (``"n = 512, delta = 256"``).
    pairs : int
        The number of neighbour pairs.
    outputs : int
        The number of outputs.

    Raises
    ------
    InputError
        One line naming the mechanism, the parameters, ``pairs * outputs`` and the limit.

    Examples
    --------
    >>> check_pairs("staircase", "n = 512, delta = 256", 65536, 512)
    Traceback (most recent call last):
    ...
    relations.errors.InputError: mechanism 'staircase' with n = 512, delta = 256: 65536 neighbour pairs x 512 \
outputs, more than the limit of 262144 for an exact named mechanism (docs/mechanism-files.md, Limits of named \
mechanisms)
    """
    if pairs * outputs > MAX_ENTRIES:
        raise InputError(f"mechanism '{what}' with {given}: {pairs} neighbour pairs x {outputs} outputs, more than the "
                         f"limit of {MAX_ENTRIES} for an exact named mechanism (docs/mechanism-files.md, Limits of "
                         "named mechanisms)")
