"""Vectors of independent integer draws kept factorised: report-noisy-max on the white-box route.

Report-noisy-max adds fresh noise to each of ``k`` counts and returns the index of the largest:
``int(np.argmax([c + rng.geometric(p) - rng.geometric(p) for c in counts]))``.  Enumerated draw by draw its
tree has ``n^(2k)`` paths (``10^16`` for four counts), and no state repeats.  Yet its coordinates are
independent, each a function of its own draws, and the index of the largest of independent integers has a
closed form::

    P(argmax = i) = sum_v P(X_i = v) prod_{j < i} P(X_j < v) prod_{j > i} P(X_j <= v)

(first index on ties, as numpy and ``max`` break them).  This module keeps such vectors factorised
(:class:`IntVector`: one exact distribution per coordinate) and answers the index of the largest (or smallest)
coordinate, or the largest value, as one choice with those probabilities.

Where a vector comes from:

* ``rng.geometric(p, size=k)`` and ``rng.integers(a, b, size=k)`` when enumerating the ``k`` draws one by one
  would exceed the path limit, and numpy's arithmetic on such arrays (``counts + g1 - g2``, with numbers, other
  arrays of numbers, or other vectors drawn apart);
* a list built by mapping each element with an expression making its own fresh draws, proven from the
  randomizer's source when its first draw is made (:func:`draw_site`): ``NAME = [E for c in ITER]`` (or the
  list comprehension anywhere in one of the function's own statements, the code evaluated before it being
  names and constants only), or ``OUT = []`` then at once ``for c in ITER: OUT.append(E)``.  ``E`` is integer
  arithmetic (``+``, ``-``, ``*``, unary ``-``, ``int(E)``) of constants, the loop variables, numbers held by
  names, ``NAME[loop variable]``, and draws ``RNG.geometric(P)`` / ``RNG.integers(A[, B])`` on the audit's own
  generator: no call of the code's own, no condition, so every evaluation makes the same fresh draws and
  nothing else.  Each coordinate's distribution is computed from ``E`` alone (the draws of one element are
  independent: each call is a fresh draw; a geometric's tail beyond the enumeration's depth is carried as
  unexplored mass), and the rest of the function (the statements after the list is built) runs with the
  name bound to the vector: it is compiled from the same source, with the same globals and builtins, its
  locals the function's at that point (:func:`_rest_code`).  The function must be the randomizer itself,
  its source must compile to the code that runs, and it must not be a closure, declare ``global`` or
  ``nonlocal``, make closures before the list, or read its own frame (``locals()``, ``eval``, ...).

What keeps a vector factorised: ``np.argmax`` / ``np.argmin`` (and the methods), ``max(range(len(V)),
key=V.__getitem__)`` and ``key=lambda i: V[i]`` (and ``min``), ``V.index(max(V))`` (and ``min``), ``max(V)``,
``np.max(V)`` (the value), ``np.array(V)``.  Reading one coordinate (``V[i]``, iteration) branches on its
values, one path per value, and anything else reads them all; each observation *spends* the draws behind it,
so that a vector that shares draws with an observed one is not used again as if independent (refused, and
the whole input is enumerated draw by draw, as before; a refusal voids the run even if the code catches it:
:func:`settle`).  Elsewhere in the rest the vector is the list it stands for: calls, operators of the code's own
types, stores and returns hand over the real list (:class:`_Escapes`), but for ``len``, numpy and a helper whose
source proves it uses the list only so (:func:`_helper_keeps`).  An array of draws changed in place (``noise +=
u``, ``%=``, a ufunc's ``out=``) changes itself, so that every name holding it sees the change (``+=`` and ``-=``
factorised when they can be; anything else makes it the real array of the path); ``%``, ``//``, ``/``, ``**``,
``abs`` and the bit operators act on the real array.  The index of the largest is certified: each branch's
weight is the probability of the event with every coordinate within its explored values, the rest (the
geometrics' tails) is *confined* mass, which can only go to these same ``k`` branches, so that the outputs are
known and the interval has both ends (:attr:`~relations.audit._exact.Enumerated.closed`).
"""

from __future__ import annotations

import ast
import builtins
import copy
import math
import operator
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import CodeType, FrameType, FunctionType, ModuleType
from typing import Any

from relations.audit._enumerate import MAX_DEPTH, MAX_PATHS, NotEnumerable, Replay, Truncated
from relations.audit._iteration import Returned, called_by_enumerator, frame_position, iteration_maps
from relations.audit._source import function_node

__all__ = ["Coordinate", "IntVector", "draw_site", "extreme_index", "independent_draws", "settle", "CONTINUATIONS"]

#: Rests of functions running (:func:`draw_site`): while one runs, the frames between the draw and the
#: randomizer's call are not the code's own, so no state is recorded (:func:`~relations.audit._states.snapshot`).
CONTINUATIONS = [0]
#: Most values one coordinate may take (its distribution is kept exactly).
MAX_VALUES = 1 << 14
#: Deepest a geometric draw of a coordinate is followed (its tail beyond is unexplored mass, below ``2^-200``).
MAX_GEOMETRIC = 200
#: A geometric's probabilities are kept exactly to ``2^-(depth + GRID_MARGIN)`` (beyond, rounded down, the mass
#: lost added to its tail: far below the tail itself, ``2^-depth``), so that a float ``p``'s powers stay small.
GRID_MARGIN = 96


class _Token:
    """One independent draw behind a coordinate: ``spent`` once an observation depended on it."""

    __slots__ = ("spent",)

    def __init__(self) -> None:
        self.spent = False


@dataclass(frozen=True)
class Coordinate:
    """The distribution of one coordinate: exact probabilities of the values explored, the mass left at values
    not explored (``tail``: a geometric's beyond the depth), the relative rounding of every probability from the
    code's floats, and the draws it depends on (``tokens``).  ``key`` names the distribution (equal keys, equal
    distributions) so that its computations are cached."""

    dist: dict
    tail: Fraction
    radius: float
    tokens: frozenset
    key: Any = None
    #: probabilities with a denominator beyond ``2^grid`` are rounded down to multiples of ``2^-grid``, the mass
    #: they lose added to the tail (certified: the tail is mass at values not explored); 0: never rounded
    grid: int = 0

    @staticmethod
    def point(v: int) -> Coordinate:
        return Coordinate({v: Fraction(1)}, Fraction(0), 0.0, frozenset(), ("point", v))


