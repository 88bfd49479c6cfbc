"""User conjectures decided over all mechanisms of a setting: ``proved``, ``refuted`` or ``unrefuted``.

:func:`conjecture` parses the statement (:mod:`relations.checking._conjectures`) and then, as
``relations verify`` decides the catalogue:

1. **proof** (:mod:`relations.proofs._conjectures`): a conjecture that follows from the base of
   facts (:mod:`relations.proofs._facts`: the catalogue's proved relations and the notion facts),
   with every infinite case decided, is ``proved``, with the SMT-LIB script, the facts used and the
   trace; a proof whose scope is narrower than the setting is reported, and the searches still run;
2. **smallest witnesses first** (:mod:`relations.search._smallest`): every small mechanism of the
   setting, shape by shape in increasing size (fewest inputs x outputs, then smallest denominators),
   screened in vectorised floats; the candidates the screen lets through are decided exactly, and the
   first that refutes is the smallest witness of the enumeration;
3. **seeded families**, screened in floats and confirmed exactly: k-RR for
   ``k in`` :data:`RR_KS` over a grid of ratios (refined on three finer grids) with uniform
   and skewed priors, subset selection, the paper's constructions, erasure channels, binary
   channels with skewed priors (locally); k-RR products over several records (centrally);
4. **hypothesis** over small random exact mechanisms (:mod:`relations.search.strategies`), screened;
5. **Nelder-Mead** over dense ``2x2`` and ``3x3`` channels and priors (``D^2`` centrally), the best
   points rounded to rationals.

Every stage is budgeted by counts (grid points, examples, iterations, and the exact decisions of
:data:`EXACT_DECISIONS`), never by time, so the verdict and the witness do not depend on the
machine's speed.  Every candidate is screened in floats (:func:`~relations.search._smallest.screen_gap`) and, unless
it satisfies the conjecture by more than the screening window, decided exactly
(:func:`~relations.checking._conjecture_eval.decide`); the first that fails is returned as the witness of
``refuted`` (from the later stages, simplified first: :func:`~relations.search._witnesses.simplify`, each
step screened and decided again).  Otherwise the verdict is ``unrefuted``, with the record
of what was searched.  Everything is seeded.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from relations.checking._conjecture_eval import Decision, decide, parse_defined
from relations.checking._conjectures import Conjecture, float_gap, parse_conjecture
from relations.checking._quantities import values
from relations.errors import InputError
from relations.kinds import Verdict
from relations.model._display import one_line, text_view
from relations.model._distributions import Channel, Prior
from relations.model._mechanism import Mechanism
from relations.model._neighbours import LocalInputs
from relations.notions import view
from relations.pipeline._stages import PipelineResult, Stage, first_refutation
from relations.proofs._conjectures import Proof, prove_conjecture, undecided_sides
from relations.search._optimiser import round_bits
from relations.search._smallest import Outcome, float_notions, screen_gap, smallest_first, witness_size

if TYPE_CHECKING:
    from relations.search._families import RRFamily

__all__ = ["RR_KS", "SETTINGS", "ConjectureResult", "conjecture", "decide_conjecture", "degeneracy", "full_support_witness"]

#: The notions equal to another on a local channel (``cmi`` is ``eps_m`` there), from the notion table.
LOCALLY = view(lambda row: row.locally is not None, value=lambda row: row.locally)

#: Domain sizes of the k-RR family (local); the large ones reach ratios ``I / eps_d`` above 1/2.
RR_KS = (2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48, 64)

_QUICK_KS = (2, 3, 4, 5, 8, 16, 48)

#: Exact decisions allowed to the stages after the smallest-first enumeration (quick, full): counts,
#: not seconds (an exact decision on ``rho`` takes about a second).  A candidate is decided only when
#: the float screen does not clear it.
EXACT_DECISIONS = (8, 16)

#: Of those, near ties (float gap within the screening window, or undefined in floats): they seldom refute
#: (a strict inequality at equality does, and the smallest-first enumeration meets it first).
TIE_DECISIONS = (3, 6)

#: The settings a conjecture is stated for.
SETTINGS = ("local", "central")


@dataclass(frozen=True)
class ConjectureResult(PipelineResult):
    """A conjecture's verdict and its evidence (:func:`conjecture`).

    Attributes
    ----------
    text : str
        The conjecture as written.
    setting : str
        ``"local"`` or ``"central"``.
    verdict : str
        ``"proved"``, ``"refuted"`` or ``"unrefuted"``.
    evidence : str
        One sentence.
    witness : Mechanism or None
        For ``refuted``: the exact counterexample, simplified and re-checked.
    decision : Decision or None
        The conjecture decided on the witness.
    proof : str or None
        For ``proved``: the SMT-LIB script (z3 and cvc5 answer ``unsat``).
    used : tuple of str
        For ``proved``: the facts the proof uses (catalogue relations, notion facts).
    searched : tuple of str
        What was searched.
    checked, undefined, undecided : int
        Mechanisms decided exactly; of those, where a side had no value, or the enclosures did
        not separate.
    best_gap : float
        The largest float ``lhs - rhs`` (oriented: positive refutes) the searches met.
    exhaustive : int
        For ``unrefuted``: members of the smallest-first enumeration that satisfy it: in floats by more
        than the screening window (:data:`~relations.search._smallest.WINDOW`), or decided exactly.
    seconds : float
    witness_size : tuple of int or None
        For ``refuted``: ``(inputs, outputs, largest denominator)`` of the witness
        (:func:`~relations.search._smallest.witness_size`).
    screened : int
        Mechanisms screened in floats by the smallest-first enumeration.
    trace : tuple of str
        The proof in lines (:attr:`relations.proofs.Proof.trace`): the infinite cases, the facts used with
        their multipliers, scopes and references.  Also for a proof whose scope is narrower than the
        setting, which does not make the verdict ``proved``.
    degenerate : tuple of str
        For ``refuted``: what makes the witness an edge case (:func:`degeneracy`: a zero prior entry,
        identical rows, an infinite value), empty when none does.
    full_witness, full_decision : Mechanism and Decision, or None
        For a degenerate witness: the smallest one of full support, distinct rows and finite values the
        smallest-first enumeration meets, and its decision; ``None`` when it meets none.

    ``print(result)`` shows the lines ``relations conjecture`` prints; ``repr(result)`` is one line.

    Examples
    --------
    >>> r = ConjectureResult("eps_d <= eps_i", "local", "unrefuted", "no counterexample", searched=("smallest-first",))
    >>> r
    ConjectureResult(text='eps_d <= eps_i', setting='local', verdict='unrefuted')
    >>> print(r)
    eps_d <= eps_i (local): unrefuted
      no counterexample
      searched: smallest-first
    """

    text: str
    setting: str
    verdict: str
    evidence: str
    witness: Mechanism | None = None
    decision: Decision | None = None
    proof: str | None = None
    used: tuple[str, ...] = ()
    searched: tuple[str, ...] = ()
    checked: int = 0
    undefined: int = 0
    undecided: int = 0
    best_gap: float = -math.inf
    exhaustive: int = 0
    seconds: float = 0.0
    witness_size: tuple[int, int, int] | None = None
    screened: int = 0
    trace: tuple[str, ...] = ()
    degenerate: tuple[str, ...] = ()
    full_witness: Mechanism | None = None
    full_decision: Decision | None = None

    def __str__(self) -> str:
        """``relations conjecture``'s lines: verdict, evidence, facts, proof, searches, witness
        (:func:`relations.io._text.conjecture_text`)."""
        return text_view(self, "relations.io._text:conjecture_text").rstrip("\n")

    def __repr__(self) -> str:
        """One line: the conjecture, its setting and verdict, and the witness's size when refuted."""
        fields: list[tuple[str, Any]] = [("text", repr(self.text)), ("setting", repr(self.setting)),
                                         ("verdict", repr(str(self.verdict)))]
        if self.witness_size is not None:
            fields.append(("witness", "{} inputs x {} outputs, denominators <= {}".format(*self.witness_size)))
        elif self.used:
            used = ", ".join(self.used[:3]) + (f", … ({len(self.used)} facts)" if len(self.used) > 3 else "")
            fields.append(("used", repr(used)))
        return one_line("ConjectureResult", fields)


