"""FIG-009, "A sentence through a whole layer" (chapter 5): the reader's sentence through the
four heads, W_O, the residual, layer norm and the MLP, for one word the reader follows, with
every number's working and switches that take a part out. ``?sentence=...&word=6&t=1&
off=mlp&silent=coreference`` reopens one.
"""

from __future__ import annotations

from .. import bench, layer, layer_view, lexicon
from ..bench_input import BenchInputError
from ..catalog import say
from ..protocol.records import Figure, RequestError, State
from ..protocol.urlstate import t_meaning
from ..questions import GROW, SHRINK, change, changes
from ..quiz import word_choices

__all__ = ["FIGURE", "STATE", "answer", "apply", "data", "export", "neighbours", "questions", "url"]

NAME = "layer"  # its state's name, as the bridge and the page send it
PARAMETERS = ("sentence", "word", "t", "off", "silent")


def data(**state) -> dict:
    """The figure's data: the layer's view of a state (attention.layer_view), plus what never
    changes: the input limits, the heads' names and the parts that switch off.

    >>> d = data()
    >>> d["focus"]["word"], d["max_words"], [s["name"] for s in d["switches"]]
    ('she', 40, ['residual', 'layer_norm', 'mlp'])
    """
    return {**layer_view.view(**state), "max_words": bench.MAX_WORDS,
            "lexicon_size": len(lexicon.lexicon()), "head_names": list(bench.HEADS),
            "d_model": layer.D_MODEL, "threshold": layer.THRESHOLD}


def answer(state: dict) -> dict:
    """Answer a request for a layer state."""
    for key in ("sentence", "silent"):
        if state.get(key) is not None and not isinstance(state[key], str):
            raise RequestError(f"The {key} must be text.", key)
    return layer_view.view(**state)


def apply(name: str, value: str, state: dict) -> None:
    """Apply one URL parameter to state (in the order of its parameters), or raise ValueError."""
    key = {"word": "focus", "t": "temperature", "off": "without"}.get(name, name)
    trial = {**state, key: value}
    try:
        layer_view.view(**trial)  # the layer's own checks, against the state so far
    except BenchInputError as exc:
        raise ValueError(str(exc)) from None
    state[key] = value


def url(data: dict) -> dict:
    """Return the URL parameters that reopen a view (the default sentence left out)."""
    s = data["state"]
    out = {"sentence": s["sentence"], "word": str(s["focus"]), "t": s["temperature"]}
    if s["without"]:
        out["off"] = ",".join(s["without"])
    if s["silent"]:
        out["silent"] = s["silent"]
    if s["sentence"] == " ".join(lexicon.default_sentence()):
        del out["sentence"]
    return out


def neighbours(data: dict) -> list[dict]:
    """The requests one click away: another word to follow, a switch turned, a head silenced
    or brought back.

    >>> len(neighbours(data()))  # 8 words, 3 switches, 4 heads
    15
    """
    s = data["state"]
    base = {"figure": NAME, "sentence": s["sentence"], "focus": s["focus"],
            "temperature": s["temperature"], "without": s["without"], "silent": s["silent"]}

    def turned(part: str) -> list[str]:
        return [w for w in layer.SWITCHES if (w in s["without"]) != (w == part)]

    return [*[{**base, "focus": j} for j in range(len(data["sentence"]["words"]))],
            *[{**base, "without": turned(part)} for part in layer.SWITCHES],
            *[{**base, "silent": None if s["silent"] == h else h} for h in bench.HEADS]]


def export(state: dict) -> dict:
    """Its download: the stream's 18 numbers at every step for the word followed; each row
    also carries the state (sentence, word, T, the parts switched off), so a CSV stands alone."""
    d = layer_view.view(**state)
    s = d["state"]
    lead = [s["sentence"], s["focus"], d["focus"]["word"], d["temperature"]["value"],
            ",".join(s["without"]), s["silent"] or ""]
    rows = [[*lead, r["name"], *[c["value"] for c in r["cells"]]] for r in d["rows"]]
    return {"columns": [say("export.sentence"), say("export.word-j"), say("export.word"), "T", say("export.off"),
                        say("export.silent"), say("export.number"), *[step["key"] for step in d["steps"]]],
            "rows": rows, "state": s, "word": d["focus"],
            "heads": [{"name": h["name"], "looks": [{k: x[k] for k in ("index", "word", "value")}
                                                    for x in h["looks"]]} for h in d["heads"]]}


