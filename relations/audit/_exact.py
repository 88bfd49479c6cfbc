"""The exact channel of a randomizer, from every path through its random choices.

:func:`enumerate_channel` runs the randomizer once per path, with the
:class:`~relations.audit._generator.EnumeratingGenerator` as its random source and the
global generators intercepted (:mod:`relations.audit._intercept`), and weights each path
by the exact product of its choices' probabilities.  Kept free of the rest of the package
(except :func:`exact_mechanism`, which imports it when called) so that a worker
interpreter can run it alone.
"""

from __future__ import annotations

import itertools
import math
import operator
import sys
import sysconfig
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from relations.audit._enumerate import (
    FIRST_DEPTH,
    MAX_DEPTH,
    MAX_OUTCOMES,
    MAX_PATHS,
    HiddenRandomness,
    Jump,
    NotEnumerable,
    Replay,
    Truncated,
    next_depth,
)
from relations.audit._generator import EnumeratingGenerator
from relations.audit._independent import settle
from relations.audit._intercept import HiddenEntropy, intercepted_globals
from relations.audit._iteration import Returned, iteration_maps
from relations.audit._outputs import output_key, output_label
from relations.audit._states import (  # at import: the closed world patches random.SystemRandom
    carried,
    frames_read,
    snapshot,
    solve_chain,
)
from relations.audit._vectors import BitVector, Factorised, merge_products

__all__ = ["REPLAYS", "Enumerated", "Unexplored", "enumerate_channel", "deepening", "deepen_first", "exact_channel", "exact_mechanism",
           "mass_text"]

T = TypeVar("T")

#: Depth of the first enumeration of an input: a path cut there is a loop on draws, enumerated again recording
#: its states (:mod:`relations.audit._states`) to the full depth.
LOOP_PROBE = 16
#: Paths the state-recording enumeration may run without meeting a repeated state before it gives up (a deep
#: tree that is no loop: recording states would only slow it down).
LOOP_PATIENCE = 500


@dataclass(frozen=True)
class Enumerated:
    """The channel a randomizer implements (:func:`enumerate_channel`).

    Attributes
    ----------
    outputs : list
        The distinct outputs (as :func:`output_key`), in order of first appearance.
    rows : list of list of Fraction
        ``rows[i][j] = P(fn(domain[i]) = outputs[j])``, each row summing to exactly 1.
    runs : int
        Paths run.
    rounding : float
        Relative rounding of the entries that comes from float thresholds and weights in
        the code (each taken at its binary value, within :data:`THRESHOLD_ROUNDING` of the
        intended one); 0 when every probability in the code is exact.
    """

    outputs: list[Hashable]
    rows: list[list[Fraction]]
    runs: int
    rounding: float
    unexplored: tuple[Fraction, ...] = ()
    factorised: Any = None  # a Factorised channel (relations.audit._vectors) when the outputs are independent bits
    #: per input, whether its unexplored mass is all *confined*: missing from choices whose every branch was
    #: followed (the index of the largest of independent draws), so that it reaches only outputs seen
    closed: tuple[bool, ...] = ()

    @property
    def outputs_known(self) -> bool:
        """Every output the randomizer can return was seen: the unexplored mass of every input is confined
        (:attr:`closed`), so that :meth:`eps_d_upper` is an upper end without declared outputs."""
        return bool(self.closed) and all(self.closed) and len(self.closed) == len(self.rows)

    @property
    def complete(self) -> bool:
        """Every path was followed to its end: the rows are the channel, exactly."""
        return not any(self.unexplored)

    def eps_d_lower(self) -> tuple[Fraction | None, tuple[int, int, int] | None]:
        """A certified lower bound ``ln(q)`` on ``eps_d`` from the explored paths: ``(q, (x, x', y))``, the largest
        ``rows[x][y] / (rows[x'][y] + unexplored[x'])`` (``q = None``: infinite; ``(Fraction(1), None)`` when
        no output was seen twice).  Each explored entry is at most its true value, and the true value of
        ``Q[x'][y]`` is at most the explored one plus the unexplored mass of ``x'``.

        Examples
        --------
        >>> from fractions import Fraction as F
        >>> e = Enumerated([0, 1], [[F(3, 4), F(1, 8)], [F(1, 4), F(3, 4)]], 5, 0.0, (F(1, 8), F(0)))
        >>> e.eps_d_lower()
        (Fraction(3, 1), (0, 1, 0))
        """
        best: Fraction | None = Fraction(1)
        where = None
        rows, mass = self.rows, self.unexplored or tuple(Fraction(0) for _ in self.rows)
        for i, row in enumerate(rows):
            for i2, other in enumerate(rows):
                if i == i2:
                    continue
                for j, p in enumerate(row):
                    if p <= 0:
                        continue
                    top = other[j] + mass[i2]
                    if top == 0:
                        return None, (i, i2, j)
                    if best is not None and p / top > best:
                        best, where = p / top, (i, i2, j)
        return best, where

    def replaced(self, index: int, other: Enumerated) -> Enumerated:
        """These rows with row ``index`` replaced by the only row of ``other`` (the same input enumerated deeper),
        over the outputs of both; its paths are counted with these.

        Examples
        --------
        >>> from fractions import Fraction as F
        >>> e = Enumerated([0, 1], [[F(1, 2), F(1, 4)], [F(1, 4), F(1, 2)]], 8, 0.0, (F(1, 4), F(1, 4)))
        >>> r = e.replaced(1, Enumerated([2, 1], [[F(1, 8), F(3, 4)]], 5, 0.0, (F(1, 8),)))
        >>> r.outputs, r.rows[1], r.unexplored, r.runs
        ([0, 1, 2], [Fraction(0, 1), Fraction(3, 4), Fraction(1, 8)], (Fraction(1, 4), Fraction(1, 8)), 13)
        """
        outputs = list(self.outputs) + [k for k in other.outputs if k not in self.outputs]
        zero = Fraction(0)
        rows = [list(r) + [zero] * (len(outputs) - len(r)) for r in self.rows]
        where = {k: j for j, k in enumerate(outputs)}
        row = [zero] * len(outputs)
        for k, p in zip(other.outputs, other.rows[0]):
            row[where[k]] = p
        rows[index] = row
        mass = list(self.unexplored or [zero] * len(rows))
        mass[index] = other.unexplored[0] if other.unexplored else zero
        return Enumerated(outputs, rows, self.runs + other.runs, max(self.rounding, other.rounding), tuple(mass))

    def eps_d_upper(self) -> tuple[Fraction | None, tuple[int, int, int] | None]:
        """A certified upper bound ``ln(q)`` on ``eps_d`` *if the randomizer returns no output other than those
        seen* (``outputs`` declared by the user): ``(q, (x, x', y))``, the largest ``(rows[x][y] + unexplored[x])
        / rows[x'][y]`` (``q = None``: infinite).  Each true entry lies in ``[rows[x][y], rows[x][y] +
        unexplored[x]]``, so the bound narrows as the depth grows.

        Examples
        --------
        >>> from fractions import Fraction as F
        >>> e = Enumerated([0, 1], [[F(5, 8), F(1, 4)], [F(1, 4), F(5, 8)]], 5, 0.0, (F(1, 8), F(1, 8)))
        >>> e.eps_d_upper()
        (Fraction(3, 1), (0, 1, 0))
        """
        best: Fraction = Fraction(1)
        where = None
        mass = self.unexplored or tuple(Fraction(0) for _ in self.rows)
        for i, row in enumerate(self.rows):
            for i2, other in enumerate(self.rows):
                if i == i2:
                    continue
                for j, p in enumerate(row):
                    if other[j] == 0:
                        if p + mass[i] > 0:
                            return None, (i, i2, j)
                        continue
                    if (p + mass[i]) / other[j] > best:
                        best, where = (p + mass[i]) / other[j], (i, i2, j)
        return best, where


