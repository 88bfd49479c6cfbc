"""The notions of issue 30: sibson(ALPHA), pml, the Bayes vulnerabilities and leakage, hellinger, renyi below 1.

Every value is derived by hand in the test (the docstrings say how) or by a second method (mpmath at 50
digits, or an identity with another notion); the properties are the published inequalities of
``docs/notion-inequalities.md``, checked on random exact mechanisms with hypothesis.
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from relations import Mechanism
from relations.checking import check
from relations.measures import eps_all as eps_all_budget
from relations.measures import measure
from relations.measures._batch import dense_values, ordered_pairs
from relations.measures._notion_floats import notion_float
from relations.measures._notions import notion_result, notion_value
from relations.mechanisms import product, randomized_response
from relations.numbers import Log, Rational, compare

mpmath.mp.dps = 50
RR = Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]])  # binary randomized response, ratio 3, uniform prior
NEW = ("sibson(2)", "sibson(1/2)", "pml", "prior_vulnerability", "bayes_vulnerability", "bayes_leakage", "hellinger",
       "renyi(1/2)")


def mpf(q) -> mpmath.mpf:
    q = F(q)
    return mpmath.mpf(q.numerator) / q.denominator


def lo(real, bits=80):
    return real.enclose(bits)[0]


def hi(real, bits=80):
    return real.enclose(bits)[1]


def inside(real, x, bits=100) -> bool:
    """The enclosure of ``real`` at ``bits`` contains the mpmath value ``x`` (up to mpmath's own 1e-40)."""
    a, b = real.enclose(bits)
    return mpf(a) - mpmath.mpf(10) ** -40 <= x <= mpf(b) + mpmath.mpf(10) ** -40


def sibson_mp(prior, rows, alpha) -> mpmath.mpf:
    """Sibson's I_alpha by its definition, in mpmath."""
    a = mpf(alpha)
    s = 0
    for y in range(len(rows[0])):
        inner = sum(mpf(p) * mpf(row[y]) ** a for p, row in zip(prior, rows) if p and row[y])
        if inner:
            s += inner ** (1 / a)
    return a / (a - 1) * mpmath.log(s)


@st.composite
def mechanisms(draw, zeros=True):
    n, m = draw(st.integers(2, 3)), draw(st.integers(2, 3))
    rows = []
    for _ in range(n):
        w = [draw(st.integers(0 if zeros else 1, 5)) for _ in range(m)]
        if sum(w) == 0:
            w[0] = 1
        rows.append([F(v, sum(w)) for v in w])
    pw = [draw(st.integers(0 if zeros else 1, 4)) for _ in range(n)]
    if sum(pw) == 0:
        pw[0] = 1
    return Mechanism.local(rows, prior=[F(v, sum(pw)) for v in pw])


# -- pml and the Bayes vulnerabilities: exact rationals --------------------------------------------------------

def test_pml_and_vulnerabilities_by_hand():
    """Binary RR, ratio 3.  Uniform prior: p(y) = 1/2, pml = ln((3/4)/(1/2)) = ln(3/2); V(pi) = 1/2,
    V(pi, C) = (1/2)(3/4) + (1/2)(3/4) = 3/4, leakage 1/4.  Prior (3/4, 1/4): p(y) = (5/8, 3/8), the outputs give
    (3/4)/(5/8) = 6/5 and (3/4)/(3/8) = 2, so pml = ln 2; V(pi, C) = 9/16 + 3/16 = 3/4 = V(pi): nothing leaks.
    Prior (1, 0): only row 0 counts, Q[0][y] = p(y), pml = 0.  An output no input reaches is skipped."""
    assert str(notion_value(RR, "pml")) == "ln(3/2)"
    assert [notion_value(RR, n).value for n in ("prior_vulnerability", "bayes_vulnerability", "bayes_leakage")] == \
        [F(1, 2), F(3, 4), F(1, 4)]
    skew = Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]], prior=["3/4", "1/4"])
    assert str(notion_value(skew, "pml")) == "ln(2)"
    assert [notion_value(skew, n).value for n in ("prior_vulnerability", "bayes_vulnerability", "bayes_leakage")] == \
        [F(3, 4), F(3, 4), F(0)]
    assert str(notion_value(Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]], prior=["1", "0"]), "pml")) == "0"
    # y = 2 unreached: p(y) = (3/8, 5/8, 0); (1/2)/(3/8) = 4/3 and (3/4)/(5/8) = 6/5
    unreached = Mechanism.local([["1/2", "1/2", "0"], ["1/4", "3/4", "0"]])
    assert str(notion_value(unreached, "pml")) == "ln(4/3)"


