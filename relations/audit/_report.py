"""Auditing a randomizer against its claimed budget: the white-box route, a report and a test helper.

:func:`audit` computes the exact channel the code implements
(:mod:`relations.audit._enumerate`), measures it, and decides the claims exactly:
``violated`` when a claim fails (the report carries the exact budget and the witness
pair and output), ``consistent`` otherwise.  :func:`assert_private` turns a violation
into a failing assertion, for a library's own test suite.
"""

from __future__ import annotations

import inspect
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from relations.audit._blackbox import REPEATS, SampleAudit, sample_audit
from relations.audit._enumerate import MAX_DEPTH, NotEnumerable
from relations.audit._exact import (
    Enumerated,
    Unexplored,
    deepen_first,
    deepening,
    enumerate_channel,
    mass_text,
    scan_ahead,
)
from relations.audit._options import AuditOptions
from relations.audit._outputs import output_label
from relations.audit._proven import Refused, proven_outputs  # first: it keeps the real builtins before user code
from relations.audit._worker import TargetError
from relations.audit._worker import load_target as _load
from relations.checking._checker import ClaimOutcome, decide
from relations.checking._claims import parse_claim
from relations.checking._quantities import values
from relations.errors import InputError
from relations.kinds import AuditVerdict, Status
from relations.measures._results import Measures
from relations.model._display import one_line, short_real, text_view
from relations.model._distributions import Channel
from relations.model._floats import MAX_EXCUSED
from relations.model._mechanism import Mechanism
from relations.numbers._text import whole_number

__all__ = ["AuditReport", "audit", "assert_private", "load_target", "parse_domain", "decide_channel",
           "depth_bounded_report", "factorised_report", "declared_outputs", "prove_outputs",
           "proof_note", "NotedUnexplored"]


