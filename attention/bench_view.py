"""The bench page's figure data: the working table, the attention matrix and the drawing.

``view()`` takes the reader's state (sentence, head, query word, temperature, shut
stopcocks) and returns plain, JSON-safe data, geometry included, so the page only
places what it is given. Bad input raises ``BenchInputError`` naming the field.

The answer's keys (see ``view``): ``state``, ``sentence`` (``words``, ``names``: the words as
the drawing and the matrix name them, a repeated one with its position; ``text``; and ``note``,
which says how typed text was read: lower-cased, punctuation dropped, or ""), ``head``,
``query``, ``temperature``, ``slider``, ``shut``, ``rows`` (the working table, one per
word), ``total`` (its last row: ``exp``, the sum of e^(z − max) each weight divides, and
``weight``, the weights' sum), ``matrix`` (per row, per column: None where masked, else
[weight text, shade 0..10]),
``masks`` (per row a string, one letter per column: "a" allowed, "f" later word under the
causal mask, "s" stopcock shut), ``empty`` (per row: True when every key it may use is shut),
``drawing`` (the drawing's geometry: ``bench_drawing``) and ``summary`` (the row in one
sentence, which the page also announces).

Its parts live beside it: the inputs' parsers (``bench_input``), the head and lexicon tables
(``bench_tables``), the drawing's geometry (``bench_drawing``) and its what-if parts
(``bench_whatif``).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from . import bench, bench_walk, catalog, lab, whatif, whatif_panel
from .bench_drawing import WIDTH, layout, look, names, plain
from .bench_drawing import drawing as _drawing
from .bench_input import (BenchInputError, check_head, parse_position, parse_shut, parse_sentence,
                          parse_temperature, reading_note)
from .bench_tables import heads, lexicon
from .bench_whatif import whatif_drawing
from .catalog import say
from .lexicon import default_sentence, first_word
from .numbers import fixed, fixed_all, shown, typed

__all__ = ["BenchInputError", "WIDTH", "heads", "lexicon", "matrix_weights", "parse_sentence",
           "view"]


def view(sentence=None, head="coreference", query=None, temperature="1", slider=None,
         shut=None, without=()) -> dict:
    """Return the bench's full state for a reader's choices; raise BenchInputError if bad.

    The keys are listed in the module docstring.

    ``without`` removes steps ("scale", "mask", "shift") for the what-if comparison in
    ``data["whatif"]`` (schema: attention.whatif_panel.bench_entry).

    >>> v = view()
    >>> v["query"]["word"], [r["weight"]["text"] for r in v["rows"][:2]]
    ('she', ['0.000', '0.835'])
    """
    words = list(default_sentence()) if sentence is None else parse_sentence(sentence)
    n = len(words)
    check_head(head)
    i = first_word(words) if query is None else parse_position(query, "query", n, say("bench-input.what-query"))
    t = parse_temperature(temperature, slider)
    closed = parse_shut(shut, n)
    head_state = _head_state(tuple(words), head, t, tuple(closed))
    if not head_state.allowed[i].any():
        raise BenchInputError("shut", say("bench-view.all-shut", word=words[i]))
    Q = head_state.Q  # (n, d_k)
    rows, drawing, summary, said = _query_parts(tuple(words), head, t, tuple(closed), i,
                                                catalog.spoken())
    labels = names(words)  # as the drawing, the matrix and the what-if name the words
    out = {
        "state": {"sentence": " ".join(words), "head": head, "query": i,
                  "temperature": typed(t), "shut": [j for j in range(n) if closed[j]]},
        "sentence": {"words": words, "names": labels, "text": " ".join(words),
                     "note": reading_note(sentence, words)},
        "head": {"name": head, "behaviour": bench.HEADS[head].behaviour, "here": said["here"]},
        "query": {"index": i, "word": words[i], "vector": shown(Q[i]),
                  "strip": _strips(Q[i], np.ones((1, len(Q[i]))))[0]},
        "temperature": {"value": t, "text": typed(t)}, "slider": lab.slider_position(t),
        "shut": [j for j in range(n) if closed[j]],
        "rows": rows,
        "total": _total(head_state.trace, i),
        **_head_matrix(tuple(words), head, t, tuple(closed)),
        "drawing": drawing,
        "summary": summary,
        "announce": say("bench-view.announce", head=head, t=typed(t), summary=summary),
        "output": said["output"],
        "walk": said["walk"],
        "heads_here": _heads_here(tuple(words), t, tuple(closed), i),
    }
    try:  # the what-if panel: the same row with steps removed (attention.whatif)
        removed = whatif.steps(without)
    except ValueError as exc:
        raise BenchInputError("without", say("bench-view.without",
                                             reason=f"{str(exc)[:1].upper()}{str(exc)[1:]}")) from None
    out["whatif"] = {**whatif_panel.bench_entry(head_state.trace, removed, i, labels,
                                          head_state.causal, closed),
                     "state": out["state"]}
    # The drawing shows the counterfactual too (ghost needles, a second core sample); the
    # cached drawing is copied, never changed.
    lay = layout(n)._replace(height=drawing["height"])  # the tray's labels may run lower
    out["drawing"] = {**drawing, **whatif_drawing(out["whatif"], drawing, lay, t)} \
        if removed else {**drawing, "whatif": None}
    return out


@functools.lru_cache(maxsize=64)
def _query_parts(words: tuple, head: str, t: float, closed: tuple, i: int, lang: str) -> tuple:
    """Return one query's table rows, drawing, summary and words (the head's shares here, the
    output vector, the walk); a reader clicking back and forth between rows gets them again at
    once. Callers must not change what it returns. ``lang``: the language spoken now
    (catalog.spoken()), which its words are in: one language's are never another's."""
    hs = _head_state(words, head, t, closed)
    words = list(words)
    rows = _rows(words, hs.trace, hs.Q[i], hs.K, i, hs.allowed[i], hs.causal[i], list(closed))
    q_text = shown(hs.Q[i])["text"]
    drawing = _drawing(words, hs.trace, i, hs.allowed[i], hs.causal[i], t, rows, q_text)
    o = hs.trace.output[i]  # (11,): o = Σ a_j v_j, each value a word's own features
    said = {"here": bench_walk.head_here(words, hs.trace.weights[i], i, hs.allowed[i]),
            "output": bench_walk.output(o),
            "walk": bench_walk.walk(words, head, typed(t), i, rows, q_text, o,
                                    closed)}
    return rows, drawing, _summary(words, hs.trace.weights[i], i), said


def _heads_here(words: tuple, t: float, closed: tuple, i: int) -> list[dict]:
    """Say, for every head, where the current query's unit goes on this sentence (the heads' cards)."""
    out = []
    for name in bench.HEADS:
        hs = _head_state(words, name, t, closed)
        out.append({"name": name, "here": bench_walk.head_here(
            list(words), hs.trace.weights[i], i, hs.allowed[i])})
    return out


class _HeadState(NamedTuple):
    """Everything about a sentence under one head that does not depend on the query."""

    causal: np.ndarray  # (n, n)
    allowed: np.ndarray  # (n, n): causal, minus shut keys
    trace: object  # the attention.ops.Trace of every row
    Q: np.ndarray  # (n, d_k)
    K: np.ndarray  # (n, d_k)
    empty: tuple  # per row: True when every key the row may use is shut


@functools.lru_cache(maxsize=16)
def _head_state(words: tuple, head: str, t: float, closed: tuple) -> _HeadState:
    """Run a head over the whole sentence once; clicking through queries reuses it (and
    the heads' cards run every head, for the current query's row alone)."""
    causal = bench.causal_mask(len(words))  # (n, n)
    allowed = causal & ~np.array(closed)[None, :]  # (n, n); a shut key is shut for every query
    empty = ~allowed.any(axis=1)  # (n,); rows left with nothing, drawn as such in the matrix
    tr = bench.trace(list(words), head, t, mask=np.where(empty[:, None], causal, allowed))
    X = bench.encode(list(words))  # (n, 11)
    h = bench.HEADS[head]
    return _HeadState(causal, allowed, tr, X @ h.W_Q, X @ h.W_K, tuple(bool(e) for e in empty))


@functools.lru_cache(maxsize=16)
def _head_matrix(words: tuple, head: str, t: float, closed: tuple) -> dict:
    """The attention matrix for the head on screen, as text: written for that head alone (at 40
    words, 1,600 numbers; the other heads' cards need one row of theirs).

    "matrix": per row, per column, None (masked) or [weight text, shade level 0..10];
    "masks": per row a string, "a" allowed, "f" later word (causal mask), "s" shut;
    "empty": per row, True when every key the row may use is shut.
    """
    hs = _head_state(words, head, t, closed)
    n = len(words)
    allowed, causal, empty = hs.allowed, hs.causal, hs.empty
    texts = fixed_all(hs.trace.weights.ravel()).reshape(n, n) if n else []  # (n, n)
    levels = np.rint(hs.trace.weights * 10).astype(int)  # (n, n)
    matrix = tuple(tuple(None if not allowed[r, c] or empty[r] else (texts[r][c], int(levels[r, c]))
                         for c in range(n)) for r in range(n))
    masks = tuple("".join("a" if allowed[r, c] else "f" if not causal[r, c] else "s"
                          for c in range(n)) for r in range(n))
    return {"matrix": matrix, "masks": masks, "empty": empty}


def matrix_weights(sentence=None, head="coreference", temperature="1", slider=None,
                   shut=None, **_) -> list[list[float]]:
    """Return the current head's full attention matrix at full precision (0 where masked)."""
    words = list(default_sentence()) if sentence is None else parse_sentence(sentence)
    check_head(head)
    t = parse_temperature(temperature, slider)
    hs = _head_state(tuple(words), head, t, tuple(parse_shut(shut, len(words))))
    return np.where(hs.allowed, hs.trace.weights, 0.0).tolist()


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


def _row_note(allowed: bool, causal: bool) -> str:
    """Say why a key gets no weight, for screen readers ("" when it is open)."""
    return "" if allowed else say("bench-view.later") if not causal else say("bench-view.shut")


def _rows(words, tr, q, K, i, allowed, causal, closed) -> list[dict]:
    """Return the working table's rows for query i."""
    strips = _strips(q, K)
    return [{
        "index": j, "word": w, **look(j), "allowed": bool(allowed[j]),
        "future": not causal[j], "shut": closed[j], "is_query": j == i,
        "note": _row_note(bool(allowed[j]), bool(causal[j])),
        "strip": strips[j],
        "dot": shown(tr.scores[i, j]), "scaled": shown(tr.scaled[i, j]),
        "tempered": shown(tr.tempered[i, j]),
        "exp": shown(tr.exp[i, j]) if allowed[j] else {"value": 0.0, "text": "0.000"},
        "weight": shown(tr.weights[i, j]), "bar": plain(round(float(tr.weights[i, j]), 4)),
    } for j, w in enumerate(words)]


def _total(tr, i) -> dict:
    """The working table's last row: the sum of e^(z − max) over the keys query i may use
    (a shut or later key's is 0), which every weight is divided by, and the weights' sum, 1.

    >>> t = _total(bench.trace(["the", "car", "and", "it"], "sink"), 3)
    >>> t["weight"]["text"]
    '1.000'
    """
    return {"exp": shown(tr.exp[i].sum()), "weight": shown(tr.weights[i].sum())}  # (m,) summed


def _summary(words, weights, i) -> str:
    """Say the current row in words, heaviest first, for the drawing's text alternative."""
    order = np.argsort(-weights, kind="stable")  # (n,)
    parts = [f"{words[j]} {fixed(weights[j])}" for j in order if weights[j] >= 0.0005]
    named = parts[:6] + ([] if len(parts) <= 6 else ["…"])
    return say("bench-view.summary", word=words[i], weights=say("list.separator").join(named))
