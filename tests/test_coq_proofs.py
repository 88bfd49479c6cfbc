"""The Coq proofs under ``proofs/coq`` compile, admit nothing, and rest only on the standard library's axioms.

Every ``.v`` file is compiled with ``coqc -R . Relations`` in ``_CoqProject`` order, in a temporary copy of
the folder (nothing is built inside the repository; the checker's compile, once per test run); the folder
also builds with ``coq_makefile`` and ``make`` (slow tier).  Each theorem of the registry (``relations.proofs._coq``: :data:`COQ_PROOFS`, the main theorem of
every proved implication, and :data:`COQ_LEMMAS`) must still have its registered statement (so a weakened
statement fails), and ``Print Assumptions`` of it must list only the four axioms the standard library's
real numbers rest on.  ``coqchk`` re-checks the compiled library independently of ``coqc``.

These tests do the checks with their own code (a ``Check`` and a ``Print Assumptions`` per theorem, parsed
here); the last ones test the checker ``relations verify`` uses (:func:`check_theorems`).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from relations.catalogue._entries import CATALOGUE
from relations.proofs import _coq as coq
from relations.proofs._coq import COQ_LEMMAS, COQ_ONLY, COQ_PROOFS, CoqProof, check_theorem, check_theorems

ROOT = Path(__file__).resolve().parents[1]
COQ_DIR = ROOT / "proofs" / "coq"
TIMEOUT = 600
MISSING = "Coq is not installed: apt-get install -y coq (see README)"
BUILD_PRODUCTS = ("*.vo", "*.vok", "*.vos", "*.glob", "*.aux", ".*.aux", ".lia.cache", ".nra.cache",
                  ".Makefile.d", "Makefile", "Makefile.conf")
FORBIDDEN = re.compile(r"\b(Admitted|admit|Axiom|Axioms|Parameter|Parameters|Conjecture|Hypothesis|Hypotheses)\b")

#: The axioms of the standard library's real numbers (Coq 8.16): the classical Dedekind construction's two
#: decision principles, functional extensionality and excluded middle.  Written by hand; the test also
#: checks that the stdlib's own ``Rpower.exp_ln`` and ``MVT.MVT`` rest on exactly these.
STANDARD_AXIOMS = {"ClassicalDedekindReals.sig_not_dec", "ClassicalDedekindReals.sig_forall_dec",
                   "FunctionalExtensionality.functional_extensionality_dep", "Classical_Prop.classic"}
STDLIB_REFERENCES = ("Rpower.exp_ln", "MVT.MVT")

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
def built(coq_build) -> Path:
    """The folder in which the checker verify uses compiled the files the registered theorems need
    (:func:`coq.needed`: all but ``Examples.v``, which ``tests/test_coq_definitions.py`` compiles) in
    ``_CoqProject`` order, once per test run (tests/conftest.py, ``coq_build``); the tests below add their own
    files to it.  Without coqc each test fails (not errors, not skips)."""
    return coq_build.folder


def test_coqproject_lists_every_file_once():
    listed = _project_files(COQ_DIR)
    assert len(listed) == len(set(listed))
    assert set(listed) == {p.name for p in COQ_DIR.glob("*.v")}
    assert "-R . Relations" in (COQ_DIR / "_CoqProject").read_text(encoding="utf-8")


def test_the_theorems_files_compile_in_order(built):
    _tool("coqc")
    for filename in coq.needed(COQ_DIR):
        assert (built / filename).with_suffix(".vo").is_file(), filename


def test_nothing_is_admitted_or_assumed():
    for path in sorted(COQ_DIR.glob("*.v")):
        found = FORBIDDEN.findall(path.read_text(encoding="utf-8"))
        assert not found, f"{path.name} contains {sorted(set(found))}"


# --------------------------------------------------------------------------- the registry


def test_every_proved_implication_has_its_main_theorem():
    """The registry covers exactly the catalogue's implications proved for every mechanism of their scope
    (the non-implications are proved by their families, not in Coq), each named after its id, in the file
    that declares it."""
    implications = {r.id for r in CATALOGUE if r.kind == "implication"}
    assert set(COQ_PROOFS) <= implications
    assert len(COQ_PROOFS) == 19
    for rid, proof in COQ_PROOFS.items():
        assert proof.theorem == rid.replace(".", "_") and proof.cite == f"{proof.file}: {proof.theorem}"
        text = (ROOT / proof.file).read_text(encoding="utf-8")
        assert re.search(rf"^Theorem\s+{proof.theorem}\s*:", text, re.M), (rid, proof.file)
        assert f"[{rid}]" in text, f"{proof.file}: the comment above {proof.theorem} names {rid}"
    for rel in CATALOGUE:
        if rel.kind == "non-implication":
            assert rel.id not in COQ_PROOFS


def test_each_statement_covers_the_catalogue_scope():
    """Read from the registered statement: a local relation quantifies over ``local_nb`` on any ``n``; a
    central one over ``dr_nb k r`` on ``k ^ r`` inputs for all ``k, r`` and over every ``graph_nb edges``,
    with ``charged`` exactly when the catalogue's scope needs a prior on each component; a relation with
    no neighbour relation in it covers every mechanism."""
    for rid, proof in COQ_PROOFS.items():
        rel = next(r for r in CATALOGUE if r.id == rid)
        conjuncts = proof.statement.split(" /\\ ")
        local = any(c.startswith("(forall n m ") and "local_nb" in c for c in conjuncts)
        dr = any(c.startswith("(forall k r m ") and "(dr_nb k r) (k ^ r)" in c for c in conjuncts)
        graphs = [c for c in conjuncts if c.startswith("(forall edges n m ")]
        free = len(conjuncts) == 1 and "_nb" not in proof.statement and "eps_all" in proof.statement
        if free:
            continue
        if str(rel.setting) in ("local", "both"):
            assert local, rid
        if str(rel.setting) in ("central", "both"):
            assert dr and len(graphs) == 1, rid
            assert ("charged (graph_nb edges) n p" in graphs[0]) == rel.scope.needs_prior_on_components, rid
        assert "charged" not in " ".join(c for c in conjuncts if c not in graphs), rid


def test_the_readme_lists_every_theorem():
    """``proofs/coq/README.md`` holds the table generated from the registry, and names every lemma."""
    readme = (COQ_DIR / "README.md").read_text(encoding="utf-8")
    assert coq.markdown_table() in readme
    for proof in COQ_LEMMAS:
        assert f"`{proof.theorem}`" in readme


def test_verify_compiles_what_the_registered_theorems_need(tmp_path):
    """``needed`` follows the ``Require`` lines from the registered theorems' files, in ``_CoqProject`` order,
    and leaves out a file none of them requires."""
    for name in ("Sums", "Mechanism", "KLPair", "Budgets", "RatioRelations", "Other"):
        requires = {"Mechanism": "Sums", "KLPair": "Sums Mechanism", "Budgets": "Sums Mechanism KLPair",
                    "RatioRelations": "Budgets", "Other": "Budgets"}.get(name)
        (tmp_path / f"{name}.v").write_text(f"From Relations Require Import {requires}.\n" if requires else "",
                                            encoding="utf-8")
    (tmp_path / "_CoqProject").write_text("-R . Relations\n\nSums.v\nMechanism.v\nKLPair.v\nBudgets.v\n"
                                          "Other.v\nRatioRelations.v\n", encoding="utf-8")
    assert coq.needed(tmp_path) == ["Sums.v", "Mechanism.v", "KLPair.v", "Budgets.v", "RatioRelations.v"]
    assert set(coq.needed(COQ_DIR)) >= {Path(p.file).name for p in (*COQ_PROOFS.values(), *COQ_LEMMAS)}


def test_verdicts_cite_only_registered_theorems():
    """``proofs/verdicts.json`` cites a Coq theorem only for a proved implication, and only its own."""
    import json

    for entry in json.loads((ROOT / "proofs" / "verdicts.json").read_text(encoding="utf-8")):
        if entry["coq"] is not None:
            assert entry["verdict"] == "proved" and entry["coq"] == COQ_PROOFS[entry["id"]].cite, entry["id"]
        elif entry["id"] in COQ_PROOFS and entry["verdict"] == "proved":
            assert "was not checked in this run" in entry["evidence"], entry["id"]


# --------------------------------------------------------------------------- statements and axioms


def _script(proofs, *, each: bool) -> str:
    """Every ``Check (thm : statement)``, then one ``Print Assumptions`` of the tuple of all the theorems (one
    traversal of the library), or with ``each`` one per theorem."""
    modules = " ".join(dict.fromkeys(["KLPair", "Budgets", *(p.module for p in proofs)]))
    names = [f"{p.module}.{p.theorem}" for p in proofs]
    lines = ["From Coq Require Import Reals Rpower MVT.", f"From Relations Require Import Sums Mechanism {modules}.",
             "Open Scope R_scope."]
    lines += [f"Check ({name} : {p.statement})." for name, p in zip(names, proofs)]  # all before the first Print
    if each:
        lines += [f"Print Assumptions {name}." for name in names]
    else:
        lines += [f"Definition all_theorems := ({', '.join(names)}).", "Print Assumptions all_theorems."]
    return "\n".join(lines) + "\n"


def _assumptions(folder: Path, name: str, script: str) -> list[set[str]]:
    """Run ``script`` and split its output at each ``Print Assumptions`` (one block each, in order)."""
    (folder / f"{name}.v").write_text(script, encoding="utf-8")
    run = _coqc(folder, f"{name}.v")
    assert run.returncode == 0, f"{name}.v failed:\n{run.stdout}\n{run.stderr}"
    blocks = re.split(r"^(?=Axioms:|Closed under the global context)", run.stdout, flags=re.M)[1:]
    return [_axioms(block) for block in blocks]


@pytest.fixture(scope="module")
def printed(built) -> dict[str, set[str]]:
    """One coqc run (one start and one load of the libraries instead of two): the ``Check`` lines of both
    registries (:func:`_script`), then ``Print Assumptions`` of the tuple of every theorem of both registries
    (``"all"``): one traversal of the library (one per registry was 1 s of CPU more).  The axioms it lists."""
    _tool("coqc")
    registries = {"main": list(COQ_PROOFS.values()), "lemmas": list(COQ_LEMMAS)}
    script = "".join(_script(proofs, each=False).split("Definition ")[0] for proofs in registries.values())
    every = [f"{p.module}.{p.theorem}" for proofs in registries.values() for p in proofs]
    script += f"Definition all_theorems := ({', '.join(every)}).\nPrint Assumptions all_theorems.\n"
    blocks = _assumptions(built, "Registered", script)
    assert len(blocks) == 1, blocks
    return {"all": blocks[0]}


def test_the_standard_axioms_are_those_of_the_stdlib_reals(coq_build):
    """The axioms of :data:`STDLIB_REFERENCES` as coqc printed them in this run's build (the checker verify uses
    prints them once per compiled library, ``known["std"]``) are the hand-written :data:`STANDARD_AXIOMS`.  (Read
    here by this file's own script and parser: the slow tier's next test; its ``Print Assumptions`` of the two
    references is 1.8 s of CPU.)"""
    assert coq.STDLIB_REFERENCES == STDLIB_REFERENCES
    assert coq_build.known["std"] == STANDARD_AXIOMS


@pytest.mark.slow
def test_the_standard_axioms_are_those_of_the_stdlib_reals_read_here(built):
    """The same, with this file's own script (one ``Print Assumptions`` of the tuple of the references) and parser."""
    _tool("coqc")
    script = (f"From Coq Require Import Reals Rpower MVT.\nDefinition std_references := "
              f"({', '.join(STDLIB_REFERENCES)}).\nPrint Assumptions std_references.\n")
    blocks = _assumptions(built, "Std_references", script)
    assert len(blocks) == 1 and blocks[0] == STANDARD_AXIOMS, blocks


