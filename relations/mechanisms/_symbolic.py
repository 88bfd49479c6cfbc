"""Closed forms (sympy) of the four quantities for mechanisms with symbolic parameters.

For a prior and a channel whose entries are sympy expressions in positive
symbols (``eps`` for ``e^eps`` mechanisms, the paper's ``beta``):

* ``eps_d = Max ln(Q[x][y] / Q[x'][y])``, ``eps_i = Max ln(p(x)Q[x][y] / (p(x')Q[x'][y]))``
  and ``sigma_min = Min ln(p(x)/p(x'))`` over neighbours and outputs, with the
  candidates simplified and de-duplicated; where the maximising pair depends on
  the parameters the result is a ``Max``/``Min``, and :func:`piecewise` rewrites
  it as a ``Piecewise`` expression;
* ``I(X;Y) = sum p(x)Q[x][y] ln(Q[x][y] / p(y))`` simplified.

Zero entries follow ``docs/semantics.md``: ``0/0`` skipped, ``a/0 = oo``.  Sympy is
imported only here, so the measuring commands do not pay for it.  :func:`krr` takes
``k`` up to :data:`MAX_SYMBOLIC_K` (the closed forms grow with ``k``: ``k = 64`` takes
about 3 s, ``k = 200`` about a minute).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from relations.errors import InputError
from relations.mechanisms._local import krr_rows

#: Largest domain size of the symbolic k-RR (``relations symbolic krr --k``), checked before anything is built.
MAX_SYMBOLIC_K = 64

__all__ = ["MAX_SYMBOLIC_K", "ClosedForms", "closed_forms", "piecewise", "krr", "binary_rr_with_prior", "paper_construction"]


@dataclass(frozen=True)
class ClosedForms:
    """Sympy expressions for ``eps_d``, ``eps_i``, ``sigma_min`` and ``eps_m`` (``I(X;Y)``), in nats.

    Attributes
    ----------
    eps_d, eps_i : sympy expression
        A ``Max`` over the candidate log-ratios when the maximising pair depends on the
        parameters; ``oo`` when some output separates two neighbours.
    sigma_min : sympy expression
        ``Min ln(p(x)/p(x'))`` over neighbours (``0`` for a uniform prior).
    eps_m : sympy expression
        ``I(X;Y)``, simplified.
    symbols : tuple of sympy.Symbol
        The free symbols of the prior and channel, sorted by name.
    """

    eps_d: object
    eps_i: object
    sigma_min: object
    eps_m: object
    symbols: tuple[Any, ...]

    def at(self, values: Mapping[Any, Any]) -> dict[str, float]:
        """Floats of the four forms at ``values``, evaluated with 30 significant digits.

        Parameters
        ----------
        values : mapping
            ``{symbol or symbol name: number}``; a name stands for the positive symbol of that name.

        Returns
        -------
        dict
            ``{"eps_d": ..., "eps_i": ..., "sigma_min": ..., "eps_m": ...}`` as floats (``inf`` allowed).

        Examples
        --------
        >>> forms = paper_construction(8)
        >>> {name: round(v, 6) for name, v in forms.at({"beta": 0.5}).items()}  # I = h(1/2) = ln 2
        {'eps_d': inf, 'eps_i': inf, 'sigma_min': 0.0, 'eps_m': 0.693147}
        """
        import sympy

        subs = {(sympy.Symbol(k, positive=True) if isinstance(k, str) else k): v for k, v in values.items()}
        return {name: float(sympy.N(getattr(self, name).subs(subs), 30))
                for name in ("eps_d", "eps_i", "sigma_min", "eps_m")}


def _ratio_logs(num, den, pairs, outputs):
    import itertools

    import sympy

    out: dict = {}  # (a, b) -> ln(a/b): the same pair of entries recurs (k-RR has two distinct entries)
    # each entry formed and compared with 0 once, not once per pair it is in (k-RR at k = 64: 4096 times, not 2^18)
    nums = {x: [num(x, y) for y in outputs] for x in dict.fromkeys(x for x, _ in pairs)}
    dens = {xp: [den(xp, y) for y in outputs] for xp in dict.fromkeys(xp for _, xp in pairs)}
    entries = {id(e): (e, e == 0) for row in (*nums.values(), *dens.values()) for e in row}  # alive in nums, dens
    # the pairs of objects met, in the order the pairs and outputs meet them (each once: hashing a sympy pair
    # costs more than a pair of ids, and the scan of the k^2 m pairs of ids stays in C)
    met = dict.fromkeys(itertools.chain.from_iterable(
        zip(map(id, nums[x]), map(id, dens[xp])) for x, xp in pairs))
    for ia, ib in met:
        (a, a_zero), (b, b_zero) = entries[ia], entries[ib]
        if a_zero and b_zero:
            continue
        if b_zero:
            return [sympy.oo]
        if a_zero:
            continue  # -oo never attains a max
        if (a, b) not in out:
            out[(a, b)] = _log(a / b)
    return list(out.values())


def _log(ratio):
    """``ln(ratio)`` with exponential factors pulled out (``ln(e^eps c) = eps + ln c``) and no
    branch-cut rewriting of the rest (``ln(pi/(1 - pi))`` stays as it is)."""
    import sympy

    ratio = sympy.factor(sympy.simplify(ratio))
    exponent, rest = sympy.Integer(0), sympy.Integer(1)
    for f in sympy.Mul.make_args(ratio):
        base, power = f.as_base_exp()
        if isinstance(base, sympy.exp):
            exponent += base.args[0] * power
        elif base == sympy.E:
            exponent += power
        else:
            rest *= f
    return exponent + (sympy.log(rest) if rest != 1 else 0)


def _dedupe(exprs):
    import sympy

    kept = []
    for e in dict.fromkeys(exprs):  # identical expressions first, without simplifying each copy
        e = sympy.simplify(e)
        if not any(sympy.simplify(e - k) == 0 for k in kept):
            kept.append(e)
    return kept


def closed_forms(prior: Sequence[Any], channel: Sequence[Sequence[Any]], *,
                 pairs: Sequence[tuple[int, int]] | None = None) -> ClosedForms:
    """Closed forms of the four quantities for a mechanism whose entries are sympy expressions.

    Parameters
    ----------
    prior : sequence
        ``p(x)``: numbers or sympy expressions (in positive symbols).
    channel : sequence of sequences
        ``Q[x][y]``, one row per input.
    pairs : sequence of (int, int), optional
        The neighbour pairs (either orientation; both are used).  By default every pair of
        distinct inputs: the local setting.

    Returns
    -------
    ClosedForms

    Examples
    --------
    The paper's Section 5 mechanism, with the exact values :func:`relations.measure` gives:

    >>> from sympy import Rational as R
    >>> forms = closed_forms([R(19, 20), R(1, 20)], [[R(13, 20), R(7, 20)], [R(7, 20), R(13, 20)]])
    >>> forms.eps_d, forms.eps_i, forms.sigma_min
    (log(13/7), log(247/7), -log(19))
    """
    import sympy

    p = [sympy.sympify(v) for v in prior]
    q = [[sympy.sympify(v) for v in row] for row in channel]
    n, m = len(q), len(q[0])
    pairs = list(pairs) if pairs is not None else [(i, j) for i in range(n) for j in range(n) if i != j]
    # looked up in a set, not the list (the local setting's k (k - 1) pairs: 0.3 s at k = 64); (j, i) equals tuples only
    given = {pair for pair in pairs if isinstance(pair, tuple)}
    pairs = pairs + [(j, i) for i, j in pairs if (j, i) not in given]
    outputs = range(m)
    d = _dedupe(_ratio_logs(lambda x, y: q[x][y], lambda x, y: q[x][y], pairs, outputs))
    i = _dedupe(_ratio_logs(lambda x, y: p[x] * q[x][y], lambda x, y: p[x] * q[x][y], pairs, outputs))
    s = _dedupe(_ratio_logs(lambda x, y: p[x], lambda x, y: p[x], pairs, [0]))
    # sums as one Add of all their terms (the same expression as adding them one by one, without re-flattening
    # the partial sum at each term)
    # each distinct sum simplified once (k-RR's columns are all the same sum: 64 simplifications of it at k = 64)
    simplified: dict = {}
    py = [simplified[total] if total in simplified else simplified.setdefault(total, sympy.simplify(total))
          for total in (sympy.Add(*(p[x] * q[x][y] for x in range(n))) for y in outputs)]
    mi = sympy.simplify(sympy.Add(*(p[x] * q[x][y] * sympy.log(q[x][y] / py[y])
                                    for x in range(n) for y in outputs if q[x][y] != 0 and p[x] != 0)))
    sigma = sympy.Min(*s) if s else sympy.Integer(0)
    if s and any(e == sympy.oo for e in s):
        sigma = -sympy.oo
    syms = tuple(sorted(set().union(*(e.free_symbols for e in p + [v for r in q for v in r])), key=str))
    return ClosedForms(sympy.Max(*d) if d else sympy.Integer(0), sympy.Max(*i) if i else sympy.Integer(0),
                       sympy.Min(*[-e for e in s]) if s and sigma != -sympy.oo else sigma, mi, syms)


def piecewise(expr: Any) -> Any:
    """``Max``/``Min`` rewritten as ``Piecewise``: which candidate attains the budget, by condition.

    Parameters
    ----------
    expr : sympy expression
        Typically :attr:`ClosedForms.eps_d`, ``eps_i`` or ``sigma_min``.

    Returns
    -------
    sympy expression

    Examples
    --------
    >>> import sympy
    >>> x = sympy.Symbol("x", positive=True)
    >>> piecewise(sympy.Max(x, 1))
    Piecewise((1, x <= 1), (x, True))
    """
    import sympy

    return expr.rewrite(sympy.Piecewise)


def krr(k: int, *, prior: Sequence[Any] | None = None) -> ClosedForms:
    """k-ary randomized response with symbolic ``eps`` (``Q[d][d] = e^eps / (e^eps + k - 1)``).

    The symbolic counterpart of :func:`relations.mechanisms.krr`, where the paper is cited.

    Parameters
    ----------
    k : int
        Domain size, ``2 <= k <=`` :data:`MAX_SYMBOLIC_K`.
    prior : sequence, optional
        Numbers or sympy expressions (``k`` of them); uniform by default.

    Returns
    -------
    ClosedForms
        ``eps_d = eps``; with the uniform prior also ``eps_i = eps`` and ``sigma_min = 0``.

    Raises
    ------
    InputError
        If ``k`` is not a whole number in ``2..MAX_SYMBOLIC_K`` or the prior has not ``k`` entries.

    Examples
    --------
    >>> forms = krr(2)
    >>> forms.eps_d, forms.eps_i, forms.sigma_min, forms.symbols
    (eps, eps, 0, (eps,))
    """
    if isinstance(k, bool) or not isinstance(k, int) or not 2 <= k <= MAX_SYMBOLIC_K:
        raise InputError(f"k (--k): the symbolic k-RR takes k from 2 to {MAX_SYMBOLIC_K} (its closed forms take "
                         f"minutes beyond), got {k!r}")
    if prior is not None and len(prior) != k:
        raise InputError(f"prior: {len(prior)} entries for k = {k}")
    return _uniform_krr(k) if prior is None else _krr_forms(k, prior)


def _krr_forms(k: int, prior: Sequence[Any]) -> ClosedForms:
    """:func:`closed_forms` of k-RR with ratio ``e^eps`` under ``prior``."""
    import sympy

    return closed_forms(prior, krr_rows(k, sympy.exp(sympy.Symbol("eps", positive=True))))


@functools.cache
def _uniform_krr(k: int) -> ClosedForms:
    """:func:`krr` with its uniform prior, once per ``k`` and process (at most :data:`MAX_SYMBOLIC_K` of them; the
    forms are immutable): sympy's simplification takes 0.3 s for ``k = 3``, 3 s for ``k = 64``."""
    import sympy

    return _krr_forms(k, [sympy.Rational(1, k)] * k)


def binary_rr_with_prior() -> ClosedForms:
    """Binary randomized response with symbolic ``eps`` and prior ``(pi, 1 - pi)``.

    Returns
    -------
    ClosedForms
        ``eps_d = eps``; ``eps_i`` and ``sigma_min`` are a ``Max`` and a ``Min`` over the
        candidates, which :func:`piecewise` splits by the value of ``pi``.

    References
    ----------
    .. [1] Warner. Randomized response: a survey technique for eliminating evasive answer
       bias. JASA 60(309), 1965. doi:10.1080/01621459.1965.10480775
    """
    return _binary_rr_with_prior()


@functools.cache
def _binary_rr_with_prior() -> ClosedForms:
    """:func:`binary_rr_with_prior`, once per process (the forms are immutable)."""
    import sympy

    pi = sympy.Symbol("pi", positive=True)
    return krr(2, prior=[pi, 1 - pi])


def paper_construction(theorem: int) -> ClosedForms:
    """Zheng et al. 2025's Thm 8/12 (local) and Thm 6/10 (central) joint distributions, symbolic ``beta``.

    The symbolic counterparts of :func:`relations.mechanisms._paper.paper_local` and
    :func:`relations.mechanisms._paper.paper_central` (the paper is cited in :mod:`relations.mechanisms._paper`).

    Parameters
    ----------
    theorem : int
        6, 8, 10 or 12.

    Returns
    -------
    ClosedForms
        ``eps_d = eps_i = oo`` and ``eps_m = h(beta)``, the binary entropy in nats.

    Raises
    ------
    ValueError
        For another theorem.

    Examples
    --------
    >>> forms = paper_construction(12)
    >>> forms.eps_d, forms.eps_m
    (oo, -beta*log(beta) - (beta - 1)*log(-1/(beta - 1)))
    """
    if theorem not in (6, 8, 10, 12):
        raise ValueError("theorems 6, 8, 10, 12")
    return _paper_construction(theorem in (8, 12))


@functools.cache
def _paper_construction(local: bool) -> ClosedForms:
    """:func:`paper_construction`'s local (8, 12) or central (6, 10) forms, once per process (immutable)."""
    import sympy

    beta = sympy.Symbol("beta", positive=True)
    if local:
        return closed_forms([beta, 1 - beta], [[1, 0], [0, 1]])
    half = sympy.Rational(1, 2)
    return closed_forms([beta, (1 - beta) / 2, (1 - beta) / 2], [[1, 0, 0], [0, half, half], [0, half, half]],
                        pairs=[(0, 1), (1, 2)])
