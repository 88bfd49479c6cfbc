"""Intercepting the global random sources a randomizer may use: Python's ``random`` and numpy's ``np.random``.

Library randomizers often draw from the global generators instead of taking one
(pure-ldp, for instance); some make their own ``random.Random()``, whose methods are
intercepted too (``random.SystemRandom``, ``secrets`` and numpy generators other than the
global one and ``default_rng()`` are not: randomness drawn from them is detected by replays
and sends the audit to sampling).  Within :class:`intercepted_globals` those draws go to the
current :class:`~relations.audit.enumerate.EnumeratingGenerator`, so the white-box
route sees every random choice; everything patched is restored on exit.
"""

from __future__ import annotations

from typing import Any, Sequence

__all__ = ["intercepted_globals"]


class _Current:
    generator: Any = None  # the current EnumeratingGenerator


def _global_patches(current: type[_Current]) -> list[tuple[Any, str, Any]]:
    """(module, attribute, replacement) for Python's ``random`` and numpy's global generator."""
    import random

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

    py = [(random, "random", lambda: g().random()), (random, "randint", lambda a, b: int(g().integers(a, b + 1))),
          (random, "randrange", randrange), (random, "choice", lambda seq: g().choice(list(seq))),
          (random, "shuffle", lambda x: g().shuffle(x)), (random, "sample", sample),
          (random, "getrandbits", lambda k: int(g().integers(0, 2**k))),
          (random, "uniform", lambda a, b: g().uniform(a, b)), (random, "choices", choices)]
    # instances of random.Random made by the code (random.Random(), a module's own generator)
    methods = [(random.Random, name, (lambda f: lambda self, *a, **kw: f(*a, **kw))(f))
               for _, name, f in py if name != "getrandbits"]
    py += methods
    npr = np.random
    nump = [(npr, "random", lambda size=None: g().random(size)), (npr, "random_sample", lambda size=None: g().random(size)),
            (npr, "rand", lambda *shape: g().random(shape or None)),
            (npr, "randint", lambda low, high=None, size=None, **kw: g().integers(low, high, size)),
            (npr, "choice", lambda a, size=None, replace=True, p=None: g().choice(a, size, replace, p)),
            (npr, "permutation", lambda x: g().permutation(x)), (npr, "shuffle", lambda x: g().shuffle(x)),
            (npr, "binomial", lambda n, p, size=None: g().binomial(n, p, size)),
            (npr, "uniform", lambda low=0.0, high=1.0, size=None: g().uniform(low, high, size)),
            (npr, "default_rng", lambda *args, **kw: g())]  # a generator made inside the function
    return py + nump


class intercepted_globals:
    """Within the block, Python's ``random`` and numpy's global generator draw from the current
    enumerating generator (``with intercepted_globals() as current: current.generator = ...``).

    Everything patched is restored on exit, also after an error.
    """

    def __enter__(self) -> type[_Current]:
        self.current = type("Current", (_Current,), {})
        self.saved = []
        for module, name, replacement in _global_patches(self.current):
            self.saved.append((module, name, getattr(module, name)))
            setattr(module, name, replacement)
        return self.current

    def __exit__(self, *exc: Any) -> None:
        for module, name, original in reversed(self.saved):
            setattr(module, name, original)


