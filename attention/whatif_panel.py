"""The what-if panel's data: the real row beside its counterfactual (attention.whatif), in
numbers and in one sentence, for the lab (``lab_entry``) and the bench (``bench_entry``, with
the whole matrix), and which eᶻ broke a naive softmax (``cause``)."""

from __future__ import annotations

import numpy as np

from . import toy
from .catalog import listed, say
from .numbers import fixed, shown
from .whatif import (CHANGED, LN_MAX, STEPS, Counterfactual, counterfactual, double, entropy_bits, label,
                     message, no_weights)

__all__ = ["bench_entry", "cause", "lab_entry", "no_matrix", "sentence"]


def _largest(weights, labels) -> str:
    """Name the key with the largest weight, or every key that ties for it.

    >>> _largest([0.2, 0.5, 0.3], ["grid", "L", "R"])
    'L'
    >>> _largest([1 / 3, 1 / 3, 1 / 3], ["grid", "L", "R"])
    'grid, L and R, tied at'
    >>> _largest([0.25] * 4 + [0.0], list("abcde"))
    '4 keys, tied at'
    """
    w = np.asarray(weights, dtype=float)  # (m,)
    tied = [labels[j] for j in np.flatnonzero(np.isclose(w, w.max(), rtol=1e-12, atol=0))]
    if len(tied) == 1:
        return tied[0]
    if len(tied) <= 3:
        return say("core-whatif-panel.tied", names=listed(tied))
    return say("core-whatif-panel.tied-keys", count=len(tied))


def _row(weights, labels) -> dict:
    """A row's weights with its largest weight and its entropy in bits."""
    j = int(np.argmax(weights))
    return {"weights": [shown(w) for w in weights],
            "top": {"index": j, "word": _largest(weights, labels), "weight": shown(weights[j])},
            "entropy": shown(entropy_bits(weights)), "failure": None, "message": None}


def _title(removed: tuple, d_k: int) -> str:
    """Name the removed steps: "Without ÷√8 and the max-shift"."""
    return say("core-whatif-panel.title", steps=listed([label(s, d_k) for s in removed]))


def cause(failure: str, z, allowed, labels) -> str:
    """Say which eᶻ broke a row's naive softmax, and how, from the row's z (m,).

    >>> cause("overflow", [800.0, 1.0], [True, True], ["engineer", "she"])
    'eᶻ of “engineer” overflows: its z is 800.000, and past z = 709.783, eᶻ is more than 1.8×10³⁰⁸, the largest double (64-bit float)'
    """  # noqa: E501 (a doctest shows its output whole, on one line)
    z, allowed = np.asarray(z, dtype=float), np.asarray(allowed, dtype=bool)  # (m,) each
    order = [int(j) for j in np.argsort(-np.where(allowed, z, -np.inf), kind="stable")]
    top = order[0]
    if failure == "overflow":
        more = [labels[j] for j in order[1:] if allowed[j] and z[j] > LN_MAX]
        also = ("" if not more else say("core-whatif-panel.also-one", word=more[0]) if len(more) == 1 else
                say("core-whatif-panel.also-two", first=more[0], second=more[1]) if len(more) == 2 else
                say("core-whatif-panel.also-more", count=len(more)))
        return say("core-whatif-panel.cause-overflow", word=labels[top], also=also, z=fixed(z[top]),
                   limit=fixed(LN_MAX), double=double())
    if failure == "sum":
        return say("core-whatif-panel.cause-sum", double=double())
    return say("core-whatif-panel.cause-underflow", word=labels[top], z=fixed(z[top]))


