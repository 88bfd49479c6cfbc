"""``relations demo`` under a class: many concurrent clients on the loopback (issue 43 item 6).

Every client gets an answer (no connection reset): 200, or 503 with ``Retry-After`` once
``MAX_WAITING`` computations wait for the lock.  Assertions are on status codes and resets, never on time.
"""

from __future__ import annotations

import http.client
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from relations.demo import _server
from relations.demo._state import RANGES


@pytest.fixture
def server():
    srv = _server.make_server("127.0.0.1", 0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _get(srv, path: str) -> tuple[int, str | None] | str:
    """(status, Retry-After) or the name of the error (a reset, a refused connection)."""
    host, port = srv.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=600)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        r.read()
        return r.status, r.getheader("Retry-After")
    except OSError as exc:
        return type(exc).__name__
    finally:
        conn.close()


def _paths(n: int) -> list[str]:
    low, high = RANGES["k"]
    return [f"/api/state?k={low + i % (high - low + 1)}&n=8" if i % 4 else "/" for i in range(n)]


def test_beyond_the_waiting_computations_a_503_with_retry_after(server, monkeypatch):
    """With the lock held, MAX_WAITING computations wait and the rest are told to retry; then all waiting ones
    are answered."""
    monkeypatch.setattr(_server, "state", lambda params: {"k": params.k})  # the computation itself is not the point
    extra = 20
    server.lock.acquire()
    answers: list = []
    with ThreadPoolExecutor(_server.MAX_WAITING + extra) as pool:
        futures = [pool.submit(_get, server, f"/api/state?k={2 + i % 10}&n=8") for i in range(_server.MAX_WAITING + extra)]
        busy = [f.result() for f in _first(futures, extra)]  # the refused ones come back while the lock is held
        server.lock.release()
        answers = [f.result() for f in futures]
    assert all(a == (503, str(_server.RETRY_AFTER)) for a in busy), busy
    assert sorted(a[0] for a in answers) == [200] * _server.MAX_WAITING + [503] * extra, answers


def _first(futures, n):
    """The first ``n`` futures to finish (waits for them, whatever the time)."""
    from concurrent.futures import FIRST_COMPLETED, wait

    done: set = set()
    pending = set(futures)
    while len(done) < n:
        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
        done |= finished
    return list(done)[:n]


def test_200_concurrent_clients_see_no_reset(server, monkeypatch):
    # a listen backlog of 5 (http.server's default) resets connections a busy accept loop has not taken yet
    assert server.request_queue_size >= 200
    monkeypatch.setattr(_server, "state", lambda params: {"k": params.k})
    with ThreadPoolExecutor(200) as pool:
        answers = list(pool.map(lambda p: _get(server, p), _paths(200)))
    assert not [a for a in answers if isinstance(a, str)], answers  # no reset, no refused connection
    assert {a[0] for a in answers} <= {200, 503}
    assert all(a[1] == str(_server.RETRY_AFTER) for a in answers if a[0] == 503)
    assert sum(a[0] == 200 for a in answers) >= 50  # every page request, at least: they need no lock


def test_the_docs_state_the_numbers():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "demo.md").read_text(encoding="utf-8")
    assert f"listen backlog is {_server.BACKLOG}" in text and f"Up to {_server.MAX_WAITING} computations" in text
    assert f"at most {int(_server.MAX_WAIT)} s" in text and f"Retry-After: {_server.RETRY_AFTER}" in text
    assert f"after {_server.IDLE_TIMEOUT} s" in text


@pytest.mark.slow
def test_200_concurrent_clients_with_real_computations(server):
    with ThreadPoolExecutor(200) as pool:
        answers = list(pool.map(lambda p: _get(server, p), _paths(200)))
    assert not [a for a in answers if isinstance(a, str)], answers
    assert {a[0] for a in answers} <= {200, 503}
    assert all(a[1] == str(_server.RETRY_AFTER) for a in answers if a[0] == 503)
