"""Known frontiers: the exact suprema that a relation's tightness is measured against.

"Tightness" found by a search is a lower bound on how tight a relation is; where the
supremum of ``conclusion / bound`` over all mechanisms is known, ``verify`` reports it
and how close the search came (``docs/proofs/README.md``).

**Local mutual information under eps-LDP.**  Over every finite local mechanism with
``eps_d <= eps`` and every prior,

    sup I(X;Y) = F(eps) = c - 1 - ln c,   c = eps / (1 - e^-eps),

the maximum over ``theta`` in ``(0, 1)`` of ``D(Bern(theta e^eps / s) || Bern(theta))``,
``s = 1 + theta (e^eps - 1)``, attained at ``s = c``, i.e. ``theta* = (c - 1)/(e^eps - 1)``.
Upper bound: write ``I = sum_y q(y) sum_x p(x) phi(u_x(y))`` with ``phi(u) = u ln u`` and
``u_x(y) = Q[x][y] / q(y)``; for each ``y`` the ``u_x(y)`` have mean 1 under ``p`` and
lie in ``[a, e^eps a]`` for some ``a``, and by convexity of ``phi`` the mean of
``phi(u)`` is largest with all mass on the two ends, which gives ``f(theta)`` with
``theta`` the mass at the top, at most ``F(eps)`` (extremal mechanisms of this two-level form
are those of Kairouz et al. [1]_).  Lower bound: ``s``-subset selection [2]_
over ``k`` inputs with a uniform prior has ``I = f(s / k)`` exactly, so ``I -> F(eps)``
as ``s / k -> theta*``; for a fixed ``k`` the maximum is strictly lower when ``theta*``
is irrational.  ``F(1) = 0.1233...``, ``F(8) = 4.92...``; ``F(eps) / eps -> 1`` only as
``eps -> inf`` and ``F(eps) / eps^2 -> 1/8`` as ``eps -> 0``.

The same frontier bounds every relation whose conclusion is ``eps_m`` and whose
premise is ``eps_d`` (locally), ``eps_all`` (a channel over any inputs whose every pair
is ``eps``-indistinguishable is a local eps-LDP channel), or ``eps_i`` / the central
``diam * eps_d`` (reached by uniform priors, where ``eps_i = eps_d`` and ``sigma_min = 0``,
and by products of ``r`` local frontier mechanisms, ``I = r F(eps)`` with ``diam = r``).

**Attained bounds.**  The identifiability/DP ratio relations are equalities for every
mechanism with a uniform prior (``eps_i = eps_d``, ``sigma_min = 0``); the prior bound
``-sigma_min <= eps_i`` for a channel with identical rows; group privacy
``eps_all <= diam eps_d`` for a k-RR product (``eps_all = r eps_d``).  Each is shown on
an instance, exactly, by the checker.

References
----------
.. [1] Kairouz, Oh, Viswanath. Extremal mechanisms for local differential privacy.
   JMLR 17, 2016 (extremal LDP mechanisms are staircase / subset-type).
.. [2] Ye, Barg. Optimal schemes for discrete distribution estimation under locally
   differential privacy. IEEE Trans. Inf. Theory 64(8), 2018. doi:10.1109/TIT.2018.2809790
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache, partial

import numpy as np

from relations.catalogue._bounds import Linear
from relations.catalogue._entries import Relation
from relations.checking._checker import evaluate
from relations.checking._quantities import values
from relations.mechanisms._local import krr, product, subset_selection
from relations.model._mechanism import Mechanism
from relations.numbers._enclosure import certified_text, interval, working_precision
from relations.search._selection import Candidate, select_max

__all__ = ["local_mi_sup", "local_mi_sup_float", "maximiser", "bernoulli_kl", "Point", "Frontier", "frontier_for",
           "REFERENCE_RATIOS"]

#: ``e^eps`` of the reference points at which the MI frontier is compared with the search.
REFERENCE_RATIOS = (Fraction(2), Fraction(3), Fraction(10))


def local_mi_sup_float(eps: float) -> float:
    """``F(eps) = c - 1 - ln c``, ``c = eps / (1 - e^-eps)``, in floats (``F(0) = 0``).

    Examples
    --------
    >>> round(local_mi_sup_float(1.0), 4), round(local_mi_sup_float(8.0), 3)
    (0.1233, 4.923)
    """
    if eps <= 0:
        return 0.0
    c = eps / -math.expm1(-eps)
    return (c - 1) - math.log(c)


def local_mi_sup(ratio: Fraction, *, bits: int = 128) -> tuple[Fraction, Fraction]:
    """A certified enclosure of ``F(ln ratio)``, the sup of ``I(X;Y)`` under ``ln(ratio)``-LDP.

    Parameters
    ----------
    ratio : Fraction
        ``e^eps > 1``.
    bits : int, optional
        arb working precision.

    Returns
    -------
    (Fraction, Fraction)
        Lower and upper end, exact rationals.

    Examples
    --------
    >>> lo, hi = local_mi_sup(Fraction(3))
    >>> abs(float(lo) - local_mi_sup_float(math.log(3))) < 1e-15, float(hi - lo) < 1e-30
    (True, True)
    """
    from flint import arb, fmpq

    ratio = Fraction(ratio)
    if ratio <= 1:
        raise ValueError("ratio must exceed 1")
    with working_precision(bits):
        t = arb(fmpq(ratio.numerator, ratio.denominator))
        eps = t.log()
        c = eps * t / (t - 1)  # eps / (1 - e^-eps)
        return interval(c - 1 - c.log())


def maximiser(eps: float) -> float:
    """``theta* = (c - 1) / (e^eps - 1)``: the share of inputs an optimal subset covers.

    Examples
    --------
    >>> round(maximiser(math.log(3)), 4)
    0.324
    """
    c = eps / -math.expm1(-eps)
    return (c - 1) / math.expm1(eps)


def bernoulli_kl(a: float, b: float) -> float:
    """``D(Bern(a) || Bern(b))`` in nats (floats).

    Examples
    --------
    >>> round(bernoulli_kl(0.6, 1 / 3), 5)
    0.14834
    """
    out = 0.0
    for x, y in ((a, b), (1 - a, 1 - b)):
        if x > 0:
            out += x * math.log(x / y)
    return out


@dataclass
class Point:
    """The MI frontier at ``eps = ln(ratio)`` against the best mechanism the search found there."""

    ratio: Fraction
    frontier: tuple[Fraction, Fraction]
    best: float
    family: str
    notion: str = "I"  #: the quantity whose sup the frontier is (a conversion notion, or I(X;Y))

    def json(self) -> dict:
        """The point as JSON: eps, the certified frontier, the best found and its share of the frontier."""
        lo, hi = self.frontier
        share = self.best / float(hi) if hi > 0 else 1.0  # a zero frontier (delta(e') for e' >= eps) is met by 0
        out = {"eps": f"ln({self.ratio})", "frontier": certified_text(lo, hi), "best_found": self.best,
               "share_of_frontier": share, "best_family": self.family}
        return out if self.notion == "I" else {**out, "notion": self.notion}


@dataclass
class Frontier:
    """A relation's known frontier: the supremum of ``conclusion / bound`` and its evidence."""

    sup_ratio: float
    attained: bool
    how: str
    points: list[Point] = field(default_factory=list)

    def json(self) -> dict:
        """The frontier as JSON (``verify``'s ``frontier`` field)."""
        return {"sup_ratio": self.sup_ratio, "attained": self.attained, "how": self.how,
                "points": [p.json() for p in self.points]}

    def summary(self) -> str:
        """One line for the verify table."""
        head = f"frontier {self.sup_ratio:.4g}" + (" (attained)" if self.attained else "")
        if self.points:
            p = max(self.points, key=lambda p: p.ratio)
            j = p.json()
            head += f"; at eps={j['eps']}: sup {p.notion} {j['frontier']}, best found {j['share_of_frontier']:.2%} of it"
        return head


