"""The marimo example under `marimo run`: a reader's clicks in the figures reach the kernel
through attention.bridge, the numbers drawn are the core's, and nothing comes from elsewhere."""

from __future__ import annotations

from .conftest import SHOTS
from .figures import READ_BENCH, READ_FIG_002, bench_expected, fig_002_expected, lexicon_message

SENTENCE = "the engineer fixed the bridge before she left"
BENCH = ".attention-bench-widget:has(#fig-004)"
FIG_002 = ".attention-bench-widget:has(#fig-002)"


def test_clicks_and_typing_in_marimo_are_computed_by_the_kernel(browser, marimo_app):
    context = browser.new_context(viewport={"width": 1280, "height": 3600})
    page = context.new_page()
    errors, foreign = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: r.url.startswith(("http:", "https:"))
            and not r.url.startswith("http://127.0.0.1:") and foreign.append(r.url))
    page.goto(marimo_app)
    page.locator("#fig-005 tr.is-query").wait_for()  # Playwright's locators enter shadow roots
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
