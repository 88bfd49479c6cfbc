"""``relations measure``: the four quantities of a mechanism file, with exact forms and witnesses.

The common forms of the command run without typer (:mod:`relations.cli._measure_fast`); both parse into
:func:`relations.app._measure.run_measure`.  ``--tradeoff`` (and ``--plot``) is handled here.
"""

from __future__ import annotations

import json
import sys

import typer

from relations.cli._helpers import (
    BITS_RANGE,
    FILE_HELP,
    FORMAT_HELP,
    LATEX_ENV_HELP,
    MODE_HELP,
    REPEAT_MIN,
    fail,
    output_console,
    output_format,
    table_console,
)
from relations.kinds import NumericMode
from relations.notions import FURTHER_NOTIONS, NOTIONS

__all__ = ["measure"]


#: ``measure --notion``'s help: the further notions of the notion table (``docs/notions.md``).
_NOTION_HELP = ("Also a further notion: " + ", ".join(NOTIONS[n].pattern for n in FURTHER_NOTIONS)
                + ", or all. Repeatable.")


def measure(
    file: str = typer.Argument(..., help=FILE_HELP),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON (docs/claims-and-verdicts.md)."),
    fmt: str = typer.Option("table", "--format", help=FORMAT_HELP),
    bits: int | None = typer.Option(None, "--bits", help="Width of the eps_m and --notion enclosures at most 2**-bits "
                                       "(default 100; eps_m of exact channels of 2^18 entries or more: certified "
                                       "floats, about 2**-44).",
                                       min=BITS_RANGE[0], max=BITS_RANGE[1]),
    notion: list[str] = typer.Option([], "--notion", help=_NOTION_HELP),
    mode: NumericMode = typer.Option(NumericMode.AUTO, "--mode", case_sensitive=False, show_default=False,
                                     help=MODE_HELP),
    latex_env: str = typer.Option("auto", "--latex-env", help=LATEX_ENV_HELP),
    tradeoff: bool = typer.Option(False, "--tradeoff", help="Instead of the budgets: the f-DP trade-off curve "
                                  "(exact breakpoints, the pointwise minimum over pairs) and the least "
                                  "Gaussian-DP mu (docs/notion-inequalities-tradeoff.md)."),
    plot: str | None = typer.Option(None, "--plot", help="With --tradeoff: draw the curve with G_mu and 1 - alpha "
                                    "to this file (.png, .pdf or .svg; an existing file only with --force)."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --plot file."),
    repeat: int | None = typer.Option(None, "--repeat", min=REPEAT_MIN, help="The mechanism used this many times on the same "
                                      "input, independently (at most 100000): measured exactly through the counts "
                                      "of each output, or the privacy loss distribution for the profile "
                                      "(docs/mechanism-files.md, 'Repeated use')."),
) -> None:
    """The four quantities eps_i, eps_d, eps_m, sigma_min with exact forms and witnesses (and --notion ones)."""
    fmt = output_format(fmt, json_out)
    if tradeoff or plot is not None:
        _measure_tradeoff(file, fmt=fmt, notion=notion, bits=bits, mode=mode, tradeoff=tradeoff, plot=plot,
                          force=force, repeat=repeat)
        return
    from relations.app._measure import run_measure

    run_measure(file, console=table_console, fmt=fmt, bits=bits, notion=notion, mode=mode, latex_env=latex_env,
                repeat=repeat)


def _measure_tradeoff(file: str, *, fmt: str, notion: list[str], bits: int | None, mode: NumericMode, tradeoff: bool,
                      plot: str | None, force: bool, repeat: int | None = None) -> None:
    """``measure --tradeoff [--plot FILE]``: the curve as a table or JSON, and the figure written atomically."""
    import os

    if not tradeoff:
        fail("--plot draws the trade-off curve: add --tradeoff")
    if notion:
        fail("--tradeoff prints the trade-off curve and gdp_mu alone: drop --notion")
    if fmt not in ("table", "json"):
        fail(f"--tradeoff prints a table or JSON, not --format {fmt}")
    if plot is not None:
        import importlib.util

        from relations.figures._style import FORMATS
        from relations.io._outputs import check_output_file

        kind = os.path.splitext(plot)[1].lstrip(".").lower()
        if kind not in FORMATS:
            fail(f"--plot {plot}: the file name must end in .png, .pdf or .svg")
        if importlib.util.find_spec("matplotlib") is None:
            from relations._install import install_hint

            fail("--plot draws with matplotlib, in the figures extra: " + install_hint("figures", only=["matplotlib>=3.7"]))
        check_output_file(plot, force=force, option="--plot")
    from relations.io._reading import load
    from relations.io._tradeoffs import tradeoff_json, tradeoff_tables
    from relations.measures._tradeoff import tradeoff_curve

    if repeat is None:
        mech = load(file, mode=mode)
    else:  # the counts mechanism of the repeated use (its trade-off curve is the composition's)
        from relations.io._reading import load_composition
        from relations.model._composed import Composition

        got = load_composition(file, repeat=repeat, mode=mode)
        mech = got.sufficient() if isinstance(got, Composition) else got
    data = tradeoff_json(mech, tradeoff_curve(mech, bits=100 if bits is None else bits))
    if plot is not None:
        from relations.figures._style import render
        from relations.figures._tradeoff import draw_tradeoff, tradeoff_plot_data
        from relations.io._outputs import create_file

        fig = draw_tradeoff(tradeoff_plot_data(data), title=None if file == "-" else os.path.basename(file))
        image = render(fig, kind)
        create_file(plot, image, force=force, option="--plot")  # still free (or --force): checked as it is made
    if fmt == "json":
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    else:
        out = output_console()
        for table in tradeoff_tables(data):
            out.print(table)
    if plot is not None:
        sys.stderr.write(f"wrote {plot}\n")
