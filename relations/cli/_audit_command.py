"""``relations audit``: a randomizer as code against its claimed budget."""

from __future__ import annotations

import sys
from typing import Any

import typer

from relations.cli._helpers import fail

__all__ = ["audit"]


def _option(name: str, default: Any = ..., **more: Any) -> Any:
    """The ``typer.Option`` of an :class:`~relations.audit.AuditOptions` field: its flag, meaning, range and
    default stated there (``default``: the command's own, where it differs)."""
    from relations.audit._options import AuditOptions

    value, flag, text, low, high = AuditOptions.described(name)
    if isinstance(value, bool):  # a flag: on when given
        value = False
    bounds: dict[str, Any] = {} if isinstance(value, bool) or (low is None and high is None) else \
        {"min": low, "max": high}
    return typer.Option(value if default is ... else default, flag, help=text, **bounds, **more)


def audit(
    target: str | None = typer.Argument(None, help="MODULE:FUNCTION, FILE.py:FUNCTION (a randomizer fn(x) or "
                                           "fn(x, rng=...)) or a library mechanism (see --list)."),
    domain: str | None = typer.Option(None, "--domain", help="Comma-separated inputs, e.g. 0,1,2,3 (integers are "
                                         "passed as int). Library mechanisms default to their own inputs."),
    eps: str | None = typer.Option(None, "--eps", help="The documented budget: claim eps_d <= EPS (e.g. 'ln(3)'); "
                                      "library mechanisms are built with it."),
    outputs: str | None = typer.Option(None, "--outputs", help="Comma-separated outputs the randomizer may "
                                          "return (a clamped sampler's range, parsed as --domain): a loop on "
                                          "draws then gets a certified upper bound on eps_d too. Without it, "
                                          "the audit tries to prove them from the source."),
    k: int | None = typer.Option(None, "--k", help="Domain size of a library mechanism.", min=2, max=4096),
    param: list[str] = typer.Option([], "--param", help="A library mechanism's own parameter NAME=VALUE. Repeatable."),
    claim: list[str] = typer.Option([], "--claim", help="More claims, as for 'relations check'. Repeatable."),
    out: str | None = _option("out"),
    max_paths: int = _option("max_paths"),
    samples: int | None = _option("samples"),
    bins: str | None = _option("bins"),
    time_budget: float = _option("seconds"),
    exact_only: bool = _option("exact_only"),
    black_box: bool = _option("white_box"),
    seed: int = _option("seed"),
    python: str | None = _option("python"),
    workers: int | None = _option("workers", None),  # one per core
    scheduler: str | None = _option("scheduler"),
    timeout: float = _option("timeout"),
    call_timeout: float = _option("call_seconds"),
    memory: int = _option("memory_mb"),
    repeat: int | None = typer.Option(None, "--repeat", help="Also measure this many independent reports of the "
                                      "implemented channel, in every notion (exactly when the audit found the "
                                      "channel exactly; otherwise only what its bounds say).", min=1, max=100_000),
    list_: bool = typer.Option(False, "--list", help="List the library mechanisms and exit."),
    json_out: bool = _option("json_out"),
    force: bool = _option("force"),
) -> None:
    """Audit a randomizer as code: its exact channel (every random choice enumerated), or certified
    bounds from samples, against its claimed budget.

    When the exact route cannot answer, the report says why and samples instead (--exact-only refuses).

    Exit status: 0 consistent, 1 violated, 2 bad input (or, with --exact-only, randomness that cannot be
    enumerated), 3 inconclusive (samples that could not have shown a violation: never a pass)."""
    from relations.app._audit import run_audit
    from relations.audit import AuditOptions, parse_domain
    from relations.audit._options import parse_bins
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
    options = AuditOptions(max_paths=max_paths, seconds=time_budget, samples=samples, bins=parse_bins(bins),
                           seed=seed, timeout=timeout, call_seconds=call_timeout, memory_mb=memory,
                           workers=workers, python=python,
                           scheduler=scheduler, white_box=not black_box, exact_only=exact_only, json_out=json_out,
                           out=out, force=force)
    status = run_audit(target, domain=None if domain is None else parse_domain(domain), eps=eps, claims=claim, k=k,
                       params=param, outputs=None if outputs is None else parse_domain(outputs), repeat=repeat,
                       options=options)
    if status:
        raise typer.Exit(status)
