"""Instant answers in real Chromium: a click one step from what a page first shows is drawn
within one animation frame from the precomputed tables, while Python is still loading; the
status says plainly when Python computes instead; shared links, slow and failed downloads,
offline visits and FIG-001's download behave as promised."""

from __future__ import annotations

import functools
import re
import time
from urllib.parse import quote

import pytest

from attention import bench, bench_view, figures, lab
from attention.protocol import export, registry
from sitebuild.serve import SiteHandler, SiteServer
from tests.browser.conftest import read_until_saved, routable, serving, start, stop, until, watch, within
from tests.browser.test_bench_figures import FORTY
from tests.browser.test_bench_page import DRAWN, expected_state, shown_state

STATUS = "#fig-002 .runtime-status"
# The page's own answers module (its name carries the build's content hash), or undefined.
ANSWERS_URL = """performance.getEntriesByType('resource').map(e => e.name)
  .find(n => /\\/static\\/js\\/answers\\.[0-9a-f]{10}\\.js$/.test(n))"""
# Whether that module holds tables (polled with until(): a Promise is truthy to wait_for_function).
TABLES_IN = f"""async () => {{ const url = {ANSWERS_URL};
  return !!url && (await import(url)).size() > 0; }}"""
MOUNTED = ".fig-hint:not([hidden])"  # a live figure shows its hint once its controls work

# Click, then read the given elements' texts in the next animation frame (before its paint).
# A reader clicks what is on screen: the target is brought to the screen's middle first (what
# is far from the screen is drawn once the page is idle: near.js), then clicked, and what the
# reads select is read just before the next frame; or, given a third item true, in the click's
# own task (what is there was drawn without waiting for any message, Python's included).
CLICK_THEN_FRAME = within(10, """([click, reads, inTask]) => new Promise(resolve => {
  const target = document.querySelector(click);
  target.scrollIntoView({block: "center"});
  requestAnimationFrame(() => requestAnimationFrame(() => {
    if (target.click) target.click();  // an SVG stopcock has no click(): dispatch one
    else target.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}));
    const read = () => resolve(reads.map(s => [...document.querySelectorAll(s)].map(e => e.textContent)));
    if (inTask) read(); else requestAnimationFrame(read);
  }));
})""")


class Held:
    """Keep every runtime request waiting (Python stays 'loading') until release()."""

    def __init__(self, page):
        self.routes, self.page = [], page
        page.route("**/runtime/**", lambda route: self.routes.append(route))

    def release(self):
        for route in self.routes:
            route.continue_()
        self.page.unroute("**/runtime/**")


@pytest.fixture
def fresh(browser, server):
    """A 1280 px page whose requests page.route sees (no service worker), ending clean."""
    with routable(browser, server) as w:
        yield w


def held_back(w, path: str, ready: str) -> Held:
    """Open path with Python held back; return once its tables are in and ready is shown."""
    held = Held(w.page)
    w.page.goto(w.base + path)
    until(w.page, TABLES_IN)
    w.page.wait_for_selector(ready)
    return held


def test_a_click_on_grid_before_python_is_ready_is_drawn_within_a_frame(fresh):
    page = fresh.page
    held = held_back(fresh, "mixture/", "#fig-002 " + MOUNTED)
    page.wait_for_selector(f'{STATUS}[data-state="loading"]')
    cells = [f'#fig-002 [data-bind="{b}"]' for b in ("score", "scaled", "weight", "contribution")]
    reads = ['#fig-002 [data-bind="query"]', '#fig-002 [data-bind="output"]', *cells]
    shown = page.evaluate(CLICK_THEN_FRAME, ['#fig-002 tr[data-query="grid"]', reads])
    core = figures.fig_002.data("grid")
    assert shown[0] == ["grid"] and shown[1] == [core["output"]["text"]]
    for column, field in zip(shown[2:], ("score", "scaled", "weight", "contribution")):
        assert column == [r[field]["text"] for r in core["rows"]]
    assert shown[4] == ["0.401", "0.198", "0.401"]
    assert page.get_attribute(STATUS, "data-state") == "loading"  # Python had no part in it
    page.wait_for_function("() => location.search.includes('grid')")  # written once the frame is drawn
    held.release()


