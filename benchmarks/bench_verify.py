"""Benchmark of the verify searches: the vectorised inner loop against the one-point-at-a-time baseline.

Run: ``python benchmarks/bench_verify.py [--quick] [--end-to-end]``.

Side by side in one process, on the same relations, families and starts:

* **baseline** -- the search as it was: ``scipy.optimize.minimize(method="Nelder-Mead")`` start by
  start and objective by objective, each evaluation building a float
  :class:`~relations.model._mechanism.Mechanism` and measuring it
  (:func:`relations.search._families.float_values`);
* **batched** -- :func:`relations.search._optimiser.search_dense`: all simplexes step together
  (:mod:`relations.search._neldermead`), each step one :func:`relations.measures._batch.dense_values` call;
* **catalogue** -- every implication over each family, one :func:`search_dense` after another against
  :func:`relations.search._optimiser.search_dense_all` (what ``verify`` runs: all relations as one batch).

Both report the best violation and tightness ratio they found (the two methods take the same steps up to
last-bit differences of the floats, so the values agree closely but not always to the last digit).
``--end-to-end`` also times ``relations verify --quick`` and the full ``relations verify`` as a user runs
them, and again without Coq (``RELATIONS_COQC`` empty), as new processes in a temporary output folder:
wall-clock seconds and the CPU seconds of the process and its children (``verify_*_cpu_s``), the figure
that a loaded machine inflates least.  ``--end-to-end-only`` skips the searches above; ``--no-coq`` times
only the runs without Coq; ``--against DIR`` runs each command a second time, right after, with the
``relations`` of another checkout ``DIR`` (a baseline measured in the same run: ``against_verify_*``), and
says whether the two evidence folders are the same bytes (``same_evidence_*``); ``--cold`` gives each run a
new empty cache folder (else the runs share the user's, warm once a run of the same code has filled it).
``--end-to-end-only --quick`` times only ``relations verify --quick`` (``run_all.py``'s quick form).

``--dense N`` runs only verify's batched dense-family searches (``_dense_searches`` over the catalogue, in one
process: ``RELATIONS_NO_FORK=1``, with an empty cache folder, so that they search), ``N`` times in new processes, each right after the same run with the
``relations`` of ``--against DIR`` when given: the CPU seconds of each run (min and max), and a fingerprint,
the SHA-256 of every Nelder-Mead objective value of every step and of the results.  The same fingerprint
means the searches took the same steps to the last bit (a change that only speeds them up keeps it); it
answers in seconds what the evidence's ``diff -r`` answers in minutes.  Add ``--quick`` for the quick effort.
"""

from __future__ import annotations

import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

from relations.catalogue import CATALOGUE, get
from relations.search._families import DenseFamily, float_values
from relations.search._optimiser import float_bound, ratio, search_dense, search_dense_all, violation

RELATIONS = ("relations.thm11_sharp", "zheng2025.thm9", "bs2016.dp_zcdp", "cks2020.rdp_dp")
FAMILIES = (DenseFamily(2, 2), DenseFamily(3, 3), DenseFamily(4, 2, 2, 2))


def baseline(rel, family, starts, rng, maxiter):
    """The search before vectorisation: scipy Nelder-Mead per start and objective, one mechanism per call."""
    from scipy.optimize import minimize

    from relations.model._neighbours import diameter

    diam = diameter(family.inputs())

    def values(theta):
        return float_values(family.float_mechanism(theta))

    def neg_violation(theta):
        vals = values(theta)
        v = violation(rel, vals, diam)
        if not math.isfinite(v):
            return -1e6 if v > 0 else 1e6
        return -v / (1.0 + abs(vals[rel.conclusion]) + abs(float_bound(rel, vals, diam)))

    def neg_ratio(theta):
        q = ratio(rel, values(theta), diam)
        return -q if q is not None else 1e6

    best_v, best_q = -math.inf, None
    theta0 = rng.normal(scale=1.5, size=(starts, family.dim))
    for s in range(starts):
        res = minimize(neg_violation, theta0[s], method="Nelder-Mead",
                       options={"maxiter": maxiter, "xatol": 1e-6, "fatol": 1e-12})
        best_v = max(best_v, violation(rel, values(res.x), diam))
        res = minimize(neg_ratio, theta0[s], method="Nelder-Mead", options={"maxiter": maxiter})
        if -res.fun < 1e5:
            best_q = -res.fun if best_q is None else max(best_q, -res.fun)
    return best_v, best_q


