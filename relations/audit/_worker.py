"""Running a randomizer where it lives: the jobs of an audit, in this process or in a worker.

A *job* is a JSON object; :func:`run_job` answers it with another:

* ``{"task": "describe", "target": T, "params": P}``: the target's default domain, the
  budget it claims and its version (library mechanisms);
* ``{"task": "enumerate", "target": T, "params": P, "domain": D, "inputs": [i, ...],
  "max_paths": N, "seconds": S, "max_depth": L}``: the exact rows of inputs ``D[i]``, as ``[output, label,
  "num/den"]``, within the path, time and depth budgets, and the mass of the paths cut at depth ``L``;
* ``{"task": "sample", ..., "input": i, "chunk": c, "size": n, "seed": s}``: counts of the
  outputs of ``n`` runs on ``D[i]``, seeded from ``(s, i, c)`` only, so that any split
  of the work over processes or machines gives the same counts (with ``"bins": [edges]``, of
  the interval each real-valued output falls in);
* ``{"task": "declared", ..., "inputs": [...]}``: the channel the library documents;
* ``{"task": "outputs", ...}``: every output the randomizer can return, proven from its source
  (:mod:`relations.audit._proven`), as output keys, or ``None`` and why not.

Outputs travel as the text of their :func:`~relations.audit._outputs.output_key`.  Run as a
script (``python _worker.py``, any interpreter with the randomizer's libraries, e.g. one
pinned to an old numpy), it reads one job per line on stdin and writes one answer per line
on stdout; the randomizer's own prints go to stderr.  As a script it loads only the
modules of :mod:`relations.audit` it needs, not the rest of the package.
"""

from __future__ import annotations

import sys

if __name__ == "__main__" and not __package__:  # a worker interpreter: load relations.audit's modules alone
    import os
    import types

    _here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
    sys.path.insert(0, os.getcwd())  # MODULE:FUNCTION targets are found as with 'python -m'
    for _name, _path in (("relations", os.path.dirname(_here)), ("relations.audit", _here)):
        _pkg = types.ModuleType(_name)
        _pkg.__path__ = [_path]
        sys.modules[_name] = _pkg

import importlib
import importlib.util
import inspect
import json
import os
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from relations.audit._enumerate import NotEnumerable
from relations.audit._exact import enumerate_channel
from relations.audit._outputs import output_key, output_label, output_real
from relations.audit._proven import Refused, proven_outputs  # imported before any user code: the real builtins

__all__ = ["TargetError", "AnswerTooLarge", "Target", "load_target", "bin_key", "encode_answer", "run_job", "main"]

class TargetError(Exception):
    """The target cannot be loaded or called as asked (a one-line message for the user)."""

class Target:
    """A loaded randomizer: ``fn(x, rng=...)`` plus what a library adapter knows about it."""

    def __init__(self, fn: Callable[..., Any], *, pass_rng: bool, domain: list | None = None,
                 claimed: float | None = None, version: str = "", seed: Callable[[int], None] | None = None,
                 white: Callable[..., Any] | None = None, declared: Callable[[Any], dict] | None = None,
                 enumerable: bool = True, seeds: int = 0):
        self.fn, self.pass_rng, self.domain, self.claimed, self.version = fn, pass_rng, domain, claimed, version
        self.seed, self.white, self.declared, self.enumerable = seed, white, declared, enumerable
        self.seeds = seeds  # local hashing: the white-box route is over this many fixed hash seeds

    def call(self, fn: Callable[..., Any], x: Any, rng: Any) -> Any:
        _CLOCK[0] = time.monotonic()
        try:
            return _bounded(fn(x, rng=rng) if self.pass_rng else fn(x))
        finally:
            _CLOCK[0] = None


