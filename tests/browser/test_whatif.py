"""The what-if panel and the bench's quiz in real Chromium, checked against CPython's core."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from attention import bench_view, lab, quiz
from tests.browser.conftest import SharedPage, settle, watch
from tests.browser.test_bench_page import DRAWN


LAB_READY = '#fig-003 .runtime-status[data-state="ready"]'
BENCH_READY = '#fig-004 .runtime-status[data-state="ready"]'


@pytest.fixture
def page(booted):
    return booted  # the worker's shared page: Python boots once for all these tests


def open_page(w, path, ready, sentence):
    """Open a page and wait until the panel shows the sentence the core expects and every
    figure is drawn: the panel is written at once, but a drawing off screen (FIG-004's valves,
    its what-if needles) is brought up to date when the page is idle (near.js), later under load."""
    w.open(path) if isinstance(w, SharedPage) else w.page.goto(w.base + path)
    w.page.wait_for_selector(ready, timeout=60000)
    panel = "#fig-003 .whatif" if path.startswith("lab") else "#fig-004 .whatif"
    w.page.wait_for_function(
        "([sel, text]) => document.querySelector(sel + ' [data-whatif=\"sentence\"]').textContent === text",
        arg=[panel, sentence], timeout=60000)
    w.page.wait_for_function(DRAWN, timeout=60000)
    return panel


def panel_state(page, panel) -> dict:
    """Everything the panel shows, read from the page."""
    return page.evaluate("""(sel) => {
      const root = document.querySelector(sel);
      const rows = [...root.querySelectorAll('[data-whatif="keys"] tr')];
      const text = (q) => root.querySelector(q).textContent;
      return {
        words: rows.map(tr => tr.querySelector('[data-whatif="word"]').textContent),
        real: rows.map(tr => tr.querySelector('[data-whatif="real"]').textContent),
        cf: rows.map(tr => { const td = tr.querySelector('[data-whatif="cf"]');
                             return td.hidden ? null : td.textContent; }),
        title: text('[data-whatif="title"]'),
        realTop: text('[data-whatif="real-top"]'), cfTop: text('[data-whatif="cf-top"]'),
        realEntropy: text('[data-whatif="real-entropy"]'), cfEntropy: text('[data-whatif="cf-entropy"]'),
        sentence: text('[data-whatif="sentence"]'),
        ticked: [...root.querySelectorAll('input[name="without"]:checked')].map(b => b.value),
        cfShown: getComputedStyle(root.querySelector('th.cf')).display !== 'none',
      };
    }""", panel)


def expected(w) -> dict:
    """The same, from the core's whatif data."""
    cf = w["counterfactual"]
    return {
        "words": [k["word"] for k in w["keys"]],
        "real": [k["real"]["text"] for k in w["keys"]],
        "cf": [k["counterfactual"]["text"] for k in w["keys"]],
        "title": w["title"],
        "realTop": f'{w["real"]["top"]["word"]} {w["real"]["top"]["weight"]["text"]}',
        "cfTop": f'{cf["top"]["word"]} {cf["top"]["weight"]["text"]}',
        "realEntropy": f'{w["real"]["entropy"]["text"]} bits',
        "cfEntropy": f'{cf["entropy"]["text"]} bits',
        "sentence": w["sentence"], "ticked": w["without"], "cfShown": True,
    }


def test_the_lab_without_scaling_shows_both_rows(page):
    w = lab.view(without=["scale"])["whatif"]
    panel = open_page(page, "lab/?without=scale", LAB_READY, w["sentence"])
    assert panel_state(page.page, panel) == expected(w)
    assert w["counterfactual"]["weights"][2]["text"] == "0.665"  # softmax([2, 1, 3]) for "rises"


def test_the_bench_without_scaling_shows_both_rows(page):
    w = bench_view.view(without=["scale"])["whatif"]
    panel = open_page(page, "bench/?without=scale", BENCH_READY, w["sentence"])
    assert panel_state(page.page, panel) == expected(w)


def no_nan_anywhere(page):
    text = page.evaluate("document.body.innerText")
    assert "NaN" not in text and "Infinity" not in text and "∞ weights" not in text


