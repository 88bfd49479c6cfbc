"""``eps_delta(delta)`` of a composition beyond the loss lattice: a certified enclosure (issue 45).

Every enclosure is checked to contain a value computed independently: the exact lattice route
(``ln`` of an exact rational, where both apply, ``max_support=1`` forcing the enclosure), or the
``m^k`` output sequences spelt out in Fractions and solved by the one-use hockey-stick code.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from fractions import Fraction as F

import pytest
from conftest import run_cli

from relations import Mechanism
from relations.checking import check_composition
from relations.measures._composition import composed_delta, composed_eps_delta, composed_notion
from relations.measures._inverse import least_eps
from relations.measures._profile import hockey_stick_time
from relations.numbers import LogRatio
from relations.numbers._enclosure import ball, interval, working_precision
from relations.numbers._reals import Log, Rational, compare


def krr(k: int, r: F) -> Mechanism:
    d = r + k - 1
    return Mechanism.local([[r / d if i == j else 1 / d for j in range(k)] for i in range(k)])


def random_mechanism(seed: int, n: int, m: int, zeros: bool = False) -> Mechanism:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        w = [rng.randint(0 if zeros else 1, 9) for _ in range(m)]
        if not any(w):
            w[0] = 1
        out.append([F(a, sum(w)) for a in w])
    return Mechanism.local(out)


def ln(t: F) -> tuple[F, F]:
    """A 200-bit enclosure of ``ln t``."""
    with working_precision(200):
        return interval(ball(t).log())


def contains(result, t: F, relative: F = F(1, 10**9)) -> None:
    """The enclosure holds ``ln t`` and is at most ``relative`` wide (relative to its upper end)."""
    lo, hi = result.value.enclose(10)
    a, b = ln(t)
    assert lo <= a and b <= hi, (float(lo), float(a), float(hi))
    assert hi - lo <= relative * hi, float(hi - lo)
    assert "width" in str(result.value) and "certified enclosure" in result.detail


def brute_t(mech: Mechanism, k: int, level: F) -> F | None:
    """``e^eps_delta(level)`` of ``k`` uses: every ordered pair's ``m^k`` output sequences spelt out."""
    q = mech.channel.exact
    best = F(1)
    for x, xp in itertools.permutations(range(len(q)), 2):
        p, r = [], []
        for seq in itertools.product(range(len(q[0])), repeat=k):
            p.append(math.prod((q[x][y] for y in seq), start=F(1)))
            r.append(math.prod((q[xp][y] for y in seq), start=F(1)))
        t = hockey_stick_time(p, r, level)
        if t is None:
            return None
        best = max(best, t)
    return best


@pytest.mark.parametrize("k,uses,level", [(4, 20, F(1, 10)), (4, 20, F(1, 1000)), (3, 60, F(1, 10**5)),
                                          (2, 7, F(1, 3))])
def test_krr_enclosure_holds_the_exact_lattice_value(k, uses, level):
    comp = krr(k, F(3, 2)).repeated(uses)
    exact = composed_eps_delta(comp, level)
    assert isinstance(exact.value, Log) and exact.value.log.ratio is not None
    contains(composed_eps_delta(comp, level, max_support=1), exact.value.log.ratio)


@pytest.mark.parametrize("seed,n,m,k,level,zeros", [(1, 3, 3, 4, F(1, 10), False), (2, 3, 3, 4, F(1, 100), True),
                                                     (3, 2, 4, 3, F(1, 20), False), (4, 4, 2, 6, F(1, 50), False)])
def test_enclosure_holds_the_brute_force_expansion(seed, n, m, k, level, zeros):
    mech = random_mechanism(seed, n, m, zeros)
    t = brute_t(mech, k, level)
    got = composed_eps_delta(mech.repeated(k), level, max_support=1)
    if t is None:
        assert got.value.infinite > 0
        return
    contains(got, t)


def test_buckets_alone_state_a_wider_enclosure_that_holds_the_value():
    """Without the split route the bracket is as narrow as the buckets' enclosures allow: wider, still holding
    the exact value, its width stated."""
    comp = krr(4, F(3, 2)).repeated(20)
    exact = composed_eps_delta(comp, F(1, 100)).value
    got = composed_eps_delta(comp, F(1, 100), max_support=1, max_split=0, max_bins=1 << 12, max_evaluations=12)
    lo, hi = got.value.enclose(10)
    a, b = ln(exact.log.ratio)
    assert lo <= a and b <= hi and hi - lo < F(1, 10)
    assert "bucketed" in str(got.value)


