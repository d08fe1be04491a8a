"""FIG-003, the lab (chapter 3): one query against the toy's keys, with masks, a temperature
and the what-if panel; ``?q=0,0&mask=1,0,1&t=0.5&without=scale`` reopens a state.
"""

from __future__ import annotations

from .. import lab, toy, whatif
from ..catalog import say, spoken
from ..numbers import spelled, typed
from ..questions import mixture
from ..protocol.export import WITHOUT_COLUMNS, without_cells
from ..protocol.neighbours import removed_steps, whatif_toggles
from ..protocol.records import Figure, State
from ..protocol.urlstate import bits, removed_parameter, t_meaning, without_meaning

__all__ = ["FIGURE", "STATE", "answer", "apply", "data", "export", "neighbours", "questions", "url"]

NAME = "lab"  # its state's name, as the bridge and the page send it
STEPS = ("scale", "shift")  # the what-if steps it may remove (the causal mask is the bench's)


def data(**state) -> dict:
    """Return the lab for a state (see lab.view), with its input ranges.

    >>> data(query=["0", "0"])["output"]["text"]
    '[0.667, 1.333]'
    """
    return {**lab.view(**state), "limits": lab.limits()}


def answer(state: dict) -> dict:
    """Answer a request: the lab's view of its fields."""
    return lab.view(**state)


def apply(name: str, value: str, state: dict) -> None:
    """Apply one URL parameter to state, or raise ValueError saying why it cannot."""
    if name == "q":
        parts = value.split(",")
        if len(parts) != 2:
            raise ValueError(say("fig-003-core.two-numbers", example="0.5,-1"))
        lab.view(query=parts)  # the lab's own checks
        state["query"] = parts
    elif name == "mask":
        state["mask"] = bits(value, len(toy.TOKENS))
        lab.view(mask=state["mask"])
    else:
        lab.view(temperature=value)
        state["temperature"] = value


def url(data: dict) -> dict:
    """Return the URL parameters that reopen a lab view.

    >>> url(lab.view(["0.5", "1"], temperature="2"))
    {'q': '0.5,1', 'mask': '1,1,1', 't': '2'}
    """
    return {"q": ",".join(data["fields"]), "mask": ",".join("1" if m else "0" for m in data["mask"]),
            "t": data["temperature"]["text"], **removed_parameter(data)}


def neighbours(data: dict) -> list[dict]:
    """The requests one click away: its fields as typed, plus one change (lab.js reads every
    field per request)."""
    base = {"figure": NAME, "query": list(data["fields"]), "mask": list(data["mask"]),
            "temperature": data["temperature"]["text"], **removed_steps(data)}
    toggled = [{**base, "mask": [on != (j == i) for j, on in enumerate(data["mask"])]}
               for i in range(len(data["mask"]))]
    queries = [["0", "0"]] + [[typed(x) for x in q] for q in toy.roles()["Q"]]  # zero, tokens
    return [
        base,  # the same state again, e.g. a field retyped unchanged
        *toggled,  # a key's switch
        *[{**base, "move": move} for move in ("left", "right", "up", "down")],  # arrow keys
        *[{**base, "query": q} for q in queries],  # the prediction's zero query; each token's
        *[{**base, "slider": str(data["slider"] + step)} for step in (-1, 1)  # slider's arrows
          if 0 <= data["slider"] + step <= 1000],
        *whatif_toggles(base, data),  # a what-if toggle
    ]


def export(state: dict) -> dict:
    """Its download: every stage for every key; each row also carries the state it was made
    from (q, T, the key's switch) and the output, so a file stands on its own."""
    d = lab.view(**state)
    stages = ("score", "scaled", "tempered", "shifted", "exp", "weight")
    q, out, t = d["query"]["value"], d["output"]["value"], d["temperature"]["value"]
    removed = tuple(d["whatif"]["without"])
    tr = toy.trace(q, mask=d["mask"], temperature=t)
    cf = whatif.counterfactual(tr.scores, tr.d_k, t, mask=[d["mask"]], without=removed)
    rows = [[*q, t, r["token"], r["allowed"], *[r[s]["value"] for s in stages], *out,
             *(without_cells(cf, 0, j) if removed else [])] for j, r in enumerate(d["rows"])]
    w = d["whatif"]
    said = {"score": say("export.score"), "scaled": say("export.scaled"), "tempered": say("export.tempered"),
            "shifted": say("export.shifted"), "exp": "exp", "weight": say("export.weight")}
    return {"columns": ["q_1", "q_2", "T", say("export.key"), say("export.allowed"), *[said[s] for s in stages],
                        *[say("export.output", n=c) for c in (1, 2)], *(WITHOUT_COLUMNS if removed else [])],
            "rows": rows, "query": q, "temperature": t, "output": out,
            "state": {"q": d["fields"], "T": d["temperature"]["text"],
                      "allowed": [r["token"] for r in d["rows"] if r["allowed"]],
                      "without": list(removed)},
            **({"without": {"steps": list(removed), "failure": w["counterfactual"]["failure"],
                            "message": w["counterfactual"]["message"],
                            "output": w["output"]["value"] if w["output"] else None,
                            "sentence": w["sentence"]}} if removed else {})}


def questions(state: dict, answered: dict) -> list[dict]:
    """Three questions on the lab's state, for a class handout (attention.questions): at a
    temperature of 2, halving it still sharpens the mixture.

    >>> state = {"query": ["1", "1"], "temperature": "2"}
    >>> [q["answer"] for q in questions(state, answer(state))]
    ['rises', 'rises', 'grow']
    """
    return mixture(answered["rows"])


STATE = State(name=NAME, answer=answer, questions=questions,
              fields=frozenset({"query", "mask", "temperature", "move", "pad", "slider", "without"}),
              parameters=("q", "mask", "t", "without"), apply=apply, url=url,
              neighbours=neighbours, steps=STEPS,
              meanings=lambda: {
                  "q": (say("fig-003-core.q-meaning", n=spelled(toy.X.shape[1], spoken())),
                        say("fig-003-core.q-values", limit=lab.limits()["query"], example="0,0")),
                  "mask": (say("fig-003-core.mask-meaning", on=1, off=0),
                           say("fig-003-core.for-example", example="1,0,1")),
                  "t": t_meaning(), "without": without_meaning(STEPS)})
FIGURE = Figure(number="FIG-003", chapter="lab",
                title=lambda: say("fig-003-core.title", keys=spelled(len(toy.TOKENS), spoken())), data=data,
                state=NAME, widget=NAME, export=export, parameters=STATE.parameters, table=NAME,
                aliases=("lab",))
