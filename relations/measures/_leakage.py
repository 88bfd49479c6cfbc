"""Leakage under the prior: min-entropy leakage, maximal leakage, per-record conditional mutual information.

* ``min_entropy_leakage = ln( sum_y max_x p(x) Q[x][y] / max_x p(x) )`` (Smith 2009): the
  multiplicative gain of a one-guess adversary; ``ln`` of an exact rational.
* ``maximal_leakage = ln sum_y max_{x : p(x) > 0} Q[x][y]`` (Issa, Wagner, Kamath 2020): it
  depends on the prior only through its support; ``ln`` of an exact rational.  Always
  ``maximal_leakage >= min_entropy_leakage >= 0``.
* ``cmi = max_i I(X_i; Y | X_{-i})`` (Cuff and Yu 2016) in nats: on ``D^r``,
  ``I(X_i; Y | X_{-i}) = sum_c p(c) I(X_i; Y | X_{-i} = c)`` over the fibres ``c`` of record ``i``
  (the ``k`` datasets that differ in record ``i`` only), each the mutual information of the
  conditional prior ``p(x_i | c)`` through the fibre's rows; locally (one record) ``I(X;Y)``.
  An explicit neighbour graph has no records, and ``cmi`` is refused there.

Neither leakage depends on the neighbour relation.  For a product form (independent records,
``Q = W^{(x) r}``, product prior), ``sum_y max_x p(x)Q[x][y] = prod_j sum_e max_d p_j(d) W[d][e]``
and ``max_x p(x) = prod_j max_d p_j(d)`` (a maximum of a product of independent nonnegative factors
is the product of the maxima), so both leakages add over records; and since ``Y_{-i}`` depends only on
``X_{-i}`` and independent noise, ``I(X_i; Y | X_{-i}) = I(X_i; Y_i)``, the local information of
record ``i``.  Nothing is expanded.  Float mode reports floats as :class:`~relations.numbers.Rational`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import cast

import numpy as np

from relations.errors import InputError
from relations.measures._information import compare_with_log, independent, mutual_information
from relations.measures._pairs import NotionResult
from relations.measures._product import factor_groups
from relations.model._distributions import Channel, Prior
from relations.model._mechanism import Mechanism
from relations.model._neighbours import GraphInputs, HammingInputs
from relations.model._products import ProductChannel, ProductPrior
from relations.numbers._enclosure import display_float
from relations.numbers._reals import ArbExpr, Log, Rational, log_combination

__all__ = ["min_entropy_leakage", "maximal_leakage", "cmi"]


def _factors(mech: Mechanism) -> list[tuple[Prior, Channel, int]]:
    """``(prior, channel, count)`` local problems whose values add up (one for a dense mechanism)."""
    if isinstance(mech.channel, ProductChannel):
        prior = mech.prior
        assert isinstance(prior, ProductPrior)
        return [(prior.factors[first], mech.channel.local, count) for first, count in factor_groups(prior).values()]
    return [(cast(Prior, mech.prior), mech.channel, 1)]  # a dense mechanism has a dense prior


def _exact(prior: Prior, channel: Channel) -> tuple[tuple[Fraction, ...], Sequence[Sequence[Fraction]]]:
    """The exact entries of a local problem of an exact mechanism."""
    assert prior.exact is not None and channel.exact is not None
    return prior.exact, channel.exact


def _ratio(mech: Mechanism, exact_fn, float_fn, name: str) -> NotionResult:
    if not mech.exact:
        total = sum(c * float_fn(p.array, w.array) for p, w, c in _factors(mech))
        return NotionResult(name, Rational(Fraction(float(total))))
    # sum_j c_j ln(q_j): one logarithm of a rational while small, an exact linear form in logarithms
    # when the powers q_j^c_j would be too large to write (a product form on millions of records)
    return NotionResult(name, log_combination([(Fraction(c), exact_fn(p.exact, w.exact)) for p, w, c in _factors(mech)],
                                              name))


def _min_entropy(prior, rows) -> Fraction:
    m = len(rows[0])
    top = sum((max(px * row[y] for px, row in zip(prior, rows)) for y in range(m)), Fraction(0))
    return top / max(prior)


def _min_entropy_float(prior: np.ndarray, q: np.ndarray) -> float:
    return float(np.log((prior[:, None] * q).max(axis=0).sum() / prior.max()))


def _maximal(prior, rows) -> Fraction:
    support = [row for px, row in zip(prior, rows) if px]
    return sum((max(row[y] for row in support) for y in range(len(rows[0]))), Fraction(0))


def _maximal_float(prior: np.ndarray, q: np.ndarray) -> float:
    return float(np.log(q[prior > 0].max(axis=0).sum()))


def min_entropy_leakage(mech: Mechanism, *, name: str = "min_entropy_leakage") -> NotionResult:
    """Min-entropy leakage ``ln( sum_y max_x p(x)Q[x][y] / max_x p(x) )``: ``ln`` of an exact rational.

    Parameters
    ----------
    mech : Mechanism
        Any mechanism; the neighbour relation plays no part.  A product form adds its records'
        leakages (module docstring).
    name : str, optional
        The name of the result.

    Returns
    -------
    NotionResult
        A :class:`~relations.numbers.Log` (a float :class:`~relations.numbers.Rational` in float
        mode), no witness.

    References
    ----------
    .. [1] Smith. On the Foundations of Quantitative Information Flow. FoSSaCS 2009, LNCS 5504,
       pp. 288-302. doi:10.1007/978-3-642-00596-1_21

    Examples
    --------
    The paper's example with prior ``(19/20, 1/20)``: the best guess is always the first input,
    ``(19/20)(13/20) + (19/20)(7/20) = 19/20``, so nothing leaks; under the uniform prior
    ``ln(2 * 13/20)``:

    >>> from relations.mechanisms import paper_example
    >>> str(min_entropy_leakage(paper_example(["19/20", "1/20"])).value)
    '0'
    >>> str(min_entropy_leakage(paper_example(["1/2", "1/2"])).value)
    'ln(13/10)'
    """
    return _ratio(mech, _min_entropy, _min_entropy_float, name)


def maximal_leakage(mech: Mechanism, *, name: str = "maximal_leakage") -> NotionResult:
    """Maximal leakage ``ln sum_y max_{x : p(x) > 0} Q[x][y]``: ``ln`` of an exact rational.

    Parameters
    ----------
    mech : Mechanism
        Any mechanism; only the prior's support matters (a product form as for :func:`min_entropy_leakage`).
    name : str, optional
        The name of the result.

    Returns
    -------
    NotionResult
        As for :func:`min_entropy_leakage`.

    References
    ----------
    .. [1] Issa, Wagner, Kamath. An Operational Approach to Information Leakage. IEEE Trans.
       Inf. Theory 66(3), 2020, pp. 1625-1657. doi:10.1109/TIT.2019.2935768

    Examples
    --------
    >>> from relations.mechanisms import paper_example, product, randomized_response
    >>> str(maximal_leakage(paper_example(["19/20", "1/20"])).value)
    'ln(13/10)'
    >>> str(maximal_leakage(product(randomized_response(3), 3)).value)  # (3/2)^3
    'ln(27/8)'
    """
    return _ratio(mech, _maximal, _maximal_float, name)


def _fibres(mech: Mechanism, j: int) -> list[list[int]]:
    space = mech.inputs
    assert isinstance(space, HammingInputs)
    return [list(space.members(j, c)) for c in range(space.k ** (space.records - 1))]


def _cmi_float(prior: np.ndarray, q: np.ndarray, k: int, r: int, j: int) -> float:
    """``I(X_j; Y | X_{-j})`` in float64 for ``D^r`` (``k^r`` rows)."""
    m = q.shape[1]
    p = prior.reshape(k**j, k, -1)
    joint = p[..., None] * q.reshape(k**j, k, -1, m)
    marg = joint.sum(axis=1, keepdims=True) / np.maximum(p.sum(axis=1, keepdims=True)[..., None], 1e-300)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(joint > 0, joint * (np.log(q.reshape(joint.shape)) - np.log(marg)), 0.0)
    return max(float(terms.sum()), 0.0)


def cmi(mech: Mechanism, *, name: str = "cmi") -> NotionResult:
    """Per-record conditional mutual information ``max_i I(X_i; Y | X_{-i})`` in nats, certified.

    Parameters
    ----------
    mech : Mechanism
        A local mechanism (``I(X;Y)``), ``D^r`` (dense or product form); float mode too.
    name : str, optional
        The name of the result.

    Returns
    -------
    NotionResult
        An enclosure (exact ``0`` when every fibre's rows with positive prior are equal; exact
        tie-breaker against ``ln(r)`` locally and for product forms); ``detail`` names the record.

    Raises
    ------
    InputError
        For an explicit neighbour graph, which has no records.

    References
    ----------
    .. [1] Cuff, Yu. Differential Privacy as a Mutual Information Constraint. ACM CCS 2016,
       pp. 43-54. doi:10.1145/2976749.2978308

    Examples
    --------
    Two records, each through binary randomized response with ratio 3, uniform prior: each
    record's ``I(X_i; Y_i) = ln 2 - H(3/4)``, the same dense or as a product form:

    >>> from relations.mechanisms import product, randomized_response
    >>> m = product(randomized_response(3), 2)
    >>> a, b = cmi(m).value.enclose(40), cmi(m.dense()).value.enclose(40)
    >>> round(float(a[0]), 9), round(float(b[0]), 9), cmi(m).detail
    (0.130812036, 0.130812036, 'record 0')
    """
    if isinstance(mech.inputs, GraphInputs):
        from relations.measures._notions import NO_RECORDS

        raise InputError(f"cmi is not defined here: {NO_RECORDS}")
    if isinstance(mech.channel, ProductChannel):
        parts = _factors(mech)
        w = mech.channel.local
        records = [first for first, _ in factor_groups(mech.prior).values()]  # type: ignore[arg-type]
        if not mech.exact:
            from relations.measures._information import mutual_information_float

            vals = [mutual_information_float(p.array, w.array) for p, _, _ in parts]
            i = int(np.argmax(vals))
            return NotionResult(name, Rational(Fraction(vals[i])), None, f"record {records[i]}")
        problems = [_exact(p, w) for p, _, _ in parts]
    elif isinstance(mech.inputs, HammingInputs) and mech.inputs.records > 1:
        k, r = mech.inputs.k, mech.inputs.records
        if not mech.exact:
            vals = [_cmi_float(cast(Prior, mech.prior).array, mech.channel.array, k, r, j) for j in range(r)]
            i = int(np.argmax(vals))
            return NotionResult(name, Rational(Fraction(vals[i])), None, f"record {i}")
        return _dense_cmi(mech, name)
    else:
        prior = cast(Prior, mech.prior)  # a dense mechanism has a dense prior
        if not mech.exact:
            from relations.measures._information import mutual_information_float

            return NotionResult(name, Rational(Fraction(mutual_information_float(prior.array,
                                                                                   mech.channel.array))),
                                None, "record 0")
        problems = [_exact(prior, mech.channel)]
        records = [0]
    if all(independent(p, rows) for p, rows in problems):
        return NotionResult(name, Rational(Fraction(0)), None, f"record {records[0]}")

    def enclose(bits: int):
        ends = [mutual_information(p, rows, bits) for p, rows in problems]
        return max(e.lower for e in ends), max(e.upper for e in ends)

    def tie(other):
        if isinstance(other, Log) and other.log.is_finite:
            signs = [compare_with_log(p, rows, other.log.ratio) for p, rows in problems]
            if 1 in signs:
                return 1
            return None if None in signs else max(signs)
        return 1 if isinstance(other, Rational) and other.value == 0 else None

    first = [mutual_information(p, rows, 64) for p, rows in problems]
    i = max(range(len(first)), key=lambda t: first[t].lower)
    return NotionResult(name, ArbExpr("cmi", first[i].midpoint, enclose, tie), None, f"record {records[i]}")


def _dense_cmi(mech: Mechanism, name: str) -> NotionResult:
    """``max_j sum_c p(c) I(X_j; Y | c)`` over the fibres of ``D^r``, exactly enclosed."""
    prior, rows, r = mech.prior.exact, mech.channel.exact, mech.inputs.records  # type: ignore[union-attr]
    assert prior is not None and rows is not None  # exact mode
    per_record = []
    for j in range(r):
        parts = []
        for fibre in _fibres(mech, j):
            weight = sum((prior[x] for x in fibre), Fraction(0))
            if weight:
                cond = [prior[x] / weight for x in fibre]
                sub = [rows[x] for x in fibre]
                if not independent(cond, sub):
                    parts.append((weight, cond, sub))
        per_record.append(parts)
    if not any(per_record):
        return NotionResult(name, Rational(Fraction(0)), None, "record 0")

    def record_enclosure(parts, bits: int) -> tuple[Fraction, Fraction]:
        lo = hi = Fraction(0)
        for weight, cond, sub in parts:
            e = mutual_information(cond, sub, bits + 2)
            lo, hi = lo + weight * e.lower, hi + weight * e.upper
        return lo, hi

    cache: dict = {}

    def enclose(bits: int):
        if bits not in cache:
            ends = [record_enclosure(parts, bits) for parts in per_record]
            cache[bits] = (max(e[0] for e in ends), max(e[1] for e in ends))
        return cache[bits]

    first = [record_enclosure(parts, 64) for parts in per_record]
    i = max(range(r), key=lambda t: first[t][0])
    lo, hi = enclose(64)
    return NotionResult(name, ArbExpr("cmi", display_float((lo + hi) / 2), enclose,
                                      lambda other: 1 if isinstance(other, Rational) and other.value == 0 else None),
                        None, f"record {i}")
