(** * Finite sums over [0 .. n-1] of real-valued functions.

    [sum n f] is [f 0 + f 1 + ... + f (n-1)].  Only the standard library's
    real numbers are used. *)

From Coq Require Import Reals Lra Lia.
Open Scope R_scope.

Fixpoint sum (n : nat) (f : nat -> R) : R :=
  match n with
  | O => 0
  | S k => sum k f + f k
  end.

Lemma sum_ext (n : nat) (f g : nat -> R) :
  (forall i, (i < n)%nat -> f i = g i) -> sum n f = sum n g.
Proof.
  induction n as [|n IH]; intro H; simpl; [reflexivity|].
  rewrite IH by (intros i Hi; apply H; lia).
  rewrite (H n) by lia. reflexivity.
Qed.

Lemma sum_le (n : nat) (f g : nat -> R) :
  (forall i, (i < n)%nat -> f i <= g i) -> sum n f <= sum n g.
Proof.
  induction n as [|n IH]; intro H; simpl; [lra|].
  assert (sum n f <= sum n g) by (apply IH; intros i Hi; apply H; lia).
  assert (f n <= g n) by (apply H; lia).
  lra.
Qed.

Lemma sum_nonneg (n : nat) (f : nat -> R) :
  (forall i, (i < n)%nat -> 0 <= f i) -> 0 <= sum n f.
Proof.
  intro H. replace 0 with (sum n (fun _ => 0)).
  - apply sum_le. exact H.
  - induction n as [|n IH]; simpl; [reflexivity|].
    rewrite IH by (intros i Hi; apply H; lia). lra.
Qed.

Lemma sum_zero (n : nat) : sum n (fun _ => 0) = 0.
Proof. induction n as [|n IH]; simpl; [reflexivity|]. rewrite IH. lra. Qed.

Lemma sum_plus (n : nat) (f g : nat -> R) :
  sum n (fun i => f i + g i) = sum n f + sum n g.
Proof. induction n as [|n IH]; simpl; [lra|]. rewrite IH. lra. Qed.

Lemma sum_minus (n : nat) (f g : nat -> R) :
  sum n (fun i => f i - g i) = sum n f - sum n g.
Proof. induction n as [|n IH]; simpl; [lra|]. rewrite IH. lra. Qed.

Lemma sum_scal_l (n : nat) (c : R) (f : nat -> R) :
  sum n (fun i => c * f i) = c * sum n f.
Proof. induction n as [|n IH]; simpl; [lra|]. rewrite IH. lra. Qed.

Lemma sum_scal_r (n : nat) (c : R) (f : nat -> R) :
  sum n (fun i => f i * c) = sum n f * c.
Proof. induction n as [|n IH]; simpl; [lra|]. rewrite IH. lra. Qed.

(** Exchange of a double sum. *)
Lemma sum_swap (n m : nat) (f : nat -> nat -> R) :
  sum n (fun i => sum m (fun j => f i j)) = sum m (fun j => sum n (fun i => f i j)).
Proof.
  induction n as [|n IH]; simpl.
  - symmetry. apply sum_zero.
  - rewrite IH. rewrite <- sum_plus. reflexivity.
Qed.

(** A non-negative summand is at most the whole sum. *)
Lemma sum_term_le (n : nat) (f : nat -> R) (k : nat) :
  (forall i, (i < n)%nat -> 0 <= f i) -> (k < n)%nat -> f k <= sum n f.
Proof.
  induction n as [|n IH]; intros H Hk; [lia|]. simpl.
  destruct (Nat.eq_dec k n) as [->|Hne].
  - assert (0 <= sum n f) by (apply sum_nonneg; intros i Hi; apply H; lia). lra.
  - assert (f k <= sum n f) by (apply IH; [intros i Hi; apply H; lia | lia]).
    assert (0 <= f n) by (apply H; lia). lra.
Qed.
