"""The main job: a verdict with re-checkable evidence for every catalogued relation.

For each relation (verdicts in ``docs/claims-and-verdicts.md``):

* **non-implication** — the erasure family of :mod:`relations.search._erasure`, a witness for every
  ``eps_m > 0`` checked symbolically (sympy); its member at ``eps_m = 1/10`` is re-checked exactly:
  ``proved`` with the family and the member;
* **implication** — (1) if it has a provable shape, prove its per-triple lemma with z3
  (:mod:`relations.proofs._smt`): ``proved``; or (1b) derive it with z3 from the lemma-proved relations
  (:mod:`relations.proofs._derive`): ``proved``; otherwise (2) search for a counterexample, cheapest and
  smallest first: z3 bounded search (ratio-type relations), hypothesis (:mod:`relations.search.strategies`,
  the first refuting draw), Nelder-Mead over dense channels and the k-RR product families
  (:mod:`relations.search._optimiser`).  Every candidate is re-checked by the exact checker; the first that
  fails is simplified (:func:`~relations.search._witnesses.simplify`), re-checked again and reported
  ``refuted``.  (3) Without one: ``holds-bounded`` when z3 covered the bounded sizes (ratio-type), else
  ``unrefuted`` with the record of what was searched.
* **Coq** — a proved implication with a main theorem in ``proofs/coq`` (:data:`~relations.proofs._coq.COQ_PROOFS`)
  cites it in ``coq`` only when that theorem was checked in the same run (compiled, its registered statement,
  only the standard axioms); otherwise ``coq`` is empty and the evidence says why (``coqc`` missing, a
  proof not finished).  A relation proved only in Coq (``drv2010.kl``) is ``proved`` only then;
* **tightness** — for a relation that stands, the largest ratio ``conclusion / bound`` among the searches'
  candidates ("best found"): floats screen them, their certified values choose and give the reported digits,
  and an exact tie goes to the simplest family (:mod:`relations.search._selection`); and, where it is known, the frontier (:mod:`relations.pipeline._frontiers`): the
  supremum of that ratio over all mechanisms, and the certified sup of ``I`` under ``eps``-LDP at reference
  points against the best mechanism of the search seeded at the maximiser.

Everything is seeded (numpy ``default_rng(seed)``, hypothesis ``derandomize``), so two runs give the same
verdicts and witnesses; :func:`verify_all` runs some dense searches in a forked child process
(:mod:`relations.search._forked`), with the same results.  Witness files and the SMT queries go to
``proofs/`` (or ``out``) so that a reviewer can re-run each.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

import relations.proofs._smt as smt
import relations.search._erasure as erasure
from relations.catalogue._bounds import Linear
from relations.catalogue._entries import BY_ID, CATALOGUE, Relation
from relations.checking._checker import Outcome, evaluate
from relations.checking._conjecture_eval import parse_defined
from relations.checking._quantities import values
from relations.kinds import RelationKind, Status
from relations.kinds import Verdict as V
from relations.model._display import one_line, text_view
from relations.model._mechanism import Mechanism
from relations.pipeline._conjecture import degeneracy, full_support_witness
from relations.pipeline._conversion_frontiers import CONVERSION_IDS, conversion_frontier
from relations.pipeline._frontiers import Frontier, frontier_for
from relations.pipeline._stages import PipelineResult, Stage, first_refutation
from relations.pipeline._tightness import tightness
from relations.proofs._coq import COQ_ONLY, COQ_PROOFS, check_theorem, prepare
from relations.proofs._derive import derive
from relations.search._exhaustive import FamilyEvidence
from relations.search._families import DenseFamily
from relations.search._forked import run_beside
from relations.search._members import erasure_member
from relations.search._optimiser import (
    Found,
    found_data,
    found_from_data,
    is_found_data,
    search_dense,
    search_dense_all,
    search_rr,
)
from relations.search._screening import has_stored_result, stored_result
from relations.search._screening import hypothesis_search as _hypothesis_search
from relations.search._screening import refutes as _refutes
from relations.search._witnesses import simplify

__all__ = ["COQ_PROOFS", "WITNESS_EPS_M", "erasure_member", "Effort", "SMT_SHAPES", "DENSE", "RelationVerdict", "verify_relation", "verify_all"]

#: eps_m requested of the non-implication witnesses written by ``verify``.
WITNESS_EPS_M = Fraction(1, 10)


@dataclass(frozen=True)
class Effort:
    """How hard to search: ``quick`` for CI, the full effort for ``relations verify``."""

    hypothesis_examples: int = 300
    dense_starts: int = 4
    dense_maxiter: int = 300
    smt_timeout_ms: int = 10000
    quick: bool = False

    @staticmethod
    def of(quick: bool) -> Effort:
        """The quick (``quick=True``) or the full effort.

        Examples
        --------
        >>> Effort.of(True).hypothesis_examples, Effort.of(False).hypothesis_examples
        (60, 300)
        """
        return Effort(60, 2, 150, 5000, True) if quick else Effort()


SMT_SHAPES = {"local": tuple(smt.Shape("local", n, m) for n, m in ((2, 2), (2, 3), (3, 2), (3, 3), (4, 2))),
              "central": (smt.Shape("central", 4, 2, 2, 2), smt.Shape("central", 4, 3, 2, 2))}
DENSE = {"local": (DenseFamily(2, 2), DenseFamily(3, 3)), "central": (DenseFamily(4, 2, 2, 2),)}


@dataclass
class RelationVerdict(PipelineResult):
    """A relation's verdict and its evidence.

    ``verdict`` is a :class:`~relations.kinds.Verdict`: ``proved`` (SMT lemma, derivation or
    re-checked witness), ``refuted`` (a counterexample ``witness`` re-checked exactly),
    ``holds-bounded`` (no counterexample among all mechanisms of the sizes in ``bounded``),
    ``unrefuted`` (no counterexample in the searches listed in ``searched``).

    ``print(verdict)`` shows its row of ``relations verify``'s table; ``repr(verdict)`` is one line.

    Examples
    --------
    >>> from relations.catalogue import get
    >>> v = RelationVerdict(get("zheng2025.thm3"), V.PROVED, "SMT lemma")
    >>> v
    RelationVerdict(relation='zheng2025.thm3', verdict='proved', evidence='SMT lemma')
    >>> text = str(v)
    >>> text.splitlines()[0].startswith("relations verify"), "│ zheng2025.thm3" in text and "│ proved " in text
    (True, True)
    """

    relation: Relation
    verdict: V
    evidence: str
    witness: Mechanism | None = None
    witness_file: str | None = None
    recheck: Outcome | None = None
    lemma: str | None = None
    proof_file: str | None = None
    bounded: list[str] = field(default_factory=list)
    searched: list[str] = field(default_factory=list)
    tightness: float | None = None
    tightness_family: str = ""
    frontier: Frontier | None = None  # the known supremum of conclusion / bound, where one is known
    seconds: float = 0.0
    scope: str | None = None  # the mechanisms a ``proved`` verdict covers
    family: tuple[str, str] | None = None  # (header, sympy script) of a non-implication's family, for proofs/families/
    family_file: str | None = None
    coq: str | None = None  # "FILE: THEOREM": the relation's main Coq theorem, only when its check passed for this run
    smt: tuple[str, str] | None = None  # (header, SMT-LIB script) of the lemma or derivation, for proofs/lemmas/
    degenerate: tuple[str, ...] = ()  # what makes a refuting witness an edge case (pipeline._conjecture.degeneracy)
    full_witness: Mechanism | None = None  # then the smallest of full support and finite values found, re-checked
    full_recheck: Outcome | None = None
    full_witness_file: str | None = None

    def __str__(self) -> str:
        """``relations verify``'s table row of this relation, as plain text (:func:`relations.io._text.verdict_text`)."""
        return text_view(self, "relations.io._text:verdict_text")

    def __repr__(self) -> str:
        """One line: the relation's id, its verdict, the evidence (cut at 120 characters)."""
        evidence = self.evidence if len(self.evidence) <= 120 else self.evidence[:119] + "…"
        return one_line("RelationVerdict", [("relation", repr(self.relation.id)), ("verdict", repr(str(self.verdict))),
                                            ("evidence", repr(evidence))])


