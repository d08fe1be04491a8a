"""templates/static/js/near.js on the bench at 40 words, in real Chromium: a click writes the
working table's rows near the screen in the frame that shows its answer, and the rows and the
drawing far off screen once the page is idle or they come near. Every row then equals the
core's (attention.bench_view, not the page), and the table reads to a screen reader exactly as
the same state's table written whole, opened from its link."""

from __future__ import annotations

from attention import bench_view
from attention.bench_drawing import names
from tests.browser.test_bench_figures import FORTY, live, use_sentence  # noqa: F401 (live: a fixture)
from tests.browser.conftest import within
from tests.browser.test_bench_page import DRAWN

# Each row of FIG-005 as a reader (and a screen reader) gets it.
ROWS = """() => [...document.querySelectorAll('#fig-005 tbody tr')].map(tr => {
  const [j, word, terms, ...cells] = tr.cells;
  return {index: Number(j.textContent), word: word.textContent.trim(),
          terms: terms.firstElementChild.getAttribute('aria-label'),
          strip: [...terms.firstElementChild.children].map(c => c.getAttribute('class')),
          numbers: cells.slice(0, 4).map(c => c.textContent),
          weight: cells[4].querySelector('.num').textContent,
          note: cells[4].querySelector('.row-note').textContent,
          bar: cells[4].querySelector('.bar-fill').getAttribute('width'),
          future: tr.classList.contains('future'), shut: tr.classList.contains('shut'),
          query: tr.classList.contains('is-query')};
})"""

# Click a row's word; in the microtask after the task that drew the answer (before any later
# task: the page's idle work comes after the frame), read every row, which rows meet the
# screen, and the drawing's query word. The row is scrolled to the screen's middle first.
CLICK_AND_READ = """async (j) => {
  const button = document.querySelector(`#fig-005 tr[data-index="${j}"] button`);
  button.scrollIntoView({block: 'center'});
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const said = document.querySelector('#fig-004 [data-bind="announce"]');
  const before = said.textContent;
  const drawn = new Promise((resolve) => {
    const mo = new MutationObserver(() => {
      if (said.textContent === before) return;
      mo.disconnect();
      const onScreen = [...document.querySelectorAll('#fig-005 tbody tr')].map((tr) => {
        const box = tr.getBoundingClientRect();
        return box.bottom > 0 && box.top < innerHeight;
      });
      resolve({rows: (ROWS)(), onScreen, busy: document.querySelector('#fig-005 tbody').getAttribute('aria-busy'),
               carriage: document.querySelector('#fig-004 [data-bind="carriage-word"]').textContent});
    });
    mo.observe(said, {childList: true, characterData: true, subtree: true});
  });
  button.click();
  return drawn;
}""".replace("(ROWS)", f"({ROWS})")


def core_rows(state: dict) -> list[dict]:
    """The rows the core computes for state, in the fields ROWS reads."""
    view = bench_view.view(**state)
    return [{"index": r["index"], "word": r["word"], "terms": f"terms {r['strip']['terms']}",
             "strip": [f"cell {s} l{lv}" for s, lv in zip(r["strip"]["signs"], r["strip"]["levels"])],
             "numbers": [r[k]["text"] for k in ("dot", "scaled", "tempered", "exp")],
             "weight": r["weight"]["text"], "note": r["note"], "bar": str(r["bar"]),
             "future": r["future"], "shut": r["shut"], "query": r["is_query"]} for r in view["rows"]]


def test_a_click_draws_the_rows_on_screen_at_once_and_the_far_ones_equal_the_core_once_near(live):
    use_sentence(live, FORTY, query=33)  # "left"; the click makes "car" (35) the query
    # every row written for query 33 first: its far rows are written once the page is idle, and
    # a click before that (a busy machine) found row 11 still showing the state before 33's
    live.wait_for_function(DRAWN)
    before, after = core_rows({"sentence": FORTY, "query": 33}), core_rows({"sentence": FORTY, "query": 35})
    seen = live.evaluate(CLICK_AND_READ, 35)
    on_screen = [k for k, on in enumerate(seen["onScreen"]) if on]
    assert len(on_screen) >= 10 and 0 not in on_screen
    for k in on_screen:  # every row a reader sees is the new state's, in the click's own frame
        assert seen["rows"][k] == after[k], k
    # far above the screen (8 rows of some 43 px and more), the rows and the
    # drawing are not written yet: they still show the state before, which here differs
    far = range(min(on_screen) - 8)
    assert len(far) >= 10 and any(before[k] != after[k] for k in far)
    assert [seen["rows"][k] for k in far] == [before[k] for k in far]
    assert seen["carriage"] == names(FORTY.split())[33]  # a repeated word, with its position
    assert seen["busy"] == "true"  # the table says its words are about to change
    # ... and once they come near they are the core's, the drawing too
    live.evaluate("document.querySelector('#fig-005 tr[data-index=\"0\"]').scrollIntoView({block: 'center'})")
    live.wait_for_function("""() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))""")
    assert live.evaluate(ROWS)[:10] == after[:10]  # (rows 1 and 5 are among those that changed)
    live.wait_for_function(f"""() => document.querySelector('#fig-004 [data-bind="carriage-word"]').textContent
        === {names(FORTY.split())[35]!r}""")
    # the rows still further down are written once the page is idle: when the table no longer
    # says it is busy (a busy machine read row 12 before that: fresh-clone CI)
    live.wait_for_function("() => document.querySelectorAll('main [aria-busy]').length === 0")
    assert live.evaluate(ROWS) == after


