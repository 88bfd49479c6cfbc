"""Auditing mechanisms as their users have them: in code, in a library, or as a float matrix.

:mod:`relations.audit.enumerate` computes the exact channel of a randomizer written in
Python by enumerating every random choice it makes (the white-box route).
"""

from __future__ import annotations

from relations.audit.enumerate import EnumeratingGenerator, NotEnumerable, exact_channel, exact_mechanism, output_key

__all__ = ["EnumeratingGenerator", "NotEnumerable", "exact_channel", "exact_mechanism", "output_key"]
