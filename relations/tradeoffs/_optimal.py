"""Optimal mechanisms: least expected distortion under a privacy budget.

For a prior ``p`` over ``k`` values, a loss ``L`` (``k x k``) and a budget:

* **DP** (:func:`optimal_dp`) — minimise ``sum p(x) Q[x][y] L(x,y)`` over
  row-stochastic ``Q`` with ``Q[x][y] <= t Q[x'][y]`` for all neighbours
  (locally: all pairs), ``t = e^eps``: a linear program;
* **identifiability** (:func:`optimal_id`) — the same with
  ``p(x)Q[x][y] <= t p(x')Q[x'][y]``: also linear;
* **MI** (:func:`optimal_mi`) — minimise distortion subject to
  ``I(X;Y) <= eps``: the distortion-rate function, computed by Blahut-Arimoto
  (Blahut 1972) with a bisection on the slope ``s``; Blahut's upper and lower
  bounds on ``R(D)`` at the final iterate give the gap.

Both LPs are solved with scipy's HiGHS (dual simplex) on sparse constraint
matrices, each entry written as its column's minimum plus a bounded excess
(:func:`_lp`).  The float optimum is then made an *exact* mechanism
(:mod:`relations.tradeoffs._certify`): with a rational ``e^eps`` the optimal
vertex is recovered and certified by an exact dual; otherwise (or if that
fails) an exact mechanism within a rational ratio ``t <= e^eps`` is built from
it by rounding and clipping; as a last resort the rounded optimum is mixed with
a perfectly private channel (all rows equal) by the smallest ``lambda = 2^-j``
for which the exact checker confirms the budget (mixing with an all-rows-equal
channel never increases any of the three budgets' ratios nor ``I(X;Y)``, by
convexity).  The result records the LP value and the exact distortion of the
written mechanism.

Wang, Ying and Zhang (IEEE TIT 2016) compare these three privacy-distortion
functions; :func:`privacy_distortion_curves` tabulates them for one prior.

The inputs are checked before anything is solved (:mod:`relations.tradeoffs._inputs`):
a problem is one :class:`~relations.errors.InputError` naming ``--prior``, ``--eps`` or
``--loss``; a solver failure on a well-formed problem is a :class:`~relations.errors.SolverError`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from relations.errors import InputError, SolverError
from relations.model._distributions import Channel, Prior
from relations.model._mechanism import Mechanism
from relations.model._neighbours import LocalInputs
from relations.numbers._reals import Log, Rational, Real, compare
from relations.numbers._text import RationalLike
from relations.tradeoffs._inputs import (
    MAX_LOSS,
    MAX_LP_EPS,
    MAX_LP_PRIOR,
    MAX_MI_PRIOR,
    budget_of,
    exact_loss,
    loss_array,
    prior_of,
)
from relations.tradeoffs._utility import Loss

__all__ = ["MAX_LP_PRIOR", "MAX_MI_PRIOR", "MAX_LP_EPS", "MAX_LOSS", "Optimum", "optimal_dp", "optimal_id", "blahut_arimoto", "optimal_mi", "privacy_distortion_curves"]


@dataclass(frozen=True)
class Optimum:
    """An optimal mechanism: ``value`` is the solver's optimum (float), ``mechanism`` an exact
    mechanism within the budget, ``distortion`` its exact distortion, ``gap`` (MI) Blahut's bound gap."""

    notion: str
    budget: float
    value: float
    mechanism: Mechanism
    distortion: Fraction
    mixing: Fraction
    gap: float | None = None
    certified: bool = False  # mechanism and distortion are the exact optimum, proved by an exact dual


