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
from relations.kinds import NumericMode
from relations.numbers._text import NumberLiteral

__all__ = ["FLOAT_TOLERANCE", "FLOAT_ROUNDING", "MAX_EXACT_FLOAT_ENTRIES", "MAX_EXACT_MODE_ENTRIES", "rounded_literal",
           "float_rows", "owned_floats", "take_exactly", "float_rounding", "exact_float_rows", "numeric_mode", "exact_flag",
           "check_exact_size", "auto_rule", "mode_rule", "EXACT_INPUT_RULE"]

#: Tolerance on row and prior sums accepted for floats (numpy arrays, Python floats and
#: decimal literals); such rows are renormalised exactly (``docs/semantics.md``, "Floats").
FLOAT_TOLERANCE = 1e-9
#: Relative rounding assumed for every float entry a user hands in: ``2**-42`` (about
#: ``2.3e-13``, the error of a few hundred float operations).  The rounding radius of a
#: distribution with floats is this plus twice its largest deviation of a sum from 1.
FLOAT_ROUNDING = Fraction(1, 2**42)
#: Most a claim may fail by, in nats, and still hold "within rounding": the rounding margin of a quantity is
#: capped here (``2**-16``, about 1.5e-5 nats).  Entries within ``2**-42`` of their intended values move a
#: budget by far less (binary and k-ary RR in floats, k up to 64, eps up to 20: about 1e-6 nats at most), except where an entry is itself tiny (a threshold within about ``e^-24`` of 0 or 1),
#: where the margin would excuse whole nats; there the claim is decided on the binary values.
MAX_EXCUSED = 2.0**-16
#: Under the numeric mode ``auto`` (the default), float arrays with at most this many entries are taken
#: exactly (their binary values, rows renormalised); larger ones are in float mode
#: (``docs/semantics.md``, "Numeric mode").
MAX_EXACT_FLOAT_ENTRIES = 1 << 16
#: The most entries a float array may have to be taken exactly when mode ``exact`` asks for it (``4096 x 4096``,
#: about 10 s and 0.6 GiB for all four measures); a larger one is refused up front, never switched to floats.
MAX_EXACT_MODE_ENTRIES = 1 << 24


def rounded_literal(v: Any) -> bool:
    """A float, or decimal text (``0.3``, ``1e-3``): a value that may be a rounding."""
    if isinstance(v, (float, np.floating)):
        return True
    return isinstance(v, str) and "/" not in v and any(c in v.lower() for c in ".e")


def float_literal(v: Any) -> bool:
    """A float or an unquoted number from a data file (:class:`~relations.numbers._text.NumberLiteral`):
    a value that carries :data:`FLOAT_ROUNDING` even when its distribution sums to exactly 1."""
    return isinstance(v, (float, np.floating, NumberLiteral))


def float_rows(a: np.ndarray, key: str) -> np.ndarray:
    """Validate a float-mode array (2-d, rows summing to 1 within :data:`FLOAT_TOLERANCE`); read-only.

    ``key`` is ``"prior"`` (``a`` has one row) or the channel's name, for error messages.

    The caller's array is never changed.  A writeable float64 array (or a view of one) is copied, so that
    later changes to it cannot change the mechanism; a read-only one is used as it is (no copy: mark a
    large array read-only, ``a.setflags(write=False)``, to save the memory).

    Examples
    --------
    >>> q = np.array([[0.5, 0.5], [0.25, 0.75]])
    >>> kept = float_rows(q, "channel")
    >>> q.flags.writeable, kept.flags.writeable, kept is q
    (True, False, False)
    >>> q.setflags(write=False)
    >>> float_rows(q, "channel") is q
    True
    """
    a = owned_floats(a)
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


def owned_floats(a: Any) -> np.ndarray:
    """``a`` as float64 that later changes to the caller's array cannot reach (:func:`float_rows`'s copy rule:
    a writeable array or a view of one is copied, C-ordered; a read-only one is used as it is), not validated.

    Examples
    --------
    >>> q = np.array([[0.5, 0.5]])
    >>> owned_floats(q) is q, owned_floats(q.astype(np.float32)).dtype
    (False, dtype('float64'))
    """
    given = a
    a = np.asarray(a, dtype=np.float64)
    if a.flags.writeable and (a is given or not a.flags.owndata):  # the caller's memory
        a = np.array(a, dtype=np.float64, order="C")
    return a