#: Times the first path of every input is replayed to detect randomness the audit cannot see.
REPLAYS = 16


def _replayed(fn: Callable[..., Any], x: Any, pass_rng: bool, replay: Replay, key: Hashable, current: Any) -> None:
    """Replay the path just run; a different output means randomness from a source the audit
    does not control (OS entropy, native code, a generator created inside the function)."""
    forced = [c for c, _ in replay.trail]
    for _ in range(REPLAYS):
        again = Replay(replay.max_outcomes, replay.max_depth)
        again.forced = list(forced)
        value = _run(fn, x, pass_rng, again, current)
        if _key(value) != key or [c for c, _ in again.trail] != forced:
            raise HiddenRandomness("the randomizer draws from a source the audit cannot see (operating-system "
                                "entropy, native code or its own generator): the same choices gave different "
                                "outputs")


def _prebuilt(fn: Callable[..., Any]) -> list[tuple[str, Any]]:
    """The generators built before the run, named where ``fn`` reaches them by name (its module's globals and
    those of the user's modules imported there, one level down, its closure, its defaults, a bound method's
    object, what it wraps), and every other numpy generator and ``random.Random`` alive in the process.  Their
    draws cannot be enumerated (the audit did not build them, or the code holds a draw function bound before
    the interception); a run that moves one of them is hidden randomness."""
    import sys
    import types

    import numpy as np

    kinds = (np.random.Generator, np.random.RandomState)
    found: dict[int, tuple[str, Any]] = {}

    def look(where: str, values: Any) -> None:
        for name, v in values:
            if isinstance(v, kinds):
                found.setdefault(id(v), (f"{where}{name}", v))

    chain: list[Any] = []
    target: Any = fn
    while target is not None and len(chain) < 8:  # the function and what it wraps (functools.wraps)
        chain.append(target)
        target = getattr(target, "__wrapped__", None)
    for target in chain:
        g = getattr(target, "__globals__", None) or {}
        look("", g.items())
        for module in [v for v in g.values() if isinstance(v, types.ModuleType)]:
            root = module.__name__.split(".")[0]
            if root not in sys.stdlib_module_names and root not in ("numpy", "scipy", "relations"):
                look(f"{module.__name__}.", vars(module).items())
        cells = getattr(target, "__closure__", None) or ()
        look("closure ", [(str(i), c.cell_contents) for i, c in enumerate(cells) if _filled(c)])
        look("default ", enumerate(getattr(target, "__defaults__", None) or ()))
    owner = getattr(fn, "__self__", None)
    if owner is not None and hasattr(owner, "__dict__"):
        look("self.", vars(owner).items())
    # every other generator alive in the process (a class attribute, a dict or list entry, a partial's
    # argument, a bound method kept by 'from random import randrange'): found by the garbage collector
    import random

    legacy = getattr(np.random.mtrand, "_rand", None)
    # the types of generators: every class alive that derives from one, found from the classes themselves (and
    # from random.Random's C base, the only other layout a class whose method order names random.Random can have);
    # then only their objects looked at, in one pass over the objects, in C (an audit's job pays this once, k-RR
    # with k = 256 in 33 jobs; a first pass over the objects for their types cost half as much again), or only
    # over the objects made since the last pass when the collector says that no older one can be missed
    for obj in _alive_of((*kinds, *random.Random.__mro__[:-1])):  # (as in scan_ahead)
        if id(obj) in found:
            continue
        if isinstance(obj, kinds):
            found[id(obj)] = ("numpy's legacy global generator (a draw function imported by name before the audit)"
                              if obj is legacy else f"a numpy {type(obj).__name__}", obj)
        elif isinstance(obj, random.Random) and not isinstance(obj, random.SystemRandom):
            found[id(obj)] = ("Python's random module generator (a draw function imported by name before the audit)"
                              if obj is getattr(random, "_inst", None) else "a random.Random instance", obj)
    return list(found.values())


def _of_types(objects: list[Any], types: set[type]) -> list[Any]:
    """The objects whose type is one of ``types`` (one pass, in C)."""
    return list(itertools.compress(objects, map(types.__contains__, map(type, objects))))


#: Whether the garbage collector keeps the objects made since a point in the young generations until a
#: collection of an older one or a ``gc.freeze()`` moves them all: CPython's generational collector (3.11 to
#: 3.13; the incremental collector of 3.14 and the free-threaded build are not relied on).
_YOUNG_SCAN = (sys.implementation.name == "cpython" and (3, 11) <= sys.version_info[:2] < (3, 14)
               and not sysconfig.get_config_var("Py_GIL_DISABLED"))
#: The last pass over every object: ``(roots, mark, found)``, the objects found and a mark made just before it.
#: One slot, read and replaced whole (an audit in another thread sees the old pass or the new one, never half).
_SCANNED: list[tuple[tuple[type, ...], list, list[Any]] | None] = [None]


