"""The one grammar of claims and conjectures, and the exact constants written in them.

A *statement* is ``LHS OP RHS``, ``OP`` one of :data:`OPERATORS`, each side built from numbers
(``2``, ``0.25``, ``1e-3``), names (``eps_d``), calls (``tanh(eps_d / 2)``, ``renyi(2)``),
``+ - * / ^``, unary ``-`` and ``+`` and parentheses.  :data:`GRAMMAR` (lark, LALR: linear time, no
backtracking) parses every statement; what a name means is decided by the reader of the tree:

* a conjecture (:func:`~relations.checking._conjectures.parse_conjecture`) takes any expression on
  either side and turns it into sympy, unevaluated;
* a claim (:func:`~relations.checking._claims.parse_claim`) is the statement whose left side is one
  notion and whose right side is an exact constant: ``eps_d <= ln(13/7)``, ``renyi(2) < ln(3)``.

The exact constants are read here, never evaluated as code: :func:`rational` reads a rational
constant (numbers with ``+ - * /`` and unary minus: ``13/7``, ``-3/2``, ``1e-3``) and :func:`exact`
also ``ln`` of one, as the :class:`~relations.numbers._reals.Real` a claim's bound or a notion's
argument is; :func:`notion_key` checks a notion's argument
(:func:`~relations.measures._notions.check_argument`) and spells it canonically (``delta(0.5)`` is
``delta(1/2)``).  A tree is refused above :data:`MAX_NODES` nodes or :data:`MAX_DEPTH` levels
(:func:`check_size`) before anything recursive walks it.  The contract is in
``docs/claims-and-verdicts.md``.

Examples
--------
>>> tree = parse_tree("renyi(1.5) < ln(3)")
>>> argument, bound = exact(tree.children[0].children[1], "claim"), exact(tree.children[2], "claim")
>>> notion_key("renyi", argument), str(bound)
('renyi(3/2)', 'ln(3)')
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast

from relations.errors import InputError
from relations.measures._notions import canonical_name, check_argument
from relations.numbers._logs import MAX_POWER_BITS as _MAX_POWER_BITS
from relations.numbers._logs import LogRatio
from relations.numbers._reals import Log, Rational, Real
from relations.numbers._text import parse_rational

__all__ = ["GRAMMAR", "OPERATORS", "MAX_NODES", "MAX_DEPTH", "Problem", "NotConstant", "DividesByZero", "shown",
           "parse_tree", "syntax_error", "error_column", "column", "span", "check_size", "check_powers",
           "MAX_POWER_BITS", "MAX_EXPONENT_BITS", "inexact_part", "rational",
           "exact", "notion_key"]

#: The one grammar of claims and conjectures (lark, LALR).  ``^`` binds tightest and to the right
#: (``-x^2 = -(x^2)``, ``2^-1``); unary ``+`` is the identity (``eps_d <= +1``).
GRAMMAR = r"""
    start: sum OP sum
    ?sum: product
        | sum "+" product -> add
        | sum "-" product -> sub
    ?product: unary
        | product "*" unary -> mul
        | product "/" unary -> div
    ?unary: power
        | "-" unary -> neg
        | "+" unary -> pos
    ?power: atom
        | atom "^" unary -> pow
    ?atom: NUMBER -> number
        | NAME -> name
        | NAME "(" sum ("," sum)* ")" -> call
        | "(" sum ")"
    OP: "<=" | ">=" | "<" | ">"
    NAME: /[A-Za-z_][A-Za-z_0-9]*/
    NUMBER: /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/
    %import common.WS
    %ignore WS
