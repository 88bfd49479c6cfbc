"""Write the bytecode of the test modules ahead of a run: pytest's assertion-rewritten form of ``test_*.py`` and
``conftest.py`` (in pytest's own cache files, ``__pycache__/*-pytest-VERSION.pyc``), and the plain form of the
helper modules beside them.

Where ``PYTHONDONTWRITEBYTECODE`` is set (as in ``.ci/run``'s environment), pytest rewrites every test module
again in every xdist worker: about 6 s of CPU per worker on this suite.  Written once here, they are read
instead.  pytest checks each cached file against its source (size and modification time) and its own
version (in the file's name), so a stale or foreign file is never used; if pytest's internals moved, this
writes nothing and says so, and the suite runs as before.

Run: ``python tests/rewrite_ahead.py [--jobs N]`` (``N`` processes at once: ``.ci/run`` uses two, one per core).
"""

from __future__ import annotations

import compileall
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(folder: Path = HERE, *, jobs: int = 1) -> int:
    compileall.compile_dir(str(folder), quiet=1, rx=_TESTS, workers=jobs)  # the helper modules (bruteforce.py, ...)
    try:
        from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, _write_pyc, get_cache_dir  # noqa: F401
    except ImportError as exc:
        print(f"rewrite_ahead: pytest's rewriting is not where it was ({exc}); nothing written", file=sys.stderr)
        return 0
    sources = [folder / "conftest.py", *sorted(folder.rglob("test_*.py"))]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            pool.map(_rewrite, sources, chunksize=8)
    else:
        for source in sources:
            _rewrite(source)
    return 0


def _rewrite(source: Path) -> None:
    """Write pytest's rewritten bytecode of the test module ``source`` where pytest looks for it."""
    from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, _write_pyc, get_cache_dir

    try:
        stat, code = _rewrite_test(source, None)  # no config: the default options
        cache = get_cache_dir(source)
        cache.mkdir(exist_ok=True)
        _write_pyc(types.SimpleNamespace(trace=lambda *args: None), code, stat, cache / (source.name[:-3] + PYC_TAIL))
    except (OSError, SyntaxError, ValueError):  # pytest says what is wrong with the module when it imports it
        pass


class _TestModules:
    """compileall's ``rx``: skip the test modules and conftest.py (pytest rewrites those itself)."""

    @staticmethod
    def search(path: str) -> bool:
        name = Path(path).name
        return name == "conftest.py" or name.startswith("test_")


_TESTS = _TestModules()

if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Write the test modules' bytecode ahead of a pytest run.")
    parser.add_argument("--jobs", type=int, default=1, help="processes at once (default 1)")
    raise SystemExit(main(jobs=max(1, parser.parse_args().jobs)))