@pytest.mark.parametrize("path, ready, state", [
    ("bench/?without=shift&t=0.05", BENCH_READY, {"temperature": "0.05"}),
    ("lab/?q=400,400&without=shift", LAB_READY, None),
])
def test_a_naive_softmax_that_overflows_says_so_in_words(page, path, ready, state):
    if state is None:
        w = lab.view(["400", "400"], without=["shift"])["whatif"]
    else:
        w = bench_view.view(**state, without=["shift"])["whatif"]
    assert w["counterfactual"]["failure"] == "overflow"
    panel = open_page(page, path, ready, w["sentence"])
    shown = panel_state(page.page, panel)
    top = max(w["keys"], key=lambda k: float(k["z"]["value"]) if k["open"] else -math.inf)
    # one cell stands for the row's numbers; the sentence under the table says why, once,
    # naming the key whose eᶻ overflowed
    assert shown["cf"][0] == "no weights" and shown["cf"][1:] == [None] * (len(shown["cf"]) - 1)
    assert shown["sentence"] == w["sentence"]
    assert f"eᶻ of “{top['word']}”" in shown["sentence"]
    assert "1.8×10³⁰⁸, the largest double (64-bit float); the naive weights are undefined." in shown["sentence"]
    assert shown["cfTop"] == "none" and shown["cfEntropy"] == "none"  # as the build writes it (_whatif.html)
    assert shown["real"] == [k["real"]["text"] for k in w["keys"]]  # the real row is fine
    no_nan_anywhere(page.page)


def test_without_the_mask_later_stopcocks_open(page):
    w = bench_view.view(head="sink", query=0, without=["mask"])["whatif"]
    panel = open_page(page, "bench/?head=sink&query=0&without=mask", BENCH_READY, w["sentence"])
    shown = panel_state(page.page, panel)
    assert shown["cf"] == [k["counterfactual"]["text"] for k in w["keys"]]
    assert shown["cf"][1] != "0.000"  # the first word now reaches a later word
    opened = page.page.evaluate("""() => [...document.querySelectorAll('#fig-004 .bench-drawing .valve')]
        .map(g => g.classList.contains('whatif-open'))""")
    assert opened == [k["future"] and k["open"] for k in w["keys"]] and opened[1:] == [True] * 7
    reachable = page.page.evaluate("""() => [...document.querySelectorAll('#fig-004 .whatif tbody tr')]
        .map(tr => tr.classList.contains('reachable'))""")
    assert reachable == [False] + [True] * 7


def test_toggles_work_from_the_keyboard_and_survive_other_changes(page):
    p = page.open("lab/")
    p.wait_for_selector(LAB_READY, timeout=60000)
    p.focus('#fig-003 .whatif input[value="scale"]')
    p.keyboard.press("Space")
    w = lab.view(without=["scale"])["whatif"]
    p.wait_for_function("(t) => document.querySelector('#fig-003 [data-whatif=\"sentence\"]').textContent === t",
                        arg=w["sentence"], timeout=60000)
    p.wait_for_function("() => location.search.includes('without=scale')")
    p.fill("#lab-q1", "2")  # the lab's own request keeps the step removed
    w2 = lab.view(["2", "1"], without=["scale"])["whatif"]
    p.wait_for_function("(t) => document.querySelector('#fig-003 [data-whatif=\"sentence\"]').textContent === t",
                        arg=w2["sentence"], timeout=60000)
    assert panel_state(p, "#fig-003 .whatif") == expected(w2)
    p.focus('#fig-003 .whatif input[value="scale"]')
    p.keyboard.press("Space")
    p.wait_for_function("() => document.querySelector('#fig-003 [data-whatif=\"sentence\"]').textContent"
                        ".startsWith('Every step is in place')", timeout=60000)
    assert not panel_state(p, "#fig-003 .whatif")["cfShown"]
    p.wait_for_function("() => !location.search.includes('without')")