def _settings(rel: Relation) -> list[str]:
    return ["local", "central"] if rel.setting == "both" else [rel.setting]


def verify_relation(rel: Relation, effort: Effort = Effort(), seed: int = 2025) -> RelationVerdict:
    """Decide one relation over all mechanisms, with evidence (no files written).

    Parameters
    ----------
    rel : Relation
        A catalogued (or user) relation.
    effort : Effort, optional
        How hard to search (:meth:`Effort.of`).
    seed : int, optional
        Seed of every random choice: the same seed gives the same verdict and witness.

    Returns
    -------
    RelationVerdict

    Examples
    --------
    >>> from relations.catalogue import get
    >>> v = verify_relation(get("zheng2025.thm4"), Effort.of(True))
    >>> str(v.verdict), str(v.witness.setting)
    ('refuted', 'local')
    """
    verdict = _decide(rel, effort, seed)
    _cite_coq(verdict)
    return verdict


def _decide(rel: Relation, effort: Effort, seed: int, dense: Mapping[tuple[str, int], Found] | None = None,
            families: Sequence[FamilyEvidence] = (), rr: dict | None = None) -> RelationVerdict:
    """:func:`verify_relation`, with the dense searches ``dense`` already run (by :func:`verify_all`) and the
    bounded-exhaustive sweeps ``families`` of the relation (:mod:`relations.search._exhaustive`); ``rr`` keeps the
    k-RR searches for the next relation of the same statement (:meth:`_Search._rr`)."""
    t0 = time.perf_counter()
    verdict = (_non_implication(rel) if rel.kind == RelationKind.NON_IMPLICATION
               else _Search(rel, effort, seed, dense, families, rr).run())
    verdict.seconds = time.perf_counter() - t0
    return verdict


