"""The bench page's figure data: the working table, the attention matrix and the drawing.

``view()`` takes the reader's state (sentence, head, query word, temperature, shut
stopcocks) and returns plain, JSON-safe data, geometry included, so the page only
places what it is given. Bad input raises ``BenchInputError`` naming the field.

The answer's keys (see ``view``): ``state``, ``sentence`` (``words``, ``text``, and ``note``,
which says how typed text was read: lower-cased, punctuation dropped, or ""), ``head``,
``query``, ``temperature``, ``slider``, ``shut``, ``rows`` (the working table, one per
word), ``matrix`` (per row, per column: None where masked, else [weight text, shade 0..10]),
``masks`` (per row a string, one letter per column: "a" allowed, "f" later word under the
causal mask, "s" stopcock shut), ``empty`` (per row: True when every key it may use is shut),
``drawing`` (FIG-004's geometry, below) and ``summary`` (the row in one sentence, which the
page also announces).

The drawing reads in the order of the formula: (1) the carriage holds q; (2) one dial per key
reads the raw q·k, *before* the plate, the needle upright for the best match among the open
keys and leaning left by how far below it a key reads; (3) the plate divides by √d_k and T;
(4) the sealed reservoir; (5) the stopcocks share it by e^z; (6) the tray stacks the weights.
Dials and stopcocks wrap into rows of ``COLUMNS`` so that 40 words stay readable; every
position, angle, colour index, pattern index and text is computed here.
"""

from __future__ import annotations

import difflib
import functools
import math
from typing import NamedTuple

import numpy as np

from . import bench, lab, whatif
from .numbers import fixed, fixed_all, shown, typed

__all__ = ["BenchInputError", "WIDTH", "heads", "lexicon", "matrix_weights", "parse_sentence",
           "view"]

WIDTH = 800  # the drawing's width in SVG units; everything scales with the page
DIAL_SPAN = 20  # a needle lies flat for a raw q·k this far or more below the best open key
PALETTE = 8  # word colours cycle through this many, by position ...
PATTERNS = 5  # ... and each lap of the palette gets its own texture: 40 words, 40 looks
COLUMNS = 8  # dials and stopcocks per row; more words wrap into further rows
TRAY_HEIGHT = 150  # the core sample's full height: one unit of attention
LABEL_MIN = 30  # a stratum this thick is labelled on a phone (large text), half this elsewhere


class BenchInputError(ValueError):
    """Input the bench cannot use; ``field`` names where it came from."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def parse_sentence(text) -> list[str]:
    """Split the reader's sentence into lexicon words, or explain what is wrong.

    >>> parse_sentence("The pilot saw it.")
    ['the', 'pilot', 'saw', 'it']
    >>> parse_sentence("the pilot sawe a brige")
    Traceback (most recent call last):
    attention.bench_view.BenchInputError: Not in the lexicon: “sawe” (try saw), “brige” (try bridge).
    """
    if not isinstance(text, str):
        raise BenchInputError("sentence", "The sentence must be text.")
    words = bench.tokenize(text[:2000])
    if not words:
        raise BenchInputError("sentence", "Type a sentence of at least one word.")
    if len(words) > bench.MAX_WORDS:
        raise BenchInputError("sentence", f"Use at most {bench.MAX_WORDS} words; "
                                          f"this sentence has {len(words)}.")
    unknown = [w for w in dict.fromkeys(words) if w not in bench.LEXICON]
    if unknown:
        parts = []
        for w in unknown[:8]:
            near = difflib.get_close_matches(w, bench.LEXICON.keys(), n=2, cutoff=0.7)
            parts.append(f"“{w[:30]}”" + (f" (try {', '.join(near)})" if near else ""))
        more = f" and {len(unknown) - 8} more" if len(unknown) > 8 else ""
        raise BenchInputError("sentence", f"Not in the lexicon: {', '.join(parts)}{more}.")
    return words


def _choice(value, field: str, n: int, what: str) -> int:
    """Read a word position 0..n-1."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise BenchInputError(field, f"The {what} must be a word position.")
    try:
        i = int(value)
    except (ValueError, OverflowError):
        raise BenchInputError(field, f"The {what} must be a word position.") from None
    if i != value and str(i) != value or not 0 <= i < n:
        raise BenchInputError(field, f"The {what} must be a word position from 0 to {n - 1}.")
    return i