def _size(d: dict, key: str) -> dict:
    """A step's size (the vector's length) in a view, by the step's key."""
    return next(s for s in d["sizes"] if s["key"] == key)


def questions(state: dict, d: dict) -> list[dict]:
    """Three questions on the layer's state for a class handout, each answered from that
    state's answer ``d``, never typed.

    >>> [q["answer"] for q in questions({}, answer({}))]
    ['w1', 'heads', 'grow']
    """
    words = d["sentence"]["words"]
    i = d["focus"]["index"]
    # the followed word, with its position when the sentence repeats it (“the” (word 3)), as the
    # choices name theirs
    word = say("fig-009-core.word", word=words[i])
    word = say("fig-009-core.word-at", word=word, index=i) if words.count(words[i]) > 1 else word
    s = d["state"]
    head = next((h for h in d["heads"] if h["name"] == "coreference" and not h["silent"]),
                next(h for h in d["heads"] if not h["silent"]))
    top = head["looks"][0]
    heads, mlp = _size(d, "projected"), _size(d, "mlp")
    a, b = float(heads["text"]), float(mlp["text"])
    more = "heads" if a > b else "mlp" if b > a else "equal"
    if "layer_norm" in s["without"]:  # no layer norm to ask about: the residual's addition
        first, then = _size(d, "projected"), _size(d, "after_attention")
        asked = say("fig-009-core.asked-residual", word=word, size=first["text"])
        why = say("fig-009-core.why-residual")
    else:
        first, then = _size(d, "after_attention"), _size(d, "norm1")
        asked = say("fig-009-core.asked-norm", word=word, size=first["text"])
        why = say("fig-009-core.why-norm")
    changed = change(first["text"], then["text"])
    sizes = {"first": first["text"], "then": then["text"], "why": why}
    explained = (say("fig-009-core.grows", **sizes) if changed == GROW else
                 say("fig-009-core.shrinks", **sizes) if changed == SHRINK else say("fig-009-core.stays", **sizes))
    return [
        {"id": "head-looks", "prompt": say("fig-009-core.head-looks", head=head["name"], word=word),
         "choices": word_choices(words, [x["index"] for x in head["looks"]]),
         "answer": f"w{top['index']}",
         # the figure's own sentence for the head (a word that is not a pronoun rests on the
         # first word: the gloss alone, "a pronoun finds its noun", read as wrong beside it)
         "explanation": say("fig-009-core.head-looks-why", head=head["name"], gloss=head["gloss"], said=head["said"])},
        {"id": "writes-more",
         "prompt": say("fig-009-core.writes-more", word=word),
         "choices": [{"id": "heads", "label": say("fig-009-core.the-heads")},
                     {"id": "mlp", "label": say("fig-009-core.the-mlp")},
                     {"id": "equal", "label": say("fig-009-core.as-much")}],
         "answer": more,
         "explanation": say("fig-009-core.writes-more-why", heads=heads["text"], mlp=mlp["text"])},
        {"id": "size-step", "prompt": say("fig-009-core.size-step", asked=asked),
         "choices": changes(), "answer": changed, "explanation": explained},
    ]


STATE = State(name=NAME, answer=answer, questions=questions,
              fields=frozenset({"sentence", "focus", "temperature", "without", "silent"}),
              parameters=PARAMETERS, apply=apply, url=url, neighbours=neighbours, positions=("word",),
              unwritten=lambda: {"sentence": " ".join(lexicon.default_sentence())},
              meanings=lambda: {
                  "sentence": (say("fig-009-core.sentence-meaning"),
                               say("fig-009-core.sentence-values", most=bench.MAX_WORDS, size=len(lexicon.lexicon()))),
                  "word": (say("fig-009-core.word-meaning", first=0),
                           say("fig-009-core.word-values", first=0, one=1)),
                  "t": t_meaning(),
                  "off": (say("fig-009-core.off-meaning"),
                          say("urlstate.comma-separated", values=", ".join(layer.SWITCHES))),
                  "silent": (say("fig-009-core.silent-meaning"), ", ".join(bench.HEADS))})
FIGURE = Figure(number="FIG-009", chapter="layer", title=lambda: say("layer.title"),
                data=data, state=NAME, widget="fig-009", export=export, parameters=PARAMETERS,
                table=NAME)
