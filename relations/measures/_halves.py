"""The composed ``delta(eps)`` of one pair used ``k`` times, from its count vectors split in two halves.

``k`` uses of rows ``P, R`` with ``m`` outputs (*atoms*, equal ratios merged) give an outcome class per
count vector ``n`` (``n_j`` uses took atom ``j``, ``|n| = k``) with

    ``P(n) = multinomial(k; n) prod_j p_j^n_j``,  ``R(n) = multinomial(k; n) prod_j r_j^n_j``,
    loss ``L(n) = sum_j n_j l_j``,  ``l_j = ln(p_j / r_j)``,

and ``delta(eps) = sum_n (P(n) - e^eps R(n))_+``.  There are ``C(k + m - 1, m - 1)`` count vectors (2.1e10
for ``m = 8, k = 100``), but they split: the atoms fall into halves ``A`` and ``B``, a count vector into
``a`` (``s`` uses on ``A``) and ``b`` (``k - s`` on ``B``), ``P(n) = C(k, s) P_A(a) P_B(b)`` and ``L(n) =
L_A(a) + L_B(b)``.  For each ``s`` the ``b`` are sorted by ``L_B``; the ``b`` with ``L(n) > eps`` are then a
suffix for each ``a``, found by binary search, and the sums of ``P_B``, ``R_B`` over every suffix are
prefix sums.  So

    ``sum_{L(n) > eps} P(n) - e^eps R(n) = sum_s C(k, s) sum_a P_A(a) SP_B(a) - e^eps R_A(a) SR_B(a)``

costs ``C(k + |A|, |A|) + C(k + |B|, |B|)`` entries (9.2e6 for ``m = 8, k = 100``), every count vector
counted and none bucketed.

What is certified, and how
--------------------------
Everything is computed in binary64 with bounds proved for it:

* ``P(n) = K prod_j f_j[n_j]`` with ``f_j[c] = (lam p_j)^c / c!`` (each table entry correctly rounded from
  its exact value) and the exact rational ``K = k! / lam^k`` applied at the end (``lam`` about ``k / e``
  keeps the scaled masses near 1); likewise ``R``.  Every float is a product or a sum of non-negative
  numbers: ``2 m`` roundings for the masses of the two halves, prefix sums and sums taken in blocks of
  :data:`_BLOCK` (at most ``_BLOCK`` roundings in a block, one per block in the running sum of the blocks'
  totals, one in ``math.fsum``), so each of the three sums ``X`` (``P`` above ``eps``), ``Y`` (``R``
  above) and ``W`` (``P`` not below) is within a relative ``gamma_N = N u / (1 - N u)`` of its exact value
  (``u = 2^-53``, ``N`` counted in the code); underflow adds at most ``2^-1075`` per product, magnified at
  most ``e^(2 lam)`` (:func:`_underflow`), and the route declines when the scaled masses could overflow;
* the losses ``l_j`` are enclosed in 128-bit balls and rounded, the sums ``L_A``, ``L_B`` of at most ``k``
  of them are within ``E_A``, ``E_B`` of the exact ones (the dot product of ``|A|`` terms: ``gamma_|A|``);
  a pair ``(a, b)`` is *above* when its float loss exceeds ``eps`` by more than the margin ``E``, *below*
  when it is short of it by more than ``E``; the others (*between*) have ``|L - eps| <= 3 E`` and each
  contributes ``(P - e^eps R)_+ in [0, P (L - eps)_+] subset [0, 3 E P]``.

So ``delta in [X - e^eps Y, X - e^eps Y + 3 E (W - X)]`` with the float errors above on each term: the
width is about ``2 gamma_N (X + e^eps Y) + 3 E (W - X)``; ``X`` is also enclosed from the complement, the
``P``-mass not above ``eps`` (a sum of its own, subtracted from the exact total), which is the narrower near
``delta = 1`` (the width there about ``2 gamma_N (1 - delta)``).  For ``m = 8, k = 100``: a relative width of
3e-13 to 5e-13 at every ``delta`` from 1e-4 to 0.73 measured (``benchmarks/bench_composition.py``).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from relations.numbers._enclosure import ball, interval, working_precision

__all__ = ["split_delta", "split_size", "MAX_SPLIT_ENTRIES", "loss_atoms", "threshold_enclosure"]

#: Largest number of half count vectors (``C(k + |A|, |A|) + C(k + |B|, |B|)``) the split route takes on.
MAX_SPLIT_ENTRIES = 3 * 10**7
#: Summands per block in the blocked sums and prefix sums.
_BLOCK = 512
_U = Fraction(1, 1 << 53)
#: One half at one ``s``: float losses, scaled ``P``- and ``R``-masses.
_Half = tuple[np.ndarray, np.ndarray, np.ndarray]


def split_size(atoms: int, uses: int) -> int:
    """The number of half count vectors for ``atoms`` atoms used ``uses`` times.

    Examples
    --------
    >>> split_size(8, 100), split_size(4, 1000)
    (9196252, 1003002)
    """
    a = (atoms + 1) // 2
    return math.comb(uses + a, a) + math.comb(uses + atoms - a, atoms - a)


def _simplex(d: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Every vector of ``d`` non-negative integers with sum ``<= k``, ordered by sum, and the number of them
    with sum ``<= s`` for each ``s``.

    Examples
    --------
    >>> v, upto = _simplex(2, 2)
    >>> v.tolist(), upto.tolist()
    ([[0, 0], [0, 1], [1, 0], [0, 2], [1, 1], [2, 0]], [1, 3, 6])
    """
    vecs = np.zeros((1, 0), dtype=np.int64)
    sums = np.zeros(1, dtype=np.int64)
    for _ in range(d):
        reps = k - sums + 1
        idx = np.repeat(np.arange(len(vecs)), reps)
        starts = np.repeat(np.cumsum(reps) - reps, reps)
        new = np.arange(idx.size, dtype=np.int64) - starts
        vecs = np.column_stack([vecs[idx], new])
        sums = sums[idx] + new
    order = np.argsort(sums, kind="stable")
    upto = np.searchsorted(sums[order], np.arange(k + 1), side="right")
    return vecs[order], upto


