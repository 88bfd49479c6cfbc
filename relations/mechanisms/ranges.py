"""Mechanisms on counting ranges ``{0, ..., n-1}``: central, explicit neighbours ``|x - x'| <= Delta``.

* :func:`truncated_geometric` -- Ghosh, Roughgarden, Sundararajan 2009:
  ``alpha = 1/t``, ``Q[x][y] = (1-alpha)/(1+alpha) alpha^|y-x|`` inside,
  ``alpha^|y-x| / (1+alpha)`` at the two ends; ``eps_d = ln t`` for ``Delta = 1``;
* :func:`folded_geometric` -- the two-sided geometric noise reflected back into
  the range (``-1 -> 0``, ``n -> n-1``, period ``2n``); in closed form
  ``Q[x][y] = c (S(y-x) + S(-1-y-x))`` with ``S(d) = sum_j alpha^|d + 2nj|``; a
  post-processing of the ``ln t``-DP two-sided geometric noise, so ``eps_d <= ln t``;
* :func:`staircase` -- a discrete, cyclic staircase (Geng and Viswanath 2014):
  ``Q[x][y] ∝ t^-s(d)``, ``d`` the cyclic distance, ``s(d) = 0`` for
  ``d < w`` and ``1 + floor((d - w)/Delta)`` beyond; ``eps_d <= ln t`` for
  neighbours at cyclic distance ``<= Delta``, with equality once the range has a
  step (``floor(n/2) >= w``).
"""

from __future__ import annotations

from fractions import Fraction

from relations.errors import InputError
from relations.mechanisms.local import PriorLike, _prior, _ratio
from relations.model.mechanism import Mechanism
from relations.numbers.text import RationalLike

__all__ = ["truncated_geometric", "folded_geometric", "staircase"]


def _range_mechanism(rows, delta: int, prior, name: str, cyclic: bool = False) -> Mechanism:
    n = len(rows)
    edges = [(i, j) for i in range(n) for j in range(i + 1, n)
             if (min(j - i, n - (j - i)) if cyclic else j - i) <= delta]
    return Mechanism.graph(rows, edges, prior=_prior(prior, n), inputs=_labels(n), outputs=_labels(n))


def _labels(n: int) -> tuple[str, ...]:
    return tuple(str(i) for i in range(n))


def truncated_geometric(n: int, ratio: RationalLike, *, prior: PriorLike = None) -> Mechanism:
    """The truncated geometric mechanism on ``{0..n-1}`` with neighbours ``|x - x'| = 1``.

    Parameters
    ----------
    n : int
        Range size.
    ratio : Fraction, int, float or str
        ``t = e^eps >= 1``; ``alpha = 1/t``.
    prior : "uniform" or sequence, optional

    Returns
    -------
    Mechanism
        Central, explicit path neighbours, ``eps_d = ln t``.

    Raises
    ------
    InputError
        If ``ratio < 1`` or the prior has the wrong length.

    References
    ----------
    .. [1] Ghosh, Roughgarden, Sundararajan. Universally utility-maximizing privacy
       mechanisms. STOC 2009. doi:10.1145/1536414.1536464

    Examples
    --------
    >>> from relations import measure
    >>> str(measure(truncated_geometric(5, 2)).eps_d.exact)
    'ln(2)'
    """
    t = _ratio(ratio)
    a = 1 / t
    rows = []
    for x in range(n):
        row = []
        for y in range(n):
            edge = y in (0, n - 1)
            row.append(a ** abs(y - x) / (1 + a) if edge and n > 1 else (1 - a) / (1 + a) * a ** abs(y - x))
        rows.append(row)
    if n == 1:
        rows = [[Fraction(1)]]
    return _range_mechanism(rows, 1, prior, f"truncated geometric n={n}, ratio {ratio}")



