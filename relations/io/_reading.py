"""Reading mechanisms from files: JSON (exact) and NumPy ``.npz`` (floats: exact or float mode).

The JSON format is ``docs/mechanism-files.md``; every rule is checked
here (mostly by the :class:`~relations.model.Mechanism` constructors) and a violation is an :class:`~relations.errors.InputError` whose one
line names the key, row and column.  Numbers are parsed by
:func:`relations.numbers.parse_rational`; nothing is evaluated as code.

Keys (``setting``, ``prior`` and ``channel`` are required):

* ``setting`` — ``"local"`` or ``"central"``;
* ``inputs`` / ``outputs`` — optional labels (strings or numbers);
* ``prior`` — a list, ``"uniform"``, or (central) ``{"product": [p_1, ..., p_r]}``;
* ``channel`` — a list of rows, or (central) ``{"product": W}``;
* central only: ``domain`` (``k`` labels) and ``records`` (``r >= 1``) for the
  default ``D^r`` structure, or ``neighbours`` (an edge list over row indices,
  any number of rows; ``domain``/``records`` then optional);
* ``repeat`` — optional: the mechanism used ``k`` times on the same input (a whole number from 1
  to :data:`~relations.model.MAX_REPEAT`), every use independent;
* ``parts`` — instead of ``channel``: a list of ``{"channel": ..., "outputs": ..., "repeat": n}``
  objects, mechanisms sharing the file's setting, prior and inputs, composed on the same input;
* ``name``, ``description``, ``comment`` — free text, ignored.

A file with ``repeat`` or ``parts`` is a :class:`~relations.model.Composition`
(:func:`load_composition`); :func:`load` gives its exact equivalent through the counts of each output
(:meth:`~relations.model.Composition.sufficient`), within
:data:`~relations.model.MAX_SUFFICIENT_ENTRIES` entries.

Every file is read once (:func:`relations.io._inputs.read_input`: a path, ``-``, a pipe),
within a size limit; its first bytes decide the format (a zip archive is ``.npz``).  A
JSON file may hold at most :data:`MAX_JSON_VALUES` values, no key twice in an object,
and at most :data:`~relations.model.MAX_DENSE_ENTRIES` entries in its prior or channel.
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from relations._json import MAX_JSON_DEPTH, Shape, memory_error, read_json, shape
from relations.errors import InputError
from relations.io._inputs import read_input
from relations.io._npz import npz_from_bytes
from relations.kinds import NumericMode
from relations.model._distributions import Prior
from relations.model._floats import numeric_mode
from relations.model._mechanism import MAX_DENSE_ENTRIES, Mechanism
from relations.model._neighbours import MAX_EDGES, GraphInputs, LocalInputs
from relations.model._validate import MAX_PRODUCT_RECORDS, MAX_RECORDS, labels_of
from relations.model._validate import product_prior as product_prior_of
from relations.numbers._text import MAX_DIGITS as MAX_INT_DIGITS
from relations.numbers._text import NumberLiteral, json_repr, parse_rational

if TYPE_CHECKING:  # repeated use is imported where a file asks for it
    from relations.model._composed import Composition

__all__ = ["KNOWN_KEYS", "MAX_JSON_VALUES", "load", "loads", "from_dict", "load_loss_matrix", "load_composition", "read_as_composition",
           "composition_from_dict"]

#: The keys a mechanism file may have.
KNOWN_KEYS = {"setting", "inputs", "outputs", "prior", "channel", "domain", "records", "neighbours",
              "name", "description", "comment", "repeat", "parts"}
#: The keys of one of ``parts``.
PART_KEYS = {"channel", "outputs", "repeat", "name", "comment"}
#: Most values (array elements and object members, counted by the commas between them
#: before the text is parsed) a JSON file may hold: ``2**23``, twice the entries a dense
#: prior or channel may have (:data:`~relations.model.MAX_DENSE_ENTRIES`).
MAX_JSON_VALUES = 2 * MAX_DENSE_ENTRIES


class _Number(str):
    """A JSON number literal kept as its text, parsed exactly later."""


class _Float(_Number, NumberLiteral):
    """A JSON number with a fraction or exponent: exact value, but a rounding (``NumberLiteral``)."""


def _reject_constant(name: str):
    """``NaN``, ``Infinity``, ``-Infinity`` literals: kept as their text, so that the place they
    appear in is named when they are rejected (as numbers they never parse)."""
    return _Number(name)


def load(path: str | os.PathLike, *, mode: NumericMode | str = NumericMode.AUTO) -> Mechanism:
    """Load a mechanism file: ``.npz`` (floats) or JSON (exact), in a numeric mode.

    Parameters
    ----------
    path : str or os.PathLike
        The file, ``-`` for standard input, or a pipe (``/dev/stdin``, a FIFO, ``/dev/fd/N``):
        it is read once, within :data:`~relations.io._inputs.MAX_JSON_BYTES` (JSON) or
        :data:`~relations.io._inputs.MAX_NPZ_BYTES` (``.npz``).  Content that starts with a zip
        signature is read as ``.npz``; anything else as JSON, whatever the name (a JSON
        file named ``x.npz`` is read as JSON).
    mode : NumericMode or str, optional
        ``"auto"`` (the default, ``docs/semantics.md``, "Numeric mode"): JSON is exact, an ``.npz``
        file follows its ``mode`` array or else is exact up to
        :data:`~relations.model.MAX_EXACT_FLOAT_ENTRIES` channel entries and float mode beyond;
        ``"exact"``: exact, an ``.npz`` file's floats at their binary values (at most
        :data:`~relations.model._floats.MAX_EXACT_MODE_ENTRIES` entries, checked up front);
        ``"float"``: float mode (:func:`~relations.io._npz.load_npz`,
        :meth:`Mechanism.in_mode <relations.model.Mechanism.in_mode>`).

    Returns
    -------
    Mechanism
        Its ``source`` is ``path`` (``<stdin>`` for ``-``), its ``mode_rule`` why it is exact or in
        float mode.

    Raises
    ------
    InputError
        If the file cannot be read, is too large, breaks any rule of ``docs/mechanism-files.md``,
        ``mode`` is unknown, or mode ``exact`` meets an ``.npz`` channel too large to be taken exactly.

    Examples
    --------
    >>> from importlib.resources import files
    >>> m = load(files("relations.data") / "examples" / "paper_example.json")
    >>> str(m.setting), m.channel.exact[0], m.mode_rule
    ('local', (Fraction(13, 20), Fraction(7, 20)), 'auto: not a float array')
    >>> f = load(files("relations.data") / "examples" / "paper_example.json", mode="float")
    >>> f.exact, f.channel.array[0].tolist(), f.mode_rule
    (False, [0.65, 0.35], 'chosen by the caller')
    """
    mode = numeric_mode(mode)
    got = read_input(path)
    if got.is_zip:
        return npz_from_bytes(got.data, source=got.name, mode=mode)
    if got.name.endswith(".npz") and not got.looks_like_json:
        raise InputError(f"{got.name}: not an .npz archive (a zip archive starts with PK\\x03\\x04) nor JSON")
    return loads(_text(got.data, got.name), source=got.name).in_mode(mode)


def load_composition(path: str | os.PathLike, *, repeat: int | None = None,
                     mode: NumericMode | str = NumericMode.AUTO) -> Mechanism | Composition:
    """Load a mechanism file that may say ``repeat`` or ``parts``: a :class:`~relations.model.Composition` then.

    Parameters
    ----------
    path : str or os.PathLike
        As for :func:`load`.
    repeat : int, optional
        Use the file's mechanism (or composition) this many times more (``relations measure --repeat``).
    mode : NumericMode or str, optional
        As for :func:`load`; a composition is computed exactly, so float mode is refused for it.

    Returns
    -------
    Mechanism or Composition

    Raises
    ------
    InputError
        As :func:`load`, and for a ``repeat`` out of range.
    """
    got = read_input(path)
    if got.is_zip or (got.name.endswith(".npz") and not got.looks_like_json):
        mech: Mechanism | Composition = npz_from_bytes(got.data, source=got.name, mode=mode)
    else:
        data = _parse(_text(got.data, got.name), got.name)
        try:
            mech = composition_from_dict(data, source=got.name)
        except InputError as exc:
            raise InputError(f"{got.name}: {exc}") from None
        if isinstance(mech, Mechanism):
            mech = mech.in_mode(mode)
    if repeat is None:
        return mech
    from relations.model._composed import compose

    return compose(mech, counts=[repeat])


def _text(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def loads(text: str, *, source: str = "<input>") -> Mechanism:
    """Parse a mechanism from JSON text.

    Parameters
    ----------
    text : str
        A mechanism file's content (``docs/mechanism-files.md``).
    source : str, optional
        A name for messages and reports.

    Returns
    -------
    Mechanism
        Its ``source`` is ``source``.

    Raises
    ------
    InputError
        For malformed JSON, a key repeated in an object, more than :data:`MAX_JSON_VALUES`
        values, or any invalid entry, prefixed with ``source``.

    Examples
    --------
    >>> m = loads('{"setting": "local", "prior": "uniform", "channel": {"mechanism": "krr", "k": 3, "ratio": "2"}}')
    >>> m.channel.exact[0]
    (Fraction(1, 2), Fraction(1, 4), Fraction(1, 4))
    """
    data = _parse(text, source)
    try:
        return from_dict(data, source=source)
    except InputError as exc:
        raise InputError(f"{source}: {exc}") from None


def _parse(text: str, source: str) -> Any:
    """The JSON of a mechanism file, numbers kept as text (every limit checked)."""
    commas = text.count(",")
    if commas >= MAX_JSON_VALUES:
        raise InputError(f"{source}: more than {MAX_JSON_VALUES} JSON values ({commas} commas), the limit for a "
                         f"mechanism file (at most {MAX_DENSE_ENTRIES} prior or channel entries)")
    found = _shape_of(text, source)
    _check_structure(found, source)
    repeated: list[tuple[dict, str]] = []
    try:
        data = read_json(text, source=source, checked=found, parse_float=_Float, parse_int=_Number,
                         parse_constant=_reject_constant, object_pairs_hook=lambda pairs: _object(pairs, repeated))
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}: malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except InputError as exc:
        raise InputError(exc.args[0] if str(exc).startswith((source, "not enough memory")) else f"{source}: {exc}"
                         ) from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"{source}: malformed JSON: {exc}") from None
    if repeated:
        obj, key = repeated[0]
        raise InputError(f"{source}: key {json_repr(key)} appears twice in {_place(data, obj)}")
    return data


# --------------------------------------------------------------------------- JSON


def _shape_of(text: str, source: str) -> Shape:
    try:
        return shape(text)
    except MemoryError:
        raise memory_error(f"reading {source}") from None


def _check_structure(found: Shape, source: str) -> None:
    """The limits on entries and neighbour pairs, checked on the text's shape before any value is built: the
    leaves of ``prior`` and ``channel`` (every number in them) and the items of ``neighbours``."""
    if found.depth > MAX_JSON_DEPTH:
        raise InputError(f"{source}: JSON nested {found.depth} levels deep, deeper than the limit of {MAX_JSON_DEPTH}")
    members = found.members or {}
    for key in ("prior", "channel"):
        if key in members and members[key].leaves > MAX_DENSE_ENTRIES:
            raise InputError(f"{source}: key '{key}': {members[key].leaves} entries, more than the limit of "
                             f"{MAX_DENSE_ENTRIES} for a mechanism file")
    if "neighbours" in members and members["neighbours"].items > MAX_EDGES:
        raise InputError(f"{source}: key 'neighbours': {members['neighbours'].items} pairs, more than the limit of "
                         f"{MAX_EDGES}")


def _object(pairs: list, repeated: list) -> dict:
    """A JSON object; one with a key twice is noted in ``repeated`` (with that key)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set = set()
        for k, _ in pairs:  # the first key met twice
            if k in seen:
                break
            seen.add(k)
        repeated.append((obj, k))
    return obj


