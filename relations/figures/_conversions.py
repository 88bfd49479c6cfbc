"""The conversion frontiers under eps-LDP against the catalogue's bounds (figure ``conversion_frontiers``).

Four panels over ``eps = eps_d``: the sup of ``kl``, of ``rho``, of ``eps_delta(10^-5)`` and of maximal
leakage under ``eps``-LDP (:mod:`relations.pipeline._conversion_frontiers`), each with the catalogue
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

    from relations.catalogue._bounds import KLBound, Linear
    from relations.catalogue._formulas import Formula
    from relations.notions import FigurePanel

__all__ = ["conversion_frontiers_data", "draw_conversion_frontiers", "math_ln"]



def _panels() -> list[tuple[str, FigurePanel]]:
    """The panels, from the notion table (:attr:`~relations.notions.NotionSpec.panel`), in their order."""
    from relations.notions import NOTIONS

    return sorted(((name, row.panel) for name, row in NOTIONS.items() if row.panel is not None),
                  key=lambda item: item[1].order)


def _bound(i: str) -> Linear | KLBound | Formula:
    """The bound of the catalogue's implication ``i``."""
    from relations.catalogue._entries import get

    bound = get(i).bound
    assert bound is not None  # an implication
    return bound


def conversion_frontiers_data(*, points: int = 300, eps_max: float = 4.0) -> dict[str, Any]:
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
    from relations.catalogue._entries import get
    from relations.measures._notion_floats import notion_float
    from relations.mechanisms._local import krr
    from relations.pipeline._conversion_frontiers import frontier_enclosure, frontier_float

    eps = [float(x) for x in np.linspace(eps_max / points, eps_max, points)]
    ratios = [Fraction(math.exp(e)).limit_denominator(10**6) for e in eps]
    rr = [krr(2, t) for t in ratios]
    out: dict[str, Any] = {"eps": eps, "panels": {}}
    for key, spec in _panels():
        notion = spec.notion
        panel: dict[str, Any] = {
            "notion": notion,
            "frontier": {"label": f"sup {notion} under eps-LDP",
                         "values": [frontier_float(notion, e) for e in eps]},
            "bounds": [{"id": i, "label": get(i).symbols, "values": [_bound(i).float(e, 0.0, 1) for e in eps]}
                       for i in spec.relations],
            "rr": [notion_float(m, notion) for m in rr] if not spec.inputs else None,
        }
        if spec.inputs:
            panel["k"] = {str(k): [frontier_float(notion, e, k=k) for e in eps] for k in spec.inputs}
        cert = []
        for t in (Fraction(2), Fraction(3), Fraction(10)):
            lo, hi = frontier_enclosure(notion, t, k=max(spec.inputs) if spec.inputs else None)
            cert.append({"eps": f"ln({t})", "lower": float(lo), "upper": float(hi)})
        panel["certified"] = cert
        out["panels"][key] = panel
        if spec.at_rr:
            panel["at_rr"] = [{"id": i, "label": get(i).symbols,
                               "values": [_bound(i).float(notion_float(m, arg), 0.0, 1) for m in rr]}
                              for i, arg in spec.at_rr]
    return out


