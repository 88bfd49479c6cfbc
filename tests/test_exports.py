"""``--format {table,json,latex,csv}`` of ``measure``, ``check`` and ``verify``: the CSV read back with
the csv module equals the ``--json`` of the same command; the LaTeX is booktabs with balanced braces,
every relation id (escaped) and a comment naming the version and the input, and compiles when
``pdflatex`` is installed; exit statuses are those of the table and JSON; the tables fit 80 columns."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT, run_cli

from relations import __version__
from relations.io._exports import breakable_id, latex_math, to_csv, to_latex

# about writes and tables, not proofs: verify skips its Coq check here (tests/test_coq_proofs.py covers it)
pytestmark = pytest.mark.usefixtures("no_coq_checks")

PAPER = str(EXAMPLES / "paper_example.json")
CLAIMS = ["--claim", "eps_d<=ln(13/7)", "--claim", "eps_m<1e-3"]  # the second fails: exit status 1


def rows(text: str) -> list[dict[str, str]]:
    assert text.endswith("\r\n")  # RFC 4180 line ends
    return list(csv.DictReader(io.StringIO(text, newline="")))


def cell(value) -> str:
    """What a JSON value is as a CSV field."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


def balanced(tex: str) -> bool:
    depth = 0
    for ch in re.sub(r"(?<!\\)\\[{}]", "", tex.replace("\\\\", "")):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def run_raw(*args: str) -> subprocess.CompletedProcess:
    """Like ``run_cli`` (in this process), without translating line ends (CSV's are ``\\r\\n``)."""
    return run_cli(*args, raw=True)


def both(*args):
    """The command's ``--json`` object and its ``--format csv`` and ``--format latex`` runs."""
    as_json = run_cli(*args, "--json")
    as_csv = run_raw(*args, "--format", "csv")
    as_tex = run_cli(*args, "--format", "LaTeX")  # choices are case-insensitive
    for proc in (as_csv, as_tex):
        assert proc.returncode == as_json.returncode, proc.stderr
        assert proc.stderr == ""
    return json.loads(as_json.stdout), as_csv, as_tex


@pytest.mark.parametrize("name", ["paper_example.json", "paper_example_balanced.json"])
def test_measure_csv_equals_json(name):
    obj, as_csv, as_tex = both("measure", str(EXAMPLES / name))
    assert as_csv.returncode == 0
    table = rows(as_csv.stdout)
    assert [r["name"] for r in table] == ["eps_i", "eps_d", "eps_m", "sigma_min"]
    for r in table:
        item = obj[r["name"]]
        assert r["value"] == cell(item["value"])
        assert r["value"] in ("inf", "-inf") or float(r["value"]) == item["value"]
        if r["name"] == "eps_m":
            assert [r["lower"], r["upper"]] == item["enclosure"]
        else:
            assert r["exact"] == item["exact"]
    tex = as_tex.stdout
    assert tex.startswith(f"% relations {__version__}: relations measure {EXAMPLES / name}\n")
    assert balanced(tex) and all(rule in tex for rule in ("\\begin{tabular}", "\\toprule", "\\midrule", "\\bottomrule"))
    assert "$\\varepsilon_d$" in tex and "$\\sigma_{\\min}$" in tex


