"""Benchmark of ``relations audit``'s black-box route against a plain sampling loop (ratios, one process).

Run: ``python benchmarks/bench_audit.py`` (``--quick`` for a small run; ``--full`` for the
issue's target: 1e6 samples per input over a domain of 64).

For k-ary randomized response written in Python (``rng.random()``, ``rng.integers``), it
times, side by side in this process:

1. the baseline: a bare loop calling the randomizer ``samples`` times per input and counting
   outputs in a ``collections.Counter`` (what any sampling auditor must at least do);
2. the tool in this process (``workers=0``): the same counts plus seeding per chunk,
   output keys and the Clopper-Pearson certificate;
3. the tool with 2 worker processes (``workers=2``).

It prints the seconds and the ratios tool / baseline; the 2-worker ratio below 1 is the
speed-up the cores give.  No claim is made, so no round stops early.
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


def main() -> None:
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
