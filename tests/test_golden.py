"""Results are unchanged by refactoring: every output of ``tests/golden/record.py`` is recomputed
and must equal the recorded one exactly (the record was made before the package was reorganised)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))
import record  # noqa: E402

EXPECTED = json.loads(record.EXPECTED.read_text(encoding="utf-8"))


def _normal(value):
    """JSON round trip: tuples become lists, as in the stored record."""
    return json.loads(json.dumps(value, sort_keys=True))


@pytest.mark.parametrize("path", record.inputs(), ids=lambda p: p.name)
def test_measure_and_check_unchanged(path):
    rel = str(path.relative_to(record.ROOT))
    assert _normal(record.run("measure", str(path), "--json")) == EXPECTED[f"measure {rel}"]
    args = ["check", str(path), "--json"]
    for c in record.CLAIMS:
        args += ["--claim", c]
    assert _normal(record.run(*args)) == EXPECTED[f"check {rel}"]


def test_catalogue_and_witnesses_unchanged():
    assert _normal(record.run("catalogue", "--json")) == EXPECTED["catalogue"]
    assert _normal(record._text("witness", "zheng2025.thm12", "--eps-m", "1/1000")) == EXPECTED["witness thm12"]
    assert _normal(record._text("witness", "zheng2025.thm6", "--full-support", "100")) == EXPECTED["witness thm6 full"]


def test_verify_quick_unchanged(tmp_path):
    assert _normal(record.record_verify(tmp_path)) == EXPECTED["verify --quick"]
