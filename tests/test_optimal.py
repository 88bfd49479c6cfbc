"""Utility and privacy-utility trade-offs: exact expected distortion, Fano's bound on leakage, the
DP / identifiability LPs, Blahut-Arimoto against the closed-form binary rate-distortion function, the
privacy-distortion curves, and the ``utility`` / ``optimize`` commands.  Every expected number is
derived here (closed forms, an independent all-pairs LP, brentq on ``h(p) - h(D) = eps``)."""

from __future__ import annotations

import json
import math
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest
from bruteforce import entropy_mpmath, fraction_of, mi_mpmath, mpf_of
from conftest import run_cli

import relations
from relations import mechanisms as M
from relations.checking import check
from relations.errors import InputError
from relations.tradeoffs._optimal import optimal_dp, optimal_id, optimal_mi, privacy_distortion_curves
from relations.tradeoffs._utility import (
    conditional_entropy,
    entropy,
    expected_distortion,
    fano_leakage_bound,
    loss_matrix,
)

SKEWED = [F(1, 2), F(1, 3), F(1, 6)]


def mech_of(prior, rows):
    return relations.from_dict({"setting": "local", "prior": [str(v) for v in prior],
                                "channel": [[str(v) for v in r] for r in rows]})


def h2(x: float) -> float:
    return 0.0 if x in (0.0, 1.0) else -x * math.log(x) - (1 - x) * math.log(1 - x)


def signed_fraction(v) -> F:
    """The exact binary value of an mpmath number (bruteforce.fraction_of drops the sign: man_exp is unsigned)."""
    return -fraction_of(-v) if v < 0 else fraction_of(v)


def assert_stochastic(mech):
    for row in mech.channel.exact:
        assert all(v >= 0 for v in row) and sum(row) == 1


# --------------------------------------------------------------------------- expected distortion


def test_hamming_distortion_by_hand():
    rows = [[F(3, 5), F(1, 5), F(1, 5)], [F(1, 10), F(4, 5), F(1, 10)], [F(1, 4), F(1, 4), F(1, 2)]]
    mech = mech_of(SKEWED, rows)
    # 1/2 * 2/5 + 1/3 * 1/5 + 1/6 * 1/2 = 12/60 + 4/60 + 5/60
    assert expected_distortion(mech) == F(21, 60) == F(7, 20)
    # a squared-distance loss: 1/2 (1/5 + 4/5) + 1/3 (1/10 + 1/10) + 1/6 (4/4 + 1/4)
    sq = [[(x - y) ** 2 for y in range(3)] for x in range(3)]
    assert expected_distortion(mech, sq) == F(1, 2) + F(1, 15) + F(5, 24)
    assert loss_matrix(mech, "hamming") == [[F(int(x != y)) for y in range(3)] for x in range(3)]
    with pytest.raises(InputError):
        expected_distortion(M.unary_encoding(2, 3))  # 2 inputs, 4 outputs: no Hamming loss
    with pytest.raises(InputError):
        expected_distortion(mech, [[0, 1], [1, 0]])


@pytest.mark.parametrize("k,t", [(2, F(3)), (4, F(7, 2)), (5, F(1))])
def test_krr_distortion(k, t):
    assert expected_distortion(M.krr(k, t)) == F(k - 1) / (t + k - 1)


def test_product_distortion():
    """Two records through binary RR: wrong unless both records are kept."""
    t = F(3)
    mech = M.product(M.randomized_response(t), 2, prior="uniform")
    assert expected_distortion(mech) == 1 - (t / (1 + t)) ** 2


# --------------------------------------------------------------------------- Fano


@pytest.mark.parametrize("k,t", [(2, F(3)), (3, F(2)), (5, F(7, 2)), (4, F(20))])
def test_fano_is_tight_for_krr_uniform(k, t):
    """k-RR, uniform prior: p(x | y) is 1 - D on x = y and D/(k-1) elsewhere, so H(X|Y) = h(D) + D ln(k-1)."""
    mech = M.krr(k, t)
    d = expected_distortion(mech)
    fano = fano_leakage_bound(list(mech.prior.exact), d)
    mi = relations.measure(mech).eps_m.enclosure
    assert fano.lower <= mi.upper and mi.lower <= fano.upper  # the enclosures overlap: equality
    assert fano.width < F(1, 2**60)
    df = float(d)
    expected = math.log(k) - h2(df) - df * math.log(k - 1)
    assert abs(float(fano.lower) - expected) < 1e-12


