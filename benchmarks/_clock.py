"""Wall clock and CPU time of a call, and the rows ``run_all.py`` collects from each benchmark script.

A benchmark script that compares the tool with a baseline in the same run puts the comparisons in its JSON
line (the last line it prints) as ``"compared"``: a list of :func:`row` objects.  ``run_all.py`` prints them all
in one table: the work, the tool's CPU and wall seconds, the baseline's, and the ratio (of CPU time where both
are known: a loaded machine inflates it least).
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from typing import Any

__all__ = ["clock", "cpu_seconds", "row"]


def clock(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, float, Any]:
    """``fn()`` run ``repeat`` times: the least wall-clock seconds, the least CPU seconds (every thread of this
    process, and the child processes ``fn`` waited for), and the last value."""
    wall = cpu = float("inf")
    value = None
    for _ in range(repeat):
        w, c = time.perf_counter(), cpu_seconds()
        value = fn()
        cpu = min(cpu, cpu_seconds() - c)
        wall = min(wall, time.perf_counter() - w)
    return wall, cpu, value


def cpu_seconds() -> float:
    """CPU seconds so far of this process (every thread) and of its children that have ended."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def row(work: str, ours: tuple[float, float | None], baseline: tuple[float, float | None] | None = None,
        name: str = "", target: str = "", met: bool | None = None, per_entry: bool = False) -> dict:
    """One comparison: ``work``, the tool's ``(wall, cpu)`` seconds, the baseline's (``name``), and a target
    (``met``: whether it holds).  A time may be None or NaN where it was not measured; ``per_entry``: the
    times are seconds per entry of an array."""
    out: dict[str, Any] = {"work": work, "ours": {"wall": ours[0], "cpu": ours[1]}}
    if per_entry:
        out["per_entry"] = True
    if baseline is not None:
        out["baseline"] = {"name": name, "wall": baseline[0], "cpu": baseline[1]}
    if target:
        out["target"] = target
        out["met"] = met
    return out
