"""The prover's base of facts: inequalities true on every mechanism of a scope, one row each.

Two sources, one registry (:func:`facts`):

* **the catalogue's proved relations** (:func:`catalogue_facts`): those whose own SMT lemma z3
  proves (:func:`~relations.proofs._derive.lemma_facts`) and those with a machine-checked Coq proof
  (:data:`~relations.proofs._coq.COQ_PROOFS`), each with its setting, proved scope and ``min_records``;
* **the notion facts** (:data:`NOTION_FACTS`): definitional and published inequalities between the
  notions of :mod:`relations.notions`, each with its reference and its proof written out in
  ``docs/proofs/notion-facts.md`` (the anchor is the fact's id), and checked on random exact
  mechanisms by ``tests/test_prover_facts.py``.

A fact is a statement of the conjecture grammar (:mod:`relations.checking._conjectures`), or two
sides joined by ``=`` (an equality: both inequalities), with placeholders for the arguments of
parametrised notions (``ALPHA``, ``BETA`` for ``renyi``; ``EPS``, ``EPS2`` for ``delta``; ``DELTA``
for ``eps_delta``), instantiated for the arguments a conjecture names (:meth:`Fact.instances`).  A
fact holds wherever its sides are defined, with infinite notions as infinities
(``docs/claims-and-verdicts.md``).

**Finiteness.** The prover combines facts in real arithmetic only over notions that are finite
whenever the conjecture's notions are (:func:`finite_closure`).  The rules come from the facts
themselves -- ``c <= f(a, b)`` with ``f`` finite for finite arguments makes ``c`` finite when ``a``
and ``b`` are -- and from :data:`FINITENESS` (notions always finite, and the converse rules such as
"``kl`` finite forces ``eps_d`` finite").

**Scopes.** A fact holds on every mechanism of its setting except where a *restriction* says
otherwise; a proof's scope is the union of its facts' restrictions (:data:`RESTRICTIONS`, the
intersection of their sets of mechanisms).  No restriction applies to a local domain.

Adding a notion's facts (``sibson(ALPHA)``, ``pml``, ...) is one :class:`Fact` row each, with its
proof in ``docs/proofs/notion-facts.md`` and, where it needs one, a :data:`FINITENESS` row; a new
parametrised notion writes its argument with one of :data:`PLACEHOLDERS` (``sibson(ALPHA)``).

Examples
--------
>>> f = BY_ID["renyi_le_rho"]
>>> f.statement, [i.text for i in f.instances(["renyi(2)", "renyi(3/2)"])]
('renyi(ALPHA) <= ALPHA * rho', ['renyi(2) <= (2) * rho', 'renyi(3/2) <= (3/2) * rho'])
>>> sorted(finite_closure({"eps_d"}, "local", ["kl", "rho", "eps_i", "tv"])[0])
['eps_d', 'kl', 'rho', 'tv']
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from relations.catalogue._scopes import RESTRICTIONS as _SCOPE_RESTRICTIONS
from relations.numbers._reals import Real

__all__ = ["PLACEHOLDERS", "RESTRICTIONS", "Fact", "Instance", "Finiteness", "NOTION_FACTS", "FINITENESS", "BY_ID",
           "catalogue_facts", "facts", "finite_closure", "key_of", "DOC", "diam_symbol", "Ineq", "side"]

#: The page holding every notion fact's proof (the anchor is the fact's id).
DOC = "docs/proofs/notion-facts.md"

#: The placeholders a fact may use for the argument of a parametrised notion (``renyi(ALPHA)``); each
#: ranges over the arguments of the keys of the notions it is written in (one value for all of them).
PLACEHOLDERS = ("ALPHA", "BETA", "EPS", "EPS2", "DELTA")

#: Restrictions of a scope, in words (central only: every restriction holds on every local domain); defined
#: with the proved scopes, :data:`relations.catalogue._scopes.RESTRICTIONS`.
RESTRICTIONS = _SCOPE_RESTRICTIONS

_MI = "Mironov, Renyi differential privacy, IEEE CSF 2017, doi:10.1109/CSF.2017.11"
_VEH = ("van Erven, Harremoes, Renyi divergence and Kullback-Leibler divergence, IEEE Trans. Inf. Theory 60(7), "
        "2014, doi:10.1109/TIT.2014.2320500")
_BS = ("Bun, Steinke, Concentrated differential privacy: simplifications, extensions, and lower bounds, TCC 2016-B, "
       "doi:10.1007/978-3-662-53641-4_24")
_BBG = "Balle, Barthe, Gaboardi, Privacy amplification by subsampling, NeurIPS 2018"
_KOV = ("Kairouz, Oh, Viswanath, The composition theorem for differential privacy, IEEE Trans. Inf. Theory 63(6), "
        "2017, doi:10.1109/TIT.2017.2685505")
_IWK = ("Issa, Wagner, Kamath, An operational approach to information leakage, IEEE Trans. Inf. Theory 66(3), 2020, "
        "doi:10.1109/TIT.2019.2935768")
_CT = "Cover, Thomas, Elements of Information Theory, 2nd ed., 2006"
_VERDU = ("Verdu, alpha-mutual information, ITA 2015; Ho, Verdu, ISIT 2015, doi:10.1109/ISIT.2015.7282554 "
          "(monotone in the order)")
_PML = ("Saeidian, Cervia, Oechtering, Skoglund, Pointwise maximal leakage, IEEE Trans. Inf. Theory 2023, "
        "doi:10.1109/TIT.2022.3203579")
_QIF = ("Alvim, Chatzikokolakis, McIver, Morgan, Palamidessi, Smith, The Science of Quantitative Information Flow, "
        "Springer 2020, doi:10.1007/978-3-319-96131-6")
_LECAM = "Le Cam, Yang, Asymptotics in Statistics, Springer 2000; Tsybakov, Introduction to Nonparametric Estimation, 2009"
_DRS = "Dong, Roth, Su, Gaussian differential privacy, J. R. Stat. Soc. B 84(1), 2022, doi:10.1111/rssb.12454"
_TSY = "Tsybakov, Introduction to Nonparametric Estimation, 2009, Lemma 2.5 (Pinsker) and section 2.4"
_DEF = "the definitions (docs/semantics.md)"


@dataclass(frozen=True)
class Instance:
    """One fact with its placeholders filled: the statement text, its parsed conjecture(s), its restrictions."""

    fact: Fact
    text: str
    restrictions: frozenset[str]

    @property
    def id(self) -> str:
        return self.fact.id if self.text == self.fact.statement else f"{self.fact.id}[{self.text}]"

    @property
    def conjectures(self) -> tuple[Ineq, ...]:
        """The inequalities (two for an equality)."""
        if self.fact.built is not None and self.text == self.fact.statement:
            return self.fact.built
        return _parsed(self.text)


@dataclass(frozen=True)
class Ineq:
    """``lhs op rhs`` over the notions' sympy symbols (:func:`~relations.checking._conjectures.symbol`)."""

    lhs: Any
    op: str
    rhs: Any


