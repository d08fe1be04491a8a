"""The bench page's figure data: the working table, the attention matrix and the drawing.

``view()`` takes the reader's state (sentence, head, query word, temperature, shut
stopcocks) and returns plain, JSON-safe data, geometry included, so the page only
places what it is given. Bad input raises ``BenchInputError`` naming the field.
"""

from __future__ import annotations

import difflib
import functools
from typing import NamedTuple

import numpy as np

from . import bench, lab, whatif
from .numbers import fixed, fixed_all, shown, typed

__all__ = ["BenchInputError", "WIDTH", "heads", "matrix_weights", "parse_sentence", "view"]

WIDTH = 800  # the drawing's width in SVG units; everything scales with the page
DIAL_SPAN = 8.0  # a dial covers readings from the top reading down to DIAL_SPAN below it
PALETTE = 8  # word colours cycle through this many (Okabe–Ito), by position
TRAY = (560, 150)  # the core sample's bottom y and full height: one unit of attention


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
    attention.bench_view.BenchInputError: Not in the lexicon: “sawe” (try saw, lawyer), “brige” (try bridge).
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
            near = difflib.get_close_matches(w, bench.LEXICON.keys(), n=2, cutoff=0.6)
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


def view(sentence=None, head="coreference", query=None, temperature="1", slider=None,
         shut=None, without=()) -> dict:
    """Return the bench's full state for a reader's choices; raise BenchInputError if bad.

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
    allowed, causal, tr = head_state.allowed, head_state.causal, head_state.trace
    if not allowed[i].any():
        raise BenchInputError("shut", f"Every key “{words[i]}” may use is shut: nothing to "
                                      "pour. Open a stopcock.")
    Q, K = head_state.Q, head_state.K  # (n, d_k) each
    out = {
        "state": {"sentence": " ".join(words), "head": head, "query": i,
                  "temperature": typed(t), "shut": [j for j in range(n) if closed[j]]},
        "sentence": {"words": words, "text": " ".join(words)},
        "head": {"name": head, "behaviour": bench.HEADS[head].behaviour},
        "query": {"index": i, "word": words[i], "vector": shown(Q[i]),
                  "strip": _strips(Q[i], np.ones((1, len(Q[i]))))[0]},
        "temperature": {"value": t, "text": typed(t)}, "slider": lab.slider_position(t),
        "shut": [j for j in range(n) if closed[j]],
        "rows": _rows(words, tr, Q[i], K, i, allowed[i], causal[i], closed),
        "matrix": head_state.matrix,
        "drawing": _drawing(words, tr, i, allowed[i], causal[i], t),
        "summary": _summary(words, tr.weights[i], i),
    }
    try:  # the what-if panel: the same row with steps removed (attention.whatif)
        removed = whatif.steps(without)
    except ValueError as exc:
        raise BenchInputError("without", f"{str(exc)[:1].upper()}{str(exc)[1:]}.") from None
    out["whatif"] = {**whatif.bench_entry(tr, removed, i, words, causal, closed),
                     "state": out["state"]}
    return out


class _HeadState(NamedTuple):
    """Everything about a sentence under one head that does not depend on the query."""

    causal: np.ndarray  # (n, n)
    allowed: np.ndarray  # (n, n): causal, minus shut keys
    trace: object  # the attention.ops.Trace of every row
    Q: np.ndarray  # (n, d_k)
    K: np.ndarray  # (n, d_k)
    matrix: tuple  # per row, per column: None (masked) or (weight text, shade level 0..10)


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
    return _HeadState(causal, allowed, tr, X @ h.W_Q, X @ h.W_K, matrix)


def matrix_weights(sentence=None, head="coreference", temperature="1", slider=None,
                   shut=None, **_) -> list[list[float]]:
    """Return the current head's full attention matrix at full precision (0 where masked)."""
    words = list(bench.DEFAULT_SENTENCE) if sentence is None else parse_sentence(sentence)
    _check_head(head)
    t = _temperature(temperature, slider)
    hs = _head_state(tuple(words), head, t, tuple(_shut(shut, len(words))))
    return np.where(hs.allowed, hs.trace.weights, 0.0).tolist()


