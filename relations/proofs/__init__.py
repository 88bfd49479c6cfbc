"""Proofs of relations over all mechanisms: SMT lemmas, derivations, Coq, and the solvers behind them.

* :mod:`relations.proofs.smt` -- per-triple lemmas for ratio relations and bounded SMT search (z3);
* :mod:`relations.proofs.derive` -- relations implied by relations already proved (composition);
* :mod:`relations.proofs.conjectures` -- user conjectures proved from the catalogue's relations;
* :mod:`relations.proofs.coq` -- machine-checked Coq proofs, re-checked with ``coqc``;
* :mod:`relations.proofs.solvers` -- SMT-LIB files through two independent solvers (z3, cvc5);
* :mod:`relations.proofs.z3context` -- z3 queries whose answers do not depend on the machine.
"""

from __future__ import annotations

__all__: list[str] = []
