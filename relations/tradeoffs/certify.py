"""An exact optimum of the DP / identifiability linear program, certified by an exact dual.

:func:`relations.tradeoffs.optimal.optimal_dp` solves, for a prior ``p``, a loss ``L`` and a
budget ratio ``t = e^eps``, the linear program (weights ``w(x) = 1`` for DP, ``p(x)`` for
identifiability)::

    minimise    sum_{x,y} p(x) L[x][y] Q[x][y]
    subject to  w(x) Q[x][y] <= u_y,   l_y <= w(x) Q[x][y],   u_y <= t l_y,
                sum_y Q[x][y] = 1,     Q, u, l >= 0

in floats (HiGHS).  When ``t`` is rational (``eps = ln(q)``, or ``eps = 0``) the optimum is a
vertex with rational coordinates.  :func:`certify` recovers it from the float solution by
continued fractions (denominators up to ``10^9``), checks it exactly, and recovers the dual
(the HiGHS marginals, rationalised the same way): an exactly feasible primal and an exactly
feasible dual with equal objectives prove optimality (weak duality).  The dual, with multipliers
``a_x`` for the row sums and ``b_xy, c_xy, d_y <= 0`` for the three inequalities, is::

    maximise    sum_x a_x
    subject to  a_x + w(x) (b_xy - c_xy) <= p(x) L[x][y]      (Q[x][y])
                d_y - sum_x b_xy <= 0,  sum_x c_xy - t d_y <= 0  (u_y, l_y)

When either recovery fails, the caller keeps its rounded, budget-checked mechanism and says so.
Under a uniform prior and Hamming loss the certified optimum is k-RR, as Kairouz, Oh and Viswanath
showed [1]_ (the tests compare with that closed form).

References
----------
.. [1] Kairouz, Oh, Viswanath. Extremal mechanisms for local differential privacy. Journal of
   Machine Learning Research 17(17), 2016, 1-51. (k-RR is optimal for Hamming loss.)

Examples
--------
Binary randomized response with ratio 3 is the optimum for a uniform prior, distortion ``1/4``:

>>> import numpy as np
>>> from fractions import Fraction as F
>>> from relations.tradeoffs.optimal import _lp
>>> q, value, duals = _lp(np.array([0.5, 0.5]), 1 - np.eye(2), 3.0, False, duals=True)
>>> cert = certify([F(1, 2)] * 2, [[F(0), F(1)], [F(1), F(0)]], F(3), False, q, duals)
>>> [[str(v) for v in row] for row in cert[0]], cert[1]
([['3/4', '1/4'], ['1/4', '3/4']], Fraction(1, 4))
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import numpy as np

__all__ = ["DENOMINATORS", "certify"]

#: Denominator limits tried, in order, when rationalising the float solution and duals.
DENOMINATORS = (10**2, 10**4, 10**6, 10**9)


def _rational(v: float, den: int) -> Fraction:
    return Fraction(float(v)).limit_denominator(den)


def _primal(q: np.ndarray, den: int, t: Fraction, w: Sequence[Fraction]) -> list[list[Fraction]] | None:
    rows = [[_rational(max(v, 0.0), den) for v in row] for row in q]
    if any(sum(row) != 1 for row in rows):
        return None
    for y in range(len(rows[0])):
        col = [w[x] * rows[x][y] for x in range(len(rows))]
        if max(col) > t * min(col):
            return None
    return rows


def _dual_value(duals, den: int, p, loss, t: Fraction, w) -> Fraction | None:
    """The dual objective if the rationalised marginals are exactly dual feasible, else ``None``."""
    eq, ineq = duals
    k, m = len(p), len(loss[0])
    a = [_rational(v, den) for v in eq]
    y_ub = [min(_rational(v, den), Fraction(0)) for v in ineq]
    b = [[y_ub[2 * (x * m + y)] for y in range(m)] for x in range(k)]
    c = [[y_ub[2 * (x * m + y) + 1] for y in range(m)] for x in range(k)]
    d = y_ub[2 * k * m:]
    for x in range(k):
        for y in range(m):
            if a[x] + w[x] * (b[x][y] - c[x][y]) > p[x] * loss[x][y]:
                return None
    for y in range(m):
        if d[y] - sum(b[x][y] for x in range(k)) > 0 or sum(c[x][y] for x in range(k)) - t * d[y] > 0:
            return None
    return sum(a, Fraction(0))


def certify(prior: Sequence[Fraction], loss: Sequence[Sequence[Fraction]], t: Fraction, identifiability: bool,
            q: np.ndarray, duals: tuple[np.ndarray, np.ndarray]) -> tuple[list[list[Fraction]], Fraction] | None:
    """The exact optimal channel and distortion, certified by an exact dual; ``None`` if not recovered.

    Parameters
    ----------
    prior : sequence of Fraction
        ``p(x)``.
    loss : sequence of sequence of Fraction
        ``L[x][y]``, exact.
    t : Fraction
        The budget ratio ``e^eps``.
    identifiability : bool
        Weights ``p(x)`` (identifiability) instead of 1 (DP).
    q : numpy.ndarray
        HiGHS's optimal channel.
    duals : tuple of numpy.ndarray
        HiGHS's marginals of the equalities and of the inequalities, in the order of
        :func:`relations.tradeoffs.optimal._lp`.

    Returns
    -------
    tuple or None
        ``(rows, distortion)`` with ``distortion`` equal to the dual objective.
    """
    w = list(prior) if identifiability else [Fraction(1)] * len(prior)
    for den in DENOMINATORS:
        rows = _primal(q, den, t, w)
        if rows is None:
            continue
        value = sum((prior[x] * loss[x][y] * rows[x][y] for x in range(len(rows)) for y in range(len(rows[0]))),
                    Fraction(0))
        for dden in DENOMINATORS:
            if _dual_value(duals, dden, prior, loss, t, w) == value:
                return rows, value
    return None
