"""One Python per visit, in real Chromium: the site's own links swap the page in place, so one
worker serves every chapter, and the swap does all a real navigation does; anything unusual
falls back to an ordinary page load."""

from __future__ import annotations

import functools
import re
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from attention import figures
from sitebuild.serve import SiteHandler, SiteServer
from tests.browser.conftest import FRAMES, routable, start, stop, watch, within
from tests.browser.test_bench_page import DRAWN

KEEP = "() => { window.__same_document = true; }"
SAME = "() => window.__same_document === true"
TUCKED = "() => document.querySelector('.site-header').classList.contains('is-tucked')"


@pytest.fixture
def visit(desktop):
    return desktop  # its workers are recorded: one per visit


STATUS = """() => [...document.querySelectorAll('.runtime-status')]
    .map((s) => `${s.closest('[id]')?.id}: ${s.dataset.state} "${s.textContent.trim()}"`)
    .concat([`service worker: ${navigator.serviceWorker?.controller?.state || "none"}`,
             `loads: ${performance.getEntriesByType("navigation").length}`])"""


def ready(page, figure: str, timeout: int = 150000):  # a start that hangs is made again after 90 s (runtime.js)
    """Wait until the figure's Python is ready. A start that stopped answering twice (in CI,
    under a busy machine, once in some hundreds of starts, while importing NumPy: not seen
    outside a full run) is tried again as a reader would, by the page's "Try again", once
    (said on the test's captured stderr)."""
    selector = f'#{figure} .runtime-status[data-state="ready"]'
    try:
        page.wait_for_selector(selector, timeout=timeout)
        return
    except Exception as exc:  # say what the page says instead: loading, failed, or no status at all
        said = page.evaluate(STATUS)
        if not any("stopped answering" in line for line in said):
            raise AssertionError(f"#{figure} not ready; the page's status lines: {said}") from exc
    print(f"Python's start stopped answering on the shared page, tried again: {said}", file=sys.stderr)
    page.click(f"#{figure} .runtime-action")
    try:
        page.wait_for_selector(selector, timeout=timeout)
    except Exception as exc:
        raise AssertionError(f"#{figure} not ready after Try again; the page's status lines: "
                             f"{page.evaluate(STATUS)}") from exc


def follow(page, selector: str):
    """Click one of the page's links and wait until its page is in place."""
    before = page.evaluate_handle("document.querySelector('main')")  # a handle: the element itself
    page.click(selector)
    # swapped in, and its figures mounted: the swap's last step focuses the new heading
    page.wait_for_function("""old => document.querySelector('main') !== old
        && document.activeElement === document.querySelector('main h1')""", arg=before)


def test_one_worker_serves_mixture_lab_and_bench_and_back(visit):
    page = visit.page
    page.goto(visit.base + "mixture/")
    ready(page, "fig-002")
    page.evaluate(KEEP)
    follow(page, '.site-header a[href="../lab/"]')
    ready(page, "fig-003", timeout=2000)  # live at once: no second boot
    assert page.url == visit.base + "lab/" and page.evaluate(SAME)
    assert page.title() == "The lab: move the query · Attention Bench"
    assert page.evaluate("document.activeElement.tagName") == "H1"
    assert page.evaluate("document.activeElement.textContent") == "The lab: move the query"
    page.wait_for_function("() => document.querySelector('#page-announcer').textContent === "
                           "'Page loaded: The lab: move the query · Attention Bench'")
    assert page.get_attribute('.site-header a[aria-current="page"]', "href") == "../lab/"
    assert page.get_attribute('meta[name="description"]', "content").startswith("Change the query")
    page.fill("#lab-q1", "0")
    page.fill("#lab-q2", "0")
    page.wait_for_function("() => document.querySelector('#fig-003 [data-bind=output]').textContent"
                           " === '[0.667, 1.333]'", timeout=10000)
    follow(page, '.site-header a[href="../bench/"]')
    ready(page, "fig-004", timeout=2000)
    page.click('#fig-005 tr[data-index="1"] button')
    page.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"carriage-word\"]')"
                           ".textContent === 'engineer'")
    page.go_back()
    page.wait_for_selector("#fig-003")
    ready(page, "fig-003", timeout=2000)
    assert page.url == visit.base + "lab/?q=0%2C0&mask=1%2C1%2C1&t=1"  # as the reader left it
    page.wait_for_function("() => document.querySelector('#lab-q1').value === '0'")
    page.go_back()
    page.wait_for_selector("#fig-002")
    ready(page, "fig-002", timeout=2000)
    assert page.evaluate(SAME) and len(visit.workers) == 1  # one worker, the build's own script
    assert re.fullmatch(re.escape(visit.base) + r"static/js/worker\.[0-9a-f]{10}\.js", visit.workers[0])


