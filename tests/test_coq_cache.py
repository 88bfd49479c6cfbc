"""The Coq check compiles once per set of theorem files and coqc: a cache in the tool's cache folder.

``relations.proofs._coq`` keeps the compiled files under ``coq/KEY`` of the cache folder, ``KEY`` a hash of
the files, their order, ``_CoqProject`` and coqc (version, standard library, executable); each entry has a
manifest of the hashes of its files.  A run copies the entry into a private folder, checking every hash on
the way; an entry that fails (a changed byte, a manifest naming other files or a path outside the entry,
no manifest) is discarded and the files compiled again.  Entries are written in a temporary folder and
renamed into place, so two runs at once both succeed and leave one whole entry.

The tests use a cache folder of their own (``RELATIONS_CACHE_DIR``), never the user's; the small ones
compile a one-file project (``needed`` patched to ``Sums.v``) whose ``Sums.v`` is one definition
(:data:`SMALL_SOURCE`): what they check is the cache, which treats every file as bytes, and coqc compiles it
in under 0.1 s of CPU where the repository's ``Sums.v`` takes 0.8 s (it loads the reals).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from relations.proofs import _coq as coq
from relations.proofs._coq import COQ_PROOFS

ROOT = Path(__file__).resolve().parents[1]
COQ_DIR = ROOT / "proofs" / "coq"


#: The small project's ``Sums.v``: one definition, no library to load.
SMALL_SOURCE = "(* A stand-in for Sums.v in the cache tests: one definition. *)\nDefinition small_sum := 0.\n"


def _small_project(source: Path) -> None:
    source.mkdir()
    (source / "Sums.v").write_text(SMALL_SOURCE, encoding="utf-8")
    (source / "_CoqProject").write_text("-R . Relations\n\nSums.v\n", encoding="utf-8")


def _coqc() -> str:
    path = shutil.which("coqc")
    if path is None:
        pytest.fail("Coq is not installed: apt-get install -y coq (see README)", pytrace=False)
    return path


@pytest.fixture
def small(tmp_path, monkeypatch):
    """A one-file project (``Sums.v``: :data:`SMALL_SOURCE`), a fresh cache folder, a fresh process state, and
    a count of coqc compiles."""
    source = tmp_path / "src"
    _small_project(source)
    monkeypatch.setenv("RELATIONS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(coq, "needed", lambda s: ["Sums.v"])
    monkeypatch.setattr(coq, "_BUILDS", {})
    runs: list[str] = []
    real = coq._run
    monkeypatch.setattr(coq, "_run", lambda c, folder, name: runs.append(name) or real(c, folder, name))
    return source, runs


def _build_and_store(source: Path) -> coq._Build:
    """What a run does: build (from the cache or by compiling), and store what it compiled."""
    coq._BUILDS.clear()  # a new process
    build = coq._build(_coqc(), source)
    assert build.folder is not None, build.release
    if build.compiled:
        coq._store(build, ["Sums.v"])
    return build


def _entry() -> Path:
    entries = [p for p in (coq.cache_folder() or Path("/nonexistent")).iterdir() if not p.name.startswith(".")]
    assert len(entries) == 1, entries
    return entries[0]


def test_the_second_run_copies_the_compiled_file_from_the_cache(small):
    source, runs = small
    cold = _build_and_store(source)
    assert runs == ["Sums.v"] and cold.compiled
    entry = _entry()
    assert entry.parent == Path(coq.cache_folder()) and sorted(p.name for p in entry.iterdir()) == \
        ["Sums.v", "Sums.vo", "manifest.json"]
    warm = _build_and_store(source)
    assert runs == ["Sums.v"] and not warm.compiled  # no compile
    assert warm.folder != cold.folder  # a private copy
    assert (warm.folder / "Sums.vo").read_bytes() == (cold.folder / "Sums.vo").read_bytes()


def test_a_changed_source_or_another_coqc_is_another_key(small, monkeypatch):
    source, runs = small
    _build_and_store(source)
    first = _entry().name
    (source / "Sums.v").write_text((source / "Sums.v").read_text(encoding="utf-8") + "\n(* changed *)\n",
                                   encoding="utf-8")
    _build_and_store(source)
    assert runs == ["Sums.v", "Sums.v"]
    keys = {p.name for p in Path(coq.cache_folder()).iterdir()}
    assert first in keys and len(keys) == 2
    real = coq._coqc_identity
    monkeypatch.setattr(coq, "_coqc_identity", lambda c: (real(c)[0], {**real(c)[1], "version": "another coqc"}))
    _build_and_store(source)
    assert runs == ["Sums.v"] * 3


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A cache folder holding the entry a cold run stores for the small ``Sums.v`` (compiled once for the module; the key
    is a hash of the contents, so the entry serves every test's copy of the project)."""
    folder = tmp_path_factory.mktemp("stored")
    source = folder / "src"
    _small_project(source)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RELATIONS_CACHE_DIR", str(folder / "cache"))
        mp.setattr(coq, "needed", lambda s: ["Sums.v"])
        mp.setattr(coq, "_BUILDS", {})
        assert _build_and_store(source).compiled
        _entry()
    return folder / "cache"


