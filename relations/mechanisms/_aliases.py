"""The named mechanisms under the names a mechanism file gives them.

Every name of :data:`~relations.mechanisms._registry.REGISTRY` is also a function of
:mod:`relations.mechanisms`, taking the same parameters (``ratio`` or keyword-only ``eps``,
:mod:`relations.mechanisms._budgets`): ``krr``, ``exponential``, ``truncated_geometric``,
``folded_geometric``, ``staircase``, ``paper_example`` and ``paper_construction`` are the
constructors themselves; this module adds the short names of the others, which stay
available under their long names:

=============  ==================================================
``rr``         :func:`~relations.mechanisms._local.randomized_response`
``oue``        :func:`~relations.mechanisms._local.unary_encoding` (optimised)
``sue``        :func:`~relations.mechanisms._local.unary_encoding` (``optimized=False``)
``subset``     :func:`~relations.mechanisms._local.subset_selection`
``hadamard``   :func:`~relations.mechanisms._local.hadamard_response`
=============  ==================================================

Examples
--------
>>> from relations import measure
>>> str(measure(oue(3, eps="ln(3)")).eps_d.exact), rr is randomized_response
('ln(3)', True)
"""

from __future__ import annotations

from relations.mechanisms._budgets import EpsLike
from relations.mechanisms._local import (
    PriorLike,
    hadamard_response,
    randomized_response,
    subset_selection,
    unary_encoding,
)
from relations.model._mechanism import Mechanism
from relations.numbers._text import RationalLike

__all__ = ["rr", "oue", "sue", "subset", "hadamard"]

#: Warner's randomized response (the file name ``"rr"``).
rr = randomized_response
#: s-subset selection (the file name ``"subset"``).
subset = subset_selection
#: Hadamard response (the file name ``"hadamard"``).
hadamard = hadamard_response


def oue(k: int, ratio: RationalLike | None = None, *, eps: EpsLike | None = None, prior: PriorLike = None) -> Mechanism:
    """Optimised unary encoding: :func:`~relations.mechanisms._local.unary_encoding` with ``optimized=True``.

    Examples
    --------
    >>> oue(2, 3).channel.exact == unary_encoding(2, 3).channel.exact
    True
    """
    return unary_encoding(k, ratio, eps=eps, optimized=True, prior=prior)


def sue(k: int, ratio: RationalLike | None = None, *, eps: EpsLike | None = None, prior: PriorLike = None) -> Mechanism:
    """Symmetric unary encoding: :func:`~relations.mechanisms._local.unary_encoding` with ``optimized=False``.

    ``ratio`` must be the square of a rational; a numeric ``eps`` is rounded to one
    (:func:`~relations.mechanisms._budgets.ratio_of` with ``square=True``).

    Examples
    --------
    >>> sue(2, 4).channel.exact[0][0]
    Fraction(2, 9)
    """
    return unary_encoding(k, ratio, eps=eps, optimized=False, prior=prior)
