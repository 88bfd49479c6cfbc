"""``relations audit TARGET``: hand-written randomizers (correct and wrong) through worker processes,
another interpreter, sequential sampling, and seeds that fix the result wherever it runs.

Expected budgets are derived by hand in each test, never read from the tool."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import run_cli

from relations.audit import audit_target
from relations.audit._pool import WORKER

ROOT = Path(__file__).resolve().parents[1]

CODE = textwrap.dedent('''
    import math
    import os
    import random
    import numpy as np

    def krr(x, rng, k=4, eps=math.log(3)):
        """Correct k-RR with a float threshold."""
        e = math.exp(eps)
        if rng.random() < e / (e + k - 1):
            return x
        y = int(rng.integers(0, k - 1))
        return y if y < x else y + 1

    def krr_big_eps(x, rng):
        return krr(x, rng, k=3, eps=10.0)

    def krr_off_by_one(x, rng, k=4, eps=math.log(3)):
        """Wrong: the lie is drawn from all k values, the truth included."""
        e = math.exp(eps)
        if rng.random() < e / (e + k - 1):
            return x
        return int(rng.integers(0, k))

    def oue_global(x, d=3, eps=1.0):
        """Correct OUE drawing from numpy's global generator."""
        q = 1 / (math.exp(eps) + 1)
        return tuple(int(np.random.random() < (0.5 if i == x else q)) for i in range(d))

    def rare_leak(x, rng):
        """Randomized response at ln 3 that publishes the input with probability 1e-9."""
        if rng.random() < 1e-9:
            return ("leak", x)
        return x if rng.random() < 0.75 else 1 - x

    def gaussian_bug(x, rng):
        """Not enumerable (a normal draw); answers the truth 99% of the time: eps = ln 99."""
        return x if rng.normal() < 2.3263478740408408 else 1 - x

    def entropy_bug(x):
        """Randomized response on the operating system's entropy, which no seed controls."""
        return x if os.urandom(1)[0] < 192 else 1 - x

    def printing(x):
        print("chatty randomizer")
        return x if random.random() < 0.75 else 1 - x
