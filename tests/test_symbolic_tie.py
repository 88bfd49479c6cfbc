"""Exact ties of conjectures (relations.checking._symbolic_tie): two sides that are equal at a
mechanism are decided as equal, by values derived by hand here; sides that differ by less than the
enclosures can resolve stay undecided; and an operation the enclosures cannot certify as defined
is never given a verdict."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from relations import Mechanism
from relations.checking._conjecture_eval import decide
from relations.checking._conjectures import parse_conjecture
from relations.checking._quantities import values
from relations.mechanisms._local import krr, product

ratios = st.fractions(min_value=Fraction(11, 10), max_value=20, max_denominator=12).filter(lambda r: r != 1)


def _decide(text, mech):
    return decide(parse_conjecture(text), values(mech).reals)


@settings(max_examples=20, deadline=None)
@given(ratios)
def test_krr_ties_in_eps_d_are_decided_exactly(r):
    """Binary RR with ratio r has eps_d = ln r (by hand), so exp(eps_d) = r and
    tanh(eps_d / 2) = (r - 1)/(r + 1): equalities, which no enclosure separates."""
    m = krr(2, r)
    for lhs, rhs in (("exp(eps_d)", f"{r}"), ("tanh(eps_d / 2)", f"{(r - 1) / (r + 1)}"),
                     ("eps_d * eps_d", f"ln({r})^2")):
        holds = _decide(f"{lhs} <= {rhs}", m)
        assert (holds.status, holds.how.startswith("exact")) == ("holds", True), (lhs, rhs, holds)
        assert _decide(f"{lhs} < {rhs}", m).status == "fails"
        assert _decide(f"{lhs} >= {rhs}", m).status == "holds"


@settings(max_examples=15, deadline=None)
@given(st.fractions(min_value=Fraction(1, 10), max_value=Fraction(9, 10), max_denominator=10),
       st.fractions(min_value=Fraction(1, 10), max_value=Fraction(9, 10), max_denominator=10),
       st.fractions(min_value=Fraction(1, 10), max_value=Fraction(9, 10), max_denominator=10))
def test_mutual_information_ties_are_decided_exactly(a, b, w):
    """exp(I(X;Y)) = prod_{x,y} (Q[x][y] / p(y))^(p(x) Q[x][y]), computed here from the definition,
    for a binary channel [[a, 1-a], [b, 1-b]] and prior (w, 1-w)."""
    rows, p = [[a, 1 - a], [b, 1 - b]], [w, 1 - w]
    py = [p[0] * rows[0][y] + p[1] * rows[1][y] for y in range(2)]
    factors = [f"({rows[x][y] / py[y]})^({p[x] * rows[x][y]})" for x in range(2) for y in range(2)
               if rows[x][y] / py[y] != 1]
    rhs = " * ".join(factors) or "1"
    m = Mechanism.local(rows, prior=p)
    got = _decide(f"exp(eps_m) <= {rhs}", m)
    assert got.status == "holds", (rows, p, got)
    assert _decide(f"exp(eps_m) > {rhs}", m).status == "fails"


def test_product_forms_tie_per_record():
    """Three records of binary RR at ratio 3, uniform prior: I = 3 (ln 2 + 3/4 ln 3/4 + 1/4 ln 1/4)."""
    m = product(krr(2, 3), 3)
    assert _decide("exp(eps_m / 3) <= 2 * (3/4)^(3/4) * (1/4)^(1/4)", m).status == "holds"
    assert _decide("exp(eps_m / 3) < 2 * (3/4)^(3/4) * (1/4)^(1/4)", m).status == "fails"


def test_a_gap_below_the_enclosures_is_undecided_not_equal():
    """exp(eps_d) = 3 differs from 3 - 10^-2000 by less than 2^-4096, the finest enclosure: no
    symbolic identity holds, so the answer is undecided, not a guess either way."""
    got = _decide("exp(eps_d) <= 3 - 1/10^2000", krr(2, 3))
    assert got.status == "undecided", got


def test_no_verdict_where_an_operation_is_not_certified_defined():
    """eps_d - ln(3) is exactly 0 at ratio 3: the division is undefined, and enclosures never show
    the divisor nonzero, so no identity is tried."""
    got = _decide("eps_m / (eps_d - ln(3)) <= 1", krr(2, 3))
    assert got.status in ("undecided", "undefined"), got


def _leaves():
    import mpmath

    return st.sampled_from([
        ("eps_d", lambda e: e), ("ln(2)", lambda e: mpmath.log(2)), ("ln(3/4)", lambda e: mpmath.log(mpmath.mpf(3) / 4)),
        ("2", lambda e: mpmath.mpf(2)), ("1/3", lambda e: mpmath.mpf(1) / 3),
        ("3^(1/2)", lambda e: mpmath.sqrt(3)), ("12^(1/2)", lambda e: mpmath.sqrt(12)),
        ("exp(eps_d)", lambda e: mpmath.exp(e))])


def _combine(inner):
    import mpmath

    ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b}
    binary = st.tuples(inner, st.sampled_from(sorted(ops)), inner).map(
        lambda t: (f"({t[0][0]} {t[1]} {t[2][0]})", lambda e, t=t: ops[t[1]](t[0][1](e), t[2][1](e))))
    unary = st.tuples(inner, st.sampled_from([("exp", mpmath.exp), ("tanh", mpmath.tanh)])).map(
        lambda t: (f"{t[1][0]}({t[0][0]})", lambda e, t=t: t[1][1](t[0][1](e))))
    powers = st.tuples(inner, st.sampled_from([("1/2", mpmath.sqrt), ("2", lambda x: x * x), ("-1", lambda x: 1 / x)])).map(
        lambda t: (f"({t[0][0]})^({t[1][0]})", lambda e, t=t: t[1][1](t[0][1](e))))
    return st.one_of(binary, unary, powers)


@settings(max_examples=80, deadline=None)
@given(st.recursive(_leaves(), _combine, max_leaves=6), st.recursive(_leaves(), _combine, max_leaves=6), ratios)
def test_a_proved_identity_holds_to_200_digits(lhs, rhs, r):
    """Soundness: whenever the normal form says ``lhs = rhs``, the two sides agree to 150 digits in
    mpmath at 200 (a second, independent evaluation)."""
    import mpmath

    from relations.checking._symbolic_tie import symbolic_zero

    if symbolic_zero(parse_conjecture(f"{lhs[0]} + 0 * eps_d <= {rhs[0]}"), values(krr(2, r)).reals):
        with mpmath.workdps(200):
            e = mpmath.log(mpmath.mpf(r.numerator) / r.denominator)
            try:
                a, b = lhs[1](e), rhs[1](e)
            except ZeroDivisionError:
                return
            if all(isinstance(v, mpmath.mpf) and mpmath.isfinite(v) for v in (a, b)):
                assert abs(a - b) <= mpmath.mpf(10) ** -150 * max(1, abs(a), abs(b)), (lhs[0], rhs[0], a, b)


def test_identities_that_need_the_normal_form():
    """Each pair is equal by hand: radicals over a coprime basis, tanh of a log, logs of products."""
    m = krr(2, 3)
    for lhs, rhs in (("12^(1/2) - 3^(1/2) + 0 * eps_d", "3^(1/2)"), ("tanh(eps_d)", "4/5"),
                     ("(exp(eps_d / 2) + 1)^2", "4 + 2 * 3^(1/2)"), ("eps_d * ln(12)", "ln(3)^2 + 2 * ln(3) * ln(2)"),
                     ("exp(eps_d)^(1/3) * 9^(1/3)", "3"), ("1 / (1 + 2^(1/2)) + 0 * eps_d", "2^(1/2) - 1")):
        got = _decide(f"{lhs} <= {rhs}", m)
        assert got.status == "holds" and got.how.startswith("exact"), (lhs, rhs, got)
        assert _decide(f"{lhs} < {rhs}", m).status == "fails", (lhs, rhs)
    # Equal, but outside the normal form (a min; a nested radical): undecided, never guessed.
    assert _decide("min(eps_d, 2) <= ln(3)", m).status == "undecided"
    assert _decide("(3 + 2 * 2^(1/2))^(1/2) + 0 * eps_d <= 1 + 2^(1/2)", m).status == "undecided"
