"""What the live page shows for one position of its sliders, computed exactly by the package.

The page (:mod:`relations.demo._server`) has five sliders, each an integer in a fixed range
(:data:`RANGES`), so that nothing else can reach the engine:

* ``k`` -- the domain size of k-ary randomized response, 2 to 16;
* ``n`` -- the ratio ``t = e^eps = n/4``, 4 to 64 (``eps = ln t`` from 0 to ``ln 16 = 2.77``);
* ``skew`` -- ``j`` from 0 to 19: a share ``s = j/20`` of the prior sits on the first value, the rest
  is uniform (``p(x) = (1 - s)/k + s [x = 0]``; ``s = 0`` is the uniform prior);
* ``records`` -- ``r`` from 1 to 20: ``r = 1`` is the local mechanism ``krr(k, t)``, ``r >= 2`` the central
  ``product(krr(k, t), r)`` on ``D^r`` (product form, never expanded);
* ``reports`` -- ``R`` from 1 to 30 and at most :func:`reports_max` ``(k)``: each record is reported ``R``
  times, independently (``krr(k, t).repeated(R)``, :meth:`~relations.model.Mechanism.repeated`), measured
  exactly through the counts of each output (:meth:`~relations.model._composed.Composition.sufficient`:
  ``C(R + k - 1, k - 1)`` count vectors, the same value in every notion as the ``k^R`` report sequences).
  ``R = 1`` is one report.  The cap :data:`MAX_REPORT_ENTRIES` keeps every position within about a second:
  ``R`` up to 30 for ``k <= 4``, down to 4 at ``k = 16``.

:func:`state` measures the mechanism and checks every catalogued relation on it
(:data:`RELATIONS`, by :func:`relations.checking.check`, exact: ratios as ``ln(q)``, ``I(X;Y)`` as a certified enclosure) and
adds the frontier plot's data (:func:`frontier`, cached per ``(k, skew, records)``);
:func:`counterexample` builds a witness on demand.  At the largest sizes a slider move costs about
0.5 s (2 cores), the frontier about 0.3 s more when ``k``, ``skew`` or ``records`` changes.  The frontier
plot is of one report (its ``eps`` axis is one use's).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from relations.catalogue._entries import BY_ID, CATALOGUE
from relations.checking._checker import BASE_NAMES, check
from relations.checking._encoding import check_json
from relations.errors import InputError
from relations.io._exports import latex_math
from relations.measures._api import measure, measure_quantities
from relations.measures._encoding import measures_json
from relations.mechanisms import krr, paper_example, product
from relations.model._distributions import Channel, Prior
from relations.model._mechanism import Mechanism
from relations.model._neighbours import HammingInputs
from relations.pipeline._frontiers import local_mi_sup_float
from relations.search._witnesses import mi_witness

if TYPE_CHECKING:
    from relations.catalogue._bounds import KLBound, Linear
    from relations.catalogue._formulas import Formula

__all__ = ["RANGES", "DEFAULTS", "MAX_REPORT_ENTRIES", "reports_max", "RELATIONS", "THEOREM4", "Params", "parse_params", "mechanism", "state", "frontier",
           "counterexample", "COUNTEREXAMPLES", "abridge", "tex"]

#: Each slider's integer range (inclusive): the page's sliders and the server accept nothing else.
#: ``reports`` is further capped per domain size by :func:`reports_max`.
RANGES = {"k": (2, 16), "n": (4, 64), "skew": (0, 19), "records": (1, 20), "reports": (1, 30)}
#: The sliders' starting positions: 4-RR with ``e^eps = 3``, uniform prior, local, one report.
DEFAULTS = {"k": 4, "n": 12, "skew": 0, "records": 1, "reports": 1}
#: Largest counts channel of ``R`` reports of ``k``-RR the page measures: ``k C(R + k - 1, k - 1)`` entries
#: (inputs times count vectors).  At this size a position's check takes about 0.6 s (2 cores, loaded machine).
MAX_REPORT_ENTRIES = 1 << 16


def reports_max(k: int) -> int:
    """The largest ``reports`` position for domain size ``k``: within :data:`RANGES` and :data:`MAX_REPORT_ENTRIES`.

    Examples
    --------
    >>> [reports_max(k) for k in (2, 4, 5, 8, 16)]
    [30, 30, 21, 8, 4]
    """
    lo, hi = RANGES["reports"]
    best = lo
    for r in range(lo, hi + 1):
        if k * math.comb(r + k - 1, k - 1) <= MAX_REPORT_ENTRIES:
            best = r
    return best

#: The relations the page checks: every catalogued relation between ``eps_i``, ``eps_d``, ``eps_m``, ``sigma_min``
#: (and ``eps_all``, ``-sigma_min``) -- the paper's theorems, their sources and corrections.  The relations of the
#: further notions (rho, KL, Renyi, leakages) are left to ``relations check``: deciding ``rho`` exactly near
#: ``eps = 0`` alone takes about a second at ``k = 16``.
RELATIONS = tuple(r for r in CATALOGUE if r.premise in BASE_NAMES and r.conclusion in BASE_NAMES)
#: The counterexamples the page can show (:func:`counterexample`).
COUNTEREXAMPLES = ("mi", "thm4")


@dataclass(frozen=True)
class Params:
    """One position of the sliders (see the module docstring for the ranges).

    Examples
    --------
    >>> p = Params(k=4, n=13, skew=10, records=1)  # reports=1 by default
    >>> p.ratio, p.skew_share, p.prior
    (Fraction(13, 4), Fraction(1, 2), [Fraction(5, 8), Fraction(1, 8), Fraction(1, 8), Fraction(1, 8)])
    """

    k: int
    n: int
    skew: int
    records: int
    reports: int = 1

    @property
    def ratio(self) -> Fraction:
        """``t = e^eps = n/4``."""
        return Fraction(self.n, 4)

    @property
    def skew_share(self) -> Fraction:
        """``s = skew/20``, the prior's extra share on the first value."""
        return Fraction(self.skew, 20)

    @property
    def prior(self) -> list[Fraction]:
        """``p(x) = (1 - s)/k + s [x = 0]``."""
        s = self.skew_share
        return [(1 - s) / self.k + (s if x == 0 else 0) for x in range(self.k)]

    @property
    def setting(self) -> str:
        """``"local"`` for one record, else ``"central"``."""
        return "local" if self.records == 1 else "central"


