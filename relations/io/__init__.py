"""Every file format and every write: mechanism files (JSON, ``.npz``), reports (JSON, tables)
and evidence files.
"""

from __future__ import annotations

from relations.io.reading import KNOWN_KEYS, MAX_DENSE_ENTRIES, FLOAT_TOLERANCE, load, loads, from_dict, load_npz
from relations.io.reports import (
    number,
    budget_json,
    mi_json,
    sizes,
    measures_json,
    real_json,
    outcome_json,
    check_json,
    catalogue_json,
)
from relations.io.tables import measures_table, check_tables, catalogue_table, verdicts_table
from relations.io.writing import to_dict, dumps

__all__ = [
    "KNOWN_KEYS",
    "MAX_DENSE_ENTRIES",
    "FLOAT_TOLERANCE",
    "load",
    "loads",
    "from_dict",
    "load_npz",
    "number",
    "budget_json",
    "mi_json",
    "sizes",
    "measures_json",
    "real_json",
    "outcome_json",
    "check_json",
    "catalogue_json",
    "measures_table",
    "check_tables",
    "catalogue_table",
    "verdicts_table",
    "to_dict",
    "dumps",
]
