"""The closed world under ``gc.freeze()``: the objects frozen in the garbage collector's permanent generation
are not listed by ``gc.get_objects()``, yet a generator among them is still found.

A caller may have frozen its objects (a server that preloads and forks), and the child that ``audit(fn,
...)`` forks inherits that freeze: a generator the audit did not build, out of reach by name, must still end
the exact route, in this process and in the child.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest

from relations.audit import audit, exact_channel
from relations.audit._apart import FORK
from relations.audit._enumerate import HiddenRandomness


def _krr_lying_from(pool: dict) -> object:
    """A correct k-RR on {0, 1, 2} whose lie draws from ``pool["rng"]``: reachable by no name the audit reads
    (its closure holds the dict, not the generator), so only the garbage collector finds it."""
    def krr(x, rng):
        if rng.random() < 0.5:
            return x
        y = int(pool["rng"].integers(0, 2))
        return y + 1 if y >= x else y
    return krr


@pytest.fixture
def frozen():
    """The caller's own ``gc.freeze()``, undone afterwards."""
    assert gc.get_freeze_count() == 0
    yield gc.freeze
    gc.unfreeze()


def test_a_generator_the_caller_froze_is_found_in_this_process(frozen):
    pool = {"rng": np.random.default_rng(3)}
    frozen()
    assert not any(o is pool["rng"] for o in gc.get_objects())  # hidden from the plain listing
    with pytest.raises(HiddenRandomness, match="a numpy Generator"):
        exact_channel(_krr_lying_from(pool), [0, 1, 2])
    assert gc.get_freeze_count() > 0  # the caller's freeze is kept


@pytest.mark.skipif(not FORK, reason="function objects run in this process where os.fork is missing")
@pytest.mark.parametrize("caller_froze", [False, True])
def test_a_generator_frozen_across_the_audits_fork_is_found(caller_froze, request):
    pool = {"rng": np.random.default_rng(4)}
    if caller_froze:
        request.getfixturevalue("frozen")()
    before = gc.get_freeze_count()
    with pytest.raises(HiddenRandomness, match="a numpy Generator"):
        audit(_krr_lying_from(pool), domain=[0, 1, 2])
    assert gc.get_freeze_count() == before  # the caller's collector is as it was


# The pass over every object is kept between audits (relations.audit._exact._alive_of) while the collector says
# that nothing made since can be outside its young generations.  A generator made after that pass must still be
# found, wherever the collector has moved it since: still young, one generation up, to the oldest one by a
# collection, or there by a freeze undone (gc.unfreeze() puts the frozen objects in the oldest generation, and
# the freeze count is back where it was).  The collector is off during each case, so that only the moves made
# here happen (and the kept pass is reused whenever the case leaves it valid).

def _moves():
    return {
        "young": lambda: None,
        "gen1": lambda: gc.collect(0),
        "gen2 by collect(1)": lambda: gc.collect(1),
        "gen2 by collect()": gc.collect,  # (slow: a full collection of a large test process; collect(1) moves alike)
        "freeze undone": lambda: (gc.freeze(), gc.unfreeze()),
    }


@pytest.fixture
def collector_off():
    assert gc.get_freeze_count() == 0
    was = gc.isenabled()
    gc.disable()
    yield
    if was:
        gc.enable()


@pytest.mark.parametrize("move", [pytest.param(m, marks=pytest.mark.slow) if m == "gen2 by collect()" else m
                                  for m in _moves()])
def test_a_generator_made_after_the_last_pass_is_found_wherever_it_moved(move, collector_off):
    from relations.audit import _exact

    pool = {}
    krr = _krr_lying_from(pool)
    _exact._prebuilt(krr)  # a pass over every object, kept
    kept = _exact._SCANNED[0]
    pool["rng"] = np.random.default_rng(5)  # made after it, reachable by no name the audit reads
    _moves()[move]()
    assert any(g is pool["rng"] for _, g in _exact._prebuilt(krr))
    if _exact._YOUNG_SCAN:  # the kept pass served exactly when nothing could have left the young generations
        assert (kept is not None and _exact._SCANNED[0] is kept) == (move in ("young", "gen1"))


def test_a_generator_made_after_the_last_pass_ends_the_exact_route(collector_off):
    exact_channel(lambda x, rng: x if rng.random() < 0.75 else 1 - x, [0, 1])  # a pass over every object, kept
    pool = {"rng": np.random.default_rng(6)}
    gc.collect(1)  # now in the oldest generation, with the objects of that pass
    with pytest.raises(HiddenRandomness, match="a numpy Generator"):
        exact_channel(_krr_lying_from(pool), [0, 1, 2])


@pytest.mark.skipif(not FORK, reason="function objects run in this process where os.fork is missing")
@pytest.mark.parametrize("move", ["young", "freeze undone"])
def test_a_generator_made_after_the_callers_pass_is_found_in_the_audits_child(move, collector_off):
    """audit() makes the pass in the caller before forking (scan_ahead): the child looks only through the objects
    made since, and must still find a generator the caller made after that pass, wherever it moved."""
    audit(lambda x, rng: x if rng.random() < 0.75 else 1 - x, domain=[0, 1])  # the caller's pass, kept
    pool = {"rng": np.random.default_rng(7)}
    _moves()[move]()
    with pytest.raises(HiddenRandomness, match="a numpy Generator"):
        audit(_krr_lying_from(pool), domain=[0, 1, 2])
