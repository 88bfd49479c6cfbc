"""The samplers DP is built on, audited on the white-box route: the discrete Laplace and discrete Gaussian samplers
of Canonne, Kamath and Steinke ("The Discrete Gaussian for Differential Privacy", 2020), written here from the
paper's algorithms in ``examples/cks_samplers.py`` (Algorithm 1: Bernoulli(exp(-gamma)) by a nested loop of
Bernoulli(gamma / k) trials; Algorithm 2: discrete Laplace; Algorithm 3: discrete Gaussian by rejection from a
discrete Laplace), with ``Fraction`` parameters and Bernoulli(p) as ``randrange(denominator) < numerator``.

Expected values are derived by hand in each test's docstring (the closed forms of the distributions)."""

from __future__ import annotations

import math
import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from relations.audit import audit
from relations.audit._exact import enumerate_channel
from relations.audit._outputs import output_key

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
_WROTE, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # nothing written next to the examples
from cks_samplers import bernoulli_exp, discrete_gaussian, discrete_laplace  # noqa: E402

sys.dont_write_bytecode = _WROTE


def _nats(text):
    """A bound as the report prints it: ``1.09861 nats (...)`` or ``ln(p/q)`` for a short rational."""
    head = text.split()[0]
    return math.log(Fraction(head[3:-1])) if head.startswith("ln(") else float(head)

def _laplace(top, s=1, t=1):
    def clamped(x):
        return max(0, min(top, x + discrete_laplace(s, t, random)))
    return clamped


def test_a_draw_read_only_through_a_comparison_is_one_branch_per_side():
    """randrange(1000) < 3 is two branches (3/1000 and 997/1000), not a thousand; a draw kept in a variable is
    enumerated value by value."""
    def compared(x):
        return random.randrange(1000) < 3

    def kept(x):
        y = random.randrange(10)
        return y < 3

    e = enumerate_channel(compared, [0], pass_rng=False)
    assert e.runs == 2 and dict(zip(e.outputs, e.rows[0])) == {output_key(True): Fraction(3, 1000),
                                                               output_key(False): Fraction(997, 1000)}
    e = enumerate_channel(kept, [0], pass_rng=False)
    assert e.runs == 10 and dict(zip(e.outputs, e.rows[0])) == {output_key(True): Fraction(3, 10),
                                                                output_key(False): Fraction(7, 10)}


def test_bernoulli_exp_by_the_nested_loop_is_certified_both_ways():
    """Bernoulli(exp(-(x + 1) / 2)) on x in {0, 1}: P(True) is e^-1/2 and e^-1, P(False) 1 - e^-1/2 and 1 - e^-1,
    so eps_d = max(1/2, ln((1 - e^-1) / (1 - e^-1/2))) = 1/2 (the second is 0.474).  With 5 % slack either way:
    consistent and violated, on the white-box route (the loop's interval, both ends)."""
    def bern(x):
        return bernoulli_exp(Fraction(x + 1, 2), random)

    assert math.log((1 - math.exp(-1)) / (1 - math.exp(-0.5))) < 0.5
    ok = audit(bern, domain=[0, 1], eps=1.05 * 0.5, outputs=[True, False])
    assert ok.verdict == "consistent" and ok.route == "white-box (depth-bounded)"
    iv = ok.white_box_interval
    assert _nats(iv["lower"]) <= 0.5 <= _nats(iv["upper"]) < 1.05 * 0.5
    bad = audit(bern, domain=[0, 1], eps=0.95 * 0.5, outputs=[True, False])
    assert bad.verdict == "violated" and bad.route == "white-box (depth-bounded)"


def test_the_discrete_laplace_sampler_clamped_is_certified_both_ways():
    """x + Z clamped to 0..1, Z discrete Laplace of scale 1 (P(z) proportional to e^-|z|): P(0 | 0) = P(Z <= 0)
    and P(0 | 1) = P(Z <= -1) = e^-1 P(Z <= 0), so eps_d = 1 (and likewise for output 1)."""
    ok = audit(_laplace(1), domain=[0, 1], eps=1.05, outputs=[0, 1])
    assert ok.verdict == "consistent" and ok.route == "white-box (depth-bounded)"
    iv = ok.white_box_interval
    assert _nats(iv["lower"]) <= 1 <= _nats(iv["upper"]) < 1.05
    bad = audit(_laplace(1), domain=[0, 1], eps=0.95, outputs=[0, 1])
    assert bad.verdict == "violated" and bad.route == "white-box (depth-bounded)"


