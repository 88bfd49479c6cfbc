"""Reproduces the stall of tests/test_notebooks.py's notebook runs: a missed ZeroMQ wake-up on the kernel client's
socket (see ``_LookingChannel`` there).

``python tests/notebook_wakeups.py ROUNDS TIMEOUT [plain|looking]`` executes the notebooks of the default run
(all but 03) ROUNDS times each, one fresh kernel per run, each cell given TIMEOUT seconds:

* ``plain`` (the default): nbclient as the test ran it before, with jupyter_client's ``get_msg`` instrumented:
  a poll of a socket that returns "ready" only once its whole timeout ran out (pyzmq then polls the socket
  itself) was a missed wake-up: the message sat in the socket while the event loop slept.  Each is printed
  with its socket type (5: the shell channel's DEALER) and the cell that waited.
* ``looking``: the test's client (:func:`test_notebooks.executed`'s, slices of one second); a cell taking
  more than 10 s is printed.

Measured 2026-11-29 on the shared 2-core machine (load 6-7, other helpers' work), ``plain`` with TIMEOUT 600:
02 took 612 s in the first round, one DEALER poll "ready after 600.01 s"; with TIMEOUT 60: two DEALER polls
ready after 60.02 and 60.01 s in 5 rounds (30 runs), both in the cell that imports ipywidgets and displays the
sliders (06 and 07).  ``looking`` with TIMEOUT 60, 26 rounds (156 runs): no cell over 10 s, no error, the
slowest notebook 35 s.
"""

from __future__ import annotations

import pathlib
import queue
import sys
import tempfile
import time


def main(rounds: int, timeout: int, mode: str) -> None:
    import nbclient
    import nbformat
    from jupyter_client.channels import AsyncZMQSocketChannel

    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    import test_notebooks

    missed: list[tuple[int, float]] = []

    async def get_msg(self, timeout=None):  # jupyter_client's, timed
        start = time.monotonic()
        ready = await self.socket.poll(None if timeout is None else int(timeout * 1000))
        waited = time.monotonic() - start
        if ready and timeout and timeout >= 2 and waited >= 0.95 * timeout:
            missed.append((int(self.socket.socket_type), round(waited, 2)))
            print(f"missed wake-up: socket type {int(self.socket.socket_type)}, ready after {waited:.2f} s "
                  f"(the poll's timeout {timeout} s)", flush=True)
        if ready:
            return await self._recv()
        raise queue.Empty

    AsyncZMQSocketChannel.get_msg = get_msg  # the looking client's channels override it

    class Client(nbclient.NotebookClient):
        async def async_execute_cell(self, cell, cell_index, **kw):
            start, before = time.monotonic(), len(missed)
            done = await super().async_execute_cell(cell, cell_index, **kw)
            if time.monotonic() - start > 10 or len(missed) > before:
                print(f"  cell {cell_index} took {time.monotonic() - start:.1f} s: {cell.source[:60]!r}", flush=True)
            return done

    options = {} if mode == "plain" else {"kernel_manager_class": test_notebooks._LookingManager}
    paths = [p for p in test_notebooks.NOTEBOOKS if not p.name.startswith("03_")]
    began, slowest = time.monotonic(), 0.0
    for r in range(rounds):
        for path in paths:
            nb = nbformat.read(path, as_version=4)
            with tempfile.TemporaryDirectory() as folder:
                start = time.monotonic()
                try:
                    Client(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                           resources={"metadata": {"path": folder}}, **options).execute()
                except Exception as exc:  # a kernel that did not start (a port taken): said, and the loop goes on
                    print(f"round {r} {path.name}: {type(exc).__name__}: {str(exc)[:100]}", flush=True)
                slowest = max(slowest, time.monotonic() - start)
        print(f"round {r} done at {time.monotonic() - began:.0f} s ({mode}); slowest notebook {slowest:.0f} s; "
              f"missed wake-ups so far: {missed}", flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "plain")
