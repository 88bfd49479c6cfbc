From Coq Require Import Reals Lra Lia List Bool Arith.
From Relations Require Import Sums Mechanism KLPair Budgets BudgetFacts.
Import ListNotations.
Open Scope R_scope.

(** * Identifiability, differential privacy and the prior: the catalogue's ratio relations.

    Generic theorems over any symmetric neighbour relation, then each
    catalogue relation in the scope [proofs/verdicts.json] gives it: local
    domains ([local_nb]), every [D^r] ([dr_nb k r] on [k^r] inputs) and explicit
    graphs ([graph_nb edges]). *)

(** ** The ratio budgets as inequalities *)

(** A finite [eps_d] bounds every neighbour pair's entries. *)
Lemma eps_d_fin_bound nb n m Q a :
  is_channel n m Q -> 0 <= a -> eps_d nb n m Q = Fin a ->
  forall x x' y, (x < n)%nat -> (x' < n)%nat -> (y < m)%nat -> nb x x' = true ->
    Q x y <= exp a * Q x' y.
Proof.
  intros HQ Ha H. apply (eps_d_le_iff nb n m Q a HQ Ha). rewrite H. simpl. lra.
Qed.

(** A finite [eps_i] bounds every neighbour pair's products [p(x)Q(x,y)]. *)
Lemma eps_i_fin_bound nb n m p Q a :
  is_prior n p -> is_channel n m Q -> 0 <= a -> eps_i nb n m p Q = Fin a ->
  forall x x' y, (x < n)%nat -> (x' < n)%nat -> (y < m)%nat -> nb x x' = true ->
    p x * Q x y <= exp a * (p x' * Q x' y).
Proof.
  intros Hp HQ Ha H. apply (eps_i_le_iff nb n m p Q a Hp HQ Ha). rewrite H. simpl. lra.
Qed.

