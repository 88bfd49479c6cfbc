"""Exact ties of conjectures: ``lhs - rhs`` proved to be zero at one mechanism's exact values.

Enclosures decide a comparison when its two sides differ; they never separate two *equal* sides,
such as ``exp(eps_d) <= 3`` on a mechanism with ``eps_d = ln 3``, or ``tanh(eps_d / 2) <= 1/2``
there (``tanh(ln(3)/2) = (3 - 1)/(3 + 1)``).  :func:`symbolic_zero` rewrites both sides, with each
notion's exact value substituted, into one normal form and compares the forms:

* every logarithm of a rational becomes ``sum_j e_j ln b_j`` over one coprime basis ``b_j``
  (:func:`relations.numbers._logforms.coprime_basis`, refined whenever a new number needs it);
* ``exp`` of such a linear form ``c_0 + sum_j c_j ln b_j`` becomes the monomial
  ``e^(c_0) prod_j b_j^(c_j)``, with each exponent's integer part moved into a rational coefficient;
  rational powers of monomials likewise, and ``tanh(x) = (e^(2x) - 1)/(e^(2x) + 1)``;
* a side is then a quotient of two polynomials, with rational coefficients, in the monomials
  ``prod_j b_j^(f_j) e^(c) prod_j (ln b_j)^(m_j)`` (``0 < f_j < 1``), and ``lhs - rhs`` is zero
  when the numerator of the difference is the zero polynomial.

Every step is an identity of real numbers, so the answer "zero" is a proof, given that each
division is by a nonzero number and each ``ln`` and fractional power is of a positive one: the
caller asks only after the enclosures have certified that (:mod:`relations.checking._conjecture_eval`).
The form is exact arithmetic of bounded size (:data:`MAX_TERMS`, :data:`MAX_BITS`,
:data:`MAX_POWER`), never a general simplifier: anything outside it (``min``, ``max``, ``exp`` of a
non-linear argument, a notion with no exact form, a form past the limits) is "not shown", and the
comparison stays undecided, never guessed.  A nonzero form is not a proof of anything either.

Examples are those of :func:`symbolic_zero`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import cast

from relations.checking._conjectures import Conjecture, symbol
from relations.numbers._logforms import coprime_basis
from relations.numbers._reals import ArbExpr, Log, Rational, Real

__all__ = ["MAX_TERMS", "MAX_BITS", "MAX_POWER", "symbolic_zero"]

#: The most monomials a polynomial of the normal form, or a notion's logarithmic form, may have.
MAX_TERMS = 4096

#: The most bits of a coefficient's numerator or denominator.
MAX_BITS = 100_000

#: The largest integer power of a polynomial with more than one term, and the largest integer
#: part of a monomial's exponent.
MAX_POWER = 64

_RESTARTS = 64


class _GiveUp(Exception):
    """Outside the normal form: not shown."""


class _Refine(Exception):
    """A number does not factor over the current basis."""

    def __init__(self, n: int):
        super().__init__(n)
        self.n = n


# A monomial key: (radicals ((b, f), ...) with 0 < f < 1, exponent of e, logs ((b, m), ...)).
_ONE = ((), Fraction(0), ())


def _bounded(q: Fraction) -> Fraction:
    if max(q.numerator.bit_length(), q.denominator.bit_length()) > MAX_BITS:
        raise _GiveUp
    return q


class _Form:
    """Polynomials (dicts from monomial keys to rational coefficients) over one coprime basis."""

    def __init__(self, basis: list[int]):
        self.basis = basis

    def factor(self, q: Fraction) -> dict[int, int]:
        """``q > 0`` as ``prod b^k`` over the basis (raises :class:`_Refine` when it does not factor)."""
        out: dict[int, int] = {}
        for part, sign in ((q.numerator, 1), (q.denominator, -1)):
            n = part
            for b in self.basis:
                if n == 1:
                    break
                while n % b == 0:
                    n //= b
                    out[b] = out.get(b, 0) + sign
            if n != 1:
                raise _Refine(n)
        return out

    def monomial(self, coef: Fraction, exps: Mapping[int, Fraction], e: Fraction, logs=()) -> dict:
        """``coef * prod b^(x_b) * e^e * logs`` with each ``x_b``'s integer part moved into ``coef``."""
        rad = []
        for b in sorted(exps):
            x = Fraction(exps[b])
            k = math.floor(x)
            if abs(k) > MAX_POWER * 64 or abs(k) * b.bit_length() > MAX_BITS:
                raise _GiveUp
            coef = coef * Fraction(b) ** k
            if x != k:
                rad.append((b, x - k))
        return {(tuple(rad), _bounded(Fraction(e)), tuple(logs)): _bounded(coef)} if coef else {}

    def const(self, q: Fraction) -> dict:
        return {_ONE: Fraction(q)} if q else {}

    def ln(self, q: Fraction) -> dict:
        """``ln q`` for a rational ``q > 0``, on the basis."""
        if q <= 0:
            raise _GiveUp
        out: dict = {}
        for b, k in self.factor(q).items():
            if k:
                out[((), Fraction(0), ((b, 1),))] = Fraction(k)
        return out

    def add(self, a: dict, b: dict, sign: int = 1) -> dict:
        out = dict(a)
        for k, c in b.items():
            v = out.get(k, 0) + sign * c
            if v:
                out[k] = v
            else:
                out.pop(k, None)
        if len(out) > MAX_TERMS:
            raise _GiveUp
        return out

    def mul(self, a: dict, b: dict) -> dict:
        if len(a) * len(b) > 16 * MAX_TERMS:
            raise _GiveUp
        out: dict = {}
        for (ra, ea, la), ca in a.items():
            for (rb, eb, lb), cb in b.items():
                exps = dict(ra)
                for base, f in rb:
                    exps[base] = exps.get(base, 0) + f
                logs = dict(la)
                for base, m in lb:
                    logs[base] = logs.get(base, 0) + m
                out = self.add(out, self.monomial(ca * cb, exps, ea + eb, tuple(sorted(logs.items()))))
        return out

    def power(self, a: dict, k: int) -> dict:
        """``a^k`` for an integer ``k >= 0``."""
        if k > MAX_POWER and len(a) > 1:
            raise _GiveUp
        if len(a) == 1:
            ((rad, e, logs), c), = a.items()
            if k * max(c.numerator.bit_length(), c.denominator.bit_length()) > MAX_BITS:
                raise _GiveUp
            return self.monomial(_bounded(c) ** k, {b: f * k for b, f in rad}, e * k,
                                 tuple((b, m * k) for b, m in logs))
        out, base = self.const(Fraction(1)), a
        while k:
            if k & 1:
                out = self.mul(out, base)
            k >>= 1
            if k:
                base = self.mul(base, base)
        return out

    def positive_monomial(self, frac: tuple[dict, dict]) -> tuple[Fraction, dict[int, Fraction | int], Fraction]:
        """``num / den`` as ``c prod b^(x_b) e^e`` with ``c > 0`` and no logarithms, or give up."""
        num, den = frac
        if len(num) != 1 or len(den) != 1:
            raise _GiveUp
        ((rn, en, ln_), cn), = num.items()
        ((rd, ed, ld), cd), = den.items()
        if ln_ or ld or cn / cd <= 0:
            raise _GiveUp
        exps: dict[int, Fraction | int] = {}
        for b, k in self.factor(cn / cd).items():
            exps[b] = exps.get(b, 0) + k
        for b, f in rn:
            exps[b] = exps.get(b, 0) + f
        for b, f in rd:
            exps[b] = exps.get(b, 0) - f
        return Fraction(1), {b: x for b, x in exps.items() if x}, en - ed

    def exp_linear(self, frac: tuple[dict, dict]) -> dict:
        """``exp(c_0 + sum_j c_j ln b_j)`` as a monomial (``frac`` must be such a linear form)."""
        num, den = frac
        if den != self.const(Fraction(1)):
            raise _GiveUp
        e, exps = Fraction(0), {}
        for (rad, ee, logs), c in num.items():
            if rad or ee:
                raise _GiveUp
            if not logs:
                e += c
            elif len(logs) == 1 and logs[0][1] == 1:
                exps[logs[0][0]] = c
            else:
                raise _GiveUp
        return self.monomial(Fraction(1), exps, e)