@dataclass(frozen=True)
class Fact:
    """One fact of the prover's base.

    Attributes
    ----------
    id : str
        Stable identifier (a catalogue relation's id, or the anchor of its proof in :data:`DOC`).
    statement : str
        The inequality (or ``=``), with placeholders for arguments (:data:`PLACEHOLDERS`).
    setting : str
        ``"local"``, ``"central"`` or ``"both"``.
    reference : str
        Where it is stated or proved.
    proof : str
        Where its proof is: a section of :data:`DOC`, an SMT lemma, a Coq theorem.
    where : callable or None
        A condition on the placeholders' values (exact reals, :class:`~relations.numbers.Rational` or
        :class:`~relations.numbers.Log`), written with :func:`side` (``side(ALPHA, "<", BETA)``): ``True``,
        ``False``, or ``None`` when the enclosures of the two reals do not separate (the instance is then
        left out, and :meth:`Fact.undecided` names it).
    restrictions : frozenset of str
        Its scope's restrictions in the central setting (:data:`RESTRICTIONS`).
    """

    id: str
    statement: str
    setting: str
    reference: str
    proof: str = ""
    where: Callable[..., bool | None] | None = field(default=None, compare=False)
    restrictions: frozenset[str] = frozenset()
    built: tuple[Ineq, ...] | None = field(default=None, compare=False, repr=False)

    def applies(self, setting: str) -> bool:
        return self.setting in ("both", setting)

    @property
    def placeholders(self) -> tuple[str, ...]:
        import re

        return tuple(dict.fromkeys(re.findall(r"\b(" + "|".join(PLACEHOLDERS) + r")\b", self.statement)))

    def instances(self, keys: Iterable[str], setting: str = "central") -> list[Instance]:
        """The fact for every filling of its placeholders by the arguments of ``keys`` that meets ``where``.

        ``where`` is decided exactly (:func:`side`); a filling whose condition the enclosures cannot decide
        is left out (:meth:`undecided` lists those).

        Parameters
        ----------
        keys : iterable of str
            Notion keys (``"renyi(2)"``, ``"delta(ln(3))"``); a placeholder ranges over the arguments of its notion.
        setting : str, optional
            ``"local"`` drops the restrictions (none applies to a local domain).

        Examples
        --------
        ``1.0986122886681097`` is above ``ln 3`` (whose nearest double is above it), so ``delta`` at it is at most
        ``delta(ln(3))``, never the converse:

        >>> [i.text for i in BY_ID["delta_monotone"].instances(["delta(ln(3))", "delta(1.0986122886681097)"])]
        ['delta(1.0986122886681097) <= delta(ln(3))']
        """
        return list(self._fillings(keys, setting)[0])

    def undecided(self, keys: Iterable[str], setting: str = "central") -> list[str]:
        """The fillings of the placeholders whose condition ``where`` could not be decided (left out), as text."""
        return list(self._fillings(keys, setting)[1])

    def _fillings(self, keys: Iterable[str], setting: str) -> tuple[tuple[Instance, ...], tuple[str, ...]]:
        """The instances and the undecided fillings, once per fact, set of keys, setting and :func:`_argument`
        (the prover asks again for every conjecture and every finiteness closure; a test that replaces
        ``_argument`` by another function gets the fillings that function gives, not those cached before)."""
        keys = frozenset(keys)
        key = (id(self), keys, setting, id(_argument))
        hit = _FILLINGS.get(key)
        if hit is not None and hit[0] is self and hit[1] is _argument:
            return hit[2]
        out = self._filled(keys, setting)
        if len(_FILLINGS) >= _FILLINGS_MAX:
            _FILLINGS.clear()
        _FILLINGS[key] = (self, _argument, out)
        return out

    def _filled(self, keys: frozenset[str], setting: str) -> tuple[tuple[Instance, ...], tuple[str, ...]]:
        restrictions = self.restrictions if setting == "central" else frozenset()
        names = self.placeholders
        if not names:
            return (Instance(self, self.statement, restrictions),), ()
        import re

        args: dict[str, dict[str, Real]] = {}
        for key in sorted(keys):
            parsed = _argument(key)
            if parsed is not None:
                args.setdefault(parsed[0], {})[parsed[1]] = parsed[2]
        ranges = []
        for n in names:
            notions = set(re.findall(r"(\w+)\(" + n + r"\)", self.statement))
            ranges.append(sorted({t: v for notion in notions for t, v in args.get(notion, {}).items()}.items()))
        out, undecided = [], []
        for choice in itertools.product(*ranges):
            values = {n: v for n, (_, v) in zip(names, choice)}
            ok = True if self.where is None else self.where(**values)
            if ok is None:
                undecided.append(f"{self.id}: " + ", ".join(f"{n} = {t}" for n, (t, _) in zip(names, choice)))
            if not ok:
                continue
            text = self.statement
            for n, (arg_text, _) in zip(names, choice):
                text = re.sub(r"(\w+)\(" + n + r"\)", r"\g<1>(" + arg_text.replace("\\", "") + ")", text)
            for n, (arg_text, _) in zip(names, choice):
                text = _replace_word(text, n, f"({arg_text})")
            out.append(Instance(self, text, restrictions))
        return tuple(out), tuple(undecided)


