"""Chapter 5, /layer/, in real Chromium: FIG-009 recomputes a typed sentence in Python, each
switch marks exactly the steps after its part, a number's working shows on a click or with the
keyboard, a link opens its state, and the first clicks come from the precomputed tables."""

from __future__ import annotations

import re

import pytest

from attention import layer_view
from tests.browser.conftest import watch
from tests.browser.test_before_python import Phone

READY = '.runtime-status[data-state="ready"]'

# FIG-009's numbers as the page shows them: each table's cell texts row by row, the sizes, the
# followed word, the steps marked as changed and the sentence saying what changed.
READ = """() => {
  const root = document.querySelector('#fig-009');
  const cells = (sel) => [...root.querySelectorAll(sel + ' tbody tr')].map((tr) =>
    [...tr.querySelectorAll('td[data-cell] .v')].map((e) => e.textContent));
  return {
    focus: root.querySelector('[data-bind="focus"]').textContent,
    heads: cells('.layer-heads-table'),
    stream: cells('.layer-stream'),
    sizes: [...root.querySelectorAll('[data-size] .v')].map((e) => e.textContent),
    marked: [...root.querySelectorAll('.layer-stream thead th.is-changed')].map((th) => th.dataset.step),
    changed: root.querySelector('[data-bind="changed"]').hidden ? '' :
      root.querySelector('[data-bind="changed"]').textContent,
    stale: root.classList.contains('is-stale'),
  };
}"""


def expected(**state) -> dict:
    """What CPython's attention.layer_view computes for a state, in READ's shape."""
    v = layer_view.view(**state)
    return {
        "focus": v["focus"]["word"],
        "heads": [[c["text"] for c in f["cells"]] for f in v["features"]],
        "stream": [[c["text"] for c in r["cells"]] for r in v["rows"]],
        "sizes": [s["text"] for s in v["sizes"]],
        "marked": [s["key"] for s in v["steps"] if s["changed"] and v["changed"]],
        "changed": v["changed"],
        "stale": False,
    }


def wait_for_focus(page, word: str) -> None:
    page.wait_for_function("(w) => document.querySelector('#fig-009 [data-bind=\"focus\"]').textContent === w",
                           arg=word, timeout=60000)


@pytest.fixture
def layer_page(booted):
    booted.open("layer/")
    booted.page.wait_for_selector(f"#fig-009 {READY}", timeout=90000)
    return booted


def test_a_typed_sentence_is_recomputed_by_python(layer_page):
    page = layer_page.page
    sentence = "the pilot saw the car before he left"
    page.fill("#layer-sentence", sentence)
    page.click("#fig-009 .layer-controls button[type=submit]")
    wait_for_focus(page, "he")
    assert page.evaluate(READ) == expected(sentence=sentence)
    assert "Python in your browser computed" in page.inner_text("#fig-009 .runtime-status")
    assert page.locator("#fig-009 .layer-words button").all_inner_texts() == sentence.split()
    page.wait_for_function("() => location.search.includes('sentence=the+pilot')", timeout=10000)


def test_each_switch_marks_exactly_the_steps_after_its_part(layer_page):
    page = layer_page.page
    for part, first in (("residual", 5), ("layer_norm", 6), ("mlp", 7)):
        page.uncheck(f'#fig-009 input[name="part"][value="{part}"]')
        page.wait_for_function("() => !document.querySelector('#fig-009 [data-bind=\"changed\"]').hidden",
                               timeout=60000)
        shown = page.evaluate(READ)
        assert shown == expected(without=[part]), part
        titles = page.locator("#fig-009 .layer-stream thead .step-title").all_inner_texts()
        assert titles == [st["title"] for st in layer_view.view(without=[part])["steps"]]
        steps = {s["key"]: s["n"] for s in layer_view.view()["steps"]}
        assert sorted(steps[k] for k in shown["marked"]) == [n for n in steps.values() if n >= first]
        assert f"Without {layer_view.switch_labels()[part]}" in shown["changed"]
        page.check(f'#fig-009 input[name="part"][value="{part}"]')
        page.wait_for_function("() => document.querySelector('#fig-009 [data-bind=\"changed\"]').hidden",
                               timeout=60000)
        assert page.evaluate(READ) == expected()
    page.select_option('#fig-009 select[name="silent"]', "coreference")
    page.wait_for_function("() => !document.querySelector('#fig-009 [data-bind=\"changed\"]').hidden",
                           timeout=60000)
    assert page.evaluate(READ) == expected(silent="coreference")
    page.click('#fig-009 .layer-words button >> nth=0')  # "the": the head changed none of its stream
    wait_for_focus(page, "the")
    assert page.evaluate(READ) == expected(silent="coreference", focus=0)
    assert page.evaluate(READ)["marked"] == []
    assert "is-silent" in page.get_attribute('#fig-009 [data-head="coreference"]', "class")
    page.wait_for_function("() => location.search.includes('silent=coreference')", timeout=10000)


