"""Figures fit for a paper: valid PNG (300 dpi), PDF and SVG; one colour-blind-safe palette; mathtext
symbols; a relation diagram whose labels neither overlap nor leave the figure; finely sampled curves."""

from __future__ import annotations

import io
import itertools
import json
import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from relations import figures
from relations.errors import InputError
from relations.figures import _style as style
from relations.figures._conversions import conversion_frontiers_data
from relations.figures._diagram import draw_relation_diagram

GREYS = {"grey", "gray", "black", "white", "#000000"}


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    path = tmp_path_factory.mktemp("verdicts") / "verdicts.json"
    rows = [{"id": f"zheng2025.thm{i}", "verdict": "refuted" if i in (2, 4, 5, 9) else "proved"} for i in range(1, 13)]
    rows += [{"id": f"relations.thm{i}_corrected", "verdict": "proved"} for i in (2, 4, 5, 9)]
    rows += [{"id": "relations.thm11_sharp", "verdict": "proved"}, {"id": "relations.thm7_sharp", "verdict": "proved"}]
    path.write_text(json.dumps(rows))
    return str(path)


def small_data(name: str, verdicts: str):
    """Each figure's data on a short grid (the drawing is the same code as for the full grid)."""
    return {
        "relation_diagram": lambda: figures.relation_diagram_data(verdicts),
        "prior_skew": lambda: figures.prior_skew_data(points=20),
        "krr_information": lambda: figures.krr_information_data(4, [Fraction(1), Fraction(2), Fraction(5), Fraction(15)]),
        "central_records": lambda: figures.central_records_data(Fraction(3), range(1, 20)),
        "symmetric_channel": lambda: figures.symmetric_channel_data(7, [Fraction(i, 20) for i in range(1, 18)]),
        "privacy_distortion": lambda: figures.privacy_distortion_data(budgets=[0.3, 0.8, 1.5, 2.0, 3.0]),
        "conversion_frontiers": lambda: conversion_frontiers_data(points=24),
    }[name]()


def colour(c) -> str:
    import matplotlib.colors as mcolors

    hexed = mcolors.to_hex(c).upper()
    return "grey" if hexed == "#808080" else hexed


#: Rendered to PNG, PDF and SVG in the default suite (every figure in the slow one); the relation diagram's three
#: files are checked by :func:`check_bytes` in tests/test_figures.py, as ``relations figures`` writes them.
RENDERED = ("prior_skew",)


@pytest.fixture(scope="module")
def figure(verdicts):
    """``figure(name, width, title=...)``: that figure drawn (in the sans font) on its short-grid data once per
    module and shared by the tests that read it, each of which does what it checks itself (draws the canvas,
    renders the file); drawing is most of the cost (up to 2.5 s of CPU for one figure)."""
    import copy

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    data: dict[str, dict] = {}
    made: dict[tuple, object] = {}

    def get(name: str, width: float | None = None, *, title: bool = True):
        key = (name, width, title)
        if key not in made:
            if name not in data:
                data[name] = small_data(name, verdicts)
            plt = style.setup(font="sans")
            made[key] = fig = figures.FIGURES[name][1](copy.deepcopy(data[name]), width=width, title=title)
            plt.close(fig)  # out of pyplot's list of open figures (at most 20 without a warning) ...
            FigureCanvasAgg(fig)  # ... on the Agg canvas it was drawn on (closing left a bare FigureCanvasBase)
        return made[key]

    return get


@pytest.fixture(scope="module")
def drawn(figure):
    return {name: figure(name) for name in figures.FIGURES}


def check_files(fig) -> None:
    check_bytes({fmt: style.render(fig, fmt) for fmt in style.FORMATS})


