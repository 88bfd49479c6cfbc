"""The relation diagram (figure ``relation_diagram``): Zheng et al. 2025, Fig. 3, with the verdicts.

Each setting (central, local) is a layered graph, laid out as :func:`networkx.multipartite_layout` lays it
out (computed here: :func:`diagram_positions`):
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


def diagram_positions(edges: list[dict[str, Any]], *, margin: float = 0.18) -> dict[str, tuple[float, float]]:
    """The nodes' positions in the unit square, a layered layout of the edges' graph.

    The layout of :func:`networkx.multipartite_layout` (``align="horizontal"``), computed here: the nodes of a
    layer evenly spaced and centred on the widest layer, which spans the width less the margins.  It places the
    nodes by their layers alone, so the edges do not move them.  (networkx ordered a layer by a set, by hash, and
    the left node then sat at ``margin`` or one unit in the last place below it by the process's hash seed; and
    importing networkx was a third of a second of every ``relations figures``.)

    Parameters
    ----------
    edges : list of dict
        ``source`` and ``target`` of each edge (one setting).
    margin : float, optional
        The top layer's distance from the left and right edges (0.25 in a narrow panel, so that the
        boxes stay inside).

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
    layers: dict[int, list[str]] = {}
    for node, layer in _LAYERS.items():  # identifiability left of differential privacy, as in the paper
        layers.setdefault(layer, []).append(node)
    widest = max(len(nodes) for nodes in layers.values())
    pos = {}
    for node, layer in _LAYERS.items():
        nodes = layers[layer]
        x = (nodes.index(node) + (widest - len(nodes)) / 2) / (widest - 1 or 1)  # 0, 1 above; 0.5 below
        pos[node] = (margin + (1 - 2 * margin) * x, 0.82 if layer == 0 else 0.14)
    return pos


def _badge_point(ax, a: tuple[float, float], b: tuple[float, float], rad: float) -> tuple[float, float]:
    """The midpoint of matplotlib's ``arc3`` from ``a`` to ``b`` (computed in display space), in data units."""
    (x0, y0), (x1, y1) = ax.transData.transform([a, b])
    cx, cy = (x0 + x1) / 2 + rad * (y1 - y0), (y0 + y1) / 2 - rad * (x1 - x0)
    mx, my = 0.25 * x0 + 0.5 * cx + 0.25 * x1, 0.25 * y0 + 0.5 * cy + 0.25 * y1
    return tuple(ax.transData.inverted().transform((mx, my)))


