"""Optimising search: maximise a relation's violation (or its tightness) over the families.

Float values drive the search (:func:`~relations.measures._batch.dense_values`, whole stacks at once);
every candidate that looks violating is turned into an exact rational mechanism
and re-checked by the exact checker before anything is reported.
:func:`search_dense` runs Nelder-Mead from seeded starts over
:class:`~relations.search._families.DenseFamily`; :func:`search_rr` scans a grid of
k-RR products and refines the most nearly violating points.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import cast

import numpy as np

from relations.catalogue._bounds import Linear
from relations.catalogue._entries import Relation
from relations.catalogue._formulas import Formula
from relations.measures._batch import PAPER, dense_values, ordered_pairs
from relations.model._mechanism import Mechanism
from relations.model._neighbours import diameter
from relations.search._families import (
    GAPS,
    DenseFamily,
    RRFamily,
    product_values,
    rr_float_prior,
    stacked_product_values,
)
from relations.search._selection import Candidate

__all__ = ["float_bound", "violation", "RATIO_FLOOR", "RATIO_BITS", "round_bits", "ratio", "Found", "VIOLATION_MARGIN", "search_dense", "search_dense_all", "RR_DOMAINS", "RR_RECORDS", "RR_TIGHTNESS_RECORDS", "search_rr", "rr_candidate", "extra_notions", "found_data", "found_from_data", "is_found_data"]


def float_bound(rel: Relation, v: dict[str, float], diam: int | None) -> float:
    """The relation's bound at the float values ``v``."""
    assert rel.bound is not None  # an implication
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
    """Best candidates of a search: a violating one (if any) and the tightest holding ratio.

    ``best_ratio`` and ``ratio_family`` are the float screen's best; ``ratio_candidates`` are the
    candidates for the tightness (:class:`~relations.search._selection.Candidate`, each building its exact
    mechanism), from which :func:`~relations.search._selection.select_max` chooses by certified value.
    """

    candidates: list  # exact mechanisms to re-check, most promising first
    best_violation: float = -math.inf
    best_ratio: float | None = None
    ratio_family: str = ""
    searched: list | None = None
    ratio_candidates: list = field(default_factory=list)



def found_data(found: Found) -> tuple | None:
    """``found`` as plain data (floats, strings, tuples, lists, exact mechanisms, Fractions and float arrays), which
    :func:`found_from_data` turns back into the same :class:`Found`: what a search keeps in the cache folder
    (:func:`~relations.search._screening.stored_result`) for the next run of the same code.

    Its tightness candidates are kept by what builds them: the exact mechanism at a dense family's point
    (:meth:`~relations.search._families.DenseFamily.fine_mechanism`) or at a k-RR grid point
    (:func:`rr_candidate`).  ``None`` when one is built otherwise (nothing is then kept).

    Examples
    --------
    >>> found = Found([], best_violation=-0.5, best_ratio=0.25, ratio_family="k-RR", searched=["k-RR local"],
    ...               ratio_candidates=[Candidate(0.25, (4, "2-RR", 0, 3), "2-RR",
    ...                                           functools.partial(rr_candidate, 2, 1, Fraction(0), 0.5))])
    >>> back = found_from_data(found_data(found))
    >>> back.best_ratio, back.searched, back.ratio_candidates[0].exact() == rr_candidate(2, 1, Fraction(0), 0.5)
    (0.25, ['k-RR local'], True)
    """
    ratio = []
    for c in found.ratio_candidates:
        build = c.build
        if not isinstance(build, functools.partial) or build.keywords:
            return None
        if build.func is DenseFamily.fine_mechanism and len(build.args) == 2:
            family, theta = build.args
            ratio.append((float(c.screen), c.key, c.label, "dense",
                          (family.n, family.m, family.k, family.records, np.array(theta, dtype=float))))
        elif build.func is rr_candidate and len(build.args) == 4:
            ratio.append((float(c.screen), c.key, c.label, "rr", tuple(build.args)))
        else:
            return None
    return (list(found.candidates), float(found.best_violation),
            None if found.best_ratio is None else float(found.best_ratio), found.ratio_family,
            None if found.searched is None else list(found.searched), ratio)


