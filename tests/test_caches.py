"""Caches never in the current folder: hypothesis's files go under the platformdirs user cache, whether the
tool runs from the command line, from Python or from a notebook (issue 31, item 9)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The library used from Python as a notebook would: a conjecture, a verdict, and the hypothesis searches.
SCRIPT = textwrap.dedent("""
    import relations
    from relations.catalogue import get
    from relations.pipeline._verify import Effort
    from relations.search._screening import generated, hypothesis_search

    relations.conjecture("rho <= kl", quick=True)
    relations.verify_relation(get("zheng2025.thm4"), Effort.of(True))
    assert len(generated("central", 10)) == 10
    assert hypothesis_search(get("zheng2025.thm4"), "local", Effort.of(True), shrink=True) is not None
""")


def _environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_STORAGE_DIRECTORY"}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / "cache"),
               PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    return env


def test_python_use_leaves_the_current_folder_empty(tmp_path):
    cwd, home = tmp_path / "cwd", tmp_path / "home"
    cwd.mkdir()
    run = subprocess.run([sys.executable, "-c", SCRIPT], cwd=cwd, env=_environment(home), capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in cwd.iterdir()) == []
    assert (home / "cache" / "relations" / "hypothesis").is_dir()  # where hypothesis's files went instead


def test_cli_search_leaves_the_current_folder_empty(tmp_path):
    cwd, home = tmp_path / "cwd", tmp_path / "home"
    cwd.mkdir()
    run = subprocess.run([sys.executable, "-m", "relations", "conjecture", "eps_i <= eps_d", "--quick"], cwd=cwd,
                         env=_environment(home), capture_output=True, text=True, timeout=300)
    assert run.returncode in (0, 1), run.stderr
    assert sorted(p.name for p in cwd.iterdir()) == []


def test_hypothesis_home_is_restored_and_respects_the_environment(monkeypatch, tmp_path):
    from hypothesis import configuration

    from relations._cache import cache_dir, hypothesis_home

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("HYPOTHESIS_STORAGE_DIRECTORY", raising=False)
    mine = tmp_path / "mine"
    monkeypatch.setattr(configuration, "__hypothesis_home_directory", mine)  # a user's own setting
    with hypothesis_home() as home:
        assert home == os.path.join(cache_dir(), "hypothesis")
        assert str(configuration.storage_directory("x", intent_to_write=False).path).startswith(home)
    assert configuration.storage_directory("x", intent_to_write=False).path == mine / "x"  # put back

    monkeypatch.setenv("HYPOTHESIS_STORAGE_DIRECTORY", str(tmp_path / "theirs"))
    with hypothesis_home() as home:
        assert home is None
        assert configuration.storage_directory("x", intent_to_write=False).path == mine / "x"  # left alone


@pytest.mark.parametrize("module", ["relations.io._outputs", "relations._cache"])
def test_cache_dir_is_the_platformdirs_user_cache(module, monkeypatch, tmp_path):
    import importlib

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert importlib.import_module(module).cache_dir() == str(tmp_path / "xdg" / "relations")
