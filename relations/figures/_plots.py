"""The line plots: each takes the data of :mod:`relations.figures._data` and returns a matplotlib figure.

All take colours, dashes and markers from :mod:`relations.figures._style` (Okabe-Ito, one dash pattern
and marker per line), set symbols in mathtext and put the legend under the axes, where it covers no
curve.  Lines that coincide keep different dashes and colours, and the legend says that they coincide.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

from relations.figures._style import SYMBOLS, math, series, setup

__all__ = ["draw_prior_skew", "draw_krr_information", "draw_central_records", "draw_symmetric_channel",
           "draw_privacy_distortion", "legend_below"]

_NATS = "(nats)"


def legend_below(ax, ncol: int = 1, **kw: Any) -> None:
    """The axes' legend under its x label, outside the plotted area.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    ncol : int, optional
    **kw
        Further arguments of ``Axes.legend``.
    """
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=ncol, frameon=False, **kw)


def _figure(width: float = 5.0, height: float = 4.2):
    plt = setup()
    fig, ax = plt.subplots(figsize=(width, height), layout="constrained")
    return fig, ax


def draw_prior_skew(data: dict[str, Any]) -> Figure:
    """``eps_i``, ``eps_d`` and the prior skew ``-sigma_min`` against ``p(0)`` (exact values at every point)."""
    fig, ax = _figure(5.0, 4.3)
    ax.plot(data["p0"], data["eps_i"], lw=2, **series(0, marker=None), label=SYMBOLS["eps_i"] + " (identifiability)")
    ax.plot(data["p0"], data["eps_d"], **series(1, marker=None), label=SYMBOLS["eps_d"] + " (differential privacy)")
    ax.plot(data["p0"], data["neg_sigma_min"], **series(2, marker=None),
            label=r"prior skew $-\sigma_{\min} = \ln\,\frac{p(0)}{p(1)}$")
    for m in data["marked"]:
        ax.plot([m["p0"]], [m["eps_i"]], "o", color="black", ms=6, zorder=5)
        tie = (f" = {SYMBOLS['eps_d']} $-$ {SYMBOLS['sigma_min']}" if m.get("attains_eps_d_minus_sigma") else "")
        ax.annotate(f"$p(0) = {m['p0']:.2f}$: {SYMBOLS['eps_i']} = {math(m['eps_i_exact'])} "
                    f"$\\approx {m['eps_i']:.3f}${tie}\n(Zheng et al. printed {m['paper_printed']})",
                    (m["p0"], m["eps_i"]), textcoords="axes fraction",
                    xytext=(0.03, 0.58) if m["p0"] < 0.9 else (0.1, 0.86), fontsize=8,
                    arrowprops={"arrowstyle": "-", "color": "grey", "lw": 0.6})
    ax.set_xlabel("prior $p(0)$ of input 0 (inputs 0 and 1)")
    ax.set_ylabel(f"budget {_NATS}")
    a, b = data["channel"]
    ax.set_title(f"channel $Q(x\\,|\\,x) = {a}$, $Q(y\\,|\\,x) = {b}$ for $y \\neq x$:\n"
                 r"the prior moves $\varepsilon_i$, not $\varepsilon_d$")
    legend_below(ax)
    return fig


def draw_krr_information(data: dict[str, Any]) -> Figure:
    """``I(X;Y)`` of k-RR (exact at every sampled ratio) with the catalogued bounds."""
    fig, ax = _figure(5.0, 4.5)
    e = data["eps_d"]
    ax.plot(e, data["I"], lw=2.2, **series(0, marker=None), label=f"$I(X;Y)$, {data['k']}-RR, uniform prior")
    ax.plot(e, data["two_eps"], **series(1, marker=None), label=r"$2\varepsilon_d$ (Zheng et al., Thm 11)")
    ax.plot(e, data["tightest"], lw=3.2, alpha=0.55, **series(3, marker=None),
            label=r"$\min(\varepsilon_d, \varepsilon_d(e^{\varepsilon_d} - 1))$, the tightest catalogued bound "
                  "(equal to " + SYMBOLS["eps_d"] + r" for $\varepsilon_d \geq \ln 2$)")
    ax.plot(e, data["eps"], **series(2, marker=None), label=SYMBOLS["eps_d"] + " (relations.thm11_sharp)")
    ax.set_xlabel(f"{SYMBOLS['eps_d']} {_NATS}")
    ax.set_ylabel(f"information {_NATS}")
    ax.set_xlim(0, max(e) * 1.02)
    ax.set_ylim(0, max(data["I"]) * 2.5)
    ax.set_title(r"local: mutual information under $\varepsilon_d$-DP")
    legend_below(ax, fontsize=7.5)
    return fig


def draw_central_records(data: dict[str, Any]) -> Figure:
    """``I(X;Y)`` of binary RR on ``r`` records (exact, one marker per ``r``) against ``2 eps_d`` and ``r eps_d``."""
    fig, ax = _figure(5.0, 4.3)
    ax.plot(data["r"], data["I"], **series(0), label="$I(X;Y)$, binary RR on each record (exact)")
    ax.plot(data["r"], data["two_eps"], **series(1, marker=None), label=r"$2\varepsilon_d$ (Zheng et al., Thm 9)")
    ax.plot(data["r"], data["r_eps"], **series(2, marker=None),
            label=r"$r\,\varepsilon_d = \mathrm{diam}\cdot\varepsilon_d$ (relations.thm9_corrected)")
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
    ax.set_title(f"central: $I(X;Y)$ grows with $r$, $\\varepsilon_d = \\ln {data['ratio']}$ does not")
    legend_below(ax)
    return fig


def draw_symmetric_channel(data: dict[str, Any]) -> Figure:
    """Two panels: ``eps_d`` and ``I(X;Y)`` (with Fano's bound, which it meets) against the distortion."""
    plt = setup()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(7.4, 3.6), layout="constrained")
    d = data["D"]
    a1.plot(d, data["eps"], lw=2, **series(0, marker=None), label=SYMBOLS["eps_d"])
    a1.set_xlabel("distortion $D$")
    a1.set_ylabel(f"{SYMBOLS['eps_d']} {_NATS}")
    a1.set_title(f"DP parameter of the {data['symbols']}-ary symmetric channel")
    a2.plot(d, data["I"], lw=3.2, **series(0, marker=None), label="$I(X;Y)$")
    step = max(1, len(d) // 12)
    a2.plot(d, data["fano"], **series(1, markevery=(step // 2, step), markerfacecolor="white"),
            label="Fano lower bound ($=I(X;Y)$ here)")
    a2.axhline(data["H"], **series(2, marker=None), lw=1.2, label=f"$H(X) = \\ln {data['symbols']}$")
    a2.set_ylim(0, data["H"] * 1.1)
    a2.set_xlabel("distortion $D$")
    a2.set_ylabel(f"information {_NATS}")
    a2.set_title("mutual information leakage, uniform source")
    a2.legend(loc="upper right", bbox_to_anchor=(1.0, 0.84))  # under the H(X) line, above the curves
    return fig


def draw_privacy_distortion(data: dict[str, Any]) -> Figure:
    """The least distortion under the three notions (markers at the computed budgets)."""
    fig, ax = _figure(5.0, 4.4)
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
    ax.set_title(f"privacy-distortion, prior $({prior})$")
    legend_below(ax)
    return fig

