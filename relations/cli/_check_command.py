"""``relations check``: every catalogued relation on a mechanism, and the user's claimed budgets."""

from __future__ import annotations

import json
import sys

import typer

from relations.cli._helpers import (
    FILE_HELP,
    FORMAT_HELP,
    LATEX_ENV_HELP,
    MODE_HELP,
    checked_latex_env,
    output_console,
    output_format,
)
from relations.errors import InputError
from relations.kinds import NumericMode

__all__ = ["check"]


def _check_tables(table: list[str], fmt: str) -> tuple[str, ...] | None:
    """``check --table`` values, checked: bad input unless they name tables and the format is LaTeX."""
    from relations.io._exports import CHECK_TABLES

    if not table:
        return None
    if fmt != "latex":
        raise InputError("--table needs --format latex")
    bad = [t for t in table if t not in CHECK_TABLES]
    if bad:
        raise InputError(f"--table {bad[0]!r}: one of {', '.join(CHECK_TABLES)}")
    return tuple(dict.fromkeys(table))


def _only_relations(only: list[str]):
    """The catalogue relations and composition theorems ``check --only`` names (None: all); an unknown id is bad
    input, with a suggestion."""
    if not only:
        return None
    import difflib

    from relations.catalogue import CATALOGUE, Relation
    from relations.catalogue._composition import COMPOSITION_RELATIONS, CompositionRelation

    known: list[Relation | CompositionRelation] = [*CATALOGUE, *COMPOSITION_RELATIONS]
    ids = [r.id for r in known]
    for rid in only:
        if rid not in ids:
            near = difflib.get_close_matches(rid, ids, n=1)
            raise InputError(f"--only {rid!r}: no such relation" + (f" (did you mean {near[0]!r}?)" if near else
                                                                    "; see 'relations catalogue'"))
    return [r for r in known if r.id in set(only)]


def check(
    file: str = typer.Argument(..., help=FILE_HELP),
    claim: list[str] = typer.Option([], "--claim", help="A claimed budget NAME OP BOUND, e.g. 'eps_d<=ln(13/7)'. Repeatable."),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON (docs/claims-and-verdicts.md)."),
    fmt: str = typer.Option("table", "--format", help=FORMAT_HELP),
    mode: NumericMode = typer.Option(NumericMode.AUTO, "--mode", case_sensitive=False, show_default=False,
                                     help=MODE_HELP),
    table: list[str] = typer.Option([], "--table", help="With --format latex: only these tables, budgets, relations, "
                                    "composition or claims (repeatable; default all)."),
    only: list[str] = typer.Option([], "--only", help="Only this relation (an id of 'relations catalogue', or a "
                                   "composition theorem's on a 'repeat' file; repeatable)."),
    applicable_only: bool = typer.Option(False, "--applicable-only", help="Leave out the relations that do not "
                                         "apply to this mechanism's setting."),
    latex_env: str = typer.Option("auto", "--latex-env", help=LATEX_ENV_HELP),
) -> None:
    """Every catalogued relation on this mechanism, and the user's claimed budgets.

    Exit status: 0 every --claim holds, 1 some --claim fails or is undecided, 2 bad input."""
    from relations.checking._checker import check as run_check
    from relations.checking._claims import parse_claim
    from relations.io import check_json
    from relations.io._reading import load, load_composition, read_as_composition
    from relations.io._tables import check_tables

    fmt = output_format(fmt, json_out)
    claims = [parse_claim(c) for c in claim]
    chosen = _check_tables(table, fmt)
    env = checked_latex_env(latex_env, fmt)
    relations = _only_relations(only)
    if read_as_composition(file):  # a "repeat" or "parts" file: the composition theorems too
        report = run_check(load_composition(file, mode=mode), claims, relations=relations)
    else:
        report = run_check(load(file, mode=mode), claims, relations=relations)
    mech = report.values.mechanism
    if applicable_only:
        import dataclasses

        report = dataclasses.replace(report, outcomes=tuple(o for o in report.outcomes
                                                            if o.status != "not applicable"))
    if fmt == "json":
        sys.stdout.write(json.dumps(check_json(report), indent=2) + "\n")
    elif fmt != "table":
        import shlex

        from relations.io._exports import export

        command = shlex.join(["relations", *sys.argv[1:]]) if sys.argv[1:2] == ["check"] else None
        sys.stdout.write(export("check", check_json(report), fmt, source=file, command=command, tables=chosen,
                                env=env))
    else:
        from relations.io._tables import measures_table

        console = output_console()
        if report.uses is not None and not report.uses.counts_fit():
            console.print(f"{report.uses.describe()}: beyond the counts of each output; the measures of one use, "
                          "claims and composition theorems on all uses (composition rules)")
        console.print(measures_table(mech, report.values.measures))
        for part in check_tables(report, width=console.width):
            console.print(part)
    if any(c.holds is not True for c in report.claims):
        raise typer.Exit(1)
