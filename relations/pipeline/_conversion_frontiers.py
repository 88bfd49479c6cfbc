"""Exact local frontiers of the conversion notions under eps-LDP, certified with arb.

For ``t = e^eps`` (``eps``-DP over every pair of inputs, i.e. ``eps``-LDP):

* **KL** -- ``sup D(Q[x] || Q[x']) = eps tanh(eps/2) = ln(t) (t - 1)/(t + 1)``, attained by binary
  randomized response (``Q = [[t, 1], [1, t]] / (1 + t)``): two distributions whose ratio lies in
  ``[1/t, t]`` have the largest divergence with all mass on the two extreme ratios [1]_;
* **zCDP** -- binary RR has ``rho = eps tanh(eps/2)``: ``renyi(a)/a`` decreases in ``a`` for it and
  tends to its KL divergence as ``a -> 1``; no eps-DP pair found by the searches exceeds it (the
  relation ``relations.dp_zcdp_tanh``, ``unrefuted``), so it is the frontier if that relation holds;
  in any case ``rho(RR) / (eps^2/2) -> 1`` as ``eps -> 0``, so Bun and Steinke's ``eps^2/2`` is
  asymptotically tight;
* **privacy profile** -- ``sup delta(e) = max(0, (t - e^e)/(1 + t))`` and so
  ``sup eps_delta(d) = ln(max(1, (1 - d) t - d))``, attained by binary RR, whose privacy region
  contains that of every eps-DP pair [2]_;
* **maximal leakage** -- with ``k`` inputs ``sup ln sum_y max_x Q[x][y] = ln(k t / (t + k - 1))``,
  attained by ``k``-RR (that nothing exceeds it is checked numerically, not proved here), tending to
  ``eps`` as ``k -> inf`` (never attained).

Each closed form is validated in ``tests/test_conversions.py`` against a numerical maximisation
over small channels (scipy) and against the extremal mechanism's own value.

References
----------
.. [1] Dwork, Rothblum, Vadhan. Boosting and differential privacy. FOCS 2010. doi:10.1109/FOCS.2010.12
.. [2] Kairouz, Oh, Viswanath. The composition theorem for differential privacy. IEEE Trans. Inf.
   Theory 63(6), 2017. doi:10.1109/TIT.2017.2685505

Examples
--------
>>> lo, hi = kl_sup(Fraction(3))  # ln 3 * 2/4
>>> round(float(lo), 12), float(hi - lo) < 1e-30
(0.549306144334, True)
>>> round(float(ml_sup(Fraction(3), 2)[0]), 6)  # binary RR: ln(2 * 3/4)
0.405465
"""

from __future__ import annotations

import math
from fractions import Fraction

from relations.catalogue._conversions import CONVERSIONS
from relations.catalogue._entries import Relation
from relations.mechanisms._local import krr
from relations.numbers._enclosure import interval, working_precision
from relations.pipeline._frontiers import REFERENCE_RATIOS, Frontier, Point

__all__ = ["CONVERSION_IDS", "kl_sup", "profile_sup", "eps_delta_sup", "ml_sup", "frontier_float", "ML_K", "conversion_frontier",
           "frontier_enclosure",
           "kl_frontier", "rho_frontier", "delta_frontier", "eps_delta_frontier", "maximal_leakage_frontier",
           "min_entropy_frontier"]

#: Ids of the conversion relations, whose frontiers are here (``verify`` asks :func:`conversion_frontier`).
CONVERSION_IDS = frozenset(c["id"] for c in CONVERSIONS)

#: The number of inputs of the k-RR that stands for ``k -> inf`` at the reference points.
ML_K = 64


def _t(ratio: Fraction):
    from flint import arb, fmpq

    ratio = Fraction(ratio)
    if ratio <= 1:
        raise ValueError("ratio must exceed 1")
    return arb(fmpq(ratio.numerator, ratio.denominator))


def _q(x: Fraction):
    from flint import arb, fmpq

    x = Fraction(x)
    return arb(fmpq(x.numerator, x.denominator))