def test_from_the_home_page_a_chapter_swaps_in_with_nothing_fetched_from_wrong_addresses(visit):
    """The home page sits one folder above the chapters: its relative links must not be read
    against the chapter's address once the address changes (/roles/roles/, /lab/static/…)."""
    page = visit.page
    missing = []
    page.on("response", lambda r: r.status >= 400 and missing.append(r.url))
    page.goto(visit.base)
    page.evaluate(KEEP)
    page.hover('.site-header a[href="roles/"]')
    follow(page, '.site-header a[href="roles/"]')
    assert page.url == visit.base + "roles/" and page.evaluate(SAME)  # in place, not reloaded
    assert page.evaluate("document.activeElement.textContent") == "One state, three roles"
    page.hover('.site-header a[href="../lab/"]')  # the new page's links are its own
    follow(page, '.site-header a[href="../lab/"]')
    ready(page, "fig-003")
    page.go_back()
    page.go_back()
    page.wait_for_url(visit.base)
    page.wait_for_selector(".site-header a[href='roles/']")
    assert page.evaluate(SAME)
    page.wait_for_timeout(300)  # the icon and any prefetch would have been asked for by now
    assert missing == []


def test_back_and_forward_restore_the_scroll_position(booted):
    page = booted.open("mixture/")  # itself opened in place, on the worker's shared page
    ready(page, "fig-002")  # settled: nothing above the link changes height after this
    page.evaluate(KEEP)
    link = page.locator(".pager a.next")
    link.scroll_into_view_if_needed()
    y = page.evaluate("scrollY")
    assert y > 1000
    follow(page, ".pager a.next")
    page.wait_for_function("() => scrollY === 0")  # a new page starts at its top
    page.evaluate("scrollTo(0, 600)")
    page.go_back()
    page.wait_for_selector("#fig-002")
    page.wait_for_function(f"() => Math.abs(scrollY - {y}) < 2")
    page.go_forward()
    page.wait_for_selector("#fig-003")
    page.wait_for_function("() => Math.abs(scrollY - 600) < 2")
    assert page.evaluate(SAME)


# Until 300 ms after the swap, the page is shorter than the position to come back to, as a
# page still waiting for its fonts or a figure would be.
SHORT_AT_FIRST = """() => { const sheet = new CSSStyleSheet();
  sheet.replaceSync('main { max-height: 200px; overflow: hidden; }');
  document.adoptedStyleSheets = [sheet];
  navigation.addEventListener('navigatesuccess',
    () => setTimeout(() => { document.adoptedStyleSheets = []; }, 300), { once: true }); }"""


def test_back_comes_back_to_the_position_once_the_page_is_tall_enough(booted):
    page = booted.open("mixture/")  # itself opened in place, on the worker's shared page
    ready(page, "fig-002")
    page.locator(".pager a.next").scroll_into_view_if_needed()
    y = page.evaluate("scrollY")
    assert y > 1000
    follow(page, ".pager a.next")
    page.evaluate(SHORT_AT_FIRST)
    page.go_back()
    page.wait_for_selector("#fig-002")
    page.wait_for_function(f"() => Math.abs(scrollY - {y}) < 2", timeout=5000)


ADD_LINK = """href => { const a = document.createElement('a'); a.href = href; a.id = 'test-link';
  a.textContent = 'a link'; document.querySelector('main p').append(a); }"""


# Where the figure is, and where a link lands it: below the header (scroll-padding-top) by its
# own scroll-margin-top (as tests/engines/test_kept_place.py reads it).
LANDED = """(id) => { const e = document.getElementById(id);
  const want = (parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0)
    + (parseFloat(getComputedStyle(e).scrollMarginTop) || 0);
  return [e.getBoundingClientRect().top, want]; }"""


