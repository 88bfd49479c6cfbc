"""The example files (issue 31, item 11): each is valid, measured or audited by the command line, with values
derived here independently (brute force over the pairs, in Fractions), and each is named in the docs."""

from __future__ import annotations

import json
import subprocess
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from bruteforce import (
    brute_eps_d,
    brute_eps_i,
    brute_sigma_min,
    dense_product_channel,
    dense_product_prior,
    hamming_pairs,
    local_pairs,
)
from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
NEW = ["central_noisy_count.json", "product_survey.json", "age_brackets_graph.json", "krr_floats.npz", "randomizer.py",
       "cks_samplers.py"]


def _run(*args: str) -> subprocess.CompletedProcess:
    return run_cli(*args, timeout=300)  # in this process (tests/conftest.py), the repository's package


def _measured(name: str) -> dict:
    run = _run("measure", f"examples/{name}", "--json")
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def _ratio(budget: dict) -> Fraction:
    return Fraction(budget["ratio"])


def _log_ratio(brute) -> Fraction:
    """The ratio of a bruteforce extreme ``(ratio, where it is attained)``."""
    return Fraction(brute[0])


def _fractions(rows):
    return [[Fraction(v) for v in row] for row in rows]


def test_central_noisy_count_is_dense_d_r():
    spec = json.loads((EXAMPLES / "central_noisy_count.json").read_text())
    channel = _fractions(spec["channel"])
    k, r = len(spec["domain"]), spec["records"]
    assert len(channel) == k**r
    counts = [bin(i).count("1") for i in range(k**r)]  # row i is the database of i's binary digits
    assert all(channel[i] == channel[j] for i in range(4) for j in range(4) if counts[i] == counts[j])  # a count
    pairs = hamming_pairs(k, r)
    got = _measured("central_noisy_count.json")
    assert _ratio(got["eps_d"]) == _log_ratio(brute_eps_d(channel, pairs)) == 2  # by hand: (1/2) / (1/4)
    prior = [Fraction(1, k**r)] * k**r
    assert _ratio(got["eps_i"]) == _log_ratio(brute_eps_i(prior, channel, pairs))


def test_product_survey_is_measured_without_expanding():
    spec = json.loads((EXAMPLES / "product_survey.json").read_text())
    w = _fractions(spec["channel"]["product"])
    runs = spec["prior"]["product"]
    assert sum(run["records"] for run in runs) == spec["records"] == 10**6
    got = _measured("product_survey.json")
    # one record of each run is enough: the budgets are per differing record, the others cancel
    priors = [[Fraction(v) for v in run["prior"]] for run in runs]
    channel, prior, pairs = dense_product_channel(w, 2), dense_product_prior(priors), hamming_pairs(2, 2)
    assert _ratio(got["eps_d"]) == _log_ratio(brute_eps_d(channel, pairs)) == Fraction(3, 4) / Fraction(1, 4)
    assert _ratio(got["eps_i"]) == _log_ratio(brute_eps_i(prior, channel, pairs))
    assert _ratio(got["sigma_min"]) == _log_ratio(brute_sigma_min(prior, pairs)) == Fraction(1, 10) / Fraction(9, 10)


def test_age_brackets_graph_uses_its_edges_only():
    spec = json.loads((EXAMPLES / "age_brackets_graph.json").read_text())
    channel, prior = _fractions(spec["channel"]), [Fraction(v) for v in spec["prior"]]
    for x, row in enumerate(channel):  # Q[x][y] proportional to 2^-|x-y|
        assert all(row[y] * 2 ** abs(x - y) == row[x] for y in range(4))
    edges = [tuple(e) for e in spec["neighbours"]]
    got = _measured("age_brackets_graph.json")
    assert _ratio(got["eps_d"]) == _log_ratio(brute_eps_d(channel, edges))
    assert _ratio(got["eps_i"]) == _log_ratio(brute_eps_i(prior, channel, edges))
    assert _ratio(got["eps_d"]) < _log_ratio(brute_eps_d(channel, list(combinations(range(4), 2))))


def test_krr_floats_npz_is_exact_at_the_binary_values():
    with np.load(EXAMPLES / "krr_floats.npz") as archive:
        assert sorted(archive.files) == ["channel", "prior"] and archive["channel"].dtype == np.float64
        rows = [[Fraction(float(v)) for v in row] for row in archive["channel"]]
    channel = [[v / sum(row) for v in row] for row in rows]  # each row renormalised exactly (docs/mechanism-files.md)
    got = _measured("krr_floats.npz")
    assert _ratio(got["eps_d"]) == _log_ratio(brute_eps_d(channel, local_pairs(3)))
    assert abs(got["eps_d"]["value"] - 1) < 1e-12  # k-RR at eps = 1, up to the floats' rounding


@pytest.mark.parametrize("function, status, ratio", [
    # by hand: keep with 1/2, else each of the 3 others with 1/6; the biased one gives the next value 1/4, others 1/8
    ("privatise", 0, Fraction(1, 2) / (Fraction(1, 2) / 3)),
    ("privatise_biased", 1, Fraction(1, 2) / (Fraction(1, 2) / 4)),
])
def test_randomizer_is_audited_exactly(tmp_path, function, status, ratio):
    run = _run("audit", f"examples/randomizer.py:{function}", "--domain", "0,1,2,3", "--eps", "ln(3)", "--json",
               "--workers", "1")  # one worker process (the default, one per core, is tested in test_audit_closed_world)
    assert run.returncode == status, run.stderr
    report = json.loads(run.stdout)
    assert report["route"] == "white-box" and Fraction(report["eps_d"]["ratio"]) == ratio
    assert not (EXAMPLES / "__pycache__").exists()  # the audit imports the file without writing next to it


@pytest.mark.parametrize("eps, status, verdict", [("3.15", 0, "consistent"), ("2.85", 1, "violated")])
def test_cks_sampler_is_certified_both_ways(eps, status, verdict):
    """x + Z clamped to 0..3, Z discrete Laplace of scale 1: eps_d = ln(P(Z <= 0) / P(Z <= -3)) = 3 by hand (the
    tail below -k is e^-k times the tail below 0), so a claim 5 % above is consistent and 5 % below violated, both
    on the white-box route with an interval that contains 3."""
    run = _run("audit", "examples/cks_samplers.py:clamped_laplace", "--domain", "0,1,2,3", "--outputs", "0,1,2,3",
               "--eps", eps, "--json", "--workers", "1")
    assert run.returncode == status, run.stderr
    report = json.loads(run.stdout)
    assert report["verdict"] == verdict and report["route"] == "white-box (depth-bounded)"
    assert not (EXAMPLES / "__pycache__").exists()


@pytest.mark.parametrize("name", NEW)
def test_each_example_is_named_in_the_docs(name):
    text = "".join(p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
    assert name in text
