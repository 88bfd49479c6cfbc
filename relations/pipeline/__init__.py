"""The one search pipeline: a verdict with evidence for a catalogued relation or a user conjecture.

Both run the same stages in order (:class:`Stage`) -- proof (SMT, derivation or Coq), families,
bounded-exhaustive families, hypothesis, the batched optimiser -- and the counterexample stages through
one runner (:func:`first_refutation`); a relation that survives them all is ``unrefuted``.

* :mod:`relations.pipeline._verify` -- the catalogue's relations (``relations verify``);
* :mod:`relations.pipeline._conjecture` -- relations a user states (``relations conjecture``);
* :mod:`relations.pipeline._tightness`, :mod:`relations.pipeline._frontiers`,
  :mod:`relations.pipeline._conversion_frontiers` -- how tight a proved bound is, against the
  known frontiers.
"""

from __future__ import annotations

from relations._lazy import exports

#: Each public name and the module that defines it (imported on first use).
_WHERE = {
    **dict.fromkeys(["Effort", "RelationVerdict", "verify_relation", "verify_all", "SMT_SHAPES", "DENSE", "WITNESS_EPS_M"], "relations.pipeline._verify"),
    **dict.fromkeys(["ConjectureResult", "conjecture", "decide_conjecture", "SETTINGS"], "relations.pipeline._conjecture"),
    **dict.fromkeys(["tightness"], "relations.pipeline._tightness"),
    **dict.fromkeys(["Stage", "first_refutation", "PipelineResult"], "relations.pipeline._stages"),
    **dict.fromkeys(["Frontier", "frontier_for", "local_mi_sup", "local_mi_sup_float"], "relations.pipeline._frontiers"),
    **dict.fromkeys(["conversion_frontier"], "relations.pipeline._conversion_frontiers"),
}
__getattr__, __dir__ = exports(__name__, _WHERE)

__all__ = list(_WHERE)
