"""The marimo example under `marimo run`: a reader's clicks in the figures reach the kernel
through attention.protocol.bridge, the numbers drawn are the core's, and nothing comes from elsewhere."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import SHOTS, marimo_server
from .figures import READ_BENCH, READ_FIG_002, bench_expected, fig_002_expected, lexicon_message

SENTENCE = "the engineer fixed the bridge before she left"
BENCH = ".attention-bench-widget:has(#fig-004)"
FIG_002 = ".attention-bench-widget:has(#fig-002)"
WRAPPER = ".attention-bench-fragment:has(#fig-002)"
DARK = re.compile(r"\bis-dark\b")


def test_clicks_and_typing_in_marimo_are_computed_by_the_kernel(browser, marimo_app):
    context = browser.new_context(viewport={"width": 1280, "height": 3600})
    page = context.new_page()
    errors, foreign = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: r.url.startswith(("http:", "https:"))
            and not r.url.startswith("http://127.0.0.1:") and foreign.append(r.url))
    page.goto(marimo_app)
    page.locator("#fig-005 tr.is-query").wait_for()  # Playwright's locators enter shadow roots
    expect(page.locator(WRAPPER)).not_to_have_class(DARK)  # marimo's light theme
    assert page.evaluate(READ_BENCH, BENCH) == bench_expected(sentence=SENTENCE, head="coreference")

    page.locator('#fig-005 tr[data-index="1"] .row-choice').click()
    page.locator('#fig-005 tr.is-query[data-index="1"]').wait_for()
    assert page.evaluate(READ_BENCH, BENCH) == bench_expected(sentence=SENTENCE, query=1)

    page.locator('#fig-002 tr[data-query="load"]').click()
    page.locator('#fig-002 tr.is-query[data-query="load"]').wait_for()
    assert page.evaluate(READ_FIG_002, FIG_002) == fig_002_expected("load")

    box = page.locator("#bench-sentence")
    box.fill("the engineer zzz")
    box.press("Enter")
    message = page.locator("#bench-sentence-msg")
    message.filter(has_text="lexicon").wait_for()
    assert message.text_content() == lexicon_message("the engineer zzz")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#fig-004").screenshot(path=SHOTS / "marimo-fig004.png")
    assert errors == [] and foreign == []
    context.close()


def test_the_figures_follow_marimos_dark_theme(browser, tmp_path):
    with marimo_server(tmp_path, "dark") as url:
        context = browser.new_context(viewport={"width": 1280, "height": 1200})
        page = context.new_page()
        page.goto(url)
        figure = page.locator("#fig-002")
        figure.wait_for()
        expect(page.locator(WRAPPER)).to_have_class(DARK)
        SHOTS.mkdir(parents=True, exist_ok=True)
        figure.screenshot(path=SHOTS / "marimo-dark-fig002.png")
        context.close()
