"""One grammar and one decider for claims and conjectures (``relations.checking._grammar``, ``conjecture_eval``).

A claim is the conjecture whose left side is one notion and whose right side is an exact constant: the
same parser reads both, the same argument check names their notions, and the same decider decides them.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction as F

import pytest

from relations import Mechanism
from relations.checking import _claims as claims
from relations.checking import _conjectures as conjectures
from relations.checking import _grammar as grammar
from relations.checking import check, decide, parse_claim, values
from relations.checking._conjecture_eval import decide as decide_statement
from relations.checking._conjectures import parse_conjecture
from relations.errors import InputError
from relations.numbers._reals import Log, Rational

RR = Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]])  # eps_d = ln 3


def test_one_grammar():
    assert claims.GRAMMAR is conjectures.GRAMMAR is grammar.GRAMMAR
    assert conjectures.MAX_NODES == grammar.MAX_NODES and conjectures.OPERATORS == grammar.OPERATORS


@pytest.mark.parametrize("notion,message", [
    ("renyi(1)", "renyi(alpha) needs a rational alpha > 0, alpha != 1, got 1 (alpha = 1 is kl)"),
    ("renyi(0)", "renyi(alpha) needs a rational alpha > 0, alpha != 1, got 0"),
    ("renyi(-1/2)", "renyi(alpha) needs a rational alpha > 0, alpha != 1, got -1/2"),
    ("sibson(1)", "sibson(alpha) needs a rational alpha > 0, alpha != 1, got 1 (alpha = 1 is eps_m)"),
    ("sibson(0)", "sibson(alpha) needs a rational alpha > 0, alpha != 1, got 0"),
    ("eps_delta(2)", "eps_delta(delta) needs 0 <= delta <= 1, got 2"),
    ("eps_delta(ln(2))", "eps_delta(delta) needs a rational delta, got ln(2)"),
    ("delta(-1)", "delta(eps) needs eps >= 0, got -1"),
    ("delta(ln(1/2))", "delta(eps) needs eps >= 0, got ln(1/2)"),
    ("delta(ln(0))", "ln needs a positive argument"),
])
def test_arguments_are_checked_alike(notion, message):
    with pytest.raises(InputError) as claim:
        parse_claim(f"{notion} <= 1")
    with pytest.raises(InputError) as conj:
        parse_conjecture(f"{notion} <= eps_d")
    assert str(claim.value) == f"claim '{notion} <= 1': {message}"
    assert str(conj.value) == f"conjecture '{notion} <= eps_d': {message} at column 1"


@pytest.mark.parametrize("written,key", [("delta(0.5)", "delta(1/2)"), ("delta(1 - 1/2)", "delta(1/2)"),
                                         ("delta(ln(1))", "delta(0)"), ("delta(ln(6/2))", "delta(ln(3))"),
                                         ("eps_delta(1e-3)", "eps_delta(1/1000)"), ("renyi(+3/2)", "renyi(3/2)")])
def test_notions_are_named_alike(written, key):
    assert parse_claim(f"{written} <= 1").name == key
    assert parse_conjecture(f"{written} <= eps_d").notions == (key, "eps_d")


def test_claim_bounds_are_exact_constants():
    assert parse_claim("eps_d <= 1/2 + 1/4").bound == Rational(F(3, 4))
    assert parse_claim("eps_d <= +1").bound == Rational(F(1))
    assert parse_claim("eps_d <= -(3)/2").bound == Rational(F(-3, 2))
    assert parse_claim("eps_d <= ln(26/14)").bound == Log(parse_claim("eps_d <= ln(13/7)").bound.log)
    assert str(parse_claim("eps_d <= ln(1/2 + 1/2)").bound) == "0"


@pytest.mark.parametrize("text,column", [("eps_d <= 2^2", 11), ("eps_d + 1 <= 2", 7), ("eps_d <= eps_i", 10),
                                         ("eps_d <= exp(1)", 10), ("eps_d <= ln(2)/2", 10), ("delta(1, 2) <= 1", 8),
                                         ("renyi(eps_d) < 1", 7), ("1 >= eps_d", 1)])
def test_other_statements_are_not_claims(text, column):
    with pytest.raises(InputError) as exc:
        parse_claim(text)
    assert str(exc.value) == (f"claim {text!r}: expected NAME OP BOUND, e.g. 'eps_d<=ln(13/7)' (unexpected input "
                              f"at column {column})")
    parse_conjecture(text.replace("delta(1, 2)", "eps_m").replace("renyi(eps_d)", "eps_m"))  # conjectures


def test_claim_messages():
    for text, message in [("eps_d <= 1/0", "'1/0' divides by zero"), ("eps_d <= 13/(2 - 2)", "'13/(2 - 2)' divides by "
                          "zero"), ("eps_d <= ln(0)", "ln needs a positive argument"), ("rho(2) < 1", "rho takes no "
                          "argument"), ("eps_m(2) < 1", "eps_m takes no argument"), ("delta < 1", "delta needs an "
                          "argument: delta(eps)"), ("eps_dd < 1", "unknown quantity 'eps_dd' (one of eps_i, eps_d, "
                          "eps_m, sigma_min, eps_all, neg_sigma, delta, eps_delta, tv, renyi, rho, kl, chi2, min_entropy_leakage, "
                          "maximal_leakage, cmi, gdp_mu, sibson, pml, prior_vulnerability, bayes_vulnerability, bayes_leakage, hellinger)")]:
        with pytest.raises(InputError) as exc:
            parse_claim(text)
        assert str(exc.value) == f"claim {text!r}: {message}"
    with pytest.raises(InputError, match="nested deeper than 200"):
        parse_claim("eps_d <= " + "-" * 300 + "1")
    with pytest.raises(InputError, match="more than 2000 terms"):
        parse_claim("eps_d <= " + "+".join(["1"] * 1500))


CASES = [  # (mechanism, statements with one notion against a constant)
    (RR, ["eps_d <= ln(3)", "eps_d < ln(3)", "eps_d >= 1.0986122886681098", "eps_d > 1.0986122886681096",
          "eps_m <= 0.1308", "eps_m >= 0.1308", "renyi(2) <= ln(7/5)", "kl <= ln(3)", "delta(0) <= 1/2",
          "delta(0) < 1/2", "sigma_min >= 0", "eps_i <= 1/2 + 1/2"]),
    (Mechanism.local([[1, 0], [0, 1]]), ["eps_d <= 1000", "eps_d > 1000", "eps_m <= ln(2)", "eps_m < ln(2)",
                                          "sigma_min >= -1000", "eps_all >= ln(1)"]),
    (Mechanism.local([["1", "0"], ["1/2", "1/2"]], prior=["1", "0"]), ["sigma_min <= -1000", "neg_sigma >= 1000",
                                                                       "eps_i > 0", "eps_d <= 1"]),
]


@pytest.mark.parametrize("mech,texts", CASES, ids=["rr", "noiseless", "zero prior"])
def test_a_claim_is_decided_as_its_conjecture(mech, texts):
    vals = values(mech)
    for text in texts:
        as_claim = decide_statement(parse_claim(text), vals.reals)
        as_conjecture = decide_statement(parse_conjecture(text), vals.reals)
        assert (as_claim.status, as_claim.how) == (as_conjecture.status, as_conjecture.how), text
        assert as_claim.how in ("exact", "infinities"), text
        outcome = decide(parse_claim(text), vals)
        assert str(outcome.status) == as_claim.status and outcome.holds == (as_claim.status == "holds"), text
        # the constant on the left: the same decision
        name, op, bound = text.split(" ", 2)
        flipped = decide_statement(parse_conjecture(f"{bound} {op.replace('<', '>') if '<' in op else op.replace('>', '<')} "
                                                    f"{name}"), vals.reals)
        assert (flipped.status, flipped.how) == (as_claim.status, as_claim.how), text


def test_holds_within_rounding_is_a_claims_margin():
    e = math.exp(math.log(3))
    p, q = e / (e + 2), 1 / (e + 2)
    vals = values(Mechanism.local([[p, q, q], [q, p, q], [q, q, p]]))
    claim = parse_claim("eps_d <= ln(3)")
    within = decide_statement(claim, vals.reals, margins=vals.margins)
    assert within.status == "holds within rounding" and within.how.startswith("the boundary is within the inputs'")
    assert decide_statement(claim, vals.reals).status == "fails"  # on the binary values, without the margin
    outcome = decide(claim, vals)
    assert not vals.approximate  # float entries at their exact binary values: no "approximate" note
    assert outcome.holds is True and outcome.note == within.how
    # a conjecture that is not one notion against a constant has no margin
    assert decide_statement(parse_conjecture("eps_d + 0 * eps_i <= ln(3)"), vals.reals,
                            margins=vals.margins).status == "fails"


def test_claims_are_decided_without_sympy():
    code = ("import sys\nfrom relations import Mechanism\nfrom relations.checking import check\n"
            "m = Mechanism.local([[1, 0], [0, 1]])\n"
            "r = check(m, ['eps_d <= 1000', 'eps_m <= ln(2)', 'eps_m < 0.7', 'kl >= 1', 'renyi(2) > ln(3)'], relations=())\n"
            "print([c.holds for c in r.claims], 'sympy' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["[False,", "True,", "True,", "True,", "True]", "False"]


def test_check_json_of_new_bounds(tmp_path):
    from conftest import run_cli

    f = tmp_path / "rr.json"
    f.write_text('{"setting": "local", "prior": "uniform", "channel": [["3/4", "1/4"], ["1/4", "3/4"]]}')
    run = run_cli("check", str(f), "--json", "--claim", "eps_d <= ln(6/2)", "--claim", "eps_d < 1/2 + 1/2")
    assert run.returncode == 1, run.stderr
    claimed = json.loads(run.stdout)["claims"]
    assert [(c["claim"], c["holds"], c["status"]) for c in claimed] == [
        ("eps_d <= ln(6/2)", True, "holds"), ("eps_d < 1/2 + 1/2", False, "fails")]
    assert check(RR, ["eps_d <= ln(6/2)"], relations=()).claims[0].claim.bound == Log(
        parse_claim("eps_d <= ln(3)").bound.log)