def _float_bound(rel: Relation, eps: float) -> float:
    """The bound at premise ``eps``, ``sigma_min = 0``, diameter 1 (the frontier's mechanisms)."""
    assert rel.bound is not None  # an implication
    return rel.bound.float(eps, 0.0, 1)


@cache
def _sup_ratio(bound) -> tuple[float, str, str]:
    """``sup_eps F(eps) / f(eps)``: sympy's limits at 0 and inf, and a log grid in between.

    Returns the supremum as a float, its exact form when it is a limit (else ``""``) and
    where it is approached.  Kept in the cache folder for the next run of the same code and sympy
    (:func:`~relations.search._screening.stored_result`, keyed by the bound), which then imports no sympy.
    """
    import hashlib

    from relations.search._screening import stored_result

    def valid(kept) -> bool:
        return (isinstance(kept, tuple) and len(kept) == 3 and type(kept[0]) is float
                and all(type(x) is str for x in kept[1:]))

    name = f"sup-ratio-{hashlib.sha256(repr(bound).encode()).hexdigest()[:32]}"
    return stored_result(name, partial(_computed_sup_ratio, bound), valid=valid)


def _computed_sup_ratio(bound) -> tuple[float, str, str]:
    """:func:`_sup_ratio`, computed."""
    import sympy as sp

    e = sp.Symbol("eps", positive=True)
    b = bound.sympy(e, sp.Integer(0), diameter=1)
    lead0, lead_inf = _leading_terms()
    ends = {"as eps -> 0": sp.limit(lead0 / b, e, 0), "as eps -> inf": sp.limit(lead_inf / b, e, sp.oo)}
    grid = np.logspace(-3, 3, 1201)
    inner = np.array([local_mi_sup_float(x) / bound.float(x, 0.0, 1) for x in grid])
    i = int(np.argmax(inner))
    where, limit = max(ends.items(), key=lambda kv: float(kv[1]))
    if float(inner[i]) > float(limit) + 1e-12:
        return float(inner[i]), "", f"at eps = {grid[i]:.4g}"
    return float(limit), str(limit), where


