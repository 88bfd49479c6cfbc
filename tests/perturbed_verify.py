"""Run ``relations verify`` with its float path perturbed, for the reproducibility checks.

Evidence must not depend on the last bits of floats (``docs/claims-and-verdicts.md``, "Ties and float
noise"): these perturbations change the last bits and nothing else, and the evidence they give must be
byte-identical to an unperturbed run's.

``python tests/perturbed_verify.py --simd-features``
    prints the SIMD feature groups numpy dispatches to on this machine, for ``NPY_DISABLE_CPU_FEATURES``
    (numpy's baseline kernels then run instead of its AVX2 / AVX-512 ones).
``python tests/perturbed_verify.py MODE ARGS...``
    runs ``relations ARGS...`` in this process with every batch of float values of the searches
    (:func:`relations.measures._batch.dense_values`) computed on the channel's rows in another order, which
    changes every sum over inputs: ``MODE`` is ``reversed`` or ``shuffled`` (a fixed permutation), and
    ``+jitter`` (``reversed+jitter``) also multiplies every value by ``1 + 1e-13 u``, ``u`` standard normal
    from a fixed seed.
``python tests/perturbed_verify.py ulp-up ARGS...`` (``ulp-down``)
    runs ``relations ARGS...`` with **every conversion of an exact real to a float moved by one ulp** up
    (down) from the nearest double (:func:`perturb_floats`): ``float()`` of a ``Fraction``, of the exact
    reals of :mod:`relations.numbers` (``Rational``, ``Log``, ``ArbExpr``, ``LogRatio``), of a sympy
    number, and the rounding helpers ``display_float`` / ``nearest_double``.  Only inexact conversions
    move (an irrational, or a rational that is not a double): an exact one has no rounding to get wrong.
    sympy's own numbers (``Rational``, ``Float``) are left alone: a ``Float``'s hash is its float, and
    the tool decides nothing on them (it reads their ``p`` and ``q``).
    Floats may steer a search, never decide: a verdict that differs between ``ulp-up`` and ``ulp-down``
    is a decision made by a float (issue 41: ``delta(ln(3)) <= delta(1.0986122886681097)`` was proved
    because ``float(ln 3)`` rounds up past ``1.0986122886681097``).
``python tests/perturbed_verify.py ulp-up --verdicts CASES.json``
    decides the cases of the JSON file (:func:`verdicts`) with the floats moved, and prints their verdicts
    as one JSON line: ``tests/test_perturbed_floats.py`` compares the two directions.
"""

from __future__ import annotations

import json
import math
import os
import sys
from fractions import Fraction
from typing import Any

import numpy as np

#: The relative size of the jitter of ``+jitter``.
JITTER = 1e-13


def simd_features() -> str:
    """The non-baseline SIMD groups numpy can dispatch to here, space-separated ("" when none)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    return " ".join(f for f in __cpu_dispatch__ if __cpu_features__.get(f))


def perturb(mode: str) -> None:
    """Replace the searches' float evaluation by a perturbed one (see the module docstring)."""
    import relations.measures._batch as batch
    import relations.search._optimiser as optimiser

    order, _, extra = mode.partition("+")
    if order not in ("reversed", "shuffled") or extra not in ("", "jitter"):
        raise SystemExit(f"unknown mode {mode!r}")
    original = batch.dense_values
    rng = np.random.default_rng(7)

    def perturbed(q, p, pairs, extra_notions=(), *, divergence_pairs=None, only=None, paper=None):
        n = q.shape[-2]
        perm = np.random.default_rng(n).permutation(n) if order == "shuffled" else np.arange(n)[::-1]
        where = np.argsort(perm)  # input x of the original is row where[x] of the permuted channel
        out = original(np.ascontiguousarray(q[..., perm, :]), np.ascontiguousarray(p[..., perm]), where[pairs],
                       extra_notions, divergence_pairs=None if divergence_pairs is None else where[divergence_pairs],
                       only=only, paper=paper)
        if extra == "jitter":
            out = {k: v * (1 + JITTER * rng.standard_normal(np.shape(v))) for k, v in out.items()}
        return out

    optimiser.dense_values = perturbed


#: The modes of :func:`perturb_floats`: the direction of the one-ulp move.
ULP_MODES = {"ulp-up": math.inf, "ulp-down": -math.inf}


