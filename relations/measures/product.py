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

from relations.measures.dense import eps_d, eps_i, eps_m, sigma_min
from relations.measures.results import Budget, Measures, MutualInformation, Witness
from relations.model.distributions import Prior, ProductChannel, ProductPrior
from relations.model.mechanism import Mechanism
from relations.model.neighbours import LocalInputs
from relations.numbers.enclosure import DEFAULT_BITS, sum_enclosures
from relations.numbers.logs import LogRatio

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


def _lift(local: Budget, j: int, fillers: list[tuple[int, int]]) -> Budget:
    if local.witness is None:
        return local
    w = local.witness
    xs = [f[0] for f in fillers]
    ys = [f[1] for f in fillers]
    x, xp = list(xs), list(xs)
    x[j], xp[j] = int(w.x), int(w.x_prime)
    y = None
    if w.y is not None:
        ys[j] = int(w.y)
        y = tuple(ys)
    return Budget(local.name, local.value, local.exact, Witness(tuple(x), tuple(xp), y))


def factor_groups(prior: ProductPrior) -> dict[tuple[Fraction, ...] | bytes, list[int]]:
    """Records grouped by identical local prior, so that each distinct local problem is computed once.

    Parameters
    ----------
    prior : ProductPrior
        One local prior per record (``"uniform"`` gives identical factors: one group).

    Returns
    -------
    dict
        Maps each distinct local prior (its exact tuple, or the bytes of its float
        array in float mode) to the indices of the records that have it, in
        record order.

    Examples
    --------
    >>> from relations import Mechanism
    >>> mech = Mechanism.product([["3/4", "1/4"], ["1/4", "3/4"]], records=3,
    ...                          prior=[["1/2", "1/2"], ["3/4", "1/4"], ["3/4", "1/4"]])
    >>> list(factor_groups(mech.prior).values())
    [[0], [1, 2]]
    """
    # grouped by object first (a repeated factor is usually one object) and by integer pairs, then keyed
    # by the exact tuple once per group: hashing a Fraction computes a modular inverse (r = 1e6: 9 s)
    groups: dict[object, list[int]] = {}
    firsts: dict[object, Prior] = {}
    by_object: dict[int, list[int]] = {}
    for j, f in enumerate(prior.factors):
        members = by_object.get(id(f))
        if members is None:
            key = tuple(v.as_integer_ratio() for v in f.exact) if f.exact is not None else f.array.tobytes()
            members = by_object[id(f)] = groups.setdefault(key, [])
            firsts.setdefault(key, f)
        members.append(j)
    return {(firsts[key].exact if isinstance(key, tuple) else key): members for key, members in groups.items()}


def measure_product(mech: Mechanism, *, bits: int = DEFAULT_BITS) -> Measures:
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
    fillers: list = [None] * len(prior.factors)  # one filler per distinct local prior
    for members in groups.values():
        filler = _filler(prior.factors[members[0]], channel.local)
        for j in members:
            fillers[j] = filler

    first_local = _local(mech, prior.factors[0])
    d = _lift(eps_d(first_local), 0, fillers)

    best_i: Budget | None = None
    best_s: Budget | None = None
    parts: list[tuple[MutualInformation, int]] = []
    extra = r.bit_length() + 1
    for members in groups.values():
        j = members[0]
        local = _local(mech, prior.factors[j])
        bi, bs = eps_i(local), sigma_min(local)
        if best_i is None or _greater(bi, best_i):
            best_i = _lift(bi, j, fillers)
        if best_s is None or _greater(best_s, bs):
            best_s = _lift(bs, j, fillers)
        parts.append((eps_m(local, bits=bits + extra), len(members)))
    assert best_i is not None and best_s is not None
    if mech.exact:
        enclosure = sum_enclosures((p.enclosure, c) for p, c in parts)  # type: ignore[misc]
        mi = MutualInformation(enclosure.midpoint, enclosure, bits)
    else:
        mi = MutualInformation(sum(p.value * c for p, c in parts), None)
    return Measures(best_i, d, mi, best_s, mech.exact, mech)


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
        that is), with per-record witness tuples.

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
        local.exact if not local.exact.is_finite else LogRatio.of(local.exact.ratio**r))
    value = exact.value if exact is not None else local.value * r
    return Budget("eps_all", value, exact, Witness((int(w.x),) * r, (int(w.x_prime),) * r, (int(w.y),) * r))