def test_the_lab_can_be_scaled_until_the_naive_softmax_overflows(page):
    p = page.page
    w = lab.view(without=["shift"])["whatif"]
    open_page(page, "lab/?without=shift", LAB_READY, w["sentence"])
    factor = w["reach"]["factor"]
    button = p.locator('#fig-003 [data-whatif="reach-button"]')
    assert button.is_visible() and factor in button.text_content()
    button.focus()
    p.keyboard.press("Enter")
    after = lab.view(w["reach"]["fields"], without=["shift"])["whatif"]
    p.wait_for_function("(t) => document.querySelector('#fig-003 [data-whatif=\"sentence\"]').textContent === t",
                        arg=after["sentence"], timeout=60000)
    assert p.input_value("#lab-q1") == w["reach"]["fields"][0]
    shown = panel_state(p, "#fig-003 .whatif")
    assert shown["cf"][0] == "no weights" and shown["sentence"].startswith("Without the max-shift, eᶻ of “")
    no_nan_anywhere(p)


@pytest.mark.parametrize("path, ready, notice, ticked", [
    ("bench/?without=zoom,%3Cscript%3E,shift", BENCH_READY, "Ignored without=zoom: Choose scale, mask or shift.", ["shift"]),
    ("lab/?without=mask,scale,scale", LAB_READY, "Ignored without=mask: The lab has no causal mask to remove.", ["scale"]),
    ("bench/?without=" + "x" * 600, BENCH_READY, "Ignored without: longer than 500 characters.", []),
])
def test_tampered_without_values_keep_the_page_working(page, path, ready, notice, ticked):
    p = page.open(path)
    p.wait_for_selector(ready, timeout=60000)
    fig = "#fig-003" if path.startswith("lab") else "#fig-004"
    p.wait_for_function("([f, n]) => document.querySelector(f + ' .state-notice').textContent.includes(n)",
                        arg=[fig, notice], timeout=60000)
    assert panel_state(p, f"{fig} .whatif")["ticked"] == ticked
    no_nan_anywhere(p)


def test_each_quiz_question_is_answered_with_the_keyboard(page):
    p = page.open("bench/")
    p.wait_for_selector(BENCH_READY, timeout=60000)
    p.wait_for_selector('.quiz [data-quiz="choices"]:not([hidden])', timeout=60000)
    questions = quiz.view()["questions"]
    items = p.locator(".quiz .quiz-question")
    assert items.count() == len(questions) >= 3
    for k, q in enumerate(questions):
        li = items.nth(k)
        assert li.locator('[data-quiz="prompt"]').text_content() == q["prompt"]
        assert not li.locator('[data-quiz="reveal"]').is_visible()  # predict first
        labels = [c["label"] for c in q["choices"]]
        assert li.locator("button[data-choice]").all_text_contents() == labels
        wrong = next((i for i, c in enumerate(q["choices"]) if c["id"] != q["answer"]), 0)
        li.locator("button[data-choice]").first.focus()
        for _ in range(wrong):
            p.keyboard.press("Tab")
        p.keyboard.press("Enter")
        right = next(c["label"] for c in q["choices"] if c["id"] == q["answer"])
        feedback = li.locator('[data-quiz="feedback"]')
        assert feedback.text_content() == f"Not quite: the answer is “{right}”."
        assert li.locator('[data-quiz="reveal"]').text_content() == q["explanation"]
        assert li.locator('[data-quiz="reveal"]').is_visible()
        li.locator(f'button[data-choice="{q["answer"]}"]').focus()
        p.keyboard.press("Space")
        assert feedback.text_content() == "Right."
        assert li.locator(f'button[data-choice="{q["answer"]}"]').get_attribute("aria-pressed") == "true"
    assert p.locator('.quiz [data-quiz="feedback"]').first.get_attribute("aria-live") == "polite"


