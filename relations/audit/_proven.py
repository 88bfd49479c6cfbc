"""The outputs of a randomizer proven from its source: a finite set holding every value it can return.

A loop on draws cut at a depth has each entry ``Q[x][y]`` in ``[explored, explored + unexplored(x)]``; the upper
end of ``eps_d`` needs every output the code can return (:func:`~relations.audit._report.depth_bounded_report`).
:func:`proven_outputs` derives that set from the randomizer's source, as a user would declare it with
``--outputs``, for clamped samplers (``max(0, min(3, x + z))``, ``np.clip(x + z, 0, 3)``, ``if y < 0: y = 0``).

It is a small abstract interpreter over the syntax tree of the function (and of the plain functions it calls,
of its module or another, each in its own module, with the abstract values of its arguments): every expression
has an abstract value, a set of *kinds* (``int``: a Python int; ``np``: a numpy integer; ``bool``; ``frac``: a
``fractions.Fraction``, whose value the interval holds too; ``float``; ``unif``: a uniform draw, only compared; ``none``; a module, the audit's
generator, a function) and, for the integer kinds, an interval holding the number.  ``if``/``else`` and
``while`` narrow an integer variable compared with a bounded integer; loops are iterated to a fixed point,
their counters widened to unbounded; a ``return`` adds its value.  The set is the integers of the interval,
once per integer kind returned (``np`` and ``int`` are one output, :func:`~relations.audit._outputs.output_key`;
``True`` and ``1`` are two).  numpy scalars follow numpy's rules: a comparison with a numpy operand is an
``npbool`` (``np.True_ + True`` is ``np.True_``: arithmetic on it with a bool refuses), a float computed with one
an ``npfloat``, and a numpy integer constant is known only as an ``np.int64`` (narrower ones wrap inside the
intervals).

Soundness comes before reach: anything not understood refuses (:class:`Refused`, with the reason), and the
audit keeps the lower end only.  In particular: an operation on a value of unknown type (it could run any
code); a name that is not a local, a constant or plain function of the module, a cell of the closure or a
builtin that is the real one (a ``min`` of the module's own is followed as the function it is, an opaque one
refuses); a name the module declares ``global`` or ``nonlocal`` in any function (it may change at run time);
a ``raise`` that may be reached, an ``assert`` that may fail, or an operation that may raise (a division by an
interval holding zero, an empty draw, a float overflow ...: a run ending in an exception is an outcome of its
own, which the enumeration cut at a depth need not see); ``global``, ``nonlocal``, ``try``, ``with``, ``del``,
``import``, nested ``def``, ``lambda``, comprehensions,
``yield``, assignments to attributes or items, a decorated function, ``*args``; a call other than plain
functions (followed), ``min``, ``max``, ``abs``, ``int``, ``Fraction(...)``, ``math.isqrt`` / ``floor`` /
``ceil``, ``np.clip`` and the draws ``rng.integers`` / ``geometric`` / ``binomial`` / ``random`` / ``choice``
and ``random.randrange`` / ``randint`` / ``random`` / ``choice`` (of a list of integers written out) (``eval``, ``exec``, ``globals()`` are calls like any other:
refused); and a function whose file, compiled, does not hold the code that runs
(:func:`~relations.audit._source.function_node`).

What the proof assumes: that code of the user's running beside the randomizer's call (a thread started at
import, a finalizer, a trace or profile function, a replaced ``warnings.showwarning``) does not rebind the
module's names between the proof and the enumeration, and that the internals of numpy, ``fractions`` and
``random`` are as they ship (the functions the proof names are checked, not every helper they call).  Within the
call, nothing but the analysed code, builtins on numbers, ``Fraction`` arithmetic, ``np.clip`` and the audit's
own draws runs, so nothing there can rebind them.  Stdlib only (a worker interpreter loads it alone).
"""

from __future__ import annotations

import ast
import builtins
import fractions
import inspect
import math
import numbers
import os
import random
import sys
import types
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from relations.audit._source import function_node, module_tree

__all__ = ["ProvenOutputs", "Refused", "proven_outputs", "MAX_PROVEN"]

#: Most outputs a proven set may hold (a clamp to a few thousand values is still a channel the audit can hold).
MAX_PROVEN = 4096
INF = math.inf
#: Integer kinds (the interval of a value describes them), and the kinds a value may have at all.
_INTS = frozenset({"int", "np", "bool"})
#: Kinds whose value the interval holds: the integers, and a ``Fraction`` (a rational in ``[lo, hi]``).
_RANGED = _INTS | {"frac"}
#: A number beyond this converted to a float overflows (``OverflowError``: ``10 ** 400 / 1``, ``10 ** 400 + 0.5``).
_FLOAT_SAFE = 2**1000
_NUMBERS = _INTS | {"frac", "float", "npfloat", "npbool"}
#: Kinds of numpy scalars: a comparison with one of them is a numpy bool (``npbool``), whose ``+`` and ``*`` with a
#: bool are logical (``np.True_ + True`` is ``np.True_``) and whose ``//`` is an ``np.int8``; ``npfloat`` is an
#: ``np.float64`` (a float, but compared it gives a numpy bool).
_NUMPY = frozenset({"np", "npfloat", "npbool"})
#: A numpy integer's arithmetic wraps around at its width: past these bounds, its interval is unbounded.
_NP_SAFE = 2**31
#: Iterations of a loop before its intervals are widened, and in all (then the proof refuses).
_WIDEN, _ROUNDS = 3, 50
#: Calls of functions of the module, nested, before the proof refuses (recursion refuses at once).
_NESTED = 16
#: ``Py_TPFLAGS_HEAPTYPE``: a class made by Python code, never one of the interpreter's own (static) types.
_HEAPTYPE = 1 << 9


def _static_type(t: Any) -> bool:
    return isinstance(t, type) and not t.__flags__ & _HEAPTYPE


def _genuine_builtins(found: dict[str, Any]) -> dict[str, Any]:
    """The entries of ``found`` (name: object) that are the interpreter's own builtins of that name: ``min``,
    ``max``, ``abs`` functions of the ``builtins`` module, ``int`` and ``range`` its own types (a replacement made
    before this module was imported, with the name, is none of them).

    Examples
    --------
    >>> _genuine_builtins({"min": min, "max": lambda a, b: a})
    {'min': <built-in function min>}
    """
    out = {}
    for name, f in found.items():
        if name in ("int", "range"):
            ok = _static_type(f) and f.__name__ == name and f.__module__ == "builtins" and (name != "int"
                                                                                         or f is (0).__class__)
        else:
            ok = isinstance(f, types.BuiltinFunctionType) and f.__self__ is builtins and f.__name__ == name
        if ok:
            out[name] = f
    return out


def _genuine_math(found: dict[str, Any]) -> bool:
    """Whether ``found`` (name: object) are the ``math`` module's own functions of those names."""
    return all(isinstance(f, types.BuiltinFunctionType) and f.__self__ is math and f.__name__ == n
               for n, f in found.items())


