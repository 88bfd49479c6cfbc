"""Ties decided on the rank matrix give the exact maximum and the witness of the candidate-by-candidate scan."""

from __future__ import annotations

import functools
import math
import random
from fractions import Fraction

import pytest

import relations.measures._ratios as ratios
from relations import Mechanism
from relations.measures._dense import eps_d, eps_i, sigma_min
from relations.mechanisms import product, randomized_response


def _dense_product(local, r, prior=None):
    p = product(local, r)
    rows = [list(row) for row in p.channel.dense().exact]
    return Mechanism.central(rows, records=r, domain=local.channel.shape[0], prior=prior)


def _normalised(weights):
    return [w / sum(weights) for w in weights]


def _tied_cases():
    rng = random.Random(5)
    yield "binary RR r=6", _dense_product(randomized_response(3), 6)
    yield "3-RR r=4, skewed prior", _dense_product(
        Mechanism.local([["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/4", "1/4", "1/2"]]), 4,
        prior=_normalised([Fraction(rng.randint(1, 3)) for _ in range(81)]))
    # a local channel with many equal columns and zeros (0/0 skipped, a/0 infinite)
    rows = [[Fraction(rng.choice([0, 1, 1, 2])) for _ in range(300)] for _ in range(20)]
    rows = [[v / total for v in row] if (total := sum(row)) else [Fraction(1, 300)] * 300 for row in rows]
    yield "local 20x300 with zeros", Mechanism.local(rows)
    # a graph (cycle) over equal rows but one
    rows = [[Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)]] * 5000 + [[Fraction(1, 4), Fraction(1, 2), Fraction(1, 4)]]
    edges = [(i, (i + 1) % 5001) for i in range(5001)]
    yield "graph cycle", Mechanism.graph(rows, edges)


_NAMES = ["binary RR r=6", "3-RR r=4, skewed prior", "local 20x300 with zeros", "graph cycle"]
_BUILT: dict[str, Mechanism] = {}
_PENDING = _tied_cases()


def _tied(name):
    """The case's mechanism, built once per process when a test first asks for it (not at collection: the
    cases draw from one generator, in order, so each is the same mechanism as if all were built at once)."""
    while name not in _BUILT:
        key, mech = next(_PENDING)
        _BUILT[key] = mech
    return _BUILT[name]


_TIED = [(name, functools.partial(_tied, name)) for name in _NAMES]


def test_every_tied_case_is_parametrized():
    """:data:`_NAMES` names every case of :func:`_tied_cases`, in its order: a case added there alone would never
    be tested, and one named here alone would fail only in the test that asks for it."""
    for name in _NAMES:
        _tied(name)
    assert list(_BUILT) == _NAMES and next(_PENDING, None) is None


@pytest.mark.parametrize("name, build", _TIED, ids=lambda v: v if isinstance(v, str) else "")
def test_rank_path_equals_the_candidate_scan(name, build, monkeypatch):
    mech = build()
    fast = [eps_d(mech), eps_i(mech), sigma_min(mech)]
    monkeypatch.setattr(ratios, "TIES", 10**12)  # every candidate re-checked one by one
    slow = [eps_d(mech), eps_i(mech), sigma_min(mech)]
    for a, b in zip(fast, slow):
        assert a.exact == b.exact and a.witness == b.witness, (name, a, b)


def test_the_tied_case_takes_the_rank_path(monkeypatch):
    """k-RR written densely over D^7: every clique is at the maximum, so the scan would re-check
    7 * 64 * 128 candidates; the rank path evaluates each distinct (max, min) pair once."""
    calls = []
    original = ratios._candidate
    monkeypatch.setattr(ratios, "_candidate", lambda *a: calls.append(a) or original(*a))
    mech = _dense_product(randomized_response(3), 7)
    assert str(eps_d(mech).exact) == "ln(3)" and len(calls) == 1


@pytest.mark.parametrize("name, build", _TIED[:2], ids=lambda v: v if isinstance(v, str) else "")
def test_rank_path_without_the_presence_table(name, build, monkeypatch):
    """The sort branch of ``distinct_codes`` (used above TABLE possible codes) gives the same results."""
    mech = build()
    from relations.measures import _dense as dense
    fast = [eps_d(mech), eps_i(mech), sigma_min(mech)]
    dense._RANKS.clear()
    monkeypatch.setattr(ratios, "TABLE", 0)
    sorted_ = [eps_d(mech), eps_i(mech), sigma_min(mech)]
    for a, b in zip(fast, sorted_):
        assert a.exact == b.exact and a.witness == b.witness, (name, a, b)


