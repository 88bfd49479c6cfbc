"""The mechanism library (relations.mechanisms): every channel is exactly row-stochastic, its entries
follow the published formulas (rewritten here independently), and its exact ``eps_d`` is the documented
privacy level ``ln t`` — or, where only a bound is documented, at most the bound and equal to a
brute-force maximum over the mechanism's neighbour pairs.  Named mechanisms in files and on the
command line: ``"channel": {"mechanism": NAME, ...}``, clean errors, ``relations mechanisms --json``."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction as F

import pytest
from bruteforce import INF, brute_eps_d, dense_product_channel, hamming_pairs, local_pairs
from conftest import run_cli

import relations
from relations import mechanisms as M
from relations.errors import InputError

RATIOS = [F(1), F(11, 10), F(2), F(7, 2), F(20)]


# --------------------------------------------------------------------------- helpers


def rows_of(mech):
    return [list(r) for r in mech.channel.exact]


def assert_stochastic(mech):
    """Exact: every entry a non-negative Fraction, every row summing to exactly 1, prior too."""
    rows = rows_of(mech)
    for row in rows:
        assert all(isinstance(v, F) and v >= 0 for v in row)
        assert sum(row) == 1
    prior = list(mech.prior.exact)
    assert all(v >= 0 for v in prior) and sum(prior) == 1


def eps_d_ratio(mech):
    """The rational ``q`` of the tool's exact ``eps_d = ln q`` (``INF`` for +inf)."""
    e = relations.measure(mech).eps_d.exact
    assert e is not None
    return INF if e.sign > 0 else e.ratio


def brute_ratio(rows, pairs):
    """max ``Q[x][y] / Q[x'][y]`` over the given unordered neighbour pairs (both orders), in Fractions;
    no contributing pair means every budget holds: ratio 1 (``eps_d = 0``)."""
    value, _ = brute_eps_d(rows, pairs)
    return F(1) if value is None else value


def edge_set(mech):
    return {tuple(sorted(e)) for e in mech.inputs.edges}


# --------------------------------------------------------------------------- randomized response, k-RR


@pytest.mark.parametrize("t", RATIOS)
@pytest.mark.parametrize("k", [2, 3, 5, 8])
def test_krr_eps_d_is_ln_t_exactly(k, t):
    mech = M.krr(k, t)
    assert_stochastic(mech)
    rows = rows_of(mech)
    for d in range(k):
        for e in range(k):
            assert rows[d][e] == (t if d == e else 1) / (t + k - 1)
    assert eps_d_ratio(mech) == t
    assert brute_ratio(rows, local_pairs(k)) == t
    assert mech.setting == "local" and list(mech.prior.exact) == [F(1, k)] * k


@pytest.mark.parametrize("t", [F(1), F(3), F(13, 7)])
def test_randomized_response(t):
    mech = M.randomized_response(t, prior=[F(19, 20), F(1, 20)])
    assert_stochastic(mech)
    assert rows_of(mech) == [[t / (1 + t), 1 / (1 + t)], [1 / (1 + t), t / (1 + t)]]
    assert eps_d_ratio(mech) == t
    assert list(mech.prior.exact) == [F(19, 20), F(1, 20)]


def test_krr_with_prior_and_bad_parameters():
    mech = M.krr(3, 2, prior=["1/2", "1/3", "1/6"])
    assert list(mech.prior.exact) == [F(1, 2), F(1, 3), F(1, 6)]
    assert eps_d_ratio(mech) == 2  # the prior does not move eps_d
    with pytest.raises(InputError):
        M.krr(1, 2)
    with pytest.raises(InputError):
        M.krr(3, F(1, 2))  # e^eps < 1
    with pytest.raises(InputError):
        M.krr(3, 2, prior=[F(1, 2), F(1, 2)])  # wrong length


# --------------------------------------------------------------------------- unary encodings


def bernoulli_vector_probability(bits: str, d: int, p_true: F, p_other: F) -> F:
    """P(report = bits | value d) when bit d is 1 w.p. p_true and every other bit 1 w.p. p_other."""
    out = F(1)
    for i, b in enumerate(bits):
        one = p_true if i == d else p_other
        out *= one if b == "1" else 1 - one
    return out