def test_a_numbers_working_shows_on_a_click_and_with_the_arrow_keys(layer_page):
    page = layer_page.page
    v = layer_view.view()
    page.click('#fig-009 [data-cell="norm1-ref_noun"]')
    how = page.locator('#fig-009 [data-bind="how"]')
    row = next(r for r in v["rows"] if r["name"] == "ref_noun")
    assert how.inner_text().endswith(row["cells"][3]["how"])
    assert how.inner_text().startswith("ref_noun")
    page.keyboard.press("ArrowRight")
    assert how.inner_text().endswith(row["cells"][4]["how"])
    page.keyboard.press("ArrowDown")
    nxt = v["rows"][v["rows"].index(row) + 1]
    assert how.inner_text().endswith(nxt["cells"][4]["how"])
    assert page.evaluate("() => document.activeElement.dataset.cell") == f"mlp-{nxt['name']}"
    # a new answer keeps the chosen number and shows its new working
    page.click('#fig-009 .layer-words button >> text="engineer"')
    wait_for_focus(page, "engineer")
    nxt1 = next(r for r in layer_view.view(focus=1)["rows"] if r["name"] == nxt["name"])
    page.wait_for_function("(t) => document.querySelector('#fig-009 [data-bind=\"how\"]').textContent.endsWith(t)",
                           arg=nxt1["cells"][4]["how"], timeout=10000)


# a number of the stream's table as drawn: its style and its colour
LOOK = """() => { const s = getComputedStyle(document.querySelector('#fig-009 [data-cell="x-bias"]'));
  return [s.fontStyle, s.color]; }"""


def test_bad_input_says_why_and_keeps_the_last_numbers_marked_out_of_date(layer_page):
    page = layer_page.page
    assert page.evaluate(LOOK)[0] == "normal"
    grey = page.evaluate("() => getComputedStyle(document.querySelector('#fig-009 .layer-gloss')).color")  # --muted
    page.fill("#layer-sentence", "the cat sat")
    page.click("#fig-009 .layer-controls button[type=submit]")
    message = page.locator("#layer-sentence-msg")
    message.wait_for(state="visible", timeout=60000)
    assert message.inner_text().startswith("Not in the lexicon: “cat”")
    shown = page.evaluate(READ)
    assert shown["stale"] and shown["stream"] == expected()["stream"]
    # as the notice says: in grey italics (they were drawn as current)
    assert page.evaluate(LOOK) == ["italic", grey]
    page.fill("#layer-t", "0")
    page.dispatch_event("#layer-t", "change")
    page.wait_for_function("() => document.querySelector('#layer-t-msg').textContent !== ''", timeout=60000)
    assert page.get_attribute("#layer-t", "aria-invalid") == "true"


def test_a_link_opens_its_state(booted):
    booted.open("layer/?word=1&off=mlp,residual&silent=sink&t=0.5")
    page = booted.page
    wait_for_focus(page, "engineer")
    page.wait_for_function("() => !document.querySelector('#fig-009 [data-bind=\"changed\"]').hidden",
                           timeout=60000)
    assert page.evaluate(READ) == expected(focus=1, without=["mlp", "residual"], silent="sink",
                                           temperature="0.5")
    assert not page.is_checked('#fig-009 input[value="mlp"]')
    assert page.input_value('#fig-009 select[name="silent"]') == "sink"


def test_before_python_a_first_click_is_answered_from_the_tables(browser, server):
    """On a phone that has not loaded Python, following another word or turning a switch is
    answered from the precomputed tables, with the numbers CPython computes."""
    phone = Phone(browser, server)
    page = phone.page
    page.goto(server + "layer/")
    page.click('#fig-009 .layer-words button >> text="bridge"')
    wait_for_focus(page, "bridge")
    assert page.evaluate(READ) == expected(focus=4)
    page.goto(server + "layer/")  # a first click again: a switch
    page.uncheck('#fig-009 input[name="part"][value="layer_norm"]')
    page.wait_for_function("() => !document.querySelector('#fig-009 [data-bind=\"changed\"]').hidden",
                           timeout=30000)
    assert page.evaluate(READ) == expected(without=["layer_norm"])
    assert phone.refused == [] or all(re.search(r"/(runtime|py)/", u) for u in phone.refused)
    assert not page.query_selector(f"#fig-009 {READY}")  # no Python: the tables answered
    phone.w.assert_clean()
    phone.close()


