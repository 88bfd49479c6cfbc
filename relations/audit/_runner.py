"""Auditing a target named on the command line: user code or a library mechanism, run by workers.

:func:`audit_target` is what ``relations audit TARGET`` does: it asks the workers
(:class:`~relations.audit._pool.Pool`) to describe the target, to enumerate its exact
channel input by input (white-box) and, when the randomness cannot be enumerated, to
sample it in seeded chunks, round after round (black-box, :mod:`relations.audit._blackbox`).
Where the library documents its channel, the implemented one is compared with it.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from relations.audit._blackbox import CHUNK, sequential
from relations.audit._enumerate import MAX_DEPTH, NotEnumerable
from relations.audit._exact import Enumerated, Unexplored, deepen_first, deepening
from relations.audit._options import WHITE_BOX_SECONDS, AuditOptions
from relations.audit._outputs import output_real
from relations.audit._pool import Pool
from relations.audit._report import (
    AuditReport,
    _claims,
    _mechanism,
    _sampled_report,
    decide_channel,
    declared_outputs,
    depth_bounded_report,
    eps_d_claim,
    factorised_report,
    proof_note,
)
from relations.audit._vectors import Factorised
from relations.errors import InputError

__all__ = ["MAX_DOMAIN", "DEFAULT_SAMPLES", "DEFAULT_TOTAL", "WHITE_BOX_SECONDS", "AUTO_BINS", "POINT_MASS", "quantile_edges",
           "point_masses", "audit_target", "PILOT_TOTAL", "PILOT_REPEATED", "collided_share"]

#: Most inputs of a domain given to an audit (``--domain``; a library mechanism's is set by ``--k``),
#: checked before anything is built: the channel and its measures grow with the square of the domain.
MAX_DOMAIN = 1024
#: Samples per input of the black-box route when the exact route cannot answer and ``--samples`` is not
#: given (at most :data:`DEFAULT_TOTAL` over all inputs).
DEFAULT_SAMPLES = 100_000
#: The most samples, over all inputs, that the default budget draws.
DEFAULT_TOTAL = 2_000_000
#: Equal-mass intervals of the automatic binning of real-valued outputs.
AUTO_BINS = 16


def quantile_edges(sampled: Any, count: int) -> list[float] | None:
    """Edges of ``count`` equal-mass intervals at the pooled quantiles of a sample's outputs, or ``None``
    unless every output is a finite real number.  Exact and deterministic: the same counts give the same
    edges.

    Examples
    --------
    >>> from collections import Counter
    >>> from relations.audit._blackbox import SampleAudit
    >>> s = SampleAudit(0.0, None, 4, 0.05, {0: Counter({"('float', 0.5)": 2, "('float', 1.5)": 2}),
    ...                                      1: Counter({"('float', 2.5)": 4})}, 0.75)
    >>> quantile_edges(s, 2), quantile_edges(SampleAudit(0.0, None, 1, 0.05, {0: Counter({"'a'": 1})}, 3.0), 2)
    ([1.5], None)
    """
    reals = _sampled_reals(sampled)
    if any(v is None for v, _ in reals):
        return None
    values = [(v, n) for v, n in reals if v is not None]
    values.sort()
    total = sum(n for _, n in values)
    if total == 0 or count < 2:
        return None
    edges: list[float] = []
    seen, j = 0, 1
    for v, n in values:
        seen += n
        while j < count and seen * count >= j * total:
            if not edges or v > edges[-1]:
                edges.append(v)
            j += 1
    return edges[:-1] if edges and edges[-1] == values[-1][0] else edges or None


#: Share of samples on outputs seen fewer than :data:`~relations.audit._blackbox.REPEATS` times above which real
#: outputs are binned: beyond it, counting outputs one by one leaves that share untested.
MIXED_SHARE = 0.05
#: A real output seen this many times in the first sample (pooled over inputs) is a point mass: the binning
#: keeps it as an output of its own, so that an interval cannot hide it.
POINT_MASS = 10


def point_masses(sampled: Any) -> list[float]:
    """The real outputs seen at least :data:`POINT_MASS` times in a sample, pooled over inputs, sorted.

    Examples
    --------
    >>> from collections import Counter
    >>> from relations.audit._blackbox import SampleAudit
    >>> s = SampleAudit(0.0, None, 20, 0.05, {0: Counter({"('float', 0.5)": 6, "('float', 1.5)": 1}),
    ...                                       1: Counter({"('float', 0.5)": 4, "('float', 2.5)": 9})}, 0.15)
    >>> point_masses(s)
    [0.5]
    """
    pooled: Counter = Counter()
    for v, n in _sampled_reals(sampled):
        if v is not None:
            pooled[v] += n
    return sorted(v for v, n in pooled.items() if n >= POINT_MASS)


#: The text of the output key of a float (``('float', 0.5)``) or an int (``-3``) as ``repr`` writes them: read
#: by ``float`` directly (the same correctly rounded conversion as Python's parser), not by ``ast.literal_eval``
#: (a sample of real outputs holds a key per draw: parsing each cost most of a binned audit's own time).
_FLOAT_TEXT = re.compile(r"\('float', (-?[0-9]+(?:\.[0-9]+(?:e[+-][0-9]+)?|e[+-][0-9]+))\)")
_INT_TEXT = re.compile(r"-?(?:0|[1-9][0-9]*)")


def key_real(key: Any) -> float | None:
    """The real number an output key or its text (a sample's counts) stands for (:func:`output_real`), else
    ``None``; a text that is no literal is ``None``.

    Examples
    --------
    >>> key_real("('float', -2.5e-07)"), key_real("12"), key_real("('float', inf)"), key_real("'a'"), key_real(3)
    (-2.5e-07, 12.0, None, None, 3.0)
    >>> key_real("1" + "0" * 400)
    inf
    """
    if isinstance(key, str):
        if m := _FLOAT_TEXT.fullmatch(key):
            return float(m.group(1))
        if _INT_TEXT.fullmatch(key):
            return output_real(int(key))  # (an int beyond the float range is +-inf)
        import ast

        try:
            key = ast.literal_eval(key)
        except (ValueError, SyntaxError):
            return None
    return output_real(key)


def _all_real(sampled: Any) -> bool:
    """Whether every output of a sample is a finite real number (what binning needs), reading the outputs only
    up to the first that is not (a sample of 64-bit tuples is answered by its first key)."""
    for counts in sampled.counts.values():
        for key in counts:
            v = key_real(key)
            if v is None or not math.isfinite(v):
                return False
    return True


def _sampled_reals(sampled: Any) -> list[tuple[float | None, int]]:
    """Each sampled output's real value (``None`` unless it is a finite real number) and its count; the outputs
    are the texts of their keys (``('float', 0.5)``, ``3``, ...)."""
    out: list[tuple[float | None, int]] = []
    for counts in sampled.counts.values():
        for key, n in counts.items():
            v = key_real(key)
            out.append((v if v is not None and math.isfinite(v) else None, n))
    return out


#: Samples, over all inputs, of the pilot that the default sampling budget starts with.
PILOT_TOTAL = 20_000
#: Below this share of the pilot's samples on outputs seen twice or more for their input, the outputs almost
#: never repeat: counting them within the default budget certifies nothing, and the audit stops there.
PILOT_REPEATED = 0.01


def collided_share(sampled: Any) -> float:
    """The share of a sample's draws that fell on an output drawn at least twice for the same input.

    Examples
    --------
    >>> from collections import Counter
    >>> from relations.audit._blackbox import SampleAudit
    >>> collided_share(SampleAudit(0.0, None, 4, 0.05, {0: Counter({"a": 2, "b": 1, "c": 1})}, 0.75))
    0.5
    """
    total = sum(sum(c.values()) for c in sampled.counts.values())
    return sum(n for c in sampled.counts.values() for n in c.values() if n >= 2) / total if total else 0.0


def _atoms_text(atoms: list[float]) -> str:
    if not atoms:
        return ""
    shown = ", ".join(repr(a) for a in atoms[:5]) + (", ..." if len(atoms) > 5 else "")
    return f"; {len(atoms)} value(s) seen {POINT_MASS} times or more in the first sample kept as outputs of their own ({shown})"


def _check(answer: dict) -> dict:
    if answer.get("ok"):
        return answer
    if answer.get("kind") == "not-enumerable":
        raise NotEnumerable(answer["message"])
    if answer.get("kind") in ("input", "limit", "exit"):  # a limit hit, or the randomizer ended its worker
        raise InputError(answer["message"])
    raise InputError(f"the randomizer failed: {answer.get('message')}")


def _conformance_exact(rows: list[list[Fraction]], outputs: list[str], declared: list[dict]) -> str:
    """Largest relative difference between the implemented and the declared channel."""
    worst, where = 0.0, None
    for i, (row, dec) in enumerate(zip(rows, declared)):
        for key, p in zip(outputs, row):
            d = dec.get(key, 0.0)
            if p == 0 and d == 0:
                continue
            gap = math.inf if d == 0 or p == 0 else abs(float(p) / d - 1)
            if gap > worst:
                worst, where = gap, (i, key)
    if worst <= 1e-9 or where is None:
        return f"conforms to the declared channel (largest relative difference {worst:.2g})"
    return f"differs from the declared channel: relative difference {worst:.3g} at input #{where[0]}, output {where[1]}"


def audit_target(target: str, *, domain: Sequence[Any] | None = None, eps: Any = None, claims: Sequence[str] = (),
                 k: int | None = None, params: dict | None = None, prior: Any = "uniform",
                 outputs: Sequence[Any] | None = None, options: AuditOptions | None = None,
                 progress: Callable[[int, int], None] | None = None, **keywords: Any) -> AuditReport:
    """Audit ``target`` (``MODULE:FUNCTION``, ``FILE.py:FUNCTION`` or a library mechanism).

    Parameters
    ----------
    target : str
        What to audit; library mechanisms are listed by ``relations audit --list``.
    domain : sequence, optional
        The inputs (library mechanisms default to their own inputs for ``k``).
    eps : str or number, optional
        The claimed budget (library mechanisms: the ``eps`` they are built with, and by
        default the claim).
    claims : sequence of str, optional
        More claims, as for ``relations check``.
    k : int, optional
        Domain size of a library mechanism.
    params : dict, optional
        A library mechanism's own parameters (``g``, ``t``, ``threshold``).
    prior : optional
        As for :func:`~relations.audit.audit`.
    outputs : sequence, optional
        Every output the randomizer may return (``--outputs``): a loop on draws cut at a depth then has a
        certified upper end on ``eps_d`` too (:func:`~relations.audit._report.depth_bounded_report`).
    options : AuditOptions, optional
        How the audit runs (:class:`~relations.audit.AuditOptions`; its output options are the command's and
        are not used here).  The randomizer always runs in a worker process, never in this one: its prints
        are kept off this process's output, and its exit and exceptions are reported as the audit's outcome.
        With ``white_box``, the white-box route's budgets (``max_paths``, ``seconds`` and the depth
        :data:`~relations.audit._enumerate.MAX_DEPTH`) are reported in the JSON (``budgets``).  Without
        ``bins``, outputs that seldom repeat and are all real numbers (a Laplace or Gaussian mechanism) are
        binned into :data:`AUTO_BINS` equal-mass intervals at the pooled quantiles of a first sample, and the
        binned channel is sampled afresh (``seed + 1``); binning is post-processing, so a certified lower
        bound on the binned channel is one on the mechanism.  Unless ``exact_only``, when the exact route
        cannot answer the report says why, and samples: ``samples`` per input, or by default
        :data:`DEFAULT_SAMPLES` (at most :data:`DEFAULT_TOTAL` in all).
    progress : callable, optional
        ``progress(done, total)`` as sampling chunks finish.
    **keywords
        As for :func:`~relations.audit.audit`.

    Returns
    -------
    AuditReport
        Its ``route`` says which route answered, its ``budgets`` what the routes were allowed.

    Raises
    ------
    InputError
        For a target that cannot be loaded or bad parameters, a domain of more than :data:`MAX_DOMAIN`
        inputs, a limit hit (one line naming it) or a randomizer that ends its worker process.
    NotEnumerable
        With ``exact_only``, when the randomness cannot be enumerated.

    Examples
    --------
    >>> import os, tempfile, textwrap
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "rr.py")
    ...     with open(path, "w") as fh:
    ...         _ = fh.write("def rr(x, rng):\\n    return x if rng.random() < 0.75 else 1 - x\\n")
    ...     report = audit_target(f"{path}:rr", domain=[0, 1], eps="ln(3)")
    >>> report.verdict, str(report.measures.eps_d.exact)
    ('consistent', 'ln(3)')
    """
    o = AuditOptions.of(options, keywords)
    limits: dict[str, Any] = {"timeout": o.timeout, "call_seconds": o.call_seconds, "memory_mb": o.memory_mb}
    library = ":" not in target
    if domain is not None and len(domain) > MAX_DOMAIN:
        raise InputError(f"--domain: {len(domain)} inputs; at most {MAX_DOMAIN} can be audited")
    job: dict[str, Any] = {"target": target, "params": None}
    if library:
        if eps is None or k is None:
            raise InputError(f"{target}: a library mechanism needs --eps and --k")
        job["params"] = {"eps": float(parse_eps(eps)), "k": int(k), **(params or {})}
    workers = os.cpu_count() or 1 if o.workers is None else o.workers
    with Pool(python=o.python, workers=workers, scheduler=None, **limits) as pool, contextlib.ExitStack() as stack:
        cluster: list[Pool] = []  # the sampling's Dask cluster, connected when first needed

        def on_cluster() -> Pool:
            """The Dask pool: the same limits as ``pool``, and the same deadline for the whole audit."""
            if not cluster:
                cluster.append(stack.enter_context(Pool(scheduler=o.scheduler, **limits)))
                cluster[0]._deadline = pool._deadline
            return cluster[0]
        info = _check(pool.map([dict(job, task="describe")])[0])
        if domain is None:
            if info["domain"] is None:
                raise InputError("--domain is required for MODULE:FUNCTION and FILE.py:FUNCTION targets")
            domain = info["domain"]
        domain = list(domain)
        job["domain"] = domain
        claimed = info.get("claimed")
        if library and claimed is not None:  # the budget the library documents for these parameters
            eps = repr(float(claimed))
        parsed = _claims(eps, claims)
        samples = o.samples if o.samples is not None else max(1, min(DEFAULT_SAMPLES, DEFAULT_TOTAL // len(domain)))
        extra = {"claimed": claimed, "version": info.get("version", ""),
                 "budgets": {"max_paths": o.max_paths, "max_depth": MAX_DEPTH, "white_box_seconds": o.seconds,
                             "samples_per_input": samples}}
        declared = None
        if info.get("declared"):
            answer = _check(pool.map([dict(job, task="declared", inputs=list(range(len(domain))))])[0])
            declared = [{key: float(p) for key, _, p in answer["rows"][str(i)]} for i in range(len(domain))]
        reason = ""
        interval: dict = {}
        proofs: list[dict] = []  # the outputs proven from the source (a worker's answer), asked once, when needed

        def prove() -> dict:
            if not proofs:
                answer = pool.map([dict(job, task="outputs")])[0]
                proofs.append(answer if answer.get("ok") else {"outputs": None, "why": answer.get("message", "")})
            return proofs[0]
        if o.white_box and info.get("enumerable", True):
            try:
                report = _deepening(pool, job, domain, parsed, prior, declared, extra, o.max_paths, o.seconds,
                                    declared_outputs(outputs), None if outputs is not None or library else prove)
                if info.get("seeds"):  # local hashing: exact given each of a few hash seeds, not over all
                    report = _with(report, route=f"white-box over {info['seeds']} hash seeds")
                return report
            except NotEnumerable as exc:
                if o.exact_only:
                    raise
                reason = str(exc)
                interval = getattr(exc, "interval", None) or {}
                if isinstance(exc, Unexplored) and exc.closed and interval:  # both ends known, the claim undecided
                    interval = {**interval, "outputs": "assumed to be those declared (--outputs)" if outputs is not None
                                else proofs[0].get("text", "") if proofs else ""}
                if proofs and isinstance(exc, Unexplored) and not exc.closed:
                    p = proofs[0]
                    known = None if p.get("outputs") is None else frozenset(p["outputs"])
                    reason += proof_note(known, p.get("text") or p.get("why", ""), [str(k) for k in exc.enumerated.outputs])
        elif o.exact_only:
            raise NotEnumerable("the target's randomness is not enumerated (a library mechanism sampled by design)"
                                if o.white_box else "--black-box was asked for")
        else:
            reason = ("--black-box was asked for" if not o.white_box else
                      "the library mechanism's randomness is not enumerated (native code or hashing)")
        labels: dict = {}
        total = [0, 0]
        given = None if o.bins is None or isinstance(o.bins, int) else list(o.bins)  # sorted edges
        plan: dict[str, Any] = {"bins": given, "seed": o.seed, "atoms": None}

        # the answers of sampling jobs, by job: a chunk is seeded by its job alone, so the same job asked again (the
        # first chunk per input, drawn to choose the bins, then again by an unbinned sampling; the first input's
        # chunk drawn twice, run by run, at the start of each) gives the same counts, while every such chunk drawn
        # twice has agreed (a randomizer the seed does not control draws afresh each time, as before)
        answered: dict[str, Any] = {}  # a job's answer, by its name; a chunk drawn twice: both answers
        agreed = [True]

        def draw_round(tasks: list[tuple[int, int, int]], ordered: bool = False) -> list[Counter]:
            jobs = [dict(job, task="sample", input=i, chunk=c, size=n, seed=plan["seed"], bins=plan["bins"],
                         atoms=plan["atoms"], ordered=ordered) for i, c, n in tasks]
            total[1] += len(jobs)

            def tick(n: int) -> None:
                total[0] += n
                if progress:
                    progress(total[0], total[1])
            names = [json.dumps([j["input"], j["chunk"], j["size"], j["seed"], j["bins"], j["atoms"]]) for j in jobs]
            if ordered:  # a chunk drawn twice, together: answered again only as a whole
                whole = json.dumps(names)
                fresh = [] if agreed[0] and whole in answered else list(range(len(jobs)))
            else:
                fresh = [n for n, name in enumerate(names) if not agreed[0] or name not in answered]
            runner = on_cluster() if o.scheduler is not None else pool
            got = dict(zip(fresh, runner.map([jobs[n] for n in fresh], progress=tick))) if fresh else {}
            if len(fresh) < len(jobs):
                tick(len(jobs) - len(fresh))
            answers = [_check(got[n]) if n in got else answered[whole][n] if ordered else answered[names[n]]
                       for n in range(len(jobs))]
            out = []
            for a in answers:
                labels.update({key: label for key, label, _ in a["counts"]})
                out.append(Counter({key: c for key, _, c in a["counts"]}))
            if ordered:
                if any(c != out[0] for c in out[1:]):
                    agreed[0] = False  # the seed does not control the randomizer: every chunk is drawn afresh
                    answered.clear()
                elif agreed[0]:
                    answered[whole] = answers
            elif agreed[0]:
                answered.update((names[n], answers[n]) for n in fresh)
            return out

        def measured(sampling: Any) -> Any:
            # not repeatable once any chunk drawn twice has differed: a later sampling whose chunk drawn twice is
            # answered from an earlier one (which agreed) would not measure it again, nor one drawn afresh by chance
            if agreed[0] or not sampling.repeatable:
                return sampling
            from dataclasses import replace

            return replace(sampling, repeatable=False)

        binning, edges = "", None
        if o.samples is None and plan["bins"] is None:  # the default budget: first, can counting answer at all?
            pilot = sequential(None, domain=domain, samples=max(1, min(CHUNK, PILOT_TOTAL // len(domain))),
                               alpha=o.alpha, draw_round=draw_round)
            stop = _stop(eps)
            share = collided_share(pilot)
            if share < PILOT_REPEATED and not _all_real(pilot) and not (
                    stop is not None and pilot.eps_d_lower > stop):
                reason = (f"{reason}; " if reason else "") + (
                    f"sampling stopped after a first {pilot.samples} samples per input: only {100 * share:.2g}% of "
                    "them fell on an output seen twice or more for its input, so the outputs almost never repeat "
                    f"and counting them cannot certify a bound within the default budget ({samples} per input); "
                    "--samples N samples anyway")
                return _sampled_report(target, measured(pilot), eps, labels=labels, route_reason=reason, binning="",
                                       white_box_interval=interval, **extra)
            labels.clear()
        if plan["bins"] is not None:
            binning = (f"outputs binned into the {len(plan['bins']) + 1} intervals given (--bins); post-processing "
                       "cannot raise eps_d, so a lower bound on the binned channel is one on the mechanism")
        else:  # a first chunk per input: real-valued outputs that seldom repeat are binned
            first = sequential(None, domain=domain, samples=min(samples, CHUNK), alpha=o.alpha, draw_round=draw_round)
            # binned when real outputs seldom repeat, or when a share of them does not (a mixture of a point mass
            # and noise: the repeated outputs become outputs of their own, the rest intervals)
            if first.repeated_share() < 1 - MIXED_SHARE or isinstance(o.bins, int):
                edges = quantile_edges(first, o.bins if isinstance(o.bins, int) else AUTO_BINS)
            if edges:  # audit the binned mechanism, on a fresh sample
                atoms = point_masses(first)
                plan["bins"], plan["seed"], plan["atoms"] = edges, o.seed + 1, atoms or None
                binning = (f"outputs binned into {len(edges) + 1} intervals at the pooled quantiles of a first sample "
                           f"({first.samples} per input, --seed {o.seed}); the binned channel sampled afresh (--seed "
                           f"{o.seed + 1}){_atoms_text(atoms)}; post-processing cannot raise eps_d, so a lower bound on the binned channel "
                           "is one on the mechanism")
            labels.clear()
        sampled = measured(sequential(None, domain=domain, samples=samples, alpha=o.alpha, stop_above=_stop(eps),
                                      draw_round=draw_round, declared=None if plan["bins"] else declared))
        report = _sampled_report(target, sampled, eps, labels=labels, route_reason=reason, binning=binning,
                                 white_box_interval=interval, **extra)
        if sampled.conformance is not None:
            report = _with(report, conformance=(
                f"conformance with the declared channel: p = {sampled.conformance:.3g} (chi-square, Bonferroni "
                f"over inputs){'; does not conform' if sampled.conformance < 1e-3 else ''}"))
        return report


def _with(report: AuditReport, **changes: Any) -> AuditReport:
    from dataclasses import replace

    return replace(report, **changes)


def parse_eps(eps: Any) -> float:
    """``--eps`` as a float for a library (``ln(3)`` is accepted)."""
    from relations.checking._claims import parse_claim

    return float(parse_claim(f"eps_d <= {eps}").bound)


def _stop(eps: Any) -> float | None:
    if eps is None:
        return None
    b = parse_eps(eps)
    return None if math.isinf(b) else b


def _deepening(pool: Pool, job: dict, domain: list, parsed: list, prior: Any, declared: list | None, extra: dict,
               max_paths: int, seconds: float, outputs: frozenset[str] | None = None,
               prove: Callable[[], dict] | None = None) -> AuditReport:
    """The white-box report, deepening a loop on draws: when the paths cut at one depth leave the claims
    undecided, the next level goes deeper (:func:`~relations.audit._exact.deepening`); then :class:`Unexplored`,
    from the deepest level run, sends the audit to sampling.  One budget for the whole route: ``seconds`` is spent
    by all inputs together.  The first input is enumerated alone, within its share of the budget (``seconds x
    workers / (workers + inputs - 1)``: what each input may take for all to finish); when it runs past its
    share, or its time, times the inputs left over the workers, would exceed the budget, every input is
    sampled at once (not one budget spent per input).  Without ``outputs``, a loop cut at a depth asks ``prove()``
    for the outputs proven from the source (a worker's answer to the ``outputs`` job), used as if declared when the
    worker that proved them had imported the module as the enumerating ones did (the same fingerprint).

    On a deeper level, the input enumerated first is the one whose unexplored mass holds the interval back
    (:func:`~relations.audit._exact.deepen_first`), and its new row is tried with the other inputs' rows of the level before: each row,
    at any depth, encloses the true one, so a claim decided on those rows is decided (a wrong claim is often
    ``violated`` once that one input is deeper, without the others)."""
    last: dict[str, Any] = {}  # the level before: its answers (one per input), its depth, its enumeration

    def explore(depth: int, left: float) -> AuditReport:
        n = len(domain)
        head = deepen_first(last["cut"], eps_d_claim(parsed), last["closed"]) if last else 0
        rest_inputs = [i for i in range(n) if i != head]
        workers = max(1, getattr(pool, "workers", 1))
        # inputs per job: a few jobs per worker, not one job per input
        size = max(1, -(-(n - 1) // min(BATCHES, BATCHES_PER_WORKER * workers)))
        groups = [[head]] + [rest_inputs[i:i + size] for i in range(0, n - 1, size)]
        jobs = [dict(job, task="enumerate", inputs=g, max_paths=max_paths, seconds=left, max_depth=depth)
                for g in groups]
        # the first input's share: if it takes t, all take about t + t (n - 1) / workers, which must fit in left
        share = left * workers / (workers + n - 1)
        jobs[0]["seconds"] = share
        start = time.monotonic()
        first = _split(pool.map(jobs[:1])[0], groups[0])  # the first input alone: can the others finish?
        spent = time.monotonic() - start
        if not first[0].get("ok") and first[0].get("kind") == "not-enumerable" and n > 1 and share < left \
                and spent >= share:
            raise NotEnumerable(f"the white-box time budget of {seconds:g} s would run out before the {n} inputs "
                                f"finish: the first input alone used its share, {share:.3g} s of the {left:.3g} s "
                                f"left ({first[0].get('message')}); every input is sampled")
        if last and first[0].get("ok") and n > 1:
            early = _with_level_before(first[0], head, last, depth, lambda answers, text: _white(
                job["target"], domain, answers, parsed, prior, declared, extra, last["depth"], outputs, prove, text))
            if early is not None:
                return early
        by_input = {head: first[0]}
        if first[0].get("ok") and n > 1:
            ahead = spent * (n - 1) / workers
            if spent + ahead > left:
                raise NotEnumerable(f"the white-box route would take about {spent + ahead:.0f} s for the {n} inputs "
                                    f"(the first took {spent:.2g} s), beyond its budget of {left:g} s: every input "
                                    "is sampled")
            rest = [dict(j, seconds=left - spent) for j in jobs[1:]]
            by_input.update({i: one for g, a in zip(groups[1:], pool.map(rest)) for i, one in zip(g, _split(a, g))})
        elif n > 1:
            by_input.update({i: first[0] for i in rest_inputs})
        answers = [by_input[i] for i in range(n)]
        if len({a.get("fingerprint") for a in answers if a.get("ok")}) > 1:  # a value drawn at import differs
            answers = _one_process(pool, dict(jobs[0], inputs=list(range(len(domain)))), len(domain))
        for a in answers:  # an exception under enumeration: symbolic draws used beyond comparisons
            if a.get("kind") == "error":
                raise NotEnumerable(f"the randomizer failed under enumeration ({a['message']})")
        checked = [_check(a) for a in answers]
        try:
            return _white(job["target"], domain, checked, parsed, prior, declared, extra, depth, outputs, prove)
        except Unexplored as cut:  # kept for the next level
            last.update(answers=checked, depth=depth, cut=cut.enumerated, closed=cut.closed)
            raise

    return deepening(explore, seconds=seconds, claim=eps_d_claim(parsed))


def _with_level_before(answer: dict, head: int, last: dict, depth: int,
                       white: Callable[[list[dict], str], AuditReport]) -> AuditReport | None:
    """The report on the rows of the level before (``last``) with input ``head``'s row replaced by its deeper
    ``answer``, when it decides; ``None`` when it does not (or when the answers cannot be combined: values drawn
    at import differ between them).  Its paths are those of both levels."""
    answers = list(last["answers"])
    if answer.get("fingerprint") != answers[head].get("fingerprint"):
        return None
    answers[head] = answer  # (the paths counted: those of the rows used, from both levels)
    text = f"{last['depth']} draws not followed ({depth} for input #{head})"
    try:
        return white(answers, text)
    except NotEnumerable:  # undecided on these rows (Unexplored), or not combinable: the whole level decides
        return None


def _one_process(pool: Pool, job: dict, n: int) -> list[dict]:
    """Every input enumerated in one worker (the module drew a value at import, which differs between
    processes: within one, it is a constant of the mechanism), split back into one answer per input."""
    return _split(pool.map([job])[0], list(range(n)))


#: Jobs the enumeration of a domain is cut into (each a run of inputs): enough for the workers to share, few
#: enough that a job's fixed cost (finding the generators alive in the worker) is not paid once per input.
BATCHES = 32
#: At most this many of those jobs per worker (k-RR with k = 256 on one worker: 4 jobs of 64 inputs, not 32 of 8).
BATCHES_PER_WORKER = 4


def _split(a: dict, inputs: list[int]) -> list[dict]:
    """A worker's answer for several inputs, as one answer per input (the runs counted on the first)."""
    if not a.get("ok"):
        return [a] * len(inputs)
    return [{"ok": True, "rows": {str(i): a["rows"][str(i)]}, "runs": a["runs"] if i == inputs[0] else 0,
             "rounding": a["rounding"], "unexplored": {str(i): a["unexplored"][str(i)]},
             "closed": {k: v for k, v in a.get("closed", {}).items() if k == str(i)},
             "bits": {k: v for k, v in a["bits"].items() if k == str(i)}, "fingerprint": a.get("fingerprint")}
            for i in inputs]


def _white(target: str, domain: list, answers: list[dict], parsed: list, prior: Any, declared: list | None,
           extra: dict, depth: int = MAX_DEPTH, outputs: frozenset[str] | None = None,
           prove: Callable[[], dict] | None = None, depth_text: str | None = None) -> AuditReport:
    bits = [a.get("bits", {}).get(str(i)) for a, i in zip(answers, range(len(domain)))]
    if any(b is not None for b in bits):  # vectors of independent bits: the factorised channel
        if not all(b is not None for b in bits) or len({b["kind"] for b in bits}) != 1:
            raise NotEnumerable("independent bits for some inputs and not for others")
        texts: dict[str, Fraction] = {}  # each distinct probability parsed once: equal ones are one object
        f = Factorised([tuple(texts[p] if p in texts else texts.setdefault(p, Fraction(p)) for p in b["row"])
                        for b in bits], max(b["radius"] for b in bits), bits[0]["kind"])
        return factorised_report(target, domain, f, parsed, sum(a["runs"] for a in answers), extra)
    order: dict[str, int] = {}
    labels: list[str] = []
    cells = []
    parsed_entries: dict[str, Fraction] = {}  # each distinct text parsed once, equal entries one object
    for a, i in zip(answers, range(len(domain))):
        row = {}
        for key, label, p in a["rows"][str(i)]:
            if key not in order:
                order[key] = len(order)
                labels.append(label)
            value = parsed_entries.get(p)
            if value is None:
                value = parsed_entries[p] = Fraction(p)
            row[order[key]] = value
        cells.append(row)
    zero = Fraction(0)
    rows = [[r.get(j, zero) for j in range(len(order))] for r in cells]
    rounding = max(a["rounding"] for a in answers)
    runs = sum(a["runs"] for a in answers)
    unexplored = tuple(Fraction(a.get("unexplored", {}).get(str(i), "0")) for a, i in zip(answers, range(len(domain))))
    if any(unexplored):  # a loop on draws: a certified lower bound only, violated or sampled
        closed = tuple(bool(a.get("closed", {}).get(str(i))) for a, i in zip(answers, range(len(domain))))
        e = Enumerated(list(order), rows, runs, rounding, unexplored, closed=closed)
        proven = ""
        if outputs is None and prove is not None and not e.outputs_known:
            proof = prove()
            if proof.get("outputs") is not None and all(a.get("fingerprint") == proof.get("fingerprint")
                                                        for a in answers):
                outputs, proven = frozenset(proof["outputs"]), proof["text"]
        report = depth_bounded_report(target, domain, labels, e, parsed, extra, depth=depth, keys=list(order),
                                      declared=outputs, proven=proven, depth_text=depth_text)
        if report is None:
            raise Unexplored(e, depth, closed=e.outputs_known or (outputs is not None and set(order) == outputs))
        return report
    mech = _mechanism(domain, labels, rows, rounding, prior, target)
    (measures, decided), verdict = decide_channel(mech, parsed)
    conformance = _conformance_exact(rows, list(order), declared) if declared else ""
    return AuditReport(target, "white-box", verdict, mech, measures, decided, runs, conformance=conformance, **extra)
