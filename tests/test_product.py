"""Product forms (``{"channel": {"product": W}}``, ``{"prior": {"product": [...]}}`` / ``"uniform"``)
against their dense ``k^r x m^r`` expansion, built here by hand, and against brute force."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import mpmath
import pytest
from bruteforce import (
    assert_contains,
    assert_contains_float,
    brute_all,
    dense_product_channel,
    dense_product_prior,
    digits,
    fraction_of,
    hamming_dict,
    hamming_pairs,
    local_pairs,
    mi_mpmath,
    mi_numpy,
    mpf_of,
    overlap,
    text,
)
from conftest import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_strategies import channels, check_budget, distributions, examples, tuple_index

import relations

RATIOS = ("eps_d", "eps_i", "sigma_min")


@st.composite
def product_cases(draw):
    """``(k, m, r, W, factors or None for "uniform")`` with a dense expansion of at most 729 entries."""
    k = draw(st.integers(2, 3))
    m = draw(st.integers(1, 3))
    rmax = max(r for r in (1, 2, 3) if (k * m) ** r <= 729)
    r = draw(st.integers(1, rmax))
    w = draw(channels(k, m))
    factors = None if draw(st.booleans()) else [draw(distributions(k)) for _ in range(r)]
    if factors is not None and draw(st.booleans()):
        factors = [factors[0]] * r  # identical factors are grouped by the tool
    return k, m, r, w, factors


def product_dict(k, r, w, factors):
    return {"setting": "central", "domain": [f"v{i}" for i in range(k)], "records": r,
            "channel": {"product": [[text(v) for v in row] for row in w]},
            "prior": "uniform" if factors is None else {"product": [[text(v) for v in f] for f in factors]}}


def dense_of(k, r, w, factors):
    prior = dense_product_prior(factors if factors is not None else [[Fraction(1, k)] * k] * r)
    return prior, dense_product_channel(w, r)


@settings(max_examples=examples(50))
@given(product_cases())
def test_product_equals_dense_expansion(case):
    k, m, r, w, factors = case
    mech = relations.from_dict(product_dict(k, r, w, factors))
    assert mech.is_product
    prior, channel = dense_of(k, r, w, factors)
    assert len(channel) == k**r and len(channel[0]) == m**r
    dense_mech = relations.from_dict(hamming_dict(prior, channel, k, r))
    assert not dense_mech.is_product

    got, dense = relations.measure(mech), relations.measure(dense_mech)
    brute = brute_all(prior, channel, hamming_pairs(k, r))
    for key in RATIOS:
        assert getattr(got, key).exact == getattr(dense, key).exact, key
        # product witnesses are per-record tuples; they must attain the value in the dense matrix
        check_budget(getattr(got, key), brute[key], tuple_index(k, m))
        w_ = getattr(got, key).witness
        if w_ is not None:
            assert sum(a != b for a, b in zip(w_.x, w_.x_prime)) == 1

    assert overlap(got.eps_m.enclosure, dense.eps_m.enclosure)
    assert got.eps_m.enclosure.width <= Fraction(1, 2**100)
    assert_contains_float(got.eps_m.enclosure, mi_numpy(prior, channel))
    assert_contains(got.eps_m.enclosure, mi_mpmath(prior, channel, dps=50))


@settings(max_examples=examples(30))
@given(product_cases(), st.data())
def test_mixed_product_and_dense_forms(case, data):
    """A product channel with a dense prior, and a dense channel with a product prior."""
    k, m, r, w, factors = case
    prior, channel = dense_of(k, r, w, factors)
    pairs = hamming_pairs(k, r)
    other_prior = data.draw(distributions(k**r))

    mixed = product_dict(k, r, w, factors)
    mixed["prior"] = [text(v) for v in other_prior]  # product channel, arbitrary dense prior
    got = relations.measure(relations.from_dict(mixed))
    brute = brute_all(other_prior, channel, pairs)
    for key in RATIOS:
        check_budget(getattr(got, key), brute[key], tuple_index(k, m))
    assert_contains(got.eps_m.enclosure, mi_mpmath(other_prior, channel, dps=50))

    if factors is not None:
        mixed = hamming_dict(prior, channel, k, r)
        mixed["prior"] = {"product": [[text(v) for v in f] for f in factors]}  # dense channel, product prior
        got = relations.measure(relations.from_dict(mixed))
        brute = brute_all(prior, channel, pairs)
        for key in RATIOS:
            check_budget(getattr(got, key), brute[key])


def test_product_witness_lifts_to_a_real_dataset_pair():
    """A zero in one local prior: sigma_min is -inf, attained by datasets differing in that record,
    with the other records at values of positive prior."""
    w = [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 4), Fraction(3, 4)]]
    factors = [[Fraction(1, 3), Fraction(2, 3)], [Fraction(1), Fraction(0)], [Fraction(1, 5), Fraction(4, 5)]]
    got = relations.measure(relations.from_dict(product_dict(2, 3, w, factors)))
    s = got.sigma_min
    assert s.value == -math.inf
    prior = dense_product_prior(factors)
    x, xp = (sum(d * 2 ** (2 - j) for j, d in enumerate(v)) for v in (s.witness.x, s.witness.x_prime))
    assert prior[x] == 0 < prior[xp]
    assert [j for j in range(3) if s.witness.x[j] != s.witness.x_prime[j]] == [1]
    # eps_i: p_2(1) = 0 gives an infinite ratio too, witnessed in record 1
    assert got.eps_i.value == math.inf
    wi = got.eps_i.witness
    py = [sum(prior[a] * dense_product_channel(w, 3)[a][b] for a in range(8)) for b in range(8)]
    yi = sum(e * 2 ** (2 - j) for j, e in enumerate(wi.y))
    xi, xpi = (sum(d * 2 ** (2 - j) for j, d in enumerate(v)) for v in (wi.x, wi.x_prime))
    q = dense_product_channel(w, 3)
    assert py[yi] > 0 and prior[xpi] * q[xpi][yi] == 0 < prior[xi] * q[xi][yi]


def test_product_witness_fillers_have_positive_prior():
    """Zeros in two local priors: every record's extreme is -inf / +inf; the witness's other records
    must sit at values of positive prior (else its ratio would be 0/0, not the reported value)."""
    w = [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 4), Fraction(3, 4)]]
    factors = [[Fraction(0), Fraction(1)], [Fraction(1), Fraction(0)], [Fraction(1, 5), Fraction(4, 5)]]
    got = relations.measure(relations.from_dict(product_dict(2, 3, w, factors)))
    prior, channel = dense_of(2, 3, w, factors)
    brute = brute_all(prior, channel, hamming_pairs(2, 3))
    for key in RATIOS:
        check_budget(getattr(got, key), brute[key], tuple_index(2, 2))
    assert got.sigma_min.value == -math.inf and got.eps_i.value == math.inf


def local_entropy_mi(prior, w, dps=60):
    """``I(p, W)`` of one record as ``H(Y) - H(Y|X)`` in mpmath."""
    with mpmath.workdps(dps):
        py = [sum(prior[x] * w[x][y] for x in range(len(prior))) for y in range(len(w[0]))]

        def h(v):
            return -mpmath.fsum(mpf_of(t) * mpmath.log(mpf_of(t)) for t in v if t)

        return h(py) - mpmath.fsum(mpf_of(prior[x]) * h(w[x]) for x in range(len(prior)))


def test_huge_product_is_not_expanded():
    """r = 100000 records over a 3-value domain: k^r rows could never be built."""
    w = [[Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)],
         [Fraction(1, 6), Fraction(1, 2), Fraction(1, 3)],
         [Fraction(1, 5), Fraction(1, 5), Fraction(3, 5)]]
    r = 100_000
    got = relations.measure(relations.from_dict(product_dict(3, r, w, None)))
    # eps_d of the product is the local eps_d, enumerated here over all pairs of the domain
    local_d = max(w[x][y] / w[xp][y] for x, xp in local_pairs(3) + [(b, a) for a, b in local_pairs(3)]
                  for y in range(3))
    assert got.eps_d.exact.ratio == local_d
    uniform = [Fraction(1, 3)] * 3
    local_i = max(uniform[x] * w[x][y] / (uniform[xp] * w[xp][y])
                  for x in range(3) for xp in range(3) if x != xp for y in range(3))
    assert got.eps_i.exact.ratio == local_i == local_d
    assert got.sigma_min.exact.ratio == 1
    # independent records: I = r * I(one record)
    with mpmath.workdps(60):
        truth = r * local_entropy_mi(uniform, w)
    assert_contains(got.eps_m.enclosure, truth)
    assert got.eps_m.enclosure.width <= Fraction(1, 2**100)
    # witnesses are r-tuples differing in one record
    wd = got.eps_d.witness
    assert len(wd.x) == r and sum(a != b for a, b in zip(wd.x, wd.x_prime)) == 1
    j = next(i for i in range(r) if wd.x[i] != wd.x_prime[i])
    assert w[wd.x[j]][wd.y[j]] / w[wd.x_prime[j]][wd.y[j]] == local_d


def test_many_distinct_local_priors():
    """r = 60 different local priors: eps_i is the max, sigma_min the min over records."""
    w = [[Fraction(2, 3), Fraction(1, 3)], [Fraction(1, 4), Fraction(3, 4)]]
    factors = [[Fraction(j + 1, j + 3), Fraction(2, j + 3)] for j in range(60)]
    got = relations.measure(relations.from_dict(product_dict(2, 60, w, factors)))
    best_i = max(f[x] * w[x][y] / (f[xp] * w[xp][y]) for f in factors for x, xp in ((0, 1), (1, 0)) for y in (0, 1))
    best_s = min(f[x] / f[xp] for f in factors for x, xp in ((0, 1), (1, 0)))
    assert got.eps_i.exact.ratio == best_i
    assert got.sigma_min.exact.ratio == best_s
    with mpmath.workdps(60):
        truth = mpmath.fsum(local_entropy_mi(f, w) for f in factors)
    assert_contains(got.eps_m.enclosure, truth)
    wi = got.eps_i.witness
    j = next(i for i in range(60) if wi.x[i] != wi.x_prime[i])
    f = factors[j]
    assert f[wi.x[j]] * w[wi.x[j]][wi.y[j]] / (f[wi.x_prime[j]] * w[wi.x_prime[j]][wi.y[j]]) == best_i


def _expand_runs(index):
    """A JSON witness index of a long product form, {"runs": [[value, count], ...]}, as a list."""
    assert set(index) == {"runs"}
    return [v for v, n in index["runs"] for _ in range(n)]


def test_product_cli_json(tmp_path):
    w = [["1/2", "1/2"], ["1/10", "9/10"]]
    data = {"setting": "central", "domain": ["a", "b"], "records": 1000, "prior": "uniform",
            "channel": {"product": w}}
    path = tmp_path / "product.json"
    path.write_text(json.dumps(data))
    proc = run_cli("measure", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["form"] == "product" and out["inputs"] == "2^1000" and out["outputs"] == "2^1000"
    wf = [[Fraction(v) for v in row] for row in w]
    local_d = max(wf[x][y] / wf[1 - x][y] for x in (0, 1) for y in (0, 1))  # the largest local ratio
    assert Fraction(out["eps_d"]["ratio"]) == local_d
    wit = out["eps_d"]["witness"]
    x, xp, y = (_expand_runs(wit[k]) for k in ("x_index", "x_prime_index", "y_index"))
    assert len(x) == len(xp) == len(y) == 1000
    differ = [j for j in range(1000) if x[j] != xp[j]]
    assert len(differ) == 1  # neighbours: one record changed, and its ratio is the local budget
    j = differ[0]
    assert wf[x[j]][y[j]] / wf[xp[j]][y[j]] == local_d
    lo, hi = (Fraction(s) for s in out["eps_m"]["enclosure"])
    with mpmath.workdps(60):
        truth = fraction_of(1000 * local_entropy_mi([Fraction(1, 2)] * 2, wf))
    assert lo <= truth <= hi and hi - lo < Fraction(1, 10**30)


def test_product_dense_prior_too_large_is_an_input_error():
    data = product_dict(2, 40, [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1), Fraction(0)]], None)
    data["prior"] = ["1"] + ["0"] * (2**10 - 1)  # wrong length anyway, but the size check must not build 4^40
    with pytest.raises(relations.InputError):
        relations.from_dict(data)


@pytest.mark.parametrize("r", [1, 2, 3])
def test_digits_order_matches_the_tool(r):
    """Rows of D^r are lexicographic with the first record most significant (SPEC 1): check the
    tool's labels against the helper used by the brute force."""
    k = 3
    mech = relations.from_dict(hamming_dict([Fraction(1, k**r)] * k**r, [[Fraction(1)]] * k**r, k, r))
    for i in range(k**r):
        assert mech.inputs.label(i) == "(" + ",".join(f"d{d}" for d in digits(i, k, r)) + ")"
