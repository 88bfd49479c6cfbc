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

The intervals are those of Clopper and Pearson, "The use of confidence or fiducial
limits illustrated in the case of the binomial", Biometrika 26(4), 1934
(doi:10.1093/biomet/26.4.404); LDP-Auditor (Arcolezi and Gambs, PoPETs 2024,
arXiv:2309.01597) uses them with about 1e6 samples per input.
"""

from __future__ import annotations

import inspect
import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Sequence

import numpy as np

from relations.audit.enumerate import output_key
from relations.errors import InputError

__all__ = ["MAX_SAMPLES", "SampleAudit", "clopper_pearson", "sample_audit"]

#: Most samples per input one black-box audit may draw.
MAX_SAMPLES = 100_000_000


def clopper_pearson(k: int, n: int, alpha: float) -> tuple[float, float]:
    """The exact two-sided ``1 - alpha`` binomial interval for ``k`` successes in ``n`` trials.

    Examples
    --------
    >>> lo, hi = clopper_pearson(0, 1000, 0.05)
    >>> lo, round(hi, 5)
    (0.0, 0.00368)
    """
    from scipy.stats import beta

    lo = 0.0 if k == 0 else float(beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi


@dataclass(frozen=True)
class SampleAudit:
    """A black-box audit: counts, the certified lower bound on ``eps_d`` and its witness.

    Attributes
    ----------
    eps_d_lower : float
        ``eps_d`` is at least this, with confidence ``1 - alpha`` (0 when nothing is certified).
    witness : tuple or None
        ``(x, x', y)`` attaining the bound.
    samples : int
        Samples drawn per input.
    alpha : float
    counts : dict
        ``counts[x][y]``.
    undetectable : float
        Outputs rarer than this (``3 / samples``) may have gone unseen.
    """

    eps_d_lower: float
    witness: tuple[Any, Any, Hashable] | None
    samples: int
    alpha: float
    counts: dict[Any, Counter]
    undetectable: float


def sample_audit(fn: Callable[..., Any], *, domain: Sequence[Any], samples: int = 100_000, seed: int = 0,
                 alpha: float = 0.05) -> SampleAudit:
    """Sample ``fn`` on every input of ``domain`` and certify a lower bound on its ``eps_d``.

    Parameters
    ----------
    fn : callable
        ``fn(x)`` or ``fn(x, rng=generator)``; with ``rng`` it gets a ``numpy.random.Generator``
        seeded from ``seed`` and the input's position, else numpy's and Python's global
        generators are seeded the same way.
    domain : sequence
        At least two inputs.
    samples : int, optional
        Draws per input, at most :data:`MAX_SAMPLES`.
    seed : int, optional
        The same seed gives the same counts and bound.
    alpha : float, optional
        Total error probability of the certificate (union bound over pairs and outputs).

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
    if len(domain) < 2:
        raise InputError("--domain: a black-box audit needs at least two inputs")
    if not 1 <= samples <= MAX_SAMPLES:
        raise InputError(f"--samples: {samples} out of range 1..{MAX_SAMPLES}")
    if not 0 < alpha < 1:
        raise InputError(f"alpha must lie in (0, 1), got {alpha}")
    pass_rng = "rng" in inspect.signature(fn).parameters
    counts: dict[Any, Counter] = {}
    for i, x in enumerate(domain):
        rng = np.random.default_rng([seed, i])
        if not pass_rng:
            import random

            np.random.seed((seed * 1_000_003 + i) % 2**32)
            random.seed(seed * 1_000_003 + i)
        c: Counter = Counter()
        for _ in range(samples):
            c[output_key(fn(x, rng=rng) if pass_rng else fn(x))] += 1
        counts[x] = c
    outputs = sorted({y for c in counts.values() for y in c}, key=repr)
    tests = len(domain) * (len(domain) - 1) * max(1, len(outputs))
    a = alpha / tests  # each one-sided bound at a/2: two bounds per test
    best, witness = 0.0, None
    for x in domain:
        for xp in domain:
            if x is xp or x == xp:
                continue
            for y in outputs:
                lo, _ = clopper_pearson(counts[x][y], samples, a)
                _, hi = clopper_pearson(counts[xp][y], samples, a)
                if lo > 0 and math.log(lo / hi) > best:
                    best, witness = math.log(lo / hi), (x, xp, y)
    return SampleAudit(best, witness, samples, alpha, counts, 3 / samples)
