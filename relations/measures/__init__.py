"""The budgets of a mechanism: ``eps_d``, ``eps_i``, ``sigma_min`` (exact ratios with
witnesses) and ``eps_m`` (certified mutual information), for dense, graph and product forms.
"""

from __future__ import annotations

from relations.measures.api import eps_all, measure
from relations.measures.dense import (
    Joint,
    eps_all_dense,
    eps_d,
    eps_i,
    eps_m,
    measure_dense,
    sigma_min,
)
from relations.measures.information import (
    MAX_TIE_BITS,
    MAX_TIE_DENOMINATOR,
    compare_with_log,
    independent,
    mutual_information,
    mutual_information_float,
)
from relations.measures.product import eps_all_product, factor_groups, measure_product
from relations.measures.ratios import WINDOW, EntryFn, max_log_ratio, scan_float
from relations.measures.results import Budget, Measures, MutualInformation, Witness

__all__ = ["measure", "eps_all", "Joint", "eps_d", "eps_i", "sigma_min", "eps_m", "eps_all_dense", "measure_dense", "mutual_information", "independent", "MAX_TIE_DENOMINATOR", "MAX_TIE_BITS", "compare_with_log", "mutual_information_float", "factor_groups", "measure_product", "eps_all_product", "WINDOW", "EntryFn", "max_log_ratio", "scan_float", "Witness", "Budget", "MutualInformation", "Measures"]
