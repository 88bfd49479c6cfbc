"""A library of named mechanisms with exact rational entries.

Each constructor returns a :class:`~relations.mechanism.Mechanism` whose
channel entries are exact rationals.  The privacy parameter is the rational
ratio ``t = e^eps`` (``ratio``), so ``eps = ln t`` exactly; a uniform prior is
used unless one is given.  Every docstring states the channel and the
documented privacy level, which the tests check against the exact ``eps_d``.

Local (every two values neighbours):

* :func:`randomized_response` — Warner (1965): ``Q[d][d] = t/(1+t)``;
* :func:`krr` — k-ary randomized response / direct encoding (Kairouz et al. 2014):
  ``Q[d][e] = t/(t+k-1)`` if ``e = d`` else ``1/(t+k-1)``; ``eps_d = ln t``;
* :func:`unary_encoding` — symmetric (SUE, RAPPOR: per-bit ``p = s/(1+s)``,
  ``q = 1/(1+s)``, ``s = sqrt(t)``) and optimised (OUE, Wang et al. 2017:
  ``p = 1/2``, ``q = 1/(1+t)``); outputs are bit vectors; ``eps_d = ln t``;
* :func:`subset_selection` — Wang et al. 2016 / Ye and Barg 2018: outputs are
  ``s``-subsets, ``Q[d][S] = t/Z`` if ``d in S`` else ``1/Z``,
  ``Z = C(k-1, s-1) t + C(k-1, s)``; ``eps_d = ln t``;
* :func:`hadamard_response` — Acharya, Sun, Zhang 2019: ``K`` the smallest
  power of two above ``k``, ``C_d`` the positions of ``+1`` in row ``d+1`` of
  the Sylvester-Hadamard matrix, ``Q[d][y] = 2t/(K(1+t))`` on ``C_d`` else
  ``2/(K(1+t))``; ``eps_d = ln t``;
* :func:`exponential` — McSherry and Talwar 2007: ``Q[x][y] ∝ b^u(x,y)`` for
  an integer utility ``u`` and rational base ``b = e^(eps/(2 Delta u))``;
  ``eps_d <= 2 Delta_u ln b``.

Counting ranges ``{0, ..., n-1}`` (central, explicit neighbours ``|x - x'| <= Delta``):

* :func:`truncated_geometric` — Ghosh, Roughgarden, Sundararajan 2009:
  ``alpha = 1/t``, ``Q[x][y] = (1-alpha)/(1+alpha) alpha^|y-x|`` inside,
  ``alpha^|y-x| / (1+alpha)`` at the two ends; ``eps_d = ln t`` for ``Delta = 1``;
* :func:`folded_geometric` — the two-sided geometric noise reflected back into
  the range (``-1 -> 0``, ``n -> n-1``, period ``2n``); in closed form
  ``Q[x][y] = c (S(y-x) + S(-1-y-x))`` with ``S(d) = sum_j alpha^|d + 2nj|``; a post-processing
  of the ``ln t``-DP two-sided geometric noise, so ``eps_d <= ln t``;
* :func:`staircase` — a discrete, cyclic staircase (Geng and Viswanath 2014):
  ``Q[x][y] ∝ t^-s(d)``, ``d`` the cyclic distance, ``s(d) = 0`` for
  ``d < w`` and ``1 + floor((d - w)/Delta)`` beyond; ``eps_d <= ln t`` for
  neighbours at cyclic distance ``<= Delta``, with equality once the range has a step
  (``floor(n/2) >= w``).

The seed paper (Zheng et al. 2025): :func:`paper_example` (Section 5) and
:func:`paper_construction` (Thm 6/8/10/12, parameter ``beta``).  Central
versions of the local ones: :func:`product` (``r`` records, product form).
"""

from __future__ import annotations

from fractions import Fraction

from relations.errors import InputError
from relations.mechanisms.local import _prior, _ratio
from relations.model.mechanism import Mechanism

__all__ = ["truncated_geometric", "folded_geometric", "staircase"]


def _range_mechanism(rows, delta: int, prior, name: str, cyclic: bool = False) -> Mechanism:
    n = len(rows)
    edges = [(i, j) for i in range(n) for j in range(i + 1, n)
             if (min(j - i, n - (j - i)) if cyclic else j - i) <= delta]
    return Mechanism.graph(rows, edges, prior=_prior(prior, n), inputs=_labels(n), outputs=_labels(n))


def _labels(n: int) -> tuple[str, ...]:
    return tuple(str(i) for i in range(n))


def truncated_geometric(n: int, ratio, prior=None) -> Mechanism:
    """Truncated geometric on ``{0..n-1}`` with neighbours ``|x - x'| = 1``; ``eps_d = ln t``."""
    t = _ratio(ratio)
    a = 1 / t
    rows = []
    for x in range(n):
        row = []
        for y in range(n):
            edge = y in (0, n - 1)
            row.append(a ** abs(y - x) / (1 + a) if edge and n > 1 else (1 - a) / (1 + a) * a ** abs(y - x))
        rows.append(row)
    if n == 1:
        rows = [[Fraction(1)]]
    return _range_mechanism(rows, 1, prior, f"truncated geometric n={n}, ratio {ratio}")



def folded_geometric(n: int, ratio, prior=None) -> Mechanism:
    """Two-sided geometric noise reflected into ``{0..n-1}``; neighbours ``|x - x'| = 1``; ``eps_d <= ln t``."""
    t = _ratio(ratio)
    a = 1 / t
    c = (1 - a) / (1 + a)
    period = 2 * n

    def s(d: int) -> Fraction:  # sum over j of a^|d + 2nj|
        d0 = d % period
        return (a ** d0 + a ** (period - d0)) / (1 - a ** period)

    rows = [[c * (s(y - x) + s(-1 - y - x)) for y in range(n)] for x in range(n)]
    return _range_mechanism(rows, 1, prior, f"folded geometric n={n}, ratio {ratio}")



def staircase(n: int, ratio, delta: int = 1, width: int = 1, prior=None) -> Mechanism:
    """Cyclic discrete staircase on ``{0..n-1}``: ``Q[x][y] ∝ t^-s(d)``; neighbours at cyclic distance ``<= delta``."""
    t = _ratio(ratio)
    if not (1 <= width <= delta):
        raise InputError("staircase needs 1 <= width <= delta")

    def steps(d: int) -> int:
        return 0 if d < width else 1 + (d - width) // delta

    weights = [t ** -steps(min(d, n - d)) for d in range(n)]
    total = sum(weights)
    rows = [[weights[(y - x) % n] / total for y in range(n)] for x in range(n)]
    return _range_mechanism(rows, delta, prior, f"staircase n={n}, ratio {ratio}, delta {delta}", cyclic=True)

