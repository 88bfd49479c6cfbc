"""Benchmark of ``relations sweep`` against a plain loop of ``check`` (ratios, one process).

Run: ``python benchmarks/bench_sweep.py`` (``--quick`` for a small run).

For the bounded-exhaustive family of every 2 x 2 mechanism with denominators <= N and five relations,
it times, side by side in this process:

1. the baseline: a bare loop building each mechanism with ``Mechanism.local`` and calling
   ``check(mech, relations=...)`` (what any sweep must at least do), keeping nothing;
2. the tool in this process (``workers=0``): the same plus the rows, one Parquet file per chunk,
   the chunk manifest, the summary and the counterexample files;
3. the tool with 2 worker processes (``workers=2``);
4. resuming the finished folder (nothing left to compute: reading the chunks and summarising);
5. the same family up to relabelling (``"symmetry": "relabel"``: one member per orbit) with 2 workers,
   as a ratio to 3 (its counts are checked to equal the whole sweep's).

It prints the seconds, chunks per second and the ratios tool / baseline, and the same as one line of
JSON last; the 2-worker ratio below 1 is the speed-up the cores give (on a machine whose cores are busy
it is about 1).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time

from relations import Mechanism, check
from relations.app._sweep import run_sweep
from relations.catalogue import get
from relations.sweeps._spec import parse_spec

RELATIONS = ["zheng2025.thm4", "relations.thm4_corrected", "zheng2025.thm7", "zheng2025.thm11", "zheng2025.thm12"]


def main() -> None:
    quick = "--quick" in sys.argv
    spec = parse_spec({"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 3 if quick else 6},
                       "relations": RELATIONS})
    rels = [get(r) for r in RELATIONS]
    t = time.perf_counter()
    for i in range(spec.count):
        p = spec.point(i)
        check(Mechanism.local([r.split(",") for r in p["channel"].split(";")], prior=p["prior"].split(",")),
              relations=rels)
    base = time.perf_counter() - t
    print(f"{spec.count} mechanisms, {len(RELATIONS)} relations; baseline loop: {base:.2f} s")
    result = {"mechanisms": spec.count, "baseline_s": round(base, 3)}
    with tempfile.TemporaryDirectory() as d:
        for name, workers in (("workers=0", 0), ("workers=2", 2)):
            t = time.perf_counter()
            run = run_sweep(spec, out=f"{d}/{workers}", workers=workers)
            dt = time.perf_counter() - t
            print(f"{name}: {dt:.2f} s, {run.chunks / dt:.2f} chunks/s of {run.chunk_size} points, "
                  f"ratio {dt / base:.2f}")
            result[name] = {"seconds": round(dt, 3), "chunks_per_s": round(run.chunks / dt, 3),
                            "ratio": round(dt / base, 3)}
        t = time.perf_counter()
        again = run_sweep(spec, out=f"{d}/0", workers=0)
        dt = time.perf_counter() - t
        print(f"resume of the finished folder: {dt:.2f} s ({len(again.computed)} chunks computed), "
              f"ratio {dt / base:.2f}")
        result["resume"] = {"seconds": round(dt, 3), "computed": len(again.computed)}
        whole = run_sweep(spec, out=f"{d}/2", workers=2)  # finished above: read back for its counts
        relabel = parse_spec({"exhaustive": dict(spec.data["exhaustive"], symmetry="relabel"), "relations": RELATIONS})
        t = time.perf_counter()
        run = run_sweep(relabel, out=f"{d}/relabel", workers=2)
        dt = time.perf_counter() - t
        same = all(run.summary["relations"][r]["counts"] == whole.summary["relations"][r]["counts"] for r in RELATIONS)
        two = result["workers=2"]["seconds"]
        print(f"up to relabelling, 2 workers: {dt:.2f} s for {relabel.count} representatives of {relabel.members}, "
              f"ratio {dt / two:.2f} to the whole sweep with 2 workers; same counts: {same}")
        if not same:
            raise SystemExit("bench_sweep: the sweep up to relabelling counted differently")
        result["relabel"] = {"seconds": round(dt, 3), "representatives": relabel.count, "ratio": round(dt / two, 3)}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
