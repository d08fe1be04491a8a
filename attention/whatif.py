"""What if a step of attention were missing? Counterfactual weights beside ``attend``.

Three steps can be removed, alone or together (``STEPS``, in canonical order):

``scale``  no division by √d_k: the softmax sees the raw scores (÷ T still applies).
``mask``   no causal mask: a word may look at later words. The reader's own shut or
           blocked keys stay shut: they are the reader's choice, the mask is the model's.
``shift``  no max-shift: the exponentials of the unshifted scores, as a naive
           implementation computes them. When an exponential (any z > ``LN_MAX``) or
           their sum overflows a double, or every exponential underflows to 0, the row
           has no weights: ``Counterfactual.failure`` says which, never NaN on a page.

>>> cf = counterfactual([[2.0, 1.0, 3.0]], d_k=2, without=["scale"])
>>> cf.weights.round(3).tolist()                     # softmax([2, 1, 3]), not of ÷√2
[[0.245, 0.09, 0.665]]
>>> counterfactual([[800.0, 0.0]], d_k=1, without=["shift"]).failure
('overflow',)
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

import numpy as np

from . import toy
from .numbers import fixed, shown

__all__ = ["LN_MAX", "MESSAGES", "STEPS", "Counterfactual", "counterfactual", "entropy_bits",
           "naive_softmax", "steps", "cause", "sentence", "lab_entry", "bench_entry"]

STEPS = ("scale", "mask", "shift")
LN_MAX = math.log(sys.float_info.max)  # 709.78…: eᶻ is finite only for z up to this
MESSAGES = {
    "overflow": "eᶻ overflows: 1.8×10³⁰⁸ is the largest double; the naive weights are undefined",
    "sum": "the sum of the eᶻ overflows: 1.8×10³⁰⁸ is the largest double; the naive weights "
           "are undefined",
    "underflow": "every eᶻ underflows to 0: the naive weights are 0 ÷ 0, undefined",
}
# What stands in place of a row's weights when it has none: the key table's one cell for the
# row and the drawing's empty sample say this; the sentence under them says why (MESSAGES).
NO_WEIGHTS = "no weights"
DOUBLE = "the largest double (64-bit float)"  # what 1.8×10³⁰⁸ is, where a sentence says why
LABELS = {"scale": "÷√d_k", "mask": "the causal mask", "shift": "the max-shift"}
CHANGED = 0.0005  # below this a weight reads the same to three decimals


def steps(without) -> tuple[str, ...]:
    """Return the removed steps, unique and in canonical order; raise on an unknown one.

    >>> steps(["shift", "scale", "shift"]), steps("mask,scale"), steps(None)
    (('scale', 'shift'), ('scale', 'mask'), ())
    """
    if without is None:
        return ()
    if isinstance(without, str):
        without = [w for w in without.split(",") if w]
    if not isinstance(without, (list, tuple)):
        raise ValueError("without must be a list of steps: scale, mask, shift")
    for w in without:
        if w not in STEPS:
            raise ValueError(f"unknown step {str(w)[:20]!r}: choose scale, mask or shift")
    return tuple(s for s in STEPS if s in without)


def naive_softmax(z, allowed) -> tuple[np.ndarray, np.ndarray, tuple]:
    """Softmax without the max-shift: (exp, weights, failure per row).

    A row whose eᶻ or sum overflows, or whose eᶻ all underflow to 0, gets NaN
    weights and a failure ``"overflow"``, ``"sum"`` or ``"underflow"`` (else None).

    >>> e, w, f = naive_softmax([[0.0, 0.0], [710.0, 0.0]], [[True, True]] * 2)
    >>> w[0].tolist(), f
    ([0.5, 0.5], (None, 'overflow'))
    """
    z, allowed = np.asarray(z, dtype=float), np.asarray(allowed, dtype=bool)  # (n, m) each
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        e = np.where(allowed, np.exp(np.where(allowed, z, 0.0)), 0.0)  # (n, m); may hold inf
        total = e.sum(axis=1, keepdims=True)  # (n, 1)
        weights = e / total  # (n, m)
    failure = []
    for row_e, row_total in zip(e, total[:, 0]):
        if not np.isfinite(row_e).all():
            failure.append("overflow")
        elif not math.isfinite(row_total):
            failure.append("sum")
        elif row_total == 0:
            failure.append("underflow")
        else:
            failure.append(None)
    weights[[f is not None for f in failure]] = np.nan  # (n, m); never shown, see failure
    return e, weights, tuple(failure)


def _stable(z: np.ndarray, allowed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The stable softmax of each row over its allowed keys: (exp of shifted z, weights)."""
    top = np.where(allowed, z, -np.inf).max(axis=1, keepdims=True)  # (n, 1)
    e = np.where(allowed, np.exp(np.minimum(z - top, 0.0)), 0.0)  # (n, m); every entry <= 1
    return e, e / e.sum(axis=1, keepdims=True)  # (n, m) each


