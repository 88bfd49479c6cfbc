"""Hostile text is shown as text, and the last tracebacks go (issue 32, items 6-8).

Labels with terminal escapes, rich markup and bidi overrides through every command that prints them;
a closed or broken standard output; terminal encodings without the tables' characters; integers past
Python's int-string limit at every reader; ``.npz`` archives with too many members; undefined arithmetic
in conjectures; an unusable cache folder.  Expected texts are written out by hand in each test.
"""

from __future__ import annotations

import io
import json
import os
import signal
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, cli_command, run_cli
from hypothesis import given
from hypothesis import strategies as st

from relations.errors import InputError
from relations.io._text import TerminalText, console, safe

#: A label that retitles the terminal (OSC 0 ... BEL) and clears it (CSI 2J), as written in the file, and
#: as it must be shown (every control character a visible escape).
TITLE = "\x1b]0;PWNED\x07a\x1b[2J"
TITLE_SHOWN = r"\x1b]0;PWNED\x07a\x1b[2J"
#: Markup that rich would interpret ('[/]' crashed, '[bold]A' showed as 'A') and a right-to-left override.
CLOSE, BOLD, BIDI = "[/]", "[bold]A", "\u202eB"
BIDI_SHOWN = r"\u202eB"
#: Characters that must never reach a terminal raw.
RAW = ("\x1b", "\x07", "\u202e")


def _hostile_file(tmp_path: Path) -> Path:
    """Binary randomized response at e^eps = 3 with hostile labels: eps_d = eps_i = ln 3 (by hand: 3/4 / 1/4)."""
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps({"setting": "local", "inputs": [TITLE, CLOSE], "outputs": [BOLD + BIDI, "o"],
                                "prior": ["1/2", "1/2"], "channel": [["3/4", "1/4"], ["1/4", "3/4"]]}))
    return path


def _run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """The command line (in this process: tests/conftest.py), 250 columns wide (labels are shown whole)."""
    return run_cli(*args, timeout=timeout, env={**os.environ, "COLUMNS": "250"})


def _no_raw(proc) -> None:
    for stream in (proc.stdout, proc.stderr):
        for ch in RAW:
            assert ch not in stream, (ch, stream[:400])
    assert "Traceback" not in proc.stderr, proc.stderr


# ------------------------------------------------------------------ the one function


@pytest.mark.parametrize("text,shown", [
    ("plain label", "plain label"),
    (TITLE, TITLE_SHOWN),
    ("tab\there\nnext\rback", r"tab\there\nnext\rback"),
    ("\x00\x7f\x85\x9b", r"\x00\u007f\u0085\u009b"),  # NUL, DEL, NEL and CSI (C1)
    ("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069", r"\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"),
    ("\u200e\u200f\u061c", r"\u200e\u200f\u061c"),
    ("\udcff", r"\udcff"),  # a lone surrogate (a file name read with surrogateescape)
    (CLOSE + BOLD, CLOSE + BOLD),  # markup is text: the consoles interpret none
    ("café ≤ ∞ — 日本", "café ≤ ∞ — 日本"),
])
def test_safe_escapes_controls_and_bidi(text, shown):
    assert safe(text) == shown


def test_safe_keeps_line_breaks_only_when_asked():
    assert safe("a\nb\tc", newlines=True, tabs=True) == "a\nb\tc"
    assert safe("a\nb\tc") == r"a\nb\tc"


def _unsafe(c: str) -> bool:
    """The characters the issue names (C0, DEL, C1, the bidi controls) and lone surrogates, listed again here."""
    o = ord(c)
    return (o < 0x20 or 0x7F <= o <= 0x9F or 0x202A <= o <= 0x202E or 0x2066 <= o <= 0x2069
            or o in (0x200E, 0x200F, 0x061C) or 0xD800 <= o <= 0xDFFF)


@given(st.text(st.characters(codec=None)))
def test_safe_leaves_no_unsafe_character_and_changes_nothing_else(text):
    out = safe(text)
    assert not any(_unsafe(c) for c in out)
    if not any(_unsafe(c) for c in text):
        assert out == text
    else:
        assert len(out) > len(text)  # an escape is longer than what it stands for