@pytest.mark.parametrize("damage", ["a changed byte", "a truncated file", "no manifest", "a broken manifest",
                                    "a manifest naming a path outside", "a manifest without the compiled file",
                                    "another key in the manifest"])
def test_a_damaged_entry_is_never_used_and_is_rebuilt(small, stored, damage):
    source, runs = small
    shutil.copytree(stored, os.environ["RELATIONS_CACHE_DIR"])  # what a cold run stored
    assert not _build_and_store(source).compiled and runs == []  # the entry, whole, is used
    entry = _entry()
    vo = entry / "Sums.vo"
    manifest = json.loads((entry / "manifest.json").read_text(encoding="utf-8"))
    if damage == "a changed byte":
        data = bytearray(vo.read_bytes())
        data[len(data) // 2] ^= 1
        vo.write_bytes(bytes(data))
    elif damage == "a truncated file":
        vo.write_bytes(vo.read_bytes()[:100])
    elif damage == "no manifest":
        (entry / "manifest.json").unlink()
    elif damage == "a broken manifest":
        (entry / "manifest.json").write_text("{", encoding="utf-8")
    elif damage == "a manifest naming a path outside":
        manifest["files"]["../Sums.vo"] = manifest["files"].pop("Sums.vo")
    elif damage == "a manifest without the compiled file":
        del manifest["files"]["Sums.vo"]
    else:
        manifest["key"] = "0" * 64
    if damage.startswith("a manifest") or damage.startswith("another"):
        (entry / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    rebuilt = _build_and_store(source)
    assert runs == ["Sums.v"] and rebuilt.compiled  # compiled again, not read
    assert not (rebuilt.folder.parent / "Sums.vo").exists()  # nothing written outside the private folder
    again = _build_and_store(source)  # the new entry is whole
    assert runs == ["Sums.v"] and not again.compiled
    assert (again.folder / "Sums.vo").read_bytes() == (rebuilt.folder / "Sums.vo").read_bytes()


def test_two_runs_at_once_leave_one_whole_entry(small, tmp_path):
    """Two processes build and store the same key at the same time: both succeed, one entry stays, and it
    passes its check."""
    source, runs = small
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        from pathlib import Path
        sys.path.insert(0, {str(ROOT)!r})
        from relations.proofs import _coq as coq
        coq.needed = lambda s: ["Sums.v"]
        build = coq._build({_coqc()!r}, Path({str(source)!r}))
        assert build.folder is not None, build.release
        coq._store(build, ["Sums.v"])
        print("ok")
    """), encoding="utf-8")
    procs = [subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0 and out.strip() == "ok", err
    _entry()
    assert sorted(p.name for p in Path(coq.cache_folder()).iterdir()) == [_entry().name]  # no leftovers
    assert not _build_and_store(source).compiled and runs == []


def test_an_unusable_cache_folder_means_compiling_every_time(small, tmp_path, monkeypatch):
    source, runs = small
    (tmp_path / "file").write_text("", encoding="utf-8")
    monkeypatch.setenv("RELATIONS_CACHE_DIR", str(tmp_path / "file"))
    monkeypatch.setattr("relations._cache._NOTED", ["said"])
    assert coq.cache_folder() is None
    _build_and_store(source)
    _build_and_store(source)
    assert runs == ["Sums.v", "Sums.v"]


def _the_runs_cold_check(build: coq._Build, proofs: list) -> tuple[dict, dict] | None:
    """The outcomes and the printed axioms of the run's first check of ``proofs``, when it was a cold one: the check
    right after the run's compile (tests/conftest.py: in this process by ``coq_build``, route ``compiled``, or in
    the run's background build, whose passed session this process read back, route ``cached``; the session cache
    folder is new for each run, so that build compiled and its session knew no axioms), with the axioms that session
    printed (kept in ``build.known``, or in the manifest of the entry it stored, which this process loaded).
    ``None`` when this process checked them itself from the compiled files (``compiled files cached``: a warm
    session, which did not print the axioms)."""
    with coq._LOCK:
        done = {p: coq._CHECKED.get((p, COQ_DIR)) for p in proofs}
    if any(c is None or c.route not in ("compiled", "cached") for c in done.values()):
        return None
    known = dict(build.known)
    if not {"std", *(coq._qualified(p) for p in proofs)} <= set(known):
        return None
    return {p: coq.CoqCheck(c.status, c.detail) for p, c in done.items() if c is not None}, known


@pytest.fixture(scope="module")
def kept(coq_build, tmp_path_factory):
    """The session's compiled theorem files (tests/conftest.py, ``coq_build``) as a cold run keeps them: checked
    by a session that knew no axioms (``cold``, its outcomes; it prints every theorem's assumptions) and
    stored with the axioms it printed in a cache folder of their own (``cache``); then checked by a new
    process from that entry (``warm``, its outcomes, and ``runs``, the coqc runs it made), which keeps its
    passed session there.  Computed once for the module: the tests below read it, and change only a copy of
    ``cache``.  The cold session is the run's first check of the theorems, right after its compile
    (:func:`_the_runs_cold_check`; run here only when this process's check was not that one: repeating it
    was 2.6 s of CPU)."""
    coqc = _coqc()
    build = coq_build
    proofs = list(COQ_PROOFS.values())
    first = _the_runs_cold_check(build, proofs)
    if first is not None:
        cold, known = first
    else:
        known = {}
        cold = coq._check_session(coqc, build.folder, build.release, proofs, known)
    cache = tmp_path_factory.mktemp("kept") / "cache"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RELATIONS_CACHE_DIR", str(cache))
        key = coq._cache_key(coq._coqc_identity(coqc)[1], COQ_DIR, coq.needed(COQ_DIR))
        coq._store(coq._Build(build.folder, build.release, dict(known), key, compiled=True), coq.needed(COQ_DIR))
        mp.setattr(coq, "_BUILDS", {})  # a new process
        mp.setattr(coq, "_CHECKED", {})
        runs: list[str] = []
        real = coq._run
        mp.setattr(coq, "_run", lambda c, folder, name: runs.append(name) or real(c, folder, name))
        warm = coq.check_theorems(proofs)
    return SimpleNamespace(cold=cold, known=known, cache=cache, warm=warm, runs=runs)


def test_warm_and_cold_checks_say_the_same(kept):
    """The theorems checked from a cached library give the outcomes, word for word, of the check right after
    compiling; the warm check runs coqc once (the session: no compile, and the axioms kept with the entry
    are not printed again)."""
    assert set(kept.known) >= {"std", *(coq._qualified(p) for p in COQ_PROOFS.values())}
    assert kept.runs == ["Relations_check.v"]
    assert kept.warm == kept.cold
    assert all(c.status == "checked" for c in kept.warm.values())


def _checks_files() -> list[Path]:
    return sorted(_entry().glob("checks-*.json"))


def test_a_passed_session_is_read_back_only_for_the_same_text_and_files(kept, tmp_path, monkeypatch):
    """A checking session that passed is kept with the compiled files: a later process with the same files,
    coqc and registry runs no coqc and gets the same outcomes, word for word (route ``cached``); a changed
    statement is another session (coqc runs, and its failure is never kept); a kept outcome whose recorded
    file hashes or words differ is not used (asked directly of the reader, :func:`coq._cached_checks`, which
    reads the untouched record back)."""
    proofs = list(COQ_PROOFS.values())
    shutil.copytree(kept.cache, tmp_path / "cache")
    monkeypatch.setenv("RELATIONS_CACHE_DIR", str(tmp_path / "cache"))
    runs: list[str] = []
    real = coq._run
    monkeypatch.setattr(coq, "_run", lambda c, folder, name: runs.append(name) or real(c, folder, name))

    def fresh_process(wanted):
        monkeypatch.setattr(coq, "_BUILDS", {})
        monkeypatch.setattr(coq, "_CHECKED", {})
        runs.clear()
        return coq.check_theorems(wanted)

    first = kept.warm  # the first process to check the stored entry (the fixture)
    assert kept.runs == ["Relations_check.v"] and {c.route for c in first.values()} == {"compiled files cached"}
    assert all(c.status == "checked" for c in first.values()) and len(_checks_files()) == 1
    again = fresh_process(proofs)
    assert runs == [] and {c.route for c in again.values()} == {"cached"}
    assert [(c.status, c.detail) for c in again.values()] == [(c.status, c.detail) for c in first.values()]
    build = coq._BUILDS[COQ_DIR]  # that process's copy of the entry (the hashes of its files, checked)

    proof = COQ_PROOFS["zheng2025.thm1"]
    weaker = coq.CoqProof(proof.file, proof.theorem, proof.statement.replace(
        "is_prior (k ^ r) p ->", "is_prior (k ^ r) p -> (2 <= r)%nat ->"))
    assert weaker.statement != proof.statement
    changed = fresh_process([weaker])
    assert runs == ["Relations_check.v"] and changed[weaker].status == "failed"
    assert len(_checks_files()) == 1  # the failed session is not kept

    kept_file = _checks_files()[0]
    record = json.loads(kept_file.read_text(encoding="utf-8"))
    read = coq._cached_checks(build, record["session"], proofs)  # the record as stored is read back
    assert read is not None and read == first and {c.route for c in read.values()} == {"cached"}
    for damage in ("files", "words"):
        bad = json.loads(json.dumps(record))
        if damage == "files":
            name = next(iter(bad["files"]))
            bad["files"][name] = "0" * 64
        else:
            cite = next(iter(bad["checked"]))
            bad["checked"][cite] = "failed, but said to pass"
        kept_file.write_text(json.dumps(bad), encoding="utf-8")
        assert coq._cached_checks(build, record["session"], proofs) is None, damage


@pytest.mark.slow
def test_verify_evidence_is_the_same_cold_and_warm(tmp_path):
    """``verify --quick --json`` twice with a new cache folder: the first compiles, the second reads the cache;
    the JSON is the same but for timings."""
    import os

    _coqc()
    env = {**os.environ, "RELATIONS_CACHE_DIR": str(tmp_path / "cache")}
    outputs = []
    for run in ("cold", "warm"):
        proc = subprocess.run([sys.executable, "-m", "relations.cli", "verify", "--quick", "--json", "--out",
                               str(tmp_path / run)], capture_output=True, text=True, cwd=ROOT, env=env, timeout=1200)
        assert proc.returncode == 0, proc.stderr
        data = json.loads(proc.stdout)
        data.pop("out", None)
        for rel in data["relations"]:
            rel.pop("seconds", None)
        outputs.append(data)
        assert len([p for p in (tmp_path / "cache" / "coq").iterdir() if not p.name.startswith(".")]) == 1
    assert outputs[0] == outputs[1]
    assert sum(rel.get("coq") is not None for rel in outputs[0]["relations"]) == len(COQ_PROOFS)
