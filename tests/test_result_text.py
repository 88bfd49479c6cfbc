"""``print()`` and ``repr()`` of the result objects (issue 31, item 4): ``str()`` is the CLI's table for the
same mechanism (compared with the CLI's own output, run as a subprocess at 100 columns), ``repr()`` one short
line; neither shows a ``Fraction(...)``; a mechanism given in floats shows its exact forms as decimals."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from decimal import ROUND_DOWN, Context, Decimal
from fractions import Fraction

import numpy as np
import pytest
from conftest import EXAMPLES, ROOT, run_cli

from relations import check, conjecture, load, measure
from relations.audit import audit
from relations.measures._notions import notion_result
from relations.mechanisms import randomized_response

PAPER = str(EXAMPLES / "paper_example.json")


def cli(*args: str) -> str:
    """The CLI's standard output at 100 columns (the width of ``str()``), trailing spaces removed."""
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1"}
    run = run_cli(*args, env=env)  # in this process (tests/conftest.py)
    assert run.returncode in (0, 1), run.stderr
    return "\n".join(line.rstrip() for line in run.stdout.rstrip("\n").split("\n"))


def one_line(text: str) -> None:
    assert "\n" not in text and len(text) < 300 and "Fraction(" not in text, text


def test_measures_print_is_the_cli_table_and_repr_one_line():
    m = measure(load(PAPER))
    assert str(m) == cli("measure", PAPER)
    one_line(repr(m))
    assert "Fraction(" not in str(m)
    # the values by hand: eps_d = ln(13/7), eps_i = ln(247/7), sigma_min = ln(1/19) (docs/semantics.md's example)
    assert repr(m).startswith(f"Measures(eps_i=ln(247/7)≈{math.log(247 / 7):.5g}, eps_d=ln(13/7)≈{math.log(13 / 7):.5g}, "
                              f"eps_m≈")
    assert repr(m).endswith(f"sigma_min=ln(1/19)≈{math.log(1 / 19):.5g})")


def _truncated(q: Fraction, digits: int = 16) -> str:
    ctx = Context(prec=digits, rounding=ROUND_DOWN)
    return format(ctx.divide(Decimal(q.numerator), Decimal(q.denominator)), "f")


def test_float_derived_values_print_as_decimals_marked_binary(tmp_path):
    rows, prior = [[0.9, 0.1], [0.2, 0.8]], [0.3, 0.7]
    path = tmp_path / "floats.npz"
    np.savez(path, channel=np.array(rows), prior=np.array(prior))
    mech = load(path)
    m = measure(mech)
    text = str(m)
    assert text == cli("measure", str(path))
    # eps_d by hand: the largest ratio of a column's entries, rows renormalised at the floats' binary values
    exact = [[Fraction(v) / sum(map(Fraction, row)) for v in row] for row in rows]
    q = max(exact[a][y] / exact[b][y] for a in (0, 1) for b in (0, 1) for y in (0, 1))
    assert f"ln({_truncated(q)}…)" in text and "floats at their binary values" in " ".join(text.split())
    assert str(q.numerator) not in text and "Fraction(" not in text
    one_line(repr(m))
    assert f"eps_d≈{math.log(q):.5g}" in repr(m) and "floats at their binary values" in repr(m)
    assert "-0 " not in text and "≈-0," not in repr(m)
    for part in m:  # the budgets and I(X;Y) too: one line, a decimal for the long ln(q)
        one_line(repr(part))
    assert repr(m.eps_d) == f"Budget(eps_d≈{math.log(q):.5g}, witness=(x=1, x'=0, y=1))"


def test_check_report_print_is_the_cli_tables():
    report = check(load(PAPER), ["eps_d <= ln(2)"])
    # the command line shows the catalogue too; print() in Python shows the claims first and counts the catalogue
    assert report.text(catalogue=True) == cli("check", PAPER, "--claim", "eps_d <= ln(2)")
    assert str(report).startswith(report.text(catalogue=True).split("relations for the")[0].rstrip())
    one_line(repr(report))
    counts = {}
    for o in report.outcomes:
        counts[str(o.status)] = counts.get(str(o.status), 0) + 1
    for status, n in counts.items():
        assert f"{n} {status}" in repr(report)
    assert "claims: 1 holds" in repr(report)


def test_notion_result_print_is_the_cli_row(tmp_path):
    mech = randomized_response(3)
    path = tmp_path / "rr.json"
    from relations.io._writing import dumps

    path.write_text(dumps(mech, "rr"), encoding="utf-8")
    r = notion_result(mech, "maximal_leakage")

    def row(text: str) -> list[str]:
        line = next(line for line in text.splitlines() if line.startswith("│ maximal_leakage"))
        return [cell.strip() for cell in line.split("│")[1:-1]]

    assert row(str(r)) == row(cli("measure", str(path), "--notion", "maximal_leakage"))
    # maximal leakage of 3-ary RR with ratio 2 (rows 1/2, 1/4, 1/4): ln(sum_y max_x Q) = ln(3/2)
    assert row(str(r))[1:3] == [f"{math.log(1.5):.6g}", "ln(3/2)"]
    one_line(repr(r))
    assert repr(r) == f"NotionResult(name='maximal_leakage', value=ln(3/2)≈{math.log(1.5):.5g})"


RR = '''
def rr(x, rng):
    return x if rng.random() < 0.75 else 1 - x
'''


