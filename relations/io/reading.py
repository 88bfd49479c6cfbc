"""Reading mechanisms from files: JSON (exact) and NumPy ``.npz`` (float mode).

The JSON format is SPEC section 5; every rule of sections 3 and 6 is checked
here and a violation is an :class:`~relations.errors.InputError` whose one
line names the key, row and column.  Numbers are parsed by
:func:`relations.exact.parse_rational`; nothing is evaluated as code.

Keys (``setting``, ``prior`` and ``channel`` are required):

* ``setting`` — ``"local"`` or ``"central"``;
* ``inputs`` / ``outputs`` — optional labels (strings or numbers);
* ``prior`` — a list, ``"uniform"``, or (central) ``{"product": [p_1, ..., p_r]}``;
* ``channel`` — a list of rows, or (central) ``{"product": W}``;
* central only: ``domain`` (``k`` labels) and ``records`` (``r >= 1``) for the
  default ``D^r`` structure, or ``neighbours`` (an edge list over row indices,
  any number of rows; ``domain``/``records`` then optional);
* ``name``, ``description``, ``comment`` — free text, ignored.
"""

from __future__ import annotations

import json
import math
import os
import zipfile
from fractions import Fraction
from typing import Any

import numpy as np

from relations.errors import InputError
from relations.model.distributions import Channel, Prior, ProductChannel, ProductPrior
from relations.model.mechanism import Mechanism
from relations.model.neighbours import GraphInputs, HammingInputs, LocalInputs
from relations.numbers.text import json_repr, parse_rational, short_text

__all__ = ["KNOWN_KEYS", "MAX_DENSE_ENTRIES", "FLOAT_TOLERANCE", "load", "loads", "from_dict", "load_npz"]

KNOWN_KEYS = {"setting", "inputs", "outputs", "prior", "channel", "domain", "records", "neighbours",
              "name", "description", "comment"}
#: Largest dense expansion (entries) allowed when a product form meets a dense one.
MAX_DENSE_ENTRIES = 1 << 22
#: Tolerance on row and prior sums accepted in float mode (.npz).
FLOAT_TOLERANCE = 1e-9


class _Number(str):
    """A JSON number literal kept as its text, parsed exactly later."""


def _reject_constant(name: str):
    """``NaN``, ``Infinity``, ``-Infinity`` literals: kept as their text, so that the place they
    appear in is named when they are rejected (as numbers they never parse)."""
    return _Number(name)


def load(path: str | os.PathLike) -> Mechanism:
    """Load a mechanism file: ``.npz`` (float mode) or JSON (exact)."""
    path = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    if path.endswith(".npz") or head.startswith(b"PK"):
        return load_npz(path)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    return loads(text, source=path)


def loads(text: str, source: str = "<input>") -> Mechanism:
    """Parse a mechanism from JSON text."""
    try:
        data = json.loads(text, parse_float=_Number, parse_int=_Number, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}: malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except InputError as exc:
        raise InputError(f"{source}: {exc}") from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"{source}: malformed JSON: {exc}") from None
    try:
        return from_dict(data, source)
    except InputError as exc:
        raise InputError(f"{source}: {exc}") from None


# --------------------------------------------------------------------------- JSON


def _labels(value: Any, key: str, count: int | None) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise InputError(f"key '{key}': expected a list of labels, got {json_repr(value)}")
    labels = []
    for i, v in enumerate(value):
        if isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool)):
            labels.append(str(v))
        else:
            raise InputError(f"{key}[{i}]: label {json_repr(v)} is not a string or number")
    if count is not None and len(labels) != count:
        raise InputError(f"key '{key}': {len(labels)} labels but {count} expected")
    if len(set(labels)) != len(labels):
        raise InputError(f"key '{key}': labels are not distinct")
    return tuple(labels)


def _vector(value: Any, key: str) -> list[Fraction]:
    if not isinstance(value, list) or not value:
        raise InputError(f"{key}: expected a non-empty list of probabilities, got {json_repr(value)}")
    out = []
    for i, v in enumerate(value):
        q = parse_rational(v, f"{key}[{i}]")
        if q < 0:
            raise InputError(f"{key}[{i}]: {json_repr(str(v))} is negative")
        out.append(q)
    total = sum(out, Fraction(0))
    if total != 1:
        raise InputError(f"{key}: entries sum to {short_text(total)}, not 1")
    return out


def _matrix(value: Any, key: str) -> list[list[Fraction]]:
    if not isinstance(value, list) or not value:
        raise InputError(f"{key}: expected a non-empty list of rows, got {json_repr(value)}")
    rows = []
    width = None
    for i, row in enumerate(value):
        if not isinstance(row, list):
            raise InputError(f"{key}[{i}]: expected a row (a list), got {json_repr(row)}")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise InputError(f"{key}[{i}]: row has {len(row)} entries, row 0 has {width}")
        rows.append(_vector(row, f"{key}[{i}]"))
    return rows


