"""The live runtime in real Chromium: Pyodide runs the attention package in a worker."""

from __future__ import annotations

import re

import pytest

from attention import figures, lab
from tests.browser.conftest import watch

READY = '.runtime-status[data-state="ready"]'
NUMBER = re.compile(r"^(?:−?\d+(?:\.\d+)?|\[−?\d+(?:\.\d+)?(?:, −?\d+(?:\.\d+)?)*\]|−∞)$")


def table_texts(page, selector: str) -> list[list[str]]:
    """Return the cell texts of a table body, row by row."""
    return page.eval_on_selector_all(
        f"{selector} tbody tr",
        "rows => rows.map(r => [...r.querySelectorAll('td[data-bind], td span[data-bind]')]"
        ".map(e => e.textContent))")


def expected_fig_002(token: str) -> list[list[str]]:
    """What CPython computes for FIG-002 with this query, in the page's column order."""
    data = figures.fig_002.data(token)
    return [[r["score"]["text"], r["scaled"]["text"], r["weight"]["text"], r["contribution"]["text"]]
            for r in data["rows"]]


def assert_numbers_only(page, selector: str):
    """Every number cell on screen holds a number: never NaN, never blank."""
    texts = page.eval_on_selector_all(f"{selector} td.num, {selector} .num", "els => els.map(e => e.textContent)")
    assert texts and all(NUMBER.match(t.strip()) for t in texts), texts


@pytest.fixture
def mixture(site_page):
    """FIG-002's page, just opened in a fresh context: Python still boots."""
    site_page.page.goto(site_page.base + "mixture/")
    return site_page


@pytest.fixture
def live_mixture(booted, viewport_width):
    """FIG-002's page on the worker's shared page (its Python already booted)."""
    booted.open("mixture/", width=viewport_width)
    return booted


def test_clicking_grid_recomputes_fig_002(live_mixture):
    page = live_mixture.page
    page.click('#fig-002 tr[data-query="grid"] button')
    page.wait_for_function("() => document.querySelector('#fig-002 [data-bind=query]').textContent === 'grid'",
                           timeout=60000)
    assert [row[2] for row in table_texts(page, "#fig-002")] == ["0.401", "0.198", "0.401"]
    assert page.inner_text('#fig-002 [data-bind="output"]') == "[0.802, 1.198]"
    assert table_texts(page, "#fig-002") == expected_fig_002("grid")
    assert page.get_attribute('#fig-002 tr[data-query="grid"]', "class") == "choosable is-query"
    assert page.get_attribute('#fig-002 tr[data-query="grid"] button', "aria-pressed") == "true"
    assert page.get_attribute('#fig-002 tr[data-query="rises"] button', "aria-pressed") == "false"
    width = page.get_attribute('#fig-002 tr[data-query="grid"] [data-bind="bar"]', "width")
    assert float(width) == pytest.approx(figures.fig_002.data("grid")["rows"][0]["weight"]["value"])
    assert_numbers_only(page, "#fig-002")


def test_keyboard_chooses_load_then_rises(live_mixture):
    page = live_mixture.page
    page.wait_for_selector(READY, timeout=60000)
    page.focus('#fig-002 tr[data-query="load"] button')
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#fig-002 [data-bind=query]').textContent === 'load'")
    assert [row[2] for row in table_texts(page, "#fig-002")] == ["0.248", "0.248", "0.503"]
    assert table_texts(page, "#fig-002") == expected_fig_002("load")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Space")  # Tab order reaches grid's button before load's
    page.wait_for_function("() => document.querySelector('#fig-002 [data-bind=query]').textContent === 'grid'")
    assert table_texts(page, "#fig-002") == expected_fig_002("grid")


def test_a_click_before_ready_is_answered_when_ready(mixture):
    page = mixture.page
    state = page.get_attribute("#fig-002 .runtime-status", "data-state")
    assert state in (None, "idle", "loading")  # the runtime is still booting
    page.click('#fig-002 tr[data-query="load"] button')
    page.wait_for_selector(READY, timeout=60000)
    page.wait_for_function("() => document.querySelector('#fig-002 [data-bind=query]').textContent === 'load'")
    assert table_texts(page, "#fig-002") == expected_fig_002("load")


