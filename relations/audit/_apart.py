"""A function object's audit, apart: the randomizer runs in a forked child process, within bounds.

:func:`~relations.audit.audit` is given a function object (a closure, a lambda, a function defined in a
notebook or a test), which cannot be sent to a worker interpreter as ``MODULE:FUNCTION`` is.  So
:func:`run_apart` forks: the child process starts with the caller's memory, the function included, runs
every part of the audit that calls the randomizer (enumeration, deepening, sampling) and sends the result
back, pickled.  What the randomizer does stays in the child, as in the command line's workers
(:mod:`relations.audit._pool`):

* its prints (standard output and error, file descriptors 1 and 2) are read and dropped, the last lines
  quoted if the child fails; past :data:`~relations.audit._pool.MAX_PRINTED` bytes the child is stopped;
  its standard input is ``/dev/null``, not the caller's;
* its ``sys.exit(N)``, ``os._exit(N)``, a crash, ``KeyboardInterrupt`` or an exception of its own is one
  :class:`~relations.errors.InputError`, never the caller's exit or the randomizer's exception;
* the limits: one call of the randomizer (``call_seconds``), the whole of the child's work (``timeout``)
  and the memory the child may add to the address space it inherits (``memory_mb``, ``RLIMIT_AS``).

The child dies with the caller, even by SIGKILL (:mod:`relations._processes`), and ignores Ctrl-C: the
caller stops it.  It keeps the processes the randomizer starts (daemons that double-fork and call
``setsid()`` included) and ends them with itself (:func:`~relations._processes.keep_descendants`).  Where ``os.fork`` does not exist (Windows), the work runs in the caller's process,
without these bounds.
"""

from __future__ import annotations

import collections
import contextlib
import os
import pickle
import signal
import struct
import sys
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

from relations.errors import InputError, RelationsError

__all__ = ["FORK", "run_apart"]

T = TypeVar("T")

#: Whether function objects are audited in a forked child (``os.fork`` exists: Linux, macOS, the BSDs).
FORK = hasattr(os, "fork")
_HEADER = struct.Struct(">Q")


def _limit_memory(megabytes: int) -> None:
    """``RLIMIT_AS`` of this process: what it holds now plus ``megabytes`` MiB (where the platform has it)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            held = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):  # no /proc: the limit is the whole address space
        held = 0
    try:
        import resource

        cap = held + megabytes * 2**20
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
    except (ImportError, ValueError, OSError):
        pass


def _portable(exc: BaseException) -> tuple:
    """How the child reports an exception: the package's own errors (``NotEnumerable``, ``InputError``) as
    themselves, pickled, when they survive pickling; anything else is the randomizer's, reported in one line."""
    from relations.audit._enumerate import NotEnumerable

    if isinstance(exc, (NotEnumerable, RelationsError)):
        try:
            data = pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL)
            back = pickle.loads(data)
            if type(back) is type(exc) and str(back) == str(exc):
                return ("raise", data)
        except Exception:  # noqa: S110 - told below as a plain error of its kind
            pass
        if isinstance(exc, NotEnumerable):
            return ("not-enumerable", str(exc), getattr(exc, "interval", None))
        return ("input", str(exc))
    if isinstance(exc, MemoryError):
        return ("memory", "")
    from relations.audit._worker import AnswerTooLarge

    if isinstance(exc, AnswerTooLarge):
        return ("input", str(exc))
    if isinstance(exc, Exception):
        text = " ".join(str(exc).split())
        text = text if len(text) <= 500 else text[:500] + "..."
        return ("input", f"the randomizer failed: {type(exc).__name__}: {text}")
    if isinstance(exc, SystemExit):
        return ("input", f"the randomizer called sys.exit({exc.code!r})")
    return ("input", f"the randomizer raised {type(exc).__name__}")


class _TooLarge(Exception):
    pass


class _Bounded:
    """A file for ``pickle`` that keeps what it is given, up to ``limit`` bytes (past it, :class:`_TooLarge`)."""

    def __init__(self, limit: int):
        self.parts: list[bytes] = []
        self.size, self.limit = 0, limit

    def write(self, data: Any) -> int:
        self.size += len(data)
        if self.size > self.limit:
            raise _TooLarge
        self.parts.append(bytes(data))
        return len(data)


