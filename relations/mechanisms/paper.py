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
from relations.mechanisms.local import _local, _q
from relations.model.mechanism import Mechanism

__all__ = ["paper_example", "paper_construction", "paper_local", "paper_central"]


def paper_example(prior=("19/20", "1/20")) -> Mechanism:
    """Zheng et al. 2025, Section 5: ``D = {1, 2}``, ``Q = [[0.65, 0.35], [0.35, 0.65]]``."""
    return _local([[Fraction(13, 20), Fraction(7, 20)], [Fraction(7, 20), Fraction(13, 20)]], prior,
                  inputs=["1", "2"], outputs=["1", "2"], name="Zheng et al. 2025, Section 5 example")



def paper_construction(theorem: int, beta) -> Mechanism:
    """The joint distributions of Zheng et al. 2025, Thm 6/10 (eq. 57/85) and Thm 8/12 (eq. 63/91)."""
    beta = _q(beta)
    if not 0 < beta < 1:
        raise InputError("beta must lie strictly between 0 and 1")
    if theorem in (6, 10):
        return paper_central(beta)
    if theorem in (8, 12):
        return paper_local(beta)
    raise InputError("the paper's constructions are for theorems 6, 8, 10, 12")


def paper_local(beta) -> Mechanism:
    """Zheng et al. 2025, eq. (63)/(91): ``D = {1, 2}``, the identity channel, prior ``(beta, 1 - beta)``.

    ``I(D;E) = h(beta)`` (binary entropy, nats) while ``eps_d = eps_i = inf``.

    Examples
    --------
    >>> from relations import measure
    >>> m = measure(paper_local(Fraction(1, 2)))
    >>> str(m.eps_d.exact), m.eps_m.enclosure.contains(0)
    ('inf', False)
    """
    beta = _q(beta)
    return Mechanism.local([[1, 0], [0, 1]], prior=[beta, 1 - beta], inputs=["1", "2"], outputs=["1", "2"])


def paper_central(beta) -> Mechanism:
    """Zheng et al. 2025, eq. (57)/(85): datasets ``(1,1) ~ (1,2) ~ (2,2)``, ``I(X;Y) = h(beta)``, ``eps_d = inf``."""
    beta = _q(beta)
    labels = ["(1,1)", "(1,2)", "(2,2)"]
    half = Fraction(1, 2)
    return Mechanism.graph([[1, 0, 0], [0, half, half], [0, half, half]], [(0, 1), (1, 2)],
                           prior=[beta, (1 - beta) / 2, (1 - beta) / 2], inputs=labels, outputs=labels)
