(** * The local KL/MI bound I(X;Y) <= eps * tanh(eps/2) under eps-LDP.

    Proof: h(u) = u ln u is convex, so on [a, b] = [e^-eps, e^eps] it lies
    below its chord.  Every likelihood ratio u = Q(x,y)/q(y) lies in [a, b],
    so D(Q_x || q) = sum_y q(y) h(u_y) <= chord(sum_y q(y) u_y) = chord(1),
    and chord(1) = eps (e^eps - 1)/(e^eps + 1) = eps tanh(eps/2).
    Averaging over the prior gives the bound on I = sum_x p(x) D(Q_x || q). *)

From Coq Require Import Reals Lra Lia.
From Relations Require Import Sums Mechanism LocalMISharp.
Open Scope R_scope.

(** Tangent-line inequality for h(v) = v ln v at the point u:
    h(v) >= h(u) + (1 + ln u)(v - u), written as v ln v >= v ln u + v - u. *)
Lemma xlnx_tangent (u v : R) :
  0 < u -> 0 < v -> v * ln u + v - u <= v * ln v.
Proof.
  intros Hu Hv.
  pose proof (ln_le_sub_1 (u / v) (Rdiv_lt_0_compat u v Hu Hv)) as H.
  rewrite ln_quot in H by assumption.
  apply (Rmult_le_compat_l v) in H; [|lra].
  replace (v * (u / v - 1)) with (u - v) in H by (field; lra).
  lra.
Qed.

(** Chord lemma: for 0 < a <= u <= b,
    (b - a) h(u) <= (b - u) h(a) + (u - a) h(b), with h(t) = t ln t. *)
Lemma xlnx_below_chord (a b u : R) :
  0 < a -> a <= u -> u <= b ->
  (b - a) * (u * ln u) <= (b - u) * (a * ln a) + (u - a) * (b * ln b).
Proof.
  intros Ha Hau Hub.
  assert (Hu : 0 < u) by lra. assert (Hb : 0 < b) by lra.
  pose proof (xlnx_tangent u a Hu Ha) as Ta.
  pose proof (xlnx_tangent u b Hu Hb) as Tb.
  apply (Rmult_le_compat_l (b - u)) in Ta; [|lra].
  apply (Rmult_le_compat_l (u - a)) in Tb; [|lra].
  lra.
Qed.

(** In what follows a = e^-eps and b = e^eps; they satisfy a b = 1. *)
Lemma exp_opp_mul (eps : R) : exp (- eps) * exp eps = 1.
Proof. rewrite <- exp_plus. replace (- eps + eps) with 0 by ring. apply exp_0. Qed.

(** Per-output bound, for eps-LDP Q, any prior and q = marginal:
      (b - a) Q(x,y) ln(Q(x,y)/q(y)) <= (b q(y) - Q(x,y)) h(a) + (Q(x,y) - a q(y)) h(b). *)
Lemma term_below_chord n m eps p Q x y :
  is_prior n p -> is_channel n m Q -> ldp n m eps Q ->
  (x < n)%nat -> (y < m)%nat ->
  let a := exp (- eps) in let b := exp eps in let q := marginal n p Q in
  (b - a) * (Q x y * ln (Q x y / q y))
    <= (b * q y - Q x y) * (a * ln a) + (Q x y - a * q y) * (b * ln b).
Proof.
  intros Hp HQ Hldp Hx Hy a b q.
  pose proof (ldp_entry_le_marginal n m eps p Q x y Hp HQ Hldp Hx Hy) as Hup.
  pose proof (ldp_marginal_le_entry n m eps p Q x y Hp HQ Hldp Hx Hy) as Hlo.
  pose proof (marginal_nonneg n m p Q y Hp HQ Hy) as Hq0.
  fold q b in Hup, Hlo, Hq0.
  assert (HQxy : 0 <= Q x y) by (apply (proj1 (HQ x Hx)); exact Hy).
  pose proof (exp_opp_mul eps) as Hab. fold a b in Hab.
  assert (Ha : 0 < a) by apply exp_pos.
  assert (Hb : 0 < b) by apply exp_pos.
  destruct HQxy as [HQpos|HQ0].
  - assert (Hq : 0 < q y) by nra.
    set (u := Q x y / q y).
    assert (HQu : Q x y = u * q y) by (unfold u; field; lra).
    assert (Hub : u <= b).
    { apply (Rmult_le_reg_r (q y)); [exact Hq|]. lra. }
    assert (Hau : a <= u).
    { apply (Rmult_le_reg_r (q y)); [exact Hq|].
      apply (Rmult_le_reg_l b); [exact Hb|].
      replace (b * (a * q y)) with (q y) by (rewrite <- Rmult_assoc, (Rmult_comm b a), Hab; ring).
      rewrite <- HQu. exact Hlo. }
    pose proof (xlnx_below_chord a b u Ha Hau Hub) as Hc.
    apply (Rmult_le_compat_l (q y)) in Hc; [|lra].
    rewrite HQu. nra.
  - rewrite <- HQ0 in *.
    assert (q y = 0) by nra.
    replace (q y) with 0. rewrite Rmult_0_l, Rmult_0_r. lra.
