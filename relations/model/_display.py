"""Mechanisms (and, through the helpers, results) in Jupyter and in pandas.

:class:`MechanismDisplay` gives :class:`~relations.model.Mechanism` its ``_repr_html_``
(a small table: the prior and the channel, exact entries as fractions),
``_repr_latex_`` (the same as a LaTeX array), :meth:`~MechanismDisplay.to_dict` (the
mechanism-file format of :mod:`relations.model._encoding`, JSON-ready) and
:meth:`~MechanismDisplay.to_pandas` (the channel as a ``DataFrame``, rows labelled by the
inputs and columns by the outputs, which :meth:`Mechanism.local
<relations.model.Mechanism.local>` reads back).  Large mechanisms are shown cut to
:data:`MAX_SHOWN` rows and columns.

The helpers :func:`html_table`, :func:`latex_text` and :func:`pandas` serve the result
objects of the layers above (:mod:`relations.measures._display`,
:mod:`relations.checking._display`).  pandas is imported only by :func:`pandas`.

``print()`` and ``repr()`` of the result objects: :func:`text_view` is their ``str()``, the
CLI's compact table, drawn by a function of :mod:`relations.io._text` that it names as
``"module:function"`` text and imports on first use (as :func:`relations.notions.evaluator`
does), so the lower layers import no table code; :func:`one_line` and :func:`short_real` build
their one-line ``repr()``.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from relations.model._encoding import to_dict
from relations.model._products import ProductChannel, ProductPrior

__all__ = ["MAX_SHOWN", "html_table", "latex_text", "pandas", "MechanismDisplay", "text_view", "one_line",
           "short_real", "FLOAT_MARK"]

#: How a value computed exactly from a mechanism given in floats is marked: it is the exact value of the
#: floats' binary values (the phrase of the CLI's table titles, :func:`relations.io._tables.measures_table`).
FLOAT_MARK = "floats at their binary values"

#: Longest exact form a one-line ``repr()`` shows; a longer one (a float-derived ``ln(q)``) shows as a decimal.
SHORT_FORM = 24

#: Most rows (and columns) of a mechanism shown in a notebook; the rest is elided.
MAX_SHOWN = 12

_LATEX = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "%": r"\%", "#": r"\#", "&": r"\&",
          "$": r"\$", "^": r"\^{}", "~": r"\~{}"}


def html_table(header: Sequence[Any], rows: Sequence[Sequence[Any]], *, caption: str = "") -> str:
    """A small HTML table, every cell escaped (``html.escape``).

    Examples
    --------
    >>> html_table(["a", "b<c"], [[1, "x & y"]])
    '<table><thead><tr><th>a</th><th>b&lt;c</th></tr></thead><tbody><tr><td>1</td><td>x &amp; y</td></tr></tbody></table>'
    """
    import html  # here: the html package costs a start-up that 'relations measure' does not need

    def cells(tag: str, row: Sequence[Any]) -> str:
        return "<tr>" + "".join(f"<{tag}>{html.escape('' if v is None else str(v))}</{tag}>" for v in row) + "</tr>"

    head = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return (f"<table>{head}<thead>{cells('th', header)}</thead><tbody>"
            + "".join(cells("td", r) for r in rows) + "</tbody></table>")


def latex_text(text: Any) -> str:
    r"""``text`` as LaTeX text mode (``\text{...}``), its special characters escaped.

    Examples
    --------
    >>> latex_text("x_1 {a}")
    '\\text{x\\_1 \\{a\\}}'
    """
    return r"\text{" + "".join(_LATEX.get(c, c) for c in str(text)) + "}"


def pandas() -> Any:
    """The pandas module, imported now; an ImportError saying how to install it otherwise."""
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - pandas is installed where the tests run
        raise ImportError("to_pandas() needs pandas (pip install pandas)") from exc
    return pd


def _cut(n: int) -> list[int | None]:
    """Indices to show out of ``n``: all, or the first and last few with ``None`` for the gap."""
    if n <= MAX_SHOWN:
        return list(range(n))
    half = MAX_SHOWN // 2
    return list(range(half)) + [None] + list(range(n - half, n))


def _entry(dist: Any, i: int, j: int | None = None) -> Fraction | float:
    if dist.exact is None:
        return float(dist.array[i] if j is None else dist.array[i, j])
    return dist.exact[i] if j is None else dist.exact[i][j]


def _latex_number(v: Fraction | float) -> str:
    if isinstance(v, Fraction):
        return str(v.numerator) if v.denominator == 1 else rf"\frac{{{v.numerator}}}{{{v.denominator}}}"
    return f"{v:.6g}"


class MechanismDisplay:
    """Jupyter display and conversions of a :class:`~relations.model.Mechanism` (a mixin)."""

    def _table(self) -> tuple[list[str], list[list[Any]], str]:
        """Header, rows (label, prior, channel entries) and a caption; product forms show ``W``."""
        m: Any = self
        channel, prior = m.channel, m.prior
        caption = f"{m.setting} mechanism, {'exact' if m.exact else 'float mode'}"
        if isinstance(channel, ProductChannel):
            channel = channel.local
            caption += f", product form: {channel.shape[0]}^{m.inputs.records} inputs, local channel W shown"
            labels = list(m.inputs.domain)
            prior = prior.factors[0] if isinstance(prior, ProductPrior) and len(prior.distinct) == 1 else None
        else:
            labels = [m.input_label(i) for i in range(channel.shape[0])]
        cols = _cut(channel.shape[1])
        header = ["x", "p(x)"] + ["…" if j is None else m.outputs[j] for j in cols]
        rows = []
        for i in _cut(channel.shape[0]):
            if i is None:
                rows.append(["…"] * len(header))
                continue
            p = "" if prior is None else _entry(prior, i)
            rows.append([labels[i], p] + ["…" if j is None else _entry(channel, i, j) for j in cols])
        return header, rows, caption

    def __repr__(self) -> str:
        """One line: setting, size, neighbours, mode and source; the matrix is in ``print()`` / Jupyter.

        Examples
        --------
        >>> from relations.mechanisms import krr
        >>> krr(3, 2)
        Mechanism(local, 3 inputs x 3 outputs, exact)
        """
        m: Any = self
        channel = m.channel
        if isinstance(channel, ProductChannel):
            local = channel.local
            size = f"{local.shape[0]}^{m.inputs.records} inputs x {local.shape[1]}^{m.inputs.records} outputs"
        else:
            size = f"{channel.shape[0]} inputs x {channel.shape[1]} outputs"
        parts = [str(m.setting), size, "exact" if m.exact else "float mode"]
        if m.source:
            parts.append(f"source={m.source!r}")
        return f"Mechanism({', '.join(parts)})"

    def _repr_html_(self) -> str:
        header, rows, caption = self._table()
        return html_table(header, rows, caption=caption)

    def _repr_latex_(self) -> str:
        header, rows, _ = self._table()
        def cell(v: Any) -> str:
            if v == "…":
                return r"\cdots"
            return latex_text(v) if isinstance(v, str) else _latex_number(v)
        body = r" \\ ".join(" & ".join(cell(v) for v in row) for row in [header] + rows)
        return rf"$\begin{{array}}{{{'l' + 'c' * (len(header) - 1)}}} {body} \end{{array}}$"

    def to_dict(self) -> dict[str, Any]:
        """The mechanism-file dict (:func:`relations.model._encoding.to_dict`), JSON-ready.

        Exact entries are fraction text (``"13/20"``); a float-mode mechanism's are floats.

        Examples
        --------
        >>> import json
        >>> from relations import Mechanism, loads
        >>> m = Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]], inputs=["no", "yes"])
        >>> d = m.to_dict()
        >>> d["inputs"], d["channel"][0]
        (['no', 'yes'], ['3/4', '1/4'])
        >>> loads(json.dumps(d)).channel.exact == m.channel.exact
        True
        """
        return to_dict(self, floats=True)

    def to_pandas(self) -> Any:
        """The channel as a ``pandas.DataFrame``: index the input labels, columns the output labels.

        Exact entries are :class:`~fractions.Fraction` objects (``dtype=object``), float-mode
        ones floats; a product form gives its local channel ``W`` (index the record values).
        :meth:`Mechanism.local <relations.model.Mechanism.local>` reads the frame back.

        Examples
        --------
        >>> from relations import Mechanism
        >>> df = Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]], inputs=["no", "yes"]).to_pandas()
        >>> df.loc["yes", "1"], list(df.columns)
        (Fraction(3, 4), ['0', '1'])
        """
        pd = pandas()
        m: Any = self
        channel = m.channel.local if isinstance(m.channel, ProductChannel) else m.channel
        if isinstance(m.channel, ProductChannel):
            index = list(m.inputs.domain)
        else:
            index = [m.input_label(i) for i in range(channel.shape[0])]
        data = channel.array.copy() if channel.exact is None else [list(r) for r in channel.exact]
        return pd.DataFrame(data, index=pd.Index(index, name="x"), columns=pd.Index(list(m.outputs), name="y"),
                            dtype=None if channel.exact is None else object)


def text_view(obj: Any, renderer: str, **options: Any) -> str:
    """``str()`` of a result object: ``renderer`` (``"module:function"``, imported on first use) applied to it.

    The renderers are in :mod:`relations.io._text`: the CLI's table as plain text, 100 columns, no colour.

    Examples
    --------
    >>> text_view(3, "builtins:str")
    '3'
    """
    module, function = renderer.split(":")
    return str(getattr(importlib.import_module(module), function)(obj, **options))


def short_real(value: float, exact: str | None = None, *, digits: int = 5) -> str:
    """A value for a one-line ``repr()``: ``ln(13/7)≈0.61904``, ``0``, ``inf``, or ``≈0.2290`` (no exact form).

    An exact form longer than :data:`SHORT_FORM` characters (``ln(q)`` of floats' binary values) is left
    out: the decimal stands for it.

    Examples
    --------
    >>> short_real(0.6190392084062235, "ln(13/7)"), short_real(0.0, "0"), short_real(float("-inf"), "-inf")
    ('ln(13/7)≈0.61904', '0', '-inf')
    >>> short_real(2.0794415416798357, "ln(144115188075855876/18014398509481985)"), short_real(-0.0)
    ('≈2.0794', '≈0')
    """
    v = value + 0.0  # no "-0"
    decimal = ("inf" if v > 0 else "-inf") if math.isinf(v) else f"{v:.{digits}g}"
    if exact is None or len(exact) > SHORT_FORM:
        return decimal if math.isinf(v) else "≈" + decimal
    if exact == decimal or math.isinf(v) or exact.lstrip("-") in ("0", "inf"):
        return exact
    return f"{exact}≈{decimal}"


def one_line(name: str, fields: Sequence[tuple[str, Any]], note: str = "") -> str:
    """``Name(key=value, ...; note)`` on one line: the ``repr()`` of a result object.

    Examples
    --------
    >>> one_line("Measures", [("eps_d", "ln(13/7)≈0.61904"), ("exact", True)])
    'Measures(eps_d=ln(13/7)≈0.61904, exact=True)'
    >>> one_line("X", [("a", "≈1")], note="approximate")
    'X(a≈1; approximate)'
    """
    parts = [f"{k}{v}" if isinstance(v, str) and v.startswith("≈") else f"{k}={v}" for k, v in fields]
    text = ", ".join(parts) + (f"; {note}" if note else "")
    return f"{name}({' '.join(text.split())})"
