"""relations: exact privacy budgets of finite mechanisms and the relations between them.

Load a mechanism (:func:`load`, :func:`loads`, :func:`from_dict`), then
:func:`measure` it: ``eps_i`` (identifiability), ``eps_d`` (differential
privacy), ``eps_m`` (mutual information, certified enclosure) and the prior
constant ``sigma_min``, each with its exact form and witness.  Definitions
follow Zheng et al., "Relations Between Several Classical Privacy Notions"
(2025), Defs. 2-9; see ``SPEC.md`` for the conventions on zeros and infinities.
"""

from .errors import InputError
from .exact import LogRatio, parse_rational
from .loader import from_dict, load, loads
from .measures import Budget, Measures, MutualInformation, Witness, measure
from .mechanism import Channel, Mechanism, Prior, ProductChannel, ProductPrior

__all__ = [
    "Budget", "Channel", "InputError", "LogRatio", "Measures", "Mechanism", "MutualInformation", "Prior",
    "ProductChannel", "ProductPrior", "Witness", "from_dict", "load", "loads", "measure", "parse_rational",
]
__version__ = "0.1.0"
