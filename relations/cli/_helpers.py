"""The helpers every command of the command line shares, and the option texts several commands show.

Nothing here imports the command-line framework (typer) or rich at import time: ``relations
measure`` runs without them (:mod:`relations.cli._measure_fast`).  A bad value is
:class:`~relations.errors.InputError`, which :func:`relations.cli.main` prints as one line (exit
status 2).
"""

from __future__ import annotations

from relations.errors import InputError
from relations.kinds import NumericMode

__all__ = ["FILE_HELP", "FORMAT_HELP", "LATEX_ENV_HELP", "Interrupted", "ReaderGone", "output_console", "did_you_mean",
           "table_console", "checked_latex_env", "fail", "MODE_HELP", "output_format", "BITS_RANGE", "REPEAT_MIN"]

#: The range of ``--bits`` (the width of an enclosure at most ``2**-bits``), declared to typer and checked by
#: the typer-free path of ``measure`` alike.
BITS_RANGE = (1, 100000)
#: The least ``--repeat`` (uses of a mechanism).
REPEAT_MIN = 1

#: The help of a mechanism file argument.
FILE_HELP = "Mechanism file: JSON or .npz (floats; see --mode); - for standard input."
#: The help of ``--format`` where a result prints as a table, JSON, LaTeX or CSV.
FORMAT_HELP = "table, json, latex (booktabs) or csv (docs/claims-and-verdicts.md)."
#: The help of ``--latex-env``.
LATEX_ENV_HELP = ("With --format latex: auto (tabular; longtable when long), tabular, table* (two-column papers: "
                  "floats across both columns) or longtable (one-column documents).")


#: The help of ``--mode`` (its choices are those of :class:`~relations.kinds.NumericMode`).
MODE_HELP = (f"Numeric mode: {', '.join(NumericMode)}. auto (the default) is the documented rule (docs/semantics.md, "
             "'Numeric mode'): exact, except an .npz channel of more than 65536 entries, which is float mode unless "
             "its 'mode' array says; exact takes floats at their binary values (at most 4096 x 4096 entries, else "
             "an error); float computes in float64.")


class Interrupted(BaseException):
    """A Ctrl-C inside a command (typer would turn its ``KeyboardInterrupt`` into exit status 130 without a
    word; :func:`relations.cli.main` says ``relations: interrupted`` and exits 130)."""


class ReaderGone(BaseException):
    """Standard output is closed, or its reader went away (``| head``): :func:`relations.cli.main` exits quietly
    with :data:`~relations.errors.EXIT_BROKEN_PIPE`."""


def output_console():
    """A rich console; 140 columns when writing to a file or pipe (tables stay readable), unless the
    environment sets ``COLUMNS``."""
    import os

    from relations.io._text import console as safe_console  # labels shown as text, never as markup

    made = safe_console()
    return made if made.is_terminal or os.environ.get("COLUMNS", "").isdigit() else safe_console(width=140)


def table_console():
    """The console ``relations measure`` prints on: :func:`output_console`'s drawing, made without rich where rich
    would write plain text (a file or pipe; :func:`relations.io._grid.plain_console`), rich's otherwise."""
    from relations.io._grid import plain_console

    return plain_console(output_console) or output_console()


def did_you_mean(value: str, choices) -> str:
    """`` (did you mean 'X'?)`` for the closest of ``choices`` to a misspelt ``value``, else ``""``.

    Examples
    --------
    >>> did_you_mean("tabel", ["table", "json"])
    " (did you mean 'table'?)"
    """
    import difflib

    close = difflib.get_close_matches(value, [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def fail(message: str) -> None:
    """Bad input: :func:`relations.cli.main` prints ``message`` as one error line on stderr, exit status 2."""
    raise InputError(message)


def output_format(fmt: str, json_out: bool) -> str:
    """The value of ``--format`` (``table``, ``json``, ``latex`` or ``csv``, case-insensitive); ``--json`` is
    ``--format json``.  A bad choice, or ``--json`` with another ``--format``, fails (exit status 2).

    Examples
    --------
    >>> output_format("table", True), output_format(" CSV", False)
    ('json', 'csv')
    """
    fmt = fmt.strip().lower()
    if fmt == "table":  # the default: the exports (imported for the others) are not needed
        return "json" if json_out else fmt
    from relations.io._exports import FORMATS

    if fmt not in FORMATS:
        fail(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}{did_you_mean(fmt, FORMATS)}")
    if json_out and fmt not in ("table", "json"):
        fail(f"--json is --format json; it cannot be combined with --format {fmt}")
    return "json" if json_out else fmt


def checked_latex_env(name: str, fmt: str) -> str:
    """``--latex-env``, checked (:func:`relations.app._measure.checked_latex_env`)."""
    from relations.app._measure import checked_latex_env as checked

    return checked(name, fmt)