def test_an_anchor_and_the_new_pages_address_state_are_applied(booted):
    page = booted.open("lab/")  # itself opened in place, on the worker's shared page
    page.evaluate(KEEP)
    page.evaluate(ADD_LINK, "../mixture/?query=grid#fig-002")
    follow(page, "#test-link")
    page.wait_for_function(
        "() => document.querySelector('#fig-002 [data-bind=query]')?.textContent === 'grid'")
    grid = figures.fig_002.data("grid")["output"]["text"]
    assert page.inner_text('#fig-002 [data-bind="output"]') == grid
    # scrolled to the anchor, below the header as a link loaded in full lands it (the header's
    # room once read 0, from the header the swap had taken out, in most swaps, not all)
    top, want = page.evaluate(LANDED, "fig-002")
    assert want > 40 and abs(top - want) <= 1, (top, want)
    assert page.evaluate(SAME) and page.url.endswith("/mixture/?query=grid#fig-002")


def test_without_the_navigation_api_links_are_plain_links(browser, server):
    context = browser.new_context()
    context.add_init_script("Object.defineProperty(window, 'navigation', {value: undefined});")
    w = watch(context, server)
    page = w.page
    page.goto(server + "roles/")
    page.evaluate(KEEP)
    page.click('.site-header a[href="../mixture/"]')
    page.wait_for_url(server + "mixture/")
    page.wait_for_selector("#fig-002 .fig-hint:not([hidden])")
    assert not page.evaluate(SAME)  # an ordinary load
    assert page.title().startswith("From scores to a mixture")
    page.click('#fig-002 tr[data-query="grid"] button')
    page.wait_for_function(
        "() => document.querySelector('#fig-002 [data-bind=query]').textContent === 'grid'")
    context.close()
    w.assert_clean()


def test_pages_with_modules_of_their_own_and_missing_pages_load_normally(visit):
    page = visit.page
    page.goto(visit.base + "roles/")
    page.evaluate(KEEP)
    page.click('.site-header a[href="../embed/"]')  # the guide has a module of its own
    page.wait_for_function("() => !window.__same_document && document.querySelector('.guide-base:not([hidden])')")
    assert not page.evaluate(SAME) and page.url == visit.base + "embed/"
    page.evaluate(KEEP)
    page.evaluate(ADD_LINK, "../no-such-page/")  # not a page: the server's own answer, in full
    page.click("#test-link")
    page.wait_for_url(visit.base + "no-such-page/")
    page.wait_for_function("() => !window.__same_document")
    visit.console_errors = [e for e in visit.console_errors if "404" not in e]


def test_embed_links_open_their_own_documents(visit):
    page = visit.page
    page.goto(visit.base + "embed/fig-002/")
    assert page.evaluate("[...document.scripts].some(s => s.src.endsWith('/nav.js'))") is False
    assert page.get_attribute("base", "target") == "_blank"  # its links open the site anew


class NewBuild(SiteHandler):
    """Serve the lab as a newer build would: its body carries another build id."""

    def do_GET(self):
        if self.path != "/lab/":
            return super().do_GET()
        html = (Path(self.server.root) / "lab" / "index.html").read_text(encoding="utf-8")
        body = html.replace("<body ", '<body data-build="newer" ', 1).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def serving_with(handler: type[SiteHandler], folder: Path):
    """Serve folder through handler on a free port of 127.0.0.1 for the with-block."""
    srv = SiteServer(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)), folder)
    srv.quiet, srv.encodings = True, True
    try:
        yield start(srv)
    finally:
        stop(srv)


def test_a_page_of_another_build_loads_in_full(browser, built_site):
    with serving_with(NewBuild, built_site) as base:
        context = browser.new_context()
        page = context.new_page()
        page.goto(base + "mixture/")
        page.evaluate(KEEP)
        page.click('.site-header a[href="../lab/"]')
        page.wait_for_function("() => !window.__same_document && document.querySelector('#fig-003')")
        assert page.get_attribute("body", "data-build") == "newer"  # the new build's own document
        ready(page, "fig-003")
        context.close()


def current(page) -> list[str]:
    return page.eval_on_selector_all('.site-header a[aria-current="page"]', "els => els.map(a => a.textContent)")