MECHS = {
    "skewed": lambda: mech_of(SKEWED, [[F(3, 5), F(1, 5), F(1, 5)], [F(1, 10), F(4, 5), F(1, 10)],
                                       [F(1, 4), F(1, 4), F(1, 2)]]),
    "krr_prior": lambda: M.krr(3, 4, prior=SKEWED),
    "paper": lambda: M.paper_example(),
    "truncated_geometric": lambda: M.truncated_geometric(4, 2),
    "staircase": lambda: M.staircase(5, 3),
    "constant": lambda: mech_of(SKEWED, [[F(1, 3), F(1, 3), F(1, 3)]] * 3),
    "identity": lambda: mech_of([F(1, 4)] * 4, [[F(int(i == j)) for j in range(4)] for i in range(4)]),
}


@pytest.mark.parametrize("name", sorted(MECHS))
def test_fano_bounds_leakage_below(name):
    mech = MECHS[name]()
    prior = list(mech.prior.exact)
    rows = [list(r) for r in mech.channel.exact]
    k = len(prior)
    d = expected_distortion(mech)
    fano = fano_leakage_bound(prior, d)
    mi = relations.measure(mech).eps_m.enclosure
    assert fano.lower <= mi.upper
    # the bound, H(X) and I(X;Y) recomputed in mpmath (40 digits) lie in the certified enclosures
    close = F(1, 10**30)
    with mpmath.workdps(40):
        hx_ref = signed_fraction(entropy_mpmath(prior))
        fano_ref = signed_fraction(entropy_mpmath(prior) - entropy_mpmath([d, 1 - d]) - mpf_of(d) * mpmath.log(k - 1))
        mi_ref = signed_fraction(mi_mpmath(prior, rows))
    assert fano.lower - close <= fano_ref <= fano.upper + close
    assert mi.lower - close <= mi_ref <= mi.upper + close
    hx = entropy(prior)
    assert hx.lower - close <= hx_ref <= hx.upper + close
    # H(X|Y) = H(X) - I(X;Y)
    hxy = conditional_entropy(mech)
    assert hxy.lower - close <= hx_ref - mi_ref <= hxy.upper + close


# --------------------------------------------------------------------------- the LPs


def naive_lp(prior, t: float, identifiability: bool, loss=None) -> float:
    """min sum p(x) Q[x][y] L(x,y) over row-stochastic Q with w(x)Q[x][y] <= t w(x')Q[x'][y] for every
    ordered pair x != x' and every y (all k(k-1)k constraints written out; w = p or 1)."""
    # imported by the tests that use it, not at collection (0.8 s of CPU in each xdist worker)
    from scipy.optimize import linprog

    k = len(prior)
    p = np.array([float(v) for v in prior])
    lm = 1.0 - np.eye(k) if loss is None else np.array(loss, dtype=float)
    w = p if identifiability else np.ones(k)
    a_ub, b_ub = [], []
    for x in range(k):
        for xp in range(k):
            if x == xp:
                continue
            for y in range(k):
                row = np.zeros(k * k)
                row[x * k + y] += w[x]
                row[xp * k + y] -= t * w[xp]
                a_ub.append(row)
                b_ub.append(0.0)
    a_eq = np.zeros((k, k * k))
    for x in range(k):
        a_eq[x, x * k:(x + 1) * k] = 1.0
    res = linprog((p[:, None] * lm).ravel(), A_ub=np.array(a_ub), b_ub=b_ub, A_eq=a_eq, b_eq=np.ones(k),
                  bounds=(0, None), method="highs")
    assert res.status == 0
    return float(res.fun)


