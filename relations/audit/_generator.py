"""The stand-in for ``numpy.random.Generator`` that the white-box route hands a randomizer.

Every draw of :class:`EnumeratingGenerator` is a choice of the current :class:`~relations.audit._enumerate.Replay`:
finite draws (``integers``, ``choice``, ``permutation``, ``shuffle``, ``binomial``, ``geometric``) outcome by
outcome, uniform floats (``random``, ``uniform``) as symbolic draws
(:class:`~relations.audit._enumerate.UniformDraw`) that branch on each comparison.
"""

from __future__ import annotations

import functools
import math
import sys
import types
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from relations.audit._enumerate import (
    FRESH,
    MAX_PATHS,
    THRESHOLD_ROUNDING,
    NotEnumerable,
    Replay,
    ScaledDraw,
    Truncated,
    UniformDraw,
    exact_threshold,
    float_radius,
    uniform_weights,
)
from relations.audit._independent import draw_site, independent_draws
from relations.audit._states import compared_with
from relations.audit._vectors import UniformVector

try:
    from numpy import int64 as _int64  # what Generator.integers returns
except ImportError:  # pragma: no cover - a worker interpreter without numpy: no code there can draw from numpy
    _int64 = int  # type: ignore[misc,assignment]

__all__ = ["EnumeratingGenerator", "through"]

#: The code of the closed world's wrappers that hand an integer draw back unchanged (``random.randrange``,
#: ``randint``, ``secrets.randbelow`` ...): the frame that compares the draw is the first one above them.
PASS_THROUGH: set[types.CodeType] = set()
_OWN = ("relations/audit/", "relations\\audit\\")
_OWN_CODE: dict[types.CodeType, bool] = {}


def through(f: Callable[..., Any]) -> Callable[..., Any]:
    """Mark ``f`` as handing the integer draws it makes back unchanged (:data:`PASS_THROUGH`)."""
    PASS_THROUGH.add(f.__code__)
    return f


def _split(low: int, n: int) -> tuple[tuple[Fraction, Fraction], tuple[int, int]] | None:
    """An integer draw in ``[low, low + n)`` that the code only compares with a number (``rng.randrange(d) <
    p.numerator``, see :func:`~relations.audit._states.compared_with`): the weights of the two sides of the
    comparison and a value on each side (every value on one side gives the code the same answer, so one branch per
    side is the same channel as ``n`` branches); ``None`` when the draw is used otherwise."""
    frame: Any = sys._getframe(2)
    code = frame.f_code
    while code in PASS_THROUGH:
        frame = frame.f_back
        if frame is None:
            return None
        code = frame.f_code
    own = _OWN_CODE.get(code)
    if own is None:
        if len(_OWN_CODE) > 4096:
            _OWN_CODE.clear()
        own = _OWN_CODE[code] = any(part in code.co_filename for part in _OWN)
    if own:
        return None
    found = compared_with(frame, _is_draw)
    if found is None:
        return None
    op, t = found
    key = (op, t, low, n)
    known = _SPLITS.get(key)
    if known is None:
        known = _SPLITS[key] = _sides(op, t, low, n)
        if len(_SPLITS) > 65536:
            _SPLITS.clear()
    return known


_SPLITS: dict[tuple, tuple[tuple[Fraction, Fraction], tuple[int, int]]] = {}  # every path compares with the same few bounds


def _sides(op: str, t: Any, low: int, n: int) -> tuple[tuple[Fraction, Fraction], tuple[int, int]]:
    """The weights of the two sides of ``v op t`` for ``v`` uniform in ``[low, low + n)``, and a value on each."""
    q = Fraction(t)
    high = low + n
    if op in ("<", ">="):  # v < t  iff  v < ceil(t)
        cut = min(max(math.ceil(q), low), high)
        yes = cut - low
        sides = (low, cut) if op == "<" else (cut, low)
        count = yes if op == "<" else n - yes
    elif op in ("<=", ">"):  # v <= t  iff  v < floor(t) + 1
        cut = min(max(math.floor(q) + 1, low), high)
        yes = cut - low
        sides = (low, cut) if op == "<=" else (cut, low)
        count = yes if op == "<=" else n - yes
    else:  # == and !=: one value against the others
        hit = q.denominator == 1 and low <= q.numerator < high
        other = low if not hit or q.numerator != low else low + 1
        equal = (int(q.numerator), other) if hit else (other, other)
        count = int(hit) if op == "==" else n - int(hit)
        sides = equal if op == "==" else (equal[1], equal[0])
    return (Fraction(count, n), Fraction(n - count, n)), sides


