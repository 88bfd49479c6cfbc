"""Sweeps: measures and catalogue relations over a grid of named mechanisms or a bounded family.

* :mod:`relations.sweeps._spec` -- sweep specifications and their points;
* :mod:`relations.sweeps._chunks` -- the rows of one chunk of points, computed exactly.

The output folder (Parquet chunks) is written by :mod:`relations.io._sweeps`; a run, on this
machine or on a Dask cluster, is :func:`relations.app._sweep.run_sweep`.
"""

from __future__ import annotations

from relations._lazy import exports

#: Each public name and the module that defines it (imported on first use).
_WHERE = {
    **dict.fromkeys(["SweepSpec", "parse_spec", "parse_spec_text", "MAX_POINTS", "MAX_MEMBERS"], "relations.sweeps._spec"),
    **dict.fromkeys(["sweep", "evaluate_point", "chunk_count", "default_chunk_size", "DEFAULT_CHUNK_SIZE", "MAX_CHUNKS"], "relations.sweeps._chunks"),
}
__getattr__, __dir__ = exports(__name__, _WHERE)

__all__ = list(_WHERE)
