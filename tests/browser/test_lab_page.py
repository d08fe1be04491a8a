"""The lab (FIG-003) as a learner types, and the prediction before it, in real Chromium."""

from __future__ import annotations

import pytest

from attention import lab


READY = '.runtime-status[data-state="ready"]'


@pytest.fixture
def lab_page(booted):
    page = booted.open("lab/")
    page.wait_for_selector("#fig-003 " + READY, timeout=60000)
    return page


def weights_shown(page) -> list[str]:
    return page.evaluate("""() => [...document.querySelectorAll('#fig-003 [data-bind="weight"]')]
        .map(e => e.checkVisibility({visibilityProperty: true}) ? e.textContent : null)""")


@pytest.mark.parametrize("width", [1280, 360])
def test_the_labs_working_keeps_each_weight_in_view_when_its_numbers_are_wide(booted, width):
    page = booted.open("lab/?q=-1000,1000&mask=1,1,1&t=0.05", width=width)
    page.wait_for_selector("#fig-003 " + READY)
    expected = [r["weight"]["text"] for r in lab.view(("-1000", "1000"), temperature="0.05")["rows"]]
    page.wait_for_function("""(want) => JSON.stringify([...document.querySelectorAll(
        '#fig-003 .working [data-bind="weight"]')].map(e => e.textContent)) === JSON.stringify(want)""",
        arg=expected)
    seen = page.evaluate("""() => { const wrap = document.querySelector('#fig-003 .working').parentElement;
        const box = wrap.getBoundingClientRect();
        return { scrolls: wrap.scrollWidth > wrap.clientWidth,
                 cue: getComputedStyle(wrap.previousElementSibling).display,
                 inView: [...wrap.querySelectorAll('[data-bind="weight"]')].map(e => {
                   const b = e.getBoundingClientRect(); return b.left >= box.left && b.right <= box.right; }) }; }""")
    assert seen["scrolls"]  # wide numbers: the table is wider than its place
    assert seen["cue"] != "none" and seen["inView"] == [True] * 3


def test_a_link_into_the_explanation_shows_it(desktop):
    page = desktop.page
    page.goto(desktop.base + "lab/#what-a-zero-query-does")
    page.wait_for_selector(".predict-choices:not([hidden])", timeout=60000)  # the prediction is live
    assert page.locator("#what-a-zero-query-does").is_visible()
    page.goto(desktop.base + "lab/")
    page.wait_for_selector(".predict-choices:not([hidden])", timeout=60000)
    assert page.locator("#zero-reveal").is_hidden()  # a plain visit asks first
    page.evaluate("location.hash = 'what-a-zero-query-does'")
    page.wait_for_selector("#what-a-zero-query-does", state="visible", timeout=5000)


def test_the_prediction_says_right_or_wrong_locks_and_explains_after_the_lab(booted):
    from attention import chapters

    page = booted.open("lab/")
    page.wait_for_selector("#fig-003 " + READY, timeout=60000)
    zero_output = chapters.toy_context()["zero"]["output"]["value"]
    right = "zero" if not any(zero_output) else "other"  # the mean of the values is not zero
    assert right == "other"
    page.focus('button[data-guess="zero"]')
    page.keyboard.press("Enter")
    feedback = page.locator(".predict-feedback")
    assert feedback.locator("strong").inner_text().startswith("Not quite")
    # Locked in, and said so, while the keyboard stays where it was (not thrown to <body>).
    for guess in ("other", "zero"):
        assert page.get_attribute(f'button[data-guess="{guess}"]', "aria-disabled") == "true"
    assert page.evaluate("document.activeElement.dataset.guess") == "zero"
    page.evaluate("document.querySelector('button[data-guess=\"other\"]').click()")  # a second answer changes nothing

    assert page.get_attribute('button[data-guess="other"]', "aria-pressed") == "false"
    assert feedback.locator("strong").inner_text().startswith("Not quite")
    assert page.locator("#zero-reveal").is_hidden()  # the why waits until the lab has been seen
    page.wait_for_function("() => document.querySelector('#lab-q1').value === '0'", timeout=60000)
    page.locator("#fig-003 .lab-output").scroll_into_view_if_needed()
    page.wait_for_selector("#zero-reveal", state="visible", timeout=5000)


