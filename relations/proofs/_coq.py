"""Machine-checked Coq proofs of the catalogue's proved implications, and re-checking them with ``coqc``.

The repository's ``proofs/coq/`` holds Coq proofs over the standard library's real numbers (no axioms of
their own).  ``Budgets.v`` defines the budgets once, for every finite mechanism (extended reals for the
infinite values, the zero conventions of ``docs/semantics.md``); each proved implication of the catalogue
has one main theorem named after its id (``zheng2025.thm1`` is ``zheng2025_thm1``), stated over every
mechanism of the catalogue's scope.

:data:`COQ_PROOFS` is the one registry of which theorem proves which relation, with the statement it must
have; ``relations verify``, the tests and ``proofs/coq/README.md`` (:func:`markdown_table`) read it.
:func:`check_theorems` compiles the files the theorems need (:func:`needed`) once per process in a temporary
copy (in ``_CoqProject`` order), then checks in **one** coqc session that every theorem still has its
registered statement (a weakened statement fails) and that ``Print Assumptions`` lists only the axioms the
standard library's reals rest on (those of ``Rpower.exp_ln`` and ``MVT.MVT``: an ``Admitted`` proof or an
``Axiom`` fails).

``relations verify`` cites a theorem (a verdict's ``coq``) only when that check passed in the same run.
Without ``coqc`` (or without the ``proofs/coq`` folder, in an installed wheel) nothing is cited: a relation
proved by z3 stays proved by z3, a relation whose only proof is Coq's (:data:`COQ_ONLY`) keeps the verdict
of its searches, and the evidence says why.

Examples
--------
>>> COQ_PROOFS["zheng2025.thm1"].cite
'proofs/coq/RatioRelations.v: zheng2025_thm1'
>>> len(COQ_PROOFS), sorted(COQ_ONLY)
(19, ['drv2010.kl', 'drv2010.kl_dp', 'relations.kl_tanh'])
>>> print(COQ_PROOFS["zheng2025.eq18"].statement)
(forall n m p Q, is_prior n p -> is_channel n m Q -> ele (neg_sigma local_nb n p) (eps_i local_nb n m p Q))
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["COQ_DIR", "COQ_ONLY", "COQ_PROOFS", "COQ_LEMMAS", "CoqProof", "CoqCheck", "Setting", "SETTINGS",
           "check_theorem", "check_theorems", "prepare", "axioms", "markdown_table", "needed"]

#: The Coq sources, next to the package in a clone of the repository.
COQ_DIR = Path(__file__).resolve().parents[2] / "proofs" / "coq"

#: Seconds allowed for compiling one file, and for the checking session.
TIMEOUT = 300

#: The stdlib results whose assumptions define "the axioms the standard library's reals rest on".
STDLIB_REFERENCES = ("Rpower.exp_ln", "MVT.MVT")
_BUILD = ("*.vo", "*.vok", "*.vos", "*.glob", "*.aux", ".*.aux", ".lia.cache", ".nra.cache", "Makefile*", ".Makefile.d")


@dataclass(frozen=True)
class CoqProof:
    """A theorem of ``proofs/coq``: its file, its name, the statement it must have (Coq syntax, in the scope of
    ``Budgets.v`` with ``R_scope`` open), and that statement in plain mathematics and words."""

    file: str
    theorem: str
    statement: str
    math: str = ""
    scope: str = ""

    @property
    def module(self) -> str:
        return Path(self.file).stem

    @property
    def cite(self) -> str:
        """``"file: theorem"``, as verdicts cite it."""
        return f"{self.file}: {self.theorem}"


@dataclass(frozen=True)
class Setting:
    """The mechanisms one conjunct of a main theorem quantifies over: its binders, the neighbour relation and
    the number of inputs (Coq terms), whether the graph must be ``charged``, and the same in words."""

    name: str
    binders: str
    nb: str
    n: str
    words: str
    charged: bool = False


#: The settings of ``Budgets.v``: local domains, every ``D^r``, explicit graphs (charged or not), and "every
#: finite mechanism" for relations neither side of which depends on the neighbour relation.
SETTINGS = {
    "local": Setting("local", "n m", "local_nb", "n", "`local_nb` on any number `n` of inputs: every two distinct "
                     "inputs are neighbours"),
    "D^r": Setting("D^r", "k r m", "(dr_nb k r)", "(k ^ r)", "`dr_nb k r` on `k ^ r` inputs, for every `k` and `r`: "
                   "the datasets of `r` records over `k` values, neighbours when they differ in one record"),
    "graph": Setting("graph", "edges n m", "(graph_nb edges)", "n", "`graph_nb edges` on any `n` inputs, for every "
                     "list of (undirected) edges"),
    "charged graph": Setting("charged graph", "edges n m", "(graph_nb edges)", "n", "the same, when `charged`: each "
                             "connected component with a neighbour pair holds an input of positive prior",
                             charged=True),
    "any": Setting("any", "n m", "", "n", "any `n` inputs, no neighbour relation: neither side depends on it, so "
                   "every local domain, `D^r` and graph"),
}


def _statement(conclusion: str, settings: Iterable[str], *, prior: bool = True) -> str:
    """The conjunction, over ``settings``, of "for every mechanism of the setting (a prior when ``prior``, a
    channel): ``conclusion``" (``{nb}`` and ``{n}`` in it are the setting's neighbour relation and size)."""
    parts = []
    for name in settings:
        s = SETTINGS[name]
        hypotheses = (f"is_prior {s.n} p -> " if prior else "") + f"is_channel {s.n} m Q -> " + \
                     (f"charged {s.nb} {s.n} p -> " if s.charged else "")
        parts.append(f"(forall {s.binders}{' p' if prior else ''} Q, {hypotheses}{conclusion.format(nb=s.nb, n=s.n)})")
    return " /\\ ".join(parts)