def parse_params(query: Mapping[str, Any]) -> Params:
    """Slider positions from a query (text or ints), each checked against :data:`RANGES`.

    Missing names take their :data:`DEFAULTS`; ``reports`` is also at most :func:`reports_max` of ``k``.
    Only ASCII digits count (Python's ``int`` would also read
    ``"３"`` or fail on ``"²"``, which ``str.isdigit`` accepts).

    Raises
    ------
    InputError
        If a value is not a whole number in ASCII digits or is outside its range.

    Examples
    --------
    >>> parse_params({"k": "3", "n": "8"})
    Params(k=3, n=8, skew=0, records=1, reports=1)
    >>> parse_params({"k": "16", "reports": "5"})
    Traceback (most recent call last):
    ...
    relations.errors.InputError: reports must be a whole number from 1 to 4 at k = 16, got '5'
    >>> parse_params({"k": "99"})
    Traceback (most recent call last):
    ...
    relations.errors.InputError: k must be a whole number from 2 to 16, got '99'
    >>> parse_params({"k": "\uff13"})
    Traceback (most recent call last):
    ...
    relations.errors.InputError: k must be a whole number from 2 to 16, got '３'
    """
    values = {}
    for name, (lo, hi) in RANGES.items():
        raw = query.get(name, DEFAULTS[name])
        text = str(raw)  # as written: " 3" and "3 " are not ASCII digits
        if not (text.isascii() and text.isdigit() and len(text) <= 6 and lo <= int(text) <= hi):
            raise InputError(f"{name} must be a whole number from {lo} to {hi}, got {str(raw)[:20]!r}")
        values[name] = int(text)
    if values["reports"] > (top := reports_max(values["k"])):
        raise InputError(f"reports must be a whole number from 1 to {top} at k = {values['k']}, "
                         f"got {str(query.get('reports'))[:20]!r}")
    return Params(**values)