def decide_conjecture(conj: Conjecture | str, mech: Mechanism) -> Decision:
    """The conjecture decided exactly on one mechanism (``conj`` parsed if given as text).

    Examples
    --------
    >>> from relations.mechanisms import paper_example
    >>> decide_conjecture("eps_i <= eps_d + sigma_min", paper_example()).status
    'fails'
    """
    return decide(parse_conjecture(conj) if isinstance(conj, str) else conj, values(mech).reals)


class _Search:
    def __init__(self, conj: Conjecture, setting: str, quick: bool, seed: int):
        self.conj, self.setting, self.quick = conj, setting, quick
        self.rng = np.random.default_rng(seed)
        self.searched: list[str] = []
        self.checked = self.undefined = self.undecided = 0
        self.best_gap = -math.inf
        self.budget = EXACT_DECISIONS[0 if quick else 1]
        self.tie_budget = TIE_DECISIONS[0 if quick else 1]
        self.over_budget = self.ties = self.later = 0  # later: exact decisions after the smallest-first stage

    def gap(self, mech: Mechanism) -> float:
        """The float ``lhs - rhs`` at ``mech``, rounded to 24 significant bits
        (:func:`~relations.search._optimiser.round_bits`): the searches steer by it, and last-bit differences
        between machines must not change their path, nor the candidates they re-check."""
        try:
            g = float_gap(self.conj, float_notions(mech, self.conj.notions))
        except (OverflowError, ValueError, ZeroDivisionError, KeyError):
            return math.nan
        if g == g:
            g = float(round_bits(np.array([g]))[0]) if math.isfinite(g) else g
            self.best_gap = max(self.best_gap, g)
        return g

    def refutes(self, mech: Mechanism) -> bool:
        """Screened in floats, then (within the count of exact decisions) decided exactly; a mechanism where a
        notion is not defined (``cmi`` on an explicit neighbour graph) counts as one where a side has no value."""
        try:
            return self._refutes(mech)
        except InputError:
            self.undefined += 1
            return False

    def _refutes(self, mech: Mechanism) -> bool:
        g, tol = screen_gap(self.conj, mech)
        if g < -tol:
            return False
        tie = not g > tol
        if self.later >= self.budget or (tie and self.ties >= self.tie_budget):
            self.over_budget += 1
            return False
        self.ties += tie
        self.later += 1
        d = decide(self.conj, values(mech).reals)
        self.checked += 1
        self.undefined += d.status == "undefined"
        self.undecided += d.status == "undecided"
        return d.status == "fails"

    # ------------------------------------------------------------ families

    def families(self) -> Iterator[Mechanism]:
        from relations.mechanisms._local import subset_selection
        from relations.mechanisms._paper import paper_central, paper_example, paper_local
        from relations.search._families import RRFamily

        fixed = self._fixed(paper_example, paper_local, paper_central)
        yield from fixed
        grid = np.linspace(0.05, 10.0, 24 if self.quick else 60)
        scored: list[tuple[float, _Subset | RRFamily, float]] = []  # (gap, family, log t)
        if self.setting == "local":
            for k in _QUICK_KS if self.quick else RR_KS:
                for skew in (0.0, 0.9):
                    scored.append(self._scan(lambda x, k=k, skew=skew: self._rr_float(k, math.exp(x), skew), grid,
                                             RRFamily(k, 1, Fraction(skew).limit_denominator(10)),
                                             batch=self._rr_batch(k, 1, skew)))
            for k, s in ((4, 2), (5, 2), (6, 2), (6, 3), (8, 2), (8, 3)):
                fam: _Subset | RRFamily = _Subset(k, s, subset_selection)
                scored.append(self._scan(lambda x, fam=fam: self.gap(fam.mechanism(_simple(math.exp(x)))),
                                         grid[::3], fam, batch=self._symmetric_batch(_subset_rows(k, s))))
            self.searched.append(f"k-RR, k in {_QUICK_KS if self.quick else RR_KS}, priors uniform and skewed 0.9, "
                                 f"{len(grid)} ratios e^0.05..e^10 each, refined; subset selection (k, s) in "
                                 "(4,2) (5,2) (6,2) (6,3) (8,2) (8,3)")
        else:
            for k in (2, 3, 4, 8):
                for r in ((2, 3, 5) if self.quick else (2, 3, 4, 6, 10, 20)):
                    for skew in (0.0, 0.9):
                        fam = RRFamily(k, r, Fraction(skew).limit_denominator(10))
                        scored.append(self._scan(lambda x, fam=fam: self.gap(fam.mechanism(_simple(math.exp(x)))),
                                                 grid[::2], fam, batch=self._rr_batch(k, r, skew)))
            self.searched.append("k-RR products, k in (2, 3, 4, 8), several records, priors uniform and skewed 0.9")
        self.searched.append(f"fixed seeds: {len(fixed)} (the paper's example and constructions, erasure and "
                             "noiseless channels, binary channels with skewed priors)")
        # violating points first, smallest family first (readable witnesses); then the nearest misses
        scored.sort(key=lambda s: (0, _size(s[1]), -s[0]) if s[0] > 1e-12 else (1, 0, -s[0] if s[0] == s[0] else math.inf))
        for _, fam, x in scored[: 8 if self.quick else 20]:
            for t in _ratios(math.exp(x)):
                yield fam.mechanism(t)

    def _scan(self, gap_at, grid, fam, *, batch=None) -> tuple[float, _Subset | RRFamily, float]:
        """The best ``log t`` of ``fam`` on ``grid``, refined by a bounded scalar search (``batch``: the gaps at
        an array of ``log t`` at once, used instead of ``gap_at`` when given)."""
        from scipy.optimize import minimize_scalar

        if batch is not None:
            return self._scan_batch(batch, np.asarray(grid, dtype=float), fam)
        gaps = np.array([gap_at(x) for x in grid])
        gaps = np.where(np.isnan(gaps), -np.inf, gaps)
        i = int(np.argmax(gaps))
        if not math.isfinite(gaps[i]):
            return float(gaps[i]), fam, float(grid[i])
        lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
        res = minimize_scalar(lambda x: -_finite(gap_at(x)), bounds=(lo, hi), method="bounded",
                              options={"xatol": 1e-4, "maxiter": 30 if self.quick else 60})
        if -res.fun > gaps[i]:
            return float(-res.fun), fam, float(res.x)
        return float(gaps[i]), fam, float(grid[i])

    def _scan_batch(self, batch, grid: np.ndarray, fam) -> tuple[float, _Subset | RRFamily, float]:
        """:meth:`_scan` with the gaps of a whole grid at once: the grid, then three finer grids of 17 points
        between the best point's neighbours (a count of evaluations, the same on every machine)."""
        best_g, best_x = -math.inf, float(grid[0])
        for _ in range(4):
            gaps = batch(grid)
            gaps = np.where(np.isnan(gaps), -np.inf, gaps)
            i = int(np.argmax(gaps))
            if gaps[i] > best_g or best_g == -math.inf:
                best_g, best_x = float(gaps[i]), float(grid[i])
            if not math.isfinite(gaps[i]):
                break
            grid = np.linspace(grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)], 17)
        return best_g, fam, best_x

    def _symmetric_batch(self, rows_at: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray] | None:
        """The gaps of a local channel family under the uniform prior whose rows are permutations of one
        another with the same multiset of column pairs for every pair of rows (subset selection), at an array of
        ``log t``: ``rows_at(t)`` gives the channels ``(G, k, m)``."""
        from relations.measures._batch import PAPER, dense_values, ordered_pairs
        from relations.search._smallest import _vectorised

        if not all(_vectorised(n) for n in self.conj.notions if n not in LOCALLY):
            return None
        one = ordered_pairs([(0, 1)])

        def batch(x: np.ndarray) -> np.ndarray:
            w = rows_at(np.exp(x))
            k = w.shape[1]
            vals = dense_values(w, np.full((len(x), k), 1.0 / k), ordered_pairs([(0, 1)]),  # uniform prior, symmetric rows
                                [n for n in self.conj.notions if n not in PAPER and n not in LOCALLY],
                                divergence_pairs=one)
            for name, same in LOCALLY.items():  # a local channel: cmi is I(X;Y)
                vals[name] = vals[same]
            return self._rounded(vals)

        return batch

    def _rounded(self, vals: dict[str, np.ndarray]) -> np.ndarray:
        """The gaps of float values, rounded to 24 bits as :meth:`gap`; the best one kept."""
        from relations.search._smallest import gap_array

        with np.errstate(all="ignore"):
            g = gap_array(self.conj, vals)[0]
        fin = np.isfinite(g)
        g = np.where(fin, round_bits(np.where(fin, g, 0.0)), g)
        if (~np.isnan(g)).any():
            self.best_gap = max(self.best_gap, float(np.nanmax(g)))
        return g

    def _rr_float(self, k: int, t: float, skew: float) -> float:
        """The gap of local k-RR with ratio ``t`` (a float mechanism: the notions without vectorised floats)."""
        from relations.mechanisms._local import krr_rows

        w = np.array(krr_rows(k, t), dtype=np.float64)
        p = np.full(k, 1 / k) if not skew else np.array([1 - skew] + [skew / (k - 1)] * (k - 1))
        mech = Mechanism("local", Prior(p), Channel(w), LocalInputs(tuple(map(str, range(k)))),
                         tuple(map(str, range(k))), exact=False)
        return self.gap(mech)

    def _rr_batch(self, k: int, records: int, skew: float) -> Callable[[np.ndarray], np.ndarray] | None:
        """The gaps of k-RR (``records`` of them, a product form, when more than one) at an array of
        ``log t``, from float arrays: the divergences of one pair of rows (every pair of k-RR's rows has
        the same multiset of column pairs), a product's notions from the local ones
        (:func:`~relations.search._families.product_values`; ``cmi`` of a product with one prior per
        record is the local ``I(X;Y)``).  ``None`` when a notion has no vectorised float."""
        from relations.measures._batch import PAPER, dense_values, ordered_pairs
        from relations.search._families import GAPS, product_values, rr_float_prior
        from relations.search._smallest import _vectorised

        names = [n for n in self.conj.notions if n not in LOCALLY]
        if not all(_vectorised(n) for n in names):
            return None
        for name, parts in GAPS.items():  # a product's is computed from the local values of its parts
            if name in names:
                names += list(parts)
        # the prior (1 - skew, skew/(k-1), ...) and k-RR's rows are symmetric in the inputs 1..k-1: the pairs
        # (0, 1), (1, 0) and (1, 2) are one of each kind, and every pair of rows has the same column pairs
        pairs, one = ordered_pairs([(0, 1), (1, 2)] if k > 2 else [(0, 1)]), ordered_pairs([(0, 1)])
        p = rr_float_prior(k, skew)

        def batch(x: np.ndarray) -> np.ndarray:
            t = np.exp(x)
            on, off = t / (t + k - 1), 1 / (t + k - 1)
            w = np.where(np.eye(k, dtype=bool)[None], on[:, None, None], off[:, None, None])
            local = dense_values(w, np.broadcast_to(p, (len(x), k)), pairs, [n for n in names if n not in PAPER],
                                 divergence_pairs=one)
            for name, same in LOCALLY.items():  # cmi of a product with one prior per record: the local I(X;Y)
                local[name] = local[same]
            vals = product_values(local, records) if records > 1 else local
            if records > 1:
                for name, same in LOCALLY.items():
                    vals[name] = local[same]
            return self._rounded(vals)

        return batch

    def _fixed(self, paper_example, paper_local, paper_central) -> list[Mechanism]:
        from relations.search._members import erasure_member

        q = Fraction
        if self.setting == "local":
            out = [paper_example(p) for p in (("19/20", "1/20"), ("1/2", "1/2"), ("1/10", "9/10"))]
            out += [paper_local(q(1, 2**j)) for j in (1, 2, 4, 8)]
            out += [erasure_member("local", q(1, d)) for d in (1, 2, 10)]
            for p in (q(1, 2), q(1, 10), q(1, 100)):
                for a in (q(1, 2), q(3, 4), q(9, 10), q(1)):
                    out.append(Mechanism.local([[a, 1 - a], [1 - a, a]], prior=[1 - p, p]))
            return out
        out = [paper_central(q(1, 2**j)) for j in (1, 2, 4, 8)]
        return out + [erasure_member("central", q(1, d)) for d in (1, 2, 10)]

    def smallest(self) -> Outcome:
        """The smallest-first enumeration (:func:`~relations.search._smallest.smallest_first`)."""
        out = smallest_first(self.conj, self.setting, quick=self.quick)
        self.checked += out.decided
        self.undecided += out.undecided
        self.undefined += out.undefined
        self.best_gap = max(self.best_gap, out.best_gap)
        self.searched.append(f"smallest first: {out.screened} mechanisms screened in floats, {out.decided} decided "
                             f"exactly ({'; '.join(out.shapes)})")
        return out

    # ------------------------------------------------------------ hypothesis and Nelder-Mead

    def hypothesis(self) -> Iterator[Mechanism]:
        """The random exact mechanisms hypothesis draws (derandomized: the same list for every conjecture
        of a setting, drawn once per process: :func:`~relations.search._screening.generated`), each
        screened before any exact decision."""
        from relations.search._screening import generated

        n = 60 if self.quick else 200 if self.setting == "local" else 150
        self.searched.append(f"hypothesis: {n} random exact {self.setting} mechanisms, screened in floats")
        yield from generated(self.setting, n)

    def nelder_mead(self) -> Iterator[Mechanism]:
        from scipy.optimize import minimize

        from relations.search._families import DenseFamily

        fams = (DenseFamily(2, 2), DenseFamily(3, 3)) if self.setting == "local" else (DenseFamily(4, 2, 2, 2),)
        starts, maxiter = (2, 100) if self.quick else (3, 250)
        for fam in fams:
            dense = _dense_gap(self.conj, fam)

            def objective(theta, fam=fam, dense=dense):
                g = dense(theta) if dense is not None else self.gap(fam.float_mechanism(theta))
                if g == g:
                    self.best_gap = max(self.best_gap, g)
                return 1e6 if g != g else -math.tanh(g) if math.isinf(g) else -g / (1 + abs(g))

            best = None
            for _ in range(starts):
                res = minimize(objective, self.rng.normal(scale=1.5, size=fam.dim), method="Nelder-Mead",
                               options={"maxiter": maxiter, "xatol": 1e-7, "fatol": 1e-12})
                if best is None or res.fun < best.fun:
                    best = res
            self.searched.append(f"Nelder-Mead: {fam.describe()}, {starts} starts, rounded to rationals")
            if best is not None and best.fun < 1e-9:
                yield from fam.exact_mechanisms(best.x)


