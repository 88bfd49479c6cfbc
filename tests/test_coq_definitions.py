"""The Coq definitions of ``proofs/coq/Budgets.v`` take the tool's values on example mechanisms.

``proofs/coq/Examples.v`` (written by :mod:`relations.proofs._coq_examples`) states, for each example
mechanism, that ``eps_d``, ``eps_all``, ``eps_i``, ``neg_sigma``, ``sigma_min``, ``diam``, ``eps_m`` and (where
it is ``0`` or ``+inf``) ``kl_max`` of ``Budgets.v`` equal the tool's exact values, and proves each by
unfolding the definitions.  Here: the committed file is the one the generator writes now; it compiles
(in a temporary copy, with only the files it imports); a file with one value changed does not compile
(so the check can fail); the file's ``eps_m`` form is the one built independently below, and its value
(mpmath interval arithmetic, 60 digits) lies in the tool's certified enclosure of ``I(X;Y)``; and a
few values derived by hand are the ones written.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COQ_DIR = ROOT / "proofs" / "coq"
EXAMPLES = COQ_DIR / "Examples.v"
TIMEOUT = 600
BUILD_PRODUCTS = ("*.vo", "*.vok", "*.vos", "*.glob", "*.aux", ".*.aux", ".lia.cache", ".nra.cache",
                  ".Makefile.d", "Makefile", "Makefile.conf")
_IMPORT = re.compile(r"From Relations Require Import ([^.]*)\.")


def _examples():
    from relations.proofs._coq_examples import examples

    return {e.name: e for e in examples()}


def _statement(text: str, lemma: str) -> str:
    """The statement of ``Lemma lemma : ... .`` in ``text``."""
    found = re.search(rf"^Lemma {re.escape(lemma)} : (.*)\.$", text, re.M)
    assert found, lemma
    return found.group(1)


def test_the_committed_file_is_the_generated_one():
    from relations.proofs._coq_examples import EXAMPLES_FILE, render

    assert EXAMPLES_FILE == EXAMPLES
    assert EXAMPLES.read_text(encoding="utf-8") == render(), \
        "proofs/coq/Examples.v is stale: python -m relations.proofs._coq_examples > proofs/coq/Examples.v"


def test_it_evaluates_the_definitions_themselves():
    """Examples.v imports the definitions only (not the characterisation lemmas nor the theorems), and it is
    compiled last."""
    text = EXAMPLES.read_text(encoding="utf-8")
    assert _IMPORT.findall(text) == ["Sums Mechanism KLPair Budgets"]
    assert "BudgetFacts" not in text.split("*)", 1)[1]
    listed = [line.strip() for line in (COQ_DIR / "_CoqProject").read_text(encoding="utf-8").splitlines()
              if line.strip().endswith(".v")]
    assert listed[-1] == "Examples.v"


def test_the_examples_cover_the_settings_and_conventions():
    """Local, D^2 and explicit graphs; a zero prior (sigma_min = -inf), a disconnected graph (diam = None), an
    infinite eps_d, a 0/0 ratio (an output no input reaches), a neighbour relation narrower than all pairs."""
    text = EXAMPLES.read_text(encoding="utf-8")
    ex = _examples()
    assert "local_nb" in _statement(text, "local3_eps_d") and "(dr_nb 2 2) 4 3" in _statement(text, "d2_eps_d")
    assert "graph_nb" in _statement(text, "graph0_eps_d")
    assert _statement(text, "local3_sigma_min").endswith("= NInf") and 0 in ex["local3"].mechanism.prior.exact
    assert _statement(text, "graph0_sigma_min").endswith("= NInf")
    assert _statement(text, "split_diam").endswith("= None")
    assert _statement(text, "inf_eps_d").endswith("= PInf")
    zero = ex["zero"].mechanism.channel.exact
    assert all(row[2] == 0 for row in zero)  # output 2: every ratio there is 0/0
    for name in ("d2", "graph0", "split"):  # eps_d over the neighbours differs from eps_all
        assert _statement(text, f"{name}_eps_d").split(" = ")[1] != _statement(text, f"{name}_eps_all").split(" = ")[1]


def test_values_derived_by_hand():
    """Paper example, prior (19/20, 1/20), rows (13/20, 7/20), (7/20, 13/20): eps_d = ln(13/7), eps_i =
    ln((19/20)(13/20) / ((1/20)(7/20))) = ln(247/7), sigma_min = ln(1/19), one step between any two inputs.
    d2 (rows (1/2, 3/10, 1/5), (2/5, 3/10, 3/10), (3/10, 3/10, 2/5), (1/5, 3/10, 1/2); datasets 0 ~ 1, 0 ~ 2,
    1 ~ 3, 2 ~ 3): the largest neighbour ratio is (2/5)/(1/5) = 2 (datasets 1, 3), over all pairs
    (1/2)/(1/5) = 5/2 (datasets 0, 3, not neighbours); diameter 2.  The path graph has diameter 3; the
    disconnected graph has equal rows on each edge, so eps_d = 0 and kl_max = 0; the row (1/2, 1/2, 0)
    against (1/3, 1/3, 1/3) makes eps_d and kl_max infinite.  A single input has no pair: every budget is 0
    and the diameter 0.  The edge 0 - 1 with priors (1/4, 3/4) and an isolated input of prior 0: sigma_min =
    ln((1/4)/(3/4)) = ln(1/3), finite, the graph disconnected, and the rows (1/2, 1/2), (1, 0) of inputs 0 and 2
    make eps_all infinite."""
    text = EXAMPLES.read_text(encoding="utf-8")
    expected = {
        "paper_eps_d": "Fin (ln (13/7))", "paper_eps_i": "Fin (ln (247/7))", "paper_sigma_min": "Fin (ln (1/19))",
        "paper_neg_sigma": "Fin (ln (19))", "paper_diam": "Some 1%nat",
        "d2_eps_d": "Fin (ln (2))", "d2_eps_all": "Fin (ln (5/2))", "d2_diam": "Some 2%nat",
        "graph0_diam": "Some 3%nat", "split_eps_d": "Fin (ln (1))", "split_kl_max": "Fin 0",
        "inf_eps_d": "PInf", "inf_kl_max": "PInf",
        "single_diam": "Some 0%nat", "single_eps_d": "Fin (ln (1))", "single_sigma_min": "Fin (ln (1))",
        "isolated_diam": "None", "isolated_sigma_min": "Fin (ln (1/3))", "isolated_eps_all": "PInf",
    }
    for lemma, value in expected.items():
        assert _statement(text, lemma).endswith(f" = {value}"), lemma


def _form(prior, rows):
    """I(X;Y) = sum_x sum_y p(x)Q(x,y) ln(Q(x,y)/q(y)) as (weight, ratio) terms, built here from the
    definition (a term of weight 0 is written 0 * ln 1)."""
    n, m = len(rows), len(rows[0])
    q = [sum(prior[x] * rows[x][y] for x in range(n)) for y in range(m)]
    return [[(prior[x] * rows[x][y], rows[x][y] / q[y]) if prior[x] and rows[x][y] else (Fraction(0), Fraction(1))
             for y in range(m)] for x in range(n)]


def _text(q: Fraction) -> str:
    return f"{q.numerator}" if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _enclose(form) -> tuple[Fraction, Fraction]:
    """Exact rational bounds on sum w ln r (mpmath interval arithmetic at 60 digits)."""
    from mpmath import iv
    from mpmath.libmp import to_rational

    saved, iv.dps = iv.dps, 60
    try:
        total = iv.mpf(0)
        for row in form:
            for w, r in row:
                if w:
                    total += iv.mpf(w.numerator) / w.denominator * iv.log(iv.mpf(r.numerator) / r.denominator)
    finally:
        iv.dps = saved
    lo, hi = (Fraction(*to_rational(end)) for end in total._mpi_)
    return lo, hi


@pytest.mark.parametrize("name", list(_examples()))
def test_eps_m_form_is_the_tools_mutual_information(name):
    """Coq proves eps_m = Fin (the form) (Examples.v); here the form is rebuilt from the definition, and its
    value lies in the tool's certified enclosure (width <= 2^-100); a form with one ratio 1/1000 larger (the
    value moves by w ln(1001/1000)) does not."""
    from relations import measure

    mech = _examples()[name].mechanism
    prior, rows = list(mech.prior.exact), [list(r) for r in mech.channel.exact]
    form = _form(prior, rows)
    terms = " + ".join("(" + " + ".join(["0"] + [f"{_text(w)} * ln ({_text(r)})" for w, r in row]) + ")"
                       for row in form)
    assert _statement(EXAMPLES.read_text(encoding="utf-8"), f"{name}_eps_m").endswith(f"= Fin (0 + {terms})")
    enclosure = measure(mech).eps_m.enclosure
    assert enclosure.upper - enclosure.lower <= Fraction(1, 2 ** 100)
    lo, hi = _enclose(form)
    assert enclosure.lower <= lo <= hi <= enclosure.upper, (name, float(lo), enclosure)
    x, y = next((x, y) for x, row in enumerate(form) for y, (w, _) in enumerate(row) if w)
    off = [list(row) for row in form]
    off[x][y] = (off[x][y][0], off[x][y][1] * Fraction(1001, 1000))
    lo, hi = _enclose(off)
    assert hi < enclosure.lower or lo > enclosure.upper


@pytest.mark.parametrize("name", [n for n in _examples()
                                  if f"Lemma {n}_kl_witness :" in EXAMPLES.read_text(encoding="utf-8")])
def test_kl_of_the_witness_pair_is_the_tools_kl(name):
    """Where kl_max is finite and positive, Examples.v proves that kl_div of the pair the tool names is
    Fin (sum_y P(y) ln(P(y)/S(y))); here that form is rebuilt from the definition, and its value lies in the
    tool's enclosure of kl (2^-100 wide); with one ratio 1/1000 larger it does not."""
    from relations.checking import values

    mech = _examples()[name].mechanism
    rows = [list(r) for r in mech.channel.exact]
    vals = values(mech)
    kl, pair = vals.reals["kl"], vals.witnesses["kl"]
    x, x2 = pair.x, pair.x_prime
    assert {x, x2} <= set(range(len(rows))) and x != x2
    form = [(a, a / b) if a else (Fraction(0), Fraction(1)) for a, b in zip(rows[x], rows[x2])]
    terms = " + ".join(["0"] + [f"{_text(w)} * ln ({_text(r)})" for w, r in form])
    assert _statement(EXAMPLES.read_text(encoding="utf-8"), f"{name}_kl_witness").endswith(
        f"{x}%nat {x2}%nat = true /\\ kl_div {len(rows[0])} ({name}_Q {x}) ({name}_Q {x2}) = Fin ({terms})")
    low, high = (Fraction(end) for end in kl.enclose(100))
    assert high - low <= Fraction(1, 2 ** 100)
    lo, hi = _enclose([form])
    assert low <= lo <= hi <= high, (name, float(lo), float(low))
    y = next(y for y, (w, _) in enumerate(form) if w)
    form[y] = (form[y][0], form[y][1] * Fraction(1001, 1000))
    lo, hi = _enclose([form])
    assert hi < low or lo > high