@pytest.mark.parametrize("registry", ["main", "lemmas"])
def test_registered_theorems_have_their_statements_and_only_standard_axioms(built, printed, registry):
    """Every ``Check (thm : statement)`` of the registry passes, then the assumptions of all the theorems
    of both registries together (one coqc run, ``printed``), and, when those go beyond the standard axioms,
    of each of this registry's, to name the culprits."""
    proofs = list(COQ_PROOFS.values()) if registry == "main" else list(COQ_LEMMAS)
    if printed["all"] - STANDARD_AXIOMS:
        found = _assumptions(built, f"Registered_{registry}_each", _script(proofs, each=True))
        beyond = {p.theorem: sorted(used - STANDARD_AXIOMS) for p, used in zip(proofs, found)
                  if used - STANDARD_AXIOMS}
        assert not beyond, f"theorems resting on more than the standard axioms (Admitted?): {beyond}"


#: The standard library's modules the theorem files import (``From Coq Require Import Reals Rpower Lra Lia Psatz
#: List Bool Arith``), by their full names.
STDLIB_IMPORTS = ("Coq.Reals.Reals", "Coq.Reals.Rpower", "Coq.micromega.Lra", "Coq.micromega.Lia",
                  "Coq.micromega.Psatz", "Coq.Lists.List", "Coq.Bool.Bool", "Coq.Arith.Arith")