def _dense_gap(conj: Conjecture, fam) -> Callable[[np.ndarray], float] | None:
    """The float gap at the logits of a dense family, from the arrays (no mechanism built), rounded to 24
    bits as :meth:`_Search.gap`; ``None`` when a notion has no vectorised float (``cmi``)."""
    from relations.measures._batch import PAPER, dense_values, ordered_pairs
    from relations.search._smallest import _vectorised, gap_array

    if not all(_vectorised(n) for n in conj.notions):
        return None
    pairs = ordered_pairs(fam.inputs().pairs())
    extra = [n for n in conj.notions if n not in PAPER]

    def gap(theta: np.ndarray) -> float:
        q, p = fam.float_arrays(theta)
        g = float(gap_array(conj, dense_values(q[None], p[None], pairs, extra))[0][0])
        return float(round_bits(np.array([g]))[0]) if math.isfinite(g) else g

    return gap


class _Subset:
    def __init__(self, k: int, s: int, build):
        self.k, self.s, self.build = k, s, build

    def mechanism(self, t: Fraction) -> Mechanism:
        return self.build(self.k, self.s, t)


def _subset_rows(k: int, s: int) -> Callable[[np.ndarray], np.ndarray]:
    """Float s-subset selection channels at ratios ``t`` (``(G, k, C(k, s))``): ``t/Z`` on the subsets holding
    the input, ``1/Z`` elsewhere, ``Z = C(k-1, s-1) t + C(k-1, s)``, as :func:`relations.mechanisms.subset_selection`."""
    import itertools

    member = np.array([[x in sub for sub in itertools.combinations(range(k), s)] for x in range(k)])

    def rows(t: np.ndarray) -> np.ndarray:
        z = math.comb(k - 1, s - 1) * t + math.comb(k - 1, s)
        return np.where(member[None], (t / z)[:, None, None], (1 / z)[:, None, None])

    return rows


