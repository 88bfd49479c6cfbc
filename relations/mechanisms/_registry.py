"""The registry of named mechanisms: what a mechanism file may name and ``relations mechanisms`` lists.

A file says ``"channel": {"mechanism": NAME, PARAMETER: VALUE, ...}``; :func:`named` builds
it with the constructor the entry names (:mod:`relations.mechanisms._local`,
:mod:`relations.mechanisms._ranges`, :mod:`relations.mechanisms._paper`).  Parameters are
parsed exactly (``ratio`` is ``e^eps`` as rational text, at most
:data:`~relations.mechanisms._limits.MAX_PARAMETER_DIGITS` digits in its numerator and
denominator); every mechanism taking ``ratio`` takes ``eps`` instead (exactly one of the two),
read as ``eps=`` of the Python constructors (:func:`~relations.mechanisms._budgets.ratio_of`:
``"ln(q)"`` gives the ratio ``q`` exactly, a number the nearest rational to ``e^eps`` with
denominator at most ``10**6``); whole-number parameters are JSON integers (or digit text) in ``1..4096``; every
constructor then checks its own parameters and the size of its exact channel
(:mod:`relations.mechanisms._limits`) before building anything.  Every public constructor
of those modules has an entry.

Examples
--------
>>> sorted(REGISTRY)[:4]
['exponential', 'folded_geometric', 'hadamard', 'krr']
>>> named({"mechanism": "krr", "k": 3, "ratio": "2"}).channel.shape
(3, 3)
>>> by_eps = named({"mechanism": "krr", "k": 3, "eps": "ln(2)"})
>>> by_eps.channel.exact == named({"mechanism": "krr", "k": 3, "ratio": 2}).channel.exact
True
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from relations.errors import InputError
from relations.mechanisms._budgets import ratio_of
from relations.mechanisms._limits import MAX_ENTRIES, exact
from relations.mechanisms._local import (
    exponential,
    hadamard_response,
    krr,
    randomized_response,
    subset_selection,
    unary_encoding,
)
from relations.mechanisms._paper import paper_construction, paper_example
from relations.mechanisms._ranges import folded_geometric, staircase, truncated_geometric
from relations.model._mechanism import Mechanism
from relations.numbers._text import json_repr, parse_rational

__all__ = ["NamedMechanism", "REGISTRY", "named", "eps_text"]


@dataclass(frozen=True)
class NamedMechanism:
    """One named mechanism: its file name, the constructor it calls, its parameters and a summary.

    Attributes
    ----------
    name : str
        The name a mechanism file gives as ``"mechanism"``.
    build : callable
        Builds the mechanism from the file's ``channel`` object, parsing each parameter exactly.
    params : tuple of str
        The parameters the file may give (``staircase``'s ``delta`` and ``width`` are optional;
        ``eps`` may replace ``ratio``, see :attr:`parameter_text`).
    summary : str
        One line for ``relations mechanisms``.
    function : callable
        The public constructor behind it.

    Examples
    --------
    >>> entry = REGISTRY["subset"]
    >>> entry.params, entry.function.__name__
    (('k', 's', 'ratio'), 'subset_selection')
    """

    name: str
    build: Callable[[dict[str, Any]], Mechanism]
    params: tuple[str, ...]
    summary: str
    function: Callable[..., Mechanism]

    @property
    def parameter_text(self) -> str:
        """The parameters as a user reads them: ``"k, ratio or eps"``.

        Examples
        --------
        >>> REGISTRY["krr"].parameter_text, REGISTRY["exponential"].parameter_text
        ('k, ratio or eps', 'utility, base')
        """
        return ", ".join("ratio or eps" if p == "ratio" else p for p in self.params)


#: Whole-number parameters lie in ``1..MAX_WHOLE`` (each constructor may allow less: ``docs/mechanism-files.md``).
MAX_WHOLE = 4096


def _int(spec: dict, key: str) -> int:
    if key not in spec:
        raise InputError(f"mechanism parameter '{key}' is missing")
    v = spec[key]
    if isinstance(v, int) and not isinstance(v, bool):
        n = v
    elif isinstance(v, str) and re.fullmatch(r"[0-9]{1,9}", v):  # ASCII digits only: not "٣", "3_0", " 3"
        n = int(v)
    else:
        raise InputError(f"mechanism parameter '{key}': expected a whole number, got {json_repr(v)}")
    if n < 1 or n > MAX_WHOLE:
        raise InputError(f"mechanism parameter '{key}': {n} out of range 1..{MAX_WHOLE}")
    return n



def _rat(spec: dict, key: str) -> Fraction:
    if key not in spec:
        raise InputError(f"mechanism parameter '{key}' is missing")
    value = spec[key]
    if isinstance(value, str) and value.strip().startswith("ln(") and value.strip().endswith(")"):
        raise InputError(f"mechanism parameter '{key}': give the ratio e^eps itself (e.g. \"3\"), not a logarithm"
                         + (" (or \"eps\": \"ln(3)\")" if key == "ratio" else ""))
    return exact(value, key)


def _budget(spec: dict, square: bool = False) -> Fraction:
    """The ratio ``t = e^eps`` from the file's ``ratio`` or ``eps`` (exactly one of them).

    ``eps`` is read as the constructors' ``eps=`` (:func:`~relations.mechanisms._budgets.ratio_of`;
    ``square`` for SUE, whose ``sqrt(t)`` must be rational)."""
    if "ratio" in spec and "eps" in spec:
        raise InputError("mechanism parameters 'ratio' and 'eps': give one of them, not both (ratio = e^eps)")
    if "eps" not in spec:
        if "ratio" not in spec:
            raise InputError("mechanism parameter 'ratio' is missing (give 'ratio' = e^eps, or 'eps')")
        return _rat(spec, "ratio")
    if spec["eps"] is None:
        raise InputError("mechanism parameter 'eps': null is not a number")
    return ratio_of(eps=spec["eps"], square=square)



def _utility(spec: dict, key: str) -> list[list[int]]:
    """An integer utility matrix ``u(x, y)`` (a list of equal-length rows of whole numbers)."""
    if key not in spec:
        raise InputError(f"mechanism parameter '{key}' is missing")
    u = spec[key]
    if not isinstance(u, list) or not u or not all(isinstance(r, list) and r and len(r) == len(u[0]) for r in u):
        raise InputError(f"mechanism parameter '{key}': expected a matrix (a list of equal rows), got {json_repr(u)}")
    if len(u) * len(u[0]) > MAX_ENTRIES:
        raise InputError(f"mechanism parameter '{key}': more than {MAX_ENTRIES} entries")
    out = []
    for i, row in enumerate(u):
        parsed = []
        for j, v in enumerate(row):
            q = parse_rational(v, f"mechanism parameter '{key}'[{i}][{j}]")
            if q.denominator != 1 or abs(q) > 4096:
                raise InputError(f"mechanism parameter '{key}'[{i}][{j}]: expected a whole number in -4096..4096")
            parsed.append(int(q))
        out.append(parsed)
    return out


REGISTRY: dict[str, NamedMechanism] = {e.name: e for e in (
    NamedMechanism("rr", lambda s: randomized_response(_budget(s)), ("ratio",), "Warner's binary randomized response",
          randomized_response),
    NamedMechanism("krr", lambda s: krr(_int(s, "k"), _budget(s)), ("k", "ratio"), "k-ary randomized response", krr),
    NamedMechanism("oue", lambda s: unary_encoding(_int(s, "k"), _budget(s), optimized=True), ("k", "ratio"),
          "optimised unary encoding (bit-vector outputs)", unary_encoding),
    NamedMechanism("sue", lambda s: unary_encoding(_int(s, "k"), _budget(s, square=True), optimized=False), ("k", "ratio"),
          "symmetric unary encoding (ratio must be a square)", unary_encoding),
    NamedMechanism("subset", lambda s: subset_selection(_int(s, "k"), _int(s, "s"), _budget(s)), ("k", "s", "ratio"),
          "s-subset selection", subset_selection),
    NamedMechanism("hadamard", lambda s: hadamard_response(_int(s, "k"), _budget(s)), ("k", "ratio"),
          "Hadamard response", hadamard_response),
    NamedMechanism("exponential", lambda s: exponential(_utility(s, "utility"), _rat(s, "base")), ("utility", "base"),
          "exponential mechanism Q[x][y] ∝ base^u(x,y) for an integer utility matrix", exponential),
    NamedMechanism("truncated_geometric", lambda s: truncated_geometric(_int(s, "n"), _budget(s)), ("n", "ratio"),
          "truncated geometric on {0..n-1} (path neighbours)", truncated_geometric),
    NamedMechanism("folded_geometric", lambda s: folded_geometric(_int(s, "n"), _budget(s)), ("n", "ratio"),
          "reflected geometric on {0..n-1} (path neighbours)", folded_geometric),
    NamedMechanism("staircase", lambda s: staircase(_int(s, "n"), _budget(s), delta=_int(s, "delta") if "delta" in s else 1,
                                           width=_int(s, "width") if "width" in s else 1), ("n", "ratio", "delta", "width"),
          "cyclic discrete staircase", staircase),
    NamedMechanism("paper_example", lambda s: paper_example(), (), "Zheng et al. 2025 Section 5 channel", paper_example),
    NamedMechanism("paper_construction", lambda s: paper_construction(_int(s, "theorem"), _rat(s, "beta")),
          ("theorem", "beta"), "Zheng et al. 2025 Thm 6/8/10/12 construction", paper_construction),
)}


def named(spec: dict[str, Any]) -> Mechanism:
    """Build a registered mechanism from ``{"mechanism": NAME, ...parameters}``.

    Parameters
    ----------
    spec : dict
        A mechanism file's ``channel`` object: ``"mechanism"`` names a :data:`REGISTRY` entry, the
        other keys are its parameters (numbers, or rational text such as ``"3/2"``); ``eps``
        (``"ln(3)"`` or a number) may replace ``ratio``.

    Returns
    -------
    Mechanism
        Local for the local constructors, central for the counting-range ones, with the
        constructor's default prior (a mechanism file's ``prior`` replaces it).

    Raises
    ------
    InputError
        For an unknown name, an unknown or missing parameter, or a bad value.

    Examples
    --------
    >>> from relations import measure
    >>> m = named({"mechanism": "staircase", "n": 6, "ratio": "2", "delta": 2})
    >>> str(m.setting), str(measure(m).eps_d.exact)
    ('central', 'ln(2)')
    >>> named({"mechanism": "krr", "k": 3, "eps": 1}).channel.exact[0][0]   # e = 2.71828... rounded
    Fraction(1084483, 1882401)
    >>> named({"mechanism": "exponential", "utility": [[1, 0], [0, 1]], "eps": 1})
    Traceback (most recent call last):
    ...
    relations.errors.InputError: mechanism 'exponential': unknown parameter 'eps' (takes utility, base)
    """
    name = spec.get("mechanism")
    entry = REGISTRY.get(name) if isinstance(name, str) else None
    if entry is None:
        raise InputError(f"unknown mechanism {name!r}; known: {', '.join(sorted(REGISTRY))}")
    extra = set(spec) - {"mechanism"} - set(entry.params) - ({"eps"} if "ratio" in entry.params else set())
    if extra:
        raise InputError(f"mechanism {name!r}: unknown parameter '{sorted(extra)[0]}' (takes {entry.parameter_text})")
    return entry.build(spec)



def eps_text(value: Any, where: str = "'eps'") -> str:
    """An ``eps`` value of a file as the text :func:`named` reads: ``"ln(q)"`` kept, a number as its exact
    rational (a JSON ``0.1`` is ``1/10``), checked now as :func:`~relations.mechanisms._budgets.ratio_of`
    will read it (for sweep specifications, whose points are built later).

    Parameters
    ----------
    value : str, int or float
        The value as written.
    where : str, optional
        What the value is, for messages.

    Returns
    -------
    str

    Raises
    ------
    InputError
        If it is not a number or ``ln(q)``, or out of range.

    Examples
    --------
    >>> eps_text(0.5), eps_text("ln(3)")
    ('1/2', 'ln(3)')
    """
    if isinstance(value, str) and value.strip().startswith("ln("):
        text = value.strip()
    else:
        text = str(parse_rational(value, where))
    try:
        ratio_of(eps=text)
    except InputError as exc:
        raise InputError(f"{where} {json_repr(value)}: {exc}") from None
    return text
