"""Report-noisy-max on the white-box route: lists of independent noisy coordinates kept factorised
(relations/audit/_independent.py), checked against the plain path tree, brute force and the closed form."""

from __future__ import annotations

import contextlib
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from conftest import module_from_source

from relations.audit import audit
from relations.audit._enumerate import NotEnumerable
from relations.audit._exact import enumerate_channel
from relations.audit._iteration import iteration_maps
from relations.audit._outputs import output_key

COUNTS = (2, 1, 1)




def _brute(out, noises, domain=(0, 1, 2)):
    """The channel by brute force over every combination of the noises (``noises``: per coordinate, a list of
    equally likely values), ``out(x, noise)`` the output."""
    rows = []
    for x in domain:
        row: dict = {}
        combos = list(itertools.product(*noises))
        for combo in combos:
            y = output_key(out(x, combo))
            row[y] = row.get(y, 0) + Fraction(1, len(combos))
        rows.append(row)
    return rows


def _rows(e):
    return [{k: p for k, p in zip(e.outputs, row) if p} for row in e.rows]


def _counts(x):
    return [c + (i == x) for i, c in enumerate(COUNTS)]


def _first_max(values):
    return max(range(len(values)), key=values.__getitem__)


def _last_max(values):
    return len(values) - 1 - _first_max(values[::-1])


def _first_min(values):
    return min(range(len(values)), key=values.__getitem__)


