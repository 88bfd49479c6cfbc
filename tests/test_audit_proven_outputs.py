"""The outputs of a clamped sampler proven from its source (relations/audit/_proven.py), so that a loop cut at a
depth has both ends of its interval without ``--outputs``.

The positive cases are certified ``consistent`` on the white-box route with 5 % slack and no declared outputs; their
``eps_d`` is derived by hand in each docstring.  The adversarial cases would be certified ``consistent`` wrongly if
the proof were unsound: each returns, only after more draws than the first level follows, an output outside the
clamp (a float, a bool, a value past it through a second return, a shadowed ``min``) that only one input can
give (so the true ``eps_d`` is infinite); declared as ``0..3`` by a careless user, the audit certifies it (the
danger is real), and the proof must refuse, or include the stray outputs, so that nothing is certified."""

from __future__ import annotations

import functools
import json
import linecache
import math
import random
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli

from relations.audit import audit
from relations.audit._proven import Refused, proven_outputs

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))
_WROTE, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # nothing written next to the examples
from cks_samplers import discrete_laplace  # noqa: E402

sys.dont_write_bytecode = _WROTE

LN8 = math.log(8)
DOMAIN = [0, 1, 2, 3]


def _nats(text):
    """A bound as the report prints it: ``1.09861 nats (...)`` or ``ln(p/q)`` for a short rational."""
    head = text.split()[0]
    return math.log(Fraction(head[3:-1])) if head.startswith("ln(") else float(head)


def _geo(rng):
    """A geometric count of fair coin flips: P(g) = 2^-(g+1)."""
    g = 0
    while rng.random() < Fraction(1, 2):
        g += 1
    return g


# -- positive cases -----------------------------------------------------------------------------------------------

def clamped(x, rng):
    """x plus two-sided geometric noise by coin flips, P(z) = (1/3) 2^-|z|, clamped to 0..3: P(0 | 0) = P(z <= 0)
    = 2/3 and P(0 | 3) = P(z <= -3) = (1/3)(1/8)(2) = 1/12, so eps_d = ln 8 (interior ratios are at most 8 too)."""
    z = _geo(rng) - _geo(rng)
    return max(0, min(3, x + z))


def clipped(x, rng):
    """The same noise, clamped by numpy: np.clip returns numpy ints, the same outputs as Python's (eps_d = ln 8)."""
    return np.clip(x + _geo(rng) - _geo(rng), 0, 3)


def clamped_by_ifs(x, rng):
    """The same, clamped by narrowing ifs (eps_d = ln 8)."""
    y = x + _geo(rng) - _geo(rng)
    if y < 0:
        y = 0
    elif y > 3:
        y = 3
    return y


LO, HI = 0, 3


def clamped_by_constants(x, rng, lo=LO):
    """The same, between module constants and a default (eps_d = ln 8)."""
    return min(max(x + _geo(rng) - _geo(rng), lo), HI)


def signed(x, rng):
    """A random sign times a geometric count, clamped: P(z = 0) = 1/2, P(z = k) = 2^-(|k|+2) otherwise, so P(0 | 0)
    / P(0 | 3) = P(z <= 0) / P(z <= -3) = (3/4) / (1/16) = 12, and eps_d = ln 12 (interior ratios are at most 4)."""
    return max(0, min(3, x + rng.choice([-1, 1]) * _geo(rng)))


def laplace_clamped(x):
    """x + Z clamped to 0..3, Z the Canonne-Kamath-Steinke discrete Laplace of scale 1 (P(z) proportional to
    e^-|z|, Fractions and randrange): P(0 | 0) / P(0 | 3) = P(Z <= 0) / P(Z <= -3) = e^3, so eps_d = 3."""
    return max(0, min(3, x + discrete_laplace(1, 1, random)))


