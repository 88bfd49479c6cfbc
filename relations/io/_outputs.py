"""The write policy: commands write only into an output folder, replacing only what they wrote, as one
transaction.

``relations verify``, ``figures``, ``sweep``, ``conjecture --out``, ``optimize --out``, ``audit --out`` and
``measure --plot`` write files.  The rules (docs/getting-started.md, "Where the tool writes"):

* a command writes only inside the folder the user names (``--out``) or its default folder;
* it never replaces a file it did not write, unless told to (``--force``): every folder it
  writes holds a manifest, ``.relations-output.json``, with the SHA-256 of each file the tool
  wrote there; an existing file is replaced only if the manifest lists it with its current
  content (a file the user wrote, or edited since, is refused with one line naming it);
* a folder is written as one transaction (:class:`OutputDir`): every file is first written into
  ``DIR/.relations-staging/``; then a journal listing the files is written (atomically: this is the
  commit point), the files are renamed into place (``verdicts.json``, then the manifest, last) and
  the staging folder is removed.  A run killed before the commit point leaves the old content (the
  next run removes its staging folder); a run killed after it leaves a journal that the next run
  into the folder replays before anything else, giving the new content.  So the same command, run
  again, completes without ``--force``.  Just before the journal, the files :meth:`OutputDir.plan`
  checked are checked again (one made or edited meanwhile is refused, nothing written), and a file
  new to the folder is linked into place, so that it never replaces one;
* one run at a time writes a folder: a run holds an advisory lock (``flock``) on the folder itself
  from its first check to its end, and a second run is refused with one line naming the first one's
  process id (no lock file: a refused or killed run leaves nothing behind; the kernel drops the lock
  of a killed run, and forked workers do not keep it);
* a single file the user names (``--out FILE``, ``--plot FILE``) is created without ever replacing a
  file that appeared meanwhile (:func:`create_file`: written unnamed, then linked into place, which
  fails if the name exists); ``--force`` replaces it atomically;
* only regular files are replaced: a device, FIFO, socket or folder (or a symbolic link to one) where a file
  goes is refused with one line, ``--force`` or not (:func:`refuse_special`);
* the names ``.relations-output.json`` and ``.relations-staging`` are the tool's
  (:data:`RESERVED`): no file a user names (a conjecture id, say) may take them;
* files get ``0o666`` less the umask, or the mode of the file they replace (:func:`file_mode`);
* caches (hypothesis's example database) live in the user cache folder
  (:func:`cache_dir`, from platformdirs, see :mod:`relations._cache`), never in the current folder.

Fault injection (the crash-point tests, ``tests/test_crash_points.py``): every write step calls
:func:`write_step`, and so does the moment a folder is locked (made if missing), before anything is
written: a kill there is one in the compute phase, which leaves at most an empty folder that the next run
takes as it is; with ``RELATIONS_CRASH_AT=N`` in the environment the process kills itself with
SIGKILL (or SIGINT with ``RELATIONS_CRASH_SIGNAL=INT``) at the N-th step, and with
``RELATIONS_CRASH_LOG=FILE`` each step is logged to ``FILE``, one line each.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import re
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from relations._cache import cache_dir
from relations._json import read_json
from relations.errors import InputError

if TYPE_CHECKING:
    from types import FrameType

__all__ = ["MANIFEST", "STAGING", "RESERVED", "TOOL_FILES", "OutputDir", "InterruptLatch", "check_output_file",
           "create_file", "file_mode", "recover", "refuse_special", "write_bytes_atomic", "write_step", "cache_dir"]

#: The manifest each output folder holds: ``{"files": {relative path: sha256}}``.
MANIFEST = ".relations-output.json"
#: The staging folder of a transaction (its files, then its journal).
STAGING = ".relations-staging"
#: File names no user-named file may take.
RESERVED = frozenset({MANIFEST, STAGING})
#: Files that the tool's readers interpret (``figures --verdicts``, ``verify --exhaustive``): not conjecture ids.
TOOL_FILES = frozenset({"verdicts.json", "conjectures.json", "sweep.json", "summary.json", "chunks.jsonl"})
_JOURNAL = "journal.json"
_LAST = ("verdicts.json",)  # renamed into place after every other file (then the manifest)
#: The fault-injection variables (read only here).
CRASH_AT, CRASH_SIGNAL, CRASH_LOG = "RELATIONS_CRASH_AT", "RELATIONS_CRASH_SIGNAL", "RELATIONS_CRASH_LOG"
_TMP = re.compile(r"^\.tmp-(?:(\d+)-)?")
_steps = 0


def write_step(what: str) -> None:
    """Count one write step (a file written, renamed or removed); the fault-injection hook.

    With ``RELATIONS_CRASH_LOG=FILE`` the step is appended to ``FILE`` (``N PID WHAT``); with
    ``RELATIONS_CRASH_AT=N`` the process kills itself at the N-th step, before doing it: SIGKILL, or
    SIGINT when ``RELATIONS_CRASH_SIGNAL=INT``.

    Examples
    --------
    >>> write_step("nothing")   # without the variables: counted, nothing else
    """
    global _steps
    _steps += 1
    log = os.environ.get(CRASH_LOG)
    if log:
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(f"{_steps} {os.getpid()} {what}\n")
    at = os.environ.get(CRASH_AT, "")
    if at.isdigit() and int(at) == _steps:
        if os.environ.get(CRASH_SIGNAL, "KILL").upper() == "INT":
            os.kill(os.getpid(), signal.SIGINT)
        else:
            os.kill(os.getpid(), signal.SIGKILL)


class InterruptLatch:
    """Remember a Ctrl-C even when the ``KeyboardInterrupt`` it raises is swallowed.

    Python raises ``KeyboardInterrupt`` wherever the main thread happens to be; inside a garbage
    collector callback, a ``__del__`` or a weakref callback it is printed as "Exception ignored" and
    lost, and a long command would then run on and write its results.  Within ``with
    InterruptLatch() as latch:`` SIGINT still raises ``KeyboardInterrupt`` at once and also sets
    ``latch.hit``; :meth:`check` (called between units of work and before the write phase) raises it
    again.  A SIGINT that the process ignores (a shell's background job) stays ignored; outside the
    main thread the latch does nothing.

    Examples
    --------
    >>> with InterruptLatch() as latch:
    ...     latch.hit
    False
    """

    def __init__(self) -> None:
        self.hit = False
        self._previous: Callable[[int, FrameType | None], Any] | int | None = None  # a SIGINT handler

    def _handler(self, signum, frame):
        from relations._processes import interrupt_handler

        self.hit = True
        interrupt_handler(signum, frame)  # raises KeyboardInterrupt

    def __enter__(self) -> InterruptLatch:
        if threading.current_thread() is threading.main_thread():
            previous = signal.getsignal(signal.SIGINT)
            if previous is not signal.SIG_IGN:
                self._previous = previous
                signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None

    def check(self) -> None:
        """Raise ``KeyboardInterrupt`` if a SIGINT arrived since the latch was entered."""
        if self.hit:
            raise KeyboardInterrupt


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_mode(path: str) -> int:
    """The permission bits a file the tool writes at ``path`` gets: those of the file it replaces, else
    ``0o666`` less the process's umask (0644 under umask 022), as ``open()`` would give a new file.

    Examples
    --------
    >>> import os, tempfile
    >>> old = os.umask(0o022)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     oct(file_mode(os.path.join(folder, "new.txt")))
    '0o644'
    >>> _ = os.umask(old)
    """
    import stat

    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask: read from ``/proc/self/status`` where there is one (no change to the process), else by
    setting and restoring it."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return pid > 0 and not isinstance(pid, bool)  # someone else's live process (or a pid out of range: dead)
    return True


def _stale_temps(folder: str, suffix: str = "") -> Iterator[str]:
    """The temporary files in ``folder`` (ending in ``suffix``) whose writer is no longer running."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        match = _TMP.match(name)
        if match and name.endswith(suffix) and not (match.group(1) and _pid_alive(int(match.group(1)))):
            path = os.path.join(folder, name)
            if os.path.isfile(path) and not os.path.islink(path):
                yield path


def _remove(paths: Iterable[str]) -> None:
    for path in paths:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _fsync_dir(folder: str) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_fd(fd: int, data: bytes, mode: int) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.fchmod(fd, mode)
    os.fsync(fd)


def write_bytes_atomic(path: str, data: bytes) -> str:
    """Write ``data`` to ``path`` atomically: a temporary file in the same folder, then ``os.replace``.

    The file gets the permissions of the file it replaces, or ``0o666`` less the umask for a new one
    (:func:`file_mode`; ``tempfile`` alone would leave it ``0o600``).  The temporary file's name holds
    the writer's process id; temporary files of writers no longer running are removed.

    Parameters
    ----------
    path : str
    data : bytes

    Returns
    -------
    str
        ``path``.
    """
    refuse_special(path, "cannot write")
    folder = os.path.dirname(os.path.abspath(path))
    suffix = "-" + os.path.basename(path)
    _remove(_stale_temps(folder, suffix))
    mode = file_mode(path)
    write_step(f"write {path}")
    fd, tmp = tempfile.mkstemp(prefix=f".tmp-{os.getpid()}-", suffix=suffix, dir=folder)
    try:
        try:
            _write_fd(fd, data, mode)
        finally:
            os.close(fd)
        write_step(f"rename {path}")
        refuse_special(path, "cannot write")  # checked again: a FIFO may have been made meanwhile
        os.replace(tmp, path)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)
    return path


