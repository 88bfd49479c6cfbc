"""Exact and certified arithmetic: rationals parsed from text, logarithms of rationals,
certified enclosures (arb balls) and exact comparison of the reals the tool meets.
"""

from __future__ import annotations

from relations.numbers.enclosure import DEFAULT_BITS, Enclosure, sum_enclosures
from relations.numbers.logs import log_of, LogRatio
from relations.numbers.reals import LADDER, Rational, Log, ArbExpr, Real, inf, compare, log_times, kl_bound, log_combination, affine_enclosure
from relations.numbers.rounding import largest_remainder
from relations.numbers.text import MAX_EXPONENT, MAX_DIGITS, parse_rational, parse_rational_list, fraction_text, short_text, json_repr

__all__ = ["DEFAULT_BITS", "Enclosure", "sum_enclosures", "log_of", "LogRatio", "LADDER", "Rational", "Log", "ArbExpr", "Real", "inf", "compare", "log_times", "kl_bound", "log_combination", "affine_enclosure", "largest_remainder", "MAX_EXPONENT", "MAX_DIGITS", "parse_rational", "parse_rational_list", "fraction_text", "short_text", "json_repr"]
