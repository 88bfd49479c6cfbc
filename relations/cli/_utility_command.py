"""``relations utility``: expected distortion, entropies, I(X;Y) and the Fano bound of a mechanism."""

from __future__ import annotations

import json
import sys

import typer

from relations.cli._helpers import output_console
from relations.errors import InputError

__all__ = ["utility"]


def utility(
    file: str = typer.Argument(..., help="Mechanism file (exact); - for standard input."),
    loss: str = typer.Option("hamming", "--loss", help="'hamming' or a JSON file with a loss matrix."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Expected distortion, H(X), H(X|Y), I(X;Y) and the Fano lower bound on leakage."""
    from relations.io._reading import load, load_loss_matrix
    from relations.tradeoffs._utility import utility_summary

    if file == "-" and loss == "-":
        raise InputError("the mechanism file and --loss cannot both be read from standard input ('-')")
    mech = load(file)
    if not mech.exact:
        raise InputError(f"{file}: utility needs an exact (JSON) mechanism")
    out = utility_summary(mech, loss if loss == "hamming" else load_loss_matrix(loss))
    if json_out:
        sys.stdout.write(json.dumps(out, indent=1) + "\n")
    else:
        for k, v in out.items():
            output_console().print(f"{k:>24}  {v}")
