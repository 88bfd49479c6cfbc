"""White-box audit: the exact channel of randomizers written in code, checked against channels
derived by hand in this file (not by the package's mechanism library)."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from relations import measure
from relations.audit import NotEnumerable, exact_channel, exact_mechanism
from relations.audit._enumerate import HiddenRandomness


def _rows_by_output(fn, domain, **kw):
    keys, rows, runs = exact_channel(fn, domain, **kw)
    return {x: dict(zip(keys, r)) for x, r in zip(domain, rows)}, runs


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.integers(1, 9))
def test_krr_written_with_integers_and_a_threshold(k, num):
    keep = F(num, 10)  # the code keeps the truth when u < keep, else reports a uniform other value

    def krr(x, rng):
        if rng.random() < float(keep):
            return x
        other = int(rng.integers(0, k - 1))
        return other if other < x else other + 1

    table, _ = _rows_by_output(krr, list(range(k)))
    exact_keep = F(float(keep))  # the float threshold at its exact binary value
    for x in range(k):
        for y in range(k):
            want = exact_keep if x == y else (1 - exact_keep) / (k - 1)
            assert table[x].get(y, F(0)) == want


def test_oue_per_bit_code_matches_the_hand_channel():
    k, p, q = 3, F(1, 2), F(1, 4)

    def oue(x, rng):
        return tuple(int(rng.random() < (0.5 if i == x else 0.25)) for i in range(k))

    table, runs = _rows_by_output(oue, list(range(k)))
    assert runs == k * 2**k
    for x in range(k):
        for bits in itertools.product((0, 1), repeat=k):
            want = F(1)
            for i, b in enumerate(bits):
                one = p if i == x else q
                want *= one if b else 1 - one
            assert table[x][("seq", bits)] == want
    assert str(measure(exact_mechanism(oue, list(range(k)))).eps_d.exact) == "ln(3)"


@pytest.mark.parametrize("t", [F(3), F(7, 3)])
def test_pure_ldp_unary_encoding_bug_has_the_derived_budget(t):
    """The user's own bit drawn like the others, then set to 1 with probability p: that bit is 1 with
    p' = p + (1 - p) q, and eps_d = ln(p'(1 - q) / (q (1 - p'))) (= ln(t + 2) for OUE)."""
    p, q = F(1, 2), 1 / (1 + t)
    pq = float(q)

    def buggy(x, rng):
        bits = [int(rng.random() < pq) for _ in range(3)]
        if rng.random() < 0.5:
            bits[x] = 1
        return tuple(bits)

    qf = F(pq)  # the threshold the code actually compares with
    p1 = p + (1 - p) * qf
    derived = p1 * (1 - qf) / (qf * (1 - p1))
    got = measure(exact_mechanism(buggy, [0, 1, 2])).eps_d.exact
    assert got.ratio == derived
    if t == 3:
        assert derived == 5  # ln(e^eps + 2) at eps = ln 3


def test_a_bug_that_fires_rarely_is_found_with_certainty():
    def leaky(x, rng):
        if rng.random() < 1e-9:  # a threshold comparison: two paths, however small the probability
            return ("debug", x)
        if rng.integers(0, 10**4) == 0:
            return ("debug", x)
        return "nothing"

    mech = exact_mechanism(leaky, [0, 1])
    table = dict(zip(mech.outputs, zip(*mech.channel.exact)))
    rest = (1 - F(1e-9)) * (1 - F(1, 10**4))
    assert table["nothing"] == (rest, rest)
    assert str(measure(mech).eps_d.exact) == "inf"


def test_choice_permutation_and_binomial_are_exact():
    def fn(x, rng):
        a = rng.choice(["a", "b", "c"], p=[0.5, 0.25, 0.25])
        perm = tuple(int(v) for v in rng.permutation(3))
        return (a, perm[0], int(rng.binomial(2, 0.5)) + x)

    keys, rows, runs = exact_channel(fn, [0])
    assert sum(rows[0]) == 1 and runs == 3 * 6 * 3
    table = dict(zip(keys, rows[0]))
    assert table[("seq", ("a", 0, 1))] == F(1, 2) * F(1, 3) * F(1, 2)


def test_comparisons_narrow_one_draw_consistently():
    def fn(x, rng):
        u = rng.random()
        if u < 0.5:
            return "low" if u < 0.25 else "mid"
        return "high" if u >= 0.75 else "mid"

    keys, rows, _ = exact_channel(fn, [0])
    assert dict(zip(keys, rows[0])) == {"low": F(1, 4), "mid": F(1, 2), "high": F(1, 4)}


def test_what_cannot_be_enumerated_is_refused():
    with pytest.raises(NotEnumerable, match="arithmetic"):
        exact_channel(lambda x, rng: rng.random() + 2, [0])
    with pytest.raises(NotEnumerable, match="arithmetic"):
        exact_channel(lambda x, rng: rng.random() * 2, [0])  # a scaled draw returned as the output
    with pytest.raises(NotEnumerable, match="normal"):
        exact_channel(lambda x, rng: rng.normal(), [0])
    with pytest.raises(NotEnumerable, match="paths"):
        exact_channel(lambda x, rng: int(rng.integers(0, 100)), [0, 1], max_paths=50)


def test_outputs_are_compared_as_the_code_returns_them():
    keys, rows, _ = exact_channel(lambda x, rng: np.array([x, 1 - x]), [0, 1])
    assert keys == [("seq", (0, 1)), ("seq", (1, 0))] and rows == [[1, 0], [0, 1]]


def test_global_random_sources_are_intercepted_and_restored():
    import random

    before = (random.random, np.random.random, np.random.randint)

    def legacy(x):  # pure-ldp style: global generators, no rng argument
        if random.random() < 0.75:
            return x
        return int(np.random.randint(0, 2))

    keys, rows, _ = exact_channel(legacy, [0, 1], pass_rng=False)
    table = {x: dict(zip(keys, r)) for x, r in zip([0, 1], rows)}
    assert table[0] == {0: F(3, 4) + F(1, 8), 1: F(1, 8)}
    assert (random.random, np.random.random, np.random.randint) == before


def test_audit_command_end_to_end(tmp_path):
    from conftest import run_cli

    code = tmp_path / "randomizers.py"
    code.write_text("import random\n\n"
                    "def good(x):\n    return x if random.random() < 0.75 else 1 - x\n\n"
                    "def bad(x, rng):\n    if rng.random() < 0.75:\n        return x\n    return rng.random() < 0.75\n")
    ok = run_cli("audit", f"{code}:good", "--domain", "0,1", "--eps", "ln(3)", "--json",
                 "--out", str(tmp_path / "good.json"))
    assert ok.returncode == 0, ok.stderr
    import json

    data = json.loads(ok.stdout)
    assert (data["verdict"], data["route"], data["eps_d"]["exact"]) == ("consistent", "white-box", "ln(3)")
    assert run_cli("check", str(tmp_path / "good.json"), "--claim", "eps_d<=ln(3)").returncode == 0
    bad = run_cli("audit", f"{code}:bad", "--domain", "True,False", "--eps", "ln(3)")
    assert bad.returncode == 1 and "ln(13)" in bad.stdout  # 13/16 against 1/16
    missing = run_cli("audit", f"{code}:nope", "--domain", "0,1")
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "Traceback" not in missing.stderr


def test_assert_private_fails_with_the_witness():
    from relations.audit import assert_private

    def rr(x, rng):
        return x if rng.random() < 0.75 else 1 - x  # ln 3, not ln 2

    with pytest.raises(AssertionError, match=r"eps_d = ln\(3\) \(x=0, x'=1, y=0\)"):
        assert_private(rr, domain=[0, 1], eps="ln(2)")


def test_black_box_certifies_a_large_violation_with_few_samples():
    """Gaussian noise cannot be enumerated; the lie-coin bug (true eps ln 13) is caught from 2000 samples."""
    from relations.audit import audit, sample_audit

    def noisy_bug(x, rng):
        if rng.normal() < 0.6744897501960817:  # about 3/4
            return x
        return bool(rng.normal() < 0.6744897501960817)

    report = audit(noisy_bug, domain=[True, False], eps="ln(3)", samples=2000, seed=3)
    assert report.route == "black-box" and report.verdict == "violated"
    assert report.sampled.eps_d_lower > np.log(3)
    # a correct randomizer is never called violated, and the bound is below its true budget
    def rr(x, rng):
        return x if rng.normal() < 0.6744897501960817 else not x

    for seed in range(3):
        ok = audit(rr, domain=[True, False], eps="ln(3.01)", samples=2000, seed=seed)
        assert ok.verdict == "consistent" and ok.sampled.eps_d_lower < np.log(3.01)
    assert sample_audit(rr, domain=[True, False], samples=500, seed=1).counts == \
        sample_audit(rr, domain=[True, False], samples=500, seed=1).counts


def test_affine_draws_and_more_sources_are_exact():
    """uniform(a, b), c*u + o, random.uniform/choices and a random.Random() of the code's own,
    each with a hand-derived channel."""
    import random

    def affine(x, rng):
        return x if 1 - 2 * rng.random() < -0.5 else 1 - x  # u > 3/4

    def uniform(x, rng):
        return x if rng.uniform(-1, 3) >= 0 else 1 - x  # 3/4

    def py_uniform(x):
        return x if random.uniform(0, 4) < 3 else 1 - x  # 3/4

    def py_choices(x):
        return random.choices([x, 1 - x], weights=[3, 1])[0]  # 3/4

    own = random.Random(5)

    def own_generator(x):
        return x if own.randint(0, 3) else 1 - x  # 3/4

    expected = {affine: F(1, 4), uniform: F(3, 4), py_uniform: F(3, 4), py_choices: F(3, 4),
                own_generator: F(3, 4)}
    for fn, keep in expected.items():
        keys, rows, _ = exact_channel(fn, [0, 1], pass_rng="rng" in fn.__code__.co_varnames)
        assert dict(zip(keys, rows[0]))[0] == keep, fn.__name__
    assert random.Random(1).random() == 0.13436424411240122  # restored afterwards


def test_hidden_randomness_is_refused():
    import secrets

    with pytest.raises(NotEnumerable, match="secrets.randbits"):
        exact_channel(lambda x: x if secrets.randbits(64) % 2 else 1 - x, [0, 1], pass_rng=False)


def test_a_generator_built_before_the_run_is_detected_by_the_replays():
    import numpy as np

    rng = np.random.default_rng()  # built outside the closed world: its draws are invisible

    with pytest.raises(HiddenRandomness, match="closure 0, a generator built before the audit ran"):
        exact_channel(lambda x: x if rng.random() < 0.75 else 1 - x, [0, 1], pass_rng=False)


def test_generators_out_of_reach_by_name_are_found_all_the_same():
    """A generator in a class attribute, in a dict, or a draw function bound before the audit (the effect of
    'from random import randrange' at import) is not reachable by name; the garbage collector finds it, and a
    path that moves it ends the exact route.  Each is a correct k-RR whose lie (off the first path) comes from
    there: the replays of the first path cannot see it, and the channel was 'eps_d = inf, exactly'."""
    import random

    import numpy as np

    class Holder:
        gen = np.random.default_rng()

    pool = {"rng": np.random.default_rng()}
    bound_randrange = random.randrange  # the bound method of Python's hidden module generator

    def lie(draw):
        def krr(x, rng):
            if rng.random() < 0.5:
                return x
            y = draw()
            return y + 1 if y >= x else y
        return krr

    for draw, name in ((lambda: int(Holder.gen.integers(0, 3)), "a numpy Generator"),
                       (lambda: int(pool["rng"].integers(0, 3)), "a numpy Generator"),
                       (lambda: bound_randrange(3), "Python's random module generator")):
        with pytest.raises(HiddenRandomness, match=name):
            exact_channel(lie(draw), [0, 1, 2, 3])



def test_the_sampling_bounds_solve_their_defining_equations():
    """The black-box route's Clopper-Pearson interval and conformance p-value (computed from scipy.special, not
    scipy.stats, which costs a second of CPU to import in every process that samples), checked by hand: the lower
    end p of k successes in n solves P(X >= k | n, p) = alpha / 2 and the upper end P(X <= k | n, p) = alpha / 2
    (binomial tails summed here; at k = 0 and k = n in closed form), and the chi-square p-value with two degrees
    of freedom is exp(-statistic / 2)."""
    import math
    from collections import Counter

    from relations.audit._blackbox import clopper_pearson, conformance

    def tail(n, p, ks):
        return math.fsum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in ks)

    for n, k, alpha in [(10, 3, 0.05), (40, 0, 0.05), (40, 40, 0.01), (60, 17, 0.05 / 18), (25, 24, 0.2)]:
        lo, hi = clopper_pearson(k, n, alpha)
        assert 0 <= lo < k / n < hi <= 1 or (k in (0, n) and lo <= k / n <= hi)
        if k == 0:
            assert lo == 0 and hi == pytest.approx(1 - (alpha / 2) ** (1 / n), rel=1e-12)
        elif k == n:
            assert hi == 1 and lo == pytest.approx((alpha / 2) ** (1 / n), rel=1e-12)
        else:
            assert tail(n, lo, range(k, n + 1)) == pytest.approx(alpha / 2, rel=1e-9)
            assert tail(n, hi, range(k + 1)) == pytest.approx(alpha / 2, rel=1e-9)
    row = {0: 0.5, 1: 0.3, 2: 0.2}
    counts = Counter({0: 530, 1: 280, 2: 190})
    statistic = (530 - 500) ** 2 / 500 + (280 - 300) ** 2 / 300 + (190 - 200) ** 2 / 200
    assert conformance([counts], 1000, [row]) == pytest.approx(math.exp(-statistic / 2), rel=1e-12)


@pytest.mark.slow
def test_the_sampling_bounds_are_scipy_stats_own():
    """The same numbers as scipy.stats.beta.ppf and scipy.stats.chisquare give (what the route computed before), on
    400 intervals and 40 rows (slow: scipy.stats' import is most of it; the default run checks the equations
    above)."""
    from collections import Counter

    import numpy as np
    from scipy.stats import beta, chisquare

    from relations.audit._blackbox import clopper_pearson, conformance

    rng = np.random.default_rng(11)
    n = rng.integers(1, 10 ** rng.integers(1, 7, size=400))
    k = rng.integers(0, n + 1)
    alpha = rng.choice([0.05, 0.05 / 18, 1e-3, 0.2], size=400)
    lo = np.where(k == 0, 0.0, beta.ppf(alpha / 2, np.maximum(k, 1), n - k + 1))  # (one call each: scipy.stats'
    hi = np.where(k == n, 1.0, beta.ppf(1 - alpha / 2, k + 1, np.maximum(n - k, 1)))  # per-call cost is a ms)
    for case in zip(k.tolist(), n.tolist(), alpha.tolist(), lo.tolist(), hi.tolist()):
        assert clopper_pearson(*case[:3]) == tuple(case[3:]), case
    for _ in range(40):
        m, n = int(rng.integers(2, 9)), int(rng.integers(50, 10**5))
        row = dict(enumerate(float(p) for p in rng.dirichlet(np.ones(m))))
        counts = Counter(dict(enumerate(int(c) for c in rng.multinomial(n, list(row.values())))))
        obs = [counts[y] for y in row if n * row[y] >= 5]
        exp = [n * row[y] for y in row if n * row[y] >= 5]
        small = [y for y in row if n * row[y] < 5]
        if small:
            obs.append(sum(counts[y] for y in small))
            exp.append(sum(n * row[y] for y in small))
        if len(obs) < 2:
            continue
        exp = [e * sum(obs) / sum(exp) for e in exp]
        assert conformance([counts], n, [row]) == min(1.0, float(chisquare(obs, exp).pvalue))
