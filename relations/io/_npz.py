"""Reading mechanisms from NumPy ``.npz`` archives (float64 arrays ``prior`` and ``channel``).

Small arrays are taken exactly (each float its binary value, rows renormalised exactly,
with a rounding radius); large ones are in float mode, unless the archive's ``mode`` array or
the caller's numeric mode chooses (``docs/semantics.md``, "Numeric mode").
The archive is read once (:func:`relations.io._inputs.read_input`) and then member by member:
each ``.npy`` header is parsed and its size checked against the limit before anything is
allocated, only the arrays of :data:`NPZ_ARRAYS` are accepted, and an array of Python
objects is refused: nothing in an archive is unpickled or run.
"""

from __future__ import annotations

import io
import math
import os
import zipfile
import zlib
from typing import cast

import numpy as np
from numpy.lib import format as npy

from relations.errors import InputError
from relations.io._inputs import LIMIT_VARIABLE, Input, input_limit, read_input, size_text
from relations.kinds import NumericMode
from relations.model._distributions import Channel, Prior
from relations.model._floats import auto_rule, check_exact_size, exact_flag, float_rows, mode_rule, numeric_mode
from relations.model._mechanism import Mechanism
from relations.model._neighbours import HammingInputs, LocalInputs
from relations.model._validate import MAX_RECORDS, dataset_count

__all__ = ["NPZ_ARRAYS", "MAX_NPZ_MEMBERS", "load_npz", "npz_from_bytes", "npz_arrays"]

#: The arrays an ``.npz`` mechanism file may hold (members ``NAME.npy``); any other member is an error.
NPZ_ARRAYS = ("prior", "channel", "setting", "records", "domain_size", "mode")
#: Element kinds accepted in a ``.npy`` header: booleans, integers, floats, complex, text.
_KINDS = "biufcUS"
_CHUNK = 1 << 20
_BAD_ARCHIVE = (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, NotImplementedError,
                RuntimeError, zlib.error)


def load_npz(path: str | os.PathLike, *, mode: NumericMode | str = NumericMode.AUTO) -> Mechanism:
    """Load a mechanism from the ``.npz`` arrays ``prior`` and ``channel`` (float64).

    Under the numeric mode ``auto`` (the default), the archive's ``mode`` array decides when it
    has one; otherwise arrays with at most :data:`~relations.model.MAX_EXACT_FLOAT_ENTRIES`
    entries are taken exactly: each float is its binary value and each row is renormalised
    exactly (rows must sum to 1 within :data:`~relations.model.FLOAT_TOLERANCE`); claims within
    the inputs' rounding are ``holds within rounding``.  Larger arrays are in float mode.
    ``mode="exact"`` or ``"float"`` chooses, whatever the archive says.

    Parameters
    ----------
    path : str or os.PathLike
        The archive (``-`` for standard input; a pipe is fine: it is read once).  Optional
        0-d arrays: ``setting`` (``"local"`` by default, or ``"central"`` with ``records``
        and ``domain_size``: inputs are then ``D^r`` in row-major order) and ``mode``
        (``"exact"`` or ``"float"``; by default exact up to
        :data:`~relations.model.MAX_EXACT_FLOAT_ENTRIES` entries).
    mode : NumericMode or str, optional
        ``"auto"``, ``"exact"`` (at most :data:`~relations.model._floats.MAX_EXACT_MODE_ENTRIES`
        channel entries, checked before the arrays are validated) or ``"float"``.

    Returns
    -------
    Mechanism
        Exact (rationals from the floats) or float mode (``exact`` is False: budgets are floats
        without exact forms); its ``mode_rule`` says which rule chose.

    Raises
    ------
    InputError
        If the archive cannot be read, is larger than its limit
        (:data:`~relations.io._inputs.MAX_NPZ_BYTES`), an array is missing, unknown,
        misshapen or invalid, or the mode (``mode`` or the archive's) is ``exact`` for a channel
        of more than :data:`~relations.model._floats.MAX_EXACT_MODE_ENTRIES` entries.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from relations import measure
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "rr.npz")
    ...     np.savez(path, prior=np.array([0.5, 0.5]), channel=np.array([[0.75, 0.25], [0.25, 0.75]]))
    ...     m = load_npz(path)
    ...     f = load_npz(path, mode="float")
    >>> m.exact, str(measure(m).eps_d.exact), m.rounding[0] == 2**-42  # 0.75 and 0.25 are binary
    (True, 'ln(3)', True)
    >>> m.mode_rule, f.exact, f.mode_rule
    ('auto: a float array of at most 65536 entries', False, 'chosen by the caller')
    """
    got = read_input(path)
    return npz_from_bytes(got.data, source=got.name, mode=mode)


