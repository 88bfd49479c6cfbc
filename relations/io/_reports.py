"""Results as JSON: measures, relation outcomes, claims, the catalogue and verdicts.

The object ``relations measure --json`` prints is described in :mod:`relations.measures._encoding`, the
other objects in ``docs/claims-and-verdicts.md``.

The encoders of measures (:func:`~relations.measures._encoding.measures_json`,
:func:`~relations.measures._encoding.budget_json`, ...) and of check reports
(:func:`~relations.checking._encoding.check_json`, ...) live in
:mod:`relations.measures._encoding` and :mod:`relations.checking._encoding`, where the result
objects' ``to_dict()`` methods use them; they are importable from here as before.  This module
adds the catalogue and the verdicts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from relations.io._writing import to_dict
from relations.measures._encoding import (  # noqa: F401 (re-exported)
    budget_json,
    measures_json,
    mi_json,
    number,
    rounding_json,
    sizes,
)

if TYPE_CHECKING:
    from relations.pipeline._verify import RelationVerdict

__all__ = ["catalogue_json", "verdict_json", "ALL_NOTIONS",  # noqa: F822 (ALL_NOTIONS: the module's __getattr__)
           "notions_json", "left_out_json", "composed_json"]

def catalogue_json() -> list[dict[str, Any]]:
    """The relation catalogue as JSON (``relations catalogue --json``), one object per relation, then one per
    composition theorem (``kind`` ``"composition"``, :data:`~relations.catalogue._composition.COMPOSITION_RELATIONS`).

    Examples
    --------
    >>> from relations import CATALOGUE
    >>> rows = catalogue_json()
    >>> from relations.catalogue._composition import COMPOSITION_RELATIONS
    >>> len(rows) == len(CATALOGUE) + len(COMPOSITION_RELATIONS), rows[0]["id"], rows[0]["symbols"]
    (True, 'zheng2025.thm1', 'eps_d <= eps_i - sigma_min')
    >>> rows[-1]["id"], rows[-1]["kind"]
    ('bs2016.zcdp_repeat', 'composition')
    """
    from relations.catalogue._composition import COMPOSITION_RELATIONS
    from relations.catalogue._entries import CATALOGUE

    return [{"id": r.id, "title": r.title, "statement": r.statement, "symbols": r.symbols, "setting": r.setting,
             "kind": r.kind, "premise": r.premise, "conclusion": r.conclusion, "source": r.source,
             "min_records": r.min_records, "corrects": r.corrects, "reason": r.reason,
             "scope": {"name": r.scope.name, "text": r.scope.describe(r.setting)}} for r in CATALOGUE] + [
        {"id": r.id, "title": r.title, "statement": r.statement, "symbols": r.text(), "setting": "both",
         "kind": "composition", "premise": r.premise, "conclusion": r.conclusion, "source": r.source,
         "min_records": 1, "corrects": None, "reason": None, "rule": str(r.rule), "parameter": str(r.parameter),
         "scope": {"name": "repeated use", "text": COMPOSITION_SCOPE}} for r in COMPOSITION_RELATIONS]


#: Where the composition theorems of ``relations catalogue`` apply.
COMPOSITION_SCOPE = ("k uses of mechanisms (a 'repeat' or 'parts' file), checked by 'relations check' against the "
                     "composition's exact value or certified enclosure; not searched by 'relations verify'")


def verdict_json(v: RelationVerdict, *, with_witness: bool = True) -> dict[str, Any]:
    """A :class:`~relations.pipeline._verify.RelationVerdict` as JSON (``relations verify --json``, ``verdicts.json``).

    Parameters
    ----------
    v : RelationVerdict
    with_witness : bool, optional
        Include the counterexample (and a degenerate one's full-support witness) as a mechanism file's dict
        (``verdicts.json`` leaves them out: each has its own file).

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
           "seconds": round(v.seconds, 3), "degenerate": list(v.degenerate), "full_witness_file": v.full_witness_file}
    if with_witness:
        out["witness"] = None if v.witness is None else to_dict(v.witness)
        out["full_witness"] = None if v.full_witness is None else to_dict(v.full_witness)
    for key, o in (("recheck", v.recheck), ("full_recheck", v.full_recheck)):
        if o is not None:
            out[key] = {"status": o.status, "conclusion": None if o.conclusion is None else float(o.conclusion),
                        "bound": None if o.bound is None else float(o.bound)}
    return out


def __getattr__(name: str) -> Any:
    """``ALL_NOTIONS``: what ``relations measure --notion all`` computes (the argument-free notions and common
    arguments, :data:`relations.notions.ALL_EXAMPLES`), read from the notions' registry on first use."""
    if name == "ALL_NOTIONS":
        return _all_notions()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _all_notions() -> Sequence[str]:
    from relations.notions import ALL_EXAMPLES

    return ALL_EXAMPLES


