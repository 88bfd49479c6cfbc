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
from typing import Any

from relations.io.writing import to_dict
from relations.measures.results import Budget, Measures, MutualInformation
from relations.model.distributions import ProductChannel
from relations.model.mechanism import Mechanism
from relations.numbers.text import fraction_text

__all__ = ["number", "budget_json", "mi_json", "sizes", "measures_json", "real_json", "outcome_json", "check_json", "catalogue_json", "verdict_json"]


def number(value: float) -> float | str:
    """A JSON-safe number: infinities become ``"inf"`` / ``"-inf"``."""
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
    exact = budget.exact
    return {
        "value": number(budget.value),
        "exact": None if exact is None else str(exact),
        "ratio": None if exact is None or not exact.is_finite else fraction_text(exact.ratio),
        "witness": _witness(mech, budget.witness),
    }



def mi_json(mi: MutualInformation) -> dict[str, Any]:
    out: dict[str, Any] = {"value": mi.value, "enclosure": None, "bits": mi.bits}
    if mi.enclosure is not None:
        out["enclosure"] = list(mi.enclosure.decimal())
    return out



def sizes(mech: Mechanism) -> tuple[str, str]:
    if isinstance(mech.channel, ProductChannel):
        r = mech.channel.records
        k, m = mech.channel.local.shape
        return f"{k}^{r}", f"{m}^{r}"
    n, m = mech.channel.shape
    return str(n), str(m)



def measures_json(mech: Mechanism, measures: Measures) -> dict[str, Any]:
    n, m = sizes(mech)
    return {
        "eps_i": budget_json(mech, measures.eps_i),
        "eps_d": budget_json(mech, measures.eps_d),
        "eps_m": mi_json(measures.eps_m),
        "sigma_min": budget_json(mech, measures.sigma_min),
        "mode": "exact" if measures.exact else "float",
        "setting": mech.setting,
        "form": "product" if mech.is_product else "dense",
        "inputs": n,
        "outputs": m,
    }



def real_json(x, approximate: bool = False) -> dict[str, Any] | None:
    """An exact real for JSON: ``value`` (number or "inf"), ``exact`` text, and an enclosure for I(X;Y);
    in float mode (``approximate``) only the value."""
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



def outcome_json(mech: Mechanism, o) -> dict[str, Any]:
    r = o.relation
    witness = _witness(mech, o.witness)
    return {
        "id": r.id, "title": r.title, "setting": r.setting, "kind": r.kind, "statement": r.statement,
        "symbols": r.symbols, "source": r.source, "corrects": r.corrects,
        "status": o.status, "holds": o.holds,
        "premise": None if o.premise is None else {"name": r.premise, **real_json(o.premise, o.approximate)},
        "bound": real_json(o.bound, o.approximate),
        "conclusion": None if o.conclusion is None else {"name": r.conclusion,
                                                         **real_json(o.conclusion, o.approximate)},
        "slack": None if o.slack is None else {"value": number(o.slack), "exact": o.slack_exact},
        "witness": witness, "note": o.note, "approximate": o.approximate,
    }



def check_json(report) -> dict[str, Any]:
    mech = report.values.mechanism
    return {
        "measures": measures_json(mech, report.values.measures),
        "relations": [outcome_json(mech, o) for o in report.outcomes],
        "claims": [{"claim": c.claim.text, "holds": c.holds,
                    "value": real_json(c.value, report.values.approximate), "note": c.note}
                   for c in report.claims],
        "mode": "exact" if not report.values.approximate else "float",
    }



def catalogue_json() -> list[dict[str, Any]]:
    from relations.catalogue.entries import CATALOGUE

    return [{"id": r.id, "title": r.title, "statement": r.statement, "symbols": r.symbols, "setting": r.setting,
             "kind": r.kind, "premise": r.premise, "conclusion": r.conclusion, "source": r.source,
             "min_records": r.min_records, "corrects": r.corrects, "reason": r.reason} for r in CATALOGUE]


def verdict_json(v, with_witness: bool = True) -> dict[str, Any]:
    """A :class:`~relations.search.verify.Verdict` as JSON (``relations verify --json``, ``verdicts.json``)."""
    out = {"id": v.relation.id, "statement": v.relation.symbols, "setting": v.relation.setting,
           "verdict": v.verdict, "evidence": v.evidence, "lemma": v.lemma, "proof_file": v.proof_file,
           "witness_file": v.witness_file, "bounded": v.bounded, "searched": v.searched,
           "tightness": v.tightness, "tightness_family": v.tightness_family or None,
           "seconds": round(v.seconds, 3)}
    if with_witness:
        out["witness"] = None if v.witness is None else to_dict(v.witness)
    if v.recheck is not None:
        o = v.recheck
        out["recheck"] = {"status": o.status, "conclusion": None if o.conclusion is None else float(o.conclusion),
                          "bound": None if o.bound is None else float(o.bound)}
    return out
