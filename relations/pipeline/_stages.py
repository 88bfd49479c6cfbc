"""The stages of the one pipeline, in order, and the runner of its counterexample stages.

A relation of the catalogue (:func:`relations.pipeline.verify_relation`) and a conjecture a user
states (:func:`relations.pipeline.conjecture`) go through the same stages: a **proof** (an SMT
lemma, a derivation from proved relations, a Coq proof), then searches for a counterexample, cheapest
first -- the seeded **families** (and, for the catalogue, z3 over every small mechanism), the
**bounded-exhaustive** families, **hypothesis**, and the batched **optimiser** (Nelder-Mead) -- each
candidate decided exactly.  The first counterexample refutes; none leaves the relation ``unrefuted``
(or ``holds-bounded`` where z3 covered every mechanism of the small sizes).

Examples
--------
>>> hit = first_refutation([(Stage.FAMILIES, iter([(1, "a"), (4, "b")])), (Stage.HYPOTHESIS, iter([(6, "c")]))],
...                        refutes=lambda n: n % 2 == 0)
>>> hit.candidate, hit.engine, hit.stage
(4, 'b', <Stage.FAMILIES: 'families'>)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from relations.model._mechanism import Mechanism

__all__ = ["Stage", "Hit", "first_refutation", "PipelineResult"]


class Stage(StrEnum):
    """The stages of the pipeline, in the order they run."""

    PROOF = "proof"  #: an SMT lemma, a derivation from proved relations, or a Coq proof
    FAMILIES = "families"  #: seeded families (k-RR, subset selection, the paper's constructions) and z3's small models
    BOUNDED_EXHAUSTIVE = "bounded-exhaustive"  #: every small mechanism of a family, decided exactly
    HYPOTHESIS = "hypothesis"  #: property-based random mechanisms
    OPTIMISER = "optimiser"  #: the batched Nelder-Mead search over parametrised families


@dataclass(frozen=True)
class Hit:
    """The first counterexample: the candidate, the engine that found it (as the evidence names it), its stage."""

    candidate: Any
    engine: str
    stage: Stage


def first_refutation(stages: Iterable[tuple[Stage, Iterable[tuple[Any, str]]]], *,
                     refutes: Callable[[Any], bool]) -> Hit | None:
    """Run the counterexample stages in order; the first candidate ``refutes`` accepts ends the run.

    Parameters
    ----------
    stages : iterable of (Stage, iterable of (candidate, engine))
        Each stage's candidates, produced lazily: a stage after the one that refutes is never started.
    refutes : callable
        The exact decision: ``refutes(candidate)`` is True when the candidate is a counterexample.

    Returns
    -------
    Hit or None
    """
    for stage, candidates in stages:
        for candidate, engine in candidates:
            if refutes(candidate):
                return Hit(candidate, engine, stage)
    return None


class PipelineResult:
    """What the pipeline gives for a relation: the base of :class:`~relations.pipeline.RelationVerdict` (a
    catalogued relation) and :class:`~relations.pipeline.ConjectureResult` (a relation a user states).

    Attributes
    ----------
    verdict : str
        A :class:`~relations.kinds.Verdict`: ``proved``, ``refuted``, ``holds-bounded`` (catalogue only) or
        ``unrefuted``.
    evidence : str
        One sentence: what decided it.
    witness : Mechanism or None
        For ``refuted``: the exact counterexample, simplified and re-checked.
    searched : sequence of str
        What the stages searched, in order.
    seconds : float
        Time taken.
    """

    verdict: str
    evidence: str
    witness: Mechanism | None
    searched: Any
    seconds: float
