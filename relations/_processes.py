"""Child processes that die with the tool, and a Ctrl-C that says one line.

**No orphans.**  Every process the tool starts (audit workers, sweep workers, the forked search
of ``verify``, coqc) calls :func:`die_with_parent` (in the child, or as a ``preexec_fn``): on Linux
``prctl(PR_SET_PDEATHSIG, SIGKILL)``, so that the kernel kills it when the process that started it
dies, even by SIGKILL; then ``getppid()`` is compared with the parent it was started by, in case
that one died before the call.  Where ``prctl`` is unavailable, or the child is not the direct
child of the tool (an ``--python`` wrapper script in between), :func:`watch_parent` runs a thread
that ends the process when a pipe the tool holds is closed (the tool is gone, whatever killed it)
or when the tool's process id no longer exists.

**The whole tree.**  Code under audit may start processes of its own, and a daemon double-forks and calls
``setsid()`` to leave its parent, its process group and its session.  A process that runs such code calls
:func:`keep_descendants` first: on Linux it becomes a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``),
so that every orphaned descendant, daemons included, is re-parented to it rather than to ``init``, and
forks; the child runs the code, the parent stays as the *keeper*, which runs nothing else: when the child
ends (by an answer, an exit, a crash or a signal) it kills every descendant left and ends the same way.
The tool ends a worker with :func:`end_tree`: it stops (``SIGSTOP``) the worker and every descendant it
finds in ``/proc``, again until no new one appears, then kills them all (``SIGKILL``).  No cgroup or PID
namespace is needed (neither is available unprivileged everywhere); a descendant escapes only if the
keeper itself is killed from outside (the tool killed by SIGKILL: the keeper and the worker die with it).

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
from collections.abc import Iterator
from typing import IO, Any

__all__ = ["PARENT_VARIABLE", "WATCH_VARIABLE", "die_with_parent", "preexec", "start_program", "register_fork_handlers",
           "watch_parent", "parent_watch_fds", "keep_descendants", "descendants", "end_tree", "sigint_blocked",
           "release_sigint",
           "silence_stderr", "error_stream", "say_interrupted", "exit_interrupted", "run_command_line", "leaves_nothing_behind", "install_interrupt_handler", "interrupt_handler"]

#: Environment variable holding the tool's process id, for a child started through a wrapper.
PARENT_VARIABLE = "RELATIONS_PARENT_PID"
#: Environment variable holding the file descriptor of the read end of a pipe whose write end only the tool
#: holds: when it reads end-of-file, the tool is gone.
WATCH_VARIABLE = "RELATIONS_WATCH_FD"
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


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


def _processes() -> dict[int, tuple[int, str]]:
    """Every process in ``/proc``: its parent's id and its state letter (empty off Linux)."""
    table: dict[int, tuple[int, str]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
            table[int(name)] = (int(fields[1]), fields[0].decode("ascii", "replace"))
        except (OSError, IndexError, ValueError):  # gone meanwhile
            continue
    return table


def descendants(pid: int) -> list[int]:
    """The living descendants of process ``pid`` (children first), from ``/proc``; empty where there is none.

    Examples
    --------
    >>> descendants(os.getpid()) == [] or all(p != os.getpid() for p in descendants(os.getpid()))
    True
    """
    table = _processes()
    children: dict[int, list[int]] = {}
    for child, (parent, state) in table.items():
        if state not in ("Z", "X"):
            children.setdefault(parent, []).append(child)
    out: list[int] = []
    frontier = [pid]
    while frontier:
        nxt = [c for p in frontier for c in children.get(p, ()) if c not in out]
        out += nxt
        frontier = nxt
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] not in (b"Z", b"X")
    except (OSError, IndexError):
        return False


