"""FIG-008 in real Chromium: the trained rows shown are the committed ones, and they follow
the bench's query, head and sentence."""

from __future__ import annotations

import json
import re

import pytest

from attention import bench, bench_view
from attention.trained_view import DATA

READY = '#fig-004 .runtime-status[data-state="ready"]'
COMMITTED = json.loads(DATA.read_text(encoding="utf-8"))  # read here, not through the module


def committed_row(example: int, name: str, token: int) -> list[str]:
    """The committed trained row of head "L-H" for a query token of an example sentence."""
    layer, head = (int(x) for x in name.split("-"))
    return COMMITTED["examples"][example]["rows"][layer][head][token].split(" ")


def best(behaviour: str) -> str:
    r = COMMITTED["search"]["results"][behaviour]
    return f"{r['layer']}-{r['head']}"


def shown(page) -> dict:
    return page.evaluate("""() => ({
      tokens: [...document.querySelectorAll('#fig-008 tbody[data-bind="trained-rows"] tr th')].map(e => e.textContent),
      trained: [...document.querySelectorAll('#fig-008 [data-bind="trained"] .num')].map(e => e.textContent),
      handset: [...document.querySelectorAll('#fig-008 [data-bind="handset"]')].map(e => e.querySelector('.num')?.textContent ?? null),
      query: document.querySelector('#fig-008 [data-bind="query-word"]').textContent,
      head: document.querySelector('#fig-008 [data-bind="trained-head"]').textContent,
      busy: document.querySelector('#fig-008 [data-bind="compare"]').hasAttribute('aria-busy'),
    })""")


def expected(example: int, name: str, query: int, **state) -> dict:
    words = COMMITTED["examples"][example]["words"]
    v = bench_view.view(sentence=" ".join(words), query=query, **state)
    return {"tokens": ["[CLS]", *words, "[SEP]"],
            "trained": committed_row(example, name, query + 1),
            "handset": [None, *[r["weight"]["text"] for r in v["rows"]], None]}