def test_coqchk_rechecks_the_library(built):
    """``coqchk`` re-checks every compiled module of the theorems (trusting the standard library's: each module
    named with ``-norec``, checked without its dependencies) and lists the assumptions of the whole environment:
    none may come from the folder, and the standard library's are those it lists for the same standard modules
    (:data:`STDLIB_IMPORTS`, loaded with ``-admit``, and the first re-checked alone: the environment a file importing
    only them loads, without compiling such a file, 0.7 s of CPU less).  (With ``-admit`` on the eight imported
    standard modules instead of ``-norec`` on ours, coqchk re-checked the rest of their dependencies: 21 s of CPU,
    against about 2 s; the slow tier re-checks all of them.)"""
    _tool("coqc")
    coqchk = _tool("coqchk")

    def context(modules: list[str], admitted: tuple[str, ...] = ()) -> set[str]:
        alone = [*(a for m in admitted for a in ("-admit", m)), *(a for m in modules for a in ("-norec", m))]
        run = subprocess.run([coqchk, "-silent", "-o", "-R", ".", "Relations", *alone], cwd=built,
                             capture_output=True, text=True, timeout=TIMEOUT)
        assert run.returncode == 0, run.stdout + run.stderr
        text = run.stdout + run.stderr  # coqchk 8.16 writes the summary on stderr
        assert "CONTEXT SUMMARY" in text, text
        section = text.split("* Axioms:", 1)[1].split("\n* ", 1)[0]
        return {line.strip() for line in section.splitlines() if line.strip() and line.strip() != "<none>"}

    stdlib = context(list(STDLIB_IMPORTS[:1]), STDLIB_IMPORTS)  # Reals.v re-exports: little to check
    assert {"Coq.Reals.ClassicalDedekindReals.sig_not_dec", "Coq.Reals.ClassicalDedekindReals.sig_forall_dec",
            "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep", "Coq.Logic.Classical_Prop.classic"} <= stdlib
    ours = context([f"Relations.{Path(f).stem}" for f in coq.needed(COQ_DIR)])
    assert not {a for a in ours if a.startswith("Relations.")}, sorted(a for a in ours if a.startswith("Relations."))
    assert ours <= stdlib, sorted(ours - stdlib)


