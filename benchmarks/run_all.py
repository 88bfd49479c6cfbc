"""Every benchmark script in one run, each comparison next to its baseline measured in the same run, CPU beside wall.

Run: ``python benchmarks/run_all.py`` (every script's quick form, a few minutes on two cores) or
``python benchmarks/run_all.py --full`` (the issue's sizes, about half an hour); ``--markdown FILE`` also writes
the table, dated and with the machine's load, for ``docs/benchmarks.md``; ``--only NAME[,NAME]`` runs some.

Each script runs in its own process, one after the other (none competes with another for the cores), and
prints a JSON line last.  A comparison a script made is a row: the work, the tool's CPU and wall-clock
seconds, the baseline's (timed by the same script in the same run, interleaved or back to back), and the
ratio of the tool's time to the baseline's -- of CPU time where both are known (a loaded machine inflates it
least), else of wall time (marked).  A row may have a target instead of, or beside, a baseline (``met``:
whether it holds; with the quick sizes a target is stated for the full size and often not comparable).
Scripts that put ``"compared"`` in their JSON (:mod:`_clock`) give them directly; for the others this script
reads their figures (:data:`ADAPTERS`).  Then one row per script: its own wall and CPU seconds (its process
and every child).  Rows print in a fixed order with fixed formats; the last line is everything as JSON.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import platform
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from _clock import row

HERE = Path(__file__).resolve().parent

#: The scripts, in the order they run: name, script, arguments of the quick form, of the full form.
SCRIPTS: list[tuple[str, str, list[str], list[str]]] = [
    ("startup", "bench_startup.py", ["--quick"], []),
    ("measure", "bench_measure.py", ["--quick"], []),
    ("kernels", "bench_kernels.py", ["--quick"], []),
    ("optimal", "bench_optimal.py", ["--quick"], ["--full"]),
    ("anchors", "bench_anchors.py", ["--quick"], []),
    ("composition", "bench_composition.py", ["--quick"], []),
    ("audit", "bench_audit.py", ["--quick"], []),
    ("sweep", "bench_sweep.py", ["--quick"], []),
    ("prover", "bench_prover.py", ["--quick"], []),
    ("notions", "bench_notions.py", ["--repeat", "1"], []),
    ("conjectures", "bench_conjectures.py", ["--quick-only", "--every", "5"], []),
    ("verify", "bench_verify.py", ["--quick", "--end-to-end-only", "--no-coq"], ["--end-to-end"]),
]


def _children_cpu() -> float:
    """CPU seconds (user + system) of the finished children of this process."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def run_script(script: str, args: list[str]) -> tuple[dict, float, float]:
    """Run ``script ARGS``; its JSON line, wall-clock seconds and CPU seconds (with its children)."""
    start, cpu = time.perf_counter(), _children_cpu()
    print(f"running {script} {' '.join(args)} ...", file=sys.stderr, flush=True)
    done = subprocess.run([sys.executable, str(HERE / script), *args], capture_output=True, text=True, cwd=HERE.parent)
    wall, used = time.perf_counter() - start, _children_cpu() - cpu
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode != 0 or not lines:
        print(done.stdout[-2000:], done.stderr[-2000:], file=sys.stderr)
        return {"failed": f"exit status {done.returncode}"}, wall, used
    print(f"  {wall:.0f} s wall, {used:.0f} s CPU", file=sys.stderr, flush=True)
    return json.loads(lines[-1]), wall, used


# ---------------------------------------------------------------- rows of the scripts without their own


def _kernels(k: dict) -> list[dict]:
    if k.get("compiled") is False:
        return [row("float kernels: the compiled kernels are not available", (math.nan, None))]
    ns = 1e-9  # the script gives nanoseconds per entry; the rows are in seconds per entry
    out = [row("loading the compiled kernels, once per process", (k["load_wall_s"], k["load_cpu_s"]))]
    for n, e in k["eps_m"].items():
        out.append(row(f"float eps_m {n}^2, per entry", (e["wall_ns_per_entry"] * ns, e["ns_per_entry"] * ns),
                       (math.nan, e["floor_ns"] * ns), "one np.sum read of the array", "<= 1.5 ns CPU",
                       e["ns_per_entry"] <= 1.5, per_entry=True))
        if "c_vector_log_ns" in e:  # the C library's vectorised log over the same array (a C compiler was there)
            out.append(row(f"float eps_m {n}^2 beside C's vector log, per entry",
                           (e["wall_ns_per_entry"] * ns, e["ns_per_entry"] * ns), (math.nan, e["c_vector_log_ns"] * ns),
                           "glibc's libmvec log: sum q ln q alone", per_entry=True))
        # the floor of the kernel's arithmetic, below it, and a logarithm of another kind (where the C passes ran)
        for key, what in (("c_avx2_part2_ns", "its pass hand-vectorised in C (AVX2)"),
                          ("c_avx2_part1_ns", "that pass, its log's reduction only"),
                          ("c_avx2_part0_ns", "that pass, no log at all"),
                          ("c_table_ns", "that pass with a table's log")):
            if key in e:
                out.append(row(f"float eps_m {n}^2 beside {what}, per entry",
                               (e["wall_ns_per_entry"] * ns, e["ns_per_entry"] * ns), (math.nan, e[key] * ns),
                               "benchmarks/log_floor.c, one thread", per_entry=True))
    for n, e in k["eps_d"].items():
        out.append(row(f"float eps_d {n}^2, per entry", (math.nan, e["ns_per_entry"] * ns),
                       (math.nan, e["ns_per_entry"] / e["ratio"] * ns), "numpy's max-log-ratio pass", "<= 1.5x",
                       e["ratio"] <= 1.5, per_entry=True))
    for n, c in k["certified_eps_d"].items():
        out.append(row(f"certified eps_d from floats {n}^2, building included",
                       (c["wall_seconds"], c["seconds"]), (c["float_wall_seconds"], c["float_seconds"]),
                       "the float path", "<= 2x", c["ratio"] <= 2))
    return out


