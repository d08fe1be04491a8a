"""The bench in real Chromium: every part shows what CPython computes for the same state."""

from __future__ import annotations

import re

import pytest

from attention import bench_view

READY = '#fig-004 .runtime-status[data-state="ready"]'


@pytest.fixture
def bench(booted, viewport_width):
    """The bench, live, on the worker's shared page (its Python already booted)."""
    page = booted.open("bench/", width=viewport_width)
    page.wait_for_selector(READY, timeout=60000)
    return page


@pytest.fixture
def fresh_bench(site_page):
    """The bench, live, in a fresh context (axe would flag the shared page's skip link)."""
    site_page.page.goto(site_page.base + "bench/")
    site_page.page.wait_for_selector(READY, timeout=60000)
    return site_page.page


def shown_state(page) -> dict:
    """Read every number the bench shows: table, dials, strata and matrix, once every part is
    drawn (what is far from the screen is drawn when the page is idle, busy until then)."""
    page.wait_for_function(DRAWN)
    return page.evaluate(r"""() => ({
      table: [...document.querySelectorAll('#fig-005 tbody tr')].map(tr =>
        [...tr.querySelectorAll('td.num')].slice(1).map(td => td.textContent)),
      weights: [...document.querySelectorAll('#fig-005 tbody tr .weight .num')].map(e => e.textContent),
      total: [...document.querySelectorAll('#fig-005 tfoot tr > *')].map(e => e.textContent),
      needles: [...document.querySelectorAll('#fig-004 .dial .needle')].map(e =>
        Number(e.getAttribute('transform').match(/^rotate\((.*)\)$/)[1])),
      dials: [...document.querySelectorAll('#fig-004 .dial')].map(e => e.getAttribute('class')),
      readings: [...document.querySelectorAll('#fig-004 .dial .dial-reading')].map(e => e.textContent),
      strata: [...document.querySelectorAll('#fig-004 .stratum .fill')].map(e =>
        [Number(e.getAttribute('y')), Number(e.getAttribute('height'))]),
      matrix: [...document.querySelectorAll('#fig-006 tbody tr')].map(tr =>
        [...tr.querySelectorAll('td')].map(td => td.classList.contains('masked') ? null : td.textContent)),
      masks: [...document.querySelectorAll('#fig-006 tbody tr')].map(tr =>
        [...tr.querySelectorAll('td')].map(td => td.classList.contains('future') ? 'f'
          : td.classList.contains('shut') ? 's' : 'a').join('')),
      query: document.querySelector('#fig-004 [data-bind="carriage-word"]').textContent,
      summary: document.querySelector('#fig-004 [data-bind="summary"]').textContent,
    })""")


# No region of the page waits for a write (near.js marks one aria-busy meanwhile).
DRAWN = """() => !document.querySelector('main [aria-busy="true"]')"""


def expected_state(**state) -> dict:
    """What CPython computes for the same state, in the same shape."""
    v = bench_view.view(**state)
    d = v["drawing"]
    return {
        "table": [[r[k]["text"] for k in ("dot", "scaled", "tempered", "exp")] for r in v["rows"]],
        "weights": [r["weight"]["text"] for r in v["rows"]],
        # the total row under the columns: eᶻ⁻ᵐᵃˣ's sum, and the weights' 1.000
        "total": ["", "Total", "", "", "", "", v["total"]["exp"]["text"], v["total"]["weight"]["text"]],
        "needles": [dial["angle"] for dial in d["dials"]],
        "dials": [f"dial {dial['state']} c{dial['colour']} p{dial['pattern']}"
                  + (" best" if dial["best"] else "") + (" pinned" if dial["pinned"] else "")
                  + (" is-query" if dial["is_query"] else "") for dial in d["dials"]],
        "readings": [r["dot"]["text"] for r in v["rows"]],  # each dial shows the table's q·k
        "strata": [[s["y"], s["height"]] for s in d["strata"]],
        "matrix": [[cell[0] if cell else None for cell in row] for row in v["matrix"]],
        "masks": list(v["masks"]),
        "query": v["drawing"]["carriage"]["word"],  # a repeated word with its position
        "summary": v["summary"],
    }


def settle(page, word: str):
    """Wait until the carriage holds word (a repeated word with its position, as in "the₃")."""
    page.wait_for_function(
        f"() => document.querySelector('#fig-004 [data-bind=\"carriage-word\"]').textContent"
        f".replace(/[₀-₉]+$/, '') === '{word}'")


def test_static_state_equals_cpython(bench):
    assert shown_state(bench) == expected_state()


def test_clicking_a_row_makes_that_word_the_query(bench):
    bench.click('#fig-005 tr[data-index="4"]')
    settle(bench, "bridge")
    assert shown_state(bench) == expected_state(query=4)
    assert bench.get_attribute('#fig-005 tr[data-index="4"]', "class") == "is-query"
    assert bench.get_attribute('#fig-006 tbody tr[data-index="4"]', "class") == "is-query"


