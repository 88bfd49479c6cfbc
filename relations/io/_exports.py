"""Exports for a paper: the JSON objects of ``measure``, ``check`` and ``verify`` as LaTeX or CSV.

``relations measure|check|verify --format latex|csv`` print what these functions make of the
very objects ``--json`` prints (:mod:`relations.io._reports`); nothing is recomputed here.

* LaTeX: booktabs tables (``\\toprule``, ``\\midrule``, ``\\bottomrule``; the document needs
  ``\\usepackage{booktabs,amsmath}``), the notions in math mode (``$\\varepsilon_d$``), exact
  values as LaTeX (``ln(13/7)`` is ``$\\ln\\frac{13}{7}$``), floats to 6 significant digits,
  text escaped, and a first comment line naming the tool's version and the input.
* CSV: RFC 4180 (the :mod:`csv` module, ``\\r\\n`` line ends), a header row and one row per
  quantity, relation or claim, or verdict; floats as their shortest round-trip ``repr``.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from typing import Any

from relations.notions import view

__all__ = ["FORMATS", "KINDS", "CHECK_TABLES", "LONG_TABLE_ROWS", "PACKAGES", "LATEX_ENVS", "latex_env", "breakable_id", "latex_escape", "latex_math", "latex_number", "to_latex", "to_csv", "export"]

#: The values of ``--format`` (``json`` is also ``--json``; ``table`` is the rich table).
FORMATS = ("table", "json", "latex", "csv")
#: The commands whose JSON objects can be exported.
KINDS = ("measure", "check", "verify")

#: The tables of ``relations check --format latex``, in the order printed (``--table``).
CHECK_TABLES = ("budgets", "relations", "composition", "claims")

_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "#": r"\#", "$": r"\$", "{": r"\{", "}": r"\}",
            "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}",
            ">": r"\textgreater{}", "|": r"\textbar{}", "\u2014": "---", "\u2013": "--", "\u2026": r"\ldots{}",
            "\u2264": r"$\le$", "\u2265": r"$\ge$", "\u221e": r"$\infty$", "\u2212": "-", "\u00d7": r"$\times$"}
_NAMES = {"diam": r"\operatorname{diam}", "inf": r"\infty"}
#: The notions' LaTeX by name, and by symbol where the symbol is a plain word (``KL``, ``TV``), from the table.
_NOTION_NAMES = view(value=lambda row: row.latex)
_NOTION_SYMBOLS = view(lambda row: row.symbol.isascii() and row.symbol.isalpha(), value=lambda row: row.latex,
                       key=lambda row: row.symbol)
_FUNCTIONS = {"ln", "log", "exp", "tanh", "max", "min"}
_OPS = {"<=": r"\le", ">=": r"\ge", "=/=>": r"\;\not\Rightarrow\;", "*": r"\cdot"}
_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d+)?(?:e[-+]?\d+)?)|(?P<name>[A-Za-z_][A-Za-z_0-9]*)"
                    r"|(?P<op>=/=>|<=|>=|[-+*/^(),;<>=\[\]]))")
_CLOSED = re.compile(r"-?(?:ln\(\d+(?:/\d+)?\)|\d+(?:/\d+)?|inf)")


def latex_escape(text: Any) -> str:
    """Text for LaTeX's text mode: ``\\ & % # $ { } ~ ^ _ < > |`` (and a few Unicode symbols) escaped.

    Examples
    --------
    >>> print(latex_escape("relations.thm4_corrected: 50% & {x} ~ 2^3 #1 $5 a\\\\b"))
    relations.thm4\\_corrected: 50\\% \\& \\{x\\} \\textasciitilde{} 2\\textasciicircum{}3 \\#1 \\$5 a\\textbackslash{}b
    """
    return "".join(_ESCAPES.get(ch, ch) for ch in str(text))


def _tokens(text: str) -> list[tuple[str, str]] | None:
    out, pos, text = [], 0, text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            return None
        kind = m.lastgroup or ""
        spaced = kind == "op" and m.group(kind) == "(" and m.start(kind) > pos  # 'eps_d (...)' is no call
        out.append(("open" if spaced else kind, m.group(kind)))
        pos = m.end()
    return out


def _name(word: str) -> str:
    return (_NOTION_NAMES.get(word) or _NAMES.get(word) or _NOTION_SYMBOLS.get(word)
            or (word if len(word) == 1 else r"\mathrm{" + latex_escape(word) + "}"))


def _call(word: str, inner: list[tuple[str, str]]) -> str:
    inner = _fracs(inner)
    body = _render(inner)
    if word == "sqrt":
        return r"\sqrt{" + body + "}"
    if word == "ln" and len(inner) == 1 and inner[0][0] in ("num", "frac"):
        return r"\ln" + ("" if inner[0][0] == "frac" else " ") + inner[0][1]
    head = "\\" + word if word in _FUNCTIONS else _name(word)
    return head + "(" + body + ")"


def _atoms(tokens: list[tuple[str, str]], pos: int = 0) -> tuple[list[tuple[str, str]], int]:
    """Atoms ``(kind, latex)`` up to the matching ``)``: calls and groups are one atom each."""
    atoms: list[tuple[str, str]] = []
    while pos < len(tokens):
        kind, text = tokens[pos]
        if text == ")":
            return atoms, pos
        if kind == "name" and pos + 1 < len(tokens) and tokens[pos + 1] == ("op", "("):
            inner, pos = _atoms(tokens, pos + 2)
            if pos >= len(tokens):
                raise ValueError("unbalanced")
            atoms.append(("call", _call(text, inner)))
        elif text == "(":
            inner, pos = _atoms(tokens, pos + 1)
            if pos >= len(tokens):
                raise ValueError("unbalanced")
            atoms.append(("group", _render(inner)))
        elif kind == "name":
            atoms.append(("name", _name(text)))
        elif kind == "num" and "e" in text:  # 1e-3: 1 \times 10^{-3}
            mantissa, exponent = text.split("e")
            atoms.append(("sci",
                          (f"{mantissa} \\times " if mantissa != "1" else "") + f"10^{{{int(exponent)}}}"))
        elif kind == "num":
            atoms.append(("num", text))
        else:
            atoms.append(("op", _OPS.get(text, text)))
        pos += 1
    return atoms, pos


def _fracs(atoms: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``integer / integer`` (not an exponent, not part of a chain of divisions) as one ``\\frac`` atom."""
    atoms = list(atoms)
    i = 0
    while i + 2 < len(atoms):  # integer / integer (not an exponent, not a chain): \frac
        (k1, a), (_, op), (k2, b) = atoms[i:i + 3]
        before = atoms[i - 1][1] if i else ""
        after = atoms[i + 3][1] if i + 3 < len(atoms) else ""
        if k1 == k2 == "num" and op == "/" and "." not in a + b and before not in ("^", "/") and after != "^":
            atoms[i:i + 3] = [("frac", r"\frac{" + a + "}{" + b + "}")]
        i += 1
    return atoms


