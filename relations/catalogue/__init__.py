"""The relation catalogue: bounds between budgets as data, with their sources."""

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