@dataclass(frozen=True, repr=False)  # repr(): one line
class AuditReport:
    """The outcome of an audit.

    Attributes
    ----------
    target : str
        What was audited.
    route : str
        ``"white-box"``: the exact channel of the code, enumerated.
    verdict : str
        An :class:`~relations.kinds.AuditVerdict`: ``"violated"`` (a claim fails: exactly, or below a
        certified lower bound), ``"consistent"``, or ``"inconclusive"`` (samples that certify nothing).
    mechanism : Mechanism
        The channel the code implements, exact.
    measures : Measures
        Its budgets.
    claims : tuple of ClaimOutcome
    runs : int
        Paths through the randomizer that were run (white-box).
    sampled : SampleAudit or None
        The black-box evidence: certified ``eps_d_lower``, samples, what sampling cannot see.
    claimed : float or None
        The budget a library mechanism documents (``--eps`` otherwise).
    version : str
        The library's version, for library mechanisms.
    conformance : str
        How the implemented (or sampled) channel compares with the channel the library
        documents, when it documents one.
    route_reason : str
        Why the white-box route did not answer (black-box reports), in one sentence.
    repeatable : bool
        False when the randomizer draws from a source the audit's seed does not control: the same
        ``--seed`` will not give the same counts (measured: :attr:`SampleAudit.repeatable`).

    ``print(report)`` shows what ``relations audit`` prints (and the measures table of the channel, when
    it is known exactly); ``repr(report)`` is one line.

    Examples
    --------
    >>> def rr(x, rng):
    ...     return x if rng.random() < 0.75 else 1 - x
    >>> report = audit(rr, domain=[0, 1], claims=["eps_d <= ln(2)"])
    >>> report
    AuditReport(target='rr', verdict='violated', route='white-box', eps_d=ln(3)≈1.0986, claims=['eps_d <= ln(2): fails'])
    >>> print(report)  # doctest: +ELLIPSIS
    violated: eps_d <= ln(2) fails; rr implements a channel with eps_d = ln(3) (x=0, x'=1, y=0) = 1.09861 nats, ...
    ...
    │ eps_d     │  1.09861228866… │ ln(3)  ...
    ...
    """

    target: str
    route: str
    verdict: str
    mechanism: Mechanism | None
    measures: Measures | None
    claims: tuple[ClaimOutcome, ...]
    runs: int
    sampled: SampleAudit | None = None
    claimed: float | None = None
    version: str = ""
    conformance: str = ""
    labels: dict = field(default_factory=dict, repr=False)
    claim: str = ""
    route_reason: str = ""
    binning: str = ""  # black-box: how real-valued outputs were binned, if they were
    eps_d_lower: str = ""  # depth-bounded white-box: the certified lower bound, ln(q) or inf
    eps_d_exact: str = ""  # factorised white-box: eps_d exactly, ln(q) or inf
    bits: int = 0  # factorised white-box: the number of independent bits of an output
    eps_d_value: float = 0.0  # factorised white-box: eps_d in nats
    within_rounding: bool = False  # factorised white-box: the claim holds only within the code's float rounding
    budgets: dict = field(default_factory=dict)  # the path, depth, time and sample budgets the audit ran with
    witness: tuple = ()  # its (x, x', y)
    white_box_interval: dict = field(default_factory=dict)  # a loop cut at a depth, then sampled: eps_d's bounds

    def __str__(self) -> str:
        """``relations audit``'s text: the summary, the conformance line, the implemented channel's measures
        (:func:`relations.io._text.audit_text`)."""
        return text_view(self, "relations.io._text:audit_text")

    def __repr__(self) -> str:
        """One line: target, verdict, route, eps_d (exact where short) and the claims' statuses."""
        if self.measures is not None:
            m = self.measures.eps_d
            eps_d = short_real(m.value, None if m.exact is None else str(m.exact))
        elif self.sampled is not None:
            eps_d = f">={self.sampled.eps_d_lower:.5g}"
        elif self.bits:
            eps_d = short_real(self.eps_d_value, self.eps_d_exact or None)
        else:
            eps_d = f">={self.eps_d_lower}" if self.eps_d_lower else "?"
        fields = [("target", repr(self.target)), ("verdict", repr(str(self.verdict))), ("route", repr(self.route)),
                  ("eps_d", eps_d)]
        if self.claims:
            fields.append(("claims", "[" + ", ".join(repr(f"{c.claim.text}: {c.status}") for c in self.claims) + "]"))
        return one_line("AuditReport", fields).replace("eps_d=>=", "eps_d>=")

    @property
    def repeatable(self) -> bool:
        return self.sampled is None or self.sampled.repeatable

    def summary(self) -> str:
        """One paragraph for a person: verdict, exact ``eps_d`` (or its certified lower bound) and its witness."""
        if self.sampled is not None:
            sa = self.sampled
            y = None if sa.witness is None else self.labels.get(sa.witness[2], sa.witness[2])
            where = "" if sa.witness is None else f" (x={sa.witness[0]}, x'={sa.witness[1]}, y={y})"
            text = (f"{self.verdict}: {self.target}: eps_d >= {sa.eps_d_lower:.6g} nats{where} with confidence "
                    f"{1 - sa.alpha:g} (black-box, {sa.samples} samples per input in {sa.rounds} round(s); outputs "
                    f"rarer than about {sa.undetectable:.2g} cannot be excluded)")
            if self.verdict == AuditVerdict.INCONCLUSIVE:
                text += (f"; only {sa.repeated_share():.0%} of the samples fell on outputs seen {REPEATS} times or "
                         "more, so they could not show a violation: this is no evidence of privacy")
            if self.binning:
                text += f"\nbinning: {self.binning}"
            if self.route_reason:
                text += f"\nwhy not exact: {self.route_reason}"
            if not self.repeatable:
                text += ("\nthe counts will not repeat: the randomizer draws from a source the audit's --seed does not "
                         "control")
            return text
        if self.mechanism is None and self.bits:  # factorised white-box: eps_d exactly, 2^bits outputs never expanded
            x, x2, y = self.witness
            head = f"{self.verdict}: " + (f"{self.claim} fails; " if self.verdict == AuditVerdict.VIOLATED else (
                f"{self.claim} holds within the rounding of the code's floats; " if self.within_rounding else ""))
            text = self.eps_d_exact if len(self.eps_d_exact) <= 60 else "ln(q), q a long rational,"
            return (f"{head}{self.target} implements a channel of {self.bits} independent bits with eps_d = "
                    f"{text} (x={x}, x'={x2}, y={y}) = {self.eps_d_value:.6g} nats, exactly (white-box, factorised: its 2^{self.bits} "
                    f"outputs never expanded; {self.runs} paths)")
        if self.mechanism is None and self.verdict == AuditVerdict.CONSISTENT:  # depth-bounded, both ends certified
            x, x2, y = self.witness
            iv = self.white_box_interval
            how = "holds within the rounding of the code's floats" if self.within_rounding else "holds"
            return (f"{self.verdict}: {self.claim} {how}: {self.target} implements a channel with eps_d in "
                    f"[{iv['lower']}, {iv['upper']}], certified (upper end at x={x}, x'={x2}, y={y}; the outputs "
                    f"{iv.get('outputs', 'assumed to be those declared')}; {self.route_reason}; {self.runs} paths)")
        if self.mechanism is None:  # depth-bounded white-box: a certified lower bound
            x, x2, y = self.witness
            return (f"{self.verdict}: {self.claim} fails: {self.target} implements a channel with eps_d >= "
                    f"{self.eps_d_lower}, certified (x={x}, x'={x2}, y={y}; {self.route_reason}; {self.runs} paths)")
        m, mech = self.measures, self.mechanism
        assert m is not None  # a white-box report with its mechanism carries its measures
        w = m.eps_d.witness
        where = "" if w is None else (f" (x={mech.input_label(w.x)}, x'={mech.input_label(w.x_prime)}, "
                                      f"y={mech.output_label(w.y)})")
        failed = [c.claim.text for c in self.claims if c.holds is False]
        within = [c.claim.text for c in self.claims if c.status == Status.HOLDS_WITHIN_ROUNDING]
        head = f"{self.verdict}: " + (f"{', '.join(failed)} fails; " if failed else "") + (
            f"{', '.join(within)} holds within the rounding of the code's floats; " if within else "")
        return (f"{head}{self.target} implements a channel with eps_d = {m.eps_d.exact}{where} "
                f"= {m.eps_d.value:.6g} nats, exactly ({self.route}, {self.runs} paths)")