def test_console_interprets_no_markup_and_escapes_even_inside_text_objects():
    from rich.text import Text

    out = io.StringIO()
    c = console(file=out, width=60, force_terminal=True, color_system="standard")
    c.print(CLOSE + " " + BOLD)  # crashed (MarkupError) or lost its brackets before
    c.print(Text("x" + TITLE, style="bold"))  # a Text object bypasses render_str: the last guard escapes it
    text = out.getvalue()
    assert CLOSE + " " + BOLD in text
    assert "x" + TITLE_SHOWN.replace(r"\x07", "") in text  # rich's Text drops BEL, BS, VT, FF and CR itself
    assert "\x1b[1m" in text  # rich's own bold survives: only the label's escapes are neutralised
    assert "\x1b]" not in text and "\x1b[2J" not in text and "\x07" not in text


def test_terminal_text_escapes_and_fits_the_encoding():
    raw = io.BytesIO()
    inner = io.TextIOWrapper(raw, encoding="latin-1")
    stream = TerminalText(inner)
    assert stream.write("é — \x1b[2J\n") == 9  # the characters given, as TextIOBase.write counts
    stream.flush()
    assert raw.getvalue() == "é \\u2014 \\x1b[2J\n".encode("latin-1")
    with pytest.raises(TypeError):
        stream.write(b"bytes")  # click probes binary streams with b"": this one is text


def test_every_console_of_the_tool_is_the_safe_one():
    """A plain ``rich.console.Console`` anywhere would interpret markup in labels again."""
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "relations").rglob("*.py")
                 if p.name != "_terminal.py" and "Console(" in p.read_text(encoding="utf-8")]
    assert offenders == []


# ------------------------------------------------------------------ through the commands


def test_measure_and_check_show_labels_as_text(tmp_path):
    path = _hostile_file(tmp_path)
    for args, status in ((("measure", str(path)), 0), (("check", str(path), "--claim", "eps_d <= 2"), 0),
                         (("check", str(path), "--claim", "eps_d <= 1"), 1),  # ln 3 > 1: the claim fails
                         (("measure", str(path), "--tradeoff"), 0), (("measure", str(path), "--notion", "all"), 0),
                         (("measure", str(path), "--format", "csv"), 0),
                         (("check", str(path), "--format", "latex"), 0)):
        proc = _run(*args)
        assert proc.returncode == status, (args, proc.stderr)
        _no_raw(proc)
        assert "--format" in args or "\\[" not in proc.stdout  # no markup escapes left ('Q\\[x]' for Q[x])
        if "--format" not in args and "--notion" not in args:  # (--notion's table names witnesses by index)
            assert TITLE_SHOWN in proc.stdout and CLOSE in proc.stdout
        if args[2:] in ((), ("--claim", "eps_d <= 2"), ("--claim", "eps_d <= 1")):  # output labels in witnesses
            assert BOLD in proc.stdout and BIDI_SHOWN in proc.stdout  # '[bold]A' shown as written


def test_json_stays_valid_with_del_in_a_label(tmp_path):
    """DEL and the C1 controls are escaped as \\uNNNN, which JSON reads back, should one reach a JSON output."""
    path = tmp_path / "del.json"
    path.write_text(json.dumps({"setting": "local", "inputs": ["a\x7f", "b"], "outputs": ["0", "1"],
                                "prior": ["1/2", "1/2"], "channel": [["3/4", "1/4"], ["1/4", "3/4"]]}))
    proc = _run("measure", str(path), "--json")
    assert proc.returncode == 0 and "\x7f" not in proc.stdout
    assert json.loads(proc.stdout)["eps_d"]["witness"]["x"] in ("a\x7f", "b")


def test_printed_results_in_python_show_labels_as_text(tmp_path):
    """``print(measure(m))`` and ``print(check(m, ...))`` in a notebook: the same escapes as the command line."""
    from relations import check, load, measure

    mech = load(str(_hostile_file(tmp_path)))
    for text in (str(measure(mech)), str(check(mech, ["eps_d <= 2"]))):
        assert TITLE_SHOWN in text and CLOSE in text and BOLD + BIDI_SHOWN in text
        assert not any(ch in text for ch in RAW)


