"""Every file format and every write: mechanism files, reports and evidence files.

* :mod:`relations.io._inputs` -- the one input path: every file read once, bounded, from a
  path, ``-`` (standard input) or a pipe;
* :mod:`relations.io._reading` -- mechanism files: JSON (exact, ``docs/mechanism-files.md``)
  and NumPy ``.npz`` (float mode, :mod:`relations.io._npz`); loss matrices;
* :mod:`relations.io._writing` -- mechanisms back to the JSON format; atomic writes;
* :mod:`relations.io._reports` -- measures, relation outcomes, claims, the catalogue and
  verdicts as JSON (``docs/claims-and-verdicts.md``);
* :mod:`relations.io._tables` -- the same results as rich tables for a terminal;
* :mod:`relations.io._exports` -- the same JSON as LaTeX (booktabs) or CSV (``--format``);
* :mod:`relations.io._evidence` -- the evidence files of ``relations verify``.
"""

from __future__ import annotations

import importlib

from relations._lazy import old_submodule

#: The folder ``relations verify`` writes its evidence to unless told (``--out``), in the current directory.
#: It is not the repository's ``proofs/``: the committed evidence is regenerated on purpose (``--out proofs``),
#: never as a side effect, since evidence names the versions of z3, hypothesis and coqc that produced it.
EVIDENCE_DIR = "relations-evidence"

# Imported on first use (PEP 562): ``relations measure`` needs the readers and the tables, not the
# evidence writer (which pulls in the checker and the whole catalogue, 0.3 s of start-up).
_WHERE = {
    "write_evidence": "evidence",
    **dict.fromkeys(["MAX_JSON_BYTES", "MAX_NPZ_BYTES", "read_input"], "inputs"),
    **dict.fromkeys(["KNOWN_KEYS", "from_dict", "load", "load_loss_matrix", "loads"], "reading"),
    "load_npz": "npz",
    **dict.fromkeys(["budget_json", "catalogue_json", "measures_json", "mi_json", "number",
                     "rounding_json", "sizes", "verdict_json"], "reports"),
    # the check-report encoders live a layer below, with the checker: measure need not import it
    **dict.fromkeys(["check_json", "outcome_json", "real_json"], "relations.checking._encoding"),
    **dict.fromkeys(["catalogue_table", "check_tables", "measures_table", "verdicts_table"], "tables"),
    **dict.fromkeys(["dumps", "to_dict", "write_text_atomic"], "writing"),
    **dict.fromkeys(["load_spec", "read_rows", "iter_rows"], "sweeps"),
}


def __getattr__(name: str):
    if name in _WHERE:
        where = _WHERE[name]
        value = getattr(importlib.import_module(where if "." in where else f"relations.io._{where}"), name)
        globals()[name] = value
        return value
    old = old_submodule(__name__, name)  # a 0.2 module: relations.io.reading
    if old is None:
        raise AttributeError(f"module 'relations.io' has no attribute {name!r}")
    return old


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))


__all__ = ["EVIDENCE_DIR", *_WHERE]  # the names of _WHERE are imported on first use
