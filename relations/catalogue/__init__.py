"""The relation catalogue: bounds between budgets as data, with their sources.

:data:`CATALOGUE` holds every :class:`Relation` (:mod:`~relations.catalogue.entries`) and
:func:`get` finds one by id; each implication's bound is a :class:`Linear` or
:class:`KLBound` (:mod:`~relations.catalogue.bounds`), which gives its exact, float,
z3 and sympy forms.  How relations are decided is in ``docs/claims-and-verdicts.md``.
"""

from __future__ import annotations

from relations.catalogue.bounds import Bound, KLBound, Linear
from relations.catalogue.entries import (
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

__all__ = ["Linear", "KLBound", "Bound", "NOTIONS", "PAPER", "SUN", "DWORK_ROTH", "DRV", "CUFF_YU", "Relation", "CATALOGUE", "BY_ID", "get"]
