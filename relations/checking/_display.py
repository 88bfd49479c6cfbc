"""Check reports in Jupyter and in pandas: what :class:`~relations.checking.Report` shows.

:class:`ReportDisplay` (a mixin of :class:`~relations.checking.Report`) gives

* ``str()`` -- ``relations check``'s tables as plain text (:func:`relations.io._text.report_text`),
  ``repr()`` -- one line: the mechanism, the count of each status, the claims';
* ``_repr_html_`` -- the measures table (:mod:`relations.measures._display`), then one row per
  claim and per relation (id, statement, status, conclusion, bound, slack, witness), every
  cell escaped;
* ``_repr_latex_`` -- the measures as LaTeX lines and a count of the statuses;
* :meth:`~ReportDisplay.to_dict` -- the object ``relations check --json`` prints
  (:func:`~relations.checking._encoding.check_json`), JSON-ready;
* :meth:`~ReportDisplay.to_pandas` -- the rows as a ``DataFrame`` with the columns
  :data:`COLUMNS`.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from relations.checking._encoding import check_json
from relations.measures._display import measures_html, measures_latex, witness_text
from relations.model._display import html_table, latex_text, one_line, pandas, text_view

__all__ = ["COLUMNS", "report_rows", "ReportDisplay"]

#: The columns of :func:`report_rows` and of ``Report.to_pandas()``.
COLUMNS = ("kind", "id", "statement", "status", "conclusion", "bound", "slack", "slack_exact", "witness", "note")


def _text(x: Any) -> str | None:
    return None if x is None else str(x)


def _float(x: Any) -> float | None:
    if x is None:
        return None
    try:
        return float(x)
    except (TypeError, ValueError):  # pragma: no cover - every Real converts
        return None


def report_rows(report: Any) -> list[dict[str, Any]]:
    """One dict per claim (``kind = "claim"``) and per relation (``kind = "relation"``).

    ``conclusion`` and ``bound`` are exact text (``ln(247/7)``, ``I(X;Y)``) where known,
    ``slack`` a float and ``slack_exact`` its exact form; ``witness`` is in the mechanism's
    labels.

    Examples
    --------
    >>> from relations import check
    >>> from relations.mechanisms import paper_example
    >>> rows = report_rows(check(paper_example(), ["eps_d <= ln(2)"]))
    >>> rows[0]["kind"], rows[0]["status"], rows[0]["conclusion"]
    ('claim', 'holds', 'ln(13/7)')
    >>> row = next(r for r in rows if r["id"] == "zheng2025.thm4")
    >>> row["status"], row["bound"], row["slack_exact"], row["witness"]
    ('fails', 'ln(13/133)', 'ln(1/361)', "x=1, x'=2, y=1")
    """
    mech = report.values.mechanism
    rows = [{"kind": "claim", "id": "", "statement": c.claim.text, "status": str(c.status),
             "conclusion": _text(c.value), "bound": _text(c.claim.bound), "slack": None, "slack_exact": None,
             "witness": "", "note": c.note} for c in report.claims]
    for o in report.outcomes:
        rows.append({"kind": "relation", "id": o.relation.id, "statement": o.relation.symbols, "status": str(o.status),
                     "conclusion": _text(o.conclusion), "bound": _text(o.bound), "slack": _float(o.slack),
                     "slack_exact": o.slack_exact, "witness": witness_text(mech, o.witness), "note": o.note})
    for c in getattr(report, "composition", ()):
        rows.append({"kind": "composition", "id": c.relation.id, "statement": c.relation.text(), "status": str(c.status),
                     "conclusion": _text(c.conclusion), "bound": _text(c.bound), "slack": _float(c.slack),
                     "slack_exact": None, "witness": witness_text(mech, c.witness), "note": c.note})
    return rows


def _counts(statuses: Any) -> str:
    counts = Counter(str(s) for s in statuses)
    return ", ".join(f"{n} {status}" for status, n in counts.most_common()) or "none"


class ReportDisplay:
    """Jupyter display, text and conversions of a :class:`~relations.checking.Report` (a mixin).

    Examples
    --------
    >>> from relations import check
    >>> from relations.mechanisms import paper_example
    >>> report = check(paper_example(), ["eps_d <= ln(2)"])
    >>> repr(report)  # doctest: +ELLIPSIS
    'Report(relations: 32 holds, 11 not applicable, 2 not a witness, 1 fails, claims: 1 holds)'
    >>> print(report)  # doctest: +ELLIPSIS
    mechanism — local, 2 inputs x 2 outputs, all pairs; mode exact
    ...
    │ eps_d     │   0.619039208406… │ ln(13/7) ...
    ...
    claims
    ...
    """

    def __str__(self) -> str:
        """The measures and, with claims, the claims first (bound and slack) and a line for the catalogue;
        without claims, ``relations check``'s tables (:func:`relations.io._text.report_text`), 100 columns."""
        return self.text()

    def text(self, *, catalogue: bool | None = None) -> str:
        """The report as plain text; ``catalogue=True`` adds every catalogue relation's outcome (the default
        when there are no claims), ``False`` leaves them to one line.

        Examples
        --------
        >>> from relations import check
        >>> from relations.mechanisms import paper_example
        >>> report = check(paper_example(), ["eps_d <= 1"])
        >>> "zheng2025.thm4" in report.text(), "zheng2025.thm4" in report.text(catalogue=True)
        (False, True)
        """
        return text_view(self, "relations.io._text:report_text", catalogue=catalogue)

    def __repr__(self) -> str:
        """One line: the mechanism, how many relations have each status, and the claims'."""
        report: Any = self
        mech = report.values.mechanism
        fields = [("mechanism", repr(mech.source))] if mech.source else []
        fields.append(("relations", ": " + _counts(o.status for o in report.outcomes)))
        if report.claims:
            fields.append(("claims", ": " + _counts(c.status for c in report.claims)))
        if report.composition:
            fields.append(("composition theorems", ": " + _counts(c.status for c in report.composition)))
        return one_line("Report", fields).replace("=: ", ": ")

    def _repr_html_(self) -> str:
        report: Any = self
        shown = ("id", "statement", "status", "conclusion", "bound", "slack", "witness")

        def cell(row: dict[str, Any], key: str) -> Any:
            v = row[key]
            if key == "slack" and v is not None:
                return f"{v:.6g}" if math.isfinite(v) else str(v)
            return "" if v is None else v

        rows = [[cell(r, k) for k in shown] for r in report_rows(report)]
        return measures_html(report.values.measures) + html_table(shown, rows, caption="claims and relations")

    def _repr_latex_(self) -> str:
        report: Any = self
        counts = Counter(str(o.status) for o in report.outcomes)
        counts.update(f"claim {c.status}" for c in report.claims)
        summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        return measures_latex(report.values.measures) + r" $\quad " + latex_text(summary) + "$"

    def to_dict(self) -> dict[str, Any]:
        """The object ``relations check --json`` prints: ``measures``, ``relations``, ``claims``, ``mode``.

        Examples
        --------
        >>> import json
        >>> from relations import check
        >>> from relations.mechanisms import paper_example
        >>> d = check(paper_example(), ["eps_d <= ln(2)"]).to_dict()
        >>> d["claims"][0]["value"]["exact"], json.loads(json.dumps(d))["mode"]
        ('ln(13/7)', 'exact')
        """
        return check_json(self)

    def to_pandas(self) -> Any:
        """The claims and relations as a ``pandas.DataFrame`` (columns :data:`COLUMNS`).

        Examples
        --------
        >>> from relations import check
        >>> from relations.mechanisms import paper_example
        >>> df = check(paper_example()).to_pandas()
        >>> df.set_index("id").loc["zheng2025.thm4", "status"]
        'fails'
        """
        return pandas().DataFrame(report_rows(self), columns=list(COLUMNS))
