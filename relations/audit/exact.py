"""The exact channel of a randomizer, from every path through its random choices.

:func:`enumerate_channel` runs the randomizer once per path, with the
:class:`~relations.audit.enumerate.EnumeratingGenerator` as its random source and the
global generators intercepted (:mod:`relations.audit.intercept`), and weights each path
by the exact product of its choices' probabilities.  Kept free of the rest of the package
(except :func:`exact_mechanism`, which imports it when called) so that a worker
interpreter can run it alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Hashable, Sequence

from relations.audit.enumerate import (
    MAX_OUTCOMES,
    MAX_PATHS,
    EnumeratingGenerator,
    NotEnumerable,
    _Replay,
)
from relations.audit.intercept import intercepted_globals
from relations.audit.outputs import output_key, output_label

__all__ = ["REPLAYS", "Enumerated", "enumerate_channel", "exact_channel", "exact_mechanism"]


@dataclass(frozen=True)
class Enumerated:
    """The channel a randomizer implements (:func:`enumerate_channel`).

    Attributes
    ----------
    outputs : list
        The distinct outputs (as :func:`output_key`), in order of first appearance.
    rows : list of list of Fraction
        ``rows[i][j] = P(fn(domain[i]) = outputs[j])``, each row summing to exactly 1.
    runs : int
        Paths run.
    rounding : float
        Relative rounding of the entries that comes from float thresholds and weights in
        the code (each taken at its binary value, within :data:`THRESHOLD_ROUNDING` of the
        intended one); 0 when every probability in the code is exact.
    """

    outputs: list[Hashable]
    rows: list[list[Fraction]]
    runs: int
    rounding: float


#: Times the first path of every input is replayed to detect randomness the audit cannot see.
REPLAYS = 16


def _replayed(fn: Callable[..., Any], x: Any, pass_rng: bool, replay: _Replay, key: Hashable, current: Any) -> None:
    """Replay the path just run; a different output means randomness from a source the audit
    does not control (OS entropy, native code, a generator created inside the function)."""
    forced = [c for c, _ in replay.trail]
    for _ in range(REPLAYS):
        again = _Replay(replay.max_outcomes)
        again.forced = list(forced)
        gen = current.generator = EnumeratingGenerator(again)
        value = fn(x, rng=gen) if pass_rng else fn(x)
        if output_key(value) != key or [c for c, _ in again.trail] != forced:
            raise NotEnumerable("the randomizer draws from a source the audit cannot see (operating-system "
                                "entropy, native code or its own generator): the same choices gave different "
                                "outputs; use sampling (--samples)")


def enumerate_channel(fn: Callable[..., Any], domain: Sequence[Any], *, pass_rng: bool = True,
                      max_paths: int = MAX_PATHS, max_outcomes: int = MAX_OUTCOMES) -> Enumerated:
    """The exact channel of ``fn`` on ``domain`` and the rounding it inherits from float thresholds.

    Parameters and exceptions as for :func:`exact_channel`.

    Returns
    -------
    Enumerated

    Examples
    --------
    >>> def rr(x, rng):
    ...     return x if rng.random() < 0.75 else 1 - x
    >>> e = enumerate_channel(rr, [0, 1])
    >>> e.rows[1], 0 < e.rounding < 1e-12
    ([Fraction(1, 4), Fraction(3, 4)], True)
    >>> from fractions import Fraction
    >>> enumerate_channel(lambda x, rng: x if rng.random() < Fraction(3, 4) else 1 - x, [0, 1]).rounding
    0.0
    """
    outputs: dict[Hashable, int] = {}
    raw_rows: list[dict[int, Fraction]] = []
    runs = 0
    radius = 1.0
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
                if not row:  # the first path, replayed: hidden randomness would change its output
                    _replayed(fn, x, pass_rng, replay, key, current)
                j = outputs.setdefault(key, len(outputs))
                row[j] = row.get(j, Fraction(0)) + replay.probability()
                radius = max(radius, replay.radius)
                if not replay.advance():
                    break
            raw_rows.append(row)
    keys = list(outputs)
    rows = [[r.get(j, Fraction(0)) for j in range(len(keys))] for r in raw_rows]
    for x, r in zip(domain, rows):
        if sum(r) != 1:  # pragma: no cover - the weights of a decision tree sum to 1
            raise AssertionError(f"probabilities for input {x!r} sum to {sum(r)}")
    return Enumerated(keys, rows, runs, (radius - 1) * (1 + 2.0**-40))


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
    e = enumerate_channel(fn, domain, pass_rng=pass_rng, max_paths=max_paths, max_outcomes=max_outcomes)
    return e.outputs, e.rows, e.runs


def exact_mechanism(fn: Callable[..., Any], domain: Sequence[Any], *, prior: Any = "uniform", pass_rng: bool = True,
                    max_paths: int = MAX_PATHS) -> Any:
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
    from relations.model.distributions import Channel
    from relations.model.mechanism import Mechanism  # not at the top: a worker interpreter runs this module alone

    e = enumerate_channel(fn, domain, pass_rng=pass_rng, max_paths=max_paths)
    labels = [str(x) for x in domain]
    outs = [output_label(k) for k in e.outputs]
    if len(set(outs)) != len(outs):
        outs = [f"{i}:{o}" for i, o in enumerate(outs)]
    channel = Channel.from_exact(e.rows, Fraction(e.rounding))
    return Mechanism.local(channel, prior=prior, inputs=labels, outputs=outs)
