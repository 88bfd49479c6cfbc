"""``relations demo``: the live classroom page (registered on the CLI's ``app``; the page is
:mod:`relations.demo`)."""

from __future__ import annotations

import sys

import typer

from relations.cli._helpers import fail

__all__ = ["demo"]


def demo(
    port: int = typer.Option(5006, "--port", help="Port to listen on; 0 picks a free one (printed).", min=0,
                             max=65535),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every interface, e.g. "
                             "for a class on the same network)."),
    open_browser: bool = typer.Option(False, "--open/--no-browser", help="Open the page in the default browser "
                                      "(default: only print its address)."),
) -> None:
    """Serve a live page for teaching: sliders for k-RR (k, e^eps, prior skew, records) and its exact
    budgets, the catalogued relations that hold or fail, the frontier plot and counterexamples.

    Runs until Ctrl-C.  The page needs no internet connection."""
    from relations.demo import make_server, server_url

    try:
        server = make_server(host, port)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
        return
    url = server_url(server)
    sys.stdout.write(f"relations demo: serving {url} (Ctrl-C to stop)\n")
    sys.stdout.flush()
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        sys.stdout.write("relations demo: stopped\n")
    finally:
        server.server_close()
