"""Every file format and every write: mechanism files (JSON, ``.npz``), reports (JSON, tables)
and evidence files.
"""

from __future__ import annotations

from relations.io.evidence import write_evidence
from relations.io.reading import KNOWN_KEYS, load, loads, from_dict, load_npz, load_loss_matrix
from relations.io.reports import number, budget_json, mi_json, sizes, measures_json, real_json, outcome_json, check_json, catalogue_json, verdict_json
from relations.io.tables import measures_table, check_tables, catalogue_table, verdicts_table
from relations.io.writing import to_dict, dumps, write_text_atomic

__all__ = ["write_evidence", "KNOWN_KEYS", "load", "loads", "from_dict", "load_npz", "load_loss_matrix", "number", "budget_json", "mi_json", "sizes", "measures_json", "real_json", "outcome_json", "check_json", "catalogue_json", "verdict_json", "measures_table", "check_tables", "catalogue_table", "verdicts_table", "to_dict", "dumps", "write_text_atomic"]
