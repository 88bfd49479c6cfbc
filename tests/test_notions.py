"""The notions of relations.measures._notions against values derived here, independently.

References are computed in this file: by hand for binary randomized response, by enumeration in
Fractions (privacy profile, leakages, eps_delta by bisection), with mpmath at 50 digits (Renyi, KL,
the sup over alpha of zCDP on a grid refined by golden sections, conditional mutual information from
the full joint), on expanded product mechanisms, and float mode against exact mode.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

from relations import Mechanism
from relations.checking import check, values
from relations.errors import InputError
from relations.measures._notions import NOTIONS, notion_result, notion_value, parse_notion
from relations.mechanisms import krr, paper_example, product, randomized_response
from relations.model import Channel
from relations.numbers import Log, LogRatio, Rational, compare, inf


@pytest.fixture(autouse=True)
def _mp():
    with mpmath.workdps(50):
        yield


def ln(q) -> Log:
    return Log(LogRatio.of(F(q)))


def mp(q):
    if isinstance(q, mpmath.mpf):
        return q
    q = F(q)
    return mpmath.mpf(q.numerator) / q.denominator


def pairs_of(n):
    return [(i, j) for i in range(n) for j in range(n) if i != j]


def hamming_pairs(k, r):
    rows = [tuple(int(d) for d in np.unravel_index(i, (k,) * r)) for i in range(k**r)]
    return [(i, j) for i in range(k**r) for j in range(k**r) if sum(a != b for a, b in zip(rows[i], rows[j])) == 1]


def ref_delta(rows, pairs, t):
    return max((sum((max(F(0), a - t * b) for a, b in zip(rows[i], rows[j])), F(0)) for i, j in pairs), default=F(0))


def ref_renyi(rows, pairs, alpha):
    best = mpmath.mpf(0)
    for i, j in pairs:
        p, q = rows[i], rows[j]
        if any(a > 0 and b == 0 for a, b in zip(p, q)):
            return mpmath.inf
        s = sum(mp(a) ** mp(alpha) * mp(b) ** (1 - mp(alpha)) for a, b in zip(p, q) if a)
        best = max(best, mpmath.log(s) / (mp(alpha) - 1))
    return best


def ref_kl(rows, pairs):
    best = mpmath.mpf(0)
    for i, j in pairs:
        p, q = rows[i], rows[j]
        if any(a > 0 and b == 0 for a, b in zip(p, q)):
            return mpmath.inf
        best = max(best, sum(mp(a) * mpmath.log(mp(a) / mp(b)) for a, b in zip(p, q) if a))
    return best


def ref_rho(rows, pairs):
    """sup over alpha of max_pairs D_alpha / alpha: a grid in ln(alpha - 1), then golden sections."""
    def g(u):
        alpha = 1 + mpmath.exp(u)
        return ref_renyi(rows, pairs, alpha) / alpha

    grid = [mpmath.mpf(u) / 4 for u in range(-120, 40)]
    vals = [g(u) for u in grid]
    i = max(range(len(vals)), key=vals.__getitem__)
    if i == 0:
        return max(vals[0], ref_kl(rows, pairs))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    phi = (mpmath.sqrt(5) - 1) / 2
    for _ in range(120):
        a, b = hi - phi * (hi - lo), lo + phi * (hi - lo)
        lo, hi = (lo, b) if g(a) > g(b) else (a, hi)
    return max(g((lo + hi) / 2), ref_kl(rows, pairs))


def ref_mi(prior, rows):
    py = [sum((p * r[y] for p, r in zip(prior, rows)), F(0)) for y in range(len(rows[0]))]
    return sum((mp(p * q) * mpmath.log(mp(q) / mp(py[y])) for p, r in zip(prior, rows) for y, q in enumerate(r)
                if p and q), mpmath.mpf(0))


def ref_cmi(prior, rows, k, r):
    """max_i I(X_i; Y | X_-i) from the joint: sum p(x,y) ln( p(y|x) / p(y|x_-i) )."""
    idx = [tuple(int(d) for d in np.unravel_index(i, (k,) * r)) for i in range(k**r)]
    best = mpmath.mpf(0)
    for i in range(r):
        total = mpmath.mpf(0)
        for x, xs in enumerate(idx):
            if not prior[x]:
                continue
            fibre = [z for z, zs in enumerate(idx) if zs[:i] + zs[i + 1:] == xs[:i] + xs[i + 1:]]
            w = sum((prior[z] for z in fibre), F(0))
            for y, q in enumerate(rows[x]):
                if q:
                    marg = sum((prior[z] * rows[z][y] for z in fibre), F(0)) / w
                    total += mp(prior[x] * q) * mpmath.log(mp(q) / mp(marg))
        best = max(best, total)
    return best


TOLERANCE = mpmath.mpf(10) ** -30


def encloses(real, ref, tol=TOLERANCE):
    lo, hi = real.enclose(100)
    return mp(lo) - tol <= ref <= mp(hi) + tol


# ------------------------------------------------------------------ binary randomized response, by hand


RR = randomized_response(3)  # rows (3/4, 1/4), (1/4, 3/4), uniform prior


def test_randomized_response_by_hand():
    # delta(ln t) = 3/4 - t/4 for 1 <= t <= 3: delta(0) = (3-1)/(3+1) = 1/2
    assert notion_value(RR, "delta(0)") == Rational(F(1, 2))
    assert notion_value(RR, "delta(ln(2))") == Rational(F(1, 4))
    assert notion_value(RR, "delta(ln(3))") == Rational(F(0))
    # D_2 = ln( (3/4)^2 / (1/4) + (1/4)^2 / (3/4) ) = ln(9/4 + 1/12) = ln(7/3)
    assert str(notion_value(RR, "renyi(2)")) == "ln(7/3)"
    # D_3 = (1/2) ln( (3/4)^3/(1/4)^2 + (1/4)^3/(3/4)^2 ) = (1/2) ln(27/4 + 1/36) = (1/2) ln(61/9)
    assert compare(notion_value(RR, "renyi(3)"), Log(LogRatio.of(F(61, 9)))) == -1
    assert notion_value(RR, "renyi(3)").tie(ln(F(61, 9)**0 * 3)) is not None
    # KL = (3/4) ln 3 - (1/4) ln 3 = (1/2) ln 3; sup at alpha -> 1 since Var/2 = (ln 3)^2 (3/16) * 2 < KL
    half_ln3 = mpmath.log(3) / 2
    assert encloses(notion_value(RR, "kl"), half_ln3)
    assert encloses(notion_value(RR, "rho"), half_ln3)
    # eps_delta: 3/4 - t/4 = 1/4 at t = 2; delta = 0 needs ln 3
    assert str(notion_value(RR, "eps_delta(1/4)")) == "ln(2)"
    assert str(notion_value(RR, "eps_delta(0)")) == "ln(3)"
    assert str(notion_value(RR, "eps_delta(1/2)")) == "0"
    # leakages: sum_y max_x Q = 3/2; uniform prior: (1/2)(3/2) / (1/2)
    assert str(notion_value(RR, "maximal_leakage")) == "ln(3/2)"
    assert str(notion_value(RR, "min_entropy_leakage")) == "ln(3/2)"
    # cmi = I(X;Y) = ln 2 - H(3/4)
    h = -(mpmath.mpf(3) / 4 * mpmath.log(mpmath.mpf(3) / 4) + mpmath.mpf(1) / 4 * mpmath.log(mpmath.mpf(1) / 4))
    assert encloses(notion_value(RR, "cmi"), mpmath.log(2) - h)


def test_delta_at_irrational_eps_is_certified():
    v = notion_value(RR, "delta(1/2)")  # 3/4 - e^(1/2)/4
    assert encloses(v, mpmath.mpf(3) / 4 - mpmath.exp(mpmath.mpf(1) / 2) / 4)
    assert compare(v, Rational(F(33782, 10**5))) == -1 and compare(v, Rational(F(33781, 10**5))) == 1


# ------------------------------------------------------------------ dense mechanisms against enumeration


LOCAL_ROWS = [[F(1, 2), F(1, 4), F(1, 4), F(0)], [F(1, 8), F(1, 2), F(1, 4), F(1, 8)],
              [F(1, 3), F(1, 3), F(1, 6), F(1, 6)]]
LOCAL_PRIOR = [F(1, 2), F(1, 3), F(1, 6)]


@pytest.mark.parametrize("t", [F(1), F(3, 2), F(2), F(4), F(100)])
def test_profile_local_against_enumeration(t):
    mech = Mechanism.local(LOCAL_ROWS, prior=LOCAL_PRIOR)
    assert notion_value(mech, "delta", ln(t)) == Rational(ref_delta(LOCAL_ROWS, pairs_of(3), t))


@pytest.mark.parametrize("level", [F(0), F(1, 100), F(1, 10), F(1, 4), F(1, 2)])
def test_eps_delta_against_bisection(level):
    rows = [r[:3] + [F(0)] for r in ([[F(1, 2), F(1, 4), F(1, 4)], [F(1, 8), F(1, 2), F(3, 8)],
                                      [F(1, 3), F(1, 3), F(1, 3)]])]
    mech = Mechanism.local(rows)
    value = notion_value(mech, "eps_delta", level)
    t = value.log.ratio
    assert ref_delta(rows, pairs_of(3), t) <= level  # t suffices
    if t > 1:
        assert ref_delta(rows, pairs_of(3), t * (1 - F(1, 10**12))) > level  # and nothing smaller does


def test_eps_delta_infinite_and_delta_one():
    mech = Mechanism.local(LOCAL_ROWS)  # rows 1 and 2 put 1/8 and 1/6 where row 0 is 0
    assert notion_value(mech, "eps_delta(1/8)").infinite == 1
    assert notion_result(mech, "eps_delta(1/8)").witness.x_prime == 0
    assert str(notion_value(mech, "eps_delta(1/6)")) != "inf"
    assert str(notion_value(mech, "eps_delta(1)")) == "0"


@pytest.mark.parametrize("alpha", [F(3, 2), F(2), F(5), F(7, 3)])
def test_renyi_against_mpmath(alpha):
    rows = [r[:3] for r in ([[F(1, 2), F(1, 4), F(1, 4)], [F(1, 8), F(1, 2), F(3, 8)], [F(1, 3), F(1, 3), F(1, 3)]])]
    mech = Mechanism.local(rows)
    v = notion_value(mech, "renyi", alpha)
    ref = ref_renyi(rows, pairs_of(3), alpha)
    if isinstance(v, Log):
        assert abs(mp(v.log.ratio) - mpmath.exp(ref)) < mpmath.mpf(10) ** -40
    else:
        assert encloses(v, ref)


def test_renyi_kl_rho_infinite_on_support_mismatch():
    mech = Mechanism.local(LOCAL_ROWS)
    assert notion_value(mech, "renyi(2)") == inf() and notion_value(mech, "kl") == inf()
    assert notion_value(mech, "rho") == inf()
    assert notion_result(mech, "kl").witness is not None


RHO_CASES = [
    [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]],
    [[F(1, 2), F(1, 4), F(1, 4)], [F(1, 4), F(1, 2), F(1, 4)]],
    [[F(1, 2), F(1, 2)], [F(2, 5), F(3, 5)]],
    [[F(9, 10), F(1, 20), F(1, 20)], [F(1, 20), F(9, 10), F(1, 20)], [F(1, 3), F(1, 3), F(1, 3)]],
    [[F(1, 100), F(99, 100)], [F(1, 2), F(1, 2)]],
]


@pytest.mark.parametrize("rows", RHO_CASES)
def test_kl_and_rho_against_mpmath(rows):
    mech = Mechanism.local(rows)
    pairs = pairs_of(len(rows))
    assert encloses(notion_value(mech, "kl"), ref_kl(rows, pairs))
    r = notion_value(mech, "rho")
    lo, hi = r.enclose(64)
    ref = ref_rho(rows, pairs)
    assert mp(lo) - mpmath.mpf(10) ** -12 <= ref <= mp(hi) + mpmath.mpf(10) ** -12
    assert hi - lo < F(1, 10**5)
    eps = max(abs(mpmath.log(mp(a) / mp(b))) for i, j in pairs for a, b in zip(rows[i], rows[j]))
    assert mp(lo) <= eps**2 / 2  # Bun and Steinke, Prop. 3.3


def test_graph_pairs_and_cmi_refused():
    rows = [[F(1, 2), F(1, 2)], [F(3, 4), F(1, 4)], [F(1, 10), F(9, 10)]]
    mech = Mechanism.graph(rows, [[0, 1], [1, 2]])
    pairs = [(0, 1), (1, 0), (1, 2), (2, 1)]
    assert notion_value(mech, "delta(0)") == Rational(ref_delta(rows, pairs, F(1)))
    assert encloses(notion_value(mech, "kl"), ref_kl(rows, pairs))
    assert str(notion_value(mech, "maximal_leakage")) == "ln(" + str(F(3, 4) + F(9, 10)) + ")"
    with pytest.raises(InputError, match="cmi is not defined here: an explicit neighbour graph has no records"):
        notion_value(mech, "cmi")


def test_dense_central_cmi_against_joint():
    rows = [[F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)], [F(2, 3), F(1, 3)], [F(1, 10), F(9, 10)]]
    prior = [F(1, 10), F(2, 10), F(3, 10), F(4, 10)]
    mech = Mechanism.central(rows, records=2, prior=prior)
    assert encloses(notion_value(mech, "cmi"), ref_cmi(prior, rows, 2, 2))
    pairs = hamming_pairs(2, 2)
    assert notion_value(mech, "delta(ln(3/2))") == Rational(ref_delta(rows, pairs, F(3, 2)))
    assert encloses(notion_value(mech, "kl"), ref_kl(rows, pairs))


def test_local_cmi_is_mutual_information():
    mech = paper_example(["19/20", "1/20"])
    prior, rows = mech.prior.exact, mech.channel.exact
    assert encloses(notion_value(mech, "cmi"), ref_mi(prior, rows))
    assert compare(notion_value(Mechanism.local([[1, 0], [0, 1]]), "cmi"), ln(2)) == 0  # exact tie-breaker


def test_leakages_against_enumeration():
    mech = Mechanism.local(LOCAL_ROWS, prior=LOCAL_PRIOR)
    top = sum((max(p * r[y] for p, r in zip(LOCAL_PRIOR, LOCAL_ROWS)) for y in range(4)), F(0))
    assert notion_value(mech, "min_entropy_leakage") == ln(top / max(LOCAL_PRIOR))
    zero_prior = Mechanism.local(LOCAL_ROWS, prior=[F(1, 2), F(1, 2), F(0)])
    assert notion_value(zero_prior, "maximal_leakage") == ln(sum(max(LOCAL_ROWS[0][y], LOCAL_ROWS[1][y])
                                                                 for y in range(4)))


# ------------------------------------------------------------------ product forms against their expansion


PRODUCTS = [
    product(randomized_response(3), 2),
    product(krr(3, 2), 2),
    Mechanism.product([["1/2", "1/4", "1/4"], ["1/8", "1/2", "3/8"]], records=3,
                      prior=[["1/2", "1/2"], ["3/4", "1/4"], ["3/4", "1/4"]]),
]


@pytest.mark.parametrize("mech", PRODUCTS, ids=["rr2", "krr3x2", "skewed3"])
@pytest.mark.parametrize("name", ["delta(0)", "delta(ln(3/2))", "renyi(2)", "renyi(3)", "eps_delta(1/10)",
                                  "min_entropy_leakage", "maximal_leakage"])
def test_product_exact_notions_equal_expanded(mech, name):
    a, b = notion_value(mech, name), notion_value(mech.dense(), name)
    assert compare(a, b) == 0 if not hasattr(a, "enclose") or isinstance(a, (Log, Rational)) else True
    if not isinstance(a, (Log, Rational)):
        (alo, ahi), (blo, bhi) = a.enclose(100), b.enclose(100)
        assert alo <= bhi and blo <= ahi


@pytest.mark.parametrize("mech", PRODUCTS, ids=["rr2", "krr3x2", "skewed3"])
@pytest.mark.parametrize("name", ["delta(1/3)", "renyi(3/2)", "kl", "rho", "cmi"])
def test_product_enclosed_notions_overlap_expanded(mech, name):
    (alo, ahi), (blo, bhi) = notion_value(mech, name).enclose(64), notion_value(mech.dense(), name).enclose(64)
    assert alo <= bhi and blo <= ahi


def test_product_cmi_against_joint_and_leakage_adds():
    mech = PRODUCTS[2]
    dense = mech.dense()
    assert encloses(notion_value(mech, "cmi"), ref_cmi(dense.prior.exact, dense.channel.exact, 2, 3))
    local = [Mechanism.local(mech.channel.local.exact, prior=f.exact) for f in mech.prior.factors]
    total = F(1)
    for m in local:
        total *= notion_value(m, "min_entropy_leakage").log.ratio
    assert notion_value(mech, "min_entropy_leakage") == ln(total)


def test_thousand_records_never_expanded():
    mech = product(krr(4, 3), 1000)
    assert str(notion_value(mech, "renyi(2)")) == str(notion_value(krr(4, 3), "renyi(2)"))
    assert notion_value(mech, "maximal_leakage") == ln(notion_value(krr(4, 3), "maximal_leakage").log.ratio ** 1000)
    assert notion_result(mech, "delta(0)").witness.x[1:] == (0,) * 999


# ------------------------------------------------------------------ float mode against exact mode


@pytest.mark.parametrize("name", ["delta(0)", "delta(1/2)", "eps_delta(1/10)", "renyi(2)", "renyi(3/2)", "kl",
                                  "rho", "min_entropy_leakage", "maximal_leakage", "cmi"])
def test_float_mode_matches_exact(name):
    q = np.array([[0.5, 0.25, 0.25], [0.125, 0.5, 0.375], [0.25, 0.25, 0.5]])
    p = np.array([0.5, 0.25, 0.25])
    exact = Mechanism.local(q, prior=p)
    fl = Mechanism.local(Channel.of(q, exact=False), prior=p)
    a, b = float(notion_value(exact, name)), float(notion_value(fl, name))
    assert isinstance(notion_value(fl, name), (Rational, Log))
    assert abs(a - b) <= 1e-9 * (1 + abs(a))


def test_float_mode_product_and_central():
    w = np.array([[0.75, 0.25], [0.25, 0.75]])
    fl = Mechanism.product(Channel.of(w, exact=False), records=3)
    ex = Mechanism.product(w, records=3)
    for name in ("delta(0)", "renyi(2)", "kl", "maximal_leakage", "cmi", "eps_delta(1/10)"):
        assert abs(float(notion_value(fl, name)) - float(notion_value(ex, name))) < 1e-9, name
    dense = ex.dense()
    fd = Mechanism.central(Channel.of(dense.channel.array, exact=False), records=3)
    for name in ("delta(0)", "renyi(2)", "cmi"):
        assert abs(float(notion_value(fd, name)) - float(notion_value(dense, name))) < 1e-9, name


# ------------------------------------------------------------------ Values.reals, claims


def test_values_reals_by_name():
    vals = values(RR)
    assert str(vals.reals["renyi(2)"]) == "ln(7/3)" and vals.reals["delta(1/2)"] is vals.reals["delta(0.5)"]
    assert str(vals.reals["eps_delta(1/4)"]) == "ln(2)" and vals.witnesses["renyi(2)"].x == 0
    assert str(vals.reals["eps_d"]) == "ln(3)"
    with pytest.raises(KeyError):
        vals.reals["nothing"]
    with pytest.raises(InputError):
        vals.reals["renyi(1)"]
    assert set(NOTIONS) == {"delta", "eps_delta", "tv", "renyi", "rho", "kl", "chi2", "min_entropy_leakage", "maximal_leakage",
                            "cmi", "gdp_mu", "sibson", "pml", "prior_vulnerability", "bayes_vulnerability", "bayes_leakage",
                            "hellinger"}
    assert parse_notion("delta(ln(3))")[0] == "delta"


CLAIMS = [  # (claim that holds, claim just beyond it that fails)
    ("delta(0) <= 1/2", "delta(0) < 1/2"),
    ("renyi(2) <= ln(7/3)", "renyi(2) < ln(7/3)"),
    ("eps_delta(1/4) >= ln(2)", "eps_delta(1/4) > ln(2)"),
    ("maximal_leakage <= ln(3/2)", "maximal_leakage < ln(3/2)"),
    ("kl <= 0.5493061443341", "kl <= 0.5493061443340"),
    ("rho <= 0.5493061443341", "rho <= 0.5493061443340"),
    ("rho >= 0.5493061443340", "rho >= 0.5493061443341"),
    ("delta(1/2) <= 0.33782", "delta(1/2) <= 0.33781"),
    ("cmi <= 0.1308120360", "cmi <= 0.1308120359"),
    ("renyi(3/2) < 0.734", "renyi(3/2) < 0.733"),
    ("kl <= ln(3)", "kl >= ln(3)"),
]


@pytest.mark.parametrize("holds,fails", CLAIMS)
def test_claims_just_above_and_below(holds, fails):
    report = check(RR, [holds, fails], relations=())
    assert [c.holds for c in report.claims] == [True, False]


@pytest.mark.parametrize("claim", ["delta(-1) <= 1", "renyi(1) < 2", "renyi(0) < 2", "sibson(1) < 2", "rho(2) < 1", "delta < 1",
                                   "eps_delta(2) < 1", "eps_delta(ln(2)) < 1", "renyi(ln(3)) < 1", "kl(1) < 1"])
def test_bad_claims_are_input_errors(claim):
    with pytest.raises(InputError, match="claim"):
        check(RR, [claim], relations=())


def test_check_command_exit_statuses(tmp_path):
    from conftest import run_cli

    f = tmp_path / "rr.json"
    f.write_text('{"setting": "local", "prior": "uniform", "channel": [["3/4", "1/4"], ["1/4", "3/4"]]}')
    ok = run_cli("check", str(f), "--claim", "delta(1/2) <= 0.34", "--claim", "rho <= 0.6", "--claim",
                 "renyi(2) < ln(3)", "--claim", "eps_delta(1/100) <= 1.1", "--json")
    assert ok.returncode == 0, ok.stderr
    bad = run_cli("check", str(f), "--claim", "rho <= 0.5")
    assert bad.returncode == 1
    err = run_cli("check", str(f), "--claim", "renyi(1) <= 0.5")
    assert err.returncode == 2 and "renyi(alpha) needs a rational alpha > 0, alpha != 1" in err.stderr
    assert len(err.stderr.strip().splitlines()) == 1
    assert math.isfinite(1.0)
