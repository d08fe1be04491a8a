"""The layer chapter's view of one state: a sentence through the whole layer (attention.layer),
for one word the reader follows, with every number's working and what a switched-off part
changes.

Schema of ``view(...)``::

    {"state": {"sentence", "focus", "temperature", "without", "silent"},
     "sentence": {"text", "words", "note", "english"}, "focus": {"index", "word"},
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

from . import bench, layer, lexicon
from .bench_input import BenchInputError, parse_position, parse_sentence, parse_temperature
from .bench_input import reading_note
from .catalog import listed, say
from .numbers import fixed, shown, typed

__all__ = ["RETITLED", "STEPS", "columns", "glosses", "switch_labels", "titles", "view"]

# The columns of the stream's table: (its array in the layer's record, number); their titles
# are said in the language spoken now (titles()).
STEPS = (("x", 1), ("projected", 4), ("after_attention", 5), ("norm1", 6), ("mlp", 7), ("after_mlp", 8),
         ("output", 9))
# The steps a part switched off retitles: the column holds what passes instead (with the
# residual off, "add the residual" was the title over the writes alone).
RETITLED = {"residual": ("after_attention", "after_mlp"), "layer_norm": ("norm1", "output"), "mlp": ("mlp",)}
# the heads that serve one word class; other words rest on the first word (attention.bench)
SERVES = {"coreference": "pronoun", "verb-lookup": "noun"}


def titles(off=()) -> dict[str, str]:
    """Each step's title (STEPS), as said now, with the titles of the parts in ``off``
    switched off (RETITLED).

    >>> titles()["norm1"], titles(["layer_norm"])["norm1"]
    ('layer norm', 'layer norm off: passed on')
    """
    out = {"x": say("core-layer-view.step-x"), "projected": say("core-layer-view.step-projected"),
           "after_attention": say("core-layer-view.step-add"), "norm1": say("core-layer-view.step-norm"),
           "mlp": say("core-layer-view.step-mlp"), "after_mlp": say("core-layer-view.step-add"),
           "output": say("core-layer-view.step-out")}
    if "residual" in off:
        out["after_attention"] = out["after_mlp"] = say("core-layer-view.off-residual")
    if "layer_norm" in off:
        out |= {"norm1": say("core-layer-view.off-norm"), "output": say("core-layer-view.off-norm-out")}
    if "mlp" in off:
        out["mlp"] = say("core-layer-view.off-mlp")
    return out


def glosses() -> dict[str, str]:
    """What each number of the stream means, as said now."""
    return {
        "bias": say("core-layer-view.gloss-bias"), "det": say("core-layer-view.gloss-det"),
        "noun": say("core-layer-view.gloss-noun"), "verb": say("core-layer-view.gloss-verb"),
        "pron": say("core-layer-view.gloss-pron"), "other": say("core-layer-view.gloss-other"),
        "person": say("core-layer-view.gloss-person"), "sin1": say("core-layer-view.gloss-slow"),
        "cos1": say("core-layer-view.gloss-slow"), "sin2": say("core-layer-view.gloss-fast"),
        "cos2": say("core-layer-view.gloss-fast"), "ref_noun": say("core-layer-view.gloss-ref-noun"),
        "ref_person": say("core-layer-view.gloss-ref-person"), "prev_det": say("core-layer-view.gloss-prev-det"),
        "prev_verb": say("core-layer-view.gloss-prev-verb"), "has_verb": say("core-layer-view.gloss-has-verb"),
        "agrees": say("core-layer-view.gloss-agrees"), "object": say("core-layer-view.gloss-object"),
    }


def switch_labels() -> dict[str, str]:
    """Each part's name on its switch, as said now."""
    return {"residual": say("core-layer-view.switch-residual"), "layer_norm": say("core-layer-view.switch-norm"),
            "mlp": say("core-layer-view.switch-mlp")}


def _why(part: str) -> str:
    """Why a switched-off part matters, as said now."""
    if part == "residual":
        return say("core-layer-view.why-residual")
    if part == "layer_norm":
        return say("core-layer-view.why-norm")
    if part == "mlp":
        return say("core-layer-view.why-mlp")
    return say("core-layer-view.why-silent")


