"""The black-box route: certified lower bounds on ``eps_d`` from samples of a randomizer.

Where the randomness cannot be enumerated (native code, unbounded loops, arithmetic on
floats), the randomizer is run ``samples`` times per input with a seeded
``numpy.random.Generator``.  For every pair of inputs ``x, x'`` and every output ``y``
seen, exact binomial (Clopper-Pearson) intervals bound ``P(y | x)`` from below and
``P(y | x')`` from above, at a confidence split over all the pairs and outputs tested
(a union bound), so

    ``eps_d >= ln( lower(P(y | x)) / upper(P(y | x')) )``

holds for all of them together with probability at least ``1 - alpha``.  The largest such
bound is reported; a claim ``eps_d <= eps`` is ``violated`` when it exceeds ``eps``.
Sampling cannot see an output whose probability is below about ``3 / samples`` (the
"rule of three"): the report says so.

Sampling is *sequential*: rounds of 10^4, 4*10^4, 1.6*10^5, ... samples per input, round
``r`` tested at ``alpha / 2^(r+1)`` (so all rounds together keep ``1 - alpha``), stopping
as soon as the claim is certified violated, so a large violation costs few samples.  Every
chunk of :data:`CHUNK` samples is seeded by ``(seed, input, chunk)`` alone: the counts do
not depend on how many processes or machines drew them.

Where the library documents its channel, a conformance test compares the counts with it
(Pearson's chi-square, bins with expected counts below 5 pooled, a Bonferroni
correction over the inputs).

The intervals are those of Clopper and Pearson, "The use of confidence or fiducial
limits illustrated in the case of the binomial", Biometrika 26(4), 1934
(doi:10.1093/biomet/26.4.404); LDP-Auditor (Arcolezi and Gambs, PoPETs 2024,
arXiv:2309.01597) uses them with about 1e6 samples per input.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from relations.errors import InputError

__all__ = ["MAX_SAMPLES", "CHUNK", "REPEATS", "INFORMATIVE_SHARE", "PROBE", "SampleAudit", "clopper_pearson", "certify", "schedule", "conformance",
           "sample_audit", "check_sampling", "sequential"]

#: Most samples per input one black-box audit may draw.
MAX_SAMPLES = 100_000_000
#: Samples per seeded chunk.
CHUNK = 10_000


def clopper_pearson(k: int, n: int, alpha: float) -> tuple[float, float]:
    """The exact two-sided ``1 - alpha`` binomial interval for ``k`` successes in ``n`` trials.

    Examples
    --------
    >>> lo, hi = clopper_pearson(0, 1000, 0.05)
    >>> lo, round(hi, 5)
    (0.0, 0.00368)
    """
    from scipy.special import betaincinv  # the beta quantile (scipy.stats.beta.ppf's), without scipy.stats' import

    lo = 0.0 if k == 0 else float(betaincinv(k, n - k + 1, alpha / 2))
    hi = 1.0 if k == n else float(betaincinv(k + 1, n - k, 1 - alpha / 2))
    return lo, hi


#: An output seen this many times for an input is "repeated" (its frequency is estimated to within a factor).
REPEATS = 10

#: Samples that put less than this share on repeated outputs certify nothing: the verdict is ``inconclusive``.
INFORMATIVE_SHARE = 0.5

#: Samples of the chunk that :func:`sequential` draws twice to see whether the counts repeat.
PROBE = 1000


@dataclass(frozen=True)
class SampleAudit:
    """A black-box audit: counts, the certified lower bound on ``eps_d`` and its witness.

    Attributes
    ----------
    eps_d_lower : float
        ``eps_d`` is at least this, with confidence ``1 - alpha`` (0 when nothing is certified).
    witness : tuple or None
        ``(x, x', y)`` attaining the bound (``y`` as text).
    samples : int
        Samples drawn per input.
    alpha : float
    counts : dict
        ``counts[x][y]`` (``y`` as the text of its output key).
    undetectable : float
        Outputs rarer than this (``3 / samples``) may have gone unseen.
    rounds : int
        Sequential rounds run (fewer than planned when a violation stopped it early).
    conformance : float or None
        p-value of the conformance test against the declared channel (None: none declared).
    repeatable : bool
        Whether one chunk drawn twice with the same seed gave the same outputs, run by run (:data:`PROBE`
        samples of the first input): False when the randomizer draws from a source the seed does not control.
    """

    eps_d_lower: float
    witness: tuple[Any, Any, str] | None
    samples: int
    alpha: float
    counts: dict[Any, Counter]
    undetectable: float
    rounds: int = 1
    conformance: float | None = None
    repeatable: bool = True

    def repeated_share(self) -> float:
        """The share of all samples that fell on an output seen at least :data:`REPEATS` times for its input.

        Only repeated outputs carry information on a ratio ``Q[x][y] / Q[x'][y]``: when most samples fall on
        outputs seen a few times (a fresh hash seed in every report, a continuous output), no bound can be
        certified, and a lower bound of 0 is no evidence of privacy (:func:`informative`).
        """
        total = sum(sum(c.values()) for c in self.counts.values())
        if not total:
            return 0.0
        return sum(n for c in self.counts.values() for n in c.values() if n >= REPEATS) / total

    def informative(self) -> bool:
        """Whether the samples could have shown a violation: at least :data:`INFORMATIVE_SHARE` of them on
        repeated outputs."""
        return self.repeated_share() >= INFORMATIVE_SHARE


def certify(counts: Sequence[Counter], n: int, alpha: float) -> tuple[float, tuple[int, int, Any] | None]:
    """The certified lower bound on ``eps_d`` from ``counts[i]`` (``n`` samples each) and its witness.

    Examples
    --------
    >>> bound, w = certify([Counter({0: 750, 1: 250}), Counter({0: 250, 1: 750})], 1000, 0.05)
    >>> 0.8 < bound < math.log(3), w
    (True, (0, 1, 0))
    """
    outputs = sorted({y for c in counts for y in c}, key=repr)
    tests = len(counts) * (len(counts) - 1) * max(1, len(outputs))
    a = alpha / tests
    best, witness = 0.0, None
    intervals: dict[int, tuple[float, float]] = {}  # the interval depends on the count alone (n and a are fixed)

    def interval(count: int) -> tuple[float, float]:
        if count not in intervals:
            intervals[count] = clopper_pearson(count, n, a)
        return intervals[count]

    floor = interval(0)[1]  # no upper end is smaller: an output whose lower end is below it cannot raise the bound
    for i, c in enumerate(counts):  # in the order of the inputs, then of the outputs: ties keep the first
        for y in outputs:
            lo = interval(c[y])[0] if c[y] else 0.0
            if lo <= floor:
                continue
            for j in range(len(counts)):
                if j == i:
                    continue
                bound = math.log(lo / interval(counts[j][y])[1])
                if bound > best:
                    best, witness = bound, (i, j, y)
    return best, witness


def schedule(samples: int) -> list[int]:
    """Cumulative samples per input after each sequential round (10^4, 4*10^4, ... up to ``samples``).

    Examples
    --------
    >>> schedule(100_000)
    [10000, 40000, 100000]
    """
    out, n = [], CHUNK
    while n < samples:
        out.append(n)
        n *= 4
    return out + [samples]


def conformance(counts: Sequence[Counter], n: int, declared: Sequence[dict]) -> float:
    """p-value that the counts come from the declared rows (chi-square, Bonferroni over inputs).

    An output the declaration gives probability 0 that was seen gives p = 0.

    Examples
    --------
    >>> rows = [{0: 0.75, 1: 0.25}, {0: 0.25, 1: 0.75}]
    >>> conformance([Counter({0: 760, 1: 240}), Counter({0: 260, 1: 740})], 1000, rows) > 0.05
    True
    >>> conformance([Counter({0: 500, 1: 500}), Counter({0: 260, 1: 740})], 1000, rows) < 1e-6
    True
    """
    import numpy as np
    from scipy.special import chdtrc  # the chi-square survival function, without scipy.stats' import

    worst = 1.0
    for c, row in zip(counts, declared):
        if any(c[y] and row.get(y, 0) <= 0 for y in c):
            return 0.0
        obs, exp, pool_o, pool_e = [], [], 0, 0.0
        for y, p in row.items():
            if n * p >= 5:
                obs.append(c[y])
                exp.append(n * p)
            else:
                pool_o += c[y]
                pool_e += n * p
        if pool_e > 0:
            obs.append(pool_o)
            exp.append(pool_e)
        if len(obs) < 2:
            continue
        total = sum(exp)
        exp = [e * sum(obs) / total for e in exp]
        observed, expected = np.asarray(obs, dtype=np.float64), np.asarray(exp, dtype=np.float64)
        statistic = ((observed - expected) ** 2 / expected).sum()  # Pearson's, as scipy.stats.chisquare sums it
        worst = min(worst, float(chdtrc(len(obs) - 1, statistic)))
    return min(1.0, worst * len(declared))


def sample_audit(fn: Callable[..., Any], *, domain: Sequence[Any], samples: int = 100_000, seed: int = 0,
                 alpha: float = 0.05, stop_above: float | None = None) -> SampleAudit:
    """Sample ``fn`` on every input of ``domain`` and certify a lower bound on its ``eps_d``, in this process.

    Parameters
    ----------
    fn : callable
        ``fn(x)`` or ``fn(x, rng=generator)``; with ``rng`` it gets a ``numpy.random.Generator``
        seeded from ``(seed, input, chunk)``, and numpy's and Python's global generators are
        seeded the same way.
    domain : sequence
        At least two inputs.
    samples : int, optional
        Draws per input, at most :data:`MAX_SAMPLES`.
    seed : int, optional
        The same seed gives the same counts and bound.
    alpha : float, optional
        Total error probability of the certificate (union bound over rounds, pairs and outputs).
    stop_above : float, optional
        Stop after the first round whose certified bound exceeds this (a claimed ``eps``).

    Returns
    -------
    SampleAudit

    Raises
    ------
    InputError
        For fewer than two inputs, a sample count out of range, or ``alpha`` outside ``(0, 1)``.

    Examples
    --------
    Randomized response at ``eps = ln 3``, 20 000 samples per input:

    >>> def rr(x, rng):
    ...     return x if rng.random() < 0.75 else 1 - x
    >>> res = sample_audit(rr, domain=[0, 1], samples=20_000, seed=1)
    >>> 0.9 < res.eps_d_lower < math.log(3)
    True
    """
    import inspect

    from relations.audit._worker import Target, sample_counts

    try:
        pass_rng = "rng" in inspect.signature(fn, follow_wrapped=False).parameters
    except (TypeError, ValueError):
        pass_rng = False
    target = Target(fn, pass_rng=pass_rng)

    def draw(i: int, chunk: int, size: int, ordered: bool = False) -> Counter:
        c = sample_counts(target, domain[i], index=i, chunk=chunk, size=size, seed=seed, ordered=ordered)
        return Counter({repr(k): v for k, v in c.items()})
    return sequential(draw, domain=domain, samples=samples, alpha=alpha, stop_above=stop_above)


def check_sampling(domain: Sequence[Any], samples: int, alpha: float) -> None:
    """Raise :class:`InputError` for fewer than two inputs, ``samples`` or ``alpha`` out of range."""
    if len(domain) < 2:
        raise InputError("--domain: a black-box audit needs at least two inputs")
    if not 1 <= samples <= MAX_SAMPLES:
        raise InputError(f"--samples: {samples} out of range 1..{MAX_SAMPLES}")
    if not 0 < alpha < 1:
        raise InputError(f"alpha must lie in (0, 1), got {alpha}")


def sequential(draw: Callable[..., Any] | None, *, domain: Sequence[Any], samples: int, alpha: float,
               stop_above: float | None = None, draw_round: Callable[..., list[Counter]] | None = None,
               declared: Sequence[dict] | None = None) -> SampleAudit:
    """Sequential rounds of :func:`schedule`; ``draw(i, chunk, size)`` (or ``draw_round(tasks)``
    for a whole round at once) returns the counts of one seeded chunk.  First, one chunk of the first input
    is drawn twice, run by run (``ordered=True``: each output counted under its position): whether the two
    agree is the result's ``repeatable``."""
    check_sampling(domain, samples, alpha)
    if draw_round is None:
        if draw is None:
            raise TypeError("sequential needs draw or draw_round")
        one = draw

        def draw_round(tasks: list[tuple[int, int, int]], ordered: bool = False) -> list[Counter]:
            return [one(*t, ordered=True) if ordered else one(*t) for t in tasks]
    probe = [(0, 0, min(samples, PROBE))] * 2
    twice = draw_round(probe, ordered=True)
    repeatable = twice[0] == twice[1]
    counts: list[Counter] = [Counter() for _ in domain]
    done, bound, witness, rounds = 0, 0.0, None, 0
    plan = schedule(samples)
    for r, target_n in enumerate(plan):
        tasks = []
        while done < target_n:
            size = min(CHUNK, target_n - done)
            tasks += [(i, done // CHUNK, size) for i in range(len(domain))]
            done += size
        results = draw_round(tasks)
        for (i, _, _), c in zip(tasks, results):
            counts[i].update(c)
        rounds = r + 1
        a = alpha / 2 ** (r + 1) if r < len(plan) - 1 else alpha / 2 ** r
        bound, w = certify(counts, done, a)
        witness = None if w is None else (domain[w[0]], domain[w[1]], w[2])
        if stop_above is not None and bound > stop_above:
            break
    conf = conformance(counts, done, declared) if declared else None
    return SampleAudit(bound, witness, done, alpha, {x: c for x, c in zip(domain, counts)}, 3 / done, rounds, conf,
                       repeatable)
