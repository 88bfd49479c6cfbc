"""The white-box route runs the code as numpy would: its draws have numpy's own types.

Under enumeration every draw is answered by the audit's generator; when it answered ``rng.integers(2)`` with
a Python ``int`` where numpy returns an ``np.int64`` (or ``rng.choice([1, 2])`` with the list's element where
numpy returns the array's scalar), code whose output depends on the difference (``np.bool_ + np.bool_`` is a
logical or, ``int64`` wraps around, ``repr`` differs) was enumerated as Python would run it, and the "exact"
channel was wrong.  Each channel here is computed a second way: the real function run on a *real* numpy
generator whose every draw is forced, path by path, by numpy's own code (``integers(v, v, endpoint=True)``,
``choice(a, p=one-hot)``), so the values have whatever type numpy gives them; or by hand.
"""

from __future__ import annotations

import json
import operator
import random
import warnings
from fractions import Fraction as F

import numpy as np
import pytest

from relations.audit import audit, exact_channel
from relations.audit._exact import enumerate_channel
from relations.audit._outputs import output_key


class _Forced(np.random.Generator):
    """A real numpy generator whose draws follow ``path`` (one outcome index per draw, 0 past its end); each
    value is made by numpy's own method, forced to one outcome, so its type is numpy's.  ``weights`` collects the
    probability of each outcome taken, ``widths`` the number of outcomes of each draw."""

    def __init__(self, path: list[int]):
        super().__init__(np.random.PCG64(0))
        self.path, self.weights, self.widths = path, [], []

    def _next(self, weights: list[F]) -> int:
        d = len(self.widths)
        k = self.path[d] if d < len(self.path) else 0
        self.widths.append(len(weights))
        self.weights.append(weights[k])
        return k

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        assert size is None
        if high is None:
            low, high = 0, low
        n = int(high) - int(low) + (1 if endpoint else 0)
        v = int(low) + self._next([F(1, n)] * n)
        return super().integers(v, v, dtype=dtype, endpoint=True)

    def choice(self, a, size=None, replace=True, p=None):
        assert size is None
        n = a if isinstance(a, (int, np.integer)) else len(a)
        k = self._next([F(1, n)] * n if p is None else [F(w) for w in p])
        return super().choice(a, p=[1.0 if i == k else 0.0 for i in range(n)])


def _true_channel(fn, domain, *, legacy=False):
    """The channel of ``fn`` run for real on :class:`_Forced` generators, every path (an odometer over the
    draws' outcomes): ``{x: {output key: probability}}``.  With ``legacy``, numpy's global functions
    ``np.random.randint`` / ``choice`` are the forced generator's legacy counterparts instead."""
    table = {}
    for x in domain:
        row: dict = {}
        path: list[int] = []
        while True:
            g = _Forced(path)
            if legacy:
                value = _with_legacy(g, fn, x)
            else:
                value = fn(x, rng=g)
            prob = F(1)
            for w in g.weights:
                prob *= w
            key = output_key(value)
            row[key] = row.get(key, F(0)) + prob
            path = list(path) + [0] * (len(g.widths) - len(path))
            while path and path[-1] + 1 >= g.widths[len(path) - 1]:  # the next path, depth first
                path.pop()
            if not path:
                break
            path[-1] += 1
        table[x] = row
    return table