def _check_head(head) -> None:
    """Raise unless head names one of the bench's heads."""
    if not isinstance(head, str) or head not in bench.HEADS:
        raise BenchInputError("head", f"Choose one of the heads: {', '.join(bench.HEADS)}.")


def _shut(value, n: int) -> list[bool]:
    """Read the shut stopcocks: a list of word positions."""
    if value is None:
        return [False] * n
    if not isinstance(value, list) or len(value) > bench.MAX_WORDS:
        raise BenchInputError("shut", "The shut stopcocks must be a list of word positions.")
    shut = [False] * n
    for v in value:
        shut[_choice(v, "shut", n, "shut stopcock")] = True
    return shut


def _temperature(temperature, slider) -> float:
    """Read the temperature from the field or the log-scaled slider (as in the lab)."""
    try:
        if slider is not None:
            return lab.slider_temperature(slider)
        return lab._temperature(temperature)
    except lab.LabInputError as exc:
        raise BenchInputError("temperature", str(exc)) from None


def _table(W: np.ndarray, channels: list[int]) -> list[dict]:
    """Return the given channels of a weight matrix as rows labelled by feature, in full."""
    return [{"feature": f, "cells": [f"{x:g}".replace("-", "−") for x in row[channels]]}
            for f, row in zip(bench.FEATURES, W)]


def heads() -> list[dict]:
    """Return every head's behaviour, explanation and W_Q, W_K tables (they never change).

    Channels that are zero in both matrices are left out of the tables.

    >>> [(h["name"], h["channels"]) for h in heads()][1]
    ('sink', [0])
    """
    out = []
    for name, h in bench.HEADS.items():
        used = [c for c in range(h.W_Q.shape[1]) if h.W_Q[:, c].any() or h.W_K[:, c].any()]
        out.append({"name": name, "behaviour": h.behaviour, "why": h.why, "channels": used,
                    "features": list(bench.FEATURES), "d_k": h.W_Q.shape[1],
                    "unused": h.W_Q.shape[1] - len(used),
                    "W_Q": _table(h.W_Q, used), "W_K": _table(h.W_K, used)})
    return out


def _strips(q: np.ndarray, K: np.ndarray) -> list[dict]:
    """Return each key's eight terms q_c k_c: sign 'up'/'down'/'zero', size as a level 0..4
    against the row's largest term, and the terms as text."""
    terms = q[None, :] * K  # (n, d_k)
    top = np.abs(terms).max(axis=1, keepdims=True)  # (n, 1)
    levels = np.ceil(np.abs(terms) / np.where(top > 0, top, 1.0) * 4).astype(int)  # (n, d_k)
    signs = np.where(terms > 0, "up", np.where(terms < 0, "down", "zero"))  # (n, d_k)
    texts = fixed_all(terms.ravel(), 2).reshape(terms.shape)  # (n, d_k)
    return [{"signs": s.tolist(), "levels": lv.tolist(), "terms": ", ".join(tx)}
            for s, lv, tx in zip(signs, levels, texts)]


def _note(text, words: list[str]) -> str:
    """Say how typed text was read, when the bench changed it ("" when it did not).

    >>> _note("The car, then it!", ["the", "car", "then", "it"])
    'Read as “the car then it”: lower-cased, punctuation dropped.'
    >>> _note("the  car", ["the", "car"])
    ''
    """
    if text is None:
        return ""
    plain = " ".join(text.split())
    changes = [what for what, changed in (
        ("lower-cased", plain != plain.lower()),
        ("punctuation dropped", any(ch in text for ch in ".,;:!?"))) if changed]
    return f"Read as “{' '.join(words)}”: {', '.join(changes)}." if changes else ""


