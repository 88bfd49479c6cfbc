"""Named mechanisms as constructors returning :class:`~relations.model.Mechanism`, their
registry (what mechanism files may name), and symbolic closed forms.
"""

from __future__ import annotations

from relations.mechanisms.local import krr_rows, randomized_response, krr, unary_encoding, subset_selection, hadamard_response, exponential, utility_sensitivity, product
from relations.mechanisms.paper import paper_example, paper_construction, paper_local, paper_central
from relations.mechanisms.ranges import truncated_geometric, folded_geometric, staircase
from relations.mechanisms.registry import Entry, REGISTRY, named

__all__ = ["krr_rows", "randomized_response", "krr", "unary_encoding", "subset_selection", "hadamard_response", "exponential", "utility_sensitivity", "product", "paper_example", "paper_construction", "paper_local", "paper_central", "truncated_geometric", "folded_geometric", "staircase", "Entry", "REGISTRY", "named"]
