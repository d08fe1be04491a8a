"""What a figure says to a screen reader after a change, and marks that do not rely on colour
alone, in real Chromium."""

from __future__ import annotations

import pytest

from tests.browser.colour import contrast


READY = '.runtime-status[data-state="ready"]'


def test_fig_002_reads_its_new_result_out(booted):
    from attention import figures

    page = booted.open("mixture/")
    page.wait_for_selector("#fig-002 " + READY, timeout=60000)
    page.click('#fig-002 tr[data-query="grid"] button')
    live = page.locator('#fig-002 [data-bind="said"]')
    live.filter(has_text="grid").wait_for(state="attached", timeout=60000)
    assert live.text_content() == figures.fig_002.data("grid")["said"] == (
        "Query grid: weights grid " + figures.fig_002.data("grid")["rows"][0]["weight"]["text"]
        + ", load " + figures.fig_002.data("grid")["rows"][1]["weight"]["text"]
        + ", rises " + figures.fig_002.data("grid")["rows"][2]["weight"]["text"]
        + "; output " + figures.fig_002.data("grid")["output"]["text"] + ".")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_an_answered_quiz_marks_right_and_wrong_by_sign_not_colour_alone(booted, scheme):
    from attention import quiz
    page = booted.open("bench/", scheme=scheme)
    page.wait_for_selector('.quiz [data-quiz="choices"]:not([hidden])', timeout=60000)
    q = quiz.view()["questions"][0]
    wrong = next(c["id"] for c in q["choices"] if c["id"] != q["answer"])
    li = page.locator(".quiz .quiz-question").first
    li.locator(f'button[data-choice="{wrong}"]').click()
    page.wait_for_function("(e) => e.textContent !== ''", arg=li.locator('[data-quiz="feedback"]').element_handle())
    look = """(b) => { const s = getComputedStyle(b), m = getComputedStyle(b, '::before');
      return {mark: m.content, bg: s.backgroundColor, border: s.borderTopColor, style: s.borderTopStyle,
              page: getComputedStyle(document.body).backgroundColor, text: s.color}; }"""
    right = li.locator(f'button[data-choice="{q["answer"]}"]').evaluate(look)
    picked = li.locator(f'button[data-choice="{wrong}"]').evaluate(look)
    assert "✓" in right["mark"] and "✗" in picked["mark"]  # a sign, not only a colour
    assert picked["style"] != right["style"] or picked["bg"] != right["bg"]  # not the same fill
    for b in (right, picked):
        assert contrast(b["border"], b["page"]) >= 3  # the edge reads against the page
        assert contrast(b["text"], b["bg"]) >= 4.5
