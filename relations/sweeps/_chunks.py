"""Sweeps: measures and catalogue relations over a grid or a bounded-exhaustive family, chunk by chunk.

A sweep (:mod:`relations.sweeps._spec`) numbers its points ``0 .. span-1`` (for a family up to
relabelling, its members, of which the representatives are evaluated) and splits them into chunks of
``chunk_size`` consecutive points; :func:`evaluate_chunk` computes one chunk's rows anywhere
(it needs only the normalised specification and the chunk's number), and :func:`sweep` runs the chunks
in this process, in a local process pool (:mod:`concurrent.futures`) or on a Dask distributed cluster,
yielding each chunk's rows as it finishes.  Rows do not depend on where or in which order chunks ran.
Writing the chunks to Parquet, resuming and summarising is :mod:`relations.io._sweeps`.

A row holds the point's parameters, ``eps_i``, ``eps_d``, ``sigma_min`` (exact text and float),
``eps_m`` (the ends of its certified enclosure as exact fractions, and a float) and, for each relation,
its status (``holds``, ``fails``, ``not applicable``, ...), or ``error`` when the named mechanism
refuses the point's parameters.

Examples
--------
>>> from relations.sweeps._spec import parse_spec
>>> spec = parse_spec({"mechanism": "rr", "ratio": ["2", "3"], "relations": ["zheng2025.thm3"]})
>>> [(c, [r["eps_d"] for r in rows]) for c, rows in sweep(spec, chunk_size=1, workers=0)]
[(0, ['ln(2)']), (1, ['ln(3)'])]
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from relations._json import read_json
from relations._processes import sigint_blocked
from relations.errors import InputError, RelationsError
from relations.sweeps._spec import SweepSpec, parse_spec

__all__ = ["DEFAULT_CHUNK_SIZE", "MAX_CHUNKS", "MEASURE_COLUMNS", "STATUS_PREFIX", "default_chunk_size", "chunk_count",
           "chunk_bounds",
           "evaluate_point", "evaluate_chunk", "connect", "sweep"]

#: Points per chunk unless told otherwise (:func:`default_chunk_size`).
DEFAULT_CHUNK_SIZE = 64
#: Most chunks of one sweep (chunk files are numbered with five digits).
MAX_CHUNKS = 100_000
#: The measure columns of a row, after the parameters (``eps_m_lower``/``eps_m_upper``: enclosure ends).
MEASURE_COLUMNS = ("eps_i", "eps_i_value", "eps_d", "eps_d_value", "sigma_min", "sigma_min_value",
                   "eps_m_lower", "eps_m_upper", "eps_m_value")
#: A relation's status column is ``STATUS_PREFIX + id``.
STATUS_PREFIX = "status:"
#: Seconds between polls of a Dask cluster for finished chunks (and for a Ctrl-C).
POLL_SECONDS = 0.05


def default_chunk_size(spec: SweepSpec) -> int:
    """:data:`DEFAULT_CHUNK_SIZE`, or for a family up to relabelling as many members as hold that many
    representatives on average (and at least enough for :data:`MAX_CHUNKS` chunks).

    Examples
    --------
    >>> from relations.sweeps._spec import parse_spec
    >>> s = parse_spec({"exhaustive": {"inputs": 3, "outputs": 3, "denominator": 3, "prior": "uniform",
    ...                                "symmetry": "relabel"}})
    >>> s.members, s.count, default_chunk_size(s)
    (2197, 90, 1536)
    """
    if spec.members is None:
        return DEFAULT_CHUNK_SIZE
    return max(DEFAULT_CHUNK_SIZE * max(1, spec.members // spec.count), -(-spec.members // MAX_CHUNKS))


def chunk_count(spec: SweepSpec, chunk_size: int) -> int:
    """The number of chunks of ``chunk_size`` points (at most :data:`MAX_CHUNKS`); for a family up to
    relabelling, ``chunk_size`` counts members, of which only the representatives are evaluated.

    Raises
    ------
    InputError
        For a chunk size below 1 or more than :data:`MAX_CHUNKS` chunks.

    Examples
    --------
    >>> from relations.sweeps._spec import parse_spec
    >>> chunk_count(parse_spec({"mechanism": "krr", "k": [2, 3, 4], "ratio": "2"}), 2)
    2
    """
    if not isinstance(chunk_size, int) or chunk_size < 1:
        raise InputError(f"--chunk-size: expected a whole number >= 1, got {chunk_size!r}")
    n = -(-spec.span // chunk_size)
    if n > MAX_CHUNKS:
        raise InputError(f"--chunk-size {chunk_size}: {n} chunks of {spec.span} points, more than the limit of "
                         f"{MAX_CHUNKS}; use a chunk size of at least {-(-spec.span // MAX_CHUNKS)}")
    return n


def chunk_bounds(spec: SweepSpec, chunk_size: int, chunk: int) -> tuple[int, int]:
    """The points ``[start, stop)`` of chunk number ``chunk``."""
    start = chunk * chunk_size
    return start, min(spec.span, start + chunk_size)


def evaluate_point(spec: SweepSpec, index: int) -> dict[str, Any]:
    """One row: the parameters of point ``index``, its measures and each relation's status.

    Examples
    --------
    >>> from relations.sweeps._spec import parse_spec
    >>> spec = parse_spec({"mechanism": "krr", "k": 3, "ratio": "2", "relations": ["zheng2025.thm3"]})
    >>> row = evaluate_point(spec, 0)
    >>> row["eps_d"], row["sigma_min"], row["status:zheng2025.thm3"]
    ('ln(2)', '0', 'holds')
    """
    from relations.catalogue import BY_ID
    from relations.checking._checker import check

    point = spec.point(index)
    row: dict[str, Any] = {"index": index, **point, "error": None}
    empty = {c: None for c in MEASURE_COLUMNS} | {STATUS_PREFIX + r: None for r in spec.relations}
    try:
        mech = spec.build(point)
        report = check(mech, relations=[BY_ID[r] for r in spec.relations])
    except RelationsError as exc:
        return row | empty | {"error": str(exc)}
    m = report.values.measures
    for name in ("eps_i", "eps_d", "sigma_min"):
        budget = getattr(m, name)
        row[name] = str(budget.exact) if budget.exact is not None else None
        row[name + "_value"] = float(budget.value)
    enc = m.eps_m.enclosure
    row["eps_m_lower"] = str(enc.lower) if enc is not None else None
    row["eps_m_upper"] = str(enc.upper) if enc is not None else None
    row["eps_m_value"] = float(m.eps_m.value)
    for outcome in report.outcomes:
        row[STATUS_PREFIX + outcome.relation.id] = str(outcome.status)
    return row


@lru_cache(maxsize=4)
def _spec(text: str) -> SweepSpec:
    return parse_spec(read_json(text, source="sweep spec"))


def evaluate_chunk(spec_data: dict | str, chunk_size: int, chunk: int) -> list[dict[str, Any]]:
    """The rows of chunk number ``chunk``: what a worker process or a Dask worker runs.

    Parameters
    ----------
    spec_data : dict or str
        The normalised specification (:attr:`SweepSpec.data`), or its JSON text.
    chunk_size, chunk : int
        The chunk layout and the chunk's number.

    Returns
    -------
    list of dict
        One row per point (:func:`evaluate_point`), in point order; for a family up to relabelling, one per
        representative, with ``orbit``: how many members it stands for.
    """
    spec = _spec(spec_data if isinstance(spec_data, str) else json.dumps(spec_data, sort_keys=True))
    start, stop = chunk_bounds(spec, chunk_size, chunk)
    with _ONE_CHUNK_AT_A_TIME:  # python-flint's working precision is one per process, not per thread
        if spec.members is None:
            return [evaluate_point(spec, i) for i in range(start, stop)]
        indices, orbits = spec.representatives(start, stop)
        return [evaluate_point(spec, int(i)) | {"orbit": int(o)} for i, o in zip(indices, orbits)]


#: Chunks evaluated by threads of one process (a Dask cluster of threads) take turns: ball arithmetic's
#: working precision (``flint.ctx.prec``) is global to the process, so two chunks at once would compute each
#: other's enclosures at the wrong precision, and the rows would depend on the timing.  Worker processes each
#: have their own.
_ONE_CHUNK_AT_A_TIME = threading.Lock()


def _quiet_worker(parent: int | None = None) -> None:
    """A sweep worker's start: Ctrl-C is the parent's to handle (it stops the workers), and the worker dies
    with the process ``parent`` that started the pool, even when that one is killed by SIGKILL."""
    from relations._processes import die_with_parent, release_sigint, watch_parent

    release_sigint(ignore=True)  # blocked since before the fork (_local_pool): ignored from now on
    if parent is not None:
        direct = os.getppid() == parent  # not so under a fork server
        if not die_with_parent(parent if direct else None) or not direct:
            watch_parent(pid=parent)


def _local_pool(text: str, chunk_size: int, todo: list[int], workers: int) -> Iterator[tuple[int, list]]:
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_quiet_worker, initargs=(os.getpid(),))
    pending: dict = {}
    queue = list(reversed(todo))
    try:
        while queue or pending:
            while queue and len(pending) < 2 * workers:
                c = queue.pop()
                with sigint_blocked():  # a submit may start workers: see _quiet_worker
                    pending[pool.submit(evaluate_chunk, text, chunk_size, c)] = c
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in sorted(done, key=pending.__getitem__):  # each one is pending
                yield pending.pop(f), f.result()
    finally:
        if pending or queue:  # interrupted or failed: stop the workers now rather than after their chunks
            for proc in list(getattr(pool, "_processes", {}).values()):
                proc.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


def connect(scheduler: str, *, timeout: float = 30) -> Any:
    """A ``distributed.Client`` of the Dask scheduler at ``scheduler`` (``tcp://host:8786``).

    Raises
    ------
    InputError
        When dask.distributed is missing or the scheduler cannot be reached within ``timeout`` seconds.
    """
    try:
        from distributed import Client
    except ImportError:
        from relations._install import install_hint

        raise InputError("--scheduler needs dask.distributed, in the sweep extra: "
                         + install_hint("sweep", only=["dask[distributed]"])) from None
    try:
        return Client(scheduler, timeout=timeout)
    except Exception as exc:
        raise InputError(f"--scheduler {scheduler}: cannot connect ({exc})") from None


@contextmanager
def _deferred_interrupt() -> Iterator[Callable[[], bool]]:
    """While open, Ctrl-C (SIGINT) only sets a flag, read by calling the yielded function; the caller raises
    ``KeyboardInterrupt`` where it is safe.  A ``KeyboardInterrupt`` raised inside a blocking
    ``distributed`` call can reach its event-loop thread before that call has started, where distributed
    2026.8 logs a ``NameError`` traceback to stderr.  Outside the main thread signals cannot be set and
    nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    caught: list[int] = []
    def note(signum: int, frame: Any) -> None:
        from relations._processes import silence_stderr

        silence_stderr()  # from here on, only the command's own last line (see relations._processes)
        caught.append(signum)

    previous = signal.signal(signal.SIGINT, note)
    try:
        yield lambda: bool(caught)
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler if previous is None else previous)


