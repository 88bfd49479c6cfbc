"""Bounded-exhaustive families up to relabelling (``"symmetry": "relabel"``).

The representatives and orbit sizes are checked against orbits computed by brute force on tuples, the
Burnside count against the number of those orbits, the premise (every catalogue relation's status and
every measure unchanged by relabelling inputs and outputs) on random mechanisms, and a sweep by
representatives against the whole sweep: the same counts and the same first counterexample."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from itertools import permutations, product

import pytest

pytest.importorskip("pyarrow")

from relations import Mechanism  # noqa: E402
from relations.app._sweep import run_sweep
from relations.catalogue import CATALOGUE  # noqa: E402
from relations.checking._checker import check  # noqa: E402
from relations.errors import InputError  # noqa: E402
from relations.io._sweep_evidence import read_family_evidence  # noqa: E402
from relations.io._sweeps import CHUNK_LOG, read_rows  # noqa: E402
from relations.search._small_scope import family_rows, orbit_count, representatives  # noqa: E402
from relations.sweeps._spec import parse_spec  # noqa: E402

FAMILIES = [(2, 2, 3, "all"), (3, 2, 2, "all"), (2, 3, 3, "positive"), (3, 3, 2, "uniform"), (2, 4, 2, "all"),
            (4, 2, 2, "positive"), (3, 3, 3, "uniform")]


def _brute_orbits(priors, rows, n):
    """{smallest member index of the orbit: orbit size}, by applying every relabelling to tuples."""
    m = len(rows[0])
    at_p = {p: i for i, p in enumerate(priors)}
    at_r = {r: i for i, r in enumerate(rows)}
    big = len(rows)
    out, seen = {}, set()
    for pi, digits in product(range(len(priors)), product(range(big), repeat=n)):
        index = pi
        for d in digits:
            index = index * big + d
        if index in seen:
            continue
        orbit = set()
        for sigma in permutations(range(n)):
            for tau in permutations(range(m)):
                p = tuple(priors[pi][sigma[i]] for i in range(n))
                rs = [tuple(rows[digits[sigma[i]]][tau[j]] for j in range(m)) for i in range(n)]
                image = at_p[p]
                for r in rs:
                    image = image * big + at_r[r]
                orbit.add(image)
        seen |= orbit
        out[min(orbit)] = len(orbit)
    return out


@pytest.mark.parametrize("n,m,den,prior", FAMILIES)
def test_representatives_and_burnside_against_brute_force(n, m, den, prior):
    priors, rows = family_rows(json.dumps({"inputs": n, "outputs": m, "denominator": den, "prior": prior},
                                          sort_keys=True))
    want = _brute_orbits(priors, rows, n)
    members = len(priors) * len(rows) ** n
    reps, sizes = representatives(priors, rows, n, 0, members)
    assert dict(zip(reps.tolist(), sizes.tolist())) == want
    assert orbit_count(priors, rows, n) == len(want)
    cut = members // 3  # any range: the representatives inside it
    part, _ = representatives(priors, rows, n, cut, 2 * cut)
    assert part.tolist() == sorted(i for i in want if cut <= i < 2 * cut)


def _relabel(mech, sigma, tau):
    prior = [mech.prior.exact[sigma[i]] for i in range(len(sigma))]
    channel = [[mech.channel.exact[sigma[i]][tau[j]] for j in range(len(tau))] for i in range(len(sigma))]
    return Mechanism.local(channel, prior=prior)


def _outcome(mech):
    """Exact measures, eps_m's certified enclosure, and every relation's status."""
    report = check(mech, relations=list(CATALOGUE))
    m = report.values.measures
    measures = [str(getattr(m, name).exact) for name in ("eps_i", "eps_d", "sigma_min")]
    enc = m.eps_m.enclosure
    return measures, (enc.lower, enc.upper), {o.relation.id: str(o.status) for o in report.outcomes}


def test_every_relation_and_measure_is_unchanged_by_relabelling():
    rnd = random.Random(7)
    statuses = set()
    for _ in range(12):
        n, m = rnd.choice([(2, 2), (2, 3), (3, 2), (3, 3), (4, 3)])
        den = rnd.choice([2, 3, 4, 6])

        def vec(k, positive=False):
            cuts = sorted(rnd.randint(1 if positive else 0, den) for _ in range(k - 1))  # noqa: B023
            parts = [b - a for a, b in zip([0] + cuts, cuts + [den])]  # noqa: B023
            return [Fraction(x, den) for x in parts]  # noqa: B023

        mech = Mechanism.local([vec(m) for _ in range(n)], prior=vec(n))
        measures, (lo, hi), status = _outcome(mech)
        statuses |= set(status.values())
        sigma = tuple(rnd.sample(range(n), n))
        tau = tuple(rnd.sample(range(m), m))
        measures2, (lo2, hi2), status2 = _outcome(_relabel(mech, sigma, tau))
        assert (measures2, status2) == (measures, status), (mech, sigma, tau)
        # I(X;Y) is the same number; its two certified enclosures (sums in another order) both contain it
        assert max(lo, lo2) <= min(hi, hi2), (mech, sigma, tau)
    assert {"holds", "fails"} <= statuses  # the draws exercised both outcomes


def test_sweep_by_representatives_equals_the_whole_sweep(tmp_path):
    family = {"inputs": 2, "outputs": 2, "denominator": 3}
    whole = run_sweep({"exhaustive": family}, out=str(tmp_path / "whole"), workers=0)
    reps = run_sweep({"exhaustive": dict(family, symmetry="relabel")}, out=str(tmp_path / "reps"), workers=0)
    assert reps.summary["members"] == whole.summary["points"] == 125
    assert reps.summary["points"] == len(read_rows(str(tmp_path / "reps"))) == 35
    for rel, entry in whole.summary["relations"].items():
        assert reps.summary["relations"][rel]["counts"] == entry["counts"], rel
        assert reps.summary["relations"][rel]["verdict"] == entry["verdict"], rel
    assert any("fails" in e["counts"] for e in whole.summary["relations"].values())


def test_resume_and_evidence_of_a_family_up_to_relabelling(tmp_path):
    spec = {"exhaustive": {"inputs": 3, "outputs": 2, "denominator": 3, "symmetry": "relabel"},
            "relations": ["relations.thm4_corrected", "zheng2025.thm4"]}
    out = str(tmp_path / "s")
    first = run_sweep(spec, out=out, chunk_size=100, workers=0)
    assert first.chunks == 17 and len(first.computed) == 17
    (tmp_path / "s" / CHUNK_LOG).unlink()  # killed before the manifest: the complete chunk files still count
    (tmp_path / "s" / "chunks" / "00003.parquet").unlink()  # and one chunk lost
    again = run_sweep(spec, out=out, workers=0)
    assert again.computed == [3] and again.summary == first.summary
    ev = read_family_evidence(out)
    (held,) = ev["relations.thm4_corrected"]
    (failed,) = ev["zheng2025.thm4"]
    assert held.holds and held.mechanisms == 1625 and held.representatives == parse_spec(spec).count
    assert "up to relabelling inputs and outputs" in held.describe()
    assert not failed.holds and failed.counterexample is not None


def test_evidence_refuses_rows_that_are_not_the_representatives(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    spec = {"exhaustive": {"inputs": 2, "outputs": 2, "denominator": 2, "symmetry": "relabel"},
            "relations": ["relations.thm4_corrected"]}
    out = tmp_path / "s"
    run_sweep(spec, out=str(out), workers=0)
    chunk = out / "chunks" / "00000.parquet"
    table = pq.read_table(chunk)
    orbit = table.column("orbit").to_pylist()
    orbit[0] += 1  # one row claims a larger orbit
    edited = table.set_column(table.schema.get_field_index("orbit"), "orbit", pa.array(orbit, pa.int64()))
    pq.write_table(edited.replace_schema_metadata(table.schema.metadata), chunk)
    with pytest.raises(InputError, match="not the points of its sweep"):
        read_family_evidence(str(out))


def test_member_limit_is_checked_before_counting():
    with pytest.raises(InputError, match="members, more than the limit"):
        parse_spec({"exhaustive": {"inputs": 4, "outputs": 4, "denominator": 16, "symmetry": "relabel"}})