#: :meth:`Fact._fillings` already made: ``(id(fact), keys, setting, id(_argument))`` -> ``(fact, _argument, fillings)``
#: (the identities are checked on a hit, so a reused id never returns another fact's fillings).
_FILLINGS: dict[tuple[int, frozenset[str], str, int], tuple[Fact, Callable[..., Any], tuple[tuple[Instance, ...],
                                                                                            tuple[str, ...]]]] = {}
_FILLINGS_MAX = 50_000


def _replace_word(text: str, word: str, by: str) -> str:
    import re

    return re.sub(r"\b" + word + r"\b", by, text)


@cache
def _argument(key: str) -> tuple[str, str, Real] | None:
    """``(notion, argument text, value)`` of a parametrised notion key; the value an exact real
    (:class:`~relations.numbers.Rational` or :class:`~relations.numbers.Log`), never a float."""
    if "(" not in key or "(repeat(" in key:  # NAME(repeat(k)) is a notion of repeated use, not a parameter
        return None
    name, text = key.split("(", 1)
    text = text[:-1]
    from relations.measures._notions import parse_notion

    _, arg = parse_notion(key)
    assert arg is not None  # a key with an argument
    return name, text, arg


_OPS: dict[str, Callable[[int], bool]] = {"<": lambda s: s < 0, "<=": lambda s: s <= 0, ">": lambda s: s > 0,
                                          ">=": lambda s: s >= 0}


