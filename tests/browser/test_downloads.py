"""Downloaded drawings in real Chromium: the bench SVG shows what the page shows, reads on a
white slide and is named after its state."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from attention import bench_view
from attention.protocol import export, registry
from tests.browser.colour import SVG, contrast, handle_is_upright, luminance
from tests.browser.test_bench_page import DRAWN


READY = '.runtime-status[data-state="ready"]'


def download_drawing(page, figure: str, path):
    page.click(f"{figure} .share summary")
    with page.expect_download() as info:
        page.click(f"{figure} .share button:has-text('Drawing as SVG')")
    info.value.save_as(path)
    return ET.parse(path).getroot()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_bench_svg_shows_each_stopcock_as_drawn_and_reads_on_a_white_slide(booted, tmp_path, scheme):
    page = booted.open("bench/?shut=2,4", scheme=scheme)
    page.wait_for_selector("#fig-004 " + READY, timeout=60000)
    expected = [v["open"] for v in bench_view.view(shut=[2, 4])["drawing"]["valves"]]
    assert not expected[2] and not expected[4] and expected.count(True) >= 5
    page.wait_for_function("""(open) => JSON.stringify([...document.querySelectorAll('#fig-004 .valve')]
        .map(g => g.classList.contains('open'))) === JSON.stringify(open)""", arg=expected, timeout=60000)
    root = download_drawing(page, "#fig-004", tmp_path / "bench.svg")
    valves = next(g for g in root.iter(f"{SVG}g") if g.get("data-bind") == "valves")
    assert [handle_is_upright(v) for v in valves.findall(f"{SVG}g")] == expected
    # Its own light background, whatever the reader's scheme, and text that reads on it.
    backdrop = next(r for r in root.iter(f"{SVG}rect") if r.get("data-role") == "background")
    assert luminance(backdrop.get("fill")) > 0.8 and contrast(backdrop.get("fill"), "#ffffff") < 1.2
    parents = {child: parent for parent in root.iter() for child in parent}
    for text in root.iter(f"{SVG}text"):
        if not "".join(text.itertext()).strip() or text.get("visibility") == "hidden":
            continue
        siblings = list(parents[text])
        under = siblings[siblings.index(text) - 1] if siblings.index(text) else None
        badge = under is not None and under.tag == f"{SVG}circle" and float(under.get("r")) >= 8  # a callout
        ground = under.get("fill") if badge else backdrop.get("fill")
        assert contrast(text.get("fill"), ground) >= 4.5, ("".join(text.itertext()), text.get("fill"), ground)


def test_the_bench_svg_holds_only_what_the_page_shows_and_is_named_after_its_state(booted, tmp_path):
    """Labels the page hides (the weights of keys that get nothing) stay out of the file, so
    they do not pile up on a slide; the file's name says its state, as the CSV's does."""
    page = booted.open("bench/?t=0.5&shut=1")
    page.wait_for_selector("#fig-004 " + READY, timeout=60000)
    page.wait_for_function(DRAWN)  # the drawing, off screen, is drawn once the page is idle
    shown = page.evaluate("""() => [...document.querySelectorAll('#fig-004 svg.bench-drawing text')]
        .filter(t => t.closest('[style*="display: none"]') === null && t.getClientRects().length > 0
                     && getComputedStyle(t).visibility !== 'hidden')
        .map(t => t.textContent.trim()).filter(Boolean)""")
    page.click("#fig-004 .share summary")
    with page.expect_download() as info:
        page.click("#fig-004 .share button:has-text('Drawing as SVG')")
    # the default query is "she" (index 6) under the coreference head; T and the shut key as linked
    assert info.value.suggested_filename == "attention-bench-fig-004-coreference-q6-T0.5-shut1.svg"
    info.value.save_as(tmp_path / "bench.svg")
    root = ET.parse(tmp_path / "bench.svg").getroot()
    written = ["".join(t.itertext()).strip() for t in root.iter(f"{SVG}text")
               if t.get("visibility") != "hidden" and t.get("data-role") != "caption"]
    assert [t for t in written if t] == shown
    # under the drawing, Python's words for the state: a slide carries it, not only the name
    said = ["".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("data-role") == "caption"]
    assert said == export.caption(registry.export("fig-004", {"temperature": "0.5", "shut": [1]}))
    assert said[0].startswith("Attention Bench, FIG-004: head coreference, query “she”")
    box = [float(v) for v in root.get("viewBox").split()]
    assert all(float(t.get("y")) < box[1] + box[3] for t in root.iter(f"{SVG}text")
               if t.get("data-role") == "caption")  # inside the drawing's box
    assert sum("0.000" in t for t in shown) < sum("0.000" in t for t in page.evaluate(
        "() => [...document.querySelectorAll('#fig-004 svg.bench-drawing text')].map(t => t.textContent)"))


def test_the_drawing_saved_right_after_a_click_shows_that_clicks_state(booted, tmp_path):
    """A click on FIG-005 leaves the drawing, far above, to be drawn once the page is idle
    (near.js); "Drawing as SVG" pressed before then saves the state on screen, which its file
    name states, not the one before the click."""
    page = booted.open("bench/")
    page.wait_for_selector("#fig-004 " + READY, timeout=60000)
    page.evaluate("document.querySelector('#fig-005 tr[data-index=\"2\"] button').scrollIntoView({block: 'center'})")
    page.wait_for_function(DRAWN)
    with page.expect_download() as info:
        page.evaluate("""() => {  // one task: the page has no idle moment in between
          document.querySelector('#fig-005 tr[data-index="2"] button').click();
          [...document.querySelectorAll('#fig-004 .share button')]
            .find((b) => b.textContent === 'Drawing as SVG').click();
        }""")
    assert info.value.suggested_filename == "attention-bench-fig-004-coreference-q2-T1.svg"
    info.value.save_as(tmp_path / "bench.svg")
    root = ET.parse(tmp_path / "bench.svg").getroot()
    carriage = next(t for t in root.iter(f"{SVG}text") if t.get("data-bind") == "carriage-word")
    assert "".join(carriage.itertext()).strip() == bench_view.view(query=2)["query"]["word"] == "fixed"


def png_facts(data: bytes) -> tuple[int, int, int]:
    """(width, height, distinct byte values of its pixels) of a PNG file, read with the stdlib."""
    import struct
    import zlib

    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    pixels, at = b"", 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            pixels += data[at + 8:at + 8 + length]
        at += 12 + length
    return width, height, len(set(zlib.decompress(pixels)))


def test_the_png_for_slides_is_the_svg_painted_at_twice_its_size(booted, tmp_path):
    page = booted.open("bench/?t=0.5&shut=1")
    page.wait_for_selector("#fig-004 " + READY, timeout=60000)
    page.wait_for_function(DRAWN)
    root = download_drawing(page, "#fig-004", tmp_path / "bench.svg")
    with page.expect_download() as info:
        page.click("#fig-004 .share button:has-text('Drawing as PNG')")
    assert info.value.suggested_filename == "attention-bench-fig-004-coreference-q6-T0.5-shut1.png"
    info.value.save_as(tmp_path / "bench.png")
    width, height, shades = png_facts((tmp_path / "bench.png").read_bytes())
    assert (width, height) == (2 * int(root.get("width")), 2 * int(root.get("height")))
    assert shades > 50  # a drawing, not a blank canvas
    assert "2 × the drawing’s size" in page.inner_text("#fig-004 .share-status")
    booted.assert_clean()  # the page's own policy lets it paint its drawing (img-src blob:)
