"""The vectorised notions of :mod:`relations.measures._batch` against the one-mechanism float path and hand values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from relations.measures._batch import dense_values, ordered_pairs
from relations.model._distributions import Channel, Prior
from relations.model._mechanism import Mechanism
from relations.search._families import DenseFamily, float_values

NAMES = ("kl", "rho", "renyi(2)", "renyi(3/2)", "delta(1)", "delta(0)", "eps_delta(1/100000)", "eps_delta(1/2)",
         "maximal_leakage", "min_entropy_leakage")


def _close(a: float, b: float) -> bool:
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= 1e-12 * (1 + abs(a))


@pytest.mark.parametrize("family", [DenseFamily(2, 2), DenseFamily(3, 3), DenseFamily(3, 4), DenseFamily(4, 2, 2, 2)],
                         ids=lambda f: f.describe())
def test_a_stack_agrees_with_each_mechanism_measured_alone(family):
    """Stacks of random members, some with zero entries and a zero prior, against float_values one by one."""
    rng = np.random.default_rng(7)
    mechs = []
    for b in range(24):
        q, p = family.float_arrays(rng.normal(scale=3.0, size=family.dim))
        if b % 4 == 1:
            q = q.copy()
            q[0] = 0.0
            q[0, b % q.shape[1]] = 1.0  # a deterministic row: infinite ratios and divergences
        if b % 4 == 2:
            p = p.copy()
            p[-1] = 0.0
            p /= p.sum()
        mechs.append(Mechanism("central" if family.records else "local",
                               Prior(p), Channel(q), family.inputs(), tuple(map(str, range(family.m))), exact=False))
    q = np.stack([m.channel.array for m in mechs])
    p = np.stack([m.prior.array for m in mechs])
    got = dense_values(q, p, ordered_pairs(family.inputs().pairs()), NAMES)
    for b, mech in enumerate(mechs):
        ref = float_values(mech)
        for name, column in got.items():
            assert _close(ref[name], float(column[b])), (b, name, ref[name], float(column[b]))


def test_binary_randomized_response_by_hand():
    """Ratio t = 3, uniform prior: eps_d = ln 3, kl = (1/2) ln 3 (= eps tanh(eps/2)), I = ln 2 - h(1/4)."""
    q = np.array([[[0.75, 0.25], [0.25, 0.75]]])
    v = dense_values(q, np.array([[0.5, 0.5]]), ordered_pairs([(0, 1)]), ("kl", "rho", "delta(0)", "eps_delta(1/2)"))
    h = -(0.75 * math.log(0.75) + 0.25 * math.log(0.25))
    assert math.isclose(v["eps_d"][0], math.log(3), rel_tol=1e-15)
    assert math.isclose(v["eps_all"][0], math.log(3), rel_tol=1e-15)
    assert math.isclose(v["kl"][0], 0.5 * math.log(3), rel_tol=1e-14)
    assert math.isclose(v["rho"][0], 0.5 * math.log(3), rel_tol=1e-12)  # binary RR's sup D_a/a is its KL
    assert math.isclose(v["eps_m"][0], math.log(2) - h, rel_tol=1e-14)
    assert v["delta(0)"][0] == 0.5 and v["eps_delta(1/2)"][0] == 0.0
    assert v["sigma_min"][0] == 0.0 and v["neg_sigma"][0] == 0.0


def test_batched_scores_are_the_scalar_violation_and_ratio():
    """optimiser._scores (arrays) against optimiser.violation / ratio / float_bound (one point), for every
    catalogued bound, with infinite premises and conclusions and a disconnected graph's diameter."""
    from relations.catalogue import CATALOGUE
    from relations.search._optimiser import _scores, float_bound, ratio, violation

    rng = np.random.default_rng(3)
    for rel in [r for r in CATALOGUE if r.bound is not None]:
        names = {rel.premise, rel.conclusion, "sigma_min"}
        vals = {n: rng.exponential(2.0, 200) for n in names}
        vals["sigma_min"] = -rng.exponential(1.0, 200)
        for n in (rel.premise, rel.conclusion):
            vals[n] = np.where(rng.random(200) < 0.1, np.inf, vals[n])
        for diam in (1, 3, None):
            viol, ratios, bound = _scores(rel, vals, diam)
            for b in range(200):
                point = {n: float(vals[n][b]) for n in names}
                assert viol[b] == violation(rel, point, diam), (rel.id, point, diam)
                q = ratio(rel, point, diam)
                assert (q is None and math.isnan(ratios[b])) or q == ratios[b], (rel.id, point, diam)
                assert bound[b] == float_bound(rel, point, diam)



@pytest.mark.parametrize("extra", [(), ("rho",), ("kl", "tv"), ("renyi(2)", "eps_delta(1/100000)"), ("maximal_leakage",)],
                         ids=lambda e: ",".join(e) or "paper")
def test_the_batched_screen_is_each_draw_measured_alone(extra):
    """The hypothesis screen's values of every draw, computed per shape in one call, are mechanism_values of
    each draw alone (the same floats to the last bit); product forms and unreliable copies get None."""
    from relations.measures._batch import mechanism_values
    from relations.search._screening import _BATCH, _screen_batch, generated

    draws = generated("local", 30) + generated("central", 30)
    memo: dict = {_BATCH: draws}
    _screen_batch(memo, extra)
    assert sum(memo[id(m), extra] is None for m in draws) >= 1  # some product forms among the central draws
    for mech in draws:
        assert memo[id(mech), extra] == mechanism_values(mech, extra)