def _rows(words, tr, q, K, i, allowed, causal, closed) -> list[dict]:
    """Return the working table's rows for query i."""
    strips = _strips(q, K)
    return [{
        "index": j, "word": w, "colour": j % PALETTE, "allowed": bool(allowed[j]),
        "future": not causal[j], "shut": closed[j], "is_query": j == i,
        "strip": strips[j],
        "dot": shown(tr.scores[i, j]), "scaled": shown(tr.scaled[i, j]),
        "tempered": shown(tr.tempered[i, j]),
        "exp": shown(tr.exp[i, j]) if allowed[j] else {"value": 0.0, "text": "0.000"},
        "weight": shown(tr.weights[i, j]),
    } for j, w in enumerate(words)]


def _summary(words, weights, i) -> str:
    """Say the current row in words, heaviest first, for the drawing's text alternative."""
    order = np.argsort(-weights, kind="stable")  # (n,)
    parts = [f"{words[j]} {fixed(weights[j])}" for j in order if weights[j] >= 0.0005]
    return f"query {words[i]}: " + ", ".join(parts[:6]) + ("" if len(parts) <= 6 else ", …")


def _drawing(words, tr, i, allowed, causal, t) -> dict:
    """Return the bench drawing's geometry in SVG units (see templates/figures/bench.html)."""
    n = len(words)
    pitch = (WIDTH - 80) / n  # horizontal room for each word
    xs = [40 + pitch * (j + 0.5) for j in range(n)]
    z = tr.tempered[i]  # (n,)
    top = z[allowed].max()
    bottom, height = TRAY
    strata, y = [], float(bottom)
    for j in range(n):  # the tray fills from the first word up
        h = float(tr.weights[i, j] * height)
        y -= h
        strata.append({"index": j, "colour": j % PALETTE, "y": round(y, 3), "height": round(h, 3),
                       "label": h >= 14, "label_y": round(y + h / 2 + 4, 3),
                       "text": f"{words[j]} {fixed(tr.weights[i, j])}"})
    radius = min(26.0, pitch * 0.42)
    return {
        "needle": round(radius * 0.9, 3),
        "face": f"M {-radius:.3f} 0 A {radius:.3f} {radius:.3f} 0 0 1 {radius:.3f} 0 Z",
        "labels": pitch >= 34, "valve_radius": round(min(9.0, pitch * 0.3), 3),
        "manifold": [round(xs[0], 3), round(xs[-1], 3)],
        "carriage": {"x": round(xs[i], 3), "word": words[i],
                     "cells": [-56 + 14 * c for c in range(bench.D_K)]},
        "dials": [{"index": j, "x": round(xs[j], 3), "word": words[j], "colour": j % PALETTE,
                   "state": "live" if allowed[j] else "shut" if causal[j] else "dead",
                   "angle": round(float(180 * min(max(1 + (z[j] - top) / DIAL_SPAN, 0), 1) - 90), 2)
                   if allowed[j] else -90.0,
                   "pinned": bool(allowed[j] and z[j] - top < -DIAL_SPAN)} for j in range(n)],
        "plate": f"÷ √{bench.D_K}" + ("" if t == lab.NEUTRAL_T else f" ÷ T ({typed(t)})"),
        "valves": [{"index": j, "x": round(xs[j], 3), "word": words[j], "colour": j % PALETTE,
                    "open": bool(allowed[j]), "can_turn": bool(causal[j]),
                    "stream": f"M 0 9 L 0 25 L {WIDTH / 2 - xs[j]:.3f} 62",
                    "flow": round(float(tr.weights[i, j]) * min(18.0, pitch * 0.5), 3)}
                   for j in range(n)],
        "strata": strata,
    }
