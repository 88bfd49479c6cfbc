"""SMT evidence (z3) for ratio-type relations: per-triple lemmas and bounded search.

A *ratio-type* relation has premise and conclusion among ``eps_i``, ``eps_d``,
``eps_all``, ``neg_sigma`` and a :class:`~relations.catalogue.Linear` bound.
With ``a = e^premise`` and ``s = e^sigma_min``, "conclusion <= f(premise)"
becomes a polynomial inequality between probabilities, so z3's nonlinear real
arithmetic decides it exactly (ratios are encoded without division, and strict
inequalities are guarded against ``0/0``).

**Proofs** (:func:`lemma_for`, :func:`prove`).  Each provable shape reduces to
a lemma about one neighbour pair and one output, stated for all non-negative
reals and proved by z3 showing its negation unsatisfiable:

* ``ID->DP``: ``p q <= a p' q'``, ``p' q' <= a p q``, ``s p' <= p``,
  ``s p <= p'`` (``p, p' > 0``) imply ``q / q' <= a^ca s^cs``;
* ``DP->ID``: ``q <= a q'``, ``q' <= a q``, ``s p' <= p``, ``s p <= p'``
  imply ``p q / (p' q') <= a^ca s^cs``;
* ``prior bound``: ``p u_1 <= a p' v_1`` and ``p u_2 <= a p' v_2`` with
  ``u_1 + u_2 = v_1 + v_2 = 1`` imply ``p / p' <= a`` (outputs merge two at a
  time, so the two-output lemma covers every number of outputs);
* ``group``: ``q_1 <= a q_2`` and ``q_2 <= b q_3`` imply ``q_1 <= a b q_3``
  (composed along a shortest path: every pair of inputs is within ``diam``).

Why a lemma gives the relation for every size: both sides are maxima over the
same neighbour triples (``0/0`` skipped), every triple satisfies the lemma's
hypotheses at the measured budgets, so every conclusion ratio is below the
bound.  Zero priors: in a connected neighbour graph (every local domain and
every ``D^r``) a zero prior next to a positive one makes ``eps_i`` infinite
(``p(x)Q[x][y] > 0 = p(x')Q[x'][y]`` for some ``y``) and ``sigma_min = -inf``,
so ID premises hold vacuously and ``- sigma_min`` bounds are infinite; the
lemmas may therefore assume ``p, p' > 0``.  For an explicit neighbour graph the
same argument runs component by component, so it needs every component with a
neighbour pair to carry prior for the identifiability-to-DP lemma; each relation's
:class:`~relations.catalogue._scopes.Scope` says where its proof applies, a
``proved`` verdict states it, and ``relations check`` reports "outside the proved
scope" beyond it.

**Bounded search** (:func:`bounded_search`): for fixed sizes, all priors and
channels at once: is there a mechanism with ``conclusion > f(premise)``?  A
model is an exact rational witness (re-checked by the checker before it is
reported); ``unsat`` covers every mechanism of that size.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from relations.catalogue._bounds import Linear
from relations.catalogue._entries import Relation
from relations.kinds import Notion
from relations.notions import SMT_NOTIONS
from relations.proofs._z3context import deterministic_solver, fresh_context

__all__ = ["render_model", "SMT_NOTIONS", "is_ratio_relation", "Lemma", "ProofResult", "lemma_for", "density_lemma", "prove", "Shape", "SearchResult", "bounded_search"]



def __getattr__(name: str):
    """``RATIO_NOTIONS``, the 0.2 name of :data:`relations.notions.SMT_NOTIONS`, with a DeprecationWarning."""
    if name == "RATIO_NOTIONS":
        import warnings

        warnings.warn("relations.proofs._smt.RATIO_NOTIONS is relations.notions.SMT_NOTIONS", DeprecationWarning,
                      stacklevel=2)
        return SMT_NOTIONS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def is_ratio_relation(rel: Relation) -> bool:
    return (rel.kind == "implication" and isinstance(rel.bound, Linear) and rel.bound.integral
            and rel.premise in SMT_NOTIONS and rel.conclusion in SMT_NOTIONS)


@dataclass(frozen=True)
class Lemma:
    """A lemma for all non-negative reals: ``hypotheses -> goal`` (z3 terms built by ``build``).

    ``blocks``, when given, splits the proof into independent checks, each ``(label, hypotheses, goal)``
    (one ``check-sat`` each, separated by ``(reset)`` in the SMT-LIB file); the lemma is proved when every
    block's negation is unsat, so the blocks' hypotheses must cover those of ``build`` (a case split on a
    total order, or one block per conjunct of the goal).  They keep each file quick in every solver
    (cvc5 1.0 stalls on some nonlinear goals that a case split makes easy).

    ``legend`` says what each variable stands for in the proof, ``(variable, meaning)``; a model of the
    negation is shown under the variables' own names (:func:`render_model`), as they are reals, not the
    entries of a mechanism.
    """

    name: str
    statement: str
    build: Callable[[], tuple[list, list, object]]
    legend: tuple[tuple[str, str], ...] = ()
    blocks: Callable[[], list[tuple[str, list, object]]] | None = None


@dataclass(frozen=True)
class ProofResult:
    """``status`` is ``proved`` (negation unsat), ``refuted`` (a model of the negation) or ``unknown``."""

    lemma: Lemma
    status: str
    seconds: float
    smt2: str
    model: str | None = None


def lemma_for(rel: Relation) -> Lemma | None:
    """The per-triple lemma that proves ``rel`` for every size, if it has a provable shape."""
    density = density_lemma(rel)
    if density is not None:
        return density
    if not is_ratio_relation(rel):
        return None
    b = rel.bound
    assert isinstance(b, Linear)
    pair = (rel.premise, rel.conclusion)
    if pair == ("eps_i", "eps_d") and not b.times_diameter:
        return _triple_lemma("ID->DP", rel, b)
    if pair == ("eps_d", "eps_i") and not b.times_diameter:
        return _triple_lemma("DP->ID", rel, b)
    if pair == ("eps_i", "neg_sigma") and not b.times_diameter:
        return _prior_lemma(rel, b)
    if pair == ("eps_d", "eps_all") and b.times_diameter and b.ca == 1 and b.cs == 0:
        return _group_lemma(rel)
    return None


def density_lemma(rel: Relation) -> Lemma | None:
    """``I(X;Y) <= eps_all`` (Cuff and Yu): the information density is at most ``eps_all``.

    Two z3-checked steps: (mixture) ``q <= a q_1`` and ``q <= a q_2`` imply
    ``q <= a (w_1 q_1 + w_2 q_2)`` for weights summing to 1 — merged pairwise,
    ``Q[x][y] <= a p(y)`` for every mixture ``p(y)``, so ``ln(Q[x][y]/p(y)) <= ln a``
    (``ln`` is increasing); (average) ``l_1, l_2 <= c`` imply
    ``J_1 l_1 + J_2 l_2 <= (J_1 + J_2) c`` — merged pairwise over the joint
    ``J`` (total 1), ``I(X;Y) = sum J ln(Q/p(y)) <= ln a = eps_all``.
    """
    b = rel.bound
    if not (rel.kind == "implication" and isinstance(b, Linear) and b.integral and rel.premise == "eps_all"
            and rel.conclusion == "eps_m" and b.ca == 1 and b.cs == 0 and not b.times_diameter):
        return None

    def bounds():
        import z3

        q, b1, b2, w1, w2 = z3.Reals("q b1 b2 w1 w2")
        hyps = [q >= 0, b1 >= 0, b2 >= 0, w1 >= 0, w2 >= 0, w1 + w2 == 1, q <= b1, q <= b2]
        return [q, b1, b2, w1, w2], hyps, q <= w1 * b1 + w2 * b2

    def scaling():
        import z3

        w1, w2, a, q1, q2 = z3.Reals("w1 w2 a q1 q2")
        return [w1, w2, a, q1, q2], [], w1 * (a * q1) + w2 * (a * q2) == a * (w1 * q1 + w2 * q2)

    def average():
        import z3

        j1, j2, l1, l2, c = z3.Reals("j1 j2 l1 l2 c")
        return [j1, j2, l1, l2, c], [j1 >= 0, j2 >= 0, l1 <= c, l2 <= c], j1 * l1 + j2 * l2 <= (j1 + j2) * c

    parts = (("(i) mixture of upper bounds", bounds), ("(ii) the factor a out of the mixture", scaling),
             ("(iii) average", average))

    def build():
        import z3

        built = [part() for _, part in parts]
        return ([x for xs, _, _ in built for x in xs], [h for _, hs, _ in built for h in hs],
                z3.And(*[goal for _, _, goal in built]))

    def blocks():
        return [(label, *part()[1:]) for label, part in parts]

    return Lemma(f"information-density lemma for {rel.id}",
                 "for all reals: (i) q, b_i, w_i >= 0 with w_1 + w_2 = 1 and q <= b_i (i = 1, 2) imply "
                 "q <= w_1 b_1 + w_2 b_2; (ii) w_1 (a q_1) + w_2 (a q_2) = a (w_1 q_1 + w_2 q_2), so with b_i = a q_i: "
                 "q <= a q_i (i = 1, 2) implies q <= a (w_1 q_1 + w_2 q_2); (iii) J_i >= 0 and l_i <= c imply "
                 "J_1 l_1 + J_2 l_2 <= (J_1 + J_2) c. Merged pairwise: Q[x][y] <= e^eps_all p(y), so "
                 "I(X;Y) = sum J ln(Q/p(y)) <= eps_all (ln increasing, sum J = 1)", build,
                 (("q", "Q[x][y]"), ("b1", "e^eps_all Q[x1][y]"), ("b2", "e^eps_all Q[x2][y]"),
                  ("w1", "p(x1), renormalised"), ("w2", "p(x2), renormalised"), ("a", "e^eps_all"),
                  ("q1", "Q[x1][y]"), ("q2", "Q[x2][y]"), ("j1", "the joint mass p(x,y) summed so far"),
                  ("j2", "the next term's joint mass"), ("l1", "the average information density so far"),
                  ("l2", "the next term's information density"), ("c", "eps_all")), blocks)


def _triple_lemma(kind: str, rel: Relation, b: Linear) -> Lemma:
    def build():
        import z3

        p, pp, q, qq, a, s = z3.Reals("p pp q qq a s")
        hyps = [p > 0, pp > 0, q >= 0, qq >= 0, a >= 1, s > 0, s <= 1, s * pp <= p, s * p <= pp]
        left, right = b.z3_product(a, s)
        if kind == "ID->DP":
            hyps += [p * q <= a * pp * qq, pp * qq <= a * p * q]
            goal = q * left <= right * qq
        else:
            hyps += [q <= a * qq, qq <= a * q]
            goal = p * q * left <= right * pp * qq
        return [p, pp, q, qq, a, s], hyps, goal

    premise = "p q <= a p' q' and p' q' <= a p q" if kind == "ID->DP" else "q <= a q' and q' <= a q"
    conclusion = "q/q'" if kind == "ID->DP" else "p q/(p' q')"
    return Lemma(f"{kind} per-triple lemma for {rel.id}",
                 f"for all reals p, p' > 0, q, q' >= 0, a >= 1, 0 < s <= 1: {premise}, s p' <= p, s p <= p' "
                 f"imply {conclusion} <= a^{b.ca} s^{b.cs}", build, _triple_legend(rel))


def _triple_legend(rel: Relation) -> tuple[tuple[str, str], ...]:
    """The triple lemmas' variables: priors and channel entries of ``x, x'`` at ``y``, ``e^premise``, ``e^sigma``."""
    return (("p", "p(x)"), ("pp", "p(x')"), ("q", "Q[x][y]"), ("qq", "Q[x'][y]"), ("a", f"e^{rel.premise}"),
            ("s", "e^sigma_min"))


def _prior_lemma(rel: Relation, b: Linear) -> Lemma:
    def build():
        import z3

        p, pp, u1, u2, v1, v2, a, s = z3.Reals("p pp u1 u2 v1 v2 a s")
        hyps = [p > 0, pp > 0, u1 >= 0, u2 >= 0, v1 >= 0, v2 >= 0, u1 + u2 == 1, v1 + v2 == 1, a >= 1,
                s > 0, s <= 1, s * pp <= p, s * p <= pp, p * u1 <= a * pp * v1, p * u2 <= a * pp * v2]
        left, right = b.z3_product(a, s)
        return [p, pp, u1, u2, v1, v2, a, s], hyps, p * left <= right * pp

    return Lemma(f"prior-bound (mediant) lemma for {rel.id}",
                 f"for all reals p, p' > 0, u, v >= 0 with u1+u2 = v1+v2 = 1: p u_i <= a p' v_i (i = 1, 2) "
                 f"implies p/p' <= a^{b.ca} s^{b.cs}; outputs merge pairwise, so it covers any number of outputs",
                 build, _triple_legend(rel)[:2] + (("u1", "Q[x][y1]"), ("u2", "Q[x][y2]"), ("v1", "Q[x'][y1]"),
                                                   ("v2", "Q[x'][y2]")) + _triple_legend(rel)[4:])


def _group_lemma(rel: Relation) -> Lemma:
    def build():
        import z3

        q1, q2, q3, a, b = z3.Reals("q1 q2 q3 a b")
        hyps = [q1 >= 0, q2 >= 0, q3 >= 0, a >= 1, b >= 1, q1 <= a * q2, q2 <= b * q3]
        return [q1, q2, q3, a, b], hyps, q1 <= a * b * q3

    return Lemma(f"path-composition lemma for {rel.id}",
                 "for all reals q1, q2, q3 >= 0, a, b >= 1: q1 <= a q2 and q2 <= b q3 imply q1 <= a b q3; "
                 "by induction along a shortest path of length g <= diam, Q[x][y] <= a^g Q[x'][y] <= a^diam Q[x'][y]",
                 build, (("q1", "Q[x1][y]"), ("q2", "Q[x2][y]"), ("q3", "Q[x3][y]"), ("a", "e^eps_d (x1 ~ x2)"),
                         ("b", "e^eps_d (x2 ~ x3)")))


@fresh_context
def prove(lemma: Lemma, timeout_ms: int = 20000) -> ProofResult:
    """Prove ``lemma`` by showing its negation unsatisfiable with z3.

    Parameters
    ----------
    lemma : Lemma
    timeout_ms : int, optional
        z3's time limit.

    Returns
    -------
    ProofResult
        ``status`` ``"proved"`` (every block unsat), ``"refuted"`` (with z3's model of a block) or
        ``"unknown"``, and the SMT-LIB script (one ``check-sat`` per block, separated by ``(reset)``).

    Examples
    --------
    >>> from relations.catalogue import get
    >>> prove(lemma_for(get("zheng2025.thm1"))).status
    'proved'
    """
    import z3

    from relations.proofs.solvers import standalone

    if lemma.blocks is not None:
        blocks = lemma.blocks()
    else:
        _, hyps, goal = lemma.build()
        blocks = [("", hyps, goal)]
    scripts: list[str] = []
    status, model, seconds = "proved", None, 0.0
    for label, hyps, goal in blocks:
        solver = deterministic_solver(timeout_ms)
        solver.add(*hyps)
        solver.add(z3.Not(goal))
        t = time.perf_counter()
        result = solver.check()
        seconds += time.perf_counter() - t
        script = z3.Solver()  # the assertions as built (the SMT core's own copy is already rewritten)
        script.add(*hyps)
        script.add(z3.Not(goal))
        head = f"; block {len(scripts) + 1} of {len(blocks)}: {label}\n" if len(blocks) > 1 else ""
        scripts.append(head + standalone(script.to_smt2()))
        if result == z3.sat and status != "refuted":
            status, model = "refuted", render_model(lemma, solver.model())
        elif result != z3.unsat and status == "proved":
            status = "unknown"
    return ProofResult(lemma, status, seconds, "\n(reset)\n".join(scripts), model)


def render_model(lemma: Lemma, model) -> str:
    """A model of the lemma's negation, under the lemma's own variable names, in the lemma's order.

    The variables are reals that the lemma quantifies over, not the entries of a mechanism (a model may
    have ``q = 161/128``): the text says so, and the counterexample mechanism is the verdict's witness.
    :attr:`Lemma.legend` says what each variable stands for in the proof.

    Examples
    --------
    >>> import z3
    >>> from relations.catalogue import get
    >>> lemma = lemma_for(get("zheng2025.thm4"))
    >>> p, pp, q, qq, a, s = z3.Reals("p pp q qq a s")
    >>> solver = z3.Solver()
    >>> solver.add(p == 1, pp == 1, q == z3.Q(5, 4), qq == z3.Q(3, 4), a == 2, s == z3.Q(1, 2))
    >>> _ = solver.check()
    >>> render_model(lemma, solver.model())
    "the lemma's variables (reals, not a mechanism's entries): p = 1, pp = 1, q = 5/4, qq = 3/4, a = 2, s = 1/2"
    """
    values = {str(d): str(model[d]) for d in model.decls()}
    named = [name for name, _ in lemma.legend]
    order = [n for n in named if n in values] + sorted(set(values) - set(named))
    return "the lemma's variables (reals, not a mechanism's entries): " + ", ".join(
        f"{name} = {values[name]}" for name in order)


# --------------------------------------------------------------------------- bounded search


@dataclass(frozen=True)
class Shape:
    """A size to search: ``local`` with ``n`` inputs, or ``central`` ``D^r`` over ``k`` values; ``m`` outputs."""

    setting: str
    n: int
    m: int
    k: int = 0
    r: int = 0

    def __str__(self) -> str:
        if self.setting == "local":
            return f"local {self.n}x{self.m}"
        return f"central D^{self.r} (k={self.k}) x {self.m}"


def _neighbour_pairs(shape: Shape) -> list[tuple[int, int]]:
    if shape.setting == "local":
        return [(i, j) for i in range(shape.n) for j in range(shape.n) if i != j]
    import numpy as np

    dims = (shape.k,) * shape.r
    out = []
    for i in range(shape.n):
        a = np.unravel_index(i, dims)
        for j in range(shape.n):
            b = np.unravel_index(j, dims)
            if sum(int(u != v) for u, v in zip(a, b)) == 1:
                out.append((i, j))
    return out


def _diameter(shape: Shape) -> int:
    return 1 if shape.setting == "local" else shape.r


@dataclass(frozen=True)
class SearchResult:
    shape: Shape
    status: str  # "sat", "unsat" or "unknown"
    seconds: float
    prior: tuple[Fraction, ...] | None = None
    channel: tuple[tuple[Fraction, ...], ...] | None = None


@fresh_context
def bounded_search(rel: Relation, shape: Shape, timeout_ms: int = 10000) -> SearchResult:
    """Search all mechanisms of ``shape`` for one violating ``rel`` (exact z3 model or unsat)."""
    import z3

    assert is_ratio_relation(rel)
    b = rel.bound
    assert isinstance(b, Linear)
    n, m = shape.n, shape.m
    p = [z3.Real(f"p{x}") for x in range(n)]
    q = [[z3.Real(f"q{x}_{y}") for y in range(m)] for x in range(n)]
    a, s = z3.Real("a"), z3.Real("s")
    solver = deterministic_solver(timeout_ms)
    solver.add(*[v >= 0 for v in p], z3.Sum(p) == 1)
    for row in q:
        solver.add(*[v >= 0 for v in row], z3.Sum(row) == 1)
    neighbours = _neighbour_pairs(shape)
    every = [(i, j) for i in range(n) for j in range(n) if i != j]

    def terms(notion: str, pairs):
        if notion == "neg_sigma":
            return [(p[i], p[j]) for i, j in pairs]
        if notion == "eps_i":
            return [(p[i] * q[i][y], p[j] * q[j][y]) for i, j in pairs for y in range(m)]
        return [(q[i][y], q[j][y]) for i, j in pairs for y in range(m)]

    premise_pairs = every if rel.premise == "eps_all" else neighbours
    solver.add(a >= 1)
    for num, den in terms(rel.premise, premise_pairs):
        solver.add(num <= a * den)
    if b.cs:
        solver.add(s > 0, s <= 1)
        for i, j in neighbours:
            solver.add(s * p[j] <= p[i])
        if b.cs > 0:  # the bound grows with s: pin s to the minimum itself
            solver.add(z3.Or(*[z3.And(s * p[j] == p[i], p[j] > 0) for i, j in neighbours]))
    g = _diameter(shape) if b.times_diameter else 1
    left, right = b.z3_product(a, s, g)
    # Symmetry: the neighbour graphs here are transitive on ordered neighbour pairs and outputs are
    # exchangeable, so a violating neighbour triple may be taken to be (row 0, its first neighbour, y = 0).
    if rel.conclusion in ("eps_d", "eps_i", "neg_sigma"):
        first = min(j for i, j in neighbours if i == 0)
        candidates = terms(rel.conclusion, [(0, first)])[:1]
    else:
        candidates = terms(rel.conclusion, [(0, j) for j in range(1, n)])
    solver.add(z3.Or(*[num * left > right * den for num, den in candidates]))
    t = time.perf_counter()
    result = solver.check()
    seconds = time.perf_counter() - t
    if result == z3.sat:
        model = solver.model()
        prior = _simplex([_value(model, v) for v in p])
        channel = tuple(_simplex([_value(model, v) for v in row]) for row in q)
        return SearchResult(shape, "sat", seconds, prior, channel)
    return SearchResult(shape, "unsat" if result == z3.unsat else "unknown", seconds)


def _value(model, var) -> Fraction:
    import z3

    v = model.eval(var, model_completion=True)
    if z3.is_rational_value(v):
        return Fraction(v.numerator_as_long(), v.denominator_as_long())
    if z3.is_algebraic_value(v):
        return Fraction(v.approx(30).as_fraction())
    raise ValueError(f"unexpected z3 value {v}")


def _simplex(values: list[Fraction]) -> tuple[Fraction, ...]:
    """Exact model values already sum to 1; rounded algebraic ones are re-normalised."""
    values = [max(v, Fraction(0)) for v in values]
    total = sum(values)
    return tuple(v / total for v in values)
