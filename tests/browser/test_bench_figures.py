"""The bench's figures (FIG-004 to FIG-007) as a reader meets them: needles and dials, the
lexicon, the matrix's marks, contrast, forty words, phones, screen readers, the T box, and the
one markup source of static and cloned parts; each checked in real Chromium against numbers
derived from the core, not from the page."""

from __future__ import annotations

import re
from urllib.parse import quote

import numpy as np
import pytest

from attention import bench, bench_drawing, bench_view
from attention.bench_drawing import names
from tests.browser.conftest import settle, watch
from tests.browser.test_bench_page import DRAWN

READY = '#fig-004 .runtime-status[data-state="ready"]'
FORTY = " ".join(["the", "pilot", "saw", "it", "and", "she", "left", "the", "car"] * 4 + ["the"] * 4)
FIGURES = ("#fig-004", "#fig-005", "#fig-006")


def open_page(browser, server, path="bench/", width=1280, scheme="light", js=True, live=True):
    """Open a bench page in a fresh context; wait for Python when `live`."""
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme,
                                  java_script_enabled=js)
    w = watch(context, server)
    w.page.goto(server + path)
    if js and live:
        w.page.wait_for_selector(READY, timeout=60000)
    return context, w


@pytest.fixture
def live(booted):
    """The bench, live, on the worker's shared page (its Python already booted)."""
    page = booted.open("bench/")
    page.wait_for_selector(READY, timeout=60000)
    return page


def use_sentence(page, sentence: str, query: int | None = None):
    """Type a sentence (and pick a query row) and wait until every part shows it."""
    page.fill("#bench-sentence", sentence)
    page.press("#bench-sentence", "Enter")
    n = len(sentence.split())
    named = " ".join(names(sentence.split()))  # a repeated word with its position
    page.wait_for_function(f"""() => [...document.querySelectorAll('#fig-004 .dial-word')].map(t => t.textContent)
        .join(' ') === {named!r} && document.querySelectorAll('#fig-006 tbody tr').length === {n}""")
    if query is not None:
        page.click(f'#fig-005 tr[data-index="{query}"] button')
        word = names(sentence.split())[query]
        page.wait_for_function(f"""() => document.querySelector('#fig-004 [data-bind="carriage-word"]')
            .textContent === '{word}' && document.querySelector('#fig-004 .dial.is-query')?.dataset.index === '{query}'""")


def needles(page) -> list[dict]:
    return page.evaluate("""() => [...document.querySelectorAll('#fig-004 .dial')].map(g => {
      const n = g.querySelector('.needle');
      const s = getComputedStyle(n);
      return {angle: Number(n.getAttribute('transform').match(/rotate\\((.*)\\)/)[1]),
              shown: s.visibility !== 'hidden' && s.display !== 'none',
              width: parseFloat(s.strokeWidth),
              reading: g.querySelector('.dial-reading')?.textContent ?? null,
              label: g.getAttribute('aria-label')};
    })""")


# --- C1, C2: the dials ------------------------------------------------------------------

CASES = [("the farmer saw the doctor and he left", "coreference", 6),
         ("the engineer fixed the bridge before she left", "coreference", 6),
         ("the pilot read the map then it moved", "previous-token", 5),
         ("a nurse and a chef cleaned the car", "verb-lookup", 7),
         ("the teacher wrote the letter and she left", "sink", 6)]


def test_the_winner_needle_is_upright_and_the_most_visible(live):
    for sentence, head, i in CASES:
        live.check(f'input[name="head"][value="{head}"]')
        use_sentence(live, sentence, i)
        words = sentence.split()
        scores = bench.trace(words, head).scores[i, : i + 1]  # the keys word i may use
        best = int(np.argmax(scores))
        shown = needles(live)
        visible = [k for k, n in enumerate(shown) if n["shown"]]
        assert visible == list(range(i + 1))  # later words are masked: no needle
        assert shown[best]["angle"] == 0  # upright
        for k in visible:
            if k != best and scores[best] - scores[k] > 1e-9:
                assert shown[k]["angle"] < 0 and abs(shown[k]["angle"]) > abs(shown[best]["angle"])
                assert shown[k]["width"] < shown[best]["width"]  # and the boldest needle