@pytest.mark.parametrize("t", [F(2), F(3), F(9, 4), F(1)])
@pytest.mark.parametrize("k", [2, 3, 4])
def test_oue_entries_and_eps_d(k, t):
    mech = M.unary_encoding(k, t, optimized=True)
    assert_stochastic(mech)
    assert sorted(mech.outputs) == sorted("".join(b) for b in itertools.product("01", repeat=k))
    rows = rows_of(mech)
    for d in range(k):
        for y, bits in enumerate(mech.outputs):
            assert rows[d][y] == bernoulli_vector_probability(bits, d, F(1, 2), 1 / (1 + t))
    assert eps_d_ratio(mech) == t
    assert brute_ratio(rows, local_pairs(k)) == t


@pytest.mark.parametrize("s", [F(2), F(3, 2), F(5)])
@pytest.mark.parametrize("k", [2, 3])
def test_sue_square_ratios(k, s):
    t = s * s
    mech = M.unary_encoding(k, t, optimized=False)
    assert_stochastic(mech)
    rows = rows_of(mech)
    for d in range(k):
        for y, bits in enumerate(mech.outputs):
            assert rows[d][y] == bernoulli_vector_probability(bits, d, s / (1 + s), 1 / (1 + s))
    assert eps_d_ratio(mech) == t
    assert brute_ratio(rows, local_pairs(k)) == t


@pytest.mark.parametrize("t", [F(3), F(2), F(9, 2), F(16, 3)])
def test_sue_non_square_ratio_is_an_input_error(t):
    with pytest.raises(InputError, match="square"):
        M.unary_encoding(3, t, optimized=False)


def test_unary_encoding_too_many_outputs_is_refused_quickly():
    """2^k outputs: k = 30 is an input error, not an endless computation."""
    with pytest.raises(InputError):
        M.unary_encoding(30, 3)
    with pytest.raises(InputError):
        M.subset_selection(60, 30, 3)


# --------------------------------------------------------------------------- subset selection, Hadamard


def parse_subset(label: str) -> set[int]:
    assert label.startswith("{") and label.endswith("}")
    return {int(v) for v in label[1:-1].split(",")}


@pytest.mark.parametrize("t", [F(2), F(7, 3)])
@pytest.mark.parametrize("k,s", [(2, 1), (3, 1), (4, 2), (5, 2), (5, 3), (6, 3)])
def test_subset_selection(k, s, t):
    mech = M.subset_selection(k, s, t)
    assert_stochastic(mech)
    subsets = [parse_subset(lbl) for lbl in mech.outputs]
    assert len(subsets) == math.comb(k, s) and all(len(S) == s for S in subsets)
    assert len({frozenset(S) for S in subsets}) == len(subsets)
    # each value is in C(k-1, s-1) subsets with weight t, absent from C(k-1, s) with weight 1
    z = math.comb(k - 1, s - 1) * t + math.comb(k - 1, s)
    rows = rows_of(mech)
    for d in range(k):
        for y, S in enumerate(subsets):
            assert rows[d][y] == (t if d in S else 1) / z
    assert eps_d_ratio(mech) == t
    assert brute_ratio(rows, local_pairs(k)) == t


def test_one_subset_selection_is_krr():
    assert rows_of(M.subset_selection(4, 1, 3)) == rows_of(M.krr(4, 3))


@pytest.mark.parametrize("k,s", [(3, 0), (3, 3), (2, 5)])
def test_subset_selection_bad_size(k, s):
    with pytest.raises(InputError):
        M.subset_selection(k, s, 2)


def sylvester(size: int) -> list[list[int]]:
    h = [[1]]
    while len(h) < size:
        h = [row + row for row in h] + [row + [-v for v in row] for row in h]
    return h


@pytest.mark.parametrize("t", [F(2), F(5, 2), F(9)])
@pytest.mark.parametrize("k", [2, 3, 4, 7, 8])
def test_hadamard_response(k, t):
    mech = M.hadamard_response(k, t)
    assert_stochastic(mech)
    big = 2 ** math.ceil(math.log2(k + 1))  # smallest power of two strictly above k
    assert big > k and big // 2 <= k
    h = sylvester(big)
    rows = rows_of(mech)
    assert len(rows) == k and all(len(r) == big for r in rows)
    for d in range(k):
        for y in range(big):
            assert rows[d][y] == (2 * t if h[d + 1][y] == 1 else 2) / (big * (1 + t))
    assert eps_d_ratio(mech) == t
    assert brute_ratio(rows, local_pairs(k)) == t


