"""Evaluating catalogued relations and user claims on one mechanism, exactly.

:func:`check` measures a mechanism once (:mod:`relations.measures`), turns each
quantity into an exact real (:mod:`relations.reals`) and evaluates every
relation of :data:`relations.catalogue.CATALOGUE`:

* ratio relations are decided by rational comparison (``ln a <= ln b`` iff
  ``a <= b``; the bound ``g (ca a + cs s)`` is ``ln(q_a^(g ca) q_s^(g cs))``);
* anything with ``eps_m`` compares certified enclosures at rising precision,
  with an exact algebraic tie-breaker, and is ``undecided`` rather than guessed;
* an infinite premise makes an implication hold vacuously; an infinite
  conclusion with a finite bound makes it fail (SPEC section 4);
* a non-implication is not decided by one mechanism; the outcome says whether
  this mechanism is a witness for it (finite premise, infinite conclusion).

User claims ``NAME OP BOUND`` (:func:`parse_claim`) are decided the same way.
Float-mode (``.npz``) mechanisms are compared on their float values and every
outcome says ``approximate``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from relations.errors import InputError
from relations.numbers.logs import LogRatio
from relations.numbers.reals import (
    Log,
    Rational,
    Real,
)
from relations.numbers.text import parse_rational

__all__ = ["CLAIM_NAMES", "Claim", "parse_claim"]

CLAIM_NAMES = ("eps_i", "eps_d", "eps_m", "sigma_min", "eps_all", "neg_sigma")



_CLAIM = re.compile(r"^\s*([a-z_]+)\s*(<=|>=|<|>)\s*([^<>=\s].*?)\s*$")



_LN = re.compile(r"^ln\((.+)\)$")



@dataclass(frozen=True)
class Claim:
    """``name op bound``: e.g. ``eps_d <= ln(13/7)``; ``bound`` is an exact real."""

    text: str
    name: str
    op: str
    bound: Real



def parse_claim(text: str) -> Claim:
    """Parse ``NAME OP BOUND`` (SPEC section 5); a malformed claim is an :class:`InputError`."""
    m = _CLAIM.match(text)
    if not m:
        raise InputError(f"claim {text!r}: expected NAME OP BOUND, e.g. 'eps_d<=ln(13/7)'")
    name, op, bound_text = m.groups()
    if name not in CLAIM_NAMES:
        raise InputError(f"claim {text!r}: unknown quantity {name!r} (one of {', '.join(CLAIM_NAMES)})")
    ln = _LN.match(bound_text.replace(" ", ""))
    if ln:
        q = parse_rational(ln.group(1), f"claim {text!r}")
        if q <= 0:
            raise InputError(f"claim {text!r}: ln needs a positive argument")
        bound: Real = Log(LogRatio.of(q))
    else:
        bound = Rational(parse_rational(bound_text, f"claim {text!r}"))
    return Claim(text.strip(), name, op, bound)

