"""Where an audit's jobs run: in worker processes (any interpreter), or on a Dask cluster.

Every job is answered by :func:`relations.audit._worker.run_job`; only where it runs
changes.  The randomizer never runs in this process: its prints, its exit and its exceptions
become answers (``{"ok": False, "kind": "exit" | "limit" | "error", ...}``), never this
process's output or exit status, and the limits of time, memory and output (:data:`CALL_SECONDS`,
:data:`TOTAL_SECONDS`, :data:`MEMORY_MB`, :data:`MAX_PRINTED`) hold.  Worker processes run ``_worker.py`` under ``python`` (the tool's own interpreter
by default, or ``--python PATH``: one with the randomizer's libraries, pinned to whatever
numpy they need); each keeps the loaded randomizer between jobs.  A Dask scheduler address
sends the jobs to that cluster (its workers need ``relations`` and the randomizer's
libraries installed).  Jobs are seeded by their own content, so results do not depend on
where they ran or in which order.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from relations.errors import InputError

__all__ = ["WORKER", "MAX_WORKERS", "CALL_SECONDS", "TOTAL_SECONDS", "MEMORY_MB", "MAX_PRINTED", "MAX_ANSWER", "Pool",
           "run_bounded"]

#: The worker script run by worker processes.
WORKER = Path(__file__).with_name("_worker.py")
#: Most worker processes one audit may start.
MAX_WORKERS = 256


#: Limits of code under audit (documented in docs/auditing.md, "Limits"): wall time of one call of the
#: randomizer (``--call-timeout``), of the whole audit (``--timeout``), and the address space of one worker
#: process in MiB (``--memory``; 0 for none).
CALL_SECONDS = 30.0
TOTAL_SECONDS = 3600.0
MEMORY_MB = 4096
#: Most bytes the randomizer (and an ``--python`` wrapper) may print, per worker process, and most bytes of
#: one answer of a worker; the prints are never shown, only their last lines when the worker fails.
MAX_PRINTED = 64 * 2**20
MAX_ANSWER = 256 * 2**20


class _Process:
    """One worker process speaking the line protocol of :mod:`relations.audit._worker` on pipes of its own.

    Its standard output and error (the randomizer's prints) are read and dropped, the last lines kept for
    error messages.  It dies with this process (:mod:`relations._processes`)."""

    def __init__(self, python: str, *, call_seconds: float = CALL_SECONDS, memory_mb: int = MEMORY_MB):
        from relations._processes import PARENT_VARIABLE, WATCH_VARIABLE, parent_watch_fds
        from relations.audit._worker import (
            ANSWER_VARIABLE,
            ANSWERS_VARIABLE,
            CALL_VARIABLE,
            JOBS_VARIABLE,
            MEMORY_VARIABLE,
        )

        jobs_r, self._jobs = os.pipe()
        self._answers, answers_w = os.pipe()
        watch_r, self._watch = parent_watch_fds()
        for fd in (jobs_r, answers_w):
            os.set_inheritable(fd, True)
        env = dict(os.environ, PYTHONHASHSEED="0", PYTHONUNBUFFERED="1")
        env.update({JOBS_VARIABLE: str(jobs_r), ANSWERS_VARIABLE: str(answers_w), WATCH_VARIABLE: str(watch_r),
                    PARENT_VARIABLE: str(os.getpid()), CALL_VARIABLE: repr(float(call_seconds)),
                    MEMORY_VARIABLE: str(int(memory_mb)) if memory_mb else "", ANSWER_VARIABLE: str(MAX_ANSWER)})
        for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):  # one core per worker
            env.setdefault(name, "1")
        self.call_seconds, self.memory_mb = call_seconds, memory_mb
        try:
            self.proc = subprocess.Popen([python, str(WORKER)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, env=env, pass_fds=(jobs_r, answers_w, watch_r))
        except OSError as exc:
            for fd in (jobs_r, answers_w, watch_r, self._jobs, self._answers, self._watch):
                os.close(fd)
            raise InputError(f"--python {python}: cannot run it ({exc.strerror or exc})") from None
        for fd in (jobs_r, answers_w, watch_r):
            os.close(fd)
        self.tail: collections.deque[str] = collections.deque(maxlen=20)
        self.printed = 0
        self._buffer = bytearray()
        self._searched = 0  # bytes of the buffer known to hold no end of line
        for stream in (self.proc.stdout, self.proc.stderr):
            threading.Thread(target=self._drain, args=(stream,), daemon=True).start()

    def _drain(self, stream: Any) -> None:
        """Read the worker's prints, keep the last lines, stop it past :data:`MAX_PRINTED` bytes."""
        for raw in iter(lambda: stream.readline(4096), b""):
            self.printed += len(raw)
            line = raw.decode("utf-8", "replace").rstrip()
            if line:
                self.tail.append(line[:300])
            if self.printed > MAX_PRINTED and self.proc.poll() is None:
                from relations._processes import end_tree

                end_tree(self.proc.pid)

    def _line(self, deadline: float | None) -> bytes | None:
        """The next answer line, ``b""`` at end of file, ``None`` past ``deadline``."""
        import select
        import time

        while (end := self._buffer.find(b"\n", self._searched)) < 0:
            self._searched = len(self._buffer)
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                return None
            ready, _, _ = select.select([self._answers], [], [], wait)
            if not ready:
                return None
            chunk = os.read(self._answers, 1 << 20)
            if not chunk:
                return b""
            self._buffer += chunk  # a bytearray grows in place: reading an answer is linear in its size
            if len(self._buffer) > MAX_ANSWER + 1:  # the worker bounds its answers; this one does not follow
                self.kill()
                return b""
        line = bytes(self._buffer[:end])
        del self._buffer[:end + 1]
        self._searched = 0
        return line

    def ask(self, job: dict, deadline: float | None = None, total: float | None = None) -> dict:
        """The worker's answer to ``job``; past ``deadline`` (``time.monotonic()``), the worker is stopped and the
        answer says that the audit exceeded its time limit of ``total`` seconds."""
        try:
            os.write(self._jobs, (json.dumps(job) + "\n").encode())
            line = self._line(deadline)
        except OSError:
            line = b""
        if line is None:
            self.kill()
            return {"ok": False, "kind": "limit",
                    "message": f"the audit exceeded the time limit of {total:g} s (--timeout)"}
        if not line:
            return self._stopped()
        try:
            return json.loads(line)
        except ValueError:
            return {"ok": False, "kind": "input", "message": "the worker process answered out of protocol"}

    def _stopped(self) -> dict:
        """The answer when the worker process ended without one: its status and its last printed lines."""
        import signal

        try:
            code = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.proc.returncode
        if self.printed > MAX_PRINTED:
            size = f"{MAX_PRINTED // 2**20} MiB" if MAX_PRINTED % 2**20 == 0 else f"{MAX_PRINTED} bytes"
            why = f"the randomizer printed more than {size} (the limit of its output)"
        elif code is not None and code < 0:
            name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
            why = f"the worker process was killed by {name}" + (
                f" (the memory limit is {self.memory_mb} MiB, --memory)" if self.memory_mb and
                -code in (signal.SIGKILL, signal.SIGSEGV, signal.SIGABRT) else "")
        else:
            why = f"the randomizer ended the worker process (os._exit or a crash; exit status {code})"
        tail = " | ".join(list(self.tail)[-3:])
        return {"ok": False, "kind": "exit", "message": why + (f"; its last output: {tail}" if tail else "")}

    def kill(self) -> None:
        """Stop the worker process now, with every process the randomizer started
        (:func:`~relations._processes.end_tree`)."""
        from relations._processes import end_tree

        if self.proc.poll() is None:
            end_tree(self.proc.pid)
        self.proc.wait()

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                os.close(self._jobs)
                self._jobs = -1
                self.proc.wait(timeout=5)
            except Exception:
                self.kill()
        for fd in (self._jobs, self._answers, self._watch):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._jobs = self._answers = self._watch = -1


class Pool:
    """Runs audit jobs (:meth:`map`) in worker processes: the randomizer never runs in this process.

    Parameters
    ----------
    python : str, optional
        Interpreter for worker processes (default: this one).
    workers : int, optional
        Worker processes; 0 is one worker process, without a pool.
    scheduler : str, optional
        A Dask scheduler address (``tcp://host:8786``) or a ``distributed.Client``.
    timeout : float, optional
        Seconds the jobs of this pool may take in all (:data:`TOTAL_SECONDS`; ``None``: no limit).
    call_seconds : float, optional
        Seconds one call of the randomizer may take (:data:`CALL_SECONDS`; 0: no limit).
    memory_mb : int, optional
        Address space of a worker process, in MiB (:data:`MEMORY_MB`; 0: no limit).

    Raises
    ------
    InputError
        For ``workers`` beyond :data:`MAX_WORKERS`, ``python`` with ``scheduler`` (a cluster runs its own
        interpreter), or a scheduler that cannot be reached.

    Examples
    --------
    >>> with Pool(workers=0) as pool:
    ...     pool.map([{"task": "describe", "target": "nowhere"}])[0]["ok"]
    False
    """

    def __init__(self, *, python: str | None = None, workers: int = 0, scheduler: Any = None,
                 timeout: float | None = TOTAL_SECONDS, call_seconds: float = CALL_SECONDS,
                 memory_mb: int = MEMORY_MB):
        if not 0 <= workers <= MAX_WORKERS:
            raise InputError(f"--workers: {workers} out of range 0..{MAX_WORKERS}")
        if python is not None and scheduler is not None:
            raise InputError("--python and --scheduler cannot be combined (a cluster runs its own interpreter)")
        self.python = python or sys.executable
        self.workers = max(1, workers)
        self.timeout, self.call_seconds, self.memory_mb = timeout, call_seconds, memory_mb
        self._deadline = None if timeout is None else time.monotonic() + timeout
        self.client = None
        self._own_client = isinstance(scheduler, str)
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

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, kind: Any, *exc: Any) -> None:
        if kind is not None:  # an error or a Ctrl-C: the workers may be busy, stop them now
            for p in self._procs:
                p.kill()
        self.close()

    def close(self) -> None:
        """Stop the worker processes (and close the Dask client this pool connected)."""
        for p in self._procs:
            p.close()
        self._procs = []
        if self._own_client and self.client is not None:
            with contextlib.suppress(Exception):
                self.client.close()
            self.client = None

    def _map_on_cluster(self, jobs: list[dict], progress: Callable[[int], None] | None) -> list[dict]:
        """:meth:`map` on a Dask cluster: each job in a worker process of its own on a Dask worker
        (:func:`run_bounded`), within the same limits; the whole audit's time limit is watched here."""
        assert self.client is not None
        left = None if self._deadline is None else max(0.0, self._deadline - time.monotonic())
        futures = self.client.map(run_bounded, jobs, call_seconds=self.call_seconds, memory_mb=self.memory_mb,
                                  seconds=left, total=self.timeout, pure=False)
        out = []
        try:
            for f in futures:
                wait = None if self._deadline is None else max(0.0, self._deadline - time.monotonic()) + 5.0
                try:
                    answer = f.result(timeout=wait)
                except TimeoutError:
                    answer = {"ok": False, "kind": "limit",
                              "message": f"the audit exceeded the time limit of {self.timeout:g} s (--timeout)"}
                if answer.get("kind") in ("limit", "exit"):  # the audit ends here, as with local workers
                    return [answer] * len(jobs)
                out.append(answer)
                if progress:
                    progress(1)
        finally:
            self.client.cancel([f for f in futures if not f.done()])
        return out

    def map(self, jobs: Sequence[dict], *, progress: Callable[[int], None] | None = None) -> list[dict]:
        """Answers to ``jobs``, in order; ``progress(n)`` is called as each job is answered.  After an answer
        that ends the audit (a limit hit, the randomizer's exit), the jobs not started are not run."""
        jobs = list(jobs)
        if self.client is not None:
            return self._map_on_cluster(jobs, progress)
        self._procs = [p for p in self._procs if p.proc.poll() is None]
        while len(self._procs) < min(self.workers, len(jobs)):
            self._procs.append(_Process(self.python, call_seconds=self.call_seconds, memory_mb=self.memory_mb))
        answers: list[dict | None] = [None] * len(jobs)
        todo: queue.Queue = queue.Queue()
        for i, job in enumerate(jobs):
            todo.put((i, job))
        lock = threading.Lock()
        final: list[dict] = []

        def serve(proc: _Process) -> None:
            while not final:
                try:
                    i, job = todo.get_nowait()
                except queue.Empty:
                    return
                answer = proc.ask(job, self._deadline, self.timeout)
                answers[i] = answer
                if answer.get("kind") in ("limit", "exit"):
                    with lock:
                        final.append(answer)
                    for other in self._procs:  # the audit ends here: busy workers are not waited for
                        if other is not proc:
                            other.kill()
                    return
                if progress:
                    with lock:
                        progress(1)
        if len(self._procs) == 1:
            serve(self._procs[0])
        else:
            threads = [threading.Thread(target=serve, args=(p,), daemon=True) for p in self._procs]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        if final:  # the first answer that ended the audit is its outcome, whatever the stopped workers said
            return [final[0]] * len(jobs)
        return [a if a is not None else {"ok": False, "kind": "input", "message": "no answer"} for a in answers]


def run_bounded(job: dict, *, call_seconds: float = CALL_SECONDS, memory_mb: int = MEMORY_MB,
                seconds: float | None = TOTAL_SECONDS, total: float | None = None) -> dict:
    """The answer to ``job`` from a worker process of its own, started here with this interpreter, within the
    limits (as :class:`Pool`'s local workers): what a Dask worker runs for each job of an audit, so that the
    randomizer's prints, exit, endless calls and memory stay in that process, not the Dask worker's.
    ``seconds`` is the time the audit has left; ``total``, its whole time limit, named if it is hit.

    Examples
    --------
    >>> run_bounded({"task": "describe", "target": "nowhere"})["ok"]
    False
    """
    proc = _Process(sys.executable, call_seconds=call_seconds, memory_mb=memory_mb)
    try:
        return proc.ask(job, None if seconds is None else time.monotonic() + seconds, seconds if total is None else total)
    finally:
        proc.kill()
        proc.close()
