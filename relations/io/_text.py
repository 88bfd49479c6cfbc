"""Result objects as plain text: what ``print()`` shows of them, the CLI's compact tables.

``str()`` of :class:`~relations.measures.Measures`, :class:`~relations.checking.Report`,
:class:`~relations.audit.AuditReport`, :class:`~relations.pipeline.ConjectureResult`,
:class:`~relations.measures._pairs.NotionResult` and :class:`~relations.pipeline.RelationVerdict`
is drawn here (the lower layers name these functions as text and import them on first use,
:func:`relations.model._display.text_view`): the same rich tables and lines ``relations measure``,
``check``, ``audit``, ``conjecture`` and ``verify`` print, :data:`WIDTH` columns wide, without colour.

Text from a user (labels, file names, claims, a target's output) is shown as text, never obeyed:
:func:`safe` escapes control characters and bidirectional overrides visibly (``\\x1b``), every rich
console of the tool is a :func:`console` (markup and emoji off, every string escaped), and the command
line writes through :class:`TerminalText` (``docs/claims-and-verdicts.md``, "Hostile text").
"""

from __future__ import annotations

import io
from typing import Any

from relations.io._terminal import TerminalText, console, safe

__all__ = ["WIDTH", "plain", "safe", "console", "TerminalText", "measures_text", "report_text", "audit_text",
           "witness_lines",
           "conjecture_text", "notion_text", "verdict_text"]

#: Columns of the text of a result object.
WIDTH = 100

def plain(*parts: Any, width: int = WIDTH) -> str:
    """Rich renderables as plain text, ``width`` columns, no colour, no trailing spaces; strings as they are.

    Examples
    --------
    >>> from rich.table import Table
    >>> t = Table("a", "b")
    >>> t.add_row("1", "2")
    >>> print(plain("title", t))
    title
    ┏━━━┳━━━┓
    ┃ a ┃ b ┃
    ┡━━━╇━━━┩
    │ 1 │ 2 │
    └───┴───┘
    """
    out = io.StringIO()
    drawn = console(file=out, width=width, color_system=None, force_terminal=False, force_jupyter=False,
                    soft_wrap=False)
    for part in parts:
        if isinstance(part, str):  # a line the CLI writes as it is: not wrapped
            out.write(safe(part.rstrip("\n"), newlines=True, tabs=True) + "\n")
        else:
            drawn.print(part)
    return "\n".join(line.rstrip() for line in out.getvalue().rstrip("\n").split("\n"))


def measures_text(measures: Any) -> str:
    """``relations measure``'s table of ``measures`` (which name their mechanism).

    Examples
    --------
    >>> from relations import measure
    >>> from relations.mechanisms import paper_example
    >>> text = measures_text(measure(paper_example()))
    >>> [line.split("│")[1:3] for line in text.splitlines() if "ln(13/7)" in line]
    [[' eps_d     ', '   0.619039208406… ']]
    """
    from relations.io._tables import measures_table

    if measures.mechanism is None:
        return repr(measures)
    tables = [measures_table(measures.mechanism, measures)]
    if measures.notions:
        from relations.checking._encoding import real_json
        from relations.io._tables import notions_table
        from relations.measures._encoding import witness_json

        mech = measures.mechanism
        tables.append(notions_table([{"name": r.name, **real_json(r.value, approximate=not mech.exact),
                                      "witness": witness_json(mech, r.witness)} for r in measures.notions.values()]))
    return plain(*tables)


def report_text(report: Any, *, catalogue: bool | None = None) -> str:
    """``relations check``'s tables: the measures, the relations that apply (a line for the rest), the claims.

    With claims and ``catalogue`` not True (Python's ``print(check(m, claims))``): the measures, the claims with
    their bound and slack, and one line counting the catalogue's outcomes.

    Examples
    --------
    >>> from relations import check
    >>> from relations.mechanisms import paper_example
    >>> report = check(paper_example(), ["eps_d <= ln(2)"])
    >>> text = report_text(report, catalogue=True)
    >>> "relations for the local setting" in text, "claims" in text, max(map(len, text.splitlines())) <= 100
    (True, True, True)
    >>> print(*report_text(report).splitlines()[-2:], sep=chr(10))
    catalogue: 46 relations evaluated (32 holds, 11 not applicable, 2 not a witness, 1 fails);
    report.text(catalogue=True) shows each
    """
    from relations.io._tables import check_tables, claims_table, composition_table, measures_table

    mech = report.values.mechanism
    if catalogue is None:
        catalogue = not report.claims
    measures = measures_table(mech, report.values.measures)
    if catalogue:
        return plain(measures, *check_tables(report, width=WIDTH))
    from relations.checking._display import _counts

    line = (f"catalogue: {len(report.outcomes)} relations evaluated ({_counts(o.status for o in report.outcomes)});\n"
            "report.text(catalogue=True) shows each")
    extra = [composition_table(report)] if getattr(report, "composition", ()) else []
    return plain(measures, *extra, *([claims_table(report)] if report.claims else []), line)


def audit_text(report: Any) -> str:
    """``relations audit``'s text: the summary, the conformance line where the library documents a channel,
    and the measures table of the implemented channel where it is known exactly.

    Examples
    --------
    >>> from relations.audit import audit
    >>> def rr(x, rng):
    ...     return x if rng.random() < 0.75 else 1 - x
    >>> print(audit_text(audit(rr, domain=[0, 1], eps="ln(3)")).splitlines()[0])
    consistent: rr implements a channel with eps_d = ln(3) (x=0, x'=1, y=0) = 1.09861 nats, exactly (white-box, 4 paths)
    """
    lines = [report.summary()] + ([report.conformance] if report.conformance else [])
    if report.mechanism is not None and report.measures is not None:
        from relations.io._tables import measures_table

        return plain(*lines, measures_table(report.mechanism, report.measures))
    return plain(*lines)