def _alive_of(roots: tuple[type, ...]) -> list[Any]:
    """Every object alive that is an instance of one of ``roots`` (exactly or of a subclass: the generators'
    types, :func:`_prebuilt`), found by their types (:func:`_subclasses`) in the garbage collector's objects.

    A pass over every object costs tens of milliseconds in a large process (a notebook, a test session), once
    per audit.  Its result is kept, with a mark (an empty list, tracked by the collector) made before it.  As
    long as the mark is still in the collector's young generations (0 and 1), no collection of an older
    generation and no ``gc.freeze()`` ran since it was made, and CPython moves objects out of the young
    generations only by those, each generation as a whole: every object made since the mark that is alive and
    tracked is in the young generations, and every other object alive was listed by that pass (with its type:
    a class made since has no object older than itself).  So the kept result and the young generations' objects
    are every object asked for.  The kept objects stay alive (a generator no one else holds cannot draw).
    Otherwise (the mark moved, a caller's ``gc.freeze()`` in force, other ``roots``, another interpreter)
    every object is listed again (:func:`_every_object`).

    Examples
    --------
    >>> import random
    >>> made = random.Random(5)
    >>> any(g is made for g in _alive_of((random.Random,)))
    True
    >>> later = random.Random(6)
    >>> any(g is later for g in _alive_of((random.Random,)))
    True
    """
    import gc

    types = _subclasses(roots)
    kept = _SCANNED[0]
    if _YOUNG_SCAN and kept is not None and kept[0] == roots and not gc.get_freeze_count():
        _, kept_mark, known = kept
        young = gc.get_objects(generation=0) + gc.get_objects(generation=1)
        if any(map(operator.is_, young, itertools.repeat(kept_mark))):
            return [*known, *_of_types(young, types)]
    _SCANNED[0] = None
    if _YOUNG_SCAN and not gc.get_freeze_count():
        mark: list = []  # made before the pass: whatever is made after it is young as long as the mark is
        found = _of_types(gc.get_objects(), types)
        _SCANNED[0] = (roots, mark, found)
        return list(found)
    return _of_types(_every_object(), types)


def scan_ahead() -> None:
    """The pass over every object of :func:`_prebuilt`, made here and kept (:func:`_alive_of`), unless a kept one
    still holds: called before forking a child that audits (:func:`~relations.audit.audit`), so that the child,
    which starts with a copy of this process's objects and of what was kept, looks only through the objects
    made since (a pass over every object there would also copy each page of memory it touches).  Nothing is
    done under a caller's ``gc.freeze()`` (listing the frozen objects would freeze the caller's newer ones too)
    or where the kept pass cannot be relied on.

    Examples
    --------
    >>> scan_ahead()
    >>> not _YOUNG_SCAN or _SCANNED[0] is not None
    True
    """
    import gc
    import random

    import numpy as np

    if _YOUNG_SCAN and not gc.get_freeze_count():
        _alive_of((np.random.Generator, np.random.RandomState, *random.Random.__mro__[:-1]))


def _every_object() -> list[Any]:
    """Every object the garbage collector tracks, those that ``gc.freeze()`` moved to its permanent generation
    included: ``gc.get_objects()`` does not list them, and a caller may have frozen its objects (a server that
    preloads and forks; the audit's child inherits the freeze).  They are listed by unfreezing them for the
    call and freezing what is tracked again afterwards (so the objects created since the caller's
    ``gc.freeze()`` are frozen too: kept from the cyclic collector, never changed)."""
    import gc

    if not gc.get_freeze_count():
        return gc.get_objects()
    gc.unfreeze()
    try:
        return gc.get_objects()
    finally:
        gc.freeze()


def _subclasses(roots: tuple[type, ...]) -> set[type]:
    """``roots`` and every class alive that derives from one of them (``type.__subclasses__``, transitively).

    Examples
    --------
    >>> class A: pass
    >>> class B(A): pass
    >>> class C(B): pass
    >>> _subclasses((B,)) == {B, C}
    True
    """
    found: set[type] = set()
    todo = list(roots)
    while todo:
        t = todo.pop()
        if t not in found:
            found.add(t)
            todo.extend(type.__subclasses__(t))  # (not t.__subclasses__: a class may define its own)
    return found


def _excused(g: Any, current: Any) -> bool:
    """A generator the closed world runs for real in this run: seeded in it (random.seed(s), np.random.seed(s),
    ``instance.seed(s)``), so its state moves by the code's own seeded draws."""
    import random

    import numpy as np

    if g is getattr(random, "_inst", None):
        return bool(current.py_reseeded)
    if g is getattr(np.random.mtrand, "_rand", None):
        return bool(current.np_reseeded)
    return bool(getattr(g, "_relations_reseeded", False))


def _filled(cell: Any) -> bool:
    try:
        _ = cell.cell_contents
    except ValueError:  # an empty cell
        return False
    return True


def _state(g: Any) -> Any:
    """Bytes that change when ``g`` draws (numpy states hold arrays, which ``==`` does not compare as a whole)."""
    import pickle

    if hasattr(g, "getstate"):  # random.Random
        return pickle.dumps(g.getstate())
    bits = g.bit_generator if hasattr(g, "bit_generator") else g._bit_generator
    return pickle.dumps(bits.state)


def _run(fn: Callable[..., Any], x: Any, pass_rng: bool, replay: Replay, current: Any) -> Any:
    """One run of ``fn(x)`` along ``replay``'s path, in the closed world: a blocked source ends the route, even
    when the code caught the exception it raised."""
    current.begin()
    gen = current.generator = EnumeratingGenerator(replay)
    try:
        value = fn(x, rng=gen) if pass_rng else fn(x)
    except Returned as returned:  # the rest of its code proven to return this (a vector of bits mapped)
        value = returned.value
    except HiddenEntropy:
        raise
    except Exception:
        settle(gen)  # a placeholder or a refused vector of noisy draws left behind: the run is void
        if current.blocked:
            raise HiddenEntropy(current.blocked) from None
        raise
    settle(gen)
    if current.blocked:
        raise HiddenEntropy(current.blocked)
    return value


def enumerate_channel(fn: Callable[..., Any], domain: Sequence[Any], *, pass_rng: bool = True,
                      max_paths: int = MAX_PATHS, max_outcomes: int = MAX_OUTCOMES, max_depth: int | None = MAX_DEPTH,
                      allow_unexplored: bool = False, seconds: float | None = None, loops: bool = True) -> Enumerated:
    """The exact channel of ``fn`` on ``domain`` and the rounding it inherits from float thresholds.

    Parameters and exceptions as for :func:`exact_channel`; ``max_depth`` bounds the draws along one path
    (:data:`~relations.audit._enumerate.MAX_DEPTH`).  A path that reaches it (a loop on draws) is not
    followed further: with ``allow_unexplored`` its probability is added to the input's ``unexplored``
    mass and the rows sum to less than 1; otherwise :class:`Unexplored` is raised, with the certified
    lower bound on ``eps_d`` the explored paths give.  ``seconds`` bounds the wall time of the whole
    enumeration: past it, :class:`~relations.audit._enumerate.NotEnumerable` says how far it got.  With
    ``loops``, an input whose paths were cut is enumerated again with the state of the code recorded at each
    draw (:mod:`relations.audit._states`): a path that reaches a state seen before is cut there, and the finite
    Markov chain of the states that repeat is solved exactly, so that a rejection loop is exact.

    Returns
    -------
    Enumerated

    Examples
    --------
    >>> def rr(x, rng):
    ...     return x if rng.random() < 0.75 else 1 - x
    >>> e = enumerate_channel(rr, [0, 1])
    >>> e.rows[1], 0 < e.rounding < 1e-12
    ([Fraction(1, 4), Fraction(3, 4)], True)
    >>> from fractions import Fraction
    >>> enumerate_channel(lambda x, rng: x if rng.random() < Fraction(3, 4) else 1 - x, [0, 1]).rounding
    0.0
    """
    used = iteration_maps.used
    try:
        return _channel(fn, domain, pass_rng, max_paths, max_outcomes, max_depth, allow_unexplored, seconds, loops)
    except NotEnumerable:
        if iteration_maps.used == used:
            raise
    # an iteration over bits was kept factorised on some paths and not on others (a mixture that is not one
    # product): again, every bit read one by one
    with iteration_maps.off():
        return _channel(fn, domain, pass_rng, max_paths, max_outcomes, max_depth, allow_unexplored, seconds, loops)