def _size(fam) -> int:
    k, r = getattr(fam, "k", 2), getattr(fam, "records", 1)
    return k**r if not isinstance(fam, _Subset) else math.comb(fam.k, fam.s)


def _finite(g: float) -> float:
    return -1e6 if g != g else max(min(g, 1e6), -1e6)


def _simple(t: float) -> Fraction:
    return Fraction(t).limit_denominator(1000) if t < 1e6 else Fraction(int(t))


def _ratios(t: float) -> Iterator[Fraction]:
    seen = set()
    for den in (1, 2, 10, 100, 10**4):
        q = Fraction(t).limit_denominator(den)
        if q > 1 and q not in seen:
            seen.add(q)
            yield q


def conjecture(text: str, *, setting: str = "local", quick: bool = False, seed: int = 2025,
               prove: bool = True) -> ConjectureResult:
    """Decide a user conjecture over every mechanism of ``setting``: proved, refuted or unrefuted.

    Parameters
    ----------
    text : str
        ``LHS OP RHS`` (``docs/claims-and-verdicts.md``), e.g. ``"eps_m <= eps_d / 2"``.
    setting : {"local", "central"}, optional
    quick : bool, optional
        A smaller search (CI).
    seed : int, optional
        Seed of every random choice: the same seed gives the same verdict and witness.
    prove : bool, optional
        Try a z3 proof first (default).

    Returns
    -------
    ConjectureResult

    Raises
    ------
    InputError
        A malformed conjecture, an unknown setting or a notion this version does not have.

    Examples
    --------
    >>> conjecture("eps_d <= eps_i - sigma_min", quick=True).verdict
    'proved'
    >>> r = conjecture("eps_i <= eps_d + sigma_min", quick=True)
    >>> r.verdict, r.decision.status
    ('refuted', 'fails')
    """
    t0 = time.perf_counter()
    if setting not in SETTINGS:
        raise InputError(f"setting {setting!r}: one of local, central")
    conj = parse_defined(text)  # an undefined constant part (0^0, 1/0): undefined everywhere, one line
    from relations.mechanisms._local import randomized_response

    decide(conj, values(randomized_response(3)).reals)  # every notion available (InputError otherwise)
    proof: Proof | None = prove_conjecture(conj, setting) if prove else None
    if proof is not None and proof.whole:
        how = ("a linear combination of" if proof.multipliers is not None else "z3 (real arithmetic) from")
        return ConjectureResult(conj.text, setting, str(Verdict.PROVED), f"follows from the facts by {how} "
                                f"{', '.join(proof.used) or 'no fact'}; infinite cases decided in the extended "
                                f"reals; scope: {proof.scope}", proof=proof.smt2, used=proof.used,
                                searched=("proof from the base of facts (relations.proofs._facts)",),
                                seconds=time.perf_counter() - t0, trace=proof.trace)
    search = _Search(conj, setting, quick, seed)
    if proof is not None:
        search.searched.append(f"proof: only in the narrower scope {proof.scope} (the search covers the rest)")
    else:
        search.searched.append("proof: " + ("not attempted" if not prove else "none from the base of facts "
                                            "(an infinite case fails, the statement is outside the encoding, "
                                            "or the facts do not imply it)"))
    if prove:
        search.searched += [f"fact not applied, its side condition undecided (the enclosures did not separate): {u}"
                            for u in undecided_sides(conj, setting)]
    small = search.smallest()
    if small.witness is not None:
        decision = small.decision
        assert decision is not None and decision.status == "fails"
        return _refuted(conj, setting, search, small.witness, decision, "the smallest-first enumeration "
                        f"({small.shape.text if small.shape else ''})", t0, small.screened, proof)

    def labelled(candidates: Callable[[], Iterable[Mechanism]], engine: str) -> Iterator[tuple[Mechanism, str]]:
        for m in candidates():  # started only when the stages before it found nothing
            yield m, engine

    hit = first_refutation(((Stage.FAMILIES, labelled(search.families, "seeded families")),
                            (Stage.HYPOTHESIS, labelled(search.hypothesis, "hypothesis")),
                            (Stage.OPTIMISER, labelled(search.nelder_mead, "Nelder-Mead"))), refutes=search.refutes)
    if hit is None:
        n = small.satisfied
        left = f"; {search.over_budget} further candidates left undecided (count of exact decisions reached)" \
            if search.over_budget else ""
        skipped = (f", {small.skipped} candidates beyond the count of exact decisions" if small.skipped else "") + \
            (f", {small.alike} near ties with the float values of one decided" if small.alike else "")
        scoped = "" if proof is None else f"proved in the scope: {proof.scope}; over the whole setting: "
        return ConjectureResult(conj.text, setting, str(Verdict.UNREFUTED), f"{scoped}no counterexample among "
                                f"{search.checked} mechanisms decided exactly; smallest first: {n} of the "
                                f"{small.screened} small mechanisms satisfy it (in floats by more than the "
                                f"screening window, or decided exactly){skipped}"
                                + (f", {small.undecided} undecided and {small.undefined} where a side has no value"
                                   if small.undecided or small.undefined else "") + left,
                                exhaustive=n, screened=small.screened,
                                seconds=time.perf_counter() - t0, **_common(search, proof))
    from relations.search._witnesses import simplify

    def still(m: Mechanism) -> bool:
        try:
            g, tol = screen_gap(conj, m)
            return not g < -tol and decide(conj, values(m).reals).status == "fails"
        except InputError:  # pragma: no cover - a rounding of a witness keeps its neighbour structure
            return False

    simple = simplify(hit.candidate, still)
    decision = decide(conj, values(simple).reals)
    assert decision.status == "fails"
    return _refuted(conj, setting, search, simple, decision, hit.engine, t0, small.screened, proof, simplified=True)