def test_json_output_keeps_the_labels_exactly(tmp_path):
    proc = _run("measure", str(_hostile_file(tmp_path)), "--json")
    assert proc.returncode == 0, proc.stderr
    _no_raw(proc)  # JSON escapes control characters itself (and ensure_ascii the override)
    witness = json.loads(proc.stdout)["eps_d"]["witness"]
    assert ({witness["x"], witness["x_prime"]}, witness["y"]) == ({TITLE, CLOSE}, BOLD + BIDI)


def test_error_lines_escape_file_names_and_claims(tmp_path):
    bad = tmp_path / f"{TITLE}{BIDI}.json"
    for args in (("measure", str(bad)), ("check", str(_hostile_file(tmp_path)), "--claim", TITLE),
                 ("conjecture", f"eps_d <= {TITLE}"), ("verify", "--only", TITLE), ("symbolic", TITLE),
                 ("audit", f"{TITLE}.py:f", "--domain", "0,1")):
        proc = _run(*args)
        assert proc.returncode == 2, (args, proc.stderr)
        _no_raw(proc)
        assert proc.stderr.startswith("relations: error:") and proc.stderr.count("\n") == 1, proc.stderr
    assert TITLE_SHOWN in _run("measure", str(bad)).stderr


def test_audit_shows_domain_labels_and_target_output_as_text(tmp_path):
    target = tmp_path / "target.py"
    target.write_text("def f(x, rng):\n"
                      "    print('\\x1b]0;PWNED\\x07[bold]said[/]')\n"
                      "    return x if rng.random() < 0.75 else 'other'\n")
    for workers in ("1", "0"):
        proc = _run("audit", f"{target}:f", "--domain", f"{TITLE},{CLOSE}", "--eps", "2", "--workers", workers)
        assert proc.returncode in (0, 1), proc.stderr  # a verdict, whatever it is, and no traceback
        _no_raw(proc)
        assert TITLE_SHOWN in proc.stdout


def test_sweep_summary_escapes_its_folder(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"name": TITLE, "mechanism": "krr", "k": [2], "ratio": 2}))
    proc = _run("sweep", str(spec), "--out", str(tmp_path / f"out{TITLE}"), timeout=300)
    assert proc.returncode == 0, proc.stderr
    _no_raw(proc)
    assert f"out{TITLE_SHOWN}" in proc.stdout


def test_symbolic_k_below_two_says_what_is_wrong():
    proc = run_cli("symbolic", "krr", "--k", "-1")
    assert proc.returncode == 2
    assert proc.stderr == "relations: error: --k -1: krr needs a domain of at least 2 values\n"


# ------------------------------------------------------------------ closed stdout, encodings


def _hostile_run(tmp_path, env_extra, *args):
    env = {**os.environ, "COLUMNS": "200", **env_extra}  # wide enough that no label is elided, however the
    return subprocess.run(cli_command(*args), capture_output=True, timeout=120, cwd=ROOT, env=env)  # runner sets it


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_any_terminal_encoding_works(tmp_path, encoding):
    proc = _hostile_run(tmp_path, {"PYTHONIOENCODING": encoding}, "measure", str(_hostile_file(tmp_path)))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode(encoding)  # every byte is of the encoding
    assert "\\u2014" in out  # the title's em dash, as an escape
    assert TITLE_SHOWN in out and BIDI_SHOWN in out and b"\x1b" not in proc.stdout
    assert proc.stderr == b""


def test_an_error_in_a_narrow_encoding_is_one_line(tmp_path):
    proc = _hostile_run(tmp_path, {"PYTHONIOENCODING": "ascii"}, "measure", str(tmp_path / "été—.json"))
    assert proc.returncode == 2
    assert proc.stderr.decode("ascii").startswith("relations: error: cannot read ")
    assert b"\\xe9t\\xe9\\u2014" in proc.stderr


@pytest.mark.parametrize("args", [("catalogue",), ("measure", "examples/paper_example.json", "--json"),
                                  ("--version",), ("--help",)])
def test_closed_stdout_exits_quietly_with_sigpipe_status(args):
    """``relations ... >&-``: nothing can be written; status 141 (128 + SIGPIPE), nothing on stderr."""
    proc = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", *cli_command(*args)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert (proc.returncode, proc.stderr) == (141, "")


