"""The relation diagram (figure ``relation_diagram``): Zheng et al. 2025, Fig. 3, with the verdicts.

Each setting (central, local) is a layered graph, laid out by :func:`networkx.multipartite_layout`:
identifiability and differential privacy in the top layer, MI privacy below.  Every paper theorem is an
arc coloured and dashed by its ``relations verify`` verdict (:data:`relations.figures._style.VERDICT_STYLE`)
and carries a numbered badge; the formulas, in mathtext, are listed under the graph, one line per
theorem (and one per correction), so that no label sits on an arc or on another label.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

from relations.figures._style import SYMBOLS, VERDICT_STYLE, math, setup

__all__ = ["NODE_TEXT", "diagram_positions", "draw_relation_diagram"]

#: The node labels: name and symbol.
NODE_TEXT = {"eps_i": "identifiability\n" + SYMBOLS["eps_i"], "eps_d": "differential privacy\n" + SYMBOLS["eps_d"],
             "eps_m": "MI privacy\n" + SYMBOLS["eps_m"]}
_LAYERS = {"eps_i": 0, "eps_d": 0, "eps_m": 1}
_RAD = 0.32  # the bend of every arc; the two arcs between a pair bend to opposite sides
_LINE = 12.5  # points between the lines of the key


def diagram_positions(edges: list[dict[str, Any]]) -> dict[str, tuple[float, float]]:
    """The nodes' positions in the unit square, a layered layout of the edges' graph.

    Parameters
    ----------
    edges : list of dict
        ``source`` and ``target`` of each edge (one setting).

    Returns
    -------
    dict
        Node name to ``(x, y)``, the top layer at ``y = 0.82``, the bottom one at ``y = 0.14``.

    Examples
    --------
    >>> pos = diagram_positions([{"source": "eps_i", "target": "eps_m"}, {"source": "eps_d", "target": "eps_m"}])
    >>> [tuple(round(v, 2) for v in pos[n]) for n in ("eps_i", "eps_d", "eps_m")]
    [(0.18, 0.82), (0.82, 0.82), (0.5, 0.14)]
    """
    import networkx as nx

    graph = nx.DiGraph()
    for node, layer in _LAYERS.items():
        graph.add_node(node, layer=layer)
    graph.add_edges_from((e["source"], e["target"]) for e in edges)
    raw = nx.multipartite_layout(graph, subset_key="layer", align="horizontal")
    xs = [float(p[0]) for p in raw.values()]
    lo, hi = min(xs), max(xs)
    pos = {}
    for node, (x, _) in raw.items():
        pos[node] = (0.18 + 0.64 * (float(x) - lo) / (hi - lo or 1.0), 0.82 if _LAYERS[node] == 0 else 0.14)
    if pos["eps_i"][0] > pos["eps_d"][0]:  # identifiability on the left, as in the paper
        pos = {n: (1 - x, y) for n, (x, y) in pos.items()}
    return {n: pos[n] for n in _LAYERS}  # a fixed order (networkx orders a layer by a set: by hash)


def _badge_point(ax, a: tuple[float, float], b: tuple[float, float], rad: float) -> tuple[float, float]:
    """The midpoint of matplotlib's ``arc3`` from ``a`` to ``b`` (computed in display space), in data units."""
    (x0, y0), (x1, y1) = ax.transData.transform([a, b])
    cx, cy = (x0 + x1) / 2 + rad * (y1 - y0), (y0 + y1) / 2 - rad * (x1 - x0)
    mx, my = 0.25 * x0 + 0.5 * cx + 0.25 * x1, 0.25 * y0 + 0.5 * cy + 0.25 * y1
    return tuple(ax.transData.inverted().transform((mx, my)))