def _common(search: _Search, proof: Proof | None) -> dict[str, Any]:
    return dict(searched=tuple(search.searched), checked=search.checked, undefined=search.undefined,
                undecided=search.undecided, best_gap=search.best_gap, trace=() if proof is None else proof.trace)


def _refuted(conj: Conjecture, setting: str, search: _Search, witness: Mechanism, decision: Decision, engine: str,
             t0: float, screened: int, proof: Proof | None, *, simplified: bool = False) -> ConjectureResult:
    from relations.model._products import ProductChannel

    n, m, den = size = witness_size(witness)
    ch = witness.channel
    what = f"{n}x{m}" if not isinstance(ch, ProductChannel) else \
        f"{n}x{m} ({ch.records} records through a {len(ch.local.array)}x{len(ch.local.array[0])} channel)"
    degenerate = degeneracy(witness, decision)
    full = full_decision = None
    if degenerate:
        full, full_decision = full_support_witness(conj, setting, quick=search.quick)
    return ConjectureResult(conj.text, setting, str(Verdict.REFUTED), f"counterexample found by {engine}, "
                            f"{'simplified and ' if simplified else ''}re-checked exactly: lhs = {decision.lhs:.6g}, "
                            f"rhs = {decision.rhs:.6g}; witness {what}, denominators <= {den}", witness=witness,
                            decision=decision, seconds=time.perf_counter() - t0, witness_size=size,
                            screened=screened, degenerate=degenerate, full_witness=full,
                            full_decision=full_decision, **_common(search, proof))


