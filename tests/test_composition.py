"""Repeated use and composition (issue 45), against independent references.

* Kairouz, Oh and Viswanath's closed form for the k-fold composition of binary randomized response
  (exact for homogeneous pure DP), written out here;
* the composition expanded by hand into its ``m^k`` output sequences and measured with the one-use code;
* mpmath, for the mutual information and maximal leakage of ``k`` reports of k-RR.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from fractions import Fraction as F

import mpmath
import pytest
from conftest import run_cli

from relations import Mechanism, compose, eps_all, measure
from relations.errors import InputError
from relations.measures._composition import (
    bucketed_delta,
    composed_delta,
    composed_eps_delta,
    composed_notion,
    loss_distribution,
)
from relations.measures._notions import notion_result
from relations.numbers import Log, LogRatio
from relations.numbers._reals import compare


def krr(k: int, r: F) -> Mechanism:
    """k-ary randomized response with ratio ``r`` (rows ``r/(r+k-1)`` on the diagonal), written out."""
    d = r + k - 1
    return Mechanism.local([[r / d if i == j else 1 / d for j in range(k)] for i in range(k)])


def expanded_by_hand(parts: list[tuple[Mechanism, int]]) -> Mechanism:
    """Every output sequence spelt out: ``Q[x][(y_1, ..., y_k)] = prod Q_i[x][y_i]``."""
    base = parts[0][0]
    uses = [m for m, n in parts for _ in range(n)]
    rows = []
    for x in range(base.channel.shape[0]):
        row = []
        for seq in itertools.product(*[range(m.channel.shape[1]) for m in uses]):
            v = F(1)
            for m, y in zip(uses, seq):
                v *= m.channel.exact[x][y]
            row.append(v)
        rows.append(row)
    return Mechanism.local(rows, prior=list(base.prior.exact))


def kov_delta(k: int, r: F, i: int) -> F:
    """KOV (ICML 2015, Theorem 3.3): k-fold eps0-DP binary RR at eps = (k - 2i) eps0, with ``r = e^eps0``."""
    total = F(0)
    for ell in range(i):
        total += math.comb(k, ell) * (r ** (k - ell) - r ** (k - 2 * i + ell))
    return total / (1 + r) ** k


def same(a, b) -> bool:
    """Two exact reals are equal (infinities of one sign included); two reals known only by enclosures
    (no exact tie-breaker: ``compare`` says undecided) overlap at 200 bits."""
    if a.infinite or b.infinite:
        return a.infinite == b.infinite
    side = compare(a, b)
    if side is None:
        (lo_a, hi_a), (lo_b, hi_b) = a.enclose(200), b.enclose(200)
        return lo_a <= hi_b and lo_b <= hi_a and hi_a - lo_a < F(1, 2**150)
    return side == 0


def random_mechanism(seed: int, n: int, m: int, zeros: bool = False) -> Mechanism:
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        w = [rng.randint(0 if zeros else 1, 9) for _ in range(m)]
        if not any(w):
            w[0] = 1
        rows.append([F(a, sum(w)) for a in w])
    return Mechanism.local(rows)


@pytest.mark.parametrize("k,r", [(7, F(3)), (20, F(3, 2)), (60, F(2))])
def test_profile_matches_kov_closed_form(k, r):
    rr = krr(2, r)
    comp = rr.repeated(k)
    for i in range(0, k // 2 + 1, max(1, k // 8)):
        t = r ** (k - 2 * i)
        got = composed_delta(comp, Log(LogRatio.of(t))).value
        assert got.value == kov_delta(k, r, i), (k, i)


def test_kov_fails_for_a_wrong_count():
    """The comparison can fail: one use fewer, or another eps, gives another profile."""
    r = F(3)
    got = composed_delta(krr(2, r).repeated(6), Log(LogRatio.of(r ** 4))).value
    assert got.value != kov_delta(7, r, 2) and got.value == kov_delta(6, r, 1)
    assert composed_delta(krr(2, r).repeated(7), Log(LogRatio.of(r ** 5))).value.value != kov_delta(7, r, 2)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_profile_matches_brute_force_expansion(seed):
    a = random_mechanism(seed, 3, 3, zeros=seed == 3)
    b = random_mechanism(seed + 10, 3, 2)
    for parts in ([(a, 3)], [(a, 2), (b, 2)]):
        comp = compose(*[m for m, _ in parts], counts=[n for _, n in parts])
        brute = expanded_by_hand(parts)
        for eps in (Log(LogRatio.of(F(1))), Log(LogRatio.of(F(5, 2))), F(1, 2), F(3)):
            want = notion_result(brute, "delta", eps).value
            got = composed_delta(comp, eps).value
            assert same(got, want), (seed, eps)
        for level in (F(0), F(1, 100), F(1, 3)):
            assert str(composed_eps_delta(comp, level).value) == str(notion_result(brute, "eps_delta", level).value)
        budgets = measure(brute)
        for name, want in (("eps_d", budgets.eps_d), ("eps_i", budgets.eps_i), ("eps_all", eps_all(brute))):
            assert same(composed_notion(comp, name, limit=0).value, Log(want.exact)), name


@pytest.mark.parametrize("seed", [4, 5])
def test_sufficient_statistic_matches_expansion_in_every_notion(seed):
    m = random_mechanism(seed, 3, 3, zeros=True)
    comp = m.repeated(3)
    brute, counts = expanded_by_hand([(m, 3)]), comp.sufficient()
    assert counts.channel.shape[1] == math.comb(5, 2) < 27
    mb, mc = measure(brute), measure(counts)
    assert mb.eps_d.exact == mc.eps_d.exact and mb.eps_i.exact == mc.eps_i.exact
    lo_b, hi_b = mb.eps_m.enclosure.lower, mb.eps_m.enclosure.upper
    assert mc.eps_m.enclosure.lower <= hi_b and lo_b <= mc.eps_m.enclosure.upper
    for name in ("maximal_leakage", "bayes_vulnerability", "min_entropy_leakage", "pml", "delta(1)", "renyi(2)",
                 "hellinger", "tv", "eps_delta(1/10)"):
        assert same(notion_result(brute, name).value, notion_result(counts, name).value), name


def test_additive_notions_scale():
    rr = krr(4, F(3))
    for name in ("renyi(2)", "renyi(3/2)", "kl", "rho"):
        one = notion_result(rr, name).value
        many = composed_notion(rr.repeated(500), name).value
        lo1, hi1 = one.enclose(80)
        lo, hi = many.enclose(80)
        assert lo <= 500 * hi1 and 500 * lo1 <= hi, name
    # with the counts route for small k, renyi(2) of 3 uses is 3 renyi(2): an independent route
    small = notion_result(rr.repeated(3).sufficient(), "renyi(2)").value
    assert compare(small, composed_notion(rr.repeated(3), "renyi(2)", limit=0).value) == 0


def test_bucketed_enclosure_contains_the_exact_value():
    m = random_mechanism(7, 3, 4)
    comp = m.repeated(12)
    for eps in (F(1), F(5, 2)):
        exact = composed_delta(comp, eps).value
        lo_e, hi_e = exact.enclose(80)
        enc = composed_delta(comp, eps, max_support=1, max_bins=1 << 14, max_split=0).value
        lo, hi = enc.enclose(10)
        assert lo <= lo_e and hi_e <= hi and hi - lo < F(1, 10**3), eps
    p, q = m.channel.exact[0], m.channel.exact[1]
    lo, hi = bucketed_delta([(p, q, 12)], F(2), bins=1 << 12, max_bins=1 << 12)
    d = loss_distribution([(p, q, 12)])  # the ordered pair (P, R) exactly, by the lattice route
    above = [j for j in range(len(d.pmass)) if d.ratio_above(j, F(2))]
    exact = d.infinite + F(sum(d.pmass[j] for j in above), d.pden) - 2 * F(sum(d.rmass[j] for j in above), d.rden)
    assert lo <= exact <= hi and hi - lo < F(1, 100)


def test_leakages_of_thirty_reports_against_mpmath():
    k, r = 30, F(3)
    rr = krr(4, r)
    counts = rr.repeated(k).sufficient()
    assert counts.channel.shape == (4, math.comb(33, 3))
    mpmath.mp.dps = 40
    p, q = mpmath.mpf(3) / 6, mpmath.mpf(1) / 6
    hy, ml = mpmath.mpf(0), mpmath.mpf(0)
    for combo in itertools.combinations_with_replacement(range(4), k):
        c = Counter(combo)
        w = mpmath.mpf(math.factorial(k))
        for v in c.values():
            w /= math.factorial(v)
        like = [p ** c.get(x, 0) * q ** (k - c.get(x, 0)) for x in range(4)]
        seq = sum(like) / 4  # one sequence of this type
        hy -= w * seq * mpmath.log(seq)
        ml += w * max(like)
    mi = hy - k * -(p * mpmath.log(p) + 3 * q * mpmath.log(q))  # H(Y^k) - H(Y^k | X), iid given X
    enc = measure(counts).eps_m.enclosure
    assert F(enc.lower) <= F(str(mi + mpmath.mpf(10) ** -30)) and F(str(mi - mpmath.mpf(10) ** -30)) <= F(enc.upper)
    got = notion_result(counts, "maximal_leakage").value
    assert abs(float(got) - float(mpmath.log(ml))) < 1e-12


def test_limits_are_checked_before_work():
    rr = krr(4, F(3))
    with pytest.raises(InputError, match="MAX_REPEAT"):
        rr.repeated(10**6)
    with pytest.raises(InputError, match="more than the limit"):
        rr.repeated(1000).sufficient()
    with pytest.raises(InputError, match="composition rules|counts of each output"):
        composed_notion(rr.repeated(1000), "eps_m")
    with pytest.raises(InputError, match="another prior"):
        compose(rr, Mechanism.local(rr.channel.exact, prior=["1/2", "1/4", "1/8", "1/8"]))


def _write(tmp_path, data, name="m.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


RR4 = {"setting": "local", "prior": "uniform", "channel": {"mechanism": "krr", "k": 4, "ratio": "3"}}


@pytest.mark.parametrize("notions", [
    ["maximal_leakage", "bayes_vulnerability", "kl", "delta(1)"],
    pytest.param(["all"], marks=pytest.mark.slow),  # every notion of the table: about 30 s
])
def test_cli_repeat_thirty_every_notion(tmp_path, notions):
    path = _write(tmp_path, RR4)
    proc = run_cli("measure", path, "--repeat", "30", "--json", *[a for n in notions for a in ("--notion", n)])
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["composition"]["count_vectors"] == math.comb(33, 3)
    assert out["eps_d"]["exact"] == f"ln({3 ** 30})"
    names = {row["name"] for row in out["notions"]}
    assert {"maximal_leakage", "bayes_vulnerability", "kl"} <= names
    file_form = _write(tmp_path, {**RR4, "repeat": 30}, "r.json")
    again = json.loads(run_cli("measure", file_form, "--json").stdout)
    assert again["eps_m"] == out["eps_m"]


def test_cli_repeat_beyond_counts(tmp_path):
    path = _write(tmp_path, RR4)
    proc = run_cli("measure", path, "--repeat", "1000", "--json", "--notion", "delta(ln(27))")
    assert proc.returncode == 0, proc.stderr
    rows = {row["name"]: row for row in json.loads(proc.stdout)["notions"]}
    assert abs(rows["eps_d"]["value"] - 1000 * math.log(3)) < 1e-9
    assert 0 < rows["delta(ln(27))"]["value"] <= 1
    assert any(item["name"] == "eps_m" for item in json.loads(proc.stdout)["left_out"])


@pytest.mark.parametrize("bad,message", [(0, "key 'repeat'"), (10**7, "key 'repeat'"), ("3", "key 'repeat'")])
def test_file_repeat_is_validated(tmp_path, bad, message):
    proc = run_cli("measure", _write(tmp_path, {**RR4, "repeat": bad}))
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr


def test_file_parts_and_check(tmp_path):
    data = {"setting": "local", "prior": "uniform",
            "parts": [{"channel": [["3/4", "1/4"], ["1/4", "3/4"]], "repeat": 2},
                      {"channel": [["1/2", "1/2"], ["0", "1"]]}]}
    path = _write(tmp_path, data)
    proc = run_cli("measure", path, "--json")
    assert proc.returncode == 0, proc.stderr
    a = Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]])
    b = Mechanism.local([["1/2", "1/2"], ["0", "1"]])
    brute = measure(expanded_by_hand([(a, 2), (b, 1)]))
    assert json.loads(proc.stdout)["eps_i"]["exact"] == str(brute.eps_i.exact)
    check = run_cli("check", path, "--json")
    assert check.returncode == 0, check.stderr
    assert json.loads(check.stdout)["relations"]


def test_cli_tradeoff_of_repeated_use_is_the_expanded_ones(tmp_path):
    from relations.io._tradeoffs import tradeoff_json
    from relations.measures._tradeoff import tradeoff_curve

    data = {"setting": "local", "prior": "uniform", "channel": [["3/4", "1/4", "0"], ["1/4", "1/2", "1/4"],
                                                                 ["0", "1/4", "3/4"]]}
    proc = run_cli("measure", _write(tmp_path, data), "--repeat", "2", "--tradeoff", "--json")
    assert proc.returncode == 0, proc.stderr
    brute = expanded_by_hand([(Mechanism.local(data["channel"]), 2)])
    want = tradeoff_json(brute, tradeoff_curve(brute, bits=100))
    got = json.loads(proc.stdout)
    assert [(p["alpha"], p["beta"]) for p in got["tradeoff"]] == [(p["alpha"], p["beta"]) for p in want["tradeoff"]]


def test_conjecture_grammar_names_repeated_use():
    from relations.checking._conjectures import parse_conjecture
    from relations.checking._quantities import values
    from relations.pipeline._conjecture import conjecture

    conj = parse_conjecture("eps_m(repeat(3)) <= 3 * eps_m")
    assert "eps_m(repeat(3))" in conj.notions
    rr = krr(2, F(3))
    vals = values(rr)
    assert same(vals.reals["eps_d(repeat(3))"], Log(LogRatio.of(F(27))))
    lo, hi = vals.reals["eps_m(repeat(3))"].enclose(60)
    brute = measure(expanded_by_hand([(rr, 3)])).eps_m.enclosure
    assert lo <= F(brute.upper) and F(brute.lower) <= hi
    with pytest.raises(InputError, match="repeat"):
        parse_conjecture("eps_m(repeat(0)) <= eps_m")
    result = conjecture("eps_m(repeat(2)) <= eps_m", quick=True)
    assert str(result.verdict) == "refuted" and result.witness is not None


@pytest.mark.parametrize("seed", range(6))
def test_straddle_upper_bound_holds_outcome_by_outcome(seed):
    """The chord bound of a straddling bucket against its outcomes summed one by one (exact rationals for the
    masses, mpmath for the exponentials)."""
    from relations.measures._composition import _straddle_upper

    rng = random.Random(seed)
    bottom, top = F(rng.randint(0, 40), 10), None
    top = bottom + F(rng.randint(1, 20), 10)
    eps = bottom + (top - bottom) * F(rng.randint(1, 9), 10)
    mpmath.mp.dps = 40

    def mpf(q):
        return mpmath.mpf(q.numerator) / q.denominator

    total = pm = rm = mpmath.mpf(0)
    for _ in range(rng.randint(1, 6)):
        loss = mpf(bottom) + (mpf(top) - mpf(bottom)) * rng.random()
        p = mpmath.mpf(rng.randint(1, 9)) / 100
        pm += p
        rm += p * mpmath.e ** -loss
        total += p * max(0, 1 - mpmath.e ** (mpf(eps) - loss))
    p_f = F(str(pm))
    r_lo, r_hi = F(str(rm * (1 - mpmath.mpf(10) ** -30))), F(str(rm * (1 + mpmath.mpf(10) ** -30)))
    bound = _straddle_upper(p_f, p_f, r_lo, r_hi, bottom, top, eps)
    assert total <= mpmath.mpf(bound.numerator) / bound.denominator
    assert bound <= p_f * (1 - F(str(mpmath.e ** (mpf(eps) - mpf(top))))) + F(1, 10**20)
    # the same bound in ball arithmetic, from float masses within a stated relative error, as bucketed_delta
    # takes it; and its lower end, max(0, P - e^eps R), below the outcomes' sum
    from relations.measures._composition import _straddle_sums

    t = mpmath.e ** mpf(eps)
    t_lo, t_hi = F(str(t * (1 - mpmath.mpf(10) ** -30))), F(str(t * (1 + mpmath.mpf(10) ** -30)))
    lo, hi = _straddle_sums([float(pm)], [float(rm)], [bottom], top - bottom, eps, t_lo, t_hi, F(1, 2**50), F(0))
    assert mpmath.mpf(lo.numerator) / lo.denominator <= total <= mpmath.mpf(hi.numerator) / hi.denominator
    assert abs(hi - bound) <= F(1, 10**12)


def test_measure_takes_a_composition_as_its_expansion():
    """``measure(m.repeated(k))`` in the API (it raised AttributeError): the counts route gives what the
    brute-force expansion of the ``m^k`` output sequences gives, budgets exactly, ``eps_m`` enclosures that meet;
    a composition beyond the counts route is refused in one line."""
    from relations import Mechanism, measure
    from relations.errors import InputError

    m = Mechanism.local([["1/2", "1/3", "1/6"], ["1/6", "1/2", "1/3"], ["1/3", "1/6", "1/2"]],
                        prior=["1/2", "1/4", "1/4"])
    comp = m.repeated(3)
    got, brute = measure(comp), measure(comp.expanded())
    assert got.eps_d.exact == brute.eps_d.exact and got.eps_i.exact == brute.eps_i.exact
    assert str(got.eps_d.exact) == "ln(27)"  # one use: ln 3 (1/2 against 1/6); three uses: 3 ln 3
    a, b = got.eps_m.enclosure, brute.eps_m.enclosure
    assert a.lower <= b.upper and b.lower <= a.upper and a.upper - a.lower < F(1, 10**20)
    with pytest.raises(InputError, match="count vectors"):
        measure(Mechanism.local([["1/64"] * 64] * 2).repeated(200))


def test_measure_beyond_the_counts_work_limit_uses_composition_rules(tmp_path):
    """2-RR (3/4, 1/4) used 5000 times: 5001 count vectors x 2 inputs fit the entries limit, but entries times uses
    exceed MAX_SUFFICIENT_WORK, so ``measure`` answers by composition rules (it exited 2: the counts route was
    chosen on the entries alone, and refused).  eps_d of one use is ln((3/4) / (1/4)) = ln 3; of 5000, 5000 ln 3."""
    from relations.model._composed import MAX_SUFFICIENT_ENTRIES, MAX_SUFFICIENT_WORK

    assert 2 * 5001 <= MAX_SUFFICIENT_ENTRIES and 2 * 5001 * 5000 > MAX_SUFFICIENT_WORK
    path = tmp_path / "rr.json"
    path.write_text(json.dumps({"setting": "local", "prior": ["1/2", "1/2"], "channel": [["3/4", "1/4"], ["1/4", "3/4"]],
                                "repeat": 5000}))
    proc = run_cli("measure", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got["composition"]["count_vectors"] == 5001
    assert {r["name"]: r["exact"] for r in got["notions"]}["eps_d"] == "5000 ln(3)"
