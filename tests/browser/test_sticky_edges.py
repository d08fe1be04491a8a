"""The working tables' sticky result columns at phone width: numbers scrolling under the
weight column fade into it, so no cut glyph (a lone "−" of the next column) shows at its edge."""

from __future__ import annotations

import pytest

from tests.browser.conftest import FRAMES, settle, watch, within
from tests.browser.test_bench_page import DRAWN, READY

# Every number of the table's body drawn in transparent ink: what is left is what the table
# draws regardless of its numbers (the page's own styles allow no inline <style>, so the test
# page is opened with its policy bypassed for this one sheet).
NO_TEXT = ".working tbody :is(td, th) { color: transparent !important; }"


def edge_strips(page, table: str, offsets: list[int]) -> list[bytes]:
    """PNGs of the 3 px just left of the sticky weight column, for each body row, with the
    table scrolled sideways by each offset."""
    shots = []
    wrap = page.locator(f"{table} .table-wrap").first
    for offset in offsets:
        wrap.evaluate("(w, x) => { w.scrollLeft = x; }", offset)
        page.evaluate(FRAMES)
        for cell in page.locator(f"{table} tbody td.weight").all():
            box = cell.bounding_box()
            shots.append(page.screenshot(clip={"x": box["x"] - 3, "y": box["y"] + 2,
                                               "width": 3, "height": box["height"] - 4}))
    return shots


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_numbers_under_the_sticky_weight_column_leave_no_cut_glyph_at_its_edge(browser, server, theme):
    context = browser.new_context(viewport={"width": 360, "height": 900}, color_scheme=theme,
                                  bypass_csp=True, reduced_motion="reduce")
    w = watch(context, server)
    page = w.page
    page.goto(server + "bench/")
    # Python ready and the page still: a status line that changes as Python arrives, or a
    # transition, would move a row between reading its box and taking its picture
    page.wait_for_selector(READY)
    page.locator("#fig-005 .table-wrap").scroll_into_view_if_needed()
    page.wait_for_selector('#fig-005 .table-wrap[data-scrolls="true"]')  # it scrolls at 360 px
    settle(page)
    offsets = [0, 12, 24, 36, 48]
    with_numbers = edge_strips(page, "#fig-005", offsets)
    page.add_style_tag(content=NO_TEXT)
    without = edge_strips(page, "#fig-005", offsets)
    assert len(with_numbers) == len(offsets) * 8
    same = [a == b for a, b in zip(with_numbers, without)]
    assert all(same), [(offsets[k // 8], k % 8) for k, s in enumerate(same) if not s]
    context.close()
    w.assert_clean()


# The bench's working at rest: its scroll offset, how far it can scroll, each column passing
# under the sticky word column at that moment (its left and right edge, in px): a column cut
# there shows the end of its numbers without their start ("−75.000" as "00"); and the texts
# still drawn in a column cut by the sticky weight column ("38.0" of 38.084).
AT_REST = within(10, """async () => {
  const wrap = document.querySelector('#fig-005 .table-wrap');
  // At rest: no scroll for 300 ms. (Six still frames were not: a wheel's scroll stops at 144,
  // snaps to 143 some 120 ms later, and the page's scrollend comes some 100 ms after that.)
  let moved = performance.now();
  const onScroll = () => { moved = performance.now(); };
  wrap.addEventListener('scroll', onScroll, { passive: true });
  while (performance.now() - moved < 300) await new Promise((r) => requestAnimationFrame(r));
  wrap.removeEventListener('scroll', onScroll);
  const word = wrap.querySelector('thead .sticky-start').getBoundingClientRect().right;
  const heads = [...wrap.querySelectorAll('thead th:not(.sticky-start):not(:last-child)')];
  const cut = heads.map((th) => th.getBoundingClientRect())
    .filter((r) => r.left < word - 1 && r.right > word + 1)
    .map((r) => [Math.round(r.left), Math.round(r.right)]);
  // every text the weight column cuts, or its fade (half a rem to its left) reaches, and that
  // is still drawn (none should be: "6963.36" of 6963.364 with its last digit faded out)
  const last = wrap.querySelector('thead th:last-child');
  const weights = last.getBoundingClientRect().left - parseFloat(getComputedStyle(last, '::before').width);
  if (!(weights > 0)) throw new Error('the weight column has no fade');
  const shown = [];
  for (const th of heads) {
    for (const cell of wrap.querySelectorAll(`tr > :nth-child(${th.cellIndex + 1})`)) {
      const range = document.createRange();
      range.selectNodeContents(cell);
      const ink = range.getBoundingClientRect();
      if (ink.width > 0 && ink.left < weights - 0.5 && ink.right > weights + 0.5
          && getComputedStyle(cell).color !== 'rgba(0, 0, 0, 0)') shown.push(cell.textContent.trim());
    }
  }
  return { at: wrap.scrollLeft, end: wrap.scrollWidth - wrap.clientWidth, cut, shown };
}""")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_swiped_sideways_the_working_comes_to_rest_with_no_column_cut_under_the_words(booted, scheme):
    page = booted.open("bench/", width=360, scheme=scheme)
    wrap = page.locator("#fig-005 .table-wrap")
    wrap.scroll_into_view_if_needed()
    page.wait_for_selector('#fig-005 .table-wrap[data-scrolls="true"]')
    # Unscrolled, after a query with long numbers ("fixed": q·k 6963.364 ends just inside the
    # weight column's fade at 360 px): its last digit was faded out, to read "6963.36".
    page.click('#fig-005 tr[data-index="2"] button')
    page.wait_for_function("() => document.querySelector('#fig-005 tr.is-query')?.dataset.index === '2'")
    page.wait_for_function(DRAWN)
    first = page.evaluate(AT_REST)
    assert first["at"] == 0 and first["cut"] == [] and first["shown"] == [], first
    box = wrap.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    rests = []
    for swipe in [20, 25, 40, 55, 70, 400, -45, -30, -400]:
        page.mouse.wheel(swipe, 0)
        rest = page.evaluate(AT_REST)
        assert rest["cut"] == [] and rest["shown"] == [], (swipe, rest)
        rests.append(rest["at"])
    assert len(set(rests)) >= 4  # it moved, column by column
    assert rests[5] == page.evaluate(AT_REST)["end"] > 0  # the last column can still be reached
    assert rests[-1] == 0  # and the first
