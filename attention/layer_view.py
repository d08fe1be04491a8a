"""The layer chapter's view of one state: a sentence through the whole layer (attention.layer),
for one word the reader follows, with every number's working and what a switched-off part
changes.

Schema of ``view(...)``::

    {"state": {"sentence", "focus", "temperature", "without", "silent"},
     "sentence": {"text", "words", "note"}, "focus": {"index", "word"},
     "temperature": {"value", "text"},
     "heads": [{"name", "gloss", "silent", "looks": [{"index", "word", "weight"}],
                "writes": [{"feature", "slot", "value"}], "writes_text", "said"}],
     "features": [{"name", "gloss", "cells": [cell per head]}],     # steps 2 and 3
     "steps": [{"key", "n", "title", "changed"}],                     # steps 1, 4 to 9
     "rows": [{"name", "kind", "gloss", "cells": [cell per step]}],  # the 18 stream numbers
     "sizes": [cell and its "key"], "units": [{"name", "rule", "fired": [word], "fired_text"}],
     "switches": [{"name", "label", "on"}], "changed": str, "said": str}

where a cell is ``{"text", "value", "how", "changed", "was"}``: ``how`` says how the number
was computed from the numbers before it, and, when a part is switched off, ``changed`` says
whether it differs from the whole layer's and ``was`` gives the whole layer's number ("was 0.835").

>>> v = view()
>>> v["focus"]["word"], [s["n"] for s in v["steps"]]
('she', [1, 4, 5, 6, 7, 8, 9])
>>> row = next(r for r in v["rows"] if r["name"] == "ref_noun")
>>> [c["text"] for c in row["cells"]]
['0.000', '0.835', '0.835', '1.037', '0.000', '1.037', '0.992']
>>> row["cells"][1]["how"]
'coreference’s output noun × the output projection’s 1 = 0.835'
"""

from __future__ import annotations

import functools

import numpy as np

from . import bench, layer
from .bench_input import BenchInputError, parse_position, parse_sentence, parse_temperature
from .bench_input import reading_note
from .catalog import listed
from .numbers import fixed, shown, typed

__all__ = ["GLOSSES", "OFF_TITLES", "STEPS", "SWITCH_LABELS", "columns", "default_focus", "view"]

# The columns of the stream's table: (its array in the layer's record, number, title).
STEPS = (
    ("x", 1, "going in"),
    ("projected", 4, "the heads’ writes"),
    ("after_attention", 5, "add the residual"),
    ("norm1", 6, "layer norm"),
    ("mlp", 7, "the MLP’s writes"),
    ("after_mlp", 8, "add the residual"),
    ("output", 9, "layer norm: out"),
)
# A step's title while the part it is switched off: the column holds what passes instead
# (with the residual off, "add the residual" was the title over the writes alone).
OFF_TITLES = {
    "residual": {"after_attention": "no residual: the writes alone", "after_mlp": "no residual: the writes alone"},
    "layer_norm": {"norm1": "layer norm off: passed on", "output": "layer norm off: out"},
    "mlp": {"mlp": "the MLP off: no writes"},
}
GLOSSES = {
    "bias": "1 for every word", "det": "is a determiner", "noun": "is a noun",
    "verb": "is a verb", "pron": "is a pronoun", "other": "is another kind of word",
    "person": "names a person", "sin1": "slow position wave", "cos1": "slow position wave",
    "sin2": "fast position wave", "cos2": "fast position wave",
    "ref_noun": "what it refers to is a noun", "ref_person": "what it refers to is a person",
    "prev_det": "the word before is a determiner", "prev_verb": "the word before is a verb",
    "has_verb": "a noun that found its verb",
    "agrees": "a pronoun that found its noun", "object": "a noun after a verb",
}
SWITCH_LABELS = {"residual": "the residual", "layer_norm": "layer norm", "mlp": "the MLP"}
# Why each part matters, said after what changed (the numbers are the view's own).
WHY = {
    "residual": "The residual is how a word keeps what it came in with: each step only adds a "
                "message, and without the sum the word is only the message.",
    "layer_norm": "Layer norm puts every word’s numbers on one scale; the MLP’s thresholds were "
                  "set for that scale.",
    "mlp": "The MLP is where each word combines what the heads wrote into a new fact.",
    "silent": "Each head writes its own slots; no other part writes them.",
}
# the heads that serve one word class; other words rest on the first word (attention.bench)
SERVES = {"coreference": "pronoun", "verb-lookup": "noun"}
# the word-class features: one-hot, the word's class is 1 and the others 0 (attention.bench)
CLASS_FEATURES = bench.FEATURES[1:1 + len(bench.CLASSES)]