#: The real builtins, as this module found them at its import, before any user code ran in the process (the
#: worker and :mod:`relations.audit._report` import it first): a replacement assigned to ``builtins`` is not one,
#: nor one made before (in a notebook the user's code may run first), which is left out.
_BUILTINS: dict[str, Any] = _genuine_builtins({n: getattr(builtins, n) for n in ("min", "max", "abs", "int", "range")})
#: The modules, class and functions the proof knows, as this module found them (before any user code).
_FRACTION, _RANDOM, _MATH = fractions.Fraction, random, math
_MATH_FUNCTIONS = {"isqrt": math.isqrt, "floor": math.floor, "ceil": math.ceil}
_MATH_GENUINE = _genuine_math(_MATH_FUNCTIONS)
#: What the module functions of ``random`` the proof knows run: their methods of ``random.Random`` (and those they
#: call), as this module found them; one replaced (``random.Random._randbelow = ...``) is not the real one.
_RANDOM_DRAWS = ("randrange", "randint", "random", "choice")
_RANDOM_METHODS = {n: random.Random.__dict__.get(n) for n in ("randrange", "randint", "choice", "_randbelow")}
_RANDOM_CLASS = dict(vars(random.Random))  # every method: randrange's helpers too (getrandbits, _randbelow ...)
_RANDOM_GENUINE = all(getattr(getattr(f, "__code__", None), "co_filename", None) == random.__file__
                      for f in _RANDOM_METHODS.values())
_EXCEPTIONS: dict[str, type] = {n: getattr(builtins, n) for n in dir(builtins) if _static_type(getattr(builtins, n))
                                and issubclass(getattr(builtins, n), Exception)}


def _fraction_replaced() -> str | None:
    """The method of ``fractions.Fraction`` replaced by code outside the standard library's ``fractions`` (its
    arithmetic and comparisons are what the proof assumes), or ``None``."""
    if _FRACTION.__module__ != "fractions" or _FRACTION.__bases__ != (numbers.Rational,):
        return "the class itself"
    for name, f in vars(_FRACTION).items():
        f = getattr(f, "__func__", f)  # a classmethod or staticmethod
        code = getattr(f, "__code__", None)
        if callable(f) and (code is None or code.co_filename != fractions.__file__):
            return name
        if isinstance(f, property) and any(getattr(getattr(g, "__code__", None), "co_filename", fractions.__file__)
                                           != fractions.__file__ for g in (f.fget, f.fset, f.fdel) if g is not None):
            return name
    return None


class Refused(Exception):
    """The source does not prove a finite set of outputs (the message says why)."""


@dataclass(frozen=True)
class ProvenOutputs:
    """Every value the randomizer can return, proven from its source: ``values`` (Python ``int`` and ``bool``),
    and ``where`` the function's file and line.

    Examples
    --------
    >>> ProvenOutputs((0, 1, 2, 3), "mine.py:4 (clamped)").text()
    '0, 1, 2, 3 (proven from the source, mine.py:4 (clamped))'
    """

    values: tuple[Any, ...]
    where: str

    def text(self) -> str:
        shown = ", ".join(repr(v) for v in self.values[:8]) + (", ..." if len(self.values) > 8 else "")
        return f"{shown} (proven from the source, {self.where})"


@dataclass(frozen=True)
class _V:
    """An abstract value: its possible ``kinds`` and, for the integer ones, an interval ``[lo, hi]``; ``obj`` a
    module, class, function or builtin when the value is that one object."""

    kinds: frozenset[str]
    lo: float = -INF
    hi: float = INF
    obj: Any = None


def _int(lo: float, hi: float, kinds: frozenset[str] = frozenset({"int"})) -> _V:
    if "np" in kinds and (lo < -_NP_SAFE or hi > _NP_SAFE):
        if (lo < -2**63 or hi >= 2**63) and _overflow_raises():
            raise Refused("numpy integer arithmetic that may overflow, with warnings turned into errors: the run may "
                          "raise")
        lo, hi = -INF, INF
    return _V(kinds, lo, hi)


def _overflow_raises() -> bool:
    """Whether numpy's overflow warning may be an exception (a warnings filter ``error`` for it)."""
    return any(action == "error" and issubclass(RuntimeWarning, category)
               for action, _message, category, _module, _line in warnings.filters)


def _kind(kind: str, obj: Any = None) -> _V:
    return _V(frozenset({kind}), obj=obj)


_BOOL = _V(frozenset({"bool"}), 0, 1)
_EITHER_BOOL = _V(frozenset({"bool", "npbool"}), 0, 1)
_NONE = _kind("none")


def _join(a: _V | None, b: _V | None) -> _V | None:
    if a is None or b is None:
        return b if a is None else a
    if a == b:
        return a
    if a.obj is not None or b.obj is not None:
        if a.obj is b.obj and a.kinds == b.kinds:
            return a
        return _kind("unknown")  # two different objects: nothing can be done with it
    ints_a, ints_b = a.kinds & _RANGED, b.kinds & _RANGED
    if ints_a and ints_b:
        lo, hi = min(a.lo, b.lo), max(a.hi, b.hi)
    else:
        lo, hi = (a.lo, a.hi) if ints_a else (b.lo, b.hi)
    return _V(a.kinds | b.kinds, lo, hi)


Env = dict[str, _V]


def _join_env(a: Env | None, b: Env | None) -> Env | None:
    if a is None or b is None:
        return b if a is None else a
    out: Env = {}
    for name in a.keys() | b.keys():
        if name in a and name in b:
            out[name] = _join(a[name], b[name])  # type: ignore[assignment]
        else:
            out[name] = _kind("unbound")  # bound on one path only: reading it refuses
    return out


def _widen(old: Env, new: Env) -> Env:
    out: Env = {}
    for name, v in new.items():
        o = old.get(name)
        if o is not None and v.kinds & _RANGED and o.kinds & _RANGED and (v.lo, v.hi) != (o.lo, o.hi):
            v = _V(v.kinds, v.lo if v.lo >= o.lo else -INF, v.hi if v.hi <= o.hi else INF, v.obj)
        out[name] = v
    return out


def _ints_of(v: _V, what: str) -> _V:
    """``v`` when it is an integer of known bounds' kind (``int``, ``np``, ``bool``), else :class:`Refused`."""
    if not v.kinds or not v.kinds <= _INTS:
        raise Refused(f"{what} is not known to be an integer ({_kinds_text(v)})")
    return v


def _kinds_text(v: _V) -> str:
    return "may be " + " or ".join(sorted(v.kinds))


def _numbers(*vs: _V) -> None:
    for v in vs:
        if not v.kinds or not v.kinds <= _NUMBERS | {"unif"}:
            raise Refused(f"an operand is not known to be a number ({_kinds_text(v)})")


def _mul(a: float, b: float) -> float:
    return 0 if a == 0 or b == 0 else a * b


def _floordiv(a: float, d: float) -> float:
    if math.isinf(a):
        return a if d > 0 else -a
    if math.isinf(d):
        return 0 if (a >= 0) == (d > 0) else -1
    return a // d


class _Frame:
    """What the names of one analysed function resolve to: its locals (the environment), its closure's cells,
    its module's globals and builtins."""

    def __init__(self, fn: types.FunctionType, rebound: frozenset[str]):
        self.fn, self.code, self.rebound = fn, fn.__code__, rebound
        self.cells = dict(zip(self.code.co_freevars, fn.__closure__ or ()))
        b = fn.__builtins__ if hasattr(fn, "__builtins__") else builtins.__dict__
        self.builtins = b if isinstance(b, dict) else vars(b)
        if type(fn.__globals__) is not dict or type(self.builtins) is not dict:  # a subclass's lookups run its code
            raise Refused(f"the globals or builtins of {fn.__qualname__} are not a plain dict (a lookup may run code)")


