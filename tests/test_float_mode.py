"""Float mode (``.npz`` input, docs/semantics.md): says it is approximate, and agrees with the exact
path on the same matrix to ~1e-12."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from bruteforce import edges_dict, hamming_dict, local_dict, mi_numpy
from conftest import run_cli
from hypothesis import given, settings
from reference_strategies import examples, hamming_cases, local_cases

import relations


def save_npz(path, prior, channel, **extra):
    arrays = {"prior": np.array([float(v) for v in prior], dtype=np.float64),
              "channel": np.array([[float(v) for v in row] for row in channel], dtype=np.float64)}
    arrays["mode"] = np.array("float")  # small arrays are taken exactly unless float mode is asked for
    arrays.update(extra)
    np.savez(path, **arrays)
    return path


def close(a: float, b: float) -> bool:
    if math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def compare(float_measures, exact_measures, prior, channel):
    assert not float_measures.exact and exact_measures.exact
    for key in ("eps_d", "eps_i", "sigma_min"):
        f, e = getattr(float_measures, key), getattr(exact_measures, key)
        assert f.exact is None
        assert close(f.value, e.value), (key, f.value, e.value)
    mi = float_measures.eps_m
    assert mi.enclosure is None
    enc = exact_measures.eps_m.enclosure
    assert float(enc.lower) - 1e-12 <= mi.value <= float(enc.upper) + 1e-12
    assert math.isclose(mi.value, mi_numpy(prior, channel), rel_tol=1e-9, abs_tol=1e-12)


def check_float_witness(budget, a):
    """A float-mode witness attains the reported value in the float matrix ``a``."""
    w = budget.witness
    if w is None:
        return
    num, den = a[w.x, w.y if w.y is not None else 0], a[w.x_prime, w.y if w.y is not None else 0]
    if math.isinf(budget.value):
        assert den == 0 < num if budget.value > 0 else num == 0 < den
    else:
        assert math.isclose(math.log(num / den), budget.value, rel_tol=1e-12, abs_tol=1e-12)


@settings(max_examples=examples(30))
@given(local_cases(nmin=2, mmax=5))
def test_local_npz_agrees_with_exact(tmp_path_factory, case):
    prior, channel = case
    path = save_npz(tmp_path_factory.mktemp("npz") / "m.npz", prior, channel)
    mech = relations.load(path)
    assert mech.exact is False and mech.setting == "local"
    got = relations.measure(mech)
    compare(got, relations.measure(relations.from_dict(local_dict(prior, channel))), prior, channel)
    check_float_witness(got.eps_d, mech.channel.array)
    check_float_witness(got.sigma_min, mech.prior.array[:, None])


@settings(max_examples=examples(30))
@given(hamming_cases())
def test_central_npz_agrees_with_exact(tmp_path_factory, case):
    k, r, prior, channel = case
    path = save_npz(tmp_path_factory.mktemp("npz") / "m.npz", prior, channel,
                    setting=np.array("central"), records=np.array(r), domain_size=np.array(k))
    mech = relations.load(path)
    assert mech.exact is False and mech.setting == "central"
    got = relations.measure(mech)
    compare(got, relations.measure(relations.from_dict(hamming_dict(prior, channel, k, r))), prior, channel)
    check_float_witness(got.eps_d, mech.channel.array)
    w = got.eps_d.witness
    if w is not None:  # a neighbour pair of D^r: the base-k digits differ in exactly one place
        dx, dxp = np.unravel_index(w.x, (k,) * r), np.unravel_index(w.x_prime, (k,) * r)
        assert sum(int(a != b) for a, b in zip(dx, dxp)) == 1


def test_npz_cli_json_says_float(tmp_path):
    prior = [Fraction(1, 3), Fraction(2, 3)]
    channel = [[Fraction(1, 10), Fraction(9, 10)], [Fraction(7, 10), Fraction(3, 10)]]
    path = save_npz(tmp_path / "m.npz", prior, channel)
    proc = run_cli("measure", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["mode"] == "float"
    exact = relations.measure(relations.from_dict(local_dict(prior, channel)))
    for key in ("eps_d", "eps_i", "sigma_min"):
        assert out[key]["exact"] is None
        assert close(out[key]["value"], getattr(exact, key).value)
    assert out["eps_m"]["enclosure"] is None
    assert close(out["eps_m"]["value"], exact.eps_m.value)
    table = run_cli("measure", str(path))
    assert table.returncode == 0 and "float" in table.stdout.lower()


def test_central_npz_cli_with_infinities(tmp_path):
    """D^2 over 3 values with zeros: infinities come out as "inf" in float mode too."""
    k, r = 3, 2
    rng = np.random.default_rng(5)
    weights = rng.integers(0, 4, size=(k**r, 3))
    weights[weights.sum(axis=1) == 0, 0] = 1
    weights[0] = [1, 0, 0]
    weights[1] = [0, 1, 1]
    channel = [[Fraction(int(w), int(row.sum())) for w in row] for row in weights]
    prior = [Fraction(1, k**r)] * (k**r)
    path = save_npz(tmp_path / "c.npz", prior, channel, setting=np.array("central"), records=np.array(r),
                    domain_size=np.array(k))
    proc = run_cli("measure", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["mode"] == "float" and out["setting"] == "central" and out["inputs"] == "9"
    assert out["eps_d"]["value"] == "inf" and out["eps_i"]["value"] == "inf"
    exact = relations.measure(relations.from_dict(hamming_dict(prior, channel, k, r)))
    assert close(out["sigma_min"]["value"], exact.sigma_min.value)
    assert close(out["eps_m"]["value"], exact.eps_m.value)


def test_float_tolerance_on_row_sums(tmp_path):
    """Rows summing to 1 within 1e-9 are accepted in float mode; 1e-6 off is rejected."""
    row = [0.1] * 10
    assert sum(row) != 1.0
    np.savez(tmp_path / "ok.npz", prior=np.array([0.5, 0.5]), channel=np.array([row, row[::-1]]),
             mode=np.array("float"))
    m = relations.measure(relations.load(tmp_path / "ok.npz"))
    assert m.eps_d.value == pytest.approx(0.0, abs=1e-12) and not m.exact
    # by default the same file is taken exactly: both rows renormalised to exactly 1/10 each
    np.savez(tmp_path / "exact.npz", prior=np.array([0.5, 0.5]), channel=np.array([row, row[::-1]]))
    m = relations.measure(relations.load(tmp_path / "exact.npz"))
    assert m.exact and m.eps_d.exact.ratio == 1
    np.savez(tmp_path / "bad.npz", prior=np.array([0.5, 0.5]),
             channel=np.array([[0.5, 0.5 + 1e-6], [0.5, 0.5]]))
    with pytest.raises(relations.InputError):
        relations.load(tmp_path / "bad.npz")


def test_large_local_float_channel(tmp_path):
    """A larger local float channel (200 x 300) is measured quickly and matches a numpy brute force."""
    rng = np.random.default_rng(11)
    q = rng.random((200, 300)) ** 3
    q[rng.random(q.shape) < 0.05] = 0.0
    q /= q.sum(axis=1, keepdims=True)
    p = rng.random(200)
    p /= p.sum()
    np.savez(tmp_path / "big.npz", prior=p, channel=q)
    m = relations.measure(relations.load(tmp_path / "big.npz"))
    # brute force in numpy over all ordered pairs, column by column
    with np.errstate(divide="ignore", invalid="ignore"):
        mx, mn = q.max(axis=0), q.min(axis=0)
        expected_d = np.max(np.where(mx > 0, mx / mn, 0.0))
        joint = p[:, None] * q
        expected_i = np.max(np.where(joint.max(axis=0) > 0, joint.max(axis=0) / joint.min(axis=0), 0.0))
    assert close(m.eps_d.value, math.log(expected_d))
    assert close(m.eps_i.value, math.log(expected_i))
    assert close(m.sigma_min.value, math.log(p.min() / p.max()))
    assert math.isclose(m.eps_m.value, mi_numpy(list(p), [list(r) for r in q]), rel_tol=1e-9)


def test_edge_list_of_hamming_pairs_equals_dense():
    """The explicit edge-list path and the vectorised D^r path agree when the edges are the Hamming pairs."""
    from bruteforce import hamming_pairs

    k, r = 2, 2
    prior = [Fraction(1, 10), Fraction(2, 10), Fraction(3, 10), Fraction(4, 10)]
    channel = [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 5), Fraction(4, 5)],
               [Fraction(2, 3), Fraction(1, 3)], [Fraction(0), Fraction(1)]]
    a = relations.measure(relations.from_dict(hamming_dict(prior, channel, k, r)))
    b = relations.measure(relations.from_dict(edges_dict(prior, channel, hamming_pairs(k, r))))
    for key in ("eps_d", "eps_i", "sigma_min"):
        assert getattr(a, key).exact == getattr(b, key).exact


def test_the_callers_float_arrays_are_left_writeable_and_cannot_change_the_mechanism():
    import numpy as np

    from relations import Mechanism, measure

    q = np.array([[0.75, 0.25], [0.25, 0.75]])
    p = np.array([0.5, 0.5])
    mech = Mechanism.local(q, prior=p)
    assert q.flags.writeable and p.flags.writeable
    before = measure(mech).eps_d.value
    q[:] = [[0.5, 0.5], [0.5, 0.5]]  # the caller reuses its arrays
    p[:] = [1.0, 0.0]
    assert measure(mech).eps_d.value == before == measure(Mechanism.local([[0.75, 0.25], [0.25, 0.75]])).eps_d.value