def _same_files(a: str, b: str) -> bool:
    """The two folders hold the same files with the same bytes."""
    import filecmp

    def walk(top):
        return sorted(os.path.relpath(os.path.join(d, f), top) for d, _, fs in os.walk(top) for f in fs)

    names = walk(a)
    return names == walk(b) and all(filecmp.cmp(os.path.join(a, n), os.path.join(b, n), shallow=False) for n in names)


def run_end_to_end(quick: bool, coq: bool = True, against: str | None = None, cold: bool = False,
                   only_quick: bool = False) -> dict:
    """``relations verify`` as new processes: wall and CPU seconds of each run (with and without Coq, or only
    without), and of the same command with the package of the checkout ``against`` right after each.  With
    ``cold`` each run gets a new empty cache folder (``RELATIONS_CACHE_DIR``: no compiled Coq files, no stored
    hypothesis draws); else the runs share the user's cache folder, warm once a run of the same code filled it."""
    results: dict = {}
    runs = (("verify_quick", ["--quick"], True), ("verify_full", [], True),
            ("verify_quick_nocoq", ["--quick"], False), ("verify_full_nocoq", [], False))
    for label, args, with_coq in runs:
        if (with_coq and not coq) or (only_quick and not args):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            for who, tree in (("", None), ("against_", against)):
                if who and tree is None:
                    continue
                env = {**os.environ, **({} if with_coq else {"RELATIONS_COQC": ""})}
                if cold:
                    env["RELATIONS_CACHE_DIR"] = tempfile.mkdtemp(prefix=f"{who}cache-", dir=tmp)
                if tree is not None:
                    env["PYTHONPATH"] = os.path.abspath(tree)
                before, t = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
                subprocess.run([sys.executable, "-m", "relations", "verify", *args, "--out", f"{tmp}/{who}ev", "--json"],
                               check=True, capture_output=True, env=env, cwd=tree)
                results[f"{who}{label}_s"] = time.perf_counter() - t
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                results[f"{who}{label}_cpu_s"] = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
                print(f"{'baseline ' if who else ''}relations verify {' '.join(args) or '(full effort)'}"
                      f"{'' if with_coq else ' without Coq'}: {results[f'{who}{label}_s']:.1f} s wall, "
                      f"{results[f'{who}{label}_cpu_s']:.1f} s CPU")
            if against is not None:
                results[f"same_evidence_{label}"] = _same_files(f"{tmp}/ev", f"{tmp}/against_ev")
    return results


def _dense_child(quick: bool) -> None:
    """In a new process (``--dense-child``): verify's dense searches once; prints the CPU seconds and the
    fingerprint as JSON."""
    import hashlib

    from relations.pipeline import _verify
    from relations.search import _neldermead

    digest, minimize = hashlib.sha256(), _neldermead.minimize_batch

    def fingerprinted(f, x0, **options):  # every objective value of every step, then the results
        def objective(points, owner):
            values = f(points, owner)
            digest.update(np.ascontiguousarray(values).tobytes())
            return values

        xs, fs = minimize(objective, x0, **options)
        digest.update(xs.tobytes() + fs.tobytes())
        return xs, fs

    _neldermead.minimize_batch = fingerprinted
    before = time.process_time()
    found = _verify._dense_searches(list(CATALOGUE), _verify.Effort.of(quick), 2025)
    cpu = time.process_time() - before
    for n in sorted(found):
        for key in sorted(found[n]):
            f = found[n][key]
            ratio = None if f.best_ratio is None else float(f.best_ratio)  # (a numpy float before 2026-11-30)
            digest.update(repr((n, key, float(f.best_violation), ratio, f.ratio_family, [repr(m) for m in f.candidates],
                                [(c.screen, c.key, c.label) for c in f.ratio_candidates], f.searched)).encode())
    print(json.dumps({"cpu_s": cpu, "fingerprint": digest.hexdigest()}))


