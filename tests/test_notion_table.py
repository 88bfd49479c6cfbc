"""The notion table is the one place notions are spelled out: every list of notions is read from it."""

from __future__ import annotations

from pathlib import Path

import pytest

import relations.notions as table
from relations.kinds import Notion, NotionKind

ROOT = Path(__file__).resolve().parent.parent


def test_every_notion_has_one_row_and_the_docs_list_is_current():
    assert list(table.NOTIONS) == [str(n) for n in Notion]
    assert (ROOT / "docs" / "notions.md").read_text(encoding="utf-8") == table.markdown(), \
        "docs/notions.md is stale: regenerate it (its first lines say how)"


@pytest.mark.parametrize("name", list(table.NOTIONS))
def test_every_evaluator_resolves(name):
    row = table.NOTIONS[name]
    assert callable(table.evaluator(name))
    for which in ("floats", "kernel", "frontier"):  # every "module:function" of the row resolves
        if getattr(row, which) is not None:
            assert callable(table.evaluator(name, which=which))
    assert row.settings and row.description and row.reference and row.latex and row.symbol


def test_the_derived_lists():
    # written out by hand: the paper's six budgets, the five of them that are logarithms of rationals,
    # and the four the SMT encodings state (sigma_min only through its negation)
    assert table.BASE_NOTIONS == ("eps_i", "eps_d", "eps_m", "sigma_min", "eps_all", "neg_sigma")
    assert table.RATIO_NOTIONS == ("eps_i", "eps_d", "sigma_min", "eps_all", "neg_sigma")
    assert table.SMT_NOTIONS == ("eps_i", "eps_d", "eps_all", "neg_sigma")
    assert set(table.FURTHER_NOTIONS) == set(table.NOTIONS) - set(table.BASE_NOTIONS)
    assert all(table.NOTIONS[n].kind == NotionKind.RATIO for n in table.RATIO_NOTIONS)


def test_every_list_of_notions_reads_the_table():
    from relations.catalogue._conversions import EXTRA_NOTIONS, is_notion
    from relations.catalogue._entries import NOTIONS as CATALOGUE_NOTIONS
    from relations.checking._claims import CLAIM_NAMES
    from relations.io._exports import latex_math
    from relations.io._reports import ALL_NOTIONS
    from relations.measures._batch import PAPER
    from relations.measures._display import LATEX_NAMES
    from relations.measures._notions import NOTIONS as FURTHER

    assert set(CATALOGUE_NOTIONS) == {row.pattern for row in table.NOTIONS.values()}
    assert set(EXTRA_NOTIONS) == {table.NOTIONS[n].pattern for n in table.FURTHER_NOTIONS}
    assert set(CLAIM_NAMES) == set(table.NOTIONS) and set(FURTHER) == set(table.FURTHER_NOTIONS)
    assert set(PAPER) == set(table.BASE_NOTIONS) == set(LATEX_NAMES)
    assert [n.split("(")[0] for n in ALL_NOTIONS] == list(table.FURTHER_NOTIONS)
    assert all(is_notion(n) for n in ALL_NOTIONS) and not is_notion("eps_d")
    for name, row in table.NOTIONS.items():
        assert latex_math(name) == row.latex


def test_the_glossary_names_every_verdict_word():
    from relations.kinds import AuditVerdict, Status, Verdict

    text = (ROOT / "docs" / "claims-and-verdicts.md").read_text(encoding="utf-8")
    glossary = text[text.index("## Glossary of verdicts"):text.index("## Exit statuses")]
    for word in [*Status, *Verdict, *AuditVerdict]:
        assert f"`{word}`" in glossary, word
    assert "survived" not in text.replace("said `survived` before", "")


def test_tv_is_one_row_and_works_everywhere():
    """``tv`` was added as one row, one enum member and one evaluator; claims, conjectures, ``measure``, the
    float searches and LaTeX read it from the table.  Values by hand: for the rows (1/2, 1/4, 1/4),
    (1/4, 1/2, 1/4), (1/8, 1/8, 3/4) the positive parts of Q[x] - Q[x'] sum to 1/4 (0 vs 1), 1/2 (0 vs 2),
    1/2 (1 vs 2) and 1/2 (2 vs 0 or 2 vs 1), so tv = 1/2, first attained by (0, 2)."""
    from fractions import Fraction

    import numpy as np

    from relations.checking import check
    from relations.io._exports import latex_math
    from relations.measures._notion_floats import notion_float
    from relations.measures._notions import notion_result, notion_value
    from relations.model import Mechanism
    from relations.pipeline import conjecture

    mech = Mechanism.local([["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/8", "1/8", "3/4"]])
    r = notion_result(mech, "tv")
    assert str(r.value) == "1/2" and (r.witness.x, r.witness.x_prime) == (0, 2)
    assert notion_value(mech, "delta", Fraction(0)) == r.value  # a second method: the profile at 0
    assert notion_float(mech, "tv") == 0.5
    claims = check(mech, claims=["tv <= 1/2", "tv < 1/2"]).claims
    assert [c.holds for c in claims] == [True, False]
    assert latex_math("tv") == r"\mathrm{TV}"
    # binary RR with e^eps = 2 has tv = 2/3 - 1/3 = 1/3 > ln(2)/4: the searches find a counterexample
    refuted = conjecture("tv <= eps_d / 4", quick=True)
    assert refuted.verdict == "refuted" and refuted.decision.lhs > refuted.decision.rhs
    assert np.isclose(refuted.decision.lhs, float(notion_value(refuted.witness, "tv").value))