def test_a_bench_row_before_python_is_ready_is_drawn_within_a_frame(fresh):
    page = fresh.page
    held = held_back(fresh, "bench/", '#fig-005 tr[data-index="3"] button')
    page.wait_for_selector('#fig-004 .runtime-status[data-state="loading"]')
    reads = ['#fig-005 [data-bind="query-word"]', "#fig-005 tbody tr .weight .num"]
    shown = page.evaluate(CLICK_THEN_FRAME, ['#fig-005 tr[data-index="3"] button', reads])
    core = bench_view.view(query=3)
    assert shown == [[bench.DEFAULT_SENTENCE[3]], [r["weight"]["text"] for r in core["rows"]]]
    assert shown_state(page) == expected_state(query=3)  # every part: drawing, table, matrix
    assert page.get_attribute("#fig-004 .runtime-status", "data-state") == "loading"
    held.release()


def test_every_control_one_step_away_is_answered_without_python(fresh):
    """Each bench row, head and stopcock, and each lab switch, is in the table: with Python
    held back, each click and its undo are drawn at once."""
    page = fresh.page
    held = held_back(fresh, "bench/", '#fig-005 tr[data-index="0"] button')
    word = '#fig-005 [data-bind="query-word"]'  # the drawing, far above the rows, comes later
    for j in range(8):
        shown = page.evaluate(CLICK_THEN_FRAME, [f'#fig-005 tr[data-index="{j}"] button', [word]])
        assert shown == [[bench.DEFAULT_SENTENCE[j]]]
    page.evaluate(CLICK_THEN_FRAME, ['#fig-005 tr[data-index="6"] button', [word]])
    for head in bench.HEADS:
        shown = page.evaluate(CLICK_THEN_FRAME, [f'input[name="head"][value="{head}"]',
                                                 ['#fig-004 .bench-head-line [data-bind="head"]']])
        assert shown == [[head]]
    page.evaluate(CLICK_THEN_FRAME, ['input[name="head"][value="coreference"]', [word]])
    for j in range(7):
        valve = f'#fig-004 .valve[data-index="{j}"]'
        page.evaluate(CLICK_THEN_FRAME, [valve, [word]])
        assert "shut" in page.get_attribute(valve, "class")
        assert shown_state(page)["weights"] == expected_state(shut=[j])["weights"]
        page.evaluate(CLICK_THEN_FRAME, [valve, [word]])
        assert "open" in page.get_attribute(valve, "class")
    page.goto(fresh.base + "lab/")
    until(page, TABLES_IN)
    page.wait_for_selector(".lab-controls:not([hidden])")
    page.wait_for_selector(".predict-choices:not([hidden])")
    out = '#fig-003 [data-bind="output"]'
    for i in range(3):
        mask = [j != i for j in range(3)]
        shown = page.evaluate(CLICK_THEN_FRAME, [f'input[name="mask"][value="{i}"]', [out]])
        assert shown == [[lab.view(mask=mask)["output"]["text"]]]
        page.evaluate(CLICK_THEN_FRAME, [f'input[name="mask"][value="{i}"]', [out]])
    shown = page.evaluate(CLICK_THEN_FRAME, ['button[data-guess="zero"]', [out]])
    assert shown == [["[0.667, 1.333]"]]  # the prediction's zero query: the values' average
    # Every answer above came from the tables: Python never got to answer one.
    assert fresh.page.get_attribute("#fig-003 .runtime-status", "data-state") in ("idle", "loading")
    held.release()


# Whether the page keeps n answers Python computed ahead and sent it (answers.js; until()).
COMPUTED = f"""async (n) => {{ const url = {ANSWERS_URL};
  return !!url && (await import(url)).computedSize() >= n; }}"""


