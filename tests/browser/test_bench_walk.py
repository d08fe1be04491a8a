"""The guided walk through the bench, and the bench for keyboards and screen readers (issue 22):
six steps by keyboard, each lighting its part and announcing the numbers the table shows; the
tray's weights and the carriage's query in the accessibility tree; Home/End/PageUp/PageDown in
the matrix; Reset. Expected values come from attention.bench_view, computed here."""

from __future__ import annotations

import json

import pytest

from attention import bench_view
from tests.browser.test_bench_figures import ax_nodes, open_page, polite_text
from tests.browser.test_bench_page import DRAWN

READY = '#fig-004 .runtime-status[data-state="ready"]'
PARTS = ["carriage", "dials", "plate", "reservoir", "valves", "tray"]


@pytest.fixture
def live(booted):
    page = booted.open("bench/")
    page.wait_for_selector(READY, timeout=60000)
    return page


def heard(page, text: str) -> list[str]:
    """The polite live regions' text once it holds `text` (at most 10 s)."""
    for _ in range(50):
        spoken = polite_text(ax_nodes(page))
        if text in spoken:
            return spoken
        page.wait_for_timeout(200)
    return spoken


def table(page) -> dict[str, list[str]]:
    """FIG-005's cells by column: q·k, ÷ √8, ÷ T, e^(z − max), weight, one per word, once
    every row is written (rows off screen are written once the page is idle: near.js)."""
    page.wait_for_function(DRAWN)
    cells = page.eval_on_selector_all("#fig-005 tbody tr", """trs => trs.map(tr =>
        [...tr.querySelectorAll('td.num')].slice(1).map(td => td.textContent)
          .concat([tr.querySelector('.weight .num').textContent]))""")
    return {name: [row[k] for row in cells] for k, name in
            enumerate(["dot", "scaled", "tempered", "exp", "weight"])}


def test_the_walk_takes_six_steps_by_keyboard_and_says_the_tables_numbers(live):
    live.click('#fig-005 tr[data-index="4"] button')  # query "bridge", T = 2
    live.fill("#bench-t", "2")
    expected = bench_view.view(query=4, temperature="2")
    live.wait_for_function(f"""() => document.querySelector('#fig-004 [data-bind="announce"]')
        .textContent === {expected['announce']!r}""")
    shown = table(live)
    rows = expected["rows"]
    assert shown["weight"] == [r["weight"]["text"] for r in rows]  # the table is Python's
    live.focus("#fig-004 .walk-start")
    live.keyboard.press("Enter")
    for k, step in enumerate(expected["walk"]):
        if k:
            live.keyboard.press("ArrowRight" if k % 2 else "PageDown")  # focus stays in the walk
        spoken = heard(live, step["said"])
        assert step["said"] in spoken, (k, spoken)
        assert step["said"].startswith(f"Step {k + 1} of 6, coreference head, T = 2.")
        state = live.evaluate("""() => ({
          lit: document.querySelector('#fig-004 .bench-drawing').dataset.lit,
          shown: [...document.querySelectorAll('#fig-004 .bench-captions > li')]
            .filter(li => getComputedStyle(li).display !== 'none').map(li => li.value),
          where: document.querySelector('#fig-004 [data-bind="walk-where"]').textContent })""")
        assert state == {"lit": PARTS[k], "shown": [k + 1], "where": f"Step {k + 1} of 6"}
        # the numbers said are the table's, cell for cell
        if k == 1:  # the range of q·k over the open keys, as the table shows it
            dots = {shown["dot"][r["index"]]: float(shown["dot"][r["index"]].replace("−", "-"))
                    for r in rows if r["allowed"]}
            low, high = min(dots, key=dots.get), max(dots, key=dots.get)
            assert f"q·k from {low} to {high} over the {len(dots)} open keys" in step["said"]
        column = {1: "dot", 2: "tempered", 4: "exp", 5: "weight"}.get(k)
        if column:
            for r in sorted((r for r in rows if r["allowed"]), key=lambda r: -r["weight"]["value"])[:3]:
                label = f"{r['word']}{' (the query)' if r['is_query'] else ''}"
                assert f"{label} {shown[column][r['index']]}" in step["said"]
    assert expected["query"]["vector"]["text"] in expected["walk"][0]["said"]
    live.keyboard.press("ArrowLeft")
    assert live.evaluate("document.querySelector('#fig-004 .bench-drawing').dataset.lit") == "valves"
    live.keyboard.press("Home")
    assert live.evaluate("document.querySelector('#fig-004 .bench-drawing').dataset.lit") == "carriage"
    live.keyboard.press("Escape")  # every step again, nothing lit
    assert live.evaluate("""() => !document.querySelector('#fig-004 .bench-drawing').dataset.lit &&
        [...document.querySelectorAll('#fig-004 .bench-captions > li')]
          .every(li => getComputedStyle(li).display !== 'none')""")


