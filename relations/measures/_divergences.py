"""The divergence notions of row pairs in floats, for the searches: one vectorised implementation.

For ordered pairs of rows ``A = Q[x]``, ``C = Q[x']`` stacked in arrays of shape ``(..., m)``:

* ``kl``: ``D(A || C) = sum_y A_y ln(A_y / C_y)``;
* ``renyi(a)``: ``D_a(A || C) = ln(sum_y A_y^a C_y^(1-a)) / (a - 1)`` for ``a > 1`` [1]_, and for
  ``0 < a < 1`` over the outputs both rows reach;
* ``hellinger``: ``H^2(A, C) = (1/2) sum_y (sqrt A_y - sqrt C_y)^2``;
* ``rho``: ``sup_{a > 1} D_a(A || C) / a`` (zero-concentrated DP [2]_), on a log-spaced grid of orders
  refined twice around its best point, and at least the KL divergence (the limit ``a -> 1``);
* ``delta(e)``: ``sum_y max(0, A_y - e^e C_y)`` (the privacy profile);
* ``eps_delta(d)``: the least ``eps >= 0`` with ``delta(eps) <= d``.

A pair where ``A`` puts mass on an output that ``C`` does not has infinite ``kl``, ``renyi`` (order
above 1) and ``rho``; ``renyi`` below order 1 is infinite only for disjoint supports.  :func:`relations.measures._batch.dense_values` (stacks of mechanisms) and
:func:`relations.measures._notion_floats.notion_float` (one mechanism) both read these functions, so
the float screen and the optimising searches agree to the last bit.  These are floats that steer
searches; every candidate is re-checked by the exact checker.

References
----------
.. [1] T. van Erven and P. Harremos, "Renyi divergence and Kullback-Leibler divergence", IEEE
   Trans. Inf. Theory 60(7), 2014. doi:10.1109/TIT.2014.2320500
.. [2] M. Bun and T. Steinke, "Concentrated differential privacy: simplifications, extensions,
   and lower bounds", TCC 2016. doi:10.1007/978-3-662-53641-4_24

Examples
--------
>>> import numpy as np
>>> P, Q = np.array([0.75, 0.25]), np.array([0.25, 0.75])
>>> round(pair_value("kl", P, Q), 6), round(pair_value("renyi(2)", P, Q), 6)  # ln 3 tanh(ln 3 / 2), ln(7/3)
(0.549306, 0.847298)
>>> round(pair_value("delta(0)", P, Q), 6), round(pair_value("eps_delta(1/2)", P, Q), 6)
(0.5, 0.0)
>>> divergence("kl", np.array([P, Q]), np.array([Q, [1.0, 0.0]])).round(6).tolist()  # per pair
[0.549306, inf]
"""

from __future__ import annotations

import functools
import math
import re
from fractions import Fraction

import numpy as np

from relations.notions import NOTIONS, evaluator, names
from relations.numbers._batched import any_last, gathered, max_last, sum_last

__all__ = ["KINDS", "parse", "divergence", "pair_value", "rho_pair", "pair_kernel", "rho_for_max"]

#: The notions of neighbours' rows with a float kernel (the name before any argument), from the notion table:
#: the divergences and profiles.
KINDS = names(lambda row: row.kernel is not None and not row.needs_prior)

_CALL = re.compile(r"^(\w+)\(([^()]+)\)$")
_LN_CALL = re.compile(r"^(\w+)\(ln\(([^()]+)\)\)$")


@functools.lru_cache(maxsize=1024)  # the searches parse the same few names at every evaluation
def parse(name: str) -> tuple[str, Fraction | None]:
    """``("renyi", 2)`` for ``"renyi(2)"``; ``("kl", None)`` for ``"kl"``.

    Examples
    --------
    ``delta(ln(q))``'s argument is the float nearest ``ln q`` (as a ``Fraction``): these floats only screen
    candidates, which are then decided exactly.

    >>> parse("eps_delta(1/100000)"), parse("rho"), float(parse("delta(ln(3))")[1]) == math.log(3)
    (('eps_delta', Fraction(1, 100000)), ('rho', None), True)
    """
    ln = _LN_CALL.match(name)
    if ln:
        q = Fraction(ln.group(2))
        return ln.group(1), Fraction(math.log(q.numerator) - math.log(q.denominator))
    m = _CALL.match(name)
    return (m.group(1), Fraction(m.group(2))) if m else (name, None)


