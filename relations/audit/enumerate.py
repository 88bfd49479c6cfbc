"""The exact channel of a randomizer written in code, by enumerating every random choice it makes.

A randomizer is a Python function ``fn(x)`` or ``fn(x, rng=...)``.  :func:`exact_channel`
runs it once per *path* through its random choices: the random source handed to it
(:class:`EnumeratingGenerator`, a stand-in for ``numpy.random.Generator``) answers each
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
binary value).  Any other use of such a float (arithmetic, ``float()``) is refused with
:class:`NotEnumerable`: the white-box route does not apply and sampling must be used.

Limits: at most ``max_paths`` runs (default :data:`MAX_PATHS`) and
``max_outcomes`` outcomes per finite draw (default :data:`MAX_OUTCOMES`), checked as
they are met.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Hashable, Sequence

from relations.audit.intercept import intercepted_globals
from relations.model.mechanism import Mechanism

__all__ = ["MAX_PATHS", "MAX_OUTCOMES", "NotEnumerable", "EnumeratingGenerator", "UniformDraw", "exact_channel",
           "output_key", "output_label", "exact_mechanism"]

#: Most runs of the randomizer one enumeration may make.
MAX_PATHS = 1_000_000
#: Most outcomes one finite draw may have.
MAX_OUTCOMES = 100_000


class NotEnumerable(Exception):
    """The randomizer uses its randomness in a way that cannot be enumerated exactly."""


class _Replay:
    """Depth-first replay of the decision tree: forced choices, then first choices recorded."""

    def __init__(self, max_outcomes: int):
        self.forced: list[int] = []
        self.trail: list[tuple[int, list[Fraction]]] = []  # (choice taken, weights of all choices)
        self.max_outcomes = max_outcomes

    def decide(self, weights: list[Fraction]) -> int:
        """Pick a branch among ``weights`` (exact, summing to 1; zero-weight branches skipped)."""
        if len(weights) > self.max_outcomes:
            raise NotEnumerable(f"a draw with {len(weights)} outcomes exceeds the limit of {self.max_outcomes}")
        depth = len(self.trail)
        if depth < len(self.forced):
            choice = self.forced[depth]
        else:
            choice = next(i for i, w in enumerate(weights) if w > 0)
        self.trail.append((choice, weights))
        return choice

    def probability(self) -> Fraction:
        p = Fraction(1)
        for choice, weights in self.trail:
            p *= weights[choice]
        return p

    def advance(self) -> bool:
        """Move to the next path; False when every path has been run."""
        trail = self.trail
        while trail:
            choice, weights = trail[-1]
            nxt = next((i for i in range(choice + 1, len(weights)) if weights[i] > 0), None)
            if nxt is not None:
                self.forced = [c for c, _ in trail[:-1]] + [nxt]
                self.trail = []
                return True
            trail.pop()
        return False


def _exact(value: Any) -> Fraction:
    if isinstance(value, UniformDraw):
        raise NotEnumerable("a uniform draw compared with another uniform draw")
    try:
        return Fraction(value)
    except (TypeError, ValueError):
        raise NotEnumerable(f"cannot compare a uniform draw with {value!r}") from None


@dataclass(eq=False)
class UniformDraw:
    """A uniform float on ``[lo, hi)``, narrowed by the comparisons the randomizer makes with it."""

    replay: _Replay
    lo: Fraction = Fraction(0)
    hi: Fraction = Fraction(1)
    _scale: Fraction = field(default=Fraction(1), repr=False)

    def _below(self, t: Any) -> bool:
        """Branch on ``u < t``: True with probability ``(t - lo)/(hi - lo)`` (clipped)."""
        t = min(max(_exact(t), self.lo), self.hi)
        width = self.hi - self.lo
        p_below = (t - self.lo) / width
        choice = self.replay.decide([p_below, 1 - p_below])
        if choice == 0:
            self.hi = t
            return True
        self.lo = t
        return False

    def __lt__(self, t: Any) -> bool:
        return self._below(t)

    def __ge__(self, t: Any) -> bool:
        return not self._below(t)

    def __le__(self, t: Any) -> bool:  # u <= t and u < t differ on a null set
        return self._below(t)

    def __gt__(self, t: Any) -> bool:
        return not self._below(t)

    def _refuse(self, *args: Any) -> Any:
        raise NotEnumerable("arithmetic on a uniform draw (only comparisons with numbers are enumerable)")

    __float__ = __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = _refuse
    __rtruediv__ = __int__ = __round__ = __floor__ = __ceil__ = __neg__ = __pow__ = __index__ = _refuse

    def __bool__(self) -> bool:
        raise NotEnumerable("truth value of a uniform draw")


class EnumeratingGenerator:
    """A stand-in for ``numpy.random.Generator`` whose draws enumerate their outcomes.

    Only draws of a single value (``size=None``) or small fixed-size arrays of finite
    draws are supported; anything else raises :class:`NotEnumerable`.
    """

    def __init__(self, replay: _Replay):
        self._replay = replay

    def _pick(self, weights: list[Fraction]) -> int:
        return self._replay.decide(weights)

    def _sized(self, size: Any, draw: Callable[[], Any]) -> Any:
        if size is None:
            return draw()
        import numpy as np

        shape = (size,) if isinstance(size, int) else tuple(size)
        count = math.prod(shape)
        return np.array([draw() for _ in range(count)], dtype=object).reshape(shape)

    def integers(self, low: int, high: int | None = None, size: Any = None, endpoint: bool = False, **_: Any) -> Any:
        """Uniform integers in ``[low, high)`` (``[low, high]`` with ``endpoint``); ``integers(n)`` is ``[0, n)``."""
        if high is None:
            low, high = 0, low
        low, high = int(low), int(high) + (1 if endpoint else 0)
        if high <= low:
            raise ValueError("high <= low")
        n = high - low

        def one() -> int:
            return low + self._pick([Fraction(1, n)] * n)
        return self._sized(size, one)

    def random(self, size: Any = None, **_: Any) -> Any:
        """A symbolic uniform float on ``[0, 1)`` (comparisons branch exactly)."""
        if size is not None:
            raise NotEnumerable("random(size=...) arrays of uniform floats")
        return UniformDraw(self._replay)

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Sequence[float] | None = None,
               **_: Any) -> Any:
        """A uniform (or ``p``-weighted) element of ``a`` (an int ``n`` means ``range(n)``)."""
        items = list(range(a)) if isinstance(a, int) else list(a)
        if not items:
            raise ValueError("choice from an empty population")
        if p is None:
            weights = [Fraction(1, len(items))] * len(items)
        else:
            weights = [Fraction(float(w)) for w in p]
            total = sum(weights)
            weights = [w / total for w in weights]
        if size is not None and not replace:
            count = size if isinstance(size, int) else math.prod(size)
            chosen, pool, pw = [], list(range(len(items))), list(weights)
            for _ in range(count):
                total = sum(pw)
                k = self._pick([w / total for w in pw])
                chosen.append(items[pool.pop(k)])
                pw.pop(k)
            import numpy as np

            return np.array(chosen, dtype=object)
        return self._sized(size, lambda: items[self._pick(weights)])

    def permutation(self, x: Any) -> Any:
        """A uniformly random permutation of ``x`` (an int ``n`` means ``range(n)``)."""
        import numpy as np

        items = list(range(x)) if isinstance(x, int) else list(x)
        out = []
        while items:
            out.append(items.pop(self._pick([Fraction(1, len(items))] * len(items))))
        return np.array(out)

    def shuffle(self, x: Any) -> None:
        """Shuffle the sequence ``x`` in place, uniformly."""
        perm = list(self.permutation(len(x)))
        values = [x[i] for i in perm]
        for i, v in enumerate(values):
            x[i] = v

    def binomial(self, n: int, p: float, size: Any = None) -> Any:
        """Binomial ``(n, p)``, exactly (``p`` at its exact binary value)."""
        q = Fraction(p)
        weights = [Fraction(math.comb(n, k)) * q**k * (1 - q) ** (n - k) for k in range(n + 1)]
        return self._sized(size, lambda: self._pick(weights))

    def __getattr__(self, name: str) -> Any:
        raise NotEnumerable(f"the draw '{name}' cannot be enumerated exactly")


def output_key(value: Any) -> Hashable:
    """A hashable, comparable form of what the randomizer returned (arrays, lists and sets included).

    Whatever a published output carries, it leaks: ``(1, 0)`` and ``[1, 0]`` are the same
    output, but ``1`` and ``1.0`` and ``True`` are kept apart by type.

    Examples
    --------
    >>> import numpy as np
    >>> output_key(np.array([1, 0])) == output_key([1, 0])
    True
    >>> output_key({2, 1})
    ('set', (1, 2))
    """
    try:
        import numpy as np

        if isinstance(value, np.ndarray):
            return ("seq", tuple(output_key(v) for v in value.tolist()))
        if isinstance(value, np.generic):
            value = value.item()
    except ImportError:  # pragma: no cover
        pass
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(output_key(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted((output_key(v) for v in value), key=repr)))
    if isinstance(value, dict):
        return ("dict", tuple(sorted(((repr(k), output_key(v)) for k, v in value.items()))))
    if isinstance(value, (bool, int, float, str, bytes)) or value is None:
        return (type(value).__name__, value) if isinstance(value, (bool, float)) else value
    return ("repr", repr(value))


def exact_channel(fn: Callable[..., Any], domain: Sequence[Any], *, pass_rng: bool = True,
                  max_paths: int = MAX_PATHS, max_outcomes: int = MAX_OUTCOMES
                  ) -> tuple[list[Hashable], list[list[Fraction]], int]:
    """The exact channel ``Q[x][y]`` that the randomizer ``fn`` implements on ``domain``.

    Parameters
    ----------
    fn : callable
        ``fn(x, rng=generator)`` (or ``fn(x)`` with ``pass_rng=False``, for randomizers that
        close over a generator they were given).
    domain : sequence
        The inputs, in row order.
    pass_rng : bool, optional
        Hand the enumerating generator to ``fn`` as the keyword ``rng``.  Draws from Python's
        ``random`` module and numpy's global generator (``np.random.random`` ...) are
        intercepted either way.
    max_paths, max_outcomes : int, optional
        Limits on runs and on the outcomes of one draw.

    Returns
    -------
    outputs : list
        The distinct outputs (as :func:`output_key`), in order of first appearance.
    rows : list of list of Fraction
        ``rows[i][j] = P(fn(domain[i]) = outputs[j])``, each row summing to exactly 1.
    runs : int
        How many paths were run.

    Raises
    ------
    NotEnumerable
        If the randomizer's randomness cannot be enumerated, or a limit is exceeded.

    Examples
    --------
    Randomized response written as code, with the truth kept when ``u < 3/4``:

    >>> def rr(x, rng):
    ...     return x if rng.random() < 0.75 else 1 - x
    >>> outputs, rows, runs = exact_channel(rr, [0, 1])
    >>> outputs, rows[0], runs
    ([0, 1], [Fraction(3, 4), Fraction(1, 4)], 4)
    """
    outputs: dict[Hashable, int] = {}
    raw_rows: list[dict[int, Fraction]] = []
    runs = 0
    with intercepted_globals() as current:
        for x in domain:
            row: dict[int, Fraction] = {}
            replay = _Replay(max_outcomes)
            while True:
                runs += 1
                if runs > max_paths:
                    raise NotEnumerable(f"more than {max_paths} paths through the randomizer")
                gen = current.generator = EnumeratingGenerator(replay)
                value = fn(x, rng=gen) if pass_rng else fn(x)
                key = output_key(value)
                j = outputs.setdefault(key, len(outputs))
                row[j] = row.get(j, Fraction(0)) + replay.probability()
                if not replay.advance():
                    break
            raw_rows.append(row)
    keys = list(outputs)
    rows = [[r.get(j, Fraction(0)) for j in range(len(keys))] for r in raw_rows]
    for x, r in zip(domain, rows):
        if sum(r) != 1:  # pragma: no cover - the weights of a decision tree sum to 1
            raise AssertionError(f"probabilities for input {x!r} sum to {sum(r)}")
    return keys, rows, runs


def output_label(key: Hashable) -> str:
    """Text for an output key (:func:`output_key`): ``(0,1)``, ``{1,2}``, ``True``, ``3``."""
    if isinstance(key, tuple) and len(key) == 2 and key[0] in ("seq", "set"):
        inner = ",".join(output_label(k) for k in key[1])
        return f"({inner})" if key[0] == "seq" else "{" + inner + "}"
    if isinstance(key, tuple) and len(key) == 2 and key[0] in ("bool", "float"):
        return repr(key[1])
    return str(key)


def exact_mechanism(fn: Callable[..., Any], domain: Sequence[Any], *, prior: Any = "uniform", pass_rng: bool = True,
                    max_paths: int = MAX_PATHS) -> Mechanism:
    """The local mechanism that the randomizer ``fn`` implements on ``domain``, exactly.

    Parameters
    ----------
    fn, domain, pass_rng, max_paths
        As for :func:`exact_channel`.
    prior : optional
        The prior over ``domain`` (uniform by default).

    Returns
    -------
    Mechanism
        Inputs labelled by ``domain``, outputs by what the code returned.

    Raises
    ------
    NotEnumerable
        As for :func:`exact_channel`.

    Examples
    --------
    Unary encoding whose user bit is drawn like the others and then set to 1 with
    probability ``p`` (the pure-ldp 1.1.2 bug): at ``p = 1/2``, ``q = 1/4`` (claimed
    ``eps = ln 3``) the true budget is ``ln 5``:

    >>> from relations import measure
    >>> def buggy_oue(x, rng):
    ...     bits = [1 if rng.random() < 0.25 else 0 for _ in range(2)]
    ...     if rng.random() < 0.5:
    ...         bits[x] = 1
    ...     return tuple(bits)
    >>> str(measure(exact_mechanism(buggy_oue, [0, 1])).eps_d.exact)
    'ln(5)'
    """
    keys, rows, _ = exact_channel(fn, domain, pass_rng=pass_rng, max_paths=max_paths)
    labels = [str(x) for x in domain]
    outs = [output_label(k) for k in keys]
    if len(set(outs)) != len(outs):
        outs = [f"{i}:{o}" for i, o in enumerate(outs)]
    return Mechanism.local(rows, prior=prior, inputs=labels, outputs=outs)
