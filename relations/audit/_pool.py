"""Where an audit's jobs run: in this process, in worker processes (any interpreter), or on a Dask cluster.

Every job is answered by :func:`relations.audit._worker.run_job`; only where it runs
changes.  Worker processes run ``_worker.py`` under ``python`` (the tool's own interpreter
by default, or ``--python PATH``: one with the randomizer's libraries, pinned to whatever
numpy they need); each keeps the loaded randomizer between jobs.  A Dask scheduler address
sends the jobs to that cluster (its workers need ``relations`` and the randomizer's
libraries installed).  Jobs are seeded by their own content, so results do not depend on
where they ran or in which order.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from relations.audit._worker import run_job
from relations.errors import InputError

__all__ = ["WORKER", "MAX_WORKERS", "Pool"]

#: The worker script run by worker processes.
WORKER = Path(__file__).with_name("_worker.py")
#: Most worker processes one audit may start.
MAX_WORKERS = 256


class _Process:
    """One worker process speaking the line protocol of :mod:`relations.audit._worker`."""

    def __init__(self, python: str):
        env = dict(os.environ, PYTHONHASHSEED="0", PYTHONUNBUFFERED="1")
        try:
            self.proc = subprocess.Popen([python, str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, env=env)
        except OSError as exc:
            raise InputError(f"--python {python}: cannot run it ({exc.strerror or exc})") from None
        self.stderr: list[str] = []
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr = (self.stderr + [line.rstrip()])[-20:]

    def ask(self, job: dict) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(json.dumps(job) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            self.proc.wait(timeout=10)
            tail = " | ".join(self.stderr[-3:]) or "no message"
            return {"ok": False, "kind": "input", "message": f"the worker process stopped ({tail})"}
        return json.loads(line)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except Exception:
                self.proc.kill()


class Pool:
    """Runs audit jobs (:meth:`map`).

    Parameters
    ----------
    python : str, optional
        Interpreter for worker processes (default: this one).
    workers : int, optional
        Worker processes; 0 runs the jobs in this process.
    scheduler : str, optional
        A Dask scheduler address (``tcp://host:8786``) or a ``distributed.Client``.

    Raises
    ------
    InputError
        For a number of workers out of range, or a scheduler that cannot be reached.

    Examples
    --------
    >>> with Pool(workers=0) as pool:
    ...     pool.map([{"task": "describe", "target": "nowhere"}])[0]["ok"]
    False
    """

    def __init__(self, *, python: str | None = None, workers: int = 0, scheduler: Any = None):
        if not 0 <= workers <= MAX_WORKERS:
            raise InputError(f"--workers: {workers} out of range 0..{MAX_WORKERS}")
        if python is not None and scheduler is not None:
            raise InputError("--python and --scheduler cannot be combined (a cluster runs its own interpreter)")
        self.python = python or sys.executable
        self.workers = max(1, workers) if python is not None else workers
        self.client = None
        if scheduler is not None:
            if isinstance(scheduler, str):
                try:
                    from distributed import Client
                except ImportError:
                    from relations._install import install_hint

                    raise InputError("--scheduler needs dask.distributed, in the audit extra: "
                                     + install_hint("audit", only=["dask[distributed]"])) from None
                try:
                    self.client = Client(scheduler, timeout=30)
                except Exception as exc:
                    raise InputError(f"--scheduler {scheduler}: cannot connect ({exc})") from None
            else:
                self.client = scheduler
        self._procs: list[_Process] = []
        self._cache: dict = {}

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Stop the worker processes."""
        for p in self._procs:
            p.close()
        self._procs = []

    def map(self, jobs: Sequence[dict], *, progress: Callable[[int], None] | None = None) -> list[dict]:
        """Answers to ``jobs``, in order; ``progress(n)`` is called as each job is answered."""
        jobs = list(jobs)
        if self.client is not None:
            futures = self.client.map(run_job, jobs, pure=False)
            out = []
            for f in futures:
                out.append(f.result())
                if progress:
                    progress(1)
            return out
        if self.workers == 0:
            out = []
            for job in jobs:
                out.append(run_job(job, self._cache))
                if progress:
                    progress(1)
            return out
        while len(self._procs) < min(self.workers, len(jobs)):
            self._procs.append(_Process(self.python))
        answers: list[dict | None] = [None] * len(jobs)
        todo: queue.Queue = queue.Queue()
        for i, job in enumerate(jobs):
            todo.put((i, job))
        lock = threading.Lock()

        def serve(proc: _Process) -> None:
            while True:
                try:
                    i, job = todo.get_nowait()
                except queue.Empty:
                    return
                answer = proc.ask(job)
                answers[i] = answer
                if progress:
                    with lock:
                        progress(1)
        threads = [threading.Thread(target=serve, args=(p,), daemon=True) for p in self._procs]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return [a if a is not None else {"ok": False, "kind": "input", "message": "no answer"} for a in answers]
