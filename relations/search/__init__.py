"""Verdicts for relations over all mechanisms: SMT proofs and derivations, bounded search,
property-based and optimising searches for counterexamples, and witnesses.
"""

from __future__ import annotations

from relations.search.derive import FINITE, Derivation, lemma_facts, derive
from relations.search.families import float_values, DenseFamily, RRFamily, local_rr_values, product_values
from relations.search.optimiser import float_bound, violation, RATIO_FLOOR, ratio, Found, VIOLATION_MARGIN, search_dense, RR_DOMAINS, RR_RECORDS, search_rr
from relations.search.smt import RATIO_NOTIONS, is_ratio_relation, Lemma, ProofResult, lemma_for, density_lemma, prove, Shape, SearchResult, bounded_search
from relations.search.verify import WITNESS_EPS_M, Effort, SMT_SHAPES, DENSE, Verdict, verify_relation, verify_all
from relations.search.witnesses import certified_mi_upper, mi_witness, simplify

__all__ = ["FINITE", "Derivation", "lemma_facts", "derive", "float_values", "DenseFamily", "RRFamily", "local_rr_values", "product_values", "float_bound", "violation", "RATIO_FLOOR", "ratio", "Found", "VIOLATION_MARGIN", "search_dense", "RR_DOMAINS", "RR_RECORDS", "search_rr", "RATIO_NOTIONS", "is_ratio_relation", "Lemma", "ProofResult", "lemma_for", "density_lemma", "prove", "Shape", "SearchResult", "bounded_search", "WITNESS_EPS_M", "Effort", "SMT_SHAPES", "DENSE", "Verdict", "verify_relation", "verify_all", "certified_mi_upper", "mi_witness", "simplify"]