def run_dense(runs: int, quick: bool, against: str | None = None) -> dict:
    """``runs`` new processes of :func:`_dense_child` (each right after the same with the checkout ``against``):
    CPU seconds (min, max) and fingerprints."""
    results: dict = {}
    script = os.path.abspath(__file__)
    results["dense_cpu_s"], results["against_dense_cpu_s"] = [], []
    for _ in range(runs):
        for who, tree in (("", None), ("against_", against)):
            if who and tree is None:
                continue
            # an empty cache folder: verify keeps its searches there, and here they are what is measured
            env = {**os.environ, "RELATIONS_NO_FORK": "1", "RELATIONS_CACHE_DIR": tempfile.mkdtemp(prefix="dense-cache-")}
            if tree is not None:
                env["PYTHONPATH"] = os.path.abspath(tree)
            try:
                out = subprocess.run([sys.executable, script, "--dense-child", *(["--quick"] if quick else [])],
                                     check=True, capture_output=True, env=env, cwd=tree, text=True).stdout
            finally:
                shutil.rmtree(env["RELATIONS_CACHE_DIR"], ignore_errors=True)
            child = json.loads(out.strip().splitlines()[-1])
            results[f"{who}dense_cpu_s"].append(child["cpu_s"])
            results.setdefault(f"{who}dense_fingerprints", set()).add(child["fingerprint"])
            print(f"{'baseline ' if who else ''}dense searches: {child['cpu_s']:.2f} s CPU, "
                  f"fingerprint {child['fingerprint'][:16]}")
    summary: dict = {}
    for who in ("", "against_"):
        times = results.get(f"{who}dense_cpu_s") or []
        if times:
            summary[f"{who}dense_cpu_min_s"], summary[f"{who}dense_cpu_max_s"] = min(times), max(times)
    if against is not None:
        summary["same_dense_steps"] = results["dense_fingerprints"] == results["against_dense_fingerprints"] \
            and len(results["dense_fingerprints"]) == 1
    return summary


def main(quick: bool = False, end_to_end: bool = False) -> dict:
    starts, maxiter = (2, 150) if quick else (4, 300)
    relations = RELATIONS[:2] if quick else RELATIONS
    total_old = total_new = 0.0
    results: dict = {}
    for rid in relations:
        rel = get(rid)
        for fam in FAMILIES:
            t = time.perf_counter()
            old = baseline(rel, fam, starts, np.random.default_rng(1), maxiter)
            t_old = time.perf_counter() - t
            t = time.perf_counter()
            found = search_dense(rel, fam, starts, np.random.default_rng(1), maxiter)
            t_new = time.perf_counter() - t
            total_old, total_new = total_old + t_old, total_new + t_new
            print(f"{rid:24} {fam.describe():20} baseline {t_old:6.2f} s  batched {t_new:6.3f} s  "
                  f"x{t_old / t_new:5.1f}   best ratio {old[1] or float('nan'):.6f} / {found.best_ratio or float('nan'):.6f}")
    print(f"searches: baseline {total_old:.1f} s, batched {total_new:.2f} s, ratio {total_old / total_new:.1f}")
    results |= {"search_baseline_s": total_old, "search_batched_s": total_new, "speedup": total_old / total_new}
    rels = [r for r in CATALOGUE if r.kind == "implication" and r.bound is not None]
    t_each = t_all = 0.0
    for fam in FAMILIES:  # what verify runs: every relation over each family, one by one or as one batch
        t = time.perf_counter()
        each = [search_dense(r, fam, starts, np.random.default_rng(2), maxiter) for r in rels]
        t_each += time.perf_counter() - t
        t = time.perf_counter()
        together = search_dense_all(rels, fam, [np.random.default_rng(2).normal(scale=1.5, size=(starts, fam.dim))
                                                for _ in rels], maxiter)
        t_all += time.perf_counter() - t
        assert [f.best_violation for f in each] == [f.best_violation for f in together]
    print(f"all {len(rels)} implications x {len(FAMILIES)} families: one by one {t_each:.1f} s, as one batch per family "
          f"{t_all:.1f} s, ratio {t_each / t_all:.1f} (same results)")
    results |= {"catalogue_one_by_one_s": t_each, "catalogue_batched_s": t_all, "catalogue_speedup": t_each / t_all}
    if end_to_end:  # as a user runs it, and without Coq (RELATIONS_COQC empty): wall clock and CPU of the process tree
        results |= run_end_to_end(quick)
    return results


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the quick effort")
    parser.add_argument("--end-to-end", action="store_true", help="also time relations verify as new processes")
    parser.add_argument("--end-to-end-only", action="store_true", help="only the end-to-end runs")
    parser.add_argument("--no-coq", action="store_true", help="end to end: only the runs without Coq")
    parser.add_argument("--against", metavar="DIR", help="end to end: a checkout whose relations is the baseline")
    parser.add_argument("--cold", action="store_true", help="end to end: each run with a new empty cache folder")
    parser.add_argument("--dense", type=int, metavar="N", help="only verify's dense searches, N runs")
    parser.add_argument("--dense-child", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.dense_child:
        _dense_child(opts.quick)
        sys.exit(0)
    if opts.dense:
        out = run_dense(opts.dense, opts.quick, against=opts.against)
    elif opts.end_to_end_only:
        out = run_end_to_end(opts.quick, coq=not opts.no_coq, against=opts.against, cold=opts.cold,
                             only_quick=opts.quick)
    else:
        out = main(quick=opts.quick, end_to_end=opts.end_to_end)
    print(json.dumps({k: v if isinstance(v, bool) else round(v, 3) for k, v in out.items()}))
