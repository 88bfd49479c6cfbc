"""Where the tool keeps its caches: the platformdirs user cache folder, never the current folder.

hypothesis writes into ``.hypothesis/`` under the current folder by default (its example database
and, since 6.131, a cache of the constants found in the code it runs).  The tool's own hypothesis
searches run inside :func:`hypothesis_home`, which points hypothesis at ``cache_dir()/hypothesis``
for their duration, so ``.hypothesis/`` never appears in the current folder, whether the tool is
run from the command line, from Python or from a notebook.

An explicit ``HYPOTHESIS_STORAGE_DIRECTORY`` is respected, and a test suite of the user's own that
uses hypothesis keeps its database where it was: the previous setting is restored on exit.

A cache folder that cannot be used (a file in its place, no permission to write, a full disk) never
stops a command: the tool says so in one line on standard error, once per process
(``relations: note: cache folder ... is unusable (...); running without a cache``), and hypothesis
works in a temporary folder removed afterwards (:func:`usable_cache_dir`).

Examples
--------
>>> import os
>>> os.path.isdir(cache_dir())
True
>>> with hypothesis_home() as home:
...     home is None or home.endswith("hypothesis")
True
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["CACHE_VARIABLE", "cache_dir", "usable_cache_dir", "hypothesis_home"]


#: The environment variable that names another cache folder (the tests point it at a temporary one).
CACHE_VARIABLE = "RELATIONS_CACHE_DIR"


def _folder() -> str:
    """:data:`CACHE_VARIABLE` when set and not empty, else platformdirs' user cache folder for ``relations``."""
    named = os.environ.get(CACHE_VARIABLE, "").strip()
    if named:
        return os.path.abspath(named)
    import platformdirs

    return platformdirs.user_cache_dir("relations", appauthor=False)


def cache_dir() -> str:
    """The tool's cache folder (platformdirs' user cache folder for ``relations``, or ``$RELATIONS_CACHE_DIR``),
    created if missing.

    Returns
    -------
    str
        ``~/.cache/relations`` on Linux (``$XDG_CACHE_HOME/relations`` when that is set).

    Examples
    --------
    >>> os.path.basename(cache_dir()) == "relations" or bool(os.environ.get(CACHE_VARIABLE))
    True
    """
    path = _folder()
    os.makedirs(path, exist_ok=True)
    return path


_NOTED: list[str] = []


def usable_cache_dir() -> str | None:
    """:func:`cache_dir`, checked by creating its ``hypothesis`` folder and a file in it; None when it cannot be
    used, said once per process on standard error (a line naming it as the cache folder).

    Examples
    --------
    >>> usable_cache_dir() in (None, cache_dir())
    True
    """
    path = _folder()
    try:
        os.makedirs(os.path.join(path, "hypothesis"), exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=path)
        os.close(fd)
        os.unlink(probe)
        return path
    except OSError as exc:
        if not _NOTED:
            _NOTED.append(path)
            why = exc.strerror or type(exc).__name__
            sys.stderr.write(f"relations: note: cache folder {path} is unusable ({why}); running without a cache\n")
        return None


@contextmanager
def hypothesis_home() -> Iterator[str | None]:
    """Within this block, hypothesis keeps its files under ``cache_dir()/hypothesis``.

    Yields
    ------
    str or None
        The folder hypothesis uses (a temporary one when the cache folder is unusable), or None when
        ``HYPOTHESIS_STORAGE_DIRECTORY`` is set (then it is left alone).

    Examples
    --------
    >>> with hypothesis_home() as home:
    ...     home is None or home.startswith(cache_dir())
    True
    """
    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        yield None
        return
    from hypothesis import configuration

    previous = getattr(configuration, "__hypothesis_home_directory", None)  # module global: not name-mangled
    cache = usable_cache_dir()
    scratch = None if cache is not None else tempfile.mkdtemp(prefix="relations-hypothesis-")
    home = os.path.join(cache, "hypothesis") if cache is not None else str(scratch)
    configuration.set_hypothesis_home_dir(home)
    try:
        yield home
    finally:
        configuration.set_hypothesis_home_dir(previous)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
