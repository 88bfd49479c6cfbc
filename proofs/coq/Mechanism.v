(** * Finite local mechanisms, local differential privacy and mutual information.

    Inputs are [x = 0 .. n-1] with prior [p x]; outputs are [y = 0 .. m-1];
    the channel is [Q x y] (row [x] is the output distribution on input [x]).
    Everything is over the standard library's real numbers. *)

From Coq Require Import Reals Lra Lia.
From Relations Require Import Sums.
Open Scope R_scope.

(** [p] is a probability distribution on [0 .. n-1]:
    p(x) >= 0 and sum_x p(x) = 1. *)
Definition is_prior (n : nat) (p : nat -> R) : Prop :=
  (forall x, (x < n)%nat -> 0 <= p x) /\ sum n p = 1.

(** Every row of [Q] is a probability distribution on [0 .. m-1]:
    Q(x,y) >= 0 and sum_y Q(x,y) = 1 for every input x. *)
Definition is_channel (n m : nat) (Q : nat -> nat -> R) : Prop :=
  forall x, (x < n)%nat ->
    (forall y, (y < m)%nat -> 0 <= Q x y) /\ sum m (Q x) = 1.

(** eps-local differential privacy: Q(x,y) <= e^eps Q(x',y) for ALL x, x', y. *)
Definition ldp (n m : nat) (eps : R) (Q : nat -> nat -> R) : Prop :=
  forall x x' y, (x < n)%nat -> (x' < n)%nat -> (y < m)%nat ->
    Q x y <= exp eps * Q x' y.

(** Output marginal q(y) = sum_x p(x) Q(x,y). *)
Definition marginal (n : nat) (p : nat -> R) (Q : nat -> nat -> R) (y : nat) : R :=
  sum n (fun x => p x * Q x y).

(** Mutual information
      I = sum_x sum_y p(x) Q(x,y) ln(Q(x,y) / q(y)).
    The convention "terms with p(x) Q(x,y) = 0 are 0" holds automatically,
    because such a term is the product of the factor p(x) Q(x,y) = 0 with
    a real number (whatever value the total functions [ln] and [/] take). *)
Definition mutual_info (n m : nat) (p : nat -> R) (Q : nat -> nat -> R) : R :=
  sum n (fun x => sum m (fun y => p x * Q x y * ln (Q x y / marginal n p Q y))).

(** Posterior p(x | y) = p(x) Q(x,y) / q(y). *)
Definition posterior (n : nat) (p : nat -> R) (Q : nat -> nat -> R) (x y : nat) : R :=
  p x * Q x y / marginal n p Q y.

(** ** Facts about [ln] *)

Lemma ln_le_mono (x y : R) : 0 < x -> x <= y -> ln x <= ln y.
Proof.
  intros Hx [Hlt|<-]; [left; apply ln_increasing; assumption | right; reflexivity].
Qed.

Lemma ln_quot (x y : R) : 0 < x -> 0 < y -> ln (x / y) = ln x - ln y.
Proof.
  intros Hx Hy. unfold Rdiv. rewrite ln_mult by (auto using Rinv_0_lt_compat).
  rewrite ln_Rinv by assumption. ring.
Qed.

(** ln t <= t - 1. *)
Lemma ln_le_sub_1 (t : R) : 0 < t -> ln t <= t - 1.
Proof.
  intro Ht. pose proof (exp_ineq1_le (ln t)) as H. rewrite exp_ln in H by exact Ht. lra.
Qed.

(** ** Basic facts *)

Lemma marginal_nonneg n m p Q y :
  is_prior n p -> is_channel n m Q -> (y < m)%nat -> 0 <= marginal n p Q y.
Proof.
  intros [Hp _] HQ Hy. unfold marginal. apply sum_nonneg. intros x Hx.
  apply Rmult_le_pos; [apply Hp; exact Hx | apply (proj1 (HQ x Hx)); exact Hy].
Qed.

(** sum_y q(y) = 1. *)
Lemma marginal_sum n m p Q :
  is_prior n p -> is_channel n m Q -> sum m (marginal n p Q) = 1.
Proof.
  intros [_ Hp1] HQ. unfold marginal.
  rewrite <- sum_swap.
  rewrite <- Hp1. apply sum_ext. intros x Hx.
  rewrite sum_scal_l. rewrite (proj2 (HQ x Hx)). lra.
Qed.

(** Under eps-LDP, the marginal is within a factor e^eps of every entry of
    its column: Q(x,y) <= e^eps q(y) and q(y) <= e^eps Q(x,y). *)
Lemma ldp_entry_le_marginal n m eps p Q x y :
  is_prior n p -> is_channel n m Q -> ldp n m eps Q ->
  (x < n)%nat -> (y < m)%nat ->
  Q x y <= exp eps * marginal n p Q y.
Proof.
  intros [Hp Hp1] HQ Hldp Hx Hy.
  replace (Q x y) with (sum n (fun x' => p x' * Q x y))
    by (rewrite sum_scal_r, Hp1; ring).
  unfold marginal. rewrite <- sum_scal_l.
  apply sum_le. intros x' Hx'.
  specialize (Hldp x x' y Hx Hx' Hy). specialize (Hp x' Hx').
  nra.
Qed.

Lemma ldp_marginal_le_entry n m eps p Q x y :
  is_prior n p -> is_channel n m Q -> ldp n m eps Q ->
  (x < n)%nat -> (y < m)%nat ->
  marginal n p Q y <= exp eps * Q x y.
Proof.
  intros [Hp Hp1] HQ Hldp Hx Hy.
  replace (exp eps * Q x y) with (sum n (fun x' => p x' * (exp eps * Q x y)))
    by (rewrite sum_scal_r, Hp1; ring).
  unfold marginal.
  apply sum_le. intros x' Hx'.
  specialize (Hldp x' x y Hx' Hx Hy). specialize (Hp x' Hx').
  nra.
Qed.
