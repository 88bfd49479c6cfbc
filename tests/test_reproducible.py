"""The evidence of ``relations verify`` is the same bytes however the floats beneath it round.

Every decision rests on exact values (``docs/claims-and-verdicts.md``, "Ties and float noise"); these
tests change the float path (numpy's SIMD kernels off, one thread and no forked search, another summation
order, a 1e-13 relative jitter) and compare every file of the evidence, byte for byte.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import perturbed_verify  # noqa: E402
from conftest import run_cli  # noqa: E402


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


#: A few relations of each verdict (refuted with a witness, proved, unrefuted after every search): the default
#: run compares their evidence under another summation order; the slow tier compares the whole catalogue's.
SOME = ("zheng2025.thm4", "zheng2025.thm3", "zheng2025.thm12", "iwk2020.mel_ml", "bs2016.dp_zcdp",
        "drs2022.gdp_zcdp")


def _verify(out: Path, *prefix: str, env: dict | None = None, only: tuple[str, ...] = (),
            here: bool = False) -> dict[str, bytes]:
    """The evidence of ``verify --quick``: in a process of its own (``prefix``: the perturbed runner), or
    (``here``) in this process with tests/conftest.py's ``run_cli``, the plain float path (tests/golden/record.py
    makes the golden evidence so)."""
    cmd = [sys.executable, *prefix] if prefix else [sys.executable, "-m", "relations.cli"]
    some = [a for rid in only for a in ("--only", rid)]
    args = ["verify", "--quick", *some, "--out", str(out)]
    full_env = {**os.environ, "RELATIONS_COQC": "", **(env or {})}  # floats, not proofs: no Coq
    if here:
        assert not prefix
        done = run_cli(*args, env=full_env, cwd=HERE.parent)
    else:
        done = subprocess.run([*cmd, *args], capture_output=True, text=True, env=full_env, cwd=HERE.parent,
                              timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return _files(out)


@pytest.fixture(scope="module")
def baseline(tmp_path_factory) -> dict[str, bytes]:
    return _verify(tmp_path_factory.mktemp("base") / "evidence")


@pytest.fixture(scope="module")
def baseline_some(tmp_path_factory) -> dict[str, bytes]:
    return _verify(tmp_path_factory.mktemp("base-some") / "evidence", only=SOME, here=True)


def _same(got: dict[str, bytes], want: dict[str, bytes]) -> None:
    assert sorted(got) == sorted(want)
    for name in want:
        assert got[name] == want[name], name


@pytest.mark.slow  # .ci/evidence makes exactly this comparison on every CI run
def test_simd_off_one_thread_no_fork(baseline, tmp_path):
    env = {"NPY_DISABLE_CPU_FEATURES": perturbed_verify.simd_features(), "OPENBLAS_NUM_THREADS": "1",
           "OMP_NUM_THREADS": "1", "RELATIONS_NO_FORK": "1",
           "RELATIONS_CACHE_DIR": str(tmp_path / "cache")}  # its own: nothing read from the baseline's run
    _same(_verify(tmp_path / "evidence", env=env), baseline)


@pytest.mark.parametrize(("mode", "only"), [("reversed+jitter", SOME),
                                           pytest.param("reversed+jitter", (), marks=pytest.mark.slow),
                                           pytest.param("shuffled", (), marks=pytest.mark.slow)],
                         ids=["reversed+jitter-some", "reversed+jitter", "shuffled"])
def test_another_summation_order(request, tmp_path, mode, only):
    want = request.getfixturevalue("baseline_some" if only else "baseline")
    _same(_verify(tmp_path / "evidence", str(HERE / "perturbed_verify.py"), mode, only=only), want)


def test_the_perturbation_changes_floats():
    """The perturbed path is really another float path: its values differ in the last bits."""
    import numpy as np

    import relations.measures._batch as batch
    import relations.search._optimiser as optimiser

    rng = np.random.default_rng(3)
    q = rng.dirichlet(np.ones(5), size=(64, 7))
    p = rng.dirichlet(np.ones(7), size=64)
    pairs = batch.ordered_pairs([(i, j) for i in range(7) for j in range(i + 1, 7)])
    plain = batch.dense_values(q, p, pairs)
    saved = optimiser.dense_values
    try:
        perturbed_verify.perturb("shuffled")
        shuffled = optimiser.dense_values(q, p, pairs)
    finally:
        optimiser.dense_values = saved
    assert np.allclose(shuffled["eps_m"], plain["eps_m"], rtol=1e-12)
    assert not np.array_equal(shuffled["eps_m"], plain["eps_m"])  # the same numbers, rounded differently
