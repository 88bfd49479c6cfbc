"""``audit(fn, ...)`` from Python: a function object runs apart, in a forked child, within bounds.

The same outcomes as the command line's workers (tests/test_processes.py): what the randomizer prints is
kept off this process's output, its exit and exceptions are one ``InputError``, the limits of time, memory
and output hold, and the child dies with its parent.  The results are those of the same enumeration run
here, in this process (a second route: :func:`enumerate_channel` called directly).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import ROOT

from relations.audit import NotEnumerable, audit, enumerate_channel
from relations.audit._apart import FORK
from relations.audit._exact import Enumerated, Unexplored
from relations.errors import InputError

pytestmark = pytest.mark.skipif(not FORK, reason="function objects run in this process where os.fork is missing")


def test_the_randomizer_runs_in_another_process_and_gives_the_same_channel():
    seen: list[int] = []

    def rr(x, rng):
        seen.append(os.getpid())
        return x if rng.random() < 0.75 else 1 - x

    report = audit(rr, domain=[0, 1], eps="ln(3)")
    assert seen == []  # the calls happened in the child: this process's list is untouched
    here = enumerate_channel(rr, [0, 1])  # the same enumeration in this process
    assert len(seen) > 0 and set(seen) == {os.getpid()}
    rows = [[Fraction(p) for p in row] for row in here.rows]
    assert rows == [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]  # by hand: 3/4 truth
    assert str(report.measures.eps_d.exact) == "ln(3)"  # ln((3/4)/(1/4))
    assert report.verdict == "consistent" and report.runs == here.runs


def test_prints_stay_off_this_process_output(capfd):
    def loud(x, rng):
        print("printed by a call")
        sys.stderr.write("and on stderr\n")
        os.write(1, b"and on file descriptor 1\n")
        return x if rng.random() < 0.75 else 1 - x

    report = audit(loud, domain=[0, 1], eps="ln(3)")
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert report.verdict == "consistent"


@pytest.mark.parametrize("body, message", [
    ("sys.exit(3)", "the randomizer called sys.exit(3)"),
    ("os._exit(5)", "the randomizer ended the audit's child process (os._exit or a crash; exit status 5)"),
    ("raise KeyError('boom')", "the randomizer failed: KeyError: 'boom'"),
    ("raise KeyboardInterrupt", "the randomizer raised KeyboardInterrupt"),
    ("os.kill(os.getpid(), signal.SIGSEGV)", "the audit's child process was killed by SIGSEGV"),
])
def test_the_randomizers_exit_and_exceptions_are_one_input_error(body, message, capfd):
    namespace: dict = {"os": os, "sys": sys, "signal": signal}
    exec(f"def bad(x, rng):\n    print('last words')\n    {body}\n", namespace)
    with pytest.raises(InputError) as err:
        audit(namespace["bad"], domain=[0, 1], memory_mb=0)
    assert str(err.value).startswith(message), str(err.value)
    assert "\n" not in str(err.value)
    assert capfd.readouterr() == ("", "")  # 'last words' never reach this process's output


def test_a_crash_quotes_the_last_lines_printed():
    def gone(x, rng):
        print("about to leave")
        os._exit(4)

    with pytest.raises(InputError, match=r"exit status 4\); its last output: about to leave$"):
        audit(gone, domain=[0, 1])


def test_an_endless_call_hits_the_call_limit():
    def spin(x, rng):
        while True:
            pass

    # the message is the proof that the call was stopped by its limit (spin never returns by itself)
    with pytest.raises(InputError, match=r"^one call of the randomizer exceeded the time limit of 0\.5 s "
                                         r"\(call_seconds\)$"):
        audit(spin, domain=[0, 1], call_seconds=0.5)


def test_the_whole_audit_hits_its_time_limit():
    def slow(x, rng):  # each call is short; there are many paths
        time.sleep(0.01)
        return int(rng.integers(0, 1000))

    with pytest.raises(InputError, match=r"^the audit exceeded the time limit of 1 s \(timeout\)$"):
        audit(slow, domain=[0, 1], timeout=1.0, call_seconds=0)


def test_memory_is_limited():
    def hog(x, rng):
        return len(bytearray(8 * 2**30))

    with pytest.raises(InputError, match=r"^the randomizer ran out of memory \(the limit of 256 MiB beyond the "
                                         r"caller's, memory_mb\)$"):
        audit(hog, domain=[0, 1], memory_mb=256)


def test_what_the_randomizer_prints_is_limited(monkeypatch):
    from relations.audit import _pool

    def loud(x, rng):
        print("x" * 999)
        return x if rng.random() < 0.5 else 1 - x

    assert audit(loud, domain=[0, 1]).verdict == "consistent"  # 4 kB printed: within the limit
    monkeypatch.setattr(_pool, "MAX_PRINTED", 1500)  # read by this process, which drains the prints
    with pytest.raises(InputError, match=r"^the randomizer printed more than 1500 bytes \(the limit of its output\)"):
        audit(loud, domain=[0, 1])


def test_the_packages_own_exceptions_come_back_as_themselves():
    from relations.audit._enumerate import HiddenRandomness

    rng = __import__("numpy").random.default_rng(1)  # built before the audit: its draws are hidden

    def hidden(x):
        return x if rng.random() < 0.75 else 1 - x

    with pytest.raises(HiddenRandomness, match="closure 0, a generator built before the audit ran"):
        audit(hidden, domain=[0, 1])
    with pytest.raises(NotEnumerable, match="arithmetic"):
        audit(lambda x, rng: x + rng.random(), domain=[0, 1])
    with pytest.raises(InputError, match="at least two inputs"):  # raised by the sampling, in the child
        audit(lambda x, rng: x + rng.random(), domain=[0], samples=10)


def test_an_unexplored_loop_pickles_with_its_rows():
    import pickle

    e = Enumerated([0], [[Fraction(1, 2)]], 10, 0.0, (Fraction(1, 2),))
    back = pickle.loads(pickle.dumps(Unexplored(e, 128)))
    assert back.enumerated == e and back.depth == 128 and str(back) == str(Unexplored(e, 128))


def test_sampling_runs_apart_and_gives_the_counts_of_this_process():
    from relations.audit import sample_audit

    def noisy(x, rng):
        return x + rng.random()  # not enumerable: sampled

    report = audit(noisy, domain=[0, 1], eps="1", samples=2000, seed=4)
    here = sample_audit(noisy, domain=[0, 1], samples=2000, seed=4, stop_above=1.0)  # in this process
    assert report.route == "black-box"
    assert report.sampled.counts == here.counts and report.sampled.eps_d_lower == here.eps_d_lower


def test_the_child_dies_with_its_parent(tmp_path):
    """A program auditing an endless randomizer is killed by SIGKILL; the child it forked is gone within 5 s."""
    pid_file = tmp_path / "child.pid"
    program = tmp_path / "prog.py"
    program.write_text(textwrap.dedent(f"""
        import os
        from relations.audit import audit

        def spin(x, rng):
            open({str(pid_file)!r}, "w").write(str(os.getpid()))
            while True:
                pass

        audit(spin, domain=[0, 1], call_seconds=0)
    """))
    proc = subprocess.Popen([sys.executable, str(program)], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300  # a hang guard, not a performance claim
    while not pid_file.exists() or not pid_file.read_text():
        assert proc.poll() is None and time.monotonic() < deadline, "the audit never started"
        time.sleep(0.05)
    child = int(pid_file.read_text())
    assert child != proc.pid
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 60  # at once when contained; minutes only as a hang guard under load
    while time.monotonic() < deadline and _alive(child):
        time.sleep(0.1)
    alive = _alive(child)
    if alive:
        os.kill(child, signal.SIGKILL)
    assert not alive, "the audit's child outlived its parent by 60 s"


def _alive(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        try:
            return stat.read_text().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
        except OSError:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_randomizer_reads_nothing_of_the_callers_standard_input(tmp_path):
    """A program with a line waiting on its standard input audits a randomizer that reads it: the randomizer
    reads end-of-file, and the line is still the program's."""
    program = tmp_path / "prog.py"
    program.write_text(textwrap.dedent("""
        import sys
        from relations.audit import audit

        def greedy(x, rng):
            got = sys.stdin.read()
            assert got == "", got
            return x if rng.random() < 0.75 else 1 - x

        report = audit(greedy, domain=[0, 1], eps="ln(3)")
        print(report.verdict, sys.stdin.read().strip())
    """))
    run = subprocess.run([sys.executable, str(program)], input="mine\n", capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert run.returncode == 0, run.stderr
    assert run.stdout == "consistent mine\n"
