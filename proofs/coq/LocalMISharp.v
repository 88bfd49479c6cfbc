(** * relations.thm11_sharp: eps-local DP implies I(X;Y) <= eps.

    Theorem 11 of the paper, sharpened to factor 1: locally every pair of
    inputs is constrained, so Q(x,y) <= e^eps q(y) and every information
    density ln(Q(x,y)/q(y)) is at most eps. *)

From Coq Require Import Reals Lra Lia.
From Relations Require Import Sums Mechanism.
Open Scope R_scope.

(** One term of the mutual information: p(x) Q(x,y) ln(Q(x,y)/q(y)) <= p(x) Q(x,y) eps. *)
Lemma mi_term_le_eps n m eps p Q x y :
  is_prior n p -> is_channel n m Q -> ldp n m eps Q ->
  (x < n)%nat -> (y < m)%nat ->
  p x * Q x y * ln (Q x y / marginal n p Q y) <= p x * Q x y * eps.
Proof.
  intros Hp HQ Hldp Hx Hy.
  assert (Hpx : 0 <= p x) by (apply (proj1 Hp); exact Hx).
  assert (HQxy : 0 <= Q x y) by (apply (proj1 (HQ x Hx)); exact Hy).
  destruct HQxy as [HQpos|HQ0].
  - pose proof (ldp_entry_le_marginal n m eps p Q x y Hp HQ Hldp Hx Hy) as Hle.
    pose proof (exp_pos eps) as He.
    assert (Hq : 0 < marginal n p Q y) by nra.
    assert (Hratio : Q x y / marginal n p Q y <= exp eps).
    { apply (Rmult_le_reg_r (marginal n p Q y)); [exact Hq|].
      unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
    assert (Hln : ln (Q x y / marginal n p Q y) <= eps).
    { rewrite <- (ln_exp eps). apply ln_le_mono; [|exact Hratio].
      apply Rdiv_lt_0_compat; assumption. }
    apply Rmult_le_compat_l; [nra | exact Hln].
  - rewrite <- HQ0. lra.
Qed.

(** Theorem (relations.thm11_sharp).  For a finite local mechanism with
    inputs x = 0..n-1, prior p (p(x) >= 0, sum_x p(x) = 1), outputs
    y = 0..m-1 and channel Q (Q(x,y) >= 0, sum_y Q(x,y) = 1), if
    0 <= eps and Q(x,y) <= e^eps Q(x',y) for all x, x', y, then

        I(X;Y) = sum_x sum_y p(x) Q(x,y) ln(Q(x,y) / q(y))  <=  eps,

    where q(y) = sum_x p(x) Q(x,y). *)
Theorem local_mi_le_eps (n m : nat) (eps : R) (p : nat -> R) (Q : nat -> nat -> R) :
  0 <= eps ->
  is_prior n p ->
  is_channel n m Q ->
  ldp n m eps Q ->
  mutual_info n m p Q <= eps.
Proof.
  intros Heps Hp HQ Hldp. unfold mutual_info.
  apply Rle_trans with (sum n (fun x => sum m (fun y => p x * Q x y * eps))).
  - apply sum_le. intros x Hx. apply sum_le. intros y Hy.
    apply (mi_term_le_eps n m); assumption.
  - right. transitivity (sum n p * eps); [| rewrite (proj2 Hp); ring].
    rewrite <- (sum_scal_r n eps p). apply sum_ext. intros x Hx.
    rewrite (sum_ext m _ (fun y => (p x * eps) * Q x y)) by (intros; ring).
    rewrite sum_scal_l, (proj2 (HQ x Hx)). ring.
Qed.
