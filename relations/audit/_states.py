"""The state of a randomizer at a draw, and the finite Markov chain of a loop whose state repeats.

A loop on draws (rejection sampling, "retry until", resampling) that reaches the same draw with the same
state as before has the same continuation as before: the enumeration cuts the path there
(:class:`~relations.audit._enumerate.Jump`) and :func:`solve_chain` solves the finite Markov chain of the
states that repeat, exactly, in rationals.

*The state* (:func:`snapshot`) is what determines the continuation, taken from the frames of the running
code, from the draw up to the randomizer's own call: each frame's code, the instruction it is at, its local
variables (with the cells it shares), and for the user's frames their module's globals and those of the user's
modules it imports; objects are compared by value (pickled, with modules, functions, classes and the audit's
own generator by identity).  It cannot be told, and the node gets no state (so that no path is cut there), when

* a frame holds values on CPython's operand stack below the call in progress (a ``for`` loop's iterator, a
  ``with`` block, an expression still being evaluated: ``[a, rng.random() < p]``): they are not visible from
  Python, so two visits could differ there.  Found by a static analysis of the frame's bytecode
  (:func:`hidden_stack`), which answers "hidden" whenever it cannot tell;
* an object cannot be pickled (an open file, a lock, a generator object), or the code seeded a generator in the
  run (Python's or numpy's global state, which no frame holds).

Kept free of the rest of the package so that a worker interpreter can run it alone.
"""

from __future__ import annotations

import dis
import io
import pickle
import random as _random
import sys
import types
from fractions import Fraction
from typing import Any

__all__ = ["snapshot", "hidden_stack", "solve_chain", "OWN_FILES"]

#: The audit's own modules whose frames sit between the randomizer and a draw: their operand stack holds only
#: values derived from their locals (checked by reading them), so only their locals are part of the state.
OWN_FILES = tuple(f"relations{sep}audit{sep}{name}.py" for sep in ("/", "\\")
                  for name in ("_generator", "_intercept", "_enumerate", "_vectors", "_worker", "_exact"))

_ONE_RESULT = {"CALL", "CALL_FUNCTION_EX", "COMPARE_OP", "BINARY_OP", "BINARY_SUBSCR", "CALL_KW"}
_NO_FALLTHROUGH = {"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE", "JUMP_FORWARD", "JUMP_BACKWARD",
                   "JUMP_BACKWARD_NO_INTERRUPT", "JUMP_ABSOLUTE", "JUMP", "JUMP_NO_INTERRUPT"}
_DEPTHS: dict[types.CodeType, dict[int, tuple[int, dis.Instruction]] | None] = {}


def _depths(code: types.CodeType) -> dict[int, tuple[int, dis.Instruction]] | None:
    """The operand-stack depth before each instruction reached from the start (not through exception handlers),
    by abstract interpretation of the bytecode; ``None`` when the analysis meets anything it does not know."""
    if code in _DEPTHS:
        return _DEPTHS[code]
    result: dict[int, tuple[int, dis.Instruction]] | None = {}
    try:
        instructions = [i for i in dis.get_instructions(code) if i.opname != "CACHE"]
        at = {ins.offset: n for n, ins in enumerate(instructions)}
        jumps = set(dis.hasjrel) | set(dis.hasjabs)
        work = [(0, 0)]
        while work and result is not None:
            n, depth = work.pop()
            while n < len(instructions):
                ins = instructions[n]
                known = result.get(ins.offset)
                if known is not None:
                    if known[0] != depth:
                        result = None
                    break
                result[ins.offset] = (depth, ins)
                arg = ins.arg if ins.opcode >= dis.HAVE_ARGUMENT else None
                if ins.opcode in jumps:
                    target = at.get(ins.argval)
                    if target is None:
                        result = None
                        break
                    work.append((target, depth + dis.stack_effect(ins.opcode, arg, jump=True)))
                    if ins.opname in _NO_FALLTHROUGH:
                        break
                    depth += dis.stack_effect(ins.opcode, arg, jump=False)
                elif ins.opname in _NO_FALLTHROUGH:
                    break
                else:
                    depth += dis.stack_effect(ins.opcode, arg)
                if depth < 0:
                    result = None
                    break
                n += 1
    except (ValueError, TypeError, KeyError):
        result = None
    if len(_DEPTHS) > 4096:
        _DEPTHS.clear()
    _DEPTHS[code] = result
    return result


