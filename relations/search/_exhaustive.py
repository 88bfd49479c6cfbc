"""Bounded-exhaustive families as evidence for ``relations verify``.

A finished ``relations sweep`` of a bounded-exhaustive family (every ``n x m`` mechanism whose entries
have denominators at most ``N``, :mod:`relations.sweeps._spec`) decides a relation exactly on every
member.  :class:`FamilyEvidence` carries what such a sweep found for one relation into
:func:`relations.pipeline._verify.verify_all`: when it found a counterexample, ``verify`` re-checks it
exactly and reports the relation refuted; when the relation held on every member, the family is listed
in the verdict's ``bounded`` evidence ("every 3 x 3 mechanism with denominators <= 4: holds").  Reading
a sweep folder is :func:`relations.io._sweep_evidence.read_family_evidence`.
"""

from __future__ import annotations

from dataclasses import dataclass

from relations.model._mechanism import Mechanism

__all__ = ["FamilyEvidence"]


@dataclass(frozen=True)
class FamilyEvidence:
    """What a bounded-exhaustive sweep found for one relation.

    Attributes
    ----------
    relation : str
        The relation's id.
    family : str
        The family in words (``"every 2 x 2 mechanism with denominators <= 6"``).
    mechanisms : int
        How many members were decided (all of the family's).
    holds : bool
        Whether the relation holds (or does not apply) on every member, with no member refused.
    outcome : str
        The sweep's summary for the relation (``"...: holds"``, ``"...: fails; first counterexample #12 ..."``).
    counterexample : Mechanism or None
        The first member where the relation fails, if any.
    source : str
        Where it comes from (the sweep folder and its specification), for the record.
    representatives : int or None
        For a family swept up to relabelling inputs and outputs, how many members were decided (one per
        orbit; the relation's status is the same on every member of an orbit); otherwise None.

    Examples
    --------
    >>> ev = FamilyEvidence("zheng2025.thm3", "every 2 x 2 mechanism with denominators <= 2", 27, True,
    ...                     "every 2 x 2 mechanism with denominators <= 2: holds", None, "sweep s/")
    >>> ev.describe()
    'every 2 x 2 mechanism with denominators <= 2: holds (27 mechanisms, each decided exactly; sweep s/)'
    """

    relation: str
    family: str
    mechanisms: int
    holds: bool
    outcome: str
    counterexample: Mechanism | None
    source: str
    representatives: int | None = None

    def __post_init__(self) -> None:
        if self.mechanisms < 1:
            raise ValueError(f"a family of {self.mechanisms} mechanisms is no evidence")
        if self.holds and self.counterexample is not None:
            raise ValueError("a family with a counterexample does not hold")
        if self.representatives is not None and not 1 <= self.representatives <= self.mechanisms:
            raise ValueError(f"{self.representatives} representatives of {self.mechanisms} mechanisms")

    def describe(self) -> str:
        """The outcome with its size and source, as ``verify`` records it."""
        if self.representatives is None:
            return f"{self.outcome} ({self.mechanisms} mechanisms, each decided exactly; {self.source})"
        return (f"{self.outcome} ({self.mechanisms} mechanisms: {self.representatives} up to relabelling inputs and "
                f"outputs, each decided exactly; {self.source})")
