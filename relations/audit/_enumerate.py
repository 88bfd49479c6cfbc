"""The exact channel of a randomizer written in code, by enumerating every random choice it makes.

A randomizer is a Python function ``fn(x)`` or ``fn(x, rng=...)``.  :func:`exact_channel`
runs it once per *path* through its random choices: the random source handed to it
(:class:`~relations.audit._generator.EnumeratingGenerator`, a stand-in for ``numpy.random.Generator``) answers each
draw with one of its finitely many outcomes, and the runs are replayed depth first until
every combination of outcomes has been tried.  Each path is weighted by the exact
product of its choices' probabilities, so the result is the channel the code
implements, in rationals, with no sampling: a bug that fires with probability
``1e-9`` is found with certainty.

Finite draws are enumerated outcome by outcome: ``integers``, ``choice`` (uniform or
with probabilities ``p``), ``permutation``, ``shuffle``, ``binomial``.  A uniform float
(``random()``) is kept *symbolic*: it is an interval ``[lo, hi)`` of ``[0, 1)``, and each
comparison with a number ``t`` (``u < t``, ``u >= t``, ...) splits the path in two with
weights ``(t - lo) / (hi - lo)`` and ``(hi - t) / (hi - lo)``, so Bernoulli draws
written as ``rng.random() < p`` are exact for every float ``p`` (taken at its exact
binary value); so are comparisons of a scaled draw ``c * u`` (``rng.random() * C < t``).
Any other use of such a float (sums, ``float()``, ``log``) is refused with
:class:`NotEnumerable`: the white-box route does not apply and sampling must be used.

Limits: at most ``max_paths`` runs (default :data:`MAX_PATHS`),
``max_outcomes`` outcomes per finite draw (default :data:`MAX_OUTCOMES`) and
``max_depth`` draws along one path (default :data:`MAX_DEPTH`), checked as they are met.  A path
that reaches the depth (a loop on draws) is not followed further: its probability is carried as the
input's *unexplored mass*, so every entry of its row is known within that mass, never "exactly".
"""

from __future__ import annotations

import math
import sys
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["MAX_PATHS", "MAX_DEPTH", "FIRST_DEPTH", "MAX_DEEPENING", "DEEPENING_WORK", "next_depth", "MAX_OUTCOMES", "Truncated", "THRESHOLD_ROUNDING", "NotEnumerable", "HiddenRandomness",
           "Replay", "FRESH", "Jump", "uniform_weights", "exact_threshold", "float_radius", "NUMPY_COMPARISONS", "UniformDraw",
           "ScaledDraw"]

#: Relative rounding assumed for a float threshold or weight the code uses (``2**-42``, the
#: same as :data:`relations.model.FLOAT_ROUNDING`; kept here so that this module runs in a
#: worker interpreter without the rest of the package).
THRESHOLD_ROUNDING = 2.0**-42

#: Most runs of the randomizer one enumeration may make.
MAX_PATHS = 1_000_000
#: Most draws along one path: a loop on draws (rejection sampling, a geometric built from coin flips) is
#: followed this deep, and the probability of the paths beyond is carried as unexplored mass.
MAX_DEPTH = 128
#: Depth of the first level of a loop on draws in the audit (:func:`~relations.audit._exact.deepening`): a loop
#: whose states repeat is cut at every repeated state, so its paths are short and a shallow level often decides;
#: the levels then go deeper (:func:`next_depth`).  A level that fails outright (not a loop: a vector of bits read past
#: the depth) is run again at :data:`MAX_DEPTH`.
FIRST_DEPTH = 32
#: Deepest a loop on draws is followed: when the bound at one depth decides nothing, the next level goes deeper
#: (:func:`next_depth`) up to this depth.
MAX_DEEPENING = 1024
#: Work a deeper level of a loop may take, in draws replayed (its predicted paths times its depth).
DEEPENING_WORK = 4_000_000


