"""The closed world of the white-box route (issue: an audit never claims an exactness it has not earned).

Every random source a randomizer can reach is enumerated, run for real when seeded, or blocked; the
channels below are derived by hand: randomized response keeping the truth with probability 3/4 has
rows (3/4, 1/4), (1/4, 3/4); any seeded generator makes the randomizer a deterministic function, whose
rows are point masses (eps_d infinite).
"""

from __future__ import annotations

import functools
import math
import os
import random
import re
import secrets
import subprocess
import sys
import textwrap
import uuid
from fractions import Fraction

import numpy as np
import pytest
from conftest import run_cli

from relations.audit import audit
from relations.audit._exact import enumerate_channel
from relations.audit._intercept import HiddenEntropy

RR = [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]
POINT = [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]


def _rows(fn):
    return enumerate_channel(fn, [0, 1], pass_rng=False).rows


def _keep(u, x):
    return x if u < 0.75 else 1 - x


SEEDED = {
    "default_rng(2024)": lambda x: _keep(np.random.default_rng(2024).random(), x),
    "random.Random(2024)": lambda x: _keep(random.Random(2024).random(), x),
    "np.random.seed(2024)": lambda x: (np.random.seed(2024), _keep(np.random.random(), x))[1],
    "random.seed(2024)": lambda x: (random.seed(2024), _keep(random.random(), x))[1],
    "RandomState(7)": lambda x: _keep(np.random.RandomState(7).random_sample(), x),
    "Generator(PCG64(5))": lambda x: _keep(np.random.Generator(np.random.PCG64(5)).random(), x),
    "default_rng(SeedSequence(9))": lambda x: _keep(np.random.default_rng(np.random.SeedSequence(9)).random(), x),
}


@pytest.mark.parametrize("name", SEEDED)
def test_a_seeded_generator_is_the_deterministic_function_it_is(name):
    rows = _rows(SEEDED[name])
    assert all(sorted(r) == [0, 1] for r in rows), rows  # point masses: each input gives one output
    report = audit(SEEDED[name], domain=[0, 1], eps="1")
    assert report.verdict == "violated" and report.measures.eps_d.value == float("inf")


UNSEEDED = {
    "default_rng()": lambda x: _keep(np.random.default_rng().random(), x),
    "random.Random()": lambda x: _keep(random.Random().random(), x),
    "np.random.random": lambda x: _keep(np.random.random(), x),
    "random.random": lambda x: _keep(random.random(), x),
    "RandomState()": lambda x: _keep(np.random.RandomState().random_sample(), x),
    "Generator(PCG64())": lambda x: _keep(np.random.Generator(np.random.PCG64()).random(), x),
    "Generator(MT19937())": lambda x: _keep(np.random.Generator(np.random.MT19937()).random(), x),
    "default_rng(SeedSequence())": lambda x: _keep(np.random.default_rng(np.random.SeedSequence()).random(), x),
    "random.seed(None)": lambda x: (random.seed(None), _keep(random.random(), x))[1],
}


@pytest.mark.parametrize("name", UNSEEDED)
def test_an_unseeded_generator_is_enumerated(name):
    assert _rows(UNSEEDED[name]) == RR


_SYSTEM = random.SystemRandom()  # made before the run: its draws are enumerated too

ENTROPY = {  # operating-system entropy small enough to enumerate: each keeps the truth with probability 3/4
    "os.urandom": lambda x: x if os.urandom(1)[0] < 192 else 1 - x,  # 192 of 256 bytes
    "os.urandom(2)": lambda x: x if int.from_bytes(os.urandom(2), "big") < 3 * 2**14 else 1 - x,
    "secrets.randbelow": lambda x: x if secrets.randbelow(4) < 3 else 1 - x,
    "secrets.randbits": lambda x: x if secrets.randbits(2) < 3 else 1 - x,
    "secrets.choice": lambda x: secrets.choice([x, x, x, 1 - x]),
    "secrets.token_bytes": lambda x: x if secrets.token_bytes(1)[0] < 192 else 1 - x,
    "secrets.token_hex": lambda x: x if int(secrets.token_hex(1), 16) < 192 else 1 - x,
    "random.SystemRandom": lambda x: _keep(random.SystemRandom().random(), x),
    "a SystemRandom made before the run": lambda x: x if _SYSTEM.randint(0, 3) < 3 else 1 - x,
    "SystemRandom.randbytes": lambda x: x if _SYSTEM.randbytes(1)[0] < 192 else 1 - x,
}


@pytest.mark.parametrize("name", ENTROPY)
def test_operating_system_entropy_is_enumerated_when_finite(name):
    assert _rows(ENTROPY[name]) == RR


BLOCKED = {  # more outcomes than the route enumerates: blocked, the call named
    "uuid.uuid4": lambda x: x if uuid.uuid4().int % 4 < 3 else 1 - x,
    "os.urandom(8)": lambda x: x if os.urandom(8)[0] < 192 else 1 - x,
    "secrets.token_hex(32)": lambda x: x if int(secrets.token_hex(), 16) % 4 < 3 else 1 - x,
    "secrets.randbelow(1000000)": lambda x: x if secrets.randbelow(10**6) < 750_000 else 1 - x,
    "secrets.randbits(64)": lambda x: x if secrets.randbits(64) % 4 < 3 else 1 - x,
    "random.SystemRandom.getrandbits(64)": lambda x: x if _SYSTEM.getrandbits(64) % 4 < 3 else 1 - x,
}