def test_check_csv_equals_json_and_exit_status():
    obj, as_csv, as_tex = both("check", PAPER, *CLAIMS)
    assert as_csv.returncode == 1  # a --claim fails: as documented, whatever the format
    table = rows(as_csv.stdout)
    relations = [r for r in table if r["kind"] != "claim"]
    claims = [r for r in table if r["kind"] == "claim"]
    assert [r["id"] for r in relations] == [o["id"] for o in obj["relations"]]
    for r, o in zip(relations, obj["relations"]):
        assert (r["setting"], r["claim"], r["status"], r["holds"]) == (o["setting"], o["symbols"], o["status"],
                                                                       cell(o["holds"]))
        for part in ("premise", "conclusion", "bound", "slack"):
            expected = o[part] or {}
            assert r[part] == cell(expected.get("value")) and r[f"{part}_exact"] == cell(expected.get("exact"))
        assert r["note"] == o["note"]
    assert [(c["claim"], c["status"], c["holds"], c["conclusion"]) for c in claims] == \
        [(c["claim"], c["status"], cell(c["holds"]), cell(c["value"]["value"])) for c in obj["claims"]]
    thm4 = next(r for r in relations if r["id"] == "zheng2025.thm4")
    assert (thm4["status"], thm4["slack_exact"], thm4["witness"]) == ("fails", "ln(1/361)", "x=1, x'=2, y=1")

    tex = as_tex.stdout
    assert as_tex.returncode == 1
    assert tex.startswith(f"% relations {__version__}: relations check {PAPER} ")  # the whole command, then packages
    assert tex.splitlines()[0].lower().endswith("--format latex") and tex.splitlines()[1].startswith("% needs \\usepackage{")
    assert balanced(tex)
    # budgets, relations (a longtable: its header twice, for the first page and the next), claims
    assert tex.count("\\bottomrule") == 3 and tex.count("\\begin{longtable}") == 1
    assert tex.count("\\toprule") == tex.count("\\midrule") == 4
    for o in obj["relations"]:
        assert breakable_id(o["id"]) in tex
    assert breakable_id("relations.thm4_corrected") in tex and "$\\ln\\frac{13}{7}$" in tex
    assert "$\\varepsilon_m < 10^{-3}$ & fails" in tex


def test_check_without_claims_exits_0_and_bad_input_exits_2(tmp_path):
    for fmt in ("csv", "latex"):
        assert run_cli("check", PAPER, "--format", fmt).returncode == 0
        bad = run_cli("check", PAPER, "--format", fmt, "--claim", "eps_q <= 1")
        assert bad.returncode == 2 and bad.stdout == "" and bad.stderr.startswith("relations: error:")
    missing = run_cli("measure", str(tmp_path / "missing.json"), "--format", "csv")
    assert missing.returncode == 2 and missing.stdout == ""


@pytest.mark.parametrize("args, message", [
    (["--format", "xml"], "--format must be one of table, json, latex, csv, got 'xml'"),
    (["--format", "cvs"], "did you mean 'csv'?"),
    (["--json", "--format", "latex"], "cannot be combined with --format latex"),
])
def test_bad_format_is_bad_input(args, message):
    for command in (["measure", PAPER], ["check", PAPER], ["verify", "--only", "zheng2025.thm4"]):
        proc = run_cli(*command, *args)
        assert proc.returncode == 2 and proc.stdout == "", proc.stderr
        assert message in proc.stderr and proc.stderr.count("\n") == 1


def test_json_flag_and_format_json_agree():
    assert run_cli("measure", PAPER, "--json").stdout == run_cli("measure", PAPER, "--format", "Json").stdout


def test_verify_csv_and_latex_equal_json(tmp_path):
    ids = ["zheng2025.thm4", "zheng2025.thm3"]  # refuted (a witness file) and proved (a lemma file), fast
    args = ["verify", "--quick", "--out", str(tmp_path / "proofs")] + [a for i in ids for a in ("--only", i)]
    obj, as_csv, as_tex = both(*args)
    assert as_csv.returncode == 0
    table = rows(as_csv.stdout)
    assert [r["id"] for r in table] == [v["id"] for v in obj["relations"]] == ids
    for r, v in zip(table, obj["relations"]):
        assert (r["statement"], r["setting"], r["verdict"], r["evidence"], r["tightness"]) == \
            (v["statement"], v["setting"], v["verdict"], v["evidence"], cell(v["tightness"]))
        files = [v[k] for k in ("witness_file", "full_witness_file", "proof_file", "family_file") if v[k]]
        assert r["files"].split(";") == files and all(os.path.exists(os.path.join(obj["out"], f)) for f in files)
    tex = as_tex.stdout
    assert tex.startswith(f"% relations {__version__}: relations verify --quick --seed 2025\n")
    assert balanced(tex) and "\\toprule" in tex and "\\bottomrule" in tex
    for v in obj["relations"]:
        assert breakable_id(v["id"]) in tex and f"& {v['verdict']} &" in tex


