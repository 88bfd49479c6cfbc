"""Members of the witness families of ``relations verify`` as mechanisms.

:func:`erasure_member` builds the erasure family's member (:mod:`relations.search._erasure`) for a
given ``eps_m``: the witness of the non-implications "MI-private does not imply DP-private".
"""

from __future__ import annotations

from fractions import Fraction

import relations.search._erasure as erasure
from relations.model._mechanism import Mechanism

__all__ = ["erasure_member"]


def erasure_member(setting: str, eps_m: Fraction) -> Mechanism:
    """The erasure family's member for ``eps_m`` (:mod:`relations.search._erasure`) as a mechanism.

    Locally: two inputs, uniform prior, ``W_t`` with ``t = min(1, eps_m)``; centrally:
    ``D^2`` over ``{0, 1}``, both records through ``W_t``, ``t = min(1, eps_m / 2)``.

    Parameters
    ----------
    setting : str
        ``"local"`` or ``"central"``.
    eps_m : Fraction
        The mutual-information budget the member must meet (``I(X;Y) <= eps_m``).

    Returns
    -------
    Mechanism

    Examples
    --------
    >>> from relations import measure
    >>> m = erasure_member("central", Fraction(1, 10))
    >>> res = measure(m)
    >>> str(res.eps_d.exact), res.eps_m.enclosure.upper <= Fraction(1, 10)
    ('inf', True)
    """
    r = 1 if setting == "local" else 2
    t = erasure.parameter(eps_m, r)
    w = [[t, 1 - t, Fraction(0)], [Fraction(0), 1 - t, t]]
    if r == 1:
        return Mechanism.local(w, inputs=["0", "1"], outputs=["0", "erased", "1"])
    return Mechanism.central(erasure.rows(t, r)[2], records=r, domain=["0", "1"])
