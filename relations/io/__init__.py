"""Every file format and every write: mechanism files, reports and evidence files.

* :mod:`relations.io._inputs` -- the one input path: every file read once, bounded, from a
  path, ``-`` (standard input) or a pipe;
* :mod:`relations.io._reading` -- mechanism files: JSON (exact, ``docs/mechanism-files.md``)
  and NumPy ``.npz`` (float mode, :mod:`relations.io._npz`); loss matrices;
* :mod:`relations.io._writing` -- mechanisms back to the JSON format; atomic writes;
* :mod:`relations.io._reports` -- measures, relation outcomes, claims, the catalogue and
  verdicts as JSON (``docs/claims-and-verdicts.md``);
* :mod:`relations.io._tables` -- the same results as rich tables for a terminal;
* :mod:`relations.io._terminal` -- text for a terminal: labels and messages shown as text
  (control characters escaped, no markup), in any encoding;
* :mod:`relations.io._exports` -- the same JSON as LaTeX (booktabs) or CSV (``--format``);
* :mod:`relations.io._evidence` -- the evidence files of ``relations verify``.
"""

from __future__ import annotations

from relations._lazy import exports

#: The folder ``relations verify`` writes its evidence to unless told (``--out``), in the current directory.
#: It is not the repository's ``proofs/``: the committed evidence is regenerated on purpose (``--out proofs``),
#: never as a side effect, since evidence names the versions of z3, hypothesis and coqc that produced it.
EVIDENCE_DIR = "relations-evidence"

# Imported on first use (PEP 562): ``relations measure`` needs the readers and the tables, not the
# evidence writer (which pulls in the checker and the whole catalogue, 0.3 s of start-up).
_WHERE = {
    "write_evidence": "relations.io._evidence",
    **dict.fromkeys(["MAX_JSON_BYTES", "MAX_NPZ_BYTES", "read_input"], "relations.io._inputs"),
    **dict.fromkeys(["KNOWN_KEYS", "from_dict", "load", "load_loss_matrix", "loads"], "relations.io._reading"),
    "load_npz": "relations.io._npz",
    **dict.fromkeys(["budget_json", "catalogue_json", "measures_json", "mi_json", "number",
                     "rounding_json", "sizes", "verdict_json"], "relations.io._reports"),
    # the check-report encoders live a layer below, with the checker: measure need not import it
    **dict.fromkeys(["check_json", "outcome_json", "real_json"], "relations.checking._encoding"),
    **dict.fromkeys(["catalogue_table", "check_tables", "measures_table", "verdicts_table"], "relations.io._tables"),
    **dict.fromkeys(["dumps", "to_dict", "write_text_atomic"], "relations.io._writing"),
    **dict.fromkeys(["load_spec", "read_rows", "iter_rows"], "relations.io._sweeps"),
}


__getattr__, __dir__ = exports(__name__, _WHERE)


__all__ = ["EVIDENCE_DIR", *_WHERE]  # the names of _WHERE are imported on first use