def _render(atoms: list[tuple[str, str]]) -> str:
    atoms = _fracs(atoms)
    parts: list[str] = []
    i = 0
    while i < len(atoms):
        kind, text = atoms[i]
        if text == "^" and parts and i + 1 < len(atoms):
            parts[-1] += "^{" + atoms[i + 1][1] + "}"
            i += 2
            continue
        parts.append("(" + text + ")" if kind == "group" else text)
        i += 1
    return " ".join(parts)


def latex_math(text: Any) -> str:
    """A formula of the tool's output (a notion, a relation, an exact value) as LaTeX math, without ``$``.

    Anything it cannot read is set as escaped text (``\\text{...}``), so the result always compiles.

    Examples
    --------
    >>> print(latex_math("ln(13/7)"))
    \\ln\\frac{13}{7}
    >>> print(latex_math("eps_i <= eps_d - sigma_min"))
    \\varepsilon_i \\le \\varepsilon_d - \\sigma_{\\min}
    >>> print(latex_math("rho <= eps_d^2/2"))
    \\rho \\le \\varepsilon_d^{2} / 2
    >>> print(latex_math("eps_delta(1/100000) <= rho + 2 sqrt(rho ln(100000))"))
    \\varepsilon_{\\delta}(\\frac{1}{100000}) \\le \\rho + 2 \\sqrt{\\rho \\ln 100000}
    >>> print(latex_math("-inf"))
    - \\infty
    """
    tokens = _tokens(str(text))
    try:
        atoms, end = _atoms(tokens) if tokens else ([], 0)
        if tokens is None or end != len(tokens) or not tokens:
            raise ValueError("not a formula")
        return _render(atoms)
    except ValueError:
        return r"\text{" + latex_escape(text) + "}"