def lexicon() -> list[dict]:
    """Return the bench's lexicon grouped by class, for the page's word list.

    >>> [(g["class"], len(g["words"])) for g in lexicon()][3]
    ('pronoun', 4)
    """
    names = {"determiner": "Determiners", "noun": "Nouns", "verb": "Verbs",
             "pronoun": "Pronouns", "other": "Other words"}
    return [{"class": c, "label": names[c], "words": ws}
            for c, ws in bench.lexicon_by_class().items()]


def view(sentence=None, head="coreference", query=None, temperature="1", slider=None,
         shut=None, without=()) -> dict:
    """Return the bench's full state for a reader's choices; raise BenchInputError if bad.

    The keys are listed in the module docstring.

    ``without`` removes steps ("scale", "mask", "shift") for the what-if comparison in
    ``data["whatif"]`` (schema: attention.whatif.bench_entry).

    >>> v = view()
    >>> v["query"]["word"], [r["weight"]["text"] for r in v["rows"][:2]]
    ('she', ['0.000', '0.835'])
    """
    words = list(bench.DEFAULT_SENTENCE) if sentence is None else parse_sentence(sentence)
    n = len(words)
    _check_head(head)
    default_query = next((i for i, w in enumerate(words) if bench.LEXICON[w].word_class
                          == "pronoun"), n - 1)
    i = default_query if query is None else _choice(query, "query", n, "query")
    t = _temperature(temperature, slider)
    closed = _shut(shut, n)
    head_state = _head_state(tuple(words), head, t, tuple(closed))
    if not head_state.allowed[i].any():
        raise BenchInputError("shut", f"Every key “{words[i]}” may use is shut: nothing to "
                                      "pour. Open a stopcock.")
    Q = head_state.Q  # (n, d_k)
    rows, drawing, summary = _query_parts(tuple(words), head, t, tuple(closed), i)
    out = {
        "state": {"sentence": " ".join(words), "head": head, "query": i,
                  "temperature": typed(t), "shut": [j for j in range(n) if closed[j]]},
        "sentence": {"words": words, "text": " ".join(words), "note": _note(sentence, words)},
        "head": {"name": head, "behaviour": bench.HEADS[head].behaviour},
        "query": {"index": i, "word": words[i], "vector": shown(Q[i]),
                  "strip": _strips(Q[i], np.ones((1, len(Q[i]))))[0]},
        "temperature": {"value": t, "text": typed(t)}, "slider": lab.slider_position(t),
        "shut": [j for j in range(n) if closed[j]],
        "rows": rows,
        "matrix": head_state.matrix,
        "masks": head_state.masks,
        "empty": head_state.empty,
        "drawing": drawing,
        "summary": summary,
    }
    try:  # the what-if panel: the same row with steps removed (attention.whatif)
        removed = whatif.steps(without)
    except ValueError as exc:
        raise BenchInputError("without", f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None
    out["whatif"] = {**whatif.bench_entry(head_state.trace, removed, i, words,
                                          head_state.causal, closed),
                     "state": out["state"]}
    # The drawing shows the counterfactual too (ghost needles, a second core sample); the
    # cached drawing is copied, never changed.
    out["drawing"] = {**drawing, **_whatif_drawing(out["whatif"], drawing, _layout(n), t)} \
        if removed else {**drawing, "whatif": None}
    return out


@functools.lru_cache(maxsize=64)
def _query_parts(words: tuple, head: str, t: float, closed: tuple, i: int) -> tuple:
    """Return one query's table rows, drawing and summary; a reader clicking back and forth
    between rows gets them again at once. Callers must not change what it returns."""
    hs = _head_state(words, head, t, closed)
    words = list(words)
    rows = _rows(words, hs.trace, hs.Q[i], hs.K, i, hs.allowed[i], hs.causal[i], list(closed))
    drawing = _drawing(words, hs.trace, i, hs.allowed[i], hs.causal[i], t, rows)
    return rows, drawing, _summary(words, hs.trace.weights[i], i)


class _HeadState(NamedTuple):
    """Everything about a sentence under one head that does not depend on the query."""

    causal: np.ndarray  # (n, n)
    allowed: np.ndarray  # (n, n): causal, minus shut keys
    trace: object  # the attention.ops.Trace of every row
    Q: np.ndarray  # (n, d_k)
    K: np.ndarray  # (n, d_k)
    matrix: tuple  # per row, per column: None (masked) or (weight text, shade level 0..10)
    masks: tuple  # per row a string: "a" allowed, "f" later word (causal mask), "s" shut
    empty: tuple  # per row: True when every key the row may use is shut


@functools.lru_cache(maxsize=16)
def _head_state(words: tuple, head: str, t: float, closed: tuple) -> _HeadState:
    """Run a head over the whole sentence once; clicking through queries reuses it."""
    n = len(words)
    causal = bench.causal_mask(n)  # (n, n)
    allowed = causal & ~np.array(closed)[None, :]  # (n, n); a shut key is shut for every query
    empty = ~allowed.any(axis=1)  # (n,); rows left with nothing, drawn as such in the matrix
    tr = bench.trace(list(words), head, t, mask=np.where(empty[:, None], causal, allowed))
    X = bench.encode(list(words))  # (n, 11)
    h = bench.HEADS[head]
    texts = fixed_all(tr.weights.ravel()).reshape(n, n) if n else []  # (n, n)
    levels = np.rint(tr.weights * 10).astype(int)  # (n, n)
    matrix = tuple(tuple(None if not allowed[r, c] or empty[r] else (texts[r][c], int(levels[r, c]))
                         for c in range(n)) for r in range(n))
    masks = tuple("".join("a" if allowed[r, c] else "f" if not causal[r, c] else "s"
                          for c in range(n)) for r in range(n))
    return _HeadState(causal, allowed, tr, X @ h.W_Q, X @ h.W_K, matrix, masks,
                      tuple(bool(e) for e in empty))


def matrix_weights(sentence=None, head="coreference", temperature="1", slider=None,
                   shut=None, **_) -> list[list[float]]:
    """Return the current head's full attention matrix at full precision (0 where masked)."""
    words = list(bench.DEFAULT_SENTENCE) if sentence is None else parse_sentence(sentence)
    _check_head(head)
    t = _temperature(temperature, slider)
    hs = _head_state(tuple(words), head, t, tuple(_shut(shut, len(words))))
    return np.where(hs.allowed, hs.trace.weights, 0.0).tolist()


def _num(x) -> int | float:
    """Return x as an int when it is whole, so Jinja and JavaScript print it alike ("85").

    >>> _num(85.0), _num(-0.0), _num(0.125)
    (85, 0, 0.125)
    """
    x = float(x)
    return int(x) if x == int(x) else x


def _look(j: int) -> dict:
    """Return word j's colour (cycling through PALETTE) and texture (one per lap of it)."""
    return {"colour": j % PALETTE, "pattern": (j // PALETTE) % PATTERNS}


def _row_note(allowed: bool, causal: bool) -> str:
    """Say why a key gets no weight, for screen readers ("" when it is open)."""
    return "" if allowed else " (comes later: masked)" if not causal else " (stopcock shut)"


def _rows(words, tr, q, K, i, allowed, causal, closed) -> list[dict]:
    """Return the working table's rows for query i."""
    strips = _strips(q, K)
    return [{
        "index": j, "word": w, **_look(j), "allowed": bool(allowed[j]),
        "future": not causal[j], "shut": closed[j], "is_query": j == i,
        "note": _row_note(bool(allowed[j]), bool(causal[j])),
        "strip": strips[j],
        "dot": shown(tr.scores[i, j]), "scaled": shown(tr.scaled[i, j]),
        "tempered": shown(tr.tempered[i, j]),
        "exp": shown(tr.exp[i, j]) if allowed[j] else {"value": 0.0, "text": "0.000"},
        "weight": shown(tr.weights[i, j]), "bar": _num(round(float(tr.weights[i, j]), 4)),
    } for j, w in enumerate(words)]


def _summary(words, weights, i) -> str:
    """Say the current row in words, heaviest first, for the drawing's text alternative."""
    order = np.argsort(-weights, kind="stable")  # (n,)
    parts = [f"{words[j]} {fixed(weights[j])}" for j in order if weights[j] >= 0.0005]
    return f"query {words[i]}: " + ", ".join(parts[:6]) + ("" if len(parts) <= 6 else ", …")


class _Layout(NamedTuple):
    """Where the drawing's stations sit (SVG units) for a sentence of n words."""

    xs: list  # each word's x, in rows of COLUMNS
    rows: list  # each word's row
    plate: float  # the plate's top
    tank: float  # the tank's top
    valves: float  # the first row of stopcocks' centre
    tray: float  # the tray's top
    height: float  # the whole drawing


DIAL_Y, DIAL_ROW, LABELS = 118, 176, 150  # first dial row's centre, row pitch, label room
VALVE_ROW = 76  # stopcock row pitch


def _layout(n: int) -> _Layout:
    """Lay out n words: dials and stopcocks in rows of at most COLUMNS, stations below.

    >>> _layout(8).height, _layout(40).height
    (600, 1608)
    """
    cols = min(n, COLUMNS)
    lines = -(-n // COLUMNS)
    pitch = (WIDTH - 80) / cols  # at least 90: room for a word and its reading
    xs = [_num(round(40 + pitch * (j % cols + 0.5), 3)) for j in range(n)]
    plate = DIAL_Y + (lines - 1) * DIAL_ROW + LABELS
    tank = plate + 36
    valves = tank + 90
    tray = valves + (lines - 1) * VALVE_ROW + 40
    return _Layout(xs, [j // cols for j in range(n)], plate, tank, valves, tray, tray + 166)


CARRIAGE_HALF, RAIL = 62, (36, WIDTH - 36)  # the carriage's half-width; where it may ride


def _carriage_x(x: float) -> float:
    """Centre the carriage over the query's dial, but keep it on the rail, clear of the step
    badges at the left edge (x 9 to 31): the first and last dials are nearer the edge.

    >>> _carriage_x(85), _carriage_x(400), _carriage_x(715)
    (98, 400, 702)
    """
    return min(max(x, RAIL[0] + CARRIAGE_HALF), RAIL[1] - CARRIAGE_HALF)


def _dial_angle(gap: float) -> float:
    """Return a needle's angle for a key reading `gap` below the best open key: 0 (upright)
    for the best, leaning left to -90 (flat) at DIAL_SPAN or more below.

    >>> _dial_angle(0.0), _dial_angle(DIAL_SPAN / 2), _dial_angle(3 * DIAL_SPAN)
    (0.0, -45.0, -90.0)
    """
    return round(-90.0 * min(gap / DIAL_SPAN, 1.0), 2) + 0.0


def _dials(words, scores, i, allowed, causal, rows, lay) -> list[dict]:
    """Return one dial per key: it reads the raw q·k, as the table's q·k column does."""
    top = scores[allowed].max()
    out = []
    for j, w in enumerate(words):
        state = "live" if allowed[j] else "shut" if causal[j] else "dead"
        gap = float(top - scores[j])
        best = bool(allowed[j] and gap <= 0)
        why = {"live": " (the best match)" if best else "", "shut": " (stopcock shut)",
               "dead": " (comes later: masked)"}[state]
        out.append({"index": j, "x": lay.xs[j], "y": DIAL_Y + lay.rows[j] * DIAL_ROW,
                    "word": w, **_look(j), "state": state, "best": best, "is_query": j == i,
                    "angle": _num(_dial_angle(gap) if allowed[j] else -90.0),
                    "pinned": bool(allowed[j] and gap >= DIAL_SPAN),
                    "reading": rows[j]["dot"]["text"],
                    "label": f"{w}, word {j}: q·k {rows[j]['dot']['text']}{why}"})
    return out


def _handle(is_open: bool) -> list[int]:
    """Return a stopcock handle's line (x1, y1, x2, y2): along the pipe when open, across it
    when shut."""
    return [0, -11, 0, 11] if is_open else [-11, 0, 11, 0]


def _valves(words, weights, i, allowed, causal, lay) -> list[dict]:
    """Return one stopcock per key: open or shut, and the stream it lets through."""
    out = []
    for j, w in enumerate(words):
        x, y = lay.xs[j], lay.valves + lay.rows[j] * VALVE_ROW
        is_open = bool(allowed[j])
        state = "open" if is_open else "shut" if causal[j] else "shut (it comes after the query)"
        out.append({"index": j, "x": x, "y": y, "word": w, **_look(j),
                    "open": is_open, "can_turn": bool(causal[j]),
                    "handle": _handle(is_open),
                    "stream": f"M 0 16 L 0 30 L {_num(round(WIDTH / 2 - x, 3))} {_num(lay.tray - y)}",
                    "flow": _num(round(float(weights[j]) * 16.0, 3)),
                    "label": f"Stopcock of {w} (word {j})", "state": state})
    return out


def _strata(words, weights, lay) -> list[dict]:
    """Return the tray's strata, the first word at the bottom, thickness = weight."""
    strata, y = [], float(lay.tray + 4 + TRAY_HEIGHT)
    for j, w in enumerate(words):
        h = float(weights[j] * TRAY_HEIGHT)
        y -= h
        strata.append({"index": j, **_look(j), "y": _num(round(y, 3)),
                       "height": _num(round(h, 3)),
                       "label": h >= LABEL_MIN / 2, "wide": h >= LABEL_MIN,
                       "label_y": _num(round(y + h / 2 + 5, 3)),
                       "text": f"{w} {fixed(weights[j])}"})
    return strata


def _drawing(words, tr, i, allowed, causal, t, rows) -> dict:
    """Return the bench drawing's geometry in SVG units (FIG-004, templates/figures)."""
    n = len(words)
    lay = _layout(n)
    valves = _valves(words, tr.weights[i], i, allowed, causal, lay)
    lines = sorted(set(lay.rows))
    radius = 26
    return {
        "viewbox": f"0 0 {WIDTH} {lay.height}",
        "callouts": [{"n": k, "y": y} for k, y in enumerate(
            [40, DIAL_Y, lay.plate + 14, lay.tank + 28, lay.valves, lay.tray + 80], start=1)],
        "needle": _num(round(radius * 0.9, 3)),
        "face": f"M {-radius} 0 A {radius} {radius} 0 0 1 {radius} 0",  # open: no base line
        "tick": [0, -radius, 0, -radius + 7], "hub": 3, "label_y": [18, 34],
        "valve": {"radius": 16, "ring": 22, "pipe": [0, -26, 0, -16], "hit": [-32, -32, 64, 64]},
        "legend": {"y": lay.plate - 44, "text": f"q·k before the plate: the needle stands upright "
                   f"for the best open key and lies flat {DIAL_SPAN} or more below it"},
        "stratum": {"x": 340, "width": 120, "label_x": 472},
        "carriage": {"x": _carriage_x(lay.xs[i]), "y": 40, "word": words[i],
                     "cells": [-56 + 14 * c for c in range(bench.D_K)]},
        "dials": _dials(words, tr.scores[i], i, allowed, causal, rows, lay),
        "plate": f"÷ √{bench.D_K}" + ("" if t == lab.NEUTRAL_T else f" ÷ T ({typed(t)})"),
        "plate_box": {"y": lay.plate, "text_y": lay.plate + 19},
        "tank": {"y": lay.tank, "fluid_y": lay.tank + 6, "text_y": lay.tank + 34},
        "pipe": [lay.tank + 56, lay.valves - 26 + lines[-1] * VALVE_ROW],
        "manifolds": [[min(v["x"] for v in valves if lay.rows[v["index"]] == r),
                       max(v["x"] for v in valves if lay.rows[v["index"]] == r),
                       lay.valves - 26 + r * VALVE_ROW] for r in lines],
        "valves": valves,
        "tray_y": lay.tray, "tray_height": TRAY_HEIGHT + 8,
        "strata": _strata(words, tr.weights[i], lay),
    }


# ---- What if a step were missing: the counterfactual drawn on the bench ----

GHOST_TIP = 4  # the open circle at a ghost needle's tip ...
GHOST_PAST = 10  # ... which a needle off the dial's scale carries this far past the rim
SAMPLE_X = 194  # the counterfactual core sample's strata, left of the tray (which is at 336)
SAMPLE_DROP = 12  # ... and this much lower: the streams pass just above the tray's top
NOTE_CHARS = 42  # the note under the drawing wraps at this many characters (phone-sized text)
NOTE_TOP, NOTE_LINE = 34, 36  # the note's first baseline below the tray's bottom, line pitch


def _wrap(text: str, width: int = NOTE_CHARS) -> list[str]:
    """Break a note into as few lines of at most ``width`` characters as it needs, at spaces,
    and make them about equally long (no word left alone on the last line).

    >>> _wrap("eᶻ overflows: 1.8×10³⁰⁸ is the largest double; the naive weights are undefined.")
    ['eᶻ overflows: 1.8×10³⁰⁸ is the largest', 'double; the naive weights are undefined.']
    >>> _wrap("one two three four", 14)
    ['one two', 'three four']
    """
    def greedy(w: int) -> list[str]:
        lines: list[str] = []
        for word in text.split():
            if lines and len(lines[-1]) + 1 + len(word) <= w:
                lines[-1] += " " + word
            else:
                lines.append(word)
        return lines

    best = greedy(width)
    for w in range(width - 1, 0, -1):  # the narrowest width that needs no more lines
        lines = greedy(w)
        if len(lines) > len(best) or max(map(len, lines)) > w:
            break
        best = lines
    return best


def _ghosts(keys: list[dict], dials: list[dict], t: float, needle: float) -> list[dict]:
    """One ghost needle per key the counterfactual lets through, on the real dial's scale.

    A real needle leans by its raw q·k below the best open key, flat at DIAL_SPAN: that is a
    softmax input DIAL_SPAN / √d_k / T below the best. A ghost leans by its counterfactual
    softmax input below the best key it may use, on that same scale (so without ÷√d_k it
    leans √d_k times as far); one at or past flat is ``off`` the scale, and its tip is drawn
    past the dial's rim. With the same input it stands exactly where the real needle does.
    """
    z = [k["z"]["value"] for k in keys]
    top = max(z[k["index"]] for k in keys if k["open"])
    flat = DIAL_SPAN / math.sqrt(bench.D_K) / t  # a softmax-input gap: the needle lies flat
    out = []
    for k in keys:
        if k["open"]:
            j, gap = k["index"], top - z[k["index"]]
            off = bool(gap >= flat)
            out.append({"index": j, "x": dials[j]["x"], "y": dials[j]["y"],
                        "angle": _num(_dial_angle(gap / flat * DIAL_SPAN)), "off": off,
                        "end": _num(-(needle + GHOST_PAST) if off else -needle)})
    return out


def _whatif_note(w: dict, ghosts: list[dict], dials: list[dict],
                 opened: int) -> list[tuple[str, bool]]:
    """Say in words what the dashed parts show, and, when the naive softmax fails, that it
    does (the drawing then has no weights to show): lines of (text, is the failure), each
    sentence starting a line.

    Without the max-shift alone every dashed needle lies on its real one (the shift changes
    no gap between the scores), so the note names only the sample, and says why."""
    title = w["title"][:1].lower() + w["title"][1:]
    needles_move = bool({"scale", "mask"} & set(w["without"]))
    shown = "Dashed needles and the left sample" if needles_move else "The left sample"
    said = f"{shown}: {title}."
    sentences = [said] if len(said) <= NOTE_CHARS else [f"{shown}:", f"{title}."]
    if opened:
        sentences.append(f"{opened} later stopcock{'s open' if opened > 1 else ' opens'}.")
    cf = w["counterfactual"]
    if not cf["failure"]:  # (with no weights, what the needles do matters less)
        sentences.append(_needles_said(needles_move, ghosts, dials))
    lines = [(line, False) for x in sentences for line in _wrap(x)]
    if cf["failure"]:
        lines += [(line, True) for line in _wrap(cf["message"] + ".")]
    return lines


def _needles_said(needles_move: bool, ghosts: list[dict], dials: list[dict]) -> str:
    """What the dashed needles do: nothing (the max-shift alone), or how many leave the scale."""
    if not needles_move:
        return "The needles do not move: the max-shift changes no gap between the scores."
    left = sum(g["off"] and dials[g["index"]]["state"] == "live" and not dials[g["index"]]["pinned"]
               for g in ghosts)  # on the real dial's scale, off it without the steps
    return ("No needle falls off the dial's scale." if not left else
            "1 needle that was on the dial's scale falls off it." if left == 1 else
            f"{left} needles that were on the dial's scale fall off it.")


def _whatif_drawing(w: dict, drawing: dict, lay: _Layout, t: float) -> dict:
    """Return the drawing's additions when steps are removed: a taller ``viewbox`` (room for
    the note) and ``whatif``.

    ``whatif``: ``{"tip": radius, "ghosts": [{"index", "x", "y", "angle", "off", "end"}]``
    (one per key the counterfactual lets through; ``off``: at or past flat, off the scale;
    ``end``: the upright needle's tip y, past the rim when off), ``"valves": [{"index",
    "x", "y", "handle"}]`` (the stopcocks it opens, each with its open handle), ``"sample":
    {"tray": {"x", "y", "width", "height"}, "x", "width", "label_x", "strata": [stratum]}``
    (the counterfactual core sample; as ``strata``, plus ``word`` and ``number``; empty when
    the naive softmax fails), ``"failure": str | None``, ``"note": [{"text", "x", "y",
    "failure"}]}`` (lines of text under the tray, and in the empty sample when the naive
    softmax fails).
    """
    keys = w["keys"]
    ghosts = _ghosts(keys, drawing["dials"], t, drawing["needle"])
    valves = [{"index": v["index"], "x": v["x"], "y": v["y"], "handle": _handle(True)}
              for v, k in zip(drawing["valves"], keys) if k["open"] and not v["open"]]
    failure = w["counterfactual"]["failure"]
    low = lay._replace(tray=lay.tray + SAMPLE_DROP)  # the sample's tray: lower than the real one
    strata = [] if failure else [
        {**s, "word": k["word"], "number": k["counterfactual"]["text"]}
        for s, k in zip(_strata([k["word"] for k in keys],
                                np.array([k["counterfactual"]["value"] for k in keys]), low), keys)]
    lines = _whatif_note(w, ghosts, drawing["dials"], len(valves))
    bottom = lay.height + NOTE_TOP
    height = bottom + (len(lines) - 1) * NOTE_LINE + 16
    sample = {"tray": {"x": SAMPLE_X - 4, "y": low.tray, "width": drawing["stratum"]["width"] + 8,
                       "height": TRAY_HEIGHT + 8},
              "x": SAMPLE_X, "width": drawing["stratum"]["width"], "label_x": SAMPLE_X - 12,
              "strata": strata}
    note = [{"text": line, "x": WIDTH // 2, "y": bottom + k * NOTE_LINE, "failure": bad}
            for k, (line, bad) in enumerate(lines)]
    if failure:  # the empty sample says why it is empty
        mid = _num(SAMPLE_X + drawing["stratum"]["width"] / 2)
        note += [{"text": text, "x": mid, "y": _num(low.tray + TRAY_HEIGHT / 2 + dy),
                  "failure": True} for text, dy in zip(whatif.NO_WEIGHTS.split(), (-6, 30))]
    return {"viewbox": f"0 0 {WIDTH} {height}",
            "whatif": {"tip": GHOST_TIP, "ghosts": ghosts,
                       "valves": valves, "sample": sample, "failure": failure, "note": note}}
