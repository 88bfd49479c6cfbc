"""Running SMT-LIB files through two independent solvers: z3 and cvc5.

Versions: the files under ``proofs/lemmas/`` answer in z3 4.8.12 or later and cvc5 1.0.3 or later (the
command-line tools; Debian 12 ships these two); the Python route here needs the ``cvc5`` package 1.2 or later
(``TermManager`` and the SMT-LIB parser API).

The evidence files under ``proofs/lemmas/`` are complete scripts: every hypothesis, every
fact used and the negated goal are asserted in the file, so that any SMT-LIB 2.6 solver
answers them alone (``unsat`` proves the lemma or the derivation; ``sat`` refutes it).
:func:`solve` runs a script through z3 [1]_ (its Python API, as the ``z3`` command does) and
through cvc5 [2]_ (its Python API's SMT-LIB parser), and :func:`main` is
``python -m relations.proofs.solvers FILE ...``, printing both answers for each file.

References
----------
.. [1] de Moura, Bjorner. Z3: An Efficient SMT Solver. TACAS 2008, doi:10.1007/978-3-540-78800-3_24.
.. [2] Barbosa et al. cvc5: A Versatile and Industrial-Strength SMT Solver. TACAS 2022,
   doi:10.1007/978-3-030-99524-9_24.
"""

from __future__ import annotations

import sys

__all__ = ["standalone", "run_z3", "run_cvc5", "solve", "main"]


def standalone(script: str) -> str:
    """``script`` (z3's ``to_smt2()`` output) with ``(set-logic ALL)`` before its first declaration.

    Examples
    --------
    >>> print(standalone("(set-info :status unknown)\\n(declare-fun x () Real)\\n(check-sat)\\n"))
    (set-info :status unknown)
    (set-logic ALL)
    (declare-fun x () Real)
    (check-sat)
    """
    lines = script.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith("(set-logic"):
            return script
        if line.startswith("(declare") or line.startswith("(assert") or line.startswith("(check-sat"):
            return "".join(lines[:i]) + "(set-logic ALL)\n" + "".join(lines[i:])
    return script


def _answer(line: str) -> str | None:
    """``sat``, ``unsat`` or ``unknown`` (also for cvc5's ``unknown (TIMEOUT)``), else None."""
    word = line.strip().split(" ")[0]
    return word if word in ("sat", "unsat", "unknown") else None


def run_z3(script: str, *, timeout_ms: int | None = None) -> list[str]:
    """z3's answers (``sat``, ``unsat``, ``unknown``) to the script's ``check-sat`` commands.

    Parameters
    ----------
    script : str
        SMT-LIB 2.6.
    timeout_ms : int, optional
        A time limit for each ``check-sat`` (``unknown`` beyond it); none by default.

    Examples
    --------
    >>> run_z3("(declare-fun x () Real)(assert (> x 1))(assert (< x 0))(check-sat)", timeout_ms=10000)
    ['unsat']
    """
    import z3

    ctx = z3.Context() if timeout_ms is None else z3.Context(timeout=int(timeout_ms))
    out = z3.Z3_eval_smtlib2_string(ctx.ref(), script)
    return [a for a in map(_answer, out.splitlines()) if a is not None]


def run_cvc5(script: str, *, name: str = "<script>", timeout_ms: int | None = None) -> list[str]:
    """cvc5's answers to the script's ``check-sat`` commands.

    Parameters
    ----------
    script : str
        SMT-LIB 2.6.
    name : str, optional
        The script's name in cvc5's messages.
    timeout_ms : int, optional
        A time limit for each ``check-sat`` (``unknown`` beyond it); none by default.

    Examples
    --------
    >>> run_cvc5("(set-logic ALL)(declare-fun x () Real)(assert (> (* x x) 2))(check-sat)")
    ['sat']
    """
    import cvc5

    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("produce-models", "true")
    if timeout_ms is not None:
        solver.setOption("tlimit-per", str(int(timeout_ms)))
    symbols = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, script, name)
    answers = []
    while True:
        command = parser.nextCommand()
        if command.isNull():
            break
        out = _answer(command.invoke(solver, symbols))
        if out is not None:
            answers.append(out)
    return answers


def solve(script: str, *, name: str = "<script>", timeout_ms: int | None = None) -> dict[str, list[str]]:
    """Both solvers' answers: ``{"z3": [...], "cvc5": [...]}``, each ``check-sat`` within ``timeout_ms`` if given."""
    return {"z3": run_z3(script, timeout_ms=timeout_ms), "cvc5": run_cvc5(script, name=name, timeout_ms=timeout_ms)}


def main(argv: list[str] | None = None) -> int:
    """Print ``FILE: z3 ANSWERS; cvc5 ANSWERS`` per file; exit 1 if the two solvers disagree.

    Without cvc5 (an optional package on PyPI, in the ``test`` extra) it prints one line saying so on stderr and
    exits 2, before running anything: a re-check by one solver is not the documented one.

    Examples
    --------
    >>> main([])
    0
    """
    import importlib.util

    if importlib.util.find_spec("cvc5") is None:
        print("relations.proofs.solvers: cvc5, the second solver, is not installed: pip install 'cvc5>=1.2' "
              "(or z3 alone: for f in FILES; do z3 \"$f\"; done)", file=sys.stderr)
        return 2
    status = 0
    for path in sys.argv[1:] if argv is None else argv:
        with open(path, encoding="utf-8") as fh:
            answers = solve(fh.read(), name=path)
        agree = answers["z3"] == answers["cvc5"]
        status |= not agree
        print(f"{path}: z3 {' '.join(answers['z3'])}; cvc5 {' '.join(answers['cvc5'])}"
              + ("" if agree else "  (the solvers disagree)"))
    return status


if __name__ == "__main__":
    sys.exit(main())
