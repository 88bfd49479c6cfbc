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

import functools
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType

from relations.errors import InputError
from relations.notions import NOTIONS, mathtext

__all__ = ["PALETTE", "SERIES", "VERDICT_STYLE", "SYMBOLS", "FORMATS", "DPI", "WIDTHS", "MIN_WIDTH", "MAX_WIDTH",
           "FONTS", "setup", "use_style", "math", "series", "parse_formats", "parse_width", "parse_font",
           "check_usetex", "wrap", "render"]

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
#: The named widths of ``--width``, in inches.  ``column``: one column of a two-column paper, IEEEtran's
#: ``\columnwidth`` of 21 pc = 252 pt = 3.49 in (acmart's sigconf has 241 pt = 3.33 in: scale by 0.95);
#: ``text``: the text width of a one-column paper on US letter with 1-inch margins (article with
#: ``geometry``'s ``margin=1in``: 8.5 - 2 = 6.5 in; IEEEtran's full width is 43 pc = 7.16 in, LNCS's 12.2 cm
#: = 4.8 in).  Fonts keep their size in points, so a figure included at its own width has 8-9 pt text.
WIDTHS = {"column": 3.5, "text": 6.5}
#: The narrowest and widest ``--width`` in inches (narrower cannot hold the relation diagram's key or the
#: legends at 7.5-8 pt; wider is a poster).
MIN_WIDTH, MAX_WIDTH = 3.0, 12.0
#: The fonts of ``--font``: ``sans`` (DejaVu Sans, the default), ``serif`` (STIX, a Times-like serif, with
#: STIX mathtext) and ``usetex`` (LaTeX itself sets every text: Computer Modern, as in the paper).
FONTS = ("sans", "serif", "usetex")

_RC: dict[RcKeyType, Any]
_RC = {"figure.dpi": 100, "savefig.dpi": DPI, "font.size": 9, "axes.titlesize": 10, "axes.labelsize": 9,
       "legend.fontsize": 8, "xtick.labelsize": 8, "ytick.labelsize": 8, "legend.framealpha": 0.92,
       "legend.edgecolor": "0.8", "lines.linewidth": 1.6, "lines.markersize": 4.5, "axes.grid": True,
       "grid.alpha": 0.3, "grid.linewidth": 0.5, "mathtext.fontset": "dejavusans", "svg.hashsalt": "relations",
       "svg.fonttype": "path", "pdf.fonttype": 42, "path.simplify": False, "savefig.bbox": "tight",
       "savefig.pad_inches": 0.05, "axes.spines.top": False, "axes.spines.right": False}
_FONT_RC: dict[str, dict[RcKeyType, Any]] = {
    "sans": {"font.family": "sans-serif", "mathtext.fontset": "dejavusans", "text.usetex": False},
    "serif": {"font.family": "serif", "font.serif": ["STIXGeneral", "DejaVu Serif"], "mathtext.fontset": "stix",
              "text.usetex": False},
    # LaTeX's own Computer Modern for serif text and math; each generic family named by a font LaTeX has without
    # cm-super (matplotlib otherwise demands cm-super for its Computer Modern families)
    "usetex": {"font.family": "serif", "font.serif": ["DejaVu Serif", "serif"], "font.sans-serif": ["helvetica"],
               "font.monospace": ["courier"], "font.cursive": ["zapf chancery"], "text.usetex": True,
               "text.latex.preamble": r"\usepackage{amsmath}\usepackage{amssymb}"},
}
#: The rcParams the usetex font changes that the other fonts restore to matplotlib's defaults.
_RESTORE: tuple[RcKeyType, ...] = ("font.serif", "font.sans-serif", "font.monospace", "font.cursive", "text.latex.preamble")
_MATHTEXT = {r"\not\Rightarrow": r"\nRightarrow", r"\le ": r"\leq ", r"\ge ": r"\geq ", r"\frac{1}{100000}": r"10^{-5}", "100000": "10^{5}"}


