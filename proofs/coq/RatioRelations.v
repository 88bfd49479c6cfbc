From Coq Require Import Reals Lra Lia List Bool Arith.
From Relations Require Import Sums Mechanism KLPair Budgets BudgetFacts.
Import ListNotations.
Open Scope R_scope.

(** * Identifiability, differential privacy and the prior: the catalogue's ratio relations.

    Generic theorems over any symmetric neighbour relation, then each
    catalogue relation in the scope [proofs/verdicts.json] gives it: local
    domains ([local_nb]), every [D^r] ([dr_nb k r] on [k^r] inputs) and explicit
    graphs ([graph_nb edges]). *)

(** ID -> DP for any symmetric neighbour relation whose components with a
    neighbour pair are charged: [eps_d <= eps_i - sigma_min]. *)
Lemma id_to_dp nb n m p Q :
  symmetric nb -> is_prior n p -> is_channel n m Q -> charged nb n p ->
  ele (eps_d nb n m Q) (eminus (eps_i nb n m p Q) (sigma_min nb n p)).
Admitted.

(** DP -> ID for any symmetric neighbour relation: [eps_i <= eps_d - sigma_min]. *)
Lemma dp_to_id nb n m p Q :
  symmetric nb -> is_prior n p -> is_channel n m Q ->
  ele (eps_i nb n m p Q) (eminus (eps_d nb n m Q) (sigma_min nb n p)).
Admitted.

(** The prior bound for any neighbour relation: [-sigma_min <= eps_i]. *)
Lemma prior_bound nb n m p Q :
  is_prior n p -> is_channel n m Q ->
  ele (neg_sigma nb n p) (eps_i nb n m p Q).
Admitted.

(** [zheng2025.thm1]: [eps_d <= eps_i - sigma_min], central: every [D^r], any prior; an explicit graph whose components with a neighbour pair hold an input of positive prior. *)
Theorem zheng2025_thm1 :
  (forall k r m p Q,
     is_prior (k ^ r) p -> is_channel (k ^ r) m Q ->
     ele (eps_d (dr_nb k r) (k ^ r) m Q) (eminus (eps_i (dr_nb k r) (k ^ r) m p Q) (sigma_min (dr_nb k r) (k ^ r) p)))
  /\ (forall edges n m p Q,
     is_prior n p -> is_channel n m Q -> charged (graph_nb edges) n p ->
     ele (eps_d (graph_nb edges) n m Q) (eminus (eps_i (graph_nb edges) n m p Q) (sigma_min (graph_nb edges) n p))).
Proof.
Admitted.

(** [zheng2025.thm3]: [eps_d <= eps_i - sigma_min], local, any prior. *)
Theorem zheng2025_thm3 :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_d local_nb n m Q) (eminus (eps_i local_nb n m p Q) (sigma_min local_nb n p))).
Proof.
Admitted.

(** [suntay2020.thm1xiv]: [eps_d <= eps_i - sigma_min], both settings: local; every [D^r]; explicit graphs whose components with a neighbour pair hold an input of positive prior. *)
Theorem suntay2020_thm1xiv :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_d local_nb n m Q) (eminus (eps_i local_nb n m p Q) (sigma_min local_nb n p)))
  /\ (forall k r m p Q,
     is_prior (k ^ r) p -> is_channel (k ^ r) m Q ->
     ele (eps_d (dr_nb k r) (k ^ r) m Q) (eminus (eps_i (dr_nb k r) (k ^ r) m p Q) (sigma_min (dr_nb k r) (k ^ r) p)))
  /\ (forall edges n m p Q,
     is_prior n p -> is_channel n m Q -> charged (graph_nb edges) n p ->
     ele (eps_d (graph_nb edges) n m Q) (eminus (eps_i (graph_nb edges) n m p Q) (sigma_min (graph_nb edges) n p))).
Proof.
Admitted.

(** [suntay2020.thm1xii]: [eps_i <= eps_d - sigma_min], both settings, any prior. *)
Theorem suntay2020_thm1xii :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_i local_nb n m p Q) (eminus (eps_d local_nb n m Q) (sigma_min local_nb n p)))
  /\ (forall k r m p Q,
     is_prior (k ^ r) p -> is_channel (k ^ r) m Q ->
     ele (eps_i (dr_nb k r) (k ^ r) m p Q) (eminus (eps_d (dr_nb k r) (k ^ r) m Q) (sigma_min (dr_nb k r) (k ^ r) p)))
  /\ (forall edges n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_i (graph_nb edges) n m p Q) (eminus (eps_d (graph_nb edges) n m Q) (sigma_min (graph_nb edges) n p))).
Proof.
Admitted.

(** [relations.thm2_corrected]: [eps_i <= eps_d - sigma_min], central: every [D^r] and explicit graph, any prior. *)
Theorem relations_thm2_corrected :
  (forall k r m p Q,
     is_prior (k ^ r) p -> is_channel (k ^ r) m Q ->
     ele (eps_i (dr_nb k r) (k ^ r) m p Q) (eminus (eps_d (dr_nb k r) (k ^ r) m Q) (sigma_min (dr_nb k r) (k ^ r) p)))
  /\ (forall edges n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_i (graph_nb edges) n m p Q) (eminus (eps_d (graph_nb edges) n m Q) (sigma_min (graph_nb edges) n p))).
Proof.
Admitted.

(** [relations.thm4_corrected]: [eps_i <= eps_d - sigma_min], local, any prior. *)
Theorem relations_thm4_corrected :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_i local_nb n m p Q) (eminus (eps_d local_nb n m Q) (sigma_min local_nb n p))).
Proof.
Admitted.

(** [zheng2025.eq17]: [neg_sigma <= eps_i], central: every [D^r] and explicit graph, any prior. *)
Theorem zheng2025_eq17 :
  (forall k r m p Q,
     is_prior (k ^ r) p -> is_channel (k ^ r) m Q ->
     ele (neg_sigma (dr_nb k r) (k ^ r) p) (eps_i (dr_nb k r) (k ^ r) m p Q))
  /\ (forall edges n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (neg_sigma (graph_nb edges) n p) (eps_i (graph_nb edges) n m p Q)).
Proof.
Admitted.

(** [zheng2025.eq18]: [neg_sigma <= eps_i], local, any prior. *)
Theorem zheng2025_eq18 :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (neg_sigma local_nb n p) (eps_i local_nb n m p Q)).
Proof.
Admitted.