def _class_how(word: str, cls: str, value: str) -> str:
    """How a word-class feature of a word was set: its class in the bench's lexicon."""
    if cls == "determiner":
        return say("core-layer-view.how-determiner", word=word, value=value)
    if cls == "noun":
        return say("core-layer-view.how-noun", word=word, value=value)
    if cls == "verb":
        return say("core-layer-view.how-verb", word=word, value=value)
    if cls == "pronoun":
        return say("core-layer-view.how-pronoun", word=word, value=value)
    return say("core-layer-view.how-other", word=word, value=value)


def _rests(word: str, head: str) -> str:
    """Why a head that serves one word class rests on the first word for this one (SERVES)."""
    if SERVES[head] == "pronoun":
        return say("core-layer-view.rests-pronoun", word=word)
    return say("core-layer-view.rests-noun", word=word)


def _and(items) -> str:
    """Items joined by "and", every one (not "a, b and c")."""
    return say("core-layer-view.and").join(items)
# the word-class features: one-hot, the word's class is 1 and the others 0 (attention.bench)
CLASS_FEATURES = bench.FEATURES[1:1 + len(bench.CLASSES)]


def _read_switches(without, silent) -> tuple[tuple[str, ...], str | None]:
    """Read the switched-off parts and the silent head, or raise naming the field."""
    if isinstance(without, str):
        without = [w for w in without.split(",") if w]
    if not isinstance(without, (list, tuple)) or not all(isinstance(w, str) for w in without):
        raise BenchInputError("without", say("core-layer-view.by-name",
                                             parts=say("list.separator").join(layer.SWITCHES)))
    unknown = [w for w in without if w not in layer.SWITCHES]
    if unknown:
        raise BenchInputError("without", say("core-layer-view.no-part", part=unknown[0][:30],
                                             parts=say("list.separator").join(layer.SWITCHES)))
    if silent in ("", None):
        silent = None
    elif silent not in bench.HEADS:
        raise BenchInputError("silent", say("core-layer-view.no-head", head=str(silent)[:30],
                                            heads=say("list.separator").join(bench.HEADS)))
    return tuple(s for s in layer.SWITCHES if s in without), silent


@functools.lru_cache(maxsize=32)
def _forward(words: tuple, t: float, without: tuple, silent) -> layer.Layer:
    return layer.forward(words, t, without, silent)


def columns(r: layer.Layer) -> dict[str, np.ndarray]:
    """Each step of the stream's table (STEPS) as an (n, D_MODEL) array."""
    return {key: getattr(r, key) for key, _ in STEPS}


def _norm_how(before: np.ndarray, k: int, value: float, off: bool) -> str:
    """How one number of a layer norm was computed from the row before it."""
    if off:
        return say("core-layer-view.how-norm-off", value=fixed(value))
    mean, var = before.mean(), before.var()
    return say("core-layer-view.how-norm", x=fixed(before[k]), mean=fixed(mean), var=fixed(var),
               value=fixed(value))


def _how(r: layer.Layer, cols: dict, step: str, i: int, k: int) -> str:
    """How the number of stream slot k of word i at a step was computed."""
    name, value = layer.STREAM[k], cols[step][i, k]
    keep = "residual" not in r.without
    if step == "x":
        if name in layer.SLOTS:
            return say("core-layer-view.how-empty")
        if name in CLASS_FEATURES:
            return _class_how(r.words[i], lexicon.WORDS[r.words[i]].word_class, fixed(value))
        if name == "person":
            return (say("core-layer-view.how-person", word=r.words[i], value=fixed(value)) if value else
                    say("core-layer-view.how-not-person", word=r.words[i], value=fixed(value)))
        if name == "bias":
            return say("core-layer-view.gloss-bias")
        omega = "ω₁" if name.endswith("1") else "ω₂"
        return say("core-layer-view.how-position", wave=name[:3], omega=omega, position=i, value=fixed(value))
    if step == "projected":
        write = next((w for w in layer.WRITES if w[2] == name), None)
        if write is None:
            return say("core-layer-view.how-no-write")
        if write[0] == r.silent:
            return say("core-layer-view.how-head-off", head=write[0])
        return say("core-layer-view.how-write", head=write[0], feature=write[1], value=fixed(value))
    if step in ("after_attention", "after_mlp"):
        a, b = ("x", "projected") if step == "after_attention" else ("norm1", "mlp")
        if not keep:
            return (say("core-layer-view.how-projected-only", value=fixed(value)) if b == "projected" else
                    say("core-layer-view.how-mlp-only", value=fixed(value)))
        return f"{fixed(cols[a][i, k])} + {fixed(cols[b][i, k])} = {fixed(value)}"
    if step in ("norm1", "output"):
        before = cols["after_attention" if step == "norm1" else "after_mlp"][i]
        return _norm_how(before, k, value, "layer_norm" in r.without)
    # the MLP's writes
    if name not in layer.UNITS:
        return say("core-layer-view.how-mlp-slots")
    if "mlp" in r.without:
        return say("core-layer-view.how-mlp-off")
    a, b = layer.RULES[name]
    pa, pb = r.norm1[i, layer.STREAM.index(a)], r.norm1[i, layer.STREAM.index(b)]
    return (f"ReLU({a} {fixed(pa)} + {b} {fixed(pb)} − {fixed(layer.THRESHOLD)}) "
            f"= {fixed(value)}")


