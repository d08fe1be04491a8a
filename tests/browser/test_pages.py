"""Every page in real Chromium: loads clean, renders MathML, passes axe-core, fits the screen."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import settle
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
    settle(page)
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


def test_javascript_off_still_shows_every_figure(no_js, server):
    page = no_js
    page.goto(server + "mixture/")
    table = page.locator("#fig-002 table")
    assert table.is_visible()
    assert "[0.860, 1.432]" in table.inner_text()


@pytest.mark.parametrize("url", ["mixture/", "lab/", "bench/"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations_once_live(browser, server, url, scheme):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.goto(server + url)
    page.wait_for_selector('.runtime-status[data-state="ready"]', timeout=60000)
    if url == "bench/":  # a live answer redraws the bench: check that state too
        page.click('#fig-005 tr[data-index="1"]')
        page.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"carriage-word\"]')"
                               ".textContent === 'engineer'")
    settle(page)
    results = Axe().run(page)
    context.close()
    assert results.violations_count == 0, results.generate_report()


def test_a_missing_page_gets_the_sites_own_404(browser, server):
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    response = page.goto(server + "no/such/page/")
    assert response.status == 404
    assert page.locator("h1").inner_text() == "Page not found"
    links = page.eval_on_selector_all("main a", "els => els.map(a => a.getAttribute('href'))")
    assert {"/roles/", "/lab/", "/claims/"} <= set(links)
    assert "Charter" in page.evaluate("getComputedStyle(document.body).fontFamily")  # the site's CSS
    assert errors == []
    context.close()


def test_under_a_sub_path_the_404_page_links_and_loads_from_there(browser, tmp_path):
    """GitHub Pages serves a project site under /<repo>/ and its 404.html at any missing
    address below it: a build made with that base must link and load from under it."""
    import threading

    from sitebuild.serve import make_server
    from sitebuild.site import build

    site = tmp_path / "site"
    build(site, base="/repo/")
    srv = make_server(site, 0, quiet=True)  # the site at its root; the browser sees it under /repo/
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{srv.server_port}"
    context = browser.new_context()
    outside = []

    def host(route):  # a project site: only /repo/... exists on this origin
        path = route.request.url[len(origin):]
        if not path.startswith("/repo/"):
            outside.append(path)
            return route.fulfill(status=404, body="not this site")
        return route.fulfill(response=route.fetch(url=origin + path[len("/repo"):]))
    context.route(origin + "/**", host)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and "404" not in m.text and errors.append(m.text))
    try:
        response = page.goto(origin + "/repo/no/such/page/")
        assert response.status == 404 and page.locator("h1").inner_text() == "Page not found"
        links = page.eval_on_selector_all("main a, .site-header a", "els => els.map(a => a.href)")
        assert links and all(h.startswith(origin + "/repo/") for h in links), links
        assert origin + "/repo/lab/" in links and origin + "/repo/claims/" in links
        assert "Charter" in page.evaluate("getComputedStyle(document.body).fontFamily")  # its CSS came
        page.click('main a[href$="/claims/"]')  # a page with no live figure: no Python to fetch
        page.wait_for_url(origin + "/repo/claims/")
        page.wait_for_function("() => document.querySelector('h1').textContent === 'Claims & sources'")
        assert outside == [] and errors == []
    finally:
        context.unroute_all(behavior="ignoreErrors")
        context.close()
        srv.shutdown()
        srv.server_close()


def test_claims_formulas_are_mathml(site_page):
    page = site_page.page
    page.goto(site_page.base + "claims/")
    maths = page.evaluate("""() => [...document.querySelectorAll('.claim math')].map(m =>
        [m instanceof MathMLElement, m.getBoundingClientRect().width > 0, m.textContent])""")
    assert len(maths) >= 8 and all(is_math and wide for is_math, wide, _ in maths)
    text = page.locator("main").inner_text()
    assert "d_k" not in text and "W_Q" not in text and "√d_k" not in text  # no pseudo-LaTeX left


def test_shape_contract_braces_clear_their_letters_and_line_up(site_page):
    page = site_page.page
    page.goto(site_page.base + "roles/")
    rows = page.evaluate("""() => [...document.querySelectorAll('.equation math')].filter(m => m.querySelector('munder'))
      .map(m => [...m.querySelectorAll(':scope > mrow > munder')].map(outer => {
        const inner = outer.firstElementChild, brace = inner.lastElementChild, label = outer.lastElementChild;
        const letters = inner.firstElementChild.getBoundingClientRect();
        return {gap: brace.getBoundingClientRect().top - letters.bottom + 0, labelTop: label.getBoundingClientRect().top,
                letterBottom: letters.bottom, braceTop: brace.getBoundingClientRect().top};
      }))""")
    assert len(rows) == 2
    for terms in rows:
        assert len(terms) == 3
        assert max(t["labelTop"] for t in terms) - min(t["labelTop"] for t in terms) <= 1.5  # one baseline
        assert all(t["braceTop"] >= t["letterBottom"] - 0.5 for t in terms)  # the brace clears the letters


def test_without_javascript_the_lab_states_its_state_and_the_guide_names_its_placeholder(no_js, server):
    page = no_js
    page.goto(server + "lab/")
    state = page.locator("#fig-003 .lab-state").inner_text()
    assert "q = [1.000, 1.000]" in state and "T = 1" in state and "grid, load, rises" in state
    assert not page.get_by_text("Drag the point on the pad").is_visible()
    page.goto(server + "embed/")
    assert "placeholder" in page.locator('[data-bind="placeholder-note"]').inner_text()


def test_learner_text_has_no_raw_sub_or_superscripts(no_js, server):
    from attention import toy
    no_js.goto(server + "claims/")
    plain = no_js.evaluate("""() => { const main = document.querySelector('main').cloneNode(true);
      main.querySelectorAll('math').forEach(m => m.remove()); return main.textContent; }""")
    for raw in ("W_i", "^Q", "10^308", "e^z", "_", "^"):
        assert raw not in plain, raw
    assert no_js.locator("#CL-061 math msup").count() >= 2  # 10^308 and e^z set as superscripts
    no_js.goto(server + "lab/")
    d_k = toy.W_K.shape[1]  # the lab's keys have as many coordinates as W_K has columns
    heads = no_js.locator("main li > strong").all_text_contents()
    assert f"Without ÷√{d_k}." in heads and not any("_" in h for h in heads)
