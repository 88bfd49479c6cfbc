"""Measures in Jupyter and in pandas: what :class:`~relations.measures.Measures` shows.

* :func:`measures_rows` -- one row per quantity: name, value, exact form (or enclosure),
  witness in the mechanism's labels (the columns of ``relations measure``'s table);
* :func:`measures_html`, :func:`measures_latex` -- ``_repr_html_`` (a small table, values
  escaped) and ``_repr_latex_`` (``\\varepsilon_d = \\ln(13/7) \\approx 0.619``, one line each);
* :func:`measures_dict` -- ``to_dict()``: the object of ``relations measure --json``
  (:func:`~relations.measures._encoding.measures_json`), JSON-ready;
* :func:`measures_frame` -- ``to_pandas()``: the rows as a ``DataFrame`` indexed by quantity.
"""

from __future__ import annotations

import math
from typing import Any

from relations.measures._encoding import measures_json
from relations.model._display import html_table, latex_text, pandas
from relations.notions import BASE_NOTIONS, latex

__all__ = ["COLUMNS", "LATEX_NAMES", "measures_rows", "measures_html", "measures_latex", "measures_dict",
           "measures_frame", "witness_text", "latex_form"]

#: The columns of :func:`measures_rows` (and of ``to_pandas()``, ``quantity`` being its index).
COLUMNS = ("quantity", "value", "exact", "witness")

#: The LaTeX symbol of each quantity.
LATEX_NAMES = {name: latex(name) for name in BASE_NOTIONS}


def _mechanism(measures: Any) -> Any:
    if measures.mechanism is None:
        raise ValueError("these measures do not name their mechanism (use relations.measure(mechanism))")
    return measures.mechanism


def witness_text(mech: Any, w: Any) -> str:
    """A witness in the mechanism's labels: ``x=1, x'=2, y=1`` (empty for none).

    Examples
    --------
    >>> from relations import measure
    >>> from relations.mechanisms import paper_example
    >>> m = paper_example()
    >>> witness_text(m, measure(m).eps_i.witness)
    "x=1, x'=2, y=1"
    """
    if w is None:
        return ""
    text = f"x={mech.input_label(w.x)}, x'={mech.input_label(w.x_prime)}"
    return text if w.y is None else f"{text}, y={mech.output_label(w.y)}"


def measures_rows(measures: Any) -> list[tuple[str, float, str | None, str]]:
    """``(quantity, value, exact, witness)`` for ``eps_i``, ``eps_d``, ``eps_m``, ``sigma_min``.

    ``exact`` is ``ln(q)`` text for a ratio measure, ``[lower, upper]`` (24 decimals, rounded
    outward) for ``eps_m``, and None in float mode.

    Examples
    --------
    >>> from relations import measure
    >>> from relations.mechanisms import paper_example
    >>> measures_rows(measure(paper_example()))[1]
    ('eps_d', 0.619039208406223..., 'ln(13/7)', "x=1, x'=2, y=1")
    """
    mech = _mechanism(measures)
    rows: list[tuple[str, float, str | None, str]] = []
    for b in measures:
        if b is measures.eps_m:
            enc = b.enclosure
            rows.append(("eps_m", b.value, None if enc is None else "[{}, {}]".format(*enc.decimal(24)), "I(X;Y)"))
        else:
            rows.append((b.name, b.value, None if b.exact is None else str(b.exact), witness_text(mech, b.witness)))
    return rows


def measures_html(measures: Any) -> str:
    """A small HTML table of :func:`measures_rows` (every cell escaped)."""
    mech = _mechanism(measures)
    caption = f"{mech.source or 'mechanism'}: {mech.setting}, {'exact' if measures.exact else 'float mode'}"
    return html_table(COLUMNS, [(q, f"{v:.12g}", "—" if e is None else e, w) for q, v, e, w in measures_rows(measures)],
                      caption=caption)


def latex_form(text: str) -> str:
    r"""An exact form as LaTeX: ``ln(13/7)`` becomes ``\ln(13/7)``, ``inf`` becomes ``\infty``.

    Examples
    --------
    >>> latex_form("ln(13/7)"), latex_form("-inf")
    ('\\ln(13/7)', '-\\infty')
    """
    return text.replace("ln(", r"\ln(").replace("inf", r"\infty")


def measures_latex(measures: Any) -> str:
    r"""One aligned line per quantity: ``\varepsilon_d = \ln(13/7) \approx 0.619``.

    Examples
    --------
    >>> from relations import measure
    >>> from relations.mechanisms import paper_example
    >>> text = measures_latex(measure(paper_example()))
    >>> print(text.split(r" \\ ")[1])
    \varepsilon_d &= \ln(13/7) \approx 0.619
    """
    lines = []
    for q, v, e, _ in measures_rows(measures):
        name = LATEX_NAMES[q]
        if q == "eps_m" and measures.eps_m.enclosure is not None:
            lo, hi = measures.eps_m.enclosure.decimal(6)
            lines.append(rf"{name} &= I(X;Y) \in [{lo}, {hi}]")
        elif e is None:
            lines.append(rf"{name} &\approx {v:.4g} \quad {latex_text('(float mode)')}")
        elif math.isinf(v) or e == "0":
            lines.append(rf"{name} &= {latex_form(e)}")
        else:
            lines.append(rf"{name} &= {latex_form(e)} \approx {v:.4g}" if abs(v) >= 1 else
                         rf"{name} &= {latex_form(e)} \approx {v:.3g}")
    return r"$\begin{aligned} " + r" \\ ".join(lines) + r" \end{aligned}$"


def measures_dict(measures: Any) -> dict[str, Any]:
    """The object ``relations measure --json`` prints (:func:`~relations.measures._encoding.measures_json`)."""
    return measures_json(_mechanism(measures), measures)


def measures_frame(measures: Any) -> Any:
    """:func:`measures_rows` as a ``pandas.DataFrame`` indexed by ``quantity``."""
    pd = pandas()
    return pd.DataFrame(measures_rows(measures), columns=list(COLUMNS)).set_index("quantity")