LOOK = """() => {
  const opacity = (s) => getComputedStyle(document.querySelector(`#fig-004 .bench-drawing ${s}`)).opacity;
  const start = document.querySelector('#fig-004 .walk-start');
  const next = document.querySelector('#fig-004 .walk-next');
  return { name: start.textContent, pressed: start.getAttribute('aria-pressed'),
           startFill: getComputedStyle(start).backgroundColor,
           nextEdge: getComputedStyle(next).borderTopColor,
           accent: getComputedStyle(document.documentElement).getPropertyValue('--accent').trim(),
           dials: opacity('.dials'), plate: opacity('.plate'), tank: opacity('.reservoir') };
}"""


def test_while_walking_next_is_the_main_action_and_the_plate_step_lights_the_needles(live):
    """A reader took "Show every step", filled in the accent colour, for the main action; and
    the needles show z, the plate's output, so the plate's step lights them too."""
    live.click("#fig-004 .walk-start")
    live.click("#fig-004 .walk-next")
    live.click("#fig-004 .walk-next")  # step 3: the plate
    live.wait_for_timeout(400)  # the lighting's 0.2 s fade
    look = live.evaluate(LOOK)
    assert look["name"] == "Show every step" and look["pressed"] is None  # a plain button, named for what it does
    assert look["startFill"] == "rgba(0, 0, 0, 0)"  # drawn as a link, not filled
    accent = live.evaluate(f"""() => {{ const el = document.createElement('i');
        el.style.color = {look['accent']!r}; document.body.append(el);
        const c = getComputedStyle(el).color; el.remove(); return c; }}""")
    assert look["nextEdge"] == accent
    assert (look["dials"], look["plate"]) == ("1", "1") and float(look["tank"]) < 0.5


def test_reset_ends_the_walk(live):
    """Review 4 (Confusing 12): after "Reset the bench" the walk stayed at "Step 5 of 6"; the
    bench as the page first showed it shows every step."""
    live.click("#fig-004 .walk-start")
    for _ in range(4):
        live.click("#fig-004 .walk-next")  # step 5 of 6
    assert live.evaluate("() => document.querySelector('#fig-004').classList.contains('walking')")
    live.click("#fig-004 .bench-reset")
    live.wait_for_function("() => !document.querySelector('#fig-004').classList.contains('walking')")
    assert live.text_content("#fig-004 .walk-start") == "Walk me through the steps"
    assert live.is_hidden("#fig-004 .walk-steer")
    assert live.evaluate("""() => !document.querySelector('#fig-004 .bench-drawing').hasAttribute('data-lit')
        && !document.querySelector('#fig-004 .bench-captions > li.is-current')""")


def test_the_walk_follows_a_new_query(live):
    live.click("#fig-004 .walk-start")
    live.click("#fig-004 .walk-next")  # step 2: the dials
    live.click('#fig-005 tr[data-index="2"] button')
    expected = bench_view.view(query=2)["walk"][1]
    live.wait_for_function(f"""() => document.querySelector(
        '#fig-004 .bench-captions > li.is-current [data-walk-numbers]').textContent
        === {json.dumps(expected['numbers'])}""")
    assert expected["said"] in heard(live, expected["said"])