def mechanism(p: Params) -> Mechanism:
    """``krr(k, t)`` with the skewed prior, reported ``R`` times; on ``r >= 2`` records its product form (central).

    ``R >= 2`` reports are the exact counts channel of ``krr(k, t).repeated(R)``
    (:meth:`~relations.model._composed.Composition.sufficient`); on ``r`` records each record is reported ``R``
    times, which is the product of the ``R`` reports of one record.

    Examples
    --------
    >>> from relations import measure
    >>> m = mechanism(Params(k=2, n=12, skew=0, records=3))
    >>> str(m.setting), str(measure(m).eps_d.exact)
    ('central', 'ln(3)')
    >>> str(measure(mechanism(Params(k=2, n=12, skew=0, records=1, reports=3))).eps_d.exact)
    'ln(27)'
    """
    local = krr(p.k, p.ratio, prior=p.prior)
    if p.reports > 1:
        local = local.repeated(p.reports).sufficient()
    return local if p.records == 1 else product(local, p.records)


def _number(v: float | None) -> float | str | None:
    """A float for JSON: ``"inf"`` / ``"-inf"`` for infinities (JSON has none)."""
    if v is None or math.isfinite(v):
        return v
    return "inf" if v > 0 else "-inf"


def abridge(label: str, *, keep: int = 6) -> str:
    """A tuple label of more than ``keep`` entries shortened to its first three and last: ``(1,0,0,…,0)``.

    The page shows the short form and keeps the whole one in a tooltip.

    Examples
    --------
    >>> abridge("(1," + ",".join(["0"] * 19) + ")"), abridge("(0,1,2)"), abridge("3")
    ('(1,0,0,…,0)', '(0,1,2)', '3')
    """
    if not (label.startswith("(") and label.endswith(")")):
        return label
    items = label[1:-1].split(",")
    return label if len(items) <= keep else "(" + ",".join(items[:3]) + ",…," + items[-1] + ")"


def _where(w: Mapping[str, str], short: bool) -> str:
    """A witness in words: ``x = ..., x' = ..., y = ...`` (each label abridged when ``short``)."""
    f = abridge if short else str
    return f"x = {f(w['x'])}, x' = {f(w['x_prime'])}" + (f", y = {f(w['y'])}" if "y" in w else "")


def tex(text: str | None, *, longest: int = 24) -> str | None:
    """An exact form or a formula of the tool as LaTeX for the page's KaTeX; None if absent or longer than ``longest``.

    Examples
    --------
    >>> print(tex("ln(39/2)"), tex("eps_i <= eps_d - sigma_min", longest=80), tex("ln(3486784401123456789012345)"))
    \\ln\\frac{39}{2} \\varepsilon_i \\le \\varepsilon_d - \\sigma_{\\min} None
    """
    if text is None or len(text) > longest:
        return None
    return latex_math(text)


def _budgets(mech: Mechanism, measures, *, reports: int = 1) -> dict[str, Any]:
    """The four budgets: exact form (and its LaTeX), value, witness in words, whole and abridged
    (``eps_m``: its certified enclosure)."""
    obj = measures_json(mech, measures)
    out: dict[str, Any] = {}
    for name in ("eps_i", "eps_d", "sigma_min"):
        b = obj[name]
        w = b.get("witness")
        out[name] = {"exact": b["exact"], "tex": tex(b["exact"]), "value": b["value"],
                     "witness": _where(w, False) if w else None, "witness_short": _where(w, True) if w else None}
    mi = measures.eps_m
    lo, hi = mi.enclosure.lower, mi.enclosure.upper
    out["eps_m"] = {"value": mi.value, "exact": None, "enclosure": [f"{float(lo):.15f}", f"{float(hi):.15f}"],
                    "bits": mi.bits, "witness": "I(X;Y)" if reports == 1 else f"I(X;Y_1..Y_{reports})"}
    return out