def test_special_characters_are_escaped_and_csv_quoted():
    obj = {"relations": [{"id": "my_rel&1", "statement": "eps_d <= 50% {x}", "setting": "local",
                          "verdict": "unrefuted", "scope": None, "evidence": 'a, "b"\nc ~ d^2 #3 $4 \\ <x> |y|',
                          "witness_file": None, "proof_file": None, "family_file": None, "tightness": 0.5}],
           "quick": False, "seed": 1, "complete": True}
    tex = to_latex("verify", obj)
    assert balanced(tex)
    assert "\\texttt{my\\_\\allowbreak{}rel\\&1}" in tex
    assert "\\textasciitilde{} d\\textasciicircum{}2 \\#3 \\$4 \\textbackslash{} \\textless{}x\\textgreater{}" in tex
    assert "\\text{eps\\_d \\textless{}= 50\\% \\{x\\}}" in tex  # not a formula: escaped text, still compiles
    (back,) = rows(to_csv("verify", obj))
    assert back["evidence"] == obj["relations"][0]["evidence"] and back["id"] == "my_rel&1"


@pytest.mark.parametrize("text, expected", [
    ("ln(13/7)", "\\ln\\frac{13}{7}"),
    ("ln(19)", "\\ln 19"),
    ("eps_m <= 2(eps_i - sigma_min)", "\\varepsilon_m \\le 2 (\\varepsilon_i - \\sigma_{\\min})"),
    ("eps_m < inf  =/=>  eps_d < inf", "\\varepsilon_m < \\infty \\;\\not\\Rightarrow\\; \\varepsilon_d < \\infty"),
    ("kl <= eps_d (e^eps_d - 1)", "\\mathrm{KL} \\le \\varepsilon_d (e^{\\varepsilon_d} - 1)"),
    ("eps_all <= diam * eps_d", "\\varepsilon_{\\mathrm{all}} \\le \\operatorname{diam} \\cdot \\varepsilon_d"),
])
def test_latex_math(text, expected):
    assert latex_math(text) == expected


def test_check_table_fits_80_columns():
    proc = run_cli("check", PAPER, *CLAIMS, env=dict(os.environ, COLUMNS="80"))
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80
    assert "notes are left out below 120 columns" in proc.stdout
    obj = json.loads(run_cli("check", PAPER, "--json").stdout)
    for o in obj["relations"]:  # every id whole, on one line (not applicable ones in the closing list)
        assert re.search(rf"(^|[│ ]){re.escape(o['id'])}([ ,]|$)", proc.stdout, re.M), o["id"]
    assert "witness x=1, x'=2, y=1" in proc.stdout


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_latex_compiles(tmp_path):
    parts = {"measure": run_cli("measure", PAPER, "--format", "latex"),
             "check": run_cli("check", PAPER, *CLAIMS, "--format", "latex"),
             "verify": run_cli("verify", "--quick", "--format", "latex", "--out", str(tmp_path / "proofs"),
                               timeout=1800)}
    for name, proc in parts.items():
        assert proc.returncode == (1 if name == "check" else 0), proc.stderr
        (tmp_path / f"{name}.tex").write_text(proc.stdout, encoding="utf-8")
    (tmp_path / "doc.tex").write_text("\\documentclass{article}\n\\usepackage{booktabs,longtable,amsmath,array}\n"
                                      "\\begin{document}\n\\input{measure}\n\n\\input{check}\n\n\\input{verify}\n"
                                      "\\end{document}\n", encoding="utf-8")
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 0


def test_check_latex_tables_only_and_applicable_only():
    """--table picks the tables, --only the relations, --applicable-only drops the ones of the other setting;
    the filters apply to --json too (the ids compared with the catalogue's, read independently)."""
    from relations.catalogue import CATALOGUE

    one = run_cli("check", PAPER, "--format", "latex", "--table", "relations", "--only", "zheng2025.thm3",
                  "--only", "kov2017.dp_tv")
    assert one.returncode == 0, one.stderr
    assert one.stdout.count("\\bottomrule") == 1 and "\\begin{tabular}" in one.stdout  # two rows: no longtable
    assert breakable_id("zheng2025.thm3") in one.stdout and breakable_id("kov2017.dp_tv") in one.stdout
    assert "thm1}" not in one.stdout
    assert "\\varepsilon_i" in one.stdout and "quantity" not in one.stdout  # no budgets table
    obj = json.loads(run_cli("check", PAPER, "--json", "--applicable-only").stdout)
    local = [r.id for r in CATALOGUE if r.setting in ("local", "both")]  # the paper's example is local
    assert [r["id"] for r in obj["relations"]] == local
    for args, message in ((["--table", "budgets"], "--table needs --format latex"),
                          (["--format", "latex", "--table", "nope"], "one of budgets, relations, composition, claims"),
                          (["--only", "zheng2025.thm99"], "no such relation")):
        bad = run_cli("check", PAPER, *args)
        assert bad.returncode == 2 and message in bad.stderr and bad.stderr.count("\n") == 1, (args, bad.stderr)


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
@pytest.mark.parametrize("name", ["paper_example.json", "golden/mechanisms/product_2.json",
                                  "golden/mechanisms/graph_1.json"])
