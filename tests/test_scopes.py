"""Proved scopes (relations.catalogue._scopes) and the erasure family of the non-implications.

* ``check`` never contradicts a ``proved`` verdict: every random mechanism inside a
  relation's proved scope (local, D^r, connected and disconnected graphs, zero priors,
  products) checks ``holds``; outside it, the status is ``outside the proved scope``.
* The scope test (zero-prior components) agrees with networkx's components.
* The erasure family: sympy's check passes, the tool's certified I(X;Y) of members agrees
  with ``r t ln 2`` computed here, and the stand-alone scripts under proofs/families run.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import _shared
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from relations import Mechanism, check, measure
from relations.catalogue import BY_ID, CATALOGUE, PRIOR_ON_COMPONENTS, zero_prior_components
from relations.kinds import Status
from relations.pipeline._verify import erasure_member
from relations.search import _erasure as erasure
from relations.search.strategies import (
    central_dense_mechanisms,
    graph_mechanisms,
    local_mechanisms,
    product_mechanisms,
)

ROOT = Path(__file__).resolve().parents[1]
VERDICTS = json.loads((ROOT / "proofs" / "verdicts.json").read_text())
PROVED = [BY_ID[v["id"]] for v in VERDICTS if v["verdict"] == "proved" and BY_ID[v["id"]].kind == "implication"]

ROWS = [["3/4", "1/4"], ["1/4", "3/4"], ["9/10", "1/10"], ["1/10", "9/10"]]


def test_the_issue_example_is_outside_the_scope_not_a_contradiction():
    mech = Mechanism.graph(ROWS, [[0, 1], [2, 3]], prior=["1/2", "1/2", "0", "0"])
    by_id = {o.relation.id: o for o in check(mech).outcomes}
    for rid in ("zheng2025.thm1", "suntay2020.thm1xiv"):
        o = by_id[rid]
        assert o.status == Status.OUTSIDE_SCOPE and o.holds is None
        assert "{2, 3}" in o.note and "fails here" in o.note
        # the numbers are still those of the mechanism: eps_d = ln 9 on the zero-prior component, eps_i = ln 3
        assert float(o.conclusion) == pytest.approx(math.log(9)) and float(o.bound) == pytest.approx(math.log(3))
    # joined into one component, a zero next to a positive prior makes sigma_min = -inf: inside, and holds
    joined = Mechanism.graph(ROWS, [[0, 1], [1, 2], [2, 3]], prior=["1/2", "1/2", "0", "0"])
    assert {o.relation.id: o.status for o in check(joined).outcomes}["zheng2025.thm1"] == Status.HOLDS


def test_verdicts_state_the_scope_of_the_relation():
    for v in VERDICTS:
        rel = BY_ID[v["id"]]
        if v["verdict"] == "proved" and rel.kind == "implication":
            assert v["scope"] == rel.scope.describe(rel.setting)
        if rel.kind == "non-implication":
            assert v["scope"].startswith("every eps_m > 0") and v["family_file"]
    assert {r.id for r in CATALOGUE if r.scope is PRIOR_ON_COMPONENTS} >= {"zheng2025.thm1", "suntay2020.thm1xiv"}


def _components_by_networkx(mech) -> list[tuple[int, ...]]:
    import networkx as nx  # here, not at collection (0.25 s of CPU in each xdist worker)

    g = nx.Graph()
    g.add_nodes_from(range(mech.inputs.size))
    g.add_edges_from(mech.inputs.edges)
    prior = mech.prior.exact
    out = [tuple(sorted(c)) for c in nx.connected_components(g)
           if len(c) > 1 and all(prior[i] == 0 for i in c)]
    return sorted(out)


ANY_MECHANISM = st.one_of(local_mechanisms(), central_dense_mechanisms(max_rows=9), product_mechanisms(max_records=3),
                          graph_mechanisms(), graph_mechanisms(connected=False, max_inputs=6))


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(ANY_MECHANISM)
def test_inside_the_proved_scope_every_proved_relation_holds(mech):
    if hasattr(mech.inputs, "edges"):
        assert zero_prior_components(mech) == _components_by_networkx(mech)
    for o in check(mech, relations=PROVED).outcomes:
        if o.status in (Status.NOT_APPLICABLE,):
            continue
        outside = o.relation.scope.outside(mech)
        if outside is None:
            assert o.status == Status.HOLDS, (o.relation.id, o.status, o.note)
        else:
            assert o.status == Status.OUTSIDE_SCOPE and zero_prior_components(mech)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(graph_mechanisms(connected=False, max_inputs=6))
def test_disconnected_graphs_reach_outside_the_scope(mech):
    """Outside the scope the relation may fail; the status never says 'fails' for a proved relation."""
    statuses = {o.relation.id: o.status for o in check(mech, relations=PROVED).outcomes}
    assert Status.FAILS not in statuses.values()


@pytest.mark.parametrize("records", [1, 2, 3])
def test_erasure_family_checks_symbolically(records):
    out = erasure.check_family(records)
    assert out["passed"] and out["linear_in_t"]
    assert all(out["bound_holds"].values()) and out["infinite_at"] is not None


@pytest.mark.parametrize("setting,eps_m", [("local", Fraction(1, 10)), ("local", Fraction(3, 7)),
                                           ("local", Fraction(5)), ("central", Fraction(1, 10)),
                                           ("central", Fraction(3))])
def test_erasure_members_measured_by_the_tool(setting, eps_m):
    r = 1 if setting == "local" else 2
    t = min(Fraction(1), eps_m / r)
    res = measure(erasure_member(setting, eps_m))
    enc = res.eps_m.enclosure
    expected = r * float(t) * math.log(2)  # I of r independent erasure channels, uniform input: r t H(X)
    assert float(enc.lower) - 1e-12 <= expected <= float(enc.upper) + 1e-12
    assert enc.upper <= eps_m
    assert str(res.eps_d.exact) == "inf" and str(res.eps_i.exact) == "inf"


FAMILY_SCRIPTS = sorted((ROOT / "proofs" / "families").glob("*.py"))

#: Each script named run as ``__main__`` (``runpy``), one after the other in one isolated interpreter (one start
#: and one import of sympy for them all, 0.6 s of the 0.85 s of CPU each took as its own process): its exit
#: status and what it printed.
_RUN_EACH = """
import contextlib, io, json, runpy, sys, traceback
out = {}
for path in sys.argv[1:]:
    text, code = io.StringIO(), 0
    with contextlib.redirect_stdout(text), contextlib.redirect_stderr(text):
        try:
            runpy.run_path(path, run_name="__main__")
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:
            traceback.print_exc()
            code = 1
    out[path] = [code, text.getvalue()]
sys.stdout.write(json.dumps(out))
"""


@pytest.fixture(scope="module")
def family_runs(tmp_path_factory) -> dict[str, tuple[int, str]]:
    """The scripts under proofs/families run from an empty folder by ``python -I`` (isolated: no PYTHONPATH, no
    user site, not the current folder), in one process: ``{script name: (exit status, output)}``.  Once per test
    run (``_shared``: the xdist workers that run some of the scripts share it)."""
    return _shared(tmp_path_factory, "family-scripts", _family_runs)


def _family_runs(folder: Path) -> dict[str, tuple[int, str]]:
    done = subprocess.run([sys.executable, "-I", "-c", _RUN_EACH, *map(str, FAMILY_SCRIPTS)], cwd=folder,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return {Path(path).name: (code, text) for path, (code, text) in json.loads(done.stdout).items()}


@pytest.mark.parametrize("path", FAMILY_SCRIPTS, ids=lambda p: p.name)
def test_family_scripts_run_stand_alone(path, family_runs):
    """The scripts import only sympy and the standard library: run from an empty folder, isolated."""
    code, text = family_runs[path.name]
    assert code == 0, text
    assert json.loads(text)["passed"] is True
