"""``relations measure`` without typer: the common forms of the command parsed here, run at once.

Starting typer (and through it click and rich) costs about as much as importing numpy; a 2 x 2
``relations measure`` should cost little more than numpy and python-flint, which it needs.
:func:`run_fast` parses the arguments after ``measure`` when they are plainly one file and options of
:data:`OPTIONS` with well-formed values, and runs :func:`relations.app._measure.run_measure` as the
typer command (:mod:`relations.cli._measure_command`) would.  Anything else — ``--help``, a misspelt
option, a missing or bad value, a second file, ``--tradeoff`` or ``--plot`` — is left to typer, so
the help, the usage errors and their wording stay the framework's.  The table of options is checked
against the typer command's parameters by the tests.
"""

from __future__ import annotations

from typing import Any

__all__ = ["OPTIONS", "run_fast"]

#: The options the fast path takes: each option's parameter name and kind (a flag, one value, a repeatable
#: value), as the typer command declares them.  Those it leaves to typer: ``--tradeoff``, ``--plot``, ``--force``.
OPTIONS: dict[str, tuple[str, str]] = {
    "--json": ("json_out", "flag"), "--format": ("fmt", "value"), "--bits": ("bits", "int"),
    "--notion": ("notion", "list"), "--mode": ("mode", "mode"), "--latex-env": ("latex_env", "value"),
    "--repeat": ("repeat", "int"),
}



def parse(args: list[str]) -> dict[str, Any] | None:
    """The options of ``relations measure ARGS`` when the fast path takes them, else None (typer's turn).

    Examples
    --------
    >>> parse(["m.json", "--json", "--bits=30"])["bits"]
    30
    >>> parse(["m.json", "--help"]) is None, parse(["m.json", "--bits", "0"]) is None
    (True, True)
    """
    from relations.cli._helpers import BITS_RANGE, REPEAT_MIN
    from relations.kinds import NumericMode

    got: dict[str, Any] = {"json_out": False, "fmt": "table", "bits": None, "notion": [], "mode": NumericMode.AUTO,
                           "latex_env": "auto", "repeat": None}
    seen: set[str] = set()
    files: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "-" or not arg.startswith("-"):
            files.append(arg)
            continue
        name, eq, value = arg.partition("=")
        if name not in OPTIONS:
            return None  # --help, --, a misspelt or abbreviated option: typer says what it says
        key, kind = OPTIONS[name]
        if kind == "flag":
            if eq:
                return None
            got[key] = True
            continue
        if not eq:
            if i >= len(args):
                return None
            value = args[i]
            i += 1
        if value.startswith("-") and value != "-":
            return None  # an option where a value should be: typer's rules
        if kind != "list" and key in seen:
            return None  # given twice: typer's rule (the last wins), left to it
        seen.add(key)
        if kind == "list":
            got[key].append(value)
        elif kind == "int":
            number = value.strip()
            if not (number.isascii() and number.isdigit() and len(number) <= 9):
                return None
            low, high = {"bits": BITS_RANGE, "repeat": (REPEAT_MIN, None)}[key]
            if int(number) < low or (high is not None and int(number) > high):
                return None
            got[key] = int(number)
        elif kind == "mode":
            mode = next((m for m in NumericMode if m.value == value.lower()), None)
            if mode is None:
                return None
            got[key] = mode
        else:
            got[key] = value
    if len(files) != 1:
        return None
    got["file"] = files[0]
    return got


def run_fast(args: list[str]) -> bool:
    """Run ``relations measure ARGS`` when :func:`parse` takes them (True), else nothing (False)."""
    options = parse(args)
    if options is None:
        return False
    from relations.app._measure import run_measure
    from relations.cli._helpers import output_format, table_console

    fmt = output_format(options["fmt"], options["json_out"])
    run_measure(options["file"], console=table_console, fmt=fmt, bits=options["bits"], notion=options["notion"],
                mode=options["mode"], latex_env=options["latex_env"], repeat=options["repeat"])
    from relations._processes import leaves_nothing_behind

    leaves_nothing_behind()  # the process may end without the interpreter's shutdown
    return True
