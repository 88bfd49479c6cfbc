"""A table drawn as plain text, the same characters rich draws for a file or a pipe, without importing rich.

``relations measure`` prints one table; rich (its console, tables and text) costs about a quarter of
``import numpy`` to import, more than the measuring of a small mechanism.  A :class:`Grid` holds a
table's title, columns and cells; it is a rich renderable (:meth:`Grid.__rich__` builds the
``rich.table.Table`` the tool always drew), and :meth:`Grid.draw` draws it without rich where its
drawing is sure to be rich's, character for character: on a console that is not a terminal (no colours,
no styles), in UTF-8, when every column fits at its natural width, every title word fits, and every
character is one whose width rich counts as one cell (printable ASCII and a few symbols the tool writes).
Otherwise it says None and rich draws.  :func:`plain_console` is the console of ``relations measure``:
it draws grids (and one-line strings) itself and hands anything else to rich.  The tests compare both
drawings for random tables and widths.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.table import Table

__all__ = ["Grid", "ONE_CELL", "PlainOutput", "plain_console"]

#: The characters :meth:`Grid.draw` draws itself besides printable ASCII: each one cell wide to rich, none of
#: them whitespace (the tests check both against rich).
ONE_CELL = frozenset("—–…−≤≥∞×·±²³¹°µ")

#: rich's heavy-headed box (``rich.box.HEAVY_HEAD``), the default of its tables: top, header, the line under
#: the header, body, bottom (each: left, horizontal line or padding, divider, right).
_TOP, _HEAD, _HEAD_RULE, _BODY, _BOTTOM = "┏━┳┓", "┃ ┃┃", "┡━╇┩", "│ ││", "└─┴┘"


class Grid:
    """A table: a title (left-justified above it), columns (header, justify, overflow) and rows of strings.

    Parameters
    ----------
    title : str
    columns : sequence of (str, str, str)
        Each column's header, justification (``left`` or ``right``) and overflow (as rich's ``add_column``).
    rows : sequence of sequence of str

    Examples
    --------
    >>> grid = Grid("two", [("a", "left", "ellipsis"), ("b", "right", "fold")], [["1", "22"], ["333", ""]])
    >>> print(grid.draw(40), end="")
    two
    ┏━━━━━┳━━━━┓
    ┃ a   ┃  b ┃
    ┡━━━━━╇━━━━┩
    │ 1   │ 22 │
    │ 333 │    │
    └─────┴────┘
    >>> grid.draw(10) is None  # too narrow: rich collapses the columns, and draws
    True
    """

    __slots__ = ("title", "columns", "rows")

    def __init__(self, title: str, columns: Sequence[tuple[str, str, str]], rows: Sequence[Sequence[str]]) -> None:
        self.title = title
        self.columns = tuple(columns)
        self.rows = tuple(tuple(r) for r in rows)
        if any(len(r) != len(self.columns) for r in self.rows):
            raise ValueError("each row of a grid has one cell per column")

    def __rich__(self) -> Table:
        """The rich table (title left-justified, rich's defaults otherwise)."""
        from rich.table import Table

        table = Table(title=self.title, title_justify="left")
        for header, justify, overflow in self.columns:
            table.add_column(header, justify=justify, overflow=overflow)  # type: ignore[arg-type]
        for row in self.rows:
            table.add_row(*row)
        return table

    def draw(self, width: int) -> str | None:
        """The grid as rich draws it on a console of ``width`` columns that is not a terminal (its lines, each
        ended by a line break), or None where that is not sure (rich must draw).

        rich's rules, for a table whose columns all fit: each column is as wide as its widest cell plus a space
        either side; the title is wrapped at spaces to the table's width and each of its lines padded to it; a
        cell is padded to its column (``right``: its trailing whitespace dropped, then padded on the left).
        """
        cells = [c for row in ((h for h, _, _ in self.columns), *self.rows) for c in row]
        if not all(_plain(c) for c in cells) or not _plain(self.title) or width < 1:
            return None
        if any(j not in ("left", "right") for _, j, _ in self.columns):
            return None
        widths = [max(len(r[i]) for r in ([h for h, _, _ in self.columns], *self.rows)) + 2
                  for i in range(len(self.columns))]
        total = sum(widths) + len(widths) + 1  # the edges and the dividers
        if not widths or total > width:
            return None
        title = _wrapped(self.title, total)
        if title is None:
            return None

        def line(box: str, row: Sequence[str]) -> str:
            out = []
            for cell, w, (_, justify, _) in zip(row, widths, self.columns):
                out.append(" " + (cell.rstrip().rjust(w - 2) if justify == "right" else cell.ljust(w - 2)) + " ")
            return box[0] + box[2].join(out) + box[3]

        def rule(box: str) -> str:
            return box[0] + box[2].join(box[1] * w for w in widths) + box[3]

        lines = [*title, rule(_TOP), line(_HEAD, [h for h, _, _ in self.columns]), rule(_HEAD_RULE),
                 *(line(_BODY, r) for r in self.rows), rule(_BOTTOM)]
        return "\n".join(lines) + "\n"


def _plain(text: str) -> bool:
    """Whether every character of ``text`` is one :meth:`Grid.draw` measures as rich does (one cell each)."""
    return text.isascii() and text.isprintable() or all(" " <= c <= "~" or c in ONE_CELL for c in text)


def _wrapped(text: str, width: int) -> list[str] | None:
    """``text`` wrapped at spaces to ``width``, each line padded to it, as rich wraps a left-justified title
    (``rich._wrap.divide_line``: a word takes the spaces after it; a word that does not fit in what is left of
    the line starts the next); None where a word is wider than ``width`` (rich folds it) or the text holds
    whitespace other than spaces."""
    if not text or any(c.isspace() and c != " " for c in text):
        return None
    import re

    words = [(m.start(), m.group()) for m in re.finditer(r" *[^ ]+ *", text)]
    if not words or words[0][0] != 0:
        return None  # blank: rich draws no title, or a line of spaces
    n = len(text)
    breaks, offset = [], 0
    for start, word in words:
        length = len(word.rstrip())
        if length > width:
            return None
        if width - offset >= length:
            offset += len(word)
        elif offset and start:
            breaks.append(start)
            offset = len(word)
    pieces = [text[a:b] for a, b in zip([0, *breaks], [*breaks, n])]
    out = []
    for piece in pieces:
        if len(piece) > width:  # only trailing spaces go past the width: rich crops them
            piece = piece[:width]
        out.append(piece.ljust(width))
    return out


class PlainOutput:
    """The console of ``relations measure`` where rich would draw for a file or pipe: a :class:`Grid` or a
    one-line string it writes itself on standard output (as :meth:`Grid.draw`, or the line and a line break),
    anything else it hands to ``fallback()`` (the rich console that would have drawn everything).

    Parameters
    ----------
    width : int
        The console's columns.
    fallback : callable
        Makes the rich console (called once, on first need).
    """

    def __init__(self, width: int, fallback: Callable[[], Any]) -> None:
        self.width = width
        self._fallback = fallback
        self._rich: Any = None

    def print(self, obj: Any) -> None:
        """Write ``obj`` as rich would."""
        text = None
        if isinstance(obj, Grid):
            text = obj.draw(self.width)
        elif isinstance(obj, str) and obj and _plain(obj) and obj == obj.strip() and "  " not in obj \
                and len(obj) <= self.width:
            text = obj + "\n"  # fits on its line: rich writes it as it is
        if text is not None:
            sys.stdout.write(text)
            return
        if self._rich is None:
            self._rich = self._fallback()
        self._rich.print(obj)


def plain_console(fallback: Callable[[], Any], *, width: int = 140) -> PlainOutput | None:
    """A :class:`PlainOutput` for standard output where rich would not treat it as a terminal, else None.

    Its width is ``COLUMNS`` where the environment sets it, else ``width``.  None (rich decides) on a terminal,
    where the environment forces or describes one (``FORCE_COLOR``, ``TTY_COMPATIBLE``), in IPython or IDLE,
    on Windows, and where the output's encoding is not UTF-8 (rich draws ASCII boxes then).
    """
    environ = os.environ
    if sys.platform == "win32" or "FORCE_COLOR" in environ or "TTY_COMPATIBLE" in environ:
        return None
    import builtins

    if hasattr(builtins, "get_ipython") or getattr(sys.stdin, "__module__", "").startswith("idlelib"):
        return None
    out = sys.stdout
    if out is None:
        return None
    inner = getattr(out, "inner", out)  # rich writes to the stream beneath the tool's escaping wrapper
    try:
        if out.isatty():
            return None
    except (AttributeError, ValueError, OSError):
        return None
    encoding = (getattr(inner, "encoding", "utf-8") or "utf-8").lower()
    if not encoding.startswith("utf"):
        return None
    columns = environ.get("COLUMNS", "")
    if columns.isdigit():
        width = int(columns)
    return PlainOutput(width, fallback) if width >= 1 else None