@lru_cache(maxsize=1)
def _leading_terms():
    """``F(eps) = c - 1 - ln c``'s leading terms at 0 and at infinity, as sympy expressions in ``eps``:
    ``eps^2 / 8`` and ``eps``.

    ``F / lead -> 1`` at each end, so ``lim F / bound = lim lead / bound`` there (a product of limits),
    and sympy takes that limit at once.  At 0, with ``u = c - 1 -> 0+`` and ``g(u) = u - ln(1 + u)``,
    ``F / eps^2 = (g(u) / u^2) (u / eps)^2 -> b a^2`` with ``a = lim u / eps = 1/2`` and
    ``b = lim g(u) / u^2 = 1/2``; at infinity the lead is ``(lim F / eps) eps = eps``.  The three limits
    are constants, written here; :func:`_derived_leading_terms` has sympy find them (about a second of
    CPU per process, which each ``verify`` would pay), and tests/test_frontiers.py checks they agree.
    """
    import sympy as sp

    e = sp.Symbol("eps", positive=True)
    return sp.Rational(1, 8) * e**2, e


def _derived_leading_terms():
    """:func:`_leading_terms` found by sympy: ``a``, ``b`` and ``k`` as limits (each a finite positive number)."""
    import sympy as sp

    e, u = sp.Symbol("eps", positive=True), sp.Symbol("u", positive=True)
    c = e / (1 - sp.exp(-e))
    a = sp.limit((c - 1) / e, e, 0)
    b = sp.limit((u - sp.log(1 + u)) / u**2, u, 0)
    k = sp.limit((c - 1 - sp.log(c)) / e, e, sp.oo)
    for x in (a, b, k):  # each must be a finite positive number for the argument above
        if not (x.is_finite and x.is_positive):  # pragma: no cover - these are 1/2, 1/2 and 1
            raise ArithmeticError(f"unexpected limit {x} in the frontier's leading terms")
    return b * a**2 * e**2, k * e


