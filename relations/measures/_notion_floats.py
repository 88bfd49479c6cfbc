"""Float values of the conversion notions (``rho``, ``kl``, ``renyi(a)``, ``delta(e)``, ``eps_delta(d)``,
``maximal_leakage``, ``min_entropy_leakage``), for the optimising search only.

The searches (:mod:`relations.search._optimiser`) steer by floats; every candidate they report is
re-checked by the exact checker, which reads the exact values of
:func:`relations.checking.values`.  :class:`FloatValues` is the dict the searches read: the
paper's six notions up front and the conversion notions computed on first use.

For a product form (``r`` records through one local channel ``W``) the divergence notions are
those of ``W``'s rows (neighbours differ in one record, the other factors cancel) and the two
leakages are ``r`` times ``W``'s (both add over independent records with a product prior).

The divergence notions of the row pairs are :func:`relations.measures._divergences.divergence`'s,
the same code as the vectorised batch of :func:`relations.measures._batch.dense_values`.

Examples
--------
>>> from relations.mechanisms._local import krr
>>> round(notion_float(krr(2, ratio=3), "kl"), 6)  # ln 3 tanh(ln 3 / 2)
0.549306
"""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np

from relations.kinds import ProductRule
from relations.measures._batch import PRIOR_KINDS, _prior_kernel
from relations.measures._divergences import divergence, parse
from relations.model._distributions import Prior
from relations.model._mechanism import Mechanism
from relations.model._products import ProductChannel
from relations.notions import NOTIONS, names

__all__ = ["leakages", "notion_float", "ADDITIVE", "MULTIPLICATIVE", "product_rule", "product_float", "FloatValues"]


def _adds(row: Any) -> bool:
    """Whether the notion table's ``row`` adds over the records of a product form (the paper's budgets aside)."""
    return row.product == ProductRule.ADDITIVE and not row.paper


#: Notions that add over the records of a product form (the notion table's ``product``).
ADDITIVE = names(_adds)
#: Notions that multiply over the records of a product form (probabilities).
MULTIPLICATIVE = names(lambda row: row.product == ProductRule.MULTIPLICATIVE)


def _rule(kind: str) -> ProductRule | None:
    row = NOTIONS.get(kind)
    return None if row is None else row.product


def product_rule(name: str) -> tuple[ProductRule, tuple[str, ...]]:
    """How the value of the notion ``name`` for an ``r``-fold product form of identical records follows from the
    local values (the one statement of the rules: :class:`FloatValues` and the searches' product values read it).

    ``(ADDITIVE, (part,))`` is ``r`` times the local value of ``part`` (``eps_m``; ``eps_all`` from ``eps_d``; a
    notion of :data:`ADDITIVE`), ``(MULTIPLICATIVE, (name,))`` the local value to the power ``r``, ``(GAP, (first,
    second))`` the difference of the ``r``-th powers of its parts' local values, ``(SAME, (name,))`` the local value
    (a divergence between neighbours, who differ in one record).  The notion table is read at each call.

    Examples
    --------
    >>> [product_rule(name)[0].value for name in ("pml", "bayes_vulnerability", "bayes_leakage", "renyi(2)")]
    ['additive', 'multiplicative', 'gap', 'same']
    >>> product_rule("eps_all"), product_rule("bayes_leakage")[1]
    ((<ProductRule.ADDITIVE: 'additive'>, ('eps_d',)), ('bayes_vulnerability', 'prior_vulnerability'))
    """
    if name == "eps_m":
        return ProductRule.ADDITIVE, ("eps_m",)
    if name == "eps_all":
        return ProductRule.ADDITIVE, ("eps_d",)
    row = NOTIONS.get(name.split("(")[0])
    if row is not None:
        if row.product == ProductRule.GAP:
            return ProductRule.GAP, tuple(row.parts)
        if row.product == ProductRule.MULTIPLICATIVE:
            return ProductRule.MULTIPLICATIVE, (name,)
        if _adds(row):  # a row of ADDITIVE (the table read here, not through the view: a hot path)
            return ProductRule.ADDITIVE, (name,)
    return ProductRule.SAME, (name,)


def product_float(name: str, per_record: list[Any]) -> float:
    """A notion of a product form from its records' values (:data:`ADDITIVE`, :data:`MULTIPLICATIVE`, or
    :attr:`~relations.kinds.ProductRule.GAP` as ``bayes_leakage``, whose records' values are pairs of its
    parts' values, ``(V(pi, C), V(pi))``).

    Examples
    --------
    >>> product_float("pml", [0.5, 0.25]), product_float("bayes_leakage", [(0.75, 0.5), (0.75, 0.5)])
    (0.75, 0.3125)
    """
    rule = _rule(parse(name)[0])
    if rule == ProductRule.ADDITIVE:
        return float(sum(per_record))
    if rule == ProductRule.MULTIPLICATIVE:
        return float(np.prod(per_record))
    if rule == ProductRule.GAP:
        return float(np.prod([v for v, _ in per_record]) - np.prod([u for _, u in per_record]))
    raise KeyError(name)


