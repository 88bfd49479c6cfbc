"""Golden outputs: the JSON of ``measure``, ``check`` and ``verify --quick`` on fixed inputs.

Recorded once before the package was reorganised (issue 10); ``tests/test_golden.py``
recomputes every output and asserts it is the same (exact fields exactly, floats within a stated
relative tolerance), so a refactoring cannot change a result unnoticed.

The inputs are the files in ``tests/golden/mechanisms/``: the examples, the named
mechanisms, and random mechanisms of every form drawn here with a fixed seed
(local, central ``D^r``, explicit graphs, product forms, float ``.npz``).

Re-record (only when a result is *meant* to change, and say so in the commit)::

    python tests/golden/record.py --write-mechanisms   # regenerate the input files
    python tests/golden/record.py                      # regenerate expected.json
    python tests/golden/record.py --verify-only        # regenerate only its "verify --quick" entry
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
MECHS = HERE / "mechanisms"
EXPECTED = HERE / "expected.json"

CLAIMS = ["eps_d<=ln(3)", "eps_i<ln(20)", "eps_m<=0.1", "sigma_min>=-1", "eps_all<=2", "neg_sigma<=ln(19)"]


def run(*args: str) -> tuple[int, object]:
    """Run the command line in this process; return (exit status, parsed JSON stdout)."""
    from relations.cli import main

    out = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
    text = out.getvalue()
    return code, (json.loads(text) if text.strip() else None)


def _dist(rng: random.Random, n: int, zeros: bool) -> list[str]:
    w = [rng.randint(0 if zeros else 1, 9) for _ in range(n)]
    if rng.random() < 0.3:
        w[rng.randrange(n)] += rng.randint(10, 200)
    if sum(w) == 0:
        w[0] = 1
    t = sum(w)
    return [str(Fraction(x, t)) for x in w]


def _rows(rng, n, m, zeros):
    return [_dist(rng, m, zeros) for _ in range(n)]


def random_mechanisms() -> dict[str, dict]:
    rng = random.Random(20251122)
    out: dict[str, dict] = {}
    for i in range(12):
        n, m, zeros = rng.randint(2, 5), rng.randint(2, 5), i % 3 == 0
        out[f"local_{i}"] = {"setting": "local", "prior": _dist(rng, n, zeros), "channel": _rows(rng, n, m, zeros)}
    for i in range(8):
        k, r, m, zeros = rng.randint(2, 3), 2, rng.randint(2, 3), i % 2 == 0
        out[f"dr_{i}"] = {"setting": "central", "domain": [str(v) for v in range(k)], "records": r,
                          "prior": _dist(rng, k**r, zeros), "channel": _rows(rng, k**r, m, zeros)}
    for i in range(6):
        n, m = rng.randint(2, 6), rng.randint(2, 3)
        order = list(range(n))
        rng.shuffle(order)
        edges = sorted({tuple(sorted((order[j], order[j + 1]))) for j in range(n - 1)})
        if i % 3 == 2:  # disconnected
            edges = edges[: max(1, len(edges) - 1)]
        out[f"graph_{i}"] = {"setting": "central", "neighbours": [list(e) for e in edges],
                             "prior": _dist(rng, n, i % 2 == 0), "channel": _rows(rng, n, m, i % 2 == 0)}
    for i in range(6):
        k, r, m = rng.randint(2, 3), rng.randint(2, 30), rng.randint(2, 3)
        prior: object = "uniform" if i % 2 == 0 else {"product": [_dist(rng, k, False) for _ in range(r)]}
        out[f"product_{i}"] = {"setting": "central", "domain": [str(v) for v in range(k)], "records": r,
                               "prior": prior, "channel": {"product": _rows(rng, k, m, i == 5)}}
    named = [
        ("local", {"mechanism": "rr", "ratio": "3"}), ("local", {"mechanism": "krr", "k": 4, "ratio": "5/2"}),
        ("local", {"mechanism": "oue", "k": 3, "ratio": "3"}), ("local", {"mechanism": "sue", "k": 3, "ratio": "4"}),
        ("local", {"mechanism": "subset", "k": 5, "s": 2, "ratio": "2"}),
        ("local", {"mechanism": "hadamard", "k": 5, "ratio": "3"}),
        ("central", {"mechanism": "truncated_geometric", "n": 6, "ratio": "2"}),
        ("central", {"mechanism": "folded_geometric", "n": 5, "ratio": "3"}),
        ("central", {"mechanism": "staircase", "n": 8, "ratio": "2", "delta": 2, "width": 1}),
        ("local", {"mechanism": "paper_example"}),
        ("local", {"mechanism": "paper_construction", "theorem": 8, "beta": "1/8"}),
        ("central", {"mechanism": "paper_construction", "theorem": 6, "beta": "1/16"}),
    ]
    for setting, spec in named:
        name = "named_" + spec["mechanism"] + ("_" + str(spec.get("theorem", "")) if "theorem" in spec else "")
        n = {"truncated_geometric": 6, "folded_geometric": 5, "staircase": 8}.get(spec["mechanism"])
        if spec["mechanism"] == "paper_construction":
            n = 2 if spec["theorem"] == 8 else 3
        if spec["mechanism"] == "paper_example":
            n = 2
        n = n or spec.get("k", 2)
        out[name] = {"setting": setting, "prior": _dist(rng, n, False), "channel": spec}
    out["named_krr_product"] = {"setting": "central", "domain": ["a", "b", "c"], "records": 5, "prior": "uniform",
                                "channel": {"mechanism": "krr", "k": 3, "ratio": "2"}}
    return out


def write_mechanisms() -> None:
    import numpy as np

    MECHS.mkdir(parents=True, exist_ok=True)
    for name, spec in random_mechanisms().items():
        (MECHS / f"{name}.json").write_text(json.dumps(spec) + "\n", encoding="utf-8")
    rng = np.random.default_rng(7)
    for i, (n, m) in enumerate([(4, 3), (6, 6), (9, 2)]):
        q = rng.dirichlet(np.ones(m), size=n)
        p = rng.dirichlet(np.ones(n))
        extra = {"setting": np.array("central"), "records": np.array(2), "domain_size": np.array(3)} if n == 9 else {}
        np.savez(MECHS / f"float_{i}.npz", prior=p, channel=q, **extra)


def inputs() -> list[Path]:
    files = sorted(MECHS.glob("*.json")) + sorted(MECHS.glob("*.npz"))
    return sorted((ROOT / "examples").glob("*.json")) + files


def record() -> dict:
    """Every golden output, keyed by command and input."""
    out: dict = {}
    for path in inputs():
        rel = str(path.relative_to(ROOT))
        out[f"measure {rel}"] = run("measure", str(path), "--json")
        args = ["check", str(path), "--json"]
        for c in CLAIMS:
            args += ["--claim", c]
        out[f"check {rel}"] = run(*args)
    out["catalogue"] = run("catalogue", "--json")
    out["witness thm12"] = _text("witness", "zheng2025.thm12", "--eps-m", "1/1000")
    out["witness thm6 full"] = _text("witness", "zheng2025.thm6", "--full-support", "100")
    return out


def _text(*args: str) -> tuple[int, str]:
    from relations.cli import main

    buf = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(buf):
        try:
            main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, buf.getvalue()


def record_verify(tmp: Path) -> object:
    """``verify --quick --json`` with the run-dependent parts (timings, the output folder) removed."""
    code, data = run("verify", "--quick", "--json", "--out", str(tmp))
    data.pop("out", None)
    for rel in data["relations"]:
        rel.pop("seconds", None)
    return code, data


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    if "--write-mechanisms" in sys.argv:
        write_mechanisms()
    elif "--verify-only" in sys.argv:
        import tempfile

        result = json.loads(EXPECTED.read_text(encoding="utf-8"))
        with tempfile.TemporaryDirectory() as tmp:
            result["verify --quick"] = record_verify(Path(tmp))
        EXPECTED.write_text(json.dumps(result, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"re-recorded 'verify --quick' in {EXPECTED}")
    else:
        import tempfile

        result = record()
        with tempfile.TemporaryDirectory() as tmp:
            result["verify --quick"] = record_verify(Path(tmp))
        EXPECTED.write_text(json.dumps(result, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"recorded {len(result)} outputs in {EXPECTED}")
