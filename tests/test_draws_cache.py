"""The stored hypothesis draws of relations.search._screening: a run reads the mechanisms the previous run of
the same code drew (the same ones, entry for entry), and never trusts a file that does not check."""

from __future__ import annotations

import pytest

from relations.search import _screening as screening


@pytest.fixture()
def cache(monkeypatch, tmp_path):
    monkeypatch.setenv("RELATIONS_CACHE_DIR", str(tmp_path))
    return tmp_path


def _entries(mechs):
    return [m.to_dict() for m in mechs]


def test_the_vocabulary_pickles_by_value_on_every_python():
    """A setting (or any member of :mod:`relations.kinds`) pickles as ``Setting("central")``, the form the stored
    draws' unpickler accepts: Python 3.11.2 (Debian 12's) pickled enum members as ``getattr(Setting, "CENTRAL")``
    by default, and every cache file was then refused and computed again."""
    import pickle
    import pickletools

    from relations import kinds

    for kind in (kinds.Setting, kinds.Verdict, kinds.Notion, kinds.Status):
        for member in kind:
            assert member.__reduce_ex__(pickle.HIGHEST_PROTOCOL) == (kind, (member.value,))
            data = pickle.dumps(member, protocol=pickle.HIGHEST_PROTOCOL)
            names = [arg for op, arg, _ in pickletools.genops(data) if op.name == "SHORT_BINUNICODE"]
            assert names == ["relations.kinds", kind.__name__, member.value] and pickle.loads(data) is member
    assert {("relations.kinds", "Setting")} <= screening._DRAWS_GLOBALS


def test_stored_draws_are_the_drawn_mechanisms(cache):
    path = screening._draws_path("central", 12)
    assert path is not None and path.parent == cache / "draws" and not path.exists()
    drawn = screening._draw("central", 12)  # hypothesis's engine
    assert screening.generated.__wrapped__("central", 12) is not None and path.exists()  # draws and stores
    stored = screening._stored_draws(path)
    assert stored is not None and stored is not drawn
    assert _entries(stored) == _entries(drawn) and len(drawn) == 12
    assert _entries(screening.generated.__wrapped__("central", 12)) == _entries(drawn)  # read back


@pytest.mark.parametrize("damage", ["payload", "header", "name", "foreign"])
def test_a_file_that_does_not_check_is_removed_and_drawn_again(cache, damage):
    import hashlib
    import pickle

    path = screening._draws_path("local", 5)
    screening.generated.__wrapped__("local", 5)
    data = path.read_bytes()
    header, payload = data.split(b"\n", 1)
    if damage == "payload":
        data = header + b"\n" + payload[:-1] + bytes([payload[-1] ^ 1])
    elif damage == "header":
        data = header[:-1] + (b"0" if header[-1:] != b"0" else b"1") + b"\n" + payload
    elif damage == "name":  # a file of another key (other code) put in its place
        data = header.replace(b"local-5-", b"local-6-") + b"\n" + payload
    else:  # it checks, but holds something other than mechanisms
        foreign = pickle.dumps(("not", "mechanisms"))
        data = f"{path.name} {hashlib.sha256(foreign).hexdigest()}\n".encode() + foreign
    path.write_bytes(data)
    assert screening._stored_draws(path) is None and not path.exists()
    again = screening.generated.__wrapped__("local", 5)
    assert _entries(again) == _entries(screening._draw("local", 5)) and path.exists()


def test_the_key_names_the_code():
    digest = screening._code_digest()
    assert digest is not None and len(digest) == 64
    path = screening._draws_path("local", 7)
    assert path is None or path.name == f"local-7-{digest}.pickle"


def test_a_file_that_would_run_code_is_read_as_data(cache, tmp_path):
    """A stored file whose hash checks but which names a callable outside a mechanism's value objects (here
    ``os.system``) is refused before anything is looked up or called: the file is removed and drawn again."""
    import hashlib
    import os
    import pickle

    marker = tmp_path / "ran"

    class Run:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    path = screening._draws_path("local", 5)
    screening.generated.__wrapped__("local", 5)
    hostile = pickle.dumps((Run(),))
    path.write_bytes(f"{path.name} {hashlib.sha256(hostile).hexdigest()}\n".encode() + hostile)
    assert screening._stored_draws(path) is None and not path.exists()
    assert not marker.exists()