def _read_switches(without, silent) -> tuple[tuple[str, ...], str | None]:
    """Read the switched-off parts and the silent head, or raise naming the field."""
    if isinstance(without, str):
        without = [w for w in without.split(",") if w]
    if not isinstance(without, (list, tuple)) or not all(isinstance(w, str) for w in without):
        raise BenchInputError("without", "Switch off parts by name: "
                                         f"{', '.join(layer.SWITCHES)}.")
    unknown = [w for w in without if w not in layer.SWITCHES]
    if unknown:
        raise BenchInputError("without", f"No part “{unknown[0][:30]}” to switch off; choose "
                                         f"from {', '.join(layer.SWITCHES)}.")
    if silent in ("", None):
        silent = None
    elif silent not in bench.HEADS:
        raise BenchInputError("silent", f"No head “{str(silent)[:30]}”; choose one of "
                                        f"{', '.join(bench.HEADS)}.")
    return tuple(s for s in layer.SWITCHES if s in without), silent


@functools.lru_cache(maxsize=32)
def _forward(words: tuple, t: float, without: tuple, silent) -> layer.Layer:
    return layer.forward(words, t, without, silent)


def columns(r: layer.Layer) -> dict[str, np.ndarray]:
    """Each step of the stream's table (STEPS) as an (n, D_MODEL) array."""
    return {key: getattr(r, key) for key, _, _ in STEPS}


def _norm_how(before: np.ndarray, k: int, value: float, off: bool) -> str:
    """How one number of a layer norm was computed from the row before it."""
    if off:
        return f"passed through unchanged, as layer norm is off = {fixed(value)}"
    mean, var = before.mean(), before.var()
    return (f"({fixed(before[k])} − mean {fixed(mean)}) ÷ √(variance {fixed(var)} + ε) "
            f"= {fixed(value)}")


def _how(r: layer.Layer, cols: dict, step: str, i: int, k: int) -> str:
    """How the number of stream slot k of word i at a step was computed."""
    name, value = layer.STREAM[k], cols[step][i, k]
    keep = "residual" not in r.without
    if step == "x":
        if name in layer.SLOTS:
            return "0: the layer’s slots are empty going in"
        if name in CLASS_FEATURES:
            cls = bench.LEXICON[r.words[i]].word_class
            kind = "word of another kind" if cls == "other" else cls
            return f"“{r.words[i]}” is a {kind}: {fixed(value)}"
        if name == "person":
            return f"“{r.words[i]}” {'names' if value else 'does not name'} a person: {fixed(value)}"
        if name == "bias":
            return "1 for every word"
        omega = "ω₁" if name.endswith("1") else "ω₂"
        return f"{name[:3]}({omega} × position {i}) = {fixed(value)}"
    if step == "projected":
        write = next((w for w in layer.WRITES if w[2] == name), None)
        if write is None:
            return "0: the output projection writes only into the heads’ five slots"
        if write[0] == r.silent:
            return f"0: {write[0]} is switched off"
        return f"{write[0]}’s output {write[1]} × the output projection’s 1 = {fixed(value)}"
    if step in ("after_attention", "after_mlp"):
        a, b = ("x", "projected") if step == "after_attention" else ("norm1", "mlp")
        if not keep:
            return f"{b} only: the residual is off = {fixed(value)}"
        return f"{fixed(cols[a][i, k])} + {fixed(cols[b][i, k])} = {fixed(value)}"
    if step in ("norm1", "output"):
        before = cols["after_attention" if step == "norm1" else "after_mlp"][i]
        return _norm_how(before, k, value, "layer_norm" in r.without)
    # the MLP's writes
    if name not in layer.UNITS:
        return "0: the MLP writes only its two slots"
    if "mlp" in r.without:
        return "0: the MLP is switched off"
    a, b = layer.RULES[name]
    pa, pb = r.norm1[i, layer.STREAM.index(a)], r.norm1[i, layer.STREAM.index(b)]
    return (f"ReLU({a} {fixed(pa)} + {b} {fixed(pb)} − {fixed(layer.THRESHOLD)}) "
            f"= {fixed(value)}")


