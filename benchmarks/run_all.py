"""Every performance figure of docs/benchmarks.md in one run, each next to its baseline or target.

Run: ``python benchmarks/run_all.py`` (the issue's sizes: about 10 minutes on a 2-core machine) or
``python benchmarks/run_all.py --quick`` (small sizes, about 2 minutes; targets are then not judged);
``--markdown benchmarks/run-all-DATE.md`` also writes the table as a dated page for ``docs/benchmarks.md``.

Each benchmark script runs in its own process, one after the other (so none competes with another
for the two cores), and prints a JSON line last; this script reads those lines and prints one table:
the work, the tool's figure, the baseline measured in the same run (or the target), the ratio, and
whether the target is met.  The last line is the whole result as JSON.  Baselines: numpy (float
``I(X;Y)``, a numpy process), HiGHS on the naive pairwise LP, the untied twin of a tied channel,
``--bits 100`` ball arithmetic, ``python -c 'import numpy'``, qif and dit (when installed: the
``bench`` extra).  ``bench_conjectures.py`` gives the slowest conjecture of its list against the targets
(15 s with ``--quick``, 60 s at full effort) and counts verdicts that contradict the mathematics.
"""

from __future__ import annotations

import json
import math
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


#: Each script's wall-clock and CPU seconds (its process and every child), as run by :func:`_run`.
SCRIPTS: dict[str, tuple[float, float]] = {}


