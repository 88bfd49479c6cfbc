"""Certified enclosures of the mutual information ``I(X;Y)``.

``I(X;Y) = sum_{x,y} p(x)Q[x][y] ln( Q[x][y] / p(y) )`` is a sum of
logarithms of rationals, irrational in general, so it is reported as an
interval ``[lower, upper]`` of exact dyadic rationals guaranteed to contain
the true value.  The computation uses ball arithmetic (``python-flint``'s
``arb``: every operation returns a ball containing the exact result) on the
exact rational inputs, in the form

    ``I(X;Y) = sum_x p(x) sum_y Q[x][y] ln Q[x][y]  -  sum_y p(y) ln p(y)``

with ``0 ln 0 = 0`` (zero entries are skipped), ``ln`` computed once per
distinct value, at rising working precision until the ball's width is below
``2**-bits``.  Float-mode (``.npz``) mechanisms get no enclosure.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence

import numpy as np

from relations.measures.ratios import _width
from relations.numbers.enclosure import (
    DEFAULT_BITS,
    Enclosure,
    ball,
    interval,
    rational,
    working_precision,
)

__all__ = ["mutual_information", "independent", "MAX_TIE_DENOMINATOR", "MAX_TIE_BITS", "compare_with_log", "mutual_information_float"]


def mutual_information(prior: Sequence[Fraction], rows: Sequence[Sequence[Fraction]],
                       bits: int = DEFAULT_BITS) -> Enclosure:
    """Certified enclosure of ``I(X;Y)`` for an exact prior and channel, width ``<= 2**-bits``."""
    from flint import arb  # imported here: only exact measurement needs it

    m = len(rows[0]) if rows else 0
    if independent(prior, rows):
        return Enclosure(Fraction(0), Fraction(0))
    # p(y) exactly, and the distinct positive values whose logarithms are needed.
    py = [Fraction(0)] * m
    for px, row in zip(prior, rows):
        if px:
            for y, q in enumerate(row):
                if q:
                    py[y] += px * q
    size = sum(len(r) for r in rows) + m + 1
    prec = bits + 32 + size.bit_length()
    target = Fraction(1, 2**bits)
    while True:
        with working_precision(prec):
            logs: dict[Fraction, object] = {}

            def xlogx(v: Fraction):
                lv = logs.get(v)
                if lv is None:
                    lv = logs[v] = ball(v).log()
                return rational(v) * lv

            total = arb(0)
            for px, row in zip(prior, rows):
                if px:
                    s = arb(0)
                    for q in row:
                        if q:
                            s += xlogx(q)
                    total += rational(px) * s
            for v in py:
                if v:
                    total -= xlogx(v)
            lower, upper = interval(total)
        if upper - lower <= target or prec > 1 << 16:
            return Enclosure(max(lower, Fraction(0)), max(upper, Fraction(0)))
        prec *= 2




def independent(prior: Sequence[Fraction], rows: Sequence[Sequence[Fraction]]) -> bool:
    """True iff ``I(X;Y) = 0`` exactly: all rows with positive prior are equal."""
    support = [row for px, row in zip(prior, rows) if px]
    return all(tuple(row) == tuple(support[0]) for row in support[1:])



#: Limits of the exact algebraic tie-breaker (lcm of joint denominators, entries, bits).
MAX_TIE_DENOMINATOR = 10**4



MAX_TIE_BITS = 2 * 10**7



def compare_with_log(prior: Sequence[Fraction], rows: Sequence[Sequence[Fraction]], r: Fraction,
                     parts: Sequence[tuple[Sequence[Fraction], Sequence[Sequence[Fraction]], int]] | None = None,
                     ) -> int | None:
    """``sign(I(X;Y) - ln r)`` exactly, or None when too large to decide this way.

    ``I(X;Y) = ln A`` with ``A = prod_{x,y} (Q[x][y] / p(y))^(p(x)Q[x][y])``.
    With ``D`` the lcm of the denominators of the exponents, ``A^D`` is a
    rational number, and ``I <= ln r`` iff ``A^D <= r^D``: integer arithmetic.
    ``parts`` (``(prior, rows, count)`` triples) gives a sum of such
    informations instead, ``sum count * I_j`` (a product-form mechanism).
    """
    if parts is None:
        parts = [(prior, rows, 1)]
    terms = []
    for pr, rw, count in parts:
        m = len(rw[0])
        py = [sum((px * row[y] for px, row in zip(pr, rw)), Fraction(0)) for y in range(m)]
        terms += [(px * q * count, q / py[y]) for px, row in zip(pr, rw) for y, q in enumerate(row) if px and q]
    d = 1
    for e, _ in terms:
        d = d * e.denominator // math.gcd(d, e.denominator)
        if d > MAX_TIE_DENOMINATOR:
            return None
    bits = sum(int(e * d) * (b.numerator.bit_length() + b.denominator.bit_length()) for e, b in terms)
    bits += d * (r.numerator.bit_length() + r.denominator.bit_length())
    if bits > MAX_TIE_BITS:
        return None
    num = den = 1
    for e, b in terms:
        k = int(e * d)
        num *= b.numerator**k
        den *= b.denominator**k
    left = num * r.denominator**d
    right = den * r.numerator**d
    return (left > right) - (left < right)



def mutual_information_float(prior: np.ndarray, q: np.ndarray) -> float:
    """``I(X;Y)`` in float64, one pass over ``Q`` in cache-sized column blocks:
    ``sum_x p(x) sum_y Q ln Q - sum_y p(y) ln p(y)`` with ``0 ln 0 = 0``."""
    n, m = q.shape
    width = _width(n, m)
    conditional = 0.0
    py = np.empty(m)
    logs = np.empty((n, width))
    for c0 in range(0, m, width):
        block = q[:, c0:c0 + width]
        out = logs[:, : block.shape[1]]
        out.fill(0.0)
        np.log(block, out=out, where=block > 0)
        out *= block
        conditional += float(prior @ out.sum(axis=1))
        py[c0:c0 + width] = prior @ block
    lpy = np.zeros_like(py)
    np.log(py, out=lpy, where=py > 0)
    return max(conditional - float(py @ lpy), 0.0)