def found_from_data(data: tuple) -> Found:
    """The :class:`Found` that :func:`found_data` gave ``data`` for (see there)."""
    candidates, best_violation, best_ratio, family, searched, ratio = data
    out = Found(list(candidates), best_violation, best_ratio, family, None if searched is None else list(searched))
    for screen, key, label, how, args in ratio:
        build = (functools.partial(DenseFamily.fine_mechanism, DenseFamily(*args[:4]), args[4]) if how == "dense"
                 else functools.partial(rr_candidate, *args))
        out.ratio_candidates.append(Candidate(screen, key, label, build))
    return out


def is_found_data(data: object) -> bool:
    """Whether ``data`` has the shape :func:`found_data` gives (a stored file is checked before use)."""
    if not (isinstance(data, tuple) and len(data) == 6):
        return False
    candidates, best_violation, best_ratio, family, searched, ratio = data
    return (isinstance(candidates, list) and all(isinstance(m, Mechanism) for m in candidates)
            and isinstance(best_violation, float) and (best_ratio is None or isinstance(best_ratio, float))
            and isinstance(family, str) and (searched is None or (isinstance(searched, list)
                                                                   and all(isinstance(s, str) for s in searched)))
            and isinstance(ratio, list) and all(_is_ratio_data(r) for r in ratio))


def _is_ratio_data(r: object) -> bool:
    if not (isinstance(r, tuple) and len(r) == 5 and isinstance(r[0], float) and isinstance(r[1], tuple)
            and isinstance(r[2], str) and isinstance(r[4], tuple)):
        return False
    how, args = r[3], r[4]
    if how == "dense":
        return (len(args) == 5 and all(type(a) is int for a in args[:4]) and isinstance(args[4], np.ndarray)
                and args[4].dtype == np.float64 and args[4].shape == (DenseFamily(*args[:4]).dim,))
    return (how == "rr" and len(args) == 4 and type(args[0]) is int and type(args[1]) is int
            and isinstance(args[2], Fraction) and isinstance(args[3], float))


#: A float violation must exceed this to be worth an exact re-check (float noise is ~1e-15).
VIOLATION_MARGIN = 1e-9



def search_dense(rel: Relation, family: DenseFamily, starts: int, rng: np.random.Generator,
                 maxiter: int = 400) -> Found:
    """Nelder-Mead from ``starts`` random logit vectors, maximising the violation and (separately) the ratio.

    All ``2 starts`` simplexes step together (:func:`~relations.search._neldermead.minimize_batch`), each
    step one batch evaluation (:func:`~relations.measures._batch.dense_values`).  The starts are read in
    order: the first whose violation exceeds :data:`VIOLATION_MARGIN` gives the candidates, and the
    tightness is the best ratio of the starts before it.  This is :func:`search_dense_all` of one
    relation, from ``rng.normal(scale=1.5, size=(starts, family.dim))``.
    """
    theta0 = rng.normal(scale=1.5, size=(starts, family.dim))
    return search_dense_all([rel], family, [theta0], maxiter)[0]


