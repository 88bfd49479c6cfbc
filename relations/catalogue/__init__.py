"""The relation catalogue: bounds between budgets as data, with their sources.

:data:`CATALOGUE` holds every :class:`Relation` (:mod:`~relations.catalogue._entries`) and
:func:`get` finds one by id; each implication's bound is a :class:`Linear` or
:class:`KLBound` (:mod:`~relations.catalogue._bounds`), which gives its exact, float,
z3 and sympy forms; each relation's :class:`Scope` (:mod:`~relations.catalogue._scopes`) says
which mechanisms its proof covers.  :data:`COMPOSITION_RELATIONS` (:mod:`~relations.catalogue._composition`)
are the conversions read for repeated use, checked on compositions by
:func:`relations.checking.check_composition`.  How relations are decided is in ``docs/claims-and-verdicts.md``.
"""

from __future__ import annotations

from relations._lazy import exports
from relations.catalogue._bounds import Bound, KLBound, Linear
from relations.catalogue._composition import COMPOSITION_RELATIONS, CompositionRelation, CompositionRule
from relations.catalogue._entries import (
    BY_ID,
    CATALOGUE,
    CUFF_YU,
    DRV,
    DWORK_ROTH,
    NOTIONS,
    PAPER,
    SUN,
    Relation,
    get,
)
from relations.catalogue._scopes import EVERY, PRIOR_ON_COMPONENTS, Scope, zero_prior_components

__all__ = ["Linear", "KLBound", "Bound", "NOTIONS", "PAPER", "SUN", "DWORK_ROTH", "DRV", "CUFF_YU", "Relation", "CATALOGUE", "BY_ID", "get", "Scope", "EVERY", "PRIOR_ON_COMPONENTS", "zero_prior_components",
           "COMPOSITION_RELATIONS", "CompositionRelation", "CompositionRule"]

# 0.2 submodule names (relations.measures.ratios) resolve to their replacements, with a DeprecationWarning
__getattr__, __dir__ = exports(__name__, {})