def test_a_row_python_computed_ahead_is_drawn_in_the_clicks_own_task(fresh):
    """At 40 words no table holds the bench's states: once the page has waited, Python has
    computed every other row ahead and sent each answer to the page, so a click on one is
    drawn in its own task, with no trip to the worker, and with the core's numbers."""
    page = fresh.page
    page.goto(fresh.base + "bench/?sentence=" + quote(FORTY))  # nothing else computed ahead
    page.wait_for_selector('#fig-004 .runtime-status[data-state="ready"]', timeout=60000)
    page.wait_for_function("() => document.querySelectorAll('#fig-005 tbody tr').length === 40")
    heads = len(bench.HEADS) - 1
    until(page, COMPUTED, 39 + heads, timeout_s=60)  # every other row and head
    before = bench_view.view(sentence=FORTY)
    for row in (33, 12):  # each word unlike the one before: 'it', then 'left', then 'it'
        near = [f'#fig-005 tr[data-index="{k}"] .weight .num' for k in range(row - 2, row + 3)]
        shown = page.evaluate(CLICK_THEN_FRAME, [f'#fig-005 tr[data-index="{row}"] button',
                                                  ['#fig-005 [data-bind="query-word"]', *near], True])
        core = bench_view.view(sentence=FORTY, query=row)
        assert core["query"]["word"] != before["query"]["word"]
        assert shown == [[core["query"]["word"]]] + [[core["rows"][k]["weight"]["text"]]
                                                      for k in range(row - 2, row + 3)], row
        before = core
    page.wait_for_function(DRAWN)
    assert shown_state(page) == expected_state(sentence=FORTY, query=12)
    assert page.get_attribute("#fig-004 .runtime-status", "data-state") == "ready"


def test_a_state_outside_the_table_says_python_will_compute_it(fresh):
    page = fresh.page
    held = held_back(fresh, "bench/", ".bench-controls:not([hidden])")
    page.fill("#bench-sentence", "the pilot saw it")
    page.press("#bench-sentence", "Enter")
    status = page.locator("#fig-004 .runtime-status")
    status.filter(has_text="it will compute this state as soon as it is ready").wait_for()
    notice = page.locator("#fig-004 .figure-notice")
    assert notice.is_visible() and "Python is still loading" in notice.inner_text()
    assert "is-waiting" in page.get_attribute("#fig-004", "class")  # the old numbers, dimmed
    held.release()
    page.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"carriage-word\"]')"
                           ".textContent === 'it'", timeout=60000)
    assert status.inner_text() == "Live: Python in your browser computed this state."
    assert notice.is_hidden() and "is-waiting" not in page.get_attribute("#fig-004", "class")
    assert shown_state(page) == expected_state(sentence="the pilot saw it")


def test_a_shared_link_says_at_once_that_it_is_opening_its_state(fresh):
    page = fresh.page
    held = Held(page)
    page.goto(fresh.base + "bench/?sentence=the+farmer+saw+the+doctor+and+he+left&head=sink")
    notice = page.locator("#fig-004 .figure-notice")
    notice.wait_for()
    assert notice.inner_text().startswith("Opening the state from your link.")
    assert page.locator(".link-note").count() == 0  # the no-JavaScript sentence is gone
    held.release()
    page.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"head\"]')"
                           ".textContent === 'sink'", timeout=60000)
    notice.wait_for(state="hidden")
    assert shown_state(page) == expected_state(
        sentence="the farmer saw the doctor and he left", head="sink")


def test_a_link_to_a_state_one_click_away_is_drawn_without_python(fresh):
    """As Back does to a page left just after a click: the state at its address comes from the
    table, at once, while Python has not arrived."""
    page = fresh.page
    held = Held(page)
    page.goto(fresh.base + "mixture/?query=grid")
    page.wait_for_function("() => document.querySelector('#fig-002 [data-bind=query]')"
                           ".textContent === 'grid'", timeout=10000)
    assert page.inner_text('#fig-002 [data-bind="output"]') == figures.fig_002.data("grid")["output"]["text"]
    assert page.get_attribute(STATUS, "data-state") != "ready"  # no Python yet
    assert page.locator("#fig-002 .figure-notice").is_hidden()  # nothing left "opening"
    held.release()


