"""Named mechanisms: constructors returning exact :class:`~relations.model.Mechanism` objects.

* :mod:`relations.mechanisms._local` -- local mechanisms with a rational ratio ``t = e^eps``
  (randomized response, k-RR, unary encoding, subset selection, Hadamard response, the
  exponential mechanism) and :func:`~relations.mechanisms._local.product`, their central version;
* :mod:`relations.mechanisms._ranges` -- central mechanisms on counting ranges ``{0, ..., n-1}``;
* :mod:`relations.mechanisms._paper` -- the example and constructions of Zheng et al. 2025;
* :mod:`relations.mechanisms._registry` -- the names a mechanism file may give
  (``docs/mechanism-files.md``); :mod:`relations.mechanisms._aliases` -- the same names as
  functions (``rr``, ``oue``, ``sue``, ``subset``, ``hadamard``);
* :mod:`relations.mechanisms._budgets` -- ``eps=`` instead of the ratio ``e^eps``
  (``krr(4, eps="ln(3)")`` exactly; ``krr(4, eps=1.0)`` with the nearest ratio of
  denominator at most ``10**6``);
* :mod:`relations.mechanisms._symbolic` -- closed forms (sympy) for symbolic parameters; not
  imported here, so that importing the package does not import sympy.

Examples
--------
>>> from relations import measure
>>> from relations.mechanisms import krr
>>> str(measure(krr(3, 2)).eps_d.exact)
'ln(2)'
"""

from __future__ import annotations

from relations._lazy import exports
from relations.mechanisms._aliases import hadamard, oue, rr, subset, sue
from relations.mechanisms._budgets import EPS_DENOMINATOR, ratio_of
from relations.mechanisms._local import (
    exponential,
    hadamard_response,
    krr,
    krr_rows,
    product,
    randomized_response,
    subset_selection,
    unary_encoding,
    utility_sensitivity,
)
from relations.mechanisms._paper import (
    paper_central,
    paper_construction,
    paper_example,
    paper_local,
)
from relations.mechanisms._ranges import folded_geometric, staircase, truncated_geometric
from relations.mechanisms._registry import REGISTRY, NamedMechanism, named

__all__ = ["krr_rows", "randomized_response", "krr", "unary_encoding", "subset_selection", "hadamard_response", "exponential", "utility_sensitivity", "product", "paper_example", "paper_construction", "paper_local", "paper_central", "truncated_geometric", "folded_geometric", "staircase", "NamedMechanism", "REGISTRY", "named", "rr", "oue", "sue", "subset", "hadamard", "ratio_of", "EPS_DENOMINATOR"]

# 0.2 submodule names (relations.measures.ratios) resolve to their replacements, with a DeprecationWarning
__getattr__, __dir__ = exports(__name__, {})
