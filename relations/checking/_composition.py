"""The composition theorems (:data:`~relations.catalogue._composition.COMPOSITION_RELATIONS`) on one composition.

For each relation, the bound is computed from the parts' one-use budgets as an exact real, and
the conclusion is the composition's exact value (:func:`~relations.measures._composition.composed_notion`:
the counts of each output, or the privacy loss distribution); :func:`~relations.numbers.compare`
decides ``conclusion <= bound`` exactly or by enclosures refined until they separate, and the
outcome is ``undecided`` when they do not (never a float comparison).

* ``kov``: the bound *is* the same notion of ``k`` uses of binary randomized response with ratio
  ``e^eps`` (``eps`` the largest ``eps_d`` of one use over the parts): an exact rational or
  ``A - B e^eps'``, or ``ln`` of an exact rational;
* ``advanced``: ``ln(r) (sqrt(2 k ln(1/delta)) + k (r - 1))`` with ``r = e^eps`` rational, in ball
  arithmetic;
* ``rdp``: ``sum_i k_i renyi_i(2) + ln(c)``, a logarithm of a rational when every ``renyi_i(2)`` is;
* ``zcdp``: ``rho_k + 2 sqrt(rho_k ln(1/delta))`` with ``rho_k = sum_i k_i rho_i``, enclosed.

An infinite premise makes the relation hold vacuously.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from relations.catalogue._composition import COMPOSITION_RELATIONS, CompositionRelation, CompositionRule
from relations.catalogue._formulas import Formula
from relations.errors import InputError
from relations.kinds import Status
from relations.measures._pairs import NotionResult
from relations.measures._results import Witness
from relations.model._composed import Composition
from relations.numbers._enclosure import ball, interval, working_precision
from relations.numbers._logs import LogRatio
from relations.numbers._reals import ArbExpr, Log, Rational, Real, compare, inf, log_combination

__all__ = ["CompositionOutcome", "check_composition", "composition_bound"]


@dataclass(frozen=True)
class CompositionOutcome:
    """A composition theorem evaluated on one composition (:func:`check_composition`).

    Attributes
    ----------
    relation : CompositionRelation
    status : Status
        ``holds``, ``fails`` or ``undecided``.
    holds : bool or None
        None when undecided.
    premise : Real or None
        What the bound is made of: the largest ``eps_d`` of one use (``kov``, ``advanced``), or the
        sum over the uses of the premise (``rdp``, ``zcdp``).
    bound, conclusion : Real or None
        The bound, and the composition's exact value of the conclusion.
    slack : float or None
        ``bound - conclusion`` (for display; the verdict is exact).
    witness : Witness or None
        The neighbour pair attaining the conclusion, when it fails.
    note : str
        Why, where the status needs it.
    """

    relation: CompositionRelation
    status: Status
    holds: bool | None
    premise: Real | None = None
    bound: Real | None = None
    conclusion: Real | None = None
    slack: float | None = None
    witness: Witness | None = None
    note: str = ""


def _largest_eps_d(comp: Composition) -> LogRatio:
    from relations.measures._api import measure

    best: LogRatio | None = None
    for part in comp.parts:
        e = measure(part).eps_d.exact
        assert e is not None  # parts are exact
        if not e.is_finite:
            return e
        if best is None or best.ratio is None or (e.ratio is not None and e.ratio > best.ratio):
            best = e
    assert best is not None  # a composition has a part
    return best


def _sum(terms: list[tuple[int, Real]], text: str) -> Real:
    """``sum_i k_i x_i`` of finite reals: a logarithm of a rational when every ``x_i`` is one, else an enclosure."""
    logs = [(Fraction(k), x.log.ratio) for k, x in terms if isinstance(x, Log) and x.log.ratio is not None]
    if len(logs) == len(terms):
        return log_combination(logs, text)

    def enclose(bits: int):
        lo = hi = Fraction(0)
        for k, x in terms:
            a, b = x.enclose(bits + 8)
            lo, hi = lo + k * a, hi + k * b
        return lo, hi

    return ArbExpr(text, sum(k * float(x) for k, x in terms), enclose)


def composition_bound(relation: CompositionRelation, comp: Composition) -> tuple[Real, Real]:
    """The premise (as used) and the bound a composition theorem gives for ``comp``, as exact reals.

    Parameters
    ----------
    relation : CompositionRelation
    comp : Composition

    Returns
    -------
    tuple of Real
        ``(premise, bound)``; an infinite premise gives an infinite bound.

    Examples
    --------
    Advanced composition for 10 uses of binary randomized response with ratio 3:
    ``ln 3 (sqrt(20 ln(10^5)) + 20)``.

    >>> from relations.catalogue._composition import get_composition
    >>> from relations.mechanisms import randomized_response
    >>> premise, bound = composition_bound(get_composition("drv2010.advanced"), randomized_response(3).repeated(10))
    >>> str(premise), round(float(bound), 9) == round(math.log(3) * (math.sqrt(20 * math.log(1e5)) + 20), 9)
    ('ln(3)', True)
    """
    from relations.measures._composition import composed_notion
    from relations.measures._notions import notion_result

    k = comp.uses
    if relation.rule in (CompositionRule.KOV, CompositionRule.ADVANCED):
        eps = _largest_eps_d(comp)
        premise: Real = Log(eps)
        if not eps.is_finite:
            return premise, inf()
        r = eps.ratio
        assert r is not None  # finite
        if relation.rule == CompositionRule.KOV:
            binary = type(comp.base).local([[r / (1 + r), 1 / (1 + r)], [1 / (1 + r), r / (1 + r)]])
            return premise, composed_notion(binary.repeated(k), relation.conclusion).value
        c = relation.parameter

        def enclose(bits: int):
            with working_precision(bits + 32):
                lnr = ball(r).log()
                return interval(lnr * ((2 * k * ball(1 / c).log()).sqrt() + k * (ball(r) - 1)))

        approx = math.log(r) * (math.sqrt(2 * k * math.log(1 / c)) + k * (float(r) - 1))
        text = f"{eps} sqrt({2 * k} ln({1 / c})) + {k} {eps} ({r - 1})"
        return premise, (Rational(Fraction(0)) if r == 1 else ArbExpr(text, approx, enclose))
    values = []
    for part, n in zip(comp.parts, comp.counts):
        v = notion_result(part, relation.premise).value
        if v.infinite > 0:
            return v, inf()
        values.append((n, v))
    total = _sum(values, " + ".join(f"{n} {relation.premise}[{i}]" if len(values) > 1 else f"{n} {relation.premise}"
                                    for i, (n, _) in enumerate(values)))
    if relation.rule == CompositionRule.RDP:
        if isinstance(total, Log):
            assert total.log.ratio is not None
            return total, Log(LogRatio.of(total.log.ratio * relation.parameter))
        return total, _sum([(1, total), (1, Log(LogRatio.of(relation.parameter)))], f"{total} + ln({relation.parameter})")
    return total, Formula("zcdp", relation.parameter).exact(total, None, None, label=f"{k} rho")


def check_composition(comp: Composition, relations: Iterable[CompositionRelation] | None = None
                      ) -> tuple[CompositionOutcome, ...]:
    """Evaluate every composition theorem (or ``relations``) on ``comp``: its exact value against the bound.

    Parameters
    ----------
    comp : Composition
        A repeated mechanism (:meth:`Mechanism.repeated <relations.model.Mechanism.repeated>`) or a
        composition (:func:`~relations.model.compose`).
    relations : iterable of CompositionRelation, optional
        Defaults to :data:`~relations.catalogue._composition.COMPOSITION_RELATIONS`.

    Returns
    -------
    tuple of CompositionOutcome

    Examples
    --------
    Ten uses of binary randomized response with ratio 3 attain the optimal composition bound
    exactly (no slack); the other theorems hold with room to spare:

    >>> from relations.mechanisms import randomized_response
    >>> out = check_composition(randomized_response(3).repeated(10))
    >>> [(o.relation.id, str(o.status), o.slack == 0) for o in out][:3]
    [('kov2017.repeat_profile', 'holds', True), ('kov2017.repeat_eps_delta', 'holds', True), ('drv2010.advanced', 'holds', False)]
    """
    from relations.measures._composition import composed_notion

    out = []
    conclusions: dict[str, NotionResult | InputError] = {}  # one computation per conclusion (five share one)
    for relation in COMPOSITION_RELATIONS if relations is None else relations:
        premise, bound = composition_bound(relation, comp)
        if premise.infinite > 0:
            out.append(CompositionOutcome(relation, Status.HOLDS, True, premise, bound, None,
                                          note=f"{relation.premise} = inf: holds vacuously"))
            continue
        if relation.conclusion not in conclusions:
            try:
                conclusions[relation.conclusion] = composed_notion(comp, relation.conclusion)
            except InputError as exc:
                conclusions[relation.conclusion] = exc
        result = conclusions[relation.conclusion]
        if isinstance(result, InputError):
            out.append(CompositionOutcome(relation, Status.UNDECIDED, None, premise, bound, None,
                                          note=f"the conclusion is not computed: {result}"))
            continue
        conclusion = result.value
        s = compare(conclusion, bound)
        if s is None:
            out.append(CompositionOutcome(relation, Status.UNDECIDED, None, premise, bound, conclusion,
                                          note="undecided: the enclosures of the two sides did not separate"))
            continue
        slack = 0.0 if s == 0 else float(bound) - float(conclusion)
        holds = s <= 0
        out.append(CompositionOutcome(relation, Status.HOLDS if holds else Status.FAILS, holds, premise, bound,
                                      conclusion, slack, None if holds else result.witness))
    return tuple(out)