def _with_legacy(g, fn, x):
    """``fn(x)`` with numpy's legacy ``randint`` and ``choice`` drawing from ``g`` as a ``RandomState`` would:
    the same forced outcome, and the legacy functions' own types (``randint`` without ``dtype`` gives an ``int``,
    ``choice`` of a list the array's scalar), made by a real ``RandomState`` forced to that outcome."""
    state = np.random.RandomState(0)

    def randint(low, high=None, size=None, dtype=int):
        if high is None:
            low, high = 0, low
        v = int(g.integers(low, high))
        return state.randint(v, v + 1, size=size, dtype=dtype)

    def choice(a, size=None, replace=True, p=None):
        v = g.choice(a, p=p)  # its index is forced; RandomState.choice of the same one-hot gives its type
        n = a if isinstance(a, (int, np.integer)) else len(a)
        k = int(v) if isinstance(a, (int, np.integer)) else [i for i in range(n) if np.asarray(a)[i] == v][0]
        return state.choice(a, p=[1.0 if i == k else 0.0 for i in range(n)])

    saved = np.random.randint, np.random.choice
    np.random.randint, np.random.choice = randint, choice
    try:
        return fn(x)
    finally:
        np.random.randint, np.random.choice = saved


def _enumerated(fn, domain, **kw):
    keys, rows, _ = exact_channel(fn, domain, **kw)
    return {x: {k: p for k, p in zip(keys, row) if p} for x, row in zip(domain, rows)}


# --- randomizers whose output depends on the types of numpy's draws -------------------------------------


def lie_by_two_coins(x, rng):
    """Meant: lie when both coins come up 1 (probability 1/4).  ``(a == 1) + (b == 1)`` of two ``np.int64``
    draws is ``np.bool_ + np.bool_``, a logical or: never 2, so it never lies (eps_d infinite)."""
    lie = (rng.integers(0, 2) == 1) + (rng.integers(0, 2) == 1)
    return x if lie < 2 else 1 - x


def flags_sum(x, rng):
    return int((rng.integers(0, 3) < x) + (rng.integers(0, 2) == 0))


def wraps_around(x, rng):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's scalar overflow warns, then wraps
        return int(x + rng.integers(0, 2) * 2**62 * 2)


def python_int_or_not(x, rng):
    v = rng.integers(0, 2)
    return ("int" if type(v) is int else "numpy", isinstance(v, np.integer), int(v) ^ x)


def shown(x, rng):
    return repr(rng.integers(0, 2) + x)


def item_of(x, rng):
    return rng.integers(0, 3).item() + x


def choice_of_bools(x, rng):
    """``rng.choice([True, False])`` is an ``np.bool_``: two of them add as a logical or."""
    return int(rng.choice([True, False]) + rng.choice([True, False])) + 2 * x


def choice_of_floats(x, rng):
    return str(rng.choice([0.5, 1.5], p=[0.25, 0.75]) * 2 + x)


def narrow_dtype(x, rng):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return int(rng.integers(0, 2, dtype=np.uint8) - 1 + x)


def python_dtype(x, rng):
    return type(rng.integers(0, 2, dtype=int)).__name__, type(rng.integers(0, 2, dtype=bool)).__name__, x


def json_encoded(x, rng):
    try:
        return json.dumps({"v": rng.integers(0, 2) + x})
    except TypeError:  # numpy's integers are not JSON
        return "not json"


def divided(x, rng):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            return float(x / rng.choice([0, 1]))  # np.int64(0) divides to inf (numpy warns)
        except ZeroDivisionError:
            return "zero division"


CASES = [lie_by_two_coins, flags_sum, wraps_around, python_int_or_not, shown, item_of, choice_of_bools,
         choice_of_floats, narrow_dtype, python_dtype, json_encoded, divided]


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_the_enumerated_channel_is_the_one_numpy_runs(fn):
    domain = [0, 1, 2]
    assert _enumerated(fn, domain) == _true_channel(fn, domain)


def test_lie_by_two_coins_true_channel_by_hand():
    # the second method checked by hand once: the code never lies under numpy
    assert _true_channel(lie_by_two_coins, [0, 1]) == {0: {0: F(1)}, 1: {1: F(1)}}


def test_a_wrong_consistent_verdict_is_now_violated():
    # Enumerated with Python ints, the code lied with probability 1/4: eps_d = ln 3 "exactly", consistent at
    # ln 3.  As numpy runs it, it never lies: eps_d is infinite.
    report = audit(lie_by_two_coins, domain=[0, 1], eps="ln(3)")
    assert report.route == "white-box"
    assert report.verdict == "violated" and report.measures.eps_d.value == float("inf")


