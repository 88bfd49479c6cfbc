"""The relation catalogue: published and corrected relations between privacy budgets.

Each :class:`Relation` is data: a stable id, the statement in words and in
symbols, the setting, the premise and conclusion notions, the bound
``f(a, sigma_min)`` as a small exact expression (:class:`Linear` or
:class:`KLBound`), and its source.  A relation says: every mechanism (in its
setting) whose premise budget is ``a`` satisfies the conclusion at budget
``f(a, sigma_min)``; since every ``f`` here is non-decreasing in ``a``, on one
mechanism it holds iff ``conclusion <= f(premise)`` with both at their minimal
values (``docs/semantics.md``).  A *non-implication* ("MI privacy does not imply
DP") has no bound; it is established by a witness.

Notions (all in nats): ``eps_i``, ``eps_d``, ``eps_m``, ``sigma_min``;
``neg_sigma`` is ``-sigma_min = max_{x~x'} ln(p(x)/p(x'))`` (Sun and Tay's
``delta_x``, Wang et al.'s ``eps_X``); ``eps_all`` is the DP budget over *every*
pair of inputs, not only neighbours (what group privacy bounds).

The twelve theorems of Zheng et al. (2025), sections 5.1-5.3, are kept exactly
as the paper states them (ids ``zheng2025.thm1`` ... ``zheng2025.thm12``),
including where they look wrong; corrected or sharpened forms are separate
relations (ids ``relations.*``) whose ``corrects`` and ``reason`` fields say
which statement they replace and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from relations.catalogue._bounds import KLBound, Linear
from relations.catalogue._conversions import CONVERSIONS, is_notion
from relations.catalogue._formulas import Formula
from relations.catalogue._scopes import EVERY, PRIOR_ON_COMPONENTS, Scope
from relations.kinds import Notion, RelationKind, Setting
from relations.notions import BASE_NOTIONS, view

#: Stands for "no scope given": replaced by the scope of the relation's shape (``_scope``).
_BY_SHAPE = Scope("by-shape", "the scope of its shape's proof")

__all__ = ["NOTIONS", "PAPER", "SUN", "DWORK_ROTH", "DRV", "CUFF_YU", "Relation", "CATALOGUE", "BY_ID", "get"]

#: The notions relations speak about, with their definitions in words (rows of :data:`relations.notions.NOTIONS`).
NOTIONS = view(value=lambda row: row.description, key=lambda row: row.pattern)


#: Source of the ``zheng2025.*`` relations.
PAPER = "Zheng, Huang, Wang, Li, Xu, Li. Relations Between Several Classical Privacy Notions. Acta Electronica Sinica 53(10), 2025"



#: Source of the ``suntay2020.*`` relations.
SUN = "Sun, Tay. On the relationship between inference and data privacy in decentralized IoT networks. IEEE TIFS 15, 2020 (as cited in Zheng et al. 2025, section 2)"



#: Source of the group-privacy relation (doi:10.1561/0400000042).
DWORK_ROTH = "Dwork, Roth. The Algorithmic Foundations of Differential Privacy, 2014, Theorem 2.2 (group privacy)"



#: Source of the KL-divergence relation (doi:10.1109/FOCS.2010.12).
DRV = "Dwork, Rothblum, Vadhan. Boosting and differential privacy. FOCS 2010, Lemma III.2 (KL divergence of eps-DP distributions)"



#: Source of the information-density relations (doi:10.1145/2976749.2978308).
CUFF_YU = "Cuff, Yu. Differential privacy as a mutual information constraint. CCS 2016 (eps-DP bounds the information density)"



@dataclass(frozen=True)
class Relation:
    """One catalogued relation between two budgets.

    ``setting``, ``premise``, ``conclusion`` and ``kind`` may be given as plain
    strings; they are stored as the enumerations of :mod:`relations.kinds` (which
    compare equal to their strings).

    Parameters
    ----------
    id : str
        Stable identifier, e.g. ``"zheng2025.thm4"``.
    title : str
        Short title.
    statement : str
        The statement in words.
    setting : str
        ``"local"``, ``"central"`` or ``"both"``.
    premise, conclusion : str
        Notions of :data:`NOTIONS`.
    kind : str
        ``"implication"`` (``conclusion <= bound(premise, sigma_min)``) or
        ``"non-implication"`` (no finite premise budget forces any finite
        conclusion budget).
    source : str
        Where the relation comes from.
    bound : Linear or KLBound or Formula or None, optional
        The bound of an implication; ``None`` for a non-implication.
    min_records : int, optional
        The least ``r`` for ``D^r`` (the paper's condition ``r > 1`` gives 2);
        explicit neighbour lists are always admitted.
    corrects : str or None, optional
        The id of the relation this one corrects or sharpens.
    reason : str or None, optional
        Why the corrected statement is wrong or loose.
    scope : Scope, optional
        The mechanisms its proof covers (:mod:`relations.catalogue._scopes`); ``check``
        reports ``outside the proved scope`` for the others.  Default: what the
        per-triple proof of its shape covers, ``PRIOR_ON_COMPONENTS`` for identifiability ->
        DP (``premise`` ``eps_i``, ``conclusion`` ``eps_d``), every mechanism otherwise.

    Examples
    --------
    >>> r = get("zheng2025.thm4")
    >>> r.symbols, r.kind == "implication", r.applies_to_setting("central")
    ('eps_i <= eps_d + sigma_min', True, False)
    """

    id: str
    title: str
    statement: str
    setting: str
    premise: str
    conclusion: str
    kind: str
    source: str
    bound: Linear | KLBound | Formula | None = None
    min_records: int = 1
    corrects: str | None = None
    reason: str | None = None
    scope: Scope = field(default_factory=lambda: _BY_SHAPE)

    def __post_init__(self) -> None:
        object.__setattr__(self, "setting", Setting(self.setting))
        object.__setattr__(self, "kind", RelationKind(self.kind))
        object.__setattr__(self, "premise", _notion(self.premise))
        object.__setattr__(self, "conclusion", _notion(self.conclusion))
        if self.scope is _BY_SHAPE:  # a relation built without a scope gets its shape's, never a wider one
            object.__setattr__(self, "scope", _scope(self.premise, self.conclusion))

    @property
    def symbols(self) -> str:
        """The relation in symbols: ``conclusion <= bound`` or ``premise < inf  =/=>  conclusion < inf``.

        Examples
        --------
        >>> get("relations.thm4_corrected").symbols
        'eps_i <= eps_d - sigma_min'
        >>> get("zheng2025.thm12").symbols
        'eps_m < inf  =/=>  eps_d < inf'
        """
        if self.kind == "non-implication":
            return f"{self.premise} < inf  =/=>  {self.conclusion} < inf"
        assert self.bound is not None
        return f"{self.conclusion} <= {self.bound.text(self.premise)}"

    def applies_to_setting(self, setting: str) -> bool:
        """True iff the relation is stated for ``setting``, or for both settings.

        Parameters
        ----------
        setting : str
            ``"local"`` or ``"central"`` (a mechanism's ``setting``).

        Returns
        -------
        bool
        """
        return self.setting in ("both", setting)



def _notion(name: str) -> str:
    """A :class:`~relations.kinds.Notion`, or a conversion notion such as ``renyi(2)`` kept as its string."""
    if name in BASE_NOTIONS or not is_notion(str(name)):
        return Notion(name)
    return str(name)


def _paper(n: int, setting: str, premise: str, conclusion: str, bound, words: str) -> Relation:
    return Relation(
        id=f"zheng2025.thm{n}", title=f"Zheng et al. 2025, Theorem {n}", statement=words, setting=setting,
        premise=premise, conclusion=conclusion, kind="implication" if bound is not None else "non-implication",
        source=f"{PAPER}, Theorem {n}", bound=bound, min_records=2 if setting == "central" else 1,
        scope=_scope(premise, conclusion))


def _scope(premise: str, conclusion: str) -> Scope:
    """Identifiability -> DP needs prior on every component with a pair (:mod:`relations.catalogue._scopes`)."""
    return PRIOR_ON_COMPONENTS if (premise, conclusion) == ("eps_i", "eps_d") else EVERY



#: Every catalogued relation: the twelve theorems of Zheng et al. (2025) as published, the
#: prior bound (17)/(18), relations from the literature they cite, and this project's
#: corrected and sharpened forms.
CATALOGUE: tuple[Relation, ...] = (
    # ---- Zheng et al. 2025, section 5.1: identifiability vs DP (as published)
    _paper(1, "central", "eps_i", "eps_d", Linear(1, -1),
           "A mechanism satisfying eps_i-central identifiability satisfies (eps_i - sigma_min)-central DP."),
    _paper(2, "central", "eps_d", "eps_i", Linear(1, 1),
           "A mechanism satisfying eps_d-central DP satisfies (eps_d + sigma_min)-central identifiability."),
    _paper(3, "local", "eps_i", "eps_d", Linear(1, -1),
           "A mechanism satisfying eps_i-local identifiability satisfies (eps_i - sigma_min)-local DP."),
    _paper(4, "local", "eps_d", "eps_i", Linear(1, 1),
           "A mechanism satisfying eps_d-local DP satisfies (eps_d + sigma_min)-local identifiability."),
    # ---- section 5.2: identifiability vs MI
    _paper(5, "central", "eps_i", "eps_m", Linear(2, -2),
           "A mechanism satisfying eps_i-central identifiability satisfies 2(eps_i - sigma_min)-central MI privacy."),
    _paper(6, "central", "eps_m", "eps_i", None,
           "eps_m-central MI privacy does not imply eps_i-central identifiability (for any finite eps_i)."),
    _paper(7, "local", "eps_i", "eps_m", Linear(2, -2),
           "A mechanism satisfying eps_i-local identifiability satisfies 2(eps_i - sigma_min)-local MI privacy "
           "(the paper writes eps_d^l for the identifiability budget; read as eps_i^l)."),
    _paper(8, "local", "eps_m", "eps_i", None,
           "eps_m-local MI privacy does not imply eps_i-local identifiability (for any finite eps_i)."),
    # ---- section 5.3: DP vs MI
    _paper(9, "central", "eps_d", "eps_m", Linear(2),
           "A mechanism satisfying eps_d-central DP satisfies 2 eps_d-central MI privacy."),
    _paper(10, "central", "eps_m", "eps_d", None,
           "eps_m-central MI privacy does not imply eps_d-central DP (for any finite eps_d)."),
    _paper(11, "local", "eps_d", "eps_m", Linear(2),
           "A mechanism satisfying eps_d-local DP satisfies 2 eps_d-local MI privacy."),
    _paper(12, "local", "eps_m", "eps_d", None,
           "eps_m-local MI privacy does not imply eps_d-local DP (for any finite eps_d)."),
    # ---- the prior bound the paper uses, eq. (17)/(18) and its Section 5 example
    Relation("zheng2025.eq17", "Zheng et al. 2025, eq. (17): prior bound, central",
             "The identifiability budget is at least the prior's skew over neighbours: eps_i >= -sigma_min "
             "(summing p(x)Q[x][y] over y gives p(x), so some y has ratio >= p(x)/p(x')).",
             "central", "eps_i", "neg_sigma", "implication", f"{PAPER}, eq. (17) and Section 5 example",
             Linear(1)),
    Relation("zheng2025.eq18", "Zheng et al. 2025, eq. (18): prior bound, local",
             "The local identifiability budget is at least the prior's skew: eps_i >= -sigma_min "
             "(the paper's example: eps_i >= ln(0.95/0.05)).",
             "local", "eps_i", "neg_sigma", "implication", f"{PAPER}, eq. (18) and Section 5 example", Linear(1)),
    # ---- literature the paper cites
    Relation("suntay2020.thm1xiv", "Sun and Tay 2020, Theorem 1-xiv",
             "eps-identifiability implies (eps + delta_x)-DP, delta_x = max ln p(x)/p(x') over neighbours = -sigma_min.",
             "both", "eps_i", "eps_d", "implication", SUN, Linear(1, -1), scope=PRIOR_ON_COMPONENTS),
    Relation("suntay2020.thm1xii", "Sun and Tay 2020, Theorem 1-xii",
             "eps-DP implies (eps + delta_x)-identifiability, delta_x = -sigma_min.",
             "both", "eps_d", "eps_i", "implication", SUN, Linear(1, -1)),
    Relation("dworkroth2014.group", "Group privacy over the neighbour graph",
             "eps_d-DP implies (g eps_d)-indistinguishability of inputs at distance g; every pair of inputs is "
             "within the graph's diameter (r for D^r, 1 locally), so eps_all <= diam * eps_d.",
             "both", "eps_d", "eps_all", "implication", DWORK_ROTH, Linear(1, 0, True)),
    Relation("cuffyu2016.density", "Information density under all-pairs DP",
             "If every pair of inputs is eps-indistinguishable then ln(Q[x][y]/p(y)) <= eps, so I(X;Y) <= eps_all.",
             "both", "eps_all", "eps_m", "implication", CUFF_YU, Linear(1)),
    Relation("drv2010.kl", "KL bound under all-pairs DP",
             "If every pair of inputs is eps-indistinguishable then D(Q_x || Q_x') <= eps (e^eps - 1), and by "
             "convexity I(X;Y) <= eps_all (e^eps_all - 1).",
             "both", "eps_all", "eps_m", "implication", DRV, KLBound()),
    # ---- corrected and sharpened forms (this project)
    Relation("relations.thm2_corrected", "Theorem 2 with the sign of sigma_min corrected",
             "eps_d-central DP implies (eps_d - sigma_min)-central identifiability.",
             "central", "eps_d", "eps_i", "implication",
             "this project; same bound as Sun and Tay 2020, Theorem 1-xii", Linear(1, -1),
             corrects="zheng2025.thm2",
             reason="p(x)Q[x][y]/(p(x')Q[x'][y]) = (Q[x][y]/Q[x'][y]) (p(x)/p(x')) <= e^eps_d e^(-sigma_min); the "
                    "published bound eps_d + sigma_min is below the prior bound -sigma_min <= eps_i (eq. 17) "
                    "whenever eps_d < -2 sigma_min."),
    Relation("relations.thm4_corrected", "Theorem 4 with the sign of sigma_min corrected",
             "eps_d-local DP implies (eps_d - sigma_min)-local identifiability.",
             "local", "eps_d", "eps_i", "implication",
             "this project; same bound as Sun and Tay 2020, Theorem 1-xii", Linear(1, -1),
             corrects="zheng2025.thm4",
             reason="as for Theorem 2; the paper's own Section 5 example (eps_d = ln(13/7), sigma_min = ln(1/19)) "
                    "has eps_i = ln(247/7) > eps_d + sigma_min."),
    Relation("relations.thm9_corrected", "Theorem 9 with the group-privacy factor",
             "eps_d-central DP implies (diam * eps_d)-central MI privacy; diam = r for D^r.",
             "central", "eps_d", "eps_m", "implication", "this project (group privacy + information density)",
             Linear(1, 0, True), corrects="zheng2025.thm9",
             reason="the proof's step (78) applies e^(-eps_d) Q[x'][y] <= Q[x][y] to every dataset x, but DP "
                    "constrains only neighbours; for non-neighbours the factor is e^(-dist * eps_d)."),
    Relation("relations.thm5_corrected", "Theorem 5 with the group-privacy factor",
             "eps_i-central identifiability implies diam * (eps_i - sigma_min)-central MI privacy.",
             "central", "eps_i", "eps_m", "implication", "this project (Theorem 1 + relations.thm9_corrected)",
             Linear(1, -1, True), corrects="zheng2025.thm5",
             reason="the paper's proof goes through Theorem 1 and the argument of Theorem 9, inheriting its gap."),
    Relation("relations.thm11_sharp", "Theorem 11 sharpened",
             "eps_d-local DP implies eps_d-local MI privacy (factor 1, not 2).",
             "local", "eps_d", "eps_m", "implication", CUFF_YU, Linear(1), corrects="zheng2025.thm11",
             reason="locally all inputs are neighbours, so ln(Q[x][y]/p(y)) <= eps_d already."),
    Relation("relations.thm7_sharp", "Theorem 7 sharpened",
             "eps_i-local identifiability implies (eps_i - sigma_min)-local MI privacy (factor 1, not 2).",
             "local", "eps_i", "eps_m", "implication", "this project (Theorem 3 + relations.thm11_sharp)",
             Linear(1, -1), corrects="zheng2025.thm7",
             reason="compose Theorem 3 with the factor-1 bound of relations.thm11_sharp."),
    # ---- standard conversions between notions (relations.catalogue._conversions)
    *(Relation(**spec) for spec in CONVERSIONS),
)



#: The catalogue by relation id.
BY_ID = {r.id: r for r in CATALOGUE}



def get(relation_id: str) -> Relation:
    """The catalogued relation with this id.

    Parameters
    ----------
    relation_id : str
        E.g. ``"zheng2025.thm4"`` (the paper's statements) or
        ``"relations.thm4_corrected"`` (this project's corrections).

    Returns
    -------
    Relation

    Raises
    ------
    KeyError
        If no catalogued relation has this id.

    Examples
    --------
    >>> r = get("relations.thm9_corrected")
    >>> r.symbols, r.corrects
    ('eps_m <= diam * eps_d', 'zheng2025.thm9')
    """
    return BY_ID[relation_id]