def _head_how(r: layer.Layer, h: layer.Head, i: int, f: int) -> str:
    """How one head's output number (feature f, word i) was computed: weights × features."""
    if h.name == r.silent:
        return f"0: {h.name} is switched off"
    terms = sorted(((h.weights[i, j], j) for j in range(i + 1)), reverse=True)
    shown_terms = [f"{fixed(w)} × {fixed(r.x[j, f])} ({r.words[j]})" for w, j in terms[:3]]
    more = f" + {len(terms) - 3} more" if len(terms) > 3 else ""
    total = r.concat[i, r.heads.index(h) * len(bench.FEATURES) + f]
    return f"Σ weight × {bench.FEATURES[f]}: {' + '.join(shown_terms)}{more} = {fixed(total)}"


def _cell(value: float, how: str, was: float | None) -> dict:
    changed = bool(was is not None and abs(value - was) > 1e-12)
    return {**shown(value), "how": how, "changed": changed,
            "was": f"was {fixed(was)}" if changed else None}


def _fired(r: layer.Layer) -> dict[str, list[str]]:
    return {u: [w for w, h in zip(r.words, r.hidden[:, k]) if h > 0]
            for k, u in enumerate(layer.UNITS)}


def _changed_sentence(r, full, word_steps, moved, i: int) -> str:
    """Say which of the followed word's steps a switch changed (and whose stream it changed,
    the positions ``moved``, when not every word's), what the MLP's units did then, and why."""
    off = [SWITCH_LABELS[w] for w in r.without] + ([f"the {r.silent} head"] if r.silent else [])
    if not off:
        return ""
    word = r.words[i]
    said = [f"Without {' and '.join(off)}: "
            + (f"steps {listed(word_steps)} change for “{word}”." if word_steps
               else f"no number of “{word}” changes.")]
    if not moved:
        said.append("No word’s stream numbers change.")
    elif len(moved) < len(r.words):  # not every word's stream: say whose
        names = listed([f"“{w}”" for w in dict.fromkeys(r.words[k] for k in moved)])
        said.append(f"In the whole sentence, the stream’s numbers change only for {names}.")
    now, was = _fired(r), _fired(full)
    for k, unit in enumerate(layer.UNITS):
        if now[unit] != was[unit]:
            now_, was_ = ([f"“{w}”" for w in words] for words in (now[unit], was[unit]))
            said.append(f"“{unit}” now fires for {listed(now_) if now_ else 'no word'}; "
                        f"with every part on, it fires for {listed(was_) if was_ else 'no word'}.")
        elif abs(r.hidden[i, k] - full.hidden[i, k]) > 1e-12:
            said.append(f"“{unit}” still fires for “{word}”, at {fixed(r.hidden[i, k])} "
                        f"instead of {fixed(full.hidden[i, k])}.")
    zero = [k for k, row in enumerate(r.output) if not np.abs(row).max() > 1e-12]
    others = [f"“{w}”" for k, w in enumerate(r.words) if k not in zero]
    if zero and not others:
        said.append("Every word ends as all zeros.")
    elif len(zero) > len(others):  # say the fewer: the words that keep a number
        said.append(f"Every word but {listed(others)} ends as all zeros.")
    elif zero:
        said.append(f"{listed([f'“{r.words[k]}”' for k in zero])} end{'s' if len(zero) == 1 else ''} as all zeros.")
    said += [WHY[w] for w in r.without] + ([WHY["silent"]] if r.silent else [])
    return " ".join(said)


def default_focus(words) -> int:
    """The word a sentence opens on: its first pronoun (the coreference head has work there),
    else its last word.

    >>> default_focus(bench.DEFAULT_SENTENCE), default_focus(("the", "engineer", "left"))
    (6, 2)
    """
    return next((i for i, w in enumerate(words) if bench.LEXICON[w].word_class == "pronoun"),
                len(words) - 1)


