"""The Chinese and Arabic editions in real Chromium: a row click and a typed sentence are
computed by the browser's Python in the page's language, and the language switch opens the
same figure, in the same state, in another language."""

from __future__ import annotations

import re

import pytest

from attention import bench_view
from attention.catalog import speaking
from tests.browser.conftest import watch
from tests.browser.test_bench_page import READY, settle, shown_state

WORDS = {"zh": "bridge", "ar": "bridge"}  # (the bench's lexicon is English in every edition, for now)
SCRIPT = {"zh": re.compile(r"[\u3400-\u9fff]"), "ar": re.compile(r"[\u0600-\u06ff]")}


@pytest.mark.parametrize(("lang", "width"), [("zh", 1280), ("ar", 360)])
def test_an_edition_recomputes_in_python_in_its_language(browser, server, lang, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    w = watch(context, server)
    page = w.page
    page.goto(server + f"{lang}/bench/")
    page.wait_for_selector(READY, timeout=60000)
    page.click('#fig-005 tr[data-index="4"]')
    settle(page, WORDS[lang])
    with speaking(lang):
        expected = bench_view.view(query=4)
    shown = shown_state(page)
    assert shown["weights"] == [r["weight"]["text"] for r in expected["rows"]]
    assert shown["summary"] == expected["summary"]  # the core's sentence, in the page's language
    status = page.locator('#fig-004 .runtime-status[data-state="ready"]').inner_text()
    assert SCRIPT[lang].search(status), status  # the modules' words: the page's language's messages
    sentence = "the teacher read the letter and then she left it on the table"
    page.fill("#bench-sentence", sentence)
    page.press("#bench-sentence", "Enter")
    page.wait_for_function("() => document.querySelectorAll('#fig-005 tbody tr').length === 13")
    with speaking(lang):
        typed = bench_view.view(sentence=sentence)
    assert shown_state(page)["summary"] == typed["summary"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()
    w.assert_clean()


def test_the_language_switch_opens_the_same_state(desktop):
    page, base = desktop.page, desktop.base
    page.goto(base + "bench/?head=sink&query=3")
    page.wait_for_function("() => !document.querySelector('.is-waiting')")
    english = shown_state(page)
    page.click('.languages a[hreflang="zh-Hans"]')
    # (another language's page is loaded anew: nav.js commits the address, then swap.js, seeing
    # another language, loads it in full; the address is written before the new document comes)
    page.wait_for_url("**/zh/bench/?head=sink&query=3*")  # (and the state's other parameters)
    page.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")
    # the state the link opened, drawn there (it fails by waiting out, if it never is)
    page.wait_for_function("""(w) => [...document.querySelectorAll('#fig-005 tbody tr .weight .num')]
      .map((e) => e.textContent).join() === w""", arg=",".join(english["weights"]), timeout=60000)
    assert shown_state(page)["query"] == english["query"]
    page.click('.languages a[hreflang="ar"]')
    page.wait_for_url("**/ar/bench/?head=sink&query=3*")
    page.wait_for_function("() => document.documentElement.lang === 'ar'")
    assert page.evaluate("document.documentElement.dir") == "rtl"
