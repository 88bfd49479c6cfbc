(** * What the budgets of Budgets.v mean: characterisations used by every proof.

    Each ratio budget is at most [e] exactly when every ratio it ranges over is
    at most [e^e] (zero cases included), and it is [>= 0] and never [-inf].
    The diameter bounds path lengths; a connected graph is "charged" by any
    prior. *)

From Coq Require Import Reals Lra Lia List Bool Arith.
From Relations Require Import Sums Mechanism KLPair Budgets.
Import ListNotations.
Open Scope R_scope.

(** ** Extended reals and extended ratios: orders and generic maxima *)

(** [ele] is transitive. *)
Lemma ele_trans a b c : ele a b -> ele b c -> ele a c.
Proof. destruct a, b, c; simpl; intros; auto; try lra; contradiction. Qed.

(** [ele] is reflexive. *)
Lemma ele_refl a : ele a a.
Proof. destruct a; simpl; auto; lra. Qed.

(** Every value is below [+inf]. *)
Lemma ele_pinf a : ele a PInf.
Proof. destruct a; simpl; auto. Qed.

(** [X <= B] for an extended ratio and a real bound ([+inf] is never below). *)
Definition xle_fin (X : XR) (B : R) : Prop :=
  match X with XFin r => r <= B | XInf => False end.

(** A term of a maximum is below [B]: a skipped term always is. *)
Definition xbelow (B : R) (o : option XR) : Prop :=
  match o with None => True | Some X => xle_fin X B end.

(** The order of extended ratios. *)
Definition xle (a b : XR) : Prop :=
  match a, b with
  | _, XInf => True
  | XFin x, XFin y => x <= y
  | XInf, XFin _ => False
  end.

(** Every maximum starts at the ratio [1], so it is at least [1]. *)
Definition xge1 (X : XR) : Prop := match X with XFin r => 1 <= r | XInf => True end.

(** [xle] is transitive. *)
Lemma xle_trans a b c : xle a b -> xle b c -> xle a c.
Proof. destruct a, b, c; simpl; intros; auto; try lra; contradiction. Qed.

(** The two arguments of [xmax] are below it. *)
Lemma xle_xmax_l a b : xle a (xmax a b).
Proof. destruct a, b; simpl; auto. apply Rmax_l. Qed.

Lemma xle_xmax_r a b : xle b (xmax a b).
Proof. destruct a, b; simpl; auto. apply Rmax_r. Qed.

(** Adding a term to a maximum does not lower it. *)
Lemma xle_xacc a o : xle a (xacc a o).
Proof. destruct o as [v|]; simpl; [apply xle_xmax_l | destruct a; simpl; auto; lra]. Qed.

(** [xmax] is below [B] iff both arguments are. *)
Lemma xmax_le a b B : xle_fin (xmax a b) B <-> xle_fin a B /\ xle_fin b B.
Proof.
  destruct a, b; simpl; try tauto.
  split; [intro H; split; eapply Rle_trans; [apply Rmax_l | exact H | apply Rmax_r | exact H]
         | intros [H1 H2]; apply Rmax_lub; assumption].
Qed.

(** [xacc] is below [B] iff the accumulator and the new term are. *)
Lemma xacc_le a o B : xle_fin (xacc a o) B <-> xle_fin a B /\ xbelow B o.
Proof. destruct o as [v|]; simpl; [apply xmax_le | tauto]. Qed.

(** A maximum of ratios is at least [1]. *)
Lemma xmax_upto_ge1 n f : xge1 (xmax_upto n f).
Proof.
  induction n as [|n IH]; simpl; [lra|].
  destruct (f n) as [v|]; simpl; auto.
  destruct (xmax_upto n f), v; simpl in *; auto.
  eapply Rle_trans; [exact IH | apply Rmax_l].
Qed.

(** A maximum is below [B >= 1] iff every term is. *)
Lemma xmax_upto_le n f B :
  1 <= B -> (xle_fin (xmax_upto n f) B <-> forall i, (i < n)%nat -> xbelow B (f i)).
Proof.
  intro HB. induction n as [|n IH]; simpl.
  - split; [intros _ i Hi; lia | intros _; exact HB].
  - rewrite xacc_le, IH. split.
    + intros [H1 H2] i Hi. destruct (Nat.eq_dec i n) as [->|Hne]; [exact H2|].
      apply H1; lia.
    + intro H. split; [intros i Hi; apply H; lia | apply H; lia].
Qed.

(** Every term of a maximum is below it. *)
Lemma xmax_upto_term n f i v : (i < n)%nat -> f i = Some v -> xle v (xmax_upto n f).
Proof.
  induction n as [|n IH]; intros Hi Hf; [lia|]. simpl.
  destruct (Nat.eq_dec i n) as [->|Hne].
  - rewrite Hf. apply xle_xmax_r.
  - eapply xle_trans; [apply IH; [lia | exact Hf] | apply xle_xacc].
Qed.