#: The options of a target's audit (worker processes, binning, routes, output) that :func:`audit` cannot honour.
_TARGETS_ONLY = ("bins", "workers", "python", "scheduler", "white_box", "exact_only", "json_out", "out", "force")


def audit(fn: Callable[..., Any], *, domain: Sequence[Any], eps: Any = None, claims: Sequence[str] = (),
          prior: Any = "uniform", target: str | None = None, outputs: Sequence[Any] | None = None,
          options: AuditOptions | None = None, **keywords: Any) -> AuditReport:
    """Audit the randomizer ``fn`` on ``domain``: its exact channel, budgets and the claims decided exactly.

    Parameters
    ----------
    fn : callable
        ``fn(x)`` or ``fn(x, rng=...)``; draws from Python's ``random`` and numpy's global
        generator are intercepted too.
    domain : sequence
        The inputs.
    eps : str or number, optional
        The documented budget: adds the claim ``eps_d <= eps`` (``"ln(3)"``, ``1.0986``).
    claims : sequence of str, optional
        More claims, as for ``relations check``.
    prior : optional
        Prior over ``domain`` for ``eps_i`` and ``eps_m`` (uniform by default).
    target : str, optional
        A name for the report (default: the function's qualified name).
    outputs : sequence, optional
        Every output ``fn`` may return (a clamped sampler's range).  A loop on draws cut at a depth then has
        a certified upper end on ``eps_d`` too, and a correct loop whose claim has slack is ``consistent`` on
        the white-box route; an output outside them is an error.
    options : AuditOptions, optional
        How the audit runs (:class:`~relations.audit.AuditOptions`), the same as the command line's; ``fn``
        runs in one child process, so the options of worker processes, binning, routes and output do not
        apply (an :class:`~relations.errors.InputError` if set).  ``max_paths`` and ``seconds`` bound the
        white-box route; a loop on draws is followed from depth :data:`~relations.audit._enumerate.MAX_DEPTH`,
        doubled up to :data:`~relations.audit._enumerate.MAX_DEEPENING` while its bound decides nothing and the
        budget lasts.  The black-box route is taken when the randomness cannot be enumerated and ``samples`` is
        given (:func:`~relations.audit._blackbox.sample_audit`, with ``seed`` and ``alpha``): ``violated`` when
        the certified lower bound on ``eps_d`` exceeds ``eps``.  ``timeout`` bounds the randomizer's part of
        the audit in all, ``call_seconds`` one call of ``fn``, ``memory_mb`` the memory (address space) the
        child process may add to the caller's.
    **keywords
        Options by name instead of (or over) ``options``: ``samples=2000, seed=3``.

    Returns
    -------
    AuditReport

    Raises
    ------
    InputError
        If a claim does not parse; if ``fn`` raises, exits or crashes, or a limit is hit (one line
        naming it).
    NotEnumerable
        If the randomness cannot be enumerated exactly (use sampling).

    Notes
    -----
    ``fn`` runs apart (:func:`~relations.audit._apart.run_apart`): in a child process forked from the
    caller, so that closures and lambdas need no pickling.  Its prints are dropped (the last lines are
    quoted if it fails), its ``sys.exit`` and exceptions are an :class:`~relations.errors.InputError`, and
    the limits above hold, as for the command line's workers.  The child starts with the caller's memory:
    state that ``fn`` changes there is not seen by the caller.  Where ``os.fork`` does not exist
    (Windows), ``fn`` runs in the caller's process, without these bounds.

    Examples
    --------
    OpenDP 0.4's boolean randomized response answered a Bernoulli lie instead of the
    negation; at ``p = 3/4`` it claims ``ln 3`` and delivers ``ln 13``:

    >>> def rr_bool(x, rng):
    ...     if rng.random() < 0.75:
    ...         return x
    ...     return rng.random() < 0.75  # the bug: a coin, not "not x"
    >>> report = audit(rr_bool, domain=[True, False], eps="ln(3)")
    >>> report.verdict, str(report.measures.eps_d.exact)
    ('violated', 'ln(13)')
    """
    from relations.audit._apart import run_apart
    from relations.audit._worker import _timed

    o = AuditOptions.of(options, keywords)
    if unused := o.differing(_TARGETS_ONLY):
        raise InputError(f"audit(): {', '.join(unused)} apply to targets run by audit_target(), not to a function")
    parsed = _claims(eps, claims)
    declared = declared_outputs(outputs)
    pass_rng = "rng" in inspect.signature(fn, follow_wrapped=False).parameters
    name: str = target or getattr(fn, "__qualname__", None) or repr(fn)

    proofs: list[tuple[frozenset[str] | None, str]] = []  # the outputs proven from the source, once, when needed
    last: list[tuple[int, Enumerated, bool]] = []  # the level before: its depth, its rows, whether it had an upper end

    def known_outputs(e: Enumerated) -> tuple[Any, str]:
        """The outputs for an upper end: declared, or proven from the source (with the proof's text)."""
        if declared is not None or e.outputs_known:
            return declared, ""
        if not proofs:
            proofs.append(prove_outputs(fn, domain, pass_rng=pass_rng))
        return proofs[0]

    def explore(depth: int, left: float) -> AuditReport | Enumerated:
        def enumerated(inputs: Sequence[Any], seconds: float) -> Enumerated:
            return enumerate_channel(_timed(fn), inputs, pass_rng=pass_rng, max_paths=o.max_paths,
                                     allow_unexplored=True, max_depth=depth, seconds=seconds)
        if last and len(domain) > 1:  # a deeper level: first the input that holds the interval back
            before, cut, closed = last[-1]
            head = deepen_first(cut, eps_d_claim(parsed), closed)
            start = time.monotonic()
            one = enumerated([domain[head]], left)
            if one.factorised is None and cut.factorised is None:
                mixed = cut.replaced(head, one)
                outs, proven = known_outputs(mixed)
                report = depth_bounded_report(name, domain, [output_label(k) for k in mixed.outputs], mixed, parsed,
                                              depth=before, declared=outs, keys=[repr(k) for k in mixed.outputs],
                                              proven=proven if outs is not None else "",
                                              depth_text=f"{before} draws not followed ({depth} for input #{head})")
                if report is not None:
                    return report
            others = [x for i, x in enumerate(domain) if i != head]
            rest = enumerated(others, left - (time.monotonic() - start))
            e = rest if rest.factorised is not None or one.factorised is not None else Enumerated(
                rest.outputs, rest.rows[:head] + [[Fraction(0)] * len(rest.outputs)] + rest.rows[head:], rest.runs,
                rest.rounding, rest.unexplored[:head] + (Fraction(0),) + rest.unexplored[head:]).replaced(head, one)
            if e.factorised is not None or one.factorised is not None:
                e = enumerated(domain, left - (time.monotonic() - start))  # (not a loop: every input at once)
        else:
            e = enumerated(domain, left)
        if e.factorised is not None:
            return factorised_report(name, domain, e.factorised, parsed, e.runs)
        if e.complete:
            return e
        labels = [output_label(k) for k in e.outputs]  # violated on a certified lower bound, or deeper, or sampled
        keys = [repr(k) for k in e.outputs]
        outputs, proven = known_outputs(e)
        report = depth_bounded_report(name, domain, labels, e, parsed, depth=depth, declared=outputs,
                                      keys=keys, proven=proven if outputs is not None else "")
        if report is None:
            closed = e.outputs_known or (outputs is not None and set(keys) == outputs)
            last.append((depth, e, closed))
            raise Unexplored(e, depth, closed=closed)
        return report

    def calls() -> AuditReport | Enumerated:
        """Every part of the audit that calls ``fn``: run apart."""
        try:
            return deepening(explore, seconds=o.seconds, claim=eps_d_claim(parsed))
        except NotEnumerable as cut:
            exc = cut
            if proofs and isinstance(cut, Unexplored) and not cut.closed:
                exc = NotedUnexplored(cut.enumerated, cut.depth, cut.closed,
                                      proof_note(proofs[0][0], proofs[0][1], [repr(k) for k in cut.enumerated.outputs]))
            if o.samples is None:
                raise exc from None
            sampled = sample_audit(fn, domain=domain, samples=o.samples, seed=o.seed, alpha=o.alpha,
                                   stop_above=_bound(eps))
            interval = getattr(exc, "interval", None) or {}
            if isinstance(exc, Unexplored) and exc.closed and interval:  # both ends known, the claim undecided
                interval = {**interval, "outputs": "assumed to be those declared (--outputs)" if declared is not None
                            else proofs[0][1] if proofs else ""}
            return _sampled_report(name, sampled, eps, route_reason=str(exc), white_box_interval=interval)

    scan_ahead()  # the child looks through the objects made since this process's pass over them
    result = run_apart(calls, timeout=o.timeout, call_seconds=o.call_seconds, memory_mb=o.memory_mb)
    if isinstance(result, AuditReport):
        return result
    e = result
    labels = [output_label(k) for k in e.outputs]
    mech = _mechanism(domain, labels, e.rows, e.rounding, prior, name)
    decided, verdict = decide_channel(mech, parsed)
    return AuditReport(mech.source, "white-box", verdict, mech, decided[0], decided[1], e.runs)


