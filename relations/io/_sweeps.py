"""A sweep's output folder: one Parquet file per finished chunk, resumable after any interruption.

``relations sweep SPEC --out DIR`` (:func:`relations.app._sweep.run_sweep`) writes, under the write policy of
:mod:`relations.io._outputs`:

* ``DIR/sweep.json``: the normalised specification, its fingerprint and the chunk layout, written
  before the first chunk (and listed in ``.relations-output.json``);
* ``DIR/chunks/NNNNN.parquet``: each chunk's rows, written when the chunk finishes (a temporary
  file, then a rename), with the sweep's fingerprint and the chunk's number in the file's metadata;
* ``DIR/chunks.jsonl``: the manifest of finished chunks, one line per chunk (its file, rows and
  SHA-256), appended and flushed to disk after the chunk's file is in place;
* at the end ``summary.json`` and, for each relation with a counterexample (or a witness of a
  non-implication), a mechanism file ``counterexamples/ID.json`` (:mod:`relations.io._sweep_summary`).

Re-running the same command after Ctrl-C or SIGKILL computes only the chunks missing: a chunk counts as
done when the manifest lists it with its file's SHA-256, or when its file is in place with this sweep's
fingerprint, its number and its full row count (killed between the rename and the manifest line), so no
chunk is computed twice or lost.  A different specification (or chunk size) into the same folder is
refused unless ``force``, which replaces the old sweep.  Two runs cannot write one folder at once (the
folder's lock, :class:`~relations.io._outputs.OutputDir`, held from the first check to the end), and
``sweep.json`` and the final files (summary, counterexamples, sorted manifest) are each written as one
transaction: a run killed while writing them completes when run again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator
from typing import Any

from relations._json import read_json
from relations.errors import InputError
from relations.io._outputs import OutputDir, write_bytes_atomic, write_step
from relations.sweeps._chunks import (
    MEASURE_COLUMNS,
    STATUS_PREFIX,
    chunk_bounds,
    chunk_count,
    default_chunk_size,
)
from relations.sweeps._spec import SweepSpec, parse_spec, parse_spec_text

__all__ = ["SWEEP_FILE", "CHUNK_LOG", "SweepFolder", "load_spec", "chunk_name", "arrow_schema", "chunk_bytes",
           "iter_rows", "read_rows", "require_pyarrow"]

#: The sweep's description in its folder.
SWEEP_FILE = "sweep.json"
#: The manifest of finished chunks (JSON lines).
CHUNK_LOG = "chunks.jsonl"
_META = b"relations.sweep"
_CHUNK = re.compile(r"^(\d{5})\.parquet$")


def load_spec(spec: Any) -> SweepSpec:
    """A sweep specification from a file path, JSON text of an object, a dict or a :class:`SweepSpec`."""
    if isinstance(spec, SweepSpec):
        return spec
    if isinstance(spec, dict):
        return parse_spec(spec)
    if isinstance(spec, str) and spec.lstrip().startswith("{"):
        return parse_spec_text(spec)
    from relations.io._inputs import read_input

    data = read_input(spec, what="sweep spec").data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{spec}: not UTF-8 text") from None
    try:
        return parse_spec_text(text)
    except InputError as exc:
        raise InputError(f"{spec}: {exc}") from None


def chunk_name(chunk: int) -> str:
    """The relative path of a chunk's file: ``chunks/00012.parquet``."""
    return f"chunks/{chunk:05d}.parquet"


def arrow_schema(spec: SweepSpec) -> Any:
    """The Parquet schema of a sweep's rows (whole-number parameters as int64, exact values as text)."""
    import pyarrow as pa

    ints = {"k", "s", "n", "delta", "width", "theorem", "records"}
    fields = [("index", pa.int64())] + [(c, pa.int64() if c in ints else pa.string()) for c in spec.columns]
    fields += [("error", pa.string())]
    fields += [(c, pa.float64() if c.endswith("_value") else pa.string()) for c in MEASURE_COLUMNS]
    fields += [(STATUS_PREFIX + r, pa.string()) for r in spec.relations]
    if spec.members is not None:  # a family up to relabelling: how many members each row stands for
        fields += [("orbit", pa.int64())]
    return pa.schema(fields)


