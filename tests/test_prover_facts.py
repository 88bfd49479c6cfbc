"""The prover's base of facts and the prover (relations.proofs._facts, relations.proofs._conjectures).

Every fact is checked on random exact mechanisms by the exact decider (a second method: the
notions' own certified evaluators, not the prover); every finiteness rule too.  The prover's
positive cases are checked against the facts by hand in each test's comment; its negative cases are
conjectures that are false (a mechanism in the test refutes them, computed independently).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relations import Mechanism
from relations.checking import values
from relations.checking._conjecture_eval import decide
from relations.checking._conjectures import parse_conjecture
from relations.errors import InputError
from relations.proofs._conjectures import prove_conjecture
from relations.proofs._facts import FINITENESS, NOTION_FACTS, catalogue_facts, facts, finite_closure
from relations.search.strategies import graph_mechanisms, local_mechanisms, product_mechanisms

#: The arguments the parametrised facts are checked at.
KEYS = ["renyi(2)", "renyi(3/2)", "renyi(3)", "renyi(1/2)", "delta(0)", "delta(1/2)", "delta(ln(2))", "eps_delta(1/10)",
        "sibson(1/2)", "sibson(2)", "sibson(3)"]

_CONF = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))


def _outside(mech, restrictions) -> bool:
    """Whether ``mech`` is outside a scope with these restrictions (checked independently of the prover)."""
    from relations.catalogue._scopes import zero_prior_components
    from relations.model._neighbours import GraphInputs

    if mech.setting == "local":
        return False
    if "prior-on-components" in restrictions and zero_prior_components(mech):
        return True
    if "connected" in restrictions and isinstance(mech.inputs, GraphInputs):
        from relations.model._neighbours import diameter

        if diameter(mech.inputs) is None:
            return True
    return "records>=2" in restrictions and getattr(mech.inputs, "records", 2) < 2


_STATEMENTS: dict[str, list] = {}


def _statements(setting: str) -> list:
    """``(instance, text, parsed)`` for every fact instance of ``setting`` at :data:`KEYS` (``parsed``: the
    conjecture, or the InputError its text raised), once per setting: the same for every mechanism (formatting
    and parsing them again for each hypothesis example was 60 % of these tests' CPU)."""
    if setting not in _STATEMENTS:
        out = []
        for fact in facts(setting):
            for inst in fact.instances(KEYS, setting):
                for q in inst.conjectures:
                    text = f"{q.lhs} {q.op} {q.rhs}".replace("**", "^").replace("log(", "ln(")
                    if "DIAM" in text:
                        continue  # the catalogue's group-privacy bound: checked by relations verify
                    try:
                        parsed = parse_conjecture(text)
                    except InputError as exc:
                        parsed = exc
                    out.append((inst, text, parsed))
        _STATEMENTS[setting] = out
    return _STATEMENTS[setting]


def _check_facts(mech):
    reals = values(mech).reals
    failures = []
    outside: dict[frozenset[str], bool] = {}
    for inst, text, parsed in _statements(mech.setting):
        if inst.restrictions not in outside:
            outside[inst.restrictions] = _outside(mech, inst.restrictions)
        if outside[inst.restrictions]:
            continue
        try:
            if isinstance(parsed, InputError):
                raise parsed
            d = decide(parsed, reals)
        except InputError:
            continue  # cmi on an explicit neighbour graph: not defined there
        if d.status == "fails":
            failures.append((inst.id, text, d.lhs, d.rhs))
    assert not failures, failures


@_CONF
@given(local_mechanisms(max_inputs=3, max_outputs=3))
def test_every_fact_holds_on_random_local_mechanisms(mech):
    _check_facts(mech)


@_CONF
@given(st.one_of(graph_mechanisms(max_inputs=4, connected=False), product_mechanisms(max_records=3)))
def test_every_fact_holds_on_random_central_mechanisms(mech):
    _check_facts(mech)


@_CONF
@given(st.one_of(local_mechanisms(max_inputs=3, max_outputs=3), graph_mechanisms(max_inputs=4, connected=False)))
def test_finiteness_rules_hold(mech):
    """Each rule: the conclusion is finite whenever the premises are (floats of the exact values)."""
    reals = values(mech).reals
    universe = ["eps_i", "eps_d", "eps_all", "sigma_min", "eps_m", "kl", "rho", "chi2", "tv",
                "maximal_leakage", "min_entropy_leakage", "pml", "prior_vulnerability", "bayes_vulnerability",
                "bayes_leakage", "hellinger", "gdp_mu", *KEYS]
    finite = {k for k in universe if math.isfinite(float(reals[k]))}
    for allow in (frozenset(), frozenset({"prior-on-components", "connected", "records>=2"})):
        if allow and _outside(mech, allow):
            continue
        closure, _ = finite_closure(finite, mech.setting, universe, allow=allow)
        assert closure <= finite, (closure - finite, finite)


def test_the_registry_is_well_formed():
    ids = [f.id for f in (*catalogue_facts(), *NOTION_FACTS)]
    assert len(ids) == len(set(ids))
    for fact in NOTION_FACTS:  # every fact parses, and its proof is written out in the docs page
        for inst in fact.instances(KEYS):
            assert inst.conjectures
    from pathlib import Path

    page = (Path(__file__).parent.parent / "docs" / "proofs" / "notion-facts.md").read_text()
    for fact in NOTION_FACTS:
        assert f'<a id="{fact.id.replace("_", "-")}"></a>' in page, fact.id
    assert len({r.id for r in FINITENESS}) == len(FINITENESS)


def test_the_kept_fillings_and_rules_follow_a_replaced_helper(monkeypatch):
    """The prover keeps each fact's fillings and each closure's rules (made once per process); they are keyed on
    the helpers they are made through, so a replaced ``_argument`` or ``facts`` gives what it says, not what was
    kept before.  By hand: ``1 < ln 3``, so ``delta`` at ``ln 3`` is at most at ``1``; with ``1`` read as ``2 > ln 3``,
    the converse.  Locally ``kl <= eps_d`` makes ``kl`` finite with ``eps_d``; with no fact, only ``eps_d`` is."""
    from fractions import Fraction

    import relations.proofs._facts as facts_module
    from relations.numbers import Rational
    from relations.proofs._facts import BY_ID

    fact, keys = BY_ID["delta_monotone"], ["delta(ln(3))", "delta(1)"]
    assert [i.text for i in fact.instances(keys, "local")] == ["delta(ln(3)) <= delta(1)"]
    assert "kl" in finite_closure({"eps_d"}, "local", ["kl"])[0]
    real = facts_module._argument
    monkeypatch.setattr(facts_module, "_argument",
                        lambda key: ("delta", "1", Rational(Fraction(2))) if key == "delta(1)" else real(key))
    assert [i.text for i in fact.instances(keys, "local")] == ["delta(1) <= delta(ln(3))"]
    monkeypatch.setattr(facts_module, "facts", lambda setting: ())
    assert finite_closure({"eps_d"}, "local", ["kl"])[0] == {"eps_d"}
    monkeypatch.undo()
    assert [i.text for i in fact.instances(keys, "local")] == ["delta(ln(3)) <= delta(1)"]
    assert "kl" in finite_closure({"eps_d"}, "local", ["kl"])[0]


# ------------------------------------------------------------------ the prover: positive cases


def _proof(text, setting="local"):
    return prove_conjecture(parse_conjecture(text), setting)


@pytest.mark.parametrize(("text", "setting", "facts_used", "multipliers"), [
    # kl <= rho is the fact kl_le_rho itself (rho >= lim_{a->1} renyi(a)/a = kl): multiplier 1
    ("kl <= rho", "local", {"kl_le_rho"}, {"kl_le_rho": "1"}),
    ("kl <= rho", "central", {"kl_le_rho"}, {"kl_le_rho": "1"}),
    # Bun and Steinke's Proposition 3.3, a fact: multiplier 1
    ("rho <= eps_d^2 / 2", "local", {"rho_le_half_square"}, {"rho_le_half_square": "1"}),
    ("rho <= eps_d^2 / 2", "central", {"rho_le_half_square"}, {"rho_le_half_square": "1"}),
    ("kl <= eps_d", "local", {"kl_le_dp"}, {"kl_le_dp": "1"}),
    # renyi(2) <= 2 rho: renyi_le_rho at ALPHA = 2
    ("renyi(2) <= 2*rho", "local", {"renyi_le_rho[renyi(2) <= (2) * rho]"}, None),
    # the corrected Theorem 4 (Sun and Tay's Theorem 1-xii, lemma-proved), and its infinite cases
    ("eps_i <= eps_d - sigma_min", "local", None, None),
    # eps_m <= kl (local, convexity) + kl <= eps_d tanh(eps_d / 2) (Coq): 1 + 1
    ("eps_m <= eps_d * tanh(eps_d / 2)", "local", {"local_eps_m_le_kl", "relations.kl_tanh"},
     {"local_eps_m_le_kl": "1", "relations.kl_tanh": "1"}),
    # 2 kl + rho <= 2 eps_d + eps_d^2 / 2: e.g. kl_le_dp twice and rho_le_half_square once (checked below)
    ("2*kl + rho <= 2*eps_d + eps_d^2/2", "central", None, None),
    # tv <= tanh(eps_d / 2) <= eps_d / 2: a fact and the axiom tanh(u) <= u for u >= 0
    ("tv <= eps_d / 2", "local", {"tv_le_tanh"}, None),
    # 1 + kl <= exp(rho): the axiom exp(u) >= 1 + u and kl <= rho
    ("1 + kl <= exp(rho)", "local", {"kl_le_rho"}, None),
    # kl <= rho <= eps_d^2 / 2
    ("kl <= eps_d^2 / 2", "local", {"kl_le_rho", "rho_le_half_square"}, {"kl_le_rho": "1", "rho_le_half_square": "1"}),
    # the new notions' facts: eps_m <= maximal_leakage <= pml (1 + 1)
    ("eps_m <= pml", "central", {"eps_m_le_ml", "ml_le_pml"}, {"eps_m_le_ml": "1", "ml_le_pml": "1"}),
    # e.g. sibson(1/2) <= maximal_leakage <= pml <= eps_all = eps_d locally, or through eps_m
    ("sibson(1/2) <= eps_d", "local", None, None),
    # bayes_leakage = V(pi, C) - V(pi) <= 1 - V(pi) <= 1: the definition, V(pi, C) <= 1 and V(pi) > 0
    ("bayes_leakage <= 1", "central", {"bayes_leakage_def", "posterior_le_1", "range_prior_vulnerability"}, None),
    # hellinger <= tv <= tanh(eps_d / 2)
    ("hellinger <= tanh(eps_d / 2)", "local", {"hellinger_le_tv", "tv_le_tanh"}, None),
    # the Gaussian pair dominates: renyi(3) <= 3 mu^2 / 2, kl <= mu^2 / 2
    ("renyi(3) + kl <= 2 * gdp_mu^2", "central", {"kl_le_gdp"}, None),
])
def test_proved_with_the_facts_expected(text, setting, facts_used, multipliers):
    p = _proof(text, setting)
    assert p is not None and p.whole
    if facts_used is not None:
        assert facts_used <= set(p.used)
    if multipliers is not None:
        assert dict(p.multipliers) == multipliers
    assert any(line.startswith("scope:") for line in p.trace)
    _check_certificate(text, p)


def _statement(fact_id: str) -> str:
    from relations.proofs._facts import BY_ID

    if "[" in fact_id:
        return fact_id[fact_id.index("[") + 1:fact_id.rindex("]")]
    return BY_ID[fact_id].statement if fact_id in BY_ID else {f.id: f.statement for f in catalogue_facts()}[fact_id]


def _axiom_gap(label):
    """The quantity an axiom says is >= 0 (or = 0), from its label; the inequality checked numerically here."""
    import sympy

    from relations.checking._conjectures import symbol

    body = label.removeprefix("axiom: ").split(" (")[0]
    op = next(o for o in (" >= ", " <= ", " = ") if o in body)
    symbols = {name: symbol(name) for name in _SYMBOL_NAMES}
    a, b = (sympy.sympify(x.replace("^", "**"), locals=symbols) for x in body.split(op))
    gap = a - b if op == " >= " else b - a
    free = sorted(gap.free_symbols, key=str)
    for i in range(400):  # e^u >= 1 + u, tanh u <= u (u >= 0), ln u <= u - 1, sqrt(u)^2 = u: at points u >= 0
        point = {s: sympy.Rational(i % 20, 4) + sympy.Rational(i // 20, 7) for s in free}
        value = gap.subs(point).evalf(30)
        assert value >= -1e-25 if op != " = " else abs(value) < 1e-25, (label, point, value)
    return gap


#: The notions an axiom's label may name (their sympy symbols made by _axiom_gap: sympy is not imported at collection).
_SYMBOL_NAMES = ("kl", "rho", "eps_d", "tv", "eps_m", "chi2", "eps_i", "eps_all", "maximal_leakage")


def _check_certificate(text, proof):
    """rhs - lhs - sum(m * (b - a)) expands to a constant >= 0 (sympy, from the facts' text, not the prover's)."""
    import sympy

    assert proof.multipliers is not None
    conj = parse_conjecture(text)
    total = conj.rhs - conj.lhs
    for fact_id, m in proof.multipliers:
        if fact_id.startswith("axiom: "):  # a function inequality: checked here at 400 points instead
            total -= sympy.Rational(m) * _axiom_gap(fact_id)
            continue
        reverse = fact_id.endswith(" (>=)")
        statement = _statement(fact_id.removesuffix(" (>=)"))
        lhs, rhs = statement.split(" = ") if " = " in statement else (statement, None)
        if rhs is not None:
            q = parse_conjecture(f"{lhs} {'>=' if reverse else '<='} {rhs}")
        else:
            q = parse_conjecture(statement)
        gap = q.rhs - q.lhs if q.op in ("<=", "<") else q.lhs - q.rhs
        total -= sympy.Rational(m) * gap
    rest = sympy.simplify(sympy.expand(total))
    assert rest.is_Rational and rest >= 0, rest


def test_proofs_that_need_case_splits_or_function_inequalities():
    # tv <= tanh(eps_d/2) <= eps_d/2 and tv <= 1: tv <= tanh(eps_d) needs tanh monotone, not a linear combination
    p = _proof("tv <= tanh(eps_d)")
    assert p is not None and p.multipliers is None and "tv_le_tanh" in p.used
    # Pinsker then kl <= rho, through sqrt's monotonicity
    p = _proof("tv <= sqrt(rho / 2)")
    assert p is not None and {"pinsker", "kl_le_rho"} <= set(p.used)
    assert _proof("min(kl, tv) <= eps_d") is not None
    # chi2 = e^renyi(2) - 1 <= e^(2 rho) - 1: exp against ln through monotonicity
    p = _proof("chi2 <= exp(2*rho) - 1", "central")
    assert p is not None and {"renyi2_chi2", "renyi_le_rho[renyi(2) <= (2) * rho]"} <= set(p.used)


def test_the_smt_script_stands_alone():
    import z3

    p = _proof("eps_m <= eps_d * tanh(eps_d / 2)")
    solver = z3.Solver()
    solver.from_string(p.smt2)
    assert solver.check() == z3.unsat


# ------------------------------------------------------------------ zero and infinite cases


def test_infinite_cases_decided_right():
    # locally eps_d, sigma_min finite force eps_i finite (eps_i <= eps_d - sigma_min): no "eps_i alone infinite"
    p = _proof("eps_i <= eps_d - sigma_min")
    assert p is not None and not any(line.strip().startswith("eps_i infinite:") for line in p.trace)
    assert any(line.strip().startswith("eps_i, sigma_min infinite:") for line in p.trace)
    # kl can be infinite (rows of different supports): kl <= 5 is false there, so never proved
    assert _proof("kl <= 5") is None
    # eps_i = inf with sigma_min = -inf makes the left side inf - inf: undefined there, so no counterexample;
    # every other case follows from eps_i <= eps_d - sigma_min
    p = _proof("eps_i + sigma_min <= eps_d")
    assert p is not None and any("eps_i, sigma_min infinite" in line for line in p.trace)
    # always finite: tv <= 1, and eps_m <= maximal_leakage
    assert _proof("tv <= 1") is not None and _proof("eps_m <= maximal_leakage", "central") is not None


# ------------------------------------------------------------------ soundness: false conjectures


@pytest.mark.parametrize("text", ["rho <= kl", "eps_d <= kl", "eps_m <= eps_d / 2", "kl <= tv", "rho <= eps_d^2 / 4",
                                  "eps_d <= eps_i", "maximal_leakage <= eps_m"])
def test_false_conjectures_are_never_proved(text):
    assert _proof(text, "local") is None and _proof(text, "central") is None


def test_the_false_conjectures_are_false():
    """Two mechanisms whose values are computed here by hand: each statement above fails on one."""
    def kl_pair(p, r):
        return sum(x * math.log(x / y) for x, y in zip(p, r) if x > 0)

    def renyi_pair(p, r, a):
        return math.log(sum(x**a * y ** (1 - a) for x, y in zip(p, r))) / (a - 1)

    p, r = (0.5, 0.5), (0.01, 0.99)
    kl = max(kl_pair(p, r), kl_pair(r, p))
    rho_lower = max(max(renyi_pair(p, r, a), renyi_pair(r, p, a)) / a for a in (1.5, 2, 3, 4, 6))
    eps, tv = math.log(50), 0.49
    assert rho_lower > kl + 0.1 and eps > kl + 1 and kl > tv + 1  # rho <= kl, eps_d <= kl, kl <= tv fail
    mech = Mechanism.local([["1/2", "1/2"], ["1/100", "99/100"]], prior=["1/2", "1/2"])
    for text in ("rho <= kl", "eps_d <= kl", "kl <= tv"):
        assert decide(parse_conjecture(text), values(mech).reals).status == "fails", text
    # binary randomized response of ratio 3: rho >= kl = ln(3) / 2 > ln(3)^2 / 4 = eps_d^2 / 4
    assert math.log(3) / 2 > math.log(3) ** 2 / 4
    rr = Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]], prior=["1/2", "1/2"])
    assert decide(parse_conjecture("rho <= eps_d^2 / 4"), values(rr).reals).status == "fails"


