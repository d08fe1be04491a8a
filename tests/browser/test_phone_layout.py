"""The chapters' figures at 360 and 1280 px in real Chromium: nothing cut off, long tables
scroll in a marked wrapper, numbers set alike."""

from __future__ import annotations

import pytest

from tests.browser.conftest import watch


READY = '.runtime-status[data-state="ready"]'


OVERFLOW = """(sel) => {
  const figure = document.querySelector(sel), box = figure.getBoundingClientRect();
  const out = [];
  for (const e of figure.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (!r.width || e.closest('.visually-hidden')) continue;
    const wrap = e.closest('.table-wrap');
    if (wrap && wrap.scrollWidth > wrap.clientWidth) continue;  // checked below: it scrolls
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5) out.push(e.tagName + ' ' + e.className);
  }
  const wraps = [...figure.querySelectorAll('.table-wrap')].map(w => ({
    scrolls: w.scrollWidth > w.clientWidth, role: w.getAttribute('role'), tabindex: w.getAttribute('tabindex'),
    cue: getComputedStyle(w).backgroundImage, caption: w.querySelector('caption, .table-caption') !== null}));
  return {out, wraps};
}"""


# How many lines each vector ("[a, b]") of a figure's tables takes, as a sorted set.
VECTOR_LINES = """(sel) => [...new Set([...document.querySelectorAll(sel + ' td.num, ' + sel + ' .key-vector')]
  .filter(e => e.textContent.trim().startsWith('[')).map(e => { const r = document.createRange();
    r.selectNodeContents(e); return new Set([...r.getClientRects()].map(c => Math.round(c.top))).size; }))].sort()"""


@pytest.fixture
def phone(browser, server):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    w = watch(context, server)
    yield w
    w.assert_clean()
    context.close()


@pytest.mark.parametrize("url, figure", [("roles/", "#fig-001"), ("mixture/", "#fig-002"), ("lab/", "#fig-003")])
def test_at_360px_no_part_of_a_figure_is_cut_off(phone, url, figure):
    page = phone.page
    page.goto(phone.base + url)
    if figure != "#fig-001":  # live: Python ready, or (a phone) asking before its download
        page.wait_for_function("(s) => ['ready', 'asking'].includes(document.querySelector(s)?.dataset.state)",
                               arg=f"{figure} .runtime-status", timeout=60000)
    seen = page.evaluate(OVERFLOW, figure)
    assert seen["out"] == []
    for wrap in seen["wraps"]:
        assert not wrap["caption"]  # the caption sits outside the scrolling part
        assert wrap["role"] == "region" and "gradient" in wrap["cue"]  # marked, and cued when it scrolls
        if figure == "#fig-003":
            assert not wrap["scrolls"]  # the default state's working fits a phone: results in view
    if figure != "#fig-003":  # the lab's key vector under its word: the lab table's own fix
        assert page.evaluate(VECTOR_LINES, figure) == [1]  # a vector never breaks inside its brackets
    if figure == "#fig-003":
        lines = page.evaluate("""() => [...document.querySelectorAll('#fig-003 .working thead th')].map(e => {
            const r = document.createRange(); r.selectNodeContents(e);
            const tops = [...r.getClientRects()].map(c => c.top).sort((a, b) => a - b);
            return tops.filter((t, k) => k === 0 || t - tops[k - 1] > 8).length; })""")  # a subscript is no line
        assert lines[2:5] == [1, 1, 1]  # "÷ √dk", "÷ T" and "− largest" each stay on one line
        top = lambda sel: page.locator(sel).evaluate("e => e.getBoundingClientRect().top")  # noqa: E731
        assert abs(top("#lab-t") - top("#lab-t-range")) < 20  # the T box stays beside its slider


