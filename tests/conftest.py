"""Shared test setup: a hypothesis profile, a runner for the command line as a subprocess, and one
``relations verify --quick`` of the whole catalogue shared by the tests that need it."""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest


def _plain_plugin_packages(names=("hypothesis", "platformdirs")) -> None:
    """Import these packages' modules from their plain bytecode, not rewritten by pytest.

    Both ship a pytest plugin (an entry point), so pytest marks their whole packages for assertion rewriting:
    each of their modules parsed and rewritten again on import, in every process (nothing is cached where
    ``PYTHONDONTWRITEBYTECODE`` is set), 1.4 s of CPU for hypothesis's, 0.2 s for platformdirs', for longer
    messages from the asserts inside them only.  Unmarked before either is first imported (hypothesis here,
    platformdirs by the package: its plugin is left out in pyproject.toml's addopts); hypothesis's plugin
    module, already loaded, stays as it is.  If pytest's hook moved, nothing changes."""
    for hook in sys.meta_path:
        marked = getattr(hook, "_must_rewrite", None)
        if isinstance(marked, set):
            marked.difference_update(name for name in names if name not in sys.modules)
            getattr(hook, "_marked_for_rewrite_cache", {}).clear()


_plain_plugin_packages()
from hypothesis import HealthCheck, settings  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))  # tests/bruteforce.py, tests/reference_strategies.py

# The tool's cache folder (relations._cache) is a temporary one per test session, shared by the session's
# tests and the commands they run (so the Coq theorems are compiled once per session, not once per
# ``verify``), and the user's own cache folder is never written.
# With pytest-xdist the workers share the folder of the process that starts them (they inherit its
# environment, and that process removes the folder when it ends): the theorems are compiled once per run.
_INHERITED = os.environ.get("RELATIONS_TESTS_CACHE", "")
if _INHERITED and os.environ.get("PYTEST_XDIST_WORKER") and os.path.isdir(_INHERITED):
    _SESSION_CACHE = _INHERITED
else:
    _SESSION_CACHE = tempfile.mkdtemp(prefix="relations-tests-cache-")
    atexit.register(shutil.rmtree, _SESSION_CACHE, True)
    os.environ["RELATIONS_TESTS_CACHE"] = _SESSION_CACHE
# matplotlib keeps its font cache where it always does (its cache folder, from the user's XDG_CACHE_HOME), not in
# the session's fresh one: else every session rebuilt it, and under load (after 5 s) the first test to draw
# printed "Matplotlib is building the font cache" on stderr, where the one-line checks of the tests read.
os.environ.setdefault("MPLCONFIGDIR", os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                                                   "matplotlib"))
os.environ["XDG_CACHE_HOME"] = _SESSION_CACHE
if "PYTEST_XDIST_WORKER" not in os.environ:  # built once, here, before any worker or test runs (a fresh machine)
    try:
        import matplotlib.font_manager  # noqa: F401
    except ImportError:
        pass
os.environ.pop("RELATIONS_CACHE_DIR", None)

# CI is deterministic (derandomize: the same examples on every run, so a red run is reproducible and a
# green one does not turn red by chance); HYPOTHESIS_PROFILE=explore draws fresh random examples, ten times
# as many, to look for new failures (README, "Benchmarks and slow checks"); HYPOTHESIS_PROFILE=full is the
# default profile without its cap on examples (below).
_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile("relations", deadline=None, max_examples=40, derandomize=True, suppress_health_check=_QUIET)
settings.register_profile("explore", deadline=None, max_examples=400, derandomize=False, suppress_health_check=_QUIET)
settings.register_profile("full", parent=settings.get_profile("relations"))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "relations"))
#: In the default profile a test that asks for more examples than this runs this many (the same examples
#: first: derandomized); ``HYPOTHESIS_PROFILE=full`` runs every test's own count, ``explore`` ten times the
#: default and the tests' own counts, and ``RELATIONS_EXAMPLES=N`` (tests/reference_strategies.py) lifts the cap.
EXAMPLES_CAP = 50 if (os.environ.get("HYPOTHESIS_PROFILE", "relations") == "relations"
                      and os.environ.get("RELATIONS_EXAMPLES", "1") == "1") else None


