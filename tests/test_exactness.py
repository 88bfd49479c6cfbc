"""Exactness where floats cannot decide: near-ties below double precision, entries below the
float range, ratios beyond it.  Expected values come from brute force in Fractions."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from bruteforce import (
    brute_all,
    brute_eps_d,
    brute_eps_i,
    brute_sigma_min,
    edges_dict,
    hamming_dict,
    hamming_pairs,
    local_dict,
    local_pairs,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_strategies import check_budget, distributions, edge_cases, examples, hamming_cases, local_cases

import relations

DELTA = Fraction(1, 10**30)
THIRD, SIXTH, TWELFTH = Fraction(1, 3), Fraction(1, 6), Fraction(1, 12)


def measure_local(prior, channel):
    return relations.measure(relations.from_dict(local_dict(prior, channel)))


def float_ratio(a, b):
    return float(a) / float(b)


@pytest.mark.parametrize("where", [0, 1])
@pytest.mark.parametrize("sign", [1, -1])
def test_eps_d_near_tie_between_outputs(where, sign):
    """Two outputs whose ratios are 2 and 2 +- 6e-30: identical in float64, different exactly.
    ``where`` is the output carrying the perturbation, so the truly larger ratio is at either index."""
    if where == 0:  # row0[0] / row1[0] = (1/3 +- d) / (1/6), row0[1] / row1[1] = (1/6) / (1/12)
        row0 = [THIRD + sign * DELTA, SIXTH, Fraction(1, 2) - sign * DELTA]
        row1 = [SIXTH, TWELFTH, Fraction(3, 4)]
    else:  # the same with the two outputs swapped
        row0 = [SIXTH, THIRD + sign * DELTA, Fraction(1, 2) - sign * DELTA]
        row1 = [TWELFTH, SIXTH, Fraction(3, 4)]
    channel = [row0, row1]
    assert all(sum(r) == 1 for r in channel)
    ratios = [row0[y] / row1[y] for y in range(2)]
    assert ratios[0] != ratios[1] and float_ratio(row0[0], row1[0]) == float_ratio(row0[1], row1[1])

    value, attaining = brute_eps_d(channel, local_pairs(2))
    assert value == max(ratios)
    truly_larger = where if sign > 0 else 1 - where
    assert attaining == {(0, 1, truly_larger)}

    m = measure_local([Fraction(1, 2)] * 2, channel)
    check_budget(m.eps_d, (value, attaining))
    assert m.eps_d.witness.y == truly_larger


@pytest.mark.parametrize("sign", [1, -1])
def test_eps_i_near_tie_from_the_prior(sign):
    """A symmetric channel and a prior 1/2 +- 1e-30: the two directions differ only below float precision."""
    prior = [Fraction(1, 2) + sign * DELTA, Fraction(1, 2) - sign * DELTA]
    channel = [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]
    brute = brute_eps_i(prior, channel, local_pairs(2))
    expected = (0, 1, 0) if sign > 0 else (1, 0, 1)
    assert brute[1] == {expected}
    m = measure_local(prior, channel)
    check_budget(m.eps_i, brute)
    # sigma_min: the smaller prior over the larger
    s = brute_sigma_min(prior, local_pairs(2))
    check_budget(m.sigma_min, s)
    assert s[0] == min(prior) / max(prior) != 1


@pytest.mark.parametrize("swap", [False, True])
def test_sigma_min_near_tie_between_edges(swap):
    """Two neighbour pairs whose prior ratios differ by ~1e-29 (relative): the exact path picks the right one."""
    prior = [THIRD + DELTA, SIXTH, THIRD, SIXTH - DELTA]
    edges = [(0, 1), (2, 3)] if not swap else [(2, 3), (0, 1)]
    channel = [[Fraction(1)]] * 4
    assert float_ratio(prior[0], prior[1]) == float_ratio(prior[2], prior[3])
    s = brute_sigma_min(prior, edges)
    assert s[1] == {(3, 2)}  # (1/6 - d) / (1/3) is the smallest ratio
    m = relations.measure(relations.from_dict(edges_dict(prior, channel, edges)))
    check_budget(m.sigma_min, s)


@pytest.mark.parametrize("sign", [1, -1])
def test_hamming_near_tie_across_record_axes(sign):
    """D^2: every ratio is 2 except those through one perturbed dataset; they differ by ~1e-30."""
    k, r = 2, 2
    a, b = Fraction(2, 3), Fraction(1, 3)
    channel = [[a + sign * DELTA, b - sign * DELTA], [b, a], [b, a], [a, b]]
    prior = [Fraction(1, 4)] * 4
    pairs = hamming_pairs(k, r)
    brute = brute_all(prior, channel, pairs)
    # with +d the perturbed dataset's ratios are the strict maximum, with -d they fall just below the
    # exact 2 of the other pairs; either way float64 sees 2.0 everywhere
    near = [channel[x][y] / channel[xp][y] for x, xp in pairs + [(j, i) for i, j in pairs] for y in range(2)]
    assert all(float(v) == 2.0 or float(v) == 0.5 for v in near) and len(set(near)) > 2
    assert (brute["eps_d"][0] > 2) == (sign > 0) and float(brute["eps_d"][0]) == 2.0
    m = relations.measure(relations.from_dict(hamming_dict(prior, channel, k, r)))
    for key in ("eps_d", "eps_i", "sigma_min"):
        check_budget(getattr(m, key), brute[key])


@st.composite
def perturbed(draw, case_strategy):
    """A case with entries moved by multiples of 1e-30 (rows kept stochastic): many exact ties are
    broken far below float precision, in both directions."""
    case = list(draw(case_strategy))
    # locate prior and channel in the case tuple: (k, r, prior, channel) / (prior, channel[, edges])
    pi, ci = (2, 3) if isinstance(case[0], int) else (0, 1)
    channel = [list(row) for row in case[ci]]
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(channel) - 1))
        row = channel[i]
        if len(row) < 2:
            continue
        a, b = draw(st.permutations(range(len(row))))[:2]
        d = DELTA * draw(st.integers(1, 5))
        if row[b] > d:
            row[a] += d
            row[b] -= d
    prior = list(case[pi])
    if draw(st.booleans()) and len(prior) >= 2:
        a, b = draw(st.permutations(range(len(prior))))[:2]
        if prior[b] > DELTA:
            prior[a] += DELTA
            prior[b] -= DELTA
    case[pi], case[ci] = prior, channel
    return tuple(case)


@st.composite
def tie_heavy_hamming(draw):
    """Channels whose rows are drawn from a few shared rows (many equal ratios), then perturbed."""
    k = draw(st.integers(2, 3))
    r = draw(st.integers(1, 2))
    m = draw(st.integers(2, 3))
    pool = [draw(distributions(m, zeros=False)) for _ in range(2)]
    channel = [list(pool[draw(st.integers(0, 1))]) for _ in range(k**r)]
    prior = [Fraction(1, k**r)] * k**r if draw(st.booleans()) else draw(distributions(k**r, zeros=False))
    return k, r, prior, channel


@settings(max_examples=examples(40))
@given(perturbed(tie_heavy_hamming()) | perturbed(hamming_cases(rmax=2)))
def test_hamming_near_ties_match_bruteforce(case):
    k, r, prior, channel = case
    assert all(sum(row) == 1 for row in channel) and sum(prior) == 1
    m = relations.measure(relations.from_dict(hamming_dict(prior, channel, k, r)))
    brute = brute_all(prior, channel, hamming_pairs(k, r))
    for key in ("eps_d", "eps_i", "sigma_min"):
        check_budget(getattr(m, key), brute[key])


@settings(max_examples=examples(30))
@given(perturbed(local_cases(nmin=2)) | perturbed(edge_cases()))
def test_local_and_edge_near_ties_match_bruteforce(case):
    if len(case) == 2:
        prior, channel = case
        mech, pairs = relations.from_dict(local_dict(prior, channel)), local_pairs(len(prior))
    else:
        prior, channel, edges = case
        mech, pairs = relations.from_dict(edges_dict(prior, channel, edges)), edges
    m = relations.measure(mech)
    brute = brute_all(prior, channel, pairs)
    for key in ("eps_d", "eps_i", "sigma_min"):
        check_budget(getattr(m, key), brute[key])


# --------------------------------------------------------------------------- beyond the float range


def test_entries_below_float_range():
    """1e-400 and 1e-401 are 0.0 in float64; their ratio is exactly 10, not 0/0."""
    tiny, tinier = Fraction(1, 10**400), Fraction(1, 10**401)
    channel = [[tiny, 1 - tiny], [tinier, 1 - tinier]]
    assert float(tiny) == float(tinier) == 0.0
    m = relations.measure(relations.loads(
        '{"setting": "local", "prior": ["1/2", "1/2"], '
        f'"channel": [["1e-400", "{1 - tiny}"], ["1e-401", "{1 - tinier}"]]}}'))
    brute = brute_all([Fraction(1, 2)] * 2, channel, local_pairs(2))
    assert brute["eps_d"][0] == 10
    check_budget(m.eps_d, brute["eps_d"])
    check_budget(m.eps_i, brute["eps_i"])
    assert m.eps_d.witness == relations.Witness(0, 1, 0)


def test_ratio_beyond_float_range_is_finite():
    """(1/2) / 1e-320: the float ratio overflows to inf; the exact one is finite (ln of it ~ 736)."""
    small = Fraction(1, 10**320)
    channel = [[Fraction(1, 2), Fraction(1, 2)], [small, 1 - small]]
    m = measure_local([Fraction(1, 2)] * 2, channel)
    assert m.eps_d.exact.is_finite and m.eps_d.exact.ratio == Fraction(1, 2) / small
    assert m.eps_d.value == pytest.approx(math.log(5) + 319 * math.log(10), rel=1e-14)
    assert math.isinf(0.5 / float(small))  # float64 cannot even represent this ratio


def test_joint_underflow_in_eps_i():
    """p(x) Q[x][y] = 1e-200 * 1e-200 underflows even though both factors are normal doubles."""
    e = Fraction(1, 10**200)
    prior = [e, 1 - e]
    channel = [[e, 1 - e], [Fraction(1, 2), Fraction(1, 2)]]
    assert float(e) * float(e) == 0.0
    m = measure_local(prior, channel)
    brute = brute_all(prior, channel, local_pairs(2))
    for key in ("eps_d", "eps_i", "sigma_min"):
        check_budget(getattr(m, key), brute[key])
    assert m.eps_i.exact.ratio == ((1 - e) / 2) / (e * e)


def test_exact_comparison_not_float():
    """LogRatio compares rationals: ln(2 + 6e-30) > ln(2) although both round to the same double."""
    a, b = relations.LogRatio.of(2 + 6 * DELTA), relations.LogRatio.of(Fraction(2))
    assert a.value == b.value and a > b and not a <= b and a != b


@settings(max_examples=examples(60))
@given(st.one_of(
    st.fractions(min_value=Fraction(1, 10**6), max_value=10**6),
    st.builds(lambda n, e: 1 + Fraction(n, 10**e), st.integers(-10**6, 10**6).filter(bool), st.integers(8, 60)),
    st.builds(lambda n, e: Fraction(n, 10**e), st.integers(1, 10**6), st.integers(300, 500)),
    st.builds(lambda n, e: Fraction(10**e, n), st.integers(1, 10**6), st.integers(300, 500)),
))
def test_log_value_is_accurate(q):
    """The float ``value`` of ``ln(q)`` is within a few ulp of the truth, also for q very close to 1
    (where ln(numerator) - ln(denominator) cancels) and beyond the float range."""
    import mpmath
    from bruteforce import mpf_of

    with mpmath.workdps(150):  # q - 1 may be 1e-60: 150 digits leave 90 significant ones for ln(q)
        truth = float(mpmath.log(mpf_of(q)))
    got = relations.LogRatio.of(q).value
    assert got == pytest.approx(truth, rel=4 * 2.0**-52, abs=0.0) or got == truth


def test_true_maximum_whose_float_ratio_is_smaller():
    """Output 0 has the truly larger ratio (by 1.4e-17, relative), yet float64 division ranks output 1
    strictly higher: an exact answer must not trust the float ranking, only use it as a screen."""
    c, d, b = Fraction(0.2927325859588406), Fraction(0.12176769265578113), Fraction(0.08417134092378133)
    a = (c / d) * (1 + Fraction(7, 10**18)) * b  # not a double: it is rounded when converted
    channel = [[a, c, 1 - a - c], [b, d, 1 - b - d]]
    assert a / b > c / d and float(a) / float(b) < float(c) / float(d)
    brute = brute_all([Fraction(1, 2)] * 2, channel, local_pairs(2))
    assert brute["eps_d"] == (a / b, {(0, 1, 0)})
    m = measure_local([Fraction(1, 2)] * 2, channel)
    check_budget(m.eps_d, brute["eps_d"])
    check_budget(m.eps_i, brute["eps_i"])


def test_joint_underflow_does_not_hide_the_maximum():
    """p(x)Q[x][y] = 1e-200 * 1e-200 is 0.0 in float64, which makes output 0 look infinite; the true
    maximum is at output 1 (about 5e299), far above output 0's true ratio (about 1e100)."""
    e = Fraction(1, 10**200)
    prior = [e, 1 - e]
    channel = [[e, Fraction(1, 10**100), 1 - e - Fraction(1, 10**100)],
               [Fraction(1, 10**300), Fraction(1, 2), Fraction(1, 2) - Fraction(1, 10**300)]]
    assert float(prior[0]) * float(channel[0][0]) == 0.0
    brute = brute_all(prior, channel, local_pairs(2))
    assert {w[2] for w in brute["eps_i"][1]} == {1}
    m = measure_local(prior, channel)
    for key in ("eps_d", "eps_i", "sigma_min"):
        check_budget(getattr(m, key), brute[key])
