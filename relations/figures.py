"""Figures from computed results (never typed-in numbers): data functions and matplotlib drawings.

Every ``*_data`` function returns the exact series a figure plots, computed by the library
(the tests compare these with independent computations); every ``draw_*`` function takes that
data and returns a matplotlib figure.  Lines differ in style and marker as well as colour, so the
figures read in greyscale; units are nats.  :data:`FIGURES` pairs them by name and
:func:`write_all` saves them (``relations figures``).
"""

from __future__ import annotations

import json
import math
import os
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["FIGURES", "write_all", "relation_diagram_data", "prior_skew_data", "krr_information_data",
           "central_records_data", "symmetric_channel_data", "privacy_distortion_data"]

NOTION_NODES = {"eps_i": "identifiability", "eps_d": "differential privacy", "eps_m": "MI privacy"}


def _measure(mech):
    from relations.measures.api import measure

    return measure(mech)


# --------------------------------------------------------------------------- data


def relation_diagram_data(verdicts_path: str | None = "proofs/verdicts.json") -> dict[str, Any]:
    """Zheng et al. 2025, Fig. 3 redrawn from the catalogue: the paper's theorems between three notions.

    Parameters
    ----------
    verdicts_path : str or None, optional
        A ``verdicts.json`` to take verdicts from; theorems it lacks are verified now (quick effort).

    Returns
    -------
    dict
        ``nodes``: identifiability, DP and MI privacy, central and local; ``edges``: one per theorem
        with its ``relations verify`` verdict and, where the project has one, the corrected bound.
    """
    from relations.catalogue.entries import CATALOGUE

    verdicts = {}
    if verdicts_path and os.path.exists(verdicts_path):
        with open(verdicts_path, encoding="utf-8") as fh:
            verdicts = {v["id"]: v["verdict"] for v in json.load(fh)}
    paper = [r for r in CATALOGUE if r.id.startswith("zheng2025.thm")]
    missing = [r for r in paper if r.id not in verdicts]
    if missing:
        from relations.search.verify import Effort, verify_relation

        for r in missing:
            verdicts[r.id] = verify_relation(r, Effort.of(True)).verdict
    corrected = {r.corrects: r for r in CATALOGUE if r.corrects}
    edges = []
    for r in paper:
        fix = corrected.get(r.id)
        edges.append({"id": r.id, "setting": r.setting, "source": r.premise, "target": r.conclusion,
                      "kind": r.kind, "label": r.symbols if r.kind == "implication" else "does not imply",
                      "verdict": verdicts[r.id],
                      "corrected": None if fix is None else {"id": fix.id, "label": fix.symbols,
                                                             "verdict": verdicts.get(fix.id)}})
    nodes = [{"notion": n, "setting": s} for s in ("central", "local") for n in NOTION_NODES]
    return {"nodes": nodes, "edges": edges}


def prior_skew_data(*, points: int = 46, channel: Sequence[str] = ("13/20", "7/20")) -> dict[str, Any]:
    """``eps_i``, ``eps_d``, ``-sigma_min`` of the paper's channel as ``p(1)`` goes from 1/2 to 19/20.

    Parameters
    ----------
    points : int, optional
        The number of evenly spaced priors, at least 2.
    channel : pair of str, optional
        Labels the figure only: the series are those of ``paper_example``'s channel.

    Returns
    -------
    dict
        Lists ``p1``, ``eps_i``, ``eps_d``, ``neg_sigma_min``; ``marked``: the paper's Section 5
        priors ``p(1) = 11/20`` and ``19/20`` with exact ``eps_i``.
    """
    from relations.mechanisms.paper import paper_example

    a, b = (Fraction(v) for v in channel)
    xs = [Fraction(1, 2) + (Fraction(19, 20) - Fraction(1, 2)) * i / (points - 1) for i in range(points)]
    out = {"p1": [], "eps_i": [], "eps_d": [], "neg_sigma_min": [], "marked": []}
    for p in xs:
        m = _measure(paper_example((p, 1 - p)))
        out["p1"].append(float(p))
        out["eps_i"].append(m.eps_i.value)
        out["eps_d"].append(m.eps_d.value)
        out["neg_sigma_min"].append(-m.sigma_min.value)
    for p in (Fraction(11, 20), Fraction(19, 20)):  # the paper's Section 5 priors
        m = _measure(paper_example((p, 1 - p)))
        out["marked"].append({"p1": float(p), "eps_i": m.eps_i.value, "eps_i_exact": str(m.eps_i.exact),
                              "eps_d": m.eps_d.value, "neg_sigma_min": -m.sigma_min.value})
    out["channel"] = [str(a), str(b)]
    return out


def krr_information_data(k: int = 4, ratios: Sequence[Fraction] | None = None) -> dict[str, Any]:
    """``I(X;Y)`` of k-RR (uniform prior) against ``eps_d``, with the catalogued bounds.

    Parameters
    ----------
    k : int, optional
    ratios : sequence of Fraction, optional
        The ratios ``e^eps``; by default ``1, 1.25, ..., 15``.

    Returns
    -------
    dict
        ``k`` and lists: ``eps_d``, ``I``, ``two_eps`` (Zheng et al. 2025, Thm 11), ``eps`` and
        ``tightest``, the tightest catalogued bound ``min(eps, eps (e^eps - 1))``.
    """
    from relations.mechanisms.local import krr

    ratios = ratios or [Fraction(100 + 25 * i, 100) for i in range(0, 57)]
    out = {"k": k, "eps_d": [], "I": [], "two_eps": [], "eps": [], "tightest": []}
    for t in ratios:
        m = _measure(krr(k, t))
        e = m.eps_d.value
        out["eps_d"].append(e)
        out["I"].append(m.eps_m.value)
        out["two_eps"].append(2 * e)
        out["eps"].append(e)
        out["tightest"].append(min(e, e * math.expm1(e)))
    return out