def side(a: Real | int | Fraction, op: str, b: Real | int | Fraction) -> bool | None:
    """The side condition ``a OP b`` of a fact, decided exactly (:func:`~relations.numbers.compare`: rational
    arithmetic, or enclosures refined until they separate); ``None`` when they do not separate.

    Examples
    --------
    >>> from relations.numbers import Log, LogRatio
    >>> ln3 = Log(LogRatio.of(Fraction(3)))
    >>> side(ln3, "<", Fraction("1.0986122886681097")), side(ln3, ">", Fraction("1.0986122886681096")), side(2, ">", 1)
    (True, True, True)
    """
    from relations.numbers._reals import Rational, compare

    def real(x: Real | int | Fraction) -> Real:
        return Rational(Fraction(x)) if isinstance(x, (int, Fraction)) else x

    s = compare(real(a), real(b))
    return None if s is None else _OPS[op](s)


@lru_cache(maxsize=4096)
def _parsed(text: str):
    from relations.checking._conjectures import parse_conjecture

    if " = " in text:
        lhs, rhs = text.split(" = ")
        c = parse_conjecture(f"{lhs} <= {rhs}")
        return (Ineq(c.lhs, "<=", c.rhs), Ineq(c.lhs, ">=", c.rhs))
    c = parse_conjecture(text)
    return (Ineq(c.lhs, c.op, c.rhs),)


def _f(id: str, statement: str, setting: str, reference: str, where: Callable[..., bool | None] | None = None,
       restrictions: Sequence[str] = ()) -> Fact:
    return Fact(id, statement, setting, reference, f"{DOC}#{id.replace('_', '-')}", where, frozenset(restrictions))


