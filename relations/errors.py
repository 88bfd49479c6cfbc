"""The error hierarchy and the exit statuses the command line maps it to.

Every problem with what a user handed in (a file, a claim, an option) is an
:class:`InputError` whose message is one line naming what is wrong and where
(key, row, column).  A solver that gives up or fails is a :class:`SolverError`.
Both are :class:`RelationsError`; :func:`exit_status` maps each to the command
line's exit status, in this one place.  Nothing else is caught, so a bug in the
tool still shows as one.
"""

from __future__ import annotations

__all__ = ["RelationsError", "InputError", "SolverError", "EXIT_OK", "EXIT_FAILED", "EXIT_BAD_INPUT",
           "EXIT_INCONCLUSIVE", "EXIT_INTERRUPTED", "EXIT_BROKEN_PIPE", "exit_status"]

#: Exit statuses of the command line: 1 a claim failed (or an audit found a violation); 3 an audit whose
#: samples could certify nothing (``inconclusive``, never a pass).
EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INCONCLUSIVE, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
#: Standard output closed, or its reader gone (``| head``): 128 + SIGPIPE, with no message.
EXIT_BROKEN_PIPE = 141


class RelationsError(Exception):
    """Base class of the errors this package raises on purpose; the message is one line."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))


class InputError(RelationsError, ValueError):
    """Bad input: the message is a single line fit to show to the user.

    Examples
    --------
    >>> from relations.errors import InputError, exit_status
    >>> err = InputError("prior: entries sum to 9/10,\\n not 1")
    >>> str(err), exit_status(err)
    ('prior: entries sum to 9/10, not 1', 2)
    """


class SolverError(RelationsError, RuntimeError):
    """An external solver (HiGHS, z3, Blahut-Arimoto) failed or gave up on a well-formed problem."""


def exit_status(error: BaseException) -> int:
    """The command line's exit status for ``error``.

    Parameters
    ----------
    error : BaseException
        An exception raised while running a command.

    Returns
    -------
    int
        2 for bad input (:class:`InputError`) and for a failed solver on the user's
        problem (:class:`SolverError`), 130 for an interrupt, 141 for a closed standard output
        (``BrokenPipeError``).

    Raises
    ------
    TypeError
        If ``error`` is none of these: it is a bug and must not be turned into a status.
    """
    if isinstance(error, KeyboardInterrupt):
        return EXIT_INTERRUPTED
    if isinstance(error, BrokenPipeError):
        return EXIT_BROKEN_PIPE
    if isinstance(error, (InputError, SolverError)):
        return EXIT_BAD_INPUT
    raise TypeError(f"no exit status for {type(error).__name__}")
