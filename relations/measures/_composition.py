"""The notions of a composition (:class:`~relations.model.Composition`): repeated and composed use, exactly.

Two routes, both exact equivalents of the composed mechanism, never its ``m^k`` output sequences:

* **Counts of each output** (:meth:`Composition.sufficient <relations.model.Composition.sufficient>`):
  a mechanism with ``C(k + m - 1, m - 1)`` outputs per part and the same value in every notion;
  :func:`composed_notion` uses it whenever it has at most
  :data:`~relations.model.MAX_SUFFICIENT_ENTRIES` entries.
* **Privacy loss distributions**, for the profile beyond that.  For an ordered neighbour pair
  ``(x, x')`` with rows ``P = Q[x]`` and ``R = Q[x']``, one use yields the loss ``ln(P_y / R_y)``
  with probability ``P_y``; the ``k`` uses add their losses, and

      ``delta(eps) = sum_o max(0, P(o) - e^eps R(o))``

  over the composed outcomes ``o`` depends only on the composed loss of each outcome.  The ratios
  ``P_y / R_y`` of all parts are written over a *coprime base* ``b_1, ..., b_d`` (integers, pairwise
  coprime, found by gcds: no factoring), ``ratio = prod_c b_c^{v_c}`` with integer exponents; the
  composed ratio of an outcome is ``prod_c b_c^{sum of its v}``, so outcomes with the same exponent
  sum merge, and the composed masses are the coefficients of integer polynomials (Kronecker
  substitution of the ``d`` exponents into one variable) raised to the number of uses (python-flint
  ``fmpz_poly``).  k-RR has ratios ``e^eps, 1, e^-eps``: one direction, ``2k + 1`` composed losses.
  Outputs with ``R_y = 0 < P_y`` (infinite loss) make the whole outcome count; ``P_y = 0`` never counts.
  ``delta(ln t)`` is then an exact rational, ``delta(q)`` for a rational ``q != 0`` is ``A - B e^q``
  exactly (which losses exceed ``q`` is decided exactly), and ``eps_delta`` is ``ln`` of an exact
  rational, as for one use.
* When the lattice is too large (:data:`MAX_SUPPORT` points), the profile is a **certified enclosure**
  from the losses bucketed both ways (:func:`bucketed_delta`): each loss is enclosed in
  ``[i h, (i + 1) h]``, the buckets are convolved in floats with proved error bounds (all terms are
  non-negative), a composed bucket entirely above ``eps`` contributes ``P - e^eps R`` and one entirely
  below ``0``, and only the buckets that straddle ``eps`` are bounded both ways; the enclosure's
  width is stated.  The buckets screen the pairs; for one mechanism repeated, the pairs that may attain
  the maximum are then enclosed by their **count vectors split in halves**
  (:func:`~relations.measures._halves.split_delta`: no bucketing, floats with proved error bounds, width
  about ``1e-12`` at any ``delta``) when there are at most ``MAX_SPLIT_ENTRIES`` half count vectors
  (a random 8 x 8 mechanism used 100 times has 9.2 million), else by finer buckets.

The additive notions need neither: ``eps_d`` is ``k eps_d`` (per pair, the largest ratio of every
use together); ``renyi(alpha)``, ``kl`` and ``rho`` of ``k`` uses of one mechanism are ``k`` times
those of one use (a Renyi divergence adds over independent uses, and ``k`` scales the maximum over
pairs and the supremum over orders alike).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

import numpy as np

from relations.errors import InputError
from relations.measures._halves import MAX_SPLIT_ENTRIES, loss_atoms, split_delta, threshold_enclosure
from relations.measures._inverse import MAX_EVALUATIONS, RELATIVE, guide_eps, largest_loss, least_eps
from relations.measures._pairs import NotionResult, ordered_pairs
from relations.measures._profile import delta_level, exp_argument, hockey_stick_time
from relations.measures._results import Witness
from relations.model._composed import Composition
from relations.numbers._enclosure import ball, interval, working_precision
from relations.numbers._logforms import coprime_basis
from relations.numbers._logs import LogRatio
from relations.numbers._reals import (
    ArbExpr,
    Log,
    Rational,
    Real,
    affine_enclosure,
    compare,
    exp_affine,
    exp_affine_sign,
    inf,
    log_combination,
)

__all__ = ["MAX_SUPPORT", "composed_delta", "composed_eps_delta", "composed_notion", "bucketed_delta",
           "COMPOSED_NOTIONS", "loss_distribution", "LossDistribution"]

#: Largest lattice (points of the composed loss, over every direction) computed exactly; beyond, enclosures.
MAX_SUPPORT = 1 << 22
#: The notions :func:`composed_notion` computes beyond the counts route.
COMPOSED_NOTIONS = ("eps_d", "eps_all", "sigma_min", "neg_sigma", "eps_i", "delta", "tv", "eps_delta", "renyi",
                    "kl", "rho")


@dataclass(frozen=True)
class LossDistribution:
    """The composed privacy loss of one ordered pair: ``P``- and ``R``-masses per composed ratio.

    ``pmass[j] / pden`` and ``rmass[j] / rden`` are the masses of the ``j``-th composed outcome class,
    whose ratio ``P / R`` is ``prod_c base[c] ** exponents[j][c]``; ``infinite`` is the ``P``-mass of
    the outcomes with some use of infinite loss.
    """

    pmass: tuple[int, ...]
    rmass: tuple[int, ...]
    pden: int
    rden: int
    exponents: tuple[tuple[int, ...], ...]
    base: tuple[int, ...]
    infinite: Fraction

    def ratio_above(self, j: int, t: Fraction) -> bool:
        """``P_j / R_j > t`` exactly."""
        return self.pmass[j] * self.rden * t.denominator > t.numerator * self.rmass[j] * self.pden


def _exponents(n: int, base: list[int]) -> list[int]:
    out = []
    for b in base:
        e = 0
        while n % b == 0:
            n //= b
            e += 1
        out.append(e)
    if n != 1:  # pragma: no cover - a coprime base of these numbers factors them
        raise AssertionError("coprime base does not factor")
    return out


def _echelon(vectors: list[list[int]]) -> list[list[int]]:
    """A basis of the integer lattice the vectors span, in echelon form (integer row reduction by gcd steps).

    Examples
    --------
    >>> _echelon([[-1, 1], [1, -1], [0, 0]])
    [[1, -1]]
    """
    rows = [list(v) for v in vectors if any(v)]
    basis: list[list[int]] = []
    width = len(vectors[0]) if vectors else 0
    for col in range(width):
        nonzero = [r for r in rows if r[col]]
        rest = [r for r in rows if not r[col]]
        while len(nonzero) > 1:
            nonzero.sort(key=lambda r: abs(r[col]))
            pivot, kept = nonzero[0], [nonzero[0]]
            for r in nonzero[1:]:
                m = r[col] // pivot[col]
                reduced = [a - m * b for a, b in zip(r, pivot)]
                (kept if reduced[col] else rest).append(reduced)
            nonzero = kept
        if nonzero:
            pivot = nonzero[0]
            basis.append(pivot if pivot[col] > 0 else [-a for a in pivot])
        rows = [r for r in rest if any(r)]
    return basis


def _lattice_size(uses: list, raw: dict, basis: list[list[int]]) -> int:
    """The number of points of the composed lattice in the coordinates of ``basis``."""
    size = 1
    for c in range(len(basis)):
        span = 0
        for atoms, n in uses:
            values = [_coordinates(raw[r], basis)[c] for r in atoms]
            span += n * (max(values, default=0) - min(values, default=0))
        size *= span + 1
    return size


def _coordinates(v: list[int], basis: list[list[int]]) -> list[int]:
    """The integer coordinates of ``v`` in an echelon basis of a lattice that holds it."""
    v = list(v)
    out = []
    for row in basis:
        col = next(c for c, a in enumerate(row) if a)
        c, rem = divmod(v[col], row[col])
        if rem:  # pragma: no cover - v lies in the lattice
            raise AssertionError("not in the lattice")
        out.append(c)
        v = [a - c * b for a, b in zip(v, row)]
    if any(v):  # pragma: no cover
        raise AssertionError("not in the lattice")
    return out


def _lcm(values) -> int:
    out = 1
    for v in values:
        out = out * v // math.gcd(out, v)
    return out


def loss_distribution(parts: list[tuple[tuple, tuple, int]], *, max_support: int = MAX_SUPPORT
                      ) -> LossDistribution | None:
    """The exact composed loss distribution of rows ``(P_i, R_i)`` used ``n_i`` times, or None beyond ``max_support``.

    Examples
    --------
    Binary randomized response with ratio 3, twice: losses ``2 ln 3`` (mass ``9/16``), ``0``
    (``6/16``) and ``-2 ln 3`` (``1/16``):

    >>> F = Fraction
    >>> d = loss_distribution([((F(3, 4), F(1, 4)), (F(1, 4), F(3, 4)), 2)])
    >>> d.base, d.exponents, [F(a, d.pden) for a in d.pmass]
    ((3,), ((-2,), (0,), (2,)), [Fraction(1, 16), Fraction(3, 8), Fraction(9, 16)])
    """
    import flint

    uses = []
    finite = Fraction(1)
    for p, q, n in parts:
        inf_mass, atoms = loss_atoms(p, q)
        finite *= (1 - inf_mass) ** n
        uses.append((atoms, n))
    numbers = sorted({x for atoms, _ in uses for r in atoms for x in (r.numerator, r.denominator) if x > 1})
    base = coprime_basis(numbers)
    raw = {r: [a - b for a, b in zip(_exponents(r.numerator, base), _exponents(r.denominator, base))]
           for atoms, _ in uses for r in atoms}
    identity = [[int(i == c) for c in range(len(base))] for i in range(len(base))]
    reduced = _echelon(list(raw.values()))  # the lattice the exponents span (3/2 and 2/3: one direction)
    lattice = min((identity, reduced), key=lambda b: (_lattice_size(uses, raw, b), len(b)))
    d = max(1, len(lattice))
    vecs = []
    lows = [0] * d
    spans = [0] * d
    for atoms, n in uses:
        vs = {r: (_coordinates(raw[r], lattice) if lattice else [0]) for r in atoms}
        lo = [min((v[c] for v in vs.values()), default=0) for c in range(d)]
        hi = [max((v[c] for v in vs.values()), default=0) for c in range(d)]
        for c in range(d):
            lows[c] += n * lo[c]
            spans[c] += n * (hi[c] - lo[c])
        vecs.append((vs, lo))
    size = 1
    strides = []
    for c in range(d):
        strides.append(size)
        size *= spans[c] + 1
        if size > max_support:
            return None
    ppoly, rpoly = flint.fmpz_poly([1]), flint.fmpz_poly([1])
    pden = rden = 1
    for (atoms, n), (vs, lo) in zip(uses, vecs):
        if not atoms:
            ppoly, rpoly = flint.fmpz_poly([]), flint.fmpz_poly([])
            continue
        dp = _lcm(a.denominator for a, _ in atoms.values())
        dr = _lcm(b.denominator for _, b in atoms.values())
        length = sum((max(v[c] for v in vs.values()) - lo[c]) * strides[c] for c in range(d)) + 1
        pc, rc = [0] * length, [0] * length
        for r, (a, b) in atoms.items():
            e = sum((vs[r][c] - lo[c]) * strides[c] for c in range(d))
            pc[e] += int(a * dp)
            rc[e] += int(b * dr)
        ppoly *= flint.fmpz_poly(pc) ** n
        rpoly *= flint.fmpz_poly(rc) ** n
        pden *= dp ** n
        rden *= dr ** n
    pcoef = [int(c) for c in ppoly.coeffs()]
    rcoef = [int(c) for c in rpoly.coeffs()]
    keep = [j for j, c in enumerate(pcoef) if c]
    exps = []
    for j in keep:
        v = []
        for c in range(d):
            v.append((j // strides[c]) % (spans[c] + 1) + lows[c])
        exps.append(tuple(sum(v[i] * lattice[i][c] for i in range(len(lattice))) for c in range(len(base)))
                    if lattice else tuple(0 for _ in base))
    return LossDistribution(tuple(pcoef[j] for j in keep), tuple(rcoef[j] for j in keep), pden, rden, tuple(exps),
                            tuple(base), 1 - finite)


# ---------------------------------------------------------------------------------------------- pairs


def _pairs(comp: Composition) -> list[tuple[list[tuple[tuple, tuple, int]], Witness]]:
    """One entry per distinct ordered neighbour pair: its per-part rows with their uses, and its witness."""
    base = comp.base
    seen: set = set()
    out = []
    rows = [part.channel.exact for part in comp.parts]
    for x, xp in ordered_pairs(base).tolist():
        if all(r[x] == r[xp] for r in rows):
            continue
        key = tuple((tuple(sorted(zip(r[x], r[xp]))), n) for r, n in zip(rows, comp.counts))
        if key in seen:
            continue
        seen.add(key)
        out.append(([(r[x], r[xp], n) for r, n in zip(rows, comp.counts)], Witness(x, xp, None)))
    return out


def composed_delta(comp: Composition, eps: Real | Fraction | int, *, name: str | None = None,
                   max_support: int = MAX_SUPPORT, max_bins: int = 1 << 18, max_split: int | None = None
                   ) -> NotionResult:
    """The privacy profile ``delta(eps)`` of a composition, exactly (or an enclosure beyond ``max_support``).

    Parameters
    ----------
    comp : Composition
    eps : Real, Fraction or int
        ``eps >= 0``: rational, or ``ln(t)`` for a rational ``t``.
    name : str, optional
    max_support : int, optional
        Largest lattice computed exactly (:data:`MAX_SUPPORT`); beyond, :func:`bucketed_delta`.
    max_bins : int, optional
        Finest grid of :func:`bucketed_delta` (buckets over the composed loss's range), for the pairs
        that may attain the maximum (the others stop at ``2^12``): the enclosure narrows roughly as
        ``max_bins^-1.8`` and costs time in proportion.  Used only where the split route is not.
    max_split : int, optional
        For one mechanism repeated, the pairs that may attain the maximum are refined by their count vectors
        split in halves (:func:`~relations.measures._halves.split_delta`, width about ``1e-12`` at any
        ``delta``) when they have at most this many half count vectors (default
        :data:`~relations.measures._halves.MAX_SPLIT_ENTRIES`; ``0`` turns the route off).

    Returns
    -------
    NotionResult
        Exact (a rational at ``ln t``, ``A - B e^q`` at a rational ``q``) with a maximising pair, or
        beyond ``max_support`` a certified enclosure whose text names its route and width.

    References
    ----------
    .. [1] Kairouz, Oh, Viswanath. The Composition Theorem for Differential Privacy. ICML 2015 /
       IEEE Trans. Inf. Theory 63(6), 2017. doi:10.1109/TIT.2017.2685505
    .. [2] Koskela, Jälkö, Honkela. Computing Tight Differential Privacy Guarantees Using FFT. AISTATS 2020.

    Examples
    --------
    Binary randomized response with ratio 3, used twice: ``delta(ln 3) = 9/16 - 3/16``, as
    Kairouz, Oh and Viswanath's formula gives:

    >>> from relations.mechanisms import randomized_response
    >>> from relations.numbers import Log, LogRatio
    >>> str(composed_delta(randomized_response(3).repeated(2), Log(LogRatio.of(Fraction(3)))).value)
    '3/8'
    """
    max_split = MAX_SPLIT_ENTRIES if max_split is None else max_split
    t, q = exp_argument(eps)
    name = name or f"delta({eps})"
    pairs = _pairs(comp)
    if not pairs:
        return NotionResult(name, Rational(Fraction(0)))
    best: tuple | None = None
    enclosed: list[tuple[Fraction, Fraction, str, Witness, list]] = []
    for parts, witness in pairs:
        dist = loss_distribution(parts, max_support=max_support)
        if dist is None:
            lo, hi = bucketed_delta(parts, t if t is not None else q, exp=t is None, bins=1 << 12, max_bins=1 << 12)
            enclosed.append((lo, hi, BUCKETS, witness, parts))
            continue
        if t is not None:
            above = [j for j in range(len(dist.pmass)) if dist.ratio_above(j, t)]
        else:
            assert q is not None
            above = _log_above(dist, q)
        A = dist.infinite + Fraction(sum(dist.pmass[j] for j in above), dist.pden)
        B = Fraction(sum(dist.rmass[j] for j in above), dist.rden)
        if best is None or (A - t * B > best[0] - t * best[1] if t is not None
                            else exp_affine_sign(A - best[0], B - best[1], cast(Fraction, q)) > 0):
            best = (A, B, witness)
    if enclosed:  # refine, the highest first, only the pairs that may still attain the maximum
        floor = max([e[0] for e in enclosed] + ([_exact_bounds(best, t, q)[0]] if best is not None else []))
        refined = []
        for e in sorted(enclosed, key=lambda e: e[1], reverse=True):
            if e[1] >= floor:
                lo, hi, route = _refine(e[4], t, q, max_bins=max_bins, max_split=max_split)
                e = (lo, hi, route, e[3], e[4])
                floor = max(floor, lo)
            refined.append(e)
        return _enclosed_max(name, best, refined, t, q)
    assert best is not None
    if t is not None:
        return NotionResult(name, _readable(best[0] - t * best[1]), best[2])
    assert q is not None
    if max(_bits(best[0]), _bits(best[1])) <= MAX_SHOWN_BITS:
        return NotionResult(name, exp_affine(best[0], best[1], q), best[2])
    a, b = best[0], best[1]

    def enclose(bits: int):
        with working_precision(bits + 64):
            return interval(ball(a) - ball(b) * ball(q).exp())

    return NotionResult(name, ArbExpr(f"A - B e^({q}), A and B exact rationals of {_bits(a)} and {_bits(b)} bits",
                                      float(a) - float(b) * math.exp(min(float(q), 700.0)), enclose,
                                      exp_form=(a, -b, q)), best[2])


#: Exact rationals of more bits (numerator or denominator) are shown by their value, not their digits.
MAX_SHOWN_BITS = 512


def _bits(x: Fraction) -> int:
    return max(x.numerator.bit_length(), x.denominator.bit_length())


def _readable(x: Fraction) -> Real:
    """An exact rational; one too long to print is a real whose enclosures are computed from it, exactly."""
    if _bits(x) <= MAX_SHOWN_BITS:
        return Rational(x)

    def enclose(bits: int):
        with working_precision(bits + 64):
            return interval(ball(x))

    return ArbExpr(f"an exact rational of {_bits(x)} bits", float(x), enclose)


def _log_above(dist: LossDistribution, q: Fraction) -> list[int]:
    """The classes ``j`` with ``ln(ratio_j) > q``, decided exactly.

    Each ``ln(ratio_j) = sum_c exponents[j][c] ln(base[c])`` is first enclosed by an arb ball (96 bits, the
    logarithms of the base computed once); a ball that does not contain ``q`` decides.  The rest are compared
    exactly as a linear form in logarithms of the coprime base (never a tie: such a nonzero form is not
    rational)."""
    from flint import arb

    above: list[int] = []
    close: list[int] = []
    with working_precision(96):
        logs = [ball(Fraction(b)).log() for b in dist.base]
        qb = ball(q)
        for j, exponents in enumerate(dist.exponents):
            d = sum((e * lg for e, lg in zip(exponents, logs) if e), arb(0)) - qb
            if d > 0:
                above.append(j)
            elif not d < 0:
                close.append(j)
    for j in close:
        if not any(dist.exponents[j]):
            if 0 > q:
                above.append(j)
            continue
        form = log_combination([(Fraction(e), Fraction(b)) for e, b in zip(dist.exponents[j], dist.base) if e], "ln r")
        side = compare(form, Rational(q))
        assert side is not None and side != 0  # a nonzero linear form in logarithms of a coprime base is not rational
        if side > 0:
            above.append(j)
    return sorted(above)


#: The routes of an enclosed pair's profile, as the result's text names them.
BUCKETS = "losses bucketed both ways"
SPLIT = "count vectors split in halves"


def _exact_bounds(best: tuple, t: Fraction | None, q: Fraction | None) -> tuple[Fraction, Fraction]:
    """An enclosure of an exactly known pair's ``A - t B`` (or ``A - B e^q``)."""
    if t is not None:
        v = best[0] - t * best[1]
        return v, v
    assert q is not None
    with working_precision(200):
        return interval(ball(best[0]) - ball(best[1]) * ball(q).exp())


def _refine(parts: list, t: Fraction | None, q: Fraction | None, *, max_bins: int, max_split: int
            ) -> tuple[Fraction, Fraction, str]:
    """A narrow enclosure of one pair's profile: by its count vectors split in halves (one mechanism repeated,
    :func:`~relations.measures._halves.split_delta`) when they fit in ``max_split``, else by finer buckets."""
    if len(parts) == 1:
        p, r, n = parts[0]
        split = split_delta(p, r, n, cast(Fraction, t if t is not None else q), exp=t is None, max_entries=max_split)
        if split is not None:
            return split[0], split[1], SPLIT
    lo, hi = bucketed_delta(parts, t if t is not None else q, exp=t is None, bins=1 << 14, max_bins=max_bins)
    return lo, hi, BUCKETS


def _outward(lo: Fraction, hi: Fraction) -> str:
    """``lo, hi`` in decimal, rounded outward, with enough decimals (12 to 40) to show the width.

    Examples
    --------
    >>> _outward(Fraction(1) - Fraction(5, 10**14), Fraction(1) - Fraction(49, 10**15))
    '0.99999999999995, 0.999999999999951'
    >>> _outward(Fraction(1, 3), Fraction(1, 2))
    '0.333333333333, 0.5'
    """
    width = float(hi - lo)
    places = 40 if width < 1e-38 else min(40, max(12, 2 - math.floor(math.log10(width))))
    unit = 10 ** places

    def text(n: int) -> str:
        whole, frac = divmod(n, unit)
        return (f"{whole}.{frac:0{places}d}".rstrip("0").rstrip(".")) if n >= 0 else f"-{text(-n)}"

    return f"{text(math.floor(lo * unit))}, {text(math.ceil(hi * unit))}"


def _enclosed_max(name: str, best: tuple | None, enclosed: list, t: Fraction | None, q: Fraction | None
                  ) -> NotionResult:
    """The maximum over pairs when some pairs' profiles are enclosures: an enclosure of the maximum.

    ``enclosed`` holds ``(lo, hi, route, witness, parts)`` per pair; the witness and route shown are those of
    the pair with the highest upper end."""
    rows = [(lo, hi, route, witness) for lo, hi, route, witness, _ in enclosed]
    if best is not None:
        a, b = _exact_bounds(best, t, q)
        rows.append((a, b, "exact", best[2]))
    lo, hi = max(r[0] for r in rows), max(r[1] for r in rows)
    _, _, route, at = max(rows, key=lambda r: r[1])
    width = hi - lo
    text = f"in [{_outward(lo, hi)}] ({route}; width {float(width):.3g})"
    return NotionResult(name, ArbExpr(text, float((lo + hi) / 2), lambda bits: (lo, hi), rounded=True), at,
                        f"certified enclosure of width {float(width):.3g} ({route}): the loss lattice exceeds "
                        f"{MAX_SUPPORT} points")


def composed_eps_delta(comp: Composition, level: Fraction | int, *, name: str | None = None,
                       max_support: int = MAX_SUPPORT, max_bins: int = 1 << 18, max_split: int | None = None,
                       relative: Fraction = RELATIVE, max_evaluations: int = MAX_EVALUATIONS) -> NotionResult:
    """The least ``eps >= 0`` with ``delta(eps) <= level`` for a composition: exact, or a certified enclosure.

    Where every pair's composed loss lattice has at most ``max_support`` points, ``ln`` of an exact rational
    (or ``inf``).  Beyond, a certified enclosure ``[lo, hi]``: ``delta`` is non-increasing in ``eps``, so its
    enclosures at rational points (:func:`composed_delta`'s routes: count vectors split in halves, or losses
    bucketed both ways) prove ``eps_delta > lo`` (an enclosure above ``level``) and ``eps_delta <= hi`` (one at
    most ``level``); :func:`~relations.measures._inverse.least_eps` narrows the bracket to ``relative`` times
    ``hi`` or stops after ``max_evaluations`` enclosures per pair, the width stated.  The pair with the
    highest float estimate (:func:`~relations.measures._inverse.guide_eps`) is bracketed first; every other
    pair is then shown at most ``level`` at the bracket's upper end (buckets, then the finer routes), or
    bracketed in turn.  ``delta = 0`` is ``eps_d`` of the composition, exactly.

    Parameters
    ----------
    comp : Composition
    level : Fraction or int
        ``delta``, a rational in ``[0, 1]``.
    name : str, optional
        The result's name (default ``eps_delta(LEVEL)``).
    max_support, max_bins, max_split : int, optional
        As for :func:`composed_delta`.
    relative : Fraction, optional
        The enclosure's width sought, relative to its upper end (default ``1e-9``).
    max_evaluations : int, optional
        Enclosures of ``delta`` evaluated at most per bracketed pair (default 40).

    Returns
    -------
    NotionResult
        ``ln(t)`` for an exact rational ``t`` (written as an enclosure with its exact rational's size when
        ``t`` is very long), ``inf``, or an enclosure whose text names its route and width, with a maximising
        neighbour pair.

    Raises
    ------
    InputError
        If ``level`` is not a rational in ``[0, 1]``.

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> str(composed_eps_delta(randomized_response(3).repeated(2), Fraction(3, 8)).value)
    'ln(3)'

    The same beyond the lattice (``max_support=1``): an enclosure of ``ln 3 = 1.0986122886681...`` of width at
    most ``1e-9`` times it:

    >>> r = composed_eps_delta(randomized_response(3).repeated(2), Fraction(3, 8), max_support=1)
    >>> lo, hi = r.value.enclose(10)
    >>> float(lo) <= math.log(3) <= float(hi), hi - lo <= hi / 10**9
    (True, True)
    """
    level = delta_level(level)
    name = name or f"eps_delta({level})"
    max_split = MAX_SPLIT_ENTRIES if max_split is None else max_split
    best, at = Fraction(1), None
    enclosed = []
    for parts, witness in _pairs(comp):
        dist = loss_distribution(parts, max_support=max_support)
        if dist is None:
            enclosed.append((parts, witness))
            continue
        p = [dist.infinite] + [Fraction(a, dist.pden) for a in dist.pmass]
        r = [Fraction(0)] + [Fraction(b, dist.rden) for b in dist.rmass]
        t = hockey_stick_time(p, r, level)
        if t is None:
            return NotionResult(name, inf(), witness)
        assert isinstance(t, Fraction)
        if t > best or at is None:
            best, at = max(best, t), witness
    if enclosed:
        if level == 0:  # delta(eps) = 0 exactly from the largest composed loss on
            return _ratio_notion(comp, "eps_d", name)
        found = _enclosed_eps_delta(enclosed, level, (best, at) if at is not None else None, max_bins=max_bins,
                                    max_split=max_split, relative=relative, max_evaluations=max_evaluations)
        if found is not None:
            return NotionResult(name, found[0], found[1], found[2])
    if _bits(best) > MAX_SHOWN_BITS:
        final = best
        return NotionResult(name, ArbExpr(f"ln(t), t an exact rational of {_bits(best)} bits", math.log(best.numerator) - math.log(best.denominator),
                                          lambda bits: _log_enclosure(final, bits)), at)
    return NotionResult(name, Log(LogRatio.of(best)), at)


def _enclosed_eps_delta(enclosed: list, level: Fraction, exact: tuple[Fraction, Witness] | None, *, max_bins: int,
                        max_split: int, relative: Fraction, max_evaluations: int
                        ) -> tuple[Real, Witness, str] | None:
    """``eps_delta(level)`` over the exactly computed pairs (``exact = (t, witness)``: their maximum ``ln t``, or
    None) and the ``enclosed`` ones: ``(value, witness, detail)``, or None when ``ln t`` is proved the maximum.

    A pair is passed over when ``delta`` is proved at most ``level`` at the largest value known so far (at
    ``eps = ln t`` itself, or at a bracket's upper end): by buckets, then by :func:`_refine`'s finer routes."""
    ranked = []
    for parts, witness in enclosed:
        finite = Fraction(1)
        for p, r, n in parts:
            finite *= (1 - loss_atoms(p, r)[0]) ** n
        if 1 - finite > level:  # the outcomes of infinite loss alone exceed `level` (exactly)
            return inf(), witness, ""
        guess = guide_eps(parts, level)  # a float, only to rank the pairs and start the bracket
        ranked.append((math.inf if guess is None else guess, guess, parts, witness))
    ranked.sort(key=lambda e: -e[0])
    point: tuple[Fraction | None, Fraction | None] | None = None  # (t, None): eps = ln t; (None, q): eps = q
    log_t = (Fraction(0), Fraction(0))
    at, route, top, proved = None, "exact", None, exact is not None
    if exact is not None:
        with working_precision(128):
            log_t = interval(ball(exact[0]).log())
        point, at, top = (exact[0], None), exact[1], log_t[1]
    floor = log_t[0]
    evaluations = 0
    for _, guess, parts, witness in ranked:
        start = Fraction(0)
        if point is not None:  # is this pair at most `level` where the largest value known so far is?
            t, q = point
            lo, hi = bucketed_delta(parts, t if t is not None else q, exp=t is None, bins=1 << 12, max_bins=1 << 12)
            if hi <= level:
                continue
            lo, hi, _ = _refine(parts, t, q, max_bins=max_bins, max_split=max_split)
            if hi <= level:
                continue
            if lo > level:  # this pair's eps_delta is larger
                start = q if q is not None else log_t[0]
        routes: set[str] = set()

        def evaluate(x: Fraction, parts: list = parts, routes: set = routes) -> tuple[Fraction, Fraction]:
            lo, hi, used = _refine(parts, None, x, max_bins=max_bins, max_split=max_split)
            routes.add(used)
            return lo, hi

        bracket = least_eps(evaluate, level, lo=start, hi=largest_loss(parts), guess=guess, relative=relative,
                            max_evaluations=max_evaluations)
        evaluations += bracket.evaluations
        floor = max(floor, bracket.lo)
        if proved and bracket.hi <= log_t[0]:
            continue  # below the exact pairs' ln t
        proved = False
        if top is None or bracket.hi > top:
            top, at, point = bracket.hi, witness, (None, bracket.hi)
            route = " and ".join(sorted(routes))
    if proved:
        return None
    assert top is not None and at is not None
    lo, hi = floor, top
    width = hi - lo
    if width == 0:  # eps_delta >= lo (the start) and delta(lo) <= level: lo itself (0, for delta >= delta(0))
        return Rational(lo), at, ""
    text = f"in [{_outward(lo, hi)}] ({route}; width {float(width):.3g})"
    value = ArbExpr(text, float((lo + hi) / 2), lambda bits: (lo, hi), rounded=True)
    return value, at, (f"certified enclosure of width {float(width):.3g} ({route}; {evaluations} enclosures of "
                       f"delta(eps)): the loss lattice exceeds {MAX_SUPPORT} points")


def _log_enclosure(t: Fraction, bits: int) -> tuple[Fraction, Fraction]:
    with working_precision(bits + 64):
        return interval(ball(t).log())


# ---------------------------------------------------------------------------------------------- buckets


_U = 2.0 ** -53


def bucketed_delta(parts: list[tuple[tuple, tuple, int]], t_or_q: Fraction | None, *, exp: bool = False,
                   bins: int = 1 << 16, max_bins: int = 1 << 23, relative: float = 1e-9
                   ) -> tuple[Fraction, Fraction]:
    """A certified enclosure ``[lo, hi]`` of one pair's composed ``delta(eps)``, from losses bucketed both ways.

    ``t_or_q`` is ``t = e^eps`` (or ``q = eps`` when ``exp``).  The grid is refined (twice the buckets each
    round, up to ``max_bins``) until the width is at most ``relative`` times the value.

    Each use's loss ``ln(P_y / R_y)`` is enclosed (ball arithmetic) and floored to the grid ``h Z``;
    a composed bucket ``N`` then holds outcomes whose loss lies in ``[N h, (N + W) h]``, ``W`` the number
    of uses times the widest per-use span.  The ``P``- and ``R``-masses of every bucket are float sums
    and products of non-negative numbers: each is within a relative ``gamma = (k (m + 2) + 2) u / (1 - ...)``
    of its exact value (``u = 2^-53``, ``k`` uses of ``m`` atoms, one more rounding for each mass taken in
    floats), plus an absolute ``2^-1000`` per bucket for underflow.  A bucket entirely above ``eps``
    contributes ``P - e^eps R`` (each of its outcomes does), one entirely below contributes ``0``, and one
    that straddles ``eps`` lies between ``max(0, P - e^eps R)`` and ``P (1 - e^(eps - top))``.
    """
    assert t_or_q is not None
    value = Fraction(t_or_q)
    uses = []
    finite = Fraction(1)
    total_uses = 0
    atom_count = 0
    for p, q, n in parts:
        inf_mass, atoms = loss_atoms(p, q)
        finite *= (1 - inf_mass) ** n
        with working_precision(128):
            encl = [(interval(ball(r).log()), a, b) for r, (a, b) in atoms.items()]
        uses.append((encl, n))
        total_uses += n
        atom_count = max(atom_count, len(atoms))
    if exp and value > sum(n * max((hi for (_, hi), _, _ in e), default=Fraction(0)) for e, n in uses):
        return 1 - finite, 1 - finite  # every finite loss below eps (and e^eps, possibly huge, not needed)
    with working_precision(128):
        eps_lo, eps_hi, t_lo, t_hi = threshold_enclosure(value, exp=exp)
    span = float(sum(n * (max((hi for (_, hi), _, _ in e), default=0) - min((lo for (lo, _), _, _ in e), default=0))
                     for e, n in uses)) + 1e-300
    gamma_steps = total_uses * (atom_count + 2) + 8
    gamma = Fraction(gamma_steps) * Fraction(_U) / (1 - Fraction(gamma_steps) * Fraction(_U))
    tiny = Fraction(2) ** -1000
    result = (Fraction(0), Fraction(1))
    nb = bins
    while True:
        h = Fraction(span / nb).limit_denominator(1 << 40) or Fraction(1, 1 << 40)
        pm = np.ones(1)
        rm = np.ones(1)
        offset = 0
        width = 0
        for encl, n in uses:
            idx = [math.floor(lo / h) for (lo, _), _, _ in encl]
            top = [math.ceil(hi / h) for (_, hi), _, _ in encl]
            base_i = min(idx) if idx else 0
            kern_len = (max(idx) - base_i + 1) if idx else 1
            kp = np.zeros(kern_len)
            kr = np.zeros(kern_len)
            for i, (_, a, b) in zip(idx, encl):
                kp[i - base_i] += float(a)
                kr[i - base_i] += float(b)
            w = max((tp - i for i, tp in zip(idx, top)), default=0)
            for _ in range(n):
                pm = _sparse_convolve(pm, kp)
                rm = _sparse_convolve(rm, kr)
            offset += n * base_i
            width += n * w
        lo_edges = (np.arange(len(pm)) + offset)
        # exact thresholds: bucket N is above when N h >= eps_hi, below when (N + width) h <= eps_lo
        above = lo_edges * float(h) >= float(eps_hi) + 1e-12 * max(1.0, abs(float(eps_hi)))
        below = (lo_edges + width) * float(h) <= float(eps_lo) - 1e-12 * max(1.0, abs(float(eps_lo)))
        straddle = ~(above | below)
        count = len(pm)
        sp = math.fsum(pm[above].tolist())
        sr = math.fsum(rm[above].tolist())
        g = gamma + Fraction(count) * Fraction(_U)  # fsum is correctly rounded; one more rounding each
        sp_f, sr_f = Fraction(sp), Fraction(sr)
        slack = tiny * count
        lo = max(Fraction(0), sp_f * (1 - g) - slack - t_hi * (sr_f * (1 + g) + slack))
        hi = sp_f * (1 + g) + slack - t_lo * max(Fraction(0), sr_f * (1 - g) - slack)
        where = np.nonzero(straddle)[0].tolist()
        s_lo, s_hi = _straddle_sums([float(pm[N]) for N in where], [float(rm[N]) for N in where],
                                    [(N + offset) * h for N in where], width * h, eps_lo, t_lo, t_hi, g, tiny)
        lo += s_lo
        hi += s_hi
        lo = (1 - finite) + lo
        hi = min(Fraction(1), (1 - finite) + hi)
        result = (min(lo, hi), hi)
        if hi - lo <= Fraction(relative) * max(lo, Fraction(1, 10**300)) or nb * 2 > max_bins:
            return result
        nb *= 2


def _straddle_sums(ps: list[float], rs: list[float], bottoms: list[Fraction], span: Fraction, eps_lo: Fraction,
                   t_lo: Fraction, t_hi: Fraction, g: Fraction, tiny: Fraction) -> tuple[Fraction, Fraction]:
    """Lower and upper bounds of the total contribution of the buckets that straddle ``eps``: bucket ``i`` holds
    outcomes of losses in ``[bottoms[i], bottoms[i] + span]`` with float masses ``ps[i]``, ``rs[i]``, each within
    a relative ``g`` and an absolute ``tiny`` of the exact ones.

    The bounds of :func:`_straddle_upper` (the least of the top's and the chord's) and ``max(0, P - e^eps R)``,
    evaluated in ball arithmetic on the boxes of possible masses (an interval extension: the box holds the exact
    masses, so the ball holds the bound at them) and summed as balls, converted once.

    Examples
    --------
    The case of :func:`_straddle_upper`'s example, exact masses (``e^(1/2)`` between 1.64 and 1.65); the value
    is ``(1 - e^(-1/2)) / 2 = 0.19673...``:

    >>> import math
    >>> lo, hi = _straddle_sums([0.5], [math.exp(-1) / 2], [Fraction(0)], Fraction(2), Fraction(1, 2),
    ...                         Fraction(164, 100), Fraction(165, 100), Fraction(0), Fraction(0))
    >>> round(float(hi), 4), float(lo) <= 0.19673 <= float(hi)
    (0.284, True)
    """
    from flint import arb

    if not ps:
        return Fraction(0), Fraction(0)
    with working_precision(128):
        zero, unit = arb(0), arb(0, 1)
        gb, tiny_b, eps_b = ball(g), ball(tiny), ball(eps_lo)
        t_b = ball(t_lo).union(ball(t_hi))
        width = ball(span)
        ew = (-width).exp()
        denominator = 1 - ew
        chord_ok = span > 0
        lo_sum, hi_sum = arb(0), arb(0)
        for p, r, bottom in zip(ps, rs, bottoms):
            P, R = arb(p), arb(r)
            P = (P + (P * gb + tiny_b) * unit).max(zero)
            R = (R + (R * gb + tiny_b) * unit).max(zero)
            lo_sum += (P - t_b * R).max(zero)
            b = ball(bottom)
            f_top = (1 - (eps_b - b - width).exp()).max(zero)
            upper = P * f_top
            if chord_ok:
                f_bottom = (1 - (eps_b - b).exp()).max(zero)
                eb = b.exp()
                chord = (f_top * (P - R * eb).max(zero) + f_bottom * (R * eb - ew * P).max(zero)) / denominator
                upper = upper.min(chord)
            hi_sum += upper
        return max(Fraction(0), interval(lo_sum)[0]), interval(hi_sum)[1]


def _straddle_upper(p_lo: Fraction, p_hi: Fraction, r_lo: Fraction, r_hi: Fraction, bottom: Fraction,
                    top: Fraction, eps_lo: Fraction) -> Fraction:
    """An upper bound of ``sum_o P(o) (1 - e^(eps - L(o)))_+`` over a bucket whose outcomes have losses ``L`` in
    ``[bottom, top]``, ``P``-mass in ``[p_lo, p_hi]`` and ``R``-mass (``sum_o P(o) e^-L(o)``) in ``[r_lo, r_hi]``.

    The least of two bounds: ``P (1 - e^(eps - top))`` (every outcome at the top), and the chord of the convex
    function ``v -> (1 - e^eps e^-bottom v)_+`` on ``v = e^(bottom - L)`` in ``[e^-w, 1]`` (``w = top - bottom``),
    whose ``P``-mean ``R e^bottom / P`` is known: ``(f(top) (P - R e^bottom) + f(bottom) (R e^bottom - e^-w P)) /
    (1 - e^-w)``, ``f(L) = (1 - e^(eps - L))_+``.

    Examples
    --------
    One outcome of loss 1, ``P = 1/2``, ``R = e^-1 / 2``, in the bucket ``[0, 2]``, at ``eps = 1/2``: the value is
    ``(1 - e^(-1/2)) / 2 = 0.1967...``; the chord gives 0.2840..., the top alone ``(1 - e^(-3/2)) / 2 = 0.388...``:

    >>> import math
    >>> r = Fraction(math.exp(-1) / 2)
    >>> round(float(_straddle_upper(Fraction(1, 2), Fraction(1, 2), r, r, Fraction(0), Fraction(2), Fraction(1, 2))), 4)
    0.284
    """
    with working_precision(128):
        f_top = interval(1 - (ball(eps_lo) - ball(top)).exp())[1] if top > eps_lo else Fraction(0)
        simple = p_hi * max(Fraction(0), f_top)
        if top <= bottom:
            return simple
        f_bottom = max(Fraction(0), interval(1 - (ball(eps_lo) - ball(bottom)).exp())[1]) if bottom > eps_lo \
            else Fraction(0)
        eb_lo, eb_hi = interval(ball(bottom).exp())
        ew_lo = interval((ball(bottom) - ball(top)).exp())[0]
        denominator = interval(1 - (ball(bottom) - ball(top)).exp())[0]
        if denominator <= 0:
            return simple
        first = max(Fraction(0), p_hi - r_lo * eb_lo)
        second = max(Fraction(0), r_hi * eb_hi - ew_lo * p_lo)
        chord = (max(Fraction(0), f_top) * first + f_bottom * second) / denominator
    return min(simple, chord)


def _sparse_convolve(a: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """``a * kernel`` (full convolution) as a sum of shifted scaled copies: every output a sum of
    non-negative products, in at most ``len(nonzero kernel)`` additions."""
    out = np.zeros(len(a) + len(kernel) - 1)
    for i in np.nonzero(kernel)[0].tolist():
        out[i:i + len(a)] += kernel[i] * a
    return out


# ---------------------------------------------------------------------------------------------- notions


def _log_form(terms: list[tuple[Fraction, Fraction]], text: str) -> Real:
    """``sum_i c_i ln(q_i)`` as a real with its exact linear form in logarithms, written ``text`` (never expanded
    into one huge ``ln(q)``); a single ``ln(q)`` stays a :class:`~relations.numbers.Log`."""
    if len(terms) == 1 and terms[0][0] == 1:
        return Log(LogRatio.of(terms[0][1]))
    approx = sum(float(c) * (math.log(q.numerator) - math.log(q.denominator)) for c, q in terms)

    def enclose(bits: int):
        with working_precision(bits + 32):
            total = ball(Fraction(0))
            for c, q in terms:
                total += ball(q).log() * ball(c)
            return interval(total)

    return ArbExpr(text, approx, enclose, form=tuple((Fraction(c), Fraction(q)) for c, q in terms))


def _scaled(value: Real, k: int, text: str) -> Real:
    """``k`` times an exact real."""
    if isinstance(value, Rational):
        return Rational(value.value * k)
    if isinstance(value, Log):
        if value.infinite:
            return value
        assert value.log.ratio is not None
        return _log_form([(Fraction(k), value.log.ratio)], text)
    if value.infinite:
        return value
    return affine_enclosure(value, None, Fraction(k), Fraction(0), text)


def composed_notion(comp: Composition, name: str, *, limit: int | None = None) -> NotionResult:
    """A notion of a composition: through the counts of each output when small, else by composition rules.

    Parameters
    ----------
    comp : Composition
    name : str
        A notion with its argument (``"delta(1)"``, ``"eps_m"``, ``"renyi(2)"``).
    limit : int, optional
        Largest sufficient-statistic channel (default :data:`~relations.model.MAX_SUFFICIENT_ENTRIES`).

    Returns
    -------
    NotionResult

    Raises
    ------
    InputError
        For an unknown notion, or one that needs the counts route (``eps_m``, the leakages) when it is
        beyond ``limit``.

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> rr = randomized_response(3)
    >>> round(float(composed_notion(rr.repeated(1000), "eps_d").value), 6), round(1000 * math.log(3), 6)
    (1098.612289, 1098.612289)
    >>> r = composed_notion(rr.repeated(1000), "renyi(2)")
    >>> round(float(r.value), 6) == round(1000 * math.log(7 / 3), 6), r.witness
    (True, Witness(x=0, x_prime=1, y=None))
    """
    from relations.measures._notions import notion_result, parse_notion
    from relations.model._composed import MAX_SUFFICIENT_ENTRIES
    from relations.notions import NOTIONS

    limit = MAX_SUFFICIENT_ENTRIES if limit is None else limit
    budgets = ("eps_i", "eps_d", "eps_m", "sigma_min", "eps_all", "neg_sigma")
    base_name, arg = parse_notion(name) if name not in budgets else (name, None)
    n = comp.base.channel.shape[0]
    single = len(comp.parts) == 1
    k = comp.counts[0]
    if single and base_name in NOTIONS and NOTIONS[base_name].tensorises:  # k times one use's
        one = notion_result(comp.base, name)
        return NotionResult(name, _scaled(one.value, k, f"{k} {one.value}"), one.witness)
    if comp.counts_fit(limit) and base_name not in ("sigma_min", "neg_sigma", "eps_all"):
        if base_name in budgets:
            from relations.measures._api import measure

            res = measure(comp.sufficient(limit=limit))
            b = getattr(res, base_name)
            if base_name == "eps_m":
                return NotionResult(name, b.value_real if hasattr(b, "value_real") else _mi_real(b))
            return NotionResult(name, Log(b.exact), b.witness)
        return notion_result(comp.sufficient(limit=limit), name)
    if base_name in ("delta", "tv"):
        return composed_delta(comp, arg if arg is not None else Fraction(0), name=name)
    if base_name == "eps_delta":
        assert isinstance(arg, Rational)
        return composed_eps_delta(comp, arg.value, name=name)
    if base_name in ("sigma_min", "neg_sigma"):
        from relations.measures._dense import sigma_min

        b = sigma_min(comp.base)
        assert b.exact is not None  # exact mechanisms only
        v: Real = Log(b.exact)
        if base_name == "neg_sigma":
            v = Log(LogRatio.of(1 / b.exact.ratio)) if b.exact.ratio else inf()
        return NotionResult(name, v, b.witness)
    if base_name in ("eps_d", "eps_all", "eps_i"):
        return _ratio_notion(comp, base_name, name)
    raise InputError(f"{name} of {comp.describe()}: the counts of each output have {comp.type_counts()} values "
                     f"({comp.type_counts() * n} entries, beyond the limits of the counts route); beyond them only "
                     f"{', '.join(COMPOSED_NOTIONS)} are computed" + ("" if single else
                                                                      " (renyi, kl, rho for one mechanism repeated)"))


def _mi_real(b) -> Real:
    enc = b.enclosure
    lo, hi = Fraction(enc.lower), Fraction(enc.upper)
    return ArbExpr(f"I(X;Y) in [{float(lo):.12g}, {float(hi):.12g}]", float((lo + hi) / 2), lambda bits: (lo, hi),
                   rounded=True)


def _ratio_notion(comp: Composition, which: str, name: str) -> NotionResult:
    """``eps_d`` / ``eps_all`` / ``eps_i`` of a composition: per pair, the largest ratio of each use multiplied.

    The largest composed ratio ``prod_uses P_y/R_y`` over outcomes with ``P > 0`` is the product of each
    use's largest ratio (all uses may take their best output at once); ``eps_i`` adds the prior ratio.
    """
    base = comp.base
    rows = [part.channel.exact for part in comp.parts]
    prior = base.prior.exact
    n = base.channel.shape[0]
    if which == "eps_all":
        pairs = [(x, xp) for x in range(n) for xp in range(n) if x != xp]
    else:
        pairs = ordered_pairs(base).tolist()
    best_terms: list[tuple[Fraction, Fraction]] | None = None
    best_val = -math.inf
    at = None
    for x, xp in pairs:
        if which == "eps_i" and prior[x] == 0:
            continue
        terms: list[tuple[Fraction, Fraction]] = []
        infinite = empty = False
        for r, k in zip(rows, comp.counts):
            ratios = [a / b for a, b in zip(r[x], r[xp]) if a and b]
            if any(a and not b for a, b in zip(r[x], r[xp])):
                infinite = True
                break
            if not ratios:
                empty = True
                break
            terms.append((Fraction(k), max(ratios)))
        if infinite:
            return NotionResult(name, inf(), Witness(x, xp, None))
        if empty:
            continue
        if which == "eps_i":
            if prior[xp] == 0:
                return NotionResult(name, inf(), Witness(x, xp, None))
            terms.append((Fraction(1), prior[x] / prior[xp]))
        val = sum(float(c) * math.log(q) for c, q in terms)
        if best_terms is not None and sorted(terms) == sorted(best_terms):
            continue
        if best_terms is None or val > best_val + 1e-9 * max(1.0, abs(val)) or (
                abs(val - best_val) <= 1e-9 * max(1.0, abs(val))
                and (compare(log_combination(terms, ""), log_combination(best_terms, "")) or 0) > 0):
            best_terms, best_val, at = terms, val, Witness(x, xp, None)
    if best_terms is None:
        return NotionResult(name, Rational(Fraction(0)))
    text = " + ".join(f"{c} ln({q})" if c != 1 else f"ln({q})" for c, q in best_terms)
    return NotionResult(name, _log_form(best_terms, text), at)
