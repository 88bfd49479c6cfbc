"""Benchmark of start-up: ``relations --version`` and ``relations measure`` on a 2 x 2 file, against bare Python.

Run: ``python benchmarks/bench_startup.py [--quick]``.

Each command is run as a new process ``N`` times (``--quick``: 5, else 15), interleaved with its
baselines so that a busy machine slows all of them alike, and the median wall-clock seconds are
compared:

* ``python -c pass`` -- the interpreter alone (with this environment's ``site`` and ``.pth`` files);
* ``python -c "import numpy"`` -- the baseline of the start-up target: a 2 x 2 ``relations measure``
  takes at most 3 times as long (the ``/ numpy`` column and ``over_numpy`` in the JSON);
* ``python -c "import numpy, flint"`` -- the numerical libraries every exact measurement needs;
* ``relations --version`` -- answered without importing the command-line framework;
* ``relations measure FILE`` -- the shipped 2 x 2 example, exact, printed as a table;
* ``relations measure FILE --json``.

It prints the medians, each command's time over the interpreter alone and its time above it, and
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

EXAMPLE = Path(__file__).resolve().parents[1] / "relations" / "data" / "examples" / "paper_example.json"


def commands() -> dict[str, list[str]]:
    """The timed command lines, by name (``relations`` run as ``python -m relations`` of this interpreter)."""
    py = sys.executable
    return {"python -c pass": [py, "-c", "pass"],
            "python -c 'import numpy'": [py, "-c", "import numpy"],
            "python -c 'import numpy, flint'": [py, "-c", "import numpy, flint"],
            "relations --version": [py, "-m", "relations", "--version"],
            "relations measure (table)": [py, "-m", "relations", "measure", str(EXAMPLE)],
            "relations measure --json": [py, "-m", "relations", "measure", str(EXAMPLE), "--json"]}


def main() -> None:
    runs = 5 if "--quick" in sys.argv else 15
    cmds = commands()
    times: dict[str, list[float]] = {name: [] for name in cmds}
    for _ in range(runs):
        for name, argv in cmds.items():
            t = time.perf_counter()
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times[name].append(time.perf_counter() - t)
    med = {name: statistics.median(ts) for name, ts in times.items()}
    base = med["python -c pass"]
    numpy = med["python -c 'import numpy'"]
    print(f"{'command':36s} {'median s':>9s} {'/ python':>9s} {'/ numpy':>8s} {'+ s':>7s}")
    for name, s in med.items():
        print(f"{name:36s} {s:9.3f} {s / base:9.2f} {s / numpy:8.2f} {s - base:7.3f}")
    cached = _bytecode_cached()
    print(f"package bytecode cached: {cached}; PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r}")
    print(json.dumps({"runs": runs, "median_seconds": {k: round(v, 4) for k, v in med.items()},
                      "over_python": {k: round(v / base, 3) for k, v in med.items()},
                      "over_numpy": {k: round(v / numpy, 3) for k, v in med.items()}, "bytecode_cached": cached}))


def _bytecode_cached() -> bool:
    """Whether the package's modules have up-to-date bytecode that a new process would load."""
    import importlib.util

    import relations

    root = Path(relations.__file__).resolve().parent
    sources = list(root.rglob("*.py"))
    return all(Path(importlib.util.cache_from_source(str(f))).is_file() for f in sources)


if __name__ == "__main__":
    main()
