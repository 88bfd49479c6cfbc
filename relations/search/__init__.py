"""Searching for counterexamples: mechanism families, hypothesis strategies, the batched optimiser,
bounded-exhaustive families, screening of candidates, and witnesses.

The proofs live in :mod:`relations.proofs`; the pipeline that runs proofs and searches into a
verdict, in :mod:`relations.pipeline`.
"""

from __future__ import annotations

from relations._lazy import exports
from relations.search._erasure import rows as erasure_rows
from relations.search._families import (
    DenseFamily,
    RRFamily,
    float_values,
    local_rr_values,
    product_values,
)
from relations.search._optimiser import (
    RATIO_FLOOR,
    RR_DOMAINS,
    RR_RECORDS,
    VIOLATION_MARGIN,
    Found,
    float_bound,
    ratio,
    search_dense,
    search_rr,
    violation,
)
from relations.search._witnesses import certified_mi_upper, mi_witness, simplify

#: 0.2 names that moved to :mod:`relations.proofs` and :mod:`relations.pipeline` (still resolved, with a
#: DeprecationWarning).
_MOVED = {
    **dict.fromkeys(["FINITE", "Derivation", "derive", "lemma_facts"], "relations.proofs._derive"),
    **dict.fromkeys(["RATIO_NOTIONS", "Lemma", "ProofResult", "SearchResult", "Shape", "bounded_search",
                     "density_lemma", "is_ratio_relation", "lemma_for", "prove"], "relations.proofs._smt"),
    **dict.fromkeys(["DENSE", "SMT_SHAPES", "WITNESS_EPS_M", "Effort", "RelationVerdict", "verify_all",
                     "verify_relation"], "relations.pipeline._verify"),
}


__getattr__, __dir__ = exports(__name__, {}, moved=_MOVED)


__all__ = ["float_values", "DenseFamily", "RRFamily", "local_rr_values", "product_values", "float_bound", "violation",
           "RATIO_FLOOR", "ratio", "Found", "VIOLATION_MARGIN", "search_dense", "RR_DOMAINS", "RR_RECORDS", "search_rr",
           "certified_mi_upper", "mi_witness", "simplify", "erasure_rows"]
