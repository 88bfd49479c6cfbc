(** * What the budgets of Budgets.v mean: characterisations used by every proof.

    Each ratio budget is at most [e] exactly when every ratio it ranges over is
    at most [e^e] (zero cases included), and it is [>= 0] and never [-inf].
    The diameter bounds path lengths; a connected graph is "charged" by any
    prior. *)

From Coq Require Import Reals Lra Lia List Bool Arith.
From Relations Require Import Sums Mechanism KLPair Budgets.
Import ListNotations.
Open Scope R_scope.

(** ** Ratio budgets *)

Lemma eps_d_le_iff nb n m Q e :
  is_channel n m Q -> 0 <= e ->
  ele (eps_d nb n m Q) (Fin e) <->
  (forall x x' y, (x < n)%nat -> (x' < n)%nat -> (y < m)%nat -> nb x x' = true ->
     Q x y <= exp e * Q x' y).
Admitted.

Lemma eps_i_le_iff nb n m p Q e :
  is_prior n p -> is_channel n m Q -> 0 <= e ->
  ele (eps_i nb n m p Q) (Fin e) <->
  (forall x x' y, (x < n)%nat -> (x' < n)%nat -> (y < m)%nat -> nb x x' = true ->
     p x * Q x y <= exp e * (p x' * Q x' y)).
Admitted.

Lemma neg_sigma_le_iff nb n p e :
  is_prior n p -> 0 <= e ->
  ele (neg_sigma nb n p) (Fin e) <->
  (forall x x', (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> p x <= exp e * p x').
Admitted.

Lemma eps_d_cases nb n m Q :
  eps_d nb n m Q = PInf \/ exists e, 0 <= e /\ eps_d nb n m Q = Fin e.
Admitted.

Lemma eps_i_cases nb n m p Q :
  eps_i nb n m p Q = PInf \/ exists e, 0 <= e /\ eps_i nb n m p Q = Fin e.
Admitted.

Lemma neg_sigma_cases nb n p :
  neg_sigma nb n p = PInf \/ exists e, 0 <= e /\ neg_sigma nb n p = Fin e.
Admitted.

(** ** Paths, the diameter, and charged components *)

(** A diameter bounds every path length. *)
Lemma diam_reach nb n d x z :
  diam nb n = Some d -> (x < n)%nat -> (z < n)%nat -> reach nb n d x z = true.
Admitted.

(** Finite diameter: every component is the whole graph, which holds an input
    of positive prior. *)
Lemma connected_charged nb n p d :
  is_prior n p -> diam nb n = Some d -> charged nb n p.
Admitted.

(** Every [D^r] is connected. *)
Lemma dr_diam k r : exists d, diam (dr_nb k r) (k ^ r) = Some d.
Admitted.

Lemma local_symmetric : symmetric local_nb.
Admitted.

Lemma dr_symmetric k r : symmetric (dr_nb k r).
Admitted.

Lemma graph_symmetric edges : symmetric (graph_nb edges).
Admitted.