def _relation_rows(report_json: dict[str, Any]) -> list[dict[str, Any]]:
    """Every relation that applies to the mechanism: id, claim, status, conclusion and bound."""
    rows = []
    for r in report_json["relations"]:
        if r["status"] == "not applicable":
            continue
        side = {key: (None if r.get(key) is None else {"exact": r[key].get("exact"), "value": r[key]["value"],
                                                        "name": r[key].get("name"),
                                                        "tex": None if r[key].get("name") == "eps_m"
                                                        else tex(r[key].get("exact"), longest=16)})
                for key in ("premise", "bound", "conclusion")}
        rows.append({"id": r["id"], "symbols": r["symbols"], "tex": latex_math(r["symbols"]),
                     "status": str(r["status"]), "kind": str(r["kind"]),
                     "title": r["title"], "note": r["note"], **side,
                     "slack": None if r.get("slack") is None else r["slack"]})
    return rows


#: The paper's bound on ``eps_i`` from ``eps_d`` and its corrected form, per setting (Theorem 4 locally,
#: Theorem 2 centrally): ``eps_i <= eps_d + sigma_min`` and ``eps_i <= eps_d - sigma_min``.
THEOREM4 = {"local": ("zheng2025.thm4", "relations.thm4_corrected"),
            "central": ("zheng2025.thm2", "relations.thm2_corrected")}


def _theorem4(rows: list[dict[str, Any]], budgets: dict[str, Any], setting: str) -> dict[str, Any]:
    """The Theorem 4 panel: ``eps_i`` next to the bound the paper compares it with (``eps_d + sigma_min``)
    and the corrected one (``eps_d - sigma_min``), each with its exact form, value and status (from the
    exact check of the two relations in ``rows``)."""
    by_id = {r["id"]: r for r in rows}
    out: dict[str, Any] = {"setting": setting,
                           **{n: {k: budgets[n][k] for k in ("exact", "tex", "value")}
                              for n in ("eps_i", "eps_d", "sigma_min")}}
    for key, rid in zip(("paper", "corrected"), THEOREM4[setting], strict=True):
        r, rel = by_id[rid], BY_ID[rid]
        bound = r["bound"] or {}
        out[key] = {"id": rid, "title": rel.title, "symbols": rel.symbols, "tex": latex_math(rel.symbols),
                    "status": r["status"], "exact": bound.get("exact"), "tex_value": tex(bound.get("exact")),
                    "value": bound.get("value")}
    return out