def test_the_table_reads_as_the_same_states_table_written_whole(live, browser):
    use_sentence(live, FORTY, query=20)
    live.evaluate(CLICK_AND_READ, 31)
    expected = core_rows({"sentence": FORTY, "query": 31})
    live.wait_for_function(f"() => ({ROWS})().every((r, k) => r.numbers.join() === {[r['numbers'] for r in expected]!r}[k].join())")
    assert live.evaluate(ROWS) == expected
    heard = live.locator("#fig-005 table").aria_snapshot()
    live.wait_for_function("() => new URLSearchParams(location.search).get('query') === '31'")
    link = live.url  # the address follows the state: a reader's copied link
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(link)  # its table is written whole, from the link's one answer
        page.wait_for_function(f"() => ({ROWS})().length === 40 && ({ROWS})()[31].query")
        page.wait_for_function(DRAWN)  # (its rows off screen are written once it is idle)
        assert page.evaluate(ROWS) == expected
        assert page.locator("#fig-005 table").aria_snapshot() == heard
    finally:
        context.close()
    assert "31" in heard and FORTY.split()[31] in heard


# A visit's first click, made as soon as a row of FIG-005 can be clicked (its button is there
# and a frame has been drawn since): at arrival the working table and the drawing are far below
# the first screen. In the task that draws the answer, read whether they wait (aria-busy) and
# which row is marked as the query.
CLICK_AT_ARRIVAL = """() => { window.__arrival = new Promise((resolve) => {
  const click = (button) => {
    const said = document.querySelector('#fig-004 [data-bind="announce"]');
    const before = said.textContent;
    new MutationObserver((_, mo) => {
      if (said.textContent === before) return;
      mo.disconnect();
      const row = document.querySelector('#fig-005 tr[data-index="3"]');
      resolve({table: document.querySelector('#fig-005 tbody').getAttribute('aria-busy'),
               drawing: document.querySelector('#fig-004 .bench-body').getAttribute('aria-busy'),
               trained: document.getElementById('fig-008').getAttribute('aria-busy'),
               marked: row.classList.contains('is-query'),
               pressed: row.querySelector('button').getAttribute('aria-pressed'),
               top: row.getBoundingClientRect().top, screen: innerHeight});
    }).observe(said, {childList: true, characterData: true, subtree: true});
    button.click();
  };
  new MutationObserver((_, mo) => {
    const button = document.querySelector('#fig-005 tr[data-index="3"] button');
    if (!button) return;
    mo.disconnect();
    requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => click(button); c.port2.postMessage(0); });
  }).observe(document, {subtree: true, childList: true});
}); }"""


def test_a_click_at_arrival_writes_what_is_far_below_the_first_screen_later(browser, server):
    """The observer's first report of where the rows are comes in a task after the frame that
    placed them; a click right after that frame once wrote every row and the drawing in its own
    frame, off screen as they were. It now takes that report at once (near.js placeNow)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        context.add_init_script(script=f"({CLICK_AT_ARRIVAL})()")
        page = context.new_page()
        page.goto(server + "bench/")
        seen = page.evaluate(within(30, "() => window.__arrival"))
        assert seen["top"] > 2 * seen["screen"]  # the table is well below the first screen
        assert (seen["marked"], seen["pressed"]) == (True, "true")  # the reader's choice, at once
        assert (seen["table"], seen["drawing"]) == ("true", "true")  # the rest waits, and says so
        assert seen["trained"] == "true"  # FIG-008, further below: its rows are not even fetched yet
        page.wait_for_function(DRAWN)  # ... for the page's first idle moment
        assert page.evaluate(ROWS) == core_rows({"query": 3})
        word = bench_view.view(query=3)["query"]["word"]
        assert page.evaluate("document.querySelector('#fig-004 [data-bind=\"carriage-word\"]').textContent") == (
            bench_view.view(query=3)["sentence"]["names"][3])
        assert page.evaluate("document.querySelector('#fig-008 [data-bind=\"query-word\"]').textContent") == word
    finally:
        context.close()
