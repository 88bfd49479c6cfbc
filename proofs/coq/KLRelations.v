From Coq Require Import Reals Lra Lia List Bool Arith.
From Relations Require Import Sums Mechanism KLPair Budgets BudgetFacts GroupMI.
Import ListNotations.
Open Scope R_scope.

(** * The largest KL divergence between neighbours' rows, bounded by [eps_d].

    The per-pair chord bound of KLPair.v, lifted to [kl_max] with its infinite
    cases: when [eps_d] is finite, no neighbour's row puts mass where the other
    has none (that would make [eps_d = +inf]), so every [kl_div] is finite and
    the rows are [eps_d]-indistinguishable. *)

(** ** One neighbour pair *)

(** No output escapes the support of [P'] when [P' y = 0] forces [P y = 0]. *)
Lemma support_escapes_false m P P' :
  (forall y, (y < m)%nat -> P' y = 0 -> P y = 0) -> support_escapes m P P' = false.
Proof.
  induction m as [|m IH]; intro H; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; [lia | assumption]).
  destruct (Req_EM_T (P' m) 0) as [H'|]; [|reflexivity].
  destruct (Req_EM_T (P m) 0) as [|HP]; [reflexivity|].
  exfalso. apply HP, H; [lia | exact H'].
Qed.

(** A row of a channel is a distribution. *)
Lemma row_dist n m Q x : is_channel n m Q -> (x < n)%nat -> is_dist m (Q x).
Proof. intros HQ Hx. exact (HQ x Hx). Qed.

(** The generic lift: any per-pair bound [kl <= f e] of [e]-indistinguishable
    distributions bounds [kl_max] by [f eps_d], for a symmetric neighbour
    relation.  Proof: [eps_d = +inf] is trivial; for a finite [eps_d = e],
    neighbours' rows are [e]-indistinguishable (both orders, by symmetry), so
    no support escapes and each [kl_div] is the finite [kl <= f e]. *)
Lemma kl_max_le nb n m Q (f : R -> R) :
  symmetric nb -> is_channel n m Q ->
  (forall e, 0 <= e -> 0 <= f e) ->
  (forall e P S, 0 <= e -> is_dist m P -> is_dist m S -> indist m e P S -> kl m P S <= f e) ->
  ele (kl_max nb n m Q) (emap f (eps_d nb n m Q)).
Proof.
  intros Hsym HQ Hf0 Hf.
  destruct (eps_d_cases nb n m Q) as [He|[e [He0 He]]]; rewrite He; [apply ele_pinf|].
  simpl emap.
  assert (Hstep : forall x x' y, (x < n)%nat -> (x' < n)%nat -> (y < m)%nat ->
            nb x x' = true -> Q x y <= exp e * Q x' y).
  { apply (eps_d_le_iff nb n m Q e HQ He0). rewrite He. apply ele_refl. }
  unfold kl_max.
  apply emax_upto_le. split; [simpl; apply Hf0; exact He0|]. intros x Hx.
  apply emax_upto_le. split; [simpl; apply Hf0; exact He0|]. intros x' Hx'.
  destruct (nb x x') eqn:Hnb; [|simpl; apply Hf0; exact He0].
  assert (Hnb' : nb x' x = true) by (rewrite Hsym; exact Hnb).
  assert (Hind : indist m e (Q x) (Q x'))
    by (intros y Hy; split; apply Hstep; assumption).
  unfold kl_div. rewrite support_escapes_false.
  - simpl. apply Hf; [exact He0 | apply (row_dist n) .. | exact Hind]; assumption.
  - intros y Hy H0. pose proof (proj1 (HQ x Hx) y Hy).
    pose proof (Hstep x x' y Hx Hx' Hy Hnb). rewrite H0 in *. lra.
Qed.

(** [e (e^e - 1) >= 0] and [e tanh(e/2) >= 0] for [e >= 0]. *)
Lemma drv_nonneg e : 0 <= e -> 0 <= e * (exp e - 1).
Proof. intro He. pose proof (exp_ge1 e He). apply Rmult_le_pos; lra. Qed.

Lemma tanh_nonneg e : 0 <= e -> 0 <= e * ((exp e - 1) / (exp e + 1)).
Proof.
  intro He. pose proof (exp_ge1 e He). apply Rmult_le_pos; [lra|].
  apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra].
Qed.

(** [drv2010.kl_dp]: [kl <= eps_d (e^eps_d - 1)], both settings, any prior.
    Proof: [kl_max_le] with the per-pair bound [kl_le_drv] of KLPair.v, for
    each (symmetric) neighbour relation. *)
Theorem drv2010_kl_dp :
  (forall n m Q,
     is_channel n m Q ->
     ele (kl_max local_nb n m Q) (emap (fun e => e * (exp e - 1)) (eps_d local_nb n m Q)))
  /\ (forall k r m Q,
     is_channel (k ^ r) m Q ->
     ele (kl_max (dr_nb k r) (k ^ r) m Q) (emap (fun e => e * (exp e - 1)) (eps_d (dr_nb k r) (k ^ r) m Q)))
  /\ (forall edges n m Q,
     is_channel n m Q ->
     ele (kl_max (graph_nb edges) n m Q) (emap (fun e => e * (exp e - 1)) (eps_d (graph_nb edges) n m Q))).
Proof.
  split; [|split]; intros; apply kl_max_le;
    auto using local_symmetric, dr_symmetric, graph_symmetric, drv_nonneg, kl_le_drv.
Qed.

(** [relations.kl_tanh]: [kl <= eps_d tanh(eps_d/2)], both settings, any prior; [tanh(e/2) = (e^e - 1)/(e^e + 1)].
    Proof: [kl_max_le] with the per-pair chord bound [kl_le_eps_tanh] of
    KLPair.v, for each (symmetric) neighbour relation. *)
Theorem relations_kl_tanh :
  (forall n m Q,
     is_channel n m Q ->
     ele (kl_max local_nb n m Q) (emap (fun e => e * ((exp e - 1) / (exp e + 1))) (eps_d local_nb n m Q)))
  /\ (forall k r m Q,
     is_channel (k ^ r) m Q ->
     ele (kl_max (dr_nb k r) (k ^ r) m Q) (emap (fun e => e * ((exp e - 1) / (exp e + 1))) (eps_d (dr_nb k r) (k ^ r) m Q)))
  /\ (forall edges n m Q,
     is_channel n m Q ->
     ele (kl_max (graph_nb edges) n m Q) (emap (fun e => e * ((exp e - 1) / (exp e + 1))) (eps_d (graph_nb edges) n m Q))).
Proof.
  split; [|split]; intros; apply kl_max_le;
    auto using local_symmetric, dr_symmetric, graph_symmetric, tanh_nonneg, kl_le_eps_tanh.
Qed.