def test_the_quiz_follows_the_bench(page):
    p = page.open("bench/")
    p.wait_for_selector(BENCH_READY, timeout=60000)
    p.check('#fig-004 input[name="head"][value="sink"]')
    expected_q = quiz.view(head="sink")["questions"]
    p.wait_for_function("(t) => document.querySelector('.quiz [data-quiz=\"prompt\"]').textContent === t",
                        arg=expected_q[0]["prompt"], timeout=60000)
    prompts = p.locator('.quiz [data-quiz="prompt"]').all_text_contents()
    assert prompts == [q["prompt"] for q in expected_q]
    # Another sentence with the same first word: the question about the first word reads the
    # same and has the same answer, but its choices are this sentence's words
    sentence = "the pilot saw the car and it left"
    p.fill("#bench-sentence", sentence)
    p.press("#bench-sentence", "Enter")
    p.wait_for_selector('#fig-005 tr[data-index="3"] button', timeout=60000)
    p.click('#fig-005 tr[data-index="3"] button')
    expected_q = quiz.view(sentence=sentence, head="sink", query=3)["questions"]
    p.wait_for_function("(t) => document.querySelector('.quiz [data-quiz=\"prompt\"]').textContent === t",
                        arg=expected_q[0]["prompt"], timeout=60000)
    shown = p.evaluate("""() => [...document.querySelectorAll('.quiz .quiz-question')].map((li) =>
        [...li.querySelectorAll('button[data-choice]')].map((b) => b.textContent))""")
    assert shown == [[c["label"] for c in q["choices"]] for q in expected_q]
    assert "engineer" not in str(shown)


def test_a_bench_export_says_its_state_in_its_name(page):
    p = page.page
    w = bench_view.view(without=["scale"])["whatif"]
    open_page(page, "bench/?without=scale", BENCH_READY, w["sentence"])
    p.click("#fig-005 .share summary")
    with p.expect_download() as info:
        p.click("#fig-005 .share button:has-text('Numbers as JSON')")
    download = info.value
    assert download.suggested_filename == "attention-bench-fig-005-coreference-q6-T1-without-scale.json"
    table = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert table["state"]["query"] == {"index": 6, "word": "she"} and table["state"]["without"] == ["scale"]
    k = table["columns"].index("without_weight")
    assert [round(r[k], 3) for r in table["rows"]] == [
        float(x["counterfactual"]["text"]) for x in w["keys"]]


def test_without_javascript_the_panels_show_the_real_state(browser, server):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 800})
    page = context.new_page()
    page.goto(server + "bench/")
    w = bench_view.view()["whatif"]
    panel = page.locator("#fig-004 .whatif")
    assert not panel.locator(".whatif-toggles").is_visible()
    assert panel.locator(".whatif-explain li").count() == 3 and panel.locator(".whatif-explain").is_visible()
    assert panel.locator('[data-whatif="real"]').all_text_contents() == [k["real"]["text"] for k in w["keys"]]
    assert panel.locator('[data-whatif="sentence"]').text_content() == w["sentence"]
    reveals = page.locator(".quiz [data-quiz='reveal']")
    assert reveals.count() >= 3 and reveals.first.is_visible()  # no JavaScript, no hiding
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


# ---- The counterfactual drawn on the bench (FIG-004) and shown in the matrix (FIG-006) ----

def drawing_state(page) -> dict:
    """The drawing's what-if layer as the page shows it."""
    return page.evaluate("""() => {
      const svg = document.querySelector('#fig-004 .bench-drawing');
      const all = (q) => [...svg.querySelectorAll(q)];
      return {
        ghosts: all('.ghosts .ghost').map(g => ({ index: Number(g.dataset.index),
          angle: g.querySelector('.ghost-arm').getAttribute('transform'),
          dashed: getComputedStyle(g.querySelector('.ghost-needle')).strokeDasharray !== 'none',
          hidden: g.closest('[aria-hidden="true"]') !== null })),
        handles: all('.ghost-handles line').map(l => Number(l.dataset.index)),
        strata: all('.ghost-strata .ghost-stratum').map(g => g.querySelector('.fill').getAttribute('height')),
        labels: all('.ghost-labels text').filter(t => getComputedStyle(t).display !== 'none')
          .map(t => t.textContent),
        trays: all('.ghost-sample rect').length,
        note: all('.whatif-notes text').map(t => t.textContent),
        failure: all('.whatif-notes text.failure').map(t => t.textContent),
        viewBox: svg.getAttribute('viewBox'),
        layerText: svg.querySelector('[data-bind="whatif"]').textContent,
      };
    }""")


