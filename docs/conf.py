"""Sphinx configuration: the user guide (Markdown) and the API reference built from the docstrings.

Build with warnings as errors::

    python -m sphinx -W --keep-going -b html docs docs/_build/html
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.abspath(".."))

project = "relations"
author = "relations developers"
copyright = "2026, relations developers"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.mathjax", "numpydoc", "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "figures"]
root_doc = "index"
html_theme = "alabaster"
autodoc_member_order = "bysource"
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]
nitpicky = False
