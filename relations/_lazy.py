"""Package attributes imported on first use (PEP 562), so a package's names cost nothing until used.

Examples
--------
>>> getattr_, dir_ = exports("relations.notions", {"NOTIONS": "relations.notions"})
>>> sorted(getattr_("NOTIONS"))[:2], "NOTIONS" in dir_()
(['cmi', 'delta'], True)
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["exports"]


def exports(package: str, where: dict[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: the name ``n`` is ``where[n]``'s attribute ``n``.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    where : dict of str to str
        Each public name, and the module that defines it.
    """

    def getattr_(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def dir_() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where))

    return getattr_, dir_