def draw_conversion_frontiers(data: dict[str, Any], *, width: float | None = None, title: bool = True) -> Figure:
    """Four panels: each frontier (thick, black) with the catalogue's bounds (coloured, dashed, marked);
    2 x 2 panels, or one column of four flatter panels below 5 inches of ``width`` (then the frontier,
    binary RR and the certified points, drawn alike in every panel, share one legend at the top, and the
    panels' legends list only their bounds, so that the column stays under 10 inches tall).

    The frontier and the bounds are the float paths on the grid of ``data["eps"]``; the open circles are
    binary randomized response computed by the library, the crosses the certified (arb) enclosures of
    the frontier at ``ln 2, ln 3, ln 10`` (of maximal leakage: with ``k = 16`` outputs, as computed).  A bound equal to the frontier is drawn over it, dashed.
    """
    from relations.figures._plots import ASPECT, MAX_AXES_HEIGHT, cite, lay_out, legend_below, new_figure, set_title
    from relations.figures._style import SYMBOLS, math, series

    stacked = width is not None and width < 5.0
    fig, axes = new_figure((3.7, 10.0) if stacked else (7.4, 8.4), width, 4 if stacked else 2, 1 if stacked else 2)
    shared: dict[str, Any] = {}
    eps = data["eps"]
    every = max(1, len(eps) // 8)
    specs = dict(_panels())
    for ax, (key, panel) in zip(axes.flat, data["panels"].items()):
        sym = math(panel["notion"])
        line, = ax.plot(eps, panel["frontier"]["values"], lw=3.0, **series(0, marker=None),
                        label=f"$\\sup$ {sym} under {SYMBOLS['eps_d']}-LDP")
        shared.setdefault(f"the frontier: $\\sup$ of the panel's notion under {SYMBOLS['eps_d']}-LDP", line)
        if panel.get("rr"):
            dots, = ax.plot(eps[every // 2::every], panel["rr"][every // 2::every], "o", color="black", ms=5,
                            mfc="white", label="binary RR (library values)", zorder=5)
            shared.setdefault("binary RR (library values)", dots)
        lines = panel["bounds"] + panel.get("at_rr", [])
        for i, b in enumerate(lines, start=1):
            at_rr = " at binary RR" if b in panel.get("at_rr", []) else ""
            same = all(abs(u - v) < 1e-9 for u, v in zip(b["values"], panel["frontier"]["values"]))
            ax.plot(eps, b["values"], **series(i, markevery=(every * i // len(lines), every)),
                    label=f"{math(b['label'])}{at_rr} ({cite(b['id'])}" + ("; equals the frontier)" if same else ")"))
        for k, vals in panel.get("k", {}).items():
            ax.plot(eps, vals, color="grey", lw=1, ls=(0, (1, 2)))
            ax.annotate(f"$k = {k}$", (eps[-1], vals[-1]), fontsize=7.5, xytext=(2, 0), textcoords="offset points",
                        va="center")
        cert = panel["certified"]
        crosses, = ax.plot([math_ln(c["eps"]) for c in cert], [(c["lower"] + c["upper"]) / 2 for c in cert], "x",
                           color="black", ms=7, mew=1.5, zorder=6,
                           label="certified enclosure (arb) at $\\ln 2, \\ln 3, \\ln 10$"
                           + (f", $k = {max(specs[key].inputs)}$" if specs[key].inputs else ""))
        shared.setdefault("certified enclosure (arb) at $\\ln 2, \\ln 3, \\ln 10$ (maximal leakage: $k = 16$)",
                          crosses)
        top = max(panel["frontier"]["values"]) * 1.7
        if specs[key].at_rr:  # the RDP/zCDP conversions sit ln(1/delta)-ish above the frontier
            top = min(18.0, 1.1 * max(max(b["values"]) for b in lines))
        ax.set_ylim(0, top)
        ax.set_xlim(0, eps[-1] * 1.1)
        set_title(ax, specs[key].title, title and not stacked)  # stacked: the y labels name the panels
        ax.set_xlabel(f"{SYMBOLS['eps_d']} (nats)")
        ax.set_ylabel(specs[key].ylabel or f"{sym} (nats)")
        if stacked:
            for artist in (line, crosses, *([dots] if panel.get("rr") else [])):
                artist.set_label("_" + artist.get_label())  # in the shared legend instead
        legend_below(ax, fontsize=7)
    if stacked:
        from relations.figures._style import wrap

        fig.legend(list(shared.values()), [wrap(t, fig.get_figwidth() - 0.6, fontsize=7) for t in shared],
                   loc="outside lower center", fontsize=7, frameon=False)
    if title:
        fig.suptitle(r"Frontiers under $\varepsilon_d$-LDP (black) against the catalogue's conversion bounds"
                     if not stacked else "Frontiers under $\\varepsilon_d$-LDP (black)\nagainst the catalogue's bounds")
    if width is not None:  # every panel ASPECT * its width tall (the legends' heights differ: fit the tallest row)
        target = min(MAX_AXES_HEIGHT, (0.33 if stacked else ASPECT) * width / (1 if stacked else 2))
        for _ in range(3):
            lay_out(fig)
            have = min(a.get_position().height for a in axes.flat) * fig.get_figheight()
            if abs(have - target) < 0.01:
                break
            fig.set_figheight(fig.get_figheight() + (target - have) * (4 if stacked else 2))
    return fig


def math_ln(text: str) -> float:
    """``ln(t)`` (as the certified points name their ``eps``) as a float.

    Parameters
    ----------
    text : str
        ``"ln(T)"`` with ``T`` a rational.

    Returns
    -------
    float

    Examples
    --------
    >>> round(math_ln("ln(10)"), 6)
    2.302585
    """
    return math.log(float(Fraction(text[3:-1])))
