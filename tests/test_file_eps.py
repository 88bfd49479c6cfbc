"""Named mechanisms in files take ``eps`` where they take ``ratio`` (``docs/mechanism-files.md``,
*eps instead of ratio*): ``"ln(q)"`` is the ratio ``q`` exactly, a number is rounded to the rational
nearest to ``e^eps`` with denominator at most ``10**6`` (as ``eps=`` of the Python constructors,
``relations.mechanisms._budgets.ratio_of``), and the file is then the same mechanism as the file with
that ratio: compared through the loader and through ``relations measure --json``.  Both, neither, a
negative or non-numeric ``eps`` are one-line errors, exit status 2."""

from __future__ import annotations

import json
import math
from fractions import Fraction as F

import pytest
from conftest import run_cli

from relations import measure
from relations import mechanisms as M
from relations.errors import InputError
from relations.io._reading import loads
from relations.mechanisms._budgets import EPS_DENOMINATOR, ratio_of
from relations.mechanisms._registry import REGISTRY

# every registry entry taking a ratio, with its other parameters and the setting its file needs
WITH_RATIO = {
    "rr": ({}, "local"),
    "krr": ({"k": 3}, "local"),
    "oue": ({"k": 3}, "local"),
    "sue": ({"k": 3}, "local"),
    "subset": ({"k": 4, "s": 2}, "local"),
    "hadamard": ({"k": 3}, "local"),
    "truncated_geometric": ({"n": 4}, "central"),
    "folded_geometric": ({"n": 4}, "central"),
    "staircase": ({"n": 6, "delta": 2}, "central"),
}


def file_text(name: str, budget: dict, prior: str = "uniform") -> str:
    params, setting = WITH_RATIO[name]
    return json.dumps({"setting": setting, "prior": prior, "channel": {"mechanism": name, **params, **budget}})


def same_mechanism(a, b) -> bool:
    return (a.channel.exact == b.channel.exact and a.prior.exact == b.prior.exact and a.outputs == b.outputs
            and a.inputs.labels == b.inputs.labels and list(a.inputs.pairs()) == list(b.inputs.pairs())
            and a.setting == b.setting)


def test_every_mechanism_with_a_ratio_is_listed_here():
    assert set(WITH_RATIO) == {n for n, e in REGISTRY.items() if "ratio" in e.params}
    assert REGISTRY["krr"].parameter_text == "k, ratio or eps"
    assert REGISTRY["exponential"].parameter_text == "utility, base"


# --------------------------------------------------------------------------- the loader


@pytest.mark.parametrize("name", sorted(WITH_RATIO))
def test_eps_ln_q_is_the_ratio_q_exactly(name):
    q = "9/4"  # a square, for sue
    by_eps = loads(file_text(name, {"eps": f"ln({q})"}))
    assert same_mechanism(by_eps, loads(file_text(name, {"ratio": q})))
    eps_d = measure(by_eps).eps_d
    if name == "folded_geometric":  # a post-processing of ln(t)-DP noise: eps_d <= ln t, strictly here
        assert eps_d.exact.ratio < F(9, 4)
    else:
        assert str(eps_d.exact) == "ln(9/4)"


@pytest.mark.parametrize("name", sorted(WITH_RATIO))
@pytest.mark.parametrize("eps", ["1/2", "1", 2])
def test_numeric_eps_is_the_nearest_ratio(name, eps):
    t = ratio_of(eps=eps, square=name == "sue")
    assert t.denominator <= EPS_DENOMINATOR ** (2 if name == "sue" else 1)
    bound = 2e-6 if name == "sue" else 1e-6
    assert abs(math.log(t) - float(F(eps))) < bound
    by_eps = loads(file_text(name, {"eps": eps}))
    assert same_mechanism(by_eps, loads(file_text(name, {"ratio": str(t)})))


def test_file_eps_is_the_python_eps():
    for eps in ("ln(3)", "1/2", 1):
        filed = loads(json.dumps({"setting": "local", "prior": "uniform",
                                  "channel": {"mechanism": "krr", "k": 4, "eps": eps}}))
        assert filed.channel.exact == M.krr(4, eps=eps).channel.exact
    sue = loads(file_text("sue", {"eps": "0.3"}))
    assert sue.channel.exact == M.sue(3, eps="0.3").channel.exact


def test_a_json_number_is_read_from_its_text():
    literal = loads('{"setting": "local", "prior": "uniform", "channel": {"mechanism": "krr", "k": 3, "eps": 0.1}}')
    text = loads(file_text("krr", {"eps": "1/10"}))
    assert literal.channel.exact == text.channel.exact
    assert loads(file_text("krr", {"eps": 0})).channel.exact == loads(file_text("krr", {"ratio": 1})).channel.exact