def _lp(prior: np.ndarray, loss: np.ndarray, t: float, identifiability: bool, *, duals: bool = False,
        tolerance: float | None = None):
    """Solve the DP / identifiability LP: ``(Q, optimum)``, and with ``duals`` also ``(a, l, d)``: HiGHS's
    marginals ``a`` of the row sums and the solution's column minima ``l`` and excesses ``d`` (for
    :func:`relations.tradeoffs._certify.certify`).

    With weights ``w(x)`` (1 for DP, ``p(x)`` for identifiability) the all-pairs constraints
    ``w(x)Q[x][y] <= t w(x')Q[x'][y]`` say, column by column, that ``v_y = (w(x)Q[x][y])_x`` lies between its
    minimum ``l_y`` and ``t l_y``.  Writing ``w(x)Q[x][y] = l_y + d[x][y]`` with ``0 <= d[x][y] <= (t-1) l_y``
    leaves ``km`` two-entry inequalities, ``k`` row sums and bounds, instead of ``k(k-1)m`` pairwise
    ratios (or ``2km + m`` inequalities with an upper and a lower envelope): dual simplex with devex pricing
    solves it at ``k = 256`` in about 1 s and at ``k = 1024`` in about 40 s (HiGHS's default pricing took
    twice as long; ``benchmarks/bench_optimal.py``)."""
    from scipy.optimize import linprog
    from scipy.sparse import csr_matrix, hstack, identity, kron

    k = len(prior)
    m = loss.shape[1]
    w = prior if identifiability else np.ones(k)
    scale = 1.0 / float(w.mean())  # row sums of mean 1 (identifiability's weights p(x) are ~1/k): HiGHS ~25% faster
    cost = prior[:, None] * loss / w[:, None] / scale  # per unit of scale * w(x) Q[x][y]
    size = float(np.abs(cost).max()) or 1.0
    cost = cost / size  # entries of at most 1: HiGHS's dual tolerance (1e-7) is absolute, tiny losses stalled it
    nd = k * m
    a_eq = hstack([kron(identity(k, format="csr"), np.ones((1, m))), csr_matrix(np.ones((k, m)))]).tocsr()
    a_ub = hstack([identity(nd, format="csr"), kron(np.ones((k, 1)), identity(m, format="csr") * -(t - 1.0))]).tocsr()
    c = np.concatenate([cost.ravel(), cost.sum(0)])
    # devex: 1.9x faster than HiGHS's default here
    options: dict[str, str | float] = {"simplex_dual_edge_weight_strategy": "devex"}
    if tolerance is not None:  # HiGHS's default 1e-7 can stop at a vertex that is not optimal by less than that
        options.update(dual_feasibility_tolerance=tolerance, primal_feasibility_tolerance=tolerance)
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(nd), A_eq=a_eq, b_eq=w * scale, bounds=(0, None), method="highs-ds",
                  options=options)
    if res.status == 2:
        raise InputError("the linear program is infeasible: no mechanism meets this budget for this prior")
    if res.status != 0:
        raise SolverError(f"the linear program (HiGHS) failed on this prior and budget: {res.message}")
    d = res.x[:nd].reshape(k, m) / scale
    low = res.x[nd:] / scale
    q = (d + low[None, :]) / w[:, None]
    if duals:
        return q, float(res.fun) * size, (np.asarray(res.eqlin.marginals) * scale * size, low, d)
    return q, float(res.fun) * size


def _exact_within(prior: Sequence[Fraction], q: np.ndarray, ok) -> tuple[Mechanism, Fraction]:
    """Round ``q`` to rationals (common denominator ``2^40`` per row, rows summing to 1 exactly) and mix
    with the all-rows-equal channel ``sum_x p(x) Q[x]`` by the smallest ``lambda = 2^-j`` (binary search
    on ``j``; more mixing is never less private) for which ``ok(mech)``."""
    den = 1 << 40
    rows = []
    for row in np.clip(q, 0.0, None):
        ints = np.floor(row / row.sum() * den).astype(np.int64)
        ints[int(np.argmax(row))] += den - int(ints.sum())
        rows.append([Fraction(int(v), den) for v in ints])
    m = len(rows[0])
    flat = [sum((Fraction(p) * r[y] for p, r in zip(prior, rows)), Fraction(0)) for y in range(m)]

    exact_prior = Prior.from_exact([Fraction(p) for p in prior])
    inputs = LocalInputs(tuple(map(str, range(len(prior)))))

    def build(lam: Fraction) -> Mechanism:  # rows sum to 1 exactly by construction
        mixed = rows if lam == 0 else [[(1 - lam) * v + lam * f for v, f in zip(r, flat)] for r in rows]
        return Mechanism("local", exact_prior, Channel.from_exact(mixed), inputs, tuple(map(str, range(m))))

    mech = build(Fraction(0))
    if ok(mech):
        return mech, Fraction(0)
    lo, hi = 0, 41  # 2^-lo mixing works (lo = 0: the constant channel), 2^-hi is "no mixing" (fails)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(build(Fraction(1, 2**mid))):
            lo = mid
        else:
            hi = mid
    lam = Fraction(1, 2**lo)
    return build(lam), lam


