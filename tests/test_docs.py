"""The API reference and user guide build with warnings as errors, and the repository stands alone."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api"

# The strings that would point outside the repository (to a contract or notes it does not hold).
OUTSIDE = (b"../shared", b"SPEC.md", b"SPEC section", b"NOTES.md")


def _modules() -> set[str]:
    """Every module of the package (``relations.data`` holds files, not code, and is documented too)."""
    out = set()
    for path in (ROOT / "relations").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[:2] == ("relations", "data") and len(parts) > 3:  # relations/data/docs -> docs/ (a link)
            continue
        out.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


def test_api_reference_covers_every_module():
    documented = set()
    for page in API.glob("*.rst"):
        documented |= set(re.findall(r"^\.\. automodule:: (\S+)", page.read_text(encoding="utf-8"), re.M))
    assert _modules() - documented == set(), "modules without an automodule in docs/api/*.rst"
    assert documented - _modules() == set(), "automodule of a module that does not exist"


def test_api_reference_builds_without_warnings(tmp_path):
    pytest.importorskip("sphinx", reason="sphinx is not installed (pip install -e '.[test]' or '.[docs]')")
    out = tmp_path / "html"
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(API),
                          str(out)], capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert run.returncode == 0, (run.stdout + run.stderr)[-6000:]
    pages = ("index", "semantics", "mechanism-files", "claims-and-verdicts", "package", "numbers", "model",
             "measures", "mechanisms", "catalogue", "checking", "search", "tradeoffs", "io", "figures", "cli",
             "errors")
    for page in pages:
        assert (out / f"{page}.html").exists(), page
    model = (out / "model.html").read_text(encoding="utf-8")
    assert "Mechanism.local" in model  # the constructors' docstrings are rendered
    guide = (out / "semantics.html").read_text(encoding="utf-8")
    assert "Zeros and infinities" in guide and 'href="mechanism-files.html"' in guide  # included, links resolved


def test_no_file_points_outside_the_repository():
    names = subprocess.run(["git", "ls-files", "-z"], capture_output=True, cwd=ROOT, check=True).stdout
    offenders = []
    for name in names.decode("utf-8").split("\0"):
        path = ROOT / name
        if not name or name == "tests/test_docs.py" or path.is_symlink() or not path.is_file():
            continue
        data = path.read_bytes()
        offenders += [f"{name}: {n.decode()}" for n in OUTSIDE if n in data]
    assert not offenders, offenders