def test_a_stored_result_is_read_back_and_never_trusted_unchecked(cache):
    """stored_result computes once, the next call of the same code reads the same value back (no compute), and
    a stored file that does not check (damaged, or of another shape than ``valid`` accepts) is removed and the
    value computed again."""
    calls = []

    def compute():
        calls.append(1)
        return {"records": 2, "passed": True, "mi": "t*log(2)"}

    def valid(d):
        return isinstance(d, dict) and isinstance(d.get("passed"), bool)

    first = screening.stored_result("test-result", compute, valid=valid)
    again = screening.stored_result("test-result", compute, valid=valid)
    assert first == again == {"records": 2, "passed": True, "mi": "t*log(2)"} and len(calls) == 1
    (path,) = (cache / "results").iterdir()
    assert path.name == f"test-result-{screening._code_digest()}.pickle"
    data = path.read_bytes()
    path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))  # damaged: its hash no longer checks
    assert screening.stored_result("test-result", compute, valid=valid) == first and len(calls) == 2
    assert screening.stored_result("test-result", compute, valid=lambda d: isinstance(d, list)) == first
    assert len(calls) == 3  # the stored dict is not what this caller accepts: computed again


def test_verify_reads_its_stored_exact_results(cache, monkeypatch):
    """The erasure family's sympy check, a frontier's limits and points and a smallest full-support witness are stored
    by the first run of the code and read back by the next, with the same values (each computed here again,
    without the cache, as the second method)."""
    from relations.catalogue import get
    from relations.pipeline import _frontiers, _verify
    from relations.search import _erasure

    _verify._family_check.cache_clear()
    stored = _verify._family_check(1)
    _verify._family_check.cache_clear()
    monkeypatch.setattr(_erasure, "check_family", lambda r: pytest.fail("computed again"))
    assert _verify._family_check(1) == stored
    monkeypatch.undo()
    assert stored == _erasure.check_family(1)

    bound = get("relations.thm11_sharp").bound
    _frontiers._sup_ratio.cache_clear()
    first = _frontiers._sup_ratio(bound)
    _frontiers._sup_ratio.cache_clear()
    monkeypatch.setattr(_frontiers, "_computed_sup_ratio", lambda b: pytest.fail("computed again"))
    assert _frontiers._sup_ratio(bound) == first
    monkeypatch.undo()
    assert _frontiers._computed_sup_ratio(bound) == first

    _frontiers._mi_points.cache_clear()
    points = _frontiers._mi_points(True)
    _frontiers._mi_points.cache_clear()
    monkeypatch.setattr(_frontiers, "_computed_mi_points", lambda quick: pytest.fail("computed again"))
    assert _frontiers._mi_points(True) == points
    monkeypatch.undo()
    _frontiers._mi_points.cache_clear()
    assert _frontiers._computed_mi_points(True) == points

    found = _verify._full_support_search("eps_i <= eps_d + sigma_min", "local", True)
    assert found[0] == "witness"
    monkeypatch.setattr(_verify, "full_support_witness", lambda *a, **k: pytest.fail("searched again"))
    again = _verify._full_support_search("eps_i <= eps_d + sigma_min", "local", True)
    assert again[0] == "witness" and again[1].to_dict() == found[1].to_dict()
    assert _verify._full_support_search("not a statement", "local", True) == ("outside",)


