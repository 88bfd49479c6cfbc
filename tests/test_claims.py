"""User claims ``NAME OP BOUND`` decided exactly, and the ``check`` / ``catalogue`` commands.

Expected values are derived here (enumeration in Fractions, mpmath at 60
digits), never copied from the paper or the tool.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext
from fractions import Fraction as F
from pathlib import Path

import mpmath
import pytest
from conftest import run_cli

import relations
from relations.checking import check, parse_claim
from relations.errors import InputError


@pytest.fixture(autouse=True)
def _mp_precision():
    """This module's mpmath precision, restored afterwards (no leaking into other modules)."""
    with mpmath.workdps(60):
        yield


INF = math.inf
ROOT = Path(__file__).resolve().parent.parent
PAPER_FILE = ROOT / "examples" / "paper_example.json"
OPS = ("<=", "<", ">=", ">")


# --------------------------------------------------------------------------- reference


def mpq(q):
    return mpmath.mpf(q.numerator) / q.denominator


def max_ratio(matrix, pairs):
    """Largest A[x][y]/A[x'][y] over both orders of each pair (0/0 skipped, a/0 = INF); 1 if none."""
    best = None
    for i, j in pairs:
        for x, xp in ((i, j), (j, i)):
            for a, b in zip(matrix[x], matrix[xp]):
                if a == 0 and b == 0:
                    continue
                q = INF if b == 0 else F(a) / F(b)
                best = q if best is None or q > best else best
    return F(1) if best is None else best


def local_measures(prior, rows):
    n = len(rows)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    neg = max_ratio([[p] for p in prior], pairs)
    return {
        "eps_d": max_ratio(rows, pairs),
        "eps_i": max_ratio([[p * q for q in row] for p, row in zip(prior, rows)], pairs),
        "sigma_min": F(0) if neg == INF else 1 / neg,
    }


def mi_mp(prior, rows):
    py = [sum((p * row[y] for p, row in zip(prior, rows)), F(0)) for y in range(len(rows[0]))]
    return sum((mpq(p * q) * mpmath.log(mpq(q / py[y])) for p, row in zip(prior, rows)
                for y, q in enumerate(row) if p and q), mpmath.mpf(0))


def local_mech(prior, rows):
    return relations.from_dict({"setting": "local", "prior": [str(F(p)) for p in prior],
                                "channel": [[str(F(q)) for q in row] for row in rows]})


def decide(mech, *claims):
    return [c.holds for c in check(mech, claims, relations=()).claims]


def truth(value, op, bound):
    """``value OP bound`` for mpmath / exact numbers."""
    return {"<=": value <= bound, "<": value < bound, ">=": value >= bound, ">": value > bound}[op]


def decimal_around(value, digits):
    """Decimal strings strictly below and strictly above the mpmath ``value`` with ``digits`` decimals."""
    text = mpmath.nstr(value, 55, strip_zeros=False)
    with localcontext() as ctx:
        ctx.prec = 80
        d = Decimal(text)
        q = Decimal(1).scaleb(-digits)
        lo, hi = d.quantize(q, rounding=ROUND_FLOOR), d.quantize(q, rounding=ROUND_CEILING)
    # the 55-digit text is within 1e-50 of value; make sure the neighbours are strict
    assert mpmath.mpf(str(lo)) < value < mpmath.mpf(str(hi))
    return str(lo), str(hi)


P_PRIOR = [F(19, 20), F(1, 20)]
P_ROWS = [[F(13, 20), F(7, 20)], [F(7, 20), F(13, 20)]]


@pytest.fixture(scope="module")
def paper():
    return local_mech(P_PRIOR, P_ROWS)


@pytest.fixture(scope="module")
def paper_ref():
    return local_measures(P_PRIOR, P_ROWS)


# --------------------------------------------------------------------------- exact boundaries of ratio measures