def test_distinct_codes_is_numpy_unique():
    import numpy as np

    rng = np.random.default_rng(3)
    for size in (1, 7, 50, 1000):
        codes = [rng.integers(0, size, size=shape) for shape in ((5, 4), (3,), (2, 2))]
        want = np.unique(np.concatenate([c.ravel() for c in codes]), return_inverse=True)
        for table in (ratios.TABLE, 0):
            old, ratios.TABLE = ratios.TABLE, table
            try:
                got, where = ratios.distinct_codes(codes, size, inverse=True)
            finally:
                ratios.TABLE = old
            assert got.tolist() == want[0].tolist()
            assert where.shape == codes[0].shape
            assert got[where].tolist() == codes[0].tolist()


def test_indexed_rows_agree_with_reading_every_entry():
    """IndexedRows (each distinct value read once) against the per-entry reading: the floats are
    ``float(v)`` entry by entry, the zero pattern, and the ranks are those of ``ranked``."""
    import pickle

    import numpy as np

    from relations.model._distributions import Channel
    from relations.model._indexed import IndexedRows

    rng = random.Random(11)
    for _ in range(30):
        n, m = rng.randint(1, 6), rng.randint(1, 6)
        pool = [Fraction(0), Fraction(1, 3), Fraction(2, 6), Fraction(1, 7), Fraction(10**30 + 1, 10**31)]
        raw = [[Fraction(rng.choice(pool)) for _ in range(m)] for _ in range(n)]
        rows = [[v / sum(r) for v in r] if sum(r) else [Fraction(1, m)] * m for r in raw]
        ch = Channel.from_exact([list(r) for r in rows])
        assert isinstance(ch.exact, IndexedRows)
        assert ch.exact == tuple(tuple(r) for r in rows)
        assert ch.array.tolist() == [[float(v) for v in r] for r in rows]
        assert ch.reliable == all((float(v) != 0) == (v != 0) for r in rows for v in r)
        R, values = ch.exact.ranks()
        R2, values2 = ratios.ranked(rows)
        assert values == values2 and np.array_equal(R, R2)
        back = pickle.loads(pickle.dumps(ch.exact))
        assert isinstance(back, IndexedRows) and back == ch.exact and np.array_equal(back.index, ch.exact.index)


def test_extremes_is_the_first_max_and_min_of_the_values():
    """Grouping equal entries (as one object, or as equal fractions apart) keeps the exact extremes and their
    first positions: the same as Python's max, min and index."""
    rng = random.Random(11)
    for _ in range(300):
        pool = [Fraction(rng.randint(0, 9), rng.randint(1, 9)) for _ in range(rng.randint(1, 5))]
        values = [rng.choice(pool) if rng.random() < 0.5 else Fraction(rng.choice(pool).numerator,
                                                                       rng.choice(pool).denominator)
                  for _ in range(rng.randint(1, 40))]
        values = [Fraction(v.numerator, v.denominator) if rng.random() < 0.3 else v for v in values]  # copies
        assert ratios.extremes(values) == (values.index(max(values)), values.index(min(values)))


def test_krr_decided_exactly_with_entries_as_text():
    """k-RR with k = 64, its entries given as text (as the audit's workers send them), is decided exactly:
    eps_d = ln(p (k - 1) / (1 - p)) derived by hand, and a claim below it fails."""
    from relations.audit._report import _claims, _mechanism, decide_channel

    k, p = 64, Fraction(3, 5)
    q = (1 - p) / (k - 1)
    rows = [[Fraction(str(p if y == x else q)) for y in range(k)] for x in range(k)]
    mech = _mechanism(list(range(k)), [str(y) for y in range(k)], rows, 0.0, "uniform", "krr")
    expected = p * (k - 1) / (1 - p)
    (measures, _), verdict = decide_channel(mech, _claims(repr(1.0001 * math.log(expected)), []))
    assert measures.eps_d.exact.ratio == expected and measures.eps_i.exact.ratio == expected
    assert verdict == "consistent"
    (_, _), verdict = decide_channel(mech, _claims(repr(0.9999 * math.log(expected)), []))
    assert verdict == "violated"
