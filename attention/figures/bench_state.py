"""The bench's state, which its chapter's live figures share (the drawing, the working table,
the matrix and the trained model beside them): the sentence, the head, the query, the
temperature, the shut stopcocks and the what-if steps removed. ``?sentence=...&head=sink&
query=3&t=2&shut=1&without=scale`` reopens one.
"""

from __future__ import annotations

import math

import numpy as np

from .. import bench, bench_drawing, bench_view, lab, lexicon, quiz, trained_view, whatif
from ..bench_input import BenchInputError
from ..catalog import say
from ..numbers import exact, fixed
from ..protocol import delta
from ..protocol.export import WITHOUT_COLUMNS, without_cells
from ..protocol.neighbours import removed_steps, whatif_toggles
from ..protocol.records import State
from ..protocol.urlstate import removed_parameter, t_meaning, without_meaning

__all__ = ["NAME", "PARAMETERS", "STATE", "answer", "apply", "counterfactual", "data", "questions",
           "export", "exported_state", "neighbours", "url"]

NAME = "bench"  # its name, as the bridge and the page send it
PARAMETERS = ("sentence", "head", "query", "t", "shut", "without")  # its figures' URLs
FIELDS = {"sentence", "head", "query", "temperature", "slider", "shut", "without"}


def data(**state) -> dict:
    """Return the bench figures' data: the bench's view of a state, plus what never changes:
    every head's weights, the input ranges and the lexicon size.

    >>> d = data()
    >>> d["query"]["word"], len(d["heads"]), d["max_words"]
    ('she', 4, 40)
    """
    # The state as the bridge answers it (with the reader's trained head), so the page's first
    # request is the very key of its precomputed answers.
    view = trained_view.with_pick(bench_view.view, state)
    return {**view, "heads": bench_view.heads(), "limits": lab.limits(),
            "max_words": bench.MAX_WORDS, "lexicon_size": len(lexicon.lexicon()),
            "d_k": bench.D_K, "dial_span": bench_drawing.DIAL_SPAN,
            "dial_floor": fixed(math.exp(-bench_drawing.DIAL_SPAN), 4), "neutral_t": exact(lab.NEUTRAL_T),
            "palette": bench_drawing.PALETTE, "lexicon": bench_view.lexicon(),
            "quiz": quiz.view(**{k: v for k, v in state.items() if k != "slider"}),
            # a what-if drawing with every part (a later stopcock opens), for the templates
            # the page clones when a step is removed
            "whatif_parts": bench_view.view(without=["mask"])["drawing"]["whatif"]}


def answer(state: dict) -> dict:
    """Answer a request; leave out the matrix when the request's ``have`` names the one the
    page already holds (attention.protocol.delta)."""
    state = dict(state)
    try:
        have = delta.read_have(state.pop("have", None))
    except ValueError as exc:
        raise BenchInputError("have", str(exc)) from None
    return delta.trim(trained_view.with_pick(bench_view.view, state), have)


def apply(name: str, value: str, state: dict) -> None:
    """Apply one URL parameter to state (in the order of its parameters), or raise ValueError."""
    key = {"t": "temperature"}.get(name, name)
    if name == "shut":
        parts = value.split(",") if value else []
        if not all(p.isdigit() for p in parts):
            raise ValueError(say("bench-state.positions", example="1,3"))
        state["shut"] = [int(p) for p in parts]
    elif name == "query":
        state["query"] = int(value) if value.lstrip("-").isdigit() else value
    elif name == "trained":  # the trained model's head beside the bench's, "layer-head"
        trained_view.parse_head(value)
        state["trained"] = value
        return
    else:
        state[key] = value
    bench_view.view(**state)  # the bench's own checks, against the state so far


def url(data: dict) -> dict:
    """Return the URL parameters that reopen a bench view (the default sentence left out)."""
    s = data["state"]
    out = {"sentence": s["sentence"], "head": s["head"], "query": str(s["query"]),
           "t": s["temperature"]}
    if s["shut"]:
        out["shut"] = ",".join(str(j) for j in s["shut"])
    if s.get("trained"):
        out["trained"] = s["trained"]
    if s["sentence"] == " ".join(lexicon.default_sentence()):
        del out["sentence"]
    return {**out, **removed_parameter(data)}


def neighbours(data: dict) -> list[dict]:
    """The requests one click away: the whole state, plus one change (bench.js sends the last
    good state)."""
    state = data["state"]
    base = {"figure": NAME, **state, **removed_steps(data)}
    n = len(data["sentence"]["words"])

    def toggle(j: int) -> list[int]:
        shut = state["shut"]
        return [k for k in shut if k != j] if j in shut else [*shut, j]

    return [
        *[{**base, "query": j} for j in range(n)],  # a row of the table or the matrix
        *[{**base, "head": h} for h in bench.HEADS],  # a head's radio button or card
        *[{**base, "shut": toggle(v["index"])} for v in data["drawing"]["valves"]
          if v["can_turn"]],  # a stopcock
        {**base, "sentence": data["sentence"]["text"], "query": None, "shut": []},  # resubmit
        *[{**base, "slider": str(data["slider"] + step)} for step in (-1, 1)
          if 0 <= data["slider"] + step <= 1000],  # the slider's arrow keys
        *whatif_toggles(base, data),  # a what-if toggle
    ]