def test_dials_read_the_raw_dot_product_the_table_shows(live):
    live.click('#fig-005 tr[data-index="4"] button')
    live.wait_for_function("() => document.querySelector('#fig-004 .dial.is-query')?.dataset.index === '4'")
    live.wait_for_function(DRAWN)
    table = live.eval_on_selector_all("#fig-005 tbody tr", "trs => trs.map(tr => tr.cells[3].textContent)")
    dials = needles(live)
    words = list(bench.DEFAULT_SENTENCE)
    scores = bench.trace(words, "coreference").scores[4]
    for j, (dial, cell) in enumerate(zip(dials, table)):
        assert dial["reading"] == cell == f"{scores[j]:.3f}".replace("-", "−")
        assert cell in dial["label"] and words[j] in dial["label"]
    # A needle stands for the score after the plate (z = q·k ÷ √8 ÷ T, the ÷ T column) against
    # the best: T moves the needles, never the numbers under them.
    live.fill("#bench-t", "2")
    live.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"plate\"]').textContent.includes('2')")
    z = bench.trace(words, "coreference", 2.0).tempered[4, :5]
    after = needles(live)
    assert [d["angle"] for d in after[:5]] == pytest.approx(
        [-90 * min((z.max() - x) / bench_drawing.DIAL_SPAN, 1) for x in z], abs=0.01)
    assert [d["reading"] for d in after] == [d["reading"] for d in dials]
    # Drawing order, captions and the table's columns agree: dials, then plate, then stopcocks.
    ys = live.evaluate("""() => ['.dials', '.plate', '.valves', '.tray'].map(s =>
        document.querySelector('#fig-004 ' + s).getBoundingClientRect().top)""")
    assert ys == sorted(ys)
    heads = live.eval_on_selector_all("#fig-005 thead th", "ths => ths.map(th => th.textContent)")
    assert heads[3:7] == ["q·k", "÷ √8", "÷ T", "ez − max"]  # says what the column is
    caption = live.inner_text("#fig-004 .bench-captions li:nth-child(2)")
    assert "q·k" in caption and "needle on each dial belongs to the next step" in caption
    plate = live.inner_text("#fig-004 .bench-captions li:nth-child(3)")  # the needles show z
    assert "The needles show z" in plate


# --- C5: the lexicon --------------------------------------------------------------------

def test_the_lexicon_is_listed_by_class_and_explains_load_and_rises(browser, server):
    context, w = open_page(browser, server, js=False)
    groups = w.page.eval_on_selector_all("#fig-004 .bench-lexicon dd", "dds => dds.map(d => d.textContent)")
    by_class = [sorted(w for w, e in bench.LEXICON.items() if e.word_class == c) for c in bench.CLASSES]
    assert [g.split(", ") for g in groups] == by_class
    assert sum(len(g.split(", ")) for g in groups) == len(bench.LEXICON)
    note = w.page.text_content("#fig-004 .bench-lexicon p")
    assert "“load”" in note.lower() or "load" in note.lower()
    assert "rises" in note and "grid" in note
    context.close()


def test_a_changed_sentence_says_how_it_was_read(live):
    live.fill("#bench-sentence", "The Engineer fixed the bridge, before she left!")
    live.press("#bench-sentence", "Enter")
    live.wait_for_function("() => document.querySelector('#bench-sentence-note').textContent !== ''")
    assert live.inner_text("#bench-sentence-note") == (
        "Read as “the engineer fixed the bridge before she left”: lower-cased, punctuation dropped.")


# --- C7: "Show on the bench" -------------------------------------------------------------

def test_show_on_the_bench_brings_the_bench_into_view(live):
    live.click('#fig-007 .use-head[data-head="sink"]')
    live.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"head\"]').textContent === 'sink'")
    live.wait_for_function("""() => { const r = document.querySelector('#fig-004').getBoundingClientRect();
        return r.top < innerHeight && r.bottom > 0; }""")
    assert live.evaluate("document.querySelector('#fig-004').contains(document.activeElement)")


# --- C11, C13, C14: words ----------------------------------------------------------------

def test_column_and_caption_words_are_true(browser, server):
    for scheme in ("light", "dark"):
        context, w = open_page(browser, server, scheme=scheme, js=False)
        page = w.page
        header = page.text_content("#fig-005 thead th:nth-child(3)")
        assert not header.startswith("Key") and "Terms" in header  # it holds the terms q_c k_c
        assert page.get_attribute("#fig-005 tbody tr .strip", "aria-label").startswith("terms ")
        caption = page.text_content("#fig-006-caption")
        assert "darker" not in caption and "stronger fill" in caption
        # The claim holds in both schemes: a heavy cell stands further from the page than a light one.
        distance = page.evaluate("""() => {
          const rgb = (e) => getComputedStyle(e).backgroundColor.match(/[\\d.]+/g).slice(0, 3).map(Number);
          const bg = rgb(document.body);
          const d = (e) => Math.hypot(...rgb(e).map((c, k) => c - bg[k]));
          return [d(document.querySelector('#fig-006 td.l0, #fig-006 td.l1')), d(document.querySelector('#fig-006 td.l10, #fig-006 td.l8'))];
        }""")
        assert distance[1] > distance[0] + 100
        context.close()


def test_head_cards_write_minus_signs_subscripts_and_say_what_a_claim_is(browser, server):
    context, w = open_page(browser, server, js=False)
    page = w.page
    why = " ".join(page.eval_on_selector_all("#fig-007 .why", "ps => ps.map(p => p.textContent)"))
    assert why and not re.search(r"(^|[\s(])-\d", why)  # a minus sign, not a hyphen
    assert "W_K" not in why and "W_Q" not in why and " x " not in why
    assert page.locator("#fig-007 .why sub").count() > 0
    for source in page.eval_on_selector_all("#fig-007 .head-source", "ps => ps.map(p => p.textContent)"):
        words = re.sub(r"CL-\d+", "", source)
        assert len(words.split()) >= 8  # the link's context says what the claim is
    assert page.locator('#fig-007 a[href$="#how-the-bench-is-built"]').count() == len(bench.HEADS)
    context.close()


