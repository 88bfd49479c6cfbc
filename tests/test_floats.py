"""Floats, honestly: a float is its exact binary value, float rows are renormalised exactly,
and a correct mechanism written in floats never 'fails' its documented budget."""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from relations import Mechanism, check
from relations.errors import InputError
from relations.model import FLOAT_ROUNDING, MAX_EXACT_FLOAT_ENTRIES, Channel, Prior
from relations.model._floats import exact_float_rows, float_rows

EPS = [0.1, 0.5, 1.0, math.log(3), 2.0, 5.0]


def krr_floats(k: int, eps: float) -> np.ndarray:
    """k-RR as a numpy user writes it."""
    e = np.exp(eps)
    p, q = e / (e + k - 1), 1 / (e + k - 1)
    return np.where(np.eye(k, dtype=bool), p, q)


def oue_floats(d: int, eps: float) -> np.ndarray:
    """Optimised unary encoding over d inputs, all 2^d bit vectors as outputs."""
    q = 1 / (math.exp(eps) + 1)
    rows = []
    for x in range(d):
        row = []
        for bits in itertools.product((0, 1), repeat=d):
            pr = 1.0
            for i, b in enumerate(bits):
                one = 0.5 if i == x else q
                pr *= one if b else 1 - one
            row.append(pr)
        rows.append(row)
    return np.array(rows)


def status(mech: Mechanism, claim: str) -> str:
    return str(check(mech, [claim], relations=[]).claims[0].status)


@pytest.mark.parametrize("eps", EPS)
@pytest.mark.parametrize("k", [2, 3, 5, 8])
def test_correct_krr_in_floats_never_fails(k, eps):
    q = krr_floats(k, eps)
    for mech in (Mechanism.local(q), Mechanism.local(q.tolist()),
                 Mechanism.local(Channel.of(q, exact=False))):
        got = status(mech, f"eps_d <= {eps!r}")
        assert got in ("holds", "holds within rounding")
    # and a real violation is still caught: the diagonal raised by a relative 1e-6
    bad = q.copy()
    bad[0, 0] *= 1 + 1e-6
    bad[0, 1:] *= (1 - bad[0, 0]) / bad[0, 1:].sum()
    assert status(Mechanism.local(bad), f"eps_d <= {eps!r}") == "fails"


@pytest.mark.parametrize("eps", [0.5, 1.0, 3.0])
def test_correct_oue_in_floats_never_fails(eps):
    mech = Mechanism.local(oue_floats(4, eps))
    assert status(mech, f"eps_d <= {eps!r}") in ("holds", "holds within rounding")
    # eps_d of OUE is eps exactly for the intended real entries; the float one is within rounding
    vals = check(mech, relations=[]).values
    assert abs(vals.measures.eps_d.value - eps) <= vals.margins["eps_d"] + 1e-15


def test_rows_are_renormalised_exactly():
    row = [0.1, 0.2, 0.7]  # binary values sum to 1 + 2**-54 ... not exactly 1
    total = sum(map(Fraction, row))
    assert total != 1
    p = Prior.of(row)
    assert p.exact == tuple(Fraction(v) / total for v in row)
    assert sum(p.exact) == 1
    assert p.rounding == FLOAT_ROUNDING + 2 * abs(total - 1)
    # exact text that does not sum to 1 is still an error
    with pytest.raises(InputError, match="not 1"):
        Prior.of(["1/10", "2/10", "7/10000"])
    # floats too far from 1 are an error
    with pytest.raises(InputError, match="tolerance"):
        Prior.of([0.1, 0.2, 0.7001])


def test_exact_input_has_no_rounding():
    mech = Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]])
    assert mech.rounding == (0, 0)
    assert status(mech, "eps_d < ln(3)") == "fails"  # exact: no rounding to hide behind


def test_large_float_arrays_stay_in_float_mode_and_never_fail():
    k = int(math.isqrt(MAX_EXACT_FLOAT_ENTRIES)) + 1
    mech = Mechanism.local(krr_floats(k, 1.0))
    assert not mech.exact
    assert status(mech, "eps_d <= 1") in ("holds", "holds within rounding")
    assert status(mech, "eps_d <= 0.999") == "fails"


def test_float_prior_accepted_and_reported(tmp_path):
    path = tmp_path / "m.json"
    e = math.exp(1.0)
    path.write_text(json.dumps({"setting": "local", "prior": [0.9, 0.1],
                                "channel": [[e / (e + 1), 1 / (e + 1)], [1 / (e + 1), e / (e + 1)]]}))
    out = subprocess.run([sys.executable, "-m", "relations", "check", str(path), "--claim", "eps_d <= 1", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["measures"]["rounding"]["channel"] >= float(FLOAT_ROUNDING)
    assert data["claims"][0]["status"] in ("holds", "holds within rounding")


def test_npz_krr_checks_against_its_eps(tmp_path):
    path = tmp_path / "krr.npz"
    eps = math.log(3)
    np.savez(path, prior=np.full(4, 0.25), channel=krr_floats(4, eps))
    out = subprocess.run([sys.executable, "-m", "relations", "check", str(path), "--claim", "eps_d <= ln(3)",
                          "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["claims"][0]["status"] in ("holds", "holds within rounding")


@st.composite
def float_stochastic(draw):
    """Float rows as a user's code makes them: powers spread the exponents, some entries zero or subnormal."""
    n, m = draw(st.integers(1, 5)), draw(st.integers(1, 6))
    a = np.array(draw(st.lists(st.lists(st.floats(0, 1), min_size=m, max_size=m), min_size=n, max_size=n)))
    a = a ** draw(st.integers(1, 60))
    a[:, 0] += (a.sum(axis=1) == 0)
    a = a / a.sum(axis=1, keepdims=True)
    if draw(st.booleans()):
        a[:, -1] += 5e-324 * (a[:, -1] == 0)  # a subnormal entry
    return a


@settings(max_examples=200, deadline=None)
@given(float_stochastic())
def test_float_arrays_taken_exactly_match_the_entry_by_entry_reading(a):
    """The vectorised integer reading of float rows (``exact_float_rows``) equals reading each float as a
    Fraction and dividing by the exact row sum, and its floats are the exact values correctly rounded."""
    try:
        a = float_rows(a, "channel")
    except InputError:
        return
    rows = [[Fraction(v) for v in row] for row in a.tolist()]
    sums = [sum(row, Fraction(0)) for row in rows]
    if any(abs(s - 1) > Fraction(1e-9) for s in sums):
        with pytest.raises(InputError):
            exact_float_rows(a, "channel")
        return
    expected = [[v / s for v in row] for row, s in zip(rows, sums)]
    got, rho, floats = exact_float_rows(a, "channel")
    assert got == expected
    assert rho == FLOAT_ROUNDING + 2 * max(abs(s - 1) for s in sums)
    assert floats.tolist() == [[float(v) for v in row] for row in expected]
    ch = Channel.of(a, exact=True)
    assert ch.exact == tuple(tuple(r) for r in expected) and ch.array.tolist() == floats.tolist()