def _budget_ok(notion: str, bound: Real):
    """Exact test of the one budget that matters (not the whole check)."""
    from relations.measures._dense import eps_d, eps_i, eps_m
    from relations.numbers._reals import ArbExpr

    def ok(mech: Mechanism) -> bool:
        value: Real
        if notion == "mi":
            enc = eps_m(mech).enclosure
            assert enc is not None  # exact mode
            value = ArbExpr("I", float(enc.midpoint), lambda bits: (enc.lower, enc.upper))
        else:
            b = eps_d(mech) if notion == "dp" else eps_i(mech)
            assert b.exact is not None  # exact mode
            value = Log(b.exact)
        return compare(value, bound) in (-1, 0)
    return ok


def optimal_dp(prior: Sequence[RationalLike], eps: RationalLike, *, loss: Loss = "hamming") -> Optimum:
    """The least-distortion ``eps``-DP (local) mechanism.

    Parameters
    ----------
    prior : sequence of Fraction, int, float or str
        A distribution of 1 to :data:`MAX_LP_PRIOR` entries.
    eps : Fraction, int, float or str
        The budget: a number, decimal or fraction text, or ``"ln(RATIONAL)"``; ``0 <= eps <=`` :data:`MAX_LP_EPS`.
    loss : "hamming" or matrix, optional
        A ``k x k`` loss with entries in ``[-MAX_LOSS, MAX_LOSS]``.

    Returns
    -------
    Optimum
        An exact mechanism within the budget, with its exact distortion.

    Raises
    ------
    InputError
        For a prior, budget or loss outside these limits (the message names ``--prior``, ``--eps``, ``--loss``).

    Examples
    --------
    Binary randomized response with ratio 3 is optimal: distortion ``1/(1 + 3)``.

    >>> o = optimal_dp(["1/2", "1/2"], "ln(3)")
    >>> round(o.value, 9), abs(float(o.distortion) - 0.25) < 1e-9
    (0.25, True)
    """
    return _optimal_lp(prior, eps, loss, "dp")


def optimal_id(prior: Sequence[RationalLike], eps: RationalLike, *, loss: Loss = "hamming") -> Optimum:
    """The least-distortion ``eps``-identifiable (local) mechanism.

    Parameters
    ----------
    prior : sequence of Fraction, int, float or str
        A distribution of 1 to :data:`MAX_LP_PRIOR` positive entries.
    eps : Fraction, int, float or str
        As for :func:`optimal_dp`, and at least ``ln(max p / min p)`` (no mechanism exists below).
    loss : "hamming" or matrix, optional
        As for :func:`optimal_dp`.

    Returns
    -------
    Optimum
        As for :func:`optimal_dp`.

    Raises
    ------
    InputError
        For a prior, budget or loss outside these limits.
    """
    return _optimal_lp(prior, eps, loss, "id")


def _optimal_lp(prior, eps, loss, notion: str) -> Optimum:
    prior = prior_of(prior, notion)
    bound, e = budget_of(eps, notion, prior)
    p = np.array([float(v) for v in prior])
    lm = loss_array(loss, len(prior))
    q, value, solution = _lp(p, lm, math.exp(e), notion == "id", duals=True)
    from relations.tradeoffs._utility import expected_distortion

    exact = exact_loss(loss, len(prior))
    k = len(prior)
    exact_rows = 1 - np.eye(k, dtype=np.int64) if exact == "hamming" else exact  # integers: no Fraction per entry
    t = _rational_ratio(bound)

    def built(rows) -> Mechanism:
        return Mechanism("local", Prior.from_exact(list(prior)), Channel.from_exact(rows),
                         LocalInputs(tuple(map(str, range(k)))), tuple(map(str, range(k))))

    from relations.tradeoffs._certify import TIGHT_ENTRIES, TIGHT_TOLERANCE, certify, within_budget

    if t is not None:  # a rational LP: try the exact vertex, certified by an exact dual
        found = certify(prior, exact_rows, t, notion == "id", solution)
        if found is None and k * k <= TIGHT_ENTRIES:  # a vertex within HiGHS's tolerance of optimal: tighten it
            q2, value2, solution2 = _lp(p, lm, math.exp(e), notion == "id", duals=True, tolerance=TIGHT_TOLERANCE)
            found = certify(prior, exact_rows, t, notion == "id", solution2)
            if found is not None:
                q, value, solution = q2, value2, solution2
        if found is not None:
            return Optimum(notion, e, value, built(found[0]), found[1], Fraction(0), certified=True)
    below = t if t is not None else _rational_below(bound, e)
    found = within_budget(prior, exact_rows, below, notion == "id", solution)  # within ratio below <= e^eps
    if found is not None:
        return Optimum(notion, e, value, built(found[0]), found[1], Fraction(0))
    mech, lam = _exact_within(prior, q, _budget_ok(notion, bound))
    return Optimum(notion, e, value, mech, expected_distortion(mech, exact), lam)