# --- C12: two hatchings, and a row with nothing to pour ----------------------------------

def test_the_matrix_tells_shut_keys_from_the_causal_mask(booted):
    page = booted.open("bench/?head=sink&shut=0&query=3")
    page.wait_for_selector(READY, timeout=60000)
    page.wait_for_function("() => document.querySelector('#fig-006 td.shut') !== null")
    cells = page.evaluate("""() => [...document.querySelectorAll('#fig-006 tbody tr')].map(tr =>
        [...tr.querySelectorAll('td')].map(td => td.classList.contains('future') ? 'f'
          : td.classList.contains('shut') ? 's' : 'a').join(''))""")
    assert cells == list(bench_view.view(head="sink", shut=[0], query=3)["masks"])
    assert cells[0] == "s" + "f" * 7
    looks = page.evaluate("""() => ['td.future', 'td.shut'].map(s =>
        getComputedStyle(document.querySelector('#fig-006 ' + s)).backgroundImage)""")
    assert looks[0] != looks[1] and all(x != "none" for x in looks)
    assert page.text_content('#fig-006 tbody tr[data-index="0"] th') == "the₀ (every key shut)"  # "the" is said twice
    caption = page.text_content("#fig-006-caption")
    assert "causal mask" in caption and "shut stopcock" in caption and "nothing to pour" in caption
    # The reader who picks that row is told why, and no weight is shown for it.
    page.click('#fig-006 tbody tr[data-index="0"] td')
    page.wait_for_function("() => document.querySelector('#bench-shut-msg').textContent !== ''")
    assert "nothing to pour" in page.text_content("#bench-shut-msg")
    assert page.text_content('#fig-006 tbody tr[data-index="0"] td') == "shut"


# --- C19, U3: colours --------------------------------------------------------------------

CONTRAST = """() => {
  const lin = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const lum = (s) => { const [r, g, b] = s.match(/[\\d.]+/g).map(Number); return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const bg = getComputedStyle(document.querySelector('#fig-004 .bench-drawing')).backgroundColor;
  const out = {};
  document.querySelectorAll('#fig-004 .dial:not(.dead):not(.shut) .dial-face').forEach((e, k) => { out['dial ' + k] = ratio(getComputedStyle(e).stroke, bg); });
  document.querySelectorAll('#fig-004 .stratum .fill').forEach((e, k) => { out['stratum ' + k] = ratio(getComputedStyle(e).fill, bg); });
  out.rail = ratio(getComputedStyle(document.querySelector('#fig-004 .rail')).stroke, bg);
  out.pipe = ratio(getComputedStyle(document.querySelector('#fig-004 .pipe')).stroke, bg);
  out.plate = ratio(getComputedStyle(document.querySelector('#fig-004 .plate rect')).stroke, bg);
  out['shut stopcock'] = ratio(getComputedStyle(document.querySelector('#fig-004 .valve.dead .body')).fill, bg);
  out.needle = ratio(getComputedStyle(document.querySelector('#fig-004 .needle')).stroke, bg);
  return out;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_graphics_keep_three_to_one_contrast(browser, server, scheme):
    context, w = open_page(browser, server, scheme=scheme, js=False)
    ratios = w.page.evaluate(CONTRAST)
    assert len([k for k in ratios if k.startswith("dial")]) == 7  # every open dial, yellow included
    low = {k: round(v, 2) for k, v in ratios.items() if v < 3}
    assert low == {}
    context.close()


def test_forty_words_each_look_different(live):
    use_sentence(live, FORTY)
    looks = live.evaluate("""() => [...document.querySelectorAll('#fig-004 .stratum')].map(g =>
        getComputedStyle(g.querySelector('.fill')).fill + ' ' + g.querySelector('.tex').getAttribute('fill'))""")
    assert len(looks) == 40 and len(set(looks)) == 40
    swatches = live.evaluate("""() => [...document.querySelectorAll('#fig-005 tbody .swatch')].map(s =>
        getComputedStyle(s).backgroundColor + ' ' + getComputedStyle(s).backgroundImage)""")
    assert len(set(swatches)) == 40


# --- U1, U2, U4, B5, U11: sizes and layout -----------------------------------------------

def test_a_mouse_click_on_a_stopcock_leaves_no_large_focus_ring(live):
    live.click('#fig-004 .valve[data-index="2"] .hit')
    live.wait_for_function("() => document.querySelector('#fig-004 .valve[data-index=\"2\"]').classList.contains('shut')")
    ring = live.evaluate("""() => { const g = document.querySelector('#fig-004 .valve[data-index="2"]');
        return [document.activeElement === g, getComputedStyle(g).outlineStyle,
                getComputedStyle(g.querySelector('.focus-ring')).stroke]; }""")
    assert ring[0] and ring[1] == "none" and ring[2] == "none"
    live.keyboard.press("Tab")  # keyboard focus: a ring sized to the stopcock
    live.keyboard.press("Shift+Tab")
    box = live.evaluate("""() => { const g = document.activeElement;
        const ring = g.querySelector('.focus-ring');
        return [g.dataset.index, getComputedStyle(ring).stroke, ring.getBoundingClientRect().height,
                g.querySelector('.hit').getBoundingClientRect().height]; }""")
    assert box[0] == "2" and box[1] != "none" and box[2] <= box[3]


def test_the_drawing_is_legible_and_operable_at_360_px(browser, server):
    context, w = open_page(browser, server, width=360, js=True, live=False)
    page = w.page
    sizes = page.evaluate("""() => { const svg = document.querySelector('#fig-004 .bench-drawing');
        const scale = svg.getScreenCTM().a;
        return [...svg.querySelectorAll('text')].filter(t => getComputedStyle(t).display !== 'none'
          && t.closest('[class]') && getComputedStyle(t.closest('g') || t).display !== 'none')
          .map(t => [t.textContent, parseFloat(getComputedStyle(t).fontSize) * scale]); }""")
    small = [(text, round(px, 1)) for text, px in sizes if px < 12]
    assert sizes and small == []
    labels = page.evaluate("""() => [...document.querySelectorAll('#fig-004 .dial')].map(g =>
        [...g.querySelectorAll('text')].every(t => getComputedStyle(t).display !== 'none'))""")
    assert labels == [True] * 8  # every dial keeps its word and its reading
    targets = page.evaluate("""() => [...document.querySelectorAll('#fig-004 .valve:not(.dead) .hit')].map(r => {
        const b = r.getBoundingClientRect(); return [b.width, b.height]; })""")
    assert len(targets) == 7 and all(wd >= 24 and ht >= 24 for wd, ht in targets)
    assert no_overlap(page, 8)
    context.close()
    w.assert_clean()


def no_overlap(page, n) -> bool:
    """True when no two dials' faces, words or readings overlap on screen: the words' and
    readings' glyphs (DIAL_INK), not their line boxes, whose room below digits is empty."""
    dials = page.evaluate(DIAL_INK)["dials"]
    assert len(dials) == n
    flat = [(k, box) for k, d in enumerate(dials) for box in (d["face"], d["word"], d["reading"])]
    for a in range(len(flat)):
        for b in range(a + 1, len(flat)):
            (ka, x), (kb, y) = flat[a], flat[b]
            if ka != kb and x[0] < y[2] - 0.5 and y[0] < x[2] - 0.5 and x[1] < y[3] - 0.5 and y[1] < x[3] - 0.5:
                return False
    return True


