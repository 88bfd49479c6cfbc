"""Floats a user hands in: validation, and the rounding they carry.

A float is the exact binary rational it holds.  Distributions given as floats (numpy
arrays, Python floats, decimal literals) are renormalised exactly when their sums are
within :data:`FLOAT_TOLERANCE` of 1, and carry a relative rounding radius: the intended
entries are taken to lie within that relative distance of the exact ones.  Claims whose
boundary lies inside that rounding are reported ``holds within rounding``
(``docs/semantics.md``, "Floats").
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from relations.errors import InputError
from relations.numbers.text import NumberLiteral

__all__ = ["FLOAT_TOLERANCE", "FLOAT_ROUNDING", "MAX_EXACT_FLOAT_ENTRIES", "rounded_literal", "float_rows", "take_exactly", "float_rounding"]

#: Tolerance on row and prior sums accepted for floats (numpy arrays, Python floats and
#: decimal literals); such rows are renormalised exactly (``docs/semantics.md``, "Floats").
FLOAT_TOLERANCE = 1e-9
#: Relative rounding assumed for every float entry a user hands in: ``2**-42`` (about
#: ``2.3e-13``, the error of a few hundred float operations).  The rounding radius of a
#: distribution with floats is this plus twice its largest deviation of a sum from 1.
FLOAT_ROUNDING = Fraction(1, 2**42)
#: Float arrays with at most this many entries are taken exactly (their binary values,
#: rows renormalised); larger ones stay in float mode.
MAX_EXACT_FLOAT_ENTRIES = 1 << 16


def rounded_literal(v: Any) -> bool:
    """A float, or decimal text (``0.3``, ``1e-3``): a value that may be a rounding."""
    if isinstance(v, (float, np.floating)):
        return True
    return isinstance(v, str) and "/" not in v and any(c in v.lower() for c in ".e")


def float_literal(v: Any) -> bool:
    """A float or an unquoted number from a data file (:class:`~relations.numbers.text.NumberLiteral`):
    a value that carries :data:`FLOAT_ROUNDING` even when its distribution sums to exactly 1."""
    return isinstance(v, (float, np.floating, NumberLiteral))


def float_rows(a: np.ndarray, key: str) -> np.ndarray:
    """Validate a float-mode array (2-d, rows summing to 1 within :data:`FLOAT_TOLERANCE`); read-only copy.

    ``key`` is ``"prior"`` (``a`` has one row) or the channel's name, for error messages.
    """
    a = np.asarray(a, dtype=np.float64)
    bad = ~np.isfinite(a)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise InputError(f"{_where(key, i, j)}: {a[i, j]} is not a finite number")
    neg = a < 0
    if neg.any():
        i, j = np.argwhere(neg)[0]
        raise InputError(f"{_where(key, i, j)}: {a[i, j]} is negative")
    sums = a.sum(axis=1)
    off = np.abs(sums - 1) > FLOAT_TOLERANCE
    if off.any():
        i = int(np.argmax(off))
        where = key if key == "prior" else f"{key}[{i}]"
        raise InputError(f"{where}: entries sum to {float(sums[i])!r}, not 1 within {FLOAT_TOLERANCE}")
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


def take_exactly(a: np.ndarray, exact: bool | None) -> bool:
    """Whether a validated float array is taken exactly (``exact``, or small enough by default)."""
    return a.size <= MAX_EXACT_FLOAT_ENTRIES if exact is None else exact


def float_rounding(a: np.ndarray) -> Fraction:
    """The rounding radius of a float-mode array (its sums' deviation, bounded above)."""
    dev = float(np.max(np.abs(a.sum(axis=1) - 1)))
    return FLOAT_ROUNDING + 2 * Fraction(dev) + Fraction(a.shape[1], 2**52)


def _where(key: str, i: int, j: int) -> str:
    return f"{key}[{j}]" if key == "prior" else f"{key}[{i}][{j}]"
