"""Two pieces of work at once: one in this process, one in a forked child process.

``relations verify`` is single-threaded Python and numpy on small arrays, so threads do not help it;
a forked child starts at once (it shares the parent's imported modules and memory) and runs on the
second core.  :func:`run_beside` runs ``there`` in such a child while the caller runs ``here``, and
returns both results, the child's sent back by pickling.  The child computes exactly what the parent
would (same code, same inputs), so the results do not depend on whether it was used.

It falls back to running both in this process when there is one core, when ``fork`` is not available
(it is used on Linux only: macOS's system libraries are not fork-safe), when
:data:`DISABLE_VARIABLE` is set, or when the child fails or takes far longer than it should.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys
import time
import warnings
from collections.abc import Callable
from typing import TypeVar

__all__ = ["DISABLE_VARIABLE", "run_beside", "usable"]

T = TypeVar("T")
U = TypeVar("U")

#: Set this environment variable (to anything) to run everything in one process.
DISABLE_VARIABLE = "RELATIONS_NO_FORK"

#: After finishing ``here``, the parent waits for the child at most this many times as long as ``here``
#: took (and at least :data:`MIN_WAIT` seconds), then computes ``there`` itself.
WAIT_FACTOR = 20
MIN_WAIT = 60.0


#: Whether signals can be blocked around a fork (POSIX).
_MASKABLE = hasattr(signal, "pthread_sigmask")


def usable() -> bool:
    """Whether :func:`run_beside` would use a child process here.

    Examples
    --------
    >>> isinstance(usable(), bool)
    True
    """
    if os.environ.get(DISABLE_VARIABLE) or not sys.platform.startswith("linux"):
        return False
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - Linux has sched_getaffinity
        cores = os.cpu_count() or 1
    return cores >= 2 and "fork" in multiprocessing.get_all_start_methods()


def run_beside(here: Callable[[], T], there: Callable[[], U]) -> tuple[T, U]:
    """``(here(), there())``, with ``there`` run in a forked child process meanwhile when :func:`usable`.

    Parameters
    ----------
    here, there : callable
        Functions of no arguments; ``there``'s result must pickle.

    Returns
    -------
    tuple
        ``(here(), there())``.

    Raises
    ------
    BaseException
        Whatever ``here`` raises (a Ctrl-C included: the child is then stopped).  An exception in the
        child is not raised: ``there`` is then run in this process, and raises here if it fails again.

    Examples
    --------
    >>> run_beside(lambda: sum(range(10)), lambda: [x * x for x in range(4)])
    (45, [0, 1, 4, 9])
    """
    if not usable():
        return here(), there()
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)

    parent = os.getpid()

    def child() -> None:
        from relations._processes import die_with_parent, release_sigint

        die_with_parent(parent)  # killed with the parent, even by SIGKILL
        release_sigint(ignore=True)  # blocked since before the fork (below); a Ctrl-C is the parent's to handle
        try:
            data = pickle.dumps(there(), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException:  # the parent computes it instead
            data = b""
        try:
            send.send_bytes(data)
        except OSError:  # the parent is gone
            pass

    process = context.Process(target=child, daemon=True, name="relations-beside")
    # Ctrl-C blocked across the fork: a terminal's Ctrl-C reaches the whole process group, and one arriving in
    # the child before it ignores SIGINT (in the at-fork handlers of logging, say) printed a traceback beside the
    # parent's one line; the child inherits the mask, the parent gets a pending Ctrl-C when the mask is restored
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if _MASKABLE else None
    try:
        with warnings.catch_warnings():  # Python 3.12+ warns on fork() with threads running; the child uses none
            warnings.simplefilter("ignore", DeprecationWarning)
            process.start()
    except BaseException:
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        raise
    send.close()
    try:
        if mask is not None:  # a Ctrl-C that came meanwhile is raised here, and the child stopped below
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        start = time.perf_counter()
        mine = here()
        wait = max(MIN_WAIT, WAIT_FACTOR * (time.perf_counter() - start))
        data = b""
        if receive.poll(wait):
            try:
                data = receive.recv_bytes()
            except (EOFError, OSError):  # the child died without answering
                data = b""
    finally:
        receive.close()
        if process.is_alive():
            process.terminate()
        process.join()
    return mine, (pickle.loads(data) if data else there())
