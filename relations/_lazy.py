"""Package attributes imported on first use (PEP 562), and the 0.2 module paths kept working.

Since 0.3 every module other than the packages and a few documented ones is internal, named
``_module``.  The 0.2 paths (``relations.measures.ratios``, ``relations.search.smt``) still import,
as an import or as a package attribute, as the module that replaced them, with a
DeprecationWarning (:class:`OldModules`, :func:`old_submodule`).

Examples
--------
>>> getattr_, dir_ = exports("relations.notions", {"NOTIONS": "relations.notions"})
>>> "rho" in getattr_("NOTIONS"), "NOTIONS" in dir_()
(True, True)
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

__all__ = ["exports", "old_submodule", "OldModules", "MOVED_MODULES"]

#: Modules of 0.2 that moved to another package (not only behind an underscore).
MOVED_MODULES = {
    **{f"relations.search.{m}": f"relations.proofs._{m}" for m in ("smt", "derive", "coq", "z3context")},
    "relations.search.solvers": "relations.proofs.solvers",
    "relations.search.conjecture_proof": "relations.proofs._conjectures",
    **{f"relations.search.{m}": f"relations.pipeline._{m}"
       for m in ("verify", "conjecture", "tightness", "frontiers", "conversion_frontiers")},
    "relations.search.sweep_spec": "relations.sweeps._spec", "relations.search.sweep": "relations.sweeps._chunks",
}


def _replacement(fullname: str) -> str | None:
    """The module that replaced the 0.2 module ``fullname``, or None (not a 0.2 path, or a public name)."""
    head, _, last = fullname.rpartition(".")
    if not head.startswith("relations") or last.startswith("_"):
        return None
    if fullname in MOVED_MODULES:
        return MOVED_MODULES[fullname]
    parent = sys.modules.get(head)
    if parent is not None and last in (getattr(parent, "__all__", None) or ()):
        return None  # a public name of the package (relations.pipeline.conjecture is a function)
    new = f"{head}._{last}"
    try:
        return new if importlib.util.find_spec(new) is not None else None
    except ModuleNotFoundError:
        return None


def _warn(old: str, new: str, stacklevel: int = 3) -> None:
    warnings.warn(f"{old} is internal since 0.3 (now {new}); import from its package", DeprecationWarning,
                  stacklevel=stacklevel)


def old_submodule(package: str, name: str) -> ModuleType | None:
    """The module behind the 0.2 attribute ``package.name`` (``relations.search.smt``), with a warning; else None."""
    new = _replacement(f"{package}.{name}")
    if new is None:
        return None
    _warn(f"{package}.{name}", new, stacklevel=4)  # the user's line: _warn, this, a package's __getattr__, it
    return importlib.import_module(new)


class OldModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports of the 0.2 module paths: the module that replaced each, the same object, with a warning.

    The module keeps its own ``__spec__`` (``importlib.reload`` reloads it); ``python -m`` on an old
    path runs the new module.
    """

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        new = _replacement(fullname)
        return None if new is None else importlib.util.spec_from_loader(fullname, self, origin=new)

    def create_module(self, spec: Any) -> ModuleType:
        _warn(spec.name, spec.origin)
        module = importlib.import_module(spec.origin)
        spec.loader_state = module.__spec__  # importlib puts the alias spec on the module: put back its own
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run (the module is the one that replaced the old path); its own spec is put back."""
        module.__spec__ = module.__spec__.loader_state  # type: ignore[union-attr]

    def get_code(self, fullname: str) -> Any:
        """The new module's code, for ``python -m`` on an old path."""
        new = _replacement(fullname)
        assert new is not None  # found by find_spec
        _warn(fullname, new)
        spec = importlib.util.find_spec(new)
        return spec.loader.get_code(new)  # type: ignore[union-attr]


def exports(package: str, where: dict[str, str], *,
            moved: dict[str, str] | None = None) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: the name ``n`` is ``where[n]``'s attribute ``n``, and a
    0.2 submodule name (``relations.measures.ratios``) is its replacement, with a DeprecationWarning.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    where : dict of str to str
        Each public name imported on first use, and the module that defines it.
    moved : dict of str to str, optional
        0.2 names of the package that moved to another module: resolved there, with a DeprecationWarning.
    """

    def getattr_(name: str) -> Any:
        module = where.get(name)
        if module is None and moved and name in moved:
            warnings.warn(f"{package}.{name} moved to {moved[name]}.{name}", DeprecationWarning, stacklevel=2)
            return getattr(importlib.import_module(moved[name]), name)
        if module is None:
            old = old_submodule(package, name)
            if old is None:
                raise AttributeError(f"module {package!r} has no attribute {name!r}")
            return old
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def dir_() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where))

    return getattr_, dir_