def conjecture_text(result: Any, *, cid: str | None = None, witness_file: str | None = None,
                    hint: str = "") -> str:
    """``relations conjecture``'s lines for one result: verdict, evidence, facts, proof, searches, witness.

    Parameters
    ----------
    result : ConjectureResult
    cid : str, optional
        The conjecture's id in a file.
    witness_file : str, optional
        Where its witness was written.
    hint : str, optional
        What to say when a witness was not written (the CLI: ``(--out FILE writes it)``).

    Examples
    --------
    >>> from relations.pipeline._conjecture import ConjectureResult
    >>> print(conjecture_text(ConjectureResult("eps_d <= eps_i", "local", "unrefuted", "no counterexample",
    ...                                        searched=("smallest-first",))))
    eps_d <= eps_i (local): unrefuted
      no counterexample
      searched: smallest-first
    """
    from relations.kinds import Verdict

    r = result
    name = f"{safe(cid)}: " if cid else ""
    out = f"{name}{safe(r.text)} ({r.setting}): {r.verdict}\n  {safe(r.evidence)}\n"
    if r.used:
        out += f"  facts used: {', '.join(r.used)}\n"
    if r.trace:
        out += ("  proof" + (" (narrower scope than the setting)" if r.verdict != Verdict.PROVED else "") + ":\n"
                + "".join(f"    {line}\n" for line in r.trace))
    if r.verdict == Verdict.UNREFUTED:
        out += "  searched: " + "; ".join(r.searched) + "\n"
    if r.witness is not None and r.decision is not None:
        where = f"written to {witness_file}" if witness_file else hint
        out += f"  witness (lhs = {r.decision.lhs:.6g}, rhs = {r.decision.rhs:.6g}) {where}".rstrip() + "\n"
        out += witness_lines(r.witness)
        degenerate = getattr(r, "degenerate", ())
        if degenerate:
            out += f"  the smallest witness is an edge case ({', '.join(degenerate)});\n"
            full, decision = getattr(r, "full_witness", None), getattr(r, "full_decision", None)
            if full is not None and decision is not None:
                out += (f"  smallest with full support, distinct rows and finite values (lhs = {decision.lhs:.6g}, "
                        f"rhs = {decision.rhs:.6g}):\n") + witness_lines(full)
            else:
                out += "  the smallest-first enumeration met no witness with full support and finite values\n"
    return out


def witness_lines(mech: Any, indent: str = "    ") -> str:
    """A small witness in lines: its prior and channel rows as exact fractions (a product form: its local channel).

    Examples
    --------
    >>> from relations.model import Mechanism
    >>> print(witness_lines(Mechanism.local([["1/2", "1/2"], ["1/4", "3/4"]], prior=["0", "1"])), end="")
        prior (0, 1)
        rows  (1/2, 1/2), (1/4, 3/4)
    """
    from relations.model._products import ProductChannel, ProductPrior

    def vector(v: Any) -> str:
        return "(" + ", ".join(str(q) for q in v) + ")"

    def rows_of(dist: Any) -> list[Any]:  # exact entries where known, else the floats
        exact = dist.exact
        if isinstance(exact, tuple):
            return list(exact) if exact and isinstance(exact[0], tuple) else [exact]
        return [list(r) for r in dist.array.reshape(-1, dist.array.shape[-1]).tolist()]

    prior, channel = mech.prior, mech.channel
    if isinstance(prior, ProductPrior):
        p = " x ".join(vector(rows_of(f)[0]) for f in prior.factors)
    else:
        p = vector(rows_of(prior)[0])
    if isinstance(channel, ProductChannel):
        rows = ", ".join(vector(r) for r in rows_of(channel.local)) + f" (each of {channel.records} records)"
    else:
        rows = ", ".join(vector(r) for r in rows_of(channel))
    return f"{indent}prior {safe(p)}\n{indent}rows  {safe(rows)}\n"


def notion_text(result: Any) -> str:
    """``relations measure --notion``'s table for one :class:`~relations.measures._pairs.NotionResult`
    (the witness as row indices: the result does not carry its mechanism's labels).

    Examples
    --------
    >>> from relations.measures._notions import notion_result as notion
    >>> from relations.mechanisms import randomized_response
    >>> print(notion_text(notion(randomized_response(3), "maximal_leakage")).splitlines()[-2])
    │ maximal_leakage │ 0.405465 │ ln(3/2)    │         │
    """
    from relations.checking._encoding import real_json
    from relations.io._tables import notions_table

    w = result.witness
    row = {"name": result.name, **real_json(result.value),
           "witness": None if w is None else {"x": w.x, "x_prime": w.x_prime}}
    return plain(notions_table([row]), *([result.detail] if result.detail else []))


def verdict_text(verdict: Any) -> str:
    """``relations verify``'s compact table row of one :class:`~relations.pipeline.RelationVerdict` (as the CLI
    prints it without ``--wide``)."""
    from relations.io._tables import verdicts_table

    return plain(verdicts_table([verdict], width=WIDTH, wide=False))
