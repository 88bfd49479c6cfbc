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
from relations.search.families import DenseFamily, RRFamily, product_values

__all__ = ["float_bound", "violation", "RATIO_FLOOR", "ratio", "Found", "VIOLATION_MARGIN", "search_dense", "RR_DOMAINS", "RR_RECORDS", "search_rr"]


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
    """Nelder-Mead from ``starts`` random logit vectors, maximising violation and (separately) the ratio."""
    from scipy.optimize import minimize

    diam = diameter(family.inputs())
    found = Found([], searched=[])
    pairs = ordered_pairs(family.inputs().pairs())
    extra = _extra(rel)

    def values(theta):
        q, p = family.float_arrays(theta)
        return {k: float(v[0]) for k, v in dense_values(q[None], p[None], pairs, extra).items()}

    def neg_violation(theta):
        vals = values(theta)
        v = violation(rel, vals, diam)
        if not math.isfinite(v):
            return -1e6 if v > 0 else 1e6
        scale = 1.0 + abs(vals[rel.conclusion]) + abs(float_bound(rel, vals, diam))
        return -v / scale  # scale-free: the search does not run off to infinite budgets

    def neg_ratio(theta):
        q = ratio(rel, values(theta), diam)
        return -q if q is not None else 1e6

    for _ in range(starts):
        theta0 = rng.normal(scale=1.5, size=family.dim)
        res = minimize(neg_violation, theta0, method="Nelder-Mead",
                       options={"maxiter": maxiter, "xatol": 1e-6, "fatol": 1e-12})
        v = violation(rel, values(res.x), diam)
        if v > found.best_violation:
            found.best_violation = v
        if v > VIOLATION_MARGIN:
            found.candidates.extend(family.exact_mechanisms(res.x))
            break
        res = minimize(neg_ratio, theta0, method="Nelder-Mead", options={"maxiter": maxiter})
        q = -res.fun
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
                vals = [product_values(v, r) if central else v for v in local]
                diam = r if central else 1
                viol = np.array([violation(rel, v, diam) for v in vals])
                i = int(np.argmax(viol))
                found.best_violation = max(found.best_violation, float(viol[i]))
                if viol[i] > VIOLATION_MARGIN:
                    hits.append((r, k, si, float(grid[i]), float(viol[i])))
                else:
                    near.append((float(viol[i]), r, k, si, i))
                for v in vals:
                    q = ratio(rel, v, diam)
                    if q is not None and (found.best_ratio is None or q > found.best_ratio):
                        found.best_ratio = q
                        found.ratio_family = f"{k}-RR" + (f" over r={r}" if central else "")
    if not hits:  # refine the three most nearly violating grid points with a bounded scalar search
        for _, r, k, si, i in sorted(near, reverse=True)[:3]:
            skew, diam = skews[si], (r if central else 1)

            def neg(x, k=k, r=r, skew=skew, diam=diam):
                v = _rr_grid_values(rel, k, np.array([math.exp(x)]), skew)[0]
                return -violation(rel, product_values(v, r) if central else v, diam)

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



def _extra(rel: Relation) -> tuple[str, ...]:
    """The relation's notions beyond :data:`~relations.search.batch.PAPER` (computed on demand)."""
    return tuple(n for n in (str(rel.premise), str(rel.conclusion)) if n not in PAPER)


def _rr_grid_values(rel: Relation, k: int, ts: np.ndarray, skew: float) -> list[dict[str, float]]:
    """Float values of local k-RR at each ratio in ``ts`` (one batch; every ordered pair of k-RR rows is a
    column permutation of rows 0 and 1, and inputs ``1..k-1`` are exchangeable under the prior)."""
    t = ts[:, None, None]
    q = np.where(np.eye(k, dtype=bool)[None], t, 1.0) / (t + k - 1)
    p = np.full(k, 1 / k) if not skew else np.array([1 - skew] + [skew / (k - 1)] * (k - 1))
    vals = dense_values(q, np.broadcast_to(p, (len(ts), k)), np.array([[0, 1], [1, 0]]), _extra(rel))
    return [{name: float(v[g]) for name, v in vals.items()} for g in range(len(ts))]


def _simple_ratios(t: float) -> Iterator[Fraction]:
    """Rational ratios near ``t``: integers first, then finer fractions."""
    seen = set()
    for den in (1, 2, 4, 10, 100, 10**4):
        q = Fraction(t).limit_denominator(den)
        if q > 1 and q not in seen:
            seen.add(q)
            yield q

