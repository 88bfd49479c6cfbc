"""Zero-concentrated differential privacy: ``rho = sup_{alpha > 1} renyi(alpha) / alpha``, certified.

``rho``, the smallest ``rho`` of ``rho``-zCDP (Bun and
Steinke 2016).  It is ``inf`` when two neighbours' supports differ, else ``max`` over pairs of
``sup f``, ``f(alpha) = D_alpha / alpha``.  :class:`RhoPair` proves which kind the supremum is
(the limit ``KL`` at ``alpha -> 1``, or an interior maximum, a root of ``f'``) from a float screen
and certificates in ball arithmetic, then encloses it at any precision: ``KL``'s enclosure, or
Newton's method on ``f'`` with a proved error bound, so the enclosure is ``2^-bits`` wide in
about the time of one evaluation.  When neither certificate succeeds, the best lower bound found
is squeezed against a Taylor-box upper bound, and failing that :func:`_rho_bisect`, a
branch and bound over ``alpha``, answers: ``D_alpha`` is nondecreasing in ``alpha`` (van Erven
and Harremoes 2014), so on ``[a, b]`` ``f <= D_b / a``, and the mean-value form
``f(m) + f'([a, b]) [-r, r]`` (``f'`` in ball arithmetic) is tighter near a maximum; near ``1``
Taylor's theorem bounds ``D_{1+b} = KL + b V / 2`` with ``V`` the variance of ``ln(P/R)`` under
the tilted ``P e^(t ln(P/R))``, ``t`` in ``[0, b]``; ``f <= D_inf / B`` beyond ``B``.
Only pairs whose upper bound ``min(eps^2/2, D_inf)`` (``eps = max |ln(P/R)|``; Bun and Steinke,
Prop. 3.3) reaches the largest ``KL`` are searched, by decreasing float screen; a pair shown below
the largest certified lower bound so far is not certified further (``RhoPair.bounded_by``).

Product forms reduce to ``W`` (:mod:`relations.measures._pairs`).  Float mode encloses ``rho`` of the
binary values of the candidate pairs the same way and reports the nearest double of the enclosure
as a :class:`~relations.numbers.Rational`.
"""

from __future__ import annotations

import heapq
import math
from fractions import Fraction

import numpy as np

from relations.measures._pairs import NotionResult, Pair, divergence_pairs, float_rows, lift, max_expr, row_pairs
from relations.measures._renyi import (
    MAX_FORM_PAIRS,
    _float_divergences,
    _is_zero,
    _kl_form,
    _mismatch,
    max_kl_sign,
)
from relations.model._mechanism import Mechanism
from relations.numbers._enclosure import ball, display_float, interval, nearest_double, rational, working_precision
from relations.numbers._reals import Rational, inf

__all__ = ["rho", "rho_pair", "rho_is_kl", "RhoPair", "CERTIFY_BITS", "MAX_BOXES"]


#: Working precision (bits) of the certificates of :class:`RhoPair` (the shape of ``f``, done once per pair).
CERTIFY_BITS = 256

#: Most intervals of ``beta`` a certificate of :class:`RhoPair` examines before giving up (then the
#: branch and bound :func:`_rho_bisect` answers).
MAX_BOXES = 3000


