"""Nelder-Mead on many simplexes at once, each step one vectorised evaluation of the whole batch.

The optimising search (:mod:`relations.search._optimiser`) runs several starts, each with two
objectives (the violation and the tightness ratio), in low dimension (6 to 12 logits).  Run
one by one through :func:`scipy.optimize.minimize` each step evaluates one point, and the cost
is the fixed overhead of an evaluation; here every step evaluates the reflections of all live
simplexes in one call, then their expansions and contractions in a second, then the shrinks.

The method is Nelder and Mead's [1]_, as scipy implements it: with its default coefficients (reflection 1, expansion 2,
contraction 1/2, shrink 1/2) and initial simplex (each coordinate moved by 5 %, or by
0.00025 from 0), run to the same stopping rule (``xatol`` and ``fatol`` between the best
vertex and the others, or ``maxiter`` iterations), on every simplex independently.

References
----------
.. [1] Nelder, Mead. A simplex method for function minimization. The Computer Journal 7(4),
   1965, 308-313. doi:10.1093/comjnl/7.4.308

Examples
--------
Two quadratics with different minima, one simplex each:

>>> import numpy as np
>>> centre = np.array([[1.0, -2.0], [0.5, 3.0]])
>>> f = lambda x, owner: ((x - centre[owner]) ** 2).sum(axis=1)
>>> x, fx = minimize_batch(f, np.zeros((2, 2)), maxiter=400, xatol=1e-8, fatol=1e-12)
>>> np.round(x, 6).tolist(), bool(fx.max() < 1e-12)
([[1.0, -2.0], [0.5, 3.0]], True)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["minimize_batch"]

_RHO, _CHI, _PSI, _SIGMA = 1.0, 2.0, 0.5, 0.5


def minimize_batch(f: Callable[[np.ndarray, np.ndarray], np.ndarray], x0: np.ndarray, *, maxiter: int,
                   xatol: float | np.ndarray = 1e-4, fatol: float | np.ndarray = 1e-4) -> tuple[np.ndarray, np.ndarray]:
    """Minimise ``N`` objectives from ``N`` starts by Nelder-Mead, all simplexes stepping together.

    Parameters
    ----------
    f : callable
        ``f(points, owner)``: the values at ``points`` (shape ``(B, d)``), where row ``b`` belongs to
        simplex ``owner[b]`` (so that one call can serve different objectives).  Must return shape ``(B,)``.
    x0 : numpy.ndarray
        The starts, shape ``(N, d)``.
    maxiter : int
        Iterations per simplex at most.
    xatol, fatol : float or numpy.ndarray, optional
        A simplex stops when all its vertices are within ``xatol`` of the best (max norm) and their
        values within ``fatol`` (scipy's rule); one value for all, or one per simplex.

    Returns
    -------
    tuple of numpy.ndarray
        The best vertex of each simplex, shape ``(N, d)``, and its value, shape ``(N,)``.
    """
    x0 = np.asarray(x0, dtype=float)
    n, d = x0.shape
    xatol, fatol = np.broadcast_to(np.asarray(xatol, float), (n,)), np.broadcast_to(np.asarray(fatol, float), (n,))
    sim = np.repeat(x0[:, None, :], d + 1, axis=1)
    for k in range(d):
        col = sim[:, k + 1, k]
        sim[:, k + 1, k] = np.where(col != 0, 1.05 * col, 0.00025)
    owners = np.repeat(np.arange(n), d + 1)
    fs = f(sim.reshape(-1, d), owners).reshape(n, d + 1)
    live = np.ones(n, dtype=bool)
    for _ in range(max(maxiter - 1, 0)):  # scipy counts the initial simplex as iteration 1
        order = np.argsort(fs, axis=1, kind="stable")
        sim = np.take_along_axis(sim, order[:, :, None], axis=1)
        fs = np.take_along_axis(fs, order, axis=1)
        with np.errstate(invalid="ignore"):  # inf - inf among the values: not converged
            live &= ~((np.abs(sim[:, 1:] - sim[:, :1]).max(axis=(1, 2)) <= xatol)
                      & (np.abs(fs[:, 1:] - fs[:, :1]).max(axis=1) <= fatol))
        idx = np.flatnonzero(live)
        if idx.size == 0:
            break
        xbar = sim[idx, :-1].mean(axis=1)
        worst = sim[idx, -1]
        xr = (1 + _RHO) * xbar - _RHO * worst
        fr = f(xr, idx)
        best, second, fworst = fs[idx, 0], fs[idx, -2], fs[idx, -1]
        expand = fr < best
        outside = ~expand & (fr >= second) & (fr < fworst)
        inside = ~expand & (fr >= fworst)
        trial = np.where(expand[:, None], (1 + _RHO * _CHI) * xbar - _RHO * _CHI * worst,
                         np.where(outside[:, None], (1 + _PSI * _RHO) * xbar - _PSI * _RHO * worst,
                                  (1 - _PSI) * xbar + _PSI * worst))
        second_round = expand | outside | inside
        ft = np.full(idx.size, np.inf)
        if second_round.any():
            ft[second_round] = f(trial[second_round], idx[second_round])
        new_x, new_f = xr.copy(), fr.copy()
        take_e = expand & (ft < fr)
        take_o = outside & (ft <= fr)
        take_i = inside & (ft < fworst)
        take_t = take_e | take_o | take_i
        new_x[take_t], new_f[take_t] = trial[take_t], ft[take_t]
        shrink = (outside & ~take_o) | (inside & ~take_i)
        keep = ~shrink
        sim[idx[keep], -1], fs[idx[keep], -1] = new_x[keep], new_f[keep]
        if shrink.any():
            s = idx[shrink]
            sim[s, 1:] = sim[s, :1] + _SIGMA * (sim[s, 1:] - sim[s, :1])
            fs[s, 1:] = f(sim[s, 1:].reshape(-1, d), np.repeat(s, d)).reshape(s.size, d)
    i = np.argmin(fs, axis=1)
    return sim[np.arange(n), i], fs[np.arange(n), i]
