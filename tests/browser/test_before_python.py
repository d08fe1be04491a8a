"""Before Python, on a phone: everything the build computed works from the page and its
precomputed tables, and a state they lack asks for Python where the reader is.

Real Chromium as a 360 px phone (touch, `is_mobile`), with the runtime's downloads blocked:
a phone asks before downloading Python, so until the reader agrees (or while it loads, or
offline on a device that never saved it) this is what the reader has."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from attention import bench_view, figures, quiz
from attention.protocol import handout
from sitebuild import compress
from tests.browser.conftest import FRAMES as TWO_FRAMES
from tests.browser.conftest import watch
from tests.browser.test_bench_page import expected_state, shown_state

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2, "service_workers": "block"}

# Every frame, before it is painted: is the figure on screen (visible), and what does it show?
FRAMES = """window.__frames = [];
new PerformanceObserver((list) => { for (const e of list.getEntries())
  if (e.name === 'first-contentful-paint') window.__fcp = e.startTime; }).observe({type: 'paint', buffered: true});
(function sample() {
  const shown = document.querySelector(%s);
  const figure = shown && shown.closest('figure');
  if (figure) window.__frames.push({t: performance.now(), visible: getComputedStyle(figure).visibility === 'visible',
    text: shown.textContent, waiting: figure.classList.contains('is-waiting') || figure.classList.contains('is-stale')});
  requestAnimationFrame(sample);
})();"""


class Phone:
    """A phone page whose runtime downloads are refused (its HEAD requests, which only ask the
    size, pass), until allow()."""

    def __init__(self, browser, server: str, sampled: str | None = None):
        self.context = browser.new_context(**PHONE)
        if sampled:
            self.context.add_init_script(FRAMES % json.dumps(sampled))
        self.w = watch(self.context, server)
        self.page, self.base, self.allowed = self.w.page, server, False
        self.refused: list[str] = []
        self.context.route(re.compile(r"/(runtime|py)/"), self._runtime)

    def _runtime(self, route):
        if self.allowed or route.request.method == "HEAD":
            route.continue_()
        else:
            self.refused.append(route.request.url)
            route.abort()

    def allow(self):
        self.allowed = True

    def close(self):
        self.context.close()
        self.w.console_errors = [e for e in self.w.console_errors if "Service Worker" not in e]
        self.w.assert_clean()


@pytest.fixture
def phone(browser, server):
    made = []

    def make(sampled: str | None = None) -> Phone:
        made.append(Phone(browser, server, sampled))
        return made[-1]

    yield make
    for p in made:
        p.close()


def test_the_quiz_answers_before_python_from_the_page_alone(phone):
    """The build wrote every question, choice and answer of the page's state into the page: the
    quiz works at once, and gives the core's answers. (It offered no buttons until Python had
    loaded: "Reading the bench…" after 23 s on a phone that had not agreed to the download.)"""
    p = phone()
    page = p.page
    page.goto(p.base + "bench/")
    page.wait_for_selector("#fig-004 .runtime-action:not([hidden])")  # asking: no Python
    questions = quiz.view()["questions"]
    items = page.locator(".quiz-question")
    assert items.count() == len(questions)
    for k, q in enumerate(questions):
        li = items.nth(k)
        li.scroll_into_view_if_needed()  # (far down the page, it is not rendered until near)
        page.evaluate(TWO_FRAMES)
        assert li.locator('[data-quiz="prompt"]').inner_text() == q["prompt"]
        buttons = li.locator("button[data-choice]")
        assert buttons.all_inner_texts() == [c["label"] for c in q["choices"]]
        wrong = next(c for c in q["choices"] if c["id"] != q["answer"])
        li.locator(f'button[data-choice="{wrong["id"]}"]').tap()
        right = next(c["label"] for c in q["choices"] if c["id"] == q["answer"])
        assert li.locator('[data-quiz="feedback"]').inner_text() == f"Not quite: the answer is “{right}”."
        li.locator(f'button[data-choice="{q["answer"]}"]').tap()
        assert li.locator('[data-quiz="feedback"]').inner_text() == "Right."
        assert li.locator('[data-quiz="reveal"]').inner_text() == q["explanation"]
    assert page.inner_text('[data-quiz="status"]') == ""
    assert p.w.workers == [] and p.refused == []  # no Python was asked for


def test_the_quiz_follows_a_state_one_click_away_before_python(phone):
    """A row chosen: the bench is drawn from the table, and so are its questions."""
    p = phone()
    page = p.page
    page.goto(p.base + "bench/")
    page.wait_for_selector('#fig-005 tr[data-index="4"] button')
    page.locator('#fig-005 tr[data-index="4"] button').tap()
    expected = quiz.view(query=4)["questions"]
    page.wait_for_function("p => document.querySelector('.quiz-question [data-quiz=\"prompt\"]').textContent === p",
                           arg=expected[0]["prompt"])
    page.locator(".quiz").scroll_into_view_if_needed()
    page.evaluate(TWO_FRAMES)
    assert page.locator(".quiz-question [data-quiz='prompt']").all_inner_texts() == [q["prompt"] for q in expected]
    li = page.locator(".quiz-question").first
    li.locator(f'button[data-choice="{expected[0]["answer"]}"]').tap()
    assert li.locator('[data-quiz="feedback"]').inner_text() == "Right."
    assert p.w.workers == [] and p.refused == []


def first_frames(page) -> dict:
    """When the page was first painted, and what the figure showed in each frame after."""
    page.wait_for_function("() => window.__fcp !== undefined && window.__frames.some(f => f.visible)")
    page.evaluate(TWO_FRAMES)
    return page.evaluate("() => ({fcp: window.__fcp, frames: window.__frames})")


@pytest.mark.parametrize("link, shown, expected", [
    ("embed/fig-002/?query=grid", '#fig-002 [data-bind="query"]', "grid"),
    ("mixture/?query=load#fig-002", '#fig-002 [data-bind="query"]', "load"),
    ("bench/?query=3", '#fig-004 [data-bind="carriage-word"]', bench_view.view(query=3)["sentence"]["names"][3]),
    ("embed/fig-004/?head=sink", '#fig-004 .bench-head-line [data-bind="head"]', "sink"),
])
def test_a_link_to_a_precomputed_state_is_drawn_in_the_figures_first_frame(phone, link, shown, expected):
    """A shared link (or an embed's address) to a state in the tables: the figure is drawn from
    them before it first appears, never in its default state, never dimmed or marked out of
    date, with no Python. (It showed the default state, dimmed, "this state needs Python".)"""
    p = phone(sampled=shown)
    page = p.page
    page.goto(p.base + link)
    seen = first_frames(page)
    visible = [f for f in seen["frames"] if f["visible"]]
    assert visible and all(f["text"] == expected for f in visible), seen["frames"][:40]
    assert not any(f["waiting"] for f in visible)
    # it appears as soon as it is drawn: well before Python could have loaded (4-9 s here)
    assert visible[0]["t"] - seen["fcp"] < 1500, (seen["fcp"], visible[0]["t"])
    if link.startswith("bench/"):
        assert shown_state(page) == expected_state(query=3)
    elif "fig-002" in link or "mixture" in link:
        core = figures.fig_002.data(expected)
        assert page.locator("#fig-002 [data-bind='weight']").all_inner_texts() == [
            r["weight"]["text"] for r in core["rows"]]
        assert page.inner_text('#fig-002 [data-bind="output"]') == core["output"]["text"]
    else:
        assert bench_view.view(head="sink")["summary"] == page.text_content('#fig-004 [data-bind="summary"]')
    assert page.locator(".figure-notice:not([hidden])").count() == 0
    assert p.w.workers == [] and p.refused == []


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= page.viewport_size["height"]


def runtime_bytes_sent(site: Path, accept: str) -> int:
    """What the site's server sends of the runtime and the wheel to a browser that accepts
    these encodings (a file too small for brotli is sent gzipped: counting it whole put the
    sum 8 KB over the page's, which it rounded across a tenth of a megabyte)."""
    folder = site / "runtime" / "0.27.7"
    files = [f for f in folder.iterdir() if not f.name.endswith((".gz", ".br"))]
    files += [next((site / "py").rglob("*.whl"))]
    return sum(compress.variant(f, accept)[0].stat().st_size for f in files)


# Every size the page says, as it says it: the text of every change to a figure's notice,
# status line or Load button, from the page's first paint on.
SIZES_SAID = """(() => { window.__sizes = [];
  const look = () => { for (const e of document.querySelectorAll('.figure-notice, .runtime-status, .runtime-action')) {
    for (const m of e.textContent.matchAll(/(up to )?[0-9.]+ MB/g)) window.__sizes.push(m[0]); } };
  new MutationObserver(look).observe(document, {subtree: true, childList: true, characterData: true});
})();"""


def test_the_download_is_said_once_with_what_the_host_sends(phone, built_site):
    """On a slow phone link the notice said "up to 17.0 MB" (the build's unpacked size) and 0.6 s
    later "8.0 MB" (what the host sends): two sizes for one download (review 4, Confusing 7).
    The question now waits for the host's answer, so the one size it says is the one sent,
    even with the HEAD answers held for 0.8 s."""
    p = phone()
    p.context.add_init_script(SIZES_SAID)
    held = []
    p.context.route(re.compile(r"/(runtime|py)/"),
                    lambda route: held.append(route) if route.request.method == "HEAD" else p._runtime(route))
    page = p.page
    page.goto(p.base + "bench/")
    page.locator("#bench-sentence").scroll_into_view_if_needed()
    page.fill("#bench-sentence", "the pilot saw it")
    page.press("#bench-sentence", "Enter")
    for _ in range(100):  # till the page asks the host (its answers are held)
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "no HEAD asked the host what it sends"
    page.wait_for_timeout(800)  # the HEAD answers are on their way, slowly
    for route in held:
        route.continue_()
    megabytes = f"{runtime_bytes_sent(built_site, 'gzip, deflate, br, zstd') / 1e6:.1f} MB"
    page.locator("#fig-004 .figure-notice .notice-action").filter(has_text=f"Load Python ({megabytes})").wait_for()
    assert set(page.evaluate("window.__sizes")) == {megabytes}


@pytest.mark.parametrize("where", ["lab", "bench"])
def test_a_state_outside_the_tables_asks_for_python_where_the_reader_is(phone, built_site, where):
    """A state no table holds: the notice at the top of the figure keeps to the top of the
    screen, and carries its own Load button, with what this host sends (compressed). (The button
    was 2,000 px further down, under a size of 17 MB that the host never sends.)"""
    p = phone()
    page = p.page
    page.goto(p.base + f"{where}/")
    if where == "lab":
        page.locator("#lab-q1").scroll_into_view_if_needed()
        page.fill("#lab-q1", "0.37")
        figure = "#fig-003"
    else:
        page.locator("#bench-sentence").scroll_into_view_if_needed()
        page.fill("#bench-sentence", "the pilot saw it")
        page.press("#bench-sentence", "Enter")
        figure = "#fig-004"
    button = page.locator(f"{figure} .figure-notice .notice-action")
    megabytes = f"{runtime_bytes_sent(built_site, 'gzip, deflate, br, zstd') / 1e6:.1f} MB"
    # "up to" the raw size until the host's answer to a HEAD request says what it sends
    button.filter(has_text=f"Load Python ({megabytes})").wait_for()
    assert button.inner_text() == f"Load Python ({megabytes})"
    assert f"a one-time download of {megabytes}" in page.inner_text(f"{figure} .figure-notice")
    assert in_view(page, f"{figure} .figure-notice .notice-action")
    page.mouse.wheel(0, 300)  # further down the figure: it stays in view
    page.wait_for_timeout(300)
    assert in_view(page, f"{figure} .figure-notice .notice-action")
    p.allow()
    button.tap()
    try:
        page.wait_for_selector(f'{figure} .runtime-status[data-state="ready"]', timeout=90000)
    except Exception:  # say where it stood, and what was refused
        raise AssertionError((page.inner_text(f"{figure} .runtime-status"), p.refused, p.w.workers)) from None
    if where == "lab":
        page.wait_for_function("() => document.querySelector('#fig-003 [data-bind=query]').textContent.startsWith('[0.370')")
    else:
        page.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"carriage-word\"]').textContent === 'it'")
        assert shown_state(page) == expected_state(sentence="the pilot saw it")
    assert page.locator(f"{figure} .figure-notice").is_hidden()


def test_one_go_ahead_covers_every_page_of_the_visit(phone):
    """Agreed to once, Python loads on every page the reader opens next in that tab, even a
    page loaded in full (as in Safari, which swaps no pages in place)."""
    p = phone()
    page = p.page
    page.goto(p.base + "mixture/")
    p.allow()
    page.locator("#fig-002 .runtime-action").tap()
    page.wait_for_selector('#fig-002 .runtime-status[data-state="ready"]', timeout=60000)
    page.goto(p.base + "lab/")  # loaded in full
    page.wait_for_selector('#fig-003 .runtime-status[data-state="ready"]', timeout=60000)
    assert page.locator("#fig-003 .runtime-action:not([hidden])").count() == 0  # never asked


def test_one_go_ahead_covers_every_embed_on_a_course_page(browser, server, course_page):
    """Two embeds on one course page, on a phone: the reader agrees in one, and the other
    starts too, without asking again."""
    context = browser.new_context(**PHONE)
    w = watch(context, course_page)
    page = w.page
    page.goto(course_page)
    one, two = page.frame_locator("#one"), page.frame_locator("#two")
    one.locator("#fig-002 .runtime-action:not([hidden])").wait_for()
    # the bench's link (head=sink&query=3) is two clicks from its first state: it asks at its top,
    # once the reader scrolls to it (Chromium draws no frame in a cross-origin frame off screen)
    page.locator("#two").scroll_into_view_if_needed()
    two.locator("#fig-004 .figure-notice .notice-action:not([hidden])").wait_for()
    one.locator("#fig-002 .runtime-action").tap()
    for frame, figure in ((one, "#fig-002"), (two, "#fig-004")):
        frame.locator(f'{figure} .runtime-status[data-state="ready"]').wait_for(timeout=60000)
    context.close()
    assert w.page_errors == []


def test_a_links_own_neighbours_answer_the_next_click_before_python(phone):
    """A teacher's link to the sink head, opened on a phone that has not loaded Python: a row
    chosen there (two clicks from the bench's first state) is drawn at once too, with its
    questions, from the link's own neighbours fetched once the link is drawn."""
    p = phone()
    page = p.page
    page.goto(p.base + "bench/?head=sink")
    page.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"head\"]').textContent === 'sink'")
    page.wait_for_function("""() => performance.getEntriesByType('resource')
        .some((e) => e.name.includes('/static/answers/near/bench-'))""")  # its neighbours, fetched
    page.locator('#fig-005 tr[data-index="3"] button').tap()
    page.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"carriage-word\"]').textContent === 'the₃'"
                           " && location.search.includes('query=3')")  # the second "the"
    assert shown_state(page) == expected_state(head="sink", query=3)
    expected = quiz.view(head="sink", query=3)["questions"]
    page.wait_for_function("p => document.querySelector('.quiz-question [data-quiz=\"prompt\"]').textContent === p",
                           arg=expected[0]["prompt"])
    assert page.locator(".figure-notice:not([hidden])").count() == 0  # nothing waits for Python
    assert p.w.workers == [] and p.refused == []


