"""Optimising search: maximise a relation's violation (or its tightness) over the families.

Float values drive the search (:func:`~relations.search.batch.dense_values`, whole stacks at once);
every candidate that looks violating is turned into an exact rational mechanism
and re-checked by the exact checker before anything is reported.
:func:`search_dense` runs Nelder-Mead from seeded starts over
:class:`~relations.search.families.DenseFamily`; :func:`search_rr` scans a grid of
k-RR products and refines the most nearly violating points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

import numpy as np

from relations.catalogue.entries import Relation
from relations.model.neighbours import diameter
from relations.search.batch import PAPER, dense_values, ordered_pairs
from relations.search.families import DenseFamily, RRFamily, product_values, rr_float_prior

__all__ = ["float_bound", "violation", "RATIO_FLOOR", "ratio", "Found", "VIOLATION_MARGIN", "search_dense", "RR_DOMAINS", "RR_RECORDS", "search_rr", "extra_notions"]


def float_bound(rel: Relation, v: dict[str, float], diam: int | None) -> float:
    """The relation's bound at the float values ``v``."""
    return rel.bound.float(v[rel.premise], v["sigma_min"], diam)


def violation(rel: Relation, v: dict[str, float], diam: int | None) -> float:
    """``conclusion - bound`` in floats (``-inf`` when the premise is infinite: vacuous)."""
    if math.isinf(v[rel.premise]):
        return -math.inf
    bound = float_bound(rel, v, diam)
    c = v[rel.conclusion]
    if math.isinf(bound) and bound > 0:
        return -math.inf
    if math.isinf(c):
        return math.inf if c > 0 else -math.inf
    return c - bound



#: Bounds below this are too small for a float ratio conclusion / bound to mean anything.
RATIO_FLOOR = 1e-6



def ratio(rel: Relation, v: dict[str, float], diam: int | None) -> float | None:
    """``conclusion / bound`` when both are finite and the bound positive (tightness)."""
    if math.isinf(v[rel.premise]):
        return None
    bound = float_bound(rel, v, diam)
    c = v[rel.conclusion]
    if not (RATIO_FLOOR < bound < math.inf) or math.isinf(c):
        return None  # below the floor both sides are float noise (~1e-16) and the ratio means nothing
    return c / bound



@dataclass
class Found:
    """Best candidates of a search: a violating one (if any) and the tightest holding ratio."""

    candidates: list  # exact mechanisms to re-check, most promising first
    best_violation: float = -math.inf
    best_ratio: float | None = None
    ratio_family: str = ""
    searched: list | None = None



#: A float violation must exceed this to be worth an exact re-check (float noise is ~1e-15).
VIOLATION_MARGIN = 1e-9



def search_dense(rel: Relation, family: DenseFamily, starts: int, rng: np.random.Generator,
                 maxiter: int = 400) -> Found:
    """Nelder-Mead from ``starts`` random logit vectors, maximising the violation and (separately) the ratio.

    All ``2 starts`` simplexes step together (:func:`~relations.search.neldermead.minimize_batch`), each
    step one batch evaluation (:func:`~relations.search.batch.dense_values`).  The starts are read in
    order: the first whose violation exceeds :data:`VIOLATION_MARGIN` gives the candidates, and the
    tightness is the best ratio of the starts before it.
    """
    from relations.search.neldermead import minimize_batch

    diam = diameter(family.inputs())
    found = Found([], searched=[])
    pairs = ordered_pairs(family.inputs().pairs())
    extra = extra_notions(rel)

    def scores(theta):  # (violation, ratio, bound) at each row of theta
        q, p = family.float_arrays(theta)
        vals = dense_values(q, p, pairs, extra)
        return _scores(rel, vals, diam) + (vals[rel.conclusion],)

    def objective(theta, owner):  # simplexes 0..starts-1: -violation (scaled); the others: -ratio
        viol, ratios, bound, conclusion = scores(theta)
        with np.errstate(invalid="ignore"):  # scale-free, so that the search does not run off to infinite budgets
            neg_violation = np.where(np.isfinite(viol), -viol / (1.0 + np.abs(conclusion) + np.abs(bound)),
                                     np.where(viol > 0, -1e6, 1e6))
        return np.where(owner < starts, neg_violation, np.where(np.isnan(ratios), 1e6, -ratios))

    theta0 = rng.normal(scale=1.5, size=(starts, family.dim))
    xs, fs = minimize_batch(objective, np.concatenate([theta0, theta0]), maxiter=maxiter,
                            xatol=np.repeat([1e-6, 1e-4], starts), fatol=np.repeat([1e-12, 1e-4], starts))
    for s, v in enumerate(scores(xs[:starts])[0].tolist()):
        found.best_violation = max(found.best_violation, v)
        if v > VIOLATION_MARGIN:
            found.candidates.extend(family.exact_mechanisms(xs[s]))
            break
        q = -fs[starts + s]
        if q < 1e5 and (found.best_ratio is None or q > found.best_ratio):
            found.best_ratio, found.ratio_family = q, family.describe()
    found.searched.append(f"{family.describe()}: {starts} Nelder-Mead starts")
    return found



RR_DOMAINS = (2, 3, 4, 6, 8, 16, 32, 64)



RR_RECORDS = tuple(range(2, 41))