def numeric_mode(value: Any, where: str = "mode") -> NumericMode:
    """The :class:`~relations.kinds.NumericMode` a caller names: the enum, its text (any case) or None (``auto``).

    Raises
    ------
    InputError
        One line naming ``where`` and the three choices, for anything else.

    Examples
    --------
    >>> numeric_mode("Float"), numeric_mode(None)
    (<NumericMode.FLOAT: 'float'>, <NumericMode.AUTO: 'auto'>)
    >>> numeric_mode("fast")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: mode: expected auto, exact or float, got 'fast'
    """
    if value is None:
        return NumericMode.AUTO
    if isinstance(value, str):
        try:
            return NumericMode(value.strip().lower())
        except ValueError:
            pass
    raise InputError(f"{where}: expected auto, exact or float, got {value!r}")


def exact_flag(mode: NumericMode) -> bool | None:
    """The ``exact`` argument of :meth:`~relations.model.Channel.of` for a mode: None (the rule), True or False.

    Examples
    --------
    >>> [exact_flag(m) for m in NumericMode]
    [None, True, False]
    """
    return {NumericMode.AUTO: None, NumericMode.EXACT: True, NumericMode.FLOAT: False}[NumericMode(mode)]


def check_exact_size(size: int, where: str) -> None:
    """Refuse, up front, a float array of ``size`` entries taken exactly by mode ``exact``: more than
    :data:`MAX_EXACT_MODE_ENTRIES` is an :class:`~relations.errors.InputError` that names mode ``float``.

    Examples
    --------
    >>> check_exact_size(4096 * 4096, "channel")
    >>> check_exact_size(4097 * 4096, "channel")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: channel: 16781312 float entries, more than 16777216 (4096 x 4096), the most mode exact takes exactly; use mode float (--mode float) for float arithmetic
    """
    if size > MAX_EXACT_MODE_ENTRIES:
        raise InputError(f"{where}: {size} float entries, more than {MAX_EXACT_MODE_ENTRIES} (4096 x 4096), the most "
                         "mode exact takes exactly; use mode float (--mode float) for float arithmetic")


def take_exactly(a: np.ndarray, exact: bool | None, where: str = "array") -> bool:
    """Whether a validated float array is taken exactly: ``exact`` (True: mode ``exact``, within
    :data:`MAX_EXACT_MODE_ENTRIES`; False: mode ``float``), or by the rule of mode ``auto`` when None
    (at most :data:`MAX_EXACT_FLOAT_ENTRIES` entries).

    Examples
    --------
    >>> a = np.full((257, 256), 1 / 256)
    >>> take_exactly(a[:256], None), take_exactly(a, None), take_exactly(a, True)
    (True, False, True)
    """
    if exact is None:
        return a.size <= MAX_EXACT_FLOAT_ENTRIES
    if exact:
        check_exact_size(a.size, where)
    return exact


#: The rule that made a mechanism exact when its input was no float array (rationals, decimals, JSON): the
#: mode that input always has, so tables leave it unsaid.
EXACT_INPUT_RULE = "auto: not a float array"


def mode_rule(value: Any, mode: NumericMode) -> str:
    """Why a channel handed in as ``value`` is exact or in float mode under ``mode``: the text the table's
    title shows (``docs/semantics.md``, "Numeric mode").

    ``value`` is the channel as :func:`~relations.model._arrays.plain` returns it (a float64 array for
    float input); for a product form, the local channel.

    Examples
    --------
    >>> mode_rule(np.full((257, 256), 1 / 256), NumericMode.AUTO)
    'auto: a float array of more than 65536 entries'
    >>> mode_rule([["1/2", "1/2"]], NumericMode.AUTO), mode_rule([["1/2", "1/2"]], NumericMode.FLOAT)
    ('auto: not a float array', 'chosen by the caller')
    """
    mode = NumericMode(mode)
    if mode is not NumericMode.AUTO:
        return "chosen by the caller"
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return auto_rule(value.size)
    return EXACT_INPUT_RULE


def auto_rule(size: int) -> str:
    """The rule of mode ``auto`` for a float array of ``size`` entries, as text (see :func:`mode_rule`).

    Examples
    --------
    >>> auto_rule(256 * 256), auto_rule(257 * 256)
    ('auto: a float array of at most 65536 entries', 'auto: a float array of more than 65536 entries')
    """
    most = "at most" if size <= MAX_EXACT_FLOAT_ENTRIES else "more than"
    return f"auto: a float array of {most} {MAX_EXACT_FLOAT_ENTRIES} entries"