def degeneracy(mech: Mechanism, decision: Decision | None = None, *, sides: Sequence[float] = ()) -> tuple[str, ...]:
    """What makes a witness an edge case: a zero prior entry, two identical rows, an infinite side (of ``decision``,
    or among ``sides``).

    Examples
    --------
    >>> from relations.model import Mechanism
    >>> degeneracy(Mechanism.local([["1/2", "1/2"], ["1/2", "1/2"]], prior=["0", "1"]))
    ('a zero prior entry', 'identical rows')
    >>> degeneracy(Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]]))
    ()
    """
    from relations.model._products import ProductChannel, ProductPrior

    out = []
    def exact_rows(dist: Any) -> tuple[tuple[Any, ...], ...]:  # exact entries where known, else the floats
        exact = dist.exact
        if isinstance(exact, tuple):
            return tuple(tuple(r) for r in exact) if exact and isinstance(exact[0], tuple) else (tuple(exact),)
        return tuple(tuple(float(v) for v in r) for r in np.atleast_2d(np.asarray(dist.array)))

    prior = mech.prior
    factors = prior.factors if isinstance(prior, ProductPrior) else (prior,)
    if any(q == 0 for f in factors for r in exact_rows(f) for q in r):
        out.append("a zero prior entry")
    channel = mech.channel
    rows = exact_rows(channel.local if isinstance(channel, ProductChannel) else channel)
    if len(set(rows)) < len(rows):
        out.append("identical rows")
    finite = [decision.lhs, decision.rhs] if decision is not None else []
    if not all(math.isfinite(float(x)) for x in [*finite, *sides]):
        out.append("an infinite value")
    return tuple(out)


