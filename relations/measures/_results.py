"""Result objects of the measures: budgets with exact forms and witnesses, mutual information.

A :class:`Budget` is a ratio measure (``eps_d``, ``eps_i``, ``sigma_min``, and the
derived ``eps_all`` and ``neg_sigma``): its float value, its exact form ``ln(q)`` (a
:class:`~relations.numbers.LogRatio`; ``None`` in float mode) and the :class:`Witness`
``(x, x', y)`` attaining it.  A :class:`MutualInformation` is ``I(X;Y)`` with its
certified enclosure.  :class:`Measures` holds all four quantities of one mechanism.
The conventions on zeros, infinities and witnesses are those of ``docs/semantics.md``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from relations.model._display import FLOAT_MARK, one_line, short_real, text_view
from relations.numbers._enclosure import Enclosure
from relations.numbers._logs import LogRatio

if TYPE_CHECKING:
    from relations.model._mechanism import Mechanism
    from relations.model._runs import Runs

__all__ = ["Witness", "Budget", "MutualInformation", "Measures", "float_derived"]


@dataclass(frozen=True)
class Witness:
    """Where a budget is attained: inputs ``x``, ``x_prime`` and output ``y``.

    Attributes
    ----------
    x, x_prime : int, tuple of int or Runs
        The neighbouring inputs whose ratio attains the budget: row indices of a
        dense mechanism, or tuples of per-record value indices for a product form
        (:class:`~relations.model._runs.Runs` when long).
    y : int, tuple of int, Runs or None
        The output column (per-record output indices for a product form); ``None``
        for ``sigma_min`` and ``neg_sigma``, which involve the prior only.

    Examples
    --------
    >>> from relations.measures import eps_d
    >>> from relations.mechanisms import randomized_response
    >>> eps_d(randomized_response(3)).witness
    Witness(x=0, x_prime=1, y=0)
    """

    x: int | tuple[int, ...] | Runs
    x_prime: int | tuple[int, ...] | Runs
    y: int | tuple[int, ...] | Runs | None = None



class _Number:
    """Results as numbers: ``float()``, exact comparisons with numbers and with each other, ``round()``, ``format()``.

    A comparison is decided exactly (:func:`relations.numbers._reals.compare`: rational arithmetic for
    ``ln(q)`` against a rational or another ``ln(q')``, certified enclosures refined until they separate
    otherwise), never within a float tolerance.  A Python ``float`` on the other side is its exact binary
    value (``1.1`` is ``2476979795053773/2251799813685248``, a little above 11/10); an ``int``, ``Fraction`` or
    ``Decimal`` is itself.  When the result cannot decide (an enclosure that cannot separate from the other
    side, such as ``I(X;Y)`` against an equal number), the comparison raises ``ValueError`` rather than
    guess.  A float-mode result holds only its float, and compares as that float.
    """

    __slots__ = ()

    def _real(self) -> Any:  # the exact real (relations.numbers._reals) this result stands for
        raise NotImplementedError

    def __float__(self) -> float:
        return float(self.value)  # type: ignore[attr-defined]

    def _sign(self, other: Any) -> int | None:
        """``sign(self - other)``; ``None`` when undecidable; ``NotImplemented`` for a non-number."""
        a, b = self._real(), _as_real(other)
        if b is NotImplemented:
            return NotImplemented
        if b is None:  # NaN: unordered
            return None
        if a.infinite or b.infinite:
            return (a.infinite > b.infinite) - (a.infinite < b.infinite)
        from relations.numbers._reals import compare

        s = compare(a, b)
        if s is None:
            raise ValueError(f"{self!r} and {other!r}: their enclosures do not separate (undecided, not equal)")
        return s

    def __lt__(self, other: Any) -> bool:
        s = self._sign(other)
        return s if s is NotImplemented else s is not None and s < 0

    def __le__(self, other: Any) -> bool:
        s = self._sign(other)
        return s if s is NotImplemented else s is not None and s <= 0

    def __gt__(self, other: Any) -> bool:
        s = self._sign(other)
        return s if s is NotImplemented else s is not None and s > 0

    def __ge__(self, other: Any) -> bool:
        s = self._sign(other)
        return s if s is NotImplemented else s is not None and s >= 0

    def __eq__(self, other: Any) -> bool:
        if type(other) is type(self) and super().__eq__(other) is True:
            return True  # the same result (also a NaN-free shortcut)
        try:
            s = self._sign(other)
        except ValueError:
            return False
        return s if s is NotImplemented else s == 0

    def __ne__(self, other: Any) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        # equal numbers hash equal: a rational value by its Fraction (0 = ln 1 too), an irrational one by its
        # correctly rounded float (equal reals round to the same double)
        from relations.numbers._reals import Log, Rational

        r = self._real()
        if isinstance(r, Rational):
            return hash(r.value)
        if isinstance(r, Log) and r.log.is_finite and r.log.ratio == 1:
            return hash(0)
        return hash(float(self))

    def __round__(self, ndigits: int | None = None) -> Any:
        """``round(x, n)`` of the exact value: its enclosure refined until both ends round alike."""
        from relations.numbers._reals import LADDER

        r = self._real()
        if r.infinite:
            return float(self) if ndigits is not None else round(float(self))
        out = None
        for bits in LADDER:
            lo, hi = r.enclose(bits)
            a, b = round(Fraction(lo), ndigits), round(Fraction(hi), ndigits)
            if a == b:
                out = a
                break
        if out is None:
            raise ValueError(f"round({self!r}, {ndigits}): the value is too close to a rounding boundary to decide")
        return int(out) if ndigits is None else float(out)

    def __format__(self, spec: str) -> str:
        return str(self) if not spec else format(float(self), spec)


def _as_real(x: Any) -> Any:
    """``x`` as an exact real; ``None`` for NaN; ``NotImplemented`` for what is not a number."""
    import decimal
    import math
    import numbers

    from relations.numbers._reals import Rational, inf

    if isinstance(x, _Number):
        return x._real()
    from relations.numbers._reals import ArbExpr, Log

    if isinstance(x, (Rational, Log, ArbExpr)):
        return x
    if isinstance(x, bool) or not isinstance(x, (numbers.Real, decimal.Decimal)):
        return NotImplemented
    if isinstance(x, (float, decimal.Decimal)) or not isinstance(x, numbers.Rational):
        f = float(x) if not isinstance(x, decimal.Decimal) else x
        if (math.isnan(f) if isinstance(f, float) else f.is_nan()):
            return None
        if (math.isinf(f) if isinstance(f, float) else f.is_infinite()):
            return inf(1 if f > 0 else -1)
        return Rational(Fraction(x) if isinstance(x, decimal.Decimal) else Fraction(float(x)))
    return Rational(Fraction(x))


@dataclass(frozen=True, eq=False)
class Budget(_Number):
    """A ratio measure (``eps_d``, ``eps_i``, ``sigma_min``, ``eps_all`` or ``neg_sigma``).

    Attributes
    ----------
    name : str
        Which measure this is, e.g. ``"eps_d"``.
    value : float
        The float value in nats (``+inf`` and ``-inf`` allowed).
    exact : LogRatio or None
        ``ln(q)`` with ``q`` rational, or an infinity; ``None`` in float mode.
    witness : Witness or None
        The ``(x, x', y)`` attaining the budget; ``None`` when no neighbour pair
        contributes (the budget is then reported as ``0``).

    Examples
    --------
    >>> from relations.measures import sigma_min
    >>> from relations.mechanisms import paper_example
    >>> b = sigma_min(paper_example(["19/20", "1/20"]))
    >>> b.name, str(b.exact), round(b.value, 4), b.witness
    ('sigma_min', 'ln(1/19)', -2.9444, Witness(x=1, x_prime=0, y=None))
    >>> b
    Budget(sigma_min=ln(1/19)≈-2.9444, witness=(x=1, x'=0))
    """

    name: str
    value: float
    exact: LogRatio | None
    witness: Witness | None

    def _real(self) -> Any:
        from relations.numbers._reals import Log

        return Log(self.exact) if self.exact is not None else _as_real(self.value)

    def __repr__(self) -> str:
        """One line: ``Budget(sigma_min=ln(1/19)≈-2.9444, witness=(x=1, x'=0))`` (a long float-derived ``ln(q)``
        as a decimal)."""
        fields: list[tuple[str, Any]] = [(self.name, short_real(self.value, None if self.exact is None
                                                                 else str(self.exact)))]
        w = self.witness
        if w is not None:
            fields.append(("witness", f"(x={w.x}, x'={w.x_prime}" + ("" if w.y is None else f", y={w.y}") + ")"))
        return one_line("Budget", fields)



@dataclass(frozen=True, eq=False)
class MutualInformation(_Number):
    """``eps_m = I(X;Y)`` in nats: a float value and, in exact mode, a certified enclosure.

    Attributes
    ----------
    value : float
        The float value: in exact mode the double nearest I(X;Y), from its enclosure (refined when the
        enclosure does not determine it; the midpoint of a certified-float enclosure that does not).
    enclosure : Enclosure or None
        Exact dyadic bounds ``lower <= I(X;Y) <= upper``; ``None`` in float mode.
    bits : int or None
        The requested precision: ``upper - lower <= 2**-bits``; ``None`` in float mode.
    """

    value: float
    enclosure: Enclosure | None
    bits: int | None = None

    def _real(self) -> Any:
        from relations.numbers._reals import ArbExpr

        if self.enclosure is None:
            return _as_real(self.value)
        lo, hi = Fraction(self.enclosure.lower), Fraction(self.enclosure.upper)
        return ArbExpr("I(X;Y)", self.value, lambda bits: (lo, hi), rounded=True)

    def __repr__(self) -> str:
        """One line: ``MutualInformation(eps_m≈0.0087942, enclosure=[0.00879423159303…, …])``."""
        fields: list[tuple[str, Any]] = [("eps_m", short_real(self.value))]
        if self.enclosure is not None:
            lo, hi = self.enclosure.decimal(16)
            fields.append(("enclosure", f"[{lo}, {hi}]"))
        return one_line("MutualInformation", fields, note="" if self.enclosure is not None else "float, not certified")



def float_derived(measures: Measures) -> bool:
    """Whether exact ``measures`` are those of floats' binary values: the mechanism was given as a float array
    (or its floats were rounded on the way in), so a long ``ln(q)`` is shown as a decimal.

    Examples
    --------
    >>> import numpy as np
    >>> from relations import Mechanism, measure
    >>> float_derived(measure(Mechanism.local(np.array([[0.9, 0.1], [0.2, 0.8]])))), float_derived(
    ...     measure(Mechanism.local([["9/10", "1/10"], ["1/5", "4/5"]])))
    (True, False)
    """
    mech = measures.mechanism
    if not measures.exact or mech is None:
        return False
    return any(mech.rounding) or mech.mode_rule.startswith("auto: a float array")


def _mode_note(measures: Measures) -> str:
    """What the one-line ``repr()`` says of the numeric mode: nothing for exact input."""
    if not measures.exact:
        return "float mode, approximate"
    return f"exact, of the {FLOAT_MARK}" if float_derived(measures) else ""


@dataclass(frozen=True)
class Measures:
    """The four quantities of one mechanism.

    Iterating yields ``eps_i``, ``eps_d``, ``eps_m``, ``sigma_min`` in that order.

    Attributes
    ----------
    eps_i, eps_d, sigma_min : Budget
        The ratio measures, exact with witnesses.
    eps_m : MutualInformation
        ``I(X;Y)``, certified in exact mode.
    exact : bool
        False in float mode (a ``.npz`` mechanism, or float arrays).
    mechanism : Mechanism or None
        The mechanism measured (it names the witnesses); not compared.
    notions : dict of str to NotionResult
        The further notions asked for (``measure(m, notions=[...])``), by canonical name; not compared.

    In Jupyter the measures show as a table (``_repr_html_``) or as LaTeX lines
    (``_repr_latex_``); :meth:`to_dict` and :meth:`to_pandas` convert them
    (:mod:`relations.measures._display`).

    Examples
    --------
    3-ary randomized response with ratio 2 under the uniform prior (rows
    ``(1/2, 1/4, 1/4)`` and permutations): ``eps_d = eps_i = ln 2``, ``sigma_min = 0``
    and ``I(X;Y) = ln 3 - H(1/2, 1/4, 1/4) = ln 3 - (3/2) ln 2``:

    >>> from relations import measure
    >>> from relations.mechanisms import krr
    >>> res = measure(krr(3, 2))
    >>> e_i, e_d, e_m, s_min = res
    >>> str(e_i.exact), str(e_d.exact), str(s_min.exact), res.exact
    ('ln(2)', 'ln(2)', '0', True)
    >>> e_m.enclosure.decimal(4)
    ('0.0588', '0.0589')
    >>> e_m
    MutualInformation(eps_m≈0.058892, enclosure=[0.0588915178281917, 0.0588915178281918])
    >>> res
    Measures(eps_i=ln(2)≈0.69315, eps_d=ln(2)≈0.69315, eps_m≈0.058892, sigma_min=0)
    >>> print(res)  # doctest: +ELLIPSIS
    mechanism — local, 3 inputs x 3 outputs, all pairs; mode exact
    ...
    │ eps_d     │  0.693147180559… │ ln(2) ...
    ...
    """

    eps_i: Budget
    eps_d: Budget
    eps_m: MutualInformation
    sigma_min: Budget
    exact: bool
    mechanism: Mechanism | None = field(default=None, compare=False, repr=False)
    notions: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __iter__(self) -> Iterator[Budget | MutualInformation]:
        return iter((self.eps_i, self.eps_d, self.eps_m, self.sigma_min))

    def __eq__(self, other: object) -> bool:
        """The same results, field by field (witnesses and enclosures too), not only equal numbers."""
        if not isinstance(other, Measures):
            return NotImplemented
        from dataclasses import astuple

        def fields(m: Measures) -> tuple:
            return (astuple(m.eps_i), astuple(m.eps_d), astuple(m.eps_m), astuple(m.sigma_min), m.exact)

        return fields(self) == fields(other)

    def __hash__(self) -> int:
        return hash((self.eps_i, self.eps_d, self.eps_m, self.sigma_min, self.exact))

    def __str__(self) -> str:
        """``relations measure``'s table, as plain text (:func:`relations.io._text.measures_text`)."""
        return text_view(self, "relations.io._text:measures_text")

    def __repr__(self) -> str:
        """One line: the four values, exact forms where short (a float-derived ``ln(q)`` as a decimal, marked)."""
        fields = [(b.name, short_real(b.value, None if b.exact is None else str(b.exact)))
                  for b in (self.eps_i, self.eps_d)]
        fields.append(("eps_m", short_real(self.eps_m.value)))
        fields.append(("sigma_min", short_real(self.sigma_min.value, None if self.sigma_min.exact is None
                                               else str(self.sigma_min.exact))))
        return one_line("Measures", fields, note=_mode_note(self))

    def to_dict(self) -> dict[str, Any]:
        """The object ``relations measure --json`` prints: exact forms as text, values as floats.

        Examples
        --------
        >>> import json
        >>> from relations import measure
        >>> from relations.mechanisms import paper_example
        >>> d = measure(paper_example()).to_dict()
        >>> d["eps_d"]["exact"], d["eps_d"]["witness"]["x"], json.loads(json.dumps(d)) == d
        ('ln(13/7)', '1', True)
        """
        from relations.measures._display import measures_dict

        return measures_dict(self)

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame`` indexed by quantity, columns ``value``, ``exact``, ``witness``.

        Examples
        --------
        >>> from relations import measure
        >>> from relations.mechanisms import paper_example
        >>> df = measure(paper_example()).to_pandas()
        >>> list(df.columns), df.loc["eps_d", "exact"]
        (['value', 'exact', 'witness'], 'ln(13/7)')
        """
        from relations.measures._display import measures_frame

        return measures_frame(self)

    def _repr_html_(self) -> str:
        from relations.measures._display import measures_html

        return measures_html(self)

    def _repr_latex_(self) -> str:
        from relations.measures._display import measures_latex

        return measures_latex(self)
