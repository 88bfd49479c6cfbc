"""``relations verify``: a verdict with re-checkable evidence for every catalogued relation (and the user's)."""

from __future__ import annotations

import typer

from relations.cli._helpers import (
    FORMAT_HELP,
    LATEX_ENV_HELP,
    checked_latex_env,
    did_you_mean,
    fail,
    output_console,
    output_format,
)
from relations.io import EVIDENCE_DIR

__all__ = ["verify"]


def verify(
    json_out: bool = typer.Option(False, "--json", help="Print the verdicts as JSON."),
    fmt: str = typer.Option("table", "--format", help=FORMAT_HELP),
    quick: bool = typer.Option(False, "--quick", help="A smaller search (CI)."),
    out: str = typer.Option(EVIDENCE_DIR, "--out", help="Folder for witness files, SMT queries and verdicts.json "
                            "(it replaces only files it wrote there)."),
    only: list[str] = typer.Option([], "--only", help="Verify only these relation ids (repeatable)."),
    seed: int = typer.Option(2025, "--seed", help="Seed of the searches (the output is deterministic).", min=0,
                             max=2**32 - 1),
    force: bool = typer.Option(False, "--force", help="Replace files in --out that relations did not write."),
    conjectures: str | None = typer.Option(None, "--conjectures", help="Your own relations, a JSON file "
                                              "{\"conjectures\": [{\"id\", \"statement\", \"setting\"}, ...]}, "
                                              "decided with the catalogue (exit 1 if one is refuted)."),
    no_catalogue: bool = typer.Option(False, "--no-catalogue", help="With --conjectures: skip the catalogue."),
    exhaustive: list[str] = typer.Option([], "--exhaustive", help="The folder of a finished bounded-exhaustive "
                                         "'relations sweep' (repeatable): its families become evidence."),
    wide: bool = typer.Option(False, "--wide", help="The full table: statements, evidence and tightness at the "
                              "terminal's width (140 columns when piped). Without it: id and statement, verdict and "
                              "a short evidence in at most 100 columns (the terminal's width when narrower)."),
    latex_env: str = typer.Option("auto", "--latex-env", help=LATEX_ENV_HELP),
) -> None:
    """The main job: a verdict with re-checkable evidence for every catalogued relation (and yours)."""
    from relations.app._verify import run_verify
    from relations.catalogue._entries import BY_ID
    from relations.io._conjecture_files import read_conjecture_file

    fmt = output_format(fmt, json_out)
    env = checked_latex_env(latex_env, fmt)
    unknown = [i for i in only if i not in BY_ID]
    if unknown:
        fail(f"--only: unknown relation id {unknown[0]!r}{did_you_mean(unknown[0], BY_ID)} (see 'relations catalogue')")
        return
    if no_catalogue and (conjectures is None or only):
        fail("--no-catalogue needs --conjectures FILE and no --only")
        return
    items = read_conjecture_file(conjectures) if conjectures is not None else []
    status = run_verify([BY_ID[i] for i in only], out=out, quick=quick, seed=seed, force=force, fmt=fmt,
                        console=output_console(), conjectures=items, catalogue=not no_catalogue, exhaustive=exhaustive,
                        wide=wide, latex_env=env)
    if status:
        raise typer.Exit(status)
