"""The README a newcomer starts from: short, the two commands first, a result that is the tool's own output."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
LINES = README.splitlines()


def _blocks() -> list[tuple[int, str, str]]:
    """(first line number, language, text) of every fenced block."""
    out, i = [], 0
    while i < len(LINES):
        if LINES[i].startswith("```"):
            lang, start, i = LINES[i][3:].strip(), i + 1, i + 1
            while not LINES[i].startswith("```"):
                i += 1
            out.append((start + 1, lang, "\n".join(LINES[start:i])))
        i += 1
    return out


def test_the_readme_is_short_and_starts_with_the_two_commands():
    assert len(LINES) <= 200
    shell = [(n, text) for n, lang, text in _blocks() if lang == "sh"]
    (n1, install), (n2, tests) = shell[:2]
    assert install.strip() == "python -m pip install -q -e . && relations verify" and n1 <= 30
    assert tests.strip() == "bash .ci/run" and n2 <= 30
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1].startswith("python -m pytest"), ".ci/run ends with the test command"
    assert any(line.startswith("nice -n 19 bash .ci/evidence ") for line in ci), "and runs the evidence checks beside"
    assert not re.search(r"quieter day|\b20\d\d-\d\d-\d\d\b", README), "dated measurements belong in docs/"


def test_the_result_shown_is_what_the_tool_prints():
    """Every table line of the README's example output is a line of the command's output at 100 columns."""
    (block,) = [text for _, lang, text in _blocks() if lang == "text" and text.startswith("$ relations check")]
    command = block.splitlines()[0][2:].split()
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
    run = subprocess.run([sys.executable, "-m", "relations", *command[1:]], capture_output=True, text=True,
                         cwd=ROOT, env=env, timeout=120)
    assert run.returncode == 0, run.stderr  # a failing catalogue relation is a finding, not a failed claim
    printed = {line.rstrip() for line in run.stdout.splitlines()}
    shown = [line.rstrip() for line in block.splitlines()[1:] if line[:1] in "┏┃┡│└"]
    assert len(shown) >= 10
    assert [line for line in shown if line not in printed] == []


def test_the_tally_quoted_is_the_committed_evidence():
    verdicts = json.loads((ROOT / "proofs" / "verdicts.json").read_text(encoding="utf-8"))
    rows = verdicts["verdicts"] if isinstance(verdicts, dict) else verdicts
    counts = Counter(str(row["verdict"]) for row in rows)
    (quoted,) = re.findall(r"`(\d+) relations: ([^;`]+); evidence in relations-evidence`", README)
    assert int(quoted[0]) == len(rows)
    assert dict((v, int(n)) for n, v in re.findall(r"(\d+) ([a-z-]+)", quoted[1])) == dict(counts)


def test_every_relative_link_resolves():
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", README):
        assert (ROOT / target).exists(), target