def pytest_collection_modifyitems(config, items):
    """The default profile's cap on examples (:data:`EXAMPLES_CAP`), applied to the tests' own settings."""
    if EXAMPLES_CAP is None:
        return
    for item in items:
        test = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is not None and own.max_examples > EXAMPLES_CAP:
            test._hypothesis_internal_use_settings = settings(own, max_examples=EXAMPLES_CAP)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def module_from_source(tmp_path: Path, name: str, source: str):
    """A randomizer module written to ``tmp_path/name.py`` (the white-box routes read the source back), imported
    under ``name`` and registered in ``sys.modules``."""
    import importlib.util
    import textwrap

    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def cli_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "relations.cli", *args]


def run_cli(*args: str, timeout: float = 120, process: bool = False, env: dict[str, str] | None = None,
            cwd: str | os.PathLike | None = None, input: str | bytes | None = None,  # noqa: A002 (subprocess's name)
            raw: bool = False) -> subprocess.CompletedProcess:
    """Run the command line ``python -m relations.cli ARGS`` (cwd: the repository) and capture its output as text.

    By default it runs in this process (:func:`run_cli_here`), which costs no interpreter start and no imports
    (about 0.4 s of CPU each, the bulk of the suite's time when every call was a process); ``process=True``, or
    ``RELATIONS_TESTS_CLI=process`` in the environment for the whole run, starts ``python -m relations.cli`` as a
    child process, for the tests about the process itself (signals, exit paths, start-up, file descriptors).
    ``env`` is the whole environment of the command (as for ``subprocess.run``), ``cwd`` its working folder,
    ``input`` its standard input (UTF-8 if text; empty by default), and ``raw`` keeps the line ends of its output as
    written (``\\r\\n`` stays ``\\r\\n``) instead of translating them as ``text=True`` does."""
    if process or os.environ.get("RELATIONS_TESTS_CLI") == "process":
        data = input.encode("utf-8") if isinstance(input, str) else input
        proc = subprocess.run(cli_command(*args), capture_output=True, timeout=timeout, input=data,
                              cwd=ROOT if cwd is None else cwd, env=env)
        proc.stdout, proc.stderr = (_decoded(b, raw=raw) for b in (proc.stdout, proc.stderr))
        return proc
    return run_cli_here(*args, env=env, cwd=cwd, input=input, raw=raw)


def _decoded(data: bytes, *, raw: bool = False) -> str:
    """``data`` as ``subprocess.run(text=True)`` decodes it (universal newlines), or with its line ends (``raw``)."""
    import io

    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline="" if raw else None).read()


