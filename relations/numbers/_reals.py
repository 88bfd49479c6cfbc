"""Exact comparison of the real numbers the tool meets.

A budget or bound is one of:

* :class:`Rational` — a rational number ``d`` (a claim's decimal bound);
* :class:`Log` — ``ln(q)`` for rational ``q`` (or ``+-inf``), wrapping
  :class:`~relations.exact.LogRatio`;
* :class:`ArbExpr` — a real given by a function that encloses it in ball
  arithmetic at a requested precision (``ln(q)(q - 1)``, ``I(X;Y)``, ...).

:func:`compare` decides ``sign(a - b)`` exactly: rational comparison when both
sides are rational or logarithms of rationals; otherwise enclosures at rising
precision until they separate.  Separation is guaranteed when the two numbers
differ, which the tool establishes from transcendence where it can
(``ln(q)`` for rational ``q != 1`` is transcendental (Hermite-Lindemann), so it
never equals a rational ``d``); a genuine tie is resolved by an exact
tie-breaker when one is supplied (e.g. ``I(X;Y) = ln(r)`` decided as an
identity between algebraic numbers), and otherwise the answer is ``None``:
undecided, never a guess.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import cast

from relations.numbers._enclosure import ball, display_float, interval, nearest_double, rational, working_precision
from relations.numbers._logforms import LogForm, form_difference, log_form_sign
from relations.numbers._logs import MAX_POWER_BITS, LogRatio, power_bits

__all__ = ["exp_affine", "exp_affine_sign", "log_form", "LADDER", "Rational", "Log", "ArbExpr", "Real", "inf", "display_float", "compare", "log_times", "kl_bound",
           "log_combination", "affine_enclosure", "kl_enclosure", "MAX_EXP_PREMISE"]

#: Precisions (bits of enclosure width) tried in turn before "undecided"; the cheap first rung separates
#: most comparisons of costly enclosures (zCDP's branch and bound) at a fraction of the cost.
LADDER = (16, 64, 128, 256, 512, 1024, 2048, 4096)


@dataclass(frozen=True)
class Rational:
    """The rational number ``value``."""

    value: Fraction

    infinite = 0

    def enclose(self, bits: int) -> tuple[Fraction, Fraction]:
        return self.value, self.value

    def __float__(self) -> float:
        return display_float(self.value)

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Log:
    """``ln(q)`` exactly (``q`` rational), or an infinity."""

    log: LogRatio

    @property
    def infinite(self) -> int:
        return self.log.sign

    def enclose(self, bits: int) -> tuple[Fraction, Fraction]:
        assert self.log.ratio is not None  # callers handle infinities first
        with working_precision(bits + 16):
            return interval(ball(self.log.ratio).log())

    def __float__(self) -> float:
        return float(self.log)

    def __str__(self) -> str:
        return str(self.log)


@dataclass(frozen=True, eq=False)
class ArbExpr:
    """A real number known through enclosures: ``enclose_fn(bits) -> (lower, upper)``.

    ``text`` describes it; ``approx`` is a float estimate for screening (``float(x)`` is the correctly
    rounded value, from the enclosures); ``tie`` optionally
    decides ``sign(self - other)`` exactly when enclosures cannot separate them;
    ``form``, when known, is the number as an exact linear form in logarithms of
    rationals (:mod:`relations.numbers._logforms`), which decides ties with other forms;
    ``exp_form = (a, b, q)``, when known, says the number is ``a + b e^q`` (rationals, ``q != 0``):
    two such numbers with the same ``q`` are equal iff their ``a`` and ``b`` are (``e^q`` is
    irrational, Lindemann), which decides ties such as ``delta(1) = (r - e)/(1 + r)``.
    ``display_bits`` is the precision at which outputs show its enclosure (lower when finer ones are costly).
    ``lazy_form``, when given, computes ``form`` on demand (a form too long to build for every
    comparison, such as ``I(X;Y)``'s one term per entry); :meth:`exact_form` reads either.
    ``rounded`` says ``approx`` is already the nearest double, made from an enclosure (``I(X;Y)``'s
    ``MutualInformation.value``), so that ``float()`` does not refine a costly enclosure again.
    """

    text: str
    approx: float
    enclose_fn: Callable[[int], tuple[Fraction, Fraction]]
    tie: Callable[[object], int | None] | None = None
    infinite: int = 0
    _cache: dict = field(default_factory=dict, repr=False)
    form: LogForm | None = None
    exp_form: tuple[Fraction, Fraction, Fraction] | None = None
    display_bits: int = 100
    lazy_form: Callable[[], LogForm | None] | None = None
    rounded: bool = False

    def exact_form(self) -> LogForm | None:
        """The number as an exact linear form in logarithms of rationals, or ``None`` when not known."""
        if self.form is not None or self.lazy_form is None:
            return self.form
        if "form" not in self._cache:
            self._cache["form"] = self.lazy_form()
        return self._cache["form"]

    def enclose(self, bits: int) -> tuple[Fraction, Fraction]:
        if bits not in self._cache:
            self._cache[bits] = self.enclose_fn(bits)
        return self._cache[bits]

    def __float__(self) -> float:
        """The float nearest the number: correctly rounded from its enclosures
        (:func:`~relations.numbers._enclosure.nearest_double`), computed once; ``approx`` (the
        screening value) only if no enclosure determines it."""
        if "float" not in self._cache:
            if self.rounded:  # approx is already the value's nearest double (made from its enclosure)
                value: float | None = self.approx
            elif self.infinite:
                value = math.inf * self.infinite
            else:
                value = nearest_double(self.enclose)
            self._cache["float"] = self.approx if value is None else value
        return self._cache["float"]

    def __str__(self) -> str:
        return self.text


Real = Rational | Log | ArbExpr


def inf(sign: int = 1) -> Log:
    return Log(LogRatio(None, sign))


def compare(a: Real, b: Real) -> int | None:
    """``sign(a - b)`` decided exactly, or ``None`` when it cannot be decided.

    Rational decisions first (both rational, both logarithms of rationals, or
    ``ln q`` against a rational, which differ unless ``q = 1``, by Hermite-Lindemann);
    otherwise enclosures at the precisions of :data:`LADDER` until they separate, then
    an exact tie-breaker if one of them carries it.

    Parameters
    ----------
    a, b : Real
        :class:`Rational`, :class:`Log` or :class:`ArbExpr`.

    Returns
    -------
    int or None
        ``-1``, ``0``, ``1``; ``None``: undecided (never a guess).

    Examples
    --------
    ``ln(13/7)`` is just above the decimal ``0.6190392084062234``:

    >>> from fractions import Fraction
    >>> from relations.numbers import LogRatio
    >>> compare(Log(LogRatio.of(Fraction(13, 7))), Rational(Fraction("0.6190392084062234")))
    1
    """
    ia, ib = a.infinite, b.infinite
    if ia or ib:
        if ia == ib:
            return None  # inf - inf: not a number; callers handle infinities first
        return (ia > ib) - (ia < ib)
    exact = _exact(a, b)
    if exact is not None:
        return exact
    for i, bits in enumerate(LADDER):
        alo, ahi = a.enclose(bits)
        blo, bhi = b.enclose(bits)
        if ahi < blo:
            return -1
        if alo > bhi:
            return 1
        if alo == ahi == blo == bhi:
            return 0  # both enclosures are the same single point: each contains its number, so a = b
        if i == 0:
            fa, fb = log_form(a), log_form(b)
            if fa is not None and fb is not None:
                return log_form_sign(form_difference(fa, fb))
            if _same_exp_form(a, b):
                return 0
    for x, y, s in ((a, b, 1), (b, a, -1)):
        if isinstance(x, ArbExpr) and x.tie is not None:
            t = x.tie(y)
            if t is not None:
                return s * t
    return None


def log_form(x: Real) -> LogForm | None:
    """``x`` as an exact linear form in logarithms of rationals, or ``None`` when not known as one.

    Examples
    --------
    >>> log_form(Log(LogRatio.of(Fraction(3))))
    ((Fraction(1, 1), Fraction(3, 1)),)
    >>> log_form(Rational(Fraction(0)))
    ()
    """
    if isinstance(x, Rational):
        return () if x.value == 0 else None
    if isinstance(x, Log):
        return ((Fraction(1), cast(Fraction, x.log.ratio)),) if x.log.is_finite else None
    return x.form if isinstance(x, ArbExpr) and not x.infinite else None


def _same_exp_form(a: Real, b: Real) -> bool:
    """Both are ``a + b e^q`` with the same rationals (a rational is ``a + 0 e^q``)."""
    ea, eb = (x.exp_form if isinstance(x, ArbExpr) else (x.value, Fraction(0), None) if isinstance(x, Rational)
              else None for x in (a, b))
    if ea is None or eb is None or (ea[2] is not None and eb[2] is not None and ea[2] != eb[2]):
        return False
    return ea[0] == eb[0] and ea[1] == eb[1]


def _exact(a: Real, b: Real) -> int | None:
    """Rational decisions: both rational, both logs, or a log equal to 0."""
    def key(x):
        if isinstance(x, Rational):
            return ("q", x.value)
        if isinstance(x, Log):
            return ("l", x.log.ratio)
        return None

    ka, kb = key(a), key(b)
    if ka is None or kb is None:
        return None
    if ka[0] == kb[0] == "q":
        return (ka[1] > kb[1]) - (ka[1] < kb[1])
    if ka[0] == kb[0] == "l":
        return (ka[1] > kb[1]) - (ka[1] < kb[1])
    # ln(q) against a rational d: equal only when q = 1 and d = 0 (Hermite-Lindemann).
    log, rat, s = (ka[1], kb[1], 1) if ka[0] == "l" else (kb[1], ka[1], -1)
    if log == 1:
        return s * ((0 > rat) - (0 < rat))
    if rat == 0:
        return s * ((log > 1) - (log < 1))
    return None  # differ for sure: the enclosure ladder separates them


def log_times(q: Fraction, factor: Fraction, text: str) -> ArbExpr:
    """The real ``factor * ln(q)`` (``q > 0`` rational)."""
    def enclose(bits: int):
        with working_precision(bits + 32):
            return interval(ball(q).log() * rational(factor))

    return ArbExpr(text, display_float(factor) * (math.log(q.numerator) - math.log(q.denominator)), enclose,
                   form=((Fraction(factor), Fraction(q)),))


def kl_bound(q: Fraction, text: str) -> ArbExpr:
    """The real ``ln(q) * (q - 1)``: with ``q = e^eps``, ``eps (e^eps - 1)``."""
    return log_times(q, q - 1, text)


def log_combination(terms: list[tuple[Fraction, Fraction]], text: str) -> Real:
    """``sum_i c_i ln(q_i)`` for rationals ``c_i`` and ``q_i > 0``; a :class:`Log` when all ``c_i`` are integers
    and ``prod q_i^c_i`` has at most :data:`~relations.numbers._logs.MAX_POWER_BITS` bits (an exact form otherwise)."""
    if all(Fraction(c).denominator == 1 for c, _ in terms) and sum(
            power_bits(Fraction(q), int(c)) for c, q in terms) <= MAX_POWER_BITS:
        q = Fraction(1)
        for c, base in terms:
            q *= Fraction(base) ** int(c)
        return Log(LogRatio.of(q))

    def enclose(bits: int):
        with working_precision(bits + 32):
            total = ball(Fraction(0))
            for c, base in terms:
                total += ball(Fraction(base)).log() * rational(Fraction(c))
            return interval(total)

    approx = sum(display_float(Fraction(c)) * (math.log(Fraction(q).numerator) - math.log(Fraction(q).denominator))
                 for c, q in terms)
    return ArbExpr(text, approx, enclose, form=tuple((Fraction(c), Fraction(q)) for c, q in terms))


def affine_enclosure(premise: Real, sigma: Real | None, ca: Fraction, cs: Fraction, text: str) -> ArbExpr:
    """``ca * premise + cs * sigma`` for enclosed reals (e.g. a bound on ``I(X;Y)``), by interval arithmetic."""
    def scale(lo: Fraction, hi: Fraction, c: Fraction) -> tuple[Fraction, Fraction]:
        return (c * lo, c * hi) if c >= 0 else (c * hi, c * lo)

    def enclose(bits: int):
        lo, hi = scale(*premise.enclose(bits + 2), ca)
        if sigma is not None:
            slo, shi = scale(*sigma.enclose(bits + 2), cs)
            lo, hi = lo + slo, hi + shi
        return lo, hi

    approx = float(ca) * float(premise) + (float(cs) * float(sigma) if sigma is not None else 0.0)
    fp = log_form(premise)
    fs = log_form(sigma) if sigma is not None else ()
    form = None
    if fp is not None and fs is not None:
        form = tuple((ca * c, q) for c, q in fp) + tuple((cs * c, q) for c, q in fs)
    return ArbExpr(text, approx, enclose, form=form)


#: Largest premise ``a`` (nats) for which ``a (e^a - 1)`` is enclosed: the result has about ``a / ln 2``
#: bits, so beyond ``2**20 ln 2`` (about 726817) it is reported as infinite (larger than any float).
MAX_EXP_PREMISE = 2**20 * math.log(2)


def kl_enclosure(premise: Real, text: str) -> Real:
    """``a (e^a - 1)`` for an enclosed premise ``a >= 0`` (increasing there), from the premise's enclosure.

    Examples
    --------
    >>> x = kl_enclosure(log_times(Fraction(3), Fraction(2), "2 ln(3)"), "f")
    >>> round(float(x), 6), round(2 * math.log(3) * 8, 6)  # ln(9) (9 - 1)
    (17.577797, 17.577797)
    """
    if compare(premise, Rational(Fraction(MAX_EXP_PREMISE))) == 1:  # exactly: a's float only steers precision
        return inf()
    a = float(premise)

    extra = int(a / math.log(2)) + int(math.log2(2 + a)) + 8  # f'(a) = e^a (1 + a) - 1 magnifies the width

    def enclose(bits: int):
        lo, hi = premise.enclose(bits + extra)
        assert lo >= 0, "the KL bound is evaluated for non-negative premises"
        with working_precision(bits + extra + 32):
            return (interval(ball(lo) * (ball(lo).exp() - 1))[0], interval(ball(hi) * (ball(hi).exp() - 1))[1])

    exp_form = None
    if isinstance(premise, Rational) and premise.value:  # a (e^a - 1) = -a + a e^a
        exp_form = (-premise.value, premise.value, premise.value)
    return ArbExpr(text, a * math.expm1(a) if a < 700 else math.inf, enclose, exp_form=exp_form)


def exp_affine_sign(c: Fraction, d: Fraction, q: Fraction) -> int:
    """The sign of ``c - d e^q`` for rationals ``c, d`` and a rational ``q != 0``, exactly.

    ``e^q`` is irrational for rational ``q != 0`` (Lindemann), so ``c - d e^q`` is never zero when
    ``d != 0``; an enclosure refined until it excludes zero always ends.

    Examples
    --------
    >>> from fractions import Fraction
    >>> exp_affine_sign(Fraction(27183, 10000), Fraction(1), Fraction(1)), exp_affine_sign(Fraction(2718, 1000), Fraction(1), Fraction(1))
    (1, -1)
    >>> exp_affine_sign(Fraction(-3), Fraction(0), Fraction(5))
    -1
    """
    if d == 0:
        return (c > 0) - (c < 0)
    bits = 64
    while True:
        with working_precision(bits):
            lo, hi = interval(rational(c) - rational(d) * ball(q).exp())
        if lo > 0 or hi < 0:
            return 1 if lo > 0 else -1
        bits *= 2


def exp_affine(a: Fraction, b: Fraction, q: Fraction) -> Real:
    """The real ``a - b e^q`` for rationals ``a, b, q``: a :class:`Rational` when ``b = 0``, else an enclosure.

    Examples
    --------
    >>> from fractions import Fraction
    >>> exp_affine(Fraction(1, 2), Fraction(0), Fraction(3))
    Rational(value=Fraction(1, 2))
    >>> x = exp_affine(Fraction(3), Fraction(1), Fraction(1))
    >>> lo, hi = x.enclose(60)
    >>> 3 - Fraction(27182818285, 10**10) < lo <= hi < 3 - Fraction(27182818284, 10**10), round(float(x), 12)
    (True, 0.281718171541)
    """
    if b == 0:
        return Rational(a)

    def enclose(bits: int):
        with working_precision(bits + 32 + max(0, q.numerator.bit_length() - q.denominator.bit_length())):
            return interval(rational(a) - rational(b) * ball(q).exp())

    approx = display_float(a) - display_float(b) * math.exp(min(float(q), 700.0))
    return ArbExpr(f"{a} - {b} e^({q})", approx, enclose, exp_form=(a, -b, q))
