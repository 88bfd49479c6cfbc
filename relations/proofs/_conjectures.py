"""Proofs of user conjectures from the catalogue's proved relations (z3, real arithmetic).

A conjecture (:mod:`relations.checking._conjectures`) that is polynomial in the ratio budgets
and ``eps_m`` (``+ - *``, integer powers, division by constants, ``min``/``max``) is proved when
z3 shows its negation unsatisfiable together with facts that hold on every mechanism of the
setting: the relations whose own lemma z3 proves (:func:`~relations.proofs._derive.lemma_facts`)
and the basic facts (budgets ``>= 0``, ``sigma_min <= 0``, ``eps_d <= eps_all``, locally
``eps_all = eps_d``).  As in :mod:`relations.proofs._derive`, facts are only combined over
quantities that are finite whenever the named ones are (``FINITE``); every pattern of infinite
named notions consistent with that is checked separately in sympy's extended reals (each must
give ``True``), so the proof covers infinite budgets too, in the relations' proved scope
(connected neighbour graphs: every local domain and every ``D^r``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from relations.catalogue._bounds import KLBound, Linear
from relations.checking._conjectures import Conjecture
from relations.notions import BASE_NOTIONS
from relations.proofs._derive import FINITE, lemma_facts
from relations.proofs._z3context import deterministic_solver, fresh_context

__all__ = ["PROVABLE_NOTIONS", "Proof", "prove_conjecture"]

#: The notions a proof may name (``neg_sigma`` is ``-sigma_min``).
PROVABLE_NOTIONS = BASE_NOTIONS

_KEY = {"sigma_min": "sigma", "neg_sigma": "sigma"}


@dataclass(frozen=True)
class Proof:
    """A z3 proof: the SMT-LIB script (``unsat`` proves it), the relations used and the scope."""

    smt2: str
    used: tuple[str, ...]
    scope: str


class _NotPolynomial(Exception):
    pass


def _z3(expr, v):
    import sympy
    import z3

    if expr.is_Rational:
        return z3.Q(int(expr.p), int(expr.q))
    if expr.is_Symbol:
        return -v["sigma"] if expr.name == "neg_sigma" else v[_KEY.get(expr.name, expr.name)]
    if isinstance(expr, sympy.Pow) and expr.exp.is_Integer:
        n = int(expr.exp)
        if n == -1 and expr.base.is_Rational and expr.base != 0:
            return z3.Q(int(expr.base.q), int(expr.base.p))
        if 0 <= n <= 16:
            b = _z3(expr.base, v)
            return z3.RealVal(1) if n == 0 else z3.simplify(z3.Product(*[b] * n)) if n > 1 else b
        raise _NotPolynomial
    args = [_z3(a, v) for a in expr.args]
    if isinstance(expr, sympy.Add):
        return z3.Sum(*args)
    if isinstance(expr, sympy.Mul):
        return z3.Product(*args)
    if isinstance(expr, (sympy.Min, sympy.Max)):
        out = args[0]
        for a in args[1:]:
            out = z3.If(a > out, a, out) if isinstance(expr, sympy.Max) else z3.If(a < out, a, out)
        return out
    raise _NotPolynomial


def _closure(finite: set[str]) -> set[str]:
    out = set(finite) | {"eps_m"}
    for n in finite:
        out |= FINITE.get(n, set())
    return out


def _infinite_cases_hold(conj: Conjecture) -> bool:
    """Every consistent pattern of infinite named notions makes the conjecture ``True`` in sympy."""
    import sympy

    from relations.checking._conjectures import symbol

    keys = sorted({_KEY.get(n, n) for n in conj.notions} - {"eps_m"})
    for size in range(1, len(keys) + 1):
        for infinite in itertools.combinations(keys, size):
            if _closure(set(keys) - set(infinite)) & set(infinite):
                continue  # impossible: a finite named notion forces this one finite
            subs = {}
            for name in conj.notions:
                key = _KEY.get(name, name)
                if key in infinite:
                    subs[symbol(name)] = -sympy.oo if name == "sigma_min" else sympy.oo
            try:
                lhs, rhs = conj.lhs.xreplace(subs).doit(), conj.rhs.xreplace(subs).doit()
                rel = {"<=": sympy.Le, "<": sympy.Lt, ">=": sympy.Ge, ">": sympy.Gt}[conj.op](lhs, rhs)
            except (TypeError, ValueError):
                return False
            if rel is not sympy.true:
                return False
    return True


@fresh_context
def prove_conjecture(conj: Conjecture, setting: str, *, timeout_ms: int = 10000) -> Proof | None:
    """A z3 proof of ``conj`` in ``setting`` from the lemma-proved catalogue relations, or ``None``.

    Parameters
    ----------
    conj : Conjecture
    setting : str
        ``"local"`` or ``"central"``.
    timeout_ms : int, optional
        z3's time limit.

    Returns
    -------
    Proof or None
        ``None`` when the conjecture is not polynomial in :data:`PROVABLE_NOTIONS`, an infinite
        case does not hold, or z3 does not answer ``unsat``.

    Examples
    --------
    >>> from relations.checking._conjectures import parse_conjecture
    >>> prove_conjecture(parse_conjecture("eps_d <= eps_i - sigma_min"), "local").used
    ('zheng2025.thm3',)
    >>> prove_conjecture(parse_conjecture("eps_m <= eps_d / 2"), "local") is None
    True
    """
    import z3

    from relations.catalogue._entries import get as get_relation
    from relations.proofs.solvers import standalone

    if not set(conj.notions) <= set(PROVABLE_NOTIONS):
        return None
    facts = lemma_facts()  # proved (once per process) before this query builds its terms
    v = {n: z3.Real(n) for n in ("eps_i", "eps_d", "eps_all", "eps_m", "sigma")}
    diam = z3.Real("diam")
    try:
        lhs, rhs = _z3(conj.lhs, v), _z3(conj.rhs, v)
    except _NotPolynomial:
        return None
    if not _infinite_cases_hold(conj):
        return None
    allowed = _closure({_KEY.get(n, n) for n in conj.notions})
    base = [diam >= 1] + ([diam == 1] if setting == "local" else [])
    base += [v[n] >= 0 for n in ("eps_i", "eps_d", "eps_all", "eps_m") if n in allowed]
    base += [v["sigma"] <= 0] if "sigma" in allowed else []
    if {"eps_d", "eps_all"} <= allowed:
        base.append(v["eps_d"] <= v["eps_all"])
        if setting == "local":
            base.append(v["eps_all"] == v["eps_d"])
    negated = z3.Not({"<=": lhs <= rhs, "<": lhs < rhs, ">=": lhs >= rhs, ">": lhs > rhs}[conj.op])
    solver = deterministic_solver(timeout_ms)
    solver.add(*base)
    tracked = {}
    for fact in facts:
        if not fact.applies_to_setting(setting) or isinstance(fact.bound, KLBound) or not isinstance(fact.bound, Linear):
            continue
        names = {_KEY.get(n, n) for n in (fact.premise, fact.conclusion)} | ({"sigma"} if fact.bound.cs else set())
        if names <= allowed:
            conclusion = -v["sigma"] if fact.conclusion == "neg_sigma" else v[_KEY.get(fact.conclusion, fact.conclusion)]
            tracked[fact.id] = conclusion <= fact.bound.z3_linear(v[_KEY.get(fact.premise, fact.premise)], v["sigma"], diam)
            solver.assert_and_track(tracked[fact.id], fact.id)
    solver.add(negated)
    if solver.check() != z3.unsat:
        return None
    core = tuple(sorted(str(c) for c in solver.unsat_core()))
    alone = z3.Solver()
    alone.add(*base, *[tracked[c] for c in core], negated)
    facts_text = "; ".join(f"{c}: {get_relation(c).symbols}" for c in core) or "none (basic facts only)"
    header = (f"; conjecture ({setting}): {conj.text}\n; facts asserted after the ranges: {facts_text}\n"
              f"; the last assertion is the negated conjecture: 'unsat' proves it for finite budgets; the infinite "
              f"cases were checked in sympy's extended reals\n")
    return Proof(header + standalone(alone.to_smt2()), core,
                 "the proved scope of the relations used (every local domain and every D^r; explicit neighbour "
                 "graphs whose components carry prior)")