def _child(work: Callable[[], Any], answers: int, printed: int, parent: int, call_seconds: float,
           memory_mb: int, limit: int) -> None:
    """The child's side: never returns (``os._exit``), whatever ``work`` does."""
    try:
        from relations._processes import die_with_parent, keep_descendants, release_sigint

        release_sigint(ignore=True)  # blocked since before the fork: the caller handles Ctrl-C, stops the child
        die_with_parent(parent)
        keep_descendants()  # the work runs in a child of this one, which ends every process the randomizer starts
        if "faulthandler" in sys.modules:  # its dumps go to a descriptor of the caller's (pytest's stderr)
            sys.modules["faulthandler"].disable()
        null = os.open(os.devnull, os.O_RDONLY)  # the caller's standard input is not the randomizer's
        os.dup2(null, 0)
        os.close(null)
        os.dup2(printed, 1)
        os.dup2(printed, 2)
        os.close(printed)
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", 1, "utf-8", "backslashreplace", closefd=False)  # noqa: SIM115 - line-buffered
        sys.stderr = open(2, "w", 1, "utf-8", "backslashreplace", closefd=False)  # noqa: SIM115
        lock = threading.Lock()
        from relations.audit._worker import _ANSWER

        _ANSWER[0] = limit  # an output of the randomizer larger than the limit of one answer ends the work

        def say(answer: tuple) -> None:
            sink = _Bounded(limit)  # the answer is given up as soon as it passes the limit, not made whole first
            try:
                pickle.Pickler(sink, protocol=pickle.HIGHEST_PROTOCOL).dump(answer)
                data = b"".join(sink.parts)
            except _TooLarge:
                del sink
                size = f"{limit // 2**20} MiB" if limit % 2**20 == 0 else f"{limit} bytes"
                data = pickle.dumps(("input", f"the audit's result is larger than {size} (the limit of one answer)"))
            with lock:
                view = memoryview(_HEADER.pack(len(data)) + data)
                while view:
                    view = view[os.write(answers, view):]

        if memory_mb:
            _limit_memory(memory_mb)
        if call_seconds and call_seconds > 0:
            from relations.audit._worker import _CLOCK

            def watch() -> None:
                while True:
                    time.sleep(min(0.1, call_seconds / 4))
                    started = _CLOCK[0]
                    if started is not None and time.monotonic() - started > call_seconds:
                        with contextlib.suppress(BaseException):
                            say(("input", "one call of the randomizer exceeded the time limit of "
                                          f"{call_seconds:g} s (call_seconds)"))
                        os._exit(3)

            threading.Thread(target=watch, daemon=True, name="relations-watchdog").start()
        try:
            answer: tuple = ("ok", work())
        except BaseException as exc:  # the randomizer's exit and exceptions are answers, never the caller's
            answer = _portable(exc)
        try:
            say(answer)
        except MemoryError:
            say(("memory", ""))
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            say(("input", f"the audit's result could not be sent back from its child process ({exc})"))
    except BaseException:  # noqa: S110 - nothing reaches the caller's output from here; the parent reports it
        pass
    finally:
        os._exit(0)


def _drain(fd: int, tail: collections.deque, count: list[int], limit: int, pid: int) -> None:
    """Read the child's prints, keep the last lines, stop the child past ``limit`` bytes."""
    partial = b""
    with contextlib.suppress(OSError):
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            count[0] += len(chunk)
            lines = (partial + chunk).split(b"\n")
            partial = lines.pop()[-4096:]
            for raw in lines[-20:]:
                line = raw.decode("utf-8", "replace").rstrip()
                if line:
                    tail.append(line[:300])
            if count[0] > limit:
                from relations._processes import end_tree

                end_tree(pid)
                break
    if partial.strip():
        tail.append(partial.decode("utf-8", "replace").rstrip()[:300])
    os.close(fd)


