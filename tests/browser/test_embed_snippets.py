"""The embed guide's snippets on a course page: theme, copy, and the link that opens the state."""

from __future__ import annotations

import re
import threading

import pytest

from sitebuild.serve import make_server
from tests.browser.conftest import watch
from tests.browser.colour import luminance


READY = '.runtime-status[data-state="ready"]'


def test_an_embeds_code_keeps_the_theme_it_was_given(desktop):
    page = desktop.page
    page.goto(desktop.base + "embed/fig-002/?query=load&theme=dark")
    page.wait_for_function("() => !location.search.includes('theme')")  # the figure's own state only
    page.click("#fig-002 .share summary")
    page.click("#fig-002 .share button:has-text('Copy embed code')")
    code = page.input_value("#fig-002 .share-output")
    assert code.startswith(f'<iframe src="{desktop.base}embed/fig-002/?query=load&amp;theme=dark"')


def guide_snippet(server_root, built_site, embed_id: str, query: str = "") -> str:
    """The guide's own iframe snippet for an embed, pointed at this server."""
    import html as html_lib

    guide = (built_site / "embed" / "index.html").read_text(encoding="utf-8")
    code = re.search(rf'<code data-snippet="{embed_id}">(.*?)</code>', guide, re.S).group(1)
    snippet = html_lib.unescape(code).replace("https://example.org/attention-bench/", server_root)
    return snippet.replace(f'embed/{embed_id}/"', f'embed/{embed_id}/{query}"')


@pytest.fixture
def course(tmp_path, server, built_site):
    """Serve a course page that pastes the guide's snippets, from a second origin."""
    pages = []

    def make(*snippets: str) -> str:
        (tmp_path / "index.html").write_text(
            '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title>'
            '<link rel="icon" href="data:,"></head><body><h1>Week 3</h1>' + "".join(snippets) + "</body></html>")
        srv = make_server(tmp_path, 0, quiet=True)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        pages.append(srv)
        return f"http://127.0.0.1:{srv.server_port}/"

    yield make
    for srv in pages:
        srv.shutdown()
        srv.server_close()


def test_copy_works_inside_an_embedded_figure(browser, server, built_site, course):
    url = course(guide_snippet(server, built_site, "fig-002", "?query=grid"))
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(url)
    frame = page.frame_locator("iframe")
    frame.locator(READY).wait_for(timeout=60000)
    frame.locator(".share summary").click()
    frame.locator(".share button:has-text('Copy link')").click()
    status = frame.locator(".share-status")
    status.filter(has_text=re.compile("Copied|Select")).wait_for(timeout=10000)
    assert status.inner_text() == "Copied."
    page.bring_to_front()
    assert page.evaluate("navigator.clipboard.readText()") == server + "mixture/?query=grid#fig-002"
    context.close()


@pytest.mark.parametrize("theme, scheme", [("light", "dark"), ("dark", "light")])
def test_an_embed_takes_the_course_pages_theme(browser, server, theme, scheme):
    context = browser.new_context(color_scheme=scheme)
    w = watch(context, server)
    w.page.goto(server + f"embed/fig-002/?query=load&theme={theme}")
    w.page.wait_for_selector(READY, timeout=60000)
    w.page.wait_for_function("() => document.querySelector('[data-bind=\"query\"]').textContent === 'load'")
    background = w.page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert (luminance(background) > 0.8) == (theme == "light")
    assert "theme" not in w.page.url and w.page.locator(".state-notice").inner_text() == ""
    w.assert_clean()
    context.close()


def test_an_embeds_open_link_keeps_the_state(browser, server):
    context = browser.new_context()
    w = watch(context, server)
    w.page.goto(server + "embed/fig-002/")
    w.page.wait_for_selector(READY, timeout=60000)
    w.page.click('tr[data-query="load"] button')
    w.page.wait_for_function("() => location.search.includes('query=load')")
    link = w.page.locator(".embed-source a").first
    link.hover()
    assert link.get_attribute("href") == server + "mixture/?query=load#fig-002"
    w.assert_clean()
    context.close()


# How the guide's resize script is shown: its lines, its rows on screen, and whether any of it
# runs past the page or hides to the right (also run in Firefox and WebKit: tests/engines).
SCRIPT_SHOWN = """() => {
  const pre = document.querySelector('#resize-script');
  const lines = pre.textContent.split('\\n');
  const height = parseFloat(getComputedStyle(pre).lineHeight);
  const r = document.createRange();
  r.selectNodeContents(pre.querySelector('code'));
  const tops = new Set([...r.getClientRects()].map((b) => Math.round(b.top / height)));
  return {lines: lines.length, rows: tops.size, focusable: pre.tabIndex === 0,
          fits: pre.getBoundingClientRect().right <= innerWidth,
          hidden: pre.scrollWidth > pre.clientWidth};
}"""


@pytest.mark.parametrize("viewport_width", [360, 1280], indirect=True)
def test_the_resize_script_keeps_every_line_and_indent_on_a_phone(site_page, viewport_width):
    """Wrapped at 360 px, a long line broke after its indent: the indent stood alone on a line
    and the code went on at the margin. Each of the script's lines is one line on screen, and
    a reader who cannot swipe scrolls it from the keyboard. In a desktop column none of it is
    hidden to the right."""
    page = site_page.page
    page.goto(site_page.base + "embed/")
    shown = page.evaluate(SCRIPT_SHOWN)
    assert shown == {"lines": shown["lines"], "rows": shown["lines"], "focusable": True, "fits": True,
                     "hidden": viewport_width < 600}
    assert shown["lines"] >= 9
