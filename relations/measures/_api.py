"""The measures of any mechanism: dense forms directly, product forms through their local factors."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from relations.kinds import NumericMode
from relations.measures._dense import eps_all_dense, measure_dense
from relations.measures._product import eps_all_product, measure_product
from relations.measures._results import Budget, Measures
from relations.model._mechanism import Mechanism

if TYPE_CHECKING:
    from relations.model._composed import Composition

__all__ = ["measure", "measure_quantities", "eps_all"]


def measure(mech: Mechanism | Composition, *, bits: int | None = None, mode: NumericMode | str = NumericMode.AUTO,
            notions: Sequence[str] = ()) -> Measures:
    """All four quantities of a mechanism: ``eps_i``, ``eps_d``, ``eps_m`` and ``sigma_min``.

    Ratio measures are exact logarithms of rationals with witnesses; ``eps_m`` is a
    certified enclosure of ``I(X;Y)``.  Product forms are reduced to their local
    factors (:mod:`relations.measures._product`), never expanded.

    Parameters
    ----------
    mech : Mechanism or Composition
        Any mechanism (dense, graph, product; exact or float mode), or a repeated or composed one
        (:meth:`Mechanism.repeated <relations.model.Mechanism.repeated>`, :func:`~relations.compose`),
        measured exactly through the counts of each output (:meth:`Composition.sufficient
        <relations.model.Composition.sufficient>`, the same value in every notion) when that fits its limits.
    bits : int, optional
        The enclosure of ``eps_m`` is at most ``2**-bits`` wide.  By default 100, except for exact
        channels of at least :data:`~relations.measures._dense.FLOAT_CERTIFIED_ENTRIES` entries, whose
        enclosure comes from error-bounded float arithmetic
        (:mod:`~relations.measures._certified_floats`, about ``2**-44`` wide); give ``bits`` to have
        ball arithmetic reach it instead.
    mode : NumericMode or str, optional
        The numeric mode (``docs/semantics.md``, "Numeric mode"): ``"auto"`` (the default) measures
        the mechanism in the mode it was built in (by the documented rule, unless its builder
        chose); ``"exact"`` takes a float-mode mechanism's floats at their binary values (at most
        :data:`~relations.model._floats.MAX_EXACT_MODE_ENTRIES` channel entries, else an
        ``InputError``, never a switch to floats); ``"float"`` measures the float64 copy of an
        exact one (:meth:`Mechanism.in_mode <relations.model.Mechanism.in_mode>`).
    notions : sequence of str, optional
        Further notions, as ``relations measure --notion`` takes them (``"rho"``, ``"renyi(2)"``,
        ``"delta(1/2)"``), or ``"all"`` for every further notion defined on ``mech`` (at its usual argument);
        they are in :attr:`Measures.notions <relations.measures.Measures.notions>` by canonical name and in
        the printed table.

    Returns
    -------
    Measures
        ``eps_i``, ``eps_d``, ``sigma_min`` as :class:`~relations.measures.Budget`,
        ``eps_m`` as :class:`~relations.measures.MutualInformation`; ``exact`` is False
        in float mode, and ``mechanism`` is the mechanism measured (in ``mode``).

    Raises
    ------
    InputError
        If ``mode`` is unknown, ``"exact"`` meets a float array too large to be taken exactly, or a notion is
        unknown, has a bad argument or (named explicitly) is not defined on ``mech``; or a composition
        has too many count vectors for the counts route (then
        :func:`relations.measures.composed_notion` gives each notion by composition rules).

    References
    ----------
    .. [1] Zheng, Huang, Wang, Li, Xu, Li. Relations Between Several Classical Privacy Notions.
       Acta Electronica Sinica 53(10), 2025. Defs. 2-9.

    Examples
    --------
    The paper's Section 5 example, skewed prior:

    >>> from relations import Mechanism, measure
    >>> m = Mechanism.local([["13/20", "7/20"], ["7/20", "13/20"]], prior=["19/20", "1/20"])
    >>> res = measure(m)
    >>> str(res.eps_d.exact), str(res.eps_i.exact), str(res.sigma_min.exact)
    ('ln(13/7)', 'ln(247/7)', 'ln(1/19)')
    >>> res.eps_m.enclosure.decimal(6)
    ('0.008794', '0.008795')

    A float array of 257 x 256 entries is in float mode by the rule (more than 65536 entries);
    ``mode="exact"`` takes its floats exactly, ``mode="float"`` a small one in floats:

    >>> import numpy as np
    >>> big = Mechanism.local(np.full((257, 256), 1 / 256))
    >>> measure(big).exact, str(measure(big, mode="exact").eps_d.exact)
    (False, '0')
    >>> measure(m, mode="float").exact, round(measure(m, mode="float").eps_d.value, 12)
    (False, 0.619039208406)

    Results are numbers, compared exactly (a float is its binary value); further notions by name
    (Renyi of order 2 of the rows: ``(13/20)^2/(7/20) + (7/20)^2/(13/20) = 127/91``):

    >>> res = measure(m, notions=["renyi(2)", "maximal_leakage"])
    >>> float(res.eps_d), res.eps_d <= 0.62, res.eps_m < res.eps_d, round(res.eps_d, 3), f"{res.eps_d:.2f}"
    (0.6190392084062234, True, True, 0.619, '0.62')
    >>> str(res.notions["renyi(2)"].value), res.notions["maximal_leakage"] < res.eps_d
    ('ln(127/91)', True)

    A mechanism used 3 times is measured through the counts of its outputs: ``eps_d`` is 3 times one
    use's, ``ln((13/7)^3)``:

    >>> str(measure(m.repeated(3)).eps_d.exact)
    'ln(2197/343)'
    """
    if not isinstance(mech, Mechanism):
        from relations.model._composed import Composition  # repeated use: imported when it is asked for

        if isinstance(mech, Composition):
            if not mech.counts_fit():
                from relations.errors import InputError

                raise InputError(f"{mech.describe()}: {mech.type_counts()} count vectors, beyond the counts route; "
                                 "relations.measures.composed_notion gives each notion by composition rules")
            mech = mech.sufficient()
    assert isinstance(mech, Mechanism)
    if isinstance(notions, str):
        notions = [notions]
    wanted = _notion_names(mech, notions)  # bad names refused before anything is computed
    mech = mech.in_mode(mode)
    res = measure_product(mech, bits=bits) if mech.is_product else measure_dense(mech, bits=bits)
    if not wanted:
        return res
    from relations.measures._notions import notion_result

    found = {}
    for name in wanted:
        r = notion_result(mech, name)
        found[r.name] = r
    return replace(res, notions=found)


def _notion_names(mech: Mechanism, names: Sequence[str]) -> list[str]:
    """The canonical notion names to compute, once each, in order (``all``: every further notion defined)."""
    if not names:
        return []  # the notions' registry is not imported for the four quantities
    from relations.measures._notions import canonical_name, parse_notion, undefined_reason
    from relations.notions import ALL_EXAMPLES as every

    wanted: list[str] = []
    for name in names:
        is_all = name.strip().lower() == "all"
        for one in every if is_all else (name,):
            canonical = canonical_name(*parse_notion(one))
            if is_all and undefined_reason(mech, canonical) is not None:
                continue
            if canonical not in wanted:
                wanted.append(canonical)
    return wanted


def measure_quantities(mech: Mechanism, names: Sequence[str]) -> dict[str, Any]:
    """Some of :func:`measure`'s four quantities (``names``, of ``eps_i``, ``eps_d``, ``eps_m``, ``sigma_min``),
    each the value ``measure(mech)`` gives it: of an exact dense mechanism, each computed alone by the function ``measure`` computes it with (a
    curve of ``eps_d`` and ``I(X;Y)`` computes neither ``eps_i`` nor ``sigma_min``); of a product form or a
    float-mode mechanism, taken from ``measure(mech)``.

    Examples
    --------
    >>> from relations import Mechanism
    >>> m = Mechanism.local([["13/20", "7/20"], ["7/20", "13/20"]], prior=["19/20", "1/20"])
    >>> got = measure_quantities(m, ["eps_d"])
    >>> list(got), got["eps_d"] == measure(m).eps_d
    (['eps_d'], True)
    """
    if mech.is_product or not mech.exact:
        whole = measure(mech)
        return {n: getattr(whole, n) for n in names}
    from relations.measures import _dense

    return {n: getattr(_dense, n)(mech) for n in names}


def eps_all(mech: Mechanism) -> Budget:
    """The DP budget over every pair of distinct inputs, neighbours or not.

    This is what group privacy bounds (``eps_all <= diam * eps_d``).  For a product
    channel it is ``r`` times the local ``eps_d`` (the per-record ratios multiply),
    attained by repeating the local witness in every record.

    Parameters
    ----------
    mech : Mechanism
        Any mechanism; its neighbour structure is ignored (every two distinct
        inputs are compared).

    Returns
    -------
    Budget
        Named ``"eps_all"``, with exact form and witness.

    References
    ----------
    .. [1] Dwork, Roth. The Algorithmic Foundations of Differential Privacy.
       Foundations and Trends in Theoretical Computer Science 9(3-4), 2014,
       Theorem 2.2 (group privacy). doi:10.1561/0400000042

    Examples
    --------
    Binary randomized response with ratio 3 on 4 records: ``ln(3^4)``.

    >>> from relations.mechanisms import product, randomized_response
    >>> str(eps_all(product(randomized_response(3), 4)).exact)
    'ln(81)'
    """
    if mech.is_product:
        return eps_all_product(mech)
    return eps_all_dense(mech)
