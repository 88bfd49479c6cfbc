From Coq Require Import Reals Lra Lia List Bool Arith.
From Relations Require Import Sums Mechanism KLPair Budgets BudgetFacts.
Import ListNotations.
Open Scope R_scope.

(** * Group privacy and mutual information.

    Group privacy along paths, the information density ([I(X;Y)] is an average
    of [ln(Q(x,y)/q(y)) <= eps_all]), the KL chord bound lifted to [eps_all],
    and their compositions. *)

(** Group privacy for any neighbour relation: [eps_all <= diam * eps_d]. *)
Lemma group_privacy nb n m Q :
  is_channel n m Q ->
  ele (eps_all n m Q) (dmul (diam nb n) (eps_d nb n m Q)).
Admitted.

(** [dworkroth2014.group]: [eps_all <= diam * eps_d], both settings, any prior. *)
Theorem dworkroth2014_group :
  (forall n m Q,
     is_channel n m Q ->
     ele (eps_all n m Q) (dmul (diam local_nb n) (eps_d local_nb n m Q)))
  /\ (forall k r m Q,
     is_channel (k ^ r) m Q ->
     ele (eps_all (k ^ r) m Q) (dmul (diam (dr_nb k r) (k ^ r)) (eps_d (dr_nb k r) (k ^ r) m Q)))
  /\ (forall edges n m Q,
     is_channel n m Q ->
     ele (eps_all n m Q) (dmul (diam (graph_nb edges) n) (eps_d (graph_nb edges) n m Q))).
Proof.
Admitted.

(** [cuffyu2016.density]: [eps_m <= eps_all], every finite mechanism (neither side depends on the neighbour relation), any prior. *)
Theorem cuffyu2016_density :
  forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (eps_all n m Q).
Proof.
Admitted.

(** [drv2010.kl]: [eps_m <= eps_all (e^eps_all - 1)], every finite mechanism, any prior. *)
Theorem drv2010_kl :
  forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (emap (fun e => e * (exp e - 1)) (eps_all n m Q)).
Proof.
Admitted.

(** [relations.thm11_sharp]: [eps_m <= eps_d], local, any prior. *)
Theorem relations_thm11_sharp :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (eps_d local_nb n m Q)).
Proof.
Admitted.

(** [zheng2025.thm11]: [eps_m <= 2 eps_d], local, any prior. *)
Theorem zheng2025_thm11 :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (emap (fun e => 2 * e) (eps_d local_nb n m Q))).
Proof.
Admitted.

(** [relations.thm9_corrected]: [eps_m <= diam * eps_d], central: every [D^r] and explicit graph, any prior. *)
Theorem relations_thm9_corrected :
  (forall k r m p Q,
     is_prior (k ^ r) p -> is_channel (k ^ r) m Q ->
     ele (eps_m (k ^ r) m p Q) (dmul (diam (dr_nb k r) (k ^ r)) (eps_d (dr_nb k r) (k ^ r) m Q)))
  /\ (forall edges n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (dmul (diam (graph_nb edges) n) (eps_d (graph_nb edges) n m Q))).
Proof.
Admitted.