class _Halves:
    """A half's count vectors ``c`` with ``s`` uses, for each ``s = 0..k`` on demand (``half[s]``): their float
    losses and scaled ``P``- and ``R``-masses ``prod_i f_i[c_i]`` (``f_i[c] = (lam p_i)^c / c!`` correctly
    rounded, row ``i`` of the tables; see :func:`split_delta`).

    The first ``g - 1`` coordinates run over :func:`_simplex` once, kept with their partial products; the last
    is ``s`` minus their sum, so each ``s`` costs a gather and a product per row, and only one ``s`` is held at
    a time (``C(k + g - 1, g - 1)`` entries, not ``C(k + g, g)``).
    """

    def __init__(self, losses: list[float], p_table: np.ndarray, r_table: np.ndarray, k: int) -> None:
        self.g = g = len(losses)
        self.losses = losses
        self.p_last: np.ndarray = p_table[g - 1] if g else np.ones(1)
        self.r_last: np.ndarray = r_table[g - 1] if g else np.ones(1)
        simplex, self.upto = _simplex(max(0, g - 1), k)
        self.p_head, self.r_head = np.ones(len(simplex)), np.ones(len(simplex))
        for i in range(g - 1):
            self.p_head = self.p_head * p_table[i][simplex[:, i]]
            self.r_head = self.r_head * r_table[i][simplex[:, i]]
        self.head_loss: np.ndarray = simplex.astype(np.float64) @ np.asarray(losses[:-1], dtype=np.float64) \
            if g else np.zeros(1)
        self.sums = simplex.sum(axis=1)

    def __getitem__(self, s: int) -> _Half:
        if self.g == 0:
            n = 1 if s == 0 else 0
            return np.zeros(n), np.ones(n), np.ones(n)
        n = self.upto[s]
        last = s - self.sums[:n]
        return (self.head_loss[:n] + last * self.losses[-1], self.p_head[:n] * self.p_last[last],
                self.r_head[:n] * self.r_last[last])


def _blocked_sum(x: np.ndarray) -> float:
    """``sum(x)`` for ``x >= 0``: blocks of :data:`_BLOCK` summed by numpy, their totals by ``math.fsum``."""
    pad = (-len(x)) % _BLOCK
    if pad:
        x = np.concatenate([x, np.zeros(pad)])
    return math.fsum(x.reshape(-1, _BLOCK).sum(axis=1).tolist()) if len(x) else 0.0


def _suffix_sums(x: np.ndarray) -> np.ndarray:
    """``out[i] = sum(x[i:])`` (``len(x) + 1`` entries) for ``x >= 0``, in blocks of :data:`_BLOCK`: within a
    block a running sum, across blocks a running sum of the blocks' totals, then one addition."""
    n = len(x)
    if n == 0:
        return np.zeros(1)
    rev = x[::-1]
    pad = (-n) % _BLOCK
    if pad:
        rev = np.concatenate([rev, np.zeros(pad)])
    blocks = rev.reshape(-1, _BLOCK).cumsum(axis=1)
    before = np.concatenate([[0.0], np.cumsum(blocks[:, -1])[:-1]])
    running = (blocks + before[:, None]).ravel()[:n]
    return np.concatenate([running[::-1], [0.0]])


