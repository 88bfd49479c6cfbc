"""The local HTTP server of ``relations demo``: one page, the KaTeX files it uses and two JSON endpoints.

The standard library's :class:`http.server.ThreadingHTTPServer` serves

* ``/`` -- the page (``page.html`` next to this module: HTML, CSS and JavaScript in one file; with KaTeX
  below, nothing is fetched from the internet, so it works in a classroom without a connection);
* ``/api/state?k=K&n=N&skew=J&records=R[&reports=R2]`` -- :func:`relations.demo._state.state` as JSON
  (``reports`` defaults to 1; the page leaves it out at 1, so addresses from before the slider still work);
* ``/api/counterexample?kind=mi|thm4&k=...`` -- :func:`relations.demo._state.counterexample`;
* ``/static/katex/...`` -- the KaTeX files the page renders its formulas with (bundled: ``static/katex/``
  next to this module, see its ``SOURCE``; only the files listed in :data:`STATIC` are served).

The page's own address takes the same query (``/?k=3&n=8&skew=0&records=1&cx=thm4``): the page restores
the sliders from it and keeps it up to date as they move, so a lesson's state can be bookmarked.

Query values outside the sliders' ranges (or not whole numbers in ASCII digits) are refused with status
400 and a one-line ``error`` before anything is computed; computations run one at a time (a lock), so a class of browsers cannot overload
the machine.  Infinite values are sent as the strings ``"inf"`` / ``"-inf"`` (JSON has no infinity).

Under load (a class opening the page at once): each connection has its own thread, the listen backlog is
:data:`BACKLOG` (so that many connections waiting to be accepted are never reset), at most
:data:`MAX_WAITING` computations wait for the lock, each at most :data:`MAX_WAIT` seconds; a request
beyond them is answered at once with status 503 and ``Retry-After:`` :data:`RETRY_AFTER` (the page
retries).  The page and its static files need no lock.  A connection that sends nothing is closed after
:data:`IDLE_TIMEOUT` seconds.
"""

from __future__ import annotations

import json
import math
import socket
import sys
import threading
from collections.abc import Callable
from functools import lru_cache
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import PurePosixPath
from typing import Any, cast
from urllib.parse import parse_qs, urlsplit

from relations.demo._state import COUNTEREXAMPLES, DEFAULTS, RANGES, counterexample, parse_params, reports_max, state
from relations.errors import InputError

__all__ = ["DemoServer", "STATIC", "BACKLOG", "MAX_WAITING", "MAX_WAIT", "RETRY_AFTER", "IDLE_TIMEOUT", "make_server",
           "page_html", "server_url"]

#: Connections the kernel keeps waiting to be accepted (the listen backlog; the system may cap it lower).
BACKLOG = 1024
#: Computations (``/api/...``) that may wait for the lock at once; beyond them: 503 with Retry-After.
MAX_WAITING = 256
#: Longest wait for the lock, in seconds, before a 503.
MAX_WAIT = 60.0
#: The ``Retry-After`` of a 503, in seconds.
RETRY_AFTER = 2
#: Seconds a connection may stay silent before it is closed.
IDLE_TIMEOUT = 30

#: The content type of each kind of static file the server sends.
_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".woff2": "font/woff2",
          "": "text/plain; charset=utf-8"}


def _static_files() -> frozenset[str]:
    """The files under ``static/`` that the server sends, as paths (``katex/fonts/KaTeX_Main-Regular.woff2``)."""
    out, stack = set(), [(resources.files("relations.demo").joinpath("static"), "")]
    while stack:
        folder, prefix = stack.pop()
        for entry in folder.iterdir():
            if entry.is_dir():
                stack.append((entry, f"{prefix}{entry.name}/"))
            elif PurePosixPath(entry.name).suffix in _TYPES:
                out.add(prefix + entry.name)
    return frozenset(out)


#: Every file ``/static/`` serves: a fixed list read once, so no request can name a file outside it.
STATIC = _static_files()


@lru_cache(maxsize=1)
def page_html() -> str:
    """The page, with the sliders' ranges and starting positions filled in.

    Examples
    --------
    >>> html = page_html()
    >>> html.startswith("<!DOCTYPE html>"), "http://" in html.replace("http://www.w3.org", ""), '"k": [2, 16]' in html
    (True, False, True)
    """
    text = resources.files("relations.demo").joinpath("page.html").read_text(encoding="utf-8")
    config = {"ranges": {k: list(v) for k, v in RANGES.items()}, "defaults": DEFAULTS,
              "reports_max": {k: reports_max(k) for k in range(RANGES["k"][0], RANGES["k"][1] + 1)},
              "counterexamples": list(COUNTEREXAMPLES)}
    return text.replace("/*CONFIG*/null", json.dumps(config))


