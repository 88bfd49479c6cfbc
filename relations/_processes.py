"""Child processes that die with the tool, and a Ctrl-C that says one line.

**No orphans.**  Every process the tool starts (audit workers, sweep workers, the forked search
of ``verify``, coqc) calls :func:`die_with_parent` (in the child, or as a ``preexec_fn``): on Linux
``prctl(PR_SET_PDEATHSIG, SIGKILL)``, so that the kernel kills it when the process that started it
dies, even by SIGKILL; then ``getppid()`` is compared with the parent it was started by, in case
that one died before the call.  Where ``prctl`` is unavailable, or the child is not the direct
child of the tool (an ``--python`` wrapper script in between), :func:`watch_parent` runs a thread
that ends the process when a pipe the tool holds is closed (the tool is gone, whatever killed it)
or when the tool's process id no longer exists.

**One line on Ctrl-C.**  After a SIGINT, a command still unwinds: threads of solvers and proof
checkers, progress bars and garbage-collector callbacks may each print a traceback or a stray line
on the way out.  :func:`silence_stderr` (called by every SIGINT handler of the tool) points file
descriptor 2 and ``sys.stderr`` at ``/dev/null`` and keeps the real standard error aside;
:func:`error_stream` is where the tool's own last line (``relations: interrupted``) is written.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from typing import IO, Any

__all__ = ["PARENT_VARIABLE", "WATCH_VARIABLE", "die_with_parent", "preexec", "watch_parent", "parent_watch_fds",
           "silence_stderr", "error_stream", "say_interrupted", "exit_interrupted", "run_command_line", "install_interrupt_handler", "interrupt_handler"]

#: Environment variable holding the tool's process id, for a child started through a wrapper.
PARENT_VARIABLE = "RELATIONS_PARENT_PID"
#: Environment variable holding the file descriptor of the read end of a pipe whose write end only the tool
#: holds: when it reads end-of-file, the tool is gone.
WATCH_VARIABLE = "RELATIONS_WATCH_FD"
_PR_SET_PDEATHSIG = 1


_PRCTL: list[Any] = []


def _libc_prctl() -> Any:
    """libc's ``prctl`` (resolved once), or ``None`` off Linux."""
    if not _PRCTL:
        fn = None
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                fn = ctypes.CDLL(None, use_errno=True).prctl
            except (OSError, AttributeError):
                fn = None
        _PRCTL.append(fn)
    return _PRCTL[0]


