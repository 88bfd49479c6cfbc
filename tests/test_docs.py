"""The documentation builds with warnings as errors, and the repository stands alone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_api_reference_builds_without_warnings(tmp_path):
    pytest.importorskip("sphinx", reason="sphinx is installed by the 'test' extra")
    pytest.importorskip("numpydoc")
    pytest.importorskip("myst_parser")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                          str(ROOT / "docs"), str(tmp_path / "html")], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    for page in ("index.html", "semantics.html", "api/measures.html", "api/model.html"):
        assert (tmp_path / "html" / page).exists(), page
    text = (tmp_path / "html" / "api" / "model.html").read_text(encoding="utf-8")
    assert "Mechanism.local" in text  # the constructors' docstrings are rendered


def test_no_file_points_outside_the_repository():
    files = subprocess.run(["git", "ls-files"], capture_output=True, text=True, cwd=ROOT, check=True).stdout.split()
    needles = ("../shared", "SPEC.md", "SPEC section", "NOTES.md")
    offenders = []
    for name in files:
        path = ROOT / name
        if name == "tests/test_docs.py" or not path.is_file() or path.suffix in (".png", ".npz", ".pdf"):
            continue
        text = path.read_text(encoding="utf-8", errors="ignore")
        offenders += [f"{name}: {n}" for n in needles if n in text]
    assert not offenders, offenders