def test_products_add_or_multiply_over_records():
    """Three records of binary RR (ratio 3) under uniform priors: pml = 3 ln(3/2), V(pi) = 1/8, V(pi, C) = (3/4)^3,
    bayes_leakage = 27/64 - 8/64 = 19/64, and sibson(2) = 3 ln(5/4); the dense 8 x 8 channel gives the same."""
    m = product(randomized_response(3), 3)
    assert str(notion_value(m, "pml")) == "ln(27/8)"
    assert [notion_value(m, n).value for n in ("prior_vulnerability", "bayes_vulnerability", "bayes_leakage")] == \
        [F(1, 8), F(27, 64), F(19, 64)]
    assert str(notion_value(m, "sibson(2)")) == "ln(125/64)"
    dense = m.dense()
    for name in NEW:
        a, b = notion_value(m, name), notion_value(dense, name)
        assert compare(a, b) == 0 or (lo(a) <= hi(b) and lo(b) <= hi(a)), name


def test_min_entropy_leakage_is_the_log_of_the_vulnerabilities_ratio():
    """Smith's min-entropy leakage is ln(V(pi, C) / V(pi)) (Alvim et al. 2020, Sec. 5): the same rational."""
    m = Mechanism.local([["1/2", "1/4", "1/4"], ["1/8", "5/8", "1/4"], ["0", "1/3", "2/3"]], prior=["1/2", "1/3", "1/6"])
    ratio = notion_value(m, "bayes_vulnerability").value / notion_value(m, "prior_vulnerability").value
    assert notion_value(m, "min_entropy_leakage").log.ratio == ratio


# -- sibson ---------------------------------------------------------------------------------------------------

def test_sibson_by_hand():
    """Binary RR, ratio 3, uniform prior.  Order 2: each output has sum_x p Q^2 = (9/16 + 1/16)/2 = 5/16, so
    S = 2 sqrt(5/16) and I_2 = 2 ln S = ln(4 * 5/16) = ln(5/4).  Order 3: sum_x p Q^3 = (27 + 1)/128 = 7/32,
    S^3 = 8 * 7/32 = 7/4, I_3 = (3/2) ln S = ln(7/4) / 2.  Order 1/2: sum_x p sqrt(Q) = (sqrt 3 + 1)/4, squared
    (2 + sqrt 3)/8, S = (2 + sqrt 3)/4, I_1/2 = -ln S = ln(8 - 4 sqrt 3), irrational.  The noiseless bit under the
    uniform prior gives ln 2 at every order (S^a = 2^(a - b) for alpha = a/b)."""
    assert str(notion_value(RR, "sibson(2)")) == "ln(5/4)"
    i3 = notion_value(RR, "sibson(3)")
    assert inside(i3, mpmath.log(mpf(F(7, 4))) / 2)
    assert inside(notion_value(RR, "sibson(1/2)"), mpmath.log(8 - 4 * mpmath.sqrt(3)))
    bit = Mechanism.local([["1", "0"], ["0", "1"]])
    for a in ("2", "3", "1/2", "2/3", "5/2", "10"):
        v = notion_value(bit, f"sibson({a})")
        assert compare(v, notion_value(bit, "maximal_leakage")) == 0, a  # exactly ln 2
    # independence: exactly 0
    assert notion_value(Mechanism.local([["1/3", "2/3"], ["1/3", "2/3"]]), "sibson(3/2)") == Rational(F(0))