def _panel(ax, setting: str, edges: list[dict[str, Any]], margin: float = 0.18) -> None:
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_axis_off()
    # the panel's name is part of the diagram (kept without a title), set above its graph
    # (at the left: the arc between the two upper nodes bulges up in the middle)
    ax.text(0.0, 1.0, f"{setting} setting", fontsize=10, ha="left", va="bottom", transform=ax.transAxes)
    pos = diagram_positions(edges, margin=margin)
    boxes = {n: ax.text(x, y, NODE_TEXT[n], ha="center", va="center", fontsize=8.5, zorder=3, linespacing=1.4,
                        bbox={"boxstyle": "round,pad=0.35", "fc": "white", "ec": "black", "lw": 0.8})
             for n, (x, y) in pos.items()}
    for e in edges:
        colour, dash = VERDICT_STYLE.get(e["verdict"], ("grey", "-"))
        a, b = pos[e["source"]], pos[e["target"]]
        # above the boxes (zorder 3): a box places its frame when it is drawn, and the arc is cut at that frame, so
        # the boxes must be drawn first; an arc drawn before them ran from centre to centre and its head lay under
        # the target's box (every saved figure at a fixed --width, drawn only once)
        ax.annotate("", xy=b, xytext=a, zorder=3.5,
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


def _key(fig, ax, edges: list[dict[str, Any]], step: float = _LINE, size: float = 8) -> None:
    """One line per theorem (and per correction, or sharpening of a proved one) under the panel's graph, in the
    verdict's colour."""
    line = 0
    for e in sorted(edges, key=lambda e: int(_number(e))):
        colour = VERDICT_STYLE.get(e["verdict"], ("grey", "-"))[0]
        fig.text(*_corner(ax), f"Thm {_number(e)}: {math(e['label']) if e['kind'] == 'implication' else _non(e)}"
                 f"  [{e['verdict']}]", color=colour, fontsize=size, va="top",
                 transform=_offset(fig, line, step))
        line += 1
        fix = e["corrected"]
        if fix:
            fcol = VERDICT_STYLE.get(fix["verdict"], ("black", "-"))[0]
            word = "sharpened" if e["verdict"] == "proved" else "corrected"  # a proved theorem is only sharpened
            text = f"{word}: {math(fix['label'])}" + (f"  [{fix['verdict']}]" if fix["verdict"] else "")
            # indented by the offset, not by spaces (LaTeX, under --font usetex, drops leading spaces)
            fig.text(*_corner(ax), text, color=fcol, fontsize=size, va="top",
                     transform=_offset(fig, line, step, indent=2 * size))
            line += 1


def _corner(ax) -> tuple[float, float]:
    box = ax.get_position()
    return box.x0, box.y0


def _non(edge: dict[str, Any]) -> str:
    s, t = SYMBOLS[edge["source"]][1:-1], SYMBOLS[edge["target"]][1:-1]
    return f"${s} < \\infty \\;\\nRightarrow\\; {t} < \\infty$"


def _offset(fig, line: int, step: float = _LINE, indent: float = 0.0):
    """Figure coordinates of the panel's lower-left corner, moved down by ``line`` lines of ``step`` points
    and right by ``indent`` points."""
    import matplotlib.transforms as mtransforms

    return fig.transFigure + mtransforms.ScaledTranslation((6 + indent) / 72, -(4 + line * step) / 72,
                                                          fig.dpi_scale_trans)


def _key_lines(edges: list[dict[str, Any]]) -> int:
    return len(edges) + sum(1 for e in edges if e["corrected"])


def draw_relation_diagram(data: dict[str, Any], *, width: float | None = None, title: bool = True) -> Figure:
    """Two layered graphs (central, local) with numbered arcs and, under each, the theorems' formulas.

    Side by side from 6 inches of width (the default is 7.4), stacked below that; the heights are in
    inches (the graph about 0.62 of a panel's width, the key 12.5 pt a line), so nothing overlaps at any
    width from :data:`~relations.figures._style.MIN_WIDTH` up.

    Parameters
    ----------
    data : dict
        :func:`relations.figures._data.relation_diagram_data`.
    width : float or None, optional
        Inches; ``None`` for 7.4.
    title : bool, optional
        The figure's title (Zheng et al. 2025, Fig. 3, with the verdicts); the panels' names stay.

    Returns
    -------
    matplotlib.figure.Figure
    """
    from relations.figures._style import wrap

    plt = setup()
    w = 7.4 if width is None else width
    cols = 2 if w >= 6.0 else 1
    pw = w / cols
    graph = min(2.3, (0.62 if cols == 2 else 0.5) * pw)
    step, size = (_LINE, 8.0) if cols == 2 else (11.0, 7.5)  # a stacked diagram is tall: a denser key
    settings = ("central", "local")
    per = {s: [e for e in data["edges"] if e["setting"] == s] for s in settings}
    key = max(_key_lines(v) for v in per.values()) * step / 72 + 0.12
    head = 0.22  # the panel's name
    ncol = 6 if w >= 6.0 else 3 if w >= 3.4 else 2
    entries = len(VERDICT_STYLE) + 2  # the verdicts, implication and non-implication
    legend = 0.22 * -(-entries // ncol) + 0.08
    text = wrap("Zheng et al. 2025, Fig. 3, with the verdicts of relations verify", w - 0.2, fontsize=10.5)
    top = (0.2 * (text.count("\n") + 1) + 0.1) if title else 0.05
    rows = 2 // cols
    h = top + rows * (head + graph + key) + legend
    fig = plt.figure(figsize=(w, h))
    for i, setting in enumerate(settings):
        col, row = (i, 0) if cols == 2 else (0, i)
        y0 = h - top - row * (head + graph + key) - head - graph  # inches from the bottom
        ax = fig.add_axes((col / cols + 0.01, y0 / h, 1 / cols - 0.02, graph / h))
        _panel(ax, setting, per[setting], 0.18 if pw >= 3.6 else 0.25)
        _key(fig, ax, per[setting], step, size)
    handles = [plt.Line2D([], [], color=c, linestyle=s, lw=1.5, label=v) for v, (c, s) in VERDICT_STYLE.items()]
    handles.append(plt.Line2D([], [], color="black", marker=r"$\rightarrow$", ls="none", ms=12,
                              label="implication"))
    handles.append(plt.Line2D([], [], color="black", marker=r"$\dashv$", ls="none", ms=10,
                              label="non-implication"))
    fig.legend(handles=handles, loc="lower center", ncol=ncol, fontsize=7.5, frameon=False, handlelength=2.2,
               bbox_to_anchor=(0.5, 0.0), columnspacing=1.2)
    if title:
        fig.suptitle(text, fontsize=10.5, y=1 - 0.02 / h, va="top")
    return fig