def hidden_stack(code: types.CodeType, lasti: int) -> bool:
    """Whether a frame of ``code`` stopped at ``lasti`` (inside a call, a comparison or an operator) may hold
    values on its operand stack below the operands of that instruction: ``True`` when it does, or when the
    analysis cannot tell.

    Examples
    --------
    >>> import sys
    >>> def probe():
    ...     f = sys._getframe(1)
    ...     return hidden_stack(f.f_code, f.f_lasti)
    >>> def plain():
    ...     y = probe()
    ...     return y
    >>> def in_list():
    ...     pair = [len("ab"), probe()]
    ...     return pair[1]
    >>> def in_for():
    ...     for _ in (1,):
    ...         return probe()
    >>> def in_int():
    ...     return bool(int(probe()))
    >>> plain(), in_list(), in_for(), in_int()
    (False, True, True, False)
    """
    depths = _depths(code)
    if not depths:
        return True
    offset = max((o for o in depths if o <= lasti), default=None)
    if offset is None:
        return True
    depth, ins = depths[offset]
    if ins.opname not in _ONE_RESULT:
        return True
    arg = ins.arg if ins.opcode >= dis.HAVE_ARGUMENT else None
    hidden = depth - (1 - dis.stack_effect(ins.opcode, arg))
    return hidden != 0 and not _pure_below(code, depths, offset, hidden)


def _pure_below(code: types.CodeType, depths: dict[int, tuple[int, dis.Instruction]], offset: int,
                hidden: int) -> bool:
    """Whether the ``hidden`` values below the operands of the instruction at ``offset`` are each a constant, a
    global or builtin looked up (``int`` in ``int(rng.integers(k))``, with the NULL CPython pushes with it), or a
    local variable not stored since (``x + rng.integers(k)``): values the state holds.  Read on the straight
    code from the last point where the stack was empty; any other instruction there answers ``False``."""
    order = sorted(depths)
    n = order.index(offset)
    start = n
    while depths[order[start]][0] > 0:  # back to where the stack was empty, on straight code
        if start == 0 or depths[order[start]][1].is_jump_target:
            return False
        start -= 1
        ins = depths[order[start]][1]
        if ins.opcode in dis.hasjrel or ins.opcode in dis.hasjabs:
            return False
    stack: list[Any] = []  # per value: the local it was loaded from, True (pure) or False (opaque)
    for o in order[start:n]:
        ins = depths[o][1]
        name = ins.opname
        if name in ("LOAD_CONST", "PUSH_NULL"):
            stack.append(True)
        elif name == "LOAD_GLOBAL":
            stack += [True, True] if ins.arg is not None and ins.arg & 1 and sys.version_info < (3, 12) else [True]
            if sys.version_info >= (3, 12):
                return False
        elif name == "LOAD_FAST":
            stack.append(ins.argval)
        elif name in ("STORE_FAST", "DELETE_FAST"):
            return False
        elif name == "LOAD_METHOD" and stack:
            top = stack.pop()
            stack += [top, top]
        elif name in ("PRECALL", "KW_NAMES", "NOP", "RESUME"):
            pass
        elif name == "CALL" and sys.version_info < (3, 12) and ins.arg is not None and len(stack) >= ins.arg + 2:
            del stack[len(stack) - ins.arg - 2:]
            stack.append(False)
        elif name in ("BINARY_OP", "COMPARE_OP", "BINARY_SUBSCR") and len(stack) >= 2:
            del stack[-2:]
            stack.append(False)
        else:
            return False
    return len(stack) >= hidden and all(v is True or isinstance(v, str) for v in stack[:hidden])


class _Pickler(pickle.Pickler):
    """Values by value; modules, functions, classes, code and the audit's generator by identity."""

    def __init__(self, file: Any, tokens: tuple[type, ...]):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.tokens = tokens

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, self.tokens):  # the audit's generator and replay: one per run, all alike
            return type(obj).__name__
        if isinstance(obj, _BY_IDENTITY):
            return id(obj)
        return None

    def reducer_override(self, obj: Any) -> Any:
        """A function made at run time (a closure) by its code, the values of its cells and its defaults."""
        if type(obj) is types.FunctionType and obj is not _function:
            cells = tuple(c.cell_contents if _filled(c) else _EMPTY for c in obj.__closure__ or ())
            return _function, (id(obj.__code__), cells, obj.__defaults__, obj.__kwdefaults__)
        return NotImplemented


_EMPTY = "<empty cell>"


def _function(*parts: Any) -> None:  # pragma: no cover - never unpickled: the bytes are only compared
    return None


