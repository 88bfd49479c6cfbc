"""Machine-checked Coq proofs of catalogue relations, and re-checking them with ``coqc``.

The repository's ``proofs/coq/`` holds Coq proofs over the standard library's real numbers
(no axioms of their own).  :data:`COQ_PROOFS` says which relation each main theorem proves
and with which statement; :func:`check_theorem` compiles the folder in a temporary copy (in
``_CoqProject`` order), checks that the theorem still has that statement, and that
``Print Assumptions`` lists only axioms that the standard library's reals rest on (those of
``Rpower.exp_ln`` and ``MVT.MVT``).  ``relations verify`` calls it for a relation whose only
proof is in Coq (``drv2010.kl``): the verdict is ``proved`` only when the check passed in
that run (also ``relations.kl_tanh`` and ``drv2010.kl_dp``, per neighbour pair, ``KLPair.v``); without ``coqc`` (or without the ``proofs/coq`` folder, in an installed wheel) the
relation keeps the verdict of its searches and the evidence says why.

Examples
--------
>>> COQ_PROOFS["drv2010.kl"].cite
'proofs/coq/LocalMITanh.v: mi_le_kl_bound'
>>> sorted(COQ_ONLY)
['drv2010.kl', 'drv2010.kl_dp', 'relations.kl_tanh']
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

__all__ = ["COQ_DIR", "COQ_ONLY", "COQ_PROOFS", "CoqProof", "CoqCheck", "check_theorem", "prepare", "axioms"]

T = TypeVar("T")

#: The Coq sources, next to the package in a clone of the repository.
COQ_DIR = Path(__file__).resolve().parents[2] / "proofs" / "coq"

#: Seconds allowed for compiling the folder (it takes a few seconds).
TIMEOUT = 300

_STDLIB_REFERENCES = ("Rpower.exp_ln", "MVT.MVT")
_BUILD = ("*.vo", "*.vok", "*.vos", "*.glob", "*.aux", ".*.aux", ".lia.cache", ".nra.cache", "Makefile*", ".Makefile.d")


@dataclass(frozen=True)
class CoqProof:
    """A main theorem of ``proofs/coq``: its file, name and the statement it must have."""

    file: str
    theorem: str
    statement: str

    @property
    def module(self) -> str:
        return Path(self.file).stem

    @property
    def cite(self) -> str:
        """``"file: theorem"``, as verdicts cite it."""
        return f"{self.file}: {self.theorem}"


_HEAD = "forall (n m : nat) (eps : R) (p : nat -> R) (Q : nat -> nat -> R), 0 <= eps -> is_prior n p -> " \
        "is_channel n m Q -> ldp n m eps Q -> "
_SHARP = CoqProof("proofs/coq/LocalMISharp.v", "local_mi_le_eps", _HEAD + "mutual_info n m p Q <= eps")
_LOCAL_ID = CoqProof(
    "proofs/coq/LocalIdentifiability.v", "local_identifiability_corrected",
    "forall (n m : nat) (eps_d sigma : R) (p : nat -> R) (Q : nat -> nat -> R), "
    "(forall x, (x < n)%nat -> 0 < p x) -> is_channel n m Q -> ldp n m eps_d Q -> "
    "(forall x x', (x < n)%nat -> (x' < n)%nat -> ln (p x / p x') <= - sigma) -> "
    "forall x x' y, (x < n)%nat -> (x' < n)%nat -> (y < m)%nat -> 0 < Q x y -> 0 < Q x' y -> "
    "ln (posterior n p Q x y / posterior n p Q x' y) <= eps_d - sigma")

#: Two eps-indistinguishable distributions (``KLPair.v``): the rows of any neighbour pair, in either setting.
_PAIR = "forall (m : nat) (eps : R) (P S : nat -> R), 0 <= eps -> is_dist m P -> is_dist m S -> indist m eps P S -> "

#: Relations with a machine-checked Coq proof in ``proofs/coq/``.  ``ldp`` there bounds the ratio
#: over *all* pairs of inputs, so with datasets as inputs the theorems are about ``eps_all`` in the
#: central setting too (``drv2010.kl`` is stated for both settings).
COQ_PROOFS = {
    "relations.thm11_sharp": _SHARP,
    "zheng2025.thm11": _SHARP,
    "relations.thm4_corrected": _LOCAL_ID,
    "drv2010.kl": CoqProof("proofs/coq/LocalMITanh.v", "mi_le_kl_bound",
                           _HEAD + "mutual_info n m p Q <= eps * (exp eps - 1)"),
    "relations.kl_tanh": CoqProof("proofs/coq/KLPair.v", "kl_le_eps_tanh",
                                  _PAIR + "kl m P S <= eps * ((exp eps - 1) / (exp eps + 1))"),
    "drv2010.kl_dp": CoqProof("proofs/coq/KLPair.v", "kl_le_drv", _PAIR + "kl m P S <= eps * (exp eps - 1)"),
}

#: Relations whose only proof is the Coq one (z3 cannot reason about ``e^eps``).
COQ_ONLY = frozenset({"drv2010.kl", "relations.kl_tanh", "drv2010.kl_dp"})


@dataclass(frozen=True)
class CoqCheck:
    """The outcome of :func:`check_theorem`: ``status`` is ``"checked"``, ``"unavailable"`` or ``"failed"``."""

    status: str
    detail: str


def axioms(output: str) -> set[str]:
    """Axiom names in the output of one ``Print Assumptions`` (each name starts a line).

    Examples
    --------
    >>> sorted(axioms("Axioms:\\nA.b : Prop\\n  continued\\nC.d : nat"))
    ['A.b', 'C.d']
    >>> axioms("Closed under the global context")
    set()
    """
    if "Closed under the global context" in output:
        return set()
    body = output.split("Axioms:", 1)[1] if "Axioms:" in output else ""
    return {line.split()[0] for line in body.splitlines() if line and not line[0].isspace()}


def _run(coqc: str, folder: Path, name: str) -> subprocess.CompletedProcess:
    """coqc on one file, at a lower scheduling priority (:data:`NICE`): the checks run beside the searches
    and should take the cores those leave idle, not slow them down."""
    args = [coqc, "-R", ".", "Relations", name]
    from relations._processes import preexec

    with subprocess.Popen(args, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          preexec_fn=preexec()) as proc:  # coqc dies with the tool, even by SIGKILL
        with contextlib.suppress(OSError):  # not permitted here: the default priority
            os.setpriority(os.PRIO_PROCESS, proc.pid, NICE)
        try:
            out, err = proc.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


#: The niceness of the coqc processes (``os.setpriority``; 0 is the default, 19 the lowest priority).
NICE = 10


_LOCK = threading.Lock()
_BUILDS: dict[Path, tuple[Path | None, frozenset[str], str]] = {}


def _build(coqc: str, source: Path) -> tuple[Path | None, frozenset[str], str]:
    """Compile ``source`` once per process into a temporary copy (removed at exit): ``(folder, the axioms the
    standard library's reals rest on, coqc's release)``, or ``(None, frozenset(), failure message)``."""
    with _LOCK:
        if source in _BUILDS:
            return _BUILDS[source]
        files = [s.strip() for s in (source / "_CoqProject").read_text(encoding="utf-8").splitlines()
                 if s.strip().endswith(".v")]
        tmp = tempfile.mkdtemp(prefix="relations-coq-")
        atexit.register(shutil.rmtree, tmp, True)
        folder = Path(tmp) / "coq"
        result: tuple[Path | None, frozenset[str], str] = (folder, frozenset(), "")
        try:
            shutil.copytree(source, folder, ignore=shutil.ignore_patterns(*_BUILD))
            (folder / "Std.v").write_text(  # one Print Assumptions of a tuple: one traversal of the shared library
                "From Coq Require Import Reals Rpower MVT.\n"
                f"Definition relations_stdlib := ({', '.join(_STDLIB_REFERENCES)}).\n"
                "Print Assumptions relations_stdlib.\n", encoding="utf-8")
            std = _aside(lambda: _run(coqc, folder, "Std.v"))  # the standard library's axioms need none of the files
            for name in files:
                run = _run(coqc, folder, name)
                if run.returncode != 0:
                    result = (None, frozenset(), _interrupted(run) or
                              f"coqc {name}: {(run.stderr or run.stdout).strip()[:400]}")
                    break
            std_run = std()
            if result[0] is not None:
                allowed: set[str] = set()
                for part in std_run.stdout.split("Axioms:")[1:]:  # one coqc for all the references
                    allowed |= axioms("Axioms:" + part)
                from relations._processes import preexec

                version = subprocess.run([coqc, "--version"], capture_output=True, text=True, timeout=60,
                                         preexec_fn=preexec()).stdout.split()
                result = ((None, frozenset(), _interrupted(std_run)) if _interrupted(std_run) else
                          (folder, frozenset(allowed), next((w for w in version if w[:1].isdigit()), "?")))
        except (OSError, subprocess.TimeoutExpired) as exc:
            result = (None, frozenset(), f"coqc could not be run: {exc}")
        if not result[2].startswith(_INTERRUPTED):  # a coqc stopped by a signal (Ctrl-C) is not an answer
            _BUILDS[source] = result
        return result


def _aside(work: Callable[[], T]) -> Callable[[], T]:
    """Start ``work`` in a daemon thread; the returned function waits for its result (or raises its
    exception).  A plain thread, not an executor: an executor refuses new work once the interpreter shuts
    down, which a Ctrl-C can make happen while :func:`prepare`'s thread is still compiling."""
    box: list = []

    def run() -> None:
        try:
            box.append((True, work()))
        except BaseException as exc:  # handed to the waiter
            box.append((False, exc))

    thread = threading.Thread(target=run, daemon=True, name="relations-coq-aside")
    thread.start()

    def result() -> T:
        thread.join()
        ok, value = box[0]
        if not ok:
            raise value
        return value

    return result


