"""Processes: no child outlives the tool (even a SIGKILL of it), code under audit runs apart and within
limits, and a Ctrl-C at any moment says one line.

The children are found by walking ``/proc`` (a process's parent is the fourth field of ``stat``) while the
command runs, then the command is killed; each child recorded must be gone (or a zombie) within 5 s.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

from relations.errors import InputError

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="walks /proc (Linux)")

ENV = dict(os.environ, PYTHONPATH=str(ROOT))


def _children() -> dict[int, int]:
    """Every process's parent, from /proc."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    return parents


def _descendants(pid: int) -> set[int]:
    parents = _children()
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _start(*args: str, cwd: Path = ROOT, pipes: bool = True, env: dict | None = None) -> subprocess.Popen:
    """The command line in a process of its own (``env``: more environment variables); without ``pipes``, its
    output goes nowhere (an orphan that inherited a pipe would keep the reader waiting)."""
    out = subprocess.PIPE if pipes else subprocess.DEVNULL
    # a shell's background job ignores SIGINT, and the child would inherit that: restore the default
    return subprocess.Popen([sys.executable, "-m", "relations", *args], cwd=cwd, env={**ENV, **(env or {})},
                            stdout=out, stderr=out,
                            text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                            start_new_session=True)  # a process group of its own, as a terminal's job


def _program(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode()
    except OSError:
        return ""


def _kill_and_check(proc: subprocess.Popen, *, want: int, within: float = 300, program: str = "") -> None:
    """Wait until ``proc`` has at least ``want`` descendants (one of them running ``program``, when given),
    SIGKILL it, and check none survives it (waiting up to a minute: a hang guard, not a claim of speed)."""
    deadline = time.monotonic() + within
    seen: set[int] = set()
    found = not program
    while time.monotonic() < deadline and proc.poll() is None:
        now = _descendants(proc.pid)
        seen |= now
        found = found or any(_program(p).endswith(program) for p in now)
        if len(seen) >= want and found:
            break
        time.sleep(0.02)
    assert proc.poll() is None, f"the command ended before it could be killed (status {proc.returncode})"
    assert len(seen) >= want and found, f"only {len(seen)} children seen ({program or 'any'} wanted)"
    if not program:
        time.sleep(0.3)
    seen |= _descendants(proc.pid)
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(_alive(p) for p in seen):
        time.sleep(0.1)
    survivors = [p for p in seen if _alive(p)]
    for p in survivors:  # leave nothing behind for the next test
        os.kill(p, signal.SIGKILL)
    assert not survivors, f"children alive 5 s after the tool was killed: {survivors}"


SPIN = "def spin(x, rng):\n    while True:\n        pass\n"


def test_audit_workers_die_with_the_tool(tmp_path):
    (tmp_path / "t.py").write_text(SPIN)
    proc = _start("audit", f"{tmp_path / 't.py'}:spin", "--domain", "0,1", "--workers", "2", pipes=False)
    _kill_and_check(proc, want=2)


def test_audit_workers_through_a_wrapper_die_with_the_tool(tmp_path):
    # --python through a shell script that does not exec: the worker is the tool's grandchild, and the
    # pipe it watches is what ends it
    (tmp_path / "t.py").write_text(SPIN)
    wrapper = tmp_path / "py.sh"
    wrapper.write_text(f"#!/bin/sh\necho starting\n{sys.executable} \"$@\"\n")
    wrapper.chmod(0o755)
    proc = _start("audit", f"{tmp_path / 't.py'}:spin", "--domain", "0,1", "--workers", "1", "--python", str(wrapper),
                  pipes=False)
    _kill_and_check(proc, want=2)


def test_sweep_workers_die_with_the_tool(tmp_path):
    pytest.importorskip("pyarrow")
    spec = {"exhaustive": {"inputs": 2, "outputs": 3, "denominator": 6},
            "relations": ["zheng2025.thm4", "zheng2025.thm7", "zheng2025.thm11"]}
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    proc = _start("sweep", str(tmp_path / "spec.json"), "--out", str(tmp_path / "out"), "--workers", "2",
                  "--chunk-size", "5", pipes=False)
    _kill_and_check(proc, want=2)


def test_verify_children_die_with_the_tool(tmp_path):
    # the forked search and, where coqc is installed, a coqc process (killed while it runs); an empty cache folder,
    # so that the searches run (a run of the same code before this one kept them) and coqc compiles
    import shutil

    proc = _start("verify", "--quick", "--out", str(tmp_path / "ev"), pipes=False,
                  env={"RELATIONS_CACHE_DIR": str(tmp_path / "cache")})
    _kill_and_check(proc, want=1, program="coqc" if shutil.which("coqc") else "")


# code under audit: apart and bounded ------------------------------------------------------------------------

TARGETS = '''
import os, sys
print("printed at import")

def rr(x, rng):
    print("printed by a call")
    sys.stderr.write("and on stderr\\n")
    return x if rng.random() < 0.75 else 1 - x

def spin(x, rng):
    while True:
        pass

def stall(x, rng):  # never returns, as 'spin', but idle: the whole audit's limit is the parent's clock
    import time
    while True:
        time.sleep(60)

def leave(x, rng):
    sys.exit(3)

def gone(x, rng):
    os._exit(5)

def hog(x, rng):
    return len(bytearray(8 * 2**30))

def many(x, rng):
    return rng.random()
'''


@pytest.fixture
def targets(tmp_path):
    (tmp_path / "t.py").write_text(TARGETS)
    return tmp_path / "t.py"


def _audit(capfd, *args: str) -> subprocess.CompletedProcess:
    """``relations audit ARGS`` in this process (tests/conftest.py's ``run_cli``: these tests are about the worker
    processes, which it starts as the command line does), with what the workers wrote to the file descriptors
    they inherit added to its standard output and error, as a child process's would be: a print of the target
    that escaped its worker's pipe shows there (``capfd``)."""
    capfd.readouterr()
    run = run_cli("audit", *args, env=ENV)
    out, err = capfd.readouterr()
    return subprocess.CompletedProcess(run.args, run.returncode, run.stdout + out, run.stderr + err)


def test_prints_of_the_target_stay_off_the_json(targets, capfd):
    # also with --workers 0: the target runs in one worker process, never in the tool's
    run = _audit(capfd, f"{targets}:rr", "--domain", "0,1", "--eps", "ln(3)", "--workers", "0", "--json")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)  # the whole of stdout is the report
    assert report["verdict"] == "consistent"
    assert "printed" not in run.stdout + run.stderr