def _prose_math(text: str) -> str:
    """A formula with words in it (``sum of renyi(2) over the uses + ln(100000)``): the words in text mode, each
    run of formula between them in math mode.

    Examples
    --------
    >>> print(_prose_math("sum of renyi(2) over the uses + ln(100000)"))
    sum of $\\varepsilon_{\\mathrm{RDP}}(2)$ over the uses $+ \\ln 100000$
    """
    pieces: list[tuple[bool, list[str]]] = []
    for word in text.split():
        prose = word.isalpha() and len(word) > 1 and word not in _FUNCTIONS and word not in ("sqrt", "inf") \
            and word not in _NOTION_NAMES and word not in _NOTION_SYMBOLS
        if pieces and pieces[-1][0] == prose:
            pieces[-1][1].append(word)
        else:
            pieces.append((prose, [word]))
    return " ".join(latex_escape(" ".join(words)) if prose else "$" + latex_math(" ".join(words)) + "$"
                    for prose, words in pieces)


def _theorem_cell(item: dict[str, Any]) -> str:
    """A composition theorem's cell: its id, then ``CONCLUSION of k uses <= BOUND`` (the bound's words as text)."""
    conclusion, _, bound = item["symbols"].partition("[k uses] <= ")
    statement = (f"${latex_math(conclusion)}$ of $k$ uses $\\le$ {_prose_math(bound)}" if bound
                 else _prose_math(item["symbols"]))
    return r"{\footnotesize" + breakable_id(item["id"]) + r"}\newline " + statement


def latex_number(value: Any, digits: int = 6) -> str:
    """A JSON number (or ``"inf"`` / ``"-inf"``) in math mode with ``digits`` significant digits; ``--`` for None.

    Examples
    --------
    >>> latex_number(0.6190392084062234), latex_number(-1e-5), latex_number("inf"), latex_number(None)
    ('$0.619039$', '$-1 \\\\times 10^{-5}$', '$\\\\infty$', '--')
    """
    if value is None:
        return "--"
    if isinstance(value, str):
        return "$" + latex_math(value) .replace("- ", "-") + "$"
    text = f"{float(value):.{digits}g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa} \\times 10^{{{int(exponent)}}}"
    return f"${text}$"


def _certified(enclosure: list[str] | None) -> str | None:
    """The digits two outward-rounded decimals share (every number between them starts so), then dots."""
    if not enclosure:
        return None
    lo, hi = enclosure
    n = 0
    while n < min(len(lo), len(hi)) and lo[n] == hi[n]:
        n += 1
    shared = lo[:n]
    if lo == hi:
        return f"${lo}$"
    if "." not in shared or shared.endswith(".") or len(lo.split(".")[0]) != len(hi.split(".")[0]):
        return None
    whole, point, digits = shared.partition(".")
    return f"${whole}{point}{digits[:10]}\\ldots$"  # a prefix of certified digits is certified


def _exact_cell(item: dict[str, Any] | None) -> str:
    """An exact closed form (``ln(q)``, a rational, an infinity) in math mode, else the value to 6 digits."""
    if item is None:
        return "--"
    exact = item.get("exact")
    if isinstance(exact, str) and _CLOSED.fullmatch(exact):
        return "$" + latex_math(exact).replace("- ", "-") + "$"
    return _certified(item.get("enclosure")) or latex_number(item.get("value"))


def _witness(w: dict[str, Any] | None) -> str:
    if not w:
        return ""
    text = f"x={w['x']}, x'={w['x_prime']}"
    return text + (f", y={w['y']}" if "y" in w else "")


def _witness_math(w: dict[str, Any] | None) -> str:
    """A witness, each coordinate in math mode and its label as text, breakable at the commas:
    ``$x = \\text{1}$, $x' = \\text{2}$`` (``--`` for none)."""
    if not w:
        return "--"
    names, labels = ["x", "x'"], [w["x"], w["x_prime"]]
    if "y" in w:
        names, labels = [*names, "y"], [*labels, w["y"]]
    return ", ".join(f"${n} = \\text{{{_label(v)}}}$" for n, v in zip(names, labels))


