"""Running ``relations verify``: the catalogue's relations and the user's conjectures through the pipeline,
with progress, then their evidence written (:mod:`relations.io._evidence`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from relations.io import EVIDENCE_DIR
from relations.io._reports import verdict_json

__all__ = ["run_verify"]


def run_verify(relations, *, out: str = EVIDENCE_DIR, quick: bool = False, seed: int = 2025, force: bool = False,
               json_out: bool = False, fmt: str = "table", console=None,
               conjectures: Sequence[tuple[str, str, str]] = (), catalogue: bool = True,
               exhaustive: Sequence[str] = (), wide: bool = False, latex_env: str = "auto") -> int:
    """``relations verify``: verify ``relations`` (all when empty), print, and write the evidence.

    The output folder is checked, and locked, before the (long) run (:class:`~relations.io._outputs.OutputDir`);
    caches go to the user cache folder; an interrupted run (Ctrl-C) writes nothing, so the previous
    evidence stays as it was, and returns 130.

    Parameters
    ----------
    relations : sequence of Relation
        The relations to verify; empty for the whole catalogue.
    out, quick, seed, force, json_out
        As the command's options (``json_out`` is ``fmt="json"``).
    fmt : {"table", "json", "latex", "csv"}, optional
        What is printed: the rich table, or the verdicts' JSON as it is or exported
        (:mod:`relations.io._exports`).
    console : rich.console.Console, optional
        Where the table goes.
    conjectures : sequence of (id, statement, setting), optional
        The user's own relations (:func:`~relations.io._conjecture_files.read_conjecture_file`), decided
        after the catalogue like ``relations conjecture`` and written with it: ``conjectures.json`` and
        ``witnesses/conjecture.ID.json``.
    catalogue : bool, optional
        False: verify only the conjectures (the catalogue's evidence in ``out`` is left as it is).
    wide : bool, optional
        False (the default): the compact table (id and statement, verdict, a short evidence) in at most
        :data:`~relations.io._tables.VERIFY_WIDTH` (100) columns, or the console's width when narrower.
        True (``--wide``): the full table (statement, evidence, tightness) at the console's width.
    latex_env : str, optional
        With ``fmt="latex"``: the tables' environment (:data:`relations.io._exports.LATEX_ENVS`).
    exhaustive : sequence of str, optional
        Folders of finished bounded-exhaustive ``relations sweep`` runs
        (:func:`~relations.io._sweep_evidence.read_family_evidence`), read before the run: a family where a
        relation held is listed in its ``bounded`` evidence; a counterexample is re-checked and refutes it.

    Returns
    -------
    int
        The exit status: 0; 1 when one of ``conjectures`` is refuted; 130 when interrupted.
    """
    import sys

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from relations.catalogue._entries import CATALOGUE
    from relations.io._evidence import write_conjectures, write_evidence
    from relations.io._outputs import InterruptLatch, OutputDir
    from relations.io._tables import VERIFY_WIDTH, conjectures_table, tally, verdicts_table
    from relations.io._text import console as safe_console
    from relations.pipeline._verify import Effort, verify_all

    fmt = "json" if json_out else fmt
    relations = (list(relations) or list(CATALOGUE)) if catalogue else []
    families: dict[str, list] = {}
    if exhaustive:  # bad folders are refused before anything runs
        from relations.io._sweep_evidence import read_family_evidence

        for path in exhaustive:
            for rid, found in read_family_evidence(path).items():
                families.setdefault(rid, []).extend(found)
    folder = OutputDir(out, force=force, hold=True)  # locked from this check to the end of the run
    folder.plan((["verdicts.json"] if relations else []) + [
        f"{d}/{r.id}.{x}" for r in relations
        for d, x in (("witnesses", "json"), ("witnesses", "full.json"), ("lemmas", "smt2"), ("families", "py"))]
        + (["conjectures.json"] + [f"witnesses/conjecture.{cid}.json" for cid, _, _ in conjectures] if conjectures
           else []))
    import z3

    z3.set_param("ctrl_c", False)  # z3 would take Ctrl-C to cancel one query and go on; here it stops the run
    effort = Effort.of(quick)
    verdicts: list = []
    decided_so_far: list = []  # the verdicts decided when a Ctrl-C stops the run (verify_all's order)
    decided: list = []
    interrupted = False
    console = console or safe_console()  # labels as text: markup off, control characters escaped
    latch = InterruptLatch()
    progress_console = safe_console(stderr=True)
    if not wide:  # the transient progress line too
        progress_console.width = min(progress_console.width, VERIFY_WIDTH)
    try:
        with latch, Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                             TimeElapsedColumn(), console=progress_console, transient=True,
                             disable=not sys.stderr.isatty()) as progress:  # off a terminal it only wrote "\n"
            task = progress.add_task("verifying", total=len(relations) + len(conjectures))
            if relations:
                progress.update(task, description="searching the dense families (all relations at once)")

                def done(verdict) -> None:
                    decided_so_far.append(verdict)
                    latch.check()  # a Ctrl-C swallowed inside the search (e.g. in a gc callback) stops here
                    progress.advance(task)

                verdicts = verify_all(relations, effort, seed, on_done=done, families=families,
                                      on_start=lambda rel: progress.update(task, description=f"verifying {rel.id}"))
            for cid, statement, setting in conjectures:
                from relations.pipeline._conjecture import conjecture

                progress.update(task, description=f"deciding conjecture {cid}")
                decided.append((cid, conjecture(statement, setting=setting, quick=quick, seed=seed)))
                latch.check()
                progress.advance(task)
    except KeyboardInterrupt:
        interrupted = True
    interrupted = interrupted or latch.hit
    if interrupted:  # the verdicts decided so far, in the order asked (verify_all decides Coq-checked ones last)
        at = {id(rel): i for i, rel in enumerate(relations)}
        verdicts = sorted(decided_so_far, key=lambda v: at.get(id(v.relation), len(at)))
    rows = []
    try:
        if not interrupted:  # an interrupted run writes nothing: the previous evidence stays as it was
            with folder.transaction():  # the evidence and the conjectures: one transaction
                if relations:
                    write_evidence(verdicts, folder)
                if conjectures:
                    rows = write_conjectures(decided, folder)
    finally:
        folder.close()
    if fmt != "table":
        obj = {"relations": [verdict_json(v) for v in verdicts], "complete": not interrupted, "seed": seed,
               "quick": quick, "out": out}  # the files of the evidence are named relative to "out"
        if conjectures:
            obj["conjectures"] = rows
        if fmt == "json":
            sys.stdout.write(json.dumps(obj, indent=1) + "\n")
        else:
            from relations.io._exports import export

            sys.stdout.write(export("verify", obj, fmt, env=latex_env))
    else:
        width = console.width if wide else min(console.width, VERIFY_WIDTH)
        if verdicts:
            console.print(verdicts_table(verdicts, width=width, folder=None if interrupted else out, wide=wide),
                          width=width)
        if rows:
            console.print(conjectures_table(rows), width=width)
        if not interrupted:  # one line; broken before the folder only when it does not fit
            line = tally(verdicts, conjectures=rows, folder=out)
            if len(line) > width:
                line = line.replace("; evidence in ", ";\nevidence in ")
            console.print(line, markup=False, highlight=False, width=max(width, *map(len, line.splitlines())),
                          soft_wrap=True)
    if interrupted:  # one line on stderr (the command line's 'relations: interrupted', with what was kept)
        from relations._processes import say_interrupted

        so_far = f" ({tally(verdicts).split(': ', 1)[1]})" if verdicts else ""
        say_interrupted(f"relations: interrupted after {len(verdicts)} of {len(relations)} relations{so_far}; "
                        f"nothing written, the evidence in {out} is as it was")
        return 130
    return 1 if any(r["verdict"] == "refuted" for r in rows) else 0
