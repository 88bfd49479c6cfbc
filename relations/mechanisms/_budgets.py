"""The privacy parameter of a named mechanism given as ``eps`` instead of the ratio ``t = e^eps``.

The named mechanisms are exact: their entries are rationals in ``t``.  :func:`ratio_of` turns
what a user gives into that ``t``:

* ``ratio=t`` -- ``t`` itself, exactly (:func:`~relations.mechanisms._limits.ratio`);
* ``eps="ln(q)"`` -- ``t = q`` exactly, so ``eps_d = ln(q)`` is the ``eps`` asked for;
* ``eps`` a number (``1.0``, ``"1/2"``, ``"0.5"``, a Fraction) -- ``e^eps`` is irrational
  (Lindemann) for ``eps != 0``, so ``t`` is the rational **nearest** to ``e^eps`` among those
  with denominator at most :data:`EPS_DENOMINATOR` (``10**6``), found from a certified
  enclosure of ``e^eps`` (python-flint ``arb``; the enclosure is narrowed until it decides).
  The mechanism built is exact for that ``t``: its ``eps_d`` is exactly ``ln(t)``, which
  differs from ``eps`` by less than ``1e-6``.  A float ``eps`` is its exact binary value
  (``Fraction(eps)``), as everywhere in the package.  ``eps`` is at most :data:`MAX_EPS`.

SUE (``unary_encoding(..., optimized=False)``) needs ``sqrt(t)`` rational: with a numeric
``eps`` it takes ``s`` nearest to ``e^(eps/2)`` (same denominator bound) and ``t = s^2``, so
its ``eps_d = 2 ln(s)`` differs from ``eps`` by less than ``2e-6``.

Examples
--------
>>> ratio_of(eps="ln(3)"), ratio_of("5/2"), ratio_of(eps=0)
(Fraction(3, 1), Fraction(5, 2), Fraction(1, 1))
>>> t = ratio_of(eps=1.0)
>>> t.denominator <= EPS_DENOMINATOR, abs(float(t) - 2.718281828459045) < 1e-11
(True, True)
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from relations.errors import InputError
from relations.mechanisms._limits import exact
from relations.mechanisms._limits import ratio as exact_ratio
from relations.numbers._enclosure import ball, interval, working_precision
from relations.numbers._text import RationalLike, parse_rational, short_text

__all__ = ["EPS_DENOMINATOR", "MAX_EPS", "EpsLike", "ratio_of", "nearest_exp"]

#: Largest denominator of the ratio ``t`` chosen for a numeric ``eps`` (``|ln t - eps| < 1e-6``).
EPS_DENOMINATOR = 10**6

#: Largest ``eps`` accepted (``e^2000`` has 869 digits, within the limit on a rational parameter).
MAX_EPS = 2000

#: ``eps`` as a user gives it: a number (a float is its exact binary value), decimal or fraction
#: text, or ``"ln(q)"`` text for an exact ``ln`` of a rational.
EpsLike = Fraction | int | float | str

_LN = re.compile(r"\s*ln\s*\((.*)\)\s*")


def nearest_exp(x: Fraction, denominator: int = EPS_DENOMINATOR) -> Fraction:
    """The rational nearest to ``e^x`` among those with denominator at most ``denominator``.

    Certified: an ``arb`` enclosure of ``e^x`` is narrowed until both its ends have the same
    nearest rational (the rationals nearest to a given one form an interval).

    Parameters
    ----------
    x : Fraction
        The exponent, ``0 <= x <= MAX_EPS``.
    denominator : int, optional
        The bound on the denominator.

    Returns
    -------
    Fraction

    Examples
    --------
    >>> nearest_exp(Fraction(1), 1000), nearest_exp(Fraction(0))
    (Fraction(1457, 536), Fraction(1, 1))
    """
    if x == 0:
        return Fraction(1)
    bits = 2 * denominator.bit_length() + 64 + math.ceil(float(x) * 1.45)
    for _ in range(12):
        with working_precision(bits):
            lo, hi = interval(ball(x).exp())
        a, b = lo.limit_denominator(denominator), hi.limit_denominator(denominator)
        if a == b:
            return a
        bits *= 2
    raise InputError(f"e^{short_text(x)}: could not decide the nearest rational")  # pragma: no cover


def ratio_of(ratio: RationalLike | None = None, eps: EpsLike | None = None, *, name: str = "ratio",
             square: bool = False) -> Fraction:
    """The ratio ``t = e^eps`` of a named mechanism from ``ratio`` or ``eps`` (exactly one of them).

    Parameters
    ----------
    ratio : Fraction, int, float or str, optional
        ``t`` itself, at least 1.
    eps : Fraction, int, float or str, optional
        ``"ln(q)"`` (then ``t = q`` exactly), or a number ``0 <= eps <= MAX_EPS`` (then ``t``
        is the rational nearest to ``e^eps`` with denominator at most :data:`EPS_DENOMINATOR`;
        see the module docstring).
    name : str, optional
        The ratio's name, for messages.
    square : bool, optional
        Make ``t`` the square of a rational (SUE): ``t = s^2`` with ``s`` nearest to ``e^(eps/2)``.

    Returns
    -------
    Fraction
        The ratio ``t >= 1``.

    Raises
    ------
    InputError
        If both or neither are given, or the value is not a number, negative or too large.

    Examples
    --------
    >>> ratio_of(eps="ln(9/4)", square=True), ratio_of(eps="1/2", square=True) == ratio_of(eps="1/4") ** 2
    (Fraction(9, 4), True)
    >>> ratio_of(3, eps=1)
    Traceback (most recent call last):
    ...
    relations.errors.InputError: give the ratio e^eps or eps, not both
    """
    if (ratio is None) == (eps is None):
        raise InputError("give the ratio e^eps or eps, not both" if ratio is not None else
                         f"mechanism parameter '{name}' is missing (give the ratio e^eps, or eps=...)")
    if ratio is not None:
        return exact_ratio(ratio, name)
    match = _LN.fullmatch(eps) if isinstance(eps, str) else None
    if match:
        q = exact(match.group(1), "eps")
        if q < 1:
            raise InputError(f"mechanism parameter 'eps': ln(q) needs q >= 1 (eps >= 0), got ln({short_text(q)})")
        return q
    e = parse_rational(eps, "mechanism parameter 'eps'")
    if e < 0 or e > MAX_EPS:
        raise InputError(f"mechanism parameter 'eps': must be from 0 to {MAX_EPS}, got {short_text(e)}")
    if square:
        return nearest_exp(e / 2) ** 2
    return nearest_exp(e)