def test_the_page_can_say_where_pythons_start_went(mixture):
    """Each step of the worker's start is a performance measure (the profiler and `build.py
    benchmark` read them): in order, one after another, and all before the page says ready."""
    page = mixture.page
    page.wait_for_selector('#fig-002 .runtime-status[data-state="ready"]', timeout=60000)
    steps = page.evaluate("""() => performance.getEntriesByType('measure')
      .filter(m => m.name.startsWith('python: ')).map(m => [m.name, m.startTime, m.duration])""")
    names = [name for name, _, _ in steps]
    # the download has a step of its own only when the WebAssembly was still arriving after the
    # runtime script (worker.js); from the HTTP cache, or streamed quickly, it arrived before
    download = ["python: WebAssembly download"] if "python: WebAssembly download" in names else []
    assert names == ["python: runtime script", *download,
                     "python: compile and interpreter start", "python: numpy and attention wheels",
                     "python: import numpy", "python: import attention"]
    for (_, start, took), (_, after, _) in zip(steps, steps[1:]):
        assert took >= 0 and after == pytest.approx(start + took, abs=1)
    assert steps[-1][1] + steps[-1][2] <= page.evaluate("performance.now()")


def test_runtime_files_come_from_the_site_under_a_versioned_path(browser, server):
    """A first visit's runtime and wheels (a return visit starts from what the first one
    saved, and asks for neither wheel: test_return_visit.py)."""
    context = browser.new_context()
    page = context.new_page()
    seen = []
    page.on("request", lambda r: seen.append(r.url))
    page.goto(server + "mixture/")
    page.wait_for_selector(READY, timeout=60000)
    context.close()
    runtime = [u for u in seen if "/runtime/" in u]
    assert any(u.endswith("/runtime/0.27.7/pyodide.asm.wasm") for u in runtime)
    assert any(u.endswith("numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl") for u in seen)
    assert any(re.search(r"/py/[0-9a-f]{16}/attention_bench-0\.1\.0-py3-none-any\.whl$", u) for u in seen)


def test_blocked_runtime_leaves_the_static_figure_and_says_why(browser, server):
    context = browser.new_context(service_workers="block")  # page routes see every request
    w = watch(context, server)
    w.page.route("**/runtime/**", lambda route: route.abort())
    w.page.goto(server + "mixture/")
    status = w.page.wait_for_selector('#fig-002 .runtime-status[data-state="failed"]', timeout=60000)
    assert "Python could not start here" in status.inner_text()
    assert "computed when the site was built" in status.inner_text()
    assert w.page.inner_text("#fig-002 .runtime-action") == "Try again"
    w.page.click('#fig-002 tr[data-query="grid"] button')  # one step away: precomputed, still answered
    w.page.wait_for_function("() => document.querySelector('#fig-002 [data-bind=query]').textContent === 'grid'")
    assert table_texts(w.page, "#fig-002") == expected_fig_002("grid")
    assert w.page_errors == [] and w.foreign_requests == []
    context.close()


def test_blocked_runtime_answers_a_state_outside_the_tables_with_why(browser, server):
    context = browser.new_context(service_workers="block")
    w = watch(context, server)
    w.page.route("**/runtime/**", lambda route: route.abort())
    w.page.goto(server + "lab/")
    w.page.wait_for_selector('#fig-003 .runtime-status[data-state="failed"]', timeout=60000)
    # in a reader's words, not the engine's ("Failed to fetch")
    assert w.page.inner_text("#fig-003 .runtime-status").startswith(
        "Python could not start here (its files could not be downloaded).")
    w.page.fill("#lab-q1", "0.37")  # a typed query: only Python could compute it
    notice = w.page.locator("#fig-003 .lab-controls #lab-runtime-msg")  # at the controls
    notice.wait_for(state="visible")
    assert "Python could not start here" in notice.inner_text()  # the change is answered, honestly
    assert lab_rows(w.page) == expected_lab()  # still the static figure
    assert w.page_errors == [] and w.foreign_requests == []
    context.close()


# ---- the lab ----

@pytest.fixture
def lab_page(booted, viewport_width):
    """The lab, live, on the worker's shared page (its Python already booted)."""
    booted.open("lab/", width=viewport_width)
    booted.page.wait_for_selector(READY, timeout=60000)
    return booted


def lab_rows(page) -> list[list[str]]:
    return table_texts(page, "#fig-003 table.working")  # not the what-if panel


def expected_lab(**state) -> list[list[str]]:
    v = lab.view(**state)
    return [[r[k]["text"] for k in ("score", "scaled", "tempered", "shifted", "exp", "weight")]
            for r in v["rows"]]


