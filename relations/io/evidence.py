"""The evidence files of ``relations verify``: witnesses, SMT scripts and ``verdicts.json``.

Every file is written atomically (:func:`~relations.io.writing.write_text_atomic`), so an
interrupted run leaves each file either as it was or complete.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Sequence

from relations.io.reports import verdict_json
from relations.io.writing import dumps, write_text_atomic

if TYPE_CHECKING:
    from relations.search.verify import Verdict

__all__ = ["write_evidence"]


def write_evidence(verdicts: Sequence[Verdict], out: str) -> None:
    """Write the witness files, SMT scripts and ``verdicts.json`` of ``relations verify`` under ``out``.

    Each :class:`~relations.search.verify.Verdict` gets ``witness_file`` / ``proof_file`` / ``family_file`` set to the
    path written.  ``verdicts.json`` has no timings, so two runs give identical files.

    Parameters
    ----------
    verdicts : sequence of Verdict
        Updated in place.
    out : str
        The folder: ``witnesses/ID.json`` (a mechanism file), ``lemmas/ID.smt2`` (the SMT-LIB
        script, its header as comments), ``families/ID.py`` (a non-implication's family, a
        stand-alone sympy script) and ``verdicts.json``; created if missing.

    Examples
    --------
    The construction behind Zheng et al. 2025, Theorem 8, as the witness of its verdict:

    >>> import os, tempfile
    >>> from relations import CATALOGUE
    >>> from relations.mechanisms import paper_local
    >>> from relations.search.verify import Verdict
    >>> thm8 = next(r for r in CATALOGUE if r.id == "zheng2025.thm8")
    >>> v = Verdict(thm8, "proved", "the paper's construction", witness=paper_local("1/2"))
    >>> with tempfile.TemporaryDirectory() as out:
    ...     write_evidence([v], out)
    ...     sorted(os.listdir(out)), os.listdir(os.path.dirname(v.witness_file))
    (['lemmas', 'verdicts.json', 'witnesses'], ['zheng2025.thm8.json'])
    """
    os.makedirs(os.path.join(out, "witnesses"), exist_ok=True)
    os.makedirs(os.path.join(out, "lemmas"), exist_ok=True)
    for v in verdicts:
        if v.witness is not None:
            path = os.path.join(out, "witnesses", f"{v.relation.id}.json")
            v.witness_file = write_text_atomic(
                path, dumps(v.witness, f"{v.verdict} evidence for {v.relation.id}: {v.relation.symbols}"))
        if v.smt is not None:
            header, script = v.smt
            path = os.path.join(out, "lemmas", f"{v.relation.id}.smt2")
            v.proof_file = write_text_atomic(path, "".join(f"; {line}\n" for line in header.splitlines()) + script)
        if v.family is not None:
            header, script = v.family
            os.makedirs(os.path.join(out, "families"), exist_ok=True)
            path = os.path.join(out, "families", f"{v.relation.id}.py")
            v.family_file = write_text_atomic(path, "".join(f"# {line}\n" for line in header.splitlines()) + script)
    rows = [{k: x for k, x in verdict_json(v, with_witness=False).items() if k != "seconds"} for v in verdicts]
    write_text_atomic(os.path.join(out, "verdicts.json"), json.dumps(rows, indent=1) + "\n")