def _on_grid(dist: dict[int, int], den: int, grid: int) -> tuple[dict[int, Fraction], Fraction]:
    """Probabilities ``n / den`` (integers over one denominator), rounded down to multiples of ``2^-grid`` when
    ``den`` exceeds ``2^grid`` (floats' powers make numbers of thousands of digits), and the mass they lose."""
    if not grid or den <= 1 << grid:
        return {v: Fraction(n, den) for v, n in dist.items() if n}, Fraction(0)
    scale = 1 << grid
    kept = {v: (n * scale) // den for v, n in dist.items()}
    lost = Fraction(sum(dist.values()), den) - Fraction(sum(kept.values()), scale)
    return {v: Fraction(n, scale) for v, n in kept.items() if n}, lost


_COMBINED: dict[Any, tuple[dict, Fraction, float]] = {}


def _combine(a: Coordinate, b: Coordinate, op: str) -> Coordinate:
    """The distribution of ``a op b`` for independent ``a`` and ``b`` (``op`` one of ``+ - *``)."""
    key = (op, a.key, b.key) if a.key is not None and b.key is not None else None
    known = _COMBINED.get(key) if key is not None else None
    if known is None:
        f = _OPS[op]
        (na, da), (nb, db) = _over_one(a.dist), _over_one(b.dist)  # integers over one denominator: no gcd per term
        sums: dict[int, int] = {}
        for u, p in na.items():
            for v, q in nb.items():
                w = f(u, v)
                sums[w] = sums.get(w, 0) + p * q
        if len(sums) > MAX_VALUES:
            raise NotEnumerable(f"a coordinate with more than {MAX_VALUES} values")
        dist, lost = _on_grid(sums, da * db, max(a.grid, b.grid))
        known = (dist, a.tail + b.tail - a.tail * b.tail + lost, (1 + a.radius) * (1 + b.radius) - 1)
        if key is not None:
            if len(_COMBINED) > 1024:
                _COMBINED.clear()
            _COMBINED[key] = known
    return Coordinate(known[0], known[1], known[2], a.tokens | b.tokens, key, max(a.grid, b.grid))


_OPS: dict[str, Callable[[int, int], int]] = {"+": lambda u, v: u + v, "-": lambda u, v: u - v,
                                               "*": lambda u, v: u * v}


def _over_one(dist: dict) -> tuple[dict[int, int], int]:
    """The probabilities of ``dist`` as integers over one common denominator (exact sums without a gcd each)."""
    den = math.lcm(*(p.denominator for p in dist.values())) if dist else 1
    return {v: p.numerator * (den // p.denominator) for v, p in dist.items()}, den


def _mapped(a: Coordinate, f: Callable[[int], int], name: str) -> Coordinate:
    dist: dict[int, Fraction] = {}
    for u, p in a.dist.items():
        w = f(u)
        dist[w] = dist.get(w, 0) + p
    return Coordinate(dist, a.tail, a.radius, a.tokens, None if a.key is None else (name, a.key), a.grid)


def _geometric_coordinate(p: Any, depth: int, gen: Any) -> Coordinate:
    """``rng.geometric(p)`` as the enumerating generator ``gen`` draws it (its weights and roundings, from its
    module: imported here, it would make a cycle), to ``depth``."""
    module = sys.modules[type(gen).__module__]
    _bernoulli_radius, _geometric = module._bernoulli_radius, module._geometric
    q = Fraction(p)
    if not 0 < q <= 1:
        raise NotEnumerable(f"geometric with p = {p!r}")
    if q == 1:
        return Coordinate({1: Fraction(1)}, Fraction(0), 0.0, frozenset({_Token()}), ("point", 1))
    n = min(max(1, math.ceil(depth * math.log(2) / -math.log1p(-float(q)))), MAX_GEOMETRIC)
    r = _bernoulli_radius(p)
    weights, radii = _geometric(q, n, r)
    grid = depth + GRID_MARGIN
    nums, den = _over_one({k + 1: w for k, w in enumerate(weights[:-1])})
    dist, lost = _on_grid(nums, den, grid)
    return Coordinate(dist, weights[-1] + lost, max(radii) if radii else 0.0, frozenset({_Token()}),
                      ("geometric", q, n, r, grid), grid)


def _integers_coordinate(low: Any, high: Any = None, endpoint: bool = False) -> Coordinate:
    """``rng.integers(low, high)``: uniform on ``[low, high)`` (``[low, high]`` with ``endpoint``)."""
    if high is None:
        low, high = 0, low
    for v in (low, high):
        if not _is_int(v):
            raise NotEnumerable("integers with bounds that are not integers")
    low, high = int(low), int(high) + (1 if endpoint else 0)
    if high <= low:
        raise NotEnumerable("integers with high <= low")
    if high - low > MAX_VALUES:
        raise NotEnumerable(f"integers with more than {MAX_VALUES} values")
    w = Fraction(1, high - low)
    return Coordinate({v: w for v in range(low, high)}, Fraction(0), 0.0, frozenset({_Token()}),
                      ("integers", low, high))


def _is_int(v: Any) -> bool:
    import numpy as np

    return (type(v) is int) or (isinstance(v, np.integer) and not isinstance(v, np.bool_))


def _refuse(replay: Any, why: str) -> Any:
    """A vector of independent draws cannot do what the code asks: :class:`NotEnumerable`, and the run is void
    whether or not the code catches it (an ``except Exception`` of its own must not answer for the draws):
    :func:`settle` ends it at its end."""
    replay.__dict__["_rnm_refused"] = why
    raise NotEnumerable(why)


def _wide(v: Any) -> bool:
    """An integer whose arithmetic with the draws is exact: Python's, or numpy's int64 (a narrower numpy
    integer, ``uint8`` counts say, wraps around: ``np.uint8(0) - 2`` is 254)."""
    import numpy as np

    return type(v) is int or type(v) is np.int64


def _live(c: Coordinate, replay: Any) -> None:
    if any(t.spent for t in c.tokens):
        _refuse(replay, "a vector of independent draws used again after an observation of draws it shares")


def _disjoint(coords: Sequence[Coordinate]) -> bool:
    """Whether the coordinates depend on pairwise different draws (so that they are independent)."""
    seen: set = set()
    for c in coords:
        if seen & c.tokens:
            return False
        seen |= c.tokens
    return True


_EXTREMES: dict[Any, tuple[list[Fraction], Fraction, float]] = {}


def extreme_index(coords: Sequence[Coordinate], largest: bool = True) -> tuple[list[Fraction], Fraction, float]:
    """The index of the first largest (or smallest) of independent coordinates: each index's probability that it
    is, with every coordinate within its explored values (a lower bound, exact without tails), the mass left
    (``1`` minus their sum: at most the probability that some coordinate is in its tail), and the relative
    rounding of each probability.

    Examples
    --------
    Two fair bits: index 1 is the first largest only when it is 1 and index 0 is 0.

    >>> from fractions import Fraction as F
    >>> bit = Coordinate({0: F(1, 2), 1: F(1, 2)}, F(0), 0.0, frozenset())
    >>> extreme_index([bit, bit])
    ([Fraction(3, 4), Fraction(1, 4)], Fraction(0, 1), 0.0)
    >>> extreme_index([bit, bit], largest=False)
    ([Fraction(3, 4), Fraction(1, 4)], Fraction(0, 1), 0.0)
    """
    key = (tuple(c.key for c in coords), largest) if all(c.key is not None for c in coords) else None
    cached = _EXTREMES.get(key) if key is not None else None
    if cached is not None:
        return cached
    sign = 1 if largest else -1
    dists, dens = [], []
    for c in coords:  # integers over one denominator per coordinate: exact, without a gcd per term
        nums, den = _over_one(c.dist)
        dists.append({sign * v: n for v, n in nums.items()})  # the smallest is the largest of -X
        dens.append(den)
    values = sorted({v for d in dists for v in d})
    below: list[dict[int, int]] = []  # below[j][v] = P(X_j < v, explored), times dens[j]
    for d in dists:
        acc, table = 0, {}
        for v in values:
            table[v] = acc
            acc += d.get(v, 0)
        below.append(table)
    whole = math.prod(dens)
    weights = []
    for i, d in enumerate(dists):
        total = 0
        for v, n in d.items():
            term = n
            for j in range(len(dists)):
                if j != i:
                    term *= below[j][v] + (dists[j].get(v, 0) if j > i else 0)
                    if not term:
                        break
            total += term
        weights.append(Fraction(total, whole))
    r = max((c.radius for c in coords), default=0.0)
    known = (weights, Fraction(1) - sum(weights, Fraction(0)), (1 + r) ** len(coords) - 1 if r else 0.0)
    if key is not None:
        if len(_EXTREMES) > 256:
            _EXTREMES.clear()
        _EXTREMES[key] = known
    return known


def _largest_value(coords: Sequence[Coordinate], largest: bool) -> tuple[list[int], list[Fraction], float]:
    """The largest (smallest) value of independent coordinates: its values and their probabilities with every
    coordinate explored (exact for that event), and the relative rounding."""
    sign = 1 if largest else -1
    dists = [{sign * v: p for v, p in c.dist.items()} for c in coords]
    values = sorted({v for d in dists for v in d})
    out, prev = [], Fraction(0)
    cum = [Fraction(0)] * len(dists)
    for v in values:
        for j, d in enumerate(dists):
            cum[j] += d.get(v, 0)
        now = math.prod(cum, start=Fraction(1))
        out.append(now - prev)
        prev = now
    r = max((c.radius for c in coords), default=0.0)
    return [sign * v for v in values], out, ((1 + r) ** len(coords) - 1 if r else 0.0)


def _choose(replay: Any, weights: Sequence[Fraction], slack: Fraction, radius: float) -> int:
    """One choice among ``weights`` (each a lower bound of its branch's probability) whose missing mass
    ``slack`` belongs to these same branches: *confined*, carried as unexplored mass that reaches only outputs
    the branches reach (:attr:`Replay.confined`).  Where that cannot be kept (a branch with no weight, a
    replay recording states or probing), the slack is an open tail, as a geometric's (the path is cut)."""
    radii = [radius] * len(weights) if radius else None
    plain = type(replay) is Replay and replay.snapshot is None and all(weights)
    if not slack or plain:
        depth = len(replay.trail)
        new = depth >= len(replay.forced)
        choice = replay.decide(list(weights), radii)
        if slack and new:
            replay.confined += replay.prefix[depth] * slack
        return choice
    choice = replay.decide(list(weights) + [slack], None if radii is None else radii + [0.0])
    if choice == len(weights):
        raise Truncated()
    return choice


def _on_real(op: Callable[[Any, Any], Any]) -> tuple[Callable[[Any, Any], Any], Callable[[Any, Any], Any]]:
    """A binary operator and its reflected form, both applied to the path's real array (``_real``)."""
    def forward(self: Any, other: Any) -> Any:
        return self._real(op, other)

    def reflected(self: Any, other: Any) -> Any:
        return self._real(op, other, True)
    return forward, reflected


class IntVector:
    """``k`` independent integer coordinates (:class:`Coordinate`), standing in for a list of ints
    (``kind == "list"``: what a comprehension builds) or a numpy array of int64 (``"array"``)."""

    __array_priority__ = 1000
    _symbolic_vector = True

    def __init__(self, replay: Any, coords: Sequence[Coordinate], kind: str, numpy: bool = False):
        # the real lists (arrays) of this path handed to the code (:meth:`materialise`), each with a copy of its
        # values: a helper may change one in place (``v.sort()``, ``v.append(3)``, ``v[0] = 0``), and the code's
        # name for the vector then stands for the changed list, which the coordinates no longer describe
        self._handed: list[tuple[Any, Any]] = []
        self.replay, self.coords, self.kind = replay, list(coords), kind
        # a list's elements are numpy's int64 (``c + rng.integers(3)``: a draw of integers is an ``np.int64``), not
        # Python ints (``c + rng.geometric(p)``): as the code would make them (an array's always are)
        self.numpy = numpy or kind == "array"
        self._observed: dict[Any, Any] = {}

    @property
    def coords(self) -> list[Coordinate]:
        """The coordinates, read only while every real list handed to the code is unchanged (else a refusal)."""
        if self._handed:
            self._unchanged()
        return self._coords

    @coords.setter
    def coords(self, value: list[Coordinate]) -> None:
        self._coords = value

    def _unchanged(self) -> None:
        import numpy as np

        for real, values in self._handed:
            if type(real) is list:
                same = len(real) == len(values) and all(type(a) is type(b) and a == b for a, b in zip(real, values))
            else:
                same = (isinstance(real, np.ndarray) and real.shape == values.shape and real.dtype == values.dtype
                        and bool(np.array_equal(real, values)))
            if not same:
                self._handed = []
                _refuse(self.replay, "a real list of draws handed to the code and changed there in place")

    def __len__(self) -> int:
        return len(self.coords)

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # what the code asks it is (isinstance, .__class__): what it stands for
        import numpy as np

        return np.ndarray if self.kind == "array" else list

    def __repr__(self) -> str:  # what the code prints, formats or stores is the real list of this path
        return repr(self.materialise())

    def __str__(self) -> str:
        return str(self.materialise())

    def __format__(self, spec: str) -> str:
        return format(self.materialise(), spec)

    def __copy__(self) -> Any:
        return copy.copy(self.materialise())

    def __deepcopy__(self, memo: Any) -> Any:
        return copy.deepcopy(self.materialise(), memo)

    def __reduce_ex__(self, protocol: Any) -> Any:
        return self.materialise().__reduce_ex__(protocol)

    def __setitem__(self, i: Any, v: Any) -> None:
        self._fallback("assigning an element")

    def __delitem__(self, i: Any) -> None:
        self._fallback("deleting an element")

    # -- arithmetic (numpy arrays only: on a list, + and * concatenate) ---------------------------------------
    def _operand(self, other: Any) -> list[Coordinate] | None:
        import numpy as np

        n = len(self)
        if isinstance(other, IntVector):
            return other.coords if len(other) == n else None
        if _is_int(other):
            return [Coordinate.point(int(other))] * n
        if type(other) in (list, tuple, np.ndarray) and np.ndim(other) == 1 and len(other) == n:
            values = other.tolist() if isinstance(other, np.ndarray) else list(other)
            if all(_is_int(v) for v in values) and (not isinstance(other, np.ndarray) or other.dtype.kind in "iu"):
                return [Coordinate.point(int(v)) for v in values]
        return None

    def _arith(self, other: Any, op: str, reverse: bool = False) -> Any:
        if self.kind != "array":
            return self._fallback(f"arithmetic on a list of {len(self)} draws")
        theirs = self._operand(other)
        if theirs is None:
            real = self.materialise()
            return _OPS_NUMPY[op](other, real) if reverse else _OPS_NUMPY[op](real, other)
        mine = self.coords
        for c in (*mine, *theirs):
            _live(c, self.replay)
        pairs = [(b, a) if reverse else (a, b) for a, b in zip(mine, theirs)]
        if any(a.tokens & b.tokens for a, b in pairs):  # the same draws on both sides (``g - g``)
            real = self.materialise()
            return _OPS_NUMPY[op](other, real) if reverse else _OPS_NUMPY[op](real, other)
        try:
            coords = [_combine(a, b, op) for a, b in pairs]
        except NotEnumerable as e:
            return _refuse(self.replay, str(e))
        if not _disjoint(coords):  # two coordinates sharing draws: not independent
            real = self.materialise()
            return _OPS_NUMPY[op](other, real) if reverse else _OPS_NUMPY[op](real, other)
        return IntVector(self.replay, coords, "array")

    def __add__(self, other: Any) -> Any:
        return self._arith(other, "+")

    def __radd__(self, other: Any) -> Any:
        return self._arith(other, "+", True)

    def __sub__(self, other: Any) -> Any:
        return self._arith(other, "-")

    def __rsub__(self, other: Any) -> Any:
        return self._arith(other, "-", True)

    # -- in place: the vector itself changes (an alias of it sees the change, as numpy's arrays do) ------------
    def _inplace(self, other: Any, iop: Callable[[Any, Any], Any], op: str | None = None) -> Any:
        if self.kind != "array":
            return self._fallback("changing a list in place")
        if op is not None:  # + and -: kept factorised when the operand is one
            result = self._arith(other, op)
            if isinstance(result, IntVector):
                self.coords, self._observed = result.coords, {}
                return self
        real = self.materialise()
        real = iop(real, other)  # numpy's in place, its casting errors as they are (an int64 array += 0.5)
        self._set_real(real)
        return self

    def _set_real(self, real: Any) -> None:
        """The vector becomes the real array ``real`` of this path (every coordinate a point)."""
        import numpy as np

        if not isinstance(real, np.ndarray) or real.shape != (len(self),) or real.dtype != np.int64:
            _refuse(self.replay, "an array of draws changed in place into something else")
        self._handed = [(h, v) for h, v in self._handed if h is not real]  # changed by the vector's own operation
        self.coords, self._observed = [Coordinate.point(int(v)) for v in real.tolist()], {}

    def __iadd__(self, other: Any) -> Any:
        return self._inplace(other, operator.iadd, "+")

    def __isub__(self, other: Any) -> Any:
        return self._inplace(other, operator.isub, "-")

    def __imul__(self, other: Any) -> Any:  # type: ignore[misc]
        return self._inplace(other, operator.imul)

    def __imod__(self, other: Any) -> Any:
        return self._inplace(other, operator.imod)

    def __ifloordiv__(self, other: Any) -> Any:
        return self._inplace(other, operator.ifloordiv)

    def __itruediv__(self, other: Any) -> Any:
        return self._inplace(other, operator.itruediv)

    def __ipow__(self, other: Any) -> Any:
        return self._inplace(other, operator.ipow)

    def __iand__(self, other: Any) -> Any:
        return self._inplace(other, operator.iand)

    def __ior__(self, other: Any) -> Any:
        return self._inplace(other, operator.ior)

    def __ixor__(self, other: Any) -> Any:
        return self._inplace(other, operator.ixor)

    def __ilshift__(self, other: Any) -> Any:
        return self._inplace(other, operator.ilshift)

    def __irshift__(self, other: Any) -> Any:
        return self._inplace(other, operator.irshift)

    def __imatmul__(self, other: Any) -> Any:
        return self._inplace(other, operator.imatmul)

    # -- operators not kept factorised: numpy's (or the list's) on the real array of this path ------------------
    def _real(self, op: Callable[[Any, Any], Any], other: Any, reverse: bool = False) -> Any:
        real = self.materialise()
        return op(other, real) if reverse else op(real, other)

    __mod__, __rmod__ = _on_real(operator.mod)
    __floordiv__, __rfloordiv__ = _on_real(operator.floordiv)
    __truediv__, __rtruediv__ = _on_real(operator.truediv)
    __pow__, __rpow__ = _on_real(operator.pow)
    __divmod__, __rdivmod__ = _on_real(divmod)
    __and__, __rand__ = _on_real(operator.and_)
    __or__, __ror__ = _on_real(operator.or_)
    __xor__, __rxor__ = _on_real(operator.xor)
    __lshift__, __rlshift__ = _on_real(operator.lshift)
    __rshift__, __rrshift__ = _on_real(operator.rshift)
    __matmul__, __rmatmul__ = _on_real(operator.matmul)

    def __abs__(self) -> Any:
        return abs(self.materialise())

    def __pos__(self) -> Any:
        return +self.materialise()

    def __invert__(self) -> Any:
        return ~self.materialise()

    def __neg__(self) -> Any:
        if self.kind != "array":
            return self._fallback("negating a list")
        for c in self.coords:
            _live(c, self.replay)
        return IntVector(self.replay, [_mapped(c, lambda v: -v, "neg") for c in self.coords], "array")

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        import numpy as np

        outs = kwargs.get("out")
        if isinstance(outs, tuple) and any(isinstance(v, IntVector) for v in outs):  # out=vector: in place
            target = outs[0]
            if len(outs) != 1 or not isinstance(target, IntVector) or target.kind != "array":
                return _refuse(self.replay, "a ufunc writing into a vector of draws")
            real_out = target.materialise()  # the same real array wherever the vector is an input too
            real = [real_out if v is target else v.materialise() if isinstance(v, IntVector) else v for v in inputs]
            getattr(ufunc, method)(*real, **dict(kwargs, out=(real_out,)))
            target._set_real(real_out)
            return target
        if method == "__call__" and not kwargs and self.kind == "array":
            if ufunc is np.negative and len(inputs) == 1:
                return -self
            ops = {np.add: "+", np.subtract: "-"}
            if ufunc in ops and len(inputs) == 2:
                a, b = inputs
                return self._arith(b, ops[ufunc]) if a is self else self._arith(a, ops[ufunc], True)
        real = [v.materialise() if isinstance(v, IntVector) else v for v in inputs]
        return getattr(ufunc, method)(*real, **kwargs)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        import numpy as np

        if len(args) == 1 and args[0] is self and not any(v is not None for v in kwargs.values()):
            if func in (np.argmax, np.argmin):
                return np.int64(self.index_of_extreme(func is np.argmax))
            if func in (np.max, np.amax, np.min, np.amin):
                return np.int64(self.extreme(func in (np.max, np.amax)))
            if func is np.copy:
                return IntVector(self.replay, self.coords, "array")
        return func(*_materialised(args), **_materialised(kwargs))

    def argmax(self, axis: Any = None, out: Any = None) -> Any:
        import numpy as np

        if self.kind != "array" or axis is not None or out is not None:
            return self._fallback("argmax")
        return np.int64(self.index_of_extreme(True))

    def argmin(self, axis: Any = None, out: Any = None) -> Any:
        import numpy as np

        if self.kind != "array" or axis is not None or out is not None:
            return self._fallback("argmin")
        return np.int64(self.index_of_extreme(False))

    def max(self, axis: Any = None, out: Any = None) -> Any:
        import numpy as np

        if self.kind != "array" or axis is not None or out is not None:
            return self._fallback("max")
        return np.int64(self.extreme(True))

    def min(self, axis: Any = None, out: Any = None) -> Any:
        import numpy as np

        if self.kind != "array" or axis is not None or out is not None:
            return self._fallback("min")
        return np.int64(self.extreme(False))

    # -- observations -------------------------------------------------------------------------------------------
    def _spend(self, coords: Sequence[Coordinate]) -> None:
        for c in coords:
            _live(c, self.replay)
        for c in coords:
            for t in c.tokens:
                t.spent = True

    def index_of_extreme(self, largest: bool) -> int:
        """The index of the first largest (``largest``) or smallest coordinate: one choice among the ``k``
        indices, with the probabilities of :func:`extreme_index`."""
        asked = ("index", largest)
        if asked in self._observed:
            return self._observed[asked]
        if self._observed:
            _refuse(self.replay, "two different observations of one vector of independent draws")
        if not _disjoint(self.coords):
            _refuse(self.replay, "a vector whose coordinates share draws")
        self._spend(self.coords)
        weights, slack, radius = extreme_index(self.coords, largest)
        choice = _choose(self.replay, weights, slack, radius)
        self._observed[asked] = choice
        return choice

    def extreme(self, largest: bool) -> int:
        """The largest (smallest) value: one choice among its values, the coordinates' tails an open tail."""
        asked = ("value", largest)
        if asked in self._observed:
            return self._observed[asked]
        if self._observed:
            _refuse(self.replay, "two different observations of one vector of independent draws")
        if not _disjoint(self.coords):
            _refuse(self.replay, "a vector whose coordinates share draws")
        self._spend(self.coords)
        values, weights, radius = _largest_value(self.coords, largest)
        slack = 1 - sum(weights)
        radii = [radius] * len(weights) if radius else None
        choice = self.replay.decide(weights + [slack] if slack else weights,
                                    None if radii is None else radii + [0.0] * bool(slack))
        if choice == len(values):
            raise Truncated()
        self._observed[asked] = values[choice]
        return values[choice]

    def _read(self, i: int) -> int:
        """Coordinate ``i``'s value: one choice among its values (its tail an open tail); the coordinate keeps it."""
        c = self.coords[i]
        if len(c.dist) == 1 and not c.tail and not c.tokens:
            return next(iter(c.dist))
        if self._observed:
            _refuse(self.replay, "reading a coordinate of a vector of independent draws after an observation of all")
        self._spend([c])
        values = sorted(c.dist)
        weights = [c.dist[v] for v in values] + ([c.tail] if c.tail else [])
        choice = self.replay.decide(weights, [c.radius] * len(weights) if c.radius else None)
        if choice == len(values):
            raise Truncated()
        self.coords[i] = Coordinate.point(values[choice])
        return values[choice]

    def _element(self, v: int) -> Any:
        import numpy as np

        return np.int64(v) if self.numpy else v

    def __getitem__(self, i: Any) -> Any:
        import numpy as np

        if isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_)) and -len(self) <= int(i) < len(self):
            return self._element(self._read(int(i) % len(self)))
        real = self.materialise()
        got = real[i]
        if self.kind == "array" and isinstance(got, np.ndarray) and np.shares_memory(got, real):
            # a view (a basic slice): the code may change it in place, and the array with it
            return self._fallback("a view of an array of draws (a slice)")
        return got

    def __iter__(self) -> Any:
        return (self[i] for i in range(len(self)))

    def materialise(self) -> Any:
        """The real list (or numpy array) of this path: every coordinate read."""
        import numpy as np

        values = [self._read(i) for i in range(len(self))]
        if self.kind == "array":
            real = np.array(values, dtype=np.int64)
            self._handed.append((real, real.copy()))
            return real
        listed = [np.int64(v) for v in values] if self.numpy else values
        self._handed.append((listed, list(listed)))
        return listed

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        import numpy as np

        values = np.asarray(self.materialise(), dtype=np.int64)
        return values if dtype is None else values.astype(dtype)

    def _fallback(self, doing: str) -> Any:
        return _refuse(self.replay, f"{doing} of a vector of independent draws (kept factorised only for the index "
                       "of the largest or smallest, the largest value and reading coordinates)")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return self._fallback(f"'{name}'")

    def __bool__(self) -> bool:
        if self.kind == "list":
            return bool(self.coords)
        return bool(self.materialise())

    def __eq__(self, other: Any) -> Any:
        return self.materialise() == (other.materialise() if isinstance(other, IntVector) else other)

    def __ne__(self, other: Any) -> Any:
        return self.materialise() != (other.materialise() if isinstance(other, IntVector) else other)

    __hash__ = None  # type: ignore[assignment]

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        return self._fallback("this operation")

    __lt__ = __le__ = __gt__ = __ge__ = __mul__ = __rmul__ = __contains__ = _refuse


def _ops_numpy() -> dict[str, Callable[[Any, Any], Any]]:
    return {"+": lambda a, b: a + b, "-": lambda a, b: a - b}


_OPS_NUMPY = _ops_numpy()


def _materialised(value: Any) -> Any:
    """``value`` with every :class:`IntVector` in it (also in lists, tuples and dicts, by their exact types) made
    real: a list or a dict in place (the code may hold it and change it), a tuple copied."""
    if isinstance(value, IntVector):
        return value.materialise()
    if not _holds_vector(value):
        return value
    if type(value) is tuple:
        return tuple(_materialised(v) for v in value)
    if type(value) is list:
        value[:] = [_materialised(v) for v in value]
    elif type(value) is dict:
        for k, v in value.items():
            value[k] = _materialised(v)
    return value


def independent_draws(gen: Any, kind: str, size: Any, args: tuple) -> IntVector | None:
    """``rng.geometric(p, size=k)`` or ``rng.integers(a, b, size=k)`` as a vector of independent coordinates,
    when enumerating its ``k`` draws one by one would exceed the path limit; else ``None``."""
    if isinstance(size, tuple) and len(size) == 1:
        size = size[0]
    if not isinstance(size, int) or isinstance(size, bool) or not 0 < size <= 1 << 16 or not iteration_maps.enabled:
        return None
    replay = gen._replay
    coords = [_geometric_coordinate(args[0], replay.max_depth, gen) if kind == "geometric"
              else _integers_coordinate(*args) for _ in range(size)]
    outcomes = len(coords[0].dist) + bool(coords[0].tail)
    if kind == "geometric" and coords[0].tail:  # its outcomes at the default depth: the same choice at every level
        outcomes = min(MAX_GEOMETRIC, math.ceil(MAX_DEPTH * math.log(2) / -math.log1p(-float(Fraction(args[0]))))) + 1
    if size * math.log2(max(outcomes, 2)) <= math.log2(MAX_PATHS):
        return None
    iteration_maps.used += 1
    return IntVector(replay, coords, "array")


# -- lists built element by element, proven from the source ---------------------------------------------------

_REAL: dict[str, Any] = {"int": int, "range": range, "enumerate": enumerate, "max": max, "min": min, "len": len}
_FRAME_READERS = {"locals", "vars", "eval", "exec", "dir", "super", "globals", "breakpoint", "compile"}
_FRAME_ATTRS = {"f_locals", "f_back", "f_globals", "_getframe", "currentframe", "f_builtins", "stack"}
_PREFIX = "__rnm_"


@dataclass(frozen=True)
class _Site:
    """A draw inside a list built element by element, proven from the source (:func:`_site`)."""

    element: ast.expr  # E
    targets: tuple[str, ...]  # the loop variables (one, or (index, value) over enumerate)
    iterable: ast.expr  # ITER
    rest: tuple[ast.stmt, ...]  # the statements that run once the list is built
    bound: str  # the name the vector is bound to in the rest
    code: CodeType  # the randomizer's code
    nested: bool  # the draw is made in a comprehension's own frame (CPython before 3.12)
    loop: bool  # a loop appending (its variables are the function's), not a comprehension
    #: a running maximum in the loop instead of a list: (value, best, index kept, loop variable, strict, guard)
    fold: tuple | None = None
    statement: int = 0  # the statement's index in the function's body
    sized: bool = False  # a sized draw (its vector made by the generator), not a list built element by element
    roots: tuple[tuple[str, ...], ...] = ()  # attributes the statement reads before the list (:func:`_module_chain`)
    compiled: dict = field(default_factory=dict)  # the rest's code, by the names bound (:func:`_rest_code`)
    #: ``E = A op1 D1 op2 N2 ...`` with calls of the code's own in ``A`` (:func:`_lead`): (A, ((op, N), ...))
    lead: tuple | None = None


_SITES: dict[tuple[int, int], tuple[CodeType, _Site | None]] = {}


def draw_site(gen: Any, frame: FrameType, ready: IntVector | None = None) -> Any:
    """Called by the enumerating generator at a single draw of ``integers`` or ``geometric``, ``frame`` the frame
    that asked for it: when the draw is the first of a list built element by element (module docstring), the
    list is made a :class:`IntVector`, the rest of the function runs with it, and the call ends with what it
    returns (:class:`~relations.audit._iteration.Returned`); otherwise nothing happens."""
    if gen.__dict__.get("_pending_misused"):  # a placeholder was used as no number is: this run is void
        _abandon("a placeholder draw of a noisy element was used otherwise")
    pending = gen.__dict__.get("_pending")
    if pending is not None and not pending.done:  # the code drew again before its score took the placeholder
        _abandon("a placeholder draw of a noisy element was not handed the element's score")
    code = frame.f_code  # (read once: each read of a frame's code raises an audit event, a call of a hook)
    key = (id(code), frame.f_lasti)  # by identity: equal code objects of two files are two sites
    known = _SITES.get(key)
    if known is not None and known[0] is code:
        site = known[1]
    else:
        try:
            site = _site(frame)
        except RecursionError:  # pragma: no cover - a deeply nested expression
            site = None
        if len(_SITES) > 4096:
            _SITES.clear()
        _SITES[key] = (code, site)
    if site is None or not iteration_maps.enabled:
        return
    own = frame.f_back if site.nested else frame
    if own is None or own.f_code is not site.code or not called_by_enumerator(own):
        return
    # only at the statement's first draw in this run (a generator per run): once it declined, its later draws
    # (the next elements, the element's second draw) are made one by one, as the code makes them
    touched = gen.__dict__.setdefault("_statements_drawn", set())
    if site.statement in touched:
        return
    touched.add(site.statement)
    try:
        if not all(_module_chain(_value(own, r[0]), r[1:]) for r in site.roots):
            return  # an attribute of an object, read again by the rest: its code could run twice
    except KeyError:
        return
    if site.lead is not None:  # ``A op1 D1 ...``: D1 answered by a placeholder that receives A's value
        rows = _iterated(site, frame, loose=True) if ready is None else None
        # two elements at least: a placeholder misused where the code catches the error is still caught, at
        # the next element's draw (_Pending)
        if rows is None or len(rows) < 2:
            return None
        pending = gen.__dict__["_pending"] = _Pending(site, frame, own, gen)  # checked at the run's end (settle)
        return pending
    if ready is not None:  # a sized draw: its vector, made by the generator
        if not site.sized:
            return
        vector, last = ready, dict[str, Any]()
    elif site.sized:  # a sized draw's site reached without its vector
        return
    else:
        built = _built(site, own, gen, frame if site.nested else None)
        if built is None:
            return
        vector, last = built
    values = dict(own.f_locals)
    if site.fold is not None:  # a running maximum: the index it keeps, one choice
        kept = _fold_choice(site, _elements(site, own) or [], vector.coords, own, gen._replay)
        if kept is _UNKNOWN:
            return
        for name in site.fold[:2]:  # its value and the largest: not read after the loop (proven)
            values.pop(name, None)
        values[site.fold[2]] = kept
    iteration_maps.used += 1
    if site.loop:  # the loop's variables end at the last element's values, as the loop leaves them
        values.update(last)
    if site.fold is None:
        values[site.bound] = vector
    _continue(site, own, values)


def _module_chain(value: Any, attrs: tuple[str, ...]) -> bool:
    """Whether reading ``attrs`` one after the other from ``value`` runs no code: each read from a module (by its
    exact type: a subclass may have properties) that holds it in its own dict (else its ``__getattr__`` runs)."""
    for name in attrs:
        if type(value) is not ModuleType or name not in value.__dict__:
            return False
        value = value.__dict__[name]
    return True


def _continue(site: _Site, own: FrameType, values: dict[str, Any]) -> None:
    """Run the rest of the function with ``values`` as its locals, and end the call with what it returns."""
    fn = FunctionType(_rest_code(site, tuple(sorted(values))), own.f_globals)
    CONTINUATIONS[0] += 1
    try:
        result = fn(**values, **{_PREFIX + k: v for k, v in _HELPERS.items()})
        result = _materialised(result)
    finally:
        CONTINUATIONS[0] -= 1
    raise Returned(result)


_UNKNOWN: Any = object()


def _site(frame: FrameType) -> _Site | None:
    """The static part of the proof (cached per draw instruction): the shapes of the module docstring."""
    nested = frame.f_code.co_name == "<listcomp>"
    own_code = frame.f_back.f_code if nested and frame.f_back is not None else frame.f_code
    import inspect

    if own_code.co_freevars or own_code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE
                                                     | inspect.CO_ASYNC_GENERATOR):
        return None
    func = function_node(own_code)
    at = _call_position(frame)
    if func is None or at is None or at[0] not in ("CALL", "PRECALL"):
        return None
    span = at[1]
    if any(isinstance(n, (ast.Global, ast.Nonlocal)) for n in ast.walk(func)):
        return None
    if any(isinstance(n, ast.Name) and n.id.startswith(_PREFIX) for n in ast.walk(func)):
        return None
    body = func.body
    for j, stmt in enumerate(body):
        if not _inside(stmt, span):
            continue
        prefix = body[:j]
        if any(isinstance(n, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.GeneratorExp))
               for s in prefix for n in ast.walk(s)):
            return None  # a closure made before could see the function's variables change
        found = _comprehension_site(stmt, span) if not isinstance(stmt, ast.For) else None
        sized = _sized_site(stmt, span) if found is None and not nested and not isinstance(stmt, ast.For) else None
        if sized is not None:  # ``rng.geometric(p, size=k)``: the rest runs with the vector in the call's place
            after = [_replaced(stmt, sized[0])] + body[j + 1:]
            if not _safe_rest(after):
                return None
            return _Site(sized[0], (), sized[0], tuple(_rewritten(after)), _PREFIX + "vector", own_code, False,
                         False, None, j, True, sized[1])
        if found is not None:
            comp, element, targets, roots = found
            rest: list[ast.stmt] = [_replaced(stmt, comp)] + body[j + 1:]
            bound = _PREFIX + "vector"
            iterable = comp.generators[0].iter
        elif isinstance(stmt, ast.For) and not nested:
            fold = None
            loop = _loop_site(body, j, span)
            if loop is None:
                folded = _fold_site(stmt, span)
                if folded is None:
                    return None
                element, targets, fold = folded
                bound = ""
                if any(isinstance(n, ast.Name) and n.id in fold[:2] for s in body[j + 1:] for n in ast.walk(s)):
                    return None  # the running maximum's value is read after the loop: only its index is computed
            else:
                element, targets, bound = loop
            iterable, rest = stmt.iter, body[j + 1:]
        else:
            return None
        lead = None
        if not _grammar(element, set(targets)):
            lead = _lead(element, set(targets), span) if found is not None and nested else None
            if lead is None:
                return None
        if not _safe_rest(rest):
            return None
        rewritten = tuple(_rewritten(rest))
        return _Site(element, targets, iterable, rewritten, bound, own_code, nested, found is None,
                     fold if found is None else None, j, False, roots if found is not None else (), lead=lead)
    return None


