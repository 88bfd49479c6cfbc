"""Exact computations a statement's text can drive are bounded before they run (issue 43 item 2).

A power of constants is refused from the text when its bits (bounded from the text alone) exceed
``MAX_POWER_BITS``; the prover's linear route counts the terms of an expansion before expanding.
"""

from __future__ import annotations

import math

import pytest
from conftest import run_cli

from relations.checking._conjectures import parse_conjecture
from relations.checking._grammar import MAX_POWER_BITS
from relations.errors import InputError
from relations.proofs import _conjectures as prover


@pytest.mark.parametrize("text", [
    "eps_d <= 10^10^10 * eps_d",
    "eps_d <= 2^(2^30) * eps_d",
    "eps_d <= sqrt(2)^(10^10) * eps_d",
    "eps_d <= max(2, 3)^(10^10) * eps_d",
    "eps_d <= (3/2)^(10^7) + eps_d",
    "eps_d <= 2^(2^19) * 2^(2^19) * 2^(2^19) * eps_d",  # each below the limit, together above
])
def test_a_power_too_large_to_compute_is_refused_from_the_text(text):
    with pytest.raises(InputError, match="too large to compute exactly"):
        parse_conjecture(text)


def test_the_limit_is_where_the_docs_say():
    # 2^n has n + 1 bits: just below the limit parses, just above is refused (with its own bits bound).
    below = MAX_POWER_BITS - 64
    parse_conjecture(f"eps_d <= 2^{below} * eps_d")
    with pytest.raises(InputError, match=f"limit for the powers in a statement is {MAX_POWER_BITS} bits"):
        parse_conjecture(f"eps_d <= 2^{MAX_POWER_BITS + 1} * eps_d")
    parse_conjecture("eps_d <= 1^(10^100) * eps_d")  # 1, 0 and -1 have every power small
    parse_conjecture("eps_d <= eps_d^(10^10)")  # a notion's power: nothing exact is computed from the text


def test_the_cli_answers_with_one_line():
    res = run_cli("conjecture", "eps_d <= 10^10^10 * eps_d", "--quick")
    assert res.returncode == 2, res.stderr
    assert res.stderr.count("\n") == 1 and "too large to compute exactly" in res.stderr
    assert "Traceback" not in res.stderr


def test_expansion_terms_are_counted_before_expanding():
    import sympy  # here, not at collection (0.9 s of CPU in each xdist worker)

    x, y, z = sympy.symbols("x y z")
    for e in [(x + y + 1) ** 3, (x + 1) ** 2 * (y + z) ** 4, x * (y + 1) ** 5 + (z + x) ** 2, x**-1 + y]:
        assert prover._expanded_terms(e) >= len(sympy.Add.make_args(sympy.expand(e)))
    assert prover._expanded_terms((x + y + z + 1) ** 3) == math.comb(4 + 3 - 1, 3)  # the multinomial count
    big = sympy.Pow(x + 1, 100000, evaluate=False)
    assert prover._expanded_terms(big) > prover.MAX_EXPANDED_TERMS
    assert prover._expanded_terms(sympy.Pow(x, 10**10, evaluate=False)) > prover.MAX_EXPANDED_TERMS


@pytest.mark.parametrize("text", ["eps_d <= (eps_d + 1)^100000", "eps_d <= eps_d^(10^10)"])
def test_the_prover_never_expands_a_huge_power(text, monkeypatch):
    import sympy

    real = sympy.expand

    def guarded(e, *args, **kwargs):
        for node in sympy.preorder_traversal(e):
            if isinstance(node, sympy.Pow) and node.exp.is_Integer:
                assert abs(int(node.exp)) <= prover.MAX_EXPANDED_POWER, node
        return real(e, *args, **kwargs)

    monkeypatch.setattr(sympy, "expand", guarded)
    prover.prove_conjecture(parse_conjecture(text), "local", timeout_ms=2000)  # a proof or None: it returns


def test_the_docs_state_the_limits_of_the_code():
    from conftest import ROOT

    table = (ROOT / "docs" / "mechanism-files.md").read_text(encoding="utf-8")
    text = (ROOT / "docs" / "claims-and-verdicts.md").read_text(encoding="utf-8")
    assert f"2^20 ({MAX_POWER_BITS})" in table and MAX_POWER_BITS == 2**20
    assert f"terms, counted first, is at most {prover.MAX_EXPANDED_TERMS}" in text
    assert f"up to the {prover.MAX_EXPANDED_POWER}th" in text