def factorised_report(name: str, domain: Sequence[Any], f: Any, claims: Sequence[Any], runs: int,
                      extra: dict | None = None) -> AuditReport:
    """The report of a randomizer whose outputs are vectors of independent bits (:mod:`relations.audit._vectors`):
    ``eps_d`` exactly from the coordinate probabilities, and each ``eps_d`` claim decided exactly, with the
    rounding of the code's float thresholds as a margin (``holds within rounding`` is consistent).  Claims on
    other notions need the whole channel, so they send the audit to sampling."""
    from relations.numbers._reals import compare

    others = [c for c in claims if c.name != "eps_d" or c.op not in ("<=", "<")]
    if others:
        raise NotEnumerable(f"the claim {others[0].text!r} needs the whole channel of {len(f.rows[0])} independent "
                            "bits; only eps_d is computed factorised")
    q, (x, x2, y) = f.eps_d()
    value = _ln(q)
    d = len(f.rows[0])
    r = Fraction(f.radius)
    # the true ratio is within this factor, excused up to MAX_EXCUSED nats (beyond, the binary values decide)
    cap = Fraction(math.exp(MAX_EXCUSED))
    spread = Fraction(1) if not r else cap if r >= 1 else min(((1 + r) / (1 - r)) ** d, cap)
    verdict, within, failed = AuditVerdict.CONSISTENT, False, ""
    for c in claims:
        if (compare(value, c.bound) or 0) <= 0 and not (c.op == "<" and compare(value, c.bound) == 0):
            continue
        low = value if q is None else _ln(q / spread)
        if (compare(low, c.bound) or 0) > 0:
            verdict, failed = AuditVerdict.VIOLATED, c.text
            break
        within, failed = True, c.text
    return AuditReport(name, "white-box (factorised)", str(verdict), None, None, (), runs, claim=failed,
                       eps_d_exact=str(value), witness=(domain[x], domain[x2], "".join(map(str, y))), bits=d,
                       within_rounding=within, eps_d_value=float(value), **(extra or {}))