@dataclass(frozen=True)
class Counterfactual:
    """Weights computed with some steps removed (arrays read-only).

    allowed, z, exp, weights: (n, m). ``z`` is what enters the softmax (the score,
    ÷√d_k unless ``scale`` is removed, ÷T); ``exp`` the exponentials as computed (of
    z itself without the shift, may be inf; of z − max otherwise); ``weights`` NaN
    in every row whose ``failure`` is not None. A row with no allowed key has
    failure ``"empty"``.
    """

    without: tuple
    allowed: np.ndarray
    z: np.ndarray
    exp: np.ndarray
    weights: np.ndarray
    failure: tuple

    def __post_init__(self):
        for value in (self.allowed, self.z, self.exp, self.weights):
            value.flags.writeable = False


def counterfactual(scores, d_k: int, temperature: float = 1.0, mask=None, causal=None,
                   without=()) -> Counterfactual:
    """Recompute the weights of raw scores ``Q Kᵀ`` with the steps in ``without`` removed.

    ``mask`` is the reader's (n, m) boolean mask (True = allowed) and stays applied;
    ``causal`` the model's, dropped when ``mask`` is in ``without``.

    >>> cf = counterfactual([[1.0, 5.0]], 1, causal=[[True, False]], without=["mask"])
    >>> cf.weights.round(3).tolist(), cf.allowed.tolist()
    ([[0.018, 0.982]], [[True, True]])
    """
    removed = steps(without)
    S = np.asarray(scores, dtype=float)  # (n, m)
    if S.ndim != 2 or not np.isfinite(S).all():
        raise ValueError("scores must be a finite (n, m) matrix")
    t = float(temperature)
    if not math.isfinite(t) or t <= 0:
        raise ValueError(f"temperature must be a finite number greater than 0, got {t}")
    allowed = np.ones(S.shape, dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
    if causal is not None and "mask" not in removed:
        allowed = allowed & np.asarray(causal, dtype=bool)  # (n, m)
    z = S / (1.0 if "scale" in removed else math.sqrt(d_k)) / t  # (n, m)
    empty = ~allowed.any(axis=1)  # (n,)
    live = np.where(empty[:, None], True, allowed)  # (n, m); empty rows are computed, then voided
    if "shift" in removed:
        e, weights, failure = naive_softmax(z, live)
    else:
        e, weights = _stable(z, live)
        failure = (None,) * len(S)
    failure = tuple("empty" if x else f for x, f in zip(empty, failure))
    weights = np.where(np.array([f is not None for f in failure])[:, None], np.nan, weights)
    return Counterfactual(removed, allowed, z, np.where(allowed, e, 0.0), weights, failure)


def entropy_bits(w) -> float:
    """Return the entropy of a weight row in bits: 0 for one-hot, log2 m for uniform.

    >>> entropy_bits([0.5, 0.5, 0.0]), entropy_bits([1.0, 0.0])
    (1.0, 0.0)
    """
    w = np.asarray(w, dtype=float)  # (m,)
    w = w[w > 0]
    return float(max(0.0, -(w * np.log2(w)).sum()))


def _row(weights, labels) -> dict:
    """A row's weights with its largest weight and its entropy in bits."""
    j = int(np.argmax(weights))
    return {"weights": [shown(w) for w in weights],
            "top": {"index": j, "word": labels[j], "weight": shown(weights[j])},
            "entropy": shown(entropy_bits(weights)), "failure": None, "message": None}


def _title(removed: tuple, d_k: int) -> str:
    """Name the removed steps: "Without ÷√8 and the max-shift"."""
    names = [LABELS[s].replace("d_k", str(d_k)) for s in removed]
    return "Without " + (" and ".join(names) if len(names) < 3
                         else f"{names[0]}, {names[1]} and {names[2]}")


def cause(failure: str, z, allowed, labels) -> str:
    """Say which eᶻ broke a row's naive softmax, and how, from the row's z (m,).

    >>> cause("overflow", [800.0, 1.0], [True, True], ["engineer", "she"])
    'eᶻ of “engineer” overflows: its z is 800.000, and past z = 709.783, eᶻ is more than 1.8×10³⁰⁸, the largest double (64-bit float)'
    """
    z, allowed = np.asarray(z, dtype=float), np.asarray(allowed, dtype=bool)  # (m,) each
    order = [int(j) for j in np.argsort(-np.where(allowed, z, -np.inf), kind="stable")]
    top = order[0]
    if failure == "overflow":
        more = [labels[j] for j in order[1:] if allowed[j] and z[j] > LN_MAX]
        also = ("" if not more else f" (as does that of “{more[0]}”)" if len(more) == 1 else
                f" (as do those of “{more[0]}” and “{more[1]}”)" if len(more) == 2 else
                f" (as do those of {len(more)} more keys)")
        return (f"eᶻ of “{labels[top]}” overflows{also}: its z is {fixed(z[top])}, and past "
                f"z = {fixed(LN_MAX)}, eᶻ is more than 1.8×10³⁰⁸, {DOUBLE}")
    if failure == "sum":
        return f"each eᶻ fits, but their sum overflows: it is more than 1.8×10³⁰⁸, {DOUBLE}"
    return (f"every eᶻ underflows to 0 (the largest z, that of “{labels[top]}”, is "
            f"{fixed(z[top])}): the naive weights are 0 ÷ 0")


def sentence(real, cf, failure, labels, removed, d_k, query="the query", later=(),
             why=None) -> str:
    """Say in one sentence, from the numbers, what removing the steps changed for a row.

    ``real``, ``cf``: weight rows (m,); ``later``: (m,) True for keys after the query;
    ``why``: for a row that failed, which eᶻ broke it (``cause``), else the failure's message.
    """
    if not removed:
        return "Every step is in place: these are the real weights."
    head = _title(removed, d_k)
    if failure is not None:
        said = f"{why}; the naive weights are undefined" if why else MESSAGES[failure]
        return (f"{head}, {said}. With the max-shift the top key's eᶻ is exactly "
                "1 and every other one at most 1, so the real row is unaffected.")
    real, cf = np.asarray(real), np.asarray(cf)
    a, b = int(np.argmax(real)), int(np.argmax(cf))
    later = np.asarray(later, dtype=bool) if len(later) else np.zeros(len(real), dtype=bool)
    ahead = float(cf[later].sum())
    if ahead >= CHANGED:
        j = int(np.flatnonzero(later)[np.argmax(cf[later])])
        return (f"{head}, {query} gives {fixed(ahead)} of its unit to later words, most to "
                f"“{labels[j]}” ({fixed(cf[j])}); its largest weight is now “{labels[b]}” "
                f"({fixed(cf[b])}), was “{labels[a]}” ({fixed(real[a])}).")
    if b != a:
        return (f"{head}, {query} looks mostly at “{labels[b]}” ({fixed(cf[b])}) instead "
                f"of “{labels[a]}” ({fixed(real[a])}).")
    diff = float(cf[a] - real[a])
    if abs(diff) < CHANGED and float(np.abs(cf - real).max()) < CHANGED:
        if removed == ("shift",):
            return (f"{head} the weights come out the same: subtracting the largest score "
                    "changes no weight, it only keeps every eᶻ at most 1.")
        if "mask" in removed and later.any():
            return (f"{head}, {query} could look at later words, but none scores high enough "
                    "to take any weight: the weights stay the same to three decimals.")
        return f"{head}, the weights stay the same to three decimals."
    h_real, h_cf = entropy_bits(real), entropy_bits(cf)
    verb = "falls" if h_cf < h_real else "rises"
    return (f"{head}, “{labels[a]}” takes {fixed(cf[a])} instead of {fixed(real[a])}: "
            f"{fixed(abs(diff))} {'more' if diff > 0 else 'less'}, and the entropy {verb} "
            f"from {fixed(h_real)} to {fixed(h_cf)} bits.")


def _compare(tr, cf: Counterfactual, i: int, labels, query: str, later=()) -> dict:
    """The real row i and its counterfactual, side by side, with the sentence."""
    failure = cf.failure[i]
    if failure is None:
        counter = _row(cf.weights[i], labels)
    else:
        counter = {"weights": None, "top": None, "entropy": None, "failure": failure,
                   "message": MESSAGES.get(failure, "every key this row could use is shut"),
                   "cell": NO_WEIGHTS}
    if failure == "empty":
        text = f"{_title(cf.without, tr.d_k)}, every key {query} could use is still shut."
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
    return [{"name": s, "label": "without " + LABELS[s].replace("d_k", str(d_k)),
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
           **_compare(tr, cf, 0, labels, "the query"), "output": None, "reach": None,
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
    text of FIG-006's control that shows it) and ``"matrix_note"`` (what FIG-006 then says
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
           **_compare(tr, cf, i, list(words), f"“{word}”", later if "mask" in removed else ())}
    out["keys"] = _keys(tr, cf, i, list(words), later)
    out["matrix"] = _matrix(cf, causal, "mask" in removed)
    title = out["title"][:1].lower() + out["title"][1:]
    out["matrix_label"] = f"Show the matrix {title}"
    out["matrix_note"] = _matrix_note(title, out["matrix"], "mask" in removed)
    return out


def _matrix_note(title: str, rows: list[dict], unmasked: bool) -> str:
    """Say what FIG-006 shows when it shows the counterfactual matrix.

    >>> _matrix_note("without the max-shift", [{"failure": "overflow"}, {"failure": None}], False)
    'Showing the matrix without the max-shift; 1 of 2 rows has no weights: eᶻ overflows.'
    """
    text = f"Showing the matrix {title}"
    if unmasked:
        text += ": the hatched triangle is gone, and every word may look at later words"
    failed = [r["failure"] for r in rows if r["failure"] in ("overflow", "sum", "underflow")]
    if failed:
        kinds = ", ".join(SHORT[f] for f in dict.fromkeys(failed))
        has = "has" if len(failed) == 1 else "have"
        text += f"; {len(failed)} of {len(rows)} row{'s' if len(rows) > 1 else ''} {has} no " \
                f"weights: {kinds}"
    return text + "."


NO_MATRIX = "Show the matrix without a step (remove one in the bench's what-if panel first)"


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
            "keys": keys, "matrix": None, "matrix_label": NO_MATRIX, "matrix_note": ""}


ROW_NOTES = {"overflow": "overflow", "sum": "sum overflows", "underflow": "underflow",
             "empty": "every key shut"}  # after a matrix row's word: why it has no weights
SHORT = {"overflow": "eᶻ overflows", "sum": "the sum of eᶻ overflows",
         "underflow": "every eᶻ underflows to 0", "empty": "every key shut"}


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
        note = "" if ok else f" ({ROW_NOTES[failure]})"
        rows.append({"failure": failure, "message": MESSAGES.get(failure), "note": note,
                     "masks": masks, "cells": cells})
    return rows
