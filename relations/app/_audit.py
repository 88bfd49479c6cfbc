"""Running ``relations audit``: a randomizer audited (:func:`relations.audit._runner.audit_target`), its
channel written when asked, and its report printed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["run_audit"]


def run_audit(target: str, *, domain: Sequence[Any] | None = None, eps: str | None = None,
              claims: Sequence[str] = (), k: int | None = None, params: Sequence[str] = (), out: str | None = None,
              force: bool = False, max_paths: int = 1_000_000, samples: int | None = None, bins: Any = None,
              seconds: float = 120.0, exact_only: bool = False, white_box: bool = True, seed: int = 0,
              python: str | None = None, workers: int = 1, scheduler: str | None = None,
              json_out: bool = False, timeout: float | None = None, call_seconds: float | None = None,
              memory_mb: int | None = None, outputs: Sequence[Any] | None = None, repeat: int | None = None) -> int:
    """``relations audit TARGET``: audit, write the implemented channel to ``out``, print the report.

    The options are the command's (``params`` as ``NAME=VALUE`` strings, ``white_box`` is not
    ``--black-box``, ``seconds`` is ``--time-budget``, ``timeout``, ``call_seconds`` and ``memory_mb`` are
    ``--timeout``, ``--call-timeout`` and ``--memory``, ``None`` for their defaults; ``outputs`` is
    ``--outputs``, ``repeat`` is ``--repeat``: the implemented channel's ``repeat`` independent uses measured
    in every notion, :func:`relations.app._audit_repeat.repeated_report`); ``out`` is checked before
    the audit runs.

    Returns
    -------
    int
        The exit status: 0 consistent, 1 violated, 3 inconclusive.

    Raises
    ------
    InputError
        A bad target, option or output file; with ``exact_only``, randomness that cannot be enumerated.
    """
    from relations.audit import NotEnumerable
    from relations.audit._runner import audit_target
    from relations.errors import EXIT_FAILED, EXIT_INCONCLUSIVE, InputError
    from relations.io._audits import audit_json, parse_params, progress_bar_on_stderr
    from relations.io._writing import dumps
    from relations.kinds import AuditVerdict

    if out is not None:
        from relations.io._outputs import check_output_file

        check_output_file(out, force=force)
    parsed = parse_params(params)
    limits: dict[str, Any] = {name: value for name, value in (("timeout", timeout), ("call_seconds", call_seconds),
                                              ("memory_mb", memory_mb)) if value is not None}
    progress_bar = progress_bar_on_stderr() if (not json_out and sys.stderr.isatty()) else None
    try:
        report = audit_target(target, domain=domain, eps=eps, claims=claims, k=k, params=parsed, samples=samples,
                              seed=seed, max_paths=max_paths, python=python, workers=workers, scheduler=scheduler,
                              white_box=white_box, progress=progress_bar, exact_only=exact_only, bins=bins,
                              seconds=seconds, outputs=outputs, **limits)
    except NotEnumerable as exc:
        raise InputError(f"{target}: its randomness cannot be enumerated exactly ({exc}); without --exact-only it "
                         "is sampled") from None
    if out and report.mechanism is not None:
        from relations.io._outputs import create_file

        create_file(out, dumps(report.mechanism, f"channel implemented by {target}").encode("utf-8"), force=force)
    elif out:  # said, not silently skipped
        why = (f"its channel is {report.bits} independent bits, never expanded" if report.bits else
               "it was sampled" if report.sampled is not None else "its channel is known only within the unexplored mass")
        sys.stderr.write(f"relations: --out {out} not written: {why}\n")
    repeated = None
    if repeat is not None:
        from relations.app._audit_repeat import repeated_report

        repeated = repeated_report(report, repeat)
    if json_out:
        obj = audit_json(report, channel_file=out if report.mechanism else None)
        if repeated is not None:
            obj["repeated"] = repeated
        sys.stdout.write(json.dumps(obj, indent=1) + "\n")
    else:
        sys.stdout.write(report.summary() + "\n")
        if report.conformance:
            sys.stdout.write(report.conformance + "\n")
        if repeated is not None:
            from relations.app._audit_repeat import repeated_text

            sys.stdout.write(repeated_text(repeated) + "\n")
    if report.verdict == AuditVerdict.VIOLATED:
        return EXIT_FAILED
    if report.verdict == AuditVerdict.INCONCLUSIVE:
        return EXIT_INCONCLUSIVE
    return 0
