"""The live classroom page of ``relations demo``: sliders for k-RR, its exact budgets and relations.

A teacher moves sliders (domain size ``k``, ``e^eps``, prior skew, number of records) and the page shows
the exact budgets ``eps_i``, ``eps_d``, ``eps_m``, ``sigma_min`` of k-ary randomized response, which
catalogued relations hold or fail on it, the frontier plot (``I(X;Y)`` against ``eps`` with the current
point and the catalogue's bounds) and counterexamples on demand.

* :mod:`relations.demo._state` -- what the page shows for one slider position, as JSON (exact:
  :func:`relations.demo._state.state`);
* :mod:`relations.demo._server` -- a local HTTP server (the standard library's): the page, the KaTeX it
  sets its formulas with (bundled: no internet needed, nothing loaded from a CDN) and its JSON endpoints.

The layer sits with :mod:`relations.figures`: it imports the layers below it, and only
:mod:`relations.cli` imports it.
"""

from __future__ import annotations

from relations._lazy import exports
from relations.demo._server import make_server, page_html, server_url
from relations.demo._state import RANGES, Params, counterexample, parse_params

__all__ = ["RANGES", "Params", "counterexample", "make_server", "page_html", "parse_params", "server_url"]

# 0.2 submodule names (relations.measures.ratios) resolve to their replacements, with a DeprecationWarning
__getattr__, __dir__ = exports(__name__, {})
