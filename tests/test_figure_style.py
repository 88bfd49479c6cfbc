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


#: Rendered to PNG, PDF and SVG in the default suite (every figure in the slow one).
RENDERED = ("relation_diagram", "prior_skew")


@pytest.fixture(scope="module")
def drawn(verdicts):
    plt = style.setup()
    out = {name: draw(small_data(name, verdicts)) for name, (_, draw) in figures.FIGURES.items()}
    yield out
    for fig in out.values():
        plt.close(fig)


def check_files(fig) -> None:
    from PIL import Image

    files = {fmt: style.render(fig, fmt) for fmt in style.FORMATS}
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


def test_relation_diagram_labels_neither_overlap_nor_leave_the_figure(verdicts):
    plt = style.setup()
    fig = draw_relation_diagram(figures.relation_diagram_data(verdicts))
    try:
        fig.canvas.draw()
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
    finally:
        plt.close(fig)


def test_curves_are_sampled_finely():
    assert len(figures.krr_information_data()["eps_d"]) >= 300
    assert len(figures.prior_skew_data()["p0"]) >= 300
    assert len(figures.symmetric_channel_data()["D"]) >= 300
    assert len(conversion_frontiers_data()["eps"]) >= 300
    krr = figures.krr_information_data()
    gaps = [b - a for a, b in zip(krr["eps_d"], krr["eps_d"][1:])]
    assert max(gaps) < 0.02 and min(gaps) > 0  # ordered, no jumps


def test_math_turns_catalogue_formulas_into_mathtext():
    assert style.math("eps_m <= 2(eps_i - sigma_min)") == r"$\varepsilon_m \leq 2 (\varepsilon_i - \sigma_{\min})$"
    assert r"\nRightarrow" in style.math("eps_m < inf  =/=>  eps_i < inf")
    assert "10^{-5}" in style.math("eps_delta(1/100000) <= rho + 2 sqrt(rho ln(100000))")
    assert style.parse_formats("all") == style.FORMATS
    with pytest.raises(InputError):
        style.parse_formats("gif")
