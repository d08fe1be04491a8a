"""The bench's drawing: where every part of the bench sits, in SVG units, for one query.

The drawing reads in the order of the formula: (1) the carriage holds q; (2) one dial per key
shows the raw q·k as a number, and its needle shows where that score ends up once (3) the plate
has divided it by √d_k and T: upright for the best match among the open keys, leaning left by
how far below it the key's softmax input z lies, flat at ``DIAL_SPAN`` or more below (such a key
gets less than e^-DIAL_SPAN of the best key's flow, so a key with a real share never lies flat);
(4) the sealed reservoir; (5) the stopcocks share it by e^z; (6) the tray stacks the weights.
Dials and stopcocks wrap into rows of ``COLUMNS`` so that 40 words stay readable; every
position, angle, colour index, pattern index and text is computed here.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from . import bench, catalog, lab
from .catalog import say
from .numbers import fixed, typed

__all__ = ["COLUMNS", "DIAL_SPAN", "LABEL_LINE", "LABEL_SHARE", "PALETTE", "PATTERNS", "TRAY_HEIGHT",
           "WIDTH", "Layout", "dial_angle", "drawing", "handle", "layout", "look", "plain",
           "reads_right_to_left",
           "spread", "stack_strata", "strata_bottom"]

WIDTH = 800  # the drawing's width in SVG units; everything scales with the page
DIAL_SPAN = 6  # a needle lies flat for a softmax input z (after the plate) this far or more
# below the best open key's: e^-6 < 0.0025 of the best key's flow. A key with a share w has
# e^(z - z_best) >= w, so a key taking 5 % lies at most ln 20 = 3.0 below: at most half-way down.
PALETTE = 8  # word colours cycle through this many, by position ...
PATTERNS = 5  # ... and each lap of the palette gets its own texture: 40 words, 40 looks
COLUMNS = 8  # dials and stopcocks per row; more words wrap into further rows
TRAY_HEIGHT = 150  # the core sample's full height: one unit of attention
LABEL_SHARE = 0.05  # a stratum this share of the unit or more is labelled at every width: 7.5
# units, a visible band even on a phone, and the share DIAL_SPAN calls real (its needle is at
# most half-way down). At most 20 strata take it, so labels are spread apart, not left out:
LABEL_LINE = {"wide": 20, "phone": 36}  # label pitch: a line of the text there (17 and 30 units)
LABEL_MID = {"wide": 5, "phone": 11}  # from a label's baseline up to the middle of its digits
LABEL_X, LEADER = 480, (466, 476)  # labels start here; a leader joins each to its stratum


def plain(x) -> int | float:
    """Return x as an int when it is whole, so Jinja and JavaScript print it alike ("85").

    >>> plain(85.0), plain(-0.0), plain(0.125)
    (85, 0, 0.125)
    """
    x = float(x)
    return int(x) if x == int(x) else x


def look(j: int) -> dict:
    """Return word j's colour (cycling through PALETTE) and texture (one per lap of it)."""
    return {"colour": j % PALETTE, "pattern": (j // PALETTE) % PATTERNS}


class Layout(NamedTuple):
    """Where the drawing's stations sit (SVG units) for a sentence of n words."""

    xs: list  # each word's x, in rows of at most COLUMNS
    rows: list  # each word's row
    plate: float  # the plate's top
    tank: float  # the tank's top
    valves: float  # the first row of stopcocks' centre
    tray: float  # the tray's top
    height: float  # the whole drawing


DIAL_Y, DIAL_ROW, LABELS = 118, 176, 150  # first dial row's centre, row pitch, label room
VALVE_ROW = 76  # stopcock row pitch


_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def names(words) -> list[str]:
    """Return each word as the drawing and the matrix name it: a word the sentence repeats
    carries its position j as a subscript, so that repeats can be told apart (review 4: at 40
    words, five "engineer"s and no index).

    >>> names(["the", "engineer", "fixed", "the", "bridge"])
    ['the₀', 'engineer', 'fixed', 'the₃', 'bridge']
    >>> names(["a"] * 12)[10:]
    ['a₁₀', 'a₁₁']
    """
    counts = Counter(words)
    return [w + str(j).translate(_SUBSCRIPT) if counts[w] > 1 else w for j, w in enumerate(words)]


def layout(n: int, rtl: bool | None = None) -> Layout:
    """Lay out n words: dials and stopcocks in rows of at most COLUMNS, as even as they can
    be (10 words: two rows of 5, not 8 and a lone 2 under a gap), stations below. In a
    language read right to left (``rtl``; default: the language spoken now) the first word is
    on the right.

    >>> layout(8).height, layout(40).height
    (600, 1608)
    >>> layout(10).rows, layout(9).rows
    ([0, 0, 0, 0, 0, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 1, 1, 1, 1])
    >>> layout(3).xs, layout(3, rtl=True).xs
    ([160, 400, 640], [640, 400, 160])
    """
    lines = -(-n // COLUMNS)
    cols = -(-n // lines)  # the fewest per row that fit the rows COLUMNS needs
    pitch = (WIDTH - 80) / cols  # at least 90: room for a word and its reading
    xs = [plain(round(40 + pitch * (j % cols + 0.5), 3)) for j in range(n)]
    rtl = reads_right_to_left() if rtl is None else rtl
    xs = [plain(WIDTH - x) for x in xs] if rtl else xs
    plate = DIAL_Y + (lines - 1) * DIAL_ROW + LABELS
    tank = plate + 36
    valves = tank + 90
    tray = valves + (lines - 1) * VALVE_ROW + 40
    return Layout(xs, [j // cols for j in range(n)], plate, tank, valves, tray, tray + 166)


CARRIAGE_HALF, RAIL = 62, (36, WIDTH - 36)  # the carriage's half-width; where it may ride


def _carriage_x(x: float) -> float:
    """Centre the carriage over the query's dial, but keep it on the rail, clear of the step
    badges at the left edge (x 9 to 31): the first and last dials are nearer the edge.

    >>> _carriage_x(85), _carriage_x(400), _carriage_x(715)
    (98, 400, 702)
    """
    return min(max(x, RAIL[0] + CARRIAGE_HALF), RAIL[1] - CARRIAGE_HALF)


def dial_angle(gap: float) -> float:
    """Return a needle's angle for a key whose softmax input z lies `gap` below the best open
    key's (after the plate): 0 (upright)
    for the best, leaning left to -90 (flat) at DIAL_SPAN or more below.

    >>> dial_angle(0.0), dial_angle(DIAL_SPAN / 2), dial_angle(3 * DIAL_SPAN)
    (0.0, -45.0, -90.0)
    """
    return round(-90.0 * min(gap / DIAL_SPAN, 1.0), 2) + 0.0


def _dials(words, named, z, i, allowed, causal, rows, lay) -> list[dict]:
    """Return one dial per key (``named``: the words as the drawing names them): its number is
    the raw q·k, as the table's q·k column; its needle stands for z, the table's ÷ T column,
    against the best open key's."""
    top = z[allowed].max()
    out = []
    for j, w in enumerate(words):
        state = "live" if allowed[j] else "shut" if causal[j] else "dead"
        gap = float(top - z[j])
        best = bool(allowed[j] and gap <= 0)
        why = (say("bench-drawing.best") if best else "") if state == "live" else \
            say("bench-drawing.shut") if state == "shut" else say("bench-drawing.later")
        out.append({"index": j, "x": lay.xs[j], "y": DIAL_Y + lay.rows[j] * DIAL_ROW,
                    "word": named[j], **look(j), "state": state, "best": best, "is_query": j == i,
                    "angle": plain(dial_angle(gap) if allowed[j] else -90.0),
                    "pinned": bool(allowed[j] and gap >= DIAL_SPAN),
                    "reading": rows[j]["dot"]["text"],
                    "label": say("bench-drawing.dial", word=w, j=j, reading=rows[j]["dot"]["text"],
                                 why=why)})
    return out


def handle(is_open: bool) -> list[int]:
    """Return a stopcock handle's line (x1, y1, x2, y2): along the pipe when open, across it
    when shut."""
    return [0, -11, 0, 11] if is_open else [-11, 0, 11, 0]


def _valves(words, weights, i, allowed, causal, lay) -> list[dict]:
    """Return one stopcock per key: open or shut, and the stream it lets through."""
    out = []
    for j, w in enumerate(words):
        x, y = lay.xs[j], lay.valves + lay.rows[j] * VALVE_ROW
        is_open = bool(allowed[j])
        state = say("bench-drawing.valve-open") if is_open else say("bench-drawing.valve-shut") \
            if causal[j] else say("bench-drawing.valve-later")
        out.append({"index": j, "x": x, "y": y, "word": w, **look(j),
                    "open": is_open, "can_turn": bool(causal[j]),
                    "handle": handle(is_open),
                    "stream": f"M 0 16 L 0 30 L {plain(round(WIDTH / 2 - x, 3))} {plain(lay.tray - y)}",
                    "flow": plain(round(float(weights[j]) * 16.0, 3)),
                    "label": say("bench-drawing.valve", word=w, j=j), "state": state})
    return out


def spread(centres: list[float], line: float, top: float) -> list[float]:
    """Return label centres as near the given ones as they can be while at least `line` apart
    and no higher than `top`, in the same order (centres run down the page).

    Labels that would overlap form a cluster centred on its members' wishes (the least
    squared shift); clusters merge until none overlap.

    >>> spread([50, 55, 120], 20, 0)
    [42.5, 62.5, 120]
    >>> spread([5, 6], 20, 10)
    [10, 30]
    """
    clusters = []  # [first index, count, centre of the first label]
    for k, c in enumerate(centres):
        clusters.append([k, 1, max(c, top)])
        while len(clusters) > 1:
            a, b = clusters[-2], clusters[-1]
            if a[2] + a[1] * line <= b[2]:
                break
            members = centres[a[0]:b[0] + b[1]]
            n = a[1] + b[1]
            first = sum(members) / n - line * (n - 1) / 2
            clusters[-2:] = [[a[0], n, max(first, top)]]
    return [plain(round(c[2] + line * m, 3)) for c in clusters for m in range(c[1])]


def stack_strata(words, weights, lay) -> list[dict]:
    """Return the tray's strata, the first word at the bottom, thickness = weight (``words``:
    as the drawing names them, ``names``).

    Each stratum with LABEL_SHARE or more is labelled (``label``) at every width: its label
    sits by its middle, or as near as the labels above and below it allow (``label_y``, and
    ``phone_y`` for a phone's larger text), joined to it by a leader (``leader``,
    ``phone_leader``); labels may run below the tray (``strata_bottom``).
    """
    strata, mids, y = [], [], float(lay.tray + 4 + TRAY_HEIGHT)  # mids: each stratum's middle
    for j, w in enumerate(words):
        h = float(weights[j] * TRAY_HEIGHT)
        y -= h
        mids.append(y + h / 2)
        strata.append({"index": j, **look(j), "y": plain(round(y, 3)),
                       "height": plain(round(h, 3)), "label": bool(weights[j] >= LABEL_SHARE),
                       "text": f"{w} {fixed(weights[j])}"})
    shown = sorted((s["index"] for s in strata if s["label"]), key=lambda j: mids[j])
    for size, y_key, leader_key in (("wide", "label_y", "leader"), ("phone", "phone_y", "phone_leader")):
        line, rise = LABEL_LINE[size], LABEL_MID[size]
        placed = dict(zip(shown, spread([mids[j] for j in shown], line, lay.tray + line / 2 - 2)))
        for s, mid in zip(strata, mids):
            at = placed.get(s["index"], mid)  # a label's middle
            s[y_key] = plain(round(at + rise, 3))
            s[leader_key] = f"M {LEADER[0]} {plain(round(mid, 3))} L {LEADER[1]} {plain(round(at, 3))}"
    return strata


def strata_bottom(strata) -> float:
    """Return how far down the strata's labels reach (a phone's are the larger)."""
    return max((s["phone_y"] - LABEL_MID["phone"] + LABEL_LINE["phone"] / 2
                for s in strata if s["label"]), default=0)


def reads_right_to_left() -> bool:
    """Whether the language spoken now is read right to left: its words are laid out so."""
    return catalog.spoken() in catalog.RTL


def drawing(words, tr, i, allowed, causal, t, rows, q_text="") -> dict:
    """Return the bench drawing's geometry in SVG units (the words right to left where the
    language spoken now reads so)."""
    n = len(words)
    lay = layout(n)
    valves = _valves(words, tr.weights[i], i, allowed, causal, lay)
    lines = sorted(set(lay.rows))
    radius = 26
    named = names(words)  # a repeated word with its position, everywhere the drawing names it
    strata = stack_strata(named, tr.weights[i], lay)
    height = plain(max(lay.height, round(strata_bottom(strata) + 4, 3)))  # labels run lower
    return {
        "viewbox": f"0 0 {WIDTH} {height}", "height": height,
        "callouts": [{"n": k, "y": y} for k, y in enumerate(
            [40, DIAL_Y, lay.plate + 14, lay.tank + 28, lay.valves, lay.tray + 80], start=1)],
        "needle": plain(round(radius * 0.9, 3)),
        "face": f"M {-radius} 0 A {radius} {radius} 0 0 1 {radius} 0",  # open: no base line
        "tick": [0, -radius, 0, -radius + 7], "hub": 3, "label_y": [18, 34],
        "valve": {"radius": 16, "ring": 22, "pipe": [0, -26, 0, -16], "hit": [-32, -32, 64, 64]},
        "legend": {"y": lay.plate - 44, "text": say("bench-drawing.legend", span=DIAL_SPAN)},
        "stratum": {"x": 340, "width": 120, "label_x": LABEL_X},
        "carriage": {"x": _carriage_x(lay.xs[i]), "y": 40, "word": named[i],
                     "label": say("bench-drawing.carriage", word=words[i], q=q_text),
                     "cells": [-56 + 14 * c for c in range(bench.D_K)]},
        "dials": _dials(words, named, tr.tempered[i], i, allowed, causal, rows, lay),
        "plate": f"÷ √{bench.D_K}" + ("" if t == lab.NEUTRAL_T else f" ÷ T ({typed(t)})"),
        "plate_box": {"y": lay.plate, "text_y": lay.plate + 19},
        "tank": {"y": lay.tank, "fluid_y": lay.tank + 6, "text_y": lay.tank + 34},
        "pipe": [lay.tank + 56, lay.valves - 26 + lines[-1] * VALVE_ROW],
        "manifolds": [[min(v["x"] for v in valves if lay.rows[v["index"]] == r),
                       max(v["x"] for v in valves if lay.rows[v["index"]] == r),
                       lay.valves - 26 + r * VALVE_ROW] for r in lines],
        "valves": valves,
        "tray_y": lay.tray, "tray_height": TRAY_HEIGHT + 8,
        "strata": strata,
    }
