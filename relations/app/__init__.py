"""The application layer: the runs behind ``relations verify``, ``sweep``, ``audit``, ``conjecture`` and ``measure``.

Each run checks its inputs and output folder first, drives the layers below (the pipeline, the
sweeps, the audit), reports progress, and writes through :mod:`relations.io` (formats and writes
only).  The command line (:mod:`relations.cli`) parses options and calls these.

* :mod:`relations.app._verify` -- :func:`~relations.app._verify.run_verify`;
* :mod:`relations.app._sweep` -- :func:`~relations.app._sweep.run_sweep`, on this machine or Dask;
* :mod:`relations.app._measure` -- :func:`~relations.app._measure.run_measure`.
"""

from __future__ import annotations

from relations._lazy import exports

#: Each public name and the module that defines it (imported on first use).
_WHERE = {
    **dict.fromkeys(["run_verify"], "relations.app._verify"),
    **dict.fromkeys(["run_sweep", "SweepRun"], "relations.app._sweep"),
    **dict.fromkeys(["run_audit"], "relations.app._audit"),
    **dict.fromkeys(["run_conjectures"], "relations.app._conjecture"),
    **dict.fromkeys(["run_measure"], "relations.app._measure"),
}
__getattr__, __dir__ = exports(__name__, _WHERE)

__all__ = list(_WHERE)
