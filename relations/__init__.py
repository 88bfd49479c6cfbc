"""relations: exact privacy budgets of finite mechanisms and the relations between them.

Build a mechanism (:class:`Mechanism` constructors, :mod:`relations.mechanisms`) or
load one (:func:`load`, :func:`loads`, :func:`from_dict`), then :func:`measure` it:
``eps_i`` (identifiability), ``eps_d`` (differential privacy), ``eps_m`` (mutual
information, certified enclosure) and the prior constant ``sigma_min``, each with its
exact form and witness.  Definitions follow Zheng et al., "Relations Between Several
Classical Privacy Notions" (2025), Defs. 2-9; ``docs/semantics.md`` states the
conventions on zeros and infinities.

Then :func:`check` it against the relation :data:`CATALOGUE` and claimed budgets, or
decide a relation for all mechanisms with :func:`verify_relation`.

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

from relations.catalogue import CATALOGUE, Relation
from relations.checking import check, parse_claim
from relations.errors import InputError, RelationsError, SolverError
from relations.io.reading import from_dict, load, loads
from relations.measures import (
    Budget,
    Measures,
    MutualInformation,
    Witness,
    eps_all,
    measure,
)
from relations.model import Channel, Mechanism, Prior, ProductChannel, ProductPrior
from relations.numbers import Enclosure, LogRatio, parse_rational
from relations.search.verify import verify_relation

__all__ = [
    "CATALOGUE", "Budget", "Channel", "Enclosure", "InputError", "LogRatio", "Measures", "Mechanism",
    "MutualInformation", "Prior", "ProductChannel", "ProductPrior", "Relation", "RelationsError", "SolverError",
    "Witness", "check", "eps_all", "from_dict", "load", "loads", "measure", "parse_claim", "parse_rational",
    "verify_relation", "__version__",
]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("privacy-relations")
    except PackageNotFoundError:  # a source tree that was not installed
        return "0.0.0+unknown"


__version__ = _version()
