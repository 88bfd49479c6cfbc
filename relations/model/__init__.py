"""The mechanism model: priors, channels, input spaces with their neighbour relations,
and the :class:`Mechanism` that ties them together (immutable, validated on construction).
"""

from __future__ import annotations

from relations._lazy import exports
from relations.model._distributions import (
    Channel,
    Prior,
    probability_vector,
    stochastic_rows,
)
from relations.model._floats import (
    FLOAT_ROUNDING,
    FLOAT_TOLERANCE,
    MAX_EXACT_FLOAT_ENTRIES,
    MAX_EXACT_MODE_ENTRIES,
    float_rounding,
    float_rows,
    numeric_mode,
    rounded_literal,
    take_exactly,
)
from relations.model._mechanism import MAX_DENSE_ENTRIES, Mechanism
from relations.model._neighbours import (
    GraphInputs,
    HammingInputs,
    InputSpace,
    LocalInputs,
    diameter,
    edge_list,
)
from relations.model._products import ProductChannel, ProductPrior
from relations.model._runs import MAX_RUN_LENGTH, Runs
from relations.model._validate import (
    MAX_PRODUCT_RECORDS,
    MAX_RECORDS,
    dataset_count,
    labels_of,
    product_prior,
    records_of,
)

__all__ = ["probability_vector", "stochastic_rows", "Prior", "Channel", "ProductPrior", "ProductChannel", "FLOAT_TOLERANCE", "FLOAT_ROUNDING", "MAX_EXACT_FLOAT_ENTRIES", "MAX_EXACT_MODE_ENTRIES", "numeric_mode", "rounded_literal", "float_rows", "take_exactly", "float_rounding", "MAX_DENSE_ENTRIES", "Mechanism", "Composition", "compose", "MAX_REPEAT", "MAX_SUFFICIENT_ENTRIES", "type_count", "LocalInputs", "HammingInputs", "GraphInputs", "InputSpace", "diameter", "edge_list", "MAX_RECORDS", "MAX_PRODUCT_RECORDS", "Runs", "MAX_RUN_LENGTH", "labels_of", "records_of", "dataset_count", "product_prior"]

# 0.2 submodule names (relations.measures.ratios) resolve to their replacements, with a DeprecationWarning
# repeated use (relations.model._composed) on first use: reading and measuring one mechanism do not need it
__getattr__, __dir__ = exports(__name__, dict.fromkeys(
    ["MAX_REPEAT", "MAX_SUFFICIENT_ENTRIES", "Composition", "compose", "type_count"], "relations.model._composed"))