def _normal(form: _Form, num: dict, den: dict):
    """``num / den`` with a denominator that is one monomial with no logarithm folded into ``num``."""
    if not den:
        raise _GiveUp
    if len(den) == 1:
        ((rad, e, logs), c), = den.items()
        if not logs:
            inverse = form.monomial(1 / c, {b: -f for b, f in rad}, -e)
            return form.mul(num, inverse), form.const(Fraction(1))
    return num, den


def _frac_add(form: _Form, x, y, sign=1):
    (a, b), (c, d) = x, y
    if b == d:
        return _normal(form, form.add(a, c, sign), b)
    return _normal(form, form.add(form.mul(a, d), form.mul(c, b), sign), form.mul(b, d))


def _frac_mul(form: _Form, x, y):
    return _normal(form, form.mul(x[0], y[0]), form.mul(x[1], y[1]))


def _frac_power(form: _Form, x, q: Fraction):
    num, den = x
    if q.denominator == 1:
        k = int(q)
        if k < 0:
            if not num:
                raise _GiveUp
            num, den, k = den, num, -k
        return _normal(form, form.power(num, k), form.power(den, k))
    c, exps, e = form.positive_monomial(x)
    return form.monomial(c, {b: v * q for b, v in exps.items()}, e * q), form.const(Fraction(1))