def sentence(real, cf, failure, labels, removed, d_k, query=None, later=(),
             why=None) -> str:
    """Say in one sentence, from the numbers, what removing the steps changed for a row.

    ``real``, ``cf``: weight rows (m,); ``later``: (m,) True for keys after the query;
    ``query``: who the row is for (default "the query", as said now);
    ``why``: for a row that failed, which eᶻ broke it (``cause``), else the failure's message.
    """
    if not removed:
        return say("core-whatif-panel.in-place")
    if query is None:
        query = say("core-whatif-panel.the-query")
    head = _title(removed, d_k)
    if failure is not None:
        said = say("core-whatif-panel.undefined", why=why) if why else message(failure)
        return say("core-whatif-panel.failed", title=head, why=said)
    real, cf = np.asarray(real), np.asarray(cf)
    a, b = int(np.argmax(real)), int(np.argmax(cf))
    later = np.asarray(later, dtype=bool) if len(later) else np.zeros(len(real), dtype=bool)
    ahead = float(cf[later].sum())
    if ahead >= CHANGED:
        j = int(np.flatnonzero(later)[np.argmax(cf[later])])
        return say("core-whatif-panel.later", title=head, query=query, ahead=fixed(ahead),
                   word=labels[j], weight=fixed(cf[j]), top=labels[b], top_weight=fixed(cf[b]),
                   was=labels[a], was_weight=fixed(real[a]))
    if b != a:
        return say("core-whatif-panel.moved", title=head, query=query, top=labels[b],
                   top_weight=fixed(cf[b]), was=labels[a], was_weight=fixed(real[a]))
    diff = float(cf[a] - real[a])
    if abs(diff) < CHANGED and float(np.abs(cf - real).max()) < CHANGED:
        if removed == ("shift",):
            return say("core-whatif-panel.same-shift", title=head)
        if "mask" in removed and later.any():
            return say("core-whatif-panel.same-later", title=head, query=query)
        return say("core-whatif-panel.same", title=head)
    h_real, h_cf = entropy_bits(real), entropy_bits(cf)
    values = dict(title=head, word=labels[a], now=fixed(cf[a]), was=fixed(real[a]), diff=fixed(abs(diff)),
                  bits_was=fixed(h_real), bits_now=fixed(h_cf))
    if diff > 0:
        return (say("core-whatif-panel.more-falls", **values) if h_cf < h_real
                else say("core-whatif-panel.more-rises", **values))
    return (say("core-whatif-panel.less-falls", **values) if h_cf < h_real
            else say("core-whatif-panel.less-rises", **values))


def _compare(tr, cf: Counterfactual, i: int, labels, query: str, later=()) -> dict:
    """The real row i and its counterfactual, side by side, with the sentence."""
    failure = cf.failure[i]
    if failure is None:
        counter = _row(cf.weights[i], labels)
    else:
        counter = {"weights": None, "top": None, "entropy": None, "failure": failure,
                   "message": message(failure) or say("core-whatif-panel.all-shut"),
                   "cell": no_weights()}
    if failure == "empty":
        text = say("core-whatif-panel.still-shut", title=_title(cf.without, tr.d_k), query=query)
    else:
        why = failure and cause(failure, cf.z[i], cf.allowed[i], labels)
        text = sentence(tr.weights[i], cf.weights[i], failure, labels, cf.without, tr.d_k,
                        query, later, why)
    return {"real": _row(tr.weights[i], labels),
            "counterfactual": counter if cf.without else None, "sentence": text,
            "title": _title(cf.without, tr.d_k) if cf.without else ""}


def _keys(tr, cf: Counterfactual, i: int, labels, future) -> list[dict]:
    """The query's keys, each with its real and counterfactual weight (None if undefined)."""
    ok = cf.failure[i] is None and bool(cf.without)
    return [{"index": j, "word": w, "future": bool(future[j]), "open": bool(cf.allowed[i, j]),
             "allowed": bool(tr.allowed[i, j]) and not future[j],
             "real": shown(tr.weights[i, j]),
             "counterfactual": shown(cf.weights[i, j]) if ok else None,
             "z": shown(cf.z[i, j]), "z_real": shown(tr.tempered[i, j])}
            for j, w in enumerate(labels)]


def _options(names, removed, d_k) -> list[dict]:
    """The toggles a figure offers, each with its label and whether it is on."""
    return [{"name": s, "label": say("core-whatif-panel.option", step=label(s, d_k)),
             "on": s in removed} for s in names]