def _non_implication(rel: Relation) -> RelationVerdict:
    """The erasure family, checked symbolically for every ``eps_m > 0``; its member at
    :data:`WITNESS_EPS_M` re-checked exactly by the checker."""
    setting = str(rel.setting)
    r = 1 if setting == "local" else 2
    sym = _family_check(r)
    w = erasure_member(setting, WITNESS_EPS_M)
    o = evaluate(rel, values(w))
    family = (f"erasure family: {'two inputs' if r == 1 else 'D^2 over {0, 1}, each record'} through "
              f"W_t = [[t, 1-t, 0], [0, 1-t, t]], uniform prior, {sym['parameter']}")
    script = (f"{rel.id}: {rel.symbols}, for every eps_m > 0, by the {family}\nrun with python (sympy): prints the "
              f"symbolic check and exits 0 when it passes", erasure.script(r))
    if sym["passed"] and o.status == Status.WITNESS:
        return RelationVerdict(rel, V.PROVED, f"{family}: sympy: I(X;Y) = {sym['mi']}, so I <= eps_m, and {rel.conclusion} = inf "
                       f"for every t in (0, 1]; the member at eps_m = {WITNESS_EPS_M} re-checked exactly",
                       witness=w, recheck=o, scope=f"every eps_m > 0 ({family})", family=script)
    return RelationVerdict(rel, V.UNREFUTED, "the family did not check", witness=w, recheck=o)  # pragma: no cover


@functools.cache
def _family_check(r: int) -> dict:
    """:func:`~relations.search._erasure.check_family` (sympy), once per ``r`` and per version of the code and of
    sympy: kept in the cache folder (:func:`~relations.search._screening.stored_result`), so that a run of the same
    code reads the same dict without importing sympy (read-only)."""
    return stored_result(f"erasure-family-{r}", functools.partial(erasure.check_family, r),
                         valid=lambda d: isinstance(d, dict) and d.get("records") == r and isinstance(d.get("passed"), bool))