def kl_sup(ratio: Fraction, *, bits: int = 128) -> tuple[Fraction, Fraction]:
    """A certified enclosure of ``eps tanh(eps/2)``, ``eps = ln(ratio)``: the sup of ``kl`` (and the
    ``rho`` of binary RR) under ``eps``-LDP.

    Parameters and returns as for :func:`relations.pipeline._frontiers.local_mi_sup` (``ratio`` is ``e^eps``).

    Examples
    --------
    >>> lo, hi = kl_sup(Fraction(3))  # ln(3) * 2/4 = 0.54930614433405...
    >>> round(float(lo), 12), hi - lo < Fraction(1, 2**100)
    (0.549306144334, True)
    """
    with working_precision(bits):
        t = _t(ratio)
        return interval(t.log() * (t - 1) / (t + 1))


def profile_sup(ratio: Fraction, eps_prime: Fraction, *, bits: int = 128) -> tuple[Fraction, Fraction]:
    """A certified enclosure of ``max(0, (e^eps - e^eps')/(1 + e^eps))``: the sup of ``delta(eps')``.

    Examples
    --------
    >>> lo, hi = profile_sup(Fraction(10), Fraction(1))
    >>> round(float(lo), 9)  # (10 - e)/11
    0.661974379
    """
    with working_precision(bits):
        t = _t(ratio)
        v = (t - _q(eps_prime).exp()) / (1 + t)
        return interval(v.max(_q(Fraction(0))))


def eps_delta_sup(ratio: Fraction, delta: Fraction, *, bits: int = 128) -> tuple[Fraction, Fraction]:
    """A certified enclosure of ``ln(max(1, (1 - delta) e^eps - delta))``: the sup of ``eps_delta(delta)``.

    Examples
    --------
    >>> lo, hi = eps_delta_sup(Fraction(3), Fraction(1, 100000))
    >>> round(float(lo), 9), float(lo) < math.log(3)
    (1.098598955, True)
    """
    with working_precision(bits):
        d = _q(delta)
        v = (1 - d) * _t(ratio) - d
        return interval(v.max(_q(Fraction(1))).log())


def ml_sup(ratio: Fraction, k: int, *, bits: int = 128) -> tuple[Fraction, Fraction]:
    """A certified enclosure of ``ln(k e^eps / (e^eps + k - 1))``: the sup of maximal leakage under
    ``eps``-LDP with ``k`` inputs (``k``-RR).

    Parameters
    ----------
    ratio : Fraction
        ``e^eps > 1``.
    k : int
        The number of inputs, ``>= 2``.
    bits : int, optional
        arb working precision.
    """
    with working_precision(bits):
        t = _t(ratio)
        return interval((k * t / (t + k - 1)).log())


def frontier_float(name: str, eps: float, *, k: int | None = None) -> float:
    """The frontier of a conversion notion at ``eps`` in floats (``maximal_leakage``: with ``k`` inputs,
    ``k = None`` for the limit ``eps``).

    Parameters
    ----------
    name : str
        ``kl``, ``rho``, ``delta(e)``, ``eps_delta(d)`` or ``maximal_leakage``.
    eps : float
        The LDP budget.
    k : int, optional
        Inputs, for ``maximal_leakage``.

    Examples
    --------
    >>> round(frontier_float("rho", 1.0), 6), round(frontier_float("maximal_leakage", 1.0, k=2), 6)
    (0.462117, 0.379885)
    """
    t = math.exp(eps)
    if name in ("kl", "rho"):
        return eps * math.tanh(eps / 2)
    if name.startswith("delta("):
        return max(0.0, (t - math.exp(float(Fraction(name[6:-1])))) / (1 + t))
    if name.startswith("eps_delta("):
        d = float(Fraction(name[10:-1]))
        return math.log(max(1.0, (1 - d) * t - d))
    if name == "maximal_leakage":
        return eps if k is None else math.log(k * t / (t + k - 1))
    raise KeyError(name)


def frontier_enclosure(name: str, ratio: Fraction, *, k: int | None = None) -> tuple[Fraction, Fraction]:
    """A certified enclosure of the frontier of a conversion notion at ``eps = ln(ratio)`` (``maximal_leakage``:
    with ``k`` inputs, ``k = None`` for the limit ``eps``).

    Examples
    --------
    >>> lo, hi = frontier_enclosure("rho", Fraction(3))  # ln 3 * 2/4, as kl
    >>> round(float(lo), 12)
    0.549306144334
    """
    if name in ("kl", "rho"):
        return kl_sup(ratio)
    if name.startswith("delta("):
        return profile_sup(ratio, Fraction(name[6:-1]))
    if name.startswith("eps_delta("):
        return eps_delta_sup(ratio, Fraction(name[10:-1]))
    if name == "maximal_leakage":
        return _ln_enclosure(ratio) if k is None else ml_sup(ratio, k)
    raise KeyError(name)


