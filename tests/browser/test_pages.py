"""Every page in real Chromium: loads clean, renders MathML, passes axe-core, fits the screen."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.pagetext import PAGES

URLS = [p.removesuffix("index.html") for p in PAGES]


@pytest.mark.parametrize("url", URLS)
def test_page_loads_renders_and_fits(site_page, url):
    page = site_page.page
    response = page.goto(site_page.base + url)
    assert response.status == 200
    page.wait_for_load_state("load")
    width = page.evaluate("innerWidth")
    overflow = page.evaluate("document.scrollingElement.scrollWidth")
    assert overflow <= width, f"page scrolls sideways at {width}px ({overflow}px wide)"
    assert page.evaluate("getComputedStyle(document.body).fontSize") in ("16px", "17px")


@pytest.mark.parametrize("url", ["roles/", "mixture/"])
def test_mathml_is_rendered_as_math(site_page, url):
    page = site_page.page
    page.goto(site_page.base + url)
    found = page.evaluate("""() => [...document.querySelectorAll('math')].map(m => {
        const r = m.getBoundingClientRect();
        return {isMath: m instanceof MathMLElement, w: r.width, h: r.height,
                display: getComputedStyle(m).display};
    })""")
    assert len(found) > 10
    for math in found:
        assert math["isMath"] and math["w"] > 0 and math["h"] > 0
    assert {m["display"] for m in found} == {"math", "block math"}  # laid out by MathML
    # A fraction is laid out as a fraction: the numerator sits above the denominator.
    if url == "mixture/":
        above = page.evaluate("""() => {
            const f = document.querySelector('mfrac');
            const [num, den] = f.children;
            return num.getBoundingClientRect().bottom <= den.getBoundingClientRect().top + 1;
        }""")
        assert above


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations(browser, server, url, scheme):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.goto(server + url)
    results = Axe().run(page)
    context.close()
    assert results.violations_count == 0, results.generate_report()


def test_headings_have_working_anchors(site_page):
    page = site_page.page
    page.goto(site_page.base + "mixture/")
    anchors = page.eval_on_selector_all(
        "h2 a.anchor", "els => els.map(a => [a.getAttribute('href'), a.parentElement.id])")
    assert len(anchors) == 3
    for href, heading_id in anchors:
        assert href == "#" + heading_id


def test_javascript_off_still_shows_every_figure(browser, server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server + "mixture/")
    table = page.locator("#fig-002 table")
    assert table.is_visible()
    assert "[0.860, 1.432]" in table.inner_text()
    context.close()


@pytest.mark.parametrize("url", ["mixture/", "lab/", "bench/"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations_once_live(browser, server, url, scheme):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.goto(server + url)
    page.wait_for_selector('.runtime-status[data-state="ready"]', timeout=30000)
    if url == "bench/":  # a live answer redraws the bench: check that state too
        page.click('#fig-005 tr[data-index="1"]')
        page.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"carriage-word\"]')"
                               ".textContent === 'engineer'")
    results = Axe().run(page)
    context.close()
    assert results.violations_count == 0, results.generate_report()
