"""Deciding relations and claimed budgets on one mechanism, exactly.

Start with :func:`check`.  The submodules:

* :mod:`~relations.checking._checker` -- :func:`check`, :func:`evaluate` (one relation) and
  :func:`decide` (one claim), with their outcomes;
* :mod:`~relations.checking._grammar` -- the one grammar of claims and conjectures;
* :mod:`~relations.checking._claims` -- claimed budgets such as ``eps_d <= ln(13/7)``: conjectures
  whose left side is one notion and whose right side is an exact constant;
* :mod:`~relations.checking._conjectures` -- conjectures such as ``eps_m <= eps_d * tanh(eps_d / 2)``;
* :mod:`~relations.checking._conjecture_eval` -- the one decider of claims and conjectures on a mechanism;
* :mod:`~relations.checking._quantities` -- a mechanism's quantities as exact reals;
* :mod:`~relations.checking._composition` -- the composition theorems on a repeated mechanism
  (:func:`check_composition`).

Statuses and the grammar are in ``docs/claims-and-verdicts.md``.
"""

from __future__ import annotations

from relations._lazy import exports
from relations.checking._checker import (
    ClaimOutcome,
    Outcome,
    Report,
    applicable,
    bound_value,
    check,
    decide,
    evaluate,
)
from relations.checking._claims import CLAIM_NAMES, Claim, parse_claim
from relations.checking._composition import CompositionOutcome, check_composition
from relations.checking._quantities import (
    FLOAT_EVALUATION,
    Values,
    rounding_margins,
    values,
)

__all__ = ["Outcome", "applicable", "bound_value", "evaluate", "Report", "check", "ClaimOutcome", "decide", "CLAIM_NAMES", "Claim", "parse_claim", "FLOAT_EVALUATION", "Values", "values", "rounding_margins", "check_composition",
           "CompositionOutcome"]

# 0.2 submodule names (relations.measures.ratios) resolve to their replacements, with a DeprecationWarning
__getattr__, __dir__ = exports(__name__, {})
