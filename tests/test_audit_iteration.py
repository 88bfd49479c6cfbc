"""Iteration over a vector of independent bits kept factorised (relations.audit._iteration), and one budget
for the whole audit.

Unary encoding over ``d`` inputs, written from the algorithm: each coordinate of the report is 1 with
probability ``p`` when it is the input's own, ``q`` otherwise, independently.  Two inputs ``x != x'`` differ in
coordinates ``x`` and ``x'`` only, so by hand

    eps_d = ln(p / q) + ln((1 - q) / (1 - p)) = ln(p (1 - q) / (q (1 - p)))

(the output with a 1 at ``x`` and a 0 at ``x'``), with ``p`` and ``q`` the exact binary values of the code's
float thresholds.  With ``p = 1/2`` and ``q = 1 / (e + 1)`` that is ``ln((1 - q) / q) = 1`` up to rounding.
"""

from __future__ import annotations

import itertools
import math
import textwrap
from fractions import Fraction

import numpy as np
import pytest
from conftest import run_cli

from relations.audit import audit
from relations.audit._enumerate import NotEnumerable
from relations.errors import InputError

P = 0.5
Q = 1 / (math.exp(1.0) + 1)
#: eps_d by hand, on the exact binary values of the thresholds.
RATIO = Fraction(P) * (1 - Fraction(Q)) / (Fraction(Q) * (1 - Fraction(P)))
EXPECTED = f"ln({RATIO.numerator}/{RATIO.denominator})"


def _bits(x, rng, d):
    bits = rng.random(d) < Q
    bits[x] = rng.random() < P
    return bits


def ue_generator(x, rng, d=16):
    bits = _bits(x, rng, d)
    return tuple(int(b) for b in bits)


def ue_loop(x, rng, d=16):
    bits = _bits(x, rng, d)
    out = []
    for b in bits:
        out.append(int(b))
    return tuple(out)


def ue_list(x, rng, d=16):
    bits = _bits(x, rng, d)
    return list(bits)


def ue_tuple(x, rng, d=16):
    bits = _bits(x, rng, d)
    return tuple(bits)


def ue_comprehension(x, rng, d=16):
    bits = _bits(x, rng, d)
    return [int(b) for b in bits]


def ue_thresholds(x, rng, d=16):
    thresholds = np.full(d, Q)
    thresholds[x] = P
    u = rng.random(d)
    return tuple(int(b) for b in (u < thresholds))


def ue_flipped(x, rng, d=16):
    bits = _bits(x, rng, d)
    return [1 - int(b) for b in bits]


def ue_assigned(x, rng, d=16):
    bits = _bits(x, rng, d)
    report = tuple(int(b) for b in bits)
    return list(report)


STYLES = [ue_generator, ue_loop, ue_list, ue_tuple, ue_comprehension, ue_thresholds, ue_flipped, ue_assigned]
#: In the slow tier: ``tuple(bits)`` is ``list(bits)`` with the other container (_iteration._CONTAINERS).
_SLOW_STYLES = {ue_tuple}


@pytest.mark.parametrize("fn", [pytest.param(f, marks=pytest.mark.slow) if f in _SLOW_STYLES else f for f in STYLES],
                         ids=lambda f: f.__name__)
def test_unary_encoding_iterated_stays_factorised(fn):
    """Each style gives eps_d exactly as derived by hand, on the factorised route, in a handful of paths (2^15
    per input if the bits were read one by one), and a claim below it is violated."""
    domain = list(range(16))
    report = audit(fn, domain=domain, eps=repr(1.01 * math.log(RATIO)))
    assert report.route == "white-box (factorised)", report.summary()
    assert report.eps_d_exact == EXPECTED and report.verdict == "consistent"
    assert report.runs <= 8 * len(domain)
    assert audit(fn, domain=domain, eps=repr(0.99 * math.log(RATIO))).verdict == "violated"


def test_flipped_bits_keep_their_witness():
    """``1 - int(b)`` flips every coordinate: the same eps_d, attained where the user's coordinate is 0 and the
    other's 1 (the flipped form of the output with a 1 at x and a 0 at x')."""
    report = audit(ue_flipped, domain=[0, 1, 2], eps="1.01")
    x, x2, y = report.witness
    assert y[x] == "0" and y[x2] == "1" and report.eps_d_exact == EXPECTED


