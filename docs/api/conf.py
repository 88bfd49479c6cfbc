"""Sphinx configuration of the API reference (built from the numpydoc docstrings) and the user guide.

The user guide pages live one directory up (``docs/semantics.md``, ``docs/mechanism-files.md``,
``docs/claims-and-verdicts.md``, readable as plain Markdown on their own); the pages of the same
name here include them through myst-parser, so the build checks them too.

Build with warnings as errors (``tests/test_docs.py`` does exactly this)::

    python -m sphinx -W --keep-going -b html docs/api docs/api/_build/html
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # document the source tree, installed or not

project = "relations"
author = "relations developers"
copyright = "relations developers"
try:
    from importlib.metadata import version as _version

    release = _version("privacy-relations")
except Exception:  # pragma: no cover - a source tree that was not installed
    release = ""
version = release

extensions = ["sphinx.ext.autodoc", "sphinx.ext.mathjax", "numpydoc", "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
html_theme = "alabaster"  # ships with Sphinx: no extra dependency

# autodoc: ``:members:`` follows each module's ``__all__``; types are in the numpydoc sections.
autodoc_member_order = "bysource"
autodoc_typehints = "none"

# numpydoc: render the sections, enforce nothing (docstrings are being rewritten).
numpydoc_show_class_members = False
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False

# myst: the guide pages link each other as ``[text](page.md)``.
myst_heading_anchors = 3

nitpicky = False
