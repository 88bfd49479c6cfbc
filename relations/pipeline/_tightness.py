"""A relation's tightness: the largest ``conclusion / bound`` among the searches' candidates, certified.

For a relation that stands, ``verify`` reports how close the searches came to the bound: the "best found"
ratio ``conclusion / bound``.  The searches score their candidates in floats (Nelder-Mead endpoints over the
dense families, the best grid point of each k-RR family and number of records); the float scores only
screen them.  Each candidate kept is an exact mechanism, whose two sides are enclosed in ball arithmetic;
the best is chosen by those enclosures, an exact tie (the equality cases, where every k-RR family reaches
ratio 1) goes to the simplest family, and the reported value is the certified lower end, to
:data:`~relations.search._selection.SIGNIFICANT_DIGITS` significant digits
(:func:`~relations.search._selection.select_max`).  So the figure and its family are the same on every
machine, whatever numpy's kernels or the summation order.

Only candidates the checker evaluates exactly take part: those where the relation applies, within
:data:`~relations.checking._checker.MAX_NOTION_WORK`, and, for a proved relation, inside its proved scope,
where the ratio is at most 1 (which lets the choice stop at the first candidate that reaches 1).

The result is kept in the cache folder (:func:`~relations.search._screening.stored_result`) under a hash of
everything it is computed from besides the code: the relation, whether it is proved, and each candidate's float
score (to the bit), tie key, label and build recipe (which determines its exact mechanism).  A run of the same
code on the same candidates reads it back (checked as every stored result is) instead of building and
certifying the candidates again; any other candidate list is another key.

Examples
--------
>>> from relations.catalogue import get
>>> from relations.search._optimiser import search_rr
>>> rel = get("zheng2025.thm3")  # eps_d <= eps_i - sigma_min: an equality for every uniform prior
>>> tightness(rel, [search_rr(rel, central=False, quick=True)], proved=True)
(1.0, '2-RR')
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import cast

from relations.catalogue._entries import Relation
from relations.checking._checker import MAX_NOTION_WORK, applicable, bound_value, notion_work
from relations.checking._quantities import values
from relations.model._mechanism import Mechanism
from relations.search._optimiser import Found
from relations.search._screening import stored_result
from relations.search._selection import Candidate, ratio_enclosure, screen_window, select_max

__all__ = ["tightness"]


def tightness(rel: Relation, founds: Iterable[Found], *, proved: bool = False) -> tuple[float | None, str]:
    """The best ratio ``conclusion / bound`` among the candidates of ``founds``, and its family.

    Parameters
    ----------
    rel : Relation
        An implication with a bound.
    founds : iterable of Found
        The searches' results; their ``ratio_candidates`` are the candidates.
    proved : bool, optional
        The relation is proved: candidates outside its proved scope are left out, and the ratio of the
        others is at most 1.

    Returns
    -------
    (float or None, str)
        The certified lower end of the best ratio, rounded to
        :data:`~relations.search._selection.SIGNIFICANT_DIGITS` significant digits, and the family of its
        candidate; ``(None, "")`` when no candidate has a finite ratio.
    """
    listed = [c for f in founds for c in f.ratio_candidates]
    key = _candidates_key(rel, listed, proved)
    compute = functools.partial(_tightness, rel, listed, proved)
    if key is None:  # a candidate that is not a picklable recipe (a test's lambda): computed, not stored
        return compute()
    return stored_result(f"tightness-{key}", compute, valid=_valid_tightness)


def _valid_tightness(kept: object) -> bool:
    """Whether a stored value has the shape :func:`tightness` returns."""
    return (isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[1], str)
            and (kept == (None, "") or (type(kept[0]) is float and math.isfinite(kept[0]) and kept[1] != "")))


def _candidates_key(rel: Relation, candidates: list[Candidate], proved: bool) -> str | None:
    """A hash of everything :func:`_tightness` reads besides the code: the relation, whether it is proved, and
    each candidate's float score (its bits), tie key, label and build recipe (a picklable ``functools.partial``
    of this code's functions and exact or float arguments, which determines the exact mechanism); ``None`` when
    a recipe does not pickle.  Equal keys mean equal inputs, so the stored result is the one computed."""
    import hashlib
    import pickle

    digest = hashlib.sha256(pickle.dumps((rel.id, str(rel.symbols), proved), protocol=pickle.HIGHEST_PROTOCOL))
    for c in candidates:  # one pickle each: objects shared between candidates (or not) change no byte
        screen = float(c.screen).hex() if isinstance(c.screen, float) else c.screen
        try:
            payload = pickle.dumps((screen, c.key, c.label, c.build), protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError):
            return None
        digest.update(len(payload).to_bytes(8, "little") + payload)
    return digest.hexdigest()[:40]


def _tightness(rel: Relation, listed: list[Candidate], proved: bool) -> tuple[float | None, str]:
    """:func:`tightness` of the candidates ``listed``, computed."""
    def admissible(mech: Mechanism | None) -> bool:
        return (mech is not None and not applicable(rel, mech) and notion_work(rel, mech) <= MAX_NOTION_WORK
                and not (proved and rel.scope.outside(mech) is not None))

    def certify(mech: Mechanism, bits: int):  # both sides enclosed, the relation not decided (a tie would be costly)
        vals = _values(mech)
        premise, conclusion = vals.reals[rel.premise], vals.reals[rel.conclusion]
        if premise.infinite:
            return None
        return ratio_enclosure(conclusion, bound_value(rel, premise, vals.reals["sigma_min"], vals.diameter), bits)

    window = screen_window((rel.premise, rel.conclusion))
    candidates = _within_screen(listed, lambda c: admissible(cast(Mechanism | None, c.exact())), window)
    chosen = select_max(candidates, certify, window=window, ceiling=Fraction(1) if proved else None)
    return (None, "") if chosen is None else (chosen.value(), chosen.label)


def _within_screen(candidates: Iterable[Candidate], admissible: Callable[[Candidate], bool], window: float
                   ) -> list[Candidate]:
    """The admissible candidates that :func:`~relations.search._selection.select_max` screens in (a finite float score
    within ``window`` of the best admissible one), in their order: the same choice as from every admissible
    candidate, without building the exact mechanisms of those far below the best.

    Examples
    --------
    >>> cands = [Candidate(s, (i,), str(i), lambda: None) for i, s in enumerate([0.5, 0.9, 1.0, float("nan")])]
    >>> [c.label for c in _within_screen(cands, lambda c: c.label != "2", 0.1)]  # 1.0 not admissible: 0.9 is best
    ['1']
    """
    listed = [c for c in candidates if isinstance(c.screen, (int, float)) and math.isfinite(c.screen)]
    admitted: dict[int, bool] = {}
    top = None
    for i in sorted(range(len(listed)), key=lambda i: -listed[i].screen):  # the best admissible score
        admitted[i] = admissible(listed[i])
        if admitted[i]:
            top = listed[i].screen
            break
    if top is None:
        return []
    edge = top - window * max(1.0, abs(top))
    return [c for i, c in enumerate(listed) if c.screen >= edge and (admitted[i] if i in admitted else admissible(c))]


@functools.lru_cache(maxsize=4096)
def _values(mech: Mechanism):
    """:func:`~relations.checking._quantities.values`, once per mechanism object (the k-RR candidates are shared
    between relations: :func:`~relations.search._optimiser.rr_candidate`)."""
    return values(mech)
