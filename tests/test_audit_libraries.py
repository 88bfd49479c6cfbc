"""Library mechanisms audited as their users call them (the audit extra: ``pip install -e '.[audit]'``).

Expected budgets are derived by hand: a correct mechanism has ``eps_d = eps``; pure-ldp before
1.2.0 draws the user's own unary-encoding bit like the others and then sets it with
probability ``p`` (its issue 11), so that bit is 1 with ``p' = p + (1 - p) q`` and
``eps_d = ln(p'(1 - q) / (q (1 - p')))``: ``ln(e^eps + 2)`` for OUE and
``ln(e^eps + e^(eps/2) + 1)`` for SUE.  Set ``RELATIONS_TEST_PYTHON`` to an interpreter with
other library versions to audit those through ``--python``.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
from importlib.metadata import version

import pytest
from conftest import run_cli

from relations.audit import audit_target
from relations.audit._libraries import ADAPTERS

#: The time limit of one call of a randomizer, far above what any call here takes: what these tests check is the
#: audits' verdicts, and a loaded machine (a parallel suite) must not turn one into an error (30 s, the default,
#: did under a load average of 14).
LIMITS = {"call_seconds": 600.0}

OTHER_PYTHON = os.environ.get("RELATIONS_TEST_PYTHON")


def _release(dist: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version(dist).split(".")[:3] if p.isdigit())


def _ue_truth(eps: float, oue: bool, buggy: bool) -> float:
    if oue:
        p, q = 0.5, 1 / (math.exp(eps) + 1)
    else:
        p = math.exp(eps / 2) / (math.exp(eps / 2) + 1)
        q = 1 - p
    if buggy:
        p = p + (1 - p) * q
    return math.log(p * (1 - q) / (q * (1 - p)))


_SLOW = pytest.mark.slow


def _needs(module: str) -> None:
    """Skip unless ``module`` is installed, without importing it here: the audits import the libraries in their
    workers, and this process need not (diffprivlib and its scikit-learn cost 1-2 s of CPU, and every object they
    leave here is one more that each later audit in this process looks through for generators)."""
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed")


#: Each case starts a worker importing pure-ldp (and scikit-learn with it: about 3 s of CPU); the default run keeps
#: OUE at eps = 1, the slow tier the other budgets and SUE (the same UEClient, use_oue=False: only p and q differ).
@pytest.mark.parametrize(("name", "eps"), [
    *[pytest.param("pure-ldp.oue", eps, marks=() if eps == 1.0 else _SLOW) for eps in (0.5, 1.0, 2.0)],
    *[pytest.param("pure-ldp.sue", eps, marks=_SLOW) for eps in (0.5, 1.0, 2.0)]])
def test_pure_ldp_unary_encoding(name, eps):
    _needs("pure_ldp")
    buggy = _release("pure-ldp") < (1, 2, 0)
    report = audit_target(name, eps=eps, k=3, **LIMITS)
    truth = _ue_truth(eps, name.endswith("oue"), buggy)
    assert report.measures.eps_d.value == pytest.approx(truth, rel=1e-12)
    assert report.verdict == ("violated" if buggy else "consistent")
    assert ("differs" in report.conformance) == buggy


#: One worker per case, importing its library (pure-ldp and diffprivlib import scikit-learn: 2-3 s of CPU each).  The
#: default run keeps one case of each client class; the slow tier adds the other settings of the same class: BLH
#: beside OLH (LHClient / LH_Client with use_olh / optimal, over the same 16 hash seeds), multi-freq-ldpy's SUE
#: beside its OUE (UE_Client, optimal=False), and its SS at k = 4 (a subset of one item: consistent), whose client
#: the default run audits at k = 8 (test_multi_freq_ldpy_ss_puts_the_true_value_first).
@pytest.mark.parametrize("name", ["pure-ldp.de", "pure-ldp.olh", pytest.param("pure-ldp.blh", marks=_SLOW),
                                  pytest.param("pure-ldp.hm", marks=_SLOW),
                                  "multi-freq-ldpy.olh", pytest.param("multi-freq-ldpy.blh", marks=_SLOW),
                                  "multi-freq-ldpy.grr", "multi-freq-ldpy.oue",
                                  pytest.param("multi-freq-ldpy.sue", marks=_SLOW),
                                  pytest.param("multi-freq-ldpy.ss", marks=_SLOW), "multi-freq-ldpy.adp",
                                  "diffprivlib.binary", "diffprivlib.exponential_categorical"])
def test_correct_library_mechanisms_are_consistent_white_box(name):
    _needs(ADAPTERS[name].library.replace("-", "_"))
    eps = 1.0
    report = audit_target(name, eps=eps, k=4, **LIMITS)
    hashing = name.endswith("lh")  # exact given each of 16 hash seeds (the seed is part of the report)
    assert report.route == ("white-box over 16 hash seeds" if hashing else "white-box")
    assert report.verdict == "consistent", report.summary()
    assert report.measures.eps_d.value == pytest.approx(eps, rel=1e-12)
    assert "differs" not in report.conformance


#: The black-box route on a library: 20,000 runs per input in the slow tier; the default run takes the fewest that
#: still certify a positive lower bound three standard deviations off the expected counts (Clopper-Pearson at
#: 0.05 / 18, the Bonferroni share of 3 x 2 pairs x 3 outputs, one round): OpenDP's 3-RR at eps = 1 (p = e / (e + 2),
#: q = 1 / (e + 2); each call about 0.25 ms) from 300 runs per input (0.09 nats there; 200 runs: -0.1), the truncated
#: geometric (P(0 | 0) = 1 / (1 + e^-1), P(0 | 2) = e^-2 / (1 + e^-1)) from 100 (0.30 nats), run at 1000 since the
#: worker's imports dominate there.
@pytest.mark.parametrize(("name", "samples"), [pytest.param("opendp.rr", 20_000, marks=_SLOW),
                                               ("opendp.rr", 300),
                                               pytest.param("opendp.rr_bool", 20_000, marks=_SLOW),
                                               pytest.param("diffprivlib.geometric_truncated", 20_000, marks=_SLOW),
                                               ("diffprivlib.geometric_truncated", 1_000)])
def test_black_box_libraries(name, samples):
    _needs(ADAPTERS[name].library)
    report = audit_target(name, eps=1.0, k=3, samples=samples, seed=1, **LIMITS)
    assert report.route == "black-box" and report.verdict == "consistent", report.summary()
    assert 0 < report.sampled.eps_d_lower <= report.claimed + 1e-9
    if report.sampled.conformance is not None:
        assert report.sampled.conformance > 1e-3


def test_list_names_every_adapter():
    out = run_cli("audit", "--list", "--json")  # in this process (tests/conftest.py; python -m relations: test_cli.py)
    assert out.returncode == 0
    assert {m["name"] for m in json.loads(out.stdout)} == set(ADAPTERS)


@pytest.mark.skipif(not OTHER_PYTHON, reason="RELATIONS_TEST_PYTHON is not set")
def test_other_interpreter():
    probe = subprocess.run([OTHER_PYTHON, "-c", "from importlib.metadata import version; print(version('pure-ldp'))"],
                           capture_output=True, text=True)
    if probe.returncode:
        pytest.skip("no pure-ldp under RELATIONS_TEST_PYTHON")
    release = tuple(int(p) for p in probe.stdout.strip().split(".")[:3])
    report = audit_target("pure-ldp.oue", eps=1.0, k=3, python=OTHER_PYTHON, workers=2, **LIMITS)
    buggy = release < (1, 2, 0)
    assert report.measures.eps_d.value == pytest.approx(_ue_truth(1.0, True, buggy), rel=1e-12)
    assert report.verdict == ("violated" if buggy else "consistent")


@pytest.mark.parametrize("k, eps", [(8, 1.0), pytest.param(6, 0.5, marks=_SLOW)])  # (a worker each: the second slow)
def test_multi_freq_ldpy_ss_puts_the_true_value_first(k, eps):
    """SS_Client returns the true value first whenever it is sampled, so an ordered report (x, a, ...) is
    impossible for the input a: eps_d = inf as returned, wherever the subset holds more than one item
    (sub_k = rint(k / (e^eps + 1)) >= 2 here; at k = 4, eps = 1 it holds one item and cannot leak)."""
    _needs("multi_freq_ldpy")
    assert round(k / (math.exp(eps) + 1)) >= 2
    report = audit_target("multi-freq-ldpy.ss", eps=eps, k=k, **LIMITS)
    assert report.route == "white-box" and report.verdict == "violated"
    assert report.measures.eps_d.value == math.inf
    w = report.measures.eps_d.witness
    mech = report.mechanism
    x, x2, y = mech.input_label(w.x), mech.input_label(w.x_prime), mech.output_label(w.y)
    first, *rest = y.strip("()").split(",")
    assert first.strip() == x and x2 in [r.strip() for r in rest]  # x first, and x' in the report
