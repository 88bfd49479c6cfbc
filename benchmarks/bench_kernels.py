"""Benchmark of the float kernels (issue 46 item 2), each beside its baseline in this one process.

Run: ``python benchmarks/bench_kernels.py`` (add ``--quick`` for small sizes).

CPU time (``time.process_time``: every thread of the process) beside wall time, the best of a few
repetitions, tool and baseline interleaved; the ratios compare CPU times.  The tool rows run the
compiled kernels (``RELATIONS_KERNELS=compiled``, loaded once at the start: that cost is the first row);
the numpy-twin rows run the same code with ``RELATIONS_KERNELS=numpy``.

1. float ``eps_m`` (``I(X;Y)`` of a float-mode mechanism), 4096^2 and 8192^2 (``--quick``: 2048^2), in ns per entry of CPU
   (target <= 1.5), beside the floor (one ``np.sum`` read of the array), a tight one-thread numpy pass
   (``np.log`` over the whole matrix, then products and sums), the numpy twin, and, where a C compiler is
   installed, the C library's logarithm over the same array (``benchmarks/log_floor.c``: ``sum q ln q`` alone,
   vectorised with glibc's libmvec under ``-ffast-math``, and scalar without it), and, where the processor has
   AVX2 and FMA, the kernel's own pass hand-vectorised in C intrinsics (``xlogx_rows_avx2`` there: the floor of
   its arithmetic), then that pass with only its logarithm's reduction ``x = 2^k m``, then with no logarithm,
   then with a logarithm of another kind (a 4 MB table over every binade: no integer vector work);
2. float ``eps_d`` of a local mechanism, 256^2, 1024^2, 4096^2 (``--quick``: to 2048^2), vs numpy's
   max-log-ratio pass ``log(max(Q.max(0) / Q.min(0)))`` (target <= 1.5x);
3. certified ``eps_d`` from floats, 2048^2 and 4096^2 (``--quick``: 2048^2): the exact channel built from
   the float array (``Channel.of(a, exact=True)``: exact row sums and the float copy over them) and
   ``eps_d`` with its exact re-check, vs the float path (``Channel.of(a, exact=False)`` and float
   ``eps_d``) (target <= 2x), the two timed alternately (best of 5 each), and the numpy twin.
"""

from __future__ import annotations

import json
import os
import sys
import time

import numpy as np

from relations.measures import eps_d, eps_m
from relations.measures._information import mutual_information_float
from relations.model import Channel, LocalInputs, Mechanism, Prior
from relations.numbers import _kernels


def timed(fn, repeat: int = 3) -> tuple[float, float]:
    """Best CPU and best wall seconds of ``repeat`` calls."""
    cpu, wall = [], []
    for _ in range(repeat):
        c, w = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return min(cpu), min(wall)


def alternately(tool, base, repeat: int = 5) -> tuple[tuple[float, float], tuple[float, float]]:
    """Best CPU and wall seconds of ``tool`` and of ``base``, called in turn ``repeat`` times each."""
    got: list[list[tuple[float, float]]] = [[], []]
    for _ in range(repeat):
        for i, fn in enumerate((tool, base)):
            got[i].append(timed(fn, 1))
    return ((min(c for c, _ in got[0]), min(w for _, w in got[0])),
            (min(c for c, _ in got[1]), min(w for _, w in got[1])))


def kernels(how: str) -> None:
    os.environ[_kernels.ENVIRONMENT] = how


def numpy_pass(p: np.ndarray, q: np.ndarray) -> float:
    """A tight one-thread numpy ``I(X;Y)``: ``np.log`` over the whole matrix, products, sums."""
    t = np.maximum(q, np.nextafter(0.0, 1.0))
    np.log(t, out=t)
    t *= q
    py = p @ q
    return float(p @ t.sum(1) - py @ np.log(np.maximum(py, np.nextafter(0.0, 1.0))))


def numpy_max_log_ratio(q: np.ndarray) -> float:
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.log(np.nanmax(q.max(axis=0) / q.min(axis=0))))


