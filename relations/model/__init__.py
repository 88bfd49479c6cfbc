"""The mechanism model: priors, channels, input spaces with their neighbour relations,
and the :class:`Mechanism` that ties them together (immutable, validated on construction).
"""

from __future__ import annotations

from relations.model.distributions import Prior, Channel, ProductPrior, ProductChannel
from relations.model.mechanism import Mechanism, local_inputs
from relations.model.neighbours import LocalInputs, HammingInputs, GraphInputs, InputSpace, diameter

__all__ = [
    "Prior",
    "Channel",
    "ProductPrior",
    "ProductChannel",
    "Mechanism",
    "local_inputs",
    "LocalInputs",
    "HammingInputs",
    "GraphInputs",
    "InputSpace",
    "diameter",
]
