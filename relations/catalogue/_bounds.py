"""Bounds ``f(premise, sigma_min)`` of catalogued relations, each with every form the tool needs.

A relation says ``conclusion <= f(premise, sigma_min)``.  Every place that needs the
bound asks the bound object for its own form, so one definition serves all of them:

* :meth:`Linear.exact` / :meth:`KLBound.exact` -- an exact real
  (:mod:`relations.numbers._reals`) for the checker;
* :meth:`~Linear.float` -- a float for the optimising search;
* :meth:`Linear.z3_linear` -- an additive z3 term over budget variables (derivations);
* :meth:`Linear.z3_product` -- the multiplicative form over ``a = e^premise``,
  ``s = e^sigma_min`` (per-triple lemmas and bounded search);
* :meth:`~Linear.sympy` -- a sympy expression in given symbols;
* :meth:`~Linear.text` -- the statement in symbols.

Examples
--------
>>> from fractions import Fraction
>>> from relations.numbers import LogRatio
>>> b = Linear(1, -1)  # eps_i - sigma_min, exactly and in floats:
>>> str(b.evaluate(LogRatio.of(Fraction(3)), LogRatio.of(Fraction(1, 2)), None)), b.float(1.0, -0.5, None)
('ln(6)', 1.5)
"""

from __future__ import annotations

import functools
import math
import operator
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, cast

import numpy as np

from relations.numbers._logs import MAX_POWER_BITS, LogRatio, power_bits
from relations.numbers._reals import (
    Log,
    Rational,
    Real,
    affine_enclosure,
    inf,
    kl_bound,
    kl_enclosure,
    log_combination,
)

if TYPE_CHECKING:  # only for annotations: both are imported where a method needs them
    import sympy
    import z3

__all__ = ["Linear", "KLBound", "Bound"]


