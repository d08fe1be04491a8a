"""An action made while a bench field holds text that cannot be used is computed from the
field's last good value, which the field then shows again: its message says so, so the
reader's typed text never vanishes unexplained."""

from __future__ import annotations

from attention import bench
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
    word = bench.DEFAULT_SENTENCE[3]
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
