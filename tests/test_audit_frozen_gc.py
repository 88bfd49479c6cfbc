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