def test_claims_and_sources_is_in_the_header_and_marked_current_like_a_chapter(visit):
    """Claims & sources in the main navigation, swapped in place like the rest."""
    page = visit.page
    page.goto(visit.base + "roles/")
    page.evaluate(KEEP)
    assert current(page) == ["Three roles"]
    follow(page, '.site-header nav a[href="../claims/"]')
    assert page.url == visit.base + "claims/" and page.evaluate(SAME)  # in place: no reload
    assert current(page) == ["Claims & sources"]
    assert page.evaluate("document.activeElement.textContent") == "Claims & sources"  # its heading
    follow(page, '.site-header nav a[href="../mixture/"]')
    assert current(page) == ["Scores to a mixture"] and page.evaluate(SAME)
    page.go_back()
    page.wait_for_function("() => document.querySelector('h1').textContent === 'Claims & sources'")
    assert current(page) == ["Claims & sources"]


@pytest.mark.parametrize("width", [360, 1280])
def test_the_header_reads_at_360_and_keeps_one_row_at_1280(browser, server, width):
    """At 1280 px every link is on one row. On a phone the header took 135 px, 18 % of a
    740 px screen, on every page and again on every scroll up (review 4, Ugly 1): the links
    wrapped into three rows. Now they are one row that scrolls sideways, under the site's
    name, and the page's own link is in view."""
    context = browser.new_context(viewport={"width": width, "height": 740})
    page = context.new_page()
    seen = {}
    for path in ("claims/", "lab/", ""):
        page.goto(server + path)
        seen[path] = page.evaluate("""() => {
            const nav = document.querySelector('.site-header nav').getBoundingClientRect();
            const box = (a) => {
                const r = a.getBoundingClientRect();
                return {text: a.textContent, lines: a.getClientRects().length, left: r.left, right: r.right,
                        top: Math.round(r.top), current: a.getAttribute('aria-current') === 'page',
                        size: parseFloat(getComputedStyle(a).fontSize)}; };
            const all = [...document.querySelectorAll('.site-header a')];
            return {links: all.filter(a => !a.closest('.languages')).map(box),
                    languages: all.filter(a => a.closest('.languages') && a.offsetParent).map(box),
                    nav: [nav.left, nav.right],
                    height: document.querySelector('.site-header').getBoundingClientRect().height}; }""")
    context.close()
    links = seen["claims/"]["links"]
    texts = [a["text"] for a in links]
    assert texts[-2:] == ["For teachers", "Claims & sources"]
    for a in links:
        assert a["lines"] == 1, a  # no label breaks
        assert a["size"] >= 14, a  # readable
    for a, b in zip(links[1:], links[2:]):  # in reading order, none on top of another
        assert b["top"] == a["top"] and b["left"] >= a["right"], (a, b)
    # the other editions' names (the page's own is left out), on the site's name's row, whole,
    # in the window, and clear of the links before them
    name = links[0]
    for path, got in seen.items():
        assert [a["text"] for a in got["languages"]] == ["العربية", "简体中文"], path
        for a in got["languages"]:
            # (on the name's baseline: a few px lower than the bold name's box)
            assert a["lines"] == 1 and abs(a["top"] - name["top"]) <= 6 and 0 <= a["left"] and a["right"] <= width, (path, a)
            assert a["left"] >= max(b["right"] for b in got["links"] if abs(b["top"] - a["top"]) <= 6), (path, a)
    if width == 1280:
        assert all(0 <= a["left"] and a["right"] <= width for a in links)
        assert seen["claims/"]["height"] <= 60
    else:
        for path, got in seen.items():
            assert got["height"] <= 80, (path, got["height"])  # was 135
            left, right = got["nav"]
            shown = [a for a in got["links"][1:] if a["left"] >= left - 0.5 and a["right"] <= right + 0.5]
            assert [a["current"] for a in got["links"]].count(True) == 1, path
            assert all(a in shown for a in got["links"] if a["current"]), path  # its own link in view
            assert len(shown) < len(got["links"]) - 1, path  # the rest scroll into view


def document_listeners(page, kind: str) -> int:
    """How many listeners of this event type the document has, as Chromium's debugger sees them."""
    cdp = page.context.new_cdp_session(page)
    document = cdp.send("Runtime.evaluate", {"expression": "document"})["result"]["objectId"]
    found = cdp.send("DOMDebugger.getEventListeners", {"objectId": document})["listeners"]
    cdp.detach()
    return sum(1 for listener in found if listener["type"] == kind)