def leakages(p: np.ndarray, W: np.ndarray) -> dict[str, float]:
    """``maximal_leakage`` and ``min_entropy_leakage`` of prior ``p`` and channel ``W`` (floats).

    Examples
    --------
    >>> import numpy as np
    >>> out = leakages(np.array([0.5, 0.5]), np.array([[0.75, 0.25], [0.25, 0.75]]))
    >>> round(out["maximal_leakage"], 6), round(out["min_entropy_leakage"], 6)  # ln(3/2) both
    (0.405465, 0.405465)
    """
    support = p > 0
    ml = math.log(float(np.sum(np.max(W[support], axis=0))))
    mel = math.log(float(np.sum(np.max(p[:, None] * W, axis=0)))) - math.log(float(np.max(p)))
    return {"maximal_leakage": ml, "min_entropy_leakage": mel}


def _prior_float(name: str, p: np.ndarray, W: np.ndarray) -> float:
    kind, arg = parse(name)
    return float(_prior_kernel(kind)(kind, arg, np.asarray(W, dtype=float)[None], np.asarray(p, dtype=float)[None])[0])


def notion_float(mech: Mechanism, name: str) -> float:
    """A conversion notion of a (float or exact) mechanism, in floats.

    Parameters
    ----------
    mech : Mechanism
        Dense (local, ``D^r`` or graph) or a product form.
    name : str
        A conversion notion (:data:`relations.catalogue.EXTRA_NOTIONS`).

    Raises
    ------
    KeyError
        For a name that is not one.
    """
    kind, _ = parse(name)
    ch = mech.channel
    if isinstance(ch, ProductChannel):
        W = np.asarray(ch.local.array, dtype=float)
        if kind in PRIOR_KINDS:
            prior = mech.prior
            factors = getattr(prior, "factors", None) or [prior] * ch.records
            parts = NOTIONS[kind].parts if _rule(kind) == ProductRule.GAP else ()
            if parts:
                return product_float(name, [(_prior_float(parts[0], f.array, W), _prior_float(parts[1], f.array, W))
                                            for f in factors])
            return product_float(name, [_prior_float(name, f.array, W) for f in factors])
        pairs = [(i, j) for i in range(W.shape[0]) for j in range(W.shape[0]) if i != j]
    else:
        W = np.asarray(ch.array, dtype=float)
        if kind in PRIOR_KINDS:
            return _prior_float(name, cast(Prior, mech.prior).array, W)  # dense
        pairs = [q for i, j in mech.inputs.pairs() for q in ((i, j), (j, i))]
    seen: dict = {}  # pairs with the same multiset of column pairs have the same value: one of each
    for i, j in pairs:
        seen.setdefault(tuple(sorted(zip(W[i].tolist(), W[j].tolist()))), (i, j))
    if not seen:
        return 0.0
    idx = np.array(list(seen.values()), dtype=np.intp)
    return float(divergence(name, W[idx[:, 0]], W[idx[:, 1]]).max())


class FloatValues(dict):
    """The float values the searches read: given entries, and conversion notions computed on first use.

    Parameters
    ----------
    mech : Mechanism
        The mechanism the missing values are computed from.
    records : int, optional
        For the central values of an ``r``-fold product computed from the local mechanism's
        :class:`FloatValues` (``values``, whose cache is then shared): the leakages are multiplied by
        ``records``, the divergence notions kept.
    """

    def __init__(self, mech: Mechanism, values: dict[str, float], records: int = 1):
        super().__init__(values)
        self.mech, self.records = mech, records
        self.base = values if isinstance(values, FloatValues) and records != 1 else None

    def __missing__(self, name: str) -> float:
        rule, parts = product_rule(name)
        if self.base is not None and rule == ProductRule.GAP:  # V(pi, C)^r - V(pi)^r from the local values
            v = self.base[parts[0]] ** self.records - self.base[parts[1]] ** self.records
        else:
            v = self.base[parts[0]] if self.base is not None else notion_float(self.mech, name)  # cached locally
            if rule == ProductRule.ADDITIVE:
                v *= self.records
            elif rule == ProductRule.MULTIPLICATIVE:
                v **= self.records
        self[name] = v
        return v