def perturb_floats(mode: str) -> None:
    """Move every inexact conversion of an exact real to a float by one ulp (see the module docstring).

    A conversion made inside another (``float(Log)`` through ``float(LogRatio)``, ``nearest_double`` through
    ``float`` of its ends) moves once, at the outermost call.
    """
    import importlib

    import sympy

    import relations.numbers._enclosure as enclosure
    import relations.numbers._logs as logs
    import relations.numbers._reals as reals

    towards = ULP_MODES[mode]
    depth = [0]

    def wrap(original, exact):
        def converted(*args):
            if depth[0]:
                return original(*args)
            depth[0] += 1
            try:
                f = original(*args)
            finally:
                depth[0] -= 1
            if f is None or not math.isfinite(f) or exact(f, *args):
                return f
            return math.nextafter(f, towards)

        return converted

    def rational_exact(f: float, q) -> bool:
        return Fraction(f) == q

    def sympy_exact(f: float, x) -> bool:
        return bool(x.is_Rational) and Fraction(f) == Fraction(int(x.p), int(x.q))

    Fraction.__float__ = wrap(Fraction.__float__, rational_exact)  # type: ignore[method-assign]
    reals.Rational.__float__ = wrap(reals.Rational.__float__, lambda f, r: Fraction(f) == r.value)  # type: ignore[method-assign]
    reals.Log.__float__ = wrap(reals.Log.__float__, lambda f, x: x.log.ratio == 1)  # type: ignore[method-assign]
    logs.LogRatio.__float__ = wrap(logs.LogRatio.__float__, lambda f, x: x.ratio == 1)  # type: ignore[method-assign]
    reals.ArbExpr.__float__ = wrap(reals.ArbExpr.__float__, lambda f, x: f == 0)  # type: ignore[method-assign]
    sympy.Expr.__float__ = wrap(sympy.Expr.__float__, sympy_exact)  # type: ignore[method-assign]
    display = wrap(enclosure.display_float, rational_exact)
    nearest = wrap(enclosure.nearest_double, lambda f, enclose: f == 0)
    logs_of = wrap(logs.log_of, lambda f, q: q == 1)
    for name in list(sys.modules):  # the helpers, wherever they were imported by name
        if name == "relations" or name.startswith("relations."):
            module = importlib.import_module(name)
            for attr, new in (("display_float", display), ("nearest_double", nearest), ("log_of", logs_of)):
                if getattr(module, attr, None) is getattr(enclosure if attr != "log_of" else logs, attr):
                    setattr(module, attr, new)
    # modules imported later (the run imports what it uses, after this) read the patched helpers from here, so
    # their import-time conversions move too (importing every module first, as this did, left those unmoved and
    # cost 0.5 s of CPU a run)
    enclosure.display_float, enclosure.nearest_double, logs.log_of = display, nearest, logs_of


def verdicts(cases: list[dict[str, Any]]) -> list[Any]:
    """The verdict of each case, in this process (with or without the floats moved).

    A case is ``{"conjecture": TEXT, "setting": S, "quick": B}`` (its verdict), ``{"prove": TEXT, "setting": S}``
    (whether the prover proves it, the search not run), ``{"mechanism": M, "claims": [...]}`` (the
    claims' statuses on the mechanism, and the status of every catalogued relation there).  ``M`` is a
    ``relations.mechanisms`` name with its arguments: ``["krr", 3, "3"]`` is ``krr(3, "3")``.
    """
    import relations.mechanisms as mechanisms
    from relations import check, conjecture

    out: list[Any] = []
    for case in cases:
        if "prove" in case:
            from relations.checking._conjectures import parse_conjecture
            from relations.proofs._conjectures import prove_conjecture

            proof = prove_conjecture(parse_conjecture(case["prove"]), case.get("setting", "local"))
            out.append("not proved" if proof is None else "proved" if proof.whole else "proved in a narrower scope")
        elif "conjecture" in case:
            r = conjecture(case["conjecture"], setting=case.get("setting", "local"), quick=case.get("quick", True))
            if r.verdict == "refuted":  # a refutation must re-check
                from relations.pipeline._conjecture import decide_conjecture

                assert decide_conjecture(case["conjecture"], r.witness).status == "fails"
            out.append(r.verdict)
        elif "mechanism" in case:
            name, *args = case["mechanism"]
            mech = getattr(mechanisms, name)(*args)
            report = check(mech, case.get("claims", []))
            out.append({"claims": [str(c.status) for c in report.claims],
                        "catalogue": {o.relation.id: str(o.status) for o in report.outcomes}})
        else:
            raise SystemExit(f"unknown case {case!r}")
    return out