def test_switching_heads_and_temperature(bench):
    bench.check('input[name="head"][value="previous-token"]')
    bench.wait_for_function("() => document.querySelector('#fig-006 [data-bind=\"head\"]').textContent === 'previous-token'")
    assert shown_state(bench) == expected_state(head="previous-token")
    bench.fill("#bench-t", "4")
    bench.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"plate\"]').textContent.includes('4')")
    assert shown_state(bench) == expected_state(head="previous-token", temperature="4")
    bench.fill("#bench-t-range", "0")
    bench.wait_for_function("() => document.querySelector('#bench-t').value === '0.01'")  # lab.T_RANGE[0]
    assert shown_state(bench) == expected_state(head="previous-token", slider=0)
    assert bench.get_attribute("#bench-t-range", "aria-valuetext") == "T = 0.01"


def test_a_new_sentence_rebuilds_every_part(bench):
    sentence = "the teacher read the letter and then she left it on the table"
    bench.fill("#bench-sentence", sentence)
    bench.press("#bench-sentence", "Enter")
    bench.wait_for_function("() => document.querySelectorAll('#fig-005 tbody tr').length === 13")
    assert shown_state(bench) == expected_state(sentence=sentence)
    forty = " ".join(["the", "pilot", "saw", "it", "and", "she", "left", "the", "car"] * 4 + ["the"] * 4)
    bench.fill("#bench-sentence", forty)
    bench.click(".bench-controls button[type=submit]")
    bench.wait_for_function("() => document.querySelectorAll('#fig-006 tbody tr').length === 40")
    assert shown_state(bench) == expected_state(sentence=forty)


def test_unknown_words_are_named_and_the_sentence_stays(bench):
    bench.fill("#bench-sentence", "the techer read the blorp")
    bench.press("#bench-sentence", "Enter")
    bench.wait_for_function("() => document.querySelector('#bench-sentence-msg').textContent.length > 0")
    message = bench.inner_text("#bench-sentence-msg")
    assert "“techer” (try teacher" in message and "“blorp”" in message
    assert bench.get_attribute("#bench-sentence", "aria-invalid") == "true"
    assert shown_state(bench) == expected_state()  # the previous sentence stays


def test_shutting_every_stopcock_gives_a_message(bench):
    for j in range(6):
        bench.click(f'#fig-004 .valve[data-index="{j}"] .hit')
        bench.wait_for_function(f"() => document.querySelector('#fig-004 .valve[data-index=\"{j}\"]').classList.contains('shut')")
    assert shown_state(bench) == expected_state(shut=list(range(6)))
    bench.click('#fig-004 .valve[data-index="6"] .hit')
    bench.wait_for_function("() => document.querySelector('#bench-shut-msg').textContent.length > 0")
    assert bench.inner_text("#bench-shut-msg").startswith("Every key “she” may use is shut")
    assert shown_state(bench) == expected_state(shut=list(range(6)))
    assert not re.search(r"NaN|undefined", bench.inner_text("#fig-005"))
    bench.click('#fig-004 .valve[data-index="1"] .hit')  # open one again: the message goes
    bench.wait_for_function("() => document.querySelector('#bench-shut-msg').textContent === ''")
    assert shown_state(bench) == expected_state(shut=[0, 2, 3, 4, 5])
    assert bench.get_attribute('#fig-004 .valve[data-index="1"]', "aria-checked") == "true"  # open


STALE = """() => ['fig-004', 'fig-005', 'fig-006', 'fig-008'].map(id => {
  const f = document.getElementById(id), notice = f.querySelector(':scope > [data-bind="stale"]');
  const num = f.querySelector('.bench-working .weight .num, [data-bind="handset"] .num, .dial-reading, .matrix td');
  return [id, f.classList.contains('is-stale'), !notice.hidden && notice.getClientRects().length > 0,
          getComputedStyle(num).fontStyle];
})"""


def test_an_invalid_input_marks_every_bench_figure_out_of_date(fresh_bench):
    """The numbers of the last good state stay on screen, in grey italics under a notice in each
    bench figure, still readable (axe: no contrast failure); a valid input makes them current.
    FIG-008's trained column is fixed data: it is not marked."""
    from axe_playwright_python.sync_playwright import Axe

    from tests.browser.conftest import settle as settled

    bench = fresh_bench
    bench.fill("#bench-t", "abc")
    bench.wait_for_function("() => document.querySelector('#bench-t-msg').textContent.length > 0")
    bench.wait_for_function("() => document.querySelector('#fig-008').classList.contains('is-stale')")
    assert bench.evaluate(STALE) == [[f, True, True, "italic"]
                                     for f in ("fig-004", "fig-005", "fig-006", "fig-008")]
    assert shown_state(bench) == expected_state()  # the last good numbers, not blanks
    # the shares said in words are the last good state's too: greyed with the rest (a reader
    # read "gives 1.000 to itself" in plain text above a drawing marked out of date)
    assert bench.evaluate("""() => ['[data-bind="head-here"]', '.walk-numbers', '.output-value']
        .map(s => getComputedStyle(document.querySelector('#fig-004 ' + s)).fontStyle)""") == ["italic"] * 3
    status = bench.locator("#fig-004 .runtime-status")
    # (not "Live:" beside the last good numbers, as beside the build's: a reader read it as a contradiction)
    assert status.inner_text() == ("Python in your browser is ready, but this input cannot "
                                   "be computed; the numbers shown are for the last one that could.")
    assert bench.evaluate("""() => getComputedStyle(document.querySelector(
        '#fig-008 [data-bind="trained"] .num')).fontStyle""") == "normal"
    # the what-if panel's sentence ("Every step is in place: these are the real weights.") would
    # read as current: its status line says instead that the rows are for the last good state
    sentence = bench.locator('#fig-004 [data-whatif="sentence"]')
    assert sentence.is_hidden()
    assert bench.inner_text('#fig-004 [data-whatif="status"]') == (
        "These rows are for the last state that could be computed; fix the input above.")
    settled(bench)
    results = Axe().run(bench)
    assert results.violations_count == 0, results.generate_report()
    bench.fill("#bench-t", "2")
    bench.wait_for_function("() => !document.querySelector('#fig-004').classList.contains('is-stale')")
    bench.wait_for_function("() => !document.querySelector('#fig-008').classList.contains('is-stale')")
    assert [row[:3] for row in bench.evaluate(STALE)] == [[f, False, False]
                                                           for f in ("fig-004", "fig-005", "fig-006", "fig-008")]
    assert shown_state(bench) == expected_state(temperature="2")
    assert status.inner_text() == "Live: Python in your browser computed this state."
    assert sentence.is_visible() and sentence.inner_text() == "Every step is in place: these are the real weights."

