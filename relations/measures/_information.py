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
``2**-bits`` (:func:`mutual_information`).

Two exact tie-breakers decide what no enclosure can, when ``I(X;Y)`` equals the
value it is compared with: :func:`independent` (``I = 0`` iff every row with
positive prior is the same distribution) and :func:`compare_with_log`
(``I`` against ``ln r`` by an integer identity).  Float-mode (``.npz``)
mechanisms get no enclosure, only the float value of
:func:`mutual_information_float`.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from relations.numbers._enclosure import (
    DEFAULT_BITS,
    Enclosure,
    interval,
    rational,
    working_precision,
)
from relations.numbers._kernels import compiled, read_only

__all__ = ["MAX_THREADS", "mutual_information", "independent", "MAX_TIE_DENOMINATOR", "MAX_TIE_BITS", "compare_with_log", "log_sum_sign", "mutual_information_float"]


def mutual_information(prior: Sequence[Fraction], rows: Sequence[Sequence[Fraction]],
                       bits: int = DEFAULT_BITS) -> Enclosure:
    """Certified enclosure of ``I(X;Y)`` in nats for an exact prior and channel.

    The working precision doubles until the ball is at most ``2**-bits`` wide
    (the module docstring gives the formula); beyond 65536 bits of working
    precision the enclosure is returned as it is.  Both bounds are clamped at 0.

    Parameters
    ----------
    prior : sequence of Fraction
        ``p(x)``, summing to 1.
    rows : sequence of sequence of Fraction
        The channel ``Q[x][y]``, each row summing to 1.
    bits : int, optional
        Target width ``2**-bits`` (default 100).

    Returns
    -------
    Enclosure
        Exact dyadic ``lower <= I(X;Y) <= upper``; exactly ``[0, 0]`` when
        :func:`independent`.

    Examples
    --------
    A noiseless bit under a uniform prior carries ``ln 2`` nats:

    >>> from fractions import Fraction
    >>> half, one, zero = Fraction(1, 2), Fraction(1), Fraction(0)
    >>> e = mutual_information([half, half], [[one, zero], [zero, one]], bits=30)
    >>> e.decimal(6), e.width <= Fraction(1, 2**30)
    (('0.693147', '0.693148'), True)
    >>> mutual_information([half, half], [[half, half], [half, half]])
    Enclosure(lower=Fraction(0, 1), upper=Fraction(0, 1))
    """
    from flint import arb  # imported here: only exact measurement needs it

    m = len(rows[0]) if rows else 0
    if independent(prior, rows):
        return Enclosure(Fraction(0), Fraction(0))
    # p(y) > 0 iff some p(x) Q[x][y] > 0.  p(y) itself is summed in balls at the working precision, not
    # exactly: with a different denominator in every row its exact value has the digits of all of them
    # (60 rows of 4000-digit denominators: 240000 digits, minutes of gcds), and a sum of positive balls
    # stays tight (relative width about m 2^-prec).
    # (p(x), row): the row over its common denominator when that stays short, else per entry
    positive: list[tuple[Any, tuple[int, list[tuple[int, int]]] | list[tuple[int, Any, Fraction]]]] = []
    for px, row in zip(prior, rows):
        if px:
            pairs = [q.as_integer_ratio() for q in row]
            dens = {d for a, d in pairs if a}
            den = math.lcm(*dens)
            if den.bit_length() <= 2 * max(d.bit_length() for d in dens) + 64:
                positive.append((rational(px), (den, [(y, a * (den // d)) for y, (a, d) in enumerate(pairs) if a])))
            else:
                positive.append((rational(px), [(y, rational(q), q) for y, q in enumerate(row) if q]))
    support = sorted({term[0] for _, terms in positive for term in (terms[1] if isinstance(terms, tuple) else terms)})
    size = sum(len(r) for r in rows) + m + 1
    prec = bits + 32 + size.bit_length()
    target = Fraction(1, 2**bits)
    while True:
        with working_precision(prec):
            # keyed by (numerator, denominator) or by an integer: hashing a Fraction computes a modular
            # inverse of its denominator (8 s of 19 for a 1024 x 1024 channel with 1e12 denominators)
            logs: dict[object, object] = {}

            def xlogx(v: Fraction, exact):
                key = (v.numerator, v.denominator)
                lv = logs.get(key)  # noqa: B023
                if lv is None:
                    lv = logs[key] = arb(exact).log()  # noqa: B023
                return exact * lv

            def alog(a: int):
                lv = logs.get(a)  # noqa: B023
                if lv is None:
                    lv = logs[a] = arb(a).log()  # noqa: B023
                return lv

            total = arb(0)
            py = {y: arb(0) for y in support}
            for px, terms in positive:
                s = arb(0)
                if isinstance(terms, tuple):  # sum_y q log q = (sum_y a log a) / D - log D, a = q D
                    den, ints = terms
                    scale = arb(px) / den
                    for y, a in ints:
                        s += a * alog(a)
                        py[y] += scale * a
                    total += px * (s / den - alog(den))
                    continue
                for y, exact, q in terms:
                    s += xlogx(q, exact)
                    py[y] += px * exact
                total += px * s
            for v in py.values():
                total -= v * v.log()
            lower, upper = interval(total)
        if upper - lower <= target or prec > 1 << 16:
            return Enclosure(max(lower, Fraction(0)), max(upper, Fraction(0)))
        prec *= 2




def independent(prior: Sequence[Fraction], rows: Sequence[Sequence[Fraction]]) -> bool:
    """True iff ``I(X;Y) = 0`` exactly: all rows with positive prior are equal.

    Parameters
    ----------
    prior : sequence of Fraction
        ``p(x)``.
    rows : sequence of sequence of Fraction
        The channel ``Q[x][y]``.

    Returns
    -------
    bool

    Examples
    --------
    A row of zero prior does not count:

    >>> from fractions import Fraction
    >>> half, one, zero = Fraction(1, 2), Fraction(1), Fraction(0)
    >>> independent([half, half, zero], [[half, half], [half, half], [one, zero]])
    True
    >>> independent([half, half], [[half, half], [one, zero]])
    False
    """
    support = [row for px, row in zip(prior, rows) if px]
    return all(tuple(row) == tuple(support[0]) for row in support[1:])



#: Limit of :func:`compare_with_log`: the lcm ``D`` of the denominators of the exponents ``p(x)Q[x][y]``.
MAX_TIE_DENOMINATOR = 10**4



#: Limit of :func:`compare_with_log`: the estimated bit size of the integers ``A^D`` and ``r^D``.
MAX_TIE_BITS = 2 * 10**7



def compare_with_log(prior: Sequence[Fraction], rows: Sequence[Sequence[Fraction]], r: Fraction, *,
                     parts: Sequence[tuple[Sequence[Fraction], Sequence[Sequence[Fraction]], int]] | None = None,
                     ) -> int | None:
    """``sign(I(X;Y) - ln r)`` exactly, or None when too large to decide this way.

    ``I(X;Y) = ln A`` with ``A = prod_{x,y} (Q[x][y] / p(y))^(p(x)Q[x][y])``.
    With ``D`` the lcm of the denominators of the exponents, ``A^D`` is a
    rational number, and ``I <= ln r`` iff ``A^D <= r^D``: integer arithmetic.
    This decides the ties that no enclosure can (``I(X;Y) = ln r`` exactly).

    Parameters
    ----------
    prior : sequence of Fraction
        ``p(x)`` (ignored when ``parts`` is given).
    rows : sequence of sequence of Fraction
        The channel ``Q[x][y]`` (ignored when ``parts`` is given).
    r : Fraction
        The positive rational whose logarithm ``I(X;Y)`` is compared with.
    parts : sequence of tuple, optional
        ``(prior, rows, count)`` triples: compare the sum ``sum count * I_j``
        instead (the information of a product-form mechanism).

    Returns
    -------
    int or None
        ``-1``, ``0`` or ``1``; ``None`` when ``D`` exceeds
        :data:`MAX_TIE_DENOMINATOR` or the integers would exceed about
        :data:`MAX_TIE_BITS` bits.

    Examples
    --------
    A noiseless ternary channel under a uniform prior carries exactly ``ln 3``;
    three independent noiseless bits carry exactly ``3 ln 2 = ln 8``:

    >>> from fractions import Fraction
    >>> third, one, zero = Fraction(1, 3), Fraction(1), Fraction(0)
    >>> eye = [[one, zero, zero], [zero, one, zero], [zero, zero, one]]
    >>> compare_with_log([third] * 3, eye, Fraction(3)), compare_with_log([third] * 3, eye, Fraction(2))
    (0, 1)
    >>> bit = ([Fraction(1, 2)] * 2, [[one, zero], [zero, one]], 3)
    >>> compare_with_log((), (), Fraction(8), parts=[bit])
    0
    """
    if parts is None:
        parts = [(prior, rows, 1)]
    terms = []
    for pr, rw, count in parts:
        m = len(rw[0])
        py = [sum((px * row[y] for px, row in zip(pr, rw)), Fraction(0)) for y in range(m)]
        terms += [(px * q * count, q / py[y]) for px, row in zip(pr, rw) for y, q in enumerate(row) if px and q]
    return log_sum_sign(terms, r)


def log_sum_sign(terms: list[tuple[Fraction, Fraction]], r: Fraction) -> int | None:
    """``sign(sum_i e_i ln b_i - ln r)`` exactly, for rationals ``e_i >= 0`` and ``b_i, r > 0``: with ``D`` the
    common denominator of the ``e_i``, ``prod b_i^(e_i D)`` against ``r^D`` in integers; ``None`` when ``D``
    exceeds :data:`MAX_TIE_DENOMINATOR` or the integers would exceed about :data:`MAX_TIE_BITS` bits.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> log_sum_sign([(F(1, 2), F(4)), (F(1, 3), F(8))], F(4)), log_sum_sign([(F(1, 2), F(4))], F(3))
    (0, -1)
    """
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



#: Threads of :func:`mutual_information_float` at most (one per core up to this).
MAX_THREADS = 8


_POOL: list = []  # the process's thread pool for mutual_information_float, made on first use
_POOL_LOCK = [threading.Lock()]


def _pool():
    """One thread pool per process, kept between calls (starting threads costs about as much as a
    million-entry pass); a forked child starts its own, since it has none of the parent's threads."""
    with _POOL_LOCK[0]:
        if not _POOL:
            from concurrent.futures import ThreadPoolExecutor

            _POOL.append(ThreadPoolExecutor(min(os.cpu_count() or 1, MAX_THREADS), thread_name_prefix="relations-mi"))
        return _POOL[0]


def _after_fork_in_child() -> None:
    _POOL.clear()
    _POOL_LOCK[0] = threading.Lock()


if hasattr(os, "register_at_fork"):  # not on Windows, which has no fork
    os.register_at_fork(after_in_child=_after_fork_in_child)


#: The least positive float64 (subnormal), ``2^-1074``.
_TINY = float(np.nextafter(0.0, 1.0))


def mutual_information_float(prior: np.ndarray, q: np.ndarray) -> float:
    """``I(X;Y)`` in float64, one pass over ``Q`` shared among up to :data:`MAX_THREADS` threads (one
    per core) for matrices of a million entries or more: the compiled kernel
    (:func:`~relations.numbers._compiled.xlogx_rows`, one read of ``Q``, no temporary arrays) when
    :func:`~relations.numbers._kernels.compiled` serves the size, else numpy's passes over blocks of
    whole rows (about 2 MiB, so that a block stays in cache; numpy releases the GIL within a block).
    The two agree to float rounding.

    Computes ``sum_x p(x) sum_y Q ln Q - sum_y p(y) ln p(y)`` with ``0 ln 0 = 0``,
    clamped at 0; used for float-mode mechanisms, where no enclosure is certified.

    Parameters
    ----------
    prior : numpy.ndarray
        ``p(x)``, shape ``(n,)``.
    q : numpy.ndarray
        The channel, shape ``(n, m)``.

    Returns
    -------
    float
        ``I(X;Y)`` in nats.

    Examples
    --------
    >>> import numpy as np
    >>> round(mutual_information_float(np.array([0.5, 0.5]), np.eye(2)), 6)  # ln 2
    0.693147
    """
    n, m = q.shape
    kernels = (compiled(q.size, saving=4.0) if q.dtype == prior.dtype == np.float64 and q.flags.c_contiguous
               and prior.flags.c_contiguous else None)
    threads = min(os.cpu_count() or 1, MAX_THREADS)
    # the compiled kernel reads the rows once (no temporaries), a span per thread; numpy's passes go by
    # whole rows, about 2 MiB a block, so that a block stays in cache
    # (spans of a fixed size, so that the sum is the same on any number of cores)
    rows = max(4, (1 << 22) // max(m, 1)) if kernels is not None else max(1, (1 << 21) // (8 * max(m, 1)))
    spans = [(r0, min(n, r0 + rows)) for r0 in range(0, n, rows)]

    def fused(span: tuple[int, int]) -> tuple[float, np.ndarray]:
        py = np.zeros(m)
        assert kernels is not None  # chosen above
        return kernels.xlogx_rows(read_only(q[span[0]:span[1]]), read_only(prior[span[0]:span[1]]), py), py

    def work(span: tuple[int, int]) -> tuple[float, np.ndarray]:
        block = q[span[0]:span[1]]
        weights = prior[span[0]:span[1]]
        # q ln q with 0 ln 0 = 0: raising only the zeros to the least subnormal (ln = -744.4) makes
        # their terms 0 ln(2^-1074) = 0; numpy's vectorised log over the cached block, about four
        # times faster than scipy.special.xlogy and the same sums (xlogy is q * log(q) too)
        terms = np.maximum(block, _TINY)
        np.log(terms, out=terms)
        terms *= block
        return float(weights @ terms.sum(axis=1)), weights @ block

    task = work if kernels is None else fused
    if min(threads, len(spans)) > 1 and n * m >= 1 << 20:  # both release the GIL in their passes
        parts = list(_pool().map(task, spans))
    else:
        parts = [task(span) for span in spans]
    conditional = math.fsum(c for c, _ in parts)
    py = np.sum([v for _, v in parts], axis=0) if parts else np.zeros(m)
    lpy = np.zeros_like(py)
    np.log(py, out=lpy, where=py > 0)
    return max(conditional - float(py @ lpy), 0.0)