def central_records_data(ratio: Fraction = Fraction(3), records: Sequence[int] = tuple(range(1, 31))) -> dict[str, Any]:
    """``I(X;Y)`` of binary RR on each of ``r`` records (uniform prior, product form) against ``r``.

    Parameters
    ----------
    ratio : Fraction, optional
        ``e^eps`` of the randomized response.
    records : sequence of int, optional

    Returns
    -------
    dict
        Lists ``r``, ``I``, ``two_eps`` (Zheng et al. 2025, Thm 9), ``r_eps``; ``first_crossing``,
        the first ``r`` whose certified ``I(X;Y)`` exceeds ``2 eps_d`` (or None).
    """
    from relations.mechanisms.local import product, randomized_response

    local = randomized_response(ratio)
    out = {"ratio": str(ratio), "r": [], "I": [], "two_eps": [], "r_eps": [], "first_crossing": None}
    for r in records:
        mech = local if r == 1 else product(local, r, prior="uniform")
        m = _measure(mech)
        out["r"].append(r)
        out["I"].append(m.eps_m.value)
        out["two_eps"].append(2 * m.eps_d.value)
        out["r_eps"].append(r * m.eps_d.value)
        if out["first_crossing"] is None and m.eps_m.enclosure.lower > 2 * Fraction(m.eps_d.value):
            out["first_crossing"] = r
    return out


def symmetric_channel_data(symbols: int = 7, distortions: Sequence[Fraction] | None = None) -> dict[str, Any]:
    """Wu, Peng, Mou (2019), Fig. 2 and 3: the ``symbols``-ary symmetric channel against its distortion.

    Parameters
    ----------
    symbols : int, optional
    distortions : sequence of Fraction, optional
        ``D``: the channel keeps the input with ``1 - D``, each error has ``D/(symbols-1)``.

    Returns
    -------
    dict
        ``symbols``, ``H`` and lists ``D``, ``eps = ln((symbols-1)(1 - D)/D)``, ``I`` and the Fano
        bound ``fano``, for a uniform source (the paper does not give its source).

    Examples
    --------
    >>> data = symmetric_channel_data(7, [Fraction(1, 2), Fraction(6, 7)])  # ln 6; then no leak
    >>> [round(v, 4) for v in data["eps"]], [round(v, 4) for v in data["I"]]
    ([1.7918, 0.0], [0.3569, 0.0])
    """
    from relations.model import Mechanism
    from relations.tradeoffs.utility import fano_leakage_bound

    distortions = distortions or [Fraction(i, 100) for i in range(1, 86)]
    out = {"symbols": symbols, "D": [], "eps": [], "I": [], "fano": [], "H": math.log(symbols)}
    prior = [Fraction(1, symbols)] * symbols
    for d in distortions:
        rows = [[1 - d if i == j else d / (symbols - 1) for j in range(symbols)] for i in range(symbols)]
        mech = Mechanism.local(rows, prior=prior)
        m = _measure(mech)
        out["D"].append(float(d))
        out["eps"].append(m.eps_d.value)
        out["I"].append(m.eps_m.value)
        out["fano"].append(float(fano_leakage_bound(prior, d).midpoint))
    return out


def privacy_distortion_data(*, prior: Sequence[str | Fraction] = ("1/2", "1/4", "1/8", "1/8"),
                            budgets: Sequence[float] | None = None) -> dict[str, Any]:
    """Least expected Hamming distortion under DP, identifiability and MI privacy for one prior.

    Parameters
    ----------
    prior : sequence of str or Fraction, optional
    budgets : sequence of float, optional
        The budgets ``eps``; by default ``0.1, 0.2, ..., 3.0``.

    Returns
    -------
    dict
        ``prior`` and lists ``eps``, ``dp``, ``id``, ``mi`` (None where infeasible) from
        :func:`relations.tradeoffs.optimal.privacy_distortion_curves` (Blahut-Arimoto for ``mi``).
    """
    from relations.tradeoffs.optimal import privacy_distortion_curves

    budgets = budgets or [0.1 * i for i in range(1, 31)]
    data = privacy_distortion_curves([Fraction(v) for v in prior], budgets)
    data["prior"] = [str(Fraction(v)) for v in prior]
    return data


# --------------------------------------------------------------------------- drawings


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
}


def write_all(out: str = "figures", fmt: str = "png", only: Sequence[str] = ()) -> list[str]:
    """Compute, draw and save every figure (and its data as JSON); returns the written paths.

    Parameters
    ----------
    out : str, optional
        The folder, created if missing: ``NAME.FMT`` and ``NAME.json`` for each figure.
    fmt : str, optional
        ``png``, ``pdf`` or ``svg``; no timestamps or versions are embedded.
    only : sequence of str, optional
        Names of :data:`FIGURES`; all by default.
    """
    plt = _plt()
    os.makedirs(out, exist_ok=True)
    paths = []
    for name, (data_fn, draw_fn) in FIGURES.items():
        if only and name not in only:
            continue
        data = data_fn()
        fig = draw_fn(data)
        path = os.path.join(out, f"{name}.{fmt}")
        metadata = {"Software": None} if fmt == "png" else ({"Creator": None, "Producer": None, "CreationDate": None}
                                                           if fmt == "pdf" else {"Date": None, "Creator": None})
        fig.savefig(path, format=fmt, metadata=metadata)
        plt.close(fig)
        with open(os.path.join(out, f"{name}.json"), "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1)
        paths.append(path)
    return paths