# Where each dial's ink is on screen (CSS px, [left, top, right, bottom]): its face; the lowest
# of its hub and needle; the glyphs of its word and reading, from the baseline the page sets
# and the font's own glyph extents (a canvas measures the same string in the same font). Line
# boxes would not do: a phone's dropped row is set closer than two of them, around digits that
# have nothing below the baseline.
DIAL_INK = """() => {
  const ctx = document.createElement('canvas').getContext('2d');
  const rect = (e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const glyphs = (t) => {
    const cs = getComputedStyle(t);
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const m = ctx.measureText(t.textContent);
    const ctm = t.getScreenCTM(), base = t.getStartPositionOfChar(0).matrixTransform(ctm);
    const [left, , right] = rect(t);
    return [left, base.y - m.actualBoundingBoxAscent * ctm.d, right, base.y + m.actualBoundingBoxDescent * ctm.d];
  };
  return {plate: document.querySelector('#fig-004 .plate rect').getBoundingClientRect().top,
          dials: [...document.querySelectorAll('#fig-004 .dial')].map(g => ({
    face: rect(g.querySelector('.dial-face')),
    hub: Math.max(rect(g.querySelector('.hub'))[3], rect(g.querySelector('.needle'))[3],
      ...[...document.querySelectorAll(`#fig-004 .ghost[data-index="${g.dataset.index}"] .ghost-tip`)]
        .map((tip) => rect(tip)[3] + parseFloat(getComputedStyle(tip).strokeWidth) / 2 * tip.getScreenCTM().d)),
    word: glyphs(g.querySelector('.dial-word')), reading: glyphs(g.querySelector('.dial-reading')) }))};
}"""


@pytest.mark.parametrize("width", [1280, 360])
def test_forty_words_keep_every_dial_readable(booted, width):
    page = booted.open("bench/?sentence=" + quote(FORTY), width=width)
    page.wait_for_selector(READY, timeout=60000)
    page.wait_for_function("() => document.querySelectorAll('#fig-004 .dial').length === 40")
    assert no_overlap(page, 40)
    scale = page.evaluate("document.querySelector('#fig-004 .bench-drawing').getScreenCTM().a")
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#fig-004 .dial-word')).fontSize)")
    assert size * scale >= 12


DIAL_BOXES = """() => [...document.querySelectorAll('#fig-004 .dial')].map(g => Object.fromEntries(
  ['.hub', '.dial-face', '.dial-word', '.dial-reading'].map(s => {
    const b = g.querySelector(s).getBoundingClientRect();
    return [s.slice(1), [b.left, b.top, b.right, b.bottom]]; })))"""


