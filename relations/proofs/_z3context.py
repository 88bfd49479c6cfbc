"""z3 queries whose answers do not depend on the machine's load or on what the process asked z3 before.

``z3.Solver()`` picks its strategy for nonlinear real arithmetic by probing the process's memory and
races tactics under wall-clock limits, and z3 orders variables by the identifiers of terms, which depend
on every term built before in the same context; so the same query could return another model or unsat
core on a busy machine or after other z3 work (a fresh-clone CI run once drew another witness that way).
Every query of :mod:`relations.search` therefore runs inside a function decorated with
:func:`fresh_context` and on a :func:`deterministic_solver` [1]_.

References
----------
.. [1] de Moura, Bjorner. Z3: An Efficient SMT Solver. TACAS 2008, doi:10.1007/978-3-540-78800-3_24.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import z3

__all__ = ["RLIMIT_PER_MS", "BACKSTOP", "fresh_context", "deterministic_solver"]

#: z3 resource units granted per millisecond of a budget: fewer than z3 spends in a millisecond on the
#: queries measured (150-2900 units/ms), so the resource limit, not the clock, ends a long query.
RLIMIT_PER_MS = 200
#: The wall-clock limit, as a multiple of the budget: a backstop that a query stopped by its resource
#: limit does not reach even on a loaded machine.
BACKSTOP = 20

_F = TypeVar("_F", bound=Callable[..., Any])


def fresh_context(function: _F) -> _F:
    """Decorate a function so that its z3 terms live in a z3 context of their own, made for the call.

    z3 orders variables and breaks ties by the identifiers of the terms it is given, which depend on
    every term the process built before in the same context; a function decorated so gets the same model
    and the same unsat core whatever ran earlier in the process (another test, another relation, a cached
    result).  The default context is swapped for a new one during the call and restored after it, so terms
    the caller built before stay usable; the function must not return z3 objects.

    Examples
    --------
    >>> import z3
    >>> x = z3.Real("x")
    >>> @fresh_context
    ... def inside():
    ...     return z3.Real("x").ctx is x.ctx
    >>> inside(), z3.Real("x").ctx is x.ctx
    (False, True)
    """
    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        import z3.z3 as z3_module

        saved = z3_module._main_ctx
        z3_module._main_ctx = None  # z3.main_ctx() makes a new context on its next use
        try:
            return function(*args, **kwargs)
        finally:
            z3_module._main_ctx = saved

    return wrapper  # type: ignore[return-value]


def deterministic_solver(timeout_ms: int) -> z3.Solver:
    """A z3 solver whose answers, models and unsat cores do not depend on the machine's load.

    ``z3.Solver()`` picks its strategy for nonlinear real arithmetic by probing the process's memory and
    races tactics under wall-clock limits (``try_for``), so a model or an unsat core can change when the
    machine is busy.  This is z3's SMT core (``SimpleSolver``) bounded by a resource limit (``rlimit``:
    ``timeout_ms * RLIMIT_PER_MS`` units, counted deterministically), with a wall-clock limit of
    :data:`BACKSTOP` times ``timeout_ms`` only as a backstop; used inside a function decorated with
    :func:`fresh_context`, its answers are reproducible.

    Parameters
    ----------
    timeout_ms : int
        The budget, in milliseconds of z3's work on an unloaded core (the resource limit ends a query
        after between about a tenth of that and 1.3 times that, depending on the query).

    Returns
    -------
    z3.Solver

    Examples
    --------
    >>> import z3
    >>> x = z3.Real("x")
    >>> s = deterministic_solver(1000)
    >>> s.add(x * x == 2, x > 0)
    >>> s.check(), s.model()[x].as_decimal(3)
    (sat, '1.414?')
    """
    import z3

    solver = z3.SimpleSolver()
    solver.set("rlimit", int(timeout_ms) * RLIMIT_PER_MS)
    solver.set("timeout", BACKSTOP * int(timeout_ms))
    return solver
