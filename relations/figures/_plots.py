"""The line plots: each takes the data of :mod:`relations.figures._data` and returns a matplotlib figure.

All take colours, dashes and markers from :mod:`relations.figures._style` (Okabe-Ito, one dash pattern
and marker per line), set symbols in mathtext and put the legend under the axes, where it covers no
curve.  Lines that coincide keep different dashes and colours, and the legend says that they coincide.
Legends cite the catalogue's references by author and year (:func:`cite`).

Every drawing takes ``width`` (inches; ``None``: its own size, cropped to what is drawn) and ``title``
(``False``: no title, for a paper whose caption says it).  At a given width the text keeps its size in
points, the labels and legends are wrapped to the width, and the height follows: the plotting area is
:data:`ASPECT` times the width (at most :data:`MAX_AXES_HEIGHT`), plus what the labels, legend and
title need (:func:`fit_height`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

from relations.catalogue._citations import citation
from relations.figures._style import SYMBOLS, math, series, setup, wrap

__all__ = ["draw_prior_skew", "draw_krr_information", "draw_central_records", "draw_symmetric_channel",
           "draw_privacy_distortion", "legend_below", "new_figure", "fit_height", "lay_out", "set_title", "cite"]

_NATS = "(nats)"


#: The height of a plotting area as a share of its width, at a given ``--width``.
ASPECT = 0.62
#: The tallest plotting area, in inches (a text-width figure would otherwise take half a page).
MAX_AXES_HEIGHT = 3.4
#: Points of a legend's handle and its padding, not available to the label text.
_HANDLE = 40


def cite(relation_id: str) -> str:
    """The legend's reference to a catalogued relation: ``Zheng et al. 2025, Thm 11``, never its id."""
    return citation(relation_id)


def legend_below(ax, ncol: int = 1, **kw: Any) -> None:
    """The axes' legend under its x label, outside the plotted area, its labels wrapped to the figure's width.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    ncol : int, optional
    **kw
        Further arguments of ``Axes.legend``.
    """
    handles, labels = ax.get_legend_handles_labels()
    size = float(kw.get("fontsize", 8.0))
    room = ax.figure.get_figwidth() / _columns(ax) / ncol - _HANDLE / 72
    labels = [wrap(text, room, fontsize=size) for text in labels]
    import matplotlib.transforms as mtransforms

    # 0.42 in under the axes, whatever their height: under the tick labels and the x label
    below = ax.transAxes + mtransforms.ScaledTranslation(0, -0.42, ax.figure.dpi_scale_trans)
    ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=below, ncol=ncol,
              frameon=False, **kw)


def new_figure(default: tuple[float, float], width: float | None, nrows: int = 1, ncols: int = 1, **kw: Any):
    """A constrained-layout figure of ``default`` size (``width is None``) or ``width`` inches wide.

    Returns
    -------
    (Figure, Axes or array of Axes)
    """
    plt = setup()
    size = default if width is None else (width, default[1] * width / default[0])
    return plt.subplots(nrows, ncols, figsize=size, layout="constrained", **kw)


def set_title(ax, text: str, title: bool, *, fontsize: float = 10.0) -> None:
    """``ax``'s title, wrapped to the figure's width, unless ``title`` is false."""
    if title:
        # centred on the axes, which sit right of the y label: the room is the width less twice that label
        ax.set_title(wrap(text, ax.figure.get_figwidth() / max(1, _columns(ax)) - 0.9, fontsize=fontsize),
                     fontsize=fontsize)


def _columns(ax) -> int:
    spec = ax.get_subplotspec()
    return 1 if spec is None else spec.get_gridspec().ncols


def fit_height(fig, width: float | None) -> None:
    """At a given ``width``, set the figure's height so that its first axes are ``ASPECT * width`` tall
    (per column of panels, at most :data:`MAX_AXES_HEIGHT`) with every label, legend and title inside.

    The constrained layout places the decorations; two rounds of measuring and resizing settle it (each lays the
    figure out: :func:`lay_out`).
    """
    if width is None:
        return
    ax = fig.axes[0]
    target = min(MAX_AXES_HEIGHT, ASPECT * width / max(1, _columns(ax)))
    for _ in range(3):
        lay_out(fig)
        have = ax.get_position().height * fig.get_figheight()
        if abs(have - target) < 0.01:
            break
        fig.set_figheight(max(1.0, fig.get_figheight() + target - have))


def lay_out(fig) -> None:
    """Place ``fig``'s axes and decorations as drawing it would, without drawing it.

    Its layout engine (the figures' constrained layout) measures the texts and sets the axes' positions, which is
    what the fitting of a height reads; drawing every artist afterwards (``Figure.draw_without_rendering``) changed
    none of it and cost a tenth of a figure's CPU.  A figure without a layout engine is drawn without rendering.
    """
    engine = fig.get_layout_engine()
    if engine is None:
        fig.draw_without_rendering()
    else:
        engine.execute(fig)