def _channel(fn: Callable[..., Any], domain: Sequence[Any], pass_rng: bool, max_paths: int, max_outcomes: int,
             max_depth: int | None, allow_unexplored: bool, seconds: float | None, loops: bool) -> Enumerated:
    """:func:`enumerate_channel`, once."""
    outputs: dict[Hashable, int] = {}
    raw_rows: list[dict[int, Fraction]] = []
    watched = _prebuilt(fn)
    unexplored: list[Fraction] = []
    closed: list[bool] = []  # each input's unexplored mass all confined (Enumerated.closed)
    walk = _Walk(fn, pass_rng, max_paths, max_outcomes, max_depth,
                 None if seconds is None else time.monotonic() + seconds, seconds, outputs)
    radius = 1.0
    with intercepted_globals() as current:
        walk.current = current
        for x in domain:
            states = [_state(g) for _, g in watched]
            probe = loops and walk.max_depth > LOOP_PROBE  # a cut path is enough to know that it loops
            try:
                row, lost, r = walk.paths(x, LOOP_PROBE, probe)
            except HiddenRandomness:  # the replays differed: a generator built before the run, if one moved
                if all(_state(g) == before for (_, g), before in zip(watched, states)):
                    raise
            if any(_state(g) != before for (_, g), before in zip(watched, states)):
                walk.careful = watched  # a generator built before the run moved: again, path by path
                row, lost, r = walk.paths(x, LOOP_PROBE, probe)
                walk.careful = None
            if lost:  # a loop on draws: its states, where they repeat; else deeper
                looped = None
                if loops:
                    try:
                        looped = walk.chain(x)
                    except _NoChain:
                        pass
                if looped is not None:
                    row, lost, r = looped
                elif walk.max_depth > LOOP_PROBE:
                    walk.estimate(x)  # a tree far beyond the limits is refused at once, not after the budget
                    row, lost, r = walk.paths(x)
            elif walk.confined and walk.max_depth > LOOP_PROBE:  # tails of draws kept factorised: as deep as asked
                row, lost, r = walk.paths(x)
            raw_rows.append(row)
            unexplored.append(lost + walk.confined)
            closed.append(not lost)
            radius = max(radius, r)
    runs = walk.runs
    keys = list(outputs)
    if any(_is_bits(k) for k in keys):  # independent bits: one product per input, never expanded
        return Enumerated([], [], runs, (radius - 1) * (1 + 2.0**-40), tuple(unexplored),
                          _factorised(keys, raw_rows, radius, unexplored))
    rows = [[r.get(j, Fraction(0)) for j in range(len(keys))] for r in raw_rows]
    for x, full, m in zip(domain, rows, unexplored):
        if not _sums_to_one(full, m):  # pragma: no cover - the weights of a decision tree sum to 1
            raise AssertionError(f"probabilities for input {x!r} sum to {sum(full) + m}")
    e = Enumerated(keys, rows, runs, (radius - 1) * (1 + 2.0**-40), tuple(unexplored), closed=tuple(closed))
    if not e.complete and not allow_unexplored:
        raise Unexplored(e, MAX_DEPTH if max_depth is None else max_depth)
    return e


class _NoChain(Exception):
    """The paths cut at repeated states do not make a chain that can be solved exactly (floats inside the loop,
    or a loop the explored paths never leave): the input keeps its depth-bounded enumeration."""


