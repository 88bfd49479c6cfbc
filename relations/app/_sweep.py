"""Running a sweep into a folder: chunk by chunk, on local workers or a Dask cluster, resumable.

The folder's format and its write policy are :mod:`relations.io._sweeps`; the rows of a chunk,
:mod:`relations.sweeps._chunks`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from relations.errors import InputError
from relations.io._sweeps import SweepFolder, load_spec, require_pyarrow
from relations.sweeps._chunks import chunk_count, connect, sweep
from relations.sweeps._spec import SweepSpec

__all__ = ["SweepRun", "run_sweep"]


@dataclass
class SweepRun:
    """What :func:`run_sweep` did.

    Attributes
    ----------
    spec : SweepSpec
    out : str
        The folder.
    chunk_size, chunks : int
        The layout.
    computed : list of int
        Chunks computed by this run, in order of completion.
    resumed : int
        Chunks found done from an earlier run.
    summary : dict
        ``summary.json`` (:func:`relations.io._sweep_summary.summarise`).
    text : str
        The summary as lines of text.
    """

    spec: SweepSpec
    out: str
    chunk_size: int
    chunks: int
    computed: list[int] = field(default_factory=list)
    resumed: int = 0
    summary: dict = field(default_factory=dict)
    text: str = ""



def run_sweep(spec: Any, *, out: str, chunk_size: int | None = None, workers: int | None = None,
              scheduler: Any = None, force: bool = False,
              progress: Callable[[int, int], None] | None = None) -> SweepRun:
    """Run a sweep into a folder, resuming what an earlier run of the same sweep left.

    Parameters
    ----------
    spec : str, dict or SweepSpec
        A specification file, its JSON text or parsed object (``docs/mechanism-files.md``).
    out : str
        The output folder (created if missing).
    chunk_size : int, optional
        Points per chunk (members, for a family up to relabelling): default the folder's (when resuming) or
        :func:`~relations.sweeps._chunks.default_chunk_size`.
    workers : int, optional
        Local worker processes (default: one per core; 0: this process).
    scheduler : str or distributed.Client, optional
        Run the chunks on a Dask cluster instead.
    force : bool, optional
        Replace a different sweep (or files relations did not write) in ``out``.
    progress : callable, optional
        ``progress(done, total)`` in points, as chunks finish.

    Returns
    -------
    SweepRun

    Raises
    ------
    InputError
        A bad specification, a folder holding something else, a bad option; all before any chunk is computed.

    Examples
    --------
    >>> import tempfile
    >>> from relations.io._sweeps import read_rows
    >>> spec = {"mechanism": "krr", "k": [2, 3], "ratio": ["2", "3"], "relations": ["zheng2025.thm3"]}
    >>> with tempfile.TemporaryDirectory() as d:
    ...     first = run_sweep(spec, out=d, chunk_size=2, workers=0)
    ...     again = run_sweep(spec, out=d, workers=0)          # nothing left to do
    ...     rows = read_rows(d)
    >>> first.chunks, first.computed, again.computed, again.resumed
    (2, [0, 1], [], 2)
    >>> [r["eps_d"] for r in rows]
    ['ln(2)', 'ln(3)', 'ln(2)', 'ln(3)']
    >>> print(first.text.splitlines()[1])
    zheng2025.thm3: holds 4
    """
    require_pyarrow()
    spec = load_spec(spec)
    if chunk_size is not None:
        chunk_count(spec, chunk_size)
    if workers is not None and not (isinstance(workers, int) and 0 <= workers <= 256):
        raise InputError(f"--workers: {workers!r} out of range 0..256")
    folder = SweepFolder(out, force=force)
    client = connect(scheduler) if isinstance(scheduler, str) else scheduler  # unreachable: refused before writing
    try:
        done = folder.open(spec, chunk_size)
        run = SweepRun(spec, out, folder.chunk_size, folder.chunks, resumed=len(done))
        total = spec.count
        finished = sum(e["rows"] for e in done.values())
        if progress is not None:
            progress(finished, total)
        for c, rows in sweep(spec, chunk_size=folder.chunk_size, workers=workers, scheduler=client, skip=done):
            folder.add_chunk(c, rows)
            run.computed.append(c)
            finished += len(rows)
            if progress is not None:
                progress(finished, total)
        from relations.io._sweep_summary import summary_text

        run.summary = folder.finish()
        run.text = summary_text(run.summary, out=run.out, computed=len(run.computed), resumed=run.resumed)
        return run
    finally:
        folder.close()
        if client is not None and client is not scheduler:
            client.close()
