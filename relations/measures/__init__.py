"""The budgets of a mechanism: ``eps_d``, ``eps_i``, ``sigma_min`` (exact ratios with
witnesses) and ``eps_m`` (certified mutual information), for dense, graph and product forms.

Start with :func:`measure` (all four at once) and :func:`eps_all` (the DP budget over
every pair of inputs).  The submodules:

* :mod:`~relations.measures._api` -- :func:`measure` and :func:`eps_all` for any mechanism;
* :mod:`~relations.measures._dense` -- the definitions on dense mechanisms (local, ``D^r``, graph);
* :mod:`~relations.measures._product` -- product forms reduced to their local factors;
* :mod:`~relations.measures._ratios` -- the largest neighbour ratio, exactly at float speed;
* :mod:`~relations.measures._information` -- certified enclosures of ``I(X;Y)`` and exact tie-breakers;
* :mod:`~relations.measures._results` -- the result objects;
* :mod:`~relations.measures._tradeoff` -- :func:`tradeoff_curve`, the exact f-DP trade-off curve and Gaussian-DP ``mu``;
* :mod:`~relations.measures._notions` -- :func:`notion_result`, any notion of a mechanism by name (``"renyi(2)"``);
* :mod:`~relations.measures._composition` -- repeated use and composition (``Mechanism.repeated(k)``,
  :func:`~relations.compose`): :func:`composed_notion` (any notion of ``k`` uses), :func:`composed_delta` and
  :func:`composed_eps_delta` (the exact privacy profile).

:func:`notion_result` and the composition functions are imported on first use.

The definitions and the conventions on zeros and infinities are in ``docs/semantics.md``.
"""

from __future__ import annotations

from relations._lazy import exports

#: Each public name and the module that defines it (imported on first use: a measurement imports only what it
#: computes with, e.g. not the trade-off curve).
_WHERE = {
    **dict.fromkeys(["measure", "eps_all"], "relations.measures._api"),
    **dict.fromkeys(["Joint", "eps_d", "eps_i", "sigma_min", "eps_m", "eps_all_dense", "measure_dense"], "relations.measures._dense"),
    **dict.fromkeys(["mutual_information", "independent", "MAX_TIE_DENOMINATOR", "MAX_TIE_BITS", "compare_with_log", "mutual_information_float"], "relations.measures._information"),
    **dict.fromkeys(["factor_groups", "measure_product", "eps_all_product"], "relations.measures._product"),
    **dict.fromkeys(["WINDOW", "EntryFn", "max_log_ratio", "scan_float"], "relations.measures._ratios"),
    **dict.fromkeys(["Witness", "Budget", "MutualInformation", "Measures"], "relations.measures._results"),
    **dict.fromkeys(["tradeoff_curve", "TradeoffCurve"], "relations.measures._tradeoff"),
    "notion_result": "relations.measures._notions", "NotionResult": "relations.measures._pairs",
    **dict.fromkeys(["composed_notion", "composed_delta", "composed_eps_delta"], "relations.measures._composition"),
}
# and the 0.2 submodule names (relations.measures.ratios) resolve to their replacements, with a DeprecationWarning
__getattr__, __dir__ = exports(__name__, _WHERE)

__all__ = ["measure", "eps_all", "Joint", "eps_d", "eps_i", "sigma_min", "eps_m", "eps_all_dense", "measure_dense", "mutual_information", "independent", "MAX_TIE_DENOMINATOR", "MAX_TIE_BITS", "compare_with_log", "mutual_information_float", "factor_groups", "measure_product", "eps_all_product", "WINDOW", "EntryFn", "max_log_ratio", "scan_float", "Witness", "Budget", "MutualInformation", "Measures", "tradeoff_curve", "TradeoffCurve",
           "notion_result", "NotionResult", "composed_notion", "composed_delta", "composed_eps_delta"]