# ---------------------------------------------------------------------------------------------- coqc


def _coqc(folder: Path, filename: str) -> subprocess.CompletedProcess:
    coqc = shutil.which("coqc")
    assert coqc is not None
    return subprocess.run([coqc, "-R", ".", "Relations", filename], cwd=folder, capture_output=True, text=True,
                          timeout=TIMEOUT)


def _needed(folder: Path, filename: str) -> list[str]:
    """The files ``filename`` imports, directly or not, in ``_CoqProject`` order (without ``filename``)."""
    order = [line.strip() for line in (folder / "_CoqProject").read_text(encoding="utf-8").splitlines()
             if line.strip().endswith(".v")]
    needed: set[str] = set()
    todo = [filename]
    while todo:
        text = (folder / todo.pop()).read_text(encoding="utf-8")
        for group in _IMPORT.findall(text):
            for module in group.split():
                if f"{module}.v" not in needed:
                    needed.add(f"{module}.v")
                    todo.append(f"{module}.v")
    return [f for f in order if f in needed]


@pytest.fixture(scope="module")
def built(request, tmp_path_factory) -> Path:
    """A temporary copy of the theorem files compiled once per test run by the checker (tests/conftest.py,
    ``coq_build``), which include every file Examples.v imports (not Examples.v)."""
    if shutil.which("coqc") is None:
        pytest.skip("Coq is not installed (apt-get install -y coq): Examples.v cannot be compiled")
    compiled = request.getfixturevalue("coq_build").folder
    folder = tmp_path_factory.mktemp("coq") / "coq"
    shutil.copytree(COQ_DIR, folder, ignore=shutil.ignore_patterns(*BUILD_PRODUCTS))
    for filename in _needed(folder, "Examples.v"):
        vo = Path(filename).with_suffix(".vo")
        assert (compiled / filename).read_bytes() == (folder / filename).read_bytes(), filename
        shutil.copy(compiled / vo, folder / vo)
    return folder


