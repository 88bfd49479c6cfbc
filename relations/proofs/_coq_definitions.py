"""The registered bodies of the Coq definitions the catalogue's theorems are stated with.

A theorem about the wrong definition still compiles: a ``graph_nb`` in which no edge counts leaves every
theorem over graphs proved, about nothing.  :data:`COQ_DEFINITIONS` is the one registry of the body each
definition must have: every definition (and inductive type) of ``proofs/coq`` that a registered statement
(:data:`~relations.proofs._coq.COQ_PROOFS`, :data:`~relations.proofs._coq.COQ_LEMMAS`) uses, directly or
through another definition, with its text as it stands in its file.  ``relations verify`` checks them in
the coqc session that checks the statements (:func:`relations.proofs._coq.check_theorems`): each definition
of the compiled library must be convertible with its registered body, declared afresh over the standard
library alone; an inductive type must have its registered constructors.  A theorem any of whose
definitions fails is not cited, and the evidence names the definition.

``tests/test_coq_definitions.py`` checks that the registry is what :func:`read_definitions` reads from the
files (so a deliberate change to a definition changes this registry in the same commit) and that a changed
definition drops the citations that use it.

Examples
--------
>>> COQ_DEFINITIONS["graph_nb"].file, COQ_DEFINITIONS["graph_nb"].kind
('Budgets.v', 'Definition')
>>> sorted(uses("charged (graph_nb edges) n p"))
['charged', 'graph_nb']
>>> "reach" in closure("charged (graph_nb edges) n p")
True
>>> COQ_DEFINITIONS["ER"].constructors()
(('NInf', 0, 'ER'), ('Fin', 1, 'R -> ER'), ('PInf', 0, 'ER'))
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = ["CoqDefinition", "COQ_DEFINITIONS", "DEFINITION_FILES", "closure", "uses", "read_definitions"]

#: The files that define what the statements use, in ``_CoqProject`` order.
DEFINITION_FILES = ("Sums.v", "Mechanism.v", "KLPair.v", "Budgets.v")

_SENTENCE = re.compile(r"^(Definition|Fixpoint|Inductive)\s+(\w+)\b.*?\.(?=\s|$)", re.M | re.S)
_WORD = re.compile(r"[A-Za-z_][\w']*")


@dataclass(frozen=True)
class CoqDefinition:
    """One registered definition: its file under ``proofs/coq`` and its command, verbatim."""

    file: str
    text: str

    @property
    def kind(self) -> str:
        """``Definition``, ``Fixpoint`` or ``Inductive``."""
        return self.text.split(None, 1)[0]

    @property
    def name(self) -> str:
        return self.text.split(None, 2)[1]

    @property
    def module(self) -> str:
        return Path(self.file).stem

    def constructors(self) -> tuple[tuple[str, int, str], ...]:
        """An inductive type's constructors, each with its number of arguments and its type (``Fin (r : R)``
        of ``ER`` is ``("Fin", 1, "R -> ER")``)."""
        if self.kind != "Inductive":
            return ()
        out = []
        for part in self.text.split(":=", 1)[1].rstrip(". \n").split("|"):
            words = part.strip().split(None, 1)
            binders = re.findall(r"\(([^()]*)\)", words[1]) if len(words) > 1 else []
            types = [b.split(":", 1)[1].strip() for b in binders for _ in b.split(":", 1)[0].split()]
            out.append((words[0], len(types), " -> ".join([*types, self.name])))
        return tuple(out)


def _d(file: str, text: str) -> CoqDefinition:
    return CoqDefinition(file, text)


#: Every definition the registered statements use, in the order of their files (each after what it uses),
#: with the text it must have (``read_definitions(COQ_DIR)`` gives the same).
COQ_DEFINITIONS: dict[str, CoqDefinition] = {d.name: d for d in (
    _d("Sums.v", r"""Fixpoint sum (n : nat) (f : nat -> R) : R :=
  match n with
  | O => 0
  | S k => sum k f + f k
  end."""),
    _d("Mechanism.v", r"""Definition is_prior (n : nat) (p : nat -> R) : Prop :=
  (forall x, (x < n)%nat -> 0 <= p x) /\ sum n p = 1."""),
    _d("Mechanism.v", r"""Definition is_channel (n m : nat) (Q : nat -> nat -> R) : Prop :=
  forall x, (x < n)%nat ->
    (forall y, (y < m)%nat -> 0 <= Q x y) /\ sum m (Q x) = 1."""),
    _d("Mechanism.v", r"""Definition ldp (n m : nat) (eps : R) (Q : nat -> nat -> R) : Prop :=
  forall x x' y, (x < n)%nat -> (x' < n)%nat -> (y < m)%nat ->
    Q x y <= exp eps * Q x' y."""),
    _d("Mechanism.v", r"""Definition marginal (n : nat) (p : nat -> R) (Q : nat -> nat -> R) (y : nat) : R :=
  sum n (fun x => p x * Q x y)."""),
    _d("Mechanism.v", r"""Definition mutual_info (n m : nat) (p : nat -> R) (Q : nat -> nat -> R) : R :=
  sum n (fun x => sum m (fun y => p x * Q x y * ln (Q x y / marginal n p Q y)))."""),
    _d("Mechanism.v", r"""Definition posterior (n : nat) (p : nat -> R) (Q : nat -> nat -> R) (x y : nat) : R :=
  p x * Q x y / marginal n p Q y."""),
    _d("KLPair.v", r"""Definition is_dist (m : nat) (P : nat -> R) : Prop :=
  (forall y, (y < m)%nat -> 0 <= P y) /\ sum m P = 1."""),
    _d("KLPair.v", r"""Definition indist (m : nat) (eps : R) (P S : nat -> R) : Prop :=
  forall y, (y < m)%nat -> P y <= exp eps * S y /\ S y <= exp eps * P y."""),
    _d("KLPair.v", r"""Definition kl (m : nat) (P S : nat -> R) : R := sum m (fun y => P y * ln (P y / S y))."""),
    _d("Budgets.v", r"""Inductive ER : Type := NInf | Fin (r : R) | PInf."""),
    _d("Budgets.v", r"""Definition ele (a b : ER) : Prop :=
  match a, b with
  | NInf, _ => True
  | _, PInf => True
  | Fin x, Fin y => x <= y
  | _, _ => False
  end."""),
    _d("Budgets.v", r"""Definition eopp (a : ER) : ER :=
  match a with NInf => PInf | Fin x => Fin (- x) | PInf => NInf end."""),
    _d("Budgets.v", r"""Definition emax (a b : ER) : ER :=
  match a, b with
  | PInf, _ | _, PInf => PInf
  | NInf, b => b
  | a, NInf => a
  | Fin x, Fin y => Fin (Rmax x y)
  end."""),
    _d("Budgets.v", r"""Definition eminus (a b : ER) : ER :=
  match a, b with
  | PInf, _ | _, NInf => PInf
  | Fin x, Fin y => Fin (x - y)
  | NInf, _ | Fin _, PInf => NInf
  end."""),
    _d("Budgets.v", r"""Definition emap (f : R -> R) (a : ER) : ER :=
  match a with Fin x => Fin (f x) | e => e end."""),
    _d("Budgets.v", r"""Definition dmul (d : option nat) (a : ER) : ER :=
  match d with
  | None => PInf
  | Some O => Fin 0
  | Some k => emap (fun x => INR k * x) a
  end."""),
    _d("Budgets.v", r"""Inductive XR : Type := XFin (r : R) | XInf."""),
    _d("Budgets.v", r"""Definition xmax (a b : XR) : XR :=
  match a, b with XFin x, XFin y => XFin (Rmax x y) | _, _ => XInf end."""),
    _d("Budgets.v", r"""Definition ratio (a b : R) : option XR :=
  if Req_EM_T b 0 then (if Req_EM_T a 0 then None else Some XInf)
  else Some (XFin (a / b))."""),
    _d("Budgets.v", r"""Definition xacc (acc : XR) (o : option XR) : XR :=
  match o with None => acc | Some v => xmax acc v end."""),
    _d("Budgets.v", r"""Fixpoint xmax_upto (n : nat) (f : nat -> option XR) : XR :=
  match n with O => XFin 1 | S k => xacc (xmax_upto k f) (f k) end."""),
    _d("Budgets.v", r"""Definition eln (a : XR) : ER :=
  match a with
  | XInf => PInf
  | XFin r => if Rlt_dec 0 r then Fin (ln r) else NInf
  end."""),
    _d("Budgets.v", r"""Definition neighbours := nat -> nat -> bool."""),
    _d("Budgets.v", r"""Definition local_nb : neighbours := fun x x' => negb (Nat.eqb x x')."""),
    _d("Budgets.v", r"""Fixpoint hamming (k r x x' : nat) : nat :=
  match r with
  | O => O
  | S r' => ((if Nat.eqb (x mod k) (x' mod k) then 0 else 1)
             + hamming k r' (x / k) (x' / k))%nat
  end."""),
    _d("Budgets.v", r"""Definition dr_nb (k r : nat) : neighbours := fun x x' => Nat.eqb (hamming k r x x') 1."""),
    _d("Budgets.v", r"""Definition graph_nb (edges : list (nat * nat)) : neighbours :=
  fun x x' => existsb (fun e => (Nat.eqb (fst e) x && Nat.eqb (snd e) x')
                             || (Nat.eqb (fst e) x' && Nat.eqb (snd e) x)) edges."""),
    _d("Budgets.v", r"""Definition pair_max (nb : neighbours) (n : nat) (f : nat -> nat -> option XR) : XR :=
  xmax_upto n (fun x => Some (xmax_upto n (fun x' => if nb x x' then f x x' else None)))."""),
    _d("Budgets.v", r"""Definition dp_ratio (nb : neighbours) (n m : nat) (Q : nat -> nat -> R) : XR :=
  pair_max nb n (fun x x' => Some (xmax_upto m (fun y => ratio (Q x y) (Q x' y))))."""),
    _d("Budgets.v", r"""Definition eps_d (nb : neighbours) (n m : nat) (Q : nat -> nat -> R) : ER :=
  eln (dp_ratio nb n m Q)."""),
    _d("Budgets.v", r"""Definition eps_all (n m : nat) (Q : nat -> nat -> R) : ER := eps_d local_nb n m Q."""),
    _d("Budgets.v", r"""Definition id_ratio (nb : neighbours) (n m : nat) (p : nat -> R) (Q : nat -> nat -> R) : XR :=
  pair_max nb n (fun x x' => Some (xmax_upto m (fun y => ratio (p x * Q x y) (p x' * Q x' y))))."""),
    _d("Budgets.v", r"""Definition eps_i (nb : neighbours) (n m : nat) (p : nat -> R) (Q : nat -> nat -> R) : ER :=
  eln (id_ratio nb n m p Q)."""),
    _d("Budgets.v", r"""Definition prior_ratio (nb : neighbours) (n : nat) (p : nat -> R) : XR :=
  pair_max nb n (fun x x' => ratio (p x) (p x'))."""),
    _d("Budgets.v", r"""Definition neg_sigma (nb : neighbours) (n : nat) (p : nat -> R) : ER := eln (prior_ratio nb n p)."""),
    _d("Budgets.v", r"""Definition sigma_min (nb : neighbours) (n : nat) (p : nat -> R) : ER := eopp (neg_sigma nb n p)."""),
    _d("Budgets.v", r"""Definition eps_m (n m : nat) (p : nat -> R) (Q : nat -> nat -> R) : ER := Fin (mutual_info n m p Q)."""),
    _d("Budgets.v", r"""Fixpoint support_escapes (m : nat) (P P' : nat -> R) : bool :=
  match m with
  | O => false
  | S k => support_escapes k P P'
           || (if Req_EM_T (P' k) 0 then (if Req_EM_T (P k) 0 then false else true) else false)
  end."""),
    _d("Budgets.v", r"""Definition kl_div (m : nat) (P P' : nat -> R) : ER :=
  if support_escapes m P P' then PInf else Fin (kl m P P')."""),
    _d("Budgets.v", r"""Fixpoint emax_upto (n : nat) (f : nat -> ER) : ER :=
  match n with O => Fin 0 | S k => emax (emax_upto k f) (f k) end."""),
    _d("Budgets.v", r"""Definition kl_max (nb : neighbours) (n m : nat) (Q : nat -> nat -> R) : ER :=
  emax_upto n (fun x => emax_upto n (fun x' => if nb x x' then kl_div m (Q x) (Q x') else Fin 0))."""),
    _d("Budgets.v", r"""Fixpoint reach (nb : neighbours) (n d x z : nat) : bool :=
  match d with
  | O => Nat.eqb x z
  | S d' => reach nb n d' x z || existsb (fun w => nb x w && reach nb n d' w z) (seq 0 n)
  end."""),
    _d("Budgets.v", r"""Definition all_reach (nb : neighbours) (n d : nat) : bool :=
  forallb (fun x => forallb (fun z => reach nb n d x z) (seq 0 n)) (seq 0 n)."""),
    _d("Budgets.v", r"""Fixpoint first_diam (nb : neighbours) (n d fuel : nat) : option nat :=
  match fuel with
  | O => None
  | S f => if all_reach nb n d then Some d else first_diam nb n (S d) f
  end."""),
    _d("Budgets.v", r"""Definition diam (nb : neighbours) (n : nat) : option nat := first_diam nb n 0 (S n)."""),
    _d("Budgets.v", r"""Definition charged (nb : neighbours) (n : nat) (p : nat -> R) : Prop :=
  forall x x', (x < n)%nat -> (x' < n)%nat -> nb x x' = true ->
    exists z, (z < n)%nat /\ reach nb n n x z = true /\ 0 < p z."""),
)}