@pytest.mark.parametrize("args", [("catalogue",), ("measure", "examples/paper_example.json", "--json")])
def test_a_reader_that_goes_away_is_a_quiet_exit(args):
    """``relations ... | head -0``: the reader closes the pipe before anything is written."""
    proc = subprocess.Popen(cli_command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    assert (proc.wait(timeout=120), err) == (141, b"")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [("--version",), ("witness", "zheng2025.thm12"), ("catalogue", "--json")])
def test_a_full_disk_is_one_line(args):
    with open("/dev/full", "w") as full:
        proc = subprocess.run(cli_command(*args), stdout=full, stderr=subprocess.PIPE, text=True, timeout=120,
                              cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.startswith("relations: error:") and proc.stderr.count("\n") == 1, proc.stderr


# ------------------------------------------------------------------ integer-string limits

BIG = "1" * 5000  # past Python's 4300-digit int-string limit


def _mech(**overrides) -> dict:
    data = {"setting": "local", "inputs": ["a", "b"], "outputs": ["0", "1"], "prior": ["1/2", "1/2"],
            "channel": [["3/4", "1/4"], ["1/4", "3/4"]]}
    data.update(overrides)
    return data


@pytest.mark.parametrize("text,needle", [
    (json.dumps(_mech(setting="central", domain=["a", "b"], records="R", inputs=None)).replace('"R"', BIG)
     .replace('"inputs": null, ', ""), "key 'records'"),
    (json.dumps(_mech(setting="central", neighbours=[[0, "N"]])).replace('"N"', BIG), "neighbours[0]"),
    (json.dumps(_mech(channel=[["C", "1/4"], ["1/4", "3/4"]])).replace('"C"', BIG), "channel[0][0]"),
    (json.dumps(_mech(channel={"mechanism": "krr", "k": "K", "ratio": 2})).replace('"K"', BIG), "'k'"),
    (json.dumps(_mech(setting="central", domain=["a", "b"], records=2, inputs=None,
                      prior={"product": [{"prior": ["1/2", "1/2"], "records": "R"}]},
                      channel={"product": [["3/4", "1/4"], ["1/4", "3/4"]]})).replace('"inputs": null, ', "")
     .replace('"R"', BIG), "prior.product[0].records"),
    (json.dumps(_mech(setting="central", domain=["a", "b"], records=2, inputs=None,
                      prior={"product": [{"prior": ["1/2", "1/2"], "records": "\u00b2"}]},  # a digit to isdigit()
                      channel={"product": [["3/4", "1/4"], ["1/4", "3/4"]]})).replace('"inputs": null, ', ""),
     "prior.product[0].records"),
])
def test_long_integers_in_mechanism_files_are_one_line(text, needle):
    from relations.io._reading import loads

    with pytest.raises(InputError) as err:
        loads(text, source="m.json")
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_long_integers_in_the_other_readers_are_one_line():
    from relations.audit._report import parse_domain
    from relations.checking._claims import parse_claim
    from relations.io._conjecture_files import parse_conjecture_file
    from relations.sweeps._spec import parse_spec_text

    spec = '{"mechanism": "krr", "k": BIG, "ratio": 2}'.replace("BIG", BIG)
    conjectures = '{"conjectures": [{"id": "a", "statement": "eps_m <= eps_d", "setting": BIG}]}'.replace("BIG", BIG)
    cases = [(lambda: parse_spec_text(spec), "sweep spec"),
             (lambda: parse_conjecture_file(conjectures, where="c.json", setting="local"), "c.json"),
             (lambda: parse_domain(f"0,{BIG}"), "--domain"),
             (lambda: parse_domain(f"0,-{BIG}"), "--domain"),
             (lambda: parse_claim(f"eps_d <= {BIG}"), "claim"),
             (lambda: parse_claim(f"eps_d <= ln({BIG})"), "claim")]
    for call, needle in cases:
        with pytest.raises(InputError) as err:
            call()
        assert needle in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("args", [("audit", "x.py:f", "--domain", f"0,{BIG}"), ("audit", "x.py:f", "--bins", "²")])
def test_long_integers_on_the_command_line_are_one_line(args):
    proc = run_cli(*args)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_a_long_input_limit_in_the_environment_is_one_line(monkeypatch):
    from relations.io._inputs import LIMIT_VARIABLE, input_limit

    monkeypatch.setenv(LIMIT_VARIABLE, BIG)
    with pytest.raises(InputError, match="expected a whole number of bytes"):
        input_limit(False)


def test_long_records_in_a_file_through_the_command_line(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"setting": "central", "domain": ["a", "b"], "records": "R", "outputs": ["0"],
                                "prior": "uniform", "channel": [["1"]]}).replace('"R"', BIG))
    proc = run_cli("measure", str(path))
    assert proc.returncode == 2 and "key 'records'" in proc.stderr and proc.stderr.count("\n") == 1