def test_verify_reads_z3s_stored_answers(cache, monkeypatch):
    """A lemma's proof, a derivation and a bounded search are stored by the first run and read back by the next
    without z3, equal to what z3 answers when asked directly (the second method)."""
    from relations.catalogue import get
    from relations.pipeline import _verify
    from relations.proofs import _derive
    from relations.proofs import _smt as smt

    lemma_rel, derived_rel, ratio_rel = get("zheng2025.thm1"), get("relations.thm11_sharp"), get("zheng2025.thm3")
    lemma, shape = smt.lemma_for(lemma_rel), _verify.SMT_SHAPES["local"][0]
    first = (_verify._proof(lemma_rel, lemma, 5000), _verify._derivation(derived_rel),
             _verify._bounded(ratio_rel, shape, 5000))
    direct = (smt.prove(lemma, 5000), _derive.derive(derived_rel), smt.bounded_search(ratio_rel, shape, 5000))
    for fn in ("prove", "bounded_search"):
        monkeypatch.setattr(smt, fn, lambda *a, **k: pytest.fail("asked z3 again"))
    monkeypatch.setattr(_verify, "derive", lambda *a, **k: pytest.fail("asked z3 again"))
    again = (_verify._proof(lemma_rel, lemma, 5000), _verify._derivation(derived_rel),
             _verify._bounded(ratio_rel, shape, 5000))
    assert first == again
    assert (again[0].status, again[0].smt2, again[0].model) == (direct[0].status, direct[0].smt2, direct[0].model)
    assert again[0].status == "proved" and again[1].used == direct[1].used and again[1].smt2 == direct[1].smt2
    assert again[1].covers == direct[1].covers and again[1].scope == direct[1].scope
    assert (again[2].status, again[2].prior, again[2].channel) == (direct[2].status, direct[2].prior, direct[2].channel)


@pytest.mark.parametrize("rid", ["zheng2025.thm4", "zheng2025.thm3"])  # refuted by a draw; holds
def test_the_first_refuting_draw_is_stored(cache, monkeypatch, rid):
    """hypothesis_search's first refuting draw (or none) is stored by the first run and read back by the next
    without screening a draw, the same as a direct scan of the draws with an exact check of each (the second
    method)."""
    from relations.catalogue import get
    from relations.checking import evaluate, values

    rel = get(rid)
    first = screening._first_refuting(rel, "local", 20)
    direct = next((m for m in screening.generated("local", 20) if evaluate(rel, values(m)).status == "fails"), None)
    monkeypatch.setattr(screening, "refutes", lambda *a, **k: pytest.fail("screened again"))
    again = screening._first_refuting(rel, "local", 20)
    assert again is first is direct
    assert (first is None) == (rid == "zheng2025.thm3")


def test_a_tightness_is_stored_under_its_candidates(cache, monkeypatch):
    """tightness is stored by the first run under a hash of its candidates (scores, keys, labels, recipes) and read
    back by the next without building or certifying one, equal to the computation without the cache (the second
    method); a candidate whose score differs in one bit is another key, and a test's lambda is never stored."""
    import dataclasses
    import math

    from relations.catalogue import get
    from relations.pipeline import _tightness
    from relations.search._optimiser import search_rr

    rel = get("zheng2025.thm3")
    founds = [search_rr(rel, central=False, quick=True)]
    first = _tightness.tightness(rel, founds, proved=True)
    direct = _tightness._tightness(rel, [c for f in founds for c in f.ratio_candidates], True)
    monkeypatch.setattr(_tightness, "_tightness", lambda *a: pytest.fail("computed again"))
    assert _tightness.tightness(rel, founds, proved=True) == first == direct
    assert len(list((cache / "results").glob("tightness-*"))) == 1
    listed = [c for f in founds for c in f.ratio_candidates]
    moved = [dataclasses.replace(listed[0], screen=math.nextafter(listed[0].screen, math.inf))] + listed[1:]
    keys = {_tightness._candidates_key(rel, cands, True) for cands in (listed, moved)}
    assert len(keys) == 2 and _tightness._candidates_key(rel, listed, False) not in keys
    lambdas = [dataclasses.replace(listed[0], build=lambda: None)]
    assert _tightness._candidates_key(rel, lambdas, True) is None


