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

Both LPs are solved with scipy's HiGHS on sparse constraint matrices.  The float
optimum is then made an *exact* mechanism: rounded to rationals, rows summed to
1 exactly, and mixed with a perfectly private channel (all rows equal) by the
smallest ``lambda = 2^-j`` for which the exact checker confirms the budget
(mixing with an all-rows-equal channel never increases any of the three
budgets' ratios nor ``I(X;Y)``, by convexity).  The result records the LP value
and the exact distortion of the written mechanism.

Wang, Ying and Zhang (IEEE TIT 2016) compare these three privacy-distortion
functions; :func:`privacy_distortion_curves` tabulates them for one prior.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from relations.errors import InputError
from relations.model.distributions import Channel, Prior
from relations.model.mechanism import Mechanism
from relations.model.neighbours import LocalInputs
from relations.numbers.text import RationalLike
from relations.tradeoffs.utility import Loss

__all__ = ["Optimum", "optimal_dp", "optimal_id", "blahut_arimoto", "optimal_mi", "privacy_distortion_curves"]


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


def _loss(loss, k: int) -> np.ndarray:
    if isinstance(loss, str):
        if loss != "hamming":
            raise InputError(f"unknown loss {loss!r}")
        return 1.0 - np.eye(k)
    arr = np.array([[float(Fraction(v)) for v in row] for row in loss])
    if arr.shape != (k, k):
        raise InputError(f"loss must be {k} x {k}")
    return arr


def _lp(prior: np.ndarray, loss: np.ndarray, t: float, identifiability: bool) -> tuple[np.ndarray, float]:
    """Solve the DP / identifiability LP.  All-pairs constraints ``w(x)Q[x][y] <= t w(x')Q[x'][y]``
    are equivalent, column by column, to ``l_y <= w(x)Q[x][y] <= u_y`` and ``u_y <= t l_y`` (the max over
    ``x`` is at most ``t`` times the min), so ``2km + m`` constraints replace ``k(k-1)m``."""
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    k = len(prior)
    m = loss.shape[1]
    nq = k * m
    idx = np.arange(nq).reshape(k, m)
    u = nq + np.arange(m)
    low = nq + m + np.arange(m)
    wx = prior if identifiability else np.ones(k)
    rows, cols, vals = [], [], []
    r = 0
    for x in range(k):
        for y in range(m):
            rows += [r, r, r + 1, r + 1]  # w Q - u <= 0 ; l - w Q <= 0
            cols += [idx[x, y], u[y], low[y], idx[x, y]]
            vals += [wx[x], -1.0, 1.0, -wx[x]]
            r += 2
    for y in range(m):  # u - t l <= 0
        rows += [r, r]
        cols += [u[y], low[y]]
        vals += [1.0, -t]
        r += 1
    nvar = nq + 2 * m
    a_ub = coo_matrix((vals, (rows, cols)), shape=(r, nvar)).tocsr()
    a_eq = coo_matrix((np.ones(nq), (np.repeat(np.arange(k), m), idx.ravel())), shape=(k, nvar)).tocsr()
    c = np.concatenate([(prior[:, None] * loss).ravel(), np.zeros(2 * m)])
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(r), A_eq=a_eq, b_eq=np.ones(k), bounds=(0, None), method="highs")
    if res.status != 0:
        raise InputError(f"the linear program failed: {res.message}")
    return res.x[:nq].reshape(k, m), float(res.fun)


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


def _budget_ok(notion: str, eps):
    """Exact test of the one budget that matters (not the whole check)."""
    from relations.checking.claims import parse_claim
    from relations.measures.dense import eps_d, eps_i, eps_m
    from relations.numbers.reals import ArbExpr, Log, compare

    bound = parse_claim(f"eps_d<={eps}").bound

    def ok(mech: Mechanism) -> bool:
        if notion == "mi":
            enc = eps_m(mech).enclosure
            value = ArbExpr("I", float(enc.midpoint), lambda bits: (enc.lower, enc.upper))
        else:
            b = eps_d(mech) if notion == "dp" else eps_i(mech)
            value = Log(b.exact)
        return compare(value, bound) in (-1, 0)
    return ok


