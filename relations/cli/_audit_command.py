"""``relations audit``: a randomizer as code against its claimed budget."""

from __future__ import annotations

import os
import sys

import typer

from relations.cli._helpers import fail

__all__ = ["audit"]


def _parse_bins(text: str | None):
    """``--bins``: ``N`` (equal-mass intervals, 2 to 10000) or comma-separated finite edges."""
    import math

    from relations.errors import InputError

    if text is None:
        return None
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if len(parts) == 1 and parts[0].isascii() and parts[0].isdigit() and len(parts[0]) <= 9:
        n = int(parts[0])
        if not 2 <= n <= 10_000:
            raise InputError(f"--bins: {n} intervals; give 2 to 10000")
        return n
    try:
        edges = [float(p) for p in parts]
    except ValueError:
        raise InputError(f"--bins: {text!r} is neither a number of intervals nor comma-separated edges") from None
    if not edges or len(edges) > 10_000 or not all(math.isfinite(e) for e in edges):
        raise InputError("--bins: give 1 to 10000 finite edges")
    return sorted(set(edges))


def audit(
    target: str | None = typer.Argument(None, help="MODULE:FUNCTION, FILE.py:FUNCTION (a randomizer fn(x) or "
                                           "fn(x, rng=...)) or a library mechanism (see --list)."),
    domain: str | None = typer.Option(None, "--domain", help="Comma-separated inputs, e.g. 0,1,2,3 (integers are "
                                         "passed as int). Library mechanisms default to their own inputs."),
    eps: str | None = typer.Option(None, "--eps", help="The documented budget: claim eps_d <= EPS (e.g. 'ln(3)'); "
                                      "library mechanisms are built with it."),
    outputs: str | None = typer.Option(None, "--outputs", help="Comma-separated outputs the randomizer may "
                                          "return (a clamped sampler's range, parsed as --domain): a loop on "
                                          "draws then gets a certified upper bound on eps_d too."),
    k: int | None = typer.Option(None, "--k", help="Domain size of a library mechanism.", min=2, max=4096),
    param: list[str] = typer.Option([], "--param", help="A library mechanism's own parameter NAME=VALUE. Repeatable."),
    claim: list[str] = typer.Option([], "--claim", help="More claims, as for 'relations check'. Repeatable."),
    out: str | None = typer.Option(None, "--out", help="Write the implemented channel as a mechanism file here."),
    max_paths: int = typer.Option(1_000_000, "--max-paths", help="Most runs of the randomizer (white-box).", min=1,
                                  max=100_000_000),
    samples: int | None = typer.Option(None, "--samples", help="Black-box budget: most samples per input, used "
                                          "when the randomness cannot be enumerated (default 100000, at most "
                                          "2000000 over all inputs).", min=1, max=100_000_000),
    bins: str | None = typer.Option(None, "--bins", help="Bin real-valued outputs when sampling: a number N of "
                                       "equal-mass intervals from a first sample, or comma-separated edges (by "
                                       "default outputs that seldom repeat are binned into 16)."),
    time_budget: float = typer.Option(120.0, "--time-budget", help="Seconds the white-box route may spend, all "
                                      "inputs together, before the audit samples instead.", min=0.1, max=86_400),
    exact_only: bool = typer.Option(False, "--exact-only", help="Refuse (exit 2) instead of sampling when the "
                                    "randomness cannot be enumerated exactly."),
    black_box: bool = typer.Option(False, "--black-box", help="Sample even when the randomness could be enumerated."),
    seed: int = typer.Option(0, "--seed", help="Seed of every random choice of a black-box audit.", min=0),
    python: str | None = typer.Option(None, "--python", help="Run the randomizer under this interpreter (one "
                                         "with its libraries)."),
    workers: int | None = typer.Option(None, "--workers", help="Worker processes (default: one per core; 0: "
                                          "one, without a pool). The randomizer never runs in the tool's own "
                                          "process.", min=0, max=256),
    scheduler: str | None = typer.Option(None, "--scheduler", help="Dask scheduler address for the sampling."),
    timeout: float = typer.Option(3600.0, "--timeout", help="Seconds the whole audit may take; past them it stops "
                                  "with one line (exit 2).", min=1, max=7 * 86_400),
    call_timeout: float = typer.Option(30.0, "--call-timeout", help="Seconds one call of the randomizer (or the "
                                       "import of its module) may take; 0: no limit.", min=0, max=86_400),
    memory: int = typer.Option(4096, "--memory", help="Address space of each worker process running the "
                               "randomizer, in MiB; 0: no limit.", min=0, max=1 << 30),
    list_: bool = typer.Option(False, "--list", help="List the library mechanisms and exit."),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --out file."),
) -> None:
    """Audit a randomizer as code: its exact channel (every random choice enumerated), or certified
    bounds from samples, against its claimed budget.

    When the exact route cannot answer, the report says why and samples instead (--exact-only refuses).

    Exit status: 0 consistent, 1 violated, 2 bad input (or, with --exact-only, randomness that cannot be
    enumerated), 3 inconclusive (samples that could not have shown a violation: never a pass)."""
    from relations.app._audit import run_audit
    from relations.audit import parse_domain
    from relations.audit._runner import MAX_DOMAIN
    from relations.io._audits import library_list_text

    if list_:
        sys.stdout.write(library_list_text(json_out=json_out))
        return
    if target is None:
        fail("audit: give a TARGET (MODULE:FUNCTION, FILE.py:FUNCTION or a name from --list)")
        return
    if domain is not None and domain.count(",") >= MAX_DOMAIN:  # before anything is built
        fail(f"--domain: {domain.count(',') + 1} inputs; at most {MAX_DOMAIN} can be audited")
        return
    status = run_audit(target, domain=None if domain is None else parse_domain(domain), eps=eps, claims=claim, k=k,
                       params=param, out=out, force=force, max_paths=max_paths, samples=samples,
                       bins=_parse_bins(bins), seconds=time_budget, exact_only=exact_only, white_box=not black_box,
                       seed=seed, python=python, workers=os.cpu_count() or 1 if workers is None else workers,
                       scheduler=scheduler, json_out=json_out, timeout=timeout, call_seconds=call_timeout,
                       memory_mb=memory, outputs=None if outputs is None else parse_domain(outputs))
    if status:
        raise typer.Exit(status)