def _filled(cell: Any) -> bool:
    try:
        _ = cell.cell_contents
    except ValueError:
        return False
    return True


_BY_IDENTITY = tuple(t for t in (_random.SystemRandom, types.ModuleType, types.BuiltinFunctionType, types.CodeType, type,
                types.MethodDescriptorType, types.WrapperDescriptorType, types.BuiltinMethodType) if isinstance(t, type))  # (SystemRandom is patched in the closed world)


def _installed() -> tuple[str, ...]:
    import sysconfig

    paths = {sysconfig.get_paths().get(k, "") for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    return tuple(p for p in paths if p)


_INSTALLED = _installed()


def _user_module(module: Any) -> bool:
    """The user's own module (not the standard library's, nor an installed package's)."""
    root = getattr(module, "__name__", "").split(".")[0]
    if root in sys.stdlib_module_names or root in ("numpy", "scipy", "relations", "builtins"):
        return False
    where = getattr(module, "__file__", None) or ""
    return bool(where) and not where.startswith(_INSTALLED)


def _globals_state(g: dict) -> dict:
    """A module's globals that can change (not its functions, classes and modules), and those of the user's
    modules it imports, one level down."""
    out = {}
    fixed = _BY_IDENTITY + (types.FunctionType,)
    for name, v in g.items():
        if isinstance(v, types.ModuleType):
            if _user_module(v):
                out[name] = {k: w for k, w in vars(v).items()
                             if not k.startswith("__") and not isinstance(w, fixed)}
        elif not name.startswith("__") and not isinstance(v, fixed):
            out[name] = v
        elif isinstance(v, type) and v.__module__ == g.get("__name__"):  # the user's classes: their attributes
            out[name] = {k: w for k, w in vars(v).items() if not k.startswith("__") and not isinstance(w, fixed)}
    return out


def snapshot(stop: types.CodeType, tokens: tuple[type, ...], *, skip: int = 1) -> bytes | None:
    """The state of the running randomizer at a draw (see the module's docstring), as bytes; ``None`` when it
    cannot be told.  Frames are walked from the caller of ``snapshot`` (``skip`` frames up) to the frame running
    ``stop`` (the enumerator's call of the randomizer), which is not included; ``tokens`` are more types
    compared by identity (the audit's generator and replay)."""
    frame: Any = sys._getframe(skip + 1)
    parts: list[Any] = []
    seen_globals: set[int] = set()
    while frame is not None and frame.f_code is not stop:
        code = frame.f_code
        own = code.co_filename.endswith(OWN_FILES)
        if not own and hidden_stack(code, frame.f_lasti):
            return None
        local = dict(frame.f_locals)
        g = frame.f_globals
        if not own and id(g) not in seen_globals:
            seen_globals.add(id(g))
            parts.append((code, frame.f_lasti, local, _globals_state(g)))
        else:
            parts.append((code, frame.f_lasti, local))
        frame = frame.f_back
    if frame is None:
        return None
    buffer = io.BytesIO()
    try:
        _Pickler(buffer, tokens).dump(parts)
    except Exception:  # noqa: BLE001 - any object that cannot be pickled (its __reduce__ may raise anything)
        return None
    return buffer.getvalue()


def solve_chain(rows: list[list[Fraction]], exits: list[list[Fraction]]) -> list[list[Fraction]] | None:
    """Solve ``v = exits + rows v`` exactly: ``rows[k][l]`` the probability of going from state ``k`` to state
    ``l``, ``exits[k][j]`` that of ending in outcome ``j``; the absorption probabilities ``v[k][j]``, or
    ``None`` when ``I - rows`` is singular (a set of states the explored paths never leave: the loop would run
    forever).

    Examples
    --------
    A loop that repeats with probability 1/4 and otherwise ends in one of three outcomes:

    >>> from fractions import Fraction as F
    >>> solve_chain([[F(1, 4)]], [[F(1, 4), F(1, 4), F(1, 4)]])
    [[Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)]]
    >>> solve_chain([[F(1)]], [[F(0)]]) is None
    True
    """
    n = len(rows)
    width = len(exits[0]) if exits else 0
    a = [[(1 if i == j else 0) - rows[i][j] for j in range(n)] + list(exits[i]) for i in range(n)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if a[r][col] != 0), None)
        if pivot is None:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        a[col] = [v / p for v in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0:
                f = a[r][col]
                a[r] = [v - f * w for v, w in zip(a[r], a[col])]
    return [[Fraction(v) for v in a[i][n:n + width]] for i in range(n)]