def chunk_bytes(spec: SweepSpec, chunk_size: int, chunk: int, rows: list[dict]) -> bytes:
    """A chunk's rows as a Parquet file, its metadata naming the sweep and the chunk."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    meta = json.dumps({"fingerprint": spec.fingerprint, "chunk_size": chunk_size, "chunk": chunk, "rows": len(rows)})
    table = pa.Table.from_pylist(rows, schema=arrow_schema(spec).with_metadata({_META: meta.encode()}))
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


def _sha(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def require_pyarrow() -> None:
    """Refuse, in one line, a sweep without the ``sweep`` extra (pyarrow)."""
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        from relations._install import install_hint

        raise InputError("relations sweep needs pyarrow, in the sweep extra: "
                         + install_hint("sweep", only=["pyarrow>=14"])) from None


def _read_json(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as fh:
            return read_json(fh.read(), source=path)
    except (OSError, ValueError):
        return None


def _clear(out: str) -> None:
    """Remove an old sweep's chunk files and chunk manifest (``force``)."""
    folder = os.path.join(out, "chunks")
    if os.path.isdir(folder):
        for name in os.listdir(folder):
            if _CHUNK.match(name) or name.startswith(".tmp-"):
                os.unlink(os.path.join(folder, name))
    if os.path.isfile(os.path.join(out, CHUNK_LOG)):
        os.unlink(os.path.join(out, CHUNK_LOG))


def _prepare(spec: SweepSpec, out: OutputDir, chunk_size: int | None, force: bool) -> tuple[int, bool]:
    """Check the folder against the write policy; returns the chunk size and whether the sweep is new."""
    old: Any = (_read_json(os.path.join(out.path, SWEEP_FILE)) if os.path.lexists(os.path.join(out.path, SWEEP_FILE))
                else None)
    names = [SWEEP_FILE, "summary.json"] + [f"counterexamples/{r}.json" for r in spec.relations]
    if old is not None or os.path.lexists(os.path.join(out.path, SWEEP_FILE)):
        if not out.owned(SWEEP_FILE) and not force:
            raise InputError(f"--out {out.path}: {SWEEP_FILE} exists and was not written by relations (or was edited "
                             "since); use --force to replace it or --out to write elsewhere")
        same = isinstance(old, dict) and old.get("fingerprint") == spec.fingerprint
        if same and (chunk_size is None or old.get("chunk_size") == chunk_size):
            out.plan(names[1:])
            return int(old["chunk_size"]), False
        if not force:
            why = "its chunk size is " + str(old.get("chunk_size")) if same else "its specification differs"
            raise InputError(f"--out {out.path}: holds a different sweep ({why}); use --force to replace it or "
                             "--out to write elsewhere")
    elif not force and (os.path.lexists(os.path.join(out.path, CHUNK_LOG)) or any(
            _CHUNK.match(n) for n in (os.listdir(os.path.join(out.path, "chunks"))
                                      if os.path.isdir(os.path.join(out.path, "chunks")) else ()))):
        raise InputError(f"--out {out.path}: holds chunk files without {SWEEP_FILE}; use --force to replace them or "
                         "--out to write elsewhere")
    out.plan(names)
    _clear(out.path)
    return chunk_size or default_chunk_size(spec), True