"""

#: The comparisons.
OPERATORS = ("<=", "<", ">=", ">")

#: Most bits (numerator and denominator, an upper bound computed from the text before anything is evaluated)
#: that the powers of constants in one statement may produce together (``10^10^10`` would have about
#: ``3.3e10``): the limit of :data:`relations.numbers._logs.MAX_POWER_BITS`, 2^20.
MAX_POWER_BITS = _MAX_POWER_BITS

#: Most bits of an exponent of a constant read exactly (a larger one is refused: its power could not be written).
MAX_EXPONENT_BITS = 64

#: Most nodes of the parse tree (numbers, names, operations).
MAX_NODES = 2_000

#: Deepest nesting of the parse tree: each operation, unary sign and function call adds a level
#: (a sum of ``n`` terms is ``n`` levels deep); parentheses add none.
MAX_DEPTH = 200

# The rational constants: numbers, + - * / and unary signs.
_RATIONAL = frozenset({"number", "neg", "pos", "add", "sub", "mul", "div"})


class Problem(Exception):
    """What is wrong with a part of a statement: ``message``, and ``node``, the part (for its column)."""

    def __init__(self, message: str, node: Any):
        super().__init__(message)
        self.message = message
        self.node = node


class NotConstant(Problem):
    """A part that must be a rational constant is not (a name, a call, a power)."""


class DividesByZero(Problem):
    """A rational constant divides by zero."""


def shown(text: str) -> str:
    """A statement as an error message shows it: at most 80 characters.

    Examples
    --------
    >>> len(shown("eps_d <= " + "1" * 200))
    80
    """
    return text if len(text) <= 80 else text[:60] + "..." + text[-17:]


@lru_cache(maxsize=1)
def _parser():
    from lark import Lark

    return Lark(GRAMMAR, parser="lalr", propagate_positions=True)


def parse_tree(text: str):
    """The parse tree of ``LHS OP RHS`` (``tree.children``: the left side, the ``OP`` token, the right side).

    Parameters
    ----------
    text : str
        The statement; the caller has bounded its length.

    Returns
    -------
    lark.Tree

    Raises
    ------
    lark.exceptions.UnexpectedInput
        Where the text leaves the grammar (:func:`syntax_error` says how, :func:`error_column` where).

    Examples
    --------
    >>> parse_tree("eps_m <= eps_d / 2").children[2].data
    'div'
    """
    return _parser().parse(text)


def syntax_error(exc, text: str) -> str:
    """What a lark error of ``text`` is, in words, with its column when it has one.

    Examples
    --------
    >>> from lark.exceptions import UnexpectedInput
    >>> try:
    ...     parse_tree("eps_m <= eps_d.x")
    ... except UnexpectedInput as exc:
    ...     syntax_error(exc, "eps_m <= eps_d.x")
    "unexpected character '.' at column 15"
    """
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream
        assert pos is not None  # always set on UnexpectedCharacters (lark types it on the base class)
        what = f"unexpected character {text[pos]!r}" if 0 <= pos < len(text) else "unexpected input"
    elif isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        what = "unexpected end (expected LHS OP RHS, e.g. 'eps_m <= eps_d / 2')"
    elif isinstance(exc, UnexpectedToken):
        what = f"unexpected {str(exc.token)!r}"
    else:  # pragma: no cover
        what = "unexpected input"
    at = error_column(exc)
    return f"{what} at column {at}" if at is not None and "end" not in what else what


def error_column(exc) -> int | None:
    """The column (from 1) a lark error points at, or None.

    Examples
    --------
    >>> from lark.exceptions import UnexpectedInput
    >>> try:
    ...     parse_tree("eps_d <= ; 1")
    ... except UnexpectedInput as exc:
    ...     error_column(exc)
    10
    """
    at = getattr(exc, "column", None)
    return at if isinstance(at, int) and at > 0 else None


def column(node) -> int | None:
    """The column (from 1) where a node of the tree (or a token) starts.

    Examples
    --------
    >>> column(parse_tree("eps_d <= ln(3)").children[2])
    10
    """
    meta = getattr(node, "meta", None)
    at = getattr(meta, "column", None) if meta is not None else getattr(node, "column", None)
    return at if isinstance(at, int) and at > 0 else None


def span(node, text: str) -> str:
    """The text a node of the tree was parsed from.

    Examples
    --------
    >>> text = "eps_d <= -(13)/7"
    >>> span(parse_tree(text).children[2], text)
    '-(13)/7'
    """
    meta = getattr(node, "meta", None)
    if meta is not None and not meta.empty:
        return text[meta.start_pos:meta.end_pos]
    return str(node)


def check_size(tree, label: str) -> None:
    """Refuse trees above :data:`MAX_NODES` nodes or :data:`MAX_DEPTH` levels (iteratively, no recursion).

    Parameters
    ----------
    tree : lark.Tree
        A parse tree (:func:`parse_tree`).
    label : str
        How error messages name the statement (``"conjecture 'eps_m <= ...'"``).

    Raises
    ------
    InputError
        One line naming the limit.

    Examples
    --------
    >>> check_size(parse_tree("eps_m <= " + "+".join(["eps_d"] * 1500)), "conjecture '...'")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: conjecture '...': more than 2000 terms
    """
    from lark import Tree

    nodes, deepest, stack = 0, 0, [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        nodes, deepest = nodes + 1, max(deepest, depth)
        if isinstance(node, Tree):
            stack.extend((c, depth + 1) for c in node.children)
    if nodes > MAX_NODES:
        raise InputError(f"{label}: more than {MAX_NODES} terms")
    if deepest > MAX_DEPTH:
        raise InputError(f"{label}: nested deeper than {MAX_DEPTH} levels (a chain of n "
                         "operations, e.g. a sum of n terms, counts n levels)")


def check_powers(tree, label: str) -> None:
    """Refuse a statement whose powers of constants would be too large to compute exactly, before any is computed.

    Every part without a notion in it is a constant; an upper bound on the bits of its exact value is
    computed from the text alone (numbers: their bits; ``+ - * /`` and calls: the sum of their parts' bits;
    ``a^(p/q)``: ``|p|`` times ``a``'s bits).  The bits of all powers of constants together may not exceed
    :data:`MAX_POWER_BITS`, and the exponent of a constant must be a rational constant of at most
    :data:`MAX_EXPONENT_BITS` bits (or any exponent of ``0``, ``1`` or ``-1``).  A power of an expression
    with a notion in it is left to the reader of the tree (nothing in it is evaluated exactly here).

    Parameters
    ----------
    tree : lark.Tree
        A parse tree within :func:`check_size`'s limits.
    label : str
        How error messages name the statement.

    Raises
    ------
    InputError
        One line naming the power and the limit.

    Examples
    --------
    >>> check_powers(parse_tree("eps_d <= 2^20 * eps_d"), "conjecture")
    >>> check_powers(parse_tree("eps_d <= 10^10^10 * eps_d"), "conjecture")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: conjecture: 10^10^10 is too large to compute exactly (about 3.3e+10 bits; the limit for the powers in a statement is 1048576 bits)
    """
    from lark import Tree

    info: dict[int, tuple[int, Fraction | None] | None] = {}  # id(node): (bits bound, value if small), None: not constant
    total = 0
    stack: list[tuple[Any, bool]] = [(tree, False)]
    while stack:
        node, done = stack.pop()
        if not isinstance(node, Tree):
            continue
        if not done:
            stack.append((node, True))
            stack.extend((c, False) for c in node.children if isinstance(c, Tree))
            continue
        kind, kids = node.data, [c for c in node.children if isinstance(c, Tree)]
        parts = [info[id(c)] for c in kids]
        got: tuple[int, Fraction | None] | None
        if kind == "number":
            try:
                q = parse_rational(str(node.children[0]), label)
            except InputError:
                got = (0, None)  # refused with its own message by the reader of the tree
            else:
                bits = q.numerator.bit_length() + q.denominator.bit_length()
                got = (bits, q if bits <= 4 * MAX_EXPONENT_BITS else None)
        elif kind == "name" or any(p is None for p in parts) or kind in ("comparison", "statement"):
            got = None
        elif kind in ("pos", "neg"):
            bits, value = cast("tuple[int, Fraction | None]", parts[0])
            got = (bits, None if value is None else (value if kind == "pos" else -value))
        elif kind == "pow":
            (bits, base), (_, exponent) = cast("list[tuple[int, Fraction | None]]", parts)
            if base is not None and base in (0, 1, -1):
                got = (2, None)
            elif exponent is None or abs(exponent.numerator).bit_length() > MAX_EXPONENT_BITS:
                raise InputError(f"{label}: {shown(span_text(node))} is too large to compute exactly (its exponent "
                                 f"has more than {MAX_EXPONENT_BITS} bits or is not a rational constant)")
            else:
                n = abs(exponent.numerator)  # a^(p/q) is computed as the q-th root of a^p, at worst
                size = (n * max(bits, 1) if base is None else
                        math.ceil(n * (math.log2(abs(base.numerator)) + math.log2(base.denominator)))) + bits
                total += size
                if total > MAX_POWER_BITS:
                    raise InputError(f"{label}: {shown(span_text(node))} is too large to compute exactly (about "
                                     f"{float(total):.2g} bits; the limit for the powers in a statement is "
                                     f"{MAX_POWER_BITS} bits)")
                small = exponent.denominator == 1 and size <= 4 * MAX_EXPONENT_BITS
                got = (size, base ** int(exponent) if base is not None and small and (base or exponent > 0) else None)
        else:  # + - * / and calls of constants
            bits = sum(p[0] for p in cast("list[tuple[int, Fraction | None]]", parts)) + 1
            values = [p[1] for p in cast("list[tuple[int, Fraction | None]]", parts)]
            value = None
            if bits <= 4 * MAX_EXPONENT_BITS and kind in ("add", "sub", "mul", "div") and None not in values:
                a, b = cast("list[Fraction]", values)
                value = a + b if kind == "add" else a - b if kind == "sub" else a * b if kind == "mul" else (
                    a / b if b else None)
            got = (bits, value)
        info[id(node)] = got


def span_text(node) -> str:
    """The text of a parse-tree part, rebuilt from its tokens (for messages): ``10^10^10``."""
    from lark import Tree

    if not isinstance(node, Tree):
        return str(node)
    kind, kids = node.data, node.children
    if kind in ("number", "name"):
        return str(kids[0])
    if kind == "call":
        return f"{kids[0]}(" + ", ".join(span_text(k) for k in kids[1:]) + ")"
    if kind in ("neg", "pos"):
        return ("-" if kind == "neg" else "+") + _wrapped(kids[0])
    symbol = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "^"}.get(kind)
    if symbol is None:
        return " ".join(span_text(k) for k in kids)
    return _wrapped(kids[0]) + symbol + _wrapped(kids[1], symbol == "^")


def _wrapped(node, right_of_power: bool = False) -> str:
    from lark import Tree

    text = span_text(node)
    simple = not isinstance(node, Tree) or node.data in ("number", "name", "call") or (
        right_of_power and node.data == "pow")
    return text if simple else f"({text})"


def _is_ln(node) -> bool:
    return node.data == "call" and str(node.children[0]) == "ln" and len(node.children) == 2


def inexact_part(node):
    """The first part of ``node`` that keeps it from being an exact constant (None when it is one).

    An exact constant is a rational constant (numbers with ``+ - * /`` and unary signs) or ``ln`` of
    one: the shape of a claim's bound and of a notion's argument.  Nothing is evaluated.

    Examples
    --------
    >>> inexact_part(parse_tree("eps_d <= ln(13/7)").children[2]) is None
    True
    >>> inexact_part(parse_tree("eps_d <= 1 + exp(1)").children[2]).data
    'call'
    """
    if _is_ln(node):
        node = node.children[1]
    stack = [node]
    while stack:
        part = stack.pop()
        if part.data not in _RATIONAL:
            return part
        if part.data != "number":
            stack.extend(reversed(part.children))
    return None


def rational(node, where: str) -> Fraction:
    """The exact value of a rational constant: numbers with ``+ - * /`` and unary signs.

    Parameters
    ----------
    node : lark.Tree
        A part of a parse tree (at most :data:`MAX_DEPTH` deep: :func:`check_size`).
    where : str
        How the user named the statement, for the messages of
        :func:`~relations.numbers._text.parse_rational`.

    Returns
    -------
    Fraction

    Raises
    ------
    NotConstant
        For a name, a call or a power.
    DividesByZero
        For a division by zero (``node``: the division).
    InputError
        For a number that :func:`~relations.numbers._text.parse_rational` refuses (too many digits,
        an exponent out of range).

    Examples
    --------
    >>> rational(parse_tree("eps_d <= -3/2 + 1e-3").children[2], "claim")
    Fraction(-1499, 1000)
    """
    kind, kids = node.data, node.children
    if kind == "number":
        return parse_rational(str(kids[0]), where)
    if kind == "neg":
        return -rational(kids[0], where)
    if kind == "pos":
        return rational(kids[0], where)
    if kind in ("add", "sub", "mul", "div"):
        a, b = rational(kids[0], where), rational(kids[1], where)
        if kind == "div" and b == 0:
            raise DividesByZero("division by zero in an argument", node)
        return {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b if b else a}[kind]
    raise NotConstant("the argument must be a rational constant (e.g. 2, 1/2, 1e-3)", node)


def exact(node, where: str) -> Real:
    """An exact constant as a real: :class:`~relations.numbers.Log` for ``ln(q)``, else
    :class:`~relations.numbers.Rational`.

    Parameters
    ----------
    node : lark.Tree
        A part of a parse tree.
    where : str
        How the user named the statement (for number errors).

    Returns
    -------
    Real

    Raises
    ------
    Problem
        :class:`NotConstant`, :class:`DividesByZero`, or ``ln`` of a number that is not positive.
    InputError
        For a number :func:`~relations.numbers._text.parse_rational` refuses.

    Examples
    --------
    >>> str(exact(parse_tree("eps_d <= ln(26/14)").children[2], "claim"))
    'ln(13/7)'
    >>> exact(parse_tree("eps_d <= ln(1 - 1)").children[2], "claim")
    Traceback (most recent call last):
    ...
    relations.checking._grammar.Problem: ln needs a positive argument
    """
    if _is_ln(node):
        q = rational(node.children[1], where)
        if q <= 0:
            raise Problem("ln needs a positive argument", node)
        return Log(LogRatio.of(q))
    return Rational(rational(node, where))


def notion_key(name: str, argument: Real | None) -> str:
    """A notion of :data:`~relations.measures._notions.NOTIONS` with its argument, checked and spelled canonically.

    Claims and conjectures both name their notions through here, with the argument read by :func:`exact`.

    Parameters
    ----------
    name : str
        The notion's name (``"renyi"``).
    argument : Real or None
        Its argument, None when it is written without one.

    Returns
    -------
    str
        The key of :attr:`Values.reals <relations.checking.Values>`: ``"delta(1/2)"``, ``"delta(ln(3))"``.

    Raises
    ------
    InputError
        When :func:`~relations.measures._notions.check_argument` refuses the argument (a message that
        does not name the statement).

    Examples
    --------
    >>> notion_key("delta", exact(parse_tree("delta(ln(1)) <= 1").children[0].children[1], "claim"))
    'delta(0)'
    >>> notion_key("renyi", Rational(Fraction(1)))
    Traceback (most recent call last):
    ...
    relations.errors.InputError: renyi(alpha) needs a rational alpha > 0, alpha != 1, got 1 (alpha = 1 is kl)
    """
    return canonical_name(name, check_argument(name, argument))
