"""Exact rows that know which of their entries are equal: each distinct value converted and compared once.

A channel written out densely often repeats a few values many times: binary randomized response on
``D^10`` has about a million entries and eleven distinct values.  :func:`indexed_rows` reads exact rows
once, keying every entry by its numerator and denominator, and returns them as :class:`IndexedRows` (a
tuple of tuples, equal to the plain rows) together with their float64 copy, in which each *distinct*
value is converted once (correctly rounded, as ``float(Fraction)``).  The rows remember each entry's
index among the distinct values (and equal entries are one object), so :meth:`IndexedRows.ranks` (what the exact ratio scans of
:mod:`relations.measures._ratios` need when many candidates tie) sorts the distinct values only, instead
of reading every entry again.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["IndexedRows", "indexed_rows"]


class IndexedRows(tuple):
    """A tuple of tuples of :class:`~fractions.Fraction` with each entry's index among the distinct values.

    Attributes
    ----------
    index : numpy.ndarray
        Read-only ``int64`` array of the rows' shape: ``index[x, y]`` is the position of ``rows[x][y]`` in
        :attr:`distinct`.
    distinct : tuple of Fraction
        The distinct entries, in the order first met (row by row).

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> rows, floats, nonzero = indexed_rows([[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]])
    >>> rows == ((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4))), rows.index.tolist(), len(rows.distinct)
    (True, [[0, 1], [1, 0]], 2)
    >>> R, values = rows.ranks()
    >>> R.tolist(), [str(v) for v in values]
    ([[1, 0], [0, 1]], ['1/4', '3/4'])
    """

    index: Any  # a numpy.ndarray that shadows the method tuple.index, which mypy would not allow
    distinct: tuple[Fraction, ...]

    def ranks(self) -> tuple[np.ndarray, list[Fraction]]:
        """``(R, values)``: the distinct entries in increasing order and each entry's position in them.

        Returns
        -------
        tuple
            ``R`` an ``int64`` array of the rows' shape, ``values`` a list of Fractions (the form of
            :data:`relations.measures._ratios.RanksFn`).
        """
        by_value = sorted(range(len(self.distinct)), key=self.distinct.__getitem__)
        order = np.empty(len(by_value), dtype=np.int64)
        order[by_value] = np.arange(len(by_value))
        return order[self.index], [self.distinct[i] for i in by_value]

    def __reduce__(self):
        return (_rebuild, (tuple(self), self.index, self.distinct))


def _rebuild(rows: tuple, index: np.ndarray, distinct: tuple) -> IndexedRows:
    out = IndexedRows(rows)
    out.index, out.distinct = index, distinct
    return out


def indexed_rows(rows: Sequence[Sequence[Fraction]]) -> tuple[IndexedRows, np.ndarray, np.ndarray]:
    """Exact rows as :class:`IndexedRows`, with their float64 copy and where they are non-zero.

    Parameters
    ----------
    rows : sequence of sequences of Fraction
        Exact rows of equal length (already validated).

    Returns
    -------
    tuple
        ``(rows, floats, nonzero)``: the :class:`IndexedRows`, the correctly rounded float64 copy and a
        boolean array of the exact non-zero pattern (both of shape ``(len(rows), width)``).

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> rows, floats, nonzero = indexed_rows([[F(1, 3), F(2, 3)], [F(1), F(0)]])
    >>> floats.tolist() == [[1 / 3, 2 / 3], [1.0, 0.0]], nonzero.tolist(), rows.distinct
    (True, [[True, True], [True, False]], (Fraction(1, 3), Fraction(2, 3), Fraction(1, 1), Fraction(0, 1)))
    """
    seen: dict[tuple[int, int], int] = {}  # by numerator and denominator: hashing a Fraction costs a modular inverse
    firsts: list[Fraction] = []
    ids: list[int] = []
    for row in rows:
        for v in row:
            key = (v.numerator, v.denominator)
            got = seen.get(key)
            if got is None:
                got = seen[key] = len(firsts)
                firsts.append(v if type(v) is Fraction else Fraction(*key))  # ints too: ranks are Fractions
            ids.append(got)
    width = len(rows[0]) if len(rows) else 0
    index = np.array(ids, dtype=np.int64).reshape(len(rows), width)
    index.setflags(write=False)
    floats = np.array([float(v) for v in firsts], dtype=np.float64)[index]
    nonzero = np.array([v != 0 for v in firsts], dtype=bool)[index]
    # equal entries become one object: scans that compare a column's entries then compare each value once
    # (:func:`relations.measures._ratios.extremes` groups them by identity first)
    out = IndexedRows(tuple(map(firsts.__getitem__, ids[x * width:(x + 1) * width])) for x in range(len(rows)))
    out.index, out.distinct = index, tuple(firsts)
    return out, floats, nonzero
