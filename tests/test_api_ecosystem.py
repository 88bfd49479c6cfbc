"""The API fits the ecosystem (issue 16): numpy and pandas input, Jupyter display, to_dict/to_pandas,
``eps=`` for the named mechanisms, and function names that agree with the registry.

Every expected value is computed here independently: ``Fraction(float)`` by hand, ``e^eps`` with
mpmath at 60 digits, the JSON through ``json.dumps``/``json.loads``.
"""

from __future__ import annotations

import functools
import html
import json
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import relations.mechanisms as mechanisms
from relations import InputError, Mechanism, check, loads, measure
from relations.mechanisms import EPS_DENOMINATOR, REGISTRY, named

pd = None  # bound by _pandas below, before any test of this module runs


@pytest.fixture(scope="module", autouse=True)
def _pandas():
    """Pandas, imported when the module's first test runs (every test skipped without it), not at collection,
    where it cost 0.5 s of CPU in each xdist worker."""
    global pd
    pd = pytest.importorskip("pandas")


def _data_frame(rows):
    return pd.DataFrame(rows)


# ------------------------------------------------------------------ numpy and pandas input

def _renormalised(row):
    exact = [Fraction(x) for x in row]
    total = sum(exact)
    return tuple(x / total for x in exact)


def test_numpy_float_channel_is_its_exact_binary_values():
    a = np.array([[0.6, 0.4], [0.3, 0.7]])
    m = Mechanism.local(a)
    assert m.channel.exact == tuple(_renormalised(row) for row in a.tolist())  # Fraction(x), rows renormalised
    assert m.channel.exact[0] == (Fraction(0.6), Fraction(0.4))  # 0.6 + 0.4 is exactly 1 in binary
    assert m.rounding[0] > 0  # floats carry their rounding radius, as a list of floats does
    assert Mechanism.local(a.tolist()).channel.exact == m.channel.exact


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_narrow_floats_are_their_exact_values_under_the_same_tolerance(dtype):
    m = Mechanism.local(np.array([[0.75, 0.25], [0.125, 0.875]], dtype=dtype))
    assert m.channel.exact == ((Fraction(3, 4), Fraction(1, 4)), (Fraction(1, 8), Fraction(7, 8)))
    row = np.array([0.6, 0.4], dtype=dtype)
    if abs(sum(Fraction(float(v)) for v in row) - 1) > Fraction(1e-9):  # float32: 1 + 2**-25, beyond the tolerance
        with pytest.raises(InputError, match=r"channel\[0\]: entries sum to .*not 1 within 1e-09"):
            Mechanism.local(np.array([row, [0.5, 0.5]]))
    else:  # float16 happens to round 0.6 + 0.4 to exactly 1
        assert Mechanism.local(np.array([row, [0.5, 0.5]])).channel.exact[0] == tuple(Fraction(float(v)) for v in row)


def test_dataframe_labels_reach_witnesses_and_match_the_list_form():
    df = pd.DataFrame([["13/20", "7/20"], ["7/20", "13/20"]], index=["healthy", "sick"], columns=["neg", "pos"])
    prior = pd.Series(["1/20", "19/20"], index=["sick", "healthy"])  # labelled: put in the inputs' order
    m = Mechanism.local(df, prior=prior)
    ref = Mechanism.local([["13/20", "7/20"], ["7/20", "13/20"]], prior=["19/20", "1/20"])
    assert m.inputs.labels == ("healthy", "sick") and m.outputs == ("neg", "pos")
    assert m.channel.exact == ref.channel.exact and m.prior.exact == ref.prior.exact
    res = measure(m)
    assert str(res.eps_i.exact) == "ln(247/7)"  # (19/20 * 13/20) / (1/20 * 7/20) = 247/7
    w = res.to_dict()["eps_i"]["witness"]
    assert (w["x"], w["x_prime"], w["y"]) == ("healthy", "sick", "neg")
    assert "x=healthy, x'=sick, y=neg" in res._repr_html_().replace("&#x27;", "'")


def test_default_range_index_keeps_default_labels_and_product_reads_the_domain():
    m = Mechanism.local(pd.DataFrame([[1, 0], [0, 1]]))
    assert m.inputs.labels == ("0", "1") and m.outputs == ("0", "1")
    w = pd.DataFrame([[0.75, 0.25], [0.25, 0.75]], index=["a", "b"], columns=["A", "B"])
    p = Mechanism.product(w, records=40)
    assert p.inputs.domain == ("a", "b") and p.outputs == ("A", "B")
    assert str(measure(p).eps_d.exact) == "ln(3)"


