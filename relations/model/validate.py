"""Validation of the shapes of a mechanism: labels, record counts, dataset counts, product priors.

Each function checks one thing a user hands in and raises
:class:`~relations.errors.InputError` with one line naming it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from relations.errors import InputError
from relations.model.distributions import Prior, ProductPrior
from relations.numbers.text import json_repr

__all__ = ["MAX_RECORDS", "labels_of", "records_of", "dataset_count", "product_prior"]

#: Largest number of records ``r`` of ``D^r``.
MAX_RECORDS = 100_000


def labels_of(value: Any, key: str, count: int | None) -> tuple[str, ...]:
    """Distinct labels (strings or integers) for ``count`` rows or columns, as strings.

    Raises
    ------
    InputError
        If a label is not a string or an integer, the count is wrong or two labels are equal.

    Examples
    --------
    >>> labels_of(["a", 2], "inputs", 2)
    ('a', '2')
    """
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        raise InputError(f"key '{key}': expected a list of labels, got {json_repr(value)}")
    labels = []
    for i, v in enumerate(value):
        if isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool)):
            labels.append(str(v))
        else:
            raise InputError(f"{key}[{i}]: label {json_repr(v)} is not a string or number")
    if count is not None and len(labels) != count:
        raise InputError(f"key '{key}': {len(labels)} labels but {count} expected")
    if len(set(labels)) != len(labels):
        raise InputError(f"key '{key}': labels are not distinct")
    return tuple(labels)


def records_of(value: Any) -> int:
    """The number of records ``r``: a whole number from 1 to :data:`MAX_RECORDS`.

    Raises
    ------
    InputError
        Otherwise.
    """
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_RECORDS:
        return value
    raise InputError(f"key 'records': expected a whole number from 1 to {MAX_RECORDS}, got {json_repr(value)}")


def dataset_count(k: int, r: int) -> int | None:
    """``k**r``, or None when it exceeds 2**62."""
    if k <= 1:
        return k
    if r * math.log2(k) > 62:
        return None
    return k**r


def _flat(prior: Any) -> bool:
    """A dense prior: a flat sequence of numbers (not a list of local priors)."""
    if isinstance(prior, np.ndarray):
        return prior.ndim == 1
    return isinstance(prior, (list, tuple)) and bool(prior) and not isinstance(prior[0], (list, tuple, Prior,
                                                                                          np.ndarray))


def product_prior(priors: Any, records: int, k: int) -> ProductPrior:
    """``r`` local priors of ``k`` entries each (the JSON ``{"product": [p_1, ..., p_r]}``).

    Raises
    ------
    InputError
        If the count or a local prior is wrong.
    """
    if not isinstance(priors, (list, tuple)):
        raise InputError("key 'prior': expected a list, \"uniform\" or {\"product\": [p_1, ..., p_r]}")
    if len(priors) != records:
        raise InputError(f"prior.product: {len(priors)} local priors but records = {records}")
    parsed = []
    for j, f in enumerate(priors):
        local = Prior.of(f, where=f"prior.product[{j}]")
        if local.size != k:
            raise InputError(f"prior.product[{j}]: {local.size} entries but the domain has {k} values")
        parsed.append(local)
    return ProductPrior(tuple(parsed))
