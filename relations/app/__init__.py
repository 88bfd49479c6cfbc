"""The application layer: the runs behind ``relations verify``, ``sweep``, ``audit`` and ``conjecture``.

Each run checks its inputs and output folder first, drives the layers below (the pipeline, the
sweeps, the audit), reports progress, and writes through :mod:`relations.io` (formats and writes
only).  The command line (:mod:`relations.cli`) parses options and calls these.

* :mod:`relations.app.verify` -- :func:`~relations.app.verify.run_verify`;
* :mod:`relations.app.sweep` -- :func:`~relations.app.sweep.run_sweep`, on this machine or Dask.
"""

from __future__ import annotations

__all__: list[str] = []
