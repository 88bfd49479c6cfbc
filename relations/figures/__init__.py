"""Figures from computed results (never typed-in numbers): data functions and matplotlib drawings.

Every ``*_data`` function returns the exact series a figure plots, computed by the library
(the tests compare these with independent computations); every ``draw_*`` function takes that
data and returns a matplotlib figure in the one style of :mod:`relations.figures._style`
(Okabe-Ito colours, a dash pattern and marker per line, mathtext symbols), so the figures read in
greyscale too; units are nats.  :data:`FIGURES` pairs them by name and :func:`write_all` saves them
(``relations figures``) as 300 dpi PNG, vector PDF and SVG, at their own size or at a paper's column or
text width, with or without titles, in sans-serif, serif or LaTeX text (``docs/figures.md``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from relations._lazy import exports

if TYPE_CHECKING:
    from matplotlib.figure import Figure

from relations.figures._conversions import conversion_frontiers_data, draw_conversion_frontiers
from relations.figures._data import (
    central_records_data,
    krr_information_data,
    prior_skew_data,
    privacy_distortion_data,
    relation_diagram_data,
    symmetric_channel_data,
)
from relations.figures._diagram import draw_relation_diagram
from relations.figures._plots import (
    draw_central_records,
    draw_krr_information,
    draw_prior_skew,
    draw_privacy_distortion,
    draw_symmetric_channel,
)
from relations.figures._style import (
    FORMATS,
    check_usetex,
    parse_font,
    parse_formats,
    parse_width,
    render,
    setup,
    use_style,
)
from relations.io import EVIDENCE_DIR

__all__ = ["FIGURES", "FORMATS", "write_all", "use_style", "relation_diagram_data", "prior_skew_data", "krr_information_data",
           "central_records_data", "symmetric_channel_data", "privacy_distortion_data", "conversion_frontiers_data"]

#: Each figure's name: its data function and its drawing function.
#: Each drawing takes the data and the keyword-only ``width`` (inches or None) and ``title`` (bool).
FIGURES: dict[str, tuple[Callable[..., dict[str, Any]], Callable[..., Figure]]] = {
    "relation_diagram": (relation_diagram_data, draw_relation_diagram),
    "prior_skew": (prior_skew_data, draw_prior_skew),
    "krr_information": (krr_information_data, draw_krr_information),
    "central_records": (central_records_data, draw_central_records),
    "symmetric_channel": (symmetric_channel_data, draw_symmetric_channel),
    "privacy_distortion": (privacy_distortion_data, draw_privacy_distortion),
    "conversion_frontiers": (conversion_frontiers_data, draw_conversion_frontiers),
}


def write_all(out: str = "figures", fmt: str | Sequence[str] = FORMATS, only: Sequence[str] = (), *,
              force: bool = False, verdicts: str | None = f"{EVIDENCE_DIR}/verdicts.json",
              width: str | float | None = None, title: bool = True, font: str = "sans") -> list[str]:
    """Compute, draw and save every figure (and its data as JSON); returns the written image paths.

    Everything is computed and drawn first, then written under the write policy of
    :mod:`relations.io._outputs` (atomic files; files the tool did not write are refused
    unless ``force``).

    Parameters
    ----------
    out : str, optional
        The folder, created if missing: ``NAME.FMT`` for each format and ``NAME.json`` for each figure.
    fmt : str or sequence of str, optional
        Image formats, ``png`` (300 dpi), ``pdf``, ``svg`` (comma-separated or a sequence; all three by
        default); no timestamps or versions are embedded.
    only : sequence of str, optional
        Names of :data:`FIGURES`; all by default.
    force : bool, optional
        Replace files in ``out`` that the tool did not write.
    verdicts : str or None, optional
        The ``verdicts.json`` the relation diagram takes its verdicts from.
    width : str or float or None, optional
        ``"column"`` (3.5 in), ``"text"`` (6.5 in) or inches from 3 to 12 (:func:`~relations.figures._style.parse_width`);
        the files are then exactly this wide (not cropped) and as tall as the figure needs.  ``None``: each
        figure's own size, cropped to what is drawn.
    title : bool, optional
        ``False`` leaves out the figures' titles (a paper's caption says it); panel names stay.
    font : str, optional
        ``"sans"`` (DejaVu Sans), ``"serif"`` (STIX text and math) or ``"usetex"`` (LaTeX sets the text).

    Raises
    ------
    InputError
        An unknown format, width or font, ``usetex`` without ``latex`` (or ``dvipng`` for PNG), a file in
        ``out`` the tool did not write (without ``force``), or a ``verdicts`` file that is not one of
        ``relations verify``.

    Examples
    --------
    One figure for a column of a two-column paper (3.5 in wide, 252 pt), without its title, in serif:

    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     paths = write_all(folder, "svg", ["prior_skew"], width="column", title=False, font="serif")
    ...     svg = open(paths[0], encoding="utf-8").read()
    >>> [os.path.basename(p) for p in paths], 'width="252pt"' in svg
    (['prior_skew.svg'], True)
    >>> use_style()  # back to the default font for what follows
    """
    from relations.io._outputs import OutputDir

    formats = parse_formats(fmt)
    inches = parse_width(width)
    font = parse_font(font)
    if font == "usetex":
        check_usetex(formats)
    names = [n for n in FIGURES if not only or n in only]
    with OutputDir(out, force=force) as folder:  # a failure below drops the staging and the lock at once
        folder.plan([f"{n}.{x}" for n in names for x in (*formats, "json")])
        plt = setup(font=font)
        drawn = []
        for name in names:
            data_fn, draw_fn = FIGURES[name]
            data = data_fn(verdicts) if name == "relation_diagram" else data_fn()
            fig = draw_fn(data, width=inches, title=title)
            drawn.append((name, {x: render(fig, x, tight=inches is None) for x in formats}, json.dumps(data, indent=1)))
            plt.close(fig)
        paths: list[str] = []
        for name, images, text in drawn:
            paths.extend(folder.write_bytes(f"{name}.{x}", image) for x, image in images.items())
            folder.write_text(f"{name}.json", text)
        folder.commit()
    return paths

# 0.2 submodule names (relations.measures.ratios) resolve to their replacements, with a DeprecationWarning
__getattr__, __dir__ = exports(__name__, {})
