"""The bench's word colours (--c0 … --c7 in style.css, light and dark): each word keeps its
colour from dial to stopcock, tray and table, so no two may be mistaken for each other, and
each keeps 3:1 against the page (WCAG 1.4.11).

A reader could not tell "the" (--c0) from "before" (--c5) in a thin tray layer on the light
page (ΔE 19.6), and on the dark page --c1 and --c4 were both sky blues (ΔE 14.6). The colour
arithmetic is written out here (sRGB → CIE Lab, D65; deuteranopia by Machado et al. 2009,
severity 1), not taken from the stylesheet's own tools."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from sitebuild.site import TEMPLATES

CSS = (TEMPLATES / "static" / "style.css").read_text(encoding="utf-8")
DISTINCT = 25  # ΔE (CIE76) between any two word colours, for full colour vision
DISTINCT_DEUTERANOPIA = 5  # ... and as a deuteranope sees them


def _palettes() -> dict[str, dict[int, str]]:
    lines = re.findall(r":root \{ (--c0: [^\n]*)", CSS)
    found = [{int(k): v for k, v in re.findall(r"--c(\d): (#[0-9a-f]{6})", line)} for line in lines]
    assert len(found) == 2 and all(sorted(p) == list(range(8)) for p in found)
    return dict(zip(["light", "dark"], found))


def _variable(name: str, theme: str) -> str:
    light, dark = re.findall(rf"--{name}: (#[0-9a-f]{{6}})", CSS)[:2]
    return light if theme == "light" else dark


def _linear(colour: str) -> list[float]:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]


def _luminance(rgb: list[float]) -> float:
    r, g, b = rgb
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _lab(rgb: list[float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = [v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116 for v in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


DEUTERANOPIA = [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                [-0.011820, 0.042940, 0.968881]]


def _deuteranope(rgb: list[float]) -> list[float]:
    return [min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in DEUTERANOPIA]


def test_the_arithmetic_on_known_colours():
    assert _lab(_linear("#ffffff")) == pytest.approx((100, 0, 0), abs=0.02)  # the matrix, rounded
    assert _lab(_linear("#ff0000")) == pytest.approx((53.24, 80.09, 67.20), abs=0.05)
    assert _luminance(_linear("#777777")) == pytest.approx(0.1845, abs=0.0005)  # 4.48:1 on white


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_no_two_word_colours_are_alike(theme):
    colours = _palettes()[theme]
    for see, least in [(lambda rgb: rgb, DISTINCT), (_deuteranope, DISTINCT_DEUTERANOPIA)]:
        close = [(a, b, round(math.dist(_lab(see(_linear(colours[a]))), _lab(see(_linear(colours[b])))), 1))
                 for a, b in itertools.combinations(colours, 2)]
        assert [pair for pair in close if pair[2] < least] == []


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_each_word_colour_keeps_three_to_one_against_the_page(theme):
    page = _luminance(_linear(_variable("bg", theme)))
    for k, colour in _palettes()[theme].items():
        lo, hi = sorted([page, _luminance(_linear(colour))])
        assert (hi + 0.05) / (lo + 0.05) >= 3, (k, colour)