@pytest.mark.slow  # four inputs, three audits (about 30 s on a loaded machine)
def test_the_discrete_laplace_sampler_on_four_inputs_right_and_wrong_scale():
    """x + Z clamped to 0..3: P(0 | 0) / P(0 | 3) = P(Z <= 0) / P(Z <= -3) = e^3, and no ratio is larger (an
    interior output moves by at most 3 steps of e^-1), so eps_d = 3 at scale 1.  A sampler built with the scale
    inverted (s = 2, t = 1: P(z) proportional to e^-2|z|) has eps_d = 6 against the claim of 3.15."""
    ok = audit(_laplace(3), domain=[0, 1, 2, 3], eps=1.05 * 3, outputs=[0, 1, 2, 3])
    assert ok.verdict == "consistent" and ok.route == "white-box (depth-bounded)"
    assert audit(_laplace(3), domain=[0, 1, 2, 3], eps=0.95 * 3, outputs=[0, 1, 2, 3]).verdict == "violated"
    wrong = audit(_laplace(3, s=2), domain=[0, 1, 2, 3], eps=1.05 * 3, outputs=[0, 1, 2, 3])
    assert wrong.verdict == "violated" and wrong.route == "white-box (depth-bounded)"


def _gaussian_eps(top):
    """eps_d of x + Z clamped to 0..top, Z discrete Gaussian of sigma^2 = 1, by summing its mass function: the
    largest ratio is at the clamped ends, P(Z <= 0) / P(Z <= -top) (interior ratios are e^(z^2 - z'^2)/2 with
    |z - z'| <= top, z, z' within the range, smaller)."""
    mass = {z: math.exp(-z * z / 2) for z in range(-60, 61)}

    def below(a):
        return sum(p for z, p in mass.items() if z <= a)
    ends = math.log(below(0) / below(-top))
    interior = max(abs(z * z - w * w) / 2 for z in range(-top, top + 1) for w in range(-top, top + 1)
                   if abs(z - w) <= top and 0 < z + top and 0 < w + top)
    return max(ends, interior)


def _gaussian_channel(top):
    """P(clamp(x + Z, 0, top) = y) for Z discrete Gaussian with sigma^2 = 1, from its closed form: the mass
    e^(-z^2/2) / N with N = theta_3(0, e^(-1/2)) (Jacobi's theta function, mpmath), and the tail P(Z <= -k) =
    (N - sum over |z| < k of e^(-z^2/2)) / (2 N) by symmetry (k >= 1)."""
    import mpmath

    mpmath.mp.dps = 40
    norm = mpmath.jtheta(3, 0, mpmath.exp(-0.5))

    def mass(z):
        return mpmath.exp(-mpmath.mpf(z) ** 2 / 2) / norm

    def below(k):  # P(Z <= k)
        if k >= 0:
            return 1 - below(-k - 1)
        return (1 - sum(mass(z) for z in range(k + 1, -k))) / 2

    def entry(x, y):
        return below(-x) if y == 0 else 1 - below(top - 1 - x) if y == top else mass(y - x)
    return [[entry(x, y) for y in range(top + 1)] for x in range(top + 1)]


def _eps_d(channel):
    import mpmath

    return max(mpmath.log(a / b) for r in channel for r2 in channel for a, b in zip(r, r2))


@pytest.mark.slow  # four inputs, two levels of the loops' paths (about 30 s of CPU)
def test_the_discrete_gaussian_sampler_clamped_to_four_values_is_certified_both_ways():
    """x + Z clamped to 0..3, Z discrete Gaussian with sigma^2 = 1: eps_d from the closed form (about 5.03, at
    the clamped ends: P(0 | 0) / P(0 | 3)); a claim 5 % above is consistent, one 5 % below violated, both on the
    white-box route (the first level of 32 draws certifies the upper end, the second, 40 draws, the lower)."""
    eps = float(_eps_d(_gaussian_channel(3)))
    assert 5.0 < eps < 5.1

    def gauss(x):
        return max(0, min(3, x + discrete_gaussian(1, random)))
    # (a white-box budget of 600 s: the levels are fixed by counts, the clock of a loaded machine must not cut them)
    ok = audit(gauss, domain=[0, 1, 2, 3], eps=1.05 * eps, outputs=[0, 1, 2, 3], seconds=600)
    assert ok.verdict == "consistent" and ok.route == "white-box (depth-bounded)"
    assert _nats(ok.white_box_interval["lower"]) <= eps <= _nats(ok.white_box_interval["upper"])
    bad = audit(gauss, domain=[0, 1, 2, 3], eps=0.95 * eps, outputs=[0, 1, 2, 3], seconds=600)
    assert bad.verdict == "violated" and bad.route == "white-box (depth-bounded)"


