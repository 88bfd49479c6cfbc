"""A notion added through the notion table alone (:func:`relations.notions.register`) is everywhere notions are
listed: ``measure --notion all`` (table, JSON, LaTeX), the claim and conjecture grammars, the searches' float
paths and the generated notions table of the docs."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

# the modules that list notions, imported before the toy is registered: a list frozen at import would miss it
import relations.catalogue._conversions
import relations.catalogue._entries
import relations.checking._claims
import relations.checking._conjectures
import relations.cli
import relations.io._exports
import relations.io._reports
import relations.measures._batch
import relations.measures._notions
import relations.notions as table
import relations.pipeline._conjecture
import relations.search._smallest
from relations.kinds import NotionKind, ProductRule, Setting

TOY = "max_gap"
TOY_LATEX = r"\gamma_{\mathrm{toy}}"


def toy_exact(mech, *, name: str = TOY):
    """``max over ordered neighbours x ~ x' and outputs y of Q[x][y] - Q[x'][y]``, exactly (dense channels)."""
    from relations.measures._pairs import NotionResult, Witness
    from relations.numbers import Rational

    rows = mech.channel.exact
    best, at = Fraction(0), None
    for i, j in mech.inputs.pairs():
        for x, xp in ((i, j), (j, i)):
            gap = max(a - c for a, c in zip(rows[x], rows[xp]))
            if gap > best:
                best, at = gap, (x, xp)
    return NotionResult(name, Rational(best), None if at is None else Witness(at[0], at[1], None))


def toy_kernel(kind, arg, A, C, cache):
    """The same in floats, per ordered pair of rows (the notion table's kernel of notions of neighbours' rows)."""
    return np.maximum(0.0, (A - C).max(axis=-1))


@pytest.fixture
def toy():
    """The toy notion in the table for one test, and out of it after."""
    row = table.NotionSpec(TOY, "G", TOY_LATEX, NotionKind.DIVERGENCE, None, None, (Setting.LOCAL, Setting.CENTRAL),
                           "a test's toy: max over ordered neighbours and outputs of Q[x][y] - Q[x'][y]",
                           "tests/test_notion_registry.py", toy_exact, "relations.measures._notion_floats:notion_float",
                           unit="probability", values="[0, tv]", zeros="none", kernel=toy_kernel,
                           product=ProductRule.SAME)
    table.register(row)
    try:
        yield row
    finally:
        table.unregister(TOY)


def _cli(capsys, *args: str) -> tuple[int, str, str]:
    """``relations ARGS`` in this process (the toy is registered here only)."""
    from relations.cli import main

    code = 0
    try:
        main(list(args))
    except SystemExit as done:
        code = int(done.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_registered_notion_is_listed_everywhere(toy, capsys):
    """By hand, binary RR with rows (3/4, 1/4), (1/4, 3/4): the largest Q[x][y] - Q[x'][y] is 1/2, as tv
    (with two outputs the positive part is one entry): a second method."""
    from relations.catalogue._conversions import EXTRA_NOTIONS, is_notion
    from relations.catalogue._entries import NOTIONS as CATALOGUE_NOTIONS
    from relations.checking import check
    from relations.checking._claims import CLAIM_NAMES
    from relations.checking._conjectures import NOTIONS as CONJECTURE_NOTIONS
    from relations.io._exports import latex_math
    from relations.io._reports import ALL_NOTIONS
    from relations.measures._notion_floats import notion_float
    from relations.measures._notions import NOTIONS as FURTHER
    from relations.measures._notions import notion_value
    from relations.model import Mechanism

    assert TOY in table.FURTHER_NOTIONS and TOY in ALL_NOTIONS and TOY in FURTHER
    assert TOY in CLAIM_NAMES and TOY in CONJECTURE_NOTIONS and TOY in CATALOGUE_NOTIONS and TOY in EXTRA_NOTIONS
    assert is_notion(TOY) and latex_math(TOY) == TOY_LATEX
    assert f"| `{TOY}` | ${TOY_LATEX}$ |" in table.markdown()

    rr = Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]])
    assert notion_value(rr, TOY) == notion_value(rr, "tv") and str(notion_value(rr, TOY)) == "1/2"
    assert notion_float(rr, TOY) == 0.5  # through the table's kernel
    batch = relations.measures._batch.dense_values(np.array([[[0.75, 0.25], [0.25, 0.75]]]), np.full((1, 2), 0.5),
                                                   relations.measures._batch.ordered_pairs([(0, 1)]), (TOY,))
    assert batch[TOY].tolist() == [0.5] and relations.search._smallest._vectorised(TOY)  # the searches' batches
    assert [c.holds for c in check(rr, claims=[f"{TOY} <= 1/2", f"{TOY} < 1/2"]).claims] == [True, False]


def test_measure_all_shows_a_registered_notion(toy, capsys):
    code, out, err = _cli(capsys, "measure", "examples/paper_example.json", "--notion", "all", "--json")
    assert code == 0, err
    rows = {row["name"]: row for row in json.loads(out)["notions"]}
    assert TOY in rows and set(rows) >= {TOY, "tv", "kl"}
    code, out, err = _cli(capsys, "measure", "examples/paper_example.json", "--notion", "all")
    assert code == 0 and TOY in out, err
    code, out, err = _cli(capsys, "measure", "examples/paper_example.json", "--notion", TOY, "--format", "latex")
    assert code == 0 and TOY_LATEX in out, err


def test_conjectures_search_a_registered_notion_by_its_kernel(toy):
    """Binary RR with e^eps = 2: the largest gap is 2/3 - 1/3 = 1/3 > ln(2)/4, so ``max_gap <= eps_d / 4`` is false
    and the searches (which screen by the table's float kernel) find a counterexample, decided exactly."""
    from relations.measures._notions import notion_value
    from relations.pipeline import conjecture

    refuted = conjecture(f"{TOY} <= eps_d / 4", quick=True)
    assert refuted.verdict == "refuted" and refuted.decision.lhs > refuted.decision.rhs
    assert np.isclose(refuted.decision.lhs, float(notion_value(refuted.witness, TOY)))


def test_registering_is_checked_and_undone():
    with pytest.raises(table.InputError, match="already"):
        table.register(table.NOTIONS["kl"])
    row = table.NOTIONS["kl"]
    from dataclasses import replace

    with pytest.raises(table.InputError, match="further notion"):
        table.register(replace(row, name="kl_copy", paper=True))
    with pytest.raises(table.InputError, match="built in"):
        table.unregister("kl")
    assert TOY not in table.NOTIONS and TOY not in table.FURTHER_NOTIONS
