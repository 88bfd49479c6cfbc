"""Proofs of user conjectures from the base of facts (:mod:`relations.proofs._facts`), with a trace.

A conjecture (:mod:`relations.checking._conjectures`) over any notions is **proved** when:

1. **every infinite case holds**: each pattern of infinite named notions consistent with the
   finiteness rules (:func:`~relations.proofs._facts.finite_closure`: "``eps_d`` and ``sigma_min``
   finite force ``eps_i`` finite", "``kl`` finite forces ``eps_d`` finite", ...) makes the
   conjecture ``True`` in sympy's extended reals, whatever the finite notions are;
2. **the finite case follows from facts**: z3 finds the negated conjecture unsatisfiable in real
   arithmetic together with the facts over notions finite whenever the named ones are (so real
   arithmetic is sound for them).  ``exp``, ``ln``, ``tanh`` and ``sqrt`` are eliminated by
   monotone substitution: each application is a fresh real with the inequalities every such
   function satisfies (``e^u >= 1 + u``, ``tanh(u) <= u`` for ``u >= 0``, ``sqrt(u)^2 = u``,
   monotonicity between applications, ...), so what remains is polynomial real arithmetic, which z3
   decides.  A conjecture's ``ln(u)`` and ``sqrt(u)`` count only once ``u > 0`` (``u >= 0``) follows
   from the facts; a division by anything but a constant is not handled.

Why z3 and not an LP alone: proofs need case splits (``min``, ``max``, the conditional function
inequalities) and products of facts, which an LP does not find; but the **trace** asks for the
multipliers, so once z3 has named the facts (its unsat core), an LP (scipy's HiGHS) looks for
non-negative multipliers ``l_i`` with ``rhs - lhs = sum l_i (b_i - a_i) + c``, ``c >= 0`` a constant,
over the facts ``a_i <= b_i`` (function applications as atoms), and the identity is checked
exactly in sympy.  When there are such multipliers the trace prints them (a certificate anyone can
check by expanding); otherwise it names the facts and says z3 combined them non-linearly.

**Soundness and scope.** Only facts of the setting are used.  The first attempt uses only facts and
finiteness rules that hold on every mechanism of the setting; a proof that needs a restricted one
(:data:`~relations.proofs._facts.RESTRICTIONS`, e.g. prior on every component of an explicit graph)
has ``whole = False`` and its scope says which mechanisms it covers.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from relations.checking._conjectures import Conjecture
from relations.errors import InputError
from relations.notions import NOTIONS, names
from relations.proofs._facts import RESTRICTIONS, Instance, facts, finite_closure, key_of
from relations.proofs._z3context import deterministic_solver, fresh_context

__all__ = ["PROVABLE_NOTIONS", "Proof", "prove_conjecture", "scope_text", "undecided_sides"]

#: The notions a proof may name: every notion (those without facts can only be proved from ranges).
PROVABLE_NOTIONS = names()


@dataclass(frozen=True)
class Proof:
    """A proof of a conjecture from facts.

    Attributes
    ----------
    smt2 : str
        The SMT-LIB script: the function inequalities, the facts used and the negated conjecture
        (``unsat`` proves the finite case).
    used : tuple of str
        The facts used (catalogue ids, notion-fact ids with their instance).
    scope : str
        The mechanisms the proof covers, in words.
    trace : tuple of str
        The proof in lines: the infinite cases, the facts with their multipliers, scopes and references.
    whole : bool
        Whether the scope is every mechanism of the setting.
    restrictions : frozenset of str
        The scope's restrictions (:data:`~relations.proofs._facts.RESTRICTIONS`); empty when ``whole``.
    multipliers : tuple of (str, str) or None
        Each fact used and its multiplier (a rational, as text) when the finite case is a linear
        combination of facts; ``None`` when z3 combined them otherwise.
    """

    smt2: str
    used: tuple[str, ...]
    scope: str
    trace: tuple[str, ...] = ()
    whole: bool = True
    restrictions: frozenset[str] = frozenset()
    multipliers: tuple[tuple[str, str], ...] | None = field(default=None)


#: Most terms the linear-multiplier route expands a side into (an upper bound counted before expanding), and the
#: largest integer exponent it expands (as the z3 encoding: a power beyond it is outside the encoding).
MAX_EXPANDED_TERMS = 2_000
MAX_EXPANDED_POWER = 16


def _expanded_terms(e) -> int:
    """An upper bound on the terms of ``sympy.expand(e)``, capped just above :data:`MAX_EXPANDED_TERMS`
    (a power with an integer exponent beyond :data:`MAX_EXPANDED_POWER` counts as too many)."""
    import math

    import sympy

    cap = MAX_EXPANDED_TERMS + 1
    if isinstance(e, sympy.Add):
        return min(cap, sum(_expanded_terms(a) for a in e.args))
    if isinstance(e, sympy.Mul):
        out = 1
        for a in e.args:
            out = min(cap, out * _expanded_terms(a))
        return out
    if isinstance(e, sympy.Pow) and e.exp.is_Integer:
        n = int(e.exp)
        if abs(n) > MAX_EXPANDED_POWER:
            return cap
        t = _expanded_terms(e.base)
        return min(cap, math.comb(t + n - 1, n)) if n > 0 else t
    return 1


class _Unsupported(Exception):
    pass


def scope_text(setting: str, restrictions: frozenset[str]) -> str:
    """The mechanisms a proof with these restrictions covers, in words.

    Examples
    --------
    >>> scope_text("local", frozenset())
    'every local mechanism (any domain, any prior)'
    >>> scope_text("central", frozenset({"prior-on-components"}))
    'central mechanisms where explicit neighbour graphs: each connected component with a neighbour pair has an input of positive prior'
    """
    if setting == "local":
        return "every local mechanism (any domain, any prior)"
    if not restrictions:
        return "every central mechanism (every D^r, every explicit neighbour graph, any prior)"
    return "central mechanisms where " + "; ".join(RESTRICTIONS[r] for r in sorted(restrictions))


# ------------------------------------------------------------------ sympy -> z3


class _Encoder:
    """sympy expressions over notion symbols -> z3 terms; function applications become atoms with axioms."""

    def __init__(self, setting: str):
        import z3

        self.z3 = z3
        self.setting = setting
        self.vars: dict[str, Any] = {}
        self.atoms: dict[Any, tuple[str, Any, Any]] = {}  # sympy expr -> (kind, atom, argument)
        self.side: list[Any] = []  # conditions under which the conjecture's functions are what they say
        self.collect_side = False
        self.diam = z3.Real("DIAM")

    def var(self, name: str):
        if name == "DIAM":
            return self.diam
        key = key_of(name)
        if key not in self.vars:
            self.vars[key] = self.z3.Real(key)
        return -self.vars[key] if name == "neg_sigma" else self.vars[key]

    def __call__(self, expr):
        import sympy

        z3 = self.z3
        if expr.is_Rational:
            return z3.Q(int(expr.p), int(expr.q))
        if expr.is_Symbol:
            return self.var(expr.name)
        if isinstance(expr, sympy.Pow):
            if expr.exp.is_Integer:
                n = int(expr.exp)
                if n == -1 and expr.base.is_Rational and expr.base != 0:
                    return z3.Q(int(expr.base.q), int(expr.base.p))
                if 0 <= n <= 16:
                    b = self(expr.base)
                    return z3.RealVal(1) if n == 0 else b if n == 1 else z3.Product(*[b] * n)
                if -16 <= n < 0:  # 1 / base^|n|: the inverse of base, an atom with inv * base = 1 where base != 0
                    inv = self.atom("inv", sympy.Pow(expr.base, -1), expr.base)
                    return inv if n == -1 else z3.Product(*[inv] * -n)
                raise _Unsupported
            if expr.exp == sympy.S.Half:
                return self.atom("sqrt", expr, expr.base)
            raise _Unsupported
        if isinstance(expr, sympy.exp):
            return self.atom("exp", expr, expr.args[0])
        if isinstance(expr, sympy.log):
            return self.atom("ln", expr, expr.args[0])
        if isinstance(expr, sympy.tanh):
            return self.atom("tanh", expr, expr.args[0])
        args = [self(a) for a in expr.args]
        if isinstance(expr, sympy.Add):
            return z3.Sum(*args)
        if isinstance(expr, sympy.Mul):
            return z3.Product(*args)
        if isinstance(expr, (sympy.Min, sympy.Max)):
            out = args[0]
            for a in args[1:]:
                out = z3.If(a > out, a, out) if isinstance(expr, sympy.Max) else z3.If(a < out, a, out)
            return out
        raise _Unsupported

    def atom(self, kind: str, expr, arg):
        if expr in self.atoms:
            atom, u = self.atoms[expr][1], self.atoms[expr][2]
        else:
            u = self(arg)
            atom = self.z3.Real(f"{kind}!{len(self.atoms)}")
            self.atoms[expr] = (kind, atom, u)
        if self.collect_side and kind in ("ln", "sqrt", "inv"):
            self.side.append(u > 0 if kind == "ln" else u >= 0 if kind == "sqrt" else u != 0)
        return atom

    def axioms(self) -> list:
        """Inequalities every application satisfies, and monotonicity between applications of one function."""
        z3 = self.z3
        out = []
        for kind, a, u in self.atoms.values():
            if kind == "exp":
                out += [a > 0, a >= 1 + u, z3.Implies(u >= 0, a >= 1 + u + u * u / 2),
                        z3.Implies(u <= 0, a <= 1), z3.Implies(u < 1, a * (1 - u) <= 1)]
            elif kind == "ln":
                out += [z3.Implies(u > 0, a <= u - 1), z3.Implies(u > 0, a * u >= u - 1)]
            elif kind == "tanh":
                out += [a > -1, a < 1, z3.Implies(u >= 0, z3.And(a >= 0, a <= u)),
                        z3.Implies(u <= 0, z3.And(a <= 0, a >= u))]
            elif kind == "sqrt":
                out += [a >= 0, z3.Implies(u >= 0, a * a == u)]
            elif kind == "inv":
                out += [z3.Implies(u != 0, a * u == 1)]
        items = list(self.atoms.values())
        for (k1, a1, u1), (k2, a2, u2) in itertools.permutations(items, 2):
            if k1 == k2 and k1 not in ("sqrt", "inv"):  # sqrt is monotone through a^2 = u, inv through a u = 1
                defined = z3.And(u1 > 0, u2 > 0) if k1 == "ln" else z3.BoolVal(True)
                out.append(z3.Implies(z3.And(defined, u1 <= u2), a1 <= a2))
                if k1 != "tanh":
                    out.append(z3.Implies(z3.And(defined, u1 < u2), a1 < a2))  # exp and ln are strictly increasing
            if k1 == "exp" and k2 == "ln":  # e^w against v = e^(ln v), by strict monotonicity of exp
                out.append(z3.Implies(z3.And(u2 > 0, a2 <= u1), u2 <= a1))
                out.append(z3.Implies(z3.And(u2 > 0, a2 >= u1), u2 >= a1))
                out.append(z3.Implies(z3.And(u2 > 0, a2 < u1), u2 < a1))
                out.append(z3.Implies(z3.And(u2 > 0, a2 > u1), u2 > a1))
        out += self.identities()
        return out

    def identities(self) -> list:
        """Algebraic identities between applications whose arguments are proportional, so that rewrites of one
        another are one term: ``e^(k u) = (e^u)^k`` for integers ``|k| <= 4`` (``e^-u e^u = 1``), and
        ``tanh(w) (e^(2w) + 1) = e^(2w) - 1`` (``tanh(eps_d / 2)`` is ``(e^eps_d - 1) / (e^eps_d + 1)``)."""
        import sympy

        z3 = self.z3
        out = []
        apps = [(node, kind, a) for node, (kind, a, _) in self.atoms.items() if kind in ("exp", "tanh")]
        for (n1, k1, a1), (n2, k2, a2) in itertools.permutations(apps, 2):
            ratio = n2.args[0] / n1.args[0] if n1.args[0] != 0 else None  # sympy cancels proportional arguments
            if ratio is None or not ratio.is_Rational:
                continue
            if k1 == k2 == "exp" and ratio.is_Integer and int(ratio) not in (0, 1) and abs(int(ratio)) <= 4:
                k = int(ratio)
                power = z3.Product(*[a1] * abs(k))
                out.append(a2 == power if k > 0 else a2 * power == 1)
            elif k1 == "tanh" and k2 == "exp" and ratio in (2, -2):  # n2 = e^(+-2w)
                out.append(a1 * (a2 + 1) == (a2 - 1 if ratio == 2 else 1 - a2))
        return out

    def inequality(self, lhs, op: str, rhs):
        a, b = self(lhs), self(rhs)
        return {"<=": a <= b, "<": a < b, ">=": a >= b, ">": a > b}[op]


# ------------------------------------------------------------------ the infinite cases


@dataclass(frozen=True)
class _Goal:
    """A statement to prove: the conjecture, or one of its infinite cases with the infinities substituted."""

    text: str
    op: str
    lhs: Any
    rhs: Any
    notions: tuple[str, ...]


def _patterns(conj, setting: str, universe: list[str], allow: frozenset[str]):
    """Each consistent pattern of infinite named notions: ``(infinite keys, finite keys)``."""
    keys = sorted({key_of(n) for n in conj.notions})
    always, _ = finite_closure((), setting, keys, allow=allow)
    can = [k for k in keys if k not in always]
    for size in range(1, len(can) + 1):
        for infinite in itertools.combinations(can, size):
            finite = set(keys) - set(infinite)
            if finite_closure(finite, setting, universe, allow=allow)[0] & set(infinite):
                continue  # impossible: the finite named notions force one of these finite
            yield set(infinite), finite


def _forced(infinite: set[str], keys: list[str], setting: str, subs: dict) -> dict:
    """Values the infinities force on finite notions, from the equality facts of the whole setting: ``k = f(...)``
    whose right side is a finite constant once the infinite notions are substituted (``hellinger = 1 -
    exp(-renyi(1/2) / 2)`` is 1 where ``renyi(1/2)`` is infinite)."""
    import sympy

    out = {}
    for fact in facts(setting):
        if " = " not in fact.statement:
            continue
        for inst in fact.instances(keys, setting):
            if inst.restrictions:
                continue
            q = inst.conjectures[0]
            names = {key_of(x.name) for x in q.rhs.free_symbols}
            if not q.lhs.is_Symbol or key_of(q.lhs.name) in infinite or not names or not names <= infinite:
                continue
            value = q.rhs.xreplace(subs).doit()
            if value.is_number and value.is_finite and value.is_real:
                out[q.lhs] = value
    return out


def _positive(setting: str) -> set[str]:
    """The notions a fact of the whole setting says are positive (``prior_vulnerability > 0``)."""
    import re

    return {m.group(1) for f in facts(setting) if not f.restrictions
            for m in [re.fullmatch(r"(\w+) > 0", f.statement)] if m}


def _substituted(conj, infinite: set[str], setting: str = "local") -> _Goal | bool:
    """The conjecture with the infinite notions substituted, and the values they force (:func:`_forced`):
    True/False when sympy decides it (``ln(0) = -inf``; a notion a fact says is positive is positive), else the
    rest."""
    import sympy

    from relations.checking._conjectures import symbol

    subs: dict = {}
    for n in conj.notions:
        if key_of(n) in infinite:
            subs[symbol(n)] = -sympy.oo if n == "sigma_min" else sympy.oo
    subs.update(_forced(infinite, [key_of(n) for n in conj.notions], setting, dict(subs)))
    positive = {symbol(n): sympy.Symbol(n, positive=True) for n in conj.notions
                if key_of(n) not in infinite and n in _positive(setting) and symbol(n) not in subs}

    def value(side):
        with sympy.evaluate(False):
            side = side.xreplace({**subs, **positive})
        side = side.replace(lambda e: isinstance(e, sympy.log) and e.args[0].is_zero, lambda e: -sympy.oo)
        return side.doit()

    try:
        lhs, rhs = value(conj.lhs), value(conj.rhs)
        if lhs is sympy.nan or rhs is sympy.nan:
            return True  # a side is inf - inf, 0 * inf, ...: undefined on every such mechanism, so no counterexample
        rel = {"<=": sympy.Le, "<": sympy.Lt, ">=": sympy.Ge, ">": sympy.Gt}[conj.op](lhs, rhs)
    except (TypeError, ValueError):
        return False
    if rel is sympy.true or rel is sympy.false:
        return bool(rel)
    back = {v: k for k, v in positive.items()}
    lhs, rhs = lhs.xreplace(back), rhs.xreplace(back)
    bad = (sympy.oo, -sympy.oo, sympy.zoo, sympy.nan)
    if any(lhs.has(b) or rhs.has(b) for b in bad):
        return False
    names = tuple(n for n in conj.notions if key_of(n) not in infinite)
    text = f"{lhs} {conj.op} {rhs}"
    return _Goal(text, conj.op, lhs, rhs, names)


# ------------------------------------------------------------------ multipliers (an LP)


@dataclass(frozen=True)
class _Row:
    """One non-negative quantity of a linear certificate: a fact's ``b - a``, or a function inequality's."""

    label: str
    inst: Instance | None
    gap: _Gap
    text: str
    free: bool = False  # an equality: its multiplier may have either sign


@dataclass(frozen=True)
class _Gap:
    """A row's quantity, made once per expression and setting (:func:`_gap`), with every function application
    written as its placeholder (:func:`_placeholder`).

    Attributes
    ----------
    nodes : tuple
        The function applications, in the order :func:`_multipliers` meets them (the order it numbers its atoms
        in, so that a cached gap gives the atoms, hence the monomials and the LP, of the computation it replaces).
    terms : tuple of (tuple of (Symbol, int), Expr), or None
        The expanded polynomial: each monomial as ``(symbol, exponent)`` pairs, with its coefficient; None when it
        is not a polynomial in its symbols.
    """

    nodes: tuple[Any, ...]
    terms: tuple[tuple[tuple[tuple[Any, int], ...], Any], ...] | None


#: The placeholder symbol of each function application (:func:`_placeholder`), and the application of each.
_PLACEHOLDERS: dict[Any, Any] = {}
_APPLICATIONS: dict[Any, Any] = {}


def _placeholder(node):
    """The symbol standing for a function application in the cached gaps: one per application, for the process
    (a ``Dummy`` named ``atom``: no notion's symbol, and :func:`_nonnegative` reads it as an atom)."""
    import sympy

    if node not in _PLACEHOLDERS:
        symbol = sympy.Dummy("atom")
        _PLACEHOLDERS[node] = symbol
        _APPLICATIONS[symbol] = node
    return _PLACEHOLDERS[node]


@functools.lru_cache(maxsize=16384)
def _flat(e, setting: str) -> tuple[tuple[Any, ...], Any] | None:
    """``(applications met, expanded e)`` with ``exp``, ``ln``, ``tanh`` and non-integer powers as placeholders, in
    the order a preorder traversal meets them; None when :func:`_multipliers` cannot use ``e`` (``min``, ``max``,
    too many terms once expanded)."""
    import sympy

    from relations.proofs._facts import diam_symbol

    if isinstance(e, (sympy.Min, sympy.Max)):
        return None
    e = e.doit() if hasattr(e, "doit") else e
    if setting == "local":
        e = e.xreplace({diam_symbol(): sympy.Integer(1)})
    repl: dict[Any, Any] = {}
    for node in sympy.preorder_traversal(e):
        if isinstance(node, (sympy.Min, sympy.Max)):
            return None
        if isinstance(node, (sympy.exp, sympy.log, sympy.tanh)) or (
                isinstance(node, sympy.Pow) and not node.exp.is_Integer):
            repl.setdefault(node, _placeholder(node))
    e = e.xreplace(repl)
    if _expanded_terms(e) > MAX_EXPANDED_TERMS:
        return None  # checked before expanding: (eps_d + 1)^100000 would never end
    return tuple(repl), sympy.expand(e)


def _terms(nodes: tuple[Any, ...], expr) -> _Gap:
    """``expr`` (expanded, over notions and placeholders) as a :class:`_Gap`."""
    import sympy

    symbols = sorted(expr.free_symbols, key=sympy.default_sort_key)
    try:
        poly = sympy.Poly(expr, *symbols) if symbols else sympy.Poly(expr, sympy.Dummy())
    except sympy.PolynomialError:
        return _Gap(nodes, None)
    terms = tuple((tuple((s, int(k)) for s, k in zip(symbols, m) if k), c) for m, c in poly.as_dict().items())
    return _Gap(nodes, terms)


@functools.lru_cache(maxsize=16384)
def _gap(lhs, op: str, rhs, setting: str) -> _Gap | None:
    """``rhs - lhs`` (``lhs - rhs`` for ``>=``), ``>= 0`` when the inequality holds; None when unusable."""
    first, second = (_flat(rhs, setting), _flat(lhs, setting)) if op in ("<=", "<") else (
        _flat(lhs, setting), _flat(rhs, setting))
    if first is None or second is None:
        return None
    return _terms(tuple(dict.fromkeys((*first[0], *second[0]))), first[1] - second[1])


@functools.lru_cache(maxsize=16384)
def _row_text(a, b) -> str:
    return f"{b} - ({a})"


def _nonnegative(u) -> bool:
    """``u`` is a polynomial with positive coefficients in non-negative notions (every notion but ``sigma_min``)."""
    import sympy

    if u.is_Rational:
        return bool(u >= 0)
    try:
        poly = sympy.Poly(u, *sorted(u.free_symbols, key=str))
    except sympy.PolynomialError:
        return False
    return all(c >= 0 for c in poly.coeffs()) and all(
        s.name != "sigma_min" and not s.name.startswith("atom") for s in u.free_symbols)


@functools.lru_cache(maxsize=4096)
def _axioms(node, setting: str) -> tuple[tuple[Any, ...], tuple[_Row, ...]] | None:
    """The function inequalities of one application, as rows (each true wherever the function is defined), and the
    applications its argument holds (in the order met); None when its argument is unusable."""
    import sympy

    flat = _flat(node.args[0] if not isinstance(node, sympy.Pow) else node.base, setting)
    if flat is None:
        return None
    met, u = flat
    a = _placeholder(node)
    shown = str(node)
    out = []

    def row(label, gap, text, free=False):
        out.append(_Row(label, None, _terms(met, sympy.expand(gap) if free else gap), text, free))

    if isinstance(node, sympy.exp):
        row(f"axiom: {shown} >= 1 + {sympy.Add(1, node.args[0]) - 1}", a - 1 - u, f"{shown} - 1 - ({node.args[0]})")
    elif isinstance(node, sympy.log):
        row(f"axiom: {shown} <= {node.args[0]} - 1", u - 1 - a, f"{node.args[0]} - 1 - {shown}")
    elif isinstance(node, sympy.tanh):
        row(f"axiom: {shown} <= 1", 1 - a, f"1 - {shown}")
        if _nonnegative(u):
            row(f"axiom: {shown} <= {node.args[0]} ({node.args[0]} >= 0)", u - a, f"{node.args[0]} - {shown}")
            row(f"axiom: {shown} >= 0 ({node.args[0]} >= 0)", a, shown)
    elif isinstance(node, sympy.Pow) and node.exp == sympy.S.Half:
        row(f"axiom: {shown} >= 0", a, shown)
        row(f"axiom: {shown}^2 = {node.base}", a**2 - u, f"{shown}^2 - ({node.base})", free=True)
    return met, tuple(out)


def _multipliers(conj, used: list[Instance], setting: str) -> list[tuple[_Row, Fraction]] | None:
    """Rationals ``l >= 0`` with ``rhs - lhs = sum l (b - a) + c``, ``c >= 0``, over the facts ``a <= b`` of ``used``
    and the function inequalities of the applications in them, checked exactly (rational arithmetic on the
    coefficients of the expanded polynomials); or None.

    The function applications are atoms, numbered in the order met (the target, then each fact, then the axioms'
    arguments); each side's expansion into a polynomial is made once per expression (:func:`_gap`, with
    placeholders for the atoms) and only renamed here, so a prover asked many conjectures over the same facts
    does not expand them again."""
    import numpy as np
    import sympy
    from scipy.optimize import linprog

    atoms: dict[Any, Any] = {}

    def met(nodes) -> None:
        for node in nodes:
            atoms.setdefault(node, sympy.Symbol(f"atom{len(atoms)}"))

    target = _gap(conj.lhs, conj.op, conj.rhs, setting)
    if target is None:
        return None
    met(target.nodes)
    rows = []
    for inst in used:
        for k, q in enumerate(inst.conjectures):
            a, b = (q.lhs, q.rhs) if q.op in ("<=", "<") else (q.rhs, q.lhs)
            gap = _gap(q.lhs, q.op, q.rhs, setting)
            if gap is None:
                return None
            met(gap.nodes)
            rows.append(_Row(inst.id + ("" if k == 0 else " (>=)"), inst, gap, _row_text(a, b)))
    for node in list(atoms):
        axioms = _axioms(node, setting)
        if axioms is None:
            return None
        met(axioms[0])
        rows += axioms[1]
    gaps = [target, *[r.gap for r in rows]]

    def name(s):
        return atoms[_APPLICATIONS[s]] if s in _APPLICATIONS else s

    gens = sorted({name(s) for g in gaps for m, _ in g.terms or () for s, _ in m}, key=str)
    if not gens:
        return None
    if any(g.terms is None for g in gaps):
        return None
    index = {s: i for i, s in enumerate(gens)}
    dicts: list[dict[tuple[int, ...], Any]] = []
    for g in gaps:
        d = {}
        for pairs, c in g.terms or ():
            exps = [0] * len(gens)
            for s, k in pairs:
                exps[index[name(s)]] = k
            d[tuple(exps)] = c
        dicts.append(d)
    monomials = sorted({m for d in dicts for m in d if any(m)})
    coeff = [[float(d.get(m, 0)) for d in dicts] for m in monomials]
    n = len(rows)
    if n == 0:  # nothing to combine: the target names notions no fact speaks of
        return None
    a_eq = np.array([[c[i + 1] for i in range(n)] for c in coeff]) if coeff else np.zeros((0, n))
    b_eq = np.array([c[0] for c in coeff])
    res = linprog(np.ones(n), A_eq=a_eq if len(b_eq) else None, b_eq=b_eq if len(b_eq) else None,
                  bounds=[(None, None) if r.free else (0, None) for r in rows], method="highs")
    if res.status != 0:
        return None
    lam = [Fraction(float(x)).limit_denominator(10**6) for x in res.x]
    rest: dict[tuple[int, ...], Any] = dict(dicts[0])  # target - sum l_i gap_i, monomial by monomial
    for weight, d in zip(lam, dicts[1:]):
        if weight:
            times = sympy.Rational(weight.numerator, weight.denominator)
            for monomial, c in d.items():
                rest[monomial] = rest.get(monomial, sympy.Integer(0)) - times * c
    constant = rest.get((0,) * len(gens), sympy.Integer(0))
    if any(c != 0 for m, c in rest.items() if any(m)) or not constant.is_Rational or constant < 0 or (
            conj.op in ("<", ">") and constant == 0):
        return None
    return [(r, q) for r, q in zip(rows, lam) if q]


# ------------------------------------------------------------------ the prover


def _universe(conj: Conjecture, setting: str) -> list[str]:
    """The notion keys a proof may go through: the named ones, every notion without an argument, ``renyi(2)``."""
    simple = [n for n, row in NOTIONS.items() if row.argument is None and not (n == "cmi" and setting == "central")]
    return list(dict.fromkeys([*(key_of(n) for n in conj.notions), *(key_of(n) for n in simple), "renyi(2)"]))


def _instances(setting: str, allowed: set[str], allow: frozenset[str]) -> list[Instance]:
    from relations.proofs._facts import diam_symbol

    out = []
    for fact in facts(setting):
        for inst in fact.instances(allowed, setting):
            if not inst.restrictions <= allow:
                continue
            try:
                names = {key_of(s.name) for q in inst.conjectures for s in (*q.lhs.free_symbols, *q.rhs.free_symbols)
                         if s != diam_symbol()}
            except InputError:  # a notion this version does not parse is no fact here
                continue
            if names <= allowed:
                out.append(inst)
    return out


@fresh_context
def _attempt(conj: Conjecture, setting: str, instances: list[Instance], timeout_ms: int):
    """z3 over ``instances``: ``(core instances, smt2)`` when the negated conjecture is unsat, else None."""
    import z3

    from relations.proofs.solvers import standalone

    enc = _Encoder(setting)
    try:
        enc.collect_side = True
        goal = enc.inequality(conj.lhs, conj.op, conj.rhs)
        enc.collect_side = False
        encoded = {}
        for inst in instances:
            try:
                encoded[inst.id] = (inst, [enc.inequality(q.lhs, q.op, q.rhs) for q in inst.conjectures])
            except _Unsupported:
                continue
    except _Unsupported:
        return None
    # the diameter: 0 for a single input, 1 for a local domain of two or more, r for D^r, finite on a connected
    # graph (a fact with DIAM carries the restriction "connected"); not >= 1, false for a single input
    base = [z3.Or(enc.diam == 0, enc.diam == 1)] if setting == "local" else [enc.diam >= 0]
    solver = deterministic_solver(timeout_ms)
    solver.add(*base, *enc.axioms())
    for name, (_, terms) in encoded.items():
        solver.assert_and_track(z3.And(*terms), name)
    for cond in enc.side:  # ln(u), sqrt(u) of the conjecture: u > 0 (u >= 0) must follow from the facts
        solver.push()
        solver.add(z3.Not(cond))
        if solver.check() != z3.unsat:
            return None
        solver.pop()
    solver.add(z3.Not(goal))
    if solver.check() != z3.unsat:
        return None
    core = [encoded[str(c)][0] for c in solver.unsat_core()]
    alone = z3.Solver()
    alone.add(*base, *enc.axioms(), *[z3.And(*encoded[i.id][1]) for i in core], *enc.side, z3.Not(goal))
    header = (f"; conjecture ({setting}): {conj.text}\n"
              + "".join(f"; fact {i.id}: {i.text}\n" for i in core)
              + "; asserted: the diameter, the function inequalities, the facts, the conditions under which the "
                "conjecture's ln and sqrt are finite (proved from the facts), and last the negated conjecture: "
                "'unsat' proves the case where the named notions are finite\n")
    return sorted(core, key=lambda i: i.id), header + standalone(alone.to_smt2())


def _finite_proof(goal, setting: str, universe: list[str], allow: frozenset[str], timeout_ms: int):
    """``(core, smt2, restrictions)`` proving ``goal`` with its named notions finite, or None."""
    named = {key_of(n) for n in goal.notions}
    allowed, closure_used = finite_closure(named, setting, universe, allow=allow)
    pool = _instances(setting, allowed, allow)
    near = [i for i in pool if _names(i) <= named]
    pools = [near, pool] if len(near) < len(pool) else [pool]
    attempts = [(chosen, True) for chosen in pools] + [(chosen, False) for chosen in pools]
    for chosen, linear_only in attempts:  # linear combinations first (with multipliers), then z3 alone
        if linear_only:
            linear = _multipliers(goal, chosen, setting)
            used = list(dict.fromkeys(r.inst for r, _ in linear if r.inst is not None)) if linear else None
            found = None if used is None else _attempt(goal, setting, used, timeout_ms)
        else:
            found = _attempt(goal, setting, chosen, timeout_ms)
        if found is not None:
            core, smt2 = found
            # the closure's restricted rules matter only if a fact used names a notion they made finite
            plain, _ = finite_closure(named, setting, universe)
            extra = closure_used if any(not _names(i) <= plain for i in core) else frozenset()
            return core, smt2, frozenset().union(*(i.restrictions for i in core), extra)
    return None


def prove_conjecture(conj: Conjecture, setting: str, *, timeout_ms: int = 10000) -> Proof | None:
    """A proof of ``conj`` in ``setting`` from the base of facts, with its trace; or ``None``.

    Parameters
    ----------
    conj : Conjecture
    setting : str
        ``"local"`` or ``"central"``.
    timeout_ms : int, optional
        z3's budget per attempt.

    Returns
    -------
    Proof or None
        ``None`` when an infinite case fails, the conjecture uses what the encoding does not handle
        (a division by a notion, a power that is not an integer or 1/2), or z3 finds no proof.

    Examples
    --------
    >>> from relations.checking._conjectures import parse_conjecture
    >>> p = prove_conjecture(parse_conjecture("kl <= rho"), "central")
    >>> p.used, p.multipliers, p.whole
    (('kl_le_rho',), (('kl_le_rho', '1'),), True)
    >>> prove_conjecture(parse_conjecture("rho <= kl"), "local") is None
    True
    """
    universe = _universe(conj, setting)
    whole = _prove_with(conj, setting, universe, frozenset(), timeout_ms)
    if whole is not None or setting == "local":
        return whole
    narrow = _prove_with(conj, setting, universe, frozenset(RESTRICTIONS), timeout_ms)
    if narrow is None:
        return None
    names = sorted(narrow.restrictions)
    for k in range(1, len(names)):  # the widest scope: the fewest of the restrictions this proof needed
        for allow in itertools.combinations(names, k):
            result = _prove_with(conj, setting, universe, frozenset(allow), timeout_ms)
            if result is not None:
                return result
    return narrow


def _prove_with(conj, setting, universe, allow, timeout_ms) -> Proof | None:
    cases: list[tuple[str, list[Instance]]] = []
    restrictions: frozenset[str] = frozenset()
    scripts = []
    for infinite, finite in _patterns(conj, setting, universe, allow):
        restrictions |= finite_closure(finite, setting, universe, allow=allow)[1]
        rest = _substituted(conj, infinite, setting)
        label = ", ".join(sorted(infinite)) + " infinite"
        if rest is True:
            cases.append((f"{label}: true in the extended reals", []))
            continue
        if rest is False:
            return None
        assert isinstance(rest, _Goal)
        sub = _finite_proof(rest, setting, universe, allow, timeout_ms)
        if sub is None:
            return None
        cases.append((f"{label}: {rest.text} follows from the facts", sub[0]))
        restrictions |= sub[2]
        scripts.append(f"; case {label}\n" + sub[1])
    main = _finite_proof(conj, setting, universe, allow, timeout_ms)
    if main is None:
        return None
    core, smt2, used = main
    restrictions = frozenset() if setting == "local" else restrictions | used
    everything = list(dict.fromkeys([*core, *(i for _, c in cases for i in c)]))
    mult = _multipliers(conj, core, setting)
    scope = scope_text(setting, restrictions)
    trace = _trace(conj, setting, core, mult, cases, scope)
    trace += [f"not applied (side condition undecided: the enclosures did not separate): {u}"
              for u in undecided_sides(conj, setting)]
    return Proof("\n(reset)\n".join([smt2, *scripts]), tuple(i.id for i in everything), scope, tuple(trace),
                 not restrictions, restrictions,
                 None if mult is None else tuple((r.label, _frac(q)) for r, q in mult))


def undecided_sides(conj: Conjecture, setting: str) -> list[str]:
    """The fact instances left out because their side condition could not be decided exactly (the
    enclosures of two arguments did not separate: :func:`~relations.proofs._facts.side`), as text.

    Examples
    --------
    >>> from relations.checking._conjectures import parse_conjecture
    >>> undecided_sides(parse_conjecture("delta(ln(3)) <= delta(1.0986122886681097)"), "local")
    []
    """
    keys = _universe(conj, setting)
    return [u for fact in facts(setting) for u in fact.undecided(keys, setting)]


def _names(inst: Instance) -> set[str]:
    return {key_of(s.name) for q in inst.conjectures for s in (*q.lhs.free_symbols, *q.rhs.free_symbols)
            if s.name != "DIAM"}


def _frac(q: Fraction) -> str:
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _trace(conj: Conjecture, setting: str, core: list[Instance], mult, cases, scope: str) -> list[str]:
    lines = [f"infinite cases ({len(cases)} consistent with the finiteness rules):" if cases else
             "infinite cases: none possible (the named notions are always finite, or force each other finite)"]
    for label, used in cases:
        lines.append(f"  {label}" + (f" ({', '.join(i.id for i in used)})" if used else ""))
    if mult is not None:
        lines.append("finite case: rhs - lhs = " + (" + ".join(
            f"{_frac(q)} * ({r.text})" for r, q in mult) or "0") + " + c, c a constant >= 0 (checked exactly in "
            "sympy)")
        lines += [f"  {r.label}" for r, _ in mult if r.inst is None]
    else:
        lines.append("finite case: z3 finds the negated conjecture unsatisfiable with these facts "
                     "(not a linear combination: case splits or the function inequalities)")
    for inst in core:
        restr = "; ".join(sorted(inst.restrictions)) or "the whole setting"
        lines.append(f"  [{inst.id}] {inst.text}  -- scope: {restr}; {inst.fact.reference}; proof: {inst.fact.proof}")
    lines.append(f"scope: {scope}")
    return lines