def _points(conclusion: str, quick: bool, sup, k: int = 2) -> list[Point]:
    """The certified frontier (``sup(ratio)``, an enclosure) at the reference points against the certified value
    of the extremal mechanism, ``k``-RR (binary randomized response, or ``k = ML_K`` standing for ``k -> inf``).

    Results of the code alone (enclosures and certified lower ends), kept in the cache folder for the next run of
    the same code (:func:`~relations.search._screening.stored_result`) under the conclusion, ``k``, the effort
    and the name of ``sup`` in the code."""
    import hashlib

    from relations.search._screening import stored_result

    def compute() -> tuple:
        return tuple((p.ratio, p.frontier, p.best, p.family, p.notion)
                     for p in _computed_points(conclusion, quick, sup, k))

    def valid(kept) -> bool:
        return isinstance(kept, tuple) and all(
            isinstance(p, tuple) and len(p) == 5 and type(p[0]) is Fraction and isinstance(p[1], tuple)
            and len(p[1]) == 2 and all(type(x) is Fraction for x in p[1]) and type(p[2]) is float
            and type(p[3]) is str and p[4] == conclusion for p in kept)

    what = repr((conclusion, quick, k, f"{sup.__module__}.{sup.__qualname__}")).encode()
    kept = stored_result(f"conversion-points-{hashlib.sha256(what).hexdigest()[:32]}", compute, valid=valid)
    return [Point(ratio, frontier, best, family, notion) for ratio, frontier, best, family, notion in kept]


def _computed_points(conclusion: str, quick: bool, sup, k: int = 2) -> list[Point]:
    """:func:`_points`, computed."""
    out = []
    for ratio in REFERENCE_RATIOS[:2] if quick else REFERENCE_RATIOS:
        mech, fam = krr(k, ratio), "binary randomized response" if k == 2 else f"{k}-RR (k -> inf)"
        enclosure = sup(ratio)
        if enclosure[1] > 0:  # delta(e') is 0 for e' >= eps: no point to compare
            out.append(Point(Fraction(ratio), enclosure, _certified_lower(mech, conclusion), fam, notion=conclusion))
    return out


def _certified_lower(mech, name: str) -> float:
    """The lower end of a certified enclosure of the notion ``name`` on ``mech``, as a float (the same on every
    machine, unlike the notion's float value)."""
    from relations.checking._quantities import values
    from relations.search._selection import BITS

    return float(values(mech).reals[name].enclose(BITS)[0])


def _ln_enclosure(ratio: Fraction, bits: int = 128) -> tuple[Fraction, Fraction]:
    with working_precision(bits):
        return interval(_t(ratio).log())


def conversion_frontier(rel: Relation, *, quick: bool = False) -> Frontier | None:
    """The known frontier of a conversion relation (``None`` where none is known: "best found").

    The notion table names, for each conclusion notion, the function giving its frontier (``frontier``);
    a notion without one has none.

    Parameters
    ----------
    rel : Relation
        A relation of :mod:`relations.catalogue._conversions`.
    quick : bool, optional
        Fewer reference points.

    Returns
    -------
    Frontier or None
        The frontier over the reference family, or None when the table gives the conclusion notion no
        frontier function.

    Examples
    --------
    >>> from relations.catalogue import get
    >>> f = conversion_frontier(get("relations.kl_tanh"), quick=True)
    >>> f.sup_ratio, f.attained, round(f.points[0].json()["share_of_frontier"], 9)
    (1.0, True, 1.0)
    >>> round(conversion_frontier(get("drv2010.kl_dp")).sup_ratio, 3)
    0.5
    """
    from relations.notions import NOTIONS, evaluator

    name = str(rel.conclusion).split("(")[0]
    row = NOTIONS.get(name)
    if row is None or row.frontier is None:
        return None
    return evaluator(name, which="frontier")(rel, quick=quick)


