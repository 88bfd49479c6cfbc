"""``relations audit ... --repeat K``: what ``K`` independent reports of the audited randomizer leak.

When the audit determined the channel exactly (white-box, enumerated), its ``K``-fold repetition is
measured in every notion (:func:`relations.io._reports.composed_json`: the counts of each output, or
composition rules beyond them), as ``relations measure FILE --repeat K --notion all`` would.  When it
did not, nothing exact is claimed: ``eps_d`` adds over independent uses (``eps_d`` of ``K`` uses is
``K eps_d``, per pair the largest ratio of every use together), so the certified bounds on one use's
``eps_d`` become bounds on ``K`` uses' and are reported as such, and every other notion is said to be
unknown.
"""

from __future__ import annotations

from typing import Any

__all__ = ["repeated_report", "repeated_text"]


def repeated_report(report: Any, uses: int) -> dict[str, Any]:
    """``uses`` reports of the audited randomizer: ``{"uses", "exact", "note", "notions", "left_out"}``.

    Parameters
    ----------
    report : AuditReport
        The audit's report.
    uses : int
        The number of independent reports, 1 to :data:`~relations.model.MAX_REPEAT`.

    Returns
    -------
    dict
        ``exact`` is true when the notions are those of the exact channel repeated; ``notions`` are rows as
        ``relations measure --json``'s (``name``, ``value``, ``exact``, ``witness``), ``left_out`` the notions
        not computed and why, ``note`` what was measured, in words.

    Examples
    --------
    >>> from relations.audit import audit
    >>> def rr(x, rng):
    ...     return x if rng.random() < 0.75 else 1 - x
    >>> out = repeated_report(audit(rr, domain=[0, 1]), 3)
    >>> out["exact"], [(r["name"], r["exact"]) for r in out["notions"]][:2]
    (True, [('eps_d', 'ln(27)'), ('eps_i', 'ln(27)')])
    """
    from relations.errors import InputError
    from relations.io._reports import composed_json

    mech = report.mechanism
    if mech is not None:
        try:
            comp = mech.in_mode("exact").repeated(uses)
            rows, left = composed_json(comp, ["all"])
        except InputError as exc:
            return {"uses": uses, "exact": False, "notions": [], "left_out": [],
                    "note": f"the implemented channel is exact, but its {uses} uses are not measured: {exc}"}
        route = (f"through the counts of each output ({comp.type_counts()} count vectors)" if comp.counts_fit()
                 else "by composition rules")
        return {"uses": uses, "exact": True, "notions": rows, "left_out": left,
                "note": f"{uses} independent reports of the implemented channel, measured exactly {route}"}
    if report.bits:
        exact = f"{uses} {report.eps_d_exact}" if len(report.eps_d_exact) <= 60 else f"{uses} ln(q), q a long rational"
        return {"uses": uses, "exact": False, "left_out": [],
                "notions": [{"name": "eps_d", "value": uses * report.eps_d_value, "exact": exact, "witness": None}],
                "note": f"eps_d of {uses} uses is {uses} eps_d exactly (ratios multiply over independent uses); the "
                        f"other notions need the channel, whose 2^{report.bits} outputs were never expanded"}
    if report.sampled is not None:
        sa = report.sampled
        return {"uses": uses, "exact": False, "notions": [], "left_out": [],
                "note": f"sampled, so nothing exact about {uses} uses: eps_d of {uses} uses is {uses} eps_d, so it is "
                        f">= {uses * sa.eps_d_lower:.6g} nats with confidence {1 - sa.alpha:g} ({uses} times the "
                        "certified lower bound); the other notions are not estimated"}
    iv = report.white_box_interval
    bounds = (f"in [{uses} x {iv['lower']}, {uses} x {iv['upper']}]" if iv else f">= {uses} x {report.eps_d_lower}")
    return {"uses": uses, "exact": False, "notions": [], "left_out": [],
            "note": f"the channel is known only within the mass the audit did not explore: eps_d of {uses} uses is "
                    f"{uses} eps_d, so it is {bounds} nats, certified; the other notions are not computed"}


def repeated_text(repeated: dict[str, Any]) -> str:
    """:func:`repeated_report` as text: the note, then the notions' table and the notions left out.

    Examples
    --------
    >>> print(repeated_text({"uses": 2, "exact": False, "notions": [], "left_out": [], "note": "sampled"}))
    2 reports: sampled
    """
    from relations.io._tables import left_out_text, notions_table
    from relations.io._text import plain

    parts: list[Any] = [f"{repeated['uses']} reports: {repeated['note']}"]
    if repeated["notions"]:
        parts.append(notions_table(repeated["notions"]))
    if repeated["left_out"]:
        parts.append(left_out_text(repeated["left_out"]))
    return plain(*parts)