def depth_bounded_report(name: str, domain: Sequence[Any], outputs: Sequence[str], e: Any, claims: Sequence[Any],
                         extra: dict | None = None, *, depth: int = MAX_DEPTH, keys: Sequence[str] | None = None,
                         declared: Any = None, proven: str = "", depth_text: str | None = None) -> AuditReport | None:
    """The report of an enumeration cut at its depth (a loop on draws): ``violated`` when the certified lower
    bound on ``eps_d`` (:meth:`~relations.audit._exact.Enumerated.eps_d_lower`) exceeds an ``eps_d`` claim,
    decided exactly; ``consistent`` when the outputs were declared (``declared``: the ``repr`` of the output keys
    the code may return, ``keys`` those of the outputs seen), each was seen, and the certified upper bound
    (:meth:`~relations.audit._exact.Enumerated.eps_d_upper`) is within every claim, all on ``eps_d``, up to the
    rounding of the code's floats; ``None`` when neither, and the audit must go deeper or sample.  With ``proven``
    (the text of a :class:`~relations.audit._proven.ProvenOutputs`), ``declared`` was proven from the source rather
    than declared: the report says so, and an output outside it contradicts the proof, which is then not used
    (``None``: no upper end), never certified.
    ``depth_text`` says how deep the paths were followed when the inputs were not all followed to ``depth`` (the
    reason's ``paths of more than ...``).

    Raises
    ------
    InputError
        When the code returned an output outside ``declared`` (declared by the user, not proven).
    """
    from relations.numbers._reals import compare

    q, where = e.eps_d_lower()
    lower = _ln(q)
    mass = mass_text(max(e.unexplored))
    reason = f"paths of more than {depth_text or f'{depth} draws not followed'}, unexplored mass up to {mass} per input"
    failed = [c for c in claims if c.name == "eps_d" and c.op in ("<=", "<")
              and (compare(lower, c.bound) or 0) > 0]
    if failed:
        x, x2, y = where
        return AuditReport(name, "white-box (depth-bounded)", str(AuditVerdict.VIOLATED), None, None, (), e.runs,
                           claim=failed[0].text, eps_d_lower=_short(lower), witness=(domain[x], domain[x2], outputs[y]),
                           route_reason=reason, **(extra or {}))
    known = bool(getattr(e, "outputs_known", False)) and keys is not None and declared is None
    if known and keys is not None:  # every output reachable was seen (confined mass)
        declared = frozenset(keys)
        proven = ("those seen: every output reachable was seen (the unexplored mass lies in choices whose every "
                  "branch was followed)")
    if declared is None or keys is None:
        return None
    stray = [outputs[j] for j, k in enumerate(keys) if k not in declared]
    if stray and proven:
        return None  # the proof and the enumeration disagree: neither is trusted for an upper end
    if stray:
        raise InputError(f"the randomizer returned {stray[0]}, which is not among the declared outputs (--outputs)")
    if len(set(keys)) != len(declared) or not claims or any(c.name != "eps_d" or c.op not in ("<=", "<")
                                                            for c in claims):
        return None  # a declared output never seen may be reached by the unexplored mass alone: no upper end
    top, at = e.eps_d_upper()
    if top is None:
        return None
    upper = _ln(top)
    r = Fraction(e.rounding)
    cap = Fraction(math.exp(MAX_EXCUSED))
    spread = Fraction(1) if not r else cap if r >= 1 else min((1 + r) / (1 - r), cap)
    within = False
    for c in claims:
        if (compare(upper, c.bound) or 0) <= 0 and not (c.op == "<" and compare(upper, c.bound) == 0):
            continue
        if (compare(_ln(top / spread), c.bound) or 0) > 0:
            return None  # undecided: deeper, or sampled
        within = True
    x, x2, y = at
    interval = {"lower": _short(lower), "upper": _short(upper), "depth": depth, "unexplored": mass,
                "outputs": proven or "assumed to be those declared (--outputs)"}
    return AuditReport(name, "white-box (depth-bounded)", str(AuditVerdict.CONSISTENT), None, None, (), e.runs,
                       claim=claims[0].text, eps_d_lower=_short(lower), witness=(domain[x], domain[x2], outputs[y]),
                       route_reason=reason + ("" if proven else "; outputs as declared"),
                       within_rounding=within,
                       white_box_interval=interval, **(extra or {}))


