(** * The catalogue's quantities, defined once, for every finite mechanism.

    A mechanism is a prior [p] on inputs [0 .. n-1], a channel [Q] (row [x] is
    the output distribution on input [x], outputs [0 .. m-1]) and a neighbour
    relation [nb] on the inputs (a boolean function, so that it computes).
    This file defines the settings of docs/semantics.md (local, [D^r], explicit
    graphs), the budgets [eps_d], [eps_all], [eps_i], [sigma_min] (and
    [neg_sigma]), [eps_m], the largest neighbour KL divergence [kl_max] and the
    diameter [diam], with the zero and infinite conventions of
    docs/semantics.md, "Zeros and infinities":

    - a ratio [0/0] is skipped (the inequality it stands for holds);
    - [a/0] with [a > 0] is [+inf]; [0/b] with [b > 0] is [0] (its logarithm
      is [-inf]);
    - a maximum over no contributing ratio is [0] (in logarithms; [1] as a ratio).

    Every maximum of a ratio starts at the ratio [1].  Since the code compares
    both orders of every neighbour pair (the relations here are symmetric),
    its maxima are [>= 0] in logarithms whenever a ratio contributes, so
    starting at [1] changes nothing; with no contributing ratio both are [0].

    [eps_i] is taken over every output, where the code takes the outputs with
    [p(y) > 0]: at an output with [p(y) = 0] every [p(x) Q(x,y)] is [0], so its
    ratios are [0/0] and skipped either way.  Its ratio is
    [p(x) Q(x,y) / (p(x') Q(x',y))], which is [p(x|y) / p(x'|y)] ([p(y)]
    cancels). *)

From Coq Require Import Reals Lra Lia List Bool Arith.
From Relations Require Import Sums Mechanism KLPair.
Import ListNotations.
Open Scope R_scope.

(** ** Extended reals, for budgets that may be infinite *)

Inductive ER : Type := NInf | Fin (r : R) | PInf.

(** [a <= b] in the extended reals. *)
Definition ele (a b : ER) : Prop :=
  match a, b with
  | NInf, _ => True
  | _, PInf => True
  | Fin x, Fin y => x <= y
  | _, _ => False
  end.

Definition eopp (a : ER) : ER :=
  match a with NInf => PInf | Fin x => Fin (- x) | PInf => NInf end.

Definition emax (a b : ER) : ER :=
  match a, b with
  | PInf, _ | _, PInf => PInf
  | NInf, b => b
  | a, NInf => a
  | Fin x, Fin y => Fin (Rmax x y)
  end.

(** [a - b].  The catalogue subtracts [sigma_min] (which is [<= 0]) from a
    budget (which is [>= 0]), so [inf - inf] never arises; an infinite
    operand makes the difference [+inf]. *)
Definition eminus (a b : ER) : ER :=
  match a, b with
  | PInf, _ | _, NInf => PInf
  | Fin x, Fin y => Fin (x - y)
  | NInf, _ | Fin _, PInf => NInf
  end.

(** [f(a)] for an increasing [f] with [f(+-inf) = +-inf]: [c a] ([c > 0]),
    [a (e^a - 1)], [a tanh(a/2)]. *)
Definition emap (f : R -> R) (a : ER) : ER :=
  match a with Fin x => Fin (f x) | e => e end.

(** [diam * a]: [+inf] when the graph is disconnected ([diam = None]), [0] when
    the diameter is [0] (a single input, or [D^r] with one value). *)
Definition dmul (d : option nat) (a : ER) : ER :=
  match d with
  | None => PInf
  | Some O => Fin 0
  | Some k => emap (fun x => INR k * x) a
  end.

(** ** Ratios with the conventions for zero *)

(** Extended non-negative ratios. *)
Inductive XR : Type := XFin (r : R) | XInf.

Definition xmax (a b : XR) : XR :=
  match a, b with XFin x, XFin y => XFin (Rmax x y) | _, _ => XInf end.

(** [a / b]: skipped ([None]) when [a = b = 0], [+inf] when only [b = 0]. *)
Definition ratio (a b : R) : option XR :=
  if Req_EM_T b 0 then (if Req_EM_T a 0 then None else Some XInf)
  else Some (XFin (a / b)).

Definition xacc (acc : XR) (o : option XR) : XR :=
  match o with None => acc | Some v => xmax acc v end.

(** The largest of [f 0, ..., f (n-1)] and the ratio [1]; skipped terms are [None]. *)
Fixpoint xmax_upto (n : nat) (f : nat -> option XR) : XR :=
  match n with O => XFin 1 | S k => xacc (xmax_upto k f) (f k) end.

(** The logarithm of an extended ratio. *)
Definition eln (a : XR) : ER :=
  match a with
  | XInf => PInf
  | XFin r => if Rlt_dec 0 r then Fin (ln r) else NInf
  end.

(** ** Neighbour relations *)

Definition neighbours := nat -> nat -> bool.

(** Local setting: every two distinct inputs are neighbours. *)
Definition local_nb : neighbours := fun x x' => negb (Nat.eqb x x').

(** Number of records in which the datasets [x] and [x'] of [D^r] differ: input
    [x] is the dataset whose records are the [r] base-[k] digits of [x]. *)
Fixpoint hamming (k r x x' : nat) : nat :=
  match r with
  | O => O
  | S r' => ((if Nat.eqb (x mod k) (x' mod k) then 0 else 1)
             + hamming k r' (x / k) (x' / k))%nat
  end.

(** Central setting [D^r] ([k] values, [r] records, [k^r] inputs): datasets
    that differ in exactly one record. *)