#: The definitional and published inequalities between notions (proofs in :data:`DOC`).
NOTION_FACTS: tuple[Fact, ...] = (
    # ---- ranges
    _f("range_eps_i", "eps_i >= 0", "both", _DEF),
    _f("range_eps_d", "eps_d >= 0", "both", _DEF),
    _f("range_sigma", "sigma_min <= 0", "both", _DEF),
    _f("range_eps_m", "eps_m >= 0", "both", _CT),
    _f("range_eps_all", "eps_d <= eps_all", "both", _DEF),
    _f("local_eps_all", "eps_all = eps_d", "local", _DEF),
    _f("range_kl", "kl >= 0", "both", _CT),
    _f("range_renyi", "renyi(ALPHA) >= 0", "both", _VEH),
    _f("range_rho", "rho >= 0", "both", _BS),
    _f("range_chi2", "chi2 >= 0", "both", _DEF),
    _f("range_tv", "tv >= 0", "both", _DEF),
    _f("tv_le_1", "tv <= 1", "both", _DEF),
    _f("range_delta", "delta(EPS) >= 0", "both", _BBG),
    _f("range_eps_delta", "eps_delta(DELTA) >= 0", "both", _BBG),
    _f("range_mel", "min_entropy_leakage >= 0", "both", "Smith, FoSSaCS 2009, doi:10.1007/978-3-642-00596-1_21"),
    _f("range_ml", "maximal_leakage >= 0", "both", _IWK),
    _f("range_cmi", "cmi >= 0", "both", _CT),
    # ---- divergences
    _f("kl_le_rho", "kl <= rho", "both", f"{_BS}, Definition 1.1; the limit alpha -> 1: {_VEH}"),
    _f("renyi_monotone", "renyi(ALPHA) <= renyi(BETA)", "both", f"{_VEH} (monotone in the order)",
       where=lambda ALPHA, BETA: side(ALPHA, "<", BETA)),
    _f("kl_le_renyi", "kl <= renyi(ALPHA)", "both", f"{_VEH} (monotone in the order, continuous at 1)", where=lambda ALPHA: side(ALPHA, ">", 1)),
    _f("renyi_le_kl", "renyi(ALPHA) <= kl", "both", f"{_VEH} (monotone in the order; orders below 1)",
       where=lambda ALPHA: side(ALPHA, "<", 1)),
    _f("renyi_le_rho", "renyi(ALPHA) <= ALPHA * rho", "both", f"{_BS}, Definition 1.1",
       where=lambda ALPHA: side(ALPHA, ">", 1)),
    _f("renyi_le_dp", "renyi(ALPHA) <= eps_d", "both", f"{_MI}, Proposition 3; {_VEH} (D_alpha <= D_inf)"),
    _f("kl_le_dp", "kl <= eps_d", "both", f"{_VEH} (D_1 <= D_inf)"),
    _f("rho_le_dp", "rho <= eps_d", "both", f"{_BS}, Definition 1.1; {_VEH} (D_alpha <= D_inf)"),
    _f("rho_le_half_square", "rho <= eps_d^2 / 2", "both", f"{_BS}, Proposition 3.3 (Proposition 1.4)"),
    _f("chi2_le_dp", "chi2 <= exp(eps_d) - 1", "both", f"{_VEH} (D_2 <= D_inf); the definitions"),
    _f("renyi2_chi2", "renyi(2) = ln(1 + chi2)", "both", f"{_VEH}; the definitions"),
    _f("local_eps_m_le_kl", "eps_m <= kl", "local", f"{_CT}, Theorem 2.7.2 (convexity of KL)"),
    _f("local_cmi", "cmi = eps_m", "local", "Cuff, Yu, CCS 2016, doi:10.1145/2976749.2978308 (one record)"),
    _f("cmi_le_kl", "cmi <= kl", "both", f"Cuff, Yu, CCS 2016, doi:10.1145/2976749.2978308 (conditioned on the other "
       f"records, the channel of record i compares neighbours); {_CT}, Theorem 2.7.2 (convexity of KL)"),
    # ---- the privacy profile and total variation
    _f("tv_delta0", "tv = delta(0)", "both", f"{_BBG}, the definitions"),
    _f("delta_le_tv", "delta(EPS) <= tv", "both", _BBG, where=lambda EPS: side(EPS, ">=", 0)),
    _f("delta_monotone", "delta(EPS) <= delta(EPS2)", "both", _BBG, where=lambda EPS, EPS2: side(EPS2, "<", EPS)),
    _f("tv_le_tanh", "tv <= tanh(eps_d / 2)", "both", f"{_KOV} (the privacy region of eps-DP is that of binary randomized response)"),
    _f("pinsker", "tv <= sqrt(kl / 2)", "both", _TSY),
    _f("eps_delta_le_dp", "eps_delta(DELTA) <= eps_d", "both", _BBG),
    # ---- leakages
    _f("mel_le_ml", "min_entropy_leakage <= maximal_leakage", "both", f"{_IWK} (maximal leakage is the largest min-entropy leakage over priors)"),
    _f("ml_le_eps_all", "maximal_leakage <= eps_all", "both", f"{_IWK} (their bound under local DP, read over every pair of inputs)"),
    _f("eps_m_le_ml", "eps_m <= maximal_leakage", "both", f"{_IWK} (mutual information is at most maximal leakage)"),
    # ---- Sibson's information, pointwise maximal leakage (docs/notion-inequalities.md: S1-S4, P1-P2)
    _f("range_sibson", "sibson(ALPHA) >= 0", "both", _VERDU),
    _f("eps_m_le_sibson", "eps_m <= sibson(ALPHA)", "both", _VERDU, where=lambda ALPHA: side(ALPHA, ">", 1)),
    _f("sibson_le_eps_m", "sibson(ALPHA) <= eps_m", "both", _VERDU, where=lambda ALPHA: side(ALPHA, "<", 1)),
    _f("sibson_monotone", "sibson(ALPHA) <= sibson(BETA)", "both", _VERDU, where=lambda ALPHA, BETA: side(ALPHA, "<", BETA)),
    _f("sibson_le_ml", "sibson(ALPHA) <= maximal_leakage", "both", f"{_IWK} (maximal leakage is Sibson's order infinity)"),
    _f("ml_le_pml", "maximal_leakage <= pml", "both", _PML),
    _f("pml_le_eps_all", "pml <= eps_all", "both", _PML),
    # ---- Bayes vulnerability (V1, V2)
    _f("range_prior_vulnerability", "prior_vulnerability > 0", "both", _QIF),
    _f("prior_le_posterior", "prior_vulnerability <= bayes_vulnerability", "both", _QIF),
    _f("posterior_le_1", "bayes_vulnerability <= 1", "both", _QIF),
    _f("bayes_leakage_def", "bayes_leakage = bayes_vulnerability - prior_vulnerability", "both", _QIF),
    _f("mel_vulnerabilities", "bayes_vulnerability = prior_vulnerability * exp(min_entropy_leakage)", "both",
       f"{_QIF}; Smith, FoSSaCS 2009"),
    # ---- Hellinger (H1, H2, H4) and Renyi below order 1 (R2)
    _f("range_hellinger", "hellinger >= 0", "both", _LECAM),
    _f("hellinger_le_tv", "hellinger <= tv", "both", _LECAM),
    _f("tv_le_hellinger", "tv <= sqrt(1 - (1 - hellinger)^2)", "both", _LECAM),
    _f("hellinger_le_kl", "hellinger <= 1 - exp(-kl / 2)", "both", f"{_VEH} (D_1/2 <= D_1)"),
    _f("hellinger_renyi_half", "hellinger = 1 - exp(-renyi(1/2) / 2)", "both",
       f"{_VEH} (D_1/2 = -2 ln(1 - H^2)); the definitions"),
    # ---- Gaussian DP (docs/notion-inequalities-tradeoff.md)
    _f("range_gdp_mu", "gdp_mu >= 0", "both", _DRS),
    _f("renyi_le_gdp", "renyi(ALPHA) <= ALPHA * gdp_mu^2 / 2", "both", f"{_DRS} (Blackwell: the Gaussian pair "
       "dominates)"),
    _f("gdp_le_dp", "gdp_mu <= 2 * eps_d", "both", f"{_DRS}, Proposition 2.5 and Theorem 2.10 (eps-DP is the "
       "trade-off of binary randomized response); Phi(x) >= e^x / (1 + e^x) for x >= 0"),
    _f("kl_le_gdp", "kl <= gdp_mu^2 / 2", "both", f"{_DRS} (Blackwell: the Gaussian pair dominates)"),
    _f("rho_le_gdp", "rho <= gdp_mu^2 / 2", "both", f"{_DRS} (Blackwell: the Gaussian pair dominates)"),
)


