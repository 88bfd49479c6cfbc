"""Writing mechanisms in the mechanism-file format, and atomic writes.

:func:`to_dict` is the inverse of :func:`relations.io.reading.from_dict` for exact
mechanisms: probabilities become fraction text (``"13/20"``), product forms stay
product forms (never expanded), so a witness file is small and
``relations check FILE`` re-checks it.  :func:`write_text_atomic` is how every
file is written.
"""

from __future__ import annotations

import json
import os
import tempfile
from fractions import Fraction
from typing import Any

from relations.model.distributions import Prior, ProductChannel, ProductPrior
from relations.model.mechanism import Mechanism
from relations.model.neighbours import GraphInputs, HammingInputs, LocalInputs

__all__ = ["to_dict", "dumps", "write_text_atomic"]


def _vec(values) -> list[str]:
    return [str(Fraction(v)) for v in values]


def to_dict(mech: Mechanism, *, name: str | None = None) -> dict[str, Any]:
    """The mechanism as a JSON-ready dict in the mechanism-file format (exact mechanisms only).

    Parameters
    ----------
    mech : Mechanism
    name : str, optional
        Written as the ``"name"`` key.

    Returns
    -------
    dict
        Keys as in ``docs/mechanism-files.md``: probabilities as fraction text, a product
        channel or prior as ``{"product": ...}``, a uniform product prior as ``"uniform"``.

    Raises
    ------
    ValueError
        For a float-mode mechanism.

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
    if not mech.exact:
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
        k = len(prior.factors[0].exact)
        if all(f.exact == Prior.uniform(k).exact for f in prior.factors):
            out["prior"] = "uniform"
        else:
            out["prior"] = {"product": [_vec(f.exact) for f in prior.factors]}
    else:
        out["prior"] = _vec(prior.exact)
    channel = mech.channel
    if isinstance(channel, ProductChannel):
        out["channel"] = {"product": [_vec(row) for row in channel.local.exact]}
    else:
        out["channel"] = [_vec(row) for row in channel.exact]
    return out


def dumps(mech: Mechanism, name: str | None = None) -> str:
    """The mechanism file's text: one key per line, one matrix row per line.

    :func:`relations.io.reading.loads` reads it back to the same mechanism.

    Parameters
    ----------
    mech : Mechanism
        An exact mechanism.
    name : str, optional
        Written as the ``"name"`` key.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        For a float-mode mechanism.

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> print(dumps(randomized_response(3), "binary RR, ratio 3"), end="")
    {
      "name": "binary RR, ratio 3",
      "setting": "local",
      "inputs": ["0", "1"],
      "outputs": ["0", "1"],
      "prior": ["1/2", "1/2"],
      "channel": [
        ["3/4", "1/4"],
        ["1/4", "3/4"]
      ]
    }
    """
    lines = []
    for key, value in to_dict(mech, name=name).items():
        lines.append(f"  {json.dumps(key)}: {_compact(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _compact(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)}: {_compact(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list) and value and isinstance(value[0], list):
        return "[\n    " + ",\n    ".join(json.dumps(row) for row in value) + "\n  ]"
    return json.dumps(value)


def write_text_atomic(path: str, text: str) -> str:
    """Write ``text`` to ``path`` atomically: a temporary file in the same directory, then a rename.

    A reader (or an interrupted run) sees the old file or the new one, never a truncated one.

    Parameters
    ----------
    path : str
        The file to write (UTF-8); its directory must exist.
    text : str

    Returns
    -------
    str
        ``path``.

    Raises
    ------
    OSError
        If the directory cannot be written; the temporary file is removed.

    Examples
    --------
    >>> import os, tempfile
    >>> from relations import load, measure
    >>> from relations.mechanisms import randomized_response
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = write_text_atomic(os.path.join(folder, "rr.json"), dumps(randomized_response(3)))
    ...     str(measure(load(path)).eps_d.exact), os.listdir(folder)
    ('ln(3)', ['rr.json'])
    """
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".relations-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path
