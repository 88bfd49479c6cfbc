"""Bounded-exhaustive families (small-scope checking): their members, and one member per orbit.

A family is every local mechanism with ``n`` inputs and ``m`` outputs whose prior and rows have entries of
denominator at most ``N`` (:func:`stochastic_rows`, counted without listing by :func:`count_rows`).

A local mechanism's measures (``eps_i``, ``eps_d``, ``sigma_min``, ``I(X;Y)``, the divergence notions)
and so the status of every catalogue relation do not change when its inputs are relabelled (the rows
and the prior's entries permuted together, every pair of inputs being neighbours) or its outputs are
(the columns permuted); ``tests/test_sweep_symmetry.py`` checks this for every relation.  So a
bounded-exhaustive family (:mod:`relations.sweeps._spec`) need only be decided on one member of
each orbit of the group ``S_n x S_m`` acting on it, ``n! m!`` times fewer members for most orbits.

The members are numbered in mixed radix, ``index = prior * R**n + sum(row_i * R**(n-1-i))`` over the
``P`` priors and ``R`` rows of the family, each in lexicographic order.  The group element
``(sigma, tau)`` maps a member to the one with prior ``p[sigma[i]]`` and rows ``tau(row[sigma[i]])``
(``tau(r)[j] = r[tau[j]]``).  An orbit's *representative* is its member of smallest index (the
lex-leader of symmetry breaking [1]_), so the first counterexample of a family is the same whether it is
swept whole or by representatives.  :func:`representatives` finds them among any range of members,
vectorised over the range: each group element maps every candidate at once, the cheap transpositions
first, and a candidate mapped below itself is dropped.  :func:`orbit_count` counts the orbits exactly,
before anything is enumerated, by Burnside's lemma [2]_: the mean number of members each element fixes.

References
----------
.. [1] Crawford, Ginsberg, Luks, Roy. Symmetry-breaking predicates for search problems. KR 1996.
.. [2] Neumann. A lemma that is not Burnside's. Math. Sci. 4 (1979) 133-141.

Examples
--------
Every 2 x 2 channel with entries in {0, 1/2, 1} and the uniform prior: 9 members, 4 orbits:

>>> from fractions import Fraction as F
>>> rows = ((F(0), F(1)), (F(1, 2), F(1, 2)), (F(1), F(0)))
>>> priors = ((F(1, 2), F(1, 2)),)
>>> orbit_count(priors, rows, 2)
4
>>> reps, sizes = representatives(priors, rows, 2, 0, 9)
>>> reps.tolist(), sizes.tolist()
([0, 1, 2, 4], [2, 4, 2, 1])
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from functools import cache, lru_cache
from itertools import permutations
from math import factorial

import numpy as np

__all__ = ["farey", "count_rows", "stochastic_rows", "family_rows", "group", "orbit_count", "representatives",
           "orbit_sizes", "MAX_SLICE"]

#: Members mapped at once by :func:`representatives` (bounds its memory: a few arrays of this length).
MAX_SLICE = 1 << 18


def farey(n: int) -> tuple[Fraction, ...]:
    """The fractions in ``[0, 1]`` with denominator at most ``n``, increasing.

    Examples
    --------
    >>> [str(q) for q in farey(3)]
    ['0', '1/3', '1/2', '2/3', '1']
    """
    return tuple(sorted({Fraction(a, b) for b in range(1, n + 1) for a in range(b + 1)}))


def count_rows(length: int, denominator: int, *, positive: bool = False) -> int:
    """How many probability vectors of ``length`` entries have every entry's denominator at most ``denominator``.

    Counted by a recursion on the remaining mass, without listing them.

    Examples
    --------
    >>> count_rows(2, 3), count_rows(3, 3), count_rows(3, 3, positive=True)
    (5, 13, 1)
    """
    values = farey(denominator)

    @cache
    def count(slots: int, rest: Fraction) -> int:
        if slots == 1:
            return int(rest.denominator <= denominator and (rest > 0 or not positive))
        return sum(count(slots - 1, rest - v) for v in values if v <= rest and (v > 0 or not positive))

    return count(length, Fraction(1))


def stochastic_rows(length: int, denominator: int, *, positive: bool = False) -> tuple[tuple[Fraction, ...], ...]:
    """Every probability vector counted by :func:`count_rows`, in lexicographic order.

    Examples
    --------
    >>> [",".join(map(str, r)) for r in stochastic_rows(2, 2)]
    ['0,1', '1/2,1/2', '1,0']
    """
    values = farey(denominator)
    out: list[tuple[Fraction, ...]] = []

    def walk(prefix: tuple, rest: Fraction) -> None:
        if len(prefix) == length - 1:
            if rest.denominator <= denominator and (rest > 0 or not positive):
                out.append(prefix + (rest,))
            return
        for v in values:
            if v > rest:
                break
            if v > 0 or not positive:
                walk(prefix + (v,), rest - v)

    walk((), Fraction(1))
    return tuple(out)


@lru_cache(maxsize=4)
def family_rows(key: str) -> tuple[tuple, tuple]:
    """The priors and the rows of a family, each in lexicographic order.

    Parameters
    ----------
    key : str
        The family's normalised ``"exhaustive"`` object as JSON (``inputs``, ``outputs``, ``denominator``,
        ``prior``), a cache key.

    Examples
    --------
    >>> priors, rows = family_rows('{"denominator": 2, "inputs": 2, "outputs": 2, "prior": "uniform"}')
    >>> [str(v) for v in priors[0]], len(rows)
    (['1/2', '1/2'], 3)
    """
    fam = json.loads(key)
    rows = stochastic_rows(fam["outputs"], fam["denominator"])
    if fam["prior"] == "uniform":
        priors: tuple = ((Fraction(1, fam["inputs"]),) * fam["inputs"],)
    else:
        priors = stochastic_rows(fam["inputs"], fam["denominator"], positive=fam["prior"] == "positive")
    return priors, rows


def group(n: int, m: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """The elements ``(sigma, tau)`` of ``S_n x S_m`` but the identity, those moving fewest points first.

    Examples
    --------
    >>> group(2, 2)
    (((0, 1), (1, 0)), ((1, 0), (0, 1)), ((1, 0), (1, 0)))
    """
    moved = lambda p: sum(i != v for i, v in enumerate(p))  # noqa: E731
    elements = [(s, t) for s in permutations(range(n)) for t in permutations(range(m))]
    return tuple(sorted(elements[1:], key=lambda g: (moved(g[0]) + moved(g[1]), g)))


def _apply(perm: Sequence[int], v: Sequence) -> tuple:
    return tuple(v[j] for j in perm)


@lru_cache(maxsize=8)
def _tables(priors: tuple, rows: tuple, n: int) -> tuple[dict, dict, int]:
    """Index maps: ``{sigma: prior index -> index of the permuted prior}``, likewise rows under ``tau``."""
    m = len(rows[0])
    at_p = {p: i for i, p in enumerate(priors)}
    at_r = {r: i for i, r in enumerate(rows)}
    pmap = {s: np.array([at_p[_apply(s, p)] for p in priors], dtype=np.int64) for s in permutations(range(n))}
    rmap = {t: np.array([at_r[_apply(t, r)] for r in rows], dtype=np.int64) for t in permutations(range(m))}
    return pmap, rmap, len(rows)


def orbit_count(priors: tuple, rows: tuple, n: int) -> int:
    """The number of orbits of the family's ``len(priors) * len(rows)**n`` members under relabelling.

    Parameters
    ----------
    priors : tuple of tuple
        The family's priors (length ``n`` each), closed under permutation.
    rows : tuple of tuple
        The family's rows (probability vectors of one length ``m``), closed under permutation.
    n : int
        The number of inputs.

    Returns
    -------
    int
        ``(1 / n! m!) * sum over (sigma, tau) of the members (sigma, tau) fixes`` (Burnside's lemma): a
        member is fixed when its prior is constant on the cycles of ``sigma`` and, along each cycle of
        length ``L``, the first row is fixed by ``tau**L`` and determines the others.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> orbit_count(((F(1, 2), F(1, 2)),), ((F(0), F(1)), (F(1), F(0))), 2)
    2
    """
    pmap, rmap, _ = _tables(priors, rows, n)
    m = len(rows[0])
    ident = np.arange(len(rows))
    fixed_rows: dict[tuple, int] = {}
    total = 0
    for sigma in permutations(range(n)):
        fixed_priors = int(np.count_nonzero(pmap[sigma] == np.arange(len(priors))))
        if not fixed_priors:
            continue
        seen, cycles = set(), []
        for i in range(n):
            length, j = 0, i
            while j not in seen:
                seen.add(j)
                j, length = sigma[j], length + 1
            if length:
                cycles.append(length)
        for tau in permutations(range(m)):
            count = fixed_priors
            for length in cycles:
                key = (tau, length)
                if key not in fixed_rows:
                    image = ident
                    for _ in range(length):
                        image = rmap[tau][image]
                    fixed_rows[key] = int(np.count_nonzero(image == ident))
                count *= fixed_rows[key]
            total += count
    size = factorial(n) * factorial(m)
    assert total % size == 0, "Burnside's sum is a multiple of the group's order"
    return total // size


def representatives(priors: tuple, rows: tuple, n: int, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
    """The orbit representatives among members ``start .. stop-1``, and the size of each one's orbit.

    Parameters
    ----------
    priors, rows, n
        The family, as for :func:`orbit_count`.
    start, stop : int
        A range of member indices.

    Returns
    -------
    tuple of (numpy.ndarray, numpy.ndarray)
        The representatives' indices, increasing (int64), and how many members each one's orbit has.
    """
    found, sizes = [], []
    for lo in range(start, stop, MAX_SLICE):
        cand, size = _leaders(priors, rows, n, np.arange(lo, min(stop, lo + MAX_SLICE), dtype=np.int64))
        found.append(cand)
        sizes.append(size)
    if not found:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(found), np.concatenate(sizes)


def orbit_sizes(priors: tuple, rows: tuple, n: int, indices: np.ndarray) -> np.ndarray:
    """For member indices (strictly increasing), each one's orbit size if it is its orbit's representative, else 0.

    What a reader of a finished sweep checks its rows against, at a cost in the rows, not in the members.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> rows = ((F(0), F(1)), (F(1, 2), F(1, 2)), (F(1), F(0)))
    >>> orbit_sizes(((F(1, 2), F(1, 2)),), rows, 2, np.array([0, 3, 4])).tolist()
    [2, 0, 1]
    """
    idx = np.asarray(indices, dtype=np.int64)
    if idx.size > 1 and not np.all(np.diff(idx) > 0):
        raise ValueError("orbit_sizes: the indices must increase strictly")
    out = np.zeros(idx.size, dtype=np.int64)
    for lo in range(0, idx.size, MAX_SLICE):
        part = idx[lo:lo + MAX_SLICE]
        leaders, size = _leaders(priors, rows, n, part)
        out[lo + np.searchsorted(part, leaders)] = size
    return out


def _leaders(priors: tuple, rows: tuple, n: int, cand: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The candidates that are their orbit's smallest member (in their order), and their orbit sizes."""
    pmap, rmap, r = _tables(priors, rows, n)
    elements = group(n, len(rows[0]))
    order = factorial(n) * factorial(len(rows[0]))
    for sigma, tau in elements:
        cand = cand[cand <= _image(cand, pmap[sigma], rmap[tau], sigma, r, n)]
        if not cand.size:
            break
    stabiliser = np.ones(cand.size, dtype=np.int64)
    for sigma, tau in elements:
        stabiliser += _image(cand, pmap[sigma], rmap[tau], sigma, r, n) == cand
    return cand, order // stabiliser


def _image(members: np.ndarray, pmap: np.ndarray, rmap: np.ndarray, sigma: tuple, r: int, n: int) -> np.ndarray:
    """The indices of the members' images under ``(sigma, tau)`` (``rmap`` is ``tau``'s row map)."""
    digits = []
    rest = members
    for _ in range(n):
        rest, d = np.divmod(rest, r)
        digits.append(d)
    digits.reverse()  # digits[i]: row i's index; rest: the prior's
    out = pmap[rest]
    for i in range(n):
        out = out * r + rmap[digits[sigma[i]]]
    return out
