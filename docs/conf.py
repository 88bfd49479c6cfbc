"""Sphinx configuration of the documentation site: the guides, the executed notebooks, the API reference
(built from the numpydoc docstrings) and the benchmarks.

The guide pages are the Markdown files of ``docs/`` (readable as plain Markdown on GitHub too), the API
pages are ``docs/api/*.rst``, and ``docs/notebooks`` is a link to the repository's ``notebooks/``, which
myst-nb executes during the build (cached under the build folder), so the site shows their outputs.

Build with warnings as errors (``tests/test_docs.py`` does exactly this)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # document the source tree, installed or not
# ... and execute the notebooks against it too (their kernels are new processes)
os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])

project = "relations"
author = "relations developers"
copyright = "relations developers"
try:
    from importlib.metadata import version as _version

    release = _version("privacy-relations")
except Exception:  # pragma: no cover - a source tree that was not installed
    release = ""
version = release

extensions = ["sphinx.ext.autodoc", "sphinx.ext.mathjax", "numpydoc", "myst_nb"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "notebooks/README.md", "**/.ipynb_checkpoints", "**/__pycache__"]
html_theme = "alabaster"  # ships with Sphinx: no extra dependency

# Math is set by the KaTeX bundled with the live page (relations/demo/static/katex), not MathJax from a CDN,
# so the site reads offline: _static/render-math.js loads it and renders Sphinx's math elements.
html_static_path = ["_static", "../relations/demo/static"]
mathjax_path = "render-math.js"
html_theme_options = {"page_width": "1200px", "sidebar_width": "240px"}  # room for the notebooks' code

# autodoc: ``:members:`` follows each module's ``__all__``; types are in the numpydoc sections.
autodoc_member_order = "bysource"
autodoc_typehints = "none"
# ... so the annotations autodoc would read from ``# type:`` comments (parsing each function's source again) are
# never shown: not read
autodoc_use_type_comments = False

# numpydoc: render the sections, enforce nothing (docstrings are being rewritten).
numpydoc_show_class_members = False
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False

# myst: the guide pages link each other as ``[text](page.md)``; $...$ is math in the guides and notebooks.
myst_heading_anchors = 3
myst_enable_extensions = ["dollarmath", "amsmath"]

# myst-nb: run every notebook in the build (a fresh kernel each, cached by content under the build folder),
# and fail the build on an error in a cell.
nb_execution_mode = "cache"
# The site's copies are static: the notebooks leave their sliders out (they need a live kernel; and ipywidgets'
# comm traffic can leave nbclient waiting forever on an idle kernel: jupyter/nbclient#312, seen here twice).
os.environ["RELATIONS_STATIC_NOTEBOOK"] = "1"
nb_execution_timeout = 300  # a cell of ours takes seconds: fail a hung kernel rather than wait
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True

nitpicky = False


def _numpydoc_template_once() -> None:
    """numpydoc compiles its docstring template (Jinja) anew for every docstring and every signature, a tenth of
    the build's CPU: give it (through the module global its ``setup(app, get_doc_object_=...)`` sets) a
    ``get_doc_object`` that compiles it once per builder and hands the compiled template to each docstring, which
    renders the same text."""
    import numpydoc.numpydoc as numpydoc_ext
    from numpydoc import docscrape, docscrape_sphinx

    compile_template = docscrape_sphinx.get_doc_object  # numpydoc's: compiles the template, then parses
    templates: dict[int, object] = {}

    def get_doc_object(obj, what=None, doc=None, config=None, builder=None):
        config = {} if config is None else config
        if id(builder) not in templates:
            parsed = compile_template(obj, what, doc, config, builder)  # leaves the template in config["template"]
            templates[id(builder)] = config["template"]
            return parsed
        config["template"] = templates[id(builder)]
        return docscrape.get_doc_object(obj, what=what, doc=doc, config=config,
                                        class_doc=docscrape_sphinx.SphinxClassDoc,
                                        func_doc=docscrape_sphinx.SphinxFunctionDoc,
                                        obj_doc=docscrape_sphinx.SphinxObjDoc)

    numpydoc_ext.get_doc_object = get_doc_object


def _definitions_when_asked() -> None:
    """Sphinx's module analyzer finds, besides the attribute comments and the order of the definitions that autodoc
    reads, where each class and function is defined, by tokenizing the module again in pure Python (a tenth of the
    build's CPU); only ``viewcode`` and ``literalinclude :pyobject:`` read those places, and the site uses neither.
    Find them when asked (``find_tags``), so they are the same when something does."""
    from sphinx.pycode import ModuleAnalyzer
    from sphinx.pycode.parser import Parser

    if getattr(ModuleAnalyzer, "_relations_lazy_tags", False):
        return
    if Parser.parse.__code__.co_names != ("parse_comments", "parse_definition"):
        return  # another Sphinx, whose parse does more than these two: left as it is
    parse_definition = Parser.parse_definition
    find_tags = ModuleAnalyzer.find_tags

    def parse(self) -> None:
        self.parse_comments()  # the definitions: in find_tags below

    def find_tags_when_asked(self):
        self.analyze()
        if not getattr(self, "_relations_tags_found", False):
            parser = Parser(self.code)
            parse_definition(parser)
            self.tags = parser.definitions
            self._relations_tags_found = True
        return find_tags(self)

    setattr(Parser, "parse", parse)  # noqa: B010 (a method replaced: mypy refuses an assignment)
    setattr(ModuleAnalyzer, "find_tags", find_tags_when_asked)  # noqa: B010
    setattr(ModuleAnalyzer, "_relations_lazy_tags", True)  # noqa: B010


def _search_index(app) -> None:
    """``-D relations_search_index=0`` builds no search page and index (the default test build checks the pages)."""
    if not app.config.relations_search_index and hasattr(app.builder, "search"):
        app.builder.search = False


def setup(app) -> None:
    _numpydoc_template_once()
    _definitions_when_asked()
    app.add_config_value("relations_search_index", True, "html", types=frozenset({bool}))
    app.connect("builder-inited", _search_index)
