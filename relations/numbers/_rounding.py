"""Rounding probability vectors to simple rationals (largest-remainder rounding).

One routine serves every place that turns a distribution into rationals with a
given denominator: simplifying witnesses (keeping the support), turning float
optimiser candidates into exact mechanisms, and making LP optima exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Literal, overload

__all__ = ["largest_remainder"]


@overload
def largest_remainder(values: Sequence, den: int, *, keep_support: Literal[False] = False) -> list[Fraction]: ...


@overload
def largest_remainder(values: Sequence, den: int, *, keep_support: bool) -> list[Fraction] | None: ...


def largest_remainder(values: Sequence, den: int, *, keep_support: bool = False) -> list[Fraction] | None:
    """Round a non-negative vector, scaled to sum 1, to multiples of ``1/den`` that sum to exactly 1.

    Each entry ``v_i / sum(v)`` is floored to a multiple of ``1/den``; the shortfall goes,
    one ``1/den`` each, to the entries with the largest remainders (ties: the lower index).
    All arithmetic is exact (a float is its exact binary value).

    Parameters
    ----------
    values : sequence of Fraction, int or float
        Non-negative, with a positive sum.
    den : int
        The common denominator, at least 1.
    keep_support : bool, optional
        Keep zero entries zero and positive entries positive; when that is impossible
        with this denominator the answer is ``None``.

    Returns
    -------
    list of Fraction or None

    Examples
    --------
    >>> largest_remainder([Fraction(1, 3), Fraction(2, 3)], 4)
    [Fraction(1, 4), Fraction(3, 4)]
    >>> largest_remainder([0.001, 0.999], 10)
    [Fraction(0, 1), Fraction(1, 1)]
    >>> largest_remainder([0.001, 0.999], 10, keep_support=True) is None
    True
    """
    exact = [Fraction(v) for v in values]
    total = sum(exact, Fraction(0))
    scaled = [v * den / total for v in exact]
    base = [s.numerator // s.denominator for s in scaled]
    short = den - sum(base)
    order = sorted(range(len(exact)), key=lambda i: -(scaled[i] - base[i]))
    for i in order:
        if short <= 0:
            break
        if keep_support and exact[i] == 0:
            continue
        base[i] += 1
        short -= 1
    if keep_support and (short != 0 or any(b == 0 and v != 0 for b, v in zip(base, exact))):
        return None
    return [Fraction(b, den) for b in base]