def search_dense_all(rels: Sequence[Relation], family: DenseFamily, starts: Sequence[np.ndarray],
                     maxiter: int = 400) -> list[Found]:
    """:func:`search_dense` of several relations over one family at once: every relation's simplexes step
    together, and each step is one :func:`~relations.measures._batch.dense_values` call for all of them.

    Each simplex's steps depend only on its own values, so relation ``i``'s result is the one
    :func:`search_dense` finds from the same starts (up to the last bits of the float values).

    Parameters
    ----------
    rels : sequence of Relation
        Implications with a bound.
    family : DenseFamily
        The family searched.
    starts : sequence of numpy.ndarray
        Relation ``i``'s starting logit vectors, shape ``(starts_i, family.dim)``.
    maxiter : int, optional
        Nelder-Mead iterations per simplex at most.

    Returns
    -------
    list of Found
        One per relation, in order.

    Examples
    --------
    >>> from relations.catalogue import get
    >>> rng = np.random.default_rng(1)
    >>> theta = rng.normal(scale=1.5, size=(2, DenseFamily(2, 2).dim))
    >>> found = search_dense_all([get("zheng2025.thm1"), get("zheng2025.thm4")], DenseFamily(2, 2), [theta, theta], 200)
    >>> found[0].candidates == [], len(found[1].candidates) > 0  # thm1 holds; thm4 is refuted on 2 x 2
    (True, True)
    """
    from relations.search._neldermead import minimize_batch

    rels, starts = list(rels), list(starts)
    if not rels:
        return []

    diam = diameter(family.inputs())
    pairs = ordered_pairs(family.inputs().pairs())
    extra = tuple(dict.fromkeys(n for rel in rels for n in extra_notions(rel)))
    uses = {n: np.array([n in extra_notions(rel) for rel in rels]) for n in extra}  # a conversion notion is
    counts = [len(t) for t in starts]                                               # computed where it is used
    offsets = np.concatenate([[0], np.cumsum([2 * c for c in counts])]).astype(int)  # relation i: [off_i, off_i+1)
    which = np.repeat(np.arange(len(rels)), [2 * c for c in counts])  # the relation of each simplex
    violating = np.zeros(offsets[-1], dtype=bool)  # the first starts_i simplexes of relation i: its violation
    for i, c in enumerate(counts):
        violating[offsets[i]:offsets[i] + c] = True

    def scores(rel, vals):  # (violation, ratio, bound, conclusion) at each row of vals
        return _scores(rel, vals, diam) + (vals[rel.conclusion],)

    keys = sorted({k for rel in rels for k in (rel.premise, rel.conclusion)})
    paper = [str(k) for k in keys if k in PAPER] + ["sigma_min"]  # the paper's notions the objective reads
    linear = np.array([isinstance(rel.bound, Linear) for rel in rels])
    per = {"prem": [keys.index(rel.premise) for rel in rels], "concl": [keys.index(rel.conclusion) for rel in rels],
           "ca": [float(cast(Linear, rel.bound).ca) if linear[i] else 0.0 for i, rel in enumerate(rels)],
           "cs": [float(cast(Linear, rel.bound).cs) if linear[i] else 0.0 for i, rel in enumerate(rels)],
           "g": [bool(cast(Linear, rel.bound).times_diameter) if linear[i] else False for i, rel in enumerate(rels)]}
    others = list(dict.fromkeys(rel.bound for i, rel in enumerate(rels) if not linear[i]))  # each other bound once
    per["other"] = [-1 if linear[i] else others.index(rel.bound) for i, rel in enumerate(rels)]
    per = {k: np.asarray(v)[which] for k, v in per.items()}  # by simplex

    initial = [True]

    def objective(theta, owner):  # violation simplexes: -violation (scaled); the others: -ratio
        rel_of = which[owner]
        if initial.pop() if initial else False:  # the initial simplexes: the relations' seeded generators draw the
            # same starts, so the points repeat; each distinct one is evaluated once (its values are its own)
            distinct, back = np.unique(theta, axis=0, return_inverse=True)
            back = back.reshape(-1)  # (numpy 2.0.0 gave it the shape (B, 1))
            q, p = family.float_arrays(distinct)
            vals = dense_values(q, p, pairs, extra, paper=paper,
                                only={n: np.flatnonzero(np.bincount(back[u[rel_of]], minlength=len(distinct)))
                                      for n, u in uses.items()})
            vals = {k: v[back] for k, v in vals.items()}
        else:
            q, p = family.float_arrays(theta)
            vals = dense_values(q, p, pairs, extra, only={n: np.flatnonzero(u[rel_of]) for n, u in uses.items()},
                                paper=paper)
        table, at = np.stack([vals[k] for k in keys]), np.arange(len(theta))
        premise, conclusion, sigma = table[per["prem"][owner], at], table[per["concl"][owner], at], vals["sigma_min"]
        bound = _linear_bound(per["ca"][owner], per["cs"][owner], per["g"][owner], premise, sigma, diam)
        other_of = per["other"][owner]
        # other bounds (those with points here): their floats
        for b in np.flatnonzero(np.bincount(other_of[other_of >= 0], minlength=len(others))).tolist():
            rows, other = np.flatnonzero(other_of == b), others[b]
            assert other is not None  # an implication
            bound[rows] = (other.floats(premise[rows]) if isinstance(other, Formula) else
                           [other.float(a, s, diam) for a, s in zip(premise[rows].tolist(), sigma[rows].tolist())])
        viol, ratios, bound = _score_arrays(premise, conclusion, bound)
        with np.errstate(invalid="ignore"):  # scale-free, so that the search does not run off to infinite budgets
            neg_violation = np.where(np.isfinite(viol), -viol / (1.0 + np.abs(conclusion) + np.abs(bound)),
                                     np.where(viol > 0, -1e6, 1e6))
        return np.where(violating[owner], neg_violation, round_bits(np.where(np.isnan(ratios), 1e6, -ratios)))

    x0 = np.concatenate([np.concatenate([t, t]) for t in starts])
    xs, fs = minimize_batch(objective, x0, maxiter=maxiter,
                            xatol=np.concatenate([np.repeat([1e-6, 1e-4], c) for c in counts]),
                            fatol=np.concatenate([np.repeat([1e-12, 1e-4], c) for c in counts]))
    out = []
    for i, rel in enumerate(rels):
        c, off = counts[i], int(offsets[i])
        found = Found([], searched=[])
        q, p = family.float_arrays(xs[off:off + c])
        for s, v in enumerate(scores(rel, dense_values(q, p, pairs, extra_notions(rel)))[0].tolist()):
            found.best_violation = max(found.best_violation, v)
            if v > VIOLATION_MARGIN:
                found.candidates.extend(family.exact_mechanisms(xs[off + s]))
                break
            r = -fs[off + c + s]
            if r < 1e5:
                theta = xs[off + c + s].copy()
                found.ratio_candidates.append(Candidate(
                    float(r), (family.n * family.m, family.describe(), s), family.describe(),
                    functools.partial(DenseFamily.fine_mechanism, family, theta)))  # picklable: found in a forked child
                if found.best_ratio is None or r > found.best_ratio:
                    found.best_ratio, found.ratio_family = r, family.describe()
        assert found.searched is not None  # given above
        found.searched.append(f"{family.describe()}: {c} Nelder-Mead starts")
        out.append(found)
    return out