_INTERRUPTED = "coqc was stopped by signal"


def _interrupted(run: subprocess.CompletedProcess) -> str:
    """A message when coqc was killed by a signal (a Ctrl-C reaches it too), else ``""``."""
    return f"{_INTERRUPTED} {-run.returncode}" if run.returncode < 0 else ""


def prepare(source: Path = COQ_DIR, *, ids: Iterable[str] | None = None) -> None:
    """Start compiling ``source`` in a background thread (coqc runs in its own process, so the compile
    overlaps the caller's work), then checking the theorems of the relations ``ids`` of :data:`COQ_ONLY`
    (default: all of them); :func:`check_theorem` then waits for that instead of doing it again.

    Examples
    --------
    >>> prepare(Path("/nonexistent"))  # nothing to compile: returns at once, checks say "unavailable"
    """
    coqc = shutil.which("coqc")
    if coqc is None or not (source / "_CoqProject").is_file():
        return
    wanted = sorted(COQ_ONLY if ids is None else COQ_ONLY & set(ids))
    threading.Thread(target=_build_and_check, args=(coqc, source, wanted), daemon=True, name="relations-coq").start()


def _build_and_check(coqc: str, source: Path, ids: list[str]) -> None:
    """:func:`_prepared`, quietly: it works ahead of the callers, who redo whatever it did not finish (a Ctrl-C
    or the interpreter's shutdown can stop it anywhere), so its own failures are not shown."""
    with contextlib.suppress(BaseException):
        _prepared(coqc, source, ids)


