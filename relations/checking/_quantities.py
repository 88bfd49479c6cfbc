"""The quantities relations speak about, for one mechanism, as exact reals.

:func:`values` measures a mechanism and turns ``eps_i``, ``eps_d``, ``sigma_min``,
``neg_sigma`` and ``eps_all`` into logarithms of rationals and ``eps_m`` into an
enclosed real whose precision rises on demand, with exact tie-breakers
(``I = 0`` by independence, ``I`` against ``ln r`` by an integer identity).  It
also records the neighbour graph's diameter and the witnesses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import cast

from relations.measures._api import eps_all, measure
from relations.measures._information import (
    compare_with_log,
    independent,
    mutual_information,
)
from relations.measures._notions import canonical_name, notion_result, parse_notion
from relations.measures._product import factor_groups
from relations.measures._results import Budget, Measures, Witness
from relations.model._distributions import Prior
from relations.model._floats import MAX_EXCUSED
from relations.model._mechanism import Mechanism
from relations.model._neighbours import diameter
from relations.model._products import ProductChannel, ProductPrior
from relations.notions import BASE_NOTIONS
from relations.numbers._enclosure import DEFAULT_BITS, sum_enclosures
from relations.numbers._logs import LogRatio
from relations.numbers._reals import (
    ArbExpr,
    Log,
    Rational,
    Real,
    log_times,
)
from relations.numbers._text import fraction_text

__all__ = ["FLOAT_EVALUATION", "LazyReals", "LazyWitnesses", "Values", "values", "rounding_margins"]

#: Relative error allowed for a budget computed in float mode (added to its margin).
FLOAT_EVALUATION = 2.0**-30


class LazyReals(dict):
    """The reals of :class:`Values`: the six budgets at once, the notions of
    :data:`~relations.measures._notions.NOTIONS` on first use, by name.

    A missing key such as ``"rho"``, ``"renyi(2)"``, ``"delta(1/2)"``, ``"delta(ln(3))"`` or
    ``"eps_delta(1/1000)"`` is parsed exactly (:func:`~relations.measures._notions.parse_notion`),
    computed, and cached under the name used and its canonical spelling; its witness goes to
    :class:`LazyWitnesses`.  An unknown name is a ``KeyError``; a known notion with a bad
    argument an :class:`~relations.errors.InputError`.

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> vals = values(randomized_response(3))
    >>> str(vals.reals["renyi(2)"]), str(vals.reals["delta(0.5)"]), str(vals.reals["eps_delta(1/4)"])
    ('ln(7/3)', '3/4 - 1/4 e^(1/2)', 'ln(2)')
    >>> vals.witnesses["eps_delta(1/4)"], "rho" in vals.reals
    (Witness(x=0, x_prime=1, y=None), False)
    """

    def __init__(self, mech: Mechanism, base: dict[str, Real]) -> None:
        super().__init__(base)
        self.mechanism = mech
        self.witnesses: dict[str, Witness | None] = {}

    def _repeated(self, key: str, head: str) -> Real:
        """``NAME(repeat(k))``: the notion of ``k`` uses of the mechanism (:mod:`relations.measures._composition`)."""
        from relations.measures._composition import composed_notion

        count = key[len(head):].strip()[len("(repeat("):-2]
        if not count.isdigit():
            raise KeyError(key)
        result = composed_notion(self.mechanism.repeated(int(count)), head)
        dict.__setitem__(self, key, result.value)
        self.witnesses[key] = result.witness
        return result.value

    def __missing__(self, key: str) -> Real:
        if not isinstance(key, str):
            raise KeyError(key)
        from relations.measures._notions import NOTIONS

        head = key.split("(", 1)[0].strip()
        if key.endswith("))") and "(repeat(" in key:  # NAME(repeat(k)): the notion of k independent uses
            return self._repeated(key, head)
        if head not in NOTIONS:
            raise KeyError(key)
        name = canonical_name(*parse_notion(key))
        if name in self and name != key:
            value = dict.__getitem__(self, name)
        else:
            result = notion_result(self.mechanism, name)
            value = result.value
            dict.__setitem__(self, name, value)
            self.witnesses[name] = result.witness
        dict.__setitem__(self, key, value)
        self.witnesses[key] = self.witnesses.get(name)
        return value


class LazyWitnesses(dict):
    """The witnesses of :class:`Values`; a notion's is computed with its value (:class:`LazyReals`)."""

    def __init__(self, base: dict[str, Witness | None], reals: LazyReals) -> None:
        super().__init__(base)
        self.reals = reals

    def __missing__(self, key: str) -> Witness | None:
        self.reals[key]
        value = self.reals.witnesses[key]
        dict.__setitem__(self, key, value)
        return value


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
        refined on demand, with exact tie-breakers); and, computed on first use, every
        notion of :data:`~relations.measures._notions.NOTIONS` by name (:class:`LazyReals`).
    witnesses : dict of str to Witness or None
        The witness of each quantity (``None`` for ``eps_m``; notions on first use).
    approximate : bool
        True in float mode.
    margins : dict of str to float
        How far each quantity can move when the inputs move within their rounding
        (:func:`rounding_margins`); all 0 for exact input.
    """

    mechanism: Mechanism
    measures: Measures
    eps_all: Budget
    diameter: int | None
    reals: dict[str, Real]
    witnesses: dict[str, Witness | None]
    approximate: bool
    margins: dict[str, float] = field(default_factory=dict)



#: The most terms ``p(x) Q[x][y] ln(...)`` of ``I(X;Y)``'s exact form (:attr:`ArbExpr.lazy_form`, for the
#: exact ties of conjectures); a larger channel has none.
FORM_TERMS = 4096


def _mi_real(mech: Mechanism, measures: Measures) -> Real:
    mi = measures.eps_m
    if mi.enclosure is None:
        return Rational(Fraction(mi.value))
    first = mi.enclosure
    reached = mi.bits if mi.bits is not None else DEFAULT_BITS  # the first enclosure's width: 2^-reached
    cache = {reached: first}

    if isinstance(mech.channel, ProductChannel):
        prior = mech.prior
        assert isinstance(prior, ProductPrior)
        local_rows = mech.channel.local.exact
        counts = {key: count for key, (_, count) in factor_groups(prior).items()}
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
        p, rows = cast(Prior, mech.prior).exact, mech.channel.exact  # dense

        def compute(bits):
            return mutual_information(p, rows, bits)

        def tie(other):
            if _is_zero(other):
                return 0 if independent(p, rows) else 1
            if isinstance(other, Log) and other.log.is_finite:
                return compare_with_log(p, rows, other.log.ratio)
            return None

    def lazy_form():  # I(X;Y) as sum p(x) Q[x][y] ln(Q[x][y] / p(y)), for exact ties; None when too long
        parts = [(p, local_rows, c) for p, c in counts.items()] if isinstance(mech.channel, ProductChannel) \
            else [(mech.prior.exact, mech.channel.exact, 1)]
        if sum(len(rows) * len(rows[0]) for _, rows, _ in parts) > FORM_TERMS:
            return None
        form = []
        for px, rows, count in parts:
            py = [sum(px[x] * rows[x][y] for x in range(len(rows))) for y in range(len(rows[0]))]
            form += [(count * px[x] * rows[x][y], rows[x][y] / py[y]) for x in range(len(rows))
                     for y in range(len(rows[0])) if px[x] and rows[x][y]]
        return tuple(form)

    def enclose(bits):
        if bits <= reached:
            bits = reached
        else:
            bits = max(bits, DEFAULT_BITS)
        if bits not in cache:
            cache[bits] = compute(bits)
        e = cache[bits]
        return e.lower, e.upper

    return ArbExpr("I(X;Y)", mi.value, enclose, tie, display_bits=min(reached, DEFAULT_BITS), lazy_form=lazy_form,
                   rounded=True)  # mi.value is the nearest double already (measures._dense.nearest_value)



def _is_zero(x) -> bool:
    return (isinstance(x, Rational) and x.value == 0) or (isinstance(x, Log) and x.log.is_finite and x.log.ratio == 1)



def _all_pairs_real(mech: Mechanism, all_pairs: Budget, local: Budget, approximate: bool) -> Real:
    """``eps_all``; of a long product form whose ``q^r`` is too large to write, ``r ln(q)`` as a linear form."""
    if approximate or all_pairs.exact is not None or not isinstance(mech.channel, ProductChannel):
        return _real(all_pairs, approximate)
    assert local.exact is not None and local.exact.ratio is not None
    r, q = mech.channel.records, local.exact.ratio
    return log_times(q, Fraction(r), f"{r} ln({fraction_text(q)})")


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
        "eps_all": _all_pairs_real(mech, all_pairs, measures.eps_d, approx),
        "eps_m": _mi_real(mech, measures),
    }
    reals = LazyReals(mech, reals)
    witnesses = LazyWitnesses({"eps_i": measures.eps_i.witness, "eps_d": measures.eps_d.witness,
                               "sigma_min": measures.sigma_min.witness, "neg_sigma": neg_sigma.witness,
                               "eps_all": all_pairs.witness, "eps_m": None}, reals)
    margins = rounding_margins(mech, mi=measures.eps_m.value)
    if approx:
        margins = {k: m + FLOAT_EVALUATION * (1 + abs(float(reals[k]))) if math.isfinite(float(reals[k])) else m
                   for k, m in margins.items()}
    return Values(mech, measures, all_pairs, diameter(mech.inputs), reals, witnesses, approx, margins)



def _radius(factors) -> float:
    return float(max((f.rounding for f in factors), default=Fraction(0)))


def rounding_margins(mech: Mechanism, *, mi: float) -> dict[str, float]:
    r"""How far each quantity can move when every entry moves within its rounding radius.

    With the channel's entries within a relative :math:`\rho` of the intended ones and
    the prior's within :math:`\rho_p` (:attr:`Channel.rounding <relations.model.Channel>`;
    for ``D^r`` products, per record), every likelihood ratio moves by at most
    :math:`\Delta_d = \ln\frac{1+\rho}{1-\rho}` (the other records' factors cancel), so
    ``eps_d`` and ``eps_all`` move by at most :math:`\Delta_d`, ``sigma_min`` and
    ``neg_sigma`` by :math:`\Delta_p = \ln\frac{1+\rho_p}{1-\rho_p}` and ``eps_i`` by
    :math:`\Delta_d + \Delta_p`.  For ``I = sum p(x,y) l(x,y)``, ``l = ln Q/q``, with
    :math:`\gamma = (1+\rho_p)(1+\rho) - 1` and :math:`L = -\ln(1-\rho) - \ln(1-\gamma)`:
    :math:`|I' - I| \le \gamma \sum p|l| + L \le \gamma (I + r) + r L`, using
    :math:`\sum_{l<0} p|l| \le 1/e` per record.  Margins are rounded up.

    Parameters
    ----------
    mech : Mechanism
        The mechanism (its prior's and channel's ``rounding``).
    mi : float
        Its mutual information ``I`` in nats (an upper approximation is fine).

    Returns
    -------
    dict of str to float
        One margin per quantity; all 0 when the input is exact.

    Examples
    --------
    >>> from relations import Mechanism
    >>> rounding_margins(Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]]), mi=0.13)["eps_d"]
    0.0
    >>> m = Mechanism.local([[0.75, 0.25], [0.25, 0.75]])  # floats: rounding 2**-42
    >>> 4.5e-13 < rounding_margins(m, mi=0.13)["eps_d"] < 4.6e-13
    True

    A margin is capped at :data:`~relations.model._floats.MAX_EXCUSED` nats: a claim that fails by more is
    decided on the binary values, however coarse the rounding.
    """
    ch, pr = mech.channel, mech.prior
    rho = _radius([ch.local if isinstance(ch, ProductChannel) else ch])
    rho_p = _radius(pr.distinct if isinstance(pr, ProductPrior) else [pr])
    records = ch.records if isinstance(ch, ProductChannel) else 1
    if rho == 0 and rho_p == 0:
        return dict.fromkeys(BASE_NOTIONS, 0.0)
    up = 1 + 2.0**-40
    d = math.log1p(2 * rho / (1 - rho)) * up if rho < 1 else math.inf
    dp = math.log1p(2 * rho_p / (1 - rho_p)) * up if rho_p < 1 else math.inf
    gamma = ((1 + rho_p) * (1 + rho) - 1) * up
    big_l = (-math.log1p(-rho) - math.log1p(-gamma)) * up if max(rho, gamma) < 1 else math.inf
    dm = (gamma * (abs(mi) + records) + records * big_l) * up
    margins = {"eps_i": d + dp, "eps_d": d, "sigma_min": dp, "neg_sigma": dp, "eps_all": d, "eps_m": dm}
    return {k: min(v, MAX_EXCUSED) for k, v in margins.items()}

