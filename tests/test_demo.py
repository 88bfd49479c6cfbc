"""``relations demo``: the live classroom page, driven in a real headless browser.

The browser tests start ``relations demo --port 0 --no-browser`` as a subprocess, load the page in
Debian's chromium through Playwright (no browser download; every request outside the demo's own address
is aborted, so the page provably needs no internet, KaTeX and its fonts included), move sliders, and
compare the numbers the page shows with values computed here by hand.  At the projector sizes 1024 x 768
and 1366 x 768 they check that nothing scrolls sideways, and they check that the address keeps the
sliders' state.  They are skipped only when Playwright (the ``demo`` extra, see
:func:`relations._install.install_hint`) or a chromium executable is missing.
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
import urllib.error
import urllib.request
from fractions import Fraction

import pytest

from relations._install import install_hint
from relations.demo._server import STATIC
from relations.demo._state import (
    DEFAULTS,
    MAX_REPORT_ENTRIES,
    RANGES,
    RELATIONS,
    Params,
    abridge,
    parse_params,
    reports_max,
    state,
)
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
    proc.wait(timeout=120)


def test_sliders_are_bounded():
    assert parse_params({}) == Params(**DEFAULTS)
    for name, (lo, hi) in RANGES.items():
        assert getattr(parse_params({name: str(hi)}), name) == hi
        # "\uff13" (fullwidth 3) and "\u0663" (Arabic-Indic 3) are digits to str.isdigit and int(); "\u00b2"
        # (superscript 2) is a digit to str.isdigit that int() refuses; 5000 digits exceed int()'s limit
        for bad in (str(lo - 1), str(hi + 1), "1.5", "x", "-1", "", "\uff13", "\u0663", "\u00b2", "9" * 5000, f" {hi}", f"{lo} "):
            with pytest.raises(InputError, match=name):
                parse_params({name: bad})


def test_endpoints(demo_url):
    with urllib.request.urlopen(demo_url + "api/state?k=3&n=8&skew=0&records=2", timeout=120) as r:
        s = json.load(r)
    assert s["budgets"]["eps_d"]["exact"] == "ln(2)" and s["params"]["setting"] == "central"
    with pytest.raises(urllib.error.HTTPError) as info:  # out of the slider's range: refused, nothing computed
        urllib.request.urlopen(demo_url + "api/state?k=17", timeout=120)
    assert info.value.code == 400 and "k must be a whole number from 2 to 16" in json.load(info.value)["error"]
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(demo_url + "api/counterexample?kind=nope", timeout=120)
    assert info.value.code == 400
    # non-ASCII digits (fullwidth 3, superscript 2) and a number too long for int(): 400, never a 500
    for bad in ("k=%EF%BC%93", "n=%C2%B2", "records=" + "9" * 5000, "skew=%FF"):
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(demo_url + "api/state?" + bad, timeout=120)
        assert info.value.code == 400, bad
    with urllib.request.urlopen(demo_url + "?k=%EF%BC%93&n=x", timeout=120) as r:  # the page itself: served
        assert r.status == 200 and r.headers["Content-Type"].startswith("text/html")


def test_katex_is_bundled_and_served(demo_url):
    """KaTeX's script, stylesheet, every font its stylesheet names in woff2, and its licence are served
    from the package; nothing else under /static/ is."""
    import re

    assert {"katex/katex.min.js", "katex/katex.min.css", "katex/LICENSE"} <= STATIC
    with urllib.request.urlopen(demo_url + "static/katex/katex.min.css", timeout=120) as r:
        css = r.read().decode("utf-8")
        assert r.headers["Content-Type"].startswith("text/css")
    fonts = set(re.findall(r"url\((fonts/[^)]+\.woff2)\)", css))
    assert len(fonts) >= 15 and {f"katex/{f}" for f in fonts} <= STATIC
    with urllib.request.urlopen(demo_url + "static/katex/katex.min.js", timeout=120) as r:
        assert r.headers["Content-Type"].startswith("text/javascript") and b"renderToString" in r.read()
    with urllib.request.urlopen(demo_url + "static/katex/fonts/KaTeX_Main-Regular.woff2", timeout=120) as r:
        assert r.headers["Content-Type"] == "font/woff2" and r.read(4) == b"wOF2"
    with urllib.request.urlopen(demo_url + "static/katex/LICENSE", timeout=120) as r:
        assert b"MIT" in r.read()
    for bad in ("static/katex/../_server.py", "static/../_state.py", "static/katex/fonts/KaTeX_Main-Regular.woff",
                "static/katex/", "static/"):
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(demo_url + bad, timeout=120)
        assert info.value.code == 404, bad


def test_abridged_witnesses():
    full = "(1," + ",".join(["0"] * 19) + ")"
    assert abridge(full) == "(1,0,0,…,0)" and abridge("(0,1,2,3,4,5)") == "(0,1,2,3,4,5)"
    w = state(Params(k=3, n=8, skew=5, records=20))["budgets"]["eps_d"]
    assert len(w["witness_short"]) < 60 < len(w["witness"])
    assert w["witness"].count(",") == 3 * 19 + 2  # three 20-tuples: the whole witness stays in the tooltip


def test_theorem4_panel_by_hand():
    """eps_i next to eps_d + sigma_min (the paper) and eps_d - sigma_min (corrected), derived by hand.

    k-RR with t = 13/4 and skew 1/2 on k = 5: p(0) = 1/10 + 1/2 = 3/5, the others 1/10, so sigma_min = ln(1/6),
    eps_d = ln t, and eps_i = ln(6 t): the largest ratio Q(y|x)p(x) / (Q(y|x')p(x')) is t * 6.  The paper's
    bound is ln(t/6) < eps_i (fails), the corrected one ln(6 t) = eps_i (holds, with equality).
    Centrally on 2 records (k = 3, t = 2, skew 1/2: p(0) = 2/3, p(1) = 1/6): one record changes, so
    sigma_min = ln(1/4), eps_d = ln 2 and eps_i = ln 8; Theorem 2 compares with ln(1/2), its correction with ln 8.
    """
    t = 13 / 4
    t4 = state(Params(k=5, n=13, skew=10, records=1))["theorem4"]
    assert (t4["paper"]["id"], t4["corrected"]["id"]) == ("zheng2025.thm4", "relations.thm4_corrected")
    assert abs(t4["eps_i"]["value"] - math.log(6 * t)) < 1e-12
    assert abs(t4["sigma_min"]["value"] - math.log(1 / 6)) < 1e-12 and abs(t4["eps_d"]["value"] - math.log(t)) < 1e-12
    assert abs(t4["paper"]["value"] - math.log(t / 6)) < 1e-12 and t4["paper"]["status"] == "fails"
    assert abs(t4["corrected"]["value"] - math.log(6 * t)) < 1e-12 and t4["corrected"]["status"] == "holds"
    t2 = state(Params(k=3, n=8, skew=10, records=2))["theorem4"]
    assert (t2["paper"]["id"], t2["setting"]) == ("zheng2025.thm2", "central")
    assert abs(t2["eps_i"]["value"] - math.log(8)) < 1e-12 and abs(t2["paper"]["value"] - math.log(1 / 2)) < 1e-12
    assert abs(t2["corrected"]["value"] - math.log(8)) < 1e-12
    assert t2["paper"]["status"] == "fails" and t2["corrected"]["status"] == "holds"


def test_a_busy_port_is_one_line_and_status_2():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "relations", "demo", "--port", str(port)], capture_output=True,
                              text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith(f"relations: error: cannot listen on 127.0.0.1:{port}") and done.stderr.count("\n") == 1


def test_reports_are_capped_per_domain_size():
    """``reports`` is refused beyond reports_max(k): the counts channel k C(R + k - 1, k - 1) stays within the cap."""
    lo, hi = RANGES["reports"]
    for k in range(RANGES["k"][0], RANGES["k"][1] + 1):
        top = reports_max(k)
        assert lo <= top <= hi and k * math.comb(top + k - 1, k - 1) <= MAX_REPORT_ENTRIES
        assert top == hi or k * math.comb(top + k, k - 1) > MAX_REPORT_ENTRIES  # the next position is too large
        assert parse_params({"k": str(k), "reports": str(top)}).reports == top
        if top < hi:
            with pytest.raises(InputError, match=f"reports must be a whole number from 1 to {top} at k = {k}"):
                parse_params({"k": str(k), "reports": str(top + 1)})
    assert reports_max(2) == reports_max(4) == hi  # binary and 4-ary RR: the whole range


@pytest.mark.parametrize("k", [pytest.param(RANGES["k"][1], marks=pytest.mark.slow), 4,
                               pytest.param(8, marks=pytest.mark.slow)])
def test_every_update_is_cheap_at_the_largest_sizes(k):
    """An update of the page at the sliders' extremes (the largest domain with its most reports, 30 reports of
    4-RR, 8 of 8-RR): moving ``n`` never recomputes the frontier plot (the expensive part); counted through the
    cache, not timed (no test depends on load).  The default run takes 4-RR (the page's starting domain), the
    slow tier the largest domain and 8-RR (15 s of CPU)."""
    from relations.demo._state import frontier

    hi = {name: r[1] for name, r in RANGES.items()}
    top = {**hi, "k": k, "reports": reports_max(k)}
    state(Params(**top))  # the frontier of (k, skew, records) is cached from here on
    misses = frontier.cache_info().misses
    for n in (4, 5, 64):
        s = state(Params(**{**top, "n": n}))
        assert s["params"]["n"] == n and s["params"]["reports"] == top["reports"] and s["relations"]
    assert frontier.cache_info().misses == misses


def _spelt_out(rows: list[list[Fraction]], reports: int) -> list[list[Fraction]]:
    """``reports`` uses of a channel written out by hand: one column per sequence of outputs."""
    import itertools

    m = len(rows[0])
    return [[math.prod((row[y] for y in seq), start=Fraction(1)) for seq in itertools.product(range(m), repeat=reports)]
            for row in rows]


@pytest.mark.parametrize("k,n,skew,records,reports", [(2, 12, 10, 1, 3), (2, 9, 0, 1, 4), (3, 8, 10, 2, 2)])
def test_reports_equal_the_channel_spelt_out(k, n, skew, records, reports):
    """The state at ``reports = R`` is the one-use code on the ``k^R``-column channel expanded here by hand.

    Binary RR with t = 3, skew 1/2, 3 reports: eps_d = 3 ln 3 = ln 27 and eps_i = ln(27 * p(0)/p(1)) =
    ln(27 * 3) (p(0) = 1/4 + 1/2 = 3/4, p(1) = 1/4); the relations, the Theorem 4 panel and the certified
    I(X;Y) match the spelt-out channel's; likewise 3-RR reported twice on 2 records (central).
    """
    from relations.checking._checker import check
    from relations.checking._encoding import check_json
    from relations.measures._encoding import measures_json
    from relations.mechanisms import product
    from relations.model import Mechanism

    p = Params(k=k, n=n, skew=skew, records=records, reports=reports)
    t = p.ratio
    one = [[t / (t + k - 1) if x == y else 1 / (t + k - 1) for y in range(k)] for x in range(k)]
    local = Mechanism.local(_spelt_out(one, reports), prior=p.prior)
    hand = local if records == 1 else product(local, records)
    report = check(hand, relations=RELATIONS)
    budgets, rows = measures_json(hand, report.values.measures), check_json(report)["relations"]
    s = state(p)
    assert s["params"]["reports"] == reports
    assert s["budgets"]["eps_d"]["exact"] == budgets["eps_d"]["exact"] == f"ln({t ** reports})"
    for name in ("eps_i", "sigma_min"):
        assert s["budgets"][name]["exact"] == budgets[name]["exact"]
    if (k, n, skew, records, reports) == (2, 12, 10, 1, 3):
        assert s["budgets"]["eps_i"]["exact"] == "ln(81)"
    lo, hi = (float(v) for v in s["budgets"]["eps_m"]["enclosure"])
    enc = report.values.measures.eps_m.enclosure
    assert max(lo, float(enc.lower)) <= min(hi, float(enc.upper)) + 1e-15  # the two enclosures meet
    hand_status = {r["id"]: str(r["status"]) for r in rows if r["status"] != "not applicable"}
    assert {r["id"]: r["status"] for r in s["relations"]} == hand_status
    for key in ("paper", "corrected"):
        assert s["theorem4"][key]["status"] == hand_status[s["theorem4"][key]["id"]]


def test_one_report_is_the_state_of_before():
    """``reports = 1`` (the default) changes nothing but the new ``params.reports``."""
    p = Params(k=3, n=8, skew=5, records=2)
    a, b = state(p), state(Params(k=3, n=8, skew=5, records=2, reports=1))
    for s in (a, b):
        s.pop("seconds")
    assert a == b and a["params"]["reports"] == 1 and "reports" not in a["params"]["mechanism"]
    assert a["budgets"]["eps_m"]["witness"] == "I(X;Y)"


def _krr_mi(k: int, t: Fraction) -> float:
    """I(X;Y) of k-RR with ratio t under the uniform prior, by hand: ln k + sum_y Q(y|x) ln Q(y|x)."""
    on, off = float(t / (t + k - 1)), float(1 / (t + k - 1))
    return math.log(k) + on * math.log(on) + (k - 1) * off * math.log(off)


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])




@pytest.fixture(scope="module")
def browser():
    """Debian's chromium driven by Playwright (no browser download), shared by the browser tests."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed: "
                                   + install_hint("demo", only=["playwright>=1.40"]))
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no chromium executable on PATH (Debian: apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


class _Offline:
    """A page that may reach only the demo server: every other request is aborted and recorded."""

    def __init__(self, browser, demo_url: str, width: int, height: int) -> None:
        self.outside: list[str] = []
        self.served: list[str] = []
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

        def offline(route):
            if route.request.url.startswith(demo_url):
                self.served.append(route.request.url[len(demo_url):])
                route.continue_()
            else:
                self.outside.append(route.request.url)
                route.abort()

        self.page.route("**/*", offline)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.page.close()


def _wait_state(page, state: str) -> None:
    page.wait_for_selector(f'body[data-state="{state}"]', timeout=120_000)


def _move(page, name: str, value: int) -> None:
    page.eval_on_selector(f"#slider-{name}", f"e => {{ e.value = {value}; e.dispatchEvent(new Event('input')); }}")


def _query(page) -> dict[str, str]:
    from urllib.parse import parse_qsl, urlsplit

    return dict(parse_qsl(urlsplit(page.url).query))


def test_the_page_in_a_headless_browser(browser, demo_url, tmp_path):
    with _Offline(browser, demo_url, 1920, 1080) as tab:
        page = tab.page
        page.goto(demo_url)
        _wait_state(page, "k=4&n=12&skew=0&records=1")
        assert page.get_attribute("#exact-eps_d", "data-exact") == "ln(3)"
        assert page.get_attribute("#exact-sigma_min", "data-exact") == "0"

        # e^eps from 3 to 13/4 with the keyboard, as a teacher would; k from 4 to 5 by script
        page.focus("#slider-n")
        page.keyboard.press("ArrowRight")
        _move(page, "k", 5)
        _wait_state(page, "k=5&n=13&skew=0&records=1")
        t = Fraction(13, 4)
        assert page.get_attribute("#exact-eps_d", "data-exact") == "ln(13/4)"
        assert page.get_attribute("#exact-eps_i", "data-exact") == "ln(13/4)"
        assert abs(float(page.get_attribute("#number-eps_d", "data-value")) - math.log(t)) < 1e-12
        assert abs(float(page.get_attribute("#number-eps_m", "data-value")) - _krr_mi(5, t)) < 1e-9
        assert page.inner_text('tr[data-id="zheng2025.thm4"] .badge') == "holds"

        # skew the prior: half of it on the first value, so p(0)/p(1) = (1/10 + 1/2)/(1/10) = 6
        _move(page, "skew", 10)
        _wait_state(page, "k=5&n=13&skew=10&records=1")
        assert page.get_attribute("#exact-sigma_min", "data-exact") == "ln(1/6)"
        assert page.get_attribute("#exact-eps_i", "data-exact") == f"ln({6 * t})" == "ln(39/2)"
        assert page.inner_text('tr[data-id="zheng2025.thm4"] .badge') == "fails"
        assert page.inner_text('tr[data-id="relations.thm4_corrected"] .badge') == "holds"
        assert "zheng2025.thm4" in page.inner_text("#summary")
        assert page.locator("#current-point").count() == 1

        # the Theorem 4 panel: eps_i = ln(6t) against the paper's eps_d + sigma_min = ln(t/6) and ln(6t)
        assert page.get_attribute("#t4-eps_i", "data-exact") == "ln(39/2)"
        assert page.get_attribute("#t4-paper .bound", "data-exact") == f"ln({t / 6})" == "ln(13/24)"
        assert abs(float(page.get_attribute("#t4-paper .bound", "data-value")) - math.log(t / 6)) < 1e-12
        assert page.inner_text("#t4-paper .badge") == "fails"
        assert page.get_attribute("#t4-corrected .bound", "data-exact") == "ln(39/2)"
        assert page.inner_text("#t4-corrected .badge") == "holds"
        shown = page.inner_text("#t4-paper .bound")  # KaTeX sets the numbers: -0.6131 = ln(13/24) to 4 places
        assert f"{math.log(t / 6):.4f}".replace("-", "") in shown

        # the reports slider: 3 reports of 5-RR, so eps_d = 3 ln t by hand; it ends at reports_max(5)
        assert page.get_attribute("#slider-reports", "max") == str(reports_max(5))
        _move(page, "reports", 3)
        _wait_state(page, "k=5&n=13&skew=10&records=1&reports=3")
        assert page.get_attribute("#exact-eps_d", "data-exact") == f"ln({t ** 3})"
        assert abs(float(page.get_attribute("#number-eps_d", "data-value")) - 3 * math.log(t)) < 1e-12
        assert page.inner_text("#out-reports") == "R = 3" and "3 reports" in page.inner_text("#mechanism")
        _move(page, "k", 16)  # the slider's end follows k: at most reports_max(16) = 4 reports of 16-RR
        _wait_state(page, "k=16&n=13&skew=10&records=1&reports=3")
        assert page.get_attribute("#slider-reports", "max") == str(reports_max(16))
        _move(page, "k", 5)
        _move(page, "reports", 1)  # back to one report: the address leaves reports out
        _wait_state(page, "k=5&n=13&skew=10&records=1")
        assert "reports" not in _query(page)

        page.click("#cx-mi")
        page.wait_for_selector("#counterexample.shown", timeout=120_000)
        assert page.inner_text("#cx-id") == "zheng2025.thm12"
        assert page.inner_text("#cx-status") == "witness"
        assert page.inner_text("#cx-title").startswith("A witness for")  # not called a counterexample to the paper
        assert "ε_d = ∞" in page.get_attribute("#cx-budgets", "data-exact")
        assert _query(page)["cx"] == "mi"

        # a witness is not a failure: its badge and the panel's frame are not the failures' red
        red = page.eval_on_selector('tr[data-id="zheng2025.thm4"] .badge', "e => getComputedStyle(e).backgroundColor")
        assert page.eval_on_selector("#cx-status", "e => getComputedStyle(e).backgroundColor") != red
        assert page.eval_on_selector("#counterexample", "e => getComputedStyle(e).borderTopColor") != red

        # formulas are set by KaTeX, from the demo server: its script, stylesheet and fonts
        assert page.locator("#relations .katex").count() >= 10 and page.locator("#t4-paper .katex").count() == 1
        assert any(u.startswith("static/katex/fonts/") and u.endswith(".woff2") for u in tab.served)
        shot = tmp_path / "demo.png"
        page.screenshot(path=str(shot), full_page=True)
        assert tab.outside == [], f"the page asked the internet for {tab.outside}"
        assert tab.errors == []
    data = shot.read_bytes()
    width, height = _png_size(data)
    assert width == 1920 and height >= 1000 and len(data) > 50_000


#: The heaviest settings for the layout: the longest exact forms, 20-record witnesses, both panels open.
_WIDEST = "k=16&n=63&skew=19&records=20"


#: The projector sizes: each address is loaded at the first and then checked at each (the page's layout is its
#: stylesheet's media queries alone, which a change of the viewport applies as a load at that size does).
_PROJECTORS = ((1024, 768), (1366, 768))


def test_no_sideways_scroll_on_a_projector(browser, demo_url, tmp_path):
    """At 1024 x 768 and 1366 x 768 the page fits the width (the cards 2 x 2, the relations below the plot)."""
    with _Offline(browser, demo_url, *_PROJECTORS[0]) as tab:
        page = tab.page
        for address, state_ in ((demo_url, "k=4&n=12&skew=0&records=1"), (f"{demo_url}?{_WIDEST}&cx=thm4", _WIDEST),
                                (f"{demo_url}?{_WIDEST}&cx=mi", _WIDEST)):
            page.set_viewport_size({"width": _PROJECTORS[0][0], "height": _PROJECTORS[0][1]})
            page.goto(address)
            _wait_state(page, state_)
            if "cx=" in address:
                page.wait_for_selector("#counterexample.shown", timeout=120_000)
            for width, height in _PROJECTORS:
                page.set_viewport_size({"width": width, "height": height})
                # the fonts loaded and two frames drawn (events, not a pause that a loaded machine can outlast)
                page.evaluate("document.fonts.ready.then(() => new Promise(done => "
                              "requestAnimationFrame(() => requestAnimationFrame(done))))")
                scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                assert inner == width
                assert scroll <= inner, f"{address} scrolls sideways at {width} x {height}: {scroll} > {inner}"
                boxes = page.evaluate("""() => [...document.querySelectorAll('.card, #plot, #relations, #theorem4')]
                    .map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; })""")
                assert all(right <= inner for _, right, _, _ in boxes)
                cards, (plot, relations, _t4) = boxes[:4], boxes[4:]
                assert cards[0][2] == cards[1][2] < cards[2][2] == cards[3][2]  # 2 x 2
                assert relations[2] >= plot[3]  # the relations below the plot
                if address != demo_url:  # a 20-record witness is abridged on the card, the whole of it in the tooltip
                    where = page.inner_text("#where-eps_d")
                    assert "…" in where and len(where) < 70
                    assert page.get_attribute("#where-eps_d", "title").count(",") == 3 * 19 + 2
                if "cx=mi" in address:
                    page.screenshot(path=str(tmp_path / f"demo-{width}.png"))
        assert tab.outside == [] and tab.errors == []


def test_the_address_keeps_the_state(browser, demo_url):
    """Opening ?k=3&n=8&skew=10&records=2&cx=thm4 restores the sliders, the values and the open panel;
    moving a slider or closing the panel updates the address; invalid values are ignored with a note.

    By hand: 3-RR with t = 8/4 = 2 on 2 records and skew 1/2 (p(0) = 1/6 + 1/2 = 2/3, the others 1/6):
    eps_d = ln 2 and sigma_min = ln((1/6)/(2/3)) = ln(1/4).
    """
    with _Offline(browser, demo_url, 1366, 768) as tab:
        page = tab.page
        page.goto(demo_url + "?k=3&n=8&skew=10&records=2&cx=thm4")
        _wait_state(page, "k=3&n=8&skew=10&records=2")
        values = page.evaluate("['k', 'n', 'skew', 'records'].map(n => document.getElementById('slider-' + n).value)")
        assert values == ["3", "8", "10", "2"]
        assert page.get_attribute("#exact-eps_d", "data-exact") == "ln(2)"
        assert page.get_attribute("#exact-sigma_min", "data-exact") == "ln(1/4)"
        page.wait_for_selector('#counterexample.shown[data-kind="thm4"]', timeout=120_000)
        assert not page.is_visible("#url-note")

        page.focus("#slider-k")
        page.keyboard.press("ArrowRight")  # k = 4: the address follows at once, before the numbers arrive
        assert _query(page) == {"k": "4", "n": "8", "skew": "10", "records": "2", "cx": "thm4"}
        _wait_state(page, "k=4&n=8&skew=10&records=2")
        _move(page, "n", 13)
        _wait_state(page, "k=4&n=13&skew=10&records=2")
        page.click("#cx-close")
        assert _query(page) == {"k": "4", "n": "13", "skew": "10", "records": "2"}

        # more reports than the domain size allows: capped, said so
        page.goto(demo_url + "?k=16&n=8&skew=0&records=1&reports=30")
        _wait_state(page, f"k=16&n=8&skew=0&records=1&reports={reports_max(16)}")
        assert page.is_visible("#url-note") and "reports=30" in page.inner_text("#url-note")

        # a fullwidth digit, a value out of range, an unknown panel and an unknown name: ignored, said so
        page.goto(demo_url + "?k=%EF%BC%93&n=999&records=3&cx=nope&zoom=2")
        _wait_state(page, f"k={DEFAULTS['k']}&n={DEFAULTS['n']}&skew={DEFAULTS['skew']}&records=3")
        note = page.inner_text("#url-note")
        assert page.is_visible("#url-note") and all(s in note for s in ("k=", "n=999", "cx=nope", "zoom"))
        assert page.inner_text("#error") == ""
        assert _query(page) == {"k": str(DEFAULTS["k"]), "n": str(DEFAULTS["n"]), "skew": str(DEFAULTS["skew"]),
                                "records": "3"}
        assert tab.outside == [] and tab.errors == []
