"""Benchmark of the optimal-mechanism solvers (targets: LP at k = 64 and Blahut-Arimoto at k = 256, each < 5 s).

Run: ``python benchmarks/bench_optimal.py``.  Times the float solvers (the LP through scipy's HiGHS with the
column-extrema formulation; Blahut-Arimoto to convergence at a fixed slope) and, for reference, the whole
exact pipeline (solve, round to rationals, exact budget check) on the same inputs.
"""

from __future__ import annotations

import json
import time
from fractions import Fraction

import numpy as np

from relations.tradeoffs.optimal import _lp, blahut_arimoto, optimal_dp, optimal_id, optimal_mi


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def main() -> dict:
    rng = np.random.default_rng(2026)
    results = {}
    k = 64
    w = rng.integers(1, 20, size=k)
    prior = [Fraction(int(v), int(w.sum())) for v in w]
    p = np.array([float(v) for v in prior])
    loss = 1.0 - np.eye(k)
    t_dp, (_, v_dp) = timed(lambda: _lp(p, loss, 3.0, False))
    t_id, (_, v_id) = timed(lambda: _lp(p, loss, 60.0, True))
    t_dp_exact, o_dp = timed(lambda: optimal_dp(prior, "ln(3)"))
    t_id_exact, o_id = timed(lambda: optimal_id(prior, "ln(60)"))
    print(f"LP dp, k={k}:  solver {t_dp:6.2f} s (distortion {v_dp:.6f}); exact pipeline {t_dp_exact:6.2f} s "
          f"(exact distortion {float(o_dp.distortion):.6f}, mixing {o_dp.mixing})")
    print(f"LP id, k={k}:  solver {t_id:6.2f} s (distortion {v_id:.6f}); exact pipeline {t_id_exact:6.2f} s "
          f"(exact distortion {float(o_id.distortion):.6f}, mixing {o_id.mixing})")
    results |= {"lp_dp_64_s": t_dp, "lp_id_64_s": t_id, "lp_dp_64_exact_s": t_dp_exact, "lp_id_64_exact_s": t_id_exact}

    k = 256
    w = rng.integers(1, 20, size=k)
    prior = [Fraction(int(v), int(w.sum())) for v in w]
    p = np.array([float(v) for v in prior])
    loss = 1.0 - np.eye(k)
    t_ba, res = timed(lambda: blahut_arimoto(p, loss, 3.0))
    print(f"Blahut-Arimoto, k={k}, slope 3: {t_ba:6.2f} s (D {res[1]:.6f}, R {res[2]:.6f}, "
          f"gap {res[4] - res[3]:.2e})")
    t_mi, o_mi = timed(lambda: optimal_mi(prior, "1"))
    print(f"optimal_mi, k={k}, I <= 1 (bisection on the slope + exact check): {t_mi:6.2f} s "
          f"(distortion {o_mi.value:.6f}, gap {o_mi.gap:.2e})")
    results |= {"ba_256_s": t_ba, "optimal_mi_256_s": t_mi}
    return results


if __name__ == "__main__":
    print(json.dumps({k: round(v, 3) for k, v in main().items()}))