@pytest.mark.parametrize("fn", [clamped, clipped, clamped_by_ifs, clamped_by_constants])
def test_the_outputs_of_each_clamp_are_proven(fn):
    """min/max, np.clip (numpy ints: the same outputs as Python's), narrowing ifs, module constants and defaults."""
    proof = proven_outputs(fn, DOMAIN, pass_rng=True)
    assert proof.values == (0, 1, 2, 3) and all(type(v) is int for v in proof.values)
    assert proof.where == f"test_audit_proven_outputs.py:{fn.__code__.co_firstlineno} ({fn.__qualname__})"


_SLOW = pytest.mark.slow  # each about 3 s: the quick version is the first


@pytest.mark.parametrize("fn", [clamped, pytest.param(clipped, marks=_SLOW), pytest.param(clamped_by_ifs, marks=_SLOW),
                                pytest.param(clamped_by_constants, marks=_SLOW)])
def test_a_clamped_loop_sampler_is_certified_without_declared_outputs(fn):
    """Claimed 1.05 ln 8 with no outputs declared: consistent on the white-box route, both ends around ln 8, the
    report saying the outputs were proven from the source and where; 0.95 ln 8 is violated."""
    assert proven_outputs(fn, DOMAIN, pass_rng=True).values == (0, 1, 2, 3)
    ok = audit(fn, domain=DOMAIN, eps=1.05 * LN8)
    assert ok.verdict == "consistent" and ok.route == "white-box (depth-bounded)"
    iv = ok.white_box_interval
    assert _nats(iv["lower"]) <= LN8 + 1e-9 and LN8 - 1e-9 <= _nats(iv["upper"]) < 1.05 * LN8
    assert "proven from the source" in iv["outputs"] and f"({fn.__qualname__})" in iv["outputs"]
    assert "proven from the source" in ok.summary() and "test_audit_proven_outputs.py:" in ok.summary()
    bad = audit(fn, domain=DOMAIN, eps=0.95 * LN8)
    assert bad.verdict == "violated" and bad.route == "white-box (depth-bounded)"


def test_a_random_sign_by_choice_is_proven_and_certified():
    assert proven_outputs(signed, DOMAIN, pass_rng=True).values == (0, 1, 2, 3)
    ln12 = math.log(12)
    ok = audit(signed, domain=DOMAIN, eps=1.05 * ln12)
    assert ok.verdict == "consistent" and ok.route == "white-box (depth-bounded)"
    iv = ok.white_box_interval
    assert _nats(iv["lower"]) <= ln12 + 1e-5 and ln12 - 1e-5 <= _nats(iv["upper"]) < 1.05 * ln12
    assert audit(signed, domain=DOMAIN, eps=0.95 * ln12).verdict == "violated"


def test_the_cks_discrete_laplace_clamped_is_certified_without_declared_outputs():
    """eps_d = 3 (above): consistent at 3.15 with no outputs declared; the proof follows the helpers of the module
    (discrete_laplace, bernoulli_exp, bernoulli_exp1, bernoulli: Fractions, randrange compared)."""
    assert proven_outputs(laplace_clamped, DOMAIN, pass_rng=False).values == (0, 1, 2, 3)
    ok = audit(laplace_clamped, domain=DOMAIN, eps=1.05 * 3)
    assert ok.verdict == "consistent" and ok.route == "white-box (depth-bounded)"
    assert _nats(ok.white_box_interval["lower"]) <= 3 <= _nats(ok.white_box_interval["upper"]) < 3.15


