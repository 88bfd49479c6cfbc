"""relations: exact privacy budgets of finite mechanisms and the relations between them.

Load a mechanism (:func:`load`, :func:`loads`, :func:`from_dict`), then
:func:`measure` it: ``eps_i`` (identifiability), ``eps_d`` (differential
privacy), ``eps_m`` (mutual information, certified enclosure) and the prior
constant ``sigma_min``, each with its exact form and witness.  Definitions
follow Zheng et al., "Relations Between Several Classical Privacy Notions"
(2025), Defs. 2-9; see ``SPEC.md`` for the conventions on zeros and infinities.

Then :func:`check` it against the relation :data:`CATALOGUE` and claimed budgets
(:mod:`relations.checker`), or decide a relation for all mechanisms with
:func:`relations.verify.verify_relation`.  Topics: :mod:`relations.mechanisms`
(named mechanisms), :mod:`relations.symbolic` (closed forms),
:mod:`relations.utility` and :mod:`relations.optimal` (privacy-utility),
:mod:`relations.figures`, :mod:`relations.strategies` (hypothesis strategies).
"""

from .catalogue import CATALOGUE, Relation
from .checker import check
from .errors import InputError
from .exact import LogRatio, parse_rational
from .loader import from_dict, load, loads
from .measures import Budget, Measures, MutualInformation, Witness, measure
from .mechanism import Channel, Mechanism, Prior, ProductChannel, ProductPrior

__all__ = [
    "CATALOGUE", "Relation", "check", "Budget", "Channel", "InputError", "LogRatio", "Measures", "Mechanism", "MutualInformation", "Prior",
    "ProductChannel", "ProductPrior", "Witness", "from_dict", "load", "loads", "measure", "parse_rational",
]
__version__ = "0.1.0"
