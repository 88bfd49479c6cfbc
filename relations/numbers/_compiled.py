"""Compiled float kernels (numba): one fused pass over a large float matrix, no temporary arrays.

Imported only by :func:`relations.numbers._kernels.compiled`, and only when numba is installed (the
``fast`` extra); everything here has a numpy twin in the modules that use it, which gives the same
numbers up to float rounding (tests/test_kernels.py compares the two).

* :func:`xlogx_rows` -- ``sum_x p(x) sum_y Q ln Q`` and ``P(y) += p(x) Q[x][y]`` in one read of ``Q``
  (the float mutual information of :func:`~relations.measures._information.mutual_information_float`);
* :func:`column_extrema` -- the largest and smallest entry of each column of ``p(x) Q[x][y]`` (or of
  ``Q``) in one read (float ``eps_d``/``eps_i`` over local inputs);
* :func:`row_sum_bits` -- the exact sum of each row of a non-negative float matrix, as its binary
  digits (the exact channel of a float array, :func:`~relations.model._scaled.exact_row_sums`);
* :func:`scaled_rows` -- the same sums for rows whose positive entries span at most 64 binades, in
  vectorised integer arithmetic, with each sum correctly rounded and the float copy ``a[x] / fl(s[x])``
  written while the row is in cache (the exact channel of a float array in one read,
  :func:`~relations.model._scaled.checked_scaled_rows`).

The logarithm is written here (numba's ``np.log`` calls libm once per entry and does not vectorise
without Intel's SVML): ``x = 2^k m`` with ``m`` in ``[sqrt(1/2), sqrt(2))`` (an integer addition to the
bits of ``x`` moves the mantissas below ``sqrt(1/2)`` up one binade, no compare), ``s = (m - 1) / (m + 1)``,
``ln m = 2 atanh(s) = s (2 + Lg1 s^2 + ... + Lg7 s^14)`` with fdlibm's minimax coefficients (``|s| <=
0.1716``: error below ``2^-58.45``; seven terms where the Taylor series needs ten), and ``k ln 2 + ln m``
in one fused multiply-add.  It is within 4 units in the last place of ``numpy.log`` on normal floats
(tests/test_kernels.py checks it; 3 seen, as with the ten Taylor terms and ``ln 2`` in two parts before).
A float result of these kernels is a screening value, never a verdict.
"""

from __future__ import annotations

import numpy as np

try:
    import numba
    from llvmlite import ir
    from numba import types
    from numba.extending import intrinsic
except ImportError:  # pragma: no cover - the numpy twins are used
    numba = None

__all__ = ["AVAILABLE", "xlogx_rows", "column_extrema", "row_sum_bits", "scaled_rows", "log_floats"]

#: numba is installed (the kernels below exist).
AVAILABLE = numba is not None

_LN2 = 0.6931471805599453  # ln 2 rounded: k * _LN2 is within 2^-54 of k ln 2 (relative)
_TINY = 2.2250738585072014e-308  # the least normal float
_SQRT_HALF = 0x3FE6A09E667F3BCD  # the bits of sqrt(1/2)
_OFFSET = 0x3FF0000000000000 - _SQRT_HALF  # added to the bits: the mantissas in [sqrt(1/2), 1) move up a binade
# fdlibm's minimax coefficients (e_log.c): 2 atanh(s) = s (2 + _LG1 s^2 + ... + _LG7 s^14), error < 2^-58.45
_LG1, _LG2, _LG3, _LG4, _LG5, _LG6, _LG7 = (
    6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01, 2.222219843214978396e-01,
    1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01)
#: Contraction and reassociation only: zeros and infinities keep their IEEE meaning (no ``nnan``/``ninf``).
_FAST = {"contract", "reassoc", "nsz", "arcp"}