def _composition(c: dict) -> list[dict]:
    out = []
    for r in c.get("randomized_response", []):
        out.append(row(f"exact delta(eps) of {r['uses']}-fold 4-RR at eps = {r['eps']}", (r["exact_s"], r["exact_cpu_s"]),
                       (r["pessimistic_s"], r["pessimistic_cpu_s"]), "dp_accounting PLD (pessimistic)"))
    for r in c.get("random_8x8", []):
        out.append(row(f"random 8 x 8 composed {r['uses']} times, delta({r['eps']}) enclosed to "
                       f"{r['relative_width']:.1e} relative ({r['route']})", (r["wall_s"], r["cpu_s"]),
                       (r["pessimistic_s"], r["pessimistic_cpu_s"]), "dp_accounting PLD (pessimistic)"))
    m = c.get("eps_m_30")
    if m:
        out.append(row("eps_m of 30 reports of 4-RR, exactly enclosed through the count vectors",
                       (m["wall_s"], m["cpu_s"]), target="< 2 s", met=m["wall_s"] < 2))
    return out


def _audit(a: dict) -> list[dict]:
    s = a["seconds"]
    base = s["baseline loop (1 process)"]
    return [row(f"audit, black box, {a['k']}-RR, {a['samples']} samples per input, {name.split(', ')[1]}",
                (v, None), (base, None), "a bare sampling loop") for name, v in s.items() if name.startswith("relations")]


def _sweep(w: dict) -> list[dict]:
    r = w["relabel"]
    return [row(f"sweep of {w['mechanisms']} mechanisms, 2 workers", (w["workers=2"]["seconds"], None),
                (w["baseline_s"], None), "a loop of check"),
            row(f"sweep up to relabelling ({r['representatives']} representatives)", (r["seconds"], None),
                (w["workers=2"]["seconds"], None), "the whole sweep")]


def _prover(p: dict) -> list[dict]:
    return [row("prover: the catalogue's lemmas, once", (p["lemmas_seconds"], p.get("lemmas_cpu_seconds"))),
            row(f"prover: slowest of {len(p['rows'])} conjectures (unexpected: {len(p['unexpected'])})",
                (p["slowest"], p.get("slowest_cpu")))]


def _notions(n: dict) -> list[dict]:
    cpu, base, base_cpu = n.get("notions_all_cpu_s") or {}, n.get("baseline_s") or {}, n.get("baseline_cpu_s") or {}
    out = [row(f"measure --notion all, {name}", (t, cpu.get(name)),
               (base[name], base_cpu.get(name)) if name in base else None, "the baseline tree")
           for name, t in n["notions_all_s"].items()]
    out.append(row("claims rho <= rho(1 +- 2^-90) on near-identical rows", (n["claims_s"], n.get("claims_cpu_s"))))
    return out


def _conjectures(c: dict) -> list[dict]:
    out = []
    for key, target in (("quick", 15), ("full", 60)):
        done = [r for r in c["rows"] if key in r]
        if not done:
            continue
        slow = max(done, key=lambda r: math.inf if r[key]["seconds"] is None else r[key]["seconds"])
        seconds, cpu = slow[key]["seconds"], slow[key].get("cpu")
        wrong = sum(1 for r in done if r[key]["verdict"] is not None
                    and (r["expected"] == "true") == (r[key]["verdict"] == "refuted"))
        out.append(row(f"conjecture{' --quick' if key == 'quick' else ''}, slowest of {len(done)} "
                       f"(wrong verdicts: {wrong}), whole process", (math.inf if seconds is None else seconds, cpu),
                       target=f"< {target} s", met=seconds is not None and seconds < target and not wrong))
    return out