def test_without_javascript_the_walk_is_a_numbered_list_with_the_builds_numbers(browser, server):
    context, w = open_page(browser, server, js=False)
    expected = bench_view.view()
    items = w.page.eval_on_selector_all("#fig-004 .bench-captions > li", """lis => lis.map(li =>
        [li.value, li.querySelector('[data-walk-numbers]').textContent, getComputedStyle(li).display])""")
    assert [(v, text) for v, text, _ in items] == [(s["n"], s["numbers"]) for s in expected["walk"]]
    assert all(display != "none" for _, _, display in items)
    assert w.page.is_hidden("#fig-004 .walk-controls")
    output = w.page.eval_on_selector_all("#fig-004 [data-output]", "es => es.map(e => e.textContent)")
    assert output == [e["text"] for e in expected["output"]]
    context.close()


def test_the_accessibility_tree_names_the_carriage_and_the_trays_weights(live):
    live.click('#fig-005 tr[data-index="5"] button')
    expected = bench_view.view(query=5)
    live.wait_for_function(f"""() => document.querySelector('#fig-004 [data-bind="announce"]')
        .textContent === {expected['announce']!r}""")
    live.locator("#fig-004 .bench-drawing").scroll_into_view_if_needed()
    live.wait_for_timeout(300)
    names = {(n.get("role", {}).get("value"), n.get("name", {}).get("value")) for n in ax_nodes(live)}
    assert ("image", expected["drawing"]["carriage"]["label"]) in names
    assert ("group", "The tray: each word's weight") in names
    for s in expected["drawing"]["strata"]:
        assert ("image", s["text"]) in names, s["text"]  # "bridge 0.5…": word and weight
    assert expected["announce"].startswith("coreference head, T = 1: ")
    assert expected["announce"] in heard(live, expected["announce"])


def test_the_matrix_takes_home_end_page_up_and_page_down(live):
    live.locator('#fig-006 tbody tr[data-index="3"] td[data-col="1"]').focus()
    n = len(bench_view.view()["sentence"]["words"])

    def at():
        return live.evaluate("""() => { const td = document.activeElement;
            return [td.parentElement.sectionRowIndex, Number(td.dataset.col)]; }""")
    live.keyboard.press("End")
    assert at() == [3, n - 1]
    live.keyboard.press("Home")
    assert at() == [3, 0]
    live.keyboard.press("PageDown")
    assert at() == [n - 1, 0]
    live.keyboard.press("PageUp")
    assert at() == [0, 0]
    live.keyboard.press("Control+End")
    assert at() == [n - 1, n - 1]
    live.keyboard.press("Control+Home")
    assert at() == [0, 0]
    readout = live.text_content('#fig-006 [data-bind="readout"]')
    assert readout.startswith("query the₀ → key the₀: ")


def test_reset_brings_the_bench_back_to_how_it_opened(live):
    first = bench_view.view()
    live.check('#fig-004 input[name="head"][value="sink"]')
    live.fill("#bench-t", "5")
    live.click('#fig-005 tr[data-index="3"] button')
    changed = bench_view.view(head="sink", temperature="5", query=3)
    live.wait_for_function(f"""() => document.querySelector('#fig-004 [data-bind="announce"]')
        .textContent === {changed['announce']!r}""")
    live.click("#fig-004 .bench-reset")
    live.wait_for_function(f"""() => document.querySelector('#fig-004 [data-bind="announce"]')
        .textContent === {first['announce']!r}""")
    assert table(live)["weight"] == [r["weight"]["text"] for r in first["rows"]]
    assert live.input_value("#bench-t") == first["temperature"]["text"]
    assert live.is_checked('#fig-004 input[name="head"][value="coreference"]')
    assert live.text_content('#fig-004 [data-bind="head-here"]') == first["head"]["here"]