SOURCES = {
    "comprehension": ("""
        import numpy as np
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 3) for c in counts]
            return int(np.argmax(noisy))
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    "loop_key": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            out = []
            for i in range(3):
                out.append(counts[i] + rng.integers(0, 3) - rng.integers(0, 2))
            return max(range(len(out)), key=out.__getitem__)
        """, lambda x, z: _first_max([c + a - b for c, (a, b) in zip(_counts(x), zip(z[::2], z[1::2]))]),
        [range(3), range(2)] * 3),
    "enumerate_index": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [2 * c + rng.integers(-1, 2) for i, c in enumerate(counts)]
            return noisy.index(max(noisy))
        """, lambda x, z: _first_max([2 * c + n for c, n in zip(_counts(x), z)]), [range(-1, 2)] * 3),
    "lambda_min": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 3) for c in counts]
            return min(range(3), key=lambda i: noisy[i])
        """, lambda x, z: _first_min([c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    "argmin_inline": ("""
        import numpy as np
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            return int(np.argmin([c - rng.integers(0, 3, endpoint=True) for c in counts]))
        """, lambda x, z: _first_min([c - n for c, n in zip(_counts(x), z)]), [range(4)] * 3),
    "largest_value": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 3) for c in counts]
            return max(noisy)
        """, lambda x, z: max(c + n for c, n in zip(_counts(x), z)), [range(3)] * 3),
    "asarray_method": ("""
        import numpy as np
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 3) for c in counts]
            return int(np.asarray(noisy).argmax())
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    "running_max": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            best, arg = None, None
            for i, c in enumerate(counts):
                v = c + rng.integers(0, 3)
                if best is None or v > best:
                    best, arg = v, i
            return arg
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    "running_max_ge_start": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            best = 3
            arg = -1
            for i in range(3):
                v = counts[i] + rng.integers(0, 3) - rng.integers(0, 2)
                if best <= v:
                    best = v
                    arg = i
            return arg
        """, lambda x, z: _running_ge(3, [c + a - b for c, (a, b) in zip(_counts(x), zip(z[::2], z[1::2]))]),
        [range(3), range(2)] * 3),
    "running_max_int_start": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            best, arg = 3, -1
            for i, c in enumerate(counts):
                v = c + rng.integers(0, 3)
                if v > best:
                    best, arg = v, i
            return arg
        """, lambda x, z: _running_gt(3, [c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    "laplace_like_range_len": ("""
        import numpy as np
        K = 1
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [counts[i] + rng.integers(-K, K + 1) for i in range(len(counts))]
            return int(np.argmax(noisy))
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(-1, 2)] * 3),
    "list_running_index": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 3) for c in counts]
            best = 0
            for i in range(1, len(noisy)):
                if noisy[i] >= noisy[best]:
                    best = i
            return best
        """, lambda x, z: _last_max([c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    "list_running_enumerate": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 3) for c in counts]
            top, at = None, None
            for i, v in enumerate(noisy):
                if top is None or v > top:
                    top, at = v, i
            return at
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
}


# iterables evaluated by a call of the code's own: read from the comprehension's iterator, never called again
CALLED = {
    "call": ("""
        import numpy as np
        def counts(x):
            return [c + (i == x) for i, c in enumerate((2, 1, 1))]
        def f(x, rng):
            return int(np.argmax([c + rng.integers(0, 3) for c in counts(x)]))
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    "enumerate_call_tuple": ("""
        def counts(x):
            return tuple(c + (i == x) for i, c in enumerate((2, 1, 1)))
        def f(x, rng):
            noisy = [c - rng.integers(0, 2) + i * 0 for i, c in enumerate(counts(x), 5)]
            return noisy.index(max(noisy))
        """, lambda x, z: _first_max([c - n for c, n in zip(_counts(x), z)]), [range(2)] * 3),
    "array_call": ("""
        import numpy as np
        def counts(x):
            return np.array([2, 1, 1]) + (np.arange(3) == x)
        def f(x, rng):
            noisy = [2 * c + rng.integers(-1, 2) for c in counts(x)]
            return max(range(len(noisy)), key=noisy.__getitem__)
        """, lambda x, z: _first_max([2 * c + n for c, n in zip(_counts(x), z)]), [range(-1, 2)] * 3),
    "range_call": ("""
        import numpy as np
        COUNTS = (2, 1, 1)
        def k():
            return range(3)
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate(COUNTS)]
            return int(np.argmax([counts[i] + rng.integers(0, 3) for i in k()]))
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    # the element's score computed by a call of the code's own: each call made once, in order
    "score_call": ("""
        import numpy as np
        def score(x, r):
            return (2, 1, 1)[r] + (r == x)
        def f(x, rng):
            return int(np.argmax([score(x, r) + rng.integers(0, 3) for r in range(3)]))
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    "queries_numpy_scores": ("""
        import numpy as np
        QUERIES = [lambda x: np.int64(2 + (x == 0)), lambda x: np.int64(1 + (x == 1)), lambda x: np.int64(1 + (x == 2))]
        def f(x, rng):
            noisy = [2 * q(x) - rng.integers(0, 2) + rng.integers(-1, 1) for q in QUERIES]
            return noisy.index(max(noisy))
        """, lambda x, z: _first_max([2 * c - a + b for c, (a, b) in zip(_counts(x), zip(z[::2], z[1::2]))]),
        [range(2), range(-1, 1)] * 3),
}


@pytest.mark.parametrize("style", sorted(CALLED))
def test_iterables_from_calls_are_read_once(tmp_path, style):
    source, out, noises = CALLED[style]
    f = module_from_source(tmp_path, f"called_{style}", source).f
    used = iteration_maps.used
    kept = enumerate_channel(f, [0, 1, 2])
    assert iteration_maps.used > used, "the factorised route was not taken"
    assert kept.complete
    assert _rows(kept) == _brute(out, noises)


def _running_ge(start, values):
    best, arg = start, -1
    for i, v in enumerate(values):
        if best <= v:
            best, arg = v, i
    return arg


@pytest.mark.parametrize("style", sorted(SOURCES))
def test_small_cases_match_the_path_tree_and_brute_force(tmp_path, style):
    source, out, noises = SOURCES[style]
    f = module_from_source(tmp_path, f"rnm_{style}", source).f
    used = iteration_maps.used
    kept = enumerate_channel(f, [0, 1, 2])
    assert iteration_maps.used > used, "the factorised route was not taken"
    with iteration_maps.off():  # the plain path tree, draw by draw
        plain = enumerate_channel(f, [0, 1, 2])
    assert kept.complete and plain.complete
    assert _rows(kept) == _rows(plain) == _brute(out, noises)
    assert kept.runs < plain.runs


ADVERSARIAL = {
    # one draw shared by every coordinate: not independent coordinates (the list makes no draw of its own)
    "shared_draw": ("""
        import numpy as np
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            z = rng.integers(0, 3)
            return int(np.argmax([c + z * (c % 2) for c in counts]))
        """, lambda x, z: _first_max([c + z[0] * (c % 2) for c in _counts(x)]), [range(3)]),
    # each coordinate's draw depends on the previous coordinate: a loop body of two statements
    "chained": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            out = []
            prev = 0
            for c in counts:
                prev = c + rng.integers(0, 2) + prev % 2
                out.append(prev)
            return out.index(max(out))
        """, None, None),
    # the same through a walrus in the comprehension
    "walrus": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            prev = 0
            noisy = [(prev := c + rng.integers(0, 2) + prev % 2) for c in counts]
            return noisy.index(max(noisy))
        """, None, None),
    # a shadowed max (the last index of the largest)
    "shadowed_max": ("""
        def max(items, key):
            best = None
            for i in items:
                if best is None or key(i) >= key(best):
                    best = i
            return best
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 3) for c in counts]
            return max(range(3), key=noisy.__getitem__)
        """, lambda x, z: _last_max([c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    # a global the randomizer changes before the list: read as the code reads it
    "mutated_global": ("""
        import numpy as np
        SHIFT = [0]
        def bump(x):
            SHIFT[0] = x
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            bump(x)
            noisy = [c + rng.integers(0, 2) + SHIFT[0] for c in counts]
            SHIFT[0] = 0
            return int(np.argmax(noisy))
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(2)] * 3),
    # reading the vector after its argmax, and a second observation of the same draws
    "read_after": ("""
        import numpy as np
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 3) for c in counts]
            i = int(np.argmax(noisy))
            return (i, noisy[i], int(np.argmin(np.asarray(noisy))))
        """, lambda x, z: (_first_max(v := [c + n for c, n in zip(_counts(x), z)]), v[_first_max(v)],
                          _first_min(v)), [range(3)] * 3),
    # a running maximum whose value is read after the loop (only its index is computed): not taken
    "running_value_read": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            best, arg = None, None
            for i, c in enumerate(counts):
                v = c + rng.integers(0, 3)
                if best is None or v > best:
                    best, arg = v, i
            return (arg, best)
        """, lambda x, z: (_first_max(v := [c + n for c, n in zip(_counts(x), z)]), max(v)), [range(3)] * 3),
    # a running maximum started at a float: not one of the starts proven (None, -inf, an integer)
    "running_float_start": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            best, arg = 3.5, -1
            for i, c in enumerate(counts):
                v = c + rng.integers(0, 3)
                if v > best:
                    best, arg = v, i
            return arg
        """, lambda x, z: _running_gt(3.5, [c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    # a running maximum over the list started at an index it does not scan from: the loop as written
    "running_wrong_start": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 3) for c in counts]
            best = 2
            for i in range(1, len(noisy)):
                if noisy[i] > noisy[best]:
                    best = i
            return best
        """, lambda x, z: _scan(2, range(1, 3), [c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    # the same scan with a range of the code's own (backwards): the loop as written
    "running_shadowed_range": ("""
        import builtins
        def range(*args):
            return builtins.range(*args)[::-1]
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 3) for c in counts]
            best = 0
            for i in range(1, len(noisy)):
                if noisy[i] > noisy[best]:
                    best = i
            return best
        """, lambda x, z: _scan(0, [2, 1], [c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    # an attribute read before the list that runs code (a property): read once, as the code reads it
    "property_before": ("""
        import numpy as np
        class Box:
            reads = 0
            @property
            def pick(self):
                Box.reads += 1
                return lambda v: (int(np.argmax(v)), Box.reads)
        BOX = Box()
        def f(x, rng):
            Box.reads = 0
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            return BOX.pick([c + rng.integers(0, 3) for c in counts])
        """, lambda x, z: (_first_max([c + n for c, n in zip(_counts(x), z)]), 1), [range(3)] * 3),
    # a closure made before the list that the rest calls
    "closure_before": ("""
        import numpy as np
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            peek = lambda: counts[0]
            noisy = [c + rng.integers(0, 3) for c in counts]
            counts[0] = 9
            return (int(np.argmax(noisy)), peek())
        """, lambda x, z: (_first_max([c + n for c, n in zip(_counts(x), z)]), 9), [range(3)] * 3),
    # the iterable's function has a side effect the output shows: called once, as the code calls it
    "counted_call": ("""
        import numpy as np
        CALLS = [0]
        def counts(x):
            CALLS[0] += 1
            return [c + (i == x) for i, c in enumerate((2, 1, 1))]
        def f(x, rng):
            CALLS[0] = 0
            noisy = [c + rng.integers(0, 3) for c in counts(x)]
            return (int(np.argmax(noisy)), CALLS[0])
        """, lambda x, z: (_first_max([c + n for c, n in zip(_counts(x), z)]), 1), [range(3)] * 3),
    # the iterable's function makes its own draw: a branch of the path, its value in the list
    "drawing_call": ("""
        import numpy as np
        def counts(x, rng):
            return [2 + (x == 0) + rng.integers(0, 2), 1 + (x == 1), 1 + (x == 2)]
        def f(x, rng):
            return int(np.argmax([c + rng.integers(0, 3) for c in counts(x, rng)]))
        """, lambda x, z: _first_max([c + n + (i == 0) * z[3] for i, (c, n) in enumerate(zip(_counts(x), z))]),
        [range(3)] * 3 + [range(2)]),
    # a generator: its elements are not known before they are made (the list made element by element)
    "generator": ("""
        import numpy as np
        def counts(x):
            for i, c in enumerate((2, 1, 1)):
                yield c + (i == x)
        def f(x, rng):
            return int(np.argmax([c + rng.integers(0, 3) for c in counts(x)]))
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    # a sequence of the code's own, iterated by __getitem__, whose elements change as they are read
    "changing_sequence": ("""
        import numpy as np
        class Drift:
            def __init__(self, x):
                self.x, self.reads = x, 0
            def __getitem__(self, i):
                if i >= 3:
                    raise IndexError(i)
                self.reads += 1
                return (2, 1, 1)[i] + (i == self.x) + self.reads
        def f(x, rng):
            return int(np.argmax([c + rng.integers(0, 3) for c in Drift(x)]))
        """, lambda x, z: _first_max([c + n + i + 1 for i, (c, n) in enumerate(zip(_counts(x), z))]), [range(3)] * 3),
    # a list whose __iter__ iterates something else (in a loop appending, over a name)
    "list_subclass_iter": ("""
        class Reversed(list):
            def __iter__(self):
                return iter(self[::-1])
        def f(x, rng):
            counts = Reversed([c + (i == x) for i, c in enumerate((2, 1, 1))])
            out = []
            for c in counts:
                out.append(c + rng.integers(0, 3))
            return out.index(max(out))
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x)[::-1], z)]), [range(3)] * 3),
    # the same list iterated by a comprehension: its iterator is over the reversed copy, read as it is
    "list_subclass_comprehension": ("""
        class Reversed(list):
            def __iter__(self):
                return iter(self[::-1])
        def f(x, rng):
            counts = Reversed([c + (i == x) for i, c in enumerate((2, 1, 1))])
            out = [c + rng.integers(0, 3) for c in counts]
            return out.index(max(out))
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x)[::-1], z)]), [range(3)] * 3),
    # a score with a side effect the output shows: each element's score computed once
    "score_counted": ("""
        import numpy as np
        CALLS = [0]
        def score(x, r):
            CALLS[0] += 1
            return (2, 1, 1)[r] + (r == x)
        def f(x, rng):
            CALLS[0] = 0
            noisy = [score(x, r) + rng.integers(0, 3) for r in range(3)]
            return (int(np.argmax(noisy)), CALLS[0])
        """, lambda x, z: (_first_max([c + n for c, n in zip(_counts(x), z)]), 3), [range(3)] * 3),
    # a score making its own draw: not independent of nothing it reads (the run is void, enumerated again)
    "score_draws": ("""
        import random
        import numpy as np
        def score(x, r):
            return (2, 1, 1)[r] + (r == x) + (random.randrange(2) if r == 1 else 0)
        def f(x, rng):
            return int(np.argmax([score(x, r) + rng.integers(0, 3) for r in range(3)]))
        """, lambda x, z: _first_max([c + n + (i == 1) * z[3] for i, (c, n) in enumerate(zip(_counts(x), z))]),
        [range(3)] * 3 + [range(2)]),
    # a score of a module function making its own draw on the generator it is given
    "score_draws_module": ("""
        import numpy as np
        def score(x, r, rng):
            return (2, 1, 1)[r] + (r == x) + (rng.integers(0, 2) if r == 2 else 0)
        def f(x, rng):
            return int(np.argmax([score(x, r, rng) + rng.integers(0, 3) for r in range(3)]))
        """, lambda x, z: _first_max([c + n + (i == 2) * z[3] for i, (c, n) in enumerate(zip(_counts(x), z))]),
        [range(3)] * 3 + [range(2)]),
    # a score that changes the list iterated over (its later elements) as it runs
    "score_mutates_iterable": ("""
        import numpy as np
        RS = [0, 1, 2]
        def score(x, r):
            if r == 1:
                RS[2] = 1
            return (2, 1, 1)[r] + (r == x)
        def f(x, rng):
            RS[:] = [0, 1, 2]
            return int(np.argmax([score(x, r) + rng.integers(0, 3) for r in RS]))
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x)[:2] + [_counts(x)[1]], z)]), [range(3)] * 3),
    # a score of the code's own type whose + takes the draw (and hides what it did with it)
    "score_object_add": ("""
        import numpy as np
        class Score:
            def __init__(self, v):
                self.v = v
            def __add__(self, other):
                try:
                    return self.v + int(other)
                except Exception:
                    return -100
        def f(x, rng):
            return int(np.argmax([Score((2, 1, 1)[r] + (r == x)) + rng.integers(0, 3) for r in range(3)]))
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    # the same with one element: no later draw would see the misuse, so no placeholder
    "score_object_add_alone": ("""
        import numpy as np
        class Score:
            def __init__(self, v):
                self.v = v
            def __add__(self, other):
                try:
                    return self.v + int(other)
                except Exception:
                    return -100
        def f(x, rng):
            return [Score(x) + rng.integers(0, 3) for r in range(1)][0]
        """, lambda x, z: x + z[0], [range(3)]),
    # a score that is not an integer
    "score_float": ("""
        import numpy as np
        def score(x, r):
            return (2.5, 1, 1)[r] + (r == x)
        def f(x, rng):
            return int(np.argmax([score(x, r) + 1 + rng.integers(0, 3) for r in range(3)]))
        """, lambda x, z: _first_max([c + n + (i == 0) * 0.5 for i, (c, n) in enumerate(zip(_counts(x), z))]),
        [range(3)] * 3),
    # a score whose call raises at the last element: the code's exception, as the code raises it
    "score_raises": ("""
        import numpy as np
        def score(x, r):
            return (2, 1, 1)[r] + (r == x) if r < 2 or x < 2 else (2, 1, 1)[r] + (r == x) + "a"
        def f(x, rng):
            try:
                return int(np.argmax([score(x, r) + rng.integers(0, 3) for r in range(3)]))
            except TypeError:
                return -1
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]) if x < 2 else -1, [range(3)] * 3),
    # a score that changes what a later element's noise reads (a global list, a global name, a draw's bound):
    # each element's noise is read after its own score ran, as the code reads it
    "score_sets_later_noise": ("""
        import numpy as np
        BONUS = [0, 0, 0]
        def score(x, r):
            BONUS[r] = 5 * (r == x)
            return (2, 1, 1)[r]
        def f(x, rng):
            BONUS[:] = [0, 0, 0]
            return int(np.argmax([score(x, r) + rng.integers(0, 3) + BONUS[r] for r in range(3)]))
        """, lambda x, z: _first_max([c + n + 5 * (i == x) for i, (c, n) in enumerate(zip(COUNTS, z))]),
        [range(3)] * 3),
    "score_sets_later_name": ("""
        import numpy as np
        B = 0
        def score(x, r):
            global B
            B = 5 * (r == x)
            return (2, 1, 1)[r]
        def f(x, rng):
            return int(np.argmax([score(x, r) + rng.integers(0, 3) + B for r in range(3)]))
        """, lambda x, z: _first_max([c + n + 5 * (i == x) for i, (c, n) in enumerate(zip(COUNTS, z))]),
        [range(3)] * 3),
    "score_sets_later_bound": ("""
        import numpy as np
        HI = 1
        def score(x, r):
            global HI
            HI = 3 if r == x else 1
            return (2, 1, 1)[r]
        def f(x, rng):
            return int(np.argmax([score(x, r) + rng.integers(0, HI) for r in range(3)]))
        """, lambda x, z: _first_max([c + (n if i == x else 0) for i, (c, n) in enumerate(zip(COUNTS, z))]),
        [range(3)] * 3),
    # a score that changes the next element iterated over, and a later one that changes it back: the elements
    # are those the iteration meets, element after element
    "score_changes_next_element": ("""
        import numpy as np
        RS = [0, 1, 2]
        def score(x, r):
            if r == 1:
                RS[2] = 1
            if r == 2:
                RS[2] = 2
            return (2, 1, 1)[r] + (r == x)
        def f(x, rng):
            RS[:] = [0, 1, 2]
            return int(np.argmax([score(x, r) + rng.integers(0, 3) for r in RS]))
        """, lambda x, z: _first_max([c + n for c, n in zip([*_counts(x)[:2], _counts(x)[1]], z)]), [range(3)] * 3),
    # a score of the code's own type whose + inspects the draw (isinstance) and answers without using it
    "score_object_isinstance": ("""
        import numpy as np
        class Score:
            def __init__(self, v):
                self.v = v
            def __add__(self, other):
                if not isinstance(other, (int, np.integer)):
                    return -100
                return self.v + int(other)
        def f(x, rng):
            return int(np.argmax([Score((2, 1, 1)[r] + (r == x)) + rng.integers(0, 3) for r in range(3)]))
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    # the same raising on what it does not know: the code does not raise
    "score_object_type_raises": ("""
        import numpy as np
        class Score:
            def __init__(self, v):
                self.v = v
            def __add__(self, other):
                if not isinstance(other, (int, np.integer)):
                    raise ValueError(other)
                return self.v + int(other)
        def f(x, rng):
            return int(np.argmax([Score((2, 1, 1)[r] + (r == x)) + rng.integers(0, 3) for r in range(3)]))
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(3)] * 3),
    # a refusal of the vector (a second observation, a method it does not keep) caught by the code's own
    # ``except Exception``: the run is void, never answered with the code's fallback
    "refusal_caught_observation": ("""
        import numpy as np
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 3) for c in counts]
            a = int(np.argmax(noisy))
            try:
                b = int(np.argmin(noisy))
            except Exception:
                b = -1
            return (a, b)
        """, lambda x, z: (_first_max(v := [c + n for c, n in zip(_counts(x), z)]), _first_min(v)), [range(3)] * 3),
    "refusal_caught_method": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 3) for c in counts]
            try:
                noisy.sort()
            except Exception:
                pass
            return noisy[0]
        """, lambda x, z: min(c + n for c, n in zip(_counts(x), z)), [range(3)] * 3),
    # a list of the code's own type whose [] counts its reads: each read made once, as the code makes it
    "list_subclass_getitem": ("""
        import numpy as np
        class Counting(list):
            reads = 0
            def __getitem__(self, i):
                Counting.reads += 1
                return list.__getitem__(self, i) + 10 * (Counting.reads == 2)
        def f(x, rng):
            Counting.reads = 0
            counts = Counting([c + (i == x) for i, c in enumerate((2, 1, 1))])
            noisy = [counts[i] + rng.integers(0, 3) for i in range(3)]
            return int(np.argmax(noisy))
        """, lambda x, z: _first_max([c + n + 10 * (i == 1) for i, (c, n) in enumerate(zip(_counts(x), z))]),
        [range(3)] * 3),
    # the vector handed to code that looks at what it is (isinstance, type, str, json): it is a list there
    "helper_isinstance": ("""
        def top(v):
            if isinstance(v, list):
                return v.index(max(v))
            return -1
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 2) for c in counts]
            return top(noisy)
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(2)] * 3),
    "type_name": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 2) for c in counts]
            return (type(noisy).__name__, noisy.index(max(noisy)))
        """, lambda x, z: ("list", _first_max([c + n for c, n in zip(_counts(x), z)])), [range(2)] * 3),
    "str_and_format": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 2) for c in counts]
            return (str(noisy), f"{noisy}", "%s" % (noisy,))
        """, lambda x, z: (str([c + np.int64(n) for c, n in zip(_counts(x), z)]),) * 3, [range(2)] * 3),  # numpy's draws
    "json_dumps": ("""
        import json
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [int(c + rng.integers(0, 2)) for c in counts]
            return json.dumps(noisy)
        """, lambda x, z: str([c + n for c, n in zip(_counts(x), z)]), [range(2)] * 3),
    "kept_in_an_object": ("""
        class Box:
            pass
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 2) for c in counts]
            box = Box()
            box.v = noisy
            return isinstance(box.v, list)
        """, lambda x, z: True, [range(2)] * 3),
    # an operator of the code's own type given the vector: it is a list there
    "operator_of_own_type": ("""
        class Boost:
            def __add__(self, other):
                return "list" if isinstance(other, list) else "other"
            def __eq__(self, other):
                return type(other) is list
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 2) for c in counts]
            return (Boost() + noisy, Boost() == noisy, noisy.index(max(noisy)))
        """, lambda x, z: ("list", True, _first_max([c + n for c, n in zip(_counts(x), z)])), [range(2)] * 3),
    # counts of a narrow numpy type: np.uint8(0) - 2 wraps to 254, minus a draw of integers (np.int64) is -2
    "uint8_counts": ("""
        import numpy as np
        def f(x, rng):
            counts = np.array([2, 1, 0], dtype=np.uint8) + (np.arange(3) == x).astype(np.uint8)
            noisy = [c - rng.integers(0, 3) for c in counts]
            return int(np.argmax(noisy))
        """, lambda x, z: _first_max([np.uint8(c) - np.int64(n) for c, n in zip(_wrapped(x), z)]), [range(3)] * 3),
    "uint8_scores": ("""
        import numpy as np
        def score(x, r):
            return np.uint8((2, 1, 0)[r] + (r == x))
        def f(x, rng):
            return int(np.argmax([score(x, r) - rng.integers(0, 3) for r in range(3)]))
        """, lambda x, z: _first_max([np.uint8(c) - np.int64(n) for c, n in zip(_wrapped(x), z)]), [range(3)] * 3),
    # an attribute of a module read before the list through the module's own __getattr__: read once
    "module_getattr": ("""
        import types
        m = types.ModuleType("lazy")
        m.calls = 0
        def _ga(name):
            m.calls += 1
            return lambda v: (v.index(max(v)), m.calls)
        m.__getattr__ = _ga
        def f(x, rng):
            m.calls = 0
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            return m.pick([c + rng.integers(0, 3) for c in counts])
        """, lambda x, z: (_first_max([c + n for c, n in zip(_counts(x), z)]), 1), [range(3)] * 3),
    # a call with a keyword named as the route's own parameter, and a lambda handing the vector to a helper
    "keyword_fn": ("""
        def pick(v, fn=max):
            return v.index(fn(v))
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 2) for c in counts]
            return pick(noisy, fn=max)
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(2)] * 3),
    "lambda_hands_it_over": ("""
        def top(get):
            v = get()
            return v.index(max(v)) if isinstance(v, list) else -1
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 2) for c in counts]
            return top(lambda: noisy)
        """, lambda x, z: _first_max([c + n for c, n in zip(_counts(x), z)]), [range(2)] * 3),
    # a score that looks at the name of the code calling it (the comprehension's)
    "score_reads_caller": ("""
        import sys
        import numpy as np
        def score(x, r):
            return (2, 1, 1)[r] + (r == x) + 3 * (r == 2 and sys._getframe(1).f_code.co_name == "<listcomp>")
        def f(x, rng):
            return int(np.argmax([score(x, r) + rng.integers(0, 3) for r in range(3)]))
        """, lambda x, z: _first_max([c + n + 3 * (i == 2) for i, (c, n) in enumerate(zip(_counts(x), z))]),
        [range(3)] * 3),
    # a helper that keeps what it is given (its uses not all proven): it is handed the real list
    "helper_keeps_it": ("""
        import numpy as np
        KEPT = []
        def report(v):
            KEPT.append(v)
            return int(np.argmax(v))
        def f(x, rng):
            KEPT.clear()
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 2) for c in counts]
            i = report(noisy)
            return (i, type(KEPT[0]).__name__)
        """, lambda x, z: (_first_max([c + n for c, n in zip(_counts(x), z)]), "list"), [range(2)] * 3),
    # a helper whose len is a local of its own (a default argument): not the builtin
    "helper_local_len": ("""
        import numpy as np
        def report(v, len=lambda w: 10 * (type(w).__name__ == "list")):
            return len(v) + int(np.argmax(v))
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c + rng.integers(0, 2) for c in counts]
            return report(noisy)
        """, lambda x, z: 10 + _first_max([c + n for c, n in zip(_counts(x), z)]), [range(2)] * 3),
    # an element assigned (clipped at 0)
    "setitem_clip": ("""
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((2, 1, 1))]
            noisy = [c - rng.integers(0, 3) for c in counts]
            for i in range(3):
                noisy[i] = max(noisy[i], 0)
            return noisy.index(max(noisy))
        """, lambda x, z: _first_max([max(c - n, 0) for c, n in zip(_counts(x), z)]), [range(3)] * 3),
}


