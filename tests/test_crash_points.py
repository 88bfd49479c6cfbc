"""Crash points, in the spirit of SQLite's crash tests: every command that writes is killed at each of its
write steps in turn, and must leave the old content or the new, then complete when run again.

The fault-injection hook is :func:`relations.io._outputs.write_step`: ``RELATIONS_CRASH_LOG=FILE`` lists a
run's write steps (so each command's steps are counted first, on an uninterrupted run), and
``RELATIONS_CRASH_AT=N`` makes the process kill itself at the N-th step, before doing it (SIGKILL, or SIGINT
with ``RELATIONS_CRASH_SIGNAL=INT``).  For each command and step:

* the command dies there (SIGKILL: status -9; SIGINT: 130, "relations: interrupted", no traceback);
* killed before the commit point (the journal's rename), the folder's visible files are the old ones, byte
  for byte;
* once a killed run's transaction is recovered (replayed or rolled back, as the next run does first), the
  whole tree is exactly the old one or exactly the new one (that of an uninterrupted run), byte for byte;
  after a Ctrl-C it is so at once (the staged files are dropped, or a commit once begun completes);
* the same command, run again without ``--force``, exits as an uninterrupted run does, and leaves exactly
  the uninterrupted run's tree: no staging folder, no temporary file, nothing else.

The default suite runs a few points per command, chosen from the step labels (the last step before the
commit point, the first after it, the last), for every command but ``figures`` and ``conjecture --file`` (whose
folders go through verify's transaction: their quick points are in the slow tier); ``-m slow`` runs every point
of every command, with SIGKILL and with SIGINT.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import ROOT, cli_command, run_cli

from relations.io._outputs import STAGING, recover

# about writes and tables, not proofs: verify skips its Coq check here (tests/test_coq_proofs.py covers it)
pytestmark = pytest.mark.usefixtures("no_coq_checks")

RANDOMIZER = str(ROOT / "examples" / "randomizer.py")
SPEC = {"mechanism": "krr", "k": [2, 3], "ratio": ["2", "3"], "relations": ["zheng2025.thm3"]}
CONJECTURES = {"conjectures": [{"id": "thm4", "statement": "eps_d <= eps_i"}]}
OLD_CONJECTURES = {"conjectures": [{"id": "thm4", "statement": "eps_d <= eps_m"}]}  # another witness as thm4.json
VARS = ("RELATIONS_CRASH_AT", "RELATIONS_CRASH_SIGNAL", "RELATIONS_CRASH_LOG")


@dataclass
class Command:
    """A command writing ``target`` (relative to the case folder), after ``before`` commands made the old state."""

    args: list[str]
    target: str
    before: list[list[str]] = field(default_factory=list)
    folder: bool = True
    incremental: bool = False  # a sweep: its chunks are kept as they finish, so "old or new" is checked on the end


COMMANDS = {
    "verify": Command(["verify", "--quick", "--only", "zheng2025.thm1", "--out", "ev"], "ev",
                      before=[["verify", "--quick", "--only", "zheng2025.thm4", "--out", "ev"]]),
    "figures": Command(["figures", "--only", "prior_skew", "--only", "central_records", "--format", "svg",
                        "--verdicts", "none.json", "--out", "figs"], "figs",
                       before=[["figures", "--only", "prior_skew", "--format", "svg", "--verdicts", "none.json",
                                "--out", "figs"]]),
    "sweep": Command(["sweep", "spec.json", "--out", "sw", "--chunk-size", "2", "--workers", "0"], "sw",
                     incremental=True),
    "conjecture-folder": Command(["conjecture", "--file", "conjectures.json", "--quick", "--out", "wit"], "wit",
                                 before=[["conjecture", "--file", "old.json", "--quick", "--out", "wit"]]),
    "optimize": Command(["optimize", "--prior", "1/2,1/2", "--notion", "eps_d", "--eps", "1", "--out", "opt.json"],
                        "opt.json", folder=False),
    "conjecture-file": Command(["conjecture", "eps_i <= eps_d + sigma_min", "--quick", "--out", "w.json"], "w.json",
                               folder=False),
    # one worker process (--workers 0) rather than one per core: the same file written, 0.6 s of CPU less a run
    "audit": Command(["audit", f"{RANDOMIZER}:privatise", "--domain", "0,1,2,3", "--eps", "ln(3)", "--workers", "0",
                      "--out", "channel.json"], "channel.json", folder=False),
}


def _default_sigint():
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a shell's background job ignores SIGINT; the child must not


def run(args, cwd, *, crash_at: int | None = None, sig: str = "KILL", log: Path | None = None):
    """The command; killed at its ``crash_at``-th write step in a child process, else run in this process
    (tests/conftest.py's ``run_cli``: an uninterrupted run, or the next run after a kill, is not about the
    process; ``log`` lists its write steps, numbered from this process's earlier steps)."""
    env = {k: v for k, v in os.environ.items() if k not in VARS}
    if log is not None:
        env["RELATIONS_CRASH_LOG"] = str(log)
    if crash_at is None:
        return run_cli(*args, cwd=cwd, env=env, timeout=300)
    env.update(RELATIONS_CRASH_AT=str(crash_at), RELATIONS_CRASH_SIGNAL=sig)
    return subprocess.run(cli_command(*args), cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
                          preexec_fn=_default_sigint)


def snapshot(folder: Path) -> dict[str, str]:
    """Every file and folder under ``folder`` (its inputs included), with its SHA-256."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "folder"
            for p in sorted(folder.rglob("*"))}


def _inputs(folder: Path) -> None:
    folder.mkdir()
    (folder / "spec.json").write_text(json.dumps(SPEC))
    (folder / "conjectures.json").write_text(json.dumps(CONJECTURES))
    (folder / "old.json").write_text(json.dumps(OLD_CONJECTURES))


@dataclass
class Reference:
    base: Path  # the old state
    old: dict[str, str]
    new: dict[str, str]
    status: int  # an uninterrupted run's exit status
    steps: list[str]  # its write steps' labels


_REFERENCES: dict[str, Reference] = {}


def reference(name: str, tmp_root: Path) -> Reference:
    """The old state, the uninterrupted run's tree and status, and its write steps (counted on that run)."""
    if name in _REFERENCES:
        return _REFERENCES[name]
    cmd = COMMANDS[name]
    base = tmp_root / f"{name}-base"
    _inputs(base)
    for args in cmd.before:
        assert run(args, base).returncode in (0, 1)
    whole = tmp_root / f"{name}-whole"
    shutil.copytree(base, whole)
    log = tmp_root / f"{name}.log"
    done = run(cmd.args, whole, log=log)
    assert done.returncode in (0, 1), done.stderr
    steps = [line.split(" ", 2)[2] for line in log.read_text().splitlines()]
    assert len(steps) >= 2
    ref = Reference(base, snapshot(base), snapshot(whole), done.returncode, steps)
    assert ref.new != ref.old
    _REFERENCES[name] = ref
    return ref


def quick_points(steps: list[str]) -> list[int]:
    """The last step before the commit point (the journal's rename), the first after it, and the last step;
    for a single file, its last step (the link into place)."""
    points = {len(steps)}
    commits = [i + 1 for i, s in enumerate(steps) if s.startswith("rename") and s.endswith("journal.json")]
    for at in commits[-1:]:
        points.update({at, at + 1})
    return sorted(points)


def _without_staging(state: dict[str, str], target: str) -> dict[str, str]:
    return {k: v for k, v in state.items() if not k.startswith(os.path.join(target, STAGING))}


def _old(state: dict[str, str], ref: Reference, target: str) -> bool:
    """The old state; or, when there was no ``target`` folder, the old state and the empty folder that a run
    killed before writing anything made (the next run takes it as it is)."""
    return state == ref.old or (target not in ref.old and state == {**ref.old, target: "folder"})


def check_point(name: str, at: int, sig: str, tmp_root: Path) -> None:
    cmd, ref = COMMANDS[name], reference(name, tmp_root)
    case = tmp_root / f"{name}-{sig}-{at}"
    shutil.copytree(ref.base, case)
    died = run(cmd.args, case, crash_at=at, sig=sig)
    if sig == "KILL":
        assert died.returncode == -signal.SIGKILL, (at, ref.steps[at - 1], died.returncode, died.stderr)
    else:
        assert died.returncode == 130 and "relations: interrupted" in died.stderr, (at, died.returncode, died.stderr)
        assert "Traceback" not in died.stderr, died.stderr
    state = snapshot(case)
    committed = any(s.startswith("rename") and s.endswith("journal.json") for s in ref.steps[:at - 1])
    if not cmd.incremental:
        if sig == "KILL" and not committed:  # before the commit point: the visible files are the old ones
            assert _old(_without_staging(state, cmd.target), ref, cmd.target), (at, ref.steps[at - 1])
        if cmd.folder and sig == "KILL":  # (a Ctrl-C is handled in the process: no recovery is left to do)
            probe = tmp_root / f"{name}-{sig}-{at}-probe"
            shutil.copytree(case, probe)
            recover(str(probe / cmd.target))
            state = snapshot(probe)
            shutil.rmtree(probe)
        assert _old(state, ref, cmd.target) or state == ref.new, (
            at, ref.steps[at - 1], set(state.items()) ^ set(ref.new.items()))
    again = run(cmd.args, case)  # the same command, no --force
    assert again.returncode == ref.status, (at, ref.steps[at - 1], again.stderr)
    assert snapshot(case) == ref.new, (at, ref.steps[at - 1], set(snapshot(case).items()) ^ set(ref.new.items()))
    shutil.rmtree(case)


@pytest.fixture(scope="module")
def tmp_root(tmp_path_factory):
    _REFERENCES.clear()
    return tmp_path_factory.mktemp("crash")


#: Killed at their quick points in the slow tier only (with every other point there): their folders are written by
#: the same transaction as verify's (relations.io._outputs), and their runs cost the most (figures draws, the
#: conjecture searches; 14 and 13 s of CPU of the file's 70).  Likewise a sweep's (killed again and again in the
#: default run below), optimize's (Ctrl-C at its quick points below) and conjecture --file's (verify's write path):
#: 8, 4 and 6 s of CPU.
SLOW_QUICK = ("figures", "conjecture-folder", "sweep", "optimize", "conjecture-file")


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_QUICK else n for n in COMMANDS])
def test_a_kill_at_a_write_point_leaves_old_or_new_and_the_command_completes(name, tmp_root):
    ref = reference(name, tmp_root)
    for at in quick_points(ref.steps):
        check_point(name, at, "KILL", tmp_root)


