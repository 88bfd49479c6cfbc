"""Shared test setup: a hypothesis profile and a runner for the command line as a subprocess."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(__file__))  # tests/bruteforce.py, tests/reference_strategies.py

# The tool's cache folder (relations._cache) is a temporary one per test session, shared by the session's
# tests and the commands they run (so the Coq theorems are compiled once per session, not once per
# ``verify``), and the user's own cache folder is never written.
_SESSION_CACHE = tempfile.mkdtemp(prefix="relations-tests-cache-")
atexit.register(shutil.rmtree, _SESSION_CACHE, True)
# matplotlib keeps its font cache where it always does (its cache folder, from the user's XDG_CACHE_HOME), not in
# the session's fresh one: else every session rebuilt it, and under load (after 5 s) the first test to draw
# printed "Matplotlib is building the font cache" on stderr, where the one-line checks of the tests read.
os.environ.setdefault("MPLCONFIGDIR", os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                                                   "matplotlib"))
os.environ["XDG_CACHE_HOME"] = _SESSION_CACHE
if "PYTEST_XDIST_WORKER" not in os.environ:  # built once, here, before any worker or test runs (a fresh machine)
    try:
        import matplotlib.font_manager  # noqa: F401
    except ImportError:
        pass
os.environ.pop("RELATIONS_CACHE_DIR", None)

# CI is deterministic (derandomize: the same examples on every run, so a red run is reproducible and a
# green one does not turn red by chance); HYPOTHESIS_PROFILE=explore draws fresh random examples, ten times
# as many, to look for new failures (README, "Benchmarks and slow checks").
_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile("relations", deadline=None, max_examples=40, derandomize=True, suppress_health_check=_QUIET)
settings.register_profile("explore", deadline=None, max_examples=400, derandomize=False, suppress_health_check=_QUIET)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "relations"))

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def cli_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "relations.cli", *args]


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``python -m relations.cli ARGS`` and capture its output as text."""
    return subprocess.run(cli_command(*args), capture_output=True, text=True, timeout=timeout, cwd=ROOT)


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def no_coq_checks(monkeypatch):
    """verify (in this process and in the commands a test runs) makes no Coq check: ``RELATIONS_COQC`` empty,
    as without coqc. For tests about writes and tables, which would otherwise compile the theorems each run."""
    monkeypatch.setenv("RELATIONS_COQC", "")