def _adopted(path: str) -> bool:
    """True iff ``path`` is the completed write of a run that was killed before removing its temporary name
    (a stale temporary file is a hard link to it)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    for tmp in _stale_temps(os.path.dirname(os.path.abspath(path)), "-" + os.path.basename(path)):
        with contextlib.suppress(OSError):
            if os.path.samestat(os.stat(tmp), st):
                return True
    return False


def refuse_special(path: str, option: str = "--out") -> None:
    """Refuse, with one line, to write over anything but a regular file (or a symbolic link to one, or nothing).

    A device, a FIFO, a socket or a folder at ``path`` (or where a symbolic link at ``path`` leads) is never
    replaced, ``--force`` or not: a rename over ``/dev/null`` would replace the system's ``/dev/null``.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     os.mkfifo(os.path.join(d, "pipe"))
    ...     refuse_special(os.path.join(d, "pipe"))
    Traceback (most recent call last):
    ...
    relations.errors.InputError: --out ...pipe: is a FIFO (named pipe), not a regular file; relations writes only regular files
    """
    import stat

    for follow in (False, True):
        try:
            mode = os.stat(path, follow_symlinks=follow).st_mode
        except OSError:
            return  # nothing there (or a dangling link, which is replaced)
        if stat.S_ISREG(mode) or (not follow and stat.S_ISLNK(mode)):
            continue
        kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
                else "a character device" if stat.S_ISCHR(mode) else "a block device" if stat.S_ISBLK(mode)
                else "a socket" if stat.S_ISSOCK(mode) else "a special file")
        link = " (through a symbolic link)" if follow else ""
        raise InputError(f"{option} {path}: is {kind}{link}, not a regular file; relations writes only regular "
                         "files")


def _exists(path: str, option: str) -> InputError:
    return InputError(f"{option} {path}: exists; use --force to replace it")


def create_file(path: str, data: bytes, *, force: bool = False, option: str = "--out") -> str:
    """Create the file ``path`` holding ``data``, never replacing a file that exists (unless ``force``).

    The check and the creation are one step: the data is written to an unnamed file (``O_TMPFILE``; else a
    temporary name) and linked to ``path``, which fails if ``path`` exists, even if it appeared after the
    command's first check.  With ``force`` an existing file is replaced atomically and keeps its mode
    (:func:`write_bytes_atomic`).

    Parameters
    ----------
    path : str
    data : bytes
    force : bool, optional
    option : str, optional
        The option's name, for the message.

    Returns
    -------
    str
        ``path``, created.

    Raises
    ------
    InputError
        ``path`` exists (without ``force``).

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = create_file(os.path.join(d, "a.json"), b"[]")
    ...     create_file(path, b"{}")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: --out ...a.json: exists; use --force to replace it
    """
    refuse_special(path, option)
    if force or _adopted(path):
        write_bytes_atomic(path, data)
        _remove(_stale_temps(os.path.dirname(os.path.abspath(path)), "-" + os.path.basename(path)))
        return path
    folder = os.path.dirname(os.path.abspath(path))
    mode = 0o666 & ~_umask()
    flag = getattr(os, "O_TMPFILE", 0)
    fd = -1
    if flag and os.path.isdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            fd = os.open(folder, flag | os.O_WRONLY, mode)
    if fd >= 0:
        try:
            write_step(f"write {path}")
            _write_fd(fd, data, mode)
            write_step(f"link {path}")
            dir_fd = os.open(folder, os.O_RDONLY)
            try:  # linkat(AT_SYMLINK_FOLLOW), which os.link uses when given a folder's descriptor
                os.link(f"/proc/self/fd/{fd}", os.path.basename(path), dst_dir_fd=dir_fd, follow_symlinks=True)
            except FileExistsError:
                raise _exists(path, option) from None
            except OSError:
                pass  # no linkat through /proc here: a temporary name below
            else:
                return path
            finally:
                os.close(dir_fd)
        finally:
            os.close(fd)
    _remove(_stale_temps(folder, "-" + os.path.basename(path)))
    write_step(f"write {path}")
    fd, tmp = tempfile.mkstemp(prefix=f".tmp-{os.getpid()}-", suffix="-" + os.path.basename(path), dir=folder)
    try:
        try:
            _write_fd(fd, data, mode)
        finally:
            os.close(fd)
        write_step(f"link {path}")
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise _exists(path, option) from None
        write_step(f"remove {tmp}")
    finally:
        os.unlink(tmp)
    return path


def check_output_file(path: str, *, force: bool = False, option: str = "--out") -> str:
    """Validate a single output file a user names: refused if it exists (unless ``force``) or its folder does not.

    A file that a killed run of the tool had completely written (:func:`create_file` was killed before it
    removed its temporary name) counts as free: the same command, run again, completes.

    Parameters
    ----------
    path : str
    force : bool, optional
    option : str, optional
        As for :func:`create_file`.

    Returns
    -------
    str
        ``path``, which may be created.

    Raises
    ------
    InputError
        Empty path, a folder, a missing parent folder, or an existing file without ``force``.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     check_output_file(d)
    Traceback (most recent call last):
    ...
    relations.errors.InputError: --out ...: is a folder; give a file name
    """
    if not path:
        raise InputError(f"{option}: empty path")
    if os.path.isdir(path):
        raise InputError(f"{option} {path}: is a folder; give a file name")
    refuse_special(path, option)
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise InputError(f"{option} {path}: the folder {parent} does not exist")
    if os.path.lexists(path) and not force and not _adopted(path):
        raise _exists(path, option)
    return path


def check_name(name: str, *, what: str = "file name", reserved: frozenset[str] = RESERVED) -> str:
    """Refuse a relative file name that is one of the tool's own (``reserved``: :data:`RESERVED` by default) or
    leaves its folder.

    Examples
    --------
    >>> check_name(".relations-output.json", what="conjecture id '.relations-output'")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: conjecture id '.relations-output': the file name .relations-output.json is reserved by relations
    """
    parts = name.replace(os.sep, "/").split("/")
    if os.path.isabs(name) or any(p in ("", ".", "..") for p in parts):
        raise InputError(f"{what}: {name!r} is not a plain relative file name")
    if parts[0] in reserved:
        raise InputError(f"{what}: the file name {parts[0]} is reserved by relations")
    return name


_held: set[int] = set()  # descriptors of the folders this process has locked
_holders: dict[tuple[int, int], OutputDir] = {}  # (device, inode) of a locked folder: the OutputDir holding it


def _forget_locks_in_child() -> None:
    """In a forked child: close (not release) the parent's lock descriptors, so that a child outliving its
    parent does not keep the folder locked."""
    for fd in list(_held):
        with contextlib.suppress(OSError):
            os.close(fd)
    _held.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_locks_in_child)


def _lock_holder(fd: int) -> str:
    """The process id holding a ``flock`` on ``fd``'s file (from ``/proc/locks``), or ``""``."""
    st = os.fstat(fd)
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return ""
    for line in lines:
        fields = line.split()
        if "FLOCK" not in fields or "->" in fields:
            continue
        for i, field in enumerate(fields):
            parts = field.split(":")
            if len(parts) == 3 and i > 0:
                try:
                    same = (int(parts[0], 16), int(parts[1], 16), int(parts[2])) == (
                        os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
                except ValueError:
                    continue
                if same and fields[i - 1].isdigit():
                    return fields[i - 1]
    return ""


def _lock(folder: str, option: str) -> int:
    """Lock the folder itself (``flock`` on its descriptor: no file is made); refused with one line if held.

    Returns the descriptor, or -1 on a file system that has no ``flock`` (the folder is then written unlocked).
    """
    import fcntl

    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        import errno

        pid = _lock_holder(fd)
        os.close(fd)
        if exc.errno not in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES):
            return -1  # a file system without flock: written unlocked, as before locks
        who = f" (process {pid})" if pid else ""
        raise InputError(f"{option} {folder}: another relations run{who} is writing this folder; wait for it to "
                         "finish or write elsewhere") from None
    _held.add(fd)
    return fd


