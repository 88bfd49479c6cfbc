"""``python -m relations ...`` runs the command line (:mod:`relations.cli`)."""

from __future__ import annotations

from relations.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    main()
