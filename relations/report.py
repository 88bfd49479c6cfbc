"""Presenting measures: the SPEC JSON object and a rich table.

JSON (``relations measure --json``): one object with keys ``eps_i``, ``eps_d``,
``eps_m``, ``sigma_min``, each an object with

* ``value`` — a number, or the strings ``"inf"`` / ``"-inf"``;
* ratio measures: ``exact`` (``"ln(247/7)"``, ``"inf"``, ``"0"``; ``null`` in
  float mode), ``ratio`` (the rational ``q`` of ``ln(q)`` as text, ``null``
  for an infinity) and ``witness`` (``{"x", "x_prime", "y"}`` labels and
  ``{"x_index", ...}`` indices, or ``null``);
* ``eps_m``: ``enclosure`` ``[lower, upper]`` as decimal strings rounded
  outward (``null`` in float mode) and ``bits`` (the width is at most
  ``2**-bits``);

plus ``mode`` (``"exact"`` or ``"float"``; float mode is approximate),
``setting``, ``inputs`` and ``outputs`` (counts, as decimal text: ``k^r`` may
be huge) and ``form`` (``"dense"`` or ``"product"``).
"""

from __future__ import annotations

import math
from typing import Any

from .mechanism import HammingInputs, Mechanism, ProductChannel
from .measures import Budget, Measures, MutualInformation


def number(value: float) -> float | str:
    """A JSON-safe number: infinities become ``"inf"`` / ``"-inf"``."""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


def _witness(mech: Mechanism, budget: Budget) -> dict[str, Any] | None:
    w = budget.witness
    if w is None:
        return None
    out: dict[str, Any] = {"x": mech.input_label(w.x), "x_prime": mech.input_label(w.x_prime)}
    if w.y is not None:
        out["y"] = mech.output_label(w.y)
    out["x_index"] = list(w.x) if isinstance(w.x, tuple) else w.x
    out["x_prime_index"] = list(w.x_prime) if isinstance(w.x_prime, tuple) else w.x_prime
    if w.y is not None:
        out["y_index"] = list(w.y) if isinstance(w.y, tuple) else w.y
    return out


def budget_json(mech: Mechanism, budget: Budget) -> dict[str, Any]:
    exact = budget.exact
    return {
        "value": number(budget.value),
        "exact": None if exact is None else str(exact),
        "ratio": None if exact is None or not exact.is_finite else str(exact.ratio),
        "witness": _witness(mech, budget),
    }


def mi_json(mi: MutualInformation) -> dict[str, Any]:
    out: dict[str, Any] = {"value": mi.value, "enclosure": None, "bits": mi.bits}
    if mi.enclosure is not None:
        out["enclosure"] = list(mi.enclosure.decimal())
    return out


def sizes(mech: Mechanism) -> tuple[str, str]:
    if isinstance(mech.channel, ProductChannel):
        r = mech.channel.records
        k, m = mech.channel.local.shape
        return f"{k}^{r}", f"{m}^{r}"
    n, m = mech.channel.shape
    return str(n), str(m)


def measures_json(mech: Mechanism, measures: Measures) -> dict[str, Any]:
    n, m = sizes(mech)
    return {
        "eps_i": budget_json(mech, measures.eps_i),
        "eps_d": budget_json(mech, measures.eps_d),
        "eps_m": mi_json(measures.eps_m),
        "sigma_min": budget_json(mech, measures.sigma_min),
        "mode": "exact" if measures.exact else "float",
        "setting": mech.setting,
        "form": "product" if mech.is_product else "dense",
        "inputs": n,
        "outputs": m,
    }


def _short(label: str, limit: int = 48) -> str:
    return label if len(label) <= limit else label[: limit - 5] + "…" + label[-4:]


def measures_table(mech: Mechanism, measures: Measures):
    """A rich table: quantity, value, exact form, witness."""
    from rich.table import Table

    n, m = sizes(mech)
    structure = "all pairs" if mech.setting == "local" else (
        f"D^{mech.inputs.records}, |D|={mech.inputs.k}" if isinstance(mech.inputs, HammingInputs)
        else f"{len(mech.inputs.edges)} neighbour pairs")  # type: ignore[union-attr]
    mode = "exact" if measures.exact else "float mode (approximate)"
    title = f"{mech.source or 'mechanism'} — {mech.setting}, {n} inputs x {m} outputs, {structure}; {mode}"
    table = Table(title=title, title_justify="left")
    table.add_column("quantity")
    table.add_column("value (nats)", justify="right")
    table.add_column("exact form")
    table.add_column("witness")
    for budget in (measures.eps_i, measures.eps_d):
        table.add_row(budget.name, _fmt(budget.value), _exact(budget), _wit(mech, budget))
    mi = measures.eps_m
    if mi.enclosure is not None:
        lo, hi = mi.enclosure.decimal(24)
        form = f"[{lo}, {hi}]"
    else:
        form = "float, not certified"
    table.add_row("eps_m", _fmt(mi.value), form, "I(X;Y)")
    s = measures.sigma_min
    table.add_row(s.name, _fmt(s.value), _exact(s), _wit(mech, s))
    return table


def _fmt(v: float) -> str:
    return ("inf" if v > 0 else "-inf") if math.isinf(v) else f"{v:.12g}"


def _exact(b: Budget) -> str:
    return "—" if b.exact is None else str(b.exact)


def _wit(mech: Mechanism, b: Budget) -> str:
    w = b.witness
    if w is None:
        return "no contributing pair"
    text = f"x={_short(mech.input_label(w.x))}, x'={_short(mech.input_label(w.x_prime))}"
    if w.y is not None:
        text += f", y={_short(mech.output_label(w.y))}"
    return text
