"""Benchmark of ``relations audit``'s black-box route against a plain sampling loop (ratios, one process).

Run: ``python benchmarks/bench_audit.py`` (``--quick`` for a small run; ``--full`` for the
issue's target: 1e6 samples per input over a domain of 64); ``--white-box`` for the enumerating route
(below); ``--per-path`` for only its per-path rows, each the least CPU time of three runs.

For k-ary randomized response written in Python (``rng.random()``, ``rng.integers``), it
times, side by side in this process:

1. the baseline: a bare loop calling the randomizer ``samples`` times per input and counting
   outputs in a ``collections.Counter`` (what any sampling auditor must at least do);
2. the tool in this process (``workers=0``): the same counts plus seeding per chunk,
   output keys and the Clopper-Pearson certificate;
3. the tool with 2 worker processes (``workers=2``).

It prints the seconds and the ratios tool / baseline; the 2-worker ratio below 1 is the
speed-up the cores give.  No claim is made, so no round stops early.

With ``--white-box`` it times the enumerating route instead, CPU time beside wall time:

1. k-RR with k = 256 (65,536 paths): the enumeration per path against a bare call of the same randomizer
   on numpy's generator (the baseline), and ``relations audit`` as a whole process (``python -m
   relations.cli audit``, one worker);
2. 4-RR whose lie is drawn by rejection ("randrange until != x") to depth 1024: with the loop's repeated
   state solved as a Markov chain (the default), and without (``loops=False``: every path followed to 1024
   draws, each path replaying its prefix);
3. the Canonne-Kamath-Steinke discrete Laplace sampler (scale 1, ``x + Z`` clamped to ``0..3``, written from
   the paper's algorithms with ``Fraction`` and ``random.randrange``): the enumeration of its four inputs to
   depth 32 against 10,000 bare calls of the same function (``random`` not intercepted); the discrete Gaussian
   (``sigma^2 = 1``) clamped to ``0..3`` likewise, its input 3 to depth 40 (the loops' states recorded and
   solved as a chain: what the second level of its audit enumerates first);
4. the loop samplers of issue 42 as whole processes (``python -m relations.cli audit``, wall and CPU of the
   process and its workers, its verdict and route), each at a claim 5 % above and 5 % below its ``eps_d``
   (computed here from the closed form): the discrete Gaussian (``sigma^2 = 1``) clamped to ``0..3``,
   two-sided geometric noise (``rng.geometric(0.5) - rng.geometric(0.5)``) resampled until it lands in
   ``0..3``, report-noisy-max over four noisy counts (written as a comprehension with ``np.argmax``, as a loop
   appending with ``max(range(k), key=...)``, with a running maximum in the loop, and with
   ``rng.geometric(0.5, size=4)`` vectors: all four on the white-box route, factorised), and the unclamped discrete Laplace.  ``--loops`` runs only these, ``--rnm``
   only report-noisy-max.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections import Counter

import numpy as np

from relations.audit import audit_target

CODE = '''
import math
def krr(x, rng, k={k}, eps=1.0):
    e = math.exp(eps)
    if rng.random() < e / (e + k - 1):
        return x
    y = int(rng.integers(0, k - 1))
    return y if y < x else y + 1
'''


def baseline(fn, domain, samples: int) -> float:
    start = time.perf_counter()
    rng = np.random.default_rng(0)
    for x in domain:
        c: Counter = Counter()
        for _ in range(samples):
            c[fn(x, rng)] += 1
    return time.perf_counter() - start


REJECTION = '''
import math
def rejection(x, rng, k=4, eps=1.0):
    e = math.exp(eps)
    if rng.random() < e / (e + k - 1):
        return x
    while True:
        y = int(rng.integers(0, k))
        if y != x:
            return y
'''


def white_box() -> None:
    """The enumerating route: per path against a bare call, k = 256 whole process, a rejection loop deep."""
    import subprocess

    from relations.audit._exact import enumerate_channel

    rows = {}
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "krr_white.py")
        with open(path, "w") as fh:
            fh.write(CODE.format(k=256) + REJECTION)
        sys.path.insert(0, folder)
        import krr_white  # noqa: E402

        domain = list(range(256))
        rng = np.random.default_rng(0)
        calls = 65_536
        wall, cpu = time.perf_counter(), time.process_time()
        for i in range(calls):
            krr_white.krr(i & 255, rng)
        bare = (time.perf_counter() - wall) / calls, (time.process_time() - cpu) / calls
        wall, cpu = time.perf_counter(), time.process_time()
        e = enumerate_channel(krr_white.krr, domain)
        per_path = (time.perf_counter() - wall) / e.runs, (time.process_time() - cpu) / e.runs
        rows["bare call (us, wall/cpu)"] = [round(v * 1e6, 2) for v in bare]
        rows["white-box per path (us, wall/cpu)"] = [round(v * 1e6, 2) for v in per_path]
        rows["per path / bare call (cpu)"] = round(per_path[1] / bare[1], 2)
        wall = time.perf_counter()
        before = os.times()
        out = subprocess.run([sys.executable, "-m", "relations.cli", "audit", f"{path}:krr", "--domain",
                              ",".join(map(str, domain)), "--eps", "1", "--workers", "1"], capture_output=True,
                             text=True, check=False)
        after = os.times()
        rows["k=256 whole process (s, wall/cpu)"] = [round(time.perf_counter() - wall, 2),
                                                    round(after.children_user + after.children_system
                                                          - before.children_user - before.children_system, 2)]
        rows["k=256 verdict"] = out.stdout.split(":")[0]
        for loops in (True, False):
            wall, cpu = time.perf_counter(), time.process_time()
            e = enumerate_channel(krr_white.rejection, [0, 1, 2, 3], max_depth=1024, allow_unexplored=True,
                                  loops=loops)
            rows[f"rejection 4-RR depth 1024, loops={loops} (s, wall/cpu)"] = [
                round(time.perf_counter() - wall, 2), round(time.process_time() - cpu, 2)]
            rows[f"rejection 4-RR depth 1024, loops={loops}: paths, exact"] = [e.runs, e.complete]
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
        sys.dont_write_bytecode = True  # nothing written next to the examples
        import cks_samplers  # noqa: E402 - the samplers of examples/cks_samplers.py

        wall, cpu = time.perf_counter(), time.process_time()
        for i in range(10_000):
            cks_samplers.clamped_laplace(i & 3)
        bare = (time.perf_counter() - wall) / 10_000, (time.process_time() - cpu) / 10_000
        wall, cpu = time.perf_counter(), time.process_time()
        e = enumerate_channel(cks_samplers.clamped_laplace, [0, 1, 2, 3], pass_rng=False, max_depth=32, allow_unexplored=True)
        spent = time.perf_counter() - wall, time.process_time() - cpu
        rows["CKS discrete Laplace 0..3, depth 32 (s, wall/cpu)"] = [round(v, 2) for v in spent]
        rows["CKS: paths, unexplored per input"] = [e.runs, f"{float(max(e.unexplored)):.2g}"]
        rows["CKS: bare call (us, wall/cpu)"] = [round(v * 1e6, 2) for v in bare]
        rows["CKS: per path / bare call (cpu)"] = round(spent[1] / e.runs / bare[1], 2)
        wall, cpu = time.perf_counter(), time.process_time()
        for i in range(10_000):
            cks_samplers.clamped_gaussian(i & 3)
        bare = (time.perf_counter() - wall) / 10_000, (time.process_time() - cpu) / 10_000
        wall, cpu = time.perf_counter(), time.process_time()
        e = enumerate_channel(cks_samplers.clamped_gaussian, [3], pass_rng=False, max_depth=40, allow_unexplored=True)
        spent = time.perf_counter() - wall, time.process_time() - cpu
        rows["CKS discrete Gaussian 0..3, input 3, depth 40 (s, wall/cpu)"] = [round(v, 2) for v in spent]
        rows["CKS Gaussian: paths, unexplored"] = [e.runs, f"{float(max(e.unexplored)):.2g}"]
        rows["CKS Gaussian: bare call (us, wall/cpu)"] = [round(v * 1e6, 2) for v in bare]
        rows["CKS Gaussian: per path / bare call (cpu)"] = round(spent[1] / e.runs / bare[1], 2)
    for name, value in rows.items():
        print(f"  {name:58s} {value}")
    print(json.dumps(rows))


LOOPS = '''
import random, sys
sys.path.insert(0, {examples!r})
sys.dont_write_bytecode = True
import numpy as np
from cks_samplers import discrete_gaussian, discrete_laplace

def gauss(x):
    return max(0, min(3, x + discrete_gaussian(1, random)))

def resample(x, rng):
    while True:
        y = x + rng.geometric(0.5) - rng.geometric(0.5)
        if 0 <= y <= 3:
            return y

def rnm(x, rng):
    counts = [c + (i == x) for i, c in enumerate((3, 2, 2, 1))]
    noisy = [c + rng.geometric(0.5) - rng.geometric(0.5) for c in counts]
    return int(np.argmax(noisy))

def rnm_loop(x, rng, p=0.5):
    counts = [c + (i == x) for i, c in enumerate((3, 2, 2, 1))]
    noisy = []
    for c in counts:
        noisy.append(c + rng.geometric(p) - rng.geometric(p))
    return max(range(len(noisy)), key=noisy.__getitem__)

def rnm_running(x, rng):
    counts = [c + (i == x) for i, c in enumerate((3, 2, 2, 1))]
    best, arg = None, None
    for i, c in enumerate(counts):
        v = c + rng.geometric(0.5) - rng.geometric(0.5)
        if best is None or v > best:
            best, arg = v, i
    return arg

def rnm_vectors(x, rng):
    counts = np.array([3, 2, 2, 1]) + (np.arange(4) == x)
    return int(np.argmax(counts + rng.geometric(0.5, size=4) - rng.geometric(0.5, size=4)))

def laplace(x):
    return x + discrete_laplace(1, 1, random)
'''


def _loop_eps() -> dict[str, float]:
    """eps_d of each loop sampler from its closed form (not from the tool)."""
    import math
    from fractions import Fraction

    w = {z: math.exp(-z * z / 2) for z in range(-60, 61)}
    norm = sum(w.values())

    def gauss(x: int, y: int) -> float:
        return sum(p for z, p in w.items() if max(0, min(3, x + z)) == y) / norm

    half = Fraction(1, 2)
    rows = [[half ** abs(y - x) / sum(half ** abs(z - x) for z in range(4)) for y in range(4)] for x in range(4)]
    noise = {z: Fraction(1, 3) * half ** abs(z) for z in range(-40, 41)}  # difference of two geometric(1/2)

    def rnm_row(x: int) -> list[Fraction]:
        counts = [c + (i == x) for i, c in enumerate((3, 2, 2, 1))]
        dists = [{c + z: p for z, p in noise.items()} for c in counts]
        out = []
        for j in range(4):
            total = Fraction(0)
            for v, p in dists[j].items():
                for i in range(4):  # np.argmax: the first of the largest
                    if i != j:
                        p *= sum(q for u, q in dists[i].items() if (u < v if i < j else u <= v))
                total += p
            out.append(total)
        return out
    r = [rnm_row(x) for x in range(4)]
    rnm = math.log(max(a / b for u in r for v in r for a, b in zip(u, v)))
    return {"gauss": max(math.log(gauss(x, y) / gauss(x2, y)) for x in range(4) for x2 in range(4) for y in range(4)),
            "resample": math.log(max(a / b for u in rows for v in rows for a, b in zip(u, v))),
            "rnm": rnm, "rnm_loop": rnm, "rnm_running": rnm, "rnm_vectors": rnm, "laplace": 3.0}


def loops(only: tuple[str, ...] = ()) -> None:
    """Whole-process audits of the loop samplers of issue 42, 5 % above and below their eps_d (``only``: these)."""
    import subprocess

    examples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples")
    eps = _loop_eps()
    rows = {}
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "loops.py")
        with open(path, "w") as fh:
            fh.write(LOOPS.format(examples=os.path.abspath(examples)))
        for name, outputs in (("gauss", True), ("resample", True), ("rnm", False), ("rnm_loop", False),
                              ("rnm_running", False), ("rnm_vectors", False), ("laplace", False)):
            if only and name not in only:
                continue
            for factor in (1.05, 0.95):
                args = [sys.executable, "-m", "relations.cli", "audit", f"{path}:{name}", "--domain", "0,1,2,3",
                        "--eps", repr(factor * eps[name]), "--json"] + (["--outputs", "0,1,2,3"] if outputs else [])
                wall, before = time.perf_counter(), os.times()
                out = subprocess.run(args, capture_output=True, text=True, check=False)
                after = os.times()
                spent = [round(time.perf_counter() - wall, 1), round(after.children_user + after.children_system
                                                                    - before.children_user - before.children_system, 1)]
                try:
                    report = json.loads(out.stdout)
                    answer = f"{report['verdict']} ({report['route']})"
                except (ValueError, KeyError):
                    answer = (out.stderr.strip().splitlines() or ["?"])[-1]
                rows[f"{name} eps_d={eps[name]:.4g} claim x{factor} (s, wall/cpu)"] = [*spent, answer]
    for name, value in rows.items():
        print(f"  {name:58s} {value}")
    print(json.dumps(rows))


def per_path(runs: int = 3) -> None:
    """``--per-path``: only the per-path rows of ``--white-box`` (k-RR k = 256, the CKS discrete Laplace to depth
    32, the discrete Gaussian's input 3 to depth 40), CPU times, each the minimum of ``runs`` runs, so that two trees
    can be compared side by side on a loaded machine (run it alternately with ``PYTHONPATH`` set to each)."""
    from relations.audit._exact import enumerate_channel

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
    sys.dont_write_bytecode = True
    import cks_samplers  # noqa: E402

    rows = {}
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "krr_paths.py"), "w") as fh:
            fh.write(CODE.format(k=256))
        sys.path.insert(0, folder)
        import krr_paths  # noqa: E402

        cases = [("k-RR k=256", krr_paths.krr, list(range(256)), {}, 65_536, True),
                 ("CKS discrete Laplace 0..3, depth 32", cks_samplers.clamped_laplace, [0, 1, 2, 3],
                  dict(pass_rng=False, max_depth=32, allow_unexplored=True), 10_000, False),
                 ("CKS discrete Gaussian 0..3, input 3, depth 40", cks_samplers.clamped_gaussian, [3],
                  dict(pass_rng=False, max_depth=40, allow_unexplored=True), 10_000, False)]
        for name, fn, domain, options, calls, rng in cases:
            bare = float("inf")
            for _ in range(runs):
                generator = np.random.default_rng(0)
                cpu = time.process_time()
                for i in range(calls):
                    fn(domain[i % len(domain)], generator) if rng else fn(domain[i % len(domain)])
                bare = min(bare, (time.process_time() - cpu) / calls)
            path = float("inf")
            for _ in range(runs):
                cpu = time.process_time()
                e = enumerate_channel(fn, domain, **options)
                path = min(path, (time.process_time() - cpu) / e.runs)
            rows[name] = {"bare call (us cpu)": round(bare * 1e6, 2), "per path (us cpu)": round(path * 1e6, 2),
                          "per path / bare call": round(path / bare, 2)}
    for name, value in rows.items():
        print(f"  {name:48s} {value}")
    print(json.dumps(rows))


def main() -> None:
    if "--per-path" in sys.argv:
        per_path()
        return
    if "--loops" in sys.argv:
        loops()
        return
    if "--rnm" in sys.argv:
        loops(("rnm", "rnm_loop", "rnm_running", "rnm_vectors"))
        return
    if "--white-box" in sys.argv:
        white_box()
        loops()
        return
    quick, full = "--quick" in sys.argv, "--full" in sys.argv
    k, samples = (64, 1_000_000) if full else ((8, 20_000) if quick else (16, 200_000))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "krr_bench.py")
        with open(path, "w") as fh:
            fh.write(CODE.format(k=k))
        sys.path.insert(0, folder)
        import krr_bench  # noqa: E402

        domain = list(range(k))
        base = baseline(krr_bench.krr, domain, samples)
        rows = [("baseline loop (1 process)", base)]
        for workers in (0, 2):
            start = time.perf_counter()
            report = audit_target(f"{path}:krr", domain=domain, samples=samples, seed=1, workers=workers,
                                  white_box=False)
            rows.append((f"relations audit, workers={workers}", time.perf_counter() - start))
            assert report.sampled.samples == samples
    print(f"black-box audit of k-RR, k = {k}, {samples} samples per input ({k * samples:.3g} calls)")
    for name, seconds in rows:
        print(f"  {name:32s} {seconds:8.2f} s   ratio {seconds / base:5.2f}")
    print(json.dumps({"k": k, "samples": samples, "seconds": {name: round(sec, 3) for name, sec in rows},
                      "ratios": {name: round(sec / base, 3) for name, sec in rows}}))


if __name__ == "__main__":
    main()
