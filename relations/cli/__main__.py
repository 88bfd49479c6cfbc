"""``python -m relations.cli ...`` runs the command line (:func:`relations.cli.main`)."""

from __future__ import annotations

from relations.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    main()
