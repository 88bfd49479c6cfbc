"""The mechanism: a prior over inputs and a channel ``Q[x][y] = p(y | x)``.

Value objects, immutable once built (arrays are marked read-only):

* :class:`Prior` — a dense prior ``p(x)``;
* :class:`Channel` — a dense row-stochastic matrix ``Q`` (``n x m``);
* :class:`ProductPrior` — independent records, ``p(x) = prod_j p_j(d_j)``;
* :class:`ProductChannel` — every record perturbed independently by the same
  local channel ``W``: ``Q[x][y] = prod_j W[d_j][e_j]`` over ``D^r x E^r``,
  never expanded to its ``k^r x m^r`` matrix;
* :class:`Mechanism` — prior, channel, input space with its neighbour relation
  (:mod:`relations.neighbours`), output labels, and whether it is exact.

An *exact* object carries its entries as :class:`~fractions.Fraction` (and a
float64 copy for the fast candidate search); a *float-mode* object (``.npz``
input) carries only the float array and every result derived from it says it
is approximate.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from relations.model.distributions import Channel, Prior, ProductChannel, ProductPrior
from relations.model.neighbours import HammingInputs, InputSpace, LocalInputs

__all__ = ["Mechanism", "local_inputs"]


@dataclass(frozen=True, eq=False)
class Mechanism:
    """A prior and a channel over an input space with a neighbour relation.

    ``setting`` is ``"local"`` or ``"central"``; ``inputs`` is the input space
    (:class:`~relations.neighbours.LocalInputs`,
    :class:`~relations.neighbours.HammingInputs` or
    :class:`~relations.neighbours.GraphInputs`); ``outputs`` labels the
    channel's columns (the local outputs of a product channel); ``exact`` is
    False for float-mode input.
    """

    setting: str
    prior: Prior | ProductPrior
    channel: Channel | ProductChannel
    inputs: InputSpace
    outputs: tuple[str, ...]
    exact: bool = True
    source: str = field(default="", compare=False)

    @property
    def is_product(self) -> bool:
        return isinstance(self.channel, ProductChannel)

    def dense(self) -> "Mechanism":
        """The same mechanism with product forms expanded (small sizes only)."""
        if not self.is_product and isinstance(self.prior, Prior):
            return self
        prior = self.prior.dense() if isinstance(self.prior, ProductPrior) else self.prior
        channel = self.channel.dense() if isinstance(self.channel, ProductChannel) else self.channel
        outputs = self.outputs
        if isinstance(self.channel, ProductChannel):
            outputs = tuple(_tuple_label(t) for t in np.ndindex(*(len(self.outputs),) * self.channel.records)
                            for t in [tuple(self.outputs[i] for i in t)])
        return Mechanism(self.setting, prior, channel, self.inputs, outputs, self.exact, self.source)

    def input_label(self, x) -> str:
        if isinstance(x, tuple):
            assert isinstance(self.inputs, HammingInputs)
            return _tuple_label(tuple(self.inputs.domain[v] for v in x))
        return self.inputs.label(x)

    def output_label(self, y) -> str:
        if isinstance(y, tuple):
            return _tuple_label(tuple(self.outputs[v] for v in y))
        return self.outputs[y]



def _tuple_label(parts: tuple[str, ...]) -> str:
    return "(" + ",".join(parts) + ")"



def local_inputs(n: int, labels: Sequence[str] | None = None) -> LocalInputs:
    return LocalInputs(tuple(labels) if labels is not None else tuple(str(i) for i in range(n)))

