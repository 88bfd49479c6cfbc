"""The answer limit of audited code holds while the answer is produced (issue 43, item 7).

A target returning a 300 MB string used to run past 100 s with two workers at about 1.9 GB each: the
worker made the text of the whole answer (``repr``, then JSON), and the tool read it into a buffer copied at
every chunk, before the limit was looked at.  Now an output larger than the limit of one answer is refused
as it is returned, an answer is given up as soon as its text passes the limit, and the tool reads answers
in linear time.  The tests shrink the limit (``relations.audit._pool.MAX_ANSWER``, handed to the workers) to
1 MiB and return 32 MiB.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from relations.audit import _pool, audit
from relations.audit._worker import encode_answer
from relations.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
BIG = 32 * 2**20


def test_an_answer_is_given_up_as_soon_as_it_passes_the_limit():
    small = {"ok": True, "rows": {"0": [["'a'", "a", "1/1"]]}}
    assert encode_answer(small, limit=1000) == '{"ok": true, "rows": {"0": [["\'a\'", "a", "1/1"]]}}'
    big = {"ok": True, "rows": {str(i): [["x" * 100, "x", "1/2"]] for i in range(10**4)}}
    refused = encode_answer(big, limit=2**20)
    assert refused.startswith('{"ok": false, "kind": "limit"') and "1 MiB" in refused


def test_a_huge_output_of_a_function_object_is_refused_as_it_is_returned(monkeypatch):
    monkeypatch.setattr(_pool, "MAX_ANSWER", 2**20)

    def huge(x, rng):
        return "x" * BIG if rng.random() < 0.5 else "y"

    with pytest.raises(InputError, match=r"returned more than 1 MiB \(the limit of one answer\)"):
        audit(huge, domain=[0, 1], eps="1")


def test_a_huge_output_in_a_worker_stops_it_with_bounded_memory(tmp_path):
    """Through worker processes (white-box, then sampling): one ``limit`` answer naming the limit; the largest
    worker holds the 32 MiB the randomizer made once, not its text several times over (measured with
    ``getrusage`` of the finished workers, against a worker returning one character)."""
    module = tmp_path / "big.py"
    module.write_text(textwrap.dedent(f"""
        def small(x, rng):
            return "y"

        def huge(x, rng):
            return "x" * {BIG} if rng.random() < 0.5 else "y"
    """))
    script = textwrap.dedent(f"""
        import resource
        from relations.audit import _pool
        from relations.audit._pool import Pool

        _pool.MAX_ANSWER = 2**20
        jobs = lambda name, task: [dict(task=task, target={str(module)!r} + ":" + name, params=None,
                                        domain=[0, 1], inputs=[0], input=0, chunk=0, size=50, seed=0)]
        with Pool(workers=0) as pool:
            assert pool.map(jobs("small", "enumerate"))[0]["ok"]
        base = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        for task in ("enumerate", "sample"):
            with Pool(workers=0) as pool:
                answer = pool.map(jobs("huge", task))[0]
            print(task, answer["kind"], answer["message"])
        print("grown", (resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss - base) * 1024)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.splitlines()
    for task, line in zip(("enumerate", "sample"), lines):
        assert line == f"{task} limit the randomizer returned more than 1 MiB (the limit of one answer)"
    grown = int(lines[-1].split()[1])
    assert grown < 2 * BIG, f"the worker grew by {grown / 2**20:.0f} MiB for an output of {BIG / 2**20:.0f} MiB"
