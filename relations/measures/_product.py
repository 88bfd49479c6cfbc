"""Product forms reduce to local computations.

Let ``W`` be a local channel (``k x m``) applied independently to each of ``r``
records, ``Q[x][y] = prod_j W[d_j][e_j]``, and let the prior be a product
``p(x) = prod_j p_j(d_j)`` (``"uniform"`` is the product of uniform ``p_j``).
Neighbours differ in one record ``j``; for them every factor but the ``j``-th
cancels, provided it is non-zero:

* ``Q[x][y] / Q[x'][y] = W[d_j][e_j] / W[d'_j][e_j]``;
* ``p(x)Q[x][y] / (p(x')Q[x'][y]) = p_j(d_j)W[d_j][e_j] / (p_j(d'_j)W[d'_j][e_j])``;
* ``p(x) / p(x') = p_j(d_j) / p_j(d'_j)``.

If a cancelling factor is zero the ratio is ``0/0`` and skipped, and the other
records can always be chosen to make every cancelling factor positive (a value
``d_i`` with ``p_i(d_i) > 0`` and an output ``e_i`` with ``W[d_i][e_i] > 0``
exist because ``p_i`` and the rows of ``W`` sum to 1).  Hence, with every pair
of distinct values of ``D`` neighbours in the local problem,

* ``eps_d^c = eps_d^l(W)`` (any ``r >= 1``);
* ``eps_i^c = max_j eps_i^l(p_j, W)``;
* ``sigma_min^c = min_j sigma_min^l(p_j)``;
* ``I(X;Y) = sum_j I(p_j, W)``, since the pairs ``(X_j, Y_j)`` are independent.

The witnesses are lifted back to datasets: the maximising record carries the
local witness, the others a fixed value with positive prior and an output it
reaches.  Nothing of size ``k^r`` is ever built: the cost is that of the
distinct local problems (identical factors are computed once).
"""

from __future__ import annotations

from fractions import Fraction
from typing import cast

import numpy as np

from relations.measures._dense import eps_d, eps_i, eps_m, nearest_value, sigma_min
from relations.measures._results import Budget, Measures, MutualInformation, Witness
from relations.model._distributions import Prior
from relations.model._mechanism import Mechanism
from relations.model._neighbours import LocalInputs
from relations.model._products import ProductChannel, ProductPrior
from relations.model._runs import Runs
from relations.numbers._enclosure import DEFAULT_BITS, Enclosure, sum_enclosures
from relations.numbers._logs import power_or_none

__all__ = ["factor_groups", "measure_product", "eps_all_product"]


def _local(mech: Mechanism, prior: Prior) -> Mechanism:
    assert isinstance(mech.channel, ProductChannel)
    domain = mech.inputs.domain  # type: ignore[union-attr]
    return Mechanism("local", prior, mech.channel.local, LocalInputs(tuple(domain)), mech.outputs, mech.exact)


def _filler(prior: Prior, channel) -> tuple[int, int]:
    """A value with positive prior and an output it reaches with positive probability."""
    d = int(prior.array.argmax())
    e = int(channel.array[d].argmax())
    return d, e


def _plain(runs: Runs) -> tuple[int, ...] | Runs:
    """Witnesses of at most ``SHORT_RECORDS`` records are plain tuples; longer ones stay run-length."""
    return runs.plain_if_short()


class _Fillers:
    """The filler dataset and outputs of a product form, as runs: one filler per distinct local prior."""

    def __init__(self, prior: ProductPrior, channel) -> None:
        distinct, which, counts = prior.run_index
        fill = np.array([_filler(f, channel) for f in distinct], dtype=np.int64).reshape(-1, 2)
        self.xs, self.ys = (_merged(fill[which, c], counts) for c in (0, 1))


def _merged(values: np.ndarray, counts: np.ndarray) -> Runs:
    """Runs of ``values[i]`` repeated ``counts[i]`` times, adjacent equal values merged (vectorised)."""
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    return Runs.trusted(values[starts].tolist(), np.add.reduceat(counts, starts).tolist())