Qed.

(** Summed over y: (b - a) D(Q_x || q) <= (b - 1) h(a) + (1 - a) h(b). *)
Lemma divergence_below_chord n m eps p Q x :
  is_prior n p -> is_channel n m Q -> ldp n m eps Q ->
  (x < n)%nat ->
  let a := exp (- eps) in let b := exp eps in let q := marginal n p Q in
  (b - a) * sum m (fun y => Q x y * ln (Q x y / q y))
    <= (b - 1) * (a * ln a) + (1 - a) * (b * ln b).
Proof.
  intros Hp HQ Hldp Hx a b q.
  rewrite <- sum_scal_l.
  eapply Rle_trans.
  - apply sum_le. intros y Hy. apply (term_below_chord n m eps p Q x y Hp HQ Hldp Hx Hy).
  - right.
    rewrite sum_plus, sum_scal_r, sum_scal_r, sum_minus, sum_minus,
            sum_scal_l, sum_scal_l.
    unfold a, b, q. rewrite (marginal_sum n m p Q Hp HQ), (proj2 (HQ x Hx)). ring.
Qed.

(** Averaged over the prior: (b - a) I <= (b - 1) h(a) + (1 - a) h(b). *)
Lemma mi_below_chord n m eps p Q :
  is_prior n p -> is_channel n m Q -> ldp n m eps Q ->
  let a := exp (- eps) in let b := exp eps in
  (b - a) * mutual_info n m p Q <= (b - 1) * (a * ln a) + (1 - a) * (b * ln b).
Proof.
  intros Hp HQ Hldp a b.
  unfold mutual_info. set (q := marginal n p Q).
  set (K := (b - 1) * (a * ln a) + (1 - a) * (b * ln b)).
  rewrite <- sum_scal_l.
  apply Rle_trans with (sum n (fun x => p x * K)).
  - apply sum_le. intros x Hx.
    rewrite (sum_ext m _ (fun y => p x * (Q x y * ln (Q x y / q y)))) by (intros; ring).
    rewrite sum_scal_l.
    replace ((b - a) * (p x * sum m (fun y => Q x y * ln (Q x y / q y))))
      with (p x * ((b - a) * sum m (fun y => Q x y * ln (Q x y / q y)))) by ring.
    apply Rmult_le_compat_l; [apply (proj1 Hp); exact Hx|].
    apply (divergence_below_chord n m eps p Q x Hp HQ Hldp Hx).
  - right. rewrite sum_scal_r, (proj2 Hp). ring.
Qed.

(** chord(1) = eps (e^eps - 1)/(e^eps + 1), written multiplied out by b - a. *)
Lemma chord_at_1 (eps : R) :
  (exp eps - 1) * (exp (- eps) * ln (exp (- eps))) + (1 - exp (- eps)) * (exp eps * ln (exp eps))
  = (exp eps - exp (- eps)) * (eps * ((exp eps - 1) / (exp eps + 1))).
Proof.
  rewrite !ln_exp, exp_Ropp.
  pose proof (exp_pos eps).
  field. lra.
Qed.