def _call_position(frame: FrameType) -> tuple[str, tuple[Any, ...]] | None:
    """The instruction ``frame`` is at, a call in progress (CPython 3.11 may stand in its inline caches, after
    the ``CALL``), and its source span."""
    import dis

    at = frame_position(frame)
    if at is not None:
        return at
    last = None
    for ins in dis.get_instructions(frame.f_code):
        if ins.offset > frame.f_lasti:
            break
        last = ins
    if last is None or last.positions is None:
        return None
    p = last.positions
    return last.opname, (p.lineno, p.end_lineno, p.col_offset, p.end_col_offset)


def _span(node: ast.AST) -> tuple[Any, ...]:
    return (getattr(node, "lineno", None), getattr(node, "end_lineno", None), getattr(node, "col_offset", None),
            getattr(node, "end_col_offset", None))


def _inside(stmt: ast.stmt, span: tuple[Any, ...]) -> bool:
    line, end = span[0], span[1]
    return line is not None and stmt.lineno <= line and end <= (stmt.end_lineno or stmt.lineno)


def _draw_calls(element: ast.expr) -> list[ast.Call]:
    return [n for n in ast.walk(element) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr in ("geometric", "integers")]


def _targets(target: ast.expr) -> tuple[str, ...] | None:
    if isinstance(target, ast.Name):
        return (target.id,)
    if isinstance(target, ast.Tuple) and len(target.elts) == 2 and all(isinstance(e, ast.Name) for e in target.elts):
        names = tuple(e.id for e in target.elts)  # type: ignore[attr-defined]
        return names if names[0] != names[1] else None
    return None