def _unlock(fd: int) -> None:
    import fcntl

    _held.discard(fd)
    with contextlib.suppress(OSError):
        fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


def _journal(staging: str) -> tuple[list[str], frozenset[str]] | None:
    """The committed moves of a staging folder and those that create a file (never replacing one), or None (no
    journal: the transaction was not committed)."""
    try:
        with open(os.path.join(staging, _JOURNAL), encoding="utf-8") as fh:
            data = read_json(fh.read(), source=_JOURNAL)
        moves, creates = data["moves"], data.get("create", [])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if not all(isinstance(x, list) and all(isinstance(m, str) for m in x) for x in (moves, creates)):
        return None
    if not all(m == MANIFEST or _plain(m) for m in moves):
        return None  # not a journal this tool wrote: nothing is moved
    return moves, frozenset(creates)


def _plain(name: str) -> bool:
    try:
        check_name(name)
    except InputError:
        return False
    return True


def _apply(folder: str, moves: list[str], creates: frozenset[str] = frozenset()) -> None:
    """Rename each staged file of ``moves`` into place (those still staged: replaying is idempotent).

    A name in ``creates`` was free when the run committed: it is linked into place, which never replaces a
    file; one that a user made there meanwhile is kept, and the tool's version dropped."""
    staging = os.path.join(folder, STAGING)
    for name in moves:
        parts = name.split("/")
        src = os.path.join(staging, "files", *parts)
        if not os.path.isfile(src) or os.path.islink(src):
            continue  # moved before the kill
        dst = os.path.join(folder, *parts)
        if len(parts) > 1 and not os.path.isdir(os.path.dirname(dst)):
            write_step(f"mkdir {os.path.dirname(dst)}")
            os.makedirs(os.path.dirname(dst), exist_ok=True)
        write_step(f"move {name}")
        if name not in creates:
            refuse_special(dst, "cannot write")  # never renamed over a device or a FIFO, even when replaying
            os.replace(src, dst)
            continue
        with contextlib.suppress(FileExistsError):  # linked before a kill, or a file the user made there: kept
            os.link(src, dst)
        os.unlink(src)
    _fsync_dir(folder)