#: The examples whose lemmas cost the most to check (7.4 and 4.2 s of CPU of Examples.v's 28): compiled in the
#: slow tier (the whole committed Examples.v), not in the default run's quick version.
SLOW_EXAMPLES = ("d2", "graph0")


#: The line coqc prints once every lemma of the quick examples is accepted (:func:`quick_run`).
ACCEPTED = "quick examples: every lemma accepted"


@pytest.fixture(scope="module")
def quick_run(built) -> tuple[list[str], subprocess.CompletedProcess]:
    """One coqc run for the next two tests (one start and one load of the libraries instead of two: about 1 s of
    CPU): ``QuickExamples.v`` is Examples.v as generated without :data:`SLOW_EXAMPLES` (the committed file is the
    generated one: test_the_committed_file_is_the_generated_one), then a goal that prints :data:`ACCEPTED` (coqc
    stops at the first sentence it rejects, so it prints it only if it accepted every lemma above), then the
    wrong values' goals (:func:`_wrong_values`).  The file's lines and coqc's run."""
    from relations.proofs._coq_examples import render

    chosen = [e for name, e in _examples().items() if name not in SLOW_EXAMPLES]
    assert len(chosen) == len(_examples()) - len(SLOW_EXAMPLES) >= 5
    text = render(chosen).splitlines()
    text += ["", "Goal True.", f'idtac "{ACCEPTED}".', "exact I.", "Qed.", ""]
    text += _wrong_values(text, {name for name in _examples() if name not in SLOW_EXAMPLES})
    (built / "QuickExamples.v").write_text("\n".join(text) + "\n", encoding="utf-8")
    return text, _coqc(built, "QuickExamples.v")