def folded_geometric(n: int, ratio: RationalLike, *, prior: PriorLike = None) -> Mechanism:
    """Two-sided geometric noise reflected into ``{0..n-1}``; neighbours ``|x - x'| = 1``; ``eps_d <= ln t``.

    ``Q[x][y] = c (S(y-x) + S(-1-y-x))`` with ``alpha = 1/t``, ``c = (1-alpha)/(1+alpha)`` and
    ``S(d) = sum_j alpha^|d + 2nj|`` in closed form.  A post-processing of ``ln t``-DP noise,
    so ``eps_d <= ln t`` (strictly, in the example below).

    Parameters
    ----------
    n : int
        Range size.
    ratio : Fraction, int, float or str
        ``t = e^eps >= 1``.
    prior : "uniform" or sequence, optional

    Returns
    -------
    Mechanism
        Central, explicit path neighbours.

    Raises
    ------
    InputError
        If ``ratio < 1`` or the prior has the wrong length.

    Examples
    --------
    >>> from relations import measure
    >>> m = folded_geometric(3, 2)
    >>> m.channel.exact[0], str(measure(m).eps_d.exact)
    ((Fraction(11, 21), Fraction(2, 7), Fraction(4, 21)), 'ln(11/6)')
    """
    t = _ratio(ratio)
    a = 1 / t
    c = (1 - a) / (1 + a)
    period = 2 * n

    def s(d: int) -> Fraction:  # sum over j of a^|d + 2nj|
        d0 = d % period
        return (a ** d0 + a ** (period - d0)) / (1 - a ** period)

    rows = [[c * (s(y - x) + s(-1 - y - x)) for y in range(n)] for x in range(n)]
    return _range_mechanism(rows, 1, prior, f"folded geometric n={n}, ratio {ratio}")



def staircase(n: int, ratio: RationalLike, *, delta: int = 1, width: int = 1, prior: PriorLike = None) -> Mechanism:
    """Cyclic discrete staircase on ``{0..n-1}``: ``Q[x][y] ∝ t^-s(d)``; neighbours at cyclic distance ``<= delta``.

    ``d = min(|y-x|, n-|y-x|)``; ``s(d) = 0`` for ``d < width``, else ``1 + floor((d - width)/delta)``.

    Parameters
    ----------
    n : int
        Range size.
    ratio : Fraction, int, float or str
        ``t = e^eps >= 1``.
    delta : int, optional
        The sensitivity: inputs at cyclic distance ``<= delta`` are neighbours.
    width : int, optional
        The width of the first step, ``1 <= width <= delta``.
    prior : "uniform" or sequence, optional

    Returns
    -------
    Mechanism
        Central, explicit neighbours; ``eps_d <= ln t``, with equality once ``floor(n/2) >= width``.

    Raises
    ------
    InputError
        If ``ratio < 1``, ``width`` is out of range or the prior has the wrong length.

    References
    ----------
    .. [1] Geng, Viswanath. The optimal mechanism in differential privacy. ISIT 2014.
       arXiv:1212.1186

    Examples
    --------
    >>> from relations import measure
    >>> m = staircase(8, 3, delta=2, width=2)
    >>> m.channel.exact[0], str(measure(m).eps_d.exact)
    ((Fraction(9, 40), Fraction(9, 40), Fraction(3, 40), Fraction(3, 40), Fraction(1, 40), Fraction(3, 40), \
Fraction(3, 40), Fraction(9, 40)), 'ln(3)')
    """
    t = _ratio(ratio)
    if not (1 <= width <= delta):
        raise InputError("staircase needs 1 <= width <= delta")

    def steps(d: int) -> int:
        return 0 if d < width else 1 + (d - width) // delta

    weights = [t ** -steps(min(d, n - d)) for d in range(n)]
    total = sum(weights)
    rows = [[weights[(y - x) % n] / total for y in range(n)] for x in range(n)]
    return _range_mechanism(rows, delta, prior, f"staircase n={n}, ratio {ratio}, delta {delta}", cyclic=True)

