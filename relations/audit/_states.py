"""The state of a randomizer at a draw, and the finite Markov chain of a loop whose state repeats.

A loop on draws (rejection sampling, "retry until", resampling) that reaches the same draw with the same
state as before has the same continuation as before: the enumeration cuts the path there
(:class:`~relations.audit._enumerate.Jump`) and :func:`solve_chain` solves the finite Markov chain of the
states that repeat, exactly, in rationals.

*The state* (:func:`snapshot`) is what determines the continuation, taken from the frames of the running
code, from the draw up to the randomizer's own call: each frame's code, the instruction it is at, its local
variables (with the cells it shares), and for the user's frames their module's globals and those of the user's
modules it imports, and what ``sys.modules`` holds under the names of the user's modules (:func:`_user_entries`);
objects are compared by value (pickled, with modules, functions, classes and the audit's own generator by
identity).  It cannot be told, and the node gets no state (so that no path is cut there), when

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
import functools
import inspect
import io
import math
import operator
import pickle
import random as _random
import sys
import types
from fractions import Fraction
from typing import Any

from relations.audit._independent import CONTINUATIONS

__all__ = ["snapshot", "carried", "hidden_stack", "live_locals", "solve_chain", "OWN_FILES", "compared_with"]

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
    key = (code, lasti)
    known = _HIDDEN.get(key)
    if known is None:
        if len(_HIDDEN) > 65536:
            _HIDDEN.clear()
        known = _HIDDEN[key] = _hidden_now(code, lasti)
    return known


_HIDDEN: dict[tuple[types.CodeType, int], bool] = {}  # static: the same few (code, instruction) at every draw


def _hidden_now(code: types.CodeType, lasti: int) -> bool:
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
    # per value: the local it was loaded from (a str), True (a constant), _SHARED (a global, an attribute of
    # one, a cell: read from a place that a later call may change) or False (opaque)
    stack: list[Any] = []
    for o in order[start:n]:
        ins = depths[o][1]
        name = ins.opname
        if name in ("LOAD_CONST", "PUSH_NULL"):
            stack.append(True)
        elif name == "LOAD_GLOBAL":
            stack += [True, _SHARED] if ins.arg is not None and ins.arg & 1 and sys.version_info < (3, 12) else [
                _SHARED]
            if sys.version_info >= (3, 12):
                return False
        elif name == "LOAD_FAST":  # a local: its value is in the state, and no call can store it
            stack.append(ins.argval)
        elif name == "LOAD_DEREF":  # a cell: its value is in the state, until a call stores it
            stack.append(_SHARED)
        elif name in ("STORE_FAST", "DELETE_FAST", "STORE_DEREF", "DELETE_DEREF"):
            return False
        elif name == "LOAD_ATTR" and stack and stack[-1] is _SHARED and not (
                sys.version_info >= (3, 12) and ins.arg is not None and ins.arg & 1):
            pass  # an attribute of a global (a module's function, a global object's field): a global read too
        elif name == "LOAD_METHOD" and stack:
            top = stack.pop()
            stack += [top, top]
        elif name in ("PRECALL", "KW_NAMES", "NOP", "RESUME"):
            pass
        elif name == "CALL" and sys.version_info < (3, 12) and ins.arg is not None and len(stack) >= ins.arg + 2:
            del stack[len(stack) - ins.arg - 2:]
            # the call may store a global, an attribute or a cell read below it: the state then holds the new
            # value, the stack the old one (``g + rng.integers(f())`` with ``f`` storing ``g``)
            stack = [False if v is _SHARED else v for v in stack]
            stack.append(False)
        elif name in ("BINARY_OP", "COMPARE_OP", "BINARY_SUBSCR") and len(stack) >= 2:
            del stack[-2:]
            stack.append(False)
        else:
            return False
    return len(stack) >= hidden and all(v is True or v is _SHARED or isinstance(v, str) for v in stack[:hidden])


_SHARED = object()


_READS = {"LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_AND_CLEAR", "DELETE_FAST", "LOAD_CLOSURE"}
_WRITES = {"STORE_FAST", "STORE_FAST_MAYBE_NULL"}
_LIVE: dict[types.CodeType, dict[int, frozenset[str]] | None] = {}
#: Names whose call reads the frame's locals without a LOAD_FAST (``dir()`` lists the bound ones, ``super()``
#: reads the first argument): any of them in the code makes every local live.
_READS_FRAME = frozenset({"locals", "vars", "exec", "eval", "dir", "super", "_getframe", "currentframe"})


#: Whether code other than the audit's own took hold of a frame while the states were recorded
#: (:func:`frames_read`): ``[watching, read, in the hook]``.
_FRAME_WATCH = [False, False, False]
_FRAME_EVENTS = frozenset({"sys._getframe", "sys._current_frames", "gc.get_referrers", "gc.get_objects"})
_FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
_OWN_DIR = tuple(f"relations{sep}audit{sep}" for sep in ("/", "\\"))


def _frame_hook(event: str, args: tuple, watch: list = _FRAME_WATCH, events: frozenset = _FRAME_EVENTS,
                attributes: frozenset = _FRAME_ATTRIBUTES) -> None:
    """An audit hook (:func:`sys.addaudithook`): every way to a frame from Python raises one of these events.
    Called for every event of the process (``id()``, ``__code__`` reads ...): the common case returns at once."""
    if not watch[0] or watch[2]:
        return
    if event == "object.__getattr__":
        if len(args) < 2 or args[1] not in attributes:
            return
    elif event not in events:
        return
    _FRAME_WATCH[2] = True
    try:
        where = sys._getframe(1).f_code.co_filename  # the code that asked for the frame
        if not any(part in where for part in _OWN_DIR):
            _FRAME_WATCH[1] = True
    finally:
        _FRAME_WATCH[2] = False


class frames_read:  # noqa: N801 - used as a function, in a with statement
    """While the states are recorded: whether the code took hold of a frame (``sys._getframe``,
    ``inspect.currentframe``, a traceback's ``tb_frame``, a generator's ``gi_frame``), in its own functions or
    a helper's.  A frame read by a callee (``sys._getframe(1).f_locals``) reads locals that the data flow of the
    caller's own code (:func:`live_locals`) takes for dead: the states recorded leave them out, so they cannot
    be trusted.  ``with frames_read() as read: ...`` then ``read()``.

    Examples
    --------
    >>> import sys
    >>> with frames_read() as read:
    ...     _ = sys._getframe(0)
    >>> read()
    True
    """

    def __enter__(self) -> Any:
        if not _HOOKED:
            sys.addaudithook(_frame_hook)
            _HOOKED.append(True)
        self.before = _FRAME_WATCH[:2]
        _FRAME_WATCH[0], _FRAME_WATCH[1] = True, False
        return lambda: self.seen

    def __exit__(self, *exc: Any) -> None:
        self.seen = _FRAME_WATCH[1]
        _FRAME_WATCH[0], _FRAME_WATCH[1] = self.before[0], self.before[1] or self.seen


_HOOKED: list[bool] = []


def _liveness(code: types.CodeType) -> dict[int, frozenset[str]] | None:
    """For each instruction, the local variables that may be read after it before being stored again (backward
    data flow over the jumps of the bytecode); ``None`` when that cannot be told (exception handlers, which
    the flow does not follow, ``locals()``, ``vars()``, ``dir()``, ``super()`` or a frame read in the code, an
    instruction it does not know)."""
    if code in _LIVE:
        return _LIVE[code]
    result: dict[int, frozenset[str]] | None = None
    try:
        if not code.co_exceptiontable and not _READS_FRAME & set(code.co_names):
            result = _flow(code)
    except (ValueError, TypeError, KeyError):
        result = None
    if len(_LIVE) > 4096:
        _LIVE.clear()
    _LIVE[code] = result
    return result


def _flow(code: types.CodeType) -> dict[int, frozenset[str]] | None:
    instructions = [i for i in dis.get_instructions(code) if i.opname != "CACHE"]
    at = {ins.offset: n for n, ins in enumerate(instructions)}
    jumps = set(dis.hasjrel) | set(dis.hasjabs)
    local_ops = {dis.opname[o] for o in dis.haslocal}
    uses: list[frozenset[str]] = []
    defs: list[frozenset[str]] = []
    successors: list[list[int]] = []
    for n, ins in enumerate(instructions):
        name, value = ins.opname, ins.argval
        names = tuple(value) if isinstance(value, tuple) else (value,)
        use: frozenset[str] = frozenset()
        define: frozenset[str] = frozenset()
        if name == "LOAD_FAST_LOAD_FAST" or name in _READS:
            use = frozenset(names)
        elif name == "STORE_FAST_LOAD_FAST":
            use, define = frozenset(names[1:]), frozenset(names[:1])
        elif name == "STORE_FAST_STORE_FAST" or name in _WRITES:
            define = frozenset(names)
        elif name in local_ops:
            return None  # a local variable instruction this analysis does not know
        uses.append(use)
        defs.append(define)
        nxt: list[int] = []
        if ins.opcode in jumps:
            target = at.get(ins.argval)
            if target is None:
                return None
            nxt.append(target)
        if name not in _NO_FALLTHROUGH and n + 1 < len(instructions):
            nxt.append(n + 1)
        successors.append(nxt)
    live_in = [frozenset[str]() for _ in instructions]
    changed = True
    while changed:
        changed = False
        for n in range(len(instructions) - 1, -1, -1):
            out = frozenset().union(*(live_in[m] for m in successors[n])) if successors[n] else frozenset()
            new = uses[n] | (out - defs[n])
            if new != live_in[n]:
                live_in[n], changed = new, True
    return {ins.offset: (frozenset().union(*(live_in[m] for m in successors[n])) if successors[n] else frozenset())
            for n, ins in enumerate(instructions)}


def live_locals(code: types.CodeType, lasti: int) -> frozenset[str] | None:
    """The local variables a frame of ``code`` stopped inside the instruction at ``lasti`` (a call) may still read
    before storing them again: the others are dead, and cannot change the frame's continuation.  Cells and free
    variables always count as live; ``None`` when the analysis cannot tell (every local then counts).

    Examples
    --------
    >>> import sys
    >>> def probe():
    ...     return live_locals(sys._getframe(1).f_code, sys._getframe(1).f_lasti)
    >>> def counted(n):
    ...     tries = 0
    ...     while True:
    ...         found = probe()
    ...         tries += 1
    ...         if tries > n:
    ...             return sorted(found)
    >>> def rejection(n):
    ...     y = None
    ...     while True:
    ...         y = probe()
    ...         if len(y) < n:
    ...             return sorted(y)
    >>> counted(0), rejection(5)
    (['n', 'tries'], ['n'])
    """
    key = (code, lasti)
    if key in _LIVE_AT:
        return _LIVE_AT[key]
    if len(_LIVE_AT) > 65536:
        _LIVE_AT.clear()
    found = _LIVE_AT[key] = _live_now(code, lasti)
    return found


_LIVE_AT: dict[tuple[types.CodeType, int], frozenset[str] | None] = {}  # static, as _HIDDEN


def _live_now(code: types.CodeType, lasti: int) -> frozenset[str] | None:
    flow = _liveness(code)
    if flow is None:
        return None
    offset = max((o for o in flow if o <= lasti), default=None)
    if offset is None:
        return None
    return flow[offset] | frozenset(code.co_cellvars) | frozenset(code.co_freevars)


_COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
_PURE_ATTRIBUTES = ("numerator", "denominator", "real")
_COMPARED: dict[tuple[types.CodeType, int], tuple[str, tuple[tuple[str, Any], ...], tuple[str, ...]] | None] = {}
_SIMPLE_LOADS = ("LOAD_CONST", "LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_DEREF", "LOAD_NAME", "LOAD_GLOBAL")
_CALLEE_LOADS = ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_DEREF", "LOAD_NAME", "LOAD_GLOBAL")


def _callee(instructions: list[dis.Instruction], n: int) -> tuple[str, ...] | None:
    """The callable of the call at ``instructions[n]`` when it is a name or a chain of attributes of a name (its
    base load's opcode, the name, the attributes) and each argument a simple load (a constant, a name, optionally
    its attributes), all on straight code; ``None`` otherwise (the call's result may then come from anything,
    ``sum(map(rng.integers, ...))`` included)."""
    values = (instructions[n].arg or 0) + (1 if instructions[n].opname == "CALL_KW" else 0)
    k = n - 1
    while k >= 0 and instructions[k].opname in ("PRECALL", "KW_NAMES"):
        k -= 1
    while values > 0 and k >= 0:  # the arguments, from the last
        while k >= 0 and instructions[k].opname == "LOAD_ATTR" and not (
                sys.version_info >= (3, 12) and instructions[k].arg is not None and instructions[k].arg & 1):
            k -= 1
        ins = instructions[k]
        if ins.opname not in _SIMPLE_LOADS or (ins.opname == "LOAD_GLOBAL" and (ins.arg or 0) & 1):
            return None
        values -= 1
        k -= 1
    if values or k < 0:
        return None
    if instructions[k].opname == "PUSH_NULL":
        k -= 1
    attributes: list[str] = []
    while k >= 0 and instructions[k].opname in ("LOAD_ATTR", "LOAD_METHOD"):
        attributes.insert(0, instructions[k].argval)
        k -= 1
    if k < 0 or instructions[k].opname not in _CALLEE_LOADS:
        return None
    if any(ins.is_jump_target for ins in instructions[k + 1:n + 1]):
        return None
    return (instructions[k].opname, instructions[k].argval, *attributes)


def _comparison_after(code: types.CodeType, lasti: int
                      ) -> tuple[str, tuple[tuple[str, Any], ...], tuple[str, ...]] | None:
    """What the instructions after the call at ``lasti`` do with its result, when they only compare it with
    one number loaded without running code: ``(operator, loads, callee)``, ``loads`` a constant (``("const",
    c)``), a local, cell or global (``("name", n)``, ``("global", n)``), optionally followed by a pure attribute
    of a number (``("attr", "numerator")``), ``callee`` how the called function is loaded (:func:`_callee`);
    ``None`` for anything else."""
    known = _COMPARED.get((code, lasti), False)
    if known is not False:
        return known  # type: ignore[return-value]
    found = None
    try:
        instructions = [i for i in dis.get_instructions(code) if i.opname != "CACHE"]
        n = max((k for k, ins in enumerate(instructions) if ins.offset <= lasti), default=None)  # lasti may
        # point into the call's inline cache
        if n is not None and instructions[n].opname in ("CALL", "CALL_KW"):
            loads: list[tuple[str, Any]] = []
            for ins in instructions[n + 1:n + 4]:
                name = ins.opname
                if name == "LOAD_CONST" and not loads:
                    loads.append(("const", ins.argval))
                elif name in ("LOAD_FAST", "LOAD_DEREF", "LOAD_FAST_CHECK") and not loads:
                    loads.append(("name", ins.argval))
                elif name in ("LOAD_GLOBAL", "LOAD_NAME") and not loads and not (
                        ins.arg is not None and ins.arg & 1 and name == "LOAD_GLOBAL"):
                    loads.append(("global" if name == "LOAD_GLOBAL" else "scope", ins.argval))
                elif name == "LOAD_ATTR" and len(loads) == 1 and ins.argval in _PURE_ATTRIBUTES and not (
                        sys.version_info >= (3, 12) and ins.arg is not None and ins.arg & 1):
                    loads.append(("attr", ins.argval))
                elif name == "COMPARE_OP" and loads and not ins.is_jump_target:
                    op = ins.argrepr.removeprefix("bool(").removesuffix(")")
                    callee = _callee(instructions, n)
                    if op in _COMPARISONS and callee is not None:
                        found = (op, tuple(loads), callee)
                    break
                else:
                    break
                if ins.is_jump_target:
                    break
    except (ValueError, TypeError, IndexError):
        found = None
    if len(_COMPARED) > 65536:
        _COMPARED.clear()
    _COMPARED[(code, lasti)] = found
    return found


def _read(frame: Any, kind: str, name: str) -> Any:
    """The value a load of ``name`` by the opcode ``kind`` reads in ``frame`` (``KeyError`` when unbound)."""
    if kind in ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_DEREF", "name") or (
            kind in ("LOAD_NAME", "scope") and name in frame.f_locals):  # LOAD_NAME: a class body's names first
        return frame.f_locals[name]
    g = frame.f_globals
    if name in g:
        return g[name]
    builtins = g.get("__builtins__")
    return (vars(builtins) if isinstance(builtins, types.ModuleType) else builtins)[name]


def _called(frame: Any, callee: tuple[str, ...]) -> Any:
    """The function the frame's call in progress called, read without running code (attributes looked up
    statically); ``None`` when it cannot be read."""
    try:
        value = _read(frame, callee[0], callee[1])
        for attribute in callee[2:]:
            value = (vars(value)[attribute] if type(value) is types.ModuleType
                     else inspect.getattr_static(value, attribute))
    except (KeyError, TypeError, AttributeError):
        return None
    return value


def compared_with(frame: Any, is_draw: Any = None) -> tuple[str, Any] | None:
    """When the frame's call in progress returns a value that the frame only compares with a number (``rng.randrange(d)
    < n``, ``rng.integers(0, 10) >= t``, ``random.randint(1, 6) == 6``, the number a constant, a local, a global
    or its ``numerator`` / ``denominator``): the operator and that number; ``None`` otherwise.  The draw's value
    is then read only through the comparison, so the outcomes on one side of it are one branch.  With
    ``is_draw``, the function called (read statically) must pass it: a draw that hands its value back, not a
    function that calls one from C and returns something else (``sum(map(rng.integers, [6, 6])) < 3``).

    Examples
    --------
    >>> import sys
    >>> from fractions import Fraction
    >>> seen = []
    >>> def probe():
    ...     seen.append(compared_with(sys._getframe(1)))
    ...     return 0
    >>> def bernoulli(p):
    ...     return probe() < p.numerator
    >>> def kept(n):
    ...     y = probe()
    ...     return y < n
    >>> bernoulli(Fraction(2, 3)), kept(3), seen
    (True, True, [('<', 2), None])
    """
    spec = _comparison_after(frame.f_code, frame.f_lasti)
    if spec is None:
        return None
    op, loads, callee = spec
    if is_draw is not None and not is_draw(_called(frame, callee)):
        return None
    kind, name = loads[0]
    try:
        value = name if kind == "const" else _read(frame, kind, name)
    except (KeyError, TypeError):
        return None
    for _, attribute in loads[1:]:
        if type(value) not in (int, bool, Fraction):
            return None
        value = getattr(value, attribute)
    if type(value) not in (int, bool, Fraction, float) or (type(value) is float and not math.isfinite(value)):
        return None  # an infinite bound (or NaN): the draw is then enumerated value by value
    return op, value


class _Pickler(pickle.Pickler):
    """Values by value; modules, functions, classes, code and the audit's generator by identity.

    Everything is decided in :meth:`reducer_override`, which the pickler calls for every object but the atoms
    (numbers, strings, bytes, ``None``), each once: a ``persistent_id`` would be called for every object, the
    atoms too (most of a state's objects are its names and numbers)."""

    def __init__(self, file: Any, tokens: tuple[type, ...], keep: list[Any]):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.tokens = tokens
        # every object named by its id() is kept alive as long as the states are compared: a state's bytes hold
        # the address, which a later object (a bound method made afresh, a class made in the function) would
        # otherwise reuse, and two different states would compare equal
        self.keep = keep
        self.homes: set[int] = set()  # the user's modules whose globals a function of the state brought in
        numpy = sys.modules.get("numpy")
        self.scalar: Any = numpy.generic if numpy is not None else ()

    def reducer_override(self, obj: Any) -> Any:
        """The audit's generator and replay by their type's name (one per run, all alike); modules, builtins, code
        and classes other than the user's by identity (a builtin method bound to an object by that object); a
        function by its code, its cells (each once: two functions sharing a cell are told from two with cells of
        equal values), its defaults and its attributes; the user's class by
        identity and its attributes; a ``random.Random`` not seeded in the run by identity and its attributes (its
        draws are enumerated, so its generator state never moves, but the code may keep fields on it)."""
        kind = type(obj)
        if kind in _CONTAINERS:  # the common case first: containers by value
            return NotImplemented
        if kind in _PLAIN_IDENTITY:  # then code (a plain function's) and modules: by identity, as below
            self.keep.append(obj)
            return _function, ("id", id(obj))
        if kind is Fraction:  # (its own reduction goes through str)
            return _function, ("Fraction", obj.numerator, obj.denominator)
        if kind is types.CellType:
            return _function, ("cell", obj.cell_contents if _filled(obj) else _EMPTY)
        if kind is types.FunctionType:
            if obj is _function:
                return NotImplemented
            code = obj.__code__  # (read once: each read of a function's code raises an audit event)
            self.keep.append(code)  # its cells as objects (below): two functions sharing one cell read
            # apart from two with cells of equal values, a write through one showing in the other
            home = _home(obj, self.homes)  # a function of another of the user's modules runs with its globals
            if home is not None:  # (state too)
                self.homes.add(id(home))
                home = _names_state(home, self.homes)
            return _function, (id(code), obj.__closure__, obj.__defaults__, obj.__kwdefaults__,
                               obj.__dict__ or None, home)
        if isinstance(obj, self.tokens):
            return _function, (kind.__name__,)
        if isinstance(obj, _BY_IDENTITY) and not (isinstance(obj, type) and _user_class(obj)) and not (
                isinstance(obj, types.BuiltinMethodType) and not isinstance(obj.__self__, (types.ModuleType, type))
                and obj.__self__ is not None):  # a bound method of a builtin object (acc.append): by its object
            self.keep.append(obj)
            return _function, ("id", id(obj))
        if isinstance(obj, type) and _user_class(obj):
            self.keep.append(obj)
            return _function, (id(obj), _class_fields(obj))
        if isinstance(obj, _random.Random) and not getattr(obj, "_relations_reseeded", False):
            self.keep.append(obj)
            return _function, (id(obj), {k: v for k, v in vars(obj).items() if not k.startswith("_relations")})
        if _user_class(kind):
            if _custom_pickling(kind):  # its own pickling may leave fields out
                return _function, (kind, _fields(obj))
            if _inherited_pickling(kind):  # a base's pickling (Counter's) may leave the instance's fields out
                fields, slots = getattr(obj, "__dict__", None), _slots(obj)
                if fields or slots:
                    reduced = obj.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
                    if not (isinstance(reduced, tuple) and len(reduced) > 2 and reduced[2] is not None):
                        return _function, ("fields", reduced, fields, slots)  # (else its state: deque's, set's)
        if isinstance(obj, self.scalar) and obj.dtype.kind in "biufc":  # numpy's numbers (the audit's draws of
            # integers are np.int64): by their type and bytes, twice as fast as numpy's own reduction
            return _function, (obj.dtype.str, obj.tobytes())
        numpy = sys.modules.get("numpy")
        if numpy is not None and isinstance(obj, numpy.ndarray) and obj.base is not None:
            return _view(obj, numpy)
        if isinstance(obj, _CACHED):  # functools.cache: its entries cannot be read (a cached draw is state)
            if obj.cache_info().currsize:
                raise TypeError("a functools cache with entries")
            self.keep.append(obj)
            return _function, (id(obj), obj.__wrapped__)
        return NotImplemented


def _view(obj: Any, numpy: Any) -> tuple:
    """A numpy array that views another one's memory (``a[1:]``, ``a.reshape(...)``): by the array that owns the
    memory (pickled once, so that two views of one array read apart from two arrays of equal values: a write
    through one shows in the other), and where in it; ``TypeError`` (the state cannot be told) when the memory
    is not an array's."""
    base = obj.base
    while isinstance(base, numpy.ndarray) and base.base is not None:
        base = base.base
    if type(base) is not numpy.ndarray:
        raise TypeError("an array viewing memory that is not an array's")
    offset = obj.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return _function, ("view", type(obj), base, offset, obj.shape, obj.strides, obj.dtype.str, obj.flags.writeable)


_CONTAINERS = frozenset({tuple, list, dict, set, frozenset})
#: Types whose objects (of the type itself, not a subclass) :meth:`_Pickler.reducer_override` takes by identity
#: whatever they hold: none is a class, a builtin method or a token, which its later tests tell apart.
_PLAIN_IDENTITY = frozenset({types.CodeType, types.ModuleType, types.MethodDescriptorType,
                             types.WrapperDescriptorType})
_CACHED = type(functools.cache(len))
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


_USER_CLASS: dict[type, bool] = {}


def _user_class(cls: type) -> bool:
    """A class of the user's code (its module the user's, or ``__main__``, or defined in a function), whose
    attributes the code may change."""
    known = _USER_CLASS.get(cls)
    if known is None:
        if len(_USER_CLASS) > 4096:
            _USER_CLASS.clear()
        known = _USER_CLASS[cls] = _user_class_now(cls)
    return known


def _user_class_now(cls: type) -> bool:
    if "<locals>" in getattr(cls, "__qualname__", ""):
        return True
    name = getattr(cls, "__module__", None)
    return name == "__main__" or (isinstance(name, str) and _user_module(sys.modules.get(name)))


def _custom_pickling(cls: type) -> bool:
    """Whether one of the user's classes in ``cls``'s bases defines how its instances are pickled."""
    return any(_user_class(c) and {"__reduce__", "__reduce_ex__", "__getstate__", "__getnewargs__",
                                   "__getnewargs_ex__"} & set(vars(c)) for c in cls.__mro__)


def _inherited_pickling(cls: type) -> bool:
    """Whether a base of ``cls`` other than the user's classes and ``object`` defines how its instances are pickled
    (``collections.Counter`` pickles its items only: a subclass's fields would be left out)."""
    known = _INHERITED.get(cls)
    if known is None:
        if len(_INHERITED) > 4096:
            _INHERITED.clear()
        known = _INHERITED[cls] = any(
            c is not object and not _user_class(c) and {"__reduce__", "__reduce_ex__", "__getstate__"} & set(vars(c))
            for c in cls.__mro__)
    return known


_INHERITED: dict[type, bool] = {}


def _slots(obj: Any) -> tuple:
    """An instance's slots (names and values) declared by its classes."""
    return tuple((name, getattr(obj, name, _EMPTY)) for c in type(obj).__mro__
                 for name in (vars(c).get("__slots__", ()) if not isinstance(vars(c).get("__slots__"), str)
                              else (vars(c)["__slots__"],)) if name not in ("__dict__", "__weakref__"))


def _fields(obj: Any) -> tuple:
    """An instance's own fields (its ``__dict__`` and slots), whatever its pickling says; ``TypeError`` when it
    extends a builtin type other than ``object`` (whose contents are not fields)."""
    if any(not _user_class(c) and c is not object for c in type(obj).__mro__):
        raise TypeError("an instance of a builtin type's subclass with its own pickling")
    return getattr(obj, "__dict__", None), _slots(obj)


def _class_fields(cls: type) -> dict:
    """A class's own attributes other than dunders (a static or class method by its function, a property by its
    accessors)."""
    out: dict[str, Any] = {}
    for k, w in vars(cls).items():
        if k.startswith("__"):
            continue
        if isinstance(w, (staticmethod, classmethod)):
            w = w.__func__
        elif isinstance(w, property):
            w = (w.fget, w.fset, w.fdel)
        out[k] = w
    return out


def _installed() -> tuple[str, ...]:
    import sysconfig

    paths = {sysconfig.get_paths().get(k, "") for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    return tuple(p for p in paths if p)


_INSTALLED = _installed()


_USER: dict[Any, bool] = {}


def _user_module(module: Any) -> bool:
    """The user's own module (not the standard library's, nor an installed package's)."""
    try:
        return _USER[module]
    except (KeyError, TypeError):
        pass
    found = _user_module_now(module)
    if len(_USER) > 4096:
        _USER.clear()
    try:
        _USER[module] = found
    except TypeError:  # pragma: no cover - an unhashable stand-in for a module
        pass
    return found


def _user_module_now(module: Any) -> bool:
    # read from the module's own dict: a module-level ``__getattr__`` (PEP 562) is the user's code, and answers
    # anything for a name the module lacks
    own = getattr(module, "__dict__", None)
    return _user_globals(own if isinstance(own, dict) else {})


def _user_globals(own: dict) -> bool:
    """The globals of one of the user's modules (:func:`_user_module`), read from the dict itself."""
    name, where = own.get("__name__"), own.get("__file__")
    root = name.split(".")[0] if isinstance(name, str) else ""
    if root in sys.stdlib_module_names or root in ("numpy", "scipy", "relations", "builtins"):
        return False
    return isinstance(where, str) and bool(where) and not where.startswith(_INSTALLED)


def _globals_state(g: dict) -> dict:
    """A module's globals, and those of the user's modules it imports (and they import, each once)."""
    return _names_state(g, {id(g)})


def _names_state(g: dict, seen: set[int], trace: tuple[list, list, list, list] | None = None) -> dict:
    """A module's globals as a state compares them (:func:`_globals_state`), the user's modules they reach included
    (each of ``seen`` once, ``seen`` grown by those added); with ``trace``, what the result was made from is
    appended to it (:func:`_cached_names_state`)."""
    out: dict[str, Any] = {}
    if trace is not None:
        trace[0].append((g, list(g), list(g.values())))
    for name, v in g.items():
        if name.startswith("__"):
            continue
        function = type(v) is types.FunctionType
        # only functions and classes have a home; a function of a module already seen (the common case: this
        # module's own, told without id(), an audit event: a call of the frame hook) has none to add
        home = (None if function and (v.__globals__ is g or id(v.__globals__) in seen)
                else _home(v, seen) if function or isinstance(v, type) else None)
        if trace is not None and not function and isinstance(v, type) and _user_class(v):
            trace[3].append((v, _class_home(v)))  # (its home is looked up in sys.modules)
        if home is not None:  # a function or class imported from another of the user's modules (``from helpers
            # import bump``) runs there: that module's globals are state too
            seen.add(id(home))
            out[f"__home_{id(home)}__"] = _names_state(home, seen, trace)
        if function:
            # a plain function: nothing in it can change, only the name can be rebound; by its code (not its
            # address: a function made afresh on each path, freed, and another at its address would read alike);
            # the others by value (rebound, their defaults and attributes)
            out[name] = v if v.__closure__ or v.__defaults__ or v.__kwdefaults__ or v.__dict__ else v.__code__
            if trace is not None:
                trace[1].append(v)
                trace[2].append((bool(v.__closure__ or v.__defaults__), v.__kwdefaults__, v.__code__, out[name],
                                 v.__module__, v.__doc__))
        elif isinstance(v, types.ModuleType) and _user_module(v):  # and the user's modules below it (pkg.sub)
            out[name] = ("module", id(v))
            if id(vars(v)) not in seen:
                seen.add(id(vars(v)))
                out[name] = _names_state(vars(v), seen, trace)
        else:  # classes (their attributes), values
            out[name] = v
    return out


def _class_home(cls: type) -> Any:
    """The module dict that :func:`_home` looks up for ``cls`` (``None``: none)."""
    return getattr(sys.modules.get(getattr(cls, "__module__", None) or ""), "__dict__", None)


#: :func:`_cached_names_state`'s results: by ``id(g)`` and the ``seen`` it started from, ``(g, trace, the functions'
#: referents, seen after, result)``.
_NAMES: dict[tuple[int, frozenset[int]], tuple[dict, tuple[list, list, list, list], list, set[int], dict]] = {}


def _cached_names_state(g: dict, seen: set[int]) -> dict:
    """:func:`_names_state` of ``g`` from ``seen``, the last result from the same ``seen`` again when nothing it was
    made from has changed (:func:`_unchanged`).  A state is taken at every draw, and a module's globals seldom
    change between two draws; the result (a dict of the same objects) is pickled by value as before, so states
    compare as before.  (``seen`` holds addresses: the result depends on it only through whether the address of
    a dict read, the same object, is in it.)"""
    key = (id(g), frozenset(seen))
    known = _NAMES.get(key)
    if known is not None and known[0] is g and _unchanged(known[1], known[2]):
        seen.update(known[3])
        return known[4]
    trace: tuple[list, list, list, list] = ([], [], [], [])
    out = _names_state(g, seen, trace)
    if not all(_plain_field(fact[4]) and _plain_field(fact[5]) for fact in trace[2]):
        return out  # (:func:`_unchanged` could not tell a field set from another unset: not kept)
    if len(_NAMES) >= 64:
        _NAMES.clear()
    _NAMES[key] = (g, trace, _referents(trace[1]), set(seen), out)
    return out


def _plain_field(value: Any) -> bool:
    """A function's ``__module__`` or ``__doc__`` as :func:`_unchanged` needs it: a string or ``None`` (unset reads
    ``None``), never the tuple or dict of its defaults or keyword defaults."""
    return value is None or type(value) is str


def _referents(functions: list) -> list:
    """What ``functions`` refer to (their code, defaults, keyword defaults and attribute dict among them), in one
    call: reading them one by one raises an audit event each (a call of the frame hook)."""
    import gc

    return gc.get_referents(*functions)


def _unchanged(trace: tuple[list, list, list, list], referents: list) -> bool:
    """Whether what :func:`_names_state` read (its trace: modules, functions, their facts, classes) is as it was:
    the same names bound to the same objects (by identity) in every module it read; each function with the same
    code, defaults and keyword defaults (:func:`_referents`) and as plain (or not) as it was; each of the user's
    classes in the same module."""
    modules, functions, facts, classes = trace
    for d, names, values in modules:
        if len(d) != len(names) or not all(map(operator.is_, d.values(), values)) or list(d) != names:
            return False
    # the referents skip a function's unset fields: ``__module__`` or ``__doc__`` (which may be any object, and
    # unset) deleted and ``__defaults__`` set to the object it held would read alike.  With both as they were, a
    # string or None (:func:`_plain_field`; read without an audit event), each function's code starts its own
    # referents and no other field can stand in for its defaults or keyword defaults
    for v, fact in zip(functions, facts):
        if v.__module__ is not fact[4] or v.__doc__ is not fact[5]:
            return False
    now = _referents(functions)
    if len(now) != len(referents) or not all(map(operator.is_, now, referents)):
        return False
    for v, (fixed, keywords, code, was, _, _) in zip(functions, facts):  # its closure and defaults are as they
        if (v if fixed or keywords or v.__dict__ else code) is not was:  # were, its keyword defaults and
            return False  # attributes (dicts) may have been filled or emptied since
    return all(_class_home(v) is was for v, was in classes)


def _home(v: Any, seen: set[int]) -> dict | None:
    """The globals of the user's module that a function (or the methods of a class of the user's) runs in, when
    it has such globals not in ``seen``; else ``None``."""
    g: Any
    if type(v) is types.FunctionType:
        g = v.__globals__
    elif isinstance(v, type) and _user_class(v):
        g = _class_home(v)
    else:
        return None
    if not isinstance(g, dict):
        return None
    key = id(g)  # (taken once: each id() raises an audit event)
    if key in seen:
        return None
    known = _HOMES.get(key)
    if known is None or known[0] is not g:
        if len(_HOMES) > 4096:
            _HOMES.clear()
        known = _HOMES[key] = (g, _user_globals(g))  # (the dict kept: its address is not reused meanwhile)
    return g if known[1] else None


_HOMES: dict[int, tuple[dict, bool]] = {}


def _user_entries() -> int:
    """A number for what ``sys.modules`` holds under the names where it held one of the user's modules when last
    counted (the same number for the same names and objects): code may swap such an entry (``sys.modules[name] =
    other``) and read through it (``sys.modules[name].value``, a class's home, an ``import``), which no frame or
    globals show.  The names are counted again whenever the number of entries has changed; an entry of another
    module (the standard library's, an installed package's) is no more the code's state than that module's
    globals."""
    modules, known = sys.modules, _ENTRIES
    if known[0] != len(modules):
        known[1] = tuple([name for name, module in list(modules.items()) if _user_module(module)])
        known[0], known[3] = len(modules), None
    names = known[1]
    now = [modules.get(name) for name in names]
    last = known[3]
    if last is not None and all(map(operator.is_, now, last[1])):  # (the common case: as at the last call)
        return last[0]
    key = (names, tuple(map(id, now)))
    numbered = _NUMBERED.get(key)
    if numbered is None:
        if len(_NUMBERED) >= 256:
            _NUMBERED.clear()  # (the numbers are never given again: a state numbered before stays apart)
        known[2] += 1
        numbered = _NUMBERED[key] = (known[2], now)  # (the objects kept: their addresses are not reused meanwhile)
    known[3] = numbered
    return numbered[0]


#: :func:`_user_entries`'s count (the number of entries in ``sys.modules`` when counted, and the names found), the
#: last number given, and the last answer (its number and objects); its numbers by names and the objects' addresses.
_ENTRIES: list[Any] = [-1, (), 0, None]
_NUMBERED: dict[tuple[tuple[str, ...], tuple[int, ...]], tuple[int, list[Any]]] = {}


def snapshot(stop: types.CodeType, tokens: tuple[type, ...], *, skip: int = 1, keep: list[Any]) -> bytes | None:
    """The state of the running randomizer at a draw (see the module's docstring), as bytes; ``None`` when it
    cannot be told.  Frames are walked from the caller of ``snapshot`` (``skip`` frames up) to the frame running
    ``stop`` (the enumerator's call of the randomizer), which is not included; ``tokens`` are more types
    compared by identity (the audit's generator and replay).  The objects compared by identity are appended to
    ``keep``, which the caller holds as long as it compares the states (their addresses are in the bytes: an
    object freed, another made at its address would read as the same)."""
    if CONTINUATIONS[0]:  # the rest of a function compiled apart runs: its frames are not the code's own
        return None
    frame: Any = sys._getframe(skip + 1)
    parts: list[Any] = []
    seen_globals: set[int] = set()
    while frame is not None:
        code = frame.f_code  # (read once: each read of a frame's code raises an audit event)
        if code is stop:
            break
        own = code.co_filename.endswith(OWN_FILES)
        if not own and hidden_stack(code, frame.f_lasti):
            return None
        local = dict(frame.f_locals)
        if not own:  # dead locals (stored again before any read) cannot change the continuation
            live = live_locals(code, frame.f_lasti)
            if live is not None:
                local = {k: v for k, v in local.items() if k in live}
        g = frame.f_globals
        if not own and (key := id(g)) not in seen_globals:
            seen_globals.add(key)
            parts.append((code, frame.f_lasti, local, _cached_names_state(g, seen_globals)))
        else:
            parts.append((code, frame.f_lasti, local))
        frame = frame.f_back
    if frame is None:
        return None
    parts.append(_user_entries())
    buffer = io.BytesIO()
    try:
        pickler = _Pickler(buffer, tokens, keep)
        pickler.homes = seen_globals  # the user's modules whose globals are in the state already
        pickler.dump(parts)
    except Exception:  # noqa: BLE001 - any object that cannot be pickled (its __reduce__ may raise anything)
        return None
    return buffer.getvalue()


def carried(fn: Any, tokens: tuple[type, ...], *, keep: list[Any]) -> bytes | None:
    """What the randomizer ``fn`` carries from one call to the next, as bytes compared by value as
    :func:`snapshot`'s: the function and what it wraps (their cells, defaults and attributes; a bound method's
    object), and the globals of the user's modules their code runs in (and the user's modules imported there);
    ``None`` when it cannot be told.  The paths of an input are enumerated as independent runs: a call that
    changes this (a counter kept in a global, a list a default argument appends to) makes later paths run
    other code than the earlier ones, and the rows would mix them.

    Examples
    --------
    >>> def counted(x, rng, seen=[]):
    ...     seen.append(x)
    ...     return len(seen) % 2
    >>> keep = []
    >>> before = carried(counted, (), keep=keep)
    >>> _ = counted(0, None)
    >>> carried(counted, (), keep=keep) == before
    False
    """
    targets: list[Any] = []
    target = fn
    while target is not None and len(targets) < 8:  # the function and what it wraps (functools.wraps)
        targets.append(target)
        target = getattr(target, "__wrapped__", None)
    parts: list[Any] = [targets]
    seen: set[int] = set()
    for target in targets:
        g = getattr(getattr(target, "__func__", target), "__globals__", None)
        if isinstance(g, dict) and id(g) not in seen and _user_module(sys.modules.get(g.get("__name__", ""))):
            seen.add(id(g))
            parts.append(_cached_names_state(g, seen))
    buffer = io.BytesIO()
    try:
        pickler = _Pickler(buffer, tokens, keep)
        pickler.homes = seen  # the user's modules whose globals are in it already
        pickler.dump(parts)
    except Exception:  # noqa: BLE001 - as in snapshot: any object that cannot be pickled
        return None
    return buffer.getvalue()


def solve_chain(rows: list[dict[int, Fraction]], exits: list[list[Fraction]]) -> list[list[Fraction]] | None:
    """Solve ``v = exits + rows v`` exactly: ``rows[k][l]`` the probability of going from state ``k`` to state
    ``l`` (sparse: a dict per state), ``exits[k][j]`` that of ending in outcome ``j``; the absorption probabilities
    ``v[k][j]``, or ``None`` when ``I - rows`` is singular (a set of states the explored paths never leave: the
    loop would run forever).

    The states are solved one strongly connected component at a time, successors first (Tarjan's order): a
    component of one state is a division, a larger one a small dense elimination, so that the many states of a
    tree of continuations that merely merge (no cycle) cost one pass.

    Examples
    --------
    A loop that repeats with probability 1/4 and otherwise ends in one of three outcomes:

    >>> from fractions import Fraction as F
    >>> solve_chain([{0: F(1, 4)}], [[F(1, 4), F(1, 4), F(1, 4)]])
    [[Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)]]
    >>> solve_chain([{0: F(1)}], [[F(0)]]) is None
    True

    Two states that go to each other (each with probability 1/2) and end in outcome 0 or 1 otherwise:

    >>> solve_chain([{1: F(1, 2)}, {0: F(1, 2)}], [[F(1, 2), F(0)], [F(0), F(1, 2)]])
    [[Fraction(2, 3), Fraction(1, 3)], [Fraction(1, 3), Fraction(2, 3)]]
    """
    fmpq = _flint_fmpq()
    if fmpq is not None:  # python-flint's rationals: the same elimination, several times faster on long ones
        fast = _solve([{m: fmpq(p.numerator, p.denominator) for m, p in r.items()} for r in rows],
                      [[fmpq(x.numerator, x.denominator) for x in e] for e in exits], fmpq)
        return None if fast is None else [[Fraction(int(v.p), int(v.q)) for v in row] for row in fast]
    return _solve(rows, exits, Fraction)


def _solve(rows: list[dict[int, Any]], exits: list[list[Any]], num: Any) -> list[list[Any]] | None:
    """:func:`solve_chain` in the rationals ``num`` (``Fraction`` or python-flint's ``fmpq``)."""
    zero, one = num(0), num(1)
    n = len(rows)
    width = len(exits[0]) if exits else 0
    solved: list[list[Any] | None] = [None] * n
    for component in _components(rows):
        inside = set(component)
        rhs = []
        for k in component:
            b = list(exits[k])
            for m, p in rows[k].items():
                if m not in inside and p:
                    vm = solved[m]
                    assert vm is not None
                    b = [x + p * y for x, y in zip(b, vm)]
            rhs.append(b)
        if len(component) == 1:
            k = component[0]
            stay = one - rows[k].get(k, zero)
            if stay == 0:
                return None
            solved[k] = [x / stay for x in rhs[0]]
            continue
        where = {k: i for i, k in enumerate(component)}
        size = len(component)
        a = [[one if i == j else zero for j in range(size)] + rhs[i] for i in range(size)]
        for i, k in enumerate(component):
            for m, p in rows[k].items():
                if m in inside:
                    a[i][where[m]] -= p
        for col in range(size):
            pivot = next((r for r in range(col, size) if a[r][col] != 0), None)
            if pivot is None:
                return None
            a[col], a[pivot] = a[pivot], a[col]
            top = a[col][col]
            a[col] = [v / top for v in a[col]]
            for r in range(size):
                if r != col and a[r][col] != 0:
                    f = a[r][col]
                    a[r] = [v - f * w for v, w in zip(a[r], a[col])]
        for i, k in enumerate(component):
            solved[k] = a[i][size:size + width]
    return [v if v is not None else [zero] * width for v in solved]


_FMPQ: list[Any] = []


def _flint_fmpq() -> Any:
    """python-flint's ``fmpq``, or ``None`` without python-flint (a worker interpreter may lack it: Fractions then);
    imported on the first chain solved, not with this module: most audit workers solve none (0.1 s of CPU each)."""
    if not _FMPQ:
        found: Any = None
        try:  # pragma: no branch
            import flint
            found = flint.fmpq
        except ImportError:  # pragma: no cover
            pass
        _FMPQ.append(found)
    return _FMPQ[0]


def _components(rows: list[dict[int, Fraction]]) -> list[list[int]]:
    """The strongly connected components of the graph ``k -> l`` (``rows[k][l] != 0``), each after every
    component it reaches (Tarjan's algorithm, without recursion)."""
    n = len(rows)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] != -1:
            continue
        work = [(root, iter([m for m, p in rows[root].items() if p]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            node, successors = work[-1]
            advanced = False
            for m in successors:
                if index[m] == -1:
                    index[m] = low[m] = counter
                    counter += 1
                    stack.append(m)
                    on_stack[m] = True
                    work.append((m, iter([x for x, p in rows[m].items() if p])))
                    advanced = True
                    break
                if on_stack[m]:
                    low[node] = min(low[node], index[m])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    m = stack.pop()
                    on_stack[m] = False
                    component.append(m)
                    if m == node:
                        break
                out.append(component)
    return out
