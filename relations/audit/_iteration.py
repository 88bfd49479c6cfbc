"""Iteration over a factorised vector of bits, kept factorised where the code is proven to return it mapped.

``int(b)`` must return a real ``int``, so code that iterates over a vector of independent bits and converts
each one (``tuple(int(b) for b in bits)``) would read every bit, one branch per bit: ``2^d`` paths.  Yet the
output of such code is each coordinate mapped alone, a product again.  :func:`returned_map` proves that from
the randomizer's source, at the moment the iteration starts, for these shapes (``E`` an *element map*: the
loop variable ``b``, ``int(E)``, ``bool(E)``, ``float(E)`` or ``1 - E``, the names ``int``, ``bool``, ``float``,
``tuple`` and ``list`` being the builtins):

* ``return tuple(E for b in V)``, ``return list(E for b in V)``, ``return [E for b in V]``,
  ``return tuple([E for b in V])``;
* ``return tuple(V)``, ``return list(V)``;
* any of these assigned, ``OUT = tuple(E for b in V)``, and at once ``return OUT`` (or ``tuple(OUT)``,
  ``list(OUT)``);
* ``OUT = []`` and at once ``for b in NAME: OUT.append(E)`` followed at once by ``return OUT``, ``return
  tuple(OUT)`` or ``return list(OUT)``, ``OUT`` and ``NAME`` plain locals (so that no code runs between the
  fresh list and the iteration: a call could fill it without naming it, through ``eval`` or ``locals()``).

Each statement must be one of the function's own (not inside a ``try``, ``with``, loop or condition), and the
function must be the randomizer itself, called by the enumerator (its caller's frame is the audit's ``_run``,
through the worker's clock at most, each frame running the code of the function its caller calls: not a class's
``__init__``), and the source file, compiled, must hold the very code that runs:
then nothing but the map and the ``return`` runs after the iteration, and what the function returns is the
vector mapped coordinate by coordinate, ``E`` applied to each bit as numpy would yield it (``numpy.bool_`` for
a boolean vector, ``numpy.int64`` after ``astype(int)``, ``numpy.float64``).  The iteration then ends the call
at once by raising :class:`Returned` with that value (a :class:`~relations.audit._vectors.BitVector`), which
the enumerator takes as the return value.  Any other shape returns ``None``, and the bits are read one by
one as before (refused beyond :data:`~relations.audit._vectors.MATERIALISE_BITS` uncertain bits).
"""

from __future__ import annotations

import ast
import contextlib
import dis
import functools
import inspect
import os
import types
from collections.abc import Callable, Iterator
from types import CodeType, FrameType
from typing import Any

from relations.audit._source import function_node

__all__ = ["Returned", "returned_map", "iteration_maps", "ELEMENT_MAPS", "called_by_enumerator", "frame_position"]

#: Builtins an element map may call on a bit.
ELEMENT_MAPS = ("int", "bool", "float")
_CONTAINERS = ("tuple", "list")
#: The real types of these names, whatever ``builtins`` holds (``type(0)`` even if ``builtins.int`` was replaced).
_REAL: dict[str, type] = {"int": type(0), "bool": type(True), "float": type(0.0),  # noqa: UP003
                          "tuple": type(()), "list": type([])}  # noqa: UP003
#: The instructions that call ``tuple(NAME)``: CPython 3.11 specialises ``PRECALL`` to make a builtin's call
#: itself (``PRECALL_BUILTIN_CLASS``), so the frame may be at either.
_CALLS = ("CALL", "PRECALL")


class Returned(BaseException):
    """The randomizer's call ends here, returning ``value``: raised from its own frame when the rest of its
    code is proven to compute exactly that (a ``BaseException``, so that no ``except Exception`` of the code
    takes it; the proof requires that no ``try`` encloses the statement)."""

    def __init__(self, value: Any):
        super().__init__()
        self.value = value


class _Switch:
    """Whether iterations are kept factorised (``enabled``), and how many were (``used``): an enumeration that
    fails with some kept and some not is run again with them :meth:`off` (every bit read one by one)."""

    def __init__(self) -> None:
        self.enabled, self.used = True, 0

    @contextlib.contextmanager
    def off(self) -> Iterator[None]:
        was, self.enabled = self.enabled, False
        try:
            yield
        finally:
            self.enabled = was


#: The process's switch (:class:`_Switch`).
iteration_maps = _Switch()

def frame_position(frame: FrameType) -> tuple[str, tuple[Any, ...]] | None:
    """The instruction ``frame`` is at and its source span ``(line, end line, column, end column)``."""
    return _positions(frame.f_code).get(frame.f_lasti)


@functools.lru_cache(maxsize=256)
def _positions(code: CodeType) -> dict[int, tuple[str, tuple[Any, ...]] | None]:
    """Every instruction's offset in ``code`` -> its name and source span (``None`` without one), decoded once
    per code object (a path of an audit asks at every draw; equal code objects have the same instructions and
    line table, so they share an entry)."""
    out: dict[int, tuple[str, tuple[Any, ...]] | None] = {}
    for ins in dis.get_instructions(code):
        p = ins.positions
        out.setdefault(ins.offset, None if p is None else (ins.opname, (p.lineno, p.end_lineno, p.col_offset,
                                                                        p.end_col_offset)))
    return out


