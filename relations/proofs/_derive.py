"""Proofs by composition: a relation implied by relations already proved, in the scope they cover.

The lemma-proved relations (:mod:`relations.proofs._smt`) are facts about the minimal
budgets of every mechanism in a setting, e.g. ``eps_d <= eps_i - sigma_min``,
``eps_all <= diam * eps_d``, ``eps_m <= eps_all``.  Together with the basic
facts ``eps_d >= 0``, ``eps_d <= eps_all`` (neighbours are pairs),
``eps_m >= 0``, ``sigma_min <= 0`` and the range of the diameter, z3 decides whether
``conclusion <= f(premise, sigma_min)`` follows in real arithmetic; the unsat core names
the facts used.

**The diameter.** ``diam`` is ``0`` for a single input (a local domain of one input, ``D^r`` over one
value, a one-node graph: no pair, every budget here ``0``), ``1`` for a local domain of two or more
inputs, ``r`` for ``D^r``, the longest shortest path of a connected graph, and ``+inf`` for a
disconnected one.  So the ranges asserted are ``diam = 0 or diam = 1`` locally and ``diam >= 0``
centrally (finite: see below); a single input needs no case of its own.

**Scopes.** Each fact holds on the mechanisms of its scope: its setting, its proved scope
(:class:`~relations.catalogue.Scope`: ``prior-on-components`` for the identifiability-to-DP
relations) and, on ``D^r``, its ``min_records``.  A derivation holds on the intersection: the union
of the facts' restrictions (:data:`~relations.catalogue._scopes.RESTRICTIONS`) and the largest
``min_records``.  Central derivations also need ``connected`` (finite ``diam``, and the finiteness
below) when ``diam`` enters or ``eps_all`` does with another premise, and ``prior-on-components``
when ``eps_d`` enters with the premise ``eps_i``.  Two restrictions are discharged by the claim itself:

* ``connected`` implies ``prior-on-components``: a connected graph with a neighbour pair is one
  component, and the prior, summing to 1, is positive somewhere on it;
* a claim whose bound has a ``diam`` factor holds on every disconnected graph (``diam = +inf``, the
  bound is ``+inf``: ``docs/semantics.md``), so ``connected`` is no restriction for it.

:func:`derive` first tries the facts whose scopes cover the claim's (so ``suntay2020.thm1xiv``,
stated for every ``D^r``, before ``zheng2025.thm1``, stated for ``r >= 2``); a derivation that needs a
narrower fact is returned with its narrower scope, and :attr:`Derivation.covers` says whether it
covers the relation's statement (the verify pipeline proves a relation only then).

Infinite budgets: the facts are only combined over quantities that are finite
whenever the premise is (in a connected neighbour graph: ``eps_i`` finite
forces a full-support prior, so ``sigma_min``, ``eps_d``, ``eps_all`` are
finite; ``eps_d`` finite forces ``eps_all`` finite; ``eps_m <= ln n`` is always
finite), so real arithmetic is sound for them; beyond connected graphs, the restrictions above
say which of these still hold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from relations.catalogue._bounds import KLBound, Linear
from relations.catalogue._entries import CATALOGUE, Relation
from relations.catalogue._scopes import RESTRICTIONS
from relations.proofs._smt import lemma_for, prove
from relations.proofs._z3context import deterministic_solver, fresh_context

__all__ = ["FINITE", "Derivation", "lemma_facts", "derive", "fact_scope", "discharge"]

#: Quantities known finite when the premise is finite (connected neighbour graphs).
FINITE = {
    "eps_i": {"eps_i", "eps_d", "eps_all", "eps_m", "sigma"},
    "eps_d": {"eps_d", "eps_all", "eps_m"},
    "eps_all": {"eps_all", "eps_m"},
}


@dataclass(frozen=True)
class Derivation:
    """A relation derived from facts, with the scope the facts cover.

    Attributes
    ----------
    relation : Relation
    settings : tuple of str
    used : tuple of str
        The facts used (z3's unsat cores, made minimal, every setting).
    smt2 : str
        The standalone SMT-LIB script, one block per setting.
    restrictions : frozenset of str
        The central restrictions of the derived scope (:data:`~relations.catalogue._scopes.RESTRICTIONS`
        keys), after :func:`discharge`; empty: every explicit neighbour graph.
    min_records : int
        The least ``r`` of ``D^r`` covered: the largest ``min_records`` of the central facts used.
    """

    relation: Relation
    settings: tuple[str, ...]
    used: tuple[str, ...]
    smt2: str = ""
    restrictions: frozenset[str] = field(default_factory=frozenset)
    min_records: int = 1

    @property
    def covers(self) -> bool:
        """True iff the derived scope contains the relation's stated and proved scope."""
        claimed, records = fact_scope(self.relation)
        central = "central" in self.settings
        return not central or (self.restrictions <= claimed and self.min_records <= records)

    @property
    def scope(self) -> str:
        """The derived scope in words.

        Examples
        --------
        >>> from relations.catalogue import get
        >>> derive(get("relations.thm5_corrected")).scope
        'every D^r, any prior; every explicit neighbour graph, any prior'
        """
        parts = ["every local domain, any prior"] if "local" in self.settings else []
        if "central" in self.settings:
            parts.append("every D^r" + (f" with r >= {self.min_records}" if self.min_records > 1 else "")
                         + ", any prior")
            parts.append("every explicit neighbour graph, any prior" if not self.restrictions else
                         "an explicit neighbour graph when "
                         + " and ".join(RESTRICTIONS[r].split(": ", 1)[-1] for r in sorted(self.restrictions)))
        return "; ".join(parts)


def fact_scope(rel: Relation) -> tuple[frozenset[str], int]:
    """A relation's central scope as ``(restrictions, min_records)``: what a fact brings to a derivation.

    Examples
    --------
    >>> from relations.catalogue import get
    >>> fact_scope(get("zheng2025.thm1")), fact_scope(get("suntay2020.thm1xiv"))
    ((frozenset({'prior-on-components'}), 2), (frozenset({'prior-on-components'}), 1))
    """
    restrictions = {"prior-on-components"} if rel.scope.needs_prior_on_components else set()
    return frozenset(restrictions), rel.min_records


def discharge(restrictions: frozenset[str], rel: Relation) -> frozenset[str]:
    """The restrictions left once ``rel``'s own form covers some of them (see the module's docstring).

    Examples
    --------
    >>> from relations.catalogue import get
    >>> sorted(discharge(frozenset({"connected", "prior-on-components"}), get("relations.thm5_corrected")))
    []
    >>> sorted(discharge(frozenset({"connected", "prior-on-components"}), get("zheng2025.thm1")))
    ['connected']
    """
    out = set(restrictions)
    if "connected" in out:
        out.discard("prior-on-components")
        if isinstance(rel.bound, Linear) and rel.bound.times_diameter:
            out.discard("connected")
    return frozenset(out)


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


def _times_diameter(rel: Relation) -> bool:
    return isinstance(rel.bound, Linear) and rel.bound.times_diameter


def _central_base(rel: Relation, core: list[Relation]) -> frozenset[str]:
    """What a central derivation over ``core`` needs of the graph for real arithmetic to be sound.

    ``connected`` when ``diam`` enters (it must be finite) or when ``eps_all`` does with another premise
    (finite ``eps_d`` or ``eps_i`` bound ``eps_all`` only along paths); ``prior-on-components`` when
    ``eps_d`` enters with the premise ``eps_i`` (finite ``eps_i`` says nothing of a component of zero prior,
    where ``eps_d`` may be infinite).  ``sigma_min`` is finite with ``eps_i`` (a zero prior next to a
    positive one makes ``eps_i`` infinite) and ``eps_m <= ln n`` always.
    """
    names = set().union(_notions(rel), *(_notions(f) for f in core))
    out = set()
    if _times_diameter(rel) or any(_times_diameter(f) for f in core):
        out.add("connected")
    if "eps_all" in names and rel.premise != "eps_all":
        out.add("connected")
    if rel.premise == "eps_i" and "eps_d" in names:
        out.add("prior-on-components")
    return frozenset(out)


@fresh_context
def derive(rel: Relation, facts: tuple[Relation, ...] | None = None, timeout_ms: int = 10000) -> Derivation | None:
    """A proof of ``rel`` from ``facts`` (default: the lemma-proved catalogue), in each of its settings.

    Facts whose scopes cover the claim's are tried first; failing that, every fact, and the derivation
    gets the narrower scope of the facts it used (:attr:`Derivation.covers` is then False).

    Parameters
    ----------
    rel : Relation
    facts : tuple of Relation, optional
    timeout_ms : int, optional

    Returns
    -------
    Derivation or None
        The facts used (z3's unsat core), the SMT-LIB script and the derived scope; ``None`` if it does
        not follow.

    Examples
    --------
    The local ``I(X;Y) <= eps_d`` follows from group privacy and the information density:

    >>> from relations.catalogue import get
    >>> d = derive(get("relations.thm11_sharp"))
    >>> d.used, d.covers, d.scope
    (('cuffyu2016.density', 'dworkroth2014.group'), True, 'every local domain, any prior')
    """
    from relations.proofs.solvers import standalone as with_logic

    if rel.kind != "implication" or not isinstance(rel.bound, Linear) or rel.premise not in FINITE:
        return None
    facts = lemma_facts() if facts is None else facts
    allowed = FINITE[rel.premise]
    if not _notions(rel) <= allowed:
        return None
    claimed, claimed_records = fact_scope(rel)
    settings = ("local", "central") if rel.setting == "both" else (rel.setting,)
    used: set[str] = set()
    restrictions: frozenset[str] = frozenset()
    min_records = 1
    scripts = []
    for setting in settings:
        candidates = [f for f in facts if f.id != rel.id and f.applies_to_setting(setting)
                      and not isinstance(f.bound, KLBound) and _notions(f) <= allowed]
        if setting == "central":
            def fits(f: Relation) -> bool:
                r, k = fact_scope(f)
                return discharge(r | _central_base(rel, [f]), rel) <= claimed and k <= claimed_records

            narrow = [f for f in candidates if not fits(f)]
            pools = [[f for f in candidates if fits(f)], candidates] if narrow else [candidates]
        else:
            pools = [candidates]  # no restriction applies to a local domain
        for pool in pools:
            found = _attempt(rel, setting, pool, timeout_ms)
            if found is not None:
                break
        else:
            return None
        core, script = found
        used |= {f.id for f in core}
        if setting == "central":
            restrictions = discharge(_central_base(rel, core).union(*(fact_scope(f)[0] for f in core)), rel)
            min_records = max([1, *(fact_scope(f)[1] for f in core)])
        facts_text = "; ".join(f"{f.id}: {f.symbols}" for f in core)
        scripts.append(f"; setting: {setting}\n; facts asserted, in order after the ranges: {facts_text}\n"
                       + with_logic(script))
    return Derivation(rel, settings, tuple(sorted(used)), "\n(reset)\n".join(scripts), restrictions, min_records)


def _attempt(rel: Relation, setting: str, pool: list[Relation], timeout_ms: int):
    """``(core facts, SMT-LIB of the ranges, the core and the negated claim)`` if ``pool`` proves ``rel``."""
    import z3

    v = {n: z3.Real(n) for n in ("eps_i", "eps_d", "eps_all", "eps_m", "sigma")}
    diam = z3.Real("diam")
    solver = deterministic_solver(timeout_ms)
    solver.add(v["eps_d"] >= 0, v["eps_all"] >= v["eps_d"], v["eps_m"] >= 0, v["sigma"] <= 0)
    # diam = 0 for a single input, 1 for a local domain of two or more, r for D^r, finite on a connected graph
    solver.add(z3.Or(diam == 0, diam == 1) if setting == "local" else diam >= 0)
    base = list(solver.assertions())
    tracked = {}
    for fact in pool:
        tracked[fact.id] = (fact, _inequality(fact, v, diam))
        solver.assert_and_track(tracked[fact.id][1], fact.id)
    negated = z3.Not(_inequality(rel, v, diam))
    solver.add(negated)
    if solver.check() != z3.unsat:
        return None
    core = sorted(str(c) for c in solver.unsat_core())
    for name in list(core):  # z3's core need not be minimal: drop each fact the others do without
        rest = [c for c in core if c != name]
        trial = deterministic_solver(timeout_ms)
        trial.add(*base, *[tracked[c][1] for c in rest], negated)
        if trial.check() == z3.unsat:
            core = rest
    # the file states everything it relies on: the budgets' ranges, the facts used (each
    # asserted, not tracked), and the negated relation; a solver answers 'unsat' for it alone
    standalone = z3.Solver()
    standalone.add(*base)
    standalone.add(*[tracked[c][1] for c in core])
    standalone.add(negated)
    return [tracked[c][0] for c in core], standalone.to_smt2()
