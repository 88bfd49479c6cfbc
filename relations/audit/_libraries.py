"""Library mechanisms by name: each local randomizer of pure-ldp, multi-freq-ldpy, OpenDP
and diffprivlib, built at a given ``eps`` and domain size ``k``, with its documented budget
and input domain (``relations audit --list``).

An adapter imports its library only when built, in whichever interpreter runs the audit
(``--python``), and hands the randomizer to the audit as the library's users call it:

* pure-ldp draws from Python's ``random`` and numpy's global generator: intercepted
  (white-box) or seeded (black-box);
* multi-freq-ldpy's clients are numba-compiled: the white-box route runs their Python
  source (``py_func``, with every compiled helper in the module swapped for its source),
  the black-box route runs the compiled code, seeded inside numba;
* diffprivlib's mechanisms draw from ``mech._rng``: the audit's generator is put there;
* OpenDP draws from the operating system (no seed): black-box only, and its own privacy
  map gives the budget it claims.

Kept free of the rest of the package so that a worker interpreter can run it alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["SEEDS", "Built", "Adapter", "ADAPTERS", "adapter", "build"]


#: Hash seeds for which local-hashing clients are enumerated (the seed is part of the report).
SEEDS = [(2654435761 * (i + 1)) % 2**63 for i in range(16)]


@dataclass
class Built:
    """A library randomizer ready to audit.

    Attributes
    ----------
    fn : callable
        ``fn(x, rng=generator)``: one report for input ``x``.
    domain : list
        The library's inputs for the domain size.
    claimed : float
        The budget the library documents for these parameters.
    version : str
        The library's installed version.
    seed : callable or None
        Seeds a generator ``fn`` uses besides ``rng`` and the global ones (numba's).
    white : callable or None
        The function the white-box route enumerates when it differs from ``fn``.
    declared : callable or None
        ``declared(x)``: the channel row the library documents, ``{output: probability}``
        (outputs as the code returns them), for the conformance test.
    enumerable : bool
        False when the randomness comes from where the audit cannot reach (OpenDP's
        OpenSSL): the white-box route is not tried.
    seeds : int
        For local hashing: the white-box route enumerates the channels given this many fixed hash seeds
        (:data:`SEEDS`), not all of them; the report says so.
    """

    fn: Callable[..., Any]
    domain: list
    claimed: float
    version: str
    seed: Callable[[int], None] | None = None
    white: Callable[..., Any] | None = None
    declared: Callable[[Any], dict] | None = None
    enumerable: bool = True
    seeds: int = 0


@dataclass(frozen=True)
class Adapter:
    """A named library mechanism (:data:`ADAPTERS`)."""

    name: str
    library: str
    call: str
    make: Callable[[float, int, dict], Built] = field(repr=False)
    params: tuple[str, ...] = ()


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "unknown"


def _bits(d: int, one: Callable[[int], float]) -> Callable[[Any], dict]:
    """Declared row of a unary encoding: bit ``i`` is 1 with probability ``one(i)``, independently."""
    import itertools

    def row(_: Any) -> dict:
        out = {}
        for bits in itertools.product((0, 1), repeat=d):
            p = 1.0
            for i, b in enumerate(bits):
                p *= one(i) if b else 1 - one(i)
            out[bits] = p
        return out
    return row


# ---------------------------------------------------------------- pure-ldp (1-based inputs)

def _oracle(module: str) -> Any:
    """``pure_ldp.frequency_oracles.<module>``, loaded without the package's ``__init__``, which imports every oracle
    of pure-ldp: RAPPOR's server with scikit-learn and statsmodels, the CMS's with scipy (about 4 s of CPU in each
    worker, against 0.4 s for the oracle's own modules, which run as written).  The oracle's modules are loaded
    under a stand-in package, which is taken away again with them: a later ``import pure_ldp.frequency_oracles``
    in the process loads the package as usual.  Where pure-ldp is laid out
    otherwise, or the package is loaded already, the plain import."""
    import importlib
    import importlib.util
    import sys
    import types

    package = "pure_ldp.frequency_oracles"
    if package in sys.modules:
        return importlib.import_module(f"{package}.{module}")
    try:
        spec = importlib.util.find_spec(package)
    except ImportError:
        spec = None
    if spec is None or not spec.submodule_search_locations:
        return importlib.import_module(f"{package}.{module}")  # (its ImportError if pure-ldp is missing)
    parent = sys.modules["pure_ldp"]
    stand_in = types.ModuleType(package, "pure-ldp's frequency oracles, each loaded alone")
    stand_in.__path__ = list(spec.submodule_search_locations)
    before = set(sys.modules)
    sys.modules[package] = stand_in
    setattr(parent, "frequency_oracles", stand_in)  # noqa: B010
    try:
        return importlib.import_module(f"{package}.{module}")
    finally:  # the stand-in and the modules loaded under it leave the process's modules (the adapter keeps its own)
        for name in set(sys.modules) - before:
            if name == package or name.startswith(f"{package}."):
                del sys.modules[name]
        if getattr(parent, "frequency_oracles", None) is stand_in:
            delattr(parent, "frequency_oracles")


def _pure_de(eps: float, k: int, _: dict) -> Built:
    c = _oracle("direct_encoding").DEClient(epsilon=eps, d=k)
    p = math.exp(eps) / (math.exp(eps) + k - 1)
    return Built(lambda x, rng=None: c.privatise(x), list(range(1, k + 1)), eps, _version("pure-ldp"),
                 declared=lambda x: {y: p if y == x - 1 else (1 - p) / (k - 1) for y in range(k)})


def _pure_ue(oue: bool) -> Callable[[float, int, dict], Built]:
    def make(eps: float, k: int, _: dict) -> Built:
        c = _oracle("unary_encoding").UEClient(epsilon=eps, d=k, use_oue=oue)
        if oue:
            p, q = 0.5, 1 / (math.exp(eps) + 1)
        else:
            p = math.exp(eps / 2) / (math.exp(eps / 2) + 1)
            q = 1 - p

        def declared(x: Any) -> dict:
            return _bits(k, lambda i: p if i == x - 1 else q)(x)
        return Built(lambda x, rng=None: tuple(c.privatise(x)), list(range(1, k + 1)), eps, _version("pure-ldp"),
                     declared=declared if k <= 12 else None)
    return make


def _pure_lh(olh: bool) -> Callable[[float, int, dict], Built]:
    def make(eps: float, k: int, params: dict) -> Built:
        c = _oracle("local_hashing").LHClient(epsilon=eps, d=k, g=int(params.get("g", 2)), use_olh=olh)

        def white(x: Any, rng: Any) -> Any:
            # the hash seed is published with the report and independent of x, so eps_d is the
            # largest eps_d of the channels given one seed: enumerate them for SEEDS fixed seeds
            seed = SEEDS[int(rng.integers(0, len(SEEDS)))]
            return c._perturb(x, seed), seed
        return Built(lambda x, rng=None: c.privatise(x), list(range(1, k + 1)), eps, _version("pure-ldp"), white=white,
                     seeds=len(SEEDS))
    return make


def _pure_he(eps: float, k: int, params: dict) -> Built:
    c = _oracle("histogram_encoding").HEClient(epsilon=eps, d=k)
    t = float(params.get("threshold", 0.5))
    # the report is a vector of reals; thresholding it (as THE does) is post-processing,
    # so a violation seen on the thresholded bits is a violation of the mechanism
    return Built(lambda x, rng=None: tuple(bool(v > t) for v in c.privatise(x)), list(range(1, k + 1)), eps,
                 _version("pure-ldp"))


def _pure_hm(eps: float, k: int, params: dict) -> Built:
    c = _oracle("hadamard_mechanism").HadamardMechClient(epsilon=eps, d=k, t=int(params.get("t", 1)))
    return Built(lambda x, rng=None: tuple(tuple(o) for o in c.privatise(x)), list(range(1, k + 1)), eps,
                 _version("pure-ldp"))


# ---------------------------------------------------------------- multi-freq-ldpy (0-based inputs)

class _Unjitted:
    """Within the block, every numba-compiled function of the given modules is its Python source."""

    def __init__(self, *modules: Any):
        self.modules = modules

    def __enter__(self) -> None:
        self.saved = []
        for m in self.modules:
            for name, value in vars(m).items():
                if hasattr(value, "py_func"):
                    self.saved.append((m, name, value))
                    setattr(m, name, value.py_func)

    def __exit__(self, *exc: Any) -> None:
        for m, name, value in self.saved:
            setattr(m, name, value)


class _SeedHook:
    """Within the block, multi-freq-ldpy's local-hashing client draws its hash seed (``np.random.randint(0,
    maxsize)``, 2^63 values) from :data:`SEEDS` instead, uniformly: the seed is published with the report and
    independent of the input, so ``eps_d`` is the largest ``eps_d`` of the channels given one seed, and the
    white-box route enumerates those of the 16 seeds exactly (as for pure-ldp's clients)."""

    def __init__(self, module: Any):
        self.module = module

    def __enter__(self) -> _SeedHook:
        if self.module is not None:
            import numpy as np

            real = self.module.np

            class _Random:
                def __getattr__(self, name: str) -> Any:
                    return getattr(np.random, name)

                def randint(self, low: Any, high: Any = None, size: Any = None, dtype: Any = int) -> Any:
                    if size is None and high is not None and high - low > 2**32:  # the hash seed
                        return np.int64(SEEDS[int(np.random.randint(0, len(SEEDS)))])
                    return np.random.randint(low, high, size)

            class _Numpy:
                random = _Random()

                def __getattr__(self, name: str) -> Any:
                    return getattr(real, name)
            self.saved = real
            self.module.np = _Numpy()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.module is not None:
            self.module.np = self.saved


def _numba_seed() -> Callable[[int], None]:
    import numba
    import numpy as np

    @numba.njit
    def seed(s):  # pragma: no cover - compiled
        np.random.seed(s)
    return lambda s: seed(s % 2**32)


def _mf(kind: str, **fixed: Any) -> Callable[[float, int, dict], Built]:
    def make(eps: float, k: int, _: dict) -> Built:
        import importlib
        import sys

        package = "multi_freq_ldpy.pure_frequency_oracles"
        module = importlib.import_module(f"{package}.{kind}")
        # the oracles' modules its code can call: its own and those it imports (ADP: GRR and UE; LH: GRR), not
        # the others (HE imports scipy.optimize: 0.7 s of CPU in a worker that never calls it)
        mods = {m: sys.modules[f"{package}.{m}"] for m in ("GRR", "UE", "LH", "SS", "HE", "ADP")
                if f"{package}.{m}" in sys.modules}
        client = getattr(module, f"{kind}_Client")

        def report(value: Any) -> Any:
            out = value
            if hasattr(out, "tolist"):
                out = out.tolist()
            if kind == "HE":  # real-valued: thresholded (post-processing), as for pure-ldp.he
                return tuple(bool(v > 0.5) for v in out)
            return tuple(out) if isinstance(out, list) else out

        def fn(x: Any, rng: Any = None) -> Any:
            return report(client(x, k, eps, **fixed))

        def white(x: Any, rng: Any = None) -> Any:
            with _Unjitted(*mods.values()), _SeedHook(mods["LH"] if kind == "LH" else None):
                f = getattr(module, f"{kind}_Client")
                return report(f(x, k, eps, **fixed))
        declared = None
        if kind == "GRR":
            p = math.exp(eps) / (math.exp(eps) + k - 1)
            declared = (lambda x: {y: p if y == x else (1 - p) / (k - 1) for y in range(k)})  # noqa: E731
        return Built(fn, list(range(k)), eps, _version("multi-freq-ldpy"), seed=_numba_seed(), white=white,
                     declared=declared, seeds=len(SEEDS) if kind == "LH" else 0)
    return make


# ---------------------------------------------------------------- OpenDP (black-box: OpenSSL randomness)

def _opendp(boolean: bool) -> Callable[[float, int, dict], Built]:
    def make(eps: float, k: int, _: dict) -> Built:
        # the two modules the mechanism is in, not opendp.prelude, which imports every extra (scikit-learn,
        # polars: about 3 s of CPU in each worker, against 0.4 s)
        import opendp.measurements as dpm
        from opendp.mod import enable_features

        enable_features("contrib")
        domain: list[Any]
        if boolean:
            prob = math.exp(eps) / (math.exp(eps) + 1)
            meas, domain = dpm.make_randomized_response_bool(prob=prob), [True, False]
        else:
            prob = math.exp(eps) / (math.exp(eps) + k - 1)
            meas, domain = dpm.make_randomized_response(categories=list(range(k)), prob=prob), list(range(k))
        claimed = float(meas.map(1))
        n = len(domain)
        return Built(lambda x, rng=None: meas(x), domain, claimed, _version("opendp"), enumerable=False,
                     declared=lambda x: {y: prob if y == x else (1 - prob) / (n - 1) for y in domain})
    return make


# ---------------------------------------------------------------- diffprivlib (mech._rng)

def _dpl(kind: str) -> Callable[[float, int, dict], Built]:
    def make(eps: float, k: int, params: dict) -> Built:
        import diffprivlib.mechanisms as mechs

        if kind == "Binary":
            mech = mechs.Binary(epsilon=eps, value0="0", value1="1")
            domain: list = ["0", "1"]
        elif kind == "ExponentialCategorical":
            labels = [str(i) for i in range(k)]
            utility = [[a, b, 0.0 if a == b else 1.0] for a in labels for b in labels]
            mech = mechs.ExponentialCategorical(epsilon=eps, utility_list=utility)
            domain = labels
        elif kind == "Geometric":
            mech, domain = mechs.Geometric(epsilon=eps, sensitivity=1), list(range(k))
        else:
            mech = getattr(mechs, kind)(epsilon=eps, sensitivity=1, lower=0, upper=k - 1)
            domain = list(range(k))
        original = mech._rng

        def fn(x: Any, rng: Any = None) -> Any:
            mech._rng = original if rng is None else rng
            return mech.randomise(x)
        # geometric mechanisms are eps-DP for inputs one apart: over all pairs of 0..k-1, eps (k - 1)
        claimed = eps if kind in ("Binary", "ExponentialCategorical") else eps * (k - 1)
        return Built(fn, domain, claimed, _version("diffprivlib"))
    return make


ADAPTERS: dict[str, Adapter] = {a.name: a for a in [
    Adapter("pure-ldp.de", "pure-ldp", "DEClient(epsilon, d).privatise(x), x in 1..d", _pure_de),
    Adapter("pure-ldp.sue", "pure-ldp", "UEClient(epsilon, d).privatise(x)", _pure_ue(False)),
    Adapter("pure-ldp.oue", "pure-ldp", "UEClient(epsilon, d, use_oue=True).privatise(x)", _pure_ue(True)),
    Adapter("pure-ldp.blh", "pure-ldp", "LHClient(epsilon, d, g).privatise(x) -> (y, seed); white-box over 16 seeds",
            _pure_lh(False), ("g",)),
    Adapter("pure-ldp.olh", "pure-ldp", "LHClient(epsilon, d, use_olh=True).privatise(x) -> (y, seed); white-box over "
            "16 seeds", _pure_lh(True)),
    Adapter("pure-ldp.he", "pure-ldp", "HEClient(epsilon, d).privatise(x) > threshold (post-processed)", _pure_he,
            ("threshold",)),
    Adapter("pure-ldp.hm", "pure-ldp", "HadamardMechClient(epsilon, d, t).privatise(x)", _pure_hm, ("t",)),
    Adapter("multi-freq-ldpy.grr", "multi-freq-ldpy", "GRR_Client(x, k, epsilon), x in 0..k-1", _mf("GRR")),
    Adapter("multi-freq-ldpy.sue", "multi-freq-ldpy", "UE_Client(x, k, epsilon, optimal=False)", _mf("UE", optimal=False)),
    Adapter("multi-freq-ldpy.oue", "multi-freq-ldpy", "UE_Client(x, k, epsilon, optimal=True)", _mf("UE", optimal=True)),
    Adapter("multi-freq-ldpy.blh", "multi-freq-ldpy", "LH_Client(x, k, epsilon, optimal=False) -> (y, seed); white-box "
            "over 16 seeds", _mf("LH", optimal=False)),
    Adapter("multi-freq-ldpy.olh", "multi-freq-ldpy", "LH_Client(x, k, epsilon, optimal=True) -> (y, seed); white-box "
            "over 16 seeds", _mf("LH", optimal=True)),
    Adapter("multi-freq-ldpy.ss", "multi-freq-ldpy", "SS_Client(x, k, epsilon)", _mf("SS")),
    Adapter("multi-freq-ldpy.he", "multi-freq-ldpy", "HE_Client(x, k, epsilon) > 0.5 (post-processed)", _mf("HE")),
    Adapter("multi-freq-ldpy.adp", "multi-freq-ldpy", "ADP_Client(x, k, epsilon)", _mf("ADP")),
    Adapter("opendp.rr", "opendp", "make_randomized_response(categories=range(k), prob)(x)", _opendp(False)),
    Adapter("opendp.rr_bool", "opendp", "make_randomized_response_bool(prob)(x)", _opendp(True)),
    Adapter("diffprivlib.binary", "diffprivlib", "Binary(epsilon, value0='0', value1='1').randomise(x)", _dpl("Binary")),
    Adapter("diffprivlib.exponential_categorical", "diffprivlib",
            "ExponentialCategorical(epsilon, utility 0/1).randomise(x)", _dpl("ExponentialCategorical")),
    Adapter("diffprivlib.geometric", "diffprivlib", "Geometric(epsilon, sensitivity=1).randomise(x)", _dpl("Geometric")),
    Adapter("diffprivlib.geometric_truncated", "diffprivlib",
            "GeometricTruncated(epsilon, sensitivity=1, lower=0, upper=k-1).randomise(x)", _dpl("GeometricTruncated")),
    Adapter("diffprivlib.geometric_folded", "diffprivlib",
            "GeometricFolded(epsilon, sensitivity=1, lower=0, upper=k-1).randomise(x)", _dpl("GeometricFolded")),
]}


def adapter(name: str) -> Adapter:
    """The adapter named ``name`` (``pure-ldp.oue``); ``KeyError`` with the names if unknown."""
    if name not in ADAPTERS:
        raise KeyError(f"unknown library mechanism {name!r}; 'relations audit --list' lists them")
    return ADAPTERS[name]


def build(name: str, *, eps: float, k: int, params: dict | None = None) -> Built:
    """Build the library mechanism ``name`` at budget ``eps`` on a domain of size ``k``.

    Raises
    ------
    KeyError
        If the name is unknown.
    ImportError
        If its library is not installed in this interpreter.
    """
    a = adapter(name)
    unknown = set(params or {}) - set(a.params)
    if unknown:
        raise KeyError(f"{name} takes no parameter {sorted(unknown)[0]!r} (it takes: {', '.join(a.params) or 'none'})")
    return a.make(eps, k, dict(params or {}))