def _place(data: Any, target: dict) -> str:
    """Where the object ``target`` lies in ``data``: ``the top-level object`` or ``'channel.product'``."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, where = stack.pop()
        if value is target:
            return f"'{where}'" if where else "the top-level object"
        if isinstance(value, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(value) if isinstance(v, (dict, list)))
    return "an object"  # pragma: no cover - every parsed object is in the tree


def _entries(value: Any) -> int:
    """How many numbers a prior or channel spec holds (rows of lists counted entry by entry)."""
    if isinstance(value, dict):
        return sum(_entries(v) for v in value.values() if isinstance(v, (list, tuple)))
    if hasattr(value, "size") and not isinstance(value, (list, tuple, str)):
        return int(value.size)
    if not isinstance(value, (list, tuple)):
        return 0
    return sum(len(v) if isinstance(v, (list, tuple)) else 1 for v in value)


def _check_entries(data: dict) -> None:
    """At most :data:`~relations.model.MAX_DENSE_ENTRIES` entries in the prior and in the channel,
    checked before any number is parsed."""
    for key in ("prior", "channel"):
        n = _entries(data[key])
        if n > MAX_DENSE_ENTRIES:
            raise InputError(f"key '{key}': {n} entries, more than the limit of {MAX_DENSE_ENTRIES} for a "
                             "mechanism file")


def _whole(v: Any) -> int | None:
    """A whole number >= 0 given as a JSON integer literal (text kept by :func:`loads`) or a
    Python ``int`` (a dict built in code, or parsed by the standard ``json`` module), else None."""
    if isinstance(v, _Number):
        return int(v) if v.isascii() and v.isdigit() and len(v.lstrip("0")) <= MAX_INT_DIGITS else None
    if isinstance(v, int) and not isinstance(v, bool):
        return v if v >= 0 else None
    return None


def _json_ints(value: Any) -> Any:
    """JSON integer literals (kept as text by :func:`loads`) inside a list of pairs, as ints."""
    if not isinstance(value, list):
        return value
    return [[_whole(v) if _whole(v) is not None and isinstance(v, _Number) else v for v in pair]
            if isinstance(pair, list) else pair for pair in value]


def _records(data: dict, limit: int = MAX_RECORDS) -> int:
    r = data.get("records")
    n = _whole(r)
    if n is not None and 1 <= n <= limit:
        return n
    raise InputError(f"key 'records': expected a whole number from 1 to {limit}, got {json_repr(r)}")


def from_dict(data: Any, *, source: str = "<input>") -> Mechanism:
    """Build and validate a mechanism from parsed JSON (the mechanism-file format).

    Parameters
    ----------
    data : dict
        The parsed file: numbers as text, ints, Fractions or floats (exact binary values).
    source : str, optional
        Where it came from, kept on the mechanism for reports.

    Returns
    -------
    Mechanism
        Validated, its ``source`` as given.

    Raises
    ------
    InputError
        One line naming the key, row and column of the first problem.

    Examples
    --------
    >>> m = from_dict({"setting": "local", "prior": ["19/20", "1/20"],
    ...                "channel": [["0.65", "0.35"], ["0.35", "0.65"]]})
    >>> m.channel.exact[0]
    (Fraction(13, 20), Fraction(7, 20))
    >>> from_dict({"setting": "local", "neighbors": [], "prior": [], "channel": []})
    Traceback (most recent call last):
    ...
    relations.errors.InputError: unknown key 'neighbors' (did you mean 'neighbours'?); known keys: channel, \