@pytest.mark.slow
def test_coqchk_rechecks_the_library_and_the_stdlib(built):
    """The same without trusting any module: the standard library's modules are re-checked too (minutes),
    and the whole environment rests on exactly the four standard axioms."""
    coqchk = _tool("coqchk")
    run = subprocess.run([coqchk, "-silent", "-o", "-R", ".", "Relations",
                          *[f"Relations.{Path(f).stem}" for f in coq.needed(COQ_DIR)]], cwd=built,
                         capture_output=True, text=True, timeout=3 * TIMEOUT)
    assert run.returncode == 0, run.stdout + run.stderr
    section = (run.stdout + run.stderr).split("* Axioms:", 1)[1].split("\n* ", 1)[0]
    found = {line.strip().removeprefix("Coq.Reals.").removeprefix("Coq.Logic.") for line in section.splitlines()
             if line.strip()}
    assert found == STANDARD_AXIOMS


@pytest.mark.slow
def test_coq_makefile_builds_the_folder(tmp_path):
    """The README's recipe (``coq_makefile`` and ``make``); slow: it compiles the folder again, as the
    fixture above does file by file."""
    _tool("coqc")
    folder = _copy(tmp_path / "coq")
    made = subprocess.run([_tool("coq_makefile"), "-f", "_CoqProject", "-o", "Makefile"], cwd=folder,
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert made.returncode == 0, made.stdout + made.stderr
    run = subprocess.run([_tool("make")], cwd=folder, capture_output=True, text=True, timeout=TIMEOUT)
    assert run.returncode == 0, run.stdout + run.stderr
    for filename in _project_files(folder):
        assert (folder / filename).with_suffix(".vo").is_file(), filename


# --------------------------------------------------------------------------- the checker verify uses


def test_check_theorems_checks_every_main_theorem(built):
    """What ``relations verify`` cites: every main theorem passes its check (fails until every proof is done)."""
    _tool("coqc")
    outcomes = check_theorems(COQ_PROOFS.values())
    failed = {p.theorem: o.detail for p, o in outcomes.items() if o.status != "checked"}
    assert not failed, failed


def _lemma(name: str) -> CoqProof:
    return next(p for p in COQ_LEMMAS if p.theorem == name)


@pytest.fixture(scope="module")
def changed(built, coq_build, printed):
    """The proved lemma ``mi_le_kl_bound`` as registered, with a stronger statement, and under a name that is
    not a theorem; the main theorem ``zheng2025.thm1`` with a weaker statement (an extra hypothesis) and a
    stronger one (one hypothesis fewer): all checked by one call of the checker (its session, repeated
    without the missing theorem), which the two tests below read.

    The lemma's axioms are given to the checker as a cached library gives them (the main theorem's are the
    run's build's): those this file's own script read for every theorem together (``printed``, the lemma's
    included), for the duration of the call.  Its session then prints no assumptions: printing the lemma's again
    was 1.8 s of CPU.  The checker prints them in the run's build, test_an_admitted_theorem_is_not_checked and
    tests/test_coq_cache.py."""
    _tool("coqc")
    proof = _lemma("mi_le_kl_bound")
    main = COQ_PROOFS["zheng2025.thm1"]
    cases = {
        "lemma": proof,
        "stronger lemma": CoqProof(proof.file, proof.theorem, proof.statement.replace("eps * (exp eps - 1)", "eps / 2")),
        "absent": CoqProof(proof.file, "no_such_theorem", proof.statement),
        "weaker main": CoqProof(main.file, main.theorem, main.statement.replace(
            "is_prior (k ^ r) p ->", "is_prior (k ^ r) p -> (2 <= r)%nat ->")),
        "stronger main": CoqProof(main.file, main.theorem, main.statement.replace("charged (graph_nb edges) n p -> ", "")),
    }
    assert len(set(cases.values())) == len(cases)
    assert cases["weaker main"].statement != main.statement and cases["stronger main"].statement != main.statement
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(coq_build.known, coq._qualified(proof), frozenset(printed["all"]))
        out = check_theorems(cases.values())
    return {name: out[case] for name, case in cases.items()}


def test_the_checker_tells_a_proof_a_changed_statement_and_a_missing_theorem_apart(changed):
    """On the proved lemmas: the registered statement passes; a stronger one, and a theorem that is not
    there, fail with their reasons."""
    assert changed["lemma"].status == "checked" and "coqc 8." in changed["lemma"].detail
    assert changed["stronger lemma"].status == "failed" and "does not have the statement" in changed["stronger lemma"].detail
    assert changed["absent"].status == "failed" and "is not a theorem of" in changed["absent"].detail


def test_a_main_theorem_with_another_statement_is_not_checked(changed):
    """A registered statement that differs from the theorem's, weaker (an extra hypothesis) or stronger (one
    hypothesis fewer), fails for the statement, proved or not: the check is convertibility, not implication."""
    for name in ("weaker main", "stronger main"):
        assert changed[name].status == "failed" and "does not have the statement" in changed[name].detail


def test_an_admitted_theorem_is_not_checked(built, coq_build, tmp_path):
    """A file of two theorems added to a copy of the compiled folder, one proof ending in Admitted: that
    theorem fails for its assumptions (named), the other one checks.  (The quick version of the next test,
    on a file of two lines instead of a recompiled library file: a compile of 0.1 s instead of 1 s, and
    assumptions printed over nothing instead of over the reals.  The standard library's axioms are given as
    the run's build read them, as a cached library gives them: printing them again costs 1 s of CPU, and a
    check that prints them is test_warm_and_cold_checks_say_the_same's cold one.)"""
    _tool("coqc")
    copy = tmp_path / "coq"
    shutil.copytree(built, copy)
    (copy / "Admits.v").write_text("Theorem admitted_here : True.\nAdmitted.\n"
                                   "Theorem proved_here : True.\nProof. exact I. Qed.\n", encoding="utf-8")
    assert _coqc(copy, "Admits.v").returncode == 0
    admitted, other = (CoqProof("proofs/coq/Admits.v", name, "True") for name in ("admitted_here", "proved_here"))
    assert coq_build.known["std"] == STANDARD_AXIOMS  # read by coqc; written by hand here
    out = coq._check_session(_tool("coqc"), copy, "8.x", [admitted, other], {"std": coq_build.known["std"]})
    assert out[admitted].status == "failed" and "Admitted" in out[admitted].detail
    assert out[admitted].detail.endswith("admitted_here']"), out[admitted].detail
    assert out[other].status == "checked"


@pytest.mark.slow
def test_an_admitted_proof_is_not_checked(built, tmp_path):
    """A copy of the compiled folder in which one proof ends in Admitted (a file nothing imports, recompiled
    alone): that theorem fails for its assumptions, the other theorem of the file still checks.  (Slow: the
    default run has the same on a file of two lines, test_an_admitted_theorem_is_not_checked.)"""
    _tool("coqc")
    copy = tmp_path / "coq"
    shutil.copytree(built, copy)
    text = (copy / "LocalIdentifiability.v").read_text(encoding="utf-8")
    start = text.index("Theorem local_identifiability_corrected")
    end = text.index("Qed.", start)
    (copy / "LocalIdentifiability.v").write_text(text[:end] + "Admitted." + text[end + len("Qed."):], encoding="utf-8")
    assert _coqc(copy, "LocalIdentifiability.v").returncode == 0
    admitted, other = _lemma("local_identifiability_corrected"), _lemma("paper_thm4_form_invalid")
    out = coq._check_session(_tool("coqc"), copy, "8.x", [admitted, other])
    assert out[admitted].status == "failed" and "Admitted" in out[admitted].detail
    assert out[admitted].detail.endswith("local_identifiability_corrected']")  # LocalIdentifiability.local_...
    assert out[other].status == "checked"


def test_check_theorem_fails_when_a_file_does_not_compile(tmp_path):
    """A copy whose first file does not compile fails every theorem, started early by prepare() or not.  (Its
    first line names nothing: coqc stops there, before it loads the reals, 0.7 s of CPU.)"""
    _tool("coqc")
    broken = _copy(tmp_path / "coq")
    text = (broken / "Sums.v").read_text(encoding="utf-8")
    (broken / "Sums.v").write_text("Check no_such_definition.\n" + text, encoding="utf-8")
    coq.prepare(broken)
    for rid in ("relations.kl_tanh", "zheng2025.thm1"):
        outcome = check_theorem(COQ_PROOFS[rid], broken)
        assert outcome.status == "failed" and "coqc Sums.v" in outcome.detail, outcome


def test_one_coqc_session_checks_every_theorem(built, tmp_path, monkeypatch):
    """After the compile, one coqc run checks all the registered theorems (their statements and one Print
    Assumptions of all of them), and a second call in the process runs nothing."""
    _tool("coqc")
    runs: list[str] = []
    real = coq._run
    monkeypatch.setenv("RELATIONS_CACHE_DIR", str(tmp_path / "cache"))  # no session kept from an earlier run
    monkeypatch.setattr(coq, "_CHECKED", {})
    monkeypatch.setattr(coq, "_run", lambda c, folder, name: runs.append(name) or real(c, folder, name))
    coq._quietly(COQ_DIR)  # prepare()'s thread, here
    assert all((proof, COQ_DIR) in coq._CHECKED for proof in COQ_PROOFS.values())
    passed = all(coq._CHECKED[proof, COQ_DIR].status == "checked" for proof in COQ_PROOFS.values())
    assert runs == ["Relations_check.v"] * (1 if passed else 2)  # a second one only to name what is admitted
    check_theorems([*COQ_PROOFS.values()][:3])
    assert runs == ["Relations_check.v"] * (1 if passed else 2)


def test_a_coqc_killed_by_ctrl_c_is_not_remembered_as_a_failure(built, tmp_path, monkeypatch):
    """A Ctrl-C reaches prepare()'s coqc too; a run it killed (negative return code) is no answer, neither in
    the compile nor in the check, so the next check in the same process does it again."""
    _tool("coqc")
    monkeypatch.setenv("RELATIONS_CACHE_DIR", str(tmp_path / "cache"))  # empty: the copy is compiled
    proof = COQ_PROOFS["relations.kl_tanh"]  # its axioms are known with the library: the last session prints none
    real = coq._run
    killed = lambda coqc, folder, name: subprocess.CompletedProcess([coqc], -2, "", "")  # noqa: E731
    monkeypatch.setattr(coq, "_run", killed)
    copy = _copy(tmp_path / "coq")
    first = check_theorem(proof, copy)  # a folder never built: the compile is killed
    assert first.status == "failed" and first.detail == "coqc was stopped by signal 2"
    assert copy not in coq._BUILDS and (proof, copy) not in coq._CHECKED
    monkeypatch.setattr(coq, "_CHECKED", {})
    second = check_theorem(proof)  # the repository's folder, built: the check session is killed
    assert second.status == "failed" and second.detail == "coqc was stopped by signal 2"
    monkeypatch.setattr(coq, "_run", real)
    assert check_theorem(proof).status == "checked"


def test_verify_cites_only_what_it_checked(monkeypatch):
    """A proved relation cites its Coq theorem only when the check passed in the run; otherwise ``coq`` is
    empty and the evidence says why.  A refuted relation cites nothing."""
    from relations.catalogue import get
    from relations.pipeline import _verify

    rel = get("zheng2025.eq18")
    for status in ("checked", "failed", "unavailable"):
        monkeypatch.setattr(_verify, "check_theorem", lambda proof, s=status: coq.CoqCheck(s, f"detail {s}"))
        v = _verify.RelationVerdict(rel, "proved", "z3 proved it")
        _verify._cite_coq(v)
        if status == "checked":
            assert v.coq == COQ_PROOFS[rel.id].cite and v.evidence.endswith("(detail checked)")
        else:
            assert v.coq is None and v.evidence.endswith(f"was not checked in this run: detail {status}")
    refuted = _verify.RelationVerdict(get("zheng2025.thm4"), "refuted", "a witness")
    _verify._cite_coq(refuted)
    assert refuted.coq is None and refuted.evidence == "a witness"
    assert COQ_ONLY <= set(COQ_PROOFS)
