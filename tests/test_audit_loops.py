"""Loops on draws in the white-box route: two-sided certified intervals when the outputs are declared, exact
Markov chains where a loop's state repeats, and one rounding rule with the loop-free route.

Expected values are derived by hand in each test's docstring."""

from __future__ import annotations

import functools
import math
import random
import sys
import types
from fractions import Fraction

import pytest

from relations.audit import audit
from relations.audit._exact import enumerate_channel
from relations.audit._outputs import output_key
from relations.errors import InputError


def _nats(text):
    """A bound as the report prints it: ``1.09861 nats (...)`` or ``ln(p/q)`` for a short rational."""
    head = text.split()[0]
    return math.log(Fraction(head[3:-1])) if head.startswith("ln(") else float(head)

def _geo(rng):
    """A geometric count of fair coin flips: P(g) = 2^-(g+1)."""
    g = 0
    while rng.random() < Fraction(1, 2):
        g += 1
    return g


def _clamped(top):
    def clamped(x, rng):
        """x plus two-sided geometric noise, P(z) = (1/3) 2^-|z|, clamped to 0..top."""
        z = _geo(rng) - _geo(rng)
        return max(0, min(top, x + z))
    return clamped


@pytest.mark.slow
def test_a_clamped_loop_sampler_is_certified_consistent_with_slack():
    """On 0..1: P(0 | 0) = P(z <= 0) = 2/3 and P(0 | 1) = P(z <= -1) = 1/3, so eps_d = ln 2 (the interior
    ratios are 2 at most too).  Claimed with 5 % slack and the outputs declared: consistent, both ends
    certified and close to ln 2."""
    report = audit(_clamped(1), domain=[0, 1], eps=1.05 * math.log(2), outputs=[0, 1])
    assert report.verdict == "consistent" and report.route == "white-box (depth-bounded)"
    iv = report.white_box_interval
    lower, upper = _nats(iv["lower"]), _nats(iv["upper"])
    assert abs(lower - math.log(2)) < 1e-5 and abs(upper - math.log(2)) < 1e-5  # printed to 6 digits
    assert "holds" in report.summary() and "declared" in report.summary()


@pytest.mark.slow
def test_a_clamped_loop_sampler_with_a_wrong_scale_is_violated():
    """The same, claimed 0.95 ln 2: the certified lower bound exceeds it."""
    report = audit(_clamped(1), domain=[0, 1], eps=0.95 * math.log(2), outputs=[0, 1])
    assert report.verdict == "violated" and report.route == "white-box (depth-bounded)"


@pytest.mark.slow
def test_an_output_outside_the_declared_ones_is_an_error():
    with pytest.raises(InputError, match="not among the declared outputs"):
        audit(_clamped(1), domain=[0, 1], eps=1.0, outputs=[0])


@pytest.mark.slow
def test_a_clamped_sampler_on_four_inputs_is_certified():
    """On 0..3: eps_d = 3 ln 2 = ln 8 (P(0 | 0) / P(0 | 3) = P(z <= 0) / P(z <= -3) = 2^3)."""
    report = audit(_clamped(3), domain=[0, 1, 2, 3], eps=1.05 * math.log(8), outputs=[0, 1, 2, 3])
    assert report.verdict == "consistent"
    report = audit(_clamped(3), domain=[0, 1, 2, 3], eps=0.95 * math.log(8), outputs=[0, 1, 2, 3])
    assert report.verdict == "violated"


def test_the_interval_of_a_cut_enumeration_decides_both_ways():
    """Rows (5/8, 1/4) and (1/4, 5/8), 1/8 unexplored each: each entry lies in [p, p + 1/8], so eps_d lies in
    [ln((5/8) / (3/8)), ln((6/8) / (2/8))] = [ln(5/3), ln 3] (by hand) when the two outputs are all there are."""
    from relations.audit._exact import Enumerated
    from relations.audit._report import depth_bounded_report
    from relations.checking._claims import parse_claim

    e = Enumerated([0, 1], [[Fraction(5, 8), Fraction(1, 4)], [Fraction(1, 4), Fraction(5, 8)]], 6, 0.0,
                   (Fraction(1, 8), Fraction(1, 8)))
    assert e.eps_d_lower()[0] == Fraction(5, 3) and e.eps_d_upper()[0] == 3

    def verdict(claim, declared=("0", "1")):
        r = depth_bounded_report("t", [0, 1], ["0", "1"], e, [parse_claim(claim)], keys=["0", "1"],
                                 declared=None if declared is None else frozenset(declared))
        return None if r is None else r.verdict
    assert verdict("eps_d <= ln(3.1)") == "consistent" and verdict("eps_d <= ln(1.5)") == "violated"
    assert verdict("eps_d <= ln(2)") is None  # inside the interval: deeper, or sampled
    assert verdict("eps_d <= ln(3.1)", declared=None) is None  # the outputs not declared: no upper end
    assert verdict("eps_d <= ln(3.1)", declared=("0", "1", "2")) is None  # a declared output never seen