def open_bench(w, path, sentence):
    open_page(w, path, BENCH_READY, sentence)
    w.page.locator("#fig-004 .bench-drawing").scroll_into_view_if_needed()


def test_a_removed_scale_draws_a_ghost_needle_on_each_open_key(page):
    core = bench_view.view(shut=[2], without=["scale"])
    open_bench(page, "bench/?shut=2&without=scale", core["whatif"]["sentence"])
    shown = drawing_state(page.page)
    # "she" (6) may use words 0..6, minus the shut "fixed": six open keys, six ghosts
    assert [g["index"] for g in shown["ghosts"]] == [0, 1, 3, 4, 5, 6]
    assert all(g["dashed"] and g["hidden"] for g in shown["ghosts"])  # no colour needed; text below
    ghosts = core["drawing"]["whatif"]["ghosts"]
    assert [g["angle"] for g in shown["ghosts"]] == [f"rotate({g['angle']})" for g in ghosts]
    assert shown["trays"] == 1 and len(shown["strata"]) == 8
    k = [x["counterfactual"]["text"] for x in core["whatif"]["keys"]]
    assert "engineer " + k[1] in shown["labels"]  # the sample's thickest stratum, named
    assert " ".join(shown["note"]).startswith("Dashed: this row without ÷√8. Dashed needles: its "
                                              "scores. Dashed tray on the left: its weights.")
    assert shown["viewBox"] == core["drawing"]["viewbox"] != "0 0 800 600"
    no_nan_anywhere(page.page)
    # the step back: the layer empties and the drawing has its own height again
    page.page.uncheck('#fig-004 .whatif input[value="scale"]')
    page.page.wait_for_function("() => document.querySelectorAll('#fig-004 .ghost').length === 0",
                                timeout=60000)
    shown = drawing_state(page.page)
    assert shown["note"] == [] and shown["trays"] == 0 and shown["viewBox"] == "0 0 800 600"


def test_an_overflow_at_low_temperature_shows_words_not_numbers_in_the_drawing(page):
    core = bench_view.view(temperature="0.05", without=["shift"])
    open_bench(page, "bench/?without=shift&t=0.05", core["whatif"]["sentence"])
    shown = drawing_state(page.page)
    assert shown["strata"] == [] and shown["labels"] == []  # no weights drawn
    assert " ".join(shown["failure"]) == ("eᶻ overflows: 1.8×10³⁰⁸ is the largest double; "
                                          "the naive weights are undefined. no weights")
    assert not re.search(r"\d\.\d{3}", shown["layerText"])  # no weight anywhere in the layer
    no_nan_anywhere(page.page)


def matrix_cells(page) -> list[list[str]]:
    return page.evaluate("""() => [...document.querySelectorAll('#fig-006 tbody tr')]
      .map(tr => [...tr.querySelectorAll('td')].map(td => td.className + '|' + td.textContent))""")


def test_without_the_mask_the_matrix_on_request_loses_its_hatching(page):
    p = page.page
    core = bench_view.view(head="sink", query=0, without=["mask"])
    open_page(page, "bench/?head=sink&query=0&without=mask", BENCH_READY, core["whatif"]["sentence"])
    real = matrix_cells(p)
    hatched = sum("masked future" in c for row in real for c in row)
    assert hatched == 8 * 7 // 2  # the causal mask: every later word, 28 cells
    box = p.locator('#fig-006 input[name="whatif-matrix"]')
    assert box.is_enabled() and p.locator("#fig-006 .whatif-matrix label").text_content().strip() \
        == "Show the matrix without the causal mask"
    box.focus()
    p.keyboard.press("Space")
    shown = matrix_cells(p)
    assert not any("masked" in c for row in shown for c in row)  # no hatching left
    for r, row in enumerate(core["whatif"]["matrix"]):
        for c, cell in enumerate(row["cells"]):
            assert shown[r][c] == f"m l{cell[1]}|{cell[0]}"  # later cells carry numbers too
    assert any(shown[r][c].split("|")[1] != "0.000" for r in range(8) for c in range(r + 1, 8))
    assert p.locator("#fig-006 table.matrix").evaluate("t => t.tagName") == "TABLE"  # a real table
    status = p.locator("#fig-006 .whatif-matrix-status").text_content()
    assert status == core["whatif"]["matrix_note"]
    p.keyboard.press("Space")  # and back to the real matrix
    assert matrix_cells(p) == real
    no_nan_anywhere(p)


