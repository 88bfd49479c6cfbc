"""``relations optimize``: the least-distortion mechanism under a budget of one notion."""

from __future__ import annotations

import sys

import typer

from relations.cli._helpers import did_you_mean
from relations.errors import InputError

__all__ = ["optimize"]


def optimize(
    prior: str = typer.Option(..., "--prior", help="Comma-separated prior, e.g. '1/2,1/3,1/6'."),
    notion: str = typer.Option(..., "--notion", help="eps_d, eps_i or eps_m (the budget bounded; dp, id, mi "
                               "are their 0.2 names)."),
    eps: str = typer.Option(..., "--eps", help="The budget: decimal, fraction or ln(RATIONAL)."),
    loss: str = typer.Option("hamming", "--loss", help="'hamming' or a JSON file with a loss matrix."),
    out: str | None = typer.Option(None, "--out", help="Write the optimal mechanism file here (else stdout); "
                                      "an existing file only with --force."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --out file."),
) -> None:
    """The least-distortion mechanism under an eps budget of one notion (LP via HiGHS, or Blahut-Arimoto)."""
    from relations.io._outputs import check_output_file

    if out is not None:
        check_output_file(out, force=force)
    from relations.io._writing import dumps
    from relations.tradeoffs._optimal import optimal_dp, optimal_id, optimal_mi

    notion = notion.strip().lower()  # choices are case-insensitive: --notion EPS_D
    old_names = {"dp": "eps_d", "id": "eps_i", "mi": "eps_m"}  # the 0.2 names, still accepted
    notion = old_names.get(notion, notion)
    solvers = {"eps_d": optimal_dp, "eps_i": optimal_id, "eps_m": optimal_mi}
    solver = solvers.get(notion)
    if solver is None:
        raise InputError(f"--notion must be one of {', '.join(solvers)}, got {notion!r}"
                         f"{did_you_mean(notion, [*solvers, *old_names])}")
    from relations.numbers._text import parse_rational_list

    p = parse_rational_list(prior, "--prior")
    if any(v < 0 for v in p) or sum(p) != 1:
        raise InputError("--prior: entries must be non-negative and sum to 1")
    from relations.io._reading import load_loss_matrix

    lm = loss if loss == "hamming" else load_loss_matrix(loss)
    result = solver(p, eps, loss=lm)
    if result.certified:
        said = f"optimal, certified by an exact dual: distortion {result.distortion}"
    else:
        how = (", built within a rational ratio below e^eps" if result.mixing == 0 and result.notion != "mi"
               else f", mixing {result.mixing}")
        said = (f"solver distortion {result.value:.12g}, exact distortion {float(result.distortion):.12g}{how}"
                + (f", Blahut gap {result.gap:.3g}" if result.gap is not None else ""))
    text = dumps(result.mechanism, f"optimal {notion} mechanism, {notion} <= {eps}: {said}")
    if out:
        from relations.io._outputs import create_file

        create_file(out, text.encode("utf-8"), force=force)  # a file made meanwhile is not replaced
        sys.stderr.write(f"wrote {out}: distortion {float(result.distortion):.12g} (solver {result.value:.12g})"
                         + (", optimal, certified by an exact dual" if result.certified else "") + "\n")
    else:
        sys.stdout.write(text)