@pytest.mark.parametrize("sentence", [None, FORTY])
def test_at_360_px_each_dials_word_and_reading_sit_right_under_it(booted, sentence):
    """Two dials' labels at a phone's text size are wider than the dials' pitch, so they take
    two lines. Each word and reading must still hang right under its own dial: centred on its
    hub, starting just below it, with nothing of another dial's between them."""
    page = booted.open("bench/" + ("" if sentence is None else "?sentence=" + quote(sentence)), width=360)
    page.wait_for_selector(READY, timeout=60000)
    n = 8 if sentence is None else 40
    page.wait_for_function(f"() => document.querySelectorAll('#fig-004 .dial').length === {n}")
    dials = page.evaluate(DIAL_BOXES)
    assert no_overlap(page, n)
    for k, d in enumerate(dials):
        hub_x, hub_y = (d["hub"][0] + d["hub"][2]) / 2, (d["hub"][1] + d["hub"][3]) / 2
        word, reading = d["dial-word"], d["dial-reading"]
        for box in (word, reading):
            assert abs((box[0] + box[2]) / 2 - hub_x) < 1, k  # centred under its own hub
        assert word[1] - hub_y <= 4 and word[3] <= reading[3], k  # right under it, then the reading
        between = [j for j, other in enumerate(dials) if j != k for box in other.values()
                   if box[0] < word[2] and word[0] < box[2] and box[3] > hub_y + 2 and box[1] < word[1]]
        assert between == [], (k, between)  # nothing of another dial's between it and its word


@pytest.mark.parametrize("path", ["bench/", "bench/?without=scale"])
def test_at_360_px_a_dials_word_and_reading_clear_its_needle_each_other_and_the_plate(booted, path):
    """On a phone the labels are set large and every other dial drops a line: the glyphs must
    still stand clear, the word of its own dial's hub and needle (lying flat for a far key),
    and of the what-if's dashed needle's tip; the reading of its word; and the dropped row's
    readings of the plate below them."""
    page = booted.open(path, width=360)
    page.wait_for_selector(READY, timeout=60000)
    ink = page.evaluate(DIAL_INK)
    assert len(ink["dials"]) == 8
    for k, d in enumerate(ink["dials"]):
        assert d["word"][1] - d["hub"] >= 1, (k, d)  # CSS px between needle or hub and the word
        assert d["reading"][1] - d["word"][3] >= 1, (k, d)  # between the word and its reading
    assert ink["plate"] - max(d["reading"][3] for d in ink["dials"]) >= 4, ink


def stratum_labels(page) -> list[dict]:
    """The tray's labels the page shows, with their boxes and size on screen."""
    return page.evaluate("""() => { const svg = document.querySelector('#fig-004 .bench-drawing');
      const scale = svg.getScreenCTM().a, frame = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('.strata-labels text')].filter(t => getComputedStyle(t).display !== 'none'
          && getComputedStyle(t.parentElement).display !== 'none').map(t => { const b = t.getBoundingClientRect();
        return {text: t.textContent, box: [b.left, b.top, b.right, b.bottom],
                inside: b.left >= frame.left && b.right <= frame.right && b.top >= frame.top && b.bottom <= frame.bottom,
                px: parseFloat(getComputedStyle(t).fontSize) * scale}; }); }""")


SIXTEEN = "a nurse and a chef cleaned the car then she left the map and it moved"
CROWDS = [{}, {"temperature": "100"},  # the default; seven layers from 0.079 to 0.288
          {"sentence": SIXTEEN, "head": "sink", "temperature": "100", "query": 15}]  # sixteen layers


@pytest.mark.parametrize("width", [1280, 360])
@pytest.mark.parametrize("state", CROWDS, ids=["default", "seven", "sixteen"])
def test_every_layer_with_a_visible_share_is_labelled_at_every_width(booted, width, state):
    """A layer taking 0.05 of the unit or more shows its word and weight at every width (the
    default's "she 0.165" too, on a phone), and no two labels overlap or leave the drawing."""
    url = {"sentence": "sentence", "head": "head", "temperature": "t", "query": "query"}
    query = "&".join(f"{url[k]}={quote(str(v))}" for k, v in state.items())
    page = booted.open("bench/" + ("?" + query if query else ""), width=width)
    page.wait_for_selector(READY, timeout=60000)
    expected = bench_view.view(**state)
    want = sorted(s["text"] for s, r in zip(expected["drawing"]["strata"], expected["rows"])
                  if r["weight"]["value"] >= 0.05)
    layers = [s["text"] for s in expected["drawing"]["strata"]]
    page.wait_for_function(f"""() => [...document.querySelectorAll('#fig-004 .stratum')]
        .map(g => g.getAttribute('aria-label')).join('|') === {"|".join(layers)!r}""")
    labels = stratum_labels(page)
    assert sorted(label["text"] for label in labels) == want
    if not state:
        assert "she 0.165" in want
    assert all(label["inside"] and label["px"] >= 12 for label in labels), labels
    boxes = [label["box"] for label in labels]
    for a in range(len(boxes)):
        for b in range(a + 1, len(boxes)):
            x, y = boxes[a], boxes[b]
            assert not (x[0] < y[2] - 0.5 and y[0] < x[2] - 0.5 and x[1] < y[3] - 0.5 and y[1] < x[3] - 0.5), \
                (labels[a]["text"], labels[b]["text"])


