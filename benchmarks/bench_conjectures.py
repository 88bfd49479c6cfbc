"""Benchmark of ``relations conjecture``: verdict, seconds and witness size over a fixed list.

Run: ``python benchmarks/bench_conjectures.py [--quick-only] [--baseline DIR | --reuse-baseline JSON] [--timeout S]
[--table FILE]``.

Each conjecture of :data:`CONJECTURES` (true and false ones, local and central) is decided by
``python -m relations conjecture STATEMENT --setting S --json`` in a fresh process, with ``--quick`` and
at full effort, as a user runs it; the wall-clock seconds include the start-up.  The table records
per conjecture and effort the verdict, the seconds and, for ``refuted``, the witness's size
(``inputs x outputs``, largest denominator of its entries).  ``expected`` is what mathematics says
(``true``: a theorem, with the reason; ``false``: a counterexample is known), so a wrong verdict shows.

``--baseline DIR`` runs the same commands with ``PYTHONPATH=DIR`` (a checkout of an older commit, e.g.
``git worktree add /tmp/base 2095870``) side by side, each stopped after ``--timeout`` seconds (reported
as ``> S s``); ``--reuse-baseline`` takes those cells from an earlier run's output instead.  The targets of the issue: every conjecture answered within 60 s at full effort and
within 15 s with ``--quick`` on 2 cores.  ``--table FILE`` writes the dated Markdown table (with the
machine's load average at the start and the end: the machine may be shared).  The last line printed is
the whole result as JSON.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: (statement, setting, expected, why).
CONJECTURES = (
    ("rho <= kl", "local", "false", "rho >= kl, strictly for asymmetric pairs"),
    ("kl <= rho", "local", "true", "kl = lim_{a->1} D_a / a <= rho"),
    ("rho <= eps_d^2/2", "local", "true", "Bun-Steinke 2016, Prop. 1.4"),
    ("eps_m <= eps_d", "local", "true", "Cuff-Yu 2016"),
    ("eps_d <= eps_m", "local", "false", "identity channel, point prior: eps_d = inf, eps_m = 0"),
    ("eps_i <= eps_d - sigma_min", "local", "true", "eps_i <= eps_d + ln(max p / min p), the catalogue"),
    ("renyi(2) <= 2*rho", "local", "true", "D_2 / 2 <= sup_a D_a / a"),
    ("kl <= eps_d", "local", "true", "D(P||Q) <= D_inf(P||Q)"),
    ("tv <= eps_d", "local", "true", "tv <= tanh(eps_d / 2) <= eps_d"),
    ("delta(1) <= tv", "local", "true", "delta(e) decreases in e, delta(0) = tv"),
    ("eps_m <= eps_d*tanh(eps_d/2)", "local", "true", "eps_m <= kl locally, kl <= eps_d tanh(eps_d/2) (Coq)"),
    ("chi2 <= kl", "local", "false", "chi2 >= e^kl - 1 > kl when kl > 0"),
    ("eps_m <= eps_d / 2", "local", "false", "k-RR with k > 32"),
    ("rho <= kl", "central", "false", "as locally, on one edge"),
    ("kl <= eps_d", "central", "true", "as locally, pair by pair"),
    ("eps_d <= 2 * eps_m", "central", "false", "a point prior: eps_m = 0 < eps_d"),
    ("eps_m <= eps_d", "central", "false", "eps_d is over neighbours only: an input alone, or 6 records of RR(9)"),
    ("eps_i <= eps_d - sigma_min", "central", "true", "as locally, neighbour pair by pair"),
    ("hellinger <= kl", "local", "true", "hellinger <= 1 - e^(-kl/2) <= kl/2"),
    ("sibson(2) <= eps_m", "local", "false", "Sibson's information increases in its order"),
    ("pml <= eps_d", "local", "true", "p(y) >= min_x Q[x][y] (Saeidian et al. 2023)"),
    ("gdp_mu <= eps_d", "local", "false", "binary RR: gdp_mu = 2 Phi^-1(e^eps/(1+e^eps)) > eps for small eps"),
    ("bayes_leakage <= tv", "central", "false", "an input alone carries prior the output reveals"),
    ("tv <= 1 - exp(-eps_d)", "local", "true", "tv <= tanh(eps_d/2) <= 1 - e^-eps_d"),
    ("gdp_mu <= 2*eps_d", "local", "true", "gdp_mu <= 2 Phi^-1(e^eps_d/(1+e^eps_d)) and Phi(x) >= e^x/(1+e^x)"),
)


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - no load average on this platform
        return "n/a"


def run_one(statement: str, setting: str, quick: bool, path: Path, timeout: float) -> dict:
    """One ``relations conjecture`` run in a fresh process: verdict, seconds, witness size."""
    cmd = [sys.executable, "-m", "relations", "conjecture", statement, "--setting", setting, "--json"]
    if quick:
        cmd.append("--quick")
    env = dict(os.environ, PYTHONPATH=str(path))
    start, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout, cwd=path)
    except subprocess.TimeoutExpired:
        return {"verdict": None, "seconds": None, "timeout": timeout, "size": None}
    seconds, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)  # the process and its children
    try:
        out = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"verdict": f"error (exit {done.returncode})", "seconds": seconds, "size": None,
                "stderr": done.stderr[-500:]}
    size = out.get("witness_size")
    if size is None and out.get("witness") is not None:  # an older version: measure the witness here
        size = _size_of(out["witness"])
    return {"verdict": out["verdict"], "seconds": seconds, "cpu": cpu, "size": size}


def _size_of(witness: dict) -> list[int] | None:
    """``[inputs, outputs, largest denominator]`` of a witness in the mechanism file format."""
    from fractions import Fraction

    channel = witness.get("channel")
    records = 1
    if isinstance(channel, dict):
        records = int(witness.get("records", 1)) if "product" in channel else 1
        channel = channel.get("product") or channel.get("rows")
    if not isinstance(channel, list):
        return None
    entries = [Fraction(str(v)) for row in channel for v in row]
    prior = witness.get("prior")
    if isinstance(prior, list):
        entries += [Fraction(str(v)) for v in (prior[0] if prior and isinstance(prior[0], list) else prior)]
    return [len(channel) ** records, len(channel[0]) ** records, max(v.denominator for v in entries)]


def _cell(r: dict | None) -> str:
    if r is None:
        return "-"
    if r["verdict"] is None:
        return f"> {r['timeout']:.0f} s"
    size = r.get("size")
    witness = f", {size[0]}x{size[1]} den {size[2]}" if size else ""
    return f"{r['verdict']}, {r['seconds']:.1f} s{witness}"


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick-only", action="store_true", help="only the --quick runs")
    ap.add_argument("--baseline", type=Path, help="a checkout of the baseline commit, run side by side")
    ap.add_argument("--baseline-full", action="store_true", help="also run the baseline at full effort")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds before a run is stopped")
    ap.add_argument("--table", type=Path, help="write the dated Markdown table here")
    ap.add_argument("--only", action="append", help="only these statements (repeatable)")
    ap.add_argument("--every", type=int, default=1, help="only every K-th conjecture of the list (run_all.py: 5)")
    ap.add_argument("--reuse-baseline", type=Path, help="take the baseline's cells from an earlier run's JSON line")
    args = ap.parse_args(argv)
    reused = {}
    if args.reuse_baseline:
        old = json.loads(args.reuse_baseline.read_text(encoding="utf-8").strip().splitlines()[-1])
        reused = {(r["statement"], r["setting"]): r for r in old["rows"]}
    efforts = [True] if args.quick_only else [True, False]
    load_before = _load()
    rows = []
    for statement, setting, expected, why in CONJECTURES[::args.every]:
        if args.only and statement not in args.only:
            continue
        row: dict = {"statement": statement, "setting": setting, "expected": expected, "why": why}
        for quick in efforts:
            key = "quick" if quick else "full"
            row[key] = run_one(statement, setting, quick, ROOT, args.timeout)
            if args.baseline and (quick or args.baseline_full):
                row[f"baseline_{key}"] = run_one(statement, setting, quick, args.baseline.resolve(), args.timeout)
            elif (statement, setting) in reused and f"baseline_{key}" in reused[(statement, setting)]:
                row[f"baseline_{key}"] = reused[(statement, setting)][f"baseline_{key}"]
            print(f"{setting:7s} {statement:32s} {key:5s} {_cell(row[key])}"
                  + (f" | baseline {_cell(row.get(f'baseline_{key}'))}" if f"baseline_{key}" in row else ""),
                  file=sys.stderr, flush=True)
        rows.append(row)
    result = {"date": datetime.date.today().isoformat(), "load_before": load_before, "load_after": _load(),
              "cpus": os.cpu_count(), "rows": rows}
    if args.table:
        args.table.write_text(table(result, baseline=bool(args.baseline or reused)), encoding="utf-8")
    print(json.dumps(result))
    return result


def _wrong(row: dict, key: str) -> bool:
    r = row.get(key)
    if not r or r["verdict"] is None:
        return False
    return (row["expected"] == "true" and r["verdict"] == "refuted") or \
        (row["expected"] == "false" and r["verdict"] != "refuted")


def table(result: dict, *, baseline: bool) -> str:
    """The dated Markdown table of a run."""
    cols = ["quick", "full"] + ([c for c in ("baseline_quick", "baseline_full")
                                 if any(c in r for r in result["rows"])] if baseline else [])
    names = {"quick": "--quick", "full": "full", "baseline_quick": "baseline --quick", "baseline_full": "baseline full"}
    lines = [f"# `relations conjecture`: verdicts, seconds, witness sizes ({result['date']})", "",
             "Measured by `python benchmarks/bench_conjectures.py` (each run a fresh process, wall-clock seconds "
             f"including start-up) on {result['cpus']} cores, load average (1, 5, 15 min) "
             f"{result['load_before']} at the start and {result['load_after']} at the end: the machine was shared, "
             "so the seconds are upper bounds of an idle machine's. Targets: 60 s at full effort, 15 s with "
             "`--quick`. A witness is `inputs x outputs` and the largest denominator of its entries. "
             "`expected`: `true` a theorem, `false` a known counterexample; a verdict that contradicts it is "
             "marked **wrong**.", "",
             "| setting | conjecture | expected | " + " | ".join(names[c] for c in cols) + " |",
             "|---|---|---|" + "---|" * len(cols)]
    for row in result["rows"]:
        cells = [(_cell(row.get(c)) + (" **wrong**" if _wrong(row, c) else "")) for c in cols]
        lines.append(f"| {row['setting']} | `{row['statement']}` | {row['expected']} ({row['why']}) | "
                     + " | ".join(cells) + " |")
    worst = {}
    for c in cols:
        runs = [r[c] for r in result["rows"] if r.get(c)]
        stopped = [x["timeout"] for x in runs if x["verdict"] is None]
        if stopped:
            worst[c] = f"> {max(stopped):.0f} s ({len(stopped)} stopped)"
        elif runs:
            worst[c] = f"{max(x['seconds'] for x in runs):.1f} s"
    lines += ["", "Slowest: " + ", ".join(f"{names[c]} {v}" for c, v in worst.items()) + ".", ""]
    if result.get("note"):
        lines += [result["note"], ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