def draw_prior_skew(data: dict[str, Any], *, width: float | None = None, title: bool = True) -> Figure:
    """``eps_i``, ``eps_d`` and the prior skew ``-sigma_min`` against ``p(0)`` (exact values at every point)."""
    fig, ax = new_figure((5.0, 4.3), width)
    ax.plot(data["p0"], data["eps_i"], lw=2, **series(0, marker=None), label=SYMBOLS["eps_i"] + " (identifiability)")
    ax.plot(data["p0"], data["eps_d"], **series(1, marker=None), label=SYMBOLS["eps_d"] + " (differential privacy)")
    ax.plot(data["p0"], data["neg_sigma_min"], **series(2, marker=None),
            label=r"prior skew $-\sigma_{\min} = \ln\,\frac{p(0)}{p(1)}$")
    narrow = fig.get_figwidth() < 4.5
    for m in data["marked"]:
        ax.plot([m["p0"]], [m["eps_i"]], "o", color="black", ms=6, zorder=5)
        tie = (f"= {SYMBOLS['eps_d']} $-$ {SYMBOLS['sigma_min']}" if m.get("attains_eps_d_minus_sigma") else "")
        value = f"$p(0) = {m['p0']:.2f}$: {SYMBOLS['eps_i']} = {math(m['eps_i_exact'])} $\\approx {m['eps_i']:.3f}$"
        printed = f"Zheng et al. printed {m['paper_printed']}"
        if narrow:  # the tie moves to the second line
            text = f"{value}\n{tie + '; ' if tie else ''}{printed}"
        else:
            text = f"{value} {tie}\n({printed})"
        ax.annotate(text, (m["p0"], m["eps_i"]), textcoords="axes fraction",
                    xytext=(0.03, 0.58) if m["p0"] < 0.9 else (0.1 if not narrow else 0.03, 0.86),
                    fontsize=8 if not narrow else 7, arrowprops={"arrowstyle": "-", "color": "grey", "lw": 0.6})
    ax.set_xlabel("prior $p(0)$ of input 0 (inputs 0 and 1)")
    ax.set_ylabel(f"budget {_NATS}")
    a, b = data["channel"]
    set_title(ax, f"channel $Q(x\\,|\\,x) = {a}$, $Q(y\\,|\\,x) = {b}$ for $y \\neq x$:\n"
                  r"the prior moves $\varepsilon_i$, not $\varepsilon_d$", title)
    legend_below(ax)
    fit_height(fig, width)
    return fig


def draw_krr_information(data: dict[str, Any], *, width: float | None = None, title: bool = True) -> Figure:
    """``I(X;Y)`` of k-RR (exact at every sampled ratio) with the catalogued bounds, the supremum of
    ``I(X;Y)`` under ``eps_d``-LDP (``c - 1 - ln c``) and the prior's entropy ``H(X)``."""
    fig, ax = new_figure((5.0, 4.9), width)
    e = data["eps_d"]
    d = SYMBOLS["eps_d"]
    ax.plot(e, data["I"], lw=2.2, **series(0, marker=None), label=f"$I(X;Y)$, {data['k']}-RR, uniform prior")
    ax.plot(e, data["two_eps"], **series(1, marker=None), label=f"$2\\varepsilon_d$ ({cite('zheng2025.thm11')})")
    from relations.catalogue._entries import BY_ID

    sources = "; ".join(dict.fromkeys(cite(f) for f in data["tightest_facts"] if f in BY_ID))
    ax.plot(e, data["tightest"], lw=3.2, alpha=0.55, **series(3, marker=None),
            label=f"{math(data['tightest_bound'])}, the least of the {len(data['bounds'])} proved bounds from the "
                  f"catalogue ({sources})")
    ax.plot(e, data["eps"], **series(2, marker=None), label=f"{d} ({cite('relations.thm11_sharp')})")
    ax.plot(e, data["sup"], **series(4, marker=None),
            label=f"$\\sup\\, I(X;Y)$ under {d}-LDP, any prior and $k$: $c - 1 - \\ln c$, "
                  r"$c = \varepsilon_d / (1 - e^{-\varepsilon_d})$")
    ax.axhline(data["H"], **series(5, marker=None), lw=1.2,
               label=f"$H(X) = \\ln {data['k']}$, the most $I(X;Y)$ can be for this prior")
    ax.set_xlabel(f"{d} {_NATS}")
    ax.set_ylabel(f"information {_NATS}")
    ax.set_xlim(0, max(e) * 1.02)
    ax.set_ylim(0, max(data["H"], max(data["I"])) * 1.25)
    set_title(ax, r"local: mutual information under $\varepsilon_d$-DP", title)
    legend_below(ax, fontsize=7.5)
    fit_height(fig, width)
    return fig


