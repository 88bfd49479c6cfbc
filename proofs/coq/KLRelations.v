From Coq Require Import Reals Lra Lia List Bool Arith.
From Relations Require Import Sums Mechanism KLPair Budgets BudgetFacts.
Import ListNotations.
Open Scope R_scope.

(** * The largest KL divergence between neighbours' rows, bounded by [eps_d].

    The per-pair chord bound of KLPair.v, lifted to [kl_max] with its infinite
    cases. *)

(** [drv2010.kl_dp]: [kl <= eps_d (e^eps_d - 1)], both settings, any prior. *)
Theorem drv2010_kl_dp :
  (forall n m Q,
     is_channel n m Q ->
     ele (kl_max local_nb n m Q) (emap (fun e => e * (exp e - 1)) (eps_d local_nb n m Q)))
  /\ (forall k r m Q,
     is_channel (k ^ r) m Q ->
     ele (kl_max (dr_nb k r) (k ^ r) m Q) (emap (fun e => e * (exp e - 1)) (eps_d (dr_nb k r) (k ^ r) m Q)))
  /\ (forall edges n m Q,
     is_channel n m Q ->
     ele (kl_max (graph_nb edges) n m Q) (emap (fun e => e * (exp e - 1)) (eps_d (graph_nb edges) n m Q))).
Proof.
Admitted.

(** [relations.kl_tanh]: [kl <= eps_d tanh(eps_d/2)], both settings, any prior; [tanh(e/2) = (e^e - 1)/(e^e + 1)]. *)
Theorem relations_kl_tanh :
  (forall n m Q,
     is_channel n m Q ->
     ele (kl_max local_nb n m Q) (emap (fun e => e * ((exp e - 1) / (exp e + 1))) (eps_d local_nb n m Q)))
  /\ (forall k r m Q,
     is_channel (k ^ r) m Q ->
     ele (kl_max (dr_nb k r) (k ^ r) m Q) (emap (fun e => e * ((exp e - 1) / (exp e + 1))) (eps_d (dr_nb k r) (k ^ r) m Q)))
  /\ (forall edges n m Q,
     is_channel n m Q ->
     ele (kl_max (graph_nb edges) n m Q) (emap (fun e => e * ((exp e - 1) / (exp e + 1))) (eps_d (graph_nb edges) n m Q))).
Proof.
Admitted.

