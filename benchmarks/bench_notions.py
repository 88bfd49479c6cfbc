"""Benchmark of ``relations measure --notion all`` with correctly rounded floats, against a baseline tree.

Run: ``python benchmarks/bench_notions.py --baseline PATH`` (``PATH``: a checkout of the code to compare
with, e.g. a ``git worktree`` of the commit before; without it only this tree is timed).

For each mechanism it times :func:`relations.io._reports.notions_json` with ``["all"]`` (what
``relations measure --notion all --json`` computes: every notion's value, its float and enclosure),
best of ``--repeat`` runs in a fresh process per tree (two versions of one package cannot share a
process); the trees are run one after the other, and the ratio this / baseline is printed.  Then, in this
tree only, the time to decide claims ``rho <= r`` at ``2^-90`` relative margins on near-identical rows
(undecided before).

Mechanisms: near-identical 3 x 3 rows (a thousandth apart), rows with an interior zCDP maximum,
random 5 x 6 and 8 x 8 rational channels (fixed seed, small denominators), binary randomized response
on ``D^3`` and 3-ary randomized response on ``D^2`` (central).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

WORKER = r"""
import json, random, sys, time
from fractions import Fraction as F
from relations import Mechanism
from relations.io._reports import notions_json

def rnd_rows(n, m, seed):
    r = random.Random(seed)
    rows = []
    for _ in range(n):
        w = [r.randint(1, 9) for _ in range(m)]
        rows.append([F(x, sum(w)) for x in w])
    return rows

MECHS = {
    "near 3x3": Mechanism.local([[F(334, 1000), F(333, 1000), F(333, 1000)],
                                 [F(333, 1000), F(334, 1000), F(333, 1000)],
                                 [F(333, 1000), F(333, 1000), F(334, 1000)]]),
    "interior 2x2": Mechanism.local([[F(1, 2), F(1, 2)], [F(99, 100), F(1, 100)]]),
    "random 5x6": Mechanism.local(rnd_rows(5, 6, 1)),
    "random 8x8": Mechanism.local(rnd_rows(8, 8, 2)),
    "rr D^3": Mechanism.central([[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]] * 4, records=3),
    "krr3 D^2": Mechanism.central([[F(1, 2), F(1, 4), F(1, 4)], [F(1, 4), F(1, 2), F(1, 4)],
                                   [F(1, 4), F(1, 4), F(1, 2)]] * 3, records=2),
}
repeat = int(sys.argv[1])
out, cpu = {}, {}
for name, mech in MECHS.items():
    best = best_cpu = None
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        rows = notions_json(mech, ["all"])
        json.dumps(rows)
        dt, dc = time.perf_counter() - t, time.process_time() - c
        best = dt if best is None else min(best, dt)
        best_cpu = dc if best_cpu is None else min(best_cpu, dc)
    out[name], cpu[name] = best, best_cpu
print(json.dumps(out))
print(json.dumps({"cpu": cpu}))
"""


def timed(tree: str, repeat: int) -> tuple[dict[str, float], dict[str, float]]:
    """The least wall-clock and CPU seconds of each mechanism's ``--notion all`` in ``tree``, in a fresh process."""
    env = dict(os.environ, PYTHONPATH=tree)
    done = subprocess.run([sys.executable, "-c", WORKER, str(repeat)], env=env, capture_output=True, text=True,
                          check=True, cwd=tree)
    lines = done.stdout.strip().splitlines()
    return json.loads(lines[-2]), json.loads(lines[-1])["cpu"]


def claims_near_identical() -> tuple[float, list]:
    """Decide ``rho <= r`` for ``r`` at ``+-2^-90`` relative of rho, on near-identical rows (this tree)."""
    from fractions import Fraction as F

    from relations import Mechanism, check
    from relations.measures._notions import notion_result

    mech = Mechanism.local([[F(501, 1000), F(499, 1000)], [F(1, 2), F(1, 2)]])
    lo, _ = notion_result(mech, "rho").value.enclose(200)
    claims = []
    for sign in (1, -1):
        b = lo + sign * lo / 2**90
        b = F(round(b * 2**160), 2**160)
        claims.append(f"rho <= {b.numerator}/{b.denominator}")
    t, c = time.perf_counter(), time.process_time()
    report = check(mech, claims, relations=[])
    CLAIMS_CPU[0] = time.process_time() - c
    return time.perf_counter() - t, [c.holds for c in report.claims]


#: The CPU seconds of :func:`claims_near_identical`.
CLAIMS_CPU = [0.0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", help="a checkout of the code to compare with")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    mine, mine_cpu = timed(here, args.repeat)
    base, base_cpu = timed(args.baseline, args.repeat) if args.baseline else (None, None)
    print(f"{'mechanism':<14} {'this (s)':>10} {'baseline (s)':>13} {'ratio':>7}")
    for name, t in mine.items():
        if base is None:
            print(f"{name:<14} {t:>10.4f}")
        else:
            print(f"{name:<14} {t:>10.4f} {base[name]:>13.4f} {t / base[name]:>7.2f}")
    seconds, verdicts = claims_near_identical()
    print(f"claims rho <= rho(1 +- 2^-90) on near-identical rows: {verdicts} in {seconds:.3f} s")
    print(json.dumps({"notions_all_s": mine, "notions_all_cpu_s": mine_cpu, "baseline_s": base,
                      "baseline_cpu_s": base_cpu, "claims_s": seconds, "claims_cpu_s": CLAIMS_CPU[0],
                      "claims": verdicts}))


if __name__ == "__main__":
    main()
