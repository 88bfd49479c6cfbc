"""Running ``relations measure``: a mechanism file read (or a repeated use of it), its budgets computed and
printed as a table, JSON, LaTeX or CSV, or its f-DP trade-off curve (and a figure of it).

Nothing here imports the command-line framework: the command line calls :func:`run_measure` with the
parsed options, whether typer parsed them or the fast path of ``relations measure``
(:mod:`relations.cli._measure_fast`).  Bad input is :class:`~relations.errors.InputError`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from relations.errors import InputError
from relations.kinds import NumericMode

__all__ = ["checked_latex_env", "run_measure"]


def run_measure(file: str, *, fmt: str = "table", bits: int | None = None, notion: Sequence[str] = (),
                mode: NumericMode = NumericMode.AUTO, latex_env: str = "auto", repeat: int | None = None,
                console: Callable[[], Any] | None = None) -> None:
    """``relations measure``: the four quantities of the mechanism in ``file`` (and the further ``notion`` ones),
    printed on standard output.

    Parameters
    ----------
    file : str
        A mechanism file (JSON or .npz), or ``-`` for standard input.
    fmt : {"table", "json", "latex", "csv"}, optional
        What is printed (already checked by the command line: ``--json`` is ``fmt="json"``).
    bits, notion, mode, repeat
        As the command's options (``--tradeoff`` is the command line's own).
    latex_env : str, optional
        ``--latex-env``, checked here (with ``fmt="latex"`` only, unless ``auto``).
    console : callable, optional
        Makes the console the tables are printed on (called only for a table; by default
        :func:`relations.io._text.console`, a rich console of the terminal's width; the command line's draws
        the measures without rich where it can, :func:`relations.io._grid.plain_console`).

    Examples
    --------
    >>> from importlib.resources import files
    >>> example = files("relations.data").joinpath("examples", "paper_example.json")
    >>> run_measure(str(example), fmt="csv")  # doctest: +ELLIPSIS
    name,exact,value,lower,upper,witness
    eps_i,ln(247/7),3.563478187572664,,,"x=1, x'=2, y=1"
    eps_d,ln(13/7),0.6190392084062234,,,"x=1, x'=2, y=1"
    ...
    """
    from relations.io._reports import left_out_json, measures_json, notions_json
    from relations.measures._api import measure as compute

    if console is None:
        from relations.io._text import console as default

        console = default
    if notion:  # the further notions' modules are imported only when asked for
        from relations.measures._notions import parse_notion

        for name in notion:
            if name.strip().lower() != "all":
                parse_notion(name)  # a bad name is bad input before the file is read
    mech, note = _measured(file, mode=mode, repeat=repeat, fmt=fmt, notion=notion, bits=bits, console=console)
    if mech is None:
        return
    result = compute(mech, bits=bits)
    obj = measures_json(mech, result) if fmt != "table" else None
    if obj is not None and note is not None:
        obj["composition"] = note
    rows = notions_json(mech, notion, bits=bits) if notion else []
    left = left_out_json(mech, notion) if notion else []
    if obj is not None and notion:
        obj["notions"] = rows
        if left:
            obj["left_out"] = left
    if fmt == "json":
        sys.stdout.write(json.dumps(obj, indent=2) + "\n")
    elif fmt != "table":
        from relations.io._exports import export

        sys.stdout.write(export("measure", obj, fmt, source=file, env=checked_latex_env(latex_env, fmt)))
    else:
        from relations.io._tables import left_out_text, measures_grid, notions_table

        out = console()
        if note is not None:
            out.print(f"{note['uses']} uses: measured exactly through the counts of each output "
                      f"({note['count_vectors']} count vectors)")
        out.print(measures_grid(mech, result))
        if rows:
            out.print(notions_table(rows))
        if left:
            out.print(left_out_text(left))


def checked_latex_env(name: str, fmt: str) -> str:
    """``--latex-env``, checked: one of the environments, and only with ``--format latex`` unless ``auto``.

    Examples
    --------
    >>> checked_latex_env("Tabular", "latex")
    'tabular'
    """
    from relations.io._exports import latex_env

    try:
        env = latex_env(name)
    except ValueError as err:
        raise InputError(str(err)) from None
    if env != "auto" and fmt != "latex":
        raise InputError("--latex-env needs --format latex")
    return env


def _measured(file: str, *, mode: NumericMode, repeat: int | None, fmt: str, notion: Sequence[str],
              bits: int | None, console: Callable[[], Any]):
    """``measure``'s mechanism: the file's, or a composition's exact equivalent through the counts of each output
    (with a note); a composition beyond that limit is printed here by composition rules (and None returned)."""
    from relations.io._reading import load, load_composition, read_as_composition

    if repeat is None and not read_as_composition(file):
        return load(file, mode=mode), None
    from relations.model._composed import MAX_SUFFICIENT_ENTRIES, MAX_SUFFICIENT_WORK, Composition

    got = load_composition(file, repeat=repeat, mode=mode)
    if not isinstance(got, Composition):
        return got, None
    note = {"uses": got.uses, "parts": len(got.parts), "count_vectors": got.type_counts()}
    if got.counts_fit():
        return got.sufficient(), note
    from relations.io._reports import composed_json
    from relations.io._tables import left_out_text, notions_table

    rows, left = composed_json(got, list(notion), bits=bits)
    obj = {"source": file, "composition": note, "notions": rows, "left_out": left}
    if fmt == "json":
        sys.stdout.write(json.dumps(obj, indent=2) + "\n")
    elif fmt != "table":
        raise InputError("a composition beyond the counts route prints a table or JSON")
    else:
        out = console()
        out.print(f"{got.describe()}: {got.type_counts()} count vectors, beyond the counts route's limits "
                  f"({MAX_SUFFICIENT_ENTRIES} entries, {MAX_SUFFICIENT_WORK} entries times uses); computed by "
                  "composition rules (exact, or a stated enclosure)")
        out.print(notions_table(rows))
        for row in rows:  # an enclosure's ends, route and width, where the table shows only its common digits
            if row.get("detail") and row.get("enclosure"):
                lo, hi = row["enclosure"]
                out.print(f"{row['name']} in [{lo}, {hi}]: {row['detail']}", highlight=False)
        if left:
            out.print(left_out_text(left))
    return None, None