def test_a_long_working_scrolls_inside_its_marked_wrapper(phone):
    page = phone.page
    page.goto(phone.base + "lab/?q=999.5,-999.5&t=0.01")
    page.wait_for_selector("#fig-003 .runtime-action", timeout=60000)  # a phone is asked first
    page.click("#fig-003 .runtime-action")  # the reader agrees to load Python for the link's state
    page.wait_for_selector(f"#fig-003 {READY}", timeout=60000)
    page.wait_for_function("() => document.querySelector('#lab-q1').value === '999.5'", timeout=60000)
    seen = page.evaluate(OVERFLOW, "#fig-003")
    assert seen["out"] == []
    wrap = page.locator("#fig-003 .table-wrap").first  # the working table (the what-if table follows)
    if seen["wraps"][0]["scrolls"]:
        assert wrap.get_attribute("tabindex") == "0" and wrap.get_attribute("data-scrolls") == "true"


@pytest.mark.parametrize("url, figure", [("roles/", "#fig-001"), ("mixture/", "#fig-002"), ("lab/", "#fig-003")])
def test_at_1280px_the_toy_tables_fit_their_figures(desktop, url, figure):
    desktop.page.goto(desktop.base + url)
    seen = desktop.page.evaluate(OVERFLOW, figure)
    assert seen["out"] == [] and not any(w["scrolls"] for w in seen["wraps"])
    assert desktop.page.evaluate(VECTOR_LINES, figure) == [1]  # "[1.000," never ends a line


def test_at_360px_fig_002s_query_edge_clears_its_word_and_bars_are_readable(phone):
    page = phone.page
    page.goto(phone.base + "mixture/")
    seen = page.evaluate("""() => {
      const th = document.querySelector('#fig-002 tr.is-query > th');
      const edge = parseFloat(getComputedStyle(th).boxShadow.match(/(\\d+(\\.\\d+)?)px 0px 0px 0px/)[1]);
      const left = th.getBoundingClientRect().left;
      const glyphs = [...th.querySelectorAll('.key-token, .key-vector')].map(e => {
        const r = document.createRange(); r.selectNodeContents(e); return r.getClientRects()[0].left - left; });
      return {edge, glyphs, bars: [...document.querySelectorAll('#fig-002 .bar')].map(b => b.getBoundingClientRect().width)};
    }""")
    assert seen["edge"] >= 3 and all(g >= seen["edge"] + 2 for g in seen["glyphs"])  # no glyph under the edge
    assert min(seen["bars"]) >= 36  # 0.140 of the bar is at least 5 px, not a sliver


def test_the_whatif_footer_numbers_look_like_the_rows_numbers(no_js, server):
    no_js.goto(server + "lab/")
    style = """(sel) => { const e = document.querySelector(sel), s = getComputedStyle(e);
      return [s.fontFamily, s.fontWeight, s.fontSize]; }"""
    row = no_js.evaluate(style, '#fig-003 .whatif-table [data-whatif="real"]')
    for cell in ("real-top", "real-entropy"):
        assert no_js.evaluate(style, f'#fig-003 .whatif-table [data-whatif="{cell}"]') == row


# (in a page function) the box of what an element draws, its text, not of the element
TEXT_BOX = "  const textBox = (e) => { const r = document.createRange(); r.selectNodeContents(e); return r.getBoundingClientRect(); };\n"


# For each heading of FIG-005's number columns (j, q·k, ÷ √8, ÷ T, e^(z − max)): where its
# text ends, where its column's first number ends, and the room between the ends of the texts
# of "Terms qc kc" and the q·k heading.
HEADINGS = """() => {
""" + TEXT_BOX + """  const heads = [...document.querySelectorAll('#fig-005 thead th')];
  const first = [...document.querySelectorAll('#fig-005 tbody tr:first-child > *')];
  const ends = [0, 3, 4, 5, 6].map((i) => [heads[i].textContent, Math.round(textBox(heads[i]).right),
                                           Math.round(textBox(first[i]).right)]);
  return { ends, room: textBox(heads[3]).left - textBox(heads[2]).right };
}"""