def _label(label: Any, most: int = 14) -> str:
    """An input or output label for a table cell: escaped, and elided in the middle beyond ``most`` characters
    (a dataset of 19 records is a 39-character tuple; the JSON and the evidence keep it whole)."""
    text = str(label)
    if len(text) <= most:
        return latex_escape(text)
    return latex_escape(text[:most - 5]) + r"\ldots{}" + latex_escape(text[-4:])


#: The columns of the budgets' table: the witness wraps.
_BUDGETS = r"@{}llr>{\raggedright\arraybackslash}p{0.34\linewidth}@{}"

#: Above this many rows a table is a ``longtable`` (it breaks across pages, its header repeated).
LONG_TABLE_ROWS = 20

#: The one comment line naming the packages the tables need.
PACKAGES = r"% needs \usepackage{booktabs,longtable,amsmath} (and \usepackage{array} for the p columns)"

#: The environments of ``--latex-env``: ``auto`` (a ``tabular``, a ``longtable`` above :data:`LONG_TABLE_ROWS`
#: rows: one-column documents), ``tabular`` (always, to place yourself; a long one is taller than a page),
#: ``table*`` (floats across both columns of a two-column paper, or the text width of a one-column one, one per
#: :data:`LONG_TABLE_ROWS` rows, the header repeated) and ``longtable`` (always; breaks across pages, one-column
#: documents only: LaTeX refuses it in two-column mode).
LATEX_ENVS = ("auto", "tabular", "table*", "longtable")


def latex_env(text: str) -> str:
    """``--latex-env``: one of :data:`LATEX_ENVS` (case-insensitive).

    Raises
    ------
    ValueError
        Any other name.

    Examples
    --------
    >>> latex_env("TABLE*")
    'table*'
    """
    name = str(text).strip().lower()
    if name not in LATEX_ENVS:
        raise ValueError(f"--latex-env: {text!r} is not one of {', '.join(LATEX_ENVS)}")
    return name


def breakable_id(text: str) -> str:
    """A catalogue id in typewriter type that may break after its dots and underscores (no hyphen added).

    Examples
    --------
    >>> print(breakable_id("relations.thm2_corrected"))
    \\texttt{relations.\\allowbreak{}thm2\\_\\allowbreak{}corrected}
    """
    escaped = latex_escape(text).replace(".", ".\\allowbreak{}").replace("\\_", "\\_\\allowbreak{}")
    return r"\texttt{" + escaped + "}"


def _tabular(spec: str, header: list[str], rows: list[list[str]], env: str = "auto") -> list[str]:
    """A booktabs table in ``env`` (:data:`LATEX_ENVS`): ``tabular``, ``longtable`` (header repeated on each page),
    or ``table*`` floats of at most :data:`LONG_TABLE_ROWS` rows each (header repeated)."""
    head = " & ".join(header) + r" \\"
    body = [" & ".join(row) + r" \\" for row in rows]
    if env == "longtable" or (env == "auto" and len(rows) > LONG_TABLE_ROWS):
        lines = [f"\\begin{{longtable}}{{{spec}}}", r"\toprule", head, r"\midrule", r"\endfirsthead", r"\toprule", head,
                 r"\midrule", r"\endhead", r"\bottomrule", r"\endlastfoot"]
        return lines + body + [r"\end{longtable}"]

    def tabular(chunk: list[str]) -> list[str]:
        return [f"\\begin{{tabular}}{{{spec}}}", r"\toprule", head, r"\midrule", *chunk, r"\bottomrule",
                r"\end{tabular}"]

    if env == "table*":
        out: list[str] = []
        chunks = [body[i:i + LONG_TABLE_ROWS] for i in range(0, len(body), LONG_TABLE_ROWS)] or [[]]
        for i, chunk in enumerate(chunks):
            note = [f"% part {i + 1} of {len(chunks)}"] if len(chunks) > 1 else []
            out += [*note, f"\\begin{{{env}}}[tbp]", r"\centering", r"\footnotesize", *tabular(chunk),
                    f"\\end{{{env}}}"]
        return out
    return tabular(body)


#: Longest exact form set in a table cell (characters of its text); a longer one is given in a comment below.
LONGEST_CELL = 36


