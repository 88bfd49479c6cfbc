"""Output folders as locked transactions (relations.io._outputs): one run at a time, race-free creation of
the files a user names, reserved names, and recovery of what a killed run left.

The crash points themselves (a kill at every write step of every command) are tests/test_crash_points.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import pytest
from conftest import cli_command, run_cli

from relations.errors import InputError
from relations.io import _outputs
from relations.io._outputs import MANIFEST, STAGING, OutputDir, check_output_file, create_file, recover

# about writes and tables, not proofs: verify skips its Coq check here (tests/test_coq_proofs.py covers it)
pytestmark = pytest.mark.usefixtures("no_coq_checks")

FAST = ["verify", "--quick", "--only", "zheng2025.thm1"]


def run(*args, cwd, process: bool = False):
    """The command line, in this process (tests/conftest.py's ``run_cli``) unless ``process``: a run that must
    meet a lock this process holds is another process (in the same thread, a second lock of a folder closes an
    earlier one left open, as a notebook's next call does)."""
    return run_cli(*map(str, args), cwd=cwd, process=process, timeout=300)


def tree(folder) -> dict[str, bytes]:
    return {os.path.relpath(os.path.join(d, n), folder): open(os.path.join(d, n), "rb").read()
            for d, _, names in os.walk(folder) for n in names}


def consistent(folder) -> bool:
    """Every file the manifest lists has the SHA-256 it records (computed here with hashlib)."""
    with open(os.path.join(folder, MANIFEST), encoding="utf-8") as fh:
        files = json.load(fh)["files"]
    return all(hashlib.sha256(open(os.path.join(folder, *n.split("/")), "rb").read()).hexdigest() == sha
               for n, sha in files.items())


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_run_into_a_folder_another_run_holds_is_refused_with_one_line_naming_it(tmp_path):
    out = tmp_path / "ev"
    assert run(*FAST, "--out", out, cwd=tmp_path).returncode == 0
    before = tree(out)
    first = OutputDir(str(out), hold=True)
    first.lock()  # this process plays the first run
    try:
        res = run(*FAST, "--out", out, cwd=tmp_path, process=True)
    finally:
        first.close()
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert res.stderr.startswith("relations: error:") and f"another relations run (process {os.getpid()})" in res.stderr
    assert tree(out) == before  # nothing left behind: no lock file, no staging
    for _ in range(2):  # runs one after another are all accepted
        assert run(*FAST, "--out", out, cwd=tmp_path).returncode == 0
        assert tree(out) == before and consistent(out)


def test_two_verify_runs_at_once_one_refused_or_both_in_turn_and_the_manifest_consistent(tmp_path):
    out = tmp_path / "ev"
    args = cli_command("verify", "--quick", "--only", "zheng2025.thm4", "--only", "zheng2025.thm1", "--out", str(out))
    procs = [subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    results = [(p.wait(timeout=300), p.stderr.read()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    codes = sorted(code for code, _ in results)
    assert codes in ([0, 0], [0, 2]), results
    for code, err in results:
        if code == 2:
            assert err.count("\n") == 1 and "another relations run" in err, err
    assert consistent(out) and not (out / STAGING).exists()
    assert run("verify", "--quick", "--only", "zheng2025.thm4", "--only", "zheng2025.thm1", "--out", out,
               cwd=tmp_path).returncode == 0


def test_a_lock_is_not_kept_by_a_forked_child():
    import fcntl
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        folder = OutputDir(d, hold=True)
        folder.lock()
        held_r, held_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child outlives the parent's lock: it runs until the parent has checked (not a sleep)
            os.close(held_w)
            os.read(held_r, 1)
            os._exit(0)
        os.close(held_r)
        try:
            folder.close()
            fd = os.open(d, os.O_RDONLY)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free although the child still runs
            finally:
                os.close(fd)
            assert os.waitpid(pid, os.WNOHANG) == (0, 0)  # the child still ran during the check
        finally:
            os.close(held_w)
            os.waitpid(pid, 0)


@pytest.mark.parametrize("tmpfile", [True, False], ids=["O_TMPFILE", "temporary-name"])
def test_a_file_made_after_the_check_is_never_replaced(tmp_path, monkeypatch, tmpfile):
    if not tmpfile:
        monkeypatch.delattr(os, "O_TMPFILE", raising=False)
    path = str(tmp_path / "out.json")
    check_output_file(path)  # free when the command starts
    with open(path, "w") as fh:  # the user makes it while the command runs
        fh.write("mine")
    with pytest.raises(InputError, match="exists; use --force"):
        create_file(path, b"tool's")
    assert open(path).read() == "mine" and os.listdir(tmp_path) == ["out.json"]  # no temporary file left
    create_file(path, b"tool's", force=True)
    assert open(path).read() == "tool's" and os.listdir(tmp_path) == ["out.json"]


def test_a_complete_file_whose_temporary_name_survived_a_kill_counts_as_the_tools(tmp_path):
    """The temporary-name route links the file into place, then removes its temporary name; killed between the
    two, the file is complete and the stale name (of a process no longer running) is a hard link to it."""
    path = tmp_path / "out.json"
    path.write_text("complete")
    stale = tmp_path / f".tmp-{dead_pid()}-abcdefgh-out.json"
    os.link(path, stale)
    check_output_file(str(path))  # not refused: the same command completes
    create_file(str(path), b"again")
    assert path.read_text() == "again" and os.listdir(tmp_path) == ["out.json"]
    other = tmp_path / "other.json"
    other.write_text("the user's")
    os.link(other, tmp_path / f".tmp-{os.getpid()}-abcdefgh-other.json")  # a live writer's: not adopted
    with pytest.raises(InputError):
        check_output_file(str(other))


def test_a_conjecture_id_taking_a_reserved_name_is_refused_before_any_search(tmp_path):
    conj = tmp_path / "c.json"
    for cid in (".relations-output", "verdicts"):
        conj.write_text(json.dumps({"conjectures": [{"id": "a", "statement": "eps_d <= eps_m"},
                                                    {"id": cid, "statement": "eps_d <= eps_i"}]}))
        res = run("conjecture", "--file", conj, "--out", tmp_path / "w", cwd=tmp_path)
        assert res.returncode == 2 and res.stderr.count("\n") == 1 and "reserved" in res.stderr, res.stderr
        assert f"{cid}.json" in res.stderr and sorted(os.listdir(tmp_path)) == ["c.json"]
    for name in (MANIFEST, STAGING, f"{STAGING}/x", "../x", "/etc/x"):
        with pytest.raises(InputError):
            OutputDir(str(tmp_path / "w")).write_text(name, "x")
    assert sorted(os.listdir(tmp_path)) == ["c.json"]


def test_a_refused_sweep_leaves_nothing_behind(tmp_path):
    pytest.importorskip("pyarrow")
    spec = tmp_path / "a.json"
    spec.write_text(json.dumps({"mechanism": "krr", "k": [2], "ratio": ["2"], "relations": ["zheng2025.thm3"]}))
    other = tmp_path / "b.json"
    other.write_text(json.dumps({"mechanism": "krr", "k": [3], "ratio": ["2"]}))
    out = tmp_path / "sw"
    assert run("sweep", spec, "--out", out, "--workers", "0", cwd=tmp_path).returncode == 0
    before = tree(out)
    res = run("sweep", other, "--out", out, "--workers", "0", cwd=tmp_path)
    assert res.returncode == 2 and "holds a different sweep" in res.stderr
    assert tree(out) == before  # the refused run added nothing
    (out / ".sweep.lock").write_text("")  # left by an older version: removed by the next run that writes
    assert run("sweep", spec, "--out", out, "--workers", "0", cwd=tmp_path).returncode == 0
    assert tree(out) == before  # no .sweep.lock: the folder's lock is a flock on the folder itself
    fresh = tmp_path / "new" / "deeper"
    res = run("sweep", spec, "--out", fresh, "--workers", "0", "--chunk-size", "0", cwd=tmp_path)
    assert res.returncode == 2 and not (tmp_path / "new").exists()


def _staged(folder, moves, committed):
    staging = os.path.join(folder, STAGING)
    os.makedirs(os.path.join(staging, "files", "sub"))
    for name in moves:
        with open(os.path.join(staging, "files", *name.split("/")), "w") as fh:
            fh.write(f"new {name}")
    if committed is not None:
        with open(os.path.join(staging, "journal.json"), "w") as fh:
            json.dump({"moves": committed}, fh)


def test_recover_replays_a_committed_journal_and_rolls_back_the_rest(tmp_path):
    (tmp_path / "a.txt").write_text("old a")
    _staged(str(tmp_path), ["a.txt", "sub/b.txt"], None)  # killed before the journal
    assert recover(str(tmp_path)) == "rolled back"
    assert tree(tmp_path) == {"a.txt": b"old a"}
    _staged(str(tmp_path), ["sub/b.txt"], ["a.txt", "sub/b.txt"])  # killed after moving a.txt
    (tmp_path / "a.txt").write_text("new a.txt")
    assert recover(str(tmp_path)) == "replayed"
    assert tree(tmp_path) == {"a.txt": b"new a.txt", os.path.join("sub", "b.txt"): b"new sub/b.txt"}
    _staged(str(tmp_path), [], ["../escape.txt"])  # a journal the tool did not write: nothing moved
    assert recover(str(tmp_path)) == "rolled back" and not (tmp_path.parent / "escape.txt").exists()
    (tmp_path / f".tmp-{dead_pid()}-abcdefgh-a.txt").write_text("half")  # a dead writer's temporary file
    (tmp_path / f".tmp-{os.getpid()}-abcdefgh-a.txt").write_text("half")  # a live one's: kept
    assert recover(str(tmp_path)) is None
    assert sorted(tree(tmp_path)) == sorted([f".tmp-{os.getpid()}-abcdefgh-a.txt", "a.txt",
                                             os.path.join("sub", "b.txt")])


def test_a_commit_once_begun_completes_despite_ctrl_c(tmp_path, monkeypatch, sigint_raises):
    import signal

    folder = OutputDir(str(tmp_path / "out"))
    folder.plan(["a.txt", "verdicts.json"])
    folder.write_text("verdicts.json", "v")
    folder.write_text("a.txt", "a")
    real, order = _outputs.write_step, []

    def step(what):
        order.append(what)
        if what.startswith("move a.txt"):
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C mid-commit
        real(what)

    monkeypatch.setattr(_outputs, "write_step", step)
    with pytest.raises(KeyboardInterrupt):
        folder.commit()
    assert tree(tmp_path / "out") == {"a.txt": b"a", "verdicts.json": b"v", MANIFEST: (tmp_path / "out" / MANIFEST)
                                      .read_bytes()} and consistent(tmp_path / "out")
    moves = [s.split()[1] for s in order if s.startswith("move")]
    assert moves == ["a.txt", "verdicts.json", MANIFEST]  # verdicts.json, then the manifest, last


def test_a_call_that_stopped_on_an_error_does_not_lock_the_folder_for_the_next_call(tmp_path):
    """As in a notebook: figures.write_all (say) fails between its check and its write; the next call in the
    same thread must not be refused as "another run"."""
    first = OutputDir(str(tmp_path / "out"))
    first.plan(["a.json"])
    first.write_text("a.json", "half")  # ...then an exception: no commit, no close
    again = OutputDir(str(tmp_path / "out"))
    again.plan(["a.json"])
    again.write_text("a.json", "whole")
    again.commit()
    assert (tmp_path / "out" / "a.json").read_text() == "whole" and sorted(os.listdir(tmp_path / "out")) == [
        MANIFEST, "a.json"]
    first.close()  # harmless now
    assert sorted(os.listdir(tmp_path / "out")) == [MANIFEST, "a.json"]


def test_a_file_made_in_the_folder_while_the_command_runs_is_not_replaced(tmp_path):
    out = tmp_path / "out"
    folder = OutputDir(str(out))
    folder.plan(["a.json", "b.json"])  # both free at the check
    folder.write_text("a.json", "tool a")
    folder.write_text("b.json", "tool b")
    (out / "a.json").write_text("the user's a")  # made by the user while the command ran
    with pytest.raises(InputError, match="a.json was made or edited while relations ran"):
        folder.commit()
    folder.close()
    assert tree(out) == {"a.json": b"the user's a"}  # nothing written
    # between the commit point and the rename (the last moment): linked, never replaced
    _staged(str(out), ["a.json", "sub/b.txt"], ["a.json", "sub/b.txt"])
    with open(os.path.join(out, STAGING, "journal.json"), "w") as fh:
        json.dump({"moves": ["a.json", "sub/b.txt"], "create": ["a.json", "sub/b.txt"]}, fh)
    assert recover(str(out)) == "replayed"
    assert tree(out) == {"a.json": b"the user's a", os.path.join("sub", "b.txt"): b"new sub/b.txt"}


def test_a_run_refused_in_a_race_for_a_new_folder_does_not_remove_the_winners(tmp_path, monkeypatch):
    """Both runs found the folder missing and made it; the other one locked it first.  The refused run must not
    remove the folder (empty while the other computes): the other one's lock would then hold a deleted folder,
    and a third run could write a new one at once."""
    import fcntl

    out = tmp_path / "new"
    real_lock = _outputs._lock
    held: list[int] = []

    def the_other_run_first(folder: str, option: str) -> int:
        fd = os.open(folder, os.O_RDONLY)  # another open file description: its flock excludes ours
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        held.append(fd)
        return real_lock(folder, option)

    monkeypatch.setattr(_outputs, "_lock", the_other_run_first)
    try:
        with pytest.raises(InputError, match="another relations run"):
            OutputDir(str(out)).lock()
        assert out.is_dir() and os.path.samestat(os.fstat(held[0]), os.stat(out))  # the locked folder is there
    finally:
        for fd in held:
            os.close(fd)
