"""The four quantities of a mechanism (SPEC section 2), exactly and fast.

For neighbours ``x ~ x'`` (both orders) and outputs ``y``:

* ``eps_d     = max ln( Q[x][y] / Q[x'][y] )`` — the smallest ``eps`` for
  which the mechanism is ``eps``-differentially private (paper, Def. 4/5,
  eq. (19)/(20));
* ``eps_i     = max ln( p(x)Q[x][y] / (p(x')Q[x'][y]) )`` — the smallest
  identifiability budget: ``p(x|y) / p(x'|y)`` with ``p(y)`` cancelled
  (Def. 2/3, eq. (17)/(18));
* ``sigma_min = min ln( p(x) / p(x') )`` — the prior constant (Def. 8/9);
* ``eps_m     = I(X;Y)`` — mutual information in nats (Def. 6/7, eq. (7)/(8)).

Conventions: ``0/0`` is skipped, ``a/0 = +inf``, ``0/b`` gives ``-inf``.  All
three ratio measures are one primitive, :func:`max_log_ratio`: the largest
``A[x][y] / A[x'][y]`` over neighbours, for ``A = Q``, ``A = p(x)Q[x][y]``
and ``A = p`` (one column; ``sigma_min = -max ln(p(x)/p(x'))`` because the
relation is symmetric).  If no neighbour pair contributes (a single input, an
empty edge list, or only ``0/0`` ratios) every budget holds, and the measure
is reported as ``0`` with no witness.

**Exactness.**  The float64 copy is scanned with numpy per-clique max/min
reductions (:mod:`relations.neighbours`), and every clique-output whose float
ratio is within a relative ``1e-9`` of the float maximum is re-evaluated in
exact rationals; the exact maximum among them is the answer.  This is exact:
each float entry is within ``2**-52`` (relative) of its rational, so the float
ratio of any clique is within ``~5 * 2**-53`` of its true ratio; a clique
outside the window therefore has a smaller true ratio than the float
maximiser.  When the float copy cannot guarantee that (underflow to zero or
subnormals), every clique is evaluated exactly.
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

