"""relations: exact privacy budgets of finite mechanisms and the relations between them.

Build a mechanism (:class:`Mechanism` constructors, :mod:`relations.mechanisms`) or
load one (:func:`load`, :func:`loads`, :func:`from_dict`), then :func:`measure` it:
``eps_i`` (identifiability), ``eps_d`` (differential privacy), ``eps_m`` (mutual
information, certified enclosure) and the prior constant ``sigma_min``, each with its
exact form and witness.  Definitions follow Zheng et al., "Relations Between Several
Classical Privacy Notions" (2025), Defs. 2-9; ``docs/semantics.md`` states the
conventions on zeros and infinities.

Then :func:`check` it against the relation :data:`CATALOGUE` and claimed budgets, or
decide a relation for all mechanisms with :func:`verify_relation` (or one you state, with
:func:`conjecture`).

The package is layered; each layer imports only from the layers above it in this list:

* :mod:`relations.numbers` -- exact rationals, logarithms, certified enclosures;
* :mod:`relations.model` -- priors, channels, neighbour structures, mechanisms;
* :mod:`relations.measures`, :mod:`relations.mechanisms` -- budgets; named mechanisms;
* :mod:`relations.catalogue` -- relations between budgets, as data;
* :mod:`relations.checking` -- relations and claims decided on one mechanism;
* :mod:`relations.search`, :mod:`relations.tradeoffs` -- verdicts over all mechanisms;
  privacy against utility;
* :mod:`relations.io` -- files and reports; then :mod:`relations.figures` and
  :mod:`relations.cli`.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

#: Modules of 0.2 that moved to another package (not only behind an underscore).
_MOVED_MODULES = {
    **{f"relations.search.{m}": f"relations.proofs._{m}" for m in ("smt", "derive", "coq", "z3context")},
    "relations.search.solvers": "relations.proofs.solvers",
    "relations.search.conjecture_proof": "relations.proofs._conjectures",
    **{f"relations.search.{m}": f"relations.pipeline._{m}"
       for m in ("verify", "conjecture", "tightness", "frontiers", "conversion_frontiers")},
    "relations.search.sweep_spec": "relations.sweeps._spec", "relations.search.sweep": "relations.sweeps._chunks",
}


class _OldModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """The 0.2 module paths (``relations.measures.ratios``, ``relations.search.smt``) still import, as the module
    that replaced them (``relations.measures._ratios``, ``relations.proofs._smt``), with a DeprecationWarning:
    modules other than the packages and a few documented ones are internal since 0.3."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith("relations.") or fullname.rpartition(".")[2].startswith("_"):
            return None
        new = _MOVED_MODULES.get(fullname)
        if new is None:
            head, _, last = fullname.rpartition(".")
            new = f"{head}._{last}"
            try:
                if importlib.util.find_spec(new) is None:
                    return None
            except ModuleNotFoundError:
                return None
        return importlib.util.spec_from_loader(fullname, self, origin=new)

    def create_module(self, spec):
        warnings.warn(f"{spec.name} is internal since 0.3 (now {spec.origin}); import from its package",
                      DeprecationWarning, stacklevel=2)
        return importlib.import_module(spec.origin)

    def exec_module(self, module) -> None:
        """Nothing to run: the module is the one that replaced the old path."""


if not any(isinstance(f, _OldModules) for f in sys.meta_path):
    sys.meta_path.append(_OldModules())

#: Where each public name lives: imported on first use (PEP 562), so ``import relations`` and the
#: command line start without numpy, sympy or z3.
_EXPORTS = {
    "CATALOGUE": "relations.catalogue", "Relation": "relations.catalogue",
    "check": "relations.checking", "parse_claim": "relations.checking",
    "InputError": "relations.errors", "NumericMode": "relations.kinds",
    "RelationsError": "relations.errors", "SolverError": "relations.errors",
    "from_dict": "relations.io._reading", "load": "relations.io._reading", "loads": "relations.io._reading",
    "Budget": "relations.measures", "Measures": "relations.measures", "MutualInformation": "relations.measures",
    "Witness": "relations.measures", "eps_all": "relations.measures", "measure": "relations.measures",
    "Channel": "relations.model", "Mechanism": "relations.model", "Prior": "relations.model",
    "ProductChannel": "relations.model", "ProductPrior": "relations.model",
    "Enclosure": "relations.numbers", "LogRatio": "relations.numbers", "parse_rational": "relations.numbers",
    "verify_relation": "relations.pipeline._verify",
    "conjecture": "relations.pipeline._conjecture", "ConjectureResult": "relations.pipeline._conjecture",
}


def __getattr__(name: str):
    if name == "__version__":  # read from the installed metadata on first use (about 25 ms)
        globals()[name] = _version()
        return globals()[name]
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'relations' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


__all__ = [
    "CATALOGUE", "Budget", "Channel", "ConjectureResult", "Enclosure", "InputError", "LogRatio", "Measures",
    "Mechanism", "MutualInformation", "NumericMode", "Prior", "ProductChannel", "ProductPrior", "Relation", "RelationsError", "SolverError",
    "Witness", "check", "conjecture", "eps_all", "from_dict", "load", "loads", "measure", "parse_claim", "parse_rational",
    "verify_relation", "__version__",
]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("privacy-relations")
    except PackageNotFoundError:  # a source tree that was not installed
        return "0.0.0+unknown"