def float_rounding(a: np.ndarray) -> Fraction:
    """The rounding radius of a float-mode array (its sums' deviation, bounded above)."""
    dev = float(np.max(np.abs(a.sum(axis=1) - 1)))
    return FLOAT_ROUNDING + 2 * Fraction(dev) + Fraction(a.shape[1], 2**52)


def _where(key: str, i: int, j: int) -> str:
    return f"{key}[{j}]" if key == "prior" else f"{key}[{i}][{j}]"


def exact_float_rows(a: np.ndarray, key: str, *, vector: bool = False) -> tuple[list[list[Fraction]], Fraction, np.ndarray]:
    """The rows of a validated float array (:func:`float_rows`) taken exactly, their rounding radius and
    their floats (each exact entry correctly rounded, as ``float(Fraction)`` gives, by integer division).

    Each entry is its binary value ``M 2^E`` (``M`` an integer of at most 53 bits);
    a row sums exactly to ``T 2^E0`` over its smallest exponent ``E0``, so the row
    renormalised exactly is ``Q[x][y] = M 2^(E - E0) / T``: integers only, no sum
    of Fractions.  The result is what :func:`~relations.model._distributions.stochastic_rows`
    gives for the same floats (every entry a float literal: radius
    :data:`FLOAT_ROUNDING` plus twice the largest exact deviation of a row sum from 1),
    about ten times faster.

    ``key`` names the array in messages: ``key[x]`` for row ``x``, or ``key`` alone
    when ``vector`` (a prior: one row).

    Raises
    ------
    InputError
        If a row's exact sum is not within :data:`FLOAT_TOLERANCE` of 1.

    Examples
    --------
    >>> rows, rho, _ = exact_float_rows(np.array([[0.9, 0.1], [0.25, 0.75]]), "channel")
    >>> rows[1], sum(rows[0]), rho == FLOAT_ROUNDING + 2 * (Fraction(0.9) + Fraction(0.1) - 1)
    ([Fraction(1, 4), Fraction(3, 4)], Fraction(1, 1), True)
    """
    mant, exp = np.frexp(a)
    ints = (mant * 2.0**53).astype(np.int64)  # exact: a float's mantissa has 53 bits
    exp = exp.astype(np.int64) - 53
    low = ints & -ints  # strip trailing zero bits, so that the shifts below stay small
    tz = np.where(ints > 0, np.frexp(low.astype(np.float64))[1].astype(np.int64) - 1, 0)
    ints >>= tz
    exp += tz
    big = np.iinfo(np.int64).max
    e0 = np.where(ints > 0, exp, big).min(axis=1)
    shifts = (exp - e0[:, None]).tolist()
    rows: list[list[Fraction]] = []
    approx: list[list[float]] = []
    deviation = Fraction(0)
    tolerance = Fraction(FLOAT_TOLERANCE)
    shared: dict[int, dict[int, Fraction]] = {}  # by row sum, by scaled entry: equal entries are one Fraction
    for x, (row, shift) in enumerate(zip(ints.tolist(), shifts)):
        scaled = [m << s if m else 0 for m, s in zip(row, shift)]
        total = sum(scaled)
        where = key if vector else f"{key}[{x}]"
        if total == 0:
            raise InputError(f"{where}: entries sum to 0, not 1")
        e = int(e0[x])
        exact_sum = Fraction(total * 2**e) if e >= 0 else Fraction(total, 2**-e)
        off = abs(exact_sum - 1)
        if off > tolerance:
            raise InputError(f"{where}: entries sum to {float(exact_sum)!r}, not 1 (nor within {FLOAT_TOLERANCE}, "
                             "the tolerance for floats)")
        deviation = max(deviation, off)
        made = shared.setdefault(total, {})
        for m in set(scaled).difference(made):
            made[m] = Fraction(m, total)  # one reduction per distinct entry (a channel repeats a few values)
        rows.append(list(map(made.__getitem__, scaled)))
        approx.append([m / total for m in scaled])  # int / int is correctly rounded
    return rows, FLOAT_ROUNDING + 2 * deviation, np.array(approx, dtype=np.float64).reshape(a.shape)
