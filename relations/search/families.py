"""Optimising search: maximise a relation's violation over parametrised channels.

Float values drive the search (numpy float path of :mod:`relations.measures`);
every candidate that looks violating is turned into an exact rational
mechanism and re-checked by the exact checker before anything is reported.

Families:

* **dense** — ``n x m`` channels and priors over a small local domain or a
  small ``D^r``, parametrised by softmax logits, optimised by Nelder-Mead from
  many seeded starts;
* **k-ary randomized response** (``W[d][e] = t/(t+k-1)`` if ``d = e`` else
  ``1/(t+k-1)``, Warner 1965 for ``k = 2``) over ``r`` records, as a product
  form, with a uniform or skewed per-record prior: central claims whose
  counterexamples need many records or a large domain are found without a
  ``k^r`` matrix.  For product forms the central values follow from the local
  ones (:mod:`relations.product`): ``eps_d, eps_i, sigma_min`` as locally,
  ``I = r I_local``, ``eps_all = r eps_d``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

import numpy as np

from relations.io.reading import from_dict
from relations.measures.api import eps_all, measure
from relations.model.distributions import Channel, Prior
from relations.model.mechanism import Mechanism
from relations.model.neighbours import HammingInputs, LocalInputs

__all__ = ["float_values", "DenseFamily", "RRFamily", "local_rr_values", "product_values"]


def float_values(mech: Mechanism) -> dict[str, float]:
    """The notions of a (float or exact) mechanism as floats."""
    m = measure(mech)
    return {"eps_i": m.eps_i.value, "eps_d": m.eps_d.value, "sigma_min": m.sigma_min.value,
            "neg_sigma": -m.sigma_min.value, "eps_m": m.eps_m.value, "eps_all": eps_all(mech).value}


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)



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

    def float_mechanism(self, theta: np.ndarray) -> Mechanism:
        """Softmax of logits squashed into ``[-6, 6]``: entries stay above ``e^-12`` relative, so the
        search stays among full-support channels where both budgets are finite."""
        z = 6.0 * np.tanh(np.asarray(theta) / 6.0)
        q = _softmax(z[: self.n * self.m].reshape(self.n, self.m))
        p = _softmax(z[self.n * self.m:])
        setting = "central" if self.records else "local"
        return Mechanism(setting, Prior(p), Channel(q), self.inputs(), tuple(map(str, range(self.m))), exact=False)

    def exact_mechanisms(self, theta: np.ndarray) -> Iterator[Mechanism]:
        """Rational roundings of the candidate, simplest denominators first."""
        f = self.float_mechanism(theta)
        for den in (2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 50, 100, 1000, 10**4, 10**6):
            prior = _round_simplex(f.prior.array, den)
            rows = [_round_simplex(row, den) for row in f.channel.array]
            spec = {"setting": f.setting, "prior": [str(v) for v in prior],
                    "channel": [[str(v) for v in row] for row in rows]}
            if self.records:
                spec |= {"domain": list(map(str, range(self.k))), "records": self.records}
            yield from_dict(spec)

    def describe(self) -> str:
        return f"dense {'D^%d (k=%d)' % (self.records, self.k) if self.records else 'local'} {self.n}x{self.m}"



def _round_simplex(v: np.ndarray, den: int) -> list[Fraction]:
    """Round a float probability vector to multiples of ``1/den`` summing to 1 (largest remainder; small
    entries may become 0, unlike :func:`relations.witnesses._round`, which keeps the support of an exact one)."""
    scaled = np.asarray(v, dtype=float) * den
    base = np.floor(scaled).astype(int)
    short = den - int(base.sum())
    order = np.argsort(-(scaled - base))
    base[order[:short]] += 1
    return [Fraction(int(b), den) for b in base]



@dataclass(frozen=True)
class RRFamily:
    """k-ary randomized response with ratio ``t`` on each of ``r`` records (``r = 1``: local);
    per-record prior uniform (``skew = 0``) or ``(1 - skew, skew/(k-1), ...)``."""

    k: int
    records: int
    skew: Fraction = Fraction(0)

    def channel(self, t: Fraction) -> list[list[Fraction]]:
        d = t + self.k - 1
        return [[t / d if i == j else 1 / d for j in range(self.k)] for i in range(self.k)]

    def prior(self) -> list[Fraction] | str:
        if not self.skew:
            return "uniform"
        rest = self.skew / (self.k - 1)
        return [1 - self.skew] + [rest] * (self.k - 1)

    def mechanism(self, t: Fraction) -> Mechanism:
        w = [[str(v) for v in row] for row in self.channel(t)]
        prior = self.prior()
        if self.records == 1:
            p = [str(Fraction(1, self.k))] * self.k if prior == "uniform" else [str(v) for v in prior]
            return from_dict({"setting": "local", "prior": p, "channel": w})
        spec = {"setting": "central", "domain": list(map(str, range(self.k))), "records": self.records,
                "channel": {"product": w},
                "prior": "uniform" if prior == "uniform" else {"product": [[str(v) for v in prior]] * self.records}}
        return from_dict(spec)

    def describe(self) -> str:
        where = "local" if self.records == 1 else f"product over r={self.records}"
        return f"{self.k}-RR {where}" + (f", skew {self.skew}" if self.skew else ", uniform prior")



def local_rr_values(k: int, t: float, skew: float) -> dict[str, float]:
    """Float values of local k-RR with ratio ``t`` (computed by the float path on the k x k matrix)."""
    d = t + k - 1
    w = np.full((k, k), 1 / d)
    np.fill_diagonal(w, t / d)
    p = np.full(k, 1 / k) if not skew else np.array([1 - skew] + [skew / (k - 1)] * (k - 1))
    mech = Mechanism("local", Prior(p), Channel(w), LocalInputs(tuple(map(str, range(k)))),
                     tuple(map(str, range(k))), exact=False)
    return float_values(mech)



def product_values(local: dict[str, float], r: int) -> dict[str, float]:
    """Central values of the ``r``-fold product from the local ones (identical records)."""
    out = dict(local)
    out["eps_m"] = r * local["eps_m"]
    out["eps_all"] = r * local["eps_d"]
    return out