@pytest.mark.parametrize("name", ["eps_d", "eps_i", "sigma_min"])
def test_claim_at_the_exact_value(paper, paper_ref, name):
    q = paper_ref[name]
    assert q not in (0, INF)
    same = f"{2 * q.numerator}/{2 * q.denominator}"  # the same rational, not in lowest terms
    for bound in (f"ln({q})", f"ln({same})", f"ln( {q} )"):
        got = decide(paper, *(f"{name}{op}{bound}" for op in OPS))
        assert got == [True, False, True, False], (name, bound)
    # a hair away from q, still a rational: exact either side
    eps = F(1, 10**30)
    assert decide(paper, f"{name}<=ln({q - eps})", f"{name}<ln({q + eps})") == [False, True]


def test_paper_example_named_values(paper, paper_ref):
    """eps_d<=ln(13/7) and sigma_min>=ln(1/19), with 13/7 and 1/19 derived by enumeration."""
    assert paper_ref["eps_d"] == F(13, 20) / F(7, 20)
    assert paper_ref["sigma_min"] == F(1, 20) / F(19, 20)
    assert decide(paper, "eps_d<=ln(13/7)", "sigma_min>=ln(1/19)", "eps_d < ln(13/7)") == [True, True, False]


@pytest.mark.parametrize("name", ["eps_d", "eps_i", "sigma_min"])
@pytest.mark.parametrize("digits", [3, 16, 40])
def test_decimals_either_side_of_the_value(paper, paper_ref, name, digits):
    value = mpmath.log(mpq(paper_ref[name]))
    below, above = decimal_around(value, digits)
    for bound in (below, above):
        want = [truth(value, op, mpmath.mpf(bound)) for op in OPS]
        assert decide(paper, *(f"{name}{op}{bound}" for op in OPS)) == want, bound
    assert decide(paper, f"{name}<={below}", f"{name}<={above}") == [False, True]


def test_float_repr_of_eps_d_decides_by_its_exact_value(paper, paper_ref):
    value = mpmath.log(mpq(paper_ref["eps_d"]))
    text = repr(float(value))  # shortest float text, 16-17 significant digits
    exact = F(text)
    assert mpq(exact) != value
    assert decide(paper, f"eps_d<={text}", f"eps_d>={text}") == [mpq(exact) >= value, mpq(exact) <= value]
    # and as a fraction with a small denominator on each side
    near = F(mpmath.nstr(value, 50)).limit_denominator(1000)
    lo, hi = (near, near + F(1, 1000)) if mpq(near) < value else (near - F(1, 1000), near)
    assert mpq(lo) < value < mpq(hi)
    assert decide(paper, f"eps_d<={lo}", f"eps_d<={hi}", f"eps_d>{lo}", f"eps_d>{hi}") == [False, True, True, False]


def test_claims_on_infinite_values():
    prior, rows = [F(1, 2), F(1, 2)], [[F(1, 2), F(1, 2)], [F(0), F(1)]]
    assert local_measures(prior, rows)["eps_d"] == INF
    mech = local_mech(prior, rows)
    assert decide(mech, "eps_d<=1000", "eps_d<1000", "eps_d>=1000", "eps_d>1000", f"eps_d<=ln({10**300})",
                  "eps_i<=1e3") == [False, False, True, True, False, False]
    prior0 = [F(1), F(0)]
    ref = local_measures(prior0, [[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]])
    assert ref["sigma_min"] == 0 and ref["eps_i"] == INF and ref["eps_d"] not in (0, INF)
    mech0 = local_mech(prior0, [[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]])
    assert decide(mech0, "sigma_min>=-1000", "sigma_min<=-1000", "sigma_min<ln(1/10000000)", "neg_sigma>=1000",
                  "eps_i>=1000") == [False, True, True, True, True]


def test_claims_on_zero_values():
    rows = [[F(1, 4), F(3, 4)]] * 3
    mech = local_mech([F(1, 3)] * 3, rows)
    ref = local_measures([F(1, 3)] * 3, rows)
    assert ref["eps_d"] == 1 and ref["sigma_min"] == 1
    for name in ("eps_d", "eps_i", "sigma_min"):
        for bound in ("0", "ln(1)", "0/7"):
            assert decide(mech, *(f"{name}{op}{bound}" for op in OPS)) == [True, False, True, False], (name, bound)