def test_the_prediction_reaches_the_one_live_lab_through_its_store_after_swaps(booted):
    """The prediction asks the lab for its query through the store they share (data-group),
    not through the document: each swap mounts both anew, and nothing is left listening on
    the document (on the worker's shared page, after every page other tests opened in it).
    lab.js listened on the document for a "lab:query" event, and had to let go of it."""
    page = booted.open("lab/")
    page.wait_for_selector("#fig-003 .lab-controls:not([hidden])")
    page.evaluate(KEEP)
    assert document_listeners(page, "lab:query") == 0
    for _ in range(2):  # away and back, in place
        follow(page, '.site-header a[href="../mixture/"]')
        follow(page, '.site-header a[href="../lab/"]')
        page.wait_for_selector("#fig-003 .lab-controls:not([hidden])")
    assert page.evaluate(SAME) and document_listeners(page, "lab:query") == 0
    ready(page, "fig-003")
    page.click('button[data-guess="zero"]')  # the prediction still reaches the one live lab
    page.wait_for_function("() => document.querySelector('#lab-q1').value === '0'"
                           " && document.querySelector('#lab-q2').value === '0'", timeout=30000)


def test_skip_to_the_content_stays_on_the_page_swapped_in(visit):
    """The skip link (#main) is not part of the swapped <main>: it must lead into the page on
    screen, not back to the first page of the visit."""
    page = visit.page
    page.goto(visit.base + "mixture/")
    ready(page, "fig-002")
    page.evaluate(KEEP)
    follow(page, '.site-header a[href="../lab/"]')
    assert page.evaluate("document.querySelector('a.skip').href") == visit.base + "lab/#main"
    page.focus("a.skip")
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.hash === '#main'")
    assert page.url == visit.base + "lab/#main" and page.evaluate(SAME)
    assert page.title() == "The lab: move the query · Attention Bench"


# A row chosen, then at once one of the site's links followed, in the same moment: the
# address write for the row is still waiting when the link's navigation starts.
CHOOSE_THEN_FOLLOW = """() => {
  document.querySelector('#fig-002 tr[data-query="grid"] button').click();
  document.querySelector('.pager a.next').click();
}"""


def test_a_link_followed_just_after_a_change_is_followed_and_back_keeps_the_change(booted):
    page = booted.open("mixture/")
    ready(page, "fig-002")
    page.evaluate(KEEP)
    page.evaluate(CHOOSE_THEN_FOLLOW)
    page.wait_for_function("() => location.pathname.endsWith('/lab/')"
                           " && document.activeElement === document.querySelector('main h1')")
    assert page.evaluate(SAME)  # in place
    page.go_back()
    page.wait_for_function("() => document.querySelector('#fig-002 [data-bind=query]')"
                           "?.textContent === 'grid'")
    assert page.url.endswith("/mixture/?query=grid")  # the row chosen before leaving, kept


# A row of the bench's working chosen, and Back pressed the moment its state is drawn: the
# address write for the row waits for the next frame, so it still waits when Back starts.
CHOOSE_THEN_BACK = within(10, """row => new Promise((resolve) => {
  const word = document.querySelector('#fig-004 [data-bind="carriage-word"]');
  new MutationObserver((_, seen) => { seen.disconnect(); history.back(); resolve(); })
    .observe(word, { childList: true, characterData: true, subtree: true });
  document.querySelector(`#fig-005 tr[data-index="${row}"] button`).click();
})""")


