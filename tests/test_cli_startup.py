"""The command line's start-up: one module per command, only the invoked one imported, and a common
``relations measure`` without typer (``relations.cli._measure_fast``) that says exactly what typer's
command says."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLI = ROOT / "relations" / "cli"
EXAMPLE = str(ROOT / "examples" / "paper_example.json")


def test_the_package_module_holds_no_command():
    """``cli/__init__.py`` defines no command; every command of :data:`COMMANDS` is a function of its own module."""
    from relations.cli._app import COMMANDS

    tree = ast.parse((CLI / "__init__.py").read_text(encoding="utf-8"))
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert not defined & set(COMMANDS), defined & set(COMMANDS)
    for name, (module, function) in COMMANDS.items():
        path = CLI / (module.rsplit(".", 1)[1] + ".py")
        functions = {n.name for n in ast.parse(path.read_text(encoding="utf-8")).body if isinstance(n, ast.FunctionDef)}
        assert function in functions, (name, path)
    on_disk = {p.stem for p in CLI.glob("_*_command.py")}
    assert on_disk == {m.rsplit(".", 1)[1] for m, _ in COMMANDS.values()}


def test_the_help_lists_every_command_in_order():
    from relations.cli._app import COMMANDS

    res = subprocess.run([sys.executable, "-m", "relations.cli", "--help"], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    listed = [line.split()[0] for line in res.stdout.split("Commands:")[1].splitlines() if line.strip()]
    assert listed == list(COMMANDS)


#: What ``relations measure`` on one mechanism does not need: the framework, rich (the table is drawn without it on
#: a pipe), the exports, the further notions' registry and code, repeated use.
MEASURE_NEEDS_NOT = ["typer", "click", "rich", "relations.io._exports", "relations.notions", "relations.measures._notions",
                     "relations.measures._pairs", "relations.model._composed", "relations.catalogue", "sympy", "z3"]


@pytest.mark.parametrize("argv,absent", [(["measure", EXAMPLE, "--json"], MEASURE_NEEDS_NOT),
                                         (["measure", EXAMPLE], MEASURE_NEEDS_NOT),
                                         (["catalogue", "--json"], ["relations.cli._measure_command", "relations.cli._verify_command"])])
def test_a_command_imports_only_what_it_uses(argv, absent):
    code = ("import sys\nfrom relations.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit as e:\n"
            f"    assert e.code in (0, None), e.code\nprint([m for m in {absent!r} if m in sys.modules], file=sys.stderr)")
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}  # pytest's 80 columns: the table would not fit
    res = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, cwd=ROOT, timeout=120,
                         env=env)
    assert res.returncode == 0, res.stderr
    assert res.stderr.strip().splitlines()[-1] == "[]"


def test_the_fast_path_takes_the_options_typer_declares():
    """Each option the fast path parses is one of the typer command's, with the same parameter; the others of
    the command are left to typer."""
    import typer

    from relations.cli._app import app, register
    from relations.cli._measure_fast import OPTIONS

    register("measure")
    command = typer.main.get_command(app).commands["measure"]  # type: ignore[attr-defined]
    declared = {opt: p.name for p in command.params for opt in p.opts if opt.startswith("--")}
    for option, (name, kind) in OPTIONS.items():
        assert declared.get(option) == name, option
        param = next(p for p in command.params if p.name == name)
        assert param.multiple == (kind == "list") and getattr(param, "is_flag", False) == (kind == "flag"), option
    assert set(declared) - set(OPTIONS) == {"--tradeoff", "--plot", "--force"}


@pytest.mark.parametrize("args", [["m.json", "--help"], ["m.json", "--bits", "0"], ["m.json", "--bits", "1e3"],
                                  ["a.json", "b.json"], [], ["m.json", "--tradeoff"], ["m.json", "--jsn"],
                                  ["m.json", "--json=1"], ["--", "m.json"], ["m.json", "--format"],
                                  ["m.json", "--mode", "fast"], ["m.json", "--format", "csv", "--format", "json"],
                                  ["m.json", "--notion", "--json"], ["-x"], ["m.json", "--repeat", "0"]])
def test_the_fast_path_leaves_the_rest_to_typer(args):
    from relations.cli._measure_fast import parse

    assert parse(args) is None


@pytest.mark.parametrize("args", [
    [EXAMPLE], [EXAMPLE, "--json"], ["--json", EXAMPLE], [EXAMPLE, "--format", "CSV"], [EXAMPLE, "--format=latex"],
    [EXAMPLE, "--bits", "30", "--json"], [EXAMPLE, "--bits=7"], [EXAMPLE, "--notion", "all", "--json"],
    [EXAMPLE, "--notion", "rho", "--notion", "kl"], [EXAMPLE, "--notion", "bogus"], [EXAMPLE, "--mode", "FLOAT"],
    [EXAMPLE, "--mode", "exact", "--json"], ["missing.json"], [EXAMPLE, "--format", "xml"],
    [EXAMPLE, "--json", "--format", "csv"], [EXAMPLE, "--latex-env", "tabular"],
    [EXAMPLE, "--format", "latex", "--latex-env", "longtable"], [EXAMPLE, "--repeat", "2", "--json"],
    [EXAMPLE, "--repeat", "3"], [str(ROOT / "examples")]])
def test_the_fast_path_says_what_typer_says(args, monkeypatch, capsys):
    """Each form run by the fast path, then by typer (the fast path turned off): the same output and status."""
    from relations.cli import _measure_fast, main

    assert _measure_fast.parse(args) is not None
    monkeypatch.setenv("COLUMNS", "100")
    said = []
    for fast in (True, False):
        if not fast:
            monkeypatch.setattr(_measure_fast, "run_fast", lambda args: False)
        with pytest.raises(SystemExit) as stop:
            main(["measure", *args])
        out, err = capsys.readouterr()
        said.append((stop.value.code or 0, out, err))
    assert said[0] == said[1]
    assert said[0][0] in (0, 2) and (said[0][0] == 0) == (said[0][2] == "")


def _command_line_process(extra: str) -> subprocess.CompletedProcess:
    """``relations measure EXAMPLE`` as the console script runs it (:func:`relations._processes.run_command_line`
    with the process's own arguments), after ``extra`` (Python run first in the same process)."""
    code = (f"{extra}\nfrom relations._processes import run_command_line\nfrom relations.cli import main\n"
            f"run_command_line(main, ['measure', {EXAMPLE!r}, '--json'], own=True)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # standard output block-buffered
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120, env=env)


def test_measure_ends_at_once_with_its_output_and_clean_ups():
    """The fast path ends the process without the interpreter's shutdown (an object's ``__del__`` is not run): its
    output whole, the atexit clean-ups run, status 0."""
    import json

    res = _command_line_process("import atexit, sys\natexit.register(lambda: print('clean-up ran', file=sys.stderr) or print('and wrote'))\n"
                                "class Kept:\n    def __del__(self):\n        print('torn down', file=sys.stderr)\n"
                                "kept = Kept()")
    assert res.returncode == 0, res.stderr
    said, _, last = res.stdout.rpartition("}")
    assert json.loads(said + "}")["eps_d"]["exact"] == "ln(13/7)" and last == "\nand wrote\n"
    assert res.stderr == "clean-up ran\n"


def test_measure_waits_for_a_thread_it_did_not_start():
    """Another thread running when the command has returned: the ordinary shutdown, which waits for it."""
    # the thread writes once the main thread has ended (the interpreter's shutdown, which then waits for it): an
    # event, not a pause that a loaded machine could outlast before the command's own end
    res = _command_line_process("import sys, threading, time\nfrom relations import _processes\n"
                                "def late():\n    while threading.main_thread().is_alive():\n        time.sleep(0.01)\n"
                                "    print('thread done', file=sys.stderr)\n"
                                "threading.Thread(target=late).start()")
    assert res.returncode == 0, res.stderr
    assert res.stderr == "thread done\n" and '"eps_d"' in res.stdout


def test_measure_called_from_code_raises_system_exit():
    """``relations.__main__.main(ARGS)`` called by other code: ``SystemExit`` as ever, the caller goes on."""
    code = (f"from relations.__main__ import main\ntry:\n    main(['measure', {EXAMPLE!r}, '--json'])\n"
            "except SystemExit as e:\n    print('went on', e.code)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert res.returncode == 0 and res.stdout.endswith("went on 0\n"), res.stderr
