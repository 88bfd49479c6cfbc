"""Sweeps: measures and catalogue relations over a grid of named mechanisms or a bounded family.

* :mod:`relations.sweeps.spec` -- sweep specifications and their points;
* :mod:`relations.sweeps.chunks` -- the rows of one chunk of points, computed exactly.

The output folder (Parquet chunks) is written by :mod:`relations.io.sweeps`; a run, on this
machine or on a Dask cluster, is :func:`relations.app.sweep.run_sweep`.
"""

from __future__ import annotations

__all__: list[str] = []