def test_the_matrix_on_request_follows_the_bench_and_overflow_is_words(page):
    p = page.page
    core = bench_view.view(temperature="0.05", without=["shift"])
    open_page(page, "bench/?without=shift&t=0.05", BENCH_READY, core["whatif"]["sentence"])
    p.check('#fig-006 input[name="whatif-matrix"]')
    shown = matrix_cells(p)
    for r in range(8):  # every row overflows: its cells say so in a word, never a number
        assert shown[r][: r + 1] == ["m undefined|none"] * (r + 1)
    notes = p.locator("#fig-006 tbody th .row-empty").all_text_contents()
    assert notes == [" (overflow)"] * 8
    # the last step turned off in FIG-004: the control turns off, the real matrix is back
    p.uncheck('#fig-004 .whatif input[value="shift"]')
    p.wait_for_function("() => document.querySelector('#fig-006 input[name=\"whatif-matrix\"]').disabled",
                        timeout=60000)
    real = bench_view.view(temperature="0.05")["matrix"]
    cells = matrix_cells(p)
    assert [c.split("|")[1] for c in cells[6][:7]] == [x[0] for x in real[6][:7]]
    assert not p.is_checked('#fig-006 input[name="whatif-matrix"]')
    no_nan_anywhere(p)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations_with_the_counterfactual_shown(browser, server, scheme):
    # A fresh page, not the shared one: after an in-place swap the skip link still points at
    # the page the tab first loaded (nav.js pins every link), and axe rightly flags that.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    w = watch(context, server)
    core = bench_view.view(head="sink", query=0, without=["mask", "shift"], temperature="0.05")
    open_page(w, "bench/?head=sink&query=0&without=mask,shift&t=0.05", BENCH_READY,
              core["whatif"]["sentence"])
    w.page.check('#fig-006 input[name="whatif-matrix"]')
    settle(w.page)
    results = Axe().run(w.page)
    context.close()
    assert results.violations_count == 0, results.generate_report()
    w.assert_clean()


def test_the_svg_download_carries_the_ghosts(page, tmp_path):
    p = page.page
    core = bench_view.view(without=["scale"])
    open_bench(page, "bench/?without=scale", core["whatif"]["sentence"])
    p.click("#fig-004 .share summary")
    with p.expect_download() as info:
        p.click("#fig-004 .share button:has-text('Drawing as SVG')")
    text = Path(info.value.path()).read_text(encoding="utf-8")
    root = ET.fromstring(text)
    ns = "{http://www.w3.org/2000/svg}"
    dashed = [line for line in root.iter(f"{ns}line")
              if line.get("stroke-dasharray") not in (None, "none") and line.get("x1") == "0"
              and line.get("y1") == "0"]
    assert len(dashed) == len(core["drawing"]["whatif"]["ghosts"])  # every ghost needle, dashed
    x, y, w, h = core["drawing"]["viewbox"].split()  # the drawing's, and the caption's band
    lines = [t for t in root.iter(f"{ns}text") if t.get("data-role") == "caption"]
    assert lines and root.get("viewBox") == f"{x} {y} {w} {int(h) + 20 * len(lines) + 10}"
    words = " ".join(t.text or "" for t in root.iter(f"{ns}text"))
    assert "Dashed needles: its scores." in words
    # what the page hides is not in the file either: the real tray's thin strata have no label
    assert "engineer 0.835" in words and "fixed 0.000" not in words
    assert root.find(f".//{ns}pattern") is not None  # the textures' patterns stay