def _head_how(r: layer.Layer, h: layer.Head, i: int, f: int) -> str:
    """How one head's output number (feature f, word i) was computed: weights × features."""
    if h.name == r.silent:
        return say("core-layer-view.how-head-off", head=h.name)
    terms = sorted(((h.weights[i, j], j) for j in range(i + 1)), reverse=True)
    shown_terms = [f"{fixed(w)} × {fixed(r.x[j, f])} ({r.words[j]})" for w, j in terms[:3]]
    more = say("core-layer-view.how-more", count=len(terms) - 3) if len(terms) > 3 else ""
    total = r.concat[i, r.heads.index(h) * len(bench.FEATURES) + f]
    return say("core-layer-view.how-head", feature=bench.FEATURES[f], terms=" + ".join(shown_terms), more=more,
               value=fixed(total))


def _cell(value: float, how: str, was: float | None) -> dict:
    changed = bool(was is not None and abs(value - was) > 1e-12)
    return {**shown(value), "how": how, "changed": changed,
            "was": say("core-layer-view.was", value=fixed(was)) if changed else None}


def _fired(r: layer.Layer) -> dict[str, list[str]]:
    return {u: [w for w, h in zip(r.words, r.hidden[:, k]) if h > 0]
            for k, u in enumerate(layer.UNITS)}


def _changed_sentence(r, full, word_steps, moved, i: int) -> str:
    """Say which of the followed word's steps a switch changed (and whose stream it changed,
    the positions ``moved``, when not every word's), what the MLP's units did then, and why."""
    labels = switch_labels()
    off = [labels[w] for w in r.without] + ([say("core-layer-view.the-head", head=r.silent)] if r.silent else [])
    if not off:
        return ""
    word = r.words[i]

    def quoted(w):
        return say("core-layer-view.quoted", word=w)

    said = [say("core-layer-view.changed-steps", parts=_and(off), steps=listed(word_steps), word=word)
            if word_steps else say("core-layer-view.changed-none", parts=_and(off), word=word)]
    if not moved:
        said.append(say("core-layer-view.no-stream"))
    elif len(moved) < len(r.words):  # not every word's stream: say whose
        names = listed([quoted(w) for w in dict.fromkeys(r.words[k] for k in moved)])
        said.append(say("core-layer-view.stream-only", words=names))
    now, was = _fired(r), _fired(full)
    for k, unit in enumerate(layer.UNITS):
        if now[unit] != was[unit]:
            now_, was_ = ([quoted(w) for w in words] for words in (now[unit], was[unit]))
            said.append(say("core-layer-view.fires-now", unit=unit,
                            now=listed(now_) if now_ else say("core-layer-view.no-word"),
                            was=listed(was_) if was_ else say("core-layer-view.no-word")))
        elif abs(r.hidden[i, k] - full.hidden[i, k]) > 1e-12:
            said.append(say("core-layer-view.fires-still", unit=unit, word=word, now=fixed(r.hidden[i, k]),
                            was=fixed(full.hidden[i, k])))
    zero = [k for k, row in enumerate(r.output) if not np.abs(row).max() > 1e-12]
    others = [quoted(w) for k, w in enumerate(r.words) if k not in zero]
    if zero and not others:
        said.append(say("core-layer-view.zeros-all"))
    elif len(zero) > len(others):  # say the fewer: the words that keep a number
        said.append(say("core-layer-view.zeros-but", words=listed(others)))
    elif zero:
        said.append(say("core-layer-view.zeros", count=len(zero), words=listed([quoted(r.words[k]) for k in zero])))
    said += [_why(w) for w in r.without] + ([_why("silent")] if r.silent else [])
    return say("core-layer-view.gap").join(said)


