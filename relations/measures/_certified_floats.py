"""A certified enclosure of ``I(X;Y)`` from the float copies of an exact prior and channel.

For large exact channels (a 4096 x 4096 matrix taken exactly from floats has 16.7
million entries) ball arithmetic costs a logarithm per entry.  Here the float copies
``p^``, ``Q^`` of the exact ``p``, ``Q`` are used with their proved relative errors
(``|p^ - p| <= rho_p p``, ``|Q^ - Q| <= rho_q Q``), the logarithm of
:func:`~relations.numbers._floatlog.certified_log` and correctly rounded sums
(``math.fsum``), and every error is bounded in exact rationals:

``I(X;Y) = S1 - S2``, ``S1 = sum_{x,y} j ln Q`` (``j = p(x) Q[x][y]``),
``S2 = sum_y P(y) ln P(y)``.

For a term ``tau = RN(j^ L^)`` with ``|j^ - j| <= rho_j j`` and
``|L^ - ln Q| <= 6u|L^| + 4u + lambda`` (``lambda = rho_q / (1 - rho_q)``, from
``ln Q^ - ln Q``):

``|tau - j ln Q| <= j^|L^| (u + (rho_j + 6u) / (1 - rho_j)) + j^ (4u + lambda) / (1 - rho_j)``,

summed through the computed ``sum j^|L^|`` and ``sum j^`` (each inflated for its own
rounding); ``S2`` alike with ``P^`` (relative error ``rho_P``: the products and two
correctly rounded sums).  The enclosure is about ``10 u (H(Y) + H(Y|X) + 2)`` wide
(``~1e-14``): certified, not ``2^-100``; a caller wanting more uses ball arithmetic
(:func:`~relations.measures._information.mutual_information`).

Work goes by blocks of whole rows (about 2^20 entries), so memory beyond the two
float copies stays near 50 MB.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from relations.numbers._enclosure import Enclosure
from relations.numbers._floatlog import LOG_ERROR, UNIT, certified_log, fsum_fraction

__all__ = ["BLOCK_ENTRIES", "mutual_information_floats"]

#: Entries per block of rows.
BLOCK_ENTRIES = 1 << 20

_TINY = float(np.finfo(np.float64).tiny)


def mutual_information_floats(p: np.ndarray, q: np.ndarray, *, rho_p: Fraction, rho_q: Fraction) -> Enclosure | None:
    """Certified ``[lower, upper]`` containing ``I(X;Y)``, from float copies with known relative errors.

    Parameters
    ----------
    p : numpy.ndarray
        ``p^``, shape ``(n,)``: zero exactly where the exact prior is.
    q : numpy.ndarray
        ``Q^``, shape ``(n, m)``: zero exactly where the exact channel is.
    rho_p, rho_q : Fraction
        Relative error bounds of every entry of ``p^`` and ``Q^`` (``2^-53`` for correctly rounded copies).

    Returns
    -------
    Enclosure or None
        ``None`` when this method cannot certify: an entry or product below the normal float range (a
        product that underflows to 0 included), or
        all rows with positive prior equal as floats (``I`` may be exactly 0: the caller decides exactly).

    Examples
    --------
    A noiseless bit under a uniform prior carries ``ln 2`` nats:

    >>> import numpy as np
    >>> u = Fraction(1, 2**53)
    >>> e = mutual_information_floats(np.array([0.5, 0.5]), np.eye(2), rho_p=u, rho_q=u)
    >>> e.lower <= Fraction(math.log(2)) <= e.upper, e.width < Fraction(1, 2**45)
    (True, True)
    """
    n, m = q.shape
    u = UNIT
    live = np.flatnonzero(p > 0)
    if live.size == 0 or float(p[live].min()) < _TINY:
        return None
    positive = q[live]
    if np.all(positive == positive[0]):
        return None
    rows = max(1, BLOCK_ENTRIES // max(m, 1))
    s1 = r1 = abs_jl = sum_j = Fraction(0)
    partials = []
    terms = 0
    for start in range(0, live.size, rows):
        idx = live[start:start + rows]
        j = p[idx, None] * q[idx]
        nz = j > 0
        if np.any(nz & (j < _TINY)) or np.any((q[idx] > 0) & (q[idx] < _TINY)) or np.any(~nz & (q[idx] > 0)):
            return None  # subnormal, or a positive p(x) Q[x][y] that underflowed to 0 (its term would be lost)
        jn = j[nz]
        logs = certified_log(q[idx][nz])
        s, r = fsum_fraction(jn * logs)
        s1, r1 = s1 + s, r1 + r
        s, r = fsum_fraction(jn * np.abs(logs))
        abs_jl += s + r
        s, r = fsum_fraction(jn)
        sum_j += s + r
        terms += jn.size
        partials.append(np.array([math.fsum(c) for c in j.T.tolist()]))
    big_p = np.array([math.fsum(c) for c in np.array(partials).T.tolist()])
    rho_j = (1 + rho_p) * (1 + rho_q) * (1 + u) - 1
    rho_big = (1 + rho_j) * (1 + 2 * u) ** 2 - 1  # two correctly rounded sums, each within 2u (fsum_fraction)
    a, b = LOG_ERROR
    lam_q = rho_q / (1 - rho_q)
    tiny = Fraction(terms, 2**1074)  # subnormal products: absolute error below 2^-1075 each
    err1 = (abs_jl * (1 + 2 * u) * (u + (rho_j + a) / (1 - rho_j)) + sum_j * (b + lam_q) / (1 - rho_j)
            + r1 + 2 * tiny)
    pos = big_p[big_p > 0]
    logs = certified_log(pos)
    s2, r2 = fsum_fraction(pos * logs)
    s, r = fsum_fraction(pos * np.abs(logs))
    abs_pl = (s + r) * (1 + 2 * u)
    s, r = fsum_fraction(pos)
    lam_p = rho_big / (1 - rho_big)
    err2 = abs_pl * (u + (rho_big + a) / (1 - rho_big)) + (s + r) * (b + lam_p) / (1 - rho_big) + r2 + 2 * tiny
    mid, err = s1 - s2, err1 + err2
    return Enclosure(max(mid - err, Fraction(0)), max(mid + err, Fraction(0)))