def _rational_below(bound, e: float) -> Fraction:
    """A rational ``t <= e^eps``, proved by an exact comparison of ``ln(t)`` with the budget."""
    from relations.numbers._logs import LogRatio

    for slack in (1e-12, 1e-9, 1e-6):
        t = Fraction(math.exp(e) * (1 - slack))
        if t >= 1 and compare(Log(LogRatio.of(t)), bound) in (-1, 0):
            return t
    return Fraction(1)  # eps >= 0, so e^eps >= 1 (for eps below about 1e-12 nothing larger was proved)


def _rational_ratio(bound) -> Fraction | None:
    """``e^eps`` when it is rational (``eps = ln(q)`` or ``0``), else ``None``."""
    if isinstance(bound, Log) and bound.log.is_finite:
        return bound.log.ratio
    if isinstance(bound, Rational) and bound.value == 0:
        return Fraction(1)
    return None


# --------------------------------------------------------------------------- rate-distortion


def blahut_arimoto(p: np.ndarray, loss: np.ndarray, s: float, iters: int = 2000, tol: float = 1e-12):
    """Blahut's iteration at slope ``s``: returns ``(Q, D, R, R_lower, R_upper)`` in nats.

    ``R_upper`` and ``R_lower`` are Blahut's (1972, Thm 7) bounds on ``R(D)``
    at the distortion ``D`` of the final iterate; they meet at convergence.
    """
    k, m = loss.shape
    q = np.full(m, 1.0 / m)
    a = np.exp(-s * loss)  # k x m
    # the ufuncs called directly, into buffers (the same operations as ``a * q``, ``w.sum(axis=1)``,
    # ``q_new.sum()`` and ``np.max``, so the same numbers): the iteration runs thousands of times on small arrays
    multiply, add, maximum, absolute, subtract = np.multiply, np.add.reduce, np.maximum.reduce, np.abs, np.subtract
    w, cx, step = np.empty_like(a), np.empty(k), np.empty(m)
    for _ in range(iters):
        multiply(a, q, out=w)  # k x m
        add(w, axis=1, out=cx)
        c = (p / cx) @ a  # m
        q_new = q * c
        q_new /= add(q_new)
        done = maximum(absolute(subtract(q_new, q, out=step), out=step)) < tol
        q = q_new
        if done:
            break
    w = a * q
    cx = w.sum(axis=1)
    channel = w / cx[:, None]
    c = (p / cx) @ a
    d = float(np.sum(p[:, None] * channel * loss))
    base = -s * d - float(p @ np.log(cx))
    r_upper = base - float(np.sum(np.where(q > 0, q * np.log(np.where(c > 0, c, 1.0)), 0.0)))
    r_lower = base - float(np.log(c.max()))
    py = p @ channel
    with np.errstate(divide="ignore", invalid="ignore"):
        joint = p[:, None] * channel
        r = float(np.nansum(np.where(joint > 0, joint * np.log(channel / py[None, :]), 0.0)))
    return channel, d, r, r_lower, r_upper


