"""``relations mechanisms``: the named mechanisms a mechanism file can use."""

from __future__ import annotations

import json
import sys

import typer

from relations.cli._helpers import output_console

__all__ = ["mechanisms"]


def mechanisms(json_out: bool = typer.Option(False, "--json", help="Print the list as JSON.")) -> None:
    """The named mechanisms a file can use: "channel": {"mechanism": NAME, ...parameters}."""
    from rich.table import Table

    from relations.mechanisms._registry import REGISTRY

    if json_out:
        sys.stdout.write(json.dumps([{"mechanism": e.name, "parameters": list(e.params), "summary": e.summary,
                                      "function": f"relations.mechanisms.{e.function.__name__}"}
                                     for e in REGISTRY.values()], indent=1) + "\n")
        return
    console = output_console()
    wide = console.width >= 120  # narrower: names whole, the Python functions in --json
    table = Table(title="named mechanisms", title_justify="left",
                  caption=None if wide else "Python functions: relations mechanisms --json")
    table.add_column("mechanism", no_wrap=True)
    for col in ("parameters", "summary") + (("Python",) if wide else ()):
        table.add_column(col, overflow="fold")
    for e in REGISTRY.values():
        table.add_row(e.name, e.parameter_text, e.summary, *((f"{e.function.__name__}()",) if wide else ()))
    console.print(table)