def _krr_loop_free(x, rng, k=4, eps=1.0):
    e = math.exp(eps)
    if rng.random() < e / (e + k - 1):
        return x
    y = int(rng.integers(0, k - 1))
    return y if y < x else y + 1


def _krr_rejection(x, rng, k=4, eps=1.0):
    e = math.exp(eps)
    if rng.random() < e / (e + k - 1):
        return x
    while True:
        y = int(rng.integers(0, k))
        if y != x:
            return y


def test_one_rounding_rule_with_and_without_a_loop():
    """k-RR with the float keep-probability e^eps / (e^eps + k - 1) at eps = 1, claimed eps_d <= 1: both the
    loop-free and the rejection-loop lie implement the same channel (each lie (1 - p) / 3, by hand: the loop
    repeats with probability 1/4, (1 - p)(1/4) / (1 - 1/4)), so they get the same verdict, consistent."""
    a = audit(_krr_loop_free, domain=[0, 1, 2, 3], claims=["eps_d <= 1"])
    b = audit(_krr_rejection, domain=[0, 1, 2, 3], claims=["eps_d <= 1"])
    assert a.verdict == b.verdict == "consistent"
    assert a.route == b.route == "white-box"
    assert [c.status for c in a.claims] == [c.status for c in b.claims]


# State the loop keeps outside the frame's locals: each of these returns min(round, 3) (or a value that tells the
# rounds apart) after a geometric number of fair rounds, so two rounds must not be taken for one state.

def _attribute_counter(x):
    """A function attribute as the counter: P(1) = 1/2, P(2) = 1/4, P(3) = 1/4."""
    _attribute_counter.n = 0
    while True:
        _attribute_counter.n += 1
        if random.randrange(2) == 0:
            return min(_attribute_counter.n, 3)


def _local_class_counter(x):
    """A class defined in the function, its attribute the counter: as above."""
    class Count:
        n = 0
    while True:
        Count.n += 1
        if random.randrange(2) == 0:
            return min(Count.n, 3)


def _tick(seen=[]):  # noqa: B006 - the mutable default is the point
    seen.append(1)
    return len(seen)


def _default_counter(x):
    """A global helper's mutable default as the counter: round k returns k + 1 (capped at 3)."""
    _tick.__defaults__[0].clear()
    while True:
        _tick()
        if random.randrange(2) == 0:
            return min(_tick(), 4) - 1


def _one():
    return 1


def _two():
    return 2


_current = _one


def _rebound_function(x):
    """A global rebound from one function to another each round: odd rounds return 1, even ones 2, so P(1) =
    1/2 + 1/8 + ... = 2/3."""
    global _current
    _current = _one
    while True:
        if random.randrange(2) == 0:
            return _current()
        _current = _two if _current is _one else _one


class _Counting(random.Random):
    pass


_GENERATOR = _Counting()


def _generator_field(x):
    """A field kept on a random.Random instance made before the run (compared by identity): as the first."""
    _GENERATOR.n = 0
    while True:
        _GENERATOR.n += 1
        if random.randrange(2) == 0:
            return min(_GENERATOR.n, 3)


def _cell_reset(x):
    """``c + randrange(f())`` where ``f`` stores the cell ``c`` read below the draw: c goes 0, 2, 4, 0, ... and
    the output is c + 1 on a 1, so v0 = 1/2 [1] + 1/2 v2, v2 = 1/2 [3] + 1/2 v4, v4 = 1/2 [5] + 1/2 v0:
    P(1, 3, 5) = (4/7, 2/7, 1/7)."""
    c = 0

    def bound():
        nonlocal c
        c = 0
        return 2
    while True:
        r = c + random.randrange(bound())
        if r % 2 == 1:
            return r
        c = r + 2 if r < 4 else 0


def _bound_method_counter(x):
    """The list behind a bound builtin method (``seen.append`` in a partial), the name ``seen`` gone: round k
    leaves k items, so as the first."""
    seen: list[int] = []
    tick = functools.partial(seen.append, 1)
    del seen
    while True:
        tick()
        if random.randrange(2) == 0:
            return min(len(tick.func.__self__), 3)  # type: ignore[attr-defined]


@functools.cache
def _cached_draw(k):
    return random.randrange(3) + k