def test_integer_object_and_text_arrays_are_exact():
    assert Mechanism.local(np.array([[1, 0], [0, 1]], dtype=np.uint8)).channel.exact == ((1, 0), (0, 1))
    obj = np.array([[Fraction(1, 3), Fraction(2, 3)], [np.int64(1), 0]], dtype=object)
    assert Mechanism.local(obj).channel.exact == ((Fraction(1, 3), Fraction(2, 3)), (1, 0))
    assert Mechanism.local(np.array([["1/4", "3/4"], ["1", "0"]])).channel.exact[0] == (Fraction(1, 4), Fraction(3, 4))


@pytest.mark.parametrize("bad, words", [
    (np.array([[1 + 0j, 0], [0, 1]]), "complex entries"),
    (np.array([[True, False], [False, True]]), "boolean entries"),
    (np.array([[0.5, np.nan], [0.5, 0.5]]), "not a finite number"),
    (np.array([[0.5, np.inf], [0.5, 0.5]]), "not a finite number"),
    (functools.partial(_data_frame, [["1/2", "half"], ["1", "0"]]), "'half' is not a number"),  # made in the test
    (np.array([[b"1", b"0"], [b"0", b"1"]]), "bytes entries"),
])
def test_bad_arrays_are_one_input_error(bad, words):
    if isinstance(bad, functools.partial):
        bad = bad()  # the DataFrame, once pandas is imported
    with pytest.raises(InputError) as err:
        Mechanism.local(bad)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_a_series_prior_with_other_labels_is_refused():
    df = pd.DataFrame([[1, 0], [0, 1]], index=["a", "b"])
    with pytest.raises(InputError, match="prior: a Series labelled"):
        Mechanism.local(df, prior=pd.Series([0.5, 0.5], index=["a", "c"]))


# ------------------------------------------------------------------ display and conversions

def test_mechanism_html_latex_dict_and_pandas_round_trip():
    m = Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]], prior=["1/3", "2/3"], inputs=["<b>", "x&y"])
    text = m._repr_html_()
    assert "<td>&lt;b&gt;</td>" in text and "<td>x&amp;y</td>" in text and "<td><b></td>" not in text
    assert "<td>3/4</td>" in text and "<td>1/3</td>" in text
    assert r"\frac{3}{4}" in m._repr_latex_()
    d = json.loads(json.dumps(m.to_dict()))
    back = loads(json.dumps(d))
    assert back.channel.exact == m.channel.exact and back.prior.exact == m.prior.exact
    df = m.to_pandas()
    assert list(df.index) == ["<b>", "x&y"] and list(df.columns) == ["0", "1"] and df.iloc[0, 0] == Fraction(3, 4)
    assert Mechanism.local(df).channel.exact == m.channel.exact  # the frame reads back, labels included
    assert Mechanism.local(df).inputs.labels == ("<b>", "x&y")


def test_float_mode_mechanism_converts_with_floats():
    big = np.full((300, 300), 1 / 300)  # 90000 entries: float mode
    m = Mechanism.local(big)
    assert not m.exact
    d = m.to_dict()
    assert isinstance(d["channel"][0][0], float) and json.loads(json.dumps(d))["channel"][0][0] == 1 / 300
    assert m.to_pandas().shape == (300, 300) and "…" in m._repr_html_()


def test_measures_dict_pandas_html_latex():
    res = measure(mechanisms.paper_example())
    d = res.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["eps_d"]["exact"] == "ln(13/7)" and d["eps_d"]["ratio"] == "13/7" and isinstance(d["eps_d"]["value"], float)
    assert d["mode"] == "exact" and len(d["eps_m"]["enclosure"]) == 2
    df = res.to_pandas()
    assert list(df.index) == ["eps_i", "eps_d", "eps_m", "sigma_min"] and list(df.columns) == ["value", "exact", "witness"]
    assert df.loc["sigma_min", "exact"] == "ln(1/19)"
    assert "<td>ln(13/7)</td>" in res._repr_html_()
    latex = res._repr_latex_()
    assert r"\varepsilon_d &= \ln(13/7) \approx 0.619" in latex and r"\sigma_{\min} &= \ln(1/19)" in latex


def test_report_dict_pandas_html_latex():
    report = check(mechanisms.paper_example(), ["eps_d <= ln(2)", "eps_m < 1/1000"])
    d = report.to_dict()
    assert json.loads(json.dumps(d)) == d
    thm4 = next(r for r in d["relations"] if r["id"] == "zheng2025.thm4")
    assert thm4["status"] == "fails" and thm4["slack"]["exact"] == "ln(1/361)"  # (13/133) / (247/7) = 1/361
    assert [c["holds"] for c in d["claims"]] == [True, False]  # 13/7 <= 2; I(X;Y) ~ 0.0088 >= 0.001
    df = report.to_pandas()
    assert {"kind", "id", "statement", "status", "slack", "witness"} <= set(df.columns)
    assert len(df) == len(report.outcomes) + 2 and list(df["kind"][:2]) == ["claim", "claim"]
    assert df.set_index("id").loc["zheng2025.thm4", "witness"] == "x=1, x'=2, y=1"
    text = report._repr_html_()
    assert "zheng2025.thm4" in text and html.escape("eps_d <= ln(2)") in text and "eps_d <= ln(2)" not in text
    assert r"\varepsilon_i" in report._repr_latex_()


