"""Results as rich tables for a terminal: measures, relation outcomes, claims, catalogue, verdicts.

The tables carry the same numbers as the JSON of :mod:`relations.io._reports`, rounded for
reading; values are in nats.  ``rich`` is imported only when a table is built.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from relations.io._grid import Grid
from relations.io._reports import sizes
from relations.io._terminal import safe
from relations.measures._results import Budget, Measures, float_derived
from relations.model._floats import EXACT_INPUT_RULE
from relations.model._mechanism import Mechanism
from relations.model._neighbours import HammingInputs
from relations.numbers._enclosure import certified_text

if TYPE_CHECKING:
    from rich.table import Table
    from rich.text import Text

    from relations.checking._checker import Report
    from relations.pipeline._verify import RelationVerdict

__all__ = ["NARROW", "claims_table", "composition_table", "measures_table", "measures_grid", "notions_table", "left_out_text", "check_tables", "catalogue_table", "verdicts_table",
           "conjectures_table", "tally", "short_evidence", "VERIFY_WIDTH"]

#: ``relations verify`` prints its table in at most this many columns unless ``--wide``.
VERIFY_WIDTH = 100

#: Below this many columns ``relations check`` leaves the notes out of its relation tables.
NARROW = 120


def _short(label: str, limit: int = 48) -> str:
    """A label as text (:func:`~relations.io._text.safe`: control characters escaped), shortened to ``limit``."""
    label = safe(label)
    return label if len(label) <= limit else label[: limit - 5] + "…" + label[-4:]



def measures_table(mech: Mechanism, measures: Measures) -> Table:
    """A rich table of the four quantities: quantity, value, exact form (or enclosure), witness
    (:func:`measures_grid` as a rich table).

    Parameters
    ----------
    mech : Mechanism
        Titles the table and names the witnesses.
    measures : Measures
        ``measure(mech)``.

    Returns
    -------
    rich.table.Table

    Examples
    --------
    >>> from relations import measure
    >>> from relations.mechanisms import krr
    >>> m = krr(3, 2)
    >>> table = measures_table(m, measure(m))
    >>> table.row_count, [column.header for column in table.columns]
    (4, ['quantity', 'value (nats)', 'exact form', 'witness'])
    """
    return measures_grid(mech, measures).__rich__()


def measures_grid(mech: Mechanism, measures: Measures) -> Grid:
    """The table of the four quantities as a :class:`~relations.io._grid.Grid` (drawn without rich where it can be).

    Examples
    --------
    >>> from relations import measure
    >>> from relations.mechanisms import krr
    >>> m = krr(3, 2)
    >>> grid = measures_grid(m, measure(m))
    >>> [row[0] for row in grid.rows], [column[0] for column in grid.columns]
    (['eps_i', 'eps_d', 'eps_m', 'sigma_min'], ['quantity', 'value (nats)', 'exact form', 'witness'])
    """
    n, m = sizes(mech)
    structure = "all pairs" if mech.setting == "local" else (
        f"D^{mech.inputs.records}, |D|={mech.inputs.k}" if isinstance(mech.inputs, HammingInputs)
        else f"{len(mech.inputs.edges)} neighbour pairs")  # type: ignore[union-attr]
    measured = measures.mechanism or mech  # in the mode it was measured in (docs/semantics.md, "Numeric mode")
    rho, rho_p = measured.rounding
    why = [measured.mode_rule if measured.mode_rule != EXACT_INPUT_RULE else ""]  # exact input is always exact
    if rho or rho_p:
        why += ["floats at their binary values, rows renormalised"] * measures.exact + [f"rounding {float(max(rho, rho_p)):.2g}"]
    reasons = "; ".join(filter(None, why))
    mode = ("mode exact" if measures.exact else "mode float, approximate") + (f" ({reasons})" if reasons else "")
    title = f"{safe(mech.source or 'mechanism')} — {mech.setting}, {n} inputs x {m} outputs, {structure}; {mode}"
    columns = (("quantity", "left", "ellipsis"), ("value (nats)", "right", "ellipsis"),
               ("exact form", "left", "fold"),  # an enclosure wraps rather than losing digits
               ("witness", "left", "ellipsis"))
    rows = []
    binary = float_derived(measures)  # exact forms of floats' binary values: a long ln(q) as a decimal
    for budget in (measures.eps_i, measures.eps_d):
        rows.append((budget.name, _budget_value(budget), _exact(budget, binary), _wit(mech, budget)))
    mi = measures.eps_m
    if mi.enclosure is not None:
        lo, hi = mi.enclosure.decimal(24)
        form = f"[{lo}, {hi}]"
    else:
        form = "float, not certified"
    shown = _fmt(mi.value) if mi.enclosure is None else certified_text(mi.enclosure.lower, mi.enclosure.upper)
    rows.append(("eps_m", shown, form, "I(X;Y)"))
    s = measures.sigma_min
    rows.append((s.name, _budget_value(s), _exact(s, binary), _wit(mech, s)))
    return Grid(title, columns, rows)


def _budget_value(b: Budget, digits: int = 12) -> str:
    """A budget's value as ``eps_m``'s is shown: of an exact ``ln(q)``, the digits its enclosure certifies
    (truncated, at most ``digits`` significant, ``…`` when more follow), so ``ln(2.718281828459044…)`` reads
    ``0.999999999999…``, never ``1``; a float-mode value rounded to ``digits``.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from relations.measures import Budget
    >>> from relations.numbers import LogRatio
    >>> near_e = LogRatio.of(Fraction(2.718281828459045))  # ln of the double nearest e: 0.99999999999999994...
    >>> _budget_value(Budget("eps_d", float(near_e), near_e, None)), _budget_value(Budget("eps_d", 0.0, LogRatio.of(Fraction(1)), None))
    ('0.999999999999…', '0')
    >>> third = LogRatio.of(Fraction(1, 3))
    >>> _budget_value(Budget("sigma_min", float(third), third, None))
    '-1.09861228866…'
    """
    exact = b.exact
    if exact is None or not exact.is_finite or exact.ratio == 1:
        return _fmt(b.value)
    from relations.numbers._reals import Log

    lo, hi = Log(exact).enclose(24 + 4 * digits)
    lo, hi = Fraction(lo), Fraction(hi)
    return certified_text(lo, hi, digits=digits) if lo > 0 else "-" + certified_text(-hi, -lo, digits=digits)



def notions_table(rows: Sequence[dict]) -> Table:
    """A rich table of ``relations measure --notion`` rows (:func:`~relations.io._reports.notions_json`).

    Examples
    --------
    >>> notions_table([{"name": "kl", "value": 0.5, "exact": "KL", "witness": None}]).row_count
    1
    """
    from rich.table import Table

    from relations.notions import NOTIONS

    units: dict[str, list[str]] = {}
    for r in rows:
        row = NOTIONS.get(r["name"].split("(")[0])
        if row is not None and row.unit != "nats":
            units.setdefault(row.unit, []).append(r["name"].split("(")[0])
    others = "; ".join(f"{', '.join(dict.fromkeys(names))}: {unit}" for unit, names in units.items())
    table = Table(title="further notions (nats" + (f"; {others}" if others else "") + ")", title_justify="left")
    columns: tuple[tuple[str, dict[str, Any]], ...] = (("notion", {}), ("value", {"justify": "right"}),
                                                       ("exact form", {"overflow": "fold"}), ("witness", {}))
    for col, kw in columns:
        table.add_column(col, **kw)
    for r in rows:
        enc = r.get("enclosure")
        form = (_common_digits(*enc) if enc else "") or (r.get("exact") or "")
        w = r.get("witness")
        table.add_row(r["name"], _num(r["value"]), form, "" if w is None else f"x={w['x']}, x'={w['x_prime']}")
    return table


def left_out_text(left: Sequence[dict]) -> Text:
    """The line naming the notions ``--notion all`` left out (:func:`~relations.io._reports.left_out_json`).

    Examples
    --------
    >>> print(left_out_text([{"name": "cmi", "reason": "no records"}]))
    left out: cmi (no records)
    """
    from rich.text import Text

    return Text("left out: " + "; ".join(f"{item['name']} ({item['reason']})" for item in left))


def _common_digits(lo: str, hi: str, most: int = 30) -> str:
    """The digits both ends of an enclosure share, with ``…`` (``""`` when they share too few)."""
    n = 0
    while n < min(len(lo), len(hi)) and lo[n] == hi[n]:
        n += 1
    return "" if n < 4 else (lo[:min(n, most)] + "…")


def _fmt(v: float) -> str:
    return ("inf" if v > 0 else "-inf") if math.isinf(v) else f"{v + 0.0:.12g}"  # + 0.0: no "-0"


#: Longest ``ln(q)`` of a float-derived mechanism shown as a fraction; a longer ``q`` shows as a decimal.
SHORT_RATIO = 24


def _exact(b: Budget, binary: bool = False) -> str:
    """The exact form; of a mechanism given in floats (``binary``), a long ``ln(q)`` shows ``q`` as a decimal
    (its leading digits, ``…``): the title says the values are those of the floats' binary values."""
    if b.exact is None:
        return "—"
    text = str(b.exact)
    ratio = b.exact.ratio
    if not binary or len(text) <= SHORT_RATIO or ratio is None or not b.exact.is_finite:
        return text
    return f"ln({_decimal(ratio, 16)}…)"


