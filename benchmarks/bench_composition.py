"""Composition: the exact privacy profile of repeated use against Google's ``dp_accounting`` (issue 45).

Run: ``python benchmarks/bench_composition.py [--quick]`` (``dp_accounting`` is in the ``bench`` extra; when it
is missing its columns are skipped).

* **4-RR composed 10, 100, 1000 times**: ``relations``' exact ``delta(eps)`` of k-ary randomized response
  (k = 4, ratio ``e^eps0 = 3/2``) against ``dp_accounting.pld.privacy_loss_distribution.from_randomized_response``
  (``noise_parameter = 4 / (3/2 + 3) = 8/9``: the same mechanism), ``self_compose`` and
  ``get_delta_for_epsilon``, pessimistic and optimistic.  The order pessimistic >= exact >= optimistic must
  hold; both gaps are reported, with the times (wall and CPU, the best of a few runs).
* **A random 8 x 8 mechanism composed 100 times**: the certified enclosure of ``delta(eps)`` (pairs screened by
  buckets, the candidates enclosed by their count vectors split in halves), its relative width and time
  (target: 1e-9 relative within 10 s), at ``eps`` = 30 (``delta`` near 1), 120, 150, 180 and 200 (``delta``
  0.73, 0.15, 3.4e-3, 1e-4), beside the buckets alone (``max_split=0``, ``2^20`` buckets) at 120; and
  dp_accounting's ``from_two_probability_mass_functions`` on the pair that attains it (pessimistic >= the pair's
  enclosure >= optimistic, checked on the enclosure's ends).
* **eps_delta of the random 8 x 8 mechanism used 100 times** at ``delta`` = 1e-5, 0.1 and 1e-9: the certified
  bracket (enclosures of ``delta`` at rational points), its relative width (target 1e-9), the enclosures it took
  and the time, beside dp_accounting's ``get_epsilon_for_delta`` on the pair attaining it.
* **eps_m of 30 reports of 4-RR**: through the counts of each output, exactly enclosed (target: 2 s).

It prints one row per case, then one line of JSON.
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from fractions import Fraction as F

from relations import Mechanism, measure
from relations.measures import composed_delta
from relations.measures._composition import bucketed_delta
from relations.measures._halves import split_delta


def timed(fn, repeat: int = 3):
    best_wall, best_cpu, out = math.inf, math.inf, None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        best_wall = min(best_wall, time.perf_counter() - w)
        best_cpu = min(best_cpu, time.process_time() - c)
    return best_wall, best_cpu, out


def krr(k: int, r: F) -> Mechanism:
    d = r + k - 1
    return Mechanism.local([[r / d if i == j else 1 / d for j in range(k)] for i in range(k)])


def rr_rows(quick: bool) -> list[dict]:
    try:
        from dp_accounting.pld import privacy_loss_distribution as pld
    except ImportError:
        pld = None
        print("dp_accounting is not installed (pip install dp-accounting): its columns are skipped")
    r = F(3, 2)
    mech = krr(4, r)
    noise = 4 / (float(r) + 3)
    out = []
    for k, eps in ((10, F(1)), (100, F(4)), (1000, F(15)), (1000, F(40))):
        if quick and k == 1000:
            continue
        wall, cpu, res = timed(lambda k=k, eps=eps: composed_delta(mech.repeated(k), eps), 3)
        exact = float(res.value)
        lo, hi = res.value.enclose(80)
        row = {"uses": k, "eps": str(eps), "exact": exact, "exact_s": wall, "exact_cpu_s": cpu}
        if pld is not None:
            for name, pess in (("pessimistic", True), ("optimistic", False)):
                def run(pess=pess, k=k, eps=eps):
                    d = pld.from_randomized_response(noise, 4, value_discretization_interval=1e-4,
                                                     pessimistic_estimate=pess)
                    return d.self_compose(k).get_delta_for_epsilon(float(eps))
                w2, c2, value = timed(run, 1 if k == 1000 else 3)
                row[name] = value
                row[f"{name}_s"] = w2
                row[f"{name}_cpu_s"] = c2
            row["order_holds"] = F(row["pessimistic"]) >= hi and lo >= F(row["optimistic"])
            row["pessimistic_gap"] = row["pessimistic"] - exact
            row["optimistic_gap"] = exact - row["optimistic"]
        out.append(row)
        print(f"4-RR x{k:<5} eps={str(eps):<3} exact {exact:.12g} ({wall:.3f} s, cpu {cpu:.3f} s)"
              + (f"   dp_accounting pess {row['pessimistic']:.12g} (+{row['pessimistic_gap']:.3g}, "
                 f"{row['pessimistic_s']:.3f} s)  opt {row['optimistic']:.12g} (-{row['optimistic_gap']:.3g}, "
                 f"{row['optimistic_s']:.3f} s)  order holds: {row['order_holds']}" if pld is not None else ""))
    return out


def random_mechanism() -> Mechanism:
    rng = random.Random(1)
    rows = []
    for _ in range(8):
        w = [rng.randint(1, 100) for _ in range(8)]
        rows.append([F(a, sum(w)) for a in w])
    return Mechanism.local(rows)


def _dp_accounting(row: dict, pld, mech: Mechanism, w, k: int, query) -> None:
    """dp_accounting's pessimistic and optimistic ``query`` of the pair ``w`` composed ``k`` times, with their
    wall and CPU seconds, into ``row``."""
    upper = {y: math.log(p) for y, p in enumerate(mech.channel.exact[w.x])}
    lower = {y: math.log(p) for y, p in enumerate(mech.channel.exact[w.x_prime])}
    for name, pess in (("pessimistic", True), ("optimistic", False)):
        def run(pess=pess):
            d = pld.from_two_probability_mass_functions(lower, upper, pessimistic_estimate=pess,
                                                        value_discretization_interval=1e-4, symmetric=False)
            return query(d.self_compose(k))
        w2, c2, value = timed(run, 1)
        row[name], row[f"{name}_s"], row[f"{name}_cpu_s"] = value, w2, c2


def random_row(quick: bool, eps: F, max_bins: int = 1 << 18, split: bool = True) -> dict:
    """The certified enclosure of the composition's ``delta(eps)`` (the maximum over pairs), then, for the pair
    that attains it, dp_accounting's pessimistic and optimistic values against that pair's own enclosure.
    ``split=False``: the buckets alone (``max_split=0``, up to ``max_bins``), the route before the split one."""
    mech = random_mechanism()
    k = 20 if quick else 100
    eps = eps if not quick else eps * k / 100
    comp = mech.repeated(k)
    wall, cpu, res = timed(lambda: composed_delta(comp, eps, max_bins=max_bins, max_split=None if split else 0), 1)
    lo, hi = res.value.enclose(10)
    rel = float((hi - lo) / hi) if hi else 0.0
    route = "split halves" if split else f"buckets 2^{max_bins.bit_length() - 1}"
    row = {"uses": k, "eps": str(eps), "route": route, "lower": float(lo), "upper": float(hi),
           "relative_width": rel, "wall_s": wall, "cpu_s": cpu}
    print(f"random 8x8 x{k} eps={eps} {route}: delta in [{float(lo):.12g}, {float(hi):.12g}], relative width "
          f"{rel:.3g} ({wall:.2f} s, cpu {cpu:.2f} s); target 1e-9 in 10 s")
    try:
        from dp_accounting.pld import privacy_loss_distribution as pld
    except ImportError:
        return row
    w = res.witness
    parts = [(mech.channel.exact[w.x], mech.channel.exact[w.x_prime], k)]
    pair = split_delta(*parts[0], eps, exp=True) if split else None
    plo, phi = pair if pair is not None else bucketed_delta(parts, eps, exp=True, bins=1 << 14, max_bins=max_bins)
    _dp_accounting(row, pld, mech, w, k, lambda d: d.get_delta_for_epsilon(float(eps)))
    row["pair"] = [w.x, w.x_prime]
    row["pair_lower"], row["pair_upper"] = float(plo), float(phi)
    pess, opt = F(row["pessimistic"]), F(row["optimistic"])
    # certified only when the pair's enclosure separates: pessimistic >= its upper end, its lower end >= optimistic
    row["order"] = ("holds" if pess >= phi and plo >= opt else "violated" if pess < plo or opt > phi
                    else "undecided (a dp_accounting value lies inside the enclosure)")
    print(f"   pair x={w.x}, x'={w.x_prime}: [{float(plo):.12g}, {float(phi):.12g}]; dp_accounting pess "
          f"{row['pessimistic']:.12g} ({row['pessimistic_s']:.2f} s, cpu {row['pessimistic_cpu_s']:.2f} s), opt "
          f"{row['optimistic']:.12g} ({row['optimistic_s']:.2f} s, cpu {row['optimistic_cpu_s']:.2f} s); order: "
          f"{row['order']}")
    return row


def eps_delta_row(quick: bool, level: F) -> dict:
    """The certified enclosure of the random 8 x 8 mechanism's ``eps_delta(level)`` over ``k`` uses (a bracket proved
    by enclosures of ``delta`` at rational points): its ends, relative width, the enclosures it took and the time;
    with dp_accounting's pessimistic and optimistic ``eps`` for the pair attaining it when installed."""
    from relations.measures._composition import composed_eps_delta

    mech = random_mechanism()
    k = 20 if quick else 100
    wall, cpu, res = timed(lambda: composed_eps_delta(mech.repeated(k), level), 1)
    lo, hi = res.value.enclose(10)
    rel = float((hi - lo) / hi) if hi else 0.0
    row = {"uses": k, "delta": str(level), "lower": float(lo), "upper": float(hi), "relative_width": rel,
           "enclosures": int(res.detail.split("; ")[1].split(" ")[0]) if "; " in res.detail else 0,
           "wall_s": wall, "cpu_s": cpu}
    print(f"random 8x8 x{k} eps_delta({level}) in [{float(lo):.15g}, {float(hi):.15g}], relative width {rel:.3g}, "
          f"{row['enclosures']} enclosures ({wall:.2f} s, cpu {cpu:.2f} s); target 1e-9")
    try:
        from dp_accounting.pld import privacy_loss_distribution as pld
    except ImportError:
        return row
    w = res.witness
    _dp_accounting(row, pld, mech, w, k, lambda d: d.get_epsilon_for_delta(float(level)))
    # the composition's eps_delta is at least the pair's, so only pessimistic >= lower is implied by the enclosure
    print(f"   pair x={w.x}, x'={w.x_prime}: dp_accounting pess {row['pessimistic']:.12g} ({row['pessimistic_s']:.2f} s),"
          f" opt {row['optimistic']:.12g} ({row['optimistic_s']:.2f} s)")
    return row


def eps_m_row() -> dict:
    mech = krr(4, F(3))

    def run():
        return measure(mech.repeated(30).sufficient()).eps_m

    wall, cpu, mi = timed(run, 3)
    lo, hi = mi.enclosure.lower, mi.enclosure.upper
    print(f"eps_m of 30 reports of 4-RR (ratio 3): [{float(lo):.15g}, {float(hi):.15g}] ({wall:.3f} s, cpu {cpu:.3f} s);"
          " target 2 s")
    return {"lower": float(lo), "upper": float(hi), "wall_s": wall, "cpu_s": cpu}


def main(quick: bool = False) -> dict:
    levels = (150,) if quick else (30, 120, 150, 180, 200)  # quick: one row, at a moderate delta
    eights = [random_row(quick, F(eps)) for eps in levels]
    if not quick:
        eights.append(random_row(quick, F(120), max_bins=1 << 20, split=False))
    inverse = [eps_delta_row(quick, level) for level in (F(1, 10**5),) + (() if quick else (F(1, 10), F(1, 10**9)))]
    results = {"randomized_response": rr_rows(quick), "random_8x8": eights, "random_8x8_eps_delta": inverse,
               "eps_m_30": eps_m_row()}
    print(json.dumps(results))
    return results


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:])