def _budgets_table(obj: dict[str, Any], env: str = "auto") -> list[str]:
    """The budgets' table (and ``--notion`` rows); exact forms too long for a cell follow it as comment lines."""
    rows, long = [], []

    def fitted(name: str, item: dict[str, Any], cell: str) -> str:
        exact = item.get("exact")
        if isinstance(exact, str) and len(exact) > LONGEST_CELL:
            long.append(f"% {name} = {exact}")
            return "(below)"
        return cell

    for name in ("eps_i", "eps_d", "eps_m", "sigma_min"):
        item = obj[name]
        exact = fitted(name, item, _exact_cell(item)) if name != "eps_m" else (
            _certified(item.get("enclosure")) or "--")
        witness = "$I(X;Y)$" if name == "eps_m" else _witness_math(item.get("witness"))
        rows.append([f"${latex_math(name)}$", exact, latex_number(item["value"]), witness])
    for item in obj.get("notions", []):  # measure --notion
        cell = _certified(item["enclosure"]) if item.get("enclosure") else fitted(item["name"], item, _exact_cell(item))
        rows.append([f"${latex_math(item['name'])}$", cell or "--", latex_number(item["value"]),
                     _witness_math(item.get("witness"))])
    table = _tabular(_BUDGETS, ["quantity", "exact", "value", "witness"], rows, env)
    return table + ([r"% exact forms too long for the table, marked (below):", *long] if long else [])


def _version() -> str:
    from relations import __version__

    return __version__