@pytest.mark.parametrize("third,exact_wins", [([F(5, 10), F(4, 10), F(1, 10)], True),
                                               ([F(2, 7), F(3, 7), F(2, 7)], False)])
def test_exact_and_enclosed_pairs_together(third, exact_wins):
    """Pair (0, 1) has ratios 2, 1/2, 1 (a lattice of 25 points, exact under ``max_support=40``); the pairs with
    row 2 are beyond it.  When pair (0, 1) attains the maximum it stays exact (every other pair proved at most
    delta at ``ln t``), else the enclosure holds the value computed with every pair exact."""
    mech = Mechanism.local([[F(6, 10), F(3, 10), F(1, 10)], [F(3, 10), F(6, 10), F(1, 10)], third])
    for level in (F(1, 10), F(1, 1000)):
        exact = composed_eps_delta(mech.repeated(12), level)
        got = composed_eps_delta(mech.repeated(12), level, max_support=40)
        assert isinstance(exact.value, Log) and exact.value.log.ratio is not None
        assert ((exact.witness.x, exact.witness.x_prime) == (0, 1)) == exact_wins
        if exact_wins:
            assert isinstance(got.value, Log) and got.value.log.ratio == exact.value.log.ratio
            assert got.witness == exact.witness
        else:
            contains(got, exact.value.log.ratio)


def test_infinite_and_zero_levels():
    mech = Mechanism.local([[F(1, 2), F(1, 2), F(0)], [F(1, 4), F(1, 4), F(1, 2)]])
    comp = mech.repeated(9)
    # the mass of the outcomes with an infinite loss, 1 - (1/2)^9 for the pair (1, 0), exceeds 1/2
    assert composed_eps_delta(comp, F(1, 2), max_support=1).value.infinite > 0
    # delta = 0: eps_d of the composition, 9 ln 2 for the pair (0, 1) ... and inf for (1, 0)
    assert composed_eps_delta(comp, F(0), max_support=1).value.infinite > 0
    rr = krr(3, F(2)).repeated(5)
    zero = composed_eps_delta(rr, F(0), max_support=1)
    assert compare(zero.value, Log(LogRatio.of(F(2) ** 5))) == 0


def test_least_eps_with_wide_enclosures():
    """``delta(x) = e^-x`` enclosed only to a relative ``1e-3``: the bracket stops where the enclosures stop
    deciding (about ``1e-3`` wide), still holding the root, within the evaluations allowed."""
    def evaluate(x):
        d = F(math.exp(-x))
        return d * (1 - F(1, 1000)), d * (1 + F(1, 1000))

    b = least_eps(evaluate, F(1, 10), lo=F(0), hi=F(10), max_evaluations=30)
    root = F(math.log(10))
    assert b.lo < root - F(1, 10**12) and root + F(1, 10**12) < b.hi
    assert b.width < F(1, 100) and b.evaluations <= 30


def eight_by_eight() -> Mechanism:
    rng = random.Random(1)
    out = []
    for _ in range(8):
        w = [rng.randint(1, 100) for _ in range(8)]
        out.append([F(a, sum(w)) for a in w])
    return Mechanism.local(out)


def test_composition_theorems_decided_beyond_the_lattice():
    """The five eps_delta theorems on 30 uses of a random 8 x 8 mechanism: decided (not `undecided`), their
    conclusion the enclosure, each compared with its bound by the enclosure's ends."""
    comp = eight_by_eight().repeated(30)
    out = [o for o in check_composition(comp) if o.relation.conclusion.startswith("eps_delta")]
    assert len(out) == 5
    conclusion = composed_notion(comp, "eps_delta(1/100000)").value
    lo, hi = conclusion.enclose(10)
    for o in out:
        assert str(o.status) in ("holds", "fails"), o.note
        b_lo, b_hi = o.bound.enclose(60)
        assert (hi <= b_lo) if o.holds else (b_hi < lo)


