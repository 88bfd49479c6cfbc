"""The mechanism model: priors, channels, input spaces with their neighbour relations,
and the :class:`Mechanism` that ties them together (immutable, validated on construction).
"""

from __future__ import annotations

from relations.model.distributions import (
    FLOAT_TOLERANCE,
    Channel,
    Prior,
    ProductChannel,
    ProductPrior,
    float_rows,
    probability_vector,
    stochastic_rows,
)
from relations.model.mechanism import MAX_DENSE_ENTRIES, Mechanism
from relations.model.neighbours import (
    GraphInputs,
    HammingInputs,
    InputSpace,
    LocalInputs,
    diameter,
    edge_list,
)
from relations.model.validate import (
    MAX_RECORDS,
    dataset_count,
    labels_of,
    product_prior,
    records_of,
)

__all__ = ["FLOAT_TOLERANCE", "probability_vector", "stochastic_rows", "float_rows", "Prior", "Channel", "ProductPrior", "ProductChannel", "MAX_DENSE_ENTRIES", "Mechanism", "LocalInputs", "HammingInputs", "GraphInputs", "InputSpace", "diameter", "edge_list", "MAX_RECORDS", "labels_of", "records_of", "dataset_count", "product_prior"]