@dataclass(frozen=True)
class Finiteness:
    """A finiteness rule: ``conclusion`` is finite whenever every one of ``premises`` is (none: always finite)."""

    id: str
    premises: tuple[str, ...]
    conclusion: str
    setting: str
    reason: str
    where: Callable[..., bool | None] | None = field(default=None, compare=False)
    restrictions: frozenset[str] = frozenset()


#: Finiteness that the facts do not already give (:func:`finite_closure` derives the rest from them).
FINITENESS: tuple[Finiteness, ...] = (
    *(Finiteness(f"finite_{n}", (), n, "both", why) for n, why in (
        ("eps_m", "I(X;Y) <= ln |supp p|"),
        ("maximal_leakage", "ln sum_y max_x Q[x][y] <= ln(outputs)"),
        ("min_entropy_leakage", "at most maximal_leakage"),
        ("cmi", "I(X_i; Y | X_-i) <= ln |D|"),
        ("tv", "at most 1"),
        ("delta(EPS)", "at most tv <= 1"),
        ("sibson(ALPHA)", "at most maximal_leakage"),
        ("pml", "Q[x][y] / p(y) <= 1 / p(x) for p(x) > 0"),
        ("prior_vulnerability", "a probability"),
        ("bayes_vulnerability", "a probability"),
        ("bayes_leakage", "a difference of probabilities"),
        ("hellinger", "at most 1"))),
    Finiteness("finite_dp_gdp", ("eps_d",), "gdp_mu", "both", "gdp_mu = inf iff eps_d = inf"),
    Finiteness("finite_gdp_dp", ("gdp_mu",), "eps_d", "both", "gdp_mu = inf iff eps_d = inf"),
    Finiteness("finite_kl_dp", ("kl",), "eps_d", "both",
               "kl = inf iff some neighbours' rows have different supports iff eps_d = inf"),
    Finiteness("finite_rho_dp", ("rho",), "eps_d", "both", "rho >= kl"),
    Finiteness("finite_chi2_dp", ("chi2",), "eps_d", "both", "chi2 = inf iff some neighbours' supports differ"),
    Finiteness("finite_renyi_dp", ("renyi(ALPHA)",), "eps_d", "both",
               "for ALPHA > 1, renyi(ALPHA) = inf iff some neighbours' supports differ", where=lambda ALPHA: side(ALPHA, ">", 1)),
)