def _prepared(coqc: str, source: Path, ids: list[str]) -> None:
    """:func:`prepare`'s thread: compile, then check the theorems of ``ids`` together (:func:`_check_together`;
    a theorem that waits for its check waits for this).  When that does not pass, each theorem is checked on
    its own when it is asked for, so that the failure is attributed."""
    _build(coqc, source)
    proofs = sorted({COQ_PROOFS[rid] for rid in ids}, key=lambda p: (p.module, p.theorem))
    keys = [(proof, source) for proof in proofs]
    with _CHECK_LOCK:
        locks = [_KEY_LOCKS.setdefault(key, threading.Lock()) for key in keys]
    with contextlib.ExitStack() as held:  # in one order; a caller holds at most one of them at a time
        for lock in locks:
            held.enter_context(lock)
        if any(key not in _CHECKED for key in keys):
            together = _check_together(coqc, [p for p in proofs if (p, source) not in _CHECKED], source)
            if together is not None:
                for key in keys:
                    _CHECKED.setdefault(key, together)


_CHECK_LOCK = threading.Lock()
_CHECKED: dict[tuple[CoqProof, Path], CoqCheck] = {}
_KEY_LOCKS: dict[tuple[CoqProof, Path], threading.Lock] = {}


def check_theorem(proof: CoqProof, source: Path = COQ_DIR) -> CoqCheck:
    """Check ``proof``'s statement and axioms against ``source`` compiled in a temporary copy.

    The folder is compiled once per process (in ``_CoqProject`` order; :func:`prepare` starts that early),
    then one small file per theorem checks the statement with ``Check`` and the axioms with
    ``Print Assumptions``.

    Parameters
    ----------
    proof : CoqProof
        The theorem to check.
    source : Path
        The folder of ``.v`` files with its ``_CoqProject``.

    Returns
    -------
    CoqCheck
        ``"checked"`` with the coqc version; ``"unavailable"`` without coqc or the folder;
        ``"failed"`` with coqc's message when a file does not compile, the statement differs or an
        axiom beyond the standard library's is used.
    """
    key = (proof, source)
    with _CHECK_LOCK:
        lock = _KEY_LOCKS.setdefault(key, threading.Lock())
    with lock:  # once per theorem and folder; prepare's thread may be checking it now
        if key in _CHECKED:
            return _CHECKED[key]
        check = _check_theorem(proof, source)
        if not check.detail.startswith(_INTERRUPTED):  # Ctrl-C killed coqc: ask again next time
            _CHECKED[key] = check
        return check