def test_a_state_answered_from_the_build_says_python_is_ready_without_calling_it_live(bench):
    """With Python ready, a row one click away is answered from the build's table. The status
    says where this state came from, then that Python is ready, and does not open with "Live:"
    (a learner read "Live: this state was computed when the site was built" as a
    contradiction). Before any click, the page shows the build's numbers too: the status no
    longer says Python computed "every number you see"."""
    assert bench.inner_text("#fig-004 .runtime-status") == (
        "Live: Python in your browser is ready and computes every state you choose.")
    bench.click('#fig-005 tr[data-index="2"] button')
    settle(bench, "fixed")
    assert bench.inner_text("#fig-004 .runtime-status") == (
        "This state was computed when the site was built, by the same Python code; Python in "
        "your browser is ready and computes any other state you choose.")


def test_keyboard_only(bench):
    # A row's word is a button: Enter makes it the query.
    bench.focus('#fig-005 tr[data-index="2"] button')
    bench.keyboard.press("Enter")
    settle(bench, "fixed")
    # The matrix: arrow keys move, the live region reads the cell, Enter picks the row.
    bench.focus('#fig-006 td[data-col="0"]')
    bench.keyboard.press("ArrowDown")
    bench.keyboard.press("ArrowRight")
    assert bench.inner_text('#fig-006 [data-bind="readout"]') == "query engineer → key engineer: " + \
        expected_state(query=1)["matrix"][1][1]
    bench.keyboard.press("Enter")
    settle(bench, "engineer")
    # A stopcock: Space shuts it.
    bench.focus('#fig-004 .valve[data-index="0"]')
    bench.keyboard.press("Space")
    bench.wait_for_function("() => document.querySelector('#fig-004 .valve[data-index=\"0\"]').classList.contains('shut')")
    assert shown_state(bench) == expected_state(query=1, shut=[0])
    # The head radios answer to the arrow keys.
    bench.focus('input[name="head"][value="coreference"]')
    bench.keyboard.press("ArrowRight")
    bench.wait_for_function("() => document.querySelector('#fig-006 [data-bind=\"head\"]').textContent === 'verb-lookup'")
    assert shown_state(bench) == expected_state(query=1, shut=[0], head="verb-lookup")


@pytest.mark.parametrize("motion, duration", [("no-preference", "0.3s"), ("reduce", "0s")])
def test_parts_glide_unless_the_reader_asks_for_less_motion(browser, server, motion, duration):
    context = browser.new_context(reduced_motion=motion)
    page = context.new_page()
    page.goto(server + "bench/")
    durations = page.evaluate("""() => ['.needle', '.stratum rect', '.carriage'].map(s =>
        getComputedStyle(document.querySelector('#fig-004 ' + s)).transitionDuration)""")
    context.close()
    assert all(d.split(",")[0] == duration for d in durations), durations


def test_without_javascript_the_bench_shows_the_default_state(browser, server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server + "bench/")
    assert shown_state(page) == expected_state()
    assert page.is_hidden(".bench-controls")
    context.close()


def test_an_action_before_python_is_ready_changes_the_linked_state(browser, server):
    context = browser.new_context()
    page = context.new_page()
    page.goto(server + "bench/?head=sink&t=2")
    assert page.locator("#fig-004 .runtime-status").get_attribute("data-state") != "ready"  # loading
    page.click('#fig-005 tr[data-index="1"]')  # the reader acts at once
    page.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"carriage-word\"]')"
                           ".textContent === 'engineer'", timeout=60000)
    page.wait_for_timeout(200)
    assert shown_state(page) == expected_state(head="sink", temperature="2", query=1)
    page.wait_for_function("() => location.search.includes('head=sink') && location.search.includes('query=1')")
    context.close()