def _cache_held(x):
    """A draw cached by functools (the first round's, kept for the return): uniform on 0, 1, 2 (the cache's
    entries are no part of a snapshot, and every first-round draw merged into the first one met: P(0) = 1)."""
    _cached_draw.cache_clear()
    while True:
        _cached_draw(0)
        if random.randrange(2) == 0:
            return _cached_draw(0)


def _bound_names(x):
    """``dir()`` lists the bound locals: ``late`` is bound from the second round on (and never read by name,
    so dead to the bytecode), so P(True) = 1/2."""
    while True:
        if random.randrange(2) == 0:
            return "late" in dir()
        late = 1  # noqa: F841 - bound, never read: the point


class _Forgetful:
    """An object whose pickling leaves its counter out."""

    def __init__(self):
        self.n = 0

    def __getstate__(self):
        return {}


def _forgetful_counter(x):
    """The counter on an object whose ``__getstate__`` drops it: as the first."""
    held = _Forgetful()
    while True:
        held.n += 1
        if random.randrange(2) == 0:
            return min(held.n, 3)


_ALIAS = (1,)


def _needs_one(a):
    return a


def _aliased_defaults(x):
    """A global plain function given defaults while its ``__module__`` (the same tuple) is deleted: the objects
    it refers to stay the same, in the same order. Odd rounds call it without defaults (0), even ones with
    (1): P(0) = 2/3, P(1) = 1/3."""
    _needs_one.__defaults__ = None
    _needs_one.__module__ = _ALIAS  # type: ignore[assignment]
    while True:
        if random.randrange(2) == 0:
            try:
                return _needs_one()  # type: ignore[call-arg]
            except TypeError:
                return 0
        if _needs_one.__defaults__ is None:
            del _needs_one.__module__
            _needs_one.__defaults__ = _ALIAS
        else:
            _needs_one.__defaults__ = None
            _needs_one.__module__ = _ALIAS  # type: ignore[assignment]


_KEYWORDS = {"k": 1}


def _keyed(*, k):
    return k


def _aliased_keywords(x):
    """As above with keyword defaults and ``__doc__`` (the same dict): P(0) = 2/3, P(1) = 1/3."""
    _keyed.__kwdefaults__ = None
    _keyed.__doc__ = _KEYWORDS  # type: ignore[assignment]
    while True:
        if random.randrange(2) == 0:
            try:
                return _keyed()  # type: ignore[call-arg]
            except TypeError:
                return 0
        if _keyed.__kwdefaults__ is None:
            del _keyed.__doc__
            _keyed.__kwdefaults__ = _KEYWORDS
        else:
            _keyed.__kwdefaults__ = None
            _keyed.__doc__ = _KEYWORDS  # type: ignore[assignment]


def _module_holding(name, value):
    """One of the user's modules (its file this one's) named ``name``, holding ``value``."""
    module = types.ModuleType(name)
    module.__file__ = __file__
    module.value = value
    return module


_SWAPPED = "relations_review_swapped_module"
_SWAPPED_ZERO = _module_holding(_SWAPPED, 0)
_SWAPPED_ONE = _module_holding(_SWAPPED, 1)


def _swapped_module(x):
    """A ``sys.modules`` entry toggled between two of the user's modules each round, the output read through it:
    odd rounds read the first (0), even ones the second (1): P(0) = 1/2 + 1/8 + ... = 2/3, P(1) = 1/3.  (The
    entry is removed as the run returns.)"""
    sys.modules[_SWAPPED] = _SWAPPED_ZERO
    while True:
        if random.randrange(2) == 0:
            return sys.modules.pop(_SWAPPED).value
        sys.modules[_SWAPPED] = _SWAPPED_ONE if sys.modules[_SWAPPED] is _SWAPPED_ZERO else _SWAPPED_ZERO


class _Homed:
    """A class whose ``__module__`` names the swapped entry: its home is looked up there."""

    __module__ = _SWAPPED

    @classmethod
    def value(cls):
        return sys.modules.pop(cls.__module__).value


def _swapped_home(x):
    """As above, read through the home of a class of the user's: P(0) = 2/3, P(1) = 1/3."""
    sys.modules[_SWAPPED] = _SWAPPED_ZERO
    while True:
        if random.randrange(2) == 0:
            return _Homed.value()
        sys.modules[_SWAPPED] = _SWAPPED_ONE if sys.modules[_SWAPPED] is _SWAPPED_ZERO else _SWAPPED_ZERO


_SWAPPED_ALIAS = _module_holding("relations_review_other_module", 1)