def _discard(path: str) -> None:
    if os.path.islink(path) or os.path.isfile(path):
        os.unlink(path)
    elif os.path.isdir(path):
        shutil.rmtree(path)


def recover(folder: str) -> str | None:
    """Finish or undo the transaction a killed run left in ``folder``, and remove stale temporary files.

    Call it holding the folder's lock (:class:`OutputDir` does, before anything else).

    Returns
    -------
    str or None
        ``"replayed"`` (the journal was written: the files are moved into place), ``"rolled back"`` (it
        was not: the staged files are removed, the folder keeps its old content) or None (nothing to do).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     os.makedirs(os.path.join(d, STAGING, "files"))
    ...     recover(d), os.listdir(d)
    ('rolled back', [])
    """
    staging = os.path.join(folder, STAGING)
    outcome = None
    if os.path.lexists(staging):
        journal = _journal(staging) if os.path.isdir(staging) and not os.path.islink(staging) else None
        if journal is not None:
            _apply(folder, *journal)
            outcome = "replayed"
        else:
            outcome = "rolled back"
        write_step(f"remove {staging}")
        _discard(staging)
    folders = {folder}
    try:
        with open(os.path.join(folder, MANIFEST), encoding="utf-8") as fh:
            listed = read_json(fh.read(), source=MANIFEST).get("files", {})
        folders.update(os.path.join(folder, *str(n).split("/")[:-1]) for n in listed if _plain(str(n)))
    except (OSError, ValueError, AttributeError):
        pass
    for where in sorted(folders):
        _remove(_stale_temps(where))
    return outcome


