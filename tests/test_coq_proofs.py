"""The Coq proofs under ``proofs/coq`` compile, admit nothing, and rest only on the standard library's axioms.

Every ``.v`` file is compiled with ``coqc -R . Relations`` in ``_CoqProject`` order, in a temporary copy of
the folder (nothing is built inside the repository); the folder also builds with ``coq_makefile`` and
``make``.  ``Print Assumptions`` of each main theorem must list only axioms that the standard library's real
numbers themselves use (the set printed for stdlib results such as ``Rpower.exp_ln``), and each main theorem
must still have the statement written below (so a weakened statement fails the test).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COQ_DIR = ROOT / "proofs" / "coq"
TIMEOUT = 600
MISSING = "Coq is not installed: apt-get install -y coq (see README)"
BUILD_PRODUCTS = ("*.vo", "*.vok", "*.vos", "*.glob", "*.aux", ".*.aux", ".lia.cache", ".nra.cache",
                  ".Makefile.d", "Makefile", "Makefile.conf")
FORBIDDEN = re.compile(r"\b(Admitted|admit|Axiom|Axioms|Parameter|Parameters|Conjecture|Hypothesis|Hypotheses)\b")

# The stdlib results whose assumptions define "the axioms the standard library's reals rely on".
STDLIB_REFERENCES = ("Rpower.exp_ln", "MVT.MVT")

# Main theorems: (module, name, statement it must still have).
MAIN_THEOREMS = (
    ("LocalMISharp", "local_mi_le_eps",
     "forall (n m : nat) (eps : R) (p : nat -> R) (Q : nat -> nat -> R), 0 <= eps -> is_prior n p -> "
     "is_channel n m Q -> ldp n m eps Q -> mutual_info n m p Q <= eps"),
    ("LocalMITanh", "local_mi_le_eps_tanh",
     "forall (n m : nat) (eps : R) (p : nat -> R) (Q : nat -> nat -> R), 0 <= eps -> is_prior n p -> "
     "is_channel n m Q -> ldp n m eps Q -> mutual_info n m p Q <= eps * ((exp eps - 1) / (exp eps + 1))"),
    ("LocalMITanh", "mi_le_kl_bound",
     "forall (n m : nat) (eps : R) (p : nat -> R) (Q : nat -> nat -> R), 0 <= eps -> is_prior n p -> "
     "is_channel n m Q -> ldp n m eps Q -> mutual_info n m p Q <= eps * (exp eps - 1)"),
    ("KLPair", "kl_le_eps_tanh",
     "forall (m : nat) (eps : R) (P S : nat -> R), 0 <= eps -> is_dist m P -> is_dist m S -> indist m eps P S -> "
     "kl m P S <= eps * ((exp eps - 1) / (exp eps + 1))"),
    ("KLPair", "kl_le_drv",
     "forall (m : nat) (eps : R) (P S : nat -> R), 0 <= eps -> is_dist m P -> is_dist m S -> indist m eps P S -> "
     "kl m P S <= eps * (exp eps - 1)"),
    ("LocalIdentifiability", "local_identifiability_corrected",
     "forall (n m : nat) (eps_d sigma : R) (p : nat -> R) (Q : nat -> nat -> R), "
     "(forall x, (x < n)%nat -> 0 < p x) -> is_channel n m Q -> ldp n m eps_d Q -> "
     "(forall x x', (x < n)%nat -> (x' < n)%nat -> ln (p x / p x') <= - sigma) -> "
     "forall x x' y, (x < n)%nat -> (x' < n)%nat -> (y < m)%nat -> 0 < Q x y -> 0 < Q x' y -> "
     "ln (posterior n p Q x y / posterior n p Q x' y) <= eps_d - sigma"),
    ("LocalIdentifiability", "paper_thm4_form_invalid",
     "~ (forall (n m : nat) (eps_d sigma : R) (p : nat -> R) (Q : nat -> nat -> R), "
     "(forall x, (x < n)%nat -> 0 < p x) -> is_prior n p -> is_channel n m Q -> ldp n m eps_d Q -> "
     "(forall x x', (x < n)%nat -> (x' < n)%nat -> ln (p x / p x') <= - sigma) -> "
     "(exists x x', (x < n)%nat /\\ (x' < n)%nat /\\ ln (p x / p x') = sigma) -> "
     "forall x x' y, (x < n)%nat -> (x' < n)%nat -> (y < m)%nat -> 0 < Q x y -> 0 < Q x' y -> "
     "ln (posterior n p Q x y / posterior n p Q x' y) <= eps_d + sigma)"),
)


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(MISSING if name.startswith("coq") else f"{name} is not installed", pytrace=False)
    return path


def _project_files(folder: Path) -> list[str]:
    """The ``.v`` files listed in ``_CoqProject``, in order."""
    lines = (folder / "_CoqProject").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip().endswith(".v")]


def _copy(dest: Path) -> Path:
    shutil.copytree(COQ_DIR, dest, ignore=shutil.ignore_patterns(*BUILD_PRODUCTS))
    return dest


def _coqc(folder: Path, filename: str) -> subprocess.CompletedProcess:
    return subprocess.run([_tool("coqc"), "-R", ".", "Relations", filename], cwd=folder, capture_output=True,
                          text=True, timeout=TIMEOUT)


def _axioms(output: str) -> set[str]:
    """Axiom names in the output of one ``Print Assumptions`` (names start a line, at column 0)."""
    if "Closed under the global context" in output:
        return set()
    assert "Axioms:" in output, output
    body = output.split("Axioms:", 1)[1]
    return {line.split()[0] for line in body.splitlines() if line and not line[0].isspace()}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path | None:
    """A temporary copy of ``proofs/coq`` with every file compiled in ``_CoqProject`` order.

    ``None`` when coqc is missing: each test then fails (not errors, not skips) in its own body."""
    if shutil.which("coqc") is None:
        return None
    folder = _copy(tmp_path_factory.mktemp("coq") / "coq")
    for filename in _project_files(folder):
        run = _coqc(folder, filename)
        assert run.returncode == 0, f"coqc {filename} failed:\n{run.stdout}\n{run.stderr}"
    return folder


def test_coqproject_lists_every_file_once():
    listed = _project_files(COQ_DIR)
    assert len(listed) == len(set(listed))
    assert set(listed) == {p.name for p in COQ_DIR.glob("*.v")}
    assert "-R . Relations" in (COQ_DIR / "_CoqProject").read_text(encoding="utf-8")


def test_every_file_compiles_in_order(built):
    _tool("coqc")
    for filename in _project_files(built):
        assert (built / filename).with_suffix(".vo").is_file(), filename


def test_nothing_is_admitted_or_assumed():
    for path in sorted(COQ_DIR.glob("*.v")):
        found = FORBIDDEN.findall(path.read_text(encoding="utf-8"))
        assert not found, f"{path.name} contains {sorted(set(found))}"


def _print_assumptions(folder: Path, stem: str, requires: str, name: str, check: str = "") -> set[str]:
    script = folder / f"{stem}.v"
    script.write_text(f"{requires}\n{check}\nPrint Assumptions {name}.\n", encoding="utf-8")
    run = _coqc(folder, script.name)
    assert run.returncode == 0, f"{script.name} failed:\n{run.stdout}\n{run.stderr}"
    return _axioms(run.stdout)


def test_main_theorems_use_only_stdlib_reals_axioms(built):
    _tool("coqc")
    allowed: set[str] = set()
    for i, ref in enumerate(STDLIB_REFERENCES):
        allowed |= _print_assumptions(built, f"StdlibAssumptions{i}", "From Coq Require Import Reals Rpower MVT.",
                                      ref)
    assert allowed, "the standard library's reals should rest on some axioms"
    for i, (module, name, statement) in enumerate(MAIN_THEOREMS):
        requires = f"From Coq Require Import Reals.\nFrom Relations Require Import Sums Mechanism {module}.\n" \
                   "Open Scope R_scope."
        check = f"Check ({name} : {statement})."
        used = _print_assumptions(built, f"MainAssumptions{i}", requires, f"{module}.{name}", check)
        assert used <= allowed, f"{name} uses axioms beyond the standard library's reals: {sorted(used - allowed)}"


def test_coq_makefile_builds_the_folder(tmp_path):
    _tool("coqc")
    folder = _copy(tmp_path / "coq")
    made = subprocess.run([_tool("coq_makefile"), "-f", "_CoqProject", "-o", "Makefile"], cwd=folder,
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert made.returncode == 0, made.stdout + made.stderr
    run = subprocess.run([_tool("make")], cwd=folder, capture_output=True, text=True, timeout=TIMEOUT)
    assert run.returncode == 0, run.stdout + run.stderr
    for filename in _project_files(folder):
        assert (folder / filename).with_suffix(".vo").is_file(), filename


def test_verify_names_existing_coq_theorems():
    """Every Coq proof a verdict cites exists, with the theorem it names."""
    from relations.proofs._coq import COQ_PROOFS

    root = Path(__file__).resolve().parents[1]
    written = {(module, name): statement for module, name, statement in MAIN_THEOREMS}
    for relation_id, proof in COQ_PROOFS.items():
        text = (root / proof.file).read_text(encoding="utf-8")
        assert re.search(rf"\b(Theorem|Corollary)\s+{proof.theorem}\b", text), (relation_id, proof.file)
        # the statement verify checks is the one written independently above
        assert written[(proof.module, proof.theorem)] == proof.statement, relation_id


def test_verify_checks_a_coq_only_relation():
    """drv2010.kl has no z3 proof: check_theorem compiles its Coq proof now, and a wrong statement fails."""
    from relations.proofs._coq import COQ_PROOFS, CoqProof, check_theorem

    _tool("coqc")
    proof = COQ_PROOFS["drv2010.kl"]
    assert check_theorem(proof).status == "checked"
    stronger = CoqProof(proof.file, proof.theorem, proof.statement.replace("eps * (exp eps - 1)", "eps / 2"))
    assert check_theorem(stronger).status == "failed"


def test_check_theorem_fails_when_a_file_does_not_compile(tmp_path):
    """The folder is compiled once per process; a copy with a broken proof fails every theorem of it,
    started early by prepare() or not, and the repository's own folder still checks."""
    import shutil

    from relations.proofs._coq import COQ_DIR, COQ_PROOFS, check_theorem, prepare

    _tool("coqc")
    broken = tmp_path / "coq"
    shutil.copytree(COQ_DIR, broken, ignore=shutil.ignore_patterns("*.vo", "*.vok", "*.vos", "*.glob", ".*.aux"))
    text = (broken / "KLPair.v").read_text(encoding="utf-8")
    (broken / "KLPair.v").write_text(text.replace("Qed.", "Admitted. Qed.", 1), encoding="utf-8")
    prepare(broken)
    for rid in ("relations.kl_tanh", "drv2010.kl"):
        outcome = check_theorem(COQ_PROOFS[rid], broken)
        assert outcome.status == "failed" and "KLPair.v" in outcome.detail, outcome
    assert check_theorem(COQ_PROOFS["relations.kl_tanh"]).status == "checked"


