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
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from relations.model._encoding import to_dict
from relations.model._products import ProductChannel, ProductPrior

__all__ = ["MAX_SHOWN", "html_table", "latex_text", "pandas", "MechanismDisplay"]

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
