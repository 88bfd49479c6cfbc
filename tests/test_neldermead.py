"""The batched Nelder-Mead against scipy's, simplex by simplex (the same method, so the same iterates)."""

from __future__ import annotations

import numpy as np
import pytest

from relations.search._neldermead import minimize_batch


@pytest.mark.parametrize("dim", [2, 4, 7])
def test_each_simplex_follows_scipy(dim):
    # imported by the tests that use it, not at collection (0.8 s of CPU in each xdist worker)
    from scipy.optimize import minimize, rosen

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


@pytest.mark.parametrize("maxiter", [30, pytest.param(80, marks=pytest.mark.slow)])
def test_batched_relations_search_as_each_alone(maxiter):
    # search_dense_all steps every relation's simplexes together, one dense_values call per step (conversion
    # notions only where used, linear bounds vectorised); each relation must end where search_dense alone
    # ends from the same starts.  30 steps find the same violations and candidates as 80 (-m slow) on these
    # starts, at 0.4 of the CPU
    from relations.catalogue import CATALOGUE
    from relations.catalogue._bounds import Linear
    from relations.search._families import DenseFamily
    from relations.search._optimiser import extra_notions, search_dense, search_dense_all

    rels = [r for r in CATALOGUE if r.kind == "implication" and r.bound is not None]
    assert any(not isinstance(r.bound, Linear) for r in rels) and any(extra_notions(r) for r in rels)
    for fam in (DenseFamily(2, 2), DenseFamily(4, 2, 2, 2)):
        alone = [search_dense(r, fam, 3, np.random.default_rng(11), maxiter) for r in rels]
        starts = [np.random.default_rng(11).normal(scale=1.5, size=(3, fam.dim)) for _ in rels]
        together = search_dense_all(rels, fam, starts, maxiter)
        assert any(a.candidates for a in alone), fam  # the candidates' path is taken
        for r, a, b in zip(rels, alone, together):
            assert (a.best_violation, a.best_ratio, a.ratio_family, a.searched) == \
                (b.best_violation, b.best_ratio, b.ratio_family, b.searched), r.id
            assert [m.channel.exact for m in a.candidates] == [m.channel.exact for m in b.candidates], r.id


def test_dense_values_only_computes_a_notion_where_asked():
    from relations.measures._batch import dense_values, ordered_pairs

    rng = np.random.default_rng(3)
    q = rng.dirichlet(np.ones(3), size=(6, 3))
    p = rng.dirichlet(np.ones(3), size=6)
    pairs = ordered_pairs([(0, 1), (1, 2), (0, 2)])
    names = ("rho", "kl", "maximal_leakage", "eps_delta(1/1000)")
    full = dense_values(q, p, pairs, names)
    rows = {"rho": np.array([1, 4]), "kl": np.array([4]), "maximal_leakage": np.array([], dtype=int)}
    part = dense_values(q, p, pairs, names, only=rows)
    for name in names:
        want = rows.get(name, np.arange(6))
        assert np.array_equal(part[name][want], full[name][want]), name
        assert np.isnan(np.delete(part[name], want)).all(), name
    for name in ("eps_d", "eps_i", "eps_m", "sigma_min"):
        assert np.array_equal(part[name], full[name])