def run_cli_here(*args: str, env: dict[str, str] | None = None, cwd: str | os.PathLike | None = None,
                 input: str | bytes | None = None, raw: bool = False) -> subprocess.CompletedProcess:  # noqa: A002
    """:func:`relations.cli.main` on ``args`` in this process, seen as a child process would see it: the
    repository as working folder, an empty standard input (or ``input``), standard output and error captured as UTF-8 bytes
    decoded as ``subprocess.run(text=True)`` decodes them, the program name click shows (``python -m
    relations.cli``), Python's default warning filters printing on the captured standard error, and an uncaught
    exception a traceback there with exit status 1.  Everything it changes is put back."""
    import io
    import signal
    import traceback
    import types
    import warnings

    from relations.cli import main

    out, err = io.BytesIO(), io.BytesIO()
    streams = sys.stdin, sys.stdout, sys.stderr
    argv, main_module, here, path, environ = sys.argv, sys.modules["__main__"], os.getcwd(), list(sys.path), None
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE)}
    interrupted: list[int] = []

    def interrupt(signum, frame):  # a Ctrl-C meant for pytest: the command stops, and then the test run
        interrupted.append(signum)
        raise KeyboardInterrupt
    as_main = types.ModuleType("__main__")
    as_main.__package__ = "relations.cli"  # click names the program from it: 'python -m relations.cli'
    code = 0
    captured = (io.TextIOWrapper(io.BytesIO(input.encode("utf-8") if isinstance(input, str) else input or b""),
                                 encoding="utf-8"),
                io.TextIOWrapper(out, encoding="utf-8", write_through=True),
                io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True))
    try:
        sys.stdin, sys.stdout, sys.stderr = captured
        sys.argv = [str(ROOT / "relations" / "cli" / "__main__.py"), *args]
        sys.modules["__main__"] = as_main
        if env is not None:
            environ = dict(os.environ)
            os.environ.clear()
            os.environ.update(env)
        os.chdir(ROOT if cwd is None else cwd)
        if handlers[signal.SIGINT] is signal.default_int_handler:
            signal.signal(signal.SIGINT, interrupt)
        with warnings.catch_warnings():
            warnings.resetwarnings()  # a new interpreter's filters, warnings printed on (this) standard error
            for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
                warnings.simplefilter("ignore", category)
            warnings.showwarning = warnings._showwarning_orig  # type: ignore[attr-defined]
            try:
                main(list(args))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
                if exc.code is not None and not isinstance(exc.code, int):
                    sys.stderr.write(f"{exc.code}\n")
            except Exception:  # what the interpreter does with an uncaught exception
                sys.stderr.write(traceback.format_exc())
                code = 1
            finally:
                for stream in captured[1:]:
                    try:
                        stream.flush()
                    except ValueError:  # closed
                        pass
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        os.chdir(here)
        if environ is not None:
            os.environ.clear()
            os.environ.update(environ)
        sys.path[:] = path  # an audited FILE.py's folder goes first on it
        sys.modules["__main__"] = main_module
        sys.argv = argv
        sys.stdin, sys.stdout, sys.stderr = streams

    result = subprocess.CompletedProcess(cli_command(*args), code, _decoded(out.getvalue(), raw=raw),
                                         _decoded(err.getvalue(), raw=raw))
    for stream in captured:
        with contextlib.suppress(ValueError):
            stream.detach()  # the byte buffers outlive their wrappers
    if interrupted:
        raise KeyboardInterrupt
    return result


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def no_coq_checks(monkeypatch):
    """verify (in this process and in the commands a test runs) makes no Coq check: ``RELATIONS_COQC`` empty,
    as without coqc. For tests about writes and tables, which would otherwise compile the theorems each run."""
    monkeypatch.setenv("RELATIONS_COQC", "")


