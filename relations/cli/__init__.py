"""The ``relations`` command line: thin commands that parse options, call the library and print.

Bad input — an unreadable file, malformed JSON, wrong shapes, non-stochastic
rows, bad numbers, an unknown setting — is one line on stderr and exit status
2, never a traceback.  Heavy optional libraries (sympy, z3) are not imported
by ``measure``.

The package holds the commands: this module the application, the shared helpers and most
commands; ``app`` holds the application and the helpers every command uses, and
``audit_command`` (like any later command module) registers its command on it when this
module imports it.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import typer

from relations.cli._app import (  # noqa: F401
    Interrupted,
    ReaderGone,
    _console,
    app,
    did_you_mean,
    fail,
    output_format,
    plain_metavars,
    report_interrupts,
)
from relations.errors import InputError
from relations.io import EVIDENCE_DIR
from relations.kinds import NumericMode
from relations.notions import FURTHER_NOTIONS, NOTIONS

#: The help of ``--mode`` (its choices are those of :class:`~relations.kinds.NumericMode`).
_MODE_HELP = (f"Numeric mode: {', '.join(NumericMode)}. auto (the default) is the documented rule (docs/semantics.md, "
              "'Numeric mode'): exact, except an .npz channel of more than 65536 entries, which is float mode unless "
              "its 'mode' array says; exact takes floats at their binary values (at most 4096 x 4096 entries, else an "
              "error); float computes in float64.")


#: ``measure --notion``'s help: the further notions of the notion table (``docs/notions.md``).
_NOTION_HELP = ("Also a further notion: " + ", ".join(NOTIONS[n].pattern for n in FURTHER_NOTIONS)
                + ", or all. Repeatable.")


@app.command()
def measure(
    file: str = typer.Argument(..., help="Mechanism file: JSON or .npz (floats; see --mode); - for standard input."),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON (docs/claims-and-verdicts.md)."),
    fmt: str = typer.Option("table", "--format", help="table, json, latex (booktabs) or csv (docs/claims-and-verdicts.md)."),
    bits: int | None = typer.Option(None, "--bits", help="Width of the eps_m and --notion enclosures at most 2**-bits "
                                       "(default 100; eps_m of exact channels of 2^18 entries or more: certified "
                                       "floats, about 2**-44).",
                                       min=1, max=100000),
    notion: list[str] = typer.Option([], "--notion", help=_NOTION_HELP),
    mode: NumericMode = typer.Option(NumericMode.AUTO, "--mode", case_sensitive=False, show_default=False,
                                     help=_MODE_HELP),
    latex_env: str = typer.Option("auto", "--latex-env", help="With --format latex: auto (tabular; longtable when "
                                  "long), tabular, table* (two-column papers: floats across both columns) or "
                                  "longtable (one-column documents)."),
    tradeoff: bool = typer.Option(False, "--tradeoff", help="Instead of the budgets: the f-DP trade-off curve "
                                  "(exact breakpoints, the pointwise minimum over pairs) and the least "
                                  "Gaussian-DP mu (docs/notion-inequalities-tradeoff.md)."),
    plot: str | None = typer.Option(None, "--plot", help="With --tradeoff: draw the curve with G_mu and 1 - alpha "
                                    "to this file (.png, .pdf or .svg; an existing file only with --force)."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --plot file."),
    repeat: int | None = typer.Option(None, "--repeat", min=1, help="The mechanism used this many times on the same "
                                      "input, independently (at most 100000): measured exactly through the counts "
                                      "of each output, or the privacy loss distribution for the profile "
                                      "(docs/mechanism-files.md, 'Repeated use')."),
) -> None:
    """The four quantities eps_i, eps_d, eps_m, sigma_min with exact forms and witnesses (and --notion ones)."""
    from relations.io._reports import left_out_json, measures_json, notions_json
    from relations.io._tables import left_out_text, measures_table, notions_table
    from relations.measures._api import measure as compute

    fmt = output_format(fmt, json_out)
    if tradeoff or plot is not None:
        _measure_tradeoff(file, fmt=fmt, notion=notion, bits=bits, mode=mode, tradeoff=tradeoff, plot=plot,
                          force=force, repeat=repeat)
        return
    if notion:  # the further notions' modules are imported only when asked for
        from relations.measures._notions import parse_notion

        for name in notion:
            if name.strip().lower() != "all":
                parse_notion(name)  # a bad name is bad input before the file is read
    mech, note = _measured(file, mode=mode, repeat=repeat, fmt=fmt, notion=notion, bits=bits)
    if mech is None:
        return
    result = compute(mech, bits=bits)
    obj = measures_json(mech, result) if fmt != "table" else None
    if obj is not None and note is not None:
        obj["composition"] = note
    rows = notions_json(mech, notion, bits=bits) if notion else []
    left = left_out_json(mech, notion) if notion else []
    if obj is not None and notion:
        obj["notions"] = rows
        if left:
            obj["left_out"] = left
    if fmt == "json":
        sys.stdout.write(json.dumps(obj, indent=2) + "\n")
    elif fmt != "table":
        from relations.io._exports import export

        sys.stdout.write(export("measure", obj, fmt, source=file, env=_latex_env(latex_env, fmt)))
    else:
        if note is not None:
            _console().print(f"{note['uses']} uses: measured exactly through the counts of each output "
                             f"({note['count_vectors']} count vectors)")
        _console().print(measures_table(mech, result))
        if rows:
            _console().print(notions_table(rows))
        if left:
            _console().print(left_out_text(left))


def _measured(file: str, *, mode: NumericMode, repeat: int | None, fmt: str, notion: list[str], bits: int | None):
    """``measure``'s mechanism: the file's, or a composition's exact equivalent through the counts of each output
    (with a note); a composition beyond that limit is printed here by composition rules (and None returned)."""
    from relations.io._reading import load, load_composition
    from relations.model._composed import MAX_SUFFICIENT_ENTRIES, Composition

    if repeat is None and not _says_composition(file):
        return load(file, mode=mode), None
    got = load_composition(file, repeat=repeat, mode=mode)
    if not isinstance(got, Composition):
        return got, None
    note = {"uses": got.uses, "parts": len(got.parts), "count_vectors": got.type_counts()}
    if got.type_counts() * got.base.channel.shape[0] <= MAX_SUFFICIENT_ENTRIES:
        return got.sufficient(), note
    from relations.io._reports import composed_json
    from relations.io._tables import left_out_text, notions_table

    rows, left = composed_json(got, notion, bits=bits)
    obj = {"source": file, "composition": note, "notions": rows, "left_out": left}
    if fmt == "json":
        sys.stdout.write(json.dumps(obj, indent=2) + "\n")
    elif fmt != "table":
        fail("a composition beyond the counts route prints a table or JSON")
    else:
        _console().print(f"{got.describe()}: {got.type_counts()} count vectors, more than the limit "
                         f"{MAX_SUFFICIENT_ENTRIES} entries; computed by composition rules (exact, or a stated "
                         "enclosure)")
        _console().print(notions_table(rows))
        if left:
            _console().print(left_out_text(left))
    return None, None


def _says_composition(file: str) -> bool:
    """Whether a mechanism file has a ``repeat`` or ``parts`` key: a regular file only, since standard input, a
    pipe or a device is read once (by the loader; :func:`load` measures a composition's counts mechanism too)."""
    import os
    import stat

    if file == "-" or file.startswith("/dev/"):
        return False
    try:
        if not stat.S_ISREG(os.stat(file).st_mode):
            return False
        with open(file, "rb") as handle:
            head = handle.read(1 << 20)
    except OSError:
        return False
    return b'"repeat"' in head or b'"parts"' in head


def _measure_tradeoff(file: str, *, fmt: str, notion: list[str], bits: int | None, mode: NumericMode, tradeoff: bool,
                      plot: str | None, force: bool, repeat: int | None = None) -> None:
    """``measure --tradeoff [--plot FILE]``: the curve as a table or JSON, and the figure written atomically."""
    import os

    if not tradeoff:
        fail("--plot draws the trade-off curve: add --tradeoff")
    if notion:
        fail("--tradeoff prints the trade-off curve and gdp_mu alone: drop --notion")
    if fmt not in ("table", "json"):
        fail(f"--tradeoff prints a table or JSON, not --format {fmt}")
    if plot is not None:
        import importlib.util

        from relations.figures._style import FORMATS
        from relations.io._outputs import check_output_file

        kind = os.path.splitext(plot)[1].lstrip(".").lower()
        if kind not in FORMATS:
            fail(f"--plot {plot}: the file name must end in .png, .pdf or .svg")
        if importlib.util.find_spec("matplotlib") is None:
            from relations._install import install_hint

            fail("--plot draws with matplotlib, in the figures extra: " + install_hint("figures", only=["matplotlib>=3.7"]))
        check_output_file(plot, force=force, option="--plot")
    from relations.io._reading import load
    from relations.io._tradeoffs import tradeoff_json, tradeoff_tables
    from relations.measures._tradeoff import tradeoff_curve

    if repeat is None:
        mech = load(file, mode=mode)
    else:  # the counts mechanism of the repeated use (its trade-off curve is the composition's)
        from relations.io._reading import load_composition
        from relations.model._composed import Composition

        got = load_composition(file, repeat=repeat, mode=mode)
        mech = got.sufficient() if isinstance(got, Composition) else got
    data = tradeoff_json(mech, tradeoff_curve(mech, bits=100 if bits is None else bits))
    if plot is not None:
        from relations.figures._style import render
        from relations.figures._tradeoff import draw_tradeoff, tradeoff_plot_data
        from relations.io._outputs import create_file

        fig = draw_tradeoff(tradeoff_plot_data(data), title=None if file == "-" else os.path.basename(file))
        image = render(fig, kind)
        create_file(plot, image, force=force, option="--plot")  # still free (or --force): checked as it is made
    if fmt == "json":
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    else:
        console = _console()
        for table in tradeoff_tables(data):
            console.print(table)
    if plot is not None:
        sys.stderr.write(f"wrote {plot}\n")


def _latex_env(name: str, fmt: str) -> str:
    """``--latex-env``, checked: one of the environments, and only with ``--format latex`` unless ``auto``."""
    from relations.io._exports import latex_env

    try:
        env = latex_env(name)
    except ValueError as err:
        raise InputError(str(err)) from None
    if env != "auto" and fmt != "latex":
        raise InputError("--latex-env needs --format latex")
    return env


def _check_tables(table: list[str], fmt: str) -> tuple[str, ...] | None:
    """``check --table`` values, checked: bad input unless they name tables and the format is LaTeX."""
    from relations.io._exports import CHECK_TABLES

    if not table:
        return None
    if fmt != "latex":
        raise InputError("--table needs --format latex")
    bad = [t for t in table if t not in CHECK_TABLES]
    if bad:
        raise InputError(f"--table {bad[0]!r}: one of {', '.join(CHECK_TABLES)}")
    return tuple(dict.fromkeys(table))


def _only_relations(only: list[str]):
    """The catalogue relations ``check --only`` names (None: all); an unknown id is bad input, with a suggestion."""
    if not only:
        return None
    import difflib

    from relations.catalogue import CATALOGUE

    ids = [r.id for r in CATALOGUE]
    for rid in only:
        if rid not in ids:
            near = difflib.get_close_matches(rid, ids, n=1)
            raise InputError(f"--only {rid!r}: no such relation" + (f" (did you mean {near[0]!r}?)" if near else
                                                                    "; see 'relations catalogue'"))
    return [r for r in CATALOGUE if r.id in set(only)]


@app.command()
def check(
    file: str = typer.Argument(..., help="Mechanism file: JSON or .npz (floats; see --mode); - for standard input."),
    claim: list[str] = typer.Option([], "--claim", help="A claimed budget NAME OP BOUND, e.g. 'eps_d<=ln(13/7)'. Repeatable."),
    json_out: bool = typer.Option(False, "--json", help="Print the result as JSON (docs/claims-and-verdicts.md)."),
    fmt: str = typer.Option("table", "--format", help="table, json, latex (booktabs) or csv (docs/claims-and-verdicts.md)."),
    mode: NumericMode = typer.Option(NumericMode.AUTO, "--mode", case_sensitive=False, show_default=False,
                                     help=_MODE_HELP),
    table: list[str] = typer.Option([], "--table", help="With --format latex: only these tables, budgets, relations "
                                    "or claims (repeatable; default all)."),
    only: list[str] = typer.Option([], "--only", help="Only this relation (an id of 'relations catalogue'; "
                                   "repeatable)."),
    applicable_only: bool = typer.Option(False, "--applicable-only", help="Leave out the relations that do not "
                                         "apply to this mechanism's setting."),
    latex_env: str = typer.Option("auto", "--latex-env", help="With --format latex: auto (tabular; longtable when "
                                  "long), tabular, table* (two-column papers: floats across both columns) or "
                                  "longtable (one-column documents)."),
) -> None:
    """Every catalogued relation on this mechanism, and the user's claimed budgets.

    Exit status: 0 every --claim holds, 1 some --claim fails or is undecided, 2 bad input."""
    from relations.checking._checker import check as run_check
    from relations.checking._claims import parse_claim
    from relations.io import check_json
    from relations.io._reading import load
    from relations.io._tables import check_tables

    fmt = output_format(fmt, json_out)
    claims = [parse_claim(c) for c in claim]
    chosen = _check_tables(table, fmt)
    env = _latex_env(latex_env, fmt)
    relations = _only_relations(only)
    if _says_composition(file):  # a "repeat" or "parts" file: the composition theorems too
        from relations.io._reading import load_composition

        report = run_check(load_composition(file, mode=mode), claims, relations=relations)
    else:
        report = run_check(load(file, mode=mode), claims, relations=relations)
    mech = report.values.mechanism
    if applicable_only:
        import dataclasses

        report = dataclasses.replace(report, outcomes=tuple(o for o in report.outcomes
                                                            if o.status != "not applicable"))
    if fmt == "json":
        sys.stdout.write(json.dumps(check_json(report), indent=2) + "\n")
    elif fmt != "table":
        import shlex

        from relations.io._exports import export

        command = shlex.join(["relations", *sys.argv[1:]]) if sys.argv[1:2] == ["check"] else None
        sys.stdout.write(export("check", check_json(report), fmt, source=file, command=command, tables=chosen,
                                env=env))
    else:
        from relations.io._tables import measures_table

        console = _console()
        if report.uses is not None and not report.outcomes:
            console.print(f"{report.uses.describe()}: beyond the counts of each output; the measures of one use, "
                          "claims and composition theorems on all uses (composition rules)")
        console.print(measures_table(mech, report.values.measures))
        for part in check_tables(report, width=console.width):
            console.print(part)
    if any(c.holds is not True for c in report.claims):
        raise typer.Exit(1)


@app.command()
def catalogue(json_out: bool = typer.Option(False, "--json", help="Print the catalogue as JSON.")) -> None:
    """The relation catalogue: id, setting, statement in words and symbols, source."""
    from relations.io._reports import catalogue_json
    from relations.io._tables import catalogue_table

    if json_out:
        sys.stdout.write(json.dumps(catalogue_json(), indent=2) + "\n")
    else:
        console = _console()
        console.print(catalogue_table(width=console.width))


@app.command()
def verify(
    json_out: bool = typer.Option(False, "--json", help="Print the verdicts as JSON."),
    fmt: str = typer.Option("table", "--format", help="table, json, latex (booktabs) or csv (docs/claims-and-verdicts.md)."),
    quick: bool = typer.Option(False, "--quick", help="A smaller search (CI)."),
    out: str = typer.Option(EVIDENCE_DIR, "--out", help="Folder for witness files, SMT queries and verdicts.json "
                            "(it replaces only files it wrote there)."),
    only: list[str] = typer.Option([], "--only", help="Verify only these relation ids (repeatable)."),
    seed: int = typer.Option(2025, "--seed", help="Seed of the searches (the output is deterministic).", min=0,
                             max=2**32 - 1),
    force: bool = typer.Option(False, "--force", help="Replace files in --out that relations did not write."),
    conjectures: str | None = typer.Option(None, "--conjectures", help="Your own relations, a JSON file "
                                              "{\"conjectures\": [{\"id\", \"statement\", \"setting\"}, ...]}, "
                                              "decided with the catalogue (exit 1 if one is refuted)."),
    no_catalogue: bool = typer.Option(False, "--no-catalogue", help="With --conjectures: skip the catalogue."),
    exhaustive: list[str] = typer.Option([], "--exhaustive", help="The folder of a finished bounded-exhaustive "
                                         "'relations sweep' (repeatable): its families become evidence."),
    wide: bool = typer.Option(False, "--wide", help="The full table: statements, evidence and tightness at the "
                              "terminal's width (140 columns when piped). Without it: id and statement, verdict and "
                              "a short evidence in at most 100 columns (the terminal's width when narrower)."),
    latex_env: str = typer.Option("auto", "--latex-env", help="With --format latex: auto (tabular; longtable when "
                                  "long), tabular, table* (two-column papers: floats across both columns) or "
                                  "longtable (one-column documents)."),
) -> None:
    """The main job: a verdict with re-checkable evidence for every catalogued relation (and yours)."""
    from relations.app._verify import run_verify
    from relations.catalogue._entries import BY_ID
    from relations.io._conjecture_files import read_conjecture_file

    fmt = output_format(fmt, json_out)
    env = _latex_env(latex_env, fmt)
    unknown = [i for i in only if i not in BY_ID]
    if unknown:
        fail(f"--only: unknown relation id {unknown[0]!r}{did_you_mean(unknown[0], BY_ID)} (see 'relations catalogue')")
        return
    if no_catalogue and (conjectures is None or only):
        fail("--no-catalogue needs --conjectures FILE and no --only")
        return
    items = read_conjecture_file(conjectures) if conjectures is not None else []
    status = run_verify([BY_ID[i] for i in only], out=out, quick=quick, seed=seed, force=force, fmt=fmt,
                        console=_console(), conjectures=items, catalogue=not no_catalogue, exhaustive=exhaustive,
                        wide=wide, latex_env=env)
    if status:
        raise typer.Exit(status)


@app.command()
def witness(
    relation: str = typer.Argument(..., help="A non-implication id, e.g. zheng2025.thm12."),
    eps_m: str = typer.Option("1/10", "--eps-m", help="Largest I(X;Y) allowed (decimal or fraction)."),
    full_support: str | None = typer.Option(None, "--full-support", help="Instead of infinite budgets: full "
                                               "support with e^eps_d at least this ratio."),
) -> None:
    """Print a witness mechanism file for a non-implication: I(X;Y) <= eps_m, infinite (or huge) eps_d / eps_i."""
    from relations.catalogue._entries import BY_ID
    from relations.io._writing import dumps
    from relations.numbers._text import parse_rational
    from relations.search._witnesses import MIN_WITNESS_EPS_M, mi_witness

    rel = BY_ID.get(relation)
    if rel is None or rel.kind != "non-implication":
        choices = [i for i, r in BY_ID.items() if r.kind == "non-implication"]
        fail(f"{relation!r} is not a non-implication in the catalogue{did_you_mean(relation, choices)} (one of "
             f"{', '.join(choices)})")
        return
    bound = parse_rational(eps_m, "--eps-m")
    big = parse_rational(full_support, "--full-support") if full_support is not None else None
    if bound < MIN_WITNESS_EPS_M or (big is not None and big <= 1):
        fail("--eps-m must be at least 1e-1000 and --full-support above 1")
        return
    mech = mi_witness(rel.setting, bound, big)
    sys.stdout.write(dumps(mech, f"witness for {rel.id}: I(X;Y) <= {bound}"))


@app.command()
def mechanisms(json_out: bool = typer.Option(False, "--json", help="Print the list as JSON.")) -> None:
    """The named mechanisms a file can use: "channel": {"mechanism": NAME, ...parameters}."""
    from rich.table import Table

    from relations.mechanisms._registry import REGISTRY

    if json_out:
        sys.stdout.write(json.dumps([{"mechanism": e.name, "parameters": list(e.params), "summary": e.summary,
                                      "function": f"relations.mechanisms.{e.function.__name__}"}
                                     for e in REGISTRY.values()], indent=1) + "\n")
        return
    console = _console()
    wide = console.width >= 120  # narrower: names whole, the Python functions in --json
    table = Table(title="named mechanisms", title_justify="left",
                  caption=None if wide else "Python functions: relations mechanisms --json")
    table.add_column("mechanism", no_wrap=True)
    for col in ("parameters", "summary") + (("Python",) if wide else ()):
        table.add_column(col, overflow="fold")
    for e in REGISTRY.values():
        table.add_row(e.name, e.parameter_text, e.summary, *((f"{e.function.__name__}()",) if wide else ()))
    console.print(table)


@app.command()
def utility(
    file: str = typer.Argument(..., help="Mechanism file (exact); - for standard input."),
    loss: str = typer.Option("hamming", "--loss", help="'hamming' or a JSON file with a loss matrix."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Expected distortion, H(X), H(X|Y), I(X;Y) and the Fano lower bound on leakage."""
    from relations.io._reading import load, load_loss_matrix
    from relations.tradeoffs._utility import utility_summary

    if file == "-" and loss == "-":
        raise InputError("the mechanism file and --loss cannot both be read from standard input ('-')")
    mech = load(file)
    if not mech.exact:
        raise InputError(f"{file}: utility needs an exact (JSON) mechanism")
    out = utility_summary(mech, loss if loss == "hamming" else load_loss_matrix(loss))
    if json_out:
        sys.stdout.write(json.dumps(out, indent=1) + "\n")
    else:
        for k, v in out.items():
            _console().print(f"{k:>24}  {v}")


@app.command()
def optimize(
    prior: str = typer.Option(..., "--prior", help="Comma-separated prior, e.g. '1/2,1/3,1/6'."),
    notion: str = typer.Option(..., "--notion", help="eps_d, eps_i or eps_m (the budget bounded; dp, id, mi "
                               "are their 0.2 names)."),
    eps: str = typer.Option(..., "--eps", help="The budget: decimal, fraction or ln(RATIONAL)."),
    loss: str = typer.Option("hamming", "--loss", help="'hamming' or a JSON file with a loss matrix."),
    out: str | None = typer.Option(None, "--out", help="Write the optimal mechanism file here (else stdout); "
                                      "an existing file only with --force."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --out file."),
) -> None:
    """The least-distortion mechanism under an eps budget of one notion (LP via HiGHS, or Blahut-Arimoto)."""
    from relations.io._outputs import check_output_file

    if out is not None:
        check_output_file(out, force=force)
    from relations.io._writing import dumps
    from relations.tradeoffs._optimal import optimal_dp, optimal_id, optimal_mi

    notion = notion.strip().lower()  # choices are case-insensitive: --notion EPS_D
    old_names = {"dp": "eps_d", "id": "eps_i", "mi": "eps_m"}  # the 0.2 names, still accepted
    notion = old_names.get(notion, notion)
    solvers = {"eps_d": optimal_dp, "eps_i": optimal_id, "eps_m": optimal_mi}
    solver = solvers.get(notion)
    if solver is None:
        raise InputError(f"--notion must be one of {', '.join(solvers)}, got {notion!r}"
                         f"{did_you_mean(notion, [*solvers, *old_names])}")
    from relations.numbers._text import parse_rational_list

    p = parse_rational_list(prior, "--prior")
    if any(v < 0 for v in p) or sum(p) != 1:
        raise InputError("--prior: entries must be non-negative and sum to 1")
    from relations.io._reading import load_loss_matrix

    lm = loss if loss == "hamming" else load_loss_matrix(loss)
    result = solver(p, eps, loss=lm)
    if result.certified:
        said = f"optimal, certified by an exact dual: distortion {result.distortion}"
    else:
        how = (", built within a rational ratio below e^eps" if result.mixing == 0 and result.notion != "mi"
               else f", mixing {result.mixing}")
        said = (f"solver distortion {result.value:.12g}, exact distortion {float(result.distortion):.12g}{how}"
                + (f", Blahut gap {result.gap:.3g}" if result.gap is not None else ""))
    text = dumps(result.mechanism, f"optimal {notion} mechanism, {notion} <= {eps}: {said}")
    if out:
        from relations.io._outputs import create_file

        create_file(out, text.encode("utf-8"), force=force)  # a file made meanwhile is not replaced
        sys.stderr.write(f"wrote {out}: distortion {float(result.distortion):.12g} (solver {result.value:.12g})"
                         + (", optimal, certified by an exact dual" if result.certified else "") + "\n")
    else:
        sys.stdout.write(text)


@app.command()
def symbolic(
    mechanism: str = typer.Argument(..., help="krr, rr-prior (binary RR with prior (pi, 1-pi)) or paper6/paper8."),
    k: int = typer.Option(2, "--k", help="Domain size for krr."),
    piecewise: bool = typer.Option(False, "--piecewise", help="Rewrite Max/Min as Piecewise."),
    fmt: str = typer.Option("text", "--format", help="text (one line each), pretty (2-D, unicode) or latex."),
) -> None:
    """Closed forms (sympy) of eps_d, eps_i, sigma_min and I(X;Y) in the symbolic parameter."""
    import sympy

    import relations.mechanisms._symbolic as sym

    fmt = fmt.strip().lower()
    if fmt not in ("text", "pretty", "latex"):
        fail(f"--format must be one of text, pretty, latex, got {fmt!r}{did_you_mean(fmt, ('text', 'pretty', 'latex'))}")
        return

    builders = {"krr": lambda: sym.krr(k), "rr-prior": sym.binary_rr_with_prior,
                "paper6": lambda: sym.paper_construction(6), "paper8": lambda: sym.paper_construction(8)}
    if mechanism not in builders:
        fail(f"unknown symbolic mechanism {mechanism!r}{did_you_mean(mechanism, builders)} (one of "
             f"{', '.join(builders)})")
        return
    if k < 2:
        fail(f"--k {k}: krr needs a domain of at least 2 values")
        return
    forms = builders[mechanism]()
    VAREPSILON = r"\varepsilon"
    tex = {"eps_d": r"\varepsilon_d", "eps_i": r"\varepsilon_i", "sigma_min": r"\sigma_{\min}",
           "eps_m": r"\varepsilon_m"}
    for name in ("eps_d", "eps_i", "sigma_min", "eps_m"):
        expr = getattr(forms, name)
        expr = sym.piecewise(expr) if piecewise else expr
        if fmt == "latex":  # simplified (sympy keeps the value under the symbols' assumptions) where shorter; \ln
            simple = sympy.simplify(expr)
            if sympy.count_ops(simple) < sympy.count_ops(expr) and not simple.has(sympy.I):
                expr = simple
            body = sympy.latex(expr, ln_notation=True,
                               symbol_names={x: VAREPSILON for x in expr.free_symbols if x.name == "eps"})
            sys.stdout.write(f"${tex[name]} = {body}$\n")
        elif fmt == "pretty":
            sys.stdout.write(f"{name} =\n{sympy.pretty(expr, use_unicode=True)}\n\n")
        else:
            sys.stdout.write(f"{name} = {expr}\n")


@app.command()
def figures(
    out: str = typer.Option("figures", "--out", help="Folder for the figures and their data as JSON (it replaces "
                            "only files it wrote there)."),
    fmt: str = typer.Option("png,pdf,svg", "--format", help="Image formats, comma-separated: png (300 dpi), pdf, "
                            "svg, or all."),
    only: list[str] = typer.Option([], "--only", help="Only these figures (repeatable)."),
    verdicts: str = typer.Option(f"{EVIDENCE_DIR}/verdicts.json", "--verdicts", help="The verdicts.json of "
                                 "'relations verify' for the relation diagram (verified now, quickly, if missing; "
                                 "the repository's own: proofs/verdicts.json)."),
    force: bool = typer.Option(False, "--force", help="Replace files in --out that relations did not write."),
    width: str = typer.Option("", "--width", help="column (3.5 in, one column of a two-column paper), text (6.5 in, "
                              "a one-column text width) or inches from 3 to 12; default: each figure's own size."),
    no_title: bool = typer.Option(False, "--no-title", help="Leave out the figures' titles (the caption says it)."),
    font: str = typer.Option("sans", "--font", help="sans (default), serif (STIX, Times-like) or usetex (LaTeX "
                             "sets the text; needs latex, and dvipng for PNG)."),
) -> None:
    """Regenerate the figures from computed results (the relation diagram uses the verdicts of 'relations verify')."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        from relations._install import install_hint

        fail("relations figures draws with matplotlib, in the figures extra: "
             + install_hint("figures", only=["matplotlib>=3.7"]))
    from relations.figures import FIGURES, write_all
    from relations.figures._style import FORMATS, parse_formats

    bad = [p.strip().lower() for p in fmt.split(",") if p.strip().lower() not in (*FORMATS, "all", "")]
    if bad:
        fail(f"--format: unknown image format {bad[0]!r}{did_you_mean(bad[0], FORMATS)} (png, pdf, svg, "
             "comma-separated, or all)")
        return
    formats = parse_formats(fmt)
    unknown = [o for o in only if o not in FIGURES]
    if unknown:
        fail(f"--only: unknown figure {unknown[0]!r}{did_you_mean(unknown[0], FIGURES)} (one of {', '.join(FIGURES)})")
        return
    from relations.figures._style import check_usetex, parse_font, parse_width

    inches = parse_width(width or None)  # each raises InputError: one line, exit 2, before anything is computed
    font = parse_font(font)
    if font == "usetex":
        check_usetex(formats)
    for path in write_all(out, formats, only, force=force, verdicts=verdicts, width=inches, title=not no_title,
                          font=font):
        sys.stdout.write(path + "\n")


def main(argv: list[str] | None = None) -> None:
    """Entry point.  Every error is one line on stderr: a usage error (a misspelt command or option, with
    click's suggestion, or a bad option value) exits 2; a :class:`~relations.errors.RelationsError`
    anywhere in a command exits with the status of :func:`relations.errors.exit_status`, handled here once
    for every command; Ctrl-C exits 130.

    Everything it writes goes through :class:`~relations.io._text.TerminalText`: control characters in
    labels, file names and messages are escaped, and characters the terminal's encoding lacks are
    backslash escapes.  A closed standard output, or one whose reader went away (``| head``), ends the
    command quietly with status :data:`~relations.errors.EXIT_BROKEN_PIPE` (141)."""
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _terminal(sys.stdout), _terminal(sys.stderr, errors=True)  # text as text, any encoding
    try:
        try:
            _run(argv)
        except SystemExit:
            if type(sys.stdout).__name__ == "PacifyFlushWrapper":  # click met a broken pipe (e.g. in --help)
                raise ReaderGone from None
            raise
        finally:
            _flush()  # a reader that went away, or a full disk, shows here, not in Python's final flush
    except (BrokenPipeError, ReaderGone):  # the reader went away (e.g. '| head'): nothing to say, SIGPIPE's status
        from relations.errors import exit_status

        _quiet(streams[0])
        sys.exit(exit_status(BrokenPipeError()))
    finally:
        sys.stdout, sys.stderr = streams


def _terminal(stream, *, errors: bool = False):
    """``stream`` wrapped in :class:`~relations.io._text.TerminalText` (control characters escaped, characters
    its encoding lacks as backslash escapes).  A closed standard output (None) is one whose every write is a
    broken pipe; a closed standard error (``errors``) takes what is written and drops it (the exit status
    still tells)."""
    import io

    from relations.io._text import TerminalText

    if stream is None:
        class Closed(io.TextIOBase):
            def write(self, s: str) -> int:
                if errors:
                    return len(s)
                raise BrokenPipeError(32, "standard output is closed")

        return TerminalText(Closed())
    try:
        stream.reconfigure(errors="backslashreplace")  # rich writes to the stream itself
    except (AttributeError, ValueError, OSError):
        pass
    return TerminalText(stream)


def _flush() -> None:
    """Flush standard output: a broken pipe is for :func:`main`; another failure (a full disk) is one line, exit 2."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        sys.stderr.write(f"relations: error: standard output: {exc.strerror or exc}\n")
        _quiet(sys.stdout)
        sys.exit(2)


def _quiet(stream) -> None:
    """Point the file descriptor of a broken ``stream`` at ``/dev/null``: Python's final flush stays silent."""
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (AttributeError, ValueError, OSError):
        pass


def _run(argv: list[str] | None) -> None:
    """:func:`main` within the wrapped streams."""
    if TYPE_CHECKING:  # one of the two below (their classes differ to mypy)
        from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError
    else:
        try:  # recent typer vendors click as typer._click
            from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError
        except ImportError:  # pragma: no cover
            from click.exceptions import ClickException, NoArgsIsHelpError, UsageError

    from relations.errors import EXIT_BAD_INPUT, EXIT_INTERRUPTED, RelationsError, exit_status

    try:
        command = typer.main.get_command(app)
        plain_metavars(command)
        report_interrupts(command)
        code = command.main(args=argv, standalone_mode=False)  # returns typer.Exit's code instead of exiting
        sys.exit(code if isinstance(code, int) else 0)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except NoArgsIsHelpError as exc:
        exc.show()
        sys.exit(EXIT_BAD_INPUT)
    except UsageError as exc:
        path = exc.ctx.command_path if exc.ctx is not None else "relations"
        sys.stderr.write(f"relations: error: {' '.join(exc.format_message().split())} (see '{path} --help')\n")
        sys.exit(EXIT_BAD_INPUT)
    except ClickException as exc:
        sys.stderr.write(f"relations: error: {' '.join(exc.format_message().split())}\n")
        sys.exit(EXIT_BAD_INPUT)
    except (Interrupted, typer.Abort, KeyboardInterrupt):
        from relations._processes import say_interrupted

        say_interrupted()
        sys.exit(EXIT_INTERRUPTED)
    except RelationsError as exc:
        sys.stderr.write(f"relations: error: {exc}\n")
        sys.exit(exit_status(exc))
    except MemoryError:  # anywhere in reading or computing: one line, what was running and the limit
        from relations._json import memory_error

        what = " ".join(a for a in (argv if argv is not None else sys.argv[1:])[:1])
        sys.stderr.write(f"relations: error: {memory_error(f'relations {what}'.strip())}\n")
        sys.exit(EXIT_BAD_INPUT)
    except BrokenPipeError:
        raise  # main's
    except OSError as exc:  # e.g. stdout is /dev/full, or a disk fills up while writing
        name = f" {exc.filename}" if getattr(exc, "filename", None) else ""
        sys.stderr.write(f"relations: error:{name} {exc.strerror or exc}\n")
        sys.exit(EXIT_BAD_INPUT)


# Commands defined in their own modules register themselves on ``app`` when imported.
from relations.cli import (  # noqa: E402
    _audit_command,  # noqa: E402,F401  (registers 'audit')
    _conjecture_command,  # noqa: E402,F401  (registers 'conjecture')
    _demo_command,  # noqa: E402,F401  (registers 'demo')
    _sweep_command,  # noqa: E402,F401  (registers 'sweep')
)

if __name__ == "__main__":  # pragma: no cover
    main()
