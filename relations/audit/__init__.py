"""Auditing mechanisms as their users have them: in code, in a library, or as a float matrix.

:mod:`relations.audit.enumerate` computes the exact channel of a randomizer written in
Python by enumerating every random choice it makes (the white-box route);
:mod:`relations.audit.report` decides claimed budgets on it (:func:`audit`,
:func:`assert_private`).
"""

from __future__ import annotations

from relations.audit.blackbox import SampleAudit, clopper_pearson, sample_audit
from relations.audit.enumerate import (
    EnumeratingGenerator,
    NotEnumerable,
    exact_channel,
    exact_mechanism,
    output_key,
)
from relations.audit.report import (
    AuditReport,
    assert_private,
    audit,
    load_target,
    parse_domain,
)

__all__ = ["SampleAudit", "clopper_pearson", "sample_audit", "AuditReport", "assert_private", "audit", "load_target", "parse_domain", "EnumeratingGenerator", "NotEnumerable", "exact_channel", "exact_mechanism", "output_key"]
