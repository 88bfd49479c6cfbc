"""``relations measure FILE --notion NAME``: the further notions next to the four budgets.

Expected values by hand for binary randomized response with ratio 3 (rows (3/4, 1/4), (1/4, 3/4)):
``delta(0) = 3/4 - 1/4 = 1/2``, ``maximal_leakage = ln(3/4 + 3/4) = ln(3/2)``,
``kl = (3/4) ln 3 + (1/4) ln(1/3) = (1/2) ln 3``, ``renyi(2) = ln((3/4)^2/(1/4) + (1/4)^2/(3/4)) = ln(7/3)``.
"""

from __future__ import annotations

import csv
import io
import json
import math
import subprocess
import sys

from conftest import run_cli

RR3 = {"setting": "local", "prior": ["1/2", "1/2"], "channel": [["3/4", "1/4"], ["1/4", "3/4"]]}


def _measure(tmp_path, *args):
    path = tmp_path / "rr3.json"
    path.write_text(json.dumps(RR3), encoding="utf-8")
    return run_cli("measure", str(path), *args, timeout=600)  # in this process (tests/conftest.py)


def test_notions_in_json_match_hand_values(tmp_path):
    run = _measure(tmp_path, "--json", "--notion", "delta(0)", "--notion", "maximal_leakage", "--notion", "kl",
                   "--notion", "renyi(2)", "--notion", "kl")
    assert run.returncode == 0, run.stderr
    rows = {r["name"]: r for r in json.loads(run.stdout)["notions"]}
    assert list(rows) == ["delta(0)", "maximal_leakage", "kl", "renyi(2)"]  # repeated names once, in order
    assert rows["delta(0)"]["exact"] == "1/2"
    assert rows["maximal_leakage"]["exact"] == "ln(3/2)"
    assert rows["renyi(2)"]["exact"] == "ln(7/3)"
    lo, hi = (float(x) for x in rows["kl"]["enclosure"])
    assert abs(lo - 0.5 * math.log(3)) < 1e-12 and abs(hi - 0.5 * math.log(3)) < 1e-12
    assert rows["kl"]["witness"]["x"] in ("0", 0)


def test_all_and_csv(tmp_path):
    run = _measure(tmp_path, "--notion", "ALL", "--format", "csv")
    assert run.returncode == 0, run.stderr
    names = [r["name"] for r in csv.DictReader(io.StringIO(run.stdout))]
    assert names[:4] == ["eps_i", "eps_d", "eps_m", "sigma_min"]
    assert {"rho", "kl", "renyi(2)", "maximal_leakage", "min_entropy_leakage", "cmi"} <= set(names[4:])


def test_bad_notion_is_one_line_before_the_file_is_read(tmp_path):
    run = subprocess.run([sys.executable, "-m", "relations", "measure", str(tmp_path / "missing.json"), "--notion",
                          "renyi(1/2)x"], capture_output=True, text=True, timeout=600)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr
    assert "missing.json" not in run.stderr