@pytest.mark.parametrize("t", [F(3, 2), F(3), F(10)])
@pytest.mark.parametrize("k", [2, 3, 4])
def test_krr_is_dp_optimal_under_a_uniform_prior(k, t):
    prior = [F(1, k)] * k
    eps = f"ln({t})"
    krr_distortion = F(k - 1) / (t + k - 1)  # k-RR's own distortion (it is ln t-DP)
    dp = optimal_dp(prior, eps)
    assert abs(dp.value - float(krr_distortion)) < 1e-9
    assert abs(dp.value - naive_lp(prior, float(t), False)) < 1e-9
    # identifiability = DP under a uniform prior (p(x) cancels)
    ident = optimal_id(prior, eps)
    assert abs(ident.value - dp.value) < 1e-9
    for opt, claim in ((dp, f"eps_d<={eps}"), (ident, f"eps_i<={eps}")):
        assert_stochastic(opt.mechanism)
        assert check(opt.mechanism, [claim]).claims[0].holds is True
        assert opt.distortion == expected_distortion(opt.mechanism)
        assert abs(float(opt.distortion) - opt.value) < 1e-6
        assert opt.distortion >= krr_distortion  # exact: nothing within the budget beats the optimum
    # a budget just below the optimum's is not met
    assert check(dp.mechanism, [f"eps_d<=ln({t * F(999, 1000)})"]).claims[0].holds is False


@pytest.mark.parametrize("eps,t,ratio", [("ln(2)", 2.0, F(2)), ("ln(4)", 4.0, F(4)), ("1/2", math.exp(0.5), None)])
def test_dp_lp_skewed_prior(eps, t, ratio):
    opt = optimal_dp(SKEWED, eps)
    assert abs(opt.value - naive_lp(SKEWED, t, False)) < 1e-9
    if ratio is not None:  # k-RR is feasible
        assert opt.value <= float(expected_distortion(M.krr(3, ratio, prior=SKEWED))) + 1e-9
    assert opt.value <= 1 - float(max(SKEWED)) + 1e-9  # the constant MAP guess is 0-DP
    assert check(opt.mechanism, [f"eps_d<={eps}"]).claims[0].holds is True
    assert abs(float(opt.distortion) - opt.value) < 1e-6


@pytest.mark.parametrize("eps,t", [("ln(3)", 3.0), ("ln(4)", 4.0), ("ln(10)", 10.0)])
def test_identifiability_lp_skewed_prior(eps, t):
    opt = optimal_id(SKEWED, eps)
    assert abs(opt.value - naive_lp(SKEWED, t, True)) < 1e-9
    assert check(opt.mechanism, [f"eps_i<={eps}"]).claims[0].holds is True
    assert abs(float(opt.distortion) - opt.value) < 1e-6


def test_custom_loss():
    sq = [[(x - y) ** 2 for y in range(3)] for x in range(3)]
    opt = optimal_dp(SKEWED, "ln(3)", loss=sq)
    assert abs(opt.value - naive_lp(SKEWED, 3.0, False, sq)) < 1e-9
    assert opt.distortion == expected_distortion(opt.mechanism, sq)
    assert abs(float(opt.distortion) - opt.value) < 1e-6


@pytest.mark.parametrize("eps", ["ln(2)", "ln(299/100)", "1"])
def test_identifiability_below_the_prior_ratio_is_infeasible(eps):
    """sum_y of p(x)Q[x][y] <= t p(x')Q[x'][y] gives p(x) <= t p(x'): t >= max p/min p = 3 is needed."""
    with pytest.raises(InputError):
        optimal_id(SKEWED, eps)


def test_bad_budgets_and_losses():
    with pytest.raises(InputError):
        optimal_dp(SKEWED, "ln(x)")
    with pytest.raises(InputError):
        optimal_dp(SKEWED, "1", loss="squared")
    with pytest.raises(InputError):
        optimal_dp(SKEWED, "1", loss=[[0, 1], [1, 0]])


# --------------------------------------------------------------------------- Blahut-Arimoto


