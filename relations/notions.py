"""The notion table: every privacy notion the tool knows, as one row of data.

Each row (:class:`NotionSpec`) gives a notion's name (a :class:`~relations.kinds.Notion`), its
symbol as text and as LaTeX, its kind, its argument, the settings where it is defined, a
definition in words, its reference, and where its evaluators live (exact, and the vectorised float
one the searches use).  Everything that lists notions is derived from :data:`NOTIONS`: the
grammar's names (:data:`BASE_NOTIONS` and the further notions), the CLI's choices, the tables and
LaTeX (:func:`latex`), the SMT encodings' list (:data:`SMT_NOTIONS`), and the docs' list
(``docs/notions.md``, written by :func:`markdown`).

Each row also carries what the searches, figures and frontiers derive: its float kernel, whether it
needs the prior or records, its rule under products, its conversion frontier and figure panel.  The
lists derived here (:data:`FURTHER_NOTIONS`, :func:`names`, :func:`view`) follow the table, so a
notion added at run time by :func:`register` (a plugin, a test) appears in every one of them.

Adding a notion means one row here, its :class:`~relations.kinds.Notion` member, its evaluators
and its tests (``CONTRIBUTING.md``).

Examples
--------
>>> from relations.notions import NOTIONS, latex
>>> NOTIONS["rho"].kind, NOTIONS["rho"].symbol, latex("eps_d")
(<NotionKind.DIVERGENCE: 'divergence'>, 'ρ', '\\\\varepsilon_d')
>>> BASE_NOTIONS[:3], "sigma_min" in RATIO_NOTIONS, "sigma_min" in SMT_NOTIONS
(('eps_i', 'eps_d', 'eps_m'), True, False)
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

from relations.errors import InputError
from relations.kinds import Notion, NotionKind, ProductRule, Setting

__all__ = ["NotionSpec", "FigurePanel", "NOTIONS", "BASE_NOTIONS", "RATIO_NOTIONS", "SMT_NOTIONS", "FURTHER_NOTIONS", "ALL_EXAMPLES",
           "latex", "mathtext", "evaluator", "markdown", "register", "unregister", "names", "view"]

_BOTH = (Setting.LOCAL, Setting.CENTRAL)


@dataclass(frozen=True)
class FigurePanel:
    """A notion's panel in the figure of the conversion frontiers (``relations figures``, ``conversion_frontiers``).

    Attributes
    ----------
    notion : str
        The notion with its argument, as drawn (``"eps_delta(1/100000)"``).
    relations : tuple of str
        The catalogue's conversions whose bounds are drawn against its frontier.
    title : str
        The panel's title (matplotlib mathtext allowed).
    order : int
        Its place among the panels.
    ylabel : str
        The y axis' label, when not the notion's symbol in nats.
    inputs : tuple of int
        Frontiers with these numbers of inputs drawn too (its certified points use the largest); the
        binary randomized response dots are then left out (its frontier is ``k``-RR's).
    at_rr : tuple of (str, str)
        Conversions drawn evaluated at binary randomized response's own value of a notion (id, notion).
    """

    notion: str
    relations: tuple[str, ...]
    title: str
    order: int
    ylabel: str = ""
    inputs: tuple[int, ...] = ()
    at_rr: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class NotionSpec:
    """One row of the notion table.

    Attributes
    ----------
    name : Notion
        Its name, e.g. ``Notion.RENYI`` (``"renyi"``).
    symbol : str
        How it is written in text, e.g. ``"ε_d"``.
    latex : str
        How it is written in LaTeX math (without ``$``), e.g. ``r"\\varepsilon_d"``.
    kind : NotionKind
        What it measures: a ratio, information, a divergence, a profile or a leakage.
    argument : str or None
        What its argument is, which says how it is checked: ``"eps"`` (a finite real >= 0, a rational or ``ln``
        of one, kept exact), ``"delta"`` (a rational in ``[0, 1]``), ``"alpha"`` (a rational order > 0, != 1),
        or None when it takes none.
    example : str or None
        The argument ``relations measure --notion all`` uses (``"2"`` for ``renyi(2)``).
    settings : tuple of Setting
        Where it is defined.
    description : str
        Its definition, in one line of words.
    reference : str
        Where it is defined (with a DOI where there is one).
    exact : str
        ``"module:function"`` computing it exactly (a certified enclosure for information).
    floats : str or None
        ``"module:function"`` computing it in floats for the searches (vectorised where it can be).
    smt : bool
        Whether the SMT encodings (:mod:`relations.proofs._smt`) state relations about it.
    paper : bool
        One of the paper's budgets, computed together by :func:`relations.measures.measure`.
    needs_records : bool
        Defined only where the inputs are records (locally, or datasets ``D^r``): not on an explicit
        neighbour graph, whose rows are not made of records (``relations measure --notion all`` leaves it out
        there and says so).
    values : str
        Its range and limits, e.g. ``"[0, 1], non-increasing in EPS"``.
    zeros : str
        How zeros and infinities are handled (``docs/semantics.md`` states the conventions in full).
    unit : str
        ``"nats"`` (the default); ``"probability"`` for the privacy profile, ``tv``, the Bayes
        vulnerabilities and the additive Bayes leakage (probabilities or differences of them, not
        logarithms); ``"dimensionless"`` for ``chi2`` and ``hellinger``.
    needs_prior : bool
        A notion of the prior and the whole channel, not of the neighbours' rows alone: its float kernel
        takes the channels and the priors, and the searches cannot compute it once per channel.
    kernel : str, callable or None
        The vectorised float kernel of the searches (``"module:function"`` or the function), None for the
        paper's budgets (computed together by :func:`relations.measures._batch.dense_values`) and for a
        notion without one.  With ``needs_prior`` it is called ``kernel(name, arg, q, p)`` on channels
        ``(B, n, m)`` and priors ``(B, n)`` and returns shape ``(B,)``; otherwise
        ``kernel(name, arg, A, C, cache)`` on ordered pairs of rows ``A = Q[x]``, ``C = Q[x']``
        (shape ``(..., m)``) and returns one value per pair (``cache``: a dict shared by the notions of
        the same rows).  ``arg`` is the argument as a ``Fraction`` or None.
    product : ProductRule or None
        How its value on an ``r``-fold product form follows from the records' values (None: not by a rule).
    parts : tuple of str
        For :attr:`ProductRule.GAP`: the two multiplicative notions whose products it is the difference of.
    float_error : float
        The float kernel's relative error beyond rounding (an order grid's), which widens the screening window.
    locally : str or None
        The notion it equals on a local mechanism (``cmi`` is ``eps_m`` there), or None.
    order_one : str or None
        For an order ``alpha``: the notion its order 1 is (``kl`` for ``renyi``), named when 1 is refused.
    frontier : str, callable or None
        ``"module:function"`` (or the function) giving the known frontier of a catalogue conversion whose
        conclusion is this notion (called with the relation, ``quick``), None when none is known.
    panel : FigurePanel or None
        Its panel in the figure of the conversion frontiers, None when it has none.
    structure_kernel : str, callable or None
        A float kernel of the searches that needs the shape's structure (called with the stacked rows
        ``(B, n, m)``, priors ``(B, n)``, the structure's name and the neighbour pairs), defined on the
        structures in ``structures`` only; None for the others.
    structures : tuple of str
        The structures (``"local"``, ``"D^2"``, ``"product"``) its ``structure_kernel`` is defined on.
    tensorises : bool
        Whether ``k`` independent uses of one mechanism have exactly ``k`` times one use's value (the Renyi
        divergences tensorise: ``D(P^k || Q^k) = k D(P || Q)``, so Renyi DP, KL and zCDP's ``rho`` add up);
        :func:`relations.measures.composed_notion` reads it.
    """

    name: str
    symbol: str
    latex: str
    kind: NotionKind
    argument: str | None
    example: str | None
    settings: tuple[Setting, ...]
    description: str
    reference: str
    exact: str | Callable[..., Any]
    floats: str | Callable[..., Any] | None
    smt: bool = False
    paper: bool = False
    needs_records: bool = False
    unit: str = "nats"
    values: str = ""
    zeros: str = ""
    needs_prior: bool = False
    kernel: str | Callable[..., Any] | None = None
    product: ProductRule | None = None
    parts: tuple[str, ...] = ()
    float_error: float = 0.0
    locally: str | None = None
    order_one: str | None = None
    frontier: str | Callable[..., Any] | None = None
    panel: FigurePanel | None = None
    structure_kernel: str | Callable[..., Any] | None = None
    structures: tuple[str, ...] = ()
    tensorises: bool = False

    @property
    def pattern(self) -> str:
        """The name as the catalogue writes it, its argument in capitals: ``renyi(ALPHA)``, ``rho``."""
        return self.name if self.argument is None else f"{self.name}({self.argument.upper()})"


_PAPER = "Zheng et al., Relations Between Several Classical Privacy Notions, 2025"
_BBG = "Balle, Barthe, Gaboardi, NeurIPS 2018"
_MEASURE = "relations.measures._api:measure"
_DENSE = "relations.measures._batch:dense_values"
_FLOAT = "relations.measures._notion_floats:notion_float"
_PAIRS = "relations.measures._divergences:pair_kernel"  # the divergences and profiles of neighbours' rows
_PRIOR = "relations.measures._batch:prior_values"  # the notions of the prior and the whole channel
_FRONTIER = "relations.pipeline._conversion_frontiers:"
_SAME, _ADD, _MUL = ProductRule.SAME, ProductRule.ADDITIVE, ProductRule.MULTIPLICATIVE
_QIF = "Alvim, Chatzikokolakis, McIver, Morgan, Palamidessi, Smith, The Science of Quantitative Information Flow, " \
       "Springer 2020, doi:10.1007/978-3-319-96131-6"

_ROWS = (
    NotionSpec(Notion.EPS_I, "ε_i", r"\varepsilon_i", NotionKind.RATIO, None, None, _BOTH,
               "identifiability budget: max ln p(x|y)/p(x'|y) over neighbours x~x' and outputs y", _PAPER,
               _MEASURE, _DENSE, smt=True, paper=True,
               values="[0, inf]", zeros="posterior ratios 0/0 are skipped and a/0 is inf; with no contributing neighbour pair, 0",
               needs_prior=True),
    NotionSpec(Notion.EPS_D, "ε_d", r"\varepsilon_d", NotionKind.RATIO, None, None, _BOTH,
               "differential-privacy budget: max ln Q[x][y]/Q[x'][y] over neighbours x~x' and outputs y",
               _PAPER, _MEASURE, _DENSE, smt=True, paper=True,
               values="[0, inf]", zeros="ratios 0/0 are skipped; a/0 is inf (neighbours' rows with different supports); with no contributing pair, 0"),
    NotionSpec(Notion.EPS_M, "ε_m", r"\varepsilon_m", NotionKind.INFORMATION, None, None, _BOTH,
               "mutual-information budget: I(X;Y) in nats", _PAPER, _MEASURE, _DENSE, paper=True,
               values="[0, ln |supp p|]", zeros="0 ln 0 = 0; inputs of zero prior contribute nothing",
               needs_prior=True, product=_ADD),
    NotionSpec(Notion.SIGMA_MIN, "σ_min", r"\sigma_{\min}", NotionKind.RATIO, None, None, _BOTH,
               "the prior constant: min ln p(x)/p(x') over neighbours", _PAPER, _MEASURE, _DENSE,
               paper=True,
               values="[-inf, 0]", zeros="a zero prior beside a positive neighbour gives -inf; with no contributing pair, 0",
               needs_prior=True),
    NotionSpec(Notion.EPS_ALL, "ε_all", r"\varepsilon_{\mathrm{all}}", NotionKind.RATIO, None, None, _BOTH,
               "DP budget over every pair of inputs (neighbours or not): max ln Q[x][y]/Q[x'][y]",
               _PAPER, "relations.measures._api:eps_all", _DENSE, smt=True, paper=True,
               values="[eps_d, inf]", zeros="as eps_d, over every pair of inputs"),
    NotionSpec(Notion.NEG_SIGMA, "−σ_min", r"-\sigma_{\min}", NotionKind.RATIO, None, None, _BOTH,
               "-sigma_min = max ln p(x)/p(x') over neighbours (the prior's skew)", _PAPER,
               _MEASURE, _DENSE, smt=True, paper=True,
               values="[0, inf]", zeros="as sigma_min, negated",
               needs_prior=True),
    NotionSpec(Notion.DELTA, "δ", r"\delta", NotionKind.PROFILE, "eps", "1", _BOTH,
               "privacy profile: max over ordered neighbours of sum_y max(0, Q[x][y] - e^EPS Q[x'][y])", _BBG,
               "relations.measures._profile:delta", _FLOAT, unit="probability",
               values="[0, 1], non-increasing in EPS; delta(0) = tv", zeros="where Q[x][y] > 0 = Q[x'][y] the whole of Q[x][y] counts",
               kernel=_PAIRS, product=_SAME, frontier=_FRONTIER + "delta_frontier"),
    NotionSpec(Notion.EPS_DELTA, "ε_δ", r"\varepsilon_{\delta}", NotionKind.PROFILE, "delta", "1/100000", _BOTH,
               "the least eps >= 0 with delta(eps) <= DELTA", _BBG, "relations.measures._profile:eps_delta", _FLOAT,
               values="[0, inf], at most eps_d; 0 when DELTA >= tv", zeros="the least eps >= 0; inf when no finite eps brings delta down to DELTA",
               kernel=_PAIRS, product=_SAME, frontier=_FRONTIER + "eps_delta_frontier",
               panel=FigurePanel("eps_delta(1/100000)", ("kov2017.dp_eps_delta",),
                                 r"$\varepsilon'$ at $\delta = 10^{-5}$", 2,
                                 ylabel=r"$\varepsilon'$ at $\delta = 10^{-5}$ (nats)",
                                 at_rr=(("mironov2017.rdp_dp", "renyi(2)"), ("cks2020.rdp_dp", "renyi(2)"),
                                        ("bs2016.zcdp_dp", "rho")))),
    NotionSpec(Notion.TV, "TV", r"\mathrm{TV}", NotionKind.PROFILE, None, None, _BOTH,
               "total variation: max over ordered neighbours of sum_y max(0, Q[x][y] - Q[x'][y]), the privacy "
               "profile at 0", _BBG + " (delta at eps = 0)", "relations.measures._profile:tv", _FLOAT,
               unit="probability",
               values="[0, 1]", zeros="1 exactly for disjoint supports",
               kernel=_PAIRS, product=_SAME),
    NotionSpec(Notion.RENYI, "ε_RDP", r"\varepsilon_{\mathrm{RDP}}", NotionKind.DIVERGENCE, "alpha", "2", _BOTH,
               "Renyi DP: max Renyi divergence of order ALPHA over ordered neighbour pairs",
               "Mironov, CSF 2017, doi:10.1109/CSF.2017.11", "relations.measures._renyi:renyi", _FLOAT,
               values="[0, inf], non-decreasing in ALPHA; kl as ALPHA -> 1, eps_d as ALPHA -> inf", zeros="ALPHA > 1: inf when some Q[x][y] > 0 = Q[x'][y]; ALPHA < 1: inf only for disjoint supports",
               kernel=_PAIRS, product=_SAME, float_error=1e-4, order_one="kl", tensorises=True),
    NotionSpec(Notion.RHO, "ρ", r"\rho", NotionKind.DIVERGENCE, None, None, _BOTH,
               "zCDP budget: sup over alpha > 1 of renyi(alpha) / alpha",
               "Bun, Steinke, TCC 2016, doi:10.1007/978-3-662-53641-4_24", "relations.measures._zcdp:rho", _FLOAT,
               values="[0, inf]; kl <= rho <= eps_d^2/2", zeros="inf when some Q[x][y] > 0 = Q[x'][y]",
               kernel=_PAIRS, product=_SAME, float_error=1e-8, frontier=_FRONTIER + "rho_frontier", tensorises=True,
               panel=FigurePanel("rho", ("bs2016.dp_zcdp", "relations.dp_zcdp_tanh"), r"zCDP $\rho$", 1)),
    NotionSpec(Notion.KL, "KL", r"\mathrm{KL}", NotionKind.DIVERGENCE, None, None, _BOTH,
               "max KL divergence D(Q[x] || Q[x']) over ordered neighbour pairs",
               "Dwork, Rothblum, Vadhan, FOCS 2010, doi:10.1109/FOCS.2010.12", "relations.measures._renyi:kl", _FLOAT,
               values="[0, inf]; renyi(ALPHA) as ALPHA -> 1", zeros="0 ln 0 = 0; inf when some Q[x][y] > 0 = Q[x'][y]",
               kernel=_PAIRS, product=_SAME, frontier=_FRONTIER + "kl_frontier", tensorises=True,
               panel=FigurePanel("kl", ("drv2010.kl_dp", "relations.kl_tanh"), "KL divergence", 0)),
    NotionSpec(Notion.CHI2, "χ²", r"\chi^2", NotionKind.DIVERGENCE, None, None, _BOTH,
               "max chi-squared divergence sum_y (Q[x][y] - Q[x'][y])^2 / Q[x'][y] over ordered neighbour pairs "
               "(= e^renyi(2) - 1)", "Pearson 1900; as a divergence, the f-divergence of f(t) = (t - 1)^2",
               "relations.measures._renyi:chi2", _FLOAT, unit="dimensionless",
               values="[0, inf]; e^renyi(2) - 1", zeros="inf when some Q[x][y] > 0 = Q[x'][y]",
               kernel=_PAIRS, product=_SAME),
    NotionSpec(Notion.MIN_ENTROPY_LEAKAGE, "L_ME", r"\mathcal{L}_{\mathrm{ME}}", NotionKind.LEAKAGE, None, None, _BOTH,
               "min-entropy leakage: ln sum_y max_x p(x) Q[x][y] - ln max_x p(x)",
               "Smith, FoSSaCS 2009, doi:10.1007/978-3-642-00596-1_21",
               "relations.measures._leakage:min_entropy_leakage", _FLOAT,
               values="[0, maximal_leakage]", zeros="inputs of zero prior contribute 0",
               needs_prior=True, kernel=_PRIOR, product=_ADD, frontier=_FRONTIER + "min_entropy_frontier"),
    NotionSpec(Notion.MAXIMAL_LEAKAGE, "L_max", r"\mathcal{L}_{\max}", NotionKind.LEAKAGE, None, None, _BOTH,
               "maximal leakage: ln sum_y max_x Q[x][y] (x over the prior's support)",
               "Issa, Wagner, Kamath, IEEE Trans. Inf. Theory 2020, doi:10.1109/TIT.2019.2935768",
               "relations.measures._leakage:maximal_leakage", _FLOAT,
               values="[0, ln |outputs|]; sibson(ALPHA) as ALPHA -> inf", zeros="x ranges over the prior's support",
               needs_prior=True, kernel=_PRIOR, product=_ADD, frontier=_FRONTIER + "maximal_leakage_frontier",
               panel=FigurePanel("maximal_leakage", ("iwk2020.ml_ldp",), "maximal leakage", 3, inputs=(2, 4, 16))),
    NotionSpec(Notion.CMI, "CMI", r"\mathrm{CMI}", NotionKind.INFORMATION, None, None, _BOTH,
               "per-record conditional mutual information: max over records i of I(X_i; Y | X_-i) (I(X;Y) locally)",
               "Cuff, Yu, CCS 2016, doi:10.1145/2976749.2978308", "relations.measures._leakage:cmi", None,
               needs_records=True,
               values="[0, ln |D|]; eps_m locally", zeros="needs records: not defined on an explicit neighbour graph",
               needs_prior=True, locally="eps_m", structure_kernel="relations.measures._batch:cmi_values",
               structures=("local", "D^2", "product")),
    NotionSpec(Notion.GDP_MU, "μ_GDP", r"\mu_{\mathrm{GDP}}", NotionKind.PROFILE, None, None, _BOTH,
               "Gaussian DP: the least mu with T(Q[x], Q[x']) >= G_mu for all ordered neighbours, "
               "G_mu(a) = Phi(Phi^-1(1 - a) - mu) (inf when no mu suffices; a number, not nats); T the f-DP trade-off curve",
               "Dong, Roth, Su, J. R. Stat. Soc. B 2022, doi:10.1111/rssb.12454",
               "relations.measures._tradeoff:gdp_mu", _FLOAT, unit="dimensionless",
               values="[0, inf]; 0 exactly when every pair's rows are equal", zeros="inf exactly when eps_d is inf",
               kernel=_PAIRS, product=_SAME),
    NotionSpec(Notion.SIBSON, "I_α^S", r"I^{\mathrm{S}}_{\alpha}", NotionKind.LEAKAGE, "alpha", "2", _BOTH,
               "Sibson's mutual information of order ALPHA (rational > 0, != 1): (ALPHA/(ALPHA-1)) ln sum_y "
               "(sum_x p(x) Q[x][y]^ALPHA)^(1/ALPHA), X the whole input (the dataset centrally, as for eps_m); "
               "tends to eps_m as ALPHA -> 1 and to maximal_leakage as ALPHA -> inf",
               "Sibson, Information radius, Z. Wahrscheinlichkeitstheorie 14, 1969; "
               "Verdu, alpha-mutual information, ITA 2015", "relations.measures._sibson:sibson", _FLOAT,
               values="[0, maximal_leakage], non-decreasing in ALPHA; eps_m as ALPHA -> 1, maximal_leakage as ALPHA -> inf", zeros="inputs of zero prior and outputs with p(y) = 0 are skipped",
               needs_prior=True, kernel=_PRIOR, product=_ADD, order_one="eps_m"),
    NotionSpec(Notion.PML, "ℓ_pml", r"\ell_{\mathrm{PML}}", NotionKind.LEAKAGE, None, None, _BOTH,
               "pointwise maximal leakage, its largest over outputs: max over y with p(y) > 0 of "
               "ln( max_{x: p(x) > 0} Q[x][y] / p(y) )",
               "Saeidian, Cervia, Oechtering, Skoglund, IEEE Trans. Inf. Theory 2023, "
               "doi:10.1109/TIT.2022.3203579", "relations.measures._flow:pml", _FLOAT,
               values="[maximal_leakage, eps_all]; always finite", zeros="outputs with p(y) = 0 and inputs of zero prior are skipped",
               needs_prior=True, kernel=_PRIOR, product=_ADD),
    NotionSpec(Notion.PRIOR_VULNERABILITY, "V(π)", r"V(\pi)", NotionKind.LEAKAGE, None, None, _BOTH,
               "prior Bayes vulnerability: max_x p(x), the chance of guessing X in one try without the output",
               _QIF, "relations.measures._flow:prior_vulnerability", _FLOAT, unit="probability",
               values="[1/|supp p|, 1]", zeros="inputs of zero prior never attain the maximum",
               needs_prior=True, kernel=_PRIOR, product=_MUL),
    NotionSpec(Notion.BAYES_VULNERABILITY, "V(π,C)", r"V(\pi, C)", NotionKind.LEAKAGE, None, None, _BOTH,
               "posterior Bayes vulnerability: sum_y max_x p(x) Q[x][y], the chance of guessing X in one try "
               "from the output", _QIF, "relations.measures._flow:bayes_vulnerability", _FLOAT, unit="probability",
               values="[prior_vulnerability, 1]", zeros="inputs of zero prior contribute 0",
               needs_prior=True, kernel=_PRIOR, product=_MUL),
    NotionSpec(Notion.BAYES_LEAKAGE, "L_V^+", r"\mathcal{L}^{+}_{V}", NotionKind.LEAKAGE, None, None, _BOTH,
               "additive Bayes leakage: V(pi, C) - V(pi) (min_entropy_leakage is ln of their ratio)", _QIF,
               "relations.measures._flow:bayes_leakage", _FLOAT, unit="probability",
               values="[0, 1 - prior_vulnerability]", zeros="inputs of zero prior contribute 0",
               needs_prior=True, kernel=_PRIOR, product=ProductRule.GAP,
               parts=("bayes_vulnerability", "prior_vulnerability")),
    NotionSpec(Notion.HELLINGER, "H²", r"H^2", NotionKind.DIVERGENCE, None, None, _BOTH,
               "max squared Hellinger distance 1 - sum_y sqrt(Q[x][y] Q[x'][y]) over neighbour pairs "
               "(= (1/2) sum_y (sqrt Q[x][y] - sqrt Q[x'][y])^2, in [0, 1]; H itself is its square root; "
               "renyi(1/2) = -2 ln(1 - H^2))",
               "Hellinger, J. reine angew. Math. 136, 1909; Le Cam, Yang, "
               "Asymptotics in Statistics, 2000", "relations.measures._hellinger:hellinger", _FLOAT,
               unit="dimensionless",
               values="[0, tv]; renyi(1/2) = -2 ln(1 - hellinger)", zeros="1 exactly for disjoint supports",
               kernel=_PAIRS, product=_SAME),
)

#: Every notion, by name, in the order tables list them (the paper's budgets first); :func:`register` adds a row.
NOTIONS: dict[str, NotionSpec] = {str(row.name): row for row in _ROWS}
assert set(NOTIONS) == {str(n) for n in Notion}, "every Notion has one row"
_BUILT_IN = frozenset(NOTIONS)
_state = {"version": 0}

_T = TypeVar("_T")


def _stamp() -> tuple[int, int]:
    return _state["version"], len(NOTIONS)


class _Names(Sequence[str]):
    """A tuple of names derived from the table that follows it: a notion :func:`register` adds appears in it."""

    __slots__ = ("_keep", "_show", "_cache")

    def __init__(self, keep: Callable[[NotionSpec], bool], show: Callable[[NotionSpec], str] | None = None):
        self._keep, self._show = keep, show or (lambda row: str(row.name))
        self._cache: tuple[tuple[int, int], tuple[str, ...]] | None = None

    def _now(self) -> tuple[str, ...]:
        if self._cache is None or self._cache[0] != _stamp():
            self._cache = (_stamp(), tuple(self._show(row) for row in NOTIONS.values() if self._keep(row)))
        return self._cache[1]

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[str, ...]: ...

    def __getitem__(self, i):
        return self._now()[i]

    def __len__(self) -> int:
        return len(self._now())

    def __iter__(self) -> Iterator[str]:
        return iter(self._now())

    def __contains__(self, name: object) -> bool:
        return name in self._now()

    def __add__(self, other: Sequence[str]) -> tuple[str, ...]:
        return self._now() + tuple(other)

    def __radd__(self, other: Sequence[str]) -> tuple[str, ...]:
        return tuple(other) + self._now()

    def __eq__(self, other: object) -> bool:
        return self._now() == (tuple(other) if isinstance(other, (tuple, list, _Names)) else other)

    def __hash__(self) -> int:
        return hash(self._now())

    def __repr__(self) -> str:
        return repr(self._now())


class _View(Mapping[str, _T], Generic[_T]):
    """A mapping derived from the table that follows it (keyed by name, or by ``key`` of the row)."""

    __slots__ = ("_keep", "_key", "_value", "_cache")

    def __init__(self, keep: Callable[[NotionSpec], bool], value: Callable[[NotionSpec], _T],
                 key: Callable[[NotionSpec], str] | None = None):
        self._keep, self._value, self._key = keep, value, key or (lambda row: str(row.name))
        self._cache: tuple[tuple[int, int], dict[str, _T]] | None = None

    def _now(self) -> dict[str, _T]:
        if self._cache is None or self._cache[0] != _stamp():
            self._cache = (_stamp(), {self._key(row): self._value(row) for row in NOTIONS.values() if self._keep(row)})
        return self._cache[1]

    def __getitem__(self, name: str) -> _T:
        return self._now()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._now())

    def __len__(self) -> int:
        return len(self._now())

    def __repr__(self) -> str:
        return repr(self._now())


def names(keep: Callable[[NotionSpec], bool] = lambda row: True, *,
          show: Callable[[NotionSpec], str] | None = None) -> Sequence[str]:
    """The names of the rows ``keep`` accepts, in the table's order, as a tuple that follows the table.

    Parameters
    ----------
    keep : callable, optional
        Which rows (all by default).
    show : callable, optional
        How each row is written (its name by default).

    Returns
    -------
    Sequence of str
        Read again at each use: a notion :func:`register` adds appears in it.

    Examples
    --------
    >>> names(lambda row: row.kind == "ratio" and not row.paper)
    ()
    >>> names(lambda row: row.argument is not None, show=lambda row: row.pattern)[:2]
    ('delta(EPS)', 'eps_delta(DELTA)')
    """
    return _Names(keep, show)


def view(keep: Callable[[NotionSpec], bool] = lambda row: True, *, value: Callable[[NotionSpec], Any] = lambda row: row,
         key: Callable[[NotionSpec], str] | None = None) -> Mapping[str, Any]:
    """A mapping of the rows ``keep`` accepts that follows the table: ``key(row)`` (the name) to ``value(row)``.

    Examples
    --------
    >>> view(lambda row: row.needs_records, value=lambda row: row.locally)
    {'cmi': 'eps_m'}
    """
    return _View(keep, value, key)


#: The paper's budgets, in the order claims, conjectures and proofs list them (computed together by ``measure``).
BASE_NOTIONS: tuple[str, ...] = tuple(n for n, row in NOTIONS.items() if row.paper)
#: The budgets that are logarithms of rationals (``ln q``), decided exactly by rational arithmetic.
RATIO_NOTIONS: tuple[str, ...] = tuple(n for n in BASE_NOTIONS if NOTIONS[n].kind == NotionKind.RATIO)
#: The notions the SMT encodings speak about (``sigma_min`` is the prior's alone: its negation is encoded).
SMT_NOTIONS: tuple[str, ...] = tuple(n for n, row in NOTIONS.items() if row.smt)
#: The notions beyond the paper's budgets, each computed on its own (:func:`relations.measures._notions.notion_result`).
FURTHER_NOTIONS: Sequence[str] = names(lambda row: not row.paper)
#: What ``relations measure --notion all`` computes: the further notions, with their example argument.
ALL_EXAMPLES: Sequence[str] = names(lambda row: not row.paper,
                                    show=lambda row: row.name if row.example is None else f"{row.name}({row.example})")

_IDENTIFIER = re.compile(r"^[a-z][a-z0-9_]*$")


def register(spec: NotionSpec) -> None:
    """Add a further notion to the table: everything that lists notions then lists it.

    The claim and conjecture grammars, ``relations measure --notion all``, the tables, LaTeX and JSON,
    the searches' float paths (through ``kernel``, ``needs_prior`` and ``product``) and :func:`markdown`
    read the table.  The paper's budgets are computed together and the SMT encodings are written for
    them: a registered notion is neither.

    Parameters
    ----------
    spec : NotionSpec
        Its row; ``spec.name`` a new lower-case identifier.

    Raises
    ------
    InputError
        For a name already in the table or not an identifier, or a row marked ``paper`` or ``smt``.

    Examples
    --------
    >>> from relations.kinds import NotionKind, Setting
    >>> row = NotionSpec("top", "T", "T", NotionKind.LEAKAGE, None, None, (Setting.LOCAL,),
    ...                  "the largest entry of the channel", "none", "relations.measures._api:measure", None)
    >>> register(row); "top" in FURTHER_NOTIONS, latex("top")
    (True, 'T')
    >>> unregister("top"); "top" in FURTHER_NOTIONS
    False
    """
    name = str(spec.name)
    if name in NOTIONS or not _IDENTIFIER.match(name):
        raise InputError(f"notion {name!r}: " + ("already in the table" if name in NOTIONS else
                                                 "a name is a lower-case identifier"))
    if spec.paper or spec.smt:
        raise InputError(f"notion {name!r}: a registered notion is a further notion (paper=False, smt=False)")
    if spec.product == ProductRule.GAP and len(spec.parts) != 2:
        raise InputError(f"notion {name!r}: a GAP product rule names its two parts")
    NOTIONS[name] = spec
    _state["version"] += 1
    _RESOLVED.clear()


def unregister(name: str) -> None:
    """Remove a notion :func:`register` added (the built-in rows stay).

    Raises
    ------
    InputError
        For a built-in notion or a name not in the table.

    Examples
    --------
    >>> unregister("eps_d")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: notion 'eps_d' is built in
    """
    if name in _BUILT_IN or name not in NOTIONS:
        raise InputError(f"notion {name!r} " + ("is built in" if name in _BUILT_IN else "is not in the table"))
    del NOTIONS[name]
    _state["version"] += 1
    _RESOLVED.clear()


def latex(name: str) -> str:
    """A notion's LaTeX (math mode, without ``$``); a name that is not a notion is set upright.

    Examples
    --------
    >>> latex("sigma_min"), latex("maximal_leakage"), latex("foo")
    ('\\\\sigma_{\\\\min}', '\\\\mathcal{L}_{\\\\max}', '\\\\mathrm{foo}')
    """
    row = NOTIONS.get(name)
    return row.latex if row is not None else r"\mathrm{" + name.replace("_", r"\_") + "}"


def mathtext(name: str) -> str:
    """A notion's symbol for matplotlib: its LaTeX between ``$``.

    Examples
    --------
    >>> mathtext("rho")
    '$\\\\rho$'
    """
    return f"${latex(name)}$"


def evaluator(name: str, *, which: str = "exact") -> Callable[..., Any]:
    """The function computing a notion: ``which`` is ``"exact"``, ``"floats"``, ``"kernel"``, ``"structure_kernel"``
    or ``"frontier"``
    (the row's field of that name), imported on first use.

    The paper's budgets are computed together: their exact evaluator is :func:`relations.measures.measure`
    (a ``Measures``, the budget an attribute of it; ``eps_all`` has its own) and their float one the batch
    evaluator of the searches.  The table names evaluators as ``"module:function"`` text, so this
    bottom-layer module imports none of them until asked; a registered row may give the function itself.

    Raises
    ------
    ValueError
        When the notion has none of that kind.

    Examples
    --------
    >>> evaluator("rho").__name__, evaluator("kl", which="floats").__name__, evaluator("pml", which="kernel").__name__
    ('rho', 'notion_float', 'prior_values')
    """
    found = _RESOLVED.get((name, which))
    if found is not None:
        return found
    row = NOTIONS[name]
    if which not in ("exact", "floats", "kernel", "structure_kernel", "frontier"):
        raise ValueError(f"no evaluator {which!r}")
    path = getattr(row, which)
    if path is None:
        raise ValueError(f"{name} has no {which} evaluator")
    if callable(path):
        return path
    module, function = path.split(":")
    found = _RESOLVED[(name, which)] = getattr(importlib.import_module(module), function)
    return found


#: The evaluators :func:`evaluator` has imported, by (name, which); :func:`register` and :func:`unregister` clear it.
_RESOLVED: dict[tuple[str, str], Callable[..., Any]] = {}


def markdown() -> str:
    """The notion table as Markdown (``docs/notions.md`` is this text; a test keeps it current).

    Examples
    --------
    >>> print(markdown().splitlines()[0])
    # Notions
    """
    lines = ["# Notions", "",
             "Every notion `relations` computes, from its notion table (`relations.notions.NOTIONS`), with its",
             "unit: nats (natural logarithms), a probability, or dimensionless. `docs/semantics.md` states the",
             "conventions on zeros and infinities, and `docs/notion-inequalities.md` the inequalities among them,",
             "with proofs. Generated by",
             "`python -c 'import relations.notions as n; print(n.markdown(), end=\"\")' > docs/notions.md`.", "",
             "| name | symbol | kind | unit | definition | values and limits | zeros and infinities | reference |",
             "|---|---|---|---|---|---|---|---|"]
    for row in NOTIONS.values():
        cells = (f"`{row.pattern}`", f"${row.latex}$", str(row.kind), row.unit, row.description, row.values, row.zeros,
                 row.reference)
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"