def _dask(text: str, chunk_size: int, todo: list[int], scheduler: Any) -> Iterator[tuple[int, list]]:
    from distributed import as_completed

    with _deferred_interrupt() as interrupted:
        own = isinstance(scheduler, str)
        client = connect(scheduler) if own else scheduler
        futures = {client.submit(evaluate_chunk, text, chunk_size, c, pure=False): c for c in todo}
        try:
            finished = as_completed(list(futures))
            while not interrupted() and not finished.is_empty():
                batch = finished.next_batch(block=False)
                if not batch:
                    time.sleep(POLL_SECONDS)  # resumed after a SIGINT (PEP 475): at most this late to notice
                for f in batch:
                    yield futures[f], f.result()
                    if interrupted():
                        break
            if interrupted():
                raise KeyboardInterrupt
        finally:
            client.cancel([f for f in futures if not f.done()])
            if own:
                client.close()


def sweep(spec: SweepSpec, *, chunk_size: int | None = None, workers: int | None = None,
          scheduler: Any = None, skip: Iterable[int] = (),
          progress: Callable[[int], None] | None = None) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """Evaluate a sweep chunk by chunk, yielding ``(chunk, rows)`` as each chunk finishes.

    Parameters
    ----------
    spec : SweepSpec
        The sweep (:func:`~relations.sweeps._spec.parse_spec`).
    chunk_size : int, optional
        Points per chunk (default: :func:`default_chunk_size`).
    workers : int, optional
        Local worker processes (default: one per core); 0 evaluates in this process, in chunk order.
    scheduler : str or distributed.Client, optional
        A Dask scheduler address (``tcp://host:8786``) or a client: the chunks run on that cluster (its
        workers need ``relations`` installed); ``workers`` is then ignored.
    skip : iterable of int, optional
        Chunks already done (a resumed sweep): not evaluated.
    progress : callable, optional
        Called with the number of points of each chunk as it finishes.

    Yields
    ------
    tuple of (int, list of dict)
        The chunk's number and its rows (:func:`evaluate_point`), in order of completion.

    Raises
    ------
    InputError
        A bad chunk size or number of workers, or a scheduler that cannot be reached.

    Examples
    --------
    >>> from relations.sweeps._spec import parse_spec
    >>> spec = parse_spec({"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 1},
    ...                    "relations": ["relations.thm4_corrected"]})
    >>> [[r["status:relations.thm4_corrected"] for r in rows] for _, rows in sweep(spec, workers=0)]
    [['holds', 'holds', 'holds', 'holds', 'holds', 'holds', 'holds', 'holds']]
    """
    chunk_size = default_chunk_size(spec) if chunk_size is None else chunk_size
    n = chunk_count(spec, chunk_size)
    done = set(skip)
    todo = [c for c in range(n) if c not in done]
    if workers is None:
        workers = os.cpu_count() or 1
    if not isinstance(workers, int) or not 0 <= workers <= 256:
        raise InputError(f"--workers: {workers!r} out of range 0..256")
    text = json.dumps(spec.data, sort_keys=True)
    if scheduler is not None:
        chunks = _dask(text, chunk_size, todo, scheduler)
    elif workers == 0 or len(todo) <= 1:
        chunks = ((c, evaluate_chunk(text, chunk_size, c)) for c in todo)
    else:
        chunks = _local_pool(text, chunk_size, todo, min(workers, len(todo)))
    try:
        for c, rows in chunks:
            if progress is not None:
                progress(len(rows))
            yield c, rows
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()