def _comprehension_site(stmt: ast.stmt, span: tuple[Any, ...]
                        ) -> tuple[ast.ListComp, ast.expr, tuple[str, ...], tuple[tuple[str, ...], ...]] | None:
    """The list comprehension of ``stmt`` whose element makes the draw at ``span``, when everything ``stmt``
    evaluates before it is a name, an attribute of one or a constant (evaluated again by the rest, harmlessly)."""
    for comp in ast.walk(stmt):
        if not isinstance(comp, ast.ListComp) or len(comp.generators) != 1:
            continue
        gen = comp.generators[0]
        if gen.ifs or gen.is_async or not any(_span(c) == span for c in _draw_calls(comp.elt)):
            continue
        targets = _targets(gen.target)
        roots: list[tuple[str, ...]] = []
        if targets is None or not _pure_before(stmt, comp, roots):
            return None
        return comp, comp.elt, targets, tuple(roots)
    return None


def _sized_site(stmt: ast.stmt, span: tuple[Any, ...]) -> tuple[ast.Call, tuple[tuple[str, ...], ...]] | None:
    """The draw ``RNG.geometric(..., size=...)`` / ``RNG.integers(..., size=...)`` at ``span`` in ``stmt``, when
    everything ``stmt`` evaluates before it is a pure load."""
    for call in ast.walk(stmt):
        if (isinstance(call, ast.Call) and _span(call) == span and isinstance(call.func, ast.Attribute)
                and call.func.attr in ("geometric", "integers") and any(k.arg == "size" for k in call.keywords)):
            roots: list[tuple[str, ...]] = []
            return (call, tuple(roots)) if _pure_before(stmt, call, roots) else None
    return None


def _loop_site(body: list[ast.stmt], j: int, span: tuple[Any, ...]) -> tuple[ast.expr, tuple[str, ...], str] | None:
    """``OUT = []`` then at once ``for TARGET in ITER: OUT.append(E)``, the draw at ``span`` in ``E``."""
    loop = body[j]
    if not isinstance(loop, ast.For) or loop.orelse or len(loop.body) != 1 or not isinstance(loop.body[0], ast.Expr):
        return None
    call = loop.body[0].value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append"
            and isinstance(call.func.value, ast.Name) and len(call.args) == 1 and not call.keywords):
        return None
    out = call.func.value.id
    targets = _targets(loop.target)
    if targets is None or out in targets or not any(_span(c) == span for c in _draw_calls(call.args[0])):
        return None
    fresh = body[j - 1] if j else None
    if not (isinstance(fresh, ast.Assign) and len(fresh.targets) == 1 and isinstance(fresh.targets[0], ast.Name)
            and fresh.targets[0].id == out and isinstance(fresh.value, ast.List) and not fresh.value.elts):
        return None
    return call.args[0], targets, out


def _fold_site(loop: ast.For, span: tuple[Any, ...]) -> tuple[ast.expr, tuple[str, ...], tuple] | None:
    """A running maximum: ``for TARGET in ITER:`` whose body is ``V = E`` (the draw at ``span`` in ``E``) then
    the ``if`` of :func:`_fold_shape`, nothing else."""
    targets = _targets(loop.target)
    if targets is None or loop.orelse or len(loop.body) != 2:
        return None
    first, test = loop.body
    if not (isinstance(first, ast.Assign) and len(first.targets) == 1 and isinstance(first.targets[0], ast.Name)
            and any(_span(c) == span for c in _draw_calls(first.value))):
        return None
    value = first.targets[0].id
    if value in targets or not isinstance(test, ast.If):
        return None
    shape = _fold_shape(test, value, targets)
    if shape is None:
        return None
    best, arg, index, strict, guard = shape
    return first.value, targets, (value, best, arg, index, strict, guard)


def _fold_choice(site: _Site, rows: list[dict[str, Any]], coords: list[Coordinate], frame: FrameType,
                 replay: Any) -> Any:
    """The index the running maximum keeps (its ``ARG``) after the loop, as one choice (:func:`_running`);
    ``_UNKNOWN`` when the initial values are not those proven."""
    value, best, arg, index, strict, guard = site.fold  # type: ignore[misc]
    return _running(replay, coords, [r[index] for r in rows], frame.f_locals.get(best, _UNKNOWN),
                    frame.f_locals.get(arg, _UNKNOWN), strict, guard)


def _running(replay: Any, coords: Sequence[Coordinate], keys: Sequence[Any], b0: Any, a0: Any, strict: bool,
             guard: bool) -> Any:
    """``for key, X in zip(keys, coords): if X > best: best, arg = X, key`` (``>=`` unless ``strict``; ``best is
    None or`` first with ``guard``) from ``best = b0``, ``arg = a0``: the ``arg`` kept, one choice among the keys
    and ``a0``.  That is the first (strict) or last index of the largest against ``b0`` (``None``, ``-inf`` or an
    integer, which keeps ``a0`` when no value beats it); ``_UNKNOWN`` for other starts (the code runs as it is)."""
    if b0 is None:
        if not guard:
            return _UNKNOWN  # ``X > None`` raises
        start = None
    elif isinstance(b0, float) and b0 == -math.inf:
        start = None
    elif _is_int(b0):
        start = Coordinate.point(int(b0))
        if a0 is _UNKNOWN:
            return _UNKNOWN
    else:
        return _UNKNOWN
    if not _disjoint(coords):
        return _UNKNOWN
    for c in coords:
        _live(c, replay)
    order = list(coords) if strict else list(coords)[::-1]  # ``>=``: the last of the largest
    keys = list(keys) if strict else list(keys)[::-1]
    if start is not None:  # the initial value goes first (strict: it keeps ties) or last (``>=``: it loses them)
        order = [start, *order] if strict else [*order, start]
        keys = [a0, *keys] if strict else [*keys, a0]
    for c in coords:
        for t in c.tokens:
            t.spent = True
    weights, slack, radius = extreme_index(order, True)
    return keys[_choose(replay, weights, slack, radius)]


def _compare_test(cond: ast.expr, value: str) -> tuple[ast.expr, bool] | None:
    """``value > OTHER`` (or ``OTHER < value``: strict) or ``>=`` / ``<=``: ``(OTHER, strict)``."""
    if not (isinstance(cond, ast.Compare) and len(cond.ops) == 1):
        return None
    left, op, right = cond.left, type(cond.ops[0]), cond.comparators[0]
    if _same(left, value) and op in (ast.Gt, ast.GtE):
        return right, op is ast.Gt
    if _same(right, value) and op in (ast.Lt, ast.LtE):
        return left, op is ast.Lt
    return None


def _same(node: ast.expr, text: str) -> bool:
    return ast.dump(node) == text