def _underflow(lam: int, terms: int, atoms: int) -> Fraction:
    """An absolute bound of the underflow in each of the three scaled sums: at most ``2^-1075`` per table entry
    or product (``2 m + 2`` of them per pair ``(a, b)``), magnified at most by the factors after it (each scaled
    half mass and suffix sum is at most ``e^lam``: ``(lam p)^c / c!`` over a half with ``sum p <= 1`` sums to at
    most ``e^lam``), over ``terms`` pairs (a suffix sum carries the errors of all its terms)."""
    bits = -1075 + math.ceil(2 * lam * math.log2(math.e)) + terms.bit_length() + (2 * atoms + 2).bit_length() + 1
    return Fraction(2) ** bits


def split_delta(p, r, k: int, t_or_q: Fraction, *, exp: bool = False,
                max_entries: int = MAX_SPLIT_ENTRIES) -> tuple[Fraction, Fraction] | None:
    """A certified enclosure ``[lo, hi]`` of ``sum_n (P(n) - e^eps R(n))_+`` over ``k`` uses of rows ``p, r``.

    Parameters
    ----------
    p, r : sequence of Fraction
        The two rows (``P = Q[x]``, ``R = Q[x']``).
    k : int
        The number of uses.
    t_or_q : Fraction
        ``t = e^eps`` (``eps = ln t``), or ``q = eps`` when ``exp``.
    exp : bool, optional
    max_entries : int, optional
        The largest :func:`split_size` taken on; beyond it, None.

    Returns
    -------
    tuple of Fraction, or None
        The enclosure (its width about ``1e-12`` for 8 atoms and 100 uses), or None beyond ``max_entries``.

    Examples
    --------
    Binary randomized response with ratio 3, twice, at ``eps = ln 2``: outcomes of ratio 9 (``P = 9/16``,
    ``R = 1/16``) count, ``9/16 - 2/16 = 7/16``:

    >>> F = Fraction
    >>> lo, hi = split_delta([F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)], 2, F(2))
    >>> lo <= F(7, 16) <= hi, float(hi - lo) < 1e-12
    (True, True)
    """
    inf_mass, atoms = loss_atoms(p, r)
    finite = (1 - inf_mass) ** k
    m = len(atoms)
    if m == 0 or split_size(m, k) > max_entries:
        return None if m else (1 - finite, 1 - finite)
    value = Fraction(t_or_q)
    with working_precision(128):
        logs = [interval(ball(ratio).log()) for ratio in atoms]
        if exp and value > k * max(hi for _, hi in logs):
            return 1 - finite, 1 - finite  # every finite loss below eps (and e^eps, possibly huge, not needed)
        eps_lo, eps_hi, t_lo, t_hi = threshold_enclosure(value, exp=exp)
    losses = [float((lo + hi) / 2) for lo, hi in logs]
    # each float loss within `e` of the exact one; a sum of s <= k of them (a dot product of g terms) within
    # s (e + gamma_g max|l|) <= k (e + gamma_(m+1) max|l|) = E_half
    lmax = max(abs(Fraction(x)) for x in losses)
    e = max(abs(Fraction(x) - lo) + (hi - lo) for x, (lo, hi) in zip(losses, logs))
    gamma = _gamma(m + 1)
    e_half = k * (e + gamma * lmax)
    eps_f = float((eps_lo + eps_hi) / 2)
    # the thresholds eps_f - L_A +- margin are taken in floats: two roundings of numbers below |eps| + k lmax
    size = abs(Fraction(eps_f)) + k * lmax + 1
    margin = 2 * e_half + abs(Fraction(eps_f) - eps_lo) + abs(Fraction(eps_f) - eps_hi) + 8 * _U * size
    margin_f = float(2 * margin)  # the float margin E used below; 2 * margin covers its own rounding
    between = 3 * Fraction(margin_f)  # |L - eps| of a pair between above and below

    # P(n) = k! prod_j p_j^n_j / n_j! = K prod_j f_j[n_j], f_j[c] = (lam p_j)^c / c!, K = k! / lam^k exact; the
    # scaled masses stay below e^lam (lam ~ k / e keeps them near 1 where the masses are large)
    lam = max(1, round(k / math.e))
    if 2 * lam * math.log2(math.e) > 900:
        return None  # the scaled masses could overflow
    k_factor = Fraction(math.factorial(k), lam ** k)
    order = sorted(atoms, key=lambda ratio: -atoms[ratio][0])
    names = list(atoms)

    def half(chosen: list) -> _Halves:
        tabs = []
        for row in (0, 1):
            tab = []
            for ratio in chosen:
                x, f = atoms[ratio][row] * lam, Fraction(1)
                entries = []
                for c in range(k + 1):
                    entries.append(float(f))
                    f = f * x / (c + 1)
                tab.append(entries)
            tabs.append(np.asarray(tab, dtype=np.float64).reshape(len(chosen), k + 1))
        return _Halves([losses[names.index(ratio)] for ratio in chosen], tabs[0], tabs[1], k)

    side_a = half(order[0::2])  # alternate by mass: halves of like masses
    side_b = half(order[1::2])
    xs, ys, ws, zs, vs = [], [], [], [], []
    blocks = terms = 1
    for s in range(k + 1):
        la, pa, ra = side_a[s]
        lb, pb, rb = side_b[k - s]
        if not len(la) or not len(lb):
            continue
        sort = np.argsort(lb, kind="stable")
        lb = lb[sort]
        pb = pb[sort]
        sp, sr, before = _suffix_sums(pb), _suffix_sums(rb[sort]), _suffix_sums(pb[::-1])[::-1]
        blocks = max(blocks, len(lb) // _BLOCK + 1, len(la) // _BLOCK + 1)
        terms += len(la) * len(lb)
        rest = eps_f - la
        above = np.searchsorted(lb, rest + margin_f, side="right")
        not_below = np.searchsorted(lb, rest - margin_f, side="left")
        xs.append(_blocked_sum(pa * sp[above]))
        ys.append(_blocked_sum(ra * sr[above]))
        ws.append(_blocked_sum(pa * sp[not_below]))
        zs.append(_blocked_sum(pa * before[above]))  # P not above: the complement of xs, exact near delta = 1
        vs.append(_blocked_sum(pa * before[not_below]))  # P below: the complement of ws
    # roundings per term: 2m for the two halves' masses, _BLOCK + blocks + 1 in a suffix sum, 1 product,
    # _BLOCK + 1 in its blocked sum, 1 in the fsum over s; K is applied exactly
    g = _gamma(2 * m + 2 * _BLOCK + blocks + 8)
    tiny = _underflow(lam, terms, m)
    x, y, w, z, v = (Fraction(math.fsum(sums)) for sums in (xs, ys, ws, zs, vs))
    # the P-mass above eps, from its own sum and from the complement of the P-mass not above (the finite
    # count vectors' P-mass is `finite` exactly): the second is the narrower one when delta is near 1
    above_lo = max(k_factor * (x * (1 - g) - tiny), finite - k_factor * (z * (1 + g) + tiny))
    above_hi = min(k_factor * (x * (1 + g) + tiny), finite - k_factor * max(Fraction(0), z * (1 - g) - tiny))
    lo = above_lo - t_hi * k_factor * (y * (1 + g) + tiny)
    # the P-mass between: not below minus above, or not above minus below (the narrower near delta = 1); each
    # of the two sums carries its own underflow, so the difference of their bounds carries two
    middle = min(w * (1 + g) - x * (1 - g), z * (1 + g) - v * (1 - g)) + 2 * tiny
    hi = above_hi - t_lo * k_factor * max(Fraction(0), y * (1 - g) - tiny) + between * k_factor * max(Fraction(0), middle)
    return (1 - finite) + max(Fraction(0), lo), min(Fraction(1), (1 - finite) + hi)


def threshold_enclosure(value: Fraction, *, exp: bool) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """Rational ends ``(eps_lo, eps_hi, t_lo, t_hi)`` of the threshold ``eps`` and ``t = e^eps``, given ``value`` as
    ``eps`` (``exp=True``) or as ``t``: the given one exact, the other enclosed (within the caller's working
    precision)."""
    if exp:
        t_lo, t_hi = interval(ball(value).exp())
        return value, value, t_lo, t_hi
    if value == 1:
        return Fraction(0), Fraction(0), value, value
    eps_lo, eps_hi = interval(ball(value).log())
    return eps_lo, eps_hi, value, value


def loss_atoms(p, q) -> tuple[Fraction, dict[Fraction, tuple[Fraction, Fraction]]]:
    """One use of ``(P, R)``: the ``P``-mass of infinite loss, and ``ratio -> (P-mass, R-mass)``."""
    inf_mass = Fraction(0)
    atoms: dict[Fraction, tuple[Fraction, Fraction]] = {}
    for a, b in zip(p, q):
        if a == 0:
            continue
        if b == 0:
            inf_mass += a
            continue
        r = a / b
        pa, pb = atoms.get(r, (Fraction(0), Fraction(0)))
        atoms[r] = (pa + a, pb + b)
    return inf_mass, atoms


def _gamma(n: int) -> Fraction:
    """``gamma_n = n u / (1 - n u)``: the relative error of ``n`` roundings of non-negative terms."""
    return n * _U / (1 - n * _U)
