"""The reader's place, kept in Firefox and WebKit as in Chromium (tests/browser/test_back_place.py).

- Back after one of the header's links comes back to the place the reader left, and focus
  does not take them elsewhere. Firefox (review 4, broken 1) came back to the place with focus
  on the page's title, 2,394 px above the screen: the first Tab went back to the top.
- A link to a figure (/bench/#fig-006) keeps the figure where it landed while the page grows
  above it (its figures drawn). Firefox does so by scroll anchoring; WebKit has none, and the
  figure dropped 80 px and stayed there (review 4, broken 4)."""

from __future__ import annotations

import pytest

from tests.browser.test_back_place import FOCUS_IN_VIEW, PLACE_AT_REST, same_place
from tests.browser.test_bench_page import DRAWN
from tests.browser.test_navigation import TUCKED
from tests.engines.test_every_engine import clean, ready

HEADER_DOWN = """() => { const h = document.querySelector('.site-header');
  return h.getBoundingClientRect().top === 0 && !h.getAnimations().length && !h.classList.contains('is-tucked'); }"""


@pytest.mark.parametrize(("path", "figure", "depth"), [("mixture/", "fig-002", 1600), ("bench/", "fig-004", 2400)])
def test_back_after_a_header_link_keeps_the_place_and_focus_there(engine, site_url, path, figure, depth):
    engine.open(site_url + path)
    ready(engine, figure)
    engine.wait_for(DRAWN)
    # reading down the chapter, then a short scroll up that brings the header down over the page
    engine.call(f"() => scrollTo(0, {depth})")
    engine.wait_for(TUCKED, what="the header tucked away")
    engine.call("() => scrollBy(0, -120)")
    engine.wait_for(HEADER_DOWN, what="the header down over the page")
    place = engine.call(PLACE_AT_REST)
    engine.click('.site-header a[href="../lab/"]')  # a real pointer, where the link is on screen
    engine.wait_for("() => location.pathname.endsWith('/lab/') && !!document.querySelector('#fig-003')")
    engine.back()
    engine.wait_for(f"() => !location.pathname.endsWith('/lab/') && !!document.querySelector('#{figure}')")
    back = engine.call(PLACE_AT_REST)
    assert same_place(back, place), (engine.name, path, back, place)
    assert engine.call(FOCUS_IN_VIEW), (engine.name, engine.call("() => document.activeElement.outerHTML.slice(0, 80)"))
    # the first Tab goes on from where the reader is, not from the top of the page
    at = engine.call("() => scrollY")
    engine.type_text("\ue004")  # WebDriver's Tab key
    engine.wait_for("() => document.activeElement !== document.body")
    assert abs(engine.call("() => scrollY") - at) < 450, (engine.name, path, at)
    clean(engine)


# Where the figure is, and where a link to it lands it: below the header (scroll-padding-top)
# by its own scroll-margin-top.
LANDED = """(id) => { const e = document.getElementById(id);
  const want = (parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0)
    + (parseFloat(getComputedStyle(e).scrollMarginTop) || 0);
  return [Math.round(e.getBoundingClientRect().top), Math.round(want)]; }"""


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (360, 740)])
def test_a_link_to_a_figure_keeps_it_where_it_landed_while_the_page_grows_above(engine, site_url, width, height):
    try:
        engine.resize(width, height)
        engine.open(site_url + "bench/#fig-006")
        ready(engine, "fig-004")
        engine.wait_for(DRAWN)
        # the page at rest: nothing drawn or moved for half a second of frames
        engine.call(PLACE_AT_REST)
        top, want = engine.call(LANDED, "fig-006")
        assert abs(top - want) <= 1, (engine.name, width, top, want)
        clean(engine)
    finally:
        engine.resize(1280, 900)