def _decimal(q: Fraction, digits: int) -> str:
    """``q > 0`` to ``digits`` significant digits, truncated (the ``…`` that follows says so)."""
    from decimal import ROUND_DOWN, Context, Decimal

    ctx = Context(prec=digits, rounding=ROUND_DOWN)
    return format(ctx.divide(Decimal(q.numerator), Decimal(q.denominator)), "f")



def _wit(mech: Mechanism, b: Budget) -> str:
    w = b.witness
    if w is None:
        return "no contributing pair"
    text = f"x={_short(mech.input_label(w.x))}, x'={_short(mech.input_label(w.x_prime))}"
    if w.y is not None:
        text += f", y={_short(mech.output_label(w.y))}"
    return text



_STYLE = {"holds": "green", "holds within rounding": "green", "fails": "bold red", "undecided": "yellow", "not applicable": "dim",
          "outside the proved scope": "magenta",
          "witness": "cyan", "not a witness": "dim"}



def _num(x, digits: int = 6) -> str:
    if x is None:
        return "—"
    from relations.numbers._reals import ArbExpr, Log

    v = float(x) if not isinstance(x, float) else x
    text = ("inf" if v > 0 else "-inf") if math.isinf(v) else f"{v:.{digits}g}"
    if isinstance(x, ArbExpr):  # a certified real: only the digits its enclosure certifies
        lo, hi = x.enclose(x.display_bits)
        if lo >= 0:
            text = certified_text(Fraction(lo), Fraction(hi), digits=max(digits, 6))
    if isinstance(x, Log) and x.log.is_finite and x.log.ratio != 1:
        exact = str(x.log)
        if len(exact) <= 20:
            text += f" = {exact}"
    return text



