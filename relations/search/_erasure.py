"""The erasure family: a witness of "MI privacy does not imply DP / identifiability" for every ``eps_m > 0``.

Non-implications (Zheng et al. 2025, Theorems 6, 8, 10, 12) say that no finite
MI budget forces a finite DP or identifiability budget.  One witness at one
``eps_m`` shows it for that ``eps_m``; this module gives a *family*, a witness for
every ``eps_m > 0`` with its parameter a function of ``eps_m``, and checks it
symbolically (sympy) for every parameter value at once:

* **local**: inputs ``{0, 1}``, uniform prior, the binary erasure channel
  ``W_t = [[t, 1 - t, 0], [0, 1 - t, t]]`` (output 1 is the erasure);
* **central**: ``D^r`` over ``{0, 1}`` (neighbours differ in one record), every
  record through ``W_t`` independently, uniform prior (the product, written
  densely for the symbolic check).

For ``0 < t <= 1`` the check establishes: ``I(X;Y)/t`` simplifies to a constant
``kappa`` (``I`` is linear in ``t``; it is ``r t ln 2``); some neighbour pair
``x ~ x'`` and output ``y`` have ``Q[x'][y] = 0 < Q[x][y]`` identically, so
``eps_d = eps_i = inf`` (the posterior of ``x'`` at ``y`` is ``0`` while that of
``x`` is positive); and with ``t(eps_m) = min(1, eps_m / r)``, ``I <= eps_m``:
for ``eps_m <= r``, ``I = kappa eps_m / r`` and ``kappa / r <= 1``; for
``eps_m > r``, ``I(1) = kappa <= r < eps_m``.  The parameter is rational for
rational ``eps_m``, so every member is an exact mechanism the checker re-checks.

This module imports only the standard library and sympy, so its source is the
stand-alone script ``proofs/families/ID.py`` that a reader re-runs
(``python proofs/families/zheng2025.thm12.py`` prints the check and exits 0 when
it passes).
"""

from __future__ import annotations

import itertools
import json
import sys
from fractions import Fraction

__all__ = ["parameter", "rows", "check_family", "main", "script"]


def parameter(eps_m: Fraction, records: int = 1) -> Fraction:
    """The family's parameter for a requested ``eps_m > 0``: ``t = min(1, eps_m / r)``.

    Parameters
    ----------
    eps_m : Fraction
        The MI budget, positive.
    records : int, optional
        ``r`` (1 for the local setting).

    Returns
    -------
    Fraction

    Examples
    --------
    >>> parameter(Fraction(1, 10)), parameter(Fraction(1, 10), 2), parameter(Fraction(5))
    (Fraction(1, 10), Fraction(1, 20), Fraction(1, 1))
    """
    if eps_m <= 0:
        raise ValueError("eps_m must be positive")
    return min(Fraction(1), Fraction(eps_m) / records)


def rows(t, records: int = 1) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]], list[list]]:
    """The family's member at ``t``: (datasets, outputs, rows), densely over ``{0, 1}^r``.

    ``t`` may be a Fraction or a sympy symbol; the row of dataset ``x`` at output
    ``y`` is the product over records of ``W_t[x_j][y_j]``.

    Examples
    --------
    >>> xs, ys, q = rows(Fraction(1, 2))
    >>> xs, ys, q
    ([(0,), (1,)], [(0,), (1,), (2,)], [[Fraction(1, 2), Fraction(1, 2), 0], [0, Fraction(1, 2), Fraction(1, 2)]])
    """
    w = [[t, 1 - t, 0], [0, 1 - t, t]]
    xs = list(itertools.product(range(2), repeat=records))
    ys = list(itertools.product(range(3), repeat=records))
    q = []
    for x in xs:
        row = []
        for y in ys:
            v = 1
            for a, b in zip(x, y):
                v = v * w[a][b]
            row.append(v)
        q.append(row)
    return xs, ys, q


def check_family(records: int = 1) -> dict:
    """Check the family symbolically for every ``t`` in ``(0, 1]`` (sympy).

    Parameters
    ----------
    records : int, optional
        ``r``: 1 for the local setting (every two inputs neighbours), ``r >= 2`` for ``D^r``.

    Returns
    -------
    dict
        ``mi`` (``I(X;Y)`` as sympy text), ``kappa`` (``I / t``), ``infinite_at`` (a
        neighbour pair and output with ``Q[x'][y] = 0 < Q[x][y]``), ``bound_holds`` (the
        two cases of ``I(t(eps_m)) <= eps_m``) and ``passed``.

    Examples
    --------
    >>> out = check_family(1)
    >>> out["mi"], out["kappa"], out["passed"]
    ('t*log(2)', 'log(2)', True)
    """
    import sympy as sp

    t = sp.Symbol("t", positive=True)
    xs, ys, q = rows(t, records)
    p = sp.Rational(1, len(xs))
    marg = [sp.expand(sum(p * q[i][j] for i in range(len(xs)))) for j in range(len(ys))]
    mi = sp.Integer(0)
    for i in range(len(xs)):
        for j in range(len(ys)):
            if q[i][j] != 0:  # 0 ln 0 = 0: structurally zero entries contribute nothing
                mi += p * q[i][j] * sp.log(q[i][j] / marg[j])
    # 0 < t <= 1: every factor t, 1 - t is nonnegative, so ln of a product is the sum of lns
    mi = sp.simplify(sp.expand_log(sp.expand(mi), force=True))
    kappa = sp.simplify(mi / t)
    linear = not kappa.has(t)
    infinite_at = None
    for (i, x), (k, x2) in itertools.permutations(enumerate(xs), 2):
        if sum(a != b for a, b in zip(x, x2)) != 1:
            continue  # not neighbours (differ in exactly one record; locally the two inputs)
        for j in range(len(ys)):
            if q[k][j] == 0 and q[i][j] != 0 and sp.ask(sp.Q.positive(q[i][j])):
                infinite_at = {"x": list(x), "x_prime": list(x2), "y": list(ys[j]), "entry": str(q[i][j])}
                break
        if infinite_at:
            break
    small = bool(sp.simplify(kappa / records) <= 1) if linear else False  # eps_m <= r: I = kappa eps_m / r
    large = bool(sp.simplify(mi.subs(t, 1)) <= records) if linear else False  # eps_m > r: I(1) <= r < eps_m
    return {"records": records, "mi": str(mi), "kappa": str(kappa), "linear_in_t": linear,
            "infinite_at": infinite_at, "bound_holds": {"eps_m <= r": small, "eps_m > r": large},
            "parameter": f"t = min(1, eps_m / {records})" if records > 1 else "t = min(1, eps_m)",
            "passed": linear and infinite_at is not None and small and large}


def main(argv: list[str] | None = None) -> int:
    """Print :func:`check_family` for ``r`` (the first argument, default 1) as JSON; exit 0 iff it passed."""
    args = sys.argv[1:] if argv is None else argv
    out = check_family(int(args[0]) if args else 1)
    print(json.dumps(out, indent=1))
    return 0 if out["passed"] else 1


def script(records: int = 1) -> str:
    """This module's source as a stand-alone script that checks the family for ``r = records``.

    Examples
    --------
    >>> "check_family" in script(2) and script(2).rstrip().endswith('sys.exit(main(["2"]))')
    True
    """
    from pathlib import Path

    source = Path(__file__).read_text(encoding="utf-8")
    body = source[: source.index("\ndef script(")].rstrip("\n")  # everything above this function
    return body + f'\n\n\nif __name__ == "__main__":\n    sys.exit(main(["{records}"]))\n'


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
