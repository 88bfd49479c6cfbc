"""``relations conjecture``: a relation the user states, decided over all mechanisms.

``relations conjecture 'eps_m <= eps_d * tanh(eps_d / 2)' --setting local`` prints the verdict
(``proved``, ``refuted``, ``unrefuted``) and its evidence; ``--file FILE`` decides every conjecture
of a JSON file ``{"conjectures": [{"id", "statement", "setting"}, ...]}``.  Exit status: 0 proved
or unrefuted, 1 some conjecture refuted, 2 bad input.
"""

from __future__ import annotations

import typer

from relations.cli._helpers import fail

__all__ = ["conjecture_cmd"]


def conjecture_cmd(
    statement: str | None = typer.Argument(None, help="LHS OP RHS, e.g. 'eps_m <= eps_d * tanh(eps_d / 2)'."),
    setting: str = typer.Option("local", "--setting", help="local or central."),
    file: str | None = typer.Option(None, "--file", help="A JSON file {\"conjectures\": [{\"id\", \"statement\", "
                                       "\"setting\"}, ...]} to decide instead of STATEMENT."),
    json_out: bool = typer.Option(False, "--json", help="Print the verdicts as JSON."),
    quick: bool = typer.Option(False, "--quick", help="A smaller search (CI)."),
    seed: int = typer.Option(2025, "--seed", help="Seed of the searches.", min=0, max=2**32 - 1),
    out: str | None = typer.Option(None, "--out", help="Write a refuting witness here (a mechanism file; with "
                                      "--file, a folder of ID.json files)."),
    force: bool = typer.Option(False, "--force", help="Replace a file relations did not write."),
) -> None:
    """Decide a relation you state over all mechanisms: proved (z3), refuted (an exact witness) or unrefuted.

    Exit status: 0 proved or unrefuted, 1 refuted, 2 bad input."""
    from relations.app._conjecture import run_conjectures

    if setting not in ("local", "central"):
        fail(f"--setting {setting!r}: one of local, central")
        return
    if (statement is None) == (file is None):
        fail("conjecture: give a STATEMENT or --file FILE (not both)")
        return
    status = run_conjectures(statement, file=file, setting=setting, quick=quick, seed=seed, out=out, force=force,
                             json_out=json_out)
    if status:
        raise typer.Exit(status)