@pytest.mark.parametrize("budget, words", [
    ({"eps": "1", "ratio": "3"}, "mechanism parameters 'ratio' and 'eps': give one of them, not both"),
    ({}, "mechanism parameter 'ratio' is missing (give 'ratio' = e^eps, or 'eps')"),
    ({"eps": "-1"}, "mechanism parameter 'eps': must be from 0 to 2000, got -1"),
    ({"eps": -0.5}, "mechanism parameter 'eps': must be from 0 to 2000, got -1/2"),
    ({"eps": 2001}, "mechanism parameter 'eps': must be from 0 to 2000, got 2001"),
    ({"eps": "ln(1/2)"}, "mechanism parameter 'eps': ln(q) needs q >= 1"),
    ({"eps": "ln(x)"}, "mechanism parameter 'eps': 'x' is not a number"),
    ({"eps": "e"}, "mechanism parameter 'eps': 'e' is not a number"),
    ({"eps": None}, "mechanism parameter 'eps': null is not a number"),
    ({"eps": True}, "mechanism parameter 'eps': true is not a number"),
    ({"eps": [1]}, "mechanism parameter 'eps': ['1'] is not a number"),  # the literal's text
    ({"ratio": "ln(3)"}, "not a logarithm (or \"eps\": \"ln(3)\")"),
])
def test_bad_budgets_are_one_input_error(budget, words):
    with pytest.raises(InputError) as info:
        loads(file_text("krr", budget), source="f.json")
    assert words in str(info.value) and "\n" not in str(info.value)


def test_sue_with_ln_of_a_non_square_is_refused_like_its_ratio():
    with pytest.raises(InputError, match="ratio"):
        loads(file_text("sue", {"eps": "ln(2)"}))


def test_mechanisms_without_a_ratio_take_no_eps():
    spec = {"setting": "local", "prior": "uniform", "channel": {"mechanism": "exponential", "utility": [[1, 0], [0, 1]],
                                                                "base": "2", "eps": 1}}
    with pytest.raises(InputError, match=r"unknown parameter 'eps' \(takes utility, base\)"):
        loads(json.dumps(spec))
    with pytest.raises(InputError, match=r"unknown parameter 'epsilon' \(takes k, ratio or eps\)"):
        loads(file_text("krr", {"epsilon": 1}))


# --------------------------------------------------------------------------- the command line


@pytest.mark.parametrize("name, eps", [("krr", "1"), ("staircase", "ln(2)"), ("sue", 0.5)])
def test_measure_of_the_eps_file_is_that_of_the_ratio_file(tmp_path, name, eps):
    t = ratio_of(eps=eps, square=name == "sue")
    outs = []
    for label, budget in (("eps", {"eps": eps}), ("ratio", {"ratio": str(t)})):
        path = tmp_path / f"{label}.json"
        path.write_text(file_text(name, budget))
        proc = run_cli("measure", str(path), "--json")
        assert proc.returncode == 0, proc.stderr
        outs.append(json.loads(proc.stdout))
    assert outs[0] == outs[1]
    assert outs[0]["eps_d"]["exact"] == f"ln({t})"
    assert abs(outs[0]["eps_d"]["value"] - math.log(t)) < 1e-12


@pytest.mark.parametrize("budget, words", [
    ({"eps": "1", "ratio": "3"}, "'ratio' and 'eps'"),
    ({}, "'ratio' is missing"),
    ({"eps": -1}, "'eps': must be from 0 to 2000"),
    ({"eps": "one"}, "'eps': 'one' is not a number"),
])
def test_bad_budgets_exit_2_with_one_line(tmp_path, budget, words):
    path = tmp_path / "bad.json"
    path.write_text(file_text("krr", budget))
    proc = run_cli("measure", str(path), "--json")
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "bad.json" in lines[0], proc.stderr


def test_sweep_spec_takes_eps_as_a_mechanism_file_does():
    """A sweep over eps builds, point by point, the mechanisms of the sweep over the equivalent ratios."""
    from relations.mechanisms._budgets import ratio_of
    from relations.sweeps._spec import parse_spec

    eps_values = ["ln(3)", 1, "1/2", "ln(5/2)"]
    by_eps = parse_spec({"mechanism": "krr", "k": [2, 4], "eps": eps_values})
    by_ratio = parse_spec({"mechanism": "krr", "k": [2, 4], "ratio": [str(ratio_of(eps=str(e))) for e in eps_values]})
    assert by_eps.count == by_ratio.count == 8
    for i in range(8):
        a, b = by_eps.build(by_eps.point(i)), by_ratio.build(by_ratio.point(i))
        assert a.channel.exact == b.channel.exact and a.prior.exact == b.prior.exact
    assert by_eps.point(1)["eps"] == "1"  # a JSON number kept as its exact rational text


@pytest.mark.parametrize("spec, words", [
    ({"mechanism": "krr", "k": 3, "eps": "1", "ratio": "2"}, "not both"),
    ({"mechanism": "krr", "k": 3, "eps": [-1]}, "'eps' -1"),
    ({"mechanism": "krr", "k": 3, "eps": ["x"]}, "not a number"),
    ({"mechanism": "exponential", "utility": [[0, 1]], "base": "2", "eps": "1"}, "unknown key 'eps'"),
])
def test_sweep_spec_eps_errors(spec, words):
    from relations.errors import InputError
    from relations.sweeps._spec import parse_spec

    with pytest.raises(InputError, match=words):
        parse_spec(spec)
