"""Attacks on the soundness of the outputs proven from the source (relations/audit/_proven.py).

A proven set that misses an output the code can return gives a wrong ``consistent``: the enumeration cut at a
depth never sees a stray output that only comes after many draws, and the upper end of ``eps_d`` trusts the proof.
Each case here is code whose proven set (before the fixes) missed an output: the proof must now refuse, or hold
every output.  The outputs are checked independently of the proof, by running the code with scripted draws that
return what numpy's ``Generator`` returns (``np.int64`` from ``integers``, the item of an array from ``choice``:
``np.True_`` for a list of bools), and comparing their output keys with the proven ones."""

from __future__ import annotations

import math
import random
import warnings
from fractions import Fraction

import numpy as np
import pytest

from relations.audit import audit
from relations.audit._enumerate import NotEnumerable
from relations.audit._outputs import output_key
from relations.audit._proven import Refused, proven_outputs

DOMAIN = [0, 1, 2, 3]
LN8 = math.log(8)


class Scripted:
    """Draws as numpy's Generator returns them (the types: np.int64, an item of an np.array), in a given order."""

    def __init__(self, picks):
        self.picks = list(picks)

    def integers(self, low, high=None, endpoint=False):
        return np.int64(self.picks.pop(0))

    def choice(self, items, p=None):
        return np.array(items)[self.picks.pop(0)]


def _returned(fn, scripts):
    """The output keys ``fn`` returns on each input of the domain under each script (a path that fails is none)."""
    out = set()
    for x in DOMAIN:
        for picks in scripts:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # numpy's overflow warnings: the wrapped value is what returns
                try:
                    out.add((x, repr(output_key(fn(x, rng=Scripted(picks))))))
                except (ArithmeticError, TypeError, IndexError):
                    pass
    return out


def _sound(fn, scripts):
    """The proof refuses, or holds every output the code returns under the scripts; the outputs found not proven."""
    try:
        proof = proven_outputs(fn, DOMAIN, pass_rng=True)
    except Refused:
        return []
    keys = {repr(output_key(v)) for v in proof.values}
    return sorted(key for key in _returned(fn, scripts) if key[1] not in keys)


_PICKS = [[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)]


# -- numpy booleans: a comparison with a numpy operand is an np.bool_, whose + and * are logical ---------------------

def npbool_compared(x, rng):
    """np.clip gives an np.int64; (y < 0) is np.False_, and np.False_ + (x == 0) is np.bool_(x == 0): True only
    from input 0 (as Python bools it would be the int 1, inside the clamp)."""
    y = np.clip(x + rng.integers(-1, 2), 0, 3)
    if rng.integers(0, 2):
        return (y < 0) + (x == 0)
    return y


def npbool_chosen(x, rng):
    """numpy's choice of a list of bools is an np.bool_; np.False_ + (x == 0) again."""
    f = rng.choice([True, False])
    if f:
        return max(0, min(3, x))
    return (x == 0) + f


def npbool_product(x, rng):
    """np.bool_ * np.bool_ is np.bool_ (logical and), not the int 0 or 1."""
    y = rng.integers(0, 4)
    return max(0, min(3, x + y)) if y > 1 else (y > 0) * (x > 0) * (y < 9)


# -- numpy integers narrower than 64 bits: their arithmetic wraps inside any interval of the proof -----------------

K8 = np.int8(127)


def int8_global(x, rng):
    """np.int8(127) + 1 wraps to -128: min(3, K8 + x) is 3 for x = 0 and negative for the others."""
    if rng.integers(0, 2):
        return min(3, K8 + x)
    return max(0, min(3, x + rng.integers(0, 2)))


def int8_default(x, rng, k=np.int8(120)):  # noqa: B008 - the default is the point
    return max(-3, min(3, k + x * 4))


def uint8_global(x, rng, u=np.uint8(0)):  # noqa: B008
    """np.uint8(0) - 1 is 255: max(0, u - x) is 0 for x = 0 and 256 - x for the others."""
    return max(0, u - x) if rng.integers(0, 2) else max(0, min(3, x))


