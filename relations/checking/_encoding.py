"""Relation outcomes, claims and reports as JSON: what ``relations check --json`` prints.

The objects are described in ``docs/claims-and-verdicts.md``.  These functions live in the
checking layer so that :meth:`Report.to_dict <relations.checking.Report.to_dict>` can use
them; :mod:`relations.io._reports` re-exports them for the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, overload

from relations.measures._encoding import measures_json, number, witness_json
from relations.model._mechanism import Mechanism

if TYPE_CHECKING:
    from relations.numbers._reals import Real

__all__ = ["real_json", "outcome_json", "check_json", "composition_outcome_json"]


@overload
def real_json(x: None, *, approximate: bool = False, bits: int | None = None) -> None: ...


@overload
def real_json(x: Real | float, *, approximate: bool = False, bits: int | None = None) -> dict[str, Any]: ...


def real_json(x: Any, *, approximate: bool = False, bits: int | None = None) -> dict[str, Any] | None:
    """An exact real for JSON: ``value`` (number or ``"inf"``), ``exact`` text, and an enclosure for ``I(X;Y)``.

    Parameters
    ----------
    x : Real, float or None
        A quantity of a relation outcome or claim (:mod:`relations.numbers._reals`).
    approximate : bool, optional
        Float mode: ``exact`` is None and no enclosure is given.
    bits : int, optional
        The enclosure at most ``2**-bits`` wide (default: the real's ``display_bits``, 100).

    Returns
    -------
    dict or None
        None for ``x = None``.
    """
    from relations.numbers._reals import ArbExpr, Log

    if x is None:
        return None
    out: dict[str, Any] = {"value": number(float(x))}
    if approximate:
        out["exact"] = None
    elif isinstance(x, Log):
        out["exact"] = str(x.log)
    elif isinstance(x, ArbExpr):
        lo, hi = x.enclose(x.display_bits if bits is None else bits)
        out["exact"] = x.text
        from relations.numbers._enclosure import Enclosure

        out["enclosure"] = list(Enclosure(lo, hi).decimal())
    else:
        out["exact"] = str(x)
    return out



def outcome_json(mech: Mechanism, o: Any) -> dict[str, Any]:
    """A relation evaluated on one mechanism, as JSON (``docs/claims-and-verdicts.md``).

    Parameters
    ----------
    mech : Mechanism
        As for :func:`~relations.measures._encoding.budget_json`.
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
    witness = witness_json(mech, o.witness)
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



def check_json(report: Any) -> dict[str, Any]:
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
    out = {
        "measures": measures_json(mech, report.values.measures),
        "relations": [outcome_json(mech, o) for o in report.outcomes],
        "claims": [{"claim": c.claim.text, "holds": c.holds, "status": str(c.status),
                    "value": real_json(c.value, approximate=report.values.approximate), "note": c.note}
                   for c in report.claims],
        "mode": "exact" if not report.values.approximate else "float",
    }
    comp = getattr(report, "uses", None)
    if comp is not None:
        out["composition"] = {"uses": comp.uses, "parts": len(comp.parts), "count_vectors": comp.type_counts(),
                              "measures_of": "the counts of each output" if comp.counts_fit() else "one use"}
        out["composition_relations"] = [composition_outcome_json(comp.base, o) for o in report.composition]
    return out


def composition_outcome_json(mech: Mechanism, o: Any) -> dict[str, Any]:
    """A composition theorem evaluated on a composition (:class:`~relations.checking.CompositionOutcome`), as JSON.

    Examples
    --------
    >>> from relations import check
    >>> from relations.mechanisms import randomized_response
    >>> r = check(randomized_response(3).repeated(2))
    >>> out = composition_outcome_json(r.uses.base, r.composition[0])
    >>> out["id"], str(out["status"]), out["premise"]["exact"], out["conclusion"]["exact"] == out["bound"]["exact"]
    ('kov2017.repeat_profile', 'holds', 'ln(3)', True)
    """
    r = o.relation
    return {
        "id": r.id, "title": r.title, "statement": r.statement, "symbols": r.text(), "source": r.source,
        "status": o.status, "holds": o.holds,
        "premise": None if o.premise is None else {"name": r.premise, **real_json(o.premise, approximate=False)},
        "bound": None if o.bound is None else real_json(o.bound, approximate=False),
        "conclusion": None if o.conclusion is None else {"name": r.conclusion,
                                                         **real_json(o.conclusion, approximate=False)},
        "slack": None if o.slack is None else {"value": number(o.slack)},
        "witness": witness_json(mech, o.witness), "note": o.note,
    }
