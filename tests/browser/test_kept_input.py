"""An action made while a bench field holds text that cannot be used is computed from the
field's last good value, which the field then shows again: its message says so, so the
reader's typed text never vanishes unexplained."""

from __future__ import annotations

import json

import pytest

from attention import bench
from attention.protocol import bridge
from attention.bench_drawing import names
from tests.browser.test_bench_page import READY, expected_state, shown_state


def open_bench(booted, width: int, path: str = "bench/"):
    """The bench at path, live, on the worker's shared page (its Python already booted)."""
    page = booted.open(path, width=width)
    page.wait_for_selector(READY, timeout=60000)
    return page


def test_a_row_chosen_while_t_is_invalid_keeps_t_and_says_so(booted, viewport_width):
    page = open_bench(booted, viewport_width)
    page.fill("#bench-t", "abc")
    page.wait_for_function("() => document.querySelector('#bench-t').getAttribute('aria-invalid') === 'true'")
    page.click('#fig-005 tr[data-index="3"] button')
    word = names(bench.DEFAULT_SENTENCE)[3]  # the second "the", the₃
    page.wait_for_function(f"""() => document.querySelector('#fig-004 [data-bind="carriage-word"]')
        .textContent === {word!r}""")
    assert shown_state(page) == expected_state(query=3)  # computed at the last good T, 1
    assert page.input_value("#bench-t") == "1"
    assert page.inner_text("#bench-t-msg") == "T stays 1: “abc” could not be used."
    assert page.get_attribute("#bench-t", "aria-invalid") is None  # the field's value is good
    assert page.locator("#fig-004").evaluate("f => f.classList.contains('is-stale')") is False
    page.click('#fig-005 tr[data-index="5"] button')  # the next action: the note has been read
    page.wait_for_function("() => document.querySelector('#bench-t-msg').textContent === ''")
    assert shown_state(page) == expected_state(query=5)


def test_a_stopcock_turned_while_the_sentence_is_invalid_keeps_the_sentence_and_says_so(booted, viewport_width):
    page = open_bench(booted, viewport_width)
    page.fill("#bench-sentence", "the zebra saw it")  # "zebra" is not in the lexicon
    page.click("#fig-004 .bench-controls button[type=submit]")
    page.wait_for_function("() => document.querySelector('#bench-sentence').getAttribute('aria-invalid') === 'true'")
    page.locator('#fig-004 .valve[data-index="0"]').dispatch_event("click")
    page.wait_for_function("() => document.querySelector('#fig-004 .valve[data-index=\"0\"]').classList.contains('shut')")
    assert shown_state(page) == expected_state(shut=[0])
    assert page.input_value("#bench-sentence") == " ".join(bench.DEFAULT_SENTENCE)
    assert page.inner_text("#bench-sentence-msg") == (
        "The sentence stays the last one that could be used; the one typed could not.")


def test_enter_in_the_t_box_applies_t_and_keeps_the_query(booted, viewport_width):
    """Enter in a text box submits its form: in the T box it must not also "use" the unchanged
    sentence, which chose the default query again (a phone's Go key is how typing ends)."""
    page = open_bench(booted, viewport_width)
    page.click('#fig-005 tr[data-index="1"] button')
    page.wait_for_function("() => location.search.includes('query=1')")
    page.fill("#bench-t", "0.5")
    page.press("#bench-t", "Enter")
    page.wait_for_function("""() => document.querySelector('#fig-004 [data-bind="plate"]')
        .textContent.endsWith('(0.5)')""")
    page.wait_for_timeout(300)  # an answer to a wrongly sent sentence would be in by now
    assert shown_state(page) == expected_state(query=1, temperature="0.5")
    page.fill("#bench-t", "abc")
    page.wait_for_function("() => document.querySelector('#bench-t').getAttribute('aria-invalid') === 'true'")
    page.press("#bench-t", "Enter")
    page.wait_for_timeout(300)
    assert page.inner_text("#bench-t-msg") == "“abc” is not a number."
    assert page.locator("#fig-004").evaluate("f => f.classList.contains('is-stale')") is True
    assert shown_state(page) == expected_state(query=1, temperature="0.5")  # the last good state


def test_out_of_date_the_drawings_plate_and_note_are_grey_italics_too(booted, viewport_width):
    """The notice says numbers in grey italics are for the last input: the plate's “÷ T (0.05)”
    and the what-if note under the tray are of it too, like the dials' readings."""
    page = open_bench(booted, viewport_width, "bench/?without=shift&t=0.05")
    page.wait_for_selector("#fig-004 .whatif-note.failure", state="attached")
    page.fill("#bench-t", "abc")
    page.wait_for_function("() => document.querySelector('#fig-004').classList.contains('is-stale')")
    looks = page.evaluate("""() => ['.dial-reading', '.plate text', '.whatif-note.failure'].map(s => {
        const c = getComputedStyle(document.querySelector('#fig-004 .bench-drawing ' + s));
        return [c.fill, c.fontStyle]; })""")
    assert looks[0][1] == "italic"
    assert looks[1] == looks[0] and looks[2] == looks[0]


