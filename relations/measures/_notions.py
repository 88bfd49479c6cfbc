"""The further privacy notions, by name: :data:`NOTIONS`, :func:`notion_value`, :func:`parse_notion`.

Their rows (symbol, LaTeX, kind, argument, evaluators, references) are in the notion table,
:data:`relations.notions.NOTIONS`; this module reads and checks their arguments and runs their
exact evaluators.

A notion is named by a string: ``"rho"``, ``"kl"``, ``"min_entropy_leakage"``,
``"maximal_leakage"``, ``"cmi"``, ``"pml"``, ``"hellinger"``, ..., or with an argument ``"delta(1/2)"``
(``eps``: a rational, a decimal or ``ln(q)``), ``"eps_delta(1/100000)"`` (``delta`` in ``[0, 1]``),
``"renyi(2)"`` and ``"sibson(2)"`` (``alpha > 0`` rational, ``alpha != 1``).  :func:`parse_notion` reads such a name exactly (nothing is evaluated as
code), and :func:`canonical_name` writes it back in one canonical form, so ``"delta(0.5)"`` and
``"delta(1/2)"`` are the same quantity.  The definitions are in ``docs/semantics.md``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import cast

from relations.errors import InputError
from relations.measures._pairs import NotionResult
from relations.model._mechanism import Mechanism
from relations.notions import NOTIONS as _TABLE
from relations.notions import NotionSpec, evaluator, view
from relations.numbers._logs import LogRatio
from relations.numbers._reals import Log, Rational, Real
from relations.numbers._text import fraction_text, parse_rational

__all__ = ["NotionSpec", "NOTIONS", "NO_RECORDS", "check_argument", "parse_notion", "canonical_name", "undefined_reason",
           "notion_result", "notion_value"]


#: The further notions by name (:data:`relations.notions.FURTHER_NOTIONS`), rows of the notion table.
NOTIONS: Mapping[str, NotionSpec] = view(lambda row: not row.paper)

#: Why a notion that needs records (:attr:`NotionSpec.needs_records`) is not defined on an explicit graph.
NO_RECORDS = "an explicit neighbour graph has no records; it is defined locally and on D^r"

_NAME = re.compile(r"\s*([A-Za-z_][A-Za-z_0-9]*)\s*(?:\((.*)\))?\s*$", re.S)
_LN = re.compile(r"\s*ln\s*\((.*)\)\s*$", re.S)


def check_argument(name: str, arg: Real | None) -> Real | None:
    """Validate the argument of notion ``name``; raises :class:`~relations.errors.InputError` with one line.

    Examples
    --------
    >>> check_argument("renyi", Rational(Fraction(1)))
    Traceback (most recent call last):
    ...
    relations.errors.InputError: renyi(alpha) needs a rational alpha > 0, alpha != 1, got 1 (alpha = 1 is kl)
    >>> from relations.numbers._logs import LogRatio
    >>> check_argument("delta", Log(LogRatio.inf()))
    Traceback (most recent call last):
    ...
    relations.errors.InputError: delta(eps) needs a finite eps >= 0 (a rational or ln of a rational), got ...
    """
    notion = NOTIONS.get(name)
    if notion is None:
        raise InputError(f"unknown notion {name!r} (one of {', '.join(NOTIONS)})")
    if notion.argument is None:
        if arg is not None:
            raise InputError(f"{name} takes no argument")
        return None
    if arg is None:
        raise InputError(f"{name} needs an argument: {name}({notion.argument})")
    kind = notion.argument  # how the argument is checked: the notion table's argument
    if kind == "eps":  # a finite real >= 0, kept exact (a rational or ln of a rational)
        if not isinstance(arg, (Rational, Log)) or isinstance(arg, Log) and arg.log.ratio is None:
            raise InputError(f"{name}(eps) needs a finite eps >= 0 (a rational or ln of a rational), got {arg!r}")
        if isinstance(arg, Rational) and arg.value < 0 or isinstance(arg, Log) and cast(Fraction, arg.log.ratio) < 1:
            raise InputError(f"{name}(eps) needs eps >= 0, got {arg}")
        return arg
    if not isinstance(arg, Rational):
        raise InputError(f"{name}({kind}) needs a rational {kind}, got {arg}")
    if kind == "alpha" and (arg.value <= 0 or arg.value == 1):
        raise InputError(f"{name}(alpha) needs a rational alpha > 0, alpha != 1, got {arg}"
                         + (f" (alpha = 1 is {notion.order_one})" if arg.value == 1 and notion.order_one else ""))
    if kind == "delta" and not 0 <= arg.value <= 1:
        raise InputError(f"{name}(delta) needs 0 <= delta <= 1, got {arg}")
    return arg


def parse_notion(text: str) -> tuple[str, Real | None]:
    """Read a notion's name and exact argument: ``"delta(ln(3))"`` gives ``("delta", ln(3))``.

    Parameters
    ----------
    text : str
        A name of :data:`NOTIONS`, with ``(ARG)`` when it takes an argument: a decimal, a fraction or
        (for ``delta``) ``ln(RATIONAL)``.

    Returns
    -------
    tuple
        ``(name, argument)``, the argument a :class:`~relations.numbers.Rational` or
        :class:`~relations.numbers.Log` (None for a notion without one).

    Raises
    ------
    InputError
        For an unknown name or a bad argument (one line).

    Examples
    --------
    >>> parse_notion("renyi(3/2)"), parse_notion("rho")
    (('renyi', Rational(value=Fraction(3, 2))), ('rho', None))
    >>> str(parse_notion("delta(ln(3))")[1]), str(parse_notion("eps_delta(1e-5)")[1])
    ('ln(3)', '1/100000')
    >>> parse_notion("delta(-1)")
    Traceback (most recent call last):
    ...
    relations.errors.InputError: delta(eps) needs eps >= 0, got -1
    """
    match = _NAME.match(text) if len(text) <= 1000 else None
    if match is None:
        raise InputError(f"notion {text[:80]!r}: expected NAME or NAME(ARGUMENT), e.g. 'renyi(2)'")
    name, raw = match.group(1), match.group(2)
    arg: Real | None = None
    if raw is not None:
        ln = _LN.match(raw)
        q = parse_rational((ln.group(1) if ln else raw).strip(), f"argument of {name}")
        if ln:
            if q <= 0:
                raise InputError(f"argument of {name}: ln needs a positive argument")
            arg = Log(LogRatio.of(q))
        else:
            arg = Rational(q)
    return name, check_argument(name, arg)


def canonical_name(name: str, arg: Real | None) -> str:
    """The one spelling of a notion with its argument: ``delta(1/2)``, ``delta(ln(3))``, ``rho``.

    Examples
    --------
    >>> canonical_name(*parse_notion("eps_delta( 0.00001 )")), canonical_name(*parse_notion("delta(ln(1))"))
    ('eps_delta(1/100000)', 'delta(0)')
    """
    if arg is None:
        return name
    if isinstance(arg, Log):
        text = "0" if arg.log.ratio == 1 else f"ln({fraction_text(cast(Fraction, arg.log.ratio))})"  # finite
    else:
        text = fraction_text(cast(Rational, arg).value)  # the arguments are rationals or logarithms of rationals
    return f"{name}({text})"


def undefined_reason(mech: Mechanism, name: str) -> str | None:
    """Why notion ``name`` (with or without its argument) is not defined on ``mech``, or None when it is.

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> from relations.model import GraphInputs, Mechanism
    >>> rr = randomized_response(3)
    >>> undefined_reason(rr, "cmi") is None
    True
    >>> graph = Mechanism("central", rr.prior, rr.channel, GraphInputs(("a", "b"), ((0, 1),)), rr.outputs)
    >>> undefined_reason(graph, "cmi"), undefined_reason(graph, "renyi(2)")
    ('an explicit neighbour graph has no records; it is defined locally and on D^r', None)
    """
    from relations.model._neighbours import GraphInputs

    base = _NAME.match(name)
    spec = _TABLE.get(base.group(1) if base else name)
    if spec is not None and spec.needs_records and isinstance(mech.inputs, GraphInputs):
        return NO_RECORDS
    return None


def _compute(mech: Mechanism, name: str, arg: Real | None, shown: str) -> NotionResult:
    """The notion's exact evaluator (:func:`relations.notions.evaluator`): an ``eps`` argument (``delta``'s) as an
    exact real, the others (``eps_delta``'s, ``renyi``'s) as a rational."""
    function = evaluator(name)
    if arg is None:
        return cast(NotionResult, function(mech, name=shown))
    exact_real = NOTIONS[name].argument == "eps"
    return cast(NotionResult, function(mech, arg if exact_real else cast(Rational, arg).value, name=shown))


def notion_result(mech: Mechanism, name: str, arg: Real | Fraction | int | str | None = None) -> NotionResult:
    """A notion's value with its witness; ``name`` may carry its argument (``"renyi(2)"``).

    Parameters
    ----------
    mech : Mechanism
        Any mechanism (``cmi`` refuses explicit neighbour graphs).
    name : str
        A name of :data:`NOTIONS`, or a name with its argument in parentheses.
    arg : Real, Fraction, int or str, optional
        The argument, when not in ``name``.

    Returns
    -------
    NotionResult
        Its ``name`` as given.

    Raises
    ------
    InputError
        For an unknown notion or a bad argument.

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> r = notion_result(randomized_response(3), "eps_delta(1/4)")
    >>> r.name, str(r.value), r.witness
    ('eps_delta(1/4)', 'ln(2)', Witness(x=0, x_prime=1, y=None))
    """
    if arg is None:
        base, value = parse_notion(name)
    else:
        if isinstance(arg, str):
            base, value = parse_notion(f"{name}({arg})")
        else:
            if isinstance(arg, (int, Fraction)) and not isinstance(arg, bool):
                arg = Rational(Fraction(arg))
            base, value = name, check_argument(name, cast(Real, arg))  # a bool too: refused there or by the notion
    return _compute(mech, base, value, canonical_name(base, value))


def notion_value(mech: Mechanism, name: str, arg: Real | Fraction | int | str | None = None) -> Real:
    """A notion's value as an exact real (:class:`~relations.numbers.Rational`, ``Log`` or ``ArbExpr``).

    Parameters
    ----------
    mech : Mechanism
        Any mechanism.
    name : str
        A name of :data:`NOTIONS` (``"rho"``), or with its argument (``"delta(1/2)"``).
    arg : Real, Fraction, int or str, optional
        The argument, when not in ``name``.

    Returns
    -------
    Real
        Infinite values are ``relations.numbers.inf()``.

    References
    ----------
    .. [1] Mironov. Renyi Differential Privacy. IEEE CSF 2017. doi:10.1109/CSF.2017.11
    .. [2] Bun, Steinke. Concentrated Differential Privacy. TCC 2016. doi:10.1007/978-3-662-53641-4_24

    Examples
    --------
    >>> from relations.mechanisms import randomized_response
    >>> rr = randomized_response(3)
    >>> str(notion_value(rr, "delta", Fraction(0))), str(notion_value(rr, "renyi", 2))
    ('1/2', 'ln(7/3)')
    >>> str(notion_value(rr, "maximal_leakage"))
    'ln(3/2)'
    """
    return notion_result(mech, name, arg).value


def __getattr__(name: str) -> type:
    """``Notion``, the 0.1 name of :class:`NotionSpec`, with a :class:`DeprecationWarning`
    (:class:`relations.kinds.Notion` is the enum of the notions' names)."""
    if name == "Notion":
        import warnings

        warnings.warn("relations.measures._notions.Notion is now NotionSpec; relations.kinds.Notion is the "
                      "enum of the notions' names", DeprecationWarning, stacklevel=2)
        return NotionSpec
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