def test_a_coqc_killed_by_ctrl_c_is_not_remembered_as_a_failure(tmp_path, monkeypatch):
    """A Ctrl-C reaches prepare()'s coqc too; a run it killed (negative return code) is no answer, so the
    next check in the same process compiles again and passes."""
    import shutil
    import subprocess

    from relations.proofs import _coq as coq
    _tool("coqc")
    copy = tmp_path / "coq"
    shutil.copytree(coq.COQ_DIR, copy, ignore=shutil.ignore_patterns("*.vo", "*.vok", "*.vos", "*.glob", ".*.aux"))
    real = coq._run
    monkeypatch.setattr(coq, "_run", lambda coqc, folder, name: subprocess.CompletedProcess([coqc], -2, "", ""))
    first = coq.check_theorem(coq.COQ_PROOFS["drv2010.kl"], copy)
    assert first.status == "failed" and first.detail == "coqc was stopped by signal 2"
    monkeypatch.setattr(coq, "_run", real)
    assert coq.check_theorem(coq.COQ_PROOFS["drv2010.kl"], copy).status == "checked"


def test_theorems_are_checked_together_and_a_wrong_statement_is_still_attributed(tmp_path, monkeypatch):
    """prepare()'s thread checks the theorems in one coqc run (one Print Assumptions of their tuple); when
    that fails, each theorem is checked alone when asked, so only the one whose statement changed fails."""
    import shutil
    from dataclasses import replace

    from relations.proofs import _coq as coq
    coqc = _tool("coqc")
    ids = sorted(coq.COQ_ONLY)
    for name, wrong in (("good", None), ("wrong", "drv2010.kl_dp")):
        copy = tmp_path / name
        shutil.copytree(coq.COQ_DIR, copy, ignore=shutil.ignore_patterns("*.vo", "*.vok", "*.vos", "*.glob", ".*.aux"))
        if wrong:
            proof = coq.COQ_PROOFS[wrong]
            monkeypatch.setitem(coq.COQ_PROOFS, wrong, replace(proof, statement=proof.statement.replace(
                "exp eps - 1", "exp eps - 2")))
        runs = []
        real = coq._run
        monkeypatch.setattr(coq, "_run", lambda c, folder, file: runs.append(file) or real(c, folder, file))  # noqa: B023
        coq._build_and_check(coqc, copy, ids)
        outcomes = {rid: coq.check_theorem(coq.COQ_PROOFS[rid], copy) for rid in ids}
        monkeypatch.setattr(coq, "_run", real)
        checks = [f for f in runs if f.startswith("Main_")]
        if wrong is None:
            assert checks == ["Main_together.v"] and all(o.status == "checked" for o in outcomes.values())
        else:
            assert checks[0] == "Main_together.v" and len(checks) == 1 + len(ids)  # then each alone
            assert {rid for rid, o in outcomes.items() if o.status != "checked"} == {wrong}
            assert "does not have the statement" in outcomes[wrong].detail
