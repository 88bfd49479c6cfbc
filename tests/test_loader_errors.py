"""Bad input (docs/claims-and-verdicts.md): every kind of bad input is one line on stderr naming what and where, exit
status 2, no traceback, and the user's file left untouched.

Each case is run through the command line's entry point in-process, and a selection also through the real
command line (``python -m relations.cli measure FILE``) as a subprocess: one case of each class of bad input in
the default run, the rest of the selection with ``-m slow``.  JSON cases are also checked in-process
(``relations.loads`` raises :class:`relations.InputError`).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT, cli_command

import relations

BASE = {"setting": "local", "prior": ["1/2", "1/2"], "channel": [["1/2", "1/2"], ["1/4", "3/4"]]}
CENTRAL = {"setting": "central", "domain": ["a", "b"], "records": 2, "prior": "uniform",
           "channel": [["1", "0"], ["1/2", "1/2"], ["1/3", "2/3"], ["0", "1"]]}
EDGES = {"setting": "central", "neighbours": [[0, 1], [1, 2]], "prior": ["1/3", "1/3", "1/3"],
         "channel": [["1"], ["1"], ["1"]]}
PRODUCT = {"setting": "central", "domain": ["a", "b"], "records": 3, "prior": "uniform",
           "channel": {"product": [["1/2", "1/2"], ["1/4", "3/4"]]}}


def variant(base, **changes):
    data = json.loads(json.dumps(base))
    for key, value in changes.items():
        key = key.rstrip("_")
        if value is DROP:
            data.pop(key)
        else:
            data[key] = value
    return json.dumps(data)


DROP = object()

# name -> (file content: str (UTF-8 text) or bytes, tokens that the message must contain)
JSON_CASES: dict[str, tuple[str | bytes, tuple[str, ...]]] = {
    # unreadable / not JSON
    "not_utf8": (b'{"setting": "local", "prior": ["\xff"]}', ("UTF-8",)),
    "empty_file": ("", ("JSON",)),
    "truncated_json": ('{"setting": "local", "prior": ["1"],', ("line 1",)),
    "trailing_garbage": (variant(BASE) + " {}", ("JSON",)),
    "single_quotes": ("{'setting': 'local'}", ("JSON",)),
    "deep_nesting": ("[" * 100_000 + "]" * 100_000, ("JSON",)),
    "top_level_list": ('[["1/2", "1/2"]]', ("object",)),
    # shapes
    "ragged_rows": (variant(BASE, channel=[["1/2", "1/2"], ["1"]]), ("channel[1]",)),
    "prior_too_long": (variant(BASE, prior=["1/3", "1/3", "1/3"]), ("prior",)),
    "prior_too_short": (variant(BASE, prior=["1"]), ("prior",)),
    "k_pow_r_mismatch": (variant(CENTRAL, channel=CENTRAL["channel"][:3]), ("channel", "2^2")),
    "k_pow_r_huge_mismatch": (variant(CENTRAL, domain=[str(i) for i in range(10)], records=100), ("channel",)),
    "central_prior_length": (variant(CENTRAL, prior=["1/2", "1/2"]), ("prior",)),
    "empty_channel": (variant(BASE, channel=[]), ("channel",)),
    "empty_row": (variant(BASE, channel=[[], []]), ("channel[0]",)),
    "row_not_a_list": (variant(BASE, channel=["1", "1"]), ("channel[0]",)),
    "product_rows_vs_domain": (variant(PRODUCT, domain=["a", "b", "c"]), ("channel.product",)),
    "product_prior_count": (variant(PRODUCT, prior={"product": [["1/2", "1/2"]]}), ("prior.product",)),
    "product_prior_factor_length": (variant(PRODUCT, prior={"product": [["1"], ["1"], ["1"]]}), ("prior.product[0]",)),
    "product_extra_key": (variant(PRODUCT, channel={"product": [["1"], ["1"]], "x": 1}), ("channel",)),
    "product_in_local": (variant(BASE, channel={"product": [["1"], ["1"]]}), ("central",)),
    "inputs_wrong_count": (variant(BASE, inputs=["a", "b", "c"]), ("inputs",)),
    "outputs_duplicate": (variant(BASE, outputs=["y", "y"]), ("outputs",)),
    "label_boolean": (variant(BASE, inputs=["a", True]), ("inputs[1]",)),
    # non-stochastic
    "row_sums_below_one": (variant(BASE, channel=[["0.5", "0.4"], ["1/4", "3/4"]]), ("channel[0]",)),
    "row_sums_above_one": (variant(BASE, channel=[["1/2", "1/2"], ["1/4", "0.76"]]), ("channel[1]",)),
    "prior_not_one": (variant(BASE, prior=["0.5", "0.6"]), ("prior",)),
    # fraction text must sum to exactly 1; decimals and floats within FLOAT_TOLERANCE (1e-9) of 1
    "near_one_not_exact": (variant(BASE, prior=["1/3", "6666666666/10000000000"]), ("prior",)),
    "float_literals_beyond_tolerance": ('{"setting": "local", "prior": [0.1, 0.2, 0.7000001], '
                                        '"channel": [[1], [1], [1]]}', ("prior",)),
    # negative entries
    "negative_channel": (variant(BASE, channel=[["-0.5", "1.5"], ["1/4", "3/4"]]), ("channel[0][0]",)),
    "negative_prior": (variant(BASE, prior=["3/2", "-1/2"]), ("prior[1]",)),
    "negative_zero_sum": (variant(BASE, channel=[["1/2", "1/2"], ["-1/4", "5/4"]]), ("channel[1][0]",)),
    # NaN / Infinity literals and strings
    "nan_literal": ('{"setting": "local", "prior": [NaN, 1], "channel": [[1], [1]]}', ("NaN", "prior")),
    "infinity_literal": ('{"setting": "local", "prior": [1, 0], "channel": [[Infinity, 1], [1]]}', ("Infinity",)),
    "minus_infinity_literal": ('{"setting": "local", "prior": [1], "channel": [[-Infinity]]}', ("Infinity",)),
    "nan_string": (variant(BASE, prior=["nan", "1"]), ("prior[0]",)),
    "inf_string": (variant(BASE, channel=[["inf", "0"], ["1", "0"]]), ("channel[0][0]",)),
    # bad number strings
    "word": (variant(BASE, prior=["abc", "1/2"]), ("prior[0]",)),
    "divide_by_zero": (variant(BASE, channel=[["1/0", "0"], ["1/4", "3/4"]]), ("channel[0][0]",)),
    "expression": (variant(BASE, channel=[["0.5+0.5", "0"], ["1/4", "3/4"]]), ("channel[0][0]",)),
    "python_code": (variant(BASE, prior=["__import__('os').system('true')", "1/2"]), ("prior[0]",)),
    "double_fraction": (variant(BASE, prior=["1/2/1", "1/2"]), ("prior[0]",)),
    "hex": (variant(BASE, prior=["0x1", "0"]), ("prior[0]",)),
    "empty_string": (variant(BASE, prior=["", "1"]), ("prior[0]",)),
    "vulgar_fraction": (variant(BASE, prior=["\u00bd", "1/2"]), ("prior[0]",)),
    "huge_exponent": (variant(BASE, prior=["1e-999999999", "1"]), ("prior[0]",)),
    "too_many_digits": (variant(BASE, prior=["0." + "0" * 5000 + "5", "1/2"]), ("prior[0]",)),
    "too_many_digits_fraction": (variant(BASE, prior=["1/" + "3" * 5000, "1"]), ("prior[0]",)),
    "sum_with_huge_numerator": (variant(BASE, prior=["9" * 400 + "e4000", "1"]), ("prior",)),
    # booleans, null, wrong JSON types
    "boolean_true": ('{"setting": "local", "prior": [true, false], "channel": [[1], [1]]}', ("prior[0]",)),
    "boolean_in_channel": ('{"setting": "local", "prior": [1], "channel": [[false, 1]]}', ("channel[0][0]",)),
    "null_entry": ('{"setting": "local", "prior": [null, 1], "channel": [[1], [1]]}', ("prior[0]",)),
    "object_entry": (variant(BASE, prior=[{"p": 1}, "0"]), ("prior[0]",)),
    "prior_a_number": (variant(BASE, prior=1), ("prior",)),
    "prior_bad_keyword": (variant(BASE, prior="Uniform"), ("prior",)),
    # settings and keys
    "unknown_setting": (variant(BASE, setting="global"), ("setting", "global")),
    "setting_not_string": (variant(BASE, setting=1), ("setting",)),
    "missing_setting": (variant(BASE, setting=DROP), ("setting",)),
    "missing_prior": (variant(BASE, prior=DROP), ("prior",)),
    "missing_channel": (variant(BASE, channel=DROP), ("channel",)),
    "central_missing_domain": (variant(CENTRAL, domain=DROP), ("domain",)),
    "central_missing_records": (variant(CENTRAL, records=DROP), ("records",)),
    "records_zero": (variant(CENTRAL, records=0), ("records",)),
    "records_string": (variant(CENTRAL, records="2"), ("records",)),
    "records_fractional": ('{"setting": "central", "domain": ["a"], "records": 2.5, "prior": ["1"], '
                           '"channel": [["1"]]}', ("records",)),
    "records_negative": (variant(CENTRAL, records=-2), ("records",)),
    "records_boolean": (variant(CENTRAL, records=True), ("records",)),
    "unknown_key": (variant(BASE, neighbors=[[0, 1]]), ("neighbors",)),
    "domain_in_local": (variant(BASE, domain=["a", "b"]), ("domain",)),
    "empty_domain": (variant(CENTRAL, domain=[]), ("domain",)),
    # neighbour edges
    "edge_out_of_range": (variant(EDGES, neighbours=[[0, 1], [1, 3]]), ("neighbours[1]",)),
    "edge_self_loop": (variant(EDGES, neighbours=[[0, 1], [2, 2]]), ("neighbours[1]",)),
    "edge_not_a_pair": (variant(EDGES, neighbours=[[0, 1, 2]]), ("neighbours[0]",)),
    "edge_single": (variant(EDGES, neighbours=[[0]]), ("neighbours[0]",)),
    "edge_strings": (variant(EDGES, neighbours=[["0", "1"]]), ("neighbours[0]",)),
    "edge_negative": (variant(EDGES, neighbours=[[-1, 0]]), ("neighbours[0]",)),
    "edge_fractional": ('{"setting": "central", "neighbours": [[0.5, 1]], "prior": ["1/2", "1/2"], '
                        '"channel": [["1"], ["1"]]}', ("neighbours[0]",)),
    "edge_boolean": (variant(EDGES, neighbours=[[True, 0]]), ("neighbours[0]",)),
    "edges_not_a_list": (variant(EDGES, neighbours="all"), ("neighbours",)),
    "edges_with_product": (variant(PRODUCT, neighbours=[[0, 1]]), ("neighbours",)),
}


def write_npz(path: Path, **arrays) -> None:
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)


Q = np.array([[0.5, 0.5], [0.25, 0.75]])
P = np.array([0.5, 0.5])

# name -> (arrays for np.savez, or raw bytes; tokens)
NPZ_CASES: dict[str, tuple[dict | bytes, tuple[str, ...]]] = {
    "npz_missing_channel": ({"prior": P}, ("channel",)),
    "npz_missing_prior": ({"channel": Q}, ("prior",)),
    "npz_nan_channel": ({"prior": P, "channel": np.array([[np.nan, 1.0], [0.25, 0.75]])}, ("channel[0][0]",)),
    "npz_inf_prior": ({"prior": np.array([np.inf, 0.0]), "channel": Q}, ("prior",)),
    "npz_row_sum": ({"prior": P, "channel": np.array([[0.5, 0.5], [0.25, 0.7499]])}, ("channel[1]",)),
    "npz_prior_sum": ({"prior": np.array([0.5, 0.4]), "channel": Q}, ("prior",)),
    "npz_negative": ({"prior": P, "channel": np.array([[1.5, -0.5], [0.25, 0.75]])}, ("channel[0][1]",)),
    "npz_prior_shape": ({"prior": np.array([1.0]), "channel": Q}, ("prior",)),
    "npz_channel_1d": ({"prior": np.array([1.0]), "channel": np.array([1.0])}, ("channel",)),
    "npz_channel_strings": ({"prior": P, "channel": np.array([["a", "b"], ["c", "d"]])}, ("channel",)),
    "npz_object_array": ({"prior": P, "channel": np.array([[0.5, 0.5], [0.25, 0.75]], dtype=object)}, ("npz",)),
    "npz_unknown_setting": ({"prior": P, "channel": Q, "setting": np.array("global")}, ("setting",)),
    "npz_central_missing_records": ({"prior": np.full(4, 0.25), "channel": np.eye(4), "setting": np.array("central"),
                                     "domain_size": np.array(2)}, ("records",)),
    "npz_central_mismatch": ({"prior": np.full(4, 0.25), "channel": np.eye(4), "setting": np.array("central"),
                              "records": np.array(3), "domain_size": np.array(2)}, ("channel",)),
    "npz_central_records_not_scalar": ({"prior": np.full(4, 0.25), "channel": np.eye(4),
                                        "setting": np.array("central"), "records": np.array([2]),
                                        "domain_size": np.array(2)}, ("records",)),
    "npz_garbage": (b"PK\x03\x04 this is not a zip archive", ("npz",)),
}


def _make_cases(root: Path):
    """Write every case to disk; return name -> (argument path, tokens, original bytes or None)."""
    cases = {}
    for name, (content, tokens) in JSON_CASES.items():
        path = root / f"{name}.json"
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        path.write_bytes(data)
        cases[name] = (path, tokens, data)
    for name, (content, tokens) in NPZ_CASES.items():
        path = root / f"{name}.npz"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            write_npz(path, **content)
        cases[name] = (path, tokens, path.read_bytes())
    missing = root / "does_not_exist.json"
    cases["missing_file"] = (missing, ("does_not_exist.json",), None)
    directory = root / "a_directory.json"
    directory.mkdir()
    cases["directory"] = (directory, ("a_directory.json",), None)
    return cases


ALL_NAMES = sorted(list(JSON_CASES) + list(NPZ_CASES) + ["missing_file", "directory"])
#: At least one case of every class of bad input, run as a real subprocess (every case runs the same entry point
#: in-process, test_bad_input_cli_entry_point, which is much faster).  Each subprocess costs about 0.3 s of CPU:
#: the default run takes the first case of each class, ``-m slow`` the others.
SUBPROCESS_CLASSES = {
    "a file that cannot be read": ["missing_file", "directory"],
    "JSON syntax": ["truncated_json", "nan_literal", "infinity_literal"],
    "shapes": ["ragged_rows", "prior_too_long", "k_pow_r_mismatch"],
    "probabilities": ["row_sums_below_one", "negative_channel"],
    "numbers": ["word", "divide_by_zero", "expression"],
    "number limits": ["too_many_digits"],
    "JSON types": ["boolean_true"],
    "keys and settings": ["unknown_setting", "missing_prior"],
    "neighbour edges": ["edge_out_of_range"],
    ".npz archives": ["npz_nan_channel", "npz_missing_channel", "npz_row_sum"],
}
SUBPROCESS_NAMES = sorted(n for names in SUBPROCESS_CLASSES.values() for n in names)
SUBPROCESS_DEFAULT = {names[0] for names in SUBPROCESS_CLASSES.values()}


@pytest.fixture(scope="module")
def case_files(tmp_path_factory):
    return _make_cases(tmp_path_factory.mktemp("bad_inputs"))


def check_failure(name, case_files, returncode, stdout, stderr):
    path, tokens, original = case_files[name]
    assert returncode == 2, (returncode, stderr[-2000:])
    assert "Traceback" not in stderr and "Traceback" not in stdout
    assert stdout == ""
    lines = stderr.splitlines()
    assert len(lines) == 1 and stderr.endswith("\n"), stderr[-2000:]
    message = lines[0]
    assert len(message) < 1000, message[:200]
    for token in tokens:
        assert token in message, (token, message)
    if original is not None:  # nothing the user gave is changed
        assert path.read_bytes() == original


def test_subprocess_selection_covers_known_cases():
    assert set(SUBPROCESS_NAMES) <= set(ALL_NAMES)


@pytest.mark.parametrize("name", [n if n in SUBPROCESS_DEFAULT else pytest.param(n, marks=pytest.mark.slow)
                                  for n in SUBPROCESS_NAMES])
def test_bad_input_cli_subprocess(case_files, name):
    proc = subprocess.run(cli_command("measure", str(case_files[name][0])), capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    check_failure(name, case_files, proc.returncode, proc.stdout, proc.stderr)


@pytest.mark.parametrize("name", ALL_NAMES)
def test_bad_input_cli_entry_point(case_files, capsys, name):
    """The same entry point the ``relations`` command runs, called in-process."""
    from relations.cli import main

    with pytest.raises(SystemExit) as info:
        main(["measure", str(case_files[name][0])])
    out = capsys.readouterr()
    check_failure(name, case_files, info.value.code, out.out, out.err)


@pytest.mark.parametrize("name", sorted(n for n, (c, _) in JSON_CASES.items() if isinstance(c, str)))
def test_bad_json_in_process(name):
    content, tokens = JSON_CASES[name]
    with pytest.raises(relations.InputError) as info:
        relations.loads(content, source="case.json")
    message = str(info.value)
    assert "\n" not in message and message.startswith("case.json")
    for token in tokens:
        assert token in message


def test_also_with_json_flag(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(variant(BASE, prior=["abc", "1/2"]))
    proc = subprocess.run(cli_command("measure", str(path), "--json"), capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2 and proc.stdout == "" and len(proc.stderr.splitlines()) == 1


def test_all_base_mechanisms_are_valid():
    """The tables above are single-fault variants of these valid mechanisms."""
    for base in (BASE, CENTRAL, EDGES, PRODUCT):
        relations.measure(relations.loads(json.dumps(base)))
    with open(ROOT / "examples" / "paper_example.json") as fh:
        relations.from_dict(json.load(fh))


@pytest.mark.parametrize("data", [
    {"setting": "local", "prior": [0.5, 0.5], "channel": [[1], [1]]},  # Python floats, exact dyadics: fine
    {"setting": "central", "domain": [1, 2], "records": 1, "prior": ["1/2", "1/2"], "channel": [["1"], ["1"]]},
    {"setting": "central", "neighbours": [[0, 1]], "prior": ["1/2", "1/2"], "channel": [["1"], ["1"]]},
])
def test_from_dict_accepts_plain_python_values(data):
    """A dict built in code or parsed by the standard json module (ints, not JSON literal text)."""
    relations.measure(relations.from_dict(data))


@pytest.mark.parametrize("change", [
    {"neighbours": [[-1, 0]]}, {"neighbours": [[0, True]]}, {"neighbours": [[0, 1.0]]}, {"neighbours": [[0, 3]]},
    {"records": -1}, {"records": True}, {"records": 2.0}, {"records": 0},
    {"prior": [float("nan"), 1]}, {"prior": [float("inf"), 0]}, {"prior": [True, False]},
])
def test_from_dict_rejects_bad_python_values(change):
    """The same rules for a dict built in code: negative or boolean indices, non-finite floats."""
    data = {"setting": "central", "neighbours": [[0, 1]], "prior": ["1/2", "1/2"], "channel": [["1"], ["1"]]}
    if "records" in change:
        data = {"setting": "central", "domain": ["a"], "records": 1, "prior": ["1"], "channel": [["1"]]}
    data.update(change)
    with pytest.raises(relations.InputError) as info:
        relations.from_dict(data)
    assert "\n" not in str(info.value)


def test_records_with_explicit_neighbours_are_still_validated(tmp_path):
    """``records`` is optional with ``neighbours``, but a bad value is an error, not ignored."""
    import relations

    spec = {"setting": "central", "neighbours": [[0, 1]], "records": -5, "prior": "uniform",
            "channel": [["1/2", "1/2"], ["1", "0"]]}
    with pytest.raises(relations.InputError, match="records"):
        relations.from_dict(spec)


@pytest.mark.parametrize(("channel", "prior", "field"), [
    ({"mechanism": "krr", "k": " 3", "ratio": "2"}, "uniform", "'k'"),
    ({"mechanism": "krr", "k": "3 ", "ratio": "2"}, "uniform", "'k'"),
    ({"mechanism": "krr", "k": "3\n", "ratio": "2"}, "uniform", "'k'"),
    ({"mechanism": "krr", "k": 3, "ratio": " 2"}, "uniform", "ratio"),
    ([["0.65", "0.35"], ["0.35", "0.65"]], [" 1/2", "1/2"], "prior"),
    ([["0.65 ", "0.35"], ["0.35", "0.65"]], ["1/2", "1/2"], "channel"),
])
def test_numbers_in_text_are_exactly_as_the_format_says(channel, prior, field):
    """Digits and number text are accepted only as docs/mechanism-files.md spells them: no spaces around."""
    text = json.dumps({"setting": "local", "prior": prior, "channel": channel})
    with pytest.raises(relations.InputError, match=field):
        relations.loads(text)
    fixed = json.loads(text)  # the same file without the spaces loads
    fixed["prior"] = [p.strip() for p in prior] if isinstance(prior, list) else prior
    fixed["channel"] = ({k: v.strip() if isinstance(v, str) else v for k, v in channel.items()}
                        if isinstance(channel, dict) else [[e.strip() for e in row] for row in channel])
    assert relations.loads(json.dumps(fixed)).channel.exact[0][0] > 0
