"""The figures' data: every number a figure shows, computed by the library (never typed in).

Each ``*_data`` function returns a JSON-ready dict, saved next to its figure by
:func:`relations.figures.write_all`.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from relations._json import read_json
from relations.errors import InputError
from relations.io import EVIDENCE_DIR

__all__ = ["NOTION_NODES", "local_mi_bounds", "relation_diagram_data", "prior_skew_data", "krr_information_data",
           "central_records_data", "symmetric_channel_data", "privacy_distortion_data"]

NOTION_NODES = {"eps_i": "identifiability", "eps_d": "differential privacy", "eps_m": "MI privacy"}


def _measure(mech, *quantities: str):
    """The ``quantities`` of ``mech`` as attributes, each the value :func:`relations.measures.measure` gives it
    (:func:`~relations.measures._api.measure_quantities`: of an exact dense mechanism only those)."""
    from types import SimpleNamespace

    from relations.measures._api import measure_quantities

    return SimpleNamespace(**measure_quantities(mech, quantities))


# --------------------------------------------------------------------------- data


def relation_diagram_data(verdicts_path: str | None = f"{EVIDENCE_DIR}/verdicts.json") -> dict[str, Any]:
    """Zheng et al. 2025, Fig. 3 redrawn from the catalogue: the paper's theorems between three notions.

    Parameters
    ----------
    verdicts_path : str or None, optional
        A ``verdicts.json`` to take verdicts from; theorems it lacks are verified now (quick effort).

    Returns
    -------
    dict
        ``nodes``: identifiability, DP and MI privacy, central and local; ``edges``: one per theorem
        with its ``relations verify`` verdict and, where the project has one, the corrected bound.
    """
    from relations.catalogue._entries import CATALOGUE

    verdicts = {}
    if verdicts_path and os.path.exists(verdicts_path):
        try:
            with open(verdicts_path, encoding="utf-8") as fh:
                rows = read_json(fh.read(), source=verdicts_path)
            verdicts = {str(v["id"]): str(v["verdict"]) for v in rows}
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            raise InputError(f"{verdicts_path}: not a verdicts.json of 'relations verify' (a list of objects with "
                             "'id' and 'verdict'); give another with --verdicts") from None
        unknown = sorted(set(verdicts.values()) - {"proved", "refuted", "holds-bounded", "unrefuted"})
        if unknown:
            raise InputError(f"{verdicts_path}: unknown verdict {unknown[0]!r}; give another with --verdicts")
    paper = [r for r in CATALOGUE if r.id.startswith("zheng2025.thm")]
    missing = [r for r in paper if r.id not in verdicts]
    if missing:
        from relations.pipeline._verify import Effort, verify_relation

        for r in missing:
            verdicts[r.id] = verify_relation(r, Effort.of(True)).verdict
    corrected = {r.corrects: r for r in CATALOGUE if r.corrects}
    edges = []
    for r in paper:
        fix = corrected.get(r.id)
        edges.append({"id": r.id, "setting": r.setting, "source": r.premise, "target": r.conclusion,
                      "kind": r.kind, "label": r.symbols if r.kind == "implication" else "does not imply",
                      "verdict": verdicts[r.id],
                      "corrected": None if fix is None else {"id": fix.id, "label": fix.symbols,
                                                             "verdict": verdicts.get(fix.id)}})
    nodes = [{"notion": n, "setting": s} for s in ("central", "local") for n in NOTION_NODES]
    return {"nodes": nodes, "edges": edges}


#: The ``eps_i`` the paper printed in Section 5 at its two priors ``p(0)`` (its ``p_D(1)``; as printed; the tool computes the true
#: values: ``ln(143/63) = 0.820`` at ``11/20``, where the paper printed 0.42, and ``ln(247/7) = 3.564`` at ``19/20``).
_PAPER_PRINTED = {Fraction(11, 20): "0.42", Fraction(19, 20): "3.56"}


def prior_skew_data(*, points: int = 361, channel: Sequence[str] = ("13/20", "7/20")) -> dict[str, Any]:
    """``eps_i``, ``eps_d``, ``-sigma_min`` of the paper's channel as ``p(0)`` goes from 1/2 to 19/20.

    Parameters
    ----------
    points : int, optional
        The number of evenly spaced priors, at least 2.
    channel : pair of str, optional
        Labels the figure only: the series are those of ``paper_example``'s channel.

    Returns
    -------
    dict
        Lists ``p0``, ``eps_i``, ``eps_d``, ``neg_sigma_min``; ``marked``: the paper's Section 5
        priors ``p(0) = 11/20`` and ``19/20`` with exact ``eps_i``, the value the paper printed there
        (``paper_printed``) and whether ``eps_i = eps_d - sigma_min`` exactly (``attains_eps_d_minus_sigma``).
    """
    from relations.mechanisms._paper import paper_example

    a, b = (Fraction(v) for v in channel)
    xs = [Fraction(1, 2) + (Fraction(19, 20) - Fraction(1, 2)) * i / (points - 1) for i in range(points)]
    out: dict[str, list] = {"p0": [], "eps_i": [], "eps_d": [], "neg_sigma_min": [], "marked": []}
    for p in xs:
        m = _measure(paper_example((p, 1 - p)), "eps_i", "eps_d", "sigma_min")
        out["p0"].append(float(p))
        out["eps_i"].append(m.eps_i.value)
        out["eps_d"].append(m.eps_d.value)
        out["neg_sigma_min"].append(-m.sigma_min.value)
    for p, printed in _PAPER_PRINTED.items():  # the paper's Section 5 priors, and the eps_i it printed there
        m = _measure(paper_example((p, 1 - p)), "eps_i", "eps_d", "sigma_min")
        ratios = (m.eps_i.exact.ratio, m.eps_d.exact.ratio, m.sigma_min.exact.ratio)
        out["marked"].append({"p0": float(p), "eps_i": m.eps_i.value, "eps_i_exact": str(m.eps_i.exact),
                              "eps_d": m.eps_d.value, "neg_sigma_min": -m.sigma_min.value, "paper_printed": printed,
                              # eps_i = eps_d - sigma_min exactly (ln q_i = ln q_d - ln q_s): Theorem 4's bound attained
                              "attains_eps_d_minus_sigma": None not in ratios and ratios[0] == ratios[1] / ratios[2]})
    out["channel"] = [str(a), str(b)]
    return out


def local_mi_bounds() -> list[dict[str, Any]]:
    """Every bound of ``eps_m`` by ``eps_d`` in the local setting that the prover's proved facts give by a chain.

    A chain is ``eps_m <= ... <= Y`` (facts between two notions), a proved catalogued relation or notion fact
    ``Y <= f(P)``, and ``P <= ... <= eps_d`` (``eps_all = eps_d`` locally); every catalogued bound is
    non-decreasing in its premise, so ``eps_m <= f(eps_d)``.  The base is :func:`relations.proofs._facts.facts`
    (the catalogue's proved implications and the notion facts), nothing chosen by name.

    Returns
    -------
    list of dict
        ``bound`` (conjecture text in ``eps_d``), ``expr`` (its sympy expression) and ``facts`` (the ids used),
        one per distinct bound, in a fixed order.

    Examples
    --------
    >>> "eps_d*tanh(eps_d/2)" in [b["bound"] for b in local_mi_bounds()]
    True
    """
    return [dict(b) for b in _local_mi_bounds()]


@functools.cache
def _local_mi_bounds() -> tuple[dict[str, Any], ...]:
    import sympy

    from relations.checking._conjectures import symbol
    from relations.proofs._facts import diam_symbol, facts

    m, d = symbol("eps_m"), symbol("eps_d")
    links: list[tuple[Any, Any, str]] = []  # a <= b between two notions
    bounds: list[tuple[Any, Any, Any, str]] = []  # y <= f(p)
    for fact in facts("local"):
        if fact.placeholders:
            continue
        for ineq in fact.built or _parsed_fact(fact.statement):
            sides = [(ineq.lhs, ineq.rhs)] if ineq.op in ("<=", "<", "=", "==") else []
            sides += [(ineq.rhs, ineq.lhs)] if ineq.op in (">=", ">", "=", "==") else []
            for lo, hi in sides:
                hi = hi.subs(diam_symbol(), 1)  # the local diameter
                if lo.is_Symbol and hi.is_Symbol:
                    links.append((lo, hi, fact.id))
                elif lo.is_Symbol and len(hi.free_symbols) == 1:
                    bounds.append((lo, next(iter(hi.free_symbols)), hi, fact.id))

    def closure(start, up: bool) -> dict[Any, tuple[str, ...]]:
        reach: dict[Any, tuple[str, ...]] = {start: ()}
        frontier = [start]
        while frontier:
            node = frontier.pop()
            for lo, hi, fid in links:
                a, b = (lo, hi) if up else (hi, lo)
                if a == node and b not in reach:
                    reach[b] = (*reach[node], fid)
                    frontier.append(b)
        return reach

    above_m, below_d = closure(m, up=True), closure(d, up=False)
    found: dict[str, dict[str, Any]] = {}
    if d in above_m:  # a chain of links alone: eps_m <= ... <= eps_d
        found[str(d)] = {"bound": str(d), "expr": d, "facts": above_m[d]}
    for y, p, expr, fid in bounds:
        if y in above_m and p in below_d:
            f = sympy.simplify(expr.subs(p, d)) if p != d else expr
            text = str(f).replace("**", "^")
            if text not in found:
                found[text] = {"bound": text, "expr": f, "facts": (*above_m[y], fid, *below_d[p])}
    return tuple(found[k] for k in sorted(found))


def _parsed_fact(statement: str):
    from relations.proofs._facts import _parsed

    return _parsed(statement)


def _least_bound(ratios: Sequence[Fraction]) -> dict[str, Any]:
    """The bound of :func:`local_mi_bounds` at most every other at every ratio, decided by arb balls.

    Each bound is evaluated at ``eps_d = ln t`` (exactly: :class:`~relations.numbers._reals.Log`) as a ball of
    200 bits; one is the least at ``t`` when its ball's upper end is at most every other's lower end.  The
    chosen bound is then proved by the conjecture prover (:func:`relations.proofs._conjectures.prove_conjecture`).
    The answer depends on the code and the ratios alone, so it is kept in the tool's cache folder for the next
    run of the same code (:func:`relations.search._screening.stored_result`, which checks a stored answer before
    use): a second ``relations figures`` reads it instead of proving it again (about 5 s of CPU).

    Raises
    ------
    RuntimeError
        No bound is certified least at every ratio, or the prover does not prove the chosen one (nothing is kept).
    """
    import hashlib

    from relations.search._screening import stored_result

    ratios = list(ratios)

    def valid(kept: Any) -> bool:
        return (type(kept) is dict and set(kept) == {"bound", "facts", "candidates", "float"}
                and type(kept["bound"]) is str
                and all(type(v) is list and all(type(x) is str for x in v) for v in (kept["facts"], kept["candidates"]))
                and type(kept["float"]) is list and len(kept["float"]) == len(ratios)
                and all(type(x) is float for x in kept["float"]))
    key = hashlib.sha256(" ".join(map(str, ratios)).encode("ascii")).hexdigest()[:32]
    return stored_result(f"least-local-mi-bound-{key}", lambda: _least_bound_now(ratios), valid=valid)


def _least_bound_now(ratios: Sequence[Fraction]) -> dict[str, Any]:
    """:func:`_least_bound`, computed."""
    from relations.checking._conjecture_eval import _ball
    from relations.checking._conjectures import parse_conjecture
    from relations.numbers import LogRatio
    from relations.numbers._reals import Log
    from relations.proofs._conjectures import prove_conjecture

    candidates = _local_mi_bounds()
    balls = [[_ball(c["expr"], {"eps_d": Log(LogRatio.of(Fraction(t)))}, 200) for t in ratios] for c in candidates]
    least = [i for i, mine in enumerate(balls)
             if all(mine[j].upper() <= other[j].lower() for other in balls if other is not mine
                    for j in range(len(ratios)))]
    if not least:
        raise RuntimeError("no catalogued local bound of eps_m by eps_d is the least at every ratio")
    best = candidates[least[0]]
    proof = prove_conjecture(parse_conjecture(f"eps_m <= {best['bound']}"), "local")
    if proof is None or not proof.whole:
        raise RuntimeError(f"the prover does not prove eps_m <= {best['bound']} locally")
    return {"bound": best["bound"], "facts": list(proof.used), "candidates": [c["bound"] for c in candidates],
            "float": [float(b.mid()) for b in balls[least[0]]]}


def krr_information_data(k: int = 4, ratios: Sequence[Fraction] | None = None) -> dict[str, Any]:
    """``I(X;Y)`` of k-RR (uniform prior) against ``eps_d``, with the catalogued bounds, the supremum and ``H(X)``.

    The figure illustrates Zheng et al. 2025, Theorem 11 (``eps_m <= 2 eps_d`` locally), its sharpening
    ``eps_m <= eps_d`` (``relations.thm11_sharp``) and the least proved bound the catalogue gives
    (:func:`local_mi_bounds`, chosen by value: ``eps_d tanh(eps_d/2)`` through ``relations.kl_tanh`` and
    ``eps_m <= kl`` today).  Neither bound is reached: the supremum of ``I(X;Y)``
    over *every* finite local mechanism whose ``eps_d`` is at most ``eps``, with any number of inputs and
    any prior, is ``F(eps) = c - 1 - ln c`` with ``c = eps / (1 - e^-eps)``
    (:func:`relations.pipeline._frontiers.local_mi_sup_float`): it is the maximum over ``theta`` of
    ``D(Bern(theta e^eps / s) || Bern(theta))``, ``s = 1 + theta (e^eps - 1)``, reached at ``s = c``, which
    ``s``-subset selection approaches as its share of inputs ``s/k`` tends to ``(c - 1)/(e^eps - 1)``.
    So ``c`` is the mean ratio ``e^eps / s`` at the optimum; ``F(eps) <= eps`` with ``F(eps) / eps -> 1``
    only as ``eps -> inf``.  For the plotted prior, ``I(X;Y) <= H(X) = ln k`` as well.

    Parameters
    ----------
    k : int, optional
    ratios : sequence of Fraction, optional
        The ratios ``e^eps``; by default 301 rationals within ``10^-4`` of ``e^eps`` for ``eps`` evenly
        spaced over ``[0, ln 15]``, and ``2``.

    Returns
    -------
    dict
        ``k``, ``H`` (``ln k``, the uniform prior's entropy) and lists: ``eps_d``, ``I``, ``two_eps``
        (Zheng et al. 2025, Thm 11), ``eps`` and ``tightest``, the least proved catalogued bound at every ratio
        (``tightest_bound``: its formula; ``tightest_facts``: the facts its proof uses; ``bounds``: every
        candidate compared), and ``sup``, ``F(eps_d)``.

    Examples
    --------
    >>> d = krr_information_data(2, [Fraction(3)])  # c = (3/2) ln 3, F = c - 1 - ln c
    >>> round(d["I"][0], 4), round(d["sup"][0], 4), round(d["H"], 4), d["tightest_bound"]
    (0.1308, 0.1484, 0.6931, 'eps_d*tanh(eps_d/2)')
    """
    from relations.mechanisms._local import krr
    from relations.pipeline._frontiers import local_mi_sup_float

    if not ratios:
        grid = {Fraction(math.exp(math.log(15) * i / 300)).limit_denominator(10**4) for i in range(1, 301)}
        ratios = sorted(grid | {Fraction(1), Fraction(2), Fraction(15)})
    least = _least_bound(ratios)
    out: dict[str, Any] = {"k": k, "H": math.log(k), "eps_d": [], "I": [], "two_eps": [], "eps": [],
                           "tightest": least["float"], "tightest_bound": least["bound"],
                           "tightest_facts": least["facts"], "bounds": least["candidates"], "sup": []}
    for t in ratios:
        m = _measure(krr(k, t), "eps_d", "eps_m")
        e = m.eps_d.value
        out["eps_d"].append(e)
        out["I"].append(m.eps_m.value)
        out["two_eps"].append(2 * e)
        out["eps"].append(e)
        out["sup"].append(local_mi_sup_float(e))
    return out


def central_records_data(ratio: Fraction = Fraction(3), records: Sequence[int] = tuple(range(1, 31))) -> dict[str, Any]:
    """``I(X;Y)`` of binary RR on each of ``r`` records (uniform prior, product form) against ``r``.

    Parameters
    ----------
    ratio : Fraction, optional
        ``e^eps`` of the randomized response.
    records : sequence of int, optional

    Returns
    -------
    dict
        Lists ``r``, ``I``, ``two_eps`` (Zheng et al. 2025, Thm 9), ``r_eps``; ``first_crossing``,
        the first ``r`` whose certified ``I(X;Y)`` exceeds ``2 eps_d`` (or None).
    """
    from relations.mechanisms._local import product, randomized_response

    local = randomized_response(ratio)
    out: dict[str, Any] = {"ratio": str(ratio), "r": [], "I": [], "two_eps": [], "r_eps": [], "first_crossing": None}
    for r in records:
        mech = local if r == 1 else product(local, r, prior="uniform")
        m = _measure(mech, "eps_d", "eps_m")  # (a product form, r > 1: all four)
        out["r"].append(r)
        out["I"].append(m.eps_m.value)
        out["two_eps"].append(2 * m.eps_d.value)
        out["r_eps"].append(r * m.eps_d.value)
        if out["first_crossing"] is None and m.eps_m.enclosure.lower > 2 * Fraction(m.eps_d.value):
            out["first_crossing"] = r
    return out


def symmetric_channel_data(symbols: int = 7, distortions: Sequence[Fraction] | None = None) -> dict[str, Any]:
    """Wu, Peng, Mou (2019), Fig. 2 and 3: the ``symbols``-ary symmetric channel against its distortion.

    Parameters
    ----------
    symbols : int, optional
    distortions : sequence of Fraction, optional
        ``D``: the channel keeps the input with ``1 - D``, each error has ``D/(symbols-1)``; by default
        ``1/100, 5/400, ..., 340/400``.

    Returns
    -------
    dict
        ``symbols``, ``H`` and lists ``D``, ``eps = ln((symbols-1)(1 - D)/D)``, ``I`` and the Fano
        bound ``fano``, for a uniform source (the paper does not give its source).

    Examples
    --------
    >>> data = symmetric_channel_data(7, [Fraction(1, 2), Fraction(6, 7)])  # ln 6; then no leak
    >>> [round(v, 4) for v in data["eps"]], [round(v, 4) for v in data["I"]]
    ([1.7918, 0.0], [0.3569, 0.0])
    """
    from relations.model import Mechanism
    from relations.tradeoffs._utility import fano_leakage_bound

    distortions = distortions or [Fraction(i, 400) for i in range(4, 341)]
    out: dict[str, Any] = {"symbols": symbols, "D": [], "eps": [], "I": [], "fano": [], "H": math.log(symbols)}
    prior = [Fraction(1, symbols)] * symbols
    for d in distortions:
        rows = [[1 - d if i == j else d / (symbols - 1) for j in range(symbols)] for i in range(symbols)]
        mech = Mechanism.local(rows, prior=prior)
        m = _measure(mech, "eps_d", "eps_m")
        out["D"].append(float(d))
        out["eps"].append(m.eps_d.value)
        out["I"].append(m.eps_m.value)
        out["fano"].append(float(fano_leakage_bound(prior, d).midpoint))
    return out


def privacy_distortion_data(*, prior: Sequence[str | Fraction] = ("1/2", "1/4", "1/8", "1/8"),
                            budgets: Sequence[float] | None = None) -> dict[str, Any]:
    """Least expected Hamming distortion under DP, identifiability and MI privacy for one prior.

    Parameters
    ----------
    prior : sequence of str or Fraction, optional
    budgets : sequence of float, optional
        The budgets ``eps``; by default ``0.1, 0.2, ..., 3.0``, refined adaptively (halving the intervals
        next to a bend or a change of feasibility, at most three times) so that corners sit where they are.

    Returns
    -------
    dict
        ``prior`` and lists ``eps``, ``dp``, ``id``, ``mi`` (None where infeasible) from
        :func:`relations.tradeoffs._optimal.privacy_distortion_curves` (Blahut-Arimoto for ``mi``).
    """
    from relations.tradeoffs._optimal import privacy_distortion_curves

    pr = [Fraction(v) for v in prior]
    data = privacy_distortion_curves(pr, budgets or [0.1 * i for i in range(1, 31)])
    for _ in range(0 if budgets else 3):
        mids = _bends(data)
        if not mids:
            break
        more = privacy_distortion_curves(pr, mids)
        order = sorted(range(len(data["eps"]) + len(mids)), key=lambda i: (data["eps"] + more["eps"])[i])
        data = {k: [(data[k] + more[k])[i] for i in order] for k in ("eps", "dp", "id", "mi")}
    data["prior"] = [str(v) for v in pr]
    return data


def _bends(data: dict[str, Any], tol: float = 1.5e-3, smooth: float = 8e-3) -> list[float]:
    """Midpoints of the intervals next to a corner (a second difference above ``tol`` and 2.5 times its
    neighbours'), a strong bend (above ``smooth``) or a change of feasibility of a curve."""
    xs = data["eps"]
    split: set[int] = set()
    for key in ("dp", "id", "mi"):
        ys = data[key]
        bend = [0.0] * len(xs)
        for i in range(1, len(xs) - 1):
            a, b, c = ys[i - 1], ys[i], ys[i + 1]
            if None in (a, b, c):
                split.update(j for j, (u, v) in ((i - 1, (a, b)), (i, (b, c))) if (u is None) != (v is None))
                continue
            h0, h1 = xs[i] - xs[i - 1], xs[i + 1] - xs[i]
            bend[i] = abs((c - b) / h1 - (b - a) / h0) * min(h0, h1)
        for i in range(1, len(xs) - 1):
            if bend[i] > smooth or (bend[i] > tol and bend[i] > 2.5 * max(bend[i - 1], bend[i + 1])):
                split.update((i - 1, i))
    return [(xs[i] + xs[i + 1]) / 2 for i in sorted(split)]