def view(sentence=None, focus=None, temperature="1", without=(), silent=None) -> dict:
    """Return the layer chapter's view of a state (schema in the module docstring), or raise
    BenchInputError naming the field at fault."""
    words = tuple(bench.DEFAULT_SENTENCE if sentence is None else parse_sentence(sentence))
    n = len(words)
    i = default_focus(words) if focus is None else parse_position(focus, "focus", n, "word followed")
    t = parse_temperature(temperature, None)
    off, silent = _read_switches(without, silent)
    r, full = _forward(words, t, off, silent), _forward(words, t, (), None)
    cols, full_cols = columns(r), columns(full)
    switched = bool(off or silent)
    d_v = len(bench.FEATURES)
    heads = [{"name": h.name, "gloss": bench.HEADS[h.name].gloss, "silent": h.name == silent,
              "looks": [{"index": int(j), "word": words[j], **shown(h.weights[i, j])}
                        for j in np.argsort(-h.weights[i, :i + 1], kind="stable")[:3]],
              "writes": [{"feature": f, "slot": s, **shown(0.0 if h.name == silent else
                                                          h.output[i, bench.FEATURES.index(f)])}
                         for hn, f, s in layer.WRITES if hn == h.name]}
             for h in r.heads]
    for head in heads:
        top = head["looks"][0]
        head["writes_text"] = (
            "The output projection copies " + ", ".join(f"{w['feature']} {w['text']} into {w['slot']}"
                                     for w in head["writes"]) + "." if head["writes"]
            else "The output projection copies nothing of it.")
        cls = bench.LEXICON[words[i]].word_class
        rests = (f": “{words[i]}” is not a {SERVES[head['name']]}, so it rests on the first word"
                 if head["name"] in SERVES and cls != SERVES[head["name"]] else "")
        head["said"] = ("switched off: it writes nothing" if head["silent"]
                        else f"looks most at “{top['word']}” ({top['text']}){rests}")
    features = [{"name": f, "gloss": GLOSSES[f], "cells": [
        _cell(r.concat[i, hi * d_v + k], _head_how(r, h, i, k),
              full.concat[i, hi * d_v + k] if switched else None)
        for hi, h in enumerate(r.heads)]} for k, f in enumerate(bench.FEATURES)]
    # what a switch changed for the followed word (its column's marks), and whose numbers moved
    def differs(a, b):
        return ~np.isclose(a, b, rtol=0, atol=1e-12).all(axis=-1)  # (n, d) -> (n,)
    step_changed = {key: bool(differs(cols[key][i], full_cols[key][i])) for key, _, _ in STEPS}
    heads_changed = bool(differs(r.concat[i], full.concat[i]))
    word_steps = sorted({*(n_ for key, n_, _ in STEPS if step_changed[key]), *([2, 3] if heads_changed else [])})
    moved_rows = np.zeros(n, dtype=bool)  # (n,): the words whose stream (steps 1, 4 to 9) moved
    for key, _, _ in STEPS:
        moved_rows = moved_rows | differs(cols[key], full_cols[key])  # (n,)
    moved = [int(k) for k in np.flatnonzero(moved_rows)]
    titles = {key: title for key, _, title in STEPS}
    for part in off:
        titles |= OFF_TITLES.get(part, {})
    rows = [{"name": name, "kind": "slot" if name in layer.SLOTS else "feature",
             "gloss": GLOSSES[name],
             "cells": [_cell(cols[key][i, k], _how(r, cols, key, i, k),
                             full_cols[key][i, k] if switched else None) for key, _, _ in STEPS]}
            for k, name in enumerate(layer.STREAM)]
    fired = _fired(r)
    state = {"sentence": " ".join(words), "focus": i, "temperature": typed(t),
             "without": list(off), "silent": silent}
    summary = "; ".join(f"“{u}” fires for {', '.join(w) or 'no word'}" for u, w in fired.items())
    return {
        "state": state,
        "sentence": {"text": " ".join(words), "words": list(words),
                     "note": reading_note(sentence, list(words))},
        "focus": {"index": i, "word": words[i]},
        "temperature": {"value": t, "text": typed(t)},
        "heads": heads, "features": features,
        "steps": [{"key": key, "n": n_, "title": titles[key], "changed": step_changed[key]}
                  for key, n_, _ in STEPS],
        "rows": rows,
        "sizes": [_cell(float(np.linalg.norm(cols[key][i])), "√(sum of squares)",
                        float(np.linalg.norm(full_cols[key][i])) if switched else None)
                  | {"key": key} for key, _, _ in STEPS],
        "units": [{"name": u, "rule": f"{a} + {b} − {fixed(layer.THRESHOLD)}", "fired": fired[u],
                   "fired_text": ", ".join(fired[u]) or "no word"}
                  for u, (a, b) in layer.RULES.items()],
        "switches": [{"name": s, "label": SWITCH_LABELS[s], "on": s not in off}
                     for s in layer.SWITCHES],
        "changed": _changed_sentence(r, full, word_steps, moved, i),
        "said": f"Following “{words[i]}”, T = {typed(t)}: {summary}.",
    }
