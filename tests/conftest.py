"""Shared test setup: a hypothesis profile, a runner for the command line as a subprocess, and one
``relations verify --quick`` of the whole catalogue shared by the tests that need it."""

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
# With pytest-xdist the workers share the folder of the process that starts them (they inherit its
# environment, and that process removes the folder when it ends): the theorems are compiled once per run.
_INHERITED = os.environ.get("RELATIONS_TESTS_CACHE", "")
if _INHERITED and os.environ.get("PYTEST_XDIST_WORKER") and os.path.isdir(_INHERITED):
    _SESSION_CACHE = _INHERITED
else:
    _SESSION_CACHE = tempfile.mkdtemp(prefix="relations-tests-cache-")
    atexit.register(shutil.rmtree, _SESSION_CACHE, True)
    os.environ["RELATIONS_TESTS_CACHE"] = _SESSION_CACHE
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


def _shared(tmp_path_factory: pytest.TempPathFactory, name: str, compute):
    """``compute(folder)``, once per test run: the first process (xdist worker) to ask computes it under a file
    lock, in a folder beside the workers' own temporary folders, and pickles it there; the others wait for the
    lock and read the pickle.  ``folder`` is kept until the run's temporary folders are removed."""
    import fcntl
    import pickle

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # shared by the workers of this run
    folder, stored = root / f"shared-{name}", root / f"shared-{name}.pickle"
    with open(root / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if stored.is_file():
                return pickle.loads(stored.read_bytes())
            if folder.exists():
                shutil.rmtree(folder)  # left by a process that died computing it
            folder.mkdir()
            value = compute(folder)
            stored.write_bytes(pickle.dumps(value))
            return value
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _verify_quick(folder: Path):
    """``relations verify --quick --json --out FOLDER/evidence``, run in this process as tests/golden/record.py
    runs it (the Coq check included)."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "golden"))
    import record  # tests/golden/record.py, as tests/test_golden.py imports it

    code, data = record.run("verify", "--quick", "--json", "--out", str(folder / "evidence"))
    return code, data, folder / "evidence"


@pytest.fixture(scope="session")
def verify_quick(tmp_path_factory):
    """One ``relations verify --quick --json`` of the whole catalogue per test run (shared by the xdist workers):
    ``(exit status, its JSON, the evidence folder)``.  Read-only: a test that changes them works on a copy."""
    return _shared(tmp_path_factory, "verify-quick", _verify_quick)


@pytest.fixture(scope="session")
def coq_build():
    """The repository's theorem files compiled and checked by the checker verify uses
    (:func:`relations.proofs._coq.check_theorems`), once per run: the compiled files go to the session's cache
    folder, which the xdist workers and the commands the tests run share; a file lock there keeps a second
    worker from compiling them at the same time.  Fails (in the test) without coqc."""
    import fcntl

    from relations.proofs import _coq as coq

    if shutil.which("coqc") is None:
        pytest.fail("Coq is not installed: apt-get install -y coq (see README)", pytrace=False)
    with open(os.path.join(_SESSION_CACHE, "coq-build.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            coq.check_theorems(coq.COQ_PROOFS.values())
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    with coq._LOCK:
        build = coq._BUILDS[coq.COQ_DIR]
    assert build.folder is not None, build.release
    return build
