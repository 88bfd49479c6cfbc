"""The standard conversions between privacy notions, as catalogue relations with their references.

Each entry of :data:`CONVERSIONS` is the keyword arguments of one
:class:`~relations.catalogue._entries.Relation` (``entries`` builds them, so this module
does not import it).  The notions beyond the paper's (:data:`EXTRA_NOTIONS`) are those of
``docs/semantics.md``: ``rho`` (zCDP), ``kl``, ``renyi(ALPHA)``, ``delta(EPS)``,
``eps_delta(DELTA)`` (each a maximum over ordered neighbour pairs), ``maximal_leakage`` and
``min_entropy_leakage``.  The fixed parameters are ``alpha = 2``, ``delta = 10^-5`` and
``eps' = 1``.

Settings follow the statements: a per-pair statement (a divergence of two eps-indistinguishable
distributions) holds for neighbours in either setting; a statement about the whole channel
(maximal leakage) is local, and its reading for datasets with the neighbour budget
(``relations.ml_dp_central``) is a separate relation that ``verify`` may refute.

Examples
--------
>>> sorted(c["id"] for c in CONVERSIONS)[:3]
['bs2016.dp_zcdp', 'bs2016.zcdp_dp', 'cks2020.rdp_dp']
>>> is_notion("eps_delta(1/100000)"), is_notion("renyi(x"), is_notion("rho")
(True, False, True)
"""

from __future__ import annotations

import re
from fractions import Fraction

from relations.catalogue._bounds import KLBound, Linear
from relations.catalogue._formulas import Formula
from relations.notions import NOTIONS as _TABLE
from relations.notions import view

__all__ = ["EXTRA_NOTIONS", "is_notion", "DELTA", "ALPHA", "PROFILE_EPS", "SIBSON_ALPHA", "BUN_STEINKE", "DRV_KL", "KOV",
           "MIRONOV", "CKS", "IWK", "BRAUN", "TSYBAKOV", "VERDU", "SCOS", "DRS", "CONVERSIONS"]

#: Notions of the conversions, with their definitions in words (rows of :data:`relations.notions.NOTIONS`).
EXTRA_NOTIONS = view(lambda row: not row.paper, value=lambda row: row.description, key=lambda row: row.pattern)

_CALL = re.compile(r"^(\w+)\(([^()]+)\)$")


def is_notion(name: str) -> bool:
    """Whether ``name`` is one of :data:`EXTRA_NOTIONS` (with its argument, e.g. ``renyi(2)``).

    Parameters
    ----------
    name : str

    Returns
    -------
    bool
    """
    call = _CALL.match(name)
    row = _TABLE.get(call.group(1) if call else name)
    return row is not None and not row.paper and (row.argument is None) == (call is None)


#: ``delta`` of the approximate-DP conversions.
DELTA = Fraction(1, 100000)
#: Renyi order of the RDP conversions.
ALPHA = 2
#: ``eps'`` of the privacy-profile relation.
PROFILE_EPS = Fraction(1)

BUN_STEINKE = ("Bun, Steinke. Concentrated differential privacy: simplifications, extensions, and lower bounds. "
               "TCC 2016-B, LNCS 9985. doi:10.1007/978-3-662-53641-4_24")
DRV_KL = ("Dwork, Rothblum, Vadhan. Boosting and differential privacy. FOCS 2010, Lemma III.2. "
          "doi:10.1109/FOCS.2010.12")
KOV = ("Kairouz, Oh, Viswanath. The composition theorem for differential privacy. IEEE Trans. Inf. Theory 63(6), "
       "2017 (ICML 2015): the privacy region of eps-DP is that of binary randomized response. "
       "doi:10.1109/TIT.2017.2685505")
MIRONOV = "Mironov. Renyi differential privacy. IEEE CSF 2017, Proposition 3. doi:10.1109/CSF.2017.11"
CKS = ("Canonne, Kamath, Steinke. The discrete Gaussian for differential privacy. NeurIPS 2020, Proposition 12 "
       "(arXiv:2004.00010); Balle, Barthe, Gaboardi, Hsu, Sato. Hypothesis testing interpretations and Renyi "
       "differential privacy. AISTATS 2020, Theorem 21 (arXiv:1905.09982)")
IWK = ("Issa, Wagner, Kamath. An operational approach to information leakage. IEEE Trans. Inf. Theory 66(3), 2020. "
       "doi:10.1109/TIT.2019.2935768")
BRAUN = ("Braun, Chatzikokolakis, Palamidessi. Quantitative notions of leakage for one-try attacks. MFPS 2009, "
         "ENTCS 249. doi:10.1016/j.entcs.2009.07.085")

TSYBAKOV = ("Tsybakov. Introduction to Nonparametric Estimation. Springer 2009, Lemma 2.5 (Pinsker) and Lemma 2.3. "
            "doi:10.1007/b13794")
VERDU = ("Verdu. alpha-mutual information. ITA 2015; Ho, Verdu. Convexity/concavity of Renyi entropy and "
         "alpha-mutual information. ISIT 2015. doi:10.1109/ISIT.2015.7282554")