# --------------------------------------------------------------------------- mutual information


def test_mi_claims_a_hair_either_side(paper):
    value = mi_mp(P_PRIOR, P_ROWS)
    assert 0 < value < 1
    below = mpmath.nstr(value - mpmath.mpf("1e-25"), 40, strip_zeros=False)
    above = mpmath.nstr(value + mpmath.mpf("1e-25"), 40, strip_zeros=False)
    assert mpmath.mpf(below) < value < mpmath.mpf(above)
    assert decide(paper, f"eps_m<={above}", f"eps_m<={below}", f"eps_m>={below}", f"eps_m>={above}",
                  f"eps_m<{above}", f"eps_m>{below}") == [True, False, True, False, True, True]
    # as ln(RATIONAL) a hair either side too
    lo = F(mpmath.nstr(mpmath.exp(value - mpmath.mpf("1e-25")), 45))
    hi = F(mpmath.nstr(mpmath.exp(value + mpmath.mpf("1e-25")), 45))
    assert mpmath.log(mpq(lo)) < value < mpmath.log(mpq(hi))
    assert decide(paper, f"eps_m<=ln({hi})", f"eps_m<=ln({lo})") == [True, False]


def _exact_identity_mi(n):
    """I(X;Y) for the uniform identity on n inputs, checked against ln n at 60 digits."""
    prior = [F(1, n)] * n
    rows = [[F(int(i == j)) for j in range(n)] for i in range(n)]
    assert abs(mi_mp(prior, rows) - mpmath.log(n)) < mpmath.mpf(10) ** -55
    return prior, rows


@pytest.mark.parametrize("n", [2, 3])
def test_mi_exact_tie_with_a_logarithm(n):
    prior, rows = _exact_identity_mi(n)
    mech = local_mech(prior, rows)
    assert decide(mech, *(f"eps_m{op}ln({n})" for op in OPS)) == [True, False, True, False]
    # the float text of ln(n) is not ln(n)
    text = repr(math.log(n))
    above = mpq(F(text)) > mpmath.log(n)
    assert decide(mech, f"eps_m<={text}", f"eps_m>={text}") == [above, not above]


def test_mi_exact_tie_on_a_dense_central_mechanism():
    prior, rows = _exact_identity_mi(4)
    mech = relations.from_dict({"setting": "central", "domain": ["a", "b"], "records": 2,
                                "prior": [str(p) for p in prior], "channel": [[str(q) for q in r] for r in rows]})
    assert decide(mech, "eps_m<=ln(4)", "eps_m<ln(4)", "eps_m>=ln(4)", "eps_m>ln(4)") == [True, False, True, False]


def test_mi_zero_on_identical_rows():
    rows = [[F(1, 5), F(4, 5)]] * 3
    prior = [F(1, 2), F(1, 4), F(1, 4)]
    assert mi_mp(prior, rows) == 0
    mech = local_mech(prior, rows)
    for bound in ("0", "ln(1)"):
        assert decide(mech, *(f"eps_m{op}{bound}" for op in OPS)) == [True, False, True, False], bound
    assert decide(mech, "eps_m<=1e-100", "eps_m>=-1e-100", "eps_m>ln(999999/1000000)") == [True, True, True]


# --------------------------------------------------------------------------- parsing


@pytest.mark.parametrize("text", ["eps_d<=", "foo<=1", "eps_d=<1", "eps_d<=ln(-1)", "eps_d<=ln(0)", "eps_d==1",
                                  "eps_d<=1/0", "eps_d<=nan", "eps_d<=inf", "eps_d<=__import__('os')", "<=1",
                                  "eps_d<=ln(2", "eps_d<=exp(1)"])
def test_malformed_claims_are_input_errors(text):
    with pytest.raises(InputError) as info:
        parse_claim(text)
    assert "\n" not in str(info.value)


