"""sitebuild.stylesheet: the site's one stylesheet, and a direction written as the reading
direction's start and end (CSS logical properties), never as left or right, so that a page
read right to left (issue 40: Arabic) lays itself out from the right without a second sheet."""

from __future__ import annotations

import re

from sitebuild.site import TEMPLATES
from sitebuild.stylesheet import sheets, stylesheet

# A physical direction where the reading direction is meant. (Gradients drawn "to right" and
# shadows offset along x are pictures of a scroll's edge, not layout: they are not listed.)
PHYSICAL = re.compile(r"(?<![\w.-])(?:(?:margin|padding|border|scroll-margin|scroll-padding)-(?:left|right)\b"
                      r"|text-align:\s*(?:left|right)\b|float:\s*(?:left|right)\b|clear:\s*(?:left|right)\b"
                      r"|(?:left|right)\s*:)")


def test_no_sheet_says_left_or_right_where_it_means_start_or_end():
    found = []
    for path in sheets(TEMPLATES):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = re.sub(r"/\*.*?\*/", "", line)
            found += [f"{path.name}:{n}: {m.group(0)}" for m in PHYSICAL.finditer(code)]
    assert found == []


def test_the_check_finds_each_physical_form():
    for text in ("margin-left: 1px", "padding-right:0", "border-left: 1px solid", "text-align: right",
                 "left: 0", "float: left", "scroll-padding-left: 1rem"):
        assert PHYSICAL.search(text), text
    for text in ("margin-inline-start: 1px", "text-align: end", "inset-inline-start: 0",
                 "linear-gradient(to right, red, blue)", "--sticky-left: 0", "button.right::before"):
        assert not PHYSICAL.search(text), text


def test_the_stylesheet_joins_every_sheet_in_order():
    joined = stylesheet(TEMPLATES)
    starts = [joined.index(p.read_text(encoding="utf-8")) for p in sheets(TEMPLATES)]
    assert starts == sorted(starts) and starts[0] == 0