def _recover(spec: SweepSpec, out: str, chunk_size: int, chunks: int) -> dict[int, dict]:
    """The chunks already done: listed in the manifest with their file's SHA-256, or complete files of this sweep."""
    import pyarrow.parquet as pq

    done: dict[int, dict] = {}
    try:
        with open(os.path.join(out, CHUNK_LOG), encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError:
        lines = []
    for line in lines:
        try:
            entry = read_json(line, source=CHUNK_LOG)
            c = entry["chunk"]
            if isinstance(c, int) and 0 <= c < chunks and entry["file"] == chunk_name(c) \
                    and _sha(os.path.join(out, entry["file"])) == entry["sha256"]:
                done[c] = entry
        except (ValueError, KeyError, TypeError, OSError):
            continue  # a line cut short by a kill, or a file gone: the chunk is computed again
    folder = os.path.join(out, "chunks")
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
        path = os.path.join(folder, name)
        if name.startswith(".tmp-"):
            os.unlink(path)  # a write cut short
            continue
        match = _CHUNK.match(name)
        if not match or int(match.group(1)) in done:
            continue
        c = int(match.group(1))
        try:
            meta = pq.read_metadata(path)
            info = read_json((meta.metadata or {}).get(_META, b"{}"), source=name)
        except Exception:
            continue
        if c < chunks and info.get("fingerprint") == spec.fingerprint and info.get("chunk") == c \
                and info.get("chunk_size") == chunk_size and meta.num_rows == _expected_rows(spec, chunk_size, c):
            done[c] = {"chunk": c, "file": chunk_name(c), "rows": meta.num_rows, "sha256": _sha(path)}
    body = "".join(json.dumps(done[c]) + "\n" for c in sorted(done))
    write_bytes_atomic(os.path.join(out, CHUNK_LOG), body.encode())
    return done


def _expected_rows(spec: SweepSpec, chunk_size: int, chunk: int) -> int:
    return len(spec.representatives(*chunk_bounds(spec, chunk_size, chunk))[0])


def iter_rows(out: str, *, columns: list[str] | None = None) -> Iterator[dict[str, Any]]:
    """The rows of a sweep folder's finished chunks, chunk by chunk in chunk order (so in point order when
    every chunk is there), one chunk in memory at a time.
    """
    require_pyarrow()
    import pyarrow.parquet as pq

    folder = os.path.join(out, "chunks")
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
        if _CHUNK.match(name):
            yield from pq.read_table(os.path.join(folder, name), columns=columns).to_pylist()


def read_rows(out: str, *, columns: list[str] | None = None) -> list[dict[str, Any]]:
    """Every row of a sweep folder's finished chunks, in point order (each chunk read once).

    Parameters
    ----------
    out : str
        The folder.
    columns : list of str, optional
        Only these columns.

    Returns
    -------
    list of dict
    """
    rows = list(iter_rows(out, columns=columns))
    return sorted(rows, key=lambda r: r["index"]) if rows and "index" in rows[0] else rows


class SweepFolder:
    """A sweep's output folder, locked against a second writer while open.

    :func:`relations.app._sweep.run_sweep` opens it (:meth:`open`), adds each chunk as it finishes
    (:meth:`add_chunk`), then writes the summary (:meth:`finish`) and closes it.

    Parameters
    ----------
    out : str
        The folder (created if missing).
    force : bool, optional
        Replace a different sweep (or files relations did not write).
    """

    def __init__(self, out: str, *, force: bool = False) -> None:
        self.out = out
        self.force = force
        self._folder = OutputDir(out, force=force, hold=True)
        self._log: Any = None
        self.spec: SweepSpec | None = None
        self.chunk_size = 0
        self.chunks = 0
        self.done: dict[int, dict] = {}

    def open(self, spec: SweepSpec, chunk_size: int | None) -> dict[int, dict]:
        """Lock the folder, check it (a different sweep is refused unless ``force``), write ``sweep.json`` for a
        new sweep, and return the chunks already done (by chunk number)."""
        self._folder.lock()  # refused with one line if another run writes the folder; a killed run's write replayed
        if os.path.isfile(os.path.join(self.out, ".sweep.lock")):
            os.unlink(os.path.join(self.out, ".sweep.lock"))  # the lock file of versions before 0.6
        size, new = _prepare(spec, self._folder, chunk_size, self.force)
        n = chunk_count(spec, size)
        if new:
            self._folder.write_text(SWEEP_FILE, json.dumps({
                "written by": "relations sweep", "fingerprint": spec.fingerprint, "points": spec.count,
                "members": spec.span, "chunk_size": size, "chunks": n, "spec": spec.data}, indent=1) + "\n")
            self._folder.commit()
        self.spec, self.chunk_size, self.chunks = spec, size, n
        self.done = _recover(spec, self.out, size, n)
        os.makedirs(os.path.join(self.out, "chunks"), exist_ok=True)
        self._log = open(os.path.join(self.out, CHUNK_LOG), "a", encoding="utf-8")
        return dict(self.done)

    def add_chunk(self, chunk: int, rows: list[dict]) -> None:
        """Write a finished chunk's file (atomically), then its manifest line (flushed to disk)."""
        assert self.spec is not None and self._log is not None, "open() first"
        name = chunk_name(chunk)
        data = chunk_bytes(self.spec, self.chunk_size, chunk, rows)
        write_bytes_atomic(os.path.join(self.out, name), data)
        entry = {"chunk": chunk, "file": name, "rows": len(rows), "sha256": hashlib.sha256(data).hexdigest()}
        write_step(f"append {CHUNK_LOG}")
        self._log.write(json.dumps(entry) + "\n")
        self._log.flush()
        os.fsync(self._log.fileno())
        self.done[chunk] = entry

    def finish(self) -> dict:
        """Summarise the finished sweep; write the counterexample files, the sorted chunk manifest and
        ``summary.json``; return the summary."""
        from relations.io._sweep_summary import counterexample_text, summarise, summary_columns

        spec = self.spec
        assert spec is not None, "open() first"
        self._log.close()
        summary, found = summarise(spec, iter_rows(self.out, columns=summary_columns(spec)), chunks=self.chunks)
        summary["chunk_size"] = self.chunk_size
        with self._folder.transaction():
            for rel, row in found.items():
                self._folder.write_text(f"counterexamples/{rel}.json", counterexample_text(spec, summary, rel, row))
            self._folder.write_text(CHUNK_LOG, "".join(json.dumps(self.done[c]) + "\n" for c in sorted(self.done)))
            self._folder.write_text("summary.json", json.dumps(summary, indent=1) + "\n")
        return summary

    def close(self) -> None:
        """Close the chunk manifest and release the folder's lock."""
        if self._log is not None and not self._log.closed:
            self._log.close()
        self._folder.close()