def test_claim_parsing_forms():
    c = parse_claim("  eps_d <= ln(13/7) ")
    assert (c.name, c.op, str(c.bound)) == ("eps_d", "<=", "ln(13/7)")
    assert parse_claim("eps_m<1e-3").bound.value == F(1, 1000)
    assert parse_claim("sigma_min>=-3/2").bound.value == F(-3, 2)
    assert parse_claim("eps_i>0.65").bound.value == F(13, 20)


# --------------------------------------------------------------------------- command line




def test_cli_check_json(paper_ref):
    q = paper_ref["eps_d"]
    proc = run_cli("check", str(PAPER_FILE), "--json", "--claim", f"eps_d<=ln({q})", "--claim", "sigma_min<=0")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    ids = [item["id"] for item in data["relations"]]
    assert ids == [r.id for r in relations.catalogue.CATALOGUE]
    for item in data["relations"]:
        assert item["holds"] in (True, False, None)
    by_id = {item["id"]: item for item in data["relations"]}
    # thm4 on this mechanism: eps_i against eps_d + sigma_min, from the enumeration
    thm4_holds = paper_ref["eps_i"] <= paper_ref["eps_d"] * paper_ref["sigma_min"]
    assert by_id["zheng2025.thm4"]["holds"] is thm4_holds is False
    assert by_id["zheng2025.thm1"]["holds"] is None  # central: not applicable to a local mechanism
    assert [(c["claim"], c["holds"]) for c in data["claims"]] == [(f"eps_d<=ln({q})", True), ("sigma_min<=0", True)]


def test_cli_check_exit_one_when_a_claim_fails(paper_ref):
    q = paper_ref["eps_d"]
    proc = run_cli("check", str(PAPER_FILE), "--json", "--claim", f"eps_d<=ln({q})", "--claim", f"eps_d<ln({q})")
    assert proc.returncode == 1, proc.stderr
    claims = json.loads(proc.stdout)["claims"]
    assert [c["holds"] for c in claims] == [True, False]


@pytest.mark.parametrize("claim", ["eps_d<=", "foo<=1", "eps_d=<1", "eps_d<=ln(-1)"])
def test_cli_check_malformed_claim_exit_two(claim):
    proc = run_cli("check", str(PAPER_FILE), "--claim", claim)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr and "claim" in lines[0]


def test_cli_catalogue_json():
    proc = run_cli("catalogue", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    ids = [item["id"] for item in data]
    assert [i for i in ids if i.startswith("zheng2025.thm")] == [f"zheng2025.thm{n}" for n in range(1, 13)]
    assert len(ids) == len(set(ids))
    for item in data:
        assert item["statement"] and item["setting"] in ("local", "central", "both")


def test_cli_catalogue_lists_the_composition_theorems():
    """``relations catalogue`` (JSON, wide and narrow tables) lists every composition theorem of the one registry
    (``check --only`` points there), after the relations."""
    from relations.catalogue._composition import COMPOSITION_RELATIONS

    data = json.loads(run_cli("catalogue", "--json").stdout)
    rows = {item["id"]: item for item in data}
    assert [item["id"] for item in data][-len(COMPOSITION_RELATIONS):] == [r.id for r in COMPOSITION_RELATIONS]
    for r in COMPOSITION_RELATIONS:
        item = rows[r.id]
        assert item["kind"] == "composition" and item["symbols"] == r.text() and item["source"] == r.source
        assert (item["premise"], item["conclusion"], item["rule"]) == (r.premise, r.conclusion, str(r.rule))
    for columns in ("200", "80"):
        proc = subprocess.run([sys.executable, "-m", "relations.cli", "catalogue"], capture_output=True, text=True,
                              env={**os.environ, "COLUMNS": columns}, cwd=ROOT, timeout=120)
        assert proc.returncode == 0, proc.stderr
        for r in COMPOSITION_RELATIONS:
            assert any(r.id in line and "k uses" in line for line in proc.stdout.splitlines()), (columns, r.id)
    bad = run_cli("check", "examples/paper_example.json", "--only", "kov2017.repeat_eps_deltaa")
    assert bad.returncode == 2 and "kov2017.repeat_eps_delta" in bad.stderr
