"""Independent reference implementations for the tests.

Nothing here imports :mod:`relations`: the four quantities are recomputed by
plain enumeration of every ordered neighbour pair and every output, in exact
:class:`~fractions.Fraction` arithmetic, with the SPEC's conventions written
out literally:

* a ratio ``0/0`` is skipped;
* ``a/0`` with ``a > 0`` is ``+inf`` (here :data:`INF`);
* ``0/b`` with ``b > 0`` is the ratio ``0`` (``ln 0 = -inf``).

A ratio measure is returned as ``(value, attaining)``: ``value`` is the
extreme *ratio* ``q`` of ``ln(q)`` (a Fraction, ``0`` for ``-inf``, or
:data:`INF`), or ``None`` when no pair contributes; ``attaining`` is the set
of ``(x, x', y)`` (``(x, x')`` for ``sigma_min``) that attain it.

Mutual information is recomputed in mpmath from the definition
``sum p(x,y) ln(p(x,y) / (p(x)p(y)))`` (each ratio formed exactly first) and in
numpy as ``H(Y) - H(Y|X)``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

import mpmath
import numpy as np

INF = math.inf

# --------------------------------------------------------------------------- neighbours


def digits(i: int, k: int, r: int) -> tuple[int, ...]:
    """Records of dataset ``i`` of ``D^r``: base-``k`` digits, first record most significant."""
    out = []
    for _ in range(r):
        i, d = divmod(i, k)
        out.append(d)
    return tuple(reversed(out))


def index_of(records: Sequence[int], k: int) -> int:
    i = 0
    for d in records:
        i = i * k + d
    return i


def hamming_pairs(k: int, r: int) -> list[tuple[int, int]]:
    """Unordered pairs of datasets of ``D^r`` differing in exactly one record."""
    n = k**r
    rows = [digits(i, k, r) for i in range(n)]
    return [(i, j) for i in range(n) for j in range(i + 1, n)
            if sum(a != b for a, b in zip(rows[i], rows[j])) == 1]


def local_pairs(n: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def ordered(pairs: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out = []
    for i, j in pairs:
        out += [(i, j), (j, i)]
    return out


# --------------------------------------------------------------------------- ratio measures


def ratio(a: Fraction, b: Fraction):
    """``a/b`` under the SPEC conventions; ``None`` for ``0/0``."""
    if a == 0 and b == 0:
        return None
    if b == 0:
        return INF
    return Fraction(a) / Fraction(b)


def _extreme(candidates, pick):
    best, attaining = None, set()
    for value, where in candidates:
        if value is None:
            continue
        if best is None or pick(value, best):
            best, attaining = value, {where}
        elif value == best:
            attaining.add(where)
    return best, attaining


def brute_eps_d(channel, pairs):
    """max over ordered neighbour pairs and outputs of ``Q[x][y] / Q[x'][y]``."""
    m = len(channel[0])
    return _extreme(((ratio(channel[x][y], channel[xp][y]), (x, xp, y))
                     for x, xp in ordered(pairs) for y in range(m)), lambda a, b: a > b)


def brute_eps_i(prior, channel, pairs):
    """max of ``p(x)Q[x][y] / (p(x')Q[x'][y])`` over ordered neighbour pairs and outputs with ``p(y) > 0``."""
    m = len(channel[0])
    py = [sum(prior[x] * channel[x][y] for x in range(len(prior))) for y in range(m)]
    return _extreme(((ratio(prior[x] * channel[x][y], prior[xp] * channel[xp][y]), (x, xp, y))
                     for x, xp in ordered(pairs) for y in range(m) if py[y] > 0), lambda a, b: a > b)


def brute_sigma_min(prior, pairs):
    """min over ordered neighbour pairs of ``p(x) / p(x')``."""
    return _extreme(((ratio(prior[x], prior[xp]), (x, xp)) for x, xp in ordered(pairs)),
                    lambda a, b: a < b)


def brute_all(prior, channel, pairs):
    return {"eps_d": brute_eps_d(channel, pairs), "eps_i": brute_eps_i(prior, channel, pairs),
            "sigma_min": brute_sigma_min(prior, pairs)}


def tool_ratio(budget):
    """The ratio ``q`` of a tool :class:`Budget` ``ln(q)``: Fraction, ``0`` for ``-inf``, or INF."""
    e = budget.exact
    if e.sign > 0:
        return INF
    if e.sign < 0:
        return Fraction(0)
    return e.ratio


# --------------------------------------------------------------------------- product forms


def dense_product_channel(w, r):
    """``Q[x][y] = prod_j W[d_j][e_j]`` over ``D^r x E^r``, lexicographic rows and columns."""
    k, m = len(w), len(w[0])
    rows = []
    for x in range(k**r):
        dx = digits(x, k, r)
        row = []
        for y in range(m**r):
            ey = digits(y, m, r)
            v = Fraction(1)
            for d, e in zip(dx, ey):
                v *= w[d][e]
            row.append(v)
        rows.append(row)
    return rows


def dense_product_prior(factors):
    k, r = len(factors[0]), len(factors)
    out = []
    for x in range(k**r):
        v = Fraction(1)
        for j, d in enumerate(digits(x, k, r)):
            v *= factors[j][d]
        out.append(v)
    return out


# --------------------------------------------------------------------------- mutual information


def mpf_of(q: Fraction) -> mpmath.mpf:
    return mpmath.mpf(q.numerator) / q.denominator


def fraction_of(v: mpmath.mpf) -> Fraction:
    """The exact binary value of an mpmath number."""
    sign, man, exp, _ = v._mpf_  # (man_exp drops the sign)
    return (-1) ** sign * Fraction(int(man)) * (Fraction(2) ** int(exp))


def mi_mpmath(prior, channel, dps: int = 50) -> mpmath.mpf:
    """``sum p(x,y) ln( p(x,y) / (p(x) p(y)) )`` with each ratio formed exactly, at ``dps`` digits."""
    m = len(channel[0])
    py = [sum(prior[x] * channel[x][y] for x in range(len(prior))) for y in range(m)]
    with mpmath.workdps(dps):
        total = mpmath.mpf(0)
        for x, px in enumerate(prior):
            for y in range(m):
                pxy = px * channel[x][y]
                if pxy:
                    total += mpf_of(pxy) * mpmath.log(mpf_of(pxy / (px * py[y])))
        return +total


def entropy_mpmath(values) -> mpmath.mpf:
    return -mpmath.fsum(mpf_of(v) * mpmath.log(mpf_of(v)) for v in values if v)


def mi_numpy(prior, channel) -> float:
    """``H(Y) - H(Y|X)`` in float64."""
    p = np.array([float(v) for v in prior])
    q = np.array([[float(v) for v in row] for row in channel])
    py = p @ q

    def h(v):
        v = v[v > 0]
        return float(-(v * np.log(v)).sum())

    return h(py) - float(sum(p[x] * h(q[x]) for x in range(len(p))))


def assert_contains(enclosure, value) -> None:
    """``value`` (mpmath number or Fraction) lies inside ``enclosure`` exactly."""
    v = value if isinstance(value, Fraction) else fraction_of(value)
    assert enclosure.lower <= v <= enclosure.upper, (float(enclosure.lower), float(v), float(enclosure.upper))


def assert_contains_float(enclosure, value: float, slack: float = 1e-12) -> None:
    assert float(enclosure.lower) - slack <= value <= float(enclosure.upper) + slack, (
        float(enclosure.lower), value, float(enclosure.upper))


def overlap(a, b) -> bool:
    return a.lower <= b.upper and b.lower <= a.upper


# --------------------------------------------------------------------------- mechanism dicts


def text(q: Fraction) -> str:
    return f"{q.numerator}/{q.denominator}"


def local_dict(prior, channel):
    return {"setting": "local", "prior": [text(v) for v in prior],
            "channel": [[text(v) for v in row] for row in channel]}


def hamming_dict(prior, channel, k, r):
    return {"setting": "central", "domain": [f"d{i}" for i in range(k)], "records": r,
            "prior": [text(v) for v in prior], "channel": [[text(v) for v in row] for row in channel]}


def edges_dict(prior, channel, edges):
    return {"setting": "central", "neighbours": [list(e) for e in edges],
            "prior": [text(v) for v in prior], "channel": [[text(v) for v in row] for row in channel]}


def permute(seq, perm):
    """``out[i] = seq[perm[i]]``."""
    return [seq[i] for i in perm]



def renyi_float(P, Q, b: np.ndarray) -> np.ndarray:
    """``D_a(P || Q)`` at the orders ``a = 1 + b`` (``b`` an array of positive floats) in numpy floats, for rows
    where every ``p > 0`` has ``q > 0``: only to rank the orders of a grid in the tests' references of ``rho``
    (``sup_a D_a / a``), which evaluate every value they return in mpmath.  ``log1p`` of ``sum_y p expm1(b
    ln(p/q))`` where ``|b ln(p/q)| < 1`` (no cancellation near ``a = 1``), a log-sum-exp above."""
    P, Q = np.array([float(p) for p in P]), np.array([float(q) for q in Q])
    P, Q = P / math.fsum(P), Q / math.fsum(Q)
    keep = P > 0
    P, r = P[keep], np.log(P[keep]) - np.log(Q[keep])
    br = b[:, None] * r[None, :]
    near = np.abs(br).max(axis=1) < 1
    small = np.log1p(np.sum(P * np.expm1(np.where(near[:, None], br, 0.0)), axis=1))
    top = br.max(axis=1, keepdims=True)
    large = top[:, 0] + np.log(np.sum(P * np.exp(br - top), axis=1))
    return np.where(near, small, large) / b


def golden_max(f, xs: Sequence, ranked: np.ndarray, *, g, steps: int):
    """The largest value of ``f`` found around the best point of the grid ``xs``: ``f`` at the seven grid points
    around the float maximum of ``ranked`` (``ranked[k]`` a float estimate of ``f(xs[k])``), then ``steps``
    golden-section steps (one new evaluation each) between the grid neighbours of the best of those, and ``f``
    at the final midpoint.  Every value compared and returned is ``f``'s, in its own number type (``g``, the
    golden ratio's ``(sqrt 5 - 1) / 2``, in the type and precision of ``xs``): the tests' references of ``rho``
    rank their grid in floats (:func:`renyi_float`) and evaluate in mpmath."""
    i = int(np.argmax(ranked))
    near = {k: f(xs[k]) for k in range(max(i - 3, 0), min(i + 4, len(xs)))}
    i = max(near, key=near.__getitem__)
    lo, hi = xs[max(i - 1, 0)], xs[min(i + 1, len(xs) - 1)]
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = f(a), f(b)
    for _ in range(steps):  # each step keeps one of the two inner points
        if fa >= fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = f(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = f(b)
    return max(*near.values(), f((lo + hi) / 2))
