"""Errors that help (issue 31, item 10): a missing extra is named with a command that works from a checkout and
from a wheel (the package is not on PyPI), and the solvers' re-check without cvc5 is one line, no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import relations._install as install
from relations._install import install_hint, installed_from

ROOT = Path(__file__).resolve().parent.parent


def _hidden(tmp_path: Path, *modules: str) -> dict[str, str]:
    """An environment whose Python cannot import ``modules`` (a sitecustomize blocks them) and runs this tree."""
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text("import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in modules))
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(blocker), str(ROOT)])}


@pytest.mark.parametrize("source, expected", [
    (None, ["pip install -e '.[audit]' in a checkout", "'privacy-relations[audit] @ file:///", "not on PyPI"]),
    (("file:///home/ann/relations", True), ["pip install -e '/home/ann/relations[audit]'"]),
    (("file:///tmp/privacy_relations-0.2.0-py3-none-any.whl", False),
     ["pip install 'privacy-relations[audit] @ file:///tmp/privacy_relations-0.2.0-py3-none-any.whl'"]),
])
def test_hint_names_a_command_for_each_kind_of_installation(monkeypatch, source, expected):
    monkeypatch.setattr(install, "installed_from", lambda: source)
    hint = install_hint("audit", only=["dask[distributed]"])
    assert all(e in hint for e in expected), hint
    assert hint.endswith("; or only pip install 'dask[distributed]'") and "\n" not in hint
    assert "pip install 'privacy-relations[audit]'" not in hint  # the command that fails: not on the index


def test_installed_from_is_the_running_package():
    source = installed_from()  # None when this tree is run from PYTHONPATH, not from its installation
    if source is not None and source[1]:
        path = source[0].removeprefix("file://")
        assert os.path.realpath(os.path.join(path, "relations")) == os.path.dirname(os.path.realpath(install.__file__))


def test_installed_from_reads_pip_s_record(monkeypatch, tmp_path):
    from importlib import metadata

    class Dist:
        def read_text(self, name):
            assert name == "direct_url.json"
            return json.dumps({"url": (tmp_path / "co").as_uri(), "dir_info": {"editable": True}})

    monkeypatch.setattr(metadata, "distribution", lambda name: Dist())
    assert installed_from() is None  # an editable checkout elsewhere is not the package running
    monkeypatch.setattr(install, "__file__", str(tmp_path / "co" / "relations" / "_install.py"))
    (tmp_path / "co" / "relations").mkdir(parents=True)
    assert installed_from() == ((tmp_path / "co").as_uri(), True)
    assert install_hint("sweep") == f"pip install -e '{tmp_path / 'co'}[sweep]'"


def _one_line_error(run: subprocess.CompletedProcess, *expected: str) -> None:
    assert run.returncode == 2, (run.returncode, run.stderr)
    assert "Traceback" not in run.stderr and run.stderr.count("\n") == 1, run.stderr
    assert all(e in run.stderr for e in expected), run.stderr


def test_sweep_without_pyarrow_is_one_line(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 2}}))
    run = subprocess.run([sys.executable, "-m", "relations", "sweep", str(spec), "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, env=_hidden(tmp_path, "pyarrow"), timeout=120)
    _one_line_error(run, "needs pyarrow", "[sweep]", "pip install 'pyarrow>=14'")
    assert not (tmp_path / "out").exists()


def test_solver_recheck_without_cvc5_is_one_line(tmp_path):
    lemma = ROOT / "proofs" / "lemmas" / "zheng2025.thm3.smt2"
    run = subprocess.run([sys.executable, "-m", "relations.proofs.solvers", str(lemma)], capture_output=True,
                         text=True, env=_hidden(tmp_path, "cvc5"), timeout=120)
    _one_line_error(run, "cvc5", "pip install 'cvc5>=1.2'", 'z3 "$f"')
    assert run.stdout == ""


def test_solver_recheck_with_cvc5_answers_both(tmp_path):
    pytest.importorskip("cvc5")
    lemma = ROOT / "proofs" / "lemmas" / "zheng2025.thm3.smt2"
    run = subprocess.run([sys.executable, "-m", "relations.proofs.solvers", str(lemma)], capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    verdicts = {v["id"]: v["verdict"] for v in json.loads((ROOT / "proofs" / "verdicts.json").read_text())}
    assert verdicts["zheng2025.thm3"] == "proved"  # so both solvers must answer unsat
    assert run.returncode == 0, run.stderr
    assert "z3 unsat" in run.stdout and "cvc5 unsat" in run.stdout


def test_audit_library_and_scheduler_without_their_packages_are_one_line(tmp_path):
    env = _hidden(tmp_path, "pure_ldp", "distributed")
    run = subprocess.run([sys.executable, "-m", "relations", "audit", "pure-ldp.oue", "--eps", "1", "--k", "4"],
                         capture_output=True, text=True, env=env, timeout=120)
    _one_line_error(run, "pure-ldp is not installed", "[audit]", "--python")
    run = subprocess.run([sys.executable, "-m", "relations", "audit", f"{ROOT / 'examples' / 'randomizer.py'}:privatise",
                          "--domain", "0,1", "--eps", "1", "--black-box", "--scheduler", "tcp://127.0.0.1:1"],
                         capture_output=True, text=True, env=env, timeout=120)
    _one_line_error(run, "needs dask.distributed", "[audit]", "pip install 'dask[distributed]'")