OVERFLOW = """(sel) => { const fig = document.querySelector(sel); const box = fig.getBoundingClientRect();
  return [...fig.querySelectorAll('*')].filter(e => !e.closest('.table-wrap, template, svg defs')
      && e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .filter(e => { const b = e.getBoundingClientRect(); return b.right > box.right + 0.5 || b.left < box.left - 0.5; })
    .map(e => e.tagName + '.' + e.getAttribute('class')); }"""


def test_at_360_px_nothing_leaves_a_bench_figure_and_results_stay_in_view(browser, server):
    context, w = open_page(browser, server, width=360, js=True, live=False)
    page = w.page
    for fig in FIGURES:
        assert page.evaluate(OVERFLOW, fig) == [], fig
        wraps = page.evaluate(f"""() => [...document.querySelectorAll('{fig} .table-wrap[role=region]')].map(w => {{
            const f = document.querySelector('{fig}').getBoundingClientRect();
            const b = w.getBoundingClientRect();
            const cue = w.parentElement.querySelector(':scope > .scroll-cue');
            return [b.right <= f.right + 0.5, w.scrollWidth > w.clientWidth,
                    cue ? getComputedStyle(cue).display : 'none', !!w.querySelector('caption')]; }})""")
        assert wraps, fig  # every bench figure has at least one table
        for fits, scrolls, cue, caption_inside in wraps:
            assert fits and not caption_inside, fig
            assert not scrolls or cue != "none", fig  # a table that scrolls says so
    # The working table's results: every weight is fully on screen without scrolling.
    weights = page.evaluate("""() => [...document.querySelectorAll('#fig-005 tbody .weight .num')].map(e => {
        const b = e.getBoundingClientRect(); return b.right <= innerWidth && b.left >= 0; })""")
    assert weights == [True] * 8
    # The weight bars read as bars (0.165 of one is more than a sliver), and each word's chip
    # keeps clear of the sticky column's edge, which the scrolled numbers pass under.
    bars = page.evaluate("""() => [...document.querySelectorAll('#fig-005 tbody .bar')].map(b =>
        b.getBoundingClientRect().width)""")
    assert len(bars) == 8 and min(bars) >= 28
    gaps = page.evaluate("""() => [...document.querySelectorAll('#fig-005 tbody th')].map(th =>
        th.getBoundingClientRect().right - th.querySelector('.row-word, .row-choice').getBoundingClientRect().right)""")
    assert len(gaps) == 8 and min(gaps) >= 6
    # Headers do not break inside a symbol ("÷ √8", "e^z"); the sentence is shown whole.
    heads = page.evaluate("""() => [...document.querySelectorAll('#fig-005 thead th')].map(th =>
        getComputedStyle(th).whiteSpace)""")
    assert set(heads) == {"nowrap"}
    field = page.evaluate("""() => { const t = document.querySelector('#bench-sentence');
        return [t.scrollHeight <= t.clientHeight + 1, t.scrollWidth <= t.clientWidth + 1]; }""")
    assert field == [True, True]
    context.close()
    w.assert_clean()


# --- M1, M2: screen readers --------------------------------------------------------------

def ax_nodes(page) -> list[dict]:
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    cdp.detach()
    return nodes


def polite_text(nodes: list[dict]) -> list[str]:
    """The text inside the polite live regions of an accessibility tree."""
    by_id = {n["nodeId"]: n for n in nodes}
    live_regions = [n for n in nodes if any(p["name"] == "live" and p["value"]["value"] == "polite"
                                            for p in n.get("properties", []))]
    spoken = []
    for region in live_regions:
        stack = list(region.get("childIds", []))
        while stack:
            child = by_id.get(stack.pop())
            if child:
                if child.get("role", {}).get("value") == "StaticText":
                    spoken.append(child["name"]["value"])
                stack += child.get("childIds", [])
    return spoken


def test_a_screen_reader_hears_the_new_row_and_reads_each_dial_and_stopcock(live):
    live.click('#fig-005 tr[data-index="4"] button')
    expected = bench_view.view(query=4)
    live.wait_for_function(f"""() => document.querySelector('#fig-004 [data-bind="announce"]').textContent
        === {expected['announce']!r}""")
    spoken = spoken_soon(live, expected["announce"])
    # the announcement names the head and T, then the row (the drawing's summary)
    assert expected["announce"] == "coreference head, T = 1: " + expected["summary"]
    assert expected["summary"].startswith("query bridge: ")
    assert expected["announce"] in spoken
    # A reader exploring the dials is at the drawing: off screen it is not rendered
    # (content-visibility), and Chromium's tree then leaves its parts out.
    live.locator("#fig-004 .bench-drawing").scroll_into_view_if_needed()
    settle(live)  # and drawn there
    nodes = ax_nodes(live)
    names = {(n.get("role", {}).get("value"), n.get("name", {}).get("value")): n for n in nodes}
    for dial in expected["drawing"]["dials"]:
        assert ("image", dial["label"]) in names  # each dial's reading is exposed
    for v in expected["drawing"]["valves"]:
        if v["can_turn"]:
            node = names[("switch", v["label"])]
            checked = {p["name"]: p["value"]["value"] for p in node["properties"]}["checked"]
            assert checked == ("true" if v["open"] else "false")
        else:
            assert ("image", f"{v['label']}: {v['state']}") in names