@pytest.mark.parametrize("name", BLOCKED)
def test_operating_system_entropy_beyond_the_limits_is_blocked_and_named(name):
    with pytest.raises(HiddenEntropy, match=re.escape(name)):
        _rows(BLOCKED[name])


def test_a_blocked_source_is_named_even_when_the_code_catches_the_error():
    def careful(x):
        try:
            return x if uuid.uuid4().int % 4 < 3 else 1 - x
        except Exception:
            return x  # a fallback that would look deterministic

    with pytest.raises(HiddenEntropy, match="uuid.uuid4"):
        _rows(careful)


def test_modulo_bias_on_os_entropy_is_violated_exactly():
    """3-RR at eps = ln 4 (the truth with probability 2/3, each other value 1/6) from one byte of os.urandom,
    with modulo bias.  By hand: 256 = 3 * 85 + 1, so ``b % 3 < 2`` for 86 + 85 = 171 bytes (the truth,
    171/256); the other 85 bytes are b = 3j + 2, j = 0..84, which pick x + 1 for the 43 even j and x + 2 for
    the 42 odd j.  So eps_d = ln((171/256) / (42/256)) = ln(57/14), above the claim ln 4 by ln(57/56), about
    0.0177 nats; sampling 10^5 runs per input would not see it."""
    def krr(x):
        b = os.urandom(1)[0]
        if b % 3 < 2:
            return x
        return (x + 1 + (b // 3) % 2) % 3

    truth, next_one, last = Fraction(171, 256), Fraction(43, 256), Fraction(42, 256)
    assert truth + next_one + last == 1
    channel = enumerate_channel(krr, [0, 1, 2], pass_rng=False)
    rows, keys = channel.rows, channel.outputs
    for x, row in enumerate(rows):
        by_output = dict(zip(keys, row))
        assert by_output == {x: truth, (x + 1) % 3: next_one, (x + 2) % 3: last}
    report = audit(krr, domain=[0, 1, 2], eps="ln(4)")
    assert report.route == "white-box" and report.verdict == "violated"
    assert report.measures.eps_d.exact.ratio == truth / last == Fraction(57, 14)
    assert math.isclose(math.log(Fraction(57, 56)), 0.01770, abs_tol=1e-5)


def test_hidden_randomness_is_sampled_and_said_not_repeatable():
    """A correct randomized response on 64 bits of secrets (true eps_d = ln 3, 2^64 divisible by 4): sampled,
    never "violated exactly"."""
    def rr(x):
        return x if secrets.randbits(64) % 4 < 3 else 1 - x

    report = audit(rr, domain=[0, 1], eps="ln(3)", samples=20_000, seed=1)
    assert report.route == "black-box" and report.verdict == "consistent"
    assert "secrets.randbits(64)" in report.route_reason and not report.repeatable
    assert "will not repeat" in report.summary()


def test_outputs_that_never_repeat_are_inconclusive():
    """A report carrying a fresh hash seed (as OLH does): no output repeats, so nothing is certified."""
    counter = iter(range(10**9))

    def hashed(x, rng):
        seed = next(counter)  # a fresh seed per report, from state the audit does not see
        return (seed, (x + int(rng.integers(0, 2))) % 2)

    report = audit(hashed, domain=[0, 1], eps="ln(3)", samples=5_000, seed=0)
    assert report.verdict == "inconclusive" and report.sampled.repeated_share() == 0.0


@pytest.fixture
def target_file(tmp_path):
    def write(body: str) -> str:
        path = tmp_path / "target.py"
        path.write_text(textwrap.dedent(body))
        return f"{path}:rr"
    return write


def _cli(*args: str) -> subprocess.CompletedProcess:
    return run_cli(*args)  # in this process (tests/conftest.py): the audit's own workers are processes still


def test_cli_samples_by_default_and_says_why(target_file):
    target = target_file("""
        import secrets
        def rr(x):
            return x if secrets.randbits(64) % 4 < 3 else 1 - x
    """)
    out = _cli("audit", target, "--domain", "0,1", "--eps", "ln(3)", "--samples", "20000", "--workers", "0")
    assert out.returncode == 0, out.stderr
    assert "black-box" in out.stdout and "why not exact: " in out.stdout and "secrets.randbits" in out.stdout
    refused = _cli("audit", target, "--domain", "0,1", "--eps", "ln(3)", "--exact-only", "--workers", "0")
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1


def test_cli_inconclusive_exits_3(target_file):
    target = target_file("""
        import itertools
        _fresh = itertools.count()
        def rr(x, rng):
            return (next(_fresh), x)
    """)
    out = _cli("audit", target, "--domain", "0,1", "--eps", "ln(3)", "--samples", "3000", "--workers", "0",
               "--black-box", "--json")
    assert out.returncode == 3, out.stderr
    import json

    data = json.loads(out.stdout)
    assert data["verdict"] == "inconclusive" and data["repeated_share"] == 0.0 and data["route_reason"]


def test_cli_seeded_generator_is_violated_exactly(target_file):
    target = target_file("""
        import numpy as np
        def rr(x):
            rng = np.random.default_rng(2024)
            return x if rng.random() < 0.75 else 1 - x
    """)
    out = _cli("audit", target, "--domain", "0,1", "--eps", "1", "--workers", "1")
    assert out.returncode == 1, out.stderr
    assert "violated" in out.stdout and "white-box" in out.stdout


def _retry_krr(x, rng):
    """4-RR written as rejection sampling of "another value": truth with probability 1/2, each other value
    with 1/6, so eps_d = ln 3 (derived by hand)."""
    if rng.random() < 0.5:
        return x
    while True:
        y = int(rng.integers(0, 4))
        if y != x:
            return y


def _counted_retry(x, rng):
    """The same loop counting its tries: its state never repeats, so it is followed to a depth only."""
    if rng.random() < 0.5:
        return x
    tries = 0
    while True:
        tries += 1
        y = int(rng.integers(0, 4))
        if y != x:
            return y


def _leaky_retry(x, rng):
    """The same loop, but the truth is kept with probability 0.9: eps_d = ln(0.9 / (0.1/3)) = ln 27."""
    if rng.random() < 0.9:
        return x
    while True:
        y = int(rng.integers(0, 4))
        if y != x:
            return y


def test_a_loop_on_draws_never_hangs_nor_claims_exactness():
    """Without recording states (loops=False), the rejection loop is cut at its depth: a certified lower bound
    only."""
    from relations.audit._exact import Unexplored

    with pytest.raises(Unexplored) as info:
        enumerate_channel(_retry_krr, [0, 1, 2, 3], loops=False)
    e = info.value.enumerated
    assert 0 < max(e.unexplored) < Fraction(1, 2**100)
    q, _ = e.eps_d_lower()
    assert Fraction(3) - Fraction(1, 10**20) < q <= 3  # certified below the true ln 3, and close to it


def test_a_rejection_loop_whose_state_repeats_is_exact():
    """The loop's state repeats (the same draw, x, and the rejected y = x): the Markov chain is solved exactly,
    P(y) = (1/2)(1/4) / (1 - 1/4) = 1/6 for each other value (by hand), so eps_d = ln 3 exactly."""
    e = enumerate_channel(_retry_krr, [0, 1, 2, 3])
    row = dict(zip(e.outputs, e.rows[0]))
    assert row == {0: Fraction(1, 2), 1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 6)}
    assert e.complete and e.runs < 2000


def test_a_for_loop_is_never_mistaken_for_a_repeated_state():
    """Three tries of a fair coin in a for loop over equal items: the locals repeat but the loop's iterator
    (on the operand stack) does not, so no state is cut: P(1) = 7/8 (by hand), not 1."""
    def tries(x, rng):
        for _ in [0, 0, 0]:
            if rng.random() < Fraction(1, 2):
                return 1
        return 0

    def counted(x, rng):
        n = 0
        while rng.random() < Fraction(1, 2):
            n += 1
            if n == 3:
                return 1
        return 0
    assert enumerate_channel(tries, [0]).rows == [[Fraction(7, 8), Fraction(1, 8)]]
    assert enumerate_channel(counted, [0]).rows == [[Fraction(1, 8), Fraction(7, 8)]]


def test_a_loop_with_a_violation_is_violated_on_its_certified_lower_bound():
    report = audit(_leaky_retry, domain=[0, 1, 2, 3], eps="ln(3)")  # its state repeats: exact, ln 27
    assert report.verdict == "violated" and report.route == "white-box"
    assert abs(report.measures.eps_d.value - math.log(27)) < 1e-12  # the binary values of 0.9 and 0.1 / 3

    def leaky_counted(x, rng):  # the same, counting its tries: depth-bounded, on its certified lower bound
        if rng.random() < 0.9:
            return x
        tries = 0
        while True:
            tries += 1
            y = int(rng.integers(0, 4))
            if y != x:
                return y
    report = audit(leaky_counted, domain=[0, 1, 2, 3], eps="ln(3)")
    assert report.verdict == "violated" and report.route == "white-box (depth-bounded)"
    assert "unexplored mass" in report.route_reason and ">=" in report.summary()


def test_a_correct_rejection_loop_is_exact():
    report = audit(_retry_krr, domain=[0, 1, 2, 3], eps="ln(3)")
    assert report.route == "white-box" and report.verdict == "consistent"
    assert str(report.measures.eps_d.exact) == "ln(3)"


def test_a_loop_is_followed_deeper_while_its_bound_decides_nothing():
    """A leak after 200 tails (probability 2^-200): cut at 128 draws the bound decides nothing; one doubling
    (256) reaches every path's end, so the channel is exact, and its eps_d infinite (the output ("leak", 0)
    is impossible for the input 1)."""
    def late_leak(x, rng):
        n = 0
        while rng.random() < 0.5:
            n += 1
            if n > 200:
                return ("leak", x)
        return min(n, 3)

    report = audit(late_leak, domain=[0, 1], eps="1")
    assert report.route == "white-box" and report.verdict == "violated"
    assert report.measures.eps_d.value == float("inf")


def test_deepening_is_decided_by_a_count_of_work():
    """The quick version of the test below: the next level goes deeper while its predicted work (paths times
    depth) stays within DEEPENING_WORK, whatever the clock; the paths are predicted from their growth between the
    last two levels (by hand: 1000 paths at 32 draws and 2000 at 40 double every 8 draws, so 80 draws would take
    2^5 * 2000 paths, 60 draws about 2^2.5 * 2000 and 50 draws 2^1.25 * 2000)."""
    from relations.audit._enumerate import DEEPENING_WORK, next_depth

    assert next_depth(32, 1000) == 40  # the growth is not known yet: a quarter deeper
    assert next_depth(40, 1000, (32, 1000)) == 80  # no growth: twice the depth
    assert 2000 * 2**5 * 80 > DEEPENING_WORK >= 2000 * 2**2.5 * 60
    assert next_depth(40, 2000, (32, 1000)) == 60  # 80 draws: too many paths
    fast = DEEPENING_WORK / (50 * 2 ** (10 / 8))  # paths at 40 draws for which 50 draws is just within the work
    assert next_depth(40, int(0.99 * fast), (32, int(0.99 * fast) // 2)) == 50
    assert next_depth(40, int(fast) * 2, (32, int(fast))) is None
    assert next_depth(1024, 1, (512, 1)) is None and next_depth(640, 1, (320, 1)) == 1024


@pytest.mark.slow  # enumerates the rejection loop at every depth, then audits it (about 25 s)
def test_deepening_is_bounded_by_work_not_the_clock():
    """Levels of FIRST_DEPTH draws, then deeper (next_depth) while the next level's predicted work stays within
    DEEPENING_WORK: a count, so the audit stops at the same depth on any machine, and says which."""
    from relations.audit._enumerate import FIRST_DEPTH, next_depth
    from relations.audit._exact import Unexplored, _stalled, mass_text

    depth, last, before = FIRST_DEPTH, None, None
    while True:
        e = enumerate_channel(_counted_retry, [0, 1, 2, 3], max_depth=depth, allow_unexplored=True)
        step = next_depth(depth, e.runs, last)
        cut = Unexplored(e, depth)
        if step is None or _stalled(cut, before, math.log(3)):  # (outputs not declared: a stalled lower end too)
            break
        depth, last, before = step, (depth, e.runs), cut
    assert depth > FIRST_DEPTH  # the rejection loop is cheap enough to be deepened
    # a partial: the outputs are not proven from its source (relations.audit._proven), so the loop stays open
    report = audit(functools.partial(_counted_retry), domain=[0, 1, 2, 3], eps="ln(3)", samples=10_000, seed=2)
    assert f"more than {depth} draws" in report.route_reason
    assert f"up to {mass_text(max(e.unexplored))} per input" in report.route_reason
    interval = report.white_box_interval  # the certified interval the explored paths give, in the JSON too
    assert interval["depth"] == depth and interval["upper"] is None and float(interval["lower"]) <= math.log(3)


def test_a_geometric_shift_is_violated_on_its_support():
    """x + a geometric count of coin flips: output 0 is impossible for x = 1 (true eps_d infinite); the
    unexplored mass of x = 1 (2^-d at the first depth d, FIRST_DEPTH) could in principle reach output 0, so the
    certified bound is ln((1/2) / 2^-d) = (d - 1) ln 2 (21.5 nats at d = 32), which already exceeds the claim."""
    from relations.audit._enumerate import FIRST_DEPTH

    def shifted(x, rng):
        n = 0
        while rng.random() < 0.5:
            n += 1
        return x + n

    report = audit(shifted, domain=[0, 1], eps="5")
    text = report.eps_d_lower.split()[0]
    value = math.log(int(text[3:-1])) if text.startswith("ln(") else float(text)
    assert report.verdict == "violated" and value >= (FIRST_DEPTH - 1) * math.log(2) - 1e-9


def test_numpy_scalars_compare_with_draws_on_either_side():
    def left(x, rng):
        return x if np.float64(0.75) > rng.random() else 1 - x

    def right(x, rng):
        return x if rng.random() < np.float64(0.75) else 1 - x

    def ufunc(x, rng):
        return x if np.less(rng.random(), 0.75) else 1 - x

    for fn in (left, right, ufunc):
        assert enumerate_channel(fn, [0, 1]).rows == RR, fn.__name__
    from relations.audit._enumerate import NotEnumerable

    with pytest.raises(NotEnumerable, match="log"):
        enumerate_channel(lambda x, rng: x if np.log(rng.random()) < -1 else 1 - x, [0, 1])


def test_geometric_is_a_loop_of_trials():
    """rng.geometric(1/2): P(k) = 2^-k; x + G shifts the support, so output 1 is impossible for x = 1."""
    e = enumerate_channel(lambda x, rng: x + int(rng.geometric(Fraction(1, 2))), [0, 1], allow_unexplored=True)
    row0 = dict(zip(e.outputs, e.rows[0]))
    assert row0[1] == Fraction(1, 2) and row0[2] == Fraction(1, 4) and row0[5] == Fraction(1, 32)
    assert e.unexplored[0] == Fraction(1, 2**128)  # the paths of more than 128 trials
    report = audit(lambda x, rng: x + int(rng.geometric(0.5)), domain=[0, 1], eps="1")
    assert report.verdict == "violated" and report.route == "white-box (depth-bounded)"


LAPLACE = """
    import numpy as np
    def rr(x, rng):
        return x + rng.laplace(0, SCALE)
"""


@pytest.mark.parametrize("scale, verdict", [(1.0, "consistent"), (1.0 / 3, "violated")])
def test_continuous_outputs_are_binned(target_file, scale, verdict):
    """x + Laplace(1/eps) at eps = 1 is 1-DP (never violated); with a third of the scale its eps_d is 3, and
    binning (post-processing) keeps a certified lower bound above 1."""
    import json

    target = target_file(LAPLACE.replace("SCALE", repr(scale)))
    out = _cli("audit", target, "--domain", "0,1", "--eps", "1", "--samples", "40000", "--workers", "0", "--json")
    data = json.loads(out.stdout)
    assert data["verdict"] == verdict, out.stdout
    assert out.returncode == {"consistent": 0, "violated": 1}[verdict]
    assert "binned into 16 intervals" in data["binning"] and data["repeatable"]
    assert data["eps_d_lower"] <= 1.0 + 1e-9 if verdict == "consistent" else data["eps_d_lower"] > 1.0


def test_bins_given_by_the_user(target_file):
    target = target_file(LAPLACE.replace("SCALE", "1.0 / 3"))
    out = _cli("audit", target, "--domain", "0,1", "--eps", "1", "--samples", "20000", "--workers", "0",
               "--bins", "-1,0,0.5,1,2")
    assert out.returncode == 1, out.stdout + out.stderr
    assert "6 intervals given (--bins)" in out.stdout
    bad = _cli("audit", target, "--domain", "0,1", "--bins", "x,y", "--workers", "0")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


def test_a_module_level_generator_is_said_not_repeatable(target_file):
    import json

    target = target_file("""
        import numpy as np
        _RNG = np.random.default_rng()  # built at import: invisible to the white-box route, unseeded by --seed
        def rr(x):
            return x if _RNG.random() < 0.75 else 1 - x
    """)
    out = _cli("audit", target, "--domain", "0,1", "--eps", "ln(3)", "--samples", "20000", "--workers", "0", "--json")
    data = json.loads(out.stdout)
    assert data["route"] == "black-box" and data["repeatable"] is False and "_RNG, a generator built before" in data["route_reason"]


def _krr_weights(k, eps):
    t = math.exp(eps)
    p = t / (t + k - 1)
    return p, (1 - p) / (k - 1)  # as code computes them: the complement in floats


@pytest.mark.parametrize("eps", [10, 11, 12, 15, 20])
def test_binary_rr_with_float_weights_is_never_violated_by_rounding(eps):
    """p = e^eps / (e^eps + 1) and 1 - p computed in floats (the weights given to choice): the complement's
    relative rounding grows like p / (1 - p), which the audit now carries (was: violated at eps = 10, 11, ...)."""
    p, _ = _krr_weights(2, eps)
    report = audit(lambda x, rng: rng.choice([x, 1 - x], p=[p, 1 - p]), domain=[0, 1], eps=str(eps))
    assert report.verdict == "consistent", report.summary()


# The default run: each eps, each k up to 16, and at k = 16 float weights whose sum is below 1 (eps = 1: the weights
# of input 0 summed in order give 1 - 2^-52) and above it (eps = 20: 1 + 2^-52), as at k = 64 (1 - 2.5 * 2^-52 at
# eps = 1); the whole grid with -m slow (k = 64 enumerates rng.choice over 64 weights for each of 64 inputs: about
# 7 s of CPU for [64-1], 0.7 s for [16-1]).
_KRR_GRID = [(k, eps) for eps in (1, 10, 20) for k in (2, 4, 16, 64)]
_KRR_DEFAULT = {(2, 1), (4, 10), (16, 1), (16, 20)}


@pytest.mark.parametrize(("k", "eps"), [
    pytest.param(k, eps, marks=() if (k, eps) in _KRR_DEFAULT else pytest.mark.slow) for k, eps in _KRR_GRID])
def test_krr_in_floats_is_consistent_and_an_overclaim_is_violated(k, eps):
    p, q = _krr_weights(k, eps)

    def weights(x, rng):
        return int(rng.choice(k, p=[p if y == x else q for y in range(k)]))

    def threshold(x, rng):
        if rng.random() < p:
            return x
        return [y for y in range(k) if y != x][int(rng.integers(0, k - 1))]

    for fn in (weights, threshold):
        assert audit(fn, domain=list(range(k)), eps=str(eps)).verdict == "consistent", fn.__name__
    p2, q2 = _krr_weights(k, eps + 0.01)  # claims eps, delivers eps + 0.01

    def over(x, rng):
        return int(rng.choice(k, p=[p2 if y == x else q2 for y in range(k)]))

    assert audit(over, domain=list(range(k)), eps=str(eps)).verdict == "violated"


def test_the_white_box_time_budget_ends_in_sampling_and_is_reported(target_file):
    import json

    target = target_file("""
        def rr(x, rng):
            s = 0
            for _ in range(20):  # 3^20 paths: far beyond a one-second budget
                s += int(rng.integers(0, 3))
            return (s + x) % 2
    """)
    out = _cli("audit", target, "--domain", "0,1", "--eps", "1", "--time-budget", "1", "--samples", "5000",
               "--workers", "0", "--json")
    data = json.loads(out.stdout)
    assert data["route"] == "black-box" and "time budget of 1 s" in data["route_reason"]
    assert data["budgets"] == {"max_paths": 1_000_000, "max_depth": 128, "white_box_seconds": 1.0,
                               "samples_per_input": 5000}


def test_a_deeper_depth_reaches_the_replays_too():
    """With max_depth above the default, the replays of the first path follow it as deep (they stopped at the
    default depth and escaped as an uncaught Truncated)."""
    def deep(x, rng):
        for _ in range(200):
            rng.integers(0, 1)  # one outcome: a draw that only counts toward the depth
        return x

    assert enumerate_channel(deep, [0, 1], max_depth=300).rows == POINT


def test_a_generator_built_at_import_is_hidden_even_off_the_first_path(target_file):
    """The lie of a correct k-RR comes from a module-level generator: the first path (the truth) never touches
    it, so the replays cannot see it; the state of the generator moves on a later path, which ends the exact
    route (it was "eps_d = inf, exactly").  A rare leak through the same generator is sampled and found."""
    import json

    target = target_file("""
        import numpy as np
        _rng = np.random.default_rng()

        def lie_branch(x, rng):
            if rng.random() < 0.5:
                return x
            y = int(_rng.integers(0, 3))
            return y + 1 if y >= x else y
    """)
    out = _cli("audit", target.replace(":rr", ":lie_branch"), "--domain", "0,1,2,3", "--eps", "ln(3)", "--samples",
               "20000", "--workers", "0", "--json")
    data = json.loads(out.stdout)
    assert data["route"] == "black-box" and "_rng" in data["route_reason"] and "before" in data["route_reason"]
    assert data["verdict"] == "consistent" and out.returncode == 0


def test_a_claim_failing_by_nats_is_not_excused_as_rounding():
    """Binary RR at eps = 29 in floats: 1 - p is 2291 * 2^-53, whose relative rounding under the 2^-42 model
    is about 1, so the margin would excuse nats.  The margin is capped (MAX_EXCUSED): eps_d <= 27 is violated,
    and eps = 30 (rounding radius above 1) no longer crashes."""
    import math

    from relations.model._floats import MAX_EXCUSED

    for eps, claim in ((29, 27), (30, 25)):
        p = math.exp(eps) / (1 + math.exp(eps))

        def rr(x, rng, p=p):
            return x if rng.random() < p else 1 - x

        report = audit(rr, domain=[0, 1], eps=str(claim))
        q = Fraction(p) / (1 - Fraction(p))  # the binary value's ratio, derived here
        assert report.verdict == "violated" and report.measures.eps_d.exact.ratio == q
    p = math.exp(20) / (1 + math.exp(20))
    report = audit(lambda x, rng: x if rng.random() < p else 1 - x, domain=[0, 1], eps="20")
    assert report.verdict == "consistent"  # the rounding at eps = 20 is well within the cap
    assert MAX_EXCUSED < 0.001  # an over-claim by 0.001 nats is never excused


def test_a_point_mass_is_not_hidden_by_the_bins(target_file):
    """Laplace at eps = 1 that returns the true value as a float when the noise leaves [-6, 7]: the output 1.0
    has probability (e^-6 + e^-7) / 2 (about 1.7e-3) under x = 1 and 0 under x = 0, so eps_d is infinite.  An
    equal-mass interval around 1.0 swallowed it ("consistent"); kept as an output of its own it certifies a
    violation."""
    import json

    target = target_file("""
        def rr(x, rng):
            y = x + rng.laplace(0, 1.0)
            if y < -6 or y > 7:
                return float(x)
            return y
    """)
    out = _cli("audit", target, "--domain", "0,1", "--eps", "1", "--workers", "0", "--json")
    data = json.loads(out.stdout)
    assert data["verdict"] == "violated" and out.returncode == 1 and "kept as outputs of their own" in data["binning"]
    assert data["witness"][2] in ("{0.0}", "{1.0}")


def test_nan_is_one_output():
    """NaN equals nothing, itself included: each run used to look like a new output (hidden randomness)."""
    report = audit(lambda x, rng: float("nan") if rng.random() < 0.75 else float(x), domain=[0, 1], eps="1")
    assert report.route == "white-box" and report.measures.eps_d.value == float("inf")


def test_repeatability_compares_the_runs_not_only_the_counts():
    """A randomizer with hidden state whose counts repeat exactly (an alternating output, one step skipped at
    the 500th call: 500 of each in each 1000 runs) but whose runs do not (the second probe starts on the other
    parity): not repeatable."""
    from relations.audit._blackbox import sample_audit

    state = [0]

    def alternating(x):
        state[0] += 1 if state[0] != 500 else 2
        return state[0] % 2

    assert not sample_audit(alternating, domain=[0, 1], samples=10_000).repeatable
    assert sample_audit(lambda x, rng: x if rng.random() < 0.75 else 1 - x, domain=[0, 1], samples=10_000).repeatable


def test_a_file_target_imports_its_sibling_modules(tmp_path):
    """FILE.py finds the modules next to it, as 'python FILE.py' would (its folder first on sys.path)."""
    (tmp_path / "krr_helper_mod.py").write_text(textwrap.dedent("""
        def krr(x, rng):
            if rng.random() < 0.5:
                return x
            y = int(rng.integers(0, 3))
            return y + 1 if y >= x else y
    """))
    (tmp_path / "target.py").write_text("import krr_helper_mod\n\n\ndef mech(x, rng):\n"
                                        "    return krr_helper_mod.krr(x, rng)\n")
    out = run_cli("audit", f"{tmp_path / 'target.py'}:mech", "--domain", "0,1,2,3", "--eps", "ln(3)", "--workers", "0",
                  cwd=os.path.dirname(tmp_path))  # in this process: the worker that imports the file is a process still
    assert out.returncode == 0 and "eps_d = ln(3)" in out.stdout, out.stderr  # (1/2) / (1/6) = 3, by hand


def test_a_decorated_randomizer_is_called_as_it_is_written(target_file):
    """functools.wraps copies the signature (x, rng) onto a wrapper that takes x alone and supplies its own
    generator, built when the module was imported: the audit calls the wrapper with x (it passed rng= and the
    target failed, exit 2), sees the generator in the wrapper's closure and samples."""
    import json

    target = target_file("""
        import functools

        import numpy as np

        def with_rng(f):
            gen = np.random.default_rng()

            @functools.wraps(f)
            def wrapper(x):
                return f(x, rng=gen)
            return wrapper

        @with_rng
        def rr(x, rng):
            return x if rng.random() < 0.75 else 1 - x
    """)
    out = _cli("audit", target, "--domain", "0,1", "--eps", "ln(3)", "--samples", "20000", "--workers", "0", "--json")
    data = json.loads(out.stdout)
    assert out.returncode == 0 and data["route"] == "black-box" and "closure" in data["route_reason"]


@pytest.mark.parametrize("scale,verdict", [(1.0, "consistent"), (1 / 3, "violated")])
def test_a_mixture_of_a_point_mass_and_noise_is_binned(target_file, scale, verdict):
    """60 % randomized response (ratio 3) as an int, 40 % x + Laplace(0, scale) (density ratio e^(1/scale)):
    eps_d = max(ln 3, 1/scale), by hand: ln 3 at scale 1, 3 at scale 1/3.  Most samples repeat (the RR part),
    so the continuous part was never binned and the wrong scale was consistent."""
    import json

    target = target_file(f"""
        def rr(x, rng):
            if rng.random() < 0.6:
                return x if rng.random() < 0.75 else 1 - x
            return float(x) + rng.laplace(0, {scale!r})
    """)
    out = _cli("audit", target, "--domain", "0,1", "--eps", "ln(3)", "--workers", "0", "--samples", "40000", "--json")
    data = json.loads(out.stdout)
    assert data["verdict"] == verdict and "kept as outputs of their own" in data["binning"]


def test_a_dict_output_keeps_its_order():
    """A published dict shows its keys in order: {'a': 1, 'b': 2} and {'b': 2, 'a': 1} are different outputs."""
    from relations.audit._outputs import output_key

    assert output_key({"a": 1, "b": 2}) != output_key({"b": 2, "a": 1})
    leak = audit(lambda x, rng: {"a": 1, "b": 1} if x == 0 else {"b": 1, "a": 1}, domain=[0, 1])
    assert leak.measures.eps_d.value == float("inf")  # the order alone tells the input
    fair = audit(lambda x, rng: {"a": 1, "b": 1} if rng.random() < 0.5 else {"b": 1, "a": 1}, domain=[0, 1])
    assert fair.measures.eps_d.value == 0.0  # both orders, equally likely, under both inputs


def test_a_float32_threshold_is_taken_at_its_binary_value():
    """np.float32(e^12 / (1 + e^12)) is 16777113 / 16777216: the code's channel has eps_d = ln(16777113 / 103),
    12.0008 nats, so eps_d <= 12 fails (it was sampled: 'cannot compare a uniform draw with np.float32').
    That was numpy 1, which compared in float64.  numpy 2 compares a Python float with a float32 in float32
    (NEP 50: ``u`` rounded to nearest), so there ``u < p32`` is ``u`` below the midpoint of ``p32`` and the
    float32 below it, ``p32 - 2^-25``: eps_d = ln(33554225 / 207), 11.996 nats, and eps_d <= 12 holds
    (tests/test_audit_fidelity.py checks the rounding on real numpy)."""
    p32 = np.float32(math.exp(12) / (1 + math.exp(12)))
    q = Fraction(float(p32))
    if not 0.99999998 < np.float32(1.0):  # numpy 2: 1 - 2^-26 rounds to 1.0 in float32
        q -= Fraction(1, 2**25)
    report = audit(lambda x, rng: x if rng.random() < p32 else 1 - x, domain=[0, 1], eps="12")
    assert report.measures.eps_d.exact.ratio == q / (1 - q)
    assert q / (1 - q) in (Fraction(16777113, 103), Fraction(33554225, 207))
    assert report.verdict == ("violated" if q / (1 - q) > Fraction(math.exp(12)) else "consistent")


def test_a_value_drawn_at_import_is_one_constant_of_the_mechanism(target_file):
    """A client id drawn once at import is a constant of each process: with two workers the inputs' rows came
    from processes with different ids, so no output matched ('violated, inf').  The digests of the module's
    plain globals differ, so the inputs are enumerated again in one process: eps_d = ln 3, by hand."""
    target = target_file("""
        import uuid
        CLIENT = uuid.uuid4().hex[:8]

        def rr(x, rng):
            return (CLIENT, x if rng.random() < 0.75 else 1 - x)
    """)
    out = _cli("audit", target, "--domain", "0,1", "--eps", "ln(3)", "--workers", "2")
    assert out.returncode == 0 and "eps_d = ln(3)" in out.stdout, out.stdout + out.stderr


def test_default_rng_of_the_given_generator_is_that_generator():
    """'rng = np.random.default_rng(rng)' (accept a seed or a Generator, the idiom numpy recommends) returns the
    generator it is given: the audit's, so the code is enumerated (it failed and was sampled).  k-RR, k = 3,
    keep 1/2: eps_d = ln((1/2) / (1/4)) = ln 2, by hand."""
    def krr(x, rng=None):
        rng = np.random.default_rng(rng)
        if rng.random() < 0.5:
            return x
        y = int(rng.integers(0, 2))
        return y + 1 if y >= x else y

    report = audit(krr, domain=[0, 1, 2], eps="ln(2)")
    assert report.route == "white-box" and str(report.measures.eps_d.exact) == "ln(2)"


def test_the_audit_leaves_no_bytecode_beside_the_users_code(tmp_path):
    """Auditing ``FILE.py:FUNCTION`` (and a module it imports) writes nothing into the user's folder, even where
    Python would write bytecode (``PYTHONDONTWRITEBYTECODE`` unset, as on most machines): no ``__pycache__``."""
    (tmp_path / "helper.py").write_text("P = 0.5\n")
    (tmp_path / "rr.py").write_text(textwrap.dedent("""\
        import random
        import helper

        def rr(x):
            return x if random.random() < helper.P else 1 - x
        """))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    res = subprocess.run([sys.executable, "-m", "relations.cli", "audit", f"{tmp_path / 'rr.py'}:rr",
                          "--domain", "0,1", "--eps", "1.2"], capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["helper.py", "rr.py"]


def test_sampled_keys_are_read_as_the_parser_reads_them():
    """The binning reads each sampled output's key text (relations.audit._runner.key_real); the texts of floats and
    ints are read without ast.literal_eval, and must give what it gives (the same number, sign of zero included;
    None for what is no real number; the same error for an int beyond the floats)."""
    import ast
    import struct

    from relations.audit._outputs import output_key, output_real
    from relations.audit._runner import key_real

    def parsed(key):
        try:
            return output_real(ast.literal_eval(key))
        except (ValueError, SyntaxError):
            return None
        except OverflowError:
            return OverflowError

    def read(key):
        try:
            return key_real(key)
        except OverflowError:
            return OverflowError

    rnd = random.Random(2)
    values = [struct.unpack("d", struct.pack("Q", rnd.getrandbits(64)))[0] for _ in range(3000)]
    values += [rnd.uniform(-1e6, 1e6) for _ in range(1000)] + [rnd.randint(-10**30, 10**30) for _ in range(1000)]
    values += [0.0, -0.0, 1e16, 1e22, 1e-300, 5e-324, math.inf, -math.inf, math.nan, True, None, "a", "1.5", (1, 2),
               b"x", 10**400, np.float32(0.1), np.int64(-7)]
    texts = [repr(output_key(v)) for v in values]
    texts += ["007", "00.5", "('float', 00.5)", "('float', 1_0.5)", "('float',0.5)", " 3", "\u0663", "-0",
              "('float', 1E5)", "('float', 1e400)", "('float', 1" + "0" * 400 + ")"]
    for text in texts:
        want, got = parsed(text), read(text)
        assert (got is None) == (want is None) and (got is OverflowError) == (want is OverflowError), text
        if isinstance(want, float):
            assert got == want and math.copysign(1, got) == math.copysign(1, want) or want != want and got != got
