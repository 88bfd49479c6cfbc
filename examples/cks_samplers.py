"""The discrete Laplace and discrete Gaussian samplers of Canonne, Kamath and Steinke ("The Discrete Gaussian
for Differential Privacy", NeurIPS 2020), written from the paper's algorithms for ``relations audit``
(docs/auditing.md): exact arithmetic on ``Fraction`` parameters, Bernoulli(p) as
``randrange(denominator) < numerator``, Bernoulli(exp(-gamma)) by the nested loop of Algorithm 1.

``clamped_laplace`` adds discrete Laplace noise of scale 1 (P(z) proportional to e^-|z|) and clamps to 0..3,
so its budget is eps_d = 3 (P(0 | 0) / P(0 | 3) = P(Z <= 0) / P(Z <= -3) = e^3); the white-box route bounds
the loops' unexplored mass and certifies a claim with 5 % slack either way, its outputs 0..3 proven from this
source (``--outputs 0,1,2,3`` declares them instead)::

    relations audit examples/cks_samplers.py:clamped_laplace --domain 0,1,2,3 --eps 3.15  # consistent
    relations audit examples/cks_samplers.py:clamped_laplace --domain 0,1,2,3 --eps 2.85  # violated
"""

from __future__ import annotations

import math
import random
from fractions import Fraction


def bernoulli(p, rng):
    """Bernoulli(p) for a rational p in [0, 1]."""
    p = Fraction(p)
    return rng.randrange(p.denominator) < p.numerator


def bernoulli_exp1(gamma, rng):
    """Bernoulli(exp(-gamma)) for gamma in [0, 1] (Algorithm 1: K = 1; while Bernoulli(gamma / K): K += 1;
    true when K is odd)."""
    k = 1
    while bernoulli(gamma / k, rng):
        k += 1
    return k % 2 == 1


def bernoulli_exp(gamma, rng):
    """Bernoulli(exp(-gamma)) for gamma >= 0: floor(gamma) trials of Bernoulli(exp(-1)), then the rest."""
    gamma = Fraction(gamma)
    while gamma > 1:
        if not bernoulli_exp1(Fraction(1), rng):
            return False
        gamma -= 1
    return bernoulli_exp1(gamma, rng)


def discrete_laplace(s, t, rng):
    """P(z) proportional to exp(-|z| s / t) (Algorithm 2)."""
    while True:
        u = rng.randrange(t)
        if not bernoulli_exp(Fraction(u, t), rng):
            continue
        v = 0
        while bernoulli_exp(Fraction(1), rng):
            v += 1
        value = (u + t * v) // s
        negative = bernoulli(Fraction(1, 2), rng)
        if negative and value == 0:
            continue
        return -value if negative else value


def discrete_gaussian(sigma2, rng):
    """P(z) proportional to exp(-z^2 / (2 sigma2)) (Algorithm 3)."""
    sigma2 = Fraction(sigma2)
    t = math.isqrt(sigma2.numerator // sigma2.denominator) + 1  # floor(sigma) + 1
    while True:
        y = discrete_laplace(1, t, rng)
        gamma = (abs(y) - sigma2 / t) ** 2 / (2 * sigma2)
        if bernoulli_exp(gamma, rng):
            return y


def clamped_laplace(x: int) -> int:
    """``x + Z`` clamped to 0..3, ``Z`` discrete Laplace of scale 1: eps_d = 3 on the inputs 0..3."""
    return max(0, min(3, x + discrete_laplace(1, 1, random)))


def clamped_gaussian(x: int) -> int:
    """``x + Z`` clamped to 0..3, ``Z`` discrete Gaussian with sigma^2 = 1: eps_d = 5.0314 on the inputs 0..3
    (P(0 | 0) / P(0 | 3) = P(Z <= 0) / P(Z <= -3), from the closed form), certified on the white-box route 5 %
    either way::

        relations audit examples/cks_samplers.py:clamped_gaussian --domain 0,1,2,3 --eps 5.283
        relations audit examples/cks_samplers.py:clamped_gaussian --domain 0,1,2,3 --eps 4.78
    """
    return max(0, min(3, x + discrete_gaussian(1, random)))
