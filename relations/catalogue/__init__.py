"""The relation catalogue: bounds between budgets as data, with their sources."""

from __future__ import annotations

from relations.catalogue.bounds import Linear, KLBound, Bound
from relations.catalogue.entries import NOTIONS, PAPER, SUN, DWORK_ROTH, DRV, CUFF_YU, Relation, CATALOGUE, BY_ID, get

__all__ = ["Linear", "KLBound", "Bound", "NOTIONS", "PAPER", "SUN", "DWORK_ROTH", "DRV", "CUFF_YU", "Relation", "CATALOGUE", "BY_ID", "get"]