def _swapped_alias(x):
    """As the first, the entry toggled between a module of that name and one of another name (which no name of
    the state reaches by its own): P(0) = 2/3, P(1) = 1/3."""
    sys.modules[_SWAPPED] = _SWAPPED_ZERO
    while True:
        if random.randrange(2) == 0:
            return sys.modules.pop(_SWAPPED).value
        sys.modules[_SWAPPED] = _SWAPPED_ALIAS if sys.modules[_SWAPPED] is _SWAPPED_ZERO else _SWAPPED_ZERO


@pytest.mark.parametrize(("fn", "truth"), [
    (_aliased_defaults, {0: Fraction(2, 3), 1: Fraction(1, 3)}),
    (_aliased_keywords, {0: Fraction(2, 3), 1: Fraction(1, 3)}),
    (_forgetful_counter, {1: Fraction(1, 2), 2: Fraction(1, 4), 3: Fraction(1, 4)}),
    (_bound_names, {False: Fraction(1, 2), True: Fraction(1, 2)}),
    (_cache_held, {0: Fraction(1, 3), 1: Fraction(1, 3), 2: Fraction(1, 3)}),
    (_bound_method_counter, {1: Fraction(1, 2), 2: Fraction(1, 4), 3: Fraction(1, 4)}),
    (_attribute_counter, {1: Fraction(1, 2), 2: Fraction(1, 4), 3: Fraction(1, 4)}),
    (_local_class_counter, {1: Fraction(1, 2), 2: Fraction(1, 4), 3: Fraction(1, 4)}),
    (_default_counter, {1: Fraction(1, 2), 2: Fraction(1, 4), 3: Fraction(1, 4)}),
    (_rebound_function, {1: Fraction(2, 3), 2: Fraction(1, 3)}),
    (_generator_field, {1: Fraction(1, 2), 2: Fraction(1, 4), 3: Fraction(1, 4)}),
    (_cell_reset, {1: Fraction(4, 7), 3: Fraction(2, 7), 5: Fraction(1, 7)}),
    (_swapped_module, {0: Fraction(2, 3), 1: Fraction(1, 3)}),
    (_swapped_home, {0: Fraction(2, 3), 1: Fraction(1, 3)}),
    (_swapped_alias, {0: Fraction(2, 3), 1: Fraction(1, 3)}),
])
def test_state_outside_the_locals_keeps_rounds_apart(fn, truth):
    """Each explored probability is at most the true one, and at least it less the unexplored mass (an exact
    channel is the truth).  The loop's state lived where the snapshot did not look (a function's attributes or
    defaults, a global bound to a function, a class made in the function, a field of a Random, a cell stored by a
    call below the draw, a list behind a bound method, a functools cache, a dead local that ``dir()`` lists, an object whose own pickling drops a field; a function's defaults set where its ``__module__`` or ``__doc__`` was, the objects it refers to the same in the same order, and its module's globals kept from the last state; a ``sys.modules`` entry swapped between two of the user's modules): the second round was taken for the first and the channel came out 'exactly'
    P(first round's output) = 1."""
    try:
        e = enumerate_channel(fn, [0], pass_rng=False, max_depth=64, allow_unexplored=True)
    finally:
        sys.modules.pop(_SWAPPED, None)  # (left by a path cut short)
    got = {output_key(k): v for k, v in truth.items()}
    assert set(e.outputs) <= set(got)
    row = dict(zip(e.outputs, e.rows[0]))
    for k, p in got.items():
        assert row.get(k, 0) <= p <= row.get(k, 0) + e.unexplored[0]
    assert e.unexplored[0] < Fraction(1, 2**20)


_PACKAGE = None


def _nested_module_counter(x):
    """A counter in a module two levels down (``package.sub.state``): as the first."""
    _PACKAGE.sub.state[0] = 0
    while True:
        _PACKAGE.sub.state[0] += 1
        if random.randrange(2) == 0:
            return min(_PACKAGE.sub.state[0], 3)