def _unproven_shapes():
    """Iterations whose output is not the bits mapped one by one (or not provably so): never factorised."""

    def summed(x, rng, d=24):
        bits = _bits(x, rng, d)
        t = tuple(int(b) for b in bits)
        return sum(t)

    def shifted(x, rng, d=24):
        bits = _bits(x, rng, d)
        return tuple(int(b) + x for b in bits)

    def chained(x, rng, d=24):
        bits = _bits(x, rng, d)
        return tuple(itertools.chain(bits, bits))

    def filtered(x, rng, d=24):
        bits = _bits(x, rng, d)
        return [int(b) for b in bits if b]

    def read_between(x, rng, d=24):
        bits = _bits(x, rng, d)
        out = []
        first = out
        for b in bits:
            out.append(int(b))
        return (tuple(first), len(out))

    def appended_to_other(x, rng, d=24):
        bits = _bits(x, rng, d)
        out = [x]
        for b in bits:
            out.append(int(b))
        return out

    def shadowed(x, rng, d=24):
        int = float  # noqa: A001 - a local named int is not the builtin
        bits = _bits(x, rng, d)
        return tuple(int(b) for b in bits)

    def assigned_then_changed(x, rng, d=24):
        bits = _bits(x, rng, d)
        report = [int(b) for b in bits]
        report[0] = report[x]
        return report

    return [summed, shifted, chained, filtered, read_between, appended_to_other, shadowed, assigned_then_changed]


@pytest.mark.parametrize("fn", _unproven_shapes(), ids=lambda f: f.__name__)
def test_other_iterations_read_the_bits_and_are_refused_when_too_many(fn):
    """Shapes the source does not prove elementwise are read bit by bit: 23 uncertain bits are refused at once
    (2^23 paths), never given a factorised channel.  (``shadowed`` maps with ``float`` where the source says
    ``int``: factorised as ints it would give an output the code never returns.)"""
    with pytest.raises(NotEnumerable, match="random bits"):
        audit(fn, domain=[0, 1])


def test_a_mixture_of_mapped_and_read_paths_is_read_one_by_one():
    """When some paths return the mapped vector and others a plain tuple, the two do not make one product: the
    enumeration runs again reading every bit (2^11 paths per input: 11 bits, the fewest above READ_BITS, where the
    source is asked for a map).  With q = 1/4 exactly, the output (1,..,1) has probability 1/2 + q^11/2 from input 1
    and q^11/2 from input 0, the largest ratio by hand: eps_d = ln(1 + 4^11); (0,..,0) gives only 1 + (4/3)^11."""
    from relations.audit._vectors import READ_BITS

    assert READ_BITS == 10

    def mixed(x, rng):
        bits = rng.random(11) < 0.25
        if rng.random() < 0.5:
            return (x,) * 11
        return tuple(int(b) for b in bits)

    assert str(audit(mixed, domain=[0, 1]).measures.eps_d.exact) == f"ln({1 + 4**11})"


def test_a_few_bits_are_read_one_by_one_for_the_whole_channel():
    """Over at most 10 uncertain bits the iteration reads them (the whole channel: every notion, not eps_d
    alone): 3 reports, each the truth with probability 1/2 else uniform on {0, 1}, P(x) = 3/4 per report, so
    eps_d = 3 ln 3 = ln 27 by hand, and eps_i = eps_d under the uniform prior."""

    def binary(x, rng):
        noise = rng.integers(0, 2, size=3)
        keep = rng.random(size=3) < 0.5
        values = np.where(keep, x, noise)
        return tuple(int(v) for v in values)

    report = audit(binary, domain=[0, 1], eps="ln(27)")
    assert report.route == "white-box" and str(report.measures.eps_d.exact) == "ln(27)"
    assert str(report.measures.eps_i.exact) == "ln(27)"


UE_FILE = textwrap.dedent('''
    import math
    import numpy as np

    P = 0.5
    Q = 1 / (math.exp(1.0) + 1)

    def _bits(x, rng):
        bits = rng.random(64) < Q
        bits[x] = rng.random() < P
        return bits

    def generator(x, rng):
        bits = _bits(x, rng)
        return tuple(int(b) for b in bits)

    def loop(x, rng):
        bits = _bits(x, rng)
        out = []
        for b in bits:
            out.append(int(b))
        return tuple(out)

    def as_list(x, rng):
        bits = _bits(x, rng)
        return list(bits)

    def thresholds(x, rng):
        t = np.full(64, Q)
        t[x] = P
        u = rng.random(64)
        return [int(b) for b in (u < t)]

    def per_coordinate(x, rng):
        return tuple(int(rng.random() < (P if i == x else Q)) for i in range(64))
''')