def check_tables(report: Report, width: int | None = None) -> list[Table | Text]:
    """Rich tables of ``relations check``: the applicable relations, a line for the rest, then claims.

    Relations are grouped by setting; a failing one shows the numbers that break it and its witness.

    Parameters
    ----------
    report : Report
        :func:`relations.check`'s result.
    width : int, optional
        The console's width.  Below :data:`NARROW` columns the relation tables have no
        ``witness / note`` column (a witness goes under the relation's id and claim, and a footer
        says where the notes are), so that ids and numbers are not broken mid-word.

    Returns
    -------
    list of rich.table.Table or rich.text.Text

    Examples
    --------
    >>> from relations import check
    >>> from relations.mechanisms import paper_example
    >>> [getattr(part, "title", None) for part in check_tables(check(paper_example()))]
    ['relations for the local setting', 'relations for both settings', None]
    """
    from rich.table import Table
    from rich.text import Text

    mech = report.values.mechanism
    narrow = width is not None and width < NARROW
    longest = max((len(o.relation.id) for o in report.outcomes), default=0)
    tables: list[Table | Text] = []
    skipped = []
    noted = False
    for setting in ("local", "central", "both"):
        rows = [o for o in report.outcomes if o.relation.setting == setting]
        skipped += [o.relation.id for o in rows if o.status == "not applicable"]
        rows = [o for o in rows if o.status != "not applicable"]
        if not rows:
            continue
        title = "relations for both settings" if setting == "both" else f"relations for the {setting} setting"
        t = Table(title=title, title_justify="left")
        if narrow:  # fixed widths for the short columns; the numbers take the rest
            t.add_column("id / claim", width=min(longest, 28), overflow="fold")
            t.add_column("status", width=13, overflow="fold")
            t.add_column("conclusion vs bound", overflow="fold")
            t.add_column("slack", width=10, overflow="fold")
        else:
            for col in ("id", "claim", "status", "conclusion vs bound", "slack", "witness / note"):
                t.add_column(col, overflow="fold")
        for o in rows:
            style = _STYLE.get(o.status, "")
            note = o.note
            if o.witness is not None:
                w = o.witness
                where = f"x={_short(mech.input_label(w.x))}, x'={_short(mech.input_label(w.x_prime))}"
                if w.y is not None:
                    where += f", y={_short(mech.output_label(w.y))}"
                note = f"{note}; attained at {where}" if o.status == "outside the proved scope" else where
            r = o.relation
            if o.bound is not None:
                op = {"holds": "<=", "fails": ">", "undecided": "?"}.get(o.status, "vs")
                numbers = f"{r.conclusion} {_num(o.conclusion)}\n{op} {_num(o.bound)}"
            else:
                numbers = f"{r.premise} {_num(o.premise)}\n{r.conclusion} {_num(o.conclusion)}"
            slack = "—" if o.slack is None else _num(o.slack)
            if narrow:
                first = Text(r.id + "\n" + r.symbols)
                if o.witness is not None:
                    first.append("\nwitness " + where, style="dim")
                noted = noted or bool(o.note)
                t.add_row(first, Text(o.status, style=style), numbers, slack)
            else:
                t.add_row(r.id, r.symbols, Text(o.status, style=style), numbers, slack, Text(safe(note, newlines=True)))
        tables.append(t)
    if noted:
        tables.append(Text(f"notes are left out below {NARROW} columns: see --format csv or --json, or a wider "
                           "terminal", style="dim"))
    if skipped:
        tables.append(Text(f"not applicable to this {mech.setting} mechanism: {', '.join(skipped)}", style="dim"))
    if report.composition:
        tables.append(composition_table(report))
    if report.claims:
        tables.append(claims_table(report))
    return tables