class RhoPair:
    """``rho(P || R) = sup_{beta > 0} f(beta)``, ``f(beta) = K(beta) / (beta (1 + beta))``, certified and tight.

    ``K(beta) = ln sum_y P_y e^(beta L_y)`` (``L = ln(P/R)``, ``alpha = 1 + beta``) is the cumulant
    generating function of ``L`` under ``P``: ``K(0) = 0``, ``K'(0) = KL``, ``K'' > 0`` (the variance of
    ``L`` under the tilted ``P e^(beta L)``).  ``f <= c`` on a set iff ``phi_c(beta) = K(beta) -
    c beta (1 + beta) <= 0`` there.  The supremum is one of two kinds, told apart by a float screen of
    ``f`` on a grid and then *proved*:

    * **the limit ``KL`` at ``beta -> 0``**: ``phi_KL <= 0`` on ``(0, B]`` (``phi_KL(0) = phi_KL'(0) =
      0``), with ``B = D_inf / KL - 1`` beyond which ``f <= D_inf / (1 + beta) <= KL``.  Then
      ``rho = KL`` exactly, enclosed at any precision like ``KL``;
    * **an interior maximum** ``beta*``, a root of ``N = K' h - K h'`` (``h = beta (1 + beta)``,
      ``f' = N / h^2``): ``N' = K'' h - 2K < 0`` on an interval ``J`` around the screened maximum
      ``b0``, with ``N > 0`` at its left end and ``N < 0`` at its right end (so ``f`` rises then falls
      on ``J``), and ``phi_c <= 0`` outside ``J`` for ``c`` a lower bound of ``f(b0)``.  Then
      ``rho = f(beta*)``, and for any ``b`` in ``J``, ``f(b) <= rho <= f(b) + N(b)^2 / (m h_min^2)``
      (``m = min |N'|`` on ``J``, ``h_min`` at its left end: ``|beta* - b| <= |N(b)| / m`` and
      ``|f'| <= |N(b)| / h_min^2`` between them).  :meth:`enclose` takes ``b`` from Newton's
      method on ``N`` at the requested precision, so the width is about ``2^-2bits``.

    When neither is certified (kind ``"squeeze"``), each enclosure is the best lower bound found and
    ``phi_c <= 0`` for ``c`` that bound plus ``2^-bits``, else the branch and bound :func:`_rho_bisect`.

    ``phi_c <= 0`` on an interval ``[a, b]`` is shown by Taylor's theorem at ``a``:
    ``phi_c(a + t) <= phi_c(a) + phi_c'(a) t + sup phi_c'' t^2 / 2``, with ``phi_c'' = K'' - 2c``
    bounded on the interval by the centred form ``K''(mid) + K'''([a, b]) [-r, r]`` in ball
    arithmetic; intervals that fail are halved (at most :data:`MAX_BOXES`).  When neither kind is
    certified, :func:`_rho_bisect` (branch and bound on ``f``) answers.

    Parameters
    ----------
    p, q : sequence of Fraction
        Rows with equal supports, ``P != R``.

    Examples
    --------
    Binary randomized response with ratio 3: the supremum is ``KL = (1/2) ln 3``:

    >>> F = Fraction
    >>> r = RhoPair([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)])
    >>> r.kind, float(r.enclose(60)[0])
    ('kl', 0.5493061443340549)

    ``P = (1/2, 1/2)`` against ``R = (99/100, 1/100)``: an interior maximum, enclosed to ``2^-100``:

    >>> r = RhoPair([F(1, 2), F(1, 2)], [F(99, 100), F(1, 100)])
    >>> lo, hi = r.enclose(100)
    >>> r.kind, hi - lo <= F(1, 2**100), round(float(lo), 12)
    ('interior', True, 1.820249261447)
    """

    def __init__(self, p, q, *, certify: bool = True) -> None:
        self.p, self.q = tuple(p), tuple(q)
        self.terms = [(a, a / b) for a, b in zip(self.p, self.q) if a]
        self._logs: dict[int, list] = {}
        self._beta: dict[int, Fraction] = {}
        self._points: list[Fraction] = []  # where f was found largest (lower bounds of rho for "squeeze")
        self.kind = ""
        with working_precision(CERTIFY_BITS):
            self._dinf = max(interval(ball(r).log())[1] for _, r in self.terms)
        if certify:
            self._certify()

    def estimate(self) -> float:
        """The largest value of ``f`` on the float screen's grid (no guarantee: for ordering pairs)."""
        with working_precision(CERTIFY_BITS):
            vals = self._screen()[1]
        return float(np.max(vals))

    def bounded_by(self, c: Fraction, *, boxes: int = 200) -> bool:
        """Whether ``rho(P || R) <= c`` is certified (``phi_c <= 0`` on ``(0, B]``, class docstring), with at
        most ``boxes`` intervals; ``c`` above ``KL``."""
        with working_precision(CERTIFY_BITS):
            if not interval(self._kl())[1] < c:
                return False
            return self._below(ball(c), [(Fraction(0), max(Fraction(1, 2**20), self._tail(c)))], False, boxes)

    def certify(self) -> None:
        """Decide the kind of the supremum, when the constructor was told not to."""
        if not self.kind:
            self._certify()

    # ---- ball arithmetic at the working precision
    def _ln(self):
        from flint import ctx

        prec = ctx.prec
        if prec not in self._logs:
            self._logs[prec] = [(rational(a), ball(r).log()) for a, r in self.terms]
        return self._logs[prec]

    def _moments(self, beta, order: int):
        """``K``, ``K'``, ``K''``, ``K'''`` (up to ``order``) at the ball ``beta``."""
        from flint import arb

        s = [arb(0)] * (order + 1)
        for a, lg in self._ln():
            e = a * (beta * lg).exp()
            for k in range(order + 1):
                s[k] += e
                e = e * lg
        out = [s[0].log()]
        if order >= 1:
            m1 = s[1] / s[0]
            out.append(m1)
        if order >= 2:
            m2 = s[2] / s[0]
            out.append(m2 - m1 * m1)
        if order >= 3:
            out.append(s[3] / s[0] - 3 * m1 * m2 + 2 * m1 * m1 * m1)
        return out

    def _kl(self):
        from flint import arb

        return sum((a * lg for a, lg in self._ln()), arb(0))

    def _f(self, beta: Fraction):
        b = ball(beta)
        return self._moments(b, 0)[0] / (b * (1 + b))

    def _n(self, beta: Fraction):
        """``N(beta)`` and ``N'(beta)``."""
        b = ball(beta)
        k, k1, k2 = self._moments(b, 2)
        h, hp = b * (1 + b), 1 + 2 * b
        return k1 * h - k * hp, k2 * h - 2 * k

    # ---- certificates
    def _below(self, c, boxes: list[tuple[Fraction, Fraction]], kl_limit: bool, most: int = MAX_BOXES) -> bool:
        """``phi_c <= 0`` on every interval of ``boxes`` (``c`` a ball; ``kl_limit``: ``c`` is ``KL``, so
        ``phi_c(0) = phi_c'(0) = 0`` exactly)."""
        from flint import arb

        stack, spent = list(reversed(boxes)), 0
        while stack:
            a, b = stack.pop()
            spent += 1
            if spent > most:
                return False
            if a == 0:
                value, slope = arb(0), arb(0) if kl_limit else self._kl() - c
            else:
                ba = ball(a)
                k, k1 = self._moments(ba, 1)
                value, slope = k - c * ba * (1 + ba), k1 - c * (1 + 2 * ba)
            mid, r = (a + b) / 2, (b - a) / 2
            k2 = self._moments(ball(mid), 2)[2]
            k3 = self._moments(ball(a).union(ball(b)), 3)[3]
            curv = k2 + k3 * ball(r).union(ball(-r)) - 2 * c
            if self._quadratic_nonpositive(value, slope, curv, b - a):
                continue
            if b - a < Fraction(1, 2**60) * max(b, Fraction(1)):
                return False
            cut = (a + b) / 2 if a == 0 or b < 4 * a else Fraction(math.isqrt(int(a * b * 2**40) + 1), 2**20)
            cut = cut if a < cut < b else (a + b) / 2
            stack += [(cut, b), (a, cut)]
        return True

    @staticmethod
    def _quadratic_nonpositive(value, slope, curv, width: Fraction) -> bool:
        """Whether ``value + slope t + curv t^2 / 2 <= 0`` for every ``t`` in ``[0, width]`` and every point of
        the balls, certainly (``arb``'s comparisons): at the ends, and at the vertex when ``curv < 0`` and it
        may lie inside (the vertex's value bounds a concave quadratic everywhere)."""
        from flint import arb

        if not (value.is_finite() and slope.is_finite() and curv.is_finite()):
            return False
        v, s, c = value.upper(), slope.upper(), curv.upper()
        w = arb(rational(width))
        if c < 0:
            t = -s / c
            if not (t <= 0 or t >= w):
                return bool(v - s * s / (2 * c) <= 0)
        return bool(v <= 0 and v + s * w + c * w * w / 2 <= 0)

    def _certify(self) -> None:
        """Decide the kind of the supremum (class docstring), once, at :data:`CERTIFY_BITS`."""
        with working_precision(CERTIFY_BITS):
            kl = self._kl()
            kl_lo = interval(kl)[0]
            grid, vals, err = self._screen()
            at = int(np.argmax(vals))
            if kl_lo > 0 and (at == 0 or vals[at] - err[at] <= float(kl_lo) * (1 + 1e-12)):
                if self._below(kl, [(Fraction(0), self._tail(kl_lo))], True):
                    self.kind = "kl"
                    return
            if 0 < at < len(grid) - 1 and self._interior(grid[at - 1], grid[at], grid[at + 1]):
                self.kind = "interior"
                return
            # the floats could not place the maximum (rows so close that f is flat to their precision):
            # f - KL on the same grid in ball arithmetic
            diffs = [float((self._f(b) - kl).mid()) for b in grid]
            at2 = int(np.argmax(diffs))
            self._points.append(grid[at2])
            if at2 != at and 0 < at2 < len(grid) - 1 and self._interior(grid[at2 - 1], grid[at2], grid[at2 + 1]):
                self.kind = "interior"
                return
        self.kind = "squeeze"

    def _tail(self, c: Fraction) -> Fraction:
        """``B`` with ``f(beta) <= D_inf / (1 + beta) <= c`` for ``beta >= B``."""
        return max(Fraction(1, 2**20), self._dinf / c - 1)

    def _screen(self) -> tuple[list[Fraction], np.ndarray, np.ndarray]:
        """``f`` in floats on a log-spaced grid of ``beta`` (``expm1``/``log1p`` near 0, log-sum-exp beyond),
        and an estimate of each value's rounding error (the sums' terms are much larger than ``f`` when
        ``P`` and ``R`` are close); only which kind to try first depends on them."""
        a = np.array([float(x) for x, _ in self.terms])
        lg = np.array([float(ball(r).log().mid()) for _, r in self.terms])
        kl = float(a @ lg)
        top = max(2.0, float(self._dinf) / kl if kl > 0 else 2.0**40)
        betas = np.geomspace(2.0**-30, min(top, 2.0**60), 600)
        x = betas[:, None] * lg[None, :]
        with np.errstate(over="ignore", invalid="ignore"):
            small = np.abs(x).max(axis=1) < 1
            k_small = np.log1p((a * np.expm1(np.where(small[:, None], x, 0.0))).sum(axis=1))
            mx = x.max(axis=1)
            k_big = mx + np.log((a * np.exp(x - mx[:, None])).sum(axis=1))
            k = np.where(small, k_small, k_big)
            h = betas * (1 + betas)
            vals = k / h
            scale = np.where(small, (a * np.abs(np.expm1(np.where(small[:, None], x, 0.0)))).sum(axis=1),
                             np.abs(mx) + 1)
            err = 1e-14 * (scale + np.abs(k)) / h
        return [Fraction(float(b)) for b in betas], np.nan_to_num(vals, nan=-np.inf), np.nan_to_num(err, nan=np.inf)

    def _interior(self, left: Fraction, b0: Fraction, right: Fraction) -> bool:
        """The interior certificate (class docstring) around the screened maximum ``b0``."""
        root = self._newton(b0, left, right, CERTIFY_BITS)
        if root is None:
            return False
        b0 = root
        self._points.append(root)
        c = interval(self._f(b0))[0]
        w = b0 / 2
        for _ in range(24):
            lo, hi = b0 - w, b0 + w
            m = self._slope_bound(lo, hi)
            if m is not None and interval(self._n(lo)[0])[0] > 0 and interval(self._n(hi)[0])[1] < 0:
                break
            w /= 2
        else:
            return False
        if not self._below(ball(c), [(Fraction(0), lo), (hi, max(hi, self._tail(c)))], False):
            return False
        self._j, self._m, self._b0 = (lo, hi), m, b0
        return True

    def _slope_bound(self, lo: Fraction, hi: Fraction, pieces: int = 8) -> Fraction | None:
        """``min |N'|`` on ``[lo, hi]`` when ``N' < 0`` there is certified (centred forms on pieces), else None."""
        best = None
        step = (hi - lo) / pieces
        for i in range(pieces):
            a, b = lo + i * step, lo + (i + 1) * step
            mid, r = (a + b) / 2, step / 2
            npr = self._n(mid)[1]
            box = ball(a).union(ball(b))
            k, k1, k2, k3 = self._moments(box, 3)
            h, hp = box * (1 + box), 1 + 2 * box
            second = k3 * h + k2 * hp - 2 * k1  # N''
            up = interval(npr + second * ball(r).union(ball(-r)))[1]
            if not up < 0:
                return None
            best = -up if best is None else min(best, -up)
        return best

    def _newton(self, b: Fraction, left: Fraction, right: Fraction, prec: int) -> Fraction | None:
        """A root of ``N`` in ``[left, right]`` to about ``2^-prec``: bisection safeguarding Newton's method."""
        with working_precision(prec):
            n_left = interval(self._n(left)[0])
            n_right = interval(self._n(right)[0])
            if not (n_left[0] > 0 and n_right[1] < 0):
                return None
            for _ in range(4 * prec):
                n, npr = self._n(b)
                nv, dv = interval(n), interval(npr)
                if nv[0] > 0:
                    left = b
                elif nv[1] < 0:
                    right = b
                else:
                    return b
                mid_n = (nv[0] + nv[1]) / 2
                mid_d = (dv[0] + dv[1]) / 2
                step = b - mid_n / mid_d if mid_d < 0 else None
                b = step if step is not None and left < step < right else (left + right) / 2
                b = _shorten(b, prec + 16)
                if right - left < Fraction(1, 2 ** (prec + 8)) * max(b, Fraction(1)):
                    return b
        return b

    # ---- enclosures
    def _squeeze(self, bits: int) -> tuple[Fraction, Fraction]:
        """Neither certificate: the best lower bound found (``KL``, ``f`` at the best points) and
        ``phi_c <= 0`` shown for ``c`` that bound plus ``2^-bits max(1, bound)``; the branch and bound
        :func:`_rho_bisect` if that fails (rows so close that ``f`` is flat to the working precision
        and its maximum interior come here: the Taylor boxes resolve what the slope test cannot)."""
        with working_precision(max(CERTIFY_BITS, 2 * bits + 64)):
            lows = [interval(self._kl())[0]] + [interval(self._f(b))[0] for b in self._points]
            low = max(lows)
            if low > 0:
                c = low + Fraction(1, 2**bits) * max(Fraction(1), low)
                if self._below(ball(c), [(Fraction(0), max(Fraction(1, 2**20), self._tail(c)))], False):
                    return low, c
        return _rho_bisect(self.p, self.q, bits)

    def enclose(self, bits: int) -> tuple[Fraction, Fraction]:
        """``(lower, upper)`` containing ``rho(P || R)``, at most ``2^-bits`` wide (relative to ``max(1, rho)``)."""
        if self.kind == "kl":
            with working_precision(bits + 32):
                return interval(self._kl())
        if self.kind == "squeeze":
            return self._squeeze(bits)
        prec = bits + 64
        lo_j, hi_j = self._j
        if prec not in self._beta:
            start = self._beta[max(self._beta)] if self._beta else self._b0
            b = self._newton(start, lo_j, hi_j, prec)
            self._beta[prec] = b if b is not None and lo_j <= b <= hi_j else self._b0
        b = self._beta[prec]
        with working_precision(prec):
            f = interval(self._f(b))
            n = interval(self._n(b)[0])
            bb = ball(lo_j)
            h_min = interval(bb * (1 + bb))[0]
            gap = max(abs(n[0]), abs(n[1])) ** 2 / (self._m * h_min * h_min)
        return f[0], f[1] + gap


