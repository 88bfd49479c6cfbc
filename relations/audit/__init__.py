"""Auditing a randomizer as its users have it: the exact channel of code written in
Python by enumerating every random choice it makes (the white-box route); sampling with
certified bounds when the randomness cannot be enumerated (the black-box route).
"""

from __future__ import annotations

from relations._lazy import exports
from relations.audit._blackbox import MAX_SAMPLES, SampleAudit, clopper_pearson, sample_audit
from relations.audit._enumerate import (
    MAX_OUTCOMES,
    MAX_PATHS,
    THRESHOLD_ROUNDING,
    NotEnumerable,
    ScaledDraw,
    UniformDraw,
)
from relations.audit._exact import Enumerated, enumerate_channel, exact_channel, exact_mechanism
from relations.audit._generator import EnumeratingGenerator
from relations.audit._intercept import intercepted_globals
from relations.audit._libraries import ADAPTERS
from relations.audit._outputs import output_key, output_label
from relations.audit._pool import Pool
from relations.audit._report import AuditReport, assert_private, audit, load_target, parse_domain
from relations.audit._runner import audit_target

__all__ = ["MAX_SAMPLES", "SampleAudit", "clopper_pearson", "sample_audit", "MAX_OUTCOMES", "MAX_PATHS",
           "THRESHOLD_ROUNDING", "EnumeratingGenerator", "NotEnumerable", "ScaledDraw", "UniformDraw", "Enumerated",
           "enumerate_channel", "exact_channel", "exact_mechanism", "intercepted_globals", "output_key",
           "output_label", "AuditReport", "assert_private", "audit", "load_target", "parse_domain", "ADAPTERS", "Pool",
           "audit_target"]

# 0.2 submodule names (relations.measures.ratios) resolve to their replacements, with a DeprecationWarning
__getattr__, __dir__ = exports(__name__, {})
