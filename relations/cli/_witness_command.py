"""``relations witness``: a witness mechanism file for a non-implication of the catalogue."""

from __future__ import annotations

import sys

import typer

from relations.cli._helpers import did_you_mean, fail

__all__ = ["witness"]


def witness(
    relation: str = typer.Argument(..., help="A non-implication id, e.g. zheng2025.thm12."),
    eps_m: str = typer.Option("1/10", "--eps-m", help="Largest I(X;Y) allowed (decimal or fraction)."),
    full_support: str | None = typer.Option(None, "--full-support", help="Instead of infinite budgets: full "
                                               "support with e^eps_d at least this ratio."),
) -> None:
    """Print a witness mechanism file for a non-implication: I(X;Y) <= eps_m, infinite (or huge) eps_d / eps_i."""
    from relations.catalogue._entries import BY_ID
    from relations.io._writing import dumps
    from relations.numbers._text import parse_rational
    from relations.search._witnesses import MIN_WITNESS_EPS_M, mi_witness

    rel = BY_ID.get(relation)
    if rel is None or rel.kind != "non-implication":
        choices = [i for i, r in BY_ID.items() if r.kind == "non-implication"]
        fail(f"{relation!r} is not a non-implication in the catalogue{did_you_mean(relation, choices)} (one of "
             f"{', '.join(choices)})")
        return
    bound = parse_rational(eps_m, "--eps-m")
    big = parse_rational(full_support, "--full-support") if full_support is not None else None
    if bound < MIN_WITNESS_EPS_M or (big is not None and big <= 1):
        fail("--eps-m must be at least 1e-1000 and --full-support above 1")
        return
    mech = mi_witness(rel.setting, bound, big)
    sys.stdout.write(dumps(mech, f"witness for {rel.id}: I(X;Y) <= {bound}"))
