"""Priors and channels: immutable probability vectors and row-stochastic matrices.

* :class:`Prior` -- a dense prior ``p(x)`` over ``n`` inputs;
* :class:`Channel` -- a dense row-stochastic matrix ``Q[x][y] = p(y | x)`` (``n x m``).

Product forms (independent records on ``D^r``) are in :mod:`relations.model._products`.

An *exact* object carries its entries as :class:`~fractions.Fraction` (and a float64
copy, marked read-only, for the fast candidate search); a *float-mode* object carries
only the float array, and every result derived from it says it is approximate.

:meth:`Prior.of` and :meth:`Channel.of` validate what a user hands in: Fractions,
ints, rational text (``"13/20"``, ``"0.65"``, never evaluated as code), Python
floats (their exact binary value) or numpy arrays.  Exact input must be
non-negative and sum to exactly 1 per row; a float numpy array must sum to 1 within
:data:`FLOAT_TOLERANCE` and is taken at its binary values or in float mode, as the
numeric mode says (their ``exact`` argument; ``docs/semantics.md``, "Numeric mode").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from relations.errors import InputError
from relations.model._arrays import plain
from relations.model._floats import (
    FLOAT_ROUNDING,
    FLOAT_TOLERANCE,
    check_exact_size,
    exact_float_rows,
    float_rows,
)
from relations.model._floats import (
    float_literal as _float_literal,
)
from relations.model._floats import (
    float_rounding as _float_rounding,
)
from relations.model._floats import (
    owned_floats as _owned_floats,
)
from relations.model._floats import (
    rounded_literal as _rounded_literal,
)
from relations.model._floats import (
    take_exactly as _take_exactly,
)
from relations.model._indexed import indexed_rows
from relations.model._scaled import SCALED_ENTRIES, ScaledRows, checked_scaled_rows, scaled_float_rows
from relations.numbers._floatlog import UNIT as _UNIT
from relations.numbers._sums import exact_sum
from relations.numbers._text import json_repr, parse_rational, short_text

__all__ = ["probability_vector", "stochastic_rows", "Prior", "Channel"]

def _frozen(array: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(array, dtype=np.float64)
    array.setflags(write=False)
    return array


def _reliable(exact_nonzero: np.ndarray, approx: np.ndarray) -> bool:
    """True when the float copy has the exact zero pattern and no subnormal entry,
    so every float entry is within a relative 2**-53 of the exact one."""
    tiny = np.finfo(np.float64).tiny
    return bool(np.array_equal(exact_nonzero, approx != 0) and not np.any((approx != 0) & (approx < tiny)))


def _is_float_array(value: Any) -> bool:
    return isinstance(value, np.ndarray) and np.issubdtype(value.dtype, np.floating)


def probability_vector(values: Any, where: str, *, rounding: bool = False) -> Any:
    """Parse a probability vector exactly: non-negative rationals summing to 1.

    Entries that are integers, Fractions or fraction text must sum to exactly 1.  A
    vector with a float or a decimal literal is a rounding of the one intended: if its
    sum is within :data:`FLOAT_TOLERANCE` of 1 it is renormalised exactly (each entry's
    exact value divided by the exact sum), and its rounding radius is
    :data:`FLOAT_ROUNDING` (when it has a float or an unquoted number from a data file,
    :func:`~relations.model._floats.float_literal`) plus twice the deviation of the sum.

    Parameters
    ----------
    values : sequence
        Entries as Fractions, ints, floats (exact binary value) or rational text.
    where : str
        How the user named it (``"prior"``, ``"channel[2]"``), for error messages.
    rounding : bool, optional
        Also return the rounding radius.

    Returns
    -------
    list of Fraction, or (list of Fraction, Fraction) with ``rounding``

    Raises
    ------
    InputError
        If it is empty, an entry is not a number or is negative, or the sum is not 1.

    Examples
    --------
    >>> probability_vector(["1/4", "0.75"], "prior")
    [Fraction(1, 4), Fraction(3, 4)]
    >>> v, rho = probability_vector([0.9, 0.1], "prior", rounding=True)  # binary sum 1 + 2**-55
    >>> sum(v), rho == FLOAT_ROUNDING + 2 * (Fraction(0.9) + Fraction(0.1) - 1)
    (Fraction(1, 1), True)
    >>> probability_vector(["1/2", "1/3"], "prior")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: prior: entries sum to 5/6, not 1
    >>> probability_vector(["0.6", "0.5"], "prior")  # decimal text is exact: no float tolerance to speak of
    Traceback (most recent call last):
    ...
    relations.errors.InputError: prior: entries sum to 11/10, not 1
    """
    if isinstance(values, np.ndarray):
        values = values.tolist()
    if not isinstance(values, (list, tuple)) or not values:
        raise InputError(f"{where}: expected a non-empty list of probabilities, got {json_repr(values)}")
    out = []
    floats = False  # a float literal among them
    for i, v in enumerate(values):
        if type(v) is Fraction:  # the rows the constructors build: nothing to parse
            q = v
        else:
            q = parse_rational(v, f"{where}[{i}]")
            floats = floats or _float_literal(v)
        if q.numerator < 0:  # a Fraction's denominator is positive
            raise InputError(f"{where}[{i}]: {json_repr(str(v))} is negative")
        out.append(q)
    total = exact_sum(out)
    rho = FLOAT_ROUNDING if floats else Fraction(0)
    if total != 1:
        if not any(_rounded_literal(v) for v in values):
            raise InputError(f"{where}: entries sum to {short_text(total)}, not 1")
        if total == 0 or abs(total - 1) > Fraction(FLOAT_TOLERANCE):
            # decimal text ("0.6") is read exactly: the tolerance for floats is named only where a float was given
            note = (f" (nor within {FLOAT_TOLERANCE}, the tolerance for floats)" if any(_float_literal(v) for v in values)
                    else "")
            raise InputError(f"{where}: entries sum to {short_text(total)}, not 1{note}")
        out = [q / total for q in out]
        rho += 2 * abs(total - 1)
    return (out, rho) if rounding else out


def stochastic_rows(rows: Any, where: str, *, rounding: bool = False) -> Any:
    """Parse a row-stochastic matrix exactly (every row a :func:`probability_vector`, equal widths).

    Parameters
    ----------
    rows : sequence of sequences
        The rows ``Q[x]``.
    where : str
        How the user named it (``"channel"``), for error messages.
    rounding : bool, optional
        Also return the rounding radius (the largest of the rows').

    Returns
    -------
    list of list of Fraction, or (list of list of Fraction, Fraction) with ``rounding``

    Raises
    ------
    InputError
        If it is empty, a row is not a list, rows differ in length, or a row is not a distribution.

    Examples
    --------
    >>> stochastic_rows([["1", "0"], ["1/2", "1/2"]], "channel")[1]
    [Fraction(1, 2), Fraction(1, 2)]
    """
    if isinstance(rows, np.ndarray):
        rows = rows.tolist()
    if not isinstance(rows, (list, tuple)) or not rows:
        raise InputError(f"{where}: expected a non-empty list of rows, got {json_repr(rows)}")
    out = []
    width = None
    rho = Fraction(0)
    for i, row in enumerate(rows):
        if isinstance(row, np.ndarray):
            row = row.tolist()
        if not isinstance(row, (list, tuple)):
            raise InputError(f"{where}[{i}]: expected a row (a list), got {json_repr(row)}")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise InputError(f"{where}[{i}]: row has {len(row)} entries, row 0 has {width}")
        r, e = probability_vector(row, f"{where}[{i}]", rounding=True)
        out.append(r)
        rho = max(rho, e)
    return (out, rho) if rounding else out


@dataclass(frozen=True, eq=False)
class Prior:
    """A dense prior ``p(x)`` over ``n`` inputs (``sum_x p(x) = 1``).

    Attributes
    ----------
    array : numpy.ndarray
        Read-only float64 copy (the values themselves in float mode).
    exact : tuple of Fraction or None
        The exact entries; ``None`` in float mode.
    reliable : bool
        The float copy has the exact zero pattern and no subnormal entry.
    rounding : Fraction
        Relative rounding radius of the entries: 0 for exact input; for floats, the
        intended entries are taken to lie within this relative distance
        (:func:`probability_vector`).
    """

    array: np.ndarray
    exact: tuple[Fraction, ...] | None = None
    reliable: bool = True
    rounding: Fraction = Fraction(0)

    @staticmethod
    def from_exact(values: Sequence[Fraction], rounding: Fraction = Fraction(0)) -> Prior:
        """A prior from exact entries that are already validated."""
        values = tuple(values)
        approx = np.array([float(v) for v in values], dtype=np.float64)
        return Prior(_frozen(approx), values, _reliable(np.array([v != 0 for v in values]), approx), rounding)

    @staticmethod
    def uniform(n: int) -> Prior:
        """The uniform prior ``1/n`` on ``n`` inputs.

        Examples
        --------
        >>> Prior.uniform(4).exact
        (Fraction(1, 4), Fraction(1, 4), Fraction(1, 4), Fraction(1, 4))
        """
        return Prior.from_exact([Fraction(1, n)] * n)

    @classmethod
    def of(cls, values: Any, *, where: str = "prior", exact: bool | None = None) -> Prior:
        """Validate and build a prior from anything a user hands in.

        Parameters
        ----------
        values : Prior, sequence or numpy.ndarray
            A :class:`Prior` (returned as is), entries (Fractions, ints, floats,
            rational text) or a float numpy array.
        where : str, optional
            The name used in error messages.
        exact : bool, optional
            For a float numpy array: take it exactly (True, the numeric mode ``exact``: at most
            :data:`~relations.model._floats.MAX_EXACT_MODE_ENTRIES` entries, checked before anything
            else) or in float mode (False); by default (None, mode ``auto``) exactly when it has at
            most :data:`~relations.model._floats.MAX_EXACT_FLOAT_ENTRIES` entries.

        Returns
        -------
        Prior

        Raises
        ------
        InputError
            If the entries are not a probability vector, or ``exact`` asks for a float array too
            large to be taken exactly.

        Examples
        --------
        >>> Prior.of(["0.95", "0.05"]).exact
        (Fraction(19, 20), Fraction(1, 20))
        >>> import numpy as np
        >>> p = Prior.of(np.array([0.9, 0.1]))  # floats: renormalised exactly
        >>> sum(p.exact), p.rounding > 0, Prior.of(np.array([0.9, 0.1]), exact=False).exact
        (Fraction(1, 1), True, None)
        """
        if isinstance(values, Prior):
            return values
        values = plain(values, where)
        if _is_float_array(values):
            if values.ndim != 1 or values.shape[0] == 0:
                raise InputError(f"{where}: expected a non-empty 1-d array, got shape {values.shape}")
            if exact:
                check_exact_size(values.size, where)
            a = float_rows(values[None, :], "prior")
            if not _take_exactly(a, exact, where):
                return Prior(a[0], rounding=_float_rounding(a))
            rows, rho, _ = exact_float_rows(a, where, vector=True)
            return cls.from_exact(rows[0], rho)
        return cls.from_exact(*probability_vector(values, where, rounding=True))

    @property
    def size(self) -> int:
        """The number of inputs ``n``."""
        return self.array.shape[0]


@dataclass(frozen=True, eq=False)
class Channel:
    """A dense channel: ``Q[x][y] = p(y | x)``, each row summing to 1.

    Attributes
    ----------
    array : numpy.ndarray
        Read-only float64 copy (the values themselves in float mode).
    exact : tuple of tuple of Fraction, ScaledRows or None
        The exact rows; ``None`` in float mode.  A float array of at least
        :data:`~relations.model._scaled.SCALED_ENTRIES` entries taken exactly keeps its floats and
        exact row sums (:class:`~relations.model._scaled.ScaledRows`, a sequence of rows read the same way).
    reliable : bool
        The float copy has the exact zero pattern and no subnormal entry.
    rounding : Fraction
        Relative rounding radius of the entries (see :class:`Prior`).
    """

    array: np.ndarray
    exact: tuple[tuple[Fraction, ...], ...] | ScaledRows | None = None
    reliable: bool = True
    rounding: Fraction = Fraction(0)

    @staticmethod
    def from_exact(rows: Sequence[Sequence[Fraction]], rounding: Fraction = Fraction(0), *,
                   floats: tuple[np.ndarray, np.ndarray] | None = None) -> Channel:
        """A channel from exact rows that are already validated (``floats``: their correctly rounded floats
        and where the exact entries are non-zero, when known)."""
        if floats is not None:
            exact = rows if isinstance(rows, ScaledRows) else tuple(tuple(r) for r in rows)
            approx, nonzero = floats
            return Channel(_frozen(approx), exact, _reliable(nonzero, approx), rounding)
        rows, approx, nonzero = indexed_rows(rows)  # each distinct value converted once
        return Channel(_frozen(approx), rows, _reliable(nonzero, approx), rounding)

    @classmethod
    def of(cls, rows: Any, *, where: str = "channel", exact: bool | None = None) -> Channel:
        """Validate and build a channel from anything a user hands in.

        Parameters
        ----------
        rows : Channel, sequence of sequences or numpy.ndarray
            A :class:`Channel` (returned as is), rows (Fractions, ints, floats,
            rational text) or a float numpy array.
        where : str, optional
            The name used in error messages.
        exact : bool, optional
            As for :meth:`Prior.of`.

        Returns
        -------
        Channel

        Raises
        ------
        InputError
            If a row is not a probability vector or the rows differ in length, or ``exact`` asks for a
            float array too large to be taken exactly.

        Examples
        --------
        >>> Channel.of([["13/20", "7/20"], ["7/20", "13/20"]]).shape
        (2, 2)
        """
        if isinstance(rows, Channel):
            return rows
        rows = plain(rows, where)
        if _is_float_array(rows):
            if rows.ndim != 2 or 0 in rows.shape:
                raise InputError(f"{where}: expected a non-empty 2-d array, got shape {rows.shape}")
            if exact:
                check_exact_size(rows.size, where)
            taken = _take_exactly(rows, exact, where)  # by the size and the mode only
            if taken and rows.size >= SCALED_ENTRIES:  # validated and summed exactly in one compiled read
                owned = np.ascontiguousarray(_owned_floats(rows))  # never the caller's writeable memory
                owned.setflags(write=False)
                checked = checked_scaled_rows(owned, Fraction(FLOAT_TOLERANCE))
                if checked is not None:
                    return cls._scaled(*checked)
                rows = owned
            a = float_rows(rows, where)
            if not taken:
                return Channel(a, rounding=_float_rounding(a))
            if a.size >= SCALED_ENTRIES:  # kept as floats over exact row sums (relations.model._scaled)
                return cls._scaled(*scaled_float_rows(a, where, Fraction(FLOAT_TOLERANCE)))
            rows, rho, floats = exact_float_rows(a, where)
            return cls.from_exact(rows, rho, floats=(floats, a != 0))
        return cls.from_exact(*stochastic_rows(rows, where, rounding=True))

    @classmethod
    def _scaled(cls, scaled: ScaledRows, deviation: Fraction, floats: np.ndarray, normal: bool) -> Channel:
        """The channel of a float array taken exactly as :class:`~relations.model._scaled.ScaledRows`."""
        rounding = FLOAT_ROUNDING + 2 * deviation
        if normal:  # a / s is then normal where a is positive and zero where a is: reliable
            return Channel(_frozen(floats), scaled, True, rounding)
        return cls.from_exact(scaled, rounding, floats=(floats, scaled.values != 0))

    @property
    def float_error(self) -> Fraction:
        """A bound ``rho`` on the relative error of the float copy: ``|array - exact| <= rho |exact|``.

        ``2^-53`` (correctly rounded) unless the exact rows say otherwise
        (:class:`~relations.model._scaled.ScaledRows`: two roundings).
        """
        return getattr(self.exact, "float_error", _UNIT)

    @property
    def shape(self) -> tuple[int, int]:
        """``(n, m)``: inputs and outputs."""
        return self.array.shape