def composition_table(report: Report) -> Table:
    """The composition theorems of ``relations check`` on a repeated mechanism: each relation, the composed
    value against the bound made of one use's budgets, the slack, the status (decided exactly).

    Examples
    --------
    >>> from relations import check
    >>> from relations.mechanisms import randomized_response
    >>> t = composition_table(check(randomized_response(3).repeated(2)))
    >>> t.title, t.row_count
    ('composition theorems: 2 uses, bounds from one use', 6)
    """
    from rich.table import Table
    from rich.text import Text

    comp = report.uses
    assert comp is not None  # a composition's report
    t = Table(title=f"composition theorems: {comp.describe()}, bounds from one use", title_justify="left")
    for col in ("id", "claim", "status", "conclusion vs bound", "slack", "note"):
        t.add_column(col, overflow="fold")
    for o in report.composition:
        r = o.relation
        op = {"holds": "<=", "fails": ">", "undecided": "?"}.get(o.status, "vs")
        numbers = f"{r.conclusion} {_num(o.conclusion) if o.conclusion is not None else '—'}\n{op} {_num(o.bound)}"
        slack = "—" if o.slack is None else _num(o.slack)
        note = o.note
        if o.witness is not None:
            note = f"x={_short(comp.base.input_label(o.witness.x))}, x'={_short(comp.base.input_label(o.witness.x_prime))}"
        t.add_row(r.id, r.text().replace("[k uses]", f"[{comp.uses} uses]").replace("2 k ", f"{2 * comp.uses} ").replace(" k ", f" {comp.uses} "),
                  Text(o.status, style=_STYLE.get(o.status, "")), numbers, slack, Text(safe(note, newlines=True)))
    return t