def state(p: Params) -> dict[str, Any]:
    """Everything the page shows for one slider position, as JSON.

    Returns
    -------
    dict
        ``params`` (the mechanism in words: ``ratio``, ``eps`` as ``ln(t)``, ``prior``, ``setting``),
        ``budgets`` (``eps_i``, ``eps_d``, ``sigma_min`` with ``exact`` and ``value``; ``eps_m`` with its
        ``enclosure``), ``relations`` (each applicable catalogue relation with its ``status``),
        ``counts`` (relations per status), ``theorem4`` (``eps_i`` against the paper's bound
        ``eps_d + sigma_min`` and the corrected ``eps_d - sigma_min``: Theorem 4 locally, Theorem 2
        centrally), ``frontier`` (:func:`frontier`, of one report) and ``seconds``.  ``params`` also has
        ``reports``; with ``reports = R >= 2`` everything but the frontier is of the ``R`` reports.

    Examples
    --------
    >>> s = state(Params(k=4, n=12, skew=0, records=1))
    >>> s["budgets"]["eps_d"]["exact"], s["budgets"]["sigma_min"]["exact"], s["params"]["eps"]
    ('ln(3)', '0', 'ln(3)')
    >>> {r["id"]: r["status"] for r in s["relations"]}["relations.thm11_sharp"]
    'holds'
    >>> t4 = state(Params(k=2, n=12, skew=10, records=1))["theorem4"]
    >>> t4["eps_i"]["exact"], t4["paper"]["exact"], t4["paper"]["status"], t4["corrected"]["exact"]
    ('ln(9)', '0', 'fails', 'ln(9)')
    """
    start = time.perf_counter()
    mech = mechanism(p)
    report = check(mech, relations=RELATIONS)
    obj = check_json(report)
    rows = _relation_rows(obj)
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    t = p.ratio
    params = {"k": p.k, "n": p.n, "skew": p.skew, "records": p.records, "reports": p.reports, "ratio": str(t),
              "eps": "0" if t == 1 else f"ln({t})", "eps_value": math.log(t), "skew_share": str(p.skew_share),
              "prior": [str(v) for v in p.prior], "setting": p.setting,
              "mechanism": f"krr({p.k}, {t})" + (f", {p.reports} reports (counts)" if p.reports > 1 else "")
              + (f" on {p.records} records (product)" if p.records > 1 else "")}
    budgets = _budgets(mech, report.values.measures, reports=p.reports)
    return {"params": params, "budgets": budgets, "relations": rows, "counts": counts,
            "theorem4": _theorem4(rows, budgets, p.setting), "frontier": frontier(p.k, p.skew, p.records),
            "seconds": round(time.perf_counter() - start, 3)}


#: Slider positions of ``n`` where the frontier plot evaluates ``I(X;Y)`` (every other one).
FRONTIER_N = tuple(range(RANGES["n"][0], RANGES["n"][1] + 1, 2))


@lru_cache(maxsize=64)
def frontier(k: int, skew: int, records: int) -> dict[str, Any]:
    """The frontier plot's data: ``I(X;Y)`` of the page's k-RR against ``eps``, and the bounds it is checked against.

    ``eps_m`` is the certified value of :func:`~relations.measures.measure` at every other ratio ``n/4``.
    The lines are the catalogue's bounds on ``eps_m`` from ``eps_d`` for the setting -- the published one
    (Zheng et al. 2025 Theorem 11 locally, Theorem 9 centrally: ``2 eps_d``) and the corrected one
    (``relations.thm11_sharp``: ``eps_d``; ``relations.thm9_corrected``: ``r eps_d``) -- and the largest
    ``I(X;Y)`` of any ``eps``-DP mechanism (``r F(eps)``, :func:`~relations.pipeline._frontiers.local_mi_sup_float`).

    Examples
    --------
    >>> f = frontier(2, 0, 1)
    >>> [b["id"] for b in f["bounds"]], len(f["eps"]) == len(f["eps_m"])
    (['zheng2025.thm11', 'relations.thm11_sharp'], True)
    """
    ids = ("zheng2025.thm11", "relations.thm11_sharp") if records == 1 else ("zheng2025.thm9",
                                                                              "relations.thm9_corrected")
    eps, info = [], []
    for n in FRONTIER_N:
        p = Params(k=k, n=n, skew=skew, records=records)
        eps.append(math.log(p.ratio))
        info.append(measure_quantities(mechanism(p), ["eps_m"])["eps_m"].value)  # I(X;Y) alone
    diameter = records  # D^r: datasets differ in at most r records
    bounds = [{"id": i, "symbols": BY_ID[i].symbols, "title": BY_ID[i].title, "tex": latex_math(BY_ID[i].symbols),
               "values": [_bound(i).float(e, 0.0, diameter) for e in eps]} for i in ids]
    sup = [records * local_mi_sup_float(e) for e in eps]
    return {"eps": eps, "eps_m": info, "bounds": bounds, "sup": sup,
            "sup_label": ("r F(eps)" if records > 1 else "F(eps)") + ": most I(X;Y) of any eps-DP mechanism",
            "sup_tex": (r"r\,F(\varepsilon)" if records > 1 else r"F(\varepsilon)")}


