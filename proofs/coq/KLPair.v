(** * The KL divergence of two eps-indistinguishable distributions: D(P || S) <= eps * tanh(eps/2).

    The per-pair form of the chord argument of LocalMITanh.v.  P and S are
    distributions on 0..m-1 with P(y) <= e^eps S(y) and S(y) <= e^eps P(y).
    h(u) = u ln u is convex, so on [a, b] = [e^-eps, e^eps] it lies below its
    chord; every ratio u_y = P(y)/S(y) lies in [a, b] and sum_y S(y) u_y = 1, so
    D(P || S) = sum_y S(y) h(u_y) <= chord(1) = eps (e^eps - 1)/(e^eps + 1).
    Applied to the rows Q[x], Q[x'] of every neighbour pair this bounds the
    catalogue's kl (relations.kl_tanh), in either setting; with
    (e^eps - 1)/(e^eps + 1) <= e^eps - 1 it gives drv2010.kl_dp. *)

From Coq Require Import Reals Lra Lia.
From Relations Require Import Sums Mechanism LocalMITanh.
Open Scope R_scope.

(** [P] is a probability distribution on [0 .. m-1]. *)
Definition is_dist (m : nat) (P : nat -> R) : Prop :=
  (forall y, (y < m)%nat -> 0 <= P y) /\ sum m P = 1.

(** [P] and [S] are eps-indistinguishable: both ratios at most e^eps. *)
Definition indist (m : nat) (eps : R) (P S : nat -> R) : Prop :=
  forall y, (y < m)%nat -> P y <= exp eps * S y /\ S y <= exp eps * P y.

(** KL divergence sum_y P(y) ln(P(y)/S(y)) (terms with P(y) = 0 are 0). *)
Definition kl (m : nat) (P S : nat -> R) : R := sum m (fun y => P y * ln (P y / S y)).

(** Per-output bound: (b - a) P ln(P/S) <= (b S - P) h(a) + (P - a S) h(b). *)
Lemma kl_term_below_chord m eps P S y :
  is_dist m P -> is_dist m S -> indist m eps P S -> (y < m)%nat ->
  let a := exp (- eps) in let b := exp eps in
  (b - a) * (P y * ln (P y / S y))
    <= (b * S y - P y) * (a * ln a) + (P y - a * S y) * (b * ln b).
Proof.
  intros HP HR Hi Hy a b.
  destruct (Hi y Hy) as [Hup Hlo]. fold b in Hup, Hlo.
  assert (HPy : 0 <= P y) by (apply (proj1 HP); exact Hy).
  assert (HRy : 0 <= S y) by (apply (proj1 HR); exact Hy).
  pose proof (exp_opp_mul eps) as Hab. fold a b in Hab.
  assert (Ha : 0 < a) by apply exp_pos.
  assert (Hb : 0 < b) by apply exp_pos.
  destruct HPy as [HPpos|HP0].
  - assert (Hr : 0 < S y) by nra.
    set (u := P y / S y).
    assert (HPu : P y = u * S y) by (unfold u; field; lra).
    assert (Hub : u <= b).
    { apply (Rmult_le_reg_r (S y)); [exact Hr|]. lra. }
    assert (Hau : a <= u).
    { apply (Rmult_le_reg_r (S y)); [exact Hr|].
      apply (Rmult_le_reg_l b); [exact Hb|].
      replace (b * (a * S y)) with (S y) by (rewrite <- Rmult_assoc, (Rmult_comm b a), Hab; ring).
      rewrite <- HPu. exact Hlo. }
    pose proof (xlnx_below_chord a b u Ha Hau Hub) as Hc.
    apply (Rmult_le_compat_l (S y)) in Hc; [|lra].
    rewrite HPu. nra.
  - rewrite <- HP0 in *.
    assert (S y = 0) by nra.
    replace (S y) with 0. rewrite Rmult_0_l, Rmult_0_r. lra.
Qed.

(** Summed over y: (b - a) D(P || S) <= (b - 1) h(a) + (1 - a) h(b). *)
Lemma kl_below_chord m eps P S :
  is_dist m P -> is_dist m S -> indist m eps P S ->
  let a := exp (- eps) in let b := exp eps in
  (b - a) * kl m P S <= (b - 1) * (a * ln a) + (1 - a) * (b * ln b).
Proof.
  intros HP HR Hi a b.
  unfold kl. rewrite <- sum_scal_l.
  eapply Rle_trans.
  - apply sum_le. intros y Hy. apply (kl_term_below_chord m eps P S y HP HR Hi Hy).
  - right.
    rewrite sum_plus, sum_scal_r, sum_scal_r, sum_minus, sum_minus,
            sum_scal_l, sum_scal_l.
    unfold a, b. rewrite (proj2 HP), (proj2 HR). ring.
Qed.

(** Theorem (relations.kl_tanh): for distributions P, S on 0..m-1 with
    P(y) <= e^eps S(y) and S(y) <= e^eps P(y) for every y, and 0 <= eps,

        D(P || S) = sum_y P(y) ln(P(y)/S(y)) <= eps (e^eps - 1)/(e^eps + 1) = eps tanh(eps/2). *)
Theorem kl_le_eps_tanh (m : nat) (eps : R) (P S : nat -> R) :
  0 <= eps -> is_dist m P -> is_dist m S -> indist m eps P S ->
  kl m P S <= eps * ((exp eps - 1) / (exp eps + 1)).
Proof.
  intros Heps HP HR Hi.
  destruct Heps as [Hpos|Hzero].
  - pose proof (kl_below_chord m eps P S HP HR Hi) as H.
    simpl in H. rewrite chord_at_1 in H.
    assert (Hgap : exp (- eps) < exp eps) by (apply exp_increasing; lra).
    apply Rmult_le_reg_l with (exp eps - exp (- eps)); [lra | exact H].
  - subst eps. rewrite exp_0.
    replace (0 * ((1 - 1) / (1 + 1))) with 0 by field.
    (* eps = 0: P = S, every term is P y ln 1 = 0 *)
    unfold kl. rewrite (sum_ext m _ (fun _ => 0)); [rewrite sum_zero; lra|].
    intros y Hy. destruct (Hi y Hy) as [H1 H2]. rewrite exp_0 in H1, H2.
    replace (S y) with (P y) by lra.
    destruct (Req_dec (P y) 0) as [Z|NZ].
    + rewrite Z. ring.
    + unfold Rdiv. rewrite Rinv_r by exact NZ. rewrite ln_1. ring.
Qed.

(** Corollary (drv2010.kl_dp, Dwork, Rothblum and Vadhan 2010, Lemma III.2):
    D(P || S) <= eps (e^eps - 1). *)
Corollary kl_le_drv (m : nat) (eps : R) (P S : nat -> R) :
  0 <= eps -> is_dist m P -> is_dist m S -> indist m eps P S ->
  kl m P S <= eps * (exp eps - 1).
Proof.
  intros Heps HP HR Hi.
  eapply Rle_trans; [apply (kl_le_eps_tanh m eps P S); assumption|].
  apply Rmult_le_compat_l; [assumption|].
  assert (H1 : 1 <= exp eps).
  { destruct Heps as [Hpos|Hzero].
    - left. rewrite <- exp_0. apply exp_increasing. exact Hpos.
    - subst eps. rewrite exp_0. lra. }
  apply (Rmult_le_reg_r (exp eps + 1)); [lra|].
  unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. nra.
Qed.