def test_both_temperature_sliders_say_t_to_a_screen_reader(booted):
    """Chromium's tree gives a range input's value (the slider's 0 to 1000 position) as its
    valuetext, whatever aria-valuetext says; the slider's name carries T instead."""
    for path, slider, field, figure in [("bench/", "#bench-t-range", "#bench-t", "#fig-004"),
                                        ("lab/", "#lab-t-range", "#lab-t", "#fig-003")]:
        page = booted.open(path)
        page.wait_for_selector(f"{figure} {READY[9:]}", timeout=60000)
        page.fill(field, "2")
        page.wait_for_function(f"() => document.querySelector('{slider}').getAttribute('aria-valuetext') === 'T = 2'")
        for _ in range(25):
            names = [n.get("name", {}).get("value", "") for n in ax_nodes(page)
                     if n.get("role", {}).get("value") == "slider"]
            if any("T = 2" in name for name in names):
                break
            page.wait_for_timeout(200)
        assert any(name.startswith("Temperature") and name.endswith("now T = 2") for name in names), names


def test_on_a_phone_the_walk_moves_by_tap_and_by_swipe(browser, server):
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True,
                                  is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    page.goto(server + "bench/")
    lit = "() => document.querySelector('#fig-004 .bench-drawing').dataset.lit"
    page.tap("#fig-004 .walk-start")
    assert page.evaluate(lit) == PARTS[0]
    page.tap("#fig-004 .walk-next")
    assert page.evaluate(lit) == PARTS[1]
    # a swipe to the left across the shown step: on to the next one
    box = page.locator("#fig-004 .bench-captions > li.is-current").bounding_box()
    y = box["y"] + box["height"] / 2
    page.evaluate("""([x0, x1, y]) => {
      const li = document.querySelector('#fig-004 .bench-captions > li.is-current');
      const touch = (x) => new Touch({identifier: 1, target: li, clientX: x, clientY: y});
      li.dispatchEvent(new TouchEvent('touchstart', {bubbles: true, touches: [touch(x0)], changedTouches: [touch(x0)]}));
      li.dispatchEvent(new TouchEvent('touchend', {bubbles: true, touches: [], changedTouches: [touch(x1)]}));
    }""", [300, 80, y])
    assert page.evaluate(lit) == PARTS[2]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360  # no sideways scroll with the walk open
    context.close()


# The page at rest: scrollY unchanged over a few frames (a smooth scroll has ended) and no
# animation running (the header sliding down over the page, the lighting's fade): on a busy
# machine Firefox read the tray's step before the page had come to rest (CI at d2d0728).
AT_REST = """() => new Promise((done) => { let last = scrollY, still = 0;
  const look = () => { still = scrollY === last ? still + 1 : 0; last = scrollY;
    if (still >= 6 && document.getAnimations().every((a) => a.playState !== 'running')) done(scrollY);
    else requestAnimationFrame(look); };
  requestAnimationFrame(look); })"""
IN_VIEW = """() => { const b = document.querySelector('#fig-004 .bench-captions > li.is-current').getBoundingClientRect();
  return b.top >= 0 && b.bottom <= innerHeight + 1; }"""  # scrolled by whole pixels
