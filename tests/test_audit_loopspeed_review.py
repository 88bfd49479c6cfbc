"""Holes found in a review of the loops' speed changes (prefix value memo, state pickler, mixed levels).

Each test compares the white-box enumeration with the distribution worked out by hand in the test."""

from __future__ import annotations

import io
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from relations.audit._enumerate import HiddenRandomness
from relations.audit._exact import enumerate_channel
from relations.audit._states import _Pickler

HALF = Fraction(1, 2)


def _channel(fn):
    e = enumerate_channel(fn, [0], allow_unexplored=True)
    return dict(zip(e.outputs, e.rows[0])), e.unexplored[0]


def by_bound_method(x, rng):
    # a builtin method bound to a type is a new object at each access: two paths' objects may share an address
    f = int.from_bytes if rng.integers(0, 2) else bytes.fromhex
    while True:  # a loop whose state repeats: solved as a Markov chain
        if rng.integers(0, 2):
            return f.__name__


def by_four_bound_methods(x, rng):
    f = (int.from_bytes, bytes.fromhex, float.fromhex, dict.fromkeys)[rng.integers(0, 4)]
    while True:
        if rng.integers(0, 2):
            return f.__qualname__


def by_local_class(x, rng):
    # a class made in the function, by identity and its fields (none here): its bases differ
    if rng.integers(0, 2):
        class K(int):
            pass
    else:
        class K(str):  # type: ignore[no-redef]
            pass
    while True:
        if rng.integers(0, 2):
            return K.__bases__[0].__name__


def test_states_named_by_address_stay_apart():
    # by hand: the first draw picks one of two values with probability 1/2 each, the loop then returns it
    for fn, names in ((by_bound_method, {"from_bytes", "fromhex"}), (by_local_class, {"int", "str"})):
        row, lost = _channel(fn)
        assert lost == 0
        assert row == dict.fromkeys(names, HALF), (fn.__name__, row)


def test_states_named_by_address_stay_apart_again():
    # addresses are reused at the allocator's whim: a few runs (each 1/4 per method, by hand)
    for _ in range(5):
        row, lost = _channel(by_four_bound_methods)
        assert lost == 0 and len(row) == 4 and set(row.values()) == {Fraction(1, 4)}, row


def test_objects_named_by_address_are_kept_alive():
    keep: list = []

    def pickled(value):
        buffer = io.BytesIO()
        _Pickler(buffer, (), keep).dump(value)
        return buffer.getvalue()

    first = pickled([int.from_bytes])  # a fresh bound method, freed once pickled but for ``keep``
    second = pickled([bytes.fromhex])
    assert first != second
    assert any(getattr(o, "__name__", None) == "from_bytes" for o in keep)


CALLS = [0]


def counted(x, rng):
    # a global counter: after 18 calls (the first path and its 16 replays, then one more) it returns another output
    CALLS[0] += 1
    a = rng.integers(0, 2)
    b = rng.integers(0, 2)
    return "late" if CALLS[0] > 18 else (int(a), int(b))


def appended(x, rng, seen=[]):  # noqa: B006 - the point: a default argument that keeps state between calls
    seen.append(0)
    while True:  # the chain's walk too
        if rng.integers(0, 2):
            return len(seen) > 20


TABLE: dict = {}


def tabled(x, rng):
    if x not in TABLE:  # filled on the first call for x, read after: deterministic given the draws
        TABLE[x] = x + 1
    return TABLE[x] + int(rng.integers(0, 2))


def test_state_carried_between_calls_is_refused():
    # the paths of an input are independent runs only if no call changes what the next one runs: by hand,
    # counted's channel is 1/4 for each pair, the enumeration would mix in "late" for the paths after call 18
    for fn in (counted, appended):
        with pytest.raises(HiddenRandomness, match="keeps state from one call to the next"):
            enumerate_channel(fn, [0], allow_unexplored=True)
    e = enumerate_channel(tabled, [0, 1])  # a table filled once per input is not refused
    assert {k: p for k, p in zip(e.outputs, e.rows[1]) if p} == {2: HALF, 3: HALF}


def by_view(x, rng):
    a = np.zeros(2, dtype=int)
    b = a[1:] if rng.integers(0, 2) else np.zeros(1, dtype=int)  # a view of a, or an array of equal values
    while True:
        if rng.integers(0, 2):
            b[0] = 1  # shows in a only through the view
            return int(a[1])


def test_views_of_one_array_stay_apart_from_equal_arrays():
    # by hand: the view (probability 1/2) returns 1, the separate array 0
    row, lost = _channel(by_view)
    assert lost == 0 and row == {0: HALF, 1: HALF}


def make_shared():
    c = 0

    def inc():
        nonlocal c
        c += 1

    def get():
        return c
    return inc, get


def make_apart():
    inc, _ = make_shared()
    _, get = make_shared()
    return inc, get