@pytest.mark.parametrize("name, status_line", [
    ("leave", "the randomizer called sys.exit(3)"),
    ("gone", "the randomizer ended the worker process (os._exit or a crash; exit status 5)"),
    ("hog", "the randomizer ran out of memory (the limit of 1024 MiB of a worker process, --memory)"),
])
def test_the_targets_exit_is_an_outcome_not_the_tools(targets, capfd, name, status_line):
    run = _audit(capfd, f"{targets}:{name}", "--domain", "0,1", "--workers", "0", "--memory", "1024", "--json")
    assert run.returncode == 2, run.stderr
    assert run.stdout == ""
    assert run.stderr.splitlines() == [run.stderr.rstrip("\n")], "one line"
    assert run.stderr.startswith(f"relations: error: {status_line}"), run.stderr


def test_an_endless_call_hits_the_time_limit(targets, capfd):
    # 'spin' never returns: the message is the proof that the limit stopped it
    run = _audit(capfd, f"{targets}:spin", "--domain", "0,1", "--workers", "0", "--call-timeout", "1")
    assert run.returncode == 2
    assert run.stderr == "relations: error: one call of the randomizer exceeded the time limit of 1 s (--call-timeout)\n"


def test_the_whole_audit_hits_its_time_limit(targets, capfd):
    # 'stall', not 'spin': the two workers would burn 2 s of CPU each, unseen by the CPU profile (their killed
    # workers' children are nobody's to reap), and the deadline is kept by this process whatever the call does
    run = _audit(capfd, f"{targets}:stall", "--domain", "0,1", "--workers", "2", "--call-timeout", "0", "--timeout", "2")
    assert run.returncode == 2
    assert run.stderr == "relations: error: the audit exceeded the time limit of 2 s (--timeout)\n"


def test_a_large_domain_is_refused_up_front(targets):
    from relations.audit._runner import MAX_DOMAIN

    n = 8000  # refused from the option's text, before the target is loaded: run in this process
    run = run_cli("audit", f"{targets}:rr", "--domain", ",".join(map(str, range(n))), "--eps", "1")
    assert run.returncode == 2
    assert run.stderr == f"relations: error: --domain: {n} inputs; at most {MAX_DOMAIN} can be audited\n"


