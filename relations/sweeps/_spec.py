"""Sweep specifications: a grid of named-mechanism parameters, or every small mechanism of a family.

A specification is one JSON object (``docs/mechanism-files.md``, *Sweep specifications*), read
strictly: an unknown key, a key given twice, a value of the wrong kind or a size beyond the limits is
an :class:`~relations.errors.InputError` of one line, raised before anything is computed.

* A **grid**: ``"mechanism"`` names a :data:`~relations.mechanisms._registry.REGISTRY` entry; each of its
  parameters is a value or a list of values (an axis), and so are ``"prior"`` (a family:
  ``"default"``, ``"uniform"``, ``{"skewed": t}``, ``{"geometric": q}`` or an explicit list) and
  ``"records"`` (the central product form on ``D^r``).  The points are the product of the axes.
* A **bounded-exhaustive family**: ``"exhaustive": {"inputs": n, "outputs": m, "denominator": N}``
  is every local channel with ``n`` rows of ``m`` entries and every prior (``"prior"``: ``"all"``,
  ``"positive"`` or ``"uniform"``) whose entries are fractions with denominator at most ``N``;
  their number is computed exactly before any is enumerated.  With ``"symmetry": "relabel"`` only one
  member per orbit under relabelling inputs and outputs is evaluated (:mod:`relations.search._small_scope`):
  the points are then the representatives, counted exactly by Burnside's lemma.

``"relations"`` lists the catalogue ids to evaluate (default: the whole catalogue).  Points are
numbered ``0 .. span-1`` (:attr:`SweepSpec.span`: the points, or a family's members) in a fixed
mixed-radix order, so any chunk ``[start, stop)`` is built without the others.

Examples
--------
>>> s = parse_spec({"mechanism": "krr", "k": [2, 3], "ratio": ["2", "3"], "relations": ["zheng2025.thm3"]})
>>> s.count, s.point(3)
(4, {'mechanism': 'krr', 'k': 3, 'ratio': '3', 'prior': 'default'})
>>> e = parse_spec({"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 2}, "relations": ["zheng2025.thm3"]})
>>> e.count, e.point(0)
(27, {'prior': '0,1', 'channel': '0,1;0,1'})
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction
from math import prod
from typing import Any

import numpy as np

from relations._json import read_json
from relations.errors import InputError
from relations.mechanisms._local import product
from relations.mechanisms._registry import REGISTRY, eps_text, named
from relations.model import MAX_PRODUCT_RECORDS, Prior, ProductPrior
from relations.model._mechanism import Mechanism
from relations.model._neighbours import HammingInputs
from relations.numbers._text import json_repr, parse_rational, whole_number
from relations.search._small_scope import (  # noqa: F401 (importable from here before)
    count_rows,
    family_rows,
    farey,
    orbit_count,
    orbit_sizes,
    representatives,
    stochastic_rows,
)

__all__ = ["MAX_POINTS", "MAX_MEMBERS", "MAX_AXIS", "MAX_DENOMINATOR", "MAX_SIZE", "MAX_RECORDS", "SweepSpec", "parse_spec",
           "parse_spec_text"]

#: Most points (mechanisms) one sweep evaluates, grid or family (representatives, for a family up to relabelling).
MAX_POINTS = 4_000_000
#: Most members of a family swept up to relabelling (each is mapped by the group to find representatives).
MAX_MEMBERS = 10**9
#: Most values on one grid axis.
MAX_AXIS = 4096
#: Largest ``denominator`` of a bounded-exhaustive family.
MAX_DENOMINATOR = 16
#: Largest ``inputs`` and ``outputs`` of a bounded-exhaustive family.
MAX_SIZE = 4
#: Largest ``records`` of a grid: product forms are never expanded and cost what their runs cost, not ``r``.
MAX_RECORDS = MAX_PRODUCT_RECORDS

_WHOLE = {"k", "s", "n", "delta", "width", "theorem"}
_OPTIONAL = {"delta", "width"}
_FREE = {"name", "description", "comment"}


def _no_duplicates(pairs: list) -> dict:
    seen: dict = {}
    for key, value in pairs:
        if key in seen:
            raise InputError(f"sweep spec: key {key!r} appears twice in one object")
        seen[key] = value
    return seen


def parse_spec_text(text: str) -> SweepSpec:
    """:func:`parse_spec` of JSON text (duplicate keys refused; number literals read exactly).

    Examples
    --------
    >>> parse_spec_text('{"mechanism": "rr", "ratio": 2, "ratio": 3}')
    Traceback (most recent call last):
    ...
    relations.errors.InputError: sweep spec: key 'ratio' appears twice in one object
    """
    try:
        data = read_json(text, source="sweep spec", object_pairs_hook=_no_duplicates, parse_float=str,
                          parse_int=lambda t: whole_number(t, "sweep spec"),
                          parse_constant=lambda c: (_ for _ in ()).throw(InputError(f"sweep spec: {c} is not allowed")))
    except json.JSONDecodeError as exc:
        raise InputError(f"sweep spec: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    return parse_spec(data)


def _axis(spec: dict, key: str) -> list:
    value = spec[key]
    matrices = key != "utility" or (value and isinstance(value[0], list) and value[0] and isinstance(value[0][0], list))
    values = value if isinstance(value, list) and matrices else [value]
    if not 1 <= len(values) <= MAX_AXIS:
        raise InputError(f"sweep spec: '{key}': {len(values)} values (give 1 to {MAX_AXIS})")
    return values


def _whole(key: str, v: Any, low: int = 1, high: int = 4096) -> int:
    if isinstance(v, int) and not isinstance(v, bool) and low <= v <= high:
        return v
    raise InputError(f"sweep spec: '{key}': expected whole numbers in {low}..{high}, got {json_repr(v)}")


def _prior_family(v: Any) -> Any:
    """A prior family, normalised: ``"default"``, ``"uniform"``, ``{"skewed": "t"}``, ``{"geometric": "q"}`` or a list."""
    if v in ("default", "uniform"):
        return v
    if isinstance(v, dict) and len(v) == 1 and next(iter(v)) in ("skewed", "geometric"):
        (name, q), = v.items()
        t = parse_rational(q, f"sweep spec: 'prior' {name}")
        if name == "skewed" and not 0 <= t <= 1:
            raise InputError(f"sweep spec: 'prior' skewed: {t} must lie in [0, 1]")
        if name == "geometric" and t <= 0:
            raise InputError(f"sweep spec: 'prior' geometric: {t} must be positive")
        return {name: str(t)}
    if isinstance(v, list) and v:
        entries = [parse_rational(x, "sweep spec: 'prior' entry") for x in v]
        if any(x < 0 for x in entries) or sum(entries) != 1:
            raise InputError(f"sweep spec: 'prior' {json_repr(v)}: entries must be non-negative and sum to 1")
        return [str(x) for x in entries]
    raise InputError(f"sweep spec: 'prior': expected \"default\", \"uniform\", {{\"skewed\": t}}, {{\"geometric\": q}} "
                     f"or a list of probabilities, got {json_repr(v)}")


def prior_label(family: Any) -> str:
    """The prior family as the text of a result column (``skewed:1/2``, ``1/2,1/2``)."""
    if isinstance(family, str):
        return family
    if isinstance(family, dict):
        (name, q), = family.items()
        return f"{name}:{q}"
    return ",".join(family)


def _prior_entries(family: Any, k: int, mech: Mechanism) -> Any:
    if family == "default":
        return None
    if family == "uniform":
        return [Fraction(1, k)] * k
    if isinstance(family, dict):
        (name, q), = family.items()
        t = Fraction(q)
        if name == "skewed":
            if k == 1:
                return [Fraction(1)]
            return [t] + [(1 - t) / (k - 1)] * (k - 1)
        weights = [t ** x for x in range(k)]
        return [w / sum(weights) for w in weights]
    if len(family) != k:
        raise InputError(f"prior {prior_label(family)}: {len(family)} entries for {k} inputs")
    return [Fraction(x) for x in family]


@dataclass(frozen=True)
class SweepSpec:
    """A parsed, validated sweep specification (:func:`parse_spec`).

    Attributes
    ----------
    kind : str
        ``"grid"`` or ``"exhaustive"``.
    data : dict
        The normalised specification (JSON-ready, and a specification itself: ``parse_spec(s.data)`` is ``s``):
        what :attr:`fingerprint` hashes and workers rebuild the sweep from.
    relations : tuple of str
        The catalogue ids evaluated at every point.
    count : int
        The number of points (evaluated mechanisms).
    columns : tuple of str
        The parameter columns of a result row.
    members : int or None
        For a family swept up to relabelling, the number of its members (point indices run over them and
        only the representatives are evaluated); otherwise None.
    """

    kind: str
    data: dict
    relations: tuple[str, ...]
    count: int
    columns: tuple[str, ...]
    members: int | None = None

    @property
    def span(self) -> int:
        """The range of point indices: ``members`` for a family up to relabelling, else ``count``."""
        return self.count if self.members is None else self.members

    def representatives(self, start: int, stop: int) -> tuple[Any, Any]:
        """The point indices evaluated among ``start .. stop-1`` and how many members each stands for.

        Examples
        --------
        >>> s = parse_spec({"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 1, "prior": "uniform",
        ...                                "symmetry": "relabel"}})
        >>> (s.count, s.members), [a.tolist() for a in s.representatives(0, s.span)]
        ((2, 4), [[0, 1], [2, 2]])
        """
        if self.members is None:
            return np.arange(start, stop, dtype=np.int64), np.ones(max(0, stop - start), dtype=np.int64)
        return representatives(*self._family(), start, stop)

    def orbit_sizes(self, indices: Any) -> Any:
        """For point indices (strictly increasing), how many members each stands for; 0 where an index is
        not a point (not a representative, or out of range).

        Examples
        --------
        >>> s = parse_spec({"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 1, "prior": "uniform",
        ...                                "symmetry": "relabel"}})
        >>> s.orbit_sizes(np.array([0, 1, 2, 4])).tolist()
        [2, 2, 0, 0]
        """
        idx = np.asarray(indices, dtype=np.int64)
        inside = (idx >= 0) & (idx < self.span)
        if self.members is None:
            return inside.astype(np.int64)
        sizes = np.zeros(idx.size, dtype=np.int64)
        sizes[inside] = orbit_sizes(*self._family(), idx[inside])
        return sizes

    def _family(self) -> tuple[tuple, tuple, int]:
        """A family's priors, rows and number of inputs."""
        fam = self.data["exhaustive"]
        return (*family_rows(json.dumps(fam, sort_keys=True)), fam["inputs"])

    @property
    def fingerprint(self) -> str:
        """SHA-256 of the normalised specification: equal for the same sweep, whatever its spelling."""
        return hashlib.sha256(json.dumps(self.data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()

    def _axes(self) -> list[tuple[str, list]]:
        return [(c, [self.data[c]] if c == "mechanism" else self.data[c]) for c in self.columns]

    def point(self, index: int) -> dict[str, Any]:
        """The parameters of point ``index`` (``0 <= index < count``), as result columns."""
        if not 0 <= index < self.span:
            raise IndexError(index)
        if self.kind == "grid":
            out: dict[str, Any] = {}
            for name, values in reversed(self._axes()):
                index, digit = divmod(index, len(values))
                out[name] = values[digit]
            out = {c: out[c] for c in self.columns}
            out["prior"] = prior_label(out["prior"])
            if "utility" in out:
                out["utility"] = json.dumps(out["utility"], separators=(",", ":"))
            return out
        priors, rows, n = self._family()
        digits = []
        for _ in range(n):
            index, d = divmod(index, len(rows))
            digits.append(d)
        return {"prior": ",".join(map(str, priors[index])),
                "channel": ";".join(",".join(map(str, rows[d])) for d in reversed(digits))}

    def build(self, point: dict[str, Any]) -> Mechanism:
        """The mechanism of a point (:meth:`point`).

        Raises
        ------
        InputError
            If the named mechanism refuses these parameters (the sweep records the message).
        """
        if self.kind == "exhaustive":
            prior = [Fraction(x) for x in point["prior"].split(",")]
            channel = [[Fraction(x) for x in row.split(",")] for row in point["channel"].split(";")]
            return Mechanism.local(channel, prior=prior)
        params = {k: (json.loads(v) if k == "utility" else v) for k, v in point.items()
                  if k not in ("prior", "records")}
        mech = named(params)
        family = next(p for p, label in ((p, prior_label(p)) for p in self.data["prior"])
                      if label == point["prior"])
        assert not isinstance(mech.inputs, HammingInputs)  # a named mechanism is local or on a graph
        entries = _prior_entries(family, len(mech.inputs.labels), mech)
        if "records" in point:
            if mech.setting != "local":
                raise InputError(f"mechanism {params['mechanism']!r} is central: 'records' needs a local mechanism")
            factors = None if entries is None else ProductPrior.repeated(Prior.of(entries), point["records"])
            return product(mech, point["records"], prior=factors)
        return mech if entries is None else mech.with_entries(prior=entries)


def _relations(data: dict) -> tuple[str, ...]:
    from relations.catalogue import BY_ID, CATALOGUE

    ids = data.get("relations")
    if ids is None:
        return tuple(r.id for r in CATALOGUE)
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        raise InputError("sweep spec: 'relations': expected a non-empty list of relation ids")
    for i in ids:
        if i not in BY_ID:
            raise InputError(f"sweep spec: 'relations': unknown relation id {i!r} (see 'relations catalogue')")
    if len(set(ids)) != len(ids):
        raise InputError("sweep spec: 'relations': an id appears twice")
    return tuple(ids)


def _check_count(count: int, what: str) -> int:
    if count > MAX_POINTS:
        raise InputError(f"sweep spec: {what}: {count} mechanisms, more than the limit of {MAX_POINTS}")
    return count


def _parse_exhaustive(fam: Any) -> tuple[dict, int | None, int]:
    if not isinstance(fam, dict):
        raise InputError("sweep spec: 'exhaustive': expected an object {\"inputs\": n, \"outputs\": m, \"denominator\": N}")
    unknown = sorted(set(fam) - {"inputs", "outputs", "denominator", "prior", "symmetry"})
    if unknown:
        raise InputError(f"sweep spec: 'exhaustive': unknown key '{unknown[0]}' (known: inputs, outputs, denominator, "
                         "prior, symmetry)")
    missing = [key for key in ("inputs", "outputs", "denominator") if key not in fam]
    if missing:
        raise InputError(f"sweep spec: 'exhaustive': key '{missing[0]}' is missing")
    n, m = _whole("inputs", fam["inputs"], 2, MAX_SIZE), _whole("outputs", fam["outputs"], 2, MAX_SIZE)
    den = _whole("denominator", fam["denominator"], 1, MAX_DENOMINATOR)
    prior = fam.get("prior", "all")
    if prior not in ("all", "positive", "uniform"):
        raise InputError(f"sweep spec: 'exhaustive' prior: expected \"all\", \"positive\" or \"uniform\", got {json_repr(prior)}")
    if fam.get("symmetry", "none") not in ("none", "relabel"):
        raise InputError(f"sweep spec: 'exhaustive' symmetry: expected \"none\" or \"relabel\", got {json_repr(fam['symmetry'])}")
    rows = count_rows(m, den)
    priors = 1 if prior == "uniform" else count_rows(n, den, positive=prior == "positive")
    out = {"inputs": n, "outputs": m, "denominator": den, "prior": prior}
    what = f"every {n} x {m} channel and {prior} priors with denominators <= {den}"
    if fam.get("symmetry", "none") == "none":
        return out, None, _check_count(priors * rows ** n, what)
    members = priors * rows ** n
    if members > MAX_MEMBERS:
        raise InputError(f"sweep spec: {what}: {members} members, more than the limit of {MAX_MEMBERS} for a "
                         "sweep up to relabelling")
    out["symmetry"] = "relabel"
    priors_, rows_ = family_rows(json.dumps(out, sort_keys=True))
    return out, members, _check_count(orbit_count(priors_, rows_, n), what + " up to relabelling")


def parse_spec(data: Any) -> SweepSpec:
    """Validate a sweep specification (parsed JSON) and count its points.

    Parameters
    ----------
    data : dict
        The specification (see the module docstring and ``docs/mechanism-files.md``).

    Returns
    -------
    SweepSpec

    Raises
    ------
    InputError
        One line naming the first problem: an unknown or missing key, a bad value, an unknown relation id,
        more than :data:`MAX_POINTS` points.

    Examples
    --------
    >>> parse_spec({"mechanism": "krr", "k": 3, "ratio": "2", "epsilon": 1})
    Traceback (most recent call last):
    ...
    relations.errors.InputError: sweep spec: mechanism 'krr': unknown key 'epsilon' (takes k, ratio or eps, prior, records, relations)
    """
    if not isinstance(data, dict):
        raise InputError(f"sweep spec: expected a JSON object, got {json_repr(data)}")
    rels = _relations(data)
    body = {k: v for k, v in data.items() if k not in _FREE and k != "relations"}
    if "exhaustive" in body:
        extra = sorted(set(body) - {"exhaustive"})
        if extra:
            raise InputError(f"sweep spec: unknown key '{extra[0]}' next to 'exhaustive' (known: exhaustive, relations, "
                             "name, description, comment)")
        fam, members, count = _parse_exhaustive(body["exhaustive"])
        return SweepSpec("exhaustive", {"exhaustive": fam, "relations": list(rels)}, rels, count, ("prior", "channel"),
                         members)
    name = body.get("mechanism")
    if name is None:
        raise InputError("sweep spec: give 'mechanism' (a grid) or 'exhaustive' (a family)")
    entry = REGISTRY.get(name) if isinstance(name, str) else None
    if entry is None:
        raise InputError(f"sweep spec: unknown mechanism {json_repr(name)}; known: {', '.join(sorted(REGISTRY))}")
    known = ("mechanism",) + entry.params + (("eps",) if "ratio" in entry.params else ()) + ("prior", "records")
    extra = [k for k in body if k not in known]
    if extra:
        raise InputError(f"sweep spec: mechanism {name!r}: unknown key '{extra[0]}' (takes "
                         f"{entry.parameter_text}, prior, records, relations)")
    if "ratio" in body and "eps" in body:
        raise InputError(f"sweep spec: mechanism {name!r}: give 'ratio' or 'eps', not both (ratio = e^eps)")
    missing = [p for p in entry.params if p not in body and p not in _OPTIONAL and not (p == "ratio" and "eps" in body)]
    if missing:
        raise InputError(f"sweep spec: mechanism {name!r}: parameter '{missing[0]}' is missing")
    grid: dict[str, list] = {"mechanism": [name]}
    for p in entry.params:
        if p == "ratio" and "eps" in body:
            grid["eps"] = [eps_text(v, "sweep spec: 'eps'") for v in _axis(body, "eps")]
        elif p in body:
            values = _axis(body, p)
            grid[p] = (values if p == "utility" else [_whole(p, v) for v in values] if p in _WHOLE
                       else [str(parse_rational(v, f"sweep spec: '{p}'")) for v in values])
    grid["prior"] = [_prior_family(v) for v in _axis(body, "prior")] if "prior" in body else ["default"]
    if "records" in body:
        grid["records"] = [_whole("records", v, 1, MAX_RECORDS) for v in _axis(body, "records")]
    for axis, values in grid.items():
        texts = [json.dumps(v, sort_keys=True) for v in values]
        if len(set(texts)) != len(texts):
            raise InputError(f"sweep spec: '{axis}': a value appears twice")
    count = _check_count(prod(len(v) for v in grid.values()), f"the grid of {name!r}")
    data = {c: name if c == "mechanism" else v for c, v in grid.items()} | {"relations": list(rels)}
    return SweepSpec("grid", data, rels, count, tuple(grid))