def full_support_witness(conj: Conjecture, setting: str, *,
                         quick: bool = False) -> tuple[Mechanism | None, Decision | None]:
    """The smallest-first enumeration again, members with a zero prior entry or identical rows passed over (cheaply,
    before any exact decision) and a refutation counted only with finite sides: the smallest witness of full
    support and finite values it meets, or ``(None, None)``.

    Examples
    --------
    >>> from relations.checking._conjecture_eval import parse_defined
    >>> w, d = full_support_witness(parse_defined("eps_i <= eps_d + sigma_min"), "local", quick=True)
    >>> degeneracy(w, d), d.status
    ((), 'fails')
    """
    from relations.search._smallest import Budget

    def refutes(m: Mechanism) -> Decision:
        if degeneracy(m):
            return Decision("holds", math.nan, math.nan, "passed over: degenerate")
        d = decide(conj, values(m).reals)
        if d.status == "fails" and not (math.isfinite(d.lhs) and math.isfinite(d.rhs)):
            return Decision("holds", d.lhs, d.rhs, "passed over: an infinite value")
        return d

    base = Budget.of(quick)
    budget = Budget(clear=base.clear * 16, ties=base.ties * 4, total=base.total * 16, fallback=base.fallback)
    out = smallest_first(conj, setting, quick=quick, budget=budget, refutes=refutes)
    return (out.witness, out.decision) if out.witness is not None else (None, None)
