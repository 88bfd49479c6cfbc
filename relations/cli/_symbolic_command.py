"""``relations symbolic``: closed forms (sympy) of the budgets in a symbolic parameter."""

from __future__ import annotations

import sys

import typer

from relations.cli._helpers import did_you_mean, fail

__all__ = ["symbolic"]


def symbolic(
    mechanism: str = typer.Argument(..., help="krr, rr-prior (binary RR with prior (pi, 1-pi)) or paper6/paper8."),
    k: int = typer.Option(2, "--k", help="Domain size for krr."),
    piecewise: bool = typer.Option(False, "--piecewise", help="Rewrite Max/Min as Piecewise."),
    fmt: str = typer.Option("text", "--format", help="text (one line each), pretty (2-D, unicode) or latex."),
) -> None:
    """Closed forms (sympy) of eps_d, eps_i, sigma_min and I(X;Y) in the symbolic parameter."""
    import sympy

    import relations.mechanisms._symbolic as sym

    fmt = fmt.strip().lower()
    if fmt not in ("text", "pretty", "latex"):
        fail(f"--format must be one of text, pretty, latex, got {fmt!r}{did_you_mean(fmt, ('text', 'pretty', 'latex'))}")
        return

    builders = {"krr": lambda: sym.krr(k), "rr-prior": sym.binary_rr_with_prior,
                "paper6": lambda: sym.paper_construction(6), "paper8": lambda: sym.paper_construction(8)}
    if mechanism not in builders:
        fail(f"unknown symbolic mechanism {mechanism!r}{did_you_mean(mechanism, builders)} (one of "
             f"{', '.join(builders)})")
        return
    if k < 2:
        fail(f"--k {k}: krr needs a domain of at least 2 values")
        return
    forms = builders[mechanism]()
    VAREPSILON = r"\varepsilon"
    tex = {"eps_d": r"\varepsilon_d", "eps_i": r"\varepsilon_i", "sigma_min": r"\sigma_{\min}",
           "eps_m": r"\varepsilon_m"}
    for name in ("eps_d", "eps_i", "sigma_min", "eps_m"):
        expr = getattr(forms, name)
        expr = sym.piecewise(expr) if piecewise else expr
        if fmt == "latex":  # simplified (sympy keeps the value under the symbols' assumptions) where shorter; \ln
            simple = sympy.simplify(expr)
            if sympy.count_ops(simple) < sympy.count_ops(expr) and not simple.has(sympy.I):
                expr = simple
            body = sympy.latex(expr, ln_notation=True,
                               symbol_names={x: VAREPSILON for x in expr.free_symbols if x.name == "eps"})
            sys.stdout.write(f"${tex[name]} = {body}$\n")
        elif fmt == "pretty":
            sys.stdout.write(f"{name} =\n{sympy.pretty(expr, use_unicode=True)}\n\n")
        else:
            sys.stdout.write(f"{name} = {expr}\n")