LIT_IN_VIEW = """() => { const d = document.querySelector('#fig-004 .bench-drawing');
  const b = d.querySelector({dials: '.dials', plate: '.plate'}[d.dataset.lit]).getBoundingClientRect();
  return b.top >= 0 && b.bottom <= innerHeight; }"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_on_a_phone_next_and_previous_bring_the_step_into_view_and_keep_focus(browser, server, motion):
    """At 360 px the step's words sit under the drawing and the buttons: with the buttons at
    the bottom of the screen, Next showed the new step below the fold. Now the step shown
    comes into view (at once when the reader asks for less motion) with the part of the drawing
    it lights, and the focus stays on the button pressed; a step already in view is left
    where it is."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, reduced_motion=motion)
    page = context.new_page()
    page.goto(server + "bench/")
    page.click("#fig-004 .walk-start")
    for button, step in [(".walk-next", 2), (".walk-next", 3), (".walk-prev", 2)]:
        # the reader has scrolled just far enough to see the buttons, at the screen's foot
        page.evaluate("""() => { const b = document.querySelector('#fig-004 .walk-next').getBoundingClientRect();
            scrollBy({top: b.bottom - innerHeight + 4, behavior: 'instant'}); }""")
        page.evaluate(AT_REST)
        assert not page.evaluate(IN_VIEW)  # the step's words are below the fold
        page.click(f"#fig-004 {button}")
        page.evaluate(AT_REST)
        assert page.evaluate("document.querySelector('#fig-004 [data-bind=\"walk-where\"]').textContent") \
            == f"Step {step} of 6"
        assert page.evaluate(IN_VIEW), (button, step)
        assert page.evaluate(LIT_IN_VIEW), (button, step)  # and the part it lights, above the buttons
        assert page.evaluate(f"document.activeElement === document.querySelector('#fig-004 {button}')")
    # A step already in view with the part it lights: the page does not move.
    page.set_viewport_size({"width": 360, "height": 1400})
    page.evaluate("""() => { const b = document.querySelector('#fig-004 .bench-drawing').getBoundingClientRect();
        scrollBy({top: b.top - 200, behavior: 'instant'}); }""")  # clear of the page's header
    assert page.evaluate(STEP_AND_PART)[1:] == [True, True]
    before = page.evaluate(AT_REST)
    page.click("#fig-004 .walk-next")
    assert page.evaluate(IN_VIEW) and page.evaluate(AT_REST) == before
    context.close()


def test_at_the_last_step_next_keeps_the_focus(live):
    """A disabled Next at step 6 dropped the keyboard's focus to the page; it now says it does
    nothing (aria-disabled) and keeps it, and Previous says so at step 1."""
    live.click("#fig-004 .walk-start")
    assert live.get_attribute("#fig-004 .walk-prev", "aria-disabled") == "true"
    live.focus("#fig-004 .walk-next")
    for _ in range(7):  # one more than the steps
        live.keyboard.press("Enter")
    state = live.evaluate("""() => ({ focused: document.activeElement.className,
        where: document.querySelector('#fig-004 [data-bind="walk-where"]').textContent,
        next: document.querySelector('#fig-004 .walk-next').getAttribute('aria-disabled'),
        previous: document.querySelector('#fig-004 .walk-prev').getAttribute('aria-disabled') })""")
    assert state == {"focused": "walk-next", "where": "Step 6 of 6", "next": "true", "previous": "false"}