Definition dr_nb (k r : nat) : neighbours := fun x x' => Nat.eqb (hamming k r x x') 1.

(** Central setting with an explicit undirected edge list. *)
Definition graph_nb (edges : list (nat * nat)) : neighbours :=
  fun x x' => existsb (fun e => (Nat.eqb (fst e) x && Nat.eqb (snd e) x')
                             || (Nat.eqb (fst e) x' && Nat.eqb (snd e) x)) edges.

Definition symmetric (nb : neighbours) : Prop := forall x x', nb x x' = nb x' x.

(** The largest of [f x x'] over neighbour pairs [x ~ x'] of [0 .. n-1]
    (and the ratio [1]). *)
Definition pair_max (nb : neighbours) (n : nat) (f : nat -> nat -> option XR) : XR :=
  xmax_upto n (fun x => Some (xmax_upto n (fun x' => if nb x x' then f x x' else None))).

(** ** The budgets *)

(** [e^eps_d = max Q(x,y) / Q(x',y)] over neighbours [x ~ x'] and outputs [y]. *)
Definition dp_ratio (nb : neighbours) (n m : nat) (Q : nat -> nat -> R) : XR :=
  pair_max nb n (fun x x' => Some (xmax_upto m (fun y => ratio (Q x y) (Q x' y)))).

Definition eps_d (nb : neighbours) (n m : nat) (Q : nat -> nat -> R) : ER :=
  eln (dp_ratio nb n m Q).

(** [eps_all]: [eps_d] over every pair of distinct inputs. *)
Definition eps_all (n m : nat) (Q : nat -> nat -> R) : ER := eps_d local_nb n m Q.

(** [e^eps_i = max p(x|y) / p(x'|y) = max p(x) Q(x,y) / (p(x') Q(x',y))]. *)
Definition id_ratio (nb : neighbours) (n m : nat) (p : nat -> R) (Q : nat -> nat -> R) : XR :=
  pair_max nb n (fun x x' => Some (xmax_upto m (fun y => ratio (p x * Q x y) (p x' * Q x' y)))).

Definition eps_i (nb : neighbours) (n m : nat) (p : nat -> R) (Q : nat -> nat -> R) : ER :=
  eln (id_ratio nb n m p Q).

(** [e^neg_sigma = max p(x) / p(x')] over neighbours; [sigma_min = - neg_sigma]
    is [min ln(p(x)/p(x'))]. *)
Definition prior_ratio (nb : neighbours) (n : nat) (p : nat -> R) : XR :=
  pair_max nb n (fun x x' => ratio (p x) (p x')).

Definition neg_sigma (nb : neighbours) (n : nat) (p : nat -> R) : ER := eln (prior_ratio nb n p).

Definition sigma_min (nb : neighbours) (n : nat) (p : nat -> R) : ER := eopp (neg_sigma nb n p).

(** [eps_m = I(X;Y)] (always finite). *)
Definition eps_m (n m : nat) (p : nat -> R) (Q : nat -> nat -> R) : ER := Fin (mutual_info n m p Q).

(** ** The largest KL divergence between neighbours' rows *)

(** Whether some output [y < m] has [P(y) > 0 = P'(y)]. *)
Fixpoint support_escapes (m : nat) (P P' : nat -> R) : bool :=
  match m with
  | O => false
  | S k => support_escapes k P P'
           || (if Req_EM_T (P' k) 0 then (if Req_EM_T (P k) 0 then false else true) else false)
  end.

(** [D(P || P')], [+inf] when [P] puts mass where [P'] has none. *)
Definition kl_div (m : nat) (P P' : nat -> R) : ER :=
  if support_escapes m P P' then PInf else Fin (kl m P P').

Fixpoint emax_upto (n : nat) (f : nat -> ER) : ER :=
  match n with O => Fin 0 | S k => emax (emax_upto k f) (f k) end.

Definition kl_max (nb : neighbours) (n m : nat) (Q : nat -> nat -> R) : ER :=
  emax_upto n (fun x => emax_upto n (fun x' => if nb x x' then kl_div m (Q x) (Q x') else Fin 0)).

(** ** Paths and the diameter *)

(** [reach nb n d x z]: [z] is reached from [x] by a path of at most [d] steps
    through inputs [0 .. n-1]. *)
Fixpoint reach (nb : neighbours) (n d x z : nat) : bool :=
  match d with
  | O => Nat.eqb x z
  | S d' => reach nb n d' x z || existsb (fun w => nb x w && reach nb n d' w z) (seq 0 n)
  end.

Definition all_reach (nb : neighbours) (n d : nat) : bool :=
  forallb (fun x => forallb (fun z => reach nb n d x z) (seq 0 n)) (seq 0 n).

Fixpoint first_diam (nb : neighbours) (n d fuel : nat) : option nat :=
  match fuel with
  | O => None
  | S f => if all_reach nb n d then Some d else first_diam nb n (S d) f
  end.

(** The diameter: the least [d] such that every two inputs are joined by a path
    of at most [d] steps; [None] ([+inf]) when the graph is disconnected.  A
    connected graph on [n] inputs has diameter at most [n - 1], so [d] runs
    over [0 .. n]. *)
Definition diam (nb : neighbours) (n : nat) : option nat := first_diam nb n 0 (S n).

(** The scope condition of the ID -> DP relations on explicit graphs: every
    connected component that holds a neighbour pair has an input of positive
    prior. *)
Definition charged (nb : neighbours) (n : nat) (p : nat -> R) : Prop :=
  forall x x', (x < n)%nat -> (x' < n)%nat -> nb x x' = true ->
    exists z, (z < n)%nat /\ reach nb n n x z = true /\ 0 < p z.