def draw_central_records(data: dict[str, Any], *, width: float | None = None, title: bool = True) -> Figure:
    """``I(X;Y)`` of binary RR on ``r`` records (exact, one marker per ``r``) against ``2 eps_d`` and ``r eps_d``."""
    fig, ax = new_figure((5.0, 4.3), width)
    ax.plot(data["r"], data["I"], **series(0), label="$I(X;Y)$, binary RR on each record (exact)")
    ax.plot(data["r"], data["two_eps"], **series(1, marker=None),
            label=f"$2\\varepsilon_d$ ({cite('zheng2025.thm9')})")
    ax.plot(data["r"], data["r_eps"], **series(2, marker=None),
            label=r"$r\,\varepsilon_d = \mathrm{diam}\cdot\varepsilon_d$ " f"({cite('relations.thm9_corrected')})")
    if data["first_crossing"]:
        r = data["first_crossing"]
        ax.axvline(r, color="grey", lw=0.8, ls=(0, (2, 2)))
        ax.annotate(f"$I(X;Y) > 2\\varepsilon_d$ from $r = {r}$", (r, data["two_eps"][0]), textcoords="offset points",
                    xytext=(-8, 22), ha="right", fontsize=8,
                    bbox={"boxstyle": "square,pad=0.2", "fc": "white", "ec": "none"},
                    arrowprops={"arrowstyle": "-", "color": "grey", "lw": 0.6})
    ax.set_xlabel("records $r$")
    ax.set_ylabel(f"information {_NATS}")
    ax.set_ylim(0, max(data["I"]) * 1.6)
    ax.set_xlim(0, max(data["r"]) + 1)
    set_title(ax, f"central: $I(X;Y)$ grows with $r$, $\\varepsilon_d = \\ln {data['ratio']}$ does not", title)
    legend_below(ax)
    fit_height(fig, width)
    return fig


def draw_symmetric_channel(data: dict[str, Any], *, width: float | None = None, title: bool = True) -> Figure:
    """Two panels: ``eps_d`` and ``I(X;Y)`` (with Fano's bound, which it meets) against the distortion; stacked
    below 5 inches of width."""
    stacked = width is not None and width < 5.0
    if stacked:
        fig, (a1, a2) = new_figure((3.7, 7.2), width, 2, 1)
    else:
        fig, (a1, a2) = new_figure((7.4, 3.6), width, 1, 2)
    d = data["D"]
    a1.plot(d, data["eps"], lw=2, **series(0, marker=None), label=SYMBOLS["eps_d"])
    a1.set_xlabel("distortion $D$")
    a1.set_ylabel(f"{SYMBOLS['eps_d']} {_NATS}")
    set_title(a1, f"DP parameter of the {data['symbols']}-ary symmetric channel", title)
    a2.plot(d, data["I"], lw=3.2, **series(0, marker=None), label="$I(X;Y)$")
    step = max(1, len(d) // 12)
    a2.plot(d, data["fano"], **series(1, markevery=(step // 2, step), markerfacecolor="white"),
            label="Fano lower bound\n($=I(X;Y)$ here)")  # two lines: a narrow legend, clear of the curve
    a2.axhline(data["H"], **series(2, marker=None), lw=1.2, label=f"$H(X) = \\ln {data['symbols']}$")
    a2.set_ylim(0, data["H"] * 1.1)
    a2.set_xlabel("distortion $D$")
    a2.set_ylabel(f"information {_NATS}")
    set_title(a2, "mutual information leakage, uniform source", title)
    a2.legend(loc="upper right", bbox_to_anchor=(1.0, 0.84))  # under the H(X) line, above the curves
    if width is not None:
        target = min(MAX_AXES_HEIGHT, ASPECT * width / (1 if stacked else 2))
        for _ in range(3):
            lay_out(fig)
            have = a1.get_position().height * fig.get_figheight()
            if abs(have - target) < 0.01:
                break
            fig.set_figheight(fig.get_figheight() + (target - have) * (2 if stacked else 1))
    return fig


def draw_privacy_distortion(data: dict[str, Any], *, width: float | None = None, title: bool = True) -> Figure:
    """The least distortion under the three notions (markers at the computed budgets)."""
    fig, ax = new_figure((5.0, 4.4), width)
    meet = next((e for e, a, b in zip(data["eps"], data["dp"], data["id"])
                 if a is not None and b is not None and abs(a - b) < 1e-7), None)
    labels = {"dp": r"$\varepsilon$-DP (LP)",
              "id": r"$\varepsilon$-identifiability (LP" + (f"; equal to DP from $\\varepsilon \\approx {meet:.2f}$)"
                                                           if meet is not None else ")"),
              "mi": r"$I(X;Y) \leq \varepsilon$ (Blahut-Arimoto)"}
    for i, key in enumerate(("dp", "id", "mi")):
        xs = [e for e, v in zip(data["eps"], data[key]) if v is not None]
        ys = [v for v in data[key] if v is not None]
        ax.plot(xs, ys, **series(i, ms=3 if i else 2.5), lw=2.4 if i == 0 else 1.5, label=labels[key])
    ax.set_xlabel(r"budget $\varepsilon$ (nats)")
    ax.set_ylabel("least expected Hamming distortion")
    prior = ", ".join(f"\\frac{{{Fraction(p).numerator}}}{{{Fraction(p).denominator}}}" for p in data["prior"])
    last = len(data["prior"]) - 1
    set_title(ax, f"privacy-distortion, prior $(p(0), \\ldots, p({last})) = ({prior})$", title)
    legend_below(ax)
    fit_height(fig, width)
    return fig