def divergence(name: str, A: np.ndarray, C: np.ndarray, *, cache: dict | None = None) -> np.ndarray:
    """A divergence notion of every ordered pair of rows ``(A[..., :], C[..., :])``.

    Parameters
    ----------
    name : str
        ``kl``, ``rho``, ``renyi(a)`` (``a > 1``), ``delta(e)`` or ``eps_delta(d)``.
    A, C : numpy.ndarray
        The rows ``Q[x]`` and ``Q[x']``, the same shape ``(..., m)``, float64.
    cache : dict, optional
        Shared between calls on the same ``A`` and ``C``: the log-ratios and the KL divergences.

    Returns
    -------
    numpy.ndarray
        Shape ``A.shape[:-1]``; ``inf`` where the notion is infinite.

    Raises
    ------
    KeyError
        For a name that is not a divergence notion.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[0.5, 0.5], [0.75, 0.25]])
    >>> divergence("delta(0)", A, np.full((2, 2), 0.5)).tolist()  # sum of the positive parts of A - C
    [0.0, 0.25]
    """
    kind, arg = parse(name)
    A, C = np.asarray(A, dtype=float), np.asarray(C, dtype=float)
    return _pairs_kernel(kind)(kind, arg, A, C, {} if cache is None else cache)


def _pairs_kernel(kind: str):
    """The float kernel of notion ``kind`` of neighbours' rows, from the notion table (KeyError for another)."""
    row = NOTIONS[kind]
    if row.needs_prior or row.kernel is None:
        raise KeyError(kind)
    return evaluator(kind, which="kernel")


def pair_value(name: str, P: np.ndarray, Q: np.ndarray) -> float:
    """:func:`divergence` of one ordered pair of rows ``(P, Q)``.

    Parameters
    ----------
    name : str
        ``kl``, ``rho``, ``renyi(a)``, ``delta(e)`` or ``eps_delta(d)``.
    P, Q : numpy.ndarray
        The rows ``Q[x]`` and ``Q[x']``.

    Returns
    -------
    float

    Raises
    ------
    KeyError
        For a name that is not a divergence notion.

    Examples
    --------
    >>> import numpy as np
    >>> round(pair_value("renyi(2)", np.array([1.0, 0.0]), np.array([0.5, 0.5])), 6)  # ln(1 / (1/2))
    0.693147
    """
    return float(divergence(name, np.asarray(P, dtype=float)[None], np.asarray(Q, dtype=float)[None])[0])


def rho_pair(P: np.ndarray, Q: np.ndarray) -> float:
    """``sup_{a > 1} D_a(P || Q) / a`` of one pair: :func:`pair_value` of ``rho``.

    Examples
    --------
    >>> import numpy as np
    >>> round(rho_pair(np.array([0.75, 0.25]), np.array([0.25, 0.75])), 5)  # binary RR: its KL
    0.54931
    """
    return pair_value("rho", P, Q)


