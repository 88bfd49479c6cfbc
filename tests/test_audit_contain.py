"""Code under audit is contained as a whole process tree (issue 43, item 3).

A target that double-forks and calls ``setsid()`` leaves its parent, its process group and its session; it
used to outlive the audit.  Each daemon below writes its process id to a file, then sleeps; after the audit
none of them may be alive (``/proc``: absent, or a zombie waiting to be reaped).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from relations.audit import audit
from relations.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and fork: Linux")

SPAWN = '''
import os, time

_DONE = []


def spawn(where):
    """Once per process: a daemon (fork, setsid, fork) that writes its id and session to ``where``, then sleeps."""
    if _DONE:
        return
    _DONE.append(1)
    ready, told = os.pipe()
    first = os.fork()
    if first == 0:
        os.setsid()
        if os.fork() == 0:
            with open(where, "a") as fh:
                fh.write(f"{os.getpid()} {os.getsid(0)}\\n")
            os.write(told, b"1")  # written down: the code under audit may go on
            time.sleep(600)
        os._exit(0)
    os.waitpid(first, 0)
    os.read(ready, 1)
    os.close(ready)
    os.close(told)
'''


def _state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0].decode()
    except OSError:
        return None


def _daemons(where: Path) -> list[int]:
    """The daemons' ids, each checked to have left the session of the audit (``setsid()``)."""
    pids = []
    for line in where.read_text().split("\n"):
        if line.strip():
            pid, sid = map(int, line.split())
            assert sid not in (os.getsid(0), pid)  # the session its parent made, not the audit's
            pids.append(pid)
    assert pids, "no daemon was started"
    return pids


def _none_alive(pids: list[int]) -> list[int]:
    return [p for p in pids if _state(p) not in (None, "Z", "X")]


@pytest.fixture
def target(tmp_path):
    where = tmp_path / "daemons.txt"
    module = tmp_path / "daemonic.py"
    module.write_text(SPAWN + textwrap.dedent(f"""
        WHERE = {str(where)!r}

        def rr(x, rng):
            spawn(WHERE)
            return x if rng.random() < 0.75 else 1 - x

        def leaves(x, rng):
            spawn(WHERE)
            os._exit(5)  # the worker ends on its own, its daemon still running
    """))
    yield module, where
    if where.exists():  # never leave one behind, whatever the test found
        for pid in _none_alive([int(line.split()[0]) for line in where.read_text().split("\n") if line.strip()]):
            os.kill(pid, 9)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "relations.cli", "audit", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


def test_a_daemon_started_by_a_worker_ends_with_the_audit(target):
    module, where = target
    out = _cli(f"{module}:rr", "--domain", "0,1", "--eps", "ln(3)", "--workers", "1")
    assert out.returncode == 0, out.stderr
    assert _none_alive(_daemons(where)) == []


def test_a_daemon_outlives_no_worker_that_ends_on_its_own(target):
    module, where = target
    out = _cli(f"{module}:leaves", "--domain", "0,1", "--eps", "ln(3)", "--workers", "1")
    assert out.returncode == 2 and "exit status 5" in out.stderr, out.stderr
    assert _none_alive(_daemons(where)) == []


def test_a_daemon_started_by_a_function_object_ends_with_the_audit(tmp_path):
    where = tmp_path / "daemons.txt"
    space: dict = {}
    exec(SPAWN, space)  # noqa: S102 - the daemon's code, written above

    def rr(x, rng):
        space["spawn"](str(where))
        return x if rng.random() < 0.75 else 1 - x

    try:
        report = audit(rr, domain=[0, 1], eps="ln(3)")
        assert report.verdict == "consistent"
        assert _none_alive(_daemons(where)) == []

        def stuck(x, rng):
            space["spawn"](str(where))
            while True:
                pass

        with pytest.raises(InputError, match="call_seconds"):
            audit(stuck, domain=[0, 1], eps="ln(3)", call_seconds=1)
        assert _none_alive(_daemons(where)) == []
    finally:
        for pid in _none_alive([int(line.split()[0]) for line in where.read_text().split("\n") if line.strip()]):
            os.kill(pid, 9)
