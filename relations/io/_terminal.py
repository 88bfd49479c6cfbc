"""Text for a terminal: user-supplied strings shown as text, never obeyed (issue 32).

Labels, file names, claims and a target's output come from outside the tool. :func:`safe` escapes
their control characters and bidirectional overrides visibly (``\\x1b``, ``\\u202e``); every rich
console of the tool is a :func:`console` (markup, emoji and highlighting off, every string escaped);
the command line writes standard output and error through :class:`TerminalText`
(``docs/claims-and-verdicts.md``, "Hostile text").  :mod:`relations.io._text` re-exports them.
"""

from __future__ import annotations

import io
from typing import Any

__all__ = ["BIDI", "safe", "console", "TerminalText"]

#: Characters :func:`safe` escapes besides the C0 and C1 controls and DEL: the bidirectional embeddings,
#: overrides and isolates (U+202A-202E, U+2066-2069) and marks (U+200E, U+200F, U+061C), which reorder
#: what a terminal shows.
BIDI = frozenset([*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C])

_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(ch: str) -> str:
    o = ord(ch)
    return _NAMED.get(ch) or (f"\\x{o:02x}" if o < 0x20 else f"\\u{o:04x}")


def _unsafe(ch: str) -> bool:
    o = ord(ch)
    return o < 0x20 or 0x7F <= o < 0xA0 or o in BIDI or 0xD800 <= o < 0xE000  # lone surrogates too


def safe(text: object, *, newlines: bool = False, tabs: bool = False) -> str:
    """``text`` fit for a terminal: control characters, DEL, the C1 controls, bidirectional overrides and lone
    surrogates escaped as ``\\x1b``, ``\\u202e``, ``\\n`` (the rest, rich markup included, unchanged: the
    tool's consoles interpret no markup).

    C0 controls are ``\\xNN`` (``\\n``, ``\\t``, ``\\r`` by name), the others ``\\uNNNN``, an escape that a
    JSON string also reads back (any text the command line writes, JSON included, goes through here).

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
    if s.isprintable():  # the common case: nothing to escape (controls, bidi controls and surrogates are not)
        return s
    kept = s.replace("\n", "") if newlines else s
    kept = kept.replace("\t", "") if tabs else kept
    if kept is not s and kept.isprintable():  # only line breaks (tabs) to keep, as in a table's lines
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
                def kept(s: Any) -> Any:
                    if s.control:
                        return s
                    text = safe(s.text, newlines=True, tabs=True)
                    return s if text is s.text else Segment(text, s.style, s.control)

                return super()._render_buffer([kept(s) for s in buffer])

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
    """A text stream that writes to ``inner`` with control characters escaped (:func:`safe`; line breaks, tabs
    and CRLF line ends kept), and the characters its encoding cannot hold as backslash escapes.

    The command line writes its standard output and error through it: error lines, progress lines, the
    text of a conjecture or an audit, and whatever code under audit prints, are shown as text.

    Examples
    --------
    >>> out = io.StringIO()
    >>> TerminalText(out).write("a\\x1b[2Jb\\n")
    7
    >>> out.getvalue()
    'a\\\\x1b[2Jb\\n'
    >>> _ = TerminalText(out).write("csv,row\\r\\nlone\\rcarriage\\r\\n")  # CRLF line ends kept, a lone CR escaped
    >>> out.getvalue()[10:]
    'csv,row\\r\\nlone\\\\rcarriage\\r\\n'
    """

    def __init__(self, inner: Any) -> None:
        super().__init__()
        self.inner = inner

    def write(self, s: str) -> int:
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        text = "\r\n".join(safe(part, newlines=True, tabs=True) for part in s.split("\r\n"))  # CSV's line ends
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
