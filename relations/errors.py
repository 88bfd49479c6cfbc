"""Errors raised for bad user input.

Every problem with what a user handed in (a file, a claim, an option) is an
:class:`InputError` whose message is one line naming what is wrong and where
(key, row, column).  The command line turns it into that line on stderr and
exit status 2 (SPEC section 6); nothing else is caught that way, so a bug in
the tool still shows as one.
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: the message is a single line fit to show to the user."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))