class _Search:
    """One implication's decision: proof first, then counterexample searches, cheapest first.

    Order: z3 per-triple lemma; z3 derivation from lemma-proved relations; z3 bounded search
    (ratio-type relations); hypothesis; Nelder-Mead and k-RR families.  The optimisers also
    measure the tightness of a relation that stands.  Every candidate is re-checked exactly.
    """

    def __init__(self, rel: Relation, effort: Effort, seed: int, dense: Mapping[tuple[str, int], Found] | None = None,
                 families: Sequence[FamilyEvidence] = (), rr: dict | None = None):
        self.rel, self.effort, self.dense, self.families = rel, effort, dense or {}, tuple(families)
        self.rr = {} if rr is None else rr
        self.rng, self.refutes = np.random.default_rng(seed), _refutes(rel)
        self.searched: list[str] = []
        self.founds: list[Found] = []
        self.lemma = smt.lemma_for(rel)
        self.proof = _proof(rel, self.lemma, effort.smt_timeout_ms) if self.lemma else None
        self.smt_evidence = None
        if self.proof is not None:
            assert self.lemma is not None  # proved from it
            said = "unsat" if self.proof.status == "proved" else self.proof.status
            blocks = self.proof.smt2.count("(check-sat)")
            what = ("the assertions are the lemma's hypotheses and the negation of its goal: 'unsat' proves the lemma."
                    if blocks == 1 else
                    f"{blocks} blocks separated by (reset), each the hypotheses and the negated goal of one part of "
                    f"the lemma: 'unsat' in every block proves the lemma.")
            self.smt_evidence = (f"{self.lemma.name}\n{self.lemma.statement}\n{what}\nz3 said: "
                                 + (said if blocks == 1 else f"{said} (every block)" if said == "unsat" else said),
                                 self.proof.smt2)

    def run(self) -> RelationVerdict:
        rel = self.rel
        for ev in self.families:  # a sweep's counterexample, re-checked exactly here, outweighs everything
            self.searched.append(f"bounded-exhaustive sweep: {ev.describe()}")
            if ev.counterexample is not None and self.refutes(ev.counterexample):
                return self._refuted(ev.counterexample, f"a bounded-exhaustive sweep ({ev.family})")
        if self.proof is not None and self.proof.status == "proved":
            assert self.lemma is not None  # proved from it
            return self._proved(f"z3 proved the {self.lemma.name} (negation unsat)", self.lemma.statement, None)
        derivation = _derivation(rel)
        narrow = ""
        if derivation is not None and derivation.covers:
            used = ", ".join(derivation.used)
            header = (f"{rel.id}: {rel.symbols}, by composition of the lemma-proved relations {used}\nthe named "
                      f"assertions are those relations as facts on the minimal budgets; the last assertion is the "
                      f"negated claim: 'unsat' proves it.\nscope covered (the facts' scopes intersected, as in "
                      f"relations/proofs/_derive.py): {derivation.scope}")
            return self._proved(f"z3: follows in real arithmetic from the lemma-proved relations {used} (and eps_d <= "
                                f"eps_all, budgets >= 0, sigma_min <= 0, diam >= 0)", "composition of " + used,
                                (header, derivation.smt2))
        if derivation is not None:  # the facts it needs cover less than the relation states: not a proof of it
            narrow = (f"; z3 derives it from {', '.join(derivation.used)} only for {derivation.scope}, less than it "
                      f"states")
            self.searched.append(f"z3 derivation: only for {derivation.scope}")
        coq_note = ""
        if rel.id in COQ_ONLY:
            proof = COQ_PROOFS[rel.id]
            check = check_theorem(proof)
            if check.status == "checked":
                return self._proved(f"Coq: {proof.cite} ({check.detail})", proof.statement, None)
            coq_note = f"; the Coq proof {proof.cite} was not checked in this run: {check.detail}"
        self.bounded_ok: list[str] = []
        self.bounded_all = True
        hit = first_refutation(((Stage.FAMILIES, self._bounded_candidates()),
                                (Stage.HYPOTHESIS, self._hypothesis_candidates()),
                                (Stage.OPTIMISER, self._optimiser_candidates())), refutes=self.refutes)
        if hit is not None:
            return self._refuted(hit.candidate, hit.engine)
        bounded_ok, bounded_all = self.bounded_ok, self.bounded_all
        tight, fam = self._tightness()
        if smt.is_ratio_relation(rel) and bounded_all and bounded_ok:
            return self._finish(RelationVerdict(rel, V.HOLDS_BOUNDED, "z3: no counterexample among all mechanisms of sizes "
                                        + ", ".join(bounded_ok) + narrow, bounded=bounded_ok, tightness=tight,
                                        tightness_family=fam))
        return self._finish(RelationVerdict(rel, V.UNREFUTED, f"no counterexample found in the searches listed{coq_note}"
                                    f"{narrow}", bounded=bounded_ok, tightness=tight, tightness_family=fam))

    # ---------------------------------------------------------------- steps

    def _bounded_candidates(self) -> Iterator[tuple[Mechanism, str]]:
        """z3 over every mechanism of the small sizes: its models, as candidates; records the sizes covered
        (``bounded_ok``) and whether every size was (``bounded_all``)."""
        if not smt.is_ratio_relation(self.rel):
            return
        for setting in _settings(self.rel):
            for shape in SMT_SHAPES[setting]:
                res = _bounded(self.rel, shape, self.effort.smt_timeout_ms)
                self.searched.append(f"z3 bounded {shape}: {res.status}")
                if res.status == "sat":
                    yield _from_model(res), f"z3 bounded search ({shape})"
                self.bounded_ok += [str(shape)] if res.status == "unsat" else []
                self.bounded_all = self.bounded_all and res.status == "unsat"

    def _hypothesis_candidates(self) -> Iterator[tuple[Mechanism, str]]:
        for setting in _settings(self.rel):
            cand = _hypothesis_search(self.rel, setting, self.effort)
            self.searched.append(f"hypothesis: {self.effort.hypothesis_examples} random {setting} mechanisms "
                                 f"(dense, sparse, skewed priors{', D^r, graphs, products' if setting == 'central' else ''})")
            if cand is not None:
                yield cand, f"hypothesis ({setting} mechanisms, the first refuting draw)"

    def _optimiser_candidates(self) -> Iterator[tuple[Mechanism, str]]:
        for f in self._optimiser_runs():
            for cand in f.candidates:
                assert f.searched is not None  # the optimisers say what they searched
                yield cand, f"optimiser ({f.searched[-1].split(':')[0]})"

    def _optimiser_runs(self) -> Iterator[Found]:
        for setting in _settings(self.rel):
            for i, fam in enumerate(DENSE[setting]):
                done = self.dense.get((setting, i))  # run by verify_all together with the other relations
                yield self._record(done if done is not None else search_dense(
                    self.rel, fam, self.effort.dense_starts, self.rng, self.effort.dense_maxiter))
            yield self._record(self._rr(setting == "central"))

    def _rr(self, central: bool) -> Found:
        """:func:`~relations.search._optimiser.search_rr`, which reads only the relation's premise, conclusion and
        bound: a relation of the same statement searched before in the run (:func:`verify_all`) gives its result;
        a run of the same code before it, the result it kept in the cache folder (:func:`_stored_search`)."""
        key = (self.rel.premise, self.rel.conclusion, self.rel.bound, central, self.effort.quick)
        if key not in self.rr:
            self.rr[key] = _stored_search(_rr_name(self.rel, central, self.effort.quick),
                                          lambda: [search_rr(self.rel, central=central, quick=self.effort.quick)])[0]
        return self.rr[key]

    def _record(self, found: Found) -> Found:
        self.founds.append(found)
        self.searched.extend(found.searched or [])
        return found

    def _tightness(self, proved: bool = False) -> tuple[float | None, str]:
        return tightness(self.rel, self.founds, proved=proved)

    # ---------------------------------------------------------------- verdicts

    def _finish(self, verdict: RelationVerdict) -> RelationVerdict:
        verdict.searched = self.searched
        held = [ev for ev in self.families if ev.holds] if verdict.verdict != V.REFUTED else []
        verdict.bounded = verdict.bounded + [ev.describe() for ev in held]
        verdict.evidence += "".join(f"; bounded-exhaustive sweep: {ev.outcome}" for ev in held)
        if verdict.verdict != V.REFUTED:
            verdict.frontier = (conversion_frontier(self.rel, quick=self.effort.quick) if self.rel.id in CONVERSION_IDS
                                else frontier_for(self.rel, quick=self.effort.quick))
        verdict.smt = verdict.smt or self.smt_evidence
        return verdict

    def _proved(self, evidence: str, lemma_text: str, script: tuple[str, str] | None) -> RelationVerdict:
        for _ in self._optimiser_runs():  # the searches only measure the tightness here
            pass
        tight, fam = self._tightness(proved=True)
        return self._finish(RelationVerdict(self.rel, V.PROVED, f"{evidence}; proved for {self.rel.scope.describe(self.rel.setting)}",
                                    lemma=lemma_text, tightness=tight, tightness_family=fam, smt=script,
                                    scope=self.rel.scope.describe(self.rel.setting)))

    def _refuted(self, mech: Mechanism, engine: str) -> RelationVerdict:
        simple = simplify(mech, self.refutes)
        measured = values(simple)
        outcome = evaluate(self.rel, measured)
        assert outcome.status == Status.FAILS
        note = (f"; z3 also refuted the lemma, a model of its negation in {self.proof.model}"
                if self.proof is not None and self.proof.status == "refuted" else "")
        degenerate = degeneracy(simple, sides=[float(x) for x in (outcome.premise, outcome.conclusion, outcome.bound)
                                               if x is not None])
        full = full_outcome = None
        if degenerate:
            full, full_outcome, none = self._full_support(simple.setting)
            note += (f"; the witness is an edge case ({', '.join(degenerate)}); " + (
                f"the smallest of full support, distinct rows and finite values found, re-checked exactly: "
                f"{witness_text(self.rel, values(full), full_outcome)}" if full is not None and full_outcome is not None
                else none))
        return self._finish(RelationVerdict(self.rel, V.REFUTED, f"counterexample found by {engine}, re-checked "
                                            f"exactly: {witness_text(self.rel, measured, outcome)}{note}",
                                    witness=simple, recheck=outcome,
                                    lemma=self.lemma.statement if self.lemma else None, degenerate=degenerate,
                                    full_witness=full, full_recheck=full_outcome))

    def _full_support(self, setting: str) -> tuple[Mechanism | None, Outcome | None, str]:
        """For a degenerate witness: the smallest of full support, distinct rows and finite values that the
        smallest-first enumeration of the relation's statement meets (:func:`full_support_witness`), re-checked
        exactly on the relation (it fails there, within its scope, with finite values); else ``None`` and why."""
        found = _full_support_search(self.rel.symbols, setting, self.effort.quick)
        if found == ("outside",):  # a statement outside the conjecture language: no such search
            return None, None, "its statement is not one the smallest-first enumeration searches"
        full = found[1] if found[0] == "witness" else None
        if full is None:
            return None, None, "the smallest-first enumeration met none of full support, distinct rows and finite values"
        outcome = evaluate(self.rel, values(full))
        sides = [float(x) for x in (outcome.premise, outcome.conclusion, outcome.bound) if x is not None]
        if outcome.status != Status.FAILS or degeneracy(full, sides=sides):  # pragma: no cover - the same claim
            return None, None, (f"the smallest-first enumeration's witness of full support did not re-check on the "
                                f"relation ({outcome.status})")
        return full, outcome, ""