def _running_loop(loop: ast.stmt, later: Sequence[ast.stmt]) -> ast.Module | None:
    """A running maximum over a vector in the rest, as a choice when the vector is one, else the loop as written:

    * ``for I in range(S, len(V)):`` (or ``range(S, K)``, ``range(len(V))``) ``if V[I] > V[B]: B = I`` (``>=``,
      ``<``, ``<=``), from ``B`` equal to ``S`` or ``S - 1`` (checked when it runs): ``B`` the first (last) index of
      the largest;
    * ``for I, X in enumerate(V): if X > BV: BV, BI = X, I`` (``BV is None or``, two assignments; the starts
      of :func:`_running`), the value ``BV`` not read after it.

    The loop variables are not read after it (their last values are not set); only names, constants and
    ``len(V)`` are evaluated before the choice (the builtins checked when it runs), so that nothing runs twice
    when the loop runs as written after all."""
    if not (isinstance(loop, ast.For) and not loop.orelse and len(loop.body) == 1 and isinstance(loop.body[0], ast.If)
            and not loop.body[0].orelse):
        return None
    test = loop.body[0]
    read_later = {n.id for s in later for n in ast.walk(s) if isinstance(n, ast.Name)}
    targets = _targets(loop.target)
    it = loop.iter
    if targets is None or set(targets) & read_later or not isinstance(it, ast.Call) or it.keywords \
            or not isinstance(it.func, ast.Name):
        return None

    def load(name: str) -> ast.expr:
        return ast.Name(id=name, ctx=ast.Load())

    def thunk(name: str) -> ast.expr:
        return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                                             kwarg=None, defaults=[]), body=load(name))

    if len(targets) == 1 and it.func.id == "range" and 1 <= len(it.args) <= 2:
        (i,) = targets
        body = test.body
        if not (len(body) == 1 and isinstance(body[0], ast.Assign) and len(body[0].targets) == 1
                and isinstance(body[0].targets[0], ast.Name) and isinstance(body[0].value, ast.Name)
                and body[0].value.id == i and body[0].targets[0].id != i):
            return None
        b = body[0].targets[0].id
        cond = test.test
        if not (isinstance(cond, ast.Compare) and len(cond.ops) == 1
                and isinstance(cond.left, ast.Subscript) and isinstance(cond.left.value, ast.Name)):
            return None
        vec = cond.left.value.id
        if vec in (i, b) or vec in targets:
            return None
        got = _compare_test(cond, ast.dump(ast.Subscript(value=load(vec), slice=load(i), ctx=ast.Load())))
        if got is None or not _same(got[0], ast.dump(ast.Subscript(value=load(vec), slice=load(b), ctx=ast.Load()))):
            return None
        spec: list[ast.expr] = []
        for a in it.args:  # each bound: a constant, a name or len(V), evaluated by the helper
            if isinstance(a, (ast.Constant, ast.Name)):
                spec.append(ast.Tuple(elts=[ast.Constant(value="v"), a], ctx=ast.Load()))
            elif (isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and len(a.args) == 1 and not a.keywords
                  and isinstance(a.args[0], ast.Name) and a.args[0].id == vec):
                spec.append(ast.Tuple(elts=[ast.Constant(value="len"), a.func], ctx=ast.Load()))
            else:
                return None
        call = ast.Call(func=load(_PREFIX + "by_index"), args=[load(vec), thunk(b), it.func,
                        ast.Tuple(elts=spec, ctx=ast.Load()), ast.Constant(value=got[1])], keywords=[])
        kept = b
    elif len(targets) == 2 and it.func.id == "enumerate" and len(it.args) == 1 and isinstance(it.args[0], ast.Name):
        i, x = targets
        vec = it.args[0].id
        shape = _fold_shape(test, x, (i, x))
        if shape is None:
            return None
        best, arg, index, strict, guard = shape
        if index != i or best in read_later or vec in (best, arg):
            return None
        call = ast.Call(func=load(_PREFIX + "fold"), args=[load(vec), thunk(best), thunk(arg), it.func,
                        ast.Constant(value=strict), ast.Constant(value=guard)], keywords=[])
        kept = arg
    else:
        return None
    # __rnm_kept = helper(...); if __rnm_kept is __rnm_unknown: <the loop> else: KEPT = __rnm_kept
    first = ast.Assign(targets=[ast.Name(id=_PREFIX + "kept", ctx=ast.Store())], value=call)
    node = ast.If(test=ast.Compare(left=load(_PREFIX + "kept"), ops=[ast.Is()], comparators=[load(_PREFIX + "unknown")]),
                  body=[loop], orelse=[ast.Assign(targets=[ast.Name(id=kept, ctx=ast.Store())],
                                                  value=load(_PREFIX + "kept"))])
    for stmt in (first, node):
        for n in ast.walk(stmt):
            if n is not loop and not any(n is m for m in ast.walk(loop)):
                ast.copy_location(n, loop)
                n.end_lineno, n.end_col_offset = loop.end_lineno, loop.end_col_offset  # type: ignore[attr-defined]
    return ast.Module(body=[first, node], type_ignores=[])  # two statements, spliced by the caller


def _fold_shape(test: ast.If, value: str, targets: tuple[str, ...]) -> tuple[str, str, str, bool, bool] | None:
    """``if VALUE > BEST:`` (``>=``, ``BEST < VALUE``, ``BEST is None or ...``) assigning ``BEST = VALUE`` and
    ``ARG = I`` (``I`` one of ``targets``; two statements or one tuple assignment), nothing else:
    ``(BEST, ARG, I, strict, guard)``."""
    if test.orelse:
        return None
    cond, guard = test.test, False
    none: Any = None
    if isinstance(cond, ast.BoolOp) and isinstance(cond.op, ast.Or) and len(cond.values) == 2:
        none, cond = cond.values
        guard = True
        if not (isinstance(none, ast.Compare) and len(none.ops) == 1 and isinstance(none.ops[0], ast.Is)
                and isinstance(none.left, ast.Name) and isinstance(none.comparators[0], ast.Constant)
                and none.comparators[0].value is None):
            return None
    got = _compare_test(cond, ast.dump(ast.Name(id=value, ctx=ast.Load())))
    if got is None or not isinstance(got[0], ast.Name):
        return None
    best, strict = got[0].id, got[1]
    if guard and none.left.id != best:
        return None
    pairs: dict[str, str] = {}
    for stmt in test.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
            return None
        t, v = stmt.targets[0], stmt.value
        items: list[tuple[ast.expr, ast.expr]]
        if isinstance(t, ast.Name) and isinstance(v, ast.Name):
            items = [(t, v)]
        elif isinstance(t, ast.Tuple) and isinstance(v, ast.Tuple) and len(t.elts) == len(v.elts):
            items = list(zip(t.elts, v.elts))
        else:
            return None
        for a, b in items:
            if not (isinstance(a, ast.Name) and isinstance(b, ast.Name)) or a.id in pairs:
                return None
            pairs[a.id] = b.id
    arg = next((a for a in pairs if a != best), None)
    if len(pairs) != 2 or pairs.get(best) != value or arg is None or pairs[arg] not in targets:
        return None
    if best == arg or {best, arg} & (set(targets) | {value}):
        return None
    return best, arg, pairs[arg], strict, guard


def _pure_load(node: ast.AST) -> bool:
    if isinstance(node, (ast.Name, ast.Constant)):
        return True
    return isinstance(node, ast.Attribute) and _pure_load(node.value)


def _ordered(node: ast.AST) -> list[ast.AST] | None:
    """The children of ``node`` in the order Python evaluates them, for the shapes allowed around the list."""
    if isinstance(node, ast.Call):
        return [node.func, *node.args, *(k.value for k in node.keywords)]
    if isinstance(node, (ast.Return, ast.Expr)):
        return [node.value] if node.value is not None else []
    if isinstance(node, ast.Assign):
        return [node.value] if all(isinstance(t, ast.Name) for t in node.targets) else None
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.UnaryOp):
        return [node.operand]
    if isinstance(node, ast.Subscript):
        return [node.value, node.slice]
    if isinstance(node, ast.Attribute):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List)):
        return list(node.elts)
    if isinstance(node, ast.Compare):
        return [node.left, *node.comparators]
    return None


def _pure_before(root: ast.AST, target: ast.AST, roots: list[tuple[str, ...]]) -> bool:
    """Whether everything ``root`` evaluates before ``target`` is a pure load (a name, an attribute of one, a
    constant), through the shapes of :func:`_ordered`; the attributes read are added to ``roots`` as chains
    ``(NAME, ATTR, ...)`` (each must be read from a module's own dict when it runs: :func:`_module_chain`)."""
    if root is target:
        return True
    children = _ordered(root)
    if children is None:
        return False
    for child in children:
        if child is target or any(n is target for n in ast.walk(child)):
            return _pure_before(child, target, roots)
        if not _pure_load(child):
            return False
        if isinstance(child, ast.Attribute):
            chain: list[str] = []
            while isinstance(child, ast.Attribute):
                chain.insert(0, child.attr)
                child = child.value
            roots.append((child.id, *chain))  # type: ignore[attr-defined]
    return False


class _Swap(ast.NodeTransformer):
    def __init__(self, old: ast.AST):
        self.old = old

    def visit(self, node: ast.AST) -> Any:
        if node is self.old:
            return ast.copy_location(ast.Name(id=_PREFIX + "vector", ctx=ast.Load()), node)
        return super().visit(node)


def _replaced(stmt: ast.stmt, comp: ast.expr) -> ast.stmt:
    """``stmt`` with the list comprehension (or the sized draw) replaced by the vector's name (a copy)."""
    twin = copy.deepcopy(stmt)
    # the same node in the copy: found by its position among the nodes walked in the same order
    index = next(i for i, n in enumerate(ast.walk(stmt)) if n is comp)
    old = next(n for i, n in enumerate(ast.walk(twin)) if i == index)
    return _Swap(old).visit(twin)


def _grammar(node: ast.AST, loop: set[str]) -> bool:
    """Whether ``E`` is integer arithmetic of constants, names, ``NAME[loop variable]`` and draws on a named
    generator, every draw unconditional (module docstring)."""
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)) and _grammar(node.left, loop) and _grammar(node.right, loop)
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, (ast.USub, ast.UAdd)) and _grammar(node.operand, loop)
    if isinstance(node, ast.Subscript):
        return (isinstance(node.value, ast.Name) and isinstance(node.slice, (ast.Name, ast.Constant))
                and node.value.id not in loop)
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id == "int":
            return len(node.args) == 1 and not node.keywords and _grammar(node.args[0], loop)
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("geometric", "integers") \
                and isinstance(node.func.value, ast.Name) and node.func.value.id not in loop:
            simple = [*node.args, *(k.value for k in node.keywords if not (  # endpoint=True / False
                k.arg == "endpoint" and isinstance(k.value, ast.Constant) and type(k.value.value) is bool))]
            names = {k.arg for k in node.keywords}
            allowed = {"p"} if node.func.attr == "geometric" else {"low", "high", "endpoint"}
            return (all(_simple(a) for a in simple) and names <= allowed
                    and not any(isinstance(a, ast.Starred) for a in node.args))
    return False


_ARITHMETIC = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
               ast.FloorDiv: lambda a, b: a // b, ast.Div: lambda a, b: a / b}


def _simple(node: ast.expr) -> bool:
    """Arithmetic (``+ - * // /``, unary ``-``) of number constants and names: an argument of a draw
    (``rng.integers(-k, k + 1)``), evaluated on numbers only (:func:`_number`)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _simple(node.operand)
    if isinstance(node, ast.BinOp):
        return type(node.op) in _ARITHMETIC and _simple(node.left) and _simple(node.right)
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float)
    return isinstance(node, ast.Name)


def _safe_rest(rest: Sequence[ast.stmt]) -> bool:
    """The rest does not read its own frame (``locals()``, ``eval``, ``sys._getframe`` ...), where the compiled
    rest and the function would differ."""
    for s in rest:
        for n in ast.walk(s):
            if isinstance(n, ast.Name) and n.id in _FRAME_READERS:
                return False
            if isinstance(n, ast.Attribute) and n.attr in _FRAME_ATTRS:
                return False
            if isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal)):
                return False
    return True


def _builtin(frame: FrameType, name: str) -> Any:
    """The builtin ``name`` when ``frame``'s code sees the real one (not a local, a closure's or a global)."""
    code = frame.f_code
    if name in code.co_varnames or name in code.co_cellvars or name in code.co_freevars or name in frame.f_globals:
        return None
    value = frame.f_builtins.get(name)
    return value if value is _REAL.get(name) else None


def _value(frame: FrameType, name: str) -> Any:
    """The value ``name`` has in ``frame``'s code: a local (bound), a global or a builtin; ``KeyError`` if none."""
    code = frame.f_code
    if name in code.co_varnames or name in code.co_cellvars:
        return frame.f_locals[name]
    if name in frame.f_globals:
        return frame.f_globals[name]
    return frame.f_builtins[name]