def legacy_bools(x):
    return int(np.random.choice([True, False]) + np.random.choice([True, False])) + 2 * x


def legacy_randint(x):
    return type(np.random.randint(0, 2)).__name__, int(np.random.randint(0, 2) + x)


def legacy_uint8(x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return int(np.random.randint(0, 2, dtype=np.uint8) - 1 + x)


@pytest.mark.parametrize("fn", [legacy_bools, legacy_randint, legacy_uint8], ids=lambda f: f.__name__)
def test_numpy_legacy_functions_have_their_own_types(fn):
    domain = [0, 1]
    assert _enumerated(fn, domain, pass_rng=False) == _true_channel(fn, domain, legacy=True)


def python_random(x):
    v = random.choice([np.int64(1), 2])  # Python's random hands the element itself back
    return type(v).__name__, type(random.randint(0, 1)).__name__, type(random.randrange(3)).__name__, x


def test_python_random_keeps_python_types():
    want = {x: {output_key(("int64", "int", "int", x)): F(1, 2), output_key(("int", "int", "int", x)): F(1, 2)}
            for x in (0, 1)}
    assert _enumerated(python_random, [0, 1], pass_rng=False) == want


# --- uniform draws: a comparison with a numpy number is numpy's bool -------------------------------------


def uniform_flags(x, rng):
    """``rng.random()`` is a Python float; compared with an ``np.float64`` it gives ``np.bool_`` (numpy's
    reflected comparison runs first), and two of those add as a logical or."""
    half = np.float64(0.5)
    return int((rng.random() < half) + (rng.random() < half)) + 2 * x


def scaled_flags(x, rng):
    two = np.float64(2.0)
    return int((rng.random() * two < 1) + (rng.random() * two < 1)) + 2 * x


def python_flags(x, rng):
    return int((rng.random() < 0.5) + (rng.random() < 0.5)) + 2 * x


@pytest.mark.parametrize("fn, values", [(uniform_flags, {1: F(3, 4), 0: F(1, 4)}),
                                        (scaled_flags, {1: F(3, 4), 0: F(1, 4)}),
                                        (python_flags, {0: F(1, 4), 1: F(1, 2), 2: F(1, 4)})],
                         ids=["np.float64 threshold", "np.float64 factor", "Python floats"])
def test_uniform_comparisons_have_numpy_types(fn, values):
    # by hand: each comparison is a fair coin; np.bool_ + np.bool_ is their or, True + True is 2
    want = {x: {v + 2 * x: p for v, p in values.items()} for x in (0, 1)}
    assert _enumerated(fn, [0, 1]) == want
    rng = np.random.default_rng(0)
    for x in (0, 1):  # and the real code gives no value outside those
        assert {fn(x, rng) for _ in range(200)} == set(want[x])


# --- every supported draw: the type (and dtype, shape) numpy gives ----------------------------------------


def _describe(v):
    if isinstance(v, np.ndarray):
        return "ndarray", str(v.dtype), v.shape, sorted({type(e).__name__ for e in v.reshape(-1)})
    return type(v).__name__


DRAWS = {
    "integers(5)": lambda r: r.integers(5),
    "integers(1, 4)": lambda r: r.integers(1, 4),
    "integers(0, 3, endpoint=True)": lambda r: r.integers(0, 3, endpoint=True),
    "integers(np.int64(5))": lambda r: r.integers(np.int64(5)),
    "integers(5, dtype=int)": lambda r: r.integers(5, dtype=int),
    "integers(2, dtype=bool)": lambda r: r.integers(2, dtype=bool),
    "integers(2, dtype=np.bool_)": lambda r: r.integers(2, dtype=np.bool_),
    "integers(5, dtype='int64')": lambda r: r.integers(5, dtype="int64"),
    "integers(5, dtype=np.int32)": lambda r: r.integers(5, dtype=np.int32),
    "integers(5, dtype=np.uint8)": lambda r: r.integers(5, dtype=np.uint8),
    "integers(5, size=3)": lambda r: r.integers(5, size=3),
    "integers(5, size=(2, 1))": lambda r: r.integers(5, size=(2, 1)),
    "integers(5, size=2, dtype=np.int32)": lambda r: r.integers(5, size=2, dtype=np.int32),
    "integers(2, size=2, dtype=bool)": lambda r: r.integers(2, size=2, dtype=bool),
    "choice(5)": lambda r: r.choice(5),
    "choice(5, p=...)": lambda r: r.choice(5, p=[0.25, 0.25, 0.25, 0.125, 0.125]),
    "choice([1, 2])": lambda r: r.choice([1, 2]),
    "choice((1, 2))": lambda r: r.choice((1, 2)),
    "choice([1.0, 2.0])": lambda r: r.choice([1.0, 2.0]),
    "choice([True, False])": lambda r: r.choice([True, False]),
    "choice(['a', 'b'])": lambda r: r.choice(["a", "b"]),
    "choice([1, 'a'])": lambda r: r.choice([1, "a"]),
    "choice(range(3))": lambda r: r.choice(range(3)),
    "choice(np.arange(3, dtype=np.int8))": lambda r: r.choice(np.arange(3, dtype=np.int8)),
    "choice([[1, 2], [3, 4]])": lambda r: r.choice([[1, 2], [3, 4]]),
    "choice([1, 2], p=[.5, .5])": lambda r: r.choice([1, 2], p=[0.5, 0.5]),
    "choice(5, size=2)": lambda r: r.choice(5, size=2),
    "choice([1, 2], size=2)": lambda r: r.choice([1, 2], size=2),
    "choice(['a', 'b'], size=2)": lambda r: r.choice(["a", "b"], size=2),
    "choice(3, size=2, replace=False)": lambda r: r.choice(3, size=2, replace=False),
    "choice([1.0, 2.0], size=2, replace=False)": lambda r: r.choice([1.0, 2.0], size=2, replace=False),
    "choice([1, 2], replace=False)": lambda r: r.choice([1, 2], replace=False),
    "permutation(3)": lambda r: r.permutation(3),
    "permutation([1, 2])": lambda r: r.permutation([1, 2]),
    "permutation(['a', 'b'])": lambda r: r.permutation(["a", "b"]),
    "permutation(np.arange(3, dtype=np.int8))": lambda r: r.permutation(np.arange(3, dtype=np.int8)),
    "binomial(1, 0.5)": lambda r: r.binomial(1, 0.5),
    "binomial(3, 0.5)": lambda r: r.binomial(3, 0.5),
    "binomial(3, 0.5, size=2)": lambda r: r.binomial(3, 0.5, size=2),
    "geometric(0.5)": lambda r: r.geometric(0.5),
    "geometric(1.0)": lambda r: r.geometric(1.0),
    "geometric(0.5, size=2)": lambda r: r.geometric(0.5, size=2),
    "random() < 0.5": lambda r: r.random() < 0.5,
    "random() < np.float64(0.5)": lambda r: r.random() < np.float64(0.5),
    "np.float64(0.5) > random()": lambda r: np.float64(0.5) > r.random(),
    "random() * 2 < 1": lambda r: r.random() * 2 < 1,
    "random() * np.float64(2) < 1": lambda r: r.random() * np.float64(2) < 1,
    "random() + np.int64(1) < 1.5": lambda r: r.random() + np.int64(1) < 1.5,
    "uniform(0, 2) < 1": lambda r: r.uniform(0, 2) < 1,
    "uniform(0, 2) < np.float64(1)": lambda r: r.uniform(0, 2) < np.float64(1),
    "uniform(np.float64(0), 2) < 1": lambda r: r.uniform(np.float64(0), 2) < 1,
}


@pytest.mark.parametrize("name", list(DRAWS))
def test_each_draw_has_numpy_type(name):
    draw = DRAWS[name]
    want = _describe(draw(np.random.default_rng(0)))

    def described(x, rng):
        return repr(_describe(draw(rng)))

    e = enumerate_channel(described, [0], max_depth=6, allow_unexplored=True)  # (geometric: cut at 6 draws)
    assert set(e.outputs) == {repr(want)}


LEGACY = {
    "randint(5)": lambda: np.random.randint(5),
    "randint(5, dtype=np.int64)": lambda: np.random.randint(5, dtype=np.int64),
    "randint(5, dtype=np.uint8)": lambda: np.random.randint(5, dtype=np.uint8),
    "randint(2, dtype=bool)": lambda: np.random.randint(2, dtype=bool),
    "randint(5, size=2)": lambda: np.random.randint(5, size=2),
    "choice(5)": lambda: np.random.choice(5),
    "choice([1, 2])": lambda: np.random.choice([1, 2]),
    "choice([True, False])": lambda: np.random.choice([True, False]),
    "choice(['a', 'b'], size=2)": lambda: np.random.choice(["a", "b"], size=2),
    "binomial(1, 0.5)": lambda: np.random.binomial(1, 0.5),
    "permutation(3)": lambda: np.random.permutation(3),
    "random() < np.float64(0.5)": lambda: np.random.random() < np.float64(0.5),
    "RandomState().randint(5)": lambda: np.random.RandomState().randint(5),
    "RandomState().choice([1, 2])": lambda: np.random.RandomState().choice([1, 2]),
}


@pytest.mark.parametrize("name", list(LEGACY))
def test_each_legacy_draw_has_numpy_type(name):
    draw = LEGACY[name]
    want = _describe(draw())

    def described(x):
        return repr(_describe(draw()))

    keys, _, _ = exact_channel(described, [0], pass_rng=False)
    assert set(keys) == {repr(want)}


# --- lists of noisy counts kept factorised (report-noisy-max): their elements have the code's types --------


def _score(x, r):
    return x * (r == 0)


def rnm_largest_value(x, rng):
    counts = [x, 1, 0]
    noisy = [c + rng.integers(0, 3) for c in counts]  # int + np.int64: each element an np.int64
    return repr(max(noisy))


def rnm_scored(x, rng):
    noisy = [_score(x, r) + rng.integers(0, 2) for r in range(3)]
    return repr(max(noisy)), int(np.argmax([1, 0]))


def rnm_shown(x, rng):
    counts = [x, 1]
    noisy = [c + rng.integers(0, 2) for c in counts]
    return str(noisy)


def rnm_python_ints(x, rng):
    counts = [x, 1, 0]
    noisy = [int(c + rng.integers(0, 3)) for c in counts]  # int(...): Python ints
    return repr(max(noisy))


@pytest.mark.parametrize("fn", [rnm_largest_value, rnm_scored, rnm_shown, rnm_python_ints],
                         ids=lambda f: f.__name__)
def test_noisy_lists_have_the_element_types_of_the_code(fn):
    domain = [0, 1]
    assert _enumerated(fn, domain) == _true_channel(fn, domain)


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
@pytest.mark.parametrize("side", ["draw left", "draw right"])
def test_a_float32_threshold_is_compared_as_numpy_compares(op, side):
    # numpy 2 casts the Python float u to float32 (rounded to nearest) when it meets a float32 (NEP 50): u < t
    # holds below the midpoint of t and the float32 below it, u <= t below the midpoint with the one above.
    # By hand, at t = 0.75 (float32 spacing 2^-24 there), checked on real floats either side of the midpoint.
    t = np.float32(0.75)
    rounds = not 0.99999998 < np.float32(1.0)
    half = F(1, 2**25) if rounds else F(0)
    cut = F(3, 4) + (half if op in ("<=", ">") else -half)
    below = op in ("<", "<=")
    for u in (float(cut) - 2**-50, float(cut) + 2**-50):  # the real comparison flips at the cut
        real = _OPS[op](u, t) if side == "draw left" else _OPS[_flip(op)](t, u)
        assert bool(real) == ((u < cut) == below)

    def fn(x, rng):
        u = rng.random()
        return (_OPS[op](u, t) if side == "draw left" else _OPS[_flip(op)](t, u)), x

    got = _enumerated(fn, [0])[0]
    p_true = cut if below else 1 - cut
    assert got == {output_key((np.True_, 0)): p_true, output_key((np.False_, 0)): 1 - p_true}


_OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _flip(op):
    return {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]


@pytest.mark.parametrize("p", [[0.5, 0.6], [0.5, 0.5 + 2e-8], [1.5, -0.5], [0.5]])
def test_probabilities_numpy_refuses_are_refused(p):
    # numpy raises for these (checked here on real numpy): the enumeration raises as the code would
    with pytest.raises(ValueError):
        np.random.default_rng(0).choice(2, p=p)
    with pytest.raises(ValueError):
        exact_channel(lambda x, rng: rng.choice(2, p=p), [0])


def test_probabilities_within_numpy_tolerance_are_taken():
    p = [0.5, 0.5 + 1e-9]
    np.random.default_rng(0).choice(2, p=p)  # numpy accepts them
    assert len(exact_channel(lambda x, rng: rng.choice(2, p=p), [0])[0]) == 2


def test_integers_of_array_bounds_are_not_enumerated():
    from relations.audit import NotEnumerable

    with pytest.raises(NotEnumerable):
        exact_channel(lambda x, rng: tuple(rng.integers([0, 1], [2, 3])), [0])


# --- a uniform draw is a float to the code; its digits are not enumerable --------------------------------


def test_a_uniform_draw_is_a_float_to_isinstance():
    def fn(x, rng):
        u, v = rng.random(), rng.random() * np.float64(2)
        return (isinstance(u, float), isinstance(u, np.float64), isinstance(v, np.float64), u.__class__.__name__, x)

    rng = np.random.default_rng(0)
    want = {x: {output_key(fn(x, rng)): F(1)} for x in (0, 1)}  # the real code's answer: one output per input
    assert _enumerated(fn, [0, 1]) == want


@pytest.mark.parametrize("show", [str, repr, lambda u: f"{u:.3f}", lambda u: u.hex(), lambda u: u.as_integer_ratio()],
                         ids=["str", "repr", "format", "hex", "as_integer_ratio"])
def test_the_digits_of_a_uniform_draw_are_not_enumerated(show):
    # They were an output ('UniformDraw(...' from the dataclass's repr): a wrong exact channel of two outputs
    from relations.audit import NotEnumerable

    with pytest.raises(NotEnumerable):
        exact_channel(lambda x, rng: (rng.random() < 0.5, show(rng.random())), [0])


@pytest.mark.parametrize("bounds", [(2**63, 2**63 + 2), (-(2**63) - 1, 0), (0, 2**63 + 1)])
def test_integers_out_of_int64_raise_as_numpy(bounds):
    with pytest.raises(ValueError):
        np.random.default_rng(0).integers(*bounds)
    with pytest.raises(ValueError):
        exact_channel(lambda x, rng: rng.integers(*bounds), [0])


def test_integers_at_the_ends_of_int64_are_numpy_s():
    def fn(x, rng):
        return repr(rng.integers(2**63 - 2, 2**63 - 1, endpoint=True))

    rng = np.random.default_rng(0)
    want = {fn(0, rng) for _ in range(64)}  # both values, as numpy's reprs
    assert set(_enumerated(fn, [0])[0]) == want


def test_python_random_keeps_big_integers():
    assert set(_enumerated(lambda x: random.randrange(2**70, 2**70 + 2), [0], pass_rng=False)[0]) == {2**70, 2**70 + 1}