#: The conclusions of the main theorems: (Coq, with ``{nb}`` and ``{n}``; plain mathematics; needs a prior).
_ID_DP = ("ele (eps_d {nb} {n} m Q) (eminus (eps_i {nb} {n} m p Q) (sigma_min {nb} {n} p))",
          "eps_d(Q) <= eps_i(p, Q) - sigma_min(p)", True)
_DP_ID = ("ele (eps_i {nb} {n} m p Q) (eminus (eps_d {nb} {n} m Q) (sigma_min {nb} {n} p))",
          "eps_i(p, Q) <= eps_d(Q) - sigma_min(p)", True)
_PRIOR = ("ele (neg_sigma {nb} {n} p) (eps_i {nb} {n} m p Q)", "-sigma_min(p) <= eps_i(p, Q)", True)
_GROUP = ("ele (eps_all {n} m Q) (dmul (diam {nb} {n}) (eps_d {nb} {n} m Q))",
          "eps_all(Q) <= diam * eps_d(Q)", False)
_DENSITY = ("ele (eps_m {n} m p Q) (eps_all {n} m Q)", "I(X;Y) <= eps_all(Q)", True)
_DRV = ("ele (eps_m {n} m p Q) (emap (fun e => e * (exp e - 1)) (eps_all {n} m Q))",
        "I(X;Y) <= eps_all(Q) (e^eps_all(Q) - 1)", True)
_SHARP = ("ele (eps_m {n} m p Q) (eps_d {nb} {n} m Q)", "I(X;Y) <= eps_d(Q)", True)
_TWICE = ("ele (eps_m {n} m p Q) (emap (fun e => 2 * e) (eps_d {nb} {n} m Q))", "I(X;Y) <= 2 eps_d(Q)", True)
_DIAM = ("ele (eps_m {n} m p Q) (dmul (diam {nb} {n}) (eps_d {nb} {n} m Q))", "I(X;Y) <= diam * eps_d(Q)", True)
_KL_DRV = ("ele (kl_max {nb} {n} m Q) (emap (fun e => e * (exp e - 1)) (eps_d {nb} {n} m Q))",
           "max over neighbours x ~ x' of D(Q(x) || Q(x')) <= eps_d(Q) (e^eps_d(Q) - 1)", False)