def test_distinct_outputs_are_limited(targets, monkeypatch):
    from relations.audit import _worker
    from relations.audit._pool import Pool

    job = {"task": "sample", "target": f"{targets}:many", "params": None, "domain": [0], "input": 0, "chunk": 0,
           "size": 50, "seed": 0}
    monkeypatch.setattr(_worker, "MAX_OUTPUTS", 10)  # in this process: run_job directly
    answer = _worker.run_job(job)
    assert answer["kind"] == "limit" and "more than 10 distinct outputs" in answer["message"]
    with Pool(workers=0) as pool:  # the worker's own limit is far above 50 draws
        assert pool.map([job])[0]["ok"]


def test_what_the_target_prints_is_limited(tmp_path, monkeypatch):
    from relations.audit import _pool

    (tmp_path / "loud.py").write_text("def loud(x, rng):\n    print('x' * 999)\n    return x\n")
    job = {"task": "sample", "target": f"{tmp_path / 'loud.py'}:loud", "params": None, "domain": [0], "input": 0,
           "chunk": 0, "size": 200, "seed": 0}
    with _pool.Pool(workers=0) as pool:  # 200 kB printed: within the limit
        assert pool.map([job])[0]["ok"]
    monkeypatch.setattr(_pool, "MAX_PRINTED", 50_000)  # read by this process, which drains the prints
    with _pool.Pool(workers=0) as pool:
        answer = pool.map([job])[0]
    assert answer["kind"] == "exit"
    assert answer["message"].startswith("the randomizer printed more than 50000 bytes (the limit of its output)")


def test_a_wrapper_that_prints_does_not_break_the_protocol(targets, tmp_path, capfd):
    wrapper = tmp_path / "py.sh"
    wrapper.write_text(f"#!/bin/sh\necho 'a wrapper says hello'\necho '{{\"ok\": true}}'\nexec {sys.executable} \"$@\"\n")
    wrapper.chmod(0o755)
    run = _audit(capfd, f"{targets}:rr", "--domain", "0,1", "--eps", "ln(3)", "--python", str(wrapper), "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["verdict"] == "consistent"
    assert run.stderr == ""


# Ctrl-C: one line, exit 130 --------------------------------------------------------------------------------

def _interrupt(args: list[str], at: float, cwd: Path, *, group: bool) -> tuple[int, str]:
    """SIGINT ``at`` seconds in: to the tool alone, or (``group``) to its whole process group, as a terminal's
    Ctrl-C does (workers, the forked search and coqc get it too)."""
    proc = _start(*args, cwd=cwd)
    time.sleep(at)
    try:
        if group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, signal.SIGINT)
    except ProcessLookupError:
        pass
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err


