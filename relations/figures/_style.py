"""One style for every figure: the colour-blind-safe palette, line styles, fonts, mathtext labels, saving.

Every drawing of :mod:`relations.figures` takes its colours, dashes and markers from here, so the
figures agree with each other and read in greyscale too:

* :data:`PALETTE`: the Okabe-Ito palette (Okabe and Ito 2008), safe for the common colour-vision
  deficiencies; :data:`SERIES` pairs each colour with a dash pattern and a marker.
* :func:`math` turns the tool's ASCII formulas (``eps_m <= 2 eps_d``) into mathtext
  (``$\\varepsilon_m \\leq 2 \\varepsilon_d$``) through :func:`relations.io._exports.latex_math`.
* :func:`setup` sets the fonts and resolution; :func:`render` saves a figure as PNG (300 dpi), PDF or
  SVG without timestamps, so that the same figure gives the same bytes.

Examples
--------
>>> math("eps_i <= eps_d + sigma_min")
'$\\\\varepsilon_i \\\\leq \\\\varepsilon_d + \\\\sigma_{\\\\min}$'
>>> parse_formats("PNG, svg")
('png', 'svg')
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType

from relations.errors import InputError
from relations.notions import NOTIONS, mathtext

__all__ = ["PALETTE", "SERIES", "VERDICT_STYLE", "SYMBOLS", "FORMATS", "DPI", "setup", "use_style", "math",
           "series", "parse_formats", "render"]

#: Okabe-Ito: black, orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple.
PALETTE = ("#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")
#: The n-th line of a plot: colour, dash pattern and marker (the yellow is left out: too light on white).
SERIES = (
    {"color": "#000000", "linestyle": "-", "marker": "o"},
    {"color": "#D55E00", "linestyle": "--", "marker": "s"},
    {"color": "#0072B2", "linestyle": "-.", "marker": "^"},
    {"color": "#009E73", "linestyle": ":", "marker": "D"},
    {"color": "#CC79A7", "linestyle": (0, (5, 1.5, 1, 1.5, 1, 1.5)), "marker": "v"},
    {"color": "#E69F00", "linestyle": (0, (8, 2)), "marker": "P"},
    {"color": "#56B4E9", "linestyle": (0, (1, 1)), "marker": "X"},
)
#: Colour and dash of an arrow by its verdict in ``relations verify``.
VERDICT_STYLE = {"proved": ("#009E73", "-"), "holds-bounded": ("#0072B2", "-"), "unrefuted": ("#E69F00", "--"),
                 "refuted": ("#D55E00", ":")}
#: Mathtext of the quantities.
SYMBOLS = {**{name: mathtext(name) for name in NOTIONS}, "neg_sigma_min": mathtext("neg_sigma"),
           "I": r"$I(X;Y)$", "H": r"$H(X)$", "eps": r"$\varepsilon$"}
#: The image formats :func:`render` writes.
FORMATS = ("png", "pdf", "svg")
#: The resolution of PNG files.
DPI = 300

_RC: dict[RcKeyType, Any]
_RC = {"figure.dpi": 100, "savefig.dpi": DPI, "font.size": 9, "axes.titlesize": 10, "axes.labelsize": 9,
       "legend.fontsize": 8, "xtick.labelsize": 8, "ytick.labelsize": 8, "legend.framealpha": 0.92,
       "legend.edgecolor": "0.8", "lines.linewidth": 1.6, "lines.markersize": 4.5, "axes.grid": True,
       "grid.alpha": 0.3, "grid.linewidth": 0.5, "mathtext.fontset": "dejavusans", "svg.hashsalt": "relations",
       "svg.fonttype": "path", "pdf.fonttype": 42, "path.simplify": False, "savefig.bbox": "tight",
       "savefig.pad_inches": 0.05, "axes.spines.top": False, "axes.spines.right": False}
_MATHTEXT = {r"\not\Rightarrow": r"\nRightarrow", r"\le ": r"\leq ", r"\ge ": r"\geq ", r"\frac{1}{100000}": r"10^{-5}", "100000": "10^{5}"}


def setup() -> Any:
    """``matplotlib.pyplot`` on the Agg backend with this module's fonts, resolution and defaults.

    Returns
    -------
    module
        ``matplotlib.pyplot``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    use_style()
    return plt