def _wrapped(x):
    return [c + (i == x) for i, c in enumerate((2, 1, 0))]


def _running_gt(start, values):
    best, arg = start, -1
    for i, v in enumerate(values):
        if v > best:
            best, arg = v, i
    return arg


def _scan(best, order, values):
    for i in order:
        if values[i] > values[best]:
            best = i
    return best


def _chained(x, z):
    out, prev = [], 0
    for c, n in zip(_counts(x), z):
        prev = c + n + prev % 2
        out.append(prev)
    return out.index(max(out))


@pytest.mark.parametrize("case", sorted(ADVERSARIAL))
def test_unproven_shapes_keep_the_exact_channel(tmp_path, case):
    """Where independence or the mapping is not proven the route is not taken, or falls back: the channel is
    the brute-force one either way."""
    source, out, noises = ADVERSARIAL[case]
    if out is None:
        out, noises = _chained, [range(2)] * 3
    f = module_from_source(tmp_path, f"adv_{case}", source).f
    e = enumerate_channel(f, [0, 1, 2])
    assert e.complete
    assert _rows(e) == _brute(out, noises)


@pytest.mark.parametrize("case", ["score_counted", "score_draws", "score_draws_module", "score_mutates_iterable",
                                  "score_object_add", "score_float", "score_sets_later_noise",
                                  "score_sets_later_bound", "score_changes_next_element"])