@pytest.mark.slow
@pytest.mark.parametrize("name", ["generator", "loop", "as_list", "thresholds"])
def test_64_input_unary_encoding_from_the_command_line(tmp_path, name):
    """The issue's case: 64 inputs, each a tuple of 64 bits, with the default options: exact on the factorised
    route, consistent with slack and violated below eps_d (by hand), well within 60 s (measured: 3 to 5 s
    of wall time per command on a loaded 2-core machine)."""
    path = tmp_path / "ue64.py"
    path.write_text(UE_FILE)
    domain = ",".join(map(str, range(64)))
    out = run_cli("audit", f"{path}:{name}", "--domain", domain, "--eps", repr(1.01 * math.log(RATIO)), "--json")
    assert out.returncode == 0, out.stderr
    assert '"route": "white-box (factorised)"' in out.stdout and EXPECTED in out.stdout
    out = run_cli("audit", f"{path}:{name}", "--domain", domain, "--eps", repr(0.99 * math.log(RATIO)))
    assert out.returncode == 1 and out.stdout.startswith("violated"), out.stdout + out.stderr


PER_COORDINATE = textwrap.dedent('''
    import math

    Q = 1 / (math.exp(1.0) + 1)

    def per_coordinate(x, rng, d=32):
        return tuple(int(rng.random() < (0.5 if i == x else Q)) for i in range(d))
''')


@pytest.mark.slow
def test_one_budget_and_an_honest_stop_when_outputs_never_repeat(tmp_path):
    """32 bits drawn one by one (2^32 paths per input): the first input runs past its share of the budget (1 s
    of 2 s for 8 inputs on one worker would leave the others 0.14 s each), so every input is sampled at once;
    the reports almost never repeat (the likeliest of the 2^32 has probability below 10^-4), so the pilot stops
    the sampling: inconclusive (exit 3), saying why, never consistent.  (About 4 s of CPU: slow; the quick
    suite has collided_share's doctest.)"""
    path = tmp_path / "pc.py"
    path.write_text(PER_COORDINATE)
    out = run_cli("audit", f"{path}:per_coordinate", "--domain", "0,1,2,3,4,5,6,7", "--eps", "1", "--time-budget", "2")
    assert out.returncode == 3, out.stdout + out.stderr
    assert out.stdout.startswith("inconclusive")
    assert "the first input alone used its share" in out.stdout and "sampling stopped after a first" in out.stdout


@pytest.mark.slow
def test_64_inputs_drawn_coordinate_by_coordinate_are_inconclusive_with_the_default_options(tmp_path):
    """The same written over 64 inputs of 64 coordinates, default options: the white-box route gives up after
    the first input's share (about 1.9 s of 120 s), the pilot stops the sampling: inconclusive."""
    path = tmp_path / "ue64.py"
    path.write_text(UE_FILE)
    out = run_cli("audit", f"{path}:per_coordinate", "--domain", ",".join(map(str, range(64))), "--eps", "1")
    assert out.returncode == 3 and "sampling stopped after a first" in out.stdout, out.stdout + out.stderr


LEAK = textwrap.dedent('''
    def leak(x, rng):
        bits = rng.random(11) < 0.25
        out = []
        for b in bits:
            out.append(int(b))
        return x
''')


def _loaded(path, text):
    import importlib.util

    path.write_text(text)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.leak


@pytest.mark.parametrize("how", ["edited", "exec"])
def test_a_source_that_is_not_the_running_code_proves_nothing(tmp_path, how):
    """The running ``leak`` returns its input (outputs 0 and 1 never shared: eps_d infinite by hand), while the
    source on disk returns the mapped bits: the file edited after the import, or the code built by ``exec``
    under the file's name.  The source must not stand for the code: the bits are read (2^11 paths)."""
    path = tmp_path / f"leak_{how}.py"
    disk = LEAK.replace("return x", "return out")
    if how == "edited":
        fn = _loaded(path, LEAK)
        path.write_text(disk)
    else:
        path.write_text(disk)
        namespace: dict = {}
        exec(compile(LEAK, str(path), "exec"), namespace)  # noqa: S102 - code that is not the file's
        fn = namespace["leak"]
    report = audit(fn, domain=[0, 1], eps="2")
    assert report.verdict == "violated" and report.route == "white-box", report.summary()
    assert math.isinf(float(report.measures.eps_d))


