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

The three ratio measures are one primitive, :func:`~relations.measures._ratios.max_log_ratio`,
applied to ``A = Q``, ``A = p(x)Q[x][y]`` and ``A = p`` (one column;
``sigma_min = -max ln(p(x)/p(x'))`` because the relation is symmetric).  Zeros and
infinities follow ``docs/semantics.md``.
"""

from __future__ import annotations

import weakref
from fractions import Fraction
from typing import cast

import numpy as np

from relations.measures._certified_floats import mutual_information_floats
from relations.measures._information import mutual_information, mutual_information_float
from relations.measures._ratios import _budget, distinct_codes, max_log_ratio, ranked, scan_float
from relations.measures._results import Budget, Measures, MutualInformation
from relations.model._distributions import Channel, Prior
from relations.model._indexed import IndexedRows
from relations.model._mechanism import Mechanism
from relations.model._neighbours import LocalInputs
from relations.model._scaled import ScaledRows
from relations.numbers._enclosure import DEFAULT_BITS, Enclosure
from relations.numbers._floatlog import UNIT

__all__ = ["nearest_value", "Joint", "eps_d", "eps_i", "sigma_min", "eps_m", "FLOAT_CERTIFIED_ENTRIES", "width_bits", "eps_all_dense", "measure_dense"]


class Joint:
    """The float joint ``p(x) Q[x][y]``, handed out by column blocks.

    An instance is a column-block function for
    :func:`~relations.measures._ratios.max_log_ratio` and
    :func:`~relations.measures._ratios.scan_float`, so that a float-mode scan never
    holds a second matrix of the channel's size (exact-mode :func:`eps_i` takes
    all columns at once, to detect entries that underflow).

    Parameters
    ----------
    prior : Prior
        The prior ``p`` (its float copy is used).
    channel : Channel
        The channel ``Q`` (its float copy is used).

    Attributes
    ----------
    p : numpy.ndarray
        The prior as a column, shape ``(n, 1)``.
    q : numpy.ndarray
        The channel, shape ``(n, m)``.
    m : int
        The number of columns (outputs).

    Examples
    --------
    >>> from relations.mechanisms import paper_example
    >>> mech = paper_example(["19/20", "1/20"])
    >>> joint = Joint(mech.prior, mech.channel)
    >>> joint.m, joint(0, 2).round(4).tolist()
    (2, [[0.6175, 0.3325], [0.0175, 0.0325]])
    """

    def __init__(self, prior: Prior, channel: Channel) -> None:
        self.p, self.q, self.m = prior.array[:, None], channel.array, channel.array.shape[1]

    def __call__(self, c0: int, c1: int) -> np.ndarray:
        """The columns ``c0:c1`` of the joint: a fresh ``(n, c1 - c0)`` float64 array."""
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
        The smallest ``eps`` for which ``mech`` is ``eps``-differentially private,
        named ``"eps_d"``, with its exact form (``None`` in float mode) and witness.

    References
    ----------
    .. [1] Dwork, Roth. The Algorithmic Foundations of Differential Privacy.
       Foundations and Trends in Theoretical Computer Science 9(3-4), 2014, Definition 2.4.
       doi:10.1561/0400000042
    .. [2] Zheng, Huang, Wang, Li, Xu, Li. Relations Between Several Classical Privacy Notions.
       Acta Electronica Sinica 53(10), 2025. Defs. 4-5.

    Examples
    --------
    >>> from relations.mechanisms import krr
    >>> b = eps_d(krr(4, 3))
    >>> str(b.exact), b.witness
    ('ln(3)', Witness(x=0, x_prime=1, y=0))
    """
    q = cast(Channel, mech.channel)  # dense
    rows = q.exact
    entry = (lambda x, y: rows[x][y]) if rows is not None else None
    return _budget("eps_d", max_log_ratio(q.array, mech.inputs, entry=entry, reliable=q.reliable,
                                          ranks=lambda: _ranks(q)))



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
        The smallest ``eps`` for which ``mech`` is ``eps``-identifiable, named
        ``"eps_i"``, with its exact form (``None`` in float mode) and witness.

    References
    ----------
    .. [1] Zheng, Huang, Wang, Li, Xu, Li. Relations Between Several Classical Privacy Notions.
       Acta Electronica Sinica 53(10), 2025. Defs. 2-3.

    Examples
    --------
    The paper's Section 5 example: ``(19/20)(13/20) / ((1/20)(7/20)) = 247/7``.

    >>> from relations.mechanisms import paper_example
    >>> str(eps_i(paper_example(["19/20", "1/20"])).exact)
    'ln(247/7)'
    """
    p, q = cast(Prior, mech.prior), cast(Channel, mech.channel)  # dense
    joint = Joint(p, q)
    if q.exact is None or p.exact is None:
        return _budget("eps_i", max_log_ratio(joint, mech.inputs))
    j = joint(0, joint.m)
    product_nonzero = (p.array[:, None] != 0) & (q.array != 0)
    reliable = p.reliable and q.reliable and not np.any(product_nonzero & (j < np.finfo(np.float64).tiny))
    prior, rows = p.exact, q.exact
    products: dict[tuple[int, int], tuple[Fraction, Fraction, Fraction]] = {}

    def entry(x: int, y: int) -> Fraction:
        # one product per pair of objects: equal entries of a column are then one object, which the exact
        # re-check compares once (:func:`~relations.measures._ratios.extremes`); the factors are kept with
        # the product, so that their ids are not reused while the table lives
        a, b = prior[x], rows[x][y]
        got = products.get((id(a), id(b)))
        if got is None:
            got = products[id(a), id(b)] = (a, b, a * b)
        return got[2]
    return _budget("eps_i", max_log_ratio(j, mech.inputs, entry=entry, reliable=reliable,
                                          ranks=lambda: _joint_ranks(prior, q)))


_RANKS: weakref.WeakKeyDictionary[Channel, tuple[np.ndarray, list]] = weakref.WeakKeyDictionary()


def _ranks(q: Channel) -> tuple[np.ndarray, list]:
    """:func:`~relations.measures._ratios.ranked` of an exact channel (from its floats for :class:`ScaledRows`),
    computed once per channel: ``eps_d`` and ``eps_i`` of a tied channel both need them."""
    got = _RANKS.get(q)
    if got is None:
        rows = q.exact
        assert rows is not None  # exact channels only
        got = _RANKS[q] = rows.ranks() if isinstance(rows, (ScaledRows, IndexedRows)) else ranked(rows)
    return got


def _joint_ranks(p, q: Channel) -> tuple[np.ndarray, list]:
    """The ranks of ``p(x) Q[x][y]`` from those of ``p`` and ``Q``: each distinct pair multiplied once."""
    p_ranks, p_values = ranked([[v] for v in p])
    q_ranks, q_values = _ranks(q)
    codes = p_ranks * len(q_values) + q_ranks
    pairs, inverse = distinct_codes([codes], len(p_values) * len(q_values), inverse=True)
    products = [p_values[c // len(q_values)] * q_values[c % len(q_values)] for c in pairs.tolist()]
    values = sorted(set(products))
    rank = {v: i for i, v in enumerate(values)}
    return np.array([rank[v] for v in products], dtype=np.int64)[inverse], values



def sigma_min(mech: Mechanism) -> Budget:
    """``sigma_min = min ln(p(x) / p(x'))`` over neighbours: the prior constant, always ``<= 0``.

    Parameters
    ----------
    mech : Mechanism
        A dense mechanism; only its prior and its neighbour relation enter, not its channel.

    Returns
    -------
    Budget
        Named ``"sigma_min"``; its witness ``(x, x', None)`` has ``p(x)/p(x')``
        minimal.  ``0`` when the prior is equal across every neighbour pair,
        ``-inf`` when a zero prior entry neighbours a positive one.

    Examples
    --------
    >>> from relations.mechanisms import paper_example
    >>> str(sigma_min(paper_example(["19/20", "1/20"])).exact)
    'ln(1/19)'
    """
    p = cast(Prior, mech.prior)  # dense
    prior = p.exact
    entry = (lambda x, y: prior[x]) if prior is not None else None
    ranks = (lambda: ranked([[v] for v in prior])) if prior is not None else None  # used with entry only
    return _budget("sigma_min", max_log_ratio(p.array[:, None], mech.inputs, entry=entry, reliable=p.reliable,
                                              ranks=ranks), negate=True)



def eps_m(mech: Mechanism, *, bits: int | None = None) -> MutualInformation:
    """``eps_m = I(X;Y)`` in nats: a certified enclosure of width ``<= 2**-bits`` (exact mode).

    An exact channel of at least :data:`FLOAT_CERTIFIED_ENTRIES` entries, with ``bits`` not given,
    gets the enclosure of :func:`~relations.measures._certified_floats.mutual_information_floats`
    (error-bounded float arithmetic on the float copies, about ``2**-44`` wide; ``bits`` then
    records the width reached).  Otherwise ball arithmetic reaches ``2**-bits`` (default 100).

    Parameters
    ----------
    mech : Mechanism
        A dense mechanism.
    bits : int, optional
        Width of the enclosure at most ``2**-bits`` (default: see above).

    Returns
    -------
    MutualInformation
        In float mode the float value only (``enclosure`` is None).

    References
    ----------
    .. [1] Zheng, Huang, Wang, Li, Xu, Li. Relations Between Several Classical Privacy Notions.
       Acta Electronica Sinica 53(10), 2025. Defs. 6-7.

    Examples
    --------
    A noiseless bit under a uniform prior carries ``ln 2`` nats:

    >>> from relations import Mechanism
    >>> mi = eps_m(Mechanism.local([[1, 0], [0, 1]]))
    >>> mi.enclosure.decimal(6)
    ('0.693147', '0.693148')
    """
    p, q = cast(Prior, mech.prior), cast(Channel, mech.channel)  # dense
    if q.exact is None or p.exact is None:
        return MutualInformation(mutual_information_float(p.array, q.array), None)
    if bits is None:
        if q.array.size >= FLOAT_CERTIFIED_ENTRIES and p.reliable and q.reliable:
            fast = mutual_information_floats(p.array, q.array, rho_p=UNIT, rho_q=q.float_error)
            if fast is not None:  # its nearest double when it determines one; finer costs a ball pass
                return MutualInformation(fast.midpoint if fast.nearest is None else fast.nearest, fast,
                                         width_bits(fast))
        bits = DEFAULT_BITS
    enclosure = mutual_information(p.exact, q.exact, bits)
    return MutualInformation(nearest_value(enclosure, lambda b: mutual_information(p.exact, q.exact, b), bits),
                             enclosure, bits)


def nearest_value(enclosure: Enclosure, finer, bits: int) -> float:
    """The float nearest the number ``enclosure`` contains, asking ``finer(bits)`` for narrower enclosures
    when it does not determine it (up to 4096 bits; then its midpoint).

    Examples
    --------
    >>> from fractions import Fraction
    >>> third = lambda b: Enclosure(Fraction(1, 3) - Fraction(1, 2**b), Fraction(1, 3) + Fraction(1, 2**b))
    >>> nearest_value(third(40), third, 40)
    0.3333333333333333
    """
    value = enclosure.nearest
    while value is None and bits < 4096:
        bits *= 2
        value = finer(bits).nearest
    return enclosure.midpoint if value is None else value


#: Exact channels with at least this many entries get ``eps_m`` from certified float arithmetic by
#: default (:func:`eps_m`); ball arithmetic costs a logarithm per distinct entry (about 2.5 us).
FLOAT_CERTIFIED_ENTRIES = 1 << 18


def width_bits(e: Enclosure) -> int:
    """The largest ``b`` with ``e.width <= 2**-b`` (at most 100000; 0 for widths of 1 or more).

    Examples
    --------
    >>> from fractions import Fraction
    >>> width_bits(Enclosure(Fraction(0), Fraction(3, 2**45)))
    43
    """
    w = e.width
    if w == 0:
        return 100000
    if w >= 1:
        return 0
    b = (w.denominator // w.numerator).bit_length() - 1  # 2^b <= 1/w < 2^(b+1), up to flooring
    while Fraction(1, 2 ** (b + 1)) >= w:
        b += 1
    while b > 0 and Fraction(1, 2**b) < w:
        b -= 1
    return b


def eps_all_dense(mech: Mechanism) -> Budget:
    """DP budget over every pair of distinct inputs of a dense mechanism: the channel measured as if local.

    Use :func:`~relations.measures.eps_all`, which also handles product forms.

    Parameters
    ----------
    mech : Mechanism
        A dense mechanism; its neighbour structure is ignored.

    Returns
    -------
    Budget
        Named ``"eps_all"``, with exact form and witness.

    Examples
    --------
    Two records over ``{a, b}``: changing one record moves the output
    probability by a factor of at most 2, changing both by 3, within the group
    privacy bound ``diam * eps_d = 2 ln 2``.

    >>> from relations import Mechanism
    >>> mech = Mechanism.central([["3/4", "1/4"], ["1/2", "1/2"], ["1/2", "1/2"], ["1/4", "3/4"]],
    ...                          records=2, domain=["a", "b"])
    >>> str(eps_d(mech).exact), str(eps_all_dense(mech).exact), eps_all_dense(mech).witness
    ('ln(2)', 'ln(3)', Witness(x=0, x_prime=3, y=0))
    """
    q = cast(Channel, mech.channel)  # dense
    every = LocalInputs(tuple(map(str, range(q.shape[0]))))
    rows = q.exact
    entry = (lambda x, y: rows[x][y]) if rows is not None else None
    return _budget("eps_all", max_log_ratio(q.array, every, entry=entry, reliable=q.reliable,
                                            ranks=lambda: _ranks(q)))


def measure_dense(mech: Mechanism, *, bits: int | None = None) -> Measures:
    """All four quantities of a dense mechanism.

    Use :func:`~relations.measures.measure`, which also handles product forms.  In
    float mode ``eps_d`` and ``eps_i`` come from one float scan
    (:func:`~relations.measures._ratios.scan_float`) in which ``p(x)Q[x][y]`` is
    formed block by block, never as a whole matrix.

    Parameters
    ----------
    mech : Mechanism
        A dense mechanism (local, ``D^r`` or graph).
    bits : int, optional
        The enclosure of ``eps_m`` is at most ``2**-bits`` wide (default: :func:`eps_m`).

    Returns
    -------
    Measures
        ``exact`` is False in float mode (no exact forms, no enclosure).

    Examples
    --------
    A float channel in float mode (the default for arrays of more than
    :data:`~relations.model.MAX_EXACT_FLOAT_ENTRIES` entries):

    >>> import numpy as np
    >>> from relations import Mechanism
    >>> from relations.model import Channel
    >>> res = measure_dense(Mechanism.local(Channel.of(np.array([[0.75, 0.25], [0.25, 0.75]]), exact=False)))
    >>> res.exact, res.eps_d.exact, round(res.eps_d.value, 6), res.eps_m.enclosure
    (False, None, 1.098612, None)
    """
    if not mech.exact:
        p, q = cast(Prior, mech.prior), cast(Channel, mech.channel)  # dense
        d, i = scan_float([q.array, Joint(p, q)], mech.inputs)
        return Measures(_budget("eps_i", i), _budget("eps_d", d), eps_m(mech, bits=bits), sigma_min(mech), False, mech)
    return Measures(eps_i(mech), eps_d(mech), eps_m(mech, bits=bits), sigma_min(mech), mech.exact, mech)