def _check_together(coqc: str, proofs: list[CoqProof], source: Path) -> CoqCheck | None:
    """Check several theorems in one coqc run: each statement with ``Check``, and one ``Print Assumptions`` of
    the tuple of all of them (the union of their axioms, in one traversal of the library they share).
    The check every one of them passes, or ``None`` when any part fails (each is then checked alone)."""
    folder, allowed, release = _build(coqc, source)
    if folder is None or not proofs or not allowed:
        return None
    modules = " ".join(dict.fromkeys(p.module for p in proofs))
    checks = "".join(f"Check ({p.theorem} : {p.statement}).\n" for p in proofs)
    names = ", ".join(f"{p.module}.{p.theorem}" for p in proofs)
    try:
        (folder / "Main_together.v").write_text(
            f"From Coq Require Import Reals.\nFrom Relations Require Import Sums Mechanism {modules}.\n"
            f"Open Scope R_scope.\n{checks}Definition relations_checked := ({names}).\n"
            "Print Assumptions relations_checked.\n", encoding="utf-8")
        run = _run(coqc, folder, "Main_together.v")
    except (OSError, subprocess.TimeoutExpired):
        return None
    if run.returncode != 0 or axioms(run.stdout) - allowed:
        return None
    return _passed(release)


def _passed(release: str) -> CoqCheck:
    return CoqCheck("checked", f"compiled by coqc {release} in this run; only the standard library's real-number axioms")


def _check_theorem(proof: CoqProof, source: Path) -> CoqCheck:
    coqc = shutil.which("coqc")
    if coqc is None:
        return CoqCheck("unavailable", "coqc is not installed (apt-get install coq)")
    if not (source / "_CoqProject").is_file():
        return CoqCheck("unavailable", f"the Coq sources ({source}) are not here: run from a clone of the repository")
    folder, allowed, release = _build(coqc, source)
    if folder is None:
        return CoqCheck("failed", release)
    main = f"Main_{proof.module}_{proof.theorem}.v"
    try:
        (folder / main).write_text(
            f"From Coq Require Import Reals.\nFrom Relations Require Import Sums Mechanism {proof.module}.\n"
            f"Open Scope R_scope.\nCheck ({proof.theorem} : {proof.statement}).\n"
            f"Print Assumptions {proof.module}.{proof.theorem}.\n", encoding="utf-8")
        run = _run(coqc, folder, main)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return CoqCheck("failed", f"coqc could not be run: {exc}")
    if _interrupted(run):
        return CoqCheck("failed", _interrupted(run))
    if run.returncode != 0:
        return CoqCheck("failed", f"{proof.theorem} does not have the statement it proves: {run.stderr.strip()[:400]}")
    extra = axioms(run.stdout) - allowed
    if not allowed or extra:
        return CoqCheck("failed", f"{proof.theorem} uses axioms beyond the standard library's reals: {sorted(extra)}")
    return _passed(release)
