"""The write policy (relations.io._outputs) and one-line errors, run as a user runs the CLI.

* a user's own files in an output folder are never replaced without --force;
* files the tool wrote (listed in the folder's manifest, unchanged) are replaced;
* SIGINT and SIGKILL during ``verify``'s write phase leave the previous evidence byte for byte;
* no ``.hypothesis/`` (or anything else) appears in the working directory;
* usage errors and bad option values are one line on stderr with exit status 2.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_cli

# about writes and tables, not proofs: verify skips its Coq check here (tests/test_coq_proofs.py covers it)
pytestmark = pytest.mark.usefixtures("no_coq_checks")

CLI = [sys.executable, "-m", "relations.cli"]
FAST = ["--quick", "--only", "zheng2025.thm4", "--only", "zheng2025.thm1"]  # a refuted and a proved relation, seconds each


def run(*args, cwd=None, timeout=300, process=False):
    """The command line, in this process unless ``process`` (tests/conftest.py's ``run_cli``)."""
    return run_cli(*[str(a) for a in args], cwd=cwd, timeout=timeout, process=process)


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def one_line_error(res, code=2):
    assert res.returncode == code, (res.returncode, res.stderr)
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("relations: error:"), res.stderr
    assert "Traceback" not in res.stderr


def test_verify_refuses_a_users_file_and_replaces_its_own(tmp_path):
    out = tmp_path / "proofs"
    out.mkdir()
    mine = out / "verdicts.json"
    mine.write_text('{"my": "notes"}')
    res = run("verify", *FAST, "--out", out, cwd=tmp_path)
    one_line_error(res)
    assert "verdicts.json" in res.stderr and "--force" in res.stderr
    assert mine.read_text() == '{"my": "notes"}' and sorted(os.listdir(out)) == ["verdicts.json"]
    assert run("verify", *FAST, "--out", out, "--force", cwd=tmp_path).returncode == 0
    assert (out / ".relations-output.json").exists()
    first = snapshot(out)
    assert run("verify", *FAST, "--out", out, cwd=tmp_path).returncode == 0  # its own files: replaced
    assert snapshot(out) == first  # deterministic
    (out / "witnesses" / "zheng2025.thm4.json").write_text("edited by hand")
    res = run("verify", *FAST, "--out", out, cwd=tmp_path)
    one_line_error(res)
    assert "zheng2025.thm4.json" in res.stderr
    assert (out / "witnesses" / "zheng2025.thm4.json").read_text() == "edited by hand"
    assert sorted(os.listdir(tmp_path)) == ["proofs"]  # nothing else in the working directory


def test_verify_writes_nothing_into_cwd_but_its_folder(tmp_path):
    # without coqc on the PATH drv2010.kl is searched for counterexamples with hypothesis (whose cache
    # must not land in the working directory), and its evidence says why the Coq proof was not used
    (tmp_path / "bin").mkdir()
    res = subprocess.run(CLI + ["verify", "--quick", "--only", "drv2010.kl", "--out", "ev", "--json"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300,
                         env={**{k: v for k, v in os.environ.items() if k != "RELATIONS_COQC"}, "PATH": str(tmp_path / "bin")})
    assert res.returncode == 0, res.stderr
    assert sorted(os.listdir(tmp_path)) == ["bin", "ev"]
    (verdict,) = json.loads(res.stdout)["relations"]
    assert verdict["verdict"] == "unrefuted" and "coqc is not installed" in verdict["evidence"]
    assert any(s.startswith("hypothesis") for s in verdict["searched"])


@pytest.mark.parametrize("sig", ["INT", "KILL"])
def test_an_interrupted_or_killed_verify_loses_nothing(tmp_path, sig):
    """Deterministic: the fault-injection hook (relations.io._outputs.write_step) interrupts or kills the run at
    its first write step, when everything is computed and nothing is in place (tests/test_crash_points.py
    does every step of every command)."""
    out = tmp_path / "ev"
    assert run("verify", *FAST, "--out", out).returncode == 0
    before = snapshot(out)
    proc = subprocess.run(CLI + ["verify", "--quick", "--only", "zheng2025.thm9", "--out", str(out)],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "RELATIONS_CRASH_AT": "1", "RELATIONS_CRASH_SIGNAL": sig},
                          # a shell's background job ignores SIGINT, and the child inherits that: restore the default
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    if sig == "INT":
        assert proc.returncode == 130 and proc.stderr.strip() == "relations: interrupted", proc.stderr
    else:
        assert proc.returncode == -signal.SIGKILL
    assert {k: v for k, v in snapshot(out).items() if not k.startswith(".relations-staging")} == before
    again = run("verify", "--quick", "--only", "zheng2025.thm9", "--out", out)  # the same command completes
    assert again.returncode == 0, again.stderr
    assert not (out / ".relations-staging").exists() and set(before) < set(snapshot(out))


def test_a_swallowed_ctrl_c_still_stops_verify(tmp_path, monkeypatch, sigint_raises):
    # SIGINT landing in a gc callback (hypothesis installs one) is printed as "Exception ignored" and
    # lost; the run must still stop before writing and report 130 (a CI run once went on to exit 0)
    from relations.app import _verify as app_verify
    from relations.catalogue._entries import get
    from relations.pipeline import _verify as verify
    calls = []

    def swallowing(self):
        calls.append(self.rel.id)
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.5)  # the handler runs here
        except KeyboardInterrupt:
            pass  # what gc's callback machinery does
        return real(self)

    real = verify._Search.run
    monkeypatch.setattr(verify._Search, "run", swallowing)
    out = tmp_path / "ev"
    code = app_verify.run_verify([get("zheng2025.thm4"), get("zheng2025.thm1")], out=str(out), quick=True,
                               json_out=True)
    assert code == 130 and calls == ["zheng2025.thm4"]
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*"))
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the latch put it back


def test_figures_refuse_users_files_and_bad_verdicts(tmp_path):
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "krr_information.json").write_text("mine")
    res = run("figures", "--only", "krr_information", cwd=tmp_path)
    one_line_error(res)
    assert (tmp_path / "figures" / "krr_information.json").read_text() == "mine"
    (tmp_path / "v.json").write_text('{"not": "a list"}')
    # in this process: the folder the refused run made is gone when the command returns, not only at exit
    res = run("figures", "--only", "relation_diagram", "--out", "f2", "--verdicts", "v.json", cwd=tmp_path)
    one_line_error(res)
    assert not (tmp_path / "f2").exists()