@contextlib.contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Within: a SIGINT is held until the end (then raised), so that a commit, once started, completes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN or previous is None:
        yield
        return
    signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if held:
            signal.raise_signal(signal.SIGINT)


class OutputDir:
    """An output folder under the write policy of this module, written as one locked transaction.

    The first :meth:`plan`, :meth:`lock` or write takes the folder's lock (another run writing it is
    refused with one line) and replays or rolls back what a killed run left (:func:`recover`).  Writes
    are staged; :meth:`commit` puts them in place (journal, renames, ``verdicts.json`` and the manifest
    last).  :meth:`close` (or the end of a ``with`` block, or of the process) drops what was staged and
    not committed, releases the lock and removes the folder if this run created it and left it empty.

    Parameters
    ----------
    path : str
        The folder; created (with its parents) when locked.
    force : bool, optional
        Replace existing files even if the tool did not write them.
    option : str, optional
        The option that named the folder, for messages.
    hold : bool, optional
        Keep the lock after :meth:`commit` (until :meth:`close`): for a run that commits more than once.

    Raises
    ------
    InputError
        An empty path, or a path that exists and is not a folder.

    Examples
    --------
    >>> import tempfile
    >>> d = tempfile.mkdtemp()
    >>> with open(os.path.join(d, "mine.json"), "w") as fh:
    ...     _ = fh.write("{}")
    >>> out = OutputDir(d)
    >>> out.plan(["new.json"])                  # a new name: fine
    >>> _ = out.write_text("new.json", "[]")
    >>> os.path.exists(os.path.join(d, "new.json"))    # staged, not yet in place
    False
    >>> out.commit()
    >>> sorted(os.listdir(d))                   # in place, with the manifest; no lock, no staging
    ['.relations-output.json', 'mine.json', 'new.json']
    >>> out.plan(["new.json"])                  # the tool wrote it: fine to replace
    >>> out.plan(["mine.json"])                 # the user's file: refused
    Traceback (most recent call last):
    ...
    relations.errors.InputError: --out ...: mine.json exists and was not written by relations (or was edited since); use --force to replace it or --out to write elsewhere
    >>> import shutil; shutil.rmtree(d)
    """

    def __init__(self, path: str, *, force: bool = False, option: str = "--out", hold: bool = False):
        if not path:
            raise InputError(f"{option}: empty path")
        if os.path.lexists(path) and not os.path.isdir(path):
            raise InputError(f"{option} {path}: exists and is not a folder")
        self.path, self.force, self.option, self.hold = path, force, option, hold
        self._written: dict[str, str] = {}
        self._order: list[str] = []
        self._fd: int | None = None
        self._locked = False
        self._created: list[str] = []
        self._depth = 0
        self._key: tuple[int, int] = (0, 0)
        self._planned: set[str] = set()  # names checked by plan(): checked again at commit
        self._thread = 0

    def __enter__(self) -> OutputDir:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def lock(self) -> None:
        """Create the folder if missing, take its lock and recover what a killed run left (once)."""
        if self._locked:
            return
        missing = []
        at = os.path.abspath(self.path)
        while not os.path.isdir(at):
            missing.append(at)
            parent = os.path.dirname(at)
            if parent == at:
                break
            at = parent
        os.makedirs(self.path, exist_ok=True)
        self._created = missing
        st = os.stat(self.path)
        key = (st.st_dev, st.st_ino)
        earlier = _holders.get(key)
        if earlier is not None and earlier is not self and earlier._thread == threading.get_ident():
            self._created, earlier._created = self._created or earlier._created, []
            earlier.close()  # left locked by an earlier call in this thread that stopped on an error (a notebook's)
        try:
            import fcntl  # noqa: F401
        except ImportError:  # pragma: no cover  (no advisory locks on this platform)
            self._fd = None
        else:
            try:
                fd = _lock(self.path, self.option)
                self._fd = fd if fd >= 0 else None
            except InputError:  # another run holds it: the folder is that run's now, even if this one made it
                self._created = []
                raise
            except BaseException:
                self._remove_created()
                raise
        self._locked = True
        self._key, self._thread = key, threading.get_ident()
        _holders[key] = self
        atexit.register(self.close)
        write_step(f"lock {self.path}")  # not a write: a kill here is one in the compute phase, the folder made
        recover(self.path)

    def _remove_created(self) -> None:
        for folder in self._created:  # deepest first
            with contextlib.suppress(OSError):
                os.rmdir(folder)
        self._created = []

    def close(self) -> None:
        """Drop uncommitted writes, release the lock and remove the folder if this run
        created it and it is empty."""
        if not self._locked:
            return
        atexit.unregister(self.close)
        if _holders.get(self._key) is self:
            del _holders[self._key]
        with contextlib.suppress(OSError):
            self.abort()
        self._locked = False
        self._planned.clear()
        if self._fd is not None:
            _unlock(self._fd)
            self._fd = None
        self._remove_created()

    def _manifest(self) -> dict[str, str]:
        try:
            with open(os.path.join(self.path, MANIFEST), encoding="utf-8") as fh:
                files = read_json(fh.read(), source=MANIFEST).get("files", {})
            return {str(k): str(v) for k, v in files.items()} if isinstance(files, dict) else {}
        except (OSError, ValueError, AttributeError):
            return {}

    def owned(self, name: str) -> bool:
        """True iff ``name`` is absent, or the manifest lists it with its current content."""
        target = os.path.join(self.path, name)
        if not os.path.lexists(target):
            return True
        if not os.path.isfile(target) or os.path.islink(target):
            return False
        with open(target, "rb") as fh:
            return self._manifest().get(name) == _sha256(fh.read())

    def plan(self, names) -> None:
        """Lock the folder and check, before writing anything, that every file in ``names`` may be written.

        Raises
        ------
        InputError
            Another run writing the folder; a reserved name; the first file that exists and was not
            written by the tool (without ``force``).  The lock is released and nothing is left behind.
        """
        names = list(names)
        for name in names:
            check_name(name)
        self.lock()
        try:
            for name in names:
                if self.force:
                    if os.path.isdir(os.path.join(self.path, name)):
                        raise InputError(f"{self.option} {self.path}: {name} is a folder")
                    refuse_special(os.path.join(self.path, name), self.option)
                elif not self.owned(name):
                    raise InputError(f"{self.option} {self.path}: {name} exists and was not written by relations (or "
                                     "was edited since); use --force to replace it or --out to write elsewhere")
                self._planned.add(name.replace(os.sep, "/"))
        except InputError:
            self.close()
            raise

    def write_bytes(self, name: str, data: bytes) -> str:
        """Stage ``name`` (a path relative to the folder) for :meth:`commit`; returns the path it will have."""
        rel = name.replace(os.sep, "/")
        check_name(rel)
        self.lock()
        parts = rel.split("/")
        target = os.path.join(self.path, *parts)
        staged = os.path.join(self.path, STAGING, "files", *parts)
        os.makedirs(os.path.dirname(staged), exist_ok=True)
        write_step(f"stage {rel}")
        fd = os.open(staged, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            _write_fd(fd, data, file_mode(target))
        finally:
            os.close(fd)
        if rel not in self._written:
            self._order.append(rel)
        self._written[rel] = _sha256(data)
        return target

    def write_text(self, name: str, text: str) -> str:
        """:meth:`write_bytes` of UTF-8 text."""
        return self.write_bytes(name, text.encode("utf-8"))

    @contextlib.contextmanager
    def transaction(self) -> Iterator[OutputDir]:
        """Within, :meth:`commit` waits for the end of the block: what is written there is one transaction
        (and nothing of it is kept if the block raises)."""
        self._depth += 1
        try:
            yield self
        except BaseException:
            self._depth -= 1
            self.abort()
            raise
        self._depth -= 1
        self.commit()

    def abort(self) -> None:
        """Drop what was staged and not committed."""
        staging = os.path.join(self.path, STAGING)
        self._written.clear()
        self._order.clear()
        if self._locked and os.path.lexists(staging) and _journal(staging) is None:  # committed: the next run replays
            _discard(staging)

    def commit(self) -> None:
        """Put the staged files in place, with the folder's manifest updated (one transaction)."""
        if self._depth:
            return
        if self._written:
            files = self._manifest()
            files.update(self._written)
            body = json.dumps({"written by": "relations (privacy-relations): files it may replace, with their SHA-256",
                               "files": dict(sorted(files.items()))}, indent=1) + "\n"
            staging = os.path.join(self.path, STAGING)
            write_step(f"stage {MANIFEST}")
            fd = os.open(os.path.join(staging, "files", MANIFEST), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                _write_fd(fd, body.encode("utf-8"), file_mode(os.path.join(self.path, MANIFEST)))
            finally:
                os.close(fd)
            moves = ([n for n in self._order if n not in _LAST] + [n for n in self._order if n in _LAST] + [MANIFEST])
            creates = [] if self.force else [n for n in moves[:-1] if not os.path.lexists(os.path.join(self.path, n))]
            for name in moves[:-1]:  # checked again: a file may have been made, or edited, while the command ran
                try:
                    refuse_special(os.path.join(self.path, name), self.option)
                except InputError:
                    self.abort()
                    raise
                if not self.force and name in self._planned and name not in creates and not self.owned(name):
                    self.abort()
                    raise InputError(f"{self.option} {self.path}: {name} was made or edited while relations ran; "
                                     "nothing written (use --force to replace it, or --out to write elsewhere)")
            with _sigint_deferred():  # once the journal is written, the files go in place
                write_bytes_atomic(os.path.join(staging, _JOURNAL),
                                   json.dumps({"moves": moves, "create": creates}).encode())
                _fsync_dir(staging)
                _apply(self.path, moves, frozenset(creates))
                write_step(f"remove {staging}")
                _discard(staging)
                self._written.clear()
                self._order.clear()
        if not self.hold:
            self.close()
