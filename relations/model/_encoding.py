"""Mechanisms as JSON-ready dicts in the mechanism-file format (``docs/mechanism-files.md``).

:func:`to_dict` is the inverse of :func:`relations.io._reading.from_dict` for exact
mechanisms: probabilities become fraction text (``"13/20"``), product forms stay product
forms (never expanded).  It lives in the model layer so that
:meth:`Mechanism.to_dict <relations.model.Mechanism.to_dict>` can use it;
:mod:`relations.io._writing` writes files with it.  With ``floats=True`` a float-mode
mechanism is written too, its entries as JSON numbers (a rounding, when read back).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from relations.model._distributions import Prior
from relations.model._neighbours import GraphInputs, HammingInputs, LocalInputs
from relations.model._products import ProductChannel, ProductPrior

__all__ = ["to_dict"]


def _vec(values) -> list[str]:
    return [str(Fraction(v)) for v in values]


def _entries(dist, floats: bool) -> list:
    """The entries of a Prior (a list) or the rows of a Channel (a list of lists)."""
    if dist.exact is None:
        return dist.array.tolist()
    if isinstance(dist, Prior):
        return _vec(dist.exact)
    return [_vec(row) for row in dist.exact]


def to_dict(mech: Any, *, name: str | None = None, floats: bool = False) -> dict[str, Any]:
    """The mechanism as a JSON-ready dict in the mechanism-file format.

    Parameters
    ----------
    mech : Mechanism
    name : str, optional
        Written as the ``"name"`` key.
    floats : bool, optional
        Write a float-mode mechanism too, its entries as floats (refused by default).

    Returns
    -------
    dict
        Keys as in ``docs/mechanism-files.md``: probabilities as fraction text, a product
        channel or prior as ``{"product": ...}``, a uniform product prior as ``"uniform"``.

    Raises
    ------
    ValueError
        For a float-mode mechanism, unless ``floats``.

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> d = to_dict(randomized_response(3))
    >>> d["prior"], d["channel"]
    (['1/2', '1/2'], [['3/4', '1/4'], ['1/4', '3/4']])

    The central version on ``D^2`` stays in product form:

    >>> from relations.mechanisms import product
    >>> d = to_dict(product(randomized_response(3), 2))
    >>> d["domain"], d["records"], d["prior"], d["channel"]
    (['0', '1'], 2, 'uniform', {'product': [['3/4', '1/4'], ['1/4', '3/4']]})
    """
    if not mech.exact and not floats:
        raise ValueError("only exact mechanisms can be written in the JSON format")
    out: dict[str, Any] = {}
    if name:
        out["name"] = name
    out["setting"] = mech.setting
    inputs = mech.inputs
    if isinstance(inputs, LocalInputs):
        out["inputs"] = list(inputs.labels)
    elif isinstance(inputs, GraphInputs):
        out["inputs"] = list(inputs.labels)
        out["neighbours"] = [list(e) for e in inputs.edges]
    else:
        assert isinstance(inputs, HammingInputs)
        out["domain"] = list(inputs.domain)
        out["records"] = inputs.records
    out["outputs"] = list(mech.outputs)
    prior = mech.prior
    if isinstance(prior, ProductPrior):
        k = prior.factors[0].size
        if prior.factors[0].exact is not None and all(f.exact == Prior.uniform(k).exact for f in prior.distinct):
            out["prior"] = "uniform"
        else:  # a run of several records as {"prior": p, "records": n}: a file as short as the form
            out["prior"] = {"product": [_entries(f, floats) if n == 1 else {"prior": _entries(f, floats), "records": n}
                                        for f, n in prior.factors.runs]}
    else:
        out["prior"] = _entries(prior, floats)
    channel = mech.channel
    if isinstance(channel, ProductChannel):
        out["channel"] = {"product": _entries(channel.local, floats)}
    else:
        out["channel"] = _entries(channel, floats)
    return out