def test_the_batched_screen_computes_each_notion_once_per_memo():
    """One memo screening relation after relation (as hypothesis_search does) computes each notion of a draw once,
    and gives every relation's notions mechanism_values of each draw alone, keys in its order."""
    from relations.measures import _batch
    from relations.measures._batch import mechanism_values
    from relations.search._screening import _BATCH, _screen_batch, generated

    draws = generated("local", 30) + generated("central", 30)
    memo: dict = {_BATCH: draws}
    asked: list[tuple[str, ...]] = []
    dense_values = _batch.dense_values

    def counted(q, p, pairs, extra=(), **options):
        asked.append(tuple(extra) + tuple(options.get("paper") or ()))
        return dense_values(q, p, pairs, extra, **options)

    for extra in [(), ("rho",), ("kl", "rho"), ("rho",), ("renyi(2)", "kl")]:
        _batch.dense_values = counted
        try:
            _screen_batch(memo, extra)
        finally:
            _batch.dense_values = dense_values
        for mech in draws:
            got, alone = memo[id(mech), extra], mechanism_values(mech, extra)
            assert got == alone and (got is None or list(got) == list(alone))
    names = [n for a in asked for n in a]
    groups = len([a for a in asked if "eps_d" in a])  # the paper's notions: once per group of draws
    assert groups and all(names.count(n) == groups for n in ("eps_d", "rho", "kl", "renyi(2)"))


@pytest.mark.parametrize("extra", [("kl",), ("maximal_leakage", "bayes_vulnerability", "prior_vulnerability", "bayes_leakage")],
                         ids=lambda e: ",".join(e))
def test_the_k_rr_stacks_are_the_products_of_each_number_of_records(extra):
    """search_rr's stacked product values (computed once per grid) are product_values of each r, concatenated, to
    the bit and with the same keys in the same order (additive, multiplicative and gap notions among them)."""
    from relations.search._families import product_values
    from relations.search._optimiser import _rr_products, _rr_values

    ts = np.exp(np.linspace(0.05, 10.0, 7)).tobytes()
    records = (1, 2, 5, 40)
    stacked = _rr_products(3, ts, 0.9, extra, records)
    local = _rr_values(3, ts, 0.9, extra)
    assert list(stacked) == list(product_values(local, 2))
    for key, value in stacked.items():
        expected = np.concatenate([product_values(local, r)[key] for r in records])
        assert value.dtype == expected.dtype and value.tobytes() == expected.tobytes(), key
        assert not value.flags.writeable
    grid = np.log(np.frombuffer(ts))  # k-RR with ratio t: eps_d = ln t; over r = 2 records eps_all = 2 ln t
    assert np.allclose(stacked["eps_d"][7:14], grid) and np.allclose(stacked["eps_all"][7:14], 2 * grid)


@pytest.mark.parametrize("extra", [("renyi(2)", "eps_delta(1/100000)"), ("gdp_mu", "rho"), ("kl", "tv"),
                                   ("maximal_leakage", "sibson(2)")])
def test_the_k_rr_grids_notion_by_notion_are_the_grids_of_all_notions(extra):
    """_rr_values computes each notion of a k-RR grid once whatever it is asked with: the same floats, to the bit,
    as one dense_values call of all of them (and the refinement's points, which take that call)."""
    from relations.search._optimiser import _rr_direct, _rr_points, _rr_values

    ts = np.exp(np.linspace(0.05, 10.0, 9)).tobytes()
    for k in (2, 5):
        split, whole = _rr_values(k, ts, 0.9, extra), _rr_direct(k, ts, 0.9, extra)
        assert list(split) == list(whole) and set(extra) <= set(split)
        assert all(split[n].tobytes() == whole[n].tobytes() for n in split)
        assert all(_rr_points(k, ts, 0.9, (n,))[n].tobytes() == whole[n].tobytes() for n in split)  # one alone


def test_dense_values_of_some_paper_notions_are_those_of_all():
    """dense_values(paper=...) computes only the paper's notions asked (and those among extra): each the same
    floats, to the bit, as when all are computed."""
    rng = np.random.default_rng(5)
    q = rng.dirichlet(np.ones(4), size=(30, 3))
    q[:5, 0, 1] = 0.0
    q[:5, 0] /= q[:5, 0].sum(axis=-1, keepdims=True)
    p = rng.dirichlet(np.ones(3), size=30)
    pairs = ordered_pairs([(0, 1), (1, 2)])
    whole = dense_values(q, p, pairs, ("kl", "maximal_leakage"))
    for paper in [(), ("eps_d",), ("eps_i", "neg_sigma"), ("eps_m", "eps_all"), ("sigma_min", "eps_m")]:
        some = dense_values(q, p, pairs, ("kl", "eps_all"), paper=paper)
        assert set(paper) | {"kl", "eps_all"} <= set(some) <= set(whole)
        assert all(some[n].tobytes() == whole[n].tobytes() for n in some)


def test_the_rr_family_builds_the_mechanism_of_its_rows():
    """RRFamily.mechanism, with its validated channel kept per (k, t), is the product of krr_rows written out."""
    from fractions import Fraction

    from relations.mechanisms._local import krr_rows
    from relations.model._products import ProductPrior
    from relations.search._families import RRFamily

    t = Fraction(7, 3)
    for records in (1, 2, 4):
        got = RRFamily(4, records, Fraction(9, 10)).mechanism(t)
        rest = Fraction(9, 10) / 3
        prior = [Fraction(1, 10)] + [rest] * 3
        want = (Mechanism.local(krr_rows(4, t), prior=prior) if records == 1
                else Mechanism.product(krr_rows(4, t), records=records,
                                       prior=ProductPrior.repeated(Prior.of(prior), records)))
        assert got.to_dict() == want.to_dict()