def _is_draw(f: Any) -> bool:
    """A function that draws an integer and hands it back: the generator's ``integers`` or a closed-world
    wrapper in :data:`PASS_THROUGH`."""
    return f is EnumeratingGenerator.integers or getattr(f, "__code__", None) in PASS_THROUGH


def _weight_radii(given: Sequence[Any], weights: Sequence[Fraction]) -> list[float] | None:
    """The relative rounding of each weight of ``choice(p=...)``: 0 when every weight is exact; otherwise each
    float weight is taken within an absolute ``2 * THRESHOLD_ROUNDING * max(weights)`` of the intended one, as
    the code computes it at the scale of its largest weight (``1 - p``, ``(1 - p) / (k - 1)``): a small weight's
    relative rounding is that much larger.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> _weight_radii([F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)]) is None
    True
    >>> r = _weight_radii([0.999, 0.001], [F(0.999), F(0.001)])
    >>> round(r[1] / r[0])
    999
    """
    if float_radius(given) == 0:
        return None
    top = max(weights)
    return [2 * THRESHOLD_ROUNDING * float(top / w) if w > 0 else 0.0 for w in weights]


_T = TypeVar("_T")


def _by_value(compute: Callable[[Any], _T]) -> Callable[[Any], _T]:
    """``compute``, kept by the type and value of its argument (``typed``: ``Fraction(1, 2) == 0.5``, but only the
    float is rounded): a loop draws with the same ``p`` thousands of times, and each costs a dozen ``Fraction``
    operations.  An unhashable argument (a 0-d array) is computed each time."""
    known = functools.lru_cache(maxsize=256, typed=True)(compute)

    @functools.wraps(compute)
    def call(p: Any) -> _T:
        try:
            return known(p)
        except TypeError:
            return compute(p)
    return call


@_by_value
def _bernoulli_radius(p: Any) -> float:
    """The relative rounding of a float ``p`` and of ``1 - p`` as weights of one trial (0 for an exact ``p``)."""
    q = Fraction(p)
    if isinstance(p, (int, Fraction)) or not 0 < q < 1:
        return 0.0
    return THRESHOLD_ROUNDING * max(1.0, float(q / (1 - q)), float((1 - q) / q))


@_by_value
def _trial(p: Any) -> tuple[Fraction, float]:
    """A geometric's ``p`` as a ``Fraction`` ``q`` (``NotEnumerable`` unless ``0 < q <= 1``) and ``-log(1 - q)``
    (``inf`` at ``q = 1``)."""
    q = Fraction(p)
    if not 0 < q <= 1:
        raise NotEnumerable(f"geometric with p = {p!r}")
    return q, -math.log1p(-float(q)) if q < 1 else math.inf


_GEOMETRIC: dict[tuple[Fraction, int, float], tuple[list[Fraction], list[float] | None]] = {}


def _geometric(q: Fraction, n: int, r: float) -> tuple[list[Fraction], list[float] | None]:
    """The weights of a geometric ``q`` cut after ``n`` outcomes (the last weight: the tail), and their relative
    roundings (``r`` per trial, compounded over the trials of each outcome; ``None`` when exact)."""
    key = (q, n, r)
    known = _GEOMETRIC.get(key)
    if known is None:
        miss = 1 - q
        weights, w = [], q
        for _ in range(n):
            weights.append(w)
            w *= miss
        weights.append(w / q)  # (1 - q)^n
        radii = [(1 + r) ** min(k + 1, n) - 1 for k in range(n + 1)] if r else None
        if len(_GEOMETRIC) > 256:
            _GEOMETRIC.clear()
        known = _GEOMETRIC[key] = (weights, radii)
    return known


def _valid_probabilities(p: Any, n: int) -> None:
    """Raise the ``ValueError`` numpy's ``choice`` raises for these probabilities ``p`` of ``n`` elements: not one
    dimension, not ``n`` of them, NaN or negative, or a sum farther from 1 than ``sqrt`` of the float's epsilon
    (numpy sums in Kahan's way, here exactly: they may disagree within an ulp of that tolerance)."""
    import numpy as np

    given = np.asarray(p)
    tolerance = math.sqrt(np.finfo(np.float64).eps)
    if given.dtype.kind == "f":
        tolerance = max(tolerance, math.sqrt(np.finfo(given.dtype).eps))
    values = np.asarray(p, dtype=np.float64)
    if values.ndim != 1:
        raise ValueError("p must be 1-dimensional")
    if values.size != n:
        raise ValueError("a and p must have same size")
    if np.isnan(values).any():
        raise ValueError("probabilities contain NaN")
    if (values < 0).any():
        raise ValueError("probabilities are not non-negative")
    if abs(math.fsum(values.tolist()) - 1.0) > tolerance:
        raise ValueError("probabilities do not sum to 1")


