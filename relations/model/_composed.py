"""Repeated use and composition: one input reported through several mechanisms, independently.

:class:`Composition` is the mechanism that releases, for one input ``x``, the outputs of ``parts[0]``
used ``counts[0]`` times, ``parts[1]`` used ``counts[1]`` times, ..., every use independent given
``x`` (sequential composition, non-adaptive).  :meth:`Mechanism.repeated <relations.model.Mechanism.repeated>`
builds the repetition of one mechanism, :func:`compose` the composition of several on the same
input space (same prior, same neighbour relation).

It is never expanded to its ``m^k`` outputs unless asked (:meth:`Composition.expanded`, for small
sizes).  Two exact equivalents are used instead:

* the **counts** of each output (the *type* of the ``k`` reports) are a sufficient statistic for
  ``x``: ``p(y_1..y_k | x) = prod_y Q[x][y]^{c_y}`` depends on the sequence only through its counts
  ``c``, so every sequence of a type class has the same likelihood in every input, and
  :meth:`Composition.sufficient` -- the channel ``x -> c`` with ``p(c | x) = multinomial(c)
  prod_y Q[x][y]^{c_y}`` -- has the same value as the composition in every notion the tool has
  (ratios, profile, divergences and leakages alike: each is a sum or maximum over outputs in which
  a type class's sequences are interchangeable).  ``k`` reports of an ``m``-output mechanism have
  ``C(k+m-1, m-1)`` types, not ``m^k`` sequences;
* the **privacy loss distribution** of each neighbour pair
  (:mod:`relations.measures._composition`), for the profile at large ``k``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from relations.errors import InputError
from relations.model._distributions import Channel
from relations.model._products import ProductChannel

__all__ = ["MAX_REPEAT", "MAX_SUFFICIENT_ENTRIES", "MAX_SUFFICIENT_WORK", "MAX_EXPANDED_ENTRIES", "Composition", "compose", "type_count",
           "count_vectors"]

#: Largest number of uses ``k`` of one mechanism (``"repeat"`` in a file, ``--repeat``): the exact profile's
#: cost grows with ``k`` (its support has up to ``k (m - 1) + 1`` points per lattice direction).
MAX_REPEAT = 100_000
#: Largest sufficient-statistic channel (inputs times count vectors) :meth:`Composition.sufficient` builds.
MAX_SUFFICIENT_ENTRIES = 1 << 18
#: Largest work of the counts route: entries of the sufficient channel times the number of uses (the entries'
#: sizes in bits grow with the uses).
MAX_SUFFICIENT_WORK = 1 << 24
#: Largest expansion (inputs times output sequences) :meth:`Composition.expanded` builds.
MAX_EXPANDED_ENTRIES = 1 << 20


def type_count(k: int, m: int) -> int:
    """The number of count vectors of ``k`` reports over ``m`` outputs: ``C(k + m - 1, m - 1)``.

    Examples
    --------
    >>> type_count(30, 4), 4 ** 30
    (5456, 1152921504606846976)
    """
    return math.comb(k + m - 1, m - 1)


def count_vectors(k: int, m: int) -> Iterator[tuple[int, ...]]:
    """Every vector of ``m`` non-negative counts summing to ``k``, in lexicographic order (first count largest first).

    Examples
    --------
    >>> list(count_vectors(2, 2))
    [(2, 0), (1, 1), (0, 2)]
    """
    if m == 1:
        yield (k,)
        return
    for first in range(k, -1, -1):
        for rest in count_vectors(k - first, m - 1):
            yield (first, *rest)


def _count(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what}: expected a whole number of uses from 1 to {MAX_REPEAT}, got {value!r}")
    if not 1 <= value <= MAX_REPEAT:
        raise InputError(f"{what}: {value} uses; the limit is 1 to {MAX_REPEAT} (MAX_REPEAT)")
    return value


@dataclass(frozen=True, eq=False)
class Composition:
    """``parts[i]`` used ``counts[i]`` times on the same input, every use independent given the input.

    Build with :meth:`Mechanism.repeated <relations.model.Mechanism.repeated>` or :func:`compose`.
    The parts share their prior and input space (with its neighbour relation) and are exact dense
    mechanisms.

    Examples
    --------
    >>> from relations.model import Mechanism
    >>> rr = Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]])
    >>> c = rr.repeated(3)
    >>> c.uses, c.sufficient().outputs
    (3, ('[0×3]', '[0×2,1]', '[0,1×2]', '[1×3]'))
    >>> c.sufficient().channel.exact[0]
    (Fraction(27, 64), Fraction(27, 64), Fraction(9, 64), Fraction(1, 64))
    """

    parts: tuple  # tuple[Mechanism, ...]; typed loosely: Mechanism imports this module
    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.parts or len(self.parts) != len(self.counts):
            raise InputError("a composition needs at least one part, each with its number of uses")
        first = self.parts[0]
        for i, (part, n) in enumerate(zip(self.parts, self.counts)):
            _count(n, f"part {i}" if len(self.parts) > 1 else "repeat")
            if isinstance(part.channel, ProductChannel):
                raise InputError(f"part {i}: a product form; compose its dense form (Mechanism.dense()) or the "
                                 "local channel")
            if not part.exact:
                raise InputError(f"part {i}: a float-mode mechanism; composition is computed exactly "
                                 "(Mechanism.in_mode('exact'))")
            if part.setting != first.setting or part.inputs != first.inputs:
                raise InputError(f"part {i}: another input space or neighbour relation than part 0; the parts of a "
                                 "composition share their input")
            if part.prior.exact != first.prior.exact:
                raise InputError(f"part {i}: another prior than part 0; the parts of a composition share their input")

    @property
    def uses(self) -> int:
        """The total number of uses."""
        return sum(self.counts)

    @property
    def base(self):
        """The first part: its prior, input space and setting are the composition's."""
        return self.parts[0]

    def type_counts(self) -> int:
        """The number of outputs of :meth:`sufficient`: the product over parts of ``C(k + m - 1, m - 1)``
        (``m`` counting only the outputs some input reaches)."""
        total = 1
        for part, n in zip(self.parts, self.counts):
            total *= type_count(n, len(_reached(part)))
        return total

    def counts_fit(self, limit: int = MAX_SUFFICIENT_ENTRIES) -> bool:
        """Whether :meth:`sufficient` is within ``limit`` entries and :data:`MAX_SUFFICIENT_WORK`."""
        size = self.type_counts() * self.base.channel.shape[0]
        return size <= limit and size * self.uses <= MAX_SUFFICIENT_WORK

    def sufficient(self, *, limit: int = MAX_SUFFICIENT_ENTRIES):
        """The exact equivalent mechanism ``x -> (counts of each output, per part)``.

        Its outputs are the count vectors (``[a×2,b]``: ``a`` twice, ``b`` once; several parts joined
        by a vertical bar); outputs no input reaches are left out.  It has the same value as the composition
        in every notion (the module docstring says why).

        Raises
        ------
        InputError
            If it has more than ``limit`` entries (inputs times count vectors), or entries times uses exceed
            :data:`MAX_SUFFICIENT_WORK`, before anything is built.
        """
        base = self.base
        mechanism = type(base)  # Mechanism (which imports this module)
        n = base.channel.shape[0]
        size = self.type_counts() * n
        if not self.counts_fit(limit):
            raise InputError(f"{self.describe()}: the counts of each output take {self.type_counts()} values, "
                             f"{size} entries with {n} inputs, more than the limit {limit} entries or "
                             f"{MAX_SUFFICIENT_WORK} entries times uses")
        if "_sufficient" in self.__dict__:  # built once per composition (frozen: kept beside the fields)
            return self.__dict__["_sufficient"]
        rows: list[list[Fraction]] = [[Fraction(1)] for _ in range(n)]
        labels: list[str] = [""]
        for i, (part, k) in enumerate(zip(self.parts, self.counts)):
            reached = _reached(part)
            names = [part.outputs[y] for y in reached]
            types = list(count_vectors(k, len(reached)))
            weights = [_multinomial(c) for c in types]
            new_rows = []
            for x, row in enumerate(part.channel.exact):
                # the powers of each entry's numerator and denominator as integers (coprime, as theirs are), and
                # each probability reduced once: the same Fractions as multiplying Fractions, a gcd for each
                tops, bottoms = [[1] for _ in reached], [[1] for _ in reached]
                for j, y in enumerate(reached):
                    a, b, top, bottom = row[y].numerator, row[y].denominator, tops[j], bottoms[j]
                    for _ in range(k):
                        top.append(top[-1] * a)
                        bottom.append(bottom[-1] * b)
                probs = []
                for c, w in zip(types, weights):
                    num, den = w, 1
                    for j, cj in enumerate(c):
                        if cj:
                            num *= tops[j][cj]
                            den *= bottoms[j][cj]
                    probs.append(Fraction(num, den))
                new_rows.append(probs if i == 0 else [a * b for a in rows[x] for b in probs])
            rows = new_rows
            part_labels = [_type_label(c, names) for c in types]
            labels = [f"{a} | {b}" if a else b for a in labels for b in part_labels]
        channel = Channel.from_exact(rows)
        built = mechanism(base.setting, base.prior, channel, base.inputs, tuple(labels), True,
                          f"{base.source}: {self.describe()}" if base.source else self.describe(), base.mode_rule)
        self.__dict__["_sufficient"] = built
        return built

    def expanded(self, *, limit: int = MAX_EXPANDED_ENTRIES):
        """The composition with its output sequences spelt out (``m1^k1 m2^k2 ...`` outputs): small sizes only.

        Raises
        ------
        InputError
            If it would have more than ``limit`` entries.
        """
        base = self.base
        n = base.channel.shape[0]
        size = n
        for part, k in zip(self.parts, self.counts):
            size *= part.channel.shape[1] ** k
            if size > limit:
                raise InputError(f"{self.describe()}: the expansion has more than {limit} entries")
        rows: list[list[Fraction]] = [[Fraction(1)] for _ in range(n)]
        labels = [""]
        for part, k in zip(self.parts, self.counts):
            for _ in range(k):
                rows = [[a * b for a in rows[x] for b in part.channel.exact[x]] for x in range(n)]
                labels = [f"{a},{b}" if a else b for a in labels for b in part.outputs]
        labels = [f"({a})" for a in labels]
        return type(base)(base.setting, base.prior, Channel.from_exact(rows), base.inputs, tuple(labels), True,
                          self.describe(), base.mode_rule)

    def describe(self) -> str:
        """``"30 uses"`` or ``"2 + 3 uses of 2 mechanisms"``."""
        if len(self.parts) == 1:
            return f"{self.counts[0]} use{'s' if self.counts[0] != 1 else ''}"
        return f"{' + '.join(map(str, self.counts))} uses of {len(self.parts)} mechanisms"

    def __repr__(self) -> str:
        return f"Composition({self.describe()}, {self.base.channel.shape[0]} inputs)"