RR_DOMAINS = (2, 3, 4, 6, 8, 16, 32, 64)



RR_RECORDS = tuple(range(2, 41))

#: The records of the k-RR products whose best ratio is a tightness candidate (certified one by one, so not
#: all of :data:`RR_RECORDS`; local k-RR, ``r = 1``, always is).
RR_TIGHTNESS_RECORDS = (1, 2, 3, 4, 5, 6, 8, 10, 16, 24, 40)



#: Significant bits the ratio simplexes of :func:`search_dense_all` see of their objective.
RATIO_BITS = 24


def round_bits(x: np.ndarray, bits: int = RATIO_BITS) -> np.ndarray:
    """``x`` rounded to ``bits`` significant bits (half to even; exact operations only).

    The ratio simplexes of the dense search minimise this rounding of ``-ratio``: float values that differ in
    their last bits between machines (numpy's SIMD kernels, summation order) round to the same number except
    within about ``2^-52`` of a rounding boundary (about one evaluation in ``2^28``), so Nelder-Mead takes the
    same path, and ends at the same candidate, on every machine.

    Examples
    --------
    >>> round_bits(np.array([1 / 3, -2.0, 0.0]), 4).tolist()
    [0.34375, -2.0, 0.0]
    >>> bool(round_bits(np.array([1 / 3]))[0] == round_bits(np.array([1 / 3 * (1 + 2**-52)]))[0])
    True
    """
    m, e = np.frexp(np.asarray(x, dtype=float))
    return np.ldexp(np.round(np.ldexp(m, bits)), e - bits)


