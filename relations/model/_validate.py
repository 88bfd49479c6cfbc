"""Validation of the shapes of a mechanism: labels, record counts, dataset counts, product priors.

Each function checks one thing a user hands in and raises
:class:`~relations.errors.InputError` with one line naming it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from relations.errors import InputError
from relations.model._distributions import Prior
from relations.model._products import ProductPrior
from relations.model._runs import MAX_RUN_LENGTH, Runs
from relations.numbers._text import json_repr

__all__ = ["MAX_RECORDS", "MAX_PRODUCT_RECORDS", "labels_of", "records_of", "dataset_count", "product_prior"]

#: Largest number of records ``r`` of ``D^r`` unless the channel is a product form.
MAX_RECORDS = 100_000

#: Largest number of records of a product form (``{"product": W}``): its cost depends on the
#: number of distinct local priors and of runs of them, not on ``r``.
MAX_PRODUCT_RECORDS = MAX_RUN_LENGTH


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


def records_of(value: Any, *, limit: int = MAX_RECORDS) -> int:
    """The number of records ``r``: a whole number from 1 to ``limit`` (:data:`MAX_RECORDS`, or
    :data:`MAX_PRODUCT_RECORDS` for a product form, whose cost does not grow with ``r``).

    Raises
    ------
    InputError
        Otherwise.
    """
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= limit:
        return value
    raise InputError(f"key 'records': expected a whole number from 1 to {limit}, got {json_repr(value)}")


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
    return isinstance(prior, (list, tuple)) and bool(prior) and not isinstance(prior[0], (list, tuple, dict, Prior,
                                                                                          np.ndarray))


def product_prior(priors: Any, records: int, k: int) -> ProductPrior:
    """``r`` local priors of ``k`` entries each (the JSON ``{"product": [p_1, ..., p_r]}``).

    An item may also be ``{"prior": p, "records": n}``: the local prior ``p`` on ``n``
    consecutive records, so that a long product form has a short file.  Equal items
    are parsed once and share one :class:`Prior`.

    Raises
    ------
    InputError
        If the count or a local prior is wrong.

    Examples
    --------
    >>> pp = product_prior([{"prior": ["1/2", "1/2"], "records": 10**9 - 1}, ["3/4", "1/4"]], 10**9, 2)
    >>> pp.records, [(f.exact[0], n) for f, n in pp.factors.runs]
    (1000000000, [(Fraction(1, 2), 999999999), (Fraction(3, 4), 1)])
    """
    if isinstance(priors, ProductPrior):
        parsed_runs: Any = priors.factors.runs
    else:
        if not isinstance(priors, (list, tuple, Runs)):
            raise InputError("key 'prior': expected a list, \"uniform\" or {\"product\": [p_1, ..., p_r]}")
        parsed_runs = []
        seen: dict[Any, Prior] = {}
        for j, f in enumerate(priors):
            where = f"prior.product[{j}]"
            count = 1
            if isinstance(f, dict):
                if set(f) != {"prior", "records"}:
                    raise InputError(f"{where}: expected a local prior or {{\"prior\": p, \"records\": n}}, "
                                     f"got keys {sorted(f)}")
                count = _count(f["records"], where)
                f = f["prior"]
            key = _frozen_key(f)
            local = seen.get(key) if key is not None else None
            if local is None:
                local = Prior.of(f, where=where)
                if local.size != k:
                    raise InputError(f"{where}: {local.size} entries but the domain has {k} values")
                # equal priors given in other forms (texts, Fractions, floats) are one object, so that the
                # runs are the same however the records were written
                value = (local.exact, local.array.tobytes(), local.reliable, local.rounding)
                local = seen.setdefault(value, local)
                if key is not None:
                    seen[key] = local
            parsed_runs.append((local, count))
    total = sum(n for _, n in parsed_runs)
    if total != records:
        raise InputError(f"prior.product: {total} local priors but records = {records}")
    return ProductPrior(Runs(parsed_runs))


def _count(value: Any, where: str) -> int:
    n = value if isinstance(value, int) and not isinstance(value, bool) else None
    if n is None and isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 30:  # JSON text
        n = int(value)
    if n is None or not 1 <= n <= MAX_PRODUCT_RECORDS:
        raise InputError(f"{where}.records: expected a whole number from 1 to {MAX_PRODUCT_RECORDS}, "
                         f"got {json_repr(value)}")
    return n


def _frozen_key(f: Any) -> Any:
    """A hashable key for a plain local prior (a list of numbers or texts), or None."""
    if isinstance(f, (list, tuple)) and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in f):
        return tuple((type(v).__name__, v) for v in f)
    return None