_KL_TANH = ("ele (kl_max {nb} {n} m Q) (emap (fun e => e * ((exp e - 1) / (exp e + 1))) (eps_d {nb} {n} m Q))",
            "max over neighbours x ~ x' of D(Q(x) || Q(x')) <= eps_d(Q) tanh(eps_d(Q)/2)", False)
_ID_MI = ("ele (eps_m {n} m p Q) (eminus (eps_i {nb} {n} m p Q) (sigma_min {nb} {n} p))",
          "I(X;Y) <= eps_i(p, Q) - sigma_min(p)", True)
_ID_MI2 = ("ele (eps_m {n} m p Q) (emap (fun e => 2 * e) (eminus (eps_i {nb} {n} m p Q) (sigma_min {nb} {n} p)))",
           "I(X;Y) <= 2 (eps_i(p, Q) - sigma_min(p))", True)
_ID_MI_DIAM = ("ele (eps_m {n} m p Q) (dmul (diam {nb} {n}) (eminus (eps_i {nb} {n} m p Q) (sigma_min {nb} {n} p)))",
               "I(X;Y) <= diam * (eps_i(p, Q) - sigma_min(p))", True)

_LOCAL, _CENTRAL, _CENTRAL_CHARGED = ("local",), ("D^r", "graph"), ("D^r", "charged graph")
_BOTH, _BOTH_CHARGED = ("local", "D^r", "graph"), ("local", "D^r", "charged graph")


def _main(file: str, relation_id: str, conclusion: tuple[str, str, bool], settings: tuple[str, ...]) -> CoqProof:
    """The main theorem of ``relation_id`` (named after it) in ``proofs/coq/file``."""
    coq, math, prior = conclusion
    return CoqProof(f"proofs/coq/{file}", relation_id.replace(".", "_"), _statement(coq, settings, prior=prior),
                    f"for every {'prior `p` and ' if prior else ''}channel `Q`: `{math}`", ", ".join(settings))


#: The main theorem of every proved implication of the catalogue (relation id -> theorem): the one registry
#: of which theorem proves which relation, with the statement ``relations verify`` checks it still has.
COQ_PROOFS = {rid: _main(file, rid, conclusion, settings) for file, rid, conclusion, settings in (
    ("RatioRelations.v", "zheng2025.thm1", _ID_DP, _CENTRAL_CHARGED),
    ("RatioRelations.v", "zheng2025.thm3", _ID_DP, _LOCAL),
    ("RatioRelations.v", "suntay2020.thm1xiv", _ID_DP, _BOTH_CHARGED),
    ("RatioRelations.v", "suntay2020.thm1xii", _DP_ID, _BOTH),
    ("RatioRelations.v", "relations.thm2_corrected", _DP_ID, _CENTRAL),
    ("RatioRelations.v", "relations.thm4_corrected", _DP_ID, _LOCAL),
    ("RatioRelations.v", "zheng2025.eq17", _PRIOR, _CENTRAL),
    ("RatioRelations.v", "zheng2025.eq18", _PRIOR, _LOCAL),
    ("GroupMI.v", "dworkroth2014.group", _GROUP, _BOTH),
    ("GroupMI.v", "cuffyu2016.density", _DENSITY, ("any",)),
    ("GroupMI.v", "drv2010.kl", _DRV, ("any",)),
    ("GroupMI.v", "relations.thm11_sharp", _SHARP, _LOCAL),
    ("GroupMI.v", "zheng2025.thm11", _TWICE, _LOCAL),
    ("GroupMI.v", "relations.thm9_corrected", _DIAM, _CENTRAL),
    ("KLRelations.v", "drv2010.kl_dp", _KL_DRV, _BOTH),
    ("KLRelations.v", "relations.kl_tanh", _KL_TANH, _BOTH),
    ("Composed.v", "relations.thm7_sharp", _ID_MI, _LOCAL),
    ("Composed.v", "zheng2025.thm7", _ID_MI2, _LOCAL),
    ("Composed.v", "relations.thm5_corrected", _ID_MI_DIAM, _CENTRAL),
)}

