"""Deciding relations and claimed budgets on one mechanism, exactly."""

from __future__ import annotations

from relations.checking.checker import (
    ClaimOutcome,
    Outcome,
    Report,
    applicable,
    bound_value,
    check,
    decide,
    evaluate,
)
from relations.checking.claims import CLAIM_NAMES, Claim, parse_claim
from relations.checking.quantities import Values, values

__all__ = ["Outcome", "applicable", "bound_value", "evaluate", "Report", "check", "ClaimOutcome", "decide", "CLAIM_NAMES", "Claim", "parse_claim", "Values", "values"]
