"""``python -m relations.cli ...`` runs the command line (:func:`relations.cli.main`)."""

from __future__ import annotations

from relations.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    from relations._processes import run_command_line

    run_command_line(main, None)  # as the console script: one line after a Ctrl-C
