"""``relations audit ... --repeat K`` (issue 45): what K daily reports of an audited randomizer leak.

Exact channels: the values of K uses are compared with mpmath sums over the count vectors written out
here (mutual information, maximal leakage) and with the expansion of the ``m^K`` output sequences; other
routes: only what their certified bounds say about ``eps_d`` (``K`` times one use's), nothing exact.
"""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from fractions import Fraction as F
from types import SimpleNamespace

import mpmath
import numpy as np
import pytest
from conftest import run_cli
from test_composition import expanded_by_hand

from relations import Mechanism, measure
from relations.app._audit_repeat import repeated_report, repeated_text
from relations.audit import audit


def rr(x, rng):
    return x if rng.random() < 0.75 else 1 - x


def test_exact_channel_repeated_matches_the_expansion():
    out = repeated_report(audit(rr, domain=[0, 1]), 3)
    assert out["exact"] and "20" not in out["note"] and "4 count vectors" in out["note"]
    rows = {r["name"]: r for r in out["notions"]}
    assert rows["eps_d"]["exact"] == "ln(27)"  # (3/4 / 1/4)^3
    brute = measure(expanded_by_hand([(Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]]), 3)]))
    lo, hi = (F(x) for x in rows["eps_m"]["enclosure"])
    assert lo <= F(brute.eps_m.enclosure.upper) and F(brute.eps_m.enclosure.lower) <= hi
    assert {"delta(1)", "maximal_leakage", "bayes_vulnerability", "rho"} <= set(rows)
    text = repeated_text(out)
    assert text.startswith("3 reports: 3 independent reports") and "ln(27)" in text and "maximal_leakage" in text


def test_factorised_channel_says_only_eps_d():
    def unary(x, rng):
        q = np.full(4, 0.25)
        q[x] = 0.75
        return rng.random(size=4) < q

    report = audit(unary, domain=[0, 1, 2, 3], max_paths=8)
    assert report.bits == 4  # the factorised route: 2^4 outputs never expanded
    out = repeated_report(report, 5)
    # two coordinates differ between inputs, each by a ratio of at most 3: eps_d = ln 9 per use
    assert not out["exact"] and [r["name"] for r in out["notions"]] == ["eps_d"]
    assert out["notions"][0]["exact"] == "5 ln(9)" and math.isclose(out["notions"][0]["value"], 5 * math.log(9))
    assert "never expanded" in out["note"]


def test_bounded_channels_are_not_claimed_exact():
    sampled = SimpleNamespace(mechanism=None, bits=0, sampled=SimpleNamespace(eps_d_lower=0.5, alpha=0.05))
    out = repeated_report(sampled, 30)
    assert not out["exact"] and not out["notions"] and ">= 15 nats with confidence 0.95" in out["note"]
    cut = SimpleNamespace(mechanism=None, bits=0, sampled=None, white_box_interval={"lower": "ln(2)", "upper": "ln(3)"},
                          eps_d_lower="")
    out = repeated_report(cut, 4)
    assert not out["exact"] and "[4 x ln(2), 4 x ln(3)]" in out["note"]
    assert repeated_text(out).startswith("4 reports: the channel is known only")


@pytest.mark.parametrize("k", [3, pytest.param(30, marks=pytest.mark.slow)])
def test_cli_daily_reports_every_notion(k):
    """The issue's question in one command: 30 reports of examples/randomizer.py's 4-ary randomized response."""
    proc = run_cli("audit", "examples/randomizer.py:privatise", "--domain", "0,1,2,3", "--eps", "ln(3)",
                   "--repeat", str(k), "--workers", "0", "--json")
    assert proc.returncode == 0, proc.stderr
    rep = json.loads(proc.stdout)["repeated"]
    assert rep["exact"] and rep["uses"] == k and f"{math.comb(k + 3, 3)} count vectors" in rep["note"]
    rows = {r["name"]: r for r in rep["notions"]}
    assert rows["eps_d"]["exact"] == f"ln({3 ** k})"
    with mpmath.workdps(40):
        p, q = mpmath.mpf(1) / 2, mpmath.mpf(1) / 6
        hy = ml = mpmath.mpf(0)
        for combo in itertools.combinations_with_replacement(range(4), k):
            c = Counter(combo)
            w = mpmath.mpf(math.factorial(k))
            for v in c.values():
                w /= math.factorial(v)
            like = [p ** c.get(x, 0) * q ** (k - c.get(x, 0)) for x in range(4)]
            seq = sum(like) / 4
            hy -= w * seq * mpmath.log(seq)
            ml += w * max(like)
        mi = hy - k * -(p * mpmath.log(p) + 3 * q * mpmath.log(q))
        lo, hi = (mpmath.mpf(x) for x in rows["eps_m"]["enclosure"])
        assert lo - mpmath.mpf(10) ** -30 <= mi <= hi + mpmath.mpf(10) ** -30
        assert abs(rows["maximal_leakage"]["value"] - float(mpmath.log(ml))) < 1e-12
