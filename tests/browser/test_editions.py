"""The Chinese and Arabic editions in real Chromium: a row click and a typed sentence are
computed by the browser's Python in the page's language, and the language switch opens the
same figure, in the same state, in another language."""

from __future__ import annotations

import re
from contextlib import contextmanager
from urllib.parse import parse_qs, urlparse

import pytest

from attention import bench_view
from attention.catalog import say, speaking
from attention.lexicon import DEFAULTS, tokenize
from tests.browser.conftest import watch
from tests.browser.test_bench_page import READY, settle, shown_state

# a sentence as a reader of each language types it: Chinese without spaces, Arabic with its
# و joined to the next word (the bench cuts both into its lexicon's words)
TYPED = {"zh": "老师读了这封信，然后她离开了。", "ar": "قرأت المعلمة الرسالة ثم غادرت وهي تغني"}
SCRIPT = {"zh": re.compile(r"[\u3400-\u9fff]"), "ar": re.compile(r"[\u0600-\u06ff]")}


@contextmanager
def reading(browser, server, width: int, script: str | None = None):
    """A page of a new reader's at a width (with a script run first in each document), watched
    for console errors and failed requests, which fail the test once it is done."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    if script:
        context.add_init_script(script)
    w = watch(context, server)
    yield w.page
    context.close()
    w.assert_clean()


@pytest.mark.parametrize(("lang", "width"), [("zh", 1280), ("ar", 360)])
def test_an_edition_recomputes_in_python_in_its_language(browser, server, lang, width):
    with reading(browser, server, width) as page:
        page.goto(server + f"{lang}/bench/")
        page.wait_for_selector(READY, timeout=60000)
        page.click('#fig-005 tr[data-index="4"]')
        settle(page, DEFAULTS[lang][4])  # the edition's own sentence, its fifth word
        with speaking(lang):
            expected = bench_view.view(query=4)
        shown = shown_state(page)
        assert shown["weights"] == [r["weight"]["text"] for r in expected["rows"]]
        assert shown["summary"] == expected["summary"]  # the core's sentence, in the page's language
        status = page.locator('#fig-004 .runtime-status[data-state="ready"]').inner_text()
        assert SCRIPT[lang].search(status), status  # the modules' words: the page's language's messages
        sentence = TYPED[lang]
        page.fill("#bench-sentence", sentence)
        page.press("#bench-sentence", "Enter")
        page.wait_for_function("(n) => document.querySelectorAll('#fig-005 tbody tr').length === n",
                               arg=len(tokenize(sentence, lang)))
        with speaking(lang):
            typed = bench_view.view(sentence=sentence)
        assert shown_state(page)["summary"] == typed["summary"]
        assert shown_state(page)["weights"] == [r["weight"]["text"] for r in typed["rows"]]
        # the page says how it cut the sentence, in its language
        assert page.locator("#bench-sentence-note").inner_text() == typed["sentence"]["note"] != ""
        assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_language_switch_opens_the_same_state(desktop):
    """A typed sentence, its query and head go along to another edition, which reads English
    too; an address that leaves the sentence to the page opens the other edition's own first
    sentence with the same head, and a position in the English one (query=7) is not carried
    into a sentence where it means another word, or none (the Arabic one has 6 words)."""
    page, base = desktop.page, desktop.base
    page.goto(base + "bench/?sentence=the+pilot+saw+it+and+she+left&head=sink&query=3")
    settle(page, "it")  # the address's state, computed by Python
    english = shown_state(page)
    page.click('.languages a[hreflang="zh-Hans"]')
    # (another edition's page is loaded anew, as the browser loads any page: nav.js leaves it be)
    page.wait_for_url("**/zh/bench/?sentence=*&head=sink&query=3*")
    page.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")
    # the state the link opened, drawn there (it fails by waiting out, if it never is)
    page.wait_for_function("""(w) => [...document.querySelectorAll('#fig-005 tbody tr .weight .num')]
      .map((e) => e.textContent).join() === w""", arg=",".join(english["weights"]), timeout=60000)
    assert shown_state(page)["query"] == english["query"] == "it"
    page.goto(base + "bench/?head=sink&query=7")
    page.wait_for_function("() => !document.querySelector('.is-waiting')")
    link = page.locator('.languages a[hreflang="ar"]')
    link.hover()  # the link takes the address's state as the reader reaches it
    params = parse_qs(urlparse(link.get_attribute("href")).query)
    assert params["head"] == ["sink"] and "query" not in params  # no query=7
    link.click()
    # (the Arabic page then writes its own state into the address: query=4, its pronoun)
    page.wait_for_url(lambda url: urlparse(url).path.endswith("/ar/bench/"))
    page.wait_for_function("() => document.documentElement.lang === 'ar'")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    with speaking("ar"):
        arabic = bench_view.view(head="sink")
    page.wait_for_function("""(w) => [...document.querySelectorAll('#fig-005 tbody tr .weight .num')]
      .map((e) => e.textContent).join() === w""", arg=",".join(r["weight"]["text"] for r in arabic["rows"]),
                           timeout=60000)
    assert shown_state(page)["query"] == arabic["query"]["word"]
    assert not page.locator(".bench-controls .field-error:visible, [role=alert]:visible").count()


# Each document's log, kept in the tab's sessionStorage across loads: a document loaded, a
# navigation nav.js intercepted (to swap its page in), an address committed in this document.
LOG = """(() => {
  const record = (line) => sessionStorage.setItem("log", JSON.stringify(
    [...JSON.parse(sessionStorage.getItem("log") || "[]"), line]));
  const intercept = NavigateEvent.prototype.intercept;
  NavigateEvent.prototype.intercept = function (...args) {
    record(`intercepted ${new URL(this.destination.url).pathname}`);
    return intercept.apply(this, args);
  };
  navigation.addEventListener("currententrychange", () =>
    record(`shown ${location.pathname} in ${document.documentElement.lang}`));
  addEventListener("DOMContentLoaded", () => record(`loaded ${location.pathname} in ${document.documentElement.lang}`));
})();"""


def log(page) -> list[str]:
    """The tab's log so far, emptied."""
    return page.evaluate("""() => { const l = JSON.parse(sessionStorage.getItem("log") || "[]");
      sessionStorage.removeItem("log"); return l; }""")