def test_the_discrete_gaussian_sampler_is_enumerated_within_its_closed_form():
    """The quick version: one input of x + Z clamped to 0..3 enumerated to 28 draws; every entry of its row lies
    in [explored, explored + unexplored] around the closed form (the interval is sound), and the unexplored mass
    is small (below 1 %)."""
    def gauss(x):
        return max(0, min(3, x + discrete_gaussian(1, random)))
    e = enumerate_channel(gauss, [3], pass_rng=False, max_depth=28, allow_unexplored=True)  # (0.96 % unexplored)
    import mpmath

    row = _gaussian_channel(3)[3]
    lost = e.unexplored[0]
    assert 0 < lost < Fraction(1, 100) and len(e.outputs) == 4

    def mp(q):
        return mpmath.mpf(q.numerator) / q.denominator
    for key, p in zip(e.outputs, e.rows[0]):
        y = next(v for v in range(4) if output_key(v) == key)
        assert mp(p) <= row[y] <= mp(p + lost)


@pytest.mark.slow  # the discrete Gaussian's paths are many (about a minute on a loaded machine)
def test_the_discrete_gaussian_sampler_clamped_is_certified():
    """x + Z clamped to 0..1, Z discrete Gaussian with sigma^2 = 1: eps_d = ln(P(Z <= 0) / P(Z <= -1)), from the
    mass function summed here (about 1.27)."""
    eps = _gaussian_eps(1)

    def gauss(x):
        return max(0, min(1, x + discrete_gaussian(1, random)))
    ok = audit(gauss, domain=[0, 1], eps=1.05 * eps, outputs=[0, 1])
    assert ok.verdict == "consistent" and ok.route == "white-box (depth-bounded)"
    assert audit(gauss, domain=[0, 1], eps=0.95 * eps, outputs=[0, 1]).verdict == "violated"


def test_a_stepped_randrange_compared_is_enumerated_by_its_values():
    """randrange(0, 10, 3) draws 0, 3, 6 or 9: P(< 4) = 2/4.  randrange(10, 0, -1) draws 10, 9, ..., 1: P(< 3) =
    2/10.  The closed world draws an index into the range there, so the comparison of the value is not a
    comparison of the draw (it was taken as one: P(< 4) came out 1, P(< 3) came out 0)."""
    def stepped(x):
        return random.randrange(0, 10, 3) < 4

    def down(x):
        return random.Random().randrange(10, 0, -1) < 3

    for f, p in ((stepped, Fraction(2, 4)), (down, Fraction(2, 10))):
        e = enumerate_channel(f, [0], pass_rng=False)
        assert dict(zip(e.outputs, e.rows[0])) == {output_key(True): p, output_key(False): 1 - p}


_CUT = 5


def test_a_comparison_in_a_class_body_reads_the_class_name_first():
    """In a class body ``_CUT`` is the class's (1), not the global (5): P(randrange(6) < 1) = 1/6 (the split read
    the global and gave 5/6)."""
    def in_class(x):
        class Draw:
            _CUT = 1
            below = random.randrange(6) < _CUT
        return Draw.below

    e = enumerate_channel(in_class, [0], pass_rng=False)
    assert dict(zip(e.outputs, e.rows[0])) == {output_key(True): Fraction(1, 6), output_key(False): Fraction(5, 6)}


def test_only_a_draw_called_directly_is_one_branch_per_side():
    """``sum(map(random.randrange, [6, 6])) < 3``: the draws are called from C by ``map``, and the comparison is
    of their sum: P(a + b < 3) = 6/36 (each draw was split at 3 as if compared itself: the rows did not even sum
    to 1).  A draw reached through an alias is still one (``r = random.randrange; r(6) < 3``: 1/2, two paths)."""
    def summed(x):
        return sum(map(random.randrange, [6, 6])) < 3

    def aliased(x):
        r = random.randrange
        return r(6) < 3

    e = enumerate_channel(summed, [0], pass_rng=False)
    assert dict(zip(e.outputs, e.rows[0])) == {output_key(True): Fraction(1, 6), output_key(False): Fraction(5, 6)}
    e = enumerate_channel(aliased, [0], pass_rng=False)
    assert e.runs == 2 and dict(zip(e.outputs, e.rows[0])) == {output_key(True): Fraction(1, 2),
                                                               output_key(False): Fraction(1, 2)}


_INFINITE = float("inf")


def test_a_draw_compared_with_an_infinite_bound_is_enumerated():
    """``randrange(6) < inf`` is always true (the split converted inf to a Fraction and raised OverflowError in
    the randomizer)."""
    def below(x):
        return random.randrange(6) < _INFINITE

    e = enumerate_channel(below, [0], pass_rng=False)
    assert dict(zip(e.outputs, e.rows[0])) == {output_key(True): Fraction(1)}


