"""The conversions read for repeated use: what the budgets of one use bound for ``k`` uses.

Each :class:`CompositionRelation` states a composition theorem: from the budgets of every use
(its *premise*, one use at a time) a bound on a notion of the composed mechanism (its
*conclusion*, of all uses together).  They are claims on a :class:`~relations.model.Composition`
(a ``"repeat"`` or ``"parts"`` file), evaluated by :func:`relations.checking.check_composition`
against the exact composed value (:mod:`relations.measures._composition`); they are not searched
over mechanisms by ``relations verify``.

The fixed parameters are those of the one-use conversions (:mod:`relations.catalogue._conversions`):
``delta = 10^-5``, ``alpha = 2`` and ``eps' = 1``.  With ``k`` uses, ``eps`` the largest ``eps_d``
of one use:

* ``kov`` -- the optimal composition theorem of Kairouz, Oh and Viswanath: the composed privacy
  profile is at most that of ``k`` uses of binary randomized response with ratio ``e^eps``,
  ``delta_k(eps') <= (1 + e^eps)^-k sum_i C(k, i) max(0, e^((k - i) eps) - e^eps' e^(i eps))``,
  and so is the ``eps`` at a given ``delta``;
* ``advanced`` -- the advanced composition theorem of Dwork, Rothblum and Vadhan (pure DP uses):
  ``(eps sqrt(2 k ln(1/delta)) + k eps (e^eps - 1), delta)``-DP;
* ``rdp`` -- Renyi divergences add over uses, then Renyi DP to approximate DP: ``eps_delta(delta)
  <= sum of renyi(alpha) over the uses + ln(c)`` (``c = 1/delta``: Mironov; ``c = 1/(4 delta)`` at
  ``alpha = 2``: Canonne, Kamath and Steinke);
* ``zcdp`` -- ``rho`` adds over uses, then zCDP to approximate DP (Bun and Steinke):
  ``eps_delta(delta) <= rho_k + 2 sqrt(rho_k ln(1/delta))``.

Examples
--------
>>> [r.id for r in COMPOSITION_RELATIONS][:2]
['kov2017.repeat_profile', 'kov2017.repeat_eps_delta']
>>> get_composition("drv2010.advanced").text()
'eps_delta(1/100000)[k uses] <= eps_d sqrt(2 k ln(100000)) + k eps_d (e^eps_d - 1)'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from relations.catalogue._conversions import BUN_STEINKE, CKS, DELTA, KOV, MIRONOV, PROFILE_EPS
from relations.errors import InputError

__all__ = ["CompositionRule", "CompositionRelation", "COMPOSITION_RELATIONS", "get_composition", "DRV_ADVANCED"]

DRV_ADVANCED = ("Dwork, Rothblum, Vadhan. Boosting and differential privacy. FOCS 2010, Theorem III.3 "
                "(doi:10.1109/FOCS.2010.12); Dwork, Roth. The algorithmic foundations of differential privacy, 2014, "
                "Theorem 3.20")


class CompositionRule(StrEnum):
    """How a composition relation's bound follows from the budgets of one use (module docstring)."""

    KOV = "kov"
    ADVANCED = "advanced"
    RDP = "rdp"
    ZCDP = "zcdp"


@dataclass(frozen=True)
class CompositionRelation:
    """A composition theorem: a notion of ``k`` uses bounded by the budgets of one use.

    Attributes
    ----------
    id, title, statement, source : str
        As for :class:`~relations.catalogue.Relation`.
    premise : str
        The notion of one use the bound is made of (``eps_d``, ``renyi(2)``, ``rho``).
    conclusion : str
        The notion of the composed mechanism bounded (``delta(1)``, ``eps_delta(1/100000)``).
    rule : CompositionRule
        How the bound is computed.
    parameter : Fraction
        ``delta`` of ``advanced`` and ``zcdp``, the ``c`` of ``rdp``'s ``+ ln(c)``, unused by ``kov``.
    """

    id: str
    title: str
    statement: str
    premise: str
    conclusion: str
    source: str
    rule: CompositionRule
    parameter: Fraction = Fraction(0)

    def bound_text(self) -> str:
        """The bound in symbols, ``k`` the number of uses."""
        a, c = self.premise, self.parameter
        if self.rule == CompositionRule.KOV:
            return f"{self.conclusion} of k uses of binary randomized response with ratio e^{a}"
        if self.rule == CompositionRule.ADVANCED:
            return f"{a} sqrt(2 k ln({1 / c})) + k {a} (e^{a} - 1)"
        if self.rule == CompositionRule.RDP:
            return f"sum of {a} over the uses + ln({c})"
        return f"rho_k + 2 sqrt(rho_k ln({1 / c})), rho_k the sum of {a} over the uses"

    def text(self) -> str:
        """The relation in symbols: ``CONCLUSION[k uses] <= bound``."""
        return f"{self.conclusion}[k uses] <= {self.bound_text()}"


