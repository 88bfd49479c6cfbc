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

__all__ = ["WIDTH", "plain", "safe", "console", "TerminalText", "measures_text", "report_text", "audit_text",
           "conjecture_text", "notion_text", "verdict_text"]

#: Characters :func:`safe` escapes besides the C0 and C1 controls and DEL: the bidirectional embeddings,
#: overrides and isolates (U+202A-202E, U+2066-2069) and marks (U+200E, U+200F, U+061C), which reorder
#: what a terminal shows.
BIDI = frozenset([*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C])

_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(ch: str) -> str:
    o = ord(ch)
    return _NAMED.get(ch) or (f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}")


def _unsafe(ch: str) -> bool:
    o = ord(ch)
    return o < 0x20 or 0x7F <= o < 0xA0 or o in BIDI or 0xD800 <= o < 0xE000  # lone surrogates too


def safe(text: object, *, newlines: bool = False, tabs: bool = False) -> str:
    """``text`` fit for a terminal: control characters, DEL, the C1 controls, bidirectional overrides and lone
    surrogates escaped as ``\\x1b``, ``\\u202e``, ``\\n`` (the rest, rich markup included, unchanged: the
    tool's consoles interpret no markup).

    Parameters
    ----------
    text : object
        A label, a file name, a claim, a message (``str()`` of anything else).
    newlines, tabs : bool, optional
        Keep line breaks (tabs) as they are (a multi-line message); by default they are escaped too, so that a
        label stays on its line.

    Returns
    -------
    str

    Examples
    --------
    >>> print(safe("\\x1b]0;owned\\x07[bold]A\\u202e"))
    \\x1b]0;owned\\x07[bold]A\\u202e
    >>> safe("two\\nlines"), safe("two\\nlines", newlines=True)
    ('two\\\\nlines', 'two\\nlines')
    >>> safe("café ≤ ∞")
    'café ≤ ∞'
    """
    s = str(text)
    if s.isprintable() and not any(ord(c) in BIDI for c in s):  # the common case: nothing to escape
        return s
    return "".join(_escape(c) if _unsafe(c) and not ((newlines and c == "\n") or (tabs and c == "\t")) else c
                   for c in s)


_CONSOLE_CLASS: Any = None


def _console_class() -> Any:
    """The tool's rich console class (built on first use: rich is imported only when something is drawn)."""
    global _CONSOLE_CLASS
    if _CONSOLE_CLASS is None:
        from rich.console import Console
        from rich.segment import Segment

        class SafeConsole(Console):
            """A rich console that shows every string as text: no markup, no emoji, control characters
            escaped (before measuring, so tables keep their widths, and again as the last step of writing);
            a closed reader is a ``BrokenPipeError`` for :func:`relations.cli.main` to handle."""

            def render_str(self, text: str, **kwargs: Any) -> Any:
                return super().render_str(safe(text, newlines=True, tabs=True), **kwargs)

            def _render_buffer(self, buffer: Any) -> str:  # the last guard: rich's own controls pass
                return super()._render_buffer(
                    [s if s.control else Segment(safe(s.text, newlines=True, tabs=True), s.style, s.control)
                     for s in buffer])

            @property
            def file(self) -> Any:
                out = Console.file.fget(self)  # type: ignore[attr-defined]
                return out.inner if isinstance(out, TerminalText) else out  # rich's own escapes pass

            @file.setter
            def file(self, new_file: Any) -> None:
                Console.file.fset(self, new_file)  # type: ignore[attr-defined]

            def on_broken_pipe(self) -> None:
                self.quiet = True
                raise BrokenPipeError(32, "the reader closed the pipe")

        _CONSOLE_CLASS = SafeConsole
    return _CONSOLE_CLASS


def console(**kwargs: Any) -> Any:
    """A rich ``Console`` of the tool: markup, emoji and highlighting off, every string through :func:`safe`.

    Parameters
    ----------
    **kwargs
        As for ``rich.console.Console`` (``stderr=True``, ``width=140``, ``file=...``).

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> console(file=out, width=40).print("[bold]A[/] \\x1b[2J")
    >>> out.getvalue()
    '[bold]A[/] \\\\x1b[2J\\n'
    """
    kwargs = {"markup": False, "emoji": False, "highlight": False, **kwargs}
    return _console_class()(**kwargs)


class TerminalText(io.TextIOBase):
    """A text stream that writes to ``inner`` with control characters escaped (:func:`safe`, line breaks and
    tabs kept), and the characters its encoding cannot hold as backslash escapes.

    The command line writes its standard output and error through it: error lines, progress lines, the
    text of a conjecture or an audit, and whatever code under audit prints, are shown as text.

    Examples
    --------
    >>> out = io.StringIO()
    >>> TerminalText(out).write("a\\x1b[2Jb\\n")
    7
    >>> out.getvalue()
    'a\\\\x1b[2Jb\\n'
    """

    def __init__(self, inner: Any) -> None:
        super().__init__()
        self.inner = inner

    def write(self, s: str) -> int:
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        text = safe(s, newlines=True, tabs=True)
        encoding = getattr(self.inner, "encoding", None) or "utf-8"
        if not encoding.lower().replace("-", "").startswith("utf"):
            text = text.encode(encoding, "backslashreplace").decode(encoding)
        self.inner.write(text)
        return len(s)

    def flush(self) -> None:
        self.inner.flush()

    def isatty(self) -> bool:
        return bool(getattr(self.inner, "isatty", lambda: False)())

    def fileno(self) -> int:
        return self.inner.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.inner, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return "backslashreplace"

    def __getattr__(self, name: str) -> Any:  # buffer, mode, name, ...: the inner stream's
        return getattr(self.inner, name)

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
    [[' eps_d     ', '    0.619039208406 ']]
    """
    from relations.io._tables import measures_table

    if measures.mechanism is None:
        return repr(measures)
    return plain(measures_table(measures.mechanism, measures))


def report_text(report: Any) -> str:
    """``relations check``'s tables: the measures, the relations that apply (a line for the rest), the claims.

    Examples
    --------
    >>> from relations import check
    >>> from relations.mechanisms import paper_example
    >>> text = report_text(check(paper_example(), ["eps_d <= ln(2)"]))
    >>> "relations for the local setting" in text, "claims" in text, max(map(len, text.splitlines())) <= 100
    (True, True, True)
    """
    from relations.io._tables import check_tables, measures_table

    mech = report.values.mechanism
    return plain(measures_table(mech, report.values.measures), *check_tables(report, width=WIDTH))


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
    return out


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