def _at(node: ast.AST, span: tuple[Any, ...]) -> bool:
    return (getattr(node, "lineno", None), getattr(node, "end_lineno", None), getattr(node, "col_offset", None),
            getattr(node, "end_col_offset", None)) == span


def _builtin(frame: FrameType, name: str) -> Any:
    """The builtin ``name`` when the frame's code sees it as the builtin (not a local, a closure's or a global
    that shadows it, nor a replacement assigned to ``builtins``), else ``None``."""
    code = frame.f_code
    if name in code.co_varnames or name in code.co_cellvars or name in code.co_freevars or name in frame.f_globals:
        return None
    value = frame.f_builtins.get(name)
    return value if value is _REAL[name] else None


def _element(node: ast.expr, var: str, frame: FrameType) -> Callable[[Any], Any] | None:
    """The element map ``node`` of the loop variable ``var`` as a function, or ``None`` when it is not one."""
    if isinstance(node, ast.Name) and node.id == var:
        return lambda v: v
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ELEMENT_MAPS
            and len(node.args) == 1 and not node.keywords and not isinstance(node.args[0], ast.Starred)):
        convert, inner = _builtin(frame, node.func.id), _element(node.args[0], var, frame)
        if convert is None or inner is None:
            return None
        applied: Callable[[Any], Any] = convert
        first: Callable[[Any], Any] = inner
        return lambda v: applied(first(v))
    if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and isinstance(node.left, ast.Constant)
            and type(node.left.value) is int and node.left.value == 1):
        negated = _element(node.right, var, frame)
        if negated is None:
            return None
        operand: Callable[[Any], Any] = negated
        return lambda v: 1 - operand(v)
    return None


def _comprehension(node: ast.expr, frame: FrameType) -> Callable[[Any], Any] | None:
    """The element map of ``[E for b in V]`` or ``(E for b in V)`` (one plain ``for``, no condition)."""
    if not isinstance(node, (ast.ListComp, ast.GeneratorExp)) or len(node.generators) != 1:
        return None
    gen = node.generators[0]
    if gen.ifs or gen.is_async or not isinstance(gen.target, ast.Name):
        return None
    if gen.target.id in ELEMENT_MAPS:  # ``int(int) for int in V``: the name is the bit there, not the builtin
        return None
    return _element(node.elt, gen.target.id, frame)


def _container(node: ast.expr, frame: FrameType) -> ast.expr | None:
    """The one argument of ``tuple(ARG)`` or ``list(ARG)`` (the builtins), else ``None``."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CONTAINERS
            and len(node.args) == 1 and not node.keywords and not isinstance(node.args[0], ast.Starred)
            and _builtin(frame, node.func.id) is not None):
        return node.args[0]
    return None


def _loop(body: list[ast.stmt], j: int, frame: FrameType) -> Callable[[Any], Any] | None:
    """The element map of ``OUT = []`` then at once ``for b in NAME: OUT.append(E)`` then ``return OUT`` (or
    ``tuple(OUT)``, ``list(OUT)``) at ``body[j]``, ``OUT`` and ``NAME`` plain locals."""
    loop = body[j]
    if not isinstance(loop, ast.For) or loop.orelse or len(loop.body) != 1 or not isinstance(loop.target, ast.Name):
        return None
    call = loop.body[0].value if isinstance(loop.body[0], ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append"
            and isinstance(call.func.value, ast.Name) and len(call.args) == 1 and not call.keywords):
        return None
    out, var = call.func.value.id, loop.target.id
    code = frame.f_code
    if out == var or not _plain_local(out, code) or not _returns_next(body, j, out, frame):
        return None
    # ``OUT = []`` just before the loop, over a local: no code runs between the fresh list and the iteration
    # (any call could fill it without naming it: ``eval``, ``locals()``, a frame's ``f_locals``)
    fresh = body[j - 1] if j else None
    if not (isinstance(fresh, ast.Assign) and len(fresh.targets) == 1 and isinstance(fresh.targets[0], ast.Name)
            and fresh.targets[0].id == out and isinstance(fresh.value, ast.List) and not fresh.value.elts):
        return None
    if not (isinstance(loop.iter, ast.Name) and _plain_local(loop.iter.id, code)):
        return None
    return _element(call.args[0], var, frame)


_HERE = os.path.dirname(os.path.abspath(__file__))
#: Frames between the enumerator and the randomizer that pass its return value on unchanged: the worker's
#: clock (``_timed``'s ``call``), known by file and name (a worker interpreter runs ``_worker`` as ``__main__``).
_PASSING = {(os.path.join(_HERE, "_worker.py"), "call")}
_ENUMERATOR = (os.path.join(_HERE, "_exact.py"), "_run")


def _returned_at_once(body: list[ast.stmt], j: int, frame: FrameType) -> bool:
    """Whether ``body[j]`` is ``OUT = VALUE``, ``OUT`` a plain local, followed at once by ``return OUT`` (or
    ``tuple(OUT)``, ``list(OUT)``): the function returns ``VALUE`` (converted by the builtin)."""
    stmt = body[j]
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return False
    out = stmt.targets[0].id
    return _plain_local(out, frame.f_code) and _returns_next(body, j, out, frame)


def _plain_local(name: str, code: CodeType) -> bool:
    """Whether ``name`` is a plain local of ``code``: not a global, nor shared with a closure."""
    return name in code.co_varnames and name not in code.co_cellvars and name not in code.co_freevars


def _returns_next(body: list[ast.stmt], j: int, out: str, frame: FrameType) -> bool:
    """Whether ``body[j + 1]`` is ``return OUT`` (or ``tuple(OUT)``, ``list(OUT)`` by the builtins)."""
    if j + 1 >= len(body) or not isinstance(body[j + 1], ast.Return):
        return False
    value = body[j + 1].value  # type: ignore[attr-defined]
    if value is not None and not isinstance(value, ast.Name):
        value = _container(value, frame)
    return isinstance(value, ast.Name) and value.id == out


def called_by_enumerator(frame: FrameType) -> bool:
    """Whether ``frame`` is the randomizer's own call by the enumerator (``_run``), through nothing but the
    worker's clock."""
    # each frame must be the own of the function its caller calls (``fn`` there), whose return is the call's
    # value: not, say, the ``__init__`` run by calling a class (whose value is the instance)
    callee, caller = frame, frame.f_back
    while caller is not None:
        code = caller.f_code  # (read once: each read of a frame's code raises an audit event, a call of a hook)
        where = (_absolute(code.co_filename), code.co_name)
        if where not in _PASSING and where != _ENUMERATOR:
            return False
        if _called_code(caller.f_locals.get("fn")) is not callee.f_code:
            return False
        if where == _ENUMERATOR:
            return True
        callee, caller = caller, caller.f_back
    return False