class _Walk:
    """The depth-first walk through one input's paths (:func:`enumerate_channel`), and the same walk recording
    the state at each draw (:meth:`chain`)."""

    def __init__(self, fn: Callable[..., Any], pass_rng: bool, max_paths: int, max_outcomes: int,
                 max_depth: int | None, deadline: float | None, seconds: float | None, outputs: dict):
        self.fn, self.pass_rng, self.max_paths, self.max_outcomes = fn, pass_rng, max_paths, max_outcomes
        self.max_depth = MAX_DEPTH if max_depth is None else max_depth
        self.deadline, self.seconds, self.outputs = deadline, seconds, outputs
        self.runs = 0
        self.current: Any = None
        self.careful: list | None = None  # generators built before the run, checked after every path
        self.confined = Fraction(0)  # the confined mass of the last walk (Replay.confined)

    def _count(self) -> None:
        self.runs += 1
        if self.runs > self.max_paths:
            raise NotEnumerable(f"more than {self.max_paths} paths through the randomizer")
        if self.deadline is not None and (self.runs & 63 == 0 or self.runs < 64) and time.monotonic() > self.deadline:
            raise NotEnumerable(f"the white-box time budget of {self.seconds:g} s ran out after {self.runs - 1} paths")

    def _check(self, states: list) -> None:
        assert self.careful is not None
        for (name, g), before in zip(self.careful, states):
            if _state(g) != before and not _excused(g, self.current):
                raise HiddenRandomness(f"the randomizer draws from {name}, a generator built before the "
                                       "audit ran (at import): its draws cannot be enumerated")

    def estimate(self, x: Any) -> float:
        """Knuth's estimate of the number of paths of ``x`` to the walk's depth (the mean, over :data:`PROBES` paths
        taken at random, of the product of the branch counts met along each), with the time one path took;
        :class:`~relations.audit._enumerate.NotEnumerable` when it exceeds four times the path limit, or four
        times the time left (report-noisy-max over eight geometric draws: billions of paths).  The random paths
        come from a fixed sequence, so the estimate is the same on any machine."""
        start = time.monotonic()
        total = 0.0
        state = [0x9E3779B97F4A7C15]
        for _ in range(PROBES):
            replay = _Probe(self.max_outcomes, self.max_depth, state)
            try:
                _run(self.fn, x, self.pass_rng, replay, self.current)
            except Truncated:
                pass
            except Exception:  # noqa: BLE001 - the walk proper meets the same failure and reports it
                return 0.0
            total += replay.size
        paths = total / PROBES
        each = (time.monotonic() - start) / PROBES
        if paths > 4 * self.max_paths:
            raise NotEnumerable(f"about {paths:.2g} paths through the randomizer (estimated from {PROBES} random "
                                f"paths), beyond the limit of {self.max_paths}")
        if self.deadline is not None and paths * each > 4 * max(0.0, self.deadline - time.monotonic()):
            raise NotEnumerable(f"about {paths:.2g} paths through the randomizer (estimated from {PROBES} random "
                                f"paths), about {paths * each:.2g} s, beyond the white-box time budget of "
                                f"{self.seconds:g} s")
        return paths

    def paths(self, x: Any, depth: int | None = None, probe: bool = False) -> tuple[dict[int, Fraction], Fraction, float]:
        """Every path of input ``x`` (to ``depth`` draws, at most the walk's): its row (output number to
        probability), the unexplored mass, the radius.  With ``probe``, the walk stops at the first path cut at
        the depth (a loop on draws, enumerated again by :meth:`chain`): the row is then incomplete."""
        sums: dict[int, dict[int, int]] = {}  # output number -> denominator -> sum of numerators
        lost = Fraction(0)
        self.confined = Fraction(0)
        radius = 1.0
        replay = Replay(self.max_outcomes, self.max_depth if depth is None else min(depth, self.max_depth))
        first = True
        complete = 0
        outputs, fn, pass_rng, current = self.outputs, self.fn, self.pass_rng, self.current
        while True:
            self._count()
            states = None if self.careful is None else [_state(g) for _, g in self.careful]
            try:
                value = _run(fn, x, pass_rng, replay, current)
            except Truncated:  # a loop on draws: the paths below this prefix are not followed
                lost += replay.probability()
                value = _CUT
            if states is not None:
                self._check(states)
            if value is _CUT and probe and not first:  # a loop (once a complete path was replayed for hidden
                break  # randomness): the probe's work is done
            if value is not _CUT:
                key = _key(value)
                if first:  # the first complete path, replayed: hidden randomness would change its output
                    _replayed(fn, x, pass_rng, replay, key, current)
                    first = False
                    carry = self.carry()
                    witnesses: list[tuple[list[tuple[int, Sequence[Fraction]]], Hashable]] = []
                complete += 1
                if not complete & (complete - 1):  # paths 1, 2, 4, 8 ...: replayed if a call changed the state
                    witnesses.append((list(replay.trail), key))
                last = (list(replay.trail), key)
                j = outputs.setdefault(key, len(outputs))
                p = replay.probability()
                bucket = sums.setdefault(j, {})
                bucket[p.denominator] = bucket.get(p.denominator, 0) + p.numerator
                if replay.radius > radius:
                    radius = replay.radius
            if not replay.advance():
                break
        if not first:
            self.carried_over(x, carry, witnesses + [last])
        self.confined = replay.confined
        return {j: _total(bucket) for j, bucket in sums.items()}, lost, radius

    def carry(self) -> tuple[bytes | None, list[Any]]:
        """What the randomizer carries from one call to the next (:func:`~relations.audit._states.carried`), and
        the objects its bytes name by address, kept alive until :meth:`carried_over` compares it."""
        keep: list[Any] = []
        return carried(self.fn, (EnumeratingGenerator, Replay), keep=keep), keep

    def carried_over(self, x: Any, before: tuple[bytes | None, list[Any]],
                     witnesses: list[tuple[list[tuple[int, Sequence[Fraction]]], Hashable]]) -> None:
        """:class:`HiddenRandomness` when the calls since ``before`` (:meth:`carry`) changed what the randomizer
        carries from one call to the next, and that changed what it does: one of the ``witnesses`` (paths of
        ``x`` run since, their choices with their weights, and output), run again now, gives another output or
        other choices or weights.  A
        change that no witness shows (a list of the calls kept for a test, a cache) is let be: the paths are then
        taken as independent runs, as the code's outputs on those paths say."""
        after = self.carry()
        if before[0] is None or after[0] is None or after[0] == before[0]:
            return
        for trail, key in witnesses:
            again = Replay(self.max_outcomes, self.max_depth)
            again.forced = [c for c, _ in trail]
            try:
                value = _key(_run(self.fn, x, self.pass_rng, again, self.current))
            except (Truncated, Jump):
                value = None
            if value != key or [(c, list(w)) for c, w in again.trail] != [(c, list(w)) for c, w in trail]:
                raise HiddenRandomness("the randomizer keeps state from one call to the next (a global, a closure "
                                       "cell, a default argument or an attribute its calls change), and a path run "
                                       "again gave another output: its paths are not independent runs")

    def chain(self, x: Any) -> tuple[dict[int, Fraction], Fraction, float] | None:
        """The paths of ``x`` again, cut where a state repeats (:mod:`relations.audit._states`), and the Markov
        chain of the repeated states solved exactly: its row, unexplored mass and radius (a plain enumeration
        when no state repeats)."""
        stop = _run.__code__
        tokens = (EnumeratingGenerator, Replay)
        current = self.current
        kept: list[Any] = []  # the objects the states name by address, alive while the states are compared

        def key() -> bytes | None:
            if current.py_seeded or current.np_seeded or current.py_reseeded or current.np_reseeded:
                return None
            return snapshot(stop, tokens, skip=3, keep=kept)  # from the code that asked for the draw: not key, _record, decide

        self.confined = Fraction(0)  # (a replay recording states confines nothing: its tails are cut)
        replay = Replay(self.max_outcomes, self.max_depth, snapshot=key)
        carry = self.carry()
        witnesses: list[tuple[list[tuple[int, Sequence[Fraction]]], Hashable]] = []
        complete = 0
        leaves: list[tuple[int, Fraction, float, int, int]] = []  # (kind, probability, radius, last node, payload)
        outputs = self.outputs
        jumped = False
        while True:
            self._count()
            if not jumped and len(leaves) > LOOP_PATIENCE:
                raise _NoChain()
            kind, payload = 0, 0
            with frames_read() as read:
                try:
                    value = _run(self.fn, x, self.pass_rng, replay, current)
                    payload = outputs.setdefault(_key(value), len(outputs))
                    complete += 1
                    if not complete & (complete - 1):  # paths 1, 2, 4, 8 ...: replayed if a call changed the state
                        witnesses.append((list(replay.trail), _key(value)))
                except Truncated:
                    kind = 1
                except Jump as jump:
                    kind, payload, jumped = 2, jump.state, True
            if read():  # a frame taken by the code (a helper's sys._getframe(1).f_locals) reads what the states
                raise _NoChain()  # leave out as dead locals: they are not its state; depth-bounded instead
            depth = len(replay.trail)
            leaves.append((kind, replay.probability(), replay.radius, replay.keys[depth - 1] if depth else -1, payload))
            if not replay.advance():
                break
        self.carried_over(x, carry, witnesses)
        parent, node_prob, radius_at = replay.node_parent, replay.node_prob, replay.node_radius
        targets = sorted({p for kind, _, _, _, p in leaves if kind == 2})
        index = {t: i + 1 for i, t in enumerate(targets)}  # 0: the start

        def owner(node: int) -> int:
            while node != -1 and node not in index:
                node = parent[node]
            return node

        n, width = len(targets) + 1, len(outputs) + 1  # the last column: unexplored
        moves: list[dict[int, Fraction]] = [{} for _ in range(n)]
        exits = [[Fraction(0)] * width for _ in range(n)]
        radius = 1.0  # the rounding of the paths from the start to a repeated state or an end
        inner = 1.0  # the largest rounding of one round: from a repeated state to the next or to an end

        def place(node: int, prob: Fraction, r: float) -> tuple[int, Fraction]:
            nonlocal radius, inner
            k = owner(node)
            if k == -1:
                radius = max(radius, r)
                return 0, prob
            inner = max(inner, r / radius_at[k])  # (a radius is a product of 1 + the roundings of its choices)
            return index[k], prob / node_prob[k]

        for kind, prob, r, node, payload in leaves:
            k, c = place(node, prob, r)
            if kind == 2:
                moves[k][index[payload]] = moves[k].get(index[payload], Fraction(0)) + c
            else:
                exits[k][width - 1 if kind == 1 else payload] += c
        for t in targets:  # the first node of each repeated state, reached from its owner
            k, c = place(parent[t], node_prob[t], radius_at[t])
            moves[k][index[t]] = moves[k].get(index[t], Fraction(0)) + c
        solved = solve_chain(moves, exits)
        if solved is None:
            raise _NoChain()
        start = solved[0]
        if inner > 1.0:  # a float weight inside the loop: its rounding, compounded over the rounds
            radius *= _compounded(moves, exits, start, (inner - 1.0) * (1 + 2.0**-20))  # (floats' own rounding)
        row = {j: p for j, p in enumerate(start[:-1]) if p}
        return row, start[-1], radius


