"""Hypothesis strategies for exact rational mechanisms, and checks against the brute force."""

from __future__ import annotations

import math
import os
from fractions import Fraction

from bruteforce import INF, index_of, tool_ratio
from hypothesis import strategies as st

#: Multiplier for every property test's example count (e.g. RELATIONS_EXAMPLES=20 for a long hunt).
SCALE = max(1, int(os.environ.get("RELATIONS_EXAMPLES", "1")))


def examples(n: int) -> int:
    return n * SCALE


#: Small integer weights (zeros are common) and occasionally huge ones (large denominators).
WEIGHT = st.one_of(st.integers(0, 6), st.integers(0, 6), st.integers(0, 10**25))
#: Entries below the float range (1e-400) or whose products underflow (1e-200 squared).
TINY = st.sampled_from([Fraction(1, 10**200), Fraction(3, 10**350), Fraction(1, 10**400)])


@st.composite
def distributions(draw, n: int, tiny: bool = False, zeros: bool = True):
    """A probability vector of length ``n`` with exact rational entries (zeros allowed)."""
    weights = [Fraction(draw(WEIGHT if zeros else st.integers(1, 10**6))) for _ in range(n)]
    if tiny:
        for i in range(n):
            if draw(st.integers(0, 3)) == 0:
                weights[i] = draw(TINY)
    if sum(weights) == 0:
        weights[draw(st.integers(0, n - 1))] = Fraction(1)
    total = sum(weights)
    return [w / total for w in weights]


@st.composite
def channels(draw, n: int, m: int, tiny: bool = False, zeros: bool = True):
    return [draw(distributions(m, tiny, zeros)) for _ in range(n)]


@st.composite
def hamming_cases(draw, tiny: bool = False, kmax: int = 3, rmax: int = 3, mmax: int = 4):
    """``(k, r, prior, channel)`` for central ``D^r`` with ``k^r`` rows."""
    k = draw(st.integers(2, kmax))
    r = draw(st.integers(1, rmax))
    m = draw(st.integers(1, mmax))
    n = k**r
    return k, r, draw(distributions(n, tiny)), draw(channels(n, m, tiny))


@st.composite
def local_cases(draw, tiny: bool = False, nmin: int = 1, nmax: int = 5, mmax: int = 4):
    n = draw(st.integers(nmin, nmax))
    m = draw(st.integers(1, mmax))
    return draw(distributions(n, tiny)), draw(channels(n, m, tiny))


@st.composite
def edge_cases(draw, tiny: bool = False):
    """``(prior, channel, edges)`` with an arbitrary undirected edge list (possibly empty)."""
    n = draw(st.integers(2, 6))
    m = draw(st.integers(1, 4))
    all_pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges = draw(st.lists(st.sampled_from(all_pairs), unique=True, max_size=len(all_pairs)))
    edges = [(j, i) if draw(st.booleans()) else (i, j) for i, j in edges]  # either orientation
    return draw(distributions(n, tiny)), draw(channels(n, m, tiny)), edges


def check_budget(budget, brute, to_index=None) -> None:
    """The tool's ``budget`` equals the brute-force ``(value, attaining)`` exactly, and its
    witness is one of the attaining pairs (``to_index`` maps tuple witnesses to indices)."""
    value, attaining = brute
    if value is None:  # no contributing pair: reported as 0 without a witness
        assert budget.exact.is_finite and budget.exact.ratio == 1, budget
        assert budget.value == 0.0
        assert budget.witness is None
        return
    assert tool_ratio(budget) == value, (budget.name, budget.exact, value)
    if value == INF:
        assert budget.value == math.inf
    elif value == 0:
        assert budget.value == -math.inf
    else:
        assert math.isclose(budget.value, math.log(value.numerator) - math.log(value.denominator),
                            rel_tol=1e-12, abs_tol=1e-12)
    w = budget.witness
    assert w is not None, budget
    convert = to_index or (lambda v, kind: v)
    where = (convert(w.x, "x"), convert(w.x_prime, "x"))
    if w.y is not None:
        where += (convert(w.y, "y"),)
    assert where in attaining, (budget.name, where, sorted(attaining)[:5])


def tuple_index(k: int, m: int):
    """Map product-form witnesses (tuples of per-record indices) to dense row/column indices."""

    def convert(v, kind):
        if isinstance(v, tuple):
            return index_of(v, k if kind == "x" else m)
        return v

    return convert
