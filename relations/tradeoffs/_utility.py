"""Utility of a mechanism and the information quantities of Wu, Peng, Mou (2019).

* :func:`expected_distortion` — ``E[L(X, Y)] = sum_x p(x) sum_y Q[x][y] L(x, y)``,
  exact (a rational) for a rational loss; ``"hamming"`` is ``L(x, y) = [x != y]``
  with outputs identified with inputs (a square channel);
* :func:`entropy`, :func:`conditional_entropy` — ``H(X)``, ``H(X|Y) = H(X) - I(X;Y)``
  in nats as certified enclosures;
* :func:`fano_leakage_bound` — Fano's inequality for a mechanism whose output
  guesses the input with error probability ``D`` (expected Hamming distortion):
  ``H(X|Y) <= h(D) + D ln(k - 1)``, so the leakage is at least
  ``I(X;Y) >= H(X) - h(D) - D ln(k - 1)`` (Wu, Peng, Mou 2019: the lower bound on leakage
  for a given distortion).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import cast

from relations.errors import InputError
from relations.measures._information import mutual_information
from relations.model._distributions import Channel, Prior
from relations.model._mechanism import Mechanism
from relations.numbers._enclosure import (
    Enclosure,
    ball,
    interval,
    rational,
    working_precision,
)
from relations.numbers._text import RationalLike

#: A loss: ``"hamming"`` (``[x != y]``) or an ``n x m`` matrix of exact numbers.
Loss = str | Sequence[Sequence[RationalLike]]

__all__ = ["Loss", "loss_matrix", "expected_distortion", "entropy", "conditional_entropy", "binary_entropy", "fano_leakage_bound", "utility_summary"]


def _exact(mech: Mechanism) -> tuple[tuple[Fraction, ...], Sequence[Sequence[Fraction]]]:
    """The exact prior and channel entries of a dense mechanism in exact mode."""
    prior, rows = cast(Prior, mech.prior).exact, cast(Channel, mech.channel).exact
    assert prior is not None and rows is not None  # exact mode
    return prior, rows


def loss_matrix(mech: Mechanism, loss: Loss) -> list[list[Fraction]]:
    """The loss as an exact ``n x m`` matrix (``"hamming"`` needs ``n == m``)."""
    n, m = cast(Channel, mech.channel).shape  # dense
    if isinstance(loss, str):
        if loss != "hamming":
            raise InputError(f"unknown loss {loss!r} (use 'hamming' or a matrix)")
        if n != m:
            raise InputError("Hamming loss needs as many outputs as inputs")
        return [[Fraction(int(x != y)) for y in range(m)] for x in range(n)]
    rows = [[Fraction(v) for v in row] for row in loss]
    if len(rows) != n or any(len(r) != m for r in rows):
        raise InputError(f"loss matrix must be {n} x {m}")
    return rows


def expected_distortion(mech: Mechanism, loss: Loss = "hamming") -> Fraction:
    """``E[L(X, Y)] = sum_x p(x) sum_y Q[x][y] L(x, y)``, exactly.

    Parameters
    ----------
    mech : Mechanism
        Product forms are expanded (small sizes only).
    loss : "hamming" or matrix, optional
        ``"hamming"`` is ``[x != y]`` (a square channel); else an ``n x m`` matrix of rationals.

    Returns
    -------
    Fraction
        The expected loss under the prior.

    Raises
    ------
    InputError
        For an unknown loss or a loss matrix of the wrong shape.

    Examples
    --------
    4-RR with ratio 3 reports the truth with probability 1/2:

    >>> from relations.mechanisms import krr
    >>> expected_distortion(krr(4, 3))
    Fraction(1, 2)
    """
    if mech.is_product:
        mech = mech.dense()
    lm = loss_matrix(mech, loss)
    prior, rows = _exact(mech)
    return sum((px * q * l for px, row, lrow in zip(prior, rows, lm)
                for q, l in zip(row, lrow) if px and q), Fraction(0))  # noqa: E741


def entropy(p: Sequence[Fraction], bits: int = 100) -> Enclosure:
    """``H = -sum p ln p`` as a certified enclosure (the information of the identity channel)."""
    n = len(p)
    identity = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    return mutual_information(list(p), identity, bits)


def conditional_entropy(mech: Mechanism, bits: int = 100) -> Enclosure:
    """``H(X|Y) = H(X) - I(X;Y)`` (enclosure)."""
    prior, rows = _exact(mech)
    h = entropy(prior, bits)
    i = mutual_information(prior, rows, bits)
    return Enclosure(max(h.lower - i.upper, Fraction(0)), h.upper - i.lower)


def binary_entropy(d: Fraction, bits: int = 100) -> Enclosure:
    return entropy([d, 1 - d], bits) if 0 < d < 1 else Enclosure(Fraction(0), Fraction(0))


def fano_leakage_bound(prior: Sequence[Fraction], distortion: Fraction, bits: int = 100) -> Enclosure:
    """``H(X) - h(D) - D ln(k - 1)``: no mechanism with Hamming distortion ``D`` leaks less (Fano)."""
    k = len(prior)
    h = entropy(prior, bits)
    hd = binary_entropy(Fraction(distortion), bits)
    d = Fraction(distortion)
    with working_precision(bits + 32):
        term = ball(Fraction(k - 1)).log() * rational(d) if k > 2 and d else ball(Fraction(0))
        lo_t, hi_t = interval(term)
    return Enclosure(h.lower - hd.upper - hi_t, h.upper - hd.lower - lo_t)


def utility_summary(mech: Mechanism, loss: Loss = "hamming") -> dict:
    """Distortion, ``H(X)``, ``H(X|Y)``, ``I(X;Y)`` and (Hamming loss) Fano's lower bound, as a dict.

    Values are the midpoints of certified enclosures (floats) and the exact distortion as text;
    this is what ``relations utility`` prints.

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> utility_summary(randomized_response(3))["distortion"]
    '1/4'
    """
    if mech.is_product:
        mech = mech.dense()
    d = expected_distortion(mech, loss)
    prior, rows = _exact(mech)
    h, hc = entropy(prior), conditional_entropy(mech)
    mi = mutual_information(prior, rows)
    out = {"distortion": str(d), "distortion_value": float(d), "H(X)": float(h.midpoint),
           "H(X|Y)": float(hc.midpoint), "I(X;Y)": float(mi.midpoint)}
    if isinstance(loss, str) and loss == "hamming" and len(prior) >= 2:
        out["fano_lower_bound_on_I"] = float(fano_leakage_bound(prior, d).midpoint)
    return out
