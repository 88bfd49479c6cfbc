"""Result objects of the measures: budgets with exact forms and witnesses, mutual information.

A :class:`Budget` is a ratio measure (``eps_d``, ``eps_i``, ``sigma_min``): its float
value, its exact form ``ln(q)`` (a :class:`~relations.numbers.LogRatio`; ``None`` in
float mode) and the :class:`Witness` ``(x, x', y)`` attaining it.  A
:class:`MutualInformation` is ``I(X;Y)`` with its certified enclosure.  :class:`Measures`
holds all four quantities of one mechanism.
"""

from __future__ import annotations

from dataclasses import dataclass

from relations.numbers.enclosure import Enclosure
from relations.numbers.logs import LogRatio

__all__ = ["Witness", "Budget", "MutualInformation", "Measures"]


@dataclass(frozen=True)
class Witness:
    """Where a budget is attained: inputs ``x``, ``x_prime`` and output ``y``.

    For a dense mechanism each is a row/column index; for a product form, a
    tuple of per-record indices.  ``y`` is ``None`` for ``sigma_min``.
    """

    x: int | tuple[int, ...]
    x_prime: int | tuple[int, ...]
    y: int | tuple[int, ...] | None = None



@dataclass(frozen=True)
class Budget:
    """A ratio measure (``eps_d``, ``eps_i`` or ``sigma_min``).

    ``exact`` is ``ln(q)`` with ``q`` rational (``None`` in float mode);
    ``value`` is its float value (``+-inf`` allowed); ``witness`` attains it.
    """

    name: str
    value: float
    exact: LogRatio | None
    witness: Witness | None



@dataclass(frozen=True)
class MutualInformation:
    """``eps_m = I(X;Y)`` in nats: a float value and, in exact mode, a certified enclosure."""

    value: float
    enclosure: Enclosure | None
    bits: int | None = None



@dataclass(frozen=True)
class Measures:
    """The four quantities of one mechanism; ``exact`` is False in float mode."""

    eps_i: Budget
    eps_d: Budget
    eps_m: MutualInformation
    sigma_min: Budget
    exact: bool

    def __iter__(self):
        return iter((self.eps_i, self.eps_d, self.eps_m, self.sigma_min))

