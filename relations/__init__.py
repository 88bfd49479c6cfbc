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

* :mod:`relations.kinds`, :mod:`relations.notions` -- the vocabulary and the notion table;
* :mod:`relations.numbers` -- exact rationals, logarithms, certified enclosures;
* :mod:`relations.model` -- priors, channels, neighbour structures, mechanisms;
* :mod:`relations.measures`, :mod:`relations.mechanisms` -- budgets; named mechanisms;
* :mod:`relations.catalogue` -- relations between budgets, as data;
* :mod:`relations.checking` -- relations, claims and conjectures decided on one mechanism;
* :mod:`relations.proofs`, :mod:`relations.search`, :mod:`relations.audit`,
  :mod:`relations.tradeoffs` -- proofs, counterexample searches, audits of code, privacy
  against utility;
* :mod:`relations.pipeline`, :mod:`relations.sweeps` -- verdicts over all mechanisms; sweeps;
* :mod:`relations.io` -- formats and writes; :mod:`relations.app` -- the runs of the commands;
  then :mod:`relations.figures`, :mod:`relations.demo` and :mod:`relations.cli`.

Modules named ``_module`` are internal: import from the packages.
"""

from __future__ import annotations

import sys


def _started_as_command_line() -> bool:
    """Whether this process is the ``relations`` command (``python -m relations[.cli]`` or the console
    script), read from the interpreter's own command line before anything else is imported."""
    if sys.argv[:1] == ["-m"]:  # python -m MODULE, while MODULE is being found
        args = list(getattr(sys, "orig_argv", []))[1:]
        for i, arg in enumerate(args):
            if arg.startswith("-m"):
                name = arg[2:] or (args[i + 1] if i + 1 < len(args) else "")
                return name == "relations" or name.startswith("relations.")
        return False
    script = getattr(sys.modules.get("__main__"), "__file__", None)
    if not sys.argv or not script or script != sys.argv[0]:
        return False
    name = script.replace("\\", "/").rsplit("/", 1)[-1].lower()
    return name in ("relations", "relations.exe", "relations-script.py", "relations-script.pyw")


def _interrupted_early(signum: int, frame: object) -> None:
    """Ctrl-C while the command line is still being loaded: one line, status 130 (the command's own handler,
    :func:`relations._processes.install_interrupt_handler`, takes over before the command runs)."""
    import os

    try:
        os.write(2, b"relations: interrupted\n")
    finally:
        os._exit(130)


if _started_as_command_line():  # first of all: a Ctrl-C during the imports below is one line, not a traceback
    import _signal  # built in: 'signal' would import enum first, a window of its own

    if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:  # not ignored (a background job)
        _signal.signal(_signal.SIGINT, _interrupted_early)

from relations._lazy import OldModules, exports  # noqa: E402

if not any(isinstance(f, OldModules) for f in sys.meta_path):  # the 0.2 module paths still import
    sys.meta_path.append(OldModules())

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
    "Channel": "relations.model", "Mechanism": "relations.model", "Composition": "relations.model",
    "compose": "relations.model", "Prior": "relations.model",
    "ProductChannel": "relations.model", "ProductPrior": "relations.model",
    "Enclosure": "relations.numbers", "LogRatio": "relations.numbers", "parse_rational": "relations.numbers",
    "verify_relation": "relations.pipeline._verify",
    "conjecture": "relations.pipeline._conjecture", "ConjectureResult": "relations.pipeline._conjecture",
}


_getattr, __dir__ = exports(__name__, _EXPORTS)


def __getattr__(name: str):
    if name == "__version__":  # read from the installed metadata on first use (about 25 ms)
        globals()[name] = _version()
        return globals()[name]
    return _getattr(name)


__all__ = [
    "CATALOGUE", "Budget", "Channel", "Composition", "compose", "ConjectureResult", "Enclosure", "InputError", "LogRatio", "Measures",
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