def _full_support_search(symbols: str, setting: str, quick: bool) -> tuple:
    """:func:`full_support_witness` of the statement ``symbols``: ``("witness", mechanism)``, ``("none",)``, or
    ``("outside",)`` for a statement outside the conjecture language.  The enumeration is deterministic, so its
    result is kept in the cache folder for the next run of the same code
    (:func:`~relations.search._screening.stored_result`: no sympy, no enumeration there); the caller re-checks the
    witness exactly in every run."""
    import hashlib

    def search() -> tuple:
        from relations.errors import InputError

        try:
            conj = parse_defined(symbols)
        except InputError:
            return ("outside",)
        full, _ = full_support_witness(conj, setting, quick=quick)
        return ("none",) if full is None else ("witness", full)

    def valid(kept) -> bool:
        return isinstance(kept, tuple) and (kept in (("none",), ("outside",)) or (
            len(kept) == 2 and kept[0] == "witness" and type(kept[1]) is Mechanism))

    name = f"full-support-{setting}-{'quick' if quick else 'full'}-{hashlib.sha256(symbols.encode()).hexdigest()[:32]}"
    return stored_result(name, search, valid=valid)


def witness_text(rel: Relation, measured, outcome: Outcome, *, max_entries: int = 24) -> str:
    """A refuting witness in one phrase: the mechanism as its file gives it, and the quantities that refute.

    Parameters
    ----------
    rel : Relation
    measured : Values
        :func:`~relations.checking._quantities.values` of the witness.
    outcome : Outcome
        The relation evaluated on it (``fails``).
    max_entries : int, optional
        A prior or channel with more entries is summarised by its size (the witness file has them).

    Returns
    -------
    str

    Examples
    --------
    >>> from relations import Mechanism
    >>> from relations.catalogue import get
    >>> from relations.checking._quantities import values
    >>> rel, mech = get("zheng2025.thm4"), Mechanism.local([["1", "0"], ["1", "0"]], prior=["3/4", "1/4"])
    >>> measured = values(mech)
    >>> witness_text(rel, measured, evaluate(rel, measured))
    'the witness (local, 2 inputs) has prior (3/4, 1/4), rows [[1, 0], [1, 0]]: eps_d = 0, sigma_min = ln(1/3), eps_i = ln(3) > eps_d + sigma_min = ln(1/3)'
    """
    d = measured.mechanism.to_dict()

    def listed(xs) -> str:
        return "[" + ", ".join(listed(x) if isinstance(x, list) else str(x) for x in xs) + "]"

    if "records" in d:
        where = f"D^{d['records']} over {{{', '.join(map(str, d['domain']))}}}"
    else:
        where = f"{len(d['inputs'])} inputs" + (f", neighbours {listed(d['neighbours'])}" if "neighbours" in d
                                                and len(d["neighbours"]) <= max_entries else "")
    prior = d["prior"]
    prior_text = (str(prior) if isinstance(prior, str) else "(" + ", ".join(map(str, prior)) + ")"
                  if isinstance(prior, list) and len(prior) <= max_entries else "as in the witness file")
    channel = d["channel"]
    if isinstance(channel, dict) and "product" in channel and isinstance(channel["product"], list):
        channel_text = f"each record through {listed(channel['product'])}"
    elif isinstance(channel, list) and sum(len(row) for row in channel) <= max_entries:
        channel_text = f"rows {listed(channel)}"
    else:
        channel_text = "channel as in the witness file"
    bound = rel.bound
    parts = [f"{rel.premise} {_shown(outcome.premise)}"]
    if isinstance(bound, Linear) and bound.cs:
        parts.append(f"sigma_min {_shown(measured.reals['sigma_min'])}")
    if isinstance(bound, Linear) and bound.times_diameter:
        parts.append(f"diam = {measured.diameter if measured.diameter is not None else 'inf'}")
    text = bound.text(str(rel.premise)) if bound is not None else "its bound"
    parts.append(f"{rel.conclusion} {_shown(outcome.conclusion)} > {text} {_shown(outcome.bound)}")
    return (f"the witness ({d['setting']}, {where}) has prior {prior_text}, {channel_text}: " + ", ".join(parts))