BY_ID = {f.id: f for f in NOTION_FACTS}


@cache
def catalogue_facts() -> tuple[Fact, ...]:
    """The catalogue's proved implications as facts: z3-lemma proved, or with a Coq proof.

    Examples
    --------
    >>> "relations.thm4_corrected" in [f.id for f in catalogue_facts()]
    True
    """
    from relations.catalogue._bounds import Linear
    from relations.catalogue._entries import CATALOGUE
    from relations.checking._conjectures import symbol
    from relations.proofs._coq import COQ_PROOFS
    from relations.proofs._derive import lemma_facts

    lemma = {r.id for r in lemma_facts()}
    out = []
    for rel in CATALOGUE:
        if rel.kind != "implication" or rel.bound is None or (rel.id not in lemma and rel.id not in COQ_PROOFS):
            continue
        bound = rel.bound.sympy(symbol(str(rel.premise)), symbol("sigma_min"), diameter=diam_symbol())
        text = f"{rel.conclusion} <= {_text(bound)}"
        built = (Ineq(symbol(str(rel.conclusion)), "<=", bound),)
        restrictions = set()
        if rel.scope.needs_prior_on_components:
            restrictions.add("prior-on-components")
        if rel.min_records > 1:
            restrictions.add("records>=2")
        if isinstance(rel.bound, Linear) and rel.bound.times_diameter:
            restrictions.add("connected")
        how = (f"SMT lemma (relations.proofs._smt), {rel.scope.describe(str(rel.setting))}" if rel.id in lemma
               else f"Coq: {COQ_PROOFS[rel.id].cite}")
        out.append(Fact(rel.id, text, str(rel.setting), rel.source, how, None, frozenset(restrictions), built))
    return tuple(out)


@cache
def diam_symbol():
    """The diameter of the neighbour graph in the catalogue's group-privacy bounds (``1`` locally)."""
    import sympy

    return sympy.Symbol("DIAM", positive=True)


def _text(expr) -> str:
    """A sympy bound as conjecture-grammar text (``DIAM`` stands for the diameter)."""
    return str(expr).replace("**", "^").replace("log(", "ln(")


@cache
def facts(setting: str) -> tuple[Fact, ...]:
    """Every fact stated for ``setting``: the catalogue's proved relations, then the notion facts."""
    return tuple(f for f in (*catalogue_facts(), *NOTION_FACTS) if f.applies(setting))


def key_of(name: str) -> str:
    """The variable a notion key stands for (``sigma_min`` and ``neg_sigma`` share ``sigma_min``)."""
    return "sigma_min" if name == "neg_sigma" else name