def _elements(site: _Site, frame: FrameType, inner: FrameType | None = None) -> list[dict[str, Any]] | None:
    """The loop variables' values, element by element, from ``ITER``: a local or global sequence of integers,
    ``range(...)`` of integers or ``enumerate(NAME)``; for a comprehension in its own frame (``inner``), any
    ``ITER``, read from the iterator the comprehension holds (:func:`_iterated`)."""
    import numpy as np

    if inner is not None:
        return _iterated(site, inner)
    it = site.iterable
    values: Any
    index = False
    if isinstance(it, ast.Name):
        values = _value(frame, it.id)
    elif (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ("range", "enumerate")
          and not it.keywords and all(isinstance(a, (ast.Name, ast.Constant)) or _length(a) for a in it.args)
          and _builtin(frame, it.func.id) is not None):
        args: list[Any] = []
        for a in it.args:  # a constant, a name, or len(NAME) by the builtin, of a builtin sequence (no code runs)
            if isinstance(a, ast.Call):
                sized = _value(frame, a.args[0].id)  # type: ignore[attr-defined]
                if _builtin(frame, "len") is None or type(sized) not in (list, tuple, range, np.ndarray):
                    return None
                args.append(len(sized))
            else:
                args.append(a.value if isinstance(a, ast.Constant) else _value(frame, a.id))  # type: ignore[attr-defined]
        if it.func.id == "range":
            if not all(_is_int(a) for a in args) or not 1 <= len(args) <= 3:
                return None
            values = range(*[int(a) for a in args])
        else:
            if len(args) != 1:
                return None
            values, index = args[0], True
    else:
        return None
    return _rows(site, values, 0 if index else None)


def _rows(site: _Site, values: Any, start: int | None, loose: bool = False) -> list[dict[str, Any]] | None:
    """The loop variables' values over ``values`` (enumerated from ``start`` unless ``None``), when ``values`` is
    a list, tuple or range of integers or a 1-d integer array, by its exact type: a subclass's ``__iter__`` could
    iterate something else."""
    import numpy as np

    if type(values) is np.ndarray:
        if values.ndim != 1 or values.dtype.kind not in "iu" or (not loose and values.dtype != np.int64):
            return None
        values = list(values) if loose else values.tolist()  # loose: numpy's scalars, as the iteration makes them
    if type(values) not in (list, tuple, range) or not (loose or all(_is_int(v) for v in values)):
        return None
    if not values:
        return None
    if start is not None:
        if len(site.targets) != 2:
            return None
        return [dict(zip(site.targets, (start + i, v))) for i, v in enumerate(values)]
    if len(site.targets) != 1:
        return None
    return [{site.targets[0]: v} for v in values]


def _iterated(site: _Site, inner: FrameType, loose: bool = False) -> list[dict[str, Any]] | None:
    """The elements a list comprehension iterates over, read at its first element's draw from the iterator it
    holds (its ``.0``: ``ITER`` evaluated once, whatever it is, ``counts(x)`` too, never called again here).  The
    iterator must be CPython's over a list, tuple or range (or numpy's over a 1-d integer array), or
    ``enumerate`` of one, at its first element: its whole sequence is then what the comprehension iterates,
    nothing having run since the first element was taken but the element's loads and arithmetic on integers
    (:func:`_grammar`), and the loop variables must hold that first element.  A generator, a ``map``, an object
    of the code's own: ``None`` (the list is made element by element, as the code makes it)."""
    if inner.f_code.co_varnames[:1] != (".0",):
        return None
    here = inner.f_locals
    it = here.get(".0")
    start = None
    if type(it) is enumerate:
        reduced = enumerate.__reduce__(it)
        if len(reduced) != 2 or len(reduced[1]) != 2 or not _is_int(reduced[1][1]):
            return None
        it, start = reduced[1][0], int(reduced[1][1]) - 1
    values = _sequence(it)
    if values is None:
        return None
    rows = _rows(site, values, start, loose)
    if rows is None:
        return None
    if any(name not in here or not _same_value(here[name], v) for name, v in rows[0].items()):
        return None
    return rows


def _same_value(a: Any, b: Any) -> bool:
    """``a is b``, or equal integers (compared as integers: no code of the program runs)."""
    return a is b or (_is_int(a) and _is_int(b) and int(a) == int(b))


def _sequence(it: Any) -> Any:
    """The sequence a built-in iterator at its first element iterates over (from its ``__reduce__``, by the C
    type's own method: no code of the program runs), or ``None``."""
    import numpy as np

    kind = type(it)
    if kind not in _ITERATORS:
        return None
    reduced = kind.__reduce__(it)  # type: ignore[call-arg]
    if len(reduced) != 3 or reduced[0] is not iter or len(reduced[1]) != 1 or reduced[2] != 1:
        return None
    seq = reduced[1][0]
    if kind is _ITERATORS[-1] and type(seq) is not np.ndarray:  # numpy's arrays iterate by the generic iterator
        return None
    return seq


_ITERATORS: tuple[type, ...] = (type(iter([])), type(iter(())), type(iter(range(1))), type(iter(range(1 << 64))),
              type(iter(type("_Indexed", (), {"__getitem__": lambda self, i: 0})())))


def _length(node: ast.expr) -> bool:
    """``len(NAME)``."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"
            and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and not node.keywords)


def _built(site: _Site, frame: FrameType, gen: Any, inner: FrameType | None = None
           ) -> tuple[IntVector, dict[str, Any]] | None:
    """The list the site builds, as a vector of independent coordinates, and the loop variables' last values;
    ``None`` when a name does not hold what the proof needs (the audit's generator, integers, numbers)."""
    try:
        rows = _elements(site, frame, inner)
        if rows is None:
            return None
        depth = gen._replay.max_depth
        coords = [_coordinate(site.element, row, frame, gen, depth) for row in rows]
    except (LookupError, NotEnumerable, TypeError, ValueError, ZeroDivisionError, OverflowError):
        return None
    if any(c is None for c in coords):
        return None
    numpy = {_numpy_result(site.element, row, frame) for row in rows}
    if len(numpy) != 1 or None in numpy:  # elements of both types (or unsure): made element by element
        return None
    return IntVector(gen._replay, coords, "list", numpy.pop()), rows[-1]  # type: ignore[arg-type]


def _numpy_result(node: ast.expr, row: dict[str, Any], frame: FrameType) -> bool | None:
    """Whether the element ``E`` (of :func:`_coordinate`'s grammar) is numpy's ``int64`` rather than a Python
    ``int``, as CPython and numpy compute it: a name, constant or item by its value's type; a draw of
    ``integers`` an ``np.int64``, of ``geometric`` a Python ``int``, ``int(E)`` an ``int``, an operator numpy's
    when either operand is (``None`` when unsure)."""
    import numpy as np

    if isinstance(node, (ast.Constant, ast.Name)):
        v = _number(node, row, frame)
    elif isinstance(node, ast.Subscript):
        v = _value(frame, node.value.id)[int(_number(node.slice, row, frame))]  # type: ignore[attr-defined]
    elif isinstance(node, ast.BinOp):
        a, b = _numpy_result(node.left, row, frame), _numpy_result(node.right, row, frame)
        return None if a is None or b is None else a or b
    elif isinstance(node, ast.UnaryOp):
        return _numpy_result(node.operand, row, frame)
    elif isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):  # int(E)
            return False
        return {"integers": True, "geometric": False}.get(getattr(node.func, "attr", ""))
    else:
        return None
    return False if type(v) is int else True if type(v) is np.int64 else None


def _number(node: ast.expr, row: dict[str, Any], frame: FrameType) -> Any:
    """The value of an argument of a draw (:func:`_simple`); its operators are applied to numbers only (a user's
    object could run code in ``__add__``)."""
    import numpy as np

    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return row[node.id] if node.id in row else _value(frame, node.id)
    kinds = (int, float, Fraction, np.integer, np.floating)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _number(node.operand, row, frame)
        if not isinstance(v, kinds) or isinstance(v, bool):
            raise NotEnumerable("an argument of a draw")
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        a, b = _number(node.left, row, frame), _number(node.right, row, frame)
        if not all(isinstance(v, kinds) and not isinstance(v, bool) for v in (a, b)):
            raise NotEnumerable("an argument of a draw")
        return _ARITHMETIC[type(node.op)](a, b)
    raise NotEnumerable("an argument of a draw")


def _coordinate(node: ast.expr, row: dict[str, Any], frame: FrameType, gen: Any, depth: int) -> Coordinate | None:
    """The distribution of ``E`` for one element (``row``: the loop variables' values)."""
    import numpy as np

    if isinstance(node, (ast.Constant, ast.Name)):
        v = _number(node, row, frame)
        return Coordinate.point(int(v)) if _wide(v) else None
    if isinstance(node, ast.Subscript):
        seq = _value(frame, node.value.id)  # type: ignore[attr-defined]
        i = _number(node.slice, row, frame)
        if type(seq) not in (list, tuple, np.ndarray) or not _is_int(i):  # by its exact type: a subclass's
            return None  # ``__getitem__`` is code of the program's own, run by the code once per element
        if isinstance(seq, np.ndarray) and (seq.ndim != 1 or seq.dtype != np.int64):
            return None
        v = seq[int(i)]
        return Coordinate.point(int(v)) if _wide(v) else None
    if isinstance(node, ast.BinOp):
        a = _coordinate(node.left, row, frame, gen, depth)
        b = _coordinate(node.right, row, frame, gen, depth)
        if a is None or b is None:
            return None
        return _combine(a, b, {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}[type(node.op)])
    if isinstance(node, ast.UnaryOp):
        a = _coordinate(node.operand, row, frame, gen, depth)
        if a is None:
            return None
        return _mapped(a, lambda v: -v, "neg") if isinstance(node.op, ast.USub) else a
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):  # int(E): the builtin, on an integer
            if _builtin(frame, "int") is None:
                return None
            return _coordinate(node.args[0], row, frame, gen, depth)
        assert isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
        if _value(frame, node.func.value.id) is not gen:  # only the audit's own generator
            return None
        args = [_number(a, row, frame) for a in node.args]
        kwargs = {str(k.arg): _number(k.value, row, frame) for k in node.keywords}
        if any(isinstance(v, (bool, np.bool_)) and k != "endpoint" for k, v in kwargs.items()) \
                or any(isinstance(v, (bool, np.bool_)) for v in args):
            return None
        if node.func.attr == "geometric":
            p = kwargs.get("p", args[0] if args else None)
            if len(args) + len(kwargs) != 1 or not isinstance(p, (int, float, Fraction, np.floating, np.integer)):
                return None
            return _geometric_coordinate(p.item() if hasattr(p, "item") else p, depth, gen)
        names = ["low", "high", "endpoint"]
        bound: dict[str, Any] = dict(zip(names, args))
        if set(bound) & set(kwargs):
            return None
        bound.update(kwargs)
        if "low" not in bound or not isinstance(bound.get("endpoint", False), bool):
            return None
        return _integers_coordinate(bound["low"], bound.get("high"), bound.get("endpoint", False))
    return None


def _lead(element: ast.expr, loop: set[str], span: tuple[Any, ...]) -> tuple | None:
    """``E = A op1 D1 op2 N2 ...`` (``op`` ``+`` or ``-``, left to right): ``A`` any expression without draws
    of the audit's generator, a call of the code's own in it (``score(x, r)``, ``q(x)``), evaluated first;
    ``D1`` the draw at ``span``; each ``N`` of the grammar (:func:`_grammar`).  ``A`` must not bind names,
    make closures or read its frame.  ``(A, ((op, N), ...))`` or ``None``."""
    levels = []  # (the BinOp, op, its right operand), from the outermost
    node = element
    while isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        levels.append((node, "+" if isinstance(node.op, ast.Add) else "-", node.right))
        node = node.left
    levels.reverse()  # left to right: A is everything before the first right operand that draws
    m = next((i for i, (_, _, right) in enumerate(levels) if _draw_calls(right)), None)
    if m is None:
        return None
    head = levels[m][0].left
    chain = [(o, right) for _, o, right in levels[m:]]
    first = chain[0][1]
    if _draw_calls(head) or not isinstance(first, ast.Call) or _span(first) != span or first not in _draw_calls(first):
        return None
    if not all(_grammar(n, loop) for _, n in chain) or not any(isinstance(n, ast.Call) for n in ast.walk(head)):
        return None
    if any(isinstance(n, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await, ast.Lambda, ast.ListComp, ast.SetComp,
                          ast.DictComp, ast.GeneratorExp, ast.Starred)) for n in ast.walk(head)):
        return None
    if not _safe_rest([ast.Expr(value=head)]):
        return None
    return head, tuple(chain)


def settle(gen: Any) -> None:
    """At the end of a run of the randomizer on the enumerating generator ``gen`` (its return, its exception, or
    the return of a rest): the run is void (:func:`_abandon`) when a placeholder was answered for a draw and the
    code never handed it the element's score (a ``+`` of the code's own took it: it may have looked at it with
    ``isinstance`` or ``type`` and answered without it), or when a vector of independent draws refused an
    operation (:func:`_refuse`), even if the code caught the exception."""
    pending = gen.__dict__.get("_pending")
    if gen.__dict__.get("_pending_misused") or (pending is not None and not pending.done):
        _abandon("a placeholder draw of a noisy element was not handed the element's score")
    why = gen._replay.__dict__.pop("_rnm_refused", None)
    if why is not None:
        _abandon(f"the code went on after a refusal: {why}")


def _abandon(why: str) -> Any:
    """This run's proof failed after code of the program ran for it: the whole channel is enumerated again
    with nothing kept factorised (counted as used, so that :func:`~relations.audit._exact.enumerate_channel`
    starts again with them off instead of giving up)."""
    iteration_maps.used += 1
    raise NotEnumerable(why)


