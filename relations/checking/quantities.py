"""The quantities relations speak about, for one mechanism, as exact reals.

:func:`values` measures a mechanism and turns ``eps_i``, ``eps_d``, ``sigma_min``,
``neg_sigma`` and ``eps_all`` into logarithms of rationals and ``eps_m`` into an
enclosed real whose precision rises on demand, with exact tie-breakers
(``I = 0`` by independence, ``I`` against ``ln r`` by an integer identity).  It
also records the neighbour graph's diameter and the witnesses.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from relations.measures.api import eps_all, measure
from relations.measures.information import (
    compare_with_log,
    independent,
    mutual_information,
)
from relations.measures.product import factor_groups
from relations.measures.results import Budget, Measures, Witness
from relations.model.distributions import ProductChannel, ProductPrior
from relations.model.mechanism import Mechanism
from relations.model.neighbours import diameter
from relations.numbers.enclosure import DEFAULT_BITS, sum_enclosures
from relations.numbers.logs import LogRatio
from relations.numbers.reals import (
    ArbExpr,
    Log,
    Rational,
    Real,
)

__all__ = ["Values", "values"]


@dataclass(frozen=True, eq=False)
class Values:
    """Everything the relations need from one mechanism, as exact reals (:func:`values`).

    Attributes
    ----------
    mechanism : Mechanism
        The mechanism.
    measures : Measures
        Its four measures.
    eps_all : Budget
        The DP budget over every pair of inputs.
    diameter : int or None
        The diameter of the neighbour graph, ``None`` if disconnected.
    reals : dict of str to Real
        ``eps_i``, ``eps_d``, ``sigma_min``, ``neg_sigma``, ``eps_all`` (each a
        :class:`~relations.numbers.Log`; :class:`~relations.numbers.Rational` of the
        float in float mode) and ``eps_m`` (an :class:`~relations.numbers.ArbExpr`
        refined on demand, with exact tie-breakers).
    witnesses : dict of str to Witness or None
        The witness of each quantity (``None`` for ``eps_m``).
    approximate : bool
        True in float mode.
    """

    mechanism: Mechanism
    measures: Measures
    eps_all: Budget
    diameter: int | None
    reals: dict[str, Real]
    witnesses: dict[str, Witness | None]
    approximate: bool



def _mi_real(mech: Mechanism, measures: Measures) -> Real:
    mi = measures.eps_m
    if mi.enclosure is None:
        return Rational(Fraction(mi.value))
    first = mi.enclosure
    cache = {DEFAULT_BITS: first}

    if isinstance(mech.channel, ProductChannel):
        prior = mech.prior
        assert isinstance(prior, ProductPrior)
        local_rows = mech.channel.local.exact
        counts = {key: len(members) for key, members in factor_groups(prior).items()}
        extra = mech.channel.records.bit_length() + 1

        def compute(bits):
            return sum_enclosures((mutual_information(p, local_rows, bits + extra), c) for p, c in counts.items())

        def tie(other):
            if _is_zero(other):
                return 0 if all(independent(p, local_rows) for p in counts) else 1
            if isinstance(other, Log) and other.log.is_finite:
                return compare_with_log((), (), other.log.ratio, parts=[(p, local_rows, c) for p, c in counts.items()])
            return None
    else:
        p, rows = mech.prior.exact, mech.channel.exact

        def compute(bits):
            return mutual_information(p, rows, bits)

        def tie(other):
            if _is_zero(other):
                return 0 if independent(p, rows) else 1
            if isinstance(other, Log) and other.log.is_finite:
                return compare_with_log(p, rows, other.log.ratio)
            return None

    def enclose(bits):
        bits = max(bits, DEFAULT_BITS)
        if bits not in cache:
            cache[bits] = compute(bits)
        e = cache[bits]
        return e.lower, e.upper

    return ArbExpr("I(X;Y)", mi.value, enclose, tie)



def _is_zero(x) -> bool:
    return (isinstance(x, Rational) and x.value == 0) or (isinstance(x, Log) and x.log.is_finite and x.log.ratio == 1)



def _real(budget: Budget, approximate: bool) -> Real:
    if approximate or budget.exact is None:
        v = budget.value
        if v in (float("inf"), float("-inf")):
            return Log(LogRatio(None, 1 if v > 0 else -1))
        return Rational(Fraction(v))
    return Log(budget.exact)



def values(mech: Mechanism, *, measures: Measures | None = None) -> Values:
    """Measure ``mech`` (unless ``measures`` is given) and collect its exact reals.

    Parameters
    ----------
    mech : Mechanism
        Any mechanism.
    measures : Measures, optional
        Its measures, if already computed (:func:`~relations.measures.measure`).

    Returns
    -------
    Values

    Examples
    --------
    The paper's Section 5 example: ``neg_sigma = -sigma_min = ln(19)``, and locally
    every two inputs are neighbours, so ``eps_all = eps_d`` and the diameter is 1.

    >>> from relations.mechanisms import paper_example
    >>> vals = values(paper_example(["19/20", "1/20"]))
    >>> {k: str(v) for k, v in vals.reals.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'eps_i': 'ln(247/7)', 'eps_d': 'ln(13/7)', 'sigma_min': 'ln(1/19)', 'neg_sigma': 'ln(19)',
     'eps_all': 'ln(13/7)', 'eps_m': 'I(X;Y)'}
    >>> vals.diameter, vals.witnesses["neg_sigma"]
    (1, Witness(x=0, x_prime=1, y=None))
    """
    measures = measures or measure(mech)
    approx = not measures.exact
    all_pairs = eps_all(mech)
    neg = measures.sigma_min
    neg_sigma = Budget("neg_sigma", -neg.value, None if neg.exact is None else -neg.exact,
                       None if neg.witness is None else Witness(neg.witness.x_prime, neg.witness.x, None))
    reals = {
        "eps_i": _real(measures.eps_i, approx),
        "eps_d": _real(measures.eps_d, approx),
        "sigma_min": _real(measures.sigma_min, approx),
        "neg_sigma": _real(neg_sigma, approx),
        "eps_all": _real(all_pairs, approx),
        "eps_m": _mi_real(mech, measures),
    }
    witnesses = {"eps_i": measures.eps_i.witness, "eps_d": measures.eps_d.witness,
                 "sigma_min": measures.sigma_min.witness, "neg_sigma": neg_sigma.witness,
                 "eps_all": all_pairs.witness, "eps_m": None}
    return Values(mech, measures, all_pairs, diameter(mech.inputs), reals, witnesses, approx)

