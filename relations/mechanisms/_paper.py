"""The mechanisms of Zheng et al. 2025, "Relations Between Several Classical Privacy Notions".

The paper appeared in Acta Electronica Sinica 53(10), 2025 (Zheng, Huang, Wang, Li, Xu, Li); each function
cites its section or equations.

* :func:`paper_example` -- the Section 5 example: ``D = {1, 2}``,
  ``Q = [[0.65, 0.35], [0.35, 0.65]]`` with a prior of the reader's choice;
* :func:`paper_construction` -- the joint distributions behind the non-implication
  theorems 6/10 (:func:`paper_central`, eq. (57)/(85)) and 8/12 (:func:`paper_local`,
  eq. (63)/(91)), with parameter ``beta``: ``I(X;Y) = h(beta)`` while ``eps_d`` and
  ``eps_i`` are infinite.
"""

from __future__ import annotations

from fractions import Fraction

from relations.errors import InputError
from relations.mechanisms._limits import exact
from relations.mechanisms._local import PriorLike, _local, _q
from relations.model._mechanism import Mechanism
from relations.numbers._text import RationalLike

__all__ = ["paper_example", "paper_construction", "paper_local", "paper_central"]

def paper_example(prior: PriorLike = ("19/20", "1/20")) -> Mechanism:
    """Zheng et al. 2025, Section 5: ``D = {1, 2}``, ``Q = [[0.65, 0.35], [0.35, 0.65]]``.

    Parameters
    ----------
    prior : "uniform" or sequence, optional
        ``(p(1), p(2))``; the paper's Section 5 uses ``(19/20, 1/20)`` (the default) and
        ``(11/20, 9/20)``.

    Returns
    -------
    Mechanism
        Local, ``eps_d = ln(13/7)`` whatever the prior; ``eps_i`` grows with its skew.

    References
    ----------
    .. [1] Zheng, Huang, Wang, Li, Xu, Li. Relations between several classical privacy
       notions. Acta Electronica Sinica 53(10), 2025.

    Examples
    --------
    ``eps_i = ln((19/20)(13/20) / ((1/20)(7/20))) = ln(247/7)`` and ``sigma_min = ln(1/19)``:

    >>> from relations import measure
    >>> m = measure(paper_example())
    >>> str(m.eps_d.exact), str(m.eps_i.exact), str(m.sigma_min.exact)
    ('ln(13/7)', 'ln(247/7)', 'ln(1/19)')
    """
    return _local([[Fraction(13, 20), Fraction(7, 20)], [Fraction(7, 20), Fraction(13, 20)]], prior,
                  inputs=["1", "2"], outputs=["1", "2"])



def paper_construction(theorem: int, beta: RationalLike) -> Mechanism:
    """The joint distributions behind Zheng et al. 2025's non-implication theorems 6, 8, 10 and 12.

    Parameters
    ----------
    theorem : int
        6 or 10 (central, eq. (57)/(85): :func:`paper_central`); 8 or 12 (local, eq. (63)/(91):
        :func:`paper_local`).
    beta : Fraction, int, float or str
        The construction's parameter, ``0 < beta < 1``.

    Returns
    -------
    Mechanism
        ``I(X;Y) = h(beta)`` (binary entropy, nats) while ``eps_d = eps_i = inf``.

    Raises
    ------
    InputError
        For another theorem, or ``beta`` outside ``(0, 1)``.

    Examples
    --------
    >>> from relations import measure
    >>> m = measure(paper_construction(12, "1/2"))
    >>> str(m.eps_d.exact), str(m.eps_i.exact), m.eps_m.enclosure.contains(0)
    ('inf', 'inf', False)
    """
    if isinstance(theorem, bool) or theorem not in (6, 8, 10, 12):
        raise InputError(f"mechanism parameter 'theorem': the paper's constructions are for theorems 6, 8, 10, 12, "
                         f"got {theorem!r}")
    beta = exact(beta, "beta")
    if not 0 < beta < 1:
        raise InputError("mechanism parameter 'beta': must lie strictly between 0 and 1")
    return paper_central(beta) if theorem in (6, 10) else paper_local(beta)


def paper_local(beta: RationalLike) -> Mechanism:
    """Zheng et al. 2025, eq. (63)/(91): ``D = {1, 2}``, the identity channel, prior ``(beta, 1 - beta)``.

    Parameters
    ----------
    beta : Fraction, int, float or str
        ``p(1)``; :func:`paper_construction` checks ``0 < beta < 1``, this function does not.

    Returns
    -------
    Mechanism
        Local; ``I(X;Y) = h(beta)`` (binary entropy, nats) while ``eps_d = eps_i = inf``.

    Examples
    --------
    >>> import math
    >>> from relations import measure
    >>> m = measure(paper_local(Fraction(1, 2)))
    >>> str(m.eps_d.exact), m.eps_m.enclosure.contains(0)
    ('inf', False)
    >>> abs(m.eps_m.value - math.log(2)) < 1e-12  # h(1/2) = ln 2
    True
    """
    beta = _q(beta)
    return Mechanism.local([[1, 0], [0, 1]], prior=[beta, 1 - beta], inputs=["1", "2"], outputs=["1", "2"])


def paper_central(beta: RationalLike) -> Mechanism:
    """Zheng et al. 2025, eq. (57)/(85): datasets ``(1,1) ~ (1,2) ~ (2,2)``, ``I(X;Y) = h(beta)``, ``eps_d = inf``.

    The prior is ``(beta, (1-beta)/2, (1-beta)/2)``.  ``(1,1)`` is always reported as itself,
    ``(1,2)`` and ``(2,2)`` as either of the two with probability ``1/2``, so
    ``I(X;Y) = H(Y) - H(Y|X) = h(beta)`` while ``eps_d = eps_i = inf``.

    Parameters
    ----------
    beta : Fraction, int, float or str
        ``p((1,1))``, ``0 < beta < 1`` (checked by :func:`paper_construction`).

    Returns
    -------
    Mechanism
        Central with the explicit neighbour path above.

    Examples
    --------
    >>> import math
    >>> from relations import measure
    >>> m = measure(paper_central(Fraction(1, 4)))
    >>> str(m.eps_d.exact), str(m.eps_i.exact)
    ('inf', 'inf')
    >>> h = -(1/4) * math.log(1/4) - (3/4) * math.log(3/4)
    >>> abs(m.eps_m.value - h) < 1e-12
    True
    """
    beta = _q(beta)
    labels = ["(1,1)", "(1,2)", "(2,2)"]
    half = Fraction(1, 2)
    return Mechanism.graph([[1, 0, 0], [0, half, half], [0, half, half]], [(0, 1), (1, 2)],
                           prior=[beta, (1 - beta) / 2, (1 - beta) / 2], inputs=labels, outputs=labels)