def npz_from_bytes(data: bytes, *, source: str = "<input>", mode: NumericMode | str = NumericMode.AUTO) -> Mechanism:
    """Build a mechanism from the bytes of an ``.npz`` archive (see :func:`load_npz`).

    Parameters
    ----------
    data : bytes
        The whole archive.
    source : str, optional
        Its name, for messages and reports.
    mode : NumericMode or str, optional
        As for :func:`load_npz`.

    Returns
    -------
    Mechanism
        As :func:`load_npz` returns it.

    Raises
    ------
    InputError
        If ``data`` is not a zip archive (say, JSON text), or any rule of :func:`load_npz` is broken.

    Examples
    --------
    >>> npz_from_bytes(b'{"setting": "local"}', source="m.npz")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: m.npz: not an .npz archive (it looks like JSON)
    """
    mode = numeric_mode(mode)
    got = Input(source, data)
    if not got.is_zip:
        hint = "it looks like JSON" if got.looks_like_json else "a zip archive starts with PK\\x03\\x04"
        raise InputError(f"{source}: not an .npz archive ({hint})")
    try:
        return _from_arrays(npz_arrays(data), source, mode)
    except InputError as exc:
        raise InputError(f"{source}: {exc}") from None


def npz_arrays(data: bytes, limit: int | None = None) -> dict[str, np.ndarray]:
    """The arrays of an ``.npz`` archive, read member by member within a size limit.

    Parameters
    ----------
    data : bytes
        The archive.
    limit : int, optional
        The most bytes its arrays may hold uncompressed, each entry counted as at least 8
        bytes (its float64 size); by default :func:`~relations.io._inputs.input_limit`.

    Returns
    -------
    dict of str to numpy.ndarray
        One entry per member ``NAME.npy`` (``NAME`` one of :data:`NPZ_ARRAYS`).

    Raises
    ------
    InputError
        For a damaged archive, an unknown or repeated member, an unsupported compression
        or ``.npy`` version, an array of objects, or arrays beyond ``limit``.
    """
    limit = input_limit(True) if limit is None else limit
    arrays: dict[str, np.ndarray] = {}
    _check_directory(data)  # before zipfile reads the central directory: a million members cost seconds
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
            for info in infos:
                key = info.filename[:-4] if info.filename.endswith(".npy") else None
                if key not in NPZ_ARRAYS:
                    raise InputError(f"unknown member {info.filename[:60]!r}; an .npz mechanism file holds only "
                                     f"the arrays {', '.join(NPZ_ARRAYS)}")
                if sum(i.filename == info.filename for i in infos) > 1:
                    raise InputError(f"array '{key}' appears more than once")
                if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                    raise InputError(f"array '{key}': compression method {info.compress_type} is not supported "
                                     "(np.savez and np.savez_compressed store or deflate)")
            declared = sum(i.file_size for i in infos)
            if declared > limit + 4096 * len(infos):  # the members' own sizes, .npy headers included
                raise InputError(f"its arrays declare {declared} bytes uncompressed, more than the limit of "
                                 f"{size_text(limit)}; {_RAISE}")
            for info in infos:
                key = info.filename[:-4]
                arrays[key] = _member(archive, info, key, limit, sum(_cost(a) for a in arrays.values()))
    except InputError:
        raise
    except _BAD_ARCHIVE as exc:
        raise InputError(f"not a readable .npz file ({' '.join(str(exc).split())[:200]})") from None
    return arrays


_RAISE = f"set the environment variable {LIMIT_VARIABLE} to raise it"

#: Most members an ``.npz`` mechanism file may hold (one per array of :data:`NPZ_ARRAYS`), and most bytes
#: of its central directory (a member's entry, its name and extra fields, at most 1 KiB each): both read
#: from the end-of-central-directory record, before any member is opened.
MAX_NPZ_MEMBERS = len(NPZ_ARRAYS)
MAX_NPZ_DIRECTORY = MAX_NPZ_MEMBERS * 1024