class _Analysis:
    """The abstract interpretation of one randomizer (and the plain functions it calls, each in its own module)."""

    def __init__(self) -> None:
        self.rebound: dict[str, frozenset[str]] = {}
        self.stack: list[types.CodeType] = []
        self.memo: dict[tuple[Any, ...], _V] = {}

    # -- functions -------------------------------------------------------------------------------------------
    def call(self, fn: types.FunctionType, args: dict[str, _V]) -> _V:
        """The join of what ``fn`` returns, its parameters bound to ``args`` (by name; the others take their
        defaults)."""
        code = fn.__code__
        if code in self.stack:
            raise Refused(f"{fn.__qualname__} is recursive")
        if len(self.stack) >= _NESTED:
            raise Refused(f"calls nested more than {_NESTED} deep")
        key = (fn, tuple(sorted(args.items(), key=lambda kv: kv[0])))  # the function: its cells and defaults too
        try:
            known = self.memo.get(key)
        except TypeError:  # an unhashable object in an argument
            known = None
        if known is not None:
            return known
        node = self._def(fn)
        env = self._parameters(fn, node, args)
        frame = _Frame(fn, self._rebound(code.co_filename))
        self.stack.append(code)
        try:
            returns: list[_V] = []
            out = self.block(node.body, env, frame, returns, None)
            result: _V | None = None
            for r in returns:
                result = _join(result, r)
            if out.env is not None:  # falls off the end: returns None
                result = _join(result, _NONE)
        finally:
            self.stack.pop()
        if result is None:
            raise Refused(f"{fn.__qualname__} never returns")
        self.memo[key] = result
        return result

    def _rebound(self, filename: str) -> frozenset[str]:
        """The names a function of the module in ``filename`` may rebind at run time (``global NAME``, ``nonlocal
        NAME``): their values now prove nothing."""
        if filename not in self.rebound:
            tree = module_tree(filename)
            if tree is None:
                raise Refused(f"the source file {filename} cannot be read")
            names: set[str] = set()
            for node in ast.walk(tree):
                if isinstance(node, (ast.Global, ast.Nonlocal)):
                    names.update(node.names)
            self.rebound[filename] = frozenset(names)
        return self.rebound[filename]

    def _def(self, fn: types.FunctionType) -> ast.FunctionDef:
        code = fn.__code__
        if code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
                            | inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
            raise Refused(f"{fn.__qualname__} is a generator, a coroutine or takes *args / **kwargs")
        node = function_node(code)
        if node is None or not isinstance(node, ast.FunctionDef):
            raise Refused(f"the source of {fn.__qualname__} cannot be read, or is not the code that runs")
        if node.decorator_list:
            raise Refused(f"{fn.__qualname__} is decorated")
        return node

    def _parameters(self, fn: types.FunctionType, node: ast.FunctionDef, args: dict[str, _V]) -> Env:
        a = node.args
        names = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
        unknown = set(args) - set(names)
        if unknown:
            raise Refused(f"{fn.__qualname__} is called with a parameter it does not have ({sorted(unknown)[0]})")
        positional = [p.arg for p in a.posonlyargs + a.args]
        defaults = dict(zip(positional[len(positional) - len(fn.__defaults__ or ()):], fn.__defaults__ or ()))
        defaults.update(fn.__kwdefaults__ or {})
        env: Env = {}
        for name in names:
            if name in args:
                env[name] = args[name]
            elif name in defaults:
                env[name] = _of(defaults[name])
            else:
                raise Refused(f"{fn.__qualname__} is called without its parameter {name}")
        return env

    # -- statements ------------------------------------------------------------------------------------------
    def block(self, body: Sequence[ast.stmt], env: Env | None, frame: _Frame, returns: list[_V],
              loop: _Loop | None) -> _Out:
        for stmt in body:
            if env is None:
                break
            env = self.statement(stmt, env, frame, returns, loop)
        return _Out(env)

    def statement(self, stmt: ast.stmt, env: Env, frame: _Frame, returns: list[_V], loop: _Loop | None) -> Env | None:
        if isinstance(stmt, ast.Expr):
            if isinstance(stmt.value, ast.Constant):  # a docstring
                return env
            self.expr(stmt.value, env, frame)
            return env
        if isinstance(stmt, ast.Pass):
            return env
        if isinstance(stmt, ast.Assign):
            value = stmt.value
            for target in stmt.targets:
                env = self.assign(target, value, env, frame)
            return env
        if isinstance(stmt, ast.AnnAssign) and stmt.value is not None and stmt.simple:
            return self.assign(stmt.target, stmt.value, env, frame)
        if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            changed = self.binop(stmt.op, self.name(stmt.target.id, env, frame), self.expr(stmt.value, env, frame))
            return {**env, stmt.target.id: changed}
        if isinstance(stmt, ast.Return):
            returns.append(_NONE if stmt.value is None else self.expr(stmt.value, env, frame))
            return None
        if isinstance(stmt, ast.If):
            self.truth(stmt.test, env, frame)
            yes = self.block(stmt.body, self.narrow(stmt.test, env, frame, True), frame, returns, loop).env
            no = self.block(stmt.orelse, self.narrow(stmt.test, env, frame, False), frame, returns, loop).env
            return _join_env(yes, no)
        if isinstance(stmt, ast.While) and not stmt.orelse:
            return self.loop(stmt, env, frame, returns, None)
        if isinstance(stmt, ast.For) and not stmt.orelse:
            return self.loop(stmt, env, frame, returns, self.range_of(stmt, env, frame))
        if isinstance(stmt, ast.Break) and loop is not None:
            loop.breaks = _join_env(loop.breaks, env)
            return None
        if isinstance(stmt, ast.Continue) and loop is not None:
            loop.continues = _join_env(loop.continues, env)
            return None
        if isinstance(stmt, ast.Raise):  # reached: a run may end in an exception, an outcome of its own
            raise Refused(f"line {stmt.lineno}: a raise may be reached, and a run that ends in an exception is an "
                          "outcome the enumeration cut at a depth need not see")
        if isinstance(stmt, ast.Assert):  # an assert that cannot fail narrows like an if; one that may is a raise
            self.truth(stmt.test, env, frame)
            if self.narrow(stmt.test, env, frame, False) is not None:
                raise Refused(f"line {stmt.lineno}: an assert may fail, and a run that ends in an exception is an "
                              "outcome the enumeration cut at a depth need not see")
            return self.narrow(stmt.test, env, frame, True)
        raise Refused(f"line {stmt.lineno}: the statement {type(stmt).__name__} is not analysed")

    def assign(self, target: ast.expr, value: ast.expr, env: Env, frame: _Frame) -> Env:
        if isinstance(target, ast.Name):
            return {**env, target.id: self.expr(value, env, frame)}
        if (isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts)
                and all(isinstance(t, ast.Name) for t in target.elts)
                and not any(isinstance(v, ast.Starred) for v in value.elts)):
            values = [self.expr(v, env, frame) for v in value.elts]
            return {**env, **{t.id: v for t, v in zip(target.elts, values)}}  # type: ignore[attr-defined]
        raise Refused(f"line {target.lineno}: an assignment to something other than a name")

    def range_of(self, stmt: ast.For, env: Env, frame: _Frame) -> _V:
        """The loop variable of ``for NAME in range(...)``: an integer between the bounds."""
        it = stmt.iter
        if not (isinstance(stmt.target, ast.Name) and isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                and it.func.id == "range" and self._builtin("range", frame) is not None and not it.keywords
                and 1 <= len(it.args) <= 3 and not any(isinstance(a, ast.Starred) for a in it.args)):
            raise Refused(f"line {stmt.lineno}: a for loop over something other than range(...)")
        args = [_ints_of(self.expr(a, env, frame), "an argument of range") for a in it.args]
        if len(args) == 3 and args[2].lo <= 0 <= args[2].hi:
            raise Refused(f"line {stmt.lineno}: a range whose step may be zero: the run may raise")
        if len(args) == 1:
            return _int(0, max(0, args[0].hi - 1))
        return _int(min(args[0].lo, args[1].lo), max(args[0].hi, args[1].hi))

    def loop(self, stmt: ast.While | ast.For, env: Env, frame: _Frame, returns: list[_V], var: _V | None) -> Env | None:
        """A ``while`` or ``for`` loop iterated to a fixed point, its changing intervals widened."""
        head: Env = env
        exits: Env | None = None
        for rounds in range(_ROUNDS):
            state = _Loop()
            if var is None:  # while TEST
                test = stmt.test  # type: ignore[union-attr]
                self.truth(test, head, frame)
                inside = self.narrow(test, head, frame, True)
                exits = _join_env(exits, self.narrow(test, head, frame, False))
            else:  # for NAME in range(...): the name bound to the range, or the loop is over
                inside = {**head, stmt.target.id: var}  # type: ignore[union-attr]
                exits = _join_env(exits, head)
            out = self.block(stmt.body, inside, frame, returns, state).env
            exits = _join_env(exits, state.breaks)
            after = _join_env(_join_env(head, out), state.continues)
            assert after is not None
            if rounds >= _WIDEN:
                after = _widen(head, after)
            if after == head:
                return exits
            head = after
        raise Refused(f"line {stmt.lineno}: the loop's analysis does not settle")

    # -- conditions --------------------------------------------------------------------------------------------
    def truth(self, test: ast.expr, env: Env, frame: _Frame) -> None:
        """``test`` used as a condition: its truth must run no code of the user's (a known kind)."""
        v = self.expr(test, env, frame)
        if not v.kinds or v.kinds & {"unknown", "unbound", "unif", "str"}:
            raise Refused(f"line {test.lineno}: a condition on a value of unknown type")

    def narrow(self, test: ast.expr, env: Env, frame: _Frame, truth: bool) -> Env | None:
        """``env`` where ``test`` is ``truth``: an integer name compared with a bounded integer narrowed (``None``
        when that cannot hold)."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.narrow(test.operand, env, frame, not truth)
        if isinstance(test, ast.Constant):
            return env if bool(test.value) == truth else None
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) == truth:  # all of them hold
            out: Env | None = env
            for v in test.values:
                if out is None:
                    return None
                out = self.narrow(v, out, frame, truth)
            return out
        if isinstance(test, ast.Compare) and not truth and len(test.ops) > 1:  # one of the comparisons fails
            either: Env | None = None
            left = test.left
            for op, right in zip(test.ops, test.comparators):
                either = _join_env(either, self._narrow_pair(left, _NEGATED.get(type(op)), right, env, frame))
                left = right
            return either
        if isinstance(test, ast.Compare) and (truth or len(test.ops) == 1):
            out = env
            left = test.left
            for op, right in zip(test.ops, test.comparators):
                if out is None:
                    return None
                out = self._narrow_pair(left, op if truth else _NEGATED.get(type(op)), right, out, frame)
                left = right
            return out
        return env

    def _narrow_pair(self, left: ast.expr, op: Any, right: ast.expr, env: Env, frame: _Frame) -> Env | None:
        if op is None:
            return env
        key: Any = op if isinstance(op, type) else type(op)
        for name, other, k in ((left, right, key), (right, left, _SWAPPED.get(key))):
            if not isinstance(name, ast.Name) or name.id not in env or k is None:
                continue
            v, w = env[name.id], self.expr(other, env, frame)
            if not (v.kinds and v.kinds <= _INTS and w.kinds and w.kinds <= _INTS):
                continue
            lo, hi = v.lo, v.hi
            if k is ast.Lt:
                hi = min(hi, w.hi - 1)
            elif k is ast.LtE:
                hi = min(hi, w.hi)
            elif k is ast.Gt:
                lo = max(lo, w.lo + 1)
            elif k is ast.GtE:
                lo = max(lo, w.lo)
            elif k is ast.Eq:
                lo, hi = max(lo, w.lo), min(hi, w.hi)
            if lo > hi:
                return None
            env = {**env, name.id: _V(v.kinds, lo, hi)}
        return env

    # -- expressions -------------------------------------------------------------------------------------------
    def expr(self, node: ast.expr, env: Env, frame: _Frame) -> _V:
        v = self._expr(node, env, frame)
        if v.kinds & {"unknown", "unbound"}:
            raise Refused(f"line {getattr(node, 'lineno', '?')}: a value of unknown type or possibly unbound")
        return v

    def _expr(self, node: ast.expr, env: Env, frame: _Frame) -> _V:
        if isinstance(node, ast.Constant):
            return _of(node.value)
        if isinstance(node, ast.Name):
            return self.name(node.id, env, frame)
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self.expr(node.left, env, frame), self.expr(node.right, env, frame))
        if isinstance(node, ast.UnaryOp):
            v = self.expr(node.operand, env, frame)
            if isinstance(node.op, ast.Not):
                self.truth(node.operand, env, frame)
                return _BOOL
            _numbers(v)
            if v.kinds & {"unif"}:
                raise Refused("arithmetic on a uniform draw")
            if "npbool" in v.kinds:
                raise Refused(f"line {node.lineno}: a sign on a numpy bool")
            ints = frozenset({"np"} if "np" in v.kinds else {"int"}) if v.kinds & _INTS else frozenset()
            kinds = (v.kinds - _INTS) | ints
            ranged = kinds & _RANGED
            if isinstance(node.op, ast.USub):
                return _int(-v.hi, -v.lo, kinds) if ranged else _V(kinds)
            if isinstance(node.op, ast.UAdd):
                return _int(v.lo, v.hi, kinds) if ranged else _V(kinds)
            raise Refused("the operator ~")
        if isinstance(node, ast.BoolOp):  # returns one of its operands
            out: _V | None = None
            for value in node.values:
                self.truth(value, env, frame)
                out = _join(out, self.expr(value, env, frame))
            assert out is not None
            return out
        if isinstance(node, ast.IfExp):
            self.truth(node.test, env, frame)
            yes = self.narrow(node.test, env, frame, True)
            no = self.narrow(node.test, env, frame, False)
            a = None if yes is None else self.expr(node.body, yes, frame)
            b = None if no is None else self.expr(node.orelse, no, frame)
            joined = _join(a, b)
            if joined is None:
                raise Refused(f"line {node.lineno}: neither branch of a conditional expression can be taken")
            return joined
        if isinstance(node, ast.Compare):
            values = [self.expr(node.left, env, frame)] + [self.expr(c, env, frame) for c in node.comparators]
            for op, a, b in zip(node.ops, values, values[1:]):
                if isinstance(op, (ast.Is, ast.IsNot)):
                    continue
                if isinstance(op, (ast.In, ast.NotIn)):
                    raise Refused(f"line {node.lineno}: the operator in")
                _numbers(a, b)
                if "unif" in a.kinds and "unif" in b.kinds:
                    raise Refused(f"line {node.lineno}: two uniform draws compared")
            return _EITHER_BOOL if any(v.kinds & _NUMPY for v in values) else _BOOL
        if isinstance(node, ast.Attribute):
            base = self.expr(node.value, env, frame)
            if base.kinds == frozenset({"frac"}) and node.attr in ("numerator", "denominator"):
                if node.attr == "denominator":
                    return _int(1, INF)
                # the numerator has the sign of the value
                return _int(1 if base.lo > 0 else 0 if base.lo >= 0 else -INF, -1 if base.hi < 0 else 0 if base.hi <= 0
                            else INF)
            raise Refused(f"line {node.lineno}: the attribute {node.attr}")
        if isinstance(node, ast.Call):
            return self.call_expr(node, env, frame)
        raise Refused(f"line {getattr(node, 'lineno', '?')}: the expression {type(node).__name__} is not analysed")

    def name(self, name: str, env: Env, frame: _Frame) -> _V:
        if name in env:
            return env[name]
        code = frame.code
        if name in code.co_varnames or name in code.co_cellvars:
            raise Refused(f"the local {name} may be read before it is assigned")
        if name in frame.rebound:
            raise Refused(f"the name {name} is declared global or nonlocal in the module: it may change at run time")
        if name in code.co_freevars:
            try:
                value = frame.cells[name].cell_contents
            except (KeyError, ValueError):
                raise Refused(f"the closure's cell {name} is empty") from None
            known = _of(value)
            if "unknown" in known.kinds:
                raise Refused(f"the closure's {name} is a {type(value).__name__}, which the proof does not follow")
            return known
        if name in frame.fn.__globals__:
            value = frame.fn.__globals__[name]
            known = _of(value)
            if "unknown" in known.kinds:
                raise Refused(f"the global {name} is a {type(value).__name__}, which the proof does not follow")
            return known
        real = self._builtin(name, frame)
        if real is None:
            raise Refused(f"the name {name} is not a local, a global of the module, a cell or a real builtin")
        return _of(real)

    def _builtin(self, name: str, frame: _Frame) -> Any:
        """The builtin ``name`` as the function sees it, when it is the real one (not shadowed, not replaced)."""
        if name in frame.fn.__globals__ or name in frame.code.co_varnames or name in frame.code.co_freevars \
                or name in frame.code.co_cellvars or name in frame.rebound:
            return None
        value = frame.builtins.get(name)
        real = _BUILTINS.get(name, _EXCEPTIONS.get(name))
        return value if real is not None and value is real else None

    def binop(self, op: ast.operator, a: _V, b: _V) -> _V:
        _numbers(a, b)
        if "unif" in a.kinds or "unif" in b.kinds:
            raise Refused("arithmetic on a uniform draw")
        kinds: set[str] = set()
        ranged = a.kinds <= _RANGED and b.kinds <= _RANGED
        np_kind = "np" in a.kinds or "np" in b.kinds
        if np_kind and (a.kinds | b.kinds) & {"frac"}:
            raise Refused("arithmetic mixing a numpy integer and a Fraction")
        if "npbool" in a.kinds | b.kinds:
            if a.kinds & {"bool", "npbool"} and b.kinds & {"bool", "npbool"}:
                raise Refused("arithmetic on a numpy bool and a bool (logical in numpy, np.int8 for // and %)")
            a, b = _npbool_as_int(a), _npbool_as_int(b)  # with a number: an np.int64 or np.float64, as numpy's
            return self.binop(op, a, b)
        for ka in a.kinds:
            for kb in b.kinds:
                kinds |= _result_kinds(op, ka, kb, b)
        _may_raise(op, a, b, kinds)
        if not kinds & _RANGED:
            return _V(frozenset(kinds))
        lo, hi = (_power(a, b) if isinstance(op, ast.Pow) else _interval(op, a, b)) if ranged else (-INF, INF)
        return _int(lo, hi, frozenset(kinds))

    def call_expr(self, node: ast.Call, env: Env, frame: _Frame) -> _V:
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise Refused(f"line {node.lineno}: a call with *args or **kwargs")
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "choice":
            return self.choice(node, f, env, frame)
        args = [self.expr(a, env, frame) for a in node.args]
        keywords = {k.arg: k.value for k in node.keywords if k.arg is not None}
        if isinstance(f, ast.Attribute):
            base = self.expr(f.value, env, frame)
            literals = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
            return _method(base, f.attr, args, keywords, node.lineno, literals)
        callee = self.expr(f, env, frame)
        obj = callee.obj
        if callee.kinds == frozenset({"builtin"}):
            if keywords:
                raise Refused(f"line {node.lineno}: {obj.__name__} with keywords")
            return _call_builtin(obj, args, node.lineno)
        if callee.kinds == frozenset({"Fraction"}):
            if keywords or not 1 <= len(args) <= 2:
                raise Refused(f"line {node.lineno}: Fraction with keywords or many arguments")
            for a in args:
                if not a.kinds or not a.kinds <= _RANGED:  # a float may be infinite or NaN: the run may raise
                    raise Refused(f"line {node.lineno}: Fraction of something other than an integer or a Fraction")
            if len(args) == 1:
                return _V(frozenset({"frac"}), args[0].lo, args[0].hi)
            if _zero_possible(args[1]):
                raise Refused(f"line {node.lineno}: Fraction with a denominator that may be zero: the run may raise")
            return _V(frozenset({"frac"}), *_interval(ast.Div(), args[0], args[1]))
        if callee.kinds == frozenset({"function"}):  # analysed in its own module (its names, its source)
            params = self._def(obj).args
            positional = [p.arg for p in params.posonlyargs + params.args]
            if len(args) > len(positional):
                raise Refused(f"line {node.lineno}: {obj.__qualname__} called with too many arguments")
            bound = dict(zip(positional, args))
            for name, value in keywords.items():
                if name in bound or name in [p.arg for p in params.posonlyargs]:
                    raise Refused(f"line {node.lineno}: {obj.__qualname__} called with {name} twice")
                bound[name] = self.expr(value, env, frame)
            return self.call(obj, bound)
        raise Refused(f"line {node.lineno}: a call of something other than a function of the module or a known one")


    def choice(self, node: ast.Call, f: ast.Attribute, env: Env, frame: _Frame) -> _V:
        """``rng.choice(ITEMS)`` / ``random.choice(ITEMS)``, ``ITEMS`` a list or tuple written out, of integers (or
        ``rng.choice(n)``: ``0 .. n - 1``), with ``p=`` written out as numbers for the generator: one of the items."""
        base = self.expr(f.value, env, frame)
        generator = base.kinds == frozenset({"generator"})
        if not (generator or base.kinds == frozenset({"random"})) or len(node.args) != 1:
            raise Refused(f"line {node.lineno}: choice with these arguments")
        items = node.args[0]
        for k in node.keywords:
            weights = k.value
            if not (generator and k.arg == "p" and isinstance(weights, (ast.List, ast.Tuple))
                    and not any(isinstance(w, ast.Starred) for w in weights.elts)):
                raise Refused(f"line {node.lineno}: choice with the keyword {k.arg}")
            written: list[Any] = [w.value if isinstance(w, ast.Constant) else None for w in weights.elts]
            if not (all(type(w) in (int, float) and w >= 0 for w in written) and abs(sum(written) - 1) <= 1e-12
                    and isinstance(items, (ast.List, ast.Tuple)) and len(written) == len(items.elts)):
                raise Refused(f"line {node.lineno}: choice with weights p= not written out as numbers summing to 1, "
                              "one per item (numpy may refuse them: the run may raise)")
        if isinstance(items, (ast.List, ast.Tuple)) and items.elts:
            if any(isinstance(e, ast.Starred) for e in items.elts):
                raise Refused(f"line {node.lineno}: choice of a starred list")
            values = [_ints_of(self.expr(e, env, frame), "an item of choice") for e in items.elts]
            lo, hi = min(v.lo for v in values), max(v.hi for v in values)
            kinds = frozenset().union(*(v.kinds for v in values))
        elif generator:
            n = _ints_of(self.expr(items, env, frame), "the argument of choice")
            if n.lo < 1:
                raise Refused(f"line {node.lineno}: choice of a number that may be below 1: the run may raise")
            lo, hi, kinds = 0, n.hi - 1, frozenset({"int"})
        else:
            raise Refused(f"line {node.lineno}: choice of something other than a list or tuple written out")
        # the enumerator hands the item back; numpy (sampling) a numpy scalar of the array's type: a numpy integer
        # (a bool among integers becomes one), or a numpy bool when all are bools
        if generator:
            kinds = kinds | ({"int", "np"} if kinds - {"bool"} else {"npbool"})
        return _int(lo, hi, kinds)


class _Out:
    def __init__(self, env: Env | None):
        self.env = env


class _Loop:
    """The environments that leave a loop by ``break`` and go round by ``continue``."""

    def __init__(self) -> None:
        self.breaks: Env | None = None
        self.continues: Env | None = None


_NEGATED = {ast.Lt: ast.GtE, ast.LtE: ast.Gt, ast.Gt: ast.LtE, ast.GtE: ast.Lt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
_SWAPPED = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE, ast.Eq: ast.Eq, ast.NotEq: ast.NotEq}


def _npbool_as_int(v: _V) -> _V:
    """``v`` with its numpy bool as the ``np.int64`` 0 or 1 it is in arithmetic with a number other than a bool."""
    if "npbool" not in v.kinds:
        return v
    return _V((v.kinds - {"npbool"}) | {"np"}, min(v.lo, 0), max(v.hi, 1))


def _result_kinds(op: ast.operator, ka: str, kb: str, b: _V) -> set[str]:
    """The kinds of ``a OP b`` for ``a`` of kind ``ka`` and ``b`` of kind ``kb`` (a float with a numpy operand is
    an ``np.float64``)."""
    numpy = ka in _NUMPY or kb in _NUMPY
    kinds = _python_result_kinds(op, "float" if ka == "npfloat" else ka, "float" if kb == "npfloat" else kb, b)
    return {"npfloat" if k == "float" and numpy else k for k in kinds}


def _python_result_kinds(op: ast.operator, ka: str, kb: str, b: _V) -> set[str]:
    ints = ka in _INTS and kb in _INTS
    if isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)) and ints:
        return {"np" if "np" in (ka, kb) else "int"}
    if isinstance(op, ast.Div) and ints:
        return {"float"}
    if isinstance(op, ast.Pow) and ints:
        return {"np" if "np" in (ka, kb) else "int"} | ({"float"} if b.lo < 0 else set())
    if "float" in (ka, kb):
        return {"float"}
    if "frac" in (ka, kb):  # with an int, a bool or a Fraction
        if isinstance(op, ast.FloorDiv):
            return {"int"}
        if isinstance(op, ast.Pow):
            return {"frac", "float"} if kb == "frac" else {"frac"}
        if isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Mod)):
            return {"frac"}
    raise Refused(f"the operator {type(op).__name__} on {ka} and {kb}")


def _interval(op: ast.operator, a: _V, b: _V) -> tuple[float, float]:
    """An interval holding ``a OP b`` for integers ``a``, ``b`` of those intervals."""
    if isinstance(op, ast.Add):
        return a.lo + b.lo, a.hi + b.hi
    if isinstance(op, ast.Sub):
        return a.lo - b.hi, a.hi - b.lo
    if isinstance(op, ast.Mult):
        corners = [_mul(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
        return min(corners), max(corners)
    if isinstance(op, ast.FloorDiv) and (b.lo >= 1 or b.hi <= -1):
        corners = [_floordiv(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
        return min(corners), max(corners)
    whole = a.kinds <= _INTS and b.kinds <= _INTS  # of integers, a % b < b is at most b - 1
    if isinstance(op, ast.Mod) and b.lo > 0:
        return 0, b.hi - 1 if whole else b.hi
    if isinstance(op, ast.Mod) and b.hi < 0:
        return b.lo + 1 if whole else b.lo, 0
    if isinstance(op, ast.Div) and (b.lo > 0 or b.hi < 0):
        corners = [_truediv(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
        if None not in corners:
            return min(corners), max(corners)
    return -INF, INF


def _power(a: _V, b: _V) -> tuple[Any, Any]:
    """An interval holding ``a ** b`` for a base of finite bounds and an integer exponent in ``[lo, hi]``, at least
    0 (:func:`_may_raise` refuses others): for each exponent the extremes lie at the base's ends or 0, and for each
    base at the exponent's ends, or next to them (the sign of a negative base alternates)."""
    if any(math.isinf(v) for v in (a.lo, a.hi, b.lo, b.hi)):
        return -INF, INF
    bases = {a.lo, a.hi} | ({0} if a.lo <= 0 <= a.hi else set())
    exponents = {e for e in (b.lo, b.lo + 1, b.hi - 1, b.hi) if b.lo <= e <= b.hi}
    values = [x ** int(e) for x in bases for e in exponents]
    return min(values), max(values)


