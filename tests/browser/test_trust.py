"""Trust in real Chromium: a strict CSP on every page, offline after one visit, fresh after a rebuild."""

from __future__ import annotations

import re
from html import unescape

import pytest

from sitebuild.site import build, csp
from tests.browser.conftest import WORKER_READY, read_until_saved, serving, until, watch
from tests.pagetext import PAGES

READY = '.runtime-status[data-state="ready"]'
VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
"""


def test_every_page_carries_the_policy(built_site):
    policy = csp(False)
    assert "script-src 'self' 'wasm-unsafe-eval';" in policy and "'unsafe-inline'" not in policy
    assert "connect-src 'self';" in policy and "http" not in policy
    for page in [p for p in built_site.rglob("*.html")]:
        html = page.read_text(encoding="utf-8")
        metas = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html)
        assert [unescape(m) for m in metas] == [policy], page
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), f"inline script in {page}"
        assert not re.search(r"\son[a-z]+=", html), f"inline handler in {page}"
        outside_code = re.sub(r"<pre.*?</pre>", "", html, flags=re.S)  # snippets for course pages
        assert not re.search(r"<[^>]+\sstyle=", outside_code), f"inline style in {page}"
    assert "https://cdn.jsdelivr.net" in csp(True)


@pytest.mark.parametrize("url", [p.removesuffix("index.html") for p in PAGES])
def test_pages_run_under_the_policy_without_violations(browser, server, url):
    context = browser.new_context()
    context.add_init_script(VIOLATIONS)
    w = watch(context, server)
    w.page.goto(server + url)
    if w.page.locator("[data-widget]").count():
        w.page.wait_for_selector(READY, timeout=60000)
    if url == "bench/":
        w.page.click('#fig-005 tr[data-index="1"]')
        w.page.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"carriage-word\"]')"
                                 ".textContent === 'engineer'")
    assert w.page.evaluate("window.__violations") == []
    w.assert_clean()
    context.close()


def test_the_policy_is_enforced(browser, server):
    context = browser.new_context()
    context.add_init_script(VIOLATIONS)
    page = context.new_page()
    page.goto(server + "roles/")
    page.evaluate("""() => { const s = document.createElement('script');
        s.textContent = 'window.__ran = true'; document.body.append(s); }""")
    page.wait_for_function("() => window.__violations.length > 0")
    assert page.evaluate("window.__ran") is None
    assert page.evaluate("window.__violations")[0].startswith("script-src")
    context.close()


CACHED = """async ([name, count]) => { const key = (await caches.keys()).find(k => k.includes(name));
  return Boolean(key) && (await (await caches.open(key)).keys()).length >= count; }"""


def test_after_one_visit_the_site_works_offline(browser, built_site):
    with serving(built_site) as base:  # a fresh origin: no service worker yet
        _offline_after_one_visit(browser, base)


def _offline_after_one_visit(browser, base):
    context = browser.new_context()
    w = watch(context, base)
    page = w.page
    page.goto(base + "bench/")
    page.wait_for_selector(READY, timeout=60000)
    page.evaluate(WORKER_READY)
    until(page, CACHED, ["-runtime-", 6])  # the worker caches the runtime as it activates
    context.route("**/*", lambda route: route.abort())  # the network is gone
    context.set_offline(True)
    titles = {"roles/": "One state, three roles", "mixture/?query=load": "From scores to a mixture",
              "lab/": "The lab: move the query", "bench/": "The bench: four heads at work"}
    for url, title in titles.items():
        page.goto(base + url)
        assert page.locator("h1").inner_text() == title
    page.goto(base + "lab/")
    page.wait_for_selector(READY, timeout=60000)
    page.fill("#lab-q1", "0")
    page.fill("#lab-q2", "0")
    page.wait_for_function("() => document.querySelector('#fig-003 [data-bind=output]').textContent === '[0.667, 1.333]'")
    page.goto(base + "bench/")
    page.wait_for_selector(READY, timeout=60000)
    page.click('#fig-005 tr[data-index="4"]')
    page.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"carriage-word\"]').textContent === 'bridge'")
    # A shared link's state opens offline too; its table of neighbours, fetched only on
    # demand, is not asked for (it cannot arrive), and its next click goes to Python.
    page.wait_for_function("() => location.search.includes('query=4')")  # written after the frame
    page.reload()  # the link to the row just chosen
    page.wait_for_selector(READY, timeout=60000)
    page.click('#fig-005 tr[data-index="1"]')
    page.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"carriage-word\"]').textContent === 'engineer'")
    context.close()
    w.assert_clean()


def test_offline_an_address_never_saved_shows_the_sites_own_page_not_the_browsers_error(browser, built_site):
    """Offline, the service worker answers an address it has no copy of with the site's page
    saying so, in the site's style, with links to the pages that are saved (they open offline).
    It threw, and the browser showed its own error page."""
    with serving(built_site) as base:  # a fresh origin: no service worker yet
        context = browser.new_context()
        w = watch(context, base)
        page = w.page
        read_until_saved(page, base)
        page.reload()  # now served by the worker
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        context.set_offline(True)
        for address in ("no-such-page/", "lab/deeper/still/", "embed/fig-099/?query=grid"):
            response = page.goto(base + address)
            assert response.status == 503 and response.status_text == "Offline"
            assert page.locator("h1").inner_text() == "Not saved for offline reading"
            assert "This device is offline" in page.inner_text("main")
            assert page.evaluate("getComputedStyle(document.querySelector('.site-header')).display") == "flex"
        page.click("main a:has-text('From scores to a mixture')")  # a saved page: it opens offline
        page.wait_for_function("() => document.querySelector('h1').textContent === 'From scores to a mixture'")
        context.close()
        w.console_errors = [e for e in w.console_errors if "503" not in e]  # the page's own status
        w.assert_clean()


def test_a_new_build_replaces_the_cached_one(browser, own_build):
    templates, site = own_build
    with serving(site) as base:
        _new_build_replaces_cache(browser, templates, site, base)


def _new_build_replaces_cache(browser, templates, site, base):
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + "roles/")
    page.evaluate(WORKER_READY)
    old = page.evaluate("async () => (await caches.keys()).filter(k => k.includes('-site-'))")
    chapter = templates / "chapters" / "roles.md"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace(
        "## Start with a row of numbers", "## Start with a row of numbers, freshly built"), encoding="utf-8")
    build(site, templates)
    page.goto(base + "roles/")
    assert "freshly built" in page.locator("h2").first.inner_text()
    until(page, f"async () => {{ const k = (await caches.keys()).filter(k => k.includes('-site-'));"
                f" return k.length === 1 && k[0] !== {old[0]!r}; }}")
    context.route("**/*", lambda route: route.abort())
    context.set_offline(True)
    page.goto(base + "roles/")
    assert "freshly built" in page.locator("h2").first.inner_text()  # the new version, offline
    context.close()