def test_back_at_once_after_a_change_goes_back_and_forward_returns_to_the_change(booted):
    """Back the moment after a click is stopped, the click's address written, and Back started
    again. Started again at once, Chromium answered "Invalid key" (it had not yet heard that
    the first Back was stopped) and the reader stayed where they were."""
    page = booted.open("lab/")
    ready(page, "fig-003")
    page.evaluate(KEEP)
    follow(page, '.site-header a[href="../bench/"]')
    ready(page, "fig-004", timeout=2000)
    for row in (1, 2, 1):  # each a change from the state before it (the bench opens on "she")
        word = page.text_content(f'#fig-005 tr[data-index="{row}"] button')  # once it is a button
        page.evaluate(CHOOSE_THEN_BACK, row)
        # the lab, swapped in, with focus back on the link the reader followed from it
        page.wait_for_function("() => document.querySelector('#fig-003') && document.activeElement"
                               " === document.querySelector('.site-header a[href=\"../bench/\"]')",
                               timeout=5000)
        page.go_forward()
        page.wait_for_function("w => document.querySelector('#fig-004 [data-bind=\"carriage-word\"]')"
                               "?.textContent === w", arg=word, timeout=5000)
        assert page.url == booted.base + f"bench/?head=coreference&query={row}&t=1"  # the click kept
    assert page.evaluate(SAME)  # every step in place


# The lab's query changed (Python computes it: no table holds 0.37), and at once a link to the
# bench followed: the lab's answer arrives once the bench's address is shown.
CHANGE_THEN_LEAVE = """() => {
  const q1 = document.querySelector('#lab-q1');
  q1.value = '0.37';
  q1.dispatchEvent(new Event('input', { bubbles: true }));
  document.querySelector('.site-header a[href="../bench/"]').click();
}"""


class SlowBench(SiteHandler):
    """Serve the bench's page a second and a half late: a page swap waits for it."""

    def do_GET(self):
        if self.path == "/bench/":
            time.sleep(1.5)
        return super().do_GET()


def test_an_answer_for_the_page_left_is_not_written_into_the_next_pages_address(browser, built_site):
    """An answer that arrives after the reader has left its page (while the next one loads)
    belongs to that page. It was written into the next page's address (/bench/?q=0.37%2C1…):
    that write stopped the bench from coming in (a history write cancels the navigation under
    way), or, where the bench was in already, made it open on a link it did not understand
    (Forward after Back lost what the reader had chosen there)."""
    # every page from the slow server: no service worker answers in its place
    with serving_with(SlowBench, built_site) as base, routable(browser, base) as w:
        page = w.page
        page.goto(base + "lab/")
        ready(page, "fig-003")
        page.evaluate(KEEP)
        page.evaluate(CHANGE_THEN_LEAVE)
        page.wait_for_function("() => document.querySelector('#fig-004')"  # the bench, swapped in
                               " && document.activeElement === document.querySelector('main h1')",
                               timeout=10000)
        ready(page, "fig-004", timeout=2000)
        page.evaluate(FRAMES)  # the bench's first answers drawn, and its address written if at all
        page.wait_for_timeout(300)  # and whatever waits for an idle page (address.js: 200 ms at most)
        assert page.url == base + "bench/"
        assert page.text_content("#fig-004 .state-notice") == ""  # no link it did not understand
        assert page.evaluate(SAME)