def to_latex(kind: str, obj: Any, *, source: str | None = None, command: str | None = None,
             tables: Sequence[str] | None = None, env: str = "auto") -> str:
    """The JSON object of ``relations KIND --json`` as booktabs LaTeX tables, ready to paste.

    Each table is a ``tabular``, or a ``longtable`` when it has more than :data:`LONG_TABLE_ROWS` rows;
    notions, statements and witnesses are in math mode; the wide tables use ``p`` columns in fractions of
    ``\\linewidth``, so they fit a one-column article.  The first lines are comments: the command that
    produced the tables, and the packages they need (:data:`PACKAGES`).

    Parameters
    ----------
    kind : {"measure", "check", "verify"}
    obj : dict
        What ``--json`` prints for that command (:func:`~relations.io._reports.measures_json`,
        :func:`~relations.checking._encoding.check_json`, or verify's ``{"relations": [...], ...}``).
    source : str, optional
        The input file, named in the first comment line (when ``command`` is not given).
    command : str, optional
        The full command line, for the first comment line.
    tables : sequence of str, optional
        For ``check``: which of :data:`CHECK_TABLES` to print (default all of them).
    env : str, optional
        One of :data:`LATEX_ENVS`: ``auto`` (``tabular``, or ``longtable`` when long: one-column documents),
        ``tabular``, ``table*`` (two-column papers: floats across both columns, long tables split) or
        ``longtable``.  Catalogue ids may break after their dots and underscores.

    Examples
    --------
    >>> text = to_latex("verify", {"relations": [], "quick": True, "seed": 1}, command="relations verify --quick")
    >>> text.splitlines()[0].split(": ", 1)[1], text.splitlines()[1] == PACKAGES
    ('relations verify --quick', True)
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    env = latex_env(env)
    chosen = tuple(tables) if tables else CHECK_TABLES
    if any(t not in CHECK_TABLES for t in chosen):
        raise ValueError(f"tables must be among {', '.join(CHECK_TABLES)}, got {', '.join(chosen)}")
    if command is None:
        command = f"relations {kind}" + (f" {source}" if source else "")
        if kind == "verify":
            command += (" --quick" if obj.get("quick") else "") + f" --seed {obj.get('seed')}"
    if kind == "verify" and not obj.get("complete", True):
        command += " (interrupted: incomplete)"
    lines = [f"% relations {_version()}: {command}".replace("\n", " "), PACKAGES]
    if kind == "measure":
        lines += _budgets_table(obj, env)
        lines += [f"% left out: {item['name']} ({item['reason']})" for item in obj.get("left_out", [])]
    elif kind == "check":
        parts: list[list[str]] = []
        if "budgets" in chosen:
            parts.append(_budgets_table(obj["measures"], env))
        if "relations" in chosen:
            rows = []
            for r in obj["relations"]:
                slack = r.get("slack")
                note = _witness_math(r.get("witness")) if r.get("witness") else latex_escape(r.get("note") or "")
                rows.append([r"{\footnotesize" + breakable_id(r["id"]) + r"}\newline $" + latex_math(r["symbols"])
                             + "$", latex_escape(r["status"]), latex_number(None if slack is None else slack["value"], 3),
                             note or "--"])
            parts.append(_tabular(r"@{}>{\raggedright\arraybackslash}p{0.36\linewidth}"
                                  r">{\raggedright\arraybackslash}p{0.13\linewidth}r"
                                  r">{\raggedright\arraybackslash}p{0.2\linewidth}@{}",
                                  ["relation", "status", "slack", "witness / note"], rows, env))
        if "composition" in chosen and obj.get("composition_relations"):
            comp = obj.get("composition") or {}
            rows = []
            for r in obj["composition_relations"]:
                slack = r.get("slack")
                note = _witness_math(r.get("witness")) if r.get("witness") else latex_escape(r.get("note") or "")
                rows.append([_theorem_cell(r), latex_escape(r["status"]),
                             latex_number(None if slack is None else slack["value"], 3), note or "--"])
            uses = comp.get("uses")
            head = [f"% composition theorems on {uses} uses ({comp.get('parts')} part(s)): the bound from one use's "
                    "budgets against the composed value"] if uses else []
            parts.append(head + _tabular(r"@{}>{\raggedright\arraybackslash}p{0.36\linewidth}"
                                         r">{\raggedright\arraybackslash}p{0.13\linewidth}r"
                                         r">{\raggedright\arraybackslash}p{0.2\linewidth}@{}",
                                         ["composition theorem", "status", "slack", "witness / note"], rows, env))
        if "claims" in chosen and obj.get("claims"):
            rows = [[f"${latex_math(c['claim'])}$", latex_escape(c["status"]), _exact_cell(c.get("value")),
                     latex_escape(c.get("note") or "")] for c in obj["claims"]]
            parts.append(_tabular("llrl", ["claim", "status", "value", "note"], rows, env))
        for i, part in enumerate(parts):
            lines += ([""] if i else []) + part
    else:
        rows = [[r"{\footnotesize" + breakable_id(v["id"]) + r"}\newline $" + latex_math(v["statement"]) + "$",
                 latex_escape(v["verdict"]), latex_escape(_short(v.get("evidence") or "")),
                 latex_number(v.get("tightness"), 3)] for v in _verify_rows(obj)]
        lines += _tabular(r"@{}>{\raggedright\arraybackslash}p{0.38\linewidth}l"
                          r">{\raggedright\arraybackslash}p{0.27\linewidth}r@{}",
                          ["relation", "verdict", "evidence", "tightness"], rows, env)
    return "\n".join(lines) + "\n"


def _short(evidence: str, most: int = 60) -> str:
    """The evidence's first clause, at most ``most`` characters (the full text is in the JSON and the evidence)."""
    first = re.split(r"[;:(]", evidence, maxsplit=1)[0].strip()
    return first if len(first) <= most else first[:most - 3].rstrip() + "..."


def _verify_rows(obj: dict[str, Any]) -> list[dict[str, Any]]:
    """verify's relations, then the user's conjectures (``--conjectures``) as rows ``conjecture.ID``."""
    return list(obj["relations"]) + [{**c, "id": f"conjecture.{c['id']}", "scope": None, "tightness": None}
                                     for c in obj.get("conjectures", [])]


