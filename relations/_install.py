"""The command that installs an extra, for the one-line messages about a missing optional package.

``privacy-relations`` is not on PyPI, so ``pip install 'privacy-relations[audit]'`` fails unless pip can
find the package somewhere else.  :func:`install_hint` gives a command that works: for the installation
in use when pip recorded where it came from (PEP 610 ``direct_url.json``: a checkout installed with
``pip install -e``, a folder or a wheel), that source with the extra; otherwise the two forms, from a
checkout and from a wheel or folder.  ``only`` adds the packages the message is about, which
``pip install`` finds on PyPI whatever way the tool was installed.

Examples
--------
>>> hint = install_hint("figures", only=["matplotlib>=3.7"])
>>> "[figures]" in hint and "pip install 'matplotlib>=3.7'" in hint and "\\n" not in hint
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from urllib.parse import unquote, urlparse

__all__ = ["install_hint", "installed_from"]

DISTRIBUTION = "privacy-relations"


def installed_from() -> tuple[str, bool] | None:
    """Where the ``relations`` being run was installed from: ``(url, editable)``, or None if unknown.

    None when the package is imported from a folder on ``sys.path`` that is not the installed
    distribution (e.g. ``PYTHONPATH=checkout``), or pip recorded no source (an index install).

    Returns
    -------
    tuple of (str, bool) or None
    """
    from importlib import metadata

    here = os.path.dirname(os.path.realpath(__file__))
    try:
        dist = metadata.distribution(DISTRIBUTION)
        record = json.loads(dist.read_text("direct_url.json") or "null")
    except (metadata.PackageNotFoundError, ValueError):
        return None
    if not isinstance(record, dict) or not isinstance(record.get("url"), str):
        return None
    url, editable = record["url"], bool((record.get("dir_info") or {}).get("editable"))
    if editable:  # the checkout's relations/ must be the one running
        parsed = urlparse(url)
        if parsed.scheme != "file" or os.path.realpath(os.path.join(unquote(parsed.path), "relations")) != here:
            return None
    elif os.path.realpath(str(dist.locate_file("relations"))) != here:
        return None
    return url, editable


def install_hint(extra: str, *, only: Sequence[str] = ()) -> str:
    """One line: how to install ``extra`` (and, when given, only the packages ``only``).

    Parameters
    ----------
    extra : str
        The extra of ``pyproject.toml`` (``audit``, ``figures``, ``sweep``, ...).
    only : sequence of str, optional
        Requirements (``"matplotlib>=3.7"``) that are enough for the message at hand.

    Returns
    -------
    str

    Examples
    --------
    >>> install_hint("sweep").count("[sweep]") >= 1
    True
    """
    source = installed_from()
    if source is None:
        how = (f"pip install -e '.[{extra}]' in a checkout, or pip install "
               f"'{DISTRIBUTION}[{extra}] @ file:///path/to/the/checkout-or-wheel' (it is not on PyPI)")
    elif source[1]:
        how = f"pip install -e '{unquote(urlparse(source[0]).path)}[{extra}]'"
    else:
        how = f"pip install '{DISTRIBUTION}[{extra}] @ {source[0]}'"
    if only:
        how += "; or only " + "pip install " + " ".join(f"'{r}'" if set(r) & set("<>=[]!~ ;") else r for r in only)
    return how