def test_without_javascript_the_layer_shows_every_number(browser, server):
    context = browser.new_context(java_script_enabled=False)
    w = watch(context, server)
    w.page.goto(server + "layer/")
    html = w.page.content()
    v = layer_view.view()
    for r in [*v["rows"], *v["features"]]:
        for c in r["cells"]:
            assert f'<span class="v">{c["text"]}</span>' in html
    assert w.page.is_hidden("#fig-009 .layer-controls")  # no control that cannot work
    assert len(w.page.query_selector_all("#fig-010 td.num")) >= len(v["steps"])
    context.close()


# FIG-010's numbers as the page shows them: the word, the sentence, each step's two lengths,
# the heads' writes and the ratios, and whether they are marked as for another sentence.
READ_TRAINED = """() => {
  const root = document.querySelector('#fig-010');
  const text = (sel) => root.querySelector(sel).textContent;
  return {
    word: text('[data-bind="word"]'), sentence: text('[data-bind="sentence"]'),
    toy: [...root.querySelectorAll('[data-toy]')].map((e) => e.textContent),
    trained: [...root.querySelectorAll('[data-trained]')].map((e) => e.textContent),
    heads: [text('[data-bind="toy-heads"]'), text('[data-bind="trained-heads"]')],
    ratios: [text('[data-bind="ratio-toy"]'), text('[data-bind="ratio-trained"]')],
    stale: root.classList.contains('is-stale'),
  };
}"""


def expected_trained(sentence=None, focus=None) -> dict:
    """What CPython's FIG-010 data gives for a sentence and a word, in READ_TRAINED's shape."""
    from attention.figures import fig_010

    d = fig_010.data(sentence)
    i = d["word"]["index"] if focus is None else focus
    return {"word": d["words"][i], "sentence": d["sentence"],
            "toy": [s["toy"][i]["text"] for s in d["steps"]],
            "trained": [s["trained"][i] for s in d["steps"]],
            "heads": [", ".join(f"{n} {h[i]['text']}" for n, h in zip(d["heads"]["toy_names"], d["heads"]["toy"])),
                      ", ".join(f"#{k + 1} {h[i]}" for k, h in enumerate(d["heads"]["trained"]))],
            "ratios": [d["ratio"]["toy"], d["ratio"]["trained"]], "stale": False}


def test_the_trained_layer_follows_the_word_and_runs_a_typed_sentence_once_asked(layer_page):
    """FIG-010 shows the word FIG-009 follows at once; for a sentence of the reader's, it says
    its lengths are for another sentence until the reader asks, then Python downloads the
    weights once and computes each sentence after it without asking again."""
    page = layer_page.page
    fetched = []
    page.on("request", lambda r: r.url.endswith(".npz") and fetched.append(r.url))
    assert page.evaluate(READ_TRAINED) == expected_trained()
    page.click('#fig-009 .layer-words button >> text="engineer"')
    wait_for_focus(page, "engineer")
    assert page.evaluate(READ_TRAINED) == expected_trained(focus=1)
    sentence = "the pilot saw the car before he left"
    page.fill("#layer-sentence", sentence)
    page.click("#fig-009 .layer-controls button[type=submit]")
    wait_for_focus(page, "he")
    ask = page.locator('#fig-010 [data-bind="ask"]')
    assert ask.is_visible() and page.evaluate(READ_TRAINED)["stale"]
    assert f"not for your sentence, “{sentence}”" in ask.inner_text()
    assert fetched == []  # nothing downloaded before the reader asks
    page.focus('#fig-010 [data-bind="ask-button"]')  # from the keyboard
    page.keyboard.press("Enter")
    page.wait_for_function("(s) => document.querySelector('#fig-010 [data-bind=\"sentence\"]').textContent === s",
                           arg=sentence, timeout=60000)
    assert page.evaluate(READ_TRAINED) == expected_trained(sentence)
    assert ask.is_hidden()
    # the focus is not lost to the page when the button goes: it is on the figure's table
    assert page.evaluate("() => document.activeElement.closest('#fig-010') !== null")
    assert "Your browser has these weights now" in page.inner_text('#fig-010 [data-bind="origin"]')
    from attention import trained_layer
    assert [u.rsplit("/", 1)[1] for u in fetched] == [trained_layer.weights_name()]
    sentence = "the doctor saw the pilot before she left"  # asked once: the next one is computed
    page.fill("#layer-sentence", sentence)
    page.click("#fig-009 .layer-controls button[type=submit]")
    page.wait_for_function("(s) => document.querySelector('#fig-010 [data-bind=\"sentence\"]').textContent === s",
                           arg=sentence, timeout=60000)
    assert page.evaluate(READ_TRAINED) == expected_trained(sentence)
    assert len(fetched) == 1
    layer_page.w.assert_clean()


