"""The vocabulary: settings, notions, statuses and verdicts as string enumerations.

Each member *is* its string (:class:`enum.StrEnum`), so ``Setting.LOCAL == "local"``
and JSON output carries the plain text.

Examples
--------
>>> from relations.kinds import Notion, Setting
>>> Setting("local") is Setting.LOCAL, str(Notion.EPS_D)
(True, 'eps_d')
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Setting", "Notion", "NotionKind", "ProductRule", "RelationKind", "Status", "AuditVerdict", "Verdict", "NumericMode"]


class _Kind(StrEnum):
    """The base of the enumerations below: a member pickles as its class called on its value,
    ``Setting("local")``, on every Python.  The first releases of Python 3.11 (3.11.2, Debian 12's) pickled it as
    ``getattr(Setting, "LOCAL")``, which the tool's caches refuse to read: their unpickler looks up only the
    classes of a mechanism's value objects (:mod:`relations.search._screening`)."""

    def __reduce_ex__(self, protocol):
        return self.__class__, (self._value_,)


class Setting(_Kind):
    """Where a mechanism runs: on single values (local) or on datasets (central)."""

    LOCAL = "local"
    CENTRAL = "central"
    BOTH = "both"  #: a relation stated for either setting


class Notion(_Kind):
    """The quantities relations, claims and conjectures speak about (in nats, or probabilities: the table's unit).

    Their symbols, LaTeX, kinds, arguments, evaluators and references are the table
    :data:`relations.notions.NOTIONS`.
    """

    EPS_I = "eps_i"  #: identifiability budget
    EPS_D = "eps_d"  #: differential-privacy budget (neighbours)
    EPS_M = "eps_m"  #: mutual information I(X;Y)
    SIGMA_MIN = "sigma_min"  #: the prior constant min ln p(x)/p(x') over neighbours
    EPS_ALL = "eps_all"  #: DP budget over every pair of inputs
    NEG_SIGMA = "neg_sigma"  #: -sigma_min
    DELTA = "delta"  #: the privacy profile delta(eps)
    EPS_DELTA = "eps_delta"  #: the least eps with delta(eps) <= delta
    TV = "tv"  #: total variation between neighbours' rows: delta(0)
    RENYI = "renyi"  #: Renyi DP of order alpha
    RHO = "rho"  #: zCDP
    KL = "kl"  #: the largest KL divergence between neighbours' rows
    CHI2 = "chi2"  #: the largest chi-squared divergence between neighbours' rows
    MIN_ENTROPY_LEAKAGE = "min_entropy_leakage"  #: min-entropy leakage
    MAXIMAL_LEAKAGE = "maximal_leakage"  #: maximal leakage
    CMI = "cmi"  #: per-record conditional mutual information
    GDP_MU = "gdp_mu"  #: the least Gaussian-DP mu of the f-DP trade-off curve
    SIBSON = "sibson"  #: Sibson's mutual information of order alpha
    PML = "pml"  #: pointwise maximal leakage, its largest over outputs
    PRIOR_VULNERABILITY = "prior_vulnerability"  #: Bayes vulnerability of the prior (a probability)
    BAYES_VULNERABILITY = "bayes_vulnerability"  #: posterior Bayes vulnerability (a probability)
    BAYES_LEAKAGE = "bayes_leakage"  #: additive Bayes leakage (a probability)
    HELLINGER = "hellinger"  #: the largest squared Hellinger distance between neighbours' rows


class NotionKind(_Kind):
    """What a notion measures, which decides how it is computed and compared exactly."""

    RATIO = "ratio"  #: a logarithm of a rational (``ln q``), decided by rational arithmetic
    INFORMATION = "information"  #: a mutual information, a certified enclosure
    DIVERGENCE = "divergence"  #: a largest divergence between neighbours' rows (Renyi, KL, zCDP)
    PROFILE = "profile"  #: the privacy profile and its inverse (approximate DP)
    LEAKAGE = "leakage"  #: a leakage of quantitative information flow


class ProductRule(_Kind):
    """How a notion of an ``r``-fold product form (one local channel per record, a product prior) follows
    from its records' values: the float paths of the searches read it from the notion table."""

    SAME = "same"  #: the local rows' value (a divergence between neighbours, who differ in one record)
    ADDITIVE = "additive"  #: the sum of the records' values (a leakage in nats)
    MULTIPLICATIVE = "multiplicative"  #: the product of the records' values (a probability)
    GAP = "gap"  #: the difference of the products of two multiplicative notions (the row's ``parts``)


class RelationKind(_Kind):
    """An implication ``conclusion <= bound(premise)`` or a non-implication."""

    IMPLICATION = "implication"
    NON_IMPLICATION = "non-implication"


class Status(_Kind):
    """A relation evaluated on one mechanism."""

    HOLDS = "holds"
    FAILS = "fails"
    HOLDS_WITHIN_ROUNDING = "holds within rounding"  #: fails exactly, but the boundary is inside the inputs' rounding
    UNDECIDED = "undecided"
    NOT_APPLICABLE = "not applicable"
    OUTSIDE_SCOPE = "outside the proved scope"  #: stated for the mechanism, but its proof does not cover it
    WITNESS = "witness"
    NOT_A_WITNESS = "not a witness"


class AuditVerdict(_Kind):
    """The outcome of ``relations audit`` (exit status 0, 1 and 3: :mod:`relations.errors`)."""

    CONSISTENT = "consistent"  #: white-box: every claim holds on the exact channel; black-box: samples that
    #: could have shown a violation showed none
    VIOLATED = "violated"  #: a claim fails: exactly (white-box), or the certified lower bound exceeds it (black-box)
    INCONCLUSIVE = "inconclusive"  #: samples that cannot certify a meaningful bound (outputs that seldom repeat)


class Verdict(_Kind):
    """A relation decided over all mechanisms (``relations verify``)."""

    PROVED = "proved"
    REFUTED = "refuted"
    HOLDS_BOUNDED = "holds-bounded"
    UNREFUTED = "unrefuted"


class NumericMode(_Kind):
    """How a mechanism's numbers are taken (``measure(..., mode=...)``, ``relations measure --mode``).

    Chosen by the caller, or by the documented rule (``docs/semantics.md``, "Numeric mode"); every
    output states the mode it ran in (``"mode": "exact"`` or ``"float"`` in JSON, and in the table's title).
    """

    AUTO = "auto"  #: the documented rule: exact, except NumPy float arrays (``.npz`` files) of more than
    #: 65536 entries (``MAX_EXACT_FLOAT_ENTRIES``), which are float mode unless an ``.npz`` file's ``mode`` says
    EXACT = "exact"  #: exact rationals; a float array at its binary values (at most ``MAX_EXACT_MODE_ENTRIES``)
    FLOAT = "float"  #: float64 arithmetic: approximate budgets, no exact forms, no certified enclosure
