"""Evaluating catalogued relations and user claims on one mechanism, exactly.

:func:`check` measures a mechanism once (:mod:`relations.measures`), turns each
quantity into an exact real (:mod:`relations.reals`) and evaluates every
relation of :data:`relations.catalogue.CATALOGUE`:

* ratio relations are decided by rational comparison (``ln a <= ln b`` iff
  ``a <= b``; the bound ``g (ca a + cs s)`` is ``ln(q_a^(g ca) q_s^(g cs))``);
* anything with ``eps_m`` compares certified enclosures at rising precision,
  with an exact algebraic tie-breaker, and is ``undecided`` rather than guessed;
* an infinite premise makes an implication hold vacuously; an infinite
  conclusion with a finite bound makes it fail (SPEC section 4);
* a non-implication is not decided by one mechanism; the outcome says whether
  this mechanism is a witness for it (finite premise, infinite conclusion).

User claims ``NAME OP BOUND`` (:func:`parse_claim`) are decided the same way.
Float-mode (``.npz``) mechanisms are compared on their float values and every
outcome says ``approximate``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from . import catalogue as cat
from .enclosure import DEFAULT_BITS, compare_with_log, independent, mutual_information, sum_enclosures
from .errors import InputError
from .exact import LogRatio, parse_rational
from .mechanism import HammingInputs, Mechanism, ProductChannel, ProductPrior
from .measures import Budget, Measures, Witness, eps_all, measure
from .neighbours import diameter
from .product import factor_groups
from .reals import ArbExpr, Log, Rational, Real, compare, inf, kl_bound, log_combination


# --------------------------------------------------------------------------- values of one mechanism


@dataclass(frozen=True, eq=False)
class Values:
    """Everything the relations need from one mechanism, as exact reals."""

    mechanism: Mechanism
    measures: Measures
    eps_all: Budget
    diameter: int | None
    reals: dict
    witnesses: dict
    approximate: bool


def _mi_real(mech: Mechanism, measures: Measures) -> Real:
    mi = measures.eps_m
    if mi.enclosure is None:
        return Rational(Fraction(mi.value))
    first = mi.enclosure
    cache = {DEFAULT_BITS: first}

    if isinstance(mech.channel, ProductChannel):
        prior = mech.prior
        assert isinstance(prior, ProductPrior)
        local_rows = mech.channel.local.exact
        counts = {key: len(members) for key, members in factor_groups(prior).items()}
        extra = mech.channel.records.bit_length() + 1

        def compute(bits):
            return sum_enclosures((mutual_information(p, local_rows, bits + extra), c) for p, c in counts.items())

        def tie(other):
            if _is_zero(other):
                return 0 if all(independent(p, local_rows) for p in counts) else 1
            if isinstance(other, Log) and other.log.is_finite:
                return compare_with_log((), (), other.log.ratio, [(p, local_rows, c) for p, c in counts.items()])
            return None
    else:
        p, rows = mech.prior.exact, mech.channel.exact

        def compute(bits):
            return mutual_information(p, rows, bits)

        def tie(other):
            if _is_zero(other):
                return 0 if independent(p, rows) else 1
            if isinstance(other, Log) and other.log.is_finite:
                return compare_with_log(p, rows, other.log.ratio)
            return None

    def enclose(bits):
        bits = max(bits, DEFAULT_BITS)
        if bits not in cache:
            cache[bits] = compute(bits)
        e = cache[bits]
        return e.lower, e.upper

    return ArbExpr("I(X;Y)", mi.value, enclose, tie)


def _is_zero(x) -> bool:
    return (isinstance(x, Rational) and x.value == 0) or (isinstance(x, Log) and x.log.is_finite and x.log.ratio == 1)


def _real(budget: Budget, approximate: bool) -> Real:
    if approximate or budget.exact is None:
        v = budget.value
        if v in (float("inf"), float("-inf")):
            return Log(LogRatio(None, 1 if v > 0 else -1))
        return Rational(Fraction(v))
    return Log(budget.exact)


def values(mech: Mechanism, measures: Measures | None = None) -> Values:
    """Measure ``mech`` (unless ``measures`` is given) and collect its exact reals."""
    measures = measures or measure(mech)
    approx = not measures.exact
    all_pairs = eps_all(mech)
    neg = measures.sigma_min
    neg_sigma = Budget("neg_sigma", -neg.value, None if neg.exact is None else -neg.exact,
                       None if neg.witness is None else Witness(neg.witness.x_prime, neg.witness.x, None))
    reals = {
        "eps_i": _real(measures.eps_i, approx),
        "eps_d": _real(measures.eps_d, approx),
        "sigma_min": _real(measures.sigma_min, approx),
        "neg_sigma": _real(neg_sigma, approx),
        "eps_all": _real(all_pairs, approx),
        "eps_m": _mi_real(mech, measures),
    }
    witnesses = {"eps_i": measures.eps_i.witness, "eps_d": measures.eps_d.witness,
                 "sigma_min": measures.sigma_min.witness, "neg_sigma": neg_sigma.witness,
                 "eps_all": all_pairs.witness, "eps_m": None}
    return Values(mech, measures, all_pairs, diameter(mech.inputs), reals, witnesses, approx)


# --------------------------------------------------------------------------- relations


@dataclass(frozen=True)
class Outcome:
    """A relation evaluated on one mechanism.

    ``status`` is ``holds``, ``fails``, ``undecided`` or ``not applicable`` for
    implications, ``witness`` / ``not a witness`` for non-implications;
    ``holds`` is True, False or None (undecided, not applicable, or a
    non-implication).  ``slack = bound - conclusion`` (negative when failing),
    as a float and, when both sides are logarithms of rationals, exactly.
    """

    relation: cat.Relation
    status: str
    holds: bool | None
    premise: Real | None = None
    bound: Real | None = None
    conclusion: Real | None = None
    slack: float | None = None
    slack_exact: str | None = None
    witness: Witness | None = None
    note: str = ""
    approximate: bool = False


def applicable(relation: cat.Relation, mech: Mechanism) -> str | None:
    """``None`` if the relation applies to ``mech``, else the reason it does not."""
    if not relation.applies_to_setting(mech.setting):
        return f"stated for the {relation.setting} setting"
    if isinstance(mech.inputs, HammingInputs) and mech.inputs.records < relation.min_records:
        return f"stated for D^r with r >= {relation.min_records}"
    return None


def bound_value(relation: cat.Relation, premise: Real, sigma: Real, diam: int | None) -> Real:
    """``f(premise, sigma_min)`` as an exact real (premise finite)."""
    b = relation.bound
    if isinstance(b, cat.KLBound):
        if isinstance(premise, Log):
            return kl_bound(premise.log.ratio, f"{premise} (e^{premise} - 1)")
        v = float(premise)
        return Rational(Fraction(v * math.expm1(v)))
    assert isinstance(b, cat.Linear)
    if isinstance(premise, Log) and isinstance(sigma, Log):
        if b.integral:
            return Log(b.evaluate(premise.log, sigma.log, diam))
        if b.times_diameter and diam is None:
            return inf()
        g = diam if b.times_diameter else 1
        terms = [(Fraction(b.ca) * g, premise.log)] + ([(Fraction(b.cs) * g, sigma.log)] if b.cs else [])
        if any(not t.is_finite for c, t in terms if c):
            total = sum((c * t.sign for c, t in terms if c and not t.is_finite), Fraction(0))
            return inf(1 if total > 0 else -1)
        return log_combination([(c, t.ratio) for c, t in terms if c], b.text(relation.premise))
    if b.times_diameter and diam is None:
        return inf()
    g = diam if b.times_diameter else 1
    if b.cs and sigma.infinite:
        return inf(1 if b.cs * sigma.infinite < 0 else -1)
    if isinstance(premise, ArbExpr) or (b.cs and isinstance(sigma, ArbExpr)):
        return _linear_enclosure(premise, sigma if b.cs else None, Fraction(b.ca) * g, Fraction(b.cs) * g,
                                 b.text(relation.premise))
    v = g * (float(b.ca) * float(premise) + (float(b.cs) * float(sigma) if b.cs else 0.0))
    if v in (float("inf"), float("-inf")):
        return Log(LogRatio(None, 1 if v > 0 else -1))
    return Rational(Fraction(v))


def _scale(lo: Fraction, hi: Fraction, c: Fraction) -> tuple[Fraction, Fraction]:
    return (c * lo, c * hi) if c >= 0 else (c * hi, c * lo)


def _linear_enclosure(premise: Real, sigma: Real | None, ca: Fraction, cs: Fraction, text: str) -> ArbExpr:
    """``ca * premise + cs * sigma`` for enclosed reals (e.g. a bound on ``I(X;Y)``), by interval arithmetic."""
    def enclose(bits: int):
        lo, hi = _scale(*premise.enclose(bits + 2), ca)
        if sigma is not None:
            slo, shi = _scale(*sigma.enclose(bits + 2), cs)
            lo, hi = lo + slo, hi + shi
        return lo, hi

    approx = float(ca) * float(premise) + (float(cs) * float(sigma) if sigma is not None else 0.0)
    return ArbExpr(text, approx, enclose)


def evaluate(relation: cat.Relation, vals: Values) -> Outcome:
    """Decide one relation on one mechanism."""
    why = applicable(relation, vals.mechanism)
    if why:
        return Outcome(relation, "not applicable", None, note=why)
    premise = vals.reals[relation.premise]
    conclusion = vals.reals[relation.conclusion]
    approx = vals.approximate
    if relation.kind == "non-implication":
        is_witness = premise.infinite == 0 and conclusion.infinite > 0
        note = (f"this mechanism is a witness: {relation.premise} finite, {relation.conclusion} = inf" if is_witness
                else f"not a witness: needs {relation.premise} finite and {relation.conclusion} infinite")
        return Outcome(relation, "witness" if is_witness else "not a witness", None, premise, None, conclusion,
                       witness=vals.witnesses[relation.conclusion] if is_witness else None, note=note,
                       approximate=approx)
    if premise.infinite > 0:
        return Outcome(relation, "holds", True, premise, None, conclusion,
                       note=f"{relation.premise} = inf: holds vacuously", approximate=approx)
    bound = bound_value(relation, premise, vals.reals["sigma_min"], vals.diameter)
    if bound.infinite > 0:
        return Outcome(relation, "holds", True, premise, bound, conclusion, note="bound = inf", approximate=approx)
    s = compare(conclusion, bound)
    slack, slack_exact = _slack(bound, conclusion)
    if s is None:
        return Outcome(relation, "undecided", None, premise, bound, conclusion, slack, slack_exact,
                       note="enclosures did not separate", approximate=approx)
    holds = s <= 0
    return Outcome(relation, "holds" if holds else "fails", holds, premise, bound, conclusion, slack, slack_exact,
                   witness=None if holds else vals.witnesses[relation.conclusion], approximate=approx)


def _slack(bound: Real, conclusion: Real) -> tuple[float | None, str | None]:
    if isinstance(bound, Log) and isinstance(conclusion, Log):
        b, c = bound.log, conclusion.log
        if b.is_finite and c.is_finite:
            d = LogRatio.of(b.ratio / c.ratio)
            return d.value, str(d)
        if c.sign > 0:
            return float("-inf"), "-inf"
    return float(bound) - float(conclusion), None


@dataclass(frozen=True)
class Report:
    """All relation outcomes and claim decisions for one mechanism."""

    values: Values
    outcomes: tuple[Outcome, ...]
    claims: tuple["ClaimOutcome", ...]


def check(mech: Mechanism, claims=(), relations=None) -> Report:
    """Evaluate every catalogued relation (or ``relations``) and the given claims on ``mech``."""
    vals = values(mech)
    rels = cat.CATALOGUE if relations is None else relations
    parsed = [c if isinstance(c, Claim) else parse_claim(c) for c in claims]
    return Report(vals, tuple(evaluate(r, vals) for r in rels), tuple(decide(c, vals) for c in parsed))


# --------------------------------------------------------------------------- claims

CLAIM_NAMES = ("eps_i", "eps_d", "eps_m", "sigma_min", "eps_all", "neg_sigma")
_CLAIM = re.compile(r"^\s*([a-z_]+)\s*(<=|>=|<|>)\s*([^<>=\s].*?)\s*$")
_LN = re.compile(r"^ln\((.+)\)$")


@dataclass(frozen=True)
class Claim:
    """``name op bound``: e.g. ``eps_d <= ln(13/7)``; ``bound`` is an exact real."""

    text: str
    name: str
    op: str
    bound: Real


def parse_claim(text: str) -> Claim:
    """Parse ``NAME OP BOUND`` (SPEC section 5); a malformed claim is an :class:`InputError`."""
    m = _CLAIM.match(text)
    if not m:
        raise InputError(f"claim {text!r}: expected NAME OP BOUND, e.g. 'eps_d<=ln(13/7)'")
    name, op, bound_text = m.groups()
    if name not in CLAIM_NAMES:
        raise InputError(f"claim {text!r}: unknown quantity {name!r} (one of {', '.join(CLAIM_NAMES)})")
    ln = _LN.match(bound_text.replace(" ", ""))
    if ln:
        q = parse_rational(ln.group(1), f"claim {text!r}")
        if q <= 0:
            raise InputError(f"claim {text!r}: ln needs a positive argument")
        bound: Real = Log(LogRatio.of(q))
    else:
        bound = Rational(parse_rational(bound_text, f"claim {text!r}"))
    return Claim(text.strip(), name, op, bound)


@dataclass(frozen=True)
class ClaimOutcome:
    claim: Claim
    holds: bool | None
    value: Real
    note: str = ""


def decide(claim: Claim, vals: Values) -> ClaimOutcome:
    """Decide a claim exactly on the measured values (``None``: undecided)."""
    value = vals.reals[claim.name]
    if value.infinite:
        s = value.infinite
    else:
        s = compare(value, claim.bound)
    if s is None:
        return ClaimOutcome(claim, None, value, "undecided: enclosures did not separate")
    holds = {"<=": s <= 0, "<": s < 0, ">=": s >= 0, ">": s > 0}[claim.op]
    return ClaimOutcome(claim, holds, value, "approximate (float mode)" if vals.approximate else "")