def claims_table(report: Report) -> Table:
    """The claims of ``relations check``: each claim, its quantity's value, the bound, the slack, the status.

    The slack is ``bound - value`` for ``<=`` and ``<`` (``value - bound`` for ``>=`` and ``>``), in floats
    for reading; the status is decided exactly (:func:`relations.checking.decide`).

    Examples
    --------
    >>> from relations import check
    >>> from relations.mechanisms import paper_example
    >>> [c.header for c in claims_table(check(paper_example(), ["eps_d <= 1"])).columns]
    ['claim', 'value', 'bound', 'slack', 'status', 'note']
    """
    from rich.table import Table
    from rich.text import Text

    t = Table(title="claims", title_justify="left")
    for col in ("claim", "value", "bound", "slack"):
        t.add_column(col, justify="left" if col == "claim" else "right")
    for col in ("status", "note"):
        t.add_column(col)
    for c in report.claims:
        status = Text(str(c.status), _STYLE.get(str(c.status), "green"))
        value, bound = float(c.value), float(c.claim.bound)
        if math.isinf(value) or math.isinf(bound):
            slack = "—"
        else:
            slack = _num(bound - value if c.claim.op in ("<=", "<") else value - bound)
        t.add_row(safe(c.claim.text), _num(c.value, 12), _num(c.claim.bound, 12), slack, status, safe(c.note))
    return t



def catalogue_table(width: int | None = None) -> Table:
    """The relation catalogue as one rich table (``relations catalogue``), one row per relation, then one per
    composition theorem (setting ``k uses``).

    Parameters
    ----------
    width : int, optional
        The terminal's width: below :data:`NARROW` the table keeps the id, setting and claim (ids
        never split) and its caption points to ``--json`` for the statements and sources.

    Examples
    --------
    >>> from relations import CATALOGUE
    >>> from relations.catalogue._composition import COMPOSITION_RELATIONS
    >>> catalogue_table().row_count == len(CATALOGUE) + len(COMPOSITION_RELATIONS)
    True
    >>> [c.header for c in catalogue_table(width=80).columns]
    ['id', 'setting', 'claim']
    """
    from rich.table import Table
    from rich.text import Text

    from relations.catalogue._composition import COMPOSITION_RELATIONS
    from relations.catalogue._entries import CATALOGUE

    narrow = width is not None and width < NARROW
    t = Table(title="relation catalogue", title_justify="left", show_lines=not narrow,
              caption="statements, sources, corrections: relations catalogue --json (or a wider terminal)"
              if narrow else None)
    uses = "k uses"  # the setting column of the composition theorems (checked on 'repeat' and 'parts' files)
    if narrow:
        t.add_column("id", no_wrap=True)
        t.add_column("setting", no_wrap=True)
        t.add_column("claim", overflow="fold")
        for r in CATALOGUE:
            t.add_row(r.id, r.setting, r.symbols)
        t.add_section()
        for c in COMPOSITION_RELATIONS:
            t.add_row(c.id, uses, c.text())
        return t
    for col in ("id", "setting", "claim", "statement", "source"):
        t.add_column(col, overflow="fold")
    for r in CATALOGUE:
        statement = Text(r.statement)  # text, not markup (the tool's consoles interpret none)
        if r.corrects:
            statement.append(f"\ncorrects {r.corrects}: {r.reason}", style="dim")
        t.add_row(r.id, r.setting, r.symbols, statement, r.source)
    for c in COMPOSITION_RELATIONS:
        statement = Text(c.statement)
        statement.append("\na composition theorem: relations check on a 'repeat' or 'parts' file", style="dim")
        t.add_row(c.id, uses, c.text(), statement, c.source)
    return t



_VERDICT_STYLE = {"proved": "bold green", "holds-bounded": "green", "unrefuted": "yellow", "refuted": "bold red"}



