"""Embeds in real Chromium: across origins, from deep links, against tampering, and downloads."""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET
from urllib.parse import parse_qsl, quote

import pytest

from attention.protocol import registry as figure_registry
from sitebuild.embeds import COLUMN_PX, PHONE_PX, registry
from tests.browser.conftest import GUIDE_SCRIPT, serving, watch, within
from tests.browser.test_bench_page import expected_state, shown_state

READY = '.runtime-status[data-state="ready"]'
SVG = "{http://www.w3.org/2000/svg}"
def test_embeds_on_another_origin_compute_live_and_size_their_frames(browser, server, course_page):
    assert course_page.split(":")[2] != server.split(":")[2]
    context = browser.new_context(viewport={"width": 900, "height": 800})
    w = watch(context, course_page)
    w.page.goto(course_page)
    one = w.page.frame_locator("#one")
    one.locator(READY).wait_for(timeout=60000)
    assert one.locator('[data-bind="query"]').inner_text() == "grid"
    assert one.locator('#fig-002 [data-bind="output"]').inner_text() == "[0.802, 1.198]"
    two = w.page.frame_locator("#two")
    two.locator(READY).wait_for(timeout=60000)
    # the link's state (head=sink&query=3), which waited for Python, is drawn once it answers
    two.locator('[data-bind="carriage-word"]:text-is("the₃")').wait_for(timeout=30000)  # the second "the"
    heights = w.page.evaluate("""() => [...document.querySelectorAll('iframe')].map(f =>
        [f.style.height, f.contentDocument === null])""")
    for style_height, cross_origin in heights:
        assert cross_origin and style_height.endswith("px") and int(style_height[:-2]) > 300
    frame = w.page.frame(url=lambda u: "embed/fig-002" in u)
    content = frame.evaluate("Math.ceil(document.documentElement.getBoundingClientRect().height)")
    assert w.page.evaluate("document.getElementById('one').style.height") == f"{content}px"
    assert w.console_errors == [] and w.page_errors == []
    context.close()


def test_a_bench_deep_link_reopens_the_exact_state(booted, viewport_width):
    sentence = "the teacher read the letter and then she left it"
    page = booted.open(f"bench/?sentence={quote(sentence)}&head=coreference&query=7&t=0.5&shut=1",
                       width=viewport_width)
    page.wait_for_function("() => document.querySelector('#fig-004 [data-bind=\"plate\"]').textContent.includes('0.5')",
                           timeout=60000)
    assert shown_state(page) == expected_state(sentence=sentence, head="coreference", query=7,
                                               temperature="0.5", shut=[1])
    assert page.is_hidden("#fig-004 .state-notice")
    # The address keeps the state as the reader changes it.
    page.click('#fig-005 tr[data-index="2"]')
    page.wait_for_function("() => location.search.includes('query=2')")
    page.wait_for_function("() => ['head=coreference', 't=0.5', 'shut=1'].every(s => location.search.includes(s))")


TAMPERED = [
    ("t=abc", "t=abc"), ("t=-1", "t=-1"), ("head=%3Cscript%3Ewindow.__owned%3D1%3C%2Fscript%3E", "head=<script>"),
    ("sentence=%3Cimg%20src%3Dx%20onerror%3D%22window.__owned%3D1%22%3E", "sentence=<img src=x"),
    ("sentence=" + "a" * 10000, "sentence: longer than 500"),
]


# Each tampered address at 1280 px; at 360 px the longest notice (what a phone's layout could
# cut), not all five again: the words, the defaults and the escaping do not depend on the width,
# and each case boots Python in a fresh page of its own (a fifth of a minute of CI's two cores).
@pytest.mark.parametrize("viewport_width, params, name",
                         [(1280, *t) for t in TAMPERED] + [(360, *TAMPERED[-1])], indirect=["viewport_width"],
                         ids=[f"desktop-{t[1]}" for t in TAMPERED] + [f"phone-{TAMPERED[-1][1]}"])
