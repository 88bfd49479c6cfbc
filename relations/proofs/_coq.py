"""Machine-checked Coq proofs of the catalogue's proved implications, and re-checking them with ``coqc``.

The repository's ``proofs/coq/`` holds Coq proofs over the standard library's real numbers (no axioms of
their own).  ``Budgets.v`` defines the budgets once, for every finite mechanism (extended reals for the
infinite values, the zero conventions of ``docs/semantics.md``); each proved implication of the catalogue
has one main theorem named after its id (``zheng2025.thm1`` is ``zheng2025_thm1``), stated over every
mechanism of the catalogue's scope.

:data:`COQ_PROOFS` is the one registry of which theorem proves which relation, with the statement it must
have; ``relations verify``, the tests and ``proofs/coq/README.md`` (:func:`markdown_table`) read it.
:func:`check_theorems` compiles the files the theorems need (:func:`needed`) in a temporary copy (in
``_CoqProject`` order) once per set of files and coqc: the compiled files are kept in the cache folder
(:func:`cache_folder`, keyed by a hash of the files and of coqc, each file's hash checked when it is read
back).  Then it checks in **one** coqc session that every definition the statements use has its registered
body (:data:`~relations.proofs._coq_definitions.COQ_DEFINITIONS`), that every theorem still has its
registered statement over those definitions (a weakened statement fails), and that ``Print Assumptions``
lists only the axioms the standard library's reals rest on (those of ``Rpower.exp_ln`` and ``MVT.MVT``: an
``Admitted`` proof or an ``Axiom`` fails; read once per compiled library and kept with it).

A session that passed is kept in the compiled files' cache entry, keyed by a hash of its whole text (every
registered definition and statement) and of the entry's key, with the hashes of the compiled files it read:
the next run with the same files, coqc and registry reads it there (about 0.1 s instead of a session of
about 1.5 s); a session where anything failed is never kept.  The evidence is the same bytes either way;
:attr:`CoqCheck.route` says which way a check came.

``relations verify`` cites a theorem (a verdict's ``coq``) only when that check passed for this run (done
now, or read from the cache as above).
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
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from relations.proofs._coq_definitions import COQ_DEFINITIONS, closure, uses

__all__ = ["COQ_DIR", "COQ_ONLY", "COQ_PROOFS", "COQ_LEMMAS", "CoqProof", "CoqCheck", "Setting", "SETTINGS",
           "check_theorem", "check_theorems", "prepare", "axioms", "markdown_table", "needed", "cache_folder"]

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
    """The outcome of a check: ``status`` is ``"checked"``, ``"unavailable"`` or ``"failed"``; ``route`` says
    how this process came by it (not part of the evidence, which is the same either way): ``"compiled"``
    (coqc compiled the files and checked them now), ``"compiled files cached"`` (the compiled files came
    from the cache, coqc checked them now) or ``"cached"`` (the same check of the same compiled files, by
    the same coqc, passed before: read from the cache, see :func:`check_theorems`)."""

    status: str
    detail: str
    route: str = field(default="", compare=False)


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
    from relations._processes import start_program

    with start_program(args, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True) as proc:  # coqc dies with the tool, even by SIGKILL
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
_BUILDS: dict[Path, _Build] = {}
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


@dataclass
class _Build:
    """The compiled files of one source folder in this process: ``folder`` (a private temporary copy), or
    ``None`` with ``release`` saying why; the axioms already known per theorem (from the cache); the cache
    key, and whether this process compiled them (so stores them in the cache after its first check)."""

    folder: Path | None
    release: str
    known: dict[str, frozenset[str]] = field(default_factory=dict)
    key: str = ""
    compiled: bool = False
    digests: dict[str, str] = field(default_factory=dict)  # of the compiled folder's files, as checked or stored


def _coqc_identity(coqc: str) -> tuple[str, dict[str, object]]:
    """coqc's release and everything about it that a compiled file depends on: its version text, the folder
    of its standard library (and the size and time of two of its files), the executable's size and time, and
    the variables that change where coqc looks for libraries."""
    from relations._processes import start_program

    def ask(*args: str) -> str:
        with start_program([coqc, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
            try:
                return proc.communicate(timeout=60)[0]
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
                raise

    try:  # coqc's answers, once per process for the same executable and library variables
        st = os.stat(os.path.realpath(coqc))
        asked: tuple | None = (os.path.realpath(coqc), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns,
                               *(os.environ.get(v) for v in _LIBRARY_VARIABLES))
    except OSError:
        asked = None
    if asked is not None and asked in _ASKED:
        version, where = _ASKED[asked]
    else:
        version, where = ask("--version"), ask("-where").strip()
        if asked is not None:
            _ASKED[asked] = version, where
    release = next((w for w in version.split() if w[:1].isdigit()), "?")
    stamps = {}
    for path in (os.path.realpath(coqc), os.path.join(where, "theories", "Init", "Prelude.vo"),
                 os.path.join(where, "theories", "Reals", "Reals.vo")):
        with contextlib.suppress(OSError):
            st = os.stat(path)
            stamps[path] = [st.st_size, st.st_mtime_ns]
    return release, {"version": version, "where": where, "stamps": stamps,
                     "environment": {v: os.environ.get(v) for v in _LIBRARY_VARIABLES}}


#: The variables that change where coqc looks for libraries (part of its identity).
_LIBRARY_VARIABLES = ("COQPATH", "COQLIB", "COQCORELIB")
#: ``coqc --version`` and ``coqc -where`` per executable (its path, file identity, size and time) and
#: :data:`_LIBRARY_VARIABLES`: two coqc starts (70 ms of CPU) once per process instead of once per build.
_ASKED: dict[tuple, tuple[str, str]] = {}


#: Bump when what is stored, how it is compiled or how a check's output is read changes: older entries are
#: then never read.
CACHE_FORMAT = 2
_SAFE_NAME = re.compile(r"[A-Za-z0-9_]+\.vo?")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _cache_key(identity: dict[str, object], source: Path, files: list[str]) -> str:
    """The cache key of compiling ``files`` of ``source`` with the coqc of ``identity``: a hash of all of it."""
    described = {"format": CACHE_FORMAT, "command": "coqc -R . Relations FILE, in order", "coqc": identity,
                 "project": _digest((source / "_CoqProject").read_bytes()),
                 "files": [[name, _digest((source / name).read_bytes())] for name in files]}
    return _digest(json.dumps(described, sort_keys=True).encode())


def cache_folder() -> Path | None:
    """Where compiled theorem files are kept: ``coq/`` in the tool's cache folder (``relations._cache``), one
    folder per cache key; ``None`` when the cache folder is unusable (then every run compiles).

    Examples
    --------
    >>> folder = cache_folder()
    >>> folder is None or folder.name == "coq"
    True
    """
    from relations._cache import usable_cache_dir

    base = usable_cache_dir()
    return None if base is None else Path(base) / "coq"


def _discard(entry: Path) -> None:
    """Remove a cache entry that failed its check: renamed aside first (one atomic step that a concurrent
    run cannot see half done), then deleted."""
    aside = entry.with_name(f".stale-{entry.name}-{os.getpid()}-{threading.get_ident()}")
    with contextlib.suppress(OSError):
        os.rename(entry, aside)
    shutil.rmtree(aside, ignore_errors=True)


def _load(entry: Path, key: str, files: list[str],
          dest: Path) -> tuple[dict[str, frozenset[str]], dict[str, str]] | None:
    """Copy the cache entry ``entry`` into ``dest`` and check it on the way: its manifest names this key and
    exactly the source and compiled files of ``files``, and each copied file has the hash the manifest
    records.  The axioms the manifest records per theorem and the files' hashes, or ``None`` when anything
    differs (the entry is then discarded: never trusted)."""
    try:
        manifest = json.loads((entry / "manifest.json").read_text(encoding="utf-8"))
        recorded = manifest["files"]
        expected = {f"{name}{suffix}" for name in files for suffix in ("", "o")}
        if manifest.get("format") != CACHE_FORMAT or manifest.get("key") != key or set(recorded) != expected \
                or not all(_SAFE_NAME.fullmatch(name) for name in recorded):
            raise ValueError("manifest")
        for name, digest in recorded.items():
            data = (entry / name).read_bytes()
            if _digest(data) != digest:
                raise ValueError(name)
            (dest / name).write_bytes(data)
        return {k: frozenset(v) for k, v in manifest.get("axioms", {}).items()}, dict(recorded)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        if entry.exists():
            _discard(entry)
        return None


def _store(build: _Build, files: list[str]) -> None:
    """Keep the files ``build`` compiled (sources and ``.vo``) in the cache, with a manifest of their hashes
    and the axioms known per theorem: written in a temporary folder beside the entry and renamed into place
    (atomic; when a concurrent run stored the same key first, its entry stays and this copy is dropped)."""
    parent = cache_folder()
    if parent is None or build.folder is None:
        return
    try:
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=parent))
    except OSError:
        return
    try:
        recorded = {}
        for name in files:
            for file in (name, f"{name}o"):
                data = (build.folder / file).read_bytes()
                (tmp / file).write_bytes(data)
                recorded[file] = _digest(data)
        manifest = {"format": CACHE_FORMAT, "key": build.key, "files": recorded,
                    "axioms": {k: sorted(v) for k, v in sorted(build.known.items())}}
        (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
        os.rename(tmp, parent / build.key)
        build.digests = recorded
    except OSError:
        pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _checks_file(build: _Build, session: str) -> Path | None:
    parent = cache_folder()
    return None if parent is None or not build.key else parent / build.key / f"checks-{session}.json"


def _cached_checks(build: _Build, session: str, proofs: list[CoqProof]) -> dict[CoqProof, CoqCheck] | None:
    """The outcome of the checking session ``session`` (a hash of the build's cache key and of the session's
    whole text: every registered definition and statement) when it passed before against the same compiled
    files: read from the cache entry, where :func:`_store_checks` wrote it, and used only when it names this
    key, this session and exactly the hashes of the files this process has checked (:func:`_load`) or
    stored, and holds a passed check of every theorem of ``proofs``; else ``None`` (the session runs)."""
    path = _checks_file(build, session)
    if path is None or not build.digests:
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        checked = record["checked"]
        if (record.get("format") != CACHE_FORMAT or record.get("key") != build.key or record.get("session") != session
                or record.get("files") != build.digests or set(checked) != {p.cite for p in proofs}
                or not all(isinstance(d, str) and d.startswith("checked by coqc") for d in checked.values())):
            return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return {p: CoqCheck("checked", checked[p.cite], "cached") for p in proofs}


def _store_checks(build: _Build, session: str, done: dict[CoqProof, CoqCheck]) -> None:
    """Keep the outcome of a checking session in the build's cache entry when every theorem passed (a failure
    is checked again next time), written to a temporary file and renamed into place (atomic)."""
    path = _checks_file(build, session)
    if path is None or not build.digests or not path.parent.is_dir() \
            or not all(c.status == "checked" for c in done.values()):
        return
    record = {"format": CACHE_FORMAT, "key": build.key, "session": session, "files": build.digests,
              "checked": {p.cite: c.detail for p, c in sorted(done.items(), key=lambda item: item[0].cite)}}
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".checks-", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1, sort_keys=True)
        os.replace(tmp, path)
    except OSError:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _build(coqc: str, source: Path) -> _Build:
    """The files of ``source`` the registered theorems need (:func:`needed`), compiled, in a private temporary
    copy (removed at exit), once per process: copied from the cache when an entry for their hashes and this
    coqc passes its check (:func:`_load`), else compiled in ``_CoqProject`` order.  The caller holds
    :data:`_LOCK`."""
    if source in _BUILDS:
        return _BUILDS[source]
    files = needed(source)
    tmp = tempfile.mkdtemp(prefix="relations-coq-")
    atexit.register(shutil.rmtree, tmp, True)
    folder = Path(tmp) / "coq"
    try:
        release, identity = _coqc_identity(coqc)
        key = _cache_key(identity, source, files)
        cache = cache_folder()
        if cache is not None and (cache / key).is_dir():
            folder.mkdir()
            loaded = _load(cache / key, key, files, folder)
            if loaded is not None:
                _BUILDS[source] = result = _Build(folder, release, loaded[0], key, digests=loaded[1])
                return result
            shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(source, folder, ignore=shutil.ignore_patterns(*_BUILD))
        result = _Build(folder, release, {}, key, compiled=True)
        for name in files:
            run = _run(coqc, folder, name)
            if run.returncode != 0:
                result = _Build(None, _interrupted(run) or f"coqc {name}: {(run.stderr or run.stdout).strip()[:400]}")
                break
    except (OSError, subprocess.TimeoutExpired) as exc:
        result = _Build(None, f"coqc could not be run: {exc}")
    if not result.release.startswith(_INTERRUPTED):  # a coqc stopped by a signal (Ctrl-C) is not an answer
        _BUILDS[source] = result
    return result


_MARK = "relations-coq-check"


def _checks(proofs: list[CoqProof], gone: set[str]) -> list[str]:
    """The body of one proof of ``True`` that checks, each with a marker line and without stopping at a
    failure (``tryif``): every registered inductive type has its constructors, every registered definition of
    the compiled library is convertible with its registered body (``Pinned``), and every theorem of
    ``proofs`` has its statement, read over the registered definitions.  ``gone`` lists the definitions the
    library lacks (they are not named: the name could not be read)."""
    lines = []

    def check(term: str, label: str) -> None:
        lines.append(f'tryif ({term} idtac) then idtac "{_MARK} {label} ok" else idtac "{_MARK} {label} differs".')

    for d in COQ_DEFINITIONS.values():
        if d.name in gone:
            continue
        if d.kind == "Inductive":
            cases = " | ".join(f"{c}{' _' * arity} => tt" for c, arity, _ in d.constructors())
            typed = ", ".join(f"({c} : {t})" for c, _, t in d.constructors())
            check(f"let _ := constr:(fun e : {d.name} => match e with {cases} end) in let _ := constr:(({typed})) in",
                  f"def {d.name}")
        else:
            check(f"let _ := constr:(eq_refl : Relations.{d.module}.{d.name} = Pinned.{d.name}) in", f"def {d.name}")
    for i, p in enumerate(proofs):
        check(f"let _ := constr:((Relations.{p.module}.{p.theorem}) : {p.statement}) in", f"stmt {i}")
    return lines


def _session(proofs: list[CoqProof], *, printing: list[CoqProof] | None = None, std: bool = True,
             each: bool = False, gone: Iterable[str] = ()) -> str:
    """One Coq file that checks the registered definitions and every statement of ``proofs`` (:func:`_checks`)
    and prints, each after a marker line, the assumptions of the standard library's references (``std``, one
    tuple, when ``std``) and of the theorems of ``printing`` (default: ``proofs``): all of them as one tuple
    (``all``: one traversal of the library they share, about a second), or with ``each`` every theorem on
    its own (about a second each), to say which one rests on what.

    The theorems' modules are required, not imported: the statements are read in a scope that holds the
    standard library and the registered definitions, declared afresh in a module ``Pinned`` from their
    registered text (the inductive types are the library's, imported by name), so a theorem passes only if
    its type is convertible with its statement over the registered definitions."""
    gone = set(gone)
    printing = proofs if printing is None else printing
    defs = list(COQ_DEFINITIONS.values())  # all declared in Pinned; the checks skip those the library lacks
    inductives = [d for d in defs if d.kind == "Inductive"]
    modules = " ".join(dict.fromkeys([*(d.module for d in COQ_DEFINITIONS.values()), *(p.module for p in proofs)]))
    lines = ["From Coq Require Import Reals Rpower MVT List Bool Arith.", f"From Relations Require {modules}."]
    for module in dict.fromkeys(d.module for d in inductives):
        lines.append(f"Import {module}({', '.join(f'{d.name}(..)' for d in inductives if d.module == module)}).")
    lines += ["Open Scope R_scope.", "Module Pinned."]
    lines += [d.text for d in defs if d.kind != "Inductive"]
    lines += ["End Pinned.", "Import Pinned.", "Goal True.", *_checks(proofs, gone), "exact I.", "Qed."]
    names = [_qualified(p) for p in printing]
    targets: list[tuple[str, tuple[str, ...]]] = [("std", STDLIB_REFERENCES)] if std else []
    if names:
        targets += [(str(i), (name,)) for i, name in enumerate(names)] if each else [("all", tuple(names))]
    for key, tuple_ in targets:
        lines += ["Goal True.", f'idtac "{_MARK} assumptions {key}".', "exact I.", "Qed.",
                  f"Definition relations_assumptions_{key} := ({', '.join(tuple_)}).",
                  f"Print Assumptions relations_assumptions_{key}."]
    return "\n".join(lines) + "\n"


def _qualified(proof: CoqProof) -> str:
    return f"Relations.{proof.module}.{proof.theorem}"


def _parse(stdout: str) -> tuple[dict[str, str], dict[str, set[str]]]:
    """The outcomes of the checks (``def NAME`` or ``stmt INDEX`` -> ``ok`` / ``differs``) and the axioms
    printed after each assumptions marker (``std`` for the references, ``all``, or an index) in the output of
    :func:`_session`."""
    outcomes: dict[str, str] = {}
    printed: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in stdout.splitlines():
        if line.startswith(_MARK + " "):
            words = line.split()
            if words[1] == "assumptions":
                current = printed.setdefault(words[2], [])
            else:
                outcomes[f"{words[1]} {words[2]}"], current = words[3], None
        elif current is not None:
            current.append(line)
    found: dict[str, set[str]] = {key: set() for key in printed}
    for key, text in printed.items():
        for part in "\n".join(text).split("Axioms:")[1:]:  # one block per Print Assumptions
            found[key] |= axioms("Axioms:" + part)
    return outcomes, found


def _failing_roots(outcomes: dict[str, str]) -> set[str]:
    """The registered definitions that fail their check while every registered definition they use passes
    (a definition over a changed one fails too: the changed one is named)."""
    failing = {name for name in COQ_DEFINITIONS if outcomes.get(f"def {name}") != "ok"}
    return {name for name in failing
            if not (closure(" ".join(uses(COQ_DEFINITIONS[name].text, own=name))) - {name}) & failing}


def _check_session(coqc: str, folder: Path, release: str, proofs: list[CoqProof],
                   known: dict[str, frozenset[str]] | None = None) -> dict[CoqProof, CoqCheck]:
    """Check ``proofs`` against the compiled ``folder`` in one coqc run (:func:`_session`).  A theorem or a
    registered definition (or constructor) that is not there stops coqc (its name cannot be read): it is
    reported missing and the run is repeated without it.  The axioms of the theorems, and those of the standard
    library's references (``known["std"]``), are printed unless ``known`` already holds them (the cache keeps them
    with the compiled files they were read from); what is printed is added to ``known``.  When the theorems
    together rest on more than the standard axioms, a second run finds which ones do."""
    known = {} if known is None else known
    out: dict[CoqProof, CoqCheck] = {}
    present, gone = list(proofs), set[str]()
    while present:
        printing = [p for p in present if _qualified(p) not in known]
        std = "std" not in known  # read once per compiled library, like the theorems' own (kept with it)
        (folder / "Relations_check.v").write_text(_session(present, printing=printing, std=std, gone=gone),
                                                  encoding="utf-8")
        run = _run(coqc, folder, "Relations_check.v")
        if _interrupted(run):
            return dict.fromkeys(proofs, CoqCheck("failed", _interrupted(run)))
        if run.returncode == 0:
            break
        said = re.search(r"The reference (\S+) was not found", run.stderr + run.stdout)
        missing = said.group(1) if said else ""
        absent = [p for p in present if missing == _qualified(p)]
        lost = {d.name for d in COQ_DEFINITIONS.values() if missing == f"Relations.{d.module}.{d.name}"
                or missing in (c for c, _, _ in d.constructors())} - gone
        if not absent and not lost:
            message = f"coqc could not check the theorems: {(run.stderr or run.stdout).strip()[:400]}"
            return {**out, **dict.fromkeys(present, CoqCheck("failed", message))}
        for p in absent:
            out[p] = CoqCheck("failed", f"{p.theorem} is not a theorem of {p.file}")
        present = [p for p in present if p not in absent]
        gone |= lost
    if not present:
        return out
    outcomes, found = _parse(run.stdout)
    if "std" in found:
        known["std"] = frozenset(found["std"])
    allowed = known.get("std", frozenset())
    if "all" in found:
        if not allowed or found["all"] - allowed:  # which theorem rests on what: each on its own
            (folder / "Relations_check.v").write_text(_session(present, printing=printing, std=False, each=True,
                                                               gone=gone), encoding="utf-8")
            run = _run(coqc, folder, "Relations_check.v")
            if _interrupted(run) or run.returncode != 0:
                message = _interrupted(run) or f"coqc could not check the theorems: {(run.stderr or run.stdout).strip()[:400]}"
                return {**out, **dict.fromkeys(present, CoqCheck("failed", message))}
            each = _parse(run.stdout)[1]
            known.update({_qualified(p): frozenset(each.get(str(i), set())) for i, p in enumerate(printing)})
        else:  # together within the standard axioms: so is each
            known.update({_qualified(p): frozenset(found["all"]) for p in printing})
    roots = _failing_roots(outcomes)
    for i, p in enumerate(present):
        changed = sorted(roots & closure(p.statement))
        extra = known.get(_qualified(p), frozenset()) - allowed
        if changed:
            named = ", ".join(f"{name} ({COQ_DEFINITIONS[name].file})" for name in changed)
            out[p] = CoqCheck("failed", f"{p.theorem} uses a definition that does not have its registered body "
                                        f"(relations/proofs/_coq_definitions.py): {named}")
        elif outcomes.get(f"stmt {i}") != "ok":
            out[p] = CoqCheck("failed", f"{p.theorem} does not have the statement it proves (registered in "
                                        "relations/proofs/_coq.py)")
        elif not allowed or extra:
            out[p] = CoqCheck("failed", f"{p.theorem} rests on more than the standard library's real-number "
                                        f"axioms (an Admitted proof or an Axiom): {sorted(extra)}")
        else:
            out[p] = CoqCheck("checked", f"checked by coqc {release}: its registered statement and definitions; "
                                         "only the standard library's real-number axioms")
    return out


def check_theorems(proofs: Iterable[CoqProof], source: Path = COQ_DIR) -> dict[CoqProof, CoqCheck]:
    """Check every theorem of ``proofs`` against ``source``, compiled in a temporary copy.

    The files the theorems need are compiled once per set of files and coqc (:func:`needed`, in
    ``_CoqProject`` order, kept in the cache folder, :func:`cache_folder`, and copied from there, checked,
    when they are there; :func:`prepare` starts that early), then one coqc session checks every theorem not
    checked yet in this process, together with those of :data:`COQ_PROOFS` not checked yet: every registered
    definition (:data:`~relations.proofs._coq_definitions.COQ_DEFINITIONS`) must still have its registered
    body, each theorem its registered statement over those definitions (``(thm : statement)`` type-checks:
    convertibility, so a weaker or a stronger statement fails), and ``Print Assumptions`` of all of them
    together must list only the axioms of :data:`STDLIB_REFERENCES` (when it lists more, a second session
    finds which theorems do; the axioms are read once per compiled library and kept with it).  A session
    that passed is kept with the compiled files, keyed by its text, and read back instead of run again when
    the same files, coqc and registry ask again (:attr:`CoqCheck.route` ``"cached"``).

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
        the reason when a file does not compile, a definition the theorem uses does not have its registered
        body, the theorem is missing or has another statement, or it rests on an axiom beyond the standard
        library's (an ``Admitted`` proof).

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
                build = _build(coqc, source)
                if build.folder is None:
                    done = dict.fromkeys(todo, CoqCheck("failed", build.release))
                else:
                    session = _digest(f"{build.key}\n{_session(todo)}".encode())
                    cached = _cached_checks(build, session, todo)
                    if cached is not None:
                        done = cached
                    else:
                        route = "compiled" if build.compiled else "compiled files cached"
                        done = {p: CoqCheck(c.status, c.detail, route) for p, c in
                                _check_session(coqc, build.folder, build.release, todo, build.known).items()}
                        if build.compiled and not any(c.detail.startswith(_INTERRUPTED) for c in done.values()):
                            build.compiled = False
                            _store(build, needed(source))
                        _store_checks(build, session, done)
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
    from relations._processes import register_fork_handlers

    register_fork_handlers()  # before the thread forks coqc: none registered while it forks (see there)
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