def use_style() -> None:
    """Give your own matplotlib plots the figures' style: fonts, sizes, grid, and the palette as colour cycle.

    Only ``matplotlib.rcParams`` change (the backend does not), so it works in a notebook with
    ``%matplotlib inline`` as well as in a script.

    Examples
    --------
    >>> import matplotlib
    >>> use_style()
    >>> matplotlib.rcParams["axes.prop_cycle"].by_key()["color"][:2]
    ['#000000', '#D55E00']
    """
    import matplotlib
    from matplotlib.rcsetup import cycler  # matplotlib.cycler, which its stub does not declare

    matplotlib.rcParams.update(_RC)
    matplotlib.rcParams["axes.prop_cycle"] = cycler(color=[s["color"] for s in SERIES])


def math(text: str) -> str:
    """A formula of the tool (``eps_m <= 2 eps_d``) as mathtext between ``$``.

    Parameters
    ----------
    text : str
        A notion, relation or exact value as the catalogue and ``relations measure`` write it.

    Returns
    -------
    str
        ``$...$`` that matplotlib's mathtext renders (``\\le`` as ``\\leq``, ``1/100000`` as ``10^{-5}``).
    """
    from relations.io._exports import latex_math

    body = latex_math(text) + " "
    for old, new in _MATHTEXT.items():
        body = body.replace(old, new)
    return "$" + body.strip() + "$"


def series(i: int, **overrides: Any) -> dict[str, Any]:
    """Keyword arguments of ``Axes.plot`` for the ``i``-th line: colour, dash, marker.

    Parameters
    ----------
    i : int
        The index into :data:`SERIES` (cyclic).
    **overrides
        Replacements (``marker=None`` for a line without markers).

    Returns
    -------
    dict
    """
    style = dict(SERIES[i % len(SERIES)])
    style.update(overrides)
    return {k: v for k, v in style.items() if v is not None}


def parse_formats(text: str | Sequence[str]) -> tuple[str, ...]:
    """The image formats named in ``text`` (``"png,pdf"``; ``"all"`` for :data:`FORMATS`), in order.

    Parameters
    ----------
    text : str or sequence of str
        Comma-separated names, case-insensitive.

    Returns
    -------
    tuple of str

    Raises
    ------
    InputError
        A name that is not one of :data:`FORMATS`, or none at all.
    """
    parts = text.split(",") if isinstance(text, str) else [p for t in text for p in t.split(",")]
    names: list[str] = []
    for part in (p.strip().lower() for p in parts):
        if part == "all":
            names.extend(FORMATS)
        elif part in FORMATS:
            names.append(part)
        elif part:
            raise InputError(f"--format: unknown image format {part!r} (png, pdf, svg, comma-separated, or all)")
    if not names:
        raise InputError("--format: no image format given (png, pdf, svg, comma-separated, or all)")
    return tuple(dict.fromkeys(names))


def render(fig: Figure, fmt: str) -> bytes:
    """The bytes of ``fig`` as ``fmt`` (PNG at :data:`DPI` dpi, vector PDF or SVG), without timestamps.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    fmt : str
        One of :data:`FORMATS`.

    Returns
    -------
    bytes
    """
    metadata: dict[str, Any] = {"png": {"Software": None}, "pdf": {"Creator": None, "Producer": None,
                                                                    "CreationDate": None},
                                "svg": {"Date": None, "Creator": None}}[fmt]
    import logging

    logging.getLogger("fontTools").setLevel(logging.ERROR)  # 'timestamp seems very low' of a reproducible PDF
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, metadata=metadata, dpi=DPI)
    return buf.getvalue()