def binary_distortion_rate(p: float, eps: float) -> float:
    """D(R) of a Bernoulli(p) source, Hamming loss: h(p) - h(D) = R for D <= min(p, 1-p), else 0."""
    from scipy.optimize import brentq

    m = min(p, 1 - p)
    if eps >= h2(p):
        return 0.0
    return brentq(lambda d: h2(p) - h2(d) - eps, 1e-300, m, xtol=1e-15)


@pytest.mark.parametrize("p,eps", [(F(1, 5), "1/20"), (F(1, 5), "1/5"), (F(7, 20), "1/20"), (F(7, 20), "3/10"),
                                   (F(1, 2), "1/10")])
def test_blahut_arimoto_matches_binary_rate_distortion(p, eps):
    opt = optimal_mi([p, 1 - p], eps)
    d = binary_distortion_rate(float(p), float(F(eps)))
    assert 0 < d < min(float(p), float(1 - p))
    assert abs(opt.value - d) < 1e-6
    assert abs(float(opt.distortion) - d) < 1e-6
    assert opt.gap is not None and opt.gap < 1e-6
    enc = relations.measure(opt.mechanism).eps_m.enclosure
    assert enc.upper <= F(eps)  # certified I(X;Y) <= eps
    assert check(opt.mechanism, [f"eps_m<={eps}"]).claims[0].holds is True
    assert_stochastic(opt.mechanism)
    # local eps-DP implies I(X;Y) <= eps, so the MI optimum is at most the DP optimum
    assert opt.value <= optimal_dp([p, 1 - p], eps).value + 1e-9


def test_mi_extremes():
    p = [F(1, 5), F(4, 5)]
    # eps above H(X): lossless
    assert optimal_mi(p, "1").value < 1e-6
    # eps = 0: the best constant answer (always "1"), distortion min(p, 1-p) = 1/5
    zero = optimal_mi(p, "0")
    assert abs(zero.value - 0.2) < 1e-9
    assert zero.distortion == F(1, 5)
    assert relations.measure(zero.mechanism).eps_m.enclosure.upper == 0


# --------------------------------------------------------------------------- curves


def non_increasing(values, slack=1e-9):
    return all(b <= a + slack for a, b in zip(values, values[1:]))


def test_privacy_distortion_curves_skewed():
    budgets = [0.0, 0.05, 0.25, 0.5, 1.0, math.log(3) + 1e-3, 1.5, 2.0, 3.0]
    curves = privacy_distortion_curves(SKEWED, budgets)
    assert curves["eps"] == budgets
    dp, ident, mi = curves["dp"], curves["id"], curves["mi"]
    assert non_increasing(dp) and non_increasing(mi)
    # identifiability is infeasible exactly below ln(max p / min p) = ln 3
    assert [v is None for v in ident] == [e < math.log(3) for e in budgets]
    assert non_increasing([v for v in ident if v is not None])
    # local eps-DP implies I(X;Y) <= eps, so the MI-feasible set contains the DP-feasible set
    assert all(m <= d + 1e-9 for m, d in zip(mi, dp))
    # eps = 0: only constant channels; the best is the MAP guess
    assert abs(dp[0] - (1 - 0.5)) < 1e-9 and abs(mi[0] - (1 - 0.5)) < 1e-9
    # beyond H(X) ~ 1.011 nats the MI optimum is lossless
    assert mi[-1] < 1e-6 and mi[-2] < 1e-6
    for e, d in zip(budgets, dp):
        assert abs(d - naive_lp(SKEWED, math.exp(e), False)) < 1e-9


def test_privacy_distortion_curves_uniform():
    k = 4
    budgets = [0.0, 0.5, 1.0, 2.0]
    curves = privacy_distortion_curves([F(1, k)] * k, budgets)
    for e, d, i in zip(budgets, curves["dp"], curves["id"]):
        assert abs(d - (k - 1) / (math.exp(e) + k - 1)) < 1e-9  # k-RR's distortion
        assert abs(i - d) < 1e-9
    assert all(m <= d + 1e-9 for m, d in zip(curves["mi"], curves["dp"]))
    assert non_increasing(curves["mi"])


