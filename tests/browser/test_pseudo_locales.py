"""The site built in the two pseudo-locales (sitebuild.strings), in real Chromium at 360 and
1280 px: en-XA's strings, accented and about 40 % longer, and ar-XB's, English set right to left
on a dir="rtl" page, reach the page from the build and from the modules, and none is cut off,
overlaps the page's edge or makes it scroll sideways. (Only the strings in the catalog are
pseudo: chapter prose is each edition's page source.)"""

from __future__ import annotations

import pytest

from sitebuild.site import build
from tests.browser.conftest import serving, watch

# The catalog's marks: en-XA brackets each string, ar-XB overrides its direction
MARKS = {"en-XA": "⟦", "ar-XB": "\u202e"}

# Every element whose own text is a catalog string: where it is drawn, whether its box clips
# it, whether it sits in a part that scrolls sideways on purpose (a wide table, the phone's
# chapter links), and what the document's width is against the window's
LAID_OUT = """(mark) => {
  const own = (e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.includes(mark));
  const scrolls = (e) => { for (let p = e.parentElement; p; p = p.parentElement) {
      const x = getComputedStyle(p).overflowX; if (x === 'auto' || x === 'scroll') return true; } return false; };
  const out = [];
  for (const e of document.body.querySelectorAll('*')) {
    // (the skip link waits off screen until it is focused: checked on its own)
    if (!own(e) || e.closest('[hidden], .visually-hidden, template') || (e.matches('.skip') && e !== document.activeElement)) continue;
    const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    if (!r.width || s.visibility === 'hidden' || scrolls(e)) continue;
    const clipped = ['hidden', 'clip'].includes(s.overflowX) && e.scrollWidth > e.clientWidth + 1;
    if (clipped || r.left < -0.5 || r.right > innerWidth + 0.5) out.push(`${e.tagName}.${e.className}: ${e.textContent.slice(0, 40)}`);
  }
  return { out, seen: [...document.body.querySelectorAll('*')].filter((e) => own(e)).length,
           wide: document.documentElement.scrollWidth - innerWidth,
           lang: document.documentElement.lang, dir: document.documentElement.dir };
}"""

PAGES = ["mixture/", "bench/", "layer/", "embed/", "handout/fig-002/"]


@pytest.fixture(scope="module", params=sorted(MARKS))
def pseudo_site(request, tmp_path_factory):
    out = tmp_path_factory.mktemp(request.param) / "site"
    build(out, lang=request.param)
    with serving(out) as base:
        yield request.param, base


@pytest.mark.parametrize("width", [360, 1280])
def test_every_catalog_string_is_laid_out_whole(browser, pseudo_site, width):
    lang, base = pseudo_site
    context = browser.new_context(viewport={"width": width, "height": 800}, is_mobile=width < 500,
                                  has_touch=width < 500)
    w = watch(context, base)
    page = w.page
    for path in PAGES:
        page.goto(base + path)
        if path != "embed/":  # a live figure: its status line is the modules' (i18n.js) words
            page.wait_for_function("""(mark) => [...document.querySelectorAll('.runtime-status')]
              .some((s) => s.textContent.includes(mark))""", arg=MARKS[lang], timeout=60000)
        seen = page.evaluate(LAID_OUT, MARKS[lang])
        assert (seen["lang"], seen["dir"]) == (lang, "rtl" if lang == "ar-XB" else "ltr"), path
        assert seen["seen"] >= 3, path  # the header's (a chapter), the status line's, the print button's (a handout)
        assert seen["out"] == [], (path, width)
        assert seen["wide"] <= 0, (path, width)  # the page never scrolls sideways
    page.goto(base + "mixture/")
    page.keyboard.press("Tab")  # the skip link, focused, is on screen and whole
    assert page.evaluate("() => document.activeElement.className") == "skip"
    assert page.evaluate(LAID_OUT, MARKS[lang])["out"] == []
    # the header starts at the right in a right-to-left page, as its reader reads
    name, header = (page.locator(sel).bounding_box() for sel in (".site-name", ".site-header"))
    starts_right = name["x"] + name["width"] / 2 > header["x"] + header["width"] / 2
    assert starts_right == (lang == "ar-XB")
    w.assert_clean()
    context.close()


# Where a text's first and last characters are drawn, left to right: (x of first, x of last)
ENDS = """(sel) => { const e = document.querySelector(sel), text = e.firstChild, r = document.createRange();
  const at = (k) => { r.setStart(text, k); r.setEnd(text, k + 1); return r.getBoundingClientRect().x; };
  return [e.textContent, at(0), at(text.length - 1)]; }"""


def test_numbers_and_vectors_read_left_to_right_in_a_right_to_left_page(browser, tmp_path_factory):
    """MathML's order, in any page: the right-to-left pseudo-locale showed FIG-002's value
    [1.000, 2.000] as "[2.000 ,1.000]" and FIG-009's −0.484 as "0.484−"."""
    out = tmp_path_factory.mktemp("rtl") / "site"
    build(out, lang="ar-XB")
    with serving(out) as base:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(base + "mixture/")
        text, first, last = page.evaluate(ENDS, "#fig-002 tbody tr td.num.wrap")
        assert text.startswith("[") and first < last, text
        page.goto(base + "layer/")
        cell = page.evaluate("""() => { const v = [...document.querySelectorAll('#fig-009 .layer-stream td .v')]
          .find((e) => e.textContent.startsWith('−')); v.id = 'negative'; return v.textContent; }""")
        text, first, last = page.evaluate(ENDS, "#negative")
        assert text == cell and first < last, text
        page.close()
