"""Witness mechanisms: non-implication constructions, simplification, files.

**Non-implications** ("MI privacy does not imply identifiability / DP",
Zheng et al. Theorems 6, 8, 10, 12) are established by a mechanism whose
mutual information is finite — as small as asked — while the conclusion budget
is infinite.  :func:`mi_witness` builds, for any requested ``eps_m > 0``:

* local (Thm 8/12, the paper's eq. (63)/(91)): ``D = {1, 2}``, the identity
  channel and prior ``(beta, 1 - beta)``, so ``I(D;E) = h(beta)`` (binary
  entropy in nats) and ``p(e=2|d=1) = 0 < p(e=2|d=2)``, hence
  ``eps_d = eps_i = inf``;
* central (Thm 6/10, eq. (57)/(85)): the paper's three datasets
  ``{(1,1), (1,2), (2,2)}`` with neighbours ``(1,1)~(1,2)~(2,2)``, joint
  ``beta`` at ``((1,1),(1,1))``, ``(1 - beta)/4`` on the four cells of the
  other two rows and columns, so ``I(X;Y) = h(beta)``;
* with ``full_support``: the channel ``[[1 - delta, delta], [delta, 1 - delta]]``
  (locally; per record centrally) with ``delta`` chosen so ``eps_d >= ln(L)``
  for a requested ``L``: arbitrarily large but finite budgets.

``beta = 2^-j`` with the smallest ``j`` whose *certified* ``I`` is at most
``eps_m`` (the enclosure's upper end).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import cast

from relations.mechanisms._paper import paper_central, paper_local
from relations.model._distributions import Prior
from relations.model._mechanism import Mechanism
from relations.model._neighbours import HammingInputs
from relations.model._products import ProductChannel, ProductPrior
from relations.numbers._rounding import largest_remainder
from relations.numbers._text import short_text

__all__ = ["SIMPLIFY_RECORDS", "MIN_WITNESS_EPS_M", "certified_mi_upper", "mi_witness", "simplify"]


def _full_support(setting: str, beta: Fraction, delta: Fraction) -> Mechanism:
    w = [[1 - delta, delta], [delta, 1 - delta]]
    if setting == "local":
        return Mechanism.local(w, prior=[1 - beta, beta])
    return Mechanism.product(w, records=2, prior=[[1 - beta, beta]] * 2)


def certified_mi_upper(mech: Mechanism, bits: int | None = None) -> Fraction:
    """The upper end of a certified enclosure of ``I(X;Y)`` at most ``2**-bits`` wide (default 100)."""
    from relations.measures._api import measure
    from relations.numbers._enclosure import DEFAULT_BITS

    enc = measure(mech, bits=bits or DEFAULT_BITS).eps_m.enclosure
    assert enc is not None
    return enc.upper


#: The smallest ``eps_m`` :func:`mi_witness` accepts (``beta`` then has about 3400 binary digits).
MIN_WITNESS_EPS_M = Fraction(1, 10**1000)


def mi_witness(setting: str, eps_m: Fraction, full_support: Fraction | None = None) -> Mechanism:
    """A mechanism with certified ``I(X;Y) <= eps_m`` and infinite ``eps_d`` and ``eps_i``.

    The paper's constructions with ``beta = 2^-j`` for the smallest ``j`` whose certified
    ``I`` is at most ``eps_m`` (found by doubling ``j`` and bisecting, since ``I`` decreases
    with ``beta``; the enclosures are made narrower than ``eps_m``); with ``full_support = L``, a full-support channel with
    ``eps_d >= ln L`` instead (arbitrarily large but finite budgets).

    Parameters
    ----------
    setting : str
        ``"local"`` or ``"central"``.
    eps_m : Fraction
        The largest mutual information allowed, positive.
    full_support : Fraction, optional
        The ratio ``L`` for a full-support witness.

    Returns
    -------
    Mechanism

    Raises
    ------
    ValueError
        If ``eps_m <= 0`` or ``eps_m <`` :data:`MIN_WITNESS_EPS_M` (``10^-1000``).

    References
    ----------
    .. [1] Zheng, Huang, Wang, Li, Xu, Li. Relations Between Several Classical Privacy Notions. Acta Electronica Sinica 53(10), 2025. Theorems 6, 8, 10, 12.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from relations import measure
    >>> w = mi_witness("local", Fraction(1, 100))
    >>> res = measure(w)
    >>> w.prior.exact[0], res.eps_m.enclosure.upper <= Fraction(1, 100), str(res.eps_d.exact)
    (Fraction(1, 1024), True, 'inf')
    """
    if eps_m <= 0:
        raise ValueError("eps_m must be positive")
    if eps_m < MIN_WITNESS_EPS_M:
        raise ValueError(f"eps_m below 1e-1000 is not supported (got {short_text(eps_m)})")
    # enclosures narrower than eps_m itself: a tiny eps_m needs more than the default 100 bits
    bits = max(100, eps_m.denominator.bit_length() - eps_m.numerator.bit_length() + 40)

    def member(j: int) -> Mechanism:
        beta = Fraction(1, 2**j)
        if full_support is None:
            return paper_local(beta) if setting == "local" else paper_central(beta)
        return _full_support(setting, beta, Fraction(1, 2 * int(full_support.__ceil__()) + 2))

    def fits(j: int) -> bool:
        return certified_mi_upper(member(j), bits) <= eps_m

    # I(beta) decreases to 0 with beta: double j until it fits, then bisect for the smallest such j
    low, high = 0, 1
    while not fits(high):
        low, high = high, 2 * high
        if high > 1 << 13:  # pragma: no cover (h(2^-j) -> 0 long before)
            raise ValueError("no witness found")
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if fits(mid) else (mid, high)
    return member(high)


def simplify(mech: Mechanism, still: Callable[[Mechanism], bool]) -> Mechanism:
    """The simplest rational rounding of a witness that still satisfies ``still``.

    Prior and rows are rounded to multiples of ``1/den`` for growing ``den``, keeping
    their support (:func:`~relations.numbers._rounding.largest_remainder`); the first
    rounding that satisfies ``still`` is returned, else ``mech`` itself.  A product form
    (up to :data:`SIMPLIFY_RECORDS` records) is first cut to its fewest leading records
    that still satisfy ``still``; then its local channel and each record's prior in turn is rounded to the
    smallest denominator that still satisfies ``still``.

    Examples
    --------
    A product witness of ``eps_d > 1/2`` over five records needs one record, and rounds to thirds
    (halves would give ``eps_d = 0``; thirds give ``ln 2``):

    >>> from relations import Mechanism, measure
    >>> m = Mechanism.product([["0.7", "0.3"], ["0.3", "0.7"]], records=5,
    ...                       prior=[["0.55", "0.45"]] * 5)
    >>> big = lambda m: measure(m).eps_d.value > 0.5
    >>> s = simplify(m, big)
    >>> s.inputs.records, [str(v) for v in s.channel.local.exact[0]], big(s)
    (1, ['2/3', '1/3'], True)
    """
    if isinstance(mech.channel, ProductChannel):
        return _simplify_product(mech, still)
    if not isinstance(mech.prior, Prior):
        return mech
    assert mech.prior.exact is not None and mech.channel.exact is not None  # an exact witness
    for den in _DENOMINATORS:
        prior = _round(mech.prior.exact, den)
        rows = [_round(r, den) for r in mech.channel.exact]
        if prior == list(mech.prior.exact) and rows == [list(r) for r in mech.channel.exact]:
            return mech
        candidate = mech.with_entries(prior=prior, channel=rows)
        if still(candidate):
            return candidate
    return mech


#: Product forms with more records than this are returned as they are by :func:`simplify`.
SIMPLIFY_RECORDS = 64


def _simplify_product(mech: Mechanism, still: Callable[[Mechanism], bool]) -> Mechanism:
    """:func:`simplify` of a product form: the fewest leading records that still satisfy ``still``, then the
    local channel and every record's prior rounded as for a dense witness."""
    assert isinstance(mech.channel, ProductChannel)
    w, r = mech.channel.local, mech.channel.records
    if w.exact is None or r > SIMPLIFY_RECORDS:
        return mech
    if not isinstance(mech.prior, ProductPrior):  # pragma: no cover - product forms carry product priors
        return mech
    # typed as the roundings below, which replace them only when they have no None
    priors: list[list[Fraction] | None] = [list(mech.prior.factors[j].exact) for j in range(r)]
    rows: list[list[Fraction] | None] = [list(row) for row in w.exact]

    def build(rows_, priors_) -> Mechanism:
        return Mechanism.product(rows_, records=len(priors_), prior=priors_,
                                 domain=list(cast(HammingInputs, mech.inputs).domain),
                                 outputs=list(mech.outputs))

    best = mech
    for fewer in range(1, r):
        candidate = build(rows, priors[:fewer])
        if still(candidate):
            best, priors = candidate, priors[:fewer]
            break
    for part in range(1 + len(priors)):  # the local channel, then each record's prior: the smallest rounding
        for den in _DENOMINATORS:
            new_rows = [_round_positive(row, den) for row in rows] if part == 0 else rows
            new_priors = [_round_positive(p, den) if j == part - 1 else p for j, p in enumerate(priors)]
            if None in new_rows or None in new_priors:
                continue  # more positive entries than den
            if new_rows == rows and new_priors == priors:
                break  # already this simple
            candidate = build(new_rows, new_priors)
            if still(candidate):
                best, rows, priors = candidate, new_rows, new_priors
                break
    return best