def test_sibson_limits():
    """alpha -> 1: I_alpha -> I(X;Y) with slope (1/2) Var[ln Q(y|x)/p(y)] (the derivative of D_alpha at 1 is half
    the variance of the log-likelihood ratio, and the minimiser over output laws is p(y) there).  For binary RR,
    ratio 3, uniform prior, ln Q/p(y) is ln(3/2) with probability 3/4 and ln(1/2) with 1/4: variance
    (3/16) ln(3)^2, slope (3/32) ln(3)^2.  Monotonicity puts I(X;Y) between I_{1-h} and I_{1+h}.
    alpha -> inf: with M = sum_y max_x Q (maximal leakage ln M) and the least positive prior p_min,
    p_min^(1/alpha) max_x Q <= (sum_x p Q^alpha)^(1/alpha) <= max_x Q, so
    alpha/(alpha-1) (ln M + ln(p_min)/alpha) <= I_alpha <= alpha/(alpha-1) ln M."""
    h = F(1, 10**6)
    below, above = notion_value(RR, "sibson", 1 - h), notion_value(RR, "sibson", 1 + h)
    mi = mpmath.log(2) - (-mpf(F(3, 4)) * mpmath.log(mpf(F(3, 4))) - mpf(F(1, 4)) * mpmath.log(mpf(F(1, 4))))
    slope = mpf(F(3, 32)) * mpmath.log(3) ** 2
    assert mpf(hi(below, 100)) <= mi <= mpf(lo(above, 100))
    for v, sign in ((above, 1), (below, -1)):
        assert abs(sign * (mpf(lo(v, 100)) - mi) / mpf(h) - slope) < 1e-6
    eps_m = measure(RR).eps_m.enclosure
    assert hi(below, 100) <= eps_m.upper and eps_m.lower <= lo(above, 100)

    m = Mechanism.local([["1/2", "1/4", "1/4"], ["1/8", "5/8", "1/4"], ["0", "1/3", "2/3"]],
                        prior=["1/2", "1/3", "1/6"])
    a = F(10**6)
    ml = notion_value(m, "maximal_leakage").log.ratio  # M = 1/2 + 5/8 + 2/3 = 43/24
    assert ml == F(43, 24)
    top = a / (a - 1) * mpmath.log(mpf(ml))
    bottom = a / (a - 1) * (mpmath.log(mpf(ml)) + mpmath.log(mpf(F(1, 6))) / mpf(a))
    v = notion_value(m, "sibson", a)
    assert bottom <= mpf(lo(v, 100)) and mpf(hi(v, 100)) <= top
    assert top - bottom < 2e-6


@settings(max_examples=25, deadline=None)
@given(mechanisms(), st.sampled_from([F(1, 3), F(1, 2), F(3, 4), F(3, 2), F(2), F(3), F(7, 2)]))
def test_sibson_against_mpmath(mech, alpha):
    v = notion_value(mech, "sibson", alpha)
    assert inside(v, sibson_mp(mech.prior.exact, mech.channel.exact, alpha))


@settings(max_examples=25, deadline=None)
@given(mechanisms(), st.sampled_from([(F(1, 3), F(1, 2)), (F(1, 2), F(2)), (F(3, 2), F(2)), (F(2), F(5))]))
def test_sibson_orders(mech, orders):
    """I_alpha nondecreasing in alpha (Ho, Verdu 2015), eps_m between the orders below and above 1, and every order
    at most maximal_leakage (the limit at infinity)."""
    a, b = (notion_value(mech, "sibson", o) for o in orders)
    assert lo(a) <= hi(b)
    eps_m = measure(mech).eps_m.enclosure
    ml = notion_value(mech, "maximal_leakage")
    for order, v in zip(orders, (a, b)):
        assert lo(v) <= hi(ml)
        if order < 1:
            assert lo(v) <= eps_m.upper
        else:
            assert eps_m.lower <= hi(v)


# -- pml ------------------------------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(mechanisms())
def test_pml_between_maximal_leakage_and_eps_all(mech):
    """maximal_leakage = ln E_y[max_x Q/p(y)] <= ln max_y (...) = pml; p(y) is an average of the rows of positive
    prior, so max_x Q[x][y] / p(y) <= max over x, x' of Q[x][y] / Q[x'][y] <= e^eps_all (Saeidian et al. 2023)."""
    ml, pml = notion_value(mech, "maximal_leakage"), notion_value(mech, "pml")
    eps_all = Log(eps_all_budget(mech).exact)
    assert compare(ml, pml) <= 0 and compare(pml, eps_all) <= 0
    me = notion_value(mech, "min_entropy_leakage")
    assert compare(me, ml) <= 0
    assert notion_value(mech, "bayes_leakage").value >= 0


# -- hellinger and renyi below 1 ------------------------------------------------------------------------------

