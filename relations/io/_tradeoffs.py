"""``relations measure --tradeoff``: the f-DP trade-off curve as JSON and as rich tables.

The JSON (:func:`tradeoff_json`) carries every breakpoint exactly (``"1/4"``) and as a float, the
neighbour pair and rejection set of the Neyman-Pearson test attaining it, the pointwise minimum over
pairs, and ``gdp_mu`` as the notions of ``measure --notion`` are written (value, exact form, enclosure,
witness).  :func:`tradeoff_tables` prints the same for a terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from relations.measures._encoding import witness_json
from relations.model._mechanism import Mechanism
from relations.numbers._enclosure import display_float

if TYPE_CHECKING:
    from rich.table import Table

    from relations.measures._tradeoff import TradeoffCurve

__all__ = ["tradeoff_json", "tradeoff_tables", "CONVENTION"]

#: What the two curves are, in one sentence each (the JSON's ``convention`` and the tables' captions).
CONVENTION = {
    "tradeoff": "f: the greatest convex minorant of T(Q[x], Q[x']) over ordered neighbour pairs (null Q[x]), the "
                "largest f with the mechanism f-DP (Dong, Roth, Su 2022); beta = f(alpha) is linear between "
                "breakpoints, each attained by the pair's Neyman-Pearson test rejecting on the outputs listed",
    "pointwise_minimum": "min over ordered neighbour pairs of T(Q[x], Q[x'])(alpha): the least type II error at "
                         "level alpha against one pair; not convex in general, so not itself a trade-off function",
}


def _point(alpha: Any, beta: Any, exact: bool) -> dict[str, Any]:
    return {"alpha": str(alpha) if exact else None, "beta": str(beta) if exact else None,
            "alpha_float": display_float(alpha) if exact else float(alpha),
            "beta_float": display_float(beta) if exact else float(beta)}


def tradeoff_json(mech: Mechanism, curve: TradeoffCurve) -> dict[str, Any]:
    """The trade-off curve of ``mech`` as JSON.

    Parameters
    ----------
    mech : Mechanism
    curve : TradeoffCurve
        :func:`relations.measures.tradeoff_curve` of ``mech``.

    Returns
    -------
    dict
        ``{"mode", "pairs", "tradeoff": [{"alpha", "beta", "alpha_float", "beta_float", "witness",
        "reject"}], "pointwise_minimum": [...] or None, "gdp_mu": {...}, "convention": {...}}``; exact
        breakpoints are strings of fractions (None in float mode).

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> from relations.measures import tradeoff_curve
    >>> rr = randomized_response(3)
    >>> out = tradeoff_json(rr, tradeoff_curve(rr))
    >>> [(p["alpha"], p["beta"], p["reject"]) for p in out["tradeoff"]]
    [('0', '1', []), ('1/4', '1/4', [1]), ('1', '0', [0, 1])]
    >>> out["gdp_mu"]["value"], out["gdp_mu"]["exact"]
    (1.3489795003921634, 'Phi^-1(1 - 1/4) - Phi^-1(1/4)')
    """
    from relations.checking._encoding import real_json

    exact = curve.exact
    mu = curve.mu
    return {
        "mode": "exact" if exact else "float",
        "pairs": curve.pairs,
        "tradeoff": [{**_point(p.alpha, p.beta, exact), "witness": witness_json(mech, p.pair),
                      "reject": list(p.reject)} for p in curve.breakpoints],
        "pointwise_minimum": None if curve.minimum is None else [_point(a, b, exact) for a, b in curve.minimum],
        "gdp_mu": {"name": mu.name, **real_json(mu.value, approximate=not exact),
                   "witness": witness_json(mech, mu.witness), "detail": mu.detail},
        "convention": CONVENTION,
    }


def _digits(lo: str, hi: str) -> str:
    """The digits both ends of an enclosure share, then ``…`` (the enclosure when they share none)."""
    n = 0
    while n < min(len(lo), len(hi)) and lo[n] == hi[n]:
        n += 1
    return lo[:n] + "…" if n > 2 else f"[{lo}, {hi}]"


def _cell(point: dict[str, Any], key: str) -> str:
    return point[key] if point[key] is not None else f"{point[key + '_float']:.12g}"


def tradeoff_tables(data: dict[str, Any]) -> list[Table]:
    """Rich tables of :func:`tradeoff_json`: the breakpoints of ``f``, the pointwise minimum when it differs, and
    ``gdp_mu``.

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> from relations.measures import tradeoff_curve
    >>> rr = randomized_response(3)
    >>> [t.row_count for t in tradeoff_tables(tradeoff_json(rr, tradeoff_curve(rr)))]
    [3, 1]
    """
    from rich.table import Table

    from relations.io._terminal import safe  # labels as text; the tool's consoles interpret no markup

    tables = []
    n = data["pairs"]
    f = Table(title=f"f-DP trade-off curve f ({data['mode']}; {n} ordered neighbour pair{'' if n == 1 else 's'} of "
                    "different rows, one per curve)", title_justify="left", caption=CONVENTION["tradeoff"],
              caption_justify="left")
    right: dict[str, Any] = {"justify": "right"}
    fold: dict[str, Any] = {"overflow": "fold"}
    columns: tuple[tuple[str, dict[str, Any]], ...] = (
        ("alpha", right), ("beta = f(alpha)", right), ("alpha (float)", right), ("beta (float)", right),
        ("pair x, x'", {}), ("rejects outputs", fold))
    for col, kw in columns:
        f.add_column(col, **kw)
    for p in data["tradeoff"]:
        w = p["witness"]
        f.add_row(_cell(p, "alpha"), _cell(p, "beta"), f"{p['alpha_float']:.12g}", f"{p['beta_float']:.12g}",
                  "" if w is None else f"{safe(w['x'])}, {safe(w['x_prime'])}", ", ".join(map(str, p["reject"])))
    tables.append(f)
    minimum = data["pointwise_minimum"]
    same = minimum is not None and [(m["alpha_float"], m["beta_float"]) for m in minimum] == \
        [(p["alpha_float"], p["beta_float"]) for p in data["tradeoff"]]
    if minimum is not None and not same:
        g = Table(title="pointwise minimum over the pairs (not convex: f is its convex minorant)", title_justify="left",
                  caption=CONVENTION["pointwise_minimum"], caption_justify="left")
        for col in ("alpha", "beta", "alpha (float)", "beta (float)"):
            g.add_column(col, justify="right")
        for m in minimum:
            g.add_row(_cell(m, "alpha"), _cell(m, "beta"), f"{m['alpha_float']:.12g}", f"{m['beta_float']:.12g}")
        tables.append(g)
    mu = data["gdp_mu"]
    t = Table(title="Gaussian DP: the least mu with f >= G_mu, G_mu(a) = Phi(Phi^-1(1 - a) - mu)", title_justify="left",
              caption=("the pointwise minimum over the pairs is f itself" if same else "the pointwise minimum over "
                       "the pairs was not computed (too many pairs x breakpoints)" if minimum is None else None),
              caption_justify="left")
    columns = (("notion", {}), ("value", right), ("exact form", fold), ("certified digits", fold), ("witness", fold))
    for col, kw in columns:
        t.add_column(col, **kw)
    w = mu["witness"]
    value = mu["value"]
    enc = mu.get("enclosure")
    t.add_row(mu["name"], value if isinstance(value, str) else repr(value), mu.get("exact") or "",
              _digits(enc[0], enc[1]) if enc else "",
              ("" if w is None else f"x={safe(w['x'])}, x'={safe(w['x_prime'])}") + (f"; {mu['detail']}" if mu["detail"] else ""))
    tables.append(t)
    return tables