def _truediv(a: Any, d: Any) -> Any:
    """``a / d`` exactly (a ``Fraction``), for bounds that may be infinite; ``None`` for two infinite ones."""
    if math.isinf(a) and math.isinf(d):
        return None
    if math.isinf(d):
        return 0
    if math.isinf(a):
        return a if d > 0 else -a
    return _FRACTION(a) / d


def _zero_possible(v: _V) -> bool:
    """Whether ``v`` may be zero (or a value whose zero the proof does not track: a float)."""
    return not v.kinds <= _RANGED or v.lo <= 0 <= v.hi


def _float_safe(v: _V) -> bool:
    """Whether ``v`` converts to a float without overflow (a Python int or ``Fraction`` within ``2 ** 1000``)."""
    return not v.kinds & {"int", "bool", "frac"} or -_FLOAT_SAFE <= v.lo and v.hi <= _FLOAT_SAFE


def _within_int64(w: _V) -> None:
    """:class:`Refused` when ``w``, given to numpy, may be a Python int beyond int64 by bounds the proof knows
    (``x * 2 ** 64``: numpy raises ``OverflowError``).  A draw's value (``{int, np}``: the enumerator's int stands
    for numpy's ``np.int64``) is within it; an unbounded one (a count of draws, widened by a loop) is assumed to be
    (docs/auditing.md)."""
    if w.kinds & {"int", "bool"} and "np" not in w.kinds and (
            (not math.isinf(w.lo) and w.lo < -2**63) or (not math.isinf(w.hi) and w.hi >= 2**63)):
        raise Refused("numpy given a Python int that may be beyond int64: the run may raise (OverflowError)")