def _wanted(mech: Any, names: Sequence[str]) -> tuple[list[str], list[dict[str, str]]]:
    """The canonical names to compute, in order and once each, and those ``all`` leaves out with the reason."""
    from relations.measures._notions import canonical_name, parse_notion, undefined_reason

    wanted: list[str] = []
    left: list[dict[str, str]] = []
    for name in names:
        every = name.strip().lower() == "all"
        for one in (_all_notions() if every else (name,)):
            canonical = canonical_name(*parse_notion(one))
            reason = undefined_reason(mech, canonical) if every else None
            if reason is not None:
                if all(item["name"] != canonical for item in left):
                    left.append({"name": canonical, "reason": reason})
            elif canonical not in wanted:
                wanted.append(canonical)
    return wanted, [item for item in left if item["name"] not in wanted]


def notions_json(mech: Any, names: Sequence[str], *, bits: int | None = None) -> list[dict[str, Any]]:
    """The further notions of ``relations measure --notion NAME`` as JSON rows.

    Parameters
    ----------
    mech : Mechanism
    names : sequence of str
        Notion names with their arguments (``"rho"``, ``"delta(1/2)"``, ``"renyi(3/2)"``), or ``"all"``
        for every notion of :data:`ALL_NOTIONS` defined on ``mech`` (:func:`left_out_json` lists the others);
        repeated names are computed once.
    bits : int, optional
        Enclosures at most ``2**-bits`` wide (``measure --bits``; default 100).

    Returns
    -------
    list of dict
        ``{"name", "value", "exact", ["enclosure"], "witness", "detail"}`` in the order given, ``name``
        canonical (``delta(1/2)``); ``exact`` is None in float mode.

    Raises
    ------
    InputError
        An unknown notion or a bad argument (before anything is computed), or one named explicitly that is
        not defined on ``mech`` (``cmi`` on an explicit neighbour graph).

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> [(r["name"], r["exact"]) for r in notions_json(randomized_response(3), ["delta(0)", "maximal_leakage"])]
    [('delta(0)', '1/2'), ('maximal_leakage', 'ln(3/2)')]
    """
    from relations.checking._encoding import real_json
    from relations.measures._encoding import witness_json
    from relations.measures._notions import notion_result

    rows = []
    for name in _wanted(mech, names)[0]:
        r = notion_result(mech, name)
        row = {"name": r.name, **real_json(r.value, approximate=not mech.exact, bits=bits),
               "witness": witness_json(mech, r.witness)}
        if getattr(r, "detail", ""):
            row["detail"] = r.detail
        rows.append(row)
    return rows


def left_out_json(mech: Any, names: Sequence[str]) -> list[dict[str, str]]:
    """The notions ``"all"`` in ``names`` leaves out because they are not defined on ``mech``, with why.

    Examples
    --------
    >>> from relations.mechanisms import truncated_geometric
    >>> left_out_json(truncated_geometric(3, ratio=2), ["all"])
    [{'name': 'cmi', 'reason': 'an explicit neighbour graph has no records; it is defined locally and on D^r'}]
    >>> left_out_json(truncated_geometric(3, ratio=2), ["rho"])
    []
    """
    return _wanted(mech, names)[1]


def composed_json(comp: Any, names: Sequence[str], *, bits: int | None = None
                  ) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """A composition too large for the counts of each output: the budgets and notions computed by composition rules.

    ``eps_d``, ``eps_i`` and ``sigma_min`` always, then ``names`` (``"all"``: :data:`ALL_NOTIONS`); a notion
    that needs the counts of each output (``eps_m``, the leakages) is left out with the reason.

    Returns
    -------
    tuple
        ``(rows, left_out)`` as :func:`notions_json` and :func:`left_out_json`.

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> rows, left = composed_json(randomized_response(3).repeated(10000), ["delta(ln(3))"])
    >>> [r["name"] for r in rows], left[0]["name"]
    (['eps_d', 'eps_i', 'sigma_min', 'delta(ln(3))'], 'eps_m')
    """
    from relations.checking._encoding import real_json
    from relations.errors import InputError
    from relations.measures._composition import composed_notion
    from relations.measures._encoding import witness_json
    from relations.measures._notions import canonical_name, parse_notion

    wanted = ["eps_d", "eps_i", "sigma_min", "eps_m"]
    for name in names:
        for one in (_all_notions() if name.strip().lower() == "all" else (name,)):
            canonical = canonical_name(*parse_notion(one))
            if canonical not in wanted:
                wanted.append(canonical)
    rows: list[dict[str, Any]] = []
    left: list[dict[str, str]] = []
    labels = comp.sufficient() if comp.counts_fit() else comp.base  # a witness's output is a count vector there
    for name in wanted:
        try:
            r = composed_notion(comp, name)
        except InputError as exc:
            left.append({"name": name, "reason": str(exc)})
            continue
        witness = r.witness if labels is not comp.base or r.witness is None or r.witness.y is None else None
        row = {"name": name, **real_json(r.value, approximate=False, bits=bits),
               "witness": witness_json(labels, witness)}
        if getattr(r, "detail", ""):
            row["detail"] = r.detail
        rows.append(row)
    return rows, left