#: When the randomizer's code (a call, or the import of its module) started running, or ``None`` between
#: calls: the watchdog of a worker process (:func:`_watchdog`) ends a call that runs too long.
_CLOCK: list[float | None] = [None]
#: Most bytes of one answer (the tool's :data:`~relations.audit._pool.MAX_ANSWER`, handed to a worker process as
#: :data:`ANSWER_VARIABLE`): an output of the randomizer larger than that, or an answer that grows past it while
#: it is encoded, is a ``limit`` answer, found before the text of the whole answer is made.
_ANSWER: list[int] = [256 * 2**20]


class AnswerTooLarge(Exception):
    """An output of the randomizer, or an answer, larger than the limit of one answer (:data:`_ANSWER`).

    Examples
    --------
    >>> str(AnswerTooLarge(2**20))
    'the randomizer returned more than 1 MiB (the limit of one answer)'
    """

    def __init__(self, limit: int):
        size = f"{limit // 2**20} MiB" if limit % 2**20 == 0 else f"{limit} bytes"
        super().__init__(f"the randomizer returned more than {size} (the limit of one answer)")


def _size_at_least(value: Any, limit: int, depth: int = 0) -> int:
    """A lower bound on the length of the text of ``value`` as an answer carries it, found without making that
    text, and given up past ``limit``: the length of a string or bytes, two per element of a container (its
    separator), the elements' own bounds to a depth of 8.

    Examples
    --------
    >>> _size_at_least("abc", 100), _size_at_least(("ab", ["cd", 1]), 100), _size_at_least(list(range(60)), 100)
    (3, 13, 120)
    """
    if isinstance(value, (str, bytes, bytearray)):
        return len(value)
    if hasattr(value, "size") and hasattr(value, "dtype") and isinstance(getattr(value, "size", None), int):
        return 2 * value.size  # a numpy array: every element at least one character and a separator
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        if 2 * len(value) > limit or depth >= 8:
            return 2 * len(value)
        items = value.items() if isinstance(value, dict) else value
        total = 0
        for item in items:
            total += 2 + _size_at_least(item, limit, depth + 1)
            if total > limit:
                break
        return total
    return 1


_SMALL = frozenset({int, float, bool, type(None)})


def _bounded(value: Any) -> Any:
    """``value``, an output of the randomizer, checked against the limit of one answer (:class:`AnswerTooLarge`)."""
    if type(value) in _SMALL:  # the common case: a number
        return value
    if _size_at_least(value, _ANSWER[0]) > _ANSWER[0]:
        raise AnswerTooLarge(_ANSWER[0])
    return value


def encode_answer(answer: dict, limit: int | None = None) -> str:
    """``json.dumps(answer)``, given up as soon as the text passes ``limit`` characters (:data:`_ANSWER`), when
    it is a ``limit`` answer instead: the text of a huge answer is never made whole.

    Examples
    --------
    >>> encode_answer({"ok": True, "rows": [1, 2]})
    '{"ok": true, "rows": [1, 2]}'
    >>> encode_answer({"ok": True, "rows": ["x" * 100]}, limit=50)
    '{"ok": false, "kind": "limit", "message": "the randomizer returned more than 50 bytes (the limit of one answer)"}'
    """
    limit = _ANSWER[0] if limit is None else limit
    pieces, size = [], 0
    for piece in _pieces(answer, 0):
        size += len(piece)
        if size > limit:
            return json.dumps({"ok": False, "kind": "limit", "message": str(AnswerTooLarge(limit))})
        pieces.append(piece)
    return "".join(pieces)


def _pieces(value: Any, depth: int) -> Any:
    """The text of ``value`` as ``json.dumps`` makes it, in pieces: the dicts of the first two levels item by item
    (an answer, its rows), a list there in runs of :data:`_RUN` items, each run and anything deeper by
    ``json.dumps`` at once (in C: the pure-Python ``iterencode`` spent a tenth of a worker's time on k-RR's
    65,536 entries)."""
    if depth < 2 and type(value) is dict and all(type(k) is str for k in value):
        yield "{"
        for n, (k, v) in enumerate(value.items()):
            yield (", " if n else "") + json.dumps(k) + ": "
            yield from _pieces(v, depth + 1)
        yield "}"
    elif depth < 3 and type(value) in (list, tuple) and len(value) > _RUN:
        yield "["
        for start in range(0, len(value), _RUN):
            yield (", " if start else "") + json.dumps(value[start:start + _RUN])[1:-1]
        yield "]"
    else:
        yield json.dumps(value)