def test_a_weights_download_that_fails_says_so_and_can_be_tried_again(browser, server):
    """A server that fails the weights' download: FIG-010 says why, keeps the other sentence's
    lengths marked, and the button tries again (a fresh page: the shared one's Python may hold
    the weights already)."""
    context = browser.new_context(service_workers="block")  # every request reaches the route
    context.route("**/*.npz", lambda route: route.fulfill(status=503, body="busy"))
    w = watch(context, server)
    page = w.page
    page.goto(server + "layer/")
    page.wait_for_selector(f"#fig-009 {READY}", timeout=90000)
    sentence = "the pilot saw the car before he left"
    page.fill("#layer-sentence", sentence)
    page.click("#fig-009 .layer-controls button[type=submit]")
    wait_for_focus(page, "he")
    page.click('#fig-010 [data-bind="ask-button"]')
    page.wait_for_function("() => /could not be downloaded/.test(document.querySelector('#fig-010 [data-bind=\"ask-status\"]').textContent)",
                           timeout=60000)
    assert "the server answered 503" in page.inner_text('#fig-010 [data-bind="ask-status"]')
    assert page.evaluate(READ_TRAINED)["stale"]
    assert page.is_visible('#fig-010 [data-bind="ask-button"]')
    context.unroute("**/*.npz")
    page.click('#fig-010 [data-bind="ask-button"]')
    page.wait_for_function("(s) => document.querySelector('#fig-010 [data-bind=\"sentence\"]').textContent === s",
                           arg=sentence, timeout=60000)
    assert page.evaluate(READ_TRAINED) == expected_trained(sentence)
    context.close()


def test_the_tables_headers_stand_over_their_numbers_and_the_controls_read_in_sans(layer_page):
    """A teacher's pass: the heads table's column names sat at the start of their cells while
    the numbers ended at the end; the controls' labels were in the prose's serif."""
    page = layer_page.page
    seen = page.evaluate("""() => {
      const gap = [];
      for (const table of document.querySelectorAll('#fig-009 .layer-table')) {
        const heads = [...table.querySelectorAll('thead th')].slice(1);
        const cells = [...table.querySelector('tbody tr').cells].slice(1);
        heads.forEach((th, k) => {
          const range = document.createRange(); range.selectNodeContents(th);
          const text = range.getBoundingClientRect().right, number = cells[k].querySelector('.v, .num') || cells[k];
          const r = document.createRange(); r.selectNodeContents(number);
          gap.push(Math.abs(text - r.getBoundingClientRect().right));
        });
      }
      const font = (el) => getComputedStyle(el).fontFamily;
      return { gap: Math.max(...gap), label: font(document.querySelector('#fig-009 label[for="layer-t"]')),
               sans: getComputedStyle(document.documentElement).getPropertyValue('--sans').trim() };
    }""")
    assert seen["gap"] < 12, seen  # the name's end within a few pixels of its numbers' end
    assert seen["label"].split(",")[0].strip("'\" ") == seen["sans"].split(",")[0].strip("'\" "), seen


def test_a_click_after_a_sentence_that_could_not_be_used_says_the_sentence_stayed(layer_page):
    """A learner typed "the cat sat", then clicked a word: the bench's sentence came back into
    the box and the message went, with no word of why."""
    page = layer_page.page
    page.fill("#layer-sentence", "the cat sat")
    page.click("#fig-009 .layer-controls button[type=submit]")
    message = page.locator("#layer-sentence-msg")
    message.wait_for(state="visible", timeout=60000)
    page.click('#fig-009 .layer-words button >> text="engineer"')
    wait_for_focus(page, "engineer")
    page.wait_for_function("() => !document.querySelector('#fig-009').classList.contains('is-stale')", timeout=60000)
    assert message.inner_text() == "The sentence stays the last one that could be used; the one typed could not."
    assert page.input_value("#layer-sentence") == " ".join(layer_view.view()["sentence"]["words"])