def test_without_javascript_a_linked_figure_says_its_state_needs_javascript(no_js, server):
    page = no_js
    page.goto(server + "mixture/?query=grid")
    note = page.locator("#fig-002 .link-note")
    assert note.is_visible()
    assert note.inner_text() == (
        "Opened from a link to a particular state of this figure? That state needs JavaScript "
        "to show; this is the figure’s default state.")
    assert page.inner_text('#fig-002 [data-bind="query"]') == "rises"  # the default, as it says
    page.goto(server + "embed/fig-003/?q=0,0")
    assert page.locator("#fig-003 .link-note").is_visible()


def test_fig_001_numbers_download_without_starting_python(fresh):
    page = fresh.page
    page.goto(fresh.base + "roles/")
    until(page, TABLES_IN)
    page.click("#fig-001 .share summary")
    with page.expect_download() as info:
        page.click("#fig-001 .share button:has-text('Numbers as CSV')")
    assert info.value.path().read_text(encoding="utf-8") == export.to_csv(registry.export("fig-001"))
    assert fresh.workers == []  # no Python was started for it


# ---- the download of Python: asking first, progress, stalls and retries, offline ----

def test_a_slow_connection_asks_before_downloading_python(fresh, built_site):
    page = fresh.page
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 400,
                                                  "downloadThroughput": 400_000,
                                                  "uploadThroughput": 100_000})
    page.goto(fresh.base + "mixture/")
    assert page.evaluate("navigator.connection.effectiveType") == "3g"
    button = page.locator("#fig-002 .runtime-action")
    button.wait_for()
    # what this host sends, once asked (build.py serve compresses: brotli here)
    from tests.browser.test_before_python import runtime_bytes_sent
    megabytes = f"{runtime_bytes_sent(built_site, 'gzip, deflate, br, zstd') / 1e6:.1f} MB"
    page.wait_for_function("t => document.querySelector('#fig-002 .runtime-action').textContent === t",
                           arg=f"Load Python ({megabytes})")
    assert f"a one-time download of {megabytes}" in page.inner_text(STATUS)
    page.wait_for_timeout(500)
    assert fresh.workers == [] and page.get_attribute(STATUS, "data-state") == "asking"
    page.click('#fig-002 tr[data-query="load"] button')  # nearby states answer without the download
    assert page.inner_text('#fig-002 [data-bind="query"]') == "load"
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0,
                                                  "downloadThroughput": -1, "uploadThroughput": -1})
    button.click()
    page.wait_for_selector('#fig-002 .runtime-status[data-state="ready"]', timeout=60000)
    assert len(fresh.workers) == 1


class Trickle(SiteHandler):
    """Serve the runtime slowly, 100 kB at a time with a pause, as a slow network does."""

    def write_body(self, f, start, length):
        if not self.path.startswith("/runtime/"):
            return super().write_body(f, start, length)
        f.seek(start)
        left = length
        while left > 0 and (chunk := f.read(min(100_000, left))):
            self.wfile.write(chunk)
            left -= len(chunk)
            time.sleep(0.1)  # about 1 MB/s


@pytest.fixture
def slow_server(built_site):
    srv = SiteServer(("127.0.0.1", 0), functools.partial(Trickle, directory=str(built_site)),
                     built_site)
    srv.quiet, srv.encodings = True, False  # a host that does not compress: 17 MB at 1 MB/s
    yield start(srv)
    stop(srv)


STALL_3S = ("document.addEventListener('DOMContentLoaded', () => "
            "{ document.body.dataset.runtimeStall = '3000'; })")