def test_hellinger_by_hand_and_by_renyi():
    """Rows (1, 0), (1/4, 3/4): 1 - sqrt(1/4) = 1/2.  Binary RR, ratio 3: 1 - 2 sqrt(3/16) = 1 - sqrt(3)/2, and
    renyi(1/2) = -2 ln(sqrt(3)/2) = ln(4/3).  Disjoint rows: 1."""
    assert notion_value(Mechanism.local([["1", "0"], ["1/4", "3/4"]]), "hellinger") == Rational(F(1, 2))
    h = notion_value(RR, "hellinger")
    assert inside(h, 1 - mpmath.sqrt(3) / 2)
    assert str(notion_value(RR, "renyi(1/2)")) == "ln(4/3)"
    assert notion_value(Mechanism.local([["1", "0"], ["0", "1"]]), "hellinger") == Rational(F(1))
    r = notion_result(Mechanism.local([["1/2", "1/2"], ["1/8", "7/8"], ["1/2", "1/2"]]), "hellinger")
    assert inside(r.value, mpmath.mpf(3) / 4 - mpmath.sqrt(7) / 4) and {r.witness.x, r.witness.x_prime} == {0, 1}


@settings(max_examples=40, deadline=None)
@given(mechanisms())
def test_hellinger_identities_and_tv_bounds(mech):
    """renyi(1/2) = -2 ln(1 - H^2) pair by pair (so for the maxima), and H^2 <= tv <= sqrt(1 - (1 - H^2)^2)
    (Le Cam; Tsybakov 2009, Lemma 2.3)."""
    h = notion_value(mech, "hellinger")
    tv = notion_value(mech, "tv").value
    hl, hh = mpf(lo(h)), mpf(hi(h))
    assert hl <= mpf(tv) + mpmath.mpf(10) ** -30
    assert mpf(tv) <= mpmath.sqrt(1 - (1 - hh) ** 2) + mpmath.mpf(10) ** -20
    d = notion_value(mech, "renyi(1/2)")
    if hh >= 1:  # disjoint rows: both infinite / 1
        assert d.infinite == 1 and hl == 1
        return
    assert d.infinite == 0
    assert -2 * mpmath.log(1 - hl) - 1e-20 <= mpf(hi(d)) and mpf(lo(d)) <= -2 * mpmath.log(1 - hh) + 1e-20


def test_renyi_below_one_zero_conventions():
    """Order 1/2 counts only the outputs both rows reach: rows (1/2, 1/2) and (1, 0) give -2 ln sqrt(1/2) = ln 2,
    finite, while order 2 is infinite there (R = (1, 0) misses an output of P = (1/2, 1/2)); disjoint rows are
    infinite at every order.  Order 1/3 of binary RR by hand: sum P^(1/3) R^(2/3) =
    (3/4)^(1/3) (1/4)^(2/3) + (1/4)^(1/3) (3/4)^(2/3), D = -(3/2) ln of it."""
    half = Mechanism.local([["1/2", "1/2"], ["1", "0"]])
    assert str(notion_value(half, "renyi(1/2)")) == "ln(2)"
    assert notion_value(half, "renyi(2)").infinite == 1
    assert notion_value(Mechanism.local([["1", "0"], ["0", "1"]]), "renyi(1/3)").infinite == 1
    third = mpmath.mpf(1) / 3
    s = mpf(F(3, 4)) ** third * mpf(F(1, 4)) ** (2 * third) + mpf(F(1, 4)) ** third * mpf(F(3, 4)) ** (2 * third)
    assert inside(notion_value(RR, "renyi(1/3)"), -mpmath.mpf(3) / 2 * mpmath.log(s))


@settings(max_examples=30, deadline=None)
@given(mechanisms(), st.sampled_from([F(1, 4), F(1, 2), F(2, 3)]))
def test_renyi_orders_across_one(mech, alpha):
    """D_alpha nondecreasing in alpha (van Erven, Harremoes 2014, Thm 3): renyi(alpha) <= kl <= renyi(2), and
    against the definition in mpmath."""
    d, kl, r2 = notion_value(mech, "renyi", alpha), notion_value(mech, "kl"), notion_value(mech, "renyi(2)")
    if d.infinite:
        assert kl.infinite == 1
        return
    assert kl.infinite or lo(d) <= hi(kl)
    assert kl.infinite or r2.infinite or lo(kl) <= hi(r2)


# -- everywhere: floats, claims, conjectures, the CLI -------------------------------------------------------------

