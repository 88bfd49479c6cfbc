"""Privacy against utility: distortion, entropies, the Fano bound and optimal mechanisms."""

from __future__ import annotations

from relations._lazy import exports
from relations.tradeoffs._optimal import (
    Optimum,
    blahut_arimoto,
    optimal_dp,
    optimal_id,
    optimal_mi,
    privacy_distortion_curves,
)
from relations.tradeoffs._utility import (
    binary_entropy,
    conditional_entropy,
    entropy,
    expected_distortion,
    fano_leakage_bound,
    loss_matrix,
    utility_summary,
)

__all__ = ["Optimum", "optimal_dp", "optimal_id", "blahut_arimoto", "optimal_mi", "privacy_distortion_curves", "loss_matrix", "expected_distortion", "entropy", "conditional_entropy", "binary_entropy", "fano_leakage_bound", "utility_summary"]

# 0.2 submodule names (relations.measures.ratios) resolve to their replacements, with a DeprecationWarning
__getattr__, __dir__ = exports(__name__, {})