def _compounded(moves: list[dict[int, Fraction]], exits: list[list[Fraction]], start: list[Fraction],
                eps: float) -> float:
    """The relative rounding of the start's absorption probabilities when every round of a chain (from a repeated
    state to the next, or to an end) has its probability within a relative ``eps`` of the exact one, as
    ``1 + r``; :class:`_NoChain` when it cannot be bounded.

    Each true entry is at most the one of the chain whose rounds all weigh ``1 + eps`` times more (its Neumann
    series term by term), and at least ``1 - eps`` times less, which moves it no further (``(1 + e)^m - 1 >= 1 -
    (1 - e)^m``).  That chain converges when ``(1 + eps)`` times the spectral radius of the moves stays below 1:
    with ``h`` the expected number of rounds from each state (solved exactly), the spectral radius is at most
    ``1 - 1 / max h``, so ``eps < 1 / (max h - 1)`` (with a factor 2 to spare) is enough.  The rounds leave the
    start's own row alone: its paths' roundings are those of the radius already.

    Examples
    --------
    A loop that repeats with probability 1/2 (its two rounds' weights rounded by 1e-12): two rounds expected, so
    the rounding of the answer is about twice 1e-12.

    >>> from fractions import Fraction as F
    >>> moves = [{1: F(1)}, {1: F(1, 2)}]
    >>> exits = [[F(0), F(0)], [F(1, 2), F(0)]]
    >>> r = _compounded(moves, exits, [F(1), F(0)], 1e-12)
    >>> 2e-12 < r - 1 < 3e-12  # (and 2^-40 for the floats)
    True
    """
    n = len(moves)
    steps = solve_chain([moves[k] if k else {} for k in range(n)], [[Fraction(int(k > 0))] for k in range(n)])
    if steps is None or any(h[0] < 0 for h in steps):
        raise _NoChain()
    most = max(float(h[0]) for h in steps)
    if most > 1 and 2 * eps * (most - 1) >= 1:
        raise _NoChain()
    grow = 1 + Fraction(eps)
    high = solve_chain([{m: p * grow for m, p in moves[k].items()} if k else moves[k] for k in range(n)],
                       [[x * grow for x in exits[k]] if k else exits[k] for k in range(n)])
    if high is None:
        raise _NoChain()
    ratio = max((float(h / v) for h, v in zip(high[0], start) if v > 0), default=1.0)
    return max(ratio, 1.0) * (1 + 2.0**-40)


_CUT = object()

#: Random paths :meth:`_Walk.estimate` takes to estimate the size of a tree of draws.
PROBES = 64


class _Probe(Replay):
    """A replay that takes one random branch at each draw (from a fixed sequence of 64-bit LCG states, shared
    through ``state``) and counts the product of the branch counts met (``size``: Knuth's estimator)."""

    def __init__(self, max_outcomes: int, max_depth: int, state: list[int]):
        super().__init__(max_outcomes, max_depth)
        self.state, self.size = state, 1.0

    def decide(self, weights: Sequence[Fraction], radii: Sequence[float] | None = None) -> int:
        depth = len(self.trail)
        if depth == len(self.forced) and depth < self.max_depth and len(weights) <= self.max_outcomes:
            live = [i for i, w in enumerate(weights) if w]
            self.state[0] = (self.state[0] * 6364136223846793005 + 1442695040888963407) % 2**64
            self.forced.append(live[(self.state[0] >> 33) % len(live)])
            self.size *= len(live)
        return super().decide(weights, radii)


