"""Benchmark of ``relations measure`` against plain numpy baselines (ratios, one process).

Run: ``python benchmarks/bench_measure.py`` (add ``--quick`` for small sizes).

It prints, for each case, the time of the tool and of its baseline measured
side by side in this process, and their ratio:

1. float path, dense local 4096 x 4096 (all four measures) vs a numpy one-pass
   ``I(X;Y)`` over the same arrays;
2. float path, dense central ``D^r`` with ``k = 2, r = 12`` (4096 rows) vs the same baseline;
3. exact path, 256 x 256 rational channel, certified ``eps_m`` (target < 2 s);
4. product form, ``r = 1000`` records (uniform and 1000 distinct local priors; target < 1 s), and
   ``r = 10^6`` (``--quick``: ``10^5``) with the same priors each shared by ``r/1000`` records (target < 2 s);
5. whole processes: ``relations measure F.npz --json`` vs ``python -c`` that loads
   the same file with numpy and computes ``I(X;Y)`` once (target ratio <= 2.0);
8. float ``eps_m`` alone, 1024^2, 2048^2, 4096^2 and 8192^2 (row blocks on every core, one thread pool
   kept per process) vs the numpy one-pass ``I(X;Y)``, with the cost per entry (target ratio <= 0.6 at
   8192^2, the same cost per entry at every size; 16384^2 too without --quick);
7. exact path, ties: binary randomized response written densely over ``D^r`` (every clique of
   neighbours at the maximal ratio) vs its untied twin, a random rational channel of the same
   shape (target ratio <= 2);
9. exact path, 1024 x 1024 (``--quick``: 256) with a different 12-digit denominator in every row,
   all four measures and certified ``eps_m`` (target < 5 s);
10. exact path from floats, 1024 x 1024 (``--quick``: 256) random float rows taken exactly: reading them
   (at 1024^2: floats over exact row sums, ``ScaledRows``; at 256^2: integer mantissas over each row's
   smallest exponent) vs reading every entry as a Fraction and dividing by the exact row sum (the
   reading before), then all four measures with certified ``eps_m``;
11. whole processes, certified: ``relations measure F.npz --json`` on a float matrix with ``mode``
   ``"exact"``, 1024^2: the default (certified float arithmetic for ``eps_m``) vs ``--bits 100`` (ball
   arithmetic on every entry, the path before), then 4096^2 (not with ``--quick``) alone: time and peak
   memory (target < 60 s in < 1 GiB);
6. exact path, long denominators (a different 4000-digit denominator in every row, the
   number limit of mechanism files): certified ``eps_m`` vs the same enclosure with the
   output marginal ``p(y)`` summed exactly first (the algorithm before issue 13; its
   exact ``p(y)`` has the digits of every row's denominator).
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from fractions import Fraction

import numpy as np
from _clock import clock, cpu_seconds
from _clock import row as json_row

from relations.measures import measure
from relations.measures._information import mutual_information, mutual_information_float
from relations.model import Channel, HammingInputs, LocalInputs, Mechanism, Prior, ProductChannel, ProductPrior, Runs
from relations.model._distributions import stochastic_rows

BASELINE = """
import sys, numpy as np
from scipy.special import xlogy
d = np.load(sys.argv[1])
p, q = d["prior"], d["channel"]
py = p @ q
print(p @ xlogy(q, q).sum(1) - xlogy(py, py).sum())
"""


def numpy_mi(p: np.ndarray, q: np.ndarray) -> float:
    from scipy.special import xlogy

    py = p @ q
    return float(p @ xlogy(q, q).sum(1) - xlogy(py, py).sum())


def numpy_mi_log(p: np.ndarray, q: np.ndarray) -> float:
    """A second baseline: numpy's vectorised log over the whole matrix, one thread (the arithmetic of
    :func:`~relations.measures._information.mutual_information_float`, without its blocks and threads)."""
    t = np.maximum(q, np.nextafter(0.0, 1.0))
    np.log(t, out=t)
    t *= q
    py = p @ q
    lpy = np.log(np.maximum(py, np.nextafter(0.0, 1.0)))
    return float(p @ t.sum(1) - py @ lpy)


def exact_marginal_mi(prior, rows, bits: int = 100):
    """The certified ``I(X;Y)`` with ``p(y)`` summed exactly first (the baseline of case 6)."""
    from flint import arb, fmpq

    from relations.numbers._enclosure import working_precision

    py = [sum((px * row[y] for px, row in zip(prior, rows)), Fraction(0)) for y in range(len(rows[0]))]
    with working_precision(bits + 64):
        def xlogx(v):
            e = fmpq(v.numerator, v.denominator)
            return e * arb(e).log() if v else arb(0)
        total = sum((fmpq(px.numerator, px.denominator) * sum((xlogx(q) for q in row), arb(0))
                     for px, row in zip(prior, rows)), arb(0))
        return total - sum((xlogx(v) for v in py), arb(0))


def best_of(fn, repeat: int = 3) -> float:
    """The least wall-clock seconds of ``repeat`` runs of ``fn()``; the least CPU seconds are kept in :data:`CPU_OF`,
    by that wall time, for :func:`row`."""
    wall, cpu, _ = clock(fn, repeat)
    CPU_OF[wall] = cpu
    return wall


#: The CPU seconds of each :func:`best_of` timing, by its wall-clock seconds (a timing made otherwise has none).
CPU_OF: dict[float, float] = {}
#: The comparisons printed by :func:`row`, for ``run_all.py`` (``"compared"`` in the JSON line).
ROWS: list[dict] = []


def random_channel(rng, n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    q = rng.random((n, m))
    q[rng.random((n, m)) < 0.01] = 0.0
    q /= q.sum(axis=1, keepdims=True)
    p = rng.random(n)
    p /= p.sum()
    return p, q


def float_mechanism(p, q, inputs, setting) -> Mechanism:
    return Mechanism(setting, Prior(p), Channel(q), inputs, tuple(map(str, range(q.shape[1]))), exact=False)


def row(name: str, tool: float, base: float | None, note: str = "") -> None:
    target = note.split(";")[0] if note.startswith("target") else ""
    base_name = (name.split(" vs ", 1)[1] if " vs " in name else
                 note[len("baseline: "):] if note.startswith("baseline: ") else "baseline")
    ROWS.append(json_row(name if not note or target or note.startswith("baseline: ") else f"{name} ({note})",
                         (tool, CPU_OF.get(tool)), (base, CPU_OF.get(base)) if base else None,
                         base_name if base else "", target))
    ratio = f"{tool / base:6.3g}x" if base else "     - "
    base_s = f"{base * 1e3:9.1f} ms" if base else "        -   "
    print(f"{name:<46} {tool * 1e3:9.1f} ms  {base_s}  {ratio}  {note}")


def main(quick: bool = False) -> dict:
    rng = np.random.default_rng(2026)
    n = 512 if quick else 4096
    r = 9 if quick else 12
    results = {}
    print(f"{'case':<46} {'tool':>12}  {'baseline':>12}  {'ratio':>7}")

    p, q = random_channel(rng, n, n)
    local = float_mechanism(p, q, LocalInputs(tuple(map(str, range(n)))), "local")
    t_tool = best_of(lambda: measure(local))
    t_base = best_of(lambda: numpy_mi(p, q))
    row(f"float local {n}x{n}: 4 measures vs numpy MI", t_tool, t_base)
    results["float_local_ratio"] = t_tool / t_base

    central = float_mechanism(p, q, HammingInputs(("0", "1"), r), "central")
    t_tool = best_of(lambda: measure(central))
    row(f"float central k=2 r={r}: 4 measures vs numpy MI", t_tool, t_base)
    results["float_central_ratio"] = t_tool / t_base

    size = 64 if quick else 256
    weights = rng.integers(0, 1000, size=(size, size))
    weights[:, 0] += 1
    rows = [[Fraction(int(w), int(ws.sum())) for w in ws] for ws in weights]
    pw = rng.integers(1, 1000, size=size)
    prior = [Fraction(int(w), int(pw.sum())) for w in pw]

    def exact_run():
        mech = Mechanism("local", Prior.from_exact(prior), Channel.from_exact(rows),
                         LocalInputs(tuple(map(str, range(size)))), tuple(map(str, range(size))))
        return measure(mech)

    t_exact = best_of(exact_run, 1)
    width = float(exact_run().eps_m.enclosure.width)
    row(f"exact {size}x{size} incl. building, certified eps_m", t_exact, None, f"target < 2 s; width {width:.1e}")
    results["exact_256_seconds"] = t_exact

    w = [[Fraction(3, 4), Fraction(1, 8), Fraction(1, 8)], [Fraction(1, 8), Fraction(3, 4), Fraction(1, 8)],
         [Fraction(1, 8), Fraction(1, 8), Fraction(3, 4)]]
    records = 1000
    wch = Channel.from_exact(w)
    uniform = ProductPrior((Prior.uniform(3),) * records)
    priors = []
    for _ in range(records):
        a, b = (int(v) for v in rng.integers(1, 50, size=2))
        tot = a + b + 7
        priors.append(Prior.from_exact([Fraction(a, tot), Fraction(b, tot), Fraction(7, tot)]))
    for label, pp in (("uniform", uniform), ("1000 distinct priors", ProductPrior(tuple(priors)))):
        mech = Mechanism("central", pp, ProductChannel(wch, records), HammingInputs(("a", "b", "c"), records),
                         ("a", "b", "c"))
        t = best_of(lambda: measure(mech), 1)  # noqa: B023,F821
        row(f"product r={records}, {label}", t, None, "target < 1 s")
        results[f"product_{label.split()[0]}_seconds"] = t
    big = 10**5 if quick else 10**6  # the same 1000 distinct priors, each shared by big/1000 records
    for label, pp in (("uniform", ProductPrior((Prior.uniform(3),) * big)),
                      ("1000 distinct priors", ProductPrior(tuple(priors[j % 1000] for j in range(big))))):
        mech = Mechanism("central", pp, ProductChannel(wch, big), HammingInputs(("a", "b", "c"), big), ("a", "b", "c"))
        t = best_of(lambda: measure(mech), 1)  # noqa: B023,F821
        row(f"product r={big:.0e}, {label}", t, None, "target < 2 s")
        results[f"product_{big}_{label.split()[0]}_seconds"] = t
    huge = 10**9  # run-length priors and witnesses: the cost does not grow with r
    for label, pp in (("uniform", ProductPrior.repeated(Prior.uniform(3), huge)),
                      ("1000 distinct priors in runs", ProductPrior(Runs((priors[j], huge // 1000) for j in range(1000))))):
        mech = Mechanism("central", pp, ProductChannel(wch, huge), HammingInputs(("a", "b", "c"), huge),
                         ("a", "b", "c"))
        t = best_of(lambda: measure(mech), 1)  # noqa: B023,F821
        row(f"product r=1e9, {label}", t, None, "target: instantly")
        results[f"product_1e9_{label.split()[0]}_seconds"] = t

    n_12 = 256 if quick else 1024
    rows_12 = []
    for ws in rng.integers(1, 10**9, size=(n_12, n_12)):
        d = 10**12 + int(rng.integers(0, 1000))
        a = (ws * (d / ws.sum())).astype(np.int64)
        a[0] += d - int(a.sum())
        rows_12.append([Fraction(int(v), d) for v in a])
    mech_12 = Mechanism("local", Prior.from_exact([Fraction(1, n_12)] * n_12), Channel.from_exact(rows_12),
                        LocalInputs(tuple(map(str, range(n_12)))), tuple(map(str, range(n_12))))
    t_tool = best_of(lambda: measure(mech_12), 1)
    row(f"exact {n_12}x{n_12}, 1e12 denominators: 4 measures", t_tool, None, "target < 5 s")
    results["exact_1e12_seconds"] = t_tool
    rows_12 = mech_12 = None  # free the memory before the next cases

    n_f = 256 if quick else 1024  # a float matrix taken exactly (certified): reading it, then measuring
    fq = rng.random((n_f, n_f))
    fq /= fq.sum(axis=1, keepdims=True)
    t_tool = best_of(lambda: Channel.of(fq, exact=True), 1)
    t_base = best_of(lambda: Channel.from_exact(*stochastic_rows(fq.tolist(), "channel", rounding=True)), 1)
    row(f"exact from floats {n_f}x{n_f}: reading", t_tool, t_base, "baseline: entry by entry as Fractions")
    results["exact_floats_read_ratio"] = t_tool / t_base
    fmech = Mechanism("local", Prior.of(np.full(n_f, 1.0 / n_f), exact=True), Channel.of(fq, exact=True),
                      LocalInputs(tuple(map(str, range(n_f)))), tuple(map(str, range(n_f))))
    t_tool = best_of(lambda: measure(fmech), 1)
    row(f"exact from floats {n_f}x{n_f}: 4 measures, certified", t_tool, None, "4096^2: case 11")
    results["exact_floats_measure_seconds"] = t_tool
    fq = fmech = None

    n_long = 16 if quick else 40
    long_rows = []
    for _ in range(n_long):
        d = 10**3999 + int(rng.integers(1, 2**62)) * 10**3900 + int(rng.integers(1, 2**62))
        a = [d // (2 * n_long) + int(rng.integers(1, 2**62)) for _ in range(n_long - 1)]
        long_rows.append([Fraction(x, d) for x in a] + [Fraction(d - sum(a), d)])
    long_prior = [Fraction(1, n_long)] * n_long
    t_tool = best_of(lambda: mutual_information(long_prior, long_rows), 1)
    t_base = best_of(lambda: exact_marginal_mi(long_prior, long_rows), 1)
    row(f"exact {n_long}x{n_long}, 4000-digit denominators: eps_m", t_tool, t_base,
        "baseline: exact p(y) first")
    results["long_denominators_ratio"] = t_tool / t_base

    per_entry = {}
    for n_pe in ((1024, 2048) if quick else (1024, 2048, 4096, 16384)):  # cost per entry: should not depend on n
        p_pe, q_pe = random_channel(rng, n_pe, n_pe)
        reps = max(3, (8192 // n_pe) ** 2)  # a 1024^2 pass takes 1 ms: best of 64 (2048^2: 16), each size
        # measured for about as long as the 8192^2 pass, so a small pass is no more exposed to a busy core
        t_tool = best_of(lambda: mutual_information_float(p_pe, q_pe), reps)  # noqa: B023
        t_base = best_of(lambda: numpy_mi(p_pe, q_pe), reps)  # noqa: B023
        row(f"float eps_m {n_pe}^2 vs numpy MI", t_tool, t_base, f"{t_tool / n_pe**2 * 1e9:.2f} ns per entry")
        per_entry[n_pe] = t_tool / n_pe**2 * 1e9
    n_mi = 2048 if quick else 8192
    p_mi, q_mi = random_channel(rng, n_mi, n_mi)
    t_tool = best_of(lambda: mutual_information_float(p_mi, q_mi))  # noqa: F821
    t_base = best_of(lambda: numpy_mi(p_mi, q_mi))  # noqa: F821
    row(f"float eps_m {n_mi}^2 vs numpy MI", t_tool, t_base, f"target <= 0.6x; {t_tool / n_mi**2 * 1e9:.2f} ns per entry")
    results["float_mi_ratio"] = t_tool / t_base
    t_log = best_of(lambda: numpy_mi_log(p_mi, q_mi))  # noqa: F821
    row(f"float eps_m {n_mi}^2 vs numpy log MI (one thread)", t_tool, t_log, "the same arithmetic without blocks or threads")
    results["float_mi_ratio_log"] = t_tool / t_log
    per_entry[n_mi] = t_tool / n_mi**2 * 1e9
    results["float_mi_ns_per_entry"] = {str(k): round(v, 3) for k, v in sorted(per_entry.items())}
    del p_mi, q_mi

    r_tied = 8 if quick else 10
    rr = [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]
    tied_rows = [[Fraction(1)]]
    for _ in range(r_tied):
        tied_rows = [[a * b for a in row_ for b in w] for row_ in tied_rows for w in rr]
    n_tied = len(tied_rows)
    weights = rng.integers(1, 1000, size=(n_tied, n_tied))
    untied_rows = [[Fraction(int(v), int(w.sum())) for v in w] for w in weights]
    built: dict[str, list[float]] = {"tied": [], "untied": []}
    timed: dict[str, list[float]] = {"tied": [], "untied": []}
    for _ in range(2 if quick else 3):  # alternating, each from a fresh mechanism and a collected heap
        for name, rows_ in (("tied", tied_rows), ("untied", untied_rows)):
            gc.collect()
            t = time.perf_counter()
            mech = Mechanism.central(rows_, records=r_tied, domain=2)
            built[name].append(time.perf_counter() - t)
            gc.collect()
            t = time.perf_counter()
            measure(mech)
            timed[name].append(time.perf_counter() - t)
            del mech
    row(f"exact D^{r_tied} k=2: build, k-RR written densely vs untied twin", min(built["tied"]),
        min(built["untied"]), "ties read once per distinct value")
    row(f"exact D^{r_tied} k=2: k-RR written densely vs untied twin", min(timed["tied"]), min(timed["untied"]),
        "target <= 2.0x")
    results["tied_ratio"] = min(timed["tied"]) / min(timed["untied"])
    results["tied_build_ratio"] = min(built["tied"]) / min(built["untied"])

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.npz")
        np.savez(path, prior=p, channel=q)
        env = dict(os.environ)

        def tool_proc():
            subprocess.run([sys.executable, "-m", "relations.cli", "measure", path, "--json"], check=True,
                           capture_output=True, env=env)

        def base_proc():
            subprocess.run([sys.executable, "-c", BASELINE, path], check=True, capture_output=True, env=env)

        tool_proc()  # warm the page cache
        base_proc()
        t_tool = best_of(tool_proc)
        t_base = best_of(base_proc)
        row(f"process: measure {n}x{n} .npz vs numpy MI process", t_tool, t_base, "target <= 2.0x")
        results["process_ratio"] = t_tool / t_base
    results.update(certified_processes(rng, quick))
    return results


#: Runs ``relations ARGS`` and writes the process's peak resident memory (KiB, ``VmHWM``) to standard error.
#: (``ru_maxrss`` would not do: on Linux it keeps the high-water mark of the parent forked before ``exec``.)
#: (At exit: ``relations measure`` ends its process without the interpreter's shutdown, after the atexit functions.)
PEAK = """
import atexit, runpy, sys
def peak():
    hwm = [line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")]
    sys.stderr.write("PEAK %s\\n" % hwm[0])
    sys.stderr.flush()
atexit.register(peak)
sys.argv = ["relations"] + sys.argv[1:]
runpy.run_module("relations", run_name="__main__")
"""


def certified_process(path: str, *args: str) -> tuple[float, float]:
    """``(seconds, peak GiB)`` of ``relations measure PATH --json ARGS`` in a fresh process."""
    t, c = time.perf_counter(), cpu_seconds()
    done = subprocess.run([sys.executable, "-c", PEAK, "measure", path, "--json", *args], check=True,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - t
    CPU_OF[seconds] = cpu_seconds() - c  # the child's
    peak = int(done.stderr.rsplit("PEAK", 1)[1]) / 2**20
    return seconds, peak


def certified_processes(rng, quick: bool) -> dict:
    """Case 11 (module docstring)."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n_c in ((1024,) if quick else (1024, 4096)):
            q_c = rng.random((n_c, n_c))
            q_c /= q_c.sum(axis=1, keepdims=True)
            path = os.path.join(tmp, f"certified{n_c}.npz")
            np.savez(path, prior=np.full(n_c, 1.0 / n_c), channel=q_c, mode=np.array("exact"))
            del q_c
            t_tool, mem_tool = certified_process(path)
            if n_c == 1024:
                t_base, mem_base = certified_process(path, "--bits", "100")
                row(f"process: certified {n_c}^2 vs --bits 100", t_tool, t_base,
                    f"peak {mem_tool:.2f} GiB vs {mem_base:.2f} GiB")
                out["certified_1024_ratio"] = t_tool / t_base
            else:
                row(f"process: certified {n_c}^2 (read + 4 measures)", t_tool, None,
                    f"peak {mem_tool:.2f} GiB; target < 60 s in < 1 GiB")
                out["certified_4096_seconds"], out["certified_4096_gib"] = t_tool, mem_tool
    return out


if __name__ == "__main__":
    out = main(quick="--quick" in sys.argv)
    out["compared"] = ROWS
    print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in out.items()}))
