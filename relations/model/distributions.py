"""The mechanism: a prior over inputs and a channel ``Q[x][y] = p(y | x)``.

Value objects, immutable once built (arrays are marked read-only):

* :class:`Prior` — a dense prior ``p(x)``;
* :class:`Channel` — a dense row-stochastic matrix ``Q`` (``n x m``);
* :class:`ProductPrior` — independent records, ``p(x) = prod_j p_j(d_j)``;
* :class:`ProductChannel` — every record perturbed independently by the same
  local channel ``W``: ``Q[x][y] = prod_j W[d_j][e_j]`` over ``D^r x E^r``,
  never expanded to its ``k^r x m^r`` matrix;
* :class:`Mechanism` — prior, channel, input space with its neighbour relation
  (:mod:`relations.neighbours`), output labels, and whether it is exact.

An *exact* object carries its entries as :class:`~fractions.Fraction` (and a
float64 copy for the fast candidate search); a *float-mode* object (``.npz``
input) carries only the float array and every result derived from it says it
is approximate.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

__all__ = ["Prior", "Channel", "ProductPrior", "ProductChannel"]


def _frozen(array: np.ndarray) -> np.ndarray:
    array = np.ascontiguousarray(array, dtype=np.float64)
    array.setflags(write=False)
    return array



def _reliable(exact_nonzero: np.ndarray, approx: np.ndarray) -> bool:
    """True when the float copy has the exact zero pattern and no subnormal entry,
    so every float entry is within a relative 2**-53 of the exact one."""
    tiny = np.finfo(np.float64).tiny
    return bool(np.array_equal(exact_nonzero, approx != 0) and not np.any((approx != 0) & (approx < tiny)))



@dataclass(frozen=True, eq=False)
class Prior:
    """A dense prior ``p(x)`` over ``n`` inputs (``sum_x p(x) = 1``)."""

    array: np.ndarray
    exact: tuple[Fraction, ...] | None = None
    reliable: bool = True

    @staticmethod
    def from_exact(values: Sequence[Fraction]) -> "Prior":
        values = tuple(values)
        approx = np.array([float(v) for v in values], dtype=np.float64)
        return Prior(_frozen(approx), values, _reliable(np.array([v != 0 for v in values]), approx))

    @staticmethod
    def uniform(n: int) -> "Prior":
        return Prior.from_exact([Fraction(1, n)] * n)

    @property
    def size(self) -> int:
        return self.array.shape[0]



@dataclass(frozen=True, eq=False)
class Channel:
    """A dense channel: ``Q[x][y] = p(y | x)``, each row summing to 1."""

    array: np.ndarray
    exact: tuple[tuple[Fraction, ...], ...] | None = None
    reliable: bool = True

    @staticmethod
    def from_exact(rows: Sequence[Sequence[Fraction]]) -> "Channel":
        rows = tuple(tuple(r) for r in rows)
        approx = np.array([[float(v) for v in r] for r in rows], dtype=np.float64).reshape(len(rows), -1)
        nonzero = np.array([[v != 0 for v in r] for r in rows], dtype=bool).reshape(approx.shape)
        return Channel(_frozen(approx), rows, _reliable(nonzero, approx))

    @property
    def shape(self) -> tuple[int, int]:
        return self.array.shape  # type: ignore[return-value]



@dataclass(frozen=True, eq=False)
class ProductPrior:
    """Independent records: ``p(d_1, ..., d_r) = prod_j p_j(d_j)``."""

    factors: tuple[Prior, ...]

    @property
    def records(self) -> int:
        return len(self.factors)

    def dense(self) -> Prior:
        """The ``k^r`` dense prior (small ``r`` only: tests and mixed forms)."""
        exact = self.factors[0].exact is not None
        values: list = [Fraction(1)] if exact else [1.0]
        for f in self.factors:
            local = f.exact if exact else f.array.tolist()
            values = [a * b for a in values for b in local]
        return Prior.from_exact(values) if exact else Prior(_frozen(np.array(values)))



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
            return Channel(_frozen(q))
        rows: list[list[Fraction]] = [[Fraction(1)]]
        for _ in range(self.records):
            rows = [[a * b for a in row for b in wrow] for row in rows for wrow in w.exact]
        return Channel.from_exact(rows)

