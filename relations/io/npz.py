"""Reading mechanisms from NumPy ``.npz`` archives (float64 arrays ``prior`` and ``channel``).

Small arrays are taken exactly (each float its binary value, rows renormalised exactly,
with a rounding radius); large ones are in float mode (``docs/semantics.md``, "Floats").
Archives are opened with ``allow_pickle=False``: nothing in them is run.
"""

from __future__ import annotations

import os
import zipfile

import numpy as np

from relations.errors import InputError
from relations.model.distributions import Channel, Prior
from relations.model.floats import float_rows
from relations.model.mechanism import Mechanism
from relations.model.neighbours import HammingInputs, LocalInputs
from relations.model.validate import dataset_count

__all__ = ["load_npz"]


def load_npz(path: str | os.PathLike) -> Mechanism:
    """Load a mechanism from the ``.npz`` arrays ``prior`` and ``channel`` (float64).

    Arrays with at most :data:`~relations.model.MAX_EXACT_FLOAT_ENTRIES` entries are taken
    exactly: each float is its binary value and each row is renormalised exactly (rows must
    sum to 1 within :data:`~relations.model.FLOAT_TOLERANCE`); claims within the inputs'
    rounding are ``holds within rounding``.  Larger arrays are in float mode.

    Parameters
    ----------
    path : str or os.PathLike
        The archive.  Optional 0-d arrays: ``setting`` (``"local"`` by default, or ``"central"``
        with ``records`` and ``domain_size``: inputs are then ``D^r`` in row-major order) and
        ``mode`` (``"exact"`` or ``"float"``; by default exact up to
        :data:`~relations.model.MAX_EXACT_FLOAT_ENTRIES` entries).

    Returns
    -------
    Mechanism
        Exact (rationals from the floats) or, for large arrays, float mode (``exact`` is
        False: budgets are floats without exact forms).

    Raises
    ------
    InputError
        If the archive cannot be read, or an array is missing, misshapen or invalid.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from relations import measure
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "rr.npz")
    ...     np.savez(path, prior=np.array([0.5, 0.5]), channel=np.array([[0.75, 0.25], [0.25, 0.75]]))
    ...     m = load_npz(path)
    >>> m.exact, str(measure(m).eps_d.exact), m.rounding[0] == 2**-42  # 0.75 and 0.25 are binary
    (True, 'ln(3)', True)
    """
    try:
        with np.load(path, allow_pickle=False) as npz:
            arrays = {k: npz[k] for k in npz.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise InputError(f"{path}: not a readable .npz file ({exc})") from None
    try:
        return _from_arrays(arrays)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None


def _scalar(arrays: dict, key: str):
    a = arrays[key]
    if a.shape != ():
        raise InputError(f"array '{key}': expected a 0-d array, got shape {a.shape}")
    return a.item()


def _from_arrays(arrays: dict) -> Mechanism:
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
    p = float_rows(p[None, :], "prior")[0]
    q = float_rows(q, "channel")
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
        if not (isinstance(r, int) and isinstance(k, int) and r >= 1 and k >= 1):
            raise InputError(f"'records' and 'domain_size' must be positive integers, got {r!r}, {k!r}")
        if dataset_count(k, r) != n:
            raise InputError(f"array 'channel': {n} rows but domain_size^records = {k}^{r}")
        inputs = HammingInputs(tuple(map(str, range(k))), r)
    mode = str(_scalar(arrays, "mode")) if "mode" in arrays else None
    if mode not in (None, "exact", "float"):
        raise InputError(f"array 'mode': expected 'exact' or 'float', got {mode!r}")
    exact = None if mode is None else mode == "exact"
    channel = Channel.of(np.asarray(q, dtype=np.float64), where="channel", exact=exact)
    prior = Prior.of(np.asarray(p, dtype=np.float64), exact=exact if channel.exact is not None else False)
    if (prior.exact is None) != (channel.exact is None):  # a large prior with a small channel: both in floats
        channel = Channel.of(np.asarray(q, dtype=np.float64), where="channel", exact=False)
        prior = Prior.of(np.asarray(p, dtype=np.float64), exact=False)
    return Mechanism(setting, prior, channel, inputs, tuple(map(str, range(q.shape[1]))), channel.exact is not None)