def _shorten(x: Fraction, bits: int) -> Fraction:
    """``x`` rounded to a dyadic of about ``bits`` significant bits (keeps Newton's iterates short)."""
    if x == 0:
        return x
    e = bits - (x.numerator.bit_length() - x.denominator.bit_length())
    return Fraction(round(x * 2**e), 2**e) if e >= 0 else Fraction(round(x / 2**-e) * 2**-e)


def rho_pair(p, q, bits: int) -> tuple[Fraction, Fraction]:
    """An enclosure of ``sup_{alpha > 1} D_alpha(P || R) / alpha`` for rows with equal supports, ``P != R``.

    :class:`RhoPair`'s certified enclosure, about ``2^-bits`` wide.

    Parameters
    ----------
    p, q : sequence of Fraction
        The rows ``P`` and ``R``.
    bits : int
        Target width ``2**-bits``.

    Returns
    -------
    tuple of Fraction
        ``(lower, upper)``.

    Examples
    --------
    >>> F = Fraction
    >>> lo, hi = rho_pair([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)], 30)
    >>> hi - lo <= F(1, 2**30), round(float(lo), 9)
    (True, 0.549306144)
    """
    return RhoPair(p, q).enclose(bits)


def _rho_bisect(p, q, bits: int) -> tuple[Fraction, Fraction]:
    """The fallback enclosure of ``sup_{alpha > 1} D_alpha(P || R) / alpha`` (rows with equal supports, ``P != R``).

    A branch and bound over ``alpha`` (the module docstring's last paragraph); the working effort grows with ``bits`` (at most
    256), aiming at width ``2**-bits``, and the enclosure is returned as it is when the effort is
    spent.

    Parameters and returns as for :func:`rho_pair`.

    Examples
    --------
    >>> F = Fraction
    >>> p, q = [F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]
    >>> lo, hi = _rho_bisect(p, q, 30)
    >>> hi - lo <= F(1, 2**30), lo <= rho_pair(p, q, 30)[1] and rho_pair(p, q, 30)[0] <= hi
    (True, True)
    """
    from flint import arb

    effort = min(bits, 256)
    target = Fraction(1, 2**effort)
    with working_precision(2 * effort + 80):
        terms = [(rational(a), ball(a / b).log()) for a, b in zip(p, q) if a]

        def sums(am1, derivative=0):
            s, s1, s2 = arb(0), arb(0), arb(0)
            for a, lg in terms:
                e = a * (am1 * lg).exp()
                s += e
                if derivative:
                    s1 += e * lg
                    s2 += e * lg * lg
            return s, s1, s2

        def f_at(alpha: Fraction):
            am1 = arb(rational(alpha - 1))
            return sums(am1)[0].log() / (arb(rational(alpha)) * am1)

        def d_upper(alpha: Fraction) -> Fraction:
            am1 = arb(rational(alpha - 1))
            return interval(sums(am1)[0].log() / am1)[1]

        def bounds(a: Fraction, b: Fraction) -> tuple[Fraction, Fraction]:
            m = (a + b) / 2
            fm = f_at(m)
            best = d_upper(b) / a  # D nondecreasing in alpha
            # Taylor: D_{1+beta} = KL + beta V(xi) / 2, V the variance of ln(P/R) tilted by xi in [0, beta]
            s, s1, s2 = sums(arb(0).union(arb(rational(b - 1))), 1)
            v = s2 / s - (s1 / s) ** 2
            if v.is_finite():
                c = interval(v)[1] / 2
                best = min(best, max((kl_hi + beta * c) / (1 + beta) for beta in (a - 1, b - 1)))
            if a > 1:  # mean-value form with f' in ball arithmetic
                al = arb(rational(a)).union(arb(rational(b)))
                s, s1, _ = sums(al - 1, 1)
                h = al * (al - 1)
                fp = (s1 / s * h - s.log() * (2 * al - 1)) / (h * h)
                r = arb(rational(-(b - a) / 2)).union(arb(rational((b - a) / 2)))
                u2 = fm + fp * r
                if u2.is_finite():
                    best = min(best, interval(u2)[1])
            return interval(fm)[0], best

        lower, kl_hi = interval(sum((a * lg for a, lg in terms), arb(0)))
        dinf = interval(ball(max(a / b for a, b in zip(p, q) if a)).log())[1]
        cap = Fraction(2 ** (effort + 8))
        big = min(cap, max(Fraction(2), Fraction(math.ceil(dinf / lower)) + 1)) if lower > 0 else cap
        tail = dinf / big
        lo0, up0 = bounds(Fraction(1), big)
        lower = max(lower, lo0)
        heap = [(-up0, Fraction(1), big)]
        budget = 60 + 12 * effort
        while heap and budget > 0:
            up, a, b = -heap[0][0], heap[0][1], heap[0][2]
            if up - lower <= target:
                break
            heapq.heappop(heap)
            if up < lower:
                continue
            if a == 1:
                mid = 1 + (b - 1) / 8
            elif b - 1 > 4 * (a - 1):
                e = (math.log2(a - 1) + math.log2(b - 1)) / 2
                mid = 1 + Fraction(2) ** round(e)
                mid = mid if a < mid < b else (a + b) / 2
            else:
                mid = (a + b) / 2
            for c, d in ((a, mid), (mid, b)):
                lo_c, up_c = bounds(c, d)
                budget -= 1
                lower = max(lower, lo_c)
                if up_c >= lower:
                    heapq.heappush(heap, (-up_c, c, d))
        upper = max([lower, tail] + [-u for u, _, _ in heap])
    return lower, upper


