"""The batched Nelder-Mead against scipy's, simplex by simplex (the same method, so the same iterates)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize, rosen

from relations.search.neldermead import minimize_batch


@pytest.mark.parametrize("dim", [2, 4, 7])
def test_each_simplex_follows_scipy(dim):
    rng = np.random.default_rng(dim)
    starts = rng.normal(size=(6, dim))
    starts[0, 0] = 0.0  # the zero-coordinate rule of the initial simplex
    shifts = rng.normal(size=(6, dim))

    def objective(k):
        return lambda x: rosen(x) if k % 2 else float(np.sum(np.abs(x - shifts[k]) ** 1.5))

    def batch(points, owner):
        return np.array([objective(k)(x) for x, k in zip(points, owner)])

    xs, fs = minimize_batch(batch, starts, maxiter=250, xatol=1e-6, fatol=1e-12)
    for k in range(6):
        ref = minimize(objective(k), starts[k], method="Nelder-Mead",
                       options={"maxiter": 250, "xatol": 1e-6, "fatol": 1e-12})
        np.testing.assert_allclose(xs[k], ref.x, rtol=1e-12, atol=1e-14)
        assert fs[k] == pytest.approx(ref.fun, rel=1e-12, abs=1e-300)


def test_infinite_values_are_left_behind():
    """A region of +inf (the searches' invalid points) is never returned when a finite one was seen."""
    def batch(points, owner):
        return np.where(points[:, 0] > 0.5, np.inf, (points ** 2).sum(axis=1))

    xs, fs = minimize_batch(batch, np.array([[0.4, 1.0], [0.3, -2.0]]), maxiter=200)
    assert np.isfinite(fs).all() and (xs[:, 0] <= 0.5).all()