PART_IN_VIEW = """(part) => { const b = document.querySelector('#fig-004 .bench-drawing ' + part).getBoundingClientRect();
  const header = document.querySelector('.site-header').getBoundingClientRect();
  const top = header.bottom > 0 ? header.bottom : 0;  // the header shows when scrolled up
  const step = document.querySelector('#fig-004 .bench-captions > li.is-current').getBoundingClientRect();
  return [b.top >= top - 1 && b.bottom <= innerHeight + 1, step.top < innerHeight && step.bottom > top]; }"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_on_a_wide_screen_each_step_brings_the_part_it_lights_into_view(browser, server, motion):
    """At 1280 px the step's words sit beside the drawing's top, so moving the words into view
    left the part lit out of it: the carriage under the header, the tray below the fold."""
    context = browser.new_context(viewport={"width": 1280, "height": 700}, reduced_motion=motion)
    page = context.new_page()
    page.goto(server + "bench/")
    page.wait_for_selector("#fig-004 .walk-controls:not([hidden])")
    page.evaluate("""() => { const d = document.querySelector('#fig-004 .bench-drawing');
        scrollTo(0, scrollY + d.getBoundingClientRect().top + 250);  // its top well out of view
        document.querySelector('#fig-004 .walk-start').focus({ preventScroll: true }); }""")
    page.keyboard.press("Enter")
    page.evaluate(AT_REST)
    assert page.evaluate(PART_IN_VIEW, ".carriage") == [True, True]
    page.keyboard.press("End")  # step 6: the tray, at the drawing's foot
    page.evaluate(AT_REST)
    assert page.evaluate(PART_IN_VIEW, ".tray") == [True, True]
    context.close()


# The step shown and the part it lights: each box's top and bottom against the room below
# the header (the header shows when scrolled up) and the screen's foot.
STEP_AND_PART = """() => {
  const d = document.querySelector('#fig-004 .bench-drawing');
  const step = document.querySelector('#fig-004 .bench-captions > li.is-current');
  const part = d.querySelector('.' + step.dataset.station);
  const header = document.querySelector('.site-header').getBoundingClientRect();
  const top = Math.max(0, header.bottom);
  const whole = (e) => { const b = e.getBoundingClientRect(); return b.top >= top - 1 && b.bottom <= innerHeight + 1; };
  return [step.dataset.station, whole(part), whole(step)];
}"""


def test_on_a_laptop_screen_each_step_shows_its_words_and_its_part_together(browser, server):
    """At 1280 x 800 the step's words, beside the drawing, and the part it lights are both in
    view at every step (the part alone was brought into view: five of the six steps' words ran
    past the screen's foot, the tray's by 177 px)."""
    assert walk_each_step(browser, server, 1280, STEP_AND_PART) == [[part, True, True] for part in PARTS]


def walk_each_step(browser, server, width: int, check: str) -> list:
    """Start the walk from its button at the screen's foot, as a reader scrolling down reaches
    it, and return what `check` reads at each of the six steps once the page is at rest."""
    context = browser.new_context(viewport={"width": width, "height": 800}, reduced_motion="reduce")
    page = context.new_page()
    page.goto(server + "bench/")
    page.wait_for_selector("#fig-004 .walk-controls:not([hidden])")
    page.evaluate("""() => { const b = document.querySelector('#fig-004 .walk-start');
        scrollBy({ top: b.getBoundingClientRect().bottom - innerHeight + 8, behavior: 'instant' });
        b.focus({ preventScroll: true }); }""")
    page.evaluate(AT_REST)
    page.keyboard.press("Enter")
    shown = []
    for step in range(6):
        if step:
            page.keyboard.press("ArrowRight")
        page.evaluate(AT_REST)
        shown.append(page.evaluate(check))
    context.close()
    return shown


# The stacked layout: the part lit whole; the step's words whole when the two fit on the
# screen together, else begun on it (at least 60 px of them in view, under the part).
STACKED = """() => {
  const d = document.querySelector('#fig-004 .bench-drawing');
  const step = document.querySelector('#fig-004 .bench-captions > li.is-current');
  const part = d.querySelector('.' + step.dataset.station).getBoundingClientRect();
  const words = step.getBoundingClientRect();
  const header = document.querySelector('.site-header').getBoundingClientRect();
  const top = Math.max(0, header.bottom);
  const fits = Math.max(part.bottom, words.bottom) - Math.min(part.top, words.top) <= innerHeight;
  const whole = (b) => b.top >= top - 1 && b.bottom <= innerHeight + 1;
  return [step.dataset.station, whole(part), fits ? whole(words) : words.top <= innerHeight - 60];
}"""


@pytest.mark.parametrize("width", [800, 600])
def test_stacked_each_step_shows_its_words_and_its_part_together(browser, server, width):
    """Between the phone and the wide layout the drawing stacks above the walk's buttons and
    the step's words, and bringing only the words into view left the part lit above the
    screen: at 800 px steps 1 and 2 showed the drawing's top at -126 px, only its dimmed
    lower half (review 4, Broken 2). Each step now shows its part with its words (at 800 x 800
    the carriage and its words span 808 px: the words then begin under it)."""
    assert walk_each_step(browser, server, width, STACKED) == [[part, True, True] for part in PARTS]