SCOS = ("Saeidian, Cervia, Oechtering, Skoglund. Pointwise maximal leakage. IEEE Trans. Inf. Theory 69(12), 2023. "
        "doi:10.1109/TIT.2022.3203579")
DRS = "Dong, Roth, Su. Gaussian differential privacy. J. R. Stat. Soc. B 84(1), 2022. doi:10.1111/rssb.12454"
#: Sibson order of the Sibson conversions.
SIBSON_ALPHA = 2

_D = f"eps_delta({DELTA})"
_S = f"sibson({SIBSON_ALPHA})"
_R = f"renyi({ALPHA})"


def _c(id, title, statement, setting, premise, conclusion, source, bound, **extra) -> dict:
    return dict(id=id, title=title, statement=statement, setting=setting, premise=premise, conclusion=conclusion,
                kind="implication", source=source, bound=bound, **extra)


#: The conversion relations, as keyword arguments of ``Relation`` (in catalogue order).
CONVERSIONS: tuple[dict, ...] = (
    _c("bs2016.dp_zcdp", "Pure DP implies zCDP (Bun and Steinke 2016, Proposition 1.4)",
       "An eps-DP mechanism satisfies (eps^2/2)-zCDP: renyi(alpha) <= alpha eps^2/2 for every alpha > 1.",
       "both", "eps_d", "rho", f"{BUN_STEINKE}, Proposition 1.4", Formula("half_square")),
    _c("relations.dp_zcdp_tanh", "Pure DP implies zCDP with the KL constant",
       "An eps-DP mechanism satisfies (eps tanh(eps/2))-zCDP; binary randomized response attains it as alpha -> 1 "
       "(its rho is its KL divergence, eps tanh(eps/2)), so no smaller function of eps is a bound.",
       "both", "eps_d", "rho", "this project (sharpens Bun and Steinke 2016, Proposition 1.4)", Formula("tanh"),
       corrects="bs2016.dp_zcdp",
       reason="eps^2/2 exceeds eps tanh(eps/2) for every eps > 0 (tanh(u) < u); rho >= kl of binary randomized "
              "response = eps tanh(eps/2), so a candidate such as eps tanh(eps/2)/2 is too small."),
    _c("drv2010.kl_dp", "KL divergence under pure DP (Dwork, Rothblum, Vadhan 2010)",
       "If Q[x] and Q[x'] are eps-indistinguishable then D(Q[x] || Q[x']) <= eps (e^eps - 1).",
       "both", "eps_d", "kl", DRV_KL, KLBound()),
    _c("relations.kl_tanh", "KL divergence under pure DP, tight",
       "If Q[x] and Q[x'] are eps-indistinguishable then D(Q[x] || Q[x']) <= eps tanh(eps/2), with equality for "
       "binary randomized response.",
       "both", "eps_d", "kl", "this project (the per-pair form of the two-point bound behind the Coq-proved local "
       "I <= eps tanh(eps/2); sharpens Dwork, Rothblum, Vadhan 2010, Lemma III.2)", Formula("tanh"),
       corrects="drv2010.kl_dp",
       reason="eps (e^eps - 1) / (eps tanh(eps/2)) = 1 + e^eps > 2: the published bound is loose by more than 2x."),
    _c("kov2017.dp_profile", f"Pure DP bounds the privacy profile at eps' = {PROFILE_EPS}",
       f"An eps-DP mechanism has delta({PROFILE_EPS}) <= max(0, (e^eps - e^{PROFILE_EPS}) / (1 + e^eps)): the "
       "privacy region of eps-DP is that of binary randomized response, which attains it.",
       "both", "eps_d", f"delta({PROFILE_EPS})", KOV, Formula("profile", PROFILE_EPS)),
    _c("kov2017.dp_eps_delta", f"Pure DP as (eps', delta)-DP at delta = {DELTA}",
       f"An eps-DP mechanism is (eps', {DELTA})-DP with e^eps' = max(1, (1 - delta) e^eps - delta) (smaller than "
       "the trivial eps' = eps), attained by binary randomized response.",
       "both", "eps_d", _D, KOV, Formula("dp_eps_delta", DELTA)),
    _c("mironov2017.rdp_dp", f"Renyi DP implies approximate DP (Mironov 2017), alpha = {ALPHA}, delta = {DELTA}",
       "An (alpha, r)-RDP mechanism is (r + ln(1/delta)/(alpha - 1), delta)-DP.",
       "both", _R, _D, MIRONOV, Formula("shift", 1 / DELTA)),
    _c("cks2020.rdp_dp", f"Renyi DP implies approximate DP, improved, alpha = {ALPHA}, delta = {DELTA}",
       "An (alpha, r)-RDP mechanism is (r + ln((alpha - 1)/alpha) - (ln delta + ln alpha)/(alpha - 1), delta)-DP; "
       "at alpha = 2: eps' = r + ln(1/(4 delta)).",
       "both", _R, _D, CKS, Formula("shift", Fraction(1, 4) / DELTA), corrects="mironov2017.rdp_dp",
       reason="smaller than Mironov's by (ln alpha)/(alpha - 1) - ln((alpha - 1)/alpha) = ln 4 at alpha = 2."),
    _c("bs2016.zcdp_dp", f"zCDP implies approximate DP (Bun and Steinke 2016, Proposition 1.3), delta = {DELTA}",
       "A rho-zCDP mechanism is (rho + 2 sqrt(rho ln(1/delta)), delta)-DP.",
       "both", "rho", _D, f"{BUN_STEINKE}, Proposition 1.3", Formula("zcdp", DELTA)),
    _c("iwk2020.ml_ldp", "Maximal leakage under local DP (Issa, Wagner, Kamath 2020)",
       "An eps-LDP mechanism has maximal leakage at most eps: sum_y max_x Q[x][y] <= e^eps sum_y Q[x0][y].",
       "local", "eps_d", "maximal_leakage", IWK, Linear(1)),
    _c("relations.ml_dp_central", "Maximal leakage bounded by the central DP budget (the local bound read for datasets)",
       "The local bound maximal_leakage <= eps_d applied to datasets with the neighbour budget eps_d.",
       "central", "eps_d", "maximal_leakage", f"this project: {IWK}'s local bound with the central neighbour relation",
       Linear(1), min_records=2),
    _c("relations.ml_all_pairs", "Maximal leakage bounded by the all-pairs DP budget",
       "maximal_leakage <= eps_all: every column's maximum is at most e^eps_all times any row's entry; with group "
       "privacy, maximal_leakage <= diam * eps_d (r eps_d on D^r).",
       "both", "eps_all", "maximal_leakage", f"this project (the argument of {IWK} over every pair of inputs)",
       Linear(1), corrects="relations.ml_dp_central",
       reason="on datasets the maximum over x runs over non-neighbours too: an r-fold product of k-RR has "
              "maximal leakage r ln(k e^eps / (e^eps + k - 1)), which exceeds eps_d = eps for r >= 2 and large k."),
    _c("iwk2020.mel_ml", "Min-entropy leakage is at most maximal leakage",
       "For every prior, ln(sum_y max_x p(x) Q[x][y] / max_x p(x)) <= ln sum_y max_x Q[x][y] (maximal leakage is "
       "the maximum of min-entropy leakage over priors).",
       "both", "maximal_leakage", "min_entropy_leakage", f"{IWK}; {BRAUN}", Linear(1)),
    _c("kov2017.dp_tv", "Pure DP bounds total variation",
       "An eps-DP mechanism has tv = delta(0) <= tanh(eps/2) = (e^eps - 1) / (e^eps + 1), attained by binary "
       "randomized response.", "both", "eps_d", "tv", KOV, Formula("profile", Fraction(0))),
    _c("pinsker.tv_kl", "Pinsker's inequality",
       "Total variation is at most sqrt(KL / 2), pair by pair, hence for the largest over neighbours.",
       "both", "kl", "tv", TSYBAKOV, Formula("pinsker")),
    _c("lecam.hellinger_tv", "The squared Hellinger distance is at most total variation",
       "1 - sum_y sqrt(P_y R_y) <= 1 - sum_y min(P_y, R_y) = TV(P, R), pair by pair.",
       "both", "tv", "hellinger", TSYBAKOV, Linear(1)),
    _c("verdu2015.mi_sibson", f"Mutual information is at most Sibson's information of order {SIBSON_ALPHA}",
       "Sibson's alpha-mutual information is non-decreasing in alpha and equals I(X;Y) at alpha = 1.",
       "both", _S, "eps_m", VERDU, Linear(1)),
    _c("iwk2020.sibson_ml", f"Sibson's information of order {SIBSON_ALPHA} is at most maximal leakage",
       "Maximal leakage is Sibson's information of order infinity, and the order is monotone.",
       "both", "maximal_leakage", _S, f"{IWK}; {VERDU}", Linear(1)),
    _c("scos2023.ml_pml", "Maximal leakage is at most pointwise maximal leakage",
       "e^maximal_leakage is the mean over outputs of e^(pointwise maximal leakage), at most its maximum.",
       "both", "pml", "maximal_leakage", SCOS, Linear(1)),
    _c("scos2023.pml_ldp", "Pointwise maximal leakage under local DP",
       "An eps-LDP mechanism has pointwise maximal leakage at most eps: p(y) >= min_x' Q[x'][y].",
       "local", "eps_d", "pml", SCOS, Linear(1)),
    _c("drs2022.gdp_zcdp", "Gaussian DP implies zCDP",
       "A mu-GDP mechanism is (mu^2/2)-zCDP: by Blackwell's theorem each neighbour pair is a post-processing of "
       "N(0, 1) and N(mu, 1), whose Renyi divergence of order alpha is alpha mu^2/2.",
       "both", "gdp_mu", "rho", DRS, Formula("half_square")),
)
