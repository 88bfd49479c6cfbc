"""The conversion frontiers under eps-LDP against the catalogue's bounds (figure ``conversion_frontiers``).

Four panels over ``eps = eps_d``: the sup of ``kl``, of ``rho``, of ``eps_delta(10^-5)`` and of maximal
leakage under ``eps``-LDP (:mod:`relations.search.conversion_frontiers`), each with the catalogue
relations that bound it, evaluated by their own bound objects; for ``eps_delta`` also the RDP and zCDP
conversions evaluated at binary randomized response's own ``renyi(2)`` and ``rho``.

Examples
--------
>>> d = conversion_frontiers_data(points=5)
>>> sorted(d["panels"]), len(d["eps"])
(['eps_delta', 'kl', 'maximal_leakage', 'rho'], 5)
>>> d["panels"]["kl"]["frontier"]["values"][0] <= d["panels"]["kl"]["bounds"][0]["values"][0]
True
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["conversion_frontiers_data", "draw_conversion_frontiers"]

_PANELS = {
    "kl": ("kl", ["drv2010.kl_dp", "relations.kl_tanh"]),
    "rho": ("rho", ["bs2016.dp_zcdp", "relations.dp_zcdp_tanh"]),
    "eps_delta": ("eps_delta(1/100000)", ["kov2017.dp_eps_delta"]),
    "maximal_leakage": ("maximal_leakage", ["iwk2020.ml_ldp"]),
}
_AT_RR = {"mironov2017.rdp_dp": "renyi(2)", "cks2020.rdp_dp": "renyi(2)", "bs2016.zcdp_dp": "rho"}


def conversion_frontiers_data(*, points: int = 60, eps_max: float = 4.0) -> dict[str, Any]:
    """The frontiers and bounds on a grid of ``eps``.

    Parameters
    ----------
    points : int, optional
        Grid points in ``(0, eps_max]``.
    eps_max : float, optional
        The largest ``eps``.

    Returns
    -------
    dict
        ``eps`` and, per panel, ``frontier`` (``label``, ``values``), ``bounds`` (``id``, ``label``,
        ``values`` of ``f(eps)``), ``rr`` (the notion of binary RR computed by the library's float path,
        which lies on the frontier), ``certified`` (arb enclosures of the frontier at ``ln 2, ln 3, ln 10``)
        and, for ``eps_delta``, ``at_rr`` (the RDP/zCDP conversions at binary RR).
    """
    from relations.catalogue.entries import get
    from relations.mechanisms.local import krr
    from relations.search.conversion_frontiers import eps_delta_sup, frontier_float, kl_sup, ml_sup
    from relations.search.notion_floats import notion_float

    eps = [float(x) for x in np.linspace(eps_max / points, eps_max, points)]
    ratios = [Fraction(math.exp(e)).limit_denominator(10**6) for e in eps]
    rr = [krr(2, t) for t in ratios]
    out: dict[str, Any] = {"eps": eps, "panels": {}}
    for key, (notion, ids) in _PANELS.items():
        panel: dict[str, Any] = {
            "notion": notion,
            "frontier": {"label": f"sup {notion} under eps-LDP",
                         "values": [frontier_float(notion, e) for e in eps]},
            "bounds": [{"id": i, "label": get(i).symbols, "values": [get(i).bound.float(e, 0.0, 1) for e in eps]}
                       for i in ids],
            "rr": [notion_float(m, notion) for m in rr] if key != "maximal_leakage" else None,
        }
        if key == "maximal_leakage":
            panel["k"] = {str(k): [frontier_float(notion, e, k=k) for e in eps] for k in (2, 4, 16)}
        cert = []
        for t in (Fraction(2), Fraction(3), Fraction(10)):
            lo, hi = {"kl": lambda: kl_sup(t), "rho": lambda: kl_sup(t),
                      "eps_delta": lambda: eps_delta_sup(t, Fraction(1, 100000)),
                      "maximal_leakage": lambda: ml_sup(t, 16)}[key]()
            cert.append({"eps": f"ln({t})", "lower": float(lo), "upper": float(hi)})
        panel["certified"] = cert
        out["panels"][key] = panel
    out["panels"]["eps_delta"]["at_rr"] = [
        {"id": i, "label": get(i).symbols,
         "values": [get(i).bound.float(notion_float(m, arg), 0.0, 1) for m in rr]} for i, arg in _AT_RR.items()]
    return out


def draw_conversion_frontiers(data: dict[str, Any]) -> Figure:
    """Four panels: each frontier (solid) with the bounds of the catalogue (dashed, dotted)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"figure.dpi": 100, "savefig.dpi": 100, "font.size": 9, "svg.hashsalt": "relations",
                         "path.simplify": False})  # as relations.figures._plt
    fig, axes = plt.subplots(2, 2, figsize=(11, 8.2))
    eps = data["eps"]
    styles = [("#b2182b", "--", "s"), ("#2166ac", ":", "^"), ("#5aae61", "-.", "v"), ("#8c510a", (0, (5, 1)), "D")]
    titles = {"kl": "KL divergence", "rho": "zCDP rho", "eps_delta": "eps at delta = 1e-5",
              "maximal_leakage": "maximal leakage"}
    for ax, (key, panel) in zip(axes.flat, data["panels"].items()):
        ax.plot(eps, panel["frontier"]["values"], color="black", lw=2.2, label=panel["frontier"]["label"])
        if panel.get("rr"):
            ax.plot(eps[::6], panel["rr"][::6], "o", color="black", ms=4, mfc="white",
                    label="binary RR (library values)")
        lines = panel["bounds"] + panel.get("at_rr", [])
        for (color, ls, marker), b in zip(styles, lines):
            ax.plot(eps, b["values"], color=color, ls=ls, marker=marker, markevery=8, ms=4,
                    label=f"{b['id']}: {b['label']}" + (" at binary RR" if b in panel.get("at_rr", []) else ""))
        for k, vals in panel.get("k", {}).items():
            ax.plot(eps, vals, color="grey", lw=1, ls=(0, (1, 2)))
            ax.annotate(f"k={k}", (eps[-1], vals[-1]), fontsize=7, xytext=(2, 0), textcoords="offset points")
        for c in panel["certified"]:
            ax.axvline(math.log(float(Fraction(c["eps"][3:-1]))), color="grey", lw=0.5, alpha=0.5)
        top = max(panel["frontier"]["values"]) * 1.7
        if key == "eps_delta":  # the RDP/zCDP conversions sit ln(1/delta)-ish above the frontier
            top = min(18.0, 1.1 * max(max(b["values"]) for b in lines))
        ax.set_ylim(0, top)
        ax.set_xlim(0, eps[-1] * 1.08)
        ax.set_title(titles[key], fontsize=10)
        ax.set_xlabel("eps_d (nats)")
        ax.set_ylabel(f"{panel['notion']} (nats)" if key != "eps_delta" else "eps' (nats)")
        ax.legend(fontsize=6.5, loc="lower right" if key == "eps_delta" else "upper left")
        ax.grid(alpha=0.3)
    fig.suptitle("Frontiers under eps-LDP (solid) against the catalogue's conversion bounds", fontsize=11)
    fig.tight_layout()
    return fig
