"""The one way the tool reads JSON a user can hand it: its shape first (nesting, values, sizes), then the values.

:func:`shape` scans the text with vectorised byte operations (numpy), building no value: the deepest
nesting, the number of values, and for a top-level object the number of leaves (numbers, strings,
literals) and of items of each member.  :func:`read_json` refuses nesting deeper than
:data:`MAX_JSON_DEPTH` from that scan, before :mod:`json` recurses, and turns a ``MemoryError`` into one
line (:func:`memory_error`).  Readers check their own limits (entries of a channel, neighbour pairs) on
the shape, before a value is built (``docs/mechanism-files.md``, "Limits").

Examples
--------
>>> s = shape('{"prior": ["1/2", "1/2"], "channel": [[1, 0], [0, 1]]}')
>>> s.depth, s.members["channel"].leaves, s.members["channel"].items
(3, 4, 2)
>>> read_json("[" * 100 + "]" * 100, source="x.json")
Traceback (most recent call last):
...
relations.errors.InputError: x.json: JSON nested 100 levels deep, deeper than the limit of 64
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from relations.errors import InputError

try:  # loaded with this module: once memory has run out, loading the extension module fails (ImportError)
    import resource as _resource
except ImportError:  # pragma: no cover - not on POSIX
    _resource = None  # type: ignore[assignment]

__all__ = ["MAX_JSON_DEPTH", "Member", "Shape", "shape", "read_json", "memory_error", "memory_limit_text"]

#: Deepest nesting of arrays and objects in any JSON file the tool reads (its formats need at most 5).
MAX_JSON_DEPTH = 64
_MAX_MEMBERS = 256  # a top-level object with more members gets no per-member counts (its format refuses it)


@dataclass(frozen=True)
class Member:
    """One member of a top-level object: ``leaves`` (numbers, strings and literals anywhere in its value) and
    ``items`` (the elements of its value when that is an array, else 0)."""

    leaves: int
    items: int


@dataclass(frozen=True)
class Shape:
    """What :func:`shape` found: the deepest nesting (``[1]`` is 1), the number of leaf values, and the members of a
    top-level object (``None`` for anything else, or for more than 256 members)."""

    depth: int
    leaves: int
    members: dict[str, Member] | None = field(default=None)


def shape(text: str | bytes) -> Shape:
    """Scan JSON text for its shape without building any value (linear time, vectorised).

    Strings are masked first (a quote preceded by an odd run of backslashes is escaped), so brackets
    and commas inside them do not count.  Malformed text gives a shape too; :mod:`json` reports it later.

    Parameters
    ----------
    text : str or bytes

    Returns
    -------
    Shape

    Examples
    --------
    >>> shape('[1, "a]\\\\"", [2, [3]]]').depth, shape('[1, "a]\\\\"", [2, [3]]]').leaves
    (3, 4)
    """
    import numpy as np

    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    arr = np.frombuffer(data, dtype=np.uint8)
    if not arr.size:
        return Shape(0, 0)
    quote = arr == 34
    backslash = arr == 92
    if backslash.any():
        at = np.flatnonzero(quote)
        at = at[at > 0]
        index = np.arange(arr.size, dtype=np.int64)
        last_plain = np.maximum.accumulate(np.where(backslash, -1, index))
        run = (at - 1) - last_plain[at - 1]
        quote[at[run % 2 == 1]] = False
        del index, last_plain
    inside = np.bitwise_xor.accumulate(quote.view(np.uint8))  # 1 from an opening quote to before its closing one
    keep = (inside == 0) & (arr > 32)  # each string leaves its closing quote only; no white space
    del inside
    s = arr[keep]
    opens = (s == 91) | (s == 123)
    closes = (s == 93) | (s == 125)
    comma, colon = s == 44, s == 58
    scalar = ~(opens | closes | comma | colon)
    starts = scalar.copy()
    starts[1:] &= ~scalar[:-1]
    del scalar
    depth = np.cumsum(opens.view(np.int8) - closes.view(np.int8), dtype=np.int32)
    deepest = int(depth.max()) if depth.size else 0
    leaves = int(np.count_nonzero(starts)) - int(np.count_nonzero(colon))
    members: dict[str, Member] | None = None
    if s.size and s[0] == 123:
        bounds = np.flatnonzero((comma & (depth == 1)) | (closes & (depth == 0)))
        if bounds.size <= _MAX_MEMBERS and bounds.size:
            begins = np.concatenate(([0], bounds[:-1]))
            value = np.add.reduceat(starts.view(np.int8) - colon.view(np.int8), begins, dtype=np.int64)
            items = np.add.reduceat((comma & (depth == 2)).view(np.int8), begins, dtype=np.int64)
            where = np.flatnonzero(keep)[begins + 1] if s.size > 1 else begins  # the members' first characters
            found: dict[str, Member] = {}
            for k, (begin, end) in enumerate(zip(begins.tolist(), bounds.tolist())):
                key = _key(data, int(where[k]), s, begin + 1, end)
                if key is not None:
                    is_array = begin + 3 < end and s[begin + 3] == 91
                    empty = is_array and s[begin + 4] == 93
                    n_items = int(items[k]) + 1 if is_array and not empty else 0
                    found.setdefault(key, Member(int(value[k]), n_items))
            members = found
    return Shape(deepest, leaves, members)


def _key(data: bytes, close: int, s, first: int, end: int) -> str | None:
    """The key of the member whose compressed text starts at ``first`` (its closing quote, at ``close`` in ``data``)."""
    if first >= end or s[first] != 34 or first + 1 >= end or s[first + 1] != 58:
        return None
    start = data.rfind(b'"', 0, close)
    while start > 0 and (close - start) and _escaped(data, start):
        start = data.rfind(b'"', 0, start)
    try:
        key = json.loads(data[start:close + 1])
    except ValueError:
        return None
    return key if isinstance(key, str) else None


def _escaped(data: bytes, at: int) -> bool:
    run = 0
    while at - run - 1 >= 0 and data[at - run - 1] == 92:
        run += 1
    return run % 2 == 1


def memory_limit_text() -> str:
    """The memory limit in force, for a message: the address-space limit (``ulimit -v``), a cgroup's, or none."""
    limits = []
    try:
        if _resource is not None:
            soft = _resource.getrlimit(_resource.RLIMIT_AS)[0]
            if soft != _resource.RLIM_INFINITY:
                limits.append(f"{soft // 2**20} MiB of address space (ulimit -v)")
    except (OSError, ValueError):  # pragma: no cover - not on this platform
        pass
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as fh:
            text = fh.read().strip()
        if text.isdigit():
            limits.append(f"{int(text) // 2**20} MiB in its cgroup")
    except OSError:
        pass
    return "; ".join(limits) if limits else "no set limit: the machine's memory"