def next_depth(depth: int, runs: int, last: tuple[int, int] | None = None) -> int | None:
    """The depth of the next level after one of ``runs`` paths cut at ``depth`` draws, or ``None`` to stop.

    The paths of a loop grow with the depth, slowly for a loop of coin flips (linearly), fast for loops within
    loops (the Canonne-Kamath-Steinke samplers: about twice the paths per 8 draws), so the step is chosen from
    the growth seen: after the first level the next is a quarter deeper (``last`` is ``None``: the growth is not
    known yet); then, with ``last = (depth0, runs0)`` the level before, the paths are predicted to grow by
    ``(runs / runs0) ** (1 / (depth - depth0))`` per draw, and the next level is the deepest of twice, one and a
    half and one and a quarter the depth (at least 8 draws more) whose predicted work, paths times depth, stays
    within :data:`DEEPENING_WORK`; never past :data:`MAX_DEEPENING`.  A count, not a clock, so that the same
    audit goes as deep on any machine (the time budget still stops a level).

    Examples
    --------
    >>> next_depth(32, 1000), next_depth(40, 1250, (32, 1000)), next_depth(40, 26000, (32, 12700))
    (40, 80, 50)
    >>> next_depth(1024, 1, (512, 1)), next_depth(40, 10**6, (32, 10**5))
    (None, None)
    """
    if depth >= MAX_DEEPENING:
        return None
    steps = [max(depth + 8, depth + depth // 4)] if last is None else [2 * depth, depth + depth // 2,
                                                                         max(depth + 8, depth + depth // 4)]
    d0, r0 = last if last is not None else (depth, runs)
    rate = math.log(max(runs, 1) / max(r0, 1)) / (depth - d0) if depth > d0 else 0.0  # log-growth per draw
    for d in steps:
        d = min(d, MAX_DEEPENING)
        paths = runs * max(math.exp(min(rate * (d - depth), 700.0)), d / depth)
        if paths * d <= DEEPENING_WORK:
            return d
    return None


#: Most outcomes one finite draw may have.
MAX_OUTCOMES = 100_000


class NotEnumerable(Exception):
    """The randomizer uses its randomness in a way that cannot be enumerated exactly."""


class Truncated(BaseException):
    """A path reached :data:`MAX_DEPTH` draws (a ``BaseException``, so that the code's own
    ``except Exception`` cannot swallow it and loop on)."""


class HiddenRandomness(NotEnumerable):
    """The randomizer draws from a source the audit does not control (operating-system entropy, a generator
    built before the run, native code): sampling it cannot be reproduced from the audit's seed."""


class Jump(BaseException):
    """A path reached a draw in a state seen before (:class:`Replay` with a ``snapshot``): its continuation is
    that of the earlier node, so the path is cut there (a ``BaseException``, like :class:`Truncated`)."""

    def __init__(self, state: int):
        super().__init__(state)
        self.state = state


_UNIFORM: dict[int, tuple[Fraction, ...]] = {}


def uniform_weights(n: int) -> tuple[Fraction, ...]:
    """``n`` equal weights ``1/n``, shared (a draw of ``integers(0, n)`` asks for them on every path).

    Examples
    --------
    >>> uniform_weights(3) is uniform_weights(3), uniform_weights(2)
    (True, (Fraction(1, 2), Fraction(1, 2)))
    """
    w = _UNIFORM.get(n)
    if w is None:
        w = tuple([Fraction(1, n)] * n)
        if len(_UNIFORM) < 4096:
            _UNIFORM[n] = w
    return w


#: :meth:`Replay.replayed`'s answer when the draw must be worked out.
FRESH = object()


class Replay:
    """Depth-first replay of the decision tree: forced choices, then first choices recorded.

    ``prefix[d]`` is the probability of the path's first ``d`` choices, kept from one path to the next for the
    prefix they share.  With a ``snapshot`` (a function returning a key for the state of the program at a draw,
    or ``None`` where it cannot be told), each new node's key is recorded in ``states`` (key to its number); a
    node whose key was recorded before ends the path with :class:`Jump` (its continuation is known), and
    ``keys[d]`` is the number of the state of the path's ``d``-th node, or -1."""

    def __init__(self, max_outcomes: int, max_depth: int | None = None, snapshot: Any = None):
        self.max_depth = MAX_DEPTH if max_depth is None else max_depth
        self.forced: list[int] = []
        self.trail: list[tuple[int, Sequence[Fraction]]] = []  # (choice taken, weights of all choices)
        self.prefix: list[Fraction] = [Fraction(1)]
        self.radius = 1.0  # product of (1 + relative rounding) of the choices on this path
        self.max_outcomes = max_outcomes
        self.snapshot = snapshot
        self.states: dict[Hashable, int] = {}
        self.node_prob: list[Fraction] = []  # each numbered node's probability, radius and parent (-1: none)
        self.node_radius: list[float] = []
        self.node_parent: list[int] = []
        self.node_depth: list[int] = []  # a state first met deep has a shallower continuation than the same state
        # met nearer the root (the depth cuts it sooner): a path jumps only to a node at its depth or above, and
        # a shallower visit is followed afresh and becomes the node later paths jump to
        self.keys: list[int] = []  # the numbers of the nodes on the current path
        # mass missing from choices whose weights are lower bounds, all of it going to branches that are followed
        # (the index of the largest of independent draws, relations.audit._independent): unexplored, but confined
        self.confined = Fraction(0)
        # the integer draws of this path (:meth:`replayed`): (draws before it, its value, its trail entry or None)
        self.calls: list[tuple[int, Any, tuple[int, Sequence[Fraction]] | None]] = []
        self.memo: list[tuple[int, Any, tuple[int, Sequence[Fraction]] | None]] = []  # those of the last path
        self.memo_len = 0  # how many of them the path replays unchanged: those before its new choice
        self.before = 0  # the draws on the path when the integer draw being worked out began

    def replayed(self) -> Any:
        """The value of the next integer draw of the path when it lies on the prefix the path shares with the last
        one (the same state, the same call, the same choice: its value and weights as then), else :data:`FRESH`.

        A path replays its prefix from the start; the code is deterministic given its draws (the first path of an
        input is replayed to check it, :data:`~relations.audit._exact.REPLAYS`), so each integer draw of the
        shared prefix hands back its value of the last path instead of being worked out again (which outcomes
        the code compares, their weights), the discrete Gaussian's paths replaying 32 draws to make one."""
        calls = self.calls
        i = len(calls)
        if i >= self.memo_len:
            return FRESH
        entry = self.memo[i]
        if entry[0] != len(self.trail):  # (never: the prefix is replayed as it was)
            self.memo_len = 0
            return FRESH
        if entry[2] is not None:
            self.trail.append(entry[2])
        calls.append(entry)
        return entry[1]

    def record(self, value: Any) -> Any:
        """Note an integer draw worked out in full (:meth:`replayed`), made with :attr:`before` draws on the path:
        its value ``value``."""
        trail, before = self.trail, self.before
        self.calls.append((before, value, trail[-1] if len(trail) > before else None))
        return value

    def decide(self, weights: Sequence[Fraction], radii: Sequence[float] | None = None) -> int:
        """Pick a branch among ``weights`` (exact, summing to 1; zero-weight branches skipped).

        ``radii[i]`` is the relative rounding of branch ``i``'s weight (floats in the code)."""
        if len(weights) > self.max_outcomes:
            raise NotEnumerable(f"a draw with {len(weights)} outcomes exceeds the limit of {self.max_outcomes}")
        trail = self.trail
        depth = len(trail)
        if depth >= self.max_depth:
            raise Truncated()
        if depth < len(self.forced):
            choice = self.forced[depth]
        else:
            if self.snapshot is not None:
                self._record(depth)
            choice = _first(weights)
        trail.append((choice, weights))
        if len(self.prefix) <= depth + 1:
            self.prefix.append(self.prefix[depth] * weights[choice])
        if radii is not None:
            self.radius *= 1 + radii[choice]
        return choice

    def _record(self, depth: int) -> None:
        """Number a new node and record its state, or end the path at a state seen before (:class:`Jump`)."""
        key = self.snapshot()
        if key is not None:
            seen = self.states.get(key)
            if seen is not None and self.node_depth[seen] <= depth:  # its continuation was followed as deep
                raise Jump(seen)
        number = len(self.node_prob)
        if key is not None:
            self.states[key] = number
        self.node_prob.append(self.prefix[depth])
        self.node_radius.append(self.radius)
        self.node_parent.append(self.keys[depth - 1] if depth else -1)
        self.node_depth.append(depth)
        self.keys.append(number)

    def probability(self) -> Fraction:
        return self.prefix[len(self.trail)]

    def advance(self) -> bool:
        """Move to the next path; False when every path has been run."""
        trail = self.trail
        while trail:
            choice, weights = trail[-1]
            nxt = _after(choice, weights)
            if nxt is not None:
                d = len(trail) - 1
                self.forced = [c for c, _ in trail[:-1]] + [nxt]
                if weights[nxt] is weights[choice]:  # a uniform draw's next outcome: the same probability
                    del self.prefix[d + 2:]
                else:
                    del self.prefix[d + 1:]
                    self.prefix.append(self.prefix[d] * weights[nxt])
                self.trail = []
                self.radius = 1.0
                del self.keys[d + 1:]
                calls = self.calls  # the integer draws made before the new choice are replayed as they were
                self.memo, self.calls = calls, []
                n = 0
                while n < len(calls) and calls[n][0] < d:
                    n += 1
                self.memo_len = n
                return True
            trail.pop()
        return False


def _first(weights: Sequence[Fraction]) -> int:
    """The branch a new node takes first: of two, the likelier (so that the walk meets a loop's states first
    near the root, where their continuations are followed deepest); of more, the first with a weight."""
    if len(weights) == 2 and _likelier(weights):
        return 1
    return 0 if weights[0] else next(i for i, w in enumerate(weights) if w)  # (weights are never negative)


def _likelier(weights: Sequence[Fraction]) -> bool:
    """Whether the second of two weights is the larger (on integers: a node's order is asked on every path)."""
    a, b = weights
    return b.numerator * a.denominator > a.numerator * b.denominator


def _after(choice: int, weights: Sequence[Fraction]) -> int | None:
    """The branch taken after ``choice`` at a node (:func:`_first`'s order), or ``None``."""
    if len(weights) == 2 and _likelier(weights):
        return 0 if choice == 1 and weights[0] else None
    for i in range(choice + 1, len(weights)):
        if weights[i]:
            return i
    return None


_THRESHOLDS: dict[float, tuple[Fraction, float]] = {}


def exact_threshold(value: Any) -> tuple[Fraction, float]:
    """A threshold's exact value and its absolute rounding (0 for ints and Fractions)."""
    if type(value) is float:  # the common case, remembered (every path compares with the same few floats)
        known = _THRESHOLDS.get(value)
        if known is None and value == value:
            known = (Fraction(value), THRESHOLD_ROUNDING * abs(value))
            if len(_THRESHOLDS) < 65536:
                _THRESHOLDS[value] = known
        if known is not None:
            return known
    if isinstance(value, (UniformDraw, ScaledDraw)):
        raise NotEnumerable("a uniform draw compared with or combined with another uniform draw")
    if isinstance(value, _Rounded):
        return value.value, value.err
    if hasattr(value, "item") and not isinstance(value, (int, float, Fraction)):  # numpy scalars: np.float32 too
        value = value.item()
    try:
        q = Fraction(value)
    except (TypeError, ValueError):
        raise NotEnumerable(f"cannot compare a uniform draw with {value!r}") from None
    return q, (0.0 if isinstance(value, (int, Fraction)) else THRESHOLD_ROUNDING * abs(float(q)))


def float_radius(values: Sequence[Any]) -> float:
    """Relative rounding of weights given as numbers: 0 when all are exact."""
    return 0.0 if all(isinstance(v, (int, Fraction)) for v in values) else 2 * THRESHOLD_ROUNDING


def _numpy_operand(value: Any, compared: bool = False) -> bool:
    """Whether ``value`` is a numpy scalar or array, with which a Python float (a uniform draw: numpy's
    ``Generator.random()`` is one) computes in numpy's types: ``u < np.float64(p)`` is an ``np.bool_`` (numpy's
    reflected comparison runs first) and ``u * np.float64(c)`` an ``np.float64``.  Arithmetic with a float of
    another precision (``u * np.float32(c)``: the product rounded to it) is refused; a comparison with one
    (``compared``) is :func:`_narrow`'s.

    Examples
    --------
    >>> import numpy as np
    >>> _numpy_operand(0.5), _numpy_operand(np.float64(0.5)), _numpy_operand(np.int64(1))
    (False, True, True)
    """
    kind = type(value)
    if kind is float or kind is int or kind is Fraction:
        return False
    numpy = sys.modules.get("numpy")
    if numpy is None or not isinstance(value, (numpy.generic, numpy.ndarray)):
        return False
    if value.dtype.kind in "fc" and value.dtype != numpy.float64 and not compared:
        raise NotEnumerable(f"arithmetic of a uniform draw with a numpy {value.dtype} (numpy rounds the result to it)")
    return True


_ROUNDS_TO_NARROW: list[bool] = []


def _narrow(t: Any, inclusive: bool) -> Any:
    """The threshold a Python float ``u`` (a uniform draw) is compared with, for ``u < t`` (``u <= t`` when
    ``inclusive``) with ``t`` a numpy float narrower than float64 (``np.float32``): numpy 2 compares in ``t``'s
    type (NEP 50: a Python float is cast to it, rounded to nearest), so ``u < t`` is ``u`` below the midpoint
    between ``t`` and the value of its type just below (``u <= t``: just above), ties on a null set; numpy 1
    compared in float64, at ``t``'s binary value (which numpy this is, is asked of numpy once).  A float64 or
    wider ``t`` (``np.longdouble``: ``u`` converts exactly) is itself."""
    numpy = sys.modules.get("numpy")
    if numpy is None or not isinstance(t, numpy.floating) or t.dtype.itemsize >= 8:
        return t
    if not _ROUNDS_TO_NARROW:
        _ROUNDS_TO_NARROW.append(not bool(numpy.float32(1.0) > 0.99999998))  # 1 - 2^-26: 1.0 in float32
    if not _ROUNDS_TO_NARROW[0] or not numpy.isfinite(t):
        return t
    other = numpy.nextafter(t, t.dtype.type(numpy.inf if inclusive else -numpy.inf))
    if not numpy.isfinite(other):
        return t
    middle = (Fraction(float(t)) + Fraction(float(other))) / 2
    return _Rounded(middle, THRESHOLD_ROUNDING * abs(float(middle)))


def _typed(result: bool, numpy: bool) -> Any:
    """A comparison's answer as numpy gives it: ``np.bool_`` when ``numpy`` (a numpy operand), else ``bool``."""
    if numpy:
        return sys.modules["numpy"].bool_(result)
    return result


_FRESH: dict[tuple[Fraction, float], tuple[tuple[Fraction, Fraction], tuple[float, float] | None]] = {}
_FRESH_FRACTION: dict[tuple[int, int], tuple[Fraction, Fraction]] = {}
_FRESH_FLOAT: dict[float, tuple[Fraction, float, tuple[tuple[Fraction, Fraction], tuple[float, float] | None]]] = {}


def _float_attribute(kind: type, name: str) -> Any:
    """An attribute of a uniform draw that is none of its own: one the float it stands for (``kind``) has is not
    enumerable (``as_integer_ratio``, ``hex``, ``item``: they read its value); any other is missing, as on the
    float (``AttributeError``, so that ``getattr(u, name, default)`` answers as it would)."""
    if not name.startswith("__") and hasattr(kind(0.5), name):
        raise NotEnumerable(f"the attribute '{name}' of a uniform draw")
    raise AttributeError(name)


def _rebuilt(cls: type, state: dict) -> Any:
    """A uniform draw made again from its fields (:meth:`UniformDraw.__reduce__`)."""
    obj: Any = object.__new__(cls)
    obj.__dict__.update(state)
    return obj


def _digits(*args: Any) -> Any:
    raise NotEnumerable("the digits of a uniform draw (str, repr, format: a continuous value) are not enumerable")


@dataclass(eq=False)
class UniformDraw:
    """A uniform float on ``[lo, hi)``, narrowed by the comparisons the randomizer makes with it."""

    replay: Replay
    lo: Fraction = Fraction(0)
    hi: Fraction = Fraction(1)
    lo_err: float = 0.0  # absolute rounding of the thresholds lo and hi came from
    hi_err: float = 0.0
    fresh: bool = True  # [0, 1) as drawn, not narrowed yet (lo, hi and their roundings as above)

    def _below(self, t: Any) -> bool:
        """Branch on ``u < t``: True with probability ``(t - lo)/(hi - lo)`` (clipped)."""
        if type(t) is float and self.fresh:  # the common case (rng.random() < p), its weights remembered by p
            known = _FRESH_FLOAT.get(t)
            if known is None:
                q, err = exact_threshold(t)
                if not 0 < q < 1:
                    return self.below(q, err)
                if len(_FRESH_FLOAT) > 4096:
                    _FRESH_FLOAT.clear()
                known = _FRESH_FLOAT[t] = (q, err, ((q, 1 - q), None if not err else (err / float(q),
                                                                                    err / float(1 - q))))
            q, err, branches = known
            self.fresh = False
            if self.replay.decide(*branches) == 0:
                self.hi, self.hi_err = q, err
                return True
            self.lo, self.lo_err = q, err
            return False
        if type(t) is Fraction and self.fresh:  # rng.random() < Fraction(1, 2): exact, its weights remembered by
            key = (t.numerator, t.denominator)  # its numerator and denominator (a Fraction's own hash is slow)
            exact = _FRESH_FRACTION.get(key)
            if exact is None:
                if not 0 < t < 1:
                    return self.below(t, 0.0)
                if len(_FRESH_FRACTION) > 4096:
                    _FRESH_FRACTION.clear()
                exact = _FRESH_FRACTION[key] = (t, 1 - t)
            self.fresh = False
            if self.replay.decide(exact) == 0:
                self.hi, self.hi_err = exact[0], 0.0
                return True
            self.lo, self.lo_err = exact[0], 0.0
            return False
        return self.below(*exact_threshold(t))

    def below(self, t: Fraction, err: float) -> bool:
        """Branch on ``u < t`` for an exact ``t`` with absolute rounding ``err``."""
        if self.fresh and 0 < t < 1:  # a fresh draw
            key = (t, err)
            known = _FRESH.get(key)
            if known is None:
                known = _FRESH[key] = ((t, 1 - t), None if not err else (err / float(t), err / float(1 - t)))
                if len(_FRESH) > 4096:
                    _FRESH.clear()
            self.fresh = False
            if self.replay.decide(*known) == 0:
                self.hi, self.hi_err = t, err
                return True
            self.lo, self.lo_err = t, err
            return False
        self.fresh = False
        if t <= self.lo:
            t, err = self.lo, self.lo_err
        elif t >= self.hi:
            t, err = self.hi, self.hi_err
        width = self.hi - self.lo
        p_below = (t - self.lo) / width
        radii = None
        if err or self.lo_err or self.hi_err:
            whole = (self.lo_err + self.hi_err) / float(width)
            radii = [(err + self.lo_err) / float(t - self.lo) + whole if t > self.lo else 0.0,
                     (err + self.hi_err) / float(self.hi - t) + whole if t < self.hi else 0.0]
        choice = self.replay.decide([p_below, 1 - p_below], radii)
        if choice == 0:
            self.hi, self.hi_err = t, err
            return True
        self.lo, self.lo_err = t, err
        return False

    def _affine(self) -> ScaledDraw:
        return ScaledDraw(self, Fraction(1), 0.0)

    def __mul__(self, c: Any) -> ScaledDraw:
        return self._affine() * c

    __rmul__ = __mul__

    def __truediv__(self, c: Any) -> ScaledDraw:
        return self._affine() / c

    def __add__(self, c: Any) -> ScaledDraw:
        return self._affine() + c

    __radd__ = __add__

    def __sub__(self, c: Any) -> ScaledDraw:
        return self._affine() - c

    def __rsub__(self, c: Any) -> ScaledDraw:
        return self._affine().__rsub__(c)

    def __neg__(self) -> ScaledDraw:
        return self._affine() * -1

    def __lt__(self, t: Any) -> Any:
        if type(t) is float:
            return self._below(t)
        return _typed(self._below(_narrow(t, False)), _numpy_operand(t, True))

    def __ge__(self, t: Any) -> Any:
        if type(t) is float:
            return not self._below(t)
        return _typed(not self._below(_narrow(t, False)), _numpy_operand(t, True))

    def __le__(self, t: Any) -> Any:  # u <= t and u < t differ on a null set (but for a narrow numpy float)
        if type(t) is float:
            return self._below(t)
        return _typed(self._below(_narrow(t, True)), _numpy_operand(t, True))

    def __gt__(self, t: Any) -> Any:
        if type(t) is float:
            return not self._below(t)
        return _typed(not self._below(_narrow(t, True)), _numpy_operand(t, True))

    def _refuse(self, *args: Any) -> Any:
        raise NotEnumerable("arithmetic on a uniform draw (only comparisons with numbers are enumerable)")

    __float__ = __rtruediv__ = __int__ = __round__ = __floor__ = __ceil__ = __pow__ = __index__ = _refuse
    __array_function__ = _refuse  # np.log(u), np.floor(u) ...

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        return _compare_ufunc(self, ufunc, method, inputs, kwargs)

    def __bool__(self) -> bool:
        raise NotEnumerable("truth value of a uniform draw")

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # what the code asks it is (isinstance, .__class__): numpy's random() is a float
        return float

    def __reduce__(self) -> Any:  # by its own type and fields (pickle checks a reduction's class against the
        return _rebuilt, (type(self), dict(self.__dict__))  # ``__class__`` it answers), as a loop's state holds it

    __repr__ = __str__ = __format__ = _digits  # its digits (a continuous value): not enumerable

    def __getattr__(self, name: str) -> Any:  # a float's other methods (as_integer_ratio, hex, real ...)
        return _float_attribute(float, name)


@dataclass(eq=False)
class ScaledDraw:
    """``c * u + o`` for a uniform draw ``u`` and numbers ``c``, ``o`` (diffprivlib's
    ``rng.random() * (e^eps + 1)``, ``uniform(a, b)``): its comparisons with ``t`` are
    those of ``u`` with ``(t - o) / c``."""

    draw: UniformDraw
    factor: Fraction
    factor_err: float
    offset: Fraction = Fraction(0)
    offset_err: float = 0.0
    numpy: bool = False  # numpy's float64 (a numpy number took part), whose comparisons are numpy's bools

    def _compare(self, t: Any, below: bool, inclusive: bool) -> Any:
        numpy = _numpy_operand(t, True)
        if numpy and not self.numpy:  # a Python float compared with a numpy float: in its type
            t = _narrow(t, inclusive)
        return _typed(self._side(t, below), numpy or self.numpy)

    def _side(self, t: Any, below: bool) -> bool:
        q, err = exact_threshold(t)
        q, err = q - self.offset, err + self.offset_err
        c = self.factor
        if c == 0:
            return (0 < q) == below
        s = q / c  # u < s when c > 0, u > s when c < 0
        s_err = err / abs(float(c)) + abs(float(s)) * self.factor_err / abs(float(c))
        result = self.draw.below(s, s_err)
        return result == below if c > 0 else (not result) == below

    def __lt__(self, t: Any) -> Any:
        return self._compare(t, True, False)

    def __le__(self, t: Any) -> Any:
        return self._compare(t, True, True)

    def __gt__(self, t: Any) -> Any:
        return self._compare(t, False, True)

    def __ge__(self, t: Any) -> Any:
        return self._compare(t, False, False)

    def __mul__(self, c: Any) -> ScaledDraw:
        numpy = _numpy_operand(c) or self.numpy
        q, err = exact_threshold(c)
        af, ao = abs(float(q)), abs(float(self.factor))
        return ScaledDraw(self.draw, self.factor * q, self.factor_err * af + err * ao, self.offset * q,
                          self.offset_err * af + err * abs(float(self.offset)), numpy)

    __rmul__ = __mul__

    def __truediv__(self, c: Any) -> ScaledDraw:
        numpy = _numpy_operand(c)
        q, err = exact_threshold(c)
        if q == 0:
            if numpy:  # numpy divides by zero to an infinity (and warns)
                raise NotEnumerable("a uniform draw divided by a numpy zero")
            raise ZeroDivisionError("division of a uniform draw by zero")
        scaled = self * _Rounded(1 / q, err / float(q) ** 2)
        scaled.numpy = scaled.numpy or numpy
        return scaled

    def __add__(self, c: Any) -> ScaledDraw:
        numpy = _numpy_operand(c) or self.numpy
        q, err = exact_threshold(c)
        return ScaledDraw(self.draw, self.factor, self.factor_err, self.offset + q, self.offset_err + err, numpy)

    __radd__ = __add__

    def __sub__(self, c: Any) -> ScaledDraw:
        numpy = _numpy_operand(c) or self.numpy
        q, err = exact_threshold(c)
        return ScaledDraw(self.draw, self.factor, self.factor_err, self.offset - q, self.offset_err + err, numpy)

    def __rsub__(self, c: Any) -> ScaledDraw:
        return (self * -1) + c

    def __neg__(self) -> ScaledDraw:
        return self * -1

    def _refuse(self, *args: Any) -> Any:
        raise NotEnumerable("arithmetic on a uniform draw beyond c * u + o (only comparisons are enumerable)")

    __float__ = __rtruediv__ = __bool__ = __int__ = __round__ = __floor__ = __ceil__ = __pow__ = __index__ = _refuse
    __array_function__ = _refuse  # np.log(u), np.floor(u) ...
    __repr__ = __str__ = __format__ = _digits  # its digits (a continuous value): not enumerable

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # a float, or numpy's float64 once a numpy number took part
        return sys.modules["numpy"].float64 if self.numpy else float

    def __reduce__(self) -> Any:  # by its own type and fields (pickle checks a reduction's class against the
        return _rebuilt, (type(self), dict(self.__dict__))  # ``__class__`` it answers), as a loop's state holds it

    def __getattr__(self, name: str) -> Any:  # a float's other methods (as_integer_ratio, hex, item ...)
        return _float_attribute(sys.modules["numpy"].float64 if self.numpy else float, name)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        return _compare_ufunc(self, ufunc, method, inputs, kwargs)


#: numpy's comparison ufuncs as a draw's own comparison: ``(with the draw on the left, on the right)``,
#: ``np.less(u, t)`` is ``u < t`` and ``np.less(t, u)`` is ``u > t``.
NUMPY_COMPARISONS = {"less": ("__lt__", "__gt__"), "less_equal": ("__le__", "__ge__"),
                     "greater": ("__gt__", "__lt__"), "greater_equal": ("__ge__", "__le__")}


def _compare_ufunc(draw: Any, ufunc: Any, method: str, inputs: Sequence[Any], kwargs: dict) -> Any:
    """numpy's comparisons of a draw with a number on either side (``np.float64(p) > rng.random()``,
    ``np.less(u, t)``), enumerated like Python's; any other ufunc on a draw is refused."""
    import numpy as np

    name = getattr(ufunc, "__name__", "")
    if method == "__call__" and not kwargs and len(inputs) == 2 and name in NUMPY_COMPARISONS:
        a, b = inputs
        left, right = NUMPY_COMPARISONS[name]
        if a is draw and np.ndim(b) == 0:
            return np.bool_(getattr(draw, left)(np.asarray(b)[()]))  # (a numpy scalar: compared in its type)
        if b is draw and np.ndim(a) == 0:
            return np.bool_(getattr(draw, right)(np.asarray(a)[()]))
    raise NotEnumerable(f"numpy's {name or ufunc} on a uniform draw (only comparisons with numbers are enumerable)")


@dataclass(frozen=True)
class _Rounded:
    """An exact number with an absolute rounding, as :func:`_exact` returns it."""

    value: Fraction
    err: float
