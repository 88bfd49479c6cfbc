"""Neighbour pairs of rows, for the divergence-type notions (privacy profile, Renyi, KL, zCDP).

Every pairwise notion of :mod:`relations.measures._profile` and :mod:`relations.measures._renyi` is a
maximum, over ordered neighbour pairs ``(x, x')`` (both orders), of a function of the two rows
``Q[x]`` and ``Q[x']`` only, and it depends on them only through the multiset of the column pairs
``(Q[x][y], Q[x'][y])``.  :func:`row_pairs` lists those pairs once per distinct multiset:

* a dense mechanism: every ordered pair of distinct rows locally, the pairs differing in one record
  on ``D^r``, both orders of every edge of an explicit graph;
* a product form (``Q[x][y] = prod_j W[d_j][e_j]``): neighbours differ in one record ``j``, and for
  every such pair the other records' factors are the same distribution on both sides, so each of
  these notions equals the one of ``W``'s rows ``W[d_j]`` and ``W[d'_j]`` (the privacy profile
  because the other records' factors sum to 1 over their outputs; a Renyi or KL divergence because
  it adds over independent coordinates, and identical coordinates add 0).  The pairs are then the
  ordered pairs of distinct values of ``D``, and witnesses are lifted to datasets of ``r`` records
  (the first record carries the pair, the others the value 0).

Pairs of identical rows contribute 0 to every notion and are kept only when nothing else is left
(a mechanism whose rows are all equal has the value 0 *with* a witness); with no neighbour pair at
all the value is 0 with no witness.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from relations.measures._results import Witness, _Number
from relations.model._display import one_line, short_real, text_view
from relations.model._mechanism import Mechanism
from relations.model._neighbours import GraphInputs, HammingInputs, LocalInputs
from relations.model._products import ProductChannel
from relations.model._runs import Runs
from relations.numbers._enclosure import display_float
from relations.numbers._logforms import form_difference, log_form_sign
from relations.numbers._reals import ArbExpr, Real

__all__ = ["NotionResult", "Pair", "ordered_pairs", "row_pairs", "divergence_pairs", "max_expr", "lift", "float_rows"]


@dataclass(frozen=True, eq=False)
class NotionResult(_Number):
    """The value of a notion on one mechanism, and where it is attained.

    Attributes
    ----------
    name : str
        The notion with its argument, e.g. ``"renyi(2)"``.
    value : Real
        :class:`~relations.numbers.Rational`, :class:`~relations.numbers.Log` or
        :class:`~relations.numbers.ArbExpr` (an infinity is ``relations.numbers.inf()``).
    witness : Witness or None
        The neighbour pair ``(x, x')`` attaining it (``y`` is None), or None.
    detail : str
        Anything else the value needs said (the record attaining ``cmi``).

    ``print(result)`` shows the row of ``relations measure --notion``'s table; ``repr(result)`` is one line.

    Examples
    --------
    >>> from relations.measures._notions import notion_result
    >>> from relations.mechanisms import randomized_response
    >>> r = notion_result(randomized_response(3), "maximal_leakage")
    >>> r
    NotionResult(name='maximal_leakage', value=ln(3/2)≈0.40547)
    >>> print(r)  # doctest: +ELLIPSIS
    further notions (nats)
    ...
    │ maximal_leakage │ 0.405465 │ ln(3/2)    │         │
    ...
    """

    name: str
    value: Real
    witness: Witness | None = None
    detail: str = ""

    def _real(self) -> Real:
        return self.value

    def __float__(self) -> float:
        return float(self.value)

    def __str__(self) -> str:
        """``relations measure --notion``'s table row, as plain text (:func:`relations.io._text.notion_text`)."""
        return text_view(self, "relations.io._text:notion_text")

    def __repr__(self) -> str:
        """One line: the notion, its value (exact form where short), its witness pair."""
        from relations.numbers._reals import ArbExpr, Log

        v = self.value
        exact = str(v.log) if isinstance(v, Log) else (None if isinstance(v, ArbExpr) else str(v))
        fields: list[tuple[str, Any]] = [("name", repr(self.name)), ("value", short_real(float(v), exact))]
        if self.witness is not None:
            fields.append(("witness", f"(x={self.witness.x}, x'={self.witness.x_prime})"))
        return one_line("NotionResult", fields)


@dataclass(frozen=True)
class Pair:
    """Two rows ``P = Q[x]`` and ``R = Q[x']`` of a neighbour pair, exactly (or in floats)."""

    p: tuple
    q: tuple
    witness: Witness


def ordered_pairs(mech: Mechanism) -> np.ndarray:
    """The ordered neighbour pairs of a dense mechanism (both orders), an ``(N, 2)`` integer array.

    Parameters
    ----------
    mech : Mechanism
        Local, ``D^r`` or graph; dense, not a product form.

    Returns
    -------
    numpy.ndarray
        Row indices ``[x, x']``.

    Examples
    --------
    >>> from relations import Mechanism
    >>> ordered_pairs(Mechanism.central([["1/2", "1/2"]] * 4, records=2)).tolist()
    [[0, 2], [1, 3], [2, 0], [3, 1], [0, 1], [2, 3], [1, 0], [3, 2]]
    """
    space = mech.inputs
    if isinstance(space, LocalInputs):
        n = space.size
        i, j = np.nonzero(~np.eye(n, dtype=bool))
        return np.stack([i, j], axis=1).astype(np.intp)
    if isinstance(space, HammingInputs):
        k, r = space.k, space.records
        out = []
        idx = np.arange(space.size, dtype=np.intp).reshape((k,) * r)
        for axis in range(r):
            moved = np.moveaxis(idx, axis, -1).reshape(-1, k)
            for a in range(k):
                for b in range(k):
                    if a != b:
                        out.append(np.stack([moved[:, a], moved[:, b]], axis=1))
        return np.concatenate(out) if out else np.zeros((0, 2), dtype=np.intp)
    assert isinstance(space, GraphInputs)
    e = np.asarray(space.edges, dtype=np.intp).reshape(-1, 2)
    return np.concatenate([e, e[:, ::-1]])


def _dense_rows(mech: Mechanism) -> tuple[Sequence | None, np.ndarray, bool]:
    """``(rows, array, is_product)``: the rows pairs are taken from (``W``'s for a product form); ``rows`` is
    ``None`` for a float-mode dense channel."""
    ch = mech.channel
    if isinstance(ch, ProductChannel):
        w = ch.local
        return (w.exact if w.exact is not None else [tuple(r) for r in w.array.tolist()]), w.array, True
    return (ch.exact if ch.exact is not None else None), ch.array, False


def lift(mech: Mechanism, x: int, xp: int) -> Witness:
    """The witness of the row pair ``(x, x')``: row indices, or datasets for a product form.

    Examples
    --------
    >>> from relations.mechanisms import product, randomized_response
    >>> lift(product(randomized_response(3), 3), 1, 0)
    Witness(x=(1, 0, 0), x_prime=(0, 0, 0), y=None)
    """
    if isinstance(mech.channel, ProductChannel):
        r = mech.channel.records
        return Witness(Runs([(x, 1), (0, r - 1)] if r > 1 else [(x, 1)]).plain_if_short(),
                       Runs([(xp, 1), (0, r - 1)] if r > 1 else [(xp, 1)]).plain_if_short(), None)
    return Witness(x, xp, None)


def row_pairs(mech: Mechanism, *, pairs: np.ndarray | None = None) -> tuple[list[Pair], Pair | None]:
    """The neighbour row pairs of ``mech``, one per distinct multiset of column pairs.

    Parameters
    ----------
    mech : Mechanism
        Any mechanism (the module docstring says what a product form reduces to).
    pairs : numpy.ndarray, optional
        Only these ordered pairs of row indices (of ``W`` for a product form).

    Returns
    -------
    tuple
        ``(distinct, same)``: the pairs of different rows, one per multiset of column pairs, with
        exact entries (floats in float mode); ``same`` is a pair of identical rows when there is one
        (it has the value 0 for every notion), else None.

    Examples
    --------
    Binary randomized response: the two orders have the same multiset.

    >>> from relations.mechanisms import randomized_response
    >>> distinct, same = row_pairs(randomized_response(3))
    >>> len(distinct), distinct[0].witness, same
    (1, Witness(x=0, x_prime=1, y=None), None)
    """
    rows, array, is_product = _dense_rows(mech)
    if pairs is None:
        if is_product:
            k = array.shape[0]
            i, j = np.nonzero(~np.eye(k, dtype=bool))
            pairs = np.stack([i, j], axis=1)
        else:
            pairs = ordered_pairs(mech)
    if rows is None:
        rows = [tuple(r) for r in array.tolist()]
    seen: dict = {}
    distinct: list[Pair] = []
    same: Pair | None = None
    index = getattr(rows, "index", None)  # IndexedRows: equal entries have equal indices (ints hash fast)
    keys = index.tolist() if isinstance(index, np.ndarray) else rows
    for x, xp in pairs.tolist():
        p, q = rows[x], rows[xp]
        if keys[x] == keys[xp]:
            if same is None:
                same = Pair(tuple(p), tuple(q), lift(mech, x, xp))
            continue
        key = tuple(sorted(zip(keys[x], keys[xp])))
        if key not in seen:
            seen[key] = True
            distinct.append(Pair(tuple(p), tuple(q), lift(mech, x, xp)))
    return distinct, same


def divergence_pairs(mech: Mechanism, name: str, *, infinite: Callable[[Pair], bool] | None = None
                     ) -> tuple[list[Pair], NotionResult | None]:
    """The distinct neighbour row pairs of an exact mechanism (:func:`row_pairs`), with the result of a
    divergence notion ``name`` when it needs no pair computed: ``0`` when no two neighbours' rows differ
    (the witness a pair of identical rows, if any), ``inf`` at the first pair that ``infinite`` says is.

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> distinct, done = divergence_pairs(randomized_response(3), "kl")
    >>> len(distinct), done
    (1, None)
    >>> str(divergence_pairs(randomized_response(3), "kl", infinite=lambda pair: True)[1].value)
    'inf'
    """
    from relations.numbers._reals import Rational, inf

    distinct, same = row_pairs(mech)
    if not distinct:
        return distinct, NotionResult(name, Rational(Fraction(0)), same.witness if same else None)
    first = next((pair for pair in distinct if infinite(pair)), None) if infinite is not None else None
    return distinct, None if first is None else NotionResult(name, inf(), first.witness)


def max_expr(text: str, fns: list[Callable[[int], tuple[Fraction, Fraction]]],
             tie: Callable[[object], int | None] | None = None,
             forms: Callable[[], list[tuple] | None] | None = None) -> tuple[ArbExpr, int]:
    """The maximum of enclosed reals as one enclosed real; also the index of a maximiser at 64 bits.

    ``forms``, when given, returns each real's exact linear form in logarithms (or None): the maximum's
    form is then the form of the maximiser, found by exact comparisons of forms (:func:`_max_form`),
    for the exact ties of conjectures (as ``eps_m``'s).
    """
    cache: dict = {}

    def enclose(bits: int):
        if bits not in cache:
            ends = [f(bits) for f in fns]
            cache[bits] = (max(lo for lo, _ in ends), max(hi for _, hi in ends))
        return cache[bits]

    first = [f(64) for f in fns]
    at = max(range(len(fns)), key=lambda i: first[i][0])
    lo, hi = enclose(64)
    lazy = None if forms is None else (lambda: _max_form(forms(), first))
    return ArbExpr(text, display_float((lo + hi) / 2), enclose, tie, lazy_form=lazy), at


def _max_form(forms: list[tuple] | None, ends: list[tuple[Fraction, Fraction]]) -> tuple | None:
    """The exact form of ``max_i x_i`` given each ``x_i``'s form and an enclosure: the form of an ``x_i``
    that no other exceeds, decided exactly (:func:`~relations.numbers._logforms.log_form_sign`); None
    when a form is missing or a comparison too large.

    Examples
    --------
    ``ln 2`` and ``2 ln(2)/2`` tie for the maximum above ``ln(3/2)``: either form is the maximum's.

    >>> F = Fraction
    >>> a, b, c = ((F(1), F(2)),), ((F(1, 2), F(4)),), ((F(1), F(3, 2)),)
    >>> _max_form([a, b, c], [(F(69, 100), F(7, 10))] * 2 + [(F(4, 10), F(41, 100))])
    ((Fraction(1, 1), Fraction(2, 1)),)
    """
    if forms is None or any(f is None for f in forms):
        return None
    floor = max(lo for lo, _ in ends)
    live = [i for i, (_, hi) in enumerate(ends) if hi >= floor]
    best = live[0]
    for i in live[1:]:
        sign = log_form_sign(form_difference(forms[i], forms[best]))
        if sign is None:
            return None
        if sign > 0:
            best = i
    return forms[best]


def float_rows(mech: Mechanism) -> tuple[np.ndarray, np.ndarray]:
    """Float mode: the float64 rows pairs are taken from (``W``'s for a product form) and the ordered pairs.

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> a, pairs = float_rows(randomized_response(3))
    >>> a.tolist(), pairs.tolist()
    ([[0.75, 0.25], [0.25, 0.75]], [[0, 1], [1, 0]])
    """
    ch = mech.channel
    if isinstance(ch, ProductChannel):
        k = ch.local.shape[0]
        i, j = np.nonzero(~np.eye(k, dtype=bool))
        return ch.local.array, np.stack([i, j], axis=1).astype(np.intp)
    return ch.array, ordered_pairs(mech)