def _whole(v: Any) -> int | None:
    """A whole number >= 0 given as a JSON integer literal (text kept by :func:`loads`) or a
    Python ``int`` (a dict built in code, or parsed by the standard ``json`` module), else None."""
    if isinstance(v, _Number):
        return int(v) if v.isdigit() else None
    if isinstance(v, int) and not isinstance(v, bool):
        return v if v >= 0 else None
    return None


def _records(data: dict) -> int:
    r = data.get("records")
    n = _whole(r)
    if n is not None and 1 <= n <= 100_000:
        return n
    raise InputError(f"key 'records': expected a whole number from 1 to 100000, got {json_repr(r)}")


def _power(k: int, r: int) -> int | None:
    """``k**r``, or None when it exceeds 2**62."""
    if k <= 1:
        return k
    if r * math.log2(k) > 62:
        return None
    return k**r


def from_dict(data: Any, source: str = "<input>") -> Mechanism:
    """Build and validate a mechanism from parsed JSON."""
    if not isinstance(data, dict):
        raise InputError(f"expected a JSON object at top level, got {json_repr(data)}")
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        hint = " (did you mean 'neighbours'?)" if unknown[0] == "neighbors" else ""
        raise InputError(f"unknown key '{unknown[0]}'{hint}; known keys: {', '.join(sorted(KNOWN_KEYS))}")
    for key in ("setting", "prior", "channel"):
        if key not in data:
            raise InputError(f"key '{key}' is missing")
    setting = data["setting"]
    if setting not in ("local", "central"):
        raise InputError(f"key 'setting': unknown setting {json_repr(setting)} (expected 'local' or 'central')")

    if isinstance(data["channel"], dict) and "mechanism" in data["channel"]:
        data = _expand_named(data, setting)
    channel_spec, prior_spec = data["channel"], data["prior"]
    product_channel = isinstance(channel_spec, dict)
    product_prior = isinstance(prior_spec, dict)
    if setting == "local":
        for key in ("domain", "records", "neighbours"):
            if key in data:
                raise InputError(f"key '{key}' belongs to the central setting, but setting is 'local'")
        if product_channel or product_prior:
            raise InputError("product forms need setting 'central' with 'domain' and 'records'")

    # ---- channel
    if product_channel:
        if set(channel_spec) != {"product"}:
            raise InputError(f"key 'channel': expected a list of rows or {{\"product\": [...]}}, got keys {sorted(channel_spec)}")
        local = Channel.from_exact(_matrix(channel_spec["product"], "channel.product"))
        if "neighbours" in data:
            raise InputError("a product channel uses the D^r neighbour structure; drop 'neighbours'")
    else:
        dense = Channel.from_exact(_matrix(channel_spec, "channel"))

    # ---- input space
    if setting == "local":
        n = dense.shape[0]
        inputs = LocalInputs(_labels(data["inputs"], "inputs", n) if "inputs" in data else tuple(map(str, range(n))))
    elif "neighbours" in data:
        n = dense.shape[0]
        labels = _labels(data["inputs"], "inputs", n) if "inputs" in data else tuple(map(str, range(n)))
        inputs = GraphInputs(labels, _edges(data["neighbours"], n))
    else:
        if "domain" not in data or "records" not in data:
            raise InputError("central setting needs 'domain' and 'records' (or an explicit 'neighbours' list)")
        domain = _labels(data["domain"], "domain", None)
        if not domain:
            raise InputError("key 'domain': needs at least one value")
        r = _records(data)
        inputs = HammingInputs(domain, r)
        if "inputs" in data:
            raise InputError("key 'inputs': central D^r inputs are named by 'domain'; drop 'inputs'")
        if product_channel:
            if local.shape[0] != len(domain):
                raise InputError(f"channel.product: {local.shape[0]} rows but the domain has {len(domain)} values")
        else:
            expected = _power(len(domain), r)
            if expected != dense.shape[0]:
                raise InputError(f"channel: {dense.shape[0]} rows but domain^records = {len(domain)}^{r}"
                                 f"{'' if expected is None else ' = ' + str(expected)}")

    m = local.shape[1] if product_channel else dense.shape[1]
    outputs = _labels(data["outputs"], "outputs", m) if "outputs" in data else tuple(map(str, range(m)))

    # ---- prior
    if prior_spec == "uniform":
        if product_channel:
            k = local.shape[0]
            prior: Prior | ProductPrior = ProductPrior((Prior.uniform(k),) * inputs.records)  # type: ignore[union-attr]
        else:
            prior = Prior.uniform(dense.shape[0])
    elif product_prior:
        if set(prior_spec) != {"product"} or not isinstance(prior_spec["product"], list):
            raise InputError("key 'prior': expected a list, \"uniform\" or {\"product\": [p_1, ..., p_r]}")
        if not isinstance(inputs, HammingInputs):
            raise InputError("a product prior needs the D^r structure ('domain' and 'records')")
        factors = prior_spec["product"]
        if len(factors) != inputs.records:
            raise InputError(f"prior.product: {len(factors)} local priors but records = {inputs.records}")
        parsed = []
        for j, f in enumerate(factors):
            vec = _vector(f, f"prior.product[{j}]")
            if len(vec) != inputs.k:
                raise InputError(f"prior.product[{j}]: {len(vec)} entries but the domain has {inputs.k} values")
            parsed.append(Prior.from_exact(vec))
        prior = ProductPrior(tuple(parsed))
    else:
        vec = _vector(prior_spec, "prior")
        rows = _power(inputs.k, inputs.records) if isinstance(inputs, HammingInputs) else inputs.size
        if len(vec) != rows:
            raise InputError(f"prior: {len(vec)} entries but the channel has {rows} rows")
        prior = Prior.from_exact(vec)

    # ---- mixed product / dense forms
    if product_channel:
        channel: Channel | ProductChannel = ProductChannel(local, inputs.records)  # type: ignore[union-attr]
        if isinstance(prior, Prior):
            size = _power(local.shape[0] * local.shape[1], inputs.records)  # type: ignore[union-attr]
            if size is None or size > MAX_DENSE_ENTRIES:
                raise InputError("a dense prior with a product channel needs the dense channel, which is too large; "
                                 "use \"uniform\" or {\"product\": [...]} for the prior")
            return Mechanism(setting, prior, channel, inputs, outputs, True, source).dense()
    else:
        channel = dense
        if isinstance(prior, ProductPrior):
            prior = prior.dense()
    return Mechanism(setting, prior, channel, inputs, outputs, True, source)