_D = f"eps_delta({DELTA})"

#: The composition theorems, in catalogue order.
COMPOSITION_RELATIONS: tuple[CompositionRelation, ...] = (
    CompositionRelation(
        "kov2017.repeat_profile", f"Optimal composition of pure DP: the privacy profile at eps' = {PROFILE_EPS}",
        "k uses of eps-DP mechanisms have delta(eps') at most that of k uses of binary randomized response with "
        "ratio e^eps: (1 + e^eps)^-k sum_i C(k, i) max(0, e^((k - i) eps) - e^eps' e^(i eps)); exact for k uses "
        "of binary randomized response.",
        "eps_d", f"delta({PROFILE_EPS})", f"{KOV} (the optimal composition theorem)", CompositionRule.KOV),
    CompositionRelation(
        "kov2017.repeat_eps_delta", f"Optimal composition of pure DP at delta = {DELTA}",
        "k uses of eps-DP mechanisms are (eps', delta)-DP for the least eps' at which k uses of binary randomized "
        "response with ratio e^eps are.",
        "eps_d", _D, f"{KOV} (the optimal composition theorem)", CompositionRule.KOV),
    CompositionRelation(
        "drv2010.advanced", f"Advanced composition of pure DP, delta = {DELTA}",
        "k uses of eps-DP mechanisms are (eps sqrt(2 k ln(1/delta)) + k eps (e^eps - 1), delta)-DP.",
        "eps_d", _D, DRV_ADVANCED, CompositionRule.ADVANCED, DELTA),
    CompositionRelation(
        "mironov2017.rdp_repeat", f"Renyi DP composes additively, then approximate DP (Mironov), delta = {DELTA}",
        "Renyi divergences of order alpha add over independent uses; (alpha, r)-RDP is (r + ln(1/delta)/(alpha - 1), "
        "delta)-DP. At alpha = 2: eps_delta(delta) <= sum of renyi(2) + ln(1/delta).",
        "renyi(2)", _D, f"{MIRONOV}; Proposition 1 (composition)", CompositionRule.RDP, 1 / DELTA),
    CompositionRelation(
        "cks2020.rdp_repeat", f"Renyi DP composes additively, then approximate DP (improved), delta = {DELTA}",
        "As mironov2017.rdp_repeat with the conversion of Canonne, Kamath and Steinke: at alpha = 2, "
        "eps_delta(delta) <= sum of renyi(2) + ln(1/(4 delta)).",
        "renyi(2)", _D, f"{CKS}; {MIRONOV}, Proposition 1 (composition)", CompositionRule.RDP, Fraction(1, 4) / DELTA),
    CompositionRelation(
        "bs2016.zcdp_repeat", f"zCDP composes additively, then approximate DP, delta = {DELTA}",
        "rho adds over independent uses (Bun and Steinke, Lemma 1.7); a rho-zCDP mechanism is "
        "(rho + 2 sqrt(rho ln(1/delta)), delta)-DP (Proposition 1.3).",
        "rho", _D, f"{BUN_STEINKE}, Lemma 1.7 and Proposition 1.3", CompositionRule.ZCDP, DELTA),
)


def get_composition(relation_id: str) -> CompositionRelation:
    """The composition relation with this id.

    Raises
    ------
    InputError
        If there is none.
    """
    for r in COMPOSITION_RELATIONS:
        if r.id == relation_id:
            return r
    raise InputError(f"no composition relation {relation_id!r} (one of "
                     f"{', '.join(r.id for r in COMPOSITION_RELATIONS)})")