(** A finite [-sigma_min] bounds every neighbour pair's priors. *)
Lemma neg_sigma_fin_bound nb n p b :
  is_prior n p -> 0 <= b -> neg_sigma nb n p = Fin b ->
  forall x x', (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> p x <= exp b * p x'.
Proof.
  intros Hp Hb H. apply (neg_sigma_le_iff nb n p b Hp Hb). rewrite H. simpl. lra.
Qed.

(** [eps - sigma_min] for finite [eps] and [-sigma_min]: [e^(a - -b) = e^a e^b]. *)
Lemma eminus_fin a b : eminus (Fin a) (eopp (Fin b)) = Fin (a - - b).
Proof. reflexivity. Qed.

Lemma exp_sum a b : exp (a - - b) = exp a * exp b.
Proof. rewrite <- exp_plus. f_equal. ring. Qed.

(** A finite [-sigma_min] on a charged component: no neighbour has zero prior.  A zero
    prior passes to every neighbour ([p(w) <= e^b p(u) = 0]), hence along the path to
    the input of positive prior that [charged] provides. *)
Lemma charged_pos nb n p b x x' :
  symmetric nb -> is_prior n p -> charged nb n p -> 0 <= b -> neg_sigma nb n p = Fin b ->
  (x < n)%nat -> (x' < n)%nat -> nb x x' = true -> 0 < p x.
Proof.
  intros Hsym Hp Hch Hb Hs Hx Hx' Hnb.
  destruct (Rle_lt_or_eq_dec 0 (p x) (proj1 Hp x Hx)) as [Hpos|Hzero]; [exact Hpos|].
  exfalso. destruct (Hch x x' Hx Hx' Hnb) as [z [Hz [Hr Hpz]]].
  assert (p z = 0); [|lra].
  apply (reach_invariant (fun u => p u = 0) nb n n x z); [|exact Hx | auto | exact Hr].
  intros u w Hu Hw Hnbuw Hpu.
  assert (p w <= exp b * p u).
  { apply (neg_sigma_fin_bound nb n p b Hp Hb Hs w u Hw Hu). rewrite Hsym. exact Hnbuw. }
  pose proof (proj1 Hp w Hw). rewrite Hpu in *. lra.
Qed.

(** ** Generic relations *)

(** ID -> DP for any symmetric neighbour relation whose components with a
    neighbour pair are charged: [eps_d <= eps_i - sigma_min]. *)
Lemma id_to_dp nb n m p Q :
  symmetric nb -> is_prior n p -> is_channel n m Q -> charged nb n p ->
  ele (eps_d nb n m Q) (eminus (eps_i nb n m p Q) (sigma_min nb n p)).
Proof.
  (* an infinite [eps_i] or [-sigma_min] makes the bound [+inf]; otherwise, on a
     neighbour pair, p(x) > 0 (charged_pos) and
     p(x) Q(x,y) <= e^a p(x') Q(x',y) <= e^a e^b p(x) Q(x',y). *)
  intros Hsym Hp HQ Hch.
  destruct (eps_i_cases nb n m p Q) as [Hi|[a [Ha Hi]]]; rewrite Hi; [apply ele_pinf|].
  unfold sigma_min.
  destruct (neg_sigma_cases nb n p) as [Hs|[b [Hb Hs]]]; rewrite Hs; [apply ele_pinf|].
  rewrite eminus_fin. apply (eps_d_le_iff nb n m Q _ HQ); [lra|].
  intros x x' y Hx Hx' Hy Hnb.
  pose proof (charged_pos nb n p b x x' Hsym Hp Hch Hb Hs Hx Hx' Hnb) as Hpx.
  pose proof (eps_i_fin_bound nb n m p Q a Hp HQ Ha Hi x x' y Hx Hx' Hy Hnb) as H1.
  assert (H2 : p x' <= exp b * p x).
  { apply (neg_sigma_fin_bound nb n p b Hp Hb Hs x' x Hx' Hx). rewrite Hsym. exact Hnb. }
  pose proof (proj1 (HQ x' Hx') y Hy) as HQ'. pose proof (exp_pos a).
  assert (H3 : p x * Q x y <= p x * (exp (a - - b) * Q x' y)).
  { rewrite exp_sum. eapply Rle_trans; [exact H1|].
    replace (p x * (exp a * exp b * Q x' y)) with (exp a * ((exp b * p x) * Q x' y)) by ring.
    apply Rmult_le_compat_l; [lra|]. apply Rmult_le_compat_r; assumption. }
  apply Rmult_le_reg_l in H3; assumption.
Qed.

(** DP -> ID for any symmetric neighbour relation: [eps_i <= eps_d - sigma_min]. *)
Lemma dp_to_id nb n m p Q :
  symmetric nb -> is_prior n p -> is_channel n m Q ->
  ele (eps_i nb n m p Q) (eminus (eps_d nb n m Q) (sigma_min nb n p)).
Proof.
  (* an infinite [eps_d] or [-sigma_min] makes the bound [+inf]; otherwise
     p(x) Q(x,y) <= (e^b p(x')) (e^a Q(x',y)) on every neighbour pair. *)
  intros _ Hp HQ.
  destruct (eps_d_cases nb n m Q) as [Hd|[a [Ha Hd]]]; rewrite Hd; [apply ele_pinf|].
  unfold sigma_min.
  destruct (neg_sigma_cases nb n p) as [Hs|[b [Hb Hs]]]; rewrite Hs; [apply ele_pinf|].
  rewrite eminus_fin. apply (eps_i_le_iff nb n m p Q _ Hp HQ); [lra|].
  intros x x' y Hx Hx' Hy Hnb.
  pose proof (eps_d_fin_bound nb n m Q a HQ Ha Hd x x' y Hx Hx' Hy Hnb) as H1.
  pose proof (neg_sigma_fin_bound nb n p b Hp Hb Hs x x' Hx Hx' Hnb) as H2.
  pose proof (proj1 Hp x Hx). pose proof (proj1 (HQ x Hx) y Hy).
  rewrite exp_sum.
  replace (exp a * exp b * (p x' * Q x' y)) with ((exp b * p x') * (exp a * Q x' y)) by ring.
  apply Rmult_le_compat; assumption.
Qed.

(** The prior bound for any neighbour relation: [-sigma_min <= eps_i]. *)
Lemma prior_bound nb n m p Q :
  is_prior n p -> is_channel n m Q ->
  ele (neg_sigma nb n p) (eps_i nb n m p Q).
Proof.
  (* the mediant: summing p(x) Q(x,y) <= e^e p(x') Q(x',y) over the outputs gives
     p(x) <= e^e p(x') (rows sum to 1); an infinite [eps_i] is trivially above. *)
  intros Hp HQ.
  destruct (eps_i_cases nb n m p Q) as [Hi|[e [He Hi]]]; rewrite Hi; [apply ele_pinf|].
  apply (neg_sigma_le_iff nb n p e Hp He). intros x x' Hx Hx' Hnb.
  assert (H : sum m (fun y => p x * Q x y) <= sum m (fun y => exp e * (p x' * Q x' y))).
  { apply sum_le. intros y Hy. apply (eps_i_fin_bound nb n m p Q e Hp HQ He Hi); assumption. }
  rewrite sum_scal_l, sum_scal_l, sum_scal_l, (proj2 (HQ x Hx)), (proj2 (HQ x' Hx')) in H.
  lra.
Qed.

(** [zheng2025.thm1]: [eps_d <= eps_i - sigma_min], central: every [D^r], any prior; an explicit graph whose components with a neighbour pair hold an input of positive prior.
    Proof: [id_to_dp] on each relation; every [D^r] is connected
    ([dr_diam]), so any prior charges it ([dr_charged]); on a graph the
    scope gives [charged]. *)
Theorem zheng2025_thm1 :
  (forall k r m p Q,
     is_prior (k ^ r) p -> is_channel (k ^ r) m Q ->
     ele (eps_d (dr_nb k r) (k ^ r) m Q) (eminus (eps_i (dr_nb k r) (k ^ r) m p Q) (sigma_min (dr_nb k r) (k ^ r) p)))
  /\ (forall edges n m p Q,
     is_prior n p -> is_channel n m Q -> charged (graph_nb edges) n p ->
     ele (eps_d (graph_nb edges) n m Q) (eminus (eps_i (graph_nb edges) n m p Q) (sigma_min (graph_nb edges) n p))).
Proof.
  split.
  - intros k r m p Q Hp HQ. apply id_to_dp; [apply dr_symmetric | exact Hp | exact HQ | apply dr_charged, Hp].
  - intros edges n m p Q Hp HQ Hch. apply id_to_dp; [apply graph_symmetric | exact Hp | exact HQ | exact Hch].
Qed.

(** [zheng2025.thm3]: [eps_d <= eps_i - sigma_min], local, any prior.
    Proof: [id_to_dp] with [local_nb]: an input of positive prior is one
    step from every input ([local_charged]). *)
Theorem zheng2025_thm3 :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_d local_nb n m Q) (eminus (eps_i local_nb n m p Q) (sigma_min local_nb n p))).
Proof.
  intros n m p Q Hp HQ. apply id_to_dp; [apply local_symmetric | exact Hp | exact HQ | apply local_charged, Hp].
Qed.

(** [suntay2020.thm1xiv]: [eps_d <= eps_i - sigma_min], both settings: local; every [D^r]; explicit graphs whose components with a neighbour pair hold an input of positive prior.
    Proof: [id_to_dp] on each relation, charged locally by
    [local_charged], on [D^r] by [dr_charged], on a graph by the scope: the
    local and the central theorems above, together. *)
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
Proof. exact (conj zheng2025_thm3 zheng2025_thm1). Qed.

(** [relations.thm2_corrected]: [eps_i <= eps_d - sigma_min], central: every [D^r] and explicit graph, any prior.
    Proof: [dp_to_id] on [D^r] and on the graph. *)
Theorem relations_thm2_corrected :
  (forall k r m p Q,
     is_prior (k ^ r) p -> is_channel (k ^ r) m Q ->
     ele (eps_i (dr_nb k r) (k ^ r) m p Q) (eminus (eps_d (dr_nb k r) (k ^ r) m Q) (sigma_min (dr_nb k r) (k ^ r) p)))
  /\ (forall edges n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_i (graph_nb edges) n m p Q) (eminus (eps_d (graph_nb edges) n m Q) (sigma_min (graph_nb edges) n p))).
Proof.
  split.
  - intros k r m p Q Hp HQ. apply dp_to_id; [apply dr_symmetric | exact Hp | exact HQ].
  - intros edges n m p Q Hp HQ. apply dp_to_id; [apply graph_symmetric | exact Hp | exact HQ].
Qed.

(** [relations.thm4_corrected]: [eps_i <= eps_d - sigma_min], local, any prior.
    Proof: [dp_to_id] with [local_nb]. *)
Theorem relations_thm4_corrected :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (eps_i local_nb n m p Q) (eminus (eps_d local_nb n m Q) (sigma_min local_nb n p))).
Proof.
  intros n m p Q Hp HQ. apply dp_to_id; [apply local_symmetric | exact Hp | exact HQ].
Qed.

(** [suntay2020.thm1xii]: [eps_i <= eps_d - sigma_min], both settings, any prior.
    Proof: [dp_to_id] on each relation (no charged condition: the
    bound multiplies p(x) <= e^b p(x') and Q(x,y) <= e^a Q(x',y)): the
    local and the central theorems above, together. *)
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
Proof. exact (conj relations_thm4_corrected relations_thm2_corrected). Qed.

(** [zheng2025.eq17]: [neg_sigma <= eps_i], central: every [D^r] and explicit graph, any prior.
    Proof: [prior_bound] (the mediant) on [D^r] and on the graph. *)
Theorem zheng2025_eq17 :
  (forall k r m p Q,
     is_prior (k ^ r) p -> is_channel (k ^ r) m Q ->
     ele (neg_sigma (dr_nb k r) (k ^ r) p) (eps_i (dr_nb k r) (k ^ r) m p Q))
  /\ (forall edges n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (neg_sigma (graph_nb edges) n p) (eps_i (graph_nb edges) n m p Q)).
Proof.
  split.
  - intros k r m p Q Hp HQ. apply prior_bound; assumption.
  - intros edges n m p Q Hp HQ. apply prior_bound; assumption.
Qed.

(** [zheng2025.eq18]: [neg_sigma <= eps_i], local, any prior.
    Proof: [prior_bound] with [local_nb]. *)
Theorem zheng2025_eq18 :
  (forall n m p Q,
     is_prior n p -> is_channel n m Q ->
     ele (neg_sigma local_nb n p) (eps_i local_nb n m p Q)).
Proof.
  intros n m p Q Hp HQ. apply prior_bound; assumption.
Qed.

