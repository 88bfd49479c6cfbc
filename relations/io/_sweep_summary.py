"""A finished sweep's summary: status counts per relation, the verdict over the family, counterexample files.

For each relation of a sweep (:mod:`relations.io._sweeps`), :func:`summarise` counts the statuses over
every point and states the outcome over the whole family: for a bounded-exhaustive family
``every 2 x 2 mechanism with denominators <= 3: holds``, or the first counterexample (the point with
the smallest number where the relation fails), whose mechanism is written to
``counterexamples/ID.json`` so that ``relations check`` re-checks it exactly; for a non-implication, the
first witness likewise (:func:`counterexample_text`).  Points the named mechanism refused count as ``error``.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from typing import Any

from relations.sweeps._chunks import STATUS_PREFIX
from relations.sweeps._spec import SweepSpec

__all__ = ["family_text", "summary_columns", "summarise", "summary_text", "counterexample_text"]


def family_text(spec: SweepSpec) -> str:
    """What the sweep covers, in words.

    Examples
    --------
    >>> from relations.sweeps._spec import parse_spec
    >>> family_text(parse_spec({"exhaustive": {"inputs": 2, "outputs": 3, "denominator": 4}}))
    'every 2 x 3 mechanism with denominators <= 4'
    >>> family_text(parse_spec({"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 4, "prior": "uniform"}}))
    'every 2 x 2 channel with denominators <= 4 and the uniform prior'
    >>> family_text(parse_spec({"mechanism": "krr", "k": [2, 3], "ratio": "2"}))
    "every point of the grid of 'krr' (2 mechanisms)"
    """
    if spec.kind == "grid":
        return f"every point of the grid of {spec.data['mechanism']!r} ({spec.count} mechanisms)"
    fam = spec.data["exhaustive"]
    size = f"{fam['inputs']} x {fam['outputs']}"
    if fam["prior"] == "all":
        return f"every {size} mechanism with denominators <= {fam['denominator']}"
    which = "the uniform prior" if fam["prior"] == "uniform" else "every prior with positive entries"
    return f"every {size} channel with denominators <= {fam['denominator']} and {which}"


def counterexample_text(spec: SweepSpec, summary: dict, relation: str, row: dict) -> str:
    """The mechanism file of a relation's first counterexample (or witness), with a ``name`` saying what it is."""
    from relations.io._writing import dumps

    mech = spec.build({c: row[c] for c in spec.columns})
    what = "counterexample to" if "first counterexample" in summary["relations"][relation] else "witness for"
    return dumps(mech, f"relations sweep: {what} {relation}, point #{row['index']} ({_params(spec, row)})")


def _params(spec: SweepSpec, row: dict) -> str:
    return " ".join(f"{c}={row[c]}" for c in spec.columns)


def _verdict(spec: SweepSpec, relation: str, counts: Counter, first: dict[str, dict]) -> tuple[str, dict | None]:
    """The outcome over the family and the point to write as a mechanism file (if any)."""
    from relations.catalogue import BY_ID
    from relations.kinds import RelationKind

    family = family_text(spec)
    if "fails" in first:
        row = first["fails"]
        return f"{family}: fails; first counterexample #{row['index']} {_params(spec, row)}", row
    if BY_ID[relation].kind == RelationKind.NON_IMPLICATION:
        if "witness" in first:
            row = first["witness"]
            return f"{family}: first witness #{row['index']} {_params(spec, row)}", row
        return f"{family}: no witness among them", None
    total = sum(counts.values())
    if counts["not applicable"] == total:
        return f"{family}: not applicable to any", None
    others = {s: n for s, n in counts.items() if s not in ("holds", "not applicable")}
    if not others:
        return f"{family}: holds", None
    rest = ", ".join(f"{s} on {n} (first #{first[s]['index']})" for s, n in sorted(others.items()))
    return f"{family}: no counterexample; holds on {counts['holds']}, {rest}", None


def summary_columns(spec: SweepSpec) -> list[str]:
    """The columns :func:`summarise` reads: ``index``, ``error``, the parameters, the statuses and, for a family
    up to relabelling, ``orbit``.

    Examples
    --------
    >>> from relations.sweeps._spec import parse_spec
    >>> summary_columns(parse_spec({"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 1, "symmetry": "relabel"},
    ...                             "relations": ["zheng2025.thm4"]}))
    ['index', 'error', 'prior', 'channel', 'status:zheng2025.thm4', 'orbit']
    """
    columns = ["index", "error", *spec.columns, *(STATUS_PREFIX + r for r in spec.relations)]
    return columns + (["orbit"] if spec.members is not None else [])


def summarise(spec: SweepSpec, rows: Iterable[dict], *, chunks: int) -> tuple[dict, dict[str, dict]]:
    """The summary of a finished sweep, and per relation the point to write as a mechanism file.

    Parameters
    ----------
    spec : SweepSpec
    rows : iterable of dict
        Every row, in point order, read once (at least the parameter, ``index``, ``error`` and status
        columns, and ``orbit`` for a family up to relabelling: the counts are then of the family's members).
    chunks : int
        The number of chunks, for the record.

    Returns
    -------
    tuple of (dict, dict)
        ``summary.json``'s content, and ``{relation id: row}`` for the counterexamples and witnesses.

    Examples
    --------
    >>> from relations.sweeps._spec import parse_spec
    >>> from relations.sweeps._chunks import evaluate_point
    >>> spec = parse_spec({"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 1},
    ...                    "relations": ["relations.thm4_corrected", "zheng2025.thm4"]})
    >>> summary, found = summarise(spec, [evaluate_point(spec, i) for i in range(spec.count)], chunks=1)
    >>> summary["relations"]["relations.thm4_corrected"]["verdict"]
    'every 2 x 2 mechanism with denominators <= 1: holds'
    >>> summary["relations"]["zheng2025.thm4"]["counts"], sorted(found)
    ({'fails': 4, 'holds': 4}, ['zheng2025.thm4'])
    """
    counts: dict[str, Counter] = {rel: Counter() for rel in spec.relations}
    first: dict[str, dict[str, dict]] = {rel: {} for rel in spec.relations}
    seen = errors = 0
    first_error = None
    for row in rows:
        seen += 1
        weight = row.get("orbit") or 1
        if row.get("error"):
            errors += weight
            first_error = first_error or row
        for rel in spec.relations:
            status = row[STATUS_PREFIX + rel] or "error"
            counts[rel][status] += weight
            first[rel].setdefault(status, row)
    out: dict[str, Any] = {"family": family_text(spec), "points": spec.count, "rows": seen, "chunks": chunks,
                           "errors": errors, "relations": {}}
    if spec.members is not None:  # counts are of members: each representative stands for its orbit
        out["members"] = spec.members
    if first_error is not None:
        out["first error"] = {"index": first_error["index"], "message": first_error["error"]}
    found: dict[str, dict] = {}
    for rel in spec.relations:
        verdict, point = _verdict(spec, rel, counts[rel], first[rel])
        entry: dict[str, Any] = {"counts": dict(counts[rel]), "verdict": verdict}
        if point is not None:
            found[rel] = point
            entry["first " + ("counterexample" if "fails" in first[rel] else "witness")] = {
                "index": point["index"], "parameters": {c: point[c] for c in spec.columns},
                "file": f"counterexamples/{rel}.json"}
        out["relations"][rel] = entry
    return out, found


def summary_text(summary: dict, *, out: str, computed: int, resumed: int) -> str:
    """The summary as the lines ``relations sweep`` prints.

    Examples
    --------
    >>> s = {"family": "every point", "points": 4, "chunks": 2, "errors": 0,
    ...      "relations": {"r": {"counts": {"holds": 4}, "verdict": "every point: holds"}}}
    >>> print(summary_text(s, out="DIR", computed=1, resumed=1))
    sweep: 4 mechanisms in 2 chunks (1 computed now, 1 done before) -> DIR
    r: holds 4
      every point: holds
    """
    size = f"{summary['points']} mechanisms"
    if "members" in summary:  # a family up to relabelling
        size = f"{summary['members']} mechanisms, {summary['points']} up to relabelling inputs and outputs,"
    lines = [f"sweep: {size} in {summary['chunks']} chunks ({computed} computed now, {resumed} done before) -> {out}"]
    if summary["errors"]:
        first = summary["first error"]
        lines.append(f"errors: {summary['errors']} points refused by their mechanism (first #{first['index']}: "
                     f"{first['message']})")
    for rel, entry in summary["relations"].items():
        lines.append(f"{rel}: " + ", ".join(f"{s} {n}" for s, n in entry["counts"].items()))
        extra = entry.get("first counterexample") or entry.get("first witness")
        lines.append("  " + entry["verdict"] + (f": {os.path.join(out, extra['file'])}" if extra else ""))
    return "\n".join(lines) + "\n"
