"""Every notion of a stack of mechanisms at once: the search's inner loop, vectorised.

The optimising searches (:mod:`relations.search._optimiser`) evaluate a relation's
conclusion and bound at many float mechanisms of one shape: the members of a
dense family at the Nelder-Mead vertices, or k-RR on a grid of ratios.  Building
a :class:`~relations.model._mechanism.Mechanism` and measuring it costs about 2 ms
per point, almost all of it fixed overhead; :func:`dense_values` takes the channels
and priors as arrays of shape ``(B, n, m)`` and ``(B, n)`` and computes each notion
for the whole stack in a few numpy passes (the same formulas as
:func:`relations.search._families.float_values`, float64, no exact forms).

With ``A = Q[x]`` and ``C = Q[x']`` for the ordered neighbour pairs ``(x, x')``:

* ``eps_d = max ln(A_y / C_y)``, ``eps_i`` the same with ``p(x) Q[x][y]``,
  ``sigma_min = min ln(p(x) / p(x'))``, ``neg_sigma = -sigma_min``;
* ``eps_all = max_y ln(max_x Q[x][y] / min_x Q[x][y])`` (every pair of inputs);
* ``eps_m = sum p Q ln Q - sum p(y) ln p(y)``;
* ``kl``, ``renyi(a)``, ``rho = sup_{a>1} D_a / a``, ``delta(e)``, ``eps_delta(d)``: the
  maximum over the pairs of :func:`relations.measures._divergences.divergence` of ``(A, C)``; ``maximal_leakage``, ``min_entropy_leakage`` from
  :func:`relations.measures._notion_floats.leakages`.

Zeros follow the checker's conventions (``a/0 = inf``, ``0/0`` ignored).  Every
candidate a search reports is still re-checked by the exact checker.

Examples
--------
Binary randomized response with ratio 3 under a uniform prior, and a noiseless bit:

>>> import numpy as np
>>> q = np.array([[[0.75, 0.25], [0.25, 0.75]], [[1.0, 0.0], [0.0, 1.0]]])
>>> v = dense_values(q, np.full((2, 2), 0.5), np.array([[0, 1], [1, 0]]), ("kl", "rho"))
>>> np.round(v["eps_d"], 6), np.round(v["kl"], 6), np.round(v["eps_m"], 6)
(array([1.098612,      inf]), array([0.549306,      inf]), array([0.130812, 0.693147]))
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping

import numpy as np

from relations.measures._divergences import _pairs_kernel, parse, rho_for_max
from relations.notions import BASE_NOTIONS, NOTIONS, evaluator, names
from relations.numbers._batched import max_last, sum_last

__all__ = ["PAPER", "PRIOR_KINDS", "prior_values", "dense_values", "ordered_pairs", "space_pairs", "mechanism_values", "cmi_values"]

#: The notions :func:`dense_values` always computes.
PAPER = BASE_NOTIONS


def ordered_pairs(pairs: Iterable[tuple[int, int]]) -> np.ndarray:
    """Both orders of every unordered neighbour pair, as an ``(P, 2)`` integer array.

    Examples
    --------
    >>> ordered_pairs([(0, 1), (1, 2)]).tolist()
    [[0, 1], [1, 0], [1, 2], [2, 1]]
    """
    out = [q for i, j in pairs for q in ((i, j), (j, i))]
    return np.array(out, dtype=np.intp).reshape(-1, 2)


def _max_log_ratio(a: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``max ln(a / c)`` over the last two axes (pairs, outputs), ``a > 0`` entries only; 0 when none."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(a > 0, a / c, 0.0)  # a/0 = inf; the log of the largest ratio, as the checker's float scan
        if ratio.shape[-2] * ratio.shape[-1] == 0:
            return np.zeros(ratio.shape[:-2])
        return np.maximum(np.log(max_last(max_last(ratio))), 0.0)  # over the outputs, then the pairs




def dense_values(q: np.ndarray, p: np.ndarray, pairs: np.ndarray, extra: Iterable[str] = (), *,
                 divergence_pairs: np.ndarray | None = None,
                 only: Mapping[str, np.ndarray] | None = None,
                 paper: Iterable[str] | None = None) -> dict[str, np.ndarray]:
    """The notions of ``B`` float mechanisms of one shape, each an array of shape ``(B,)``.

    Parameters
    ----------
    q : numpy.ndarray
        Channels, shape ``(B, n, m)``, rows summing to 1.
    p : numpy.ndarray
        Priors, shape ``(B, n)``.
    pairs : numpy.ndarray
        Ordered neighbour pairs ``(x, x')``, shape ``(P, 2)`` (both orders: :func:`ordered_pairs`).
    extra : iterable of str, optional
        Conversion notions to compute besides :data:`PAPER` (``kl``, ``rho``, ``renyi(a)``,
        ``delta(e)``, ``eps_delta(d)``, ``maximal_leakage``, ``min_entropy_leakage``).
    divergence_pairs : numpy.ndarray, optional
        The pairs the divergence notions are maximised over (default ``pairs``); a symmetric family
        such as k-RR passes one representative pair.
    only : mapping of str to numpy.ndarray, optional
        For a notion of ``extra``: the indices of the mechanisms it is needed at; it is computed there
        only, and is NaN at the others (a batch that serves several relations).
    paper : iterable of str, optional
        The notions of :data:`PAPER` to compute (default: all of them); each is computed on its own, so
        its floats are the same whatever else is asked.

    Returns
    -------
    dict of str to numpy.ndarray

    Raises
    ------
    KeyError
        For an unknown notion in ``extra``.

    Examples
    --------
    >>> import numpy as np
    >>> q = np.array([[[0.5, 0.5], [0.25, 0.75]]])
    >>> v = dense_values(q, np.array([[0.75, 0.25]]), ordered_pairs([(0, 1)]), ("delta(0)", "maximal_leakage"))
    >>> float(np.round(v["eps_i"][0], 6)), float(np.round(v["sigma_min"][0], 6))  # ln(0.75*0.5/(0.25*0.25)), -ln 3
    (1.791759, -1.098612)
    >>> float(v["delta(0)"][0]), float(np.round(v["maximal_leakage"][0], 6))  # 1/4, ln(1/2 + 3/4)
    (0.25, 0.223144)
    >>> sorted(dense_values(q, np.array([[0.75, 0.25]]), ordered_pairs([(0, 1)]), ("kl",), paper=("eps_d",)))
    ['eps_d', 'kl']
    """
    q, p, extra = np.asarray(q, dtype=float), np.asarray(p, dtype=float), tuple(extra)
    want = frozenset(PAPER if paper is None else paper) | frozenset(extra).intersection(PAPER)
    i, j = pairs[:, 0], pairs[:, 1]
    joint = p[:, :, None] * q if want & {"eps_i", "eps_m"} else None
    out: dict[str, np.ndarray] = {}
    dp = pairs if divergence_pairs is None else divergence_pairs
    A, C = q[:, dp[:, 0], :], q[:, dp[:, 1], :]  # the divergences' rows (eps_d's too, for the same pairs)
    if "eps_d" in want:
        out["eps_d"] = _max_log_ratio(A, C) if dp is pairs else _max_log_ratio(q[:, i, :], q[:, j, :])
    if "eps_i" in want:
        assert joint is not None  # computed for it
        out["eps_i"] = _max_log_ratio(joint[:, i, :], joint[:, j, :])
    if want & {"sigma_min", "neg_sigma"}:
        out["sigma_min"] = -_max_log_ratio(p[:, i, None], p[:, j, None])
        out["neg_sigma"] = -out["sigma_min"]
    with np.errstate(divide="ignore", invalid="ignore"):
        if "eps_all" in want:
            hi, lo = q.max(axis=1), q.min(axis=1)
            spread = np.where(hi > 0, hi / lo, 1.0)
            out["eps_all"] = np.maximum(np.log(max_last(spread)), 0.0) if q.shape[1] > 1 else np.zeros(len(q))
        if "eps_m" in want:
            assert joint is not None  # computed for it
            qlogq = np.where(q > 0, q * np.log(np.where(q > 0, q, 1.0)), 0.0)
            py = joint.sum(axis=1)
            pylog = np.where(py > 0, py * np.log(np.where(py > 0, py, 1.0)), 0.0)
    if "eps_m" in want:
        out["eps_m"] = np.maximum(sum_last(p * sum_last(qlogq)) - sum_last(pylog), 0.0)
    caches: dict[bytes | None, dict] = {}  # per set of rows: the kl values rho reuses
    for name in extra:
        if name in out:
            continue
        rows = None if only is None or name not in only else np.asarray(only[name], dtype=int)
        if rows is None:
            out[name] = _extra_value(name, q, p, A, C, caches.setdefault(None, {}))
            continue
        out[name] = np.full(len(q), np.nan)
        if rows.size:
            out[name][rows] = _extra_value(name, q, p, A, C, caches.setdefault(rows.tobytes(), {}), rows)
    return out


#: The notions of the prior and the whole channel (not of neighbour pairs) with a float kernel, from the notion
#: table (``needs_prior``).
PRIOR_KINDS = names(lambda row: row.needs_prior and row.kernel is not None)


def prior_values(kind: str, arg, q: np.ndarray, p: np.ndarray) -> np.ndarray:
    """A leakage of channels ``(B, n, m)`` and priors ``(B, n)``, shape ``(B,)``: the float kernel the notion
    table names for them (``kernel``).

    Examples
    --------
    >>> import numpy as np
    >>> q, p = np.array([[[0.75, 0.25], [0.25, 0.75]]]), np.array([[0.75, 0.25]])
    >>> [round(float(prior_values(k, None, q, p)[0]), 6) for k in ("pml", "bayes_vulnerability", "bayes_leakage")]
    [0.693147, 0.75, 0.0]
    """
    def joint() -> np.ndarray:  # p(x) Q[x][y], for the kinds that read it
        return p[:, :, None] * q

    with np.errstate(divide="ignore", invalid="ignore"):
        if kind == "maximal_leakage":
            return np.log(np.where(p[:, :, None] > 0, q, 0.0).max(axis=1).sum(axis=-1))
        if kind == "min_entropy_leakage":
            return np.log(joint().max(axis=1).sum(axis=-1)) - np.log(p.max(axis=-1))
        if kind == "sibson":
            from relations.measures._sibson import sibson_float

            return sibson_float(p, q, float(arg))
        if kind == "pml":  # max over reached outputs of max_{p(x) > 0} Q[x][y] / p(y)
            py = joint().sum(axis=1)
            top = np.where(p[:, :, None] > 0, q, 0.0).max(axis=1)
            return np.log(np.where(py > 0, top / np.where(py > 0, py, 1.0), 0.0).max(axis=-1))
        if kind == "prior_vulnerability":
            return p.max(axis=-1)
        if kind == "bayes_vulnerability":
            return joint().max(axis=1).sum(axis=-1)
        if kind == "bayes_leakage":
            return np.maximum(0.0, joint().max(axis=1).sum(axis=-1) - p.max(axis=-1))
    raise KeyError(kind)


def _prior_kernel(kind: str):
    """The float kernel of notion ``kind`` of the prior and the whole channel, from the notion table."""
    if not NOTIONS[kind].needs_prior:
        raise KeyError(kind)
    return evaluator(kind, which="kernel")


def _extra_value(name: str, q: np.ndarray, p: np.ndarray, A: np.ndarray, C: np.ndarray,
                 cache: dict, rows: np.ndarray | None = None) -> np.ndarray:
    """One conversion notion of :func:`dense_values` at every mechanism of the batch given (at ``rows`` of it
    only, when given: the arrays the notion reads are taken there)."""
    kind, arg = parse(name)
    if kind in PRIOR_KINDS:
        if rows is not None:  # the rows' arrays, gathered once for the notions of the same rows (the cache's)
            q, p = cache["qp"] if "qp" in cache else cache.setdefault("qp", (q[rows], p[rows]))
        return _prior_kernel(kind)(kind, arg, q, p)
    if rows is not None:
        A, C = cache["AC"] if "AC" in cache else cache.setdefault("AC", (A[rows], C[rows]))
    if kind == "rho":  # only its maximum over the pairs is read: the pairs that cannot reach it are left out
        per_pair = rho_for_max(A, C, cache)
    else:
        per_pair = _pairs_kernel(kind)(kind, arg, A, C, cache)
    if not per_pair.shape[-1]:
        return np.zeros(per_pair.shape[:-1])
    return max_last(per_pair)


def cmi_values(q: np.ndarray, p: np.ndarray, structure: str, pairs: np.ndarray) -> np.ndarray:
    """``max_i I(X_i; Y | X_{-i})`` of a stack ``(B, n, m)`` under priors ``(B, n)``: ``I(X;Y)`` locally; on
    ``D^2`` (a product's expanded channel too) the two records' conditional informations (as the float of
    :func:`relations.measures._leakage.cmi`).  ``structure`` is ``"local"`` (``pairs``: the ordered neighbour
    pairs) or ``"D^2"`` (a product's expanded channel too).

    Examples
    --------
    >>> import numpy as np
    >>> q = np.array([[[0.75, 0.25], [0.25, 0.75]]])
    >>> np.round(cmi_values(q, np.full((1, 2), 0.5), "local", ordered_pairs([(0, 1)])), 6)  # I(X;Y) of binary RR
    array([0.130812])
    """
    if structure == "local":
        return dense_values(q, p, pairs)["eps_m"]
    B, n, m = q.shape
    best = np.zeros(B)
    for j in (0, 1):
        pp = p.reshape(B, 2**j, 2, -1)
        joint = pp[..., None] * q.reshape(B, 2**j, 2, -1, m)
        with np.errstate(divide="ignore", invalid="ignore"):
            marg = joint.sum(axis=2, keepdims=True) / np.maximum(pp.sum(axis=2, keepdims=True)[..., None], 1e-300)
            qq = q.reshape(joint.shape)
            terms = np.where(joint > 0, joint * (np.log(np.where(qq > 0, qq, 1.0)) - np.log(np.where(marg > 0, marg, 1.0))),
                             0.0)
        best = np.maximum(best, terms.sum(axis=(1, 2, 3, 4)))
    return best


def mechanism_values(mech, extra: Iterable[str] = ()) -> dict[str, float] | None:
    """:func:`dense_values` of one dense mechanism, from the float copy of its entries; ``None`` for a
    product form, or when the float copy is not *reliable* (its zero pattern differs from the exact
    entries', or an entry is subnormal), where float ratios could be infinite for finite exact ones.

    Parameters
    ----------
    mech : relations.model._mechanism.Mechanism
        Any mechanism.
    extra : iterable of str, optional
        Conversion notions, as for :func:`dense_values`.

    Returns
    -------
    dict of str to float or None

    Examples
    --------
    >>> from relations import Mechanism
    >>> v = mechanism_values(Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]]))
    >>> round(v["eps_d"], 6), round(v["eps_m"], 6)
    (1.098612, 0.130812)
    """
    from relations.model._distributions import Channel

    ch, prior = mech.channel, mech.prior
    if not isinstance(ch, Channel) or not ch.reliable or not getattr(prior, "reliable", False):
        return None
    vals = dense_values(np.asarray(ch.array)[None], np.asarray(prior.array)[None], space_pairs(mech.inputs), extra)
    return {k: float(v[0]) for k, v in vals.items()}


@functools.lru_cache(maxsize=256)
def space_pairs(space) -> np.ndarray:
    """:func:`ordered_pairs` of an input space's neighbour pairs, once per space (read-only).

    Examples
    --------
    >>> from relations.mechanisms import krr
    >>> space_pairs(krr(3, 2).inputs).tolist()  # 3-RR: every ordered pair of distinct inputs
    [[0, 1], [1, 0], [0, 2], [2, 0], [1, 2], [2, 1]]
    """
    out = ordered_pairs(space.pairs())
    out.setflags(write=False)
    return out
