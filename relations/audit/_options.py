"""How an audit runs: its budgets, limits, routes and output, as one immutable value.

:class:`AuditOptions` is built once, by the command line (``relations audit``) or by a caller of
:func:`~relations.audit.audit` and :func:`~relations.audit.audit_target`, and passed down unchanged.  Each
option's default, meaning, command-line flag and range are stated here only: the command's help and bounds
are derived from them.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from relations.audit._enumerate import MAX_PATHS
from relations.audit._pool import CALL_SECONDS, MAX_WORKERS, MEMORY_MB, TOTAL_SECONDS
from relations.errors import InputError

__all__ = ["AuditOptions", "WHITE_BOX_SECONDS", "MAX_BINS", "parse_bins"]

#: Wall-time budget (seconds) of the white-box route, all inputs together; past it the audit samples.
WHITE_BOX_SECONDS = 120.0
#: Most intervals (or edges) of ``--bins``.
MAX_BINS = 10_000


def _option(default: Any, flag: str | None, text: str, low: float | None = None, high: float | None = None) -> Any:
    """A field of :class:`AuditOptions`: its default, its command-line flag, its meaning and its range."""
    return field(default=default, metadata={"flag": flag, "help": text, "low": low, "high": high})


@dataclass(frozen=True, kw_only=True)
class AuditOptions:
    """How an audit runs: budgets, limits, routes and output.

    Immutable and validated on construction (:class:`~relations.errors.InputError` naming the option).  The
    command line builds one from its flags; :func:`~relations.audit.audit` and
    :func:`~relations.audit.audit_target` take one (``options=``) or the same names as keywords.

    Attributes
    ----------
    max_paths : int
        Most runs of the randomizer on the white-box route (``--max-paths``).
    seconds : float
        Wall-time budget of the white-box route, all inputs together (``--time-budget``); past it the audit
        samples.
    samples : int or None
        Samples per input on the black-box route (``--samples``).  ``None``: for a target, the default budget
        (:data:`~relations.audit._runner.DEFAULT_SAMPLES` per input, at most
        :data:`~relations.audit._runner.DEFAULT_TOTAL` in all); for :func:`~relations.audit.audit`, no sampling.
    bins : int, tuple of float or None
        Binning of real-valued outputs on the black-box route (``--bins``): a number of equal-mass intervals
        or the edges.
    seed : int
        Seed of every random choice of the black-box route (``--seed``).
    alpha : float
        One minus the confidence of the black-box route's certified bounds.
    timeout : float or None
        Seconds the whole audit may take (``--timeout``; ``None``: no limit).
    call_seconds : float
        Seconds one call of the randomizer (or the import of its module) may take (``--call-timeout``; 0: none).
    memory_mb : int
        Address space of each process running the randomizer, in MiB (``--memory``; 0: none).
    workers : int or None
        Worker processes of a target's audit (``--workers``): 0, one without a pool; ``None``, one per core
        (the command line's default).
    python : str or None
        Interpreter of the worker processes (``--python``).
    scheduler : str, distributed.Client or None
        A Dask scheduler for the sampling (``--scheduler``).
    white_box : bool
        False samples even when the randomness could be enumerated (``--black-box``).
    exact_only : bool
        Refuse rather than sample when the randomness cannot be enumerated exactly (``--exact-only``).
    json_out : bool
        Print the report as JSON (``--json``).
    out : str or None
        Write the implemented channel as a mechanism file here (``--out``).
    force : bool
        Replace an existing ``out`` file (``--force``).

    Examples
    --------
    >>> options = AuditOptions(samples=2000, seed=3)
    >>> options.samples, options.max_paths, options.white_box
    (2000, 1000000, True)
    >>> options.replace(seed=4).seed
    4
    >>> AuditOptions(max_paths=0)
    Traceback (most recent call last):
    ...
    relations.errors.InputError: --max-paths: 0; give 1 to 100000000
    """

    # budgets
    max_paths: int = _option(MAX_PATHS, "--max-paths", "Most runs of the randomizer (white-box).", 1, 100_000_000)
    seconds: float = _option(WHITE_BOX_SECONDS, "--time-budget", "Seconds the white-box route may spend, all "
                             "inputs together, before the audit samples instead.", 0.1, 86_400)
    samples: int | None = _option(None, "--samples", "Black-box budget: most samples per input, used when the "
                                  "randomness cannot be enumerated (default 100000, at most 2000000 over all "
                                  "inputs).", 1, 100_000_000)
    bins: int | tuple[float, ...] | None = _option(None, "--bins", "Bin real-valued outputs when sampling: a number "
                                                   "N of equal-mass intervals from a first sample, or comma-separated "
                                                   "edges (by default outputs that seldom repeat are binned into 16).")
    seed: int = _option(0, "--seed", "Seed of every random choice of a black-box audit.", 0)
    alpha: float = _option(0.05, None, "One minus the confidence of the black-box bounds.")
    # limits
    timeout: float | None = _option(TOTAL_SECONDS, "--timeout", "Seconds the whole audit may take; past them it "
                                    "stops with one line (exit 2).", 1, 7 * 86_400)
    call_seconds: float = _option(CALL_SECONDS, "--call-timeout", "Seconds one call of the randomizer (or the "
                                  "import of its module) may take; 0: no limit.", 0, 86_400)
    memory_mb: int = _option(MEMORY_MB, "--memory", "Address space of each worker process running the "
                             "randomizer, in MiB; 0: no limit.", 0, 1 << 30)
    workers: int | None = _option(0, "--workers", "Worker processes (default: one per core; 0: one, without a "
                                  "pool). The randomizer never runs in the tool's own process.", 0, MAX_WORKERS)
    python: str | None = _option(None, "--python", "Run the randomizer under this interpreter (one with its "
                                 "libraries).")
    scheduler: Any = _option(None, "--scheduler", "Dask scheduler address for the sampling.")
    # routes
    white_box: bool = _option(True, "--black-box", "Sample even when the randomness could be enumerated.")
    exact_only: bool = _option(False, "--exact-only", "Refuse (exit 2) instead of sampling when the randomness "
                               "cannot be enumerated exactly.")
    # output
    json_out: bool = _option(False, "--json", "Print the report as JSON.")
    out: str | None = _option(None, "--out", "Write the implemented channel as a mechanism file here.")
    force: bool = _option(False, "--force", "Replace an existing --out file.")

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value, low, high = getattr(self, f.name), f.metadata["low"], f.metadata["high"]
            if value is None or (low is None and high is None):
                continue
            name = f.metadata["flag"] or f.name
            integral = str(f.type).startswith("int")
            if isinstance(value, bool) or not isinstance(value, numbers.Integral if integral else numbers.Real):
                raise InputError(f"{name}: {value!r} is not {'a whole' if integral else 'a'} number")
            value = int(value) if integral else float(value)  # type: ignore[call-overload]
            object.__setattr__(self, f.name, value)
            if not (low is None or value >= low) or not (high is None or value <= high) or math.isnan(value):
                span = f"{low} to {high}" if high is not None else f"at least {low}"
                raise InputError(f"{name}: {value}; give {span}")
        if not 0 < self.alpha < 1:
            raise InputError(f"alpha: {self.alpha}; give a number strictly between 0 and 1")
        if self.bins is not None:
            object.__setattr__(self, "bins", _checked_bins(self.bins))

    def replace(self, **changes: Any) -> AuditOptions:
        """These options with ``changes`` (validated again); an unknown name is a :class:`TypeError`."""
        return dataclasses.replace(self, **changes) if changes else self

    @classmethod
    def of(cls, options: AuditOptions | None, keywords: dict[str, Any]) -> AuditOptions:
        """``options`` (by default :class:`AuditOptions`\\ ``()``) with the option ``keywords`` of a call."""
        return (options or cls()).replace(**keywords)

    @classmethod
    def described(cls, name: str) -> tuple[Any, str, str, float | None, float | None]:
        """An option's default, flag, meaning, lowest and highest value, for the command line."""
        f = cls.__dataclass_fields__[name]
        return f.default, f.metadata["flag"], f.metadata["help"], f.metadata["low"], f.metadata["high"]

    def differing(self, names: Sequence[str]) -> list[str]:
        """Those of ``names`` whose value is not the default (an option a caller cannot honour is said)."""
        return [n for n in names if getattr(self, n) != self.__dataclass_fields__[n].default]


def _checked_bins(bins: Any) -> int | tuple[float, ...]:
    """``bins`` as a number of intervals (2 to :data:`MAX_BINS`) or sorted finite edges."""
    if isinstance(bins, bool):
        raise InputError(f"--bins: {bins!r} is neither a number of intervals nor edges")
    if isinstance(bins, int):
        if not 2 <= bins <= MAX_BINS:
            raise InputError(f"--bins: {bins} intervals; give 2 to {MAX_BINS}")
        return bins
    try:
        edges = tuple(sorted(float(b) for b in bins))
    except (TypeError, ValueError):
        raise InputError(f"--bins: {bins!r} is neither a number of intervals nor edges") from None
    if not edges or len(edges) > MAX_BINS or not all(math.isfinite(e) for e in edges):
        raise InputError(f"--bins: give 1 to {MAX_BINS} finite edges")
    return edges


def parse_bins(text: str | None) -> int | tuple[float, ...] | None:
    """``--bins``: ``N`` (equal-mass intervals) or comma-separated finite edges (sorted, each once).

    Examples
    --------
    >>> parse_bins("16"), parse_bins("1.5, -1, 1.5")
    (16, (-1.0, 1.5))
    """
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if len(parts) == 1 and parts[0].isascii() and parts[0].isdigit() and len(parts[0]) <= 9:
        return _checked_bins(int(parts[0]))
    try:
        edges = [float(p) for p in parts]
    except ValueError:
        raise InputError(f"--bins: {text!r} is neither a number of intervals nor comma-separated edges") from None
    return _checked_bins(sorted(set(edges)))