def _shared(tmp_path_factory: pytest.TempPathFactory, name: str, compute):
    """``compute(folder)``, once per test run: the first process (xdist worker) to ask computes it under a file
    lock, in a folder beside the workers' own temporary folders, and pickles it there; the others wait for the
    lock and read the pickle.  ``folder`` is kept until the run's temporary folders are removed."""
    import fcntl
    import pickle

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # shared by the workers of this run
    folder, stored = root / f"shared-{name}", root / f"shared-{name}.pickle"
    with open(root / f"shared-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if stored.is_file():
                return pickle.loads(stored.read_bytes())
            if folder.exists():
                shutil.rmtree(folder)  # left by a process that died computing it
            folder.mkdir()
            value = compute(folder)
            stored.write_bytes(pickle.dumps(value))
            return value
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _verify_quick(folder: Path):
    """``relations verify --quick --json --out FOLDER/evidence``, run in this process as tests/golden/record.py
    runs it (the Coq check included)."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "golden"))
    import record  # tests/golden/record.py, as tests/test_golden.py imports it

    code, data = record.run("verify", "--quick", "--json", "--out", str(folder / "evidence"))
    return code, data, folder / "evidence"


@pytest.fixture
def sigint_raises():
    """SIGINT raises ``KeyboardInterrupt`` in this process for the test, as under a terminal: a test that sends
    itself a Ctrl-C must not depend on how pytest was started (a non-interactive shell's background job
    starts with SIGINT ignored, and Python then leaves it ignored)."""
    import signal

    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)


@pytest.fixture(scope="session")
def verify_quick(tmp_path_factory):
    """One ``relations verify --quick --json`` of the whole catalogue per test run (shared by the xdist workers):
    ``(exit status, its JSON, the evidence folder)``.  Read-only: a test that changes them works on a copy.
    It waits for the run's compile of the theorems (:func:`pytest_collection_finish`) to end first, and so
    reads the compiled files and the passed check from the session's cache folder instead of compiling them
    a second time beside it."""
    _wait_for_the_coq_build()
    return _shared(tmp_path_factory, "verify-quick", _verify_quick)


_COQ_LOCK = os.path.join(_SESSION_CACHE, "coq-build.lock")
_COQ_STARTED = os.path.join(_SESSION_CACHE, "coq-build.started")


def pytest_collection_finish(session):
    """When a selected test needs the theorems compiled (``coq_build`` or ``verify_quick``), start compiling and
    checking them (:func:`relations.proofs._coq.check_theorems`) now, in a background process, into the
    session's cache folder, once per test run (the first xdist worker to get here starts it): coqc runs at a
    low priority (``relations.proofs._coq.NICE``) beside the tests, which then find the compiled files in the
    cache instead of waiting for coqc.  The process holds the file lock ``coq_build`` takes (inherited from
    here, so no test can take it before the process has it) until it ends, and dies with this process."""
    import fcntl

    if session.config.option.collectonly or not any(
            {"coq_build", "verify_quick"} & set(getattr(item, "fixturenames", ())) for item in session.items):
        return
    from relations._processes import start_program
    from relations.proofs._coq import coqc_program

    if coqc_program()[0] is None:
        return
    try:
        os.close(os.open(_COQ_STARTED, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
    except FileExistsError:  # another worker started it
        return
    script = "from relations.proofs import _coq as coq; coq.check_theorems(coq.COQ_PROOFS.values())"
    with open(_COQ_LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            proc = start_program(
                [sys.executable, "-c", script], cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, pass_fds=(lock.fileno(),))  # the lock stays with the child's descriptor
        except OSError:
            return  # the tests compile the theorems themselves, as without this
    # kept by atexit, not in a global of this module: tests audit loops in this process, and a loop's state
    # includes the globals of the modules whose functions the audited code holds (``run_cli`` of this one); a
    # process object there is a state the audit cannot read, and every such loop was only depth-bounded
    atexit.register(_stop_coq_build, proc)


def _stop_coq_build(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait()


def _wait_for_the_coq_build() -> None:
    """Wait until no process holds the lock of the session's Coq build (:func:`pytest_collection_finish`)."""
    import fcntl

    with open(_COQ_LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def coq_build():
    """The repository's theorem files compiled and checked by the checker verify uses
    (:func:`relations.proofs._coq.check_theorems`), once per run: the compiled files go to the session's cache
    folder, which the xdist workers and the commands the tests run share; a file lock there keeps a second
    worker from compiling them at the same time.  Fails (in the test) without coqc."""
    import fcntl

    from relations.proofs import _coq as coq

    if shutil.which("coqc") is None:
        pytest.fail("Coq is not installed: apt-get install -y coq (see README)", pytrace=False)
    with open(_COQ_LOCK, "w") as lock:  # held by the run's build while it compiles (pytest_collection_finish)
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            coq.check_theorems(coq.COQ_PROOFS.values())
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    with coq._LOCK:
        build = coq._BUILDS[coq.COQ_DIR]
    assert build.folder is not None, build.release
    return build