# --------------------------------------------------------------------------- counting ranges


def path_edges(n):
    return {(i, i + 1) for i in range(n - 1)}


@pytest.mark.parametrize("t", [F(2), F(5, 3), F(10)])
@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_truncated_geometric(n, t):
    mech = M.truncated_geometric(n, t)
    assert mech.setting == "central"
    assert_stochastic(mech)
    assert edge_set(mech) == path_edges(n)
    # two-sided geometric noise P(Z = z) = c a^|z|, c = (1-a)/(1+a), clamped into {0..n-1}:
    # the ends collect the tails, sum_{j >= m} c a^j = c a^m / (1 - a) = a^m / (1 + a)
    a = 1 / t
    c = (1 - a) / (1 + a)
    rows = rows_of(mech)
    for x in range(n):
        for y in range(n):
            tail = c * a ** abs(y - x) / (1 - a)
            assert rows[x][y] == (tail if y in (0, n - 1) else c * a ** abs(y - x))
    assert eps_d_ratio(mech) == t
    assert brute_ratio(rows, sorted(path_edges(n))) == t


def fold(v: int, n: int) -> int:
    v %= 2 * n
    return v if v < n else 2 * n - 1 - v


@pytest.mark.parametrize("t", [F(2), F(3), F(3, 2)])
@pytest.mark.parametrize("n", [2, 3, 5])
def test_folded_geometric_bound_and_brute_force(n, t):
    mech = M.folded_geometric(n, t)
    assert_stochastic(mech)
    assert edge_set(mech) == path_edges(n)
    rows = rows_of(mech)
    # documented: a post-processing of ln t-DP noise, so eps_d <= ln t; the exact value by brute force
    exact = eps_d_ratio(mech)
    assert exact <= t
    assert exact == brute_ratio(rows, sorted(path_edges(n)))
    # the entries against the reflected two-sided geometric noise summed directly (floats)
    a = 1 / float(t)
    c = (1 - a) / (1 + a)
    terms = int(math.log(1e-18) / math.log(a)) + 2
    for x in range(n):
        direct = [0.0] * n
        for z in range(-terms, terms + 1):
            direct[fold(x + z, n)] += c * a ** abs(z)
        for y in range(n):
            assert abs(float(rows[x][y]) - direct[y]) < 1e-12


def cyclic(d, n):
    d %= n
    return min(d, n - d)


@pytest.mark.parametrize("t", [F(3), F(3, 2)])
@pytest.mark.parametrize("n,delta,width", [(2, 1, 1), (5, 1, 1), (6, 2, 1), (6, 2, 2), (7, 3, 2), (8, 2, 1), (9, 3, 3)])
def test_staircase(n, delta, width, t):
    mech = M.staircase(n, t, delta=delta, width=width)
    assert_stochastic(mech)
    edges = {(i, j) for i in range(n) for j in range(i + 1, n) if cyclic(j - i, n) <= delta}
    assert edge_set(mech) == edges

    def steps(d):
        return 0 if d < width else 1 + (d - width) // delta

    weights = [t ** -steps(cyclic(d, n)) for d in range(n)]
    rows = rows_of(mech)
    for x in range(n):
        for y in range(n):
            assert rows[x][y] == weights[(y - x) % n] / sum(weights)
    # the documented level is attained whenever a step exists (floor(n/2) >= width)
    assert n // 2 >= width
    assert eps_d_ratio(mech) == t
    assert brute_ratio(rows, sorted(edges)) == t


def test_staircase_without_a_step_is_below_the_level():
    """n = 3, width 2: no output is two away from an input, so the channel is constant (eps_d = 0 <= ln t)."""
    mech = M.staircase(3, 5, delta=2, width=2)
    assert eps_d_ratio(mech) == 1 <= 5
    with pytest.raises(InputError):
        M.staircase(5, 2, delta=1, width=2)


# --------------------------------------------------------------------------- exponential mechanism

UTILITIES = [
    [[0, 1, 2], [1, 0, 1], [2, 1, 0]],
    [[3, 0], [0, 3], [1, 1]],
    [[2, 2, 0, 1], [0, 1, 2, 2], [1, 0, 0, 2]],
]