def _check_directory(data: bytes) -> None:
    """Refuse an archive whose end-of-central-directory record (zip64's too) declares more than
    :data:`MAX_NPZ_MEMBERS` members or a central directory of more than :data:`MAX_NPZ_DIRECTORY` bytes.

    An archive without the record is left to :mod:`zipfile` (which refuses it).

    Examples
    --------
    >>> import io, zipfile
    >>> buf = io.BytesIO()
    >>> with zipfile.ZipFile(buf, "w") as z:
    ...     for i in range(7):
    ...         z.writestr(f"a{i}.npy", b"")
    >>> _check_directory(buf.getvalue())
    Traceback (most recent call last):
    ...
    relations.errors.InputError: the archive declares 7 members; an .npz mechanism file holds at most 6 (one per \
array: prior, channel, setting, records, domain_size, mode)
    """
    import struct

    at = data.rfind(b"PK\x05\x06", max(0, len(data) - 22 - 0xFFFF))
    if at < 0 or len(data) < at + 22:
        return
    total, size = struct.unpack_from("<HI", data, at + 10)
    if (total == 0xFFFF or size == 0xFFFFFFFF) and at >= 20 and data[at - 20:at - 16] == b"PK\x06\x07":
        (record,) = struct.unpack_from("<Q", data, at - 12)  # the zip64 end record's offset
        if data[record:record + 4] == b"PK\x06\x06" and len(data) >= record + 48:
            total, size = struct.unpack_from("<QQ", data, record + 32)
    if total > MAX_NPZ_MEMBERS:
        raise InputError(f"the archive declares {total} members; an .npz mechanism file holds at most "
                         f"{MAX_NPZ_MEMBERS} (one per array: {', '.join(NPZ_ARRAYS)})")
    if size > MAX_NPZ_DIRECTORY:
        raise InputError(f"the archive's central directory is {size} bytes, more than {MAX_NPZ_DIRECTORY} for "
                         f"{MAX_NPZ_MEMBERS} members; an .npz mechanism file holds only the arrays "
                         f"{', '.join(NPZ_ARRAYS)}")


def _cost(a: np.ndarray) -> int:
    return a.size * max(a.dtype.itemsize, 8)


def _member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, key: str, limit: int, used: int) -> np.ndarray:
    """One ``.npy`` member: its header checked (kind, size) before its data is read, in bounded chunks;
    the arrays read before it hold ``used`` of the ``limit`` bytes."""
    with cast(zipfile.ZipExtFile, archive.open(info)) as fh:  # what open() returns for reading
        try:
            version = npy.read_magic(fh)
            if version not in ((1, 0), (2, 0)):
                raise InputError(f"array '{key}': .npy format version {version} is not supported")
            read_header = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
            shape, fortran, dtype = read_header(fh)
        except ValueError as exc:
            if isinstance(exc, InputError):
                raise
            raise InputError(f"array '{key}': not a readable .npy array ({' '.join(str(exc).split())[:200]})") \
                from None
        if dtype.hasobject:
            raise InputError(f"array '{key}': holds Python objects (dtype {dtype}); pickled data is never loaded")
        if dtype.kind not in _KINDS or dtype.fields is not None or dtype.subdtype is not None or not dtype.itemsize:
            raise InputError(f"array '{key}': dtype {dtype} is not supported (expected numbers, or text for a 0-d "
                             "array)")
        if any(d < 0 for d in shape):
            raise InputError(f"array '{key}': negative shape {shape}")
        count = math.prod(shape)
        nbytes = count * dtype.itemsize
        if used + count * max(dtype.itemsize, 8) > limit:
            raise InputError(f"array '{key}': shape {shape} ({count} entries of {dtype}) is beyond the limit of "
                             f"{size_text(limit)} for the arrays of an .npz file (8 bytes an entry); {_RAISE}")
        if nbytes > info.file_size - fh.tell():
            raise InputError(f"array '{key}': shape {shape} needs {nbytes} bytes, but the member holds "
                             f"{info.file_size - fh.tell()}")
        flat = np.empty(count, dtype=dtype)  # the checked size; filled in bounded chunks, no further copy
        # numpy's stubs give ndarray.__buffer__ for Python >= 3.12 only (the configured version is 3.11)
        raw = memoryview(flat.view(np.uint8)) if count else memoryview(b"")  # type: ignore[arg-type]
        got = 0
        while got < nbytes:
            n = fh.readinto(raw[got:got + min(_CHUNK, nbytes - got)])
            if not n:
                raise InputError(f"array '{key}': truncated ({got} of {nbytes} bytes)")
            got += n
        if fh.read(1):  # also checks the member's CRC
            raise InputError(f"array '{key}': extra bytes after the {shape} array")
    if count == 0:
        return np.empty(shape, dtype=dtype)
    return flat.reshape(shape, order="F").copy() if fortran else flat.reshape(shape)


