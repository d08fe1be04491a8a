"""Colour and geometry arithmetic for browser tests, written out here rather than taken from
the site: WCAG 2.x contrast, and SVG transforms."""

from __future__ import annotations

import math
import re


SVG = "{http://www.w3.org/2000/svg}"  # ElementTree's name for the SVG namespace


def rgb(text: str) -> tuple[float, float, float]:
    """Parse "rgb(1, 2, 3)", "rgba(…)" or "#rrggbb" into 0–255 channels."""
    text = text.strip()
    if text.startswith("#"):
        return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))
    if text.startswith("color(srgb"):  # what Chromium reports for a color-mix()
        return tuple(float(x) * 255 for x in re.findall(r"[\d.]+", text)[:3])
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


def handle_is_upright(valve) -> bool:
    """A stopcock's handle (its last line) drawn upright, as on the page when it is open."""
    handle = valve.findall(f"{SVG}line")[-1]
    a, b, c, d, _, _ = transform_matrix(handle.get("transform"))
    x1, y1, x2, y2 = (float(handle.get(k, 0)) for k in ("x1", "y1", "x2", "y2"))
    dx, dy = a * (x2 - x1) + c * (y2 - y1), b * (x2 - x1) + d * (y2 - y1)
    return abs(dy) > 3 * abs(dx)