@pytest.mark.parametrize("b", [F(2), F(3, 2), F(1)])
@pytest.mark.parametrize("u", UTILITIES)
def test_exponential_mechanism(u, b):
    mech = M.exponential(u, b)
    assert_stochastic(mech)
    rows = rows_of(mech)
    for x, urow in enumerate(u):
        total = sum(b ** v for v in urow)
        assert rows[x] == [b ** v / total for v in urow]
    sens = max(abs(u[x][y] - u[xp][y]) for x in range(len(u)) for xp in range(len(u)) for y in range(len(u[0])))
    assert M.utility_sensitivity(u) == sens
    exact = eps_d_ratio(mech)
    assert exact <= b ** (2 * sens)  # eps_d <= 2 Delta_u ln b
    assert exact == brute_ratio(rows, local_pairs(len(u)))


# --------------------------------------------------------------------------- the paper and products


def test_paper_example_and_constructions():
    ex = M.paper_example()
    assert rows_of(ex) == [[F(13, 20), F(7, 20)], [F(7, 20), F(13, 20)]]
    assert eps_d_ratio(ex) == F(13, 7)
    for theorem in (6, 8, 10, 12):
        mech = M.paper_construction(theorem, F(1, 3))
        assert_stochastic(mech)
        assert eps_d_ratio(mech) == INF  # zeros against positives
        assert brute_ratio(rows_of(mech), sorted(edge_set(mech)) if mech.setting == "central"
                           else local_pairs(2)) == INF
    assert M.paper_construction(6, F(1, 3)).prior.exact[0] == F(1, 3)
    for bad in [(7, F(1, 2)), (6, F(0)), (8, F(1))]:
        with pytest.raises(InputError):
            M.paper_construction(*bad)


@pytest.mark.parametrize("k,r,t", [(2, 2, F(3)), (3, 2, F(2)), (2, 3, F(5, 4))])
def test_product_is_central_with_per_record_level(k, r, t):
    mech = M.product(M.krr(k, t), r)
    assert mech.setting == "central" and mech.is_product
    assert eps_d_ratio(mech) == t  # neighbours differ in one record
    dense = dense_product_channel(rows_of(M.krr(k, t)), r)
    assert brute_ratio(dense, hamming_pairs(k, r)) == t
    assert [list(row) for row in mech.dense().channel.exact] == dense
    with pytest.raises(InputError):
        M.product(M.truncated_geometric(3, 2), 2)


# --------------------------------------------------------------------------- named mechanisms in files

#: one valid parameter set per registry name (a new registry name must be added here)
VALID = {
    "rr": {"ratio": "3"},
    "krr": {"k": 4, "ratio": "3"},
    "oue": {"k": 3, "ratio": "2"},
    "sue": {"k": 3, "ratio": "9/4"},
    "subset": {"k": 4, "s": 2, "ratio": "5/2"},
    "hadamard": {"k": 3, "ratio": "4"},
    "truncated_geometric": {"n": 4, "ratio": "2"},
    "folded_geometric": {"n": 4, "ratio": "2"},
    "staircase": {"n": 6, "ratio": "3", "delta": 2, "width": 1},
    "paper_example": {},
    "paper_construction": {"theorem": 8, "beta": "1/3"},
    "exponential": {"utility": [[2, 0, 1], [0, 2, 1]], "base": "3/2"},
}
DIRECT = {
    "rr": lambda: M.randomized_response(3),
    "krr": lambda: M.krr(4, 3),
    "oue": lambda: M.unary_encoding(3, 2),
    "sue": lambda: M.unary_encoding(3, F(9, 4), optimized=False),
    "subset": lambda: M.subset_selection(4, 2, F(5, 2)),
    "hadamard": lambda: M.hadamard_response(3, 4),
    "truncated_geometric": lambda: M.truncated_geometric(4, 2),
    "folded_geometric": lambda: M.folded_geometric(4, 2),
    "staircase": lambda: M.staircase(6, 3, delta=2, width=1),
    "paper_example": lambda: M.paper_example(),
    "paper_construction": lambda: M.paper_construction(8, F(1, 3)),
    "exponential": lambda: M.exponential([[2, 0, 1], [0, 2, 1]], F(3, 2)),
}
CENTRAL_NAMES = {"truncated_geometric", "folded_geometric", "staircase"}


def test_every_registry_name_has_a_test_case():
    assert set(VALID) == set(M.REGISTRY) == set(DIRECT)