def _rejected_at(text: list[str], run: subprocess.CompletedProcess) -> str:
    where = re.search(r'line (\d+),', run.stderr)
    return (text[int(where.group(1)) - 1] if where else "") + "\n" + run.stdout + run.stderr


def test_examples_compile_but_the_slowest(quick_run):
    """Examples.v as generated, without :data:`SLOW_EXAMPLES`: coqc accepts every lemma."""
    text, run = quick_run
    assert run.stdout.splitlines()[:1] == [ACCEPTED], f"coqc QuickExamples.v failed:\n{_rejected_at(text, run)}"


@pytest.mark.slow
def test_examples_compile(built):
    run = _coqc(built, "Examples.v")
    assert run.returncode == 0, f"coqc Examples.v failed:\n{run.stdout}\n{run.stderr}"
    assert (built / "Examples.vo").is_file()


#: (example, lemma, value written, wrong value): each wrong value must be rejected by coqc.  The default run
#: changes one lemma of each kind, all in one file; the slow tier also the second of a kind, and each case in a
#: file of its own (one compile each, 1-4 s of CPU).
PERTURBED = (
    ("paper", "eps_d", "Fin (ln (13/7))", "Fin (ln (13/6))"),
    ("paper", "sigma_min", "Fin (ln (1/19))", "Fin (ln (1/18))"),
    ("paper", "eps_m", "ln (130/127)", "ln (131/127)"),
    ("paper", "kl_witness", "ln (13/7)", "ln (13/6)"),
    pytest.param("d2", "eps_d", "Fin (ln (2))", "Fin (ln (5/2))", marks=pytest.mark.slow),  # eps_all's value: the neighbour relation matters
    ("d2", "diam", "Some 2%nat", "Some 1%nat"),
    pytest.param("local3", "sigma_min", "NInf", "Fin (ln (1/2))", marks=pytest.mark.slow),
    ("split", "kl_max", "Fin 0", "PInf"),
    ("zero", "eps_i", "Fin (ln (8/3))", "PInf"),
    pytest.param("isolated", "sigma_min", "Fin (ln (1/3))", "NInf", marks=pytest.mark.slow),  # the zero prior of input 2 is in no neighbour pair
    pytest.param("single", "diam", "Some 0%nat", "Some 1%nat", marks=pytest.mark.slow),
)


def _alone(name: str, lemma: str, right: str, value: str) -> tuple[list[str], int]:
    """The lines of one example alone with only one lemma (the header, the example's definitions and that
    lemma, its ``right`` value written as ``value``), and the index of the lemma's line.  The example's other
    lemmas are left out (proving them cost up to 2 s of CPU for nothing): the lemma's proof names none of
    them (read here), and a proof can use a lemma only by its name (the file declares no hints)."""
    from relations.proofs._coq_examples import render

    text = render([_examples()[name]])
    assert not re.search(r"\bHint\b", text)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(f"Lemma {name}_{lemma} :"))
    assert right in lines[at] and lines[at + 1].startswith("Proof.")
    others = [i for i, line in enumerate(lines[:at]) if line.startswith(f"Lemma {name}_")]
    assert all(lines[i + 1].startswith("Proof.") and lines[i + 2] == "" for i in others)
    used = set(re.findall(rf"\b{name}_\w+", lines[at + 1]))
    assert used <= {f"{name}_p", f"{name}_Q"}, used  # the example's definitions only
    lines = [line for i, line in enumerate(lines[:at + 2]) if not any(j <= i <= j + 2 for j in others)]
    at -= 3 * len(others)
    assert lines[at].startswith(f"Lemma {name}_{lemma} :")
    lines[at] = lines[at].replace(right, value, 1)
    return lines, at


