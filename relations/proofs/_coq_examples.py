"""The Coq definitions of ``proofs/coq/Budgets.v`` evaluated on example mechanisms: ``Examples.v``.

A theorem about the wrong definition would still compile.  This module writes
``proofs/coq/Examples.v``: for each mechanism of :func:`examples` it states, as Coq lemmas, that
the definitions of ``Budgets.v`` (``eps_d``, ``eps_all``, ``eps_i``, ``neg_sigma``, ``sigma_min``,
``diam``, ``eps_m`` and ``kl_max`` where it is ``0`` or ``+inf``) take the values **the tool
computes** (:func:`relations.measure`, :func:`relations.eps_all`, the diameter of
:func:`relations.checking.values`, the ``kl`` notion).  Where ``kl_max`` is finite and positive, the
lemma is about the pair of neighbours the tool names as attaining it: ``kl_div`` of their rows is
``Fin`` of the form ``sum_y P(y) ln(P(y)/S(y))`` (:func:`kl_form`).  Each lemma is proved by unfolding the
definitions and deciding every comparison of concrete rationals (``lra``), never through the
characterisation lemmas of ``BudgetFacts.v``, so ``coqc Examples.v`` fails as soon as the Coq
definitions and the tool disagree on one of them.

``eps_m`` is a sum of logarithms: the lemma says ``eps_m n m p Q = Fin F`` with ``F`` the form
``sum_x sum_y w(x,y) ln r(x,y)``, ``w = p(x) Q(x,y)`` and ``r = Q(x,y) / q(y)`` written as exact
rationals (:func:`mi_form`; a term with ``w = 0`` is ``0 * ln 1``), in the term structure of
``Sums.sum``.  ``tests/test_coq_definitions.py`` builds the forms independently and checks that
the tool's certified enclosures of ``I(X;Y)`` and of ``kl`` contain their values.

Regenerate the file (it is committed; the test checks that it is up to date) with::

    python -m relations.proofs._coq_examples > proofs/coq/Examples.v

Examples
--------
>>> names = [e.name for e in examples()]
>>> names[:2]
['local3', 'paper']
>>> print(coq_value_text(budget_value("eps_d", examples()[1].mechanism)))
Fin (ln (13/7))
>>> mi_form([Fraction(1, 2), Fraction(1, 2)], [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]])[0]
[(Fraction(1, 2), Fraction(2, 1)), (Fraction(0, 1), Fraction(1, 1))]
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from relations.checking import values
from relations.measures import eps_all, measure
from relations.model import Channel, GraphInputs, HammingInputs, LocalInputs, Mechanism, Prior, diameter
from relations.numbers import LogRatio

__all__ = ["Example", "examples", "mi_form", "kl_form", "budget_value", "coq_value_text", "render", "EXAMPLES_FILE"]

#: The generated file, next to the other Coq sources of a clone.
EXAMPLES_FILE = Path(__file__).resolve().parents[2] / "proofs" / "coq" / "Examples.v"

_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Example:
    """One mechanism evaluated in Coq: ``name`` prefixes its Coq identifiers, ``title`` is its comment."""

    name: str
    title: str
    mechanism: Mechanism


def _paper() -> Mechanism:
    """The paper's Section 5 example, from ``examples/paper_example.json`` (a local mechanism; this layer
    reads its prior and channel itself, as text rationals)."""
    data = json.loads((_ROOT / "examples" / "paper_example.json").read_text(encoding="utf-8"))
    assert data["setting"] == "local"
    return Mechanism.local(data["channel"], prior=data["prior"], inputs=data["inputs"], outputs=data["outputs"])


def examples() -> tuple[Example, ...]:
    """The example mechanisms: each exercises one convention of ``docs/semantics.md``.

    Returns
    -------
    tuple of Example
        A local mechanism with a zero prior entry, the paper's Section 5 example, a dense ``D^2``
        over two values, an explicit graph with zero priors, a disconnected graph, an infinite
        ``eps_d``, a ``0/0`` ratio, a single input and an isolated input.
    """
    h, q, t, s = Fraction(1, 2), Fraction(1, 4), Fraction(1, 3), Fraction(1, 6)
    return (
        Example("local3", "local, 3 inputs, a zero prior on input 2 (eps_i = +inf, sigma_min = -inf)",
                Mechanism.local([[h, q, q], [q, h, q], [s, t, h]], prior=[h, h, 0])),
        Example("paper", "the paper's Section 5 example (examples/paper_example.json)", _paper()),
        Example("d2", "D^2 over k = 2 values (4 datasets), a dense channel that is not a product; "
                      "eps_all (datasets 0 and 3) > eps_d",
                Mechanism.central([[Fraction(1, 2), Fraction(3, 10), Fraction(1, 5)],
                                   [Fraction(2, 5), Fraction(3, 10), Fraction(3, 10)],
                                   [Fraction(3, 10), Fraction(3, 10), Fraction(2, 5)],
                                   [Fraction(1, 5), Fraction(3, 10), Fraction(1, 2)]],
                                  records=2, prior=[Fraction(1, 10), Fraction(1, 5), Fraction(3, 10), Fraction(2, 5)])),
        Example("graph0", "the path 0 - 1 - 2 - 3 with zero priors on inputs 2 and 3 (sigma_min = -inf; "
                          "the pair 2 ~ 3 is 0/0 in the prior; eps_all > eps_d)",
                Mechanism.graph([[h, q, q], [t, t, t], [q, q, h], [Fraction(1, 5), Fraction(1, 5), Fraction(3, 5)]],
                                [[0, 1], [1, 2], [2, 3]],
                                prior=[h, h, 0, 0])),
        Example("split", "a disconnected graph 0 - 1, 2 - 3 (diam = None) with equal rows on each edge "
                         "(eps_d = 0, kl_max = 0, eps_all > 0)",
                Mechanism.graph([[h, h], [h, h], [t, 1 - t], [t, 1 - t]], [[0, 1], [2, 3]],
                                prior=[Fraction(1, 10), Fraction(2, 10), Fraction(3, 10), Fraction(4, 10)])),
        Example("inf", "a zero entry facing a positive one (eps_d = +inf, kl_max = +inf)",
                Mechanism.local([[h, h, 0], [t, t, t]], prior=[q, 1 - q])),
        Example("zero", "an output that no input reaches (0/0 ratios, skipped; q(y) = 0)",
                Mechanism.local([[h, h, 0], [t, 1 - t, 0]], prior=[t, 1 - t])),
        Example("single", "a single input: no neighbour pair, every budget 0 (the ratio 1), diam = 0",
                Mechanism.local([[q, 1 - q]])),
        Example("isolated", "the edge 0 - 1 and an isolated input 2 of zero prior (diam = None; input 2 "
                            "is in no pair, so sigma_min and eps_i stay finite)",
                Mechanism.graph([[h, h], [q, 1 - q], [1, 0]], [[0, 1]], prior=[q, 1 - q, 0])),
    )


def mi_form(prior: Sequence[Fraction], rows: Sequence[Sequence[Fraction]]) -> list[list[tuple[Fraction, Fraction]]]:
    """``I(X;Y)`` as the terms ``(w, r)`` of ``sum_x sum_y w ln r``: ``w = p(x) Q(x,y)``, ``r = Q(x,y) / q(y)``.

    A term with ``w = 0`` is ``(0, 1)`` (it adds ``0 ln 1 = 0``).

    Examples
    --------
    >>> mi_form([Fraction(1, 2), Fraction(1, 2)], [[Fraction(1, 2), Fraction(1, 2)]] * 2)[1]
    [(Fraction(1, 4), Fraction(1, 1)), (Fraction(1, 4), Fraction(1, 1))]
    """
    marginal = [sum((prior[x] * rows[x][y] for x in range(len(rows))), Fraction(0)) for y in range(len(rows[0]))]
    return [[(prior[x] * rows[x][y], rows[x][y] / marginal[y]) if prior[x] * rows[x][y] else (Fraction(0), Fraction(1))
             for y in range(len(rows[0]))] for x in range(len(rows))]


def _num(q: Fraction) -> str:
    """A rational as a Coq real literal: ``13/20``, ``0``, ``19``."""
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def coq_value_text(value: LogRatio | int | None | str) -> str:
    """The Coq value of a budget: ``Fin (ln (q))``, ``PInf`` or ``NInf``; a diameter ``Some d`` or ``None``."""
    if isinstance(value, str):
        return value
    if value is None:
        return "None"
    if isinstance(value, int):
        return f"Some {value}%nat"
    if value.sign:
        return "PInf" if value.sign > 0 else "NInf"
    assert value.ratio is not None
    return f"Fin (ln ({_num(value.ratio)}))"


def budget_value(name: str, mech: Mechanism) -> LogRatio:
    """The tool's exact value of the ratio budget ``name`` (``eps_d``, ``eps_all``, ``eps_i``, ``sigma_min``,
    ``neg_sigma``) of ``mech``."""
    if name == "eps_all":
        exact = eps_all(mech).exact
    elif name == "neg_sigma":
        sigma = measure(mech).sigma_min.exact
        exact = None if sigma is None else -sigma
    else:
        exact = getattr(measure(mech), name).exact
    if exact is None:
        raise ValueError(f"{name} is not exact")
    return exact


def _kl_text(mech: Mechanism) -> str | tuple[int, int]:
    """``kl_max`` in Coq where it is cheap to evaluate there (``+inf`` or exactly ``0``); otherwise the pair
    ``(x, x')`` of neighbours that the tool names as attaining it."""
    vals = values(mech)
    kl = vals.reals["kl"]
    if kl.infinite > 0:
        return "PInf"
    if getattr(kl, "value", None) == 0:
        return "Fin 0"
    witness = vals.witnesses["kl"]
    assert witness is not None and isinstance(witness.x, int) and isinstance(witness.x_prime, int)
    return witness.x, witness.x_prime


def kl_form(first: Sequence[Fraction], second: Sequence[Fraction]) -> list[tuple[Fraction, Fraction]]:
    """``D(P || S)`` as the terms ``(w, r)`` of ``sum_y w ln r``: ``w = P(y)``, ``r = P(y) / S(y)``; a term with
    ``P(y) = 0`` is ``(0, 1)``.

    Examples
    --------
    >>> kl_form([Fraction(1, 2), Fraction(1, 2), Fraction(0)], [Fraction(1, 4), Fraction(3, 4), Fraction(0)])
    [(Fraction(1, 2), Fraction(2, 1)), (Fraction(1, 2), Fraction(2, 3)), (Fraction(0, 1), Fraction(1, 1))]
    """
    return [(a, a / b) if a else (Fraction(0), Fraction(1)) for a, b in zip(first, second)]


def _terms(row: Sequence[tuple[Fraction, Fraction]]) -> str:
    """``(0 + w0 * ln (r0) + w1 * ln (r1) + ...)``: the term structure of ``Sums.sum``."""
    return "(" + " + ".join(["0"] + [f"{_num(w)} * ln ({_num(r)})" for w, r in row]) + ")"


def _neighbours(mech: Mechanism) -> str:
    """The Coq neighbour relation of ``mech``'s inputs."""
    space = mech.inputs
    if isinstance(space, LocalInputs):
        return "local_nb"
    if isinstance(space, HammingInputs):
        return f"(dr_nb {space.k} {space.records})"
    assert isinstance(space, GraphInputs)
    return "(graph_nb [" + "; ".join(f"({i}, {j})" for i, j in space.edges) + "]%nat)"


_HEADER = """\
(** * The definitions of [Budgets.v] evaluated on example mechanisms.

    GENERATED by [relations/proofs/_coq_examples.py] (do not edit; regenerate with
    [python -m relations.proofs._coq_examples > proofs/coq/Examples.v]).  The right-hand sides
    are the tool's exact values: [relations.measure], [relations.eps_all], the diameter of
    [relations.checking.values] and the [kl] notion.  Each lemma is proved by unfolding the
    definitions and deciding every comparison of concrete rationals with [lra] (never through
    [BudgetFacts.v]), so this file compiles only if the Coq definitions and the tool agree.
    [eps_m] is proved equal to [sum_x sum_y w ln r] with [w = p(x) Q(x,y)] and [r = Q(x,y)/q(y)]
    exact rationals, and where [kl_max] is finite and positive, [kl_div] of the pair the tool names
    to [sum_y P(y) ln(P(y)/S(y))]; tests/test_coq_definitions.py checks that the tool's certified
    enclosures of I(X;Y) and of the largest KL divergence contain those sums. *)

From Coq Require Import Reals Lra List.
From Relations Require Import Sums Mechanism KLPair Budgets.
Import ListNotations.
Open Scope R_scope.

(** A real built from integer literals by [+ - * /]: a comparison of such reals is decided by [lra]. *)
Ltac ground t :=
  lazymatch t with
  | IZR _ => idtac
  | ?a / ?b => ground a; ground b
  | ?a * ?b => ground a; ground b
  | ?a + ?b => ground a; ground b
  | ?a - ?b => ground a; ground b
  | - ?a => ground a
  | / ?a => ground a
  end.

(** One decision: an equality test, a strict comparison or a maximum of two ground reals;
    the branch that contradicts the numbers is closed by [lra].  A decided test is reduced away
    ([cbn]); a maximum rewritten to one of its arguments leaves nothing to reduce. *)
Ltac decide_step :=
  match goal with
  | |- context [Req_EM_T ?a ?b] => ground a; ground b;
      let H := fresh "H" in
      destruct (Req_EM_T a b) as [H|H]; [try (exfalso; lra) | try (exfalso; apply H; lra)]; cbn
  | |- context [Rlt_dec ?a ?b] => ground a; ground b;
      let H := fresh "H" in
      destruct (Rlt_dec a b) as [H|H]; [try (exfalso; lra) | try (exfalso; apply H; lra)]; cbn
  | |- context [Rmax ?a ?b] => ground a; ground b;
      first [rewrite (Rmax_right a b) by lra | rewrite (Rmax_left a b) by lra]
  end.

Lemma fin_ln (c d : R) : c = d -> Fin (ln c) = Fin (ln d).
Proof. intros ->. reflexivity. Qed.

(** [- ln c = ln (1/c)]. *)
Lemma fin_neg_ln (c d : R) : 0 < c -> / c = d -> Fin (- ln c) = Fin (ln d).
Proof. intros Hc <-. rewrite ln_Rinv by exact Hc. reflexivity. Qed.

(** A ratio budget: unfold it down to ratios of entries, decide every comparison, compare the logarithms. *)
Ltac budget :=
  unfold eps_all, sigma_min;
  unfold eps_d, eps_i, neg_sigma, dp_ratio, id_ratio, prior_ratio, pair_max, ratio, eln;
  cbn; repeat decide_step;
  first [reflexivity | apply fin_ln; lra | apply fin_neg_ln; lra].

(** [I(X;Y)] against its form, term by term: equal weights, and equal arguments of [ln]. *)
Ltac mi_terms :=
  match goal with
  | |- ?a + ?b = ?c + ?d => apply (f_equal2 Rplus); mi_terms
  | |- ?a * ln ?x = 0 * ln 1 => replace a with 0 by lra; ring
  | |- ?a * ln ?x = ?c * ln ?y => apply (f_equal2 Rmult); [lra | apply f_equal; lra]
  | |- ?a = ?a => reflexivity
  end.

Ltac mutual_info_form :=
  unfold eps_m, mutual_info, marginal; cbn; apply f_equal; mi_terms.

(** [D(P || S)] of two rows against its form (the support check decided first). *)
Ltac kl_pair := unfold kl_div, kl; cbn; repeat decide_step; apply f_equal; mi_terms.

(** [kl_max]: decide the supports, then every divergence of equal rows is [0]. *)
Ltac kl_budget :=
  unfold kl_max, kl_div, kl; cbn; repeat decide_step;
  repeat rewrite Rmult_0_l;
  repeat match goal with
         | |- context [ln ?x] => ground x; replace (ln x) with 0 by (rewrite <- ln_1; apply f_equal; lra)
         end;
  repeat rewrite Rmult_0_r; repeat rewrite Rplus_0_r; repeat decide_step;
  first [reflexivity | apply f_equal; lra].
"""


def _entries(mech: Mechanism) -> tuple[list[Fraction], list[list[Fraction]]]:
    """The exact prior and rows of a dense mechanism."""
    prior, channel = mech.prior, mech.channel
    assert isinstance(prior, Prior) and isinstance(channel, Channel)
    assert prior.exact is not None and channel.exact is not None
    return list(prior.exact), [list(row) for row in channel.exact]


def _example_text(example: Example) -> str:
    mech = example.mechanism
    prior, rows = _entries(mech)
    n, m = len(rows), len(rows[0])
    nb, e = _neighbours(mech), example.name
    lines = [f"(** ** [{e}]: {example.title} *)", ""]
    lines.append(f"Definition {e}_p : nat -> R := fun x => nth x [{'; '.join(_num(v) for v in prior)}] 0.")
    table = "; ".join("[" + "; ".join(_num(v) for v in row) + "]" for row in rows)
    lines.append(f"Definition {e}_Q : nat -> nat -> R := fun x y => nth y (nth x [{table}] []) 0.")
    lines.append("")

    def lemma(name: str, statement: str, proof: str) -> None:
        lines.extend([f"Lemma {e}_{name} : {statement}.", f"Proof. {proof} Qed.", ""])

    unfold_q, unfold_pq = f"unfold {e}_Q.", f"unfold {e}_p, {e}_Q."
    lemma("diam", f"diam {nb} {n} = {coq_value_text(diameter(mech.inputs))}", "vm_compute. reflexivity.")
    lemma("eps_d", f"eps_d {nb} {n} {m} {e}_Q = {coq_value_text(budget_value('eps_d', mech))}", unfold_q + " budget.")
    lemma("eps_all", f"eps_all {n} {m} {e}_Q = {coq_value_text(budget_value('eps_all', mech))}", unfold_q + " budget.")
    lemma("eps_i", f"eps_i {nb} {n} {m} {e}_p {e}_Q = {coq_value_text(budget_value('eps_i', mech))}",
          unfold_pq + " budget.")
    lemma("neg_sigma", f"neg_sigma {nb} {n} {e}_p = {coq_value_text(budget_value('neg_sigma', mech))}",
          f"unfold {e}_p. budget.")
    lemma("sigma_min", f"sigma_min {nb} {n} {e}_p = {coq_value_text(budget_value('sigma_min', mech))}",
          f"unfold {e}_p. budget.")
    form = mi_form(prior, rows)
    terms = " + ".join(_terms(row) for row in form)
    lemma("eps_m", f"eps_m {n} {m} {e}_p {e}_Q = Fin (0 + {terms})", unfold_pq + " mutual_info_form.")
    kl = _kl_text(mech)
    if isinstance(kl, str):
        lemma("kl_max", f"kl_max {nb} {n} {m} {e}_Q = {kl}", unfold_q + " kl_budget.")
    else:
        x, x2 = kl
        lemma("kl_witness", f"{nb} {x}%nat {x2}%nat = true /\\ kl_div {m} ({e}_Q {x}) ({e}_Q {x2}) = "
                            f"Fin {_terms(kl_form(rows[x], rows[x2]))}", f"split; [reflexivity | unfold {e}_Q; kl_pair].")
    return "\n".join(lines)


def render(chosen: Sequence[Example] | None = None) -> str:
    """The text of ``Examples.v`` for the examples ``chosen`` (default: :func:`examples`)."""
    return _HEADER + "\n" + "\n".join(_example_text(e) for e in (examples() if chosen is None else chosen))


if __name__ == "__main__":  # pragma: no cover - the regeneration command
    print(render(), end="")
