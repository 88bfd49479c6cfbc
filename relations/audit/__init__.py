"""Auditing a randomizer as its users have it: the exact channel of code written in
Python by enumerating every random choice it makes (the white-box route); sampling with
certified bounds when the randomness cannot be enumerated (the black-box route).
"""

from __future__ import annotations

from relations._lazy import exports

#: Each public name and the module that defines it (imported on first use: the command line reads
#: :class:`AuditOptions` without loading the audit).
_WHERE = {
    **dict.fromkeys(["MAX_SAMPLES", "SampleAudit", "clopper_pearson", "sample_audit"], "relations.audit._blackbox"),
    **dict.fromkeys(["MAX_OUTCOMES", "MAX_PATHS", "THRESHOLD_ROUNDING", "NotEnumerable", "ScaledDraw", "UniformDraw"],
                    "relations.audit._enumerate"),
    **dict.fromkeys(["Enumerated", "enumerate_channel", "exact_channel", "exact_mechanism"], "relations.audit._exact"),
    **dict.fromkeys(["EnumeratingGenerator"], "relations.audit._generator"),
    **dict.fromkeys(["intercepted_globals"], "relations.audit._intercept"),
    **dict.fromkeys(["ADAPTERS"], "relations.audit._libraries"),
    **dict.fromkeys(["output_key", "output_label"], "relations.audit._outputs"),
    **dict.fromkeys(["Pool"], "relations.audit._pool"),
    **dict.fromkeys(["AuditOptions"], "relations.audit._options"),
    **dict.fromkeys(["AuditReport", "assert_private", "audit", "load_target", "parse_domain"], "relations.audit._report"),
    **dict.fromkeys(["audit_target"], "relations.audit._runner"),
}
# 0.2 submodule names (relations.measures.ratios) resolve to their replacements, with a DeprecationWarning
__getattr__, __dir__ = exports(__name__, _WHERE)

__all__ = list(_WHERE)
