"""User conjectures ``LHS OP RHS`` between privacy notions, parsed into sympy without evaluating anything.

A conjecture compares two expressions (``eps_m <= eps_d * tanh(eps_d / 2)``) built from
numbers (``2``, ``0.25``, ``1e-3``; ``13/7`` is a division of integers, hence exact),
the notions of :data:`NOTIONS` and the parametrised :data:`PARAMETRISED` ones with an exact
constant argument, checked and spelled as in claims (``renyi(2)``, ``delta(0.5)`` is
``delta(1/2)``, ``delta(ln(3))``, ``eps_delta(1e-3)``), ``+ - * / ^``, unary signs, parentheses
and the functions of :data:`FUNCTIONS`.  The text is parsed by the one grammar of claims and
conjectures (:data:`GRAMMAR`, :mod:`relations.checking._grammar`; linear time) and the sympy
expression is built node by node from the parse tree, unevaluated (``evaluate=False``:
``eps_d / eps_d`` stays as written), so no user text ever reaches ``eval`` or ``sympify``.
Limits, checked before any work that could grow with them: :data:`MAX_CONJECTURE_LENGTH`
characters, :data:`MAX_NODES` parse-tree nodes and :data:`MAX_DEPTH` levels of nesting.

A claim (:mod:`relations.checking._claims`) is the conjecture whose left side is one notion and whose
right side is an exact constant: each :class:`Side` says whether it is one notion or an exact
constant, which :func:`relations.checking._conjecture_eval.decide` compares without sympy, and a
claim's sides build their sympy expressions only when asked (:attr:`Side.expr`).
:func:`float_side` and :func:`float_gap` evaluate a side in floats with the conventions of
:mod:`relations.checking._conjecture_eval` (the searches' screening).  The contract is in
``docs/claims-and-verdicts.md``.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from relations.checking._grammar import (
    GRAMMAR,
    MAX_DEPTH,
    MAX_NODES,
    OPERATORS,
    Problem,
    check_powers,
    check_size,
    exact,
    inexact_part,
    notion_key,
    parse_tree,
    shown,
    syntax_error,
)
from relations.errors import InputError
from relations.notions import RATIO_NOTIONS as _RATIO_NOTIONS
from relations.notions import names
from relations.numbers._reals import Log, Rational, Real
from relations.numbers._text import parse_rational

if TYPE_CHECKING:
    import sympy

__all__ = ["NOTIONS", "RATIO_NOTIONS", "PARAMETRISED", "FUNCTIONS", "OPERATORS", "MAX_CONJECTURE_LENGTH", "MAX_NODES",
           "MAX_DEPTH", "GRAMMAR", "Side", "Conjecture", "parse_conjecture", "symbol", "float_side", "float_gap"]

#: Notions a conjecture may name: the budgets of ``docs/semantics.md`` and the further notions of
#: :func:`~relations.checking._quantities.values` (each resolved by name in ``values(mech).reals``).
NOTIONS = names(lambda row: row.paper or row.argument is None)

#: The notions that are logarithms of rationals (``ln q``), decided exactly by rational arithmetic.
RATIO_NOTIONS = _RATIO_NOTIONS

#: Notions with a constant argument, keyed in ``values(mech).reals`` with the argument checked and
#: spelled canonically (:func:`~relations.measures._notions.canonical_name`: ``renyi(2)``,
#: ``delta(1/2)``, ``delta(ln(3))``, ``eps_delta(1/1000)``).
PARAMETRISED = names(lambda row: not row.paper and row.argument is not None)

#: Functions and their arity (``None``: two or more arguments).
FUNCTIONS = {"ln": 1, "exp": 1, "tanh": 1, "sqrt": 1, "min": None, "max": None}

#: Longest conjecture accepted (characters), refused before parsing.
MAX_CONJECTURE_LENGTH = 10_000


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
class Side:
    """One side of a statement: its sympy expression, and whether it is one notion or an exact constant.

    Attributes
    ----------
    notion : str or None
        The notion the side is (a key of ``values(mech).reals``), when it is exactly one.
    constant : Real or None
        The side's value when it is an exact constant: a rational constant
        (:class:`~relations.numbers.Rational`) or ``ln`` of a positive one (:class:`~relations.numbers.Log`).
    built : sympy.Expr or None
        The expression as parsed; None for a claim's side, whose :attr:`expr` is built from
        ``notion`` or ``constant`` when first asked for (claims are decided without sympy when they can be).

    Examples
    --------
    >>> from fractions import Fraction
    >>> Side(constant=Rational(Fraction(1, 2))).expr
    1/2
    """

    notion: str | None = None
    constant: Real | None = None
    built: Any = field(default=None, repr=False)

    @cached_property
    def expr(self) -> sympy.Expr:
        """The side as an unevaluated sympy expression over :func:`symbol` s."""
        if self.built is not None:
            return self.built
        if self.notion is not None:
            return symbol(self.notion)
        import sympy

        c = self.constant
        if isinstance(c, Log):
            q = c.log.ratio
            assert q is not None  # an exact constant is finite
            return sympy.log(sympy.Rational(q.numerator, q.denominator), evaluate=False)
        assert isinstance(c, Rational), c
        return sympy.Rational(c.value.numerator, c.value.denominator)

    def float_value(self, values) -> float:
        """The side in floats, as :func:`float_side` gives it, from ``values[name]`` (floats or reals)."""
        if self.notion is not None:
            return float(values[self.notion])
        if self.built is None:
            return float(self.constant)  # type: ignore[arg-type]  # a claim's side: a notion or a constant
        return float_side(self.built, values)


@dataclass(frozen=True, eq=False)
class Conjecture:
    """A parsed conjecture ``lhs op rhs`` (:func:`parse_conjecture`; a claim's: :attr:`Claim.statement
    <relations.checking._claims.Claim.statement>`).

    Attributes
    ----------
    text : str
        As written (stripped).
    op : str
        One of :data:`OPERATORS`.
    left, right : Side
        The two sides.
    notions : tuple of str
        The notions named, in order of first appearance (keys of ``values(mech).reals``).
    lhs, rhs : sympy.Expr
        The two sides' unevaluated sympy expressions over :func:`symbol` s (:attr:`Side.expr`).
    """

    text: str
    op: str
    left: Side
    right: Side
    notions: tuple[str, ...]

    @property
    def lhs(self) -> sympy.Expr:
        """The left side as a sympy expression."""
        return self.left.expr

    @property
    def rhs(self) -> sympy.Expr:
        """The right side as a sympy expression."""
        return self.right.expr

    def __str__(self) -> str:
        return f"{self.lhs} {self.op} {self.rhs}"


class _Builder:
    """Parse tree -> sympy, unevaluated; collects the notions named."""

    def __init__(self, text: str):
        self.text = text
        self.where = f"conjecture {shown(text)!r}"
        self.notions: list[str] = []

    def error(self, message: str, token=None) -> InputError:
        at = f" at column {token.column}" if getattr(token, "column", None) else ""
        return InputError(f"{self.where}: {message}{at}")

    def side(self, tree) -> Side:
        """One side: its expression, and the notion or exact constant it is, if it is one."""
        expr = self.build(tree)
        notion = None
        if tree.data == "name" or tree.data == "call" and str(tree.children[0]) in PARAMETRISED:
            notion = expr.name  # built: a notion (anything else named is refused by build)
        constant = None
        if inexact_part(tree) is None:
            try:
                constant = exact(tree, self.where)
            except Problem:  # 1/0, ln(0): not a constant but undefined or infinite (conjecture_eval)
                constant = None
        return Side(notion, constant, expr)

    def build(self, tree):
        import sympy

        kind = tree.data
        kids = tree.children
        if kind == "number":
            return sympy.Rational(*_ratio(parse_rational(str(kids[0]), self.where)))
        if kind == "name":
            return self.notion(kids[0])
        if kind == "call":
            return self.call(kids[0], kids[1:])
        if kind == "pos":
            return self.build(kids[0])
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
            try:
                arg = exact(args[0], self.where)  # a number parse_rational refuses: its own message
            except Problem as problem:
                raise self.error(problem.message, token) from None
            try:
                key = notion_key(name, arg)
            except InputError as exc:
                raise self.error(str(exc), token) from None
            if key not in self.notions:
                self.notions.append(key)
            return symbol(key)
        if name in NOTIONS and len(args) == 1 and _repeat_count(args[0]) is not None:
            key = f"{name}(repeat({_repeat_count(args[0])}))"  # the notion of k independent uses
            if key not in self.notions:
                self.notions.append(key)
            return symbol(key)
        if name not in FUNCTIONS:
            if name in NOTIONS:
                raise self.error(f"{name!r} is a notion, not a function (or NAME(repeat(k)), k a whole number "
                                 f"from 1 to {MAX_CONJECTURE_REPEAT})", token)
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


#: Largest ``k`` of ``NAME(repeat(k))`` in a conjecture: each mechanism tried is measured through its counts.
MAX_CONJECTURE_REPEAT = 64


def _repeat_count(tree) -> int | None:
    """``k`` when ``tree`` is ``repeat(k)`` with ``k`` a whole number from 1 to :data:`MAX_CONJECTURE_REPEAT`."""
    if getattr(tree, "data", None) != "call" or str(tree.children[0]) != "repeat" or len(tree.children) != 2:
        return None
    arg = tree.children[1]
    if getattr(arg, "data", None) != "number":
        return None
    text = str(arg.children[0])
    if not text.isdigit() or not 1 <= int(text) <= MAX_CONJECTURE_REPEAT:
        return None
    return int(text)


def _ratio(q: Fraction) -> tuple[int, int]:
    return q.numerator, q.denominator


def _did_you_mean(name: str) -> str:
    close = difflib.get_close_matches(name, [*NOTIONS, *PARAMETRISED, *FUNCTIONS], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else f" (notions: {', '.join(NOTIONS)}; {', '.join(PARAMETRISED)}(...))"


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
        an argument a notion does not take (as in claims: ``renyi(1)``), or a limit exceeded.

    Examples
    --------
    >>> c = parse_conjecture("eps_m <= eps_d * tanh(eps_d / 2)")
    >>> str(c), c.notions
    ('eps_m <= eps_d*tanh(eps_d/2)', ('eps_m', 'eps_d'))
    >>> parse_conjecture("eps_d <= 2^-1 + renyi(1.5) + delta(ln(3))").notions
    ('eps_d', 'renyi(3/2)', 'delta(ln(3))')
    >>> parse_conjecture("eps_m <= eps_dd")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: conjecture 'eps_m <= eps_dd': unknown name 'eps_dd' (did you mean 'eps_d'?) at column 10
    >>> parse_conjecture("renyi(0) <= eps_d")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: conjecture 'renyi(0) <= eps_d': renyi(alpha) needs a rational alpha > 0, alpha != 1, got 0 at column 1
    >>> parse_conjecture("__import__('os') <= 1")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: conjecture "__import__('os') <= 1": unexpected character "'" at column 12
    """
    from lark.exceptions import UnexpectedInput

    if not isinstance(text, str):
        raise InputError(f"conjecture: expected text, got {type(text).__name__}")
    if len(text) > MAX_CONJECTURE_LENGTH:
        raise InputError(f"conjecture of {len(text)} characters: longer than {MAX_CONJECTURE_LENGTH}")
    try:
        tree = parse_tree(text)
    except UnexpectedInput as exc:
        raise InputError(f"conjecture {shown(text)!r}: {syntax_error(exc, text)}") from None
    check_size(tree, f"conjecture {shown(text)!r}")
    check_powers(tree, f"conjecture {shown(text)!r}")  # before sympy or a prover evaluates a constant
    builder = _Builder(text)
    left, op, right = builder.side(tree.children[0]), str(tree.children[1]), builder.side(tree.children[2])
    if not builder.notions:
        raise InputError(f"conjecture {shown(text)!r}: names no notion (e.g. eps_m <= eps_d / 2)")
    return Conjecture(text.strip(), op, left, right, tuple(builder.notions))


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
            if b == 0 and e <= 0:  # 0^0 and 0^-1: undefined
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