def _sides(rel: Relation) -> tuple[str, str, str | None]:
    return str(rel.conclusion), str(rel.premise), getattr(rel.bound, "kind", None)


def kl_frontier(rel: Relation, *, quick: bool = False) -> Frontier | None:
    """The frontier of ``kl <= f(eps_d)``: ``eps tanh(eps/2)``, attained by binary randomized response."""
    c, p, kind = _sides(rel)
    if p != "eps_d":
        return None
    if kind == "tanh":
        return Frontier(1.0, True, "binary randomized response has kl = eps tanh(eps/2) exactly: sup ratio 1",
                        _points(c, quick, kl_sup))
    # eps (e^eps - 1): the ratio tanh(eps/2) / (e^eps - 1) = 1 / (1 + e^eps) -> 1/2 as eps -> 0
    return Frontier(0.5, False, "sup kl under eps-LDP is eps tanh(eps/2): sup of eps tanh(eps/2) / "
                    "(eps (e^eps - 1)) = sup 1/(1 + e^eps) = 1/2, approached as eps -> 0 (not attained)",
                    _points(c, quick, kl_sup))


def rho_frontier(rel: Relation, *, quick: bool = False) -> Frontier | None:
    """The frontier of ``rho <= f(eps_d)``: binary randomized response's ``rho``, at least ``eps tanh(eps/2)``."""
    c, p, kind = _sides(rel)
    if p != "eps_d":
        return None
    if kind == "tanh":
        return Frontier(1.0, True, "binary randomized response has rho >= its kl = eps tanh(eps/2) (renyi(a)/a -> kl "
                        "as a -> 1), so the bound is attained wherever the relation holds: sup ratio 1",
                        _points(c, quick, kl_sup))
    if kind == "half_square":
        return Frontier(1.0, False, "binary randomized response has rho >= eps tanh(eps/2), and "
                        "eps tanh(eps/2) / (eps^2/2) = tanh(eps/2)/(eps/2) -> 1 as eps -> 0: sup ratio 1, "
                        "approached as eps -> 0 (not attained)", _points(c, quick, kl_sup))
    return None


_PROFILE = ("binary randomized response attains the privacy profile of eps-DP (Kairouz, Oh, Viswanath): "
            "equality for every eps")


def delta_frontier(rel: Relation, *, quick: bool = False) -> Frontier | None:
    """The frontier of ``delta(e') <= f(eps_d)``: binary randomized response's profile."""
    c, p, kind = _sides(rel)
    if p != "eps_d" or kind not in ("profile", "dp_eps_delta"):
        return None
    return Frontier(1.0, True, _PROFILE, _points(c, quick, lambda t: profile_sup(t, Fraction(c[6:-1]))))


def eps_delta_frontier(rel: Relation, *, quick: bool = False) -> Frontier | None:
    """The frontier of ``eps_delta(d) <= f(eps_d)``: binary randomized response's profile, inverted."""
    c, p, kind = _sides(rel)
    if p != "eps_d" or kind not in ("profile", "dp_eps_delta"):
        return None
    return Frontier(1.0, True, _PROFILE, _points(c, quick, lambda t: eps_delta_sup(t, Fraction(c[10:-1]))))


def maximal_leakage_frontier(rel: Relation, *, quick: bool = False) -> Frontier | None:
    """The frontier of ``maximal_leakage <= f(eps)`` (``eps_all``, or ``eps_d`` locally): ``k``-RR, ``k -> inf``."""
    c, p, _ = _sides(rel)
    if not (p == "eps_all" or p == "eps_d" and rel.setting == "local"):
        return None
    return Frontier(1.0, False, "sup maximal leakage under eps-LDP with k inputs is ln(k e^eps/(e^eps + k - 1)) "
                    "(k-RR), -> eps as k -> inf (not attained)", _points(c, quick, _ln_enclosure, ML_K))


def min_entropy_frontier(rel: Relation, *, quick: bool = False) -> Frontier | None:
    """The frontier of ``min_entropy_leakage <= maximal_leakage`` (or of ``eps_d``): equality at uniform priors."""
    _, p, _ = _sides(rel)
    if p not in ("eps_d", "maximal_leakage"):
        return None
    return Frontier(1.0, True, "equality for every uniform prior: max_x p(x) Q[x][y] / max_x p(x) = max_x Q[x][y]")