def prove_outputs(fn: Callable[..., Any], domain: Sequence[Any], *, pass_rng: bool) -> tuple[frozenset[str] | None, str]:
    """The outputs of ``fn`` on ``domain`` proven from its source (:func:`~relations.audit._proven.proven_outputs`),
    as the ``repr`` of their output keys, and the text saying where; or ``None`` and why not.

    Examples
    --------
    >>> prove_outputs(print, [0], pass_rng=False)
    (None, 'the randomizer is not a plain function (a method, a partial, a class or a builtin)')
    """
    from relations.audit._outputs import output_key

    try:
        proof = proven_outputs(fn, domain, pass_rng=pass_rng)
    except Refused as exc:
        return None, str(exc)
    return frozenset(repr(output_key(v)) for v in proof.values), proof.text()


class NotedUnexplored(Unexplored):
    """:class:`~relations.audit._exact.Unexplored` with a ``note`` added to its message (why no set of outputs was
    proven, :func:`proof_note`), kept when pickled (an audit's child process sends it back).

    Examples
    --------
    >>> import pickle
    >>> e = Enumerated([0], [[Fraction(1, 2)]], 10, 0.0, (Fraction(1, 2),))
    >>> str(pickle.loads(pickle.dumps(NotedUnexplored(e, 32, False, "; a note")))).endswith("; a note")
    True
    """

    def __init__(self, enumerated: Enumerated, depth: int, closed: bool = False, note: str = ""):
        super().__init__(enumerated, depth, closed)
        self.note = note
        self.args = (f"{self.args[0]}{note}",)

    def __reduce__(self) -> tuple[Any, ...]:
        return (NotedUnexplored, (self.enumerated, self.depth, self.closed, self.note))