def lab_entry(tr, removed: tuple, q, fields, mask, t_text: str, limit: float) -> dict:
    """Return the lab's ``whatif`` data for its trace (one query row).

    Schema: ``{"without": [step], "options": [{"name", "label", "on"}], "title": str,
    "state": {"query", "mask", "temperature"}, "real": row, "counterfactual": row | None,
    "sentence": str, "output": shown | None, "reach": {"factor", "fields"} | None,
    "keys": [key]}``
    where a row is ``{"weights": [shown] | None, "top": {"index", "word", "weight"} | None,
    "entropy": shown | None, "failure": None | "overflow" | "sum" | "underflow",
    "message": str | None}``, and a row that failed also has ``"cell"``: the words its
    table shows in place of its weights (the sentence says why). ``reach`` is the
    smallest round factor (within the query's limit) by which scaling q makes the naive
    softmax overflow, when ``shift`` is removed and it does not yet.
    """
    cf = counterfactual(tr.scores, tr.d_k, tr.temperature, mask=[mask], without=removed)
    labels = list(toy.TOKENS)
    out = {"without": list(removed), "options": _options(("scale", "shift"), removed, tr.d_k),
           "state": {"query": list(fields), "mask": list(mask), "temperature": t_text},
           **_compare(tr, cf, 0, labels, say("core-whatif-panel.the-query")), "output": None, "reach": None,
           "keys": _keys(tr, cf, 0, labels, [False] * len(labels))}
    if removed and cf.failure[0] is None:
        out["output"] = shown(np.nan_to_num(cf.weights[0]) @ toy.roles()["V"])  # (m,) @ (m, d_v)
    if "shift" in removed and cf.failure[0] is None:
        out["reach"] = _reach(cf.z[0][np.asarray(mask)], np.asarray(q, dtype=float), limit)
    return out


def _reach(z: np.ndarray, q: np.ndarray, limit: float):
    """The smallest factor 2, 5, 10, 20, … that lifts the largest z past LN_MAX."""
    top = float(z.max())
    if top <= 0:
        return None
    for k in range(0, 8):
        for f in (2, 5, 10):
            factor = f * 10 ** k
            if top * factor > LN_MAX and np.abs(q * factor).max() <= limit:
                return {"factor": str(factor), "fields": [f"{x * factor:g}" for x in q]}
    return None


def bench_entry(tr, removed: tuple, i: int, words, causal, closed) -> dict:
    """Return the bench's ``whatif`` data for query i of a head's trace.

    Schema: as lab_entry's ``without``, ``options``, ``real``, ``counterfactual`` and
    ``sentence``, plus ``"keys": [{"index", "word", "future", "open", "real": shown,
    "counterfactual": shown | None, "z": shown, "z_real": shown}]`` (the current
    query's keys: ``open`` is whether the counterfactual lets the key through, ``z`` the
    counterfactual's softmax input, for ghost needles), ``"matrix": [{"failure",
    "message", "note", "masks", "cells": [None | [text, level 0..10]]}] | None`` (the
    counterfactual matrix, None when no step is removed; a None cell is masked, shut or
    undefined, as ``masks`` says: one letter per column, "a" a weight, "f" a later word
    under the causal mask, "s" a shut stopcock, "u" no weight because the row's naive
    softmax failed; ``note`` says so after the row's word), ``"matrix_label"`` (the
    text of the matrix's control that shows it) and ``"matrix_note"`` (what the matrix then says
    it shows; "" with no step removed).

    With no step removed nothing is recomputed: the counterfactual is the real row.
    """
    shut = np.array(closed, dtype=bool)[None, :]  # (1, n)
    reader = np.broadcast_to(~shut, causal.shape)  # (n, n): the reader's stopcocks
    if not removed:
        return _bench_real(tr, i, list(words), causal, reader)
    cf = counterfactual(tr.scores, tr.d_k, tr.temperature, mask=reader, causal=causal,
                        without=removed)
    later = ~causal[i]  # (n,)
    word = words[i]
    out = {"without": list(removed),
           "options": _options(STEPS, removed, tr.d_k),
           **_compare(tr, cf, i, list(words), say("core-whatif-panel.quoted", word=word),
                      later if "mask" in removed else ())}
    out["keys"] = _keys(tr, cf, i, list(words), later)
    out["matrix"] = _matrix(cf, causal, "mask" in removed)
    title = out["title"][:1].lower() + out["title"][1:]
    out["matrix_label"] = say("core-whatif-panel.show-matrix", without=title)
    out["matrix_note"] = _matrix_note(title, out["matrix"], "mask" in removed)
    return out


