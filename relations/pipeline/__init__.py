"""The one search pipeline: a verdict with evidence for a catalogued relation or a user conjecture.

Both run the same stages in order -- proof (SMT or derivation), witness families,
bounded-exhaustive families, hypothesis, the batched optimiser -- and stop at the first that
decides; a relation that survives them all is ``unrefuted``.

* :mod:`relations.pipeline.verify` -- the catalogue's relations (``relations verify``);
* :mod:`relations.pipeline.conjecture` -- relations a user states (``relations conjecture``);
* :mod:`relations.pipeline.tightness`, :mod:`relations.pipeline.frontiers`,
  :mod:`relations.pipeline.conversion_frontiers` -- how tight a proved bound is, against the
  known frontiers.
"""

from __future__ import annotations

__all__: list[str] = []