def _shown(x) -> str:
    """``= `` and an exact value's exact form (``ln(3)``, ``0``); ``≈ `` and an enclosed one to 10 digits."""
    from relations.numbers import Log, Rational

    if isinstance(x, (Log, Rational)):
        return f"= {x}"
    v = float(x)
    return "= inf" if v == float("inf") else f"≈ {v:.10g}"
def _cite_coq(verdict: RelationVerdict) -> None:
    """Cite the relation's Coq theorem when its check passed for this run (:func:`~relations.proofs._coq.check_theorem`:
    compiled, with its registered statement, on the standard axioms only); else say in the evidence why not.
    A ``coq`` citation never claims a check that did not happen in the run."""
    if verdict.verdict != V.PROVED or verdict.relation.id not in COQ_PROOFS:
        return
    proof = COQ_PROOFS[verdict.relation.id]
    check = check_theorem(proof)  # once per process: prepare()'s thread has usually done it already
    if check.status == "checked":
        verdict.coq = proof.cite
        if proof.cite not in verdict.evidence:
            verdict.evidence += f"; Coq: {proof.cite} ({check.detail})"
    else:
        verdict.evidence += f"; the Coq proof {proof.cite} was not checked in this run: {check.detail}"


# z3's answers, kept in the cache folder (stored_result): z3 decides by a resource limit, not the clock
# (relations/proofs/_z3context.py), in a fresh context per query, so the same query of the same code and z3
# gives the same answer, model and script in every run; a warm run reads them without importing z3.  Only
# definite answers are stored (an ``unknown`` is asked again).


def _z3_key(kind: str, *parts: object) -> str:
    import hashlib

    return f"z3-{kind}-{hashlib.sha256(repr(parts).encode()).hexdigest()[:32]}"


def _proof(rel: Relation, lemma: smt.Lemma, timeout_ms: int) -> smt.ProofResult:
    """:func:`~relations.proofs._smt.prove` of the relation's lemma (:func:`~relations.proofs._smt.lemma_for`)."""
    def run() -> tuple:
        res = smt.prove(lemma, timeout_ms)
        return ("proof", res.status, res.seconds, res.smt2, res.model)

    def valid(kept) -> bool:
        return (isinstance(kept, tuple) and len(kept) == 5 and kept[0] == "proof" and kept[1] in ("proved", "refuted")
                and type(kept[2]) is float and type(kept[3]) is str and (kept[4] is None or type(kept[4]) is str))

    _, status, seconds, smt2, model = stored_result(_z3_key("prove", rel, timeout_ms), run, valid=valid,
                                                    keep=lambda kept: kept[1] in ("proved", "refuted"))
    return smt.ProofResult(lemma, status, seconds, smt2, model)