def check_bytes(files: dict[str, bytes]) -> None:
    """``files`` (format: bytes) are a valid PNG at 300 dpi at least 3 inches on a side, PDF and SVG, undated."""
    from PIL import Image

    assert sorted(files) == sorted(style.FORMATS)
    png = files["png"]
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(png)) as img:
        assert [round(v) for v in img.info["dpi"]] == [300, 300]
        assert min(img.size) > 900  # a 3-inch side at 300 dpi
    assert files["pdf"][:5] == b"%PDF-" and files["pdf"].rstrip().endswith(b"%%EOF")
    assert b"CreationDate" not in files["pdf"]
    root = ET.fromstring(files["svg"])
    assert root.tag.endswith("svg") and b"<dc:date>" not in files["svg"]


@pytest.mark.parametrize("name", RENDERED)
def test_figures_are_valid_png_pdf_svg(drawn, name):
    check_files(drawn[name])


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in figures.FIGURES if n not in RENDERED])
def test_every_figure_is_valid_png_pdf_svg(drawn, name):
    check_files(drawn[name])


@pytest.mark.parametrize("name", list(figures.FIGURES))
def test_every_line_uses_the_colour_blind_safe_palette(drawn, name):
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch

    fig = drawn[name]
    palette = {c.upper() for c in style.PALETTE}
    colours = {colour(line.get_color()) for ax in fig.axes for line in ax.get_lines()}
    colours |= {colour(h.get_color()) for legend in fig.legends for h in legend.legend_handles
                if isinstance(h, Line2D)}
    colours |= {colour(p.get_edgecolor()) for p in fig.findobj(FancyArrowPatch)}
    colours -= {"grey", "#000000", "#FFFFFF"}
    assert colours and colours <= palette, colours - palette


@pytest.mark.parametrize("name", list(figures.FIGURES))
def test_labels_use_mathtext_symbols_not_ascii(drawn, name):
    fig = drawn[name]
    texts = [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]
    for ax in fig.axes:
        texts += [ax.get_xlabel(), ax.get_ylabel(), ax.get_title()]
        legend = ax.get_legend()
        texts += [t.get_text() for t in legend.get_texts()] if legend else []
    joined = re.sub(r"[a-z]+[0-9]*\.[a-z0-9_]+", "", "\n".join(texts))  # catalogue ids such as kov2017.dp_eps_delta
    assert r"\varepsilon" in joined or "$I(X;Y)$" in joined
    for ascii_name in ("eps_i", "eps_d", "eps_m", "sigma_min", "<=", "eps-", "eps "):
        assert ascii_name not in joined, ascii_name


@pytest.mark.parametrize("width", [None, style.MIN_WIDTH, style.WIDTHS["column"], 5.99, 6.0, style.WIDTHS["text"]])
def test_relation_diagram_labels_neither_overlap_nor_leave_the_figure(figure, width):
    style.setup(font="sans")
    fig = figure("relation_diagram", width)  # draw_relation_diagram(relation_diagram_data(verdicts), width=width)
    fig.draw_without_rendering()  # laid out and every text placed as a draw places it, no pixels (a third of the CPU)
    renderer = fig.canvas.get_renderer()
    page = fig.bbox
    boxes = []
    texts = [*fig.texts, *(t for ax in fig.axes for t in (ax.title, *ax.texts)),
             *(t for legend in fig.legends for t in legend.get_texts())]
    for text in texts:
        if not text.get_text().strip() or not text.get_visible():
            continue
        patch = text.get_bbox_patch() if hasattr(text, "get_bbox_patch") else None
        box = patch.get_window_extent(renderer) if patch is not None else text.get_window_extent(renderer)
        assert page.x0 <= box.x0 and box.x1 <= page.x1 and page.y0 <= box.y0 and box.y1 <= page.y1, \
            text.get_text()
        boxes.append((text.get_text(), box))
    assert len(boxes) >= 6 + 12 + 12  # nodes, badges, key lines
    for (ta, a), (tb, b) in itertools.combinations(boxes, 2):
        assert not a.overlaps(b), (ta, tb)
    assert any(r"\varepsilon_m" in t for t, _ in boxes)


