"""The API reference and user guide build with warnings as errors, and the repository stands alone."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
API = DOCS / "api"

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


def _public(name: str) -> bool:
    return not any(part.startswith("_") for part in name.split(".")) or name.endswith("__main__")


def test_api_reference_shows_exactly_the_public_modules():
    documented = set()
    for page in API.glob("*.rst"):
        documented |= set(re.findall(r"^\.\. automodule:: (\S+)", page.read_text(encoding="utf-8"), re.M))
    public = {m for m in _modules() if _public(m) and not m.endswith("__main__")}
    assert public - documented == set(), "public modules without an automodule in docs/api/*.rst"
    assert documented - public == set(), "automodule of an internal (or missing) module"


#: The most names the public modules may export (issue 29: "at most about 450").
MAX_EXPORTED = 450


def test_the_public_surface_is_small():
    """The exported names are the ``__all__`` of the public modules (packages and a few documented modules);
    every other module is internal (``_name``).  Each exported name resolves."""
    import importlib

    total = 0
    for name in sorted(m for m in _modules() if _public(m) and not m.endswith("__main__")):
        module = importlib.import_module(name)
        exported = getattr(module, "__all__", None)
        if exported is None:  # relations.cli: the command functions, documented as the CLI
            continue
        for attr in exported:
            assert hasattr(module, attr), f"{name}.{attr} is in __all__ but does not resolve"
        total += len(exported)
    assert 100 < total <= MAX_EXPORTED, total


@pytest.mark.parametrize("execute", [pytest.param(True, marks=pytest.mark.slow), False],
                         ids=["notebooks-executed", "notebooks-unexecuted"])
def test_the_documentation_site_builds_without_warnings(tmp_path, execute):
    """The whole site: guides, the notebooks executed by myst-nb, the API reference, the benchmarks.

    The default run builds it with the notebooks unexecuted (tests/test_notebooks.py runs each of them
    top to bottom), without the search page and index (``-D relations_search_index=0``, docs/conf.py: about
    5 % of the build's CPU, and nothing here reads them) and without docutils' smart quotes (``-D smartquotes=0``:
    straight quotes left straight, a tenth of the build's CPU; for English text the transform warns of nothing);
    the slow tier builds it as published, the notebooks executed by myst-nb, the search index and smart quotes
    included."""
    pytest.importorskip("sphinx", reason="sphinx is not installed (pip install -e '.[test]' or '.[docs]')")
    pytest.importorskip("myst_nb", reason="myst-nb is not installed (pip install -e '.[test]' or '.[docs]')")
    out = tmp_path / "html"
    mode = [] if execute else ["-D", "nb_execution_mode=off", "-D", "relations_search_index=0", "-D", "smartquotes=0"]
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", *mode, str(DOCS),
                          str(out)], capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert run.returncode == 0, (run.stdout + run.stderr)[-6000:]
    pages = ["index", "getting-started", "verifying", "auditing", "sweeps", "mechanisms", "notebooks", "figures", "demo",
             "semantics", "mechanism-files", "claims-and-verdicts", "notions", "internals", "benchmarks",
             "proofs/README", "proofs/notion-facts"]
    pages += [f"api/{p.stem}" for p in API.glob("*.rst")]
    pages += [f"notebooks/{p.stem}" for p in (ROOT / "notebooks").glob("*.ipynb")]
    for page in pages:
        assert (out / f"{page}.html").exists(), page
    model = (out / "api" / "model.html").read_text(encoding="utf-8")
    assert "Mechanism.local" in model  # the constructors' docstrings are rendered
    for notebook in (ROOT / "notebooks").glob("*.ipynb"):  # committed executed, or executed in the build: outputs
        html = (out / "notebooks" / f"{notebook.stem}.html").read_text(encoding="utf-8")
        assert "cell_output" in html, f"{notebook.name}: no outputs in the site"
        assert "Traceback" not in html, f"{notebook.name} shows a traceback in the site"
    index = (out / "index.html").read_text(encoding="utf-8")  # math by the bundled KaTeX: the site reads offline
    assert "render-math.js" in index and "cdn" not in index.lower()
    assert (out / "_static" / "katex" / "katex.min.js").is_file()
    assert (out / "searchindex.js").is_file() == (out / "search.html").is_file() == execute
    benchmarks = (out / "benchmarks.html").read_text(encoding="utf-8")
    assert re.search(r"20\d\d-\d\d-\d\d", benchmarks)  # dated tables
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