def end_tree(pid: int, *, wait: float = 2.0) -> None:
    """Kill process ``pid`` and all its descendants: each is stopped (``SIGSTOP``, so that none forks again)
    as it is found, the search repeated until it finds no new one, then all are killed (``SIGKILL``) and
    awaited (up to ``wait`` seconds) until they are gone or zombies.  ``pid`` itself is not reaped."""
    import time

    found: list[int] = []
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGSTOP)
    for _ in range(100):
        new = [p for p in descendants(pid) if p not in found]
        if not new:
            break
        for p in new:
            with contextlib.suppress(OSError):
                os.kill(p, signal.SIGSTOP)
        found += new
    for p in [*reversed(found), pid]:
        with contextlib.suppress(OSError):
            os.kill(p, signal.SIGKILL)
    end = time.monotonic() + wait
    while any(_alive(p) for p in found) and time.monotonic() < end:
        time.sleep(0.005)


def _end_children() -> None:
    """In a keeper: kill every child (orphans re-parented to it included) and reap them, until none is left."""
    import time

    me = os.getpid()
    for _ in range(10_000):
        kids = [c for c, (parent, state) in _processes().items() if parent == me and state not in ("Z", "X")]
        for c in kids:
            with contextlib.suppress(OSError):
                os.kill(c, signal.SIGKILL)
        reaped = False
        while True:
            try:
                done, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if done == 0:
                break
            reaped = True
        if not kids and not reaped:
            time.sleep(0.005)


def keep_descendants() -> None:
    """In a child process about to run code under audit: stay as its keeper, run the code in a child.

    On Linux, where ``prctl(PR_SET_CHILD_SUBREAPER)`` succeeds, this process forks: the function returns in
    the child (armed to die with the keeper), and never returns in the keeper, which closes every file
    descriptor but the parent watch (:data:`WATCH_VARIABLE`), waits for the child, reaping the orphans
    re-parented to it meanwhile, then kills every descendant left (:func:`_end_children`) and ends as the
    child ended (its exit status, or its signal).  Elsewhere it returns at once, and the code runs here."""
    fn = _libc_prctl()
    if fn is None or fn(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        return
    keeper = os.getpid()
    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    child = os.fork()
    if child == 0:
        fn(_PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)  # orphans go to the keeper, not to the code's own process
        die_with_parent(keeper)
        return
    status = 0
    try:  # pragma: no cover - the keeper (a child process of the tool)
        watch = os.environ.get(WATCH_VARIABLE, "")
        keep = int(watch) if watch.isdigit() else -1
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.close(null)
        top = os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1024
        if keep >= 3:
            os.closerange(3, keep)
            os.closerange(keep + 1, top)
        else:
            os.closerange(3, top)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        watch_parent()  # through a wrapper (--python), the tool may not be the direct parent
        while True:
            try:
                done, status = os.waitpid(-1, 0)
            except ChildProcessError:
                break
            if done == child:
                break
        _end_children()
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            with contextlib.suppress(Exception):
                signal.signal(sig, signal.SIG_DFL)
                os.kill(os.getpid(), sig)
        os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)
    finally:  # pragma: no cover
        os._exit(1)


#: Whether a thread can block signals (POSIX): the tool's forks are then made with SIGINT blocked.
_MASKABLE = hasattr(signal, "pthread_sigmask")