# Two-sided geometric noise resampled until it lands in range (issue 42): P(y | x) proportional to a^|y - x| on
# 0..3, with a = 1 - p for the difference of two geometric(p) draws (P(z) = p / (2 - p) a^|z|), whichever way the
# geometrics are drawn.

def _resampled_geometric(x, rng):
    while True:
        y = x + rng.geometric(0.5) - rng.geometric(0.5)
        if 0 <= y <= 3:
            return y


def _resampled_coins(x, rng):
    while True:
        a = 0
        while rng.random() < 0.5:
            a += 1
        b = 0
        while rng.random() < 0.5:
            b += 1
        y = x + a - b
        if 0 <= y <= 3:
            return y


def _resampled_eps(alpha):
    """ln of the largest ratio of the resampled channel, in Fractions: row x is alpha^|y - x| over its sum."""
    rows = [[alpha ** abs(y - x) / sum(alpha ** abs(z - x) for z in range(4)) for y in range(4)] for x in range(4)]
    return math.log(max(a / b for r in rows for r2 in rows for a, b in zip(r, r2)))


@pytest.mark.parametrize("fn", [_resampled_geometric, _resampled_coins])
def test_noise_resampled_until_in_range_is_certified_both_ways(fn):
    """eps_d = ln 8 by hand (P(0 | 0) / P(0 | 3) = 1 / (1/2)^3, the rows' sums cancel by symmetry), and from the
    rows in Fractions.  The resampling point repeats, so the loop is a Markov chain; the geometric's tail (each
    ``rng.geometric`` one draw with its tail beyond 2^-depth cut, exactly) and the coin loops' counters leave an
    unexplored mass below 1e-6: with the outputs declared, consistent 5 % above and violated 5 % below, both on
    the white-box route, the interval around ln 8."""
    eps = _resampled_eps(Fraction(1, 2))
    assert abs(eps - math.log(8)) < 1e-12
    ok = audit(fn, domain=[0, 1, 2, 3], eps=1.05 * eps, outputs=[0, 1, 2, 3])
    assert ok.verdict == "consistent" and ok.route == "white-box (depth-bounded)"
    iv = ok.white_box_interval
    assert _nats(iv["lower"]) <= eps + 1e-5 and eps - 1e-5 <= _nats(iv["upper"]) < eps + 1e-3  # (printed to 6 digits)
    bad = audit(fn, domain=[0, 1, 2, 3], eps=0.95 * eps, outputs=[0, 1, 2, 3])
    assert bad.verdict == "violated" and bad.route == "white-box (depth-bounded)"


def test_a_geometric_draw_is_one_draw_with_its_tail_cut_exactly():
    """rng.geometric(1/4) clamped to 1..3: P(1) = 1/4, P(2) = 3/16, P(3) = 9/16, by hand; enumerated to 32 draws
    the tail beyond n is cut with its exact mass (3/4)^n, at most 2^-32, so each entry lies within it (as a loop of
    trials, one per draw, 32 draws would have left (3/4)^32, about 1e-4)."""
    def clamped(x, rng):
        return min(rng.geometric(Fraction(1, 4)), 3)

    e = enumerate_channel(clamped, [0], max_depth=32, allow_unexplored=True)
    lost = e.unexplored[0]
    n = round(math.log(lost) / math.log(0.75))
    assert lost == Fraction(3, 4) ** n and lost <= Fraction(1, 2**32)
    got = dict(zip(e.outputs, e.rows[0]))
    for y, p in ((1, Fraction(1, 4)), (2, Fraction(3, 16))):
        assert got[output_key(y)] == p
    assert got[output_key(3)] <= Fraction(9, 16) <= got[output_key(3)] + lost


def test_a_float_inside_a_repeating_loop_is_solved_with_its_rounding_compounded():
    """A rejection loop whose weights are floats: return x with u < 0.3, else 1 - x with u' < 0.5, else again.
    The chain is solved exactly at the floats' binary values, P(x) = t / (1 - (1 - t) h) with t, h the binary
    values of 0.3 and 0.5 (by hand), on the exact white-box route (no longer depth-bounded); the rounding reported
    covers the rounds compounded (about 1 / (1 - 0.35) rounds of 2^-42)."""
    def loop(x, rng):
        while True:
            if rng.random() < 0.3:
                return x
            if rng.random() < 0.5:
                return 1 - x

    e = enumerate_channel(loop, [0, 1])
    t, h = Fraction(0.3), Fraction(0.5)
    assert e.complete and dict(zip(e.outputs, e.rows[0]))[output_key(0)] == t / (1 - (1 - t) * h)
    assert 2.0**-42 < e.rounding < 1e-10
    report = audit(loop, domain=[0, 1], eps="ln(3)")  # P(x) / P(1 - x) = 0.3 / 0.35, far within ln 3
    assert report.route == "white-box" and report.verdict == "consistent"


