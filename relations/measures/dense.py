"""The four quantities of a dense mechanism (local, ``D^r`` or an explicit graph), exactly and fast.

For neighbours ``x ~ x'`` (both orders) and outputs ``y``:

* ``eps_d     = max ln( Q[x][y] / Q[x'][y] )`` -- the smallest ``eps`` for
  which the mechanism is ``eps``-differentially private (Zheng et al. 2025,
  Def. 4/5, eq. (19)/(20));
* ``eps_i     = max ln( p(x)Q[x][y] / (p(x')Q[x'][y]) )`` -- the smallest
  identifiability budget: ``p(x|y) / p(x'|y)`` with ``p(y)`` cancelled
  (Def. 2/3, eq. (17)/(18));
* ``sigma_min = min ln( p(x) / p(x') )`` -- the prior constant (Def. 8/9);
* ``eps_m     = I(X;Y)`` -- mutual information in nats (Def. 6/7, eq. (7)/(8)).

The three ratio measures are one primitive, :func:`~relations.measures.ratios.max_log_ratio`,
applied to ``A = Q``, ``A = p(x)Q[x][y]`` and ``A = p`` (one column;
``sigma_min = -max ln(p(x)/p(x'))`` because the relation is symmetric).  Zeros and
infinities follow ``docs/semantics.md``.
"""

from __future__ import annotations

import numpy as np

from relations.measures.information import mutual_information, mutual_information_float
from relations.measures.ratios import _budget, max_log_ratio, scan_float
from relations.measures.results import Budget, Measures, MutualInformation
from relations.model.distributions import Channel, Prior
from relations.model.mechanism import Mechanism
from relations.model.neighbours import LocalInputs
from relations.numbers.enclosure import DEFAULT_BITS

__all__ = ["Joint", "eps_d", "eps_i", "sigma_min", "eps_m", "eps_all_dense", "measure_dense"]


class Joint:
    """The float joint ``p(x) Q[x][y]``, handed out by column blocks (never built whole)."""

    def __init__(self, prior: Prior, channel: Channel):
        self.p, self.q, self.m = prior.array[:, None], channel.array, channel.array.shape[1]

    def __call__(self, c0: int, c1: int) -> np.ndarray:
        return self.p * self.q[:, c0:c1]



def eps_d(mech: Mechanism) -> Budget:
    """``eps_d = max ln(Q[x][y] / Q[x'][y])`` over neighbours and outputs, exactly, with a witness.

    Parameters
    ----------
    mech : Mechanism
        A dense mechanism (local, ``D^r`` or graph).

    Returns
    -------
    Budget
        The smallest ``eps`` for which ``mech`` is ``eps``-differentially private.

    Examples
    --------
    >>> from relations.mechanisms import krr
    >>> b = eps_d(krr(4, 3))
    >>> str(b.exact), b.witness
    ('ln(3)', Witness(x=0, x_prime=1, y=0))
    """
    q = mech.channel
    entry = (lambda x, y: q.exact[x][y]) if q.exact is not None else None
    return _budget("eps_d", max_log_ratio(q.array, mech.inputs, entry, q.reliable))



def eps_i(mech: Mechanism) -> Budget:
    """``eps_i = max ln(p(x)Q[x][y] / (p(x')Q[x'][y]))`` over neighbours and outputs with ``p(y) > 0``.

    This is ``max ln(p(x|y) / p(x'|y))``: the identifiability budget (``p(y)`` cancels).

    Parameters
    ----------
    mech : Mechanism
        A dense mechanism.

    Returns
    -------
    Budget

    Examples
    --------
    >>> from relations.mechanisms import paper_example
    >>> str(eps_i(paper_example(["19/20", "1/20"])).exact)
    'ln(247/7)'
    """
    p, q = mech.prior, mech.channel
    joint = Joint(p, q)
    if q.exact is None or p.exact is None:
        return _budget("eps_i", max_log_ratio(joint, mech.inputs))
    j = joint(0, joint.m)
    product_nonzero = (p.array[:, None] != 0) & (q.array != 0)
    reliable = p.reliable and q.reliable and not np.any(product_nonzero & (j < np.finfo(np.float64).tiny))
    return _budget("eps_i", max_log_ratio(j, mech.inputs, lambda x, y: p.exact[x] * q.exact[x][y], reliable))



def sigma_min(mech: Mechanism) -> Budget:
    """``sigma_min = min ln(p(x) / p(x'))`` over neighbours: the prior constant, always ``<= 0``.

    Parameters
    ----------
    mech : Mechanism
        A dense mechanism.

    Returns
    -------
    Budget

    Examples
    --------
    >>> from relations.mechanisms import paper_example
    >>> str(sigma_min(paper_example(["19/20", "1/20"])).exact)
    'ln(1/19)'
    """
    p = mech.prior
    entry = (lambda x, y: p.exact[x]) if p.exact is not None else None
    return _budget("sigma_min", max_log_ratio(p.array[:, None], mech.inputs, entry, p.reliable), negate=True)



def eps_m(mech: Mechanism, *, bits: int = DEFAULT_BITS) -> MutualInformation:
    """``eps_m = I(X;Y)`` in nats: a certified enclosure of width ``<= 2**-bits`` (exact mode).

    Parameters
    ----------
    mech : Mechanism
        A dense mechanism.
    bits : int, optional
        Width of the enclosure at most ``2**-bits`` (default 100).

    Returns
    -------
    MutualInformation
        In float mode the float value only (``enclosure`` is None).

    Examples
    --------
    A noiseless bit under a uniform prior carries ``ln 2`` nats:

    >>> from relations import Mechanism
    >>> mi = eps_m(Mechanism.local([[1, 0], [0, 1]]))
    >>> mi.enclosure.decimal(6)
    ('0.693147', '0.693148')
    """
    p, q = mech.prior, mech.channel
    if q.exact is None or p.exact is None:
        return MutualInformation(mutual_information_float(p.array, q.array), None)
    enclosure = mutual_information(p.exact, q.exact, bits)
    return MutualInformation(enclosure.midpoint, enclosure, bits)


def eps_all_dense(mech: Mechanism) -> Budget:
    """DP budget over *every* pair of distinct inputs of a dense mechanism: the channel measured as if local."""
    every = LocalInputs(tuple(map(str, range(mech.channel.shape[0]))))
    q = mech.channel
    entry = (lambda x, y: q.exact[x][y]) if q.exact is not None else None
    return _budget("eps_all", max_log_ratio(q.array, every, entry, q.reliable))


def measure_dense(mech: Mechanism, bits: int = DEFAULT_BITS) -> Measures:
    """All four quantities of a dense mechanism.

    In float mode ``p(x)Q[x][y]`` is formed block by block, never as a whole matrix."""
    if not mech.exact:
        d, i = scan_float([mech.channel.array, Joint(mech.prior, mech.channel)], mech.inputs)
        return Measures(_budget("eps_i", i), _budget("eps_d", d), eps_m(mech, bits=bits), sigma_min(mech), False)
    return Measures(eps_i(mech), eps_d(mech), eps_m(mech, bits=bits), sigma_min(mech), mech.exact)
