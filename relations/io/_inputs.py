"""One input path: every file a command reads is read once, with a bounded read, before it is parsed.

A file is named by a path, by ``-`` (standard input), or by anything the system opens
like a path: ``/dev/stdin``, a named pipe (FIFO), a process substitution (``/dev/fd/N``).
It is opened once and read once, at most one byte beyond its limit, so a pipe works,
and an endless source such as ``/dev/zero`` is refused promptly rather than read
without bound.  The format is then decided from the bytes themselves: an archive that
starts with a zip signature is an ``.npz`` file, anything else is JSON text
(``docs/mechanism-files.md``, "Reading files").

Limits (bytes): :data:`MAX_JSON_BYTES` for JSON and :data:`MAX_NPZ_BYTES` for ``.npz``
archives (also the most their arrays may hold uncompressed).  The environment variable
:data:`LIMIT_VARIABLE` (``RELATIONS_MAX_INPUT_BYTES``), a whole number of bytes,
replaces both.
"""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass

from relations.errors import InputError

__all__ = ["MAX_JSON_BYTES", "MAX_NPZ_BYTES", "LIMIT_VARIABLE", "ZIP_SIGNATURES", "Input", "input_limit",
           "read_input", "size_text"]

#: Largest JSON file read, in bytes (64 MiB); see :data:`LIMIT_VARIABLE`.
MAX_JSON_BYTES = 64 * 2**20
#: Largest ``.npz`` archive read, in bytes (256 MiB); its arrays together may hold at most as
#: many bytes uncompressed.  See :data:`LIMIT_VARIABLE`.
MAX_NPZ_BYTES = 256 * 2**20
#: The environment variable that, set to a whole number of bytes, replaces both limits.
LIMIT_VARIABLE = "RELATIONS_MAX_INPUT_BYTES"
#: How a zip archive (an ``.npz`` file) starts: a local file header, or an empty archive.
ZIP_SIGNATURES = (b"PK\x03\x04", b"PK\x05\x06")

_CHUNK = 1 << 20


@dataclass(frozen=True)
class Input:
    """The bytes of one input, read once.

    Attributes
    ----------
    name : str
        How messages and reports name it: the path as given, or ``<stdin>`` for ``-``.
    data : bytes
        Its whole content (at most its limit).
    """

    name: str
    data: bytes

    @property
    def is_zip(self) -> bool:
        """Whether the content starts with a zip signature (an ``.npz`` archive)."""
        return self.data.startswith(ZIP_SIGNATURES)

    @property
    def looks_like_json(self) -> bool:
        """Whether the first non-blank character opens a JSON object or list."""
        return self.data.lstrip(b" \t\r\n")[:1] in (b"{", b"[")


def size_text(n: int) -> str:
    """A byte count for a message: ``64 MiB (67108864 bytes)``, or just ``1000 bytes``.

    Examples
    --------
    >>> size_text(64 * 2**20), size_text(1000)
    ('64 MiB (67108864 bytes)', '1000 bytes')
    """
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit} ({n} bytes)"
    return f"{n} bytes"


def input_limit(zip_archive: bool) -> int:
    """The most bytes read for one input: :data:`MAX_NPZ_BYTES` for a zip archive, else
    :data:`MAX_JSON_BYTES`, unless :data:`LIMIT_VARIABLE` is set.

    Parameters
    ----------
    zip_archive : bool
        Whether the input is an ``.npz`` archive.

    Returns
    -------
    int
        Bytes.

    Raises
    ------
    InputError
        If :data:`LIMIT_VARIABLE` is set to anything but a whole number of bytes >= 1.

    Examples
    --------
    >>> input_limit(False) == MAX_JSON_BYTES or LIMIT_VARIABLE in os.environ
    True
    """
    text = os.environ.get(LIMIT_VARIABLE)
    if text is None or not text.strip():
        return MAX_NPZ_BYTES if zip_archive else MAX_JSON_BYTES
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 30 or int(text) < 1:  # length before int()
        raise InputError(f"environment variable {LIMIT_VARIABLE}={text[:40]!r}: expected a whole number of "
                         "bytes (at least 1)")
    return int(text)


def read_input(path: str | os.PathLike, *, what: str = "") -> Input:
    """Read an input once, bounded: a path, ``-`` (standard input), ``/dev/stdin``, a FIFO or ``/dev/fd/N``.

    The first bytes decide the limit (:func:`input_limit`: an ``.npz`` archive or JSON);
    a regular file larger than it is refused before it is read, and anything else is read
    up to one byte beyond it.

    Parameters
    ----------
    path : str or os.PathLike
        The input; ``-`` is standard input.
    what : str, optional
        What the file is, for messages (``"loss matrix"``).

    Returns
    -------
    Input

    Raises
    ------
    InputError
        If it cannot be opened or read, or is larger than its limit; the message names
        the limit and :data:`LIMIT_VARIABLE`.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "m.json")
    ...     with open(path, "w") as fh:
    ...         _ = fh.write('{"setting": "local"}')
    ...     got = read_input(path)
    >>> got.data, got.is_zip
    (b'{"setting": "local"}', False)
    """
    path = os.fspath(path)
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    label = f"{what} {path}" if what else path
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise InputError("cannot read <stdin>: standard input is closed")
        return Input("<stdin>", _read(stream, "<stdin>", "<stdin>"))
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed below; a FIFO blocks here until a writer opens it
    except OSError as exc:
        raise InputError(f"cannot read {label}: {exc.strerror or exc}") from None
    with fh:
        return Input(path, _read(fh, path, label))


def _read(fh, name: str, label: str) -> bytes:
    try:
        first = fh.read(_CHUNK)
        limit = input_limit(first.startswith(ZIP_SIGNATURES))
        try:
            info = os.fstat(fh.fileno())
        except (OSError, ValueError, AttributeError):  # a stream without a descriptor
            info = None
        regular = info is not None and stat.S_ISREG(info.st_mode)
        if regular and info is not None and info.st_size > limit:  # regular implies info is not None
            _too_large(name, limit, first)
        chunks, total, chunk, want = [first], len(first), first, _CHUNK
        if regular and len(first) == _CHUNK and fh.seekable():
            fh.seek(0)  # one read into one buffer, no chunks to join; the loop goes on if the file grew
            assert info is not None  # regular
            want = info.st_size + 1
            chunk = fh.read(want)
            chunks, total = [chunk], len(chunk)
        while len(chunk) == want and total <= limit:  # a short read is the end (buffered reads fill up)
            want = min(_CHUNK, limit + 1 - total)
            chunk = fh.read(want)
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise InputError(f"cannot read {label}: {exc.strerror or exc}") from None
    if total > limit:
        _too_large(name, limit, chunks[0])
    return b"".join(chunks)


def _too_large(name: str, limit: int, head: bytes) -> None:
    kind = ".npz archive" if head.startswith(ZIP_SIGNATURES) else "JSON file"
    raise InputError(f"{name}: larger than {size_text(limit)}, the limit for a {kind}; set the environment "
                     f"variable {LIMIT_VARIABLE} to a larger number of bytes to raise it")