def _reached(part) -> list[int]:
    """The outputs some input reaches (a column that is zero everywhere never occurs)."""
    arr = part.channel.exact
    m = part.channel.shape[1]
    return [y for y in range(m) if any(row[y] for row in arr)]


def _multinomial(c: Sequence[int]) -> int:
    total, out = 0, 1
    for cj in c:
        total += cj
        out *= math.comb(total, cj)
    return out


def _type_label(c: Sequence[int], names: Sequence[str]) -> str:
    return "[" + ",".join(name if cj == 1 else f"{name}×{cj}" for cj, name in zip(c, names) if cj) + "]"


def compose(*parts, counts: Sequence[int] | None = None) -> Composition:
    """The composition of mechanisms on the same input: each used ``counts[i]`` times (once by default).

    A :class:`Composition` among the parts contributes its own parts.

    Parameters
    ----------
    *parts : Mechanism or Composition
        Exact dense mechanisms with the same prior and input space.
    counts : sequence of int, optional
        Uses of each part (default 1 each), from 1 to :data:`MAX_REPEAT`.

    Returns
    -------
    Composition
        The parts, each with its count, never expanded.

    Raises
    ------
    InputError
        If the parts do not share their input space and prior, or a count is out of range.

    Examples
    --------
    >>> from relations.model import Mechanism
    >>> a = Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]])
    >>> b = Mechanism.local([["1/2", "1/2"], ["0", "1"]])
    >>> c = compose(a, b, counts=[2, 1])
    >>> c.describe(), c.type_counts(), c.expanded().channel.shape
    ('2 + 1 uses of 2 mechanisms', 6, (2, 8))
    """
    if counts is None:
        counts = [1] * len(parts)
    if len(counts) != len(parts):
        raise InputError(f"compose: {len(parts)} parts but {len(counts)} counts")
    flat: list = []
    flat_counts: list[int] = []
    for part, n in zip(parts, counts):
        n = _count(n, "compose")
        if isinstance(part, Composition):
            flat.extend(part.parts)
            flat_counts.extend(c * n for c in part.counts)
        else:
            flat.append(part)
            flat_counts.append(n)
    merged: dict[int, int] = {}
    for i, part in enumerate(flat):  # the same mechanism twice: one part used more often
        j = next((j for j in merged if flat[j] is part), i)
        merged[j] = merged.get(j, 0) + flat_counts[i]
    return Composition(tuple(flat[j] for j in merged), tuple(merged.values()))
