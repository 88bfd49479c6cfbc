"""relations.search._forked: work beside in a forked child, with the same results as in one process."""

from __future__ import annotations

import os
import time

import pytest

from relations.search import _forked as forked


def test_the_child_runs_meanwhile_and_its_result_comes_back():
    if not forked.usable():
        pytest.skip("no fork or one core here")
    here_pid = os.getpid()
    mine, theirs = forked.run_beside(lambda: os.getpid(), lambda: (os.getpid(), [1, 2, 3]))
    assert mine == here_pid and theirs[0] != here_pid and theirs[1] == [1, 2, 3]


def test_a_failing_child_is_computed_here(monkeypatch):
    calls = []

    def there():
        calls.append(os.getpid())
        if os.getpid() != parent:
            raise RuntimeError("only in the child")
        return "here"

    parent = os.getpid()
    assert forked.run_beside(lambda: 1, there) == (1, "here")
    assert calls[-1] == parent


def test_an_exception_here_stops_the_child(monkeypatch):
    if not forked.usable():
        pytest.skip("no fork or one core here")
    started = []
    real = forked.multiprocessing.get_context("fork").Process

    class Watched(real):
        def start(self):
            super().start()
            started.append(self)

    monkeypatch.setattr(forked.multiprocessing.get_context("fork"), "Process", Watched)

    def here():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        forked.run_beside(here, lambda: time.sleep(60))
    assert started and not started[0].is_alive()


def test_disabled_runs_everything_here(monkeypatch):
    monkeypatch.setenv(forked.DISABLE_VARIABLE, "1")
    assert not forked.usable()
    assert forked.run_beside(lambda: os.getpid(), lambda: os.getpid()) == (os.getpid(), os.getpid())


def test_verify_dense_searches_are_the_same_with_and_without_the_child(monkeypatch):
    from relations.catalogue import get
    from relations.pipeline import _verify as verify
    rels = [get("zheng2025.thm4"), get("zheng2025.thm1"), get("bs2016.zcdp_dp"), get("zheng2025.thm11")]
    effort = verify.Effort.of(True)
    beside = verify._dense_searches(rels, effort, 7)
    monkeypatch.setenv(forked.DISABLE_VARIABLE, "1")
    alone = verify._dense_searches(rels, effort, 7)

    def key(found):
        return (found.best_violation, found.best_ratio, found.ratio_family, found.searched,
                [(c.channel.exact, c.prior.exact) for c in found.candidates])

    assert beside.keys() == alone.keys() and len({k for d in beside.values() for k in d}) == 3  # 3 families
    assert {n: {k: key(f) for k, f in d.items()} for n, d in beside.items()} == \
        {n: {k: key(f) for k, f in d.items()} for n, d in alone.items()}
