"""Exact sums of many rationals: the numerators of equal denominators added as integers first.

``sum(values, Fraction(0))`` reduces every partial sum by a gcd; the rows of a channel share a few
denominators (k-RR: one; a geometric mechanism's divide each other), so adding the numerators of each
denominator as plain integers, then the groups over their least common denominator, and reducing once
gives the same :class:`~fractions.Fraction` (in lowest terms, as every Fraction) for a fraction of the
work.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction

__all__ = ["exact_sum"]


def exact_sum(values: Iterable[Fraction | int]) -> Fraction:
    """The exact sum of ``values`` (Fractions or ints), equal to ``sum(values, Fraction(0))``.

    Parameters
    ----------
    values : iterable of Fraction or int
        The terms.

    Returns
    -------
    Fraction
        Their sum, in lowest terms.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> exact_sum([F(1, 3), F(1, 6), F(1, 3), 1, F(-1, 6)])
    Fraction(5, 3)
    >>> exact_sum([])
    Fraction(0, 1)
    """
    by_denominator: dict[int, int] = {}
    get = by_denominator.get
    for v in values:
        d = v.denominator
        by_denominator[d] = get(d, 0) + v.numerator
    if len(by_denominator) <= 1:
        return Fraction(sum(by_denominator.values()), next(iter(by_denominator), 1))
    common = math.lcm(*by_denominator)  # one reduction at the end, not one per group
    return Fraction(sum(n * (common // d) for d, n in by_denominator.items()), common)