def _may_raise(op: ast.operator, a: _V, b: _V, kinds: set[str]) -> None:
    """:class:`Refused` when ``a OP b`` may raise (a run ending in an exception is an outcome the proof does not
    return): a division by zero, a power that may divide by zero or overflow, a number too large for a float."""
    if isinstance(op, (ast.FloorDiv, ast.Mod, ast.Div)) and _zero_possible(b):
        raise Refused(f"the operator {type(op).__name__} by a value that may be zero: the run may raise")
    if isinstance(op, ast.Pow) and not (a.kinds <= _RANGED and b.kinds <= _INTS and 0 <= b.lo and b.hi <= 64):
        raise Refused("a power whose exponent may be negative, fractional or above 64, or whose base is a float: "
                      "the run may raise (division by zero, overflow)")
    for v, w in ((a, b), (b, a)):  # numpy takes a Python int only within int64 (else OverflowError)
        if v.kinds & _NUMPY:
            _within_int64(w)
    if kinds & {"float", "npfloat"} and not (_float_safe(a) and _float_safe(b)):
        raise Refused("arithmetic giving a float from a number that may be too large for one: the run may raise "
                      "(OverflowError)")


def _call_builtin(f: Any, args: list[_V], line: int) -> _V:
    name = f.__name__
    if name in ("min", "max"):
        if len(args) < 2:
            raise Refused(f"line {line}: {name} of an iterable")
        for a in args:
            if not a.kinds or not a.kinds <= _NUMBERS:
                raise Refused(f"line {line}: {name} of something other than numbers ({_kinds_text(a)})")
        kinds = frozenset().union(*(a.kinds for a in args))
        ints = [a for a in args if a.kinds <= _RANGED]  # the interval holds each (a Fraction's value too)
        if len(ints) < len(args):  # a Fraction or a float among them: no bound on the result's integer part
            return _V(kinds)
        pick = min if name == "min" else max
        return _V(kinds, pick(a.lo for a in args), pick(a.hi for a in args))  # one of the arguments
    if name == "abs" and len(args) == 1:
        v = args[0]
        _numbers(v)
        if "unif" in v.kinds:
            raise Refused(f"line {line}: abs of a uniform draw")
        kinds = (v.kinds - _INTS) | ({"np" if "np" in v.kinds else "int"} if v.kinds & _INTS else set())
        lo = 0 if v.lo <= 0 <= v.hi else min(abs(v.lo), abs(v.hi))
        return _int(lo, max(abs(v.lo), abs(v.hi)), frozenset(kinds))
    if name == "int" and len(args) == 1:
        v = args[0]
        if not v.kinds or not v.kinds <= _NUMBERS:
            raise Refused(f"line {line}: int of something other than a number")
        if v.kinds <= _INTS:
            return _int(v.lo, v.hi)
        if not v.kinds <= _RANGED:
            raise Refused(f"line {line}: int of a float (it may be infinite or NaN: the run may raise)")
        return _int(_floor(v.lo), _ceil(v.hi))
    raise Refused(f"line {line}: the builtin {name} with these arguments")


