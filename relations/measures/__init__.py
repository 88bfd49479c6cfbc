"""The budgets of a mechanism: ``eps_d``, ``eps_i``, ``sigma_min`` (exact ratios with
witnesses) and ``eps_m`` (certified mutual information), for dense, graph and product forms.
"""

from __future__ import annotations

from relations.measures.api import measure, eps_all
from relations.measures.dense import Joint, eps_d, eps_i, sigma_min, eps_m, eps_all_dense, measure_dense
from relations.measures.information import mutual_information, independent, MAX_TIE_DENOMINATOR, MAX_TIE_BITS, compare_with_log, mutual_information_float
from relations.measures.product import factor_groups, measure_product, eps_all_product
from relations.measures.ratios import WINDOW, Entry, max_log_ratio, scan_float
from relations.measures.results import Witness, Budget, MutualInformation, Measures

__all__ = ["measure", "eps_all", "Joint", "eps_d", "eps_i", "sigma_min", "eps_m", "eps_all_dense", "measure_dense", "mutual_information", "independent", "MAX_TIE_DENOMINATOR", "MAX_TIE_BITS", "compare_with_log", "mutual_information_float", "factor_groups", "measure_product", "eps_all_product", "WINDOW", "Entry", "max_log_ratio", "scan_float", "Witness", "Budget", "MutualInformation", "Measures"]
