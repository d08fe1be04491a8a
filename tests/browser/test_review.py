"""Issue 12's hands-on review, in real Chromium: exports, embeds, phones, honest states, typing."""

from __future__ import annotations

import math
import re
import threading
import xml.etree.ElementTree as ET

import pytest

from attention import bench_view, lab
from sitebuild.serve import make_server
from tests.browser.conftest import watch

SVG = "{http://www.w3.org/2000/svg}"
READY = '.runtime-status[data-state="ready"]'


# --- colour arithmetic (WCAG 2.x), written out here rather than taken from the site --------

def rgb(text: str) -> tuple[float, float, float]:
    """Parse "rgb(1, 2, 3)", "rgba(…)" or "#rrggbb" into 0–255 channels."""
    text = text.strip()
    if text.startswith("#"):
        return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))
    return tuple(float(x) for x in re.findall(r"[\d.]+", text)[:3])


def luminance(colour: str) -> float:
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_arithmetic_matches_known_pairs():
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("rgb(118, 118, 118)", "#ffffff") == pytest.approx(4.54, abs=0.01)


# --- SVG transforms, parsed by hand -----------------------------------------------------

def transform_matrix(text: str | None) -> tuple[float, ...]:
    """Compose an SVG transform list (translate, rotate, scale, matrix) into (a, b, c, d, e, f)."""
    m = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

    def times(p, q):
        a, b, c, d, e, f = p
        A, B, C, D, E, F = q
        return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f)

    for name, args in re.findall(r"(\w+)\(([^)]*)\)", text or ""):
        v = [float(x) for x in re.split(r"[\s,]+", args.strip()) if x]
        if name == "matrix":
            step = tuple(v)
        elif name == "translate":
            step = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0)
        elif name == "scale":
            step = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "rotate":
            r = math.radians(v[0])
            step = (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)
            if len(v) == 3:
                step = times(times((1, 0, 0, 1, v[1], v[2]), step), (1, 0, 0, 1, -v[1], -v[2]))
        else:
            raise AssertionError(f"unexpected transform {name}")
        m = times(m, step)
    return m


def test_transform_parser_rotates_a_line_upright():
    a, b, c, d, e, f = transform_matrix("translate(5 0) rotate(90)")
    assert (a, b) == pytest.approx((0, 1), abs=1e-12) and e == 5


def handle_is_upright(valve) -> bool:
    """A stopcock's handle (its last line) drawn upright, as on the page when it is open."""
    handle = valve.findall(f"{SVG}line")[-1]
    a, b, c, d, _, _ = transform_matrix(handle.get("transform"))
    x1, y1, x2, y2 = (float(handle.get(k, 0)) for k in ("x1", "y1", "x2", "y2"))
    dx, dy = a * (x2 - x1) + c * (y2 - y1), b * (x2 - x1) + d * (y2 - y1)
    return abs(dy) > 3 * abs(dx)


def download_drawing(page, figure: str, path):
    page.click(f"{figure} .share summary")
    with page.expect_download() as info:
        page.click(f"{figure} .share button:has-text('Drawing as SVG')")
    info.value.save_as(path)
    return ET.parse(path).getroot()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_bench_svg_shows_each_stopcock_as_drawn_and_reads_on_a_white_slide(browser, server, tmp_path, scheme):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    w = watch(context, server)
    w.page.goto(server + "bench/?shut=2,4")
    w.page.wait_for_selector("#fig-004 " + READY, timeout=60000)
    expected = [v["open"] for v in bench_view.view(shut=[2, 4])["drawing"]["valves"]]
    assert not expected[2] and not expected[4] and expected.count(True) >= 5
    w.page.wait_for_function("""(open) => JSON.stringify([...document.querySelectorAll('#fig-004 .valve')]
        .map(g => g.classList.contains('open'))) === JSON.stringify(open)""", arg=expected, timeout=30000)
    root = download_drawing(w.page, "#fig-004", tmp_path / "bench.svg")
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
    w.assert_clean()
    context.close()
