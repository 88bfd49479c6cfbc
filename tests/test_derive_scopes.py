"""Derivations carry their facts' scopes (relations.proofs._derive).

* A derived relation's scope is the intersection of its facts' scopes (the union of their restrictions,
  the largest ``min_records``), after the two discharges written out in the module: a connected graph
  carries prior on its one component, and a claim with a ``diam`` factor holds on disconnected graphs.
* A fact of narrow scope never gives a wider one: a relation derivable only from it is not proved over
  its whole setting, neither by :func:`derive` (``covers`` is False) nor by the verify pipeline.
* ``relations.thm5_corrected`` is derived from facts whose scopes cover its claim (``suntay2020.thm1xiv``,
  every ``D^r``), not from ``zheng2025.thm1`` (``r >= 2``).
* The ranges asserted in a derivation hold on a single input (``diam = 0``, every budget 0).
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from relations import Mechanism, measure
from relations.catalogue import EVERY, PRIOR_ON_COMPONENTS, Linear, Relation, get
from relations.proofs._derive import derive, discharge, fact_scope

DENSITY, GROUP = get("cuffyu2016.density"), get("dworkroth2014.group")
THM1, THM1XIV, THM5C = get("zheng2025.thm1"), get("suntay2020.thm1xiv"), get("relations.thm5_corrected")

#: "eps_d <= eps_i - sigma_min" claimed on every central mechanism: false on a graph with a component of
#: zero prior (below), so no derivation may claim it there.
ID_DP_EVERYWHERE = Relation("test.id_dp_every_graph", "ID -> DP on every graph", "eps_d <= eps_i - sigma_min",
                            "central", "eps_i", "eps_d", "implication", "test", Linear(1, -1), scope=EVERY)


def test_thm5_corrected_is_derived_from_facts_covering_its_claim():
    d = derive(THM5C)
    assert d is not None and d.covers
    assert d.used == ("cuffyu2016.density", "dworkroth2014.group", "suntay2020.thm1xiv")
    assert "zheng2025.thm1" not in d.used  # stated for D^r with r >= 2 only; thm5_corrected claims every r
    assert d.restrictions == frozenset() and d.min_records == 1
    assert d.scope == "every D^r, any prior; every explicit neighbour graph, any prior"


def test_a_narrow_fact_narrows_the_derived_scope():
    """With zheng2025.thm1 (r >= 2) as its only identifiability fact, thm5_corrected follows only on r >= 2."""
    d = derive(THM5C, (DENSITY, GROUP, THM1))
    assert d is not None and "zheng2025.thm1" in d.used
    assert d.min_records == 2 and not d.covers
    assert "every D^r with r >= 2" in d.scope
    # a fact stated only for r >= 3 narrows it further, and the wide fact, when present, is preferred
    r3 = dataclasses.replace(THM1XIV, id="test.thm1xiv_r3", setting="central", min_records=3)
    d3 = derive(THM5C, (DENSITY, GROUP, r3))
    assert d3 is not None and d3.min_records == 3 and not d3.covers and "r >= 3" in d3.scope
    wide = derive(THM5C, (DENSITY, GROUP, r3, THM1XIV))
    assert wide is not None and wide.covers and "test.thm1xiv_r3" not in wide.used


def test_a_derivation_from_a_charged_components_fact_is_not_proved_on_every_graph():
    """suntay2020.thm1xiv holds on graphs whose components carry prior; a claim of the same inequality on
    every graph derives only on those graphs, and it is indeed false beyond: on the graph below (a
    component of zero prior) eps_d = ln 9 exceeds eps_i - sigma_min = ln 3, computed here by hand."""
    d = derive(ID_DP_EVERYWHERE, (THM1XIV,))
    assert d is not None and d.used == ("suntay2020.thm1xiv",)
    assert d.restrictions == frozenset({"prior-on-components"}) and not d.covers
    assert "positive prior" in d.scope and "every explicit neighbour graph" not in d.scope
    # the same derivation covers the claim restricted to the fact's scope
    inside = dataclasses.replace(ID_DP_EVERYWHERE, scope=PRIOR_ON_COMPONENTS)
    assert derive(inside, (THM1XIV,)).covers
    rows = [["3/4", "1/4"], ["1/4", "3/4"], ["9/10", "1/10"], ["1/10", "9/10"]]
    mech = Mechanism.graph(rows, [[0, 1], [2, 3]], prior=["1/2", "1/2", "0", "0"])
    m = measure(mech)
    values = {"eps_d": m.eps_d.value, "eps_i": m.eps_i.value, "sigma_min": m.sigma_min.value}
    # by hand: rows 2, 3 differ by 9/10 : 1/10 = 9; on {0, 1} p Q ratios are 3 and the prior is flat
    assert values["eps_d"] == pytest.approx(math.log(9))
    assert values["eps_i"] - values["sigma_min"] == pytest.approx(math.log(3))
    assert values["eps_d"] > values["eps_i"] - values["sigma_min"]


def test_discharges():
    assert discharge(frozenset({"connected", "prior-on-components"}), THM5C) == frozenset()
    assert discharge(frozenset({"connected", "prior-on-components"}), THM1) == frozenset({"connected"})
    assert discharge(frozenset({"prior-on-components"}), THM5C) == frozenset({"prior-on-components"})
    assert fact_scope(THM1) == (frozenset({"prior-on-components"}), 2)
    assert fact_scope(DENSITY) == (frozenset(), 1)


@pytest.mark.parametrize("rid", ["zheng2025.thm7", "zheng2025.thm11", "relations.thm5_corrected",
                                 "relations.thm7_sharp", "relations.thm9_corrected", "relations.thm11_sharp"])
def test_derivation_ranges_admit_a_single_input(rid):
    """A single input (a local domain of one input, D^r over one value) has no pair: every budget is 0 and
    diam = 0 (docs/semantics.md). Its values satisfy every assertion of the derivation but the negated claim."""
    import z3

    d = derive(get(rid))
    assert d is not None
    for block in d.smt2.split("(reset)"):
        assertions = list(z3.parse_smt2_string(block))
        names = {str(c) for a in assertions for c in _constants(a)}
        zero = [z3.Real(n) == 0 for n in names]
        solver = z3.Solver()
        solver.add(*assertions[:-1], *zero)
        assert solver.check() == z3.sat, (rid, block[:200])
        solver.add(assertions[-1])  # the negated claim: the single input satisfies the claim
        assert solver.check() == z3.unsat


def test_measured_single_input_is_all_zero():
    """The values the previous test assumes, as the tool measures them."""
    m = measure(Mechanism.local([["1/3", "2/3"]]))
    assert [m.eps_i.value, m.eps_d.value, m.sigma_min.value, float(m.eps_m.value)] == [0.0, 0.0, 0.0, 0.0]


def _constants(expr):
    import z3

    if z3.is_const(expr) and expr.decl().kind() == z3.Z3_OP_UNINTERPRETED:
        yield expr
    for child in expr.children():
        yield from _constants(child)


def test_verify_does_not_prove_a_relation_derivable_only_from_a_narrow_fact(monkeypatch):
    """The pipeline proves a derived relation only when the derivation covers its statement: with
    zheng2025.thm1 (r >= 2) as the only identifiability fact, thm5_corrected stays unproved, and the
    evidence names the narrower scope."""
    import relations.pipeline._verify as pipeline
    from relations.pipeline._verify import Effort, verify_relation

    monkeypatch.setattr(pipeline, "_derivation", lambda rel: derive(rel, (DENSITY, GROUP, THM1)))
    v = verify_relation(THM5C, Effort.of(True))
    assert str(v.verdict) != "proved"
    assert "only for every D^r with r >= 2" in v.evidence
    monkeypatch.setattr(pipeline, "_derivation", lambda rel: derive(rel, (DENSITY, GROUP, THM1XIV)))
    assert str(verify_relation(THM5C, Effort.of(True)).verdict) == "proved"


@pytest.mark.parametrize("setting", ["local", "central"])
def test_conjecture_proofs_admit_a_single_input(setting):
    """The conjecture prover's files state the same diameter range: a single input (every budget 0,
    DIAM = 0) satisfies each block's assertions but the negated conjecture."""
    import z3

    from relations.checking._conjectures import parse_conjecture
    from relations.proofs._conjectures import prove_conjecture

    proof = prove_conjecture(parse_conjecture("eps_m <= eps_all"), setting)
    assert proof is not None
    for block in proof.smt2.split("(reset)"):
        assertions = list(z3.parse_smt2_string(block))
        names = {str(c) for a in assertions for c in _constants(a)}
        solver = z3.Solver()
        solver.add(*assertions[:-1], *[z3.Real(n) == 0 for n in names])
        assert solver.check() == z3.sat, block[:300]


def test_a_relation_built_without_a_scope_gets_its_shapes_not_every_graph():
    """Identifiability -> DP holds only where every component with a pair carries prior: a user's relation of
    that shape, built without a scope, must not be reported as proved on every graph."""
    from relations import Mechanism
    from relations.catalogue import EVERY, PRIOR_ON_COMPONENTS, Linear, Relation

    def made(premise, conclusion):
        return Relation(id="user.rel", title="t", statement="s", setting="central", premise=premise,
                        conclusion=conclusion, kind="implication", source="a user", bound=Linear(1, -1))

    id_dp, dp_id = made("eps_i", "eps_d"), made("eps_d", "eps_i")
    assert id_dp.scope == PRIOR_ON_COMPONENTS and dp_id.scope == EVERY
    rows = [["3/4", "1/4"], ["1/4", "3/4"], ["9/10", "1/10"], ["1/10", "9/10"]]
    uncharged = Mechanism.graph(rows, [[0, 1], [2, 3]], prior=["1/2", "1/2", "0", "0"])
    assert id_dp.scope.outside(uncharged) is not None and dp_id.scope.outside(uncharged) is None