def _expand_named(data: dict, setting: str) -> dict:
    """Replace ``"channel": {"mechanism": NAME, ...}`` by the registered mechanism's matrix
    (:mod:`relations.mechanisms`): the matrix itself locally, ``{"product": W}`` on ``D^r``,
    and the mechanism's own neighbour list for the counting-range mechanisms."""
    from relations.mechanisms.registry import named

    mech = named(data["channel"])
    rows = [[str(v) for v in row] for row in mech.channel.exact]
    out = dict(data)
    out.setdefault("outputs", list(mech.outputs))
    if mech.setting == "local":
        if setting == "central" and "neighbours" not in data:
            out["channel"] = {"product": rows}
            out.setdefault("domain", list(mech.inputs.labels))
        else:
            out["channel"] = rows
            if setting == "local":
                out.setdefault("inputs", list(mech.inputs.labels))
        return out
    if setting != "central":
        raise InputError(f"mechanism {data['channel']['mechanism']!r} is central (a counting range with its own "
                         "neighbours): use setting 'central'")
    out["channel"] = rows
    out.setdefault("inputs", list(mech.inputs.labels))
    out.setdefault("neighbours", [list(e) for e in mech.inputs.edges])
    return out


def _edges(value: Any, n: int) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list):
        raise InputError(f"key 'neighbours': expected a list of [i, j] pairs, got {json_repr(value)}")
    seen = set()
    edges = []
    for e, pair in enumerate(value):
        if not (isinstance(pair, list) and len(pair) == 2 and all(_whole(v) is not None for v in pair)):
            raise InputError(f"neighbours[{e}]: expected a pair of row indices [i, j], got {json_repr(pair)}")
        i, j = int(pair[0]), int(pair[1])
        if i >= n or j >= n:
            raise InputError(f"neighbours[{e}]: row index {max(i, j)} out of range (the channel has {n} rows)")
        if i == j:
            raise InputError(f"neighbours[{e}]: a row cannot neighbour itself ({i})")
        key = (min(i, j), max(i, j))
        if key not in seen:
            seen.add(key)
            edges.append(key)
    return tuple(edges)


# --------------------------------------------------------------------------- npz


def load_npz(path: str) -> Mechanism:
    """Load a float-mode mechanism from ``.npz`` arrays ``prior``, ``channel`` (float64)
    and optional 0-d ``setting``, ``records``, ``domain_size``."""
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
    q = np.asarray(q, dtype=np.float64)
    p = np.asarray(p, dtype=np.float64)
    _check_float(p[None, :], "prior")
    _check_float(q, "channel")
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
        if _power(k, r) != n:
            raise InputError(f"array 'channel': {n} rows but domain_size^records = {k}^{r}")
        inputs = HammingInputs(tuple(map(str, range(k))), r)
    prior = Prior(_freeze(p))
    channel = Channel(_freeze(q))
    return Mechanism(setting, prior, channel, inputs, tuple(map(str, range(q.shape[1]))), False)


def _freeze(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    a.setflags(write=False)
    return a


def _check_float(a: np.ndarray, key: str) -> None:
    bad = ~np.isfinite(a)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise InputError(f"{_where(key, i, j)}: {a[i, j]} is not a finite number")
    neg = a < 0
    if neg.any():
        i, j = np.argwhere(neg)[0]
        raise InputError(f"{_where(key, i, j)}: {a[i, j]} is negative")
    sums = a.sum(axis=1)
    off = np.abs(sums - 1) > FLOAT_TOLERANCE
    if off.any():
        i = int(np.argmax(off))
        where = key if key == "prior" else f"{key}[{i}]"
        raise InputError(f"{where}: entries sum to {float(sums[i])!r}, not 1 within {FLOAT_TOLERANCE}")


def _where(key: str, i: int, j: int) -> str:
    return f"{key}[{j}]" if key == "prior" else f"{key}[{i}][{j}]"