@dataclass(frozen=True)
class Linear:
    """The bound ``f(a, s) = g * (ca * a + cs * s)`` of a premise ``a`` and ``s = sigma_min``.

    ``g = 1``, or ``g = diam``, the diameter of the neighbour graph (``+inf`` if
    disconnected).  With integer coefficients, ``a = ln(q_a)`` and ``s = ln(q_s)``
    the value is ``ln(q_a^(g ca) q_s^(g cs))``: the logarithm of a rational, so
    comparisons with ratio budgets are exact.  Fractional coefficients give a
    linear combination of logarithms, compared through enclosures.

    Parameters
    ----------
    ca : int or Fraction
        Coefficient of the premise.
    cs : int or Fraction, optional
        Coefficient of ``sigma_min`` (default 0).
    times_diameter : bool, optional
        Multiply by the diameter of the neighbour graph (group privacy).
    """

    ca: int | Fraction
    cs: int | Fraction = 0
    times_diameter: bool = False

    @property
    def integral(self) -> bool:
        """True iff both coefficients are integers (then the bound is a logarithm of a rational)."""
        return Fraction(self.ca).denominator == 1 and Fraction(self.cs).denominator == 1

    def text(self, premise: str) -> str:
        """The bound in symbols, e.g. ``2(eps_i - sigma_min)`` or ``diam * eps_d``.

        Parameters
        ----------
        premise : str
            The name of the premise, e.g. ``"eps_i"``.

        Examples
        --------
        >>> Linear(2, -2).text("eps_i"), Linear(1, 0, True).text("eps_d")
        ('2(eps_i - sigma_min)', 'diam * eps_d')
        """
        parts = []
        if self.ca:
            parts.append(premise if self.ca == 1 else f"{self.ca} {premise}")
        if self.cs:
            sign = "+" if self.cs > 0 else "-"
            term = "sigma_min" if abs(self.cs) == 1 else f"{abs(self.cs)} sigma_min"
            parts.append(f"{sign} {term}" if parts else (term if self.cs > 0 else f"-{term}"))
        inner = " ".join(parts) or "0"
        if self.times_diameter:
            return f"diam * ({inner})" if len(parts) > 1 else f"diam * {inner}"
        if self.ca > 1 and self.cs:
            return f"{self.ca}({premise} {'+' if self.cs > 0 else '-'} sigma_min)" if abs(self.cs) == self.ca else inner
        return inner

    def evaluate(self, a: LogRatio, s: LogRatio, diameter: int | None) -> LogRatio:
        """The exact bound ``ln(q_a^(g ca) q_s^(g cs))`` for integer coefficients.

        Parameters
        ----------
        a : LogRatio
            The premise ``ln(q_a)``.
        s : LogRatio
            The prior constant ``sigma_min = ln(q_s)``.
        diameter : int or None
            The diameter of the neighbour graph (``None``: disconnected); used only
            when ``times_diameter``.

        Returns
        -------
        LogRatio
            ``+inf`` for a disconnected graph with a diameter factor.

        Raises
        ------
        ValueError
            If a coefficient is fractional (use :meth:`exact`).

        Examples
        --------
        Group privacy on ``D^3``: ``eps_all <= 3 ln 2 = ln 8``.

        >>> from fractions import Fraction
        >>> from relations.numbers import LogRatio
        >>> str(Linear(1, 0, True).evaluate(LogRatio.of(Fraction(2)), LogRatio.of(Fraction(1)), 3))
        'ln(8)'
        """
        if not self.integral:
            raise ValueError("fractional coefficients: use Linear.exact")
        ca, cs = cast(int, self.ca), cast(int, self.cs)  # integral (checked above), perhaps as Fractions
        total = _scale(a, ca) + _scale(s, cs) if self.cs else _scale(a, ca)
        if not self.times_diameter:
            return total
        if diameter is None:
            return LogRatio.inf()
        return _scale(total, diameter)

    def factor(self, diameter: int | None) -> int | None:
        """The factor ``g``: 1, or ``diameter`` (``None`` when the graph is disconnected: bound ``+inf``).

        Parameters
        ----------
        diameter : int or None
            The diameter of the neighbour graph, ``None`` if disconnected.
        """
        return diameter if self.times_diameter else 1

    def exact(self, premise: Real, sigma: Real, diameter: int | None, *, label: str = "") -> Real:
        """The bound as an exact real, for a finite premise.

        Logarithms of rationals with integer coefficients give a :class:`~relations.numbers.Log`
        (exact rational comparisons); fractional coefficients a linear combination of
        logarithms; enclosed premises (``I(X;Y)``) an interval-arithmetic enclosure; float
        values (float mode) a rational of the float.

        Parameters
        ----------
        premise, sigma : Real
            The premise's value, finite, and ``sigma_min`` (:mod:`relations.numbers._reals`).
        diameter : int or None
            The diameter of the neighbour graph, ``None`` if disconnected.
        label : str, optional
            The premise's name, for the text of enclosed results.

        Returns
        -------
        Real
            :class:`~relations.numbers.Log`, :class:`~relations.numbers.Rational` or
            :class:`~relations.numbers.ArbExpr`; an infinity when the bound is infinite.

        Examples
        --------
        >>> from fractions import Fraction
        >>> from relations.numbers import Log, LogRatio
        >>> three, half = Log(LogRatio.of(Fraction(3))), Log(LogRatio.of(Fraction(1, 2)))
        >>> str(Linear(2, -2).exact(three, half, 1))  # 2 ln 3 - 2 ln(1/2) = ln 36
        'ln(36)'
        >>> x = Linear(Fraction(1, 2)).exact(Log(LogRatio.of(Fraction(4))), half, 1, label="eps_d")
        >>> str(x), round(float(x), 6)  # (1/2) ln 4 = ln 2, through enclosures
        ('1/2 eps_d', 0.693147)
        """
        g = self.factor(diameter)
        if isinstance(premise, Log) and isinstance(sigma, Log):
            if self.integral and not self._huge(premise.log, sigma.log, g):
                return Log(self.evaluate(premise.log, sigma.log, diameter))
            if g is None:
                return inf()
            terms = [(Fraction(self.ca) * g, premise.log)] + ([(Fraction(self.cs) * g, sigma.log)] if self.cs else [])
            if any(not t.is_finite for c, t in terms if c):
                total = sum((c * t.sign for c, t in terms if c and not t.is_finite), Fraction(0))
                return inf(1 if total > 0 else -1)
            return log_combination([(c, cast(Fraction, t.ratio)) for c, t in terms if c], self.text(label))
        if g is None:
            return inf()
        if self.cs and sigma.infinite:
            return inf(1 if self.cs * sigma.infinite < 0 else -1)
        if premise.infinite and self.ca:
            return inf(1 if self.ca * premise.infinite > 0 else -1)
        if isinstance(premise, Rational) and (not self.cs or isinstance(sigma, Rational)):
            s = sigma.value if self.cs and isinstance(sigma, Rational) else Fraction(0)
            return Rational(g * (Fraction(self.ca) * premise.value + Fraction(self.cs) * s))  # exactly, never in floats
        return affine_enclosure(premise, sigma if self.cs else None, Fraction(self.ca) * g, Fraction(self.cs) * g,
                                self.text(label))

    def _huge(self, a: LogRatio, s: LogRatio, g: int | None) -> bool:
        """Whether ``q_a^(g ca) q_s^(g cs)`` is too large to write (then the bound is a linear form)."""
        terms = [(self.ca, a)] + ([(self.cs, s)] if self.cs else [])
        return g is not None and sum(power_bits(cast(Fraction, t.ratio), int(c) * g)
                                     for c, t in terms if t.is_finite) > MAX_POWER_BITS

    def float(self, premise: float, sigma: float, diameter: int | None) -> float:
        """The bound in floats (``inf`` for a disconnected graph with a diameter factor).

        Parameters
        ----------
        premise, sigma : float
            The premise and ``sigma_min`` in nats.
        diameter : int or None
            The diameter of the neighbour graph, ``None`` if disconnected.

        Examples
        --------
        >>> Linear(1, 0, True).float(1.5, 0.0, 2), Linear(1, 0, True).float(1.5, 0.0, None)
        (3.0, inf)
        """
        with np.errstate(all="ignore"):
            base = self.ca * premise + (self.cs * sigma if self.cs else 0.0)
        if self.times_diameter:
            return math.inf if diameter is None else diameter * base
        return base

    def z3_linear(self, premise: z3.ArithRef, sigma: z3.ArithRef, diameter: z3.ArithRef | int) -> z3.ArithRef:
        """``g (ca premise + cs sigma)`` over z3 real terms, for derivations by linear arithmetic.

        Parameters
        ----------
        premise, sigma : z3.ArithRef
            The premise and ``sigma_min`` as z3 real terms.
        diameter : z3.ArithRef or int
            The diameter; used only when ``times_diameter``.
        """
        bound = self.ca * premise + (self.cs * sigma if self.cs else 0)
        return diameter * bound if self.times_diameter else bound

    def z3_product(self, a: z3.ArithRef, s: z3.ArithRef, g: int = 1,
                   ) -> tuple[z3.ArithRef | int, z3.ArithRef | int]:
        """``(left, right)`` such that ``ratio <= a^(g ca) s^(g cs)`` reads ``num * left <= right * den``.

        ``a = e^premise`` and ``s = e^sigma_min`` are z3 terms; negative powers move to the left, so
        the inequality is polynomial (integer coefficients only).

        Parameters
        ----------
        a, s : z3.ArithRef
            ``e^premise`` and ``e^sigma_min`` as z3 real terms.
        g : int, optional
            The diameter factor, for a bound with ``times_diameter`` (default 1).

        Returns
        -------
        tuple
            ``(left, right)``: products of powers of ``a`` and ``s``, or ``1``.

        Examples
        --------
        ``ratio <= a / s`` becomes ``num * s <= a * den``:

        >>> import z3
        >>> a, s = z3.Reals("a s")
        >>> Linear(1, -1).z3_product(a, s), Linear(1).z3_product(a, s, 3)
        ((s, a), (1, a*a*a))
        """
        ca, cs = g * int(self.ca), g * int(self.cs)
        left = _times(_power(s, -cs) if cs < 0 else None)
        right = _times(_power(a, ca) if ca > 0 else None, _power(s, cs) if cs > 0 else None)
        if ca < 0:
            left = _times(left, _power(a, -ca))
        return left, right

    def sympy(self, premise: sympy.Expr, sigma: sympy.Expr, *, diameter: sympy.Expr | int = 1) -> sympy.Expr:
        """The bound as a sympy expression in the given symbols.

        Parameters
        ----------
        premise, sigma : sympy.Expr
            The premise and ``sigma_min``.
        diameter : sympy.Expr or int, optional
            The diameter factor, used only when ``times_diameter`` (default 1).

        Returns
        -------
        sympy.Expr
            E.g. ``eps_d - sigma_min`` for ``Linear(1, -1)``, ``diam*eps_d`` for
            ``Linear(1, 0, True)`` with ``diameter=diam``.
        """
        import sympy

        base = sympy.nsimplify(self.ca) * premise + sympy.nsimplify(self.cs) * sigma
        return diameter * base if self.times_diameter else base


