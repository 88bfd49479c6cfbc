"""Verdicts for relations over all mechanisms: SMT proofs and derivations, bounded search,
property-based and optimising searches for counterexamples, and witnesses.
"""

from __future__ import annotations

from relations.search.derive import FINITE, Derivation, derive, lemma_facts
from relations.search.families import (
    DenseFamily,
    RRFamily,
    float_values,
    local_rr_values,
    product_values,
)
from relations.search.optimiser import (
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
from relations.search.smt import (
    RATIO_NOTIONS,
    Lemma,
    ProofResult,
    SearchResult,
    Shape,
    bounded_search,
    density_lemma,
    is_ratio_relation,
    lemma_for,
    prove,
)
from relations.search.verify import (
    DENSE,
    SMT_SHAPES,
    WITNESS_EPS_M,
    Effort,
    RelationVerdict,
    verify_all,
    verify_relation,
)
from relations.search.witnesses import certified_mi_upper, mi_witness, simplify

__all__ = ["FINITE", "Derivation", "lemma_facts", "derive", "float_values", "DenseFamily", "RRFamily", "local_rr_values", "product_values", "float_bound", "violation", "RATIO_FLOOR", "ratio", "Found", "VIOLATION_MARGIN", "search_dense", "RR_DOMAINS", "RR_RECORDS", "search_rr", "RATIO_NOTIONS", "is_ratio_relation", "Lemma", "ProofResult", "lemma_for", "density_lemma", "prove", "Shape", "SearchResult", "bounded_search", "WITNESS_EPS_M", "Effort", "SMT_SHAPES", "DENSE", "RelationVerdict", "verify_relation", "verify_all", "certified_mi_upper", "mi_witness", "simplify"]