def t_message(value: str) -> str:
    """What the core says of this T (the page must show the bridge's own words)."""
    answer = json.loads(bridge.handle_json(json.dumps({"figure": "bench", "temperature": value})))
    return answer["errors"][0]["message"]


@pytest.mark.parametrize("value", ["0", "-1", "1e-9", "abc", "", "200"])
def test_enter_after_an_invalid_t_keeps_its_message_and_the_numbers_marked(booted, value):
    """Enter in the T box after a value that cannot be used hid the message and the out-of-date
    marking while the box still showed the bad value (review 3, broken 1)."""
    page = open_bench(booted, 360)
    page.fill("#bench-t", value)
    page.wait_for_function("() => document.querySelector('#bench-t').getAttribute('aria-invalid') === 'true'")
    for _ in range(2):
        page.press("#bench-t", "Enter")
        page.wait_for_timeout(300)  # an answer sent by Enter would be drawn by now
        assert page.inner_text("#bench-t-msg") == t_message(value)
        assert page.input_value("#bench-t") == value
        assert page.get_attribute("#bench-t", "aria-invalid") == "true"
        assert page.evaluate(STALE_FIGURES) == [True, True, True]
    page.fill("#bench-t", "2")  # fixed: current again, and nothing left to say
    page.wait_for_function("() => !document.querySelector('#fig-004').classList.contains('is-stale')")
    assert page.inner_text("#bench-t-msg") == ""
    assert shown_state(page) == expected_state(temperature="2")


STALE_FIGURES = "() => ['fig-004', 'fig-005', 'fig-006'].map(id => document.getElementById(id).classList.contains('is-stale'))"


def test_use_sentence_while_t_is_invalid_says_that_t_stays(booted):
    """"Use sentence" while T is invalid computed the new sentence at the last good T and put
    that T back in the box without a word (review 3, broken 1)."""
    page = open_bench(booted, 1280)
    page.fill("#bench-t", "0")
    page.wait_for_function("() => document.querySelector('#bench-t').getAttribute('aria-invalid') === 'true'")
    page.fill("#bench-sentence", "the farmer saw the doctor and he left")
    page.click("#fig-004 .bench-controls button[type=submit]")
    page.wait_for_function("""() => document.querySelector('#fig-004 [data-bind="carriage-word"]')
        .textContent === 'he'""", timeout=60000)
    assert page.inner_text("#bench-t-msg") == "T stays 1: “0” could not be used."
    assert page.input_value("#bench-t") == "1"
    assert shown_state(page) == expected_state(sentence="the farmer saw the doctor and he left")


UNUSED = ("Not used yet: the bench still shows the sentence before. Press “Use sentence” (or "
          "Enter) to put this one on the bench.")


def test_a_sentence_typed_but_not_used_stays_in_its_box_and_says_so(booted, viewport_width):
    """A sentence typed, then another control touched before "Use sentence": the control acts
    on the sentence in use, and the typed one stays in its box with a note; it was thrown
    away without a word (review 3, broken 4)."""
    page = open_bench(booted, viewport_width)
    page.fill("#bench-sentence", "the farmer saw the doctor and he left")
    page.click('#fig-005 tr[data-index="3"] button')
    page.wait_for_function(f"""() => document.querySelector('#fig-004 [data-bind="carriage-word"]')
        .textContent === {names(bench.DEFAULT_SENTENCE)[3]!r}""")
    assert shown_state(page) == expected_state(query=3)  # the row of the sentence in use
    assert page.input_value("#bench-sentence") == "the farmer saw the doctor and he left"
    assert page.inner_text("#bench-sentence-msg") == UNUSED
    assert page.get_attribute("#bench-sentence", "aria-invalid") is None
    page.check('input[name="head"][value="sink"]')  # still kept, still said
    page.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"head\"]').textContent === 'sink'")
    assert page.input_value("#bench-sentence") == "the farmer saw the doctor and he left"
    assert page.inner_text("#bench-sentence-msg") == UNUSED
    page.click("#fig-004 .bench-controls button[type=submit]")  # now used
    page.wait_for_function("""() => document.querySelector('#fig-004 [data-bind="carriage-word"]')
        .textContent === 'he'""", timeout=60000)
    assert page.inner_text("#bench-sentence-msg") == ""
    assert shown_state(page) == expected_state(sentence="the farmer saw the doctor and he left", head="sink")