@lru_cache(maxsize=4)
def _mi_points(quick: bool) -> tuple[Point, ...]:
    """The frontier at the reference points against subset selection seeded at ``theta*``.

    Candidates (``k`` inputs, subsets of ``floor`` and ``ceil(theta* k)``) are screened in
    floats; those near the best are certified, the best by certified value is chosen (an exact tie,
    such as ``s``-of-``k`` against ``2s``-of-``2k``, goes to the smaller ``k``:
    :func:`~relations.search._selection.select_max`), and its lower end is reported.  The points are results of
    the code alone (certified values, a choice the floats do not decide), kept in the cache folder for the next
    run of the same code (:func:`~relations.search._screening.stored_result`).
    """
    from relations.search._screening import stored_result

    def compute() -> tuple:
        return tuple((p.ratio, p.frontier, p.best, p.family, p.notion) for p in _computed_mi_points(quick))

    def valid(kept) -> bool:
        return isinstance(kept, tuple) and len(kept) > 0 and all(
            isinstance(p, tuple) and len(p) == 5 and type(p[0]) is Fraction and isinstance(p[1], tuple)
            and len(p[1]) == 2 and all(type(x) is Fraction for x in p[1]) and type(p[2]) is float
            and type(p[3]) is str and type(p[4]) is str for p in kept)

    kept = stored_result(f"mi-points-{'quick' if quick else 'full'}", compute, valid=valid)
    return tuple(Point(ratio, frontier, best, family, notion) for ratio, frontier, best, family, notion in kept)


def _computed_mi_points(quick: bool) -> tuple[Point, ...]:
    """:func:`_mi_points`, computed."""
    from relations.measures._information import mutual_information, mutual_information_float

    def certify(mech, bits):
        certified = mutual_information(mech.prior.exact, mech.channel.exact, bits=bits)
        return certified.lower, certified.upper

    out = []
    for ratio in REFERENCE_RATIOS[:2] if quick else REFERENCE_RATIOS:
        theta = maximiser(math.log(ratio))
        screened = []
        for k in range(2, 13 if quick else 17):
            for s in sorted({max(1, min(k - 1, math.floor(theta * k))), max(1, min(k - 1, math.ceil(theta * k)))}):
                if math.comb(k, s) > 20000:
                    continue
                screened.append(Candidate(mutual_information_float(np.full(k, 1.0 / k), _subset_floats(k, s, ratio)),
                                          (k, s), f"{s}-subset selection, k = {k}, uniform prior",
                                          partial(subset_selection, k, s, ratio)))
        chosen = select_max(screened, certify)
        assert chosen is not None  # the candidates have finite screens and exact values
        out.append(Point(ratio, local_mi_sup(ratio), float(chosen.lower), chosen.label))
    return tuple(out)


def _subset_floats(k: int, s: int, ratio) -> np.ndarray:
    """The float channel of ``s``-subset selection (:func:`~relations.mechanisms._local.subset_selection`),
    built directly for screening: ``t / Z`` on the subsets holding the input, ``1 / Z`` elsewhere."""
    subsets = list(itertools.combinations(range(k), s))
    member = np.zeros((k, len(subsets)), dtype=bool)
    for j, subset in enumerate(subsets):
        member[list(subset), j] = True
    t = float(ratio)
    return np.where(member, t, 1.0) / (math.comb(k - 1, s - 1) * t + math.comb(k - 1, s))


def _equality(rel: Relation, mech: Mechanism) -> bool:
    """The relation holds with equality on ``mech``, exactly."""
    o = evaluate(rel, values(mech))
    return o.slack_exact == "ln(1)" or (o.bound is not None and o.conclusion is not None
                                        and str(o.bound) == str(o.conclusion))


