"""Which float kernels run: the compiled ones (numba, the ``fast`` extra) or their numpy twins.

The compiled kernels (:mod:`relations.numbers._compiled`) read a large float matrix once, with no
temporary arrays; the numpy twins give the same numbers up to float rounding (the extrema of ``eps_d``
and the exact row sums exactly the same).  Loading them costs about :data:`LOAD_SECONDS` of CPU once
per process (importing numba, 0.3 s, and its first dispatch from the on-disk cache, 0.5 s): as much as
numpy's float ``eps_m`` over 150 million entries.  (The first use after an install compiles them and fills
that cache: about 4 s of CPU, once.)  So, under the default choice ``auto``, a matrix of at
least :data:`KERNEL_ENTRIES` entries uses them once the CPU time they would have saved in this process
(each pass estimated from its numpy twin's measured extra cost per entry, ``saving``) reaches their
loading cost, or when numba is already loaded: a search, a sweep or a benchmark that measures again and
again switches to them (after about a dozen float ``eps_m`` passes over 4096 x 4096, or two exact
readings of a 4096 x 4096 float matrix: exact row sums and the float copy over them cost about 50 ns per
entry in numpy, 4 compiled),
and a process that measures one matrix once keeps numpy (for it the kernels would save about what
loading them costs, measured on whole ``relations measure`` processes).  The
environment variable ``RELATIONS_KERNELS`` chooses: ``auto`` (the default), ``compiled`` (whenever numba
is installed and the matrix is large enough) or ``numpy`` (never).
"""

from __future__ import annotations

import os
import sys
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["KERNEL_ENTRIES", "LOAD_SECONDS", "ENVIRONMENT", "CHOICES", "compiled", "choice", "read_only"]

#: Matrices of at least this many entries may use the compiled kernels (2048 x 2048).
KERNEL_ENTRIES = 1 << 22

#: CPU seconds to load the compiled kernels in a process (measured: 0.3 s to import numba, 0.5 s for the
#: first dispatch from its cache).
LOAD_SECONDS = 0.8

#: The environment variable that chooses the kernels.
ENVIRONMENT = "RELATIONS_KERNELS"

#: Its values.
CHOICES = ("auto", "compiled", "numpy")

_LOADED: list[ModuleType | None] = []
_SAVED = [0.0]  # CPU seconds the compiled kernels would have saved in this process so far


def choice() -> str:
    """The kernels chosen by ``RELATIONS_KERNELS`` (:data:`CHOICES`; unset or unknown: ``auto``).

    Examples
    --------
    >>> choice() in CHOICES
    True
    """
    value = os.environ.get(ENVIRONMENT, "").strip().lower()
    return value if value in CHOICES else "auto"


def compiled(entries: int | None = None, saving: float = 0.0) -> ModuleType | None:
    """The compiled kernels' module for a pass over ``entries`` entries, or None for the numpy twins.

    None when numba is missing, the choice (:func:`choice`) is ``numpy``, the matrix has fewer than
    :data:`KERNEL_ENTRIES` entries, or, under ``auto``, numba is not loaded and the kernels would have
    saved less than :data:`LOAD_SECONDS` in this process, this pass included (``saving``: the numpy
    twin's extra nanoseconds per entry; this pass then counts towards it).  ``entries`` None asks for
    the kernels whatever the size and history (the tests compare the two).

    Examples
    --------
    >>> compiled(16) is None  # a small matrix: the numpy twins
    True
    """
    if entries is not None and entries < KERNEL_ENTRIES:
        return None
    how = choice()
    if how == "numpy":
        return None
    if entries is not None and how == "auto" and not _LOADED and "numba" not in sys.modules:
        _SAVED[0] += entries * saving * 1e-9
        if _SAVED[0] < LOAD_SECONDS:
            return None
    if not _LOADED:
        try:
            from relations.numbers import _compiled
        except Exception:  # noqa: BLE001 - a broken numba install: the numpy twins give the same numbers
            _LOADED.append(None)
        else:
            _LOADED.append(_compiled if _compiled.AVAILABLE else None)
    return _LOADED[0]


def read_only(a: np.ndarray) -> np.ndarray:
    """A read-only view of ``a`` (no copy), as the compiled kernels take every array they only read.

    numba compiles a kernel once per type of its arguments, and an array's writeable flag is part of
    its type: passing every input read-only keeps one compiled version of each kernel (its first
    compile, after an install, costs about 1 s of CPU; its first dispatch from the cache in each
    process 0.1-0.5 s) whether the caller's array is writeable or not.

    Examples
    --------
    >>> import numpy as np
    >>> a = np.zeros(2)
    >>> read_only(a).flags.writeable, a.flags.writeable, read_only(a).base is a
    (False, True, True)
    """
    view = a.view()
    view.flags.writeable = False
    return view