class _Pending:
    """The placeholder answered for the first draw ``D1`` of ``E = A op1 D1 ...`` (:func:`_lead`) at the first
    element: the code computes ``A`` (its value on CPython's stack, out of reach) and applies ``op1``, which
    hands it to :meth:`__radd__` / :meth:`__rsub__` (an integer has no ``+`` for it; numpy's scalars defer, as
    ``__array_ufunc__ = None`` asks).  There, the other elements' ``A`` are computed once each, in order, as the
    comprehension would (no draw allowed while they are), and the rest runs with the vector.  Any other use of
    it (a ``+`` of the code's own given it, a comparison, ``int``) voids the run (:func:`_abandon`), at once and
    at every later draw of the run: nothing it did is kept."""

    __slots__ = ("site", "inner", "own", "gen", "done")
    __array_ufunc__ = None

    def __init__(self, site: _Site, inner: FrameType, own: FrameType, gen: Any):
        self.site, self.inner, self.own, self.gen, self.done = site, inner, own, gen, False

    def _misuse(self, *args: Any, **kwargs: Any) -> Any:
        self.gen.__dict__["_pending_misused"] = True
        return _abandon("a placeholder draw of a noisy element was used otherwise")

    def __radd__(self, other: Any) -> Any:
        return self._lead(other, "+", sys._getframe(1))

    def __rsub__(self, other: Any) -> Any:
        return self._lead(other, "-", sys._getframe(1))

    __add__ = __sub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = _misuse
    __mod__ = __rmod__ = __pow__ = __rpow__ = __neg__ = __pos__ = __abs__ = __int__ = __index__ = _misuse
    __float__ = __bool__ = __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = __hash__ = _misuse
    __array__ = __len__ = __iter__ = __getitem__ = __reduce__ = __reduce_ex__ = __format__ = _misuse
    __and__ = __or__ = __xor__ = __lshift__ = __rshift__ = __invert__ = __round__ = __trunc__ = _misuse

    def __getattr__(self, name: str) -> Any:
        return self._misuse()

    def _lead(self, head: Any, op: str, caller: FrameType) -> Any:
        site = self.site
        assert site.lead is not None
        if self.done or caller is not self.inner or op != site.lead[1][0][0] or not _wide(head):
            return self._misuse()
        self.done = True
        gen, own, inner = self.gen, self.own, self.inner
        rows = _iterated(site, inner, loose=True)
        if rows is None:
            return self._misuse()
        depth = gen._replay.max_depth
        try:  # the first element's noise: read now, after its score, as the code reads it (no code runs for it)
            first = _noise(site, rows[0], own, gen, depth)
        except (LookupError, NotEnumerable, TypeError, ValueError, ZeroDivisionError, OverflowError):
            first = None
        if first is None:
            return self._misuse()
        values = dict(own.f_locals)
        # each later element in turn, as the comprehension makes it: the element the iteration meets (a score may
        # have changed what it iterates), its score, then its noise (a score may have changed what it reads)
        heads, noise = [head], [first]
        with _no_draws(gen._replay) as drew:
            for k in range(1, len(rows)):
                _same_rows(site, inner, rows)
                heads.append(_head(site, own, values, rows[k], drew))
                try:
                    terms = _noise(site, rows[k], own, gen, depth)
                except (LookupError, NotEnumerable, TypeError, ValueError, ZeroDivisionError, OverflowError):
                    terms = None
                if terms is None:
                    return _abandon("the noise of a noisy element is not of the grammar once its score ran")
                noise.append(terms)
        _same_rows(site, inner, rows)  # and the iteration ends there
        coords = []
        for h, terms in zip(heads, noise):
            element = Coordinate.point(int(h))
            for (o, _), term in zip(site.lead[1], terms):
                element = _combine(element, term, o)
            coords.append(element)
        if not _disjoint(coords):
            return _abandon("coordinates that share draws")
        kinds: set[bool | None] = set()
        try:  # each element's type: its score's, numpy's when a term is (:func:`_numpy_result`)
            for h, row in zip(heads, rows):
                parts = [_numpy_result(n, row, own) for _, n in site.lead[1]]
                kinds.add(None if None in parts else type(h) is not int or any(parts))
        except (LookupError, TypeError, ValueError):
            kinds.add(None)
        if len(kinds) != 1 or None in kinds:
            return _abandon("noisy elements of both numpy's and Python's integer types")
        iteration_maps.used += 1
        values[site.bound] = IntVector(gen._replay, coords, "list", bool(kinds.pop()))
        _continue(site, own, values)


def _noise(site: _Site, row: dict[str, Any], own: FrameType, gen: Any, depth: int) -> list[Coordinate] | None:
    """The distributions of ``D1``, ``N2``, ... of :func:`_lead` for one element (``row``), read now."""
    assert site.lead is not None
    parts = [_coordinate(n, row, own, gen, depth) for _, n in site.lead[1]]
    known = [c for c in parts if c is not None]
    return known if len(known) == len(parts) else None


def _same_rows(site: _Site, inner: FrameType, rows: list[dict[str, Any]]) -> None:
    """What the comprehension iterates is still ``rows`` (a score ran since they were read): else the run is
    void (:func:`_abandon`)."""
    again = _iterated(site, inner, loose=True)
    if again is None or len(again) != len(rows) or any(
            not _same_value(a[k], b[k]) for a, b in zip(again, rows) for k in a):
        _abandon("the iterable of a noisy list changed while its elements were computed")


class _no_draws:
    """While it is entered, a draw on ``replay`` raises (and is noted in the list it gives)."""

    def __init__(self, replay: Any):
        self.replay, self.drew = replay, list[bool]()

    def __enter__(self) -> list[bool]:
        drew = self.drew

        def forbidden(*args: Any, **kwargs: Any) -> Any:
            drew.append(True)
            raise NotEnumerable("a draw while an element's score is computed")

        self.replay.decide = forbidden
        return drew

    def __exit__(self, *exc: Any) -> None:
        del self.replay.decide


def _head(site: _Site, own: FrameType, values: dict[str, Any], row: dict[str, Any], drew: list[bool]) -> Any:
    """``A`` for the element ``row``, as the comprehension computes it (the function's locals, its globals and
    builtins, the loop variables); a draw, an exception or a value that is not an integer voids the run
    (:func:`_abandon`)."""
    fn = FunctionType(_head_code(site, tuple(sorted(values))), own.f_globals)
    try:
        out = fn(**{**values, **row})
    except Exception:
        out = None
    if drew or not _wide(out):
        _abandon("an element's score drew, raised or was not an integer")
    return out


def _head_code(site: _Site, names: tuple[str, ...]) -> CodeType:
    """``A`` of :func:`_lead` as the code of a function of the function's bound locals (``names``) and the loop
    variables, the function's other locals made local and unbound (as in the comprehension, where they are
    the function's)."""
    key = ("head", names)
    known = site.compiled.get(key)
    if known is not None:
        return known
    assert site.lead is not None
    code = site.code
    params = sorted(set(names) | set(site.targets))
    unbound = [n for n in (*code.co_varnames, *code.co_cellvars) if n not in params]
    head = copy.deepcopy(site.lead[0])
    body: list[ast.stmt] = []
    for n in unbound:
        body.append(ast.Assign(targets=[ast.Name(id=n, ctx=ast.Store())], value=ast.Constant(value=None)))
        body.append(ast.Delete(targets=[ast.Name(id=n, ctx=ast.Del())]))
    for stmt in body:
        for node in ast.walk(stmt):
            ast.copy_location(node, head)
    ret = ast.copy_location(ast.Return(value=head), head)
    body.append(ret)
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])
    # named as the comprehension's own code, whose frame calls the scores in the code (a score that looks at its
    # caller's name sees the same)
    fn = ast.FunctionDef(name="<listcomp>", args=args, body=body, decorator_list=[], returns=None)
    ast.copy_location(fn, head)
    if sys.version_info >= (3, 12):  # pragma: no cover - the field exists from 3.12
        fn.type_params = []
    module = ast.Module(body=[fn], type_ignores=[])
    ast.fix_missing_locations(module)
    compiled = compile(module, code.co_filename, "exec", dont_inherit=True)
    known = next(c for c in compiled.co_consts if isinstance(c, CodeType))
    if len(site.compiled) > 16:
        site.compiled.clear()
    site.compiled[key] = known
    return known


def _rest_code(site: _Site, names: tuple[str, ...]) -> CodeType:
    """The rest of the function as the code of a function of its bound locals (``names``), the locals not bound
    yet made local and unbound again (as in the function), the helpers of :data:`_HELPERS` as parameters."""
    known = site.compiled.get(names)
    if known is not None:
        return known
    code = site.code
    params = list(names) + [_PREFIX + k for k in _HELPERS]
    unbound = [n for n in (*code.co_varnames, *code.co_cellvars) if n not in names and n != site.bound]
    body: list[ast.stmt] = []
    for n in unbound:  # a local of the function, not bound yet: a local of the rest, unbound
        body.append(ast.Assign(targets=[ast.Name(id=n, ctx=ast.Store())], value=ast.Constant(value=None)))
        body.append(ast.Delete(targets=[ast.Name(id=n, ctx=ast.Del())]))
    body.extend(copy.deepcopy(list(site.rest)) or [ast.Return(value=ast.Constant(value=None))])
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])
    first = site.rest[0].lineno if site.rest else code.co_firstlineno
    last = (site.rest[-1].end_lineno or first) if site.rest else first
    fn = ast.FunctionDef(name=code.co_name, args=args, body=body, decorator_list=[], returns=None, lineno=first,
                         col_offset=0, end_lineno=last, end_col_offset=0)
    for stmt in body[:2 * len(unbound)] if site.rest else body:  # positions for the statements made here
        for node in ast.walk(stmt):
            node.lineno, node.end_lineno, node.col_offset, node.end_col_offset = first, first, 0, 0  # type: ignore[attr-defined]
    if sys.version_info >= (3, 12):  # pragma: no cover - the field exists from 3.12
        fn.type_params = []
    module = ast.Module(body=[fn], type_ignores=[])
    ast.fix_missing_locations(module)
    compiled = compile(module, code.co_filename, "exec", dont_inherit=True)
    known = next(c for c in compiled.co_consts if isinstance(c, CodeType))
    if len(site.compiled) > 16:
        site.compiled.clear()
    site.compiled[names] = known
    return known


def _rewritten(rest: Sequence[ast.stmt]) -> list[ast.stmt]:
    """The rest's statements (copies) with the running maxima over a vector (:func:`_running_loop`) and the calls
    of :class:`_Consumers` routed through the helpers."""
    out: list[ast.stmt] = []
    for m, stmt in enumerate(rest):
        running = _running_loop(copy.deepcopy(stmt), rest[m + 1:])
        if running is not None:
            out.extend(running.body)
        else:
            out.append(_Consumers().visit(copy.deepcopy(stmt)))
    return [_Escapes().visit(s) for s in out]


class _Consumers(ast.NodeTransformer):
    """The calls of the rest that keep a vector factorised, routed through :data:`_HELPERS` (each calls the
    original when its argument is not a vector, or the callable not the builtin or numpy function)."""

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)
        f = node.func
        helper = None
        args: list[ast.expr] = []
        if isinstance(f, ast.Name) and f.id in ("max", "min") and len(node.args) == 1:
            (x,) = node.args
            if not node.keywords and isinstance(x, ast.Name):
                helper, args = "extreme", [f, x]
            elif len(node.keywords) == 1 and node.keywords[0].arg == "key":
                vec = _keyed_vector(node.keywords[0].value)
                if vec is not None:
                    helper, args = "keyed", [f, x, node.keywords[0].value, ast.Name(id=vec, ctx=ast.Load())]
        elif (isinstance(f, ast.Attribute) and f.attr == "index" and isinstance(f.value, ast.Name)
              and len(node.args) == 1 and not node.keywords):
            inner = node.args[0]
            if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)
                    and inner.func.id == _PREFIX + "extreme" and len(inner.args) == 2
                    and isinstance(inner.args[1], ast.Name) and inner.args[1].id == f.value.id):
                helper, args = "index", [f.value, inner.args[0]]
        elif isinstance(f, ast.Attribute) and f.attr in ("array", "asarray") and len(node.args) == 1 \
                and not node.keywords and isinstance(node.args[0], ast.Name):
            helper, args = "array", [f, node.args[0]]
        if helper is None:
            return node
        return ast.copy_location(ast.Call(func=ast.Name(id=_PREFIX + helper, ctx=ast.Load()), args=args, keywords=[]),
                                 node)


