"""User conjectures ``LHS OP RHS`` between privacy notions, parsed into sympy without evaluating anything.

A conjecture compares two expressions (``eps_m <= eps_d * tanh(eps_d / 2)``) built from
numbers (``2``, ``0.25``, ``1e-3``; ``13/7`` is a division of integers, hence exact),
the notions of :data:`NOTIONS` (and the parametrised :data:`PARAMETRISED` ones, e.g.
``renyi(2)``), ``+ - * / ^``, unary minus, parentheses and the functions of
:data:`FUNCTIONS`.  The text is parsed by a lark LALR grammar (:data:`GRAMMAR`, linear
time) and the sympy expression is built node by node from the parse tree, unevaluated
(``evaluate=False``: ``eps_d / eps_d`` stays as written), so no user text ever reaches
``eval`` or ``sympify``.  Limits, checked before any work that could grow with them:
:data:`MAX_CONJECTURE_LENGTH` characters, :data:`MAX_NODES` parse-tree nodes and
:data:`MAX_DEPTH` levels of nesting.  :func:`float_side` and :func:`float_gap` evaluate a side in
floats with the conventions of :mod:`relations.checking._conjecture_eval` (the searches' screening).
The contract is in ``docs/claims-and-verdicts.md``.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from relations.errors import InputError
from relations.measures._notions import NOTIONS as NOTION_SPECS
from relations.notions import BASE_NOTIONS
from relations.notions import RATIO_NOTIONS as _RATIO_NOTIONS
from relations.numbers._text import parse_rational

if TYPE_CHECKING:
    import sympy

__all__ = ["NOTIONS", "RATIO_NOTIONS", "PARAMETRISED", "FUNCTIONS", "OPERATORS", "MAX_CONJECTURE_LENGTH", "MAX_NODES",
           "MAX_DEPTH", "GRAMMAR", "Conjecture", "parse_conjecture", "symbol", "float_side", "float_gap"]

#: Notions a conjecture may name: the budgets of ``docs/semantics.md`` and the further notions of
#: :func:`~relations.checking._quantities.values` (each resolved by name in ``values(mech).reals``).
NOTIONS = BASE_NOTIONS + tuple(name for name, spec in NOTION_SPECS.items() if spec.argument is None)

#: The notions that are logarithms of rationals (``ln q``), decided exactly by rational arithmetic.
RATIO_NOTIONS = _RATIO_NOTIONS

#: Notions with a constant argument, keyed in ``values(mech).reals`` with the argument normalised
#: (``renyi(2)``, ``delta(1/2)``, ``delta(ln(3))``, ``eps_delta(1/1000)``).
PARAMETRISED = ("delta", "renyi", "eps_delta")

#: Functions and their arity (``None``: two or more arguments).
FUNCTIONS = {"ln": 1, "exp": 1, "tanh": 1, "sqrt": 1, "min": None, "max": None}

#: The comparisons.
OPERATORS = ("<=", "<", ">=", ">")

#: Longest conjecture accepted (characters), refused before parsing.
MAX_CONJECTURE_LENGTH = 10_000

#: Most nodes of the parse tree (numbers, names, operations).
MAX_NODES = 2_000

#: Deepest nesting of the parse tree: each operation, unary minus and function call adds a level
#: (a sum of ``n`` terms is ``n`` levels deep); parentheses add none.
MAX_DEPTH = 200

#: The grammar (lark, LALR).  ``^`` binds tightest and to the right (``-x^2 = -(x^2)``, ``2^-1``).
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


@lru_cache(maxsize=1)
def _parser():
    from lark import Lark

    return Lark(GRAMMAR, parser="lalr")


def _shown(text: str) -> str:
    return text if len(text) <= 80 else text[:60] + "..." + text[-17:]


@cache
def symbol(name: str):
    """The sympy symbol of a notion (``name`` as keyed in ``values(mech).reals``), real-valued.

    Examples
    --------
    >>> symbol("eps_d"), symbol("renyi(2)").is_real
    (eps_d, True)
    """
    import sympy

    return sympy.Symbol(name, real=True)


@dataclass(frozen=True, eq=False)
class Conjecture:
    """A parsed conjecture ``lhs op rhs`` (:func:`parse_conjecture`).

    Attributes
    ----------
    text : str
        As written (stripped).
    lhs, rhs : sympy.Expr
        The two sides, unevaluated sympy expressions over :func:`symbol` s.
    op : str
        One of :data:`OPERATORS`.
    notions : tuple of str
        The notions named, in order of first appearance (keys of ``values(mech).reals``).
    """

    text: str
    lhs: sympy.Expr
    op: str
    rhs: sympy.Expr
    notions: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.lhs} {self.op} {self.rhs}"


class _Builder:
    """Parse tree -> sympy, unevaluated; collects the notions named."""

    def __init__(self, text: str):
        self.text = text
        self.notions: list[str] = []

    def error(self, message: str, token=None) -> InputError:
        at = f" at column {token.column}" if getattr(token, "column", None) else ""
        return InputError(f"conjecture {_shown(self.text)!r}: {message}{at}")

    def build(self, tree):
        import sympy

        kind = tree.data
        kids = tree.children
        if kind == "number":
            return sympy.Rational(*_ratio(parse_rational(str(kids[0]), f"conjecture {_shown(self.text)!r}")))
        if kind == "name":
            return self.notion(kids[0])
        if kind == "call":
            return self.call(kids[0], kids[1:])
        if kind == "neg":
            x = self.build(kids[0])
            return -x if x.is_Number else sympy.Mul(sympy.Integer(-1), x, evaluate=False)
        a, b = self.build(kids[0]), self.build(kids[1])
        if kind == "add":
            return sympy.Add(a, b, evaluate=False)
        if kind == "sub":
            return sympy.Add(a, -b if b.is_Number else sympy.Mul(sympy.Integer(-1), b, evaluate=False), evaluate=False)
        if kind == "mul":
            return sympy.Mul(a, b, evaluate=False)
        if kind == "div":
            return sympy.Mul(a, sympy.Pow(b, sympy.Integer(-1), evaluate=False), evaluate=False)
        assert kind == "pow", kind
        return sympy.Pow(a, b, evaluate=False)

    def notion(self, token):
        name = str(token)
        if name in NOTIONS:
            if name not in self.notions:
                self.notions.append(name)
            return symbol(name)
        if name in FUNCTIONS or name in PARAMETRISED:
            raise self.error(f"{name!r} needs an argument in parentheses, e.g. {name}(...)", token)
        raise self.error(f"unknown name {name!r}{_did_you_mean(name)}", token)

    def call(self, token, args):
        import sympy

        name = str(token)
        if name in PARAMETRISED:
            if len(args) != 1:
                raise self.error(f"{name}(...) takes one constant argument", token)
            key = f"{name}({self.parameter(name, args[0], token)})"
            if key not in self.notions:
                self.notions.append(key)
            return symbol(key)
        if name not in FUNCTIONS:
            if name in NOTIONS:
                raise self.error(f"{name!r} is a notion, not a function", token)
            raise self.error(f"unknown function {name!r}{_did_you_mean(name)}", token)
        arity = FUNCTIONS[name]
        if (arity is not None and len(args) != arity) or (arity is None and len(args) < 2):
            raise self.error(f"{name} takes {'one argument' if arity == 1 else 'two or more arguments'}", token)
        xs = [self.build(a) for a in args]
        if name == "min":
            return sympy.Min(*xs, evaluate=False)
        if name == "max":
            return sympy.Max(*xs, evaluate=False)
        if name == "sqrt":
            return sympy.Pow(xs[0], sympy.Rational(1, 2), evaluate=False)
        return {"ln": sympy.log, "exp": sympy.exp, "tanh": sympy.tanh}[name](xs[0], evaluate=False)

    def parameter(self, name: str, tree, token) -> str:
        """A parametrised notion's argument, normalised: a rational (``1/2``), or ``ln(q)`` for ``delta``."""
        if name == "delta" and tree.data == "call" and str(tree.children[0]) == "ln" and len(tree.children) == 2:
            q = self.constant(tree.children[1], token)
            if q <= 0:
                raise self.error("ln needs a positive argument", token)
            return "0" if q == 1 else f"ln({q})"
        value = self.constant(tree, token)
        if name == "renyi" and value <= 0:
            raise self.error("renyi(ALPHA) needs ALPHA > 0", token)
        if name == "eps_delta" and not 0 <= value <= 1:
            raise self.error("eps_delta(DELTA) needs 0 <= DELTA <= 1", token)
        return str(value)

    def constant(self, tree, token) -> Fraction:
        """The exact value of a constant argument: numbers with ``+ - * /`` and unary minus."""
        kind, kids = tree.data, tree.children
        if kind == "number":
            return parse_rational(str(kids[0]), f"conjecture {_shown(self.text)!r}")
        if kind == "neg":
            return -self.constant(kids[0], token)
        if kind in ("add", "sub", "mul", "div"):
            a, b = self.constant(kids[0], token), self.constant(kids[1], token)
            if kind == "div" and b == 0:
                raise self.error("division by zero in an argument", token)
            return {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b if b else a}[kind]
        raise self.error("the argument must be a rational constant (e.g. 2, 1/2, 1e-3)", token)


