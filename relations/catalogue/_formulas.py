"""Non-linear bounds of the conversion relations (:mod:`relations.catalogue._conversions`).

A :class:`Formula` is ``f(a)`` of the premise ``a`` alone, non-decreasing on ``a >= 0``
(``sigma_min`` and the diameter play no part).  It has the same forms as
:class:`~relations.catalogue._bounds.Linear`: :meth:`Formula.exact` (a certified
enclosure: ``f`` is evaluated in arb ball arithmetic at the two ends of the premise's
enclosure, which by monotonicity encloses ``f(premise)``; an exact logarithm when the
premise is one and ``f`` is a shift by a logarithm), :meth:`~Formula.float`,
:meth:`~Formula.sympy` and :meth:`~Formula.text`.

Kinds (``c`` is the formula's rational parameter):

* ``half_square`` -- ``a^2 / 2`` (pure DP -> zCDP, Bun and Steinke 2016);
* ``tanh`` -- ``a tanh(a/2)`` (the KL divergence of binary randomized response);
* ``profile`` -- ``max(0, (e^a - e^c) / (1 + e^a))`` (the privacy profile ``delta(c)`` of binary RR);
* ``dp_eps_delta`` -- ``ln(max(1, (1 - c) e^a - c))`` (the ``eps`` of binary RR at ``delta = c``);
* ``shift`` -- ``a + ln(c)`` (Renyi DP -> approximate DP at a fixed order and ``delta``);
* ``zcdp`` -- ``a + 2 sqrt(a ln(1/c))`` (zCDP -> approximate DP, Bun and Steinke 2016);
* ``pinsker`` -- ``sqrt(a/2)`` (total variation from KL, Pinsker's inequality).

Examples
--------
>>> from fractions import Fraction
>>> from relations.numbers import Log, LogRatio
>>> f = Formula("tanh")
>>> f.text("eps_d"), round(f.float(1.0, 0.0, 1), 6)
('eps_d tanh(eps_d/2)', 0.462117)
>>> x = f.exact(Log(LogRatio.of(Fraction(3))), Log(LogRatio.of(Fraction(1))), 1, label="eps_d")
>>> round(float(x), 12), float(x.enclose(64)[1] - x.enclose(64)[0]) < 1e-18
(0.549306144334, True)
>>> str(Formula("shift", Fraction(100000)).exact(Log(LogRatio.of(Fraction(3, 2))), None, 1))
'ln(150000)'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from relations.numbers._enclosure import interval, working_precision
from relations.numbers._logs import LogRatio
from relations.numbers._reals import ArbExpr, Log, Rational, Real, compare, inf

if TYPE_CHECKING:
    import sympy

__all__ = ["KINDS", "Formula", "formula_arb"]

#: :meth:`Formula.floats` of at most this many points calls :meth:`Formula.float` at each (the same floats, for less
#: than numpy's fixed cost of the array expression).
_FLOATS_BY_POINT = 32

#: The formula kinds and whether they take a parameter.
KINDS = {"half_square": False, "tanh": False, "profile": True, "dp_eps_delta": True, "shift": True, "zcdp": True,
         "pinsker": False}


def formula_arb(kind: str, c: Fraction, a):
    """``f(a)`` in arb ball arithmetic (``a`` an arb ball, ``a >= 0``).

    Parameters
    ----------
    kind : str
        One of :data:`KINDS`.
    c : Fraction
        The parameter.
    a : flint.arb
        The premise.

    Returns
    -------
    flint.arb

    Examples
    --------
    >>> from flint import arb
    >>> from relations.numbers._enclosure import working_precision
    >>> with working_precision(64):
    ...     round(float(formula_arb("profile", Fraction(0), arb(1).log() + arb(2).log()).mid()), 6)
    0.333333
    """
    from flint import arb, fmpq

    q = arb(fmpq(c.numerator, c.denominator))
    if kind == "half_square":
        return a * a / 2
    if kind == "tanh":
        return a * (a / 2).tanh()
    if kind == "profile":
        ea = a.exp()
        v = (ea - q.exp()) / (1 + ea)
        return v.max(arb(0))
    if kind == "dp_eps_delta":
        v = (1 - q) * a.exp() - q
        return v.max(arb(1)).log()
    if kind == "shift":
        return a + q.log()
    if kind == "zcdp":
        return a + 2 * (a * (1 / q).log()).sqrt()
    if kind == "pinsker":
        return (a / 2).sqrt()
    raise ValueError(f"unknown formula kind {kind!r}")


@dataclass(frozen=True)
class Formula:
    """The bound ``f(premise)`` of one kind (module docstring), non-decreasing in the premise.

    Parameters
    ----------
    kind : str
        One of :data:`KINDS`.
    c : Fraction, optional
        The parameter: ``eps'`` for ``profile``, ``delta`` for ``dp_eps_delta`` and ``zcdp``,
        the factor ``q`` of ``+ ln(q)`` for ``shift``.

    References
    ----------
    .. [1] Bun, Steinke. Concentrated differential privacy: simplifications, extensions, and
       lower bounds. TCC 2016-B. doi:10.1007/978-3-662-53641-4_24
    .. [2] Mironov. Renyi differential privacy. CSF 2017. doi:10.1109/CSF.2017.11
    .. [3] Kairouz, Oh, Viswanath. The composition theorem for differential privacy. IEEE Trans.
       Inf. Theory 63(6), 2017. doi:10.1109/TIT.2017.2685505

    Examples
    --------
    >>> Formula("zcdp", Fraction(1, 100000)).text("rho")
    'rho + 2 sqrt(rho ln(100000))'
    >>> round(Formula("half_square").float(2.0, 0.0, None), 3)
    2.0
    """

    kind: str
    c: Fraction = Fraction(0)
    #: The float forms of ``c`` that :meth:`float` reads (the searches call it hundreds of thousands of times).
    _float_c: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown formula kind {self.kind!r}")
        object.__setattr__(self, "c", Fraction(self.c))
        c = float(self.c)
        logs = ((math.log(self.c.numerator), math.log(self.c.denominator)) if self.kind == "shift" and self.c > 0
                else None)
        object.__setattr__(self, "_float_c", (c, logs, -math.log(c) if self.kind == "zcdp" and c > 0 else None))

    def text(self, premise: str) -> str:
        """The bound in symbols, e.g. ``eps_d^2/2``.

        Parameters
        ----------
        premise : str
            The premise's name.
        """
        a, c = premise, self.c
        return {
            "half_square": f"{a}^2/2",
            "tanh": f"{a} tanh({a}/2)",
            "profile": f"max(0, (e^{a} - e^{c}) / (1 + e^{a}))",
            "dp_eps_delta": f"ln(max(1, (1 - {c}) e^{a} - {c}))",
            "shift": f"{a} + ln({c})",
            "zcdp": f"{a} + 2 sqrt({a} ln({1 / c if c else 'inf'}))",
            "pinsker": f"sqrt({a}/2)",
        }[self.kind]

    def float(self, premise: float, sigma: float, diameter: int | None) -> float:
        """``f(premise)`` in floats (``inf`` beyond the float range).

        Parameters
        ----------
        premise : float
            The premise in nats.
        sigma, diameter
            Ignored (the signature is that of :meth:`Linear.float <relations.catalogue.Linear.float>`).
        """
        c, logs, neg_log_c = self._float_c
        a = max(float(premise), 0.0)
        if math.isinf(a):
            return 1.0 if self.kind == "profile" else math.inf
        if self.kind == "half_square":
            return a * a / 2
        if self.kind == "tanh":
            return a * math.tanh(a / 2)
        if self.kind == "profile":
            return max(0.0, (1 - math.exp(c - a)) / (math.exp(-a) + 1)) if a < 700 else 1.0
        if self.kind == "dp_eps_delta":
            if a > 700:
                return a + math.log1p(-c)
            return math.log(max(1.0, (1 - c) * math.exp(a) - c))
        if self.kind == "shift":
            if logs is None:
                return a + math.log(self.c.numerator) - math.log(self.c.denominator)
            return a + logs[0] - logs[1]
        if self.kind == "pinsker":
            return math.sqrt(a / 2)
        return a + 2 * math.sqrt(a * (neg_log_c if neg_log_c is not None else -math.log(c)))

    def floats(self, premise):
        """:meth:`float` at every entry of the float array ``premise``, the same floats entry for entry.

        One array expression, evaluated in the order :meth:`float` evaluates: ``+``, ``-``, ``*``, ``/`` and ``sqrt``
        are correctly rounded in numpy as in Python, and ``exp``, ``log``, ``log1p`` and ``tanh`` (whose last bits
        may differ between numpy's kernels and the C library) are Python's own, applied entry by entry.

        Parameters
        ----------
        premise : numpy.ndarray
            The premise in nats.

        Returns
        -------
        numpy.ndarray

        Examples
        --------
        >>> import numpy as np
        >>> Formula("zcdp", Fraction(1, 100)).floats(np.array([-1.0, 0.5, np.inf])).tolist()[::2]
        [0.0, inf]
        """
        import numpy as np

        c, logs, neg_log_c = self._float_c
        if ((self.kind == "shift" and logs is None) or (self.kind == "zcdp" and (neg_log_c is None or neg_log_c < 0))
                or np.size(premise) <= _FLOATS_BY_POINT):  # (a few points, as the dense search asks: cheaper one by one)
            a = np.asarray(premise, dtype=float)
            return np.array([self.float(x, 0.0, None) for x in a.ravel().tolist()], dtype=float).reshape(a.shape)

        def each(f, x):  # Python's math function at every entry
            return np.frompyfunc(f, 1, 1)(x).astype(float) if x.size else np.empty(x.shape)

        a = np.asarray(premise, dtype=float)
        a = np.where(a < 0, 0.0, a)  # max(a, 0.0): a NaN stays NaN, -0.0 stays -0.0
        with np.errstate(invalid="ignore", over="ignore"):
            if self.kind == "half_square":
                out = a * a / 2
            elif self.kind == "pinsker":
                out = np.sqrt(a / 2)
            elif self.kind == "shift":
                out = a + logs[0] - logs[1]
            elif self.kind == "zcdp":
                out = a + 2 * np.sqrt(a * neg_log_c)
            elif self.kind == "tanh":
                out = a * each(math.tanh, a / 2)
            elif self.kind == "profile":  # max(0.0, x): x where x > 0, else 0.0 (a NaN x included)
                low = a < 700
                x = (1 - each(math.exp, np.where(low, c - a, 0.0))) / (each(math.exp, np.where(low, -a, 0.0)) + 1)
                out = np.where(low, np.where(x > 0.0, x, 0.0), 1.0)
            else:  # dp_eps_delta; max(1.0, y): y where y > 1, else 1.0
                high = a > 700
                y = (1 - c) * each(math.exp, np.where(high, 0.0, a)) - c
                shifted = a + math.log1p(-c) if high.any() else a  # log1p(-c) only where float takes it
                out = np.where(high, shifted, each(math.log, np.where(y > 1.0, y, 1.0)))
        return np.where(np.isinf(a), 1.0 if self.kind == "profile" else math.inf, out)

    def exact(self, premise: Real, sigma: Real | None, diameter: int | None, *, label: str = "") -> Real:
        """``f(premise)`` as an exact real: an enclosure from the premise's enclosures.

        Parameters
        ----------
        premise : Real
            The premise, finite and nonnegative.
        sigma, diameter
            Ignored.
        label : str, optional
            The premise's name, for the text of the result.

        Returns
        -------
        Real
            A :class:`~relations.numbers.Log` for a ``shift`` or ``dp_eps_delta`` of a logarithm of
            a rational (both are logarithms of rationals), else an :class:`~relations.numbers.ArbExpr`.
        """
        if premise.infinite:
            return Rational(Fraction(1)) if self.kind == "profile" and premise.infinite > 0 else inf(premise.infinite)
        if self.kind == "shift" and isinstance(premise, Log):
            assert premise.log.ratio is not None  # finite
            return Log(LogRatio.of(premise.log.ratio * self.c))
        if self.kind == "dp_eps_delta" and isinstance(premise, Log):  # ln of a rational: exact
            assert premise.log.ratio is not None  # finite
            return Log(LogRatio.of(max(Fraction(1), (1 - self.c) * premise.log.ratio - self.c)))
        if self.kind == "profile" and isinstance(premise, Log) and self.c == 0:  # (r - 1)/(r + 1): a rational
            r = premise.log.ratio
            assert r is not None  # finite
            return Rational(max(Fraction(0), (r - 1) / (r + 1)))
        kind, c = self.kind, self.c

        def enclose(bits: int):
            from flint import arb, fmpq

            lo, hi = premise.enclose(bits + 16)
            lo = max(lo, Fraction(0))  # budgets are nonnegative; f is non-decreasing on [0, inf)
            hi = max(hi, lo)
            with working_precision(bits + 32):
                flo = interval(formula_arb(kind, c, arb(fmpq(lo.numerator, lo.denominator))))
                fhi = interval(formula_arb(kind, c, arb(fmpq(hi.numerator, hi.denominator))))
            return flo[0], fhi[1]

        form = exp_form = None
        if kind == "tanh" and isinstance(premise, Log):  # tanh(ln(r)/2) = (r - 1)/(r + 1): a rational multiple of ln r
            r = premise.log.ratio
            assert r is not None  # finite
            form = (((r - 1) / (r + 1), r),)
        if kind == "profile" and isinstance(premise, Log) and c != 0:  # (r - e^c)/(1 + r), or 0 when r <= e^c
            r = premise.log.ratio
            assert r is not None  # finite
            side = compare(premise, Rational(c))
            assert side is not None  # ln(r) = c is impossible for rational r and c != 0 (Lindemann)
            zero = side <= 0
            exp_form = (Fraction(0), Fraction(0), c) if zero else (r / (1 + r), -1 / (1 + r), c)
        return ArbExpr(self.text(label or str(premise)), self.float(float(premise), 0.0, diameter), enclose,
                       form=form, exp_form=exp_form)

    def sympy(self, premise: sympy.Expr, sigma: sympy.Expr | None = None, *,
              diameter: sympy.Expr | int = 1) -> sympy.Expr:
        """``f(premise)`` in sympy (for ``profile`` and ``dp_eps_delta`` the branch past the kink).

        Parameters
        ----------
        premise : sympy.Expr
            The premise.
        sigma, diameter
            Ignored.
        """
        import sympy as sp

        a, c = premise, sp.Rational(self.c.numerator, self.c.denominator)
        return {
            "half_square": a**2 / 2,
            "tanh": a * sp.tanh(a / 2),
            "profile": sp.Max(0, (sp.exp(a) - sp.exp(c)) / (1 + sp.exp(a))),
            "dp_eps_delta": sp.log(sp.Max(1, (1 - c) * sp.exp(a) - c)),
            "shift": a + sp.log(c) if c else sp.oo,
            "zcdp": a + 2 * sp.sqrt(a * sp.log(1 / c)) if c else sp.oo,
            "pinsker": sp.sqrt(a / 2),
        }[self.kind]
