"""Fetching ahead, in real Chromium: once a chapter's Python is ready, the pages its header
links to are fetched with their modules and answer tables, so following one fetches nothing
more of them and the next chapter is live from its first frame."""

from __future__ import annotations

import re

from tests.browser.conftest import watch


def test_the_header_links_pages_modules_and_answers_are_fetched_before_a_click(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    w = watch(context, server)
    page = w.page
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(server + "mixture/")
    page.wait_for_selector('#fig-002 .runtime-status[data-state="ready"]', timeout=60000)
    lab_module = re.compile(r"/static/js/figures/lab\.[0-9a-f]{10}\.js$")
    lab_answers = re.compile(r"/static/answers/lab\.[0-9a-f]{10}\.json$")
    page.wait_for_function("() => performance.getEntriesByType('resource').some(e => /answers\\/lab\\./.test(e.name))",
                           timeout=30000)
    assert server + "lab/" in requests and server + "bench/" in requests  # no hover, no click
    assert any(lab_module.search(u) for u in requests) and any(lab_answers.search(u) for u in requests)
    page.wait_for_timeout(300)
    before = len(requests)
    page.click('.site-header a[href="../lab/"]')
    page.wait_for_selector('#fig-003 .runtime-status[data-state="ready"]', timeout=10000)
    later = requests[before:]
    assert not any(lab_module.search(u) or lab_answers.search(u) for u in later), later
    assert page.evaluate("document.querySelector('main h1') === document.activeElement")
    context.close()
    w.assert_clean()
