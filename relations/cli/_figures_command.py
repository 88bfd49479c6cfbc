"""``relations figures``: the figures regenerated from computed results."""

from __future__ import annotations

import sys

import typer

from relations.cli._helpers import did_you_mean, fail
from relations.io import EVIDENCE_DIR

__all__ = ["figures"]


def figures(
    out: str = typer.Option("figures", "--out", help="Folder for the figures and their data as JSON (it replaces "
                            "only files it wrote there)."),
    fmt: str = typer.Option("png,pdf,svg", "--format", help="Image formats, comma-separated: png (300 dpi), pdf, "
                            "svg, or all."),
    only: list[str] = typer.Option([], "--only", help="Only these figures (repeatable)."),
    verdicts: str = typer.Option(f"{EVIDENCE_DIR}/verdicts.json", "--verdicts", help="The verdicts.json of "
                                 "'relations verify' for the relation diagram (verified now, quickly, if missing; "
                                 "the repository's own: proofs/verdicts.json)."),
    force: bool = typer.Option(False, "--force", help="Replace files in --out that relations did not write."),
    width: str = typer.Option("", "--width", help="column (3.5 in, one column of a two-column paper), text (6.5 in, "
                              "a one-column text width) or inches from 3 to 12; default: each figure's own size."),
    no_title: bool = typer.Option(False, "--no-title", help="Leave out the figures' titles (the caption says it)."),
    font: str = typer.Option("sans", "--font", help="sans (default), serif (STIX, Times-like) or usetex (LaTeX "
                             "sets the text; needs latex, and dvipng for PNG)."),
) -> None:
    """Regenerate the figures from computed results (the relation diagram uses the verdicts of 'relations verify')."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        from relations._install import install_hint

        fail("relations figures draws with matplotlib, in the figures extra: "
             + install_hint("figures", only=["matplotlib>=3.7"]))
    from relations.figures import FIGURES, write_all
    from relations.figures._style import FORMATS, parse_formats

    bad = [p.strip().lower() for p in fmt.split(",") if p.strip().lower() not in (*FORMATS, "all", "")]
    if bad:
        fail(f"--format: unknown image format {bad[0]!r}{did_you_mean(bad[0], FORMATS)} (png, pdf, svg, "
             "comma-separated, or all)")
        return
    formats = parse_formats(fmt)
    unknown = [o for o in only if o not in FIGURES]
    if unknown:
        fail(f"--only: unknown figure {unknown[0]!r}{did_you_mean(unknown[0], FIGURES)} (one of {', '.join(FIGURES)})")
        return
    from relations.figures._style import check_usetex, parse_font, parse_width

    inches = parse_width(width or None)  # each raises InputError: one line, exit 2, before anything is computed
    font = parse_font(font)
    if font == "usetex":
        check_usetex(formats)
    for path in write_all(out, formats, only, force=force, verdicts=verdicts, width=inches, title=not no_title,
                          font=font):
        sys.stdout.write(path + "\n")
