"""Short citations ("Zheng et al. 2025, Thm 4") read from the catalogue's ``source`` strings.

Every catalogue ``source`` of the literature starts as a reference does: the authors' surnames
separated by commas, a full stop, the title, then the venue with its year; a result inside it is
named ``Theorem N``, ``Proposition N``, ``Lemma N`` or ``eq. (N)``.  Several references are
separated by ``;`` and the first one is cited.  A relation of this project (its source starts with
``this project``) is cited as ``this project``, followed by the citation of the relation it revises
(its ``corrects``) where it has one, or by the reference its source names it after (``Cuff and Yu
2016`` for the factor-1 local MI bound).  Figures' legends use :func:`citation`, so no figure
spells out a reference.

Examples
--------
>>> citation("zheng2025.thm4"), citation("kov2017.dp_eps_delta")
('Zheng et al. 2025, Thm 4', 'Kairouz et al. 2017')
>>> citation("relations.thm11_sharp"), citation("mironov2017.rdp_dp")
('Cuff and Yu 2016', 'Mironov 2017, Prop. 3')
>>> citation("relations.thm9_corrected")
'this project, revising Zheng et al. 2025, Thm 9'
"""

from __future__ import annotations

import re

from relations.catalogue._entries import Relation, get

__all__ = ["citation", "cite_source"]

_YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")
_WHERE = re.compile(r"\b(Theorem|Proposition|Lemma|Corollary|eq\.)\s*(\(?[0-9IVX][0-9A-Za-z.\-]*\)?)")
_SHORT = {"Theorem": "Thm", "Proposition": "Prop.", "Lemma": "Lemma", "Corollary": "Cor.", "eq.": "eq."}


def cite_source(source: str) -> str | None:
    """``Authors Year[, Thm N]`` of the first reference in ``source``, or None if it does not read as one.

    Parameters
    ----------
    source : str
        A catalogue ``source``: ``"Surname, Surname. Title. Venue Year, Theorem N. doi:..."``.

    Returns
    -------
    str or None
        One author: ``Mironov 2017``; two: ``Cuff and Yu 2016``; more: ``Kairouz et al. 2017``.

    Examples
    --------
    >>> cite_source("Dwork, Roth. The Algorithmic Foundations of Differential Privacy, 2014, Theorem 2.2")
    'Dwork and Roth 2014, Thm 2.2'
    >>> cite_source("this project (group privacy)") is None
    True
    """
    first = source.split(";")[0].strip()
    head, dot, rest = first.partition(". ")
    names = [n.strip() for n in head.split(",")]
    if not dot or not all(re.fullmatch(r"[A-Z][A-Za-z'\-]+", n) for n in names):
        return None
    year = _YEAR.search(rest)
    if year is None:
        return None
    who = names[0] if len(names) == 1 else f"{names[0]} and {names[1]}" if len(names) == 2 else f"{names[0]} et al."
    where = _WHERE.findall(rest)
    if len(where) != 1:  # none, or several (Tsybakov's Lemmas 2.5 and 2.3 for two relations): the work alone
        return f"{who} {year.group(1)}"
    kind, number = where[0]
    return f"{who} {year.group(1)}, {_SHORT[kind]} {number.rstrip('.')}"


def citation(relation: str | Relation) -> str:
    """The short citation of a catalogued relation, for a legend or a caption.

    Parameters
    ----------
    relation : str or Relation
        The relation or its id.

    Returns
    -------
    str
        ``Zheng et al. 2025, Thm 4``; ``this project, revising ...`` for a correction or sharpening of
        this project; ``this project`` (followed by the reference its source builds on, if any) otherwise.
    """
    r = get(relation) if isinstance(relation, str) else relation
    cited = cite_source(r.source)
    if cited is not None:
        return cited
    if r.corrects:
        revised = citation(r.corrects)
        return revised if revised.startswith("this project") else f"this project, revising {revised}"
    after = re.search(r"(?:sharpens|as|of|:)\s+([A-Z].*)", r.source)
    named = cite_source(after.group(1)) if after else None
    return "this project" + (f", after {named}" if named else "")
