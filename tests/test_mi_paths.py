"""The exact I(X;Y) enclosure's three ways of summing a row, against mpmath (a different formula:
p(x,y) ln(p(x,y) / (p(x) p(y))) with exact ratios).

``mutual_information`` writes a row over its common denominator ``D`` when that is one of the row's
denominators or stays short (``sum_y q log q = (sum_y a log a) / D - log D``), and keeps the entries
as rationals when the common denominator would be long (coprime large denominators)."""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
from bruteforce import mi_mpmath, mpf_of

from relations.measures._information import mutual_information


def row_with(rng: random.Random, m: int, den_of) -> list[Fraction]:
    while True:
        dens = [den_of() for _ in range(m - 1)]
        vals = [Fraction(rng.randint(0, d // m), d) for d in dens]
        last = 1 - sum(vals)
        if last >= 0:
            return vals + [last]


@pytest.mark.parametrize("kind", ["one denominator", "mixed small", "coprime large", "zeros"])
@pytest.mark.parametrize("seed", range(4))
def test_exact_mi_paths_enclose_mpmath(kind, seed):
    rng = random.Random(seed)
    n, m = rng.randint(2, 6), rng.randint(2, 6)
    if kind == "one denominator":
        rows = []
        for _ in range(n):
            d = rng.randint(10**11, 10**12)
            cuts = sorted(rng.randint(0, d) for _ in range(m - 1))
            rows.append([Fraction(b - a, d) for a, b in zip([0] + cuts, cuts + [d])])
    elif kind == "mixed small":
        rows = [row_with(rng, m, lambda: rng.choice([6, 10, 12, 15, 35])) for _ in range(n)]
    elif kind == "coprime large":
        primes = [1000000007, 998244353, 1000000009, 999999937, 1000003, 10**9 + 21, 10**9 + 33]
        rows = [row_with(rng, m, lambda: rng.choice(primes) * rng.choice(primes)) for _ in range(n)]
    else:
        rows = [[Fraction(0)] * m for _ in range(n)]
        for r in rows:
            r[rng.randrange(m)] = Fraction(1, 2)
            r[rng.randrange(m)] += Fraction(1, 2)
    weights = [rng.randint(0, 5) for _ in range(n)]
    weights[0] += 1
    prior = [Fraction(w, sum(weights)) for w in weights]
    enc = mutual_information(prior, rows, bits=80)
    ref = mi_mpmath(prior, rows, dps=60)
    with mpmath.workdps(60):
        assert mpf_of(enc.lower) - mpmath.mpf(2) ** -150 <= ref <= mpf_of(enc.upper) + mpmath.mpf(2) ** -150
    assert enc.upper - enc.lower <= Fraction(1, 2**80)


def _child_mi(conn):
    import numpy as np

    from relations.measures._information import mutual_information_float

    q = np.full((1024, 1024), 1.0 / 1024)
    conn.send(mutual_information_float(np.full(1024, 1.0 / 1024), q))
    conn.close()


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="no fork on this platform")
def test_float_mi_thread_pool_survives_fork():
    # the blocked float pass keeps one thread pool per process; a forked child (a sweep or audit worker)
    # has none of its parent's threads and must make its own instead of waiting forever on the parent's
    import multiprocessing as mp

    import numpy as np

    from relations.measures._information import mutual_information_float

    rng = np.random.default_rng(5)
    q = rng.random((1024, 1024))
    q /= q.sum(axis=1, keepdims=True)
    p = np.full(1024, 1.0 / 1024)
    py = p @ q
    direct = float(p @ (q * np.log(q)).sum(axis=1) - py @ np.log(py))  # numpy in one piece
    assert mutual_information_float(p, q) == pytest.approx(direct, rel=1e-9, abs=1e-12)
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=_child_mi, args=(child,))
    proc.start()
    assert parent.poll(60), "the forked child hung on the parent's thread pool"
    assert parent.recv() == pytest.approx(0.0, abs=1e-12)  # a constant channel: no information
    proc.join(10)