def _closure():
    k = np.int16(32767)

    def int16_cell(x, rng):
        return min(3, k + x)
    return int16_cell


int16_cell = _closure()


@pytest.mark.parametrize("fn", [npbool_compared, npbool_chosen, npbool_product, int8_global, int8_default,
                                uint8_global, int16_cell])
def test_numpy_scalar_semantics_are_not_assumed_away(fn):
    """Each returns, on some script, an output outside what a proof with Python's semantics would hold."""
    assert _sound(fn, _PICKS) == []


def test_numpy_semantics_leak_in_the_cases_above():
    """The cases are real: run with numpy's types, each returns an np.bool_, or a wrapped value below 0."""
    assert (0, "('bool', True)") in _returned(npbool_compared, _PICKS)
    assert (0, "('bool', True)") in _returned(npbool_chosen, _PICKS)
    assert (1, "-128") in _returned(int8_global, _PICKS)
    assert (1, "255") in _returned(uint8_global, _PICKS) and (1, "-32768") in _returned(int16_cell, _PICKS)


def test_numpy_integers_of_64_bits_and_python_comparisons_are_still_proven():
    """What stays proven: np.int64 constants, a comparison of Python ints added to an int, a numpy comparison
    added to an int (np.bool_ + int is an np.int64, the same output as the int)."""
    k64 = np.int64(1)

    def mixed(x, rng, k=k64):
        y = rng.integers(0, 4)
        return max(0, min(3, x + (x > 1) + (y > 2) - k))
    assert proven_outputs(mixed, DOMAIN, pass_rng=True).values == (0, 1, 2, 3)
    assert _sound(mixed, _PICKS) == []


# -- the danger: a numpy boolean past the first level is certified consistent ---------------------------------------

def _geo(rng):
    g = 0
    while rng.random() < Fraction(1, 2):
        g += 1
    return g


def npbool_late(x, rng):
    """eps_d = ln 8 on the paths of at most 41 heads (the clamped two-sided geometric of
    tests/test_audit_proven_outputs.py); after 41 heads in a row np.bool_(x == 0), True only from input 0: the true
    eps_d is infinite."""
    g = _geo(rng)
    y = np.clip(x + g - _geo(rng), 0, 3)
    if g > 40:
        return (y < 0) + (x == 0)
    return y


def test_a_late_numpy_boolean_is_not_certified():
    """Declared 0..3 by a careless user it is certified (the enumeration never sees the stray output); the proof
    must not say the same."""
    wrong = audit(npbool_late, domain=DOMAIN, eps=1.05 * LN8, outputs=[0, 1, 2, 3])
    assert wrong.verdict == "consistent"
    with pytest.raises(Refused, match="numpy bool"):
        proven_outputs(npbool_late, DOMAIN, pass_rng=True)
    try:
        report = audit(npbool_late, domain=DOMAIN, eps=1.05 * LN8, seconds=0.5)
    except NotEnumerable:
        return
    assert report.verdict != "consistent"


# -- the random module replaced in part by the user's code ---------------------------------------------------------

def test_a_replaced_random_function_is_refused(monkeypatch):
    """random.choice (or the Random class's methods randrange relies on) replaced by the user's code: the proof
    cannot say what they return."""
    def chosen(x):
        return random.choice([0, 1, 2, 3])

    def ranged(x):
        return random.randrange(0, 4)
    assert proven_outputs(chosen, DOMAIN, pass_rng=False).values == (0, 1, 2, 3)
    assert proven_outputs(ranged, DOMAIN, pass_rng=False).values == (0, 1, 2, 3)
    monkeypatch.setattr(random, "choice", lambda seq: 7)
    assert chosen(0) == 7
    with pytest.raises(Refused, match="random"):
        proven_outputs(chosen, DOMAIN, pass_rng=False)
    monkeypatch.undo()
    monkeypatch.setattr(random.Random, "_randbelow", lambda self, n: 7)
    assert ranged(0) == 7
    with pytest.raises(Refused, match="random"):
        proven_outputs(ranged, DOMAIN, pass_rng=False)
    monkeypatch.undo()
    # a helper of a helper: _randbelow draws getrandbits(k) until below n, and a negative one is below any n
    # (set and deleted by hand: monkeypatch would restore the inherited method as an attribute of their own)
    for owner, fake in ((random.randrange.__self__, lambda k: -5), (random.Random, lambda self, k: -5)):
        owner.getrandbits = fake
        try:
            assert ranged(0) == -5
            with pytest.raises(Refused, match="random"):
                proven_outputs(ranged, DOMAIN, pass_rng=False)
        finally:
            del owner.getrandbits
    assert proven_outputs(ranged, DOMAIN, pass_rng=False).values == (0, 1, 2, 3)


