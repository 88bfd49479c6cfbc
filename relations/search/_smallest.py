"""Smallest witnesses first: every small mechanism, screened in vectorised floats, candidates decided exactly.

A conjecture's refutation starts here (:func:`smallest_first`).  The mechanisms of a setting are
enumerated in increasing size, shape by shape (:func:`schedule`: fewest inputs times outputs
first, then fewest inputs), each shape with every row and every prior whose entries have
denominators at most a bound (:func:`~relations.search._small_scope.stochastic_rows`).  Within a
shape the members are ordered by their largest denominator (then the sum of their denominators,
then their index), so the first member that refutes is the smallest witness of the enumeration:
fewest inputs x outputs, then smallest denominators.

Nothing is decided exactly before it is screened: every notion of the conjecture is computed for the
whole shape at once in float64 (:func:`~relations.measures._batch.dense_values`, whose divergences
are :mod:`relations.measures._divergences`'s; a notion that depends on the channel only is computed
once per channel, not once per prior) and the conjecture's float gap (:func:`gap_array`, oriented so
that a positive gap refutes) is evaluated for every member.  A member is a *candidate* when its gap
is above ``-WINDOW * (1 + |lhs| + |rhs|)`` or undefined in floats; the rest satisfy the conjecture
in floats by more than the window, far above the floats' rounding (about ``1e-15`` relative) and the
grid error of ``rho``'s float (a lower bound of the supremum; ``tests/test_smallest.py`` compares it
with the certified value).  Candidates are decided exactly (:func:`relations.checking._conjecture_eval.decide`)
in the order above: clear violations (gap above the window), then *ties* (within the window, or
undefined), one per distinct float signature of the conjecture's notions.  Both are capped by
counts (:class:`Budget`), never by time, so the verdict and the witness do not depend on the
machine's speed; gaps and signatures are rounded to 24 bits first, so that last-bit differences between
machines do not change them either.

Inputs of a local mechanism may be relabelled with the prior (every two inputs are neighbours):
channels are enumerated with their rows as a multiset, and every prior with them, one member of
each orbit of input relabellings at least.

Examples
--------
>>> from relations.checking._conjectures import parse_conjecture
>>> r = smallest_first(parse_conjecture("rho <= kl"), "local", quick=True)
>>> r.witness.channel.exact is not None, r.shape.n * r.shape.m
(True, 4)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import numpy as np

from relations.checking._conjecture_eval import Decision, decide
from relations.checking._conjectures import Conjecture
from relations.measures._batch import dense_values, ordered_pairs
from relations.measures._divergences import parse
from relations.model._mechanism import Mechanism
from relations.notions import NOTIONS, evaluator, names
from relations.search._small_scope import stochastic_rows

__all__ = ["WINDOW", "Budget", "Shape", "Outcome", "schedule", "gap_array", "float_notions", "screen_gap",
           "smallest_first", "witness_size"]

#: The screening window, relative to ``1 + |lhs| + |rhs|``: members whose float gap is below minus this
#: satisfy the conjecture in floats and are not decided exactly.
WINDOW = 1e-8

#: Notions :func:`~relations.measures._batch.dense_values` computes (by the name before any argument): the
#: budgets and every notion with a float kernel in the notion table.
_VECTORISED = names(lambda row: row.paper or row.kernel is not None)

#: Notions that depend on the channel only (not on the prior, ``needs_prior``): computed once per channel.
_CHANNEL_ONLY = names(lambda row: not row.needs_prior and (row.paper or row.kernel is not None))


@dataclass(frozen=True)
class Budget:
    """How many members the exact checker decides: counts, never seconds.

    Attributes
    ----------
    clear : int
        Clear violations decided per shape (a float that violates by more than the window almost always
        refutes: the first one decided does).
    ties : int
        Ties and float-undefined members decided per shape (one per float signature).
    total : int
        Exact decisions over all shapes.
    fallback : int
        The most members of a shape screened one by one, when a notion has no vectorised float.
    """

    clear: int = 4
    ties: int = 2
    total: int = 16
    fallback: int = 150

    @classmethod
    def of(cls, quick: bool) -> Budget:
        """The budget of a quick or a full run (an exact decision on ``rho`` takes about a second)."""
        return cls(3, 2, 8, 60) if quick else cls()


#: The edges of the explicit neighbour graphs of :class:`Shape`.
_EDGES = {"path": ((0, 1), (1, 2)), "split": ((0, 1),), "path4": ((0, 1), (1, 2), (2, 3))}


@dataclass(frozen=True)
class Shape:
    """One shape of the enumeration: a neighbour structure, ``n`` inputs, ``m`` outputs, the denominators.

    ``structure`` is ``"local"`` (every two inputs neighbours), ``"edge"`` (two inputs, one edge),
    ``"path"`` (three inputs, ``0 - 1 - 2``), ``"split"`` (three inputs, the edge ``0 - 1`` and input 2
    alone: a disconnected graph, where a zero prior can sit on a whole component), ``"path4"`` (four
    inputs, ``0 - 1 - 2 - 3``: diameter 3), ``"D^2"`` (``{0,1}^2``, neighbours differ in one record)
    or ``"product"`` (two records through one ``2 x m`` channel ``W``; ``n x m`` is ``W``'s shape).
    ``prior_den`` 0 means the uniform prior only.
    """

    setting: str
    structure: str
    n: int
    m: int
    den: int
    prior_den: int

    @property
    def text(self) -> str:
        what = {"local": "local", "edge": "graph 0-1", "path": "graph 0-1-2", "split": "graph 0-1, 2",
                "path4": "graph 0-1-2-3", "D^2": "D^2", "product": "product over D^2 of"}[self.structure]
        priors = "uniform prior" if not self.prior_den else f"priors of denominator <= {self.prior_den}"
        return f"{what} {self.n}x{self.m}, entries of denominator <= {self.den}, {priors}"

    @cached_property
    def pairs(self) -> np.ndarray:
        """The ordered neighbour pairs of the screened (dense) channel."""
        if self.structure == "local":
            return ordered_pairs(itertools.combinations(range(self.n), 2))
        if self.structure == "edge":
            return ordered_pairs([(0, 1)])
        if self.structure == "path":
            return ordered_pairs([(0, 1), (1, 2)])
        if self.structure == "split":
            return ordered_pairs([(0, 1)])
        if self.structure == "path4":
            return ordered_pairs([(0, 1), (1, 2), (2, 3)])
        return ordered_pairs([(0, 1), (0, 2), (1, 3), (2, 3)])  # D^2 and the product's expanded channel

    @cached_property
    def rows(self) -> tuple[tuple[Fraction, ...], ...]:
        return stochastic_rows(self.m, self.den)

    @cached_property
    def channels(self) -> list[tuple[int, ...]]:
        """Each channel as the indices of its rows: a multiset where inputs may be relabelled."""
        r = range(len(self.rows))
        if self.structure in ("local", "edge"):
            return list(itertools.combinations_with_replacement(r, self.n))
        return list(itertools.product(r, repeat=self.n))

    @cached_property
    def priors(self) -> tuple[tuple[Fraction, ...], ...]:
        k = 4 if self.structure == "D^2" else self.n if self.structure != "product" else 4
        if not self.prior_den:
            return ((Fraction(1, k),) * k,)
        return stochastic_rows(k, self.prior_den)

    @property
    def size(self) -> int:
        return len(self.channels) * len(self.priors)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The screened float channels ``(C, n', m')`` and priors ``(K, n')`` (expanded for a product)."""
        rows = np.array(self.rows, dtype=float)
        q = rows[np.array(self.channels, dtype=np.intp)]
        if self.structure == "product":  # q[(a, b), (y1, y2)] = W[a, y1] W[b, y2]
            q = np.einsum("cai,cbj->cabij", q, q).reshape(len(q), 4, self.m * self.m)
        return q, np.array(self.priors, dtype=float)

    def mechanism(self, channel: int, prior: int) -> Mechanism:
        """The exact member: channel ``channel`` (an index of :attr:`channels`) under prior ``prior``."""
        rows = [list(self.rows[i]) for i in self.channels[channel]]
        p = list(self.priors[prior])
        if self.structure == "local":
            return Mechanism.local(rows, prior=p)
        if self.structure == "edge":
            return Mechanism.graph(rows, [[0, 1]], prior=p)
        if self.structure in _EDGES:
            return Mechanism.graph(rows, [list(e) for e in _EDGES[self.structure]], prior=p)
        if self.structure == "D^2":
            return Mechanism.central(rows, records=2, domain=2, prior=p)
        return Mechanism.product(rows, records=2)

    def denominators(self) -> tuple[np.ndarray, np.ndarray]:
        """Per member ``(largest denominator, sum of denominators)`` of its prior and rows, shape ``(C, K)``."""
        row_max = np.array([max(v.denominator for v in r) for r in self.rows])
        row_sum = np.array([sum(v.denominator for v in r) for r in self.rows])
        ch = np.array(self.channels, dtype=np.intp)
        pri = self.priors
        p_max = np.array([max(v.denominator for v in p) for p in pri]) if self.prior_den else np.ones(len(pri), int)
        p_sum = np.array([sum(v.denominator for v in p) for p in pri]) if self.prior_den else np.zeros(len(pri), int)
        big = np.maximum(row_max[ch].max(axis=1)[:, None], p_max[None, :])
        total = row_sum[ch].sum(axis=1)[:, None] + p_sum[None, :]
        return big, total


def schedule(setting: str, *, quick: bool) -> tuple[Shape, ...]:
    """The shapes of the enumeration, smallest first.

    Examples
    --------
    >>> [s.text for s in schedule("local", quick=True)][:2]
    ['local 2x2, entries of denominator <= 8, priors of denominator <= 6', 'local 2x3, entries of denominator <= 4, priors of denominator <= 4']
    """
    L, C = "local", "central"
    if setting == "local":
        dims = ((2, 2, 8, 6), (2, 3, 4, 4), (3, 2, 4, 3), (3, 3, 3, 2), (2, 4, 2, 2), (4, 2, 2, 2)) if quick else \
            ((2, 2, 12, 12), (2, 3, 6, 6), (3, 2, 6, 6), (3, 3, 4, 4), (2, 4, 4, 4), (4, 2, 4, 4), (3, 4, 3, 3),
             (4, 3, 3, 3), (4, 4, 2, 2))
        return tuple(Shape(L, "local", n, m, d, p) for n, m, d, p in dims)
    if quick:
        return (Shape(C, "edge", 2, 2, 6, 6), Shape(C, "edge", 2, 3, 3, 3), Shape(C, "path", 3, 2, 4, 3),
                Shape(C, "split", 3, 2, 3, 3), Shape(C, "D^2", 4, 2, 2, 2), Shape(C, "path4", 4, 2, 2, 2),
                Shape(C, "product", 2, 2, 4, 0))
    return (Shape(C, "edge", 2, 2, 12, 12), Shape(C, "edge", 2, 3, 6, 6), Shape(C, "path", 3, 2, 6, 4),
            Shape(C, "split", 3, 2, 4, 4), Shape(C, "path", 3, 3, 3, 3), Shape(C, "D^2", 4, 2, 3, 2),
            Shape(C, "path4", 4, 2, 3, 2), Shape(C, "product", 2, 2, 8, 0), Shape(C, "D^2", 4, 3, 2, 2),
            Shape(C, "product", 2, 3, 4, 0))


# ------------------------------------------------------------------ the conjecture in floats, vectorised


def gap_array(conj: Conjecture, vals: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``lhs - rhs`` of every member, oriented so that a positive gap refutes, and the two sides.

    The conventions of :func:`~relations.checking._conjectures.float_gap` (``nan`` where a side is
    undefined: ``inf - inf``, ``0 * inf``, ``x / 0``, ``ln`` of a negative number...), elementwise.

    Examples
    --------
    >>> from relations.checking._conjectures import parse_conjecture
    >>> c = parse_conjecture("eps_m >= eps_d / 2")
    >>> g, a, b = gap_array(c, {"eps_m": np.array([0.1, 1.0]), "eps_d": np.array([1.0, np.inf])})
    >>> g.tolist()
    [0.4, inf]
    """
    with np.errstate(all="ignore"):
        a, b = _side(conj.lhs, vals), _side(conj.rhs, vals)
        if conj.op in (">=", ">"):
            a, b = b, a
        a, b = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
        same_inf = np.isinf(a) & (a == b)
        g = np.where(same_inf, 0.0 if conj.op in ("<", ">") else -np.inf, a - b)
    return g, a, b


def _side(expr, vals):
    import sympy

    if expr.is_Rational:
        return float(Fraction(int(expr.p), int(expr.q)))
    if expr.is_Symbol:
        return vals[expr.name]
    xs = [_side(a, vals) for a in expr.args]
    if isinstance(expr, sympy.Add):
        out = xs[0]
        for x in xs[1:]:
            out = out + x
        return out
    if isinstance(expr, sympy.Mul):
        out = xs[0]
        for x in xs[1:]:
            out = out * x
        return out
    if isinstance(expr, sympy.Min):
        return _fold(np.minimum, xs)
    if isinstance(expr, sympy.Max):
        return _fold(np.maximum, xs)
    if isinstance(expr, sympy.Pow):
        b, e = np.asarray(xs[0], dtype=float), np.asarray(xs[1], dtype=float)
        if expr.exp == -1:
            return np.where(b == 0, np.nan, 1 / np.where(b == 0, 1.0, b))
        bad = ((b == 0) & (e <= 0)) | ((b < 0) & (np.floor(e) != e))
        return np.where(bad, np.nan, np.power(np.where(bad, 1.0, b), e))
    x = np.asarray(xs[0], dtype=float)
    if isinstance(expr, sympy.exp):
        return np.exp(x)
    if isinstance(expr, sympy.tanh):
        return np.tanh(x)
    return np.where(x == 0, -np.inf, np.where(x < 0, np.nan, np.log(np.where(x > 0, x, 1.0))))


def _fold(f, xs):
    out = xs[0]
    for x in xs[1:]:
        out = f(out, x)
    return out


def _structured(name: str) -> bool:
    """Whether the notion's float kernel needs the shape's structure (the table's ``structure_kernel``)."""
    row = NOTIONS.get(parse(name)[0])
    return row is not None and row.structure_kernel is not None


def _vectorised(name: str, shape: Shape | None = None) -> bool:
    if _structured(name):  # e.g. cmi: locally I(X;Y), on D^2 per record; not on a graph
        return shape is not None and shape.structure in NOTIONS[parse(name)[0]].structures
    return parse(name)[0] in _VECTORISED


def _channel_only(name: str) -> bool:
    return parse(name)[0] in _CHANNEL_ONLY


def float_notions(mech: Mechanism, names: Iterable[str]) -> dict[str, float]:
    """The notions ``names`` of one mechanism in floats, for the screens of the searches.

    Dense mechanisms with a reliable float copy go through :func:`~relations.measures._batch.mechanism_values`;
    product forms through :func:`~relations.search._families.float_values`; a notion with no float
    evaluator is the float of its exact value (:func:`~relations.checking._quantities.values`).

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> round(float_notions(randomized_response(3), ["rho", "eps_d"])["rho"], 6)  # binary RR: its KL
    0.549306
    """
    from relations.measures._batch import mechanism_values

    names = tuple(names)
    fast = tuple(n for n in names if _vectorised(n))  # cmi: by float_values below
    out: dict[str, float] = {}
    v = mechanism_values(mech, [n for n in fast if n not in dense_base()])
    if v is not None:
        out.update({n: v[n] for n in fast})
    rest = [n for n in names if n not in out]
    if rest:
        from relations.search._families import float_values

        try:
            fv = float_values(mech)
        except (ArithmeticError, ValueError):  # pragma: no cover - the floats failed
            fv = {}
        for n in rest:
            try:
                out[n] = float(fv[n])
            except (KeyError, ArithmeticError, ValueError):
                from relations.checking._quantities import values

                out[n] = float(values(mech).reals[n])
    return out


def dense_base() -> tuple[str, ...]:
    """The notions :func:`~relations.measures._batch.dense_values` always computes."""
    from relations.measures._batch import PAPER

    return PAPER


def screen_gap(conj: Conjecture, mech: Mechanism) -> tuple[float, float]:
    """``(gap, tolerance)`` of one mechanism in floats: a positive gap refutes; ``nan`` when undefined.

    Raises
    ------
    InputError
        A notion not defined on the mechanism (``cmi`` on an explicit neighbour graph).

    Examples
    --------
    >>> from relations.checking._conjectures import parse_conjecture
    >>> from relations.mechanisms import randomized_response
    >>> g, tol = screen_gap(parse_conjecture("kl <= eps_d"), randomized_response(3))
    >>> g < -tol
    True
    """
    from relations.errors import InputError

    try:
        vals = {k: np.array([v]) for k, v in float_notions(mech, conj.notions).items()}
    except InputError:
        raise  # a notion not defined on this mechanism: the caller decides what that means
    except (ArithmeticError, ValueError):
        return math.nan, 0.0
    g, a, b = gap_array(conj, vals)
    return float(g[0]), _tolerance(a, b)[0].item()


def _tolerance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        scale = np.where(np.isfinite(a), np.abs(a), 0.0) + np.where(np.isfinite(b), np.abs(b), 0.0)
    return WINDOW * (1.0 + scale)


# ------------------------------------------------------------------ the enumeration


@dataclass
class Outcome:
    """What :func:`smallest_first` did.

    Attributes
    ----------
    witness : Mechanism or None
        The first member (in the order of the module docstring) decided to refute the conjecture.
    decision : Decision or None
        The conjecture decided on it.
    shape : Shape or None
        Its shape.
    screened : int
        Members screened in floats.
    decided, undecided, undefined : int
        Members decided exactly; of those, undecided and undefined.
    satisfied : int
        Members that satisfy the conjecture: in floats by more than the window, or decided exactly.
    skipped : int
        Candidates not decided exactly because a count of :class:`Budget` was reached.
    alike : int
        Near ties not decided because they have the float values of one that was (or was to be).
    shapes : list of str
        The shapes enumerated, with their sizes.
    best_gap : float
        The largest float gap met.
    """

    witness: Mechanism | None = None
    decision: Decision | None = None
    shape: Shape | None = None
    screened: int = 0
    decided: int = 0
    undecided: int = 0
    undefined: int = 0
    satisfied: int = 0
    skipped: int = 0
    alike: int = 0
    shapes: list[str] = field(default_factory=list)
    best_gap: float = -math.inf


def smallest_first(conj: Conjecture, setting: str, *, quick: bool = False, budget: Budget | None = None,
                   shapes: Sequence[Shape] | None = None,
                   refutes: Callable[[Mechanism], Decision] | None = None) -> Outcome:
    """Enumerate the shapes smallest first, screen every member in floats, decide the candidates exactly.

    Parameters
    ----------
    conj : Conjecture
        The parsed conjecture.
    setting : {"local", "central"}
    quick : bool, optional
        The smaller schedule and budget.
    budget : Budget, optional
        Default :meth:`Budget.of` ``quick``.
    shapes : sequence of Shape, optional
        Default :func:`schedule`.
    refutes : callable, optional
        The exact decision of one mechanism (default: :func:`~relations.checking._conjecture_eval.decide`
        on its exact values).

    Returns
    -------
    Outcome
        With the first refuting member, if any.
    """
    from relations.checking._quantities import values
    from relations.errors import InputError

    budget = budget or Budget.of(quick)
    decider = refutes or (lambda m: decide(conj, values(m).reals))
    out = Outcome()
    for shape in shapes if shapes is not None else schedule(setting, quick=quick):
        if out.decided >= budget.total:
            out.shapes.append(f"{shape.text}: not enumerated (the exact decisions' count was reached)")
            continue
        try:  # every notion defined on this structure (cmi is not on a graph); in floats, so cheaply
            float_notions(shape.mechanism(0, 0), conj.notions)
        except InputError:
            out.shapes.append(f"{shape.text}: skipped (a notion is not defined there)")
            continue
        gap, tol, sig, members = _screen(conj, shape, budget)
        gap, tol = _stable(gap), _stable(tol)
        n = len(members)
        out.screened += n
        out.shapes.append(f"{shape.text} ({n} members" + (f" of {shape.size}, screened one by one)" if n < shape.size
                                                         else ")"))
        if n == 0:
            continue
        finite = gap[~np.isnan(gap)]
        if finite.size:
            out.best_gap = max(out.best_gap, float(finite.max()))
        big, total = shape.denominators()
        big, total = big.reshape(-1)[members], total.reshape(-1)[members]
        clear = np.flatnonzero(gap > tol)
        tie = np.flatnonzero(~(gap > tol) & ~(gap < -tol))  # within the window, or nan
        satisfied_floats = n - clear.size - tie.size
        order = np.lexsort((np.arange(n), total, big))  # by largest denominator, sum of denominators, index
        rank = np.empty(n, dtype=np.intp)
        rank[order] = np.arange(n)
        queue = sorted([(int(rank[i]), int(i), True) for i in clear] + _one_per_signature(tie, sig, rank),
                       key=lambda t: t[0])
        n_clear = n_tie = 0
        exact_ok = 0
        for _, i, is_clear in queue:
            if out.decided >= budget.total or (n_clear >= budget.clear if is_clear else n_tie >= budget.ties):
                continue
            n_clear += is_clear
            n_tie += not is_clear
            c, k = divmod(int(members[i]), len(shape.priors))
            mech = shape.mechanism(c, k)
            d = decider(mech)
            out.decided += 1
            out.undecided += d.status == "undecided"
            out.undefined += d.status == "undefined"
            if d.status == "fails":
                out.witness, out.decision, out.shape = mech, d, shape
                out.satisfied += satisfied_floats + exact_ok
                return out
            exact_ok += d.status == "holds"
        reps = len(queue) - clear.size
        out.alike += tie.size - reps
        out.skipped += clear.size + reps - n_clear - n_tie
        out.satisfied += satisfied_floats + exact_ok
    return out


def _stable(x: np.ndarray) -> np.ndarray:
    """``x`` rounded to 24 significant bits where finite (:func:`~relations.search._optimiser.round_bits`): float
    values that differ in their last bits between machines give the same classes, signatures and order."""
    from relations.search._optimiser import round_bits

    x = np.asarray(x, dtype=float)
    fin = np.isfinite(x)
    return np.where(fin, round_bits(np.where(fin, x, 0.0)), x)


def _one_per_signature(tie: np.ndarray, sig: np.ndarray | None, rank: np.ndarray) -> list[tuple[int, int, bool]]:
    """The first tie (by rank) of each distinct float signature."""
    if not tie.size:
        return []
    tie = tie[np.argsort(rank[tie], kind="stable")]
    if sig is None:
        return [(int(rank[i]), int(i), False) for i in tie]
    keys = _stable(sig[tie])
    keys = np.where(np.isnan(keys), np.inf, keys)  # one class for nan (np.unique treats each nan apart)
    _, first = np.unique(keys, axis=0, return_index=True)
    return [(int(rank[tie[j]]), int(tie[j]), False) for j in sorted(first)]


def _screen(conj: Conjecture, shape: Shape, budget: Budget
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray]:
    """The gap, tolerance and float signature (the notions' values) of the members screened, and their
    indices ``c * K + k`` (every member, unless a notion has no vectorised float)."""
    names = conj.notions
    K = len(shape.priors)
    if not all(_vectorised(n, shape) for n in names):
        return _screen_one_by_one(conj, shape, budget)
    q, p = shape.arrays()
    C = len(q)
    vals: dict[str, np.ndarray] = {}
    per_channel = [n for n in names if _channel_only(n)]
    if per_channel:
        uniform = np.full((C, q.shape[1]), 1.0 / q.shape[1])
        got = dense_values(q, uniform, shape.pairs, [n for n in per_channel if n not in dense_base()])
        for n in per_channel:
            vals[n] = np.repeat(got[n], K)
    per_member = [n for n in names if n not in vals]
    if per_member:
        structured = [n for n in per_member if _structured(n)]
        extra = [n for n in per_member if n not in dense_base() and n not in structured]
        parts: dict[str, list[np.ndarray]] = {n: [] for n in per_member}
        step = max(1, (1 << 16) // K)
        for lo in range(0, C, step):
            qq = np.repeat(q[lo:lo + step], K, axis=0)
            pp = np.tile(p, (min(step, C - lo), 1))
            got = dense_values(qq, pp, shape.pairs, extra)
            for n in structured:
                got[n] = evaluator(parse(n)[0], which="structure_kernel")(qq, pp, shape.structure, shape.pairs)
            for n in per_member:
                parts[n].append(got[n])
        vals.update({n: np.concatenate(parts[n]) for n in per_member})
    g, a, b = gap_array(conj, vals)
    sig = np.stack([vals[n] for n in names], axis=-1)
    return g, _tolerance(a, b), sig, np.arange(C * K)


def _screen_one_by_one(conj: Conjecture, shape: Shape, budget: Budget
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray]:
    """The screen of members one at a time (a notion with no vectorised float): the ``budget.fallback``
    smallest members (by largest denominator, sum of denominators, index) only."""
    big, total = shape.denominators()
    big, total = big.reshape(-1), total.reshape(-1)
    members = np.sort(np.lexsort((np.arange(big.size), total, big))[:budget.fallback])
    K = len(shape.priors)
    n = members.size
    gaps, tols, sigs = np.empty(n), np.empty(n), np.empty((n, len(conj.notions)))
    for j, i in enumerate(members):
        c, k = divmod(int(i), K)
        mech = shape.mechanism(c, k)
        try:
            v = float_notions(mech, conj.notions)
        except Exception:  # noqa: BLE001 - a notion that fails in floats: decide it exactly
            gaps[j], tols[j], sigs[j] = math.nan, 0.0, math.nan
            continue
        g, a, b = gap_array(conj, {k_: np.array([x]) for k_, x in v.items()})
        gaps[j], tols[j], sigs[j] = g[0], _tolerance(a, b)[0], [v[x] for x in conj.notions]
    return gaps, tols, sigs, members


def witness_size(mech: Mechanism) -> tuple[int, int, int]:
    """``(inputs, outputs, largest denominator)`` of a mechanism; a product form of ``r`` records through a
    ``k x m`` channel has ``k^r`` inputs and ``m^r`` outputs, and the denominators of its local channel and its
    records' priors.

    Examples
    --------
    >>> witness_size(Mechanism.local([["1/2", "1/2"], ["1/3", "2/3"]], prior=["1/4", "3/4"]))
    (2, 2, 4)
    >>> witness_size(Mechanism.product([["1/2", "1/2"], ["1/3", "2/3"]], records=3))
    (8, 8, 3)
    """
    from relations.model._products import ProductChannel

    ch = mech.channel
    if isinstance(ch, ProductChannel):
        rows = ch.local.exact
        priors = [f.exact for f in getattr(mech.prior, "factors", ())]
    else:
        rows = ch.exact
        priors = [getattr(mech.prior, "exact", None)]
    r = ch.records if isinstance(ch, ProductChannel) else 1
    if rows is None:  # a float mechanism
        shape = np.shape(ch.local.array if isinstance(ch, ProductChannel) else ch.array)
        return (int(shape[0]) ** r, int(shape[1]) ** r, 0)
    dens = [v.denominator for row in rows for v in row] + [v.denominator for p in priors if p for v in p]
    return (len(rows) ** r, len(rows[0]) ** r, max(dens))
