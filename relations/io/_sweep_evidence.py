"""A finished bounded-exhaustive sweep folder read as evidence for ``relations verify --exhaustive DIR``.

``relations sweep`` over a bounded-exhaustive family (every ``n x m`` mechanism with entries of
denominator at most ``N``) decides each relation exactly on every member and may run on a Dask cluster
(:mod:`relations.io._sweeps`).  :func:`read_family_evidence` checks that the folder holds a whole sweep of
such a family (its ``sweep.json`` and its specification's fingerprint, every chunk written by that sweep,
every point present once) and returns, per relation, a
:class:`~relations.search._exhaustive.FamilyEvidence`: the outcome over the family, and the first
counterexample as a mechanism, which ``verify`` re-checks exactly.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator

import numpy as np

from relations._json import read_json
from relations.errors import InputError
from relations.io._sweep_summary import family_text, summarise, summary_columns
from relations.io._sweeps import SWEEP_FILE, iter_rows
from relations.search._exhaustive import FamilyEvidence
from relations.sweeps._spec import SweepSpec, parse_spec

__all__ = ["read_family_evidence"]


def read_family_evidence(folder: str) -> dict[str, list[FamilyEvidence]]:
    """What a finished bounded-exhaustive sweep in ``folder`` found, per relation id.

    Parameters
    ----------
    folder : str
        The ``--out`` folder of a finished ``relations sweep`` of an ``"exhaustive"`` specification.

    Returns
    -------
    dict of str to list of FamilyEvidence
        One entry per relation of the sweep.

    Raises
    ------
    InputError
        When the folder holds no sweep, a grid sweep, an unfinished sweep (the same ``relations sweep``
        command finishes it) or chunks of another sweep.

    Examples
    --------
    >>> import tempfile
    >>> from relations.app._sweep import run_sweep
    >>> spec = {"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 2}, "relations": ["zheng2025.thm3"]}
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = run_sweep(spec, out=d, workers=0)
    ...     (ev,) = read_family_evidence(d)["zheng2025.thm3"]
    >>> ev.holds, ev.mechanisms, ev.outcome
    (True, 27, 'every 2 x 2 mechanism with denominators <= 2: holds')
    """
    name = f"--exhaustive {folder}"
    try:
        with open(os.path.join(folder, SWEEP_FILE), encoding="utf-8") as fh:
            meta = read_json(fh.read(), source=SWEEP_FILE)
        spec = parse_spec(meta["spec"])
    except (OSError, ValueError, KeyError, TypeError, InputError) as exc:
        raise InputError(f"{name}: not the folder of a relations sweep ({SWEEP_FILE}: "
                         f"{' '.join(str(exc).split())[:160]})") from None
    if spec.fingerprint != meta.get("fingerprint"):
        raise InputError(f"{name}: {SWEEP_FILE} was edited (its specification does not match its fingerprint)")
    if spec.kind != "exhaustive":
        raise InputError(f"{name}: a grid sweep, not a bounded-exhaustive family (\"exhaustive\": ...)")
    _same_sweep(folder, spec.fingerprint, name)
    indices: list[int] = []
    orbits: list[int] = []

    def rows() -> Iterator[dict]:  # one chunk in memory at a time; the points are checked after
        for row in iter_rows(folder, columns=summary_columns(spec)):
            indices.append(row["index"])
            orbits.append(row.get("orbit") or 1)
            yield row

    summary, found = summarise(spec, rows(), chunks=int(meta.get("chunks", 0)))
    _every_point_once(spec, indices, orbits, name)
    source = f"relations sweep in {folder}, specification {json.dumps(spec.data, sort_keys=True)}"
    out: dict[str, list[FamilyEvidence]] = {}
    for rel in spec.relations:
        outcome = summary["relations"][rel]["verdict"]
        row = found.get(rel) if "first counterexample" in outcome else None
        mech = spec.build({c: row[c] for c in spec.columns}) if row is not None else None
        out[rel] = [FamilyEvidence(rel, family_text(spec), spec.span, outcome.endswith(": holds") and mech is None,
                                   outcome, mech, source, None if spec.members is None else spec.count)]
    return out


def _every_point_once(spec: SweepSpec, indices: list[int], orbits: list[int], name: str) -> None:
    """The rows are the sweep's points, each once, in order: as many as there are points (for a family up to
    relabelling, Burnside's count), increasing, and each a point with its orbit's size."""
    if len(indices) != spec.count:
        raise InputError(f"{name}: {len(indices)} of {spec.count} points are done; run the same relations sweep "
                         "command to finish it")
    idx, size = np.asarray(indices, dtype=np.int64), np.asarray(orbits, dtype=np.int64)
    increasing = idx.size < 2 or bool(np.all(np.diff(idx) > 0))
    good = increasing and np.array_equal(spec.orbit_sizes(idx), size)  # a size 0 marks an index that is no point
    if not good:
        raise InputError(f"{name}: its rows are not the points of its sweep, each once (edited?)")


def _same_sweep(folder: str, fingerprint: str, name: str) -> None:
    """Every chunk file was written by the sweep of ``fingerprint`` (its Parquet metadata says so)."""
    import pyarrow.parquet as pq

    chunks = os.path.join(folder, "chunks")
    for entry in sorted(os.listdir(chunks)) if os.path.isdir(chunks) else ():
        if not entry.endswith(".parquet") or entry.startswith("."):
            continue
        try:
            meta = pq.read_metadata(os.path.join(chunks, entry)).metadata or {}
            info = read_json(meta.get(b"relations.sweep", b"{}"), source=entry)
        except Exception:  # an unreadable file is no evidence
            info = {}
        if info.get("fingerprint") != fingerprint:
            raise InputError(f"{name}: chunks/{entry} was not written by this sweep")
