"""Exact rows of a large float matrix, kept as the floats and their exact row sums.

A float array taken exactly is ``Q[x][y] = a[x][y] / s[x]``: each float ``a[x][y]`` is
the binary rational it holds and ``s[x]`` is the exact sum of row ``x``.  Writing the
16.7 million entries of a 4096 x 4096 matrix as Python ``Fraction`` objects takes
minutes and gigabytes; :class:`ScaledRows` keeps ``a`` and ``s`` instead and makes an
entry's ``Fraction`` when it is asked for.  It is a read-only sequence of rows, so code
written for tuples of ``Fraction`` reads it unchanged (at the cost of making the
entries it touches).

The row sums are exact integer sums computed with numpy: each entry is ``M 2^E`` with
``M < 2^53``; ``M`` is split into two halves of at most 27 bits, whose sums per (row,
exponent) are exact in float64 (at most ``2^26`` terms of ``< 2^27``); the few
distinct exponents of a row are then combined in Python integers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction

import numpy as np

from relations.errors import InputError
from relations.numbers._floatlog import UNIT
from relations.numbers._kernels import compiled, read_only

__all__ = ["SCALED_ENTRIES", "ScaledRows", "exact_row_sums", "scaled_float_rows", "checked_scaled_rows"]

#: Float arrays taken exactly with at least this many entries are kept as :class:`ScaledRows`.
SCALED_ENTRIES = 1 << 18

_UNIT = 1 << 1074  # the compiled row sums count 2^-1074
_NORMAL = float(np.finfo(np.float64).tiny)
_BLOCK = 1 << 20  # entries per block of rows in :func:`exact_row_sums`
_HALF = 26
_LEFT = -1 << 40  # :func:`~relations.numbers._compiled.scaled_rows`'s mark of a row it leaves


class ScaledRows(Sequence):
    """The exact rows ``a[x] / s[x]`` of a float array ``a`` with exact row sums ``s``.

    Parameters
    ----------
    values : numpy.ndarray
        The floats ``a``, shape ``(n, m)``, non-negative (kept read-only).
    sums : tuple of Fraction
        The exact row sums ``s[x]``, all positive.

    Attributes
    ----------
    float_error : Fraction
        ``2u / (1 - u)``, ``u = 2^-53``: the relative error of the float copy ``a[x][y] / float(s[x])``
        (two roundings).

    Examples
    --------
    >>> import numpy as np
    >>> rows = ScaledRows(np.array([[0.5, 0.25], [1.0, 0.0]]), (Fraction(3, 4), Fraction(1)))
    >>> rows[0][0], list(rows[1]), len(rows), rows.entry(0, 1)
    (Fraction(2, 3), [Fraction(1, 1), Fraction(0, 1)], 2, Fraction(1, 3))
    """

    float_error = 2 * UNIT / (1 - UNIT)

    def __init__(self, values: np.ndarray, sums: Sequence[Fraction]) -> None:
        values = np.asarray(values, dtype=np.float64)
        if not values.flags.writeable and values.flags.c_contiguous:
            self._values = values
        else:
            self._values = np.ascontiguousarray(values).copy()
            self._values.setflags(write=False)
        self._sums: tuple[Fraction, ...] | None = tuple(sums)
        self._counts: Sequence[int] = ()
        self._made: list[Fraction | None] = []
        self._floats: np.ndarray | None = None
        if len(self._sums) != values.shape[0]:
            raise ValueError("one row sum per row")

    @classmethod
    def _counted(cls, values: np.ndarray, counts: Sequence[int], floats: np.ndarray) -> ScaledRows:
        """The rows of the read-only C-ordered ``values`` over the sums ``counts[x] 2^-1074``, with their float
        copy ``floats`` (``values[x] / float(s[x])``, both roundings to nearest); each sum's ``Fraction`` is
        made when first read (a large matrix's exact re-checks read a few rows)."""
        rows = cls.__new__(cls)
        rows._values, rows._sums, rows._counts = values, None, counts
        rows._made = [None] * len(counts)
        rows._floats = floats
        return rows

    @property
    def values(self) -> np.ndarray:
        """The floats ``a`` (read-only)."""
        return self._values

    @property
    def sums(self) -> tuple[Fraction, ...]:
        """The exact row sums ``s``."""
        if self._sums is None:
            self._sums = tuple(self._sum(x) for x in range(len(self._counts)))
        return self._sums

    def _sum(self, x: int) -> Fraction:
        if self._sums is not None:
            return self._sums[x]
        made = self._made[x]
        if made is None:
            made = self._made[x] = Fraction(self._counts[x], _UNIT)
        return made

    def __len__(self) -> int:
        return self._values.shape[0]

    def __getitem__(self, x):
        if isinstance(x, slice):
            return tuple(self[i] for i in range(*x.indices(len(self))))
        return _Row(self, int(x) if x >= 0 else int(x) + len(self))

    def __iter__(self) -> Iterator[_Row]:
        return (_Row(self, x) for x in range(len(self)))

    def entry(self, x: int, y: int) -> Fraction:
        """``Q[x][y] = a[x][y] / s[x]`` exactly."""
        return Fraction(float(self._values[x, y])) / self._sum(x)

    def floats(self) -> np.ndarray:
        """The float copy ``a[x][y] / float(s[x])`` (within :attr:`float_error`), read-only."""
        if self._floats is not None:
            return self._floats
        out = self._values / np.array([float(s) for s in self.sums])[:, None]
        out.setflags(write=False)
        return out

    def ranks(self) -> tuple[np.ndarray, list[Fraction]]:
        """``(R, values)``: the distinct exact entries in increasing order and each entry's index in them.

        Equal floats in rows of equal sums are one value; the distinct (float, sum) pairs are compared
        exactly once each.
        """
        sums = {s: i for i, s in enumerate(dict.fromkeys(self.sums))}
        row_class = np.array([sums[s] for s in self.sums], dtype=np.int64)
        order = list(sums)
        pairs = np.stack([np.broadcast_to(row_class[:, None], self._values.shape).ravel(),
                          self._values.view(np.int64).ravel()], axis=1)
        distinct, inverse = np.unique(pairs, axis=0, return_inverse=True)
        exact = [Fraction(float(np.int64(v).view(np.float64))) / order[c] for c, v in distinct.tolist()]
        values = sorted(set(exact))
        index = {v: i for i, v in enumerate(values)}
        ranks = np.array([index[v] for v in exact], dtype=np.int64)[np.ravel(inverse)]
        return ranks.reshape(self._values.shape), values

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ScaledRows) and self.sums == other.sums:
            return np.array_equal(self._values, other._values)
        if isinstance(other, (ScaledRows, tuple, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class _Row(Sequence):
    """Row ``x`` of a :class:`ScaledRows`: its entries are made when read."""

    __slots__ = ("_rows", "_x")

    def __init__(self, rows: ScaledRows, x: int) -> None:
        if not 0 <= x < len(rows):
            raise IndexError(x)
        self._rows, self._x = rows, x

    def __len__(self) -> int:
        return self._rows.values.shape[1]

    def __getitem__(self, y):
        if isinstance(y, slice):
            return tuple(self)[y]
        return self._rows.entry(self._x, y)

    def __iter__(self) -> Iterator[Fraction]:
        s = self._rows._sum(self._x)
        return (Fraction(v) / s for v in self._rows.values[self._x].tolist())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (_Row, tuple, list)):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


def exact_row_sums(a: np.ndarray) -> list[Fraction]:
    """The exact sum of each row of a non-negative finite float array, as a ``Fraction``.

    Examples
    --------
    >>> exact_row_sums(np.array([[0.1, 0.2], [2.0**-1074, 1e300]])) == [Fraction(0.1) + Fraction(0.2),
    ...                                                                  Fraction(2.0**-1074) + Fraction(1e300)]
    True
    """
    n, m = a.shape
    if m > 1 << _HALF:
        raise ValueError(f"rows of more than 2^{_HALF} entries")
    kernels = compiled(a.size, saving=45.0) if a.dtype == np.float64 and a.flags.c_contiguous else None
    if kernels is not None:
        return [Fraction(t, _UNIT) for t in _compiled_row_sums(kernels, a)[0]]
    out: list[Fraction] = []
    rows = max(1, _BLOCK // max(m, 1))
    for start in range(0, n, rows):
        block = a[start:start + rows]
        mant, exp = np.frexp(block)
        ints = (mant * 2.0**53).astype(np.int64)  # exact
        exp = exp.astype(np.int64) - 53
        low = exp[ints > 0].min() if np.any(ints > 0) else 0
        span = int(exp.max() - low + 1) if np.any(ints > 0) else 1
        keys = (np.arange(block.shape[0], dtype=np.int64)[:, None] * span + (exp - low)).ravel()
        keys = np.where(ints.ravel() > 0, keys, 0)
        size = block.shape[0] * span
        hi = np.bincount(keys, weights=(ints >> _HALF).ravel().astype(np.float64), minlength=size)
        lo = np.bincount(keys, weights=(ints & ((1 << _HALF) - 1)).ravel().astype(np.float64), minlength=size)
        for r in range(block.shape[0]):
            seg = slice(r * span, (r + 1) * span)
            where = np.flatnonzero((hi[seg] != 0) | (lo[seg] != 0))
            total = 0
            for k, h, l in zip(where.tolist(), hi[seg][where].tolist(), lo[seg][where].tolist()):  # noqa: E741
                total += ((int(h) << _HALF) + int(l)) << k
            e = int(low)
            out.append(Fraction(total << e) if e >= 0 else Fraction(total, 1 << -e))
    return out


def _compiled_row_sums(kernels, a: np.ndarray) -> tuple[list[int], int, bool]:
    """The exact row sums by the compiled kernel :func:`~relations.numbers._compiled.row_sum_bits` (one read
    of ``a``), as integer counts of ``2^-1074``; the least biased exponent of a positive entry; and whether
    an entry is negative or not finite (the sums are then meaningless)."""
    out: list[int] = []
    least, bad = 2047, False
    rows = 1 << 16  # a block's digits: 17 MiB at most
    for start in range(0, a.shape[0], rows):
        block = a[start:start + rows]
        digits = np.zeros((block.shape[0], 272), dtype=np.uint8)
        got, worse = kernels.row_sum_bits(read_only(block), digits)
        least, bad = min(least, int(got)), bad or bool(worse)
        out += [int.from_bytes(d, "little") for d in map(bytes, digits)]
    return out, least, bad


def checked_scaled_rows(a: np.ndarray, tolerance: Fraction) -> tuple[ScaledRows, Fraction, np.ndarray, bool] | None:
    """:func:`scaled_float_rows` of a float array not yet validated, in one read by the compiled kernel, or None.

    None (the caller then validates with :func:`~relations.model._floats.float_rows` and calls
    :func:`scaled_float_rows`, which raise the usual messages) when the compiled kernels do not serve
    the size, an entry is negative or not finite, or a row's exact sum is 0 or within ``m 2^-51`` of
    the tolerance's edge.  Otherwise every row's float sum (any order of summation: an error of at most
    ``g = (m - 1) u / (1 - (m - 1) u)`` of the sum, ``u = 2^-53``, and ``g (1 + tolerance) < m 2^-51``) is
    within the tolerance too, so the validation would have passed: the answer is the one the two steps give.

    The kernel :func:`~relations.numbers._compiled.scaled_rows` sums the rows exactly, rounds each sum
    correctly and writes the float copy in the same read; the few rows it leaves (positive entries whose
    exponents differ by more than 63, a zero row) are summed by :func:`~relations.numbers._compiled.row_sum_bits` and
    divided here.  Both roundings are to nearest, as :meth:`ScaledRows.floats` rounds: the same float copy.
    """
    kernels = compiled(a.size, saving=45.0) if a.dtype == np.float64 and a.flags.c_contiguous else None
    if kernels is None or a.ndim != 2 or a.shape[1] > 1 << _HALF:
        return None
    values = a
    if values.flags.writeable:
        values = a.copy()
        values.setflags(write=False)
    n, m = a.shape
    words, shifts = np.zeros((n, 3), dtype=np.uint64), np.zeros(n, dtype=np.int64)
    sums, floats = np.zeros(n), np.empty((n, m))
    least, bad = kernels.scaled_rows(values, words, shifts, sums, floats)
    if bad:
        return None
    data = words.tobytes()
    counts = [int.from_bytes(data[24 * x:24 * x + 24], "little") for x in range(n)]
    counts = [t << k if k >= 0 else t >> -k for t, k in zip(counts, shifts.tolist())]
    slow = np.flatnonzero(shifts == _LEFT)
    if slow.size:
        rest = np.ascontiguousarray(values[slow])
        for x, t in zip(slow.tolist(), _compiled_row_sums(kernels, rest)[0]):
            counts[x] = t
    edge = tolerance - Fraction(m, 2**51)
    if not 0 < edge < 1:
        return None
    off = [abs(t - _UNIT) for t in counts]
    worst = max(off)
    if worst > edge.numerator * _UNIT // edge.denominator:  # |s - 1| <= edge: an integer at most edge 2^1074
        return None  # (a zero row: |s - 1| = 1 > edge)
    if slow.size:  # each sum within the tolerance of 1: its float (correctly rounded) is normal
        floats[slow] = rest / np.array([counts[x] / _UNIT for x in slow.tolist()])[:, None]
    floats.setflags(write=False)
    rows = ScaledRows._counted(values, counts, floats)
    return rows, Fraction(worst, _UNIT), floats, int(least) >= 2


def scaled_float_rows(a: np.ndarray, key: str, tolerance: Fraction) -> tuple[ScaledRows, Fraction, np.ndarray, bool]:
    """A validated float array (non-negative, finite) taken exactly as :class:`ScaledRows`.

    Returns ``(rows, deviation, floats, normal)``: the rows, the largest ``|s[x] - 1|``, the float copy,
    and whether every positive entry is at least ``2^-1021`` (twice the least normal float: its float
    copy ``a / s`` is then normal too, ``s`` being within ``tolerance`` of 1).

    The row sums are exact (:func:`exact_row_sums`, compiled or numpy), so both kernels give the same rows.

    Raises
    ------
    InputError
        If a row's exact sum is 0 or farther than ``tolerance`` from 1.
    """
    sums = exact_row_sums(a)
    normal = not np.any((a > 0) & (a < 2 * _NORMAL))
    deviation = Fraction(0)
    for x, s in enumerate(sums):
        if s == 0:
            raise InputError(f"{key}[{x}]: entries sum to 0, not 1")
        off = abs(s - 1)
        if off > tolerance:
            raise InputError(f"{key}[{x}]: entries sum to {float(s)!r}, not 1 (nor within {float(tolerance)}, "
                             "the tolerance for floats)")
        deviation = max(deviation, off)
    rows = ScaledRows(a, sums)
    return rows, deviation, rows.floats(), normal