def proof_note(keys: frozenset[str] | None, text: str, seen: Sequence[str]) -> str:
    """What a loop cut at a depth without an upper end says of the proof of its outputs: why it failed (``keys``
    ``None``, ``text`` the reason), that an output seen (``seen``, the ``repr`` of output keys) lies outside it, or
    that some proven output was never seen.

    Examples
    --------
    >>> proof_note(None, "the function may return float (not only integers)", ["0"])
    '; the outputs could not be proven from the source: the function may return float (not only integers)'
    >>> proof_note(frozenset({"0", "1"}), "0, 1 (proven from the source, f.py:3 (f))", ["0", "('float', 0.5)"])
    "; the outputs proven from the source, 0, 1 (proven from the source, f.py:3 (f)), do not hold ('float', 0.5), which the code returned: the proof is not used"
    """
    if keys is None:
        return f"; the outputs could not be proven from the source: {text}" if text else ""
    stray = [k for k in seen if k not in keys]
    if stray:
        return (f"; the outputs proven from the source, {text}, do not hold {stray[0]}, which the code returned: the "
                "proof is not used")
    if set(seen) != keys:
        return (f"; the outputs proven from the source, {text}, were not all returned on the paths followed (one never "
                "seen could hold all the unexplored mass)")
    return ""


def declared_outputs(outputs: Sequence[Any] | None) -> frozenset[str] | None:
    """The outputs a user declares a randomizer may return, as the ``repr`` of their output keys (``None``: not
    declared).

    Examples
    --------
    >>> sorted(declared_outputs([0, 1, "a"]))
    ["'a'", '0', '1']
    """
    if outputs is None:
        return None
    from relations.audit._outputs import output_key

    return frozenset(repr(output_key(v)) for v in outputs)


def _ln(q: Fraction | None) -> Any:
    """``ln(q)`` exactly, ``q = None`` meaning an infinite ratio (as the exact bounds of the audit give it)."""
    from relations.numbers._logs import LogRatio
    from relations.numbers._reals import Log

    return Log(LogRatio.inf()) if q is None else Log(LogRatio.of(q))


def _short(x: Any) -> str:
    """An exact ``ln(q)`` as text, or its value in nats when ``q`` is long."""
    text = str(x)
    return text if len(text) <= 40 else f"{float(x):.6g} nats (the log of a {len(text)}-character rational)"


def _claims(eps: Any, claims: Sequence[str]) -> list:
    parsed = [parse_claim(c) for c in claims]
    if eps is not None:
        parsed.insert(0, parse_claim(f"eps_d <= {eps}"))
    return parsed


