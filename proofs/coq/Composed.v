From Coq Require Import Reals Lra Lia List Bool Arith.
From Relations Require Import Sums Mechanism KLPair Budgets BudgetFacts RatioRelations GroupMI.
Import ListNotations.
Open Scope R_scope.

(** * Relations composed of the ratio relations and the mutual-information ones. *)

(** [relations.thm7_sharp]: [eps_m <= eps_i - sigma_min], local, any prior. *)
Theorem relations_thm7_sharp :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (eminus (eps_i local_nb n m p Q) (sigma_min local_nb n p))).
Proof.
Admitted.

(** [zheng2025.thm7]: [eps_m <= 2(eps_i - sigma_min)], local, any prior. *)
Theorem zheng2025_thm7 :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (emap (fun e => 2 * e) (eminus (eps_i local_nb n m p Q) (sigma_min local_nb n p)))).
Proof.
Admitted.

(** [relations.thm5_corrected]: [eps_m <= diam * (eps_i - sigma_min)], central: every [D^r] and explicit graph, any prior. *)
Theorem relations_thm5_corrected :
  (forall k r m p Q,
     is_prior (k ^ r) p -> is_channel (k ^ r) m Q ->
     ele (eps_m (k ^ r) m p Q) (dmul (diam (dr_nb k r) (k ^ r)) (eminus (eps_i (dr_nb k r) (k ^ r) m p Q) (sigma_min (dr_nb k r) (k ^ r) p))))
  /\ (forall edges n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (dmul (diam (graph_nb edges) n) (eminus (eps_i (graph_nb edges) n m p Q) (sigma_min (graph_nb edges) n p)))).
Proof.
Admitted.