if numba is not None:

    @intrinsic
    def _as_float(typingctx, bits):
        """The float64 whose bits are the int64 ``bits``."""
        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], ir.DoubleType())
        return types.float64(types.int64), codegen

    @intrinsic
    def _as_int(typingctx, value):
        """The bits of the float64 ``value`` as an int64."""
        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], ir.IntType(64))
        return types.int64(types.float64), codegen

    @numba.njit(inline="always", fastmath=_FAST, cache=True)
    def _ln(x):  # pragma: no cover - compiled
        """``ln x`` of a positive normal float (vectorises: no call, no table, no branch)."""
        b = _as_int(x) + _OFFSET
        k = float((b >> 52) - 1023)
        f = _as_float((b & 0xFFFFFFFFFFFFF) + _SQRT_HALF) - 1.0  # m - 1, exact
        s = f / (2.0 + f)
        z = s * s
        return k * _LN2 + s * (2.0 + z * (_LG1 + z * (_LG2 + z * (_LG3 + z * (_LG4 + z * (_LG5 + z * (_LG6 + z * _LG7)))))))

    @numba.njit(nogil=True, fastmath=_FAST, error_model="numpy", boundscheck=False, cache=True)
    def log_floats(a, out):  # pragma: no cover - compiled
        """``out = ln a`` for positive normal floats (the logarithm of the kernels, for tests)."""
        for i in range(a.size):
            out[i] = _ln(a[i])

    @numba.njit(nogil=True, fastmath=_FAST, error_model="numpy", boundscheck=False, cache=True)
    def xlogx_rows(q, p, py):  # pragma: no cover - compiled
        """``sum_x p[x] sum_y q ln q`` (``0 ln 0 = 0``; subnormal entries count 0), adding ``p[x] q[x]`` to ``py``.

        One row at a time (measured on 4096 x 4096 and 8192 x 8192: two or four rows at a time, sharing the
        update of ``py``, ran out of vector registers and were no faster).  An entry below the least normal
        float is read as 1 (``1 ln 1 = 0``): one select per entry, before the logarithm, which never sees a
        zero, a subnormal, a negative number or a NaN."""
        n, m = q.shape
        total = 0.0
        for x in range(n):
            px = p[x]
            s = 0.0
            for y in range(m):
                v = q[x, y]
                py[y] += px * v
                u = v if v >= _TINY else 1.0
                s += u * _ln(u)
            total += px * s
        return total

    @numba.njit(nogil=True, fastmath=_FAST, error_model="numpy", boundscheck=False, cache=True)
    def column_extrema(q, p, mx, mn):  # pragma: no cover - compiled
        """``mx[y] = max_x p[x] q[x, y]``, ``mn[y] = min_x p[x] q[x, y]`` (``p`` of length 0: ``q`` alone)."""
        n, m = q.shape
        scaled = p.size > 0
        for y in range(m):
            v = q[0, y] * p[0] if scaled else q[0, y]
            mx[y] = v
            mn[y] = v
        for x in range(1, n):
            px = p[x] if scaled else 1.0
            for y in range(m):
                v = q[x, y] * px if scaled else q[x, y]
                mx[y] = max(mx[y], v)
                mn[y] = min(mn[y], v)

    @numba.njit(nogil=True, boundscheck=False, cache=True)
    def row_sum_bits(a, out):  # pragma: no cover - compiled
        """The exact sum of each row of the non-negative finite float matrix ``a``, in units of ``2^-1074``,
        as little-endian bytes in ``out[x]`` (``out`` zeroed, ``(n, 272)``; rows of at most ``2^26`` entries).
        Returns ``(least, bad)``: the least biased exponent of a positive entry (2047 if none; every
        positive entry is at least ``2^-1021``, twice the least normal float, when it is at least 2), and
        whether an entry is negative (``-0.0`` included), infinite or NaN (the sums are then meaningless).

        An entry of biased exponent ``e`` and mantissa bits ``F`` is ``(F + 2^52) 2^(e - 1075)`` (``e >= 1``)
        or ``F 2^-1074`` (``e = 0``); ``F + 2^52`` goes to a counter of exponent ``e`` in one of four sets
        (by column modulo 4, so that consecutive entries of one exponent do not wait for each other), and
        the ``2^52`` wrongly added for each ``e = 0`` entry is taken off once.  Every 4096 columns (at most
        1024 additions of ``< 2^53`` per counter) the counters of the row's exponent range go into sums of
        their 32-bit halves, carried into binary digits at the end of the row.
        """
        n, m = a.shape
        counts = np.zeros(4 * 2048, np.int64)
        low = np.zeros(2048, np.int64)
        high = np.zeros(2048, np.int64)
        least = 2047
        worst = np.uint64(0)
        for x in range(n):
            top = np.uint64(0)  # the largest bits as unsigned: a negative entry or a NaN/inf makes it >= 0x7FF0...
            bottom = np.uint64(0xFFFFFFFFFFFFFFFF)  # least (bits - 1) as unsigned: zeros never count
            zeros = np.int64(0)
            for c0 in range(0, m, 4096):
                c1 = min(m, c0 + 4096)
                for y in range(c0, c1 - 3, 4):
                    for u in range(4):
                        bits = _as_int(a[x, y + u])
                        counts[(u << 11) + ((bits >> 52) & 0x7FF)] += (bits & 0xFFFFFFFFFFFFF) | 0x10000000000000
                        top = max(top, np.uint64(bits))
                        bottom = min(bottom, np.uint64(bits) - np.uint64(1))
                        zeros += bits < 0x10000000000000
                for y in range(c1 - (c1 - c0) % 4, c1):
                    bits = _as_int(a[x, y])
                    counts[((y & 3) << 11) + ((bits >> 52) & 0x7FF)] += (bits & 0xFFFFFFFFFFFFF) | 0x10000000000000
                    top = max(top, np.uint64(bits))
                    bottom = min(bottom, np.uint64(bits) - np.uint64(1))
                    zeros += bits < 0x10000000000000
                first = 0 if bottom == np.uint64(0xFFFFFFFFFFFFFFFF) else np.int64((bottom + np.uint64(1)) >> np.uint64(52))
                last = np.int64(min(top >> np.uint64(52), np.uint64(2047)))
                for k in range(0, 4 * 2048, 2048):  # exponent 0: the zeros' counters
                    low[0] += counts[k] & 0xFFFFFFFF
                    high[0] += counts[k] >> 32
                    counts[k] = 0
                for e in range(max(first, 1), last + 1):
                    for k in range(e, 4 * 2048, 2048):
                        low[e] += counts[k] & 0xFFFFFFFF
                        high[e] += counts[k] >> 32
                        counts[k] = 0
            first = 2047 if bottom == np.uint64(0xFFFFFFFFFFFFFFFF) else np.int64((bottom + np.uint64(1)) >> np.uint64(52))
            least = min(least, first)
            high[0] -= zeros << 20  # the 2^52 = 2^20 2^32 added for each entry of exponent 0
            low[1] += low[0]  # exponents 0 and 1 have one unit, 2^-1074
            high[1] += high[0]
            low[0] = high[0] = 0
            worst = max(worst, top)
            last = max(np.int64(min(top >> np.uint64(52), np.uint64(2047))), 1)
            carry = np.int64(0)
            for i in range(max(first, 1) - 1, last + 80):  # digit i: exponent i + 1; the carry (< 2^50) is spent 50 digits on
                c = carry
                if i + 1 <= last:
                    c += low[i + 1]
                    low[i + 1] = 0
                if 32 <= i and i - 31 <= last:
                    c += high[i - 31]
                    high[i - 31] = 0
                if c & 1:
                    out[x, i >> 3] |= np.uint8(1 << (i & 7))
                carry = c >> 1
        return least, worst >= np.uint64(0x7FF0000000000000)

    @numba.njit(inline="always", cache=True)
    def _row_counts(a, x, big):  # pragma: no cover - compiled
        """The four counters of ``sum M 2^(64 - d)`` over row ``x``, ``d = big - e`` clamped to ``[0, 63]``
        (exact when every positive entry has ``0 <= d <= 63``)."""
        low32 = np.uint64(0xFFFFFFFF)
        c0 = c1 = c2 = c3 = np.uint64(0)
        for y in range(a.shape[1]):
            bits = _as_int(a[x, y])
            e = bits >> 52
            mant = np.uint64((bits & 0xFFFFFFFFFFFFF) | (0x10000000000000 if e > 0 else 0))
            d = np.uint64(min(max(big - max(e, 1), 0), 63))  # zeros: any shift, M = 0
            high = mant >> d
            low = (mant << np.uint64(1)) << (np.uint64(63) - d)
            c0 += low & low32
            c1 += low >> np.uint64(32)
            c2 += high & low32
            c3 += high >> np.uint64(32)
        return c0, c1, c2, c3

    @numba.njit(nogil=True, boundscheck=False, cache=True)
    def scaled_rows(a, words, shifts, sums, out):  # pragma: no cover - compiled
        """Exact row sums of the float matrix ``a`` where cheap, their floats, and the float copy.

        For each row ``x`` whose entries are non-negative, finite, not all zero, and whose positive entries
        lie within 64 binades of each other (the least biased exponent, taken as at least 1, at least the
        largest's minus 63): ``s[x] = T 2^(E - 1139)`` exactly, ``T`` the 192-bit integer whose little-endian
        64-bit words are ``words[x]``, ``E = shifts[x] + 65`` the row's largest biased exponent (at least 1); ``sums[x]`` is ``s[x]`` correctly rounded (ties to even; ``s[x]`` in the normal range)
        and ``out[x] = a[x] / sums[x]``, each quotient correctly rounded.  Other rows get
        ``shifts[x] = -1 << 40`` (``words``, ``sums`` and ``out`` are then not written): the caller sums them
        another way (:func:`row_sum_bits`).  Returns ``(least, bad)`` as :func:`row_sum_bits` does; when
        ``bad`` the work stopped at the offending row.

        An entry of biased exponent ``e`` and mantissa ``M`` (``M < 2^53``; ``e = 0`` counts as ``e = 1``
        without the hidden bit) is ``M 2^(e - 1075)``; with ``d = E - e`` (``0 <= d <= 63``), ``M 2^(64 - d)``
        is ``(M >> d) 2^64 + ((M << 1) << (63 - d)) mod 2^64`` exactly; the four 32-bit halves of the two
        parts are summed in four 64-bit counters (each term below ``2^32``: exact for rows of up to ``2^31``
        entries), carried into ``T`` at the end of the row.  The row is read twice, the second time from the cache: its
        extrema (measured: fusing the counters into that read is slower, the loop no longer vectorised), then
        the counters.  No
        ``fastmath``: the quotients are IEEE divisions, the same as numpy's ``a / s`` (a sum of exactly 1
        copies the row, the same numbers).
        """
        n, m = a.shape
        least = 2047
        low32 = np.uint64(0xFFFFFFFF)
        for x in range(n):
            top = np.int64(-1)
            bottom = np.int64(0x7FFFFFFFFFFFFFFF)  # a negative entry or -0.0 makes it < 0
            small = np.int64(0x7FFFFFFFFFFFFFFF)  # the least bits of a positive entry
            for y in range(m):
                bits = _as_int(a[x, y])
                top = max(top, bits)
                bottom = min(bottom, bits)
                small = min(small, bits if bits > 0 else np.int64(0x7FFFFFFFFFFFFFFF))
            if bottom < 0 or top >= 0x7FF0000000000000:
                return least, True
            least = min(least, small >> 52)
            big = max(top >> 52, 1)
            if top == 0 or max(small >> 52, 1) < big - 63:
                shifts[x] = -1 << 40
                continue
            c0, c1, c2, c3 = _row_counts(a, x, big)  # the row is in cache
            c1 += c0 >> np.uint64(32)
            w0 = (c0 & low32) | ((c1 & low32) << np.uint64(32))
            c2 += c1 >> np.uint64(32)
            c3 += c2 >> np.uint64(32)
            w1 = (c2 & low32) | ((c3 & low32) << np.uint64(32))
            w2 = c3 >> np.uint64(32)
            words[x, 0], words[x, 1], words[x, 2] = w0, w1, w2
            shifts[x] = big - 65
            # T rounded to 53 bits: its leading 64 bits, and whether any bit below them is set
            if w2 != 0:
                lead, rest, sticky, at = w2, w1, w0 != 0, 128
            elif w1 != 0:
                lead, rest, sticky, at = w1, w0, False, 64
            else:
                lead, rest, sticky, at = w0, np.uint64(0), False, 0
            lz = 0
            while lead < np.uint64(0x8000000000000000):  # lead > 0: a positive entry has d <= 63
                lead <<= np.uint64(1)
                lz += 1
            if lz > 0:
                lead |= rest >> np.uint64(64 - lz)
                rest <<= np.uint64(lz)
            sticky = sticky or rest != 0
            kept = lead >> np.uint64(11)
            dropped = lead & np.uint64(0x7FF)
            if dropped > 0x400 or (dropped == 0x400 and (sticky or (kept & np.uint64(1)) != 0)):
                kept += np.uint64(1)  # 2^53 at most: still exact as a float
            s = np.ldexp(np.float64(kept), at - lz + 11 + big - 1139)
            sums[x] = s
            if s == 1.0:
                for y in range(m):  # a loop, not ``out[x] = a[x]``: numba's slice assignment took 3 s to compile
                    out[x, y] = a[x, y]
            else:
                for y in range(m):
                    out[x, y] = a[x, y] / s
        return least, False

else:  # pragma: no cover
    xlogx_rows = column_extrema = row_sum_bits = scaled_rows = log_floats = None
