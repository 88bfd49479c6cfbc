"""Product forms at any number of records: run-length priors and witnesses (``r = 10**9``), compact
JSON in and out, and exact ``r ln(q)`` where ``q^r`` is too large to write.

Expected values are computed here independently: per-record quantities by hand or in mpmath and
multiplied by ``r``; run-length sequences against the plain lists they stand for."""

from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import pytest
from bruteforce import assert_contains, fraction_of, mpf_of, text
from conftest import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_strategies import examples

import relations
from relations.checking._quantities import values
from relations.measures import eps_all
from relations.model import MAX_PRODUCT_RECORDS, Runs
from relations.numbers._reals import compare

BILLION = 10**9
W = [["3/4", "1/4"], ["1/4", "3/4"]]


def local_mi(prior, w, dps=60):
    """``I(p, W)`` of one record, ``H(Y) - H(Y|X)``, in mpmath."""
    with mpmath.workdps(dps):
        py = [sum(prior[x] * w[x][y] for x in range(len(prior))) for y in range(len(w[0]))]

        def h(v):
            return -mpmath.fsum(mpf_of(t) * mpmath.log(mpf_of(t)) for t in v if t)

        return h(py) - mpmath.fsum(mpf_of(prior[x]) * h(w[x]) for x in range(len(prior)))


def runs_of(index):
    assert set(index) == {"runs"}
    return [(v, n) for v, n in index["runs"]]


def differing_records(a, b):
    """The records where two run-length datasets differ, without expanding them."""
    ea, eb, out = _ends(a), _ends(b), []
    cuts = sorted({0} | {e for e, _ in ea} | {e for e, _ in eb})
    for lo, hi in zip(cuts, cuts[1:]):
        if _at(ea, lo) != _at(eb, lo):
            out.append((lo, hi - lo))
    return out


def _ends(runs):
    out, end = [], 0
    for v, n in runs:
        end += n
        out.append((end, v))
    return out


def _at(ends, i):
    return next(v for end, v in ends if i < end)


@st.composite
def run_lists(draw):
    return draw(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 5)), min_size=1, max_size=8))


@settings(max_examples=examples(100))
@given(run_lists(), st.data())
def test_runs_behave_as_the_list_they_stand_for(runs, data):
    plain = [v for v, n in runs for _ in range(n)]
    seq = Runs(runs)
    assert len(seq) == len(plain) and list(seq) == plain and seq == plain and seq == Runs.of(plain)
    i = data.draw(st.integers(-len(plain), len(plain) - 1))
    assert seq[i] == plain[i]
    j, v = data.draw(st.integers(0, len(plain) - 1)), data.draw(st.integers(0, 3))
    assert list(seq.replaced(j, v)) == plain[:j] + [v] + plain[j + 1:]
    assert all(a != b for (a, _), (b, _) in zip(seq.runs, seq.runs[1:]))  # adjacent runs merged


def test_runs_reject_bad_counts():
    for bad in (0, -1, True, 1.5):
        with pytest.raises(relations.InputError):
            Runs([(0, bad)])