def test_a_placeholder_is_answered_for_scores_by_calls(tmp_path, case, monkeypatch):
    """The adversarial scores above do reach the placeholder (so that their checks test it)."""
    from relations.audit import _independent

    made = []

    class Counted(_independent._Pending):
        __slots__ = ()

        def __init__(self, *args):
            made.append(1)
            super().__init__(*args)

    monkeypatch.setattr(_independent, "_Pending", Counted)
    source, out, noises = ADVERSARIAL[case]
    f = module_from_source(tmp_path, f"reach_{case}", source).f
    e = enumerate_channel(f, [0, 1, 2])
    assert made and _rows(e) == _brute(out, noises)


def test_a_statement_declined_at_its_first_draw_stays_declined(tmp_path):
    """A running maximum started at a float is not taken at its first element; its later elements (the
    largest then an integer drawn) must not be taken either, as if the loop started there."""
    source, out, noises = ADVERSARIAL["running_float_start"]
    f = module_from_source(tmp_path, "adv_declined", source).f
    used = iteration_maps.used
    e = enumerate_channel(f, [0, 1, 2])
    assert iteration_maps.used == used
    assert _rows(e) == _brute(out, noises)


def test_a_vector_minus_itself_is_not_independent():
    """``g - g`` shares every draw: never treated as independent coordinates (read one by one, beyond the path
    limit: refused; never a wrong channel)."""
    import numpy as np

    def f(x, rng):
        g = rng.integers(0, 3, size=16)
        return int(np.argmax(g - g + np.arange(16) * 0 + x))

    try:
        e = enumerate_channel(f, [0, 1], max_paths=200)  # (3^16 paths: any limit below is reached)
    except NotEnumerable:
        return
    assert _rows(e) == [{0: 1}, {0: 1}]