def spoken_soon(page, text: str) -> list[str]:
    """The polite live regions' text once it holds `text`, read for at most 10 s (Chromium
    updates its accessibility tree a moment after the DOM)."""
    for _ in range(50):
        spoken = polite_text(ax_nodes(page))
        if text in spoken:
            break
        page.wait_for_timeout(200)
    return spoken


def test_a_query_chosen_in_the_matrix_is_heard_while_the_drawing_is_far_off_screen(live):
    # The drawing is not rendered off screen (content-visibility); its figure's live region is.
    live.keyboard.press("Escape")  # nothing focused in the controls
    cell = live.locator('#fig-006 tbody tr[data-index="4"] td[data-col]').first
    cell.scroll_into_view_if_needed()
    cell.focus()
    live.keyboard.press("Enter")
    expected = bench_view.view(query=4)["announce"]
    live.wait_for_function(f"""() => document.querySelector('#fig-004 [data-bind="announce"]').textContent
        === {expected!r}""")
    assert live.evaluate("document.querySelector('#fig-004').getBoundingClientRect().bottom") < -1000
    assert expected in spoken_soon(live, expected)


# --- B3's cause --------------------------------------------------------------------------

def test_open_stopcocks_are_drawn_open_by_attributes_not_css(booted):
    page = booted.open("bench/?shut=2")
    page.wait_for_selector(READY, timeout=60000)
    page.wait_for_function("() => document.querySelector('#fig-004 .valve[data-index=\"2\"]').classList.contains('shut')")
    handles = page.evaluate("""() => [...document.querySelectorAll('#fig-004 .valve')].map(g => {
        const h = g.querySelector('.handle');
        return [g.classList.contains('open'), h.getAttribute('x1') === h.getAttribute('x2'),
                getComputedStyle(h).transform]; })""")
    assert [h[0] for h in handles] == [True, True, False, True, True, True, True, False]
    assert all(upright == is_open and css == "none" for is_open, upright, css in handles)


# --- One markup source ------------------------------------------------------------------

PARTS = {"dial": "#fig-004 .dial", "valve": "#fig-004 .valve", "stratum": "#fig-004 .stratum",
         "label": "#fig-004 .stratum-label", "row": "#fig-005 tbody tr",
         "cell": "#fig-006 tbody td", "row head": "#fig-006 tbody th", "col head": "#fig-006 thead th"}
LIVE_ONLY = re.compile(r' (tabindex|role|aria-checked|aria-label)="[^"]*"')


def markup(page) -> dict:
    return {name: page.eval_on_selector_all(sel, "es => es.map(e => e.outerHTML)") for name, sel in PARTS.items()}


def test_static_and_cloned_parts_are_the_same_markup(browser, server, booted):
    context, w = open_page(browser, server, js=False)
    static = markup(w.page)
    context.close()
    page = booted.open("bench/")
    page.wait_for_selector(READY, timeout=60000)
    mounted = markup(page)
    use_sentence(page, "she")  # every part but the first is dropped ...
    use_sentence(page, " ".join(bench.DEFAULT_SENTENCE))  # ... and cloned back from the templates
    page.wait_for_function("() => document.querySelector('#fig-004 .dial.is-query')?.dataset.index === '6'")
    cloned = markup(page)
    assert cloned == mounted
    for name in PARTS:
        assert len(static[name]) == len(cloned[name]) > 0
        for a, b in zip(static[name], cloned[name]):
            b = b.replace('<button type="button" class="row-choice" aria-pressed="true">', '<span class="row-word">')
            b = b.replace('<button type="button" class="row-choice" aria-pressed="false">', '<span class="row-word">')
            b = b.replace("</button>", "</span>")
            assert LIVE_ONLY.sub("", a) == LIVE_ONLY.sub("", b), name
    # The page builds none of these parts itself: it clones the build's templates.
    templates = page.eval_on_selector_all("#fig-004 template, #fig-005 template, #fig-006 template",
                                          "ts => ts.map(t => t.dataset.part)")
    drawn = {"dial", "valve", "stratum", "stratum-label", "manifold", "row", "row-choice",
             "col-head", "matrix-row", "cell"}
    ghosts = {"ghost", "ghost-handle", "ghost-label", "ghost-stratum", "ghost-tray", "whatif-note"}
    assert sorted(templates) == sorted(drawn | ghosts)  # one template per part, each named


LAYOUT_READS = """() => {
  window.__reads = 0;
  const undo = [];
  const count = (proto, names) => names.forEach(n => {
    const d = Object.getOwnPropertyDescriptor(proto, n);
    undo.push(() => Object.defineProperty(proto, n, d));
    if (d.get) Object.defineProperty(proto, n, {get() { window.__reads++; return d.get.call(this); }});
    else proto[n] = function (...a) { window.__reads++; return d.value.apply(this, a); };
  });
  count(Element.prototype, ['getBoundingClientRect', 'getClientRects', 'clientWidth', 'clientHeight', 'scrollWidth', 'scrollHeight']);
  count(HTMLElement.prototype, ['offsetWidth', 'offsetHeight', 'offsetTop', 'offsetLeft', 'innerText']);
  const cs = window.getComputedStyle; window.getComputedStyle = (...a) => { window.__reads++; return cs(...a); };
  undo.push(() => { window.getComputedStyle = cs; });
  window.__unpatch = () => undo.forEach(f => f());
}"""