def _finite(obj: Any) -> Any:
    """``obj`` with every non-finite float replaced by ``"inf"``, ``"-inf"`` or ``"nan"``."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return "nan" if math.isnan(obj) else ("inf" if obj > 0 else "-inf")
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


class _Handler(BaseHTTPRequestHandler):
    """Routes ``GET`` requests to the page and the endpoints."""

    server_version = "relations-demo"
    server: DemoServer
    timeout = IDLE_TIMEOUT

    def do_GET(self) -> None:  # noqa: N802 (the http.server name)
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        if url.path in ("/", "/index.html"):
            self._send(HTTPStatus.OK, "text/html; charset=utf-8", page_html().encode("utf-8"))
        elif url.path == "/api/state":
            self._json(lambda: state(parse_params(query)))
        elif url.path == "/api/counterexample":
            self._json(lambda: counterexample(query.get("kind", "mi"), parse_params(query)))
        elif url.path.startswith("/static/") and url.path[len("/static/"):] in STATIC:
            name = url.path[len("/static/"):]
            data = resources.files("relations.demo").joinpath("static", *name.split("/")).read_bytes()
            self._send(HTTPStatus.OK, _TYPES[PurePosixPath(name).suffix], data, cache="public, max-age=86400")
        elif url.path == "/favicon.ico":
            self._send(HTTPStatus.NO_CONTENT, "image/x-icon", b"")
        else:
            self._send(HTTPStatus.NOT_FOUND, "application/json", b'{"error": "not found"}')

    def _json(self, compute: Callable[[], dict[str, Any]]) -> None:
        if not self.server.waiting.acquire(blocking=False):
            self._busy()
            return
        try:
            if not self.server.lock.acquire(timeout=MAX_WAIT):
                self._busy()
                return
            try:
                obj = compute()
            finally:
                self.server.lock.release()
            status = HTTPStatus.OK
        except InputError as exc:
            obj, status = {"error": str(exc)}, HTTPStatus.BAD_REQUEST
        except Exception as exc:  # a bug must not take the page down: report it and keep serving
            sys.stderr.write(f"relations demo: {self.path}: {type(exc).__name__}: {exc}\n")
            obj, status = {"error": f"{type(exc).__name__}: {exc}"}, HTTPStatus.INTERNAL_SERVER_ERROR
        finally:
            self.server.waiting.release()
        body = json.dumps(_finite(obj), allow_nan=False).encode("utf-8")
        self._send(status, "application/json", body)

    def _busy(self) -> None:
        """503: too many computations waiting; the client is told when to retry."""
        body = json.dumps({"error": "the demo is busy: try again in a moment", "retry_after": RETRY_AFTER})
        self._send(HTTPStatus.SERVICE_UNAVAILABLE, "application/json", body.encode("utf-8"),
                   extra={"Retry-After": str(RETRY_AFTER)})

    def _send(self, status: HTTPStatus, ctype: str, body: bytes, *, cache: str = "no-store",
              extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if body:
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the http.server signature)
        """Quiet: a classroom terminal shows the address, not every request."""


class DemoServer(ThreadingHTTPServer):
    """A :class:`~http.server.ThreadingHTTPServer` with a lock that runs one computation at a time, at most
    :data:`MAX_WAITING` computations waiting for it, and a listen backlog of :data:`BACKLOG`."""

    daemon_threads = True
    request_queue_size = BACKLOG

    def __init__(self, address: tuple[str, int]) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.lock = threading.Lock()
        self.waiting = threading.BoundedSemaphore(MAX_WAITING)
        super().__init__(address, _Handler)


def make_server(host: str = "127.0.0.1", port: int = 5006) -> DemoServer:
    """A server bound to ``host:port`` (``port=0``: a free port), not yet serving.

    The first computation is done here, so that the first slider move is not slowed by imports.

    Raises
    ------
    OSError
        If the address cannot be bound (in use, or not this machine's).

    Examples
    --------
    >>> import threading, urllib.request, json
    >>> srv = make_server(port=0)
    >>> thread = threading.Thread(target=srv.serve_forever, daemon=True); thread.start()
    >>> with urllib.request.urlopen(server_url(srv) + "api/state?k=3&n=8") as r:
    ...     json.load(r)["budgets"]["eps_d"]["exact"]
    'ln(2)'
    >>> srv.shutdown(); srv.server_close()
    """
    server = DemoServer((host, port))
    state(parse_params(DEFAULTS))
    return server


def server_url(server: DemoServer) -> str:
    """``http://HOST:PORT/`` of a bound server (the port it really got when asked for 0)."""
    host, port = cast("tuple[str, int]", server.server_address[:2])  # an IP server
    if ":" in str(host):
        host = f"[{host}]"
    return f"http://{host}:{port}/"
