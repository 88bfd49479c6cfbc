"""Claims and conjectures decided exactly on one mechanism: the one decider, :func:`decide`.

A claim (:mod:`relations.checking._claims`) is the conjecture (:mod:`relations.checking._conjectures`)
whose one side is a single notion and whose other side is an exact constant (``eps_d <= ln(13/7)``);
both are decided here, in this order:

1. **a notion against an exact constant** (every claim): an infinite notion decides by its sign
   (``"infinities"``); otherwise the two exact reals are compared by
   :func:`~relations.numbers._reals.compare` (rational arithmetic for ``ln q`` against ``ln r`` or a
   rational, enclosures with the notion's own exact tie-breakers otherwise: ``"exact"``).  No sympy is
   needed, and nothing is imported for it;
2. **rational-linear sides**: a side that is a rational linear combination of notions, rationals and
   ``ln`` of rationals is decided exactly: ratio notions are ``ln q``, so the comparison is one of
   rationals (``eps_d <= eps_i - sigma_min`` holds with equality where it is attained), and one
   enclosed notion (``eps_m``) is compared with ``ln Q`` or a rational by its own exact tie-breaker;
3. **certified balls**: both sides are evaluated over the extended reals with certified ball
   arithmetic (python-flint's ``arb``), each notion entering as its certified enclosure
   (``Real.enclose(bits)``) at the precisions of :data:`~relations.numbers._reals.LADDER`; the
   comparison is decided as soon as the balls separate.  Two sides that the enclosures do not separate
   at 64 bits, once every operation is certified to be defined, are tested for an exact identity
   (:func:`relations.checking._symbolic_tie.symbolic_zero`: ``exp(eps_d) <= 3`` at ``eps_d = ln 3``
   holds with equality).  Otherwise the statement is ``undecided``, never guessed.

A claim on a mechanism given in floats may **hold within rounding**: when it fails (or is undecided)
on the channel as given but the boundary lies within the quantity's rounding margin (``margins``,
:func:`~relations.checking.rounding_margins`), a mechanism within the inputs' rounding satisfies it.

Conventions (``docs/claims-and-verdicts.md``): an infinite notion is an infinity; ``x + inf = inf``
for ``x > -inf``; ``c * inf = +-inf`` for ``c != 0``; ``x / +-inf = 0``; ``exp(inf) = inf``,
``exp(-inf) = 0``, ``ln(inf) = inf``, ``ln(0) = -inf``, ``tanh(+-inf) = +-1``, ``sqrt(inf) = inf``;
``inf <= inf`` holds and ``inf < inf`` does not.  Undefined: ``inf - inf``, ``0 * inf``, ``x / 0``
(so ``0 / 0`` and ``inf / inf``), ``ln`` of a negative number, ``sqrt`` of a negative number, a
non-integer power of a negative number, ``0`` to a non-positive power (``0^0`` included; ``inf^0 = 1``).
A constant part that is undefined (``0^0``, ``1/0``) makes the statement undefined on every mechanism:
:func:`parse_defined` refuses it.  On a mechanism where a side is undefined the conjecture is
``undefined`` there: neither a counterexample nor evidence.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from relations.checking._claims import Claim
from relations.checking._conjectures import Conjecture
from relations.checking._symbolic_tie import symbolic_zero
from relations.errors import InputError
from relations.kinds import Status
from relations.numbers._enclosure import ball, working_precision
from relations.numbers._logs import LogRatio
from relations.numbers._reals import LADDER, Log, Rational, Real, compare

__all__ = ["Decision", "decide", "parse_defined"]


class _Imprecise(Exception):
    """The balls straddle a point where an operation changes its meaning: more bits are needed."""


class _Undefined(Exception):
    """The expression has no value on this mechanism (``inf - inf``, ``ln(-1)``, ``x / 0``)."""


@dataclass(frozen=True)
class Decision:
    """A claim or conjecture on one mechanism (:func:`decide`).

    Attributes
    ----------
    status : str
        ``"holds"``, ``"fails"`` (the mechanism refutes it), ``"undecided"`` (the enclosures did
        not separate and no exact tie-breaker applied), ``"undefined"`` (a side has no value) or, for
        a notion against a constant given ``margins``, ``"holds within rounding"``.
    lhs, rhs : float
        The two sides as floats (``nan`` when undefined).
    how : str
        How it was decided (``"exact"``, ``"enclosures at N bits"``, ``"infinities"``, ...; for
        ``holds within rounding``, the margin).
    """

    status: str
    lhs: float
    rhs: float
    how: str


def _reals(conj: Conjecture, reals) -> dict[str, Real]:
    out = {}
    for name in conj.notions:
        try:
            out[name] = reals[name]
        except KeyError:
            raise InputError(f"conjecture {conj.text!r}: the notion {name!r} is not available in this version "
                             "of relations") from None
    return out


def decide(statement: Conjecture | Claim, reals, *, margins: Mapping[str, float] | None = None) -> Decision:
    """Decide a claim or a conjecture on one mechanism, given its notions (``values(mech).reals``).

    Parameters
    ----------
    statement : Conjecture or Claim
        A parsed conjecture (:func:`~relations.checking._conjectures.parse_conjecture`) or claim
        (:func:`~relations.checking._claims.parse_claim`: decided as its
        :attr:`~relations.checking._claims.Claim.statement`).
    reals : mapping of str to Real
        ``values(mech).reals`` (looked up by each notion's name).
    margins : mapping of str to float, optional
        How far each notion can move within the inputs' rounding (``values(mech).margins``): a notion
        against a constant that fails or is undecided, with its boundary within the margin, holds
        within rounding.  Other statements ignore it.

    Returns
    -------
    Decision
        Its ``status`` and ``how`` it was decided.

    Raises
    ------
    InputError
        If a notion the statement names is not available.

    Examples
    --------
    The paper's example refutes Theorem 4 as published, and the corrected form holds with
    equality (decided exactly):

    >>> from relations.checking._claims import parse_claim
    >>> from relations.checking._conjectures import parse_conjecture
    >>> from relations.checking._quantities import values
    >>> from relations.mechanisms import paper_example
    >>> vals = values(paper_example()).reals
    >>> decide(parse_conjecture("eps_i <= eps_d + sigma_min"), vals).status
    'fails'
    >>> d = decide(parse_conjecture("eps_i <= eps_d - sigma_min"), vals)
    >>> d.status, d.how
    ('holds', 'exact')

    A claim is decided the same way:

    >>> d = decide(parse_claim("eps_d <= ln(13/7)"), vals)
    >>> d.status, d.how
    ('holds', 'exact')
    """
    conj = statement.statement if isinstance(statement, Claim) else statement
    reals = _reals(conj, reals)
    lhs, rhs = conj.left.float_value(reals), conj.right.float_value(reals)
    one = _notion_and_constant(conj)
    if one is not None:
        return _decide_notion(conj, reals, lhs, rhs, *one, margins or {})
    if not any(r.infinite for r in reals.values()):
        sign = _linear_sign(conj, reals)
        if sign is not None:
            return Decision(_status(conj.op, sign), lhs, rhs, "exact")
    return _enclosures(conj, reals, lhs, rhs)


def parse_defined(text: str, *, where: str = "conjecture") -> Conjecture:
    """:func:`~relations.checking._conjectures.parse_conjecture`, refusing a statement with an undefined constant
    part (``0^0``, ``1/0``, ``ln(-1)``, ``inf - inf`` as ``ln(0) - ln(0)``): it is undefined on every mechanism.

    Raises
    ------
    InputError
        One line naming the undefined part.

    Examples
    --------
    >>> parse_defined("eps_d <= 0^0 + 1")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: conjecture 'eps_d <= 0^0 + 1': 0^0 is undefined (0 to a non-positive power), so \
the statement is undefined on every mechanism (docs/claims-and-verdicts.md, 'Conventions')
    >>> parse_defined("eps_d <= ln(0) + 1").text
    'eps_d <= ln(0) + 1'
    """
    import sympy

    from relations.checking._conjectures import parse_conjecture
    from relations.checking._grammar import shown

    conj = parse_conjecture(text)
    for side in (conj.lhs, conj.rhs):
        for part in sympy.postorder_traversal(side):  # the innermost undefined part first
            if part.free_symbols or part.is_Number:
                continue
            try:
                with working_precision(128):
                    _ball(part, {}, 96)
            except _Undefined:
                shown_part = str(part).replace("**", "^").replace("log(", "ln(")
                why = _why_undefined(part)
                raise InputError(f"{where} {shown(conj.text)!r}: {shown_part} is undefined ({why}), so the statement "
                                 "is undefined on every mechanism (docs/claims-and-verdicts.md, 'Conventions')") \
                    from None
            except _Imprecise:
                continue
    return conj


def _why_undefined(part) -> str:
    """Which convention leaves ``part`` (an undefined constant expression) without a value."""
    import sympy

    if isinstance(part, sympy.Pow):
        if part.base == 0:
            return "division by zero" if part.exp == -1 else "0 to a non-positive power"
        return "the square root of a negative number" if part.exp == sympy.Rational(1, 2) else \
            "a non-integer power of a negative number"
    if isinstance(part, sympy.log):
        return "ln of a negative number"
    return "inf - inf" if isinstance(part, sympy.Add) else "0 * inf"


def _notion_and_constant(conj: Conjecture) -> tuple[str, Real, int] | None:
    """``(notion, constant, 1)`` for ``notion OP constant``, ``(..., -1)`` for ``constant OP notion``."""
    left, right = conj.left, conj.right
    if left.notion is not None and right.constant is not None:
        return left.notion, right.constant, 1
    if right.notion is not None and left.constant is not None:
        return right.notion, left.constant, -1
    return None


def _decide_notion(conj: Conjecture, reals: dict[str, Real], lhs: float, rhs: float, name: str, bound: Real,
                   orientation: int, margins: Mapping[str, float]) -> Decision:
    """A notion against an exact constant: infinities, then :func:`compare`, then the balls; then the rounding."""
    value = reals[name]
    if value.infinite:
        decision = Decision(_status(conj.op, orientation * value.infinite), lhs, rhs, "infinities")
    else:
        s = compare(value, bound)
        decision = (_enclosures(conj, reals, lhs, rhs) if s is None  # only the symbolic tie can still decide
                    else Decision(_status(conj.op, orientation * s), lhs, rhs, "exact"))
    margin = margins.get(name, 0.0)
    if decision.status in ("fails", "undecided") and _within(value, bound, margin):
        return Decision(str(Status.HOLDS_WITHIN_ROUNDING), lhs, rhs,
                        f"the boundary is within the inputs' rounding (|{name} - bound| <= {margin:.3g})")
    return decision


def _within(value: Real, bound: Real, margin: float) -> bool:
    """Whether ``|value - bound| <= margin`` (plus float evaluation error), both finite."""
    if not margin > 0 or value.infinite or bound.infinite:
        return False
    # decided with certified enclosures of value - bound, refined until they settle it (never in floats);
    # still unsettled at the finest precision: not within (no "holds within rounding" is guessed)
    vlo, vhi = value.enclose(LADDER[0])
    blo, bhi = bound.enclose(LADDER[0])
    m = Fraction(margin) + Fraction(1, 2**50) * max(Fraction(1), abs(vlo), abs(vhi), abs(blo), abs(bhi))
    for bits in LADDER:
        vlo, vhi = value.enclose(bits)
        blo, bhi = bound.enclose(bits)
        lo, hi = vlo - bhi, vhi - blo
        if -m <= lo and hi <= m:
            return True
        if lo > m or hi < -m:
            return False
    return False


def _enclosures(conj: Conjecture, reals: dict[str, Real], lhs: float, rhs: float) -> Decision:
    """Certified balls at rising precision, with the symbolic tie-breaker once they are 64 bits wide."""
    tried = False
    for bits in LADDER:
        try:
            with working_precision(bits + 32):
                a, b = _ball(conj.lhs, reals, bits), _ball(conj.rhs, reals, bits)
                sign = _sign(a, b)
        except _Undefined:
            return Decision("undefined", lhs, rhs, "a side has no value (see the conventions)")
        except _Imprecise:
            continue
        if sign is not None:
            how = "infinities" if isinstance(a, int) or isinstance(b, int) else f"enclosures at {bits} bits"
            return Decision(_status(conj.op, sign), lhs, rhs, how)
        if not tried and bits >= 64:  # every operation certified defined here, and still no separation
            tried = True
            if symbolic_zero(conj, reals):
                return Decision(_status(conj.op, 0), lhs, rhs, "exact (the two sides are equal: symbolic identity)")
    return Decision("undecided", lhs, rhs, f"enclosures did not separate at {LADDER[-1]} bits")


def _status(op: str, sign: int) -> str:
    ok = {"<=": sign <= 0, "<": sign < 0, ">=": sign >= 0, ">": sign > 0}[op]
    return "holds" if ok else "fails"


# ------------------------------------------------------------------ exact linear decisions


def _linear(expr) -> dict | None:
    """``expr`` as ``{term: coefficient}`` (terms: ``1``, a notion's name, ``("ln", q)``), or ``None``."""
    import sympy

    if expr.is_Rational:
        return {1: Fraction(int(expr.p), int(expr.q))}
    if expr.is_Symbol:
        return {expr.name: Fraction(1)}
    if isinstance(expr, sympy.log):
        inner = _linear(expr.args[0])
        if inner is not None and set(inner) <= {1} and inner.get(1, 0) > 0:
            return {("ln", inner[1]): Fraction(1)} if inner[1] != 1 else {}
        return None
    if isinstance(expr, sympy.Add):
        total: dict = {}
        for arg in expr.args:
            part = _linear(arg)
            if part is None:
                return None
            for k, v in part.items():
                total[k] = total.get(k, 0) + v
        return total
    if isinstance(expr, sympy.Mul):
        scale, rest = Fraction(1), None
        for arg in expr.args:
            part = _linear(arg)
            if part is None:
                return None
            if set(part) <= {1}:
                scale *= part.get(1, 0)
            elif rest is None:
                rest = part
            else:
                return None
        return {1: scale} if rest is None else {k: scale * v for k, v in rest.items()}
    if isinstance(expr, sympy.Pow) and expr.exp == -1:
        part = _linear(expr.base)
        if part is not None and set(part) <= {1} and part.get(1, 0) != 0:
            return {1: 1 / part[1]}
    return None


def _linear_sign(conj: Conjecture, reals: dict[str, Real]) -> int | None:
    """``sign(lhs - rhs)`` exactly when both sides are rational-linear in logarithms and notions."""
    left, right = _linear(conj.lhs), _linear(conj.rhs)
    if left is None or right is None:
        return None
    form = dict(left)
    for k, v in right.items():
        form[k] = form.get(k, 0) - v
    const, logs, enclosed = form.pop(1, Fraction(0)), [], []
    for k, c in form.items():
        if not c:
            continue
        real = reals[k] if isinstance(k, str) else Log(LogRatio.of(k[1]))
        if isinstance(real, Log):
            assert real.log.ratio is not None  # finite: decide() comes here without infinities
            logs.append((c, real.log.ratio))
        elif isinstance(real, Rational):
            const += c * real.value
        else:
            enclosed.append((c, real))
    if len(enclosed) > 1 or any(abs(c.numerator) > 10**6 or c.denominator > 10**6 for c, _ in logs):
        return None
    if enclosed:  # sign(c X + rest) = sign(c) * sign(X + rest / c), X compared with its tie-breaker
        c, x = enclosed[0]
        other = _as_real([(-d / c, q) for d, q in logs], -const / c)
        if other is None:
            return None
        s = compare(x, other)
        return None if s is None else (s if c > 0 else -s)
    if not logs:
        return (const > 0) - (const < 0)
    scale = math.lcm(*(c.denominator for c, _ in logs))
    combined = _as_real([(c * scale, q) for c, q in logs], Fraction(0))
    return None if combined is None else compare(combined, Rational(-const * scale))


def _as_real(terms: list[tuple[Fraction, Fraction]], const: Fraction) -> Real | None:
    """``sum c_i ln q_i + const`` as a :class:`Log` (integer ``c_i``, no constant) or :class:`Rational`."""
    if not terms:
        return Rational(const)
    if const or any(c.denominator != 1 for c, _ in terms) or sum(abs(c.numerator) for c, _ in terms) > 4096:
        return None
    q = Fraction(1)
    for c, base in terms:
        q *= base ** int(c)
    return Log(LogRatio.of(q))


# ------------------------------------------------------------------ extended-real balls


def _ball(expr, reals: dict[str, Real], bits: int):
    """``expr`` as an arb ball, or ``+1`` / ``-1`` for ``+-inf``; raises on undefined or imprecise."""
    import sympy
    from flint import arb

    if expr.is_Rational:
        return ball(Fraction(int(expr.p), int(expr.q)))
    if expr.is_Symbol:
        real = reals[expr.name]
        if real.infinite:
            return real.infinite
        lo, hi = real.enclose(bits)
        return ball(lo) if lo == hi else ball(lo).union(ball(hi))
    args = [_ball(a, reals, bits) for a in expr.args]
    if isinstance(expr, sympy.Add):
        return _fold(args, _add)
    if isinstance(expr, sympy.Mul):
        return _fold(args, _mul)
    if isinstance(expr, (sympy.Min, sympy.Max)):
        return _fold(args, lambda a, b: _minmax(a, b, isinstance(expr, sympy.Max)))
    if isinstance(expr, sympy.Pow):
        return _pow(*cast("tuple[Any, Any]", args), expr.exp)  # base and exponent
    x = args[0]
    if isinstance(expr, sympy.exp):
        return (1 if x > 0 else arb(0)) if isinstance(x, int) else x.exp()
    if isinstance(expr, sympy.tanh):
        return arb(x) if isinstance(x, int) else x.tanh()
    assert isinstance(expr, sympy.log), type(expr)
    if isinstance(x, int):
        if x < 0:
            raise _Undefined
        return 1
    if x.is_zero():
        return -1
    if x < 0:
        raise _Undefined
    if not x > 0:
        raise _Imprecise
    return x.log()


def _fold(args, op):
    out = args[0]
    for a in args[1:]:
        out = op(out, a)
    return out


def _add(a, b):
    if isinstance(a, int) and isinstance(b, int) and a != b:
        raise _Undefined
    return a if isinstance(a, int) else b if isinstance(b, int) else a + b


def _sign_of(x) -> int:
    if isinstance(x, int):
        return x
    if x.is_zero():
        return 0
    if x > 0:
        return 1
    if x < 0:
        return -1
    raise _Imprecise


def _mul(a, b):
    if isinstance(a, int) or isinstance(b, int):
        s = _sign_of(a) * _sign_of(b)
        if s == 0:
            raise _Undefined  # 0 * inf
        return s
    return a * b


def _minmax(a, b, maximum: bool):
    if isinstance(a, int) or isinstance(b, int):
        sa, sb = (a if isinstance(a, int) else 0), (b if isinstance(b, int) else 0)
        if maximum:
            return 1 if 1 in (sa, sb) else (b if sa == -1 else a)
        return -1 if -1 in (sa, sb) else (b if sa == 1 else a)
    return a.max(b) if maximum else a.min(b)


def _pow(base, exponent, exponent_expr):
    from flint import arb

    if exponent_expr.is_Integer:
        n = int(exponent_expr)
        if isinstance(base, int):
            return arb(1) if n == 0 else (arb(0) if n < 0 else (base if base > 0 or n % 2 else 1))
        if n == 0:
            if base.is_zero():
                raise _Undefined  # 0^0
            if not (base > 0 or base < 0):
                raise _Imprecise
            return arb(1)
        if n < 0:
            if base.is_zero():
                raise _Undefined  # x / 0
            if not (base > 0 or base < 0):
                raise _Imprecise
            return 1 / base ** (-n)
        return base ** n
    if exponent_expr == Fraction(1, 2) or (exponent_expr.is_Rational and exponent_expr.q == 2 and exponent_expr.p == 1):
        if isinstance(base, int):
            if base < 0:
                raise _Undefined
            return 1
        if base.is_zero():
            return arb(0)
        if base < 0:
            raise _Undefined
        if not base > 0:
            raise _Imprecise
        return base.sqrt()
    # a^b = exp(b ln a) for a > 0; 0^b = 0 for b > 0
    if not isinstance(base, int) and base.is_zero():
        if _sign_of(exponent) > 0:
            return arb(0)
        raise _Undefined
    if _sign_of(base) < 0:
        raise _Undefined
    if not isinstance(base, int) and not base > 0:
        raise _Imprecise
    log = 1 if isinstance(base, int) else base.log()
    p = _mul(exponent, log)
    return (1 if p > 0 else arb(0)) if isinstance(p, int) else p.exp()


def _sign(a, b) -> int | None:
    """``sign(a - b)`` of two extended balls, ``None`` when they overlap."""
    if isinstance(a, int) or isinstance(b, int):
        if isinstance(a, int) and isinstance(b, int):
            return (a > b) - (a < b)
        return a if isinstance(a, int) else -b
    d = a - b
    if d.is_zero():
        return 0
    if d < 0:
        return -1
    if d > 0:
        return 1
    return None