def test_tampered_parameters_show_a_notice_and_keep_the_defaults(site_page, params, name):
    page = site_page.page
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(site_page.base + "embed/fig-004/?" + params)
    notice = page.locator("#fig-004 .state-notice")
    notice.wait_for(state="visible", timeout=60000)
    assert name in notice.inner_text()
    drawing = ("needles", "dials", "strata", "query", "summary")  # this embed is the drawing alone
    shown, expected = shown_state(page), expected_state()
    assert {k: shown[k] for k in drawing} == {k: expected[k] for k in drawing}
    assert page.evaluate("window.__owned") is None and dialogs == []
    assert page.locator("#fig-004 img, #fig-004 script").count() == 0


def test_downloads_equal_the_core_numbers(booted, viewport_width):
    page = booted.open("lab/?q=0.5,-1&mask=1,0,1&t=0.7", width=viewport_width)
    page.wait_for_function("() => document.querySelector('#lab-q1').value === '0.5'", timeout=60000)
    page.click("#fig-003 .share summary")
    expected = figure_registry.export("lab", {"query": ["0.5", "-1"], "mask": [True, False, True],
                                            "temperature": "0.7"})
    with page.expect_download() as info:
        page.click("#fig-003 .share button:has-text('Numbers as CSV')")
    rows = list(csv.reader(info.value.path().read_text(encoding="utf-8").splitlines()))
    assert rows[0] == expected["columns"]
    def cell(x):  # a CSV cell as the export's JSON has it (each row also carries q, T, output)
        if x in ("", "True", "False"):
            return None if x == "" else x == "True"
        try:
            return float(x)
        except ValueError:
            return x
    assert [[cell(x) for x in r] for r in rows[1:]] == expected["rows"]
    # the blocked key's "minus the largest" is minus infinity: no number
    assert rows[2][expected["columns"].index("shifted")] == ""
    with page.expect_download() as info:
        page.click("#fig-003 .share button:has-text('Numbers as JSON')")
    assert json.loads(info.value.path().read_text(encoding="utf-8")) == json.loads(json.dumps(expected))


def download_svg(page, figure: str, drawing: str, path):
    """Download a figure's drawing; return the parsed SVG and the width it has on the page."""
    page.click(f"{figure} .share summary")
    with page.expect_download() as info:
        page.click(f"{figure} .share button:has-text('Drawing as SVG')")
    info.value.save_as(path)
    drawn = page.evaluate(f"() => document.querySelector('{figure} {drawing}').getBoundingClientRect().width")
    return ET.parse(path).getroot(), round(drawn)


def test_drawing_downloads_as_a_standalone_svg(booted, viewport_width, browser, tmp_path):
    page = booted.open("bench/", width=viewport_width)
    path = tmp_path / "bench.svg"
    root, drawn = download_svg(page, "#fig-004", ".bench-drawing", path)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    # the drawing's box, and under it a band for Python's caption: 20 a line and 10 to spare
    lines = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("data-role") == "caption"]
    assert lines and root.get("viewBox") == f"0 0 800 {600 + 20 * len(lines) + 10}"
    assert int(root.get("width")) == drawn
    assert "class" not in root.attrib and root.find(".//{http://www.w3.org/2000/svg}rect") is not None
    viewer = browser.new_page()
    errors = []
    viewer.on("console", lambda m: m.type == "error" and errors.append(m.text))
    viewer.goto(path.as_uri())
    assert viewer.evaluate("document.documentElement.namespaceURI") == "http://www.w3.org/2000/svg"
    assert viewer.evaluate("document.documentElement.getBBox().width") > 100 and errors == []
    viewer.close()


def test_share_gives_the_deep_link_and_the_embed_code(booted, viewport_width):
    site_page = booted
    page = booted.open("mixture/?query=load", width=viewport_width)
    page.wait_for_function("() => document.querySelector('#fig-002 [data-bind=\"query\"]').textContent === 'load'",
                           timeout=60000)
    page.click("#fig-002 .share summary")
    page.click("#fig-002 .share button:has-text('Copy link')")
    assert page.input_value("#fig-002 .share-output") == site_page.base + "mixture/?query=load#fig-002"
    page.click("#fig-002 .share button:has-text('Copy embed code')")
    code = page.input_value("#fig-002 .share-output")
    assert code.startswith(f'<iframe src="{site_page.base}embed/fig-002/?query=load"')
    height = next(e.height for e in registry() if e.id == "fig-002")
    assert f'height="{height}"' in code and "data-attention-bench" in code
    assert 'allow="clipboard-write"' in code