def test_a_slow_download_shows_progress_and_never_times_out_while_bytes_arrive(browser,
                                                                              slow_server):
    context = browser.new_context(service_workers="block")
    # give up after 2 s without a byte (45 s on the site): less than NumPy's wheel takes here
    # (3 MB at 1 MB/s), which Pyodide asks for with an integrity hash, so that the browser
    # holds its bytes back until the last: it said "no data arrived" while they arrived
    context.add_init_script(STALL_3S.replace("3000", "2000"))
    page = context.new_page()
    page.goto(slow_server + "lab/")
    status = page.locator("#fig-003 .runtime-status")
    seen = set()
    said = []  # (when, what the status said), while loading
    start = time.monotonic()
    while page.get_attribute("#fig-003 .runtime-status", "data-state") != "ready":
        assert time.monotonic() - start < 120 and status.get_attribute("data-state") != "failed", \
            status.inner_text()
        seen.add(status.inner_text())
        said.append((time.monotonic(), status.inner_text()))
        page.wait_for_timeout(200)
    took = time.monotonic() - start
    # The share never sits still without a word of what the start is doing (review 4: 81 %
    # for 18 s): a text unchanged for 2.5 s names the step (the start takes seconds here).
    steps = ("starting its interpreter", "loading NumPy", "importing NumPy")
    since = 0
    for k in range(1, len(said) + 1):
        if k == len(said) or said[k][1] != said[since][1]:
            text, lasted = said[since][1], said[k - 1][0] - said[since][0]
            assert lasted < 2.5 or any(step in text for step in steps), (round(lasted, 1), text)
            since = k
    assert any(step in text for _, text in said for step in steps), sorted(seen)
    # a share of the download, not megabytes: those counted are unpacked (17.0 MB), and the
    # button offered a download of what the host sends (8.0 MB with brotli)
    shares = [re.search(r"\((\d+) %\)", t) for t in seen]
    progress = sorted({int(m.group(1)) for m in shares if m})
    assert took > 6 and len(progress) >= 3, (took, progress)  # slower than the stall limit
    assert all(0 <= p <= 100 for p in progress) and not any(" of " in t for t in seen)
    context.close()


def test_a_stalled_download_fails_in_plain_words_and_can_be_retried(fresh):
    page = fresh.page
    page.context.add_init_script(STALL_3S)
    held = Held(page)
    page.goto(fresh.base + "lab/")
    status = page.locator("#fig-003 .runtime-status")
    page.wait_for_selector('#fig-003 .runtime-status[data-state="failed"]', timeout=60000)
    assert status.inner_text().startswith("Python could not start here (no data arrived for 3 s).")
    button = page.locator("#fig-003 .runtime-action")
    assert button.inner_text() == "Try again"
    held.release()
    button.click()
    page.wait_for_selector('#fig-003 .runtime-status[data-state="ready"]', timeout=60000)
    page.fill("#lab-q1", "0.25")
    page.wait_for_function("() => document.querySelector('#fig-003 [data-bind=query]')"
                           ".textContent.startsWith('[0.250')", timeout=60000)
    assert len(fresh.workers) == 2  # the stalled one was ended


def test_offline_without_a_saved_runtime_says_so_in_plain_words(browser, built_site):
    with serving(built_site) as base:  # a fresh origin: nothing saved yet
        _offline_without_a_saved_runtime(browser, base)


def _offline_on_the_lab_with_nothing_saved(browser, base):
    """A visit that read only a chapter without live figures (the runtime is not saved), then
    went offline and opened the lab: return its context, watched page and page."""
    context = browser.new_context()
    w = watch(context, base)
    page = w.page
    read_until_saved(page, base)
    page.wait_for_timeout(1000)  # the site cache fills
    context.set_offline(True)
    page.goto(base + "lab/")
    return context, w, page


def _offline_without_a_saved_runtime(browser, base):
    context, w, page = _offline_on_the_lab_with_nothing_saved(browser, base)
    status = page.locator("#fig-003 .runtime-status")
    page.wait_for_selector('#fig-003 .runtime-status[data-state="failed"]', timeout=60000)
    text = status.inner_text()
    assert text.startswith("You are offline, and Python was never saved on this device")
    assert "Failed to fetch" not in text and "import" not in text
    page.click('input[name="mask"][value="0"]')  # a state one step away still answers
    page.wait_for_function("() => document.querySelector('#fig-003 [data-bind=output]').textContent"
                           f" === {lab.view(mask=[False, True, True])['output']['text']!r}")
    context.close()
    assert w.page_errors == []


