"""The measures table drawn without rich (``relations.io._grid``): the same characters rich draws for a file or a
pipe, or nothing (rich draws).  Compared with rich itself on random tables, titles and widths."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from relations.io._grid import ONE_CELL, Grid, PlainOutput
from relations.io._terminal import console


def rich_drawing(obj, width: int) -> str:
    """``obj`` printed by the tool's rich console on a file of ``width`` columns (not a terminal, UTF-8)."""
    out = io.StringIO()
    console(file=out, width=width, color_system=None, force_terminal=False, force_jupyter=False).print(obj)
    return out.getvalue()


def random_grid(rng) -> Grid:
    """A random grid of up to 5 columns and 4 rows; one in four has a character the grid must leave to rich."""
    plain = sorted(" abc xyz 012 (),;=[]/'-." + "".join(ONE_CELL))
    other = ["漢", "\u200b", "\t", "\u00a0", "\n", "e\u0301", "😀", "\x1b"]

    def text(most: int = 16) -> str:
        return "".join(rng.choice(plain) for _ in range(rng.randint(0, most)))

    n = rng.randint(1, 5)
    texts = [" ".join(text(8) or "w" for _ in range(rng.randint(1, 12)))]  # the title
    texts += [text() for _ in range(n * (1 + rng.randint(0, 4)))]  # headers, then the cells
    if rng.randint(0, 3) == 0:
        i = rng.randrange(len(texts))
        at = rng.randint(0, len(texts[i]))
        texts[i] = texts[i][:at] + rng.choice(other) + texts[i][at:]
    columns = [(h, rng.choice(["left", "right"]), rng.choice(["ellipsis", "fold", "crop"])) for h in texts[1:1 + n]]
    cells = texts[1 + n:]
    return Grid(texts[0], columns, [cells[k:k + n] for k in range(0, len(cells), n)])


def test_a_grid_is_drawn_as_rich_draws_it():
    """Random grids at widths about their own (where they fit and where they do not): rich's drawing or None;
    most drawn here, some with a wrapped title."""
    import random

    rng = random.Random(46)
    drawn = wrapped = 0
    for _ in range(150):
        grid = random_grid(rng)
        natural = sum(max(len(c) for c in col) + 3 for col in zip(*[[h for h, _, _ in grid.columns], *grid.rows])) + 1
        width = max(1, natural + rng.randint(-8, 40))
        ours = grid.draw(width)
        if ours is not None:
            assert ours == rich_drawing(grid, width), (grid.title, grid.columns, grid.rows, width)
            drawn += 1
            wrapped += len(ours.splitlines()) > len(grid.rows) + 5
    assert drawn >= 75 and wrapped >= 10, (drawn, wrapped)


def test_the_measures_table_is_drawn_without_rich():
    """The shipped example's table at the widths the command line uses: drawn here (not left to rich), as rich."""
    from relations import measure
    from relations.io._tables import measures_grid
    from relations.mechanisms import paper_example

    m = paper_example()
    grid = measures_grid(m, measure(m))
    long_title = Grid("a folder/with spaces/ " * 8 + grid.title, grid.columns, grid.rows)
    for g in (grid, long_title):
        for width in (110, 140, 200):
            drawn = g.draw(width)
            assert drawn is not None and drawn == rich_drawing(g, width), width
    assert len(long_title.draw(140).splitlines()[1]) == len(long_title.draw(140).splitlines()[-1])  # title wrapped


def test_the_characters_drawn_here_are_one_cell_each_to_rich():
    from rich.cells import cell_len

    assert all(cell_len(c) == 1 and not c.isspace() and c.isprintable() for c in ONE_CELL)


@settings(max_examples=100)
@given(st.text(st.sampled_from(sorted(" abc xyz 012 (),;=[]/'-." + "".join(ONE_CELL)) + ["漢", "\t", "\n", "\u00a0"]),
               max_size=40), st.integers(1, 40))
def test_a_line_is_printed_as_rich_prints_it(text, width):
    out = io.StringIO()
    made = []

    def fallback():
        made.append(1)
        return console(file=out, width=width, color_system=None, force_terminal=False, force_jupyter=False)

    import contextlib

    with contextlib.redirect_stdout(out):
        PlainOutput(width, fallback).print(text)
    assert out.getvalue() == rich_drawing(text, width)


@pytest.mark.parametrize("args,env", [
    (["paper_example.json"], {}), (["paper_example.json", "--repeat", "3"], {"COLUMNS": "60"}),
    pytest.param(["age_brackets_graph.json"], {"COLUMNS": "300"}, marks=pytest.mark.slow),
    pytest.param(["krr_floats.npz", "--notion", "rho"], {}, marks=pytest.mark.slow),
    pytest.param(["central_noisy_count.json"], {"COLUMNS": "90"}, marks=pytest.mark.slow),
    pytest.param(["product_survey.json", "--mode", "float"], {}, marks=pytest.mark.slow)])
def test_relations_measure_prints_what_rich_prints(args, env, monkeypatch):
    """The command's table on a pipe, drawn here and by rich (``FORCE_COLOR=""``: rich's console, not a terminal)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    argv = [sys.executable, "-m", "relations.cli", "measure", str(root / "examples" / args[0]), *args[1:]]
    for key in ("COLUMNS", "FORCE_COLOR", "TTY_COMPATIBLE"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    ours = subprocess.run(argv, capture_output=True, cwd=root, timeout=120)
    monkeypatch.setenv("FORCE_COLOR", "")
    theirs = subprocess.run(argv, capture_output=True, cwd=root, timeout=120)
    assert ours.returncode == theirs.returncode == 0, ours.stderr
    assert ours.stdout == theirs.stdout and ours.stderr == theirs.stderr
