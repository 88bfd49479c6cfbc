"""Writing mechanisms in the mechanism-file format, and atomic writes.

:func:`to_dict` is the inverse of :func:`relations.io._reading.from_dict` for exact
mechanisms: probabilities become fraction text (``"13/20"``), product forms stay
product forms (never expanded), so a witness file is small and
``relations check FILE`` re-checks it (it lives in :mod:`relations.model._encoding`, so that
:meth:`Mechanism.to_dict <relations.model.Mechanism.to_dict>` shares it, and is re-exported
here).  :func:`write_text_atomic` is how every file is written.
"""

from __future__ import annotations

import json
from typing import Any

from relations.model._encoding import to_dict
from relations.model._mechanism import Mechanism

__all__ = ["to_dict", "dumps", "write_text_atomic"]


def dumps(mech: Mechanism, name: str | None = None) -> str:
    """The mechanism file's text: one key per line, one matrix row per line.

    :func:`relations.io._reading.loads` reads it back to the same mechanism.

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
        ``path``, written.

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
    from relations.io._outputs import write_bytes_atomic

    return write_bytes_atomic(path, text.encode("utf-8"))
