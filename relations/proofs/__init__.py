"""Proofs of relations over all mechanisms: SMT lemmas, derivations, Coq, and the solvers behind them.

* :mod:`relations.proofs._smt` -- per-triple lemmas for ratio relations and bounded SMT search (z3);
* :mod:`relations.proofs._derive` -- relations implied by relations already proved (composition);
* :mod:`relations.proofs._conjectures` -- user conjectures proved from the catalogue's relations;
* :mod:`relations.proofs._coq` -- machine-checked Coq proofs, re-checked with ``coqc``;
* :mod:`relations.proofs._coq_examples` -- the Coq definitions evaluated against the tool (``Examples.v``);
* :mod:`relations.proofs.solvers` -- SMT-LIB files through two independent solvers (z3, cvc5);
* :mod:`relations.proofs._z3context` -- z3 queries whose answers do not depend on the machine.
"""

from __future__ import annotations

from relations._lazy import exports

#: Each public name and the module that defines it (imported on first use).
_WHERE = {
    **dict.fromkeys(["Lemma", "ProofResult", "SearchResult", "Shape", "prove", "bounded_search", "lemma_for", "density_lemma", "is_ratio_relation", "SMT_NOTIONS"], "relations.proofs._smt"),
    **dict.fromkeys(["Derivation", "derive", "lemma_facts", "FINITE"], "relations.proofs._derive"),
    **dict.fromkeys(["Proof", "prove_conjecture", "PROVABLE_NOTIONS"], "relations.proofs._conjectures"),
    **dict.fromkeys(["CoqProof", "CoqCheck", "COQ_PROOFS", "check_theorem"], "relations.proofs._coq"),
    **dict.fromkeys(["fresh_context", "deterministic_solver"], "relations.proofs._z3context"),
}
__getattr__, __dir__ = exports(__name__, _WHERE)

__all__ = list(_WHERE)
