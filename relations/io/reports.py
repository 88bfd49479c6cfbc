"""Results as JSON: measures, relation outcomes, claims, the catalogue and verdicts.

``relations measure --json`` prints one object with keys ``eps_i``, ``eps_d``,
``eps_m``, ``sigma_min``, each an object with

* ``value`` -- a number, or the strings ``"inf"`` / ``"-inf"``;
* ratio measures: ``exact`` (``"ln(247/7)"``, ``"inf"``, ``"0"``; ``null`` in
  float mode), ``ratio`` (the rational ``q`` of ``ln(q)`` as text, ``null``
  for an infinity) and ``witness`` (``{"x", "x_prime", "y"}`` labels and
  ``{"x_index", ...}`` indices, or ``null``);
* ``eps_m``: ``enclosure`` ``[lower, upper]`` as decimal strings rounded
  outward (``null`` in float mode) and ``bits`` (the width is at most ``2**-bits``);

plus ``mode`` (``"exact"`` or ``"float"``), ``setting``, ``inputs`` and ``outputs``
(counts, as decimal text: ``k^r`` may be huge) and ``form`` (``"dense"`` or
``"product"``).  The other objects are described in ``docs/claims-and-verdicts.md``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from relations.io.writing import to_dict
from relations.measures.results import Budget, Measures, MutualInformation
from relations.model.distributions import ProductChannel
from relations.model.mechanism import Mechanism
from relations.numbers.text import fraction_text

if TYPE_CHECKING:
    from relations.checking.checker import Outcome, Report
    from relations.numbers.reals import Real
    from relations.search.verify import Verdict

__all__ = ["number", "budget_json", "mi_json", "sizes", "rounding_json", "measures_json", "real_json", "outcome_json", "check_json", "catalogue_json", "verdict_json"]


def number(value: float) -> float | str:
    """A JSON-safe number: infinities become ``"inf"`` / ``"-inf"``, other values pass through.

    Examples
    --------
    >>> number(float("inf")), number(-float("inf")), number(0.5)
    ('inf', '-inf', 0.5)
    """
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value



def _witness(mech: Mechanism, w) -> dict[str, Any] | None:
    if w is None:
        return None
    out: dict[str, Any] = {"x": mech.input_label(w.x), "x_prime": mech.input_label(w.x_prime)}
    if w.y is not None:
        out["y"] = mech.output_label(w.y)
    out["x_index"] = list(w.x) if isinstance(w.x, tuple) else w.x
    out["x_prime_index"] = list(w.x_prime) if isinstance(w.x_prime, tuple) else w.x_prime
    if w.y is not None:
        out["y_index"] = list(w.y) if isinstance(w.y, tuple) else w.y
    return out



def budget_json(mech: Mechanism, budget: Budget) -> dict[str, Any]:
    """A ratio budget (``eps_i``, ``eps_d`` or ``sigma_min``) as JSON, its witness named by labels.

    Parameters
    ----------
    mech : Mechanism
        The mechanism measured: it names the witness's inputs and output.
    budget : Budget

    Returns
    -------
    dict
        ``value``, ``exact``, ``ratio`` and ``witness``, as in the module docstring.

    Examples
    --------
    >>> from relations import measure
    >>> from relations.mechanisms import paper_example
    >>> m = paper_example()
    >>> out = budget_json(m, measure(m).eps_i)
    >>> out["exact"], out["ratio"], out["witness"]["x"], out["witness"]["y"]
    ('ln(247/7)', '247/7', '1', '1')
    """
    exact = budget.exact
    return {
        "value": number(budget.value),
        "exact": None if exact is None else str(exact),
        "ratio": None if exact is None or not exact.is_finite else fraction_text(exact.ratio),
        "witness": _witness(mech, budget.witness),
    }



def mi_json(mi: MutualInformation) -> dict[str, Any]:
    """``eps_m`` as JSON: ``value``, the certified ``enclosure`` (outward-rounded decimals) and ``bits``.

    Examples
    --------
    >>> from relations import measure
    >>> from relations.mechanisms import paper_local
    >>> out = mi_json(measure(paper_local("1/2")).eps_m)  # I(X;Y) = h(1/2) = ln 2
    >>> out["bits"], [text[:12] for text in out["enclosure"]]
    (100, ['0.6931471805', '0.6931471805'])
    """
    out: dict[str, Any] = {"value": mi.value, "enclosure": None, "bits": mi.bits}
    if mi.enclosure is not None:
        out["enclosure"] = list(mi.enclosure.decimal())
    return out



def sizes(mech: Mechanism) -> tuple[str, str]:
    """The numbers of inputs and outputs as text; ``"k^r"`` for a product form (never expanded).

    Examples
    --------
    >>> from relations.mechanisms import krr, product
    >>> sizes(krr(3, 2)), sizes(product(krr(3, 2), 40))
    (('3', '3'), ('3^40', '3^40'))
    """
    if isinstance(mech.channel, ProductChannel):
        r = mech.channel.records
        k, m = mech.channel.local.shape
        return f"{k}^{r}", f"{m}^{r}"
    n, m = mech.channel.shape
    return str(n), str(m)



def rounding_json(mech: Mechanism) -> dict[str, float] | None:
    """The relative rounding radii of a mechanism given in floats, or None for exact input.

    ``{"channel": rho, "prior": rho_p}``: floats were taken at their exact binary values,
    rows renormalised exactly, and the intended entries are taken to lie within these
    relative distances (``docs/semantics.md``, "Floats").

    Examples
    --------
    >>> from relations import Mechanism
    >>> rounding_json(Mechanism.local([["1/2", "1/2"], ["1/4", "3/4"]])) is None
    True
    >>> rounding_json(Mechanism.local([[0.5, 0.5], [0.25, 0.75]]))["channel"] == 2**-42
    True
    """
    rho, rho_p = mech.rounding
    if rho == 0 and rho_p == 0:
        return None
    return {"channel": float(rho), "prior": float(rho_p)}



def measures_json(mech: Mechanism, measures: Measures) -> dict[str, Any]:
    """The object ``relations measure --json`` prints (described in the module docstring).

    Parameters
    ----------
    mech : Mechanism
    measures : Measures
        ``measure(mech)``.

    Returns
    -------
    dict

    Examples
    --------
    >>> from relations import measure
    >>> from relations.mechanisms import paper_example
    >>> m = paper_example()
    >>> out = measures_json(m, measure(m))
    >>> out["eps_d"]["exact"], out["sigma_min"]["exact"], out["mode"], out["inputs"]
    ('ln(13/7)', 'ln(1/19)', 'exact', '2')
    """
    n, m = sizes(mech)
    return {
        "eps_i": budget_json(mech, measures.eps_i),
        "eps_d": budget_json(mech, measures.eps_d),
        "eps_m": mi_json(measures.eps_m),
        "sigma_min": budget_json(mech, measures.sigma_min),
        "mode": "exact" if measures.exact else "float",
        "rounding": rounding_json(mech),
        "setting": mech.setting,
        "form": "product" if mech.is_product else "dense",
        "inputs": n,
        "outputs": m,
    }



def real_json(x: Real | float | None, *, approximate: bool = False) -> dict[str, Any] | None:
    """An exact real for JSON: ``value`` (number or ``"inf"``), ``exact`` text, and an enclosure for ``I(X;Y)``.

    Parameters
    ----------
    x : Real, float or None
        A quantity of a relation outcome or claim (:mod:`relations.numbers.reals`).
    approximate : bool, optional
        Float mode: ``exact`` is None and no enclosure is given.

    Returns
    -------
    dict or None
        None for ``x = None``.
    """
    from relations.numbers.reals import ArbExpr, Log

    if x is None:
        return None
    out: dict[str, Any] = {"value": number(float(x))}
    if approximate:
        out["exact"] = None
    elif isinstance(x, Log):
        out["exact"] = str(x.log)
    elif isinstance(x, ArbExpr):
        lo, hi = x.enclose(100)
        out["exact"] = x.text
        from relations.numbers.enclosure import Enclosure

        out["enclosure"] = list(Enclosure(lo, hi).decimal())
    else:
        out["exact"] = str(x)
    return out



def outcome_json(mech: Mechanism, o: Outcome) -> dict[str, Any]:
    """A relation evaluated on one mechanism, as JSON (``docs/claims-and-verdicts.md``).

    Parameters
    ----------
    mech : Mechanism
        The mechanism checked: it names the witness's inputs and output.
    o : Outcome

    Returns
    -------
    dict
        The relation's catalogue fields (with its proved ``scope``), ``status``, ``holds``, ``premise``, ``bound``,
        ``conclusion`` and ``slack`` (exact where possible), ``witness``, ``note``, ``approximate``.

    Examples
    --------
    Theorem 4 of Zheng et al. 2025 fails on the paper's own example by ``ln 361``:

    >>> from relations import check
    >>> from relations.mechanisms import paper_example
    >>> m = paper_example()
    >>> o = next(o for o in check(m).outcomes if o.relation.id == "zheng2025.thm4")
    >>> out = outcome_json(m, o)
    >>> str(out["status"]), out["conclusion"]["exact"], out["bound"]["exact"], out["slack"]["exact"]
    ('fails', 'ln(247/7)', 'ln(13/133)', 'ln(1/361)')
    """
    r = o.relation
    witness = _witness(mech, o.witness)
    return {
        "id": r.id, "title": r.title, "setting": r.setting, "kind": r.kind, "statement": r.statement,
        "symbols": r.symbols, "source": r.source, "corrects": r.corrects,
        "scope": {"name": r.scope.name, "text": r.scope.describe(r.setting)},
        "status": o.status, "holds": o.holds,
        "premise": None if o.premise is None else {"name": r.premise,
                                                     **real_json(o.premise, approximate=o.approximate)},
        "bound": real_json(o.bound, approximate=o.approximate),
        "conclusion": None if o.conclusion is None else {"name": r.conclusion,
                                                         **real_json(o.conclusion, approximate=o.approximate)},
        "slack": None if o.slack is None else {"value": number(o.slack), "exact": o.slack_exact},
        "witness": witness, "note": o.note, "approximate": o.approximate,
    }



def check_json(report: Report) -> dict[str, Any]:
    """The object ``relations check --json`` prints: ``measures``, ``relations``, ``claims`` and ``mode``.

    Examples
    --------
    >>> from relations import check
    >>> from relations.mechanisms import paper_example
    >>> out = check_json(check(paper_example(), ["eps_d <= ln(2)"]))
    >>> out["claims"][0]["holds"], out["claims"][0]["value"]["exact"], out["mode"]
    (True, 'ln(13/7)', 'exact')
    """
    mech = report.values.mechanism
    return {
        "measures": measures_json(mech, report.values.measures),
        "relations": [outcome_json(mech, o) for o in report.outcomes],
        "claims": [{"claim": c.claim.text, "holds": c.holds, "status": str(c.status),
                    "value": real_json(c.value, approximate=report.values.approximate), "note": c.note}
                   for c in report.claims],
        "mode": "exact" if not report.values.approximate else "float",
    }



def catalogue_json() -> list[dict[str, Any]]:
    """The relation catalogue as JSON (``relations catalogue --json``), one object per relation.

    Examples
    --------
    >>> from relations import CATALOGUE
    >>> rows = catalogue_json()
    >>> len(rows) == len(CATALOGUE), rows[0]["id"], rows[0]["symbols"]
    (True, 'zheng2025.thm1', 'eps_d <= eps_i - sigma_min')
    """
    from relations.catalogue.entries import CATALOGUE

    return [{"id": r.id, "title": r.title, "statement": r.statement, "symbols": r.symbols, "setting": r.setting,
             "kind": r.kind, "premise": r.premise, "conclusion": r.conclusion, "source": r.source,
             "min_records": r.min_records, "corrects": r.corrects, "reason": r.reason,
             "scope": {"name": r.scope.name, "text": r.scope.describe(r.setting)}} for r in CATALOGUE]


def verdict_json(v: Verdict, *, with_witness: bool = True) -> dict[str, Any]:
    """A :class:`~relations.search.verify.Verdict` as JSON (``relations verify --json``, ``verdicts.json``).

    Parameters
    ----------
    v : Verdict
    with_witness : bool, optional
        Include the counterexample as a mechanism file's dict (``verdicts.json`` leaves it out:
        the witness has its own file).

    Returns
    -------
    dict
    """
    out = {"id": v.relation.id, "statement": v.relation.symbols, "setting": v.relation.setting,
           "verdict": v.verdict, "scope": v.scope, "evidence": v.evidence, "lemma": v.lemma,
           "proof_file": v.proof_file, "witness_file": v.witness_file, "family_file": v.family_file,
           "coq": v.coq, "bounded": v.bounded, "searched": v.searched,
           "tightness": v.tightness, "tightness_family": v.tightness_family or None,
           "frontier": None if v.frontier is None else v.frontier.json(),
           "seconds": round(v.seconds, 3)}
    if with_witness:
        out["witness"] = None if v.witness is None else to_dict(v.witness)
    if v.recheck is not None:
        o = v.recheck
        out["recheck"] = {"status": o.status, "conclusion": None if o.conclusion is None else float(o.conclusion),
                          "bound": None if o.bound is None else float(o.bound)}
    return out