def test_showing_the_explanation_now_moves_focus_to_it(booted):
    page = booted.open("lab/")
    page.wait_for_selector("#fig-003 " + READY, timeout=60000)
    page.click('button[data-guess="other"]')
    page.focus(".reveal-now")
    page.keyboard.press("Enter")
    assert page.is_visible("#zero-reveal")
    assert page.evaluate("document.activeElement.closest('#zero-reveal') !== null")
    assert page.evaluate("document.activeElement.tagName") == "H3"


def test_the_outputs_o_moves_clear_of_the_value_dots_as_the_query_changes(lab_page):
    page = lab_page
    page.fill("#lab-q1", "-3")
    page.fill("#lab-q2", "0")
    label = lab.view(("-3", "0"))["plot"]["output"]["label"]
    assert label != lab.view()["plot"]["output"]["label"]  # this query moves it from its usual place
    page.wait_for_function("""(l) => { const t = document.querySelector('#fig-003 [data-bind="output-label"]');
        return t.getAttribute('x') === String(l.x) && t.getAttribute('y') === String(l.y)
            && t.getAttribute('text-anchor') === l.anchor; }""", arg=label)


@pytest.mark.parametrize("typed, value", [("\u22123", -3.0), ("1,5", 1.5)])
def test_the_lab_takes_a_true_minus_and_a_decimal_comma(lab_page, typed, value):
    page = lab_page
    page.fill("#lab-q1", typed)
    expected = lab.view([str(value), "1"])["query"]["text"]
    page.wait_for_function("(t) => document.querySelector('#fig-003 [data-bind=\"query\"]').textContent === t",
                           arg=expected, timeout=60000)
    assert page.locator("#lab-q1-msg").inner_text() == ""
    assert page.get_attribute("#lab-q1", "aria-invalid") is None


def test_every_key_off_shows_no_weight_and_marks_the_switches(lab_page):
    page = lab_page
    for box in page.locator('#fig-003 input[name="mask"]').all():
        box.uncheck()
    page.wait_for_selector("#fig-003.is-stale", timeout=60000)
    assert all(w is None for w in weights_shown(page))
    assert not page.locator('#fig-003 [data-bind="output"]').evaluate("e => e.checkVisibility({visibilityProperty: true})")
    assert page.locator('#fig-003 [data-bind="stale"]').is_visible()
    # the state line at the top no longer claims the old keys as the state
    assert page.locator('#fig-003 .lab-state [data-bind="state-stale"]').is_visible()
    assert page.locator('#fig-003 [data-bind="state-allowed"]').evaluate(
        "e => getComputedStyle(e).textDecorationLine") == "line-through"
    assert page.get_attribute("#fig-003 .lab-mask", "aria-invalid") == "true"
    assert "invalid" in page.get_attribute("#fig-003 .lab-mask", "class")
    assert page.get_attribute("#lab-q1", "aria-invalid") is None
    page.locator('#fig-003 input[name="mask"]').nth(1).check()  # one key back: current again
    page.wait_for_selector("#fig-003:not(.is-stale)", timeout=60000)
    assert weights_shown(page) == ["0.000", "1.000", "0.000"]  # all weight on the one allowed key
    assert page.locator('#fig-003 .lab-state [data-bind="state-stale"]').is_hidden()


@pytest.mark.parametrize("field, text", [("#lab-q1", "abc"), ("#lab-t", "0"), ("#lab-t", "-1")])
def test_an_invalid_field_marks_the_numbers_stale(lab_page, field, text):
    page = lab_page
    page.fill(field, text)
    page.wait_for_selector("#fig-003.is-stale", timeout=60000)
    assert page.get_attribute(field, "aria-invalid") == "true"
    assert all(w is None for w in weights_shown(page))
    assert "out of date" in page.locator('#fig-003 [data-bind="stale"]').inner_text()


