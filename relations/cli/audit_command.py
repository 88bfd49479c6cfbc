"""``relations audit``: a randomizer as code against its claimed budget (registered on the CLI's ``app``)."""

from __future__ import annotations

import json
import os
import sys

import typer

from relations.cli.app import app, fail

__all__ = ["audit"]


def _parse_bins(text: str | None):
    """``--bins``: ``N`` (equal-mass intervals, 2 to 10000) or comma-separated finite edges."""
    import math

    from relations.errors import InputError

    if text is None:
        return None
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if len(parts) == 1 and parts[0].isdigit():
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


@app.command()
def audit(
    target: str | None = typer.Argument(None, help="MODULE:FUNCTION, FILE.py:FUNCTION (a randomizer fn(x) or "
                                           "fn(x, rng=...)) or a library mechanism (see --list)."),
    domain: str | None = typer.Option(None, "--domain", help="Comma-separated inputs, e.g. 0,1,2,3 (integers are "
                                         "passed as int). Library mechanisms default to their own inputs."),
    eps: str | None = typer.Option(None, "--eps", help="The documented budget: claim eps_d <= EPS (e.g. 'ln(3)'); "
                                      "library mechanisms are built with it."),
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
    time_budget: float = typer.Option(120.0, "--time-budget", help="Seconds the white-box route may spend on one "
                                      "input before the audit samples instead.", min=0.1, max=86_400),
    exact_only: bool = typer.Option(False, "--exact-only", help="Refuse (exit 2) instead of sampling when the "
                                    "randomness cannot be enumerated exactly."),
    black_box: bool = typer.Option(False, "--black-box", help="Sample even when the randomness could be enumerated."),
    seed: int = typer.Option(0, "--seed", help="Seed of every random choice of a black-box audit.", min=0),
    python: str | None = typer.Option(None, "--python", help="Run the randomizer under this interpreter (one "
                                         "with its libraries)."),
    workers: int | None = typer.Option(None, "--workers", help="Worker processes (default: one per core; 0: "
                                          "in this process).", min=0, max=256),
    scheduler: str | None = typer.Option(None, "--scheduler", help="Dask scheduler address for the sampling."),
    list_: bool = typer.Option(False, "--list", help="List the library mechanisms and exit."),
    json_out: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --out file."),
) -> None:
    """Audit a randomizer as code: its exact channel (every random choice enumerated), or certified
    bounds from samples, against its claimed budget.

    When the exact route cannot answer, the report says why and samples instead (--exact-only refuses).

    Exit status: 0 consistent, 1 violated, 2 bad input (or, with --exact-only, randomness that cannot be
    enumerated), 3 inconclusive (samples that could not have shown a violation: never a pass)."""
    from relations.audit import NotEnumerable, parse_domain
    from relations.audit.runner import audit_target
    from relations.errors import EXIT_FAILED, EXIT_INCONCLUSIVE
    from relations.io.audits import audit_json, library_list_text, parse_params, progress_bar_on_stderr
    from relations.io.writing import dumps, write_text_atomic
    from relations.kinds import AuditVerdict

    if list_:
        sys.stdout.write(library_list_text(json_out=json_out))
        return
    if target is None:
        fail("audit: give a TARGET (MODULE:FUNCTION, FILE.py:FUNCTION or a name from --list)")
        return
    if out is not None:
        from relations.io.outputs import check_output_file

        check_output_file(out, force=force)
    params = parse_params(param)
    progress_bar = progress_bar_on_stderr() if (not json_out and sys.stderr.isatty()) else None
    try:
        report = audit_target(target, domain=None if domain is None else parse_domain(domain), eps=eps, claims=claim,
                              k=k, params=params, samples=samples, seed=seed, max_paths=max_paths, python=python,
                              workers=os.cpu_count() or 1 if workers is None else workers, scheduler=scheduler,
                              white_box=not black_box, progress=progress_bar, exact_only=exact_only,
                              bins=_parse_bins(bins), seconds=time_budget)
    except NotEnumerable as exc:
        fail(f"{target}: its randomness cannot be enumerated exactly ({exc}); without --exact-only it is sampled")
        return
    if out and report.mechanism is not None:
        write_text_atomic(out, dumps(report.mechanism, f"channel implemented by {target}"))
    elif out:  # said, not silently skipped
        why = (f"its channel is {report.bits} independent bits, never expanded" if report.bits else
               "it was sampled" if report.sampled is not None else "its channel is known only within the unexplored mass")
        sys.stderr.write(f"relations: --out {out} not written: {why}\n")
    if json_out:
        sys.stdout.write(json.dumps(audit_json(report, channel_file=out if report.mechanism else None), indent=1)
                         + "\n")
    else:
        sys.stdout.write(report.summary() + "\n")
        if report.conformance:
            sys.stdout.write(report.conformance + "\n")
    if report.verdict == AuditVerdict.VIOLATED:
        raise typer.Exit(EXIT_FAILED)
    if report.verdict == AuditVerdict.INCONCLUSIVE:
        raise typer.Exit(EXIT_INCONCLUSIVE)
