"""The ``typer`` application of the command line and the helpers every command uses.

Command modules (``relations.cli``, ``relations.cli._audit_command``, ...) register their
commands on :data:`app`; :func:`relations.cli.main` runs it.
"""

from __future__ import annotations

import sys

import typer

__all__ = ["Interrupted", "ReaderGone", "app", "did_you_mean", "fail", "output_format", "plain_metavars", "report_interrupts"]

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None,
                  help="Exact privacy budgets of finite mechanisms and the relations between them.")


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", help="Print the version and exit.", is_eager=True,
                                 callback=lambda value: _print_version(value)),
) -> None:
    """Exact privacy budgets of finite mechanisms and the relations between them."""


def _print_version(value: bool) -> None:
    if value:
        from relations import __version__

        try:
            sys.stdout.write(f"relations {__version__}\n")
        except BrokenPipeError:
            raise ReaderGone from None
        raise typer.Exit(0)


def _console():
    """A rich console; 140 columns when writing to a file or pipe (tables stay readable), unless the
    environment sets ``COLUMNS``."""
    import os

    from relations.io._text import console as safe_console  # labels shown as text, never as markup

    console = safe_console()
    return console if console.is_terminal or os.environ.get("COLUMNS", "").isdigit() else safe_console(width=140)


def did_you_mean(value: str, choices) -> str:
    """`` (did you mean 'X'?)`` for the closest of ``choices`` to a misspelt ``value``, else ``""``."""
    import difflib

    close = difflib.get_close_matches(value, [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def fail(message: str) -> None:
    """Print one error line on stderr and exit with status 2."""
    sys.stderr.write(f"relations: error: {message}\n")
    raise typer.Exit(2)


def output_format(fmt: str, json_out: bool) -> str:
    """The value of ``--format`` (``table``, ``json``, ``latex`` or ``csv``, case-insensitive); ``--json`` is
    ``--format json``.  A bad choice, or ``--json`` with another ``--format``, fails (exit status 2)."""
    from relations.io._exports import FORMATS

    fmt = fmt.strip().lower()
    if fmt not in FORMATS:
        fail(f"--format must be one of {', '.join(FORMATS)}, got {fmt!r}{did_you_mean(fmt, FORMATS)}")
    if json_out and fmt not in ("table", "json"):
        fail(f"--json is --format json; it cannot be combined with --format {fmt}")
    return "json" if json_out else fmt


def plain_metavars(command) -> None:
    """Show each option's value as its name in capitals (``--out OUT``), not as a type tag (``<str>``).

    Applied to every command and subcommand of the built click command, once, before it runs.
    """
    for param in getattr(command, "params", []):
        if getattr(param, "metavar", None) is None and not getattr(param, "is_flag", False) and \
                getattr(param, "param_type_name", "") == "option":
            param.metavar = param.name.upper().replace("_", "-")
        elif getattr(param, "param_type_name", "") == "argument" and hasattr(param, "display_type_rich"):
            param.display_type_rich = lambda ctx: None  # the help line names the argument, without '<str>'
            param.metavar = param.metavar or param.name.upper()
    for sub in getattr(command, "commands", {}).values():
        plain_metavars(sub)


class Interrupted(BaseException):
    """A Ctrl-C inside a command (typer would turn its ``KeyboardInterrupt`` into exit status 130 without a
    word; :func:`relations.cli.main` says ``relations: interrupted`` and exits 130)."""


class ReaderGone(BaseException):
    """Standard output is closed, or its reader went away (``| head``): :func:`relations.cli.main` exits quietly
    with :data:`~relations.errors.EXIT_BROKEN_PIPE`."""


def report_interrupts(command) -> None:
    """Make a Ctrl-C in the callback of ``command`` (and of every subcommand) raise :class:`Interrupted` (and a
    broken pipe :class:`ReaderGone`).

    Applied once to the built click command, before it runs.  Commands that handle a Ctrl-C themselves
    (``verify``, ``sweep``: they say what they kept) exit through ``typer.Exit`` and are unaffected.
    """
    callback = getattr(command, "callback", None)
    if callback is not None and not getattr(callback, "_reports_interrupts", False):
        def run(*args, **kwargs):
            try:
                return callback(*args, **kwargs)
            except KeyboardInterrupt:
                raise Interrupted from None
            except BrokenPipeError:  # past click, which would make it exit status 1
                raise ReaderGone from None

        run._reports_interrupts = True  # type: ignore[attr-defined]
        command.callback = run
    for sub in getattr(command, "commands", {}).values():
        report_interrupts(sub)