def setup(*, font: str | None = None) -> Any:
    """``matplotlib.pyplot`` on the Agg backend with this module's fonts, resolution and defaults.

    Parameters
    ----------
    font : str or None, optional
        One of :data:`FONTS`; ``None`` keeps the font already set (by :func:`use_style`, or ``sans``).

    Returns
    -------
    module
        ``matplotlib.pyplot``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    use_style(font=font or _current_font())
    return plt


#: How many parsed mathtext strings :func:`_share_mathtext_parses` keeps (a figure has up to about 100 labels,
#: each parsed at one or two resolutions; ``relations figures`` parses about 340 different ones).
_PARSES_KEPT = 1024


def _share_mathtext_parses() -> None:
    """Keep matplotlib's parsed mathtext across renderers, and more of it: the same bytes for less CPU.

    matplotlib caches a parse (``MathTextParser._parse_cached``) in one small cache (50 entries) keyed by the parser,
    and every renderer makes a parser of its own: each ``savefig`` (one for each format, twice with a tight box) and
    each canvas drawn parsed every label again (pyparsing), more than half of the figures' drawing time.  Here the
    parse is cached by what it depends on: the parser's output type (vector or raster), matplotlib's arguments
    (string, dpi, font properties, antialiasing, hinting) and the rcParams the parser reads (``mathtext.*``,
    ``font.*``, the hinting), in a cache of :data:`_PARSES_KEPT` parses; what it returns is what matplotlib's own
    cache returns (read, never changed, by the renderers).  A matplotlib without that private method (or with
    another output type) keeps its own cache.  Installed once per process, by :func:`use_style` (and so :func:`setup`)."""
    import functools

    import matplotlib
    from matplotlib.mathtext import MathTextParser

    own = MathTextParser.__dict__.get("_parse_cached")
    parse = getattr(own, "__wrapped__", None)
    if own is None or getattr(own, "_relations_shared", False) or parse is None:
        return
    rc_keys = tuple(sorted(k for k in matplotlib.rcParams if k.startswith(("mathtext.", "font.", "text.hinting"))))
    parsers = {"vector": MathTextParser("path"), "raster": MathTextParser("agg")}

    @functools.lru_cache(maxsize=_PARSES_KEPT)
    def shared(output_type: str, rc: tuple, *args: Any) -> Any:
        return parse(parsers[output_type], *args)

    def parse_cached(self: Any, *args: Any, **kwargs: Any) -> Any:
        output_type = getattr(self, "_output_type", None)
        if output_type not in parsers or kwargs:
            return own(self, *args, **kwargs)
        rc = matplotlib.rcParams
        return shared(output_type, tuple(_frozen(rc[k]) for k in rc_keys), *args)

    parse_cached._relations_shared = True  # type: ignore[attr-defined]
    parse_cached.matplotlib_own = own  # type: ignore[attr-defined]
    parse_cached.cache_info = shared.cache_info  # type: ignore[attr-defined]
    setattr(MathTextParser, "_parse_cached", parse_cached)  # noqa: B010 (not in matplotlib's stubs)


def _frozen(value: Any) -> Any:
    """``value`` hashable: a list of rcParams as a tuple."""
    return tuple(value) if isinstance(value, list) else value


def _current_font() -> str:
    import matplotlib

    if matplotlib.rcParams["text.usetex"]:
        return "usetex"
    return "serif" if matplotlib.rcParams["font.family"] == ["serif"] else "sans"


def use_style(*, font: str = "sans") -> None:
    """Give your own matplotlib plots the figures' style: fonts, sizes, grid, and the palette as colour cycle.

    Only ``matplotlib.rcParams`` change (the backend does not), so it works in a notebook with
    ``%matplotlib inline`` as well as in a script; and matplotlib keeps its parsed mathtext labels from one
    renderer to the next (the same pictures, drawn for less CPU: :func:`_share_mathtext_parses`).

    Parameters
    ----------
    font : str, optional
        One of :data:`FONTS`: ``sans`` (default), ``serif`` (STIX text and math, close to Times) or
        ``usetex`` (LaTeX sets the text; needs ``latex``, and ``dvipng`` for PNG: see :func:`check_usetex`).

    Raises
    ------
    InputError
        An unknown ``font``.

    Examples
    --------
    >>> import matplotlib
    >>> use_style()
    >>> matplotlib.rcParams["axes.prop_cycle"].by_key()["color"][:2]
    ['#000000', '#D55E00']
    >>> use_style(font="serif"); matplotlib.rcParams["font.family"], matplotlib.rcParams["mathtext.fontset"]
    (['serif'], 'stix')
    >>> use_style()
    """
    import matplotlib
    from matplotlib.rcsetup import cycler  # matplotlib.cycler, which its stub does not declare

    matplotlib.rcParams.update(_RC)
    matplotlib.rcParams.update({k: matplotlib.rcParamsDefault[k] for k in _RESTORE})
    matplotlib.rcParams.update(_FONT_RC[parse_font(font)])
    matplotlib.rcParams["axes.prop_cycle"] = cycler(color=[s["color"] for s in SERIES])
    _share_mathtext_parses()


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


def parse_width(text: str | float | None) -> float | None:
    """The width in inches of ``--width``: ``column`` or ``text`` (:data:`WIDTHS`) or a number of inches.

    Parameters
    ----------
    text : str or float or None
        ``None`` (or ``""``) keeps each figure's own size.

    Returns
    -------
    float or None

    Raises
    ------
    InputError
        Not a name of :data:`WIDTHS` nor a number from :data:`MIN_WIDTH` to :data:`MAX_WIDTH`.

    Examples
    --------
    >>> parse_width("column"), parse_width("TEXT"), parse_width("5.5"), parse_width(None)
    (3.5, 6.5, 5.5, None)
    """
    if text is None or text == "":
        return None
    if isinstance(text, str) and text.strip().lower() in WIDTHS:
        return WIDTHS[text.strip().lower()]
    try:
        inches = float(text)
    except ValueError:
        inches = float("nan")
    if not MIN_WIDTH <= inches <= MAX_WIDTH:  # also NaN and inf
        raise InputError(f"--width: {text!r} is neither column ({WIDTHS['column']} in), text ({WIDTHS['text']} in) "
                         f"nor a number of inches from {MIN_WIDTH:g} to {MAX_WIDTH:g}")
    return inches


def parse_font(text: str) -> str:
    """The font of ``--font``, one of :data:`FONTS` (case-insensitive).

    Raises
    ------
    InputError
        Any other name.
    """
    name = str(text).strip().lower()
    if name not in FONTS:
        raise InputError(f"--font: unknown font {text!r} ({', '.join(FONTS)})")
    return name


def check_usetex(formats: Sequence[str]) -> None:
    """Fail early, in one line, when ``--font usetex`` cannot work.

    matplotlib's ``text.usetex`` runs ``latex`` with the ``type1cm`` package (TeX Live's
    ``texlive-latex-extra``; the ``type1cm`` package of MiKTeX), finds fonts with ``kpsewhich``, and
    turns the DVI into PNG with ``dvipng`` (PDF and SVG need no converter).  Ghostscript is needed only
    for PostScript, which :func:`render` does not write.

    Parameters
    ----------
    formats : sequence of str
        The image formats to be written.

    Raises
    ------
    InputError
        A program missing from ``PATH`` or ``type1cm.sty`` missing from TeX, named with what needs it.
    """
    import shutil
    import subprocess

    needed = ["latex", "kpsewhich"] + (["dvipng"] if "png" in formats else [])
    missing = [p for p in needed if shutil.which(p) is None]
    if not missing:
        try:
            found = subprocess.run(["kpsewhich", "type1cm.sty"], capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            found = ""
        if not found.strip():
            missing = ["the LaTeX package type1cm"]
    if missing:
        raise InputError(f"--font usetex: {' and '.join(missing)} not found (matplotlib's LaTeX text needs latex, "
                         "kpsewhich and type1cm, and dvipng for PNG; install them, e.g. TeX Live's "
                         "texlive-latex-extra and dvipng, or use --font serif)")


def wrap(text: str, width: float, *, fontsize: float = 8.0) -> str:
    """``text`` broken at spaces outside ``$...$`` into lines at most ``width`` inches wide at ``fontsize`` points.

    A citation's ``Thm 11``, ``Prop. 3`` and ``Zheng et al.`` are never broken.

    Lines are measured with matplotlib's own text layout (mathtext included); a word wider than ``width``
    stays whole on its line.  A line is taken as the sum of its words' widths and spaces when that sum is
    clearly within or beyond ``width`` (by :data:`_SLACK` for each space), and measured whole otherwise: the
    breaks of measuring every line whole, for a parse of each word rather than of each longer line.

    Parameters
    ----------
    text : str
        A label; existing line breaks are kept.
    width : float
        Inches.
    fontsize : float, optional
        Points.

    Returns
    -------
    str

    Examples
    --------
    >>> print(wrap("the information $I(X;Y)$ of the channel", 1.2))
    the information $I(X;Y)$
    of the channel
    """
    out = []
    space = _width("a b", fontsize) - _width("a", fontsize) - _width("b", fontsize)
    for paragraph in text.split("\n"):
        line, guess, joins = "", 0.0, 0
        for word in _words(paragraph):
            if not line:
                line, guess, joins = word, _width(word, fontsize), 0
                continue
            trial, tried = f"{line} {word}", guess + space + _width(word, fontsize)
            if abs(tried - width) <= _SLACK * (joins + 1):  # too close to call on the sum: measured whole
                tried, joins = _width(trial, fontsize), -1
            if tried > width:
                out.append(line)
                line, guess, joins = word, _width(word, fontsize), 0
            else:
                line, guess, joins = trial, tried, joins + 1
        out.append(line)
    return "\n".join(out)


def _words(text: str) -> list[str]:
    """The words of ``text``, a ``$...$`` span counting as part of its word."""
    words, cur, inside = [], "", False
    for ch in text:
        if ch == "$":
            inside = not inside
        if ch == " " and not inside:
            if cur:
                words.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        words.append(cur)
    glued: list[str] = []  # "Thm 11", "Prop. 3", "Zheng et al." stay on one line
    for word in words:
        if glued and (glued[-1].split(" ")[-1].lstrip("(") in _GLUE or word == "et"):
            glued[-1] += " " + word
        else:
            glued.append(word)
    return glued


_GLUE = {"Thm", "Prop.", "Lemma", "Cor.", "eq.", "et"}

#: How far (inches, per space joined) a line's width may be from the sum of its words' widths and spaces, as
#: :func:`wrap` takes it: kerning across a space and mathtext's own spacing; at most 0.21 pt measured in the sans
#: font and 0.54 pt in the serif (STIX) one over every label of the figures.  A line whose sum is nearer the width
#: than this is measured whole.
_SLACK = 1.5 / 72


def _width(text: str, fontsize: float) -> float:
    """The width in inches of one line of ``text`` in mathtext at ``fontsize`` (the current font).

    Kept (:data:`_WIDTHS_KEPT` of them) by what it depends on: the text, the size and the rcParams of the fonts,
    mathtext and text (as the shared parses of :func:`_share_mathtext_parses`): :func:`wrap` measures the same
    words and spaces in every label and at every width."""
    import matplotlib

    rc = matplotlib.rcParams
    return _measured(text, fontsize, tuple(_frozen(rc[k]) for k in _width_rc_keys()))


#: How many widths :func:`_width` keeps (the figures measure about 300 different words and lines).
_WIDTHS_KEPT = 4096


@functools.cache
def _width_rc_keys() -> tuple[RcKeyType, ...]:
    import matplotlib

    return tuple(sorted(k for k in matplotlib.rcParams if k.startswith(("mathtext.", "font.", "text."))))


@functools.lru_cache(maxsize=_WIDTHS_KEPT)
def _measured(text: str, fontsize: float, rc: tuple) -> float:
    """:func:`_width` measured (``rc``: the rcParams it depends on, as a key)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path  # matplotlib's shared instance: its parsed-mathtext cache is kept

    prop = FontProperties(size=fontsize)
    ismath = text.count("$") >= 2 and text.count("$") % 2 == 0
    w, _, _ = text_to_path.get_text_width_height_descent(text, prop, ismath=ismath)
    return w / 72


def render(fig: Figure, fmt: str, *, tight: bool = True) -> bytes:
    """The bytes of ``fig`` as ``fmt`` (PNG at :data:`DPI` dpi, vector PDF or SVG), without timestamps.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    fmt : str
        One of :data:`FORMATS`.
    tight : bool, optional
        Crop to the drawn content (the default); ``False`` keeps the figure's size exactly (``--width``).

    Returns
    -------
    bytes
    """
    metadata: dict[str, Any] = {"png": {"Software": None}, "pdf": {"Creator": None, "Producer": None,
                                                                    "CreationDate": None},
                                "svg": {"Date": None, "Creator": None}}[fmt]
    import logging

    logging.getLogger("fontTools").setLevel(logging.ERROR)  # 'timestamp seems very low' of a reproducible PDF
    import matplotlib

    buf = io.BytesIO()
    with matplotlib.rc_context({"savefig.bbox": "tight" if tight else "standard"}):
        fig.savefig(buf, format=fmt, metadata=metadata, dpi=DPI)
    return buf.getvalue()