def _cell(value: Any) -> str:
    """A CSV field: floats as their ``repr``, booleans as ``true``/``false``, None as empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(float(value))  # numpy's float64 too: its plain shortest repr
    return str(value)


def _pair(item: dict[str, Any] | None) -> list[str]:
    return ["", ""] if item is None else [_cell(item.get("value")), _cell(item.get("exact"))]


def to_csv(kind: str, obj: Any) -> str:
    """The JSON object of ``relations KIND --json`` as RFC 4180 CSV: a header row, then one row per item.

    Columns: ``measure``: ``name, exact, value, lower, upper, witness`` (``lower``/``upper`` the
    certified enclosure of ``eps_m``); ``check``: ``id, kind, setting, claim, status, holds,
    premise, premise_exact, conclusion, conclusion_exact, bound, bound_exact, slack, slack_exact,
    witness, note``, one row per relation, then (on a composition) one per composition theorem (``kind``
    is ``composition``), then one per ``--claim`` (``kind`` is ``claim``, the claimed quantity in
    ``conclusion``); ``verify``: ``id, statement, setting, verdict, scope,
    evidence, files, tightness`` (``files``: the evidence files written, separated by ``;``).

    Parameters
    ----------
    kind : {"measure", "check", "verify"}
    obj : dict
        What ``--json`` prints for that command.

    Returns
    -------
    str

    Examples
    --------
    >>> import csv
    >>> from relations import measure
    >>> from relations.io._reports import measures_json
    >>> from relations.mechanisms import paper_example
    >>> m = paper_example()
    >>> rows = list(csv.reader(to_csv("measure", measures_json(m, measure(m))).splitlines()))
    >>> rows[0], rows[2][:3]
    (['name', 'exact', 'value', 'lower', 'upper', 'witness'], ['eps_d', 'ln(13/7)', '0.6190392084062234'])
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    if kind == "measure":
        writer.writerow(["name", "exact", "value", "lower", "upper", "witness"])
        for name in ("eps_i", "eps_d", "eps_m", "sigma_min"):
            item = obj[name]
            lower, upper = item.get("enclosure") or ("", "")
            writer.writerow([name, _cell(item.get("exact")), _cell(item["value"]), lower, upper,
                             "I(X;Y)" if name == "eps_m" else _witness(item.get("witness"))])
        for item in obj.get("notions", []):  # measure --notion
            lower, upper = item.get("enclosure") or ("", "")
            writer.writerow([item["name"], _cell(item.get("exact")), _cell(item["value"]), lower, upper,
                             _witness(item.get("witness"))])
    elif kind == "check":
        writer.writerow(["id", "kind", "setting", "claim", "status", "holds", "premise", "premise_exact", "conclusion",
                         "conclusion_exact", "bound", "bound_exact", "slack", "slack_exact", "witness", "note"])
        for r in obj["relations"]:
            writer.writerow([r["id"], r["kind"], r["setting"], r["symbols"], r["status"], _cell(r["holds"]),
                             *_pair(r.get("premise")), *_pair(r.get("conclusion")), *_pair(r.get("bound")),
                             *_pair(r.get("slack")), _witness(r.get("witness")), r.get("note") or ""])
        setting = obj["measures"].get("setting", "")
        for r in obj.get("composition_relations", []):
            writer.writerow([r["id"], "composition", setting, r["symbols"], r["status"], _cell(r["holds"]),
                             *_pair(r.get("premise")), *_pair(r.get("conclusion")), *_pair(r.get("bound")),
                             *_pair(r.get("slack")), _witness(r.get("witness")), r.get("note") or ""])
        for c in obj.get("claims", []):
            writer.writerow(["", "claim", setting, c["claim"], c["status"], _cell(c["holds"]), "", "",
                             *_pair(c.get("value")), "", "", "", "", "", c.get("note") or ""])
    else:
        writer.writerow(["id", "statement", "setting", "verdict", "scope", "evidence", "files", "tightness"])
        for v in _verify_rows(obj):
            files = ";".join(v[k] for k in ("witness_file", "full_witness_file", "proof_file", "family_file") if v.get(k))
            writer.writerow([v["id"], v["statement"], v["setting"], v["verdict"], v.get("scope") or "",
                             v.get("evidence") or "", files, _cell(v.get("tightness"))])
    return buffer.getvalue()


def export(kind: str, obj: Any, fmt: str, *, source: str | None = None, command: str | None = None,
           tables: Sequence[str] | None = None, env: str = "auto") -> str:
    """``to_latex`` or ``to_csv`` by ``fmt`` (``"latex"`` or ``"csv"``): the text ``--format FMT`` prints.

    Examples
    --------
    >>> export("verify", {"relations": [], "quick": True, "seed": 1}, "csv")
    'id,statement,setting,verdict,scope,evidence,files,tightness\\r\\n'
    """
    if fmt == "latex":
        return to_latex(kind, obj, source=source, command=command, tables=tables, env=env)
    if fmt == "csv":
        return to_csv(kind, obj)
    raise ValueError(f"export format must be latex or csv, got {fmt!r}")