def verdicts_table(verdicts: Sequence[RelationVerdict], width: int | None = None, folder: str | None = None, *,
                   wide: bool = True) -> Table:
    """The table of ``relations verify``: id, statement, verdict, evidence, tightness (best found, and the frontier where known).

    Parameters
    ----------
    verdicts : sequence of RelationVerdict
    width : int, optional
        The terminal's width: below :data:`NARROW` the statement goes under the id (never split),
        and the tightness after the evidence.
    folder : str, optional
        The evidence folder: the files of the evidence, which the verdicts name relative to it, are shown
        under it.
    wide : bool, optional
        True (the default, ``verify --wide``): the full table above.  False (``verify``'s default): the
        compact table of :data:`VERIFY_WIDTH` columns, with the statement under the id, the verdict and a
        short evidence (:func:`short_evidence`: how it was decided, and its files, relative to ``folder``,
        when it is given).

    Returns
    -------
    rich.table.Table

    Examples
    --------
    >>> from types import SimpleNamespace as V
    >>> from relations.catalogue import get
    >>> v = V(relation=get("zheng2025.thm4"), verdict="refuted", witness_file="witnesses/zheng2025.thm4.json",
    ...       proof_file=None, family_file=None, searched=[], coq=None,
    ...       evidence="counterexample found by z3 bounded search (local 2x2), re-checked exactly")
    >>> [c.header for c in verdicts_table([v], wide=False).columns]
    ['id / statement', 'verdict', 'evidence']
    """
    from rich.table import Table
    from rich.text import Text

    if not wide:
        return _compact_verdicts_table(verdicts, files=folder is not None)
    narrow = width is not None and width < NARROW
    t = Table(title="relations verify", title_justify="left", show_lines=narrow)
    cols = ("id", "verdict", "evidence") if narrow else ("id", "statement", "verdict", "evidence", "tightness")
    for col in cols:
        t.add_column(col, overflow="fold", no_wrap=col in ("id", "verdict") and narrow)
    import posixpath

    def where(path: str) -> str:
        return path if folder is None else posixpath.join(folder.replace(os.sep, "/"), path)

    for v in verdicts:
        evidence = v.evidence
        if v.witness_file:
            evidence += f"\nwitness: {where(v.witness_file)}"
        full_file = getattr(v, "full_witness_file", None)
        if full_file:
            evidence += f"\nfull-support witness: {where(full_file)}"
        if v.proof_file and v.verdict == "proved":
            evidence += f"\nlemma: {where(v.proof_file)}"
        if v.verdict == "unrefuted" and v.searched:
            evidence += f"\nsearched: {len(v.searched)} searches (see --json)"
        if v.family_file:
            evidence += f"\nfamily: {where(v.family_file)}"
        if v.coq and v.coq not in evidence:
            evidence += f"\nCoq: {v.coq}"
        tight = "—" if v.tightness is None else f"best found {v.tightness:.4g}" + (
            f" ({v.tightness_family})" if v.tightness_family else "")
        if v.frontier is not None:
            tight += "\n" + v.frontier.summary()
        elif v.tightness is not None:
            tight += "\nfrontier not known"
        verdict = Text(v.verdict, style=_VERDICT_STYLE.get(v.verdict, ""))
        if narrow:
            ident = Text(v.relation.id)
            ident.append("\n" + "\n".join(_chunks(v.relation.symbols, 24)), style="dim")
            t.add_row(ident, verdict, Text(evidence + "\ntightness: " + tight))
        else:
            t.add_row(v.relation.id, v.relation.symbols, verdict, Text(evidence), tight)
    return t


def _compact_verdicts_table(verdicts: Sequence[RelationVerdict], *, files: bool) -> Table:
    """``verify``'s default table: id with the statement under it, verdict, short evidence (with its files,
    relative to the evidence folder, when ``files``)."""
    from rich.table import Table
    from rich.text import Text

    t = Table(title="relations verify (--wide: statements, full evidence, tightness)", title_justify="left")
    t.add_column("id / statement", no_wrap=True, max_width=36)
    t.add_column("verdict", no_wrap=True)
    t.add_column("evidence", overflow="fold")
    for v in verdicts:
        ident = Text(v.relation.id)
        ident.append("\n" + "\n".join(_chunks(v.relation.symbols, 34)), style="dim")
        t.add_row(ident, Text(v.verdict, style=_VERDICT_STYLE.get(v.verdict, "")), Text(short_evidence(v) if files else short_evidence(v).split("\n")[0]))
    return t