#: Relations whose only proof is the Coq one (z3 cannot reason about ``e^eps``): without a Coq check in the
#: run they are not proved.
COQ_ONLY = frozenset({"drv2010.kl", "relations.kl_tanh", "drv2010.kl_dp"})

_LDP = "forall (n m : nat) (eps : R) (p : nat -> R) (Q : nat -> nat -> R), 0 <= eps -> is_prior n p -> " \
       "is_channel n m Q -> ldp n m eps Q -> "
_PAIR = "forall (m : nat) (eps : R) (P S : nat -> R), 0 <= eps -> is_dist m P -> is_dist m S -> indist m eps P S -> "
_LOCAL_ID_HEAD = ("forall (n m : nat) (eps_d sigma : R) (p : nat -> R) (Q : nat -> nat -> R), "
                  "(forall x, (x < n)%nat -> 0 < p x) -> ")
_LOCAL_ID_TAIL = ("(forall x x', (x < n)%nat -> (x' < n)%nat -> ln (p x / p x') <= - sigma) -> ")
_POSTERIOR = ("forall x x' y, (x < n)%nat -> (x' < n)%nat -> (y < m)%nat -> 0 < Q x y -> 0 < Q x' y -> "
              "ln (posterior n p Q x y / posterior n p Q x' y) <= ")

#: The earlier theorems the main ones rest on or complement (over real-valued budgets: a bound ``eps`` on
#: every ratio, two rows, positive priors): checked by the tests and listed in ``proofs/coq/README.md``,
#: never cited by a verdict.
COQ_LEMMAS = (
    CoqProof("proofs/coq/LocalMISharp.v", "local_mi_le_eps", _LDP + "mutual_info n m p Q <= eps",
             "if every ratio Q(x,y)/Q(x',y) is at most e^eps: I(X;Y) <= eps", "local, any n"),
    CoqProof("proofs/coq/LocalMITanh.v", "local_mi_le_eps_tanh",
             _LDP + "mutual_info n m p Q <= eps * ((exp eps - 1) / (exp eps + 1))",
             "if every ratio Q(x,y)/Q(x',y) is at most e^eps: I(X;Y) <= eps tanh(eps/2)", "local, any n"),
    CoqProof("proofs/coq/LocalMITanh.v", "mi_le_kl_bound", _LDP + "mutual_info n m p Q <= eps * (exp eps - 1)",
             "if every ratio Q(x,y)/Q(x',y) is at most e^eps: I(X;Y) <= eps (e^eps - 1)", "local, any n"),
    CoqProof("proofs/coq/KLPair.v", "kl_le_eps_tanh", _PAIR + "kl m P S <= eps * ((exp eps - 1) / (exp eps + 1))",
             "two distributions whose ratios are within e^(+-eps): D(P || S) <= eps tanh(eps/2)", "one pair of rows"),
    CoqProof("proofs/coq/KLPair.v", "kl_le_drv", _PAIR + "kl m P S <= eps * (exp eps - 1)",
             "two distributions whose ratios are within e^(+-eps): D(P || S) <= eps (e^eps - 1)", "one pair of rows"),
    CoqProof("proofs/coq/LocalIdentifiability.v", "local_identifiability_corrected",
             _LOCAL_ID_HEAD + "is_channel n m Q -> ldp n m eps_d Q -> " + _LOCAL_ID_TAIL + _POSTERIOR + "eps_d - sigma",
             "positive prior, every ratio of Q within e^eps_d, ln(p(x)/p(x')) <= -sigma: "
             "ln(p(x|y)/p(x'|y)) <= eps_d - sigma", "local, positive priors and entries"),
    CoqProof("proofs/coq/LocalIdentifiability.v", "paper_thm4_form_invalid",
             "~ (" + _LOCAL_ID_HEAD + "is_prior n p -> is_channel n m Q -> ldp n m eps_d Q -> " + _LOCAL_ID_TAIL +
             "(exists x x', (x < n)%nat /\\ (x' < n)%nat /\\ ln (p x / p x') = sigma) -> " + _POSTERIOR +
             "eps_d + sigma)",
             "the published form of zheng2025.thm4 (with + sigma) fails on some mechanism", "local"),
)