def search_rr(rel: Relation, central: bool, quick: bool = False) -> Found:
    """Grid over ``k``, ``ln t`` (and ``r`` for central), refined by a bounded search (:func:`_refine`)."""
    found = Found([], searched=[])
    domains = RR_DOMAINS[:5] if quick else RR_DOMAINS
    records = RR_RECORDS if central else (1,)
    skews = (0.0, 0.9)
    grid = np.linspace(0.05, 10.0, 40 if quick else 80)
    hits: list[tuple[int, int, int, float, float]] = []  # (r, k, skew idx, log t, violation)
    near: list[tuple[float, int, int, int, int]] = []  # best non-violating grid points, refined below
    tight = [n for n, r in enumerate(records) if r in RR_TIGHTNESS_RECORDS]  # rows with a tightness candidate
    fractions = [Fraction(skew).limit_denominator(10) for skew in skews]
    for k in domains:
        for si, skew in enumerate(skews):
            if central:  # every r at once: the products' values stacked, each with its diameter r
                stacked = _rr_products(k, np.exp(grid).tobytes(), skew, extra_notions(rel), records)
                all_viol, all_ratios, _ = _scores(rel, stacked, np.repeat(records, len(grid)))
            else:
                all_viol, all_ratios, _ = _scores(rel, _rr_grid_values(rel, k, np.exp(grid), skew), 1)
            # each record's row of the stack: its best violation, and (records of RR_TIGHTNESS_RECORDS) the last
            # ratio of the rounded max, row by row as numpy's argmax of each row alone
            viols, ratios = all_viol.reshape(len(records), len(grid)), all_ratios.reshape(len(records), len(grid))
            best = np.argmax(viols, axis=1).tolist()
            top = viols[np.arange(len(records)), best].tolist()
            rounded = np.where(np.isnan(ratios[tight]), -np.inf, round_bits(np.nan_to_num(ratios[tight], nan=0.0)))
            last = (len(grid) - 1 - np.argmax(rounded[:, ::-1], axis=1)).tolist()
            some = (~np.isnan(ratios[tight]).all(axis=1)).tolist()
            at = dict(zip(tight, zip(last, some)))
            for n, r in enumerate(records):
                i, v = best[n], top[n]
                found.best_violation = max(found.best_violation, v)
                if v > VIOLATION_MARGIN:
                    hits.append((r, k, si, float(grid[i]), v))
                else:
                    near.append((v, r, k, si, i))
                if n in at and at[n][1]:
                    j = at[n][0]
                    label = f"{k}-RR" + (f" over r={r}" if central else "")
                    found.ratio_candidates.append(Candidate(
                        float(ratios[n, j]), (k ** (2 * r), label, si, j), label,
                        functools.partial(rr_candidate, k, r, fractions[si], float(grid[j]))))
                    if found.best_ratio is None or ratios[n, j] > found.best_ratio:
                        found.best_ratio = float(ratios[n, j])
                        found.ratio_family = label
    if not hits:  # refine the three most nearly violating grid points (each between its grid neighbours)
        for _, r, k, si, i in sorted(near, reverse=True)[:3]:
            x, v = _refine(rel, k, r, skews[si], central, grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)])
            found.best_violation = max(found.best_violation, v)
            if v > VIOLATION_MARGIN:
                hits.append((r, k, si, x, v))
    assert found.searched is not None  # given above
    found.searched.append(f"k-RR {'products' if central else 'local'}: k in {domains}, "
                          f"{'r in 2..40, ' if central else ''}skew in {skews}, {len(grid)} ratios + refinement")
    # Smallest witnesses first: fewest datasets k^r (the dense size), then fewer records.
    for r, k, si, x, _ in sorted(hits, key=lambda h: (h[0] * math.log(h[1]), h[0], h[1]))[:6]:
        fam = RRFamily(k, r, Fraction(skews[si]).limit_denominator(10))
        for t in _simple_ratios(math.exp(x)):
            found.candidates.append(fam.mechanism(t))
    return found



#: Points of each round of :func:`_refine`'s grids, and its rounds: each round narrows the bracket to the two
#: intervals around its best point (a factor ``(REFINE_POINTS - 1) / 2``), so a bracket of two grid steps of
#: :func:`search_rr` (at most 0.52) ends below ``1e-6`` wide, the tolerance of the scalar search it replaces.
REFINE_POINTS = 33
REFINE_ROUNDS = 5
#: The largest ``k`` refined by grids; above it a point costs more than a call (``k^2`` entries), and
#: :func:`_refine` takes a golden-section search, one point per call, to a bracket of :data:`REFINE_XTOL`.
REFINE_GRID_K = 8
REFINE_XTOL = 1e-6