def run_apart(work: Callable[[], T], *, timeout: float | None, call_seconds: float, memory_mb: int) -> T:
    """``work()``, run in a forked child process (:data:`FORK`), its result sent back pickled.

    Parameters
    ----------
    work : callable
        No arguments; its result must pickle.  It runs with the caller's memory as at the call.
    timeout : float or None
        Seconds the child may take in all (``None``: no limit).
    call_seconds : float
        Seconds one call of the randomizer may take (0: no limit); the calls are those timed by
        :mod:`relations.audit._worker` (``Target.call`` and its ``_timed`` wrapper).
    memory_mb : int
        MiB of address space the child may add to what it inherits (0: no limit).

    Returns
    -------
    Whatever ``work`` returns.

    Raises
    ------
    NotEnumerable, InputError
        The package's own errors raised by ``work``, as themselves.
    InputError
        For a limit hit (named), an exception, exit or crash of the randomizer, in one line.

    Examples
    --------
    >>> run_apart(lambda: sum(range(10)), timeout=60.0, call_seconds=0, memory_mb=0)
    45
    >>> def bye():
    ...     print("leaving")
    ...     raise SystemExit(3)
    >>> run_apart(bye, timeout=60.0, call_seconds=0, memory_mb=0)
    Traceback (most recent call last):
    relations.errors.InputError: the randomizer called sys.exit(3)
    """
    if not FORK:
        return work()
    from relations.audit._pool import MAX_ANSWER, MAX_PRINTED

    for stream in (sys.stdout, sys.stderr):  # nothing buffered here is written twice by the child
        with contextlib.suppress(Exception):
            stream.flush()
    answers_r, answers_w = os.pipe()
    printed_r, printed_w = os.pipe()
    parent = os.getpid()
    from relations._processes import sigint_blocked

    # Ctrl-C blocked across the fork: one that reached the child before it ignores SIGINT ran the caller's
    # handler there, in Python's at-fork handlers (a traceback on the shared stderr); the child releases it
    with sigint_blocked(), warnings.catch_warnings():  # Python 3.12+ warns on fork() with threads running
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child, still within the block; it ends in os._exit
            os.close(answers_r)
            os.close(printed_r)
            _child(work, answers_w, printed_w, parent, call_seconds, memory_mb, MAX_ANSWER)
    os.close(answers_w)
    os.close(printed_w)
    tail: collections.deque[str] = collections.deque(maxlen=20)
    count = [0]
    drain = threading.Thread(target=_drain, args=(printed_r, tail, count, MAX_PRINTED, pid), daemon=True)
    drain.start()
    deadline = None if timeout is None else time.monotonic() + timeout
    buffer = bytearray()
    status: int | None = None
    answer: tuple | None = None
    ended = False
    try:
        import select

        while True:
            size = _HEADER.unpack(buffer[:8])[0] if len(buffer) >= 8 else None
            if size is not None and len(buffer) >= 8 + size:
                answer = pickle.loads(bytes(buffer[8:8 + size]))
                break
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                raise InputError(f"the audit exceeded the time limit of {timeout:g} s (timeout)")
            ready, _, _ = select.select([answers_r], [], [], wait)
            if not ready:
                continue
            chunk = os.read(answers_r, 1 << 20)
            if not chunk:  # the child ended on its own: its keeper ends its descendants, then itself, as it did
                ended = True
                break
            buffer += chunk
            if len(buffer) > MAX_ANSWER + 8:
                raise InputError(f"the audit's result is larger than {MAX_ANSWER // 2**20} MiB")
    finally:
        os.close(answers_r)
        if answer is None and not ended:  # a limit, an error here, a Ctrl-C: the child is stopped now, with its descendants
            from relations._processes import end_tree

            end_tree(pid)
        _, status = os.waitpid(pid, 0)
        drain.join(5)
    if answer is None or count[0] > MAX_PRINTED:  # the prints are counted to their end (the drain read to EOF),
        # so the limit does not depend on whether the answer or the drain came first
        raise InputError(_stopped(status, count[0], MAX_PRINTED, memory_mb, tail))
    kind = answer[0]
    if kind == "ok":
        return answer[1]
    if kind == "raise":
        raise pickle.loads(answer[1])
    if kind == "not-enumerable":
        from relations.audit._enumerate import NotEnumerable

        exc = NotEnumerable(answer[1])
        if answer[2] is not None:
            exc.interval = answer[2]  # type: ignore[attr-defined]
        raise exc
    if kind == "memory":
        raise InputError("the randomizer ran out of memory" + (
            f" (the limit of {memory_mb} MiB beyond the caller's, memory_mb)" if memory_mb else ""))
    raise InputError(answer[1])


def _stopped(status: int | None, printed: int, limit: int, memory_mb: int, tail: collections.deque) -> str:
    """Why the child ended without an answer: its output's size, a signal or its exit status."""
    if printed > limit:
        size = f"{limit // 2**20} MiB" if limit % 2**20 == 0 else f"{limit} bytes"
        why = f"the randomizer printed more than {size} (the limit of its output)"
    elif status is not None and os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        name = signal.Signals(sig).name if sig in signal.valid_signals() else str(sig)
        why = f"the audit's child process was killed by {name}" + (
            f" (the memory limit is {memory_mb} MiB beyond the caller's, memory_mb)" if memory_mb and
            sig in (signal.SIGKILL, signal.SIGSEGV, signal.SIGABRT) else "")
    else:
        code = os.WEXITSTATUS(status) if status is not None and os.WIFEXITED(status) else status
        why = f"the randomizer ended the audit's child process (os._exit or a crash; exit status {code})"
    shown = " | ".join(list(tail)[-3:])
    return why + (f"; its last output: {shown}" if shown else "")
