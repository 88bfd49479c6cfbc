"""Benchmark of the conjecture prover (``relations.proofs._conjectures``) over a fixed list of conjectures.

Run: ``python benchmarks/bench_prover.py [--quick]``.

Each conjecture of :data:`TRUE` (each follows from the facts: the comment says how) must be proved over
its whole setting, and each of :data:`FALSE` (each refuted by a mechanism named in the comment) must not
be; the script exits 1 otherwise.  It prints, per conjecture, the seconds of the proof attempt in one
process (the first one also pays for proving the catalogue's lemmas, reported apart), the facts used and
whether the finite case came with multipliers, then one line of JSON.  ``--quick`` runs every third.
"""

from __future__ import annotations

import json
import sys
import time

#: (conjecture, setting): true, with how it follows.
TRUE = (
    ("kl <= rho", "local"),  # kl_le_rho
    ("rho <= eps_d^2 / 2", "central"),  # rho_le_half_square
    ("kl <= eps_d", "local"),  # kl_le_dp
    ("renyi(2) <= 2*rho", "local"),  # renyi_le_rho at 2
    ("eps_i <= eps_d - sigma_min", "local"),  # suntay2020.thm1xii; eps_d, sigma_min finite force eps_i finite
    ("eps_m <= eps_d * tanh(eps_d / 2)", "local"),  # local_eps_m_le_kl + relations.kl_tanh
    ("kl <= eps_d^2 / 2", "local"),  # kl_le_rho + rho_le_half_square
    ("tv <= eps_d / 2", "local"),  # tv_le_tanh + tanh(u) <= u
    ("tv <= sqrt(rho / 2)", "central"),  # pinsker + kl_le_rho, sqrt monotone
    ("chi2 <= exp(2*rho) - 1", "central"),  # renyi2_chi2 + renyi_le_rho, exp monotone
    ("eps_m <= maximal_leakage", "central"),  # eps_m_le_ml
    ("min_entropy_leakage <= eps_d", "local"),  # mel_le_ml + ml_le_eps_all + eps_all = eps_d
    ("eps_delta(1/100000) <= eps_d", "central"),  # eps_delta_le_dp
    ("delta(1) <= tv", "central"),  # delta_le_tv
    ("renyi(3/2) <= renyi(3)", "central"),  # renyi_monotone
)

#: (conjecture, setting): false.
FALSE = (
    ("rho <= kl", "local"),  # rows (1/2, 1/2), (1/100, 99/100): rho >= renyi(2)/2 > kl
    ("eps_d <= kl", "local"),  # the same rows: eps_d = ln 50
    ("eps_m <= eps_d / 2", "local"),  # k-RR with k > 32
    ("kl <= tv", "local"),  # the same rows: kl > 1.6, tv = 0.49
    ("eps_m <= eps_d", "central"),  # group privacy: eps_m up to diam * eps_d on D^r
    ("maximal_leakage <= eps_d", "central"),  # r-fold k-RR products (relations.ml_dp_central)
    ("eps_i <= eps_d + sigma_min", "local"),  # the paper's example
)


def main() -> int:
    from relations.checking._conjectures import parse_conjecture
    from relations.proofs._conjectures import prove_conjecture
    from relations.proofs._derive import lemma_facts

    step = 3 if "--quick" in sys.argv else 1
    t, c = time.perf_counter(), time.process_time()
    lemma_facts()
    warm, warm_cpu = time.perf_counter() - t, time.process_time() - c
    rows, bad = [], []
    for expected, items in ((True, TRUE[::step]), (False, FALSE[::step])):
        for text, setting in items:
            t, c = time.perf_counter(), time.process_time()
            proof = prove_conjecture(parse_conjecture(text), setting)
            seconds, cpu = time.perf_counter() - t, time.process_time() - c
            proved = proof is not None and proof.whole
            if proved != expected:
                bad.append(text)
            rows.append({"conjecture": text, "setting": setting, "expected": expected, "proved": proved,
                         "seconds": round(seconds, 3), "cpu_seconds": round(cpu, 3), "facts": list(proof.used) if proof else [],
                         "multipliers": proof is not None and proof.multipliers is not None})
            print(f"{text:36s} {setting:8s} {'proved' if proved else '-':7s} {seconds:6.2f} s  "
                  + (", ".join(proof.used) if proof else ""))
    worst = max(r["seconds"] for r in rows)
    print(f"catalogue lemmas proved once: {warm:.2f} s; slowest attempt {worst:.2f} s; "
          f"{'all as expected' if not bad else 'UNEXPECTED: ' + '; '.join(bad)}")
    slowest = max(rows, key=lambda r: r["seconds"])
    print(json.dumps({"lemmas_seconds": round(warm, 3), "lemmas_cpu_seconds": round(warm_cpu, 3), "slowest": worst,
                      "slowest_cpu": slowest["cpu_seconds"], "unexpected": bad, "rows": rows}))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
