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

The encoders of measures (:func:`~relations.measures.encoding.measures_json`,
:func:`~relations.measures.encoding.budget_json`, ...) and of check reports
(:func:`~relations.checking.encoding.check_json`, ...) live in
:mod:`relations.measures.encoding` and :mod:`relations.checking.encoding`, where the result
objects' ``to_dict()`` methods use them; they are importable from here as before.  This module
adds the catalogue and the verdicts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from relations.checking.encoding import check_json, outcome_json, real_json  # noqa: F401 (re-exported)
from relations.io.writing import to_dict
from relations.measures.encoding import (  # noqa: F401 (re-exported)
    budget_json,
    measures_json,
    mi_json,
    number,
    rounding_json,
    sizes,
)

if TYPE_CHECKING:
    from relations.search.verify import Verdict

__all__ = ["catalogue_json", "verdict_json"]


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
