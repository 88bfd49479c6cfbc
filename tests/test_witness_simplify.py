"""Witness simplification of product forms, and the hypothesis search's first refuting draw."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from relations import Mechanism
from relations.catalogue import get
from relations.checking._checker import evaluate
from relations.checking._quantities import values
from relations.kinds import Status
from relations.pipeline._verify import Effort
from relations.search._screening import generated, hypothesis_search
from relations.search._witnesses import _round_positive, simplify


def _fails(rel):
    return lambda m: evaluate(rel, values(m)).status == Status.FAILS


def test_round_positive_keeps_support_and_sums_to_one():
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(1, 6)
        v = [Fraction(rng.choice([0, 0, 1, 2, 5, 97])) for _ in range(n)]
        if not any(v):
            continue
        den = rng.randint(1, 12)
        got = _round_positive(v, den)
        if sum(1 for x in v if x) > den:
            assert got is None
            continue
        assert sum(got) == 1
        assert [x > 0 for x in got] == [x > 0 for x in v]
        assert all((x * den).denominator == 1 for x in got)


def test_product_witness_is_cut_and_rounded_and_still_refutes():
    """maximal_leakage <= eps_d fails centrally once r ln(sum_y max_x W) > ln(max ratio): with
    W = [[1/3, 2/3], [2/3, 1/3]] that is r ln(4/3) > ln 2, first at r = 3 (by hand: 2 ln(4/3) = 0.575
    < 0.693 < 0.863 = 3 ln(4/3)); a noisier draw of it over 6 records with skewed priors comes back
    as the 3-record form."""
    rel = get("relations.ml_dp_central")
    w = [["0.34", "0.66"], ["0.66", "0.34"]]
    priors = [[Fraction(1 + j, 10), Fraction(9 - j, 10)] for j in range(6)]
    mech = Mechanism.product(w, records=6, prior=priors)
    assert _fails(rel)(mech)
    simple = simplify(mech, _fails(rel))
    assert _fails(rel)(simple)
    assert simple.inputs.records == 3
    assert [list(map(str, r)) for r in simple.channel.local.exact] == [["1/3", "2/3"], ["2/3", "1/3"]]
    assert all(p.exact == (Fraction(1, 2), Fraction(1, 2)) for p in simple.prior.factors)


@pytest.mark.parametrize("rid, setting", [("relations.ml_dp_central", "central"), ("zheng2025.thm4", "local")])
def test_hypothesis_search_returns_the_first_refuting_draw(rid, setting):
    """Checked against the exact checker alone (no float screen) over the same draws."""
    rel = get(rid)
    effort = Effort.of(True)
    found = hypothesis_search(rel, setting, effort)
    draws = generated(setting, effort.hypothesis_examples)
    first = next((i for i, m in enumerate(draws) if _fails(rel)(m)), None)
    if first is None:
        assert found is None
    else:
        assert found is draws[first]


def test_hamming_pairs_are_the_pairs_at_hamming_distance_one():
    """HammingInputs.pairs (index arithmetic) against the definition, over every pair of datasets."""
    import itertools

    from relations.model._neighbours import HammingInputs

    for k, r in [(1, 3), (2, 1), (2, 4), (3, 3), (4, 2)]:
        space = HammingInputs(tuple(map(str, range(k))), r)
        datasets = list(itertools.product(range(k), repeat=r))  # row i is the i-th in lexicographic order
        want = [(i, j) for i in range(len(datasets)) for j in range(i + 1, len(datasets))
                if sum(a != b for a, b in zip(datasets[i], datasets[j])) == 1]
        assert list(space.pairs()) == want