def c_log_floor() -> tuple[dict, dict]:
    """``benchmarks/log_floor.c`` compiled twice (``-O3 -march=native``, with and without ``-ffast-math``) and
    loaded with ctypes: ``({"vector": f, "scalar": f}, passes)``, ``f(q)`` = ``sum q ln q`` in C, and where the
    processor has AVX2 and FMA, ``passes`` = ``{"avx2": g, "table": h}``, the kernel's pass in C
    (``g(q, p, py, part)``, ``h(q, p, py)``); both empty without a C compiler."""
    import ctypes
    import shutil
    import subprocess
    import tempfile

    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None:
        return {}, {}
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "log_floor.c")
    folder = tempfile.mkdtemp(prefix="relations-log-floor-")
    found, passes = {}, {}
    for name, flags in (("vector", ["-ffast-math"]), ("scalar", [])):
        obj, lib = os.path.join(folder, f"{name}.o"), os.path.join(folder, f"{name}.so")
        # compiled and linked apart: linking with -ffast-math would add crtfastmath.o, which sets flush-to-zero
        # for the whole process when the library loads (numpy's subnormals would then read as zeros)
        made = subprocess.run([compiler, "-O3", "-march=native", *flags, "-fPIC", "-c", "-o", obj, source],
                              capture_output=True)
        if made.returncode == 0:
            made = subprocess.run([compiler, "-shared", "-o", lib, obj, "-lm"], capture_output=True)
        if made.returncode == 0:
            library = ctypes.CDLL(lib)
            f = library.xlogx_sum
            f.restype, f.argtypes = ctypes.c_double, [ctypes.c_void_p, ctypes.c_long]
            found[name] = (lambda g: lambda q: g(q.ctypes.data, q.size))(f)
            # the kernel's own pass in AVX2 intrinsics, from the build without -ffast-math (which may reassociate
            # the intrinsics' arithmetic): absent where the processor has no AVX2 and FMA
            rows = getattr(library, "xlogx_rows_avx2", None) if name == "scalar" else None
            if rows is not None:
                rows.restype = ctypes.c_double
                rows.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_long, ctypes.c_long, ctypes.c_int]
                passes["avx2"] = (lambda g: lambda q, p, py, part: g(q.ctypes.data, p.ctypes.data, py.ctypes.data,
                                                                   q.shape[0], q.shape[1], part))(rows)
                table = library.xlogx_rows_table
                table.restype, table.argtypes = ctypes.c_double, [ctypes.c_void_p] * 3 + [ctypes.c_long] * 2
                passes["table"] = (lambda g: lambda q, p, py: g(q.ctypes.data, p.ctypes.data, py.ctypes.data,
                                                              q.shape[0], q.shape[1]))(table)
    shutil.rmtree(folder, ignore_errors=True)  # the loaded libraries stay mapped
    return found, passes


def channel(rng, n: int, zeros: float = 0.01) -> tuple[np.ndarray, np.ndarray]:
    """A random channel with a fraction ``zeros`` of zero entries (none for ``eps_d``, which a zero makes
    infinite) and a random prior."""
    q = rng.random((n, n))
    q[rng.random((n, n)) < zeros] = 0.0
    q[:, 0] += 1e-6
    q /= q.sum(axis=1, keepdims=True)
    q.setflags(write=False)
    p = rng.random(n)
    p /= p.sum()
    return p, q


def row(name: str, tool: tuple[float, float], base: tuple[float, float] | None, entries: int, note: str = "") -> None:
    per = f"{tool[0] / entries * 1e9:6.2f} ns"
    ratio = f"{tool[0] / base[0]:6.2f}x" if base else "      - "
    base_s = f"{base[0] * 1e3:9.1f} ms" if base else "        -   "
    print(f"{name:<52} {tool[0] * 1e3:9.1f} ms ({tool[1] * 1e3:8.1f} wall)  {per}  {base_s}  {ratio}  {note}")