def same_verdicts(*directories: str) -> list[str]:
    """The relations whose verdict differs between the ``verdicts.json`` of ``verify`` runs (empty: none)."""
    runs = []
    for d in directories:
        with open(f"{d}/verdicts.json", encoding="utf-8") as f:
            runs.append({r["id"]: r["verdict"] for r in json.load(f)})
    ids = sorted(set().union(*runs))
    return [f"{i}: " + " / ".join(str(r.get(i)) for r in runs) for i in ids if len({r.get(i) for r in runs}) > 1]


def own_cache(*, draws: bool = False) -> None:
    """Give this perturbed run an empty cache folder of its own, removed at exit: it computes every result the
    tool keeps between runs (relations.search._screening.stored_result: z3's answers, sympy's checks, the first
    refuting draws, the frontier's points, the optimisers' searches) on its own float path, instead of reading an unperturbed run's.

    With ``draws`` (the summation-order modes, which change only :func:`~relations.measures._batch.dense_values`),
    the mechanisms hypothesis draws for the screening (``draws/`` of the cache folder the run would have used,
    :func:`relations.search._screening.generated`: exact mechanisms, no float computed, checked by the tool
    before use) are copied into it, when there: drawing them again is 40 % of a run of a few relations.  So are
    the stored results of :data:`FLOAT_FREE` (``results/`` of that folder): their computations never call the
    function those modes replace, so this run would compute the same values (about a third of a run of a few
    relations).  The searches that do call it (the dense and k-RR searches of :mod:`relations.search._optimiser`)
    and the tightness that reads their candidates run afresh.  The ulp modes copy nothing and draw afresh
    (their floats are moved everywhere, hypothesis's strategies included)."""
    import atexit
    import shutil
    import tempfile

    from relations._cache import cache_dir

    stored = os.path.join(cache_dir(), "draws")
    folder = tempfile.mkdtemp(prefix="relations-perturbed-cache-")
    atexit.register(shutil.rmtree, folder, True)
    if draws and os.path.isdir(stored):
        shutil.copytree(stored, os.path.join(folder, "draws"))
    results = os.path.join(cache_dir(), "results")
    if draws and os.path.isdir(results):
        os.mkdir(os.path.join(folder, "results"))
        for name in os.listdir(results):
            if name.startswith(FLOAT_FREE) and name.endswith(".pickle"):
                shutil.copy(os.path.join(results, name), os.path.join(folder, "results", name))
    os.environ["RELATIONS_CACHE_DIR"] = folder


#: The stored results (:func:`relations.search._screening.stored_result`, by the start of their names) that
#: :func:`perturb`'s modes cannot change: z3's answers, the screening's first refuting draw (its floats are
#: ``relations.measures._batch``'s own), the full-support enumeration, the erasure families and the frontiers'
#: points.  Only ``relations.search._optimiser``'s name ``dense_values`` is replaced, and in a ``verify --quick``
#: of the whole catalogue only the computations of ``dense-*`` and ``rr-*`` call it (counted with every
#: ``stored_result`` computation and every call of it wrapped).
FLOAT_FREE = ("z3-", "hypothesis-first-", "full-support-", "erasure-family-", "conversion-points-", "sup-ratio-",
              "mi-points-")


if __name__ == "__main__":
    if sys.argv[1:] == ["--simd-features"]:
        print(simd_features())
    elif sys.argv[1] == "--same-verdicts":
        differ = same_verdicts(*sys.argv[2:])
        if differ:
            raise SystemExit("verdicts changed with the floats moved by one ulp:\n" + "\n".join(differ))
    elif sys.argv[1] in ULP_MODES or sys.argv[1] == "none":
        if sys.argv[1] != "none":
            own_cache()
            perturb_floats(sys.argv[1])
        if sys.argv[2] == "--verdicts":
            with open(sys.argv[3], encoding="utf-8") as f:
                print(json.dumps(verdicts(json.load(f))))
        else:
            from relations.cli import main

            main(sys.argv[2:])
    else:
        own_cache(draws=True)
        perturb(sys.argv[1])
        from relations.cli import main

        main(sys.argv[2:])
