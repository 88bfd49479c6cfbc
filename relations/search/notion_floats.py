"""Float values of the conversion notions (``rho``, ``kl``, ``renyi(a)``, ``delta(e)``, ``eps_delta(d)``,
``maximal_leakage``, ``min_entropy_leakage``), for the optimising search only.

The searches (:mod:`relations.search.optimiser`) steer by floats; every candidate they report is
re-checked by the exact checker, which reads the exact values of
:func:`relations.checking.values`.  :class:`FloatValues` is the dict the searches read: the
paper's six notions up front and the conversion notions computed on first use.

For a product form (``r`` records through one local channel ``W``) the divergence notions are
those of ``W``'s rows (neighbours differ in one record, the other factors cancel) and the two
leakages are ``r`` times ``W``'s (both add over independent records with a product prior).

Examples
--------
>>> import numpy as np
>>> P, Q = np.array([0.75, 0.25]), np.array([0.25, 0.75])
>>> round(pair_value("kl", P, Q), 6), round(pair_value("renyi(2)", P, Q), 6)  # ln 3 tanh(ln 3 / 2), ln(7/3)
(0.549306, 0.847298)
>>> round(pair_value("delta(0)", P, Q), 6), round(pair_value("eps_delta(1/2)", P, Q), 6)
(0.5, 0.0)
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np

from relations.model.products import ProductChannel
from relations.model.mechanism import Mechanism

__all__ = ["parse", "pair_value", "rho_pair", "leakages", "notion_float", "ADDITIVE", "FloatValues"]

_CALL = re.compile(r"^(\w+)\(([^()]+)\)$")

#: Notions that add over the records of a product form.
ADDITIVE = ("maximal_leakage", "min_entropy_leakage")


def parse(name: str) -> tuple[str, Fraction | None]:
    """``("renyi", 2)`` for ``"renyi(2)"``; ``("kl", None)`` for ``"kl"``.

    Examples
    --------
    >>> parse("eps_delta(1/100000)"), parse("rho")
    (('eps_delta', Fraction(1, 100000)), ('rho', None))
    """
    m = _CALL.match(name)
    return (m.group(1), Fraction(m.group(2))) if m else (name, None)


def _renyi_orders(a: np.ndarray, P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """``D_a(P || Q)`` for an array of orders ``a > 1`` (``Q > 0`` on ``P``'s support), by log-sum-exp."""
    m = P > 0
    lp, lr = np.log(P[m]), _log_ratio(P[m], Q[m])
    M = lp[None, :] + (a[:, None] - 1) * lr[None, :]
    top = M.max(axis=1)
    lse = top + np.log(np.exp(M - top[:, None]).sum(axis=1))
    # near P = Q or a = 1, ln sum P e^((a-1) lr) = log1p(sum P expm1((a-1) lr)) (the rows sum to 1) keeps
    # the relative accuracy that the log-sum-exp loses to cancellation (rho at eps = 1e-4 was 1e-6 off)
    t = (a[:, None] - 1) * lr[None, :]
    small = np.abs(t).max(axis=1) < 0.5
    near = np.log1p((P[m][None, :] * np.expm1(np.where(small[:, None], t, 0.0))).sum(axis=1))
    return np.maximum(0.0, np.where(small, near, lse) / (a - 1))


def _log_ratio(P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """``ln(P/Q)`` entrywise, through ``log1p((P - Q)/Q)`` where the ratio is near 1 (exact ``P - Q``)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        r = P / Q
        return np.where(np.abs(r - 1) < 0.5, np.log1p((P - Q) / Q), np.log(r))


def rho_pair(P: np.ndarray, Q: np.ndarray) -> float:
    """``sup_{a > 1} D_a(P || Q) / a``: a log-spaced grid of orders, refined twice around its best point.

    Examples
    --------
    >>> import numpy as np
    >>> round(rho_pair(np.array([0.75, 0.25]), np.array([0.25, 0.75])), 5)  # binary RR: its KL
    0.54931
    """
    if np.any(Q[P > 0] == 0):
        return math.inf
    grid = 1 + np.logspace(-4, 3, 36)  # the limit a -> 1 is the KL divergence, taken exactly below
    best = pair_value("kl", P, Q)
    for _ in range(3):
        vals = _renyi_orders(grid, P, Q) / grid
        i = int(np.argmax(vals))
        best = max(best, float(vals[i]))
        grid = np.linspace(grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)], 13)
    return best


def _eps_delta(P: np.ndarray, Q: np.ndarray, d: float) -> float:
    """The least ``eps >= 0`` with ``sum_y max(0, P - e^eps Q) <= d``: on the segment where the outputs of
    the ``j`` largest ratios ``P/Q`` are the positive terms, ``e^eps = (P_S - d) / Q_S``."""
    if float(np.sum(np.maximum(0.0, P - Q))) <= d:
        return 0.0
    m = P > 0
    with np.errstate(divide="ignore"):
        r = np.where(Q[m] > 0, P[m] / np.where(Q[m] > 0, Q[m], 1), np.inf)
    order = np.argsort(-r)
    r, ps, qs = r[order], np.cumsum(P[m][order]), np.cumsum(Q[m][order])
    for j in range(len(r)):
        nxt = r[j + 1] if j + 1 < len(r) else 0.0
        if qs[j] > 0 and ps[j] - d > 0:
            e = (ps[j] - d) / qs[j]
            if nxt <= e <= r[j]:
                return max(0.0, math.log(e))
    return math.inf


def pair_value(name: str, P: np.ndarray, Q: np.ndarray) -> float:
    """A divergence notion of one ordered pair of rows ``(P, Q)``, in floats.

    Parameters
    ----------
    name : str
        ``kl``, ``rho``, ``renyi(a)``, ``delta(e)`` or ``eps_delta(d)``.
    P, Q : numpy.ndarray
        The rows ``Q[x]`` and ``Q[x']``.
    """
    kind, arg = parse(name)
    if kind == "kl":
        m = P > 0
        if np.any(Q[m] == 0):
            return math.inf
        return max(0.0, float(np.sum(P[m] * _log_ratio(P[m], Q[m]))))
    if kind == "rho":
        return rho_pair(P, Q)
    if kind == "renyi":
        if np.any(Q[P > 0] == 0):
            return math.inf
        return float(_renyi_orders(np.array([float(arg)]), P, Q)[0])
    if kind == "delta":
        return float(np.sum(np.maximum(0.0, P - math.exp(float(arg)) * Q)))
    if kind == "eps_delta":
        return _eps_delta(P, Q, float(arg))
    raise KeyError(name)


def leakages(p: np.ndarray, W: np.ndarray) -> dict[str, float]:
    """``maximal_leakage`` and ``min_entropy_leakage`` of prior ``p`` and channel ``W`` (floats).

    Examples
    --------
    >>> import numpy as np
    >>> out = leakages(np.array([0.5, 0.5]), np.array([[0.75, 0.25], [0.25, 0.75]]))
    >>> round(out["maximal_leakage"], 6), round(out["min_entropy_leakage"], 6)  # ln(3/2) both
    (0.405465, 0.405465)
    """
    support = p > 0
    ml = math.log(float(np.sum(np.max(W[support], axis=0))))
    mel = math.log(float(np.sum(np.max(p[:, None] * W, axis=0)))) - math.log(float(np.max(p)))
    return {"maximal_leakage": ml, "min_entropy_leakage": mel}


def notion_float(mech: Mechanism, name: str) -> float:
    """A conversion notion of a (float or exact) mechanism, in floats.

    Parameters
    ----------
    mech : Mechanism
        Dense (local, ``D^r`` or graph) or a product form.
    name : str
        A conversion notion (:data:`relations.catalogue.EXTRA_NOTIONS`).

    Raises
    ------
    KeyError
        For a name that is not one.
    """
    kind, _ = parse(name)
    ch = mech.channel
    if isinstance(ch, ProductChannel):
        W = np.asarray(ch.local.array, dtype=float)
        if kind in ADDITIVE:
            prior = mech.prior
            factors = getattr(prior, "factors", None) or [prior] * ch.records
            return sum(leakages(np.asarray(f.array, dtype=float), W)[kind] for f in factors)
        pairs = [(i, j) for i in range(W.shape[0]) for j in range(W.shape[0]) if i != j]
    else:
        W = np.asarray(ch.array, dtype=float)
        if kind in ADDITIVE:
            return leakages(np.asarray(mech.prior.array, dtype=float), W)[kind]
        pairs = [q for i, j in mech.inputs.pairs() for q in ((i, j), (j, i))]
    seen: dict = {}
    for i, j in pairs:  # pairs with the same multiset of column pairs have the same value
        key = tuple(sorted(zip(W[i].tolist(), W[j].tolist())))
        if key not in seen:
            seen[key] = pair_value(name, W[i], W[j])
    return max(seen.values(), default=0.0)


class FloatValues(dict):
    """The float values the searches read: given entries, and conversion notions computed on first use.

    Parameters
    ----------
    mech : Mechanism
        The mechanism the missing values are computed from.
    records : int, optional
        For the central values of an ``r``-fold product computed from the local mechanism's
        :class:`FloatValues` (``values``, whose cache is then shared): the leakages are multiplied by
        ``records``, the divergence notions kept.
    """

    def __init__(self, mech: Mechanism, values: dict[str, float], records: int = 1):
        super().__init__(values)
        self.mech, self.records = mech, records
        self.base = values if isinstance(values, FloatValues) and records != 1 else None

    def __missing__(self, name: str) -> float:
        v = self.base[name] if self.base is not None else notion_float(self.mech, name)  # the local values, cached
        if parse(name)[0] in ADDITIVE:
            v *= self.records
        self[name] = v
        return v