@cache
def _constructors() -> dict[str, str]:
    return {c: d.name for d in COQ_DEFINITIONS.values() for c, _, _ in d.constructors()}


def uses(text: str, *, own: str = "") -> frozenset[str]:
    """The registered definitions that the Coq ``text`` names (a constructor names its inductive type).

    Examples
    --------
    >>> sorted(uses("ele (Fin 0) (eps_d local_nb n m Q)"))
    ['ER', 'ele', 'eps_d', 'local_nb']
    """
    found = {_constructors().get(w, w) for w in _WORD.findall(text)}
    return frozenset(w for w in found if w in COQ_DEFINITIONS and w != own)


def closure(text: str) -> frozenset[str]:
    """The registered definitions the Coq ``text`` uses, directly or through their bodies.

    Examples
    --------
    >>> sorted(closure("eps_m n m p Q"))
    ['ER', 'eps_m', 'marginal', 'mutual_info', 'sum']
    """
    todo, seen = set(uses(text)), set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo |= uses(COQ_DEFINITIONS[name].text, own=name)
    return frozenset(seen)


def read_definitions(source: Path, names: Iterable[str] | None = None) -> dict[str, CoqDefinition]:
    """The definitions of ``source``'s :data:`DEFINITION_FILES` as they stand (all, or those of ``names``),
    in file order: what :data:`COQ_DEFINITIONS` must equal.

    Examples
    --------
    >>> from relations.proofs._coq import COQ_DIR
    >>> read_definitions(COQ_DIR, ["graph_nb"]) == {"graph_nb": COQ_DEFINITIONS["graph_nb"]}
    True
    """
    wanted = None if names is None else set(names)
    out = {}
    for file in DEFINITION_FILES:
        path = source / file
        if not path.is_file():
            continue
        for match in _SENTENCE.finditer(path.read_text(encoding="utf-8")):
            if wanted is None or match.group(2) in wanted:
                out[match.group(2)] = CoqDefinition(file, match.group(0))
    return out
