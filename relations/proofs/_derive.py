"""Proofs by composition: a relation implied by relations already proved.

The lemma-proved relations (:mod:`relations.proofs._smt`) are facts about the minimal
budgets of every mechanism in a setting, e.g. ``eps_d <= eps_i - sigma_min``,
``eps_all <= diam * eps_d``, ``eps_m <= eps_all``.  Together with the basic
facts ``eps_d >= 0``, ``eps_d <= eps_all`` (neighbours are pairs),
``eps_m >= 0``, ``sigma_min <= 0`` and ``diam >= 1`` (``diam = 1`` locally),
z3 decides whether ``conclusion <= f(premise, sigma_min)`` follows in real
arithmetic; the unsat core names the facts used.

Infinite budgets: the facts are only combined over quantities that are finite
whenever the premise is (in a connected neighbour graph: ``eps_i`` finite
forces a full-support prior, so ``sigma_min``, ``eps_d``, ``eps_all`` are
finite; ``eps_d`` finite forces ``eps_all`` finite; ``eps_m <= ln n`` is always
finite), so real arithmetic is sound for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from relations.catalogue._bounds import KLBound, Linear
from relations.catalogue._entries import CATALOGUE, Relation
from relations.catalogue._entries import get as get_relation
from relations.proofs._smt import lemma_for, prove
from relations.proofs._z3context import deterministic_solver, fresh_context

__all__ = ["FINITE", "Derivation", "lemma_facts", "derive"]

#: Quantities known finite when the premise is finite (connected neighbour graphs).
FINITE = {
    "eps_i": {"eps_i", "eps_d", "eps_all", "eps_m", "sigma"},
    "eps_d": {"eps_d", "eps_all", "eps_m"},
    "eps_all": {"eps_all", "eps_m"},
}


@dataclass(frozen=True)
class Derivation:
    relation: Relation
    settings: tuple[str, ...]
    used: tuple[str, ...]
    smt2: str = ""


@lru_cache(maxsize=1)
def lemma_facts() -> tuple[Relation, ...]:
    """The catalogue relations whose own lemma z3 proves."""
    out = []
    for rel in CATALOGUE:
        lemma = lemma_for(rel)
        if lemma is not None and prove(lemma).status == "proved":
            out.append(rel)
    return tuple(out)


def _notions(rel: Relation) -> set[str]:
    names = {rel.premise, rel.conclusion}
    if isinstance(rel.bound, Linear) and rel.bound.cs:
        names.add("sigma")
    return {"sigma" if n == "neg_sigma" else n for n in names}


def _inequality(rel: Relation, v: dict, diam):
    assert isinstance(rel.bound, Linear)
    conclusion = -v["sigma"] if rel.conclusion == "neg_sigma" else v[rel.conclusion]
    return conclusion <= rel.bound.z3_linear(v[rel.premise], v["sigma"], diam)


@fresh_context
def derive(rel: Relation, facts: tuple[Relation, ...] | None = None, timeout_ms: int = 10000) -> Derivation | None:
    """A proof of ``rel`` from ``facts`` (default: the lemma-proved catalogue), in each of its settings.

    Parameters
    ----------
    rel : Relation
    facts : tuple of Relation, optional
    timeout_ms : int, optional

    Returns
    -------
    Derivation or None
        The facts used (z3's unsat core) and the SMT-LIB script; ``None`` if it does not follow.

    Examples
    --------
    The local ``I(X;Y) <= eps_d`` follows from group privacy and the information density:

    >>> from relations.catalogue import get
    >>> derive(get("relations.thm11_sharp")).used
    ('cuffyu2016.density', 'dworkroth2014.group')
    """
    import z3

    from relations.proofs.solvers import standalone as with_logic

    if rel.kind != "implication" or not isinstance(rel.bound, Linear) or rel.premise not in FINITE:
        return None
    facts = lemma_facts() if facts is None else facts
    allowed = FINITE[rel.premise]
    if not _notions(rel) <= allowed:
        return None
    settings = ("local", "central") if rel.setting == "both" else (rel.setting,)
    used: set[str] = set()
    scripts = []
    for setting in settings:
        v = {n: z3.Real(n) for n in ("eps_i", "eps_d", "eps_all", "eps_m", "sigma")}
        diam = z3.Real("diam")
        solver = deterministic_solver(timeout_ms)
        solver.add(v["eps_d"] >= 0, v["eps_all"] >= v["eps_d"], v["eps_m"] >= 0, v["sigma"] <= 0, diam >= 1)
        if setting == "local":
            solver.add(diam == 1)
        base = list(solver.assertions())
        tracked = {}
        for fact in facts:
            if fact.id == rel.id or not fact.applies_to_setting(setting) or isinstance(fact.bound, KLBound):
                continue
            if _notions(fact) <= allowed:
                tracked[fact.id] = _inequality(fact, v, diam)
                solver.assert_and_track(tracked[fact.id], fact.id)
        negated = z3.Not(_inequality(rel, v, diam))
        solver.add(negated)
        if solver.check() != z3.unsat:
            return None
        core = sorted(str(c) for c in solver.unsat_core())
        used |= set(core)
        # the file states everything it relies on: the budgets' ranges, the facts used (each
        # asserted, not tracked), and the negated relation; a solver answers 'unsat' for it alone
        standalone = z3.Solver()
        standalone.add(*base)
        standalone.add(*[tracked[c] for c in core])
        standalone.add(negated)
        facts_text = "; ".join(f"{c}: {get_relation(c).symbols}" for c in core)
        scripts.append(f"; setting: {setting}\n; facts asserted, in order after the ranges: {facts_text}\n"
                       + with_logic(standalone.to_smt2()))
    return Derivation(rel, settings, tuple(sorted(used)), "\n(reset)\n".join(scripts))
