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

Each constructor checks its parameters and the size of the exact channel (its entries
have up to ``n`` times the bits of ``t``) before building it (:mod:`relations.mechanisms._limits`).
"""

from __future__ import annotations

from fractions import Fraction

from relations.errors import InputError
from relations.mechanisms._budgets import EpsLike, ratio_of
from relations.mechanisms._limits import bits, check_pairs, check_size, power_bits, whole
from relations.mechanisms._local import PriorLike, _prior
from relations.model._mechanism import Mechanism
from relations.numbers._text import RationalLike

__all__ = ["truncated_geometric", "folded_geometric", "staircase"]


def _check(what: str, n: int, t: Fraction, entry_bits: float, total_bits: float) -> None:
    check_size(what, f"n = {n} and ratio {t}" if bits(t) <= 64 else f"n = {n} and this ratio", n * n, entry_bits,
               total_bits)


def _range_mechanism(rows, delta: int, prior, cyclic: bool = False) -> Mechanism:
    n = len(rows)
    edges = [(i, j) for i in range(n) for j in range(i + 1, n)
             if (min(j - i, n - (j - i)) if cyclic else j - i) <= delta]
    return Mechanism.graph(rows, edges, prior=_prior(prior, n), inputs=_labels(n), outputs=_labels(n))


def _labels(n: int) -> tuple[str, ...]:
    return tuple(str(i) for i in range(n))


def truncated_geometric(n: int, ratio: RationalLike | None = None, *, eps: EpsLike | None = None,
                        prior: PriorLike = None) -> Mechanism:
    """The truncated geometric mechanism on ``{0..n-1}`` with neighbours ``|x - x'| = 1``.

    Parameters
    ----------
    n : int
        Range size.
    ratio, eps : Fraction, int, float or str
        ``t = e^eps >= 1``; ``alpha = 1/t``, or keyword-only ``eps``: ``"ln(3)"`` or a number
        (:mod:`~relations.mechanisms._budgets`).
    prior : "uniform" or sequence, optional

    Returns
    -------
    Mechanism
        Central, explicit path neighbours, ``eps_d = ln t``.

    Raises
    ------
    InputError
        If ``n < 1``, ``ratio < 1``, the channel is too large or the prior has the wrong length.

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
    n = whole(n, "n", 1)
    t = ratio_of(ratio, eps)
    w, b = power_bits(t), 2 * bits(t) + 4  # an entry t^-d c has about d w + b bits
    _check("truncated_geometric", n, t, n * w + b, w * (n**3 - n) / 3 + n * n * b)
    a = 1 / t
    edge = [a**d / (1 + a) for d in range(n)]  # each distinct entry once
    inside = [(1 - a) / (1 + a) * a**d for d in range(n)]
    rows = [[(edge if y in (0, n - 1) else inside)[abs(y - x)] for y in range(n)] for x in range(n)]
    if n == 1:
        rows = [[Fraction(1)]]
    return _range_mechanism(rows, 1, prior)



def folded_geometric(n: int, ratio: RationalLike | None = None, *, eps: EpsLike | None = None,
                     prior: PriorLike = None) -> Mechanism:
    """Two-sided geometric noise reflected into ``{0..n-1}``; neighbours ``|x - x'| = 1``; ``eps_d <= ln t``.

    ``Q[x][y] = c (S(y-x) + S(-1-y-x))`` with ``alpha = 1/t``, ``c = (1-alpha)/(1+alpha)`` and
    ``S(d) = sum_j alpha^|d + 2nj|`` in closed form.  A post-processing of ``ln t``-DP noise,
    so ``eps_d <= ln t`` (strictly, in the example below).

    Parameters
    ----------
    n, ratio, eps, prior
        As for :func:`truncated_geometric`.

    Returns
    -------
    Mechanism
        Central, explicit path neighbours.

    Raises
    ------
    InputError
        If ``ratio < 1`` or the prior has the wrong length.

    Notes
    -----
    At ``ratio = 1`` (``eps = 0``) the noise has no scale; the channel is then its limit as
    ``t -> 1``, every row uniform (``eps_d = 0``).

    Examples
    --------
    >>> from relations import measure
    >>> m = folded_geometric(3, 2)
    >>> m.channel.exact[0], str(measure(m).eps_d.exact)
    ((Fraction(11, 21), Fraction(2, 7), Fraction(4, 21)), 'ln(11/6)')
    """
    n = whole(n, "n", 1)
    t = ratio_of(ratio, eps)
    top = 4 * n * power_bits(t) + 2 * bits(t) + 8  # the denominator 1 - t^-2n, twice
    _check("folded_geometric", n, t, top, n * n * top)
    if t == 1:  # the limit t -> 1: the noise spreads evenly over the range
        return _range_mechanism([[Fraction(1, n)] * n for _ in range(n)], 1, prior)
    a = 1 / t
    c = (1 - a) / (1 + a)
    period = 2 * n
    whole_period = 1 - a**period
    s = [(a**d0 + a ** (period - d0)) / whole_period for d0 in range(period)]  # sum over j of a^|d0 + 2nj|
    rows = [[c * (s[(y - x) % period] + s[(-1 - y - x) % period]) for y in range(n)] for x in range(n)]
    return _range_mechanism(rows, 1, prior)



def staircase(n: int, ratio: RationalLike | None = None, *, eps: EpsLike | None = None, delta: int = 1, width: int = 1,
              prior: PriorLike = None) -> Mechanism:
    """Cyclic discrete staircase on ``{0..n-1}``: ``Q[x][y] ∝ t^-s(d)``; neighbours at cyclic distance ``<= delta``.

    ``d = min(|y-x|, n-|y-x|)``; ``s(d) = 0`` for ``d < width``, else ``1 + floor((d - width)/delta)``.

    Parameters
    ----------
    n : int
        Range size.
    ratio, eps : Fraction, int, float or str
        ``t = e^eps >= 1``, or keyword-only ``eps``: ``"ln(3)"`` or a number
        (:mod:`~relations.mechanisms._budgets`).
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
    n = whole(n, "n", 1)
    delta = whole(delta, "delta", 1)
    width = whole(width, "width", 1)
    t = ratio_of(ratio, eps)
    if width > delta:
        raise InputError(f"mechanism parameter 'width': staircase needs 1 <= width <= delta, got width = {width} "
                         f"with delta = {delta}")

    def steps(d: int) -> int:
        return 0 if d < width else 1 + (d - width) // delta

    pairs = sum(n // 2 if 2 * d == n else n for d in range(1, min(delta, n // 2) + 1))
    check_pairs("staircase", f"n = {n}, delta = {delta}", pairs, n)
    top = 2 * steps(n // 2) * power_bits(t) + 2 * bits(t) + n.bit_length()
    _check("staircase", n, t, top, n * n * top)
    weights = [t ** -steps(min(d, n - d)) for d in range(n)]
    total = sum(weights)
    entries = [w / total for w in weights]  # each distinct entry once
    rows = [[entries[(y - x) % n] for y in range(n)] for x in range(n)]
    return _range_mechanism(rows, delta, prior, cyclic=True)