def test_audit_report_print_has_the_cli_lines(tmp_path):
    path = tmp_path / "rr_code.py"
    path.write_text(RR, encoding="utf-8")
    namespace: dict = {}
    exec(compile(RR, str(path), "exec"), namespace)
    report = audit(namespace["rr"], domain=[0, 1], claims=["eps_d <= ln(2)"])
    printed = cli("audit", f"{path}:rr", "--domain", "0,1", "--claim", "eps_d <= ln(2)", "--workers", "0")
    assert str(report).startswith(printed.replace(f"{path}:rr", "rr"))
    assert "ln(3)" in printed and "violated" in printed  # rr is 3-ary RR: eps_d = ln(0.75 / 0.25) exactly
    eps_d_row = next(line for line in str(report).splitlines() if line.startswith("│ eps_d "))
    # ln 3 = 1.0986122886681097...: its first 12 significant digits, truncated, and "…" (more follow)
    assert [c.strip() for c in eps_d_row.split("│")[2:4]] == [f"{math.log(3):.15f}"[:13] + "…", "ln(3)"]
    one_line(repr(report))
    assert f"eps_d=ln(3)≈{math.log(3):.5g}" in repr(report) and "'eps_d <= ln(2): fails'" in repr(report)


def test_conjecture_result_print_is_the_cli_text():
    statement = "eps_d <= eps_i - sigma_min"
    result = conjecture(statement, quick=True)
    assert str(result) == cli("conjecture", statement, "--quick")
    one_line(repr(result))
    assert repr(result).startswith(f"ConjectureResult(text={statement!r}, setting='local', verdict=")


def test_relation_verdict_repr_and_print():
    from relations.catalogue import get
    from relations.kinds import Verdict
    from relations.pipeline import RelationVerdict

    v = RelationVerdict(get("zheng2025.thm4"), Verdict.REFUTED, "counterexample re-checked exactly " * 10)
    one_line(repr(v))
    assert "zheng2025.thm4" in str(v) and "refuted" in str(v)
    assert max(len(line) for line in str(v).splitlines()) <= 100


@pytest.mark.parametrize("obj", ["measures", "report"])
def test_html_stays(obj):
    mech = load(PAPER)
    value = measure(mech) if obj == "measures" else check(mech)
    assert value._repr_html_().startswith("<table>")


def test_lower_layers_import_no_table_code_to_print():
    """str() reaches the io layer by name only (relations.model._display.text_view), as the layer rule asks."""
    code = ("import sys; from relations import measure; from relations.mechanisms import krr; m = measure(krr(3, 2));"
            " r = repr(m); assert 'relations.io._tables' not in sys.modules, sorted(sys.modules);"
            " str(m); assert 'relations.io._tables' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, timeout=120)


def test_exact_input_keeps_its_long_fractions():
    """Only float-derived forms become decimals: exact input keeps ln(q) as a fraction, however long."""
    from relations import Mechanism

    a, b = Fraction(123456789011, 10**12), Fraction(765432109877, 10**12)
    mech = Mechanism.local([[str(a), str(1 - a)], [str(b), str(1 - b)]])
    q = max(b / a, (1 - a) / (1 - b))  # eps_d by hand: the larger column ratio
    text = str(measure(mech))
    assert len(str(q)) > 24 and f"ln({q.numerator}/" in text  # a long form, kept
    assert "…)" not in text.split("eps_m")[0]
    assert f"eps_d≈{math.log(q):.5g}" in repr(measure(mech)) and "binary" not in repr(measure(mech))
    one_line(repr(measure(mech)))


def test_a_budget_just_below_one_is_not_shown_as_one():
    """``examples/krr_floats.npz``: 3-RR with ``e^eps = e`` in floats.  By hand, at the floats' binary values (rows
    renormalised, as the title says), ``eps_d = ln(max Q[x][y] / Q[x'][y])``, computed here at 50 digits: just
    below 1 (the double nearest is 0.9999999999999999).  The table shows the digits its enclosure certifies,
    like ``eps_m``'s row, never ``1``; every other value row also ends in "…" after 12 significant digits."""
    import mpmath

    q = np.load(ROOT / "examples" / "krr_floats.npz")["channel"]
    rows = [[Fraction(float(v)) for v in row] for row in q]
    rows = [[v / sum(row) for v in row] for row in rows]
    ratio = max(a[y] / b[y] for a in rows for b in rows for y in range(len(a)))
    with mpmath.workdps(50):
        eps = mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)
        assert eps < 1
        expected = mpmath.nstr(eps, 30, strip_zeros=False)[:14] + "…"  # 12 significant digits, truncated
    printed = cli("measure", str(ROOT / "examples" / "krr_floats.npz"))
    row = next(line for line in printed.splitlines() if line.startswith("│ eps_d "))
    assert row.split("│")[2].strip() == expected == "0.999999999999…", row
    for name in ("eps_i", "sigma_min", "eps_m"):
        cell = next(line for line in printed.splitlines() if line.startswith(f"│ {name} ")).split("│")[2].strip()
        assert cell.endswith("…") and len(cell.lstrip("-").replace(".", "").rstrip("…").lstrip("0")) == 12, cell


def test_a_prior_of_decimal_text_is_refused_for_its_exact_sum():
    """``["0.6", "0.5"]`` is read exactly (6/10 + 5/10 = 11/10): the message says so, and names no float
    tolerance (no float was given); floats keep the tolerance note."""
    from relations import InputError, from_dict

    spec = {"setting": "local", "channel": [["1/2", "1/2"], ["1/3", "2/3"]]}
    with pytest.raises(InputError) as err:
        from_dict({**spec, "prior": ["0.6", "0.5"]})
    assert str(err.value) == "prior: entries sum to 11/10, not 1"
    with pytest.raises(InputError, match="tolerance for floats"):
        from_dict({**spec, "prior": [0.6, 0.5]})