def test_a_factorised_vector_returned_is_never_one_output():
    """An array of draws kept factorised and returned as it is (in a tuple too) is no single output: refused
    (the plain enumeration, beyond the path limit, refuses too), never one output for every path."""

    def f(x, rng):
        return (x, rng.integers(0, 3, size=13))

    with pytest.raises(NotEnumerable):
        enumerate_channel(f, [0, 1], max_paths=200)  # (3^13 paths: any limit below is reached)


def test_an_array_has_no_index_method():
    """``V.index(max(V))`` on an array of draws raises as numpy's arrays do, never answers the index."""

    def f(x, rng):
        noisy = rng.integers(0, 3, size=13)
        return noisy.index(max(noisy))

    with pytest.raises((AttributeError, NotEnumerable)):
        enumerate_channel(f, [0, 1], max_paths=2000)


def test_a_vector_of_draws_is_what_it_stands_for(monkeypatch):
    """An array of draws made by a helper (no statement of the randomizer's own to continue) reaches the code as
    it is: ``isinstance(v, np.ndarray)`` and ``v.__class__`` say what it stands for.  The path limit lowered so
    that three draws are kept factorised, against the plain path tree."""
    import numpy as np

    from relations.audit import _generator, _independent

    def noise(rng):
        return rng.integers(0, 3, size=3)

    def f(x, rng):
        noisy = noise(rng)
        return (isinstance(noisy, np.ndarray), noisy.__class__.__name__, int(np.argmax(noisy + (np.arange(3) == x))))

    with iteration_maps.off():
        plain = enumerate_channel(f, [0, 1])
    monkeypatch.setattr(_generator, "MAX_PATHS", 8)
    monkeypatch.setattr(_independent, "MAX_PATHS", 8)
    used = iteration_maps.used
    kept = enumerate_channel(f, [0, 1])
    assert iteration_maps.used > used
    assert _rows(kept) == _rows(plain)
    assert all(y[1][0] == ("bool", True) and y[1][1] == "ndarray" for y in kept.outputs)