# (both break the same rule, a statement between ``out = []`` and the loop (_iteration._loop): each about 1.3 s of
# CPU for its 2^11 paths per input, the second in the slow tier)
@pytest.mark.parametrize("how", ["eval", pytest.param("locals", marks=pytest.mark.slow)])
def test_a_list_filled_before_the_loop_without_being_named_is_read(how):
    """``out`` filled with the input between ``out = []`` and the loop, through ``eval`` or ``locals()`` (no
    statement names it): the output starts with x, so eps_d is infinite by hand, never the bits' product."""

    def by_eval(x, rng):
        bits = rng.random(11) < 0.25
        out = []
        eval("out.append(x)")  # noqa: S307 - the point of the test
        for b in bits:
            out.append(int(b))
        return out

    def by_locals(x, rng):
        bits = rng.random(11) < 0.25
        out = []
        locals()["out"].append(x)
        for b in bits:
            out.append(int(b))
        return out

    fn = {"eval": by_eval, "locals": by_locals}[how]
    report = audit(fn, domain=[0, 1], eps="2")
    assert report.verdict == "violated" and report.route == "white-box", report.summary()
    assert math.isinf(float(report.measures.eps_d))


def test_a_builtin_replaced_in_builtins_is_not_the_builtin(monkeypatch):
    """``builtins.int`` replaced by a function (which may keep state between calls): not the type ``int``, so
    no element map is proven with it."""
    import builtins
    import sys

    from relations.audit._iteration import _builtin

    frame = sys._getframe()
    real = int
    assert _builtin(frame, "int") is real
    calls = []

    def counting(v, *args):
        calls.append(v)
        return real(v, *args) ^ (len(calls) % 2)

    monkeypatch.setattr(builtins, "int", counting)
    found = _builtin(frame, "int")
    monkeypatch.undo()
    assert found is None


def test_a_loop_variable_named_like_a_builtin_is_not_the_builtin():
    """``tuple(int(int) for int in bits)`` calls the bit itself (a ``numpy.bool_``): the code always fails, and
    the audit must say so, never return a channel the code cannot produce."""

    def shadowing(x, rng):
        bits = rng.random(11) < 0.25
        return tuple(int(int) for int in bits)  # noqa: A001 - the point of the test

    with pytest.raises(InputError, match="not callable"):
        audit(shadowing, domain=[0, 1], eps="2")


def test_a_bit_read_from_a_boolean_array_is_a_numpy_bool():
    """A bit read from ``rng.random(3) < q`` is a ``numpy.bool_`` (numpy's element), and ``True`` and ``1`` are
    different outputs: returning the bits as they are for one input and converted by ``int`` for the other
    makes outputs that never meet, eps_d infinite by hand (read one by one, by iteration or by index)."""

    def by_iteration(x, rng):
        bits = rng.random(3) < 0.25
        if x:
            return tuple(b for b in bits)
        return tuple(int(b) for b in bits)

    def by_index(x, rng):
        bits = rng.random(3) < 0.25
        return bits[0] if x else int(bits[0])

    rng = np.random.default_rng(0)
    assert type(next(iter(rng.random(3) < 0.25))) is np.bool_  # what the code sees outside the audit
    for fn in (by_iteration, by_index):
        report = audit(fn, domain=[0, 1], eps="2")
        assert report.verdict == "violated" and math.isinf(float(report.measures.eps_d)), report.summary()


def test_an_init_returning_the_bits_is_not_the_call_s_return():
    """Calling a class runs its ``__init__``, whose return is not the call's value (a value other than ``None``
    is a ``TypeError``): the code always fails, and the audit must say so."""

    class Returning:
        def __init__(self, x, rng):
            bits = rng.random(11) < 0.25
            return tuple(int(b) for b in bits)  # noqa: PLE0101 - the point of the test

    with pytest.raises(InputError, match="should return None"):
        audit(Returning, domain=[0, 1], eps="2")


def test_partial_and_callable_instances_still_return_the_mapped_bits():
    """``functools.partial`` of a randomizer and an instance's ``__call__`` return what the function returns:
    still factorised, eps_d as by hand."""
    import functools

    class Callable:
        def __call__(self, x, rng):
            bits = _bits(x, rng, 16)
            return tuple(int(b) for b in bits)

    for fn in (functools.partial(ue_generator, d=16), Callable()):
        report = audit(fn, domain=list(range(16)), eps=repr(1.01 * math.log(RATIO)))
        assert report.route == "white-box (factorised)", report.summary()
        assert report.eps_d_exact == EXPECTED and report.verdict == "consistent"