def test_the_command_line_proves_the_outputs_of_the_example():
    """examples/cks_samplers.py:clamped_laplace, eps_d = 3: consistent at 3.15 without --outputs, in a worker
    process; the JSON says where the outputs were proven."""
    out = run_cli("audit", "examples/cks_samplers.py:clamped_laplace", "--domain", "0,1,2,3", "--eps", "3.15",
                  "--workers", "1", "--json", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["verdict"] == "consistent" and data["route"] == "white-box (depth-bounded)"
    iv = data["white_box_interval"]
    assert iv["outputs"].startswith("0, 1, 2, 3 (proven from the source, cks_samplers.py:")
    assert _nats(iv["lower"]) <= 3 <= _nats(iv["upper"]) < 3.15


def test_declared_outputs_still_win():
    """--outputs given: they are used (said as declared), not the proof."""
    ok = audit(clamped, domain=DOMAIN, eps=1.05 * LN8, outputs=[0, 1, 2, 3])
    assert ok.verdict == "consistent" and "declared" in ok.white_box_interval["outputs"]


# -- adversarial cases: a stray output only after more than 40 coin flips (never on the first level's paths) ------

def float_late(x, rng):
    """x / 2 (a float, only input x gives it) after 41 heads in a row."""
    g = _geo(rng)
    y = max(0, min(3, x + g - _geo(rng)))
    if g > 40:
        y = x / 2
    return y


def bool_late(x, rng):
    """x == 0 (True only for input 0) after 41 heads in a row: True and 1 are different outputs."""
    g = _geo(rng)
    if g > 40:
        return x == 0
    return max(0, min(3, x + g - _geo(rng)))


def second_return(x, rng):
    """x + 4, past the clamp, through a second return."""
    g = _geo(rng)
    if g > 40:
        return x + 4
    return max(0, min(3, x + g - _geo(rng)))


def unbounded_return(x, rng):
    """x + g, unbounded, through a second return."""
    g = _geo(rng)
    if g > 40:
        return x + g
    return max(0, min(3, x + g - _geo(rng)))


def _shadow_min(a, b):
    return b if b > 40 else (a if a < b else b)


def shadowed_min(x, rng):
    """min is a local bound to a function of the module, which the proof follows (and finds unbounded)."""
    min = _shadow_min  # noqa: A001
    g = _geo(rng)
    return max(0, min(3, x + g))


def evaluated(x, rng):
    z = _geo(rng) - _geo(rng)  # noqa: F841 - read by eval
    return max(0, min(3, eval("x + z")))  # noqa: S307


@functools.cache
def _cached(n):
    return n


def decorated_helper(x, rng):
    return max(0, min(3, _cached(x) + _geo(rng) - _geo(rng)))


def float_clamp(x, rng):
    return max(0, min(3.0, x + _geo(rng)))  # 3.0, a float, whenever the clamp bites


def fraction_return(x, rng):
    return Fraction(max(0, min(3, x + _geo(rng))))


def none_on_a_path(x, rng):
    if rng.random() < 0.5:
        return max(0, min(3, x + _geo(rng)))


@pytest.mark.parametrize("fn, why", [
    (float_late, "float"),
    (float_clamp, "float"),
    (fraction_return, "frac"),
    (none_on_a_path, "none"),
    (unbounded_return, "not bounded"),
    (shadowed_min, "not bounded"),
    (evaluated, "eval"),
    (decorated_helper, "the global _cached"),
])
def test_the_proof_refuses_what_it_cannot_bound(fn, why):
    with pytest.raises(Refused, match=why):
        proven_outputs(fn, DOMAIN, pass_rng=True)


def _make(top):
    def clamp(y):
        return max(0, min(top, y))
    return clamp


_LOW, _HIGH = _make(1), _make(9)


def two_closures(x, rng):
    """One code, two cells: min(1, x) or min(9, x) = x, so 0..3 (not 0..1, as one analysis per code would say)."""
    return _LOW(x) if rng.random() < 0.5 else _HIGH(x)


def test_closures_of_one_code_are_two_functions():
    assert proven_outputs(two_closures, DOMAIN, pass_rng=True).values == (0, 1, 2, 3)


def test_the_proof_keeps_the_stray_outputs_it_can_bound():
    """A bool returned, and a value past the clamp: the proven set holds them, so they are never assumed away."""
    assert proven_outputs(bool_late, DOMAIN, pass_rng=True).values == (0, 1, 2, 3, False, True)
    assert proven_outputs(second_return, DOMAIN, pass_rng=True).values == tuple(range(8))


def test_a_careless_declaration_is_certified():
    """The danger is real: float_late declared 0..3 is certified consistent at the first level (its stray float
    lies in the unexplored mass), though its true eps_d is infinite (x / 2 only from x): a proof that let the float
    through would do the same."""
    wrong = audit(float_late, domain=DOMAIN, eps=1.05 * LN8, outputs=[0, 1, 2, 3])
    assert wrong.verdict == "consistent" and wrong.route == "white-box (depth-bounded)"


@pytest.mark.slow  # three audits deepened, then sampled (about 13 s)
@pytest.mark.parametrize("fn, note", [(float_late, "could not be proven"), (bool_late, "were not all returned"),
                                      (second_return, "were not all returned")])
def test_the_leaky_samplers_are_not_certified(fn, note):
    """Not declared, the outputs are refused (a float) or proven with the stray ones (never seen on the paths
    followed), so the audit keeps the lower end and samples, saying why."""
    report = audit(fn, domain=DOMAIN, eps=1.05 * LN8, samples=2000)
    assert report.route == "black-box" and note in report.route_reason


# -- what the proof refuses: rebinding, run-time changes, code that is not its source ------------------------------

def _module(tmp_path, body, name="target"):
    """Import ``body`` as a module from a file (its source is read back by the proof)."""
    import importlib.util

    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    spec = importlib.util.spec_from_file_location(f"_proven_{name}_{abs(hash(str(path)))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_NOISE = """
from fractions import Fraction
def _geo(rng):
    g = 0
    while rng.random() < Fraction(1, 2):
        g += 1
    return g
"""


def test_a_global_min_shadowing_the_builtin_is_followed_or_refused(tmp_path):
    """A min of the module's own is no builtin: followed as the function it is (here it returns 7), or refused when
    the proof cannot follow it (a C function, whatever it computes)."""
    m = _module(tmp_path, _NOISE + """
def min(a, b):
    return 7
def rr(x, rng):
    return max(0, min(3, x + _geo(rng)))
""")
    assert proven_outputs(m.rr, DOMAIN, pass_rng=True).values == (7,)
    m = _module(tmp_path, _NOISE + """
from operator import add as min
def rr(x, rng):
    return max(0, min(3, x + _geo(rng)))
""", name="opaque")
    with pytest.raises(Refused, match="the global min"):
        proven_outputs(m.rr, DOMAIN, pass_rng=True)


def test_a_replaced_builtin_is_refused(tmp_path):
    """builtins.min replaced where the function looks it up (its module's __builtins__): not the real one."""
    import builtins

    source = _NOISE + "def rr(x, rng):\n    return max(0, min(3, x + _geo(rng)))\n"
    name = str(tmp_path / "replaced.py")
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    fake = dict(vars(builtins), min=lambda a, b: 2.5)
    namespace = {"__builtins__": fake, "__name__": "replaced"}
    exec(compile(source, name, "exec", dont_inherit=True), namespace)  # noqa: S102
    with pytest.raises(Refused, match="min"):
        proven_outputs(namespace["rr"], DOMAIN, pass_rng=True)
    namespace = {"__builtins__": dict(vars(builtins)), "__name__": "replaced"}  # the real ones: proven
    exec(compile(source, name, "exec", dont_inherit=True), namespace)  # noqa: S102
    assert proven_outputs(namespace["rr"], DOMAIN, pass_rng=True).values == (0, 1, 2, 3)


def test_a_global_the_module_may_rebind_is_refused(tmp_path):
    body = _NOISE + """
HI = 3
def bump():
    global HI
    HI += 10
def rr(x, rng):
    return max(0, min(HI, x + _geo(rng)))
"""
    with pytest.raises(Refused, match="global"):
        proven_outputs(_module(tmp_path, body).rr, DOMAIN, pass_rng=True)
    fixed = _module(tmp_path, body.replace("    global HI\n    HI += 10", "    pass"), name="fixed")
    assert proven_outputs(fixed.rr, DOMAIN, pass_rng=True).values == (0, 1, 2, 3)


def test_code_that_is_not_its_source_is_refused(tmp_path):
    """The file edited after the import: the code that runs is not what the file says (it returns x + g)."""
    m = _module(tmp_path, _NOISE + "def rr(x, rng):\n    return x + _geo(rng)\n")
    path = tmp_path / "target.py"
    path.write_text(path.read_text().replace("return x + _geo(rng)", "return max(0, min(3, x + _geo(rng)))"))
    linecache.checkcache(str(path))
    with pytest.raises(Refused, match="source"):
        proven_outputs(m.rr, DOMAIN, pass_rng=True)


def test_statements_with_effects_are_refused(tmp_path):
    m = _module(tmp_path, _NOISE + """
import numpy as np
def with_try(x, rng):
    try:
        return max(0, min(3, x + _geo(rng)))
    except Exception:
        return 9.5
def with_item(x, rng):
    out = [0]
    out[0] = x
    return max(0, min(3, out[0]))
def with_generator(x, rng):
    z = rng.integers(0, 4, size=2)
    return max(0, min(3, x + z))
def with_global(x, rng):
    global np
    return max(0, min(3, x + _geo(rng)))
def recursive(x, rng):
    return recursive(x, rng) if rng.random() < 0.5 else max(0, min(3, x))
""")
    for name in ("with_try", "with_item", "with_generator", "with_global", "recursive"):
        with pytest.raises(Refused):
            proven_outputs(getattr(m, name), DOMAIN, pass_rng=True)


def test_what_is_not_a_plain_function_is_refused():
    with pytest.raises(Refused, match="plain function"):
        proven_outputs(functools.partial(clamped), DOMAIN, pass_rng=True)
    with pytest.raises(Refused):
        proven_outputs(lambda x, rng: max(0, min(3, x)), DOMAIN, pass_rng=True)


def test_an_input_that_is_not_an_integer_is_not_bounded():
    with pytest.raises(Refused):
        proven_outputs(clamped, ["a", "b"], pass_rng=True)
    assert proven_outputs(clamped, [True, False], pass_rng=True).values == (0, 1, 2, 3)  # True + z is an int


def test_the_worker_proves_or_says_why(tmp_path):
    """The worker's ``outputs`` job, on a user's file: the keys of the proven outputs and where, or why not."""
    from relations.audit._worker import run_job

    path = tmp_path / "mine.py"
    path.write_text(_NOISE + textwrap.dedent("""
        def rr(x, rng):
            return max(0, min(3, x + _geo(rng) - _geo(rng)))
        def leaky(x, rng):
            return max(0, min(3.5, x + _geo(rng)))
    """))
    ok = run_job({"task": "outputs", "target": f"{path}:rr", "params": None, "domain": DOMAIN})
    assert ok["ok"] and ok["outputs"] == ["0", "1", "2", "3"] and "mine.py:" in ok["text"] and ok["fingerprint"]
    no = run_job({"task": "outputs", "target": f"{path}:leaky", "params": None, "domain": DOMAIN})
    assert no["ok"] and no["outputs"] is None and "float" in no["why"]


@pytest.mark.slow  # deepened, then sampled (about 6 s)
def test_a_global_min_in_a_user_file_is_refused_by_the_command_line(tmp_path):
    """Through a worker process: the file shadows min with a function that leaks past the clamp after 41 heads;
    with no outputs declared nothing is certified (sampled, saying why)."""
    path = tmp_path / "shadow.py"
    path.write_text(_NOISE + textwrap.dedent("""
        import builtins
        def min(a, b):
            return b if b > 40 else builtins.min(a, b)
        def rr(x, rng):
            return max(0, min(3, x + _geo(rng) - _geo(rng)))
    """))
    out = run_cli("audit", f"{path}:rr", "--domain", "0,1,2,3", "--eps", str(1.05 * LN8), "--samples", "2000",
                  "--workers", "1", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["route"] == "black-box" and "could not be proven from the source" in data["route_reason"]