def frontier_for(rel: Relation, *, quick: bool = False) -> Frontier | None:
    """The known frontier of a relation that holds, computed (``None`` where none is known: "best found").

    Call it only for a relation that stands (proved or unrefuted): the suprema are those of
    ``conclusion / bound`` over mechanisms on which it holds.

    Parameters
    ----------
    rel : Relation
        An implication of the catalogue.
    quick : bool, optional
        Fewer reference points and smaller subset-selection domains.

    Returns
    -------
    Frontier or None

    Examples
    --------
    >>> from relations.catalogue import get
    >>> f = frontier_for(get("relations.thm11_sharp"), quick=True)
    >>> f.sup_ratio, f.attained, f.how.split(":")[0]
    (1.0, False, 'sup I under eps-LDP is c - 1 - ln c, c = eps/(1 - e^-eps)')
    >>> p = f.points[0].json()
    >>> p["eps"], p["frontier"], p["share_of_frontier"] > 0.99
    ('ln(2)', '0.05966010114...', True)
    >>> frontier_for(get("dworkroth2014.group")).attained
    True
    """
    if rel.kind != "implication" or rel.bound is None:
        return None
    if rel.conclusion == "eps_m" and rel.premise in ("eps_d", "eps_all", "eps_i"):
        if isinstance(rel.bound, Linear) and rel.bound.ca <= 0:
            return None
        sup, exact, where = _sup_ratio(rel.bound)
        via = {"eps_d": "local mechanisms" if rel.setting == "local" else
               "products of r local frontier mechanisms (I = r F(eps), diam = r)",
               "eps_all": "any channel whose pairs are all eps-indistinguishable",
               "eps_i": "uniform priors (eps_i = eps_d, sigma_min = 0)"}[rel.premise]
        if rel.premise == "eps_i" and rel.setting != "local":
            via += " and products of r local frontier mechanisms"
        how = (f"sup I under eps-LDP is c - 1 - ln c, c = eps/(1 - e^-eps): sup of F(eps) / bound(eps) = "
               f"{exact or f'{sup:.6g}'}, approached {where} (not attained), by {via}")
        return Frontier(sup, False, how, list(_mi_points(quick)))
    witness = _attaining(rel)
    if witness is not None and _equality(rel, witness[0]):
        return Frontier(1.0, True, f"equality on {witness[1]}")
    return None


def _attaining(rel: Relation) -> tuple[Mechanism, str] | None:
    """A mechanism on which the bound should be an equality, by the relation's shape."""
    if not isinstance(rel.bound, Linear):
        return None
    b = rel.bound
    central = rel.setting == "central"
    if {rel.premise, rel.conclusion} == {"eps_i", "eps_d"} and b.ca == 1 and not b.times_diameter:
        mech = krr(3, 2)
        if central:
            mech = product(mech, records=2)
        return mech, ("3-RR (ratio 2) " + ("over D^2, " if central else "") + "with a uniform prior: eps_i = eps_d, "
                      "sigma_min = 0")
    if rel.conclusion == "neg_sigma" and rel.premise == "eps_i":
        rows = [[Fraction(1, 3), Fraction(2, 3)]] * (4 if central else 2)
        prior = [Fraction(3, 8), Fraction(1, 8), Fraction(1, 8), Fraction(3, 8)] if central else [Fraction(3, 4),
                                                                                                  Fraction(1, 4)]
        mech = (Mechanism.central(rows, records=2, domain=2, prior=prior) if central
                else Mechanism.local(rows, prior=prior))
        return mech, "identical rows with a non-uniform prior: eps_i = -sigma_min"
    if rel.conclusion == "eps_all" and b.times_diameter:
        return product(krr(3, 2), records=3), "a 3-RR product over D^3: eps_all = 3 eps_d"
    return None