def test_latex_fits_a_one_column_article(tmp_path, name):
    """check (all tables) and measure --notion all, compiled twice by pdflatex in a plain one-column article:
    no error and no overfull box in the log (long exact forms go to comments, long labels are elided).

    Both commands' tables are set in one article, each from a page of its own (the log names the file of each
    overfull box), which halves the pdflatex runs."""
    path = str(EXAMPLES / name) if "/" not in name else str(ROOT / "tests" / name)
    for kind, args in (("check", ["check", path, "--claim", "rho <= 1/10", "--format", "latex"]),
                       ("measure", ["measure", path, "--notion", "all", "--format", "latex"])):
        out = run_cli(*args)
        assert out.returncode in (0, 1), out.stderr
        (tmp_path / f"{kind}.tex").write_text(out.stdout, encoding="utf-8")
    (tmp_path / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage{booktabs,longtable,amsmath,array}\n\\begin{document}\n"
        "\\input{check}\n\\clearpage\n\\input{measure}\n\\end{document}\n", encoding="utf-8")
    for _ in range(2):  # longtable settles its column widths on the second run
        proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stdout[-2000:]
    log = (tmp_path / "doc.log").read_text(errors="replace")
    assert "(./check.tex" in log and "(./measure.tex" in log
    assert "Overfull" not in log, [line for line in log.splitlines() if "Overfull" in line]


def test_symbolic_latex_uses_ln_and_compiles(tmp_path):
    """symbolic --format latex: \\ln (not sympy's \\log), simplified where shorter, and pdflatex compiles it."""
    out = run_cli("symbolic", "krr", "--k", "3", "--format", "latex")
    assert out.returncode == 0, out.stderr
    assert "\\ln" in out.stdout and "\\log" not in out.stdout and "\\varepsilon" in out.stdout
    assert len(out.stdout.splitlines()) == 4 and all(line.startswith("$") for line in out.stdout.splitlines())
    if shutil.which("pdflatex") is None:
        return
    (tmp_path / "s.tex").write_text("\\documentclass{article}\n\\usepackage{amsmath}\n\\begin{document}\n"
                                    + out.stdout.replace("\n", "\n\n") + "\\end{document}\n", encoding="utf-8")
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "s.tex"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:]


def _overfull(log: str) -> list[float]:
    """The overfull boxes of a pdflatex log above 1 pt (``Overfull \\hbox (12.3pt too wide)``, vbox too high)."""
    import re

    return [float(x) for x in re.findall(r"Overfull \\[hv]box \(([\d.]+)pt too", log) if float(x) > 1.0]


def _compile(tmp_path, name: str, documentclass: str, body: str) -> str:
    (tmp_path / f"{name}.tex").write_text(
        f"{documentclass}\n\\usepackage{{booktabs,longtable,amsmath,array}}\n\\begin{{document}}\n{body}\n"
        "\\end{document}\n", encoding="utf-8")
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    log = (tmp_path / f"{name}.log").read_text(errors="replace")
    assert proc.returncode == 0, [line for line in log.splitlines() if line.startswith("!")][:3]
    return log


