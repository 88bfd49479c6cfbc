"""Results are numbers in Python: ``float()``, exact comparisons with numbers and with each other, ``round()``,
``format()``; ``measure(m, notions=[...])``; a short ``repr(Mechanism)``.  Expected values by hand or mpmath."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from relations import Mechanism, measure
from relations.mechanisms import krr, paper_example
from relations.numbers import LogRatio
from relations.numbers._reals import Log


def _sign_by_mpmath(q: Fraction, x: float) -> int:
    """sign(ln q - x) at 60 digits (x exactly: its binary value)."""
    with mpmath.workdps(60):
        d = mpmath.log(mpmath.mpf(q.numerator) / q.denominator) - mpmath.mpf(Fraction(x).numerator) / Fraction(x).denominator
        return (d > 0) - (d < 0)


def test_budgets_compare_exactly_with_numbers_and_each_other():
    res = measure(paper_example())  # eps_d = ln(13/7), eps_i = ln(247/7), sigma_min = ln(1/19)
    e = res.eps_d
    near = math.log(13 / 7)  # a double near ln(13/7); which side it lies on is decided by mpmath here
    assert float(e) == pytest.approx(float(mpmath.log(mpmath.mpf(13) / 7)), rel=1e-16)
    for x in (near, math.nextafter(near, 0), math.nextafter(near, 1), 0.62, 0.619, 1.1):
        s = _sign_by_mpmath(Fraction(13, 7), x)
        assert (e < x, e <= x, e > x, e >= x, e == x) == (s < 0, s <= 0, s > 0, s >= 0, s == 0), x
        assert (x > e) == (s < 0) and (x <= e) == (s >= 0)  # reflected
    assert e <= 1 and e < Fraction(62, 100) and not e < Fraction(61, 100) and e != 0
    assert res.eps_i > res.eps_d > res.sigma_min and res.sigma_min < 0  # 247/7 > 13/7 > 1 > 1/19
    assert sorted([res.eps_i, res.sigma_min, res.eps_d]) == [res.sigma_min, res.eps_d, res.eps_i]
    assert e == Log(LogRatio.of(Fraction(13, 7))) and e != Log(LogRatio.of(Fraction(12, 7)))
    assert e < math.inf and e > -math.inf and not e < math.nan and not e == math.nan
    with pytest.raises(TypeError):
        e < "1"  # noqa: B015


def test_round_and_format_follow_the_exact_value():
    e = measure(paper_example()).eps_d  # ln(13/7) = 0.61903920840622...
    assert round(e) == 1 and isinstance(round(e), int)
    assert round(e, 3) == 0.619 and round(e, 5) == 0.61904
    assert f"{e:.4f}" == "0.6190" and format(e, ".2e") == "6.19e-01" and f"{e}" == str(e)
    zero = measure(krr(3, 1)).eps_d  # ratio 1: ln(1) = 0 exactly
    assert zero == 0 and hash(zero) == hash(0) and round(zero, 2) == 0.0


def test_mutual_information_compares_through_its_enclosure():
    res = measure(paper_example())
    mi = res.eps_m  # I(X;Y) = 0.0087942315930359987...
    assert mi < res.eps_d and mi > 0 and mi < 0.0088 and mi > 0.00879
    assert float(mi) == res.eps_m.value and round(mi, 4) == 0.0088
    inside = (mi.enclosure.lower + mi.enclosure.upper) / 2  # a rational its enclosure cannot separate from
    with pytest.raises(ValueError, match="undecided"):
        mi < inside  # noqa: B015


def test_infinite_and_float_mode_budgets():
    import numpy as np

    cut = Mechanism.local([["1", "0"], ["0", "1"]])  # a zero entry against a positive one: eps_d = +inf
    e = measure(cut).eps_d
    assert e == math.inf and e > 10**300 and float(e) == math.inf
    floats = measure(Mechanism.local(np.array([[0.75, 0.25], [0.25, 0.75]])), mode="float").eps_d
    assert floats <= 1.1 and floats > 1.09  # ln 3 = 1.0986...


def test_measure_takes_further_notions():
    """Renyi of order 2 of the paper example's rows: (13/20)^2/(7/20) + (7/20)^2/(13/20) = 127/91 (by hand)."""
    from relations.errors import InputError

    res = measure(paper_example(), notions=["renyi(2)", "tv", "renyi(2)"])
    assert list(res.notions) == ["renyi(2)", "tv"]
    assert res.notions["renyi(2)"] == Log(LogRatio.of(Fraction(127, 91)))
    assert res.notions["tv"] == Fraction(13, 20) - Fraction(7, 20)  # half the L1 distance of the rows
    assert res.notions["tv"] > res.eps_m and "further notions" in str(res) and "ln(127/91)" in str(res)
    every = measure(krr(3, 2), notions=["all"]).notions
    assert {"kl", "tv", "renyi(2)"} <= set(every) and len(every) >= 10
    with pytest.raises(InputError):
        measure(paper_example(), notions=["nonsense"])


def test_mechanism_repr_is_short_and_html_shows_the_matrix():
    m = paper_example()
    text = repr(m)
    assert text.startswith("Mechanism(local, 2 inputs x 2 outputs, exact") and "\n" not in text and len(text) < 120
    assert "array" not in text and "Fraction" not in text
    html = m._repr_html_()
    assert html.count("<tr>") == 3 and "13/20" in html and "7/20" in html and "19/20" in html


def test_check_shows_the_claims_first_with_bound_and_slack():
    """``print(check(m, claims))``: the claims right after the measures, each with its bound and slack (by hand:
    1 - ln(13/7) = 0.380960791593...), the catalogue as one counting line; ``text(catalogue=True)`` has it all."""
    from relations import check

    report = check(paper_example(), ["eps_d <= 1"])
    text = str(report)
    assert "zheng2025.thm4" not in text and f"catalogue: {len(report.outcomes)} relations" in text
    row = next(line for line in text.splitlines() if line.startswith("│ eps_d <= 1 "))
    cells = [c.strip() for c in row.split("│")[1:-1]]
    assert cells[0] == "eps_d <= 1" and cells[2] == "1" and cells[4] == "holds"
    assert float(cells[3]) == pytest.approx(1 - math.log(13 / 7), abs=1e-6)
    full = report.text(catalogue=True)
    assert "zheng2025.thm4" in full and full.index("zheng2025.thm4") < full.index("│ eps_d <= 1 ")
    assert "zheng2025.thm4" in str(check(paper_example()))  # no claims: the catalogue, as before
