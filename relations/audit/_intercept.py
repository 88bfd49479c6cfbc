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
* **blocked** (operating-system entropy, which cannot be enumerated): ``secrets`` (``randbelow``,
  ``randbits``, ``choice``, ``token_*``), ``os.urandom``, ``os.getrandom``, ``random.SystemRandom`` and
  ``uuid.uuid4``.  A blocked call raises :class:`HiddenEntropy` naming the source, and is remembered in
  ``current.blocked``, so that the route ends with that reason even when the code catches the
  exception.

Still invisible: a generator built *before* the run (at import) and native code that draws its own
entropy.  Their draws are not seen here; the replays of :mod:`relations.audit._exact` detect them when they
change an output.  Everything patched is restored on exit, also after an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from relations.audit._enumerate import HiddenRandomness

__all__ = ["HiddenEntropy", "BLOCKED", "intercepted_globals"]

#: The sources the white-box route blocks, as ``module.name``.
BLOCKED = ("secrets.randbelow", "secrets.randbits", "secrets.choice", "secrets.token_bytes", "secrets.token_hex",
           "secrets.token_urlsafe", "os.urandom", "os.getrandom", "random.SystemRandom", "uuid.uuid4")


class HiddenEntropy(HiddenRandomness):
    """The randomizer drew operating-system entropy (a blocked source): the exact route cannot enumerate it.

    Examples
    --------
    >>> str(HiddenEntropy("os.urandom"))
    'the randomizer draws from os.urandom (operating-system entropy), which the exact route cannot enumerate'
    """

    def __init__(self, source: str):
        super().__init__(f"the randomizer draws from {source} (operating-system entropy), which the exact route "
                         "cannot enumerate")


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
            "randint": lambda low, high=None, size=None, **kw: g().integers(low, high, size),
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
    import os
    import random
    import secrets
    import uuid

    import numpy as np

    def g() -> Any:
        assert current.generator is not None
        return current.generator

    def randrange(start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        values = range(start, stop, step)
        return values[int(g().integers(0, len(values)))]

    def sample(population: Sequence[Any], k: int, **_: Any) -> list[Any]:
        return list(g().choice(list(population), size=k, replace=False))

    def choices(population: Sequence[Any], weights: Sequence[Any] | None = None, *, cum_weights: Any = None,
                k: int = 1) -> list[Any]:
        if cum_weights is not None:
            weights = [c - (cum_weights[i - 1] if i else 0) for i, c in enumerate(cum_weights)]
        return [g().choice(list(population), p=weights) for _ in range(k)]

    draws: dict[str, Any] = {"random": lambda: g().random(), "randint": lambda a, b: int(g().integers(a, b + 1)),
             "randrange": randrange, "choice": lambda seq: g().choice(list(seq)), "shuffle": lambda x: g().shuffle(x),
             "sample": sample, "getrandbits": lambda k: int(g().integers(0, 2**k)),
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
        out.append((random.Random, name, (lambda f, original: lambda self, *a, **kw: original(self, *a, **kw)  # noqa: B023
                                          if getattr(self, "_relations_seeded", False) else f(*a, **kw))(f, original)))  # noqa: B023
    # operating-system entropy: blocked

    def blocker(name: str) -> Any:
        def blocked(*_: Any, **__: Any) -> Any:
            current.blocked = current.blocked or name
            raise HiddenEntropy(name)
        return blocked
    system = random.SystemRandom  # instances made before the run, too: every draw blocked
    for qualified in BLOCKED:
        module_name, name = qualified.split(".")
        module = {"secrets": secrets, "os": os, "random": random, "uuid": uuid}[module_name]
        if hasattr(module, name):
            out.append((module, name, blocker(qualified)))
    for name in sorted(set(draws) | {"random", "getrandbits", "randbytes"}):
        if hasattr(system, name):
            out.append((system, name, (lambda b: lambda self, *a, **kw: b())(blocker("random.SystemRandom"))))
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


def _unless_seeded(original: Any, enumerated: Any, seeded: Any) -> Any:
    """A module's draw in the closed world: the real one once the module's generator was seeded in the run
    (``seeded()``), else the enumerated one."""
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
        for module, name, replacement in _global_patches(current):
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
