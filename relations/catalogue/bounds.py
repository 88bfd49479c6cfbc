"""The relation catalogue: published and corrected relations between privacy budgets.

Each :class:`Relation` is data: a stable id, the statement in words and in
symbols, the setting, the premise and conclusion notions, the bound
``f(a, sigma_min)`` as a small exact expression (:class:`Linear` or
:class:`KLBound`), and its source.  A relation says: every mechanism (in its
setting) whose premise budget is ``a`` satisfies the conclusion at budget
``f(a, sigma_min)``; since every ``f`` here is non-decreasing in ``a``, on one
mechanism it holds iff ``conclusion <= f(premise)`` with both at their minimal
values (SPEC section 4).  A *non-implication* ("MI privacy does not imply
DP") has no bound; it is established by a witness.

Notions (all in nats): ``eps_i``, ``eps_d``, ``eps_m``, ``sigma_min``;
``neg_sigma`` is ``-sigma_min = max_{x~x'} ln(p(x)/p(x'))`` (Sun and Tay's
``delta_x``, Wang et al.'s ``eps_X``); ``eps_all`` is the DP budget over *every*
pair of inputs, not only neighbours (what group privacy bounds).

The twelve theorems of Zheng et al. (2025), sections 5.1-5.3, are kept exactly
as the paper states them (ids ``zheng2025.thm1`` ... ``zheng2025.thm12``),
including where they look wrong; corrected or sharpened forms are separate
relations (ids ``relations.*``) whose ``corrects`` and ``reason`` fields say
which statement they replace and why.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from relations.numbers.logs import LogRatio

__all__ = ["Linear", "KLBound"]


@dataclass(frozen=True)
class Linear:
    """``f(a, s) = g * (ca * a + cs * s)`` with rational ``ca``, ``cs``; ``g = 1``,
    or ``g = diam``, the diameter of the neighbour graph (``+inf`` if disconnected).

    With integer coefficients, ``a = ln(q_a)`` and ``s = ln(q_s)`` the value is
    ``ln(q_a^(g ca) q_s^(g cs))``: the logarithm of a rational, so comparisons
    with ratio budgets are exact.  Fractional coefficients give a linear
    combination of logarithms, compared through enclosures.
    """

    ca: int | Fraction
    cs: int | Fraction = 0
    times_diameter: bool = False

    @property
    def integral(self) -> bool:
        return Fraction(self.ca).denominator == 1 and Fraction(self.cs).denominator == 1

    def text(self, premise: str) -> str:
        parts = []
        if self.ca:
            parts.append(premise if self.ca == 1 else f"{self.ca} {premise}")
        if self.cs:
            sign = "+" if self.cs > 0 else "-"
            term = "sigma_min" if abs(self.cs) == 1 else f"{abs(self.cs)} sigma_min"
            parts.append(f"{sign} {term}" if parts else (term if self.cs > 0 else f"-{term}"))
        inner = " ".join(parts) or "0"
        if self.times_diameter:
            return f"diam * ({inner})" if len(parts) > 1 else f"diam * {inner}"
        if self.ca > 1 and self.cs:
            return f"{self.ca}({premise} {'+' if self.cs > 0 else '-'} sigma_min)" if abs(self.cs) == self.ca else inner
        return inner

    def evaluate(self, a: LogRatio, s: LogRatio, diameter: int | None) -> LogRatio:
        """The exact bound for premise ``a`` and prior constant ``s`` (integer coefficients)."""
        if not self.integral:
            raise ValueError("fractional coefficients: use relations.reals.log_combination")
        total = _scale(a, self.ca) + _scale(s, self.cs) if self.cs else _scale(a, self.ca)
        if not self.times_diameter:
            return total
        if diameter is None:
            return LogRatio.inf()
        return _scale(total, diameter)



@dataclass(frozen=True)
class KLBound:
    """``f(a) = a (e^a - 1)``; with ``a = ln(q)`` it is ``ln(q) (q - 1)`` (not a log of a rational)."""

    def text(self, premise: str) -> str:
        return f"{premise} (e^{premise} - 1)"



def _scale(v: LogRatio, c: int) -> LogRatio:
    """``c * ln(q) = ln(q^c)`` exactly, for an integer ``c``."""
    if c == 0:
        return LogRatio.of(Fraction(1))
    if not v.is_finite:
        return LogRatio(None, v.sign if c > 0 else -v.sign)
    return LogRatio.of(v.ratio**c)

