"""Product forms: independent records on ``D^r``, never expanded to ``k^r`` rows.

* :class:`ProductPrior` -- independent records, ``p(d_1, ..., d_r) = prod_j p_j(d_j)``,
  one local prior per record kept as runs (:class:`~relations.model._runs.Runs`);
* :class:`ProductChannel` -- every record perturbed independently by the same local
  channel ``W``: ``Q[x][y] = prod_j W[d_j][e_j]`` over ``D^r x E^r``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from relations.errors import InputError
from relations.model._distributions import Channel, Prior, _frozen
from relations.model._runs import Runs

__all__ = ["ProductPrior", "ProductChannel"]


@dataclass(frozen=True, eq=False)
class ProductPrior:
    """Independent records: ``p(d_1, ..., d_r) = prod_j p_j(d_j)``.

    Parameters
    ----------
    factors : sequence of Prior
        The local prior of each record, in record order.  They are kept as
        :class:`~relations.model._runs.Runs` (runs of the same prior), so that a
        prior repeated over ``r = 10**9`` records costs one entry: build long forms
        with :meth:`repeated` or a :class:`~relations.model._runs.Runs`, never as a
        list of ``r`` items.

    Examples
    --------
    >>> pp = ProductPrior.repeated(Prior.uniform(2), 10**9)
    >>> pp.records, len(pp.factors.runs), pp.factors[123456789].exact
    (1000000000, 1, (Fraction(1, 2), Fraction(1, 2)))
    """

    factors: Runs

    def __post_init__(self) -> None:
        object.__setattr__(self, "factors", Runs.of(self.factors))
        if not len(self.factors):
            raise InputError("a product prior needs at least one record")

    @classmethod
    def repeated(cls, prior: Prior, records: int) -> ProductPrior:
        """The same local prior on each of ``records`` records."""
        return cls(Runs.repeat(prior, records))

    @property
    def records(self) -> int:
        """The number of records ``r``."""
        return len(self.factors)

    @functools.cached_property
    def run_index(self) -> tuple[tuple[Prior, ...], np.ndarray, np.ndarray]:
        """``(distinct, which, counts)``: each local prior object once (in order of first use), and for
        every run the index of its prior in ``distinct`` and its length (int64 arrays)."""
        items = self.factors.items
        ids = np.fromiter(map(id, items), dtype=np.int64, count=len(items))
        _, firsts, which = np.unique(ids, return_index=True, return_inverse=True)
        order = np.argsort(firsts, kind="stable")  # number the distinct priors in order of first use
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        distinct = [items[i] for i in firsts[order].tolist()]
        which = rank[which.reshape(-1)]
        counts = self.factors.counts
        return tuple(distinct), which, counts

    @property
    def distinct(self) -> tuple[Prior, ...]:
        """Each run's local prior once, in order of first use (objects, not values)."""
        return self.run_index[0]

    @property
    def rounding(self) -> Fraction:
        """The largest relative rounding radius of a local prior."""
        return max(f.rounding for f in self.distinct)

    def dense(self) -> Prior:
        """The ``k^r`` dense prior (small ``r`` only: tests and mixed forms)."""
        exact = self.factors[0].exact is not None
        values: list = [Fraction(1)] if exact else [1.0]
        for f in self.factors:
            local = f.exact if exact else f.array.tolist()
            values = [a * b for a in values for b in local]
        rho = _compound(f.rounding for f in self.factors)
        return Prior.from_exact(values, rho) if exact else Prior(_frozen(np.array(values)), rounding=rho)


@dataclass(frozen=True, eq=False)
class ProductChannel:
    """``r`` records each perturbed independently by the local channel ``W`` (``k x m``)."""

    local: Channel
    records: int

    def dense(self) -> Channel:
        """The ``k^r x m^r`` dense channel, rows and columns in lexicographic order."""
        w = self.local
        if w.exact is None:
            q = np.ones((1, 1))
            for _ in range(self.records):
                q = np.kron(q, w.array)
            return Channel(_frozen(q), rounding=_compound([w.rounding] * self.records))
        rows: list[list[Fraction]] = [[Fraction(1)]]
        for _ in range(self.records):
            rows = [[a * b for a in row for b in wrow] for row in rows for wrow in w.exact]
        return Channel.from_exact(rows, _compound([w.rounding] * self.records))


def _compound(radii) -> Fraction:
    """The relative radius of a product of factors with the given radii."""
    out = Fraction(1)
    for r in radii:
        out *= 1 + r
    return out - 1
