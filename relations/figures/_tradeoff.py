"""The plot of ``relations measure --tradeoff --plot FILE``: the exact f-DP trade-off curve with ``G_mu``.

:func:`tradeoff_plot_data` adds to the JSON of :func:`relations.io._tradeoffs.tradeoff_json` the curve
``G_mu(a) = Phi(Phi^{-1}(1 - a) - mu)`` at the mechanism's ``mu`` (sampled, for drawing only);
:func:`draw_tradeoff` draws ``f`` through its exact breakpoints (marked), the pointwise minimum over
the pairs where it differs, ``G_mu`` and the line ``1 - alpha`` (the curve of a mechanism that reveals
nothing), in the style of :mod:`relations.figures._style`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

from relations.figures._plots import legend_below
from relations.figures._style import series, setup

__all__ = ["tradeoff_plot_data", "draw_tradeoff", "SAMPLES"]

#: Points of ``[0, 1]`` at which ``G_mu`` is drawn (denser near the ends, where it bends most).
SAMPLES = 801


def tradeoff_plot_data(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (:func:`~relations.io._tradeoffs.tradeoff_json`) with ``"g_mu": {"alpha": [...], "beta": [...]}``,
    or ``None`` there when ``mu`` is infinite (no Gaussian curve lies below ``f``).

    Examples
    --------
    >>> out = tradeoff_plot_data({"gdp_mu": {"value": 1.0}})
    >>> len(out["g_mu"]["alpha"]), out["g_mu"]["beta"][0], out["g_mu"]["beta"][-1]
    (801, 1.0, 0.0)
    """
    import numpy as np
    from scipy.special import ndtr, ndtri

    mu = data["gdp_mu"]["value"]
    if isinstance(mu, str) or math.isinf(mu):
        return {**data, "g_mu": None}
    u = np.linspace(0.0, 1.0, SAMPLES)
    a = 0.5 - 0.5 * np.cos(np.pi * u)  # Chebyshev spacing: dense at 0 and 1
    with np.errstate(divide="ignore"):
        b = ndtr(ndtri(1.0 - a) - mu)
    return {**data, "g_mu": {"alpha": a.tolist(), "beta": b.tolist()}}


def draw_tradeoff(data: dict[str, Any], *, title: str | None = None) -> Figure:
    """``f`` (exact breakpoints marked), the pointwise minimum where it differs, ``G_mu`` and ``1 - alpha``.

    Parameters
    ----------
    data : dict
        :func:`tradeoff_plot_data`.
    title : str, optional
        The figure's title (the mechanism file's name, say).

    Returns
    -------
    matplotlib.figure.Figure
    """
    plt = setup()
    fig, ax = plt.subplots(figsize=(5.0, 5.4), layout="constrained")
    ax.plot([0, 1], [1, 0], color="0.55", lw=1.0, linestyle=(0, (4, 3)),
            label=r"$1 - \alpha$ (a mechanism that reveals nothing)")
    minimum = data.get("pointwise_minimum")
    fa = [p["alpha_float"] for p in data["tradeoff"]]
    fb = [p["beta_float"] for p in data["tradeoff"]]
    if minimum is not None and [(m["alpha_float"], m["beta_float"]) for m in minimum] != list(zip(fa, fb)):
        ax.plot([m["alpha_float"] for m in minimum], [m["beta_float"] for m in minimum], lw=1.0,
                **series(3, marker=None), label="pointwise minimum over neighbour pairs (not convex)")
    mu = data["gdp_mu"]["value"]
    g = data.get("g_mu")
    if g is not None:
        ax.plot(g["alpha"], g["beta"], **series(1, marker=None),
                label=rf"$G_\mu$, $\mu = {mu:.6g}$: the least Gaussian-DP $\mu$ (touches $f$)")
    ax.plot(fa, fb, lw=2.0, markersize=5, **series(0), label=r"$f$: the mechanism's trade-off curve (exact breakpoints)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.0)
    ax.set_aspect("equal")
    ax.set_xlabel(r"type I error $\alpha$")
    ax.set_ylabel(r"type II error $\beta$")
    note = "" if g is not None else "\n" + r"no finite $\mu$: $f(0) < 1$ or $f = 0$ before $\alpha = 1$"
    ax.set_title((title + "\n" if title else "") + "f-DP trade-off curve" + note)
    legend_below(ax, fontsize=7.5)
    return fig