# ------------------------------------------------------------------ eps= for the named mechanisms

def _nearest(eps, denominator=EPS_DENOMINATOR, half=False):
    """The nearest rational of bounded denominator to e^eps, from mpmath at 60 digits (a second method)."""
    with mpmath.workdps(60):
        x = mpmath.exp(mpmath.mpf(eps.numerator) / eps.denominator / (2 if half else 1))
        return Fraction(mpmath.nstr(x, 55, min_fixed=-100, max_fixed=100)).limit_denominator(denominator)


@pytest.mark.parametrize("eps", [1.0, "1/2", "0.1", 0.1, Fraction(7, 3), 3])
def test_numeric_eps_gives_the_nearest_ratio_and_eps_d_is_its_log(eps):
    e = Fraction(eps) if not isinstance(eps, str) else Fraction(eps)
    t = _nearest(e)
    res = measure(mechanisms.krr(4, eps=eps))
    assert res.eps_d.exact.ratio == t and t.denominator <= EPS_DENOMINATOR
    with mpmath.workdps(40):
        assert abs(mpmath.log(mpmath.mpf(t.numerator) / t.denominator) - mpmath.mpf(e.numerator) / e.denominator) < 1e-6
    assert measure(mechanisms.krr(4, t)).eps_d.exact == res.eps_d.exact  # the ratio parameter still works


def test_exact_ln_eps_is_the_ratio_itself():
    for build in (lambda **kw: mechanisms.krr(3, **kw), lambda **kw: mechanisms.rr(**kw),
                  lambda **kw: mechanisms.subset(5, 2, **kw), lambda **kw: mechanisms.hadamard(3, **kw),
                  lambda **kw: mechanisms.oue(3, **kw), lambda **kw: mechanisms.truncated_geometric(5, **kw),
                  lambda **kw: mechanisms.folded_geometric(5, **kw), lambda **kw: mechanisms.staircase(6, **kw)):
        assert build(eps="ln(5/2)").channel.exact == build(ratio="5/2").channel.exact
    assert str(measure(mechanisms.krr(3, eps="ln(5/2)")).eps_d.exact) == "ln(5/2)"


def test_sue_with_eps_rounds_the_square_root():
    s = _nearest(Fraction(1), half=True)
    m = mechanisms.sue(3, eps=1)
    assert m.channel.exact == mechanisms.sue(3, s * s).channel.exact
    assert measure(m).eps_d.exact.ratio == s * s
    with mpmath.workdps(40):
        assert abs(2 * mpmath.log(mpmath.mpf(s.numerator) / s.denominator) - 1) < 2e-6


@pytest.mark.parametrize("kwargs, words", [
    ({"ratio": 3, "eps": 1}, "not both"), ({}, "is missing"), ({"eps": -1}, "must be from 0"),
    ({"eps": "ln(1/2)"}, "needs q >= 1"), ({"eps": float("nan")}, "not a finite number"), ({"eps": "e"}, "not a number"),
])
def test_bad_eps_is_one_input_error(kwargs, words):
    with pytest.raises(InputError, match=words.replace("(", r"\(")):
        mechanisms.krr(3, **kwargs)


def test_every_registry_name_is_a_function_building_the_same_mechanism():
    specs = {"rr": {"ratio": "3"}, "krr": {"k": 3, "ratio": "2"}, "oue": {"k": 3, "ratio": "3"},
             "sue": {"k": 3, "ratio": "4"}, "subset": {"k": 4, "s": 2, "ratio": "2"}, "hadamard": {"k": 3, "ratio": "3"},
             "exponential": {"utility": [[1, 0], [0, 1]], "base": "2"}, "truncated_geometric": {"n": 4, "ratio": "2"},
             "folded_geometric": {"n": 4, "ratio": "2"}, "staircase": {"n": 6, "ratio": "2"}, "paper_example": {},
             "paper_construction": {"theorem": 6, "beta": "1/2"}}
    assert set(specs) == set(REGISTRY)
    for name, params in specs.items():
        function = getattr(mechanisms, name)
        args = [params[p] for p in REGISTRY[name].params if p in params]
        built, filed = function(*args), named({"mechanism": name, **params})
        assert built.channel.exact == filed.channel.exact and built.outputs == filed.outputs, name
    assert mechanisms.rr is mechanisms.randomized_response  # the long names keep working