def test_a_redraw_reads_no_layout(live):
    live.evaluate(LAYOUT_READS)
    try:
        for j in (1, 4, 6):
            live.click(f'#fig-005 tr[data-index="{j}"] button')
            live.wait_for_function(f"() => document.querySelector('#fig-004 .dial.is-query')?.dataset.index === '{j}'")
        live.click('#fig-004 .valve[data-index="3"] .hit')
        live.wait_for_function("() => document.querySelector('#fig-004 .valve[data-index=\"3\"]').classList.contains('shut')")
        assert live.evaluate("window.__reads") == 0
    finally:
        live.evaluate("window.__unpatch()")  # the page is shared: its own methods back


# --- C8 on the bench: T's range, from lab.T_RANGE, shown and announced ------------------------

def test_the_bench_states_t_range_from_the_core_and_names_its_two_controls_apart(live):
    from pathlib import Path

    from attention import lab

    low, high = lab.T_RANGE
    source = (Path(__file__).parents[2] / "templates/figures/fig-004.html").read_text(encoding="utf-8")
    assert f"{low:g}" not in source and f"{high:g}" not in source  # one source of truth: lab.py
    said = f"from {low:g} to {high:g}"
    assert said in live.locator("#bench-t-hint").inner_text()
    controls = [n for n in ax_nodes(live) if n.get("role", {}).get("value") in ("slider", "textbox")
                and n.get("name", {}).get("value", "").startswith("Temperature")]
    assert sorted(n["role"]["value"] for n in controls) == ["slider", "textbox"]
    assert len({n["name"]["value"] for n in controls}) == 2  # told apart by name
    for n in controls:  # and each announces the range with it
        assert said in n.get("description", {}).get("value", ""), n


@pytest.mark.parametrize("typed, says", [
    ("abc", "is not a number"), ("0", "greater than 0"), ("-2", "greater than 0"),
    ("1000", "out of range"), ("0.001", "out of range")])
def test_a_temperature_outside_the_range_gets_a_clear_message(live, typed, says):
    from attention import lab

    live.fill("#bench-t", typed)
    live.wait_for_function("() => document.querySelector('#bench-t').getAttribute('aria-invalid') === 'true'")
    message = live.locator("#bench-t-msg").inner_text()
    assert says in message
    if says == "out of range":
        low, high = lab.T_RANGE
        assert f"between {low:g} and {high:g}" in message  # the same range the hint states
    live.fill("#bench-t", "2")  # a good value: the message goes, the plate divides by it
    live.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"plate\"]').textContent.endsWith('(2)')")
    assert live.locator("#bench-t-msg").inner_text() == ""
    assert live.get_attribute("#bench-t", "aria-invalid") is None


# --- a click right after "Use sentence", before its answer arrives ---------------------------

AFTER_SUBMIT = {  # the click, and the state it must make of the new sentence
    "head": ("document.querySelector('#fig-004 input[name=\"head\"][value=\"sink\"]').click()", {"head": "sink"}),
    "stopcock": ("document.querySelector('#fig-004 .valve[data-index=\"1\"]').dispatchEvent("
                 "new MouseEvent('click', {bubbles: true}))", {"shut": [1]}),
    "temperature": ("(() => { const t = document.querySelector('#bench-t'); t.value = '2';"
                    " t.dispatchEvent(new Event('input', {bubbles: true})); })()", {"temperature": "2"}),
    "what-if": ("document.querySelector('#fig-004 .whatif input[value=\"scale\"]').click()",
                {"without": ["scale"]}),
}


@pytest.mark.parametrize("action", list(AFTER_SUBMIT))
def test_a_click_right_after_use_sentence_is_made_on_the_new_sentence(live, action):
    sentence = "the farmer saw the doctor and he left"
    script, change = AFTER_SUBMIT[action]
    expected = bench_view.view(sentence=sentence, **change)["announce"]
    assert expected != bench_view.view(**change)["announce"]  # the old sentence would read otherwise
    live.fill("#bench-sentence", sentence)
    # In one task, so no answer can arrive between them.
    live.evaluate(f"() => {{ document.querySelector('#fig-004 .bench-controls').requestSubmit(); {script}; }}")
    live.wait_for_function(f"""() => document.querySelector('#fig-004 [data-bind="announce"]').textContent
        === {expected!r}""", timeout=30000)
    words = live.eval_on_selector_all("#fig-004 .dial-word", "els => els.map(e => e.textContent).join(' ')")
    assert words == " ".join(names(sentence.split()))
    live.wait_for_timeout(500)  # nothing later takes it back
    assert live.text_content('#fig-004 [data-bind="announce"]') == expected