@pytest.mark.parametrize("width", [1280, 360])
def test_back_after_a_header_link_comes_back_to_where_the_reader_was(booted, width):
    """Deep in a chapter, a short scroll up brings the header down over the page; a chapter
    chosen there, then Back, comes back to that place, as after a link in the text. The header
    sat at the top of the page, so reaching it meant scrolling there, and Back landed at the top."""
    page = booted.open("mixture/", width=width)
    ready(page, "fig-002")  # settled: nothing above changes height after this
    page.evaluate(KEEP)
    page.mouse.move(width // 2, 400)
    page.mouse.wheel(0, 1700)  # reading down the chapter: the header tucks away
    page.wait_for_function("() => scrollY >= 1600")
    header = page.locator(".site-header")
    page.wait_for_function("() => document.querySelector('.site-header').classList.contains('is-tucked')")
    page.mouse.wheel(0, -120)  # a short scroll up: the header comes down over the page
    page.wait_for_function("() => !document.querySelector('.site-header').classList.contains('is-tucked')")
    page.wait_for_timeout(300)  # its slide ends
    assert header.bounding_box()["y"] == 0
    y = page.evaluate("scrollY")
    assert y > 1400
    # the reader's tap where the link is on screen (page.click would first scroll the page to
    # where the sticky header's link would be without stickiness)
    box = page.locator('.site-header a[href="../lab/"]').bounding_box()
    before = page.evaluate_handle("document.querySelector('main')")
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function("""old => document.querySelector('main') !== old
        && document.activeElement === document.querySelector('main h1')""", arg=before)
    assert page.evaluate(SAME) and page.url.endswith("/lab/")
    page.go_back()
    page.wait_for_function("() => document.querySelector('#fig-002')")
    page.wait_for_function(f"() => Math.abs(scrollY - {y}) < 2", timeout=5000)
    assert page.evaluate(SAME)


def test_a_place_kept_by_the_browser_is_no_scroll_of_the_readers(booted):
    """A row clicked in FIG-005 redraws FIG-004 above it 22 px shorter or taller, and Chromium
    scrolls by as much to keep the table where it was (scroll anchoring). The header read
    that scroll as the reader's: tucked away, it came down over the page at a click."""
    page = booted.open("bench/", width=1280)
    ready(page, "fig-004")
    heights, kept = set(), 0
    for word in (0, 2, 1, 5):
        row = f'#fig-005 tr[data-index="{word}"] button'
        page.eval_on_selector(row, "(b) => b.scrollIntoView({block: 'center'})")
        page.wait_for_timeout(300)
        before = page.evaluate(TUCKED)
        y = page.evaluate("scrollY")
        page.click(row)
        page.wait_for_function(f"() => document.querySelector('{row}').getAttribute('aria-pressed') === 'true'")
        page.wait_for_function(DRAWN)
        page.wait_for_timeout(300)
        heights.add(page.evaluate("document.querySelector('#fig-004').offsetHeight"))
        if page.evaluate("scrollY") != y:  # the browser kept the place: the header stays as it was
            kept += 1
            assert page.evaluate(TUCKED) == before, word
    assert len(heights) > 1 and kept > 0


@pytest.mark.parametrize("shown", [True, False])
def test_a_place_kept_after_the_address_changed_is_no_scroll_of_the_readers(booted, shown):
    """Rows clicked one after another, with no scroll between: each click writes its state
    into the address (?query=3), which the Navigation API reports as a navigation. The header
    took that for a new page and forgot where the page's blocks were, so the browser's next
    kept place read as the reader's scroll: the header slid away and back at every other click."""
    page = booted.open("bench/", width=1280)
    ready(page, "fig-004")
    page.eval_on_selector('#fig-005 tr[data-index="3"]', "(row) => row.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(300)
    page.mouse.move(640, 400)
    page.mouse.wheel(0, -120 if shown else 120)  # the reader's own scroll: the header down, or away
    page.wait_for_function(f"() => document.querySelector('.site-header').classList.contains('is-tucked') === {str(not shown).lower()}")
    page.wait_for_timeout(300)
    heights, kept = set(), 0
    for word in (2, 0, 3, 1, 4, 6, 5):
        row = f'#fig-005 tr[data-index="{word}"] button'
        box = page.locator(row).bounding_box()
        y = page.evaluate("scrollY")
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function(f"() => document.querySelector('{row}').getAttribute('aria-pressed') === 'true'")
        page.wait_for_function(DRAWN)
        page.wait_for_timeout(500)  # the address written (when the page is idle) and any scroll judged
        heights.add(page.evaluate("document.querySelector('#fig-004').offsetHeight"))
        kept += page.evaluate("scrollY") != y
        assert page.evaluate(TUCKED) is not shown, word
    assert len(heights) > 1 and kept > 1


@pytest.mark.parametrize("path", ["/bench/?query=3", "/embed/fig-002/?query=grid&theme=dark"])
def test_an_address_with_a_doubled_slash_still_keeps_the_state(visit, path):
    """A tampered or mistyped address, http://host//bench/: its path starts "//", which the
    history API read as another host ("//bench/…") and refused with a SecurityError, so the
    state was never written back and the page threw."""
    page = visit.page
    page.goto(visit.base + path)  # base ends with "/": the path begins "//"
    assert page.evaluate("location.pathname").startswith("//")
    if "bench" in path:
        page.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"carriage-word\"]')"
                               ".textContent === 'the₃'")  # the second "the"
        page.click('#fig-005 tr[data-index="1"] button')
        page.wait_for_function("() => location.search.includes('query=1')")
    else:
        page.wait_for_function("() => !location.search.includes('theme')")  # the embed's own write
    assert page.evaluate("location.pathname").startswith("//") and page.url.startswith(visit.base)