def exported_state(d: dict) -> dict:
    """The bench state a download was made from, the query as position and word."""
    s = d["state"]
    return {"sentence": s["sentence"], "head": s["head"],
            "query": {"index": s["query"], "word": d["query"]["word"]},
            "T": s["temperature"], "shut": [{"index": j, "word": d["sentence"]["words"][j]}
                                            for j in s["shut"]],
            "without": d["whatif"]["without"]}


def counterfactual(d: dict):
    """The counterfactual of the whole sentence under the bench's state, or None."""
    removed = tuple(d["whatif"]["without"])
    if not removed:
        return None
    words, s = d["sentence"]["words"], d["state"]
    n = len(words)
    tr = bench.trace(words, s["head"], d["temperature"]["value"])
    shut = np.zeros(n, dtype=bool)
    shut[s["shut"]] = True
    return whatif.counterfactual(tr.scores, tr.d_k, tr.temperature,
                                 mask=np.broadcast_to(~shut, (n, n)),  # (n, n)
                                 causal=bench.causal_mask(n), without=removed)


def export(state: dict) -> dict:
    """The working table's download, for the current query: each row carries the state
    (sentence, head, query position and word, T); a later key and a shut one are told
    apart (``causal_masked``, ``shut``). The trained head shown beside the bench, the
    comparison's own choice, changes nothing in it."""
    d = bench_view.view(**{k: v for k, v in state.items() if k != "trained"})
    s, i, cf = d["state"], d["query"]["index"], counterfactual(d)
    lead = [s["sentence"], s["head"], i, d["query"]["word"], d["temperature"]["value"]]
    rows = [[*lead, r["index"], r["word"], r["future"], r["shut"], r["dot"]["value"],
             r["scaled"]["value"], r["tempered"]["value"], r["exp"]["value"],
             r["weight"]["value"], *(without_cells(cf, i, r["index"]) if cf else [])]
            for r in d["rows"]]
    return {"columns": [say("bench-state.col-sentence"), say("bench-state.col-head"),
                        say("bench-state.col-query-j"), say("bench-state.col-query-word"), "T", "j",
                        say("bench-state.col-word"), say("bench-state.col-causal-masked"),
                        say("bench-state.col-shut"), say("bench-state.col-q-dot-k"),
                        say("bench-state.col-scaled"), say("bench-state.col-tempered"), "exp",
                        say("bench-state.col-weight"), *(WITHOUT_COLUMNS if cf else [])],
            "rows": rows, "state": exported_state(d), "head": d["head"]["name"],
            "query": {"index": i, "word": d["query"]["word"]},
            "temperature": d["temperature"]["value"], "sentence": d["sentence"]["text"],
            **({"without": {"steps": d["whatif"]["without"],
                            "sentence": d["whatif"]["sentence"]}} if cf else {})}


# what each figure that shows the bench's state says of it, alike (the drawing, the working
# table, the matrix)
SHOWN = {"chapter": "bench", "data": data, "state": NAME,
         "parameters": PARAMETERS, "table": NAME}

def questions(state: dict, answered: dict) -> list[dict]:
    """The quiz's first three questions on a bench state, for a class handout (attention.quiz,
    which computes the bench itself: ``answered`` is not read).

    >>> [q["id"] for q in questions({"query": 6}, {})]  # (the quiz computes the bench itself)
    ['shut-top', 'temperature', 'sink-unmasked']
    """
    return quiz.view(**{k: v for k, v in state.items() if k in quiz.FIELDS})["questions"][:3]


STATE = State(name=NAME, answer=answer, questions=questions, fields=frozenset({*FIELDS, "trained", "have"}),
              parameters=(*PARAMETERS, "trained"), apply=apply, url=url, neighbours=neighbours,
              steps=whatif.STEPS, positions=("query", "shut"),
              unwritten=lambda: {"sentence": " ".join(lexicon.default_sentence())},
              meanings=lambda: {  # said when read: in the language of the page that shows them
                  "sentence": (say("bench-meanings.sentence"),
                               say("bench-meanings.sentence-values", words=bench.MAX_WORDS,
                                   lexicon=len(lexicon.lexicon()))),
                  "head": (say("bench-meanings.head"), ", ".join(bench.HEADS)),
                  "query": (say("bench-meanings.query"), say("bench-meanings.query-values")),
                  "t": t_meaning(),
                  "shut": (say("bench-meanings.shut"), say("bench-meanings.shut-values")),
                  "without": without_meaning(whatif.STEPS),
                  "trained": (say("bench-meanings.trained"), say("bench-meanings.trained-values"))})