def _bound(relation_id: str) -> Linear | KLBound | Formula:
    """The bound of the catalogue's implication ``relation_id``."""
    bound = BY_ID[relation_id].bound
    assert bound is not None  # an implication
    return bound


def _matrix(mech: Mechanism) -> dict[str, Any]:
    """A small mechanism written out: input and output labels, prior and channel as exact text."""
    prior, rows = cast(Prior, mech.prior).exact, cast(Channel, mech.channel).exact  # small, dense and exact
    assert prior is not None and rows is not None and not isinstance(mech.inputs, HammingInputs)
    return {"inputs": list(mech.inputs.labels), "outputs": [str(o) for o in mech.outputs],
            "prior": [str(v) for v in prior], "channel": [[str(v) for v in row] for row in rows],
            "neighbours": [list(e) for e in getattr(mech.inputs, "edges", ())] or "every pair"}


def counterexample(kind: str, p: Params) -> dict[str, Any]:
    """A counterexample to show on demand, checked exactly.

    * ``"mi"`` -- a channel with at most the mutual information of the page's k-RR (rounded down to
      thousandths, at least ``1/1000``) and infinite ``eps_d``
      (:func:`~relations.search._witnesses.mi_witness`, the constructions of Zheng et al. 2025, Theorems 12
      and 10): a small ``I(X;Y)`` does not bound ``eps_d``;
    * ``"thm4"`` -- the paper's own Section 5 example, on which its Theorem 4 fails.

    Returns
    -------
    dict
        ``title``, ``relation`` (id and claim), ``text``, ``mechanism`` (:func:`_matrix`), ``budgets`` and
        ``status`` (the relation's status on the witness, from :func:`~relations.checking.check`); for
        ``"thm4"`` also ``theorem4`` (the compared bounds, as in :func:`state`).

    Examples
    --------
    >>> c = counterexample("mi", Params(k=2, n=12, skew=0, records=1))
    >>> c["relation"]["id"], c["budgets"]["eps_d"]["exact"], c["status"]
    ('zheng2025.thm12', 'inf', 'witness')
    """
    if kind not in COUNTEREXAMPLES:
        raise InputError(f"kind must be one of {', '.join(COUNTEREXAMPLES)}, got {kind[:20]!r}")
    if kind == "mi":
        rel = BY_ID["zheng2025.thm12" if p.records == 1 else "zheng2025.thm10"]
        mi = measure(mechanism(p)).eps_m.value
        target = max(Fraction(1, 1000), Fraction(math.floor(mi * 1000), 1000))
        mech = mi_witness(rel.setting, target)
        text = (f"I(X;Y) ≤ {target} (your mechanism: {mi:.4f}) and yet ε_d = ∞: an output that one input "
                "can produce and its neighbour never can. Small mutual information does not bound DP.")
    else:
        rel = BY_ID["zheng2025.thm4"]
        mech = paper_example()
        text = ("The paper's own Section 5 example: prior (19/20, 1/20), rows (13/20, 7/20) and (7/20, 13/20). "
                "Theorem 4 claims ε_i ≤ ε_d + σ_min; the corrected bound is ε_i ≤ ε_d − σ_min.")
    also = [BY_ID[THEOREM4["local"][1]]] if kind == "thm4" else []
    report = check(mech, relations=[rel, *also])
    outcomes = check_json(report)["relations"]
    outcome, budgets = outcomes[0], _budgets(mech, report.values.measures)
    out = {"title": rel.title, "relation": {"id": rel.id, "symbols": rel.symbols, "tex": latex_math(rel.symbols),
                                            "statement": rel.statement},
           "text": text, "mechanism": _matrix(mech), "budgets": budgets, "status": str(outcome["status"]),
           "conclusion": outcome.get("conclusion"), "bound": outcome.get("bound")}
    if kind == "thm4":
        out["theorem4"] = _theorem4(_relation_rows({"relations": outcomes}), budgets, "local")
    return out
