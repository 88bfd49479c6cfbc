"""Deciding whether a candidate refutes a relation, cheaply first; and the random (hypothesis) search.

:func:`refutes` is what every search of :mod:`relations.pipeline._verify` asks of a candidate: a
float screen (:func:`float_screen`) lets through only mechanisms not clearly satisfying the
relation, and those are decided by the exact checker.

:func:`hypothesis_search` draws random mechanisms (:mod:`relations.search.strategies`) with
hypothesis, derandomized: the examples it draws depend only on the strategy and the settings,
never on the relation.  So the examples of each setting are drawn once per process
(:func:`generated`; kept in the tool's cache folder for the next run of the same code) and each
relation is run over that list; the first that refutes it is the
result.  It is not shrunk by hypothesis (seconds of pure Python, most of ``relations verify``'s
time for the catalogue): the verifier makes it small itself
(:func:`~relations.search._witnesses.simplify`: fewer records, then small denominators, each
step re-checked).  ``shrink=True`` asks hypothesis for its shrunk example instead.

Examples
--------
>>> from relations.catalogue import get
>>> from relations import Mechanism
>>> refutes(get("zheng2025.thm4"))(Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]], prior=["19/20", "1/20"]))
True
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

from relations._cache import hypothesis_home
from relations.catalogue._entries import Relation
from relations.checking._checker import evaluate
from relations.checking._quantities import values
from relations.kinds import Status
from relations.model._mechanism import Mechanism
from relations.notions import BASE_NOTIONS

__all__ = ["refutes", "float_screen", "generated", "hypothesis_search", "stored_result", "has_stored_result"]


def refutes(rel: Relation, *, memo: dict | None = None) -> Callable[[Mechanism], bool]:
    """A test ``mechanism -> bool``: True when ``rel`` fails on it, decided exactly (after the float screen).

    ``memo`` (keyed by the mechanism's ``id``: only for mechanisms kept alive as long as it) keeps the
    float and exact values for the next relation tested on the same mechanisms (with their lazily
    computed notions)."""
    screen = float_screen(rel, memo=memo)

    def check(mech: Mechanism) -> bool:
        if not screen(mech):
            return False
        return evaluate(rel, _remembered(memo, (id(mech), "values"), lambda: values(mech))).status == Status.FAILS
    return check


def _remembered(memo: dict | None, key, compute):
    """``compute()``, kept in ``memo`` under ``key`` (computed every time without a memo)."""
    if memo is None:
        return compute()
    if key not in memo:
        memo[key] = compute()
    return memo[key]


def float_screen(rel: Relation, *, memo: dict | None = None) -> Callable[[Mechanism], bool]:
    """A float test that lets through to the exact check every mechanism not clearly satisfying ``rel``
    (float violation above ``-1e-6`` relative).  Dense mechanisms whose float copy is reliable (exact zero
    pattern, no subnormal entry) are measured by :func:`~relations.measures._batch.mechanism_values`; for
    the others only a relation on a conversion notion is screened (by ``float_values``), the paper's
    notions go straight to the exact check.  A refutation is reported only after the exact check.

    ``memo``: as for :func:`refutes`."""
    from relations.measures._batch import mechanism_values
    from relations.model._neighbours import diameter
    from relations.search._families import float_values
    from relations.search._optimiser import extra_notions, violation

    paper = all(n in BASE_NOTIONS for n in (rel.premise, rel.conclusion))

    extra = extra_notions(rel)

    def screen(mech: Mechanism) -> bool:
        try:
            if memo is not None and _BATCH in memo and (id(mech), extra) not in memo:
                _screen_batch(memo, extra)  # every drawn mechanism at once, one dense_values call per shape
            v = _remembered(memo, (id(mech), extra), lambda: mechanism_values(mech, extra))
            if v is None and paper:
                return True
            v = v if v is not None else _remembered(memo, (id(mech), None), lambda: float_values(mech))
            gap = violation(rel, v, diameter(mech.inputs))
            return not gap < -1e-6 * (1 + abs(v[rel.conclusion]))
        except (ArithmeticError, ValueError):  # pragma: no cover - floats failed: check exactly
            return True
    return screen


#: The memo key of the mechanisms a memo serves (:func:`_drawn`): their float values are computed together.
_BATCH = "mechanisms"


def _screen_batch(memo: dict, extra: tuple[str, ...]) -> None:
    """:func:`~relations.measures._batch.mechanism_values` of every mechanism of ``memo[_BATCH]`` with the notions
    ``extra``, into ``memo``: the mechanisms of one shape and neighbour pairs (reliable float copies) in one
    :func:`~relations.measures._batch.dense_values` call, ``None`` for the others, as ``mechanism_values`` gives.

    Each notion of a mechanism is computed once per memo, whatever notions it was asked with (``dense_values``
    computes every notion on its own: the same floats whatever else is asked); the relations screened after the
    first (the paper's notions, a conversion notion several relations read) only add the notions not computed yet.

    Examples
    --------
    >>> from relations.measures._batch import mechanism_values
    >>> mechs = (Mechanism.local([["3/4", "1/4"], ["1/4", "3/4"]]), Mechanism.local([["1/2", "1/2"], ["0", "1"]]),
    ...          Mechanism.product([["3/4", "1/4"], ["1/4", "3/4"]], records=2))
    >>> memo = {_BATCH: mechs}
    >>> _screen_batch(memo, ("kl",))
    >>> [memo[id(m), ("kl",)] == mechanism_values(m, ("kl",)) for m in mechs], memo[id(mechs[2]), ("kl",)]
    ([True, True, True], None)
    >>> _screen_batch(memo, ("rho", "kl"))  # the paper's notions and kl were computed above: rho only
    >>> [memo[id(m), ("rho", "kl")] == mechanism_values(m, ("rho", "kl")) for m in mechs]
    [True, True, True]
    """
    import numpy as np

    from relations.measures._batch import PAPER, dense_values, space_pairs
    from relations.model._distributions import Channel, Prior

    groups: dict[tuple, list[tuple[Mechanism, np.ndarray, np.ndarray]]] = {}
    for mech in memo[_BATCH]:
        if (id(mech), extra) in memo:
            continue
        ch, prior = mech.channel, mech.prior
        if not isinstance(ch, Channel) or not ch.reliable or not isinstance(prior, Prior) or not prior.reliable:
            memo[id(mech), extra] = None
            continue
        q = np.asarray(ch.array)
        groups.setdefault((q.shape, space_pairs(mech.inputs).tobytes()), []).append((mech, q, np.asarray(prior.array)))
    base = frozenset(PAPER)
    extras = [n for n in dict.fromkeys(extra) if n not in base]
    for group in groups.values():
        known = [memo.setdefault((id(mech), _FLOATS), {}) for mech, _, _ in group]  # each notion's float, by name
        paper = [n for n in PAPER if any(n not in k for k in known)]
        missing = [n for n in extras if any(n not in k for k in known)]
        if paper or missing:
            vals = dense_values(np.stack([q for _, q, _ in group]), np.stack([p for _, _, p in group]),
                                space_pairs(group[0][0].inputs), missing, paper=paper)
            for name, column in vals.items():
                for k, v in zip(known, column.tolist()):
                    k[name] = v
        for (mech, _, _), k in zip(group, known):  # the paper's notions (in dense_values's order), then extra's
            memo[id(mech), extra] = {name: k[name] for name in [*(n for n in k if n in base), *extras]}


#: The memo key of a mechanism's float notions computed so far (:func:`_screen_batch`), with ``id(mech)``.
_FLOATS = "floats"


def _settings(examples: int):
    from hypothesis import HealthCheck, Phase, settings

    return settings(max_examples=examples, database=None, derandomize=True, deadline=None,
                    suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink])


@lru_cache(maxsize=8)
def generated(setting: str, examples: int) -> tuple[Mechanism, ...]:
    """Every mechanism hypothesis draws for ``setting`` with ``examples`` examples, in order (drawn once).

    The draws depend only on the strategy, hypothesis and the settings (``derandomize``), so they are kept in
    the tool's cache folder (:func:`_stored_draws`) and read from there by the next run of the same code:
    the same mechanisms, without hypothesis's engine.

    Parameters
    ----------
    setting : str
        ``"local"`` or ``"central"``.
    examples : int
        hypothesis's ``max_examples``.

    Returns
    -------
    tuple of Mechanism
    """
    path = _draws_path(setting, examples)
    stored = _stored_draws(path) if path is not None else None
    if stored is not None:
        return stored
    drawn = _draw(setting, examples)
    if path is not None:
        _store_draws(path, drawn)
    return drawn


@contextlib.contextmanager
def _no_local_constants() -> Iterator[None]:
    """hypothesis's draws made independent of the modules the process has loaded.

    hypothesis (6.131 and later) draws some numbers from a pool of the constants written in the "local" modules
    loaded in the process: those outside site-packages and the standard library, such as this package when it is
    installed editable or run from a checkout, or a user's own modules in a notebook.  The draws, hence which
    mechanism refutes a relation first and the evidence, would then depend on how the package was installed and on
    what was imported before (a wheel and a checkout gave different evidence).  Here the pool of local constants is
    empty for the duration (hypothesis's global constants stay), and hypothesis's cache of the constants allowed
    per kind of draw is cleared before and after, so that nothing computed with another pool is used.  A hypothesis
    without that pool (before 6.131) is left as it is.
    """
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - hypothesis moved its internals
        yield
        return
    pool, cache = getattr(providers, "_get_local_constants", None), getattr(providers, "CONSTANTS_CACHE", None)
    if pool is None or cache is None or not hasattr(providers, "Constants"):
        yield
        return
    empty = providers.Constants()
    providers._get_local_constants = lambda: empty
    cache.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = pool
        cache.cache.clear()


def _draw(setting: str, examples: int) -> tuple[Mechanism, ...]:
    """:func:`generated`'s mechanisms, drawn by hypothesis."""
    from hypothesis import find
    from hypothesis.errors import NoSuchExample

    from relations.search.strategies import mechanisms

    drawn: list[Mechanism] = []

    def record(mech: Mechanism) -> bool:
        drawn.append(mech)
        return False

    try:
        with hypothesis_home(), _no_local_constants():  # its files under the user cache; draws of the code alone
            find(mechanisms(setting), record, settings=_settings(examples))
    except NoSuchExample:
        pass
    return tuple(drawn)


#: The format of the stored draws (part of their key: a new format never reads an old file).
DRAWS_FORMAT = 1


@lru_cache(maxsize=1)
def _code_digest() -> str | None:
    """A hash of everything that decides the draws: the Python, hypothesis and numeric libraries' versions and
    every source file of the package (any change to the code is a new key); ``None`` when the sources are not
    there to hash (then nothing is stored)."""
    import hashlib
    import json
    import sys
    from importlib.metadata import PackageNotFoundError, version
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    files = sorted(root.rglob("*.py"))
    if not files:  # pragma: no cover - an installation without sources
        return None
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    versions: dict[str, str | None] = {}
    for dist in ("hypothesis", "numpy", "python-flint", "sympy", "z3-solver"):
        try:
            versions[dist] = version(dist)
        except PackageNotFoundError:  # pragma: no cover - a required dependency
            versions[dist] = None
    described = {"format": DRAWS_FORMAT, "python": sys.version, "versions": versions, "sources": digest.hexdigest()}
    return hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()


def _draws_path(setting: str, examples: int):
    """The file of the stored draws of ``setting`` and ``examples`` for this code (:func:`_code_digest`), in
    ``draws/`` of the tool's cache folder; ``None`` when the cache folder is unusable or the code has no key."""
    from pathlib import Path

    from relations._cache import usable_cache_dir

    base, code = usable_cache_dir(), _code_digest()
    if base is None or code is None or setting not in ("local", "central"):
        return None
    return Path(base) / "draws" / f"{setting}-{int(examples)}-{code}.pickle"


def _stored_draws(path) -> tuple[Mechanism, ...] | None:
    """The mechanisms stored in ``path``, checked first: the file names its key and the hash of its contents,
    and holds only mechanisms; ``None`` (and the file removed: never trusted) when anything differs, or when
    there is no file."""
    return _stored(path, lambda mechs: isinstance(mechs, tuple) and all(type(m) is Mechanism for m in mechs))


def _stored(path, valid: Callable[[Any], bool]) -> Any:
    """What ``path`` stores, checked first: the file names its key and the hash of its contents, it holds only
    plain data and a mechanism's value objects (:data:`_DRAWS_GLOBALS`), and ``valid`` accepts it; ``None`` (and
    the file removed: never trusted) when anything differs, or when there is no file."""
    import hashlib
    import io

    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        header, payload = data.split(b"\n", 1)
        name, digest = header.decode("ascii").split(" ")
        if name != path.name or hashlib.sha256(payload).hexdigest() != digest:
            raise ValueError("header")
        kept = _DrawsUnpickler(io.BytesIO(payload)).load()
        if not valid(kept):
            raise ValueError("contents")
        return kept
    except Exception:  # noqa: BLE001 - a damaged or foreign file, whatever it raises: draw again
        with contextlib.suppress(OSError):
            path.unlink()
        return None


#: The only globals a file of stored draws may name: the value objects of a mechanism, ``Fraction`` and numpy's
#: arrays (of those). Anything else is refused before it is looked up, so the file is read as data, never run.
_DRAWS_GLOBALS = frozenset({
    ("fractions", "Fraction"), ("numpy", "dtype"), ("numpy", "ndarray"),
    ("numpy._core.multiarray", "_reconstruct"), ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.numeric", "_frombuffer"), ("numpy.core.numeric", "_frombuffer"),
    ("relations.kinds", "Setting"), ("relations.model._distributions", "Channel"),
    ("relations.model._distributions", "Prior"), ("relations.model._indexed", "_rebuild"),
    ("relations.model._mechanism", "Mechanism"), ("relations.model._neighbours", "GraphInputs"),
    ("relations.model._neighbours", "HammingInputs"), ("relations.model._neighbours", "LocalInputs"),
    ("relations.model._products", "ProductChannel"), ("relations.model._products", "ProductPrior"),
    ("relations.model._runs", "Runs"),
})


def _draws_unpickler_class():
    import pickle

    class _Unpickler(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            if (module, name) not in _DRAWS_GLOBALS:
                raise pickle.UnpicklingError(f"{module}.{name} is not part of a mechanism")
            return super().find_class(module, name)

    return _Unpickler


def _DrawsUnpickler(file):  # noqa: N802 - reads like the class it builds
    """An unpickler of stored draws that looks up only :data:`_DRAWS_GLOBALS` (built on first use: ``pickle``
    is imported only by a run that reads the cache)."""
    return _draws_unpickler_class()(file)


def _store_draws(path, mechs: tuple[Mechanism, ...]) -> None:
    """Keep ``mechs`` in ``path`` for the next run: written beside it and renamed into place (atomic; a run that
    cannot write its cache goes on without it)."""
    _store(path, mechs)


def _store(path, kept: Any) -> None:
    """Keep ``kept`` (plain data and mechanisms) in ``path`` for the next run, as :func:`_stored` reads it."""
    import hashlib
    import os
    import pickle
    import tempfile

    payload = pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL)
    data = f"{path.name} {hashlib.sha256(payload).hexdigest()}\n".encode("ascii") + payload
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".draws-", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError:
        return


def _result_path(name: str):
    """Where :func:`stored_result` keeps ``name`` for this code; ``None`` without a usable cache folder or key."""
    from pathlib import Path

    from relations._cache import usable_cache_dir

    base, code = usable_cache_dir(), _code_digest()
    return None if base is None or code is None else Path(base) / "results" / f"{name}-{code}.pickle"


def has_stored_result(name: str) -> bool:
    """Whether an earlier run of this code kept a result under ``name`` (:func:`stored_result`, which checks the
    file before use: a damaged one is computed again).

    Examples
    --------
    >>> _ = stored_result("doctest-product", lambda: 6 * 7, valid=lambda v: isinstance(v, int))
    >>> has_stored_result("doctest-product") == (_result_path("doctest-product") is not None)
    True
    """
    path = _result_path(name)
    return path is not None and path.is_file()


def stored_result(name: str, compute: Callable[[], Any], *, valid: Callable[[Any], bool],
                  keep: Callable[[Any], bool] | None = None) -> Any:
    """``compute()``, kept in ``results/`` of the tool's cache folder under ``name`` and this code's key
    (:func:`_code_digest`: every source file of the package and the versions of Python, hypothesis, numpy,
    python-flint, sympy and z3), and read from there by the next run of the same code.

    For deterministic results of this code only (the same value in every run, never ``None``), made of plain
    data and mechanisms.  A stored file is checked before use (its key, the hash of its contents, what it may name,
    ``valid``); one that does not check is removed and ``compute()`` runs again.  Without a usable cache folder
    every call computes.

    Parameters
    ----------
    name : str
        What the result is, unique among the results (letters, digits, ``-``, ``.``).
    compute : callable
        Computes it.
    valid : callable
        Whether a stored value has the shape ``compute`` returns.
    keep : callable, optional
        Whether a computed value may be stored (default: every one); a value it refuses is computed again
        by the next run.

    Returns
    -------
    object
        ``compute()``'s value, computed now or stored by an earlier run.

    Examples
    --------
    >>> stored_result("doctest-sum", lambda: sum(range(4)), valid=lambda v: isinstance(v, int))
    6
    """
    path = _result_path(name)
    if path is not None:
        kept = _stored(path, valid)
        if kept is not None:
            return kept
    value = compute()
    if path is not None and (keep is None or keep(value)):
        _store(path, value)
    return value


def hypothesis_search(rel: Relation, setting: str, effort: Any, *, shrink: bool = False) -> Mechanism | None:
    """The first random mechanism of ``setting`` that refutes ``rel``, or ``None``.

    Parameters
    ----------
    rel : Relation
        The relation.
    setting : str
        ``"local"`` or ``"central"``.
    effort : relations.pipeline._verify.Effort
        Its ``hypothesis_examples`` is hypothesis's ``max_examples``.
    shrink : bool, optional
        Return hypothesis's shrunk example instead of the first refuting draw (its search over the
        same examples, then shrinking).

    Returns
    -------
    Mechanism or None

    Examples
    --------
    >>> from relations.catalogue import get
    >>> from relations.pipeline._verify import Effort
    >>> m = hypothesis_search(get("zheng2025.thm4"), "local", Effort.of(True))
    >>> refutes(get("zheng2025.thm4"))(m)
    True
    >>> hypothesis_search(get("zheng2025.thm3"), "local", Effort.of(True)) is None  # thm3 holds
    True
    """
    first = _first_refuting(rel, setting, effort.hypothesis_examples)
    if first is None or not shrink:
        return first  # hypothesis would draw exactly these, and stop at the first that refutes rel
    from hypothesis import find
    from hypothesis.errors import NoSuchExample

    from relations.search.strategies import mechanisms

    try:
        with hypothesis_home(), _no_local_constants():
            return find(mechanisms(setting), refutes(rel), settings=_settings(effort.hypothesis_examples))
    except NoSuchExample:  # pragma: no cover - a refuting example was drawn above
        return None


def _first_refuting(rel: Relation, setting: str, examples: int) -> Mechanism | None:
    """The first of the drawn mechanisms (:func:`generated`) that refutes ``rel`` (:func:`refutes`), or ``None``.

    Which one it is depends on the code alone (the draws are derandomized; the float screen only lets through
    to the exact decision), so its place among the draws is kept in the cache folder for the next run of the
    same code (:func:`stored_result`); the caller re-checks a refuting mechanism exactly.
    """
    import hashlib

    mechs, memo = _drawn(setting, examples)

    def first() -> int:
        test = refutes(rel, memo=memo)
        return next((i for i, m in enumerate(mechs) if test(m)), -1)

    name = f"hypothesis-first-{setting}-{int(examples)}-{hashlib.sha256(repr(rel).encode()).hexdigest()[:32]}"
    i = stored_result(name, first, valid=lambda i: type(i) is int and -1 <= i < len(mechs))
    return None if i < 0 else mechs[i]


@lru_cache(maxsize=8)
def _drawn(setting: str, examples: int) -> tuple[tuple[Mechanism, ...], dict]:
    """:func:`generated`'s mechanisms and a memo of their float and exact values (:func:`refutes`), shared by
    every relation screened over them; the mechanisms are held here, so the memo's ids stay theirs."""
    mechs = generated(setting, examples)
    return mechs, {_BATCH: mechs}
