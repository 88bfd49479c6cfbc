"""Run-length sequences: ``r`` items stored as runs of equal items, for any ``r``.

A product form on ``D^r`` has one local prior per record, and its witnesses are
datasets of ``r`` record values.  Nearly all of these items repeat (a uniform
prior is one factor ``r`` times; a witness is one filler value with one record
changed), so :class:`Runs` keeps ``(item, count)`` pairs: its size is the number
of runs, not ``r``, and ``r = 10**9`` costs what ``r = 3`` does.

It is an immutable :class:`~collections.abc.Sequence`: ``len``, indexing (a
binary search over the run ends), iteration (item by item: ``r`` steps, so code
that must scale reads :attr:`Runs.runs` instead) and equality with any sequence
of the same items.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from relations.errors import InputError

__all__ = ["Runs", "MAX_RUN_LENGTH", "SHORT_RECORDS"]

#: Largest total length of a :class:`Runs` (records of a product form): any count a 64-bit index can hold.
MAX_RUN_LENGTH = 2**62

#: Datasets (witnesses of product forms) of at most this many records are written as plain tuples
#: (:meth:`Runs.plain_if_short`); longer ones stay run-length.
SHORT_RECORDS = 64


class Runs(Sequence):
    """An immutable sequence stored as runs ``((item, count), ...)`` of consecutive equal items.

    Parameters
    ----------
    runs : iterable of (item, int)
        The runs in order; counts must be positive.  Adjacent runs of the same item
        (by identity, or by ``==`` for ints, strings and tuples) are merged.

    Raises
    ------
    InputError
        If a count is not a positive whole number or the total exceeds
        :data:`MAX_RUN_LENGTH`.

    Notes
    -----
    The items and counts are kept as numpy arrays (object and int64) with the
    cumulative ends, so indexing is a binary search and :meth:`replaced` copies
    arrays rather than Python objects.  A :class:`Runs` equals the tuple or list it
    stands for, but hashes differently: do not mix the two as dictionary keys.

    Examples
    --------
    >>> x = Runs([(0, 10**9 - 1), (1, 1)])
    >>> len(x), x[0], x[-1], x.runs
    (1000000000, 0, 1, ((0, 999999999), (1, 1)))
    >>> Runs.of([2, 2, 5]) == (2, 2, 5), Runs.of([2, 2, 5]).runs
    (True, ((2, 2), (5, 1)))
    >>> x.replaced(0, 1).runs
    ((1, 1), (0, 999999998), (1, 1))
    """

    __slots__ = ("items", "counts", "_ends", "_runs")

    items: np.ndarray
    counts: np.ndarray
    _ends: np.ndarray
    _runs: tuple[tuple[Any, int], ...] | None

    def __init__(self, runs: Iterable[tuple[Any, int]]) -> None:
        items: list = []
        counts: list[int] = []
        last: Any = _NOTHING
        for item, count in runs:
            if type(count) is not int or not 1 <= count <= MAX_RUN_LENGTH:  # bool is not int here
                raise InputError(f"a run count must be a whole number from 1 to {MAX_RUN_LENGTH}, got {count!r}")
            if item is last or (type(item) in _PLAIN and type(item) is type(last) and item == last):
                counts[-1] += count
            else:
                items.append(item)
                counts.append(count)
                last = item
        self._set(items, counts)

    def _set(self, items: Any, counts: Any) -> None:
        if isinstance(items, np.ndarray) and items.dtype == object:
            arr = items
        else:
            arr = np.empty(len(items), dtype=object)
            try:
                arr[:] = items
            except ValueError:  # items that are sequences themselves: numpy would try to unpack them
                for i, item in enumerate(items):
                    arr[i] = item
        c = np.asarray(counts, dtype=np.int64)
        # counts are positive and each at most MAX_RUN_LENGTH = 2**62: a float total below 2**62.5
        # means the int64 running sum cannot overflow
        if len(c) and (c.min() < 1 or float(c.sum(dtype=np.float64)) > MAX_RUN_LENGTH * 1.1):
            raise InputError(f"at most {MAX_RUN_LENGTH} items in positive runs")
        ends = np.cumsum(c)
        if len(ends) and ends[-1] > MAX_RUN_LENGTH:
            raise InputError(f"at most {MAX_RUN_LENGTH} items, got {int(ends[-1])}")
        for a in (arr, c, ends):
            a.flags.writeable = False
        object.__setattr__(self, "items", arr)
        object.__setattr__(self, "counts", c)
        object.__setattr__(self, "_ends", ends)
        object.__setattr__(self, "_runs", None)

    @classmethod
    def of(cls, items: Iterable[Any]) -> Runs:
        """The runs of a plain sequence (a :class:`Runs` is returned as it is)."""
        if isinstance(items, Runs):
            return items
        items = list(items)
        if items and set(map(type, items)).isdisjoint(_PLAIN):  # objects merge by identity: vectorised
            ids = np.fromiter(map(id, items), dtype=np.int64, count=len(items))
            starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
            return cls.trusted([items[i] for i in starts.tolist()], np.diff(np.r_[starts, len(items)]))
        return cls((item, 1) for item in items)

    @classmethod
    def trusted(cls, items: Any, counts: Any) -> Runs:
        """Runs from parallel sequences already merged, with positive counts (only the total is checked)."""
        out = cls.__new__(cls)
        out._set(items, counts)
        return out

    @classmethod
    def repeat(cls, item: Any, count: int) -> Runs:
        """``item`` ``count`` times."""
        return cls([(item, count)])

    @property
    def runs(self) -> tuple[tuple[Any, int], ...]:
        """The ``(item, count)`` pairs (built on first use)."""
        if self._runs is None:
            object.__setattr__(self, "_runs", tuple(zip(self.items.tolist(), self.counts.tolist())))
        return self._runs  # type: ignore[return-value]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Runs is immutable")

    def __len__(self) -> int:
        return int(self._ends[-1]) if len(self._ends) else 0

    def _run(self, index: int) -> int:
        return int(np.searchsorted(self._ends, index, side="right"))

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("Runs index out of range")
        return self.items[self._run(index)]

    def __iter__(self) -> Iterator[Any]:
        for item, count in zip(self.items.tolist(), self.counts.tolist()):
            yield from itertools.repeat(item, count)

    def plain_if_short(self) -> tuple | Runs:
        """A plain tuple when at most :data:`SHORT_RECORDS` long, else ``self``."""
        return tuple(self) if len(self) <= SHORT_RECORDS else self

    def starts(self) -> Iterator[tuple[Any, int, int]]:
        """``(item, first index, count)`` for each run, in order."""
        firsts = (self._ends - self.counts).tolist()
        return zip(self.items.tolist(), firsts, self.counts.tolist())

    def replaced(self, index: int, item: Any) -> Runs:
        """A copy with the item at ``index`` replaced (the run containing it is split)."""
        if not 0 <= index < len(self):
            raise IndexError("Runs index out of range")
        i = self._run(index)
        old, count = self.items[i], int(self.counts[i])
        start = int(self._ends[i]) - count
        before, after = index - start, start + count - index - 1
        middle = ([(old, before)] if before else []) + [(item, 1)] + ([(old, after)] if after else [])
        # only the runs next to the change can merge: rebuild those, copy the rest as arrays
        lo, hi = max(i - 1, 0), min(i + 2, len(self.items))
        local = Runs(list(zip(self.items[lo:i].tolist(), self.counts[lo:i].tolist())) + middle
                     + list(zip(self.items[i + 1:hi].tolist(), self.counts[i + 1:hi].tolist())))
        return Runs.trusted(np.concatenate([self.items[:lo], local.items, self.items[hi:]]),
                            np.concatenate([self.counts[:lo], local.counts, self.counts[hi:]]))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Runs):
            return len(self) == len(other) and self.runs == other.runs
        if isinstance(other, (tuple, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.runs)

    def __repr__(self) -> str:
        return f"Runs({list(self.runs)!r})"

    def __reduce__(self):
        return (Runs, (self.runs,))


#: Item types merged by value (``==``) as well as by identity; other objects (priors) only by identity.
_PLAIN = frozenset({int, str, tuple})
_NOTHING = object()
