"""The closed world of the white-box route: every random source a randomizer can reach is enumerated or blocked.

Within :class:`intercepted_globals`:

* **enumerated** (each draw answered by the current
  :class:`~relations.audit._generator.EnumeratingGenerator`, so every outcome is tried): Python's
  ``random`` module functions and every ``random.Random`` instance that was not seeded in the run;
  numpy's legacy global functions (``np.random.random``, ``randint``, ``choice`` ...), and the
  generators the code builds without a seed: ``np.random.default_rng()``, ``RandomState()``,
  ``Generator(PCG64())`` and the other bit generators, ``SeedSequence()``;
* **run for real** (a seeded generator is a deterministic function, its draws constants rather than
  choices, so a constant-seeded randomizer is audited as the deterministic function it is):
  ``random.seed(s)`` followed by module draws, ``random.Random(s)``, ``np.random.seed(s)`` followed by
  legacy draws, ``default_rng(s)``, ``RandomState(s)``, ``Generator(PCG64(s))``, for any seed ``s`` other
  than ``None``;
* **enumerated when finite** (operating-system entropy): ``os.urandom(n)``, ``os.getrandom(n)``,
  ``secrets.token_bytes`` / ``token_hex`` / ``token_urlsafe`` byte by byte (each byte one draw of 256
  outcomes), ``secrets.randbelow(n)``, ``secrets.randbits(k)``, ``secrets.choice`` and the draws of
  ``random.SystemRandom`` (instances made before the run too) as the same draws of the enumerating generator,
  when the call has at most :data:`ENTROPY_BYTES` bytes or :data:`~relations.audit._enumerate.MAX_OUTCOMES`
  outcomes;
* **blocked**: a larger call of those, and ``uuid.uuid4`` (122 random bits).  A blocked call raises
  :class:`HiddenEntropy` naming the source, and is remembered in ``current.blocked``, so that the route ends
  with that reason even when the code catches the exception;
* **run as Python**: numba-compiled functions called from Python (their ``py_func``), as the library
  adapters run them; numba's own generators are marked seeded before the run (:func:`_settle_native_generators`),
  so that compiled code never asks ``os.urandom`` for a seed from C, where an error aborts the process.

Still invisible: a generator built *before* the run (at import) and native code that draws its own
entropy.  Their draws are not seen here; the replays of :mod:`relations.audit._exact` detect them when they
change an output.  Everything patched is restored on exit, also after an error.
"""

from __future__ import annotations

import operator
import sys
from collections.abc import Callable, Sequence
from typing import Any

from relations.audit._enumerate import MAX_OUTCOMES, MAX_PATHS, HiddenRandomness
from relations.audit._generator import through as _through

__all__ = ["HiddenEntropy", "BLOCKED", "ENTROPY", "intercepted_globals"]

#: The sources the white-box route blocks, as ``module.name``.
BLOCKED = ("uuid.uuid4",)
#: The operating-system entropy the white-box route enumerates when the draw is finite and small enough (each
#: byte one draw of 256 outcomes, at most :data:`ENTROPY_BYTES` bytes per call; an integer at most
#: :data:`~relations.audit._enumerate.MAX_OUTCOMES` outcomes), and blocks otherwise, naming the call.
ENTROPY = ("os.urandom", "os.getrandom", "secrets.randbelow", "secrets.randbits", "secrets.choice",
           "secrets.token_bytes", "secrets.token_hex", "secrets.token_urlsafe", "random.SystemRandom")
#: Most bytes of one call of :data:`ENTROPY` enumerated: ``256 ** n`` paths must fit the default path limit.
ENTROPY_BYTES = max(n for n in range(1, 8) if 256**n <= MAX_PATHS)


class HiddenEntropy(HiddenRandomness):
    """The randomizer drew operating-system entropy that the exact route cannot enumerate: a blocked source
    (``uuid.uuid4``), or a call with more outcomes than the route's limits (``source`` is then
    ``"call: why"``).

    Examples
    --------
    >>> str(HiddenEntropy("uuid.uuid4"))
    'the randomizer draws from uuid.uuid4 (operating-system entropy), which the exact route cannot enumerate'
    >>> str(HiddenEntropy("os.urandom(16): 2^128 outcomes"))
    'the randomizer draws from os.urandom(16) (operating-system entropy, 2^128 outcomes), which the exact route cannot enumerate'
    """

    def __init__(self, source: str):
        call, _, why = source.partition(": ")
        super().__init__(f"the randomizer draws from {call} (operating-system entropy{', ' + why if why else ''}), "
                         "which the exact route cannot enumerate")


class _Current:
    generator: Any = None  # the current EnumeratingGenerator
    blocked: str | None = None  # the first blocked source the code called in this run
    py_seeded = False  # random.seed(s) was called with a seed in this run
    np_seeded = False  # np.random.seed(s) likewise
    py_reseeded = False  # random.seed(...) was called in this run, with a seed or without (the real state moved)
    np_reseeded = False  # np.random.seed(...) likewise