def _derivation(rel: Relation):
    """:func:`~relations.proofs._derive.derive` of the relation from the lemma-proved catalogue."""
    from relations.proofs._derive import Derivation

    def run() -> tuple:
        d = derive(rel)
        return ("none",) if d is None else ("derived", d.settings, d.used, d.smt2, tuple(sorted(d.restrictions)),
                                            d.min_records)

    def valid(kept) -> bool:
        return isinstance(kept, tuple) and (kept == ("none",) or (
            len(kept) == 6 and kept[0] == "derived" and all(isinstance(x, tuple) for x in (kept[1], kept[2], kept[4]))
            and type(kept[3]) is str and type(kept[5]) is int))

    kept = stored_result(_z3_key("derive", rel), run, valid=valid)
    if kept == ("none",):
        return None
    _, settings, used, smt2, restrictions, min_records = kept
    return Derivation(rel, settings, used, smt2, frozenset(restrictions), min_records)


def _bounded(rel: Relation, shape: smt.Shape, timeout_ms: int) -> smt.SearchResult:
    """:func:`~relations.proofs._smt.bounded_search` of the relation over the mechanisms of ``shape``."""
    def run() -> tuple:
        res = smt.bounded_search(rel, shape, timeout_ms)
        return ("bounded", res.status, res.seconds, res.prior, res.channel)

    def valid(kept) -> bool:
        return (isinstance(kept, tuple) and len(kept) == 5 and kept[0] == "bounded" and kept[1] in ("sat", "unsat")
                and type(kept[2]) is float and (kept[3] is None or isinstance(kept[3], tuple))
                and (kept[4] is None or isinstance(kept[4], tuple)))

    _, status, seconds, prior, channel = stored_result(_z3_key("bounded", rel, shape, timeout_ms), run, valid=valid,
                                                       keep=lambda kept: kept[1] in ("sat", "unsat"))
    return smt.SearchResult(shape, status, seconds, prior, channel)


def _from_model(res: smt.SearchResult) -> Mechanism:
    shape = res.shape
    if shape.setting == "central":
        return Mechanism.central(res.channel, records=shape.r, domain=shape.k, prior=res.prior)
    return Mechanism.local(res.channel, prior=res.prior)


def verify_all(relations: Iterable[Relation] = CATALOGUE, effort: Effort = Effort(), seed: int = 2025,
               on_done: Callable[[RelationVerdict], None] | None = None,
               on_start: Callable[[Relation], None] | None = None, *,
               families: Mapping[str, Sequence[FamilyEvidence]] | None = None) -> list[RelationVerdict]:
    """Verdicts for every relation, in the order given: each the one :func:`verify_relation` gives.

    Faster than a loop of :func:`verify_relation`: the Nelder-Mead searches of all the relations over each
    dense family run as one batch (:func:`~relations.search._optimiser.search_dense_all`, from the starts each
    relation's own seeded generator would draw), the families but the first in a forked child process
    (:func:`~relations.search._forked.run_beside`); the relations whose only proof is Coq's are decided last,
    so that the compile and check started first (:func:`~relations.proofs._coq.prepare`) overlap the other
    searches, and every proved relation cites its main Coq theorem (``coq``) after all are decided, when
    that check passed for this run.

    Parameters
    ----------
    relations : iterable of Relation, optional
        Default: the catalogue.
    effort : Effort, optional
    seed : int, optional
    on_done, on_start : callable, optional
        Called with each verdict when it is decided, and with each relation before (in the order they are
        decided, which puts the Coq-only ones last; before the Coq citations are added).
    families : mapping of str to sequence of FamilyEvidence, optional
        Finished bounded-exhaustive sweeps per relation id (:mod:`relations.search._exhaustive`): a
        counterexample among them is re-checked and refutes; a family that holds is listed in ``bounded``.

    Returns
    -------
    list of RelationVerdict
        In the order of ``relations``.  Each verdict's ``seconds`` leaves out its share of the batched dense
        searches, which run before any verdict.
    """
    relations = list(relations)
    if any(rel.id in COQ_PROOFS for rel in relations):  # coqc compiles and checks in its own process meanwhile
        prepare(ids=[rel.id for rel in relations])
    dense = _dense_searches(relations, effort, seed)
    out: list[RelationVerdict | None] = [None] * len(relations)
    order = sorted(range(len(relations)), key=lambda i: relations[i].id in COQ_ONLY)  # stable: Coq ones last
    rr: dict = {}  # the k-RR searches by statement (the catalogue states some relations twice, locally and centrally)
    for i in order:
        rel = relations[i]
        if on_start:
            on_start(rel)
        out[i] = v = _decide(rel, effort, seed, dense.get(i), (families or {}).get(rel.id, ()), rr)
        if on_done:
            on_done(v)
    decided = [v for v in out if v is not None]
    for verdict in decided:  # after every decision: the Coq check (started first by prepare) overlapped them all
        _cite_coq(verdict)
    return decided