(** Theorem (the local KL/MI "tanh" bound).  For a finite local mechanism
    with inputs x = 0..n-1, prior p (p(x) >= 0, sum_x p(x) = 1), outputs
    y = 0..m-1 and channel Q (Q(x,y) >= 0, sum_y Q(x,y) = 1), if 0 <= eps
    and Q(x,y) <= e^eps Q(x',y) for all x, x', y, then

        I(X;Y) = sum_x sum_y p(x) Q(x,y) ln(Q(x,y) / q(y))
               <= eps * (e^eps - 1) / (e^eps + 1)  =  eps * tanh(eps/2),

    where q(y) = sum_x p(x) Q(x,y). *)
Theorem local_mi_le_eps_tanh (n m : nat) (eps : R) (p : nat -> R) (Q : nat -> nat -> R) :
  0 <= eps ->
  is_prior n p ->
  is_channel n m Q ->
  ldp n m eps Q ->
  mutual_info n m p Q <= eps * ((exp eps - 1) / (exp eps + 1)).
Proof.
  intros Heps Hp HQ Hldp.
  destruct Heps as [Hpos|Hzero].
  - pose proof (mi_below_chord n m eps p Q Hp HQ Hldp) as H.
    simpl in H. rewrite chord_at_1 in H.
    assert (Hgap : exp (- eps) < exp eps) by (apply exp_increasing; lra).
    apply Rmult_le_reg_l with (exp eps - exp (- eps)); [lra | exact H].
  - subst eps. rewrite exp_0.
    replace (0 * ((1 - 1) / (1 + 1))) with 0 by field.
    apply (local_mi_le_eps n m 0 p Q); [lra | assumption ..].
Qed.

(** (e^eps - 1)/(e^eps + 1) is indeed tanh(eps/2)
    = (e^(eps/2) - e^(-eps/2)) / (e^(eps/2) + e^(-eps/2)). *)
Lemma tanh_half (eps : R) :
  (exp eps - 1) / (exp eps + 1)
  = (exp (eps / 2) - exp (- (eps / 2))) / (exp (eps / 2) + exp (- (eps / 2))).
Proof.
  replace eps with (eps / 2 + eps / 2) at 1 2 by field.
  rewrite exp_plus, exp_Ropp.
  pose proof (exp_pos (eps / 2)).
  field. split; nra.
Qed.

(** Corollary: the tanh bound also implies I <= eps, since tanh(eps/2) <= 1. *)
Corollary local_mi_le_eps_via_tanh (n m : nat) (eps : R) (p : nat -> R) (Q : nat -> nat -> R) :
  0 <= eps -> is_prior n p -> is_channel n m Q -> ldp n m eps Q ->
  mutual_info n m p Q <= eps.
Proof.
  intros Heps Hp HQ Hldp.
  eapply Rle_trans; [apply (local_mi_le_eps_tanh n m eps p Q); assumption|].
  pose proof (exp_pos eps).
  assert (Ht : (exp eps - 1) / (exp eps + 1) <= 1).
  { apply (Rmult_le_reg_r (exp eps + 1)); [lra|].
    unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
  apply Rle_trans with (eps * 1); [|lra].
  apply Rmult_le_compat_l; assumption.
Qed.

(** Corollary ([drv2010.kl], Dwork, Rothblum and Vadhan 2010, in the form
    I <= eps (e^eps - 1)): the tanh bound implies it, since
    (e^eps - 1)/(e^eps + 1) <= e^eps - 1 when e^eps - 1 >= 0 and e^eps + 1 >= 1.
    [ldp] bounds the ratio over ALL pairs of inputs, so with the inputs being
    datasets this is the central statement with eps = eps_all as well. *)
Corollary mi_le_kl_bound (n m : nat) (eps : R) (p : nat -> R) (Q : nat -> nat -> R) :
  0 <= eps -> is_prior n p -> is_channel n m Q -> ldp n m eps Q ->
  mutual_info n m p Q <= eps * (exp eps - 1).
Proof.
  intros Heps Hp HQ Hldp.
  eapply Rle_trans; [apply (local_mi_le_eps_tanh n m eps p Q); assumption|].
  apply Rmult_le_compat_l; [assumption|].
  assert (H1 : 1 <= exp eps).
  { destruct Heps as [Hpos|Hzero].
    - left. rewrite <- exp_0. apply exp_increasing. exact Hpos.
    - subst eps. rewrite exp_0. lra. }
  apply (Rmult_le_reg_r (exp eps + 1)); [lra|].
  unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra.
  nra.
Qed.
