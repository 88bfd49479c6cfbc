"""Certified float arithmetic: a vectorised logarithm with a proved error bound, and certified sums.

Ball arithmetic (``arb``) costs about 2.5 us per logarithm; a 4096 x 4096 channel has
16.7 million of them.  This module evaluates ``ln x`` for a whole float64 array with
numpy, with an error bound that rests only on IEEE 754 arithmetic (each ``+ - * /``
of float64 is correctly rounded; numpy ufuncs round once per operation and
``frexp``/``floor`` are exact), never on the accuracy of a library's ``log``; the
error analysis is the standard one of [1]_.  Sums are ``math.fsum``, which rounds the
exact sum once [2]_.

**Method** (:func:`certified_log`).  For a positive normal float ``x``:

1. ``x = f 2^e`` with ``f`` in ``[1, 2)`` (``frexp``, exact);
2. ``j = floor((f - 1) 2^10)`` and ``c = 1 + j 2^-10`` (exact), so ``d = f - c`` is exact
   (Sterbenz) and ``t = d / c`` lies in ``[0, 2^-10)``; ``t^ = RN(d / c)``;
3. ``ln(1 + t) ~ t - t^2/2 + t^3/3 - t^4/4 + t^5/5`` by Horner's rule (truncation below
   ``t^6 / 6 < 2^-62``);
4. ``L = RN(RN(RN(e ln2^) + T_j) + s)`` with ``ln2^`` and the table ``T_j ~ ln c_j`` the
   floats nearest arb enclosures (128 bits).

**Bound.**  With ``u = 2^-53``: the polynomial step is within ``5 u 2^-10`` of
``ln(1 + t)``; the three roundings of step 4, the table and ``ln 2`` add at most
``u|L| + u|B| + 2.01 u |e| ln 2 + u ln 2`` where ``|B| <= |e| ln 2 + ln 2`` and
``|e| ln 2 <= |ln x| + ln 2``; solving for the error gives
``|L - ln x| <= 4.02 u |L| + 3.49 u``.  :data:`LOG_ERROR` states the rounder
``6 u |L| + 4 u`` that callers use.

Subnormal inputs, zeros, negatives and non-finite values are refused (the caller
falls back to ball arithmetic).

References
----------
.. [1] Higham. Accuracy and Stability of Numerical Algorithms, 2nd ed. SIAM, 2002,
   Sections 2.2 and 4.2. doi:10.1137/1.9780898718027
.. [2] Shewchuk. Adaptive precision floating-point arithmetic and fast robust geometric
   predicates. Discrete Comput. Geom. 18, 1997. doi:10.1007/PL00009321
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

__all__ = ["UNIT", "LOG_ERROR", "certified_log", "log_error_bound", "fsum_fraction"]

#: The unit roundoff of float64, ``2^-53``, as an exact rational.
UNIT = Fraction(1, 2**53)

#: ``(a, b)``: :func:`certified_log` returns ``L`` with ``|L - ln x| <= a |L| + b`` (module docstring).
LOG_ERROR = (6 * UNIT, 4 * UNIT)

_BITS = 10
_TABLE: tuple[np.ndarray, float] | None = None


def _table() -> tuple[np.ndarray, float]:
    """``(T, ln2^)``: ``T[j]`` the float nearest ``ln(1 + j 2^-10)``, and the float nearest ``ln 2``."""
    global _TABLE
    if _TABLE is None:
        from flint import arb

        from relations.numbers._enclosure import interval, working_precision

        def nearest(ball) -> float:
            lo, hi = interval(ball)
            return float((lo + hi) / 2)  # radius below 2^-120: within u|v| + 2^-120 of v

        with working_precision(128):
            scale = 2**_BITS
            table = np.array([nearest((arb(scale + j) / scale).log()) for j in range(scale)])
            _TABLE = (table, nearest(arb(2).log()))
    return _TABLE


def certified_log(x: np.ndarray) -> np.ndarray:
    """``ln x`` elementwise for positive normal float64 values, within :data:`LOG_ERROR`.

    Parameters
    ----------
    x : numpy.ndarray
        Positive normal floats (at least ``2^-1022``), any shape.

    Returns
    -------
    numpy.ndarray
        ``L`` with ``|L - ln x| <= 6 u |L| + 4 u`` for every entry, ``u = 2^-53``.

    Raises
    ------
    ValueError
        If an entry is not a positive normal finite float.

    Examples
    --------
    >>> import numpy as np
    >>> L = certified_log(np.array([1.0, 2.0, 0.1]))
    >>> float(L[0]), abs(float(L[1]) - math.log(2)) <= 6 * 2**-53 * math.log(2) + 4 * 2**-53
    (0.0, True)
    """
    x = np.asarray(x, dtype=np.float64)
    if x.size and not (np.all(np.isfinite(x)) and float(x.min()) >= np.finfo(np.float64).tiny):
        raise ValueError("certified_log: every entry must be a positive normal float")
    table, ln2 = _table()
    f, e = np.frexp(x)  # x = f 2^e, f in [1/2, 1)
    f = f * 2.0  # exact: f in [1, 2)
    e = (e - 1).astype(np.float64)
    j = np.floor((f - 1.0) * float(2**_BITS))  # exact
    c = 1.0 + j * 2.0**-_BITS  # exact
    t = (f - c) / c  # f - c exact (Sterbenz); one rounding
    s = t * (1.0 + t * (-0.5 + t * (1.0 / 3.0 + t * (-0.25 + t * (1.0 / 5.0)))))
    return (e * ln2 + table[j.astype(np.intp)]) + s


def log_error_bound(abs_sum: Fraction, count: Fraction) -> Fraction:
    """``sum |L_i - ln x_i| w_i`` bounded from ``abs_sum >= sum w_i |L_i|`` and ``count >= sum w_i``.

    Examples
    --------
    >>> log_error_bound(Fraction(1), Fraction(1)) == 10 * UNIT
    True
    """
    a, b = LOG_ERROR
    return a * abs_sum + b * count


def fsum_fraction(values: np.ndarray) -> tuple[Fraction, Fraction]:
    """``(s, r)``: ``s`` the correctly rounded float sum of ``values`` (``math.fsum``) as an exact rational,
    and ``r = 2u |s| + 2^-1074`` bounding ``|s - sum(values)|`` (``fsum`` rounds the exact sum once).

    Examples
    --------
    >>> import numpy as np
    >>> s, r = fsum_fraction(np.array([0.1] * 10))
    >>> s == Fraction(1), r == 2 * UNIT + Fraction(1, 2**1074)
    (True, True)
    """
    s = Fraction(math.fsum(np.ravel(values).tolist()))
    return s, 2 * UNIT * abs(s) + _TINY


_TINY = Fraction(1, 2**1074)