def eps_d_claim(claims: Sequence[Any]) -> float | None:
    """The smallest finite bound of the ``eps_d <=`` (or ``<``) claims, or ``None``.

    Examples
    --------
    >>> eps_d_claim(_claims("2", ["eps_d <= 1.5", "eps_i <= 1"]))
    1.5
    """
    bounds = [float(c.bound) for c in claims if c.name == "eps_d" and c.op in ("<=", "<")]
    finite = [b for b in bounds if math.isfinite(b)]
    return min(finite) if finite else None


def _bound(eps: Any) -> float | None:
    if eps is None:
        return None
    b = float(parse_claim(f"eps_d <= {eps}").bound)
    return None if math.isinf(b) else b


def _sampled_report(name: str, sampled: SampleAudit, eps: Any, **extra: Any) -> AuditReport:
    """``violated`` when the certified lower bound exceeds the claim; otherwise ``consistent`` only when the
    samples could have shown a violation (:meth:`SampleAudit.informative`), else ``inconclusive``."""
    bound = _bound(eps)
    if bound is not None and sampled.eps_d_lower > bound:
        verdict = AuditVerdict.VIOLATED
    else:
        verdict = AuditVerdict.CONSISTENT if sampled.informative() else AuditVerdict.INCONCLUSIVE
    return AuditReport(name, "black-box", str(verdict), None, None, (), 0, sampled,
                       claim="" if eps is None else f"eps_d <= {eps}", **extra)


def _mechanism(domain: Sequence[Any], outputs: list[str], rows: list, rounding: float, prior: Any,
               name: str) -> Mechanism:
    labels = [str(x) for x in domain]
    if len(set(labels)) != len(labels):
        raise InputError("--domain: the input values must be distinct")
    if len(set(outputs)) != len(outputs):
        outputs = [f"{i}:{o}" for i, o in enumerate(outputs)]
    channel = Channel.from_exact(rows, Fraction(rounding))
    return Mechanism.local(channel, prior=prior, inputs=labels, outputs=outputs, source=name)


def decide_channel(mech: Mechanism, claims: Sequence[Any]) -> tuple[tuple[Measures, tuple[ClaimOutcome, ...]], str]:
    """Measure an implemented channel and decide the claims: ``violated`` when one fails
    exactly (``holds within rounding`` of the code's floats is consistent)."""
    vals = values(mech)
    decided = tuple(decide(c, vals) for c in claims)
    verdict = "violated" if any(c.holds is False for c in decided) else "consistent"
    return (vals.measures, decided), verdict


def assert_private(fn: Callable[..., Any], *, domain: Sequence[Any], eps: Any, **options: Any) -> AuditReport:
    """Fail (``AssertionError``) unless ``fn`` is ``eps``-DP on ``domain``; for a library's test suite.

    Parameters
    ----------
    fn, domain, eps
        As for :func:`audit`.
    **options
        The options of :func:`audit`: ``options=AuditOptions(...)`` or their names as keywords.

    Returns
    -------
    AuditReport
        A report that is not ``violated``.

    Raises
    ------
    AssertionError
        When ``fn`` violates ``eps``: the report's summary, with the exact budget, the witness pair and output.

    Examples
    --------
    >>> def rr(x, rng):
    ...     return x if rng.random() < 0.75 else 1 - x
    >>> assert_private(rr, domain=[0, 1], eps="ln(3)").verdict
    'consistent'
    """
    report = audit(fn, domain=domain, eps=eps, **options)
    if report.verdict == "violated":
        raise AssertionError(report.summary())
    return report


def parse_domain(text: str) -> list[Any]:
    """``--domain 0,1,2`` (integers become ``int``), ``True,False`` (``bool``), else strings.

    Examples
    --------
    >>> parse_domain("0, 1,2"), parse_domain("yes,no"), parse_domain("True,False")
    ([0, 1, 2], ['yes', 'no'], [True, False])
    """
    items = [t.strip() for t in text.split(",")]
    if not text.strip() or any(not t for t in items):
        raise InputError(f"--domain: expected comma-separated values, got {text!r}")
    named = {"True": True, "False": False}
    return [whole_number(t, "--domain") if t.lstrip("-").isascii() and t.lstrip("-").isdigit() else named.get(t, t)
            for t in items]


def load_target(target: str) -> Callable[..., Any]:
    """The function named by ``MODULE:FUNCTION`` or ``FILE.py:FUNCTION`` (the user's own code is run).

    Raises
    ------
    InputError
        If the target cannot be found or is not callable.
    """
    try:
        return _load(target).fn
    except TargetError as exc:
        raise InputError(str(exc)) from None