def _lift(local: Budget, j: int, fillers: _Fillers) -> Budget:
    if local.witness is None:
        return local
    w = local.witness
    # a witness of the local mechanism: row and column indices
    x, xp = fillers.xs.replaced(j, int(cast(int, w.x))), fillers.xs.replaced(j, int(cast(int, w.x_prime)))
    y = None if w.y is None else _plain(fillers.ys.replaced(j, int(cast(int, w.y))))
    return Budget(local.name, local.value, local.exact, Witness(_plain(x), _plain(xp), y))


def factor_groups(prior: ProductPrior) -> dict[tuple[Fraction, ...] | bytes, tuple[int, int]]:
    """Records grouped by identical local prior, so that each distinct local problem is computed once.

    Parameters
    ----------
    prior : ProductPrior
        One local prior per record (``"uniform"`` gives identical factors: one group).

    Returns
    -------
    dict
        Maps each distinct local prior (its exact tuple, or the bytes of its float
        array in float mode) to ``(first record, number of records)`` that have it.
        The cost is that of the runs of :attr:`ProductPrior.factors`, not of ``r``.

    Examples
    --------
    >>> from relations import Mechanism
    >>> mech = Mechanism.product([["3/4", "1/4"], ["1/4", "3/4"]], records=3,
    ...                          prior=[["1/2", "1/2"], ["3/4", "1/4"], ["3/4", "1/4"]])
    >>> list(factor_groups(mech.prior).values())
    [(0, 1), (1, 2)]
    """
    # grouped by object first (a repeated factor is usually one object), then by integer pairs: hashing a
    # Fraction computes a modular inverse (r = 1e6: 9 s); totals and first records by numpy over the runs
    distinct, which, counts = prior.run_index
    totals = np.zeros(len(distinct), dtype=np.int64)
    np.add.at(totals, which, counts)
    starts = np.cumsum(counts) - counts
    firsts = np.full(len(distinct), np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(firsts, which, starts)
    groups: dict[tuple | bytes, list] = {}
    for f, first, total in zip(distinct, firsts.tolist(), totals.tolist()):
        key = tuple(v.as_integer_ratio() for v in f.exact) if f.exact is not None else f.array.tobytes()
        g = groups.setdefault(key, [f, first, 0])
        g[1], g[2] = min(g[1], first), g[2] + total
    return {(f.exact if isinstance(key, tuple) else key): (first, total) for key, (f, first, total) in groups.items()}


def measure_product(mech: Mechanism, *, bits: int | None = None) -> Measures:
    """The four quantities of a product-form mechanism via its local factors.

    Use :func:`~relations.measures.measure`, which dispatches here for product
    forms.  The reduction and the lifting of witnesses are in the module
    docstring; each local ``eps_m`` is enclosed ``r.bit_length() + 1`` bits more
    tightly, so that the sum is still at most ``2**-bits`` wide.

    Parameters
    ----------
    mech : Mechanism
        A product-form mechanism (:meth:`Mechanism.product
        <relations.model.Mechanism.product>`) with a product or uniform prior.
    bits : int, optional
        The enclosure of ``eps_m`` is at most ``2**-bits`` wide (default 100).

    Returns
    -------
    Measures
        Witnesses are tuples of per-record indices.

    Examples
    --------
    Binary randomized response with ratio 3 on records with priors
    ``(1/2, 1/2)``, ``(3/4, 1/4)``, ``(3/4, 1/4)``: ``eps_d = ln 3`` whatever the
    prior, ``eps_i = ln((3/4)(3/4) / ((1/4)(1/4))) = ln 9`` on a skewed record,
    and ``sigma_min = ln((1/4) / (3/4))``.

    >>> from relations import Mechanism
    >>> mech = Mechanism.product([["3/4", "1/4"], ["1/4", "3/4"]], records=3,
    ...                          prior=[["1/2", "1/2"], ["3/4", "1/4"], ["3/4", "1/4"]])
    >>> res = measure_product(mech)
    >>> str(res.eps_d.exact), str(res.eps_i.exact), res.eps_i.witness
    ('ln(3)', 'ln(9)', Witness(x=(0, 0, 0), x_prime=(0, 1, 0), y=(0, 0, 0)))
    >>> str(res.sigma_min.exact)
    'ln(1/3)'
    """
    channel = mech.channel
    assert isinstance(channel, ProductChannel)
    prior = mech.prior
    assert isinstance(prior, ProductPrior), "a product channel needs a product or uniform prior"
    r = channel.records
    groups = factor_groups(prior)
    fillers = _Fillers(prior, channel.local)

    bits = DEFAULT_BITS if bits is None else bits
    first_local = _local(mech, prior.factors[0])
    d = _lift(eps_d(first_local), 0, fillers)

    best_i: tuple[Budget, int] | None = None  # the best local budget and its record, lifted once at the end
    best_s: tuple[Budget, int] | None = None
    parts: list[tuple[MutualInformation, int]] = []
    extra = r.bit_length() + 1
    for j, count in groups.values():
        local = _local(mech, prior.factors[j])
        bi, bs = eps_i(local), sigma_min(local)
        if best_i is None or _greater(bi, best_i[0]):
            best_i = (bi, j)
        if best_s is None or _greater(best_s[0], bs):
            best_s = (bs, j)
        parts.append((eps_m(local, bits=bits + extra), count))
    assert best_i is not None and best_s is not None
    if mech.exact:
        enclosure = sum_enclosures((p.enclosure, c) for p, c in parts)  # type: ignore[misc]
        def finer(b: int) -> Enclosure:
            return sum_enclosures((eps_m(_local(mech, prior.factors[j]), bits=b + extra).enclosure, c)  # type: ignore[misc]
                                  for j, c in groups.values())

        mi = MutualInformation(nearest_value(enclosure, finer, bits), enclosure, bits)
    else:
        mi = MutualInformation(sum(p.value * c for p, c in parts), None)
    return Measures(_lift(*best_i, fillers), d, mi, _lift(*best_s, fillers), mech.exact, mech)


def _greater(a: Budget, b: Budget) -> bool:
    if a.exact is not None and b.exact is not None:
        return a.exact > b.exact
    return a.value > b.value


def eps_all_product(mech: Mechanism) -> Budget:
    """All-pairs DP budget of a product channel: ``r * eps_d^l(W)``.

    Two datasets differ in at most ``r`` records and the per-record ratios
    multiply, so the bound ``r * eps_d^l(W)`` is attained by repeating the local
    witness ``(d, d', e)`` in every record.  Use :func:`~relations.measures.eps_all`,
    which dispatches here for product forms.

    Parameters
    ----------
    mech : Mechanism
        A product-form mechanism.

    Returns
    -------
    Budget
        Named ``"eps_all"``: ``ln(q^r)`` for a local ``eps_d = ln(q)`` (infinite if
        that is), with per-record witnesses.  When ``q^r`` would have more than
        :data:`~relations.numbers._logs.MAX_POWER_BITS` bits, ``exact`` is ``None`` and
        the value is ``r`` times the exact local budget (checking uses the exact form
        ``r ln(q)``, :func:`~relations.checking._quantities.values`).

    Examples
    --------
    >>> from relations.mechanisms import product, randomized_response
    >>> b = eps_all_product(product(randomized_response(3), 3))
    >>> str(b.exact), b.witness
    ('ln(27)', Witness(x=(0, 0, 0), x_prime=(1, 1, 1), y=(0, 0, 0)))
    """
    channel = mech.channel
    assert isinstance(channel, ProductChannel)
    prior = mech.prior.factors[0] if isinstance(mech.prior, ProductPrior) else None
    local = eps_d(_local(mech, prior or Prior.uniform(channel.local.shape[0])))
    r = channel.records
    if local.witness is None:
        return Budget("eps_all", 0.0, local.exact, None)
    w = local.witness
    exact = None if local.exact is None else (
        local.exact if not local.exact.is_finite else power_or_none(cast(Fraction, local.exact.ratio), r))
    value = exact.value if exact is not None else local.value * r
    x, xp, y = (_plain(Runs.repeat(int(cast(int, v)), r)) for v in (w.x, w.x_prime, w.y))  # local indices
    return Budget("eps_all", value, exact, Witness(x, xp, y))
