"""Tables that fit an 80-column terminal: ``catalogue`` and ``verify`` keep ids whole and lines short."""

from __future__ import annotations

import os

import pytest
from conftest import run_cli

from relations import CATALOGUE

# about writes and tables, not proofs: verify skips its Coq check here (tests/test_coq_proofs.py covers it)
pytestmark = pytest.mark.usefixtures("no_coq_checks")


def _run(*args, cwd=None):
    env = {**os.environ, "COLUMNS": "80"}
    return run_cli(*args, env=env, cwd=cwd, timeout=900)  # in this process (tests/conftest.py)


def test_catalogue_fits_80_columns():
    run = _run("catalogue")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    for r in CATALOGUE:
        assert any(r.id in line for line in lines), r.id  # each id whole on one line


def test_verify_fits_80_columns(tmp_path):
    # a refuted and a proved relation whose statement (94 characters) must wrap; seconds each
    run = _run("verify", "--quick", "--only", "zheng2025.thm4", "--only", "zheng2025.thm1", "--out", "ev",
               cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    for rid in ("zheng2025.thm4", "zheng2025.thm1"):
        assert any(rid in line for line in lines)
    assert "refuted" in run.stdout and "proved" in run.stdout