def test_one_temperature_range_and_a_slider_that_reports_its_value(lab_page):
    page = lab_page
    low, high = lab.T_RANGE
    assert lab.T_SLIDER[:2] == (low, high)
    hint = page.locator("#lab-t-hint").inner_text()
    assert f"from {low:g} to {high:g}" in hint
    page.fill("#lab-t", "100")
    page.wait_for_function("() => document.querySelector('#lab-t-range').getAttribute('aria-valuetext') === 'T = 100'",
                           timeout=60000)
    assert page.input_value("#lab-t-range") == page.get_attribute("#lab-t-range", "max")  # the slider's end is 100
    # The slider's own 0–1000 steps mean nothing to a listener; its value text says T.
    # (Chromium's DevTools tree shows the raw step even for an ARIA slider's aria-valuetext,
    # so the attribute itself is what can be checked here.)
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    names = [n.get("name", {}).get("value") for n in nodes if n.get("role", {}).get("value") in ("slider", "textbox")]
    assert len(set(names)) == len(names)  # slider and box are told apart


def test_each_change_is_read_out_in_one_sentence(lab_page):
    page = lab_page
    page.uncheck('#fig-003 input[name="mask"][value="0"]')
    expected = lab.view(["1", "1"], mask=[False, True, True])["said"]
    assert expected.startswith("Query [1.000, 1.000]: weights grid blocked, load ")
    live = page.locator('#fig-003 [data-bind="said"]')
    live.filter(has_text="blocked").wait_for(state="attached", timeout=60000)
    assert live.text_content() == expected and live.get_attribute("aria-live") == "polite"


@pytest.mark.parametrize("keys, expected", [
    (["Shift+ArrowRight"], ["2", "1"]), (["PageUp"], ["1", "2"]), (["PageDown", "PageDown"], ["1", "-1"]),
    (["Home"], ["-3", "1"]), (["End"], ["3", "1"]), (["ArrowUp"], ["1", "1.1"]),
])
def test_the_pad_moves_in_big_steps_too(lab_page, keys, expected):
    page = lab_page
    page.focus("#fig-003 .pad")
    for key in keys:
        before = page.input_value("#lab-q1") + "," + page.input_value("#lab-q2")
        page.keyboard.press(key)
        page.wait_for_function("(b) => document.querySelector('#lab-q1').value + ',' + "
                               "document.querySelector('#lab-q2').value !== b", arg=before, timeout=60000)
    assert [page.input_value("#lab-q1"), page.input_value("#lab-q2")] == expected


def mix_shown(page) -> list[list[str]]:
    return page.eval_on_selector_all("#fig-003 .lab-mix tbody tr, #fig-003 .lab-mix tfoot tr",
                                      "trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent))")


def test_the_mix_step_is_shown_in_numbers_and_reset_brings_the_lab_back(lab_page):
    """o = Σ a_j v_j for the query on screen, each part Python's; Reset: the lab as it opened."""
    first = lab.view()
    lab_page.fill("#lab-q1", "-2")
    changed = lab.view(["-2", "1"])
    want = [[r["weight"]["text"], r["value"]["text"], r["product"]["text"]] for r in changed["rows"]]
    lab_page.wait_for_function("""(want) => JSON.stringify([...document.querySelectorAll(
        '#fig-003 .lab-mix tbody tr')].map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent)))
        === JSON.stringify(want)""", arg=want)
    assert mix_shown(lab_page)[-1] == [changed["output"]["text"]]  # their sum: the output
    lab_page.click("#fig-003 .lab-reset")
    lab_page.wait_for_function("(want) => document.querySelector('#fig-003 [data-bind=\"mix-output\"]')"
                               ".textContent === want", arg=first["output"]["text"])
    assert lab_page.input_value("#lab-q1") == first["fields"][0]
    assert mix_shown(lab_page)[:-1] == [[r["weight"]["text"], r["value"]["text"], r["product"]["text"]]
                                        for r in first["rows"]]
