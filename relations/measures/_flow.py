"""Quantitative information flow under the prior: pointwise maximal leakage and Bayes vulnerability, exactly.

With prior ``p`` and channel ``Q`` (``p(y) = sum_x p(x) Q[x][y]``):

* ``pml = max_{y : p(y) > 0} ln( max_{x : p(x) > 0} Q[x][y] / p(y) )``, the largest pointwise maximal
  leakage ``l(X -> y)`` over the outputs (Saeidian, Cervia, Oechtering, Skoglund 2023): ``ln`` of an exact
  rational, in nats;
* ``prior_vulnerability = V(pi) = max_x p(x)`` and ``bayes_vulnerability = V(pi, C) = sum_y max_x p(x) Q[x][y]``,
  the chances of guessing ``X`` in one try without and with the output (Alvim et al. 2020), and the additive
  ``bayes_leakage = V(pi, C) - V(pi)``: exact rationals, *probabilities*, not nats.  ``min_entropy_leakage`` is
  ``ln(V(pi, C) / V(pi))``.

None depends on the neighbour relation.  For a product form (independent records, a product prior) every
maximum and sum factorises over the records: ``pml`` adds over them, and both vulnerabilities multiply
(``V = prod_j V_j``; an enclosure of ``exp(sum_j ln V_j)`` when the product is too long to write).  Central
mechanisms take ``X`` to be the whole dataset, as ``eps_m`` does.  Float mode reports floats as
:class:`~relations.numbers.Rational`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from relations.measures._leakage import _factors, _ratio
from relations.measures._pairs import NotionResult
from relations.model._mechanism import Mechanism
from relations.numbers._enclosure import ball, display_float, interval, working_precision
from relations.numbers._logs import MAX_POWER_BITS, power_bits
from relations.numbers._reals import ArbExpr, Rational, Real

__all__ = ["pml", "prior_vulnerability", "bayes_vulnerability", "bayes_leakage"]


def _pml(prior, rows) -> Fraction:
    support = [row for px, row in zip(prior, rows) if px]
    best = Fraction(0)
    for y in range(len(rows[0])):
        py = sum((px * row[y] for px, row in zip(prior, rows)), Fraction(0))
        if py:
            best = max(best, max(row[y] for row in support) / py)
    return best


def _pml_float(prior: np.ndarray, q: np.ndarray) -> float:
    py = prior @ q
    top = q[prior > 0].max(axis=0)
    return float(np.log((top[py > 0] / py[py > 0]).max()))


def pml(mech: Mechanism, *, name: str = "pml") -> NotionResult:
    """The largest pointwise maximal leakage over the outputs: ``ln`` of an exact rational.

    ``pml = max over y with p(y) > 0 of ln( max_{x : p(x) > 0} Q[x][y] / p(y) )``; always
    ``maximal_leakage <= pml <= eps_all`` (``docs/notion-inequalities.md``).

    Parameters
    ----------
    mech : Mechanism
        Any mechanism; the neighbour relation plays no part.  A product form adds its records' values.
    name : str, optional
        The name of the result.

    Returns
    -------
    NotionResult
        A :class:`~relations.numbers.Log` (a float :class:`~relations.numbers.Rational` in float mode).

    References
    ----------
    .. [1] Saeidian, Cervia, Oechtering, Skoglund. Pointwise Maximal Leakage. IEEE Trans. Inf. Theory,
       2023. doi:10.1109/TIT.2022.3203579

    Examples
    --------
    Binary randomized response with ratio 3, prior ``(3/4, 1/4)``: ``p(y) = (5/8, 3/8)``, so the outputs give
    ``(3/4)/(5/8) = 6/5`` and ``(3/4)/(3/8) = 2``:

    >>> from relations.model import Mechanism
    >>> str(pml(Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]], prior=["3/4", "1/4"])).value)
    'ln(2)'
    """
    return _ratio(mech, _pml, _pml_float, name)


def _power_real(terms: list[tuple[int, Fraction]], text: str) -> Real:
    """``prod_j q_j^(c_j)`` for rationals ``0 < q_j <= 1``: a :class:`Rational` while short, else an enclosure."""
    if sum(power_bits(q, c) for c, q in terms) <= MAX_POWER_BITS:
        out = Fraction(1)
        for c, q in terms:
            out *= q**c
        return Rational(out)

    def enclose(bits: int):
        extra = max(c for c, _ in terms).bit_length() + 40
        with working_precision(bits + extra + 32):
            total = ball(Fraction(0))
            for c, q in terms:
                total += ball(q).log() * c
            if interval(total)[1] < -(bits + 2):  # below 2^-(bits + 2): a short enclosure (ln 2 < 1)
                return Fraction(0), Fraction(1, 2 ** (bits + 2))
            return interval(total.exp())

    approx = math.exp(sum(c * (math.log(q.numerator) - math.log(q.denominator)) for c, q in terms))
    return ArbExpr(text, approx, enclose, _positive)


def _positive(other) -> int | None:
    """The tie-breaker of a positive real: above ``0`` (its enclosure may not separate from 0 when tiny)."""
    return 1 if isinstance(other, Rational) and other.value == 0 else None


def _vulnerability(mech: Mechanism, per_factor, float_fn, name: str) -> NotionResult:
    parts = _factors(mech)
    if not mech.exact:
        value = 1.0
        for p, w, c in parts:
            value *= float_fn(np.asarray(p.array, dtype=float), np.asarray(w.array, dtype=float)) ** c
        return NotionResult(name, Rational(Fraction(value)))
    return NotionResult(name, _power_real([(c, per_factor(p.exact, w.exact)) for p, w, c in parts], name))


def _prior_v(prior, rows) -> Fraction:
    return max(prior)


def _posterior_v(prior, rows) -> Fraction:
    return sum((max(px * row[y] for px, row in zip(prior, rows)) for y in range(len(rows[0]))), Fraction(0))


def prior_vulnerability(mech: Mechanism, *, name: str = "prior_vulnerability") -> NotionResult:
    """Prior Bayes vulnerability ``V(pi) = max_x p(x)``: an exact rational, a probability.

    Parameters
    ----------
    mech : Mechanism
        Any mechanism (only its prior matters); a product form multiplies its records' values.
    name : str, optional
        The result's name (by default the notion's).

    Returns
    -------
    NotionResult
        A :class:`~relations.numbers.Rational` (an enclosure for a product too long to write).

    References
    ----------
    .. [1] Alvim, Chatzikokolakis, McIver, Morgan, Palamidessi, Smith. The Science of Quantitative Information
       Flow. Springer 2020. doi:10.1007/978-3-319-96131-6

    Examples
    --------
    >>> from relations.mechanisms import paper_example
    >>> str(prior_vulnerability(paper_example(["19/20", "1/20"])).value)
    '19/20'
    """
    return _vulnerability(mech, _prior_v, lambda p, q: float(p.max()), name)


def bayes_vulnerability(mech: Mechanism, *, name: str = "bayes_vulnerability") -> NotionResult:
    """Posterior Bayes vulnerability ``V(pi, C) = sum_y max_x p(x) Q[x][y]``: an exact rational, a probability.

    Parameters, Returns and References as for :func:`prior_vulnerability`; the channel counts here too.

    Examples
    --------
    Binary randomized response with ratio 3, uniform prior: ``(1/2)(3/4) + (1/2)(3/4) = 3/4``.

    >>> from relations.mechanisms import randomized_response
    >>> str(bayes_vulnerability(randomized_response(3)).value)
    '3/4'
    """
    return _vulnerability(mech, _posterior_v, lambda p, q: float((p[:, None] * q).max(axis=0).sum()), name)


def bayes_leakage(mech: Mechanism, *, name: str = "bayes_leakage") -> NotionResult:
    """Additive Bayes leakage ``V(pi, C) - V(pi)``: an exact rational in ``[0, 1)``, a difference of probabilities.

    Parameters, Returns and References as for :func:`prior_vulnerability` (a product form: the difference of
    its products).

    Examples
    --------
    Binary randomized response with ratio 3, uniform prior: ``3/4 - 1/2``.

    >>> from relations.mechanisms import randomized_response
    >>> str(bayes_leakage(randomized_response(3)).value)
    '1/4'
    """
    post = bayes_vulnerability(mech).value
    prior = prior_vulnerability(mech).value
    if isinstance(post, Rational) and isinstance(prior, Rational):
        return NotionResult(name, Rational(post.value - prior.value))
    # a product too long to write: V(pi, C) >= V(pi) record by record, so the products are equal iff every
    # record's are, and the leakage is 0 exactly then, positive otherwise
    if all(_posterior_v(p.exact, w.exact) == _prior_v(p.exact, w.exact) for p, w, _ in _factors(mech)):
        return NotionResult(name, Rational(Fraction(0)))

    def enclose(bits: int):
        alo, ahi = post.enclose(bits + 2)
        blo, bhi = prior.enclose(bits + 2)
        return alo - bhi, ahi - blo

    return NotionResult(name, ArbExpr(name, display_float(Fraction(float(post)) - Fraction(float(prior))), enclose,
                                      _positive))

