"""Sibson's mutual information of order alpha, certified.

For a rational order ``alpha > 0``, ``alpha != 1``, prior ``p`` and channel ``Q``:

``sibson(alpha) = I_alpha^S(X; Y) = (alpha / (alpha - 1)) ln sum_y ( sum_x p(x) Q[x][y]^alpha )^(1/alpha)``

(Sibson 1969; Verdu 2015), in nats.  Inputs of zero prior contribute nothing (their terms are 0), and an
output no input of positive prior reaches contributes nothing.  It is ``min_R D_alpha(P_XY || P_X x R)`` over
distributions ``R`` of the output, so it is ``>= 0``, ``0`` exactly when ``X`` and ``Y`` are independent
(every row of positive prior the same), nondecreasing in ``alpha``, tends to ``eps_m = I(X;Y)`` as
``alpha -> 1`` and to ``maximal_leakage`` as ``alpha -> inf`` (``docs/notion-inequalities.md``).

Centrally ``X`` is the whole dataset, as for ``eps_m`` (the neighbour relation plays no part).  A product
form (independent records through one channel, a product prior) adds its records' values: every sum over
``x`` and ``y`` factorises.  The value is irrational in general: an enclosure at any precision (arb), and the
exact ``0`` under independence; for an order ``a/b`` it is ``ln(S^a) / (a - b)`` exactly when ``S^a`` is rational
(a noiseless channel under the uniform prior gives ``ln k`` at every order, as ``eps_m`` and
``maximal_leakage`` do); and ``ln c`` at every order when the information density ``ln(Q[x][y] / p(y))`` is
the constant ``ln c`` on the support.
Float mode reports floats as :class:`~relations.numbers.Rational`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import cast

import numpy as np

from relations.errors import InputError
from relations.measures._information import independent
from relations.measures._leakage import _factors
from relations.measures._pairs import NotionResult
from relations.model._mechanism import Mechanism
from relations.numbers._enclosure import ball, display_float, interval, rational, working_precision
from relations.numbers._logs import MAX_POWER_BITS, LogRatio, power_bits
from relations.numbers._reals import ArbExpr, Log, Rational, log_times
from relations.numbers._text import fraction_text

__all__ = ["MAX_EXACT_ORDER", "sibson", "sibson_float"]

#: Orders ``a/b`` with ``a, b`` up to this are tried exactly: ``I_alpha = ln(S^a) / (a - b)`` when ``S^a`` is
#: rational (:func:`_power_sum`).
MAX_EXACT_ORDER = 64


def _order(alpha) -> Fraction:
    if isinstance(alpha, Rational):
        alpha = alpha.value
    if isinstance(alpha, bool) or not isinstance(alpha, (int, Fraction)):
        raise InputError(f"sibson(alpha) needs a rational alpha > 0, alpha != 1, got {alpha}")
    alpha = Fraction(alpha)
    if alpha <= 0 or alpha == 1:
        raise InputError(f"sibson(alpha) needs a rational alpha > 0, alpha != 1, got {alpha}"
                         + (" (alpha = 1 is eps_m, the mutual information)" if alpha == 1 else ""))
    return alpha


def _excess(a: float, t: np.ndarray) -> np.ndarray:
    """``expm1(a t) - a expm1(t)`` entrywise, without cancellation near ``t = 0`` (its Taylor series from ``t^2``
    where ``max(1, a) |t| < 1/16``: ``sum_k (a^k - a) t^k / k!``); ``a - 1`` at ``t = -inf``."""
    small = max(1.0, abs(a)) * np.abs(t) < 1 / 16  # the terms fall at least as (1/16)^k / k!
    with np.errstate(over="ignore", invalid="ignore"):
        direct = np.expm1(a * t) - a * np.expm1(t)
    if not small.any():  # the series would be read nowhere
        return direct
    ts = np.where(small, t, 0.0)
    series = np.zeros_like(ts)
    power, factorial = ts * ts, 2.0
    for k in range(2, 16):
        series += (a**k - a) * power / factorial
        power, factorial = power * ts, factorial * (k + 1)
    return np.where(small, series, direct)


def sibson_float(prior: np.ndarray, q: np.ndarray, alpha: float) -> np.ndarray:
    """Sibson's ``I_alpha`` of priors ``(..., n)`` and channels ``(..., n, m)`` in float64.

    With ``r = Q[x][y] / p(y)`` (``sum_x p(x) r = 1`` for each reached ``y``), ``S = sum_y p(y) M_y`` where
    ``M_y = (sum_x p(x) r^alpha)^(1/alpha)``, and ``sum_x p(x) r^alpha - 1 = sum_x p(x) (expm1(alpha t) -
    alpha expm1(t))``, ``t = ln r``: the first-order terms cancel exactly, so near independence (``I_alpha``
    of order ``t^2``) the value keeps its relative accuracy.  When ``r^alpha`` could overflow (large orders)
    a log-sum-exp of ``ln p(x) + alpha ln Q[x][y]`` instead.

    Examples
    --------
    >>> import numpy as np
    >>> round(float(sibson_float(np.array([0.5, 0.5]), np.array([[0.75, 0.25], [0.25, 0.75]]), 2.0)), 6)  # ln(5/4)
    0.223144
    """
    prior, q = np.asarray(prior, dtype=float), np.asarray(q, dtype=float)
    p = prior[..., :, None]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        py = (p * q).sum(axis=-2)  # (..., m)
        reached = py > 0
        pyb = np.where(reached, py, 1.0)[..., None, :]
        valid = (p > 0) & reached[..., None, :]
        ratio = np.where(valid, q / pyb, 1.0)
        t = np.where(ratio > 0, np.where(np.abs(ratio - 1) < 0.5, np.log1p((q - pyb) / pyb), np.log(ratio)), -np.inf)
        t = np.where(valid, t, 0.0)
        e = (np.where(valid, p, 0.0) * _excess(alpha, t)).sum(axis=-2)  # sum_x p r^alpha - 1, per output
        m1 = np.expm1(np.log1p(np.maximum(e, -1.0)) / alpha)  # M_y - 1
        log_s = np.log1p(np.where(reached, py * m1, 0.0).sum(axis=-1))
        relative = alpha / (alpha - 1) * log_s
        overflow = (alpha * np.where(valid, t, 0.0)).max(axis=(-2, -1)) > 500
        direct_at = overflow | ~np.isfinite(relative)
        if not direct_at.any():  # the log-sum-exp below would be read nowhere
            return np.maximum(0.0, relative)
        # large orders: a log-sum-exp, where the relative form could overflow
        keep = (p > 0) & (q > 0)
        terms = np.where(keep, np.log(np.where(keep, p, 1.0)) + alpha * np.log(np.where(keep, q, 1.0)), -np.inf)
        top = terms.max(axis=-2)
        inner = top + np.log(np.exp(terms - np.where(np.isfinite(top), top, 0.0)[..., None, :]).sum(axis=-2))
        outer = inner / alpha
        big = outer.max(axis=-1)
        direct = alpha / (alpha - 1) * (big + np.log(np.exp(outer - big[..., None]).sum(axis=-1)))
    return np.maximum(0.0, np.where(direct_at, direct, relative))


def _enclosure(prior, rows, alpha: Fraction):
    """``bits -> (lower, upper)`` of one local problem's ``I_alpha``, of width at most ``2^-bits``."""
    factor = alpha / (alpha - 1)
    magnify = max(0, math.ceil(math.log2(abs(factor)))) + alpha.numerator.bit_length() + alpha.denominator.bit_length()
    cells = [[(px, row[y]) for px, row in zip(prior, rows) if px and row[y]] for y in range(len(rows[0]))]
    cells = [c for c in cells if c]

    def enclose(bits: int) -> tuple[Fraction, Fraction]:
        extra = 40 + magnify
        while True:
            with working_precision(bits + extra):
                a = rational(alpha)
                s = ball(Fraction(0))
                for cell in cells:
                    inner = ball(Fraction(0))
                    for px, qy in cell:
                        inner += rational(px) * (a * ball(qy).log()).exp()
                    s += (inner.log() / a).exp()
                lo, hi = interval(s.log() * rational(factor))
            if hi - lo <= Fraction(1, 2**bits) or extra > 4 * bits + 4096:
                return max(lo, Fraction(0)), max(hi, Fraction(0))
            extra *= 2

    return enclose