def test_curves_are_sampled_finely():
    krr = figures.krr_information_data()
    assert len(krr["eps_d"]) >= 300
    assert len(figures.prior_skew_data()["p0"]) >= 300
    assert len(figures.symmetric_channel_data()["D"]) >= 300
    assert len(conversion_frontiers_data()["eps"]) >= 300
    gaps = [b - a for a, b in zip(krr["eps_d"], krr["eps_d"][1:])]
    assert max(gaps) < 0.02 and min(gaps) > 0  # ordered, no jumps


def test_math_turns_catalogue_formulas_into_mathtext():
    assert style.math("eps_m <= 2(eps_i - sigma_min)") == r"$\varepsilon_m \leq 2 (\varepsilon_i - \sigma_{\min})$"
    assert r"\nRightarrow" in style.math("eps_m < inf  =/=>  eps_i < inf")
    assert "10^{-5}" in style.math("eps_delta(1/100000) <= rho + 2 sqrt(rho ln(100000))")
    assert style.parse_formats("all") == style.FORMATS
    with pytest.raises(InputError):
        style.parse_formats("gif")



# at the default width and the narrowest (where the legends wrap most) in the default run, sharing the figures the
# tests above and below draw; at the default and the column width, as tests/test_figures.py had it, in the slow tier
@pytest.mark.parametrize("widths", [(None, style.MIN_WIDTH),
                                    pytest.param((None, style.WIDTHS["column"]), marks=pytest.mark.slow)])
