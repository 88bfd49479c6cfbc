"""Bounded-exhaustive checks of a conjecture: every small mechanism on a rational grid, decided exactly.

``relations conjecture`` no longer runs these families: its smallest-first enumeration
(:mod:`relations.search._smallest`) covers them, screened in floats.  They stay for callers that want every
member decided exactly.

A search that finds no counterexample says little about the mechanisms it did not meet.  A
bounded-exhaustive check says something precise: *every* mechanism of a finite family satisfies
the conjecture, each one decided exactly (:func:`~relations.checking._conjecture_eval.decide`).  The
families (:func:`families`) are fixed, so the statement is reproducible:

* local, quick: every ``2 x 2`` channel with entries of denominator at most 4 under the priors
  ``(1/2, 1/2)``, ``(2/3, 1/3)``, ``(3/4, 1/4)``; every ``3 x 3`` channel with entries in
  ``{0, 1/2, 1}`` (rows as a multiset) under the uniform prior;
* local, full: every ``2 x 2`` channel with denominators at most 8 under every positive prior with
  denominator at most 5 (``(1 - p, p)``, ``p <= 1/2``: the rest swaps the inputs); every ``3 x 3`` channel with denominators at most 3 (rows as a
  multiset, uniform prior); every ``2 x 3`` channel with denominators at most 4 (uniform prior);
* central: the product form on ``D^2`` (``D = {0, 1}``) of every ``2 x 2`` local channel with
  denominators at most 4 (quick) or 8 (full), uniform prior; every dense channel on ``D^2`` with
  two outputs and entries in ``{0, 1/2, 1}`` (rows as given, uniform prior).

Rows taken "as a multiset" are enough under a uniform prior: permuting inputs permutes the
neighbour pairs of a local domain (every pair is a neighbour pair) and leaves every notion the
same.  Both output orders of a ``2 x 2`` channel are enumerated (no symmetry is assumed).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from relations.model._mechanism import Mechanism
from relations.search._small_scope import farey, stochastic_rows

__all__ = ["Family", "families", "family_size"]


@dataclass(frozen=True)
class Family:
    """One finite family: its description, its size, and a generator of its members."""

    text: str
    size: int
    members: Callable[[], Iterator[Mechanism]]


def _binary_priors(denominator: int) -> list[tuple[Fraction, Fraction]]:
    """``(1 - p, p)`` for ``0 < p <= 1/2`` (``p > 1/2`` is the same family with the inputs swapped)."""
    return [(1 - p, p) for p in farey(denominator) if 0 < p <= Fraction(1, 2)]


def _local_square(den: int, priors: list[tuple[Fraction, Fraction]]) -> Family:
    rows = stochastic_rows(2, den)

    def members() -> Iterator[Mechanism]:
        for prior in priors:
            for r1, r2 in itertools.product(rows, repeat=2):
                yield Mechanism.local([list(r1), list(r2)], prior=list(prior))

    text = (f"every 2x2 channel with entries of denominator <= {den} ({len(rows) ** 2}) under "
            f"{len(priors)} prior{'s' if len(priors) > 1 else ''} ({', '.join('(' + ', '.join(map(str, p)) + ')' for p in priors)})")
    return Family(text, len(rows) ** 2 * len(priors), members)


def _local_multiset(n: int, m: int, den: int) -> Family:
    rows = stochastic_rows(m, den)
    size = len(list(itertools.combinations_with_replacement(range(len(rows)), n)))

    def members() -> Iterator[Mechanism]:
        for rs in itertools.combinations_with_replacement(rows, n):
            yield Mechanism.local([list(r) for r in rs])

    return Family(f"every {n}x{m} channel with entries of denominator <= {den}, uniform prior ({size} up to "
                  "input order)", size, members)


def _central_product(den: int) -> Family:
    rows = stochastic_rows(2, den)

    def members() -> Iterator[Mechanism]:
        for r1, r2 in itertools.product(rows, repeat=2):
            yield Mechanism.product([list(r1), list(r2)], records=2)

    return Family(f"every product over D^2 of a 2x2 channel with denominators <= {den}, uniform prior "
                  f"({len(rows) ** 2})", len(rows) ** 2, members)


def _central_dense() -> Family:
    rows = stochastic_rows(2, 2)
    size = len(rows) ** 4

    def members() -> Iterator[Mechanism]:
        for rs in itertools.product(rows, repeat=4):
            yield Mechanism.central([list(r) for r in rs], records=2, domain=2)

    return Family(f"every channel on D^2 with 2 outputs and entries in {{0, 1/2, 1}}, uniform prior ({size})",
                  size, members)


def families(setting: str, *, quick: bool) -> tuple[Family, ...]:
    """The bounded-exhaustive families of a setting (the module docstring lists them).

    Parameters
    ----------
    setting : {"local", "central"}
    quick : bool
        The smaller families (CI).

    Returns
    -------
    tuple of Family

    Examples
    --------
    >>> [f.size for f in families("local", quick=True)]
    [147, 56]
    >>> sum(1 for _ in families("central", quick=True)[0].members())
    49
    """
    if setting == "local":
        if quick:
            return (_local_square(4, [(Fraction(1, 2),) * 2, (Fraction(2, 3), Fraction(1, 3)),
                                      (Fraction(3, 4), Fraction(1, 4))]),
                    _local_multiset(3, 3, 2))
        return (_local_square(8, _binary_priors(5)), _local_multiset(3, 3, 3), _local_multiset(2, 3, 4))
    return (_central_product(4 if quick else 8),) + (() if quick else (_central_dense(),))


def family_size(setting: str, *, quick: bool) -> int:
    """The number of mechanisms the bounded-exhaustive check of ``setting`` decides.

    Examples
    --------
    >>> family_size("local", quick=True)
    203
    """
    return sum(f.size for f in families(setting, quick=quick))