# Unclamped: x + Z for every integer Z (issue 42, item 4).  eps_d = |x - x'| max = 3 on 0..3 at scale 1, by hand
# (P(y | x) / P(y | x') = e^(|y - x'| - |y - x|) <= e^|x - x'|, attained for y <= 0), and 6 at s = 2.

def _unclamped(s):
    def shifted(x):
        return x + discrete_laplace(s, 1, random)
    return shifted


def test_an_unclamped_sampler_with_a_wrong_scale_is_violated_on_the_white_box_route():
    """s = 2: eps_d = 6 by hand, against a claim of 3.15: the first level's lower end (the explored outputs) is
    enough, white-box."""
    bad = audit(_unclamped(2), domain=[0, 1, 2, 3], eps=3.15)
    assert bad.verdict == "violated" and bad.route == "white-box (depth-bounded)"
    assert 3.15 < _nats(bad.eps_d_lower) <= 6


@pytest.mark.slow  # two levels of the loop, then sampling (about 20 s of CPU)
def test_an_unclamped_correct_sampler_is_sampled_saying_why():
    """s = 1: eps_d = 3 by hand, claimed 3.15.  No upper end can come from the white-box route (outputs not
    declared: the unexplored mass may reach any integer), and the lower end stalls below the claim, so deepening
    stops and the audit samples, saying so; the claim holds on sampling (which only bounds eps_d from below)."""
    ok = audit(_unclamped(1), domain=[0, 1, 2, 3], eps=3.15, samples=20_000)
    assert ok.verdict == "consistent" and ok.route == "black-box"
    assert "no upper end" in ok.route_reason and ok.white_box_interval["upper"] is None
    assert _nats(ok.white_box_interval["lower"]) <= 3


@pytest.mark.slow  # several levels of the loop (about 20 s of CPU)
def test_an_unclamped_sampler_claimed_just_below_its_eps_d_is_still_violated():
    """s = 1, eps_d = 3 by hand, claimed 2.9999: the lower end rises towards 3 level by level (by more than a
    quarter of what it lacks), so deepening goes on until it exceeds the claim, white-box."""
    bad = audit(_unclamped(1), domain=[0, 1, 2, 3], eps=2.9999, seconds=600)
    assert bad.verdict == "violated" and bad.route == "white-box (depth-bounded)"
    assert 2.9999 < _nats(bad.eps_d_lower) <= 3


_TAILS = '''
import random

def tails(x):
    """Fair coin flips counted until heads: input 0 answers 0 when the first flip is heads, input 1 when 36
    tails came first; P(0 | 0) = 1/2, P(0 | 1) = 2^-36."""
    n = 0
    while random.randrange(2):
        n += 1
    return int(n != 0) if x == 0 else int(n < 36)
'''


def test_a_deeper_level_decides_on_the_input_that_held_the_interval(tmp_path):
    """eps_d = ln(P(0 | 0) / P(0 | 1)) = 35 ln 2 (24.26), by hand.  Cut at 32 draws, input 1's unexplored mass
    2^-32 bounds P(0 | 1) by 2^-32 only: lower end 31 ln 2 (21.49), below the claim 23.  The second level enumerates
    input 1 first (x' of the lower end's witness) to 40 draws, and with input 0's row of the first level the
    lower end (about 24.2) exceeds 23: violated without input 0 enumerated again, the reason saying so.  In this
    process (audit) and as a target (audit_target, a worker)."""
    from relations.audit._runner import audit_target

    namespace: dict = {}
    exec(compile(_TAILS, "<tails>", "exec"), namespace)
    path = tmp_path / "tails.py"
    path.write_text(_TAILS)
    for report in (audit(namespace["tails"], domain=[0, 1], eps=23, seconds=600),
                   audit_target(f"{path}:tails", domain=[0, 1], eps="23", workers=1)):
        assert report.verdict == "violated" and report.route == "white-box (depth-bounded)"
        assert "more than 32 draws not followed (40 for input #1)" in report.route_reason
        low = report.eps_d_lower.split()[0]  # ln(q), q exact: at most the true ratio 2^35
        assert low.startswith("ln(") and math.exp(23) < Fraction(low[3:-1]) <= 2**35
