"""The command line: :func:`main` runs a command, each error one line (exit status 2 for bad input).

Bad input — an unreadable file, malformed JSON, wrong shapes, non-stochastic rows, bad numbers,
an unknown setting — is one line on stderr and exit status 2, never a traceback.

Each command is a module of its own (``_measure_command``, ``_check_command``, ...; the list is
:data:`relations.cli._app.COMMANDS`), thin: it parses its options, calls the application layer and
prints; they share :mod:`relations.cli._helpers`.  Only the invoked command's module is imported, and
a common ``relations measure`` runs without typer (:mod:`relations.cli._measure_fast`); heavy optional
libraries (sympy, z3) are not imported by ``measure``.  ``relations.cli.app`` is the typer application
(imported on first use).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from relations.cli._helpers import Interrupted, ReaderGone

__all__ = ["main"]


def __getattr__(name: str) -> Any:
    """``app``: the typer application (:mod:`relations.cli._app`), imported on first use."""
    if name == "app":
        from relations.cli._app import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> None:
    """Entry point.  Every error is one line on stderr: a usage error (a misspelt command or option, with
    click's suggestion, or a bad option value) exits 2; a :class:`~relations.errors.RelationsError`
    anywhere in a command exits with the status of :func:`relations.errors.exit_status`, handled here once
    for every command; Ctrl-C exits 130.

    Everything it writes goes through :class:`~relations.io._text.TerminalText`: control characters in
    labels, file names and messages are escaped, and characters the terminal's encoding lacks are
    backslash escapes.  A closed standard output, or one whose reader went away (``| head``), ends the
    command quietly with status :data:`~relations.errors.EXIT_BROKEN_PIPE` (141).

    Examples
    --------
    >>> try:
    ...     main(["measure", "no-such-file.json"])  # one line on stderr
    ... except SystemExit as exc:
    ...     print(exc.code)
    2
    """
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _terminal(sys.stdout), _terminal(sys.stderr, errors=True)  # text as text, any encoding
    try:
        try:
            _run(argv)
        except SystemExit:
            if type(sys.stdout).__name__ == "PacifyFlushWrapper":  # click met a broken pipe (e.g. in --help)
                raise ReaderGone from None
            raise
        finally:
            _flush()  # a reader that went away, or a full disk, shows here, not in Python's final flush
    except (BrokenPipeError, ReaderGone):  # the reader went away (e.g. '| head'): nothing to say, SIGPIPE's status
        from relations.errors import exit_status

        _quiet(streams[0])
        sys.exit(exit_status(BrokenPipeError()))
    finally:
        sys.stdout, sys.stderr = streams


def _terminal(stream, *, errors: bool = False):
    """``stream`` wrapped in :class:`~relations.io._text.TerminalText` (control characters escaped, characters
    its encoding lacks as backslash escapes).  A closed standard output (None) is one whose every write is a
    broken pipe; a closed standard error (``errors``) takes what is written and drops it (the exit status
    still tells)."""
    import io

    from relations.io._text import TerminalText

    if stream is None:
        class Closed(io.TextIOBase):
            def write(self, s: str) -> int:
                if errors:
                    return len(s)
                raise BrokenPipeError(32, "standard output is closed")

        return TerminalText(Closed())
    try:
        stream.reconfigure(errors="backslashreplace")  # rich writes to the stream itself
    except (AttributeError, ValueError, OSError):
        pass
    return TerminalText(stream)


def _flush() -> None:
    """Flush standard output: a broken pipe is for :func:`main`; another failure (a full disk) is one line, exit 2."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        sys.stderr.write(f"relations: error: standard output: {exc.strerror or exc}\n")
        _quiet(sys.stdout)
        sys.exit(2)


def _quiet(stream) -> None:
    """Point the file descriptor of a broken ``stream`` at ``/dev/null``: Python's final flush stays silent."""
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (AttributeError, ValueError, OSError):
        pass


def _run(argv: list[str] | None) -> None:
    """:func:`main` within the wrapped streams: a common ``relations measure`` without typer
    (:mod:`relations.cli._measure_fast`), anything else through typer; the errors of both said alike."""
    from relations.errors import EXIT_BAD_INPUT, EXIT_INTERRUPTED, RelationsError, exit_status

    args = sys.argv[1:] if argv is None else list(argv)
    try:
        if args[:1] == ["measure"]:
            from relations.cli._measure_fast import run_fast

            if run_fast(args[1:]):
                sys.exit(0)
        _run_typer(args)
    except (Interrupted, KeyboardInterrupt):
        from relations._processes import say_interrupted

        say_interrupted()
        sys.exit(EXIT_INTERRUPTED)
    except RelationsError as exc:
        sys.stderr.write(f"relations: error: {exc}\n")
        sys.exit(exit_status(exc))
    except MemoryError:  # anywhere in reading or computing: one line, what was running and the limit
        from relations._json import memory_error

        what = " ".join(args[:1])
        sys.stderr.write(f"relations: error: {memory_error(f'relations {what}'.strip())}\n")
        sys.exit(EXIT_BAD_INPUT)
    except BrokenPipeError:
        raise  # main's
    except OSError as exc:  # e.g. stdout is /dev/full, or a disk fills up while writing
        name = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        sys.stderr.write(f"relations: error:{name} {exc.strerror or exc}\n")
        sys.exit(EXIT_BAD_INPUT)


def _run_typer(args: list[str]) -> None:
    """The command ``args`` run by typer (click): its usage errors one line, exit status 2."""
    import typer

    if TYPE_CHECKING:  # one of the two below (their classes differ to mypy)
        from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError
    else:
        try:  # recent typer vendors click as typer._click
            from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError
        except ImportError:  # pragma: no cover
            from click.exceptions import ClickException, NoArgsIsHelpError, UsageError

    from relations.cli._app import command_line
    from relations.errors import EXIT_BAD_INPUT

    try:
        code = command_line(args).main(args=args, standalone_mode=False)  # returns typer.Exit's code, not exiting
        sys.exit(code if isinstance(code, int) else 0)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except NoArgsIsHelpError as exc:
        exc.show()
        sys.exit(EXIT_BAD_INPUT)
    except UsageError as exc:
        path = exc.ctx.command_path if exc.ctx is not None else "relations"
        sys.stderr.write(f"relations: error: {' '.join(exc.format_message().split())} (see '{path} --help')\n")
        sys.exit(EXIT_BAD_INPUT)
    except ClickException as exc:
        sys.stderr.write(f"relations: error: {' '.join(exc.format_message().split())}\n")
        sys.exit(EXIT_BAD_INPUT)
    except typer.Abort:
        raise Interrupted from None


if __name__ == "__main__":  # pragma: no cover
    main()