@pytest.mark.parametrize("embed", registry(), ids=lambda e: e.id)  # one test each: run in parallel
def test_each_embed_fits_its_suggested_height(browser, server, embed):
    """The snippet's height is the measurement in a course page's column (COLUMN_PX, no blank
    band below the figure there): the figure fits it in that column, in an 800 px one and in
    a whole 1280 px window; a phone fits the phone measurement the guide states, live and, on
    a touch phone, before Python, while the figure asks to load it. Each embed is opened once,
    live, and measured as its frame narrows."""
    context = browser.new_context(viewport={"width": 1280, "height": 400})
    page = context.new_page()
    page.goto(server + embed.url)
    if embed.live:
        page.wait_for_selector(READY, timeout=60000)
    for width in (1280, 800, COLUMN_PX, PHONE_PX):
        page.set_viewport_size({"width": width, "height": 400})
        height = page.evaluate(within(10, """() => new Promise(done => requestAnimationFrame(() =>
            done(Math.ceil(document.documentElement.getBoundingClientRect().height))))"""))
        if width >= COLUMN_PX:
            assert height <= embed.height, f"{embed.id} at {width}px: {height}px drawn, snippet {embed.height}px"
        if width == COLUMN_PX:
            assert embed.height - height <= 40, f"{embed.id}: {height}px drawn, snippet {embed.height}px"
        assert height <= embed.phone_height, f"{embed.id} at {width}px needs {height}px"
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (embed.id, width)
    context.close()
    if embed.live:  # while Python loads, the figure says so, in a column as wide as a course page's
        column = browser.new_context(viewport={"width": COLUMN_PX, "height": 400})
        page = column.new_page()
        page.goto(server + embed.url)
        page.wait_for_selector('.runtime-status[data-state="loading"]', timeout=30000)
        height = page.evaluate(within(10, """() => new Promise(done => requestAnimationFrame(() =>
            done(Math.ceil(document.documentElement.getBoundingClientRect().height))))"""))
        loading = page.evaluate("document.querySelector('.runtime-status').dataset.state")
        assert loading == "loading" and height <= embed.height, \
            f"{embed.id} at {COLUMN_PX}px while Python loads: {height}px drawn, snippet {embed.height}px"
        column.close()
    if embed.live:  # a phone asks before it downloads Python: the notice and its button add height
        phone = browser.new_context(viewport={"width": PHONE_PX, "height": 400}, is_mobile=True,
                                    has_touch=True)
        page = phone.new_page()
        page.goto(server + embed.url)
        page.wait_for_selector('.runtime-status[data-state="asking"]', timeout=30000)
        height = page.evaluate(within(10, """() => new Promise(done => requestAnimationFrame(() =>
            done(Math.ceil(document.documentElement.getBoundingClientRect().height))))"""))
        assert height <= embed.phone_height, f"{embed.id} before Python on a phone: {height}px"
        phone.close()


def test_the_lab_plot_downloads_at_its_drawn_size(booted, viewport_width, tmp_path):
    page = booted.open("lab/", width=viewport_width)
    root, drawn = download_svg(page, "#fig-003", ".value-plot", tmp_path / "plot.svg")
    assert int(root.get("width")) == drawn > 100


# Each old embed id (before every figure had one name) and an address a course page may hold.
OLD_ADDRESSES = {"lab": "q=0,0&t=2", "bench": "head=sink&query=3", "bench-table": "query=2",
                 "bench-matrix": "head=sink", "bench-heads": "", "trained": "trained=4-5"}