def rho(mech: Mechanism, *, name: str = "rho") -> NotionResult:
    """Zero-concentrated DP: the smallest ``rho`` with ``D_alpha <= rho alpha`` for every ``alpha > 1``.

    Parameters as for :func:`relations.measures._renyi.renyi`.

    Returns
    -------
    NotionResult
        A certified enclosure (branch and bound, module docstring), ``inf`` when two
        neighbours' supports differ, ``0`` when every neighbour pair has equal rows.

    References
    ----------
    .. [1] Bun, Steinke. Concentrated Differential Privacy: Simplifications, Extensions, and
       Lower Bounds. TCC 2016, LNCS 9985, pp. 635-658. doi:10.1007/978-3-662-53641-4_24

    Examples
    --------
    Binary randomized response with ratio 3 is ``ln 3``-DP, so ``rho <= (ln 3)^2 / 2 = 0.6035``;
    the supremum is the limit ``KL = (1/2) ln 3`` at ``alpha -> 1``:

    >>> from relations.mechanisms import randomized_response
    >>> lo, hi = rho(randomized_response(3)).value.enclose(40)
    >>> float(lo), hi - lo < Fraction(1, 2**40)
    (0.5493061443340549, True)
    """
    if not mech.exact:
        return _float_rho(mech, name)
    distinct, done = divergence_pairs(mech, name, infinite=_mismatch)
    if done:
        return done
    keep = _candidates(distinct)
    curves, fns = _curves(keep)
    certified = [c for c in curves if c.kind]

    def tie(other):
        if _is_zero(other):
            return 1
        # rho = max KL over the searched pairs when each certified pair's supremum is its limit at alpha -> 1
        # (a pair shown below a certified one's lower bound has KL <= its rho <= that pair's)
        return max_kl_sign(keep, other) if all(c.kind == "kl" for c in certified) else None

    def forms():  # rho = max KL over the searched pairs: their forms, under the same condition
        return [_kl_form(p) for p in keep] if all(c.kind == "kl" for c in certified) else None

    expr, at = max_expr("rho", fns, tie, forms if len(keep) <= MAX_FORM_PAIRS else None)
    return NotionResult(name, expr, keep[at].witness)