#: Items of a long list in an answer encoded at once (:func:`_pieces`).
_RUN = 256


def _timed(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with its calls on :data:`_CLOCK` (the enumerator calls the randomizer itself)."""
    import functools

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        _CLOCK[0] = time.monotonic()
        try:
            return _bounded(fn(*args, **kwargs))
        finally:
            _CLOCK[0] = None

    owner = getattr(fn, "__self__", None)
    if owner is not None:  # a bound method: the enumerator looks for generators on its owner too
        call.__self__ = owner  # type: ignore[attr-defined]
    return call

def _import_file(where: str) -> Any:
    """Import ``FILE.py`` as ``python FILE.py`` would find its imports: its folder first on ``sys.path``."""
    folder = os.path.dirname(os.path.abspath(where))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(f"_relations_audit_{abs(hash(os.path.abspath(where)))}", where)
    if spec is None or spec.loader is None:
        raise TargetError(f"cannot import {where}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module

def _fingerprint(fn: Callable[..., Any]) -> str:
    """A digest of the plain values among the globals of ``fn``'s module (numbers, text, tuples, UUIDs, Fractions,
    numpy scalars), and of those ``fn`` reads through the functions it reaches (the globals their code names, in
    their own modules, their default arguments and closure cells): two processes that imported it differently (a
    value drawn at import) give different digests."""
    import hashlib
    import types

    def plain(v: Any) -> bool:
        return isinstance(v, (str, bytes, int, float, tuple, frozenset)) or type(v).__name__ in ("UUID", "Fraction") \
            or (type(v).__module__ == "numpy" and not callable(v))

    fn = getattr(fn, "__wrapped__", fn)
    values = getattr(fn, "__globals__", None) or {}
    seen = sorted((k, repr(v)) for k, v in values.items() if not k.startswith("__") and plain(v))
    todo: list[Any] = [fn]
    done: set[int] = set()
    read: list[tuple[str, str, list[str]]] = []
    while todo and len(done) < 256:  # the functions reached from fn: what each reads
        f = todo.pop()
        if id(f) in done or type(f) is not types.FunctionType:
            continue
        done.add(id(f))
        names: set[str] = set()
        codes = [f.__code__]
        while codes:  # the names of its code and of the code nested in it
            c = codes.pop()
            names.update(c.co_names)
            codes.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
        reached = [f.__globals__[n] for n in sorted(names) if n in f.__globals__]
        reached += list(f.__defaults__ or ()) + list((f.__kwdefaults__ or {}).values())
        for cell in f.__closure__ or ():
            try:
                reached.append(cell.cell_contents)
            except ValueError:  # an empty cell
                reached.append(None)
        read.append((f.__code__.co_filename, f.__qualname__, [repr(v) if plain(v) else type(v).__name__ for v in reached]))
        todo.extend(v for v in reached if type(v) is types.FunctionType)
    return hashlib.sha256(repr((seen, read)).encode()).hexdigest()[:16]


def load_target(target: str, params: dict | None = None) -> Target:
    """Load ``MODULE:FUNCTION``, ``FILE.py:FUNCTION`` or a library mechanism ``LIBRARY.NAME``.

    ``params`` (library mechanisms): ``eps``, ``k`` and the adapter's own parameters.

    Raises
    ------
    TargetError
        With one line saying what is wrong.
    """
    params = dict(params or {})
    if ":" not in target:
        from relations.audit._libraries import ADAPTERS, build

        if target not in ADAPTERS:
            raise TargetError(f"target {target!r}: expected MODULE:FUNCTION, FILE.py:FUNCTION or a library "
                              "mechanism ('relations audit --list')")
        eps, k = params.pop("eps", None), params.pop("k", None)
        if eps is None or k is None:
            raise TargetError(f"{target}: needs --eps and --k (the budget and the domain size)")
        try:
            built = build(target, eps=float(eps), k=int(k), params=params)
        except ImportError as exc:
            from relations._install import install_hint

            lib = ADAPTERS[target].library
            raise TargetError(f"{target}: the library {lib} is not installed in {sys.executable} ({exc}); "
                              f"install the audit extra ({install_hint('audit')}) or pass --python") from None
        except KeyError as exc:
            raise TargetError(str(exc.args[0])) from None
        except Exception as exc:  # the library refused the parameters
            raise TargetError(f"{target}: the library refused eps={eps}, k={k}: {type(exc).__name__}: {exc}") from None
        return Target(built.fn, pass_rng=True, domain=built.domain, claimed=built.claimed, version=built.version,
                      seed=built.seed, white=built.white, declared=built.declared, enumerable=built.enumerable,
                      seeds=built.seeds)
    where, name = target.rsplit(":", 1)
    # the user's folders are theirs: importing their code (and whatever it imports later) writes no __pycache__
    sys.dont_write_bytecode = True
    try:
        if where.endswith(".py"):
            if not os.path.isfile(where):
                raise TargetError(f"target {target!r}: no file {where}")
            module = _import_file(where)
        else:
            module = importlib.import_module(where)
    except TargetError:
        raise
    except Exception as exc:  # the user's module failed to import: one line, not a traceback
        raise TargetError(f"target {target!r}: cannot import {where}: {type(exc).__name__}: {exc}") from None
    fn: Any = module
    for part in name.split("."):
        fn = getattr(fn, part, None)
        if fn is None:
            raise TargetError(f"target {target!r}: {where} has no {name!r}")
    if not callable(fn):
        raise TargetError(f"target {target!r}: {name!r} is not callable")
    try:
        pass_rng = "rng" in inspect.signature(fn, follow_wrapped=False).parameters
    except (TypeError, ValueError):
        pass_rng = False
    return Target(fn, pass_rng=pass_rng)

def _seeds(seed: int, index: int, chunk: int) -> tuple[Any, int]:
    import numpy as np

    ss = np.random.SeedSequence([int(seed), int(index), int(chunk)])
    return np.random.default_rng(ss), int(ss.generate_state(1, dtype=np.uint64)[0])

_GLOBALS = threading.Lock()  # the global generators are seeded per chunk: one chunk at a time per process


def sample_counts(target: Target, x: Any, *, index: int, chunk: int, size: int, seed: int,
                  bins: list | None = None, atoms: list | None = None, ordered: bool = False) -> Counter:
    """Counts of ``output_key``s over ``size`` runs on ``x``, seeded from ``(seed, index, chunk)`` alone; with
    ``bins`` (sorted edges), counts of the bin each real-valued output falls in (:func:`bin_key`), the values
    in ``atoms`` (point masses) counted as outputs of their own.  With ``ordered``, each run's output is
    counted under its position (``"j:key"``), so that two samples compare equal only when every run agrees."""
    with _GLOBALS:
        counts = _sample_counts(target, x, index=index, chunk=chunk, size=size, seed=seed, ordered=ordered)
    if bins is None or ordered:  # the runs in order compare the same binned or not
        return counts
    binned: Counter = Counter()
    for key, n in counts.items():
        binned[bin_key(key, bins, atoms)] += n
    return binned


def bin_key(key: Any, edges: list, atoms: list | None = None) -> str:
    """The interval of ``edges`` that the real output ``key`` falls in: ``"[a, b)"``, open at infinity; a value
    in ``atoms`` is its own output, ``"{v}"``.

    Examples
    --------
    >>> bin_key(0.5, [0.0, 1.0]), bin_key(-3, [0.0, 1.0]), bin_key(1.0, [0.0, 1.0]), bin_key(0.5, [0.0], [0.5])
    ('[0.0, 1.0)', '(-inf, 0.0)', '[1.0, inf)', '{0.5}')
    """
    import bisect

    value = output_real(key)
    if value is None:
        raise TargetError(f"--bins needs a real-valued output; the randomizer returned {key!r}")
    if atoms and value in atoms:
        return f"{{{value!r}}}"
    i = bisect.bisect_right(edges, value)
    lo = "(-inf" if i == 0 else f"[{edges[i - 1]!r}"
    hi = "inf)" if i == len(edges) else f"{edges[i]!r})"
    return f"{lo}, {hi}"


def _seed_numba(state: int) -> None:
    """Seed numba's own generators (those of compiled ``np.random`` and ``random`` draws), when numba is loaded,
    so that compiled code a user's file calls is sampled as reproducibly as the library adapters' (which seed
    them the same way, through a compiled ``np.random.seed``)."""
    helper = sys.modules.get("numba._helperlib")
    if helper is None:
        return
    try:
        for pointer in (helper.rnd_get_np_state_ptr(), helper.rnd_get_py_state_ptr()):
            helper.rnd_seed(pointer, state)
    except Exception:  # noqa: S110 - another numba: its generators stay unseeded
        pass


def _sample_counts(target: Target, x: Any, *, index: int, chunk: int, size: int, seed: int,
                   ordered: bool = False) -> Counter:
    import random

    import numpy as np

    rng, state = _seeds(seed, index, chunk)
    random.seed(state)
    np.random.seed(state % 2**32)
    _seed_numba(state % 2**32)
    if target.seed is not None:
        target.seed(state)
    counts: Counter = Counter()
    fn = target.fn
    for j in range(size):
        key = output_key(target.call(fn, x, rng))
        counts[f"{j}:{key!r}" if ordered else key] += 1
    return counts

def run_job(job: dict, cache: dict | None = None) -> dict:
    """Answer one job (the module docstring lists them); errors come back as ``{"ok": False, ...}``."""
    cache = {} if cache is None else cache
    try:
        key = json.dumps([job["target"], job.get("params")], sort_keys=True)
        if key not in cache:
            _CLOCK[0] = time.monotonic()  # the module's import runs the user's code too
            try:
                cache[key] = load_target(job["target"], job.get("params"))
            finally:
                _CLOCK[0] = None
        target = cache[key]
        task = job["task"]
        if task == "describe":
            return {"ok": True, "domain": target.domain, "claimed": target.claimed, "version": target.version,
                    "enumerable": target.enumerable, "declared": target.declared is not None, "seeds": target.seeds}
        domain = job["domain"]
        if task == "outputs":  # every output the randomizer can return, proven from its source, or why not
            if target.white is not None:
                return {"ok": True, "outputs": None, "why": "a library mechanism's source is not analysed"}
            try:
                proof = proven_outputs(target.fn, domain, pass_rng=target.pass_rng)
            except Refused as exc:
                return {"ok": True, "outputs": None, "why": str(exc)}
            return {"ok": True, "outputs": [repr(output_key(v)) for v in proof.values], "text": proof.text(),
                    "fingerprint": _fingerprint(target.fn)}
        if task == "enumerate":
            fn = _timed(target.white or target.fn)
            rows, unexplored, bits = {}, {}, {}
            inputs = job["inputs"]
            # one enumeration for the job's inputs: its set-up (the generators alive in this process, found by
            # the garbage collector) is paid once, not once per input (k-RR, k = 256: 1.5 s of 2.5)
            e = enumerate_channel(fn, [domain[i] for i in inputs], pass_rng=target.pass_rng or target.white is not None,
                                  max_paths=job.get("max_paths", 1_000_000) * len(inputs), allow_unexplored=True,
                                  seconds=job.get("seconds"), max_depth=job.get("max_depth"))
            names = [(repr(k), output_label(k)) for k in e.outputs]  # each output's text made once, not per input
            for n, i in enumerate(inputs):
                if e.factorised is not None:  # independent bits: the coordinate probabilities
                    f = e.factorised
                    bits[str(i)] = {"kind": f.kind, "radius": f.radius,
                                    "row": [f"{p.numerator}/{p.denominator}" for p in f.rows[n]]}
                rows[str(i)] = [[key, label, f"{p.numerator}/{p.denominator}"]
                                for (key, label), p in zip(names, e.rows[n] if e.rows else []) if p]
                m = e.unexplored[n]
                unexplored[str(i)] = f"{m.numerator}/{m.denominator}"
            closed = {str(i): bool(e.closed[n]) for n, i in enumerate(inputs) if n < len(e.closed)}
            return {"ok": True, "rows": rows, "runs": e.runs, "rounding": e.rounding, "unexplored": unexplored,
                    "closed": closed, "bits": bits, "fingerprint": _fingerprint(target.white or target.fn)}
        if task == "sample":
            i = job["input"]
            counts = sample_counts(target, domain[i], index=i, chunk=job["chunk"], size=job["size"], seed=job["seed"],
                                   bins=job.get("bins"), atoms=job.get("atoms"),
                                   ordered=bool(job.get("ordered")))
            if len(counts) > MAX_OUTPUTS:
                return {"ok": False, "kind": "limit", "message": f"the randomizer gave more than {MAX_OUTPUTS} distinct "
                        f"outputs in {job['size']} runs on input #{i} (the limit of distinct outputs; --bins groups "
                        "real-valued ones)"}
            return {"ok": True, "counts": [[repr(k), output_label(k), n] for k, n in counts.items()]}
        if task == "declared":
            if target.declared is None:
                return {"ok": True, "rows": None}
            rows = {}
            for i in job["inputs"]:
                row = target.declared(domain[i])
                rows[str(i)] = [[repr(output_key(y)), output_label(output_key(y)), repr(float(p))]
                                for y, p in row.items()]
            return {"ok": True, "rows": rows}
        return {"ok": False, "kind": "input", "message": f"unknown task {task!r}"}
    except TargetError as exc:
        return {"ok": False, "kind": "input", "message": str(exc)}
    except AnswerTooLarge as exc:
        return {"ok": False, "kind": "limit", "message": str(exc)}
    except NotEnumerable as exc:
        return {"ok": False, "kind": "not-enumerable", "message": str(exc)}
    except MemoryError:
        limit = os.environ.get(MEMORY_VARIABLE)
        return {"ok": False, "kind": "limit", "message": "the randomizer ran out of memory" + (
            f" (the limit of {limit} MiB of a worker process, --memory)" if limit else "")}
    except Exception as exc:  # the randomizer raised: report it, the audit decides what it means
        return {"ok": False, "kind": "error", "message": f"{type(exc).__name__}: {_short(exc)}"}
    except SystemExit as exc:  # the randomizer's exit is an outcome of the audit, not the worker's nor the tool's
        return {"ok": False, "kind": "exit", "message": f"the randomizer called sys.exit({exc.code!r})"}
    except BaseException as exc:  # KeyboardInterrupt or GeneratorExit raised by the randomizer itself
        return {"ok": False, "kind": "exit", "message": f"the randomizer raised {type(exc).__name__}"}


def _short(exc: BaseException, limit: int = 500) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[:limit] + "..."

#: Environment variables by which the tool (:class:`relations.audit._pool.Pool`) hands a worker process its
#: protocol's file descriptors and its limits.
JOBS_VARIABLE, ANSWERS_VARIABLE = "RELATIONS_JOBS_FD", "RELATIONS_ANSWERS_FD"
CALL_VARIABLE, MEMORY_VARIABLE = "RELATIONS_CALL_SECONDS", "RELATIONS_MEMORY_MB"
ANSWER_VARIABLE = "RELATIONS_MAX_ANSWER"
#: Most distinct outputs one sampling job may report (more: a ``limit`` answer).
MAX_OUTPUTS = 100_000


def _limit_memory() -> None:
    """``RLIMIT_AS`` of this process to :data:`MEMORY_VARIABLE` MiB (where the platform has it)."""
    text = os.environ.get(MEMORY_VARIABLE, "")
    if not text.isdigit():
        return
    try:
        import resource

        cap = int(text) * 2**20
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
    except (ImportError, ValueError, OSError):
        pass


def _watchdog(say: Callable[[dict], None], seconds: float) -> None:
    """End this process when the randomizer's code has been running for ``seconds`` without returning, after
    saying so (one ``limit`` answer)."""
    def watch() -> None:
        while True:
            time.sleep(min(0.1, seconds / 4))
            started = _CLOCK[0]
            if started is not None and time.monotonic() - started > seconds:
                say({"ok": False, "kind": "limit", "message": f"one call of the randomizer exceeded the time limit "
                     f"of {seconds:g} s (--call-timeout)"})
                os._exit(3)

    threading.Thread(target=watch, daemon=True, name="relations-watchdog").start()


def main() -> None:
    """The worker loop: one JSON job per line in, one JSON answer per line out.

    Started by the tool, the jobs and answers travel on pipes of their own (:data:`JOBS_VARIABLE`,
    :data:`ANSWERS_VARIABLE`), so that whatever the randomizer (or a ``--python`` wrapper) prints on
    standard output or error cannot enter them; by hand, on standard input and output.  The process dies
    with the tool (:mod:`relations._processes`), ignores Ctrl-C (the tool stops it), and applies the limits
    it is given: the address space (``RLIMIT_AS``) and the time of one call of the randomizer.  Started by
    the tool, it runs the jobs in a child of its own (:func:`~relations._processes.keep_descendants`), so that
    every process the randomizer starts ends with the worker."""
    import signal

    from relations._processes import PARENT_VARIABLE, die_with_parent, keep_descendants, watch_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.environ.get(PARENT_VARIABLE, "")
    die_with_parent(int(parent) if parent.isdigit() and os.getppid() == int(parent) else None)
    if os.environ.get(JOBS_VARIABLE, "").isdigit():  # started by the tool: the randomizer's processes are kept
        keep_descendants()  # (a daemon that double-forks and calls setsid() included) and end with the worker
    watch_parent()  # through a wrapper (--python), the tool may not be the direct parent
    jobs_fd, answers_fd = os.environ.get(JOBS_VARIABLE, ""), os.environ.get(ANSWERS_VARIABLE, "")
    jobs: Any
    if jobs_fd.isdigit() and answers_fd.isdigit():
        jobs = os.fdopen(int(jobs_fd), "r", encoding="utf-8")
        protocol = os.fdopen(int(answers_fd), "w", encoding="utf-8")
    else:  # by hand: the randomizer's prints go to stderr, not into the protocol
        jobs = sys.stdin
        protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
        os.dup2(2, 1)
        sys.stdout = sys.stderr
    lock = threading.Lock()

    def say(answer: dict) -> None:
        text = encode_answer(answer)
        with lock:
            protocol.write(text + "\n")
            protocol.flush()

    limit = os.environ.get(ANSWER_VARIABLE, "")
    if limit.isdigit() and int(limit) > 0:
        _ANSWER[0] = int(limit)
    _limit_memory()
    seconds = os.environ.get(CALL_VARIABLE, "")
    try:
        if float(seconds) > 0:
            _watchdog(say, float(seconds))
    except ValueError:
        pass
    cache: dict = {}
    for line in jobs:
        if not line.strip():
            continue
        say(run_job(json.loads(line), cache))

if __name__ == "__main__":
    main()
