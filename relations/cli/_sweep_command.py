"""``relations sweep``: measures and relations over a grid or a bounded-exhaustive family, in resumable chunks
(registered on the CLI's ``app``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from relations.errors import EXIT_INTERRUPTED

__all__ = ["sweep"]


class _progress_bar:
    """A rich progress bar on stderr, in points: ``update(done, total)``."""

    def __init__(self) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        from relations.io._text import console

        self.bar = Progress(TextColumn("sweeping"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                            console=console(stderr=True), transient=True)
        self.task = self.bar.add_task("sweep", total=None)
        self.bar.start()

    def update(self, done: int, total: int) -> None:
        self.bar.update(self.task, completed=done, total=total)

    def stop(self) -> None:
        self.bar.stop()


def sweep(
    spec: str = typer.Argument(..., help="Sweep specification (JSON): a grid of a named mechanism's parameters or "
                               "a bounded-exhaustive family (docs/mechanism-files.md)."),
    out: str = typer.Option(..., "--out", help="Folder for the chunks (Parquet), the manifest, summary.json and "
                            "counterexample files; re-running resumes it."),
    scheduler: str | None = typer.Option(None, "--scheduler", help="Dask scheduler address: run the chunks on "
                                            "that cluster."),
    workers: int | None = typer.Option(None, "--workers", help="Local worker processes (default: one per core; "
                                          "0: in this process).", min=0, max=256),
    chunk_size: int | None = typer.Option(None, "--chunk-size", help="Points per chunk (default 64, or the "
                                             "folder's when resuming; for a family up to relabelling, members: by "
                                             "default about 64 representatives).", min=1, max=1_000_000),
    json_out: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
    force: bool = typer.Option(False, "--force", help="Replace a different sweep (or files relations did not "
                               "write) in --out."),
) -> None:
    """Evaluate measures and catalogue relations over a grid or every small mechanism, chunk by chunk.

    Each finished chunk is written at once; after an interruption the same command computes only the
    chunks missing. Exit status: 0 done (whatever the relations' statuses), 2 bad input, 130 interrupted."""
    from relations.app._sweep import run_sweep
    from relations.io._sweeps import load_spec

    parsed = load_spec(spec)  # a bad specification is refused before the folder is touched
    bar = _progress_bar() if sys.stderr.isatty() else None
    try:
        run = run_sweep(parsed, out=out, chunk_size=chunk_size, workers=workers, scheduler=scheduler, force=force,
                        progress=bar.update if bar else None)
    except KeyboardInterrupt:  # typer would turn it into exit status 130 without a word
        if bar:
            bar.stop()
            bar = None
        done = len(list(Path(out, "chunks").glob("*.parquet")))
        from relations._processes import say_interrupted

        say_interrupted(f"relations: interrupted; {done} finished chunk{'' if done == 1 else 's'} kept in {out}: "
                        "run the same command to compute only the missing ones")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        if bar:
            bar.stop()
    if json_out:
        sys.stdout.write(json.dumps(dict(run.summary, computed=len(run.computed), resumed=run.resumed), indent=1)
                         + "\n")
    else:
        sys.stdout.write(run.text)
