"""relations sweep: grids and bounded-exhaustive families in resumable Parquet chunks, locally and on Dask."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import threading
import time
from collections import Counter
from fractions import Fraction

import pytest

pytest.importorskip("pyarrow")

from conftest import ROOT, cli_command, run_cli  # noqa: E402

from relations import Mechanism, check, load, measure  # noqa: E402
from relations.app._sweep import run_sweep
from relations.catalogue import get  # noqa: E402
from relations.io._sweeps import read_rows  # noqa: E402
from relations.mechanisms import krr, product  # noqa: E402
from relations.sweeps._spec import MAX_POINTS, parse_spec  # noqa: E402

GRID = {"mechanism": "krr", "k": [2, 3], "ratio": ["2", "10"], "prior": ["uniform", {"skewed": "1/2"}],
        "records": [1, 3], "relations": ["zheng2025.thm1", "zheng2025.thm5", "zheng2025.thm9"]}
FAMILY = {"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 3},
          "relations": ["zheng2025.thm4", "relations.thm4_corrected", "zheng2025.thm12"]}


def _key(rows):
    return [{k: v for k, v in r.items()} for r in rows]


def test_grid_matches_measure_on_independently_built_mechanisms(tmp_path):
    run = run_sweep(GRID, out=str(tmp_path), chunk_size=3, workers=0)
    rows = read_rows(str(tmp_path))
    assert run.chunks == 6 and [r["index"] for r in rows] == list(range(16))
    seen = set()
    counts = {rel: Counter() for rel in GRID["relations"]}
    for row in rows:
        k, ratio, r = row["k"], Fraction(row["ratio"]), row["records"]
        p = [Fraction(1, k)] * k if row["prior"] == "uniform" else [Fraction(1, 2)] + [Fraction(1, 2 * (k - 1))] * (k - 1)
        mech = product(krr(k, ratio), r, prior=[p] * r)
        m = measure(mech)
        assert row["error"] is None
        for name in ("eps_i", "eps_d", "sigma_min"):
            assert row[name] == str(getattr(m, name).exact)
            assert row[name + "_value"] == getattr(m, name).value
        lo, hi = Fraction(row["eps_m_lower"]), Fraction(row["eps_m_upper"])
        assert lo <= hi and lo <= m.eps_m.enclosure.upper and m.eps_m.enclosure.lower <= hi and hi - lo < Fraction(1, 2**100)
        report = check(mech, relations=[get(rel) for rel in GRID["relations"]])
        status = {o.relation.id: str(o.status) for o in report.outcomes}
        for rel in GRID["relations"]:
            assert row["status:" + rel] == status[rel]
            counts[rel][status[rel]] += 1
        seen.add((k, row["ratio"], row["prior"], r))
    assert len(seen) == 16
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert {rel: Counter(e["counts"]) for rel, e in summary["relations"].items()} == counts
    assert "every point of the grid of 'krr' (16 mechanisms): " in run.text


def test_grid_points_a_mechanism_refuses_are_errors(tmp_path):
    run = run_sweep({"mechanism": "subset", "k": 3, "s": [1, 4], "ratio": "2", "relations": ["zheng2025.thm3"]},
                    out=str(tmp_path), workers=0)
    rows = read_rows(str(tmp_path))
    assert rows[0]["error"] is None and rows[1]["error"] and rows[1]["status:zheng2025.thm3"] is None
    assert run.summary["errors"] == 1 and run.summary["relations"]["zheng2025.thm3"]["counts"] == {"holds": 1, "error": 1}


def _brute_force(n, m, den):
    values = sorted({Fraction(a, b) for b in range(1, den + 1) for a in range(b + 1)})
    rows = [r for r in itertools.product(values, repeat=m) if sum(r) == 1]
    priors = [p for p in itertools.product(values, repeat=n) if sum(p) == 1]
    return priors, rows


@pytest.mark.parametrize("n,m,den", [(2, 2, 3), (2, 3, 2), (3, 2, 4), (3, 3, 3)])
def test_family_count_is_the_brute_force_count(n, m, den):
    priors, rows = _brute_force(n, m, den)
    spec = parse_spec({"exhaustive": {"inputs": n, "outputs": m, "denominator": den}})
    assert spec.count == len(priors) * len(rows) ** n
    positive = parse_spec({"exhaustive": {"inputs": n, "outputs": m, "denominator": den, "prior": "positive"}})
    assert positive.count == sum(all(x > 0 for x in p) for p in priors) * len(rows) ** n


def test_bounded_exhaustive_family(tmp_path):
    run = run_sweep(FAMILY, out=str(tmp_path), chunk_size=20, workers=0)
    rows = read_rows(str(tmp_path))
    priors, chans = _brute_force(2, 2, 3)
    expected = {(p, c) for p in priors for c in itertools.product(chans, repeat=2)}
    got = {(tuple(map(Fraction, r["prior"].split(","))),
            tuple(tuple(map(Fraction, row.split(","))) for row in r["channel"].split(";"))) for r in rows}
    assert len(rows) == 125 == len(expected) and got == expected
    verdicts = {rel: e["verdict"] for rel, e in run.summary["relations"].items()}
    assert verdicts["relations.thm4_corrected"] == "every 2 x 2 mechanism with denominators <= 3: holds"
    assert verdicts["zheng2025.thm4"].startswith("every 2 x 2 mechanism with denominators <= 3: fails; first "
                                                 "counterexample #")
    first = min(r["index"] for r in rows if r["status:zheng2025.thm4"] == "fails")
    assert run.summary["relations"]["zheng2025.thm4"]["first counterexample"]["index"] == first
    # the counterexample file re-checks exactly, and is the point it names
    mech = load(str(tmp_path / "counterexamples" / "zheng2025.thm4.json"))
    assert {o.relation.id: str(o.status) for o in check(mech).outcomes}["zheng2025.thm4"] == "fails"
    point = rows[first]
    built = Mechanism.local([r.split(",") for r in point["channel"].split(";")], prior=point["prior"].split(","))
    assert (mech.channel.exact, mech.prior.exact) == (built.channel.exact, built.prior.exact)
    assert (tmp_path / "counterexamples" / "zheng2025.thm12.json").exists()  # a witness of the non-implication


@pytest.mark.parametrize("processes", [pytest.param(True, marks=pytest.mark.slow), False],
                         ids=["processes", "threads"])  # worker processes take about 15 s to start here
def test_dask_local_cluster_gives_the_same_rows(tmp_path, processes):
    distributed = pytest.importorskip("distributed")
    run_sweep(FAMILY, out=str(tmp_path / "inline"), chunk_size=25, workers=0)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=processes, dashboard_address=None) \
            as cluster, \
            distributed.Client(cluster) as client:
        run = run_sweep(FAMILY, out=str(tmp_path / "dask"), chunk_size=25, scheduler=client)
    assert sorted(run.computed) == list(range(5))
    assert read_rows(str(tmp_path / "dask")) == read_rows(str(tmp_path / "inline"))


def test_an_unreachable_scheduler_is_one_line():
    pytest.importorskip("distributed")
    from relations.errors import InputError
    from relations.sweeps._chunks import connect

    with pytest.raises(InputError, match=r"^--scheduler tcp://127.0.0.1:1: cannot connect"):
        connect("tcp://127.0.0.1:1", timeout=1)


def test_local_process_pool_gives_the_same_rows(tmp_path):
    run_sweep(FAMILY, out=str(tmp_path / "inline"), chunk_size=25, workers=0)
    run = run_sweep(FAMILY, out=str(tmp_path / "pool"), chunk_size=25, workers=2)
    assert sorted(run.computed) == list(range(5))
    assert read_rows(str(tmp_path / "pool")) == read_rows(str(tmp_path / "inline"))


def _chunk_files(folder):
    path = os.path.join(folder, "chunks")
    return sorted(n for n in os.listdir(path) if n.endswith(".parquet") and not n.startswith(".")) \
        if os.path.isdir(path) else []


# a sitecustomize module (first on PYTHONPATH) that makes the command's fourth chunk wait for good: a kill then
# comes in the middle of the sweep however fast or loaded the machine (no race with the sweep's end)
_FOURTH_CHUNK_WAITS = """
import threading
from relations.sweeps import _chunks

