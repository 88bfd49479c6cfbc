"""Arrays a user hands in: numpy arrays and pandas objects as channels and priors.

:func:`plain` turns a numpy array, a pandas ``DataFrame`` or ``Series`` into what
:meth:`~relations.model.Channel.of` and :meth:`~relations.model.Prior.of` read, and refuses
a dtype that cannot hold probabilities with one line naming it:

* float arrays (``float16``, ``float32``, ``float64``) pass through: a float is its exact
  binary value (``Fraction(x)``), rows within
  :data:`~relations.model._floats.FLOAT_TOLERANCE` of 1 are renormalised exactly, and arrays of
  more than :data:`~relations.model._floats.MAX_EXACT_FLOAT_ENTRIES` entries are float mode
  (``docs/semantics.md``, "Floats"); a ``longdouble`` array is accepted when every entry is a
  ``float64`` (its exact value), refused otherwise;
* integer arrays are exact integers; object arrays hold Fractions, ints, floats or rational
  text (numpy scalars in them are read as the Python numbers they hold);
* unicode arrays are rational text (``"13/20"``), parsed exactly;
* booleans, complex numbers, bytes, dates and other dtypes are refused, and so are ``nan``
  and infinities (by the readers).

:func:`labelled` also reads the labels of a ``DataFrame``: its index names the inputs and its
columns the outputs, unless they are the default ``RangeIndex`` (``0, 1, ...``).  pandas is
never imported unless the object handed in is a pandas object.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from relations.errors import InputError

__all__ = ["is_pandas", "plain", "labelled"]


def is_pandas(value: Any) -> bool:
    """True for a pandas object (a ``DataFrame``, ``Series`` or ``Index``), without importing pandas.

    Examples
    --------
    >>> is_pandas([[1]]), is_pandas(np.ones(2))
    (False, False)
    """
    return type(value).__module__.split(".")[0] == "pandas" and hasattr(value, "to_numpy")


def _scalar(v: Any) -> Any:
    """A numpy scalar in an object array as the Python number it holds (floats stay floats)."""
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        f = float(v)
        if np.isfinite(v) and f != v:
            raise InputError(f"{v!r} is a {v.dtype} value that float64 does not hold; give Fractions or float64")
        return f
    return v


def plain(value: Any, where: str) -> Any:
    """``value`` with pandas objects and numpy arrays made readable by the exact readers.

    Parameters
    ----------
    value : Any
        A channel or prior as handed in: a sequence, a numpy array, a pandas ``DataFrame``
        or ``Series``, or anything else (returned as is, for the readers to judge).
    where : str
        How the user named it (``"channel"``, ``"prior"``), for error messages.

    Returns
    -------
    Any
        A float64 array (float input), or nested lists of Python numbers and text.

    Raises
    ------
    InputError
        For a dtype that cannot hold probabilities (bool, complex, bytes, dates, ...) or a
        ``longdouble`` entry that is not a float64.

    Examples
    --------
    >>> plain(np.array([[1, 0], [0, 1]], dtype=np.int8), "channel")
    [[1, 0], [0, 1]]
    >>> plain(np.array([0.5, 0.5], dtype=np.float32), "prior").dtype
    dtype('float64')
    >>> plain(np.array([1j, 1]), "prior")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: prior: complex entries (dtype complex128) are not probabilities
    """
    if is_pandas(value):
        value = value.to_numpy()
    if not isinstance(value, np.ndarray):
        return value
    kind = value.dtype.kind
    if kind == "f":
        if value.dtype.itemsize <= 8:
            return value.astype(np.float64, copy=False)  # float_rows copies a writeable one
        wide = value.astype(np.float64)
        if not np.array_equal(wide, value, equal_nan=True):
            raise InputError(f"{where}: a {value.dtype} entry is not a float64 value; give Fractions or float64")
        return wide
    if kind in "iuU":
        return value.tolist()
    if kind == "O":
        return np.vectorize(_scalar, otypes=[object])(value).tolist() if value.size else value.tolist()
    what = {"b": "boolean", "c": "complex", "S": "bytes", "M": "datetime", "m": "timedelta"}.get(kind, "non-numeric")
    raise InputError(f"{where}: {what} entries (dtype {value.dtype}) are not probabilities")


def _axis_labels(index: Any) -> list | None:
    """The labels of a pandas index, or None for the default ``RangeIndex`` ``0, 1, ...``."""
    if type(index).__name__ == "RangeIndex" and index.start == 0 and index.step == 1:
        return None
    return [_scalar(v) for v in index.tolist()]


def labelled(channel: Any, rows: Sequence | None, columns: Sequence | None,
             prior: Any = None) -> tuple[Any, Sequence | None, Sequence | None, Any]:
    """A channel with its labels: a ``DataFrame``'s index and columns name the inputs and outputs.

    Labels given explicitly win over the frame's.  A prior given as a ``Series`` with labels is
    put in the order of the input labels when those are known (they must be the same labels),
    and read in its own order otherwise.

    Parameters
    ----------
    channel : Any
        The channel as handed in.
    rows, columns : sequence or None
        The input and output labels given explicitly.
    prior : Any, optional
        The prior as handed in.

    Returns
    -------
    tuple
        ``(channel, rows, columns, prior)``, the channel and prior made :func:`plain`.

    Raises
    ------
    InputError
        If a labelled ``Series`` prior does not carry the input labels.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame([["3/4", "1/4"], ["1/4", "3/4"]], index=["no", "yes"], columns=["N", "Y"])
    >>> ch, rows, cols, p = labelled(df, None, None, pd.Series(["1/3", "2/3"], index=["yes", "no"]))
    >>> ch, rows, cols, p
    ([['3/4', '1/4'], ['1/4', '3/4']], ['no', 'yes'], ['N', 'Y'], ['2/3', '1/3'])
    """
    if is_pandas(channel) and hasattr(channel, "columns"):
        rows = rows if rows is not None else _axis_labels(channel.index)
        columns = columns if columns is not None else _axis_labels(channel.columns)
    if is_pandas(prior) and hasattr(prior, "index") and not hasattr(prior, "columns"):
        names = _axis_labels(prior.index)
        if names is not None and rows is not None:
            wanted = [str(v) for v in rows]
            got = [str(v) for v in names]
            if sorted(got) != sorted(wanted) or len(set(got)) != len(got):
                raise InputError(f"prior: a Series labelled {got[:6]} but the inputs are {wanted[:6]}")
            prior = prior.set_axis(got).reindex(wanted)
    return plain(channel, "channel"), rows, columns, plain(prior, "prior")
