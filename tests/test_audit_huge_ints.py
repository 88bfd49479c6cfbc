"""Randomizers whose outputs are ints beyond the float range (more than about 308 digits): the sampling route
reads them as reals for binning, where ``float()`` of such an int raises; they are placed at ``inf`` / ``-inf``
(beyond every finite bin edge, and not finite reals for binning), and the audit answers instead of a traceback."""

import math

from conftest import run_cli

from relations.audit._outputs import output_key, output_real
from relations.audit._runner import key_real

HUGE = 10**400


def test_huge_ints_are_placed_beyond_every_float():
    assert output_real(output_key(HUGE)) == math.inf and output_real(output_key(-HUGE)) == -math.inf
    assert key_real(repr(HUGE)) == math.inf and key_real(repr(-HUGE)) == -math.inf
    assert output_real(output_key(2**1023)) == float(2**1023)  # the largest power of 2 a float holds: itself
    assert key_real(repr(2**1024)) == math.inf  # one more: beyond


def test_a_sampled_randomizer_of_huge_ints_gets_an_answer(tmp_path):
    (tmp_path / "huge.py").write_text(
        "import random\n\n"
        "def randomizer(x):\n"
        f"    return {HUGE} + random.randrange(10**6) * (1 + x)\n", encoding="utf-8")
    for extra in ((), ("--bins", "4")):
        done = run_cli("audit", f"{tmp_path / 'huge.py'}:randomizer", "--domain", "0,1", "--eps", "1",
                       "--samples", "2000", *extra)
        assert done.returncode == 3, done.stderr[-2000:]  # inconclusive: the outputs never repeat
        assert "Traceback" not in done.stderr and "inconclusive" in done.stdout, done.stdout + done.stderr