real, started = _chunks.evaluate_chunk, []

def gated(*args, **kwargs):
    started.append(1)
    if len(started) > 3:
        threading.Event().wait()
    return real(*args, **kwargs)

_chunks.evaluate_chunk = gated
"""


def test_sigkill_and_resume(tmp_path):
    spec = {"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 3},
            "relations": ["zheng2025.thm4", "zheng2025.thm7", "zheng2025.thm11"]}  # 125 points, 25 chunks
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(json.dumps(spec))
    out = tmp_path / "out"
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(_FOURTH_CHUNK_WAITS)
    args = cli_command("sweep", str(spec_file), "--out", str(out), "--chunk-size", "5", "--workers", "0")
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path / "site"), str(ROOT)])))
    deadline = time.monotonic() + 300  # a hang guard
    while len(_chunk_files(out)) < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    before = {n: (out / "chunks" / n).read_bytes() for n in _chunk_files(out)}
    assert len(before) == 3, "the sweep was not killed after its third chunk"
    assert not (out / "summary.json").exists()
    done = run_cli(*args[3:], cwd=ROOT)  # the resumed run: in this process (tests/conftest.py)
    assert done.returncode == 0, done.stderr
    assert f"25 chunks ({25 - len(before)} computed now, {len(before)} done before)" in done.stdout
    after = _chunk_files(out)
    assert after == [f"{c:05d}.parquet" for c in range(25)]
    assert all((out / "chunks" / n).read_bytes() == data for n, data in before.items())  # none computed twice
    log = [json.loads(line)["chunk"] for line in (out / "chunks.jsonl").read_text().splitlines()]
    assert log == list(range(25))
    rows = read_rows(str(out))
    run_sweep(spec, out=str(tmp_path / "whole"), chunk_size=5, workers=0)
    assert rows == read_rows(str(tmp_path / "whole"))


def test_chunks_missing_from_the_manifest_are_adopted_not_recomputed(tmp_path):
    run_sweep(FAMILY, out=str(tmp_path), chunk_size=50, workers=0)
    (tmp_path / "chunks.jsonl").write_text('{"chunk": 0, "file": "chunks/00000.par')  # killed mid-line
    (tmp_path / "chunks" / "00002.parquet").unlink()
    (tmp_path / "chunks" / ".tmp-x-00002.parquet").write_bytes(b"partial")
    run = run_sweep(FAMILY, out=str(tmp_path), workers=0)
    assert run.computed == [2] and run.resumed == 2
    assert not (tmp_path / "chunks" / ".tmp-x-00002.parquet").exists()
    assert len(read_rows(str(tmp_path))) == 125


def test_a_different_spec_into_the_same_folder_is_refused(tmp_path, capsys):
    from relations.cli import main

    spec = tmp_path / "a.json"
    spec.write_text(json.dumps(FAMILY))
    other = tmp_path / "b.json"
    other.write_text(json.dumps(dict(FAMILY, relations=["zheng2025.thm4"])))
    out = str(tmp_path / "out")
    with pytest.raises(SystemExit) as exit_:
        main(["sweep", str(spec), "--out", out, "--workers", "0", "--chunk-size", "50"])
    assert exit_.value.code == 0
    capsys.readouterr()
    for argv in (["sweep", str(other), "--out", out], ["sweep", str(spec), "--out", out, "--chunk-size", "10"]):
        with pytest.raises(SystemExit) as exit_:
            main(argv + ["--workers", "0"])
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and err.count("\n") == 1 and "holds a different sweep" in err and "--force" in err
    with pytest.raises(SystemExit) as exit_:
        main(["sweep", str(other), "--out", out, "--workers", "0", "--force", "--json"])
    assert exit_.value.code == 0
    summary = json.loads(capsys.readouterr().out)
    assert list(summary["relations"]) == ["zheng2025.thm4"] and summary["computed"] == 2  # 64 points a chunk: the new sweep's default
    # a folder with chunk files relations did not write is refused too
    stray = tmp_path / "stray"
    (stray / "chunks").mkdir(parents=True)
    (stray / "chunks" / "00000.parquet").write_text("mine")
    with pytest.raises(SystemExit) as exit_:
        main(["sweep", str(spec), "--out", str(stray), "--workers", "0"])
    assert exit_.value.code == 2 and (stray / "chunks" / "00000.parquet").read_text() == "mine"


BAD = [
    ("[1, 2]", "expected a JSON object"),
    ('{"mechanism": "krr", "k": 2, "k": 3, "ratio": "2"}', "appears twice"),
    ('{"mechanism": "krr", "k": 2, "ratio": "2", "epsilon": 1}', "unknown key 'epsilon'"),
    ('{"mechanism": "krr", "ratio": "2"}', "parameter 'k' is missing"),
    ('{"mechanism": "nope"}', "unknown mechanism"),
    ('{"mechanism": "krr", "k": [2, 0], "ratio": "2"}', "whole numbers in 1..4096"),
    ('{"mechanism": "krr", "k": 2, "ratio": "2**3"}', "is not a number"),
    ('{"mechanism": "krr", "k": 2, "ratio": "2", "prior": [{"skewed": "3/2"}]}', "must lie in [0, 1]"),
    ('{"mechanism": "krr", "k": 2, "ratio": "2", "relations": ["zheng2025.thm99"]}', "unknown relation id"),
    ('{"mechanism": "krr", "k": [2, 2], "ratio": "2"}', "a value appears twice"),
    ('{"mechanism": "krr", "k": 2, "ratio": "2", "records": [0]}', "records"),
    (f'{{"mechanism": "krr", "k": {list(range(2, 2050))}, "ratio": {json.dumps([str(i) for i in range(2, 2051)])}}}',
     "more than the limit of 4000000"),
    ('{"exhaustive": {"inputs": 3, "outputs": 3, "denominator": 9}}', "more than the limit of 4000000"),
    ('{"exhaustive": {"inputs": 4, "outputs": 4, "denominator": 9, "symmetry": "relabel"}}', "more than the limit of "
     "1000000000 for a sweep up to relabelling"),
    ('{"exhaustive": {"inputs": 3, "outputs": 3, "denominator": 16, "prior": "uniform", "symmetry": "relabel"}}',
     "up to relabelling: "),
    ('{"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 2, "symmetry": "inputs"}}', 'expected "none" or'),
    ('{"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 17}}', "1..16"),
    ('{"exhaustive": {"inputs": 2, "outputs": 2}}', "'denominator' is missing"),
    ('{"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 2, "prior": "some"}}', "prior"),
    ('{"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 2}, "mechanism": "krr"}', "unknown key 'mechanism'"),
    ('{"mechanism": "krr", "k": 2, "ratio": NaN}', "NaN is not allowed"),
    ("{not json", "not JSON"),
]


@pytest.mark.parametrize("text,message", BAD, ids=[m for _, m in BAD])
def test_bad_specs_are_one_line_exit_2(tmp_path, capsys, text, message):
    from relations.cli import main

    spec = tmp_path / "spec.json"
    spec.write_text(text)
    with pytest.raises(SystemExit) as exit_:
        main(["sweep", str(spec), "--out", str(tmp_path / "out"), "--workers", "0"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "out").exists()  # refused before the folder is touched
    assert MAX_POINTS == 4_000_000


def test_bad_options_exit_2(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(FAMILY))
    run = run_cli("sweep", str(spec), "--out", str(tmp_path / "o"), "--chunk-size", "0")
    assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr


#: The gate of test_ctrl_c_on_a_dask_cluster_then_resume: the real evaluate_chunk, how many chunks started, and
#: whether the others may run.
_GATE: dict = {"real": None, "started": 0, "open": threading.Event()}


def _gated_evaluate_chunk(*args, **kwargs):
    """``evaluate_chunk``, the fourth call on waiting until the gate is open (at module level: the scheduler
    pickles it by name to send it to the worker)."""
    _GATE["started"] += 1
    if _GATE["started"] > 3:
        _GATE["open"].wait(300)  # a hang guard
    return _GATE["real"](*args, **kwargs)


@pytest.mark.slow  # a LocalCluster of processes started and stopped twice: 15 s of CPU; the default run keeps
# Ctrl-C between a cluster's chunks (test_ctrl_c_on_a_dask_cluster_is_raised_between_chunks) and resuming after a
# kill (test_sigkill_and_resume)
def test_ctrl_c_on_a_dask_cluster_then_resume(tmp_path, monkeypatch):
    # the command line against a LocalCluster's address: Ctrl-C mid-way exits 130 with one line, keeps the
    # finished chunks; the same command then computes only the others (none twice, none lost)
    distributed = pytest.importorskip("distributed")
    from relations.sweeps import _chunks

    spec = {"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 5},
            "relations": ["zheng2025.thm4", "zheng2025.thm7", "zheng2025.thm11"]}
    values = {Fraction(a, b) for b in range(1, 6) for a in range(b + 1)}  # each entry: 0, 1/5, 1/4, ..., 1
    n = -(-len(values) ** 3 // 5)  # chunks of 5: the prior and the two rows are each one such value and its complement
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(json.dumps(spec))
    out = tmp_path / "out"
    # the cluster's worker is a thread of this process, and the command's tasks name evaluate_chunk by its
    # module: gated here, three chunks finish and the others wait until the command has been interrupted,
    # so the Ctrl-C comes in the middle of the sweep however fast or loaded the machine (no race with its end)
    opened = _GATE["open"]
    _GATE["started"] = 0
    opened.clear()
    _GATE["real"] = _chunks.evaluate_chunk
    monkeypatch.setattr(_chunks, "evaluate_chunk", _gated_evaluate_chunk)
    try:
        with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                                      dashboard_address=None) as cluster:  # a tcp:// address, for another process
            args = cli_command("sweep", str(spec_file), "--out", str(out), "--chunk-size", "5",
                               "--scheduler", cluster.scheduler_address)
            proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
            deadline = time.monotonic() + 300  # a hang guard
            while len(_chunk_files(out)) < 3 and time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.01)
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=300)  # a hang guard
            opened.set()  # the waiting chunk ends, its result dropped (cancelled); the resumed run is not held
            assert proc.returncode == 130, err
            before = {n: (out / "chunks" / n).read_bytes() for n in _chunk_files(out)}
            assert len(before) == 3, "the sweep was not interrupted after its third chunk"
            assert err.strip() == (f"relations: interrupted; 3 finished chunks kept in {out}: run the same "
                                   "command to compute only the missing ones")
            assert not (out / "summary.json").exists()
            done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)  # a hang guard
    finally:
        opened.set()
    assert done.returncode == 0, done.stderr
    assert f"{n} chunks ({n - len(before)} computed now, {len(before)} done before)" in done.stdout
    assert _chunk_files(out) == [f"{c:05d}.parquet" for c in range(n)]
    assert all((out / "chunks" / n).read_bytes() == data for n, data in before.items())  # none computed twice
    log = [json.loads(line)["chunk"] for line in (out / "chunks.jsonl").read_text().splitlines()]
    assert sorted(log) == list(range(n))  # each chunk logged once, in the order the cluster finished them
    assert _GATE["started"] >= n  # the cluster ran the gated evaluate_chunk: the gate was in force
    run_sweep(spec, out=str(tmp_path / "inline"), chunk_size=n, workers=0)
    assert read_rows(str(out)) == read_rows(str(tmp_path / "inline"))


def test_ctrl_c_on_a_dask_cluster_is_raised_between_chunks(caplog):
    # a Ctrl-C while a Dask sweep runs is noted, not raised inside distributed's blocking calls (where
    # distributed 2026.8 can log a NameError traceback from its event loop); the sweep raises it itself before
    # its next chunk, cancels the rest and gives the caller back its own handler
    distributed = pytest.importorskip("distributed")
    from relations.sweeps._chunks import sweep

    spec = parse_spec({"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 3},
                       "relations": ["zheng2025.thm4"]})
    handler = signal.getsignal(signal.SIGINT)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        chunks = sweep(spec, chunk_size=4, scheduler=client)
        seen = [next(chunks)[0]]
        os.kill(os.getpid(), signal.SIGINT)  # without the deferral, KeyboardInterrupt is raised here
        time.sleep(0.2)
        with pytest.raises(KeyboardInterrupt):
            seen.extend(c for c, _ in chunks)
        assert len(seen) < -(-spec.count // 4)  # stopped before the end
        assert signal.getsignal(signal.SIGINT) is handler
        assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text