@contextlib.contextmanager
def sigint_blocked() -> Iterator[None]:
    """Within: SIGINT blocked in the calling thread (POSIX; elsewhere nothing changes).  Every fork of the
    tool is made within.

    A terminal's Ctrl-C reaches the whole process group, children included.  One that reaches a child
    between the fork and the moment the child sets what SIGINT does there runs the tool's handler in the
    child, in the middle of Python's at-fork handlers (``logging``'s, ``threading``'s): their
    "Exception ignored" tracebacks went to the standard error the child shares, beside the tool's one line.
    A child forked within starts with SIGINT blocked (held, not lost) and releases it with
    :func:`release_sigint` once it has chosen what a SIGINT does there.  In this process a SIGINT that comes
    meanwhile reaches another thread, or waits until the block ends: it is raised all the same.

    Examples
    --------
    >>> with sigint_blocked():
    ...     pass
    """
    if not _MASKABLE:
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def release_sigint(*, ignore: bool) -> None:
    """In a child forked within :func:`sigint_blocked`: make SIGINT ignored (``ignore``: the parent handles
    Ctrl-C and stops the child; one that came since the fork is dropped) or take its default action (a
    program about to be run by ``exec``, which a Ctrl-C ends as it would without the tool), then unblock it.
    A SIGINT the process ignored already (a shell's background job) stays ignored.  Where the disposition
    cannot be set here, SIGINT stays blocked: the child then ends with the tool (:func:`die_with_parent`)."""
    try:
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            signal.signal(signal.SIGINT, signal.SIG_IGN if ignore else signal.SIG_DFL)
    except ValueError:  # not the main thread of the main interpreter
        return
    if _MASKABLE:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def preexec() -> Any:
    """A ``subprocess.Popen`` ``preexec_fn`` that arms the death signal in the child before it runs the
    program (it survives ``exec``), and ends the child at once if the process that made the function (the
    tool) is already gone: ``prctl`` is resolved here, in the parent, so that the child, forked while other
    threads may hold locks, calls a few system calls and nothing else.  Then SIGINT takes its default action
    in the child and is unblocked (:func:`release_sigint`: the fork is made within :func:`sigint_blocked`, by
    :func:`start_program`)."""
    fn = _libc_prctl()
    sig = int(signal.SIGKILL)
    parent = os.getpid()

    def child() -> None:
        if fn is not None:
            fn(_PR_SET_PDEATHSIG, sig, 0, 0, 0)
        if os.getppid() != parent:  # the tool died between the fork and the line above: never run the program
            os._exit(1)
        release_sigint(ignore=False)

    return child


def start_program(args: list[str], **options: Any) -> Any:
    """``subprocess.Popen(args, **options)`` for a program that dies with the tool (:func:`preexec`), forked
    with SIGINT blocked (:func:`sigint_blocked`): the Python code that runs in the child before ``exec`` (the
    at-fork handlers, :func:`preexec`) never meets a Ctrl-C; the program does, as it would without the tool.

    Examples
    --------
    >>> import subprocess, sys
    >>> with start_program([sys.executable, "-c", "print(6 * 7)"], stdout=subprocess.PIPE, text=True) as proc:
    ...     proc.communicate()[0]
    '42\\n'
    """
    import subprocess

    with sigint_blocked(), _fork_handlers_quiet():
        return subprocess.Popen(args, preexec_fn=preexec(), **options)


#: The standard library's modules that register at-fork handlers (``os.register_at_fork``).
_FORK_HANDLER_MODULES = ("logging", "concurrent.futures.thread", "random", "threading")


def register_fork_handlers() -> None:
    """Import the standard library's modules that register at-fork handlers (:data:`_FORK_HANDLER_MODULES`),
    before starting a thread that forks (:func:`start_program` with ``preexec_fn``: Python runs the handlers
    around that fork, in that thread).  Imported later by another thread, a module registers its handlers
    between the "before" and "after" halves of such a fork, and the "after" half of ``logging``'s releases a
    lock its "before" half never took: "Exception ignored ... RuntimeError: cannot release un-acquired lock" on
    the standard error (``verify``'s search once imported ``logging`` through ``scipy.special``, ``numpy.f2py`` and
    ``charset_normalizer`` while the Coq thread forked coqc).

    Examples
    --------
    >>> register_fork_handlers()
    >>> "logging" in sys.modules
    True
    """
    import importlib

    for name in _FORK_HANDLER_MODULES:
        importlib.import_module(name)


@contextlib.contextmanager
def _fork_handlers_quiet() -> Iterator[None]:
    """Within, in a thread other than the main one: what Python reports as "Exception ignored" in this thread
    (the at-fork handlers of a fork made here) is dropped, for a module of another package that registered its
    handlers while the fork was under way (see :func:`register_fork_handlers`); the other threads' reports go
    on as before."""
    if threading.current_thread() is threading.main_thread():
        yield
        return
    me, previous = threading.get_ident(), sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if threading.get_ident() != me:
            previous(unraisable)

    sys.unraisablehook = hook
    try:
        yield
    finally:
        if sys.unraisablehook is hook:  # not replaced meanwhile by other code
            sys.unraisablehook = previous


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