def _eps_value(eps) -> tuple[str, float]:
    """``eps`` as claim text (``ln(3)``, ``0.5``) and float."""
    from relations.checking.claims import parse_claim

    text = str(eps).strip()
    bound = parse_claim(f"eps_d<={text}").bound
    return text, float(bound)


def optimal_dp(prior: Sequence[RationalLike], eps: RationalLike, *, loss: Loss = "hamming") -> Optimum:
    """The least-distortion ``eps``-DP (local) mechanism."""
    return _optimal_lp(prior, eps, loss, "dp")


def optimal_id(prior: Sequence[RationalLike], eps: RationalLike, *, loss: Loss = "hamming") -> Optimum:
    """The least-distortion ``eps``-identifiable (local) mechanism."""
    return _optimal_lp(prior, eps, loss, "id")


def _optimal_lp(prior, eps, loss, notion: str) -> Optimum:
    prior = [Fraction(v) for v in prior]
    text, e = _eps_value(eps)
    p = np.array([float(v) for v in prior])
    lm = _loss(loss, len(prior))
    q, value = _lp(p, lm, math.exp(e), notion == "id")
    mech, lam = _exact_within(prior, q, _budget_ok(notion, text))
    from relations.tradeoffs.utility import expected_distortion

    return Optimum(notion, e, value, mech, expected_distortion(mech, _exact_loss(loss, len(prior))), lam)


def _exact_loss(loss, k: int):
    return loss if isinstance(loss, str) else [[Fraction(v) for v in row] for row in loss]


# --------------------------------------------------------------------------- rate-distortion


def blahut_arimoto(p: np.ndarray, loss: np.ndarray, s: float, iters: int = 2000, tol: float = 1e-12):
    """Blahut's iteration at slope ``s``: returns ``(Q, D, R, R_lower, R_upper)`` in nats.

    ``R_upper`` and ``R_lower`` are Blahut's (1972, Thm 7) bounds on ``R(D)``
    at the distortion ``D`` of the final iterate; they meet at convergence.
    """
    k, m = loss.shape
    q = np.full(m, 1.0 / m)
    a = np.exp(-s * loss)  # k x m
    for _ in range(iters):
        w = a * q  # k x m
        cx = w.sum(axis=1)
        channel = w / cx[:, None]
        c = (p / cx) @ a  # m
        q_new = q * c
        q_new /= q_new.sum()
        done = np.max(np.abs(q_new - q)) < tol
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
    """Least distortion subject to ``I(X;Y) <= eps``: Blahut-Arimoto with bisection on the slope."""
    prior = [Fraction(v) for v in prior]
    text, e = _eps_value(eps)
    p = np.array([float(v) for v in prior])
    lm = _loss(loss, len(prior))
    # a margin below eps for rounding the channel to rationals
    channel, d, r, r_lower, r_upper = _distortion_rate(p, lm, e * (1 - 1e-9), 100, tol)
    mech, lam = _exact_within(prior, channel, _budget_ok("mi", text))
    from relations.tradeoffs.utility import expected_distortion

    return Optimum("mi", e, d, mech, expected_distortion(mech, _exact_loss(loss, len(prior))), lam,
                   gap=r_upper - r_lower)


def privacy_distortion_curves(prior: Sequence[RationalLike], budgets: Sequence[float], *, loss: Loss = "hamming") -> dict:
    """Least distortion under each notion at each budget (floats, for figures):
    ``{"eps": [...], "dp": [...], "id": [...], "mi": [...]}`` (``None`` where infeasible)."""
    pr = [Fraction(v) for v in prior]
    p = np.array([float(v) for v in pr])
    lm = _loss(loss, len(pr))
    out = {"eps": list(map(float, budgets)), "dp": [], "id": [], "mi": []}
    for e in budgets:
        out["dp"].append(_lp(p, lm, math.exp(e), False)[1])
        try:
            out["id"].append(_lp(p, lm, math.exp(e), True)[1])
        except InputError:
            out["id"].append(None)
        out["mi"].append(_distortion_rate(p, lm, e, 60)[1])
    return out