# --------------------------------------------------------------------------- command line


def one_error_line(proc):
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("relations: error:"), proc.stderr
    assert "Traceback" not in proc.stderr


def test_cli_optimize_check_utility(tmp_path):
    out = tmp_path / "opt.json"
    proc = run_cli("optimize", "--prior", "1/4,1/4,1/4,1/4", "--notion", "dp", "--eps", "ln(3)", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    checked = run_cli("check", str(out), "--claim", "eps_d<=ln(3)")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    too_tight = run_cli("check", str(out), "--claim", "eps_d<=ln(299/100)")
    assert too_tight.returncode == 1
    util = run_cli("utility", str(out), "--json")
    assert util.returncode == 0, util.stderr
    data = json.loads(util.stdout)
    d = F(data["distortion"])
    assert abs(float(d) - 3 / (3 + 3)) < 1e-6  # k-RR's (k-1)/(t+k-1) at k = 4, t = 3
    assert d >= F(1, 2)
    assert abs(data["distortion_value"] - float(d)) < 1e-15
    assert abs(data["H(X)"] - math.log(4)) < 1e-12
    assert abs(data["H(X|Y)"] + data["I(X;Y)"] - data["H(X)"]) < 1e-12
    assert data["fano_lower_bound_on_I"] <= data["I(X;Y)"] + 1e-9


def test_cli_optimize_mi_to_stdout():
    proc = run_cli("optimize", "--prior", "1/5,4/5", "--notion", "mi", "--eps", "1/10")
    assert proc.returncode == 0, proc.stderr
    mech = relations.loads(proc.stdout)
    assert relations.measure(mech).eps_m.enclosure.upper <= F(1, 10)
    d = binary_distortion_rate(0.2, 0.1)
    assert abs(float(expected_distortion(mech)) - d) < 1e-6


@pytest.mark.parametrize("args", [
    ["--prior", "1/2,1/2", "--notion", "nope", "--eps", "1"],
    ["--prior", "1/2,1/3", "--notion", "dp", "--eps", "1"],
    ["--prior", "a,b", "--notion", "dp", "--eps", "1"],
    ["--prior", "1/2,1/3,1/6", "--notion", "id", "--eps", "ln(2)"],
])
def test_cli_optimize_bad_input(args):
    one_error_line(run_cli("optimize", *args))


def test_cli_utility_bad_file(tmp_path):
    path = tmp_path / "wide.json"
    path.write_text(json.dumps({"setting": "local", "prior": ["1/2", "1/2"],
                                "channel": [["1/2", "1/4", "1/4"], ["1/4", "1/4", "1/2"]]}))
    one_error_line(run_cli("utility", str(path)))


@pytest.mark.parametrize("seed", range(6))
def test_irrational_budgets_built_within_budget_near_the_optimum(seed):
    """eps = 1, 0.3, 2.5 (e^eps irrational): the mechanism is built within a rational ratio below e^eps
    (relations.tradeoffs._certify.within_budget); the exact checker confirms the budget, the exact
    distortion is recomputed independently, and it is within 1e-6 of the pairwise LP's optimum and
    never below it."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(3, 8))
    w = rng.integers(1, 9, size=k)
    prior = [F(int(v), int(w.sum())) for v in w]
    for eps in ("1", "3/10", "5/2"):
        for notion, solve, name in (("dp", optimal_dp, "eps_d"), ("id", optimal_id, "eps_i")):
            if notion == "id" and math.log(max(prior) / min(prior)) >= float(F(eps)):
                continue
            opt = solve(prior, eps)
            assert not opt.certified and opt.mixing == 0  # built, not mixed with a constant channel
            assert check(opt.mechanism, [f"{name}<={eps}"]).claims[0].holds is True
            assert opt.distortion == expected_distortion(opt.mechanism)
            best = naive_lp(prior, math.exp(float(F(eps))), notion == "id")
            assert best - 1e-9 <= float(opt.distortion) <= best + 1e-6