def memory_error(what: str) -> InputError:
    """The one line for a ``MemoryError``: ``not enough memory for WHAT (limit: ...)``.

    Examples
    --------
    >>> str(memory_error("reading m.json")).startswith("not enough memory for reading m.json (limit: ")
    True
    """
    return InputError(f"not enough memory for {what} (limit: {memory_limit_text()}); raise the limit or give a "
                      "smaller input")


def read_json(text: str | bytes, *, source: str, max_depth: int = MAX_JSON_DEPTH, checked: Shape | None = None,
              **options: Any) -> Any:
    """``json.loads(text, **options)`` for a file a user gives: nesting refused first, ``MemoryError`` as one line.

    Parameters
    ----------
    text : str or bytes
    source : str
        How messages name the file.
    max_depth : int, optional
        Deepest nesting allowed (:data:`MAX_JSON_DEPTH`).
    checked : Shape, optional
        The text's :func:`shape`, when the caller has it already.
    **options
        Passed to :func:`json.loads` (hooks).  ``json.JSONDecodeError`` propagates (the caller words it).

    Returns
    -------
    object

    Raises
    ------
    InputError
        Nesting deeper than ``max_depth``, or not enough memory.
    """
    try:
        got = checked if checked is not None else shape(text)
        if got.depth > max_depth:
            raise InputError(f"{source}: JSON nested {got.depth} levels deep, deeper than the limit of {max_depth}")
        return json.loads(text, **options)
    except RecursionError:
        raise InputError(f"{source}: JSON nested too deeply (the limit is {max_depth} levels)") from None
    except MemoryError:
        raise memory_error(f"reading {source}") from None