def test_the_language_switch_loads_the_other_edition_anew_and_a_link_within_one_swaps(browser, server):
    """Another edition's page is loaded as the browser always does, from the click on: never
    intercepted, so its address never shows over the page left (nav.js used to commit it, then
    swap.js refused the other language). A link within an edition, English or not, is swapped in."""
    with reading(browser, server, 1280, LOG) as page:
        at = urlparse(server).path  # the site's root path

        def swapped(selector: str, path: str, lang: str):
            before = page.evaluate_handle("document.querySelector('main')")
            page.evaluate("() => { window.kept = true; }")
            page.click(selector)
            page.wait_for_function("""old => document.querySelector('main') !== old
                && document.activeElement === document.querySelector('main h1')""", arg=before)
            assert page.evaluate("window.kept") is True  # the same document
            assert log(page) == [f"intercepted {at}{path}", f"shown {at}{path} in {lang}"]

        def loaded(selector: str, path: str, lang: str):
            page.evaluate("() => { window.kept = true; }")
            page.click(selector)
            page.wait_for_url(f"**{at}{path}")
            page.wait_for_function("lang => document.documentElement.lang === lang && document.readyState === 'complete'",
                                   arg=lang)
            assert page.evaluate("window.kept") is None  # a new document
            assert log(page) == [f"loaded {at}{path} in {lang}"]  # nothing intercepted, no address shown before

        page.goto(server + "zh/roles/")
        assert log(page) == [f"loaded {at}zh/roles/ in zh-Hans"]
        swapped('.site-pages a[href$="claims/"]', "zh/claims/", "zh-Hans")
        loaded('.languages a[hreflang="en"]', "claims/", "en")  # to the root's edition
        swapped('.site-header .chapters a[href$="roles/"]', "roles/", "en")
        loaded('.languages a[hreflang="ar"]', "ar/roles/", "ar")
        swapped('.site-pages a[href$="claims/"]', "ar/claims/", "ar")


def test_the_trained_layer_stays_on_its_english_sentence_in_another_edition(browser, server):
    """On /zh/layer/, FIG-009 opens on a Chinese sentence that MiniLM cannot read: FIG-010 keeps
    its English sentence, current, and says why; it follows an English sentence typed in, and
    goes back to its own for a Chinese one typed without spaces."""
    with reading(browser, server, 1280) as page:
        from tests.browser.test_layer_page import READ_TRAINED, expected_trained, wait_for_focus
        from tests.browser.test_layer_page import READY as LAYER_READY

        page.goto(server + "zh/layer/")
        page.wait_for_selector(f"#fig-009 {LAYER_READY}", timeout=90000)
        note, ask = page.locator('#fig-010 [data-bind="english-only"]'), page.locator('#fig-010 [data-bind="ask"]')
        with speaking("zh"):
            said = say("fig-010.english-only")
        assert note.is_visible() and note.inner_text() == said
        assert page.evaluate(READ_TRAINED) == expected_trained() and ask.is_hidden()
        page.fill("#layer-sentence", "the pilot saw the car before he left")
        page.click("#fig-009 .layer-controls button[type=submit]")
        wait_for_focus(page, "he")
        assert note.is_hidden() and ask.is_visible() and page.evaluate(READ_TRAINED)["stale"]
        page.fill("#layer-sentence", "老师读了这封信然后她离开了")
        page.click("#fig-009 .layer-controls button[type=submit]")
        wait_for_focus(page, "她")
        assert note.is_visible() and ask.is_hidden()
        assert page.evaluate(READ_TRAINED) == expected_trained()


# every drawn text of the bench drawing that is shown, and whether it lies inside the drawing
TEXTS_INSIDE = """() => {
  const svg = document.querySelector('#fig-004 svg'), box = svg.getBoundingClientRect();
  return [...svg.querySelectorAll('text, tspan')].filter((t) => {
    const r = t.getBoundingClientRect();
    return r.width > 0 && getComputedStyle(t).visibility !== 'hidden';
  }).map((t) => {
    const r = t.getBoundingClientRect();
    return [t.textContent, r.left >= box.left - 1 && r.right <= box.right + 1];
  }).filter(([, inside]) => !inside).map(([text]) => text);
}"""


@pytest.mark.parametrize(("lang", "width"), [("ar", 360), ("zh", 360), ("ar", 1280)])
def test_the_bench_drawings_text_stays_inside_it_with_a_step_removed(browser, server, lang, width):
    """The what-if tray's labels and the note, in Arabic (right to left) and Chinese, at a
    phone's width and a desk's: nothing drawn past the drawing's edge (an unseen Arabic word
    pushed the number of the dashed tray's label off a phone's screen)."""
    with reading(browser, server, width) as page:
        page.goto(server + f"{lang}/bench/?without=mask")
        page.wait_for_selector(READY, timeout=60000)
        page.wait_for_function("() => document.querySelectorAll('#fig-004 .ghost-label:not(.off)').length > 0")
        assert page.evaluate(TEXTS_INSIDE) == []
