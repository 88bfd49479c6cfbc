"""Every file format and every write: mechanism files, reports and evidence files.

* :mod:`relations.io.inputs` -- the one input path: every file read once, bounded, from a
  path, ``-`` (standard input) or a pipe;
* :mod:`relations.io.reading` -- mechanism files: JSON (exact, ``docs/mechanism-files.md``)
  and NumPy ``.npz`` (float mode, :mod:`relations.io.npz`); loss matrices;
* :mod:`relations.io.writing` -- mechanisms back to the JSON format; atomic writes;
* :mod:`relations.io.reports` -- measures, relation outcomes, claims, the catalogue and
  verdicts as JSON (``docs/claims-and-verdicts.md``);
* :mod:`relations.io.tables` -- the same results as rich tables for a terminal;
* :mod:`relations.io.exports` -- the same JSON as LaTeX (booktabs) or CSV (``--format``);
* :mod:`relations.io.evidence` -- the evidence files of ``relations verify``.
"""

from __future__ import annotations

from relations.io.evidence import write_evidence
from relations.io.inputs import MAX_JSON_BYTES, MAX_NPZ_BYTES, read_input
from relations.io.reading import (
    KNOWN_KEYS,
    from_dict,
    load,
    load_loss_matrix,
    load_npz,
    loads,
)
from relations.io.reports import (
    budget_json,
    catalogue_json,
    check_json,
    measures_json,
    mi_json,
    number,
    outcome_json,
    real_json,
    rounding_json,
    sizes,
    verdict_json,
)
from relations.io.tables import (
    catalogue_table,
    check_tables,
    measures_table,
    verdicts_table,
)
from relations.io.writing import dumps, to_dict, write_text_atomic

__all__ = ["write_evidence", "read_input", "MAX_JSON_BYTES", "MAX_NPZ_BYTES", "KNOWN_KEYS", "load", "loads", "from_dict", "load_npz", "load_loss_matrix", "number", "budget_json", "mi_json", "sizes", "rounding_json", "measures_json", "real_json", "outcome_json", "check_json", "catalogue_json", "verdict_json", "measures_table", "check_tables", "catalogue_table", "verdicts_table", "to_dict", "dumps", "write_text_atomic"]