@pytest.mark.parametrize("name", ["verify", "optimize"])
def test_ctrl_c_at_a_write_point_leaves_old_or_new_and_the_command_completes(name, tmp_root):
    ref = reference(name, tmp_root)
    for at in quick_points(ref.steps):
        check_point(name, at, "INT", tmp_root)


@pytest.mark.slow
@pytest.mark.parametrize("sig", ["KILL", "INT"])
@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_write_point(name, sig, tmp_root):
    ref = reference(name, tmp_root)
    for at in range(1, len(ref.steps) + 1):
        check_point(name, at, sig, tmp_root)


# the default run: three kills (each a sweep process, about 0.7 s of CPU), then the run that completes, in this
# process; -m slow: runs killed at seeded steps until one completes (nine runs with this seed)
@pytest.mark.parametrize("most", [3, pytest.param(None, marks=pytest.mark.slow)], ids=["three-kills", "until-done"])
def test_a_sweep_killed_again_and_again_at_seeded_points_gives_the_rows_of_one_run(tmp_path, most):
    """Each run is killed at a random write step (seeded), ``most`` times or until one finishes, then runs to
    its end: the rows, and every file, are those of an uninterrupted run."""
    from relations.io._sweeps import read_rows

    spec = {"mechanism": "krr", "k": [2, 3, 4], "ratio": ["2", "3", "5"], "relations": ["zheng2025.thm3"]}
    args = ["sweep", "spec.json", "--out", "sw", "--chunk-size", "1", "--workers", "0"]  # 9 chunks
    whole, case = tmp_path / "whole", tmp_path / "case"
    for folder in (whole, case):
        folder.mkdir()
        (folder / "spec.json").write_text(json.dumps(spec))
    log = tmp_path / "log"
    assert run(args, whole, log=log).returncode == 0
    steps = len(log.read_text().splitlines())
    rng = random.Random(32)
    kills = 0
    for _ in range(40):
        if kills == most:
            res = run(args, case)
            assert res.returncode == 0, res.stderr
            break
        res = run(args, case, crash_at=rng.randint(1, steps // 2), sig=rng.choice(["KILL", "INT"]))
        if res.returncode == 0:
            break
        assert res.returncode in (-signal.SIGKILL, 130) and "Traceback" not in res.stderr, res.stderr
        kills += 1
    else:
        raise AssertionError("the sweep never finished")
    assert kills >= 3
    assert read_rows(str(case / "sw")) == read_rows(str(whole / "sw"))
    assert snapshot(case) == snapshot(whole)


@pytest.mark.parametrize("out", ["wit", pytest.param("made/for/it/wit", marks=pytest.mark.slow)])
def test_a_kill_in_the_compute_phase_leaves_an_empty_folder_the_next_run_takes(tmp_path, out):
    """Killed once its output folder (and the parents it made) exist and are locked, before anything is written
    (the compute phase): the folders are empty, and the same command then completes as an uninterrupted run
    into no folder does, without --force."""
    args = ["conjecture", "--file", "conjectures.json", "--quick", "--out", out]
    whole, case = tmp_path / "whole", tmp_path / "case"
    _inputs(whole)
    _inputs(case)
    log = tmp_path / "log"
    status = run(args, whole, log=log).returncode
    steps = [line.split(" ", 2)[2] for line in log.read_text().splitlines()]
    assert status in (0, 1) and steps[0].startswith("lock ")  # the folders made and locked: step 1
    died = run(args, case, crash_at=1)
    assert died.returncode == -signal.SIGKILL
    before = snapshot(case)
    assert {k for k in before if before[k] == "folder"} == {str(Path(*Path(out).parts[:i]))
                                                            for i in range(1, len(Path(out).parts) + 1)}
    again = run(args, case)
    assert again.returncode == status, again.stderr
    assert snapshot(case) == snapshot(whole)


def test_a_kill_while_verify_computes_leaves_a_folder_the_next_run_takes(tmp_path):
    """A SIGKILL from outside, at a moment of verify's search (its folder made, nothing written yet)."""
    import time

    args = ["verify", "--quick", "--only", "zheng2025.thm1", "--out", "ev"]
    log = tmp_path / "log"
    env = {k: v for k, v in os.environ.items() if k not in VARS}
    # the search waits for good (a sitecustomize module first on PYTHONPATH): the kill comes while verify
    # computes however long this test is kept waiting on a loaded machine (no race with the writes after it)
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(
        "import threading\nfrom relations.pipeline import _verify\n"
        "_verify.verify_all = lambda *args, **kwargs: threading.Event().wait()\n")
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path / "site"), str(ROOT)])
    proc = subprocess.Popen(cli_command(*args), cwd=tmp_path, env=dict(env, RELATIONS_CRASH_LOG=str(log)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_default_sigint)
    deadline = time.monotonic() + 120
    while not (log.exists() and log.read_text().strip()) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)  # until the folder is made and locked (the lock step logged)
    proc.kill()
    proc.wait()
    steps = log.read_text().splitlines() if log.exists() else []
    assert [s.split(" ", 2)[2].split(" ")[0] for s in steps] == ["lock"], steps  # killed while computing
    assert list((tmp_path / "ev").iterdir()) == []
    again = run(args, tmp_path)
    assert again.returncode == 0, again.stderr
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    assert run(args, fresh).returncode == 0
    assert snapshot(tmp_path / "ev") == snapshot(fresh / "ev")
