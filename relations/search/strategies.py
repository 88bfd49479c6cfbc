"""Hypothesis strategies for mechanisms (public: property-test your own mechanisms).

Every strategy draws *exact* mechanisms (rational entries) (``docs/semantics.md``):

* :func:`distributions` — a probability vector of ``Fraction`` s from integer
  weights, optionally with zeros and optionally skewed (one heavy weight);
* :func:`channels` — ``n x m`` row-stochastic rational matrices (zeros allowed);
* :func:`local_mechanisms`, :func:`central_dense_mechanisms` (``D^r``),
  :func:`graph_mechanisms` (an explicit neighbour list, connected unless asked),
  :func:`product_mechanisms` (``{"product": W}`` with product or uniform prior),
  and :func:`mechanisms` (any of them).

Weights are small integers, so hypothesis shrinks towards small matrices with
simple rationals (``1/2``, ``1/3``), which makes witnesses readable.

Example::

    from hypothesis import given
    from relations.strategies import local_mechanisms
    from relations import measure

    @given(local_mechanisms())
    def test_sigma_min_nonpositive(mech):
        assert measure(mech).sigma_min.value <= 0
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, lru_cache

from hypothesis import strategies as st

from relations.model._mechanism import Mechanism

__all__ = ["MAX_WEIGHT", "distributions", "channels", "local_mechanisms", "central_dense_mechanisms", "graph_mechanisms", "product_mechanisms", "mechanisms"]

MAX_WEIGHT = 12

# Strategy objects are built once and reused: hypothesis validates a strategy when it is first drawn from,
# which cost more than the draw itself when every draw built new ones (the same strategies draw the same
# examples, so nothing drawn changes).
_BOOL = st.booleans()
_integers = lru_cache(maxsize=None)(st.integers)


@cache
def _weights(low: int, size: int):
    return st.lists(_integers(low, MAX_WEIGHT), min_size=size, max_size=size)


@cache
def _permutations(n: int):
    return st.permutations(range(n))


@cache
def _cuts(n: int):
    return st.lists(_integers(1, n - 1), max_size=2)


@cache
def _extra_edges(n: int):
    return st.lists(st.tuples(_integers(0, n - 1), _integers(0, n - 1)), max_size=n)


@cache
def _distribution(size: int, zeros: bool, skew: bool):
    return distributions(size, zeros=zeros, skew=skew)


@st.composite
def distributions(draw, size: int, zeros: bool = True, skew: bool = True) -> list[Fraction]:
    """A probability vector of length ``size`` with rational entries."""
    low = 0 if zeros else 1
    weights = draw(_weights(low, size))
    if skew and size > 1 and draw(_BOOL):
        i = draw(_integers(0, size - 1))
        weights[i] += draw(_integers(0, 200))
    if sum(weights) == 0:
        weights[draw(_integers(0, size - 1))] = 1
    total = sum(weights)
    return [Fraction(w, total) for w in weights]


@st.composite
def channels(draw, n: int, m: int, zeros: bool = True) -> list[list[Fraction]]:
    """An ``n x m`` row-stochastic rational matrix."""
    return [draw(_distribution(m, zeros, False)) for _ in range(n)]


@st.composite
def local_mechanisms(draw, max_inputs: int = 4, max_outputs: int = 4, zeros: bool = True) -> Mechanism:
    """Local setting: ``n`` values, every two distinct ones neighbours."""
    n = draw(_integers(2, max_inputs))
    m = draw(_integers(2, max_outputs))
    prior = draw(_distribution(n, zeros, True))
    channel = draw(channels(n, m, zeros=zeros))
    return Mechanism.local(channel, prior=prior)


@st.composite
def central_dense_mechanisms(draw, max_domain: int = 3, max_records: int = 3, max_outputs: int = 3,
                             zeros: bool = True, max_rows: int = 27) -> Mechanism:
    """Central ``D^r`` with a dense prior and channel (``k^r <= max_rows``)."""
    k = draw(_integers(2, max_domain))
    r = draw(_integers(2, max_records))
    while k**r > max_rows:
        r -= 1
    n = k**r
    m = draw(_integers(2, max_outputs))
    prior = draw(_distribution(n, zeros, True))
    channel = draw(channels(n, m, zeros=zeros))
    return Mechanism.central(channel, records=r, domain=k, prior=prior)


@st.composite
def graph_mechanisms(draw, max_inputs: int = 5, max_outputs: int = 3, zeros: bool = True,
                     connected: bool = True) -> Mechanism:
    """Central, explicit neighbours: a random *connected* graph (a spanning path plus extra edges).

    With ``connected=False`` the inputs are split into up to three groups, each joined by a
    path, and (half the time, when ``zeros``) one group gets zero prior everywhere: the
    mechanisms at the edge of the identifiability-to-DP relations' proved scope
    (:mod:`relations.catalogue._scopes`).
    """
    n = draw(_integers(2, max_inputs))
    order = draw(_permutations(n))
    groups = [list(order)]
    if not connected and n >= 2:
        cuts = sorted(set(draw(_cuts(n))))
        groups = [list(order[a:b]) for a, b in zip([0, *cuts], [*cuts, n])]
    edges = {tuple(sorted((g[i], g[i + 1]))) for g in groups for i in range(len(g) - 1)}
    extra = draw(_extra_edges(n))
    group_of = {x: i for i, g in enumerate(groups) for x in g}
    edges |= {tuple(sorted(e)) for e in extra if e[0] != e[1] and (connected or group_of[e[0]] == group_of[e[1]])}
    m = draw(_integers(2, max_outputs))
    prior = draw(_distribution(n, zeros, True))
    if zeros and len(groups) > 1 and draw(_BOOL):
        dead = draw(_integers(0, len(groups) - 1))
        kept = [0 if group_of[x] == dead else w for x, w in enumerate(prior)]
        if sum(kept) == 0:
            kept[groups[(dead + 1) % len(groups)][0]] = 1
        prior = [w / sum(kept) for w in kept]
    channel = draw(channels(n, m, zeros=zeros))
    return Mechanism.graph(channel, sorted(edges), prior=prior)


@st.composite
def product_mechanisms(draw, max_domain: int = 3, max_records: int = 6, max_outputs: int = 3,
                       zeros: bool = True) -> Mechanism:
    """Central product forms: each record through the same local channel, product or uniform prior."""
    k = draw(_integers(2, max_domain))
    r = draw(_integers(2, max_records))
    m = draw(_integers(2, max_outputs))
    w = draw(channels(k, m, zeros=zeros))
    if draw(_BOOL):
        prior: object = "uniform"
    else:
        prior = [draw(_distribution(k, zeros, True)) for _ in range(r)]
    return Mechanism.product(w, records=r, prior=prior)


def mechanisms(setting: str | None = None, zeros: bool = True):
    """Any mechanism (of one setting, if given)."""
    local = local_mechanisms(zeros=zeros)
    central = st.one_of(central_dense_mechanisms(zeros=zeros), graph_mechanisms(zeros=zeros),
                        product_mechanisms(zeros=zeros))
    if setting == "local":
        return local
    if setting == "central":
        return central
    return st.one_of(local, central)