# -- the proof is used on the command line only when its worker imported the module as the enumerating ones did ----

def _load(tmp_path, name, body):
    import importlib.util
    import textwrap

    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    spec = importlib.util.spec_from_file_location(f"_soundness_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("value", ["np.int64({})", "Fraction({}, 7)", "np.float64({})"])
def test_the_fingerprint_holds_what_the_proof_reads(tmp_path, value):
    """A value drawn at import differs between worker processes: the digest that says two workers imported the module
    alike must differ when any value the proof reads differs (a numpy or Fraction constant, a default argument, a
    closure's cell, a constant of a helper's module), else the proof of one process is used for the other's paths."""
    from relations.audit._worker import _fingerprint

    bodies = {
        "constant": """
            import numpy as np
            from fractions import Fraction
            HI = {v}
            def rr(x, rng):
                return max(0, min(HI, x))
        """,
        "default": """
            import numpy as np
            from fractions import Fraction
            def rr(x, rng, hi={v}):
                return max(0, min(hi, x))
        """,
        "cell": """
            import numpy as np
            from fractions import Fraction
            def make(hi):
                def rr(x, rng):
                    return max(0, min(hi, x))
                return rr
            rr = make({v})
        """,
        "helper": """
            from {helper} import clamp
            def rr(x, rng):
                return clamp(x)
        """,
    }
    for kind, body in bodies.items():
        prints = []
        for n in (3, 4):
            helper = _load(tmp_path, f"helper_{kind}_{n}", f"""
                import numpy as np
                from fractions import Fraction
                HI = {value.format(n)}
                def clamp(y):
                    return max(0, min(HI, y))
            """)
            import sys
            sys.modules[helper.__name__] = helper
            m = _load(tmp_path, f"{kind}_{n}", body.replace("{v}", value.format(n)).replace("{helper}", helper.__name__))
            prints.append(_fingerprint(m.rr))
        assert prints[0] != prints[1], kind


# -- what the proof takes for the standard library, replaced before the audit was imported, or patched since ------

def test_only_the_interpreter_s_own_builtins_are_taken_for_them():
    """The real builtins are kept as found when the proof's module is imported: in a notebook the user's code may
    have run first. A replacement (numpy's min is named min: np.min(5, 0) is 5, min(5, 0) is 0) is not the real one."""
    import builtins

    from relations.audit._proven import _genuine_builtins, _genuine_math

    real = {n: getattr(builtins, n) for n in ("min", "max", "abs", "int", "range")}
    assert _genuine_builtins(real) == real
    fakes = dict(real, min=np.min, max=lambda a, b: a, int=type("int", (int,), {}), range=type("range", (), {}))
    assert _genuine_builtins(fakes) == {"abs": abs}
    assert np.min(5, 0) == 5  # what a proof taking it for min would miss
    assert _genuine_math({"floor": math.floor, "ceil": math.ceil, "isqrt": math.isqrt}) is True
    assert _genuine_math({"floor": np.floor, "ceil": math.ceil, "isqrt": math.isqrt}) is False


def frac_compared(x, rng):
    """x + (1/2 < 1) - 1 is x: proven 0..3; with Fraction's < replaced by the user's code, anything."""
    return x + (Fraction(1, 2) < 1) - 1


def test_a_patched_fraction_is_refused(monkeypatch):
    assert proven_outputs(frac_compared, DOMAIN, pass_rng=True).values == (-1, 0, 1, 2, 3)
    monkeypatch.setattr(Fraction, "__lt__", lambda a, b: 5)
    assert frac_compared(3, None) == 7
    with pytest.raises(Refused, match="Fraction"):
        proven_outputs(frac_compared, DOMAIN, pass_rng=True)


# -- a run that ends in an exception: an outcome (only input 0 can crash), which the proof never returns -----------

def raises_late(x, rng):
    """After 41 heads in a row, input 0 raises: a crash only input 0 can give (eps_d infinite with the crash as an
    outcome); the explored paths give the clamped geometric (ln 8)."""
    g = _geo(rng)
    if g > 40 and x == 0:
        raise OverflowError("only from input 0")
    return max(0, min(3, x + g - _geo(rng)))


_ASSERTS = """
from fractions import Fraction
def _geo(rng):
    g = 0
    while rng.random() < Fraction(1, 2):
        g += 1
    return g
def asserts_late(x, rng):
    g = _geo(rng)
    assert g <= 40 or x != 0
    return max(0, min(3, x + g - _geo(rng)))
def asserts_proven(x, rng):
    y = max(0, min(3, x + _geo(rng) - _geo(rng)))
    assert 0 <= y <= 3  # cannot fail: it narrows like an if
    return y
"""


def test_a_run_that_may_raise_is_refused(tmp_path):
    """An exception on a path the enumeration cuts is an outcome it never sees; on a path it follows the audit
    stops (the randomizer failed): the proof must not assume it away.  (The asserts are in a file of their own:
    pytest rewrites those of a test module, which then is not its source.)"""
    m = _load(tmp_path, "asserts", _ASSERTS)
    for fn in (raises_late, m.asserts_late):
        with pytest.raises(Refused, match="exception"):
            proven_outputs(fn, DOMAIN, pass_rng=True)
    assert proven_outputs(m.asserts_proven, DOMAIN, pass_rng=True).values == (0, 1, 2, 3)


def test_a_late_exception_is_not_certified():
    try:
        report = audit(raises_late, domain=DOMAIN, eps=1.05 * LN8, seconds=0.5)
    except NotEnumerable:
        return
    assert report.verdict != "consistent"


_CRASHES = """
import math, random
from fractions import Fraction
def _geo(rng):
    g = 0
    while rng.random() < Fraction(1, 2):
        g += 1
    return g
def _clamped(x, rng, g):
    return max(0, min(3, x + g - _geo(rng)))
def floordiv(x, rng):
    g = _geo(rng)
    return _clamped(x, rng, g) + 0 * (1 // (g - 41 + 100 * x))
def mod(x, rng):
    g = _geo(rng)
    return _clamped(x, rng, g) + 0 * (1 % (g - 41 + 100 * x))
def truediv(x, rng):
    g = _geo(rng)
    return _clamped(x, rng, g) + 0 * int(1 / (g - 41 + 100 * x))
def fraction(x, rng):
    g = _geo(rng)
    return _clamped(x, rng, g) + 0 * (Fraction(1, g - 41 + 100 * x) // 1)
def integers(x, rng):
    g = _geo(rng)
    return _clamped(x, rng, g) + 0 * rng.integers(0, 41 - g + 100 * x)
def choice(x, rng):
    g = _geo(rng)
    return _clamped(x, rng, g) + 0 * rng.choice(41 - g + 100 * x)
def binomial(x, rng):
    g = _geo(rng)
    return _clamped(x, rng, g) + 0 * rng.binomial(40 - g + 100 * x, 0.5)
def randrange(x, rng):
    g = _geo(rng)
    return _clamped(x, rng, g) + 0 * random.randrange(41 - g + 100 * x)
def isqrt(x, rng):
    g = _geo(rng)
    return _clamped(x, rng, g) + 0 * math.isqrt(40 - g + 100 * x)
def power(x, rng):
    g = _geo(rng)
    return _clamped(x, rng, g) + 0 * int((g - 41 + 100 * x) ** -1)
def steps(x, rng):
    g = _geo(rng)
    y = _clamped(x, rng, g)
    for i in range(0, 1, g - 41 + 100 * x):
        y = y
    return y
def safe(x, rng):
    g = _geo(rng)
    return _clamped(x, rng, g) + 0 // (g + 1) + 0 * rng.integers(0, g + 1) + 0 * random.randrange(g + 1)
"""
_CRASHING = ["floordiv", "mod", "truediv", "fraction", "integers", "choice", "binomial", "randrange", "isqrt", "power",
             "steps"]


@pytest.mark.parametrize("name", _CRASHING)
def test_an_operation_that_may_raise_is_refused(tmp_path, name):
    """Each crashes (division by zero, an empty range, a negative square root, a zero step) only from input 0 and
    only after 41 heads in a row: the proof must refuse, not prove 0..3.  The crash is real (checked with a draw
    that gives 41 heads); what cannot fail (a divisor of at least 1, a range never empty) is still proven."""
    m = _load(tmp_path, f"crashes_{name}", _CRASHES)

    class Heads:
        def __init__(self, n):
            self.n = n

        def random(self):
            self.n -= 1
            return 0.0 if self.n >= 0 else 0.9

        def integers(self, low, high=None):
            return np.random.default_rng(0).integers(low, high)

        def choice(self, n):
            return np.random.default_rng(0).choice(n)

        def binomial(self, n, p):
            return np.random.default_rng(0).binomial(n, p)
    fn = getattr(m, name)
    with pytest.raises((ArithmeticError, ValueError)):
        fn(0, Heads(41))
    for x in (1, 2, 3):
        fn(x, Heads(41))
    with pytest.raises(Refused, match="raise|zero|empty|negative|step"):
        proven_outputs(fn, DOMAIN, pass_rng=True)
    assert proven_outputs(m.safe, DOMAIN, pass_rng=True).values == (0, 1, 2, 3)


# -- globals or builtins that are not plain dicts: a lookup runs the user's code ---------------------------------

class _Missing(dict):
    """Globals whose missing names (min, looked up in the globals first) are the user's choice."""

    def __missing__(self, name):
        if name == "min":
            return lambda a, b: 9
        raise KeyError(name)


def test_globals_that_run_code_on_lookup_are_refused():
    import types

    def clamped(x, rng):
        return max(0, min(3, x))
    tricky = types.FunctionType(clamped.__code__, _Missing(clamped.__globals__), "clamped")
    assert tricky(0, None) == 9
    with pytest.raises(Refused, match="dict"):
        proven_outputs(tricky, DOMAIN, pass_rng=True)


def wraps_late(x, rng):
    """np.int64 arithmetic that overflows only on paths of about 2^62 draws: a warning, an exception under a
    warnings filter 'error' (a run that crashes), or with np.seterr(over='raise')."""
    g = rng.geometric(0.5)
    return max(0, min(3, x + g * (2**40) * (2**30) - g * (2**40) * (2**30)))


def test_numpy_overflow_that_may_raise_is_refused():
    assert proven_outputs(wraps_late, DOMAIN, pass_rng=True).values == (0, 1, 2, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning):
            np.int64(2**62) * 4  # noqa: B018 - the warning, an exception under this filter
        with pytest.raises(Refused, match="overflow"):
            proven_outputs(wraps_late, DOMAIN, pass_rng=True)
    with np.errstate(over="raise"), pytest.raises(Refused, match="seterr"):
        proven_outputs(wraps_late, DOMAIN, pass_rng=True)


def np_with_a_big_int(x, rng):
    """numpy refuses a Python int outside int64 in arithmetic with an np.int64 (OverflowError): x = 0 returns,
    x >= 1 crashes."""
    y = rng.integers(0, 2)
    return max(0, min(3, y + x * 2**64))


def test_numpy_arithmetic_with_a_python_int_beyond_int64_is_refused():
    assert np_with_a_big_int(0, np.random.default_rng(0)) in (0, 1)
    with pytest.raises(OverflowError):
        np_with_a_big_int(1, np.random.default_rng(0))
    with pytest.raises(Refused, match="int64"):
        proven_outputs(np_with_a_big_int, DOMAIN, pass_rng=True)
