"""Running ``relations conjecture``: statements decided through the pipeline, witnesses written, verdicts
printed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from relations.kinds import Verdict

__all__ = ["run_conjectures"]


def run_conjectures(statement: str | None, *, file: str | None = None, setting: str = "local", quick: bool = False,
                    seed: int = 2025, out: str | None = None, force: bool = False, json_out: bool = False) -> int:
    """``relations conjecture``: decide ``statement`` (or every conjecture of ``file``), write refuting
    witnesses to ``out`` (a file; with ``file``, a folder of ``ID.json``), print the verdicts.

    Every statement is parsed, and the output checked, before any search runs.

    Returns
    -------
    int
        The exit status: 0 every conjecture proved or unrefuted, 1 one refuted.
    """
    from relations.checking._conjecture_eval import parse_defined
    from relations.io._conjecture_files import read_conjecture_file, result_json
    from relations.io._outputs import RESERVED, TOOL_FILES, OutputDir, check_name, check_output_file, create_file
    from relations.io._writing import dumps
    from relations.pipeline._conjecture import conjecture

    items: Sequence[tuple[str | None, str, str]]  # (id, statement, setting)
    if file is not None:
        items = read_conjecture_file(file, setting=setting)
        folder = OutputDir(out, force=force) if out else None
        if folder is not None:  # an id naming one of the tool's own files is refused before any search
            for given, _, _ in items:
                check_name(f"{given}.json", what=f"--out {out}: conjecture id {given!r}", reserved=RESERVED | TOOL_FILES)
            folder.lock()  # and a second run into the folder is refused now, not after the searches
    else:
        assert statement is not None  # one of the two (above)
        items = [(None, statement, setting)]
        folder = None
        if out:
            check_output_file(out, force=force)
    for _, text_, _ in items:
        parse_defined(text_)  # every statement checked before any search (0^0 included)
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
        elif out:  # created in one step: a file that appeared at this name meanwhile is not replaced
            files[i] = create_file(out, body.encode("utf-8"), force=force)
    if folder is not None:
        folder.commit()
    if json_out:
        objs = [result_json(r, cid=cid, witness_file=files.get(i)) for i, (cid, r) in enumerate(results)]
        sys.stdout.write(json.dumps(objs[0] if file is None else {"conjectures": objs}, indent=1) + "\n")
    else:
        from relations.io._text import conjecture_text

        for i, (cid, r) in enumerate(results):
            sys.stdout.write(conjecture_text(r, cid=cid, witness_file=files.get(i), hint="(--out FILE writes it)"))
    if any(r.verdict == Verdict.REFUTED for _, r in results):
        return 1
    return 0