def _floor(x: Any) -> Any:
    return x if math.isinf(x) else math.floor(x)


def _ceil(x: Any) -> Any:
    return x if math.isinf(x) else math.ceil(x)


def _probability(p: Any, attr: str, line: int, *, zero: bool) -> None:
    """:class:`Refused` unless ``p`` is a number written out that numpy takes as the probability of ``attr`` (in
    ``[0, 1]``, ``0`` excluded unless ``zero``): another may be refused by numpy, and the run raise."""
    if type(p) not in (int, float) or not (0 <= p <= 1) or (p == 0 and not zero):
        raise Refused(f"line {line}: {attr} of a probability not written out in [0, 1]: the run may raise")


def _method(base: _V, attr: str, args: list[_V], keywords: dict[str, ast.expr], line: int,
            literals: Sequence[Any] = ()) -> _V:
    """A draw, ``np.clip`` or a ``math`` function (``literals``: the arguments that are numbers written out, else
    ``None``)."""
    kinds = base.kinds
    for name, value in keywords.items():
        if not (isinstance(value, ast.Constant) and (name, value.value) in (("size", None), ("endpoint", False),
                                                                           ("endpoint", True))):
            raise Refused(f"line {line}: {attr} with the keyword {name}")
    endpoint = any(isinstance(v, ast.Constant) and v.value is True for k, v in keywords.items() if k == "endpoint")
    if kinds == frozenset({"generator"}):
        if attr == "integers" and 1 <= len(args) <= 3:
            low, high = (_int(0, 0), args[0]) if len(args) == 1 else (args[0], args[1])
            if len(args) == 3:
                raise Refused(f"line {line}: integers with a size")
            _ints_of(low, "the low end of integers")
            _ints_of(high, "the high end of integers")
            if high.lo - low.hi < (0 if endpoint else 1):
                raise Refused(f"line {line}: integers of a range that may be empty: the run may raise")
            return _int(low.lo, high.hi - (0 if endpoint else 1), frozenset({"int", "np"}))
        if keywords:
            raise Refused(f"line {line}: {attr} with keywords")
        if attr == "geometric" and len(args) == 1:
            _probability(literals[0], attr, line, zero=False)
            return _int(1, INF, frozenset({"int", "np"}))
        if attr == "binomial" and len(args) == 2:
            n = _ints_of(args[0], "the n of binomial")
            if n.lo < 0:
                raise Refused(f"line {line}: binomial of an n that may be negative: the run may raise")
            _probability(literals[1], attr, line, zero=True)
            return _int(0, max(0, n.hi), frozenset({"int", "np"}))
        if attr == "random" and not args:
            return _kind("unif")
        raise Refused(f"line {line}: the draw {attr} with these arguments")
    if keywords:
        raise Refused(f"line {line}: {attr} with keywords")
    if kinds == frozenset({"random"}):
        if attr in ("randrange", "randint") and 1 <= len(args) <= 2 and not (attr == "randint" and len(args) == 1):
            for a in args:
                _ints_of(a, f"an argument of {attr}")
            low, high = (_int(0, 0), args[0]) if len(args) == 1 else (args[0], args[1])
            if high.lo - low.hi < (1 if attr == "randrange" else 0):
                raise Refused(f"line {line}: random.{attr} of a range that may be empty: the run may raise")
            return _int(low.lo, high.hi - (1 if attr == "randrange" else 0))
        if attr == "random" and not args:
            return _kind("unif")
        raise Refused(f"line {line}: random.{attr} with these arguments")
    if kinds == frozenset({"numpy"}) and attr == "clip" and len(args) == 3:
        a, floor, ceiling = args
        for v in args:
            if not v.kinds or not v.kinds <= {"int", "np"}:
                raise Refused(f"line {line}: np.clip of something other than integers ({_kinds_text(v)})")
            _within_int64(v)
        # clip(a, floor, ceiling) = min(max(a, floor), ceiling), as numpy documents it
        raised = (max(a.lo, floor.lo), max(a.hi, floor.hi))
        return _V(frozenset({"np"}), min(raised[0], ceiling.lo), min(raised[1], ceiling.hi))
    if kinds == frozenset({"math"}) and len(args) == 1:
        v = args[0]
        if not v.kinds or not v.kinds <= _NUMBERS:
            raise Refused(f"line {line}: math.{attr} of something other than a number")
        if attr == "isqrt":
            _ints_of(v, "the argument of math.isqrt")
            if v.lo < 0:
                raise Refused(f"line {line}: math.isqrt of a value that may be negative: the run may raise")
            return _int(0, INF)
        if attr in ("floor", "ceil"):
            if not v.kinds <= _RANGED:
                raise Refused(f"line {line}: math.{attr} of a float (it may be infinite or NaN: the run may raise)")
            return _int(_floor(v.lo), _ceil(v.hi))
    raise Refused(f"line {line}: the call {attr} is not analysed")


