"""Nelder-Mead on many simplexes at once, each step one vectorised evaluation of the whole batch.

The optimising search (:mod:`relations.search._optimiser`) runs several starts, each with two
objectives (the violation and the tightness ratio), in low dimension (6 to 12 logits).  Run
one by one through :func:`scipy.optimize.minimize` each step evaluates one point, and the cost
is the fixed overhead of an evaluation; here each call evaluates the next points of every live
simplex at once, whatever each waits for: the reflection that begins its next iteration, its
expansion or contraction, or its shrunk vertices.  A simplex never waits for another's phase, so
the calls number about 1.9 per iteration instead of 2.8 (one for the reflections, one for the
trial points, one for the shrinks), and each simplex takes the steps it would take alone.

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
_NEXT, _TRIAL, _SHRINK = 0, 1, 2  # what a simplex waits for
_EXPAND, _OUTSIDE, _INSIDE = 0, 1, 2  # its trial point


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
    steps = max(maxiter - 1, 0)  # scipy counts the initial simplex as iteration 1
    done = np.zeros(n, dtype=bool)
    begun = np.zeros(n, dtype=int)  # iterations begun, per simplex
    phase = np.zeros(n, dtype=np.int8)  # what a live simplex waits for: _NEXT, _TRIAL or _SHRINK
    xr, fr, trial = np.empty((n, d)), np.empty(n), np.empty((n, d))
    kind = np.zeros(n, dtype=np.int8)  # the trial point's kind: _EXPAND, _OUTSIDE or _INSIDE
    while True:
        # the simplexes between two iterations: stop (iterations spent, or converged), else reflect
        nxt = np.flatnonzero(~done & (phase == _NEXT))
        spent = begun[nxt] >= steps
        done[nxt[spent]] = True
        nxt = nxt[~spent]
        order, at = np.argsort(fs[nxt], axis=1, kind="stable"), np.arange(nxt.size)[:, None]
        sim[nxt], fs[nxt] = sim[nxt][at, order], fs[nxt][at, order]  # each simplex's vertices, best first
        with np.errstate(invalid="ignore"):  # inf - inf among the values: not converged
            converged = ((np.abs(sim[nxt, 1:] - sim[nxt, :1]).max(axis=(1, 2), initial=0.0) <= xatol[nxt])
                         & (np.abs(fs[nxt, 1:] - fs[nxt, :1]).max(axis=1, initial=0.0) <= fatol[nxt]))
        done[nxt[converged]] = True
        nxt = nxt[~converged]
        begun[nxt] += 1
        xbar = sim[nxt, :-1].mean(axis=1)
        xr[nxt] = (1 + _RHO) * xbar - _RHO * sim[nxt, -1]
        # one evaluation for every simplex's next points: reflections, trial points, shrunk vertices
        tri = np.flatnonzero(~done & (phase == _TRIAL))
        shr = np.flatnonzero(~done & (phase == _SHRINK))
        if nxt.size + tri.size + shr.size == 0:
            break
        values = f(np.concatenate([xr[nxt], trial[tri], sim[shr, 1:].reshape(-1, d)]),
                   np.concatenate([nxt, tri, np.repeat(shr, d)]))
        fr[nxt], ft = values[:nxt.size], values[nxt.size:nxt.size + tri.size]
        fs[shr, 1:] = values[nxt.size + tri.size:].reshape(shr.size, d)
        phase[shr] = _NEXT
        _reflected(nxt, xbar, sim, fs, xr, fr, trial, kind, phase)
        _tried(tri, ft, sim, fs, xr, fr, trial, kind, phase)
    i = np.argmin(fs, axis=1)
    return sim[np.arange(n), i], fs[np.arange(n), i]


def _reflected(idx, xbar, sim, fs, xr, fr, trial, kind, phase) -> None:
    """Simplexes ``idx`` with their reflection's value ``fr``: accept it, or choose the trial point."""
    worst, r = sim[idx, -1], fr[idx]
    expand = r < fs[idx, 0]
    outside = ~expand & (r >= fs[idx, -2]) & (r < fs[idx, -1])
    inside = ~expand & (r >= fs[idx, -1])
    trial[idx] = np.where(expand[:, None], (1 + _RHO * _CHI) * xbar - _RHO * _CHI * worst,
                          np.where(outside[:, None], (1 + _PSI * _RHO) * xbar - _PSI * _RHO * worst,
                                   (1 - _PSI) * xbar + _PSI * worst))
    kind[idx] = np.where(expand, _EXPAND, np.where(outside, _OUTSIDE, _INSIDE))
    accept = ~(expand | outside | inside)  # between the best and the second worst
    sim[idx[accept], -1], fs[idx[accept], -1] = xr[idx[accept]], r[accept]
    phase[idx] = np.where(accept, _NEXT, _TRIAL)


def _tried(idx, ft, sim, fs, xr, fr, trial, kind, phase) -> None:
    """Simplexes ``idx`` with their trial point's value ``ft``: take it or the reflection, or shrink."""
    expand, outside, inside = kind[idx] == _EXPAND, kind[idx] == _OUTSIDE, kind[idx] == _INSIDE
    r = fr[idx]
    take_o, take_i = outside & (ft <= r), inside & (ft < fs[idx, -1])
    take = (expand & (ft < r)) | take_o | take_i
    shrink = (outside & ~take_o) | (inside & ~take_i)
    keep = idx[~shrink]
    sim[keep, -1] = np.where(take[~shrink, None], trial[keep], xr[keep])
    fs[keep, -1] = np.where(take[~shrink], ft[~shrink], r[~shrink])
    s = idx[shrink]
    sim[s, 1:] = sim[s, :1] + _SIGMA * (sim[s, 1:] - sim[s, :1])
    phase[keep], phase[s] = _NEXT, _SHRINK
