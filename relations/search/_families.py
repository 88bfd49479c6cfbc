"""Parametrised families of mechanisms the optimising search moves through.

* **dense** (:class:`DenseFamily`) -- ``n x m`` channels and priors over a small
  local domain or a small ``D^r``, parametrised by softmax logits; candidates are
  rounded to exact rationals (:func:`~relations.numbers._rounding.largest_remainder`);
* **k-ary randomized response** (:class:`RRFamily`, Warner 1965 for ``k = 2``) over
  ``r`` records, as a product form, with a uniform or skewed per-record prior, so
  that central claims whose counterexamples need many records are searched without
  a ``k^r`` matrix.  For product forms the central values follow from the local
  ones (:mod:`relations.measures._product`): ``I = r I_local``, ``eps_all = r eps_d``.

:func:`float_values` gives every notion of a mechanism as floats (the search's
objective); exact re-checks happen in :mod:`relations.pipeline._verify`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

import numpy as np

from relations.kinds import ProductRule
from relations.measures._api import eps_all, measure
from relations.measures._notion_floats import FloatValues, product_rule
from relations.mechanisms._local import krr_rows
from relations.model._distributions import Channel, Prior
from relations.model._mechanism import Mechanism
from relations.model._neighbours import HammingInputs, LocalInputs
from relations.model._products import ProductPrior
from relations.notions import view
from relations.numbers._batched import max_last, sum_last
from relations.numbers._rounding import largest_remainder

#: The notions of a product form that are differences of products (:attr:`ProductRule.GAP`), with their parts.
GAPS = view(lambda row: row.product == ProductRule.GAP, value=lambda row: row.parts)

__all__ = ["float_values", "DenseFamily", "RRFamily", "rr_float_prior", "local_rr_values", "product_values",
           "stacked_product_values"]


def float_values(mech: Mechanism) -> dict[str, float]:
    """The notions of a (float or exact) mechanism as floats (conversion notions on first use:
    :class:`~relations.measures._notion_floats.FloatValues`)."""
    m = measure(mech)
    return FloatValues(mech, {"eps_i": m.eps_i.value, "eps_d": m.eps_d.value, "sigma_min": m.sigma_min.value,
            "neg_sigma": -m.sigma_min.value, "eps_m": m.eps_m.value, "eps_all": eps_all(mech).value})


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - max_last(z)[..., None]
    e = np.exp(z)
    return e / sum_last(e)[..., None]



@dataclass(frozen=True)
class DenseFamily:
    """Dense ``n x m`` channels over a local domain (``records == 0``) or ``D^r`` (``k^r = n``)."""

    n: int
    m: int
    k: int = 0
    records: int = 0

    @property
    def dim(self) -> int:
        return self.n * self.m + self.n

    def inputs(self):
        if self.records:
            return HammingInputs(tuple(map(str, range(self.k))), self.records)
        return LocalInputs(tuple(map(str, range(self.n))))

    def float_arrays(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(channel, prior)`` at logits ``theta`` (or stacks of both for a stack of logits): softmax of the logits squashed into ``[-6, 6]``, so that
        entries stay above ``e^-12`` relative and the search stays among full-support channels where both
        budgets are finite."""
        z = 6.0 * np.tanh(np.asarray(theta) / 6.0)  # shape (dim,) or a stack (B, dim)
        cut = self.n * self.m
        return _softmax(z[..., :cut].reshape(z.shape[:-1] + (self.n, self.m))), _softmax(z[..., cut:])

    def float_mechanism(self, theta: np.ndarray) -> Mechanism:
        """The float mechanism of :meth:`float_arrays`."""
        q, p = self.float_arrays(theta)
        setting = "central" if self.records else "local"
        return Mechanism(setting, Prior(p), Channel(q), self.inputs(), tuple(map(str, range(self.m))), exact=False)

    def exact_mechanisms(self, theta: np.ndarray) -> Iterator[Mechanism]:
        """Rational roundings of the candidate, simplest denominators first (small entries may become 0)."""
        f = self.float_mechanism(theta)
        for den in (2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 50, 100, 1000, 10**4, 10**6):
            prior = largest_remainder(cast(Prior, f.prior).array.tolist(), den)
            rows = [largest_remainder(row, den) for row in cast(Channel, f.channel).array.tolist()]
            if self.records:
                yield Mechanism.central(rows, records=self.records, domain=self.k, prior=prior)
            else:
                yield Mechanism.local(rows, prior=prior)

    def fine_mechanism(self, theta: np.ndarray, den: int = 2**40) -> Mechanism | None:
        """The candidate as an exact mechanism, its entries rounded to multiples of ``1/den`` with their support
        kept (``None`` when that is impossible): the point itself, for a certified value at it."""
        f = self.float_mechanism(theta)
        prior = largest_remainder(cast(Prior, f.prior).array.tolist(), den, keep_support=True)
        rows = [largest_remainder(row, den, keep_support=True) for row in cast(Channel, f.channel).array.tolist()]
        if prior is None or any(row is None for row in rows):
            return None
        if self.records:
            return Mechanism.central(rows, records=self.records, domain=self.k, prior=prior)
        return Mechanism.local(rows, prior=prior)

    def describe(self) -> str:
        return f"dense {f'D^{self.records} (k={self.k})' if self.records else 'local'} {self.n}x{self.m}"