def _refine(rel: Relation, k: int, r: int, skew: float, central: bool, lo: float, hi: float) -> tuple[float, float]:
    """The largest float violation of ``rel`` over k-RR (``r`` records when ``central``) with ``ln t`` in
    ``[lo, hi]``, and where: for ``k`` up to :data:`REFINE_GRID_K`, :data:`REFINE_ROUNDS` rounds of
    :data:`REFINE_POINTS` evenly spaced points, each round one batch evaluation (:func:`_rr_points`) between the
    neighbours of the previous round's best point; for larger ``k``, a golden-section search.

    Examples
    --------
    >>> from relations.catalogue import get
    >>> x, v = _refine(get("zheng2025.thm3"), 2, 1, 0.0, False, 0.5, 1.5)  # an equality on uniform priors
    >>> 0.5 <= x <= 1.5, abs(v) < 1e-12
    (True, True)
    """
    diam, names = (r if central else 1), _read_notions(rel, central)

    def at(xs: np.ndarray) -> np.ndarray:  # the violations at the points xs = ln t
        ts = np.exp(xs).tobytes()
        v = _rr_points(k, ts, skew, names)  # the first points are every relation's
        viol = _scores(rel, product_values(v, r) if central else v, diam)[0]
        return np.where(np.isnan(viol), -np.inf, viol)

    best_x, best_v = lo, -math.inf
    if k <= REFINE_GRID_K:
        for _ in range(REFINE_ROUNDS):
            xs = np.linspace(lo, hi, REFINE_POINTS)
            viol = at(xs)
            j = int(np.argmax(viol))
            if viol[j] > best_v:
                best_x, best_v = float(xs[j]), float(viol[j])
            lo, hi = xs[max(j - 1, 0)], xs[min(j + 1, REFINE_POINTS - 1)]
        return best_x, best_v
    g = (math.sqrt(5) - 1) / 2
    c, d = hi - g * (hi - lo), lo + g * (hi - lo)
    fc, fd = at(np.array([c, d])).tolist()
    best_x, best_v = (c, fc) if fc >= fd else (d, fd)
    while hi - lo > REFINE_XTOL:
        if fc >= fd:  # the maximum is in [lo, d]
            hi, d, fd = d, c, fc
            c = hi - g * (hi - lo)
            fc = float(at(np.array([c]))[0])
            x, v = c, fc
        else:  # in [c, hi]
            lo, c, fc = c, d, fd
            d = lo + g * (hi - lo)
            fd = float(at(np.array([d]))[0])
            x, v = d, fd
        if v > best_v:
            best_x, best_v = x, v
    return best_x, best_v


def extra_notions(rel: Relation) -> tuple[str, ...]:
    """The relation's notions beyond :data:`~relations.measures._batch.PAPER` (computed on demand).

    Parameters
    ----------
    rel : Relation

    Returns
    -------
    tuple of str
        Its premise and conclusion notions that :func:`~relations.measures._batch.dense_values` computes
        only when asked.

    Examples
    --------
    >>> from relations.catalogue._entries import get
    >>> extra_notions(get("zheng2025.thm1"))
    ()
    """
    return tuple(n for n in (str(rel.premise), str(rel.conclusion)) if n not in PAPER)


def _rr_grid_values(rel: Relation, k: int, ts: np.ndarray, skew: float) -> dict[str, np.ndarray]:
    """Float values of local k-RR at each ratio in ``ts`` (one batch; every ordered pair of k-RR rows is a
    column permutation of rows 0 and 1, and inputs ``1..k-1`` are exchangeable under the prior).  They
    depend on the relation only through its conversion notions, so each grid is computed once per
    process for all relations (read-only arrays)."""
    return _rr_values(k, np.asarray(ts, dtype=float).tobytes(), skew, extra_notions(rel))


