"""Fragments pasted into a course page (build.py fragment): each draws as on the site and
leaves the host page alone."""

from __future__ import annotations

import pytest

from tests.browser.colour import contrast, luminance


HOST = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Week 3</title><style>
body { background: rgb(255, 255, 255); font-family: Georgia, serif; margin: 8px; }
h1 { font: 700 30px Georgia, serif; color: rgb(0, 0, 128); }
table.host { width: 300px; border: 2px solid rgb(0, 128, 0); }
</style></head><body><h1>Week 3</h1><p>Our reading.</p>
<table class="host"><tr><td>Host cell</td></tr></table>
FRAGMENT</body></html>"""


HOST_PROBE = """() => {
  const s = (e) => getComputedStyle(e);
  const h1 = document.querySelector('h1'), table = document.querySelector('table.host');
  return {body: s(document.body).backgroundColor, bodyFont: s(document.body).fontFamily,
          h1: [s(h1).fontFamily, s(h1).fontSize, s(h1).color],
          table: [table.getBoundingClientRect().width, s(table).borderTopWidth, s(table).borderTopColor],
          p: s(document.querySelector('p')).marginTop};
}"""


def paste(browser, html: str, scheme: str = "light"):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.set_content(HOST.replace("FRAGMENT", html))
    return context, page


@pytest.mark.parametrize("embed_id", ["fig-002", "fig-003", "fig-004", "fig-006"])
def test_a_pasted_fragment_leaves_the_host_page_alone(browser, embed_id):
    from sitebuild.fragment import fragment

    context, page = paste(browser, "")
    bare = page.evaluate(HOST_PROBE)
    page.set_content(HOST.replace("FRAGMENT", fragment(embed_id, css=True)))
    assert page.evaluate(HOST_PROBE) == bare
    context.close()


def test_a_pasted_fig_002_fragment_draws_readable_bars(browser):
    from sitebuild.fragment import fragment

    context, page = paste(browser, fragment("fig-002", "query=grid"), scheme="dark")
    bars = page.evaluate("""() => [...document.querySelectorAll('#fig-002 svg.bar')].map(svg => {
        const r = svg.getBoundingClientRect();
        const fill = svg.querySelector('.bar-fill'), track = svg.querySelector('.bar-track');
        return {w: r.width, h: r.height, fill: getComputedStyle(fill).fill, track: getComputedStyle(track).fill,
                filled: fill.getBoundingClientRect().width};
    })""")
    weights = [row["weight"]["value"] for row in __import__("attention").figures.fig_002.data("grid")["rows"]]
    assert len(bars) == 3
    for bar, weight in zip(bars, weights):
        assert 40 <= bar["w"] <= 100 and 6 <= bar["h"] <= 16  # a bar, not a 133 px square
        assert bar["fill"] != bar["track"] and contrast(bar["fill"], bar["track"]) >= 3
        assert luminance(bar["track"]) > 0.5  # the light palette even for a dark-mode reader
        assert bar["filled"] == pytest.approx(weight * bar["w"], abs=1.0)
    context.close()


def test_a_pasted_bench_fragment_draws_in_colour(browser):
    from sitebuild.fragment import fragment

    context, page = paste(browser, fragment("bench"))
    seen = page.evaluate("""() => {
      const fill = (sel) => [...document.querySelectorAll(sel)].map(e => getComputedStyle(e).fill);
      const callout = document.querySelector('.callouts text');
      return {faces: fill('.dial-face'), tank: fill('.tank'), bodies: fill('.valve .body'),
              calloutText: getComputedStyle(callout).fill, calloutCircle: fill('.callouts circle')[0],
              calloutSize: parseFloat(getComputedStyle(callout).fontSize),
              text: fill('.bench-drawing text:not(.callouts text)')};
    }""")
    black = "rgb(0, 0, 0)"
    assert seen["faces"] and black not in seen["faces"] + seen["tank"] + seen["bodies"]
    assert contrast(seen["calloutText"], seen["calloutCircle"]) >= 4.5 and seen["calloutSize"] >= 12
    assert all(contrast(colour, "#ffffff") >= 4.5 for colour in seen["text"])
    context.close()


def test_a_pasted_lab_fragment_keeps_its_plot_in_scale(browser):
    from sitebuild.fragment import fragment

    context, page = paste(browser, fragment("lab"))
    plot = page.evaluate("""() => {
      const svg = document.querySelector('.value-plot'), r = svg.getBoundingClientRect();
      const label = svg.querySelector('.value-point text').getBoundingClientRect();
      return {w: r.width, h: r.height, hull: getComputedStyle(svg.querySelector('.hull')).fill,
              label: label.height, dot: getComputedStyle(svg.querySelector('.value-point circle')).fill};
    }""")
    assert plot["w"] <= 260 and plot["h"] <= 400  # not a 900 px plot
    assert plot["label"] >= 9 and plot["hull"] not in ("rgb(0, 0, 0)", "none") and plot["dot"] != "rgb(0, 0, 0)"
    assert page.locator("#fig-003 .lab-state").is_visible()  # the state, stated without script
    context.close()


def test_a_pasted_matrix_fragment_shades_hatches_and_hides_its_screen_reader_words(browser):
    from sitebuild.fragment import fragment

    context, page = paste(browser, fragment("fig-006"))
    seen = page.evaluate("""() => {
      const masked = document.querySelector('td.masked');
      const hidden = [...document.querySelectorAll('.visually-hidden')].map(e => e.getBoundingClientRect().width);
      const levels = [...document.querySelectorAll('td.m:not(.masked)')].map(td => getComputedStyle(td).backgroundColor);
      return {hatch: getComputedStyle(masked).backgroundImage, word: Math.max(0, ...hidden),
              shades: [...new Set(levels)].length};
    }""")
    assert "repeating-linear-gradient" in seen["hatch"] and seen["word"] <= 1 and seen["shades"] >= 3
    context.close()
