"""Anchors: ``relations`` against the neighbouring libraries qif and dit on the same channels (ratios, one process).

Run: ``python benchmarks/bench_anchors.py [--quick]`` (needs ``pip install qif dit``, the ``bench`` extra;
a library that is missing is reported and skipped).

Side by side, on a random float channel with a random prior (``n x n``; ``--quick``: smaller):

* **eps_d** (local DP, every pair of inputs neighbours): ``qif.measure.d_privacy.smallest_epsilon(C,
  qif.metric.discrete())`` against :func:`relations.measures._dense.eps_d` of the float mechanism;
* **I(X;Y)**: ``qif.measure.shannon.add_leakage(prior, C)`` (bits) against :func:`relations.measures._dense.eps_m`
  (nats) of the float mechanism;
* **I(X;Y)** with dit: building the joint ``dit.Distribution`` and ``dit.shannon.mutual_information`` against
  ``relations`` (dit works on outcome lists, so its size is smaller).

``relations`` is called once before the timings (its float MI starts a thread pool once per process).
Each pair of values is compared (the libraries are independent oracles: they must agree to float accuracy,
after converting bits to nats), and each time is the best of a few runs.  It prints one row per case with
the baseline's time over the tool's (how many times slower the other library is), then one line of JSON.
"""

from __future__ import annotations

import json
import math
import sys

import numpy as np
from _clock import clock
from _clock import row as json_row

from relations.measures._dense import eps_d, eps_m
from relations.model import Channel, LocalInputs, Mechanism, Prior


def best_of(fn, repeat: int = 3) -> tuple[float, object]:
    """``fn()``'s least wall-clock seconds over ``repeat`` runs and its value; the least CPU seconds go to
    :data:`LAST_CPU`."""
    wall, cpu, out = clock(fn, repeat)
    LAST_CPU[0] = cpu
    return wall, out


#: The CPU seconds of the last :func:`best_of`.
LAST_CPU = [0.0]


def random_mechanism(rng, n: int) -> tuple[np.ndarray, np.ndarray, Mechanism]:
    q = rng.random((n, n)) + 0.01
    q /= q.sum(axis=1, keepdims=True)
    p = rng.random(n) + 0.01
    p /= p.sum()
    mech = Mechanism("local", Prior(p), Channel(q), LocalInputs(tuple(map(str, range(n)))),
                     tuple(map(str, range(n))), exact=False)
    return p, q, mech


def row(name: str, tool: float, base: float, agree: bool) -> None:
    print(f"{name:<48} relations {tool * 1e3:9.2f} ms   other {base * 1e3:10.1f} ms   other/relations "
          f"{base / tool:8.1f}x   values agree: {agree}")


def main(quick: bool = False) -> dict:
    rng = np.random.default_rng(7)
    results: dict = {"compared": []}
    eps_m(random_mechanism(rng, 64)[2])  # once per process: starts the thread pool of the float MI
    try:
        import qif
    except ImportError:
        print("qif is not installed (pip install qif): skipped")
        qif = None
    try:
        import dit
    except ImportError:
        print("dit is not installed (pip install dit): skipped")
        dit = None
    if qif is not None:
        for n in ((128, 256) if quick else (256, 1024)):
            p, q, mech = random_mechanism(rng, n)
            t_tool, ours = best_of(lambda: eps_d(mech).value)  # noqa: B023
            c_tool = LAST_CPU[0]
            t_qif, theirs = best_of(lambda: qif.measure.d_privacy.smallest_epsilon(q, qif.metric.discrete()), 1)  # noqa: B023
            results["compared"].append(json_row(f"eps_d, float {n}x{n}", (t_tool, c_tool), (t_qif, LAST_CPU[0]),
                                       "qif smallest_epsilon"))
            row(f"eps_d local {n}x{n}: qif smallest_epsilon", t_tool, t_qif, math.isclose(ours, theirs, rel_tol=1e-9))
            results[f"qif_eps_d_{n}_ratio"] = t_qif / t_tool
            t_tool, ours = best_of(lambda: float(eps_m(mech).value))  # noqa: B023
            c_tool = LAST_CPU[0]
            t_qif, theirs = best_of(lambda: qif.measure.shannon.add_leakage(p, q))  # noqa: B023
            results["compared"].append(json_row(f"I(X;Y), float {n}x{n}", (t_tool, c_tool), (t_qif, LAST_CPU[0]),
                                       "qif add_leakage"))
            row(f"I(X;Y) {n}x{n}: qif add_leakage", t_tool, t_qif, math.isclose(ours, theirs * math.log(2), rel_tol=1e-9))
            results[f"qif_mi_{n}_ratio"] = t_qif / t_tool
    if dit is not None:
        for n in ((32, 64) if quick else (64, 256)):
            p, q, mech = random_mechanism(rng, n)
            joint = (p[:, None] * q).ravel()
            outcomes = [(x, y) for x in range(n) for y in range(n)]

            def with_dit():
                d = dit.Distribution(outcomes, joint)  # noqa: B023
                return dit.shannon.mutual_information(d, [0], [1])

            t_tool, ours = best_of(lambda: float(eps_m(mech).value))  # noqa: B023
            c_tool = LAST_CPU[0]
            t_dit, theirs = best_of(with_dit, 1)
            results["compared"].append(json_row(f"I(X;Y), float {n}x{n}", (t_tool, c_tool), (t_dit, LAST_CPU[0]),
                                       "dit Distribution + mutual_information"))
            row(f"I(X;Y) {n}x{n}: dit Distribution + mutual_information", t_tool, t_dit,
                math.isclose(ours, theirs * math.log(2), rel_tol=1e-9))
            results[f"dit_mi_{n}_ratio"] = t_dit / t_tool
    missing = [name for name, lib in (("qif", qif), ("dit", dit)) if lib is None]
    print(json.dumps({**{k: v if k == "compared" else round(v, 1) for k, v in results.items()}, "missing": missing}))
    return results


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