def _genuine(module: types.ModuleType, names: Sequence[str]) -> bool:
    """Whether ``module``'s functions ``names`` are its own (defined in its package, not replaced by a user's)."""
    folder = os.path.dirname(os.path.abspath(getattr(module, "__file__", "") or ""))
    for name in names:
        f = getattr(module, name, None)
        if getattr(f, "__name__", None) != name:
            return False
        if isinstance(f, types.BuiltinFunctionType):  # C code: a function or method of the module's own
            if f.__self__ is not module and f.__self__ is not getattr(module, "_inst", module):
                return False
            continue
        f = getattr(f, "__func__", None) or getattr(f, "_implementation", None) or f  # a method, numpy's dispatch
        code = getattr(f, "__code__", None)
        if code is None or not os.path.abspath(code.co_filename).startswith(folder + os.sep):
            return False
    return True


def _random_methods_genuine(module: types.ModuleType) -> bool:
    """Whether the draws of ``random`` run the methods of ``random.Random`` this module found (not replaced on the
    class, nor shadowed on the module's hidden instance)."""
    inst = getattr(getattr(module, "randrange", None), "__self__", None)
    if type(inst) is not module.Random or not set(vars(inst)) <= {"gauss_next"}:  # no method shadowed on it
        return False
    found = vars(module.Random)
    return found.keys() == _RANDOM_CLASS.keys() and all(found[n] is f for n, f in _RANDOM_CLASS.items())