def test_offline_a_valid_input_says_python_is_not_available_not_that_the_input_is_wrong(browser, built_site):
    """Offline, on a device that never saved Python, a lab input no table holds cannot be
    computed: the lab says why at its controls. It said "fix the input above" of a valid input."""
    with serving(built_site) as base:  # a fresh origin: nothing saved yet
        context, w, page = _offline_on_the_lab_with_nothing_saved(browser, base)
        page.wait_for_selector('#fig-003 .runtime-status[data-state="failed"]', timeout=60000)
        page.fill("#lab-q1", "2")  # a valid query no table holds
        at_controls = page.locator("#fig-003 .lab-controls #lab-runtime-msg")
        at_controls.filter(has_text="Python is not available offline").wait_for()
        assert at_controls.inner_text() == (
            "Python is not available offline on this device (it was never saved here), so this input "
            "cannot be checked or computed; the numbers shown are for the last one that could.")
        notice = page.locator('#fig-003 [data-bind="stale"]')
        assert notice.is_visible() and "fix the input" not in notice.inner_text()
        assert "Python, which checks and computes each input, is not available here" in notice.inner_text()
        assert page.inner_text('#fig-003 [data-whatif="status"]') == (
            "These rows are for the last state that could be computed; Python is not available "
            "here to check and compute this one.")
        assert page.locator("#fig-003 [aria-invalid]").count() == 0  # no field is wrong
        assert page.inner_text("#lab-q1-msg") == ""
        page.fill("#lab-q1", "1")  # back to a state the tables hold: current again
        page.wait_for_selector("#fig-003:not(.is-stale)")
        assert at_controls.inner_text() == "" and notice.is_hidden()
        context.close()
        assert w.page_errors == []


def test_a_phone_asks_before_downloading_python(browser, server):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True, service_workers="block")
    w = watch(context, server)
    workers = w.workers
    w.page.goto(server + "bench/")
    button = w.page.locator("#fig-004 .runtime-action")
    button.wait_for()
    assert button.inner_text().startswith("Load Python (") and workers == []
    w.page.click('#fig-005 tr[data-index="1"] button')  # one step away: answered at once
    assert w.page.text_content('#fig-005 [data-bind="query-word"]') == "engineer"
    w.page.wait_for_function(DRAWN)  # the drawing, off screen above the rows, once idle
    assert w.page.text_content('#fig-004 [data-bind="carriage-word"]') == "engineer"
    w.page.fill("#bench-sentence", "the pilot saw it")
    w.page.press("#bench-sentence", "Enter")  # needs Python: it says so, and still waits
    status = w.page.locator("#fig-004 .runtime-status")
    status.filter(has_text="This state needs Python").wait_for()
    assert workers == []
    context.close()
    w.console_errors = [e for e in w.console_errors if "Service Worker" not in e]
    w.assert_clean()


LINKED = {"#fig-004": "embed/fig-004/", "#fig-005": "embed/fig-005/", "#fig-006": "embed/fig-006/",
          "#fig-008": "embed/fig-008/"}


def test_without_javascript_every_bench_figure_says_a_links_state_needs_javascript(browser, server):
    """FIG-004 to FIG-006 and FIG-008 read their state from a link, as FIG-002 does."""
    from attention import bench

    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server + "bench/?sentence=the+farmer+saw+the+doctor+and+he+left&head=sink")
    for figure in LINKED:
        note = page.locator(f"{figure} .link-note")
        assert note.count() == 1 and note.is_visible(), figure
        note.scroll_into_view_if_needed()  # (later figures render once near the view)
        assert "needs JavaScript" in note.text_content()  # (its text, rendered or not yet)
    assert page.text_content('#fig-004 .bench-head-line [data-bind="head"]') == "coreference"  # the default, as it says
    assert page.text_content('#fig-004 [data-bind="carriage-word"]') == bench.DEFAULT_SENTENCE[-2]
    for figure, embed in LINKED.items():  # an embedded figure says so too
        page.goto(server + embed + "?head=sink")
        assert page.locator(f"{figure} .link-note").is_visible(), embed
    context.close()


