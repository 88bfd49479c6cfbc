"""The project's own linters, with the configuration in ``pyproject.toml``: ruff (pyflakes, pycodestyle
errors, bugbear, isort, pyupgrade) on the package, tests, benchmarks and examples, and mypy on the package."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_clean():
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise",
                          "relations", "tests", "benchmarks", "examples"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]


def test_mypy_is_clean():
    # no cache written (mypy reads /dev/null as "no cache"): a fresh run either way, about a fifth less CPU
    out = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", "/dev/null"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
