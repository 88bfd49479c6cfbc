"""Arrays of independent draws, kept factorised: the white-box route for unary encoding and its kin.

``rng.random(size=d) < q`` draws ``d`` independent bits.  Enumerated element by element it has ``2^d``
paths; kept as what it is, a :class:`BitVector` of ``d`` independent Bernoulli coordinates with exact
probabilities, it is one path.  What unary-encoding code does with such a vector keeps it factorised:

* ``astype(int)`` / ``astype(bool)``, ``np.where(bits, a, b)`` with ``a`` and ``b`` other bits or 0/1
  values (``np.where(bits, 1, 0)``, RAPPOR's ``np.where(keep, truth, noise)``), ``bits * 1``, ``bits.copy()``;
* ``bits[i] = v`` for a fixed index ``i`` and a value ``v`` (a number, or a bit drawn before, which
  branches the path): the coordinate becomes deterministic on that path;
* returning it: the path's output is a *product* distribution over bit vectors;
* ``bits.sum()``: the count of ones, one choice among ``d + 1`` values with its exact (Poisson-binomial)
  distribution.

* ``~bits``, ``1 - bits``, ``np.logical_not(bits)``, ``bits == 0`` (and ``== 1``, ``!=``): each coordinate
  flipped or kept.

Reading a coordinate (``bits[i]``, ``int(bits[i])``, iteration) branches on it (``tolist()`` returns the vector
itself: returned, it stays factorised), so code that
looks at its bits is still enumerated exactly, path by path.  Anything else numpy does with the vector
(``np.where`` with other values, ``bits * 2``, ``np.flatnonzero``, any other ufunc or array function)
*materialises* it: each coordinate not yet fixed is read, branching the path, and the operation runs on the
real array, when at most :data:`MATERIALISE_BITS` coordinates are uncertain; beyond that it is refused.  The paths of one input are merged back into
one product when they differ in a single coordinate (the OUE/SUE pattern: ``bits[x] = rng.random() < p``
splits two paths that differ only at ``x``); a channel that stays a mixture of products is refused.

The channel of a factorised randomizer is a row of ``d`` coordinate probabilities per input
(:class:`Factorised`); its ``eps_d`` is exact without expanding the ``2^d`` outputs:
``eps_d = max over x != x' of sum_i max(ln(p_i(x) / p_i(x')), ln((1 - p_i(x)) / (1 - p_i(x'))))``.

Examples
--------
>>> from fractions import Fraction as F
>>> f = Factorised(rows=[(F(1, 2), F(1, 4)), (F(1, 4), F(1, 2))], radius=0.0, kind="int")
>>> f.eps_d()
(Fraction(3, 1), (0, 1, (1, 0)))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from relations.audit._enumerate import NUMPY_COMPARISONS, NotEnumerable, Replay, exact_threshold

__all__ = ["MATERIALISE_BITS", "READ_BITS", "MAX_COORDINATES", "UniformVector", "BitVector", "Factorised", "merge_products"]

#: Most coordinates of one vector of independent draws.
MAX_COORDINATES = 1 << 16
#: Most uncertain coordinates read one by one when an operation cannot keep a vector of bits factorised
#: (``2^20`` paths, about the path budget).
MATERIALISE_BITS = 20
#: Iterating over at most this many uncertain bits reads them one by one (``2^10`` paths: the whole channel,
#: with every notion); over more, a vector the randomizer returns mapped stays factorised
#: (:mod:`relations.audit._iteration`).
READ_BITS = 10


def _check_size(size: Any) -> int:
    if isinstance(size, tuple) and len(size) == 1:
        size = size[0]
    if not isinstance(size, int) or isinstance(size, bool) or not 0 < size <= MAX_COORDINATES:
        raise NotEnumerable(f"an array of draws of size {size!r} (one dimension, 1 to {MAX_COORDINATES})")
    return size


def _thresholds(t: Any, n: int) -> list[tuple[Fraction, float]]:
    """Exact thresholds (and absolute roundings) for each of ``n`` coordinates: a number or ``n`` of them."""
    import numpy as np

    if np.ndim(t) == 0:
        one = exact_threshold(t.item() if hasattr(t, "item") else t)
        return [one] * n
    values = list(np.asarray(t, dtype=object).ravel()) if not isinstance(t, (list, tuple)) else list(t)
    if len(values) != n:
        raise NotEnumerable(f"comparing {n} draws with {len(values)} thresholds")
    return [exact_threshold(v.item() if hasattr(v, "item") else v) for v in values]


class UniformVector:
    """``rng.random(size=n)``: ``n`` independent uniform floats on ``[0, 1)``, compared as a whole."""

    __array_priority__ = 1000

    def __init__(self, replay: Replay, n: int):
        self.replay, self.n = replay, _check_size(n)

    def _below(self, t: Any, below: bool) -> BitVector:
        probs, radii, complements = [], [], []
        last = None
        for pair in _thresholds(t, self.n):
            if pair is not last:  # (one threshold for every coordinate, the common case: computed once)
                last = pair
                q, err = pair
                q = min(max(q, Fraction(0)), Fraction(1))
                p = q if below else 1 - q
                r = 0.0 if not err or p == 0 else err / float(p) + (err / float(1 - p) if p < 1 else 0.0)
                complement = (1 - p, _complement_radius(p, r))
            probs.append(p)
            radii.append(r)
            complements.append(complement)
        return BitVector(self.replay, probs, radii, complements=complements)

    def __lt__(self, t: Any) -> BitVector:
        return self._below(t, True)

    __le__ = __lt__

    def __gt__(self, t: Any) -> BitVector:
        return self._below(t, False)

    __ge__ = __gt__

    def __len__(self) -> int:
        return self.n

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        name = getattr(ufunc, "__name__", "")
        if method == "__call__" and not kwargs and len(inputs) == 2 and name in NUMPY_COMPARISONS:
            a, b = inputs
            left, right = NUMPY_COMPARISONS[name]
            if a is self:
                return getattr(self, left)(b)
            if b is self:
                return getattr(self, right)(a)
        raise NotEnumerable(f"numpy's {name or ufunc} on an array of uniform draws (only comparisons are kept "
                            "factorised)")

    def __iter__(self):
        raise NotEnumerable("iterating over an array of uniform draws (compare it with thresholds first)")

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise NotEnumerable("arithmetic on an array of uniform draws (only comparisons with thresholds are kept "
                            "factorised)")

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _refuse
    __pow__ = __neg__ = __abs__ = __array__ = __float__ = __int__ = __bool__ = _refuse
    __array_function__ = _refuse

    def __getitem__(self, i: Any) -> Any:
        from relations.audit._enumerate import UniformDraw

        if isinstance(i, int) and -self.n <= i < self.n:
            return UniformDraw(self.replay)  # one coordinate alone: an ordinary uniform draw
        raise NotEnumerable("slicing an array of uniform draws")


class BitVector:
    """``n`` independent bits, bit ``i`` equal to 1 with probability ``probs[i]`` (exact), each within a
    relative rounding ``radii[i]`` (float thresholds of the code)."""

    __array_priority__ = 1000

    def __init__(self, replay: Replay, probs: Sequence[Fraction], radii: Sequence[float], kind: str = "bool", *,
                 complements: Sequence[tuple[Fraction, float]] | None = None):
        self.replay, self.probs, self.radii, self.kind = replay, list(probs), list(radii), kind
        # each uncertain bit's ``1 - p`` and its rounding (:func:`_complement_radius`), when computed ahead (one per
        # threshold, not one per bit read on each path); a bit fixed since is not read from it
        self.complements = None if complements is None else list(complements)

    def __len__(self) -> int:
        return len(self.probs)

    def copy(self) -> BitVector:
        return self._as(self.kind)

    def _as(self, kind: str) -> BitVector:
        """The same bits, returned as elements of ``kind`` (``bool``, ``int`` or ``float``)."""
        return BitVector(self.replay, self.probs, self.radii, kind, complements=self.complements)

    def astype(self, dtype: Any, *args: Any, **kwargs: Any) -> BitVector:
        import numpy as np

        kind = np.dtype(dtype).kind
        if kind not in "biuf":
            raise NotEnumerable(f"an array of bits cast to {dtype!r}")
        return self._as({"b": "bool", "f": "float"}.get(kind, "int"))

    def __mul__(self, c: Any) -> Any:
        if _scalar(c) and (c is True or (not isinstance(c, bool) and c == 1)):
            return self._as(_number_kind(c))
        return self.materialise("multiplying") * c

    def __rmul__(self, c: Any) -> Any:
        return self * c if _scalar(c) else c * self.materialise("multiplying")

    def __add__(self, c: Any) -> Any:
        if _scalar(c) and not isinstance(c, bool) and c == 0:
            return self._as(_number_kind(c))
        return self.materialise("adding to") + c

    def __radd__(self, c: Any) -> Any:
        return self + c if _scalar(c) else c + self.materialise("adding to")

    def __sub__(self, c: Any) -> Any:
        return self.materialise("subtracting from") - c

    def __rsub__(self, c: Any) -> Any:
        if _scalar(c) and not isinstance(c, bool) and c == 1:  # 1 - bits: every coordinate flipped
            return self._flipped(_number_kind(c) if self.kind != "float" else "float")
        return c - self.materialise("subtracting")

    def __invert__(self) -> Any:
        return self._flipped("bool") if self.kind == "bool" else ~self.materialise("inverting")

    def _compare(self, c: Any, equal: bool) -> Any:
        if _scalar(c) and c in (0, 1):
            return self._as("bool") if (int(c) == 1) == equal else self._flipped("bool")
        values = self.materialise("comparing")
        return values == c if equal else values != c

    def __eq__(self, c: Any) -> Any:
        return self._compare(c, True)

    def __ne__(self, c: Any) -> Any:
        return self._compare(c, False)

    __hash__ = None  # type: ignore[assignment]

    def _flipped(self, kind: str) -> BitVector:
        """Every coordinate negated: 1 with probability ``1 - p``, with the rounding of the complement."""
        return BitVector(self.replay, [1 - p for p in self.probs],
                         [_complement_radius(p, r) for p, r in zip(self.probs, self.radii)], kind)

    def _readable(self, doing: str) -> None:
        """Refuse at once to read every bit when more than :data:`MATERIALISE_BITS` are uncertain (``2^n`` paths,
        beyond the path budget); ``doing`` says what was asked, ``{}`` standing for the count."""
        uncertain = sum(1 for p in self.probs if not _certain(p))
        if uncertain > MATERIALISE_BITS:
            raise NotEnumerable(f"{doing.format(uncertain)} (read one by one: 2^{uncertain} paths, at most "
                                f"2^{MATERIALISE_BITS})")

    def materialise(self, doing: str = "using") -> Any:
        """The real numpy array of this path: each coordinate not yet fixed is read (branching the path), when at
        most :data:`MATERIALISE_BITS` are uncertain; otherwise :class:`NotEnumerable`, naming the operation."""
        import numpy as np

        safe = doing.replace("{", "{{").replace("}", "}}")  # an operation's name, as text
        self._readable(f"{safe} an array of {{}} random bits in a way that does not keep it factorised")
        dtype = {"bool": bool, "int": np.int64, "float": np.float64}[self.kind]
        return np.array([self[i] for i in range(len(self))], dtype=dtype)

    def _fix(self, i: int, bit: int) -> None:
        self.probs[i], self.radii[i] = _BITS[bit], 0.0

    def __setitem__(self, i: Any, value: Any) -> None:
        import numpy as np

        if not isinstance(i, (int, np.integer)) or isinstance(i, bool) or not -len(self) <= int(i) < len(self):
            raise NotEnumerable("setting an array of bits at anything but one index")
        if hasattr(value, "item"):
            value = value.item()
        if not isinstance(value, (bool, int, float)) or value not in (0, 1):
            raise NotEnumerable(f"setting a bit to {value!r}")
        self._fix(int(i), int(value))

    def __getitem__(self, i: Any) -> Any:
        """Reading a bit branches on it (0 or 1, with its probability); the bit keeps the value read, given as
        numpy gives an element of the array (``numpy.bool_``, ``int64`` or ``float64``: ``True`` and ``1`` are
        different outputs)."""
        import numpy as np

        if not isinstance(i, (int, np.integer)) or isinstance(i, bool) or not -len(self) <= int(i) < len(self):
            raise NotEnumerable("reading an array of bits at anything but one index")
        i = int(i) % len(self)
        element = {"bool": np.bool_, "int": np.int64, "float": np.float64}[self.kind]
        p = self.probs[i]
        if _certain(p):
            return element(int(p))
        r = self.radii[i]
        q, qr = (1 - p, _complement_radius(p, r)) if self.complements is None else self.complements[i]
        bit = self.replay.decide([q, p], [qr, r] if r else None)
        self._fix(i, bit)
        return element(bit)

    def __iter__(self):
        import sys

        from relations.audit._iteration import Returned, returned_map

        uncertain = sum(1 for p in self.probs if not _certain(p))
        # a few bits are read one by one, as before: the whole channel, every notion; more stay factorised
        element = returned_map(sys._getframe(1), self) if uncertain > READ_BITS else None
        mapped = None if element is None else self.mapped(element)
        if mapped is not None:  # the randomizer returns this vector mapped bit by bit: its call ends here
            raise Returned(mapped)
        self._readable("iterating over an array of {} random bits (kept factorised only as the randomizer's "
                       "own return of the bits mapped one by one: see docs/auditing.md)")
        return (self[i] for i in range(len(self)))

    def mapped(self, element: Any) -> BitVector | None:
        """The vector with ``element`` applied to each bit, as numpy yields it (``numpy.bool_``, ``int64`` or
        ``float64``), when the results are again bits of one type (``int(b)``, ``1 - b``, ...); else ``None``.

        Examples
        --------
        >>> from fractions import Fraction as F
        >>> v = BitVector(None, [F(1, 4), F(1)], [0.0, 0.0], "bool")
        >>> v.mapped(int).output(), v.mapped(lambda b: 1 - int(b)).output()[:3]
        (('bits', 'int', (Fraction(1, 4), Fraction(1, 1)), 0.0), ('bits', 'int', (Fraction(3, 4), Fraction(0, 1))))
        >>> v.mapped(str) is None
        True
        """
        import numpy as np

        from relations.audit._outputs import output_key

        zero, one = {"bool": (np.False_, np.True_), "int": (np.int64(0), np.int64(1)),
                     "float": (np.float64(0.0), np.float64(1.0))}[self.kind]
        try:
            got = output_key(element(zero)), output_key(element(one))
        except Exception:  # noqa: BLE001 - any failure of the map: not a map of bits
            return None
        for kind, pair in _ELEMENT_KEYS.items():
            if got == pair:
                return self._as(kind)
            if got == pair[::-1]:
                return self._flipped(kind)
            if got[0] == got[1] and got[0] in pair:  # a constant: every coordinate fixed
                bit = Fraction(pair.index(got[0]))
                return BitVector(self.replay, [bit] * len(self), [0.0] * len(self), kind)
        return None

    def sum(self, *args: Any, **kwargs: Any) -> int:
        """The number of ones, a Poisson-binomial count: one choice among its ``n + 1`` values, with exact
        probabilities (each rounding bounded by the sum of the coordinates')."""
        if args or kwargs:
            raise NotEnumerable("a sum of bits along anything but the whole vector")
        dist = [Fraction(1)]
        for p in self.probs:
            dist = [(dist[k] if k < len(dist) else 0) * (1 - p) + (dist[k - 1] * p if k else 0)
                    for k in range(len(dist) + 1)]
        r = sum(self.radii) * 2
        return self.replay.decide(dist, [r] * len(dist) if r else None)

    def tolist(self) -> BitVector:
        """The bits as a list: the same output (a list and an array of the same values are one output), so the
        vector stays factorised when it is returned; iterating over it reads its bits."""
        return self

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        import numpy as np

        name = getattr(ufunc, "__name__", str(ufunc))
        alone = method == "__call__" and not kwargs and len(inputs) == 1 and inputs[0] is self
        if alone and (ufunc is np.logical_not or (ufunc is np.invert and self.kind == "bool")):
            return self._flipped("bool")
        if method == "__call__" and not kwargs and len(inputs) == 2 and name in ("equal", "not_equal"):
            other = inputs[1] if inputs[0] is self else inputs[0]
            if not isinstance(other, BitVector):
                return self._compare(other, name == "equal")
        real = [v.materialise(f"numpy's {name} on") if isinstance(v, BitVector) else v for v in inputs]
        return getattr(ufunc, method)(*real, **kwargs)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        import numpy as np

        if func is np.where and len(args) == 3 and args[0] is self and not kwargs and _factorisable(args[1:], self):
            return self._where(args[1], args[2])
        if func is np.copy and len(args) == 1 and args[0] is self:
            return self.copy()
        doing = f"numpy's {getattr(func, '__name__', func)} on"
        return func(*_materialised(args, doing), **_materialised(kwargs, doing))

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        values = self.materialise("converting")
        return values if dtype is None else values.astype(dtype)

    def __bool__(self) -> bool:
        raise NotEnumerable("truth value of an array of bits")

    def _where(self, a: Any, b: Any) -> BitVector:
        """``np.where(self, a, b)``, ``a`` and ``b`` each bits drawn apart from ``self`` (a :class:`BitVector`) or
        fixed 0/1 values (a number, or one per coordinate): coordinate ``i`` is 1 with probability
        ``c a + (1 - c) b``, the three independent; its rounding bounds each term's."""
        n = len(self)
        (pa, ra), (pb, rb) = _coordinates(a, n, self), _coordinates(b, n, self)
        probs, radii = [], []
        for c, rc, x, rx, y, ry in zip(self.probs, self.radii, pa, ra, pb, rb):
            p = c * x + (1 - c) * y
            error = float(c) * rc * float(x + y) + float(c * x) * rx + float((1 - c) * y) * ry  # absolute
            probs.append(p)
            radii.append(error / float(p) if p else 0.0)
        kinds = {v.kind for v in (a, b) if isinstance(v, BitVector)} | {_number_kind(v) for v in (a, b)
                                                                         if not isinstance(v, BitVector)}
        return BitVector(self.replay, probs, radii, "float" if "float" in kinds else "int")

    def output(self) -> tuple:
        """This path's output as a product form: ``("bits", kind, probs, radius)``."""
        return ("bits", self.kind, tuple(self.probs), max(self.radii, default=0.0))


#: The output keys of a bit 0 and 1 of each element type (:func:`~relations.audit._outputs.output_key`).
_ELEMENT_KEYS: dict[str, tuple[Any, Any]] = {"int": (0, 1), "bool": (("bool", False), ("bool", True)),
                                              "float": (("float", 0.0), ("float", 1.0))}


def _scalar(c: Any) -> bool:
    """A Python or numpy number, not an array."""
    import numpy as np

    return isinstance(c, (bool, int, float, np.bool_, np.integer, np.floating))


def _factorisable(branches: Sequence[Any], cond: BitVector) -> bool:
    """Whether ``np.where(cond, a, b)`` stays a product: each branch other bits or fixed 0/1 values
    (:func:`_coordinates` accepts it)."""
    try:
        for v in branches:
            _coordinates(v, len(cond), cond)
    except (NotEnumerable, TypeError, ValueError):
        return False
    return True


def _materialised(value: Any, doing: str) -> Any:
    """``value`` with every :class:`BitVector` in it (also in lists, tuples and dicts) made a real array."""
    if isinstance(value, BitVector):
        return value.materialise(doing)
    if isinstance(value, (list, tuple)):
        return type(value)(_materialised(v, doing) for v in value)
    if isinstance(value, dict):
        return {k: _materialised(v, doing) for k, v in value.items()}
    return value


def _coordinates(v: Any, n: int, cond: BitVector) -> tuple[list[Fraction], list[float]]:
    """The probabilities of 1 and their roundings of one branch of ``np.where``: bits, or fixed 0/1 values."""
    import numpy as np

    if isinstance(v, BitVector):
        if v is cond or len(v) != n:
            raise NotEnumerable("np.where on an array of bits with the same bits, or of another length, as a branch")
        return v.probs, v.radii
    values = [v] * n if np.ndim(v) == 0 else list(np.asarray(v).ravel())
    if len(values) != n or any(float(x) not in (0.0, 1.0) for x in values):
        raise NotEnumerable("np.where on an array of bits with branches other than bits or 0/1 values")
    return [Fraction(int(float(x))) for x in values], [0.0] * n


def _number_kind(c: Any) -> str:
    """``int`` for integers (Python's or numpy's, a number or an array), else ``float``: the elements bits
    become when combined with ``c``."""
    import numpy as np

    return "int" if np.asarray(c).dtype.kind in "biu" else "float"


_BITS = (Fraction(0), Fraction(1))


def _certain(p: Any) -> bool:
    """``p in (0, 1)``: a bit's probability that leaves nothing to draw (a Fraction told by its numerator and
    denominator, without two calls of its ``__eq__``: this is asked for every bit on every path).

    Examples
    --------
    >>> [_certain(p) for p in (Fraction(0), Fraction(1), Fraction(1, 2), Fraction(2), 1, 0.5, True)]
    [True, True, False, False, True, False, True]
    """
    if type(p) is Fraction:
        return p._denominator == 1 and p._numerator in (0, 1)  # type: ignore[attr-defined]
    return p in (0, 1)


def _complement_radius(p: Fraction, r: float) -> float:
    """The relative rounding of ``1 - p`` when ``p`` is within a relative ``r``."""
    return r * float(p / (1 - p)) if 0 < p < 1 else 0.0


@dataclass(frozen=True)
class Factorised:
    """The channel of a factorised randomizer: input ``x`` outputs ``d`` independent bits, bit ``i`` equal
    to 1 with probability ``rows[x][i]``; ``radius`` is the relative rounding of every probability (and of
    its complement) that comes from the code's float thresholds; ``kind`` the element type returned."""

    rows: list
    radius: float
    kind: str

    def eps_d(self) -> tuple[Fraction | None, tuple | None]:
        """``(q, (x, x', y))`` with ``eps_d = ln(q)`` exactly (``q = None``: infinite), ``y`` the bits of the
        output where the largest ratio is attained (``(Fraction(1), None)`` for a single input)."""
        best, where = Fraction(1), None
        for x, a in enumerate(self.rows):
            for x2, b in enumerate(self.rows):
                if x == x2:
                    continue
                q: Fraction | None = Fraction(1)
                bits: list[int] = []
                for p, p2 in zip(a, b):
                    if p is p2 or p == p2:  # ratio 1 either way (most coordinates of unary encoding)
                        bits.append(1 if p == 1 else 0)
                        continue
                    one = p / p2 if p2 else (None if p else Fraction(0))
                    zero = (1 - p) / (1 - p2) if p2 < 1 else (None if p < 1 else Fraction(0))
                    if one is None or zero is None:
                        bits.append(1 if one is None else 0)
                        q = None
                        continue
                    bits.append(1 if one > zero else 0)
                    if q is not None:
                        q *= max(one, zero)
                if q is None:
                    return None, (x, x2, tuple(bits))
                if q > best or where is None:
                    best, where = q, (x, x2, tuple(bits))
        return best, where


def merge_products(paths: Sequence[tuple[Fraction, tuple]]) -> tuple | None:
    """One product equal to the mixture ``sum_j w_j prod_i Bern(probs_j[i])`` of the ``paths``
    (``(weight, probs)``), or ``None`` when it is not one.  Paths that differ in a single coordinate are
    merged pairwise (their weights add, that coordinate averages), until one is left.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> merge_products([(F(3, 4), (F(1), F(1, 4))), (F(1, 4), (F(0), F(1, 4)))])
    (Fraction(3, 4), Fraction(1, 4))
    >>> merge_products([(F(1, 2), (F(1), F(1))), (F(1, 2), (F(0), F(0)))]) is None
    True
    """
    items = [(Fraction(w), tuple(p)) for w, p in paths]
    while len(items) > 1:
        merged = False
        for a in range(len(items)):
            for b in range(a + 1, len(items)):
                (wa, pa), (wb, pb) = items[a], items[b]
                diff = [i for i, (u, v) in enumerate(zip(pa, pb)) if u != v]
                if len(pa) != len(pb) or len(diff) > 1:
                    continue
                w = wa + wb
                probs = list(pa)
                for i in diff:
                    probs[i] = (wa * pa[i] + wb * pb[i]) / w
                items[a] = (w, tuple(probs))
                del items[b]
                merged = True
                break
            if merged:
                break
        if not merged:
            return None
    return items[0][1]
