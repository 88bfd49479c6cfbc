"""Evaluating catalogued relations and user claims on one mechanism, exactly.

:func:`check` measures a mechanism once, turns each quantity into an exact real
(:mod:`relations.checking._quantities`) and evaluates every relation of
:data:`relations.catalogue.CATALOGUE`:

* ratio relations are decided by rational comparison (``ln a <= ln b`` iff
  ``a <= b``; the bound ``g (ca a + cs s)`` is ``ln(q_a^(g ca) q_s^(g cs))``);
* anything with ``eps_m`` compares certified enclosures at rising precision,
  with an exact algebraic tie-breaker, and is ``undecided`` rather than guessed;
* an infinite premise makes an implication hold vacuously; an infinite
  conclusion with a finite bound makes it fail (``docs/semantics.md``);
* a non-implication is not decided by one mechanism; the outcome says whether
  this mechanism is a witness for it (finite premise, infinite conclusion).

User claims (:mod:`relations.checking._claims`) are decided by :func:`decide`, through the one
decider of claims and conjectures (:func:`relations.checking._conjecture_eval.decide`).
Float-mode mechanisms are compared on their float values and every outcome says
``approximate``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

import relations.catalogue as cat
from relations.catalogue._composition import CompositionRelation
from relations.checking._claims import Claim, parse_claim
from relations.checking._composition import CompositionOutcome
from relations.checking._conjecture_eval import decide as decide_statement
from relations.checking._display import ReportDisplay
from relations.checking._quantities import Values, values
from relations.errors import InputError
from relations.kinds import NumericMode, RelationKind, Status
from relations.measures._results import Witness
from relations.model._composed import Composition
from relations.model._mechanism import Mechanism
from relations.model._neighbours import HammingInputs
from relations.model._products import ProductChannel
from relations.notions import BASE_NOTIONS
from relations.numbers._logs import LogRatio
from relations.numbers._reals import LADDER, Log, Real, compare

__all__ = ["BASE_NAMES", "MAX_NOTION_WORK", "Outcome", "applicable", "bound_value", "notion_work", "evaluate", "Report", "check", "ClaimOutcome", "decide", "ComposedReals"]


@dataclass(frozen=True)
class Outcome:
    """A relation evaluated on one mechanism (:func:`evaluate`).

    Attributes
    ----------
    relation : Relation
        The relation evaluated.
    status : Status
        ``holds``, ``fails``, ``undecided``, ``not applicable`` or ``outside the proved
        scope`` (the relation's :class:`~relations.catalogue.Scope` excludes the mechanism;
        ``note`` then says what the relation does on it) for implications,
        ``witness`` or ``not a witness`` for non-implications (``docs/claims-and-verdicts.md``).
    holds : bool or None
        None when undecided, not applicable, outside the proved scope, or for a non-implication.
    premise, bound, conclusion : Real or None
        The premise's value, the bound ``f(premise, sigma_min)`` and the
        conclusion's value, as exact reals (``bound`` is None when not computed).
    slack : float or None
        ``bound - conclusion`` (negative when failing).
    slack_exact : str or None
        The slack exactly, as ``ln(q)``, when both sides are logarithms of rationals.
    witness : Witness or None
        Where the conclusion is attained, when the relation fails or the
        mechanism is a witness of a non-implication.
    note : str
        Why, in words, where the status needs it.
    approximate : bool
        True for a float-mode mechanism (compared on float values).
    """

    relation: cat.Relation
    status: str
    holds: bool | None
    premise: Real | None = None
    bound: Real | None = None
    conclusion: Real | None = None
    slack: float | None = None
    slack_exact: str | None = None
    witness: Witness | None = None
    note: str = ""
    approximate: bool = False


def applicable(relation: cat.Relation, mech: Mechanism) -> str | None:
    """``None`` if the relation applies to ``mech``, else the reason it does not.

    A relation applies when it is stated for the mechanism's setting and, on
    ``D^r``, when ``r`` is at least its ``min_records``.

    Parameters
    ----------
    relation : Relation
        A catalogued (or user-defined) relation.
    mech : Mechanism
        The mechanism.

    Returns
    -------
    str or None
        The reason, or ``None`` when the relation applies.

    Examples
    --------
    >>> from relations.catalogue import get
    >>> from relations.mechanisms import paper_example
    >>> applicable(get("zheng2025.thm1"), paper_example()), applicable(get("zheng2025.thm3"), paper_example())
    ('stated for the central setting', None)
    """
    if not relation.applies_to_setting(mech.setting):
        return f"stated for the {relation.setting} setting"
    if isinstance(mech.inputs, HammingInputs) and mech.inputs.records < relation.min_records:
        return f"stated for D^r with r >= {relation.min_records}"
    return None


def bound_value(relation: cat.Relation, premise: Real, sigma: Real, diam: int | None) -> Real:
    """``f(premise, sigma_min)`` as an exact real (premise finite): the bound's own exact form.

    Parameters
    ----------
    relation : Relation
        An implication (its ``bound`` is not None).
    premise : Real
        The premise's value, finite.
    sigma : Real
        ``sigma_min``.
    diam : int or None
        The diameter of the neighbour graph, ``None`` if disconnected.

    Returns
    -------
    Real
        See :meth:`Linear.exact <relations.catalogue.Linear.exact>`.

    Examples
    --------
    The published Theorem 4 on the paper's Section 5 example:
    ``eps_d + sigma_min = ln(13/7) + ln(1/19)``.

    >>> from relations.catalogue import get
    >>> from relations.mechanisms import paper_example
    >>> vals = values(paper_example(["19/20", "1/20"]))
    >>> str(bound_value(get("zheng2025.thm4"), vals.reals["eps_d"], vals.reals["sigma_min"], vals.diameter))
    'ln(13/133)'
    """
    assert relation.bound is not None  # an implication
    return relation.bound.exact(premise, sigma, diam, label=relation.premise)


def evaluate(relation: cat.Relation, vals: Values) -> Outcome:
    """Decide one relation on one mechanism, exactly (the rules are in the module docstring).

    Parameters
    ----------
    relation : Relation
        The relation.
    vals : Values
        The mechanism's quantities (:func:`~relations.checking.values`).

    Returns
    -------
    Outcome

    Examples
    --------
    The published Theorem 4 fails on the paper's Section 5 example; the bound
    misses ``eps_i = ln(247/7)`` by exactly ``2 sigma_min = ln(1/361)``:

    >>> from relations.catalogue import get
    >>> from relations.mechanisms import paper_example
    >>> o = evaluate(get("zheng2025.thm4"), values(paper_example(["19/20", "1/20"])))
    >>> str(o.status), str(o.bound), str(o.conclusion), o.slack_exact, o.witness
    ('fails', 'ln(13/133)', 'ln(247/7)', 'ln(1/361)', Witness(x=0, x_prime=1, y=0))

    A noiseless bit has finite mutual information and infinite ``eps_d``: a
    witness that MI privacy does not imply DP.

    >>> from relations import Mechanism
    >>> str(evaluate(get("zheng2025.thm12"), values(Mechanism.local([[1, 0], [0, 1]]))).status)
    'witness'
    """
    why = applicable(relation, vals.mechanism)
    if why:
        return Outcome(relation, Status.NOT_APPLICABLE, None, note=why)
    work = notion_work(relation, vals.mechanism)
    if work > MAX_NOTION_WORK:
        return Outcome(relation, Status.UNDECIDED, None,
                       note=f"not evaluated: its notions compare {work} (input, input, output) triples exactly, more "
                            f"than {MAX_NOTION_WORK}; claim one with --claim to evaluate it")
    outcome = _evaluate(relation, vals)
    outside = relation.scope.outside(vals.mechanism) if relation.kind == RelationKind.IMPLICATION else None
    if outside is None:
        return outcome
    verdicts: dict[bool | None, str] = {True: "the relation holds here", False: "the relation fails here"}
    here = verdicts.get(outcome.holds, "undecided here")
    return replace(outcome, status=Status.OUTSIDE_SCOPE, holds=None,
                   note=f"{outside}; {here}, which its proof does not cover (proved for {relation.scope.describe(relation.setting)})")


#: The base budgets; relations on other notions are evaluated only up to :data:`MAX_NOTION_WORK`.
BASE_NAMES = frozenset(BASE_NOTIONS)

#: Most (input, input, output) triples on which relations over other notions are evaluated exactly.
MAX_NOTION_WORK = 1 << 14


def notion_work(relation: cat.Relation, mech) -> int:
    """``n^2 m`` of the channel whose pairs the relation's notions compare (0 for the base budgets); a relation
    is evaluated exactly up to :data:`MAX_NOTION_WORK`."""
    if {relation.premise, relation.conclusion} <= BASE_NAMES or not mech.exact:
        return 0
    channel = mech.channel.local if isinstance(mech.channel, ProductChannel) else mech.channel
    n, m = channel.array.shape
    return n * n * m


def _evaluate(relation: cat.Relation, vals: Values) -> Outcome:
    premise = vals.reals[relation.premise]
    conclusion = vals.reals[relation.conclusion]
    approx = vals.approximate
    if relation.kind == RelationKind.NON_IMPLICATION:
        is_witness = premise.infinite == 0 and conclusion.infinite > 0
        note = (f"this mechanism is a witness: {relation.premise} finite, {relation.conclusion} = inf" if is_witness
                else f"not a witness: needs {relation.premise} finite and {relation.conclusion} infinite")
        return Outcome(relation, Status.WITNESS if is_witness else Status.NOT_A_WITNESS, None, premise, None, conclusion,
                       witness=vals.witnesses[relation.conclusion] if is_witness else None, note=note,
                       approximate=approx)
    if premise.infinite > 0:
        return Outcome(relation, Status.HOLDS, True, premise, None, conclusion,
                       note=f"{relation.premise} = inf: holds vacuously", approximate=approx)
    bound = bound_value(relation, premise, vals.reals["sigma_min"], vals.diameter)
    if bound.infinite > 0:
        return Outcome(relation, Status.HOLDS, True, premise, bound, conclusion, note="bound = inf", approximate=approx)
    s = compare(conclusion, bound)
    slack, slack_exact = _slack(bound, conclusion)
    if s is None:
        (clo, chi), (blo, bhi) = conclusion.enclose(LADDER[-1]), bound.enclose(LADDER[-1])
        return Outcome(relation, Status.UNDECIDED, None, premise, bound, conclusion, 0.0, slack_exact, approximate=approx,
                       note=f"undecided tie: both sides lie in one interval of width {_width(max(chi, bhi) - min(clo, blo))}")
    slack = 0.0 if s == 0 else slack
    holds = s <= 0
    return Outcome(relation, Status.HOLDS if holds else Status.FAILS, holds, premise, bound, conclusion, slack, slack_exact,
                   witness=None if holds else vals.witnesses[relation.conclusion], approximate=approx)


def _width(w) -> str:
    return "0" if w == 0 else f"about 1e{math.floor(math.log10(w.numerator) - math.log10(w.denominator))}"


def _slack(bound: Real, conclusion: Real) -> tuple[float | None, str | None]:
    if isinstance(bound, Log) and isinstance(conclusion, Log):
        b, c = bound.log, conclusion.log
        if b.is_finite and c.is_finite:
            assert b.ratio is not None and c.ratio is not None  # finite
            d = LogRatio.of(b.ratio / c.ratio)
            return d.value, str(d)
        if c.sign > 0:
            return float("-inf"), "-inf"
    return float(bound) - float(conclusion), None


@dataclass(frozen=True, repr=False)  # repr() and str(): ReportDisplay
class Report(ReportDisplay):
    """All relation outcomes and claim decisions for one mechanism (:func:`check`; display: :class:`ReportDisplay`).

    Attributes
    ----------
    values : Values
        The mechanism's quantities.
    outcomes : tuple of Outcome
        One per relation, in catalogue order.
    claims : tuple of ClaimOutcome
        One per claim, in the order given.
    composition : tuple of CompositionOutcome
        For a composition (a repeated mechanism): one per composition theorem
        (:func:`~relations.checking.check_composition`); empty for one mechanism.
    uses : Composition or None
        The composition checked, if any; ``values`` are then those of its exact equivalent through
        the counts of each output, or of one use when that is too large (``outcomes`` is then empty
        and claims are decided by composition rules).
    """

    values: Values
    outcomes: tuple[Outcome, ...]
    claims: tuple[ClaimOutcome, ...]
    composition: tuple[CompositionOutcome, ...] = ()
    uses: Composition | None = None


def check(mech: Mechanism | Composition, claims: Iterable[str | Claim] = (), *,
          relations: Iterable[cat.Relation | CompositionRelation] | None = None, mode: NumericMode | str = NumericMode.AUTO) -> Report:
    """Evaluate every catalogued relation (or ``relations``) and the given claims on ``mech``.

    The mechanism is measured once (:func:`~relations.checking.values`); each
    relation is decided by :func:`evaluate` and each claim by :func:`decide`.

    Parameters
    ----------
    mech : Mechanism or Composition
        Any mechanism (dense, graph, product; exact or float mode), or a composition
        (:meth:`Mechanism.repeated <relations.model.Mechanism.repeated>`, a ``"repeat"`` file): then
        the catalogue is evaluated on its exact equivalent through the counts of each output (when
        within :data:`~relations.model.MAX_SUFFICIENT_ENTRIES`), claims are decided on the composed
        values, and the composition theorems (:func:`~relations.checking.check_composition`) are
        evaluated too.
    claims : iterable of str or Claim, optional
        Claimed budgets such as ``"eps_d <= ln(13/7)"`` (:func:`~relations.checking.parse_claim`).
    relations : iterable of Relation or CompositionRelation, optional
        Defaults to the whole :data:`~relations.catalogue.CATALOGUE` (and, on a composition, every
        composition theorem); when given, only these (catalogue relations and composition theorems,
        :data:`~relations.catalogue._composition.COMPOSITION_RELATIONS`, in any mix).
    mode : NumericMode or str, optional
        The numeric mode, as for :func:`~relations.measures.measure`: ``"auto"`` (the mechanism as
        built), ``"exact"`` or ``"float"`` (:meth:`Mechanism.in_mode <relations.model.Mechanism.in_mode>`).

    Returns
    -------
    Report
        ``outcomes`` (one :class:`Outcome` per relation) and ``claims`` (one
        :class:`ClaimOutcome` per claim, ``holds`` True, False or None when undecided).

    Raises
    ------
    InputError
        If a claim does not parse, ``mode`` is unknown, ``"exact"`` meets a float array too large
        to be taken exactly, or a composition theorem is asked of a mechanism that is not a composition.

    References
    ----------
    .. [1] Zheng, Huang, Wang, Li, Xu, Li. Relations Between Several Classical Privacy Notions.
       Acta Electronica Sinica 53(10), 2025.

    Examples
    --------
    The paper's Theorem 4 fails on its own Section 5 example; the corrected form holds:

    >>> from relations.mechanisms import paper_example
    >>> report = check(paper_example(["19/20", "1/20"]), ["eps_d<=ln(13/7)", "eps_d<=0.6190392084062234"])
    >>> [c.holds for c in report.claims]
    [True, False]
    >>> status = {o.relation.id: str(o.status) for o in report.outcomes}
    >>> status["zheng2025.thm4"], status["relations.thm4_corrected"]
    ('fails', 'holds')

    The same claims in float mode: decided on the floats, each note saying so.

    >>> floats = check(paper_example(["19/20", "1/20"]), ["eps_d<=ln(13/7)"], mode="float")
    >>> floats.values.approximate, floats.claims[0].holds, floats.claims[0].note.split(";")[0]
    (True, True, 'approximate (float mode)')

    Three uses of binary randomized response: the catalogue on the composed mechanism, a claim on it,
    and the composition theorems from one use's budgets (the optimal one is attained exactly):

    >>> from relations.mechanisms import randomized_response
    >>> r = check(randomized_response(3).repeated(3), ["eps_d <= ln(27)"])
    >>> r.claims[0].holds, [(o.relation.id, str(o.status)) for o in r.composition][:2]
    (True, [('kov2017.repeat_profile', 'holds'), ('kov2017.repeat_eps_delta', 'holds')])
    """
    parsed = [c if isinstance(c, Claim) else parse_claim(c) for c in claims]
    chosen = None if relations is None else list(relations)
    theorems = None if chosen is None else [r for r in chosen if isinstance(r, CompositionRelation)]
    catalogue = None if chosen is None else [r for r in chosen if isinstance(r, cat.Relation)]
    if isinstance(mech, Composition):
        return _check_composition(mech, parsed, catalogue, theorems)
    if theorems:
        raise InputError(f"{theorems[0].id} is a composition theorem: it is checked on a composition (a file with "
                         "'repeat' or 'parts', or Mechanism.repeated), not on one use")
    vals = values(mech.in_mode(mode))
    rels = cat.CATALOGUE if catalogue is None else catalogue
    return Report(vals, tuple(evaluate(r, vals) for r in rels), tuple(decide(c, vals) for c in parsed))


def _check_composition(comp: Composition, claims: list[Claim], relations: Iterable[cat.Relation] | None,
                       chosen: list[CompositionRelation] | None = None) -> Report:
    """:func:`check` of a composition: the counts mechanism when it fits, else one use's values with the claims'
    notions computed by composition rules; the composition theorems ``chosen`` (default all)."""
    from relations.checking._composition import check_composition

    theorems = check_composition(comp, chosen)
    if comp.counts_fit():
        vals = values(comp.sufficient())
        rels = cat.CATALOGUE if relations is None else relations
        return Report(vals, tuple(evaluate(r, vals) for r in rels), tuple(decide(c, vals) for c in claims),
                      theorems, comp)
    one = values(comp.base)
    reals = ComposedReals(comp)
    vals = replace(one, reals=reals, witnesses=reals.witnesses, margins={})
    return Report(one, (), tuple(decide(c, vals) for c in claims), theorems, comp)


class ComposedReals(dict):
    """The notions of a composition by name, computed on first use by composition rules
    (:func:`~relations.measures._composition.composed_notion`); a notion it cannot compute is bad input."""

    def __init__(self, comp: Composition) -> None:
        super().__init__()
        self.composition = comp
        self.witnesses: dict[str, Witness | None] = {}

    def __missing__(self, key: str) -> Real:
        from relations.measures._composition import composed_notion

        result = composed_notion(self.composition, key)
        self[key] = result.value
        self.witnesses[key] = result.witness
        return result.value


@dataclass(frozen=True)
class ClaimOutcome:
    """A claimed budget decided on one mechanism (:func:`decide`).

    Attributes
    ----------
    claim : Claim
        The claim.
    holds : bool or None
        None when undecided (enclosures did not separate); True also when it holds
        only within rounding.
    value : Real
        The claimed quantity's value on the mechanism.
    note : str
        ``"approximate (float mode)"``, the reason it is undecided or holds within
        rounding, or empty.
    status : Status
        ``holds``, ``fails``, ``undecided`` or ``holds within rounding``.
    """

    claim: Claim
    holds: bool | None
    value: Real
    note: str = ""
    status: Status = Status.HOLDS


def decide(claim: Claim, vals: Values) -> ClaimOutcome:
    """Decide a claim exactly on the measured values, by the one decider of claims and conjectures.

    The claim is the conjecture ``name op bound`` (:attr:`Claim.statement
    <relations.checking._claims.Claim.statement>`), decided by
    :func:`relations.checking._conjecture_eval.decide` on the mechanism as given (float entries at
    their exact binary values, rows renormalised exactly).  When it fails there, or is undecided,
    but its boundary lies within the quantity's rounding margin
    (:func:`~relations.checking.rounding_margins`), the verdict is ``holds within rounding``: a
    mechanism within the inputs' rounding satisfies it.

    Parameters
    ----------
    claim : Claim
        A parsed claim (:func:`~relations.checking.parse_claim`).
    vals : Values
        The mechanism's quantities (:func:`~relations.checking.values`).

    Returns
    -------
    ClaimOutcome
        ``holds`` is None when undecided, never a guess.

    Examples
    --------
    ``eps_i = ln(247/7)`` on the paper's example: ``<=`` holds, ``<`` does not.

    >>> from relations.mechanisms import paper_example
    >>> vals = values(paper_example(["19/20", "1/20"]))
    >>> [decide(parse_claim(c), vals).holds for c in ("eps_i <= ln(247/7)", "eps_i < ln(247/7)")]
    [True, False]

    k-RR at ``eps = ln 3`` written in floats: its binary entries make ``eps_d`` exceed
    ``ln 3`` by about ``1e-16``, inside the rounding.

    >>> import math
    >>> from relations import Mechanism
    >>> e = math.exp(math.log(3)); p = e / (e + 2); q = 1 / (e + 2)
    >>> m = Mechanism.local([[p, q, q], [q, p, q], [q, q, p]])
    >>> str(decide(parse_claim("eps_d <= ln(3)"), values(m)).status)
    'holds within rounding'
    """
    value = vals.reals[claim.name]
    decision = decide_statement(claim, vals.reals, margins=vals.margins)
    approx = "approximate (float mode)" if vals.approximate else ""
    if decision.status == Status.HOLDS_WITHIN_ROUNDING:
        return ClaimOutcome(claim, True, value, "; ".join(filter(None, [approx, decision.how])),
                            Status.HOLDS_WITHIN_ROUNDING)
    if decision.status == "undecided":
        return ClaimOutcome(claim, None, value, "undecided: enclosures did not separate", Status.UNDECIDED)
    assert decision.status in ("holds", "fails"), decision  # a notion against a finite constant is defined
    holds = decision.status == "holds"
    return ClaimOutcome(claim, holds, value, approx, Status.HOLDS if holds else Status.FAILS)