@pytest.mark.parametrize("name", NEW + ("sibson(3)", "renyi(1/3)"))
def test_float_evaluators_agree_with_the_exact_ones(name):
    """The searches' floats (one mechanism, a batch, float mode) against the exact value's float."""
    m = Mechanism.local([["1/2", "1/4", "1/4"], ["1/8", "5/8", "1/4"], ["1/3", "1/3", "1/3"]], prior=["1/2", "1/3", "1/6"])
    exact = float(notion_value(m, name))
    assert np.isclose(notion_float(m, name), exact, rtol=1e-9, atol=1e-12)
    batch = dense_values(np.asarray(m.channel.array)[None], np.asarray(m.prior.array)[None],
                         ordered_pairs(m.inputs.pairs()), (name,))
    assert np.isclose(batch[name][0], exact, rtol=1e-9, atol=1e-12)
    floats = Mechanism.local(np.asarray(m.channel.array), prior=np.asarray(m.prior.array), mode="float")
    assert np.isclose(float(notion_value(floats, name)), exact, rtol=1e-9, atol=1e-12)
    p = product(randomized_response(3), 3)
    assert np.isclose(notion_float(p, name), float(notion_value(p, name)), rtol=1e-9, atol=1e-12)


def test_claims_and_latex():
    res = check(RR, claims=["pml <= ln(3/2)", "pml < ln(3/2)", "sibson(2) <= ln(5/4)", "hellinger < 0.134",
                            "bayes_leakage <= 1/4", "renyi(1/2) <= ln(4/3)", "prior_vulnerability >= 1/2"])
    assert [c.holds for c in res.claims] == [True, False, True, True, True, True, True]
    from relations.io._exports import latex_math

    assert latex_math("sibson") == r"I^{\mathrm{S}}_{\alpha}" and latex_math("pml") == r"\ell_{\mathrm{PML}}"


def test_conjectures_parse_and_decide():
    """pml >= maximal_leakage with equality only when every output attains the same ratio: binary RR under a
    skewed prior separates them, so 'pml <= maximal_leakage' is refuted, and the witness re-checks exactly;
    sibson(2) >= eps_m with equality only under independence or noiselessness, so 'sibson(2) <= eps_m' is too."""
    from relations.pipeline import conjecture

    for text, lhs, rhs in (("pml <= maximal_leakage", "pml", "maximal_leakage"), ("sibson(2) <= eps_m", "sibson(2)",
                                                                                 None)):
        r = conjecture(text, quick=True)
        assert r.verdict == "refuted", text
        left = notion_value(r.witness, lhs)
        right = notion_value(r.witness, rhs) if rhs else None
        if right is not None:
            assert compare(left, right) == 1
        else:
            assert lo(left) > measure(r.witness).eps_m.enclosure.upper
    assert conjecture("hellinger <= tv", quick=True).verdict != "refuted"


def test_measure_all_lists_the_new_notions(tmp_path):
    from conftest import run_cli

    f = tmp_path / "rr.json"
    f.write_text('{"setting": "local", "prior": "uniform", "channel": [["3/4", "1/4"], ["1/4", "3/4"]]}')
    out = run_cli("measure", str(f), "--notion", "all", "--json")
    assert out.returncode == 0, out.stderr
    names = {row["name"] for row in json.loads(out.stdout)["notions"]}
    assert {"sibson(2)", "pml", "prior_vulnerability", "bayes_vulnerability", "bayes_leakage", "hellinger"} <= names


@settings(max_examples=40, deadline=None)
@given(mechanisms())
def test_further_published_inequalities(mech):
    """S5, P3, V2, V3, V4, H4, R2 of docs/notion-inequalities.md (the others are checked above)."""
    eps_m = measure(mech).eps_m.enclosure
    ml = notion_value(mech, "maximal_leakage")
    assert eps_m.lower <= hi(ml)  # S5
    eps_d = Log(measure(mech).eps_d.exact)
    assert compare(notion_value(mech, "pml"), eps_d) <= 0  # P3 (local)
    pv, bv, bl = (notion_value(mech, n).value for n in ("prior_vulnerability", "bayes_vulnerability", "bayes_leakage"))
    assert 0 <= bl <= 1 - pv and bl == bv - pv  # V2
    assert bv <= pv * ml.log.ratio  # V3: e^maximal_leakage is the rational M
    assert bl == pv * (notion_value(mech, "min_entropy_leakage").log.ratio - 1)  # V4
    kl, h = notion_value(mech, "kl"), notion_value(mech, "hellinger")
    bound = 1 if kl.infinite else 1 - mpmath.exp(-mpf(lo(kl)) / 2)
    assert mpf(lo(h)) <= bound + mpmath.mpf(10) ** -20  # H4
    for alpha in (F(1, 2), F(2), F(3, 2)):  # R2
        d = notion_value(mech, "renyi", alpha)
        assert eps_d.infinite == 1 or (d.infinite == 0 and lo(d) <= hi(eps_d))


