(** * relations.thm4_corrected: eps_d-local DP implies (eps_d - sigma_min)-local identifiability.

    The paper's Theorem 4 states the bound eps_d + sigma_min; since
    sigma_min = min_{x,x'} ln(p(x)/p(x')) <= 0, the correct sign is
    eps_d - sigma_min.  We prove the corrected bound and, for the record,
    that the published form fails on the paper's own Section 5 example. *)

From Coq Require Import Reals Lra Lia.
From Relations Require Import Sums Mechanism.
Open Scope R_scope.

(** The posterior ratio does not depend on the marginal:
    p(x|y) / p(x'|y) = p(x) Q(x,y) / (p(x') Q(x',y)). *)
Lemma posterior_ratio n m p Q x x' y :
  (forall z, (z < n)%nat -> 0 < p z) -> is_channel n m Q ->
  (x < n)%nat -> (x' < n)%nat -> (y < m)%nat -> 0 < Q x y -> 0 < Q x' y ->
  posterior n p Q x y / posterior n p Q x' y = (p x / p x') * (Q x y / Q x' y).
Proof.
  intros Hp HQ Hx Hx' Hy HQx HQx'.
  assert (Hq : p x * Q x y <= marginal n p Q y).
  { unfold marginal. apply (sum_term_le n (fun z => p z * Q z y)); [|exact Hx].
    intros z Hz. apply Rmult_le_pos; [apply Rlt_le, Hp; exact Hz|].
    apply (proj1 (HQ z Hz)). exact Hy. }
  pose proof (Hp x Hx). pose proof (Hp x' Hx').
  assert (0 < p x * Q x y) by (apply Rmult_lt_0_compat; assumption).
  unfold posterior. field. repeat split; lra.
Qed.

(** Theorem (relations.thm4_corrected).  For a finite local mechanism with
    inputs x = 0..n-1, prior p with p(x) > 0, outputs y = 0..m-1 and channel
    Q (Q(x,y) >= 0, sum_y Q(x,y) = 1): if Q(x,y) <= e^eps_d Q(x',y) for all
    x, x', y (eps_d-LDP) and ln(p(x)/p(x')) <= -sigma for all x, x'
    (e.g. sigma = sigma_min = min_{x,x'} ln(p(x)/p(x')) <= 0), then for all
    x, x', y with Q(x,y) > 0 and Q(x',y) > 0 the posteriors
    p(x|y) = p(x) Q(x,y) / q(y), q(y) = sum_x p(x) Q(x,y), satisfy

        ln( p(x|y) / p(x'|y) )  <=  eps_d - sigma. *)
Theorem local_identifiability_corrected
    (n m : nat) (eps_d sigma : R) (p : nat -> R) (Q : nat -> nat -> R) :
  (forall x, (x < n)%nat -> 0 < p x) ->
  is_channel n m Q ->
  ldp n m eps_d Q ->
  (forall x x', (x < n)%nat -> (x' < n)%nat -> ln (p x / p x') <= - sigma) ->
  forall x x' y, (x < n)%nat -> (x' < n)%nat -> (y < m)%nat ->
    0 < Q x y -> 0 < Q x' y ->
    ln (posterior n p Q x y / posterior n p Q x' y) <= eps_d - sigma.
Proof.
  intros Hp HQ Hldp Hsigma x x' y Hx Hx' Hy HQx HQx'.
  rewrite (posterior_ratio n m p Q x x' y Hp HQ Hx Hx' Hy HQx HQx').
  pose proof (Hp x Hx). pose proof (Hp x' Hx').
  rewrite ln_mult by (apply Rdiv_lt_0_compat; assumption).
  assert (HQr : ln (Q x y / Q x' y) <= eps_d).
  { rewrite <- (ln_exp eps_d). apply ln_le_mono; [apply Rdiv_lt_0_compat; assumption|].
    apply (Rmult_le_reg_r (Q x' y)); [exact HQx'|].
    unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra.
    rewrite Rmult_1_r. apply Hldp; assumption. }
  pose proof (Hsigma x x' Hx Hx'). lra.
Qed.

(** ** The published form eps_d + sigma_min is not a valid bound *)

(** The paper's Section 5 example: prior (19/20, 1/20) and channel rows
    (13/20, 7/20), (7/20, 13/20). *)
Definition ex_p (x : nat) : R :=
  match x with O => 19/20 | _ => 1/20 end.

Definition ex_Q (x y : nat) : R :=
  match x, y with
  | O, O => 13/20
  | O, _ => 7/20
  | _, O => 7/20
  | _, _ => 13/20
  end.

Definition ex_eps_d : R := ln (13/7).
Definition ex_sigma : R := ln (1/19).

Lemma ln_19_pos : 0 < ln 19.
Proof. rewrite <- ln_1. apply ln_increasing; lra. Qed.

Lemma ex_sigma_eq : ex_sigma = - ln 19.
Proof.
  unfold ex_sigma. replace (1/19) with (/ 19) by field. apply ln_Rinv. lra.
Qed.

Lemma ex_prior_pos : forall x, (x < 2)%nat -> 0 < ex_p x.
Proof. intros [|[|x]] Hx; simpl; lra || lia. Qed.

Lemma ex_prior : is_prior 2 ex_p.
Proof. split; [intros x Hx; apply Rlt_le, ex_prior_pos, Hx | simpl; lra]. Qed.

Lemma ex_channel : is_channel 2 2 ex_Q.
Proof.
  intros [|[|x]] Hx; [| |lia]; (split; [intros [|[|y]] Hy; simpl; lra || lia | simpl; lra]).
Qed.

(** The example is exactly ln(13/7)-LDP: the constraint holds and is tight. *)
Lemma ex_ldp : ldp 2 2 ex_eps_d ex_Q.
Proof.
  unfold ldp, ex_eps_d. rewrite exp_ln by lra.
  intros [|[|x]] [|[|x']] [|[|y]] Hx Hx' Hy; simpl; lra || lia.
Qed.

Lemma ex_ldp_tight : ex_Q 0 0 = exp ex_eps_d * ex_Q 1 0.
Proof. unfold ex_eps_d. rewrite exp_ln by lra. simpl. field. Qed.

(** sigma = ln(1/19) satisfies the hypothesis and is exactly sigma_min:
    every log prior ratio is <= -sigma, and ln(p(1)/p(0)) = sigma. *)
Lemma ex_sigma_bound :
  forall x x', (x < 2)%nat -> (x' < 2)%nat -> ln (ex_p x / ex_p x') <= - ex_sigma.
Proof.
  rewrite ex_sigma_eq. pose proof ln_19_pos.
  intros [|[|x]] [|[|x']] Hx Hx'; try lia; simpl.
  - replace (19/20/(19/20)) with 1 by field. rewrite ln_1. lra.
  - replace (19/20/(1/20)) with 19 by field. lra.
  - replace (1/20/(19/20)) with (/ 19) by field. rewrite ln_Rinv by lra. lra.
  - replace (1/20/(1/20)) with 1 by field. rewrite ln_1. lra.
Qed.

Lemma ex_sigma_min : ln (ex_p 1 / ex_p 0) = ex_sigma.
Proof. unfold ex_sigma. simpl. f_equal. field. Qed.

(** The posterior log-ratio at x = 0, x' = 1, y = 0 is ln(247/7) ... *)
Lemma ex_posterior_ratio :
  ln (posterior 2 ex_p ex_Q 0 0 / posterior 2 ex_p ex_Q 1 0) = ln (247 / 7).
Proof.
  f_equal. unfold posterior, marginal. simpl. field; lra.
Qed.

(** ... which exceeds eps_d + sigma_min = ln(13/7) + ln(1/19) = ln(13/133). *)
Lemma ex_exceeds_paper_bound :
  ex_eps_d + ex_sigma < ln (posterior 2 ex_p ex_Q 0 0 / posterior 2 ex_p ex_Q 1 0).
Proof.
  rewrite ex_posterior_ratio. unfold ex_eps_d, ex_sigma.
  rewrite <- ln_mult by lra.
  apply ln_increasing; lra.
Qed.

(** Theorem (the published zheng2025.thm4 form is false).  It is NOT the case
    that for every finite local mechanism with positive prior, every eps_d
    for which it is eps_d-LDP and sigma = sigma_min (every log prior ratio is
    <= -sigma, with equality attained), every x, x', y with Q(x,y) > 0 and
    Q(x',y) > 0 satisfy ln( p(x|y) / p(x'|y) ) <= eps_d + sigma. *)
Theorem paper_thm4_form_invalid :
  ~ (forall (n m : nat) (eps_d sigma : R) (p : nat -> R) (Q : nat -> nat -> R),
       (forall x, (x < n)%nat -> 0 < p x) ->
       is_prior n p ->
       is_channel n m Q ->
       ldp n m eps_d Q ->
       (forall x x', (x < n)%nat -> (x' < n)%nat -> ln (p x / p x') <= - sigma) ->
       (exists x x', (x < n)%nat /\ (x' < n)%nat /\ ln (p x / p x') = sigma) ->
       forall x x' y, (x < n)%nat -> (x' < n)%nat -> (y < m)%nat ->
         0 < Q x y -> 0 < Q x' y ->
         ln (posterior n p Q x y / posterior n p Q x' y) <= eps_d + sigma).
Proof.
  intro H.
  assert (Hle := H 2%nat 2%nat ex_eps_d ex_sigma ex_p ex_Q
                   ex_prior_pos ex_prior ex_channel ex_ldp ex_sigma_bound).
  assert (Hatt : exists x x', (x < 2)%nat /\ (x' < 2)%nat /\ ln (ex_p x / ex_p x') = ex_sigma)
    by (exists 1%nat, 0%nat; repeat split; [lia | lia | apply ex_sigma_min]).
  specialize (Hle Hatt 0%nat 1%nat 0%nat).
  assert (Hc := ex_exceeds_paper_bound).
  assert (ln (posterior 2 ex_p ex_Q 0 0 / posterior 2 ex_p ex_Q 1 0) <= ex_eps_d + ex_sigma)
    by (apply Hle; [lia | lia | lia | simpl; lra | simpl; lra]).
  lra.
Qed.