class _Escapes(ast.NodeTransformer):
    """Every other call of the rest made through :func:`_call` (a vector handed to code that is not the builtin
    ``len``, numpy's functions or the vector's own methods is handed over as the real list: that code may look
    at what it is, ``isinstance``, ``type``, ``json``), and every value stored anywhere but in a name through
    :func:`_out` (an attribute, an element of a container: read later by code that looks at it)."""

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id.startswith(_PREFIX):
            return node
        return ast.copy_location(ast.Call(func=ast.Name(id=_PREFIX + "call", ctx=ast.Load()),
                                          args=[node.func, *node.args], keywords=node.keywords), node)

    def _stored(self, node: Any, targets: list[ast.expr]) -> Any:
        self.generic_visit(node)
        if node.value is not None and any(isinstance(n, (ast.Attribute, ast.Subscript, ast.Starred))
                                          for t in targets for n in ast.walk(t)):
            node.value = ast.copy_location(ast.Call(func=ast.Name(id=_PREFIX + "out", ctx=ast.Load()),
                                                    args=[node.value], keywords=[]), node.value)
        return node

    def visit_Assign(self, node: ast.Assign) -> Any:
        return self._stored(node, node.targets)

    def _operator(self, node: ast.expr, op: ast.AST, left: ast.expr, right: ast.expr) -> Any:
        # OPERATOR(LEFT, RIGHT) -> __rnm_binop("Name", LEFT, RIGHT): both evaluated in the same order
        return ast.copy_location(ast.Call(func=ast.Name(id=_PREFIX + "binop", ctx=ast.Load()),
                                          args=[ast.Constant(value=type(op).__name__), left, right], keywords=[]),
                                 node)

    def visit_BinOp(self, node: ast.BinOp) -> Any:
        self.generic_visit(node)
        return self._operator(node, node.op, node.left, node.right)

    def visit_Compare(self, node: ast.Compare) -> Any:
        self.generic_visit(node)
        if len(node.ops) != 1 or isinstance(node.ops[0], (ast.Is, ast.IsNot)):  # a chain (left as written), or
            return node  # identity (no code runs)
        return self._operator(node, node.ops[0], node.left, node.comparators[0])

    def visit_AugAssign(self, node: ast.AugAssign) -> Any:
        return self._stored(node, [node.target])

    def _returned(self, value: ast.expr) -> ast.expr:
        return ast.copy_location(ast.Call(func=ast.Name(id=_PREFIX + "out", ctx=ast.Load()), args=[value],
                                          keywords=[]), value)

    def visit_Return(self, node: ast.Return) -> Any:  # a nested function's return reaches code that called it
        self.generic_visit(node)
        if node.value is not None:
            node.value = self._returned(node.value)
        return node

    def visit_Lambda(self, node: ast.Lambda) -> Any:
        self.generic_visit(node)
        node.body = self._returned(node.body)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> Any:
        return self._stored(node, [node.target])


def _holds_vector(value: Any, depth: int = 0) -> bool:
    if isinstance(value, IntVector):
        return True
    if depth < 8 and type(value) in (list, tuple):
        return any(_holds_vector(v, depth + 1) for v in value)
    if depth < 8 and type(value) is dict:
        return any(_holds_vector(v, depth + 1) for v in value.values())
    return False


def _keeps(fn: Any) -> bool:
    """Whether ``fn`` may be handed a vector as it is: the builtin ``len``, the vector's own methods, numpy's
    functions and ufuncs (which hand it to the vector's ``__array_function__`` / ``__array_ufunc__``)."""
    import numpy as np

    if fn is builtins.len or isinstance(getattr(fn, "__self__", None), IntVector):
        return True
    return isinstance(fn, np.ufunc) or type(fn).__name__ == "_ArrayFunctionDispatcher" and \
        type(fn).__module__ == "numpy"


def _call(fn: Any, /, *args: Any, **kwargs: Any) -> Any:
    """A call of the rest (:class:`_Escapes`)."""
    if (args or kwargs) and not _keeps(fn) and (_holds_vector(args) or _holds_vector(tuple(kwargs.values()))):
        if kwargs or _holds_vector(tuple(a for a in args if not isinstance(a, IntVector))) or not _helper_keeps(
                fn, tuple(i for i, a in enumerate(args) if isinstance(a, IntVector))):
            args, kwargs = _materialised(args), _materialised(kwargs)
    return fn(*args, **kwargs)


_HELPER_USES: dict[tuple[CodeType, tuple[int, ...]], tuple[str, ...] | None] = {}


def _helper_keeps(fn: Any, positions: tuple[int, ...]) -> bool:
    """Whether the function ``fn`` of the code's own may be handed vectors as its positional arguments at
    ``positions``: proven from its source, each such parameter is only read as ``P[...]``, iterated, given alone
    to the builtin ``len`` or to a function of the numpy module (``np.argmax(P)``), or asked ``P.argmax()``
    (``argmin``, ``max``, ``min``), never stored, reassigned or seen by a nested function; the names ``len`` and
    the modules are checked when it is called.  A vector behaves there as the list it stands for."""
    import numpy as np

    if type(fn) is not FunctionType:
        return False
    code = fn.__code__
    key = (code, positions)
    if key not in _HELPER_USES:
        _HELPER_USES[key] = _helper_roots(code, positions)
        if len(_HELPER_USES) > 1024:
            _HELPER_USES.clear()
            return False
    roots = _HELPER_USES[key]
    if roots is None:
        return False
    g = fn.__globals__
    for r in roots:
        if r == "len":
            if "len" in g or (g.get("__builtins__") is not None and _builtins_of(g).get("len") is not builtins.len):
                return False
        elif g.get(r) is not np:
            return False
    return True


def _builtins_of(g: dict) -> dict:
    b = g.get("__builtins__")
    return b if isinstance(b, dict) else vars(b)


def _helper_roots(code: CodeType, positions: tuple[int, ...]) -> tuple[str, ...] | None:
    """The names :func:`_helper_keeps` must check when it runs (``len``, the numpy modules' names), or ``None``
    when the parameters at ``positions`` are used otherwise."""
    import inspect

    func = function_node(code)
    if func is None or code.co_flags & (inspect.CO_VARARGS | inspect.CO_GENERATOR | inspect.CO_COROUTINE):
        return None
    if any(p >= code.co_argcount for p in positions) or code.co_posonlyargcount:
        return None
    params = {code.co_varnames[p] for p in positions}
    if not _safe_rest(func.body) or params & set(code.co_cellvars):
        return None
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(func):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    roots: set[str] = set()
    for node in ast.walk(func):
        if not (isinstance(node, ast.Name) and node.id in params):
            continue
        if not isinstance(node.ctx, ast.Load):
            return None
        up = parents.get(id(node))
        if isinstance(up, ast.Subscript) and up.value is node and isinstance(up.ctx, ast.Load):
            continue
        if isinstance(up, (ast.For, ast.comprehension)) and up.iter is node:
            continue
        if isinstance(up, ast.Call) and up.args == [node] and not up.keywords:
            f = up.func
            if isinstance(f, ast.Name) and f.id == "len":
                roots.add("len")
                continue
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
                roots.add(f.value.id)
                continue
            return None
        if isinstance(up, ast.Attribute) and up.attr in ("argmax", "argmin", "max", "min"):
            call = parents.get(id(up))
            if isinstance(call, ast.Call) and call.func is up and not call.args and not call.keywords:
                continue
        return None
    if roots & {*code.co_varnames, *code.co_cellvars, *code.co_freevars}:
        return None  # ``len`` or the module's name a local of the helper's: not the global checked when it runs
    return tuple(sorted(roots))


_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "Add": operator.add, "Sub": operator.sub, "Mult": operator.mul, "MatMult": operator.matmul,
    "Div": operator.truediv, "FloorDiv": operator.floordiv, "Mod": operator.mod, "Pow": operator.pow,
    "LShift": operator.lshift, "RShift": operator.rshift, "BitOr": operator.or_, "BitXor": operator.xor,
    "BitAnd": operator.and_, "Eq": operator.eq, "NotEq": operator.ne, "Lt": operator.lt, "LtE": operator.le,
    "Gt": operator.gt, "GtE": operator.ge, "In": lambda a, b: a in b, "NotIn": lambda a, b: a not in b}


def _plain(value: Any) -> bool:
    """Whether ``value``'s operators with a vector are the builtins' or numpy's (which hand it to the vector's
    own), not code of the program's own that could look at what the vector is."""
    import numpy as np

    return (type(value) in (int, float, bool, complex, str, list, tuple, dict, type(None)) or isinstance(
        value, IntVector) or type(value) is np.ndarray or isinstance(value, np.generic))


def _binop(name: str, a: Any, b: Any) -> Any:
    """``a OP b`` in the rest (:class:`_Escapes`): a vector meets code of the program's own as the real list."""
    if (isinstance(a, IntVector) and not _plain(b)) or (isinstance(b, IntVector) and not _plain(a)):
        a, b = _materialised(a), _materialised(b)
    return _BINARY[name](a, b)


def _out(value: Any) -> Any:
    """A value stored elsewhere than in a name (:class:`_Escapes`)."""
    return _materialised(value) if _holds_vector(value) else value


def _keyed_vector(key: ast.expr) -> str | None:
    """``V`` of ``key=V.__getitem__`` or ``key=lambda i: V[i]``."""
    if isinstance(key, ast.Attribute) and key.attr == "__getitem__" and isinstance(key.value, ast.Name):
        return key.value.id
    if (isinstance(key, ast.Lambda) and len(key.args.args) == 1 and not key.args.posonlyargs
            and not key.args.kwonlyargs and not key.args.vararg and not key.args.kwarg and not key.args.defaults
            and isinstance(key.body, ast.Subscript) and isinstance(key.body.value, ast.Name)
            and isinstance(key.body.slice, ast.Name) and key.body.slice.id == key.args.args[0].arg
            and key.body.value.id != key.args.args[0].arg):
        return key.body.value.id
    return None


def _extreme(fn: Any, vec: Any) -> Any:
    """``max(V)`` / ``min(V)``."""
    if isinstance(vec, IntVector) and (fn is builtins.max or fn is builtins.min):
        return vec._element(vec.extreme(fn is builtins.max))
    return fn(vec)


def _keyed(fn: Any, items: Any, key: Any, vec: Any) -> Any:
    """``max(range(len(V)), key=V.__getitem__)`` and the like: the first index of the largest (smallest)."""
    if (isinstance(vec, IntVector) and (fn is builtins.max or fn is builtins.min) and type(items) is range
            and items == range(len(vec)) and len(vec)):
        return vec.index_of_extreme(fn is builtins.max)
    return fn(items, key=key)


def _index(vec: Any, fn: Any) -> Any:
    """``V.index(max(V))`` / ``min``: the first index of the largest (smallest)."""
    if isinstance(vec, IntVector) and vec.kind == "list" and (fn is builtins.max or fn is builtins.min) and len(vec):
        return vec.index_of_extreme(fn is builtins.max)  # (an array has no ``index``: refused below)
    return vec.index(fn(vec))


def _array(fn: Any, vec: Any) -> Any:
    """``np.array(V)`` / ``np.asarray(V)`` of a list: the same coordinates as an array."""
    import numpy as np

    if isinstance(vec, IntVector) and (fn is np.array or fn is np.asarray):
        if vec.kind == "array" and fn is np.asarray:  # the array itself; np.array copies (an in-place change of
            return vec                                 # the copy leaves the array as it was)
        return IntVector(vec.replay, vec.coords, "array")
    return fn(vec)


def _by_index(vec: Any, b: Callable[[], Any], range_fn: Any, spec: tuple, strict: bool) -> Any:
    """``for I in range(...): if V[I] > V[B]: B = I`` (:func:`_running_loop`): the ``B`` kept, or ``_UNKNOWN``
    (the loop runs as written) when ``V`` is no vector, a name is not the builtin, or the bounds are not
    ``range(S, len(V))`` started at ``B = S`` or ``S - 1``."""
    if not isinstance(vec, IntVector) or range_fn is not builtins.range or vec._observed:
        return _UNKNOWN
    try:
        b0 = b()
    except NameError:
        return _UNKNOWN
    bounds = []
    for kind, v in spec:
        if kind == "len":
            if v is not builtins.len:
                return _UNKNOWN
            bounds.append(len(vec))
        elif _is_int(v):
            bounds.append(int(v))
        else:
            return _UNKNOWN
    r = range(*bounds)
    n = len(vec)
    if not _is_int(b0) or r.step != 1 or r.stop != n or not 0 <= int(b0) < n or int(b0) not in (r.start, r.start - 1):
        return _UNKNOWN
    keys = list(range(int(b0), n))
    kept = _running(vec.replay, [vec.coords[k] for k in keys], keys, -math.inf, None, strict, False)
    if kept is not _UNKNOWN:
        vec._observed[("running",)] = kept
    return kept


def _fold(vec: Any, best: Callable[[], Any], arg: Callable[[], Any], enumerate_fn: Any, strict: bool,
          guard: bool) -> Any:
    """``for I, X in enumerate(V): if X > BV: BV, BI = X, I`` (:func:`_running_loop`): the ``BI`` kept, or
    ``_UNKNOWN`` (the loop runs as written)."""
    if not isinstance(vec, IntVector) or enumerate_fn is not builtins.enumerate or vec._observed:
        return _UNKNOWN
    try:
        b0 = best()
    except NameError:
        return _UNKNOWN
    try:
        a0 = arg()
    except NameError:
        a0 = _UNKNOWN
    kept = _running(vec.replay, vec.coords, list(range(len(vec))), b0, a0, strict, guard)
    if kept is not _UNKNOWN:
        vec._observed[("running",)] = kept
    return kept


_HELPERS: dict[str, Any] = {"extreme": _extreme, "keyed": _keyed, "index": _index, "array": _array,
                            "by_index": _by_index, "fold": _fold, "unknown": _UNKNOWN, "call": _call, "out": _out,
                            "binop": _binop}
