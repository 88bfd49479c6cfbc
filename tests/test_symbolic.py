"""Closed forms (relations.mechanisms._symbolic) against the exact numeric path: the sympy expressions for
``eps_d``, ``eps_i``, ``sigma_min`` and ``I(X;Y)``, evaluated at sampled parameters (``eps = ln t`` with
``t`` rational, rational priors / ``beta``), agree with ``relations.measure`` on the corresponding
numeric mechanism; ``eps_m`` falls inside the certified enclosure.  Sympy is slow: forms are built
once per module."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
from conftest import run_cli

import relations
from relations import mechanisms as M
from relations.mechanisms import _symbolic as S

sympy = EPS = None  # both bound by _sympy below, before any test of this module runs
TOL = 1e-12


@pytest.fixture(scope="module", autouse=True)
def _sympy():
    """Sympy, imported when the module's first test runs (every test skipped without it), not at collection,
    where it cost 0.9 s of CPU in each xdist worker."""
    global sympy, EPS
    sympy = pytest.importorskip("sympy")
    EPS = sympy.Symbol("eps", positive=True)


def rat(q: F):
    return sympy.Rational(q.numerator, q.denominator)


def assert_matches_numeric(values: dict, mech) -> None:
    """The four floats of ClosedForms.at against the exact measures of ``mech``."""
    m = relations.measure(mech)
    for name in ("eps_d", "eps_i", "sigma_min"):
        exact = getattr(m, name).exact
        got = values[name]
        if exact.sign:
            assert got == math.inf * exact.sign, name
        else:
            assert abs(got - math.log(exact.ratio)) <= TOL, (name, got, exact)
    enc = m.eps_m.enclosure
    assert F(enc.lower) - F(TOL) <= F(values["eps_m"]) <= F(enc.upper) + F(TOL)


# --------------------------------------------------------------------------- k-RR


@pytest.fixture(scope="module", params=[2, 3, 4])
def krr_forms(request):
    return request.param, S.krr(request.param)


def test_krr_eps_d_is_eps(krr_forms):
    k, forms = krr_forms
    assert sympy.simplify(forms.eps_d - EPS) == 0
    assert sympy.simplify(forms.eps_i - EPS) == 0  # uniform prior: eps_i = eps_d
    assert forms.sigma_min == 0
    assert EPS in forms.symbols


@pytest.mark.parametrize("t", [F(2), F(7, 2), F(101, 100)])
def test_krr_closed_forms_at_sampled_eps(krr_forms, t):
    k, forms = krr_forms
    values = forms.at({"eps": sympy.log(rat(t))})
    assert_matches_numeric(values, M.krr(k, t))
    # I(X;Y) = ln k - H(row) written out independently
    a, b = float(t / (t + k - 1)), float(1 / (t + k - 1))
    mi = math.log(k) + a * math.log(a) + (k - 1) * b * math.log(b)
    assert abs(values["eps_m"] - mi) < 1e-12
    # float parameters too (the documented {name: number} form)
    floats = forms.at({"eps": math.log(float(t))})
    for name in values:
        assert abs(floats[name] - values[name]) < 1e-12


# --------------------------------------------------------------------------- binary RR with a prior


@pytest.fixture(scope="module")
def rr_prior_forms():
    return S.binary_rr_with_prior()


@pytest.mark.parametrize("t,pi", [(F(3), F(3, 10)), (F(7, 2), F(1, 2)), (F(2), F(9, 10)), (F(5, 4), F(1, 20)),
                                  (F(13, 7), F(19, 20))])
def test_binary_rr_with_prior(rr_prior_forms, t, pi):
    forms = rr_prior_forms
    values = forms.at({"eps": sympy.log(rat(t)), "pi": rat(pi)})
    assert_matches_numeric(values, M.randomized_response(t, prior=[pi, 1 - pi]))
    # written out: eps_i = eps + |ln(pi / (1 - pi))|, sigma_min = -|ln(pi / (1 - pi))|
    skew = abs(math.log(pi / (1 - pi)))
    assert abs(values["eps_i"] - (math.log(t) + skew)) < 1e-12
    assert abs(values["sigma_min"] + skew) < 1e-12
    assert abs(values["eps_d"] - math.log(t)) < 1e-12


def test_piecewise_form_has_the_same_values(rr_prior_forms):
    pw = S.piecewise(rr_prior_forms.eps_i)
    for t, pi in [(F(3), F(3, 10)), (F(2), F(9, 10))]:
        subs = {EPS: sympy.log(rat(t)), sympy.Symbol("pi", positive=True): rat(pi)}
        assert abs(float(pw.subs(subs)) - float(rr_prior_forms.eps_i.subs(subs))) < 1e-12


# --------------------------------------------------------------------------- the paper's constructions


@pytest.mark.parametrize("theorem", [6, 8])
def test_paper_constructions(theorem):
    forms = S.paper_construction(theorem)
    assert forms.eps_d == sympy.oo and forms.eps_i == sympy.oo
    for beta in (F(1, 3), F(9, 10), F(1, 2)):
        values = forms.at({"beta": rat(beta)})
        assert values["eps_d"] == math.inf and values["eps_i"] == math.inf
        assert_matches_numeric(values, M.paper_construction(theorem, beta))
        # I(X;Y) = H(beta, 1 - beta) for both (the central one merges its last two rows)
        h = -float(beta) * math.log(beta) - float(1 - beta) * math.log(1 - beta)
        assert abs(values["eps_m"] - h) < 1e-12


def test_closed_forms_of_numeric_channels_follow_the_zero_conventions():
    # the paper's Section 5 example: exact ratios 13/7 and 247/7
    R = sympy.Rational
    forms = S.closed_forms([R(19, 20), R(1, 20)], [[R(13, 20), R(7, 20)], [R(7, 20), R(13, 20)]])
    assert sympy.simplify(forms.eps_d - sympy.log(sympy.Rational(13, 7))) == 0
    assert sympy.simplify(forms.eps_i - sympy.log(sympy.Rational(247, 7))) == 0
    assert_matches_numeric(forms.at({}), M.paper_example())
    # a zero against a positive entry: +oo; a shared zero column entry (0/0) is skipped
    zero = S.closed_forms([R(1, 2), R(1, 2)], [[R(1, 2), R(1, 2), 0], [R(1, 4), R(3, 4), 0]])
    assert sympy.simplify(zero.eps_d - sympy.log(2)) == 0  # (1/2)/(1/4) = 2 beats (3/4)/(1/2); 0/0 skipped
    assert_matches_numeric(zero.at({}), relations.from_dict(
        {"setting": "local", "prior": ["1/2", "1/2"], "channel": [["1/2", "1/2", "0"], ["1/4", "3/4", "0"]]}))
    one_sided = S.closed_forms([R(1, 2), R(1, 2)], [[1, 0], [R(1, 2), R(1, 2)]])
    assert one_sided.eps_d == sympy.oo


# --------------------------------------------------------------------------- command line


def test_cli_symbolic_krr():
    proc = run_cli("symbolic", "krr", "--k", "3")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "eps_d = eps" in lines
    assert {ln.split(" = ")[0] for ln in lines} == {"eps_d", "eps_i", "sigma_min", "eps_m"}


def test_cli_symbolic_bad_name_exit_2():
    proc = run_cli("symbolic", "nope")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("relations: error:") and "Traceback" not in proc.stderr


def test_cli_symbolic_pretty_and_latex():
    import sympy

    from relations.mechanisms._symbolic import krr

    latex = run_cli("symbolic", "krr", "--k", "3", "--format", "LaTeX")
    assert latex.returncode == 0, latex.stderr
    lines = latex.stdout.splitlines()
    assert lines[0] == r"$\varepsilon_d = \varepsilon$" and len(lines) == 4
    assert all(line.startswith("$") and line.endswith("$") for line in lines)
    # the LaTeX of I(X;Y) is sympy's rendering (\ln) of the library's closed form simplified, with eps as
    # \varepsilon; the simplified form has the closed form's value (checked at three points)
    forms = krr(3)
    eps = next(x for x in forms.eps_m.free_symbols if x.name == "eps")
    simple = sympy.simplify(forms.eps_m)
    for v in (sympy.Rational(1, 3), 1, 5):
        assert abs(sympy.N(simple.subs(eps, v) - forms.eps_m.subs(eps, v), 40)) < sympy.Float(10) ** -35
    assert lines[3] == "$" + r"\varepsilon_m = " + sympy.latex(simple, ln_notation=True,
                                                                 symbol_names={eps: r"\varepsilon"}) + "$"
    pretty = run_cli("symbolic", "krr", "--k", "3", "--format", "pretty")
    assert pretty.returncode == 0 and "eps_m =" in pretty.stdout and "\n" in pretty.stdout.split("eps_m =")[1].strip()
    bad = run_cli("symbolic", "krr", "--format", "tex")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