def test_static_panel_shows_the_committed_default_row(browser, server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(server + "bench/")
    s = shown(page)
    i = bench_view.view()["query"]["index"]  # the bench's default query, "she"
    assert s["query"] == bench.DEFAULT_SENTENCE[i]
    e = expected(0, best("coreference"), i)
    assert (s["tokens"], s["trained"], s["handset"]) == (e["tokens"], e["trained"], e["handset"])
    assert page.locator("#fig-008 .trained-controls").is_hidden()
    assert s["head"] == "layer {}, head {}".format(*best("coreference").split("-"))
    context.close()


def test_panel_follows_the_bench_query_head_and_sentence(booted, viewport_width):
    page = booted.open("bench/", width=viewport_width)
    page.wait_for_selector(READY, timeout=60000)
    # click the bench table's row for "engineer" (word 1): the panel's query follows
    page.locator('#fig-005 tbody tr[data-index="1"] button').click()
    page.wait_for_function("() => document.querySelector('#fig-008 [data-bind=\"query-word\"]')"
                           ".textContent === 'engineer'", timeout=60000)
    page.wait_for_function("() => !document.querySelector('#fig-008 [data-bind=\"compare\"]')"
                           ".hasAttribute('aria-busy')")
    s = shown(page)
    e = expected(0, best("coreference"), 1)
    assert (s["trained"], s["handset"]) == (e["trained"], e["handset"])
    assert s["trained"] != committed_row(0, best("coreference"), 7)  # it really changed

    # switch the bench to the sink head: the panel shows the sink's best match
    page.locator('#fig-004 input[name="head"][value="sink"]').check()
    label = "layer {}, head {}".format(*best("sink").split("-"))
    page.wait_for_function(f"() => document.querySelector('#fig-008 [data-bind=\"trained-head\"]')"
                           f".textContent === '{label}'", timeout=60000)
    s = shown(page)
    e = expected(0, best("sink"), 1, head="sink")
    assert (s["trained"], s["handset"]) == (e["trained"], e["handset"])
    assert s["trained"][0] == max(s["trained"], key=float)  # its sink is [CLS]

    # pick any head: its committed row appears, and the address keeps it
    page.select_option("#trained-head", "5-11")
    page.wait_for_function("() => document.querySelector('#fig-008 [data-bind=\"trained-head\"]')"
                           ".textContent === 'layer 5, head 11'")
    assert shown(page)["trained"] == committed_row(0, "5-11", 2)
    page.wait_for_function("() => location.search.includes('trained=5-11')", timeout=60000)

    # another example sentence: new tokens, new rows
    text = COMMITTED["examples"][2]["text"]
    page.locator(f'#fig-008 .trained-examples button[data-sentence="{text}"]').click()
    page.wait_for_function(f"() => document.querySelector('#fig-008 [data-bind=\"sentence\"]')"
                           f".textContent === '{text}'", timeout=60000)
    page.wait_for_function("() => !document.querySelector('#fig-008 [data-bind=\"compare\"]')"
                           ".hasAttribute('aria-busy')")
    s = shown(page)
    q = bench_view.view(sentence=text)["query"]["index"]
    e = expected(2, "5-11", q, head="sink")
    assert (s["tokens"], s["trained"], s["handset"]) == (e["tokens"], e["trained"], e["handset"])


def test_typed_sentence_says_rows_are_for_the_examples_only(booted, viewport_width):
    page = booted.open("bench/", width=viewport_width)
    page.wait_for_selector(READY, timeout=60000)
    page.fill("#bench-sentence", "the car and the book she")
    page.locator('#fig-004 .bench-controls button[type="submit"]').click()
    page.wait_for_selector('#fig-008 [data-bind="missing"]:not([hidden])', timeout=60000)
    assert "precomputed for the example sentences only" in page.locator(
        '#fig-008 [data-bind="missing"]').text_content()
    assert page.locator('#fig-008 [data-bind="compare"]').is_hidden()


def test_a_shared_link_opens_the_picked_head(booted, viewport_width):
    page = booted.open("bench/?trained=4-5&query=2", width=viewport_width)
    page.wait_for_function("() => document.querySelector('#fig-008 [data-bind=\"trained-head\"]')"
                           ".textContent === 'layer 4, head 5'", timeout=60000)
    page.wait_for_function("() => !document.querySelector('#fig-008 [data-bind=\"compare\"]')"
                           ".hasAttribute('aria-busy')")
    assert shown(page)["trained"] == committed_row(0, "4-5", 3)
    assert page.locator("#trained-head").input_value() == "4-5"


def test_the_numbering_note_names_a_real_head_and_bench_controls_only_beside_the_bench(no_js, server):
    no_js.goto(server + "bench/")
    text = no_js.locator("#fig-008 .trained-differs").text_content()
    r = COMMITTED["search"]["results"]["coreference"]
    here, theirs = f"layer {r['layer']}, head {r['head']}", f"layer {r['layer'] + 1}, head {r['head'] + 1}"
    assert "BERT-base" in text and "count both from 1" in text
    assert f"{here} (its best coreference match) would be {theirs}" in text
    assert "8-10" not in text and "layer 7" not in text  # Clark's BERT-base head is not this model's
    assert "stopcocks" in text  # on the bench page the controls are right there
    no_js.goto(server + "embed/fig-008/")
    embedded = no_js.locator("#fig-008 .trained-differs").text_content()
    assert "BERT-base" in embedded and "stopcocks" not in embedded and "temperature 1." in embedded


def test_fig_008_opens_with_a_plain_summary_and_folds_the_models_detail(no_js, server):
    # Review 4's newcomer was lost at FIG-008: "encoder", "[CLS]", "BERT-base" and layer numbering
    # came first. The figure now opens with what it shows in plain words; the detail is folded.
    no_js.goto(server + "bench/")
    plain = no_js.locator("#fig-008 .trained-plain")
    assert plain.is_visible()
    assert not re.search(r"encoder|CLS|SEP|BERT|layer", plain.text_content())
    detail = no_js.locator("#fig-008 .trained-differs")
    assert not detail.is_visible()
    no_js.locator("#fig-008 .trained-about summary").click()
    assert detail.is_visible() and "[CLS]" in detail.text_content()


@pytest.mark.parametrize("width", [1280, 360])
def test_fig_008_is_all_sans_spaced_and_its_tables_line_up_with_its_text(booted, width):
    page = booted.open("bench/", width=width)
    page.wait_for_selector("#fig-008 .trained-controls:not([hidden])", timeout=60000)
    seen = page.evaluate("""() => {
      const f = document.querySelector('#fig-008'), font = (s) => getComputedStyle(f.querySelector(s)).fontFamily;
      const box = (s) => f.querySelector(s).getBoundingClientRect();
      return {title: font('.fig-title'), label: font('.trained-controls label'), select: font('#trained-head'),
              gap: box('.trained-download').top - box('.trained-search').bottom,
              text: box('.trained-plain').left - f.getBoundingClientRect().left,
              caption: box('.trained-rows caption').left - f.getBoundingClientRect().left};
    }""")
    assert seen["label"] == seen["title"] and seen["select"] == seen["title"]  # the figure's sans
    assert seen["gap"] >= 8  # "How the heads were matched" does not run into the JSON link
    assert abs(seen["caption"] - seen["text"]) <= 1  # the table's caption lines up with the text


def test_a_slow_example_hides_the_old_rows_and_says_it_is_loading(routed_page):
    """Until another example's rows arrive, the rows on screen belong to the old sentence: after
    a moment they are hidden (not dimmed, which would fail contrast) and a line says so. (The
    rows are held back by page.route, which a service worker's answer would bypass.)"""
    page = routed_page.page
    held = []
    page.route("**/trained/2*.json", lambda route: held.append(route))  # held until released
    page.goto(routed_page.base + "bench/")
    page.wait_for_selector(READY, timeout=60000)
    text = COMMITTED["examples"][2]["text"]
    page.locator(f'#fig-008 .trained-examples button[data-sentence="{text}"]').click()
    page.wait_for_selector('#fig-008 [data-bind="compare"].is-loading', timeout=60000)
    assert page.locator('#fig-008 [data-bind="compare"]').get_attribute("aria-busy") == "true"
    assert page.evaluate("""() => getComputedStyle(document.querySelector(
        '#fig-008 [data-bind="compare"] table')).visibility""") == "hidden"
    for part in ('[data-bind="matrix-box"]', ".trained-download"):  # the old matrix and its link too
        assert page.evaluate(f"""() => getComputedStyle(document.querySelector(
            '#fig-008 {part}')).visibility""") == "hidden", part
    assert "Loading the trained model" in page.evaluate("""() => getComputedStyle(document.querySelector(
        '#fig-008 [data-bind="compare"]'), '::before').content""")
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_function("() => !document.querySelector('#fig-008 [data-bind=\"compare\"]')"
                           ".hasAttribute('aria-busy')", timeout=60000)
    assert "is-loading" not in page.locator('#fig-008 [data-bind="compare"]').get_attribute("class")
    s = shown(page)
    assert s["tokens"] == ["[CLS]", *COMMITTED["examples"][2]["words"], "[SEP]"]