def _notion(form: _Form, real: Real):
    if real.infinite:
        raise _GiveUp
    one = form.const(Fraction(1))
    if isinstance(real, Rational):
        return form.const(real.value), one
    if isinstance(real, Log):
        assert real.log.ratio is not None  # finite (above)
        return form.ln(real.log.ratio), one
    if isinstance(real, ArbExpr):
        terms = real.exact_form()
        if terms is not None and len(terms) <= MAX_TERMS:
            out: dict = {}
            for c, r in terms:
                if c and r != 1:
                    out = form.add(out, {k: v * c for k, v in form.ln(r).items()})
            return out, one
        if real.exp_form is not None:
            a, b, q = real.exp_form
            return form.add(form.const(a), form.monomial(Fraction(b), {}, Fraction(q))), one
    raise _GiveUp


def _value(form: _Form, expr, notions: Mapping):
    import sympy

    one = form.const(Fraction(1))
    if isinstance(expr, sympy.Symbol):
        return notions[expr]
    if isinstance(expr, sympy.Rational):
        return form.const(Fraction(int(expr.p), int(expr.q))), one
    args = [_value(form, a, notions) for a in expr.args]
    if isinstance(expr, sympy.Add):
        out = args[0]
        for a in args[1:]:
            out = _frac_add(form, out, a)
        return out
    if isinstance(expr, sympy.Mul):
        out = args[0]
        for a in args[1:]:
            out = _frac_mul(form, out, a)
        return out
    if isinstance(expr, sympy.Pow):
        base, exponent = args
        if exponent[1] != one or any(k != _ONE for k in exponent[0]):
            raise _GiveUp
        return _frac_power(form, base, exponent[0].get(_ONE, Fraction(0)))
    if isinstance(expr, sympy.exp):
        return form.exp_linear(args[0]), one
    if isinstance(expr, sympy.tanh):
        e2 = form.exp_linear(_frac_mul(form, args[0], (form.const(Fraction(2)), one)))
        return _normal(form, form.add(e2, one, -1), form.add(e2, one))
    if isinstance(expr, sympy.log):
        c, exps, e = form.positive_monomial(args[0])
        out = form.const(e)
        for b, x in exps.items():
            out = form.add(out, {((), Fraction(0), ((b, 1),)): x})
        return out, one
    raise _GiveUp  # min, max: not in the normal form


def _seeds(conj: Conjecture, reals: Mapping[str, Real]) -> set[int]:
    """Numerators and denominators of the constants and of the notions' logarithms' arguments."""
    import sympy

    out = {abs(int(p)) for side in (conj.lhs, conj.rhs) for a in side.atoms(sympy.Rational) for p in (a.p, a.q)}
    out = {p for p in out if p > 1}
    for name in conj.notions:
        real = reals[name]
        ratios: list[Fraction] = []
        if isinstance(real, Log) and not real.infinite:
            ratios = [cast(Fraction, real.log.ratio)]  # finite
        elif isinstance(real, ArbExpr) and not real.infinite:
            ratios = [r for _, r in (real.exact_form() or ())][:MAX_TERMS]
        out.update(p for r in ratios for p in (r.numerator, r.denominator) if p > 1)
    return out


def symbolic_zero(conj: Conjecture, reals: Mapping[str, Real]) -> bool:
    """Whether ``lhs - rhs`` of ``conj`` is proved to be zero at the exact values ``reals``.

    Parameters
    ----------
    conj : Conjecture
    reals : mapping of str to Real
        Each notion's value (``values(mech).reals``).

    Returns
    -------
    bool
        ``True``: the two sides are equal (a proof, given that each operation is defined there,
        which the caller has certified).  ``False``: not shown (not a proof of anything).

    Examples
    --------
    >>> from fractions import Fraction
    >>> from relations.checking._conjectures import parse_conjecture
    >>> from relations.numbers import LogRatio
    >>> from relations.numbers._reals import Log
    >>> reals = {"eps_d": Log(LogRatio.of(Fraction(3)))}
    >>> equal = ["exp(eps_d + ln(2)) <= 6", "8^(1/2) * eps_d <= 2 * 2^(1/2) * ln(3)", "tanh(eps_d / 2) <= 1/2",
    ...          "exp(eps_d) * 2^(1/2) <= 18^(1/2)"]
    >>> [symbolic_zero(parse_conjecture(text), reals) for text in equal]
    [True, True, True, True]
    >>> [symbolic_zero(parse_conjecture(text), reals) for text in ("min(eps_d, 2) <= ln(3)", "eps_d <= 1")]
    [False, False]
    """
    seeds = _seeds(conj, reals)
    for _ in range(_RESTARTS):
        form = _Form(coprime_basis(seeds))
        try:
            notions = {symbol(name): _notion(form, reals[name]) for name in conj.notions}
            num, _ = _frac_add(form, _value(form, conj.lhs, notions), _value(form, conj.rhs, notions), -1)
        except _Refine as more:
            seeds = set(form.basis) | {more.n}
            continue
        except _GiveUp:
            return False
        return not num
    return False
