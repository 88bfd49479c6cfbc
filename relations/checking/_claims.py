"""Claimed budgets ``NAME OP BOUND`` (``eps_d <= ln(13/7)``, ``renyi(2) < ln(3)``), parsed without evaluating anything.

A claim is a conjecture (:mod:`relations.checking._conjectures`) whose left side is one notion and whose
right side is an exact constant; it is parsed by the same grammar (:data:`GRAMMAR`,
:mod:`relations.checking._grammar`) and decided by the same decider
(:func:`relations.checking._conjecture_eval.decide`, through :func:`relations.checking.decide`).
``NAME`` is one of :data:`CLAIM_NAMES`, with ``(ARGUMENT)`` for the notions that take one
(``delta(1/2)``, ``eps_delta(1/100)``, ``renyi(2)``; :data:`~relations.measures._notions.NOTIONS`),
``OP`` one of ``<=``, ``<``, ``>=``, ``>``, and ``BOUND`` (like ``ARGUMENT``) a decimal, a fraction,
a rational constant such as ``-3/2`` or ``1/2 + 1/4``, or ``ln`` of one; the bound becomes an exact real
(:mod:`relations.numbers._reals`).  The grammar is in ``docs/claims-and-verdicts.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from relations.checking._conjectures import Conjecture, Side
from relations.checking._grammar import (
    GRAMMAR,
    DividesByZero,
    Problem,
    check_size,
    column,
    error_column,
    exact,
    inexact_part,
    notion_key,
    parse_tree,
    shown,
    span,
)
from relations.errors import InputError
from relations.measures._notions import NOTIONS
from relations.notions import names
from relations.numbers._reals import Real

__all__ = ["CLAIM_NAMES", "MAX_CLAIM_LENGTH", "GRAMMAR", "Claim", "parse_claim"]

#: The quantities a claim may name (``docs/semantics.md`` defines them): the budgets, then the
#: notions of :data:`~relations.measures._notions.NOTIONS` (``delta``, ``eps_delta`` and ``renyi``
#: with an argument in parentheses).
CLAIM_NAMES = names()

#: Longest claim accepted (characters): longer text is refused before it is parsed.
MAX_CLAIM_LENGTH = 10_000


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

    @cached_property
    def statement(self) -> Conjecture:
        """The claim as the conjecture ``name op bound`` it is (its sympy sides built only when asked for).

        Examples
        --------
        >>> c = parse_claim("renyi(2) < ln(3)").statement
        >>> c.notions, c.left.notion, str(c.right.constant), str(c)
        (('renyi(2)',), 'renyi(2)', 'ln(3)', 'renyi(2) < log(3)')
        """
        return Conjecture(self.text, self.op, Side(notion=self.name), Side(constant=self.bound), (self.name,))


def parse_claim(text: str) -> Claim:
    """Parse a claimed budget ``NAME OP BOUND`` into an exact :class:`Claim`.

    Parameters
    ----------
    text : str
        ``NAME`` one of :data:`CLAIM_NAMES`, ``OP`` one of ``<=``, ``<``, ``>=``, ``>``,
        ``BOUND`` a decimal, a fraction (a rational constant: numbers with ``+ - * /``) or
        ``ln(RATIONAL)``.  Parsed by the grammar of conjectures; never evaluated as code.

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
    relations.errors.InputError: claim 'renyi(1) < 2': renyi(alpha) needs a rational alpha > 0, alpha != 1, got 1 (alpha = 1 is kl)
    >>> parse_claim("eps_d <= ln(0)")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: claim 'eps_d <= ln(0)': ln needs a positive argument
    """
    from lark.exceptions import UnexpectedInput

    if len(text) > MAX_CLAIM_LENGTH:
        raise InputError(f"claim of {len(text)} characters: longer than {MAX_CLAIM_LENGTH}")
    where = f"claim {shown(text)!r}"
    try:
        tree = parse_tree(text)
    except UnexpectedInput as exc:
        raise _unexpected(where, error_column(exc)) from None
    check_size(tree, where)
    quantity, op, bound_tree = tree.children[0], str(tree.children[1]), tree.children[2]
    arguments = quantity.children[1:] if quantity.data == "call" else []
    if quantity.data not in ("name", "call"):  # not NAME OP BOUND: say where it stops being one
        raise _unexpected(where, _column(quantity, text))
    if len(arguments) > 1:
        raise _unexpected(where, _column(arguments[1], text, before=True))
    for part in (arguments[0] if arguments else None, bound_tree):
        odd = None if part is None else inexact_part(part)
        if odd is not None:
            raise _unexpected(where, _column(odd, text))
    name = str(quantity.children[0])
    if name not in CLAIM_NAMES:
        raise InputError(f"{where}: unknown quantity {name!r} (one of {', '.join(CLAIM_NAMES)})")
    if name in NOTIONS:
        arg = _exact(arguments[0], text, where) if arguments else None
        try:
            name = notion_key(name, arg)
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
    elif arguments:
        raise InputError(f"{where}: {name} takes no argument")
    return Claim(text.strip(), name, op, _exact(bound_tree, text, where))


def _unexpected(where: str, at: int | None) -> InputError:
    return InputError(f"{where}: expected NAME OP BOUND, e.g. 'eps_d<=ln(13/7)' (unexpected input"
                      f"{f' at column {at}' if at else ''})")


def _column(node, text: str, before: bool = False) -> int | None:
    """Where the claim stops being ``NAME OP BOUND`` at ``node``: the operator of an operation, the
    separator before an extra argument (``before``), else where the node starts."""
    meta = getattr(node, "meta", None)
    if meta is None or meta.empty:
        return column(node)
    if before:  # the "," before an extra argument
        pos = meta.start_pos - 1
        while pos > 0 and text[pos].isspace():
            pos -= 1
    elif node.data in ("add", "sub", "mul", "div", "pow"):  # the operator after the first operand
        pos = getattr(node.children[0].meta, "end_pos", meta.start_pos)
        while pos < len(text) - 1 and text[pos].isspace():
            pos += 1
    else:
        return column(node)
    return pos - text.rfind("\n", 0, pos)


def _exact(tree, text: str, where: str) -> Real:
    """An argument or the bound (an exact constant: the shape is checked) as an exact real."""
    try:
        return exact(tree, where)
    except DividesByZero as problem:
        raise InputError(f"{where}: {span(problem.node, text)!r} divides by zero") from None
    except Problem as problem:
        raise InputError(f"{where}: {problem.message}") from None