def test_a_linked_handout_says_it_waits_for_the_readers_go_ahead_not_that_python_computes(phone):
    """A phone asks before Python's download: a handout linked at a state no table holds says
    its numbers need Python and where to load it (it said "Python is computing…" while nothing
    was); once the reader agrees, Python computes the state and the handout is current."""
    p = phone()
    page = p.page
    url = {"q": "0.5,-1", "mask": "1,0,1", "t": "0.5"}
    page.goto(p.base + "handout/fig-003/?q=0.5,-1&mask=1,0,1&t=0.5")
    page.locator(".runtime-action:not([hidden])").first.wait_for()  # asking: no Python
    said = page.locator(".handout .handout-status")
    assert page.get_attribute(".handout", "data-state") == "waiting"
    assert "Load Python" in said.inner_text() and "another state’s" in said.inner_text()
    assert "computing" not in said.inner_text()
    assert p.refused == []  # nothing downloaded unasked
    p.allow()
    page.locator(".runtime-action:not([hidden])").first.tap()
    first = handout.view("fig-003", url)["setting"][0]["text"]
    page.wait_for_function(f"""() => {{ const h = document.querySelector('.handout');
      return h.dataset.state === 'current' && h.querySelector('.handout-setting dd').textContent === {first!r}; }}""",
                           timeout=90000)
    assert said.inner_text() == ""
