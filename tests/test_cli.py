"""``relations measure FILE [--json]`` as a subprocess: exit status, the SPEC JSON keys, infinities
as the strings "inf" / "-inf", and the human-readable table."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from fractions import Fraction

import pytest
from bruteforce import brute_all, local_pairs, text
from conftest import EXAMPLES, ROOT, run_cli

SPEC_KEYS = ("eps_i", "eps_d", "eps_m", "sigma_min")


def write(tmp_path, data, name="mech.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def measure_json(path):
    proc = run_cli("measure", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return json.loads(proc.stdout)


def test_module_entry_point_runs():
    proc = run_cli("measure", str(EXAMPLES / "paper_example.json"))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    for key in SPEC_KEYS:
        assert key in proc.stdout
    # the exact form of eps_d, derived: 0.65 / 0.35
    assert f"ln({Fraction('0.65') / Fraction('0.35')})" in proc.stdout


def test_json_has_spec_keys_and_numbers():
    out = measure_json(EXAMPLES / "paper_example_balanced.json")
    for key in SPEC_KEYS:
        assert isinstance(out[key], dict) and "value" in out[key]
        assert isinstance(out[key]["value"], float) and math.isfinite(out[key]["value"])
    assert out["eps_m"]["enclosure"] is not None and len(out["eps_m"]["enclosure"]) == 2
    lo, hi = (Fraction(s) for s in out["eps_m"]["enclosure"])
    assert lo <= Fraction(out["eps_m"]["value"]) <= hi or hi - lo < Fraction(1, 10**30)


@pytest.mark.parametrize("beta", ["1/4", "1/2", "0.999"])
def test_json_infinities_are_strings(tmp_path, beta):
    """The Thm 8 identity channel: eps_d = eps_i = +inf; a zero in the prior makes sigma_min -inf."""
    b = Fraction(beta)
    path = write(tmp_path, {"setting": "local", "prior": [beta, text(1 - b)], "channel": [["1", "0"], ["0", "1"]]})
    out = measure_json(path)
    for key in ("eps_d", "eps_i"):
        assert out[key]["value"] == "inf"
        assert out[key]["exact"] == "inf" and out[key]["ratio"] is None
        w = out[key]["witness"]
        assert w is not None and w["x_index"] != w["x_prime_index"]
        # the denominator of the witnessed ratio is an exact zero of the channel
        assert [[1, 0], [0, 1]][w["x_prime_index"]][w["y_index"]] == 0
    assert isinstance(out["eps_m"]["value"], float)
    assert isinstance(out["sigma_min"]["value"], float)


def test_json_minus_inf_sigma_min(tmp_path):
    prior = [Fraction(1), Fraction(0), Fraction(0)]
    channel = [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 3), Fraction(2, 3)], [Fraction(1), Fraction(0)]]
    path = write(tmp_path, {"setting": "local", "prior": [text(v) for v in prior],
                            "channel": [[text(v) for v in r] for r in channel]})
    out = measure_json(path)
    brute = brute_all(prior, channel, local_pairs(3))
    assert brute["sigma_min"][0] == 0  # ln 0
    assert out["sigma_min"]["value"] == "-inf" and out["sigma_min"]["exact"] == "-inf"
    w = out["sigma_min"]["witness"]
    assert (w["x_index"], w["x_prime_index"]) in brute["sigma_min"][1]
    assert "y" not in w or w["y"] is None
    # eps_i: only output columns with p(y) > 0 count, and the zero-prior rows make it infinite
    assert brute["eps_i"][0] == math.inf and out["eps_i"]["value"] == "inf"
    # eps_d is a property of the channel alone: (1/2) / 0 at output 1
    assert out["eps_d"]["value"] == "inf"
    # the whole output is valid JSON without NaN/Infinity literals
    json.loads(json.dumps(out), parse_constant=lambda c: pytest.fail(f"non-JSON constant {c}"))


def test_json_no_contributing_pair(tmp_path):
    """One input: nothing to compare; every budget is 0 with no witness, I(X;Y) = 0."""
    out = measure_json(write(tmp_path, {"setting": "local", "prior": ["1"], "channel": [["1/3", "2/3"]]}))
    for key in ("eps_d", "eps_i", "sigma_min"):
        assert out[key]["value"] == 0 and out[key]["witness"] is None
    assert out["eps_m"]["value"] == 0
    assert [Fraction(s) for s in out["eps_m"]["enclosure"]] == [0, 0]


def test_json_labels_in_witness(tmp_path):
    data = {"setting": "central", "domain": ["lo", "hi"], "records": 2, "prior": "uniform",
            "outputs": ["no", "yes"],
            "channel": [["1", "0"], ["3/4", "1/4"], ["3/4", "1/4"], ["1/2", "1/2"]]}
    out = measure_json(write(tmp_path, data))
    w = out["eps_d"]["witness"]
    # (lo,lo) -> "yes" has probability 0, its neighbours (lo,hi), (hi,lo) give 1/4 > 0: infinite ratio
    assert out["eps_d"]["value"] == "inf"
    assert w["x_prime"] == "(lo,lo)" and w["y"] == "yes" and w["x"] in ("(lo,hi)", "(hi,lo)")
    assert out["setting"] == "central" and out["inputs"] == "4" and out["outputs"] == "2"


def test_bits_option(tmp_path):
    proc = run_cli("measure", str(EXAMPLES / "paper_example.json"), "--json", "--bits", "300")
    assert proc.returncode == 0, proc.stderr
    lo, hi = (Fraction(s) for s in json.loads(proc.stdout)["eps_m"]["enclosure"])
    assert 0 < hi - lo <= Fraction(2, 10**90)


def test_file_is_not_modified(tmp_path):
    path = tmp_path / "copy.json"
    original = (EXAMPLES / "paper_example.json").read_bytes()
    path.write_bytes(original)
    assert run_cli("measure", str(path), "--json").returncode == 0
    assert path.read_bytes() == original


@pytest.mark.skipif(shutil.which("relations") is None, reason="console script not on PATH")
def test_console_script():
    proc = subprocess.run(["relations", "measure", str(EXAMPLES / "paper_example.json"), "--json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert set(SPEC_KEYS) <= set(json.loads(proc.stdout))


def test_version_does_not_import_the_framework_and_measure_not_the_checker():
    """``--version`` is answered before typer is imported; ``measure`` imports neither the checker nor sympy."""
    import sys

    code = ("import sys\nfrom relations.__main__ import main\ntry:\n    main({argv!r})\nexcept SystemExit as e:\n"
            "    assert e.code in (0, None), e.code\nprint(sorted(m for m in ('typer', 'relations.checking._checker', "
            "'sympy', 'z3', 'scipy') if m in sys.modules), file=sys.stderr)")
    seen = {}
    for name, argv in {"version": ["--version"], "measure": ["measure", str(EXAMPLES / "paper_example.json")]}.items():
        proc = subprocess.run([sys.executable, "-c", code.format(argv=argv)], capture_output=True, text=True,
                              cwd=ROOT, timeout=120)
        assert proc.returncode == 0, proc.stderr
        seen[name] = proc.stderr.strip().splitlines()[-1]
    assert seen["version"] == "[]"
    assert seen["measure"] == "[]"  # a common measure runs without typer (relations.cli._measure_fast)


@pytest.mark.parametrize("command", ["verify", "check", "optimize", "audit", "figures"])
def test_help_shows_no_type_tags(command):
    res = run_cli(command, "--help")
    assert res.returncode == 0, res.stderr
    assert "<str>" not in res.stdout and "<bool>" not in res.stdout and "<int" not in res.stdout, res.stdout


def test_choices_are_case_insensitive(tmp_path):
    upper = run_cli("optimize", "--prior", "1/2,1/2", "--notion", "EPS_D", "--eps", "1")
    lower = run_cli("optimize", "--prior", "1/2,1/2", "--notion", "eps_d", "--eps", "1")
    old = run_cli("optimize", "--prior", "1/2,1/2", "--notion", "dp", "--eps", "1")  # the 0.2 name
    assert upper.returncode == lower.returncode == old.returncode == 0, upper.stderr
    assert upper.stdout == lower.stdout == old.stdout and "optimal eps_d mechanism, eps_d <= 1" in lower.stdout
    bad = run_cli("optimize", "--prior", "1/2,1/2", "--notion", "eps_dd", "--eps", "1")
    assert bad.returncode == 2 and "one of eps_d, eps_i, eps_m" in bad.stderr and "did you mean 'eps_d'" in bad.stderr


def test_ctrl_c_in_a_command_says_so_and_exits_130(monkeypatch, capsys):
    # typer turns a KeyboardInterrupt into exit status 130 silently; the command line says one line
    import relations.cli as cli

    def interrupted() -> None:
        raise KeyboardInterrupt

    registered = list(cli.app.registered_commands)
    monkeypatch.setattr(cli.app, "registered_commands", registered)  # the extra command goes away afterwards
    cli.app.command("interrupted-for-a-test")(interrupted)
    with pytest.raises(SystemExit) as exc:
        cli.main(["interrupted-for-a-test"])
    assert exc.value.code == 130
    assert capsys.readouterr().err == "relations: interrupted\n"


def test_figures_without_matplotlib_is_one_line(tmp_path):
    """matplotlib is an extra: without it, 'relations figures' says how to install it (exit 2), no traceback."""
    import subprocess
    import sys

    blocker = tmp_path / "sitecustomize.py"  # hide matplotlib from the child process
    blocker.write_text("import sys\nsys.modules['matplotlib'] = None\n")
    env = {**__import__("os").environ, "PYTHONPATH": __import__("os").pathsep.join([str(tmp_path), str(ROOT)])}
    out = subprocess.run([sys.executable, "-m", "relations", "figures", "--out", str(tmp_path / "f")],
                         capture_output=True, text=True, env=env)
    assert out.returncode == 2 and "[figures]" in out.stderr and "Traceback" not in out.stderr
    assert "pip install 'matplotlib>=3.7'" in out.stderr and out.stderr.count("\n") == 1
