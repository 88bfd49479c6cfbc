"""Exact and certified arithmetic: rationals parsed from text, logarithms of rationals,
certified enclosures (arb balls) and exact comparison of the reals the tool meets.
"""

from __future__ import annotations

from relations._lazy import exports
from relations.numbers._enclosure import (
    DEFAULT_BITS,
    Enclosure,
    ball,
    certified_text,
    interval,
    rational,
    sum_enclosures,
    working_precision,
)
from relations.numbers._logforms import MAX_FORM_BITS, MAX_FORM_TERMS, coprime_basis, form_difference, log_form_sign
from relations.numbers._logs import LogRatio, log_of
from relations.numbers._reals import (
    LADDER,
    ArbExpr,
    Log,
    Rational,
    Real,
    affine_enclosure,
    compare,
    inf,
    kl_bound,
    log_combination,
    log_form,
    log_times,
)
from relations.numbers._rounding import largest_remainder
from relations.numbers._text import (
    MAX_DIGITS,
    MAX_EXPONENT,
    fraction_text,
    json_repr,
    parse_rational,
    parse_rational_list,
    short_text,
)

__all__ = ["DEFAULT_BITS", "Enclosure", "certified_text", "sum_enclosures", "working_precision", "ball", "rational", "interval", "log_of", "LogRatio", "MAX_FORM_TERMS", "MAX_FORM_BITS", "coprime_basis", "log_form_sign", "form_difference", "log_form", "LADDER", "Rational", "Log", "ArbExpr", "Real", "inf", "compare", "log_times", "kl_bound", "log_combination", "affine_enclosure", "largest_remainder", "MAX_EXPONENT", "MAX_DIGITS", "parse_rational", "parse_rational_list", "fraction_text", "short_text", "json_repr"]

# 0.2 submodule names (relations.measures.ratios) resolve to their replacements, with a DeprecationWarning
__getattr__, __dir__ = exports(__name__, {})