# ------------------------------------------------------------------ .npz member counts


def _archive(members: int, name: bytes = b"a.npy", *, declared: int | None = None) -> bytes:
    """A zip of ``members`` empty stored members (their directory entries all point at one local header), written
    by hand; zip64 end records from 65535 members on.  ``declared`` overrides the count the end record gives."""
    local = struct.pack("<4s5H3I2H", b"PK\x03\x04", 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0) + name
    entry = struct.pack("<4s6H3I5H2I", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0, 0, 0, 0, 0,
                        0) + name
    directory = entry * members
    count = members if declared is None else declared
    if members < 0xFFFF:
        end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, count, count, len(directory), len(local), 0)
        return local + directory + end
    z64 = struct.pack("<4sQ2H2I4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, len(directory), len(local))
    locator = struct.pack("<4sIQI", b"PK\x06\x07", 0, len(local) + len(directory), 1)
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    return local + directory + z64 + locator + end


def test_the_generated_archives_are_what_zipfile_reads():
    import zipfile

    with zipfile.ZipFile(io.BytesIO(_archive(7))) as z:
        assert len(z.infolist()) == 7
    with zipfile.ZipFile(io.BytesIO(_archive(70_000))) as z:  # the zip64 end record
        assert len(z.infolist()) == 70_000


def test_a_million_empty_members_are_refused_before_anything_is_opened(monkeypatch):
    import relations.io._npz
    from relations.io._npz import npz_from_bytes

    def never(*args, **kwargs):  # zipfile alone takes seconds to list a million members: it must not be reached
        raise AssertionError("zipfile opened the archive")

    data = _archive(1_000_000)
    monkeypatch.setattr(relations.io._npz.zipfile, "ZipFile", never)
    with pytest.raises(InputError) as err:
        npz_from_bytes(data, source="many.npz")
    assert str(err.value).startswith("many.npz: the archive declares 1000000 members; an .npz mechanism file holds "
                                     "at most 6")


@pytest.mark.parametrize("data,needle", [(_archive(7), "declares 7 members"),
                                         (_archive(5000, declared=1), "central directory is 255000 bytes")])
def test_member_counts_and_directory_sizes_are_checked(data, needle):
    from relations.io._npz import npz_from_bytes

    with pytest.raises(InputError) as err:
        npz_from_bytes(data, source="m.npz")
    assert needle in str(err.value)


def test_a_crowded_archive_on_the_command_line(tmp_path):
    path = tmp_path / "many.npz"
    path.write_bytes(_archive(100_000))
    proc = run_cli("measure", str(path))
    assert proc.returncode == 2 and "declares 100000 members" in proc.stderr and proc.stderr.count("\n") == 1


# ------------------------------------------------------------------ undefined arithmetic


@pytest.mark.parametrize("statement,part", [
    ("eps_d <= 0^0", "0^0 is undefined (0 to a non-positive power)"),
    ("eps_m <= 1/0 + eps_d", "1/0 is undefined (division by zero)"),
    ("eps_d <= ln(0) - ln(0)", "ln(0) - ln(0) is undefined (inf - inf)"),
    ("eps_d <= 0 * ln(0)", "0*ln(0) is undefined (0 * inf)"),
    ("eps_d <= ln(-1)", "ln(-1) is undefined (ln of a negative number)"),
])
def test_an_undefined_constant_is_refused_before_any_search(statement, part):
    from relations.checking._conjecture_eval import parse_defined

    with pytest.raises(InputError) as err:
        parse_defined(statement)
    assert part in str(err.value)


def test_defined_constants_pass():
    from relations.checking._conjecture_eval import parse_defined

    for statement in ("eps_d <= ln(0) + 1", "eps_d^0 <= 1", "eps_d <= 2^(1/2)", "sigma_min <= 0^1"):
        assert parse_defined(statement).text == statement


def test_zero_to_the_zero_on_a_mechanism_is_undefined_never_refuted():
    """By hand: the noiseless binary channel has sigma_min = 0, so sigma_min^0 is 0^0 (undefined), and eps_d = inf,
    so eps_d^0 = 1 (inf^0 = 1: x^0 = 1 for every x > 0); randomized response at ratio 3 has eps_d = ln 3, and
    (ln 3)^0 = 1 > 1/2."""
    from relations.checking._conjecture_eval import decide
    from relations.checking._conjectures import parse_conjecture
    from relations.checking._quantities import values
    from relations.mechanisms import randomized_response
    from relations.model import Mechanism

    noiseless = Mechanism.local([[1, 0], [0, 1]])
    reals = values(noiseless).reals
    d = decide(parse_conjecture("sigma_min^0 <= 2"), reals)
    assert d.status == "undefined" and d.rhs == 2 and d.lhs != d.lhs  # nan: no value, never a refutation
    assert decide(parse_conjecture("eps_d^0 <= 1"), reals).status == "holds"
    rr = values(randomized_response(3)).reals
    assert decide(parse_conjecture("eps_d^0 <= 1/2"), rr).status == "fails"


def test_zero_to_the_zero_on_the_command_line():
    proc = run_cli("conjecture", "eps_d <= 0^0")
    assert proc.returncode == 2
    assert proc.stderr.startswith("relations: error: conjecture 'eps_d <= 0^0': 0^0 is undefined")


# ------------------------------------------------------------------ an unusable cache folder


def test_an_unusable_cache_folder_is_named_once_and_the_search_runs_on(tmp_path):
    (tmp_path / "cache").write_text("a file where the cache folder would be")
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_STORAGE_DIRECTORY"}
    env.update(XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    script = ("from relations.search._screening import generated\n"
              "assert len(generated('local', 5)) == 5 and len(generated('central', 5)) == 5\n")
    proc = subprocess.run([sys.executable, "-c", script], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == (f"relations: note: cache folder {tmp_path / 'cache' / 'relations'} is unusable "
                           "(Not a directory); running without a cache\n")
    assert list(cwd.iterdir()) == []  # no .hypothesis/ here either


def test_usable_cache_dir(monkeypatch, tmp_path, capsys):
    import relations._cache as cache

    monkeypatch.setattr(cache, "_NOTED", [])
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "fine"))
    assert cache.usable_cache_dir() == str(tmp_path / "fine" / "relations")
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    assert cache.usable_cache_dir() is None and cache.usable_cache_dir() is None
    assert capsys.readouterr().err.count("\n") == 1  # said once
    with cache.hypothesis_home() as home:
        assert home is not None and os.path.isdir(home) and not home.startswith(str(tmp_path))
    assert not os.path.exists(home)  # the temporary folder is gone


def test_the_last_line_after_a_ctrl_c_escapes_the_folder(tmp_path):
    """Interrupted at a write step (fault injection: SIGINT), the sweep's last line names its folder, with the
    folder's escape sequences shown as text: the line is written after standard error was silenced, through
    the real one kept aside (relations._processes.error_stream)."""
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"mechanism": "krr", "k": [2, 3], "ratio": ["2", "3"],
                                "relations": ["zheng2025.thm3"]}))
    out = tmp_path / f"sw{TITLE}"
    env = {**os.environ, "RELATIONS_CRASH_AT": "4", "RELATIONS_CRASH_SIGNAL": "INT"}
    # SIGINT with its default action in the child (as in a terminal), also when this run ignores it: a shell's
    # background job (``pytest ... &``) ignores SIGINT, and the tool then rightly leaves it ignored
    proc = subprocess.run(cli_command("sweep", str(spec), "--out", str(out), "--chunk-size", "1", "--workers", "0"),
                          capture_output=True, text=True, timeout=300, cwd=ROOT, env=env,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.returncode == 130, proc.stderr
    _no_raw(proc)
    assert proc.stderr.startswith("relations: interrupted; ") and proc.stderr.count("\n") == 1, proc.stderr
    assert f"kept in {tmp_path / 'sw'}{TITLE_SHOWN}: run the same command" in proc.stderr