def test_every_inequality_of_the_docs_parses():
    """docs/notion-inequalities.md states each fact in the conjecture grammar (ALPHA, BETA instantiated)."""
    import re
    from pathlib import Path

    from relations.checking._conjectures import parse_conjecture

    text = (Path(__file__).resolve().parent.parent / "docs" / "notion-inequalities.md").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.startswith("- statement:")]
    statements = [s for line in lines for s in re.findall(r"`([^`]*<=[^`]*)`", line)]
    assert len(lines) == 18 and len(statements) == 20
    for s in statements:
        parse_conjecture(s.replace("ALPHA", "2").replace("BETA", "3"))


def test_product_values_of_the_searches():
    """The searches' central values of an r-fold product from the local ones (search._families.product_values):
    additive, multiplicative and bayes_leakage = V(pi, C)^r - V(pi)^r, against the exact values' floats."""
    from relations.mechanisms import krr
    from relations.search._families import local_rr_values, product_values

    central = product_values(local_rr_values(3, 2.0, 0.0), 4)
    m = product(krr(3, 2), 4)
    for name in NEW:
        assert np.isclose(central[name], float(notion_value(m, name)), rtol=1e-12, atol=1e-15), name


def test_vulnerabilities_of_long_products():
    """A million records of 4-RR (ratio 3, uniform): V(pi, C) = (1/2)^r and V(pi) = (1/4)^r are too long to write;
    the leakage is positive (some record leaks), decided without expanding; under the prior (3/4, 1/4) binary RR
    leaks nothing per record (V(pi, C) = V(pi) = 3/4 by hand), so the product's leakage is exactly 0."""
    from relations.mechanisms import krr

    m = product(krr(4, 3), 10**6)
    v, leak = notion_value(m, "bayes_vulnerability"), notion_value(m, "bayes_leakage")
    assert compare(v, Rational(F(0))) == 1 and compare(v, Rational(F(1, 2**100))) == -1
    assert compare(leak, Rational(F(0))) == 1
    skew = product(Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]], prior=["3/4", "1/4"]), 10**6)
    assert notion_value(skew, "bayes_leakage") == Rational(F(0))


@pytest.mark.parametrize("name", ["sibson(2)", "sibson(999/1000)", "sibson(1/2)", "renyi(1/2)", "renyi(1/3)",
                                  "hellinger"])
def test_floats_keep_their_accuracy_on_near_identical_rows(name):
    """Rows 10^-6 apart: the values are of order 10^-13 (second order in the difference), so a float formula whose
    first-order terms do not cancel exactly loses most digits (sibson(999/1000) was off by 0.2 relative); the
    searches' floats stay within 10^-6 of the certified value."""
    d = F(1, 10**6)
    m = Mechanism.local([["1/3", "1/3", "1/3"], [F(1, 3) + d, F(1, 3) - d, F(1, 3)], [F(1, 3), F(1, 3) - d, F(1, 3) + d]],
                        prior=["1/2", "1/4", "1/4"])
    exact = notion_value(m, name)
    x = (lo(exact, 120) + hi(exact, 120)) / 2
    assert 0 < x < F(1, 10**10)
    assert abs(F(notion_float(m, name)) - x) <= x / 10**6


def test_sibson_of_a_constant_information_density():
    """Rows (1/2, 1/2, 0, 0) and (0, 0, 1/2, 1/2), uniform prior: p(y) = 1/4 and Q/p(y) = 2 wherever Q > 0, so
    sum_x p Q^alpha = (1/2)(1/2)^alpha per output, S = 4 (1/2)^(1 + 1/alpha) = 2^((alpha-1)/alpha) and
    I_alpha = ln 2 at every order, equal to eps_m = ln 2 and maximal_leakage = ln(1/2 + 1/2 + 1/2 + 1/2) = ln 2:
    the comparisons are exact ties, decided."""
    m = Mechanism.local([["1/2", "1/2", "0", "0"], ["0", "0", "1/2", "1/2"]])
    from relations.checking._quantities import values

    vals = values(m)
    for a in ("1/2", "3/2", "7/3"):
        v = notion_value(m, f"sibson({a})")
        assert str(v) == "ln(2)"
        assert compare(vals.reals["eps_m"], v) == 0 and compare(v, notion_value(m, "maximal_leakage")) == 0
