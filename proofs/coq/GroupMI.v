From Coq Require Import Reals Lra Lia List Bool Arith.
From Relations Require Import Sums Mechanism LocalMISharp LocalMITanh KLPair Budgets BudgetFacts.
Import ListNotations.
Open Scope R_scope.

(** * Group privacy and mutual information.

    Group privacy along paths, the information density ([I(X;Y)] is an average
    of [ln(Q(x,y)/q(y)) <= eps_all]), the KL chord bound lifted to [eps_all],
    and their compositions.

    The central bound [eps_m <= diam * eps_d] ([relations_thm9_corrected])
    goes through the information density and group privacy along paths of at
    most [diam] steps: [I(X;Y) <= eps_all <= diam * eps_d].  This is a complete
    proof over every finite mechanism; it does not use the chain rule of
    mutual information over records. *)

(** ** Small facts about the budgets *)

(** A budget at most a finite [e] is itself finite, at least [0] and at most [e]
    (for [eps_d], which is never [-inf]). *)
Lemma eps_d_le_fin nb n m Q v :
  ele (eps_d nb n m Q) (Fin v) -> exists e, 0 <= e /\ e <= v /\ eps_d nb n m Q = Fin e.
Proof.
  intro H. destruct (eps_d_cases nb n m Q) as [Hc|[e [He Hc]]]; rewrite Hc in *.
  - contradiction.
  - exists e. simpl in H. auto.
Qed.

(** ** From a finite [eps_all] to local differential privacy *)