@pytest.mark.parametrize("args", [
    ("optimize", "--prior", "1/2,1/2", "--notion", "dp", "--eps", "1", "--out", "EXISTING"),
    ("optimize", "--prior", "1/2,1/2", "--notion", "dp", "--eps", "1", "--out", ""),
    ("optimize", "--prior", "1/2,1/2", "--notion", "dp", "--eps", "1", "--out", "."),
    ("verify", "--quick", "--only", "zheng2025.thm4", "--out", ""),
    ("verify", "--quick", "--only", "zheng2025.thm4", "--out", "EXISTING"),
    ("verify", "--seed", "-1"),
    ("verfy",),
    ("verify", "--sed", "3"),
    ("measure",),
    ("optimize", "--prior", "1/2,1/2", "--notion", "dpp", "--eps", "1"),
])
def test_bad_outputs_and_usage_are_one_line(tmp_path, args):
    (tmp_path / "EXISTING").write_text("keep")
    res = run(*args, cwd=tmp_path)
    one_line_error(res)
    assert (tmp_path / "EXISTING").read_text() == "keep"
    if args[0] in ("verfy",) or "--sed" in args or "dpp" in args:
        assert "did you mean" in res.stderr.lower() or "possible options" in res.stderr.lower()


def test_optimize_replaces_with_force(tmp_path):
    target = tmp_path / "m.json"
    target.write_text("old")
    res = run("optimize", "--prior", "1/2,1/2", "--notion", "dp", "--eps", "1", "--out", target, "--force")
    assert res.returncode == 0, res.stderr
    assert target.read_text().startswith("{")


def test_stdout_to_dev_full_is_one_line(tmp_path):
    example = Path(__file__).resolve().parents[1] / "relations" / "data" / "examples" / "paper_example.json"
    with open("/dev/full", "w") as full:
        res = subprocess.run(CLI + ["measure", str(example)], stdout=full, stderr=subprocess.PIPE, text=True)
    one_line_error(res)


def _special_targets(tmp_path: Path) -> dict[str, Path]:
    """A FIFO, and a symbolic link to /dev/null (never /dev/null itself), in the test's folder."""
    fifo, link = tmp_path / "fifo", tmp_path / "null-link"
    os.mkfifo(fifo)
    os.symlink("/dev/null", link)
    return {"fifo": fifo, "link to /dev/null": link}


@pytest.mark.parametrize("force", [False, True])
def test_optimize_never_replaces_a_fifo_or_a_device(tmp_path, force):
    for kind, target in _special_targets(tmp_path).items():
        before = os.lstat(target)
        res = run("optimize", "--prior", "1/2,1/2", "--notion", "dp", "--eps", "1", "--out", target,
                  *(["--force"] if force else []))
        one_line_error(res)
        assert "regular file" in res.stderr, (kind, res.stderr)
        after = os.lstat(target)
        assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode), kind
    assert os.path.islink(tmp_path / "null-link") and os.readlink(tmp_path / "null-link") == "/dev/null"


def test_measure_plot_never_replaces_a_fifo(tmp_path):
    example = Path(__file__).resolve().parents[1] / "relations" / "data" / "examples" / "paper_example.json"
    fifo = tmp_path / "curve.png"
    os.mkfifo(fifo)
    res = run("measure", example, "--tradeoff", "--plot", fifo, "--force")
    one_line_error(res)
    assert "FIFO" in res.stderr and stat_is_fifo(fifo)


def stat_is_fifo(path: Path) -> bool:
    import stat

    return stat.S_ISFIFO(os.lstat(path).st_mode)


def test_the_write_path_refuses_special_files_at_every_entry(tmp_path):
    from relations.errors import InputError
    from relations.io._outputs import OutputDir, check_output_file, create_file, write_bytes_atomic

    targets = _special_targets(tmp_path)
    for target in targets.values():
        for call in (lambda t: check_output_file(str(t), force=True), lambda t: create_file(str(t), b"x", force=True),
                     lambda t: create_file(str(t), b"x"), lambda t: write_bytes_atomic(str(t), b"x")):
            with pytest.raises(InputError, match="not a regular file"):
                call(target)
    out = OutputDir(str(tmp_path), force=True)
    with pytest.raises(InputError, match="FIFO"):
        out.plan(["fifo"])
    out = OutputDir(str(tmp_path), force=True)
    out.write_text("fifo", "x")  # staged without a plan: refused at the commit, nothing renamed over it
    with pytest.raises(InputError, match="FIFO"):
        out.commit()
    out.close()
    assert stat_is_fifo(tmp_path / "fifo") and os.readlink(tmp_path / "null-link") == "/dev/null"
    assert not (tmp_path / ".relations-staging").exists()