def _two_column_classes() -> list[str]:
    """A two-column article, and IEEEtran (Debian's texlive-publishers) where TeX has it."""
    found = subprocess.run(["kpsewhich", "IEEEtran.cls"], capture_output=True, text=True).stdout.strip()
    return ["\\documentclass[twocolumn]{article}"] + (["\\documentclass[conference]{IEEEtran}"] if found else [])


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_check_latex_table_star_fits_a_two_column_paper(tmp_path):
    """``check --format latex --latex-env table*`` in a two-column article: it compiles (the default, a
    longtable, does not: 'longtable not in 1-column mode'), no overfull box above 1 pt, and the catalogue ids
    may break (``relations.thm2_corrected`` is wider than its column otherwise)."""
    out = run_cli("check", PAPER, "--claim", "eps_d <= ln(2)", "--format", "latex", "--latex-env", "table*")
    assert out.returncode in (0, 1), out.stderr
    assert "\\begin{table*}" in out.stdout and "\\begin{longtable}" not in out.stdout
    assert "relations.\\allowbreak{}thm2\\_\\allowbreak{}corrected" in out.stdout
    log = _compile(tmp_path, "two", "\\documentclass[twocolumn]{article}", out.stdout)
    assert _overfull(log) == [], [line for line in log.splitlines() if "Overfull" in line]
    bad = run_cli("check", PAPER, "--latex-env", "table*")
    assert bad.returncode == 2 and "--latex-env needs --format latex" in bad.stderr
    bad = run_cli("check", PAPER, "--format", "latex", "--latex-env", "supertabular")
    assert bad.returncode == 2 and "not one of" in bad.stderr and bad.stderr.count("\n") == 1


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_every_latex_table_fits_one_and_two_column_papers(tmp_path):
    """measure, check and verify (the committed evidence) as LaTeX: ``auto``, ``longtable`` and ``table*`` in a
    one-column article (and ``tabular`` for the short budgets' table), ``table*`` in the two-column ones (and
    IEEEtran where installed), each compiled with no overfull box above 1 pt."""
    import json

    from relations import check
    from relations.checking._encoding import check_json
    from relations.io._exports import to_latex
    from relations.io._reports import measures_json
    from relations.mechanisms import paper_example

    mech = paper_example()
    from relations import measure

    objs = {"measure": measures_json(mech, measure(mech)),
            "check": check_json(check(mech, ["eps_d <= ln(2)"])),
            "verify": {"relations": json.loads((ROOT / "proofs" / "verdicts.json").read_text()), "seed": 2025}}
    cases = [("\\documentclass{article}", env) for env in ("auto", "longtable", "table*")]
    cases += [(cls, "table*") for cls in _two_column_classes()]
    cases += [("\\documentclass{article}", "tabular")]
    n = 0
    for cls, env in cases:
        for kind, obj in objs.items():
            if env == "tabular" and kind != "measure":
                continue  # a long tabular is taller than a page: table* splits it
            n += 1
            log = _compile(tmp_path, f"doc{n}", cls, to_latex(kind, obj, env=env))
            assert _overfull(log) == [], (cls, env, kind, [line for line in log.splitlines() if "Overfull" in line])


RR4_REPEAT = {"setting": "local", "prior": "uniform", "repeat": 3,
              "channel": [["1/2" if i == j else "1/6" for j in range(4)] for i in range(4)]}


def _repeat_file(tmp_path, data=None) -> str:
    path = tmp_path / "rr4_x3.json"
    path.write_text(json.dumps(data or RR4_REPEAT), encoding="utf-8")
    return str(path)


def test_check_exports_the_composition_theorems(tmp_path):
    """On a 'repeat' file the composition theorems are rows of the CSV (kind 'composition', equal to the JSON's
    composition_relations) and a table of the LaTeX (--table composition picks it)."""
    from relations.catalogue._composition import COMPOSITION_RELATIONS

    path = _repeat_file(tmp_path)
    obj, as_csv, as_tex = both("check", path, "--claim", "eps_d <= ln(27)")
    assert as_csv.returncode == 0 and obj["composition"]["uses"] == 3
    table = rows(as_csv.stdout)
    theorems = [r for r in table if r["kind"] == "composition"]
    assert [r["id"] for r in theorems] == [r.id for r in COMPOSITION_RELATIONS]  # the catalogue's, read directly
    kinds = [r["kind"] for r in table]
    assert kinds.index("composition") > max(i for i, k in enumerate(kinds) if k not in ("composition", "claim"))
    assert kinds[-1] == "claim"
    for r, o in zip(theorems, obj["composition_relations"]):
        assert (r["claim"], r["status"], r["holds"], r["note"]) == (o["symbols"], o["status"], cell(o["holds"]),
                                                                    o["note"])
        for part in ("premise", "conclusion", "bound", "slack"):
            expected = o[part] or {}
            assert r[part] == cell(expected.get("value")) and r[f"{part}_exact"] == cell(expected.get("exact"))
    # 4-RR's profile lies below binary RR's of the same ratio (the optimal theorem is attained by binary RR only)
    profile = next(r for r in theorems if r["id"] == "kov2017.repeat_profile")
    assert profile["status"] == "holds" and float(profile["conclusion"]) < float(profile["bound"])
    assert profile["premise_exact"] == "ln(3)"
    tex = as_tex.stdout
    assert balanced(tex)
    for o in obj["composition_relations"]:
        assert breakable_id(o["id"]) in tex
    assert "composition theorem & status" in tex and "% composition theorems on 3 uses" in tex
    only = run_cli("check", path, "--format", "latex", "--table", "composition")
    assert only.returncode == 0 and only.stdout.count("\\bottomrule") == 1
    assert breakable_id("drv2010.advanced") in only.stdout and "quantity" not in only.stdout


