"""The link builder under each live example of the embed guide (builder.js), in real
Chromium: the link, the embed code and the fragment command follow the state set in the
example's frame and reopen exactly that state; copying says so; the QR code reads back as the
link, and downloads as an SVG for a slide; the handout link opens the state's handout; a
state taller than the figure's suggested height gets a snippet that fits it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import zxingcpp

from attention.figures import fig_002
from attention.protocol import handout
from tests.browser.conftest import watch

READY = '.runtime-status[data-state="ready"]'
WEIGHTS = "() => [...document.querySelectorAll('#fig-002 tbody tr [data-bind=\"weight\"]')].map((e) => e.textContent)"


@pytest.fixture
def guide(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.rstrip("/"))
    w = watch(context, server)
    w.page.goto(server + "embed/")
    yield w
    w.assert_clean()
    context.close()


def open_example(page, embed: str):
    page.click(f'[data-embed-example="{embed}"]')
    page.wait_for_selector(f"#embed-{embed} .link-builder")
    frame = page.frame_locator(f"#example-{embed} iframe")
    frame.locator(READY).wait_for(timeout=90000)
    return frame


def wait_for_value(page, selector: str, part: str):
    page.wait_for_function("([s, p]) => document.querySelector(s).value.includes(p)", arg=[selector, part],
                           timeout=30000)
    return page.input_value(selector)


def qr_text(page, embed: str) -> str:
    """Read the builder's QR code as a scanner would: its modules drawn black on white, with
    the quiet zone, four pixels a module, decoded by ZXing."""
    n, dark = page.evaluate(f"""() => {{
      const svg = document.querySelector('#embed-{embed} .builder-qr svg');
      return [Number(svg.dataset.modules), [...svg.querySelectorAll('rect[data-m]')].map((r) => r.dataset.m)];
    }}""")
    image = np.full((n + 8, n + 8), 255, np.uint8)
    for m in dark:
        r, c = map(int, m.split(","))
        image[r + 4, c + 4] = 0
    found = zxingcpp.read_barcodes(np.kron(image, np.ones((4, 4), np.uint8)))
    assert len(found) == 1 and found[0].format == zxingcpp.BarcodeFormat.QRCode
    return found[0].text


def test_the_builder_follows_the_example_and_its_outputs_reopen_that_state(guide, browser, server):
    page = guide.page
    frame = open_example(page, "fig-002")
    frame.locator("#fig-002 button.row-choice", has_text="grid").click()
    link = wait_for_value(page, "#builder-fig-002-link", "query=grid")
    assert link == f"{server}mixture/?query=grid#fig-002"
    snippet = page.input_value("#builder-fig-002-snippet")
    assert f'src="{server}embed/fig-002/?query=grid"' in snippet
    assert page.input_value("#builder-fig-002-command") == \
        'python build.py fragment fig-002 --url "query=grid" --output figure.html'
    expected = [r["weight"]["text"] for r in fig_002.data("grid")["rows"]]
    for url in (link, f"{server}embed/fig-002/?query=grid"):  # each output reopens that state
        other = browser.new_page()
        other.goto(url)
        other.wait_for_function(f"(e) => JSON.stringify(({WEIGHTS})()) === e",
                                arg=json.dumps(expected, separators=(",", ":")), timeout=30000)
        assert other.inner_text('#fig-002 [data-bind="query"]') == "grid"
        other.close()
    # this copy of the site runs on 127.0.0.1: the builder says students cannot reach it
    assert "students’ devices cannot open them" in page.inner_text("#embed-fig-002 .builder-warning")
    page.click("#embed-fig-002 .link-builder button:has-text('Copy the link')")
    page.wait_for_function("() => document.querySelector('#embed-fig-002 .builder-status').textContent !== ''")
    assert page.inner_text("#embed-fig-002 .builder-status") == "Copied the link."
    assert page.evaluate("navigator.clipboard.readText()") == link
    assert qr_text(page, "fig-002") == link
    with page.expect_download() as saved:  # the QR code as a file, for a slide
        page.click("#embed-fig-002 .builder-qr-save")
    text = Path(saved.value.path()).read_text(encoding="utf-8")
    assert saved.value.suggested_filename == "fig-002-link-qr.svg" and text.startswith("<svg")
    assert 'xmlns="http://www.w3.org/2000/svg"' in text
    assert text.count("data-m=") == page.evaluate("document.querySelectorAll('#embed-fig-002 .builder-qr rect[data-m]').length")
    printable = page.get_attribute("#embed-fig-002 .builder-handout", "href")
    assert printable == f"{server}handout/fig-002/?query=grid"
    # the command's explanation follows the command (the handout's link stood between them)
    after = page.evaluate("""() => document.querySelector('#builder-fig-002-command').closest('.link-builder > *')
      .nextElementSibling.textContent""")
    assert after.startswith("The command, run in a clone")
    other = browser.new_page()  # the handout opens at that state, as Python computes it
    other.goto(printable)
    other.wait_for_function("""() => document.querySelector('.handout').dataset.state === 'current'
      && document.querySelector('.handout-setting dd').textContent === 'grid'""", timeout=90000)
    rows = other.evaluate("[...document.querySelectorAll('.handout tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent))")
    assert rows == handout.view("fig-002", {"query": "grid"})["rows"]
    other.close()


def test_a_state_taller_than_the_suggested_height_gets_a_snippet_that_fits_it(guide):
    """Review 4's teacher: a linked state of FIG-009 with a part switched off is taller than
    the snippet's suggested height. The figure as it opens keeps the suggested height (the
    frame here is narrower than the column it was measured in); a taller state adds what it
    adds in the frame, measured against the figure as it opened there."""
    page = guide.page
    frame = open_example(page, "fig-009")
    suggested = int(page.get_attribute('[data-embed-example="fig-009"]', "data-height"))
    page.wait_for_timeout(500)  # the frame's page has said its height
    snippet = page.input_value("#builder-fig-009-snippet")
    assert f'height="{suggested}"' in snippet
    opening = page.evaluate("() => parseFloat(document.querySelector('#example-fig-009 iframe').style.height)")
    frame.locator('#fig-009 input[name="part"][value="mlp"]').uncheck()
    snippet = wait_for_value(page, "#builder-fig-009-snippet", "off=mlp")
    page.wait_for_function("(h) => parseFloat(document.querySelector('#example-fig-009 iframe').style.height) > h",
                           arg=opening, timeout=30000)
    page.wait_for_timeout(300)
    drawn = page.evaluate("() => parseFloat(document.querySelector('#example-fig-009 iframe').style.height)")
    snippet = page.input_value("#builder-fig-009-snippet")
    height = int(snippet.split('height="')[1].split('"')[0])
    assert height == suggested + round(drawn - opening) and height > suggested
    assert f"added to its suggested {suggested} px" in page.inner_text("#embed-fig-009 .link-builder")
    assert qr_text(page, "fig-009") == page.input_value("#builder-fig-009-link")