def test_an_old_embed_address_opens_its_figure_with_the_state_it_carries(browser, server):
    """A teacher's iframe made before the figures had one name each keeps working: the old
    address sends the reader on to embed/fig-00N/ with its state, its theme and its anchor."""
    assert set(OLD_ADDRESSES) == set(figure_registry.ALIASES)
    context = browser.new_context()
    w = watch(context, server)
    for n, (old, params) in enumerate(OLD_ADDRESSES.items()):
        figure = figure_registry.embed(old)
        w.page.goto(f"{server}embed/{old}/?{params}{'&' if params else ''}theme=dark#{figure.id}")
        w.page.wait_for_url(f"{server}embed/{figure.id}/**")
        w.page.locator(f"#{figure.id}").wait_for()
        shown = w.page.evaluate("Object.fromEntries(new URLSearchParams(location.search))")
        # the state it carries (the page may write the rest of its state beside it); theme= is
        # taken off, as on every embed: it is the host page's choice
        assert dict(parse_qsl(params)).items() <= shown.items() and "theme" not in shown, old
        assert w.page.evaluate("location.hash") == f"#{figure.id}"
        assert w.page.evaluate("document.documentElement.dataset.theme") == "dark", old
        if n == 0:  # the new tab's blank page and the figure: the old address was replaced
            assert w.page.evaluate("history.length") == 2
    w.assert_clean()
    context.close()


def test_an_old_embed_address_leads_to_its_figure_with_javascript_off(no_js, server):
    no_js.goto(server + "embed/bench-table/")
    no_js.wait_for_url(server + "embed/fig-005/")
    assert no_js.locator("#fig-005 table.bench-working").count() == 1


