"""The write policy: commands write only into an output folder, replacing only what they wrote.

``relations verify``, ``figures``, ``optimize --out`` and ``audit --out`` write files.  The rules
(README, "Where the tool writes"):

* a command writes only inside the folder the user names (``--out``) or its default folder;
* it never replaces a file it did not write, unless told to (``--force``): every folder it
  writes holds a manifest, ``.relations-output.json``, with the SHA-256 of each file the tool
  wrote there; an existing file is replaced only if the manifest lists it with its current
  content (a file the user wrote, or edited since, is refused with one line naming it);
* every file is written atomically (a temporary file in the same folder, then ``os.replace``),
  and a command prepares everything before it writes anything, so a refusal, an error or an
  interrupt before the write phase leaves the folder as it was; ``verdicts.json`` is written
  last, so a run killed during the (short) write phase leaves the previous ``verdicts.json``;
* caches (hypothesis's example database) live in the user cache folder
  (:func:`cache_dir`, from platformdirs, see :mod:`relations._cache`), never in the current folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import tempfile
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from relations._cache import cache_dir
from relations.errors import InputError

if TYPE_CHECKING:
    from types import FrameType

__all__ = ["MANIFEST", "OutputDir", "InterruptLatch", "check_output_file", "file_mode", "write_bytes_atomic", "cache_dir"]

#: The manifest each output folder holds: ``{"files": {relative path: sha256}}``.
MANIFEST = ".relations-output.json"


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


def write_bytes_atomic(path: str, data: bytes) -> str:
    """Write ``data`` to ``path`` atomically: a temporary file in the same folder, then ``os.replace``.

    The file gets the permissions of the file it replaces, or ``0o666`` less the umask for a new one
    (:func:`file_mode`; ``tempfile`` alone would leave it ``0o600``).

    Parameters
    ----------
    path : str
    data : bytes

    Returns
    -------
    str
        ``path``.
    """
    folder = os.path.dirname(os.path.abspath(path))
    mode = file_mode(path)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix="-" + os.path.basename(path), dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def check_output_file(path: str, *, force: bool = False, option: str = "--out") -> str:
    """Validate a single output file a user names: refused if it exists (unless ``force``) or its folder does not.

    Parameters
    ----------
    path : str
    force : bool, optional
    option : str, optional
        The option's name, for the message.

    Returns
    -------
    str
        ``path``.

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
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise InputError(f"{option} {path}: the folder {parent} does not exist")
    if os.path.lexists(path) and not force:
        raise InputError(f"{option} {path}: exists; use --force to replace it")
    return path


class OutputDir:
    """An output folder under the write policy of this module.

    Parameters
    ----------
    path : str
        The folder; created (with its parents) on the first write.
    force : bool, optional
        Replace existing files even if the tool did not write them.
    option : str, optional
        The option that named the folder, for messages.

    Raises
    ------
    InputError
        An empty path, or a path that exists and is not a folder.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     with open(os.path.join(d, "mine.json"), "w") as fh:
    ...         _ = fh.write("{}")
    ...     out = OutputDir(d)
    ...     out.plan(["new.json"])                 # a new name: fine
    ...     _ = out.write_text("new.json", "[]")
    ...     out.commit()
    ...     out.plan(["new.json"])                 # the tool wrote it: fine to replace
    ...     out.plan(["mine.json"])                # the user's file: refused
    Traceback (most recent call last):
    ...
    relations.errors.InputError: --out ...: mine.json exists and was not written by relations (or was edited since); use --force to replace it or --out to write elsewhere
    """

    def __init__(self, path: str, *, force: bool = False, option: str = "--out"):
        if not path:
            raise InputError(f"{option}: empty path")
        if os.path.lexists(path) and not os.path.isdir(path):
            raise InputError(f"{option} {path}: exists and is not a folder")
        self.path, self.force, self.option = path, force, option
        self._written: dict[str, str] = {}

    def _manifest(self) -> dict[str, str]:
        try:
            with open(os.path.join(self.path, MANIFEST), encoding="utf-8") as fh:
                files = json.load(fh).get("files", {})
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
        """Check, before writing anything, that every file in ``names`` may be written.

        Raises
        ------
        InputError
            Naming the first file that exists and was not written by the tool (without ``force``).
        """
        if self.force:
            for name in names:
                if os.path.isdir(os.path.join(self.path, name)):
                    raise InputError(f"{self.option} {self.path}: {name} is a folder")
            return
        for name in names:
            if not self.owned(name):
                raise InputError(f"{self.option} {self.path}: {name} exists and was not written by relations (or was "
                                 "edited since); use --force to replace it or --out to write elsewhere")

    def write_bytes(self, name: str, data: bytes) -> str:
        """Write ``name`` (a path relative to the folder) atomically; returns its path."""
        target = os.path.join(self.path, name)
        os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
        write_bytes_atomic(target, data)
        self._written[name.replace(os.sep, "/")] = _sha256(data)
        return target

    def write_text(self, name: str, text: str) -> str:
        """:meth:`write_bytes` of UTF-8 text."""
        return self.write_bytes(name, text.encode("utf-8"))

    def commit(self) -> None:
        """Record the files written in the folder's manifest (atomically)."""
        if not self._written:
            return
        files = self._manifest()
        files.update(self._written)
        os.makedirs(self.path, exist_ok=True)
        body = json.dumps({"written by": "relations (privacy-relations): files it may replace, with their SHA-256",
                           "files": dict(sorted(files.items()))}, indent=1) + "\n"
        write_bytes_atomic(os.path.join(self.path, MANIFEST), body.encode("utf-8"))