@dataclass(frozen=True)
class RRFamily:
    """k-ary randomized response with ratio ``t`` on each of ``r`` records (``r = 1``: local);
    per-record prior uniform (``skew = 0``) or ``(1 - skew, skew/(k-1), ...)``."""

    k: int
    records: int
    skew: Fraction = Fraction(0)

    def channel(self, t: Fraction) -> list[list[Fraction]]:
        """The local k-RR channel with ratio ``t``."""
        return krr_rows(self.k, t)

    def prior(self) -> list[Fraction] | str:
        if not self.skew:
            return "uniform"
        rest = self.skew / (self.k - 1)
        return [1 - self.skew] + [rest] * (self.k - 1)

    def mechanism(self, t: Fraction) -> Mechanism:
        """The exact mechanism with ratio ``t``: local for one record, else a product form."""
        prior = self.prior()
        if self.records == 1:
            return Mechanism.local(_krr_channel(self.k, t), prior=prior)
        return Mechanism.product(_krr_channel(self.k, t), records=self.records,
                                 prior=prior if prior == "uniform" else ProductPrior.repeated(Prior.of(prior), self.records))

    def describe(self) -> str:
        where = "local" if self.records == 1 else f"product over r={self.records}"
        return f"{self.k}-RR {where}" + (f", skew {self.skew}" if self.skew else ", uniform prior")



@functools.lru_cache(maxsize=1024)
def _krr_channel(k: int, t: Fraction) -> Channel:
    """The validated exact k-RR channel with ratio ``t``, built once per process (the searches build the products
    of the same local channel over many numbers of records; a ``k = 64`` channel is 4096 fractions)."""
    return Channel.of(krr_rows(k, t))


def rr_float_prior(k: int, skew: float) -> np.ndarray:
    """The float per-record prior of :class:`RRFamily`: uniform, or ``(1 - skew, skew/(k-1), ...)``."""
    return np.full(k, 1 / k) if not skew else np.array([1 - skew] + [skew / (k - 1)] * (k - 1))


def local_rr_values(k: int, t: float, skew: float) -> dict[str, float]:
    """Float values of local k-RR with ratio ``t`` (computed by the float path on the k x k matrix)."""
    w = np.array(krr_rows(k, t), dtype=np.float64)
    p = rr_float_prior(k, skew)
    mech = Mechanism("local", Prior(p), Channel(w), LocalInputs(tuple(map(str, range(k)))),
                     tuple(map(str, range(k))), exact=False)
    return float_values(mech)



def product_values(local: dict[str, Any], r: int) -> dict[str, Any]:
    """Central values of the ``r``-fold product from the local ones (identical records; floats or arrays)."""
    out = FloatValues(local.mech, local, r) if isinstance(local, FloatValues) else dict(local)
    for name in _product_names(out):
        how, parts = product_rule(name)
        if how == ProductRule.ADDITIVE:
            out[name] = r * local[parts[0]]
        elif how == ProductRule.MULTIPLICATIVE:
            out[name] = local[name] ** r
        elif how == ProductRule.GAP:
            out[name] = local[parts[0]] ** r - local[parts[1]] ** r
    return out


def stacked_product_values(local: dict[str, np.ndarray], records: tuple[int, ...]) -> dict[str, np.ndarray]:
    """:func:`product_values` of the float arrays ``local`` for each ``r`` of ``records``, concatenated in that order:
    the same floats, entry by entry (``r x`` as one outer product, ``x ** r`` for each ``r`` as there), in a few
    numpy calls instead of a dict per ``r``.

    Examples
    --------
    >>> local = {"eps_d": np.array([0.5, 1.0]), "eps_m": np.array([0.1, 0.2]), "eps_all": np.array([0.5, 1.0])}
    >>> stacked_product_values(local, (1, 3))["eps_all"].tolist()
    [0.5, 1.0, 1.5, 3.0]
    """
    rs = np.asarray(records, dtype=np.int64)
    out: dict[str, np.ndarray] = {}
    for name in _product_names(local):
        how, parts = product_rule(name)
        if how == ProductRule.ADDITIVE:
            out[name] = np.multiply.outer(rs, local[parts[0]]).reshape(-1)
        elif how == ProductRule.MULTIPLICATIVE:
            out[name] = np.concatenate([local[name] ** r for r in records])
        elif how == ProductRule.GAP:
            out[name] = np.concatenate([local[parts[0]] ** r - local[parts[1]] ** r for r in records])
        else:
            out[name] = np.tile(local[name], len(records))
    return out


def _product_names(local: dict[str, Any]) -> list[str]:
    """The names of the product's values: those of ``local``, then ``eps_m`` and ``eps_all`` when absent."""
    return [*local, *(n for n in ("eps_m", "eps_all") if n not in local)]