def _matrix_note(title: str, rows: list[dict], unmasked: bool) -> str:
    """Say what the bench's matrix shows when it shows the counterfactual matrix.

    >>> _matrix_note("without the max-shift", [{"failure": "overflow"}, {"failure": None}], False)
    'Showing the matrix without the max-shift; 1 of 2 rows has no weights: eᶻ overflows.'
    """
    failed = [r["failure"] for r in rows if r["failure"] in ("overflow", "sum", "underflow")]
    undefined = ""
    if failed:
        kinds = say("list.separator").join(_short(f) for f in dict.fromkeys(failed))
        undefined = (say("core-whatif-panel.undefined-rows", count=len(failed), rows=len(rows), kinds=kinds)
                     if len(rows) > 1 else
                     say("core-whatif-panel.undefined-row", count=len(failed), rows=len(rows), kinds=kinds))
    return say("core-whatif-panel.showing", without=title,
               unmasked=say("core-whatif-panel.unmasked") if unmasked else "", undefined=undefined)


def no_matrix() -> str:
    """The matrix control's text while no step is removed, as said now."""
    return say("core-whatif-panel.no-matrix")


def _bench_real(tr, i: int, words: list, causal, reader) -> dict:
    """The bench's ``whatif`` data with no step removed, as bench_entry's schema, computed
    from the trace alone: ``z`` is the real softmax input and every open key is allowed."""
    allowed = reader[i] & causal[i]  # (n,)
    z = tr.tempered[i]  # (n,)
    keys = [{"index": j, "word": w, "future": not bool(causal[i, j]), "open": bool(allowed[j]),
             "allowed": bool(tr.allowed[i, j]) and bool(causal[i, j]),
             "real": shown(tr.weights[i, j]), "counterfactual": None,
             "z": shown(z[j]), "z_real": shown(z[j])} for j, w in enumerate(words)]
    return {"without": [], "options": _options(STEPS, (), tr.d_k),
            "real": _row(tr.weights[i], words), "counterfactual": None,
            "sentence": sentence(None, None, None, words, (), tr.d_k), "title": "",
            "keys": keys, "matrix": None, "matrix_label": no_matrix(), "matrix_note": ""}


def _row_note(failure: str) -> str:
    """What follows a matrix row's word when the row has no weights: " (overflow)"."""
    if failure == "overflow":
        return say("core-whatif-panel.note-overflow")
    if failure == "sum":
        return say("core-whatif-panel.note-sum")
    if failure == "underflow":
        return say("core-whatif-panel.note-underflow")
    return say("core-whatif-panel.note-empty")


def _short(failure: str) -> str:
    """A failure in a few words, for the matrix's note."""
    if failure == "overflow":
        return say("core-whatif-panel.short-overflow")
    if failure == "sum":
        return say("core-whatif-panel.short-sum")
    return say("core-whatif-panel.short-underflow")


def _matrix(cf: Counterfactual, causal=None, unmasked: bool = False) -> list[dict]:
    """The counterfactual matrix: per row its failure or its cells (None where there is no
    weight), the reason for each None cell and a note for a row without weights.

    >>> cf = counterfactual([[1.0, 2.0], [800.0, 0.0]], 1, causal=[[True, False], [True, True]],
    ...                     without=["shift"])
    >>> [(r["masks"], r["note"]) for r in _matrix(cf, np.array([[True, False], [True, True]]))]
    [('af', ''), ('uu', ' (overflow)')]
    """
    n, m = cf.weights.shape
    causal = np.ones((n, m), dtype=bool) if causal is None else np.asarray(causal, dtype=bool)
    rows = []
    for r, failure in enumerate(cf.failure):
        ok = failure is None
        cells = [[fixed(cf.weights[r, c]), int(np.rint(cf.weights[r, c] * 10))]
                 if ok and cf.allowed[r, c] else None for c in range(m)]
        masks = "".join(("a" if ok else "u") if cf.allowed[r, c]
                        else "s" if unmasked or causal[r, c] else "f" for c in range(m))
        note = "" if ok else _row_note(failure)
        rows.append({"failure": failure, "message": message(failure), "note": note,
                     "masks": masks, "cells": cells})
    return rows