def _dense_searches(relations: list[Relation], effort: Effort, seed: int) -> dict[int, dict[tuple[str, int], Found]]:
    """The dense-family searches of every implication, batched per family: ``{index: {(setting, family
    index): Found}}``, from the starts ``_Search`` would draw (its generator is seeded with ``seed`` and
    used by nothing else before).

    Each family's batch is deterministic, so its result is kept in the cache folder for the next run of the same
    code (:func:`~relations.search._screening.stored_result`, under a name made of the relations, the family, the
    starts and the iterations; catalogued relations only), and read back from there; a computed one goes through
    the same plain data as a stored one, so the evidence is the same bytes either way.  Of the batches not
    stored, the first runs here and the others in a forked child meanwhile."""
    plans: dict[tuple[str, int], list[tuple[int, np.ndarray]]] = {}
    for n, rel in enumerate(relations):
        if rel.kind == RelationKind.NON_IMPLICATION or rel.bound is None:
            continue
        rng = np.random.default_rng(seed)
        for setting in _settings(rel):
            for i, fam in enumerate(DENSE[setting]):
                plans.setdefault((setting, i), []).append((n, rng.normal(scale=1.5, size=(effort.dense_starts, fam.dim))))
    names = {key: _dense_name(relations, key, plan, effort.dense_maxiter) for key, plan in plans.items()}
    todo = [key for key, name in names.items() if name is None or not has_stored_result(name)]
    if len(todo) > 1:  # the first family here, the others in a forked child meanwhile (the same results)
        _import_kernels(relations)
        mine, theirs = run_beside(lambda: _run_plans(relations, plans, todo[:1], effort, names),
                                  lambda: _run_plans(relations, plans, todo[1:], effort, names))
    else:
        mine, theirs = _run_plans(relations, plans, todo, effort, names), {}
    kept = _run_plans(relations, plans, [key for key in plans if key not in todo], effort, names)
    out: dict[int, dict[tuple[str, int], Found]] = {}
    for key, founds in {**mine, **theirs, **kept}.items():
        for (n, _), found in zip(plans[key], founds):
            out.setdefault(n, {})[key] = found
    return out


def _dense_name(relations: list[Relation], key: tuple[str, int], plan: list[tuple[int, np.ndarray]],
                maxiter: int) -> str | None:
    """The name of a family's batch in the cache folder: the family, and a hash of the relations' ids, their
    starts and the iterations; ``None`` (never stored) unless every relation is the catalogue's own."""
    import hashlib
    import json

    rels = [relations[n] for n, _ in plan]
    if any(BY_ID.get(rel.id) is not rel for rel in rels):
        return None
    setting, i = key
    digest = hashlib.sha256(json.dumps([[rel.id for rel in rels], maxiter, repr(DENSE[setting][i])]).encode())
    for _, starts in plan:
        digest.update(np.ascontiguousarray(starts, dtype=np.float64).tobytes())
    return f"dense-{setting}-{i}-{digest.hexdigest()[:32]}"


def _rr_name(rel: Relation, central: bool, quick: bool) -> str | None:
    """The name of a relation's k-RR search in the cache folder (``None``, never stored, unless the relation is the
    catalogue's own)."""
    import hashlib

    if BY_ID.get(rel.id) is not rel:
        return None
    return (f"rr-{'central' if central else 'local'}-{'quick' if quick else 'full'}-"
            f"{hashlib.sha256(rel.id.encode()).hexdigest()[:32]}")


def _run_plans(relations, plans, keys, effort, names) -> dict[tuple[str, int], list[Found]]:
    return {key: _stored_search(names[key], functools.partial(
        search_dense_all, [relations[n] for n, _ in plans[key]], DENSE[key[0]][key[1]], [t for _, t in plans[key]],
        effort.dense_maxiter)) for key in keys}


def _stored_search(name: str | None, compute: Callable[[], list[Found]]) -> list[Found]:
    """``compute()``, kept under ``name`` in the cache folder as plain data
    (:func:`~relations.search._optimiser.found_data`) and read back from there; a computed result is turned into
    that data and back too, so that a run gives the same evidence whether it computed or read.  ``name`` None,
    or a result that cannot be kept as data: computed, as it is."""
    if name is None:
        return compute()
    computed: list[Found] = []

    def data() -> list:
        computed.extend(compute())
        return [found_data(f) for f in computed]

    kept = stored_result(name, data, valid=lambda v: isinstance(v, list) and all(map(is_found_data, v)),
                         keep=lambda v: all(d is not None for d in v))
    if any(d is None for d in kept):
        return computed
    return [found_from_data(d) for d in kept]


def _import_kernels(relations: list[Relation]) -> None:
    """The imports the dense searches make on first use, made here, before the fork, by one evaluation of every
    notion the relations use on one tiny mechanism: the child process inherits them instead of importing them
    too."""
    from relations.measures._batch import dense_values, ordered_pairs
    from relations.search._neldermead import minimize_batch  # noqa: F401 - imported for the child
    from relations.search._optimiser import extra_notions

    extra = tuple(dict.fromkeys(n for rel in relations if rel.bound is not None for n in extra_notions(rel)))
    dense_values(np.full((1, 2, 2), 0.5), np.full((1, 2), 0.5), ordered_pairs([(0, 1)]), extra)


def __getattr__(name: str) -> type:
    """``Verdict``, the 0.1 name of :class:`RelationVerdict`, with a :class:`DeprecationWarning` (one name
    per idea: :class:`relations.kinds.Verdict` is the word list)."""
    if name == "Verdict":
        import warnings

        warnings.warn("relations.pipeline._verify.Verdict is now RelationVerdict; relations.kinds.Verdict is "
                      "the list of verdict words", DeprecationWarning, stacklevel=2)
        return RelationVerdict
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