def _curves(keep: list[Pair]) -> tuple[list[RhoPair], list]:
    """The :class:`RhoPair` of each pair and its enclosure function, the pairs taken by decreasing float
    screen: each is first tried against the largest certified lower bound so far (``bounded_by``); one
    below it is not certified further and encloses as ``[0, bound]`` (its ``rho`` is in it, and the
    maximum is not changed by it)."""
    curves = [RhoPair(p.p, p.q, certify=False) for p in keep]
    fns: list = [c.enclose for c in curves]
    if len(curves) == 1:
        curves[0].certify()
        return curves, fns
    order = sorted(range(len(curves)), key=lambda i: -curves[i].estimate())
    best: Fraction | None = None
    for i in order:
        c = curves[i]
        if best is not None and best > 0 and c.bounded_by(best):
            fns[i] = (lambda b: lambda bits: (Fraction(0), b))(best)
            continue
        c.certify()
        lo = c.enclose(64)[0]
        best = lo if best is None else max(best, lo)
    return curves, fns


def rho_is_kl(p, q, *, bits: int = 96, max_boxes: int = 4000) -> bool:
    """Whether ``sup_{alpha > 1} D_alpha(P || R) / alpha`` is certified to be ``KL = D(P || R)``.

    With ``K(beta) = ln sum_y P_y (P_y/R_y)^beta``, ``D_{1+beta} = K(beta)/beta = KL + beta V(xi)/2``
    for some ``xi`` in ``[0, beta]`` (``V`` the variance of ``ln(P/R)`` under the tilted ``P``), so
    ``f(1 + beta) = D_{1+beta}/(1 + beta) < KL`` on ``(0, b]`` as soon as ``sup V/2 < KL`` there;
    beyond ``1 + b`` a branch and bound shows ``f < KL`` (``f <= D_inf/alpha`` past
    ``D_inf/KL``).  Then the supremum is the limit ``KL`` at ``alpha -> 1``, not attained.  False
    means "not certified" (a pair whose supremum is attained above ``1``, or the effort spent).
    :class:`RhoPair`'s certificate (``phi_KL <= 0``) is tried first; this one after it.

    Parameters
    ----------
    p, q : sequence of Fraction
        Rows with equal supports, ``P != R``.
    bits : int, optional
        Working precision.
    max_boxes : int, optional
        Most intervals of ``alpha`` examined.

    Returns
    -------
    bool

    Examples
    --------
    Binary randomized response: ``V/2 = (3/8)(ln 3)^2 < KL = (1/2) ln 3`` at ratio 3:

    >>> F = Fraction
    >>> rho_is_kl([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)])
    True
    """
    from flint import arb

    if RhoPair(p, q).kind == "kl":  # phi_KL <= 0 certified (RhoPair)
        return True
    with working_precision(bits):
        terms = [(rational(a), ball(a / b).log()) for a, b in zip(p, q) if a]

        def sums(beta):
            s = s1 = s2 = arb(0)
            for a, lg in terms:
                e = a * (beta * lg).exp()
                s, s1, s2 = s + e, s1 + e * lg, s2 + e * lg * lg
            return s, s1, s2

        def half_variance(top: Fraction):
            s, s1, s2 = sums(arb(0).union(arb(rational(top))))
            v = s2 / s - (s1 / s) ** 2
            return interval(v)[1] / 2 if v.is_finite() else None

        kl_lo = interval(sum((a * lg for a, lg in terms), arb(0)))[0]
        if kl_lo <= 0:
            return False
        b = Fraction(1, 4)
        while (c := half_variance(b)) is None or c >= kl_lo:
            b /= 2
            if b < Fraction(1, 2**20):
                return False
        dinf = interval(ball(max(a / b_ for a, b_ in zip(p, q) if a)).log())[1]
        big = Fraction(math.floor(dinf / kl_lo) + 2)  # f(alpha) <= D_inf / alpha < KL beyond it
        stack, boxes = [(1 + b, big)], 0
        while stack:
            lo, hi = stack.pop()
            d_hi = interval(sums(arb(rational(hi - 1)))[0].log() / arb(rational(hi - 1)))[1]
            if d_hi / lo < kl_lo:  # D_alpha is nondecreasing in alpha
                continue
            boxes += 1
            if boxes > max_boxes:
                return False
            mid = (lo + hi) / 2
            stack += [(lo, mid), (mid, hi)]
    return True


