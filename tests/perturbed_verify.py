"""Run ``relations verify`` with its float path perturbed, for the reproducibility checks.

Evidence must not depend on the last bits of floats (``docs/claims-and-verdicts.md``, "Ties and float
noise"): these perturbations change the last bits and nothing else, and the evidence they give must be
byte-identical to an unperturbed run's.

``python tests/perturbed_verify.py --simd-features``
    prints the SIMD feature groups numpy dispatches to on this machine, for ``NPY_DISABLE_CPU_FEATURES``
    (numpy's baseline kernels then run instead of its AVX2 / AVX-512 ones).
``python tests/perturbed_verify.py MODE ARGS...``
    runs ``relations ARGS...`` in this process with every batch of float values of the searches
    (:func:`relations.search._batch.dense_values`) computed on the channel's rows in another order, which
    changes every sum over inputs: ``MODE`` is ``reversed`` or ``shuffled`` (a fixed permutation), and
    ``+jitter`` (``reversed+jitter``) also multiplies every value by ``1 + 1e-13 u``, ``u`` standard normal
    from a fixed seed.
"""

from __future__ import annotations

import sys

import numpy as np

#: The relative size of the jitter of ``+jitter``.
JITTER = 1e-13


def simd_features() -> str:
    """The non-baseline SIMD groups numpy can dispatch to here, space-separated ("" when none)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    return " ".join(f for f in __cpu_dispatch__ if __cpu_features__.get(f))


def perturb(mode: str) -> None:
    """Replace the searches' float evaluation by a perturbed one (see the module docstring)."""
    import relations.search._batch as batch
    import relations.search._optimiser as optimiser

    order, _, extra = mode.partition("+")
    if order not in ("reversed", "shuffled") or extra not in ("", "jitter"):
        raise SystemExit(f"unknown mode {mode!r}")
    original = batch.dense_values
    rng = np.random.default_rng(7)

    def perturbed(q, p, pairs, extra_notions=(), *, divergence_pairs=None, only=None):
        n = q.shape[-2]
        perm = np.random.default_rng(n).permutation(n) if order == "shuffled" else np.arange(n)[::-1]
        where = np.argsort(perm)  # input x of the original is row where[x] of the permuted channel
        out = original(np.ascontiguousarray(q[..., perm, :]), np.ascontiguousarray(p[..., perm]), where[pairs],
                       extra_notions, divergence_pairs=None if divergence_pairs is None else where[divergence_pairs],
                       only=only)
        if extra == "jitter":
            out = {k: v * (1 + JITTER * rng.standard_normal(np.shape(v))) for k, v in out.items()}
        return out

    optimiser.dense_values = perturbed


if __name__ == "__main__":
    if sys.argv[1:] == ["--simd-features"]:
        print(simd_features())
    else:
        perturb(sys.argv[1])
        from relations.cli import main

        main(sys.argv[2:])