def test_a_billion_records_measure_from_a_file(tmp_path):
    w = [[Fraction(v) for v in row] for row in W]
    data = {"setting": "central", "domain": ["a", "b"], "records": BILLION, "prior": "uniform",
            "channel": {"product": W}}
    path = tmp_path / "billion.json"
    path.write_text(json.dumps(data))
    proc = run_cli("measure", str(path), "--json", timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["inputs"] == f"2^{BILLION}"
    local_d = max(w[x][y] / w[1 - x][y] for x in (0, 1) for y in (0, 1))
    assert Fraction(out["eps_d"]["ratio"]) == local_d
    wit = out["eps_d"]["witness"]
    x, xp, y = (runs_of(wit[k]) for k in ("x_index", "x_prime_index", "y_index"))
    assert sum(n for _, n in x) == sum(n for _, n in xp) == sum(n for _, n in y) == BILLION
    [(j, one)] = differing_records(x, xp)  # neighbours: exactly one record differs
    assert one == 1
    xj, xpj, yj = _at(_ends(x), j), _at(_ends(xp), j), _at(_ends(y), j)
    assert w[xj][yj] / w[xpj][yj] == local_d
    lo, hi = (Fraction(s) for s in out["eps_m"]["enclosure"])
    with mpmath.workdps(80):
        truth = fraction_of(BILLION * local_mi([Fraction(1, 2)] * 2, w))
    assert lo <= truth <= hi


def test_compact_prior_runs_equal_the_listed_prior():
    w = [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 3), Fraction(2, 3)]]
    p, q = [Fraction(1, 5), Fraction(4, 5)], [Fraction(1, 2), Fraction(1, 2)]
    listed = [p, p, p, q, p]
    compact = [{"prior": [text(v) for v in p], "records": 3}, [text(v) for v in q], [text(v) for v in p]]
    base = {"setting": "central", "domain": ["a", "b"], "records": 5,
            "channel": {"product": [[text(v) for v in row] for row in w]}}
    a = relations.measure(relations.from_dict(dict(base, prior={"product": [[text(v) for v in f] for f in listed]})))
    b = relations.measure(relations.from_dict(dict(base, prior={"product": compact})))
    for name in ("eps_i", "eps_d", "sigma_min"):
        assert getattr(a, name).exact == getattr(b, name).exact
        assert getattr(a, name).witness == getattr(b, name).witness
    with mpmath.workdps(60):
        truth = 4 * local_mi(p, w) + local_mi(q, w)
        assert_contains(b.eps_m.enclosure, truth)
    # the written form keeps the runs, and reads back to the same mechanism
    written = relations.from_dict(dict(base, prior={"product": compact})).to_dict()
    again = relations.from_dict(json.loads(json.dumps(written)))
    assert [n for _, n in again.prior.factors.runs] == [3, 1, 1]


def test_compact_prior_counts_must_add_up():
    base = {"setting": "central", "domain": ["a", "b"], "records": 5, "channel": {"product": W}}
    for prior in ({"product": [{"prior": ["1/2", "1/2"], "records": 4}]},
                  {"product": [{"prior": ["1/2", "1/2"], "records": 0}]},
                  {"product": [{"prior": ["1/2", "1/2"], "count": 5}]}):
        with pytest.raises(relations.InputError):
            relations.from_dict(dict(base, prior=prior))


def test_records_limits_product_and_dense(tmp_path):
    ok = {"setting": "central", "domain": ["a", "b"], "records": MAX_PRODUCT_RECORDS, "prior": "uniform",
          "channel": {"product": W}}
    assert relations.from_dict(ok).inputs.records == MAX_PRODUCT_RECORDS
    path = tmp_path / "too_many.json"
    path.write_text(json.dumps(dict(ok, records=MAX_PRODUCT_RECORDS + 1)))
    proc = run_cli("measure", str(path))
    assert proc.returncode == 2 and "records" in proc.stderr and "Traceback" not in proc.stderr
    dense = {"setting": "central", "domain": ["a"], "records": 10**6, "prior": ["1"], "channel": [["1"]]}
    with pytest.raises(relations.InputError):  # a dense D^r keeps its records limit
        relations.from_dict(dense)


def test_group_privacy_is_an_exact_tie_at_a_billion_records():
    """``eps_all = r eps_d`` on a product form: ``q^r`` has billions of digits, yet the tie is decided."""
    mech = relations.Mechanism.product(W, records=BILLION)
    vals = values(mech)
    q = Fraction(3)  # the local ratio (3/4) / (1/4), by hand
    with mpmath.workdps(40):
        expected = BILLION * mpmath.log(3)
    assert abs(mpmath.mpf(float(vals.reals["eps_all"])) - expected) < 1e-6 * expected
    assert eps_all(mech).exact is None  # not written as ln(q^r) ...
    lo, hi = vals.reals["eps_all"].enclose(64)
    assert lo <= fraction_of(expected) + Fraction(1, 10**20) and hi >= fraction_of(expected) - Fraction(1, 10**20)
    report = relations.check(mech)
    group = next(o for o in report.outcomes if o.relation.id == "dworkroth2014.group")
    assert group.status == "holds"  # ... but decided exactly: diam * ln(q) = r ln(q), a tie
    assert compare(group.bound, group.conclusion) == 0
    assert float(group.bound) == pytest.approx(BILLION * float(mpmath.log(q)))