def test_an_iframe_at_an_old_address_on_a_course_page_is_sized_by_the_guides_script(browser, server, tmp_path):
    (tmp_path / "resize.js").write_text(GUIDE_SCRIPT)
    (tmp_path / "index.html").write_text(f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>An older course page</title><link rel="icon" href="data:,"><script src="resize.js"></script></head>
<body><h1>Week 3</h1><iframe id="old" src="{server}embed/bench-matrix/?head=sink" title="The matrix"
width="100%" height="200" data-attention-bench></iframe></body></html>""")
    with serving(tmp_path) as course:
        context = browser.new_context(viewport={"width": 900, "height": 800})
        w = watch(context, course)
        w.page.goto(course)
        frame = w.page.frame_locator("#old")
        frame.locator("#fig-006").wait_for(timeout=30000)
        w.page.wait_for_function("() => parseInt(document.getElementById('old').style.height) > 300")
        assert w.console_errors == [] and w.page_errors == []
        context.close()


def test_the_heads_embed_stays_static(browser, server):
    context = browser.new_context()
    w = watch(context, server)
    requests = []
    w.page.on("request", lambda r: requests.append(r.url))
    w.page.goto(server + "embed/fig-007/")
    w.page.wait_for_timeout(1500)
    assert not any("/runtime/" in u or "/py/" in u for u in requests)
    assert w.page.locator("#fig-007 .use-head:visible").count() == 0
    assert w.page.locator("#fig-007 .share button:has-text('CSV')").count() == 0
    w.assert_clean()
    context.close()


def test_the_guides_live_example_toggles_and_keeps_focus_on_its_button(desktop):
    page = desktop.page
    page.goto(desktop.base + "embed/")
    button = page.locator("[data-embed-example]").first
    slot = page.locator("#" + button.get_attribute("aria-controls"))
    assert button.get_attribute("aria-expanded") == "false"
    button.focus()
    page.keyboard.press("Enter")
    assert slot.locator("iframe").count() == 1
    assert button.is_visible() and button.get_attribute("aria-expanded") == "true"
    assert page.evaluate("document.activeElement === document.querySelector('[data-embed-example]')")
    assert "Hide" in button.text_content()
    page.keyboard.press("Enter")
    assert slot.locator("iframe").count() == 0 and button.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement === document.querySelector('[data-embed-example]')")


def test_the_guides_live_example_shows_its_figure_whole(desktop):
    """The guide's example frame is sized by the script it prints, as a course page's is: all
    of the figure shows, with nothing to scroll inside the frame. (The frame had a border of its
    own, inside its height: the figure had 2 px less than it asked for, and scrolled.)"""
    page = desktop.page
    page.goto(desktop.base + "embed/")
    page.click('[data-embed-example="fig-002"]')
    frame = page.frame_locator("#example-fig-002 iframe")
    frame.locator('.runtime-status[data-state="ready"]').wait_for(timeout=60000)
    page.wait_for_timeout(500)  # the figure's last height message
    fit = page.evaluate("""() => { const f = document.querySelector('#example-fig-002 iframe');
        return {asked: parseFloat(f.style.height), room: f.clientHeight,
                figure: f.contentDocument.documentElement.scrollHeight}; }""")
    assert fit["asked"] >= fit["figure"] > 300, fit
    assert fit["room"] >= fit["figure"], fit


@pytest.mark.parametrize("embed", ["bench", "lab"])
def test_an_embed_forced_dark_downloads_its_drawing_in_the_light_palette(desktop, embed, tmp_path):
    """theme=dark forces the dark rules on; the download still promises a file that reads on a
    white slide, the very file a light page gives. (Forced on, the rules no longer said they
    were dark, and the light palette left them on: the file came out dark, rgb(22, 23, 27).)"""
    from tests.browser.colour import luminance

    page = desktop.page
    figure, drawing = {"bench": ("#fig-004", ".bench-drawing"), "lab": ("#fig-003", ".value-plot")}[embed]
    colours = {}
    for theme in ("light", "dark"):
        page.goto(desktop.base + f"embed/{embed}/?theme={theme}")
        page.wait_for_selector(f"{figure} .share")
        ground = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert (luminance(ground) < 0.1) if theme == "dark" else (luminance(ground) > 0.8)
        root, _ = download_svg(page, figure, drawing, tmp_path / f"{theme}.svg")
        colours[theme] = [(e.tag, e.get("fill"), e.get("stroke")) for e in root.iter()]
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == ground  # as it was
    backdrop = colours["dark"][[e[0] for e in colours["dark"]].index(f"{SVG}rect")]
    assert luminance(backdrop[1]) > 0.8
    assert colours["dark"] == colours["light"]


def test_the_bench_alone_chooses_its_query_from_a_list_of_the_sentences_words(browser, server):
    """Embedded alone, FIG-004 has no working table whose rows choose the query (a teacher
    could set it only in the address): a list of the sentence's words does, by keyboard too,
    and follows a new sentence. The chapter's FIG-004 has the table, and no list."""
    from attention import bench_view
    from attention.bench_drawing import names

    context = browser.new_context(viewport={"width": 800, "height": 900})
    w = watch(context, server)
    page = w.page
    try:
        page.goto(server + "embed/fig-004/")
        page.wait_for_selector("#fig-004 .bench-controls:not([hidden])")
        words = [r["word"] for r in bench_view.view()["rows"]]
        assert page.eval_on_selector_all("#bench-query option", "os => os.map(o => o.textContent)") == \
            [f"{j}: {w}" for j, w in enumerate(words)]
        page.focus("#bench-query")
        page.select_option("#bench-query", "3")
        expected = bench_view.view(query=3)
        page.wait_for_function(f"""() => document.querySelector('#fig-004 [data-bind="carriage-word"]').textContent
            === {names(words)[3]!r} && new URLSearchParams(location.search).get('query') === '3'""", timeout=90000)
        readings = page.eval_on_selector_all("#fig-004 .dial .dial-reading", "es => es.map(e => e.textContent)")
        assert readings == [d["reading"] for d in expected["drawing"]["dials"]]
        page.fill("#bench-sentence", "the doctor saw the farmer and he left")
        page.press("#bench-sentence", "Enter")
        page.wait_for_function("() => document.querySelectorAll('#bench-query option').length === 8"
                               " && document.querySelectorAll('#bench-query option')[1].textContent === '1: doctor'", timeout=90000)
        assert page.input_value("#bench-query") == str(bench_view.view(sentence="the doctor saw the farmer and he left")["query"]["index"])
    finally:
        context.close()
    w.assert_clean()
    chapter = browser.new_page()
    chapter.goto(server + "bench/")
    assert chapter.locator("#bench-query").count() == 0
    chapter.close()
