"""The evidence files of ``relations verify``: witnesses, SMT scripts, families and ``verdicts.json``.

Written under the write policy of :mod:`relations.io.outputs`: everything is prepared first,
every file is written atomically, ``verdicts.json`` last, and a file the tool did not write is
never replaced without ``--force``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from relations.io import EVIDENCE_DIR
from relations.io.reports import verdict_json
from relations.io.writing import dumps

if TYPE_CHECKING:
    from relations.search.verify import RelationVerdict

__all__ = ["write_conjectures", "conjectures_table", "write_evidence", "run_verify", "tally"]


def write_evidence(verdicts: Sequence[RelationVerdict], out) -> None:
    """Write the witness files, SMT scripts and ``verdicts.json`` of ``relations verify`` under ``out``.

    Each :class:`~relations.search.verify.RelationVerdict` gets ``witness_file`` / ``proof_file`` / ``family_file`` set to the
    path written, relative to the folder (``witnesses/ID.json``, with ``/`` on every system).  ``verdicts.json``
    has no timings and no absolute paths, so two runs into two folders give identical files, and a folder that
    is moved still re-checks.

    Parameters
    ----------
    verdicts : sequence of RelationVerdict
        Updated in place.
    out : str or OutputDir
        The folder (:class:`~relations.io.outputs.OutputDir`: files the tool did not write are
        refused, before anything is written, unless it was made with ``force``): ``witnesses/ID.json`` (a mechanism file), ``lemmas/ID.smt2`` (the SMT-LIB
        script, its header as comments), ``families/ID.py`` (a non-implication's family, a
        stand-alone sympy script) and ``verdicts.json``; created if missing.

    Examples
    --------
    The construction behind Zheng et al. 2025, Theorem 8, as the witness of its verdict:

    >>> import os, tempfile
    >>> from relations import CATALOGUE
    >>> from relations.mechanisms import paper_local
    >>> from relations.search.verify import RelationVerdict
    >>> thm8 = next(r for r in CATALOGUE if r.id == "zheng2025.thm8")
    >>> v = RelationVerdict(thm8, "proved", "the paper's construction", witness=paper_local("1/2"))
    >>> with tempfile.TemporaryDirectory() as out:
    ...     write_evidence([v], out)
    ...     sorted(os.listdir(out)), v.witness_file, os.path.isfile(os.path.join(out, v.witness_file))
    (['.relations-output.json', 'verdicts.json', 'witnesses'], 'witnesses/zheng2025.thm8.json', True)
    """
    from relations.io.outputs import OutputDir

    folder = out if isinstance(out, OutputDir) else OutputDir(out)
    files: list[tuple[str, str, RelationVerdict, str]] = []  # (relative path, text, verdict, attribute to set)
    for v in verdicts:
        if v.witness is not None:
            files.append((f"witnesses/{v.relation.id}.json",
                          dumps(v.witness, f"{v.verdict} evidence for {v.relation.id}: {v.relation.symbols}"),
                          v, "witness_file"))
        if v.smt is not None:
            header, script = v.smt
            files.append((f"lemmas/{v.relation.id}.smt2",
                          "".join(f"; {line}\n" for line in header.splitlines()) + script, v, "proof_file"))
        if v.family is not None:
            header, script = v.family
            files.append((f"families/{v.relation.id}.py",
                          "".join(f"# {line}\n" for line in header.splitlines()) + script, v, "family_file"))
    folder.plan([name for name, *_ in files] + ["verdicts.json"])  # refuse before writing anything
    for name, text, v, attribute in files:  # noqa: B007
        setattr(v, attribute, name)  # relative to the folder, with '/': the same wherever the folder is
    rows = [{k: x for k, x in verdict_json(v, with_witness=False).items() if k != "seconds"} for v in verdicts]
    for name, text, _, _ in files:
        folder.write_text(os.path.join(*name.split("/")), text)
    folder.write_text("verdicts.json", json.dumps(rows, indent=1) + "\n")  # last: a killed run keeps the old one
    folder.commit()


def run_verify(relations, *, out: str = EVIDENCE_DIR, quick: bool = False, seed: int = 2025, force: bool = False,
               json_out: bool = False, fmt: str = "table", console=None,
               conjectures: Sequence[tuple[str, str, str]] = (), catalogue: bool = True,
               exhaustive: Sequence[str] = ()) -> int:
    """``relations verify``: verify ``relations`` (all when empty), print, and write the evidence.

    The output folder is checked before the (long) run (:class:`~relations.io.outputs.OutputDir`);
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
        (:mod:`relations.io.exports`).
    console : rich.console.Console, optional
        Where the table goes.
    conjectures : sequence of (id, statement, setting), optional
        The user's own relations (:func:`~relations.io.conjecture_files.read_conjecture_file`), decided
        after the catalogue like ``relations conjecture`` and written with it: ``conjectures.json`` and
        ``witnesses/conjecture.ID.json``.
    catalogue : bool, optional
        False: verify only the conjectures (the catalogue's evidence in ``out`` is left as it is).
    exhaustive : sequence of str, optional
        Folders of finished bounded-exhaustive ``relations sweep`` runs
        (:func:`~relations.io.sweep_evidence.read_family_evidence`), read before the run: a family where a
        relation held is listed in its ``bounded`` evidence; a counterexample is re-checked and refutes it.

    Returns
    -------
    int
        The exit status: 0; 1 when one of ``conjectures`` is refuted; 130 when interrupted.
    """
    import sys

    from hypothesis.configuration import set_hypothesis_home_dir
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from relations.catalogue.entries import CATALOGUE
    from relations.io.outputs import InterruptLatch, OutputDir, cache_dir
    from relations.io.tables import verdicts_table
    from relations.search.verify import Effort, verify_all

    fmt = "json" if json_out else fmt
    relations = (list(relations) or list(CATALOGUE)) if catalogue else []
    families: dict[str, list] = {}
    if exhaustive:  # bad folders are refused before anything runs
        from relations.io.sweep_evidence import read_family_evidence

        for path in exhaustive:
            for rid, found in read_family_evidence(path).items():
                families.setdefault(rid, []).extend(found)
    folder = OutputDir(out, force=force)
    folder.plan((["verdicts.json"] if relations else []) + [
        f"{d}/{r.id}.{x}" for r in relations for d, x in (("witnesses", "json"), ("lemmas", "smt2"), ("families", "py"))]
        + (["conjectures.json"] + [f"witnesses/conjecture.{cid}.json" for cid, _, _ in conjectures] if conjectures
           else []))
    set_hypothesis_home_dir(os.path.join(cache_dir(), "hypothesis"))  # never .hypothesis/ in the cwd
    import z3

    z3.set_param("ctrl_c", False)  # z3 would take Ctrl-C to cancel one query and go on; here it stops the run
    effort = Effort.of(quick)
    verdicts: list = []
    decided_so_far: list = []  # the verdicts decided when a Ctrl-C stops the run (verify_all's order)
    decided: list = []
    interrupted = False
    console = console or Console()
    latch = InterruptLatch()
    try:
        with latch, Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                             TimeElapsedColumn(), console=Console(stderr=True), transient=True,
                             disable=fmt != "table" and not sys.stderr.isatty()) as progress:
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
                from relations.search.conjecture import conjecture

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
    if not interrupted:  # an interrupted run writes nothing: the previous evidence stays as it was
        if relations:
            write_evidence(verdicts, folder)
        if conjectures:
            rows = write_conjectures(decided, folder)
    if fmt != "table":
        obj = {"relations": [verdict_json(v) for v in verdicts], "complete": not interrupted, "seed": seed,
               "quick": quick, "out": out}  # the files of the evidence are named relative to "out"
        if conjectures:
            obj["conjectures"] = rows
        if fmt == "json":
            sys.stdout.write(json.dumps(obj, indent=1) + "\n")
        else:
            from relations.io.exports import export

            sys.stdout.write(export("verify", obj, fmt))
    else:
        if relations:
            console.print(verdicts_table(verdicts, width=console.width, folder=None if interrupted else out))
        if rows:
            console.print(conjectures_table(rows))
        if interrupted:
            console.print(f"[yellow]interrupted: {len(verdicts)} of {len(relations)} relations verified; nothing "
                          f"written, the evidence in {out}/ is as it was[/]")
        else:
            if relations:
                console.print(tally(verdicts), markup=False)
            console.print(f"evidence written to {out}/ (" + ("witnesses/, lemmas/, families/, verdicts.json" if relations
                                                             else "") + (", " if relations and rows else "")
                          + ("conjectures.json" if rows else "") + ")", markup=False)
    if interrupted:
        return 130
    return 1 if any(r["verdict"] == "refuted" for r in rows) else 0


def tally(verdicts) -> str:
    """One line counting the verdicts, in the order of :class:`~relations.kinds.Verdict`.

    Examples
    --------
    >>> from types import SimpleNamespace as V
    >>> tally([V(verdict="proved"), V(verdict="refuted"), V(verdict="proved")])
    '3 relations: 2 proved, 1 refuted'
    """
    from collections import Counter

    from relations.kinds import Verdict

    counts = Counter(str(v.verdict) for v in verdicts)
    parts = [f"{counts[str(k)]} {k}" for k in Verdict if counts[str(k)]]
    return f"{len(verdicts)} relation{'s' if len(verdicts) != 1 else ''}: " + ", ".join(parts)


def write_conjectures(decided, folder) -> list[dict]:
    """Write ``conjectures.json`` and each refuted conjecture's witness; return the JSON rows.

    Parameters
    ----------
    decided : sequence of (id, ConjectureResult)
    folder : OutputDir

    Returns
    -------
    list of dict
        :func:`~relations.io.conjecture_files.result_json` of each, without timings and the float
        ``best_gap`` (two runs give identical files), ``witness_file`` relative to the folder.
    """
    from relations.io.conjecture_files import result_json

    rows = []
    for cid, r in decided:
        name = None
        if r.witness is not None:
            name = f"witnesses/conjecture.{cid}.json"
            folder.write_text(os.path.join(*name.split("/")), dumps(r.witness, f"counterexample to {r.text} ({r.setting})"))
        row = result_json(r, cid=cid, witness_file=name)
        row.pop("seconds")
        row.pop("best_gap")  # a float search statistic, not evidence: its last bits vary between machines
        rows.append(row)
    folder.write_text("conjectures.json", json.dumps(rows, indent=1) + "\n")
    folder.commit()
    return rows


def conjectures_table(rows):
    """A rich table of the user's conjectures: id, statement, setting, verdict, evidence."""
    from rich.table import Table

    table = Table(title="your conjectures")
    for col in ("id", "statement", "setting", "verdict", "evidence"):
        table.add_column(col, overflow="fold")
    for r in rows:
        table.add_row(r["id"], r["statement"], r["setting"], r["verdict"], r["evidence"])
    return table