def _candidates(distinct: list[Pair]) -> list[Pair]:
    """The pairs whose upper bound ``min(eps^2/2, D_inf)`` reaches the largest ``KL`` lower bound."""
    lows, ups = [], []
    with working_precision(80):
        for pair in distinct:
            logs = [ball(a / b).log() for a, b in zip(pair.p, pair.q) if a and b]
            lows.append(interval(sum((rational(a) * ball(a / b).log() for a, b in zip(pair.p, pair.q) if a),
                                     ball(Fraction(0))))[0])
            eps = max(max(abs(interval(lg)[0]), abs(interval(lg)[1])) for lg in logs)
            dinf = max(interval(lg)[1] for lg in logs)
            ups.append(min(eps * eps / 2, dinf) * (1 + Fraction(1, 2**40)))
    best = max(lows)
    return [pair for pair, up in zip(distinct, ups) if up >= best]


def _float_rho(mech: Mechanism, name: str) -> NotionResult:
    """Float mode: the branch and bound at 40 bits on the binary values of the candidate pairs."""
    vals, pairs = _float_divergences(mech, None)
    if len(pairs) == 0:
        return NotionResult(name, Rational(Fraction(0)))
    if np.isinf(vals).any():
        i = int(np.argmax(vals))
        return NotionResult(name, inf(), lift(mech, *pairs[i].tolist()))
    a, _ = float_rows(mech)
    with np.errstate(divide="ignore", invalid="ignore"):
        lr = np.log(a[pairs[:, 0]] / a[pairs[:, 1]])
        lr = np.where(np.isfinite(lr), lr, 0.0)
    up = np.minimum(np.abs(lr).max(axis=1) ** 2 / 2, lr.max(axis=1))
    chosen = pairs[up >= vals.max() * (1 - 1e-6)]
    distinct, same = row_pairs(mech, pairs=chosen)
    if not distinct:
        return NotionResult(name, Rational(Fraction(0)), same.witness if same else None)
    curves = [(RhoPair([Fraction(v) for v in p.p], [Fraction(v) for v in p.q]), p) for p in distinct]
    (_, pair), _ = max(((c, c[0].enclose(64)) for c in curves), key=lambda t: t[1][0])

    def enclose(bits: int) -> tuple[Fraction, Fraction]:
        ends = [c.enclose(bits) for c, _ in curves]
        return max(lo for lo, _ in ends), max(hi for _, hi in ends)

    value = nearest_double(enclose)
    if value is None:  # not reached for an irrational rho: the enclosures' midpoint
        lo, hi = enclose(128)
        value = display_float((lo + hi) / 2)
    return NotionResult(name, Rational(Fraction(value)), pair.witness)
