"""Figures from computed results (never typed-in numbers): data functions and matplotlib drawings.

Every ``*_data`` function returns the exact series a figure plots, computed by the library
(the tests compare these with independent computations); every ``draw_*`` function takes that
data and returns a matplotlib figure.  Lines differ in style and marker as well as colour, so the
figures read in greyscale; units are nats.  :data:`FIGURES` pairs them by name and
:func:`write_all` saves them (``relations figures``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:
    from matplotlib.figure import Figure

from relations.figures.conversions import conversion_frontiers_data, draw_conversion_frontiers
from relations.figures.data import (
    NOTION_NODES,
    central_records_data,
    krr_information_data,
    privacy_distortion_data,
    prior_skew_data,
    relation_diagram_data,
    symmetric_channel_data,
)

__all__ = ["FIGURES", "write_all", "relation_diagram_data", "prior_skew_data", "krr_information_data",
           "central_records_data", "symmetric_channel_data", "privacy_distortion_data", "conversion_frontiers_data"]

def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"figure.dpi": 100, "savefig.dpi": 100, "font.size": 9, "svg.hashsalt": "relations",
                         "path.simplify": False})
    return plt


_VERDICT_STYLE = {"proved": ("#1b7837", "-"), "holds-bounded": ("#5aae61", "-"), "unrefuted": ("#b8860b", "--"),
                  "refuted": ("#b2182b", ":")}


def draw_relation_diagram(data: dict[str, Any]) -> Figure:
    """Two triangles (central, local): identifiability, DP, MI privacy; an arrow per paper theorem."""
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(12, 6.2))
    where = {"eps_i": (0.12, 0.80), "eps_d": (0.88, 0.80), "eps_m": (0.50, 0.10)}
    for ax, setting in zip(axes, ("central", "local")):
        ax.set_xlim(-0.08, 1.08)
        ax.set_ylim(-0.08, 1.0)
        ax.set_axis_off()
        ax.set_title(f"{setting} setting", fontsize=10)
        for notion, (x, y) in where.items():
            ax.text(x, y, NOTION_NODES[notion], ha="center", va="center", fontsize=9, zorder=3,
                    bbox={"boxstyle": "round", "fc": "white", "ec": "black"})
        for e in data["edges"]:
            if e["setting"] != setting:
                continue
            (x0, y0), (x1, y1) = where[e["source"]], where[e["target"]]
            colour, style = _VERDICT_STYLE.get(e["verdict"], ("grey", "-"))
            rad = 0.18
            ax.annotate("", xy=(x1, y1), xytext=(x0, y0), zorder=2,
                        arrowprops={"arrowstyle": "-|>" if e["kind"] == "implication" else "-[", "color": colour,
                                    "linestyle": style, "lw": 1.6, "shrinkA": 26, "shrinkB": 26,
                                    "connectionstyle": f"arc3,rad={rad}"})
            # a point on the arc (matplotlib's arc3: quadratic Bezier, control = midpoint + rad (dy, -dx));
            # non-implication labels sit nearer their source so that the inner labels do not collide
            cx, cy = (x0 + x1) / 2 + rad * (y1 - y0), (y0 + y1) / 2 - rad * (x1 - x0)
            t = 0.5 if e["kind"] == "implication" else 0.28
            mx = (1 - t) ** 2 * x0 + 2 * (1 - t) * t * cx + t * t * x1
            my = (1 - t) ** 2 * y0 + 2 * (1 - t) * t * cy + t * t * y1
            name = "thm" + e["id"].split("thm")[1]
            label = f"{name}: {e['label']}\n[{e['verdict']}]"
            if e["corrected"]:
                label += f"\ncorrected: {e['corrected']['label']}"
            ax.text(mx, my, label, fontsize=6.5, ha="center", va="center", color=colour, zorder=4,
                    bbox={"boxstyle": "square,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.85})
    handles = [plt.Line2D([], [], color=c, linestyle=s, label=v) for v, (c, s) in _VERDICT_STYLE.items()]
    fig.legend(handles=handles, loc="lower center", ncol=4, fontsize=8, frameon=False)
    fig.suptitle("Zheng et al. 2025, Fig. 3, with the verdicts of relations verify (arrow: implication, "
                 "bar: non-implication)", fontsize=10)
    return fig


def draw_prior_skew(data: dict[str, Any]) -> Figure:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(data["p1"], data["eps_i"], "k-", label="eps_i (identifiability)")
    ax.plot(data["p1"], data["eps_d"], "k--", label="eps_d (DP)")
    ax.plot(data["p1"], data["neg_sigma_min"], "k:", label="-sigma_min (prior skew)")
    for m in data["marked"]:
        ax.plot([m["p1"]], [m["eps_i"]], "ko", ms=6)
        ax.annotate(f"paper: p(1) = {m['p1']:.2f}, eps_i = {m['eps_i_exact']} = {m['eps_i']:.3f}",
                    (m["p1"], m["eps_i"]), textcoords="axes fraction",
                    xytext=(0.03, 0.55) if m["p1"] < 0.9 else (0.30, 0.93), fontsize=7,
                    arrowprops={"arrowstyle": "-", "color": "grey", "lw": 0.6})
    ax.set_xlabel("prior p(1)")
    ax.set_ylabel("budget (nats)")
    ax.set_title(f"channel [[{data['channel'][0]}, {data['channel'][1]}], [{data['channel'][1]}, "
                 f"{data['channel'][0]}]]: the prior moves eps_i, not eps_d", fontsize=9)
    ax.legend(fontsize=8, loc="lower right")
    return fig


def draw_krr_information(data: dict[str, Any]) -> Figure:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(data["eps_d"], data["I"], "k-", lw=2, label=f"I(X;Y), {data['k']}-RR, uniform prior")
    ax.plot(data["eps_d"], data["two_eps"], "k--", label="2 eps_d (Thm 11)")
    ax.plot(data["eps_d"], data["eps"], "k-.", label="eps_d (relations.thm11_sharp)")
    ax.plot(data["eps_d"], data["tightest"], "k:", label="min(eps, eps(e^eps - 1)) (tightest catalogued)")
    ax.set_xlabel("eps_d (nats)")
    ax.set_ylabel("nats")
    ax.set_ylim(0, max(data["I"]) * 2.5)
    ax.legend(fontsize=7)
    ax.set_title("local: mutual information under eps_d-DP")
    return fig


def draw_central_records(data: dict[str, Any]) -> Figure:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(data["r"], data["I"], "ko-", ms=3, label="I(X;Y), binary RR on each record")
    ax.plot(data["r"], data["two_eps"], "k--", label="2 eps_d (Thm 9)")
    ax.plot(data["r"], data["r_eps"], "k:", label="r eps_d (relations.thm9_corrected)")
    if data["first_crossing"]:
        r = data["first_crossing"]
        ax.axvline(r, color="grey", lw=0.8)
        ax.annotate(f"I > 2 eps_d from r = {r}", (r, data["two_eps"][0]), textcoords="offset points",
                    xytext=(5, 10), fontsize=8)
    ax.set_xlabel("records r")
    ax.set_ylabel("nats")
    ax.set_ylim(0, max(data["I"]) * 1.6)
    ax.legend(fontsize=8)
    ax.set_title(f"central: I(X;Y) grows with r, eps_d = ln {data['ratio']} does not")
    return fig


def draw_symmetric_channel(data: dict[str, Any]) -> Figure:
    plt = _plt()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 3.8))
    a1.plot(data["D"], data["eps"], "k-")
    a1.set_xlabel("distortion D")
    a1.set_ylabel("eps (nats)")
    a1.set_title("DP parameter of the 7-symbol symmetric channel")
    a2.plot(data["D"], data["I"], "k-", lw=2, label="I(X;Y)")
    a2.plot(data["D"], data["fano"], "k--", label="Fano lower bound")
    a2.axhline(data["H"], color="grey", ls=":", label="H(X)")
    a2.set_xlabel("distortion D")
    a2.set_ylabel("nats")
    a2.legend(fontsize=8)
    a2.set_title("mutual information leakage")
    fig.tight_layout()
    return fig


def draw_privacy_distortion(data: dict[str, Any]) -> Figure:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 4))
    for key, style, label in (("dp", "k-", "eps-DP (LP)"), ("id", "k--", "eps-identifiability (LP)"),
                              ("mi", "k:", "I(X;Y) <= eps (Blahut-Arimoto)")):
        xs = [e for e, v in zip(data["eps"], data[key]) if v is not None]
        ys = [v for v in data[key] if v is not None]
        ax.plot(xs, ys, style, label=label)
    ax.set_xlabel("budget eps (nats)")
    ax.set_ylabel("least expected Hamming distortion")
    ax.set_title(f"privacy-distortion, prior ({', '.join(data['prior'])})")
    ax.legend(fontsize=8)
    return fig


#: Each figure's name: its data function and its drawing function.
FIGURES: dict[str, tuple[Callable[[], dict[str, Any]], Callable[[dict[str, Any]], Figure]]] = {
    "relation_diagram": (relation_diagram_data, draw_relation_diagram),
    "prior_skew": (prior_skew_data, draw_prior_skew),
    "krr_information": (krr_information_data, draw_krr_information),
    "central_records": (central_records_data, draw_central_records),
    "symmetric_channel": (symmetric_channel_data, draw_symmetric_channel),
    "privacy_distortion": (privacy_distortion_data, draw_privacy_distortion),
    "conversion_frontiers": (conversion_frontiers_data, draw_conversion_frontiers),
}


def write_all(out: str = "figures", fmt: str = "png", only: Sequence[str] = (), *, force: bool = False,
              verdicts: str | None = "proofs/verdicts.json") -> list[str]:
    """Compute, draw and save every figure (and its data as JSON); returns the written paths.

    Everything is computed and drawn first, then written under the write policy of
    :mod:`relations.io.outputs` (atomic files; files the tool did not write are refused
    unless ``force``).

    Parameters
    ----------
    out : str, optional
        The folder, created if missing: ``NAME.FMT`` and ``NAME.json`` for each figure.
    fmt : str, optional
        ``png``, ``pdf`` or ``svg``; no timestamps or versions are embedded.
    only : sequence of str, optional
        Names of :data:`FIGURES`; all by default.
    force : bool, optional
        Replace files in ``out`` that the tool did not write.
    verdicts : str or None, optional
        The ``verdicts.json`` the relation diagram takes its verdicts from.

    Raises
    ------
    InputError
        A file in ``out`` the tool did not write (without ``force``), or a ``verdicts`` file
        that is not one of ``relations verify``.
    """
    import io

    from relations.io.outputs import OutputDir

    folder = OutputDir(out, force=force)
    names = [n for n in FIGURES if not only or n in only]
    folder.plan([f"{n}.{x}" for n in names for x in (fmt, "json")])
    plt = _plt()
    drawn = []
    for name in names:
        data_fn, draw_fn = FIGURES[name]
        data = data_fn(verdicts) if name == "relation_diagram" else data_fn()
        fig = draw_fn(data)
        buf = io.BytesIO()
        metadata = {"Software": None} if fmt == "png" else ({"Creator": None, "Producer": None, "CreationDate": None}
                                                           if fmt == "pdf" else {"Date": None, "Creator": None})
        fig.savefig(buf, format=fmt, metadata=metadata)
        plt.close(fig)
        drawn.append((name, buf.getvalue(), json.dumps(data, indent=1)))
    paths = []
    for name, image, data in drawn:
        paths.append(folder.write_bytes(f"{name}.{fmt}", image))
        folder.write_text(f"{name}.json", data)
    folder.commit()
    return paths