def view(sentence=None, focus=None, temperature="1", without=(), silent=None) -> dict:
    """Return the layer chapter's view of a state (schema in the module docstring), or raise
    BenchInputError naming the field at fault."""
    words = tuple(lexicon.default_sentence() if sentence is None else parse_sentence(sentence))
    n = len(words)
    i = lexicon.first_word(words) if focus is None else parse_position(focus, "focus", n, "word followed")
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
    gloss = glosses()
    for head in heads:
        top = head["looks"][0]
        head["writes_text"] = (
            say("core-layer-view.copies", writes=say("list.separator").join(
                say("core-layer-view.copy", feature=w["feature"], value=w["text"], slot=w["slot"])
                for w in head["writes"])) if head["writes"]
            else say("core-layer-view.copies-nothing"))
        cls = lexicon.WORDS[words[i]].word_class
        rests = (_rests(words[i], head["name"])
                 if head["name"] in SERVES and cls != SERVES[head["name"]] else "")
        head["said"] = (say("core-layer-view.head-off") if head["silent"]
                        else say("core-layer-view.looks", word=top["word"], weight=top["text"], rests=rests))
    features = [{"name": f, "gloss": gloss[f], "cells": [
        _cell(r.concat[i, hi * d_v + k], _head_how(r, h, i, k),
              full.concat[i, hi * d_v + k] if switched else None)
        for hi, h in enumerate(r.heads)]} for k, f in enumerate(bench.FEATURES)]
    # what a switch changed for the followed word (its column's marks), and whose numbers moved
    def differs(a, b):
        return ~np.isclose(a, b, rtol=0, atol=1e-12).all(axis=-1)  # (n, d) -> (n,)
    step_changed = {key: bool(differs(cols[key][i], full_cols[key][i])) for key, _ in STEPS}
    heads_changed = bool(differs(r.concat[i], full.concat[i]))
    word_steps = sorted({*(n_ for key, n_ in STEPS if step_changed[key]), *([2, 3] if heads_changed else [])})
    moved_rows = np.zeros(n, dtype=bool)  # (n,): the words whose stream (steps 1, 4 to 9) moved
    for key, _ in STEPS:
        moved_rows = moved_rows | differs(cols[key], full_cols[key])  # (n,)
    moved = [int(k) for k in np.flatnonzero(moved_rows)]
    titles_now = titles(off)
    rows = [{"name": name, "kind": "slot" if name in layer.SLOTS else "feature",
             "gloss": gloss[name],
             "cells": [_cell(cols[key][i, k], _how(r, cols, key, i, k),
                             full_cols[key][i, k] if switched else None) for key, _ in STEPS]}
            for k, name in enumerate(layer.STREAM)]
    fired = _fired(r)
    state = {"sentence": " ".join(words), "focus": i, "temperature": typed(t),
             "without": list(off), "silent": silent}
    no_word, separator = say("core-layer-view.no-word"), say("list.separator")
    summary = say("core-layer-view.semicolon").join(
        say("core-layer-view.fires", unit=u, words=separator.join(w) or no_word) for u, w in fired.items())
    return {
        "state": state,
        "sentence": {"text": " ".join(words), "words": list(words),
                     "note": reading_note(sentence, list(words)),
                     # whether a model that reads English (FIG-010's MiniLM) can follow it
                     "english": lexicon.english(words)},
        "focus": {"index": i, "word": words[i]},
        "temperature": {"value": t, "text": typed(t)},
        "heads": heads, "features": features,
        "steps": [{"key": key, "n": n_, "title": titles_now[key], "changed": step_changed[key]}
                  for key, n_ in STEPS],
        "rows": rows,
        "sizes": [_cell(float(np.linalg.norm(cols[key][i])), say("core-layer-view.how-size"),
                        float(np.linalg.norm(full_cols[key][i])) if switched else None)
                  | {"key": key} for key, _ in STEPS],
        "units": [{"name": u, "rule": f"{a} + {b} − {fixed(layer.THRESHOLD)}", "fired": fired[u],
                   "fired_text": separator.join(fired[u]) or no_word}
                  for u, (a, b) in layer.RULES.items()],
        "switches": [{"name": s, "label": label, "on": s not in off} for s, label in switch_labels().items()],
        "changed": _changed_sentence(r, full, word_steps, moved, i),
        "said": say("core-layer-view.said", word=words[i], t=typed(t), summary=summary),
    }
