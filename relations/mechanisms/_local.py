"""Local mechanisms (every two values neighbours) with exact rational entries.

The privacy parameter is the rational ratio ``t = e^eps`` (``ratio``), so
``eps = ln t`` exactly; a uniform prior is used unless one is given.  Each
constructor's docstring states its channel and its privacy level (``eps_d = ln t``;
``eps_d <= 2 Delta_u ln b`` for the exponential mechanism), which the tests check
against the exact ``eps_d``:

* :func:`randomized_response` (Warner 1965) and :func:`krr`, k-ary randomized
  response or direct encoding (Kairouz, Oh, Viswanath 2016), both from :func:`krr_rows`;
* :func:`unary_encoding`: symmetric (SUE, basic RAPPOR) and optimised (OUE, Wang et al. 2017);
* :func:`subset_selection` (Wang et al. 2016; Ye and Barg 2018);
* :func:`hadamard_response` (Acharya, Sun, Zhang 2019);
* :func:`exponential` (McSherry and Talwar 2007) and :func:`utility_sensitivity`;
* :func:`product`: the central version of a local mechanism, ``r`` records in product form.

Each constructor checks its parameters and the size of the exact channel before building
it (:mod:`relations.mechanisms._limits`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, cast

from relations.errors import InputError
from relations.mechanisms._budgets import EpsLike, ratio_of
from relations.mechanisms._limits import bits, check_size, power_bits, square_root, whole
from relations.mechanisms._limits import ratio as _ratio
from relations.model._distributions import Prior
from relations.model._mechanism import Mechanism
from relations.model._neighbours import LocalInputs
from relations.model._products import ProductPrior
from relations.numbers._text import RationalLike

#: A prior handed to a named mechanism: ``None`` or ``"uniform"`` (uniform), or one probability per input.
PriorLike = str | Sequence[RationalLike] | None

__all__ = ["PriorLike", "krr_rows", "randomized_response", "krr", "unary_encoding", "subset_selection", "hadamard_response", "exponential", "utility_sensitivity", "product"]


def _q(v) -> Fraction:
    return v if isinstance(v, Fraction) else Fraction(v)


def _prior(prior, n: int):
    """The prior handed to a constructor: ``"uniform"`` by default, else validated there."""
    if prior is None or (isinstance(prior, str) and prior == "uniform"):
        return "uniform"
    if len(prior) != n:
        raise InputError(f"prior has {len(prior)} entries, the mechanism {n} inputs")
    return [_q(v) for v in prior]


def _local(rows, prior=None, inputs=None, outputs=None) -> Mechanism:
    return Mechanism.local(rows, prior=_prior(prior, len(rows)), inputs=inputs, outputs=outputs)


def krr_rows(k: int, t: Any) -> list[list[Any]]:
    """The k-RR matrix ``t/(t+k-1)`` on the diagonal, ``1/(t+k-1)`` elsewhere, in ``t``'s own arithmetic.

    Parameters
    ----------
    k : int
        Domain size.
    t : Fraction, float or sympy expression
        ``e^eps``: exact, float mode or closed forms -- the one definition serves all three.

    Examples
    --------
    >>> krr_rows(3, Fraction(2))
    [[Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(1, 2), Fraction(1, 4)], \
[Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]]
    """
    d = t + k - 1
    on, off = t / d, 1 / d  # two values, shared by every row
    return [[on if i == j else off for j in range(k)] for i in range(k)]


def randomized_response(ratio: RationalLike | None = None, *, eps: EpsLike | None = None, prior: PriorLike = None) -> Mechanism:
    """Warner's binary randomized response: the truth with probability ``t/(1+t)``.

    Parameters
    ----------
    ratio, eps : Fraction, int, float or str
        ``t = e^eps >= 1``, or keyword-only ``eps``: ``"ln(3)"`` or a number (:mod:`~relations.mechanisms._budgets`).
    prior : "uniform" or sequence, optional
        Uniform by default.

    Returns
    -------
    Mechanism
        Local, ``eps_d = ln t``.

    Raises
    ------
    InputError
        If ``ratio < 1`` or the prior is not a distribution.

    References
    ----------
    .. [1] Warner. Randomized response: a survey technique for eliminating evasive answer
       bias. JASA 60(309), 1965. doi:10.1080/01621459.1965.10480775

    Examples
    --------
    >>> from relations import measure
    >>> m = randomized_response(3)
    >>> m.channel.exact[0], str(measure(m).eps_d.exact)
    ((Fraction(3, 4), Fraction(1, 4)), 'ln(3)')
    """
    return _local(krr_rows(2, ratio_of(ratio, eps)), prior)


def krr(k: int, ratio: RationalLike | None = None, *, eps: EpsLike | None = None, prior: PriorLike = None) -> Mechanism:
    """k-ary randomized response (direct encoding): ``t/(t+k-1)`` on the diagonal, ``1/(t+k-1)`` elsewhere.

    Parameters
    ----------
    k : int
        Domain size, at least 2.
    ratio, eps, prior
        As for :func:`randomized_response`.

    Returns
    -------
    Mechanism
        Local, ``eps_d = ln t``; at ``k = 2``, :func:`randomized_response`.

    Raises
    ------
    InputError
        If ``k < 2`` or ``ratio < 1``.

    References
    ----------
    .. [1] Kairouz, Oh, Viswanath. Extremal mechanisms for local differential privacy.
       JMLR 17, 2016.

    Examples
    --------
    >>> from relations import measure
    >>> str(measure(krr(4, 3)).eps_d.exact), krr(4, 3).channel.exact[0][0]
    ('ln(3)', Fraction(1, 2))
    """
    k = whole(k, "k", 2)
    t = ratio_of(ratio, eps)
    check_size("krr", f"k = {k}", k * k, 2 * bits(t) + k.bit_length(), k * k * (2 * bits(t) + k.bit_length()))
    return _local(krr_rows(k, t), prior)


def unary_encoding(k: int, ratio: RationalLike | None = None, *, eps: EpsLike | None = None, optimized: bool = True,
                   prior: PriorLike = None) -> Mechanism:
    """Unary encoding: the one-hot vector of ``d``, each bit reported independently (``2^k`` outputs).

    OUE: the true bit stays 1 with ``p = 1/2``, every other bit is 1 with ``q = 1/(1+t)``.
    SUE: ``p = s/(1+s)``, ``q = 1/(1+s)`` with ``s = sqrt(t)`` (must be rational).

    Parameters
    ----------
    k : int
        Domain size.
    ratio, eps : Fraction, int, float or str
        ``t = e^eps``, or keyword-only ``eps``: ``"ln(3)"`` or a number (:mod:`~relations.mechanisms._budgets`).
    optimized : bool, optional
        OUE (default) or SUE.
    prior : "uniform" or sequence, optional

    Returns
    -------
    Mechanism
        Local, outputs labelled by bit strings, ``eps_d = ln t``.

    Raises
    ------
    InputError
        If the channel would exceed the dense limit, or SUE's ``sqrt(t)`` is irrational.

    References
    ----------
    .. [1] Wang, Blocki, Li, Jha. Locally differentially private protocols for frequency
       estimation. USENIX Security 2017.

    Examples
    --------
    >>> from relations import measure
    >>> m = unary_encoding(3, 3)
    >>> len(m.outputs), str(measure(m).eps_d.exact)
    (8, 'ln(3)')
    """
    k = whole(k, "k", 1)
    t = ratio_of(ratio, eps, square=not optimized)
    entry_bits = 2 * (k * (bits(t) + 1) + 1)
    entries = k * 2 ** min(k, 64)  # (a k beyond 64 is refused whatever its exact count)
    check_size("oue" if optimized else "sue", f"k = {k}", entries, entry_bits, entries * entry_bits)
    if optimized:
        p, q = Fraction(1, 2), 1 / (1 + t)
    else:
        s = square_root(t)
        p, q = s / (1 + s), 1 / (1 + s)
    # an entry is (p or 1-p for the true bit) * q^c (1-q)^(k-1-c), c the other ones: a table lookup
    others = [q**c * (1 - q) ** (k - 1 - c) for c in range(k)]
    outputs = ["".join(b) for b in itertools.product("01", repeat=k)]
    ones = [out.count("1") for out in outputs]
    with_one = [None] + [p * others[n - 1] for n in range(1, k + 1)]  # by the count n of ones (the true bit 1)
    with_zero = [(1 - p) * others[n] for n in range(k)]  # the true bit 0: n < k
    rows = [[with_one[n] if out[d] == "1" else with_zero[n] for out, n in zip(outputs, ones)] for d in range(k)]
    return _local(rows, prior, outputs=outputs)


def subset_selection(k: int, s: int, ratio: RationalLike | None = None, *, eps: EpsLike | None = None, prior: PriorLike = None) -> Mechanism:
    """``s``-subset selection: ``t/Z`` for subsets containing ``d``, ``1/Z`` otherwise.

    ``Z = C(k-1, s-1) t + C(k-1, s)``, so each row sums to one.

    Parameters
    ----------
    k : int
        Domain size.
    s : int
        Subset size, ``1 <= s < k``.
    ratio, eps : Fraction, int, float or str
        ``t = e^eps``, or keyword-only ``eps``: ``"ln(3)"`` or a number (:mod:`~relations.mechanisms._budgets`).
    prior : "uniform" or sequence, optional

    Returns
    -------
    Mechanism
        Local, ``C(k, s)`` outputs, ``eps_d = ln t``.

    Raises
    ------
    InputError
        If ``s`` is out of range or the channel would exceed the dense limit.

    References
    ----------
    .. [1] Ye, Barg. Optimal schemes for discrete distribution estimation under locally
       differential privacy. IEEE Trans. Inf. Theory 64(8), 2018. doi:10.1109/TIT.2018.2809790

    Examples
    --------
    >>> from fractions import Fraction
    >>> from relations import measure
    >>> m = subset_selection(5, 2, Fraction(5, 2))
    >>> len(m.outputs), str(measure(m).eps_d.exact)
    (10, 'ln(5/2)')
    """
    k = whole(k, "k", 2)
    s = whole(s, "s", 1)
    if s >= k:
        raise InputError(f"mechanism parameter 's': subset selection needs 1 <= s < k, got s = {s} with k = {k}")
    t = ratio_of(ratio, eps)
    size = math.comb(k, s)
    entry_bits = 2 * bits(t) + size.bit_length() + 1
    check_size("subset", f"k = {k}, s = {s}", k * size, entry_bits, k * size * entry_bits)
    subsets = list(itertools.combinations(range(k), s))
    z = math.comb(k - 1, s - 1) * t + math.comb(k - 1, s)
    rows = [[(t if d in S else Fraction(1)) / z for S in subsets] for d in range(k)]
    outputs = ["{" + ",".join(map(str, S)) + "}" for S in subsets]
    return _local(rows, prior, outputs=outputs)


def hadamard_response(k: int, ratio: RationalLike | None = None, *, eps: EpsLike | None = None, prior: PriorLike = None) -> Mechanism:
    """Hadamard response: ``2t/(K(1+t))`` on ``C_d``, ``2/(K(1+t))`` on the other outputs.

    ``K = 2^ceil(log2(k+1))``; ``C_d`` is where row ``d+1`` of the Sylvester-Hadamard matrix is ``+1``.

    Parameters
    ----------
    k : int
        Domain size.
    ratio, eps, prior
        As for :func:`randomized_response`.

    Returns
    -------
    Mechanism
        Local, ``K`` outputs labelled ``0 .. K-1``, ``eps_d = ln t``.

    Raises
    ------
    InputError
        As for :func:`randomized_response`.

    References
    ----------
    .. [1] Acharya, Sun, Zhang. Hadamard response: estimating distributions privately,
       efficiently, and with little communication. AISTATS 2019. arXiv:1802.04705

    Examples
    --------
    >>> from relations import measure
    >>> m = hadamard_response(3, 3)
    >>> len(m.outputs), m.channel.exact[0], str(measure(m).eps_d.exact)
    (4, (Fraction(3, 8), Fraction(1, 8), Fraction(3, 8), Fraction(1, 8)), 'ln(3)')
    """
    k = whole(k, "k", 1)
    t = ratio_of(ratio, eps)
    big = 1 << k.bit_length()  # the least power of two above k
    entry_bits = 2 * bits(t) + big.bit_length() + 2
    check_size("hadamard", f"k = {k}", k * big, entry_bits, k * big * entry_bits)

    def h(i: int, j: int) -> int:  # Sylvester-Hadamard entry: (-1)^popcount(i & j)
        return -1 if bin(i & j).count("1") % 2 else 1

    rows = [[(2 * t if h(d + 1, y) == 1 else Fraction(2)) / (big * (1 + t)) for y in range(big)] for d in range(k)]
    return _local(rows, prior)


def exponential(utility: Sequence[Sequence[int]], base: RationalLike, *, prior: PriorLike = None) -> Mechanism:
    """Exponential mechanism ``Q[x][y] ∝ b^u(x,y)`` for an integer utility; ``eps_d <= 2 Delta_u ln b``.

    Parameters
    ----------
    utility : sequence of sequences of int
        ``u(x, y)``, one row per input.
    base : Fraction, int, float or str
        ``b = e^(eps/(2 Delta_u)) >= 1``.
    prior : "uniform" or sequence, optional

    Returns
    -------
    Mechanism
        Local (every two inputs neighbours).

    Raises
    ------
    InputError
        If ``base < 1`` or the rows do not form a channel.

    References
    ----------
    .. [1] McSherry, Talwar. Mechanism design via differential privacy. FOCS 2007.
       doi:10.1109/FOCS.2007.66

    Examples
    --------
    >>> from relations import measure
    >>> u = [[2, 1, 0], [0, 1, 2]]
    >>> m = exponential(u, 2)  # Delta_u = 2, so eps_d <= 2 * 2 * ln 2 = ln 16
    >>> m.channel.exact[0], utility_sensitivity(u), str(measure(m).eps_d.exact)
    ((Fraction(4, 7), Fraction(2, 7), Fraction(1, 7)), 2, 'ln(4)')
    """
    b = _ratio(base, "base")
    if not utility or any(len(row) != len(utility[0]) or not row for row in utility):
        raise InputError("mechanism parameter 'utility': expected a matrix (a list of equal, non-empty rows)")
    spans = [max(row) - min(row) for row in utility]
    m = len(utility[0])
    w, extra = power_bits(b), 2 * bits(b) + m.bit_length()
    check_size("exponential", "this utility and base", len(utility) * m, 2 * max(spans) * w + extra,
               sum(m * (2 * span * w + extra) for span in spans))
    rows = []
    for urow in utility:
        low = min(urow)
        weights = [b ** (int(u) - low) for u in urow]  # relative to the row's least: the same row, smaller numbers
        total = sum(weights)
        rows.append([w / total for w in weights])
    return _local(rows, prior)


def utility_sensitivity(utility: Sequence[Sequence[int]]) -> int:
    """The sensitivity ``Delta_u = max |u(x,y) - u(x',y)|`` over all pairs ``x, x'`` (local) and ``y``.

    Parameters
    ----------
    utility : sequence of sequences of int
        ``u(x, y)``, one row per input.

    Returns
    -------
    int

    Examples
    --------
    >>> utility_sensitivity([[0, 1, 3], [1, 1, 0]])
    3
    """
    return max(abs(a[y] - b[y]) for a in utility for b in utility for y in range(len(a)))


def product(local: Mechanism, records: int, *,
            prior: str | ProductPrior | Sequence[Sequence[RationalLike]] | None = None) -> Mechanism:
    """The central version of a local mechanism: each of ``records`` records through its channel.

    Parameters
    ----------
    local : Mechanism
        A local mechanism; its inputs are the domain ``D``.
    records : int
        ``r >= 1``.
    prior : "uniform", ProductPrior or sequence of sequences, optional
        One local prior per record; by default the local prior on every record.

    Returns
    -------
    Mechanism
        Central on ``D^r`` (neighbours differ in one record), in product form (never expanded).

    Raises
    ------
    InputError
        If ``local`` is central or a prior is invalid.

    Examples
    --------
    >>> from relations import measure
    >>> m = product(randomized_response(3), 2)
    >>> m.inputs, str(measure(m).eps_d.exact)
    (HammingInputs(domain=('0', '1'), records=2), 'ln(3)')
    """
    if local.setting != "local":
        raise InputError("product() takes a local mechanism")
    if prior is None:
        prior = ProductPrior.repeated(cast(Prior, local.prior), records)  # one run: any number of records
    elif not isinstance(prior, (str, ProductPrior)):
        prior = [[_q(v) for v in p] for p in prior]
    return Mechanism.product(local.channel, records=records, prior=prior,
                             domain=cast(LocalInputs, local.inputs).labels, outputs=local.outputs)