def _of(obj: Any) -> _V:
    """The abstract value of a known object."""
    kind = type(obj)
    if kind is bool:
        return _V(frozenset({"bool"}), int(obj), int(obj))
    if kind is int:
        return _V(frozenset({"int"}), obj, obj)
    if kind is float:
        return _kind("float")
    if obj is None:
        return _NONE
    if kind is str:
        return _kind("str")
    if kind is _FRACTION:
        return _V(frozenset({"frac"}), obj, obj)
    if obj is _FRACTION:
        return _kind("Fraction", obj)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        if kind is numpy.int64:  # a narrower or unsigned one wraps around inside the intervals: unknown
            return _V(frozenset({"np"}), int(obj), int(obj))
        if obj is numpy and _genuine(numpy, ["clip"]):
            return _kind("numpy", obj)
    if isinstance(obj, types.ModuleType):
        if obj is _RANDOM and _RANDOM_GENUINE and _genuine(obj, _RANDOM_DRAWS) and _random_methods_genuine(obj):
            return _kind("random", obj)
        if obj is _MATH and _MATH_GENUINE and all(getattr(obj, n, None) is f for n, f in _MATH_FUNCTIONS.items()):
            return _kind("math", obj)
        return _kind("unknown")
    if kind is types.FunctionType:
        return _kind("function", obj)
    if any(obj is real for name, real in _BUILTINS.items() if name != "range"):
        return _kind("builtin", obj)
    return _kind("unknown")


def _domain_value(domain: Sequence[Any]) -> _V:
    """The abstract value of the input: integers (or bools) within the domain's bounds, else unknown."""
    values = [_of(v) for v in domain]
    out: _V | None = None
    for v in values:
        if not v.kinds or not v.kinds <= {"int", "bool"}:
            return _kind("unknown")
        out = _join(out, v)
    return out if out is not None else _kind("unknown")


def proven_outputs(fn: Callable[..., Any], domain: Sequence[Any], *, pass_rng: bool) -> ProvenOutputs:
    """Every value ``fn(x)`` (``fn(x, rng=...)`` with ``pass_rng``, the audit's generator) can return for ``x`` in
    ``domain``, proven from its source (the module docstring says how, and when it refuses).

    Raises
    ------
    Refused
        When the source does not prove a finite set (the message says why).

    Examples
    --------
    >>> import linecache, textwrap
    >>> source = textwrap.dedent('''
    ...     def clamped(x, rng):
    ...         z = rng.geometric(0.5) - rng.geometric(0.5)
    ...         return max(0, min(3, x + z))
    ...
    ...     def leaky(x, rng):
    ...         if rng.random() < 0.5:
    ...             return x + 0.5
    ...         return max(0, min(3, x))
    ... ''')
    >>> linecache.cache["<proven>"] = (len(source), None, source.splitlines(True), "<proven>")
    >>> namespace = {}
    >>> exec(compile(source, "<proven>", "exec", dont_inherit=True), namespace)
    >>> proven_outputs(namespace["clamped"], [0, 1, 2, 3], pass_rng=True).values
    (0, 1, 2, 3)
    >>> proven_outputs(namespace["leaky"], [0, 1], pass_rng=True)
    Traceback (most recent call last):
    ...
    relations.audit._proven.Refused: the function may return float (not only integers)
    """
    if type(fn) is not types.FunctionType:
        raise Refused("the randomizer is not a plain function (a method, a partial, a class or a builtin)")
    numpy = sys.modules.get("numpy")
    if numpy is not None and {"raise", "call", "log"} & set(numpy.geterr().values()):
        raise Refused("numpy is set to raise (or call code) on arithmetic errors (np.seterr): a run may raise")
    replaced = _fraction_replaced()
    if replaced is not None:
        raise Refused(f"fractions.Fraction is not the standard library's ({replaced} replaced)")
    analysis = _Analysis()
    node = analysis._def(fn)
    params = node.args.posonlyargs + node.args.args
    if not params or params[0].arg == "rng":
        raise Refused("the randomizer takes no input parameter")
    args = {params[0].arg: _domain_value(domain)}
    if pass_rng:
        args["rng"] = _kind("generator")
    try:
        result = analysis.call(fn, args)
    except Refused:
        raise
    except (RecursionError, MemoryError, ValueError, TypeError, AttributeError, OverflowError) as exc:
        raise Refused(f"the analysis gave up ({type(exc).__name__}: {exc})") from None  # unsure: no set
    odd = result.kinds - _INTS - {"npbool"}
    if odd:
        raise Refused(f"the function may return {' or '.join(sorted(odd))} (not only integers)")
    lo, hi = result.lo, result.hi
    if math.isinf(lo) or math.isinf(hi):
        raise Refused("the function's integer result is not bounded on both sides (no clamp proven)")
    lo, hi = int(lo), int(hi)
    values: list[Any] = []
    if result.kinds & {"int", "np"}:
        if hi - lo + 1 > MAX_PROVEN:
            raise Refused(f"the function may return {hi - lo + 1} integers, more than {MAX_PROVEN}")
        values += range(lo, hi + 1)
    if "npbool" in result.kinds:  # a numpy bool, the output of a Python bool: either
        values += [False, True]
    elif "bool" in result.kinds:
        values += [b for b in (False, True) if lo <= int(b) <= hi]
    where = f"{os.path.basename(fn.__code__.co_filename)}:{node.lineno} ({fn.__qualname__})"
    return ProvenOutputs(tuple(values), where)
