"""What a randomizer returns, as a comparable output: whatever a published output carries, it leaks.

Kept free of the rest of the package (stdlib, and numpy when present) so that a worker
interpreter can run it alone.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

from relations.audit._enumerate import NotEnumerable, ScaledDraw, UniformDraw

try:
    import numpy as _np
except ImportError:  # pragma: no cover - a worker interpreter without numpy
    _np = None  # type: ignore[assignment]

__all__ = ["output_key", "output_label", "output_real"]


def output_key(value: Any) -> Hashable:
    """A hashable, comparable form of what the randomizer returned (arrays, lists and sets included).

    Whatever a published output carries, it leaks: ``(1, 0)`` and ``[1, 0]`` are the same
    output, but ``1`` and ``1.0`` and ``True`` are kept apart by type.  A numpy scalar is the Python
    number it equals (``np.int64(3)`` is ``3``): correct code commonly returns the truth as an ``int``
    and a lie drawn by numpy as ``np.int64``, and both print the same.  Every NaN is one output.

    Examples
    --------
    >>> import numpy as np
    >>> output_key(np.array([1, 0])) == output_key([1, 0])
    True
    >>> output_key({2, 1})
    ('set', (1, 2))
    >>> output_key(float("nan")) == output_key(np.float64("nan")), output_key(np.int64(3))
    (True, 3)
    """
    kind = type(value)
    if kind is int or kind is str:  # the common case, first
        return value
    if _np is not None and (kind is _np.float64 or kind is _np.int64):  # then numpy's (a sampled noise), as below
        value = value.item()
        kind = type(value)
        if kind is int:
            return value
    if kind is float or kind is bool:  # (as at the end below, NaN one output)
        return ("float", "nan") if value != value else (kind.__name__, value)
    if isinstance(value, (UniformDraw, ScaledDraw)):
        raise NotEnumerable("the randomizer returned a uniform draw itself (arithmetic on it is not enumerable)")
    if _np is not None:
        if isinstance(value, _np.ndarray):
            return ("seq", tuple(output_key(v) for v in value.tolist()))
        if isinstance(value, _np.generic):
            value = value.item()
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(output_key(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted((output_key(v) for v in value), key=repr)))
    if isinstance(value, dict):
        return ("dict", tuple((repr(k), output_key(v)) for k, v in value.items()))  # in order: a published dict shows it
    if isinstance(value, float) and value != value:  # NaN: equal to nothing, itself included
        return ("float", "nan")
    if isinstance(value, (bool, int, float, str, bytes)) or value is None:
        return (type(value).__name__, value) if isinstance(value, (bool, float)) else value
    if getattr(type(value), "_symbolic_vector", False):  # relations.audit._independent: one output per path, not one
        raise NotEnumerable("the randomizer returned a vector of independent draws kept factorised (only the index "
                            "of its largest and the like are)")
    return ("repr", repr(value))


def output_real(key: Hashable) -> float | None:
    """The real number an output key stands for (an int or a float the randomizer returned), else ``None``; an
    int beyond the float range is ``inf`` or ``-inf``, its place among the floats (beyond every finite bin edge,
    and not a finite real for binning).

    Examples
    --------
    >>> output_real(output_key(0.5)), output_real(output_key(3)), output_real(output_key(True)), output_real("a")
    (0.5, 3.0, None, None)
    >>> output_real(-10**400)
    -inf
    """
    if isinstance(key, tuple) and len(key) == 2 and key[0] == "float":
        key = key[1]
    if isinstance(key, bool) or not isinstance(key, (int, float)):
        return None
    try:
        return float(key)
    except OverflowError:  # an int of more than about 308 digits
        return math.inf if key > 0 else -math.inf


def output_label(key: Hashable) -> str:
    """Text for an output key (:func:`output_key`): ``(0,1)``, ``{1,2}``, ``True``, ``3``."""
    if isinstance(key, tuple) and len(key) == 2 and key[0] in ("seq", "set"):
        inner = ",".join(output_label(k) for k in key[1])
        return f"({inner})" if key[0] == "seq" else "{" + inner + "}"
    if isinstance(key, tuple) and len(key) == 2 and key[0] in ("bool", "float"):
        return repr(key[1])
    return str(key)