def search_rr(rel: Relation, central: bool, quick: bool = False) -> Found:
    """Grid over ``k``, ``ln t`` (and ``r`` for central), refined by bounded scalar search."""
    from scipy.optimize import minimize_scalar

    found = Found([], searched=[])
    domains = RR_DOMAINS[:5] if quick else RR_DOMAINS
    records = RR_RECORDS if central else (1,)
    skews = (0.0, 0.9)
    grid = np.linspace(0.05, 10.0, 40 if quick else 80)
    hits: list[tuple[int, int, int, float, float]] = []  # (r, k, skew idx, log t, violation)
    near: list[tuple[float, int, int, int, int]] = []  # best non-violating grid points, refined below
    for k in domains:
        for si, skew in enumerate(skews):
            local = _rr_grid_values(rel, k, np.exp(grid), skew)
            for r in records:
                diam = r if central else 1
                viol, ratios, _ = _scores(rel, product_values(local, r) if central else local, diam)
                i = int(np.argmax(viol))
                found.best_violation = max(found.best_violation, float(viol[i]))
                if viol[i] > VIOLATION_MARGIN:
                    hits.append((r, k, si, float(grid[i]), float(viol[i])))
                else:
                    near.append((float(viol[i]), r, k, si, i))
                if not np.isnan(ratios).all():
                    j = int(np.nanargmax(ratios))
                    if found.best_ratio is None or ratios[j] > found.best_ratio:
                        found.best_ratio = float(ratios[j])
                        found.ratio_family = f"{k}-RR" + (f" over r={r}" if central else "")
    if not hits:  # refine the three most nearly violating grid points with a bounded scalar search
        for _, r, k, si, i in sorted(near, reverse=True)[:3]:
            skew, diam = skews[si], (r if central else 1)

            def neg(x, k=k, r=r, skew=skew, diam=diam):
                v = _rr_grid_values(rel, k, np.array([math.exp(x)]), skew)
                return -float(_scores(rel, product_values(v, r) if central else v, diam)[0][0])

            res = minimize_scalar(neg, bounds=(grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]),
                                  method="bounded", options={"xatol": 1e-6})
            found.best_violation = max(found.best_violation, -float(res.fun))
            if -res.fun > VIOLATION_MARGIN:
                hits.append((r, k, si, float(res.x), -float(res.fun)))
    found.searched.append(f"k-RR {'products' if central else 'local'}: k in {domains}, "
                          f"{'r in 2..40, ' if central else ''}skew in {skews}, {len(grid)} ratios + refinement")
    # Smallest witnesses first: fewest datasets k^r (the dense size), then fewer records.
    for r, k, si, x, _ in sorted(hits, key=lambda h: (h[0] * math.log(h[1]), h[0], h[1]))[:6]:
        fam = RRFamily(k, r, Fraction(skews[si]).limit_denominator(10))
        for t in _simple_ratios(math.exp(x)):
            found.candidates.append(fam.mechanism(t))
    return found



def extra_notions(rel: Relation) -> tuple[str, ...]:
    """The relation's notions beyond :data:`~relations.search.batch.PAPER` (computed on demand).

    Parameters
    ----------
    rel : Relation

    Returns
    -------
    tuple of str
        Its premise and conclusion notions that :func:`~relations.search.batch.dense_values` computes
        only when asked.

    Examples
    --------
    >>> from relations.catalogue.entries import get
    >>> extra_notions(get("zheng2025.thm1"))
    ()
    """
    return tuple(n for n in (str(rel.premise), str(rel.conclusion)) if n not in PAPER)


def _rr_grid_values(rel: Relation, k: int, ts: np.ndarray, skew: float) -> dict[str, np.ndarray]:
    """Float values of local k-RR at each ratio in ``ts`` (one batch; every ordered pair of k-RR rows is a
    column permutation of rows 0 and 1, and inputs ``1..k-1`` are exchangeable under the prior)."""
    t = ts[:, None, None]  # krr_rows' matrix, stacked over the ratios
    q = np.where(np.eye(k, dtype=bool)[None], t, 1.0) / (t + k - 1)
    return dense_values(q, np.broadcast_to(rr_float_prior(k, skew), (len(ts), k)), np.array([[0, 1], [1, 0]]),
                        extra_notions(rel))


def _scores(rel: Relation, vals: dict[str, np.ndarray], diam: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`violation`, :func:`ratio` (NaN for None) and :func:`float_bound` at every point of a batch of
    values."""
    premise, conclusion = vals[rel.premise], vals[rel.conclusion]
    bound = np.array([rel.bound.float(float(a), float(s), diam) for a, s in zip(premise, vals["sigma_min"])])
    with np.errstate(invalid="ignore", divide="ignore"):
        viol = np.where(np.isposinf(bound) | np.isinf(premise), -np.inf, conclusion - bound)
        viol = np.where(np.isinf(conclusion) & ~np.isinf(premise) & ~np.isposinf(bound), conclusion, viol)
        ok = ~np.isinf(premise) & (bound > RATIO_FLOOR) & (bound < np.inf) & ~np.isinf(conclusion)
        ratios = np.where(ok, conclusion / np.where(ok, bound, 1.0), np.nan)
    return viol, ratios, bound


def _simple_ratios(t: float) -> Iterator[Fraction]:
    """Rational ratios near ``t``: integers first, then finer fractions."""
    seen = set()
    for den in (1, 2, 4, 10, 100, 10**4):
        q = Fraction(t).limit_denominator(den)
        if q > 1 and q not in seen:
            seen.add(q)
            yield q

