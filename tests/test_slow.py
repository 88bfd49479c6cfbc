"""Slow checks, left out of CI: run with ``python -m pytest -m slow``.

The full-effort ``relations verify`` over the whole catalogue (CI runs the quick effort per relation in
``test_verify.py``) and the benchmark scripts end to end.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from relations.catalogue import CATALOGUE
from relations.checking import evaluate, values
from relations.pipeline._verify import Effort, verify_all

ROOT = pathlib.Path(__file__).parent.parent


@pytest.mark.slow
def test_full_verify_evidence_rechecks():
    verdicts = verify_all(CATALOGUE, Effort())
    assert len(verdicts) == len(CATALOGUE)
    for v in verdicts:
        if v.verdict == "refuted":
            assert evaluate(v.relation, values(v.witness)).status == "fails"
        if v.verdict != "refuted" and v.tightness is not None:
            assert v.tightness <= 1 + 1e-9


@pytest.mark.slow
@pytest.mark.parametrize("script, args", [("bench_measure.py", ["--quick"]), ("bench_optimal.py", []),
                                          ("bench_audit.py", ["--quick"]), ("bench_sweep.py", ["--quick"]),
                                          ("bench_verify.py", ["--quick"]),
                                          ("bench_startup.py", ["--quick"]), ("bench_anchors.py", ["--quick"]),
                                          ("bench_conjectures.py", ["--quick-only", "--only", "rho <= kl"]),
                                          ("run_all.py", ["--quick"])])
def test_benchmarks_run(script, args):
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args], capture_output=True, text=True,
                         timeout=1200)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1])