class _Unseeded:
    """What an unseeded ``SeedSequence()`` or bit generator becomes in the closed world: a marker that a
    generator built from it draws from the enumerating generator."""

    def __init__(self, name: str):
        self.name = name


def _legacy(g: Any) -> Any:
    """numpy's legacy draws (``RandomState`` methods, the ``np.random`` functions) on the generator ``g()``."""
    return {"random": lambda size=None: g().random(size), "random_sample": lambda size=None: g().random(size),
            "rand": lambda *shape: g().random(shape or None),
            "randint": _through(lambda low, high=None, size=None, dtype=int: g().integers(low, high, size, dtype)),
            "choice": lambda a, size=None, replace=True, p=None: g().choice(a, size, replace, p),
            "permutation": lambda x: g().permutation(x), "shuffle": lambda x: g().shuffle(x),
            "binomial": lambda n, p, size=None: g().binomial(n, p, size),
            "uniform": lambda low=0.0, high=1.0, size=None: g().uniform(low, high, size)}


class _EnumeratingRandomState:
    """``np.random.RandomState()`` without a seed, in the closed world: its draws are enumerated."""

    def __init__(self, current: Any):
        for name, f in _legacy(lambda: current.generator).items():
            setattr(self, name, f)


def _global_patches(current: Any) -> list[tuple[Any, str, Any]]:
    """(module or class, attribute, replacement) for every source of the closed world."""
    import random

    import numpy as np

    def g() -> Any:
        assert current.generator is not None
        return current.generator

    @_through
    def randrange(start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        if step == 1 and stop > start:  # the value itself, so that a comparison of it can be one branch per side
            return g().integers(start, stop, _python=True)
        return stepped(range(start, stop, step))

    def stepped(values: range) -> int:  # not passed through: the draw is an index, not the value the code compares
        return values[g().integers(0, len(values), _python=True)]

    def sample(population: Sequence[Any], k: int, **_: Any) -> list[Any]:
        return g().choice(list(population), size=k, replace=False, _python=True)

    def choices(population: Sequence[Any], weights: Sequence[Any] | None = None, *, cum_weights: Any = None,
                k: int = 1) -> list[Any]:
        if cum_weights is not None:
            weights = [c - (cum_weights[i - 1] if i else 0) for i, c in enumerate(cum_weights)]
        chosen: list[Any] = []  # a local, not a comprehension: the choices so far are state at the next draw
        while len(chosen) < k:
            chosen.append(g().choice(population, p=weights, _python=True))
        return chosen

    draws: dict[str, Any] = {"random": lambda: g().random(), "randint": _through(lambda a, b: g().integers(a, b + 1, _python=True)),
             "randrange": randrange, "choice": lambda seq: g().choice(seq, _python=True), "shuffle": lambda x: g().shuffle(x),
             "sample": sample, "getrandbits": _through(lambda k: g().integers(0, 2**k, _python=True)),
             "uniform": lambda a, b: g().uniform(a, b), "choices": choices}
    out: list[tuple[Any, str, Any]] = []
    # Python's random: module functions (one hidden instance) and Random instances, unless seeded in the run
    for name, f in draws.items():
        out.append((random, name, _unless_seeded(getattr(random, name), f, lambda: current.py_seeded)))
    seed_module = random.seed

    def module_seed(a: Any = None, *args: Any, **kw: Any) -> None:
        seed_module(a, *args, **kw)
        current.py_seeded, current.py_reseeded = a is not None, True
    out.append((random, "seed", module_seed))
    instance_seed = random.Random.seed

    def seed_instance(self: Any, a: Any = None, *args: Any, **kw: Any) -> None:
        instance_seed(self, a, *args, **kw)
        try:
            self._relations_seeded, self._relations_reseeded = a is not None, True
        except AttributeError:  # pragma: no cover - a subclass with __slots__
            pass
    out.append((random.Random, "seed", seed_instance))
    for name, f in draws.items():
        if name == "getrandbits":
            continue
        original = getattr(random.Random, name)
        out.append((random.Random, name, _instance_draw(f, original)))
    out += _entropy_patches(current, g, draws)
    # numpy: the legacy global state and every generator built in the run
    npr = np.random
    legacy = _legacy(g)
    for name, f in legacy.items():
        out.append((npr, name, _unless_seeded(getattr(npr, name), f, lambda: current.np_seeded)))
    np_seed = npr.seed

    def seed_numpy(seed: Any = None) -> None:
        np_seed(seed)
        current.np_seeded, current.np_reseeded = seed is not None, True
    out.append((npr, "seed", seed_numpy))
    real_rng, real_state, real_generator, real_ss = npr.default_rng, npr.RandomState, npr.Generator, npr.SeedSequence

    def default_rng(seed: Any = None) -> Any:
        if seed is not None and seed is current.generator:  # numpy returns a Generator it is given unaltered
            return seed
        return g() if seed is None or isinstance(seed, _Unseeded) else real_rng(seed)

    def random_state(seed: Any = None) -> Any:
        return _EnumeratingRandomState(current) if seed is None or isinstance(seed, _Unseeded) else real_state(seed)

    def generator(bit_generator: Any) -> Any:
        return g() if isinstance(bit_generator, _Unseeded) else real_generator(bit_generator)

    def seed_sequence(entropy: Any = None, *args: Any, **kw: Any) -> Any:
        return _Unseeded("SeedSequence()") if entropy is None else real_ss(entropy, *args, **kw)
    out += [(npr, "default_rng", default_rng), (npr, "RandomState", _switch(real_state, random_state)),
            (npr, "Generator", _switch(real_generator, generator)), (npr, "SeedSequence", _switch(real_ss, seed_sequence))]
    for name in ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64"):
        real = getattr(npr, name, None)
        if real is not None:
            out.append((npr, name, _switch(real, (lambda real, name: lambda seed=None, *a, **kw: _Unseeded(f"{name}()")  # noqa: B023
                                                  if seed is None or isinstance(seed, _Unseeded) else
                                                  real(seed, *a, **kw))(real, name))))  # noqa: B023
    return out


def _entropy_patches(current: Any, g: Callable[[], Any], draws: dict[str, Any]) -> list[tuple[Any, str, Any]]:
    """Operating-system entropy in the closed world (:data:`ENTROPY`): each call answered by the enumerating
    generator ``g()``, byte by byte (256 outcomes each) or as one integer draw, when it is small enough to
    enumerate; otherwise blocked (:class:`HiddenEntropy`, remembered in ``current.blocked``, naming the call and
    its size).  :data:`BLOCKED` sources are blocked outright."""
    import base64
    import os
    import random
    import secrets
    import uuid

    def refuse(what: str) -> Any:
        current.blocked = current.blocked or what
        raise HiddenEntropy(what)

    def take(name: str, n: Any) -> bytes:
        n = operator.index(n)
        if n < 0:
            raise ValueError("negative argument not allowed")
        if n > ENTROPY_BYTES:
            refuse(f"{name}({n}): 2^{8 * n} outcomes, beyond the path limit of {MAX_PATHS:,}")
        drawn: list[int] = []  # a local, not a generator expression: the bytes so far are state at the next draw
        while len(drawn) < n:
            drawn.append(g().integers(0, 256, _python=True))
        return bytes(drawn)

    @_through
    def below(name: str, n: Any) -> int:
        n = operator.index(n)
        if n <= 0:
            raise ValueError("Upper bound must be positive.")
        if n > MAX_OUTCOMES:
            refuse(f"{name}({n}): {n:,} outcomes, beyond the limit of {MAX_OUTCOMES:,} per draw")
        return g().integers(0, n, _python=True)

    @_through
    def bits(name: str, k: Any) -> int:
        k = operator.index(k)
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if 2**k > MAX_OUTCOMES:
            refuse(f"{name}({k}): 2^{k} outcomes, beyond the limit of {MAX_OUTCOMES:,} per draw")
        return g().integers(0, 2**k, _python=True)

    def token(name: str, nbytes: Any) -> bytes:
        return take(name, secrets.DEFAULT_ENTROPY if nbytes is None else nbytes)

    def blocker(name: str) -> Any:
        def blocked(*_: Any, **__: Any) -> Any:
            refuse(name)
        return blocked

    out: list[tuple[Any, str, Any]] = [
        (os, "urandom", lambda n: take("os.urandom", n)),
        (secrets, "randbelow", _through(lambda n: below("secrets.randbelow", n))),
        (secrets, "randbits", _through(lambda k: bits("secrets.randbits", k))),
        (secrets, "choice", lambda seq: draws["choice"](seq)),
        (secrets, "token_bytes", lambda nbytes=None: token("secrets.token_bytes", nbytes)),
        (secrets, "token_hex", lambda nbytes=None: token("secrets.token_hex", nbytes).hex()),
        (secrets, "token_urlsafe", lambda nbytes=None: base64.urlsafe_b64encode(
            token("secrets.token_urlsafe", nbytes)).rstrip(b"=").decode("ascii"))]
    if hasattr(os, "getrandom"):
        out.append((os, "getrandom", lambda size, flags=0: take("os.getrandom", size)))
    system = random.SystemRandom  # instances made before the run, too

    def method(f: Callable[..., Any]) -> Callable[..., Any]:
        return _through(lambda self, *a, **kw: f(*a, **kw))
    methods = {name: method(f) for name, f in draws.items()}
    methods.update({"getrandbits": method(_through(lambda k: bits("random.SystemRandom.getrandbits", k))),
                    "randbytes": method(lambda n: take("random.SystemRandom.randbytes", n)),
                    "_randbelow": method(_through(lambda n: below("random.SystemRandom", n)))})
    for name, method in sorted(methods.items()):
        if hasattr(system, name):
            out.append((system, name, method))
    for qualified in BLOCKED:
        module_name, name = qualified.split(".")
        module = {"uuid": uuid}[module_name]
        if hasattr(module, name):
            out.append((module, name, blocker(qualified)))
    return out


def _numba_patches() -> list[tuple[Any, str, Any]]:
    """numba-compiled functions (``@jit``, ``@njit``) in the closed world: when numba is loaded, a call of one
    from Python runs its Python source (``py_func``), whose draws are then enumerated, as the library adapters
    do (:mod:`relations.audit._libraries`); compiled code drawing from numba's own generators stays invisible
    (the replays see it)."""
    numba = sys.modules.get("numba")
    dispatcher = getattr(sys.modules.get("numba.core.dispatcher"), "Dispatcher", None)
    if numba is None or not isinstance(dispatcher, type):
        return []

    def call(self: Any, *args: Any, **kw: Any) -> Any:
        return self.py_func(*args, **kw)
    return [(dispatcher, "__call__", call)]


def _settle_native_generators() -> None:
    """numba's own generators (compiled code's ``np.random`` and ``random``) seed themselves from ``os.urandom``
    on their first draw, from C, where an error is fatal (``Py_FatalError``: the process aborts).  Before the
    closed world replaces ``os.urandom``, each is marked initialized at the state it has (setting a state to
    itself), so that native code never calls it during the run."""
    helper = sys.modules.get("numba._helperlib")
    if helper is None:
        return
    try:
        for pointer in (helper.rnd_get_np_state_ptr(), helper.rnd_get_py_state_ptr()):
            helper.rnd_set_state(pointer, helper.rnd_get_state(pointer))
    except Exception:  # noqa: S110 - another numba: its generators stay as they were
        pass


def _instance_draw(f: Callable[..., Any], original: Callable[..., Any]) -> Callable[..., Any]:
    """A ``random.Random`` method in the closed world: the real one once the instance was seeded in the run, else
    the enumerated draw ``f``."""
    @_through
    def draw(self: Any, *a: Any, **kw: Any) -> Any:
        return original(self, *a, **kw) if getattr(self, "_relations_seeded", False) else f(*a, **kw)
    return draw


def _unless_seeded(original: Any, enumerated: Any, seeded: Any) -> Any:
    """A module's draw in the closed world: the real one once the module's generator was seeded in the run
    (``seeded()``), else the enumerated one."""
    @_through
    def draw(*args: Any, **kw: Any) -> Any:
        return original(*args, **kw) if seeded() else enumerated(*args, **kw)
    return draw


def _switch(real: type, make: Any) -> Any:
    """A stand-in for the class ``real``: calling it calls ``make``, and ``isinstance`` / ``issubclass`` checks
    against it are checks against ``real`` (numpy's own code makes them)."""
    class Switch(type):
        def __instancecheck__(cls, obj: Any) -> bool:
            return isinstance(obj, real)

        def __subclasscheck__(cls, sub: Any) -> bool:
            return issubclass(sub, real)

        def __call__(cls, *args: Any, **kw: Any) -> Any:
            return make(*args, **kw)
    return Switch(real.__name__, (), {"__module__": real.__module__, "__doc__": real.__doc__})


class intercepted_globals:
    """Within the block, every random source of the closed world is enumerated, run for real (seeded) or
    blocked (``with intercepted_globals() as current: current.generator = ...``).

    ``current.begin()`` starts a run of the randomizer: it forgets the seeding and the blocked source of
    the previous run.  Everything patched is restored on exit, also after an error.
    """

    def __enter__(self) -> Any:
        current: Any = type("Current", (_Current,), {})
        self.current = current

        def begin() -> None:
            current.blocked, current.py_seeded, current.np_seeded = None, False, False
            current.py_reseeded = current.np_reseeded = False
        current.begin = staticmethod(begin)
        self.saved = []
        _settle_native_generators()
        for module, name, replacement in _global_patches(current) + _numba_patches():
            self.saved.append((module, name, module.__dict__.get(name, _MISSING) if isinstance(module, type)
                               else getattr(module, name)))
            setattr(module, name, replacement)
        return current

    def __exit__(self, *exc: Any) -> None:
        for module, name, original in reversed(self.saved):
            if original is _MISSING:
                delattr(module, name)
            else:
                setattr(module, name, original)


_MISSING = object()
