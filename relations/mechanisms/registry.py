"""A library of named mechanisms with exact rational entries.

Each constructor returns a :class:`~relations.mechanism.Mechanism` whose
channel entries are exact rationals.  The privacy parameter is the rational
ratio ``t = e^eps`` (``ratio``), so ``eps = ln t`` exactly; a uniform prior is
used unless one is given.  Every docstring states the channel and the
documented privacy level, which the tests check against the exact ``eps_d``.

Local (every two values neighbours):

* :func:`randomized_response` — Warner (1965): ``Q[d][d] = t/(1+t)``;
* :func:`krr` — k-ary randomized response / direct encoding (Kairouz et al. 2014):
  ``Q[d][e] = t/(t+k-1)`` if ``e = d`` else ``1/(t+k-1)``; ``eps_d = ln t``;
* :func:`unary_encoding` — symmetric (SUE, RAPPOR: per-bit ``p = s/(1+s)``,
  ``q = 1/(1+s)``, ``s = sqrt(t)``) and optimised (OUE, Wang et al. 2017:
  ``p = 1/2``, ``q = 1/(1+t)``); outputs are bit vectors; ``eps_d = ln t``;
* :func:`subset_selection` — Wang et al. 2016 / Ye and Barg 2018: outputs are
  ``s``-subsets, ``Q[d][S] = t/Z`` if ``d in S`` else ``1/Z``,
  ``Z = C(k-1, s-1) t + C(k-1, s)``; ``eps_d = ln t``;
* :func:`hadamard_response` — Acharya, Sun, Zhang 2019: ``K`` the smallest
  power of two above ``k``, ``C_d`` the positions of ``+1`` in row ``d+1`` of
  the Sylvester-Hadamard matrix, ``Q[d][y] = 2t/(K(1+t))`` on ``C_d`` else
  ``2/(K(1+t))``; ``eps_d = ln t``;
* :func:`exponential` — McSherry and Talwar 2007: ``Q[x][y] ∝ b^u(x,y)`` for
  an integer utility ``u`` and rational base ``b = e^(eps/(2 Delta u))``;
  ``eps_d <= 2 Delta_u ln b``.

Counting ranges ``{0, ..., n-1}`` (central, explicit neighbours ``|x - x'| <= Delta``):

* :func:`truncated_geometric` — Ghosh, Roughgarden, Sundararajan 2009:
  ``alpha = 1/t``, ``Q[x][y] = (1-alpha)/(1+alpha) alpha^|y-x|`` inside,
  ``alpha^|y-x| / (1+alpha)`` at the two ends; ``eps_d = ln t`` for ``Delta = 1``;
* :func:`folded_geometric` — the two-sided geometric noise reflected back into
  the range (``-1 -> 0``, ``n -> n-1``, period ``2n``); in closed form
  ``Q[x][y] = c (S(y-x) + S(-1-y-x))`` with ``S(d) = sum_j alpha^|d + 2nj|``; a post-processing
  of the ``ln t``-DP two-sided geometric noise, so ``eps_d <= ln t``;
* :func:`staircase` — a discrete, cyclic staircase (Geng and Viswanath 2014):
  ``Q[x][y] ∝ t^-s(d)``, ``d`` the cyclic distance, ``s(d) = 0`` for
  ``d < w`` and ``1 + floor((d - w)/Delta)`` beyond; ``eps_d <= ln t`` for
  neighbours at cyclic distance ``<= Delta``, with equality once the range has a step
  (``floor(n/2) >= w``).

The seed paper (Zheng et al. 2025): :func:`paper_example` (Section 5) and
:func:`paper_construction` (Thm 6/8/10/12, parameter ``beta``).  Central
versions of the local ones: :func:`product` (``r`` records, product form).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from relations.errors import InputError
from relations.mechanisms.local import (
    hadamard_response,
    krr,
    randomized_response,
    subset_selection,
    unary_encoding,
)
from relations.mechanisms.paper import paper_construction, paper_example
from relations.mechanisms.ranges import folded_geometric, staircase, truncated_geometric
from relations.model.mechanism import Mechanism

__all__ = ["Entry", "REGISTRY", "named"]


@dataclass(frozen=True)
class Entry:
    name: str
    build: Callable[..., Mechanism]
    params: tuple[str, ...]
    summary: str



def _int(spec: dict, key: str) -> int:
    v = spec.get(key)
    try:
        n = int(str(v))
    except ValueError:
        raise InputError(f"mechanism parameter '{key}': expected a whole number, got {v!r}") from None
    if n < 1 or n > 4096:
        raise InputError(f"mechanism parameter '{key}': {n} out of range 1..4096")
    return n



def _rat(spec: dict, key: str) -> Fraction:
    from relations.numbers.text import parse_rational

    if key not in spec:
        raise InputError(f"mechanism parameter '{key}' is missing")
    text = str(spec[key]).strip()
    if text.startswith("ln(") and text.endswith(")"):
        raise InputError(f"mechanism parameter '{key}': give the ratio e^eps itself (e.g. \"3\"), not a logarithm")
    return parse_rational(text, f"mechanism parameter '{key}'")



REGISTRY: dict[str, Entry] = {e.name: e for e in (
    Entry("rr", lambda s: randomized_response(_rat(s, "ratio")), ("ratio",), "Warner's binary randomized response"),
    Entry("krr", lambda s: krr(_int(s, "k"), _rat(s, "ratio")), ("k", "ratio"), "k-ary randomized response"),
    Entry("oue", lambda s: unary_encoding(_int(s, "k"), _rat(s, "ratio"), True), ("k", "ratio"),
          "optimised unary encoding (bit-vector outputs)"),
    Entry("sue", lambda s: unary_encoding(_int(s, "k"), _rat(s, "ratio"), False), ("k", "ratio"),
          "symmetric unary encoding (ratio must be a square)"),
    Entry("subset", lambda s: subset_selection(_int(s, "k"), _int(s, "s"), _rat(s, "ratio")), ("k", "s", "ratio"),
          "s-subset selection"),
    Entry("hadamard", lambda s: hadamard_response(_int(s, "k"), _rat(s, "ratio")), ("k", "ratio"),
          "Hadamard response"),
    Entry("truncated_geometric", lambda s: truncated_geometric(_int(s, "n"), _rat(s, "ratio")), ("n", "ratio"),
          "truncated geometric on {0..n-1} (path neighbours)"),
    Entry("folded_geometric", lambda s: folded_geometric(_int(s, "n"), _rat(s, "ratio")), ("n", "ratio"),
          "reflected geometric on {0..n-1} (path neighbours)"),
    Entry("staircase", lambda s: staircase(_int(s, "n"), _rat(s, "ratio"), _int(s, "delta") if "delta" in s else 1,
                                           _int(s, "width") if "width" in s else 1), ("n", "ratio", "delta", "width"),
          "cyclic discrete staircase"),
    Entry("paper_example", lambda s: paper_example(), (), "Zheng et al. 2025 Section 5 channel"),
    Entry("paper_construction", lambda s: paper_construction(_int(s, "theorem"), _rat(s, "beta")),
          ("theorem", "beta"), "Zheng et al. 2025 Thm 6/8/10/12 construction"),
)}



def named(spec: dict) -> Mechanism:
    """Build a registered mechanism from ``{"mechanism": NAME, ...parameters}``."""
    name = spec.get("mechanism")
    entry = REGISTRY.get(name) if isinstance(name, str) else None
    if entry is None:
        raise InputError(f"unknown mechanism {name!r}; known: {', '.join(sorted(REGISTRY))}")
    extra = set(spec) - {"mechanism"} - set(entry.params)
    if extra:
        raise InputError(f"mechanism {name!r}: unknown parameter '{sorted(extra)[0]}' (takes {', '.join(entry.params)})")
    return entry.build(spec)

