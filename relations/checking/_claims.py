"""Claimed budgets ``NAME OP BOUND`` (``eps_d <= ln(13/7)``, ``renyi(2) < ln(3)``), parsed without evaluating anything.

``NAME`` is one of :data:`CLAIM_NAMES`, with ``(ARGUMENT)`` for the notions that take one
(``delta(1/2)``, ``eps_delta(1/100)``, ``renyi(2)``; :data:`~relations.measures._notions.NOTIONS`),
``OP`` one of ``<=``, ``<``, ``>=``, ``>``, and
``BOUND`` a decimal, a fraction or ``ln(RATIONAL)``; the bound becomes an exact real
(:mod:`relations.numbers._reals`).  The grammar is in ``docs/claims-and-verdicts.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from relations.errors import InputError
from relations.measures._notions import NOTIONS, canonical_name, check_argument
from relations.notions import BASE_NOTIONS
from relations.numbers._logs import LogRatio
from relations.numbers._reals import (
    Log,
    Rational,
    Real,
)
from relations.numbers._text import parse_rational

__all__ = ["CLAIM_NAMES", "MAX_CLAIM_LENGTH", "GRAMMAR", "Claim", "parse_claim"]

#: The quantities a claim may name (``docs/semantics.md`` defines them): the budgets, then the
#: notions of :data:`~relations.measures._notions.NOTIONS` (``delta``, ``eps_delta`` and ``renyi``
#: with an argument in parentheses).
CLAIM_NAMES = BASE_NOTIONS + tuple(NOTIONS)



#: Longest claim accepted (characters): longer text is refused before it is parsed.
MAX_CLAIM_LENGTH = 10_000

#: The claim grammar (lark, LALR: linear time, no backtracking); numbers are checked by
#: :func:`~relations.numbers._text.parse_rational`.
GRAMMAR = r"""
    claim: quantity OP bound
    quantity: NAME ("(" argument ")")?
    ?argument: number | "ln" "(" number ")" -> ln
    ?bound: number | "ln" "(" number ")" -> ln
    number: NUMBER
    NAME: /[A-Za-z_][A-Za-z_0-9]*/
    OP: "<=" | ">=" | "<" | ">"
    NUMBER: /[0-9.+\-\/eE]+/
    %import common.WS
    %ignore WS
"""


def _shown(text: str) -> str:
    """The claim as an error message shows it: at most 80 characters."""
    return text if len(text) <= 80 else text[:60] + "..." + text[-17:]


@lru_cache(maxsize=1)
def _parser():
    from lark import Lark

    return Lark(GRAMMAR, start="claim", parser="lalr")



@dataclass(frozen=True)
class Claim:
    """A claimed budget ``name op bound``, e.g. ``eps_d <= ln(13/7)`` (:func:`parse_claim`).

    Attributes
    ----------
    text : str
        The claim as written (stripped).
    name : str
        One of :data:`CLAIM_NAMES`, with its argument in canonical form for a notion that takes
        one (``"delta(1/2)"``): the key of :attr:`Values.reals <relations.checking.Values>`.
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
    >>> c = parse_claim("delta(0.5) <= 0.2")
    >>> c.name, str(c.bound)
    ('delta(1/2)', '1/5')
    >>> parse_claim("renyi(1) < 2")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: claim 'renyi(1) < 2': renyi(alpha) needs a rational alpha > 1, got 1
    >>> parse_claim("eps_d <= ln(0)")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: claim 'eps_d <= ln(0)': ln needs a positive argument
    """
    from lark.exceptions import UnexpectedInput

    if len(text) > MAX_CLAIM_LENGTH:
        raise InputError(f"claim of {len(text)} characters: longer than {MAX_CLAIM_LENGTH}")
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        column = getattr(exc, "column", None)
        at = f" at column {column}" if isinstance(column, int) and column > 0 else ""
        raise InputError(f"claim {_shown(text)!r}: expected NAME OP BOUND, e.g. 'eps_d<=ln(13/7)' "
                         f"(unexpected input{at})") from None
    quantity, op, bound_tree = tree.children[0], str(tree.children[1]), tree.children[2]
    name = str(quantity.children[0])
    if name not in CLAIM_NAMES:
        raise InputError(f"claim {_shown(text)!r}: unknown quantity {name!r} (one of {', '.join(CLAIM_NAMES)})")
    if name in NOTIONS:
        arg = _exact(quantity.children[1], text) if len(quantity.children) > 1 else None
        try:
            name = canonical_name(name, check_argument(name, arg))
        except InputError as exc:
            raise InputError(f"claim {_shown(text)!r}: {exc}") from None
    elif len(quantity.children) > 1:
        raise InputError(f"claim {_shown(text)!r}: {name} takes no argument")
    return Claim(text.strip(), name, op, _exact(bound_tree, text))


def _exact(tree, text: str) -> Real:
    """A number or ``ln(number)`` of the parse tree as an exact real."""
    number = tree if tree.data == "number" else tree.children[0]
    q = parse_rational(str(number.children[0]), f"claim {_shown(text)!r}")
    if tree.data == "ln":
        if q <= 0:
            raise InputError(f"claim {_shown(text)!r}: ln needs a positive argument")
        return Log(LogRatio.of(q))
    return Rational(q)

