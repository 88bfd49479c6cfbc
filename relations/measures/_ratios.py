"""The largest ratio ``A[x][y] / A[x'][y]`` over neighbours, exactly and at float speed.

Conventions: ``0/0`` is skipped, ``a/0 = +inf``, ``0/b`` gives ``-inf``.  If no
neighbour pair contributes (a single input, an empty edge list, or only ``0/0``
ratios) every budget holds, and the measure is reported as ``0`` with no witness.

**Exactness.**  The float64 copy is scanned with numpy per-clique max/min
reductions (:mod:`relations.model._neighbours`), and every clique-output whose float
ratio is within a relative ``1e-9`` of the float maximum is re-evaluated in exact
rationals; the exact maximum among them is the answer.  This is exact: each float
entry is within ``2**-51`` (relative) of its rational (one or two roundings), so the float ratio of any
clique is within ``~9 * 2**-53`` of its true ratio; a clique outside the window
therefore has a smaller true ratio than the float maximiser.  When the float copy
cannot guarantee that (underflow to zero or subnormals), every clique is evaluated
exactly.  Columns are processed in blocks of about 2 MiB so that the ``r``
reductions of ``D^r`` run in cache; local inputs (one clique) take all columns at once, read once by the
compiled kernel for large matrices (:mod:`relations.numbers._kernels`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from relations.measures._results import Budget, Witness
from relations.model._neighbours import InputSpace, LocalInputs
from relations.numbers._kernels import compiled, read_only
from relations.numbers._logs import LogRatio

__all__ = ["WINDOW", "TIES", "TABLE", "distinct_codes", "extremes", "EntryFn", "RanksFn", "ranked", "max_log_ratio", "scan_float"]

#: Relative window of float ratios re-checked exactly (far above float rounding).
WINDOW = 1e-9



#: ``entry(x, y)``: the exact rational entry ``A[x][y]`` of the matrix being scanned.
EntryFn = Callable[[int, int], Fraction]

#: ``ranks()``: ``(R, values)`` with ``values`` the distinct exact entries in increasing order and
#: ``R[x][y]`` the index of ``A[x][y]`` in it (an integer matrix of ``A``'s shape).
RanksFn = Callable[[], tuple[np.ndarray, list]]

#: Above this many exact re-checks (ties: k-RR written densely over ``D^r`` puts every clique at the
#: maximum), or once the re-checks of cliques of more than eight rows have read eight times this many exact
#: entries (as many as this many candidates of eight rows; k-RR: each of its ``k`` columns ties, and each has ``k``
#: rows at its extremes), the candidates are decided on the matrix of ranks instead, each distinct pair once.
TIES = 4096

#: Up to this many possible codes, :func:`distinct_codes` uses a presence table instead of a sort.
TABLE = 1 << 22


def ranked(exact: Sequence[Sequence[Fraction]]) -> tuple[np.ndarray, list]:
    """The ranks of an exact matrix: ``(R, values)`` as :data:`RanksFn` returns them.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> R, values = ranked([[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]])
    >>> R.tolist(), [str(v) for v in values]
    ([[1, 0], [0, 1]], ['1/4', '3/4'])
    """
    index: dict = {}  # keyed by (numerator, denominator): hashing a Fraction costs a modular inverse
    ids = np.array([[index.setdefault((v.numerator, v.denominator), len(index)) for v in row] for row in exact],
                   dtype=np.int64)
    keys = list(index)
    by_value = sorted(range(len(keys)), key=lambda i: Fraction(*keys[i]))
    order = np.empty(len(keys), dtype=np.int64)
    order[by_value] = np.arange(len(keys))
    values = [Fraction(*keys[i]) for i in by_value]
    return order[ids].reshape(len(exact), -1), values



def max_log_ratio(a: np.ndarray | Callable[[int, int], np.ndarray], space: InputSpace, *,
                  entry: EntryFn | None = None, reliable: bool = True, ranks: RanksFn | None = None,
                  ) -> tuple[LogRatio | float | None, Witness | None]:
    """Largest ``ln(A[x][y] / A[x'][y])`` over neighbours ``x ~ x'`` and columns ``y``, with a witness.

    The float scan picks the candidates within the relative :data:`WINDOW` of the
    float maximum and re-evaluates them in exact rationals (the module docstring
    says why this is exact).  The columns are processed in blocks of about 2 MiB so
    that the ``r`` reductions of ``D^r`` run in cache; within a block each clique
    family gives ``max/min`` per clique and column (``0/0`` is NaN and ignored).

    Parameters
    ----------
    a : numpy.ndarray or callable
        The float64 matrix ``A`` (inputs x outputs), or a function ``a(c0, c1)``
        returning its columns ``c0:c1`` with the column count as attribute ``m``
        (like :class:`~relations.measures._dense.Joint`, so that ``p(x)Q[x][y]``
        need never be built whole).
    space : LocalInputs, HammingInputs or GraphInputs
        The neighbour structure of the rows (:mod:`relations.model._neighbours`).
    entry : callable, optional
        ``entry(x, y)`` returns the exact rational ``A[x][y]``; ``None`` (the
        default) is float mode, the same as :func:`scan_float`.
    reliable : bool, optional
        False when the float copy may have lost entries (underflow to zero or to
        subnormals): then every clique and column is evaluated exactly.
    ranks : callable, optional
        ``ranks()`` gives the exact entries' ranks (:data:`RanksFn`, e.g. :func:`ranked`); used
        when more than :data:`TIES` candidates need an exact re-check, or when the re-checks of
        cliques of more than eight rows read more than ``8 * TIES`` entries: the per-clique max and
        min *ranks* are reduced like the floats and each distinct (max, min) pair is evaluated
        once, so ties cost one evaluation, not one per clique.

    Returns
    -------
    tuple
        ``(ratio, witness)``: ``ratio`` is a :class:`~relations.numbers.LogRatio`
        (exact mode; ``+inf`` for ``a/0``) or the float ``ln`` value (float mode),
        and ``witness`` the :class:`~relations.measures.Witness` attaining it;
        ``(None, None)`` when no neighbour pair contributes.

    Examples
    --------
    Binary randomized response with ratio 3: the largest ratio is ``(3/4) / (1/4)``.

    >>> from fractions import Fraction
    >>> import numpy as np
    >>> from relations.model._neighbours import LocalInputs
    >>> rows = [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]
    >>> ratio, witness = max_log_ratio(np.array(rows, dtype=float), LocalInputs(("0", "1")),
    ...                                entry=lambda x, y: rows[x][y])
    >>> str(ratio), witness
    ('ln(3)', Witness(x=0, x_prime=1, y=0))

    A zero against a positive entry is an infinite ratio; a single input has no
    neighbour pair:

    >>> rows = [[Fraction(1), Fraction(0)], [Fraction(1, 2), Fraction(1, 2)]]
    >>> str(max_log_ratio(np.array(rows, dtype=float), LocalInputs(("0", "1")),
    ...                   entry=lambda x, y: rows[x][y])[0])
    'inf'
    >>> max_log_ratio(np.array([[0.5, 0.5]]), LocalInputs(("0",)), entry=lambda x, y: Fraction(1, 2))
    (None, None)
    """
    if entry is None:
        return scan_float([a], space)[0]
    families = []
    best, best_at = 0.0, None
    for family, c0, ratio, top in _ratio_blocks(a, space):
        if top > best:
            best, best_at = top, (family, c0, ratio)
        families.append((family, c0, ratio))
    if reliable and best_at is None:
        return None, None
    threshold = math.inf if best == math.inf else best * (1 - WINDOW)
    if ranks is not None and sum(int(np.count_nonzero(r >= threshold)) if reliable else r.size
                                 for _, _, r in families) > TIES:
        return _by_ranks(a, space, entry, ranks)
    found, witness = None, None
    block = _blocks(a)
    spent = 0  # exact entries read for cliques of more than _FEW rows
    for family, c0, ratio in families:
        hits = np.argwhere(ratio >= threshold) if reliable else np.argwhere(np.ones(ratio.shape, dtype=bool))
        for clique, y in hits:
            y = c0 + int(y)
            rows = space.members(family, int(clique))
            if len(rows) > _FEW:
                if reliable:
                    rows = _near_extremes(block, space, rows, y)
                spent += len(rows)
                if ranks is not None and spent > TIES * _FEW:  # wide ties (k-RR, many outputs): each value once
                    return _by_ranks(a, space, entry, ranks)
            values = [entry(x, y) for x in rows]
            i, j = extremes(values)
            top, low = values[i], values[j]
            if top == 0:
                continue
            exact = LogRatio.inf() if low == 0 else LogRatio.of(top / low)
            if found is None or exact > found:
                found = exact
                i, j = (i, j) if top != low else (0, 1)
                witness = Witness(rows[i], rows[j], y)
            if reliable and best == math.inf:
                return found, witness
    return found, witness



def extremes(values: Sequence[Fraction]) -> tuple[int, int]:
    """The first positions of the largest and of the smallest of exact ``values`` (``values.index(max(values))``
    and ``values.index(min(values))``), comparing each distinct value once.

    A channel's column repeats a few values many times (k-RR: one ``p`` and ``k - 1`` equal ``q``), and a
    comparison of two :class:`~fractions.Fraction` objects costs two big multiplications; here equal entries
    are grouped first, by identity and then by their numerator and denominator (exact: a fraction in lowest
    terms is equal to another exactly when both are the same), and only the distinct values are compared.

    Examples
    --------
    >>> from fractions import Fraction as F
    >>> extremes([F(1, 4), F(3, 4), F(1, 8), F(3, 4), F(1, 8)])
    (1, 2)
    """
    firsts: dict[int, int] = {}
    for i, v in enumerate(values):
        firsts.setdefault(id(v), i)  # the first position of each object (``values`` keeps them alive)
    by_value: dict[tuple[int, int], int] = {}
    for i in firsts.values():  # in increasing order of position
        v = values[i]
        by_value.setdefault((v.numerator, v.denominator), i)
    positions = list(by_value.values())
    top = low = positions[0]
    for i in positions[1:]:  # increasing positions, strict comparisons: the first position of each extreme
        v = values[i]
        if _above(v, values[top]):
            top = i
        elif _above(values[low], v):
            low = i
    return top, low


def _above(a: Fraction, b: Fraction) -> bool:
    """``a > b``, deciding first by the binary orders of magnitude of two positive values: ``n / d`` lies in
    ``(2^(e - 1), 2^(e + 1))`` with ``e`` the bit length of ``n`` minus that of ``d``, so ``e`` two or more
    apart decide; else (or with a zero) the exact comparison, whose cross products cost two big
    multiplications on the long numbers of composed or geometric channels."""
    an, bn = a.numerator, b.numerator
    if an > 0 and bn > 0:
        gap = an.bit_length() - a.denominator.bit_length() - bn.bit_length() + b.denominator.bit_length()
        if gap >= 2:
            return True
        if gap <= -2:
            return False
    return a > b


#: Cliques of more rows than this (local inputs: every row) have only the rows near their float extrema
#: evaluated exactly (:func:`_near_extremes`).
_FEW = 8


def _near_extremes(block, space: InputSpace, rows: Sequence[int], y: int) -> list[int]:
    """The rows of a clique, in order, whose float entry in column ``y`` is within the relative :data:`WINDOW`
    of the clique's float maximum or minimum.  With a reliable float copy (every entry within ``2^-51`` of
    its exact value, zeros exact) they hold every row where the exact entry is largest or smallest, so the
    exact ratio and the witness (the first such rows) are those of the whole clique."""
    column = block(y, y + 1)[:, 0] if isinstance(space, LocalInputs) else block(y, y + 1)[list(rows), 0]
    high, low = float(column.max()), float(column.min())
    keep = np.flatnonzero((column >= high * (1 - WINDOW)) | (column <= low * (1 + WINDOW)))
    return [rows[i] for i in keep.tolist()]


def _candidate(space: InputSpace, entry: EntryFn, family, clique: int, y: int):
    """The exact ratio and witness of one clique and column (``None`` for ``0/0``)."""
    rows = space.members(family, clique)
    values = [entry(x, y) for x in rows]
    i, j = extremes(values)
    top, low = values[i], values[j]
    if top == 0:
        return None, None
    exact = LogRatio.inf() if low == 0 else LogRatio.of(top / low)
    i, j = (i, j) if top != low else (0, 1)
    return exact, Witness(rows[i], rows[j], y)


def _by_ranks(a, space: InputSpace, entry: EntryFn, ranks: RanksFn):
    """:func:`max_log_ratio` on the rank matrix: the exact maximum over the distinct (max, min) rank
    pairs, and the witness the candidate scan would give (the first maximising clique and column in
    its order: column blocks, then families, then cliques and columns)."""
    R, values = ranks()
    n_values = len(values)
    fams = list(space.extrema(R))
    codes: np.ndarray | list[int] = (distinct_codes([mx * n_values + mn for _, mx, mn in fams], n_values * n_values)[0]
                                     if fams else [])
    ratio: dict[int, LogRatio] = {}
    for code in map(int, codes):
        top, low = values[code // n_values], values[code % n_values]
        if top != 0:
            ratio[code] = LogRatio.inf() if low == 0 else LogRatio.of(top / low)
    if not ratio:
        return None, None
    best = max(ratio.values())
    good = np.zeros(n_values * n_values, dtype=bool) if n_values * n_values <= TABLE else None
    if good is None:
        good = np.array(sorted(c for c, v in ratio.items() if v == best), dtype=np.int64)
    else:
        good[[c for c, v in ratio.items() if v == best]] = True
    m = _columns(a)
    width = _width(space.size, m)
    for c0 in range(0, m, width):
        for family, mx, mn in fams:
            block = (mx[:, c0:c0 + width] * n_values + mn[:, c0:c0 + width])
            hits = np.argwhere(np.isin(block, good) if good.dtype != bool else good[block])
            if len(hits):
                clique, y = hits[0]
                return _candidate(space, entry, family, int(clique), c0 + int(y))
    raise AssertionError("a maximising pair has a clique")  # pragma: no cover


def distinct_codes(codes: Sequence[np.ndarray], size: int, *, inverse: bool = False,
                   ) -> tuple[np.ndarray, np.ndarray | None]:
    """The distinct values of non-negative integer arrays below ``size``, sorted (``numpy.unique`` of them all).

    Below :data:`TABLE` values a presence table replaces the sort or hash of :func:`numpy.unique`: one
    pass over the codes, however many there are.

    Parameters
    ----------
    codes : sequence of numpy.ndarray
        Integer arrays with entries in ``[0, size)``.
    size : int
        An upper bound (exclusive) on the codes.
    inverse : bool, optional
        Also return, for the first array, each entry's position among the distinct values.

    Returns
    -------
    tuple
        ``(distinct, positions)``; ``positions`` is ``None`` unless ``inverse``.

    Examples
    --------
    >>> import numpy as np
    >>> d, pos = distinct_codes([np.array([[5, 2], [5, 7]])], 8, inverse=True)
    >>> d.tolist(), pos.tolist()
    ([2, 5, 7], [[1, 0], [1, 2]])
    """
    if size > TABLE:
        joined = np.concatenate([np.ravel(c) for c in codes])
        if not inverse:
            return np.unique(joined), None
        distinct, where = np.unique(joined, return_inverse=True)
        return distinct, np.reshape(where[:np.size(codes[0])], np.shape(codes[0]))
    present = np.zeros(size, dtype=bool)
    for c in codes:
        present[c] = True
    distinct = np.flatnonzero(present)
    if not inverse:
        return distinct, None
    position = np.empty(size, dtype=np.int64)
    position[distinct] = np.arange(len(distinct))
    return distinct, position[codes[0]]


def _columns(a) -> int:
    return a.m if callable(a) else a.shape[1]



def _blocks(a):
    return a if callable(a) else (lambda c0, c1: a[:, c0:c1])



def _width(n: int, m: int) -> int:
    """Columns per block: ``n * width * 8`` bytes is about 2 MiB, so a block stays in cache."""
    return max(1, min(m, (1 << 21) // (8 * max(n, 1))))



def _ratio_blocks(a, space):
    """Yield ``(family, c0, ratio, top)``: per clique and column, ``max/min`` of ``A`` over the clique
    (``0/0`` is NaN, ``a/0`` inf) for the contiguous column block starting at ``c0``, and its largest entry.

    Local inputs (one clique of all rows) take the extrema of all columns at once, with no copy: the
    compiled kernel :func:`~relations.numbers._compiled.column_extrema` when
    :func:`~relations.numbers._kernels.compiled` serves the size (one read, ``p(x)Q[x][y]`` formed on
    the fly), else numpy's reductions; both give the same extrema (max and min round nothing)."""
    block = _blocks(a)
    m = _columns(a)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if isinstance(space, LocalInputs):
            if space.size < 2:
                return
            extrema = _local_extrema(a, m)
            if extrema is not None:
                ratio = np.divide(extrema[0], extrema[1], out=extrema[0])[None, :]
                if ratio.size:
                    yield 0, 0, ratio, float(np.fmax.reduce(ratio, axis=None))
                return
        width = _width(space.size, m)
        for c0 in range(0, m, width):
            chunk = np.ascontiguousarray(block(c0, min(m, c0 + width)))
            for family, mx, mn in space.extrema(chunk):
                ratio = np.divide(mx, mn, out=mx)  # extrema() hands out fresh arrays
                if ratio.size:
                    yield family, c0, ratio, float(np.fmax.reduce(ratio, axis=None))



def _local_extrema(a, m: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Column maxima and minima of a whole matrix ``A`` (an array, or a :class:`~relations.measures._dense.Joint`
    with its prior ``p`` and channel ``q``), fresh arrays; None for a block function the numpy path
    must form block by block (a joint too small for the compiled kernel)."""
    q, p = (a, None) if isinstance(a, np.ndarray) else (getattr(a, "q", None), getattr(a, "p", None))
    if not isinstance(q, np.ndarray) or q.ndim != 2 or q.shape[0] == 0:
        return None
    kernels = compiled(q.size, saving=1.0) if q.dtype == np.float64 and q.flags.c_contiguous else None
    if kernels is not None:
        mx, mn = np.empty(m), np.empty(m)
        kernels.column_extrema(read_only(q), read_only(np.empty(0) if p is None
                                                      else np.ascontiguousarray(p, dtype=np.float64).ravel()), mx, mn)
        return mx, mn
    if p is None:
        return q.max(axis=0), q.min(axis=0)
    return None


def scan_float(mats: Sequence[np.ndarray | Callable[[int, int], np.ndarray]], space: InputSpace,
               ) -> list[tuple[float | None, Witness | None]]:
    """Float mode: ``max ln(A[x][y] / A[x'][y])`` with a witness, for each matrix in one pass.

    No exact re-evaluation: the results are as accurate as float64 (the measures
    of a float-mode mechanism say ``exact = False``).

    Parameters
    ----------
    mats : sequence of numpy.ndarray or callable
        The matrices, each as for :func:`max_log_ratio` (an array, or a column-block
        function with attribute ``m``).
    space : LocalInputs, HammingInputs or GraphInputs
        The neighbour structure of the rows.

    Returns
    -------
    list of tuple
        One ``(ln ratio, witness)`` per matrix, or ``(None, None)`` when no
        neighbour pair contributes.

    Examples
    --------
    >>> import numpy as np
    >>> from relations.model._neighbours import LocalInputs
    >>> q = np.array([[0.75, 0.25], [0.25, 0.75]])
    >>> [(round(v, 6), w) for v, w in scan_float([q, q**2], LocalInputs(("0", "1")))]
    [(1.098612, Witness(x=0, x_prime=1, y=0)), (2.197225, Witness(x=0, x_prime=1, y=0))]
    """
    out: list[tuple[float | None, Witness | None]] = []
    for a in mats:
        best, best_at = 0.0, None
        for family, c0, ratio, top in _ratio_blocks(a, space):
            if top > best:
                best, best_at = top, (family, c0, ratio)
        if best_at is None:
            out.append((None, None))
            continue
        family, c0, ratio = best_at
        clique, y = np.unravel_index(int((ratio == best).argmax()), ratio.shape)  # the first maximum, as nanargmax
        out.append((math.log(best), _float_witness(_blocks(a), space, family, int(clique), c0 + int(y))))
    return out



def _float_witness(block, space, family, clique, y) -> Witness:
    if isinstance(space, LocalInputs):  # every row: a strided read of the column, no index list
        column = block(y, y + 1)[:, 0]
        i, j = int(column.argmax()), int(column.argmin())
        return Witness(0, 1, y) if i == j else Witness(i, j, y)
    rows = list(space.members(family, clique))
    column = block(y, y + 1)[rows, 0]
    i, j = int(np.argmax(column)), int(np.argmin(column))
    if i == j:
        i, j = 0, 1
    return Witness(rows[i], rows[j], y)



def _budget(name: str, result, negate: bool = False) -> Budget:
    ratio, witness = result
    if ratio is None:
        return Budget(name, 0.0, LogRatio.of(Fraction(1)), None)
    if isinstance(ratio, LogRatio):
        exact = -ratio if negate else ratio
        value = exact.value
    else:
        exact, value = None, (-ratio if negate else ratio)
    if negate and witness is not None:
        witness = Witness(witness.x_prime, witness.x, None)
    return Budget(name, value, exact, witness)

