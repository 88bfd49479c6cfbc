"""The measures of any mechanism: dense forms directly, product forms through their local factors."""

from __future__ import annotations

from relations.measures.dense import eps_all_dense, measure_dense
from relations.measures.product import eps_all_product, measure_product
from relations.measures.results import Budget, Measures
from relations.model.mechanism import Mechanism
from relations.numbers.enclosure import DEFAULT_BITS

__all__ = ["measure", "eps_all"]


def measure(mech: Mechanism, bits: int = DEFAULT_BITS) -> Measures:
    """All four quantities of ``mech`` (product forms are reduced to local computations)."""
    if mech.is_product:
        return measure_product(mech, bits)
    return measure_dense(mech, bits)


def eps_all(mech: Mechanism) -> Budget:
    """DP budget over *every* pair of distinct inputs (not only neighbours): the
    channel measured as if local.  For a product channel it is ``r`` times the
    local ``eps_d`` (the per-record maximal ratios multiply)."""
    if mech.is_product:
        return eps_all_product(mech)
    return eps_all_dense(mech)