_NOTHING_BEHIND: list[bool] = []  # set by leaves_nothing_behind: the command's process may end at once


def leaves_nothing_behind() -> None:
    """Say that the running command, once it returns, leaves nothing for the interpreter's shutdown to do: no
    thread, child process, open file or temporary file of its own, its output written (``relations measure``
    without typer).  :func:`run_command_line` then ends the process as soon as the command has succeeded:
    standard output and error flushed, the ``atexit`` clean-ups run, then ``os._exit``, without tearing down
    every module and object (about a fifth of ``import numpy``'s time, most of it numpy's and python-flint's own)."""
    _NOTHING_BEHIND.append(True)


def _end_now() -> None:
    """End a command's process that succeeded and :func:`leaves_nothing_behind`: status 0 once its output is out;
    return (for the ordinary shutdown) if another thread runs or a flush fails (the shutdown then says so)."""
    import atexit

    if threading.active_count() != 1:
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except BaseException:  # e.g. the reader went away since: the ordinary shutdown reports it as always
        return
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):  # what the clean-ups wrote
        with contextlib.suppress(BaseException):
            if stream is not None:
                stream.flush()
    os._exit(0)


def run_command_line(run: Any, args: list[str] | None, *, own: bool | None = None) -> None:
    """``run(args)`` as the ``relations`` process itself: with :func:`install_interrupt_handler`, and, after a
    Ctrl-C, leaving with status 130 and the one line at once (:func:`exit_interrupted`).  Where the arguments
    are the process's own (``own``; by default when ``args`` is None: the console script, ``python -m``), a
    command that succeeded and :func:`leaves_nothing_behind` ends the process at once; called with arguments
    from other code, it raises ``SystemExit`` as ever."""
    install_interrupt_handler()
    _NOTHING_BEHIND.clear()  # said by this run's command, not by an earlier one in the same process
    if own is None:
        own = args is None
    try:
        try:
            run(args)
        except SystemExit as exc:
            if exc.code == 130 or (_HIT and exc.code not in (0, None)):  # interrupted (also when the Ctrl-C
                # became another error on its way, e.g. numpy's ImportError): leave now, having said so once
                if not _SAID:
                    say_interrupted()
                exit_interrupted(130)
            if own and _NOTHING_BEHIND and exc.code in (0, None):
                _end_now()
            if threading.current_thread() is threading.main_thread():  # done: a Ctrl-C now would only turn the
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # status into -SIGINT during the shutdown
            raise
    except KeyboardInterrupt:  # a Ctrl-C while the command line was being loaded, or as the command ended (in
        # the lines above, before SIGINT is ignored: it escaped as a traceback on the silenced stderr, status 1)
        say_interrupted()
        exit_interrupted(130)
    except BaseException:  # after a Ctrl-C, any error: the KeyboardInterrupt turned into it on its way (numpy's C
        if _HIT:  # extension, interrupted while it loads, raises ImportError), and its traceback went to the
            say_interrupted()  # silenced stderr: status 130 and the one line, not a silent status 1
            exit_interrupted(130)
        raise


_HIT: list[bool] = []  # the tool's SIGINT handler ran in this process


def interrupt_handler(signum: int, frame: Any) -> None:
    """The tool's SIGINT handler: silence standard error, then raise ``KeyboardInterrupt``."""
    _HIT.append(True)
    silence_stderr()
    raise KeyboardInterrupt


def install_interrupt_handler() -> None:
    """Make :func:`interrupt_handler` this process's SIGINT handler (main thread only; a SIGINT that the
    process ignores, as a shell's background job does, stays ignored), and let :func:`silence_stderr` act.
    Called by the ``relations`` console script and ``python -m relations``, in their own process."""
    _ENABLED.append(True)
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, interrupt_handler)
