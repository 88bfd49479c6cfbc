From Coq Require Import Reals Lra Lia List Bool Arith.
From Relations Require Import Sums Mechanism KLPair Budgets BudgetFacts RatioRelations GroupMI.
Import ListNotations.
Open Scope R_scope.

(** * Relations composed of the ratio relations and the mutual-information ones.

    Each bound chains [id_to_dp] ([eps_d <= eps_i - sigma_min], RatioRelations.v)
    with the information density and group privacy of GroupMI.v.  Locally every
    input of positive prior is one step from any other, so the local graph is
    charged; centrally a finite diameter makes the graph connected, hence
    charged ([connected_charged]), and an infinite one makes the bound [+inf].

    The central bound [relations_thm5_corrected] goes through
    [I(X;Y) <= eps_all] (information density) and [eps_all <= diam * eps_d]
    (group privacy along paths of at most [diam] steps).  This is a complete
    proof over every finite mechanism; it does not use the chain rule of mutual
    information over records. *)

(** ** Monotonicity *)

(** [d * a] is monotone in [a]. *)
Lemma dmul_mono d a b : ele a b -> ele (dmul d a) (dmul d b).
Proof.
  destruct d as [[|k]|]; [simpl; lra | | intros; apply ele_pinf].
  unfold dmul, emap. destruct a, b; simpl; auto; try contradiction.
  intro H. apply Rmult_le_compat_l; [exact (pos_INR (S k)) | exact H].
Qed.

(** [x <= b] gives [x <= 2 b] when a finite [b] is [>= 0]. *)
Lemma le_double x b :
  ele (Fin x) b -> (forall v, b = Fin v -> 0 <= v) -> ele (Fin x) (emap (fun e => 2 * e) b).
Proof.
  destruct b as [|v|]; simpl; auto. intros H Hv. specialize (Hv v eq_refl). lra.
Qed.

(** [eps_d <= b] forces a finite [b] to be [>= 0], since a finite [eps_d] is. *)
Lemma eps_d_bound_nonneg nb n m Q b :
  ele (eps_d nb n m Q) b -> forall v, b = Fin v -> 0 <= v.
Proof.
  intros H v ->. destruct (eps_d_le_fin nb n m Q v H) as [e [He0 [Hev _]]]. lra.
Qed.

(** Locally: [eps_d <= eps_i - sigma_min] ([id_to_dp] on the charged local graph). *)
Lemma local_id_to_dp n m p Q :
  is_prior n p -> is_channel n m Q ->
  ele (eps_d local_nb n m Q) (eminus (eps_i local_nb n m p Q) (sigma_min local_nb n p)).
Proof.
  intros Hp HQ. apply id_to_dp; auto using local_symmetric, local_charged.
Qed.

(** Centrally, for any symmetric neighbour relation:
    [eps_m <= diam * (eps_i - sigma_min)]. *)
Lemma mi_le_diam_id nb n m p Q :
  symmetric nb -> is_prior n p -> is_channel n m Q ->
  ele (eps_m n m p Q) (dmul (diam nb n) (eminus (eps_i nb n m p Q) (sigma_min nb n p))).
Proof.
  intros Hsym Hp HQ.
  destruct (diam nb n) as [d|] eqn:Hd; [|apply ele_pinf].
  pose proof (connected_charged nb n p d Hp Hd) as Hch.
  pose proof (group_privacy nb n m Q HQ) as Hg. rewrite Hd in Hg.
  eapply ele_trans; [apply cuffyu2016_density; assumption|].
  eapply ele_trans; [exact Hg|].
  apply dmul_mono. apply id_to_dp; assumption.
Qed.

(** [relations.thm7_sharp]: [eps_m <= eps_i - sigma_min], local, any prior.
    Proof: [eps_m <= eps_d] ([relations_thm11_sharp]) and
    [eps_d <= eps_i - sigma_min] ([id_to_dp]; the local graph is charged). *)
Theorem relations_thm7_sharp :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (eminus (eps_i local_nb n m p Q) (sigma_min local_nb n p))).
Proof.
  intros n m p Q Hp HQ.
  eapply ele_trans; [apply relations_thm11_sharp; assumption|].
  apply local_id_to_dp; assumption.
Qed.

(** [zheng2025.thm7]: [eps_m <= 2(eps_i - sigma_min)], local, any prior.
    Proof: [relations_thm7_sharp], and [eps_i - sigma_min >= eps_d >= 0]
    when it is finite, so doubling it only loosens the bound. *)
Theorem zheng2025_thm7 :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (emap (fun e => 2 * e) (eminus (eps_i local_nb n m p Q) (sigma_min local_nb n p)))).
Proof.
  intros n m p Q Hp HQ. apply le_double.
  - apply relations_thm7_sharp; assumption.
  - apply (eps_d_bound_nonneg local_nb n m Q). apply local_id_to_dp; assumption.
Qed.

(** [relations.thm5_corrected]: [eps_m <= diam * (eps_i - sigma_min)], central: every [D^r] and explicit graph, any prior.
    Proof: an infinite diameter gives [+inf]; a finite one makes the graph
    connected, hence charged, so [id_to_dp] gives [eps_d <= eps_i - sigma_min];
    then [eps_m <= eps_all <= diam * eps_d] (density, group privacy) and [dmul_mono]. *)
Theorem relations_thm5_corrected :
  (forall k r m p Q,
     is_prior (k ^ r) p -> is_channel (k ^ r) m Q ->
     ele (eps_m (k ^ r) m p Q) (dmul (diam (dr_nb k r) (k ^ r)) (eminus (eps_i (dr_nb k r) (k ^ r) m p Q) (sigma_min (dr_nb k r) (k ^ r) p))))
  /\ (forall edges n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (dmul (diam (graph_nb edges) n) (eminus (eps_i (graph_nb edges) n m p Q) (sigma_min (graph_nb edges) n p)))).
Proof.
  split; intros; apply mi_le_diam_id; auto using dr_symmetric, graph_symmetric.
Qed.