def _iroot(x: int, n: int) -> int | None:
    """The integer ``n``-th root of ``x >= 0`` when ``x`` is an ``n``-th power, else None (Newton from above)."""
    if x < 2:
        return x
    r = 1 << -(-x.bit_length() // n)  # >= the root
    while True:
        nxt = ((n - 1) * r + x // r ** (n - 1)) // n
        if nxt >= r:
            break
        r = nxt
    return r if r**n == x else None


def _rational_root(q: Fraction, n: int) -> Fraction | None:
    """``q^(1/n)`` when it is rational, else None."""
    a, b = _iroot(q.numerator, n), _iroot(q.denominator, n)
    return None if a is None or b is None else Fraction(a, b)


def _power_sum(prior, rows, alpha: Fraction) -> Fraction | None:
    """``S^a`` for an order ``alpha = a/b``, ``S = sum_y t_y^(1/alpha)``, ``t_y = sum_x p(x) Q[x][y]^alpha``, when
    it is rational (None otherwise, or when not shown to be).

    When every ``Q[x][y]^alpha`` is rational (always for an integer order; for entries 0 and 1 at any order),
    every ``t_y`` is, and ``S = sum_y (t_y^b)^(1/a)`` is a sum of ``a``-th roots of rationals.  Such roots are
    linearly dependent over the rationals only when their ratios are rational (Besicovitch 1940; Mordell 1953):
    so ``S = K (t_0^b)^(1/a)`` with ``K`` rational when every ``(t_y / t_0)^b`` is an ``a``-th power of a
    rational, and then ``S^a = K^a t_0^b``; otherwise ``S`` combines two or more independent radicals and
    ``S^a`` is irrational.
    """
    a, b = alpha.numerator, alpha.denominator
    powers: dict[Fraction, Fraction] = {}
    terms = []
    for y in range(len(rows[0])):
        t = Fraction(0)
        for px, row in zip(prior, rows):
            if px and row[y]:
                if row[y] not in powers:
                    root = row[y] ** a if b == 1 else _rational_root(row[y] ** a, b)
                    if root is None:
                        return None
                    powers[row[y]] = root
                t += px * powers[row[y]]
        if t:
            terms.append(t)
    k = Fraction(0)
    for t in terms:
        r = _rational_root((t / terms[0]) ** b, a)
        if r is None:
            return None
        k += r
    return k**a * terms[0] ** b


def _constant_density(prior, rows) -> Fraction | None:
    """``c`` when the information density is constant, ``Q[x][y] = c p(y)`` wherever ``p(x) Q[x][y] > 0``, else None.

    Then ``sum_x p(x) Q[x][y]^alpha = (c p(y))^alpha / c`` (the inputs reaching ``y`` have prior mass ``1/c``),
    ``S = c^((alpha-1)/alpha)`` and ``I_alpha = ln c`` at every order, as ``I(X;Y)`` and ``maximal_leakage``.
    """
    m = len(rows[0])
    py = [sum((px * row[y] for px, row in zip(prior, rows)), Fraction(0)) for y in range(m)]
    seen = {row[y] / py[y] for px, row in zip(prior, rows) if px for y in range(m) if row[y]}
    return seen.pop() if len(seen) == 1 else None


def sibson(mech: Mechanism, alpha: Fraction | int, *, name: str | None = None) -> NotionResult:
    """Sibson's mutual information of order ``alpha`` in nats, certified.

    Parameters
    ----------
    mech : Mechanism
        Any mechanism; the neighbour relation plays no part (``X`` is the dataset centrally).  A product
        form adds its records' values.
    alpha : Fraction or int
        The order, a rational ``> 0``, ``!= 1``.
    name : str, optional
        The name of the result (default ``"sibson(alpha)"``).

    Returns
    -------
    NotionResult
        An enclosure (exact ``0`` when ``X`` and ``Y`` are independent); a float
        :class:`~relations.numbers.Rational` in float mode.

    Raises
    ------
    InputError
        If ``alpha`` is not a rational ``> 0`` other than 1.

    References
    ----------
    .. [1] Sibson. Information radius. Z. Wahrscheinlichkeitstheorie verw. Geb. 14, 1969, pp. 149-160.
    .. [2] Verdu. alpha-mutual information. Information Theory and Applications Workshop (ITA), 2015.

    Examples
    --------
    Binary randomized response with ratio 3, uniform prior, order 2: each output has
    ``sum_x p Q^2 = (9/16 + 1/16) / 2 = 5/16``, so ``I_2 = 2 ln(2 sqrt(5/16)) = ln(5/4)``:

    >>> from relations.mechanisms import randomized_response
    >>> import math
    >>> lo, hi = sibson(randomized_response(3), 2).value.enclose(60)
    >>> round(float(lo), 12), round(float(hi), 12), round(math.log(5 / 4), 12)
    (0.223143551314, 0.223143551314, 0.223143551314)
    """
    alpha = _order(alpha)
    name = name or f"sibson({alpha})"
    parts = _factors(mech)
    if not mech.exact:
        total = sum(c * float(sibson_float(np.asarray(p.array, dtype=float), np.asarray(w.array, dtype=float),
                                           float(alpha))) for p, w, c in parts)
        return NotionResult(name, Rational(Fraction(total)))
    problems = [(cast(tuple, p.exact), cast("Sequence[Sequence[Fraction]]", w.exact), c) for p, w, c in parts]
    problems = [(p, rows, c) for p, rows, c in problems if not independent(p, rows)]
    if not problems:
        return NotionResult(name, Rational(Fraction(0)))
    constants = [_constant_density(p, rows) for p, rows, _ in problems]
    if all(c is not None for c in constants) and sum(power_bits(cast(Fraction, q), c) for q, (_, _, c) in
                                                     zip(constants, problems)) <= MAX_POWER_BITS:
        product = Fraction(1)
        for q, (_, _, c) in zip(constants, problems):
            product *= cast(Fraction, q) ** c
        return NotionResult(name, Log(LogRatio.of(product)))  # I_alpha = ln c at every order
    a, b = alpha.numerator, alpha.denominator
    if max(a, b) <= MAX_EXACT_ORDER:  # I_alpha = ln(S^a) / (a - b), exactly when S^a is rational
        powers = [_power_sum(p, rows, alpha) for p, rows, _ in problems]
        if all(q is not None for q in powers) and sum(power_bits(cast(Fraction, q), c) for q, (_, _, c) in
                                                       zip(powers, problems)) <= MAX_POWER_BITS:
            product = Fraction(1)
            for q, (_, _, c) in zip(powers, problems):
                product *= cast(Fraction, q) ** c
            product, d = (product, a - b) if a > b else (1 / product, b - a)  # ln(S^a) / (a - b) = ln(S^-a) / (b - a)
            if d == 1:
                return NotionResult(name, Log(LogRatio.of(product)))
            return NotionResult(name, log_times(product, Fraction(1, d), f"ln({fraction_text(product)})/{d}"))
    fns = [(_enclosure(p, rows, alpha), c) for p, rows, c in problems]
    spare = max(c for _, c in fns).bit_length() + len(fns).bit_length() + 1

    def enclose(bits: int) -> tuple[Fraction, Fraction]:
        lo = hi = Fraction(0)
        for fn, c in fns:
            a, b = fn(bits + spare)
            lo, hi = lo + c * a, hi + c * b
        return lo, hi

    def tie(other) -> int | None:  # not independent: I_alpha > 0
        zero = (isinstance(other, Rational) and other.value == 0) or (
            isinstance(other, Log) and other.log.is_finite and other.log.ratio == 1)
        return 1 if zero else None

    lo, hi = enclose(64)
    return NotionResult(name, ArbExpr(f"I_{alpha}^S", display_float((lo + hi) / 2), enclose, tie))
