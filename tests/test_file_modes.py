"""Files the tool writes honour the umask (0644 under umask 022), and a replaced file keeps its mode.

``tempfile.mkstemp`` creates 0600 files; every write goes through
:func:`relations.io._outputs.write_bytes_atomic`, which gives the file ``0o666 & ~umask`` (what ``open()`` gives a
new file) or the mode of the file it replaces.  Checked here through the CLI as a user runs it, under three umasks (one in the default run).
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest
from conftest import run_cli

from relations.io._outputs import write_bytes_atomic

# about writes and tables, not proofs: verify skips its Coq check here (tests/test_coq_proofs.py covers it)
pytestmark = pytest.mark.usefixtures("no_coq_checks")

ROOT = Path(__file__).resolve().parent.parent
RR = {"setting": "local", "prior": ["1/2", "1/2"], "channel": [["3/4", "1/4"], ["1/4", "3/4"]]}


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _cli(umask: int, *args: str) -> subprocess.CompletedProcess:
    """The command under ``umask``, in this process (tests/conftest.py's ``run_cli``: the umask is the process's,
    which the command and any process it starts read, as they read a shell's); the umask is put back after."""
    old = os.umask(umask)
    try:
        return run_cli(*args)
    finally:
        os.umask(old)


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_atomic_writes_honour_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        write_bytes_atomic(str(tmp_path / "new.bin"), b"x")
    finally:
        os.umask(old)
    assert _mode(tmp_path / "new.bin") == 0o666 & ~umask


def test_a_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "mine.json"
    target.write_text("{}")
    os.chmod(target, 0o640)
    old = os.umask(0o077)
    try:
        write_bytes_atomic(str(target), b"[]")
    finally:
        os.umask(old)
    assert _mode(target) == 0o640 and target.read_bytes() == b"[]"


# 0o027 (files 0640) in the default run: a mode fixed at 0644 (umask 022's) and mkstemp's 0600 both fail it;
# umasks 022 and 077 in the slow tier (each command's search costs about 2 s of CPU; the umask arithmetic itself
# is checked under three umasks by test_atomic_writes_honour_the_umask)
@pytest.mark.parametrize("umask", [0o027, pytest.param(0o022, marks=pytest.mark.slow),
                                   pytest.param(0o077, marks=pytest.mark.slow)])
def test_commands_write_files_under_the_umask(tmp_path, umask):
    """measure --plot, conjecture --out FILE and conjecture --file --out DIR (a folder with its manifest)."""
    mech = tmp_path / "rr.json"
    mech.write_text(json.dumps(RR))
    want = 0o666 & ~umask
    plot = tmp_path / "curve.png"
    assert _cli(umask, "measure", str(mech), "--tradeoff", "--plot", str(plot)).returncode == 0
    witness = tmp_path / "w.json"
    # a conjecture the smallest-first enumeration refutes at once (rho <= kl took 0.7 s of CPU more a command)
    assert _cli(umask, "conjecture", "eps_d <= eps_m", "--quick", "--out", str(witness)).returncode == 1
    spec = tmp_path / "mine.json"
    spec.write_text(json.dumps({"conjectures": [{"id": "a", "statement": "eps_d <= eps_m", "setting": "local"}]}))
    folder = tmp_path / "out"
    assert _cli(umask, "conjecture", "--file", str(spec), "--quick", "--out", str(folder)).returncode == 1
    written = [plot, witness, *sorted(p for p in folder.rglob("*") if p.is_file())]
    assert len(written) >= 4 and any(p.name == ".relations-output.json" for p in written)
    assert {p.name: oct(_mode(p)) for p in written} == {p.name: oct(want) for p in written}