# ------------------------------------------------------------------ scope


def test_a_narrow_scope_fact_does_not_prove_the_whole_setting():
    # eps_d <= eps_i - sigma_min needs prior on every component of an explicit graph centrally
    p = _proof("eps_d <= eps_i - sigma_min", "central")
    assert p is not None and not p.whole and p.restrictions == frozenset({"prior-on-components"})
    # and it is false outside: a component {2, 3} with zero prior and a DP-loose channel
    rows = [["1/2", "1/2"], ["1/2", "1/2"], ["9/10", "1/10"], ["1/10", "9/10"]]
    mech = Mechanism.graph(rows, [[0, 1], [2, 3]], prior=["1/2", "1/2", "0", "0"])
    assert decide(parse_conjecture("eps_d <= eps_i - sigma_min"), values(mech).reals).status == "fails"
    # locally the same statement is proved over the whole setting
    assert _proof("eps_d <= eps_i - sigma_min", "local").whole


def test_the_pipeline_reports_the_trace():
    from relations.pipeline import conjecture

    r = conjecture("kl <= rho", quick=True)
    assert r.verdict == "proved" and r.used == ("kl_le_rho",) and r.seconds >= 0
    assert any("kl_le_rho" in line for line in r.trace)
    from relations.io._conjecture_files import result_json

    assert result_json(r)["trace"] == list(r.trace)