def test_a_conversion_frontiers_points_are_stored(cache, monkeypatch):
    """A conversion frontier's certified points are stored by the first run and read back by the next without
    computing them, equal to the points computed directly (the second method)."""
    from relations.catalogue import get
    from relations.pipeline import _conversion_frontiers as cf

    rel = get("relations.kl_tanh")
    first = cf.conversion_frontier(rel, quick=True)
    direct = cf._computed_points("kl", True, cf.kl_sup)
    monkeypatch.setattr(cf, "_computed_points", lambda *a: pytest.fail("computed again"))
    again = cf.conversion_frontier(rel, quick=True)
    assert first is not None and again is not None and first.points and again.json() == first.json()
    assert again.points == direct


def _found_view(found):
    """A Found as comparable plain values: its candidates' entries, scores, labels and the exact mechanisms its
    tightness candidates build."""
    return ([m.to_dict() for m in found.candidates], found.best_violation, found.best_ratio, found.ratio_family,
            found.searched, [(c.screen, c.key, c.label, c.exact().to_dict()) for c in found.ratio_candidates])


def test_the_dense_and_k_rr_searches_are_stored(cache, monkeypatch):
    """verify's batched dense searches and a k-RR search are stored by the first run of the code and read back by
    the next without searching, equal to the searches run directly from the same starts (the second method,
    without the cache); a relation that is not the catalogue's own is never stored."""
    import dataclasses

    import numpy as np

    from relations.catalogue import get
    from relations.pipeline import _verify
    from relations.search._optimiser import search_dense_all, search_rr

    rels, effort = [get("zheng2025.thm4"), get("zheng2025.thm1")], _verify.Effort.of(True)
    first = _verify._dense_searches(rels, effort, 7)
    plans: dict = {}  # each relation's generator, seeded with 7, draws its starts family by family
    for n, rel in enumerate(rels):
        rng = np.random.default_rng(7)
        for setting in _verify._settings(rel):
            for i, fam in enumerate(_verify.DENSE[setting]):
                plans.setdefault((setting, i), []).append((n, rng.normal(scale=1.5, size=(effort.dense_starts, fam.dim))))
    assert len(list((cache / "results").glob("dense-*"))) == len(plans) >= 2
    with monkeypatch.context() as patched:  # (monkeypatch.undo would undo the fixture's cache folder too)
        patched.setattr(_verify, "search_dense_all", lambda *a, **k: pytest.fail("searched again"))
        patched.setattr(_verify, "run_beside", lambda *a, **k: pytest.fail("forked again"))
        again = _verify._dense_searches(rels, effort, 7)
    for (setting, i), plan in plans.items():
        direct = search_dense_all([rels[n] for n, _ in plan], _verify.DENSE[setting][i], [t for _, t in plan],
                                  effort.dense_maxiter)
        for (n, _), found in zip(plan, direct):
            assert _found_view(again[n][setting, i]) == _found_view(first[n][setting, i]) == _found_view(found)
    assert any(f.candidates for f in first[0].values()) and not any(f.candidates for f in first[1].values())

    copy = dataclasses.replace(rels[0])
    assert _verify._rr_name(copy, False, True) is None
    plan = [(0, np.zeros((1, _verify.DENSE["local"][0].dim)))]
    assert _verify._dense_name([copy], ("local", 0), plan, 10) is None
    assert _verify._dense_name(rels, ("local", 0), plan, 10) != _verify._dense_name(rels, ("local", 0), plan, 11)

    rel = get("zheng2025.thm3")
    name = _verify._rr_name(rel, False, True)
    stored = _verify._stored_search(name, lambda: [search_rr(rel, central=False, quick=True)])[0]
    assert len(list((cache / "results").glob("rr-local-quick-*"))) == 1
    with monkeypatch.context() as patched:
        patched.setattr(_verify, "search_rr", lambda *a, **k: pytest.fail("searched again"))
        read = _verify._stored_search(name, lambda: [_verify.search_rr(rel, central=False, quick=True)])[0]
    assert _found_view(read) == _found_view(stored) == _found_view(search_rr(rel, central=False, quick=True))
    assert read.ratio_candidates and read.best_ratio is not None