def short_evidence(v) -> str:
    """How a verdict was decided, in a few words, and its file relative to the evidence folder.

    The full text is the verdict's ``evidence`` (``verify --wide``, ``--json``, ``verdicts.json``).

    Examples
    --------
    >>> from types import SimpleNamespace as V
    >>> print(short_evidence(V(verdict="proved", proof_file="lemmas/a.smt2", witness_file=None, family_file=None,
    ...     searched=[], coq=None, relation=V(id="a"), evidence="z3 proved the ID->DP per-triple lemma for a "
    ...     "(negation unsat); proved for every D^r")))
    z3: ID->DP per-triple lemma
    lemmas/a.smt2
    >>> print(short_evidence(V(verdict="unrefuted", proof_file=None, witness_file=None, family_file=None,
    ...     searched=["x", "y"], coq=None, relation=V(id="b"), evidence="no counterexample found in the searches listed")))
    no counterexample in 2 searches
    """
    import re

    text = re.sub(r" \([^()]*(\([^()]*\)[^()]*)*\)", "", v.evidence).split("; ")[0]  # no parentheses
    if v.verdict == "unrefuted":
        text = f"no counterexample in {len(v.searched)} search{'es' if len(v.searched) != 1 else ''}"
        if "Coq proof" in v.evidence:
            text += "; Coq proof not checked"
    elif text.startswith("z3 proved the "):
        text = "z3: " + text[len("z3 proved the "):].split(f" for {v.relation.id}")[0]
    elif text.startswith("z3: follows"):
        text = "z3: derived from lemma-proved relations"
    elif text.startswith("z3: no counterexample among all mechanisms of sizes"):
        text = "z3: no counterexample among all mechanisms of " + text.split(" sizes ", 1)[1]
    elif text.startswith("erasure family"):
        text = "erasure family, every eps_m > 0, checked by sympy"
    else:  # a counterexample's engine, a Coq theorem, ...: the first clause
        text = text.replace("counterexample found by", "counterexample by").split(", re-checked")[0]
    if v.verdict == "refuted":
        text += ", re-checked exactly"
        if getattr(v, "degenerate", ()):
            text += ("; an edge case, with one of full support" if getattr(v, "full_witness", None) is not None
                     else "; an edge case")
    files = [f for f in (v.witness_file, getattr(v, "full_witness_file", None),
                         v.proof_file if v.verdict == "proved" else None, v.family_file) if f]
    return "\n".join([text, *files])


def _chunks(text: str, size: int) -> list[str]:
    """``text`` in lines of at most ``size`` characters, broken at spaces where it can be."""
    import textwrap

    return textwrap.wrap(text, size) or [""]


def tally(verdicts, *, conjectures: Sequence[dict] = (), folder: str | None = None) -> str:
    """One line counting the verdicts, in the order of :class:`~relations.kinds.Verdict`, and naming the evidence.

    Parameters
    ----------
    verdicts : sequence of RelationVerdict
        The catalogue's verdicts (anything with a ``verdict``).
    conjectures : sequence of dict, optional
        The user's conjectures as written to ``conjectures.json`` (each with a ``"verdict"``), counted after them.
    folder : str, optional
        The evidence folder, named at the end.

    Examples
    --------
    >>> from types import SimpleNamespace as V
    >>> tally([V(verdict="proved"), V(verdict="refuted"), V(verdict="proved")])
    '3 relations: 2 proved, 1 refuted'
    >>> tally([], conjectures=[{"verdict": "refuted"}], folder="my-evidence")
    '1 conjecture: 1 refuted; evidence in my-evidence'
    """
    from collections import Counter

    from relations.kinds import Verdict

    def counted(found: list[str], noun: str) -> str:
        counts = Counter(found)
        parts = [f"{counts[str(k)]} {k}" for k in Verdict if counts[str(k)]]
        parts += [f"{n} {name}" for name, n in counts.items() if name not in {str(k) for k in Verdict}]
        return f"{len(found)} {noun}{'s' if len(found) != 1 else ''}: " + (", ".join(parts) or "none")

    lines = [counted([str(v.verdict) for v in verdicts], "relation")] if verdicts or not conjectures else []
    if conjectures:
        lines.append(counted([str(r["verdict"]) for r in conjectures], "conjecture"))
    if folder is not None:
        lines.append(f"evidence in {folder}")
    return "; ".join(lines)


def conjectures_table(rows):
    """A rich table of the user's conjectures: id, statement, setting, verdict, evidence."""
    from rich.table import Table

    table = Table(title="your conjectures")
    for col in ("id", "statement", "setting", "verdict", "evidence"):
        table.add_column(col, overflow="fold")
    for r in rows:
        table.add_row(safe(r["id"]), safe(r["statement"]), r["setting"], r["verdict"], safe(r["evidence"], newlines=True))
    return table
