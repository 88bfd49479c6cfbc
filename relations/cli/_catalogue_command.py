"""``relations catalogue``: the relation catalogue and the composition theorems, as a table or JSON."""

from __future__ import annotations

import json
import sys

import typer

from relations.cli._helpers import output_console

__all__ = ["catalogue"]


def catalogue(json_out: bool = typer.Option(False, "--json", help="Print the catalogue as JSON.")) -> None:
    """The relation catalogue (id, setting, statement in words and symbols, source), then the composition
    theorems that check evaluates on a repeat or parts file."""
    from relations.io._reports import catalogue_json
    from relations.io._tables import catalogue_table

    if json_out:
        sys.stdout.write(json.dumps(catalogue_json(), indent=2) + "\n")
    else:
        console = output_console()
        console.print(catalogue_table(width=console.width))
