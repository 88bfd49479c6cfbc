"""The mechanisms of Zheng et al. 2025, "Relations Between Several Classical Privacy Notions".

* :func:`paper_example` -- the Section 5 example: ``D = {1, 2}``,
  ``Q = [[0.65, 0.35], [0.35, 0.65]]`` with a prior of the reader's choice;
* :func:`paper_construction` -- the joint distributions behind the non-implication
  theorems 6/10 (:func:`paper_central`, eq. (57)/(85)) and 8/12 (:func:`paper_local`,
  eq. (63)/(91)), with parameter ``beta``: ``I(X;Y) = h(beta)`` while ``eps_d`` and
  ``eps_i`` are infinite.
"""

from __future__ import annotations

from fractions import Fraction

from relations.errors import InputError
from relations.mechanisms.local import _local, _q
from relations.model.mechanism import Mechanism
from relations.numbers.text import RationalLike

__all__ = ["paper_example", "paper_construction", "paper_local", "paper_central"]


def paper_example(prior=("19/20", "1/20")) -> Mechanism:
    """Zheng et al. 2025, Section 5: ``D = {1, 2}``, ``Q = [[0.65, 0.35], [0.35, 0.65]]``."""
    return _local([[Fraction(13, 20), Fraction(7, 20)], [Fraction(7, 20), Fraction(13, 20)]], prior,
                  inputs=["1", "2"], outputs=["1", "2"], name="Zheng et al. 2025, Section 5 example")



def paper_construction(theorem: int, beta: RationalLike) -> Mechanism:
    """The joint distributions of Zheng et al. 2025, Thm 6/10 (eq. 57/85) and Thm 8/12 (eq. 63/91)."""
    beta = _q(beta)
    if not 0 < beta < 1:
        raise InputError("beta must lie strictly between 0 and 1")
    if theorem in (6, 10):
        return paper_central(beta)
    if theorem in (8, 12):
        return paper_local(beta)
    raise InputError("the paper's constructions are for theorems 6, 8, 10, 12")


def paper_local(beta: RationalLike) -> Mechanism:
    """Zheng et al. 2025, eq. (63)/(91): ``D = {1, 2}``, the identity channel, prior ``(beta, 1 - beta)``.

    ``I(D;E) = h(beta)`` (binary entropy, nats) while ``eps_d = eps_i = inf``.

    Examples
    --------
    >>> from relations import measure
    >>> m = measure(paper_local(Fraction(1, 2)))
    >>> str(m.eps_d.exact), m.eps_m.enclosure.contains(0)
    ('inf', False)
    """
    beta = _q(beta)
    return Mechanism.local([[1, 0], [0, 1]], prior=[beta, 1 - beta], inputs=["1", "2"], outputs=["1", "2"])


def paper_central(beta: RationalLike) -> Mechanism:
    """Zheng et al. 2025, eq. (57)/(85): datasets ``(1,1) ~ (1,2) ~ (2,2)``, ``I(X;Y) = h(beta)``, ``eps_d = inf``."""
    beta = _q(beta)
    labels = ["(1,1)", "(1,2)", "(2,2)"]
    half = Fraction(1, 2)
    return Mechanism.graph([[1, 0, 0], [0, half, half], [0, half, half]], [(0, 1), (1, 2)],
                           prior=[beta, (1 - beta) / 2, (1 - beta) / 2], inputs=labels, outputs=labels)