_DENOMINATORS = (2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 50, 64, 100, 1000)


def _round_positive(values, den: int) -> list[Fraction] | None:
    """Multiples of ``1/den`` summing to 1 with the support of ``values``: one ``1/den`` to each positive entry,
    the rest by largest remainders (``None`` when there are more positive entries than ``den``).

    Examples
    --------
    >>> [str(v) for v in _round_positive([Fraction(5, 18), Fraction(11, 18), Fraction(1, 9)], 3)]
    ['1/3', '1/3', '1/3']
    >>> [str(v) for v in _round_positive([Fraction(5, 18), Fraction(11, 18), Fraction(1, 9)], 4)]
    ['1/4', '1/2', '1/4']
    """
    exact = [Fraction(v) for v in values]
    total = sum(exact, Fraction(0))
    positive = [v > 0 for v in exact]
    rest = den - sum(positive)
    if rest < 0:
        return None
    excess = [max(Fraction(0), v * den / total - 1) if p else Fraction(0) for v, p in zip(exact, positive)]
    weights = excess if any(excess) else exact
    extra = largest_remainder(weights, rest) if rest else [Fraction(0)] * len(exact)
    return [(int(p) + e * rest) / den for p, e in zip(positive, extra)]


def _round(values, den: int) -> list[Fraction]:
    """Round to multiples of ``1/den`` keeping zeros zero (unchanged when impossible)."""
    rounded = largest_remainder(values, den, keep_support=True)
    return [Fraction(v) for v in values] if rounded is None else rounded