def test_cli_measure_and_check_state_the_enclosure(tmp_path):
    mech = eight_by_eight()
    path = tmp_path / "r8.json"
    path.write_text(json.dumps({"setting": "local", "prior": "uniform", "repeat": 30,
                                "channel": [[str(v) for v in row] for row in mech.channel.exact]}))
    proc = run_cli("measure", str(path), "--notion", "eps_delta(1/100000)", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    row = next(r for r in data["notions"] if r["name"] == "eps_delta(1/100000)")
    lo, hi = (F(x) for x in row["enclosure"])
    assert lo < hi and hi - lo <= F(1, 10**9) * hi
    assert "count vectors split in halves" in row["detail"] and "width" in row["detail"]
    assert all(r["name"] != "eps_delta(1/100000)" for r in data["left_out"])
    proc = run_cli("check", str(path), "--json")
    assert proc.returncode in (0, 1), proc.stderr
    assert "the conclusion is not computed" not in proc.stdout


@pytest.mark.slow
def test_random_eight_by_eight_hundred_uses_check(tmp_path):
    """The issue's case: ``relations check`` on 100 uses of the random 8 x 8 decides all six composition
    theorems; the eps_delta enclosure is at most 1e-9 relative and meets the pair's bracket by the buckets alone
    (an independent route, wider): both hold the value."""
    mech = eight_by_eight()
    path = tmp_path / "r8.json"
    path.write_text(json.dumps({"setting": "local", "prior": "uniform", "repeat": 100,
                                "channel": [[str(v) for v in row] for row in mech.channel.exact]}))
    proc = run_cli("check", str(path), "--json", timeout=600)
    assert proc.returncode in (0, 1), proc.stderr
    items = json.loads(proc.stdout)["composition_relations"]
    assert len(items) == 6 and all(i["status"] in ("holds", "fails") for i in items), [i["note"] for i in items]
    got = composed_eps_delta(mech.repeated(100), F(1, 10**5))
    lo, hi = got.value.enclose(10)
    assert hi - lo <= F(1, 10**9) * hi
    pair = [(mech.channel.exact[got.witness.x], mech.channel.exact[got.witness.x_prime], 100)]
    from relations.measures._composition import bucketed_delta

    def buckets(x):
        return bucketed_delta(pair, x, exp=True, bins=1 << 14, max_bins=1 << 14)

    wide = least_eps(buckets, F(1, 10**5), lo=F(0), hi=F(500), relative=F(1, 10**6), max_evaluations=30)
    assert max(lo, wide.lo) <= min(hi, wide.hi) and wide.width > hi - lo  # both hold the value


def test_levels_at_least_delta_zero_give_zero_exactly():
    """``delta >= delta(0)`` (the total variation, exact by the lattice route here): ``eps_delta = 0`` exactly,
    also beyond the lattice (the bracket's start evaluated first), as ``ln 1`` by the exact route."""
    comp = krr(4, F(3, 2)).repeated(20)
    tv = composed_delta(comp, F(0)).value
    assert isinstance(tv, Rational)
    for level in (F(1), tv.value + F(1, 100)):
        assert compare(composed_eps_delta(comp, level).value, Rational(F(0))) == 0
        got = composed_eps_delta(comp, level, max_support=1)
        assert isinstance(got.value, Rational) and got.value.value == 0
    below = composed_eps_delta(comp, tv.value - F(1, 100), max_support=1).value
    assert below.enclose(10)[0] > 0


def test_composition_of_different_parts_by_buckets():
    """Two different mechanisms (no split route: a composition of parts): the bracket by buckets' enclosures
    holds the exact lattice value, its width stated."""
    from relations import compose

    comp = compose(random_mechanism(11, 3, 3), random_mechanism(12, 3, 3), counts=[5, 4])
    exact = composed_eps_delta(comp, F(1, 100))
    assert isinstance(exact.value, Log) and exact.value.log.ratio is not None
    got = composed_eps_delta(comp, F(1, 100), max_support=1, max_bins=1 << 14, max_evaluations=20)
    lo, hi = got.value.enclose(10)
    a, b = ln(exact.value.log.ratio)
    assert lo <= a and b <= hi and hi - lo < F(1, 10)
    assert "bucketed" in str(got.value) and "width" in got.detail
