"""Measures as JSON: the objects ``relations measure --json`` prints.

``relations measure --json`` prints one object with keys ``eps_i``, ``eps_d``,
``eps_m``, ``sigma_min``, each an object with

* ``value`` -- a number, or the strings ``"inf"`` / ``"-inf"``;
* ratio measures: ``exact`` (``"ln(247/7)"``, ``"inf"``, ``"0"``; ``null`` in
  float mode), ``ratio`` (the rational ``q`` of ``ln(q)`` as text, ``null``
  for an infinity) and ``witness`` (``{"x", "x_prime", "y"}`` labels and
  ``{"x_index", ...}`` indices, or ``null``);
* ``eps_m``: ``enclosure`` ``[lower, upper]`` as decimal strings rounded
  outward (``null`` in float mode) and ``bits`` (the width is at most ``2**-bits``);

plus ``mode`` (``"exact"`` or ``"float"``), ``setting``, ``inputs`` and ``outputs``
(counts, as decimal text: ``k^r`` may be huge) and ``form`` (``"dense"`` or
``"product"``).  The other objects are described in ``docs/claims-and-verdicts.md``.

These functions live in the measures layer so that :meth:`Measures.to_dict
<relations.measures.Measures.to_dict>` can use them; :mod:`relations.io._reports` re-exports
them for the command line.
"""

from __future__ import annotations

import math
from typing import Any

from relations.model._mechanism import Mechanism
from relations.model._products import ProductChannel
from relations.model._runs import Runs
from relations.numbers._text import fraction_text

__all__ = ["number", "witness_json", "budget_json", "mi_json", "sizes", "rounding_json", "measures_json"]


def number(value: float) -> float | str:
    """A JSON-safe number: infinities become ``"inf"`` / ``"-inf"``, other values pass through.

    Examples
    --------
    >>> number(float("inf")), number(-float("inf")), number(0.5)
    ('inf', '-inf', 0.5)
    """
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value



def witness_json(mech: Mechanism, w: Any) -> dict[str, Any] | None:
    if w is None:
        return None
    out: dict[str, Any] = {"x": mech.input_label(w.x), "x_prime": mech.input_label(w.x_prime)}
    if w.y is not None:
        out["y"] = mech.output_label(w.y)
    out["x_index"] = _index(w.x)
    out["x_prime_index"] = _index(w.x_prime)
    if w.y is not None:
        out["y_index"] = _index(w.y)
    return out


def _index(v: Any) -> Any:
    """A row index, a list of per-record indices, or (long product forms) ``{"runs": [[index, count], ...]}``."""
    if isinstance(v, Runs):
        return {"runs": [[i, n] for i, n in v.runs]}
    return list(v) if isinstance(v, tuple) else v



def budget_json(mech: Mechanism, budget: Any) -> dict[str, Any]:
    """A ratio budget (``eps_i``, ``eps_d`` or ``sigma_min``) as JSON, its witness named by labels.

    Parameters
    ----------
    mech : Mechanism
        The mechanism measured: it names the witness's inputs and output.
    budget : Budget

    Returns
    -------
    dict
        ``value``, ``exact``, ``ratio`` and ``witness``, as in the module docstring.

    Examples
    --------
    >>> from relations import measure
    >>> from relations.mechanisms import paper_example
    >>> m = paper_example()
    >>> out = budget_json(m, measure(m).eps_i)
    >>> out["exact"], out["ratio"], out["witness"]["x"], out["witness"]["y"]
    ('ln(247/7)', '247/7', '1', '1')
    """
    exact = budget.exact
    return {
        "value": number(budget.value),
        "exact": None if exact is None else str(exact),
        "ratio": None if exact is None or not exact.is_finite else fraction_text(exact.ratio),
        "witness": witness_json(mech, budget.witness),
    }



def mi_json(mi: Any) -> dict[str, Any]:
    """``eps_m`` as JSON: ``value``, the certified ``enclosure`` (outward-rounded decimals) and ``bits``.

    Examples
    --------
    >>> from relations import measure
    >>> from relations.mechanisms import paper_local
    >>> out = mi_json(measure(paper_local("1/2")).eps_m)  # I(X;Y) = h(1/2) = ln 2
    >>> out["bits"], [text[:12] for text in out["enclosure"]]
    (100, ['0.6931471805', '0.6931471805'])
    """
    out: dict[str, Any] = {"value": mi.value, "enclosure": None, "bits": mi.bits}
    if mi.enclosure is not None:
        out["enclosure"] = list(mi.enclosure.decimal())
    return out



def sizes(mech: Mechanism) -> tuple[str, str]:
    """The numbers of inputs and outputs as text; ``"k^r"`` for a product form (never expanded).

    Examples
    --------
    >>> from relations.mechanisms import krr, product
    >>> sizes(krr(3, 2)), sizes(product(krr(3, 2), 40))
    (('3', '3'), ('3^40', '3^40'))
    """
    if isinstance(mech.channel, ProductChannel):
        r = mech.channel.records
        k, m = mech.channel.local.shape
        return f"{k}^{r}", f"{m}^{r}"
    n, m = mech.channel.shape
    return str(n), str(m)



def rounding_json(mech: Mechanism) -> dict[str, float] | None:
    """The relative rounding radii of a mechanism given in floats, or None for exact input.

    ``{"channel": rho, "prior": rho_p}``: floats were taken at their exact binary values,
    rows renormalised exactly, and the intended entries are taken to lie within these
    relative distances (``docs/semantics.md``, "Floats").

    Examples
    --------
    >>> from relations import Mechanism
    >>> rounding_json(Mechanism.local([["1/2", "1/2"], ["1/4", "3/4"]])) is None
    True
    >>> rounding_json(Mechanism.local([[0.5, 0.5], [0.25, 0.75]]))["channel"] == 2**-42
    True
    """
    rho, rho_p = mech.rounding
    if rho == 0 and rho_p == 0:
        return None
    return {"channel": float(rho), "prior": float(rho_p)}



def measures_json(mech: Mechanism, measures: Any) -> dict[str, Any]:
    """The object ``relations measure --json`` prints (described in the module docstring).

    Parameters
    ----------
    mech : Mechanism
    measures : Measures
        ``measure(mech)``.

    Returns
    -------
    dict
        Built of :func:`budget_json` and the ``eps_m`` enclosure, as the module docstring says.

    Examples
    --------
    >>> from relations import measure
    >>> from relations.mechanisms import paper_example
    >>> m = paper_example()
    >>> out = measures_json(m, measure(m))
    >>> out["eps_d"]["exact"], out["sigma_min"]["exact"], out["mode"], out["inputs"]
    ('ln(13/7)', 'ln(1/19)', 'exact', '2')
    """
    n, m = sizes(mech)
    return {
        "eps_i": budget_json(mech, measures.eps_i),
        "eps_d": budget_json(mech, measures.eps_d),
        "eps_m": mi_json(measures.eps_m),
        "sigma_min": budget_json(mech, measures.sigma_min),
        "mode": "exact" if measures.exact else "float",
        "rounding": rounding_json(mech),
        "setting": mech.setting,
        "form": "product" if mech.is_product else "dense",
        "inputs": n,
        "outputs": m,
    }