def test_chi2_by_hand_and_by_renyi():
    """chi2 = max sum_y (P_y - R_y)^2 / R_y.  By hand for binary RR with ratio 3, rows (3/4, 1/4) and (1/4, 3/4):
    (1/2)^2 / (1/4) + (1/2)^2 / (3/4) = 4/3; a second method: e^renyi(2) - 1 = 7/3 - 1."""
    from fractions import Fraction

    import numpy as np

    from relations.checking import check
    from relations.measures._notion_floats import notion_float
    from relations.measures._notions import notion_result, notion_value
    from relations.model import Mechanism
    from relations.pipeline import conjecture

    rr = Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]])
    assert notion_value(rr, "chi2").value == Fraction(4, 3)
    assert notion_value(rr, "renyi(2)").log.ratio - 1 == Fraction(4, 3)
    assert np.isclose(notion_float(rr, "chi2"), 4 / 3)
    # (0, 1): P = (1, 0), R = (1/2, 1/2) gives 1/(1/2) - 1 = 1; (1, 0) puts mass where R has none: inf
    assert str(notion_result(Mechanism.local([["1", "0"], ["1/2", "1/2"]]), "chi2").value) == "inf"
    floats = Mechanism.local(np.array([[0.75, 0.25], [0.25, 0.75]]), mode="float")
    assert not floats.exact and np.isclose(float(notion_value(floats, "chi2").value), 4 / 3)
    assert [c.holds for c in check(rr, claims=["chi2 <= 4/3", "chi2 < 4/3"]).claims] == [True, False]
    # kl = (1/2) ln 3 = 0.549 < 4/3 on binary RR: "chi2 <= kl" is false there, and the searches find one
    assert conjecture("chi2 <= kl", quick=True).verdict == "refuted"


def test_notion_all_leaves_out_what_a_graph_does_not_define(cli, tmp_path):
    """``--notion all`` on an explicit neighbour graph computes every notion defined there and names the
    one it leaves out (``cmi`` needs records); naming ``cmi`` explicitly is still bad input (exit 2)."""
    import json

    path = tmp_path / "graph.json"
    path.write_text(json.dumps({"setting": "central", "prior": ["1/2", "1/4", "1/4"],
                                "channel": [["1/2", "1/2"], ["3/4", "1/4"], ["1/10", "9/10"]],
                                "neighbours": [[0, 1], [1, 2]]}))
    done = cli("measure", str(path), "--notion", "all", "--json")
    assert done.returncode == 0, done.stderr
    obj = json.loads(done.stdout)
    computed = {row["name"].split("(")[0] for row in obj["notions"]}
    needing = {name for name, row in table.NOTIONS.items() if row.needs_records}
    assert needing == {"cmi"} and computed == set(table.FURTHER_NOTIONS) - needing
    assert [item["name"] for item in obj["left_out"]] == ["cmi"] and "records" in obj["left_out"][0]["reason"]
    text = cli("measure", str(path), "--notion", "all")
    assert text.returncode == 0 and "left out: cmi" in text.stdout
    explicit = cli("measure", str(path), "--notion", "cmi")
    assert explicit.returncode == 2 and "not defined here" in explicit.stderr
    local = json.loads(cli("measure", "examples/paper_example.json", "--notion", "all", "--json").stdout)
    assert "left_out" not in local and {row["name"].split("(")[0] for row in local["notions"]} == set(
        table.FURTHER_NOTIONS)


def test_every_row_states_its_values_and_zero_conventions():
    """docs/notions.md gives each notion's range and limits and its zero conventions (issue 30, item 6)."""
    for name, row in table.NOTIONS.items():
        assert row.values and row.zeros and row.unit in ("nats", "probability", "dimensionless"), name
        if row.unit == "probability":  # a probability's range lies in [0, 1]
            assert row.values.startswith(("[0, ", "[1/", "[prior_vulnerability, 1]")), name
