"""Claimed budgets ``NAME OP BOUND`` (``eps_d <= ln(13/7)``), parsed without evaluating anything.

``NAME`` is one of :data:`CLAIM_NAMES`, ``OP`` one of ``<=``, ``<``, ``>=``, ``>``, and
``BOUND`` a decimal, a fraction or ``ln(RATIONAL)``; the bound becomes an exact real
(:mod:`relations.numbers.reals`).  The grammar is in ``docs/claims-and-verdicts.md``.
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

#: The quantities a claim may name (``docs/semantics.md`` defines them).
CLAIM_NAMES = ("eps_i", "eps_d", "eps_m", "sigma_min", "eps_all", "neg_sigma")



_CLAIM = re.compile(r"^\s*([a-z_]+)\s*(<=|>=|<|>)\s*([^<>=\s].*?)\s*$")



_LN = re.compile(r"^ln\((.+)\)$")



@dataclass(frozen=True)
class Claim:
    """A claimed budget ``name op bound``, e.g. ``eps_d <= ln(13/7)`` (:func:`parse_claim`).

    Attributes
    ----------
    text : str
        The claim as written (stripped).
    name : str
        One of :data:`CLAIM_NAMES`.
    op : str
        ``"<="``, ``"<"``, ``">="`` or ``">"``.
    bound : Real
        :class:`~relations.numbers.Log` for ``ln(q)``, otherwise
        :class:`~relations.numbers.Rational`: exact, never a float.
    """

    text: str
    name: str
    op: str
    bound: Real



def parse_claim(text: str) -> Claim:
    """Parse a claimed budget ``NAME OP BOUND`` into an exact :class:`Claim`.

    Parameters
    ----------
    text : str
        ``NAME`` one of :data:`CLAIM_NAMES`, ``OP`` one of ``<=``, ``<``, ``>=``, ``>``,
        ``BOUND`` a decimal, a fraction or ``ln(RATIONAL)``.  Never evaluated as code.

    Returns
    -------
    Claim

    Raises
    ------
    InputError
        One line naming the claim and what is wrong with it.

    Examples
    --------
    Decimals are exact rationals, not binary floats:

    >>> str(parse_claim("eps_m < 1e-3").bound)
    '1/1000'
    >>> c = parse_claim("eps_m <= 1/10")
    >>> c.name, c.op, str(c.bound)
    ('eps_m', '<=', '1/10')
    >>> str(parse_claim("eps_d<ln(13/7)").bound)
    'ln(13/7)'
    >>> parse_claim("eps_d <= ln(0)")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: claim 'eps_d <= ln(0)': ln needs a positive argument
    """
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