comment, description, domain, inputs, name, neighbours, outputs, parts, prior, records, repeat, setting

    A file that says ``repeat`` is its exact equivalent through the counts of each output:

    >>> m = from_dict({"setting": "local", "prior": "uniform", "channel": [["3/4", "1/4"], ["1/4", "3/4"]],
    ...                "repeat": 2})
    >>> m.outputs, m.channel.exact[1]
    (('[0×2]', '[0,1]', '[1×2]'), (Fraction(1, 16), Fraction(3, 8), Fraction(9, 16)))
    """
    got = composition_from_dict(data, source=source)
    return got if isinstance(got, Mechanism) else got.sufficient()


def composition_from_dict(data: Any, *, source: str = "<input>") -> Mechanism | Composition:
    """:func:`from_dict`, keeping a file's ``repeat`` or ``parts`` as a :class:`~relations.model.Composition`.

    Examples
    --------
    >>> c = composition_from_dict({"setting": "local", "prior": "uniform", "repeat": 1000,
    ...                            "channel": [["3/4", "1/4"], ["1/4", "3/4"]]})
    >>> c.describe()
    '1000 uses'
    >>> composition_from_dict({"setting": "local", "prior": "uniform", "repeat": 0,
    ...                        "channel": [["1"]]})
    Traceback (most recent call last):
    ...
    relations.errors.InputError: key 'repeat': expected a whole number from 1 to 100000 (MAX_REPEAT), got 0
    """
    if not isinstance(data, dict):
        raise InputError(f"expected a JSON object at top level, got {json_repr(data)}")
    repeat = None
    if "repeat" in data or "parts" in data:
        from relations.model._composed import MAX_REPEAT, compose
    if "repeat" in data:
        repeat = _whole(data["repeat"])
        if repeat is None or not 1 <= repeat <= MAX_REPEAT:
            raise InputError(f"key 'repeat': expected a whole number from 1 to {MAX_REPEAT} (MAX_REPEAT), got "
                             f"{json_repr(data['repeat'])}")
    if "parts" in data:
        if "channel" in data:
            raise InputError("key 'parts' replaces 'channel': give one or the other")
        parts_spec = data["parts"]
        if not isinstance(parts_spec, list) or not parts_spec:
            raise InputError("key 'parts': expected a non-empty list of {\"channel\": ..., \"repeat\": n} objects")
        parts, counts = [], []
        for i, spec in enumerate(parts_spec):
            if not isinstance(spec, dict) or "channel" not in spec:
                raise InputError(f"parts[{i}]: expected an object with a 'channel'")
            bad = sorted(set(spec) - PART_KEYS)
            if bad:
                raise InputError(f"parts[{i}]: unknown key {bad[0]!r}; known keys: {', '.join(sorted(PART_KEYS))}")
            n = 1 if "repeat" not in spec else _whole(spec["repeat"])
            if n is None or not 1 <= n <= MAX_REPEAT:
                raise InputError(f"parts[{i}].repeat: expected a whole number from 1 to {MAX_REPEAT} (MAX_REPEAT), "
                                 f"got {json_repr(spec['repeat'])}")
            sub = {k: v for k, v in data.items() if k not in ("parts", "repeat", "outputs")}
            sub["channel"] = spec["channel"]
            if "outputs" in spec:
                sub["outputs"] = spec["outputs"]
            try:
                parts.append(_mechanism_from_dict(sub, source))
            except InputError as exc:
                raise InputError(f"parts[{i}]: {exc}") from None
            counts.append(n)
        comp = compose(*parts, counts=counts)
        return comp if repeat is None else compose(comp, counts=[repeat])
    mech = _mechanism_from_dict({k: v for k, v in data.items() if k != "repeat"}, source)
    return mech if repeat is None else mech.repeated(repeat)


def _mechanism_from_dict(data: Any, source: str) -> Mechanism:
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
    _check_entries(data)
    channel_spec, prior_spec = data["channel"], data["prior"]
    product_channel = isinstance(channel_spec, dict)
    product_prior = isinstance(prior_spec, dict)
    if setting == "local":
        for key in ("domain", "records", "neighbours"):
            if key in data:
                raise InputError(f"key '{key}' belongs to the central setting, but setting is 'local'")
        if product_channel or product_prior:
            raise InputError("product forms need setting 'central' with 'domain' and 'records'")
    if product_channel:
        if set(channel_spec) != {"product"}:
            raise InputError(f"key 'channel': expected a list of rows or {{\"product\": [...]}}, got keys "
                             f"{sorted(channel_spec)}")
        if "neighbours" in data:
            raise InputError("a product channel uses the D^r neighbour structure; drop 'neighbours'")
    if product_prior and (set(prior_spec) != {"product"} or not isinstance(prior_spec["product"], list)):
        raise InputError("key 'prior': expected a list, \"uniform\" or {\"product\": [p_1, ..., p_r]}")
    prior: Any = prior_spec if prior_spec == "uniform" or product_prior else Prior.of(prior_spec)
    inputs, outputs = data.get("inputs"), data.get("outputs")

    if setting == "local":
        return Mechanism.local(channel_spec, prior=prior, inputs=inputs, outputs=outputs, source=source)
    if "neighbours" in data:
        if "records" in data:  # optional with explicit neighbours, but never silently wrong
            _records(data)
        if "domain" in data:
            labels_of(data["domain"], "domain", None)
        if product_prior:
            raise InputError("a product prior needs the D^r structure ('domain' and 'records')")
        return Mechanism.graph(channel_spec, _json_ints(data["neighbours"]), prior=prior, inputs=inputs, outputs=outputs,
                               source=source)
    if "domain" not in data or "records" not in data:
        raise InputError("central setting needs 'domain' and 'records' (or an explicit 'neighbours' list)")
    domain = labels_of(data["domain"], "domain", None)
    if not domain:
        raise InputError("key 'domain': needs at least one value")
    r = _records(data, MAX_PRODUCT_RECORDS if product_channel else MAX_RECORDS)
    if inputs is not None:
        raise InputError("key 'inputs': central D^r inputs are named by 'domain'; drop 'inputs'")
    if product_prior:
        prior = prior_spec["product"]
    if product_channel:
        return Mechanism.product(channel_spec["product"], records=r, prior=prior, domain=domain, outputs=outputs,
                                 source=source)
    if product_prior:
        prior = product_prior_of(prior, r, len(domain))
    return Mechanism.central(channel_spec, records=r, domain=domain, prior=prior, outputs=outputs, source=source)


def _expand_named(data: dict, setting: str) -> dict:
    """Replace ``"channel": {"mechanism": NAME, ...}`` by the registered mechanism's channel
    (:mod:`relations.mechanisms`): the channel itself locally, ``{"product": W}`` on ``D^r``,
    and the mechanism's own neighbour list for the counting-range mechanisms."""
    from relations.mechanisms._registry import named

    mech = named(data["channel"])
    out = dict(data)
    out.setdefault("outputs", list(mech.outputs))
    if mech.setting == "local":
        assert isinstance(mech.inputs, LocalInputs)
        if setting == "central" and "neighbours" not in data:
            out["channel"] = {"product": mech.channel}
            out.setdefault("domain", list(mech.inputs.labels))
        else:
            out["channel"] = mech.channel
            if setting == "local":
                out.setdefault("inputs", list(mech.inputs.labels))
        return out
    if setting != "central":
        raise InputError(f"mechanism {data['channel']['mechanism']!r} is central (a counting range with its own "
                         "neighbours): use setting 'central'")
    out["channel"] = mech.channel
    assert isinstance(mech.inputs, GraphInputs)  # a counting range with its own neighbours
    out.setdefault("inputs", list(mech.inputs.labels))
    out.setdefault("neighbours", [list(e) for e in mech.inputs.edges])
    return out