def _rate_zero(p: np.ndarray, loss: np.ndarray):
    """The rate-0 optimum ``D_max = min_y sum_x p(x) L(x,y)`` as ``(Q, D, R, R_lower, R_upper)``: every
    input reported as the best constant output.  (Blahut's iteration at slope 0 stays at its uniform
    start, distortion the average column, e.g. ``1 - 1/k`` for Hamming: not the optimum.)"""
    cost = p @ loss
    y = int(np.argmin(cost))
    channel = np.zeros_like(loss)
    channel[:, y] = 1.0
    return channel, float(cost[y]), 0.0, 0.0, 0.0


def _distortion_rate(p: np.ndarray, lm: np.ndarray, target: float, iterations: int, tol: float = 0.0):
    """The least-distortion iterate with rate ``<= target``: bisection on Blahut's slope ``s`` (the rate
    grows with ``s``), starting from the rate-0 optimum; returns ``(Q, D, R, R_lower, R_upper)``."""
    lo, hi = 0.0, 1.0
    while blahut_arimoto(p, lm, hi)[2] < target and hi < 1e4:
        hi *= 2
    best = _rate_zero(p, lm)
    for _ in range(iterations):
        mid = (lo + hi) / 2
        res = blahut_arimoto(p, lm, mid)
        if res[2] <= target:
            lo = mid
            if res[1] <= best[1]:
                best = res
        else:
            hi = mid
        if hi - lo < tol:
            break
    return best


def optimal_mi(prior: Sequence[RationalLike], eps: RationalLike, *, loss: Loss = "hamming", tol: float = 1e-9) -> Optimum:
    """Least distortion subject to ``I(X;Y) <= eps``: Blahut-Arimoto with bisection on the slope.

    Parameters
    ----------
    prior : sequence of Fraction, int, float or str
        A distribution of 1 to :data:`MAX_MI_PRIOR` entries.
    eps : Fraction, int, float or str
        The budget in nats, ``>= 0``, as for :func:`optimal_dp` (no upper limit: from ``ln k`` on, the
        least-loss output for each input meets it).
    loss : "hamming" or matrix, optional
        As for :func:`optimal_dp`.
    tol : float, optional
        Stop the bisection on the slope when its bracket is narrower.

    Returns
    -------
    Optimum
        ``gap`` is Blahut's bound gap at the final iterate.

    Raises
    ------
    InputError
        For a prior, budget or loss outside these limits.
    """
    prior = prior_of(prior, "mi")
    bound, e = budget_of(eps, "mi", prior)
    p = np.array([float(v) for v in prior])
    lm = loss_array(loss, len(prior))
    shift = lm.min(axis=1, keepdims=True)  # per-row constants change no choice, and keep exp(-s L) from underflowing
    if e >= math.log(len(prior)):  # I(X;Y) <= H(X) <= ln k: the least-loss output for each input
        channel = np.zeros_like(lm)
        channel[np.arange(len(prior)), np.argmin(lm, axis=1)] = 1.0
        d, r_lower, r_upper = float(np.sum(p[:, None] * channel * lm)), 0.0, 0.0
    else:  # a margin below eps for rounding the channel to rationals
        channel, d, _, r_lower, r_upper = _distortion_rate(p, lm - shift, e * (1 - 1e-9), 100, tol)
        d += float(p @ shift[:, 0])
    mech, lam = _exact_within(prior, channel, _budget_ok("mi", bound))
    from relations.tradeoffs._utility import expected_distortion

    return Optimum("mi", e, d, mech, expected_distortion(mech, exact_loss(loss, len(prior))), lam,
                   gap=r_upper - r_lower)


def privacy_distortion_curves(prior: Sequence[RationalLike], budgets: Sequence[float], *, loss: Loss = "hamming") -> dict:
    """Least distortion under each notion at each budget (floats, for figures):
    ``{"eps": [...], "dp": [...], "id": [...], "mi": [...]}`` (``None`` where infeasible)."""
    pr = [Fraction(v) for v in prior]
    p = np.array([float(v) for v in pr])
    lm = loss_array(loss, len(pr))
    out: dict[str, list[float | None]] = {"eps": list(map(float, budgets)), "dp": [], "id": [], "mi": []}
    for e in budgets:
        out["dp"].append(_lp(p, lm, math.exp(e), False)[1])
        try:
            out["id"].append(_lp(p, lm, math.exp(e), True)[1])
        except InputError:
            out["id"].append(None)
        out["mi"].append(_distortion_rate(p, lm, e, 60)[1])
    return out