def _verify(v: dict) -> list[dict]:
    out = []
    for key, name, target in (("verify_quick_nocoq", "verify --quick, without Coq", 4),
                              ("verify_full_nocoq", "verify (full effort), without Coq", 8),
                              ("verify_quick", "verify --quick", None), ("verify_full", "verify (full effort)", None)):
        if f"{key}_s" in v:
            cpu = v.get(f"{key}_cpu_s")
            out.append(row(f"relations {name}, whole process", (v[f"{key}_s"], cpu),
                           target=f"< {target} s CPU" if target else "",
                           met=cpu is not None and target is not None and cpu < target))
    return out


#: How the figures of a script without ``"compared"`` become rows.
ADAPTERS: dict[str, Callable[[dict], list[dict]]] = {
    "kernels": _kernels, "composition": _composition, "audit": _audit, "sweep": _sweep, "prover": _prover,
    "notions": _notions, "conjectures": _conjectures, "verify": _verify,
}


# ---------------------------------------------------------------- the table


def seconds(v: float | None, per_entry: bool = False) -> str:
    """A time, with a fixed format: ``-`` unknown, ``0.63 ns`` (per entry), ``412 us``, ``12.3 ms``, ``4.56 s``."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if math.isinf(v):
        return "no answer"
    if per_entry:
        return f"{v * 1e9:.2f} ns"
    if v < 1e-3:
        return f"{v * 1e6:.0f} us"
    return f"{v * 1e3:.1f} ms" if v < 1 else f"{v:.2f} s"


def cells(r: dict) -> list[str]:
    """A row's cells: work, ours CPU, ours wall, baseline, its CPU, its wall, ratio, target, met."""
    per = bool(r.get("per_entry"))
    ours, base = r["ours"], r.get("baseline")
    ratio = "-"
    if base is not None:
        both_cpu = ours["cpu"] is not None and base["cpu"] is not None and not math.isnan(base["cpu"])
        num, den = (ours["cpu"], base["cpu"]) if both_cpu else (ours["wall"], base["wall"])
        if num is not None and den is not None and not math.isnan(num) and not math.isnan(den) and den > 0:
            ratio = f"{num / den:#.3g}".rstrip(".") + "x" + ("" if both_cpu else " (wall)")  # 3 digits: 1.30x
    met = r.get("met")
    return [r["work"], seconds(ours["cpu"], per), seconds(ours["wall"], per), base["name"] if base else "-",
            seconds(base["cpu"], per) if base else "-", seconds(base["wall"], per) if base else "-", ratio,
            r.get("target") or "-", "-" if met is None else ("yes" if met else "no")]


HEADER = ["work", "ours CPU", "ours wall", "baseline", "baseline CPU", "baseline wall", "ratio", "target", "met"]


def markdown(table: list[list[str]], header: list[str]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in table]


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Every benchmark in one run, each next to its baseline.")
    parser.add_argument("--full", action="store_true", help="the issue's sizes (about half an hour)")
    parser.add_argument("--quick", action="store_true", help="every script's quick form (the default)")
    parser.add_argument("--markdown", metavar="FILE", help="also write the dated table to FILE")
    parser.add_argument("--only", help="comma-separated script names (startup, measure, ...)")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    load_before = os.getloadavg()
    results: dict[str, dict] = {}
    spent: dict[str, tuple[float, float]] = {}
    rows: list[dict] = []
    for name, script, quick, full in SCRIPTS:
        if only is not None and name not in only:
            continue
        got, wall, cpu = run_script(script, full if args.full else quick)
        results[name], spent[name] = got, (wall, cpu)
        if "failed" in got:
            rows.append(row(f"{script}: failed ({got['failed']})", (wall, cpu)))
        elif "compared" in got:
            rows.extend(got["compared"])
        elif name in ADAPTERS:
            try:
                rows.extend(ADAPTERS[name](got))
            except (KeyError, TypeError, IndexError, ValueError) as exc:
                rows.append(row(f"{script}: figures not read ({type(exc).__name__}: {exc})", (wall, cpu)))
    load_after = os.getloadavg()
    table = [cells(r) for r in rows]
    per_script = [[f"`{script} {' '.join(full if args.full else quick)}`".replace(" `", "`"),
                   seconds(spent[name][1]), seconds(spent[name][0])]
                  for name, script, quick, full in SCRIPTS if name in spent]
    head = [f"`benchmarks/run_all.py{' --full' if args.full else ''}`, "
            f"{datetime.datetime.now(datetime.UTC).date().isoformat()}: {os.cpu_count()} cores, "
            f"{platform.python_implementation()} {platform.python_version()}, load average (1, 5, 15 min) "
            + " ".join(f"{v:.2f}" for v in load_before) + " before, " + " ".join(f"{v:.2f}" for v in load_after)
            + " after."]
    text = [*head, "", *markdown(table, HEADER), "", *markdown(per_script, ["script", "CPU", "wall"])]
    print("\n".join(text))
    if args.markdown:
        Path(args.markdown).write_text("\n".join(text) + "\n", encoding="utf-8")
    print(json.dumps({"full": args.full, "results": results, "scripts": spent, "rows": rows,
                      "load": [load_before, load_after]}))


if __name__ == "__main__":
    main()