def finite_closure(finite: Iterable[str], setting: str, universe: Iterable[str], *,
                   allow: frozenset[str] = frozenset()) -> tuple[set[str], frozenset[str]]:
    """The notion keys of ``universe`` (and ``finite``) that are finite whenever ``finite`` are.

    Parameters
    ----------
    finite : iterable of str
        Notion keys known finite.
    setting : str
    universe : iterable of str
        The notion keys considered.
    allow : frozenset of str, optional
        Also use rules whose restrictions are among these (the second value lists those used).

    Returns
    -------
    (set of str, frozenset of str)
        The finite keys (``neg_sigma`` as ``sigma_min``) and the restrictions of the rules used.
    """
    keys = frozenset(key_of(k) for k in (*universe, *finite))
    rules = _closure_rules(setting, keys)
    out = {key_of(k) for k in finite}
    used: set[str] = set()
    changed = True
    while changed:
        changed = False
        for premises, conclusion, restrictions in rules:
            if conclusion in out or not restrictions <= allow or not premises <= out:
                continue
            if conclusion in keys:
                out.add(conclusion)
                used |= restrictions
                changed = True
    return out, frozenset(used)


_Rules = tuple[tuple[frozenset[str], str, frozenset[str]], ...]

#: :func:`_closure_rules` already made: ``(setting, keys)`` -> ``(facts, _argument, rules)``, the two functions
#: those rules were made through (a test that replaces one of them gets rules made through its replacement).
_RULES: dict[tuple[str, frozenset[str]], tuple[Callable[..., Any], Callable[..., Any], _Rules]] = {}
_RULES_MAX = 4096


def _closure_rules(setting: str, keys: frozenset[str]) -> _Rules:
    """The finiteness rules over ``keys`` in ``setting``: ``(premises, conclusion, restrictions)``, from
    :data:`FINITENESS` and the facts; the same for every closure over these keys, so made once (the prover asks
    for a closure several times per conjecture, and ``relations verify`` for many conjectures)."""
    hit = _RULES.get((setting, keys))
    if hit is not None and hit[0] is facts and hit[1] is _argument:
        return hit[2]
    rules: list[tuple[frozenset[str], str, frozenset[str]]] = []
    for rule in FINITENESS:
        if rule.setting not in ("both", setting):
            continue
        for premises, conclusion in _rule_instances(rule, keys):
            rules.append((premises, conclusion, rule.restrictions if setting == "central" else frozenset()))
    for fact in facts(setting):
        for inst in fact.instances(keys, setting):
            for conj in inst.conjectures:
                derived = _finiteness_of(conj)
                if derived is not None:
                    rules.append((derived[0], derived[1], inst.restrictions))
    if len(_RULES) >= _RULES_MAX:
        _RULES.clear()
    _RULES[(setting, keys)] = (facts, _argument, tuple(rules))
    return tuple(rules)


def _rule_instances(rule: Finiteness, keys: frozenset[str]) -> list[tuple[frozenset[str], str]]:
    pattern = [*rule.premises, rule.conclusion]
    if not any("(" in p for p in pattern):
        return [(frozenset(rule.premises), rule.conclusion)]
    out = []
    for key in keys:
        parsed = _argument(key)
        if parsed is None:
            continue
        for p in pattern:
            if "(" in p and p.split("(")[0] == parsed[0]:
                placeholder = p.split("(")[1][:-1]
                if rule.where is not None and not rule.where(**{placeholder: parsed[2]}):
                    continue  # False, or undecided (None): the rule does not apply
                fill = [key if q == p else q for q in pattern]
                out.append((frozenset(fill[:-1]), fill[-1]))
    return out


def _finiteness_of(conj) -> tuple[frozenset[str], str] | None:
    """``(premises, c)`` for ``c <= f(premises)`` with ``f`` finite for finite arguments (``>=`` read backwards)."""
    import sympy

    small, big = (conj.lhs, conj.rhs) if conj.op in ("<=", "<") else (conj.rhs, conj.lhs)
    if not small.is_Symbol:
        return None
    for node in sympy.preorder_traversal(big):
        if isinstance(node, sympy.Pow) and not (node.exp.is_Integer and node.exp >= 0) and not node.exp == sympy.S.Half \
                and not (node.base.is_Rational and node.base != 0):
            return None  # a division or a negative power may blow up
        if isinstance(node, sympy.log):
            return None  # ln(0) = -inf is fine for an upper bound, but keep the rule simple
    if small.name == "sigma_min":
        return None  # sigma_min is infinite at -inf: an upper bound says nothing
    premises = frozenset(key_of(s.name) for s in big.free_symbols if s.name != "DIAM")
    return premises, key_of(small.name)