def test_a_counter_in_a_module_two_levels_down_keeps_rounds_apart(tmp_path, monkeypatch):
    """The user's modules were expanded one level down only: ``package.sub`` was compared by identity, so the
    counter in it merged the rounds and the channel came out exactly P(1) = 1 (truth 1/2, 1/4, 1/4)."""
    import importlib
    import sys

    name = "relations_review_nested_package"
    (tmp_path / name).mkdir()
    (tmp_path / name / "__init__.py").write_text("")
    (tmp_path / name / "sub.py").write_text("state = [0]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module(f"{name}.sub")
    try:
        monkeypatch.setitem(globals(), "_PACKAGE", sys.modules[name])
        e = enumerate_channel(_nested_module_counter, [0], pass_rng=False, max_depth=64, allow_unexplored=True)
    finally:
        sys.modules.pop(f"{name}.sub", None)
        sys.modules.pop(name, None)
    row = dict(zip(e.outputs, e.rows[0]))
    for k, p in {1: Fraction(1, 2), 2: Fraction(1, 4), 3: Fraction(1, 4)}.items():
        assert row.get(output_key(k), 0) <= p <= row.get(output_key(k), 0) + e.unexplored[0]
    assert e.unexplored[0] < Fraction(1, 2**20)


def _array_pair(x, rng):
    """Two different values of 0..2 drawn together (``size=2``): each ordered pair 1/6."""
    while True:
        a = rng.integers(0, 3, size=2)
        if a[0] != a[1]:
            return (int(a[0]), int(a[1]))


def _choices_pair(x):
    """The same with ``random.choices(k=2)``."""
    while True:
        a = random.choices([0, 1, 2], k=2)
        if a[0] != a[1]:
            return tuple(a)


def _urandom_pair(x):
    """Two different bits from the two bytes of ``os.urandom(2)``: each order 1/2."""
    import os

    while True:
        b = os.urandom(2)
        if b[0] != b[1] and b[0] < 2 and b[1] < 2:
            return tuple(b)


@pytest.mark.parametrize(("fn", "pass_rng", "truth"), [
    (_array_pair, True, {(i, j): Fraction(1, 6) for i in range(3) for j in range(3) if i != j}),
    (_choices_pair, False, {(i, j): Fraction(1, 6) for i in range(3) for j in range(3) if i != j}),
    pytest.param(_urandom_pair, False, {(0, 1): Fraction(1, 2), (1, 0): Fraction(1, 2)}, marks=pytest.mark.slow),
])
def test_values_drawn_so_far_in_one_call_keep_states_apart(fn, pass_rng, truth):
    """A call that draws several values (``integers(size=2)``, ``random.choices(k=2)``, ``os.urandom(2)``) kept
    those drawn so far in a comprehension, on CPython's operand stack, where the state at the next draw does not
    look: every first value merged into the first one met, and the chain came out exactly P((0, 1)) = P((0, 2)) =
    1/2 (``os.urandom``: P((0, 1)) = 1; slow: 65,536 paths a round)."""
    _cached_draw.cache_clear()  # a global cache with entries (left by _cache_held) is state that cannot be read
    e = enumerate_channel(fn, [0], pass_rng=pass_rng, max_depth=64, allow_unexplored=True)
    row = dict(zip(e.outputs, e.rows[0]))
    assert e.complete
    assert row == {output_key(k): p for k, p in truth.items()}


def test_a_modules_globals_are_read_again_when_they_change():
    """The globals of a module, kept from one state to the next (:func:`_cached_names_state`), are those read afresh
    after each change that makes them read otherwise: a name rebound, added or removed, a function's code or
    defaults replaced, its keyword defaults or attributes filled or emptied (a plain function is told by its code,
    the others by value)."""
    import io
    import types

    from relations.audit import _states

    def plain():
        return 1

    def other():
        return 2

    def keyed(*, k):
        return k

    g = {"__name__": "user_module", "plain": plain, "keyed": keyed, "n": 1}
    keyed.__kwdefaults__ = {}

    other_module: dict = {}

    def state() -> bytes:
        out = []
        for seen in ({id(g)}, {id(g)}, {id(g), id(other_module)}):  # (the second from what the first kept)
            for value in (_states._cached_names_state(g, set(seen)), _states._names_state(g, set(seen))):
                buffer = io.BytesIO()
                _states._Pickler(buffer, (), []).dump(value)
                out.append(buffer.getvalue())
        assert len(set(out)) == 1
        return out[0]

    changes = [lambda: g.__setitem__("n", 2), lambda: g.__setitem__("m", 3), lambda: g.pop("m"),
               lambda: setattr(plain, "__code__", other.__code__), lambda: setattr(plain, "__defaults__", (1,)),
               lambda: setattr(plain, "__defaults__", None), lambda: keyed.__kwdefaults__.update(k=1),
               lambda: keyed.__kwdefaults__.clear(), lambda: setattr(plain, "mark", 1),
               lambda: delattr(plain, "mark"), lambda: g.__setitem__("plain", keyed)]
    seen = [state()]
    assert state() == seen[0]
    for change in changes:
        change()
        seen.append(state())
    assert [n for n, (a, b) in enumerate(zip(seen, seen[1:])) if a == b] == [], "each change is a change of state"
    assert isinstance(plain, types.FunctionType)
