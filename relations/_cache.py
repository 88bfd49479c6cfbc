"""Where the tool keeps its caches: the platformdirs user cache folder, never the current folder.

hypothesis writes into ``.hypothesis/`` under the current folder by default (its example database
and, since 6.131, a cache of the constants found in the code it runs).  The tool's own hypothesis
searches run inside :func:`hypothesis_home`, which points hypothesis at ``cache_dir()/hypothesis``
for their duration, so ``.hypothesis/`` never appears in the current folder, whether the tool is
run from the command line, from Python or from a notebook.

An explicit ``HYPOTHESIS_STORAGE_DIRECTORY`` is respected, and a test suite of the user's own that
uses hypothesis keeps its database where it was: the previous setting is restored on exit.

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
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["cache_dir", "hypothesis_home"]


def cache_dir() -> str:
    """The tool's cache folder (platformdirs' user cache folder for ``relations``), created if missing.

    Returns
    -------
    str
        ``~/.cache/relations`` on Linux (``$XDG_CACHE_HOME/relations`` when that is set).

    Examples
    --------
    >>> os.path.basename(cache_dir())
    'relations'
    """
    import platformdirs

    path = platformdirs.user_cache_dir("relations", appauthor=False)
    os.makedirs(path, exist_ok=True)
    return path


@contextmanager
def hypothesis_home() -> Iterator[str | None]:
    """Within this block, hypothesis keeps its files under ``cache_dir()/hypothesis``.

    Yields
    ------
    str or None
        The folder hypothesis uses, or None when ``HYPOTHESIS_STORAGE_DIRECTORY`` is set (then it is
        left alone).

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
    home = os.path.join(cache_dir(), "hypothesis")
    configuration.set_hypothesis_home_dir(home)
    try:
        yield home
    finally:
        configuration.set_hypothesis_home_dir(previous)