def test_with_javascript_the_bench_figures_drop_the_note(fresh):
    page = fresh.page
    page.goto(fresh.base + "bench/")
    page.wait_for_selector("#fig-004 .bench-controls:not([hidden])", timeout=60000)  # mounted
    assert page.locator(".link-note").count() == 0
def test_a_what_if_toggle_before_python_is_ready_shows_the_cores_numbers(fresh):
    """Each what-if toggle on the bench and the lab is one click from the first state: with
    Python held back, ticking it draws both rows, and on the bench the ghosts, at once."""
    page = fresh.page
    held = Held(page)
    page.goto(fresh.base + "bench/")
    until(page, TABLES_IN)
    page.wait_for_selector("#fig-004 .whatif-toggles:not([hidden])")
    page.wait_for_selector('#fig-004 .runtime-status[data-state="loading"]')
    reads = ['#fig-004 [data-whatif="cf"]', '#fig-004 [data-whatif="sentence"]',
             "#fig-004 .ghosts .ghost"]
    for step in ("scale", "mask", "shift"):
        box = f'#fig-004 .whatif input[value="{step}"]'
        shown = page.evaluate(CLICK_THEN_FRAME, [box, reads])
        w = bench_view.view(without=[step])["whatif"]
        assert shown[0] == [k["counterfactual"]["text"] for k in w["keys"]]
        assert shown[1] == [w["sentence"]]
        assert len(shown[2]) == sum(k["open"] for k in w["keys"])  # a ghost per open key
        page.evaluate(CLICK_THEN_FRAME, [box, reads])  # untick: the first state, from the table
    page.goto(fresh.base + "lab/")
    until(page, TABLES_IN)
    page.wait_for_selector("#fig-003 .whatif-toggles:not([hidden])")
    for step in ("scale", "shift"):
        box = f'#fig-003 .whatif input[value="{step}"]'
        shown = page.evaluate(CLICK_THEN_FRAME, [box, ['#fig-003 [data-whatif="cf"]']])
        w = lab.view(without=[step])["whatif"]
        assert shown == [[k["counterfactual"]["text"] for k in w["keys"]]]
        page.evaluate(CLICK_THEN_FRAME, [box, ['#fig-003 [data-whatif="cf"]']])
    assert page.get_attribute("#fig-003 .runtime-status", "data-state") in ("idle", "loading")
    held.release()


# Record when the page writes its address, and when the frame after a click has been drawn.
ADDRESS_PROBE = """() => { window.__writes = [];
  const replace = history.replaceState.bind(history);
  history.replaceState = (...args) => { window.__writes.push(performance.now()); return replace(...args); }; }"""
CLICK_AND_FRAME = within(10, """(click) => new Promise(resolve => {
  const writesBefore = window.__writes.length;
  document.querySelector(click).click();
  requestAnimationFrame(() => resolve({ writesInClick: window.__writes.length - writesBefore,
                                        frameAt: performance.now() }));
})""")


def test_a_clicks_frame_does_not_wait_for_the_address_and_the_address_follows(fresh):
    """history.replaceState costs ~10 ms in Chromium: it is called after the frame that shows
    the answer, and the address then holds the new state (a copied link reopens it)."""
    page = fresh.page
    page.add_init_script(script=f"({ADDRESS_PROBE})()")
    held = held_back(fresh, "mixture/", "#fig-002 " + MOUNTED)
    result = page.evaluate(CLICK_AND_FRAME, '#fig-002 tr[data-query="grid"] button')
    assert result["writesInClick"] == 0  # answered from the table, drawn, address not yet written
    page.wait_for_function("() => location.search.includes('grid')")
    writes = page.evaluate("window.__writes")
    assert writes and max(writes) > result["frameAt"]
    held.release()