def test_legends_and_texts_carry_no_catalogue_ids(figure, tmp_path, widths):
    """Every figure's legends cite authors and years, never a catalogue id such as ``relations.thm11_sharp``.

    The relation diagram is drawn here on verdicts that prove every theorem of the paper; the other figures do not
    read verdicts."""
    from relations.catalogue._entries import CATALOGUE

    verdicts = [{"id": r.id, "verdict": "proved"} for r in CATALOGUE if r.id.startswith("zheng2025.thm")]
    path = tmp_path / "verdicts.json"
    path.write_text(json.dumps(verdicts))
    ids = [r.id for r in CATALOGUE]
    plt = style.setup(font="sans")
    cited = []
    for name in figures.FIGURES:
        for width in widths:
            if name == "relation_diagram":
                fig = draw_relation_diagram(figures.relation_diagram_data(str(path)), width=width)
                plt.close(fig)
            else:
                fig = figure(name, width)
            texts = [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text") and hasattr(a, "get_position"))]
            joined = "\n".join(texts)
            assert not [i for i in ids if i in joined], name
            assert not re.search(r"\b(relations|zheng2025|[a-z]+20\d\d)\.[a-z0-9_]+", joined), name
            cited += [t for t in texts if re.search(r"(et al\.|and [A-Z][a-z]+|[A-Z][a-z]+) (19|20)\d\d", t)]
    assert any("Zheng et al. 2025, Thm 11" in t for t in cited)
    assert any("Kairouz et al. 2017" in t for t in cited) and any("Cuff and Yu 2016" in t for t in cited)


# ------------------------------------------------------------------ paper options: width, title, font


def _texts_inside(fig) -> list[str]:
    """What is drawn outside ``fig`` (its tight box, in inches, beyond the figure's own), after layout (a draw that
    places every artist as ``canvas.draw()`` does, at the figure's dpi, without rasterizing it)."""
    fig.draw_without_rendering()
    box = fig.get_tightbbox(fig.canvas.get_renderer())
    w, h = fig.get_size_inches()
    tol = 0.01
    return [side for side, out in (("left", box.x0 < -tol), ("bottom", box.y0 < -tol), ("right", box.x1 > w + tol),
                                   ("top", box.y1 > h + tol)) if out]


# the default run: the narrowest width with the titles, and the text width (two panels side by side) without them
# (as a paper sets it, under a caption; the figure test_no_title_removes_every_title reads), each figure drawn, and
# rendered at 300 dpi for the pairs of _PNG_DEFAULT; the slow tier: the column width and 4.2 inches, between them,
# and the text width, with the titles (a title inside the figure is checked in the default run at the narrowest
# width, where it is hardest), each rendered, and test_every_png_is_as_wide_as_asked renders the other default pairs
WIDTH_CASES = [(style.MIN_WIDTH, True), pytest.param(style.WIDTHS["column"], True, marks=pytest.mark.slow),
               pytest.param(4.2, True, marks=pytest.mark.slow), (style.WIDTHS["text"], False),
               pytest.param(style.WIDTHS["text"], True, marks=pytest.mark.slow)]
#: The default run's (figure, width) pairs whose PNG test_width_sets_... renders, one at each default width: a PNG
#: saved at a width (``render(..., tight=False)``) is never cropped whatever the figure, and rendering at 300 dpi
#: was a third of the test's CPU; the slow tier renders every figure at every width.
_PNG_DEFAULT = {("prior_skew", style.MIN_WIDTH), ("symmetric_channel", style.WIDTHS["text"])}


@pytest.mark.parametrize("inches,title", WIDTH_CASES)
@pytest.mark.parametrize("name", list(figures.FIGURES))
def test_width_sets_the_saved_width_in_inches_and_nothing_is_cut(request, figure, name, inches, title):
    """At ``width=W`` the figure is W inches wide, its height follows the width, every text lies inside the figure,
    and its PNG is W * 300 pixels wide and its height * 300 high (not cropped: :func:`_check_png`)."""
    style.setup(font="sans")
    fig = figure(name, inches, title=title)
    assert fig.get_figwidth() == pytest.approx(inches)
    assert not _texts_inside(fig), name
    height = fig.get_figheight()
    # a plotting area of about 0.62 of a panel's width (0.33 for four stacked panels) plus the labels: never
    # flatter than 0.45 of a panel's width (two panels side by side from 5 inches) nor taller than a page
    across = 2 if name in ("symmetric_channel", "conversion_frontiers") and inches >= 5 or inches >= 6 else 1
    assert 0.45 * inches / across < height < 11.0, (name, height)
    if (name, inches) in _PNG_DEFAULT or request.node.get_closest_marker("slow"):
        _check_png(fig, inches)


@pytest.mark.slow
@pytest.mark.parametrize("inches,title", [(style.MIN_WIDTH, True), (style.WIDTHS["text"], False)])
@pytest.mark.parametrize("name", list(figures.FIGURES))
def test_every_png_is_as_wide_as_asked(figure, name, inches, title):
    """The PNG of every figure at the default run's widths (test_width_sets_... renders those of _PNG_DEFAULT)."""
    style.setup(font="sans")
    _check_png(figure(name, inches, title=title), inches)


def _check_png(fig, inches: float) -> None:
    """``fig`` saved as PNG at its width (:func:`render` with ``tight=False``) is ``inches * 300`` pixels wide and
    its height * 300 high: not cropped."""
    from PIL import Image

    with Image.open(io.BytesIO(style.render(fig, "png", tight=False))) as img:
        assert abs(img.size[0] - inches * style.DPI) <= 1
        assert abs(img.size[1] - fig.get_figheight() * style.DPI) <= 1, (img.size, fig.get_figheight())


def test_heights_follow_the_width(figure):
    """A single plot's height grows with its width; a column figure is taller than wide at most by its legend."""
    heights = [figure("central_records", inches).get_figheight() for inches in (3.5, 5.0, 6.5)]
    assert heights == sorted(heights) and heights[0] < heights[-1]


@pytest.mark.parametrize("name", list(figures.FIGURES))
def test_no_title_removes_every_title(figure, name):
    with_title, without = figure(name), figure(name, style.WIDTHS["text"], title=False)

    def titles(fig):
        found = [ax.get_title(loc) for ax in fig.axes for loc in ("left", "center", "right")]
        found.append(fig._suptitle.get_text() if fig._suptitle is not None else "")
        return [t for t in found if t.strip()]

    assert titles(with_title)
    assert titles(without) == []


def test_font_serif_changes_the_font_family_and_sans_restores_it():
    from matplotlib.font_manager import findfont

    plt = style.setup(font="serif")
    fig = figures.FIGURES["prior_skew"][1](figures.prior_skew_data(points=5))
    try:
        label = fig.axes[0].xaxis.label
        assert label.get_fontfamily() == ["serif"]
        assert findfont(label.get_fontproperties()).endswith("STIXGeneral.ttf")
        import matplotlib

        assert matplotlib.rcParams["mathtext.fontset"] == "stix"
    finally:
        plt.close(fig)
    plt = style.setup(font="sans")
    fig = figures.FIGURES["prior_skew"][1](figures.prior_skew_data(points=5))
    try:
        assert findfont(fig.axes[0].xaxis.label.get_fontproperties()).endswith("DejaVuSans.ttf")
    finally:
        plt.close(fig)


def test_mathtext_parses_are_shared_across_renderers_and_the_bytes_unchanged():
    """:func:`setup` (:func:`use_style`) shares matplotlib's parsed mathtext across renderers (``_share_mathtext_parses``): a label parsed
    by a new parser is not parsed again, a change of an rcParam the parser reads parses it anew, and a figure saved as
    SVG (72 dpi) and then PNG (300 dpi) has the bytes it has with matplotlib's own cache (one per renderer)."""
    import matplotlib
    from matplotlib.mathtext import MathTextParser

    style.setup(font="sans")
    shared = MathTextParser.__dict__["_parse_cached"]
    assert shared._relations_shared
    label = r"$\sigma_{\min} + 7 \varepsilon_i$"  # parsed nowhere else in the suite
    before = shared.cache_info()
    first = MathTextParser("path").parse(label, 72)
    assert MathTextParser("path").parse(label, 72) is first
    after = shared.cache_info()
    assert (after.misses, after.hits) == (before.misses + 1, before.hits + 1)
    with matplotlib.rc_context({"mathtext.default": "rm"}):  # read by the parser, not in matplotlib's key
        upright = MathTextParser("path").parse(label, 72)
    assert upright != first and shared.cache_info().misses == after.misses + 1
    from matplotlib.figure import Figure

    fig = Figure(figsize=(2, 0.6))  # a small figure of the style's labels: the cache, not the drawing, is under test
    fig.text(0.02, 0.6, style.SYMBOLS["eps_m"] + " and " + style.math("eps_m <= 2(eps_i - sigma_min)"))
    fig.text(0.02, 0.2, style.math("eps_delta(1/100000) <= rho + 2 sqrt(rho ln(100000))"), fontsize=7)
    ours = [style.render(fig, fmt) for fmt in ("svg", "png")]
    setattr(MathTextParser, "_parse_cached", shared.matplotlib_own)  # noqa: B010
    try:
        theirs = [style.render(fig, fmt) for fmt in ("svg", "png")]
    finally:
        setattr(MathTextParser, "_parse_cached", shared)  # noqa: B010
    assert ours == theirs


def test_use_style_keeps_working_without_arguments():
    import matplotlib

    style.use_style(font="serif")
    style.use_style()
    assert matplotlib.rcParams["font.family"] == ["sans-serif"] and not matplotlib.rcParams["text.usetex"]


@pytest.mark.parametrize("text", ["0", "-3", "2.9", "12.5", "inf", "nan", "wide", ""])
def test_bad_widths_are_refused(text):
    if text == "":
        assert style.parse_width(text) is None
        return
    with pytest.raises(InputError, match="--width"):
        style.parse_width(text)


def test_named_and_numeric_widths():
    assert style.parse_width("column") == 3.5 and style.parse_width(" Text ") == 6.5
    assert style.parse_width("3") == style.MIN_WIDTH and style.parse_width(12) == style.MAX_WIDTH
    with pytest.raises(InputError, match="--font"):
        style.parse_font("comic")


def _cli(*args, env=None):
    from conftest import run_cli

    return run_cli("figures", *args, timeout=400, env=env)  # in this process (tests/conftest.py)


def test_cli_width_no_title_and_font_options(tmp_path):
    from PIL import Image

    # the format names in any case, and only the formats named written (with the figure's data)
    res = _cli("--out", str(tmp_path), "--only", "prior_skew", "--format", "PNG,svg", "--width", "column",
               "--no-title", "--font", "serif")
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == [
        "prior_skew.json", "prior_skew.png", "prior_skew.svg"]
    with Image.open(tmp_path / "prior_skew.png") as img:
        assert img.size[0] == round(3.5 * style.DPI)
    svg = ET.fromstring((tmp_path / "prior_skew.svg").read_bytes())
    assert svg.get("width") == "252pt"  # 3.5 in at 72 pt an inch
    for bad, word in (("--width=0", "--width"), ("--width=abc", "--width"), ("--font=comic", "--font")):
        res = _cli("--out", str(tmp_path / "x"), bad)
        assert res.returncode == 2 and "Traceback" not in res.stderr and word in res.stderr
        assert len(res.stderr.strip().splitlines()) == 1 and not (tmp_path / "x").exists()


def test_usetex_without_latex_fails_in_one_line(tmp_path):
    """``--font usetex`` with no LaTeX on PATH (an empty PATH; the interpreter is called by its full path):
    exit 2, one line naming what is missing, nothing written."""
    import os

    env = {**os.environ, "PATH": str(tmp_path / "empty")}
    res = _cli("--out", str(tmp_path / "out"), "--only", "prior_skew", "--font", "usetex", env=env)
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert "latex" in res.stderr and "dvipng" in res.stderr and not (tmp_path / "out").exists()
    with pytest.raises(InputError, match="usetex: latex and kpsewhich not found"):
        _usetex_with_path(str(tmp_path / "empty"))


def _usetex_with_path(path: str) -> None:
    import os

    old = os.environ["PATH"]
    os.environ["PATH"] = path
    try:
        style.check_usetex(["pdf"])
    finally:
        os.environ["PATH"] = old


def test_usetex_names_dvipng_only_for_png(tmp_path):
    """With latex and kpsewhich on PATH but no dvipng, PNG is refused naming dvipng; PDF does not need it."""
    import os
    import shutil

    if shutil.which("latex") is None or shutil.which("kpsewhich") is None:
        pytest.skip("no LaTeX here")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for prog in ("latex", "kpsewhich"):
        os.symlink(shutil.which(prog), bin_dir / prog)
    old = os.environ["PATH"]
    os.environ["PATH"] = str(bin_dir)
    try:
        with pytest.raises(InputError, match="dvipng"):
            style.check_usetex(["png"])
        try:
            style.check_usetex(["pdf"])
        except InputError as err:  # only when TeX lacks type1cm, which is then what it names
            assert "dvipng not" not in str(err) and "type1cm" in str(err)
    finally:
        os.environ["PATH"] = old


def test_every_label_compiles_with_latex(drawn, tmp_path):
    """What ``--font usetex`` hands to LaTeX: every text and marker of every figure, set by pdflatex with the
    preamble matplotlib's usetex uses (less ``type1cm``, which only scales fonts) and the style's packages;
    any mathtext-only command or unescaped character would stop it."""
    import shutil
    import subprocess

    from matplotlib.lines import Line2D

    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed")
    texts = set()
    for fig in drawn.values():
        texts |= {t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text") and hasattr(a, "get_position"))
                  if t.get_text().strip()}
        texts |= {m for line in fig.findobj(Line2D) if isinstance(m := line.get_marker(), str) and m.startswith("$")}
    assert len(texts) > 100
    lines = [line for t in sorted(texts) for line in t.split("\n") if line.strip()]  # matplotlib sets each line
    preamble = style._FONT_RC["usetex"]["text.latex.preamble"]
    doc = "\n".join([r"\documentclass{article}", r"\usepackage[utf8]{inputenc}",
                     r"\DeclareUnicodeCharacter{2212}{\ensuremath{-}}", r"\usepackage[papersize=72in,margin=1in]{geometry}",
                     preamble, r"\usepackage[strings]{underscore}", r"\usepackage{textcomp}", r"\begin{document}",
                     *(rf"\mbox{{{line}}}\par" for line in lines), r"\end{document}", ""])
    (tmp_path / "labels.tex").write_text(doc, encoding="utf-8")
    res = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "labels.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    errors = [line for line in res.stdout.splitlines() if line.startswith("!")]
    assert res.returncode == 0 and not errors, errors[:3]


@pytest.mark.parametrize("font", ["sans", "serif"])
def test_wrap_keeps_citations_and_math_whole(font):
    """Each line is as long as fits, measured whole: at widths clear of every break and at a hair below and above
    the width of each of the first line's prefixes (where the sum of the words' widths cannot decide)."""
    style.setup(font=font)
    text = r"bound $\varepsilon_d (e^{\varepsilon_d} - 1)$ (Zheng et al. 2025, Thm 11; Mironov 2017, Prop. 3)"
    words = style._words(text)
    prefixes = [style._width(" ".join(words[:i]), 8.0) for i in range(2, len(words) + 1)]
    try:
        for inches in (0.5, 1.0, 1.5, 3.0, *(w + d for w in prefixes for d in (-1e-9, 1e-9))):
            lines = style.wrap(text, inches).split("\n")
            assert " ".join(lines) == text
            assert not any(line.endswith(("Thm", "Prop.", "Zheng")) for line in lines)
            assert all(line.count("$") % 2 == 0 for line in lines)
            # a line is wider than asked only when it is one unbreakable word; with the next word it is too wide
            assert all(style._width(line, 8.0) <= inches or len(style._words(line)) == 1 for line in lines)
            assert all(style._width(f"{line} {style._words(after)[0]}", 8.0) > inches
                       for line, after in zip(lines, lines[1:]))
    finally:
        style.setup(font="sans")


@pytest.mark.slow
def test_usetex_renders_a_pdf_where_latex_is_complete(tmp_path):
    """Where latex, kpsewhich and type1cm are installed, ``--font usetex`` writes a PDF set by LaTeX (its fonts
    are TeX's Type 1 Computer Modern, not DejaVu or STIX)."""
    try:
        style.check_usetex(["pdf"])
    except InputError as err:
        pytest.skip(str(err))
    paths = figures.write_all(str(tmp_path), "pdf", ["prior_skew"], width="column", title=False, font="usetex")
    style.use_style()
    pdf = open(paths[0], "rb").read()
    assert pdf[:5] == b"%PDF-" and b"+CMR" in pdf and b"/Type1" in pdf and b"DejaVu" not in pdf


# ------------------------------------------------------------------ arrows as they are drawn, at every width


def _record_arrows(fig) -> list[tuple]:
    """Each annotation arrow of ``fig`` paired with a list that fills, at every draw, with the paths it draws then
    (display units): what reaches the file, not what the arrow would compute afterwards."""
    from matplotlib.text import Annotation

    recorded = []
    for ax in fig.axes:
        for text in ax.texts:
            if isinstance(text, Annotation) and text.arrow_patch is not None:
                patch, drawn = text.arrow_patch, []

                def draw(renderer, patch=patch, drawn=drawn, original=text.arrow_patch.draw):
                    patch._dpi_cor = renderer.points_to_pixels(1.0)  # as FancyArrowPatch.draw sets it
                    paths, fills = patch._get_path_in_displaycoord()
                    drawn.append(([p.vertices.copy() for p in paths], list(fills), renderer.points_to_pixels(1.0)))
                    return original(renderer)

                patch.draw = draw
                recorded.append((ax, text, drawn))
    return recorded


def _inside(point, patch) -> bool:
    """``point`` (display units) lies inside the drawn outline of ``patch`` (a box's rounded corners excluded)."""
    return bool(patch.contains_point(tuple(point)))


def _distance(point, box) -> float:
    x, y = point
    return float(((max(box.x0 - x, 0, x - box.x1)) ** 2 + (max(box.y0 - y, 0, y - box.y1)) ** 2) ** 0.5)


@pytest.mark.parametrize("width", [None, "column", "text"])
@pytest.mark.parametrize("name", [pytest.param(n, marks=() if n == "relation_diagram" else pytest.mark.slow)
                                  for n in figures.FIGURES])  # the other figures' arrows are leader lines only
def test_every_arrow_is_drawn_whole_at_every_width(figure, verdicts, name, width):
    """Each figure saved as ``relations figures --width`` saves it (:func:`render`, cropped only at its own size):
    in the relation diagram every implication ends in a filled arrowhead and every non-implication in a bar, both
    outside every node's box and touching the target's (an arc drawn before its boxes ran from centre to centre,
    its head hidden under the target's box); in every figure no arrow starts or ends inside the frame it is cut at.

    Read from the drawn artists: each arrow's paths as computed in the drawing pass that wrote the file."""
    import matplotlib.patches as mpatches

    from relations.figures._diagram import NODE_TEXT

    style.setup(font="sans")
    inches = style.parse_width(width)
    data = small_data(name, verdicts)
    fig = figure(name, inches)  # FIGURES[name][1](data, width=inches), shared with the other tests of the module
    arrows = _record_arrows(fig)
    try:
        style.render(fig, "png", tight=inches is None)
        renderer = fig.canvas.get_renderer()
        for _, text, drawn in arrows:
            paths, _, _ = drawn[-1]
            patch = text.arrow_patch
            for end, frame in ((paths[0][0], patch.patchA), (paths[0][-1], patch.patchB)):
                if frame is not None:
                    assert not _inside(end, frame), (name, width, text)
        if name != "relation_diagram":
            return
        kinds = {"implication": 0, "non-implication": 0}
        for ax, text, drawn in arrows:
            boxes = {t.get_position(): t.get_bbox_patch() for t in ax.texts if t.get_text() in NODE_TEXT.values()}
            assert len(boxes) == 3
            target = boxes[tuple(text.xy)].get_window_extent(renderer)
            paths, fills, point = drawn[-1]
            arrowstyle = text.arrow_patch.get_arrowstyle()
            if isinstance(arrowstyle, mpatches.ArrowStyle.CurveFilledB):
                kinds["implication"] += 1
                assert fills == [False, True], (width, text.xy)
                head = paths[1][:3]  # the wedge: one side, the tip, the other side
                tip = head[1]
                size = float(max(((head[0] - head[2]) ** 2).sum() ** 0.5, ((head[1] - head[0]) ** 2).sum() ** 0.5))
                assert size >= 4 * point, (width, text.xy)  # a head of at least 4 pt
            else:
                assert isinstance(arrowstyle, mpatches.ArrowStyle.BracketB)
                kinds["non-implication"] += 1
                assert len(paths) == 2, (width, text.xy)
                head = paths[1][1:3]  # the bar across the arc's end (the bracket's short arms point at the box)
                tip = (head[0] + head[1]) / 2
                assert float(((head[0] - head[1]) ** 2).sum() ** 0.5) >= 4 * point, (width, text.xy)
            # the head's tip and middle (the bar's middle) lie outside every box, and the arc is drawn over the boxes,
            # so no box hides it (an arc meeting a box's corner at a slant may cross its frame with a wing)
            centre = head.mean(axis=0)
            assert not any(_inside(tip, box) or _inside(centre, box) for box in boxes.values()), (width, text.xy)
            assert text.get_zorder() > max(t.get_zorder() for t in ax.texts if t.get_text() in NODE_TEXT.values())
            assert _distance(tip, target) <= 5 * point, (width, text.xy)
        edges = [e["kind"] for e in data["edges"]]
        assert kinds == {k: edges.count(k) for k in kinds} and min(kinds.values()) >= 4
    finally:
        for _, text, _ in arrows:
            del text.arrow_patch.draw  # the class's draw again (the one _record_arrows set on the instance removed)