def test_check_only_names_composition_theorems(tmp_path):
    path = _repeat_file(tmp_path)
    obj = json.loads(run_cli("check", path, "--json", "--only", "drv2010.advanced",
                             "--only", "kov2017.repeat_profile").stdout)
    assert obj["relations"] == [] and [r["id"] for r in obj["composition_relations"]] == \
        ["kov2017.repeat_profile", "drv2010.advanced"]
    assert obj["composition"]["measures_of"] == "the counts of each output"
    mixed = json.loads(run_cli("check", path, "--json", "--only", "zheng2025.thm3", "--only", "bs2016.zcdp_repeat").stdout)
    assert [r["id"] for r in mixed["relations"]] == ["zheng2025.thm3"]
    assert [r["id"] for r in mixed["composition_relations"]] == ["bs2016.zcdp_repeat"]
    near = run_cli("check", path, "--only", "drv2010.advance")
    assert near.returncode == 2 and "did you mean 'drv2010.advanced'" in near.stderr and near.stderr.count("\n") == 1
    one_use = run_cli("check", PAPER, "--only", "drv2010.advanced")
    assert one_use.returncode == 2 and "composition theorem" in one_use.stderr and one_use.stderr.count("\n") == 1


def test_check_and_measure_read_a_repeat_from_standard_input(tmp_path):
    """Standard input is read once; with 'repeat' it is the composition, as the same file is."""
    path = _repeat_file(tmp_path)
    text = Path(path).read_text(encoding="utf-8")
    for command in (["check", "--json"], ["measure", "--json"]):
        from_file = json.loads(run_cli(command[0], path, *command[1:]).stdout)
        piped = run_cli(command[0], "-", *command[1:], input=text)  # in this process, text on its standard input
        assert piped.returncode == 0, piped.stderr
        got = json.loads(piped.stdout)
        assert got["composition"] == from_file["composition"], command
        if command[0] == "check":
            assert got["composition_relations"] == from_file["composition_relations"]
            assert got["measures"]["eps_d"]["exact"] == "ln(27)"  # three uses, not one (ln 3)
        else:
            assert got["eps_d"]["exact"] == from_file["eps_d"]["exact"] == "ln(27)"
    csv_piped = run_cli("check", "-", "--format", "csv", input=text.encode(), raw=True)
    assert sum(r["kind"] == "composition" for r in rows(csv_piped.stdout)) == 6
    plain = run_cli("check", "-", "--json", input=Path(PAPER).read_text(encoding="utf-8"))
    assert plain.returncode == 0 and "composition" not in json.loads(plain.stdout)


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_composition_latex_compiles_without_overfull_boxes(tmp_path):
    proc = run_cli("check", _repeat_file(tmp_path), "--format", "latex")
    assert proc.returncode == 0, proc.stderr
    (tmp_path / "check.tex").write_text(proc.stdout, encoding="utf-8")
    (tmp_path / "doc.tex").write_text("\\documentclass{article}\n\\usepackage{booktabs,longtable,amsmath,array}\n"
                                      "\\begin{document}\n\\input{check}\n\\end{document}\n", encoding="utf-8")
    for _ in range(2):
        out = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stdout[-2000:]
    log = (tmp_path / "doc.log").read_text(errors="replace")
    assert "Overfull" not in log, [line for line in log.splitlines() if "Overfull" in line]
