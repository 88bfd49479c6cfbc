"""The paper's worked examples, with every expected number derived here from first principles.

* Section 5: local, ``D = {1, 2}``, channel ``[[0.65, 0.35], [0.35, 0.65]]``
  with prior ``0.95/0.05`` (examples/paper_example.json) and ``0.55/0.45``
  (examples/paper_example_balanced.json).
* Thm 6 construction: central, datasets ``{(1,1), (1,2), (2,2)}`` with the
  one-record neighbours, built from its joint distribution.
* Thm 8 construction: local ``2 x 2`` identity channel with prior ``(beta, 1-beta)``.

Nothing is copied from the paper or from the tool's output: ratios are
enumerated with Fractions over all ordered pairs and outputs, mutual
information is ``H(Y) - H(Y|X)`` (or the paper's closed form) in mpmath.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import mpmath
import pytest
from bruteforce import assert_contains, entropy_mpmath, fraction_of, mi_mpmath, mpf_of, text
from conftest import EXAMPLES, run_cli

import relations

P65, P35 = Fraction("0.65"), Fraction("0.35")
CHANNEL = [[P65, P35], [P35, P65]]
EXAMPLE_PRIORS = {
    "paper_example.json": [Fraction("0.95"), Fraction("0.05")],
    "paper_example_balanced.json": [Fraction("0.55"), Fraction("0.45")],
}
PAIRS = [(0, 1), (1, 0)]  # local, D = {1, 2}: the two ordered neighbour pairs


def mi_by_entropies(prior, channel) -> mpmath.mpf:
    """``I(X;Y) = H(Y) - H(Y|X)`` at 60 digits (a formula the tool does not use)."""
    with mpmath.workdps(60):
        py = [sum(prior[x] * channel[x][y] for x in range(len(prior))) for y in range(len(channel[0]))]
        h_y = entropy_mpmath(py)
        h_y_given_x = mpmath.fsum(mpf_of(prior[x]) * entropy_mpmath(channel[x]) for x in range(len(prior)))
        return h_y - h_y_given_x


def derive_section5(prior):
    """Every ratio of the example by hand, and the extremes with their arg-sets."""
    d = {(x, xp, y): CHANNEL[x][y] / CHANNEL[xp][y] for x, xp in PAIRS for y in (0, 1)}
    i = {(x, xp, y): (prior[x] * CHANNEL[x][y]) / (prior[xp] * CHANNEL[xp][y]) for x, xp in PAIRS for y in (0, 1)}
    s = {(x, xp): prior[x] / prior[xp] for x, xp in PAIRS}
    eps_d, eps_i, sig = max(d.values()), max(i.values()), min(s.values())
    return {
        "eps_d": (eps_d, {k for k, v in d.items() if v == eps_d}),
        "eps_i": (eps_i, {k for k, v in i.items() if v == eps_i}),
        "sigma_min": (sig, {k for k, v in s.items() if v == sig}),
    }


@pytest.mark.parametrize("name", sorted(EXAMPLE_PRIORS))
def test_section5_example_exact(name):
    prior = EXAMPLE_PRIORS[name]
    expected = derive_section5(prior)
    # The hand enumeration agrees with the closed forms (both priors favour input 1).
    assert expected["eps_d"][0] == P65 / P35 == Fraction(13, 7)
    assert expected["eps_i"][0] == (prior[0] * P65) / (prior[1] * P35)
    assert expected["sigma_min"][0] == prior[1] / prior[0]

    mech = relations.load(EXAMPLES / name)
    # The file holds exactly the mechanism described (decimal text read as exact rationals).
    assert mech.prior.exact == tuple(prior)
    assert mech.channel.exact == tuple(tuple(r) for r in CHANNEL)
    m = relations.measure(mech)
    assert m.exact
    for key in ("eps_d", "eps_i", "sigma_min"):
        budget = getattr(m, key)
        value, attaining = expected[key]
        assert budget.exact.is_finite and budget.exact.ratio == value, (key, budget.exact, value)
        assert budget.value == pytest.approx(math.log(value), rel=1e-14)
        w = budget.witness
        got = (w.x, w.x_prime) if key == "sigma_min" else (w.x, w.x_prime, w.y)
        assert got in attaining, (key, got, attaining)
    assert m.sigma_min.value < 0

    truth = mi_by_entropies(prior, CHANNEL)
    enc = m.eps_m.enclosure
    assert enc.width < Fraction(1, 10**30)
    assert_contains(enc, truth)
    assert m.eps_m.value == pytest.approx(float(truth), rel=1e-13)
    # A second, independent formula (sum p(x,y) ln(p(x,y)/(p(x)p(y)))) agrees with the first.
    with mpmath.workdps(60):
        assert abs(mi_mpmath(prior, CHANNEL, dps=60) - truth) < mpmath.mpf(10) ** -55


def test_section5_priors_change_eps_i_but_not_eps_d():
    skewed = relations.measure(relations.load(EXAMPLES / "paper_example.json"))
    balanced = relations.measure(relations.load(EXAMPLES / "paper_example_balanced.json"))
    assert skewed.eps_d.exact == balanced.eps_d.exact
    assert skewed.eps_i.exact > balanced.eps_i.exact > balanced.eps_d.exact
    assert skewed.sigma_min.exact < balanced.sigma_min.exact < relations.LogRatio.of(Fraction(1))


def test_section5_from_dict_number_literals_are_exact():
    """JSON number literals 0.65 etc. mean 13/20, not the nearest double."""
    data = json.loads((EXAMPLES / "paper_example.json").read_text())
    literal = relations.loads(json.dumps(data).replace('"0.65"', "0.65").replace('"0.35"', "0.35")
                              .replace('"0.95"', "0.95").replace('"0.05"', "0.05"))
    assert relations.measure(literal).eps_d.exact.ratio == P65 / P35
    # the binary doubles would give a different ratio
    assert Fraction(0.65) / Fraction(0.35) != P65 / P35
    as_fractions = relations.from_dict({"setting": "local", "prior": ["19/20", "1/20"],
                                        "channel": [["13/20", "7/20"], ["7/20", "13/20"]]})
    a, b = relations.measure(literal), relations.measure(as_fractions)
    for key in ("eps_d", "eps_i", "sigma_min"):
        assert getattr(a, key).exact == getattr(b, key).exact


@pytest.mark.parametrize("name", sorted(EXAMPLE_PRIORS))
def test_section5_cli_json(name):
    prior = EXAMPLE_PRIORS[name]
    expected = derive_section5(prior)
    proc = run_cli("measure", str(EXAMPLES / name), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["mode"] == "exact" and out["setting"] == "local"
    for key in ("eps_d", "eps_i", "sigma_min"):
        value = expected[key][0]
        assert Fraction(out[key]["ratio"]) == value
        assert out[key]["exact"] == f"ln({value})"
        assert out[key]["value"] == pytest.approx(math.log(value), rel=1e-14)
        w = out[key]["witness"]
        got = (w["x_index"], w["x_prime_index"]) + (() if key == "sigma_min" else (w["y_index"],))
        assert got in expected[key][1]
        labels = ["1", "2"]
        assert w["x"] == labels[w["x_index"]] and w["x_prime"] == labels[w["x_prime_index"]]
    lo, hi = (Fraction(s) for s in out["eps_m"]["enclosure"])
    truth = fraction_of(mi_by_entropies(prior, CHANNEL))
    assert lo <= truth <= hi and hi - lo < Fraction(1, 10**30)


# --------------------------------------------------------------------------- Thm 6 and Thm 8

BETAS = [Fraction(1, 2), Fraction(1, 3), Fraction(1, 10), Fraction(9, 10), Fraction(2, 7), Fraction(1, 1000),
         Fraction(999, 1000)]


def binary_entropy(beta: Fraction) -> mpmath.mpf:
    """``-beta ln beta - (1-beta) ln(1-beta)`` at 60 digits: the MI the constructions must have."""
    with mpmath.workdps(60):
        b, c = mpf_of(beta), mpf_of(1 - beta)
        return -b * mpmath.log(b) - c * mpmath.log(c)


def thm6_mechanism(beta: Fraction):
    """The Thm 6 joint distribution on datasets {(1,1), (1,2), (2,2)} and what follows from it."""
    datasets = [(1, 1), (1, 2), (2, 2)]
    labels = ["(" + ",".join(map(str, d)) + ")" for d in datasets]
    joint = [[Fraction(0)] * 3 for _ in range(3)]
    joint[0][0] = beta
    for x in (1, 2):
        for y in (1, 2):
            joint[x][y] = (1 - beta) / 4
    assert sum(map(sum, joint)) == 1
    prior = [sum(row) for row in joint]
    channel = [[v / prior[x] for v in joint[x]] for x in range(3)]
    edges = [[i, j] for i in range(3) for j in range(i + 1, 3)
             if sum(a != b for a, b in zip(datasets[i], datasets[j])) == 1]
    # the stated shape of the construction
    assert edges == [[0, 1], [1, 2]]
    assert prior == [beta, (1 - beta) / 2, (1 - beta) / 2]
    half = Fraction(1, 2)
    assert channel == [[1, 0, 0], [0, half, half], [0, half, half]]
    data = {"setting": "central", "inputs": labels, "outputs": labels, "neighbours": edges,
            "prior": [text(v) for v in prior], "channel": [[text(v) for v in row] for row in channel]}
    return relations.from_dict(data), prior, channel, [tuple(e) for e in edges]


def thm8_mechanism(beta: Fraction):
    prior = [beta, 1 - beta]
    channel = [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]
    data = {"setting": "local", "inputs": ["1", "2"], "outputs": ["1", "2"],
            "prior": [text(v) for v in prior], "channel": [["1", "0"], ["0", "1"]]}
    return relations.from_dict(data), prior, channel, [(0, 1)]


def check_infinite_with_zero_witness(budget, entry, edges):
    """``budget`` is ``+inf`` and its witness ``(x, x', y)`` has ``entry(x', y) == 0 < entry(x, y)``."""
    assert budget.exact.sign == 1 and budget.exact.ratio is None
    assert budget.value == math.inf
    w = budget.witness
    assert (w.x, w.x_prime) in edges or (w.x_prime, w.x) in edges
    assert entry(w.x_prime, w.y) == 0
    assert entry(w.x, w.y) > 0


@pytest.mark.parametrize("construction", [thm6_mechanism, thm8_mechanism], ids=["thm6", "thm8"])
@pytest.mark.parametrize("beta", BETAS, ids=str)
def test_finite_mi_infinite_dp(construction, beta):
    mech, prior, channel, edges = construction(beta)
    m = relations.measure(mech)
    check_infinite_with_zero_witness(m.eps_d, lambda x, y: channel[x][y], edges)
    check_infinite_with_zero_witness(m.eps_i, lambda x, y: prior[x] * channel[x][y], edges)

    truth = binary_entropy(beta)
    enc = m.eps_m.enclosure
    assert_contains(enc, truth)
    assert enc.width < Fraction(1, 10**30)
    assert math.isfinite(m.eps_m.value) and m.eps_m.value == pytest.approx(float(truth), rel=1e-12)
    assert float(enc.upper) <= math.log(2) + 1e-15  # H(beta) <= ln 2: finite

    # sigma_min from the prior over the neighbour pairs, both orders
    sigma = min(prior[a] / prior[b] for x, xp in edges for a, b in ((x, xp), (xp, x)))
    assert m.sigma_min.exact == relations.LogRatio.of(sigma)
    w = m.sigma_min.witness
    assert prior[w.x] / prior[w.x_prime] == sigma


def test_only_listed_edges_are_neighbours():
    """With an explicit edge list, only the listed pairs count: rows 0 and 1 differ (their ratio
    would be infinite), but the only edge joins the identical rows 0 and 2."""
    data = {"setting": "central", "neighbours": [[0, 2]], "prior": ["1/3", "1/3", "1/3"],
            "channel": [["1/2", "1/2"], ["1", "0"], ["1/2", "1/2"]]}
    m = relations.measure(relations.from_dict(data))
    for budget in (m.eps_d, m.eps_i, m.sigma_min):
        assert budget.exact.ratio == 1 and budget.value == 0.0
    data["neighbours"] = [[0, 2], [1, 0]]
    m = relations.measure(relations.from_dict(data))
    w = m.eps_d.witness
    assert m.eps_d.value == math.inf and (w.x, w.x_prime, w.y) == (0, 1, 1)  # Q[0][1] = 1/2, Q[1][1] = 0
