"""``tests/rewrite_ahead.py`` (run by ``.ci/run`` before the suite): the bytecode it writes is the bytecode pytest
reads, with ``PYTHONDONTWRITEBYTECODE`` set, instead of rewriting the module again."""

from __future__ import annotations

import os
import subprocess
import sys

import rewrite_ahead


def _pytest(folder, **env):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                           "-o", "addopts=", "test_one.py"], cwd=folder, capture_output=True, text=True,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTEST_DEBUG": "1",
                               # pytest's own rewriting, no installed plugin: hypothesis's, loaded, was rewritten
                               # too (about 1 s of CPU per run)
                               "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", **env}, timeout=120)


def test_the_rewritten_modules_are_read_not_rewritten(tmp_path):
    (tmp_path / "conftest.py").write_text("")
    (tmp_path / "helper.py").write_text("VALUE = 1\n")
    (tmp_path / "test_one.py").write_text("from helper import VALUE\n\ndef test_one():\n    assert VALUE + 1 == 3\n")
    cold = _pytest(tmp_path)
    assert "rewriting" in cold.stdout + cold.stderr  # pytest's trace says when it rewrites a module
    assert not (tmp_path / "__pycache__").exists()  # and writes nothing here
    assert rewrite_ahead.main(tmp_path) == 0
    written = sorted(p.name for p in (tmp_path / "__pycache__").iterdir())
    assert any(n.startswith("test_one.") and "-pytest-" in n for n in written), written
    assert any(n.startswith("conftest.") and "-pytest-" in n for n in written), written
    assert any(n.startswith("helper.") and "-pytest-" not in n for n in written), written
    warm = _pytest(tmp_path)
    trace = warm.stdout + warm.stderr
    assert "found cached rewritten pyc" in trace and f"rewriting {tmp_path / 'test_one.py'!r}" not in trace
    # the introspection of a failed assert is that of a rewritten module
    assert warm.returncode == 1 and "assert (1 + 1) == 3" in warm.stdout