def by_cells(x, rng):
    fs = make_shared() if rng.integers(0, 2) else make_apart()  # one cell shared, or two cells holding 0
    while True:
        if rng.integers(0, 2):
            fs[0]()
            return fs[1]()


def test_shared_cells_stay_apart_from_equal_cells():
    # by hand: the shared cell (probability 1/2) returns 1, the two cells 0
    row, lost = _channel(by_cells)
    assert lost == 0 and row == {0: HALF, 1: HALF}


HANDLER = None


def by_global_lambda(x, rng):
    global HANDLER
    try:
        HANDLER = (lambda y: y) if rng.integers(0, 2) else (lambda y: -y)  # a plain function, made afresh
        while True:
            if rng.integers(0, 2):
                return HANDLER(1)
    finally:
        HANDLER = None  # each call leaves the global as it found it


def test_global_functions_made_afresh_stay_apart():
    # by hand: 1 or -1 with probability 1/2 each (a few runs: addresses are reused at the allocator's whim)
    for _ in range(3):
        row, lost = _channel(by_global_lambda)
        assert lost == 0 and row == {1: HALF, -1: HALF}


class Bag(Counter):
    pass  # Counter pickles its items only: an instance's own fields are left out


def by_counter_field(x, rng):
    v = Bag()
    v.tag = "a" if rng.integers(0, 2) else "b"
    while True:
        if rng.integers(0, 2):
            return v.tag


def test_fields_a_base_class_leaves_out_of_its_pickle_stay_apart():
    # by hand: "a" or "b" with probability 1/2 each
    row, lost = _channel(by_counter_field)
    assert lost == 0 and row == {"a": HALF, "b": HALF}


RECORDED: list = []


def recorded(x, rng):
    RECORDED.append(x)  # state kept between calls that changes nothing the code does
    if rng.integers(0, 4) < 3:
        return x if rng.integers(0, 2) else 1 - x
    return 2


def test_state_that_changes_nothing_is_let_be():
    # by hand: 2 with probability 1/4, else x or 1 - x with probability 3/8 each
    e = enumerate_channel(recorded, [0, 1])
    q = Fraction(3, 8)
    assert [dict(zip(e.outputs, row)) for row in e.rows] == [{0: q, 1: q, 2: 1 - 2 * q}] * 2 and RECORDED


def test_a_state_sees_every_change_to_its_modules_functions_and_classes(tmp_path):
    """snapshot() reads a module's globals by kind (a plain function by its code, other functions by value, a
    function or class of another of the user's modules with that module's globals): each change below, made
    between two draws, must make the state differ, and nothing changed must leave it equal."""
    import sys

    from conftest import module_from_source

    from relations.audit._states import snapshot

    module_from_source(tmp_path, "snapshot_helper", """
        count = 0
        class Shared:
            level = 1
    """)
    module_from_source(tmp_path, "snapshot_bumper", """
        calls = 0
        def bump():
            return calls
    """)
    user = module_from_source(tmp_path, "snapshot_user", """
        import snapshot_helper
        from snapshot_helper import Shared
        from snapshot_bumper import bump  # its module reached only through the function
        def plain(x):
            return x
        def other(x):
            return -x
        def with_default(x, k=1):
            return x + k
        class Local:
            size = 2
        def draw(probe):
            return probe()
    """)
    keep: list = []

    def runner():
        return user.draw(lambda: snapshot(runner.__code__, (), skip=1, keep=keep))

    changes = {
        "plain function rebound": lambda m: setattr(m, "plain", m.other),
        "plain function's code swapped": lambda m: setattr(m.plain, "__code__", m.other.__code__),
        "plain function given a default": lambda m: setattr(m.plain, "__defaults__", (1,)),
        "plain function given a keyword default": lambda m: setattr(m.plain, "__kwdefaults__", {"k": 1}),
        "plain function given an attribute": lambda m: setattr(m.plain, "tag", 1),
        "a default changed": lambda m: setattr(m.with_default, "__defaults__", (2,)),
        "a class attribute changed": lambda m: setattr(m.Local, "size", 3),
        "the helper module's global changed": lambda m: setattr(m.snapshot_helper, "count", 1),
        "the imported class's attribute changed": lambda m: setattr(m.Shared, "level", 2),
        "the imported function's module's global changed": lambda m: setattr(sys.modules["snapshot_bumper"], "calls", 1),
        "a name added": lambda m: setattr(m, "extra", 0),
    }
    for what, change in changes.items():
        for name in ("snapshot_helper", "snapshot_bumper", "snapshot_user"):  # afresh for each change
            module_from_source(tmp_path, name, (tmp_path / f"{name}.py").read_text())
        user = sys.modules["snapshot_user"]
        before, again = runner(), runner()
        assert before is not None and before == again, what
        change(user)
        assert runner() != before, what