def _total(bucket: dict[int, int]) -> Fraction:
    """The sum of the fractions ``n / d`` of ``{d: n}``, over their least common denominator (one division).

    Examples
    --------
    >>> _total({4: 3, 6: 1})
    Fraction(11, 12)
    """
    if len(bucket) == 1:  # the common case: the paths of an output share one denominator
        for d, n in bucket.items():
            return Fraction(n, d)
    common = math.lcm(*bucket)
    return Fraction(sum(n * (common // d) for d, n in bucket.items()), common)


def _sums_to_one(row: Sequence[Fraction], mass: Fraction) -> bool:
    """Whether the entries of ``row`` and ``mass`` sum to exactly 1, added by denominator (a ``Fraction`` sum
    reduces after every term: k-RR with k = 256 spent a tenth of its enumeration there).

    Examples
    --------
    >>> _sums_to_one([Fraction(1, 3), Fraction(1, 6)], Fraction(1, 2)), _sums_to_one([Fraction(1, 3)], Fraction(0))
    (True, False)
    """
    bucket: dict[int, int] = {}
    for p in (*row, mass):
        if p:
            bucket[p.denominator] = bucket.get(p.denominator, 0) + p.numerator
    return bool(bucket) and _total(bucket) == 1


def _key(value: Any) -> Hashable:
    """A path's output as a key: a vector of independent bits as its product form, anything else as
    :func:`~relations.audit._outputs.output_key`."""
    return value.output() if isinstance(value, BitVector) else output_key(value)


def _is_bits(key: Any) -> bool:
    return isinstance(key, tuple) and len(key) == 4 and key[0] == "bits"


def _factorised(keys: list, raw_rows: list[dict[int, Fraction]], radius: float, unexplored: list[Fraction]) -> Any:
    """The :class:`~relations.audit._vectors.Factorised` channel of paths whose outputs are all bit vectors."""
    if not all(_is_bits(k) for k in keys):
        raise NotEnumerable("the randomizer returns a vector of independent bits on some paths and something "
                            "else on others")
    if any(unexplored):
        raise NotEnumerable("a loop on draws around a vector of independent bits")
    kinds = {k[1] for k in keys}
    sizes = {len(k[2]) for k in keys}
    if len(kinds) > 1 or len(sizes) > 1:
        raise NotEnumerable("bit vectors of different types or lengths on different paths")
    rows = []
    for row in raw_rows:
        merged = merge_products([(w, keys[j][2]) for j, w in row.items()])
        if merged is None:
            raise NotEnumerable("a mixture of products of independent bits that does not factorise")
        rows.append(merged)
    inner = max(k[3] for k in keys)
    return Factorised(rows, (radius - 1) * (1 + 2.0**-40) + inner, kinds.pop())


def mass_text(mass: Fraction) -> str:
    """A probability as short text, ``2^-n`` when it is too small for a float.

    Examples
    --------
    >>> mass_text(Fraction(1, 8)), mass_text(Fraction(1, 2**1100))
    ('0.125', 'about 2^-1100')
    """
    if mass == 0 or float(mass) > 1e-300:
        return f"{float(mass):.3g}"
    return f"about 2^-{mass.denominator.bit_length() - mass.numerator.bit_length()}"


class Unexplored(NotEnumerable):
    """A loop on draws: paths longer than the depth were not followed, so the channel is known only within
    the unexplored mass.  ``enumerated`` holds the explored rows; the message gives the certified lower bound
    on ``eps_d`` and the mass."""

    def __init__(self, enumerated: Enumerated, depth: int, closed: bool = False):
        self.enumerated, self.depth, self.closed = enumerated, depth, closed
        q, _ = enumerated.eps_d_lower()
        lower = "inf" if q is None else f"{math.log(q.numerator) - math.log(q.denominator):.6g}"
        upper = None
        if closed:  # the outputs were declared: an upper end too
            top, _ = enumerated.eps_d_upper()
            upper = "inf" if top is None else f"{math.log(top.numerator) - math.log(top.denominator):.6g}"
        self.interval = {"lower": lower, "upper": upper, "depth": depth,
                         "unexplored": mass_text(max(enumerated.unexplored))}
        super().__init__(f"a loop on draws: paths of more than {depth} draws were not followed (unexplored mass "
                         f"up to {mass_text(max(enumerated.unexplored))} per input), so eps_d is known only within "
                         f"[{lower}, {upper or 'inf'}" + ("]" if upper not in (None, "inf") else ")")
                         + ("" if closed else "; no upper end: the outputs are not declared (--outputs), and the "
                            "unexplored mass may reach outputs never seen (no tail bound is derived from the code)"))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with what it was made from (an audit's child process sends it back)."""
        return (Unexplored, (self.enumerated, self.depth, self.closed))


def deepening(explore: Callable[[int, float], T], *, seconds: float, claim: float | None = None) -> T:
    """``explore(depth, seconds_left)`` at :data:`~relations.audit._enumerate.FIRST_DEPTH`, and again deeper
    each time it raises :class:`Unexplored` (a loop whose bound decided nothing) while
    :func:`~relations.audit._enumerate.next_depth` gives a depth and ``seconds`` last; then that :class:`Unexplored`
    propagates, or, when a deeper level fails (its time budget ran out), the deepest one found.  When the first
    level fails outright (not a loop cut short: a vector of bits read past the depth), it is run again at
    :data:`~relations.audit._enumerate.MAX_DEPTH`.  ``claim``, the smallest ``eps_d`` claimed, tells when an
    open loop's lower end has stalled (:func:`_stalled`).

    Examples
    --------
    >>> def explore(depth, left):
    ...     if depth < 512:
    ...         raise Unexplored(Enumerated([0], [[Fraction(1, 2)]], 10, 0.0, (Fraction(1, 2),)), depth)
    ...     return depth
    >>> deepening(explore, seconds=60.0)  # levels of 32, 40, 80, 160, 320 and 640 draws
    640
    """
    start, depth = time.monotonic(), FIRST_DEPTH
    deepest: Unexplored | None = None
    last: tuple[int, int] | None = None
    first = True
    while True:
        left = seconds if first else seconds - (time.monotonic() - start)
        first = False
        try:
            return explore(depth, left)
        except Unexplored as cut:
            step = next_depth(depth, cut.enumerated.runs, last)
            if step is None or time.monotonic() - start >= seconds or _stalled(cut, deepest, claim):
                raise
            deepest, last, depth = cut, (depth, cut.enumerated.runs), step
        except NotEnumerable:
            if deepest is None and depth < MAX_DEPTH and time.monotonic() - start < seconds:
                depth = MAX_DEPTH  # not a loop cut short (a vector of bits read past the depth): at full depth
                continue
            if deepest is None:
                raise
            raise deepest from None  # the time budget ran out while deepening: the deepest bound found


def deepen_first(cut: Enumerated, claim: float | None, closed: bool) -> int:
    """The input a deeper level enumerates first: the one whose unexplored mass keeps the interval of the level
    before (``cut``) from deciding ``claim`` (the smallest ``eps_d`` claimed).  The lower end ``ln(Q[x][y] /
    (Q[x'][y] + unexplored(x')))`` is held back by ``x'``, the upper end ``ln((Q[x][y] + unexplored(x)) /
    Q[x'][y])`` (with the outputs declared, ``closed``) by ``x``: the end nearer the claim picks.  Its deeper row,
    with the other inputs' rows of the level before (:meth:`Enumerated.replaced`), may decide already: each row
    encloses the true one at any depth.

    Examples
    --------
    >>> F = Fraction
    >>> cut = Enumerated([0, 1], [[F(1, 2), F(1, 4)], [F(1, 8), F(5, 8)]], 10, 0.0, (F(1, 4), F(1, 4)))
    >>> [round(math.log(cut.eps_d_lower()[0]), 3), round(math.log(cut.eps_d_upper()[0]), 3)]
    [0.288, 1.792]
    >>> deepen_first(cut, 1.0, True), deepen_first(cut, 1.7, True), deepen_first(cut, 1.7, False)
    (1, 0, 1)
    """
    q, low = cut.eps_d_lower()
    if low is None or q is None:
        return 0
    top, high = cut.eps_d_upper() if closed else (None, None)
    if claim is not None and top is not None and high is not None and \
            math.log(top) - claim < claim - math.log(q):
        return high[0]
    return low[1]


#: Work (paths times depth) below which a level is cheap: an open loop is deepened further even when its lower
#: end stalled (a leak after 200 coin flips is found at 256 draws).
CHEAP_LEVEL = 2**16
#: Nats by which the lower end of an open loop's interval must rise from one level to the next to go deeper, when
#: no ``eps_d`` claim says how far it has to go.
STALLED = 0.01


def _stalled(cut: Unexplored, before: Unexplored | None, claim: float | None = None) -> bool:
    """Whether to stop deepening an open loop (its outputs not declared, so only the lower end of its interval can
    decide, for ``violated``): its last level was not cheap (:data:`CHEAP_LEVEL`) and raised the lower end by less
    than a quarter of what it still lacks to exceed ``claim`` (the smallest ``eps_d`` claimed; without one, by less
    than :data:`STALLED` nats).  A correct unclamped sampler (``x + Z``, every integer an output) would otherwise
    be deepened to the end of the work allowed, its lower end creeping towards its true ``eps_d``, before sampling;
    a claim just below the true ``eps_d`` keeps it deepening while the lower end still closes in.

    Examples
    --------
    >>> F = Fraction
    >>> def cut(q, runs):
    ...     return Unexplored(Enumerated([0], [[q], [F(1)]], runs, 0.0, (F(0), F(1, 2**20))), 40)
    >>> _stalled(cut(F(1, 3), 5000), cut(F(1, 3), 2000)), _stalled(cut(F(1, 3), 5000), None)
    (True, False)
    >>> before = cut(F(1, 3) + F(1, 10**5), 2000)  # the lower end rose by 3e-5 nats to ln 3: stalled for a claim
    >>> _stalled(cut(F(1, 3), 5000), before, claim=1.5), _stalled(cut(F(1, 3), 5000), before, claim=math.log(3) + 1e-6)
    (True, False)
    """
    if before is None or cut.closed or cut.enumerated.runs * cut.depth <= CHEAP_LEVEL:
        return False
    now, _ = cut.enumerated.eps_d_lower()
    then, _ = before.enumerated.eps_d_lower()
    if now is None or then is None:
        return False
    rise = math.log(now) - math.log(then)
    if claim is None or not math.isfinite(claim):
        return rise < STALLED
    return rise < (claim - math.log(now)) / 4


def exact_channel(fn: Callable[..., Any], domain: Sequence[Any], *, pass_rng: bool = True,
                  max_paths: int = MAX_PATHS, max_outcomes: int = MAX_OUTCOMES
                  ) -> tuple[list[Hashable], list[list[Fraction]], int]:
    """The exact channel ``Q[x][y]`` that the randomizer ``fn`` implements on ``domain``.

    Parameters
    ----------
    fn : callable
        ``fn(x, rng=generator)`` (or ``fn(x)`` with ``pass_rng=False``, for randomizers that
        close over a generator they were given).
    domain : sequence
        The inputs, in row order.
    pass_rng : bool, optional
        Hand the enumerating generator to ``fn`` as the keyword ``rng``.  Draws from Python's
        ``random`` module and numpy's global generator (``np.random.random`` ...) are
        intercepted either way.
    max_paths, max_outcomes : int, optional
        Limits on runs and on the outcomes of one draw.

    Returns
    -------
    outputs : list
        The distinct outputs (as :func:`output_key`), in order of first appearance.
    rows : list of list of Fraction
        ``rows[i][j] = P(fn(domain[i]) = outputs[j])``, each row summing to exactly 1.
    runs : int
        How many paths were run.

    Raises
    ------
    NotEnumerable
        If the randomizer's randomness cannot be enumerated, or a limit is exceeded.

    Examples
    --------
    Randomized response written as code, with the truth kept when ``u < 3/4``:

    >>> def rr(x, rng):
    ...     return x if rng.random() < 0.75 else 1 - x
    >>> outputs, rows, runs = exact_channel(rr, [0, 1])
    >>> outputs, rows[0], runs
    ([0, 1], [Fraction(3, 4), Fraction(1, 4)], 4)
    """
    e = enumerate_channel(fn, domain, pass_rng=pass_rng, max_paths=max_paths, max_outcomes=max_outcomes)
    return e.outputs, e.rows, e.runs


def exact_mechanism(fn: Callable[..., Any], domain: Sequence[Any], *, prior: Any = "uniform", pass_rng: bool = True,
                    max_paths: int = MAX_PATHS) -> Any:
    """The local mechanism that the randomizer ``fn`` implements on ``domain``, exactly.

    Parameters
    ----------
    fn, domain, pass_rng, max_paths
        As for :func:`exact_channel`.
    prior : optional
        The prior over ``domain`` (uniform by default).

    Returns
    -------
    Mechanism
        Inputs labelled by ``domain``, outputs by what the code returned.

    Raises
    ------
    NotEnumerable
        As for :func:`exact_channel`.

    Examples
    --------
    Unary encoding whose user bit is drawn like the others and then set to 1 with
    probability ``p`` (the pure-ldp 1.1.2 bug): at ``p = 1/2``, ``q = 1/4`` (claimed
    ``eps = ln 3``) the true budget is ``ln 5``:

    >>> from relations import measure
    >>> def buggy_oue(x, rng):
    ...     bits = [1 if rng.random() < 0.25 else 0 for _ in range(2)]
    ...     if rng.random() < 0.5:
    ...         bits[x] = 1
    ...     return tuple(bits)
    >>> str(measure(exact_mechanism(buggy_oue, [0, 1])).eps_d.exact)
    'ln(5)'
    """
    from relations.model._distributions import Channel
    from relations.model._mechanism import Mechanism  # not at the top: a worker interpreter runs this module alone

    e = enumerate_channel(fn, domain, pass_rng=pass_rng, max_paths=max_paths)
    labels = [str(x) for x in domain]
    outs = [output_label(k) for k in e.outputs]
    if len(set(outs)) != len(outs):
        outs = [f"{i}:{o}" for i, o in enumerate(outs)]
    channel = Channel.from_exact(e.rows, Fraction(e.rounding))
    return Mechanism.local(channel, prior=prior, inputs=labels, outputs=outs)
