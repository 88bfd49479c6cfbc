"""Benchmark of start-up: ``relations --version`` and ``relations measure`` on a 2 x 2 file, against bare Python.

Run: ``python benchmarks/bench_startup.py [--quick] [--runs N] [--baseline DIR]``.

Each command is run as a new process ``N`` times (``--quick``: 7, else 21), interleaved with its
baselines so that a busy machine slows all of them alike; for each run the wall-clock seconds and the
CPU seconds of the child (user + system, from ``os.wait4``) are kept, and the medians compared:

* ``python -c pass`` -- the interpreter alone (with this environment's ``site`` and ``.pth`` files);
* ``python -c "import numpy"`` -- the baseline of the start-up target (issue 46): a 2 x 2
  ``relations measure`` costs at most 1.5 times as much, as a whole process (the ``/ numpy`` columns and
  ``over_numpy`` / ``cpu_over_numpy`` in the JSON);
* ``python -c "import numpy, flint"`` -- the numerical libraries every exact measurement needs (the floor of
  ``relations measure --json``);
* ``python -c "import numpy, flint, rich"`` -- and rich's console and tables, which drew the table before
  ``relations measure`` drew it without rich on a file or pipe;
* ``python -c "import numpy, flint, os; os._exit(0)"`` -- the numerical libraries without the interpreter's
  teardown, as the typer-free ``relations measure`` ends (about a fifth of ``import numpy`` less: the floor
  of ``relations measure`` now);
* ``relations --version`` -- answered without importing the command-line framework;
* ``relations measure FILE`` -- the shipped 2 x 2 example, exact, printed as a table (without typer:
  ``relations.cli._measure_fast``);
* ``relations measure FILE --json``;
* ``relations measure --help`` -- the help, printed by the command-line framework (typer).

``--baseline DIR`` adds the three ``relations measure`` lines of another source tree, run in ``DIR`` (so
that ``python -m`` imports its ``relations``; e.g. ``git archive OLD relations | tar -x -C DIR``; its bytecode
compiled first), interleaved too.  The tool's own lines run in this tree.

It prints the medians (wall and CPU), each over the interpreter alone and over ``import numpy``, and
the same as one line of JSON last, with whether the package's bytecode was cached: where
``PYTHONDONTWRITEBYTECODE`` is set (as on some CI machines) an editable install compiles every
module of the package from source in each process, about 0.05 s more (``python -m compileall
relations`` once writes the bytecode; a regular ``pip install`` does it at install time).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _clock import row

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "relations" / "data" / "examples" / "paper_example.json"

#: The target of issue 46: ``relations measure`` on a 2 x 2 file at most this many times ``import numpy``.
TARGET_OVER_NUMPY = 1.5


def commands(baseline: str | None = None) -> dict[str, tuple[list[str], str]]:
    """The timed command lines, by name, and the folder each runs in (``python -m`` imports ``relations``
    from there first); ``relations`` is run as ``python -m relations`` of this interpreter."""
    py = sys.executable
    cmds = {"python -c pass": [py, "-c", "pass"],
            "python -c 'import numpy'": [py, "-c", "import numpy"],
            "python -c 'import numpy, flint'": [py, "-c", "import numpy, flint"],
            "python -c 'import numpy, flint, rich'": [py, "-c", "import numpy, flint, rich.console, rich.table"],
            "import numpy, flint; os._exit(0)": [py, "-c", "import numpy, flint, os; os._exit(0)"],
            "relations --version": [py, "-m", "relations", "--version"],
            "relations measure (table)": [py, "-m", "relations", "measure", str(EXAMPLE)],
            "relations measure --json": [py, "-m", "relations", "measure", str(EXAMPLE), "--json"],
            "relations measure --help": [py, "-m", "relations", "measure", "--help"]}
    out = {name: (argv, str(ROOT)) for name, argv in cmds.items()}
    if baseline is not None:
        for name in ("relations measure (table)", "relations measure --json", "relations measure --help"):
            out[f"baseline: {name}"] = (cmds[name], baseline)
    return out


def timed(argv: list[str], cwd: str | None = None) -> tuple[float, float]:
    """Run ``argv`` as a new process in ``cwd``; its wall-clock seconds and its CPU seconds (user + system,
    ``os.wait4``)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait for it again
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: exit status {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    runs = 7 if "--quick" in sys.argv else 21
    if "--runs" in sys.argv:
        runs = int(sys.argv[sys.argv.index("--runs") + 1])
    baseline = sys.argv[sys.argv.index("--baseline") + 1] if "--baseline" in sys.argv else None
    if baseline is not None:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(baseline) / "relations")], check=True,
                       stdout=subprocess.DEVNULL)
    cmds = commands(baseline)
    for argv, cwd in cmds.values():  # once each, untimed: files in the page cache
        timed(argv, cwd)
    wall: dict[str, list[float]] = {name: [] for name in cmds}
    cpu: dict[str, list[float]] = {name: [] for name in cmds}
    for _ in range(runs):
        for name, (argv, cwd) in cmds.items():
            w, c = timed(argv, cwd)
            wall[name].append(w)
            cpu[name].append(c)
    med = {name: statistics.median(ts) for name, ts in wall.items()}
    med_cpu = {name: statistics.median(ts) for name, ts in cpu.items()}
    base, base_cpu = med["python -c pass"], med_cpu["python -c pass"]
    numpy, numpy_cpu = med["python -c 'import numpy'"], med_cpu["python -c 'import numpy'"]
    print(f"{runs} runs each, interleaved; medians")
    print(f"{'command':38s} {'wall s':>7s} {'CPU s':>7s} {'wall/python':>11s} {'wall/numpy':>10s} {'CPU/numpy':>9s}")
    for name in cmds:
        print(f"{name:38s} {med[name]:7.3f} {med_cpu[name]:7.3f} {med[name] / base:11.2f} {med[name] / numpy:10.2f} "
              f"{med_cpu[name] / numpy_cpu:9.2f}")
    numpy_name = "python -c 'import numpy'"
    rows = [row(f"start-up: {name}{' (2 x 2)' if 'measure' in name else ''}", (med[name], med_cpu[name]),
                (numpy, numpy_cpu), "python -c 'import numpy'",
                *((f"<= {TARGET_OVER_NUMPY}x import numpy", max(med[name] / numpy, med_cpu[name] / numpy_cpu)
                   <= TARGET_OVER_NUMPY) if "measure" in name else ()))
            for name in ("relations --version", "relations measure (table)", "relations measure --json")]
    rows += [row(f"start-up: the same, tree {baseline}: {name[len('baseline: '):]}", (med[name], med_cpu[name]),
                 (numpy, numpy_cpu), numpy_name) for name in cmds if name.startswith("baseline: ")]
    cached = _bytecode_cached()
    print(f"target: relations measure at most {TARGET_OVER_NUMPY}x import numpy (wall and CPU)")
    print(f"package bytecode cached: {cached}; PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r}")
    print(json.dumps({"runs": runs, "median_seconds": {k: round(v, 4) for k, v in med.items()},
                      "median_cpu_seconds": {k: round(v, 4) for k, v in med_cpu.items()},
                      "over_python": {k: round(v / base, 3) for k, v in med.items()},
                      "over_numpy": {k: round(v / numpy, 3) for k, v in med.items()},
                      "cpu_over_python": {k: round(v / base_cpu, 3) for k, v in med_cpu.items()},
                      "cpu_over_numpy": {k: round(v / numpy_cpu, 3) for k, v in med_cpu.items()},
                      "target_over_numpy": TARGET_OVER_NUMPY, "bytecode_cached": cached, "compared": rows}))


def _bytecode_cached() -> bool:
    """Whether the package's modules have up-to-date bytecode that a new process would load."""
    import importlib.util

    import relations

    root = Path(relations.__file__).resolve().parent
    sources = list(root.rglob("*.py"))
    return all(Path(importlib.util.cache_from_source(str(f))).is_file() for f in sources)


if __name__ == "__main__":
    main()