def test_krr_in_a_file_equals_the_constructor():
    text = json.dumps({"setting": "local", "prior": "uniform", "channel": {"mechanism": "krr", "k": 4, "ratio": "3"}})
    mech = relations.loads(text)
    ref = M.krr(4, 3)
    assert mech.setting == "local"
    assert rows_of(mech) == rows_of(ref) and list(mech.prior.exact) == list(ref.prior.exact) == [F(1, 4)] * 4
    assert eps_d_ratio(mech) == 3


@pytest.mark.parametrize("name", sorted(VALID))
def test_named_mechanism_in_a_file(name):
    setting = "central" if name in CENTRAL_NAMES else "local"
    spec = {"setting": setting, "prior": "uniform", "channel": {"mechanism": name, **VALID[name]}}
    mech = relations.from_dict(spec)
    ref = DIRECT[name]()
    assert rows_of(mech) == rows_of(ref)
    assert mech.outputs == ref.outputs
    assert eps_d_ratio(mech) == eps_d_ratio(ref)
    if name in CENTRAL_NAMES:
        assert edge_set(mech) == edge_set(ref)
        with pytest.raises(InputError, match="central"):
            relations.from_dict({**spec, "setting": "local"})


def test_named_local_mechanism_in_the_central_setting_is_a_product_form():
    spec = {"setting": "central", "domain": ["a", "b", "c"], "records": 2, "prior": "uniform",
            "channel": {"mechanism": "krr", "k": 3, "ratio": "2"}}
    mech = relations.from_dict(spec)
    assert mech.setting == "central" and mech.is_product
    assert mech.channel.records == 2
    assert [list(r) for r in mech.channel.local.exact] == rows_of(M.krr(3, 2))
    assert eps_d_ratio(mech) == 2
    dense = dense_product_channel(rows_of(M.krr(3, 2)), 2)
    assert [list(r) for r in mech.dense().channel.exact] == dense
    assert brute_ratio(dense, hamming_pairs(3, 2)) == 2
    with pytest.raises(InputError):  # 4 rows, 3 domain values
        relations.from_dict({**spec, "channel": {"mechanism": "krr", "k": 4, "ratio": "2"}})


@pytest.mark.parametrize("channel", [
    {"mechanism": "nope"},
    {"mechanism": "krr", "k": 4},
    {"mechanism": "krr", "k": "x", "ratio": "3"},
    {"mechanism": "krr", "k": 4, "ratio": "ln(3)"},
    {"mechanism": "krr", "k": 4, "ratio": "1/2"},
    {"mechanism": "krr", "k": 4, "ratio": "3", "extra": 1},
    {"mechanism": "sue", "k": 3, "ratio": "3"},
    {"mechanism": "krr", "k": 0, "ratio": "3"},
    {"mechanism": "paper_construction", "theorem": 7, "beta": "1/2"},
    {"mechanism": 5},
])
def test_bad_named_mechanisms_are_input_errors(channel):
    with pytest.raises(InputError):
        relations.from_dict({"setting": "local", "prior": "uniform", "channel": channel})


@pytest.mark.parametrize("channel", [
    {"mechanism": "nope"},
    {"mechanism": "krr", "k": 4, "ratio": "ln(3)"},
    {"mechanism": "sue", "k": 3, "ratio": "3"},
    {"mechanism": "oue", "k": 30, "ratio": "3"},
])
def test_bad_named_mechanism_cli_exit_2(tmp_path, channel):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"setting": "local", "prior": "uniform", "channel": channel}))
    proc = run_cli("measure", str(path), timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("relations: error:"), proc.stderr
    assert "Traceback" not in proc.stderr


def test_named_mechanism_cli_measure(tmp_path):
    path = tmp_path / "krr.json"
    path.write_text(json.dumps({"setting": "local", "prior": "uniform",
                                "channel": {"mechanism": "krr", "k": 4, "ratio": "3"}}))
    proc = run_cli("measure", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert abs(out["eps_d"]["value"] - math.log(3)) < 1e-15


def test_mechanisms_command_lists_the_registry():
    proc = run_cli("mechanisms", "--json")
    assert proc.returncode == 0, proc.stderr
    listed = json.loads(proc.stdout)
    assert {e["mechanism"] for e in listed} == set(M.REGISTRY)
    for e in listed:
        assert e["parameters"] == list(M.REGISTRY[e["mechanism"]].params)
        assert e["summary"]
    table = run_cli("mechanisms")
    assert table.returncode == 0
    for name in M.REGISTRY:
        assert name in table.stdout