def _log_ratio(a: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``ln(a/c)`` entrywise, through ``log1p((a - c)/c)`` where the ratio is near 1 (``a - c`` is exact
    there, so the relative accuracy near ``a = c`` is kept); 0 where ``a = 0`` or ``c = 0`` (the callers
    mask those)."""
    both = (a > 0) & (c > 0)
    a, c = np.where(both, a, 1.0), np.where(both, c, 1.0)
    r = a / c
    return np.where(np.abs(r - 1) < 0.5, np.log1p((a - c) / c), np.log(r))


def _renyi(a: float | np.ndarray, A: np.ndarray, lr: np.ndarray, support: np.ndarray) -> np.ndarray:
    """``D_a(A || C)`` for orders ``a > 1`` broadcast against ``A.shape[:-1]`` (finite pairs only):
    :func:`_renyi_orders` at one order per pair."""
    lr, parts = _renyi_parts(A, lr, support)
    return _renyi_orders(np.asarray(a)[..., None], lr, parts)[..., 0]


def _renyi_parts(A: np.ndarray, lr: np.ndarray, support: np.ndarray
                 ) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """What :func:`_renyi_orders` needs of the pairs whatever the order: ``lr`` (0 off the support), and
    ``ln A`` (``-inf`` off the support), ``A`` (0 off it) and ``max |lr|``."""
    if support.all():  # every entry on the support (the dense families' channels): the masks are identities
        # (the logarithm of a contiguous array, as of the masked copy: numpy's kernel for it is the same)
        return lr, (np.log(np.ascontiguousarray(A)), A, max_last(np.abs(lr), initial=0.0))
    with np.errstate(divide="ignore"):
        log_a = np.where(support, np.log(np.where(support, A, 1.0)), -np.inf)
    lr = np.where(support, lr, 0.0)
    return lr, (log_a, np.where(support, A, 0.0), max_last(np.abs(lr), initial=0.0))


#: The orders of :func:`_rho`'s first grid, and the points of each refined grid between its best order's neighbours.
_RHO_GRID = 1 + np.logspace(-4, 3, 36)
_RHO_STEP = np.linspace(0.0, 1.0, 13)
_NEIGHBOURS = np.array([-1, 0, 1])


def _rho(A: np.ndarray, lr: np.ndarray, support: np.ndarray, kl: np.ndarray) -> np.ndarray:
    """``sup_{a>1} D_a / a``: the log-spaced grid of :func:`rho_pair`, refined
    twice around each pair's best order, then one parabolic step through the best point and its
    neighbours; at least the KL divergence (the limit ``a -> 1``).  The orders of a grid are evaluated
    together (:func:`_renyi_orders`)."""
    shape = A.shape[:-1]
    lr, parts = _renyi_parts(A, lr, support)
    n = math.prod(shape)
    rows = np.arange(n)[:, None]
    grid = _RHO_GRID  # every pair's first grid (broadcast against the pairs)
    best = kl
    for step in range(3):
        vals = (_renyi_orders(grid, lr, parts) / grid).reshape(n, -1)
        g = grid.shape[-1]
        best = np.maximum(best, vals.max(axis=-1).reshape(shape))
        near = np.minimum(np.maximum(vals.argmax(axis=-1)[:, None] + _NEIGHBOURS, 0), g - 1)
        # the best order and its neighbours, per pair (the first grid is every pair's: no copy of it)
        x = _RHO_GRID[near] if step == 0 else grid.reshape(n, g)[rows, near]
        if step < 2:
            grid = (x[:, :1] + (x[:, 2:] - x[:, :1]) * _RHO_STEP).reshape(shape + _RHO_STEP.shape)
    x, y = x.reshape(shape + (3,)), vals[rows, near].reshape(shape + (3,))
    # last, the vertex of the parabola through the best point and its neighbours (clamped to them)
    d0, d2 = x[..., 0] - x[..., 1], x[..., 2] - x[..., 1]
    e0, e2 = y[..., 0] - y[..., 1], y[..., 2] - y[..., 1]
    den = d0 * e2 - d2 * e0
    with np.errstate(divide="ignore", invalid="ignore"):
        v = x[..., 1] + 0.5 * (d0 * d0 * e2 - d2 * d2 * e0) / den
    v = np.where(np.isfinite(v) & (den != 0), np.clip(v, x[..., 0], x[..., 2]), x[..., 1])
    at = _renyi_orders(v[..., None], lr, parts)[..., 0] / v
    return np.maximum(best, np.where(np.isfinite(at), at, -np.inf))


def _renyi_orders(a: np.ndarray, lr: np.ndarray, parts: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    """``D_a(A || C)`` at orders ``a > 1`` of shape ``A.shape[:-1] + (G,)`` (or broadcasting to it: orders shared by
    the pairs), each pair at its own ``G`` orders; ``lr`` and ``parts`` from :func:`_renyi_parts`.  Near ``a = 1``
    (``|(a - 1) lr| < 1/2`` on the support) the sum is ``log1p(sum A expm1(t))``, else a log-sum-exp.

    Each branch is computed over the whole grid and the one that applies is kept (no gathers), and with
    fewer than 8 outputs one output at a time: numpy's reductions over so short a last axis cost far more
    than the arithmetic, and summing the outputs left to right is what ``sum(axis=-1)`` does below 8 terms,
    so the values are those of the reductions to the last bit (tests/test_divergences.py)."""
    log_a, a0, top_lr = parts
    m = lr.shape[-1]
    am1 = a - 1
    small = am1 * top_lr[..., None] < 0.5
    if m >= 8:  # numpy sums 8 terms and more pairwise: keep its reductions
        t = am1[..., None] * lr[..., None, :]
        cols = None
    else:
        cols = [am1 * lr[..., y, None] for y in range(m)]
    near = np.count_nonzero(small)
    out = np.empty(small.shape) if small.size == 0 else None
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # the branch not used may overflow
        if near < small.size:  # a log-sum-exp
            if cols is None:
                M = log_a[..., None, :] + t
                top = M.max(axis=-1)
                total = np.exp(M - top[..., None]).sum(axis=-1)
            else:
                Ms = [log_a[..., y, None] + cols[y] for y in range(m)]
                top = functools.reduce(np.maximum, Ms)
                total = functools.reduce(np.add, [np.exp(M - top) for M in Ms])
            out = top + np.log(total)
        if near:  # near a = 1: log1p(sum A expm1(t))
            if cols is None:
                total = (a0[..., None, :] * np.expm1(t)).sum(axis=-1)
            else:
                total = functools.reduce(np.add, [a0[..., y, None] * np.expm1(cols[y]) for y in range(m)])
            out = np.log1p(total) if out is None else np.where(small, np.log1p(total), out)
    assert out is not None
    return np.maximum(0.0, out / am1)


def _renyi_below_one(a: float, A: np.ndarray, C: np.ndarray, lr: np.ndarray) -> np.ndarray:
    """``D_a(A || C)`` for ``0 < a < 1``: ``ln(sum_{A_y, C_y > 0} A_y^a C_y^(1-a)) / (a - 1)``; ``inf`` for disjoint
    supports.  With ``b = a - 1`` and ``t = ln(A/C)`` the sum is ``1 + x``,
    ``x = sum A (expm1(b t) + b expm1(-t)) - b sum (C - A) - (A's mass off C's support)`` over the joint support
    (``A expm1(-t) = C - A``, and ``sum (C - A)`` there is the difference of the masses off it): the first-order
    terms cancel exactly, so near ``A = C`` (a divergence of order
    ``t^2``) the value keeps its relative accuracy."""
    from relations.measures._sibson import _excess

    both = (A > 0) & (C > 0)
    b = a - 1
    t = np.where(both, lr, 0.0)
    a_off, c_off = np.where(both, 0.0, A).sum(axis=-1), np.where(both, 0.0, C).sum(axis=-1)
    # sum over the joint support of C - A is a_off - c_off for rows summing to 1 (exactly 0 for equal supports,
    # where the floats' rounding of the row sums would otherwise dominate a divergence of order t^2)
    x = np.where(both, A * _excess(-b, -t), 0.0).sum(axis=-1) - b * (a_off - c_off) - a_off
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log1p(np.maximum(x, -1.0)) / b
    return np.where(both.any(axis=-1), np.maximum(0.0, out), np.inf)


def _eps_delta(A: np.ndarray, C: np.ndarray, d: float) -> np.ndarray:
    """The least ``eps >= 0`` with ``sum_y max(0, A - e^eps C) <= d``, per pair: on the segment where the outputs of the ``j``
    largest ratios are the positive terms, ``e^eps = (A_S - d) / C_S``."""
    reached, positive = A > 0, C > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(reached, np.where(positive, A / np.where(positive, C, 1.0), np.inf), -np.inf)
        order = np.argsort(-r, axis=-1, kind="stable")
        rs = gathered(r, order)
        above = np.cumsum(gathered(A, order), axis=-1) - d
        qs = np.cumsum(gathered(np.where(reached, C, 0.0), order), axis=-1)
        nxt = np.zeros(rs.shape)  # the next ratio: 0 after the last, and for -inf (the ratios are -inf, inf or >= 0)
        np.maximum(rs[..., 1:], 0.0, out=nxt[..., :-1])
        e = above / qs
        ok = (rs > -np.inf) & (qs > 0) & (above > 0) & (nxt <= e) & (e <= rs)
        first, hit = ok.argmax(axis=-1), ok.any(axis=-1)
        found = gathered(e, first[..., None])[..., 0]
        out = np.where(hit, np.maximum(0.0, np.log(np.where(hit, found, 1.0))), np.inf)
    return np.where(np.maximum(0.0, A - C).sum(axis=-1) <= d, 0.0, out)


#: :func:`rho_for_max` leaves out a pair only when its bound is below every kept pair's value by this much (relative,
#: then absolute): the floats of ``rho`` stay far within it of the true values, so the maximum is the same float.
_PRUNE_RELATIVE, _PRUNE_ABSOLUTE = 1e-3, 1e-9
#: :func:`rho_for_max` bounds only pairs of rows whose float sums are within this of 1: ``D_a`` of rows summing to
#: ``1 + s`` may exceed ``max ln(A/C)`` by ``ln(1 + s) / (a - 1)``, below ``1e-10`` at :func:`_rho`'s least order
#: ``1 + 1e-4`` (a sum of ``m`` floats summing to 1 is off by ``m`` units of ``2^-53`` at most).
_PRUNE_SUMS = 1e-14


def rho_for_max(A: np.ndarray, C: np.ndarray, cache: dict) -> np.ndarray:
    """``rho`` of the pairs ``(A, C)`` as :func:`pair_kernel` computes it, but ``-inf`` for pairs that cannot reach the
    maximum over the last axis of pairs (their mechanism): its maximum over that axis is :func:`pair_kernel`'s to the
    last bit, for a fraction of the work.

    A pair's ``rho`` is at most ``max_y ln(A_y / C_y)`` over ``A``'s support (``D_a <= D_inf`` and ``a > 1``), and at
    most ``eps^2 / 2`` when ``|ln(A_y / C_y)| <= eps`` on every output (pure ``eps``-DP pairs are ``eps^2 / 2``-zCDP:
    Bun and Steinke 2016, Proposition 1.4), for rows summing to 1 (:data:`_PRUNE_SUMS`); each pair's computed
    ``rho`` is at least its KL divergence (:func:`_rho` starts from it).  So a pair whose bound lies below the largest
    KL divergence of its mechanism (with a margin far wider than the floats' errors) is left out, and every other is
    computed as before (each pair's floats are its own: the same whatever pairs are computed with it).

    Parameters
    ----------
    A, C : numpy.ndarray
        The rows ``Q[x]`` and ``Q[x']`` of each mechanism's pairs, shape ``(..., P, m)``, float64.
    cache : dict
        As for :func:`pair_kernel` (the log-ratios and the KL divergences, shared with the other notions).

    Returns
    -------
    numpy.ndarray
        Shape ``(..., P)``: each pair's ``rho``, or ``-inf`` for a pair left out.

    Examples
    --------
    >>> A = np.array([[[0.5, 0.5], [0.75, 0.25], [0.99, 0.01]]])
    >>> C = np.array([[[0.5, 0.5], [0.25, 0.75], [0.01, 0.99]]])
    >>> full, pruned = pair_kernel("rho", None, A, C, {}), rho_for_max(A, C, {})
    >>> bool(full.max() == pruned.max()), pruned[0, :2].tolist()  # the first two pairs cannot be the largest
    (True, [-inf, -inf])
    """
    kl = pair_kernel("kl", None, A, C, cache)
    lr, support, broken = cache["lr"], cache["support"], cache["broken"]
    if A.ndim < 2 or A.shape[-2] < 2 or broken.any() or not A.size:
        return pair_kernel("rho", None, A, C, cache)
    with np.errstate(over="ignore", invalid="ignore"):
        top = max_last(np.where(support, lr, -np.inf))  # max ln(A/C), at least 0 for probability rows
        eps = max_last(np.abs(np.where(support, lr, 0.0)), initial=0.0)
        two_sided = ~any_last(~support | (C <= 0))  # both rows positive on every output
        bound = np.where(two_sided, np.minimum(top, eps * eps / 2), top)
        # rows summing to 1 (the bounds are those of distributions; a sum above 1 would lift D_a near a = 1), and
        # a NaN anywhere compares False: those pairs are kept
        normal = (np.abs(sum_last(A) - 1.0) <= _PRUNE_SUMS) & (np.abs(sum_last(C) - 1.0) <= _PRUNE_SUMS)
        left_out = normal & (bound * (1 + _PRUNE_RELATIVE) + _PRUNE_ABSOLUTE < max_last(kl)[..., None])
    if not left_out.any():
        return _rho(A, lr, support, kl)
    keep = ~left_out
    out = np.full(kl.shape, -np.inf)
    out[keep] = _rho(A[keep], lr[keep], support[keep], kl[keep])
    return out


def pair_kernel(kind: str, arg, A: np.ndarray, C: np.ndarray, cache: dict) -> np.ndarray:
    """One divergence or profile notion per pair, shape ``A.shape[:-1]``: the float kernel the notion table names
    for them (``kernel``).

    Examples
    --------
    >>> import numpy as np
    >>> pair_kernel("tv", None, np.array([[0.75, 0.25]]), np.array([[0.25, 0.75]]), {}).tolist()
    [0.5]
    """
    if kind == "hellinger":  # (1/2) sum_y (sqrt A_y - sqrt C_y)^2 = 1 - sum_y sqrt(A_y C_y), without cancellation
        d = np.sqrt(np.maximum(A, 0.0)) - np.sqrt(np.maximum(C, 0.0))
        return np.minimum(1.0, 0.5 * (d * d).sum(axis=-1))
    if kind in ("delta", "tv"):  # tv is delta(0)
        return np.maximum(0.0, A - (1.0 if kind == "tv" else np.exp(float(arg))) * C).sum(axis=-1)
    if kind == "eps_delta":
        return _eps_delta(A, C, float(arg))
    if kind == "gdp_mu":  # the least Gaussian-DP mu of the pair's trade-off curve
        from relations.measures._tradeoff import gdp_mu_pairs

        return gdp_mu_pairs(A, C)
    # the kinds above read neither the log-ratios nor the supports (computed once per cache)
    if "lr" not in cache:
        support = A > 0
        # A puts mass where C has none: infinite divergences
        cache["lr"], cache["support"], cache["broken"] = _log_ratio(A, C), support, any_last(support & (C == 0))
    lr, support, broken = cache["lr"], cache["support"], cache["broken"]
    if kind in ("kl", "rho") and "kl" not in cache:
        cache["kl"] = np.where(broken, np.inf, np.maximum(0.0, sum_last(np.where(support, A * lr, 0.0))))
    if kind == "kl":
        return cache["kl"]
    if kind == "chi2":  # sum_y P_y^2 / R_y - 1, infinite where P puts mass outside R's support
        return np.where(broken, np.inf, np.where(support, A * A / np.where(C > 0, C, 1.0), 0.0).sum(axis=-1) - 1.0)
    if kind == "rho" and not broken.any():  # the stand-ins below would change nothing
        return _rho(A, lr, support, cache["kl"])
    if kind == "rho":  # broken pairs get harmless finite stand-ins, then inf
        return np.where(broken, np.inf, _rho(np.where(broken[..., None], 1.0, A), np.where(broken[..., None], 0.0, lr),
                                             support | broken[..., None], np.where(broken, 0.0, cache["kl"])))
    if kind == "renyi" and arg < 1:  # below order 1: outputs both rows reach, finite unless the supports are disjoint
        return _renyi_below_one(float(arg), A, C, lr)
    if kind == "renyi":
        return np.where(broken, np.inf, _renyi(float(arg), A, lr, support))
    raise KeyError(kind)
