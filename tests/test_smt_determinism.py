"""z3's answers do not depend on what the process asked z3 before, nor on the machine's load.

z3's default solver for nonlinear real arithmetic races tactics under wall-clock limits and orders
variables by term identifiers, so the same query could return another model (and ``verify`` another
witness) after unrelated queries or on a busy machine: CI once failed that way.  Each query now starts
from a fresh context and runs z3's SMT core under a resource limit
(:func:`relations.proofs._z3context.deterministic_solver`)."""

from __future__ import annotations

import json
import subprocess
import sys

import z3

from relations.catalogue import get
from relations.pipeline._verify import SMT_SHAPES
from relations.proofs import _smt as smt
from relations.proofs._derive import derive

SCRIPT = """
import json
from relations.catalogue import get
from relations.proofs import _smt as smt
from relations.pipeline._verify import SMT_SHAPES
res = smt.bounded_search(get("zheng2025.thm2"), SMT_SHAPES["central"][0])
print(json.dumps([res.status, [str(v) for v in res.prior], [[str(v) for v in r] for r in res.channel]]))
"""


def _found(res):
    return [res.status, [str(v) for v in res.prior], [[str(v) for v in r] for r in res.channel]]


def _noise():
    """Unrelated z3 work in the default context: terms, a nonlinear query, a model."""
    xs = [z3.Real(f"noise{i}") for i in range(40)]
    s = z3.Solver()
    s.add(*[x * x > i for i, x in enumerate(xs)], z3.Sum(xs) < 1000)
    s.check()
    smt.prove(smt.lemma_for(get("zheng2025.thm1")))


def test_bounded_search_same_model_whatever_ran_before():
    rel, shape = get("zheng2025.thm2"), SMT_SHAPES["central"][0]
    first = _found(smt.bounded_search(rel, shape))
    assert first[0] == "sat"
    _noise()
    again = _found(smt.bounded_search(rel, shape))
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True).stdout
    assert again == first == json.loads(out)


def test_derivation_uses_the_same_facts_whatever_ran_before():
    rel = get("relations.thm5_corrected")  # its unsat core once varied between runs
    first = derive(rel)
    _noise()
    assert first is not None and derive(rel).used == first.used


def test_the_callers_z3_terms_stay_usable():
    x = z3.Real("x")
    smt.prove(smt.lemma_for(get("zheng2025.thm1")))
    derive(get("relations.thm11_sharp"))
    s = z3.Solver()
    s.add(x > 1, x + z3.Real("y") < 0)  # would raise a context mismatch if the default context had changed
    assert s.check() == z3.sat
