"""The evidence files of ``relations verify``: witnesses, SMT scripts, families and ``verdicts.json``.

Written under the write policy of :mod:`relations.io._outputs`: everything is prepared first,
every file is written atomically, ``verdicts.json`` last, and a file the tool did not write is
never replaced without ``--force``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from relations.io._reports import verdict_json
from relations.io._writing import dumps

if TYPE_CHECKING:
    from relations.pipeline._verify import RelationVerdict

__all__ = ["write_conjectures", "write_evidence"]


def write_evidence(verdicts: Sequence[RelationVerdict], out) -> None:
    """Write the witness files, SMT scripts and ``verdicts.json`` of ``relations verify`` under ``out``.

    Each :class:`~relations.pipeline._verify.RelationVerdict` gets ``witness_file`` / ``proof_file`` / ``family_file`` set to the
    path written, relative to the folder (``witnesses/ID.json``, with ``/`` on every system); a degenerate
    witness's full-support one, ``full_witness_file`` (``witnesses/ID.full.json``).  ``verdicts.json``
    has no timings and no absolute paths, so two runs into two folders give identical files, and a folder that
    is moved still re-checks.

    Parameters
    ----------
    verdicts : sequence of RelationVerdict
        Updated in place.
    out : str or OutputDir
        The folder (:class:`~relations.io._outputs.OutputDir`: files the tool did not write are
        refused, before anything is written, unless it was made with ``force``): ``witnesses/ID.json`` (a mechanism file;
        ``witnesses/ID.full.json`` beside it for a degenerate one's full-support witness), ``lemmas/ID.smt2`` (the SMT-LIB
        script, its header as comments), ``families/ID.py`` (a non-implication's family, a
        stand-alone sympy script) and ``verdicts.json``; created if missing.

    Examples
    --------
    The construction behind Zheng et al. 2025, Theorem 8, as the witness of its verdict:

    >>> import os, tempfile
    >>> from relations import CATALOGUE
    >>> from relations.mechanisms import paper_local
    >>> from relations.pipeline._verify import RelationVerdict
    >>> thm8 = next(r for r in CATALOGUE if r.id == "zheng2025.thm8")
    >>> v = RelationVerdict(thm8, "proved", "the paper's construction", witness=paper_local("1/2"))
    >>> with tempfile.TemporaryDirectory() as out:
    ...     write_evidence([v], out)
    ...     sorted(os.listdir(out)), v.witness_file, os.path.isfile(os.path.join(out, v.witness_file))
    (['.relations-output.json', 'verdicts.json', 'witnesses'], 'witnesses/zheng2025.thm8.json', True)
    """
    from relations.io._outputs import OutputDir

    folder = out if isinstance(out, OutputDir) else OutputDir(out)
    files: list[tuple[str, str, RelationVerdict, str]] = []  # (relative path, text, verdict, attribute to set)
    for v in verdicts:
        if v.witness is not None:
            files.append((f"witnesses/{v.relation.id}.json",
                          dumps(v.witness, f"{v.verdict} evidence for {v.relation.id}: {v.relation.symbols}"),
                          v, "witness_file"))
        full = getattr(v, "full_witness", None)
        if full is not None:
            files.append((f"witnesses/{v.relation.id}.full.json",
                          dumps(full, f"{v.verdict} evidence for {v.relation.id}: {v.relation.symbols} (the "
                                f"smallest witness found of full support, distinct rows and finite values)"),
                          v, "full_witness_file"))
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


def write_conjectures(decided, folder) -> list[dict]:
    """Write ``conjectures.json`` and each refuted conjecture's witness; return the JSON rows.

    Parameters
    ----------
    decided : sequence of (id, ConjectureResult)
    folder : OutputDir

    Returns
    -------
    list of dict
        :func:`~relations.io._conjecture_files.result_json` of each, without timings and the float
        ``best_gap`` (two runs give identical files), ``witness_file`` relative to the folder.
    """
    from relations.io._conjecture_files import result_json

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