''')


@pytest.fixture(scope="module")
def code(tmp_path_factory):
    path = tmp_path_factory.mktemp("targets") / "mechs.py"
    path.write_text(CODE)
    return path


def cli(*args, cwd=None):
    return run_cli("audit", *args, timeout=300, cwd=cwd)  # in this process (tests/conftest.py)


def test_correct_float_krr_is_consistent_and_off_by_one_is_violated(code):
    ok = cli(f"{code}:krr", "--domain", "0,1,2,3", "--eps", "ln(3)", "--json", "--workers", "2")
    assert ok.returncode == 0, ok.stderr
    data = json.loads(ok.stdout)
    assert data["verdict"] == "consistent" and data["route"] == "white-box"
    assert abs(data["eps_d"]["value"] - math.log(3)) < 1e-12
    # off by one: P(x|x) = p + (1-p)/k, P(x|x') = (1-p)/k with p = 3/6: ratio (1/2 + 1/8) / (1/8) = 5
    bad = cli(f"{code}:krr_off_by_one", "--domain", "0,1,2,3", "--eps", "ln(3)", "--json", "--workers", "2")
    assert bad.returncode == 1, bad.stderr
    assert abs(json.loads(bad.stdout)["eps_d"]["value"] - math.log(5)) < 1e-12


def test_large_eps_float_thresholds_are_not_called_wrong(code):
    report = audit_target(f"{code}:krr_big_eps", domain=[0, 1, 2], eps="10")
    assert report.verdict == "consistent"
    assert abs(report.measures.eps_d.value - 10) < 1e-9


def test_global_generator_and_worker_processes(code):
    report = audit_target(f"{code}:oue_global", domain=[0, 1, 2], eps="1", workers=2)
    assert report.verdict == "consistent"
    assert abs(report.measures.eps_d.value - 1) < 1e-12


def test_rare_leak_is_found_with_certainty(code):
    report = audit_target(f"{code}:rare_leak", domain=[0, 1], eps="ln(3)")
    assert report.verdict == "violated" and report.measures.eps_d.value == math.inf


def test_black_box_stops_early_on_a_large_violation(code):
    out = cli(f"{code}:gaussian_bug", "--domain", "0,1", "--eps", "ln(3)", "--samples", "1000000", "--json")
    assert out.returncode == 1, out.stderr
    data = json.loads(out.stdout)
    assert data["route"] == "black-box" and data["verdict"] == "violated"
    assert data["samples"] < 1_000_000 and data["rounds"] == 1
    assert math.log(3) < data["eps_d_lower"] < math.log(99)


def test_same_seed_same_result_in_process_and_in_workers(code):
    runs = [audit_target(f"{code}:gaussian_bug", domain=[0, 1], samples=30_000, seed=7, workers=w, white_box=False)
            for w in (0, 2)]
    assert runs[0].sampled.counts == runs[1].sampled.counts
    assert runs[0].sampled.eps_d_lower == runs[1].sampled.eps_d_lower
    other = audit_target(f"{code}:gaussian_bug", domain=[0, 1], samples=30_000, seed=8, white_box=False)
    assert other.sampled.counts != runs[0].sampled.counts


def test_a_seeded_chunk_is_drawn_once_unless_the_seed_does_not_control_it(code, monkeypatch):
    """An unbinned sampling of 2,000 runs per input draws the chunks that chose not to bin (the same jobs): they are
    asked of the workers once, and so is the first input's chunk drawn twice run by run; the counts are those of
    the chunks as a worker draws them.  A randomizer the seed
    does not control (its two runs of that chunk differ) has every chunk drawn afresh."""
    from collections import Counter

    from relations.audit import _pool
    from relations.audit._worker import run_job

    asked: list[tuple] = []
    real = _pool.Pool.map

    def counted(self, jobs, **keywords):
        asked.extend((j["input"], j["chunk"], j["size"], j["seed"], j["ordered"]) for j in jobs if j["task"] == "sample")
        return real(self, jobs, **keywords)
    monkeypatch.setattr(_pool.Pool, "map", counted)
    report = audit_target(f"{code}:gaussian_bug", domain=[0, 1], samples=2000, seed=7, white_box=False, workers=0)
    assert sorted(asked) == [(0, 0, 1000, 7, True)] * 2 + [(0, 0, 2000, 7, False), (1, 0, 2000, 7, False)]
    assert report.sampled.repeatable and report.sampled.samples == 2000 and report.binning == ""
    for i in (0, 1):  # the counts of each chunk as a worker draws it
        answer = run_job({"task": "sample", "target": f"{code}:gaussian_bug", "params": None, "domain": [0, 1],
                          "input": i, "chunk": 0, "size": 2000, "seed": 7})
        assert Counter({key: n for key, _, n in answer["counts"]}) == report.sampled.counts[i]
    monkeypatch.setattr(_pool.Pool, "map", counted)
    asked.clear()
    hidden = audit_target(f"{code}:entropy_bug", domain=[0, 1], samples=2000, seed=7, white_box=False, workers=0)
    assert not hidden.sampled.repeatable
    assert sorted(asked) == [(0, 0, 1000, 7, True)] * 4 + [(0, 0, 2000, 7, False)] * 2 + [(1, 0, 2000, 7, False)] * 2



def test_a_chunk_drawn_twice_that_differed_once_says_the_counts_will_not_repeat(tmp_path, monkeypatch):
    """The first chunk drawn twice differs (the randomizer's very first run in the process answers the other
    way: state no seed controls); the later ones agree.  Each sampling measured its own pair and the report kept
    the last one's; with the chunk drawn twice answered from the first pair that agreed (1448fc8), a source the
    seed does not control, one pair of runs in two apart, was told half as often (measured: 23 of 40 audits of a
    randomizer reading os.urandom once in about 2,900 runs before, 6 of 40 after).  Any pair that differed now
    says so."""
    flag = "_relations_test_first_run_seen"
    monkeypatch.delattr(sys, flag, raising=False)
    path = tmp_path / "once.py"
    path.write_text(textwrap.dedent(f'''
        import sys

        def once(x, rng):
            y = x if rng.normal() < 2.3263478740408408 else 1 - x
            if not getattr(sys, "{flag}", False):
                setattr(sys, "{flag}", True)
                y = 1 - y
            return y
    '''))
    try:
        report = audit_target(f"{path}:once", domain=[0, 1], samples=2000, seed=7, white_box=False, workers=0)
    finally:
        monkeypatch.delattr(sys, flag, raising=False)
    assert not report.sampled.repeatable
    assert "the counts will not repeat" in str(report)

def test_randomizer_prints_do_not_break_the_workers(code):
    out = cli(f"{code}:printing", "--domain", "0,1", "--eps", "ln(3)", "--workers", "1")
    assert out.returncode == 0, out.stderr
    assert "consistent" in out.stdout


def test_worker_runs_without_the_package(code, tmp_path):
    """--python: the worker loads only relations.audit's own modules (python -S: no site-packages .pth)."""
    import numpy

    site = str(Path(numpy.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=site)
    job = {"task": "enumerate", "target": f"{code}:krr", "params": None, "domain": [0, 1, 2, 3], "inputs": [0]}
    proc = subprocess.run([sys.executable, "-S", str(WORKER)], input=json.dumps(job) + "\n", capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=120)
    answer = json.loads(proc.stdout)
    assert answer["ok"], answer
    assert sum(1 for _ in answer["rows"]["0"]) == 4
    check = subprocess.run([sys.executable, "-S", "-c", "import relations"], capture_output=True, env=env,
                           cwd=tmp_path)
    assert check.returncode != 0  # the package itself was not importable there


@pytest.mark.parametrize("args,needle", [
    (["nowhere.py:f", "--domain", "0,1"], "no file"),
    (["no.such.library"], "library mechanism"),
    (["pure-ldp.oue", "--eps", "1"], "--k"),
    (["pure-ldp.oue", "--eps", "1", "--k", "4", "--param", "g=3"], "no parameter"),
    (["--list", "x"], None),
])
def test_bad_targets_are_one_line_errors(args, needle, code):
    out = cli(*args)
    if needle is None:
        return
    assert out.returncode == 2 and needle in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


@pytest.mark.slow  # a LocalCluster of its own (8 s of CPU); the default run compares a cluster's counts with local
# ones in tests/test_processes.py (test_dask_jobs_print_nothing_and_give_the_local_counts)
def test_dask_local_cluster_gives_the_same_counts(code):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl, \
            distributed.Client(cl) as client:
        client.run(lambda: sys.path.insert(0, str(code.parent)))
        on_cluster = audit_target(f"{code}:gaussian_bug", domain=[0, 1], samples=20_000, seed=3, white_box=False,
                                  scheduler=client)
    local = audit_target(f"{code}:gaussian_bug", domain=[0, 1], samples=20_000, seed=3, white_box=False)
    assert on_cluster.sampled.counts == local.sampled.counts
