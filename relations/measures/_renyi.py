"""Renyi differential privacy, the largest KL divergence and zero-concentrated DP, certified.

For neighbours ``x ~ x'`` (both orders), ``P = Q[x]``, ``R = Q[x']``:

* ``renyi(alpha) = max D_alpha(P || R)``, ``D_alpha = 1/(alpha-1) ln sum_y P^alpha R^(1-alpha)``
  for a rational ``alpha > 1`` (Mironov 2017); ``inf`` when some ``P_y > 0 = R_y``; outputs with
  ``P_y = 0`` contribute 0.  For a rational ``0 < alpha < 1`` (van Erven and Harremoes 2014) outputs
  where either row is 0 contribute 0, and the divergence is finite unless the supports are disjoint
  (``inf`` then); ``alpha = 1`` is ``kl``.  For an integer ``alpha`` the sum ``S`` is an exact rational and
  ``D_alpha = ln(S)/(alpha-1)`` (``ln(S)`` exactly at ``alpha = 2``); otherwise an enclosure;
* ``kl = max D(P || R) = max sum_y P_y ln(P_y / R_y)``, an enclosure with an exact tie-breaker
  against ``ln(r)`` (``e^D = prod (P/R)^P`` is compared with ``r`` in integers);

``rho`` (zero-concentrated DP) is in :mod:`relations.measures._zcdp`.

Product forms reduce to ``W`` (:mod:`relations.measures._pairs`): divergences add over independent
records and the unchanged records add 0.  Float mode computes in float64 (log-sum-exp) and reports
the float as a :class:`~relations.numbers.Rational`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import cast

import numpy as np

from relations.errors import InputError
from relations.measures._information import log_sum_sign
from relations.measures._pairs import NotionResult, Pair, divergence_pairs, float_rows, lift, max_expr
from relations.model._mechanism import Mechanism
from relations.numbers._enclosure import ball, interval, rational, working_precision
from relations.numbers._logforms import form_difference, log_form_sign
from relations.numbers._logs import LogRatio
from relations.numbers._reals import ArbExpr, Log, Rational, Real, inf, log_form

__all__ = ["chi2", "MAX_FORM_PAIRS", "MAX_EXACT_ORDER", "renyi", "kl", "max_kl_sign"]

#: The most neighbour pairs whose exact forms are compared to give a maximum's form
#: (:func:`~relations.measures._pairs.max_expr`).
MAX_FORM_PAIRS = 256

#: Integer orders up to this are computed with an exact rational sum ``S``; larger ones by enclosures.
MAX_EXACT_ORDER = 64


def _order(alpha) -> Fraction:
    if isinstance(alpha, Rational):
        alpha = alpha.value
    if isinstance(alpha, bool) or not isinstance(alpha, (int, Fraction)):
        raise InputError(f"renyi(alpha) needs a rational alpha > 0, alpha != 1, got {alpha}")
    alpha = Fraction(alpha)
    if alpha <= 0 or alpha == 1:
        raise InputError(f"renyi(alpha) needs alpha > 0, alpha != 1, got {alpha}"
                         + (" (alpha = 1 is kl)" if alpha == 1 else ""))
    return alpha


def _mismatch(pair: Pair) -> bool:
    return any(a > 0 and b == 0 for a, b in zip(pair.p, pair.q))


def _disjoint(pair: Pair) -> bool:
    return not any(a > 0 and b > 0 for a, b in zip(pair.p, pair.q))


def _is_zero(x) -> bool:
    return (isinstance(x, Rational) and x.value == 0) or (isinstance(x, Log) and x.log.is_finite and x.log.ratio == 1)


def _float_divergences(mech: Mechanism, alpha: float | None) -> tuple[np.ndarray, np.ndarray]:
    """Float mode: ``D_alpha`` (KL for ``alpha = None``) of every ordered pair, and the pairs."""
    a, pairs = float_rows(mech)
    out = np.empty(len(pairs))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for c0 in range(0, len(pairs), 4096):
            ch = pairs[c0:c0 + 4096]
            p, q = a[ch[:, 0]], a[ch[:, 1]]
            below = alpha is not None and alpha < 1  # orders below 1: only outputs both rows reach count
            bad = ~((p > 0) & (q > 0)).any(axis=1) if below else ((p > 0) & (q == 0)).any(axis=1)
            lp = np.where(p > 0, np.log(np.where(p > 0, p, 1.0)), 0.0)
            lq = np.where(q > 0, np.log(np.where(q > 0, q, 1.0)), 0.0)
            if alpha is None:
                v = np.where(p > 0, p * (lp - lq), 0.0).sum(axis=1)
            else:
                e = np.where((p > 0) & (q > 0) if below else p > 0, lp + (alpha - 1) * (lp - lq), -np.inf)
                top = e.max(axis=1)
                v = (top + np.log(np.exp(e - top[:, None]).sum(axis=1))) / (alpha - 1)
            out[c0:c0 + len(ch)] = np.where(bad, np.inf, np.maximum(v, 0.0))
    return out, pairs


def _float_result(mech: Mechanism, name: str, vals: np.ndarray, pairs: np.ndarray) -> NotionResult:
    if len(pairs) == 0:
        return NotionResult(name, Rational(Fraction(0)))
    i = int(np.argmax(vals))
    value = inf() if math.isinf(vals[i]) else Rational(Fraction(float(vals[i])))
    return NotionResult(name, value, lift(mech, *pairs[i].tolist()))


def renyi(mech: Mechanism, alpha: Fraction | int, *, name: str | None = None) -> NotionResult:
    """Renyi DP at order ``alpha``: ``max D_alpha(Q[x] || Q[x'])`` over neighbours, certified.

    Parameters
    ----------
    mech : Mechanism
        Any mechanism (dense, graph, product; exact or float mode).
    alpha : Fraction or int
        The order, a rational ``> 0`` other than 1.
    name : str, optional
        The name of the result (default ``"renyi(alpha)"``).

    Returns
    -------
    NotionResult
        ``ln(S)`` exactly at ``alpha = 2``, an enclosure otherwise (exact tie-breakers against
        ``0`` and ``ln(r)`` for integer orders), ``inf`` when ``Q[x]`` puts mass where ``Q[x']`` has
        none (``alpha > 1``) or when the supports are disjoint (``alpha < 1``).

    Raises
    ------
    InputError
        If ``alpha`` is not a rational above 0, or is 1 (``kl``).

    References
    ----------
    .. [1] Mironov. Renyi Differential Privacy. IEEE CSF 2017, pp. 263-275. doi:10.1109/CSF.2017.11
    .. [2] van Erven, Harremoes. Renyi Divergence and Kullback-Leibler Divergence. IEEE Trans.
       Inf. Theory 60(7), 2014. doi:10.1109/TIT.2014.2320500

    Examples
    --------
    Binary randomized response with ratio 3: ``S = (3/4)^2/(1/4) + (1/4)^2/(3/4) = 7/3``.

    >>> from relations.mechanisms import randomized_response
    >>> str(renyi(randomized_response(3), 2).value)
    'ln(7/3)'
    >>> round(float(renyi(randomized_response(3), Fraction(3, 2)).value), 6)
    0.733969

    Order 1/2 is ``-2 ln sum_y sqrt(P_y R_y)``, exactly ``ln`` of a rational when the sum's square is
    rational: ``-2 ln(2 sqrt(3/16)) = ln(4/3)``, and ``-2 ln sqrt(1/2) = ln(2)`` for rows ``(1/2, 1/2)`` and
    ``(1, 0)``, finite although the second misses an output of the first:

    >>> str(renyi(randomized_response(3), Fraction(1, 2)).value)
    'ln(4/3)'
    >>> from relations.model import Mechanism
    >>> str(renyi(Mechanism.local([["1/2", "1/2"], ["1", "0"]]), Fraction(1, 2)).value)
    'ln(2)'
    """
    alpha = _order(alpha)
    name = name or f"renyi({alpha})"
    if not mech.exact:
        return _float_result(mech, name, *_float_divergences(mech, float(alpha)))
    distinct, done = divergence_pairs(mech, name, infinite=_disjoint if alpha < 1 else _mismatch)
    if done:
        return done
    if alpha == Fraction(1, 2):  # D_1/2 = -2 ln BC = ln(1 / BC^2), BC = sum_y sqrt(P_y R_y): exact when BC^2 is rational
        from relations.measures._hellinger import bhattacharyya_squared

        squares = [bhattacharyya_squared(pair) for pair in distinct]
        if all(c is not None for c in squares):
            ratios = [1 / cast(Fraction, c) for c in squares]
            i = max(range(len(ratios)), key=ratios.__getitem__)
            return NotionResult(name, Log(LogRatio.of(ratios[i])), distinct[i].witness)
    if alpha.denominator == 1 and alpha <= MAX_EXACT_ORDER:
        n = int(alpha)
        sums = [sum((a**n / b ** (n - 1) for a, b in zip(pair.p, pair.q) if a), Fraction(0)) for pair in distinct]
        i = max(range(len(sums)), key=sums.__getitem__)
        return NotionResult(name, _log_over(sums[i], n - 1, name), distinct[i].witness)

    def pair_fn(pair: Pair):
        def enclose(bits: int):
            with working_precision(bits + 40 + alpha.numerator.bit_length()):
                s = ball(Fraction(0))
                for a, b in zip(pair.p, pair.q):
                    if a and b:  # a > 0 = b only below order 1, where it contributes 0
                        s += rational(a) * (rational(alpha - 1) * ball(a / b).log()).exp()
                return interval(s.log() / rational(alpha - 1))
        return enclose

    expr, at = max_expr(f"D_{alpha}", [pair_fn(p) for p in distinct], lambda other: 1 if _is_zero(other) else None)
    return NotionResult(name, expr, distinct[at].witness)


def _log_over(s: Fraction, k: int, text: str) -> Real:
    """The real ``ln(s) / k`` (``k >= 1``) with exact tie-breakers against ``0`` and ``ln(r)``."""
    if k == 1:
        return Log(LogRatio.of(s))

    def enclose(bits: int):
        with working_precision(bits + 32):
            return interval(ball(s).log() / k)

    def tie(other):
        if _is_zero(other):
            return (s > 1) - (s < 1)
        if isinstance(other, Log) and other.log.is_finite:
            target = other.log.ratio ** k
            return (s > target) - (s < target)
        return None

    return ArbExpr(f"ln({s})/{k}", LogRatio.of(s).value / k, enclose, tie, form=((Fraction(1, k), s),))


def _kl_sign(pair: Pair, r: Fraction) -> int | None:
    """``sign(D(P || R) - ln r)`` exactly by ``prod (P/R)^(P d)`` against ``r^d``, or None when too large."""
    return log_sum_sign([(a, a / b) for a, b in zip(pair.p, pair.q) if a], r)


def max_kl_sign(pairs: list[Pair], other: Real) -> int | None:
    """``sign(max_i D_i - other)`` exactly when ``other`` is a linear form in logarithms, else None.

    ``sign(max_i D_i - b) = max_i sign(D_i - b)``, each an exact linear form in logarithms
    (:func:`~relations.numbers._logforms.log_form_sign`).
    """
    target = log_form(other)
    if target is None:
        return None
    signs = [log_form_sign(form_difference(_kl_form(p), target)) for p in pairs]
    if 1 in signs:
        return 1
    return None if None in signs else max(cast("list[int]", signs))


def _kl_form(pair: Pair) -> tuple:
    """``D(P || R) = sum_y P_y ln(P_y / R_y)`` as an exact linear form in logarithms."""
    return tuple((a, a / b) for a, b in zip(pair.p, pair.q) if a)


def _kl_enclosure(pair: Pair):
    def enclose(bits: int):
        with working_precision(bits + 40):
            s = ball(Fraction(0))
            for a, b in zip(pair.p, pair.q):
                if a:
                    s += rational(a) * ball(a / b).log()
            return interval(s)
    return enclose


def kl(mech: Mechanism, *, name: str = "kl") -> NotionResult:
    """The largest Kullback-Leibler divergence ``max D(Q[x] || Q[x'])`` over neighbours, certified.

    Parameters as for :func:`renyi`.

    Returns
    -------
    NotionResult
        An enclosure in nats (exact tie-breakers against ``0`` and ``ln(r)``), ``inf`` when some
        ``Q[x][y] > 0 = Q[x'][y]``, ``0`` without neighbour pairs.

    References
    ----------
    .. [1] Cover, Thomas. Elements of Information Theory, 2nd ed., 2006, Section 2.3.
       doi:10.1002/047174882X
    .. [2] Dwork, Rothblum, Vadhan. Boosting and Differential Privacy. FOCS 2010.
       doi:10.1109/FOCS.2010.12

    Examples
    --------
    Binary randomized response with ratio 3: ``D = (3/4) ln 3 + (1/4) ln(1/3) = (1/2) ln 3``.

    >>> from relations.mechanisms import randomized_response
    >>> from relations.numbers import Log, LogRatio, compare
    >>> d = kl(randomized_response(3)).value
    >>> [float(end) for end in d.enclose(60)]
    [0.5493061443340549, 0.5493061443340549]
    >>> compare(d, Log(LogRatio.of(Fraction(3)))), compare(Log(LogRatio.of(Fraction(3))), d)
    (-1, 1)
    """
    if not mech.exact:
        return _float_result(mech, name, *_float_divergences(mech, None))
    distinct, done = divergence_pairs(mech, name, infinite=_mismatch)
    if done:
        return done

    def tie(other):
        if _is_zero(other):
            return 1
        if isinstance(other, Log) and other.log.is_finite:
            signs = [_kl_sign(p, other.log.ratio) for p in distinct]
            if 1 in signs:
                return 1
            return None if None in signs else max(signs)
        return max_kl_sign(distinct, other)

    expr, at = max_expr("KL", [_kl_enclosure(p) for p in distinct], tie,
                         lambda: [_kl_form(p) for p in distinct] if len(distinct) <= MAX_FORM_PAIRS else None)
    return NotionResult(name, expr, distinct[at].witness)


def chi2(mech: Mechanism, *, name: str = "chi2") -> NotionResult:
    """The largest chi-squared divergence between neighbours' rows, exactly.

    ``chi2 = max over neighbours x ~ x' of sum_y (Q[x][y] - Q[x'][y])^2 / Q[x'][y] = S - 1``, where
    ``S = sum_y Q[x][y]^2 / Q[x'][y]`` is the sum of :func:`renyi` at order 2 (``renyi(2) = ln S``), so the
    two share their maximising pair; infinite when ``Q[x]`` puts mass where ``Q[x']`` has none.

    Parameters as for :func:`renyi`.

    Returns
    -------
    NotionResult
        A rational in exact mode (``inf`` when supports differ); a float's value in float mode.

    References
    ----------
    .. [1] Pearson. On the criterion that a given system of deviations ... Philosophical Magazine 50, 1900.

    Examples
    --------
    Binary randomized response with ratio 3: ``(1/2)^2 / (1/4) + (1/2)^2 / (3/4) = 4/3 = 7/3 - 1``.

    >>> from relations.mechanisms import randomized_response
    >>> str(chi2(randomized_response(3)).value)
    '4/3'
    """
    r = renyi(mech, 2, name=name)
    v = r.value
    if isinstance(v, Log):
        ratio = v.log.ratio
        return NotionResult(name, v if ratio is None else Rational(ratio - 1), r.witness)  # ln S, or inf
    if mech.exact:  # no pair of distinct rows: 0
        return NotionResult(name, Rational(Fraction(0)), r.witness)
    return NotionResult(name, Rational(Fraction(math.expm1(float(cast(Rational, v).value)))), r.witness)
