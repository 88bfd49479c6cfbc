"""The audit's options as one value (issue 47 item 2): built once, validated, shared by the command line, the
application runner and the API, each default and range stated once."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from relations.audit import AuditOptions, NotEnumerable, audit
from relations.audit._options import parse_bins
from relations.errors import InputError


def _rr(x, rng):
    return x if rng.random() < 0.75 else 1 - x


def test_the_options_are_immutable_and_validated():
    options = AuditOptions(samples=10, seed=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.seed = 3  # type: ignore[misc]
    assert options.replace(seed=3).seed == 3 and options.seed == 2
    for bad, flag in [({"max_paths": 0}, "--max-paths"), ({"samples": 0}, "--samples"), ({"seed": -1}, "--seed"),
                      ({"seconds": 0.0}, "--time-budget"), ({"memory_mb": -1}, "--memory"),
                      ({"workers": 257}, "--workers"), ({"samples": 2.5}, "--samples"),
                      ({"timeout": float("nan")}, "--timeout"), ({"bins": 1}, "--bins"), ({"bins": ()}, "--bins"),
                      ({"bins": (0.0, float("inf"))}, "--bins")]:
        with pytest.raises(InputError, match=flag):
            AuditOptions(**bad)
    with pytest.raises(InputError, match="alpha"):
        AuditOptions(alpha=1.0)
    with pytest.raises(TypeError):
        AuditOptions().replace(no_such_option=1)
    assert AuditOptions(bins=[2, -1.5]).bins == (-1.5, 2.0)  # edges sorted, as floats
    assert AuditOptions(timeout=None).timeout is None  # no limit


def test_bins_text():
    assert parse_bins(None) is None and parse_bins(" 7 ") == 7
    assert parse_bins("3, 1,1, 2") == (1.0, 2.0, 3.0)
    for text in ("1", "10001", "a,b", ",", "1,inf"):
        with pytest.raises(InputError, match="--bins"):
            parse_bins(text)


def test_the_command_line_states_no_default_of_its_own():
    """Every audit option of ``relations audit`` takes its flag, default, help and range from AuditOptions;
    only ``--workers`` has the command's own default (one per core)."""
    import typer.models

    from relations.cli._audit_command import audit as command

    fields = {f.metadata["flag"]: f for f in dataclasses.fields(AuditOptions)}
    seen = set()
    for parameter in inspect.signature(command).parameters.values():
        option = parameter.default
        if not isinstance(option, typer.models.OptionInfo) or option.param_decls[0] not in fields:
            continue
        f = fields[option.param_decls[0]]
        seen.add(f.name)
        assert option.help == f.metadata["help"]
        if isinstance(f.default, bool):
            assert option.default is False  # a flag (--black-box is white_box=False)
        elif f.name != "workers":
            assert option.default == f.default, f.name
        assert (option.min, option.max) == ((f.metadata["low"], f.metadata["high"])
                                            if f.metadata["low"] is not None else (None, None)), f.name
    assert seen == {f.name for f in dataclasses.fields(AuditOptions)} - {"alpha"}


def test_the_api_takes_the_object_or_the_keywords():
    by_keywords = audit(_rr, domain=[0, 1], eps="ln(3)", max_paths=50, seconds=30.0)
    by_object = audit(_rr, domain=[0, 1], eps="ln(3)", options=AuditOptions(max_paths=50, seconds=30.0))
    assert by_keywords.summary() == by_object.summary()
    assert by_object.verdict == "consistent"
    with pytest.raises(NotEnumerable, match="more than 1 paths"):  # the object's budget is the one used
        audit(_rr, domain=[0, 1], options=AuditOptions(max_paths=1))
    with pytest.raises(InputError, match="workers, out"):  # an option a function's audit cannot honour is said
        audit(_rr, domain=[0, 1], options=AuditOptions(workers=2, out="x.json"))