def _two_sided(p: Fraction, z: int) -> Fraction:
    """P(G1 - G2 = z), G1, G2 geometric(p) on 1, 2, ...: p (1 - p)^|z| / (2 - p) (closed form)."""
    return p * (1 - p) ** abs(z) / (2 - p)


def _rnm_rows(counts_of, p: Fraction, k: int, cut: int = 48) -> list[list[Fraction]]:
    """P(first argmax = i) by a sequential pass over the coordinates, keeping the law of (largest so far, its
    index), the noise cut at |z| <= cut (its mass beyond, below ``4 (1 - p)^cut``, is ignored); in integers over
    one denominator per coordinate."""
    law = {z: _two_sided(p, z) for z in range(-cut, cut + 1)}
    den = math.lcm(*(w.denominator for w in law.values()))
    noise = {z: w.numerator * (den // w.denominator) for z, w in law.items()}
    rows = []
    for x in range(k):
        state: dict[tuple[int, int], int] = {}
        for i, c in enumerate(counts_of(x)):
            if not state:
                state = {(c + z, 0): w for z, w in noise.items()}
                continue
            nxt: dict[tuple[int, int], int] = {}
            for (best, at), w in state.items():
                for z, q in noise.items():
                    key = (c + z, i) if c + z > best else (best, at)
                    nxt[key] = nxt.get(key, 0) + w * q
            state = nxt
        row = [0] * k
        for (_, at), w in state.items():
            row[at] += w
        rows.append([Fraction(w, den**k) for w in row])
    return rows


def _eps(rows) -> float:
    return max(math.log(a / b) for r in rows for s in rows for a, b in zip(r, s))


BENCH_COUNTS = (3, 2, 2, 1)


def _bench_counts(x):
    return [c + (i == x) for i, c in enumerate(BENCH_COUNTS)]


GEOMETRIC = {
    "comprehension": """
        import numpy as np
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((3, 2, 2, 1))]
            noisy = [c + rng.geometric(0.5) - rng.geometric(0.5) for c in counts]
            return int(np.argmax(noisy))
        """,
    "call": """
        import numpy as np
        def counts(x):
            return [c + (i == x) for i, c in enumerate((3, 2, 2, 1))]
        def f(x, rng):
            return int(np.argmax([c + rng.geometric(0.5) - rng.geometric(0.5) for c in counts(x)]))
        """,
    "score_call": """
        import numpy as np
        def score(x, r):
            return (3, 2, 2, 1)[r] + (r == x)
        def f(x, rng):
            noisy = [score(x, r) + rng.geometric(0.5) - rng.geometric(0.5) for r in range(4)]
            return int(np.argmax(noisy))
        """,
    "loop": """
        def f(x, rng, p=0.5):
            counts = [c + (i == x) for i, c in enumerate((3, 2, 2, 1))]
            noisy = []
            for c in counts:
                noisy.append(c + rng.geometric(p) - rng.geometric(p))
            return max(range(len(noisy)), key=noisy.__getitem__)
        """,
    "running_max": """
        import math
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((3, 2, 2, 1))]
            best, best_i = -math.inf, 0
            for i, c in enumerate(counts):
                noisy = c + rng.geometric(0.5) - rng.geometric(0.5)
                if noisy > best:
                    best, best_i = noisy, i
            return best_i
        """,
    "list_running": """
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((3, 2, 2, 1))]
            noisy = [c + rng.geometric(0.5) - rng.geometric(0.5) for c in counts]
            best = 0
            for i in range(1, len(noisy)):
                if noisy[i] > noisy[best]:
                    best = i
            return best
        """,
    "vectors_running": """
        import numpy as np
        def f(x, rng):
            counts = np.array([3, 2, 2, 1]) + (np.arange(4) == x)
            noisy = counts + rng.geometric(0.5, size=4) - rng.geometric(0.5, size=4)
            top, at = None, -1
            for i, v in enumerate(noisy):
                if top is None or v > top:
                    top, at = v, i
            return at
        """,
    "helper": """
        import numpy as np
        def report(v):
            return int(np.argmax(v)) if len(v) else -1
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((3, 2, 2, 1))]
            noisy = [c + rng.geometric(0.5) - rng.geometric(0.5) for c in counts]
            return report(noisy)
        """,
    "vectors": """
        import numpy as np
        def f(x, rng):
            counts = np.array([3, 2, 2, 1]) + (np.arange(4) == x)
            noisy = counts + rng.geometric(0.5, size=4) - rng.geometric(0.5, size=4)
            return int(np.argmax(noisy))
        """,
}


@pytest.fixture(scope="module")
def geometric_truth():
    rows = _rnm_rows(_bench_counts, Fraction(1, 2), 4)
    return rows, _eps(rows)


@pytest.mark.parametrize("style", sorted(GEOMETRIC))
def test_geometric_noise_is_enclosed(tmp_path, style, geometric_truth):
    """Each entry lies in [explored, explored + unexplored], the outputs are known (the mass is confined), and
    the certified interval on eps_d holds the closed form's value."""
    truth, eps = geometric_truth
    f = module_from_source(tmp_path, f"geo_{style}", GEOMETRIC[style]).f
    e = enumerate_channel(f, [0, 1, 2, 3], allow_unexplored=True, max_depth=32)
    assert e.outputs_known and sorted(e.outputs) == [0, 1, 2, 3]
    slack = Fraction(1, 2**45)  # the truth's own cut
    for x in range(4):
        assert 0 < e.unexplored[x] < Fraction(1, 10**8)
        for y, p in zip(e.outputs, e.rows[x]):
            assert p - slack <= truth[x][y] <= p + e.unexplored[x] + slack
    lower, upper = math.log(e.eps_d_lower()[0]), math.log(e.eps_d_upper()[0])
    assert lower - 1e-9 <= eps <= upper + 1e-9
    assert upper - lower < 1e-6


def test_long_probabilities_are_rounded_down_soundly(tmp_path):
    """Geometric noise with ``p = 3/10`` (powers of ten: thousands of digits) is kept on a grid of ``2^-(depth
    + 96)``, the mass rounded off added to the tail: every entry still encloses the closed form's."""
    src = """
        from fractions import Fraction
        P = Fraction(3, 10)
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((3, 2, 2, 1))]
            noisy = [c + rng.geometric(P) - rng.geometric(P) for c in counts]
            return noisy.index(max(noisy))
        """
    f = module_from_source(tmp_path, "geo_tenths", src).f
    e = enumerate_channel(f, [0, 1, 2, 3], allow_unexplored=True, max_depth=32)
    truth = _rnm_rows(_bench_counts, Fraction(3, 10), 4, cut=70)
    slack = Fraction(1, 10**10)  # the truth's own cut: 4 (7/10)^70 / (13/10)
    assert e.outputs_known
    for x in range(4):
        assert 0 < e.unexplored[x] < Fraction(1, 10**8)
        for y, p in zip(e.outputs, e.rows[x]):
            assert len(str(p.denominator)) < 200
            assert p - slack <= truth[x][y] <= p + e.unexplored[x] + slack


@pytest.mark.parametrize("factor, verdict", [(1.05, "consistent"), (0.95, "violated")])
def test_report_noisy_max_verdicts_on_the_white_box_route(tmp_path, geometric_truth, factor, verdict):
    _, eps = geometric_truth
    f = module_from_source(tmp_path, f"geo_verdict_{verdict}", GEOMETRIC["comprehension"]).f
    report = audit(f, domain=[0, 1, 2, 3], eps=factor * eps)
    assert report.verdict == verdict
    assert report.route.startswith("white-box")


def test_unexplored_mass_that_may_reach_new_outputs_is_open(tmp_path):
    """The largest *value* of geometric noise can be any integer: its tail is open, so no upper end is claimed
    without declared outputs."""
    src = """
        def f(x, rng):
            counts = [c + (i == x) for i, c in enumerate((3, 2, 2, 1))]
            noisy = [c + rng.geometric(0.5) - rng.geometric(0.5) for c in counts]
            return max(noisy)
        """
    f = module_from_source(tmp_path, "geo_value", src).f
    e = enumerate_channel(f, [0, 1], allow_unexplored=True, max_depth=16)
    assert not e.outputs_known and all(e.unexplored)


# noise added in place to an integer array (numpy's own dtypes: the draws are int64, as numpy's)
IN_PLACE = {
    "augmented": ("""
        import numpy as np
        def f(x, rng):
            u = np.array([2, 1, 1]) + (np.arange(3) == x)
            u += rng.integers(0, 3, size=3)
            return int(np.argmax(u))
        """, 0),
    "out": ("""
        import numpy as np
        def f(x, rng):
            u = np.array([2, 1, 1]) + (np.arange(3) == x)
            np.add(u, rng.integers(0, 3, size=3), out=u)
            return int(np.argmax(u))
        """, 0),
    "geometric": ("""
        import numpy as np
        def f(x, rng):
            u = np.array([2, 1, 1]) + (np.arange(3) == x)
            u -= rng.geometric(1.0, size=3) + rng.binomial(1, 0.5, size=3) * 0
            u += rng.integers(0, 3, size=3)
            return int(np.argmax(u))
        """, -1),
}


def _enumerated(f, plain: bool):
    """The exact channel of ``f`` on 0, 1, 2: factorised where the route can, or (``plain``) draw by draw."""
    with iteration_maps.off() if plain else contextlib.nullcontext():
        return enumerate_channel(f, [0, 1, 2])


@pytest.mark.parametrize("case", sorted(IN_PLACE))
@pytest.mark.parametrize("plain", [False, True])
def test_noise_added_in_place(tmp_path, case, plain):
    """``u += rng.integers(0, 3, size=3)`` on an int64 array works in numpy: enumerated element by element the
    sized draw must be an integer array too (an object array cannot be cast into ``u``), factorised or not."""
    source, shift = IN_PLACE[case]
    f = module_from_source(tmp_path, f"inplace_{case}_{plain}", source).f
    e = _enumerated(f, plain)
    assert e.complete
    assert _rows(e) == _brute(lambda x, z: _first_max([c + shift + n for c, n in zip(_counts(x), z)]), [range(3)] * 3)


class _Fixed:
    """A generator answering ``integers(low, high, size=n)`` with fixed values: the code run with real numpy."""

    def __init__(self, values):
        self.values = list(values)

    def integers(self, low, high, size=None, dtype=None):
        import numpy as np

        n = 1 if size is None else size
        taken, self.values = self.values[:n], self.values[n:]
        assert all(low <= v < high for v in taken)
        drawn = np.array(taken, dtype=np.int64 if dtype is None else dtype)
        return drawn[0] if size is None else drawn


def _brute_numpy(f, draws, domain=(0, 1, 2)):
    """The channel of ``f`` run with real numpy arrays on every combination of its draws (``draws``: per value
    drawn, its equally likely values, in the order drawn)."""
    rows = []
    for x in domain:
        row: dict = {}
        combos = list(itertools.product(*draws))
        for combo in combos:
            y = output_key(f(x, _Fixed(combo)))
            row[y] = row.get(y, 0) + Fraction(1, len(combos))
        rows.append(row)
    return rows


# arrays of draws kept factorised (the path limit lowered) that the code changes in place or meets with
# operators the vector does not keep: numpy's answer on each path
SIZED = {
    # an alias of the array sees the in-place addition
    "alias_iadd": ("""
        import numpy as np
        def f(x, rng):
            u = np.array([2, 1, 1]) + (np.arange(3) == x)
            noise = rng.integers(0, 3, size=3)
            noisy = noise
            noisy += u
            return int(np.argmax(noise))
        """, [range(3)] * 3),
    "alias_isub": ("""
        import numpy as np
        def f(x, rng):
            u = np.array([2, 1, 1]) + (np.arange(3) == x)
            noise = rng.integers(0, 3, size=3)
            kept = [noise]
            noise -= u
            return int(np.argmin(kept[0]))
        """, [range(3)] * 3),
    "alias_imod": ("""
        import numpy as np
        def f(x, rng):
            u = np.array([2, 1, 1]) + (np.arange(3) == x)
            noise = rng.integers(0, 3, size=3) + u
            noisy = noise
            noisy %= 3
            return int(np.argmax(noise))
        """, [range(3)] * 3),
    "out_is_the_draws": ("""
        import numpy as np
        def f(x, rng):
            u = np.array([2, 1, 1]) + (np.arange(3) == x)
            noise = rng.integers(0, 3, size=3)
            np.add(noise, u, out=noise)
            return int(np.argmax(noise))
        """, [range(3)] * 3),
    # a basic slice is a view of the array: changing it changes the array
    "slice_view": ("""
        import numpy as np
        def f(x, rng):
            u = np.array([2, 1, 1]) + (np.arange(3) == x)
            a = rng.integers(0, 3, size=3) + u
            b = a[:]
            b += np.array([0, 2, 0])
            return int(np.argmax(a))
        """, [range(3)] * 3),
    # np.array copies: changing the copy leaves the array as it was
    "array_copies": ("""
        import numpy as np
        def f(x, rng):
            u = np.array([2, 1, 1]) + (np.arange(3) == x)
            a = rng.integers(0, 3, size=3) + u
            b = np.array(a)
            b += np.array([0, 2, 0])
            return int(np.argmax(a))
        """, [range(3)] * 3),
    "mod": ("""
        import numpy as np
        def f(x, rng):
            u = np.array([2, 1, 1]) + (np.arange(3) == x)
            return int(np.argmax((rng.integers(0, 4, size=3) + u) % 3))
        """, [range(4)] * 3),
    "floordiv": ("""
        import numpy as np
        def f(x, rng):
            u = np.array([2, 1, 1]) + (np.arange(3) == x)
            return int(np.argmax((rng.integers(0, 4, size=3) + u) // 2))
        """, [range(4)] * 3),
    "truediv": ("""
        import numpy as np
        def f(x, rng):
            u = np.array([2, 1, 1]) + (np.arange(3) == x)
            return int(np.argmax((rng.integers(0, 4, size=3) + u) / 2))
        """, [range(4)] * 3),
    "abs": ("""
        import numpy as np
        def f(x, rng):
            u = np.array([2, 1, 1]) + (np.arange(3) == x)
            return int(np.argmin(abs(u - 3 + rng.integers(-2, 3, size=3))))
        """, [range(-2, 3)] * 3),
    "pow": ("""
        import numpy as np
        def f(x, rng):
            u = np.array([2, 1, 1]) + (np.arange(3) == x)
            return int(np.argmax((u - 2 + rng.integers(-1, 2, size=3)) ** 2))
        """, [range(-1, 2)] * 3),
}


@pytest.mark.parametrize("case", sorted(SIZED))
def test_arrays_of_draws_meet_numpy_operators_as_numpy_arrays(tmp_path, case, monkeypatch):
    """Against the code run with real numpy arrays on every combination of its draws."""
    from relations.audit import _generator, _independent

    source, draws = SIZED[case]
    f = module_from_source(tmp_path, f"sized_{case}", source).f
    truth = _brute_numpy(f, draws)
    monkeypatch.setattr(_generator, "MAX_PATHS", 8)
    monkeypatch.setattr(_independent, "MAX_PATHS", 8)
    used = iteration_maps.used
    e = enumerate_channel(f, [0, 1, 2])
    assert iteration_maps.used > used, "the factorised route was not taken"
    assert e.complete
    assert _rows(e) == truth


# draws of a narrow dtype wrap around in the code's arithmetic as numpy's do
TYPED = {
    "uint8_array": """
        import numpy as np
        def f(x, rng):
            u = np.array([2, 1, 1], dtype=np.uint8) + (np.arange(3) == x)
            n = rng.integers(0, 3, size=3, dtype=np.uint8)
            return int(np.argmax(n - u))
        """,
    "uint8_scalars": """
        import numpy as np
        def f(x, rng):
            u = [2 + (x == 0), 1 + (x == 1), 1 + (x == 2)]
            noisy = [rng.integers(0, 3, dtype=np.uint8) - c for c in u]
            return int(np.argmax(noisy))
        """,
}


@pytest.mark.parametrize("case", sorted(TYPED))
@pytest.mark.parametrize("plain", [False, True])
def test_draws_of_a_narrow_dtype_wrap_around(tmp_path, case, plain):
    """``rng.integers(0, 3, size=3, dtype=np.uint8)``: against the code run with real numpy on every combination."""
    f = module_from_source(tmp_path, f"typed_{case}_{plain}", TYPED[case]).f
    truth = _brute_numpy(f, [range(3)] * 3)
    e = _enumerated(f, plain)
    assert e.complete
    assert _rows(e) == truth