def _scalar(arrays: dict, key: str):
    a = arrays[key]
    if a.shape != ():
        raise InputError(f"array '{key}': expected a 0-d array, got shape {a.shape}")
    value = a.item()
    return value.decode("ascii", "replace") if isinstance(value, bytes) else value


def _from_arrays(arrays: dict, source: str = "", mode: NumericMode = NumericMode.AUTO) -> Mechanism:
    for key in ("prior", "channel"):
        if key not in arrays:
            raise InputError(f"array '{key}' is missing")
    q = arrays["channel"]
    p = arrays["prior"]
    if q.ndim != 2 or q.shape[0] == 0 or q.shape[1] == 0:
        raise InputError(f"array 'channel': expected a non-empty 2-d array, got shape {q.shape}")
    if p.ndim != 1 or p.shape[0] != q.shape[0]:
        raise InputError(f"array 'prior': shape {p.shape} does not match the channel's {q.shape[0]} rows")
    if not (np.issubdtype(q.dtype, np.floating) or np.issubdtype(q.dtype, np.integer)):
        raise InputError(f"array 'channel': expected float64 entries, got {q.dtype}")
    if not (np.issubdtype(p.dtype, np.floating) or np.issubdtype(p.dtype, np.integer)):
        raise InputError(f"array 'prior': expected float64 entries, got {p.dtype}")
    written = str(_scalar(arrays, "mode")) if "mode" in arrays else None
    if written not in (None, "exact", "float"):
        raise InputError(f"array 'mode': expected 'exact' or 'float', got {written!r}")
    if mode is NumericMode.AUTO and written is not None:  # the file's own choice replaces the size rule
        mode, rule = NumericMode(written), "the file's mode array"
    else:
        rule = auto_rule(q.size) if mode is NumericMode.AUTO else mode_rule(q, mode)
    exact = exact_flag(mode)
    if exact:  # up front: before any array is validated or converted
        check_exact_size(q.size, "array 'channel'")
    for loaded in (p, q):  # read from the file (npz_arrays): marked read-only, float_rows need not copy them
        loaded.setflags(write=False)
    p = float_rows(p[None, :], "prior")[0]  # the channel is validated once, by Channel.of below
    setting = str(_scalar(arrays, "setting")) if "setting" in arrays else "local"
    if setting not in ("local", "central"):
        raise InputError(f"array 'setting': unknown setting {setting!r} (expected 'local' or 'central')")
    n = q.shape[0]
    if setting == "local":
        inputs: LocalInputs | HammingInputs = LocalInputs(tuple(map(str, range(n))))
    else:
        for key in ("records", "domain_size"):
            if key not in arrays:
                raise InputError(f"central setting needs the 0-d array '{key}'")
        r, k = _scalar(arrays, "records"), _scalar(arrays, "domain_size")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (r, k)) or not (
                1 <= r <= MAX_RECORDS and k >= 1):
            raise InputError(f"'records' (at most {MAX_RECORDS}) and 'domain_size' must be positive integers, "
                             f"got {r!r}, {k!r}")
        if dataset_count(k, r) != n:
            raise InputError(f"array 'channel': {n} rows but domain_size^records = {k}^{r}")
        inputs = HammingInputs(tuple(map(str, range(k))), r)
    channel = Channel.of(np.asarray(q, dtype=np.float64), where="channel", exact=exact)
    prior = Prior.of(np.asarray(p, dtype=np.float64), exact=exact if channel.exact is not None else False)
    if (prior.exact is None) != (channel.exact is None):  # a large prior with a small channel: both in floats
        channel = Channel.of(np.asarray(q, dtype=np.float64), where="channel", exact=False)
        prior = Prior.of(np.asarray(p, dtype=np.float64), exact=False)
    return Mechanism(setting, prior, channel, inputs, tuple(map(str, range(q.shape[1]))), channel.exact is not None,
                     source, rule)