def _cpu() -> float:
    """CPU seconds (user + system) of the finished children of this process."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def _run(script: str, *args: str) -> dict:
    start, cpu = time.perf_counter(), _cpu()
    print(f"running {script} {' '.join(args)} ...", file=sys.stderr, flush=True)
    done = subprocess.run([sys.executable, str(HERE / script), *args], capture_output=True, text=True)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode != 0 or not lines:
        print(done.stdout[-2000:], done.stderr[-2000:], file=sys.stderr)
        raise SystemExit(f"{script} failed (exit status {done.returncode})")
    SCRIPTS[" ".join((script, *args))] = (time.perf_counter() - start, _cpu() - cpu)
    print(f"  {SCRIPTS[' '.join((script, *args))][0]:.0f} s wall, {SCRIPTS[' '.join((script, *args))][1]:.0f} s CPU",
          file=sys.stderr, flush=True)
    return json.loads(lines[-1])


def _seconds(v):
    return None if v is None else (f"{v * 1000:.1f} ms" if v < 1 else f"{v:.2f} s")


def rows(quick: bool) -> tuple[list[tuple], dict]:
    """Run every script; ``(table rows, raw results)``.  A row: work, tool, baseline, ratio, target, met."""
    q = ["--quick"] if quick else []
    res = {
        "optimal": _run("bench_optimal.py", *([] if quick else ["--full"])),
        "measure": _run("bench_measure.py", *q),
        "kernels": _run("bench_kernels.py", *q),
        "verify": _run("bench_verify.py", "--quick", "--end-to-end") if quick else _run("bench_verify.py", "--end-to-end"),
        "startup": _run("bench_startup.py", *q),
        "anchors": _run("bench_anchors.py", *q),
        "sweep": _run("bench_sweep.py", *q),
        "conjectures": _run("bench_conjectures.py", *(["--quick-only"] if quick else [])),
    }
    o, m, v, s, a, w = (res[k] for k in ("optimal", "measure", "verify", "startup", "anchors", "sweep"))
    judge = (lambda ok: "n/a (--quick)") if quick else (lambda ok: "yes" if ok else "NO")
    out = []
    big = "1024" if not quick else "512"
    k_big = o.get("optimize_dp_1024_s", o.get("optimize_dp_512_s"))
    out.append(("optimize --notion dp, k = 64 (exact, certified)", _seconds(o["optimize_dp_64_s"]),
                f"naive LP (HiGHS) {_seconds(o['naive_lp_64_s'])}", f"{o['optimize_dp_64_s'] / o['naive_lp_64_s']:.3g}x",
                "-", "-"))
    out.append(("optimize --notion dp, k = 256", _seconds(o["optimize_dp_256_s"]), "-", "-", "< 2 s",
                judge(o["optimize_dp_256_s"] < 2)))
    out.append((f"optimize --notion dp, k = {big}", _seconds(k_big), "-", "-", "< 60 s at 1024", judge(k_big < 60)))
    out.append(("float eps_m vs a numpy MI pass" + (" (2048^2)" if quick else " (8192^2)"), "-", "numpy",
                f"{m['float_mi_ratio']:.3g}x", "<= 0.6x", judge(m["float_mi_ratio"] <= 0.6)))
    if "float_mi_ratio_log" in m:
        out.append(("float eps_m vs numpy's vectorised log, one thread", "-", "numpy log",
                    f"{m['float_mi_ratio_log']:.3g}x", "-", "-"))
    per = m["float_mi_ns_per_entry"]
    spread = max(per.values()) / min(per.values())
    out.append(("float eps_m, ns per entry " + " / ".join(f"{n}^2" for n in per),
                " / ".join(f"{x:.2f}" for x in per.values()), "-", f"spread {spread:.2f}x", "constant",
                judge(spread < 1.5)))
    kr = res["kernels"]
    if kr.get("compiled") is not False:
        for n, e in kr["eps_m"].items():
            out.append((f"float eps_m {n}^2, compiled kernel, ns per entry of CPU (wall {e['wall_ns_per_entry']:.2f})",
                        f"{e['ns_per_entry']:.2f} ns", f"np.sum read {e['floor_ns']:.2f} ns; numpy twin {e['twin_ns']:.2f} ns",
                        f"{e['ns_per_entry'] / e['floor_ns']:.3g}x floor", "<= 1.5 ns", judge(e["ns_per_entry"] <= 1.5)))
        for n, e in kr["eps_d"].items():
            out.append((f"float eps_d {n}^2 vs numpy's max-log-ratio pass (numpy twin {e['twin_ratio']:.2f}x)",
                        f"{e['ns_per_entry']:.2f} ns", "numpy pass", f"{e['ratio']:.3g}x", "<= 1.5x", judge(e["ratio"] <= 1.5)))
        c = kr["certified_eps_d"]
        out.append((f"certified eps_d from floats {c['n']}^2 incl. building vs the float path (numpy twin "
                    f"{c['twin_ratio']:.3g}x)", _seconds(c["seconds"]), f"float path {_seconds(c['float_seconds'])}",
                    f"{c['ratio']:.3g}x", "<= 2x", judge(c["ratio"] <= 2)))
        out.append(("loading the compiled kernels, once per process", _seconds(kr["load_cpu_s"]), "-", "-", "-", "-"))
    out.append(("exact, 1e12 denominators" + (" (256^2)" if quick else " (1024^2)"), _seconds(m["exact_1e12_seconds"]),
                "-", "-", "< 5 s", judge(m["exact_1e12_seconds"] < 5)))
    if "certified_4096_seconds" in m:
        out.append(("certified 4096^2, whole process", _seconds(m["certified_4096_seconds"]), "-",
                    f"{m['certified_4096_gib']:.2f} GiB", "< 60 s, < 1 GiB",
                    judge(m["certified_4096_seconds"] < 60 and m["certified_4096_gib"] < 1)))
    out.append(("certified 1024^2 vs --bits 100 (ball arithmetic)", "-", "--bits 100", f"{m['certified_1024_ratio']:.3g}x",
                "-", "-"))
    out.append(("tied D^r (k-RR written densely) vs its untied twin", "-", "untied twin", f"{m['tied_ratio']:.3g}x",
                "<= 2x", judge(m["tied_ratio"] <= 2)))
    r6 = f"product_{10**5 if quick else 10**6}_1000_seconds"
    out.append(("product form, 1000 distinct priors, r = " + ("1e5" if quick else "1e6"), _seconds(m[r6]), "-", "-",
                "< 2 s", judge(m[r6] < 2)))
    out.append(("product form, uniform prior, r = 1e9", _seconds(m["product_1e9_uniform_seconds"]), "-", "-",
                "instantly (< 0.1 s)", judge(m["product_1e9_uniform_seconds"] < 0.1)))
    out.append(("process: measure .npz vs a numpy MI process", "-", "numpy process", f"{m['process_ratio']:.3g}x",
                "<= 2x", judge(m["process_ratio"] <= 2)))
    out.append(("relations verify (full effort), wall clock", _seconds(v["verify_full_s"]), "-", "-", "< 10 s",
                judge(v["verify_full_s"] < 10)))
    for key, name, target in (("verify_quick_nocoq", "verify --quick", 4), ("verify_full_nocoq", "verify (full effort)", 8)):
        if f"{key}_cpu_s" in v:
            out.append((f"relations {name} without Coq, CPU (wall {_seconds(v[f'{key}_s'])})", _seconds(v[f"{key}_cpu_s"]),
                        "-", "-", f"< {target} s CPU", judge(v[f"{key}_cpu_s"] < target)))
    med, cpu, numpy = s["median_seconds"], s["median_cpu_seconds"], "python -c 'import numpy'"
    for name in ("relations --version", "relations measure (table)", "relations measure --json"):
        ratio = s["cpu_over_numpy"][name]
        target = s["target_over_numpy"] if "measure" in name else None
        out.append((f"start-up: {name}, CPU (wall {_seconds(med[name])}, {s['over_numpy'][name]:.3g}x)",
                    _seconds(cpu[name]), f"import numpy {_seconds(cpu[numpy])} CPU", f"{ratio:.3g}x",
                    f"<= {target}x import numpy" if target else "-", judge(ratio <= target) if target else "-"))
    for key, value in a.items():
        if key.endswith("_ratio"):
            out.append((f"anchor: {key[:-6].replace('_', ' ')} (baseline time / ours)", "-", key.split("_")[0],
                        f"{value:.4g}x slower", "keep the lead", judge(value > 1)))
    if a.get("missing"):
        out.append(("anchors not installed", ", ".join(a["missing"]), "-", "-", "-", "-"))
    out.append((f"sweep, {w['mechanisms']} mechanisms, 2 workers vs a loop of check", _seconds(w["workers=2"]["seconds"]),
                _seconds(w["baseline_s"]), f"{w['workers=2']['ratio']:.3g}x", "-", "-"))
    r = w["relabel"]
    out.append((f"sweep up to relabelling, {r['representatives']} representatives of {w['mechanisms']}, 2 workers",
                _seconds(r["seconds"]), f"whole sweep {_seconds(w['workers=2']['seconds'])}", f"{r['ratio']:.3g}x",
                "-", "-"))
    cj = res["conjectures"]["rows"]
    for key, target in (("quick", 15), ("full", 60)):
        done = [r[key] for r in cj if key in r]
        if not done:
            continue
        slowest = max((d["seconds"] if d["seconds"] is not None else math.inf) for d in done)
        wrong = sum(1 for r in cj if key in r and r[key]["verdict"] is not None
                    and (r["expected"] == "true") == (r[key]["verdict"] == "refuted"))
        out.append((f"conjecture{' --quick' if key == 'quick' else ''}, slowest of {len(done)} (wrong verdicts: {wrong})",
                    _seconds(slowest), "-", "-", f"< {target} s", judge(slowest < target and not wrong)))
    return out, res


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Every performance figure in one run, next to its baseline.")
    parser.add_argument("--quick", action="store_true", help="small sizes, about 2 minutes; targets not judged")
    parser.add_argument("--markdown", metavar="FILE", help="also write the table as a dated Markdown table to FILE")
    args = parser.parse_args()
    quick = args.quick
    table, res = rows(quick)
    from rich.console import Console
    from rich.table import Table

    t = Table(title="relations: every figure next to its baseline" + (" (--quick sizes)" if quick else ""))
    for col in ("work", "tool", "baseline", "ratio", "target", "met"):
        t.add_column(col)
    for row in table:
        t.add_row(*(str(c) for c in row))
    Console(width=160).print(t)
    if args.markdown:
        Path(args.markdown).write_text(_markdown(table, quick), encoding="utf-8")
    print(json.dumps({"quick": quick, "results": res, "scripts": SCRIPTS}))


def _markdown(table: list[tuple], quick: bool) -> str:
    """The table as Markdown, headed by the date, the machine and its load (for docs/benchmarks.md)."""
    import datetime
    import os
    import platform

    load = " ".join(f"{v:.2f}" for v in os.getloadavg())
    lines = [f"# `benchmarks/run_all.py{' --quick' if quick else ''}` ({datetime.date.today().isoformat()})", "",
             f"{os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}, "
             f"load average (1, 5, 15 min) {load} at the end.", "",
             "| work | tool | baseline | ratio | target | met |", "|---|---|---|---|---|---|"]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in table]
    lines += ["", "Each script as run above: wall clock beside the CPU of its process and children (CPU is what a "
              "loaded machine inflates least; the ratios above compare tool and baseline within one script).", "",
              "| script | wall | CPU |", "|---|---|---|"]
    lines += [f"| `{name}` | {wall:.1f} s | {cpu:.1f} s |" for name, (wall, cpu) in SCRIPTS.items()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
