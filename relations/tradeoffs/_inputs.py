"""The inputs of the optimal-mechanism solvers (:mod:`relations.tradeoffs._optimal`), checked up front.

Every problem is an :class:`~relations.errors.InputError` of one line naming the command-line
option (``--prior``, ``--eps``, ``--loss`` of ``relations optimize``), raised before anything is
solved:

* the prior: a distribution of 1 to :data:`MAX_LP_PRIOR` entries for ``dp`` and ``id`` (the LP
  has ``k^2`` two-entry inequalities and ``k`` row sums; dual simplex takes about 1.3 s at 256, 8 s
  at 512, 37-53 s at 1024, with Hamming loss on 2 cores) and 1 to :data:`MAX_MI_PRIOR`
  for ``mi`` (Blahut-Arimoto: about 10 s at 256); for ``id`` every entry positive;
* the budget: ``eps >= 0``; for ``dp`` and ``id`` at most :data:`MAX_LP_EPS` (the LP's
  coefficient ``e^eps`` must stay small for HiGHS: at ``e^18`` it returned an infeasible
  "optimum", above ``e^34`` it refuses the model); for ``id`` at least ``ln(max p / min p)``,
  below which no mechanism exists;
* the loss: ``"hamming"`` or a ``k x k`` matrix (every row ``k`` long) with entries in
  ``[-MAX_LOSS, MAX_LOSS]``.

Examples
--------
>>> budget_of("-1", "mi", [Fraction(1)])
Traceback (most recent call last):
...
relations.errors.InputError: --eps: a budget is at least 0, got '-1' (no mechanism has a negative budget)
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from relations.errors import InputError
from relations.numbers._logs import LogRatio
from relations.numbers._reals import Log, Rational, Real, compare
from relations.numbers._text import json_repr, parse_rational, short_text

__all__ = ["MAX_LP_PRIOR", "MAX_MI_PRIOR", "MAX_LP_EPS", "MAX_LOSS", "prior_of", "budget_of", "loss_array", "exact_loss"]

#: Most prior entries for the DP and identifiability LPs (``k^2`` two-entry inequalities: about 40 s at 1024).
MAX_LP_PRIOR = 1024

#: Most prior entries for MI (Blahut-Arimoto with a bisection: about 10 s at 256).
MAX_MI_PRIOR = 256

#: Largest budget of the LPs: ``e^16`` (about 8.9e6) is still solved accurately by HiGHS, ``e^18`` is not.
MAX_LP_EPS = 16

#: Largest absolute loss entry.
MAX_LOSS = 10**9


def loss_array(loss, k: int) -> np.ndarray:
    """The loss as a float ``k x k`` array for the solvers, checked by :func:`exact_loss`.

    Parameters
    ----------
    loss : "hamming" or sequence of sequences
        The loss.
    k : int
        The number of prior entries.

    Returns
    -------
    numpy.ndarray

    Raises
    ------
    InputError
        As :func:`exact_loss`, or for another name than ``"hamming"``.
    """
    if isinstance(loss, str):
        if loss != "hamming":
            raise InputError(f"--loss: unknown loss {loss!r} (use 'hamming' or a JSON file with a matrix)")
        return 1.0 - np.eye(k)
    rows = exact_loss(loss, k)
    return np.array([[float(v) for v in row] for row in rows], dtype=float).reshape(k, k)


def exact_loss(loss, k: int):
    """``"hamming"``, or the loss as exact ``k x k`` rows with entries in ``[-MAX_LOSS, MAX_LOSS]``.

    Parameters
    ----------
    loss : "hamming" or sequence of sequences
        The loss; a matrix has ``k`` rows of ``k`` numbers (or rational text).
    k : int
        The number of prior entries.

    Returns
    -------
    str or list of list of Fraction

    Raises
    ------
    InputError
        For a ragged or wrongly sized matrix, a non-number or an entry beyond :data:`MAX_LOSS`,
        naming ``--loss`` and the row.

    Examples
    --------
    >>> exact_loss([[0, 1], [1]], 2)
    Traceback (most recent call last):
    ...
    relations.errors.InputError: --loss: row 1 has 1 entries, expected 2 (a 2 x 2 matrix)
    """
    if isinstance(loss, str):
        return loss
    if isinstance(loss, bytes) or not hasattr(loss, "__len__") or len(loss) != k:
        got = len(loss) if hasattr(loss, "__len__") else "no"
        raise InputError(f"--loss: {got} rows, expected {k} (a {k} x {k} matrix: one row and one column per prior "
                         "entry)")
    out = []
    for i, row in enumerate(loss):
        if isinstance(row, (str, bytes)) or not hasattr(row, "__len__"):
            raise InputError(f"--loss: row {i} is not a list of numbers")
        if len(row) != k:
            raise InputError(f"--loss: row {i} has {len(row)} entries, expected {k} (a {k} x {k} matrix)")
        parsed = [parse_rational(v, f"--loss[{i}][{j}]") for j, v in enumerate(row)]
        for j, v in enumerate(parsed):
            if abs(v) > MAX_LOSS:
                raise InputError(f"--loss[{i}][{j}]: {short_text(v)} is outside [-{MAX_LOSS}, {MAX_LOSS}]")
        out.append(parsed)
    return out


def prior_of(prior, notion: str) -> list[Fraction]:
    """The prior as exact rationals: a distribution of at most :data:`MAX_LP_PRIOR` / :data:`MAX_MI_PRIOR` entries.

    Parameters
    ----------
    prior : sequence of Fraction, int, float or str
        The probabilities.
    notion : str
        ``"dp"``, ``"id"`` or ``"mi"``: it decides the limit.

    Returns
    -------
    list of Fraction

    Raises
    ------
    InputError
        Naming ``--prior``: too many entries, a non-number, a negative entry or a sum other than 1.
    """
    if isinstance(prior, (str, bytes)) or not hasattr(prior, "__len__"):
        raise InputError("--prior: expected a list of probabilities")
    most = MAX_MI_PRIOR if notion == "mi" else MAX_LP_PRIOR
    if not 1 <= len(prior) <= most:
        raise InputError(f"--prior: {len(prior)} entries; --notion {notion} takes 1 to {most} (its solver's time "
                         "grows about as the cube of the count; docs/mechanism-files.md, Limits of optimize)")
    p = [parse_rational(v, f"--prior[{i}]") for i, v in enumerate(prior)]
    if any(v < 0 for v in p) or sum(p) != 1:
        raise InputError("--prior: entries must be non-negative and sum to 1")
    return p


def budget_of(eps, notion: str, prior: list[Fraction]) -> tuple[Real, float]:
    """``eps`` as an exact real and a float, checked against the notion's limits.

    Parameters
    ----------
    eps : Fraction, int, float or str
        A number, decimal or fraction text, or ``"ln(RATIONAL)"``.
    notion : str
        ``"dp"``, ``"id"`` or ``"mi"``.
    prior : list of Fraction
        The checked prior (identifiability needs ``eps >= ln(max p / min p)``).

    Returns
    -------
    tuple
        ``(bound, value)``: :class:`~relations.numbers.Rational` or :class:`~relations.numbers.Log`, and its
        float (``inf`` beyond the float range).

    Raises
    ------
    InputError
        Naming ``--eps`` (or ``--prior`` for identifiability with a zero entry).

    Examples
    --------
    >>> bound, value = budget_of("ln(3)", "dp", [Fraction(1, 2)] * 2)
    >>> str(bound), round(value, 6)
    ('ln(3)', 1.098612)
    """
    text = eps.strip() if isinstance(eps, str) else eps
    if isinstance(text, str) and text.startswith("ln(") and text.endswith(")"):
        q = parse_rational(text[3:-1].strip(), "--eps")
        if q <= 0:
            raise InputError(f"--eps: ln needs a positive argument, got {text!r}")
        bound: Real = Log(LogRatio.of(q))
    else:
        bound = Rational(parse_rational(text, "--eps"))
    sign = compare(bound, Rational(Fraction(0)))
    assert sign is not None  # a rational or ln(q) against 0: decided exactly
    if sign < 0:
        raise InputError(f"--eps: a budget is at least 0, got {json_repr(eps)} (no mechanism has a negative budget)")
    above = compare(bound, Rational(Fraction(MAX_LP_EPS)))
    if notion in ("dp", "id") and (above is None or above > 0):  # None: too close to the limit to tell
        raise InputError(f"--eps: at most {MAX_LP_EPS} for --notion {notion}, got {json_repr(eps)} (the LP's "
                         f"coefficient e^eps must stay below e^{MAX_LP_EPS} for HiGHS to solve it accurately); a "
                         f"mechanism for --eps {MAX_LP_EPS} is within every larger budget")
    if notion == "id":
        if min(prior) == 0:
            raise InputError("--prior: identifiability needs every prior entry positive (with a zero entry no "
                             "mechanism meets any budget)")
        need = LogRatio.of(max(prior) / min(prior))
        if (compare(bound, Log(need)) or 0) < 0:  # undecidably close: left to the LP
            raise InputError(f"--eps: no mechanism is identifiable at {json_repr(eps)} for this prior: it needs eps >= "
                             f"ln(max p / min p) = {need if len(str(need)) <= 60 else f'{float(need):.6g}'}")
    return bound, float(bound)
