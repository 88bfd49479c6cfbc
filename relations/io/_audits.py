"""Audit reports as JSON and text, and the list of library mechanisms (``relations audit``)."""

from __future__ import annotations

from typing import Any

from relations.audit._libraries import ADAPTERS
from relations.audit._report import AuditReport
from relations.io._reports import budget_json, mi_json

__all__ = ["library_list_text", "parse_params", "audit_json", "library_list", "progress_bar_on_stderr"]


def audit_json(report: AuditReport, *, channel_file: str | None = None) -> dict[str, Any]:
    """The object ``relations audit --json`` prints.

    Always: ``target``, ``route`` (``white-box`` or ``black-box``), ``verdict``
    (``violated``, ``consistent`` or ``inconclusive``), ``samples`` (per input; 0 white-box), ``claims``.
    Black-box also: ``route_reason`` (why the exact route did not answer), ``repeatable`` (false when the
    counts depend on randomness the audit's seed does not control) and ``repeated_share`` (the share of
    samples on outputs seen 10 times or more; below 1/2 the verdict is ``inconclusive``).
    White-box: ``eps_d``, ``eps_i``, ``eps_m`` exactly, ``paths``, ``rounding``; factorised (vectors of
    independent bits): ``eps_d`` exactly and ``bits``; depth-bounded (a loop on draws): ``eps_d_lower``.
    Black-box: ``eps_d_lower``, ``confidence``, ``witness``, ``rounds``,
    ``undetectable_below``, and after a loop on draws cut at a depth, ``white_box_interval`` (``lower``, the
    certified lower end in nats as text, ``upper`` null: unknown, ``depth`` and ``unexplored`` mass; certified
    both ways, with ``outputs``: how the outputs were known, proven from the source or declared).  Library mechanisms: ``claimed``, ``version``, ``conformance``.

    Examples
    --------
    >>> from relations.audit import audit
    >>> def rr(x, rng):
    ...     return x if rng.random() < 0.75 else 1 - x
    >>> out = audit_json(audit(rr, domain=[0, 1], eps="ln(3)"))
    >>> out["verdict"], out["route"], out["eps_d"]["exact"], out["samples"]
    ('consistent', 'white-box', 'ln(3)', 0)
    """
    data: dict[str, Any] = {"target": report.target, "route": report.route, "verdict": report.verdict}
    if report.sampled is not None:
        sa = report.sampled
        data.update({"eps_d_lower": sa.eps_d_lower, "samples": sa.samples, "confidence": 1 - sa.alpha,
                     "rounds": sa.rounds, "undetectable_below": sa.undetectable,
                     "witness": None if sa.witness is None else
                     [str(sa.witness[0]), str(sa.witness[1]), report.labels.get(sa.witness[2], sa.witness[2])],
                     "route_reason": report.route_reason, "repeatable": report.repeatable, "binning": report.binning,
                     "repeated_share": sa.repeated_share()})
    elif report.mechanism is None:  # factorised (eps_d exactly) or depth-bounded (a certified lower bound)
        x, x2, y = report.witness
        data.update({"samples": 0, "paths": report.runs, "witness": [str(x), str(x2), str(y)],
                     "route_reason": report.route_reason})
        if report.bits:
            data.update({"eps_d": {"exact": report.eps_d_exact, "value": report.eps_d_value}, "bits": report.bits})
        else:
            data["eps_d_lower"] = report.eps_d_lower
    else:
        m, mech = report.measures, report.mechanism
        assert m is not None  # measured with the mechanism
        data.update({"eps_d": budget_json(mech, m.eps_d), "eps_i": budget_json(mech, m.eps_i),
                     "eps_m": mi_json(m.eps_m), "samples": 0, "paths": report.runs,
                     "rounding": float(mech.rounding[0])})
    data["claims"] = [{"claim": c.claim.text, "holds": c.holds, "status": str(c.status), "note": c.note}
                      for c in report.claims]
    if report.mechanism is None and report.sampled is None and report.claim:
        status = ("fails" if report.verdict == "violated" else
                  "holds within rounding" if report.within_rounding else "holds")
        data["claims"] = [{"claim": report.claim, "holds": report.verdict != "violated", "status": status}]
    if report.sampled is not None and report.claim:  # sampling can refute a claim, never prove it
        data["claims"] = [{"claim": report.claim, "holds": False if report.verdict == "violated" else None,
                           "status": "fails" if report.verdict == "violated" else "not refuted by sampling"}]
    if report.budgets:
        data["budgets"] = report.budgets
    if report.white_box_interval:  # a loop on draws cut at a depth, then sampled: what the explored paths certify
        data["white_box_interval"] = report.white_box_interval
    if report.claimed is not None:
        data.update({"claimed": report.claimed, "version": report.version})
    if report.conformance:
        data["conformance"] = report.conformance
    if channel_file:
        data["channel_file"] = channel_file
    return data


def library_list() -> list[dict[str, str]]:
    """The library mechanisms ``relations audit`` knows, with the call each one audits.

    Examples
    --------
    >>> [m["name"] for m in library_list()][:3]
    ['pure-ldp.de', 'pure-ldp.sue', 'pure-ldp.oue']
    """
    return [{"name": a.name, "library": a.library, "call": a.call, "params": ", ".join(a.params)}
            for a in ADAPTERS.values()]


def progress_bar_on_stderr() -> Any:
    """A rich progress bar on stderr: ``update(done, total)``."""
    from rich.progress import Progress

    from relations.io._text import console

    bar = Progress(console=console(stderr=True), transient=True)
    task = bar.add_task("sampling", total=None)
    started: list[bool] = []

    def update(done: int, total: int) -> None:  # shown from the first chunk: a white-box audit shows none
        if not started:
            bar.start()
            started.append(True)
        bar.update(task, completed=done, total=total)
        if done >= total:
            bar.stop()
    return update


def library_list_text(*, json_out: bool = False) -> str:
    """``relations audit --list``: one line per library mechanism (or the JSON list).

    Examples
    --------
    >>> library_list_text().splitlines()[0].split()[0]
    'pure-ldp.de'
    """
    import json

    rows = library_list()
    if json_out:
        return json.dumps(rows, indent=1) + "\n"
    return "".join(f"{r['name']:<38} {r['call']}" + (f" [--param {r['params']}]" if r["params"] else "") + "\n"
                   for r in rows)


def parse_params(items) -> dict[str, str]:
    """``--param NAME=VALUE`` options as a dict.

    Raises
    ------
    InputError
        An item without ``=`` or without a name.

    Examples
    --------
    >>> parse_params(["alpha = 1/2"])
    {'alpha': '1/2'}
    """
    from relations.errors import InputError

    params = {}
    for p in items:
        name, sep, value = p.partition("=")
        if not sep or not name.strip():
            raise InputError(f"--param {p!r}: expected NAME=VALUE")
        params[name.strip()] = value.strip()
    return params