def _check_interrupted(code: int, err: str, what: str) -> None:
    if code == 0:  # it finished before the signal: nothing to see
        assert err == "", (what, err)
        return
    assert code == 130, (what, code, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("relations: interrupted"), (what, err)


def _commands(tmp_path: Path) -> list[tuple[list[str], float]]:
    (tmp_path / "t.py").write_text(TARGETS)
    spec = {"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 4},
            "relations": ["zheng2025.thm4", "zheng2025.thm7"]}
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    example = ROOT / "examples" / "paper_example.json"
    commands = [(["verify", "--quick", "--out", str(tmp_path / "ev")], 12.0),
                (["audit", f"{tmp_path / 't.py'}:rr", "--domain", "0,1,2", "--black-box", "--samples", "200000"], 4.0),
                (["sweep", str(tmp_path / "spec.json"), "--out", str(tmp_path / "sweep"), "--workers", "2",
                  "--chunk-size", "3"], 6.0)]
    if example.is_file():
        commands += [(["measure", str(example)], 2.0), (["check", str(example), "--claim", "eps_d <= 100"], 2.0)]
    return commands


def _sigint_at_random_moments(tmp_path: Path, n: int, seed: int) -> None:
    rng = random.Random(seed)
    commands = _commands(tmp_path)
    for k in range(n):
        args, longest = commands[0] if k % 2 == 0 else rng.choice(commands)  # verify half the time
        # from 0.25 s: before that, Python may still be importing its own site module, before any of the tool's
        # code runs (a SIGINT there is a "Fatal Python error" of the interpreter, whatever the program)
        at = rng.uniform(0.25, longest)
        group = rng.random() < 0.5
        code, err = _interrupt(args, at, tmp_path, group=group)
        _check_interrupted(code, err, f"{args[0]} at {at:.2f} s{' (process group)' if group else ''}")


def _interpreter_start_up() -> float:
    """Seconds Python takes to start and stop doing nothing here (the median of three)."""
    times = []
    for _ in range(3):
        start = time.monotonic()
        subprocess.run([sys.executable, "-c", "pass"], env=ENV, check=True)
        times.append(time.monotonic() - start)
    return sorted(times)[1]


def _early_interrupts(n: int, seed: int, *, start: float = 0.0, stop: float = 1.5) -> int:
    """SIGINT at ``n`` moments spread from ``start x start-up`` to ``stop x start-up + 0.2`` s after
    ``relations measure`` starts, start-up being the time Python takes to run nothing.

    Before the tool's first line runs (``relations/__init__.py``), the interpreter is starting (its ``site``
    module, the ``.pth`` files of site-packages): what a SIGINT does there is Python's, the same for every
    program (killed by the signal, or Python's "init_import_site" traceback), and no frame of the tool's
    own files is in it.  From the tool's first line on, it is one line and status 130.  Returns how many
    SIGINTs reached the tool."""
    example = ROOT / "examples" / "paper_example.json"
    up = _interpreter_start_up()
    first, span = start * up, (stop - start) * up + 0.2
    rng = random.Random(seed)
    ours = str(ROOT / "relations")
    said = 0
    for k in range(n):
        at = first + (k + rng.random()) / n * span  # one moment in each of n equal slices
        code, err = _interrupt(["measure", str(example)], at, ROOT, group=False)
        if code == 130 and err == "relations: interrupted\n":
            said += 1
            continue
        if code == 0 and err == "":  # caught while the interpreter started (by a .pth file's code): it ran on
            continue
        before_the_tool = (code == -signal.SIGINT and err == "") or (
            ours not in err and err.rstrip().endswith("KeyboardInterrupt"))
        assert before_the_tool, (at, code, err)
    return said


# a sitecustomize module (found first on PYTHONPATH) that sends the process a SIGINT when a given module is
# first looked for: an exact moment of the start-up, from the tool's first line on
_SIGINT_AT_IMPORT = """
import os, signal, sys

class _Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == os.environ.get("SIGINT_AT"):
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, _Interrupt())
"""


@pytest.mark.parametrize("module", ["relations._lazy", "relations.__main__", "relations._processes",
                                    "typer._click.decorators",  # while typer parses: it made a silent 130
                                    "datetime",  # imported by numpy's C extension as it loads, which turns the
                                    # KeyboardInterrupt into an ImportError: it made a silent status 1
                                    *(pytest.param(m, marks=pytest.mark.slow)  # after the handlers: -m slow
                                      for m in ("relations.cli", "numpy", "relations.measures._api",
                                                "relations.io._tables"))])  # the measures, then the table
@pytest.mark.parametrize("how", ["-m relations", "-m relations.cli", "console script"])
def test_ctrl_c_while_the_command_line_loads_says_one_line(tmp_path, module, how):
    if how == "-m relations.cli" and module == "relations.__main__":
        pytest.skip("not imported on that path")
    (tmp_path / "sitecustomize.py").write_text(_SIGINT_AT_IMPORT)
    if how == "console script":  # as pip writes it
        script = tmp_path / "relations"
        script.write_text("import re\nimport sys\nfrom relations.__main__ import main\nif __name__ == '__main__':\n"
                          "    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n"
                          "    sys.exit(main())\n")
        command = [sys.executable, str(script)]
    else:
        command = [sys.executable, *how.split()]
    # a common 'measure' runs without typer: the typer moment is taken in one that typer parses (--tradeoff)
    extra = ["--tradeoff"] if module.startswith("typer") else []
    run = subprocess.run([*command, "measure", str(ROOT / "examples" / "paper_example.json"), *extra], cwd=tmp_path,
                         env=dict(ENV, PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}", SIGINT_AT=module),
                         capture_output=True, text=True, timeout=120,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert (run.returncode, run.stderr) == (130, "relations: interrupted\n")


@pytest.mark.slow  # timing-dependent moments; under load one gave status 1 and no message: a Ctrl-C as the
# command ended (test_a_ctrl_c_as_the_command_ends_says_one_line)
def test_ctrl_c_in_the_first_moments_says_one_line():
    # around the moment the interpreter has started and the tool's imports run (100 from 0 with -m slow)
    _early_interrupts(12, seed=320, start=0.6, stop=1.2)
    # and once numpy is mapped (the command line is loading its modules): one line, whatever the machine's speed
    proc = _start("measure", str(ROOT / "examples" / "paper_example.json"))
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            if "numpy" in Path(f"/proc/{proc.pid}/maps").read_text():
                break
        except OSError:
            pass
        time.sleep(0.002)
    os.kill(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (130, "relations: interrupted\n")


@pytest.mark.slow
def test_ctrl_c_at_a_hundred_early_moments_says_one_line():
    assert _early_interrupts(100, seed=3202) >= 1, "no SIGINT reached the tool: all during the interpreter's start-up"


def test_ctrl_c_at_random_moments_says_one_line(tmp_path):
    # 3 moments (verify at 1.2 s and 0.5 s, a sweep at 4.3 s, each to the process group): the 5 this took before
    # added a whole-catalogue verify interrupted at 6.4 s, most of the test's 11 s of CPU; 50 with -m slow
    _sigint_at_random_moments(tmp_path, 3, seed=32)


@pytest.mark.slow
def test_ctrl_c_at_fifty_random_moments_says_one_line(tmp_path):
    _sigint_at_random_moments(tmp_path, 50, seed=3201)


# the sampling on a Dask cluster: the same bounds ------------------------------------------------------------

@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) \
            as cluster, distributed.Client(cluster) as client:
        yield client


# 'leave' (sys.exit in the target) with -m slow: on Dask its kind, the target ending its worker process, is 'gone''s,
# and sys.exit itself is test_the_targets_exit_is_an_outcome_not_the_tools[leave]'s
@pytest.mark.parametrize("name, call_seconds, memory_mb, message", [
    ("spin", 1.0, 0, "one call of the randomizer exceeded the time limit of 1 s (--call-timeout)"),
    pytest.param("leave", 30.0, 0, "the randomizer called sys.exit(3)", marks=pytest.mark.slow),
    ("gone", 30.0, 0, "the randomizer ended the worker process (os._exit or a crash; exit status 5)"),
    ("hog", 30.0, 1024, "the randomizer ran out of memory (the limit of 1024 MiB of a worker process, --memory)"),
])
def test_dask_jobs_run_apart_and_within_the_limits(targets, dask_client, capfd, name, call_seconds, memory_mb,
                                                    message):
    # the Dask workers here are threads of this process: without a worker process of its own per job, 'spin'
    # would never end, 'leave' would end a thread of this process and 'hog' would take 8 GiB of it
    from relations.audit._runner import audit_target

    with pytest.raises(InputError) as err:
        audit_target(f"{targets}:{name}", domain=[0, 1], white_box=False, samples=100, scheduler=dask_client,
                     call_seconds=call_seconds, memory_mb=memory_mb)
    assert str(err.value) == message or str(err.value).startswith(message + ";"), str(err.value)
    out, err_text = capfd.readouterr()
    assert "printed" not in out + err_text


def test_dask_jobs_keep_the_whole_audits_time_limit(targets, dask_client):
    from relations.audit._runner import audit_target

    with pytest.raises(InputError, match=r"^the audit exceeded the time limit of 2 s \(--timeout\)$"):
        audit_target(f"{targets}:stall", domain=[0, 1], white_box=False, samples=100, scheduler=dask_client,
                     call_seconds=0, timeout=2.0)  # 'stall': as in test_the_whole_audit_hits_its_time_limit


def test_dask_jobs_print_nothing_and_give_the_local_counts(targets, dask_client, capfd):
    from relations.audit._runner import audit_target

    there = audit_target(f"{targets}:rr", domain=[0, 1], white_box=False, samples=2000, seed=5,
                         scheduler=dask_client)
    here = audit_target(f"{targets}:rr", domain=[0, 1], white_box=False, samples=2000, seed=5)
    assert there.sampled.counts == here.sampled.counts
    out, err = capfd.readouterr()
    assert "printed" not in out + err


def test_a_program_started_after_the_tool_died_never_runs():
    """``preexec()``'s check: run in a child of the process that made it, it returns; run in a process whose
    parent is another one (as when the tool died between the fork and the check), it exits with status 1."""
    from relations._processes import preexec

    arm = preexec()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        arm()
        os._exit(0)
    assert os.waitpid(pid, 0)[1] == 0
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child, whose own child is not the tool's
        grandchild = os.fork()
        if grandchild == 0:
            arm()
            os._exit(0)
        os._exit(os.waitstatus_to_exitcode(os.waitpid(grandchild, 0)[1]))
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 1


# the tool's forks: a Ctrl-C that reaches a child before it has chosen what SIGINT does there ---------------------

def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=ENV, capture_output=True, text=True,
                          timeout=300, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


# in every child, at once after the fork (in Python's at-fork handlers, where a terminal's Ctrl-C to the process
# group can land): the SIGINT is sent by the child to itself, so the moment is exact
_SIGINT_IN_CHILD = "import os, signal\nos.register_at_fork(after_in_child=lambda: os.kill(os.getpid(), signal.SIGINT))\n"

_FORKS = {
    "run_beside": ("from relations.search._forked import run_beside\n"
                   "print(run_beside(lambda: 6 * 7, lambda: 7 * 8))", "(42, 56)\n"),
    "run_apart": ("from relations.audit._apart import run_apart\n"
                  "print(run_apart(lambda: 6 * 7, timeout=60.0, call_seconds=0, memory_mb=0))", "42\n"),
    "sweep workers": ("from relations.sweeps._chunks import sweep\nfrom relations.sweeps._spec import parse_spec\n"
                      "spec = parse_spec({'exhaustive': {'inputs': 2, 'outputs': 2, 'denominator': 1},\n"
                      "                   'relations': ['relations.thm4_corrected']})\n"
                      "print(sorted(c for c, _ in sweep(spec, chunk_size=2, workers=2)))", "[0, 1, 2, 3]\n"),
    # the program's own Ctrl-C: held until preexec() has given SIGINT its default action, then it ends the child
    "start_program": ("import sys\nfrom relations._processes import start_program\n"
                      "proc = start_program([sys.executable, '-c', 'print(1)'], stdout=-1, stderr=-1, text=True)\n"
                      "print(proc.returncode if proc.wait() else proc.communicate())", f"{-signal.SIGINT}\n"),
}


@pytest.mark.parametrize("fork", list(_FORKS))
def test_a_ctrl_c_in_a_child_before_it_chose_what_sigint_does_says_nothing(fork):
    # it used to run the handler in the child, in the middle of the at-fork handlers: "Exception ignored in ..."
    # and a KeyboardInterrupt traceback on the standard error the child shares with the tool
    code, expected = _FORKS[fork]
    run = _python(_SIGINT_IN_CHILD + code)
    assert (run.returncode, run.stdout, run.stderr) == (0, expected, "")


def test_handlers_registered_while_a_thread_forks_say_nothing():
    # another thread's import registers at-fork handlers between the two halves of a fork made in a thread (verify's
    # search imported logging while the Coq thread forked coqc): the "after" half of logging's released a lock its
    # "before" half never took, "Exception ignored ... RuntimeError" on stderr; here registered from the fork's own
    # "before" half, an exact moment
    code = """
import os, sys, threading
from relations._processes import start_program

def late():
    raise RuntimeError("cannot release un-acquired lock")

def before():
    if threading.current_thread().name == "forker" and not late_registered:
        late_registered.append(True)
        os.register_at_fork(after_in_parent=late)

late_registered = []
os.register_at_fork(before=before)
thread = threading.Thread(target=lambda: start_program([sys.executable, "-c", "pass"]).wait(), name="forker")
thread.start()
thread.join()
print(late_registered)
"""
    run = _python(code)
    assert (run.returncode, run.stdout, run.stderr) == (0, "[True]\n", "")


def test_a_ctrl_c_as_the_command_ends_says_one_line():
    # between the command's end (SystemExit) and the moment SIGINT is ignored for the shutdown: the Ctrl-C escaped
    # as a traceback on the silenced stderr, status 1 and no word (seen under load)
    code = """
import sys
from relations import _processes

def ctrl_c():
    raise KeyboardInterrupt  # where the handler would raise it, at that moment

def command(args):
    _processes.leaves_nothing_behind()
    sys.exit(0)

_processes._end_now = ctrl_c
_processes.run_command_line(command, [], own=True)
"""
    run = _python(code)
    assert (run.returncode, run.stderr) == (130, "relations: interrupted\n")
