"""The ``typer`` application of the command line: its root, its commands (imported only when needed) and
the adjustments made to the built command before it runs.

:data:`COMMANDS` is the one list of the commands: each name, in the order ``relations --help`` lists
them, and the module and function that define it (one module per command, ``_NAME_command``).
:func:`command_line` registers on :data:`app` the invoked command alone (every command for the
top-level help or a misspelt name), so that a command imports only what it uses.
"""

from __future__ import annotations

import importlib
import sys

import typer

from relations.cli._helpers import Interrupted, ReaderGone, did_you_mean, fail, output_format  # noqa: F401

__all__ = ["COMMANDS", "app", "command_line", "plain_metavars", "report_interrupts"]

#: Each command of ``relations``, in the order of the help's listing: the module and the function defining it.
COMMANDS: dict[str, tuple[str, str]] = {
    name: (f"relations.cli._{module}_command", function) for name, module, function in (
        ("measure", "measure", "measure"), ("check", "check", "check"), ("catalogue", "catalogue", "catalogue"),
        ("verify", "verify", "verify"), ("witness", "witness", "witness"),
        ("mechanisms", "mechanisms", "mechanisms"), ("utility", "utility", "utility"),
        ("optimize", "optimize", "optimize"), ("symbolic", "symbolic", "symbolic"),
        ("figures", "figures", "figures"), ("audit", "audit", "audit"),
        ("conjecture", "conjecture", "conjecture_cmd"), ("demo", "demo", "demo"), ("sweep", "sweep", "sweep"))}

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


def command_line(args: list[str]):
    """The click command that runs ``args``: :data:`app` with the command ``args`` invokes registered (every
    command when ``args`` names none of :data:`COMMANDS`: the top-level help, a misspelt command), each
    command's module imported only then; option values shown by name, a Ctrl-C reported."""
    name = next((a for a in args if not a.startswith("-")), None)  # the root has options without values only
    register(None if name not in COMMANDS else name)
    command = typer.main.get_command(app)
    plain_metavars(command)
    report_interrupts(command)
    return command


def register(name: str | None) -> None:
    """Register the command ``name`` on :data:`app` (every command when None), once, in :data:`COMMANDS` order."""
    have = {info.callback for info in app.registered_commands}
    for each in COMMANDS if name is None else (name,):
        module, function = COMMANDS[each]
        callback = getattr(importlib.import_module(module), function)
        if callback not in have:
            app.command(each)(callback)
    order = list(COMMANDS)  # commands registered by a test (or a plug-in) come after these
    app.registered_commands.sort(key=lambda info: order.index(info.name) if info.name in order else len(order))


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