(** A term [+inf] makes the maximum [+inf]. *)
Lemma xmax_upto_inf n f i : (i < n)%nat -> f i = Some XInf -> xmax_upto n f = XInf.
Proof.
  intros Hi Hf. pose proof (xmax_upto_term n f i XInf Hi Hf) as H.
  destruct (xmax_upto n f); simpl in H; [contradiction | reflexivity].
Qed.

(** A maximum over neighbour pairs is at least [1]. *)
Lemma pair_max_ge1 nb n f : xge1 (pair_max nb n f).
Proof. apply xmax_upto_ge1. Qed.

(** A maximum over neighbour pairs is below [B >= 1] iff every neighbour pair's term is. *)
Lemma pair_max_le nb n f B :
  1 <= B ->
  (xle_fin (pair_max nb n f) B <->
   forall x x', (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> xbelow B (f x x')).
Proof.
  intro HB. unfold pair_max. rewrite xmax_upto_le by exact HB. split.
  - intros H x x' Hx Hx' Hnb. specialize (H x Hx). simpl in H.
    rewrite xmax_upto_le in H by exact HB. specialize (H x' Hx'). rewrite Hnb in H. exact H.
  - intros H x Hx. simpl. rewrite xmax_upto_le by exact HB. intros x' Hx'.
    destruct (nb x x') eqn:Hnb; simpl; [apply H; assumption | exact I].
Qed.

(** Every neighbour pair's term is below the maximum over neighbour pairs. *)
Lemma pair_max_term nb n f x x' v :
  (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> f x x' = Some v -> xle v (pair_max nb n f).
Proof.
  intros Hx Hx' Hnb Hf. unfold pair_max.
  eapply xle_trans; [|apply (xmax_upto_term n _ x _ Hx eq_refl)].
  apply (xmax_upto_term n _ x'); [exact Hx'|]. rewrite Hnb. exact Hf.
Qed.

(** [e^e >= 1] for [e >= 0]. *)
Lemma exp_ge1 e : 0 <= e -> 1 <= exp e.
Proof. intro He. pose proof (exp_ineq1_le e). lra. Qed.

(** [exp] is monotone. *)
Lemma exp_le_mono a b : a <= b -> exp a <= exp b.
Proof. intros [H| ->]; [left; apply exp_increasing; exact H | right; reflexivity]. Qed.

(** [ln r <= e] iff [r <= e^e], for [r > 0]. *)
Lemma ln_le_iff r e : 0 < r -> (ln r <= e <-> r <= exp e).
Proof.
  intro Hr. split; intro H.
  - rewrite <- (exp_ln r) by exact Hr. apply exp_le_mono. exact H.
  - rewrite <- (ln_exp e). apply ln_le_mono; assumption.
Qed.

(** The logarithm of a maximum of ratios is below [e] iff the maximum is below [e^e]. *)
Lemma eln_le_fin X e : xge1 X -> (ele (eln X) (Fin e) <-> xle_fin X (exp e)).
Proof.
  destruct X as [r|]; simpl; [|tauto]. intro Hr.
  destruct (Rlt_dec 0 r) as [Hpos|Hneg]; [|lra]. simpl. apply ln_le_iff. exact Hpos.
Qed.

(** The logarithm of a maximum of ratios is [+inf] or a finite [e >= 0]. *)
Lemma eln_cases X : xge1 X -> eln X = PInf \/ exists e, 0 <= e /\ eln X = Fin e.
Proof.
  destruct X as [r|]; simpl; [|auto]. intro Hr.
  destruct (Rlt_dec 0 r) as [Hpos|Hneg]; [|lra].
  right. exists (ln r). split; [|reflexivity].
  rewrite <- ln_1. apply ln_le_mono; lra.
Qed.

(** [eln] is monotone. *)
Lemma eln_mono a b : xle a b -> ele (eln a) (eln b).
Proof.
  destruct a as [x|], b as [y|]; simpl; intro H; try contradiction.
  - destruct (Rlt_dec 0 x), (Rlt_dec 0 y); simpl; auto; try lra. apply ln_le_mono; assumption.
  - destruct (Rlt_dec 0 x); simpl; auto.
  - auto.
Qed.

(** A ratio of non-negative numbers is below [B > 0] iff [a <= B b] (zero cases included). *)
Lemma ratio_below a b B : 0 <= a -> 0 <= b -> 0 < B -> (xbelow B (ratio a b) <-> a <= B * b).
Proof.
  intros Ha Hb HB. unfold ratio.
  destruct (Req_EM_T b 0) as [Hb0|Hb0].
  - subst b. destruct (Req_EM_T a 0) as [Ha0|Ha0]; simpl; [split; intros; lra|].
    split; [contradiction | intro; lra].
  - simpl. assert (Hbp : 0 < b) by lra. split; intro H.
    + replace a with (a / b * b) by (field; lra). apply Rmult_le_compat_r; lra.
    + apply (Rmult_le_reg_r b); [lra|]. replace (a / b * b) with a by (field; lra). exact H.
Qed.

(** [a/0] with [a <> 0] is [+inf]. *)
Lemma ratio_inf a b : b = 0 -> a <> 0 -> ratio a b = Some XInf.
Proof.
  intros Hb Ha. unfold ratio. destruct (Req_EM_T b 0); [|contradiction].
  destruct (Req_EM_T a 0); [contradiction | reflexivity].
Qed.

(** [a/b] with [b <> 0] is the real quotient. *)
Lemma ratio_fin a b : b <> 0 -> ratio a b = Some (XFin (a / b)).
Proof. intro Hb. unfold ratio. destruct (Req_EM_T b 0); [contradiction | reflexivity]. Qed.

(** [eln] of a positive real ratio is its logarithm. *)
Lemma eln_pos r : 0 < r -> eln (XFin r) = Fin (ln r).
Proof. intro Hr. simpl. destruct (Rlt_dec 0 r); [reflexivity | lra]. Qed.

(** ** The one argument behind the ratio budgets

    [eps_d], [eps_i] and [neg_sigma] are each [eln (pair_max nb n f)], the
    logarithm of the largest term [f x x'] over neighbour pairs (each term a
    ratio, or a maximum of ratios over the outputs).  What such a budget is
    -- below [e] iff every neighbour pair's term is below [e^e], [+inf] with
    an infinite term, above the logarithm of each finite one -- is proved
    here once; the lemmas of each budget below instantiate it. *)

Lemma pair_max_eln_le nb n f e :
  0 <= e ->
  (ele (eln (pair_max nb n f)) (Fin e) <->
   forall x x', (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> xbelow (exp e) (f x x')).
Proof. intro He. rewrite eln_le_fin by apply pair_max_ge1. apply pair_max_le, exp_ge1, He. Qed.

Lemma pair_max_eln_pinf nb n f x x' :
  (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> f x x' = Some XInf -> eln (pair_max nb n f) = PInf.
Proof.
  intros Hx Hx' Hnb Hf. unfold pair_max.
  rewrite (xmax_upto_inf n _ x); [reflexivity | exact Hx|]. cbv beta. f_equal.
  apply (xmax_upto_inf n _ x' Hx'). rewrite Hnb. exact Hf.
Qed.

Lemma pair_max_eln_ge nb n f x x' X r :
  (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> f x x' = Some X -> xle (XFin r) X -> 0 < r ->
  ele (Fin (ln r)) (eln (pair_max nb n f)).
Proof.
  intros Hx Hx' Hnb Hf Hle Hr. rewrite <- eln_pos by exact Hr. apply eln_mono.
  eapply xle_trans; [exact Hle | apply (pair_max_term nb n f x x' X Hx Hx' Hnb Hf)].
Qed.

(** A neighbour pair's term of [eps_d] or [eps_i], a maximum of ratios
    [a y / b y] of non-negative numbers over the outputs, is below [B >= 1]
    iff every [a y <= B b y]. *)
Lemma ratios_below m (a b : nat -> R) B :
  (forall y, (y < m)%nat -> 0 <= a y /\ 0 <= b y) -> 1 <= B ->
  (xbelow B (Some (xmax_upto m (fun y => ratio (a y) (b y)))) <->
   forall y, (y < m)%nat -> a y <= B * b y).
Proof.
  intros Hab HB. simpl. rewrite xmax_upto_le by exact HB.
  split; intros H y Hy; specialize (H y Hy); destruct (Hab y Hy); cbv beta in *;
    [rewrite ratio_below in H | rewrite ratio_below]; solve [assumption | lra].
Qed.

(** ** Ratio budgets *)

Lemma eps_d_le_iff nb n m Q e :
  is_channel n m Q -> 0 <= e ->
  ele (eps_d nb n m Q) (Fin e) <->
  (forall x x' y, (x < n)%nat -> (x' < n)%nat -> (y < m)%nat -> nb x x' = true ->
     Q x y <= exp e * Q x' y).
Proof.
  intros HQ He. unfold eps_d, dp_ratio. rewrite pair_max_eln_le by exact He.
  assert (Hab : forall x x', (x < n)%nat -> (x' < n)%nat ->
            forall y, (y < m)%nat -> 0 <= Q x y /\ 0 <= Q x' y)
    by (intros; split; apply HQ; assumption).
  split; intros H x x'; [intros y Hx Hx' Hy Hnb | intros Hx Hx' Hnb].
  - exact (proj1 (ratios_below m _ _ _ (Hab x x' Hx Hx') (exp_ge1 e He)) (H x x' Hx Hx' Hnb) y Hy).
  - apply (proj2 (ratios_below m _ _ _ (Hab x x' Hx Hx') (exp_ge1 e He))). intros y Hy. apply H; assumption.
Qed.

Lemma eps_i_le_iff nb n m p Q e :
  is_prior n p -> is_channel n m Q -> 0 <= e ->
  ele (eps_i nb n m p Q) (Fin e) <->
  (forall x x' y, (x < n)%nat -> (x' < n)%nat -> (y < m)%nat -> nb x x' = true ->
     p x * Q x y <= exp e * (p x' * Q x' y)).
Proof.
  intros Hp HQ He. unfold eps_i, id_ratio. rewrite pair_max_eln_le by exact He.
  assert (Hab : forall x x', (x < n)%nat -> (x' < n)%nat ->
            forall y, (y < m)%nat -> 0 <= p x * Q x y /\ 0 <= p x' * Q x' y)
    by (intros; split; apply Rmult_le_pos; solve [apply Hp; assumption | apply HQ; assumption]).
  split; intros H x x'; [intros y Hx Hx' Hy Hnb | intros Hx Hx' Hnb].
  - exact (proj1 (ratios_below m _ _ _ (Hab x x' Hx Hx') (exp_ge1 e He)) (H x x' Hx Hx' Hnb) y Hy).
  - apply (proj2 (ratios_below m _ _ _ (Hab x x' Hx Hx') (exp_ge1 e He))). intros y Hy. apply H; assumption.
Qed.

Lemma neg_sigma_le_iff nb n p e :
  is_prior n p -> 0 <= e ->
  ele (neg_sigma nb n p) (Fin e) <->
  (forall x x', (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> p x <= exp e * p x').
Proof.
  intros Hp He. unfold neg_sigma, prior_ratio. rewrite pair_max_eln_le by exact He.
  pose proof (exp_pos e) as Hpos. split; intros H x x' Hx Hx' Hnb; specialize (H x x' Hx Hx' Hnb); cbv beta in *;
    [rewrite ratio_below in H | rewrite ratio_below]; solve [assumption | apply Hp; assumption].
Qed.

Lemma eps_d_cases nb n m Q :
  eps_d nb n m Q = PInf \/ exists e, 0 <= e /\ eps_d nb n m Q = Fin e.
Proof. apply eln_cases, pair_max_ge1. Qed.

Lemma eps_i_cases nb n m p Q :
  eps_i nb n m p Q = PInf \/ exists e, 0 <= e /\ eps_i nb n m p Q = Fin e.
Proof. apply eln_cases, pair_max_ge1. Qed.

Lemma neg_sigma_cases nb n p :
  neg_sigma nb n p = PInf \/ exists e, 0 <= e /\ neg_sigma nb n p = Fin e.
Proof. apply eln_cases, pair_max_ge1. Qed.

(** [eps_d = +inf] when a neighbour pair has [Q(x,y) <> 0 = Q(x',y)]. *)
Lemma eps_d_pinf nb n m Q x x' y :
  (x < n)%nat -> (x' < n)%nat -> (y < m)%nat -> nb x x' = true ->
  Q x' y = 0 -> Q x y <> 0 -> eps_d nb n m Q = PInf.
Proof.
  intros Hx Hx' Hy Hnb H0 H1. apply (pair_max_eln_pinf nb n _ x x' Hx Hx' Hnb). f_equal.
  apply (xmax_upto_inf m _ y Hy). apply ratio_inf; assumption.
Qed.

(** [ln(Q(x,y)/Q(x',y)) <= eps_d] for a neighbour pair with both entries positive. *)
Lemma le_eps_d nb n m Q x x' y :
  (x < n)%nat -> (x' < n)%nat -> (y < m)%nat -> nb x x' = true ->
  0 < Q x y -> 0 < Q x' y -> ele (Fin (ln (Q x y / Q x' y))) (eps_d nb n m Q).
Proof.
  intros Hx Hx' Hy Hnb H1 H2.
  apply (pair_max_eln_ge nb n _ x x' _ _ Hx Hx' Hnb eq_refl); [|apply Rdiv_lt_0_compat; assumption].
  apply (xmax_upto_term m _ y); [exact Hy|]. apply ratio_fin. lra.
Qed.

(** [eps_i = +inf] when a neighbour pair has [p(x)Q(x,y) <> 0 = p(x')Q(x',y)]. *)
Lemma eps_i_pinf nb n m p Q x x' y :
  (x < n)%nat -> (x' < n)%nat -> (y < m)%nat -> nb x x' = true ->
  p x' * Q x' y = 0 -> p x * Q x y <> 0 -> eps_i nb n m p Q = PInf.
Proof.
  intros Hx Hx' Hy Hnb H0 H1. apply (pair_max_eln_pinf nb n _ x x' Hx Hx' Hnb). f_equal.
  apply (xmax_upto_inf m _ y Hy). apply ratio_inf; assumption.
Qed.

(** [ln(p(x)Q(x,y) / (p(x')Q(x',y))) <= eps_i] for a neighbour pair with both products positive. *)
Lemma le_eps_i nb n m p Q x x' y :
  (x < n)%nat -> (x' < n)%nat -> (y < m)%nat -> nb x x' = true ->
  0 < p x * Q x y -> 0 < p x' * Q x' y ->
  ele (Fin (ln (p x * Q x y / (p x' * Q x' y)))) (eps_i nb n m p Q).
Proof.
  intros Hx Hx' Hy Hnb H1 H2.
  apply (pair_max_eln_ge nb n _ x x' _ _ Hx Hx' Hnb eq_refl); [|apply Rdiv_lt_0_compat; assumption].
  apply (xmax_upto_term m _ y); [exact Hy|]. apply ratio_fin. lra.
Qed.

(** [-sigma_min = +inf] when a neighbour pair has [p(x) <> 0 = p(x')]. *)
Lemma neg_sigma_pinf nb n p x x' :
  (x < n)%nat -> (x' < n)%nat -> nb x x' = true ->
  p x' = 0 -> p x <> 0 -> neg_sigma nb n p = PInf.
Proof. intros Hx Hx' Hnb H0 H1. apply (pair_max_eln_pinf nb n _ x x' Hx Hx' Hnb), ratio_inf; assumption. Qed.

(** [ln(p(x)/p(x')) <= -sigma_min] for a neighbour pair of positive priors. *)
Lemma le_neg_sigma nb n p x x' :
  (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> 0 < p x -> 0 < p x' ->
  ele (Fin (ln (p x / p x'))) (neg_sigma nb n p).
Proof.
  intros Hx Hx' Hnb H1 H2.
  apply (pair_max_eln_ge nb n _ x x' (XFin (p x / p x')) _ Hx Hx' Hnb); [apply ratio_fin; lra | simpl; lra
                                                                      | apply Rdiv_lt_0_compat; assumption].
Qed.

(** ** Maxima of extended reals ([kl_max]) *)

(** [emax] is below [b] iff both arguments are. *)
Lemma emax_le a a' b : ele (emax a a') b <-> ele a b /\ ele a' b.
Proof. destruct a, a', b; simpl; try tauto; try (split; [intros; split; auto | tauto]).
  split; [intro H; split; eapply Rle_trans; [apply Rmax_l | exact H | apply Rmax_r | exact H]
         | intros [H1 H2]; apply Rmax_lub; assumption].
Qed.

(** [emax_upto n f] is below [b] iff [0] and every term are. *)
Lemma emax_upto_le n f b :
  ele (emax_upto n f) b <-> ele (Fin 0) b /\ forall i, (i < n)%nat -> ele (f i) b.
Proof.
  induction n as [|n IH]; simpl.
  - split; [intro H; split; [exact H | intros; lia] | tauto].
  - rewrite emax_le, IH. split.
    + intros [[H0 H1] H2]. split; [exact H0|]. intros i Hi.
      destruct (Nat.eq_dec i n) as [->|Hne]; [exact H2 | apply H1; lia].
    + intros [H0 H]. split; [split; [exact H0 | intros i Hi; apply H; lia] | apply H; lia].
Qed.

(** Every term of [emax_upto] is below it, and so is [0]. *)
Lemma emax_upto_term n f i : (i < n)%nat -> ele (f i) (emax_upto n f).
Proof.
  intro Hi. pose proof (proj1 (emax_upto_le n f (emax_upto n f)) (ele_refl _)) as [_ H].
  apply H, Hi.
Qed.

Lemma emax_upto_ge0 n f : ele (Fin 0) (emax_upto n f).
Proof. apply (proj1 (emax_upto_le n f (emax_upto n f)) (ele_refl _)). Qed.

(** ** Paths *)

(** A path of [0] steps. *)
Lemma reach_refl nb n d x : reach nb n d x x = true.
Proof. induction d as [|d IH]; simpl; [apply Nat.eqb_refl | rewrite IH; reflexivity]. Qed.

(** A path of at most [d] steps has at most [S d]. *)
Lemma reach_S nb n d x z : reach nb n d x z = true -> reach nb n (S d) x z = true.
Proof. intro H. simpl. rewrite H. reflexivity. Qed.

(** [reach] is monotone in the step bound. *)
Lemma reach_mono nb n d d' x z : (d <= d')%nat -> reach nb n d x z = true -> reach nb n d' x z = true.
Proof. intros Hle H. induction Hle; [exact H | apply reach_S; assumption]. Qed.

(** One step to a neighbour [w < n], then a path. *)
Lemma reach_step nb n d x w z :
  nb x w = true -> (w < n)%nat -> reach nb n d w z = true -> reach nb n (S d) x z = true.
Proof.
  intros Hnb Hw H. simpl. apply orb_true_intro. right.
  apply existsb_exists. exists w. split; [apply in_seq; lia | rewrite Hnb, H; reflexivity].
Qed.

(** A path of at most [d] steps: [d = 0] and [x = z], or a first step to a neighbour [w < n]. *)
Lemma reach_inv nb n d x z :
  reach nb n d x z = true ->
  x = z \/ exists d' w, d = S d' /\ nb x w = true /\ (w < n)%nat /\ reach nb n d' w z = true.
Proof.
  induction d as [|d IH]; simpl; intro H.
  - left. apply Nat.eqb_eq, H.
  - apply orb_true_iff in H. destruct H as [H|H].
    + destruct (IH H) as [->|[d' [w [-> [H1 [H2 H3]]]]]]; [left; reflexivity|].
      right. exists (S d'), w. repeat split; auto. apply reach_S, H3.
    + apply existsb_exists in H. destruct H as [w [Hin Hw]].
      apply andb_true_iff in Hw. apply in_seq in Hin.
      right. exists d, w. repeat split; tauto || lia.
Qed.

(** Paths compose, and their step bounds add. *)
Lemma reach_trans nb n d1 d2 x y z :
  reach nb n d1 x y = true -> reach nb n d2 y z = true -> reach nb n (d1 + d2) x z = true.
Proof.
  revert x. induction d1 as [|d1 IH]; intros x H1 H2.
  - simpl in H1. apply Nat.eqb_eq in H1. subst. exact H2.
  - destruct (reach_inv nb n (S d1) x y H1) as [->|[d' [w [Hd [Hnb [Hw H]]]]]].
    + eapply reach_mono; [|exact H2]. lia.
    + injection Hd as <-. simpl. apply (reach_step nb n _ x w); auto.
Qed.

(** A path followed by one more step to a neighbour [z < n]. *)
Lemma reach_snoc nb n d x y z :
  reach nb n d x y = true -> nb y z = true -> (z < n)%nat -> reach nb n (S d) x z = true.
Proof.
  intros H Hnb Hz. rewrite <- Nat.add_1_r. apply (reach_trans nb n d 1 x y z H).
  apply (reach_step nb n 0 y z z Hnb Hz). apply reach_refl.
Qed.

(** A property of inputs that passes to neighbours holds along every path. *)
Lemma reach_invariant (P : nat -> Prop) nb n d x z :
  (forall u w, (u < n)%nat -> (w < n)%nat -> nb u w = true -> P u -> P w) ->
  (x < n)%nat -> P x -> reach nb n d x z = true -> P z.
Proof.
  intros Hstep. revert x. induction d as [|d IH]; intros x Hx HP H.
  - simpl in H. apply Nat.eqb_eq in H. subst. exact HP.
  - destruct (reach_inv nb n (S d) x z H) as [->|[d' [w [Hd [Hnb [Hw H']]]]]]; [exact HP|].
    injection Hd as <-. apply (IH w Hw); [apply (Hstep x w); assumption | exact H'].
Qed.

(** A ratio bound [f u <= c f w] between neighbours, [c >= 1], [f >= 0], becomes [f x <= c^d f z]
    along a path of at most [d] steps (group privacy). *)
Lemma reach_chain nb n d x z (f : nat -> R) (c : R) :
  1 <= c -> (forall u, (u < n)%nat -> 0 <= f u) ->
  (forall u w, (u < n)%nat -> (w < n)%nat -> nb u w = true -> f u <= c * f w) ->
  (x < n)%nat -> (z < n)%nat -> reach nb n d x z = true -> f x <= c ^ d * f z.
Proof.
  intros Hc Hf Hstep. revert x. induction d as [|d IH]; intros x Hx Hz H.
  - simpl in H. apply Nat.eqb_eq in H. subst. simpl. lra.
  - destruct (reach_inv nb n (S d) x z H) as [->|[d' [w [Hd [Hnb [Hw H']]]]]].
    + pose proof (pow_R1_Rle c (S d) Hc). pose proof (Hf z Hz). nra.
    + injection Hd as <-. specialize (IH w Hw Hz H'). specialize (Hstep x w Hx Hw Hnb).
      simpl. nra.
Qed.

(** ** Paths, the diameter, and charged components *)

(** What [first_diam] returns: a step bound within its range that every pair meets. *)
Lemma first_diam_spec nb n d0 fuel d :
  first_diam nb n d0 fuel = Some d -> all_reach nb n d = true /\ (d0 <= d < d0 + fuel)%nat.
Proof.
  revert d0. induction fuel as [|f IH]; intros d0 H; simpl in H; [discriminate|].
  destruct (all_reach nb n d0) eqn:Ha.
  - injection H as <-. split; [exact Ha | lia].
  - destruct (IH (S d0) H) as [H1 H2]. split; [exact H1 | lia].
Qed.

(** A step bound [d0 <= n] that every pair meets gives a finite diameter. *)
Lemma all_reach_diam nb n d0 : all_reach nb n d0 = true -> (d0 <= n)%nat -> exists d, diam nb n = Some d.
Proof.
  intros Ha Hd0. unfold diam.
  assert (G : forall fuel d1, (d1 <= d0)%nat -> (d0 < d1 + fuel)%nat ->
            exists d, first_diam nb n d1 fuel = Some d).
  { induction fuel as [|f IH]; intros d1 H1 H2; [lia|]. simpl.
    destruct (all_reach nb n d1) eqn:Hd1; [eauto|].
    destruct (Nat.eq_dec d1 d0) as [->|Hne]; [congruence|]. apply IH; lia. }
  apply G; lia.
Qed.

(** Every pair meeting the step bound [d] is [all_reach]. *)
Lemma all_reach_intro nb n d :
  (forall x z, (x < n)%nat -> (z < n)%nat -> reach nb n d x z = true) -> all_reach nb n d = true.
Proof.
  intro H. unfold all_reach. apply forallb_forall. intros x Hx. apply forallb_forall.
  intros z Hz. apply in_seq in Hx, Hz. apply H; lia.
Qed.

(** The diameter is at most [n]. *)
Lemma diam_le nb n d : diam nb n = Some d -> (d <= n)%nat.
Proof. intro H. apply first_diam_spec in H. lia. Qed.

(** A diameter bounds every path length. *)
Lemma diam_reach nb n d x z :
  diam nb n = Some d -> (x < n)%nat -> (z < n)%nat -> reach nb n d x z = true.
Proof.
  intros H Hx Hz. apply first_diam_spec in H. destruct H as [H _].
  unfold all_reach in H. rewrite forallb_forall in H.
  assert (Hx' : In x (seq 0 n)) by (apply in_seq; lia).
  specialize (H x Hx'). rewrite forallb_forall in H. apply H. apply in_seq. lia.
Qed.

(** A positive sum has a positive term. *)
Lemma sum_pos_term n f : 0 < sum n f -> exists i, (i < n)%nat /\ 0 < f i.
Proof.
  induction n as [|n IH]; simpl; intro H; [lra|].
  destruct (Rlt_dec 0 (f n)) as [Hpos|Hneg]; [exists n; split; [lia | exact Hpos]|].
  destruct IH as [i [Hi Hf]]; [lra|]. exists i. split; [lia | exact Hf].
Qed.

(** A prior has an input of positive prior. *)
Lemma prior_pos n p : is_prior n p -> exists z, (z < n)%nat /\ 0 < p z.
Proof. intros [_ H1]. apply sum_pos_term. lra. Qed.

(** Finite diameter: every component is the whole graph, which holds an input
    of positive prior. *)
Lemma connected_charged nb n p d :
  is_prior n p -> diam nb n = Some d -> charged nb n p.
Proof.
  intros Hp Hd x x' Hx Hx' _. destruct (prior_pos n p Hp) as [z [Hz Hpz]].
  exists z. split; [exact Hz|]. split; [|exact Hpz].
  apply (reach_mono nb n d); [apply (diam_le nb n d Hd) | apply diam_reach; assumption].
Qed.

(** The local setting is charged by any prior: an input of positive prior is one step away. *)
Lemma local_charged n p : is_prior n p -> charged local_nb n p.
Proof.
  intros Hp x x' Hx Hx' _. destruct (prior_pos n p Hp) as [z [Hz Hpz]].
  exists z. repeat split; [exact Hz | | exact Hpz].
  apply (reach_mono local_nb n 1); [lia|].
  destruct (Nat.eq_dec x z) as [->|Hne]; [apply reach_refl|].
  apply (reach_step local_nb n 0 x z z); [|exact Hz | apply reach_refl].
  unfold local_nb. apply negb_true_iff, Nat.eqb_neq, Hne.
Qed.

(** ** [D^r] is connected *)

(** A dataset is at Hamming distance [0] from itself. *)
Lemma hamming_refl k r x : hamming k r x x = 0%nat.
Proof. revert x. induction r as [|r IH]; intro x; simpl; [reflexivity|]. rewrite Nat.eqb_refl, IH. reflexivity. Qed.

(** Hamming distance is symmetric. *)
Lemma hamming_sym k r x x' : hamming k r x x' = hamming k r x' x.
Proof.
  revert x x'. induction r as [|r IH]; intros x x'; simpl; [reflexivity|].
  rewrite Nat.eqb_sym, IH. reflexivity.
Qed.

(** The last digit and the other digits of [a + k X], [a < k]. *)
Lemma digit_mod k a X : (a < k)%nat -> ((a + k * X) mod k = a)%nat.
Proof. intro Ha. rewrite Nat.mul_comm, Nat.mod_add by lia. apply Nat.mod_small, Ha. Qed.

Lemma digit_div k a X : (a < k)%nat -> ((a + k * X) / k = X)%nat.
Proof. intro Ha. rewrite Nat.mul_comm, Nat.div_add by lia. rewrite Nat.div_small by exact Ha. lia. Qed.

(** Adding the same last digit keeps neighbours of [D^r] neighbours in [D^(r+1)]. *)
Lemma dr_nb_lift k r a X W : (a < k)%nat -> dr_nb k (S r) (a + k * X)%nat (a + k * W)%nat = dr_nb k r X W.
Proof.
  intro Ha. unfold dr_nb. simpl. rewrite !digit_mod, !digit_div by exact Ha.
  rewrite Nat.eqb_refl. reflexivity.
Qed.

(** Paths of [D^r] lift to paths of [D^(r+1)] with a fixed last digit. *)
Lemma reach_lift k r a d X Z :
  (a < k)%nat -> reach (dr_nb k r) (k ^ r) d X Z = true ->
  reach (dr_nb k (S r)) (k ^ S r) d (a + k * X)%nat (a + k * Z)%nat = true.
Proof.
  intro Ha. revert X. induction d as [|d IH]; intros X H.
  - simpl in H. apply Nat.eqb_eq in H. subst. apply reach_refl.
  - destruct (reach_inv _ _ (S d) X Z H) as [->|[d' [w [Hd [Hnb [Hw H']]]]]]; [apply reach_refl|].
    injection Hd as <-. apply (reach_step _ _ d _ (a + k * w)%nat).
    + rewrite dr_nb_lift by exact Ha. exact Hnb.
    + assert (Hw' : (S w <= k ^ r)%nat) by exact Hw.
      pose proof (Nat.mul_le_mono_l _ _ k Hw'). simpl. lia.
    + apply IH, H'.
Qed.

(** Any two datasets of [D^r] are joined by changing one record at a time: [r] steps. *)
Lemma dr_reach k r x z :
  (x < k ^ r)%nat -> (z < k ^ r)%nat -> reach (dr_nb k r) (k ^ r) r x z = true.
Proof.
  revert x z. induction r as [|r IH]; intros x z Hx Hz.
  - simpl in *. assert (x = 0 /\ z = 0)%nat as [-> ->] by lia. reflexivity.
  - assert (Hk : k <> 0%nat) by (intro; subst; simpl in Hx; lia).
    pose proof (Nat.div_mod x k Hk) as Ex. pose proof (Nat.div_mod z k Hk) as Ez.
    pose proof (Nat.mod_upper_bound x k Hk). pose proof (Nat.mod_upper_bound z k Hk).
    assert (HX : (x / k < k ^ r)%nat) by (apply Nat.div_lt_upper_bound; [exact Hk | simpl in Hx; exact Hx]).
    assert (HZ : (z / k < k ^ r)%nat) by (apply Nat.div_lt_upper_bound; [exact Hk | simpl in Hz; exact Hz]).
    (* first the other records, keeping the last one; then the last record *)
    pose proof (reach_lift k r (x mod k) r (x / k) (z / k) ltac:(assumption) (IH _ _ HX HZ)) as H1.
    rewrite Nat.add_comm, <- Ex in H1.
    destruct (Nat.eq_dec (x mod k) (z mod k)) as [Heq|Hne].
    + rewrite Heq, Nat.add_comm, <- Ez in H1. apply reach_S, H1.
    + apply (reach_snoc _ _ r x (x mod k + k * (z / k))%nat z H1).
      * rewrite Ez at 2. rewrite (Nat.add_comm (k * (z / k))).
        unfold dr_nb. simpl. rewrite !digit_mod, !digit_div by assumption.
        rewrite hamming_refl. apply Nat.eqb_eq. apply Nat.eqb_neq in Hne. rewrite Hne. reflexivity.
      * exact Hz.
Qed.

(** Every [D^r] is connected. *)
Lemma dr_diam k r : exists d, diam (dr_nb k r) (k ^ r) = Some d.
Proof.
  destruct (Nat.le_gt_cases k 1) as [Hk|Hk].
  - (* at most one dataset *)
    apply (all_reach_diam _ _ 0); [|lia]. apply all_reach_intro. intros x z Hx Hz.
    assert (k ^ r <= 1)%nat.
    { destruct (Nat.eq_dec k 0) as [->|Hk0].
      - destruct r; simpl; lia.
      - replace k with 1%nat by lia. rewrite Nat.pow_1_l. lia. }
    assert (x = z) as -> by lia. apply reach_refl.
  - apply (all_reach_diam _ _ r).
    + apply all_reach_intro. intros x z Hx Hz. apply dr_reach; assumption.
    + apply Nat.lt_le_incl, Nat.pow_gt_lin_r, Hk.
Qed.

(** [D^r] is charged by any prior. *)
Lemma dr_charged k r p : is_prior (k ^ r) p -> charged (dr_nb k r) (k ^ r) p.
Proof. intro Hp. destruct (dr_diam k r) as [d Hd]. apply (connected_charged _ _ p d Hp Hd). Qed.

(** ** Symmetry of the neighbour relations *)

Lemma local_symmetric : symmetric local_nb.
Proof. intros x x'. unfold local_nb. rewrite Nat.eqb_sym. reflexivity. Qed.

Lemma dr_symmetric k r : symmetric (dr_nb k r).
Proof. intros x x'. unfold dr_nb. rewrite hamming_sym. reflexivity. Qed.

Lemma graph_symmetric edges : symmetric (graph_nb edges).
Proof.
  intros x x'. unfold graph_nb. induction edges as [|e es IH]; simpl; [reflexivity|].
  rewrite IH. f_equal. apply orb_comm.
Qed.