def main(quick: bool = False) -> dict:
    out: dict = {}
    if os.environ.get(_kernels.ENVIRONMENT):
        print(f"note: {_kernels.ENVIRONMENT}={os.environ[_kernels.ENVIRONMENT]} in the environment is overridden per row")
    kernels("compiled")
    c, w = time.process_time(), time.perf_counter()
    module = _kernels.compiled()
    if module is None:
        print("numba is not installed: the compiled kernels are unavailable (pip install 'privacy-relations[fast]')")
        print(json.dumps({"compiled": False}))
        return {"compiled": False}
    tiny = np.full((8, 8), 1 / 8)
    module.xlogx_rows(tiny, np.full(8, 1 / 8), np.zeros(8))
    module.column_extrema(tiny, np.empty(0), np.empty(8), np.empty(8))
    module.row_sum_bits(tiny, np.zeros((8, 272), dtype=np.uint8))
    module.scaled_rows(tiny, np.zeros((8, 3), dtype=np.uint64), np.zeros(8, dtype=np.int64), np.zeros(8),
                       np.empty_like(tiny))
    out["load_cpu_s"], out["load_wall_s"] = time.process_time() - c, time.perf_counter() - w
    print(f"loading the compiled kernels (import numba, first dispatch from its cache): "
          f"{out['load_cpu_s']:.2f} s CPU, {out['load_wall_s']:.2f} s wall")
    print(f"{'case':<52} {'tool CPU (wall)':>28}  {'per entry':>9}  {'baseline':>12}  {'ratio':>7}")
    rng = np.random.default_rng(2026)
    c_logs, c_passes = c_log_floor()

    # 1. float eps_m
    out["eps_m"] = {}
    for n in ([2048] if quick else [4096, 8192]):
        p, q = channel(rng, n)
        mech = Mechanism("local", Prior.of(p, exact=False), Channel.of(q, exact=False),
                         LocalInputs(tuple(map(str, range(n)))), tuple(map(str, range(n))), exact=False)
        kernels("compiled")
        tool = timed(lambda: eps_m(mech))  # noqa: B023 - called at once
        floor = timed(lambda: q.sum())  # noqa: B023
        tight = timed(lambda: numpy_pass(p, q), 2)  # noqa: B023
        kernels("numpy")
        twin = timed(lambda: eps_m(mech), 2)  # noqa: B023
        kernels("compiled")
        same = abs(mutual_information_float(p, q) - numpy_pass(p, q))
        e = n * n
        row(f"float eps_m {n}^2 vs one np.sum read (floor)", tool, floor, e, f"floor {floor[0] / e * 1e9:.2f} ns")
        row(f"float eps_m {n}^2 vs a tight numpy pass", tool, tight, e, f"numpy {tight[0] / e * 1e9:.2f} ns")
        row(f"float eps_m {n}^2 vs its numpy twin", tool, twin, e, f"twin {twin[0] / e * 1e9:.2f} ns; |diff| {same:.1e}")
        out["eps_m"][n] = {"ns_per_entry": tool[0] / e * 1e9, "wall_ns_per_entry": tool[1] / e * 1e9,
                           "floor_ns": floor[0] / e * 1e9, "numpy_pass_ns": tight[0] / e * 1e9,
                           "twin_ns": twin[0] / e * 1e9}
        positive = np.where(q > 0, q, 1.0) if c_logs else q  # (1 ln 1 = 0, as the kernel reads a zero)
        for name, f in c_logs.items():  # the C library's log over the same array: sum q ln q, nothing else
            base = timed(lambda f=f, a=positive: f(a))
            row(f"float eps_m {n}^2 vs C's {name} log (sum q ln q only)", tool, base, e,
                f"C {name} {base[0] / e * 1e9:.2f} ns")
            out["eps_m"][n][f"c_{name}_log_ns"] = base[0] / e * 1e9
        if c_passes and n % 8 == 0:  # the kernel's pass by hand: its arithmetic's floor, and bounds below it
            rows_avx2, py = c_passes["avx2"], np.zeros(n)
            kernel_sum = module.xlogx_rows(q, p, np.zeros(n))
            same = abs(rows_avx2(q, p, py, 2) - kernel_sum)
            for part, what in ((2, "the same pass in AVX2 C"), (1, "that, its log's reduction only"),
                               (0, "that, no log at all")):
                base = timed(lambda part=part: rows_avx2(q, p, py, part))  # noqa: B023
                note = f"C {base[0] / e * 1e9:.2f} ns" + (f"; |diff| {same:.1e}" if part == 2 else "")
                row(f"float eps_m {n}^2 vs {what}", tool, base, e, note)
                out["eps_m"][n][f"c_avx2_part{part}_ns"] = base[0] / e * 1e9
            # a logarithm of another kind: a 4 MB table over every binade, no integer vector work (made on this call)
            rows_table = c_passes["table"]
            same = abs(rows_table(q, p, py) - kernel_sum)
            base = timed(lambda: rows_table(q, p, py))  # noqa: B023
            row(f"float eps_m {n}^2 vs that pass, a table's log", tool, base, e,
                f"C {base[0] / e * 1e9:.2f} ns; |diff| {same:.1e}")
            out["eps_m"][n]["c_table_ns"] = base[0] / e * 1e9
        del p, q, mech, positive

    # 2. float eps_d, local
    out["eps_d"] = {}
    for n in ([256, 1024, 2048] if quick else [256, 1024, 4096]):
        p, q = channel(rng, n, zeros=0.0)
        mech = Mechanism("local", Prior.of(p, exact=False), Channel.of(q, exact=False),
                         LocalInputs(tuple(map(str, range(n)))), tuple(map(str, range(n))), exact=False)
        repeat = max(3, int(2e7 / (n * n)))
        assert eps_d(mech).value == numpy_max_log_ratio(q)
        kernels("compiled")
        tool = timed(lambda: eps_d(mech), repeat)  # noqa: B023
        base = timed(lambda: numpy_max_log_ratio(q), repeat)  # noqa: B023
        kernels("numpy")
        twin = timed(lambda: eps_d(mech), repeat)  # noqa: B023
        e = n * n
        row(f"float eps_d {n}^2 vs numpy's max-log-ratio pass", tool, base, e, f"numpy {base[0] / e * 1e9:.2f} ns")
        row(f"float eps_d {n}^2, numpy twin vs the same pass", twin, base, e)
        out["eps_d"][n] = {"ratio": tool[0] / base[0], "twin_ratio": twin[0] / base[0], "ns_per_entry": tool[0] / e * 1e9}

    # 3. certified eps_d from floats vs the float path, each building its channel from the float array
    out["certified_eps_d"] = {}
    for n in ([2048] if quick else [2048, 4096]):
        p, q = channel(rng, n, zeros=0.0)
        inputs, outputs = LocalInputs(tuple(map(str, range(n)))), tuple(map(str, range(n)))
        priors = {ex: Prior.of(np.full(n, 1 / n), exact=ex) for ex in (False, True)}

        def path(exact: bool):
            mech = Mechanism("local", priors[exact], Channel.of(q, exact=exact), inputs,  # noqa: B023
                             outputs, exact=exact)  # noqa: B023
            return eps_d(mech)

        kernels("compiled")
        certified, floats = path(True), path(False)
        assert certified.witness == floats.witness and abs(certified.value - floats.value) < 1e-12 < certified.value
        tool, base = alternately(lambda: path(True), lambda: path(False))  # noqa: B023
        kernels("numpy")
        twin, base_twin = alternately(lambda: path(True), lambda: path(False), 1)  # noqa: B023
        e = n * n
        row(f"certified eps_d from floats {n}^2 vs the float path", tool, base, e,
            f"float path {base[0] / e * 1e9:.2f} ns")
        row(f"certified eps_d {n}^2, numpy twin vs its float path", twin, base_twin, e)
        out["certified_eps_d"][n] = {"ratio": tool[0] / base[0], "seconds": tool[0], "wall_seconds": tool[1],
                                     "float_seconds": base[0], "float_wall_seconds": base[1],
                                     "twin_ratio": twin[0] / base_twin[0], "twin_seconds": twin[0]}
    kernels("auto")
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:])