@dataclass(frozen=True)
class KLBound:
    """The bound ``f(a) = a (e^a - 1)`` of the KL divergence between ``a``-indistinguishable distributions.

    With ``a = ln(q)`` it is ``ln(q) (q - 1)``, not a logarithm of a rational, so it
    is compared through enclosures.  ``sigma_min`` and the diameter play no part.

    References
    ----------
    .. [1] Dwork, Rothblum, Vadhan. Boosting and Differential Privacy. FOCS 2010,
       Lemma III.2. doi:10.1109/FOCS.2010.12
    """

    def text(self, premise: str) -> str:
        """The bound in symbols, e.g. ``eps_all (e^eps_all - 1)``.

        Parameters
        ----------
        premise : str
            The name of the premise.
        """
        return f"{premise} (e^{premise} - 1)"

    def exact(self, premise: Real, sigma: Real, diameter: int | None, *, label: str = "") -> Real:
        """``ln(q)(q - 1)`` as an enclosed real for ``premise = ln(q)``; float mode: a rational of the float.

        Parameters
        ----------
        premise : Real
            The premise, finite.
        sigma, diameter, label
            Ignored (the signature is that of :meth:`Linear.exact`); the text of
            the result is built from the premise's value.

        Returns
        -------
        Real
            An :class:`~relations.numbers.ArbExpr` for a logarithm of a rational,
            otherwise a :class:`~relations.numbers.Rational`.

        Examples
        --------
        >>> from fractions import Fraction
        >>> from relations.numbers import Log, LogRatio
        >>> x = KLBound().exact(Log(LogRatio.of(Fraction(3))), Log(LogRatio.of(Fraction(1))), 1)
        >>> str(x), round(float(x), 6)  # 2 ln 3
        ('ln(3) (e^ln(3) - 1)', 2.197225)
        """
        if isinstance(premise, Log):
            assert premise.log.ratio is not None  # finite
            return kl_bound(premise.log.ratio, f"{premise} (e^{premise} - 1)")
        if premise.infinite:
            return inf()
        if isinstance(premise, Rational) and premise.value == 0:
            return Rational(Fraction(0))
        # an enclosed premise (r ln(q) of a product form too long to write as ln(q^r)), or a rational one (float mode):
        # enclosed exactly, never rounded to a float
        return kl_enclosure(premise, f"{premise} (e^{premise} - 1)")

    def float(self, premise: float, sigma: float, diameter: int | None) -> float:
        """``a (e^a - 1)`` in floats (``inf`` beyond the float range).

        Parameters
        ----------
        premise : float
            The premise ``a`` in nats.
        sigma, diameter
            Ignored (the signature is that of :meth:`Linear.float`).
        """
        if premise >= 700:  # math.expm1 raises OverflowError beyond about 709.78
            return math.inf
        return premise * math.expm1(premise)

    def sympy(self, premise: sympy.Expr, sigma: sympy.Expr | None = None, *,
              diameter: sympy.Expr | int = 1) -> sympy.Expr:
        """``a (e^a - 1)`` in sympy.

        Parameters
        ----------
        premise : sympy.Expr
            The premise ``a``.
        sigma, diameter
            Ignored (the signature is that of :meth:`Linear.sympy`).
        """
        import sympy

        return premise * (sympy.exp(premise) - 1)


#: Every bound type of the catalogue.
Bound = Linear | KLBound


def _scale(v: LogRatio, c: int) -> LogRatio:
    """``c * ln(q) = ln(q^c)`` exactly, for an integer ``c``."""
    if c == 0:
        return LogRatio.of(Fraction(1))
    if not v.is_finite:
        return LogRatio(None, v.sign if c > 0 else -v.sign)
    assert v.ratio is not None  # finite
    return LogRatio.of(v.ratio**c)


def _power(x, n: int):
    return functools.reduce(operator.mul, [x] * n) if n else None


def _times(*factors):
    present = [f for f in factors if f is not None]
    return functools.reduce(operator.mul, present) if present else 1
