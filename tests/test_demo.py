"""``relations demo``: the live classroom page, driven in a real headless browser.

The browser test starts ``relations demo --port 0 --no-browser`` as a subprocess, loads the page in
Debian's chromium through Playwright (no browser download; every request outside the demo's own address
is aborted, so the page provably needs no internet), moves sliders, and compares the numbers the page
shows with values computed here by hand.  It is skipped only when Playwright (``pip install
'privacy-relations[demo]'``) or a chromium executable is missing.
"""

from __future__ import annotations

import json
import math
import queue
import shutil
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from fractions import Fraction

import pytest

from relations.demo._state import DEFAULTS, RANGES, Params, parse_params, state
from relations.errors import InputError


def _start_demo(*args: str) -> tuple[subprocess.Popen, str]:
    """``relations demo --port 0 --no-browser`` in a subprocess, and the address it printed."""
    proc = subprocess.Popen([sys.executable, "-m", "relations", "demo", "--port", "0", "--no-browser", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: lines.put(proc.stdout.readline()), daemon=True).start()
    try:
        line = lines.get(timeout=60)
    except queue.Empty:
        proc.kill()
        pytest.fail("relations demo printed no address within 60 s")
    if not line.startswith("relations demo: serving http://"):
        proc.kill()
        pytest.fail(f"unexpected first line {line!r}; stderr: {proc.stderr.read()}")
    return proc, line.split()[3]


@pytest.fixture(scope="module")
def demo_url():
    proc, url = _start_demo()
    yield url
    proc.terminate()
    proc.wait(timeout=20)


def test_sliders_are_bounded():
    assert parse_params({}) == Params(**DEFAULTS)
    for name, (lo, hi) in RANGES.items():
        assert getattr(parse_params({name: str(hi)}), name) == hi
        for bad in (str(lo - 1), str(hi + 1), "1.5", "x", "-1", ""):
            with pytest.raises(InputError, match=name):
                parse_params({name: bad})


def test_endpoints(demo_url):
    with urllib.request.urlopen(demo_url + "api/state?k=3&n=8&skew=0&records=2", timeout=30) as r:
        s = json.load(r)
    assert s["budgets"]["eps_d"]["exact"] == "ln(2)" and s["params"]["setting"] == "central"
    with pytest.raises(urllib.error.HTTPError) as info:  # out of the slider's range: refused, nothing computed
        urllib.request.urlopen(demo_url + "api/state?k=17", timeout=30)
    assert info.value.code == 400 and "k must be a whole number from 2 to 16" in json.load(info.value)["error"]
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(demo_url + "api/counterexample?kind=nope", timeout=30)
    assert info.value.code == 400


def test_a_busy_port_is_one_line_and_status_2():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "relations", "demo", "--port", str(port)], capture_output=True,
                              text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith(f"relations: error: cannot listen on 127.0.0.1:{port}") and done.stderr.count("\n") == 1


def test_every_update_is_fast_at_the_largest_sizes():
    """The documented bound: an update of the page within about a second at the sliders' extremes."""
    hi = {name: r[1] for name, r in RANGES.items()}
    state(Params(**hi))  # the frontier of (k, skew, records) is cached from here on
    for n in (4, 5, 64):
        start = time.perf_counter()
        state(Params(**{**hi, "n": n}))
        assert time.perf_counter() - start < 2.0  # about 0.05 s here; generous for a loaded machine


def _krr_mi(k: int, t: Fraction) -> float:
    """I(X;Y) of k-RR with ratio t under the uniform prior, by hand: ln k + sum_y Q(y|x) ln Q(y|x)."""
    on, off = float(t / (t + k - 1)), float(1 / (t + k - 1))
    return math.log(k) + on * math.log(on) + (k - 1) * off * math.log(off)


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_page_in_a_headless_browser(demo_url, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed: pip install "
                                   "'privacy-relations[demo]'")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no chromium executable on PATH (Debian: apt-get install chromium)")
    outside: list[str] = []

    def offline(route):  # the page must need nothing from the internet
        if route.request.url.startswith(demo_url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.route("**/*", offline)
            page.goto(demo_url)
            page.wait_for_selector('body[data-state="k=4&n=12&skew=0&records=1"]', timeout=30_000)
            assert page.inner_text("#exact-eps_d") == "ln(3)"
            assert page.inner_text("#exact-sigma_min") == "0"

            # e^eps from 3 to 13/4 with the keyboard, as a teacher would; k from 4 to 5 by script
            page.focus("#slider-n")
            page.keyboard.press("ArrowRight")
            page.eval_on_selector("#slider-k", "e => { e.value = 5; e.dispatchEvent(new Event('input')); }")
            start = time.perf_counter()
            page.wait_for_selector('body[data-state="k=5&n=13&skew=0&records=1"]', timeout=30_000)
            seconds = time.perf_counter() - start
            t = Fraction(13, 4)
            assert page.inner_text("#exact-eps_d") == "ln(13/4)" == page.inner_text("#exact-eps_i")
            assert abs(float(page.get_attribute("#number-eps_d", "data-value")) - math.log(t)) < 1e-12
            assert abs(float(page.get_attribute("#number-eps_m", "data-value")) - _krr_mi(5, t)) < 1e-9
            assert page.inner_text('tr[data-id="zheng2025.thm4"] .badge') == "holds"

            # skew the prior: half of it on the first value, so p(0)/p(1) = (1/10 + 1/2)/(1/10) = 6
            page.eval_on_selector("#slider-skew", "e => { e.value = 10; e.dispatchEvent(new Event('input')); }")
            page.wait_for_selector('body[data-state="k=5&n=13&skew=10&records=1"]', timeout=30_000)
            assert page.inner_text("#exact-sigma_min") == "ln(1/6)"
            assert page.inner_text("#exact-eps_i") == f"ln({6 * t})" == "ln(39/2)"
            assert page.inner_text('tr[data-id="zheng2025.thm4"] .badge') == "fails"
            assert page.inner_text('tr[data-id="relations.thm4_corrected"] .badge') == "holds"
            assert "zheng2025.thm4" in page.inner_text("#summary")
            assert page.locator("#current-point").count() == 1

            page.click("#cx-mi")
            page.wait_for_selector("#counterexample.shown", timeout=30_000)
            assert page.inner_text("#cx-id") == "zheng2025.thm12"
            assert page.inner_text("#cx-status") == "witness"
            assert "ε_d = ∞" in page.inner_text("#cx-budgets")

            shot = tmp_path / "demo.png"
            page.screenshot(path=str(shot), full_page=True)
        finally:
            browser.close()
    data = shot.read_bytes()
    width, height = _png_size(data)
    assert width == 1920 and height >= 1000 and len(data) > 50_000
    assert outside == [], f"the page asked the internet for {outside}"
    assert seconds < 10, f"a slider update took {seconds:.1f} s"