(** [eps_all <= e] is [e]-LDP over all pairs (the pair [x = x'] is trivial). *)
Lemma ldp_of_eps_all n m Q e :
  is_channel n m Q -> 0 <= e -> ele (eps_all n m Q) (Fin e) -> ldp n m e Q.
Proof.
  intros HQ He H x x' y Hx Hx' Hy.
  destruct (Nat.eq_dec x x') as [<-|Hne].
  - pose proof (exp_ge1 e He). pose proof (proj1 (HQ x Hx) y Hy). nra.
  - apply (proj1 (eps_d_le_iff local_nb n m Q e HQ He) H); try assumption.
    unfold local_nb. apply negb_true_iff, Nat.eqb_neq. exact Hne.
Qed.

(** A finite [eps_all = e] is [e >= 0] and [e]-LDP; otherwise [eps_all] is [+inf]. *)
Lemma eps_all_cases_ldp n m Q :
  is_channel n m Q -> eps_all n m Q = PInf \/ exists e, 0 <= e /\ eps_all n m Q = Fin e /\ ldp n m e Q.
Proof.
  intro HQ. destruct (eps_d_cases local_nb n m Q) as [He|[e [He0 He]]]; [left; exact He | right].
  exists e. repeat split; [exact He0 | exact He |].
  apply ldp_of_eps_all; [exact HQ | exact He0 |]. unfold eps_all. rewrite He. apply ele_refl.
Qed.

(** ** Group privacy *)

(** Along a path of at most [d] steps from [x] to [z], each step multiplies the
    ratio bound by [e^e]: [Q(x,y) <= e^(d e) Q(z,y)]. *)
Lemma reach_ratio nb n m Q e y d x z :
  is_channel n m Q -> 0 <= e -> (y < m)%nat ->
  (forall x x', (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> Q x y <= exp e * Q x' y) ->
  reach nb n d x z = true -> (x < n)%nat -> (z < n)%nat ->
  Q x y <= exp (INR d * e) * Q z y.
Proof.
  intros HQ He Hy Hstep. revert x.
  induction d as [|d IH]; intros x Hr Hx Hz; simpl in Hr.
  - apply Nat.eqb_eq in Hr. subst z. rewrite Rmult_0_l, exp_0. lra.
  - assert (Hzy : 0 <= Q z y) by exact (proj1 (HQ z Hz) y Hy).
    apply orb_true_iff in Hr as [Hr|Hr].
    + specialize (IH x Hr Hx Hz).
      assert (exp (INR d * e) <= exp (INR (S d) * e))
        by (apply exp_le_mono; rewrite S_INR; nra).
      nra.
    + apply existsb_exists in Hr as [w [Hw Hr]]. apply in_seq in Hw.
      apply andb_true_iff in Hr as [Hnb Hr].
      assert (Hw' : (w < n)%nat) by lia.
      specialize (IH w Hr Hw' Hz). specialize (Hstep x w Hx Hw' Hnb).
      rewrite S_INR, Rmult_plus_distr_r, Rmult_1_l, exp_plus.
      assert (exp e * Q w y <= exp e * (exp (INR d * e) * Q z y))
        by (apply Rmult_le_compat_l; [left; apply exp_pos | exact IH]).
      lra.
Qed.

(** Group privacy for any neighbour relation: [eps_all <= diam * eps_d].
    Proof: [diam = None] gives [+inf]; [diam = Some 0] joins every two inputs in
    [0] steps, so no two inputs are distinct; otherwise every two inputs are
    joined by a path of at most [d] steps ([diam_reach]) and [reach_ratio]. *)
Lemma group_privacy nb n m Q :
  is_channel n m Q ->
  ele (eps_all n m Q) (dmul (diam nb n) (eps_d nb n m Q)).
Proof.
  intro HQ.
  destruct (diam nb n) as [[|d]|] eqn:Hd; [| | apply ele_pinf].
  - (* diameter 0: no two distinct inputs *)
    simpl. apply (eps_d_le_iff local_nb n m Q 0 HQ (Rle_refl 0)).
    intros x x' y Hx Hx' Hy Hnb.
    pose proof (diam_reach nb n 0 x x' Hd Hx Hx') as Hr. simpl in Hr.
    apply Nat.eqb_eq in Hr. subst x'.
    unfold local_nb in Hnb. rewrite Nat.eqb_refl in Hnb. discriminate.
  - destruct (eps_d_cases nb n m Q) as [He|[e [He0 He]]]; rewrite He; [apply ele_pinf|].
    unfold dmul, emap.
    assert (Hde : 0 <= INR (S d) * e) by (apply Rmult_le_pos; [apply pos_INR | exact He0]).
    apply (eps_d_le_iff local_nb n m Q _ HQ Hde).
    intros x x' y Hx Hx' Hy _.
    apply (reach_ratio nb n m Q e y (S d) x x' HQ He0 Hy); try assumption.
    + intros a b Ha Hb Hab.
      apply (proj1 (eps_d_le_iff nb n m Q e HQ He0)); try assumption.
      rewrite He. apply ele_refl.
    + apply diam_reach; assumption.
Qed.

(** [dworkroth2014.group]: [eps_all <= diam * eps_d], both settings, any prior.
    Proof: [group_privacy] for each neighbour relation. *)
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
  split; [|split]; intros; apply group_privacy; assumption.
Qed.

(** [cuffyu2016.density]: [eps_m <= eps_all], every finite mechanism (neither side depends on the neighbour relation), any prior.
    Proof: [eps_all = +inf] is trivial; a finite [eps_all = e >= 0] is
    [e]-LDP over all pairs, and then every [ln(Q(x,y)/q(y)) <= e]
    ([local_mi_le_eps]). *)
Theorem cuffyu2016_density :
  forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (eps_all n m Q).
Proof.
  intros n m p Q Hp HQ.
  destruct (eps_all_cases_ldp n m Q HQ) as [He|[e [He0 [He Hl]]]]; rewrite He; [apply ele_pinf|].
  simpl. apply local_mi_le_eps; assumption.
Qed.

(** [drv2010.kl]: [eps_m <= eps_all (e^eps_all - 1)], every finite mechanism, any prior.
    Proof: as [cuffyu2016_density], with the chord bound [mi_le_kl_bound]. *)
Theorem drv2010_kl :
  forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (emap (fun e => e * (exp e - 1)) (eps_all n m Q)).
Proof.
  intros n m p Q Hp HQ.
  destruct (eps_all_cases_ldp n m Q HQ) as [He|[e [He0 [He Hl]]]]; rewrite He; [apply ele_pinf|].
  simpl. apply mi_le_kl_bound; assumption.
Qed.

(** [relations.thm11_sharp]: [eps_m <= eps_d], local, any prior.
    Proof: locally [eps_d] is [eps_all] by definition: [cuffyu2016_density]. *)
Theorem relations_thm11_sharp :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (eps_d local_nb n m Q)).
Proof.
  exact cuffyu2016_density.
Qed.

(** [zheng2025.thm11]: [eps_m <= 2 eps_d], local, any prior.
    Proof: [eps_m <= eps_d <= 2 eps_d], since a finite [eps_d] is [>= 0]. *)
Theorem zheng2025_thm11 :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (emap (fun e => 2 * e) (eps_d local_nb n m Q))).
Proof.
  intros n m p Q Hp HQ.
  pose proof (relations_thm11_sharp n m p Q Hp HQ) as H.
  destruct (eps_d_cases local_nb n m Q) as [He|[e [He0 He]]];
    rewrite He in *; [apply ele_pinf|].
  simpl in *. lra.
Qed.

(** [relations.thm9_corrected]: [eps_m <= diam * eps_d], central: every [D^r] and explicit graph, any prior.
    Proof: [eps_m <= eps_all] ([cuffyu2016_density]) and
    [eps_all <= diam * eps_d] ([group_privacy]); no chain rule over records is needed. *)
Theorem relations_thm9_corrected :
  (forall k r m p Q,
     is_prior (k ^ r) p -> is_channel (k ^ r) m Q ->
     ele (eps_m (k ^ r) m p Q) (dmul (diam (dr_nb k r) (k ^ r)) (eps_d (dr_nb k r) (k ^ r) m Q)))
  /\ (forall edges n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_m n m p Q) (dmul (diam (graph_nb edges) n) (eps_d (graph_nb edges) n m Q))).
Proof.
  split; intros; eapply ele_trans;
    [apply cuffyu2016_density; assumption | apply group_privacy; assumption
    |apply cuffyu2016_density; assumption | apply group_privacy; assumption].
Qed.