# --------------------------------------------------------------------------- npz


def load_loss_matrix(path: str | os.PathLike) -> list[list[Fraction]]:
    """Read a loss matrix: a JSON list of rows of exact numbers (``relations utility/optimize --loss``).

    Parameters
    ----------
    path : str or os.PathLike
        ``L[x][y]``, the loss of reporting ``y`` for the input ``x``, as numbers or rational text
        (``-`` for standard input; read once, like a mechanism file).

    Returns
    -------
    list of list of Fraction

    Raises
    ------
    InputError
        If the file cannot be read or is not a list of rows of numbers.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "loss.json")
    ...     with open(path, "w") as fh:
    ...         _ = fh.write('[[0, 1], ["1/2", 0.25]]')
    ...     load_loss_matrix(path)
    [[Fraction(0, 1), Fraction(1, 1)], [Fraction(1, 2), Fraction(1, 4)]]
    """
    got = read_input(path, what="loss matrix")
    text = _text(got.data, got.name)
    if text.count(",") >= MAX_JSON_VALUES:
        raise InputError(f"{got.name}: more than {MAX_JSON_VALUES} JSON values, the limit for a loss matrix")
    found = _shape_of(text, got.name)
    if found.leaves > MAX_DENSE_ENTRIES:
        raise InputError(f"{got.name}: more than {MAX_DENSE_ENTRIES} entries, the limit for a loss matrix")
    try:
        data = read_json(text, source=got.name, checked=found, parse_float=str, parse_int=str)
    except ValueError as exc:
        raise InputError(f"cannot read loss matrix {got.name}: {exc}") from None
    if not isinstance(data, list) or not all(isinstance(r, list) for r in data):
        raise InputError(f"{got.name}: expected a JSON list of rows")
    if sum(map(len, data)) > MAX_DENSE_ENTRIES:
        raise InputError(f"{got.name}: more than {MAX_DENSE_ENTRIES} entries, the limit for a loss matrix")
    return [[parse_rational(v, f"{got.name}[{i}][{j}]") for j, v in enumerate(r)] for i, r in enumerate(data)]


def read_as_composition(file: str) -> bool:
    """Whether to read ``file`` with :func:`load_composition`: a regular file with a ``repeat`` or ``parts`` key,
    or standard input, a pipe or a device, which is read once, so that the loader decides after reading (a
    stream with ``repeat`` is then a composition, as a file is; one without is the plain mechanism).

    Examples
    --------
    >>> read_as_composition("-"), read_as_composition("no/such/file.json")
    (True, False)
    """
    import stat

    if file == "-" or file.startswith("/dev/"):
        return True
    try:
        if not stat.S_ISREG(os.stat(file).st_mode):
            return True
        with open(file, "rb") as handle:
            head = handle.read(1 << 20)
    except OSError:
        return False
    return b'"repeat"' in head or b'"parts"' in head