@pytest.mark.parametrize("width", [360, 1280])
def test_each_number_heading_of_the_working_stands_over_its_numbers(browser, server, width):
    """A number column's heading ends where its numbers end (set at its column's start, "q·k"
    ran on from "Terms qc kc" as one heading on a phone, and stood far left of its digits at
    1280 px)."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    w = watch(context, server)
    w.page.goto(server + "bench/")
    w.page.locator("#fig-005 thead").scroll_into_view_if_needed()
    shown = w.page.evaluate(HEADINGS)
    for heading, head_end, number_end in shown["ends"]:
        assert abs(head_end - number_end) <= 1, (heading, head_end, number_end)
    assert shown["room"] >= 16, shown
    w.assert_clean()
    context.close()


# Between the texts of each two neighbouring number columns of FIG-005 (the heading row and every
# body row), from q·k to the last before the weights: the narrowest gap, in px, and where; and
# the columns shown whole before the table is scrolled.
COLUMN_GAPS = """() => {
""" + TEXT_BOX + """  const rows = [...document.querySelectorAll('#fig-005 thead tr, #fig-005 tbody tr')];
  let least = [Infinity, ''];
  for (const row of rows) {
    const cells = [...row.children].slice(0, -1);  // (the weights stick at the right edge)
    for (let k = 3; k + 1 < cells.length; k++) {
      const gap = textBox(cells[k + 1]).left - textBox(cells[k]).right;
      if (gap < least[0]) least = [gap, `${cells[k].textContent} | ${cells[k + 1].textContent}`];
    }
  }
  const edge = document.querySelector('#fig-005 thead th:last-child').getBoundingClientRect().left;
  const whole = [...document.querySelectorAll('#fig-005 thead th')].slice(0, -1)
    .filter((th) => th.getBoundingClientRect().right <= edge).map((th) => th.textContent);
  return [least, whole];
}"""


def test_on_a_phone_the_workings_columns_read_apart(phone):
    """At 360 px FIG-005's numbers and headings after q·k are a word's space apart at least:
    5 px apart, "−26.517 −26.517" read as one run, and "÷ T" and "e^(z − max)" as one heading.
    Before the table is scrolled, q·k still shows whole beside the weights."""
    phone.page.goto(phone.base + "bench/")
    phone.page.wait_for_selector('#fig-005 .table-wrap[data-scrolls="true"]')
    (gap, where), whole = phone.page.evaluate(COLUMN_GAPS)
    assert gap >= 8, (round(gap, 1), where)
    assert whole == ["j", "Word", "Terms qckc", "q·k"]


def test_on_a_phone_the_scroll_cue_shows_only_over_a_table_that_scrolls(phone):
    # Review 4: the lab's working fits a 360 px phone (326 px in a 326 px column), yet its
    # "↔ Scroll sideways…" cue showed, pointing at nothing to scroll.
    page = phone.page
    page.goto(phone.base + "lab/")
    cue = page.locator("#fig-003 .scroll-cue").first
    wrap = page.locator("#fig-003 .table-wrap").first
    page.wait_for_function("() => document.querySelector('#fig-003 .table-wrap').dataset.scrolls === 'false'")
    assert wrap.evaluate("w => w.scrollWidth <= w.clientWidth")
    assert not cue.is_visible()
    # FIG-005's wide table does scroll on a phone, and keeps its cue
    page.goto(phone.base + "bench/")
    page.wait_for_function("() => document.querySelector('#fig-005 .table-wrap').dataset.scrolls === 'true'")
    assert page.locator("#fig-005 .scroll-cue").first.is_visible()


def test_at_360px_each_embeds_url_parameters_fit_without_a_sideways_scroll(phone):
    """The embed guide's parameter tables, on a phone: a teacher missed the Default column,
    cut off at the screen's edge with nothing saying the table scrolled."""
    page = phone.page
    page.goto(phone.base + "embed/")
    widths = page.evaluate("""() => [...document.querySelectorAll('table.params')].map((t) =>
      [t.getAttribute('aria-labelledby'), t.closest('.table-wrap').clientWidth, t.scrollWidth])""")
    assert len(widths) >= 5
    assert [w for w in widths if w[2] > w[1]] == []
