"""Reductions and gathers of the searches' small float batches, in fewer numpy calls.

The optimising searches evaluate thousands of small stacks (a few mechanisms, pairs and outputs): there a numpy
reduction over a short last axis, or ``np.take_along_axis``, costs several times the arithmetic it does.  These
give the same floats as numpy's own (a maximum is exact; numpy adds fewer than 8 terms left to right, as the
columns are added here) for less fixed cost.
"""

from __future__ import annotations

import functools
import math

import numpy as np

__all__ = ["FEW", "max_last", "sum_last", "any_last", "gathered"]

#: Up to this many entries a reduction over the last axis is taken column by column (:func:`max_last`,
#: :func:`sum_last`, :func:`any_last`): numpy's reductions over so short an axis cost several times more than the
#: arithmetic (about 100 us against 15 us on a (110, 6, 3) array).  Below 8 terms numpy sums left to right, as the
#: columns are added here, so the floats are the same.
FEW = 7


def max_last(x: np.ndarray, initial: float | None = None) -> np.ndarray:
    """``x.max(axis=-1, initial=initial)``, column by column when the axis is short (the same floats: a maximum is
    exact, and a NaN propagates through both).

    Examples
    --------
    >>> x = np.array([[1.0, 3.0, 2.0], [np.nan, 0.0, 1.0]])
    >>> max_last(x).tolist()[0], bool(np.isnan(max_last(x)[1])), max_last(x[:, :0], initial=0.0).tolist()
    (3.0, True, [0.0, 0.0])
    """
    m = x.shape[-1]
    if not 0 < m <= FEW:
        return x.max(axis=-1) if initial is None else x.max(axis=-1, initial=initial)
    cols = [x[..., y] for y in range(m)]
    out = functools.reduce(np.maximum, cols)
    return out if initial is None else np.maximum(initial, out)


def sum_last(x: np.ndarray) -> np.ndarray:
    """``x.sum(axis=-1)``, column by column (left to right, as numpy sums fewer than 8 terms) when the axis is short.

    Examples
    --------
    >>> x = np.array([[0.1, 0.2, 0.3]])
    >>> bool(sum_last(x)[0] == x.sum(axis=-1)[0] == (0.1 + 0.2) + 0.3)
    True
    """
    m = x.shape[-1]
    return functools.reduce(np.add, [x[..., y] for y in range(m)]) if 0 < m <= FEW else x.sum(axis=-1)


def any_last(x: np.ndarray) -> np.ndarray:
    """``x.any(axis=-1)`` of a boolean array, column by column when the axis is short.

    Examples
    --------
    >>> any_last(np.array([[False, True], [False, False]])).tolist()
    [True, False]
    """
    m = x.shape[-1]
    return functools.reduce(np.logical_or, [x[..., y] for y in range(m)]) if 0 < m <= FEW else np.asarray(x.any(axis=-1))


def gathered(x: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``np.take_along_axis(x, order, -1)`` where ``x`` and ``order`` agree but in the last axis: the same gather,
    without numpy's index building (the searches call it thousands of times on small arrays).

    Examples
    --------
    >>> x = np.array([[[3.0, 1.0, 2.0]], [[0.5, 0.25, 0.0]]])
    >>> order = np.argsort(x, axis=-1)
    >>> bool((gathered(x, order) == np.take_along_axis(x, order, -1)).all()), gathered(x, order[..., :1]).tolist()
    (True, [[[1.0]], [[0.0]]])
    """
    m, k, n = x.shape[-1], order.shape[-1], math.prod(order.shape[:-1])
    if n == 0 or m == 0 or k == 0:
        return np.take_along_axis(x, order, -1)
    return x.reshape(n, m)[np.arange(n)[:, None], order.reshape(n, k)].reshape(order.shape)
