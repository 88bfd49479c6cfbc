"""The ``relations`` command line (SPEC section 5).

Bad input — an unreadable file, malformed JSON, wrong shapes, non-stochastic
rows, bad numbers, an unknown setting — is one line on stderr and exit status
2, never a traceback.  Heavy optional libraries (sympy, z3) are not imported
by ``measure``.
"""

from __future__ import annotations

import json
import sys
from typing import Optional

import typer

from .errors import InputError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Exact privacy budgets of finite mechanisms and the relations between them.")


@app.callback()
def _root() -> None:
    """Exact privacy budgets of finite mechanisms and the relations between them."""


def _console():
    """A rich console; 140 columns when writing to a file or pipe (tables stay readable)."""
    from rich.console import Console

    console = Console()
    return console if console.is_terminal else Console(width=140)


def fail(message: str) -> None:
    """Print one error line on stderr and exit with status 2."""
    sys.stderr.write(f"relations: error: {message}\n")
    raise typer.Exit(2)


@app.command()
def measure(
    file: str = typer.Argument(..., help="Mechanism file: JSON (exact) or .npz (float mode)."),
    json_out: bool = typer.Option(False, "--json", help="Print the SPEC JSON object."),
    bits: int = typer.Option(100, "--bits", help="Width of the eps_m enclosure at most 2**-bits.", min=1, max=100000),
) -> None:
    """The four quantities eps_i, eps_d, eps_m, sigma_min with exact forms and witnesses."""
    from .loader import load
    from .measures import measure as compute
    from .report import measures_json, measures_table

    try:
        mech = load(file)
    except InputError as exc:
        fail(str(exc))
        return
    result = compute(mech, bits)
    if json_out:
        sys.stdout.write(json.dumps(measures_json(mech, result), indent=2) + "\n")
    else:
        _console().print(measures_table(mech, result))


@app.command()
def check(
    file: str = typer.Argument(..., help="Mechanism file: JSON (exact) or .npz (float mode)."),
    claim: list[str] = typer.Option([], "--claim", help="A claimed budget NAME OP BOUND, e.g. 'eps_d<=ln(13/7)'. Repeatable."),
    json_out: bool = typer.Option(False, "--json", help="Print the SPEC JSON object."),
) -> None:
    """Every catalogued relation on this mechanism, and the user's claimed budgets.

    Exit status: 0 every --claim holds, 1 some --claim fails or is undecided, 2 bad input."""
    from .checker import check as run_check, parse_claim
    from .loader import load
    from .report import check_json, check_tables

    try:
        claims = [parse_claim(c) for c in claim]
        mech = load(file)
    except InputError as exc:
        fail(str(exc))
        return
    report = run_check(mech, claims)
    if json_out:
        sys.stdout.write(json.dumps(check_json(report), indent=2) + "\n")
    else:
        from .report import measures_table

        console = _console()
        console.print(measures_table(mech, report.values.measures))
        for table in check_tables(report):
            console.print(table)
    if any(c.holds is not True for c in report.claims):
        raise typer.Exit(1)


@app.command()
def catalogue(json_out: bool = typer.Option(False, "--json", help="Print the catalogue as JSON.")) -> None:
    """The relation catalogue: id, setting, statement in words and symbols, source."""
    from .report import catalogue_json, catalogue_table

    if json_out:
        sys.stdout.write(json.dumps(catalogue_json(), indent=2) + "\n")
    else:
        _console().print(catalogue_table())


def main(argv: Optional[list[str]] = None) -> None:
    """Entry point; usage errors exit 2 as click does."""
    app(args=argv)


if __name__ == "__main__":  # pragma: no cover
    main()