def _absolute(filename: str) -> str:
    """``os.path.abspath(filename)``, worked out once per absolute name (asked for each frame between a draw and the
    enumerator); a relative name depends on the working directory, so it is worked out each time."""
    return _normalised(filename) if os.path.isabs(filename) else os.path.abspath(filename)


_normalised = functools.lru_cache(maxsize=256)(os.path.abspath)


def _called_code(fn: Any) -> CodeType | None:
    """The code that calling ``fn`` runs and whose return is the call's value: a function's, through
    :func:`functools.partial` and bound methods, or the ``__call__`` of an instance; else ``None``."""
    for _ in range(8):
        if isinstance(fn, functools.partial):
            fn = fn.func
        elif isinstance(fn, types.MethodType):
            fn = fn.__func__
        elif isinstance(fn, types.FunctionType):
            return fn.__code__
        elif not isinstance(fn, type) and isinstance(vars(type(fn)).get("__call__"), types.FunctionType):
            fn = vars(type(fn))["__call__"]
        else:
            return None
    return None


def returned_map(frame: FrameType, vector: Any) -> Callable[[Any], Any] | None:
    """The element map with which ``frame`` (the randomizer's own, iterating over ``vector`` at its current
    instruction) is proven to return ``vector``, coordinate by coordinate; ``None`` otherwise (the module
    docstring lists the shapes).

    The iteration must be the frame's own ``GET_ITER`` of the loop or comprehension (which calls ``iter`` on
    the value itself, never through a lazy wrapper such as ``itertools.chain``), or ``tuple(NAME)`` /
    ``list(NAME)`` with ``NAME`` a local bound to ``vector`` itself."""
    if not iteration_maps.enabled or not called_by_enumerator(frame):
        return None
    element = _proven(frame, vector)
    if element is not None:
        iteration_maps.used += 1
    return element


def _proven(frame: FrameType, vector: Any) -> Callable[[Any], Any] | None:
    if frame.f_code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR):
        return None  # its ``return`` is not the call's value
    func = function_node(frame.f_code)
    at = frame_position(frame)
    if func is None or at is None:
        return None
    opname, span = at
    body = func.body
    for j, stmt in enumerate(body):
        if isinstance(stmt, ast.For) and _at(stmt, span):
            return _loop(body, j, frame) if opname == "GET_ITER" else None
        if isinstance(stmt, ast.Assign) and _returned_at_once(body, j, frame):  # OUT = ...; return OUT
            value = stmt.value
        elif isinstance(stmt, ast.Return) and stmt.value is not None:
            value = stmt.value
        else:
            continue
        inner = _container(value, frame)
        if inner is not None and _at(value, span):  # tuple(NAME), list(NAME): iterated by the builtin
            same = (opname in _CALLS and isinstance(inner, ast.Name)
                    and frame.f_locals.get(inner.id, None) is vector)
            return (lambda v: v) if same else None
        target = inner if inner is not None else value
        if _at(target, span):
            return _comprehension(target, frame) if opname == "GET_ITER" else None
    return None