def _tactic(proof: str) -> str:
    """The tactics of a one-line proof ``Proof. t1. t2. Qed.`` as one tactic ``(t1; t2)`` (each step leaves one
    goal: ``unfold``, ``vm_compute``, then the tactic that closes it)."""
    assert proof.startswith("Proof. ") and proof.endswith(" Qed."), proof
    steps = proof.removeprefix("Proof. ").removesuffix(" Qed.").removesuffix(".").split(". ")
    assert all(step and "." not in step for step in steps), proof
    return "(" + "; ".join(steps) + ")"


def _wrong_values(header: list[str], defined: set[str]) -> list[str]:
    """The lines of the default run's cases of :data:`PERTURBED` for :func:`quick_run`'s file, after ``header``
    (the quick examples, whose definitions are those of the examples ``defined``): the definitions of the other
    examples they change, as :func:`_alone` gives them, then each case's statement with its wrong value as a
    goal, which its lemma's proof must fail to prove (``Fail solve``), and a line saying so."""
    cases = [p for p in PERTURBED if not hasattr(p, "values")]  # the default run's (the slow ones: 1.2 s more)
    parts: dict[str, list[str]] = {}
    goals: list[str] = []
    for name, lemma, right, wrong in cases:
        lines, at = _alone(name, lemma, right, wrong)
        start = next(i for i, line in enumerate(lines) if line.startswith(f"(** ** [{name}]"))
        assert lines[:start] == header[:start], name  # the same header (its Ltac definitions)
        if name not in defined:
            parts.setdefault(name, lines[start:at])
        statement = lines[at].removeprefix(f"Lemma {name}_{lemma} : ")
        assert wrong in statement and statement.endswith(".")
        goals += [f"Goal {statement}", f"Fail solve [{_tactic(lines[at + 1])}].", f'idtac "rejected {name}_{lemma}".',
                  "Abort.", ""]
    return [line for part in parts.values() for line in part] + goals


def test_wrong_values_are_rejected_in_one_coqc_run(quick_run):
    """The default run's cases of :data:`PERTURBED`, in :func:`quick_run`'s file after the quick examples (one coqc
    start for both instead of one each, about 1 s of CPU apiece): each case's statement with its wrong value as a
    goal, which its lemma's proof must fail to prove (``Fail solve``); coqc passes the file only if every ``Fail``
    saw its proof fail.  The slow tier compiles each case in a file of its own, where coqc must stop at the
    changed lemma (test_a_wrong_value_is_rejected), and the same files with the right value
    (test_the_right_value_compiles_alone)."""
    text, run = quick_run
    cases = [p for p in PERTURBED if not hasattr(p, "values")]
    assert run.returncode == 0, _rejected_at(text, run)
    assert run.stdout.splitlines() == [ACCEPTED, *(f"rejected {name}_{lemma}" for name, lemma, _, _ in cases)], \
        run.stdout


@pytest.mark.slow  # the default run has its cases in one file (test_wrong_values_are_rejected_in_one_coqc_run)
@pytest.mark.parametrize(("name", "lemma", "right", "wrong"), PERTURBED)
def test_a_wrong_value_is_rejected(built, name, lemma, right, wrong):
    """One example alone with only the changed lemma (:func:`_alone`): coqc stops at the changed lemma, whose
    right value compiles in Examples.v, and alone (test_the_right_value_compiles_alone)."""
    lines, at = _alone(name, lemma, right, wrong)
    stem = f"Wrong_{name}_{lemma}"
    (built / f"{stem}.v").write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = _coqc(built, f"{stem}.v")
    assert run.returncode != 0
    where = re.search(r'line (\d+),', run.stderr)
    assert where and int(where.group(1)) in (at + 1, at + 2), run.stderr  # the lemma's line or its proof


@pytest.mark.slow
@pytest.mark.parametrize(("name", "lemma", "right", "wrong"), [p.values if hasattr(p, "values") else p
                                                              for p in PERTURBED])
def test_the_right_value_compiles_alone(built, name, lemma, right, wrong):
    """The control of the test above: the same file with the right value compiles (so the lemmas left out
    are not needed, and the wrong value is what coqc rejects)."""
    lines, _ = _alone(name, lemma, right, right)
    stem = f"Right_{name}_{lemma}"
    (built / f"{stem}.v").write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = _coqc(built, f"{stem}.v")
    assert run.returncode == 0, run.stdout + run.stderr
