"""Exact signs of linear forms in logarithms of rationals: ``sum_i c_i ln(q_i)``.

Many of the tool's quantities are such forms with rational ``c_i`` and ``q_i``: a
Kullback-Leibler divergence ``sum_y P_y ln(P_y / R_y)``, the bound
``eps tanh(eps/2) = ((r - 1)/(r + 1)) ln r`` at ``eps = ln r``, ``ln(r)(r - 1)``.
Two of them can be *equal* (binary randomized response attains
``D = eps tanh(eps/2)``), and enclosures alone never decide a tie.

The zero test is exact.  Factor every ``q_i`` over a **coprime basis**
``b_1, ..., b_k`` (pairwise coprime integers ``> 1``, obtained by gcds alone [1]_, no
integer factorisation); then ``sum_i c_i ln q_i = sum_j e_j ln b_j`` with rational
``e_j``, and the ``ln b_j`` are linearly independent over the rationals (if
``prod b_j^(n_j) = 1`` with integers ``n_j``, the positive and the negative
exponents give two equal products of coprime numbers, so every ``n_j = 0``).
Hence the form is zero iff every ``e_j`` is zero.  A nonzero form is then separated
from zero by enclosures at rising precision (Baker's theory [2]_ bounds how close to zero
such a form can be).

References
----------
.. [1] Bach, Shallit. Algorithmic Number Theory, Vol. 1, MIT Press 1996, Section 4.8
   (gcd-free bases).
.. [2] Baker. Linear forms in the logarithms of algebraic numbers. Mathematika 13 (1966).
   doi:10.1112/S0025579300003971
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from fractions import Fraction

from relations.numbers._enclosure import ball, interval, rational, working_precision

__all__ = ["MAX_FORM_TERMS", "MAX_FORM_BITS", "coprime_basis", "log_form_sign", "form_difference"]

#: A form: ``((c_1, q_1), ..., (c_n, q_n))`` meaning ``sum c_i ln(q_i)``, ``q_i > 0``.
LogForm = tuple[tuple[Fraction, Fraction], ...]

#: Most terms of a form whose sign is decided exactly (beyond it: ``None``).
MAX_FORM_TERMS = 4096

#: Most bits in all numerators and denominators of a form decided exactly.
MAX_FORM_BITS = 1 << 20

_SEPARATE = (64, 256, 1024, 4096, 16384)


def coprime_basis(numbers: Iterable[int]) -> list[int]:
    """Pairwise coprime integers ``> 1`` over which every given positive integer factors.

    Parameters
    ----------
    numbers : iterable of int
        Positive integers.

    Returns
    -------
    list of int
        Sorted; every prime dividing one of ``numbers`` divides exactly one element.

    Examples
    --------
    >>> coprime_basis([12, 18])
    [2, 3]
    >>> coprime_basis([6, 35, 1])
    [6, 35]
    """
    basis: list[int] = []
    stack = [n for n in numbers if n > 1]
    while stack:
        x = stack.pop()
        if x == 1:
            continue
        for i, b in enumerate(basis):
            g = math.gcd(x, b)
            if g > 1:
                basis.pop(i)
                stack.extend((g, b // g, x // g))  # total size strictly decreases: terminates
                break
        else:
            basis.append(x)
    out: list[int] = []
    for b in sorted(basis):
        # A basis element may be a power of another's factor only through repeats; keep distinct.
        if not out or out[-1] != b:
            out.append(b)
    return out


def _exponents(n: int, basis: Sequence[int]) -> dict[int, int] | None:
    out = {}
    for b in basis:
        k = 0
        while n % b == 0:
            n //= b
            k += 1
        if k:
            out[b] = k
    return out if n == 1 else None


def form_difference(a: LogForm, b: LogForm) -> LogForm:
    """The form ``a - b``."""
    return tuple(a) + tuple((-c, q) for c, q in b)


def _reduced(form: LogForm) -> dict[int, Fraction] | None:
    """Coefficients on a coprime basis, or None when some number does not factor over it."""
    ints = set()
    for _, q in form:
        ints.add(q.numerator)
        ints.add(q.denominator)
    for _ in range(4):
        basis = coprime_basis(ints)
        coeffs: dict[int, Fraction] = defaultdict(Fraction)
        extra = set()
        for c, q in form:
            for part, sign in ((q.numerator, 1), (q.denominator, -1)):
                e = _exponents(part, basis)
                if e is None:
                    extra.add(part)
                    continue
                for base, k in e.items():
                    coeffs[base] += sign * k * c
        if not extra:
            return {b: c for b, c in coeffs.items() if c}
        ints |= set(basis) | extra
    return None


def log_form_sign(form: LogForm) -> int | None:
    """``sign(sum c_i ln q_i)`` exactly, or ``None`` beyond the documented size limits.

    Parameters
    ----------
    form : LogForm
        Pairs ``(c_i, q_i)`` of rationals with ``q_i > 0``.

    Returns
    -------
    int or None
        ``-1``, ``0`` or ``1``; ``None`` when the form has more than :data:`MAX_FORM_TERMS`
        terms or :data:`MAX_FORM_BITS` bits, or a nonzero form is not separated from 0 at
        16384 bits.

    Raises
    ------
    ValueError
        If some ``q_i <= 0``.

    Examples
    --------
    Binary randomized response with ratio 2: its KL divergence
    ``(2/3) ln 2 + (1/3) ln(1/2)`` equals ``eps tanh(eps/2) = (1/3) ln 2``.

    >>> F = Fraction
    >>> kl = ((F(2, 3), F(2)), (F(1, 3), F(1, 2)))
    >>> log_form_sign(form_difference(kl, ((F(1, 3), F(2)),)))
    0
    >>> log_form_sign(((F(1), F(8)), (F(-3), F(2))))  # ln 8 = 3 ln 2
    0
    >>> log_form_sign(((F(1), F(3)), (F(-1, 2), F(8))))  # ln 3 > (3/2) ln 2
    1
    """
    form = tuple((Fraction(c), Fraction(q)) for c, q in form if c)
    if any(q <= 0 for _, q in form):
        raise ValueError("a logarithm of a nonpositive number")
    if len(form) > MAX_FORM_TERMS:
        return None
    if sum(q.numerator.bit_length() + q.denominator.bit_length() for _, q in form) > MAX_FORM_BITS:
        return None
    coeffs = _reduced(form)
    if coeffs is None:
        return None
    if not coeffs:
        return 0
    for bits in _SEPARATE:
        with working_precision(bits + 32):
            total = ball(Fraction(0))
            for b, c in coeffs.items():
                total += ball(Fraction(b)).log() * rational(c)
            lo, hi = interval(total)
        if lo > 0:
            return 1
        if hi < 0:
            return -1
    return None