def _ratio(q: Fraction) -> tuple[int, int]:
    return q.numerator, q.denominator


def _did_you_mean(name: str) -> str:
    close = difflib.get_close_matches(name, [*NOTIONS, *PARAMETRISED, *FUNCTIONS], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else f" (notions: {', '.join(NOTIONS)}; {', '.join(PARAMETRISED)}(...))"


def _check_size(tree, text: str) -> None:
    """Refuse trees above :data:`MAX_NODES` nodes or :data:`MAX_DEPTH` levels (iteratively, no recursion)."""
    from lark import Tree

    nodes, deepest, stack = 0, 0, [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        nodes, deepest = nodes + 1, max(deepest, depth)
        if isinstance(node, Tree):
            stack.extend((c, depth + 1) for c in node.children)
    if nodes > MAX_NODES:
        raise InputError(f"conjecture {_shown(text)!r}: more than {MAX_NODES} terms")
    if deepest > MAX_DEPTH:
        raise InputError(f"conjecture {_shown(text)!r}: nested deeper than {MAX_DEPTH} levels (a chain of n "
                         "operations, e.g. a sum of n terms, counts n levels)")


def parse_conjecture(text: str) -> Conjecture:
    """Parse ``LHS OP RHS`` into a :class:`Conjecture` of two unevaluated sympy expressions.

    Parameters
    ----------
    text : str
        The conjecture (grammar: :data:`GRAMMAR`; ``docs/claims-and-verdicts.md``).

    Returns
    -------
    Conjecture

    Raises
    ------
    InputError
        One line naming the conjecture, what is wrong and the column: a character or token the
        grammar does not allow, an unknown name (with a suggestion), a wrong number of arguments,
        or a limit exceeded.

    Examples
    --------
    >>> c = parse_conjecture("eps_m <= eps_d * tanh(eps_d / 2)")
    >>> str(c), c.notions
    ('eps_m <= eps_d*tanh(eps_d/2)', ('eps_m', 'eps_d'))
    >>> parse_conjecture("eps_d <= 2^-1 + renyi(0.5)").notions
    ('eps_d', 'renyi(1/2)')
    >>> parse_conjecture("eps_m <= eps_dd")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: conjecture 'eps_m <= eps_dd': unknown name 'eps_dd' (did you mean 'eps_d'?) at column 10
    >>> parse_conjecture("__import__('os') <= 1")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: conjecture "__import__('os') <= 1": unexpected character "'" at column 12
    """
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

    if not isinstance(text, str):
        raise InputError(f"conjecture: expected text, got {type(text).__name__}")
    if len(text) > MAX_CONJECTURE_LENGTH:
        raise InputError(f"conjecture of {len(text)} characters: longer than {MAX_CONJECTURE_LENGTH}")
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
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
        column = getattr(exc, "column", None)
        at = f" at column {column}" if isinstance(column, int) and column > 0 and "end" not in what else ""
        raise InputError(f"conjecture {_shown(text)!r}: {what}{at}") from None
    _check_size(tree, text)
    builder = _Builder(text)
    lhs, op, rhs = builder.build(tree.children[0]), str(tree.children[1]), builder.build(tree.children[2])
    if not builder.notions:
        raise InputError(f"conjecture {_shown(text)!r}: names no notion (e.g. eps_m <= eps_d / 2)")
    return Conjecture(text.strip(), lhs, op, rhs, tuple(builder.notions))


# ------------------------------------------------------------------ floats (the searches' screening)


def float_side(expr, values) -> float:
    """One side in floats with the same conventions (``nan`` when undefined), from ``values[name]``.

    ``values`` maps each notion to a float or to a :class:`~relations.numbers._reals.Real`.

    Examples
    --------
    >>> c = parse_conjecture("eps_m <= eps_d * tanh(eps_d / 2)")
    >>> round(float_side(c.rhs, {"eps_d": 1.0}), 6), float_side(c.rhs, {"eps_d": math.inf})
    (0.462117, inf)
    """
    import sympy

    if expr.is_Rational:
        return float(Fraction(int(expr.p), int(expr.q)))
    if expr.is_Symbol:
        return float(values[expr.name])
    xs = [float_side(a, values) for a in expr.args]
    try:
        if isinstance(expr, sympy.Add):
            return math.fsum(xs) if all(math.isfinite(x) for x in xs) else sum(xs)
        if isinstance(expr, sympy.Mul):
            out = 1.0
            for x in xs:
                out *= x
            return out
        if isinstance(expr, sympy.Min):
            return min(xs)
        if isinstance(expr, sympy.Max):
            return max(xs)
        if isinstance(expr, sympy.Pow):
            b, e = xs
            if expr.exp == -1:
                return math.nan if b == 0 else 1 / b
            if b == 0 and e <= 0:
                return math.nan
            return math.nan if b < 0 and not float(e).is_integer() else b ** e
        x = xs[0]
        if isinstance(expr, sympy.exp):
            return math.exp(x)
        if isinstance(expr, sympy.tanh):
            return math.tanh(x)
        return -math.inf if x == 0 else (math.nan if x < 0 else math.log(x))
    except OverflowError:
        return math.inf
    except (ValueError, ZeroDivisionError):
        return math.nan


def float_gap(conj: Conjecture, values) -> float:
    """``lhs - rhs`` in floats, oriented so that a positive gap refutes (``nan`` when undefined).

    For ``>=`` and ``>`` the sides swap roles.  Infinite sides: ``+inf`` when the refuting side is
    infinitely larger, ``-inf`` when the other is, ``nan`` when both are the same infinity.
    """
    a, b = float_side(conj.lhs, values), float_side(conj.rhs, values)
    if conj.op in (">=", ">"):
        a, b = b, a
    if math.isinf(a) and a == b:
        return 0.0 if conj.op in ("<", ">") else -math.inf
    return a - b
