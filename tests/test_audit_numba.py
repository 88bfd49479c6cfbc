"""Randomizers built on numba-compiled code (issue 42, item 6: a user's module importing multi-freq-ldpy aborted
the audit worker with SIGABRT).

The cause: numba's own generators seed themselves from ``os.urandom`` on their first draw, from C, and treat an
error there as fatal (``Py_FatalError``); the closed world of the white-box route had replaced ``os.urandom``
by a source that raises.  Now numba's generators are marked seeded before the run, and a compiled function
called from Python runs as its Python source (as the library adapters run multi-freq-ldpy), so a user's file and
the library's adapter are audited alike.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _needs(module: str) -> None:
    """Skip unless ``module`` is installed, without importing it in this process (the code runs in a child)."""
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed")


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)


@pytest.mark.slow
def test_native_numba_draws_do_not_abort_the_white_box_route():
    """A cfunc called through ctypes bypasses the dispatcher: its draws come from numba's generator, invisible
    to the closed world.  Before the fix the first draw asked the blocked ``os.urandom`` for a seed and the
    process aborted; now the replays see the hidden randomness and say so."""
    _needs("numba")
    out = _run("""
        import numba, numpy as np
        from relations.audit._enumerate import HiddenRandomness
        from relations.audit._exact import enumerate_channel

        @numba.cfunc("float64()")
        def draw():
            return np.random.random()

        try:
            enumerate_channel(lambda x: x if draw.ctypes() < 0.75 else 1 - x, [0, 1], pass_rng=False)
        except HiddenRandomness as exc:
            print("hidden:", exc)
    """)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("hidden:"), out.stdout


def test_a_compiled_function_runs_as_its_source_and_is_enumerated():
    """A user's @njit randomized response (3/4 truth, by hand): enumerated exactly through its Python source."""
    _needs("numba")
    out = _run("""
        import numba, numpy as np
        from relations.audit._exact import enumerate_channel

        @numba.njit
        def rr(x):
            return x if np.random.random() < 0.75 else 1 - x

        e = enumerate_channel(rr, [0, 1], pass_rng=False)
        print(dict(zip(e.outputs, e.rows[0])), dict(zip(e.outputs, e.rows[1])))
        print(type(rr).__call__ is numba.core.dispatcher._dispatcher.Dispatcher.__call__)
    """)
    assert out.returncode == 0, out.stderr[-2000:]
    first, restored = out.stdout.splitlines()
    assert first == "{0: Fraction(3, 4), 1: Fraction(1, 4)} {0: Fraction(1, 4), 1: Fraction(3, 4)}"
    assert restored == "True"  # the dispatcher calls compiled code again after the run


@pytest.mark.slow
def test_a_user_file_importing_multi_freq_ldpy_is_audited_as_its_adapter(tmp_path):
    """``relations audit FILE.py:grr`` on a file calling multi-freq-ldpy's GRR_Client gives the verdict and the
    eps_d of ``relations audit multi-freq-ldpy.grr``; GRR at eps = 1 on k = 4 keeps the truth with probability
    e / (e + 3), so eps_d = ln(e) = 1 (by hand) and the claim eps_d <= 1 holds."""
    _needs("multi_freq_ldpy")
    import json
    import math

    user = tmp_path / "mine.py"
    user.write_text(textwrap.dedent("""
        from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Client

        def grr(x):
            return int(GRR_Client(x, 4, 1.0))
    """))

    def cli(*args: str) -> dict:
        done = subprocess.run([sys.executable, "-m", "relations.cli", "audit", *args, "--eps", "1", "--json"],
                              capture_output=True, text=True, timeout=600, cwd=ROOT)
        assert done.returncode in (0, 1), done.stderr[-2000:]
        return json.loads(done.stdout)

    mine = cli(f"{user}:grr", "--domain", "0,1,2,3")
    theirs = cli("multi-freq-ldpy.grr", "--k", "4")
    assert mine["verdict"] == theirs["verdict"] == "consistent"
    assert mine["route"] == theirs["route"] == "white-box"
    assert math.isclose(mine["eps_d"]["value"], 1.0, rel_tol=1e-12)
    assert mine["eps_d"]["ratio"] == theirs["eps_d"]["ratio"]  # the same exact channel


def test_compiled_draws_of_a_user_file_are_sampled_reproducibly():
    """Sampling runs the compiled code: numba's own generator is seeded per chunk, as for the adapters, so two
    runs with the same seed give the same counts (unseeded, numba seeds itself from os.urandom)."""
    _needs("numba")
    out = _run("""
        import numba, numpy as np
        from relations.audit._worker import Target, sample_counts

        @numba.njit
        def rr(x):
            return x if np.random.random() < 0.75 else 1 - x

        target = Target(rr, pass_rng=False)
        runs = [sample_counts(target, 0, index=0, chunk=0, size=2000, seed=7) for _ in range(2)]
        other = sample_counts(target, 0, index=0, chunk=1, size=2000, seed=7)
        print(runs[0] == runs[1], runs[0] != other, sum(runs[0].values()))
    """)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["True", "True", "2000"]