def _too_many(size: Any, outcomes: int) -> bool:
    """An array of ``size`` independent draws of ``outcomes`` values each is kept factorised
    (:mod:`relations.audit._vectors`) when enumerating it element by element would exceed the path limit
    (:data:`~relations.audit._enumerate.MAX_PATHS`); smaller ones stay element by element, where the code may do
    anything with the array."""
    if size is None:
        return False
    count = size if isinstance(size, int) else math.prod(size)
    return count * math.log2(outcomes) > math.log2(MAX_PATHS)


class EnumeratingGenerator:
    """A stand-in for ``numpy.random.Generator`` whose draws enumerate their outcomes.

    Only draws of a single value (``size=None``) or small fixed-size arrays of finite
    draws are supported; anything else raises :class:`NotEnumerable`.
    """

    def __init__(self, replay: Replay):
        self._replay = replay

    def _pick(self, weights: list[Fraction]) -> int:
        return self._replay.decide(weights)

    def _sized(self, size: Any, draw: Callable[[], Any], integral: bool = False) -> Any:
        """``size`` draws made one by one; an array of numpy's ``int64`` for ``integral`` draws (``integers``,
        ``geometric``, ``binomial``: as numpy makes them, so that ``u += noise`` casts into an integer ``u``),
        else of objects."""
        if size is None:
            return draw()
        import numpy as np

        shape = (size,) if isinstance(size, int) else tuple(size)
        count = math.prod(shape)
        values: list[Any] = []  # a local, not a comprehension: the values drawn so far are part of the state at
        while len(values) < count:  # the next draw (:mod:`relations.audit._states` reads locals, not the stack)
            values.append(draw())
        if integral and all(type(v) is int and -(1 << 63) <= v < 1 << 63 for v in values):
            return np.array(values, dtype=np.int64).reshape(shape)
        return np.array(values, dtype=object).reshape(shape)

    def integers(self, low: int, high: int | None = None, size: Any = None, dtype: Any = None, endpoint: bool = False,
                 *, _python: bool = False, **_: Any) -> Any:
        """Uniform integers in ``[low, high)`` (``[low, high]`` with ``endpoint``); ``integers(n)`` is ``[0, n)``.

        Of numpy's types: an ``np.int64`` by default, a Python ``int`` or ``bool`` for
        ``dtype=int`` or ``dtype=bool`` (as numpy gives them), an array of ``int64`` (or of ``dtype``) with
        ``size``.  A ``dtype`` other than int64 gives its own type (``np.uint8`` draws wrap around in the code's
        arithmetic), drawn one by one: never kept factorised.  ``_python``: a Python ``int`` (the closed world's
        wrappers of Python's ``random``, which hand back an ``int``)."""
        replay = self._replay
        if high is None:
            low, high = 0, low
        if (type(low) is not int or type(high) is not int) and (
                isinstance(low, (list, tuple)) or isinstance(high, (list, tuple)) or getattr(low, "ndim", False)
                or getattr(high, "ndim", False)):
            raise NotEnumerable("integers with bounds given as arrays")
        low, high = int(low), int(high) + (1 if endpoint else 0)
        if high <= low:
            raise ValueError("high <= low")
        python = _python or (size is None and dtype is int)
        if not _python and (dtype is None or dtype is int or dtype == "int64") and (low < -(1 << 63) or high > 1 << 63):
            raise ValueError("low is out of bounds for int64" if low < -(1 << 63) else "high is out of bounds for int64")
        if dtype is not None and dtype is not int:
            import numpy as np

            kind = np.dtype(dtype)
            if kind != np.dtype(np.int64):
                if kind.kind not in "iub":
                    raise NotEnumerable(f"integers with dtype {kind}")
                lowest, highest = (0, 1) if kind.kind == "b" else (int(np.iinfo(kind).min), int(np.iinfo(kind).max))
                if low < lowest or high - 1 > highest:
                    raise ValueError(f"bounds out of range for {kind}")
                if high - low > replay.max_outcomes:
                    raise NotEnumerable(f"a draw of integers in [{low}, {high}) has more than {replay.max_outcomes} "
                                        "outcomes")
                narrow = uniform_weights(high - low)
                scalar = bool if dtype is bool else kind.type  # numpy hands dtype=bool back as a Python bool

                def typed() -> Any:
                    return scalar(low + self._replay.decide(narrow))
                return typed() if size is None else self._sized(size, typed).astype(kind)
        if size is None:
            # the first draw of a list built element by element (report-noisy-max): kept factorised; asked before
            # the value of the prefix shared with the last path is handed back, so that each run meets the
            # statement's first draw there, as the path before did (else a later element's draw is taken for it)
            pending = draw_site(self, sys._getframe(1))
            if pending is not None:  # a placeholder that receives the element's score (``score(x, r) + noise``)
                return pending
            known = replay.replayed()
            if known is not FRESH:
                return known if python else _int64(known)
        n = high - low
        if n > self._replay.max_outcomes:
            raise NotEnumerable(f"a draw of integers in [{low}, {high}) has more than {self._replay.max_outcomes} "
                                "outcomes")

        if (low, n) == (0, 2) and _too_many(size, 2):  # fair bits: kept factorised
            return (UniformVector(self._replay, size) < Fraction(1, 2)).astype(int)
        if size is not None and n > 2 and _too_many(size, n):  # independent integers: kept factorised
            vector = independent_draws(self, "integers", size, (low, high))
            if vector is not None:
                draw_site(self, sys._getframe(1), vector)  # the rest of the function may run with it
                return vector

        if size is None:  # (the depth is kept on the replay, not in a local: locals here are part of the state)
            replay.before = len(replay.trail)
            if n > 2:
                split = _split(low, n)
                if split is not None:  # read only through one comparison: one branch per side
                    weights2, sides = split
                    if not weights2[1]:
                        value = replay.record(sides[0])
                    elif not weights2[0]:
                        value = replay.record(sides[1])
                    else:
                        value = replay.record(sides[replay.decide(weights2)])
                    return value if python else _int64(value)
            value = replay.record(low + replay.decide(uniform_weights(n)))
            return value if python else _int64(value)
        weights = uniform_weights(n)

        def one() -> int:
            return low + self._replay.decide(weights)
        return self._sized(size, one, integral=True)

    def random(self, size: Any = None, **_: Any) -> Any:
        """A symbolic uniform float on ``[0, 1)`` (comparisons branch exactly); with ``size``, a vector of
        independent ones kept factorised (:class:`~relations.audit._vectors.UniformVector`)."""
        if size is not None:
            return UniformVector(self._replay, size)
        return UniformDraw(self._replay)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Any:
        """A symbolic uniform float on ``[low, high)``: ``low + (high - low) u``."""
        if size is not None:
            raise NotEnumerable("uniform(size=...) arrays of uniform floats")
        lo, lo_err = exact_threshold(low)
        hi, hi_err = exact_threshold(high)
        u = UniformDraw(self._replay)
        return ScaledDraw(u, hi - lo, lo_err + hi_err, lo, lo_err)

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Sequence[float] | None = None,
               axis: int = 0, shuffle: bool = True, *, _python: bool = False) -> Any:
        """A uniform (or ``p``-weighted) element of ``a`` (an int ``n`` means ``range(n)``), as numpy gives it: for
        an int, a Python ``int`` (an array of ``int64`` with ``size``); otherwise an element of ``np.asarray(a)``
        (numpy's scalar of the array's dtype, or a row), or an array of them with ``size``.  ``_python``: the
        element of the sequence itself (a list of them with ``size``), as Python's ``random.choice`` and
        ``random.sample`` give it."""
        import numpy as np

        items: Sequence[Any]
        if _python:
            items, array = list(a), None
        elif isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)):
            items, array = range(int(a)), None
        else:
            array = np.asarray(a)
            if array.ndim == 0:
                if array.dtype.kind not in "iu":
                    raise ValueError("a must be a sequence or an integer")
                items, array = range(int(array)), None
            else:
                if axis != 0:
                    raise NotEnumerable("choice along an axis other than the first")
                items = range(len(array))
        if not len(items):
            raise ValueError("choice from an empty population")
        radii = None
        if p is None:
            weights = list(uniform_weights(len(items)))
        else:
            if not _python:
                _valid_probabilities(p, len(items))
            p = list(p)
            weights = [Fraction(w) if isinstance(w, (int, Fraction)) else Fraction(float(w)) for w in p]
            total = sum(weights)
            weights = [w / total for w in weights]
            radii = _weight_radii(p, weights)
        if size is not None and not replace:
            count = size if isinstance(size, int) else math.prod(size)
            chosen: list[Any] = []
            pool, pw = list(range(len(items))), list(weights)
            for _pick in range(count):
                total = sum(pw)
                k = self._replay.decide([w / total for w in pw], radii and [2 * r for r in radii[:len(pw)]])
                chosen.append(pool.pop(k))
                pw.pop(k)
            if _python:
                return [items[k] for k in chosen]
            shape = (size,) if isinstance(size, int) else tuple(size)
            index = np.array(chosen, dtype=np.int64).reshape(shape)
            return index if array is None else array[index]
        if size is None:
            k = self._replay.decide(weights, radii)
            return items[k] if array is None else array[k]
        index = self._sized(size, lambda: self._replay.decide(weights, radii), integral=True)
        if _python:
            return [items[k] for k in index.reshape(-1)]
        return index if array is None else array[index]

    def permutation(self, x: Any) -> Any:
        """A uniformly random permutation of ``x`` (an int ``n`` means ``range(n)``), along its first axis, as
        numpy's array (of ``int64`` for an int, else of ``np.asarray(x)``'s dtype)."""
        import numpy as np

        array = np.arange(int(x)) if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)) \
            else np.asarray(x)
        if array.ndim == 0:
            raise NotEnumerable("permutation of a scalar that is not an integer")
        items = list(range(len(array)))
        out: list[int] = []
        while items:
            out.append(items.pop(self._replay.decide(uniform_weights(len(items)))))
        return array[np.array(out, dtype=np.intp)]

    def shuffle(self, x: Any) -> None:
        """Shuffle the sequence ``x`` in place, uniformly."""
        import numpy as np

        perm = self.permutation(len(x)).tolist()
        if isinstance(x, np.ndarray):  # (its rows are views: moved all at once)
            x[...] = x[perm]
            return
        values = [x[i] for i in perm]
        for i, v in enumerate(values):
            x[i] = v

    def binomial(self, n: int, p: float, size: Any = None) -> Any:
        """Binomial ``(n, p)``, exactly (``p`` at its exact binary value)."""
        q = Fraction(p)
        weights = [Fraction(math.comb(n, k)) * q**k * (1 - q) ** (n - k) for k in range(n + 1)]
        r = _bernoulli_radius(p)
        radii = [(1 + r) ** n - 1] * (n + 1) if r else None
        if n == 1 and _too_many(size, 2):  # independent bits, kept factorised
            return (UniformVector(self._replay, size) < p).astype(int)
        return self._sized(size, lambda: self._replay.decide(weights, radii), integral=True)

    def geometric(self, p: float, size: Any = None) -> Any:
        """Geometric ``p`` (trials up to the first success, from 1), as one draw of ``n + 1`` outcomes: ``1 ..
        n`` with their exact weights ``p (1 - p)^(k - 1)``, and the tail ``k > n`` of weight ``(1 - p)^n``, which
        ends the path as cut (:class:`~relations.audit._enumerate.Truncated`: its mass is the unexplored mass,
        exactly).  ``n`` makes the tail at most ``2^-depth`` for the enumeration's depth, so that a deeper level
        narrows it too (``p`` at its exact binary value).

        Examples
        --------
        >>> from relations.audit._enumerate import Replay
        >>> g = EnumeratingGenerator(Replay(100, max_depth=4))
        >>> g.geometric(0.5), [float(w) for w in _geometric(Fraction(1, 2), 4, 0.0)[0]]
        (1, [0.5, 0.25, 0.125, 0.0625, 0.0625])
        """
        q, log_miss = _trial(p)
        if q == 1:
            return self._sized(size, lambda: 1, integral=True)
        if size is None:  # the first draw of a list built element by element (report-noisy-max): kept factorised
            pending = draw_site(self, sys._getframe(1))
            if pending is not None:  # a placeholder that receives the element's score (``score(x, r) + noise``)
                return pending
        else:
            vector = independent_draws(self, "geometric", size, (p,))
            if vector is not None:
                draw_site(self, sys._getframe(1), vector)  # the rest of the function may run with it
                return vector
        n = min(max(1, math.ceil(self._replay.max_depth * math.log(2) / log_miss)), self._replay.max_outcomes - 1)
        weights, radii = _geometric(q, n, _bernoulli_radius(p))

        def one() -> int:
            k = self._replay.decide(weights, radii)
            if k == n:  # the tail, beyond the enumeration's reach
                raise Truncated()
            return k + 1
        return self._sized(size, one, integral=True)

    def __getattr__(self, name: str) -> Any:
        raise NotEnumerable(f"the draw '{name}' cannot be enumerated exactly")