def test_lab_zero_query_is_uniform(lab_page):
    page = lab_page.page
    page.fill("#lab-q1", "0")
    page.fill("#lab-q2", "0")
    page.wait_for_function("() => document.querySelector('#fig-003 [data-bind=output]').textContent === '[0.667, 1.333]'")
    assert [row[5] for row in lab_rows(page)] == ["0.333", "0.333", "0.333"]
    assert lab_rows(page) == expected_lab(query=["0", "0"])


def test_prediction_then_reveal(lab_page):
    page = lab_page.page
    assert page.is_hidden("#zero-reveal")
    page.click('button[data-guess="zero"]')
    assert "Not quite" in page.inner_text(".predict-feedback")  # the answer is "something else"
    page.click(".reveal-now")  # or look at the lab's output: the explanation opens then
    assert page.is_visible("#zero-reveal")
    page.wait_for_function("() => document.querySelector('#fig-003 [data-bind=output]').textContent === '[0.667, 1.333]'")
    assert page.input_value("#lab-q1") == "0" and page.input_value("#lab-q2") == "0"


BAD_INPUTS = [
    ("#lab-q1", "", "Enter a number."),
    ("#lab-q1", "abc", "“abc” is not a number."),
    ("#lab-q2", "NaN", "NaN is not a number you can compute with."),
    ("#lab-q2", "Infinity", "Infinity is out of range"),
    ("#lab-q1", "1e308", "1e308 is out of range"),
    ("#lab-t", "0", "T must be greater than 0"),
    ("#lab-t", "-1", "T must be greater than 0"),
]


def test_lab_bad_input_shows_a_message_and_keeps_the_last_good_state(lab_page):
    page = lab_page.page
    for field, text, message in BAD_INPUTS:
        page.fill("#lab-q1", "0.5")
        page.fill("#lab-q2", "1")
        page.fill("#lab-t", "1")
        page.wait_for_function(
            "() => document.querySelector('#lab-t-msg').textContent === '' && "
            "document.querySelector('#lab-q1-msg').textContent === '' && "
            "document.querySelector('#lab-q2-msg').textContent === '' && "
            "document.querySelector('#fig-003 [data-bind=query]').textContent.startsWith('[0.500')")
        good = lab_rows(page)
        assert good == expected_lab(query=["0.5", "1"])
        page.fill(field, text)
        msg = f"{field}-msg"
        page.wait_for_function(f"() => document.querySelector('{msg}').textContent.length > 0")
        assert message in page.inner_text(msg), (field, text)
        assert page.get_attribute(field, "aria-invalid") == "true"
        assert lab_rows(page) == good, (field, text)
        assert_numbers_only(page, "#fig-003")


def test_lab_every_key_blocked(lab_page):
    page = lab_page.page
    for i in range(3):
        page.click(f'input[name="mask"][value="{i}"]')
    page.wait_for_function("() => document.querySelector('#lab-mask-msg').textContent.length > 0")
    assert page.inner_text("#lab-mask-msg").startswith("No key is allowed: nothing to mix.")
    assert_numbers_only(page, "#fig-003")
    page.click('input[name="mask"][value="1"]')
    page.wait_for_function("() => document.querySelector('#lab-mask-msg').textContent === ''")
    assert lab_rows(page) == expected_lab(mask=[False, True, False])
    assert lab_rows(page)[0][3] == "−∞"


def test_lab_pad_keyboard_and_slider(lab_page):
    page = lab_page.page
    page.focus(".pad")
    page.keyboard.press("ArrowUp")
    page.wait_for_function("() => document.querySelector('#lab-q2').value === '1.1'")
    assert lab_rows(page) == expected_lab(query=["1", "1.1"])
    page.fill("#lab-t-range", "0")
    page.wait_for_function("() => document.querySelector('#lab-t').value === '0.01'")  # lab.T_RANGE's low end
    assert lab_rows(page) == expected_lab(query=["1", "1.1"], temperature="0.01")
    page.locator(".pad").scroll_into_view_if_needed()  # a mouse click lands only in the viewport
    box = page.locator(".pad").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # the origin
    page.wait_for_function("() => document.querySelector('#lab-q1').value === '0' && "
                           "document.querySelector('#lab-q2').value === '0'")
    assert page.inner_text('#fig-003 [data-bind="output"]') == "[0.667, 1.333]"


def test_without_javascript_the_lab_shows_its_default_working(browser, server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server + "lab/")
    assert page.is_hidden(".lab-controls") and page.is_hidden(".predict-choices")
    assert page.is_visible("#zero-reveal")  # the explanation is part of the page
    assert lab_rows(page) == expected_lab()
    context.close()