def _prctl_deathsig(sig: int) -> bool:
    """``prctl(PR_SET_PDEATHSIG, sig)``; whether it was set (Linux only)."""
    fn = _libc_prctl()
    return fn is not None and fn(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0


def die_with_parent(parent: int | None = None) -> bool:
    """In a child process: be killed when the process that started it dies (``PR_SET_PDEATHSIG``).

    ``parent`` is the process id of that process, when the child knows it: if it is already gone (it
    died between the ``fork`` and this call), the child exits at once.  Returns whether the kernel will
    do it (Linux); elsewhere, use :func:`watch_parent`.

    Examples
    --------
    >>> import multiprocessing
    >>> p = multiprocessing.get_context("fork").Process(target=die_with_parent, args=(os.getpid(),))
    >>> p.start(); p.join(); p.exitcode
    0
    """
    armed = _prctl_deathsig(signal.SIGKILL)
    if parent is not None and os.getppid() != parent:
        os._exit(1)
    return armed


def preexec() -> Any:
    """A ``subprocess.Popen`` ``preexec_fn`` that arms the death signal in the child before it runs the
    program (it survives ``exec``), and ends the child at once if the process that made the function (the
    tool) is already gone: ``prctl`` is resolved here, in the parent, so that the child, forked while other
    threads may hold locks, calls two system calls and nothing else."""
    fn = _libc_prctl()
    sig = int(signal.SIGKILL)
    parent = os.getpid()

    def child() -> None:
        if fn is not None:
            fn(_PR_SET_PDEATHSIG, sig, 0, 0, 0)
        if os.getppid() != parent:  # the tool died between the fork and the line above: never run the program
            os._exit(1)

    return child


def parent_watch_fds() -> tuple[int, int]:
    """A pipe for :func:`watch_parent`: ``(read, write)``; pass ``read`` to the child (``pass_fds`` and
    :data:`WATCH_VARIABLE`), close it here, and keep ``write`` open for as long as the child may live."""
    r, w = os.pipe()
    os.set_inheritable(r, True)
    return r, w


def watch_parent(*, fd: int | None = None, pid: int | None = None, every: float = 0.5) -> None:
    """Start a daemon thread that ends this process (``os._exit(1)``) when the tool is gone: when the pipe
    ``fd`` reads end-of-file, or when the process ``pid`` no longer exists (checked every ``every`` s).
    Both default to the environment (:data:`WATCH_VARIABLE`, :data:`PARENT_VARIABLE`); with neither, nothing
    is started."""
    if fd is None and os.environ.get(WATCH_VARIABLE, "").isdigit():
        fd = int(os.environ[WATCH_VARIABLE])
    if pid is None and os.environ.get(PARENT_VARIABLE, "").isdigit():
        pid = int(os.environ[PARENT_VARIABLE])
    if fd is None and pid is None:
        return

    def by_pipe() -> None:
        assert fd is not None
        try:
            while os.read(fd, 1):
                pass
        except OSError:
            pass
        os._exit(1)

    def by_pid() -> None:
        import time

        assert pid is not None
        while True:
            time.sleep(every)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                os._exit(1)
            except OSError:  # alive, owned by another user
                pass

    target = by_pipe if fd is not None else by_pid
    threading.Thread(target=target, daemon=True, name="relations-parent-watch").start()


_REAL_STDERR: list[IO[str]] = []
_ENABLED: list[bool] = []  # set by install_interrupt_handler: the process is the command line's own


def silence_stderr() -> None:
    """From now on, what anything writes on standard error (Python tracebacks of threads, "Exception
    ignored" lines, C libraries) is dropped; :func:`error_stream` still reaches the real one.  Idempotent;
    it does nothing unless :func:`install_interrupt_handler` was called (the ``relations`` process itself,
    not a program that calls the command line in its own process)."""
    if _REAL_STDERR or not _ENABLED:
        return
    try:
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        saved = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        os.close(null)
        encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
        real: IO[str] = open(saved, "w", encoding=encoding, errors="backslashreplace", closefd=True)  # noqa: SIM115
        wrapper: Any = type(sys.stderr)
        if hasattr(sys.stderr, "inner"):  # the command line's escaping stream (io._terminal.TerminalText): the
            real = wrapper(real)  # last line names user paths, shown as text there too
        _REAL_STDERR.append(real)
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    except (OSError, ValueError):  # no file descriptor 2: nothing to silence
        _REAL_STDERR.append(sys.stderr)


def error_stream() -> IO[str]:
    """The real standard error, also after :func:`silence_stderr`."""
    return _REAL_STDERR[0] if _REAL_STDERR else sys.stderr


_SAID: list[bool] = []  # the command's last line after an interrupt was written


def say_interrupted(line: str = "relations: interrupted") -> None:
    """Write the command's one line after an interrupt on the real standard error (:func:`error_stream`), and
    remember it: :func:`run_command_line` says ``relations: interrupted`` itself for a status 130 that comes
    without it (a Ctrl-C while typer parses the command line, which typer turns into 130 without a word)."""
    _SAID.append(True)
    with contextlib.suppress(OSError, ValueError):
        stream = error_stream()
        stream.write(line + "\n")
        stream.flush()


def exit_interrupted(code: int = 130) -> None:
    """End the process with ``code`` at once, after an interrupt: standard output flushed, the ``atexit``
    clean-ups run (temporary folders), standard error silenced, and no interpreter shutdown, where daemon
    threads and a second ``KeyboardInterrupt`` could still print or change the exit status."""
    import atexit

    silence_stderr()
    with contextlib.suppress(BaseException):
        sys.stdout.flush()
    with contextlib.suppress(BaseException):
        error_stream().flush()
    with contextlib.suppress(BaseException):
        atexit._run_exitfuncs()
    os._exit(code)


def run_command_line(run: Any, args: list[str] | None) -> None:
    """``run(args)`` as the ``relations`` process itself: with :func:`install_interrupt_handler`, and, after a
    Ctrl-C, leaving with status 130 and the one line at once (:func:`exit_interrupted`)."""
    install_interrupt_handler()
    try:
        run(args)
    except SystemExit as exc:
        if exc.code == 130:  # interrupted: leave now, before the interpreter's shutdown, having said so once
            if not _SAID:
                say_interrupted()
            exit_interrupted(130)
        if threading.current_thread() is threading.main_thread():  # done: a Ctrl-C now would only turn the
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # status into -SIGINT during the shutdown
        raise
    except KeyboardInterrupt:  # a Ctrl-C while the command line was being loaded
        say_interrupted()
        exit_interrupted(130)


def interrupt_handler(signum: int, frame: Any) -> None:
    """The tool's SIGINT handler: silence standard error, then raise ``KeyboardInterrupt``."""
    silence_stderr()
    raise KeyboardInterrupt


def install_interrupt_handler() -> None:
    """Make :func:`interrupt_handler` this process's SIGINT handler (main thread only; a SIGINT that the
    process ignores, as a shell's background job does, stays ignored), and let :func:`silence_stderr` act.
    Called by the ``relations`` console script and ``python -m relations``, in their own process."""
    _ENABLED.append(True)
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, interrupt_handler)