def _panel(ax, setting: str, edges: list[dict[str, Any]]) -> None:
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_axis_off()
    ax.set_title(f"{setting} setting", fontsize=10)
    pos = diagram_positions(edges)
    boxes = {n: ax.text(x, y, NODE_TEXT[n], ha="center", va="center", fontsize=8.5, zorder=3, linespacing=1.4,
                        bbox={"boxstyle": "round,pad=0.35", "fc": "white", "ec": "black", "lw": 0.8})
             for n, (x, y) in pos.items()}
    for e in edges:
        colour, dash = VERDICT_STYLE.get(e["verdict"], ("grey", "-"))
        a, b = pos[e["source"]], pos[e["target"]]
        ax.annotate("", xy=b, xytext=a, zorder=2,
                    arrowprops={"arrowstyle": "-|>,head_length=0.5,head_width=0.25" if e["kind"] == "implication"
                                else "-[,widthB=0.5,lengthB=0.25", "color": colour, "linestyle": dash,
                                "lw": 1.5, "patchA": boxes[e["source"]].get_bbox_patch(),
                                "patchB": boxes[e["target"]].get_bbox_patch(), "shrinkA": 2, "shrinkB": 2,
                                "connectionstyle": f"arc3,rad={_RAD}"})
        x, y = _badge_point(ax, a, b, _RAD)
        ax.text(x, y, _number(e), fontsize=7.5, ha="center", va="center", color=colour, zorder=4,
                fontweight="bold", bbox={"boxstyle": "circle,pad=0.2", "fc": "white", "ec": colour, "lw": 1.0})


def _number(edge: dict[str, Any]) -> str:
    return edge["id"].split("thm")[1]


def _key(fig, ax, edges: list[dict[str, Any]]) -> None:
    """One line per theorem (and per correction, or sharpening of a proved one) under the panel's graph, in the
    verdict's colour."""
    line = 0
    for e in sorted(edges, key=lambda e: int(_number(e))):
        colour = VERDICT_STYLE.get(e["verdict"], ("grey", "-"))[0]
        fig.text(*_corner(ax), f"Thm {_number(e)}: {math(e['label']) if e['kind'] == 'implication' else _non(e)}"
                 f"  [{e['verdict']}]", color=colour, fontsize=8, va="top",
                 transform=_offset(fig, line))
        line += 1
        fix = e["corrected"]
        if fix:
            fcol = VERDICT_STYLE.get(fix["verdict"], ("black", "-"))[0]
            word = "sharpened" if e["verdict"] == "proved" else "corrected"  # a proved theorem is only sharpened
            text = f"    {word}: {math(fix['label'])}" + (f"  [{fix['verdict']}]" if fix["verdict"] else "")
            fig.text(*_corner(ax), text, color=fcol, fontsize=8, va="top", transform=_offset(fig, line))
            line += 1


def _corner(ax) -> tuple[float, float]:
    box = ax.get_position()
    return box.x0, box.y0


def _non(edge: dict[str, Any]) -> str:
    s, t = SYMBOLS[edge["source"]][1:-1], SYMBOLS[edge["target"]][1:-1]
    return f"${s} < \\infty \\;\\nRightarrow\\; {t} < \\infty$"


def _offset(fig, line: int):
    """Figure coordinates of the panel's lower-left corner, moved down by ``line`` lines (in points)."""
    import matplotlib.transforms as mtransforms

    return fig.transFigure + mtransforms.ScaledTranslation(6 / 72, -(4 + line * _LINE) / 72, fig.dpi_scale_trans)


def draw_relation_diagram(data: dict[str, Any]) -> Figure:
    """Two layered graphs (central, local) with numbered arcs and, under each, the theorems' formulas.

    Parameters
    ----------
    data : dict
        :func:`relations.figures._data.relation_diagram_data`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    plt = setup()
    fig = plt.figure(figsize=(7.4, 4.7))
    for i, setting in enumerate(("central", "local")):
        ax = fig.add_axes((0.01 + 0.5 * i, 0.42, 0.48, 0.47))
        edges = [e for e in data["edges"] if e["setting"] == setting]
        _panel(ax, setting, edges)
        _key(fig, ax, edges)
    handles = [plt.Line2D([], [], color=c, linestyle=s, lw=1.5, label=v) for v, (c, s) in VERDICT_STYLE.items()]
    handles.append(plt.Line2D([], [], color="black", marker=r"$\rightarrow$", ls="none", ms=12,
                              label="implication"))
    handles.append(plt.Line2D([], [], color="black", marker=r"$\dashv$", ls="none", ms=10,
                              label="non-implication"))
    fig.legend(handles=handles, loc="lower center", ncol=6, fontsize=7.5, frameon=False, handlelength=2.2,
               bbox_to_anchor=(0.5, 0.0), columnspacing=1.2)
    fig.suptitle("Zheng et al. 2025, Fig. 3, with the verdicts of relations verify", fontsize=10.5, y=0.995)
    return fig