def test_kl_bound_near_one_ratio_at_many_records():
    """A ratio just above 1 on 20000 records: ``q^r`` is too long to write, ``a (e^a - 1)`` is small."""
    d = 10**12
    w = [[Fraction(d + 1, 2 * d), Fraction(d - 1, 2 * d)], [Fraction(d - 1, 2 * d), Fraction(d + 1, 2 * d)]]
    r = 20000
    mech = relations.Mechanism.product([[text(v) for v in row] for row in w], records=r)
    report = relations.check(mech)
    kl = next(o for o in report.outcomes if o.relation.id == "drv2010.kl")
    with mpmath.workdps(60):
        a = r * mpmath.log(mpf_of(Fraction(d + 1, d - 1)))
        bound = a * mpmath.expm1(a)
        mi = r * local_mi([Fraction(1, 2)] * 2, w)
    lo, hi = kl.bound.enclose(80)
    assert lo <= fraction_of(bound) <= hi
    assert kl.status == ("holds" if mi <= bound else "fails")


def test_what_needs_the_dense_channel_refuses_a_long_product_form_up_front(tmp_path):
    """``utility`` expands a product form; on 10^9 records that is refused in one line, not attempted."""
    path = tmp_path / "billion.json"
    path.write_text(json.dumps({"setting": "central", "domain": ["a", "b"], "records": BILLION,
                                "prior": "uniform", "channel": {"product": W}}))
    proc = run_cli("utility", str(path), timeout=60)
    assert proc.returncode == 2 and "dense" in proc.stderr and "Traceback" not in proc.stderr
    small = relations.Mechanism.product(W, records=3)  # small forms are still expanded
    assert small.dense().channel.shape == (8, 8)


def test_a_sweep_over_a_billion_records(tmp_path):
    """A grid point on 10^9 records is a product form like any other: evaluated in well under a minute."""
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"mechanism": "krr", "k": 2, "ratio": "3", "records": [BILLION],
                                "relations": ["relations.ml_dp_central", "dworkroth2014.group"]}))
    proc = run_cli("sweep", str(spec), "--out", str(tmp_path / "out"), "--workers", "1", timeout=120)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    text_out = json.dumps(summary)
    # maximal leakage of r records of binary RR with ratio 3 is r ln(3/4 + 3/4) = r ln(3/2), far above
    # eps_d = ln 3: the relation fails; group privacy eps_all = r ln 3 <= diam * eps_d holds (a tie)
    assert BILLION * float(mpmath.log(1.5)) > float(mpmath.log(3))
    assert (tmp_path / "out" / "counterexamples" / "relations.ml_dp_central.json").exists()
    assert not (tmp_path / "out" / "counterexamples" / "dworkroth2014.group.json").exists()
    assert summary["relations"]["relations.ml_dp_central"]["counts"] == {"fails": 1}, text_out
    assert summary["relations"]["dworkroth2014.group"]["counts"] == {"holds": 1}, text_out


def test_equal_local_priors_are_one_run_however_written():
    """Records with the same local prior form one run whether it is written as texts or Fractions, so a
    mechanism reads back from its own dict unchanged; a float prior of the same value carries its rounding
    radius, so it is another prior."""
    w = [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]
    half, third = [Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 3), Fraction(2, 3)]
    m = relations.Mechanism.product(w, records=5, prior=[half, third, ["1/3", "2/3"], list(third), ["1/2", "1/2"]])
    assert [n for _, n in m.prior.factors.runs] == [1, 3, 1]
    assert relations.from_dict(m.to_dict()).to_dict() == m.to_dict()
    floats = relations.Mechanism.product(w, records=2, prior=[["1/2", "1/2"], [0.5, 0.5]])
    assert [f.rounding for f, _ in floats.prior.factors.runs] == [0, Fraction(1, 2**42)]