@lru_cache(maxsize=512)
def _rr_values(k: int, ts: bytes, skew: float, extra: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The notions of :data:`~relations.measures._batch.PAPER` and ``extra``, each computed once per grid whatever
    the other notions asked with it (:func:`_rr_notion`: every notion of :func:`dense_values` is computed on
    its own, so the same floats)."""
    out = dict(_rr_notion(k, ts, skew, None))
    for name in extra:
        out.setdefault(name, _rr_notion(k, ts, skew, name)[name])
    return out


@lru_cache(maxsize=1024)
def _rr_notion(k: int, ts: bytes, skew: float, name: str | None) -> dict[str, np.ndarray]:
    """:func:`_rr_direct` of the paper's notions (``name`` None), or of the notion ``name`` alone."""
    return _rr_direct(k, ts, skew, ()) if name is None else _rr_direct(k, ts, skew, (name,), ())


def _rr_direct(k: int, ts: bytes, skew: float, extra: tuple[str, ...], paper: tuple[str, ...] | None = None
               ) -> dict[str, np.ndarray]:
    """:func:`dense_values` of local k-RR at the ratios ``ts`` (read-only arrays): the paper's notions ``paper``
    (default all) and the conversion notions ``extra``."""
    q = _krr_stack(k, ts)
    out = dense_values(q, np.broadcast_to(rr_float_prior(k, skew), (len(q), k)), np.array([[0, 1], [1, 0]]), extra,
                       paper=paper)
    for v in out.values():
        v.flags.writeable = False
    return out


@lru_cache(maxsize=8)
def _krr_stack(k: int, ts: bytes) -> np.ndarray:
    """krr_rows' matrix stacked over the ratios ``ts``, shape ``(len(ts), k, k)`` (read-only): the notions of a
    grid (:func:`_rr_notion`, one after another over both skews) or of a refinement's points (:func:`_rr_points`)
    read the same stack."""
    t = np.frombuffer(ts)[:, None, None]
    q = np.where(np.eye(k, dtype=bool)[None], t, 1.0) / (t + k - 1)
    q.flags.writeable = False
    return q


#: :func:`_rr_points`' values, one per ``(k, ts, skew, notion)``, the oldest dropped beyond :data:`_POINTS_KEPT`.
_POINTS: dict[tuple[int, bytes, float, str], np.ndarray] = {}
_POINTS_KEPT = 4096


def _rr_points(k: int, ts: bytes, skew: float, names: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The notions ``names`` of local k-RR at the points ``ts`` of a round of :func:`_refine`, each kept on its own
    (relations that read it refine the same first points): those not kept yet computed together, in one
    :func:`_rr_direct` call.  Every notion of :func:`dense_values` is computed on its own, so these are the floats
    :func:`_rr_values` gives, whatever notions are computed with them.

    Examples
    --------
    >>> ts = np.exp(np.linspace(0.1, 2.0, 5)).tobytes()
    >>> both = _rr_points(3, ts, 0.9, ("eps_d", "kl"))
    >>> [both[n].tobytes() == _rr_direct(3, ts, 0.9, ("kl",))[n].tobytes() for n in ("eps_d", "kl")]
    [True, True]
    """
    missing = [name for name in names if (k, ts, skew, name) not in _POINTS]
    if missing:
        got = _rr_direct(k, ts, skew, tuple(n for n in missing if n not in PAPER), tuple(n for n in missing if n in PAPER))
        for name in missing:
            if len(_POINTS) >= _POINTS_KEPT:
                del _POINTS[next(iter(_POINTS))]
            _POINTS[k, ts, skew, name] = got[name]
    return {name: _POINTS[k, ts, skew, name] for name in names}


def _read_notions(rel: Relation, central: bool) -> tuple[str, ...]:
    """The local notions :func:`_scores` reads for ``rel`` (through :func:`product_values` when ``central``: the
    parts of a gap notion, and ``eps_d`` and ``eps_m``, which it always reads).

    Examples
    --------
    >>> from relations.catalogue import get
    >>> _read_notions(get("zheng2025.thm1"), False), _read_notions(get("zheng2025.thm1"), True)
    (('eps_i', 'eps_d', 'sigma_min'), ('eps_i', 'eps_d', 'sigma_min', 'eps_m'))
    """
    names = [str(rel.premise), str(rel.conclusion), "sigma_min"]
    if central:
        names += [part for name in names if name in GAPS for part in GAPS[name]] + ["eps_d", "eps_m"]
    return tuple(dict.fromkeys(names))


@lru_cache(maxsize=512)
def _rr_products(k: int, ts: bytes, skew: float, extra: tuple[str, ...], records: tuple[int, ...]
                 ) -> dict[str, np.ndarray]:
    """:func:`_rr_values` of the ``r``-fold products for each ``r`` of ``records``, stacked in that order (each
    relation of the same conversion notions scores the same stack: computed once per process, read-only)."""
    out = stacked_product_values(_rr_values(k, ts, skew, extra), records)
    for v in out.values():
        v.flags.writeable = False
    return out


def _scores(rel: Relation, vals: dict[str, np.ndarray], diam) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`violation`, :func:`ratio` (NaN for None) and :func:`float_bound` at every point of a batch of
    values; ``diam`` is the diameter (None: disconnected), or an array of one per point."""
    premise, sigma = vals[rel.premise], vals["sigma_min"]
    if isinstance(rel.bound, Linear):
        b = rel.bound
        bound = _linear_bound(np.full(premise.shape, float(b.ca)), np.full(premise.shape, float(b.cs)),
                              np.full(premise.shape, b.times_diameter), premise, sigma, diam)
    elif isinstance(rel.bound, Formula):  # f(premise) alone, the same floats as point by point
        bound = rel.bound.floats(premise)
    else:
        diams = diam.tolist() if isinstance(diam, np.ndarray) else [diam] * len(premise)
        assert rel.bound is not None  # an implication
        bound = np.array([rel.bound.float(a, s, d) for a, s, d in zip(premise.tolist(), sigma.tolist(), diams)])
    return _score_arrays(premise, vals[rel.conclusion], bound)


def _linear_bound(ca: np.ndarray, cs: np.ndarray, times_diameter: np.ndarray, premise: np.ndarray,
                  sigma: np.ndarray, diam) -> np.ndarray:
    """:meth:`Linear.float <relations.catalogue._bounds.Linear.float>` element by element: ``ca a + cs s``
    (the ``s`` term only where ``cs != 0``), times the diameter where asked (``inf`` when disconnected)."""
    with np.errstate(all="ignore"):
        base = ca * premise + np.where(cs != 0, cs * sigma, 0.0)
        return np.where(times_diameter, math.inf if diam is None else diam * base, base)


def _score_arrays(premise: np.ndarray, conclusion: np.ndarray, bound: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(violation, ratio, bound) from the premise, conclusion and bound at each point (see :func:`_scores`)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        viol = np.where(np.isposinf(bound) | np.isinf(premise), -np.inf, conclusion - bound)
        viol = np.where(np.isinf(conclusion) & ~np.isinf(premise) & ~np.isposinf(bound), conclusion, viol)
        ok = ~np.isinf(premise) & (bound > RATIO_FLOOR) & (bound < np.inf) & ~np.isinf(conclusion)
        ratios = np.where(ok, conclusion / np.where(ok, bound, 1.0), np.nan)
    return viol, ratios, bound


@lru_cache(maxsize=4096)
def rr_candidate(k: int, records: int, skew: Fraction, g: float) -> Mechanism:
    """The exact k-RR mechanism (a product over ``records``) at the grid point ``ln t = g`` of :func:`search_rr`,
    built once per process: the relations share their grids, and often their best points."""
    return RRFamily(k, records, skew).mechanism(_grid_ratio(g))


def _grid_ratio(g: float) -> Fraction:
    """The exact ratio of the grid point ``ln t = g``: ``e^g`` rounded to a multiple of ``2^-30`` (a float
    ``e^g`` that differs in its last bits between machines gives the same ratio)."""
    return Fraction(round(math.exp(g) * 2**30), 2**30)


def _simple_ratios(t: float) -> Iterator[Fraction]:
    """Rational ratios near ``t``: integers first, then finer fractions."""
    seen = set()
    for den in (1, 2, 4, 10, 100, 10**4):
        q = Fraction(t).limit_denominator(den)
        if q > 1 and q not in seen:
            seen.add(q)
            yield q