def _random_rows(rng, n, m):
    rows = []
    for _ in range(n):
        w = [rng.choice([0, 1, 2, 3, 5]) for _ in range(m)]
        w[rng.randrange(m)] += 1
        rows.append([F(x, sum(w)) for x in w])
    return rows


def _random_prior(rng, n, zero_from=None):
    p = [rng.choice([0, 1, 2, 7]) if zero_from is None or i < zero_from else 0 for i in range(n)]
    p[0] += 1
    return [F(x, sum(p)) for x in p]


# the default run: the first 15 (local) and 20 (central) of the 30 seeded conjectures, each with at least three
# proved (about 0.1 and 0.2 s of CPU a conjecture, most of it for those the prover does not prove); all 30 with -m slow
@pytest.mark.parametrize(("setting", "count"), [("local", 15), ("central", 20),
                                                pytest.param("local", 30, marks=pytest.mark.slow),
                                                pytest.param("central", 30, marks=pytest.mark.slow)])
def test_random_proved_conjectures_hold_on_random_mechanisms(setting, count):
    """Soundness at random: conjectures a <= c b + d e over seeded random notions and coefficients (the first
    ``count`` of a seeded sequence); every one the prover proves over the whole setting is decided exactly (the
    notions' own evaluators) on seeded random mechanisms with zeros: local domains; centrally products over D^2
    and D^3, and explicit graphs with a component of zero prior or two components."""
    import random

    rng = random.Random(30)
    names = ["kl", "rho", "eps_d", "tv", "eps_m", "renyi(2)", "chi2", "maximal_leakage", "eps_i", "neg_sigma",
             "eps_all"]
    mechs = []
    for i in range(12):
        n, m = rng.choice([2, 3]), rng.choice([2, 3])
        if setting == "local":
            mech = Mechanism.local(_random_rows(rng, n, m), prior=_random_prior(rng, n))
        elif i % 2:
            mech = Mechanism.product(_random_rows(rng, n, m), records=rng.choice([2, 3]))
        else:
            mech = Mechanism.graph(_random_rows(rng, 4, m), [[0, 1], [2, 3]], prior=_random_prior(rng, 4, 2 + i % 4))
        mechs.append(values(mech).reals)
    proved = 0
    for _ in range(count):
        a, b, e = rng.sample(names, 3)
        c, d = rng.choice(["1", "1/2", "2", "0"]), rng.choice(["1", "1/2", "0", "1/4"])
        text = f"{a} <= {c} * {b} + {d} * {e}"
        p = _proof(text, setting)
        if p is not None and not p.whole:
            continue
        if p is None:
            continue
        proved += 1
        conj = parse_conjecture(text)
        for reals in mechs:
            assert decide(conj, reals).status != "fails", text
    assert proved >= 3  # the test tests something