@dataclass(frozen=True)
class CoqCheck:
    """The outcome of a check: ``status`` is ``"checked"``, ``"unavailable"`` or ``"failed"``."""

    status: str
    detail: str


def axioms(output: str) -> set[str]:
    """Axiom names in the output of one ``Print Assumptions`` (each name starts a line).

    Examples
    --------
    >>> sorted(axioms("Axioms:\\nA.b : Prop\\n  continued\\nC.d : nat"))
    ['A.b', 'C.d']
    >>> sorted(axioms("Axioms:\\nA.long_name\\n  : Prop"))
    ['A.long_name']
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

#: One lock for the builds and the checks: a caller waits for the work :func:`prepare` started.
_LOCK = threading.RLock()
_BUILDS: dict[Path, tuple[Path | None, str]] = {}
_CHECKED: dict[tuple[CoqProof, Path], CoqCheck] = {}
_INTERRUPTED = "coqc was stopped by signal"


def _interrupted(run: subprocess.CompletedProcess) -> str:
    """A message when coqc was killed by a signal (a Ctrl-C reaches it too), else ``""``."""
    return f"{_INTERRUPTED} {-run.returncode}" if run.returncode < 0 else ""


_REQUIRE = re.compile(r"From\s+Relations\s+Require\s+(?:Import\s+|Export\s+)?([\w\s]+?)\s*\.")


def needed(source: Path) -> list[str]:
    """The files of ``source``'s ``_CoqProject``, in its order, that the registered theorems (:data:`COQ_PROOFS`,
    :data:`COQ_LEMMAS`) need: their own files and what those require, transitively.  ``verify`` compiles only
    these; the others (``Examples.v``, which evaluates the definitions on example mechanisms and has its
    own test) are built by ``make`` and the tests.

    Examples
    --------
    >>> files = needed(COQ_DIR)
    >>> files[:2], "RatioRelations.v" in files
    (['Sums.v', 'Mechanism.v'], True)
    """
    files = [s.strip() for s in (source / "_CoqProject").read_text(encoding="utf-8").splitlines()
             if s.strip().endswith(".v")]
    wanted = {Path(p.file).name for p in (*COQ_PROOFS.values(), *COQ_LEMMAS)}
    for name in reversed(files):  # _CoqProject lists a file after those it requires
        if name in wanted and (source / name).is_file():
            for group in _REQUIRE.findall((source / name).read_text(encoding="utf-8")):
                wanted |= {f"{module}.v" for module in group.split()}
    return [name for name in files if name in wanted]


def _build(coqc: str, source: Path) -> tuple[Path | None, str]:
    """Compile the files of ``source`` the registered theorems need (:func:`needed`) once per process, in a
    temporary copy (removed at exit): ``(folder, coqc's release)``, or ``(None, failure message)``.  The
    caller holds :data:`_LOCK`."""
    if source in _BUILDS:
        return _BUILDS[source]
    files = needed(source)
    tmp = tempfile.mkdtemp(prefix="relations-coq-")
    atexit.register(shutil.rmtree, tmp, True)
    folder = Path(tmp) / "coq"
    result: tuple[Path | None, str]
    try:
        shutil.copytree(source, folder, ignore=shutil.ignore_patterns(*_BUILD))
        result = (folder, "")
        for name in files:
            run = _run(coqc, folder, name)
            if run.returncode != 0:
                result = (None, _interrupted(run) or f"coqc {name}: {(run.stderr or run.stdout).strip()[:400]}")
                break
        if result[0] is not None:
            from relations._processes import preexec

            version = subprocess.run([coqc, "--version"], capture_output=True, text=True, timeout=60,
                                     preexec_fn=preexec()).stdout.split()
            result = (folder, next((w for w in version if w[:1].isdigit()), "?"))
    except (OSError, subprocess.TimeoutExpired) as exc:
        result = (None, f"coqc could not be run: {exc}")
    if not result[1].startswith(_INTERRUPTED):  # a coqc stopped by a signal (Ctrl-C) is not an answer
        _BUILDS[source] = result
    return result


_MARK = "relations-coq-check"


def _session(proofs: list[CoqProof], *, each: bool = False) -> str:
    """One Coq file that checks every statement of ``proofs`` (without stopping at a wrong one: each is a
    ``tryif`` in one proof of ``True``) and prints, each after a marker line, the assumptions of the standard
    library's references (``std``, one tuple) and of the theorems: all of them as one tuple (``all``: one
    traversal of the library they share, about a second), or with ``each`` every theorem on its own (about a
    second each), to say which one rests on what."""
    modules = " ".join(dict.fromkeys(["KLPair", "Budgets", *(p.module for p in proofs)]))  # Budgets: the definitions
    lines = ["From Coq Require Import Reals Rpower MVT.",
             f"From Relations Require Import Sums Mechanism {modules}.", "Open Scope R_scope.", "Goal True."]
    for i, p in enumerate(proofs):
        lines.append(f"tryif (let _ := constr:(({p.module}.{p.theorem}) : {p.statement}) in idtac) "
                     f'then idtac "{_MARK} {i} ok" else idtac "{_MARK} {i} differs".')
    lines += ["exact I.", "Qed."]
    names = [f"{p.module}.{p.theorem}" for p in proofs]
    targets = [("std", STDLIB_REFERENCES)] + ([(str(i), (name,)) for i, name in enumerate(names)] if each
                                              else [("all", tuple(names))])
    for key, tuple_ in targets:
        lines += ["Goal True.", f'idtac "{_MARK} assumptions {key}".', "exact I.", "Qed.",
                  f"Definition relations_assumptions_{key} := ({', '.join(tuple_)}).",
                  f"Print Assumptions relations_assumptions_{key}."]
    return "\n".join(lines) + "\n"


def _parse(stdout: str) -> tuple[dict[int, str], dict[str, set[str]]]:
    """The statement outcomes (index -> ``ok`` / ``differs``) and the axioms printed after each assumptions
    marker (``std`` for the references, else the index) in the output of :func:`_session`."""
    statements: dict[int, str] = {}
    printed: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in stdout.splitlines():
        if line.startswith(_MARK + " "):
            words = line.split()
            if words[1] == "assumptions":
                current = printed.setdefault(words[2], [])
            else:
                statements[int(words[1])], current = words[2], None
        elif current is not None:
            current.append(line)
    found: dict[str, set[str]] = {key: set() for key in printed}
    for key, text in printed.items():
        for part in "\n".join(text).split("Axioms:")[1:]:  # one block per Print Assumptions
            found[key] |= axioms("Axioms:" + part)
    return statements, found


def _check_session(coqc: str, folder: Path, release: str, proofs: list[CoqProof]) -> dict[CoqProof, CoqCheck]:
    """Check ``proofs`` against the compiled ``folder`` in one coqc run (:func:`_session`).  A theorem that is
    not there stops coqc (its name cannot be read): it is reported missing and the run is repeated without it.
    When the theorems together rest on more than the standard axioms, a second run finds which ones do."""
    out: dict[CoqProof, CoqCheck] = {}
    present = list(proofs)
    while present:
        (folder / "Relations_check.v").write_text(_session(present), encoding="utf-8")
        run = _run(coqc, folder, "Relations_check.v")
        if _interrupted(run):
            return dict.fromkeys(proofs, CoqCheck("failed", _interrupted(run)))
        if run.returncode == 0:
            break
        said = re.search(r"The reference (\S+) was not found", run.stderr + run.stdout)
        gone = [p for p in present if said and said.group(1) == f"{p.module}.{p.theorem}"]
        if not gone:
            message = f"coqc could not check the theorems: {(run.stderr or run.stdout).strip()[:400]}"
            return dict.fromkeys(proofs, CoqCheck("failed", message))
        for p in gone:
            out[p] = CoqCheck("failed", f"{p.theorem} is not a theorem of {p.file}")
        present = [p for p in present if p not in gone]
    if not present:
        return out
    statements, found = _parse(run.stdout)
    allowed = found.get("std", set())
    if not allowed or found.get("all", set()) - allowed:  # which theorem rests on what: each on its own
        (folder / "Relations_check.v").write_text(_session(present, each=True), encoding="utf-8")
        run = _run(coqc, folder, "Relations_check.v")
        if _interrupted(run) or run.returncode != 0:
            message = _interrupted(run) or f"coqc could not check the theorems: {(run.stderr or run.stdout).strip()[:400]}"
            return {**out, **dict.fromkeys(present, CoqCheck("failed", message))}
        found = _parse(run.stdout)[1]
    for i, p in enumerate(present):
        extra = found.get(str(i), set()) - allowed
        if statements.get(i) != "ok":
            out[p] = CoqCheck("failed", f"{p.theorem} does not have the statement it proves (registered in "
                                        "relations/proofs/_coq.py)")
        elif not allowed or extra:
            out[p] = CoqCheck("failed", f"{p.theorem} rests on more than the standard library's real-number "
                                        f"axioms (an Admitted proof or an Axiom): {sorted(extra)}")
        else:
            out[p] = CoqCheck("checked", f"compiled by coqc {release} in this run; only the standard library's "
                                         "real-number axioms")
    return out


def check_theorems(proofs: Iterable[CoqProof], source: Path = COQ_DIR) -> dict[CoqProof, CoqCheck]:
    """Check every theorem of ``proofs`` against ``source``, compiled in a temporary copy.

    The files the theorems need are compiled once per process (:func:`needed`, in ``_CoqProject`` order;
    :func:`prepare` starts that early), then one coqc session checks every theorem not checked yet in this
    process, together with those of :data:`COQ_PROOFS` not checked yet: each must still have its registered
    statement (``(thm : statement)`` type-checks: convertibility, so a weaker or a stronger statement fails),
    and ``Print Assumptions`` of all of them together must list only the axioms of
    :data:`STDLIB_REFERENCES` (when it lists more, a second session finds which theorems do).

    Parameters
    ----------
    proofs : iterable of CoqProof
        The theorems to check.
    source : Path
        The folder of ``.v`` files with its ``_CoqProject``.

    Returns
    -------
    dict of CoqProof to CoqCheck
        ``"checked"`` with the coqc version; ``"unavailable"`` without coqc or the folder; ``"failed"`` with
        the reason when a file does not compile, the theorem is missing or has another statement, or it
        rests on an axiom beyond the standard library's (an ``Admitted`` proof).

    Examples
    --------
    >>> check_theorems([COQ_PROOFS["drv2010.kl"]], Path("/nonexistent"))[COQ_PROOFS["drv2010.kl"]].status
    'unavailable'
    """
    wanted = list(dict.fromkeys(proofs))
    coqc, why = coqc_program()
    if coqc is None:
        return dict.fromkeys(wanted, CoqCheck("unavailable", why))
    if not (source / "_CoqProject").is_file():
        return dict.fromkeys(wanted, CoqCheck("unavailable", f"the Coq sources ({source}) are not here: run from "
                                                             "a clone of the repository"))
    with _LOCK:  # once per theorem and folder; prepare's thread may be checking them now
        todo = [p for p in dict.fromkeys([*wanted, *COQ_PROOFS.values()]) if (p, source) not in _CHECKED]
        if todo:
            try:
                folder, release = _build(coqc, source)
                done = (dict.fromkeys(todo, CoqCheck("failed", release)) if folder is None
                        else _check_session(coqc, folder, release, todo))
            except (OSError, subprocess.TimeoutExpired) as exc:
                done = dict.fromkeys(todo, CoqCheck("failed", f"coqc could not be run: {exc}"))
            for p, check in done.items():
                if not check.detail.startswith(_INTERRUPTED):  # Ctrl-C killed coqc: ask again next time
                    _CHECKED[p, source] = check
        else:
            done = {}
        return {p: _CHECKED.get((p, source)) or done[p] for p in wanted}


#: The environment variable that names the ``coqc`` to run (a path, or a name looked up on ``PATH``); set to
#: an empty string, no Coq check is made and nothing is cited (as without ``coqc``).
COQC_VARIABLE = "RELATIONS_COQC"


def coqc_program() -> tuple[str | None, str]:
    """The ``coqc`` executable to run, from :data:`COQC_VARIABLE` or ``PATH``: ``(path, "")``, or
    ``(None, why not)``.

    Examples
    --------
    >>> import os
    >>> os.environ[COQC_VARIABLE] = ""
    >>> coqc_program()
    (None, 'Coq checks are off (RELATIONS_COQC is empty)')
    >>> del os.environ[COQC_VARIABLE]
    """
    named = os.environ.get(COQC_VARIABLE)
    if named is not None and not named.strip():
        return None, f"Coq checks are off ({COQC_VARIABLE} is empty)"
    found = shutil.which(named or "coqc")
    if found is None:
        return None, (f"{COQC_VARIABLE}={named!r} is not an executable" if named
                      else "coqc is not installed (apt-get install coq)")
    return found, ""


def check_theorem(proof: CoqProof, source: Path = COQ_DIR) -> CoqCheck:
    """:func:`check_theorems` of one theorem.

    Examples
    --------
    >>> check_theorem(COQ_PROOFS["zheng2025.thm1"], Path("/nonexistent")).status
    'unavailable'
    """
    return check_theorems([proof], source)[proof]


def prepare(source: Path = COQ_DIR, *, ids: Iterable[str] | None = None) -> None:
    """Start compiling ``source`` and checking every theorem of :data:`COQ_PROOFS` in a background thread
    (coqc runs in its own process, so it overlaps the caller's work), when one of the relations ``ids``
    (default: all) has a Coq proof; :func:`check_theorem` then waits for that instead of doing it again.

    Examples
    --------
    >>> prepare(Path("/nonexistent"))  # nothing to compile: returns at once, checks say "unavailable"
    """
    if coqc_program()[0] is None or not (source / "_CoqProject").is_file():
        return
    if ids is not None and not set(ids) & set(COQ_PROOFS):
        return
    threading.Thread(target=_quietly, args=(source,), daemon=True, name="relations-coq").start()


def _quietly(source: Path) -> None:
    """:func:`prepare`'s thread: it works ahead of the callers, who redo whatever it did not finish (a Ctrl-C
    or the interpreter's shutdown can stop it anywhere), so its own failures are not shown."""
    with contextlib.suppress(BaseException):
        check_theorems(COQ_PROOFS.values(), source)


def markdown_table() -> str:
    """The table of ``proofs/coq/README.md``: one row per proved implication, with its theorem, its statement
    in plain mathematics and the settings it covers (explained under the table).

    Examples
    --------
    >>> markdown_table().splitlines()[2].startswith("| `zheng2025.thm1` | `RatioRelations.v`: `zheng2025_thm1` |")
    True
    """
    rows = ["| relation | theorem | statement | over |", "|---|---|---|---|"]
    for rid, p in COQ_PROOFS.items():
        rows.append(f"| `{rid}` | `{Path(p.file).name}`: `{p.theorem}` | {p.math} | {p.scope} |")
    rows += ["", "Settings (one conjunct of the statement each):", ""]
    rows += [f"* **{s.name}**: {s.words}." for s in SETTINGS.values()]
    return "\n".join(rows) + "\n"
