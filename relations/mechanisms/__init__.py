"""Named mechanisms as constructors returning :class:`~relations.model.Mechanism`, their
registry (what mechanism files may name), and symbolic closed forms.
"""

from __future__ import annotations

from relations.mechanisms.local import (
    exponential,
    hadamard_response,
    krr,
    krr_rows,
    product,
    randomized_response,
    subset_selection,
    unary_encoding,
    utility_sensitivity,
)
from relations.mechanisms.paper import (
    paper_central,
    paper_construction,
    paper_example,
    paper_local,
)
from relations.mechanisms.ranges import folded_geometric, staircase, truncated_geometric
from relations.mechanisms.registry import REGISTRY, NamedMechanism, named

__all__ = ["krr_rows", "randomized_response", "krr", "unary_encoding", "subset_selection", "hadamard_response", "exponential", "utility_sensitivity", "product", "paper_example", "paper_construction", "paper_local", "paper_central", "truncated_geometric", "folded_geometric", "staircase", "NamedMechanism", "REGISTRY", "named"]
