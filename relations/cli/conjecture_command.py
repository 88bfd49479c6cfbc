"""``relations conjecture``: a relation the user states, decided over all mechanisms (registered on ``app``).

``relations conjecture 'eps_m <= eps_d * tanh(eps_d / 2)' --setting local`` prints the verdict
(``proved``, ``refuted``, ``unrefuted``) and its evidence; ``--file FILE`` decides every conjecture
of a JSON file ``{"conjectures": [{"id", "statement", "setting"}, ...]}``.  Exit status: 0 proved
or unrefuted, 1 some conjecture refuted, 2 bad input.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

import typer

from relations.cli.app import app, fail
from relations.kinds import Verdict

__all__ = ["conjecture_cmd"]


@app.command("conjecture")
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
    from relations.checking.conjectures import parse_conjecture
    from relations.io.conjecture_files import read_conjecture_file, result_json
    from relations.io.outputs import OutputDir, check_output_file
    from relations.io.writing import dumps, write_text_atomic
    from relations.search.conjecture import conjecture

    if setting not in ("local", "central"):
        fail(f"--setting {setting!r}: one of local, central")
        return
    if (statement is None) == (file is None):
        fail("conjecture: give a STATEMENT or --file FILE (not both)")
        return
    items: Sequence[tuple[str | None, str, str]]  # (id, statement, setting)
    if file is not None:
        items = read_conjecture_file(file, setting=setting)
        folder = OutputDir(out, force=force) if out else None
    else:
        assert statement is not None  # one of the two (above)
        items = [(None, statement, setting)]
        folder = None
        if out:
            check_output_file(out, force=force)
    for _, text_, _ in items:
        parse_conjecture(text_)  # every statement checked before any search
    results = [(cid, conjecture(text_, setting=where, quick=quick, seed=seed)) for cid, text_, where in items]
    files: dict[int, str] = {}
    if folder is not None:
        names = [f"{cid}.json" for cid, r in results if r.witness is not None]
        folder.plan(names)
    for i, (cid, r) in enumerate(results):
        if r.witness is None:
            continue
        body = dumps(r.witness, f"counterexample to {r.text} ({r.setting})")
        if folder is not None:
            files[i] = folder.write_text(f"{cid}.json", body)
        elif out:
            files[i] = write_text_atomic(out, body)
    if folder is not None:
        folder.commit()
    if json_out:
        objs = [result_json(r, cid=cid, witness_file=files.get(i)) for i, (cid, r) in enumerate(results)]
        sys.stdout.write(json.dumps(objs[0] if file is None else {"conjectures": objs}, indent=1) + "\n")
    else:
        for i, (cid, r) in enumerate(results):
            name = f"{cid}: " if cid else ""
            sys.stdout.write(f"{name}{r.text} ({r.setting}): {r.verdict}\n  {r.evidence}\n")
            if r.used:
                sys.stdout.write(f"  relations used: {', '.join(r.used)}\n")
            if r.verdict == Verdict.UNREFUTED:
                sys.stdout.write("  searched: " + "; ".join(r.searched) + "\n")
            if r.witness is not None:
                where = f"written to {files[i]}" if i in files else "(--out FILE writes it)"
                assert r.decision is not None  # decided with its witness
                sys.stdout.write(f"  witness (lhs = {r.decision.lhs:.6g}, rhs = {r.decision.rhs:.6g}) {where}\n")
    if any(r.verdict == Verdict.REFUTED for _, r in results):
        raise typer.Exit(1)
